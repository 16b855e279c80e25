"""The moves and flips of rulepack/engine/moves.py (compiled by mypyc when
installed, run from source with RULEPACK_PURE_PYTHON=1: .ci/run runs this file
both ways) against a plain one-piece-at-a-time model of what a move does:

a piece leaves its place (a grid's slot is emptied; a list loses the piece; an
arranged ``groups`` zone forgets its groups), then enters the destination: a cell
(which must be empty), a grid's first empty slot, a pile in order of piece id, the
bottom (front) of a stack or row when asked, else its top (end); its face is set
if a face is given. Flipping face up reveals (one Reveal per zone, with places).
"""

from __future__ import annotations

import random

import pytest

import rulepack
from rulepack.engine import effects, moves
from rulepack.engine.actions import Reveal
from rulepack.engine.runtime import RuleValueError
from rulepack.engine.values import Cell

#: (ruleset, players): between them every zone kind: stack, row, pile, grid, groups
GAMES = [("multzo", 3), ("mismemory", 2), ("packkub", 3), ("tic-tac-toe", 2)]


def started(name: str, players: int, seed: int) -> rulepack.State:
    """A position a few random decisions into a game."""
    rng = random.Random(seed)
    st = rulepack.load(name).new_game(players, seed=seed)
    for _ in range(rng.randrange(12)):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def model_move(st: rulepack.State, pieces: list, dest, face_up, bottom) -> None:
    """Move ``pieces`` one at a time, as the module's text says."""
    kinds = st.program.zone_kinds
    zones = [list(z) for z in st.position.zones]
    for piece in pieces:
        z = st.position.loc[piece.id]
        if kinds[z] == "grid":
            zones[z][zones[z].index(piece)] = None
        else:
            zones[z].remove(piece)
            st.position.groupings.pop(z, None)
        if type(dest) is Cell:
            assert zones[dest.zone][dest.slot] is None
            zones[dest.zone][dest.slot] = piece
            st.position.loc[piece.id] = dest.zone
        else:
            d = dest.index
            target = zones[d]
            if kinds[d] == "grid":
                target[target.index(None)] = piece
            elif kinds[d] == "pile":
                target.append(piece)
                target.sort(key=lambda p: p.id)
            elif bottom:
                target.insert(0, piece)
            else:
                target.append(piece)
            if kinds[d] == "groups":
                st.position.groupings.pop(d, None)
            st.position.loc[piece.id] = d
        if face_up is not None:
            st.position.face[piece.id] = face_up
    st.position.zones[:] = zones


def snapshot(st: rulepack.State) -> tuple:
    return ([list(z) for z in st.position.zones], list(st.position.loc), list(st.position.face), dict(st.position.groupings),
            list(st.history))


def cell(st: rulepack.State, zone: int, slot: int) -> Cell:
    row, col = st.program.zones[zone].cells[slot]
    return Cell(zone, row, col, slot)


def random_move(st: rulepack.State, rng: random.Random) -> tuple:
    """Pieces (none, one, several or all), a destination with room, a face, a side."""
    placed = [p for z in st.position.zones for p in z if p is not None]
    pieces = rng.sample(placed, min(len(placed), rng.choice([0, 1, 2, 4, 9, 12, 99])))
    kinds = st.program.zone_kinds
    refs = st.program.zone_refs
    dest = rng.choice([r for r in refs if kinds[r.index] != "grid"])
    grids = [r for r in refs if kinds[r.index] == "grid"]
    if grids and rng.random() < 0.4:
        grid = rng.choice(grids)
        free = [i for i, p in enumerate(st.position.zones[grid.index]) if p is None]
        if free:
            if rng.random() < 0.5:
                pieces, dest = pieces[:1], cell(st, grid.index, rng.choice(free))
            else:
                pieces, dest = pieces[:len(free)], grid
    return pieces, dest, rng.choice([None, True, False]), rng.random() < 0.3


@pytest.mark.parametrize("name,players", GAMES)
def test_a_move_is_the_pieces_moved_one_at_a_time(name, players):
    rng = random.Random(name)
    for k in range(40):
        st = started(name, players, k)
        for _ in range(6):
            pieces, dest, face_up, bottom = random_move(st, rng)
            model = st.clone()
            model_move(model, pieces, dest, face_up, bottom)
            moves.move(st.position, list(pieces), dest, face_up, bottom)
            assert snapshot(st) == snapshot(model), (name, k, pieces, dest)


def test_moving_a_piece_twice_in_one_move_is_moving_it_twice():
    """Nine pieces (the many-piece path) with one of them listed twice: the same
    as one piece at a time, where the second move takes it from the destination."""
    st = started("multzo", 3, 1)
    dest = [r for r in st.program.zone_refs if r.label == "stack"][0]
    tiles = [p for z in st.position.zones for p in z if p.kind == "tile" and st.position.loc[p.id] != dest.index]
    pieces = tiles[:8] + [tiles[0]]
    model = st.clone()
    model_move(model, pieces, dest, False, False)
    moves.move(st.position, pieces, dest, False, False)
    assert snapshot(st) == snapshot(model)


def test_what_cannot_be_moved_is_an_error():
    st = started("multzo", 3, 2)
    with pytest.raises(RuleValueError, match="only pieces can be moved, not 3"):
        moves.move(st.position, [3], st.program.zone_refs[1], None, False)
    with pytest.raises(RuleValueError, match="only pieces can be flipped"):
        moves.flip(st.position, ["a"], True)
    st = started("tic-tac-toe", 2, 0)
    refs = {r.label: r for r in st.program.zone_refs}
    board = refs["board"].index
    free = st.position.zones[board].index(None)
    first = st.position.zones[refs["marks[X]"].index][-1]
    moves.move(st.position, [first], cell(st, board, free), True, False)
    second = st.position.zones[refs["marks[O]"].index][-1]
    with pytest.raises(RuleValueError, match="is not empty"):
        moves.move(st.position, [second], cell(st, board, free), True, False)


@pytest.mark.parametrize("name,players", GAMES)
def test_flipping_up_reveals_by_zone_with_places(name, players):
    rng = random.Random(name + "flip")
    for k in range(30):
        st = started(name, players, k)
        placed = [p for z in st.position.zones for p in z if p is not None]
        pieces = rng.sample(placed, min(len(placed), rng.choice([1, 3, 8, 30])))
        up = rng.choice([None, True, False])
        before = list(st.position.face)
        start = len(st.history)
        moves.flip(st.position, pieces, up)
        turned = []
        for p in pieces:
            if up is None:
                before[p.id] = not before[p.id]
                if before[p.id]:
                    turned.append(p)
            elif before[p.id] is not up:
                before[p.id] = up
                if up:
                    turned.append(p)
        assert st.position.face == before
        reveals = list(st.history)[start:]
        assert all(type(r) is Reveal for r in reveals)
        assert [p for r in reveals for p in r.pieces] == sorted(
            turned, key=lambda p: [st.position.loc[q.id] for q in turned].index(st.position.loc[p.id]))
        kinds = st.program.zone_kinds
        for r in reveals:
            z = st.position.loc[r.pieces[0].id]
            assert r.zone == st.program.zones[z].label
            assert all(st.position.loc[p.id] == z for p in r.pieces)
            expected = [None if kinds[z] == "pile" else st.position.zones[z].index(p) for p in r.pieces]
            assert r.places == expected


def test_a_pile_out_of_order_takes_a_piece_where_insort_puts_it():
    """A restored position may hold a pile out of id order (a puzzle written by
    hand): a piece moved into it goes where ``bisect.insort`` by id puts it, by
    the compiled moves and the one-piece move alike."""
    from bisect import insort
    st = started("multzo", 3, 3)
    hand = [r for r in st.program.zone_refs if r.label == "hand[player 1]"][0]
    pile = sorted(st.position.zones[hand.index], key=lambda p: p.id)
    st.position.zones[hand.index] = [pile[2], pile[0], pile[3], pile[1]]      # not in id order
    stack = [r for r in st.program.zone_refs if r.label == "stack"][0]
    expected = list(st.position.zones[hand.index])
    a, b = st.position.zones[stack.index][-1], st.position.zones[stack.index][-2]
    for p in (a, b):
        insort(expected, p, key=lambda q: q.id)
    one = st.clone()
    moves.move(st.position, [a, b], hand, None, False)
    assert st.position.zones[hand.index] == expected
    effects.move_one(one.position, a, hand, None)
    effects.move_one(one.position, b, hand, None)
    assert one.position.zones[hand.index] == expected


def test_the_methods_take_any_sequence_and_flags_as_before():
    """effects.move and effects.flip (for Python callers): a tuple of pieces, and
    flags that are not bools, as they took them before they were compiled."""
    st = started("multzo", 3, 4)
    stack = [r for r in st.program.zone_refs if r.label == "stack"][0]
    discards = [r for r in st.program.zone_refs if r.label == "discards"][0]
    pieces = tuple(st.position.zones[stack.index][-2:])
    effects.move(st.position, pieces, discards, 1, 0)
    assert st.position.zones[discards.index][-2:] == list(pieces)
    assert [st.position.face[p.id] for p in pieces] == [1, 1]
    effects.flip(st.position, pieces, None)
    assert [st.position.face[p.id] for p in pieces] == [False, False]


def test_a_reveal_of_a_piece_not_in_its_zone_fails_as_list_index_does():
    """A position made inconsistent (a piece's zone says discards, it lies in the
    stack): the error Python's list.index gives, compiled or not."""
    st = started("multzo", 3, 1)
    stack = [r for r in st.program.zone_refs if r.label == "stack"][0]
    discards = [r for r in st.program.zone_refs if r.label == "discards"][0]
    a, b = st.position.zones[stack.index][-2:]
    st.position.loc[b.id] = discards.index
    with pytest.raises(ValueError, match=r"^Piece\(.*\) is not in list$"):
        effects.flip(st.position, [a, b], True)
