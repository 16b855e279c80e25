"""Golden pictures: one position of every bundled ruleset, drawn, pinned.

``docs/pictures/<ruleset>.svg`` is the picture of the position :data:`GOLDEN`
gives for that ruleset (bots from the ``--seed`` play ``--after`` decisions, as
``rulepack render`` does); ``docs/pictures.md`` shows them, and
``tests/test_render.py`` fails when a picture is no longer the same bytes.

Regenerate after an intended change of the drawing (from the repository root)::

    .venv/bin/python tests/pictures.py          # writes docs/pictures/*.svg

and look at the pictures before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "pictures"

#: ruleset → (players, options, seed, decisions played, view: None = the table,
#: else a seat from 0). The same as the commands in docs/pictures.md.
GOLDEN: dict[str, tuple[int, dict[str, str], int, int, int | None]] = {
    "multzo": (3, {}, 3, 20, None),
    "packkub": (4, {"jokers": "2"}, 2, 40, 0),
    "multiplay": (3, {}, 1, 40, None),
    "mismemory": (2, {}, 1, 15, None),
    "tic-tac-toe": (2, {}, 4, 5, None),
    "connect-four": (2, {}, 1, 12, None),
    "partners": (4, {}, 1, 9, None),
    "ladders": (1, {}, 1, 12, None),
    "pig": (2, {}, 1, 7, None),
    "four-field-kono": (2, {}, 1, 10, None),
    "piecepack-tic-tac-toe": (2, {}, 4, 5, None),
    "alquerque": (2, {}, 1, 8, None),
    "american-checkers": (2, {}, 1, 50, None),
    "tablut": (2, {}, 1, 12, None),
    "fujisan": (1, {"coins": "44452n24n3aa/a25335325ann"}, 1, 10, None),
    "nine-mens-morris": (2, {}, 1, 30, None),
    "twelve-mens-morris": (2, {}, 2, 30, None),
    "awithlaknannai-mosona": (2, {}, 1, 12, None),
    "ludo": (4, {}, 1, 60, None),
    "backgammon": (2, {}, 1, 40, None),
}


def golden_svg(name: str) -> bytes:
    """The picture of ``name``'s golden position, as SVG bytes."""
    import rulepack
    from rulepack.render.output import encode, picture
    from rulepack.render.positions import played
    players, options, seed, after, view = GOLDEN[name]
    game = rulepack.load(name)
    state = played(game, ["random"] * players, seed, options, after)
    caption = f"seed {seed}, after {state.decisions} decisions"
    return encode(picture(game, state, view, caption), "svg")


def main(argv: Any = None) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in GOLDEN:
        path = FOLDER / f"{name}.svg"
        path.write_bytes(golden_svg(name))
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
