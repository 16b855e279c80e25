"""The language reference (``docs/language.md``) as hover and completion texts.

The texts are kept in ``reference.json`` beside this module, so an installed
rulepack has them without its docs; ``python -m rulepack.lsp.reference
docs/language.md`` writes that file again (a test checks that it matches the
reference).

Shape of the data: ``{"constructs": {WORD: MARKDOWN}, "functions": {NAME:
{"signature": "count(X)", "doc": TEXT}}, "names": {NAME: TEXT}}`` — a construct is
a word named in backquotes by a heading of sections 4-6 (``### `move```), its text
that section up to the next heading (at most :data:`MAX_CHARS`, cut at a
paragraph); functions and names are the rows of the tables of sections 7 and 8.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("reference.json")
#: The longest hover text of a construct, in characters.
MAX_CHARS = 1800

_HEADING = re.compile(r"^(#{2,4}) (.*)$")
_ROW = re.compile(r"^\| (.+?) \| (.+) \|$")


def build(markdown: str) -> dict[str, Any]:
    """The reference data from the text of ``docs/language.md``."""
    constructs: dict[str, str] = {}
    functions: dict[str, dict[str, str]] = {}
    names: dict[str, str] = {}
    section = ""
    heading: str | None = None
    body: list[str] = []
    in_code = False

    def close() -> None:
        if heading is None or not section.startswith(("4.", "5.", "6.")):
            return
        text = _cut("\n".join(body).strip())
        for word in re.findall(r"`([a-z_]+)[^`]*`", heading):
            constructs.setdefault(word, f"**{heading.replace('`', '')}**\n\n{text}")

    for line in markdown.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else _HEADING.match(line)
        if match:
            close()
            level, title = match.groups()
            if len(level) == 2:
                section, heading, body = title, None, []
            else:
                heading, body = title, []
            continue
        if heading is not None:
            body.append(line)
        row = _ROW.match(line)
        if row and not in_code:
            left, right = row.groups()
            if section.startswith("8."):
                for signature in re.findall(r"`([a-z_]+\([^`]*\))`", left):
                    name = signature.split("(")[0]
                    entry = functions.setdefault(name, {"signature": signature, "doc": right})
                    if signature not in entry["signature"]:
                        entry["signature"] += f", {signature}"
            elif section.startswith("7."):
                for name in re.findall(r"`([a-z_]+)`", left):
                    names.setdefault(name, right)
    close()
    return {"constructs": constructs, "functions": functions, "names": names}


def _cut(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    cut = text.rfind("\n\n", 0, MAX_CHARS)
    cut = cut if cut > 0 else MAX_CHARS
    rest = text[:cut]
    if rest.count("```") % 2:  # never leave a code block open
        rest = rest[:rest.rfind("```")].rstrip()
    return rest + "\n\n(more in the language reference, docs/language.md)"


@lru_cache(maxsize=1)
def load() -> dict[str, Any]:
    """The reference data kept beside this module (see :func:`build`)."""
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def main(argv: list[str]) -> None:
    """Write ``reference.json`` from the given ``docs/language.md``."""
    data = build(Path(argv[0]).read_text(encoding="utf-8"))
    DATA.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                    encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
