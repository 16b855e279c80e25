"""Tablut (rulepack/rulesets/tablut.rules) against its published rules: ppgames,
inst/rules/tablut.Rtex (github piecepackr/ppgames, Trevor L. Davis, CC BY-SA 4.0,
version 1.1). Each test cites the sentences it checks; a property test checks every
move and capture of random games against the rules, worked out here independently;
ppgames' record imports move by move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.inspect import grid_stacks, zone_pieces
from rulepack.errors import RulepackError
from rulepack.ppn.importer import import_game
from rulepack.ppn.movetext import read_ppn

GAME = rulepack.load("tablut")
CASTLE = (5, 5)
DATA = Path(__file__).parent / "data" / "ppn"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def board(state) -> dict[tuple[int, int], list]:
    """(x, y) as PPN counts them → the pieces there, bottom first."""
    return {(ord(c[0]) - 96, int(c[1:])): s for c, s in grid_stacks(state, "board") if s}


def role(piece) -> str:
    if piece.kind == "pawn":
        return "king"
    if piece.kind == "die":
        return "castle"
    return "attacker" if piece.attrs["rank"] in (2, 3, 4, 5) else "defender"


def side(piece) -> int | None:
    r = role(piece)
    return 0 if r == "attacker" else 1 if r in ("defender", "king") else None


def name(x: int, y: int) -> str:
    return f"{'abcdefghi'[x - 1]}{y}"


def test_setup_is_ppgames_starting_diagram():
    """Setup: "the attacking player takes all the coin faces of rank 2, 3, 4, and 5
    ... the defending player takes the remaining coin backs ... plus a pawn as the
    king and use 1-4 piecepack dice as the castle"; "place the pawn on top of the
    di(c)e to start the game"."""
    cells = board(GAME.new_game(2, seed=0))
    roles = [role(s[-1]) for s in cells.values()]
    assert roles.count("attacker") == 16 and roles.count("defender") == 8
    assert [role(p) for p in cells[CASTLE]] == ["castle", "king"]
    assert all(s[0].attrs["rank"] in (2, 3, 4, 5) and GAME.new_game(2).position.face[s[0].id]
               for xy, s in cells.items() if role(s[0]) == "attacker")


def test_the_attackers_go_first():
    """The Order of Play: "The 'attacking' player goes first.\""""
    assert {GAME.new_game(2, seed=s).current_player for s in range(5)} == {0}


def expected_moves(cells, me: int, modern: bool) -> set[str]:
    """"attackers, defenders, and king can move orthogonally ... any positive
    distance to an unoccupied point" without jumps; "The castle cannot move"; "no
    pieces may land in the empty castle or pass through it" (the modern variant: all
    may pass through it, the king may land there)."""
    out = set()
    for (x, y), stack in cells.items():
        top = stack[-1]
        if side(top) != me:
            continue
        for dx, dy in STEPS:
            a, b = x + dx, y + dy
            while 1 <= a <= 9 and 1 <= b <= 9:
                empty_castle = (a, b) == CASTLE and len(cells.get(CASTLE, [])) == 1
                if (a, b) in cells and not (modern and empty_castle):
                    break
                if (a, b) not in cells or role(top) == "king":
                    out.add(f"{name(x, y)}-{name(a, b)}")
                a, b = a + dx, b + dy
    return out


def expected_captures(cells, me: int, to: tuple[int, int]) -> set[tuple[int, int]]:
    """Capture (1): "An attacker or defender surrounded (orthogonally) on opposite
    sides by two opponents' pieces or an opponent's piece and an empty castle"; (3):
    a defender beside the castle whose king is surrounded by three attackers."""
    out = set()
    for dx, dy in STEPS:
        n, b = (to[0] + dx, to[1] + dy), (to[0] + 2 * dx, to[1] + 2 * dy)
        if n not in cells or side(cells[n][-1]) != 1 - me or role(cells[n][-1]) == "king":
            continue
        far = cells.get(b)
        if far is not None and side(far[-1]) == me:
            out.add(n)
        elif b == CASTLE and far is not None and len(far) == 1:
            out.add(n)
        elif b == CASTLE and me == 0 and far is not None and role(far[-1]) == "king" and \
                sum(1 for ex, ey in STEPS if (c := cells.get((5 + ex, 5 + ey))) and
                    role(c[-1]) == "attacker") == 3:
            out.add(n)
    return out


def play_checked(seed: int, modern: bool) -> None:
    state = GAME.new_game(2, seed=seed, options={"modern_castle": modern})
    rng = random.Random(seed)
    while not state.is_terminal() and state.decisions < 150:
        cells = board(state)
        me = state.current_player
        texts = {a.text for a in state.legal_actions()}
        assert texts == expected_moves(cells, me, modern), (seed, state.decisions)
        text = rng.choice(sorted(texts))
        state.apply(text)
        frm, to = text.split("-")
        dest = (ord(to[0]) - 96, int(to[1:]))
        after = board(state)
        if state.is_terminal():
            continue
        gone = {xy for xy, s in cells.items() if xy not in ((ord(frm[0]) - 96, int(frm[1:])), dest)
                and (xy not in after or after[xy][-1] is not s[-1])}
        assert gone == expected_captures(cells, me, dest), (seed, text)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.booleans())
def test_moves_and_captures_of_random_games_are_the_rules(seed, modern):
    """Every legal move and every capture of random games, in both castle rules."""
    play_checked(seed, modern)


def test_the_king_escapes_or_is_captured():
    """Objective: "The 'attacking' player wins if they capture the 'defending'
    player's king while the 'defending' player wins if their king escapes by
    reaching any point on the edge of the board." Over random games: a defenders'
    win leaves the king on the edge; an attackers' win takes the king off."""
    ends = set()
    for seed in range(60):
        state = GAME.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.decisions < 400:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            continue
        winners = state.result()["winners"]
        king = [xy for xy, s in board(state).items() if any(p.kind == "pawn" for p in s)]
        if winners == [1] and king:
            x, y = king[0]
            assert x in (1, 9) or y in (1, 9)
            ends.add("escape")
        elif winners == [0] and not king:
            ends.add("capture")
            assert any(p.kind == "pawn" for p in zone_pieces(state, "off"))
    assert ends == {"escape", "capture"}


def test_ppgames_record_imports_with_the_modern_castle():
    """ppgames' record (inst/ppn/tablut.ppn) imports move by move, the attackers
    capturing the king as the record ends (15. f4-g4;*h4). At 13... a defender passes
    e6-e4 through the empty castle, which Linnaeus's rule as ppgames gives it forbids
    ("no pieces may ... pass through it"): the record follows the footnote's modern
    variant."""
    record = read_ppn((DATA / "tablut.ppn").read_text())[0]
    with pytest.raises(RulepackError, match=r"move 13\.\.\. e6-e4: no legal action"):
        import_game(record, GAME, "tablut.ppn")
    imported = import_game(record, GAME, "tablut.ppn", options={"modern_castle": True})
    assert imported.state.is_terminal() and imported.state.result()["winners"] == [0]
