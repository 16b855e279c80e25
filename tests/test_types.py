"""The static check of the values' kinds (rulepack/compiler/kinds.py): operators,
attributes, defines and seats (issue 34).

Each mistake is a ruleset that ``validate`` accepted before and that failed only in
play; now ``validate`` reports it where it is written, with both kinds in words.
Each valid use beside it must pass: the check reports only what certainly fails.
"""

from __future__ import annotations

import pytest

import rulepack
from rulepack.errors import RulesetRuntimeError, SemanticError
from rulepack.validation import check_text

RULESET = """\
game g {
  players 2
}
component tile {
  suit: suns, moons
  rank: 1, 2, 3
}
zone stack: pile
zone hand: pile per player
var points per player = 0
var leader = none
define label() = "tile"
define twice(x) = x * 2
setup {
  move tile to stack
  set leader = random(players)
}
play {
  turns from leader until points[current] > 1 {
    choose {
      action "take {t}" for t in stack {
        move t to hand[current]
        set points[current] = EXPR
      }
    }
  }
}
"""


def check(expr: str) -> list[tuple[int | None, int | None, str, str]]:
    """The type check's diagnostics of the ruleset with ``expr`` (any other error
    fails the test: the ruleset must be right but for the mistake)."""
    text = RULESET.replace("EXPR", expr)
    found = check_text(text, "g.rules")
    assert all(d.code in ("wrong-kind", "number-as-seat") for d in found
               if d.severity == "error"), found
    return [(d.location.line, d.location.column, d.severity, d.message)
            for d in found if d.code in ("wrong-kind", "number-as-seat")]


MISTAKES = [
    # (the value given to points[current], the message, its column)
    ("points[current] + t", "cannot add a number and a piece", 49),       # at the piece
    ('points[current] + "x"', "cannot add a number and a word ('x')", 49),
    ("t.suit - 1", "cannot subtract: a word", 33),                      # at .suit
    ("t.suit * t.rank", "cannot multiply: a word", 33),
    ("label() + 1", "cannot add a word ('tile') and a number", 31),
    ("(top of stack) + 1", "cannot add a piece and a number", 32),
    ("count(stack) + [t] + (t.rank < t.suit)", "cannot compare a number < a word", 53),
    ("count(stack)[0]", "a number has no elements to take [...] of", 31),
    ("[1, 2][t]", "an element of a list of numbers is taken by its position (a number), "
     "not by a piece", 38),
]


@pytest.mark.parametrize("expr, message, column", MISTAKES)
def test_a_value_of_the_wrong_kind_is_reported_where_it_is(expr, message, column):
    found = check(expr)
    assert len(found) == 1, found
    line, col, severity, text = found[0]
    assert (line, col, severity) == (23, column, "error")
    assert text.startswith(message), text


VALID = [
    "points[current] + 1", "t.rank + 1", "points[current] + t.rank * 2",
    "count(hand[current] + [t])",             # a list and a piece join
    "count(stack + hand[current])",           # two zones join
    "current + 1",                            # a seat counts as its number
    "twice(t.rank)", "count([t] + [])", "[1, 2][t.rank - 1]", "count(hand[current]) + stack[0].rank",
    "if t.rank < 3 then 1 else 0", "count(hand[current] where rank + 1 > 2)",
]


@pytest.mark.parametrize("expr", VALID)
def test_a_valid_value_is_not_reported(expr):
    assert check(expr) == []


def test_an_attribute_read_by_name_in_a_where_has_its_kind():
    """``stack where suit + 1 > 0``: the bare ``suit`` is each tile's word."""
    found = check("count(stack where suit + 1 > 0)")
    assert [f[3] for f in found] == ["cannot add a word and a number"]


def test_turns_from_a_value_that_is_no_seat_is_an_error():
    text = RULESET.replace("EXPR", "1").replace("turns from leader", 'turns from "x"')
    found = [d for d in check_text(text, "g.rules") if d.severity == "error"]
    assert [(d.location.line, d.message) for d in found] == [
        (19, "turns must start from a player, not a word ('x')")]
    text = RULESET.replace("EXPR", "1").replace("turns from leader", "turns from 2")
    found = [d for d in check_text(text, "g.rules") if d.severity == "error"]
    assert [d.message for d in found] == [
        "turns must start from a player, not 2 (the seats are 0 to 1)"]
    text = RULESET.replace("EXPR", "1").replace("turns from leader", "turns from 1")
    assert [d for d in check_text(text, "g.rules") if d.severity == "error"] == []


def test_a_number_taken_as_a_seat_is_warned_about_where_it_is_given():
    """The tutorial's mistake, ``set leader = random(players) + 1``, plays with some
    seeds and fails with others (no seat 2 in a two-player game); validate warns at
    the expression that makes the seat a number (here one that always counts a seat,
    so that validate's own trial game plays)."""
    text = RULESET.replace("EXPR", "1").replace("set leader = random(players)",
                                                 "set leader = count(stack) % 2")
    found = [d for d in check_text(text, "g.rules") if d.code == "number-as-seat"]
    assert [(d.severity, d.location.line, d.location.column) for d in found] == \
        [("warning", 16, 16)]
    assert "'leader' here is a number" in found[0].message and "(line 19)" in found[0].message
    assert check("1") == []                  # random(players) is a seat: nothing to say


def test_play_reports_the_mistake_before_the_first_decision():
    """The check runs when the ruleset compiles: play never starts."""
    with pytest.raises(SemanticError, match="cannot add a number and a piece"):
        rulepack.loads(RULESET.replace("EXPR", "points[current] + t")).new_game(2, seed=1)
    game = rulepack.loads(RULESET.replace("EXPR", "points[current] + 1"))
    state = game.new_game(2, seed=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert max(state.scores() or [2]) >= 0


def test_a_value_only_play_knows_keeps_its_error_in_play():
    """Division by a number that is 0 only in play is not a kind mistake."""
    game = rulepack.loads(RULESET.replace("EXPR", "points[current] // (t.rank - t.rank)"))
    with pytest.raises(RulesetRuntimeError, match="division by zero"):
        state = game.new_game(2, seed=1)
        state.apply(state.legal_actions()[0])


#: statements and built-ins given a value of the wrong kind, each with the message
#: and the (line, column) it is reported at; each is a mutant that fuzzing found
#: validating, then failing in play (benchmarks/fuzz_validate.py)
STATEMENT_MISTAKES = [
    ("move t to hand[current]", "move t to 3", "move needs a zone or a cell to move to, "
     "not a number", (22, 19)),
    ("move t to hand[current]", "move t to [current]", "move needs a zone or a cell to move "
     "to, not a list of players", (22, 19)),
    ("move t to hand[current]", "flip down", "only pieces can be flipped, not a word "
     "('down')", (22, 14)),
    ("move t to hand[current]", "move top 1 of points[current] to stack",
     "only pieces can be moved, not a list of numbers", (22, 14)),
    ("move t to hand[current]", "claim [current] for current",
     "only pieces can be claimed, not a list of players", (22, 15)),
    ("set points[current] = EXPR", "set points[current] = count(3 where rank > 1)",
     "where reads the attribute 'rank' of each element, and a number has no attributes",
     (23, 37)),
    ("set points[current] = EXPR", "set points[current] = points[current].rank",
     "a number has no attribute 'rank'", (23, 47)),
    ("set points[current] = EXPR", "set points[current] = sum(directions[0].rank)",
     "a number has no attribute 'rank' (read of each element of a tuple)", (23, 49)),
    ("set points[current] = EXPR", "set points[current] = count(cells(players))",
     "cells() needs a grid, not a list of players", (23, 43)),
    ("set points[current] = EXPR", "set points[current] = count(cells(stack))",
     "cells() needs a grid, not zone 'stack' (a pile)", (23, 43)),
    ("set points[current] = EXPR", 'set points[current] = count(order("north"))',
     "order() needs a player, not a word ('north')", (23, 43)),
    ("set points[current] = EXPR", "set points[current] = if [t] < 2 then 1 else 0",
     "cannot compare a list of pieces < a number", (23, 34)),
    ("set points[current] = EXPR", "end game winners everyone",
     "end game winners needs players, not a word ('everyone')", (23, 26)),
]


@pytest.mark.parametrize("line, mistake, message, where", STATEMENT_MISTAKES)
def test_a_statement_or_built_in_given_the_wrong_kind_is_reported(line, mistake, message,
                                                                  where):
    original = line.replace("EXPR", "1")
    text = RULESET.replace("EXPR", "1")
    assert original in text
    text = text.replace(original, mistake, 1)
    found = [(d.location.line, d.location.column, d.message)
             for d in check_text(text, "g.rules") if d.severity == "error"]
    assert found == [(*where, message)]



def test_a_defines_parameters_have_the_kinds_of_its_calls_arguments():
    """``define twice(x) = x * 2`` called with a piece: the mistake is reported in
    the define, where the piece cannot be multiplied; called with numbers only, or
    not at all, nothing is reported."""
    found = check("twice(t)")
    assert [(f[0], f[1], f[3]) for f in found] == [
        (13, 19, "cannot multiply: a piece is not a number")]
    assert check("twice(t.rank) + twice(2)") == []


#: values that are of one kind or another (a map's values, a variable given two
#: kinds, an if of two kinds, a list of a piece and a word) used where one of the
#: kinds fails; each a fuzzed mutant of a bundled ruleset that validated, then
#: failed in play (benchmarks/data/fuzz-seed1-before-types.json, cases 6304, 1685,
#: 9924), here in the small ruleset
MAYBE_MISTAKES = [
    # a map whose values are a number and a word: pig's pips with 'set' for 2
    ('points[current] + {1: 1, 2: "set", 3: 3}[t.rank]',
     "cannot add {...}[...]: it is a number or a word ('set'), and a word ('set') is not a "
     "number", (23, 49)),
    ("points[current] + (if t.rank > 1 then 1 else t.suit)",
     "cannot add it: it is a number or a word, and a word is not a number",
     (23, 50)),
    ("points[current] + [t.rank + 1 for t in [t, label()]][0]",
     "'t' may be a word ('tile'), which has no attribute 'rank'", (23, 52)),
]


@pytest.mark.parametrize("expr, message, where", MAYBE_MISTAKES)
def test_a_value_that_may_be_of_the_wrong_kind_is_reported(expr, message, where):
    found = check(expr)
    assert [(f[0], f[1]) for f in found] == [where], found
    assert found[0][3].startswith(message), found[0][3]


def test_a_variable_given_two_kinds_is_reported_where_it_is_used_with_where_it_was_given():
    """Ladders' ``set turnovers = tile + 1`` (a list: the tiles and one more item)
    where the rules compare ``turnovers`` with a number: the comparison is refused
    and the message says where the list came from."""
    text = RULESET.replace("EXPR", "1").replace(
        "set points[current] = 1", "set points[current] = 1\n        set swaps = [t] + 1"
    ).replace("var leader = none", "var leader = none\nvar swaps = 0").replace(
        "until points[current] > 1", "until swaps > 1")
    found = [(d.location.line, d.location.column, d.message)
             for d in check_text(text, "g.rules") if d.severity == "error"]
    assert found == [(20, 27, "cannot compare 'swaps' with >: it is a list of numbers or "
                      "pieces or a number, and a list of numbers or pieces cannot be compared "
                      "with a number (line 25, column 21 gives it one)")]


def test_a_test_that_is_always_true_or_false_is_an_error():
    """Multiplay's ``at(x).owner != none`` mistyped as ``!= directions`` (fuzz case
    6018): a player is never a list, so the test never filters anything."""
    text = RULESET.replace("EXPR", "if t.owner == directions then 1 else 0")
    found = [(d.location.line, d.location.column, d.message)
             for d in check_text(text, "g.rules") if d.severity == "error"]
    assert found == [(23, 34, "this test is always false: t.owner is a player and "
                      "'directions' a list of tuples, never equal")]
    for fine in ("if t.owner == current then 1 else 0", "if t.owner == none then 1 else 0",
                 "if t.rank == 1 then 1 else 0", "if current == 0 then 1 else 0",
                 "if t == top of stack then 1 else 0", "if t.suit == suns then 1 else 0"):
        assert check(fine) == [], fine


def test_a_seat_number_known_now_must_be_a_seat_of_this_player_count():
    """Multzo's ``for p in players`` mistyped as ``for p in 5`` (fuzz case 1620):
    ``hand[p]`` with ``p`` 5 in a game of 2 to 4."""
    found = check("count(hand[5])")
    assert [(f[0], f[1], f[3]) for f in found] == [
        (23, 42, "zone hand[...] takes a player or a seat number, 0 to 1 with 2 players, "
                 "not 5")]
    found = check("[points[p] for p in 3][0]")
    assert [f[3] for f in found] == [
        "points[...] takes a player or a seat number, 0 to 1 with 2 players, not 3 ('p' is 3 "
        "here)"]
    assert check("count(hand[1]) + points[0]") == []
    # with three players, seat 2 is one of them
    text = RULESET.replace("players 2", "players 2..3").replace("EXPR", "count(hand[2])")
    with pytest.raises(SemanticError, match="0 to 1 with 2 players, not 2"):
        rulepack.loads(text).instance(2, {})
    assert rulepack.loads(text, check=False).instance(3, {}) is not None


def test_explain_types_shows_each_lines_kinds(tmp_path):
    """``rulepack explain --types FILE``: the kinds the check infers, line by line,
    also of a ruleset the check refuses (it shows why)."""
    from click.testing import CliRunner

    from rulepack.cli.main import main
    path = tmp_path / "g.rules"
    path.write_text(RULESET.replace("EXPR", 'points[current] + {1: 1, 2: "x", 3: 3}[t.rank]'),
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", "--types", "--json", str(path)])
    assert result.exit_code == 0, result.output
    import json
    found = {(i["line"], i["text"]): i["kind"] for i in json.loads(result.output)}
    assert found[(10, "var points")] == "one value per player: a number"
    assert found[(11, "var leader")] == "a player or none"
    assert found[(13, "define twice(x: unknown)")] == "a number"
    assert found[(23, "{...}[...]")] == "a number or a word ('x')"
    assert found[(23, "t.rank")] == "a number"
    result = CliRunner().invoke(main, ["explain", "--types", str(path)])
    assert result.exit_code == 0 and "a number or a word ('x')" in result.output
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 1


OPTIONAL = """\
game g {
  players 2
}
var points per player = 0
var holder = none
setup {
  set holder = random(players)
}
play {
  turns from players[0] until points[current] > 2 {
    choose {
      action "pass" {
        set holder = none
      }
      action "claim" {
        set holder = current
      }
    }
    USE
  }
}
"""


@pytest.mark.parametrize("use, warned", [
    ("set points[holder] = 1", True),                          # may be none: not tested
    ("if holder != none { set points[holder] = 1 }", False),
    ('if holder == none { say "nobody" } else { set points[holder] = 1 }', False),
    ('if not (holder == none) and points[holder] > 0 { say "x" }', False),
    ("set holder = current\n    set points[holder] = 1", False),   # a player just before
    ("if holder != none {\n      set holder = none\n      set points[holder] = 1\n    }", True),
])
def test_a_variable_that_may_be_none_is_warned_about_where_it_is_taken_as_a_player(use,
                                                                                   warned):
    """Issue 34, item 1: a variable given none by a set (an optional player) taken
    as a player with no test before is a warning (the flow may make it safe in ways
    the check does not follow; none there fails in play with a located error);
    a test against none, or a set of a player before it, makes it safe."""
    text = OPTIONAL.replace("USE", use)
    found = [d for d in check_text(text, "g.rules") if d.code == "optional-seat"]
    assert [d.severity for d in found] == (["warning"] if warned else []), found
    assert all(d.severity != "error" for d in check_text(text, "g.rules"))
    if warned:
        assert "points[...] takes a player, and 'holder' may be none here" in found[0].message


def test_a_variable_whose_only_none_is_its_initial_value_is_not_warned_about():
    """``var leader = none`` then ``set leader = random(players)`` (the tutorial):
    none only marks it as not yet set; the flow sets it before turns read it."""
    text = OPTIONAL.replace("set holder = none", "set holder = current").replace("USE", "")
    assert [d for d in check_text(text, "g.rules") if d.code == "optional-seat"] == []


@pytest.mark.parametrize("expr, message", [
    ("sum([t.suit])", "sum() needs numbers, not a list of words"),
    ("abs(t) + 1", "abs() needs numbers, not a piece"),
    ("count(neighbours(3))", "neighbours() needs a cell, not a number"),
    ("count([step(top of stack, 2)])", "step() needs a direction (row step, column step), "
                                        "not a number"),
    ("max([t]) + 1", "cannot add a piece and a number"),       # max of pieces: a piece
    ("count(unique([t.rank])) + distinct([t.rank])[0]", None),
    ("sum([1, none, 2]) + abs(-3) + count(flatten([[1], [2]]))", None),
])
def test_the_built_ins_have_signatures(expr, message):
    found = check(expr)
    if message is None:
        assert found == []
    else:
        assert [f[3] for f in found if f[2] == "error"] == [message], found
