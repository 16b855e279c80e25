"""What a score reads (rulepack.analysis.reads): the zones and variables found in the
IR, ``None`` for anything else, and the score cache that re-reads only on a change."""

from __future__ import annotations

from typing import Any

import pytest

import rulepack
from rulepack.analysis import trace
from rulepack.analysis.reads import frozen, score_reads
from rulepack.analysis.runner import game_seed
from rulepack.engine.state import State

try:
    from bundled import bundled
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled

HEAD = """game t { players 2 }
component chip { colour: red, blue }
zone bag: pile
zone pot: pile per player
var points per player = 0
var bonus = 1
{extra}
score(p) = {score}
winner highest score
setup { }
play { turns from players[0] until next == players[0] { choose { action "pass" { } } } }
"""


def reads_of(score: str, extra: str = "") -> Any:
    game = rulepack.loads(HEAD.replace("{score}", score).replace("{extra}", extra))
    inst = game.instance(2, None)
    zones = {z.index: z.label for z in inst.zone_refs}
    found = score_reads(inst)
    return None if found is None else ([zones[z] for z in found[0]], found[1])


def test_zones_and_variables_a_score_reads():
    assert reads_of("points[p]") == ([], ["points"])
    assert reads_of("count(pot[p]) * bonus") == (["pot[player 1]", "pot[player 2]"], ["bonus"])
    assert reads_of("count(bag where colour == red)") == (["bag"], [])
    assert reads_of("if current == p then 1 else round") == ([], ["current", "round"])
    # a define is followed into its body
    assert reads_of("reds(p)", "define reds(q) = count(pot[q] where colour == red)") == (
        ["pot[player 1]", "pot[player 2]"], [])


@pytest.mark.parametrize("score", [
    "count(bag where face == up)",          # a piece's face
    "count(bag where owner == p)",          # its owner
    "count(others)",                        # the turn order
    "if next == p then 1 else 0",
    "count(bag where zone == bag)",         # where a piece is
])
def test_a_score_that_reads_more_is_read_every_time(score: str):
    assert reads_of(score) is None


def test_frozen_copies_plain_values_and_refuses_zones():
    value = {"a": [1, 2]}
    copy = frozen(value)
    value["a"].append(3)
    assert copy != frozen(value) and copy == frozen({"a": [1, 2]})
    assert frozen(1) != frozen(True) and frozen([1]) != frozen([1.0])
    inst = rulepack.loads(HEAD.replace("{score}", "0").replace("{extra}", "")).instance(2, None)
    with pytest.raises(TypeError):
        frozen([inst.zone_refs[1]])


def test_the_cache_gives_fresh_scores_with_fewer_reads(monkeypatch):
    """20 Multzo games watched: at every turn's first decision the cached scores
    equal a fresh reading, and the scores are computed far less often."""
    game = bundled("multzo")
    asked = computed = 0
    real_cache = trace.ScoreCache

    class Checked(real_cache):  # type: ignore[misc,valid-type]
        def scores(self, st: State) -> Any:
            nonlocal asked
            asked += 1
            got = super().scores(st)
            assert got == State.scores(st)
            return got

    def counting(st: State) -> Any:
        nonlocal computed
        computed += 1
        return State.scores(st)

    monkeypatch.setattr(trace, "ScoreCache", lambda read, reads: Checked(counting, reads))
    for i in range(20):
        trace.observe(game, game_seed(5, i), ["random"] * 3, None, 10_000)
    assert asked > 200 and computed < asked / 3


@pytest.mark.parametrize("name", ["multzo", "packkub", "multiplay", "mismemory", "tic-tac-toe",
                                  "connect-four"])
def test_legal_actions_come_grouped_by_alternative(name: str):
    """What the watcher's coverage count relies on: the alternatives of the legal
    actions never decrease, at every decision of random games."""
    from rulepack.engine.rng import Rng
    game = bundled(name)
    players = 3 if name in ("multzo", "packkub") else 2
    for seed in range(1 if name == "packkub" else 2):     # a PackKub game is long
        st = game.new_game(players, seed=seed)
        rng = Rng(seed)
        while not st.is_terminal():
            alts = [a.alt for a in st.legal_actions()]
            assert alts == sorted(alts)
            st.apply(st.legal_actions()[rng.below(len(alts))])
