"""A seat name takes over a word (docs/language.md, `game`): a component's value
written with a seat's name is an error located at the word, saying why."""

from __future__ import annotations

import pytest

import rulepack
from rulepack.errors import RulepackError

SHADOW = """\
game shadow {
  players 2
  seats red, yellow
}
component disc {
  colour: green, yellow, blue
}
"""


def test_the_error_is_at_the_word_and_says_why():
    with pytest.raises(RulepackError) as info:
        rulepack.loads(SHADOW, "shadow.rules")
    diag = info.value.diagnostics[0]
    assert diag.message.startswith("'yellow' is a seat name here (a value of attribute "
                                   "'colour' cannot be a player): the seat yellow takes over "
                                   "the word 'yellow' everywhere in the ruleset")
    assert (diag.location.line, diag.location.column) == (6, 18)


def test_a_text_or_another_seat_name_is_fine():
    rulepack.loads(SHADOW.replace("yellow, blue", '"yellow", blue'))
    rulepack.loads(SHADOW.replace("seats red, yellow", "seats red, gold"))
