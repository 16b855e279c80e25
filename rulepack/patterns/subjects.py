"""What the pattern searches read of the engine's values, as protocols.

The pattern searches sit below the engine (:mod:`rulepack.engine` imports them,
never the other way round) and read only this of what the engine hands them: a
piece's id, kind and attributes (:class:`Piece`, as
:class:`rulepack.engine.values.Piece` has them), and of a position its program's
pieces, the game's memo and the steps it has left (:class:`Position`, as
:class:`rulepack.engine.position.Position` has them). This module is never
compiled.
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence


class Piece(Protocol):
    """A piece: its id (its index among the program's pieces), kind and attributes."""

    @property
    def id(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def attrs(self) -> dict[str, Any]: ...


class Pieces(Protocol):
    """What has every piece of a game (a program)."""

    @property
    def pieces(self) -> Sequence[Piece]: ...


class Position(Protocol):
    """What a search reads and writes of a position: the program whose pieces it
    indexes, the game's memo (kept between questions, shared by copies) and the
    steps left of the decision's budget (spent by the search)."""

    memo: dict[Any, Any]
    steps_left: int

    @property
    def program(self) -> Pieces: ...
