"""Dice (docs/language.md, component: ``rolls``; statement ``roll``).

* a die shows its first face until rolled; ``roll`` sets the face it shows, read
  like any attribute (``d.pips``, ``where``, ``sum``, sorting);
* a roll is a chance event: drawn from the seed (uniform, or by the weights), and
  in explicit chance a chance node whose exact probabilities are the weights'
  shares; the same outcomes give the same game in both modes;
* views, the log and observations show the face to whoever may see the die;
* records replay it, ``to_json`` / ``state_from_json`` resume it, determinization
  keeps the faces a player saw;
* mistakes are located errors; the piecepack's dice roll its ranks.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

import rulepack
from rulepack.agents.determinize import determinize
from rulepack.story import describe_entries
from rulepack.engine.rng import Rng
from rulepack.errors import RulepackError
from rulepack.records import RecordWriter, read_record, replay, state_hash
from rulepack.engine.chance import chance_fractions, outcome_text
from rulepack.engine.observe import Observer

DICE = """\
game dice {
  players 2
}
component die {
  called "{colour} die"
  colour: red, blue
  rolls pips: 1..6
}
component coin {
  called "coin"
  rolls side: heads, tails weights 1, 3     # a bent coin: tails three times in four
}
zone cup: pile
zone table: row
zone hand: pile per player seen by owner
var before = []
var total per player = 0
var sixes = 0
var high = []
var bent = 0
setup {
  move die to cup face up
  move coin to table face up
  set before = [d.pips for d in cup] + [c.side for c in table]
}
play {
  turns from 0 until total[current] >= 20 {
    choose {
      action "roll the dice" {
        roll cup
        roll coin
        set total[current] = total[current] + sum(cup.pips)
        set sixes = sixes + count(cup where pips == 6)
        set high = [d.colour for d in (cup by pips descending)]
        if only(coin).side == tails {
          set bent = bent + 1
        }
      }
      action "hide the red die" if count(hand[current]) == 0 and count(cup) == 2 {
        move die where colour == red to hand[current] face down
        roll hand[current]
      }
    }
  }
}
"""

GAME = rulepack.loads(DICE)


def die(state, name: str):
    return next(p for p in state.program.pieces if p.name == name)


def play(state, choose=lambda legal: legal[0]):
    while not state.is_terminal():
        state.apply(choose(state.legal_actions()))
    return state


def test_a_die_shows_its_first_face_until_it_is_rolled():
    state = GAME.new_game(2, seed=0)
    assert state.position.vars["before"] == [1, 1, "heads"]
    assert state.position.rolled == {}


def test_a_roll_sets_the_face_that_expressions_read():
    state = GAME.new_game(2, seed=3)
    events = state.apply("roll the dice")
    rolls = [e for e in events if getattr(e, "kind", None) == "roll"]
    assert [e.detail for e in rolls] == ["red die", "blue die", "coin"]
    faces = {e.outcome[0].name: e.outcome[1] for e in rolls}
    red, blue = faces["red die"], faces["blue die"]
    assert state.position.rolled == {die(state, "red die").id: red, die(state, "blue die").id: blue,
                            die(state, "coin").id: faces["coin"]}
    assert state.position.vars["total"][0] == red + blue
    assert state.position.vars["sixes"] == [red, blue].count(6)
    order = sorted([("red", red), ("blue", blue)], key=lambda x: -x[1])   # stable, as 'by'
    assert state.position.vars["high"] == [c for c, _ in order]
    assert state.position.vars["bent"] == (faces["coin"] == "tails")


def test_rolls_draw_every_face_and_weighted_faces_by_their_weights():
    pips: Counter = Counter()
    sides: Counter = Counter()
    for seed in range(300):
        state = GAME.new_game(2, seed=seed)
        for e in state.apply("roll the dice"):
            if getattr(e, "kind", None) == "roll":
                (sides if e.detail == "coin" else pips)[e.outcome[1]] += 1
    assert set(pips) == {1, 2, 3, 4, 5, 6}
    assert all(60 < n < 140 for n in pips.values()), pips          # 100 each expected
    # 300 tosses, tails with probability 3/4: 225 expected, sd 7.5
    assert 190 < sides["tails"] < 260 and sides["heads"] + sides["tails"] == 300


def test_explicit_chance_gives_a_node_per_die_with_exact_probabilities():
    state = GAME.new_game(2, seed=0, chance="explicit")
    state.apply("roll the dice")
    node = state.chance_node
    assert node.kind == "roll" and node.options == [1, 2, 3, 4, 5, 6]
    assert node.statement.startswith("roll red die (line ")
    assert chance_fractions(state.position) == [(i, Fraction(1, 6)) for i in range(6)]
    state.apply_id(5)                                    # red shows 6
    assert state.chance_node.statement.startswith("roll blue die")
    state.apply_id(0)                                    # blue shows 1
    assert state.chance_node.options == ["heads", "tails"]
    assert chance_fractions(state.position) == [(0, Fraction(1, 4)), (1, Fraction(3, 4))]
    assert [p for _, p in state.chance_outcomes()] == [0.25, 0.75]
    assert outcome_text(state.position, 1).endswith(": tails")
    state.apply_id(1)
    assert state.current_player == 1 and state.position.vars["total"] == [7, 0]
    assert state.position.vars["bent"] == 1 and state.position.vars["sixes"] == 1
    assert GAME.instance(2, {}).program().max_chance_outcomes() == 6


def test_the_same_outcomes_give_the_same_game_in_both_modes():
    sampled = play(GAME.new_game(2, seed=11))
    explicit = GAME.new_game(2, seed=11, chance="explicit")
    outcomes = iter([e for e in sampled.history if getattr(e, "kind", None) == "roll"])
    while not explicit.is_terminal():
        if explicit.is_chance_node():
            _, face = next(outcomes).outcome
            explicit.apply_id(explicit.chance_node.options.index(face))
        else:
            explicit.apply(explicit.legal_actions()[0])
    assert explicit.position.vars == sampled.position.vars and explicit.position.rolled == sampled.position.rolled


def test_views_and_the_log_show_the_face_to_whoever_sees_the_die():
    state = GAME.new_game(2, seed=5)
    events = state.apply("hide the red die")            # player 1 hides and rolls it
    red = die(state, "red die")
    face = state.position.rolled[red.id]
    mine = state.view(0)["zones"]["hand[player 1]"]["pieces"]
    assert [(p["name"], p["pips"]) for p in mine] == [("red die", face)]
    theirs = state.view(1)["zones"]["hand[player 1]"]
    assert theirs["pieces"] == [] and theirs["hidden_kinds"] == {"die": 1}
    assert "pips" not in str(theirs)
    cup = state.view(1)["zones"]["cup"]["pieces"]
    assert [(p["name"], p["pips"]) for p in cup] == [("blue die", 1)]    # never rolled
    texts = {p: [e.text for e in describe_entries(state, events, p)] for p in (0, 1)}
    assert texts[0][-1] == f"roll red die: {face}"
    assert texts[1][-1] == "roll a die"
    said = state.information_state_string(1)
    assert "roll a die" in said and "roll red die" not in said
    assert f"roll red die: {face}" in state.information_state_string(0)


def test_a_record_replays_the_rolls_and_json_resumes_them(tmp_path):
    path = tmp_path / "dice.rules"
    path.write_text(DICE, encoding="utf-8")
    game = rulepack.load(str(path))
    state = game.new_game(2, seed=4)
    writer = RecordWriter(tmp_path / "game.jsonl", game, state, str(path), ["random"] * 2)
    rng = random.Random(4)
    half = saved = None
    while not state.is_terminal():
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        player, since = state.current_player, len(state.history)
        state.apply(legal[index])
        writer.after(state, player, index, since)
        if half is None and state.position.rolled and not state.is_terminal():
            half, saved = state.to_json(), state.clone()
    writer.finish(state)
    record = read_record(tmp_path / "game.jsonl")
    rolls = [line for _, line in record.entries if line.get("type") == "chance"]
    assert rolls and all(line["kind"] == "roll" for line in rolls)
    assert state_hash(replay(record).state) == state_hash(state)
    # a position saved mid-game goes on as the position itself does
    resumed = game.state_from_json(half)
    assert resumed.position.rolled == saved.position.rolled == {int(i): v for i, v in half["rolled"]}
    play(resumed)
    play(saved)
    assert resumed.position.vars == saved.position.vars and resumed.position.rolled == saved.position.rolled
    assert resumed.to_json(history=False) == saved.to_json(history=False)


def test_a_bot_sees_the_faces_it_saw_and_guesses_the_others():
    state = GAME.new_game(2, seed=5)
    state.apply("hide the red die")
    state.apply("roll the dice")
    red, blue = die(state, "red die"), die(state, "blue die")
    for seed in range(10):
        guess = determinize(state.program, state.view(1), Rng(seed))
        assert guess.position.rolled[blue.id] == state.position.rolled[blue.id]      # seen by all
        assert guess.position.rolled[red.id] in range(1, 7)                 # hidden from player 2
        assert guess.view(1) == state.view(1)
    mine = determinize(state.program, state.view(0), Rng(0))
    assert mine.position.rolled[red.id] == state.position.rolled[red.id]


def test_the_piecepack_dice_roll_their_ranks():
    game = rulepack.loads("""\
game pp {
  players 1
}
use piecepack (die)
zone cup: pile
var shown = []
setup {
  move die to cup face up
  roll cup
  set shown = [d.rank for d in cup]
}
""")
    ranks = ["null", "ace", 2, 3, 4, 5]
    seen = set()
    for seed in range(40):
        shown = game.new_game(1, seed=seed).position.vars["shown"]
        assert len(shown) == 4 and all(r in ranks for r in shown)
        seen.update(shown)
    assert seen == set(ranks)


@pytest.mark.parametrize("change, message", [
    ("rolls colour: 1..6", "'rolls colour': die already has an attribute 'colour'"),
    ("rolls face: 1..6", "'rolls face': die already has an attribute 'face'"),
    ("rolls pips: 1..3 weights 1, 2", "the weights must be 3 whole numbers from 1"),
    ("rolls pips: 1..2 weights 1, 0", "the weights must be 2 whole numbers from 1"),
    ("rolls pips: [1, [2]]", "each face must be a number, a name or a text"),
    ("rolls pips: 1..6\n  rolls spots: 1..2", "component 'die' rolls twice"),
])
def test_a_bad_die_is_a_located_error(change, message):
    text = DICE.replace("  rolls pips: 1..6\n", f"  {change}\n", 1)
    with pytest.raises(RulepackError) as exc:
        rulepack.loads(text, "bad.rules")
    d = exc.value.diagnostics[0]
    last = change.split("\n")[-1].strip()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.strip() == last)
    assert message in d.message and (d.location.line, d.location.column) == (line, 3)


def test_a_pattern_cannot_read_a_rolled_face():
    text = DICE.replace("zone cup: pile\n", "zone cup: pile\npattern pair: size 2, same pips\n")
    with pytest.raises(RulepackError, match="'same pips' reads a fixed attribute"):
        rulepack.loads(text, "bad.rules")


def test_rolling_a_piece_that_is_no_die_is_a_located_error():
    text = DICE.replace("zone cup: pile\n", "component stone {\n  n: 1\n}\nzone cup: pile\n")
    text = text.replace("        roll coin\n", "        roll coin\n        roll stone\n")
    state = rulepack.loads(text, "bad.rules").new_game(2, seed=0)
    with pytest.raises(RulepackError) as exc:
        state.apply("roll the dice")
    d = exc.value.diagnostics[0]
    assert "cannot roll stone 1: its component has no 'rolls'" in d.message
    line = text.splitlines().index("        roll stone") + 1
    assert (d.location.line, d.location.column) == (line, 9)
    text = DICE.replace("        roll coin\n", "        roll 3\n")
    state = rulepack.loads(text, "bad.rules").new_game(2, seed=0)
    with pytest.raises(RulepackError, match="only dice"):
        state.apply("roll the dice")


def test_the_screen_names_a_die_with_the_face_it_shows():
    from rulepack.cli.render import value_text
    state = GAME.new_game(2, seed=3)
    state.apply("roll the dice")
    red = die(state, "red die")
    [shown] = [p for p in state.view(1)["zones"]["cup"]["pieces"] if p["id"] == red.id]
    assert shown["rolls"] == "pips"
    assert value_text(shown, []) == f"red die showing {state.position.rolled[red.id]}"


def test_a_score_that_reads_a_die_is_read_again_after_every_roll():
    # (the analysis caches scores by the zones and variables they read)
    from rulepack.analysis.reads import score_reads
    scored = DICE.replace("var total per player = 0\n",
                          "var total per player = 0\nscore(p) = SCORE\nwinner highest score\n")
    for score, reads in [("total[p]", ([], ["total"])), ("total[p] + sum(cup.pips)", None),
                         ("count(cup where pips == 6)", None)]:
        inst = rulepack.loads(scored.replace("SCORE", score)).instance(2, {})
        assert score_reads(inst) == reads, score


@pytest.mark.render
def test_a_picture_shows_the_face_a_die_rolled():
    from rulepack.render.appearance import Appearance
    state = GAME.new_game(2, seed=3)
    state.apply("roll the dice")
    app = Appearance(GAME.ir["components"], ["player 1", "player 2"])
    faces = {p["name"]: app.look(p).text for p in state.view(0)["zones"]["cup"]["pieces"]}
    assert faces == {d: str(state.position.rolled[die(state, d).id]) for d in ("red die", "blue die")}


def test_explain_lists_a_die_s_faces(tmp_path):
    import json

    from click.testing import CliRunner

    from rulepack.cli.main import main
    path = tmp_path / "dice.rules"
    path.write_text(DICE, encoding="utf-8")
    out = CliRunner().invoke(main, ["explain", str(path), "--json"])
    assert out.exit_code == 0, out.output
    components = json.loads(out.output)["components"]
    assert components["die"]["rolls"] == {"attribute": "pips", "faces": [1, 2, 3, 4, 5, 6],
                                          "weights": None}
    assert components["coin"]["rolls"] == {"attribute": "side", "faces": ["heads", "tails"],
                                           "weights": [1, 3]}
    text = CliRunner().invoke(main, ["explain", str(path)]).output
    assert "rolls side: heads, tails weights 1, 3" in text


def test_pig_banks_what_it_rolls_and_loses_it_on_a_null():
    # the bundled example: the rolls chosen through explicit chance
    state = rulepack.load("pig").new_game(2, seed=0, chance="explicit")
    faces = state.program.kind_pieces["die"][0].rolls[1]      # null, ace, 2, 3, 4, 5

    def roll(face):
        state.apply("roll the die")
        assert state.chance_node.kind == "roll"
        state.apply_id(faces.index(face))

    while state.is_chance_node():               # who starts
        state.apply_id(0)
    first = state.current_player
    assert [a.text for a in state.legal_actions()] == ["roll the die"]
    roll(5)
    roll(3)
    assert state.position.vars["at_stake"] == 8
    roll("null")                                # the 8 at stake are lost
    assert state.position.vars["at_stake"] == 0 and state.current_player == 1 - first
    roll("ace")
    roll(4)
    state.apply("hold")
    assert state.position.vars["banked"][1 - first] == 5 and state.position.vars["banked"][first] == 0
    assert state.current_player == first


def test_a_ruleset_adapting_a_library_component_may_make_it_roll_otherwise():
    game = rulepack.loads("""\
game suited {
  players 1
}
use piecepack (die, coin)
component die {
  rolls shown: suits
}
component coin {
  up shows rank
}
zone cup: pile
var shown = []
setup {
  move die to cup face up
  roll cup
  set shown = [d.shown for d in cup]
}
""")
    die_rolls = game.instance(1, {}).kind_pieces["die"][0].rolls
    assert die_rolls == ("shown", ("suns", "moons", "crowns", "arms"), None)
    assert all(s in ("suns", "moons", "crowns", "arms") for s in game.new_game(1).position.vars["shown"])
    assert game.instance(1, {}).kind_pieces["coin"][0].sides == (("rank",), None)


def test_the_observation_tensor_ends_with_the_faces_of_the_dice_seen():
    state = GAME.new_game(2, seed=5)
    state.apply("hide the red die")                      # rolled in player 1's hand
    red = die(state, "red die")
    faces = {0: Observer(state.program).observation_tensor(state.position, 0)[-14:], 1: Observer(state.program).observation_tensor(state.position, 1)[-14:]}
    # red die 1..6, blue die 1..6 (never rolled: 1), the coin heads, tails (heads)
    expected_red = [float(f == state.position.rolled[red.id]) for f in range(1, 7)]
    assert faces[0] == expected_red + [1.0] + [0.0] * 5 + [1.0, 0.0]
    assert faces[1] == [0.0] * 6 + [1.0] + [0.0] * 5 + [1.0, 0.0]      # red unseen
    assert Observer(state.program).observation_tensor_shape == [len(Observer(state.program).observation_tensor(state.position, 0))]
    plain = rulepack.load("multzo").new_game(2, seed=0)
    assert len(Observer(plain.program).observation_tensor(plain.position, 0)) == Observer(plain.program).observation_tensor_shape[0]
