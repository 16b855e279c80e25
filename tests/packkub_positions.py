"""Helpers to set up PackKub positions, and an independent reading of the melds.

A position is built from a real state at its first decision: its ``to_json()``
is edited (which tiles are in which hand, on the table, in the ``played`` row
and in the draw pile; who has opened; whose turn it is) and rebuilt with
``state_from_json``, so the flow resumes at the real turn decision of the real
ruleset (every PackKub decision is the one ``choose`` of the turn phase).

* :func:`position` builds such a state from tile names (``"3 of suns"``, ``"joker"``).
* :func:`pattern` / :func:`matches` reach the ruleset's patterns by name.
* :func:`oracle_meld` is this file's own reading of rulings P2 and P8 (a set or a
  sequence, jokers wild), written without looking at the pattern engine.
* :func:`oracle_partition` is a brute-force search over pieces (no types, no
  memo beyond the remaining set) for a split into groups that each pass a test.

Nothing here knows a rule of PackKub beyond the texts of its actions, the
names of its zones and variables, and the two rulings it reads independently.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable, Iterable, Mapping, Sequence
from rulepack.engine.queries import groups
from rulepack.compiler.instance import instance_of

SUITS = ["suns", "moons", "crowns", "arms"]
SIX_SUITS = ["suns", "moons", "hearts", "spades", "diamonds", "clubs"]
RANKS: list[Any] = ["null", "ace", 2, 3, 4, 5]          # ruling P1: this order, no wrapping
RANK_POS = {r: i for i, r in enumerate(RANKS)}

DRAW = "draw a tile"
PASS = "pass"
MELD = "meld the played tiles"
END = "end the turn"


# ---------------------------------------------------------------------- names and zones
def zone_index(state: Any, label: str) -> int:
    """The index of the zone labelled ``label`` (``"table"``, ``"hand[player 1]"``)."""
    for z in state.program.zones:
        if z.label == label:
            return z.index
    raise KeyError(label)


def hand_index(state: Any, player: int) -> int:
    return zone_index(state, f"hand[player {player + 1}]")


def names(pieces: Iterable[Any]) -> list[str]:
    return [p.name for p in pieces]


def hand_names(state: Any, player: int) -> list[str]:
    return sorted(names(state.position.zones[hand_index(state, player)]))


def table_groups(state: Any) -> list[list[Any]] | None:
    return groups(state.position, zone_index(state, "table"))


def table_group_names(state: Any) -> list[list[str]] | None:
    """The table's melds as sorted lists of names, sorted (``None``: not arranged)."""
    groups = table_groups(state)
    if groups is None:
        return None
    return sorted(sorted(names(g), key=str) for g in groups)


def texts(state: Any) -> list[str]:
    return [a.text for a in state.legal_actions()]


def play_texts(state: Any) -> list[str]:
    return [t for t in texts(state) if t.startswith("play ")]


def rank_of(name: str) -> Any:
    r = name.split(" of ")[0]
    return int(r) if r.isdigit() else r


def tile_name(rank: Any, suit: str) -> str:
    return f"{rank} of {suit}"


# ---------------------------------------------------------------------- patterns
def pattern(state: Any, name: str) -> Any:
    """The ruleset's pattern called ``name`` (a compiled :class:`Pattern`)."""
    return state.program.patterns[instance_of(state.program).globals[name].value.index]


def pieces_named(state: Any, wanted: Sequence[str], used: set[int] | None = None) -> list[Any]:
    """Real pieces with these names, distinct copies for repeated names (lowest ids first)."""
    used = set() if used is None else used
    out = []
    for n in wanted:
        p = next((p for p in state.program.pieces if p.name == n and p.id not in used), None)
        if p is None:
            raise ValueError(f"no piece {n!r} left (have the options the copies it needs?)")
        used.add(p.id)
        out.append(p)
    return out


def matches(state: Any, name: str, group: Sequence[str]) -> bool:
    """Does the group of tiles named ``group`` match the ruleset's pattern ``name``?"""
    return pattern(state, name).matches(state.position, pieces_named(state, group))


# ---------------------------------------------------------------------- building positions
def position(game: Any, hands: Mapping[int, Sequence[str]], *, table: Sequence[Sequence[str]] = (),
             played: Sequence[str] = (), pile: Sequence[str] | None = None, players: int = 2,
             current: int = 0, opened: Sequence[bool] | None = None, melded: bool = False,
             passes: int = 0, totals: Sequence[int] | None = None, round: int | None = None,
             options: Mapping[str, Any] | None = None, seed: int = 0,
             rest: str = "pile", base: Any = None) -> Any:
    """A state at ``current``'s turn decision.

    :param hands: player → names of the tiles in their hand (others: empty).
    :param table: the melds on the table, each a list of names (arranged as given).
    :param played: the tiles in the ``played`` row this turn.
    :param pile: the draw pile, top first; ``None``: every other tile (``rest="pile"``).
    :param opened: per player, has opened this round (default: nobody).
    :param melded: the current turn has made a meld.
    :param rest: where the tiles not named go: ``"pile"`` (under the named pile
        tiles) or ``"box"`` (out of the game for this round).
    :param base: edit this state (at a decision) instead of a new game; its
        players, options, round and totals are kept unless given.
    """
    if base is None:
        state = game.new_game(players, seed, options=dict(options or {}))
    else:
        state = base
        players = state.program.num_players
        assert options is None, "the options of a base state are kept"
    data = state.to_json()
    inst = state.program
    used: set[int] = set()
    ids = lambda ns: [p.id for p in pieces_named(state, list(ns), used)]  # noqa: E731
    zones: list[list[int]] = [[] for _ in data["zones"]]
    for p in range(players):
        zones[hand_index(state, p)] = sorted(ids(hands.get(p, ())))
    table_ids = [ids(g) for g in table]
    zones[zone_index(state, "table")] = [i for g in table_ids for i in g]
    zones[zone_index(state, "played")] = ids(played)
    pile_top_first = ids(pile or ())
    leftovers = [p.id for p in inst.pieces if p.id not in used]
    pile_zone = list(reversed(pile_top_first))          # the top of a stack is its last piece
    if rest == "pile":
        pile_zone = leftovers + pile_zone
    elif rest == "box":
        zones[zone_index(state, "box")] = leftovers
    else:
        raise ValueError(rest)
    zones[zone_index(state, "pile")] = pile_zone
    data["zones"] = zones
    data["face_up"] = sorted(i for g in table_ids for i in g) + \
        sorted(zones[zone_index(state, "played")])
    data["groupings"] = [[zone_index(state, "table"), [len(g) for g in table_ids]]] \
        if table_ids else []
    v = data["variables"]
    v["current"] = {"player": current}
    v["opened"] = list(opened) if opened is not None else [False] * players
    v["melded"] = melded
    v["turn_over"] = False
    v["passes"] = passes
    if totals is not None:
        v["totals"] = list(totals)
    if round is not None:
        v["round"] = round
    data["pending"] = True
    data["terminal"] = False
    built = game.state_from_json(data)
    assert built.current_player == current
    assert sum(len(z) for z in built.position.zones) == len(inst.pieces)
    return built


# ---------------------------------------------------------------------- the oracle (P2, P8)
def oracle_meld(group: Sequence[Any], six_pack: bool = False) -> bool:
    """Ruling P2 read independently: a set (3 or more tiles of one rank, all of
    different suits: 3-4, or 3-6 with the Six Pack) or a sequence (3 or more
    tiles of one suit with consecutive ranks in the order null, ace, 2..5, no
    wrapping: 3-6). Jokers (P8) stand for any tile.

    ``group``: pieces (``.kind``, ``.attrs``) or ``(kind, suit, rank)`` triples.
    """
    tiles, jokers = [], 0
    for g in group:
        kind, suit, rank = (g.kind, g.attrs.get("suit"), g.attrs.get("rank")) \
            if hasattr(g, "kind") else g
        if kind == "joker":
            jokers += 1
        else:
            tiles.append((suit, rank))
    n = len(group)
    if n < 3:
        return False
    n_suits = 6 if six_pack else 4
    # a set: the jokers become tiles of the missing suits
    if n <= n_suits and len({r for _, r in tiles}) <= 1 \
            and len({s for s, _ in tiles}) == len(tiles):
        return True
    # a sequence: some window of n consecutive ranks holds every tile, once each
    if n <= len(RANKS) and len({s for s, _ in tiles}) <= 1:
        ranks = [RANK_POS[r] for _, r in tiles]
        if len(set(ranks)) == len(ranks):
            for start in range(0, len(RANKS) - n + 1):
                if all(start <= r < start + n for r in ranks):
                    return True
    return False


def oracle_partition(mandatory: Sequence[Any], optional: Sequence[Any],
                     ok: Callable[[list[Any]], bool], max_size: int = 6) -> list[list[Any]] | None:
    """Brute force: groups passing ``ok`` that use every mandatory piece once and
    optional pieces at most once, or ``None``. Tries every group (of 1 to
    ``max_size`` pieces) containing the first mandatory piece left."""
    pieces = list(mandatory) + list(optional)
    n_m = len(mandatory)
    failed: set[frozenset[int]] = set()

    def solve(left: frozenset[int]) -> list[list[int]] | None:
        first = next((i for i in sorted(left) if i < n_m), None)
        if first is None:
            return []
        if left in failed:
            return None
        others = sorted(left - {first})
        for k in range(0, max_size):
            for combo in combinations(others, k):
                group = [first, *combo]
                if ok([pieces[i] for i in group]):
                    rest = solve(left - set(group))
                    if rest is not None:
                        return [group] + rest
        failed.add(left)
        return None

    found = solve(frozenset(range(len(pieces))))
    if found is None:
        return None
    return [[pieces[i] for i in g] for g in found]


def check_arrangement(groups: Sequence[Sequence[Any]], mandatory: Sequence[Any],
                      optional: Sequence[Any], ok: Callable[[list[Any]], bool]) -> None:
    """Assert ``groups`` is a valid answer: each group passes ``ok``, every mandatory
    piece is used exactly once, optional pieces at most once, nothing else."""
    used = [p.id for g in groups for p in g]
    assert len(used) == len(set(used)), f"a piece is used twice: {used}"
    m_ids = {p.id for p in mandatory}
    o_ids = {p.id for p in optional} - m_ids
    assert m_ids <= set(used), f"mandatory pieces left out: {sorted(m_ids - set(used))}"
    assert set(used) <= m_ids | o_ids, f"pieces from nowhere: {sorted(set(used) - m_ids - o_ids)}"
    for g in groups:
        assert ok(list(g)), f"group does not match: {names(g)}"
