"""What a ruleset declares of its final scores (issue 32): ``scores from LO to HI``
and ``scores sum to N`` in the game declaration, checked at the end of every game
(a located error at the declaration when a game breaks it), and the range derived
from a score formula that bounds itself (``Instance.score_bounds()``), which the
adapters' score returns report as their utility bounds."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulepack
from rulepack.errors import RulesetRuntimeError, SemanticError

ADAPTERS = Path(__file__).parent / "data" / "adapters"


def duel(fields: str = "", score: str = "score(p) = pts[p]") -> str:
    """Two players; the first decision sets the final scores and ends the game."""
    return f"""game duel {{
  players 2
{fields}
}}
var pts per player = 0
{score}
{"winner highest score" if score else ""}
play {{
  turns from 0 until true {{
    choose {{
      action "win" {{
        set pts = [1, -1]
      }}
      action "lopsided" {{
        set pts = [1, 0]
      }}
      action "big" {{
        set pts = [3, -3]
      }}
    }}
  }}
}}
"""


DECLARED = "  scores from -2 to 1 + 1\n  scores sum to 0"


def test_the_declarations_compile_to_the_instance():
    inst = rulepack.loads(duel(DECLARED), "d.rules").instance(2)
    assert inst.score_range == (-2, 2) and inst.score_sum == 0
    assert inst.score_bounds() == (-2, 2)
    plain = rulepack.loads(duel(), "d.rules").instance(2)
    assert plain.score_range is None and plain.score_sum is None


def test_a_game_that_keeps_its_declarations_ends_as_usual():
    state = rulepack.loads(duel(DECLARED), "d.rules").new_game(2)
    state.apply("win")
    assert state.result()["scores"] == [1, -1] and state.result()["winners"] == [0]
    assert state.returns(scores=True) == [1.0, -1.0]


@pytest.mark.parametrize("action, line, column, message", [
    ("lopsided", 4, 17, "the game ended with scores adding up to 1, not the 0 its ruleset "
                        "declares (scores sum to ...)"),
    ("big", 3, 3, "the game ended with player 1's score 3, outside the range -2 to 2 its "
                  "ruleset declares (scores from ... to ...)"),
])
def test_a_game_that_breaks_a_declaration_is_an_error_at_it(action, line, column, message):
    for ask in ("result", "returns"):
        state = rulepack.loads(duel(DECLARED), "d.rules").new_game(2)
        state.apply(action)
        with pytest.raises(RulesetRuntimeError) as info:
            state.result() if ask == "result" else state.returns(scores=True)
        d = info.value.diagnostics[0]
        assert d.code == "bad-scores" and d.message == message
        assert (d.location.file, d.location.line, d.location.column) == ("d.rules", line, column)
    # without the declarations the same game ends without complaint
    state = rulepack.loads(duel(), "d.rules").new_game(2)
    state.apply(action)
    assert state.result()["scores"] is not None


def test_simulate_stops_at_a_broken_declaration_with_the_caret(tmp_path):
    from click.testing import CliRunner
    from rulepack.cli.main import main
    path = tmp_path / "d.rules"
    path.write_text(duel("  scores from -1 to 1"), encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", str(path), "--games", "20"])
    assert result.exit_code == 1
    assert "d.rules:3:3: error: the game ended with player 1's score 3, outside the range" \
        in result.output
    assert "^" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("fields, score, message", [
    ("  scores from 2 to -2", "score(p) = pts[p]", "scores from 2 to -2: the lowest score "
                                                   "comes first"),
    ('  scores from 0 to "many"', "score(p) = pts[p]",
     "'scores from ... to ...' needs a number, not many"),
    ("  scores sum to true", "score(p) = pts[p]", "'scores sum to ...' needs a number, not yes"),
    ("  scores sum to 0", "", "'scores ...' needs a score declaration (score(p) = ...)"),
])
def test_a_bad_declaration_is_a_located_error(fields, score, message):
    with pytest.raises(SemanticError) as info:
        rulepack.loads(duel(fields, score), "d.rules")
    d = info.value.diagnostics[0]
    assert d.message == message and d.location.line == 3 and d.location.file == "d.rules"


@pytest.mark.parametrize("score, bounds", [
    ("score(p) = pts[p]", None),                       # a variable set by the rules
    ("score(p) = 3", (3, 3)),
    ("score(p) = if p == 0 then 2 else -1", (-1, 2)),
    # count(X) is bounded by 0 and the most elements X can have (here 2)
    ("score(p) = count(players) * 2 - 5", (-5, -1)),
    ("score(p) = abs(count(players) - 5) + -count(players)", (1, 5)),
])
def test_a_score_that_bounds_itself_gives_the_range(score, bounds):
    assert rulepack.loads(duel(score=score)).instance(2).score_bounds() == bounds


def test_the_range_of_counted_pieces_and_of_bundled_rulesets():
    # Tens scores the cards taken away (18 at most), Ladders the tiles turned up
    assert rulepack.load(str(ADAPTERS / "tens.rules")).instance(1).score_bounds() == (0, 18)
    assert rulepack.load("ladders").instance(1).score_bounds() == (0, 24)
    assert rulepack.load("tic-tac-toe").instance(2).score_bounds() is None   # no score
    # the poker rulesets declare theirs (chips: OpenSpiel's -2/2 and -13/13)
    for name, bound in (("kuhn", 2), ("leduc", 13)):
        inst = rulepack.load(str(ADAPTERS / f"{name}.rules")).instance(2)
        assert inst.score_bounds() == (-bound, bound) and inst.score_sum == 0
