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
from typing import TYPE_CHECKING, Any, Iterator

from rulepack.engine.stacks import stack_at
from rulepack.engine.values import Piece
from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.ppn.movetext import Game as PPNGame, Move
from rulepack.ppn.table import PPNError, Row, Table

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.state import State
    from rulepack.game import Game

__all__ = ["Imported", "MoveError", "identity", "import_game", "ppn_piece", "ppn_places",
           "ruleset_of", "table_of"]

#: the piecepack's suits and ranks in PPN's order (suit 1 is suns; rank 1 the null)
SUITS = ("suns", "moons", "crowns", "arms")
RANKS = ("null", "ace", 2, 3, 4, 5)
#: the piecepack's components, named in PPN as in the piecepack library
KINDS = ("tile", "coin", "die", "pawn")

#: a piece on the table as the comparison sees it: (piece and side, suit, rank, x, y,
#: level: 0 at the bottom of its place's stack, angle: degrees counter-clockwise, 0
#: for a ruleset that turns no piece)
Placed = tuple[str, int, int, float, float, int, int]
#: a piece a setup move put on the table beyond the position: (piece and side, suit,
#: rank, x, y)
Extra = tuple[str, int, int, float, float]

#: how many decisions of one seat in a row one PPN move may stand for (a checkers
#: move that jumps several times, a promotion after a move), and how many positions
#: the search for them may look at
MAX_DECISIONS_PER_MOVE = 8
MAX_TRIED = 5_000
#: a record that does not give its seed is imported with the first of these many
#: seeds (from the one given) whose chance lets every move be played: the draw of
#: the first player, which a record shows only by who moves first
SEED_TRIES = 64
#: how many moves after a move may join it as the parts of one move (``;``)
MAX_PARTS = 6


@dataclass
class Imported:
    """A record imported: the game played to where the record stops, and for each
    move of the record the action it was (a move that is several decisions: once
    with each; ``None`` for a setup move and for a part joined to the move before)."""

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
    its suit only, its face its rank only, a tile's back nothing (PPN puts ``S`` for
    a Suns coin back, whatever its rank)."""
    if piece_side == "coin_back":
        return piece_side, suit, 0
    if piece_side == "coin_face":
        return piece_side, 0, rank
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


def ppn_places(state: "State") -> Iterator[tuple[Piece, tuple[str, int, int] | None,
                                                  float, float, int, int]]:
    """Every piece on a position's PPN grids (grids with ``notation ppn``): the piece,
    how PPN names it (:func:`ppn_piece`; ``None``: not one of the piecepack's), its
    PPN coordinates ``x, y``, its level there (0: the bottom of a stacked grid's
    stack, :mod:`rulepack.engine.stacks`) and its angle (degrees counter-clockwise)."""
    position = state.position
    for info in state.program.zones:
        if info.kind != "grid" or info.notation is None:
            continue
        for cell in info.cell_objects:
            x, y = info.point(cell.row, cell.col) or (0, 0)
            for level, piece in enumerate(stack_at(position, cell)):
                named = ppn_piece(piece, bool(position.face[piece.id]), state)
                yield piece, named, float(x), float(y), level, position.angles.get(piece.id, 0)


def table_of(state: "State") -> Counter[Placed]:
    """The pieces of a position on its PPN grids, at their PPN coordinates and
    levels (:func:`ppn_places`), as the comparison sees them."""
    return Counter((*identity(*named), x, y, level, angle) if named else
                   ("other", piece.id, 0, x, y, level, angle)
                   for piece, named, x, y, level, angle in ppn_places(state))


def _table(placed: Counter[Placed], extra: Counter[Extra]) -> Table:
    """A PPN table of a position's pieces (and, under them, what setup moves put
    on the table beyond it)."""
    rows: list[Row] = []
    for (piece_side, suit, rank, x, y), n in sorted(extra.items(), key=str):
        rows += [Row(str(len(rows) + k + 1), str(piece_side), int(suit), int(rank), 0.0,
                     float(x), float(y)) for k in range(n)]
    for (piece_side, suit, rank, x, y, _, angle), n in sorted(
            placed.items(), key=lambda item: (item[0][3], item[0][4], item[0][5], str(item))):
        rows += [Row(str(len(rows) + k + 1), str(piece_side), int(suit), int(rank),
                     float(angle), float(x), float(y)) for k in range(n)]
    return Table(rows)


def _placed(table: Table, extra: Counter[Extra] | None = None,
            angles: bool = False) -> Counter[Placed]:
    """A PPN table's pieces as :func:`table_of` names a position's, leaving out (and
    not counting in the levels) the first pieces that are ``extra``; their angles
    only if ``angles`` (a ruleset that turns pieces), else 0."""
    skip = Counter(extra or ())
    levels: Counter[tuple[float, float]] = Counter()
    out: Counter[Placed] = Counter()
    for r in table.rows:
        named = (*identity(r.piece_side, r.suit, r.rank), r.x, r.y)
        if skip[named] > 0:
            skip[named] -= 1
            continue
        placed: Placed = (named[0], named[1], named[2], named[3], named[4], levels[(r.x, r.y)],
                          round(r.angle) % 360 if angles else 0)
        out[placed] += 1
        levels[(r.x, r.y)] += 1
    return out


def _extra(table: Table, position: Counter[Placed]) -> Counter[Extra]:
    """What a table holds beyond a position's pieces (a setup move's board)."""
    ours = Counter((side, suit, rank, x, y) for (side, suit, rank, x, y, _, _), n in
                   position.items() for _ in range(n))
    theirs = Counter((*identity(r.piece_side, r.suit, r.rank), r.x, r.y) for r in table.rows)
    return theirs - ours


class MoveError(RulepackError):
    """A move of a record that is no legal action (or more than one, or cannot be
    carried out): ``state``, the game where the move was tried; ``done``, how many
    moves of the record came before it."""

    def __init__(self, diagnostic: Diagnostic, state: "State", done: int) -> None:
        super().__init__(diagnostic)
        self.state = state
        self.done = done


def import_game(record: PPNGame, ruleset: "Game", file: str, seed: int = 0,
                players: int | None = None,
                options: dict[str, Any] | None = None) -> Imported:
    """Play a record's moves as a game of ``ruleset`` (see the module's docstring).

    :param options: the ruleset's options beyond those the ``GameType`` gives.
    :raises MoveError: a move that is no legal action, or more than one; a move
        that cannot be carried out on the table; a move after the game's end (each
        naming the move's number and text, with the game where it was tried).
    :raises RulepackError: a ``GameType`` key the ruleset has no option for.
    """
    chosen = {**options_of(record, ruleset, file), **(options or {})}
    ours = record.metadata.get("Rulepack")       # what rulepack ppn export writes
    seeds = [seed]
    if isinstance(ours, dict):
        seeds = [ours["Seed"] if isinstance(ours.get("Seed"), int) else seed]
        if players is None and isinstance(ours.get("Players"), int):
            players = ours["Players"]
    n = players or ruleset.min_players
    if len(seeds) == 1 and not isinstance(ours, dict) and \
            ruleset.instance(n, chosen).program().has_chance:
        seeds = list(range(seed, seed + SEED_TRIES))
    best: MoveError | None = None
    for s in seeds:
        try:
            return _import(record, ruleset, file, s, n, chosen)
        except MoveError as exc:
            if best is None or exc.done > best.done:
                best = exc
    assert best is not None
    raise best


def _import(record: PPNGame, ruleset: "Game", file: str, seed: int, players: int,
            options: dict[str, Any]) -> Imported:
    state = ruleset.new_game(players, seed=seed, options=options)
    turns = state.program.turns_pieces     # the record's angles count
    imported = Imported(state)
    extra = Counter[Extra]()        # what setup moves put on the table beyond the position
    where = Location(file, record.line, None)
    moves = [m for m in record.moves if m.text]
    done = 0
    while done < len(moves):
        move = moves[done]
        table = _table(table_of(state), extra)

        def fail(message: str, code: str) -> MoveError:
            return MoveError(Diagnostic(f"move {move.name} {move.text}: {message}", where,
                                        code=code), state, done)
        try:
            table.apply(move.text)
        except PPNError as exc:
            raise fail(str(exc), "ppn-move") from None
        if move.name.lower().startswith(("setup", "setupfn")):
            extra = _extra(table, table_of(state))
            imported.moves.append((move, None))
            done += 1
            continue
        if state.is_terminal():
            raise fail("the game is over (it ended at the move before)", "ppn-after-end")
        found, nearest = _decisions(state, _placed(table, extra, turns), move.text)
        # a move of several submoves (e5-g3;*f4) comes as several moves (ppgames reads
        # each part after a ';' as a move): the parts after it join it until they
        # relocate as one run of decisions does
        joined = 0
        while not found and joined < MAX_PARTS and done + joined + 1 < len(moves) and \
                not moves[done + joined + 1].name.lower().startswith("setup"):
            try:
                table.apply(moves[done + joined + 1].text)
            except PPNError:
                break
            joined += 1
            found, _ = _decisions(state, _placed(table, extra, turns), move.text)
        if len(found) != 1:
            what = "no legal action" if not found else f"{len(found)} legal actions (" + \
                ", ".join(" then ".join(a.text for a in path) for path in found) + ")"
            close = ", ".join(t for _, t in sorted(nearest)[:5])
            raise fail(f"{what} of {ruleset.title} does this; the nearest: "
                       f"{close or 'none (no legal action)'}", "ppn-move")
        for action in found[0]:
            state.apply(action)
            imported.moves.append((move, action))
        imported.moves += [(part, None) for part in moves[done + 1:done + joined + 1]]
        done += joined + 1
    return imported


def _decisions(state: "State", want: Counter[Placed], text: str
               ) -> tuple[list[list["Action"]], list[tuple[int, str]]]:
    """The shortest runs of decisions of the seat to move whose effect on the table
    is ``want`` (one run: the move; an action whose text is the move's is preferred
    among several), and the nearest single actions (how far each leaves the table
    from ``want``, its text)."""
    seat = state.current_player
    for action in state.legal_actions():
        if action.text == text:
            # an action written as the move is written (a ruleset whose actions are
            # PPN): the move, if it relocates as the move does
            trial = state.clone()
            trial.apply(action)
            if table_of(trial) == want:
                return [[action]], []
    frontier: list[tuple["State", list["Action"]]] = [(state, [])]
    nearest: list[tuple[int, str]] = []
    tried = 0
    for depth in range(MAX_DECISIONS_PER_MOVE):
        found: list[list["Action"]] = []
        deeper: list[tuple["State", list["Action"]]] = []
        for here, path in frontier:
            for action in here.legal_actions():
                tried += 1
                trial = here.clone()
                trial.apply(action)
                got = table_of(trial)
                if got == want:
                    found.append(path + [action])
                elif not trial.is_terminal() and trial.current_player == seat:
                    deeper.append((trial, path + [action]))
                if depth == 0:
                    nearest.append((sum(((got - want) + (want - got)).values()), action.text))
        if found:
            same = [p for p in found if len(p) == 1 and p[0].text == text]
            return same or found, nearest
        if tried > MAX_TRIED:
            break
        frontier = deeper
    return [], nearest
