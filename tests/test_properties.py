"""Properties of random games of Multzo (hypothesis).

Each example plays a whole game: a game seed, a player count (2-5) and a seed for
the random choice of legal actions (a :class:`rulepack.engine.rng.Rng`, so a
failing example replays exactly). The loop is bounded; a game that does not end is
a failure. Checked: the game ends; pieces are conserved after every action; the
game is determined by its seeds and choices; ``clone()`` and
``to_json``/``state_from_json`` make independent states that continue identically;
views leak nothing a player may not see; ``result()`` follows the documented score
formula (RULINGS M7: coin values × (1 + multipliers held)).

The suite plays few games per property (it must stay fast): ten games each, and the
costliest ones (views, clones and JSON checked at every position) a game or two of
each player count; CI's second step (.ci/run) plays three times as many
(``RULEPACK_PROPERTY_SCALE=3``); for a wide run, scale every count:
``RULEPACK_PROPERTY_SCALE=20 python -m pytest tests/test_properties.py``.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulepack
from rulepack.engine.rng import Rng
from rulepack.engine.state import TERMINAL

#: multiplies every property's number of games (a wide run: RULEPACK_PROPERTY_SCALE=20)
SCALE = max(1, int(os.environ.get("RULEPACK_PROPERTY_SCALE", "1")))

settings.register_profile(
    "rulepack-properties",
    max_examples=10 * SCALE,
    deadline=None,
    database=None,                       # write nothing into the working tree
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE = settings.get_profile("rulepack-properties")

GAME = rulepack.load("multzo")

#: A random game of Multzo takes well under 200 decisions; far more means it does not end.
MAX_DECISIONS = 3000

#: "Count 6 for the Ace, 5, 4, 3, 2, or 0 for the null." (RULINGS M1)
VALUE = {"null": 0, 2: 2, 3: 3, 4: 4, 5: 5, "ace": 6}

seeds = st.integers(min_value=0, max_value=2**63 - 1)
player_counts = st.integers(min_value=2, max_value=5)
#: The properties that check every position of a game at a high cost play a few games
#: of each player count rather than many of counts drawn at random.
EVERY_COUNT = [2, 3, 4, 5]


# ---------------------------------------------------------------------- helpers

def playout(players: int, seed: int, choice_seed: int,
            each: Callable[[Any], None] | None = None, state: Any = None) -> tuple[Any, list[str]]:
    """Play random legal actions to the end; ``each(state)`` after the start and every action.

    :returns: the final state and the texts of the actions taken.
    """
    s = state if state is not None else GAME.new_game(players, seed)
    rng = Rng(choice_seed)
    texts: list[str] = []
    if each:
        each(s)
    for _ in range(MAX_DECISIONS):
        if s.is_terminal():
            return s, texts
        legal = s.legal_actions()
        assert legal, "a state that is not terminal has no legal action"
        action = legal[rng.below(len(legal))]
        texts.append(action.text)
        s.apply(action)
        if each:
            each(s)
    raise AssertionError(f"the game did not end within {MAX_DECISIONS} decisions "
                         f"(players={players}, seed={seed}, choices={choice_seed})")


def zone_index(s: Any, name: str, owner: int | None = None) -> int:
    for z in s.program.zones:
        if z.name == name and z.owner == owner:
            return z.index
    raise AssertionError(f"no zone {name} of {owner}")


def dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def same_json(a: dict, b: dict, what: str) -> None:
    """Assert two ``to_json`` dicts are equal, naming the keys that differ (a short
    message: pytest's diff of two long strings is slow)."""
    a, b = json.loads(dumps(a)), json.loads(dumps(b))
    if a == b:
        return
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    detail = "; ".join(f"{k}: {str(a.get(k))[:120]} != {str(b.get(k))[:120]}" for k in keys)
    raise AssertionError(f"{what}: to_json differs in {keys}: {detail}")


def check_conservation(s: Any) -> None:
    inst = s.program
    where: dict[int, int] = {}
    for zi, content in enumerate(s.position.zones):
        info = inst.zones[zi]
        if info.kind == "grid":
            assert len(content) == len(info.cells), f"{info.label} lost its cells"
        for piece in content:
            if piece is None:
                assert info.kind == "grid", f"an empty slot in {info.label}, which is no grid"
                continue
            assert piece is inst.pieces[piece.id], f"{piece!r} is not the instance's piece"
            assert piece.id not in where, (
                f"{piece.name} (id {piece.id}) is in {inst.zones[where[piece.id]].label} "
                f"and in {info.label}")
            where[piece.id] = zi
    missing = sorted(set(range(len(inst.pieces))) - set(where))
    assert not missing, f"pieces lost: {[inst.pieces[i].name for i in missing]}"
    assert len(s.position.loc) == len(inst.pieces)
    for pid, zi in where.items():
        assert s.position.loc[pid] == zi, (f"{inst.pieces[pid].name} is in {inst.zones[zi].label} but "
                                  f"state.position.loc says {inst.zones[s.position.loc[pid]].label}")


def expected_scores(s: Any) -> list[int]:
    scores = []
    for p in range(s.program.num_players):
        coins = s.position.zones[zone_index(s, "won", p)]
        total = sum(VALUE[c.attrs["rank"]] for c in coins)
        multipliers = sum(1 for c in coins if c.attrs["rank"] == "null")
        scores.append(total * (1 + multipliers))
    return scores


def hidden_from(s: Any, p: int) -> list[Any]:
    """Pieces ``p`` may not identify, from the zones' declared visibility:
    face-down pieces in other players' hands, every piece of the face-down stack,
    and any face-down piece of a zone seen by nobody (the declaring discard)."""
    out = {}
    for info in s.program.zones:
        if info.index == 0:
            continue
        for piece in s.position.zones[info.index]:
            if piece is None:
                continue
            if info.name == "stack":
                out[piece.id] = piece
            elif info.name == "hand" and info.owner != p and not s.position.face[piece.id]:
                out[piece.id] = piece
            elif not s.position.face[piece.id] and not (
                    info.seen_by == "everyone" or (info.seen_by == "owner" and info.owner == p)):
                out[piece.id] = piece
    return list(out.values())


#: a string of JSON text, escapes and all (keys too); an integer a key "id" or "piece" names
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
JSON_ID = re.compile(r'"(?:id|piece)": (-?\d+)(?![\d.eE])')


def strings_and_ids(text: str) -> tuple[set[str], set[int]]:
    """Every distinct string (keys too) and every integer ``id``/``piece`` anywhere in
    the JSON ``text`` (``json.dumps`` output), read by regular expressions: a view of a
    long game holds thousands of values, few of them distinct."""
    strings = {json.loads(token) if "\\" in token else token[1:-1]
               for token in set(JSON_STRING.findall(text))}
    return strings, {int(number) for number in JSON_ID.findall(text)}


def check_view(s: Any, p: int) -> None:
    view = s.view(p)
    text = json.dumps(view)                    # JSON-able, and what we search
    view = json.loads(text)
    hidden = hidden_from(s, p)
    hidden_ids = {h.id for h in hidden}
    strings, ids = strings_and_ids(text)
    leaked = sorted(ids & hidden_ids)
    assert not leaked, f"view of player {p} shows ids of hidden pieces " \
                       f"{[s.program.pieces[i].name for i in leaked]}"
    # Names: remove the names of pieces p may see (longest first: "2 of suns coin"
    # contains "2 of suns"), then no hidden name may remain in any string.
    visible_names = sorted({x.name for x in s.program.pieces if x.id not in hidden_ids},
                           key=len, reverse=True)
    hidden_names = {h.name for h in hidden}
    # one regular expression finds the strings that hold any hidden name at all
    any_hidden = re.compile("|".join(map(re.escape, sorted(hidden_names))) or "(?!)")
    for string in strings:
        if not any_hidden.search(string):
            continue
        rest = string
        for n in visible_names:
            rest = rest.replace(n, "\0")
        for n in hidden_names:
            assert n not in rest, f"view of player {p} names hidden {n!r} in {string!r}"
    # The face-down stack: no ids, nothing but kinds, so its order cannot be recovered.
    stack = view["zones"]["stack"]
    assert stack["count"] == len(s.position.zones[zone_index(s, "stack")])
    for entry in stack["pieces"]:
        assert entry == {"hidden": True, "kind": "tile"}, f"stack entry shows {entry}"
    # Only the deciding player is offered actions.
    if s.current_player == p:
        assert len(view["legal_actions"]) == len(s.legal_actions()) > 0
    else:
        assert view["legal_actions"] == []
    # A player's own hand is fully known to them.
    own = {e["id"] for e in view["zones"][s.program.zones[zone_index(s, "hand", p)].label]["pieces"]}
    assert own == {x.id for x in s.position.zones[zone_index(s, "hand", p)]}


def check_indistinguishable(s: Any, p: int) -> None:
    """Reordering the stack, or swapping a stack tile with a face-down tile of
    another player's hand, must not change what ``p`` sees."""
    before = dumps(s.view(p))
    si = zone_index(s, "stack")
    if len(s.position.zones[si]) > 1:
        c = s.clone()
        c.position.zones[si] = list(reversed(c.position.zones[si]))
        assert dumps(c.view(p)) == before, f"player {p} can see the order of the stack"
    for q in range(s.program.num_players):
        hi = zone_index(s, "hand", q)
        if q == p or not s.position.zones[si]:
            continue
        down = [x for x in s.position.zones[hi] if not s.position.face[x.id]]
        if not down:
            continue
        c = s.clone()
        a, b = c.position.zones[si][0], down[0]
        c.position.zones[si] = [b] + c.position.zones[si][1:]     # a new list: the clone shares the old one
        c.position.zones[hi] = sorted([x for x in c.position.zones[hi] if x is not b] + [a], key=lambda x: x.id)
        c.position.loc[a.id], c.position.loc[b.id] = hi, si
        assert dumps(c.view(p)) == before, \
            f"player {p} can tell {a.name} in the stack from {b.name} in hand of seat {q}"


# ---------------------------------------------------------------------- properties

@PROFILE
@given(players=player_counts, seed=seeds, choices=seeds)
def test_every_random_game_ends(players, seed, choices):
    s, texts = playout(players, seed, choices)
    assert s.is_terminal()
    assert s.current_player == TERMINAL
    assert s.legal_actions() == []
    r = s.result()
    assert r["terminal"] is True
    assert r["winners"], "Multzo always has a winner (ties are shared)"
    # "If one or more stacks are empty, then the player with the highest score has won"
    assert any(not s.position.zones[z.index] for z in s.program.zones if z.name == "coins")


@PROFILE
@given(players=player_counts, seed=seeds, choices=seeds)
def test_pieces_are_conserved_after_every_action(players, seed, choices):
    s, _ = playout(players, seed, choices, each=check_conservation)
    assert len(s.program.pieces) == 48


@PROFILE
@given(players=player_counts, seed=seeds, choices=seeds)
def test_same_seed_and_choices_give_the_same_game(players, seed, choices):
    a, texts_a = playout(players, seed, choices)
    b, texts_b = playout(players, seed, choices)
    assert texts_a == texts_b
    assert a.result() == b.result()
    same_json(a.to_json(), b.to_json(), "two identical games")


@PROFILE
@given(players=player_counts, seed=seeds)
def test_states_never_see_each_others_moves(players, seed):
    a = GAME.new_game(players, seed)
    b = GAME.new_game(players, seed)
    c = a.clone()
    d = GAME.state_from_json(json.loads(json.dumps(a.to_json())))
    states = [a, b, c, d]
    for i, x in enumerate(states):
        for y in states[i + 1:]:
            # a clone shares its zones' lists until one side writes (copy on write), so
            # only the outer list must differ; the moves below show nothing leaks across
            assert x.position.zones is not y.position.zones
            for field in ("loc", "face", "owner", "active", "history", "vars"):
                if field == "history":
                    assert x.history is not y.history, "two states share their history"
                else:
                    assert getattr(x.position, field) is not getattr(y.position, field), \
                        f"two states share {field}"
    # and moving pieces in one changes no other
    before = [dumps(x.to_json()) for x in (b, c, d)]
    rng = Rng(seed)
    for _ in range(6):
        if a.is_terminal():
            break
        legal = a.legal_actions()
        a.apply(legal[rng.below(len(legal))])
    after = [dumps(x.to_json()) for x in (b, c, d)]
    assert after == before, "playing one state changed another"


@pytest.mark.parametrize("players", EVERY_COUNT)
@settings(PROFILE, max_examples=2 * SCALE)
@given(seed=seeds, choices=seeds, other=seeds)
def test_clone_is_independent(players, seed, choices, other):
    """Playing on a clone, at every position, leaves the original as it was; the
    original then goes on exactly as a game that was never cloned."""
    def poke(s: Any) -> None:
        if s.is_terminal():
            return
        snapshot = dumps(s.to_json())
        legal_before = [a.text for a in s.legal_actions()]
        c = s.clone()
        rng = Rng(other ^ s.decisions)
        for _ in range(3):
            if c.is_terminal():
                break
            legal = c.legal_actions()
            c.apply(legal[rng.below(len(legal))])
        same_json(json.loads(snapshot), s.to_json(), "applying to a clone changed the original")
        assert [a.text for a in s.legal_actions()] == legal_before
    reference, texts = playout(players, seed, choices)
    cloned, texts_cloned = playout(players, seed, choices, each=poke)
    assert texts_cloned == texts
    assert cloned.result() == reference.result()
    same_json(reference.to_json(), cloned.to_json(), "a cloned game and its reference")


@PROFILE
@given(players=player_counts, seed=seeds, choices=seeds, at=st.integers(0, 200),
       cont=seeds)
def test_clone_continues_identically(players, seed, choices, at, cont):
    s = GAME.new_game(players, seed)
    rng = Rng(choices)
    for _ in range(at):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    c = s.clone()
    a, texts_a = playout(players, seed, cont, state=s)
    b, texts_b = playout(players, seed, cont, state=c)
    assert texts_a == texts_b
    assert a.result() == b.result()
    same_json(a.to_json(), b.to_json(), "a state and its clone, continued alike")


@pytest.mark.parametrize("players", EVERY_COUNT)
@settings(PROFILE, max_examples=2 * SCALE)
@given(seed=seeds, choices=seeds)
def test_json_round_trip_after_every_action(players, seed, choices):
    """``to_json`` → ``state_from_json`` → ``to_json`` gives the same data, at every position."""
    def round_trip(s: Any) -> None:
        data = json.loads(json.dumps(s.to_json()))
        restored = GAME.state_from_json(data)
        same_json(data, restored.to_json(), "to_json -> state_from_json -> to_json")
        assert [a.text for a in restored.legal_actions()] == [a.text for a in s.legal_actions()]
        assert restored.current_player == s.current_player
        assert restored.is_terminal() == s.is_terminal()
    playout(players, seed, choices, each=round_trip)


@PROFILE
@given(players=player_counts, seed=seeds, choices=seeds, at=st.integers(0, 200),
       cont=seeds)
def test_json_restored_state_continues_identically(players, seed, choices, at, cont):
    s = GAME.new_game(players, seed)
    rng = Rng(choices)
    for _ in range(at):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])
    saved_history = len(s.history)
    restored = GAME.state_from_json(json.loads(json.dumps(s.to_json())))
    a, texts_a = playout(players, seed, cont, state=s)
    b, texts_b = playout(players, seed, cont, state=restored)
    assert texts_a == texts_b
    assert a.result() == b.result()
    ja, jb = a.to_json(), b.to_json()
    # the restored state's history starts where it was restored (compared apart)
    new = ja["history"][saved_history:]
    assert jb["history"][len(jb["history"]) - len(new):] == new
    ja.pop("history")
    jb.pop("history")
    same_json(ja, jb, "a state and its JSON copy, continued alike")


@pytest.mark.parametrize("players", EVERY_COUNT)
@settings(PROFILE, max_examples=2 * SCALE)
@given(seed=seeds, choices=seeds)
def test_views_never_leak(players, seed, choices):
    def check(s: Any) -> None:
        for p in range(s.program.num_players):
            check_view(s, p)
    playout(players, seed, choices, each=check)


@pytest.mark.parametrize("players", EVERY_COUNT)
@settings(PROFILE, max_examples=1 * SCALE)
@given(seed=seeds, choices=seeds)
def test_views_cannot_tell_hidden_pieces_apart(players, seed, choices):
    def check(s: Any) -> None:
        for p in range(s.program.num_players):
            check_indistinguishable(s, p)
    playout(players, seed, choices, each=check)


@PROFILE
@given(players=player_counts, seed=seeds, choices=seeds)
def test_scores_follow_the_documented_formula(players, seed, choices):
    """RULINGS M7: score = (sum of won coin values) × (1 + number of null coins held);
    M8/G2: the highest score wins, ties shared."""
    def check(s: Any) -> None:
        assert s.result()["scores"] == expected_scores(s)
    s, _ = playout(players, seed, choices, each=check)
    r = s.result()
    scores = expected_scores(s)
    assert r["scores"] == scores
    best = max(scores)
    assert r["winners"] == [p for p in range(players) if scores[p] == best]
    assert r["returns"] == [1.0 if scores[p] == best else 0.0 for p in range(players)]
    assert r["draw"] is False
