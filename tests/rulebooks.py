"""The rulebook of every bundled ruleset, generated: ``docs/rulebooks/<ruleset>.md``
with its pictures beside it (``<ruleset>-1.svg``: the table after the setup;
``-2``: the end of the example game), for the smallest player count and the
default options, seed 1 — what ``rulepack rulebook RULESET -o
docs/rulebooks/RULESET.md`` writes. ``tests/test_rulebook.py`` fails when one is no
longer what the ruleset gives.

Regenerate after a change of a ruleset or of the English (from the repository root)::

    .venv/bin/python tests/rulebooks.py         # writes docs/rulebooks/*
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "rulebooks"


def expected(name: str) -> dict[str, str]:
    """File name → text of the rulebook of bundled ruleset ``name`` and its pictures."""
    import rulepack
    from rulepack.rulebook.book import rulebook
    from rulepack.rulebook.output import markdown
    book = rulebook(rulepack.load(name), seed=1)
    text, pictures = markdown(book, name)
    return {f"{name}.md": text, **pictures}


def main() -> None:
    from rulepack.loader import bundled_rulesets
    FOLDER.mkdir(parents=True, exist_ok=True)
    for old in FOLDER.iterdir():
        if old.suffix in (".md", ".svg"):
            old.unlink()
    for name in bundled_rulesets():
        for file, text in expected(name).items():
            (FOLDER / file).write_text(text, encoding="utf-8")
            print(f"docs/rulebooks/{file}: {len(text)} characters")


if __name__ == "__main__":
    main()
