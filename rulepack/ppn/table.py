"""The relocations a PPN move describes, on a table of pieces, as ppgames does.

A :class:`Table` is the pieces on the table in stacking order (a piece later in
the list lies on those before it at its place), each a :class:`Row` as ppgames'
parser keeps it: an id, the piece and side it shows (``"coin_back"``), its suit and
rank (1-based: rank 1 is the null), its angle and its place ``(x, y)`` (PPN's
coordinates: ``a1`` is ``(1, 1)``, columns left to right, rows from the bottom).

:meth:`Table.apply` carries out one move's text (submoves separated by blanks),
after ppgames' ``process_move``/``process_submove`` (github ``piecepackr/ppgames``,
``R/ppn.R``), for these submoves:

- ``SPEC@LOC``: a new piece put on top at a place (``S@b2``: a Suns coin back;
  ``M2@e6``: the 2 of Moons tile, face up);
- ``PID-LOC``: pieces moved on top of a place (``a4-a3``; ``2e1-d2``: the top two
  pieces of e1, a stack moved as a stack);
- ``*PID``: pieces removed (``*g3``; ``*2b6``);
- ``PID:PID``: a capture by displacement (the second removed, the first moved to
  its place);
- ``PID#PID``: two pieces swap places.

A piece is named (PID) by its place (the top piece there), the top N at a place
(``2e1``), or nothing (the pieces moved or put last). Anything else raises
:class:`PPNError`: a move this reading does not carry out, a place with no piece.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

__all__ = ["PPNError", "Row", "Table", "parse_place", "parse_spec"]


class PPNError(ValueError):
    """A submove that cannot be carried out (its text and why)."""


@dataclass(frozen=True)
class Row:
    """A piece on the table, as ppgames keeps it (see the module's docstring)."""

    id: str
    piece_side: str
    suit: int
    rank: int
    angle: float
    x: float
    y: float
    cfg: str = "piecepack"

    def as_list(self) -> list[object]:
        """The row as ppgames' data frame has it: ``[id, piece_side, suit, rank,
        angle, x, y, cfg]``."""
        return [self.id, self.piece_side, self.suit, self.rank, self.angle, self.x, self.y,
                self.cfg]


_ALGEBRAIC = re.compile(r"([a-z]+)([0-9]+)")
_CARTESIAN = re.compile(r"\((-?[0-9.]+),(-?[0-9.]+)\)")
_COUNTED = re.compile(r"([0-9]+)(.+)")


def parse_place(text: str) -> tuple[float, float]:
    """PPN's place: algebraic (``a1`` → ``(1, 1)``, ``aa12`` → ``(27, 12)``) or
    Cartesian (``(2.5,3)``).

    :raises PPNError: neither."""
    m = _ALGEBRAIC.fullmatch(text)
    if m:
        x = 0
        for ch in m[1]:
            x = x * 26 + ord(ch) - ord("a") + 1
        return float(x), float(m[2])
    m = _CARTESIAN.fullmatch(text)
    if m:
        return float(m[1]), float(m[2])
    raise PPNError(f"{text!r} is not a place (a1, aa12 or (x,y))")


#: the suits' letters, as PPN numbers them
_SUITS = {"S": 1, "M": 2, "C": 3, "A": 4}
_PIECES = {"t": "tile", "c": "coin", "d": "die", "p": "pawn"}
_ANGLES = (("^", 0.0), ("<", 90.0), ("v", 180.0), (">", 270.0))


def parse_spec(text: str) -> tuple[str, int, int, float]:
    """A simple piece specification (``t``, ``S``, ``M2``, ``Mv``, ``pS``,
    ``dS5``): ``(piece_side, suit, rank, angle)`` with PPN's assumptions where a
    part is missing (suit and rank given: a tile; one of them: a coin; a tile
    without both shows its back, a coin with a suit shows its back).

    :raises PPNError: a specification this reading does not know."""
    simple = text.replace("n", "0").replace("a", "1")
    if "," in simple or not re.fullmatch(r"[tcdpfbSMCA0-9^<v>]+", simple):
        raise PPNError(f"{text!r}: a piece this reading does not know")
    piece = next((name for ch, name in _PIECES.items() if ch in simple), None)
    suit_char = next((ch for ch in simple if ch in _SUITS), None)
    rank_char = next((ch for ch in simple if ch.isdigit()), None)
    if piece is None:
        piece = "tile" if (suit_char is None) == (rank_char is None) else "coin"
    side = "face" if "f" in simple else "back" if "b" in simple else None
    if side is None:
        if piece == "tile":
            side = "back" if suit_char is None or rank_char is None else "face"
        elif piece == "coin":
            side = "face" if suit_char is None else "back"
        else:
            side = "face"
    suit = _SUITS[suit_char] if suit_char else 1
    rank = int(rank_char) + 1 if rank_char else 1
    angle = next((a for ch, a in _ANGLES if ch in simple), 0.0)
    return f"{piece}_{side}", suit, rank, angle


class Table:
    """The pieces on the table, in stacking order (see the module's docstring).

    :param rows: the pieces at the start (a setup's), bottom first.
    """

    def __init__(self, rows: list[Row]) -> None:
        self.rows: list[Row] = list(rows)
        #: the ids of the pieces put or moved last (a PID of nothing names them)
        self.active: list[str] = []
        #: the largest id given so far (a piece put on the table gets the next,
        #: even when pieces were removed since)
        self.max_id = max((int(r.id) for r in rows if r.id.isdigit()), default=0)

    def copy(self) -> "Table":
        out = Table(self.rows)
        out.active = list(self.active)
        out.max_id = self.max_id
        return out

    def apply(self, text: str) -> None:
        """Carry out one move's text (submoves, left to right).

        :raises PPNError: a submove that cannot be carried out."""
        text = text.replace("*", " *").strip()
        for submove in text.split():
            self.submove(submove)

    def submove(self, text: str) -> None:
        """Carry out one submove. :raises PPNError: see :meth:`apply`."""
        if text.startswith("*"):
            self._remove(self.pieces(text[1:]))
        elif "@>" in text and not re.search(r"[|$]", text.split("@>", 1)[1]):
            # a rotation in place: PID@>DEGREES turns the pieces clockwise
            pid, degrees = text.split("@>", 1)
            try:
                turn = float(degrees)
            except ValueError:
                raise PPNError(f"{text!r}: {degrees!r} is not a number of degrees") from None
            ids = self.pieces(pid)
            self.rows = [replace(r, angle=(r.angle - turn) % 360) if r.id in ids else r
                         for r in self.rows]
            self.active = ids
        elif "@" in text and not text.startswith(("@>", "$>")) and "@>" not in text:
            spec, place = text.split("@", 1)
            self._place(spec, place)
        elif re.search(r"(?<![(<,])-", text):
            pid, place = re.split(r"(?<![(<,])-", text, maxsplit=1)
            self._move(self.pieces(pid), parse_place(place))
        elif ":" in text:
            a, b = text.split(":", 1)
            taken = self.pieces(b)
            where = self._place_of(taken[-1])
            self._remove(taken)
            self._move(self.pieces(a), where)
        elif "#" in text:
            a, b = text.split("#", 1)
            first, second = self.pieces(a), self.pieces(b)
            at_first, at_second = self._place_of(first[-1]), self._place_of(second[-1])
            self._move(first, at_second)
            self._move(second, at_first, keep_active=first)
        else:
            raise PPNError(f"{text!r}: a move this reading does not carry out")

    # ------------------------------------------------------------------ pieces
    def pieces(self, pid: str) -> list[str]:
        """The ids a PID names: the top piece at a place, the top N (``2e1``), or
        the pieces put or moved last (nothing).

        :raises PPNError: no piece at that place."""
        if pid == "":
            if not self.active:
                raise PPNError("no piece was moved before: nothing to name")
            return list(self.active)
        sliced = re.fullmatch(r"(.+)\[(\d+)\]", pid)
        if sliced:
            # by index from the top (1: the top), as ppgames' loc[i]
            x, y = parse_place(sliced[1])
            here = [r.id for r in self.rows if (r.x, r.y) == (x, y)]
            k = int(sliced[2])
            if not 1 <= k <= len(here):
                raise PPNError(f"no piece {pid}: {len(here)} at {sliced[1]}")
            return [here[-k]]
        n = 1
        m = _COUNTED.fullmatch(pid)
        if m and not pid.startswith("("):
            n, pid = int(m[1]), m[2]
        x, y = parse_place(pid)
        # ppgames' get_id_from_coords: by decreasing squared distance, keeping the
        # stacking order, the last n (the top n at the place, or the nearest)
        order = sorted(range(len(self.rows)), key=lambda i: -round(
            (self.rows[i].x - x) ** 2 + (self.rows[i].y - y) ** 2, 5))
        if not order or (n == 1 and (self.rows[order[-1]].x, self.rows[order[-1]].y) != (x, y)):
            raise PPNError(f"no piece at {pid}")
        return [self.rows[i].id for i in order[-n:]]

    def _place_of(self, ident: str) -> tuple[float, float]:
        row = next(r for r in self.rows if r.id == ident)
        return row.x, row.y

    # ------------------------------------------------------------------ changes
    def _place(self, spec: str, place: str) -> None:
        piece_side, suit, rank, angle = parse_spec(spec)
        x, y = parse_place(place)
        self.max_id += 1
        ident = str(self.max_id)
        self.rows.append(Row(ident, piece_side, suit, rank, angle, x, y))
        self.active = [ident]

    def _move(self, ids: list[str], to: tuple[float, float],
              keep_active: list[str] | None = None) -> None:
        moving = [r for r in self.rows if r.id in ids]
        self.rows = [r for r in self.rows if r.id not in ids] + \
            [replace(r, x=to[0], y=to[1]) for r in moving]
        self.active = list(keep_active or []) + [r.id for r in moving]

    def _remove(self, ids: list[str]) -> None:
        self.rows = [r for r in self.rows if r.id not in ids]
