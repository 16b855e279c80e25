"""Rolling dice: the ``roll`` statement's effect, and how a roll is told.

A die is a piece whose component says ``rolls NAME: FACES`` (see
:mod:`rulepack.compiler.dice`): ``piece.rolls`` holds the attribute, the faces
and their weights. The face a die shows is the state's, in ``Position.rolled`` (die
id → face; a die never rolled shows its first face), read like any attribute
(:func:`rulepack.engine.runtime.attribute`). Each die rolled is one chance event,
drawn from the state's generator (in explicit chance, a chance node with one
outcome per face) and recorded as ``ChanceEvent("roll", die name, (die, face))``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from rulepack.engine.actions import ChanceEvent
from rulepack.engine.drawn import drawn_at
from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.values import Piece, Rolls

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position


def roll(st: "Position", pieces: list[object]) -> None:
    """Roll each die of ``pieces``, in order: each shows a face drawn at random.

    :raises RuleValueError: an element is not a die (a piece whose component
        ``rolls``).
    """
    dice: list[tuple[Piece, Rolls]] = []
    for piece in pieces:
        if type(piece) is not Piece:
            raise RuleValueError(f"cannot roll {show(piece)}: only dice (pieces whose "
                                 "component 'rolls') roll")
        rolls = piece.rolls
        if rolls is None:
            raise RuleValueError(f"cannot roll {piece.name}: its component has no 'rolls'")
        dice.append((piece, rolls))
    for piece, (_, faces, weights) in dice:
        face = faces[st.rng.roll(faces, weights, piece.name)]
        rolled = dict(st.rolled)
        rolled[piece.id] = face
        st.rolled = rolled
        st.history.append(ChanceEvent("roll", piece.name, (piece, face), drawn_at(st)))


def roll_text(event: ChanceEvent, sees: Callable[[Piece], bool], look: Callable[[Piece], str],
              render: Callable[[object], str]) -> str:
    """A roll as a player reads it: ``roll red die: 3`` when ``sees(die)``, else
    ``roll a die`` (``look(die)``: how the hidden die looks)."""
    die, face = cast("tuple[Piece, object]", event.outcome)     # (a roll's outcome)
    if not sees(die):
        return f"roll a {look(die)}"
    return f"roll {die.name}: {render(face)}"
