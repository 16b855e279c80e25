"""Explicit chance (issue 12): chance nodes at shuffles, rolls and random first
players, exact probabilities, outcomes applied like actions, reproducible."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rulepack
from rulepack.engine.actions import ChanceEvent
from rulepack.engine.chance import CHANCE
from rulepack.engine.observe import Observer
from rulepack.engine.rng import PyRng, Rng
from rulepack.engine.state import State, new_position
from rulepack.errors import IllegalActionError
from rulepack.loader import bundled_rulesets
from rulepack.engine.chance import chance_fractions, outcome_text
from rulepack.engine.inspect import round_number
from rulepack.engine.queries import visible


try:  # a bundled ruleset, loaded once for every test module of the process
    from bundled import bundled as load
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled as load


def play(state, rng, limit=10_000):
    """Play on with ``rng`` choosing actions and chance outcomes alike; returns
    the chance nodes met, as (statement, number of outcomes)."""
    nodes = []
    while not state.is_terminal() and state.decisions < limit:
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            nodes.append((state.chance_node.statement, len(outcomes)))
            state.apply_id(outcomes[rng.below(len(outcomes))][0])
        else:
            ids = state.legal_action_ids()
            state.apply_id(ids[rng.below(len(ids))])
    return nodes


def line_of(ruleset: str, text: str) -> int:
    """The number of the one line of a bundled ruleset that is ``text``."""
    from rulepack.loader import bundled_dir
    lines = (bundled_dir() / f"{ruleset}.rules").read_text(encoding="utf-8").splitlines()
    assert lines.count(text) == 1
    return lines.index(text) + 1


def test_multzo_stops_at_the_deal():
    state = load("multzo").new_game(3, seed=1, chance="explicit")
    assert state.current_player == CHANCE and state.is_chance_node()
    assert state.legal_actions() == []
    node = state.chance_node
    assert node.kind == "shuffle" and node.statement.startswith("shuffle stack")
    assert node.location.line == line_of("multzo", "  shuffle stack")
    fractions = chance_fractions(state.position)
    assert len(fractions) == 24 and sum(p for _, p in fractions) == 1
    assert all(p == Fraction(1, 24) for _, p in fractions)
    # each draw of the shuffle picks the next piece among those not drawn yet
    drawn = []
    while state.is_chance_node() and state.chance_node.kind == "shuffle":
        assert len(state.chance_outcomes()) == 24 - len(drawn)
        drawn.append(state.chance_node.options[-1])
        state.apply_id(len(state.chance_outcomes()) - 1)
    assert len(drawn) == 23                   # the last piece is forced: no node
    # the next draw is the random first player among the tied (all, at 0 points)
    assert state.is_chance_node() and state.chance_node.statement.startswith("random for first")
    assert state.chance_node.options == [0, 1, 2]
    state.apply_id(2)
    assert state.current_player == 2 and not state.is_chance_node()
    hands = [p for z in ("hand[player 1]", "hand[player 2]", "hand[player 3]")
             for p in state.position.zones[_zone(state, z)]]
    stack = state.position.zones[_zone(state, "stack")]
    # dealt from the top of the stack: the shuffled order is the drawn order
    assert stack[:12] == drawn[:12]
    assert sorted(p.id for p in hands) == sorted(p.id for p in drawn[12:] + [
        next(p for p in state.program.pieces if p.kind == "tile" and p not in drawn)])


def _zone(state, label):
    return next(z.index for z in state.program.zones if z.label == label)


def test_multiplay_rolls_the_d12_as_a_chance_node():
    state = load("multiplay").new_game(2, seed=0, chance="explicit")
    rng = Rng(5)
    while not (state.is_chance_node() and state.chance_node.statement.startswith("random for roll")):
        if state.is_chance_node():
            state.apply_id(rng.below(len(state.chance_outcomes())))
        else:
            state.apply(state.legal_actions()[0])
    assert state.chance_node.options == list(range(1, 13))
    line = line_of("multiplay", "  let roll = random(1..12)")
    assert state.chance_node.location.line == line
    assert outcome_text(state.position, 6) == f"random for roll (line {line}): 7"
    state.apply_id(6)
    assert state.position.vars["roll"] == 7
    assert state.history[-1] == ChanceEvent("random", "choice", 7)
    assert {a.values[0][0].attrs["number"] % 7 for a in state.legal_actions()} == {0}


def test_outcomes_are_checked():
    state = load("multzo").new_game(2, seed=0, chance="explicit")
    with pytest.raises(IllegalActionError):
        state.apply_id(24)
    with pytest.raises(IllegalActionError):
        state.apply_id(-1)
    with pytest.raises(ValueError):
        load("multzo").new_game(2, chance="sometimes")


def test_explicit_games_are_reproducible_and_clone():
    game = load("mismemory")
    a = game.new_game(2, seed=3, chance="explicit")
    b = game.new_game(2, seed=3, chance="explicit")
    play(a, Rng(9), 40)
    c = a.clone()
    play(b, Rng(9), 40)
    assert a.to_json() == b.to_json()
    play(a, Rng(1))
    play(c, Rng(1))
    assert a.to_json() == c.to_json() and a.is_terminal()


def test_sampled_chance_is_the_default():
    state = load("multzo").new_game(3, seed=1)
    assert not state.is_chance_node() and state.chance_outcomes() == []
    assert state.current_player != CHANCE


@settings(max_examples=10, deadline=None)
@given(name=st.sampled_from(bundled_rulesets()), seed=st.integers(0, 2 ** 32))
def test_chance_outcomes_sum_to_one(name, seed):
    game = load(name)
    state = game.new_game(game.min_players, seed=seed, chance="explicit")
    rng = Rng(seed)
    while not state.is_terminal() and state.decisions < 30:
        if state.is_chance_node():
            fractions = chance_fractions(state.position)
            assert sum(p for _, p in fractions) == 1
            assert len(fractions) <= state.program.max_chance_outcomes()
            assert [i for i, _ in fractions] == list(range(len(fractions)))
            assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
            state.apply_id(rng.below(len(fractions)))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


def _moves(game, players, seed, limit):
    """A random explicit-chance game: the ids it applied, in order."""
    state = game.new_game(players, seed=0, chance="explicit")
    rng = Rng(seed)
    moves = []
    while not state.is_terminal() and len(moves) < limit:
        if state.is_chance_node():
            moves.append(rng.below(len(state.chance_outcomes())))
        else:
            ids = state.legal_action_ids()
            moves.append(ids[rng.below(len(ids))])
        state.apply_id(moves[-1])
    return moves, state


@pytest.mark.parametrize("name,players", [("multzo", 3), ("mismemory", 2), ("multiplay", 2),
                                          ("packkub", 2)])
def test_going_on_from_the_drawing_instruction_is_running_the_step_again(
        name, players, monkeypatch):
    """The shortcut of explicit chance (going on from the instruction that drew)
    reaches every decision in the position that running each step again from
    its start reaches (at a chance node the shortcut shows the step as far as
    it has gone, the other the position before it)."""
    game = load(name)
    moves, _ = _moves(game, players, 11, 300)
    program = game.instance(players, None).program()
    no_shortcut = dataclasses.replace(program, instructions=tuple(
        dataclasses.replace(i, one_draw=False) for i in program.instructions))

    def decisions_reached(program) -> list[dict]:
        state = State(new_position(program, 0, chance="explicit"))
        out = []
        for m in moves:
            state.apply_id(m)
            if not state.is_chance_node():
                out.append(state.to_json())
        return out
    fast_moves = decisions_reached(program)
    assert decisions_reached(no_shortcut) == fast_moves and len(fast_moves) > 20


@pytest.mark.parametrize("name,players", [("multzo", 3), ("mismemory", 2), ("multiplay", 2),
                                          ("packkub", 2), ("tic-tac-toe", 2)])
def test_the_path_kept_as_steps_is_the_path_of_copies(name, players, monkeypatch):
    """Where every draw lets the flow go on from its instruction, the positions
    before steps are kept as records of the steps and made again when asked
    for: they are the positions a copy before each step keeps (the game's own
    positions at its decisions), and every seat's information state and tensor
    are those of the same game played with copies."""
    game = load(name)
    moves, _ = _moves(game, players, 5, 150)
    from rulepack.engine import chance
    from rulepack.engine.serialize import position_to_json
    program = game.instance(players, None).program()
    assert program.replayable

    def play(program):
        state = State(new_position(program, 0, chance="explicit"))
        at_decisions = []
        for m in moves:
            if not state.is_chance_node():
                at_decisions.append(state.to_json())
            state.apply_id(m)
        return state, at_decisions

    kept, at_decisions = play(program)
    assert isinstance(kept.position.rng._previous, chance._Step)     # records, not copies
    path = []
    at = kept.position.rng.previous
    while at is not None:
        path.append(position_to_json(at))
        at = at.rng.previous
    assert path[::-1] == at_decisions and len(path) > 5

    def seen(state):
        observer = Observer(state.program)
        return {p: (state.information_state_string(p),
                    observer.information_state_tensor(state.position, p)) for p in range(players)}
    copied, _ = play(dataclasses.replace(program, replayable=False))
    assert isinstance(copied.position.rng._previous, type(copied.position))   # copies
    assert seen(kept) == seen(copied)


def _swapped(value, x, y):
    if value is x:
        return y
    if value is y:
        return x
    if isinstance(value, tuple):
        return tuple(_swapped(v, x, y) for v in value)
    return value


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2 ** 32))
def test_information_states_ignore_what_the_player_cannot_see(seed):
    """Two Multzo games that differ only in two tiles the player never sees
    (swapped in every draw and action) give that player the same information
    states, observations and tensors, position by position."""
    game = load("multzo")
    rng = Rng(seed)
    a = game.new_game(2, seed=0, chance="explicit")
    moves = []
    while a.is_chance_node():                  # the first deal
        moves.append(rng.below(len(a.chance_outcomes())))
        a.apply_id(moves[-1])
    viewer = 0
    hidden = [p for p in a.program.pieces if p.kind == "tile" and a.position.loc[p.id] != 0
              and not visible(a.position, p, viewer)]
    x, y = hidden[rng.below(len(hidden))], hidden[rng.below(len(hidden))]
    if x is y:
        return
    a = game.new_game(2, seed=0, chance="explicit")
    b = game.new_game(2, seed=0, chance="explicit")
    rng = Rng(seed)
    def seen(state):
        """Whether x or y was ever in sight of the viewer: visible now, shown by
        a reveal, or named by an action (a step can show a piece and hide it
        again before the next position)."""
        for event in state.history:
            shown = getattr(event, "pieces", None) or getattr(event, "values", ())
            if any(_swapped(v, x, y) is not v for v in shown):
                return True
        return any(visible(state.position, p, viewer) for p in (x, y))

    for _ in range(120):
        if a.is_terminal() or seen(a) or seen(b):
            break
        assert a.information_state_string(viewer) == b.information_state_string(viewer)
        assert a.observation_string(viewer) == b.observation_string(viewer)
        assert Observer(a.program).information_state_tensor(a.position, viewer) == \
            Observer(b.program).information_state_tensor(b.position, viewer)
        if a.is_chance_node():
            i = rng.below(len(a.chance_outcomes()))
            drawn = _swapped(a.chance_node.options[i], x, y)
            a.apply_id(i)
            b.apply_id(next(k for k, v in enumerate(b.chance_node.options)
                                if v is drawn or (v == drawn and type(v) is not type(x))))
        else:
            legal = a.legal_actions()
            action = legal[rng.below(len(legal))]
            values = _swapped(action.values, x, y)
            twin = [c for c in b.legal_actions() if c.choice == action.choice
                    and c.alt == action.alt and all(
                        u is v or (u == v and type(u) is not type(x))
                        for u, v in zip(c.values, values))]
            assert len(twin) == 1
            a.apply(action)
            b.apply(twin[0])


def test_chance_events_name_their_statement_and_outcome():
    state = load("multiplay").new_game(2, seed=1)
    shuffle, start, roll = state.history[0], state.history[1], state.history[2]
    lines = (Path(rulepack.__file__).parent / "rulesets" / "multiplay.rules").read_text(
        encoding="utf-8").splitlines()

    def line_of(text: str) -> list[int]:
        (n,) = [i + 1 for i, line in enumerate(lines) if line.strip() == text]
        return [n, 3]
    assert (shuffle.kind, shuffle.at) == ("shuffle", line_of("shuffle board"))
    board = next(z.index for z in state.program.zones if z.label == "board")
    assert shuffle.outcome == [p for p in state.position.zones[board] if p is not None]
    roll_at = line_of("let roll = random(1..12)")
    # a start player, a d12 roll
    assert (start.at, roll.at) == (line_of("let start = random(players)"), roll_at)
    data = state.to_json()
    assert data["history"][2]["at"] == roll_at
    assert data["labels"]["zones"][board] == "board"
    assert data["labels"]["pieces"][5] == state.program.pieces[5].name
    assert load("multiplay").state_from_json(data).history[2].at == roll_at


def test_apply_reports_the_events_it_ran_through():
    state = load("multzo").new_game(2, seed=3)
    rng = Rng(3)
    while True:
        legal = state.legal_actions()
        action = next((a for a in legal if "face down to end" in a.text),
                      legal[rng.below(len(legal))])
        round_before = round_number(state)
        events = state.apply(action)
        assert events[0] == action
        if round_number(state) != round_before:        # the showdown and the next deal
            kinds = [type(e).__name__ for e in events]
            assert "Reveal" in kinds and "ChanceEvent" in kinds
            assert events == state.history[len(state.history) - len(events):]
            break


@pytest.mark.parametrize("name, players", [("multzo", 3), ("multiplay", 2), ("mismemory", 2),
                                           ("packkub", 3)])
def test_the_table_of_drawing_statements_agrees_with_the_stack(name, players, monkeypatch):
    """Where a chance event was drawn: the per-block table gives what looking up the
    stack gives (the same statement, for every chance event of a game)."""
    import random as _random
    import rulepack
    from rulepack.compiler import build

    def play(table: bool) -> list[object]:
        if not table:
            monkeypatch.setattr(build, "block_positions", lambda *args: {})
        game = rulepack.load(name)
        st = game.new_game(players=players, seed=7, options={"rounds": 1} if name == "packkub"
                           else None)
        rng = _random.Random(3)
        while not st.is_terminal() and st.decisions < 150:
            acts = st.legal_actions()
            st.apply(acts[rng.randrange(len(acts))])
        return [e.at for e in st.history if type(e).__name__ == "ChanceEvent"]

    by_table = play(True)
    assert by_table and all(at is not None for at in by_table)
    assert by_table == play(False)


# ---------------------------------------------------------------- positions at chance nodes
class _Recording(PyRng):
    """A sampled game's generator that notes, at each draw, the position of the
    state that draws (``owner``) and the draw as explicit chance numbers its
    outcomes: ``(position, outcome)`` per chance node."""

    def __init__(self, seed, owner):
        super().__init__(seed)
        self.owner = owner
        self.draws = []

    def choice(self, items):
        position = _position(self.owner)
        value = super().choice(items)
        if len(items) > 1:
            self.draws.append((position, next(i for i, v in enumerate(items) if v is value)))
        return value

    def roll(self, faces, weights, label):
        position = _position(self.owner)
        i = super().roll(faces, weights, label)
        if len(faces) > 1:
            self.draws.append((position, i))
        return i

    def shuffle(self, items):
        position = _position(self.owner)
        before = list(items)
        super().shuffle(items)
        # explicit chance draws the shuffled order one place at a time, each among
        # the pieces not drawn yet; the last is forced
        for piece in items[:-1]:
            k = next(i for i, p in enumerate(before) if p is piece)
            self.draws.append((position, k))
            del before[k]


def _position(state):
    """Everything about a position (of a state, or a position itself) but its
    generator and flow counters."""
    from rulepack.engine.serialize import position_to_json
    data = position_to_json(getattr(state, "position", state))
    for key in ("rng", "pc", "pending"):
        data.pop(key)
    return data


def _sampled_draws(game, players, seed, options, monkeypatch):
    """Play a sampled game with random legal actions (from ``seed``); returns the
    actions' indexes among the legal ones and, per draw, the position there."""
    import sys
    import rulepack.engine.position as position_module
    import rulepack.engine.state as state_module
    made = []

    def make(seed):      # a position's own generator, noting the position that makes it
        here = sys._getframe(1).f_locals
        rng = _Recording(seed, here["st"] if "st" in here else here["p"])
        made.append(rng)
        return rng

    with monkeypatch.context() as patch:
        patch.setattr(state_module, "Rng", make)
        patch.setattr(position_module, "Rng", make)
        state = game.new_game(players, seed=seed, options=options)
        picks = PyRng(seed ^ 0x5EED)
        moves = []
        while not state.is_terminal() and state.decisions < 400:
            legal = state.legal_actions()
            moves.append(picks.below(len(legal)))
            state.apply(legal[moves[-1]])
    (rng,) = [rng for rng in made if rng.owner is state.position]
    return moves, rng.draws


@pytest.mark.parametrize("name", bundled_rulesets())
def test_a_chance_node_shows_the_position_a_sampled_game_draws_in(name, monkeypatch):
    """Explicit chance stops where a sampled game draws: the position at each chance
    node is the position a sampled game has at that draw, every statement of the
    step before it done (issue 32: a setup's ``move die to cup face up`` before its
    ``roll cup``). Checked at every chance node of a game of every bundled ruleset."""
    game = load(name)
    options = {"rounds": 1} if name == "packkub" else {}
    for players in sorted({game.min_players, min(game.max_players, game.min_players + 1)}):
        for seed in (1, 2):
            moves, draws = _sampled_draws(game, players, seed, options, monkeypatch)
            state = game.new_game(players, seed=seed, chance="explicit", options=options)
            moves, draws = iter(moves), iter(draws)
            nodes = 0
            while not state.is_terminal() and state.decisions < 400:
                if state.is_chance_node():
                    position, outcome = next(draws)
                    assert _position(state) == position, (name, players, seed, nodes,
                                                           state.chance_node.statement)
                    state.apply_id(outcome)
                    nodes += 1
                else:
                    state.apply(state.legal_actions()[next(moves)])
            assert next(draws, None) is None
            assert nodes or name in ("tic-tac-toe", "connect-four", "four-field-kono",
                                     "piecepack-tic-tac-toe", "tablut"), name


def test_a_setup_roll_shows_the_dice_moved_before_it():
    """The repro of issue 32: ``move die to cup face up`` then ``roll cup`` in the
    setup; at the roll's chance node the cup holds the dice."""
    game = rulepack.loads(SETUP_ROLL)
    state = game.new_game(2, seed=1, chance="explicit")
    assert state.chance_node.statement.startswith("roll red die")
    assert [p["name"] for p in state.view(0)["zones"]["cup"]["pieces"]] == ["red die", "blue die"]
    state.apply_id(2)      # the red die shows 3; the blue die's roll is next
    assert state.chance_node.statement.startswith("roll blue die")
    assert state.view(1)["zones"]["cup"]["pieces"][0]["pips"] == 3


SETUP_ROLL = """\
game setuproll {
  players 2
}
component die {
  called "{colour} die"
  colour: red, blue
  rolls pips: 1..6
}
zone cup: pile
var total per player = 0
setup {
  move die to cup face up
  roll cup
}
play {
  turns from 0 until total[current] >= 10 {
    choose {
      action "roll" {
        roll cup
        set total[current] = total[current] + sum(cup.pips)
      }
    }
  }
}
"""
