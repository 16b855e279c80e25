"""``best(pattern, pieces)``: the direct searches of one-constraint patterns
(``same X``, ``distinct X``, ``consecutive X``) find exactly what the generic search
over every combination finds (the largest matching group, the first in
combination order), for random collections and size ranges."""

from __future__ import annotations

import os
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

import rulepack
from rulepack.engine.runtime import EVAL_STEPS
from rulepack.engine.values import Piece
from rulepack.patterns.match import _GENERIC as GENERIC, Pattern, PatternBudgetError

ORDER = {"null": 0, 2: 1, 3: 2, 4: 3, 5: 4, "ace": 5}
RANKS = list(ORDER) + ["joker"]          # "joker" is in no order: never part of a run
SUITS = ["suns", "moons", "crowns", "arms"]
#: a wide run: RULEPACK_PROPERTY_SCALE=20
SCALE = max(1, int(os.environ.get("RULEPACK_PROPERTY_SCALE", "1")))


def pieces(spec: list[tuple[int, int]]) -> list[Piece]:
    """Tiles of these suits and ranks (rank len(RANKS): a tile without a rank)."""
    return [Piece(i, "tile", {"suit": SUITS[s], **({"rank": RANKS[r]} if r < len(RANKS) else {})},
                  f"t{i}") for i, (s, r) in enumerate(spec)]


def brute_force(pattern: Pattern, group: list[Piece]) -> list[Piece]:
    """The definition: the largest matching group, the first of its size in
    combination order (independent of the engine's search)."""
    lo, hi = pattern.size
    for size in range(min(hi, len(group)), max(lo, 1) - 1, -1):
        for combo in combinations(group, size):
            if pattern._matches(None, combo):  # type: ignore[arg-type]
                return list(combo)
    return []


# up to 12 pieces: the direct searches count pairwise up to SMALL (8), by dict past it
collections = st.lists(st.tuples(st.integers(0, 3), st.integers(0, len(RANKS))),
                       max_size=12)
sizes = st.tuples(st.integers(1, 6), st.integers(0, 4)).map(lambda t: (t[0], t[0] + t[1]))


@settings(max_examples=120 * SCALE, deadline=None)
@given(collections, sizes, st.sampled_from(["same", "distinct", "consecutive"]))
def test_direct_best_equals_the_generic_search(spec, size, kind):
    if kind == "same":
        pattern = Pattern("p", size, same=["rank"])
    elif kind == "distinct":
        pattern = Pattern("p", size, distinct=[("suit", 4)])
    else:
        pattern = Pattern("p", size, consecutive=[("rank", ORDER)])
    group = pieces(spec)
    assert pattern._direct != GENERIC          # the direct search is the one used
    found = pattern.best(None, group)          # type: ignore[arg-type]
    assert found == pattern._best(None, group)  # type: ignore[arg-type]
    assert found == brute_force(pattern, group)


def test_two_constraints_use_the_generic_search():
    pattern = Pattern("run", (3, 4), same=["suit"], consecutive=[("rank", ORDER)])
    assert pattern._direct == GENERIC
    group = pieces([(0, 1), (1, 2), (0, 2), (0, 3), (1, 3)])
    assert [p.id for p in pattern.best(None, group)] == [0, 2, 3]  # type: ignore[arg-type]


def test_examples_from_the_definition():
    run = Pattern("run", (3, 4), consecutive=[("rank", ORDER)])
    # 2 3 4 and 3 4 5 are both runs of three: the first combination wins (ids 0 1 2)
    group = pieces([(0, 1), (1, 2), (2, 3), (3, 4)])
    assert [p.id for p in run.best(None, group)] == [0, 1, 2, 3]  # type: ignore[arg-type]
    group = pieces([(0, 2), (1, 1), (2, 3), (3, 1)])   # 3 2 4 2: one run, the first 2
    assert [p.id for p in run.best(None, group)] == [0, 1, 2]  # type: ignore[arg-type]
    prime = Pattern("prime", (4, 4), distinct=[("suit", 4)])
    group = pieces([(0, 0), (0, 1), (1, 0), (2, 0), (3, 0)])
    assert [p.id for p in prime.best(None, group)] == [0, 2, 3, 4]  # type: ignore[arg-type]
    assert prime.best(None, pieces([(0, 0), (1, 0), (2, 0)])) == []  # type: ignore[arg-type]


LONG_ORDER = {v: i for i, v in enumerate(range(1, 15))}     # 14 values: past the table


@settings(max_examples=60 * SCALE, deadline=None)
@given(st.lists(st.integers(0, 16), max_size=9), sizes)
def test_long_orders_search_without_the_table(values, size):
    """An order longer than SPAN_TABLE_LIMIT is searched by scanning; it finds the same."""
    from rulepack.patterns.match import SPAN_TABLE_LIMIT
    assert len(LONG_ORDER) > SPAN_TABLE_LIMIT
    pattern = Pattern("p", size, consecutive=[("rank", LONG_ORDER)])
    assert pattern._span is None
    assert Pattern("p", size, consecutive=[("rank", ORDER)])._span is not None
    group = [Piece(i, "card", {"rank": v}, f"c{i}") for i, v in enumerate(values)]
    found = pattern.best(None, group)          # type: ignore[arg-type]
    assert found == brute_force(pattern, group)


def test_a_list_among_the_pieces_fails_on_its_missing_attributes():
    """A value that is not a piece (a list, a number) among the pieces: the
    AttributeError the language turns into "cannot be used here", for every
    direct search, as when the values were read from the pieces directly."""
    import pytest
    group = pieces([(0, 1), (1, 1)])
    for pattern in (Pattern("p", (1, 2), same=["rank"]),
                    Pattern("p", (1, 2), distinct=[("suit", 4)]),
                    Pattern("p", (1, 2), consecutive=[("rank", ORDER)])):
        for odd in ([1], {"a": 1}, 3):
            pattern.best(None, group)                   # its cache holds the pieces now
            with pytest.raises(AttributeError):
                pattern.best(None, group + [odd])       # type: ignore[list-item]


def test_the_generic_search_spends_the_steps_of_its_decision():
    """Issue 32: each combination the generic search examines is a step of the
    decision's budget (State.steps_left, shared with the loops of expressions);
    with too few left it stops with PatternBudgetError."""
    state = rulepack.load("packkub").new_game(3, seed=1)
    pattern = Pattern("rainbow", (3, 4), distinct=[("suit", 4)],
                      consecutive=[("rank", ORDER)])
    assert pattern._direct == GENERIC
    group = pieces([(0, 1), (1, 1), (0, 2), (2, 3), (1, 4), (3, 0), (2, 2)])
    state.position.steps_left = EVAL_STEPS
    found = pattern.best(state.position, group)
    assert found == brute_force(pattern, group) != []
    # the combinations of the definition's order, up to the one found
    tried = [c for size in (4, 3) for c in combinations(group, size)]
    assert EVAL_STEPS - state.position.steps_left == tried.index(tuple(found)) + 1
    state.position.steps_left = 10
    with pytest.raises(PatternBudgetError, match="pattern 'rainbow' went over the budget"):
        pattern.best(state.position, group)
