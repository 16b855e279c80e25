"""Print the requirements of the named extras of pyproject.toml, one per line.

`.ci/run` installs the extras of its later steps with these, rather than with
`pip install -e '.[extra]'`, which would build rulepack (and compile its pattern
searches) once more for every step.

    python .ci/extras.py render browser
"""
import sys
import tomllib
from pathlib import Path

extras = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml")
                       .read_text())["project"]["optional-dependencies"]
unknown = [name for name in sys.argv[1:] if name not in extras]
if unknown:
    sys.exit(f"no extra named {', '.join(unknown)} in pyproject.toml")
print("\n".join(sorted({req for name in sys.argv[1:] for req in extras[name]})))
