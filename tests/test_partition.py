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

import random
import textwrap

import pytest

import rulepack
from rulepack.patterns.partition import PARTITION_BUDGET, find_partition
from rulepack.patterns.match import PatternBudgetError

try:
    from packkub_positions import (RANKS, SUITS, check_arrangement, names, oracle_meld,
                                   oracle_partition, pattern, pieces_named, play_texts,
                                   position, table_groups, zone_index)
except ImportError:  # tests/ imported as a package
    from tests.packkub_positions import (RANKS, SUITS, check_arrangement, names, oracle_meld,
                                         oracle_partition, pattern, pieces_named, play_texts,
                                         position, table_groups, zone_index)

PACKKUB = rulepack.load("packkub")

#: Generic patterns over two sets of piecepack tiles (identical pieces exist).
GENERIC = textwrap.dedent("""
    game t { players 2..4 }
    use piecepack (tile)
    component tile { copies 2 }
    pattern pair: size 2, same rank
    pattern suited: size 2..3, same suit
    pattern rainbow: size 4, distinct suit
    pattern low_run: size 3..4, consecutive rank, each rank != 5
    pattern all_suits: size 4..5, covers suit
    pattern pair_or_run: pair or low_run
    pattern wild_run: size 3..5, same suit, consecutive rank, wild rank == null
    pattern wild_set: size 3..4, same rank, distinct suit, wild rank == null
    pattern wild_melds: wild_run or wild_set
    play {}
""")
GENERIC_PATTERNS = ["pair", "suited", "rainbow", "low_run", "all_suits", "pair_or_run",
                    "wild_run", "wild_set", "wild_melds"]

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


@pytest.fixture(scope="module")
def generic_state():
    return rulepack.loads(GENERIC).new_game(2, 0)


def pat(state, name):
    return next(p for p in state.inst.patterns if p.name == name)


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
    for _ in range(150):
        mandatory, optional = random_position(rng, state.inst.pieces, with_optional)
        got = meld.partition(state, mandatory, optional)
        want = oracle_partition(mandatory, optional, ok)
        assert (got is None) == (want is None), (names(mandatory), names(optional), want)
        if got is not None:
            check_arrangement(got, mandatory, optional, ok)
            check_arrangement(got, mandatory, optional, lambda g: meld.matches(state, g))
        found[got is not None] += 1
    assert found[True] >= 20 and found[False] >= 20, found


def test_meld_partition_edge_cases():
    """No mandatory piece: ``[]`` (optional pieces need not be used); one tile or
    two: none; optional pieces are used only when needed; a lone joker is no meld."""
    state = PACKKUB.new_game(2, 0, options={"jokers": 2})
    meld = pattern(state, "meld")
    p = lambda *ns: pieces_named(state, list(ns))    # noqa: E731
    assert meld.partition(state, [], p("3 of suns", "3 of moons", "3 of arms")) == []
    assert find_partition(state, meld, []) == []
    assert meld.partition(state, p("3 of suns")) is None
    assert meld.partition(state, p("3 of suns", "3 of moons")) is None
    assert meld.partition(state, p("joker")) is None
    assert meld.partition(state, p("joker", "joker")) is None
    got = meld.partition(state, p("3 of suns", "3 of moons"), p("3 of arms", "5 of arms"))
    assert [sorted(names(g)) for g in got] == [["3 of arms", "3 of moons", "3 of suns"]]
    # two identical tiles must go to two different melds
    ms = p("3 of suns", "3 of suns", "3 of moons", "3 of crowns", "2 of suns", "4 of suns")
    got = meld.partition(state, ms)
    check_arrangement(got, ms, [], oracle_meld)
    # a mandatory joker must be placed even if the tiles do not need it
    got = meld.partition(state, p("2 of suns", "3 of suns", "4 of suns", "joker"))
    assert got is not None and len(got) == 1 and len(got[0]) == 4
    assert meld.partition(state, p("3 of suns", "3 of moons", "3 of crowns", "3 of arms",
                                   "joker")) is None


# ====================================================================== other patterns
@pytest.mark.parametrize("name", GENERIC_PATTERNS)
@pytest.mark.parametrize("with_optional", [False, True])
def test_generic_partition_agrees_with_brute_force(generic_state, name, with_optional):
    """The search is generic: for patterns with ``same``, ``distinct``,
    ``consecutive``, ``covers``, ``each``, ``wild`` and unions (two sets of tiles,
    so identical pieces exist), it agrees with the brute force over the
    pattern's own ``matches``."""
    state = generic_state
    p = pat(state, name)
    ok = lambda g: p.matches(state, g)     # noqa: E731
    rng = random.Random(100 * GENERIC_PATTERNS.index(name) + with_optional)
    found = {True: 0, False: 0}
    tiles = state.inst.pieces
    for _ in range(120):
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
        got = p.partition(state, mandatory, optional)
        want = oracle_partition(mandatory, optional, ok)
        assert (got is None) == (want is None), (name, names(mandatory), names(optional), want)
        if got is not None:
            check_arrangement(got, mandatory, optional, ok)
        found[got is not None] += 1
    assert found[True] >= 5 and found[False] >= 5, (name, found)


def test_mixed_wild_union_finds_the_partition():
    """A union whose alternatives disagree on wildness: null of suns + 2 of suns
    and null of moons + 2 of moons are two ``same_suit`` pairs, so a partition
    exists. (The search counts wild pieces, not types, so it takes every null as
    the first one it saw: here it then cannot pair the 2 of moons.)"""
    state = rulepack.loads(MIXED_WILD).new_game(2, 0)
    mix = pat(state, "mix")
    ms = pieces_named(state, ["null of suns", "null of moons", "2 of suns", "2 of moons"])
    ok = lambda g: mix.matches(state, g)   # noqa: E731
    assert oracle_partition(ms, [], ok) is not None
    got = mix.partition(state, ms)
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
    ok = lambda g: mix.matches(state, g)   # noqa: E731
    assert oracle_partition(ms, [], ok) is None
    got = mix.partition(state, ms)
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
    assert state.vars["a"] is True                # two copies of each suns tile: 6 pairs
    groups = state.vars["b"]
    assert len(groups) == 4 and all(len(g) == 2 for g in groups)
    assert sorted(p.id for g in groups for p in g) == \
        sorted(p.id for p in state.inst.pieces if p.attrs["rank"] == 3)
    assert state.vars["c"] is True                # each 3 of suns with a 3 of arms
    assert state.vars["d"] is False               # the two 3s of suns are alike


# ====================================================================== scale
def build_table(rng: random.Random, state, table_size: int, hand_size: int):
    """A table of at least ``table_size`` tiles made of melds, and a hand of
    ``hand_size`` other pieces holding at least three tiles that extend a table
    meld (so some plays are known to fit)."""
    pool = list(state.inst.pieces)
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
        got = meld.partition(state, table)
        assert got is not None
        check_arrangement(got, table, [], ok)
        got = meld.partition(state, table, hand)
        check_arrangement(got, table, hand, ok)
        for t in hand:
            rest = [h for h in hand if h is not t]
            got = meld.partition(state, table + [t], rest)
            if t in fits:
                assert got is not None, t.name
            if got is not None:
                check_arrangement(got, table + [t], rest, ok)
        for t in fits:
            got = meld.partition(state, table + [t])
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
    spare = next(p for p in state0.inst.pieces if p.id not in used)
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
    table = state.zones[zone_index(state, "table")]
    assert sorted(p.id for g in groups for p in g) == sorted(p.id for p in table)
    assert all(oracle_meld(g) for g in groups)


def test_memo_outlasts_a_search_and_an_abandoned_search_leaves_no_false_refutations(
        monkeypatch):
    """The memo of solved sub-positions is shared by the searches on one index (a
    pure pattern): a repeated question is answered from it. A search cut off by
    the budget marks the positions it was exploring as unsolvable while it runs;
    they must not outlive it, or a later, solvable question would be refused."""
    from rulepack.patterns import partition as partition_module
    state = PACKKUB.new_game(4, 3)
    meld = pattern(state, "meld")
    rng = random.Random(3)
    melds, hand, fits = build_table(rng, state, 45, 20)
    table = [p for m in melds for p in m]
    index = partition_module.index_for(state, meld, table)
    index.memo.clear()
    assert meld.partition(state, table + [fits[0]]) is not None
    remembered = len(index.memo)
    assert remembered > 0
    assert meld.partition(state, table + [fits[0]]) is not None
    assert len(index.memo) == remembered            # answered from the memo
    # cut the same kind of question off after a few steps...
    index.memo.clear()
    monkeypatch.setattr(partition_module, "PARTITION_BUDGET", 3)
    with pytest.raises(PatternBudgetError):
        meld.partition(state, table + [fits[1]], hand)
    assert index.memo == {}
    # ...then, with the budget back, the answer is still found
    monkeypatch.setattr(partition_module, "PARTITION_BUDGET", PARTITION_BUDGET)
    got = meld.partition(state, table + [fits[1]], hand)
    assert got is not None
    check_arrangement(got, table + [fits[1]], hand, lambda g: oracle_meld(g))
