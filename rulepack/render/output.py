"""Pictures of states, and their bytes: SVG or PNG."""

from __future__ import annotations

from typing import TYPE_CHECKING

import drawsvg as dw

from rulepack.render.appearance import Appearance
from rulepack.render.picture import drawing, png_bytes, svg_bytes
from rulepack.render.tableview import seat_view

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.game import Game

FORMATS = ("svg", "png")


def appearance(game: "Game", state: "State") -> Appearance:
    """The looks of ``game``'s pieces, with the seat names of ``state``.

    :raises RulepackError: a ``draw`` hint is bad (located in the ruleset).
    """
    from rulepack.ir import chance_names
    seats = list(state.view(0)["seats"])
    return Appearance(game.ir.get("components") or [], seats, str(game.file or game.name),
                      chance_names(game.ir))


def picture(game: "Game", state: "State", seat: int | None, caption: str = "",
            looks: Appearance | None = None) -> dw.Drawing:
    """The picture of ``state`` seen by ``seat`` (from 0; None: the table).

    :raises ValueError: ``seat`` is not a seat of the game.
    """
    looks = looks or appearance(game, state)
    view = seat_view(state, seat, game.ir.get("components") or [])
    return drawing(looks, view, game.title, caption)


def encode(d: dw.Drawing, fmt: str) -> bytes:
    """The bytes of a picture in ``fmt`` (``svg`` or ``png``)."""
    return png_bytes(d) if fmt == "png" else svg_bytes(d)
