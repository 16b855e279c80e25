"""``maximize VALUE { ... }`` (issue 35: backgammon's "use as many of the dice as
possible ... prefer the higher", ppgames inst/rules/backgammon.Rtex, Moving item 4):
each decision inside the block keeps only the actions from which the highest VALUE
at the block's end can still be reached. Checked on a small game of its own against
a model in plain Python (every way of playing the steps tried)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs

import rulepack
from rulepack.errors import RulepackError

# two tokens on a row of ten cells with walls; the steps of a "roll" move the
# tokens right onto empty cells; the turn uses as many steps as it can, the higher
# pips first; the game ends after one turn
TEMPLATE = """\
game steps {{
  players 1
}}
component token {{
  n: 1..2
}}
component wall {{
  n: 1..4
}}
zone board: grid 1 x 10
var left = {steps}
var used = 0
var pips = 0
define free(c, k) = c.col + k <= 10 and at(cell(board, 1, c.col + k)) == none
define mine() = [c for c in cells(board) if at(c) != none and at(c).kind == "token"]
define can_move() = any([any([free(c, k) for k in left]) for c in mine()])
define drop_one(xs, k) = [xs[i] for i in 0..count(xs) - 1 if i != first([j for j in 0..count(xs) - 1 if xs[j] == k])]
setup {{
{placing}
}}
play {{
  turns from 0 {{
    {block} {{
      while count(left) > 0 and can_move() {{
        choose {{
          action "{{c}}+{{k}}" for c in mine() for k in distinct(left) if free(c, k) {{
            move at(c) to cell(board, 1, c.col + k)
            set used = used + 1
            set pips = pips + k
            set left = drop_one(left, k)
          }}
        }}
      }}
    }}
    end game winners [current]
  }}
}}
"""


def ruleset(tokens: list[int], walls: list[int], steps: list[int],
            block: str = "maximize (used, pips)") -> str:
    placing = [f"  move token where n == {i + 1} to cell(board, 1, {c}) face up"
               for i, c in enumerate(tokens)]
    placing += [f"  move wall where n == {i + 1} to cell(board, 1, {c}) face up"
                for i, c in enumerate(walls)]
    return TEMPLATE.format(steps=steps, placing="\n".join(placing), block=block)


def name(col: int) -> str:
    return f"{'abcdefghij'[col - 1]}1"


def model_moves(tokens: list[int], walls: list[int], left: list[int]) -> list[tuple[int, int]]:
    full = set(tokens) | set(walls)
    return [(c, k) for c in sorted(tokens) for k in sorted(set(left), key=left.index)
            if c + k <= 10 and c + k not in full]


def model_best(tokens: list[int], walls: list[int], left: list[int]) -> tuple[int, int]:
    """(steps used, pips used) of the best way to play ``left`` from here."""
    best = (0, 0)
    for c, k in model_moves(tokens, walls, left):
        rest = list(left)
        rest.remove(k)
        used, pips = model_best([k + c if t == c else t for t in tokens], walls, rest)
        best = max(best, (used + 1, pips + k))
    return best


def model_legal(tokens: list[int], walls: list[int], left: list[int]) -> set[str]:
    """The moves that start a best way of playing ``left``."""
    top = model_best(tokens, walls, left)
    out = set()
    for c, k in model_moves(tokens, walls, left):
        rest = list(left)
        rest.remove(k)
        used, pips = model_best([k + c if t == c else t for t in tokens], walls, rest)
        if (used + 1, pips + k) == top:
            out.add(f"{name(c)}+{k}")
    return out


def test_a_move_that_leaves_a_step_unused_is_not_legal() -> None:
    # a token on 1 and on 6, walls on 4 and 8, steps 2 and 1: "a1+1" is a move, but
    # after it the 2 cannot be used (a1 -> c1 would need d1... the wall; f1+2 is h1,
    # the other wall); "a1+2" and "f1+1" both let the other step be used
    plain = rulepack.loads(ruleset([1, 6], [4, 8], [2, 1], block="if true"))
    assert [a.text for a in plain.new_game().legal_actions()] == ["a1+2", "a1+1", "f1+1"]
    game = rulepack.loads(ruleset([1, 6], [4, 8], [2, 1]))
    state = game.new_game()
    assert [a.text for a in state.legal_actions()] == ["a1+2", "f1+1"]
    state.apply("a1+2")
    # the 1 left: a1 is now c1, so c1+1 is the wall; only f1+1
    assert [a.text for a in state.legal_actions()] == ["f1+1"]


def test_if_only_one_step_can_be_used_the_higher_one() -> None:
    # one token on 1, a wall on 4: 2 then 1 or 1 then 2 both end on the wall, so one
    # step only; (used, pips) prefers the 2
    game = rulepack.loads(ruleset([1], [4], [2, 1]))
    state = game.new_game()
    assert [a.text for a in state.legal_actions()] == ["a1+2"]
    state.apply("a1+2")
    assert state.is_terminal()


@settings(max_examples=25, deadline=None)
@given(hs.data())
def test_every_legal_move_starts_a_best_way_and_every_best_way_is_legal(data: hs.DataObject
                                                                         ) -> None:
    cols = data.draw(hs.lists(hs.integers(1, 10), min_size=2, max_size=6, unique=True))
    tokens, walls = cols[:2], cols[2:]
    a, b = data.draw(hs.integers(1, 4)), data.draw(hs.integers(1, 4))
    steps = [a] * 4 if a == b else [a, b]       # a double is played four times
    state = rulepack.loads(ruleset(tokens, walls, steps)).new_game()
    target = model_best(tokens, walls, steps)
    left = list(steps)
    while not state.is_terminal():
        legal = {a.text for a in state.legal_actions()}
        assert legal == model_legal(tokens, walls, left)
        text = data.draw(hs.sampled_from(sorted(legal)))
        state.apply(text)
        col, k = "abcdefghij".index(text[0]) + 1, int(text.split("+")[1])
        tokens = [col + k if t == col else t for t in tokens]
        left.remove(k)
    # whichever legal moves were taken, the turn used as much as it could
    assert (state.position.vars["used"], state.position.vars["pips"]) == target


@pytest.mark.parametrize("body, message", [
    ("roll dice", "cannot draw chance"),
    ("maximize used { set used = 1 }", "cannot stand inside another"),
])
def test_what_a_maximize_block_may_not_hold(body: str, message: str) -> None:
    text = ruleset([1], [4], [2, 1]).replace(
        "      while count(left) > 0", f"      {body}\n      while count(left) > 0")
    text = text.replace("component wall {", "use piecepack (die)\ncomponent wall {") \
        if "roll" in body else text
    text = text.replace("zone board:", "zone dice: row\nzone board:")
    with pytest.raises(RulepackError, match=message):
        rulepack.loads(text)


def test_the_value_must_be_numbers() -> None:
    text = ruleset([1], [4], [2, 1], block='maximize "most"')
    with pytest.raises(RulepackError, match="maximize needs a number or a tuple of numbers"):
        rulepack.loads(text)
