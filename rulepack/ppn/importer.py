"""PPN records played as rulepack games: each move is the one legal action whose
effect on the position is the relocation the move describes.

For a record of a game whose ruleset names its board as PPN does (a grid with
``notation ppn``, see :mod:`rulepack.engine.zones`), :func:`import_game` starts the
ruleset's game, and for each move carries out its relocation (:mod:`rulepack.ppn.table`)
on the pieces of the position (every piece on such a grid, at its PPN coordinates;
any other piece is off the table, as a piece PPN removes), then tries every legal
action on a copy of the position: the one that leaves the same pieces at the same
places is the move. None, or more than one, is an error that names the move and
lists the legal actions nearest to it.

Pieces are compared as PPN knows them (:func:`ppn_piece`): the piecepack's
components (``use piecepack``: tile, coin, die, pawn) by kind, side, suit and rank.
The ruleset is the record's ``GameType`` (its ``Name`` or the value itself, in
lower case with hyphens between words: ``Four Field Kono`` → ``four-field-kono``)
unless one is given; the other keys of a ``GameType`` are the ruleset's options of
those names (case aside); a ``Rulepack`` key (what ``rulepack ppn export`` writes)
gives the seed and the number of players. Moves named ``setup.`` (or text before the first move
number) are the setup's: carried out on the table only.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulepack.engine.values import Piece
from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.ppn.movetext import Game as PPNGame, Move
from rulepack.ppn.table import PPNError, Row, Table

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.state import State
    from rulepack.game import Game

__all__ = ["Imported", "identity", "import_game", "ppn_piece", "ruleset_of", "table_of"]

#: the piecepack's suits and ranks in PPN's order (suit 1 is suns; rank 1 the null)
SUITS = ("suns", "moons", "crowns", "arms")
RANKS = ("null", "ace", 2, 3, 4, 5)
#: the piecepack's components, named in PPN as in the piecepack library
KINDS = ("tile", "coin", "die", "pawn")

#: a piece on the table as the comparison sees it: (piece and side, suit, rank, x, y)
Placed = tuple[str, int, int, float, float]


@dataclass
class Imported:
    """A record imported: the game played to where the record stops, and for each
    move of the record the action it was (``None`` for a setup move)."""

    state: "State"
    moves: list[tuple[Move, "Action | None"]] = field(default_factory=list)


def ruleset_of(game: PPNGame) -> str | None:
    """The bundled ruleset a record's ``GameType`` names (``None`` without one)."""
    kind = game.metadata.get("GameType")
    name = kind.get("Name") if isinstance(kind, dict) else kind
    if not isinstance(name, str) or not name.strip():
        return None
    return re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")


def options_of(game: PPNGame, ruleset: "Game", file: str) -> dict[str, Any]:
    """The ruleset's options a ``GameType``'s other keys give (``Coins`` →
    ``coins``). :raises RulepackError: a key the ruleset has no option for."""
    kind = game.metadata.get("GameType")
    if not isinstance(kind, dict):
        return {}
    out: dict[str, Any] = {}
    for key, value in kind.items():
        if key == "Name":
            continue
        name = str(key).lower()
        if name not in ruleset.options:
            raise RulepackError(Diagnostic(
                f"GameType gives {key}: {value!r}, and {ruleset.title} has no option "
                f"{name!r} to take it", Location(file, game.line, None), code="ppn-option"))
        out[name] = value
    return out


def identity(piece_side: str, suit: int, rank: int) -> tuple[str, int, int]:
    """What tells a piece from another by the side it shows: a coin's back shows
    its suit only, a tile's back nothing (PPN puts ``S`` for a Suns coin back,
    whatever its rank)."""
    if piece_side == "coin_back":
        return piece_side, suit, 0
    if piece_side == "tile_back":
        return piece_side, 0, 0
    return piece_side, suit, rank


def ppn_piece(piece: Piece, face_up: bool, state: "State") -> tuple[str, int, int] | None:
    """A piece as PPN names it: ``(piece_side, suit, rank)`` (``("coin_back", 3,
    1)``), or ``None`` for a piece that is not one of the piecepack's."""
    kind = piece.kind
    attrs = piece.attrs
    if kind not in KINDS or attrs.get("suit") not in SUITS:
        return None
    rank: object = attrs.get("rank")
    if piece.rolls is not None and piece.rolls[0] == "rank":
        rank = state.position.rolled.get(piece.id, piece.rolls[1][0])
    rank_index = RANKS.index(rank) + 1 if rank in RANKS else 1
    side = "face" if face_up or kind == "pawn" else "back"
    return f"{kind}_{side}", SUITS.index(str(attrs["suit"])) + 1, rank_index


def table_of(state: "State") -> Counter[Placed]:
    """The pieces of a position on its PPN grids, at their PPN coordinates."""
    out: Counter[Placed] = Counter()
    position = state.position
    for info in state.program.zones:
        if info.kind != "grid" or info.notation is None:
            continue
        for cell, piece in zip(info.cell_objects, position.zones[info.index]):
            if piece is None:
                continue
            named = ppn_piece(piece, bool(position.face[piece.id]), state)
            x, y = info.point(cell.row, cell.col) or (0, 0)
            out[(*identity(*named), float(x), float(y)) if named else
                ("other", piece.id, 0, x, y)] += 1
    return out


def _table(placed: Counter[Placed]) -> Table:
    rows: list[Row] = []
    for (piece_side, suit, rank, x, y), n in sorted(placed.items(), key=str):
        for _ in range(n):
            rows.append(Row(str(len(rows) + 1), str(piece_side), int(suit), int(rank), 0.0,
                            float(x), float(y)))
    return Table(rows)


def _placed(table: Table) -> Counter[Placed]:
    return Counter((*identity(r.piece_side, r.suit, r.rank), r.x, r.y) for r in table.rows)


def import_game(record: PPNGame, ruleset: "Game", file: str, seed: int = 0,
                players: int | None = None) -> Imported:
    """Play a record's moves as a game of ``ruleset`` (see the module's docstring).

    :raises RulepackError: a move that is no legal action, or more than one; a move
        that cannot be carried out on the table; a move after the game's end (each
        naming the move's number and text).
    """
    options = options_of(record, ruleset, file)
    ours = record.metadata.get("Rulepack")       # what rulepack ppn export writes
    if isinstance(ours, dict):
        seed = ours.get("Seed", seed) if isinstance(ours.get("Seed"), int) else seed
        if players is None and isinstance(ours.get("Players"), int):
            players = ours["Players"]
    state = ruleset.new_game(players or ruleset.min_players, seed=seed, options=options)
    imported = Imported(state)
    extra = Counter[Placed]()       # what setup moves put on the table beyond the position
    for move in record.moves:
        if not move.text:
            continue
        where = Location(file, record.line, None)
        placed = table_of(state) + extra
        table = _table(placed)
        try:
            table.apply(move.text)
        except PPNError as exc:
            raise RulepackError(Diagnostic(f"move {move.name} {move.text}: {exc}", where,
                                           code="ppn-move")) from None
        if move.name.lower().startswith(("setup", "setupfn")):
            extra = _placed(table) - table_of(state)
            imported.moves.append((move, None))
            continue
        if state.is_terminal():
            raise RulepackError(Diagnostic(
                f"move {move.name} {move.text}: the game is over (it ended at the move before)",
                where, code="ppn-after-end"))
        want = _placed(table) - extra
        legal = state.legal_actions()
        named = next((a for a in legal if a.text == move.text), None)
        if named is not None:
            # an action written as the move is written (a ruleset whose actions are
            # PPN): it is the move if it relocates as the move does (and would be
            # preferred among several that do)
            trial = state.clone()
            trial.apply(named)
            if table_of(trial) == want:
                state.apply(named)
                imported.moves.append((move, named))
                continue
        found, nearest = [], []
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            got = table_of(trial)
            if got == want:
                found.append(action)
            nearest.append((sum(((got - want) + (want - got)).values()), action.text))
        if len(found) > 1:
            same = [a for a in found if a.text == move.text]
            found = same or found
        if len(found) != 1:
            what = "no legal action" if not found else f"{len(found)} legal actions (" + \
                ", ".join(a.text for a in found) + ")"
            close = ", ".join(t for _, t in sorted(nearest)[:5])
            raise RulepackError(Diagnostic(
                f"move {move.name} {move.text}: {what} of {ruleset.title} does this; the "
                f"nearest: {close or 'none (no legal action)'}", where, code="ppn-move"))
        state.apply(found[0])
        imported.moves.append((move, found[0]))
    return imported
