"""The kind check of a second instance of one ruleset (another player count, other
options) is skipped only when it would read the same: every constant, option and
zone family of the same kind (rulepack.compiler.kinds.check_kinds)."""

from __future__ import annotations

import textwrap

import pytest

import rulepack
from rulepack.compiler import kinds
from rulepack.errors import SemanticError

RULES = textwrap.dedent('''
    game t { players 2..3 }
    component cube { called "{n}"  n: [1, 2, 3] }
    zone board: grid 3 x 3
    const way = WAY
    setup { move cube to board face up }
    play { let r = maximal run through cell(board, 1, 1) along way where n > 0 }
''')


@pytest.mark.parametrize("way", ["if count(players) == 2 then (0, 1) else 5",
                                 "if count(players) == 2 then 5 else (0, 1)"])
def test_a_kind_that_is_wrong_for_one_player_count_only_is_found(way):
    """``along`` needs a direction: a constant that is one for 2 players and a number
    for 3 (or the other way round) is refused, whichever count is compiled first."""
    with pytest.raises(SemanticError, match="along needs a direction"):
        rulepack.loads(RULES.replace("WAY", way))


def test_a_second_instance_of_the_same_kinds_is_not_walked_again(monkeypatch):
    walks = []
    check = kinds.KindChecker.check
    monkeypatch.setattr(kinds.KindChecker, "check", lambda self: walks.append(1) or check(self))
    game = rulepack.loads(RULES.replace("WAY", "(0, 1)"))       # 2 and 3 players compiled
    assert len(walks) == 1
    game.instance(3, {})
    assert len(walks) == 1
    other = rulepack.loads(RULES.replace("WAY", "if count(players) == 2 then (0, 1) else (1, 0)"))
    assert len(walks) == 2 and other.instance(2, {}) is not None   # same kinds: one walk
