"""Agents and determinization.

* The memory agent (``MemoryAgent``) remembers what its views showed: in Mismemory it
  goes for a same-suit pair it has seen, never collects a rank it holds, always
  collects when it may, and beats the random agent clearly.
* ``determinize`` rebuilds, from one player's view, a full state whose view for that
  player is the same view and whose legal actions read the same — over random
  positions of every bundled ruleset.
* The greedy agent beats the random agent at Multiplay; the lookahead agent is
  deterministic for a seed.
"""

from __future__ import annotations

import random

import pytest

import rulepack
from rulepack.errors import IllegalActionError
from rulepack.agents.bots import (Decision, GreedyAgent, LookaheadAgent, Memory,
                                         MemoryAgent, RandomAgent, make_agent, play_out)
from rulepack.agents.determinize import determinize
from rulepack.engine.rng import Rng
from rulepack.engine.queries import describe_for, knows

try:
    from bundled import bundled
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled

try:
    from mismemory_positions import collected, game, position, ranks
except ImportError:  # tests/ imported as a package
    from tests.mismemory_positions import collected, game, position, ranks


def watch(state, agent, seat: int, actions: list[str]) -> None:
    """Take ``actions`` (other players' or scripted ones) while ``agent`` watches,
    as ``play_out`` shows it its view after every action."""
    for t in actions:
        state.apply(t)
        agent.observe(state.view(seat))


def agent_turn(state, agent, seat: int) -> list[str]:
    """Let ``agent`` take its decisions until the turn passes; the texts it chose."""
    chosen = []
    while not state.is_terminal() and state.current_player == seat:
        d = Decision(state, seat)
        i = agent.choose(d)
        chosen.append(d.actions[i])
        state.apply(state.legal_actions()[i])
        agent.observe(state.view(seat))
    return chosen


# ====================================================================== memory (Mismemory)
@pytest.mark.parametrize("seed", range(3))
def test_memory_agent_flips_a_remembered_pair(seed):
    """It saw an opponent flip 3 of suns (b2) and 4 of suns (d4) and turn them back; on
    its turn it flips one of them, then the other, and collects the new rank."""
    state = position(2, board={"b2": "3 of suns", "d4": "4 of suns"},
                     collected_by={0: ["3 of moons"]}, current=1)
    agent = MemoryAgent(seed=seed)
    agent.observe(state.view(0))
    watch(state, agent, 0, ["flip the tile at b2", "flip the tile at d4", "turn both back"])
    assert state.current_player == 0
    # the agent's own view names neither tile now: only its memory knows them
    assert all(c["piece"].get("hidden") for c in state.view(0)["zones"]["board"]["cells"]
               if c["piece"])
    chosen = agent_turn(state, agent, 0)
    first, second = chosen[0], chosen[1]
    assert {first, second} == {"flip the tile at b2", "flip the tile at d4"}
    assert chosen[2].startswith("keep 4 of suns and put the other face down at ")
    assert sorted(collected(state, 0)) == ["3 of moons", "4 of suns"]


@pytest.mark.parametrize("seed", range(2))
def test_memory_agent_remembers_its_own_flips_and_skips_a_useless_pair(seed):
    """Memory over several turns: it saw 3 of suns (a1) on its own earlier turn and
    4 of suns (e4) on an opponent's; it also remembers 2 of arms (b3) and 5 of arms
    (d5), but holds ranks 2 and 5, so that pair is worth nothing to it. It goes for
    the suns."""
    state = position(2, board={"a1": "3 of suns", "b1": "ace of moons", "e4": "4 of suns",
                               "c5": "null of crowns", "b3": "2 of arms", "d5": "5 of arms"},
                     collected_by={0: ["2 of moons", "5 of crowns"]}, current=1)
    agent = MemoryAgent(seed=seed)
    agent.observe(state.view(0))
    # the opponent (who holds nothing) flips the arms pair and declines to collect
    watch(state, agent, 0, ["flip the tile at b3", "flip the tile at d5", "turn both back"])
    # its own turn, scripted: a1 then b1, different suits, turned back
    watch(state, agent, 0, ["flip the tile at a1", "flip the tile at b1"])
    # the opponent: e4 then c5, different suits
    watch(state, agent, 0, ["flip the tile at e4", "flip the tile at c5"])
    assert state.current_player == 0
    chosen = agent_turn(state, agent, 0)
    assert {chosen[0], chosen[1]} == {"flip the tile at a1", "flip the tile at e4"}
    assert chosen[2].split(" and ")[0] in ("keep 3 of suns", "keep 4 of suns")


def _memory_vs_random(seed: int, memory_seat: int, on_action=None):
    state = game().new_game(2, seed)
    agents = [make_agent("memory" if s == memory_seat else "random", seed, s) for s in range(2)]
    play_out(state, agents, on_action)
    return state


#: The win-rate match: 12 two-player games, seeds 0-11, the memory agent in seat
#: 1 for even seeds and seat 2 for odd ones (a small sample: benchmarks and
#: docs/games.md carry the big runs).
MATCH_SEEDS = range(12)


@pytest.fixture(scope="module")
def match():
    """Plays the match once; records every keep decision the memory agent faced."""
    games, keep_decisions = [], []

    def on_action(before, player, action):
        if player == memory_seat and any(a.text.startswith("keep ")
                                         for a in before.legal_actions()):
            held = ranks(collected(before, player))
            keep_decisions.append((held, action.text, [a.text for a in before.legal_actions()]))

    for seed in MATCH_SEEDS:
        memory_seat = seed % 2
        state = _memory_vs_random(seed, memory_seat, on_action)
        games.append((seed, memory_seat, state.result()["winners"], state.decisions,
                      [h.text for h in state.history]))
    return games, keep_decisions


def test_memory_agent_beats_random(match):
    """12 two-player games, alternating seats, fixed seeds: the memory agent wins at
    least 9 (it won 24 of 24 over seeds 0-23 when this test was written)."""
    games, _ = match
    wins = sum(1 for _, seat, winners, _, _ in games if winners == [seat])
    print(f"memory agent won {wins} of {len(games)} games against random")
    assert wins >= 9
    # both seats win
    assert {seat for _, seat, winners, _, _ in games if winners == [seat]} == {0, 1}


def test_memory_agent_never_collects_a_rank_it_holds(match):
    """Y2: the keep options leave out a tile of a held rank; at every keep decision of
    the match the agent keeps a tile of a new rank — it never declines a collection."""
    _, decisions = match

    def rank_kept(text: str) -> str:
        return text[len("keep "):].split(" of ")[0]

    assert len(decisions) >= len(MATCH_SEEDS) * 5          # at least five per game on average
    for held, chosen, offered in decisions:
        keeps = [t for t in offered if t.startswith("keep ")]
        assert all(rank_kept(t) not in held for t in keeps)   # the rules offer new ranks only
        assert chosen.startswith("keep "), (held, offered)     # it never declines
        assert rank_kept(chosen) not in held


def test_memory_agent_is_deterministic_for_a_seed(match):
    """Replaying a game of the match (same game seed, same seats) gives the same game."""
    games, _ = match
    seed, seat, winners, _, history = games[7]
    again = _memory_vs_random(seed, seat)
    assert [h.text for h in again.history] == history
    assert again.result()["winners"] == winners


# ====================================================================== determinization
#: Every bundled ruleset, with options.
CONFIGS = [
    ("mismemory", 2, {}, 400),
    ("mismemory", 3, {"blind": True, "grid": "line"}, 400),
    ("mismemory", 3, {"grid": "6x4"}, 400),
    ("multiplay", 3, {}, 400),
    ("multiplay", 4, {}, 400),
    ("multzo", 2, {}, 400),
    ("multzo", 5, {}, 400),
    ("packkub", 2, {}, 60),
    ("packkub", 3, {"jokers": 2, "rounds": 2}, 60),
    ("packkub", 3, {"six_pack": True, "rounds": 1}, 60),
]


def _policy(rng: random.Random, state):
    """Random, but flips in Mismemory's blind variant are preferred (claims and
    challenges end a game at once)."""
    legal = state.legal_actions()
    flips = [a for a in legal if a.text.startswith("flip ")]
    if flips and rng.random() < 0.9:
        return rng.choice(flips)
    return rng.choice(legal)


@pytest.mark.parametrize("name,players,options,decisions", CONFIGS,
                         ids=[f"{c[0]}-{c[1]}-{'-'.join(map(str, c[2].values())) or 'plain'}"
                              for c in CONFIGS])
def test_determinization_rebuilds_the_view_and_the_legal_actions(name, players, options,
                                                                 decisions):
    """For random positions: ``determinize(inst, view(p), rng, memory)`` for the deciding
    player gives a state whose ``view(p)`` is the original view and whose legal actions,
    as ``p`` reads them, are the original ones — with and without a memory of earlier
    views; and the rebuilt state plays on."""
    g = bundled(name)
    every = 3 if name != "packkub" else 7
    checked = 0
    for seed in range(2):
        state = g.new_game(players, seed, options=options)
        rng = random.Random(seed)
        memories = [Memory() for _ in range(players)]
        for k in range(decisions):
            if state.is_terminal():
                break
            p = state.current_player
            if k % every == 0:
                view = state.view(p)
                for memory in (None, memories[p].places):
                    st = determinize(state.program, view, Rng(1000 * seed + k), memory)
                    assert st.view(p) == view, (name, seed, k)
                    render = describe_for(st.position, p)
                    assert [a.render(render) for a in st.legal_actions()] == \
                        view["legal_actions"]
                    assert st.current_player == p
                    checked += 1
                # and the rebuilt state goes on
                st.apply(_policy(random.Random(k), st))
            state.apply(_policy(rng, state))
            for q in range(players):
                memories[q].observe(state.view(q))
    assert checked >= 10


def test_determinization_puts_remembered_tiles_where_they_were_seen():
    """The memory agent's guesses: a remembered tile is placed where the player saw it,
    and ``knows`` tells it from a guessed one."""
    state = position(2, board={"b2": "3 of suns", "d4": "4 of suns"}, current=1)
    memory = Memory()
    for t in ["flip the tile at b2", "flip the tile at d4", "turn both back"]:
        state.apply(t)
        memory.observe(state.view(0))
    view = state.view(0)
    for k in range(10):
        st = determinize(state.program, view, Rng(k), memory.places)
        full = {lab: p for lab, p in zip([c["cell"] for c in view["zones"]["board"]["cells"]],
                                          st.position.zones[1])}
        assert full["b2"].name == "3 of suns" and full["d4"].name == "4 of suns"
        assert knows(st.position, 0, full["b2"]) and knows(st.position, 0, full["d4"])
        assert not knows(st.position, 0, full["a1"])


# ====================================================================== greedy and lookahead
def test_greedy_beats_random_at_multiplay():
    """A few games of Multiplay, two players, seats alternating: the greedy agent wins
    them all or nearly (its immediate score gain is a strong guide there)."""
    g = bundled("multiplay")
    wins = 0
    games = 4
    for seed in range(games):
        greedy_seat = seed % 2
        state = g.new_game(2, seed)
        agents = [GreedyAgent(seed) if s == greedy_seat else RandomAgent(seed + 100)
                  for s in range(2)]
        play_out(state, agents)
        wins += state.result()["winners"] == [greedy_seat]
    assert wins >= games - 1


@pytest.mark.parametrize("name,players", [("multzo", 3)])
def test_lookahead_agent_is_deterministic_for_a_seed(name, players):
    """The same game seed and agent seeds give the same game, action for action;
    another agent seed may play otherwise but is just as reproducible."""
    g = bundled(name)

    def game(agent_seed: int):
        state = g.new_game(players, 3)
        play_out(state, [LookaheadAgent(agent_seed + s) for s in range(players)])
        return [h.text for h in state.history], state.result()

    first = game(11)
    assert game(11) == first
    assert game(12) == game(12)
    # make_agent seeds bots from the game seed and the seat
    a = make_agent("lookahead", 5, 1)
    b = make_agent("lookahead", 5, 1)
    assert a.rng.below(1 << 30) == b.rng.below(1 << 30)


def test_greedy_plays_every_tile_it_can_at_packkub():
    """Issue 5: "a greedy agent that plays as many tiles as it can each turn". At every
    decision of the greedy agent in whole games against random agents, if a hand tile
    can be played it plays one: it never draws, melds early or ends its turn while a
    tile of its hand could still go to the table. (Every step leads somewhere legal, so
    its turns end with every playable tile melded.)"""
    g = bundled("packkub")
    checked = 0
    for seed in range(3):
        greedy_seat = seed % 2
        state = g.new_game(2, seed, options={"rounds": 1})
        agents = [GreedyAgent(seed) if s == greedy_seat else RandomAgent(seed + 100)
                  for s in range(2)]
        seen_play = []

        def on_action(st, player, action):
            if player != greedy_seat:
                return
            texts = [a.text for a in st.legal_actions()]
            if any(t.startswith("play ") for t in texts):
                seen_play.append(action.text)

        play_out(state, agents, on_action=on_action)
        assert state.is_terminal()
        assert seen_play and all(t.startswith("play ") for t in seen_play), seen_play
        checked += len(seen_play)
    assert checked > 20


def test_greedy_beats_random_clearly_at_packkub():
    """Issue 5: the greedy agent "must beat the random agent clearly over many games".
    Four players, one greedy agent against three random ones, seats rotated, one
    round, 24 games (a small sample: the docs' figures come from benchmarks): a
    random agent's fair share is a quarter of the wins. The greedy agent
    takes half again as many at least, and ends with clearly fewer tiles counted
    against it. (Larger runs, in docs/games.md: 2 players, 59.7% of 1,000 games; 3
    players, 56.7% of 300 against a fair share of 33%; 4 players, 44% of 200.)"""
    from rulepack.cli.simulate import simulate
    games = 24
    summary = simulate(bundled("packkub"), games, ["greedy", "random", "random", "random"],
                       seed=1, options={"rounds": 1}, rotate=True)
    greedy, *randoms = summary["agents"]
    assert greedy["name"] == "greedy"
    assert greedy["wins"] >= 1.5 * games / 4, summary["agents"]
    random_mean = sum(a["mean_score"] for a in randoms) / len(randoms)
    assert greedy["mean_score"] < 0.8 * random_mean, summary["agents"]


def test_a_view_whose_owner_is_no_seat_does_not_fit():
    """A view naming a seat the game does not have as a piece's owner is refused
    (every Player a state holds is one of its seats)."""
    import textwrap

    import rulepack
    from rulepack.errors import RulesetRuntimeError
    game = rulepack.loads(textwrap.dedent('''
        game g { players 2 }
        component tile { n: 1, 2, 3 }
        zone table: row
        zone hand: row per player seen by everyone
        var x = 0
        setup {
          move tile where n == 1 to hand[1] face up
          move tile where n != 1 to table face up
          claim table for 0
        }
        play {
          turns from 1 until x > 3 {
            choose {
              action "take {t}" for t in table { set x = x + count(hand[t.owner]) + 1 }
            }
          }
        }
    '''))
    state = game.new_game(2, seed=1)
    view = state.view(0)
    assert determinize(state.program, view, Rng(1)).legal_actions()

    def owners(o, seat):
        if isinstance(o, dict):
            if isinstance(o.get("owner"), int) and "id" in o:
                o["owner"] = seat
            for v in o.values():
                owners(v, seat)
        elif isinstance(o, list):
            for v in o:
                owners(v, seat)
    for seat in (5, -1):
        bad = state.view(0)
        owners(bad, seat)
        with pytest.raises(RulesetRuntimeError, match=f"no seat {seat}"):
            determinize(state.program, bad, Rng(1))


class _Fixed:
    """An agent that answers ``index`` whatever it is asked."""

    def __init__(self, index: object) -> None:
        self.index = index

    def choose(self, decision: Decision) -> object:
        return self.index


@pytest.mark.parametrize("index", [99, -1, 1.5, "0", None])
def test_play_out_refuses_an_index_that_is_no_legal_action(index):
    """An unwatched playout (simulations) checks the agent's answer as
    State.apply_index does: no negative index read from the end, no float."""
    state = rulepack.load("tic-tac-toe").new_game(2, seed=1)
    with pytest.raises(IllegalActionError):
        play_out(state, [_Fixed(index), _Fixed(index)])
    assert state.decisions == 0


def test_play_out_plays_sampled_chance_and_refuses_explicit():
    """play_out plays a game whose chance is sampled to its end, and stops with a
    ValueError at an explicit-chance node (it has nobody to choose the outcome)."""
    game = rulepack.load("pig")
    state = play_out(game.new_game(2, seed=3), [RandomAgent(1), RandomAgent(2)])
    assert state.is_terminal()
    with pytest.raises(ValueError, match="sampled"):
        play_out(game.new_game(2, seed=3, chance="explicit"), [RandomAgent(1), RandomAgent(2)])
