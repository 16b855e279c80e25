"""The generic partition search (rulepack/patterns/partition.py), cross-checked.

``find_partition`` (through ``Pattern.partition``) is compared with a brute-force
search (tests/packkub_positions.oracle_partition: every group containing the
first mandatory piece left, over pieces, no types) on many small random
positions — with and without optional pieces, with and without wild pieces, with
identical pieces from several sets — and every arrangement it returns is checked:
each group matches, every mandatory piece is used exactly once, optional pieces
at most once, nothing else. PackKub's ``meld`` is checked against the
independent reading of rulings P2/P8 (``oracle_meld``); other patterns (tiny
rulesets below) against their own ``matches``. Then a table of PackKub size.
"""

from __future__ import annotations

import json
import os
import random
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulepack
from rulepack.patterns import partition as partition_module
from rulepack.patterns.partition import PARTITION_BUDGET, find_partition, index_for
from rulepack.patterns.match import PatternBudgetError
from rulepack.engine.runtime import EVAL_STEPS
from rulepack.patterns.native import compiled

try:
    from packkub_positions import (RANKS, SUITS, check_arrangement, hand_index, names,
                                   oracle_meld, oracle_partition, pattern, pieces_named,
                                   play_texts, position, table_groups, tile_name, zone_index)
except ImportError:  # tests/ imported as a package
    from tests.packkub_positions import (RANKS, SUITS, check_arrangement, hand_index, names,
                                         oracle_meld, oracle_partition, pattern, pieces_named,
                                         play_texts, position, table_groups, tile_name,
                                         zone_index)

PACKKUB = rulepack.load("packkub")

#: Multiplies how many random positions each cross-check with the brute force tries.
#: The core suite tries a few dozen per case; CI's second step runs the wide check
#: with RULEPACK_PROPERTY_SCALE=3 (.ci/run), as many as the suite once tried.
SCALE = max(1, int(os.environ.get("RULEPACK_PROPERTY_SCALE", "1")))

#: Generic patterns over two sets of piecepack tiles (identical pieces exist).
GENERIC = textwrap.dedent("""
    game t { players 2..4 }
    use piecepack (tile)
    component tile { copies 2 }
    pattern pair: size 2, same rank
    pattern suited: size 2..3, same suit
    pattern rainbow: size 4, distinct suit
    pattern low_run: size 3..4, consecutive rank, each rank != 5
    pattern pair_or_run: pair or low_run
    pattern wild_run: size 3..5, same suit, consecutive rank, wild rank == null
    pattern wild_set: size 3..4, same rank, distinct suit, wild rank == null
    pattern wild_melds: wild_run or wild_set
    play {}
""")
GENERIC_PATTERNS = ["pair", "suited", "rainbow", "low_run", "all_suits", "pair_or_run",
                    "wild_run", "wild_set", "wild_melds"]

#: ``covers`` over two sets of tiles of three ranks: every group a pattern with no
#: ``same`` may form is indexed once per instance, and over the 24 kinds of two whole
#: sets of tiles the groups of 4-5 that cover the suits take seconds to find (19,440 of
#: them); over 12 kinds, a fraction of one. The pattern is checked all the same: sizes
#: 4 and 5, identical pieces, any rank.
COVERS = textwrap.dedent("""
    game t { players 2..4 }
    component tile {
      called "{rank} of {suit}"
      suit: [suns, moons, crowns, arms]
      rank: [null, ace, 2]
      copies 2
    }
    order suit: suns, moons, crowns, arms
    order rank: null, ace, 2
    pattern all_suits: size 4..5, covers suit
    play {}
""")

#: A union whose alternatives disagree on what is wild (null tiles are wild for
#: ``wr`` only): for ``same_suit`` a null tile is an ordinary tile of its suit.
MIXED_WILD = textwrap.dedent("""
    game t { players 2..4 }
    use piecepack (tile)
    pattern same_suit: size 2, same suit
    pattern wr: size 3, same suit, consecutive rank, wild rank == null
    pattern mix: same_suit or wr
    play {}
""")


#: States several tests share: the method fixture empties their pattern memo
#: (State.memo), so that no test reads answers another method computed.
_SHARED: list = []


@pytest.fixture(scope="module")
def generic_state():
    state = rulepack.loads(GENERIC).new_game(2, 0)
    _SHARED.append(state)
    return state


@pytest.fixture(scope="module")
def covers_state():
    state = rulepack.loads(COVERS).new_game(2, 0)
    _SHARED.append(state)
    return state


def generic_pattern_state(name, generic_state, covers_state):
    """The state whose instance declares the generic pattern ``name``."""
    return covers_state if name == "all_suits" else generic_state


def pat(state, name):
    return next(p for p in state.program.patterns if p.name == name)


def sample_melds(rng: random.Random, pool: list, count: int, jokers: bool = True,
                 six: int = 4) -> list[list]:
    """``count`` PackKub melds taken from ``pool`` (removed from it): random sets
    and sequences, sometimes with a joker standing in for a tile."""
    out = []
    for _ in range(count):
        for _try in range(100):
            if rng.random() < 0.5:
                suit = rng.choice(SUITS)
                n = rng.choice([3, 3, 4, 5, 6])
                start = rng.randrange(0, len(RANKS) - n + 1)
                want = [(suit, RANKS[start + i]) for i in range(n)]
            else:
                rank = rng.choice(RANKS)
                n = rng.choice([3, 3, 4])
                want = [(s, rank) for s in rng.sample(SUITS, n)]
            if jokers and rng.random() < 0.3:
                want[rng.randrange(len(want))] = ("joker", None)
            avail = list(pool)
            chosen = []
            for suit, rank in want:
                p = next((p for p in avail if (p.kind == "joker" if suit == "joker" else
                                               p.kind == "tile" and p.attrs["suit"] == suit
                                               and p.attrs["rank"] == rank)), None)
                if p is None:
                    break
                avail.remove(p)
                chosen.append(p)
            else:
                for p in chosen:
                    pool.remove(p)
                out.append(chosen)
                break
    return out


def random_position(rng: random.Random, pieces: list, with_optional: bool,
                    max_mandatory: int = 9, max_optional: int = 5) -> tuple[list, list]:
    """A small (mandatory, optional) pair: often built from melds and perturbed
    (a tile added, removed or swapped), sometimes plain random."""
    pool = list(pieces)
    rng.shuffle(pool)
    if rng.random() < 0.7:
        melds = sample_melds(rng, pool, rng.choice([1, 2, 2, 3]))
        mandatory = [p for m in melds for p in m][:max_mandatory]
        r = rng.random()
        if r < 0.3 and mandatory:
            mandatory.pop(rng.randrange(len(mandatory)))
        elif r < 0.6 and len(mandatory) < max_mandatory:
            mandatory.append(pool.pop())
        elif r < 0.75 and mandatory:
            mandatory[rng.randrange(len(mandatory))] = pool.pop()
    else:
        mandatory = [pool.pop() for _ in range(rng.randrange(0, max_mandatory + 1))]
    optional = [pool.pop() for _ in range(rng.randrange(0, max_optional + 1))] \
        if with_optional else []
    rng.shuffle(mandatory)
    return mandatory, optional


# ====================================================================== PackKub melds
@pytest.mark.parametrize("players,jokers,with_optional", [
    (2, 0, False), (2, 0, True), (2, 2, False), (2, 2, True), (3, 1, True), (4, 3, True)])
def test_meld_partition_agrees_with_brute_force(players, jokers, with_optional):
    """On random small positions of PackKub tiles (identical tiles from several
    sets; jokers or not; optional pieces or not), find_partition finds a
    partition exactly when the brute force does, and what it returns is valid."""
    state = PACKKUB.new_game(players, 0, options={"jokers": jokers})
    meld = pattern(state, "meld")
    ok = lambda g: oracle_meld(g)          # noqa: E731 - the independent reading of P2/P8
    rng = random.Random(1000 * players + 10 * jokers + with_optional)
    found = {True: 0, False: 0}
    for _ in range(50 * SCALE):
        mandatory, optional = random_position(rng, state.program.pieces, with_optional)
        got = meld.partition(state.position, mandatory, optional)
        want = oracle_partition(mandatory, optional, ok)
        assert (got is None) == (want is None), (names(mandatory), names(optional), want)
        if got is not None:
            check_arrangement(got, mandatory, optional, ok)
            check_arrangement(got, mandatory, optional, lambda g: meld.matches(state.position, g))
        found[got is not None] += 1
    assert found[True] >= 7 * SCALE and found[False] >= 7 * SCALE, found


def test_meld_partition_edge_cases():
    """No mandatory piece: ``[]`` (optional pieces need not be used); one tile or
    two: none; optional pieces are used only when needed; a lone joker is no meld."""
    state = PACKKUB.new_game(2, 0, options={"jokers": 2})
    meld = pattern(state, "meld")
    p = lambda *ns: pieces_named(state, list(ns))    # noqa: E731
    assert meld.partition(state.position, [], p("3 of suns", "3 of moons", "3 of arms")) == []
    assert find_partition(state.position, meld, []) == []
    assert meld.partition(state.position, p("3 of suns")) is None
    assert meld.partition(state.position, p("3 of suns", "3 of moons")) is None
    assert meld.partition(state.position, p("joker")) is None
    assert meld.partition(state.position, p("joker", "joker")) is None
    got = meld.partition(state.position, p("3 of suns", "3 of moons"), p("3 of arms", "5 of arms"))
    assert [sorted(names(g)) for g in got] == [["3 of arms", "3 of moons", "3 of suns"]]
    # two identical tiles must go to two different melds
    ms = p("3 of suns", "3 of suns", "3 of moons", "3 of crowns", "2 of suns", "4 of suns")
    got = meld.partition(state.position, ms)
    check_arrangement(got, ms, [], oracle_meld)
    # a mandatory joker must be placed even if the tiles do not need it
    got = meld.partition(state.position, p("2 of suns", "3 of suns", "4 of suns", "joker"))
    assert got is not None and len(got) == 1 and len(got[0]) == 4
    assert meld.partition(state.position, p("3 of suns", "3 of moons", "3 of crowns", "3 of arms",
                                   "joker")) is None


# ====================================================================== other patterns
@pytest.mark.parametrize("name", GENERIC_PATTERNS)
@pytest.mark.parametrize("with_optional", [False, True])
def test_generic_partition_agrees_with_brute_force(generic_state, covers_state, name,
                                                  with_optional):
    """The search is generic: for patterns with ``same``, ``distinct``,
    ``consecutive``, ``covers``, ``each``, ``wild`` and unions (two sets of tiles,
    so identical pieces exist), it agrees with the brute force over the
    pattern's own ``matches``."""
    state = generic_pattern_state(name, generic_state, covers_state)
    p = pat(state, name)
    ok = lambda g: p.matches(state.position, g)     # noqa: E731
    rng = random.Random(100 * GENERIC_PATTERNS.index(name) + with_optional)
    found = {True: 0, False: 0}
    tiles = state.program.pieces
    for _ in range(40 * SCALE):
        pool = list(tiles)
        rng.shuffle(pool)
        # bias towards pieces that group: a few suits or ranks only
        if rng.random() < 0.6:
            suits = rng.sample(SUITS, rng.choice([1, 2]))
            ranks = rng.sample(RANKS, rng.choice([2, 3, 4]))
            pool = [t for t in pool if t.attrs["suit"] in suits or t.attrs["rank"] in ranks]
        n = rng.randrange(0, 9)
        mandatory = pool[:n]
        optional = pool[n:n + rng.randrange(0, 5)] if with_optional else []
        got = p.partition(state.position, mandatory, optional)
        want = oracle_partition(mandatory, optional, ok)
        assert (got is None) == (want is None), (name, names(mandatory), names(optional), want)
        if got is not None:
            check_arrangement(got, mandatory, optional, ok)
        found[got is not None] += 1
    assert found[True] >= 2 * SCALE and found[False] >= 2 * SCALE, (name, found)


def test_mixed_wild_union_finds_the_partition():
    """A union whose alternatives disagree on wildness: null of suns + 2 of suns
    and null of moons + 2 of moons are two ``same_suit`` pairs, so a partition
    exists. (The search counts wild pieces, not types, so it takes every null as
    the first one it saw: here it then cannot pair the 2 of moons.)"""
    state = rulepack.loads(MIXED_WILD).new_game(2, 0)
    mix = pat(state, "mix")
    ms = pieces_named(state, ["null of suns", "null of moons", "2 of suns", "2 of moons"])
    ok = lambda g: mix.matches(state.position, g)   # noqa: E731
    assert oracle_partition(ms, [], ok) is not None
    got = mix.partition(state.position, ms)
    assert got is not None
    check_arrangement(got, ms, [], ok)


def test_mixed_wild_union_never_returns_an_invalid_group():
    """The same union: null of moons, null of suns, 2 and 4 of moons have no
    partition (null of suns fits with no moons tile as a same-suit pair, and the
    2-joker-4 run leaves it alone), so the answer is ``None`` — not a pair of
    null of suns with 4 of moons."""
    state = rulepack.loads(MIXED_WILD).new_game(2, 0)
    mix = pat(state, "mix")
    ms = pieces_named(state, ["null of moons", "null of suns", "2 of moons", "4 of moons"])
    ok = lambda g: mix.matches(state.position, g)   # noqa: E731
    assert oracle_partition(ms, [], ok) is None
    got = mix.partition(state.position, ms)
    if got is not None:
        check_arrangement(got, ms, [], ok)
    assert got is None


# ====================================================================== the functions
def test_partition_and_partitionable_functions_in_a_ruleset():
    """The ruleset functions ``partition(P, X)`` and ``partitionable(P, mandatory,
    optional)`` answer as the search does."""
    src = textwrap.dedent("""
        game t { players 2..4 }
        use piecepack (tile)
        component tile { copies 2 }
        pattern pair: size 2, same rank
        pattern unlike_pair: size 2, same rank, distinct suit
        var a = none
        var b = none
        var c = none
        var d = none
        play {
          set a = partitionable(pair, [t for t in tile if t.suit == suns])
          set b = partition(pair, [t for t in tile if t.rank == 3])
          set c = partitionable(pair, [t for t in tile if t.rank == 3 and t.suit == suns],
                                [t for t in tile if t.suit == arms])
          set d = partitionable(unlike_pair, [t for t in tile if t.rank == 3 and t.suit == suns])
        }
    """)
    state = rulepack.loads(src).new_game(2, 0)
    assert state.position.vars["a"] is True                # two copies of each suns tile: 6 pairs
    groups = state.position.vars["b"]
    assert len(groups) == 4 and all(len(g) == 2 for g in groups)
    assert sorted(p.id for g in groups for p in g) == \
        sorted(p.id for p in state.program.pieces if p.attrs["rank"] == 3)
    assert state.position.vars["c"] is True                # each 3 of suns with a 3 of arms
    assert state.position.vars["d"] is False               # the two 3s of suns are alike


# ====================================================================== scale
def build_table(rng: random.Random, state, table_size: int, hand_size: int):
    """A table of at least ``table_size`` tiles made of melds, and a hand of
    ``hand_size`` other pieces holding at least three tiles that extend a table
    meld (so some plays are known to fit)."""
    pool = list(state.program.pieces)
    rng.shuffle(pool)
    melds: list[list] = []
    while sum(len(m) for m in melds) < table_size:
        melds += sample_melds(rng, pool, 1, jokers=False)
    fits = []
    for m in melds:                          # tiles extending a sequence or a set
        suits = {p.attrs["suit"] for p in m}
        ranks = {p.attrs["rank"] for p in m}
        for p in pool:
            if p in fits or p.kind != "tile":
                continue
            if len(ranks) == 1 and len(m) < 4 and p.attrs["rank"] in ranks \
                    and p.attrs["suit"] not in suits:
                fits.append(p)
                break
            if len(suits) == 1 and p.attrs["suit"] in suits:
                pos = sorted(RANKS.index(r) for r in ranks)
                if RANKS.index(p.attrs["rank"]) in (pos[0] - 1, pos[-1] + 1):
                    fits.append(p)
                    break
        if len(fits) >= 3:
            break
    rest = [p for p in pool if p not in fits]
    hand = fits + rest[:hand_size - len(fits)]
    return melds, hand, fits


@pytest.mark.parametrize("seed,jokers", [(0, 0), (1, 2), (2, 0), (3, 1)])
def test_scale_45_tile_table_and_20_tile_hand(seed, jokers):
    """A 45-tile table (four sets) with a 20-tile hand: every question a turn asks
    (the table alone; the table, one hand tile and the rest of the hand optional;
    the table and the whole hand) is answered within PARTITION_BUDGET, every
    answer is a valid arrangement, and the tiles known to extend a meld fit."""
    state = PACKKUB.new_game(4, seed, options={"jokers": jokers})
    meld = pattern(state, "meld")
    rng = random.Random(seed)
    melds, hand, fits = build_table(rng, state, 45, 20)
    table = [p for m in melds for p in m]
    assert len(table) >= 45 and len(hand) == 20 and len(fits) >= 3
    ok = lambda g: oracle_meld(g)          # noqa: E731
    try:
        got = meld.partition(state.position, table)
        assert got is not None
        check_arrangement(got, table, [], ok)
        got = meld.partition(state.position, table, hand)
        check_arrangement(got, table, hand, ok)
        for t in hand:
            rest = [h for h in hand if h is not t]
            got = meld.partition(state.position, table + [t], rest)
            if t in fits:
                assert got is not None, t.name
            if got is not None:
                check_arrangement(got, table + [t], rest, ok)
        for t in fits:
            got = meld.partition(state.position, table + [t])
            assert got is not None, t.name
            check_arrangement(got, table + [t], [], ok)
    except PatternBudgetError as exc:       # pragma: no cover - the failure being tested
        pytest.fail(f"a PackKub-size table exceeded the budget ({PARTITION_BUDGET}): {exc}")


def test_scale_through_the_ruleset():
    """The same size through legal play: a 4-player position with a 45-tile table,
    20 tiles in hand, opened; the known extensions are offered, and playing one
    and melding leaves the table arranged into melds."""
    state0 = PACKKUB.new_game(4, 0)
    rng = random.Random(7)
    melds, hand, fits = build_table(rng, state0, 45, 20)
    used = {p.id for m in melds for p in m} | {p.id for p in hand}
    spare = next(p for p in state0.program.pieces if p.id not in used)
    state = position(PACKKUB, {0: names(hand), 1: [spare.name], 2: [], 3: []},
                     table=[names(m) for m in melds], players=4, opened=[True] * 4)
    offered = play_texts(state)
    for t in fits:
        assert f"play {t.name}" in offered
    state.apply(f"play {fits[0].name}")
    while "meld the played tiles" not in [a.text for a in state.legal_actions()]:
        state.apply(play_texts(state)[0])
    state.apply("meld the played tiles")
    groups = table_groups(state)
    table = state.position.zones[zone_index(state, "table")]
    assert sorted(p.id for g in groups for p in g) == sorted(p.id for p in table)
    assert all(oracle_meld(g) for g in groups)


# ====================================================================== both methods, hypothesis
#: The two ways a question is answered: ``general`` (group by group,
#: rulepack.patterns.cover) for every pattern, ``sweep``
#: (rulepack.patterns.sweep) for patterns of runs and sets. Each is forced
#: here on every question, so both are checked on small positions.
METHODS = ["general", "sweep"]


@pytest.fixture
def method(request, monkeypatch):
    """Force one method for the questions of a test (``request.param``), the
    shared states' memo emptied."""
    for state in _SHARED:
        state.position.memo.clear()
    if request.param == "sweep":
        monkeypatch.setattr(partition_module, "SWEEP_FROM", 0)
        monkeypatch.setattr(partition_module, "SWEEP_OPTIONAL", 10 ** 6)
    else:
        general_only(monkeypatch)
    return request.param


def general_only(monkeypatch) -> None:
    """Every question to the general search, which never hands over to the sweep."""
    monkeypatch.setattr(partition_module, "SWEEP_FROM", 10 ** 9)
    monkeypatch.setattr(partition_module, "SEARCH_FIRST", PARTITION_BUDGET)


@st.composite
def tile_positions(draw, jokers: bool):
    """(mandatory, optional) names: tiles of a few suits and ranks (so that
    melds form), perhaps jokers, repeats allowed (up to the copies that exist)."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=3, unique=True))
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=6, unique=True))
    kinds = [tile_name(r, s) for s in suits for r in ranks] + (["joker"] if jokers else [])
    mandatory = draw(st.lists(st.sampled_from(kinds), max_size=8))
    optional = draw(st.lists(st.sampled_from(kinds), max_size=4))
    return mandatory, optional


def real_pieces(state, mandatory: list[str], optional: list[str]) -> tuple[list, list]:
    """Distinct pieces for the names (a name asked for more often than it has
    copies is left out)."""
    used: set[int] = set()
    out: list[list] = [[], []]
    for k, wanted in enumerate((mandatory, optional)):
        for n in wanted:
            try:
                out[k] += pieces_named(state, [n], used)
            except ValueError:
                pass
    return out[0], out[1]


def brute_usable(mandatory: list, optional: list, ok) -> list:
    """The optional pieces that some brute-force split of mandatory + that
    piece (+ the other optional ones) uses."""
    return [x for x in optional
            if oracle_partition(mandatory + [x], [y for y in optional if y is not x], ok)
            is not None]


def assert_agrees(state, pat, mandatory: list, optional: list, ok) -> None:
    """partitionable, partition and usable against the brute force."""
    want = oracle_partition(mandatory, optional, ok)
    assert pat.partitionable(state.position, mandatory, optional) == (want is not None), \
        (names(mandatory), names(optional), want)
    got = pat.partition(state.position, mandatory, optional)
    assert (got is None) == (want is None)
    if got is not None:
        check_arrangement(got, mandatory, optional, ok)
    assert names(pat.usable(state.position, mandatory, optional)) == \
        names(brute_usable(mandatory, optional, ok)), (names(mandatory), names(optional))


@pytest.mark.parametrize("method", METHODS, indirect=True)
@pytest.mark.parametrize("jokers", [0, 2])
@settings(max_examples=40 * SCALE, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_meld_questions_agree_with_brute_force(method, jokers, data):
    """PackKub melds (3 sets of tiles, so identical tiles; jokers or not): on
    random small multisets, each method's partitionable, partition and usable
    (the batched question) agree with the brute force over the independent
    reading of rulings P2/P8."""
    state = _packkub_state(jokers)
    meld = pattern(state, "meld")
    mandatory, optional = real_pieces(state, *data.draw(tile_positions(bool(jokers))))
    assert_agrees(state, meld, mandatory, optional, oracle_meld)


@pytest.mark.parametrize("method", METHODS, indirect=True)
@pytest.mark.parametrize("name", ["wild_run", "wild_melds", "suited", "pair_or_run"])
@settings(max_examples=20 * SCALE, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_generic_questions_agree_with_brute_force(method, name, generic_state, data):
    """Other patterns (two sets of tiles): runs that may not fill the whole
    order (``wild_run``: 3 to 5 of 6 ranks, nulls wild), runs and sets with
    wild nulls, and patterns the sweep does not take (then both methods are the
    general search): the answers agree with the brute force over the pattern's
    own ``matches``."""
    state = generic_state
    p = pat(state, name)
    ok = lambda g: p.matches(state.position, g)     # noqa: E731
    mandatory, optional = real_pieces(state, *data.draw(tile_positions(False)))
    assert_agrees(state, p, mandatory, optional, ok)


_STATES: dict[int, object] = {}


def _packkub_state(jokers: int):
    if jokers not in _STATES:
        _STATES[jokers] = PACKKUB.new_game(3, 0, options={"jokers": jokers})
        _SHARED.append(_STATES[jokers])
    return _STATES[jokers]


#: Runs and sets where some tiles fit no group that stays at one rank: the 5s
#: (no set of 5s), every tile of a pattern of runs alone. (Two rulesets: a piece
#: without a suit, the joker, keeps ``low_meld`` from the sweep.)
NO_LOCAL_GROUP = textwrap.dedent("""
    game t { players 2..2 }
    use piecepack (tile)
    pattern run: size 3..6, same suit, consecutive rank
    pattern low_set: size 3..4, same rank, distinct suit, each rank != 5
    pattern low_meld: run or low_set
    play {}
""")
NO_LOCAL_GROUP_JOKER = textwrap.dedent("""
    game t { players 2..2 }
    use piecepack (tile)
    component joker {
      called "joker"
      copies 1
    }
    pattern wild_run: size 3..6, same suit, consecutive rank, wild kind == "joker"
    play {}
""")


@pytest.mark.parametrize("method", METHODS, indirect=True)
@pytest.mark.parametrize("name, tiles", [
    ("low_meld", ["3 of suns", "4 of suns", "5 of suns"]),
    ("low_meld", ["ace of suns", "2 of suns", "3 of suns", "4 of suns", "5 of suns"]),
    ("wild_run", ["4 of suns", "5 of suns", "joker"]),
    ("wild_run", ["null of suns", "ace of suns", "2 of suns", "joker", "4 of suns", "5 of suns"]),
])
def test_tiles_no_local_group_takes_still_end_runs(method, name, tiles):
    """A tile that no group of its own rank can take (a 5 when sets stop at 4;
    any tile when the pattern has runs only) must be in a run, and the run may
    start before it, with tiles or a wild piece. The sweep's estimate of the wild
    pieces a suit still needs used to count such a tile as starting a run of its
    own, so it said no to splits that exist (a 3-4-5 run; a joker standing for
    the 3 before a 4 and a 5): each question agrees with the brute force."""
    text = NO_LOCAL_GROUP_JOKER if name == "wild_run" else NO_LOCAL_GROUP
    state = rulepack.loads(text).new_game(2, 0)
    p = next(q for q in state.program.patterns if q.name == name)
    assert index_for(state.position, p, state.program.pieces).shape is not None    # the sweep's kind
    ok = lambda g: p.matches(state.position, g)     # noqa: E731
    mandatory = pieces_named(state, tiles, set())
    assert_agrees(state, p, mandatory, [], ok)
    assert p.partitionable(state.position, mandatory)


def test_the_sweep_takes_runs_and_sets_only(generic_state, covers_state):
    """Which patterns have the runs-and-sets shape (the sweep's): a run
    (``same A, consecutive B``) with any alternatives that keep to one B."""
    shaped = set()
    for name in GENERIC_PATTERNS:
        state = generic_pattern_state(name, generic_state, covers_state)
        if partition_module.index_for(state.position, pat(state, name), []).shape is not None:
            shaped.add(name)
    assert shaped == {"wild_run", "wild_melds"}
    state = _packkub_state(2)
    assert partition_module.index_for(state.position, pattern(state, "meld"), []).shape is not None


# ====================================================================== usable in a ruleset
def test_usable_function_in_a_ruleset():
    """``usable(P, mandatory, optional)`` lists the optional pieces that can join
    a split of the mandatory ones, in the optional list's order; none when the
    mandatory pieces cannot be split; a piece also mandatory is listed when they
    can. (Worked by hand: a pair needs the same rank.)"""
    src = textwrap.dedent("""
        game t { players 2..4 }
        use piecepack (tile)
        pattern pair: size 2, same rank
        var a = none
        var b = none
        var c = none
        var d = none
        var e = none
        play {
          set e = usable(pair, [t for t in tile if t.rank == 3 and t.suit in [suns, moons]],
                         [t for t in tile if (t.rank == 3 and t.suit == suns)
                                             or (t.rank == 4 and t.suit == arms)])
          set a = usable(pair, [t for t in tile if t.rank == 3 and t.suit == suns],
                         [t for t in tile if t.suit == moons])
          set b = usable(pair, [t for t in tile if t.rank == 3 and t.suit == suns],
                         [t for t in tile if t.suit == moons and t.rank != 3])
          set c = usable(pair, [], [t for t in tile if t.suit != arms and t.rank == 2])
          set d = usable(pair, [t for t in tile if t.suit == suns and t.rank in [2, 3]],
                         [t for t in tile if t.rank == 2])
        }
    """)
    state = rulepack.loads(src).new_game(2, 0)
    # the 3 of moons pairs with the 3 of suns; any other moons tile could only pair
    # with another moons tile of its rank, and there is one of each
    assert names(state.position.vars["a"]) == ["3 of moons"]
    assert state.position.vars["b"] == []
    # with nothing mandatory, any two 2s pair up
    assert names(state.position.vars["c"]) == ["2 of suns", "2 of moons", "2 of crowns"]
    # the 3 of suns has no partner of its rank anywhere: no split, so nothing is
    # usable (not even the 2 of suns, which is in both lists)
    assert state.position.vars["d"] == []
    # the 3 of suns is in both lists and the 3s pair up: it is listed; the 4 of
    # arms has no partner
    assert names(state.position.vars["e"]) == ["3 of suns"]


# ====================================================================== no memory, budget
@pytest.mark.skipif(compiled(), reason="counts the calls of a method, which compiled code "
                    "makes directly; .ci/run runs it with RULEPACK_PURE_PYTHON=1")
@pytest.mark.parametrize("sweep", [False, True])
def test_no_game_remembers_another(monkeypatch, sweep):
    """A question asked in a new game costs what it cost in the first: what the
    searches keep between questions lives with the game (State.memo), so the
    same games played again are no faster than the first time. Within a game
    (and its clones) a usable-piece question asked again is not searched again,
    and the sweep's lane options are shared."""
    games = [PACKKUB.new_game(4, 3), PACKKUB.new_game(4, 3)]
    meld = pattern(games[0], "meld")
    melds, hand, fits = build_table(random.Random(3), games[0], 45, 20)
    table = [p for m in melds for p in m]
    for state in games:
        state.position.memo.clear()      # what the deal's questions left
    work = []
    if sweep:
        original = partition_module.SweepSearch.options
        counted, name = partition_module.SweepSearch, "options"
        monkeypatch.setattr(partition_module, "SWEEP_FROM", 0)
        monkeypatch.setattr(partition_module, "SWEEP_OPTIONAL", 10 ** 6)
    else:
        original = partition_module.CoverSearch._step
        counted, name = partition_module.CoverSearch, "_step"
        general_only(monkeypatch)

    def counting(self, *args):
        work[-1] += 1
        return original(self, *args)
    monkeypatch.setattr(counted, name, counting)
    answers = []
    for state in games:
        work.append(0)
        assert meld.partitionable(state.position, table + [fits[0]], hand)
        answers.append(meld.usable(state.position, table, hand))
        again = meld.usable(state.clone().position, table, hand)
        assert again == answers[-1]
    assert work[0] > 0 and work[0] == work[1]
    assert answers[0] == answers[1] and fits[0] in answers[0]
    work.append(0)
    assert meld.usable(state.position, table, hand) == answers[0]
    assert work[-1] == 0


def table_and_hand(state):
    """A table of melds (45 tiles or more) and a 20-piece hand, from a fixed seed."""
    melds, hand, fits = build_table(random.Random(3), state, 45, 20)
    return [p for m in melds for p in m], hand


def test_a_question_spends_the_steps_of_its_decision():
    """Issue 32: pattern searches spend the steps between two decisions that the
    loops of expressions spend (State.steps_left): one for each piece a question
    reads and each group or state a search examines, so a decision is bounded
    in all the work it does, not search by search. What a question spends
    depends on the question alone: asked again in the same game (the game's
    memo answers it), in a clone or in another game, it costs the same."""
    games = [PACKKUB.new_game(4, 3), PACKKUB.new_game(4, 3)]
    meld = pattern(games[0], "meld")
    table, hand = table_and_hand(games[0])
    spent = []
    for state in (games[0], games[0], games[1].clone(), games[1]):
        state.position.steps_left = EVAL_STEPS
        assert meld.usable(state.position, table, hand)
        spent.append(EVAL_STEPS - state.position.steps_left)
    assert spent[0] > len(table) + len(hand)
    assert spent == [spent[0]] * 4
    for ask in (meld.partitionable, meld.partition):
        state = games[0]
        state.position.steps_left = EVAL_STEPS
        assert ask(state.position, table, hand)
        assert EVAL_STEPS - state.position.steps_left > len(table) + len(hand)


@pytest.mark.parametrize("question", ["partitionable", "partition", "usable"])
@pytest.mark.parametrize("method", METHODS, indirect=True)
def test_a_question_stops_when_its_decision_has_no_steps_left(question, method):
    """A question that needs more steps than its decision has left stops with
    PatternBudgetError (a located error in a game), whichever method answers;
    what it spent is taken from the decision. With the steps renewed (the next
    decision), the same question is answered."""
    state = _packkub_state(2)
    meld = pattern(state, "meld")
    table, hand = table_and_hand(state)
    ask = getattr(meld, question)
    state.position.steps_left = 200          # more than the pieces, less than the search
    with pytest.raises(PatternBudgetError, match="partition by 'meld' went over the budget "
                       "of 1,000,000 steps between two decisions"):
        ask(state.position, table, hand)
    assert state.position.steps_left < 0
    state.position.steps_left = EVAL_STEPS
    assert ask(state.position, table, hand)


def test_a_search_over_budget_fails_and_the_next_question_is_answered(generic_state,
                                                                      monkeypatch):
    """The general search (a pattern the sweep does not take) stops after
    PARTITION_BUDGET steps with PatternBudgetError; the next question, with the
    budget back, is answered (nothing of the abandoned search is kept)."""
    state = generic_state
    p = pat(state, "pair_or_run")
    ok = lambda g: p.matches(state.position, g)     # noqa: E731
    mandatory = [t for t in state.program.pieces if t.attrs["rank"] in (2, 3)]
    monkeypatch.setattr(partition_module, "PARTITION_BUDGET", 3)
    with pytest.raises(PatternBudgetError):
        p.partitionable(state.position, mandatory)
    monkeypatch.setattr(partition_module, "PARTITION_BUDGET", PARTITION_BUDGET)
    assert p.partitionable(state.position, mandatory)
    got = p.partition(state.position, mandatory)
    assert got is not None
    check_arrangement(got, mandatory, [], ok)


# ====================================================================== a stuck game
REPRO = Path(__file__).parent / "data" / "packkub-6p-joker-stuck.json"


def test_six_player_joker_game_that_used_to_run_out_of_budget():
    """tests/data/packkub-6p-joker-stuck.json (6 players, 1 joker, 1 round, seed
    and 176 random actions; see its README in the shared repro folder): the
    legal actions used to exhaust the budget on the 49-tile table. An
    independent search found that the table splits into melds and that 11 kinds
    of hand tile can be played; each offered tile is checked here against the
    per-tile question of the old ruleset text, answered by the general search."""
    data = json.loads(REPRO.read_text(encoding="utf-8"))
    state = PACKKUB.new_game(data["players"], seed=data["seed"], options=data["options"])
    for text in data["actions"]:
        state.apply(text)
    offered = play_texts(state)
    assert len(offered) == 11
    table = state.position.zones[zone_index(state, "table")]
    meld = pattern(state, "meld")
    assert len(table) == 49 and meld.partitionable(state.position, list(table))
    check_arrangement(meld.partition(state.position, list(table)), list(table), [], oracle_meld)
    hand = list(state.position.zones[hand_index(state, state.current_player)])
    for text in offered:
        t = next(p for p in hand if f"play {p.name}" == text)
        assert meld.partitionable(state.position, list(table) + [t], [x for x in hand if x is not t])


SLOW = Path(__file__).parent / "data" / "packkub-5p-slow-legal-actions.json"


def test_five_player_game_whose_legal_actions_took_half_a_minute():
    """tests/data/packkub-5p-slow-legal-actions.json (issue 32: 5 players, 2
    jokers, 3 rounds; the seed and 193 random actions): a 71-tile table holding
    both jokers and an 11-tile hand. Its legal actions (pass and 9 plays) took
    about 26 s of CPU: the sweep listed every state of every position (260,000
    after the fourth). Now well under a second and a few percent of the
    decision's steps. Every kind of tile in the hand is offered, and each play
    is checked by an arrangement of the table and the tile that the
    independent reading of the melds accepts."""
    data = json.loads(SLOW.read_text(encoding="utf-8"))
    state = PACKKUB.new_game(data["players"], seed=data["seed"], options=data["options"])
    for text in data["actions"]:
        state.apply(text)
    start = time.process_time()
    legal = state.legal_actions()
    seconds = time.process_time() - start
    assert seconds < 1.0
    assert EVAL_STEPS - state.position.steps_left < EVAL_STEPS // 20
    table = list(state.position.zones[zone_index(state, "table")])
    hand = list(state.position.zones[hand_index(state, state.current_player)])
    assert (len(table), len(hand)) == (71, 11)
    assert sum(p.kind == "joker" for p in table) == 2
    texts = [a.text for a in legal]
    assert texts[0] == "pass" and len(texts) == 10
    assert set(texts[1:]) == {f"play {p.name}" for p in hand}
    meld = pattern(state, "meld")
    for text in texts[1:]:
        t = next(p for p in hand if f"play {p.name}" == text)
        rest = [x for x in hand if x is not t]
        check_arrangement(meld.partition(state.position, table + [t], rest), table + [t], rest,
                          oracle_meld)


# ====================================================================== packed counts
@pytest.mark.parametrize("slots, max_count", [(1, 1), (7, 2), (20, 3), (24, 3), (24, 6),
                                              (36, 3), (36, 6)])
def test_two_limbs_hold_every_slot_and_limb_zero_stays_a_machine_word(slots, max_count):
    """The general search packs counts in two limbs: limb 0 never passes
    LIMB_BITS (a 24-type, 3-copy PackKub vector in one integer would be 72
    bits, a big integer in the compiled search), and the limbs together hold
    exactly what one integer would: each slot's field, its guard, in order."""
    from rulepack.patterns.cover import LIMB_BITS, Layout
    lay = Layout(slots, max_count)
    bits0 = lay.split * lay.width
    assert 1 <= lay.split <= slots and bits0 <= LIMB_BITS
    if slots * lay.width + 1 <= 2 * LIMB_BITS:   # the wild bit above limb 1's fields
        assert lay.top1 < 1 << LIMB_BITS
    rng = random.Random(slots * 10 + max_count)
    counts = [rng.randint(0, max_count) for _ in range(slots)]
    x0, x1 = lay.pack2(counts)
    assert x0 | (x1 << bits0) == lay.pack(counts)
    assert (lay.guards0 | (lay.guards1 << bits0)) == lay.guards
    assert (lay.ones0 | (lay.ones1 << bits0)) == lay.ones
    # a slot's guard bit is found back in whichever limb holds it
    chosen = sorted(rng.sample(range(slots), min(slots, 5)))
    g = [0, 0]
    for s in chosen:
        limb = 0 if s < lay.split else 1
        g[limb] |= 1 << ((s - lay.split * limb) * lay.width + lay.width - 1)
    assert lay.slots_of(g[0], g[1]) == chosen
