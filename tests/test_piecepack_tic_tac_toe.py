"""Tic-Tac-Toe in ppgames' piecepack layout (rulepack/rulesets/piecepack-tic-tac-toe.rules):
the same game as tic-tac-toe.rules, its moves written in PPN, and ppgames' record
of a game (tests/data/ppn/tic-tac-toe.ppn) imported move by move."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulepack
from rulepack.ppn.importer import import_game
from rulepack.ppn.movetext import read_ppn

PIECEPACK = rulepack.load("piecepack-tic-tac-toe")
PLAIN = rulepack.load("tic-tac-toe")
RECORD = Path(__file__).parent / "data" / "ppn" / "tic-tac-toe.ppn"


def test_ppgames_record_imports_and_x_wins_as_its_result_says():
    """The record has no GameType (its ruleset is given); its ``setup. t@b2`` lays the
    board tile, which is no piece of the ruleset; then X (Suns coin backs) and O
    (Moons) drop coins until ``4. S@b1 {X wins}`` (the header's ``Result: 1-0``)."""
    [record] = read_ppn(RECORD.read_text(encoding="utf-8"), RECORD.name)
    assert record.metadata["Result"] == "1-0" and "GameType" not in record.metadata
    imported = import_game(record, PIECEPACK, RECORD.name)
    assert [a.text for _, a in imported.moves if a is not None] == [
        "S@b2", "M@a2", "S@c1", "M@a3", "S@a1", "M@c3", "S@b1"]
    assert imported.moves[0][1] is None                       # setup. t@b2: the table's
    assert imported.state.is_terminal() and imported.state.result()["winners"] == [0]


@pytest.mark.parametrize("seed", range(20))
def test_it_is_the_same_game_as_tic_tac_toe(seed):
    """The same choices (by their place in the legal actions) give the same game: the
    same number of actions at every step and the same winners. Only the names differ:
    PPN counts rows from the bottom, tic-tac-toe.rules from the top."""
    a, b = PIECEPACK.new_game(2, seed=seed), PLAIN.new_game(2, seed=seed)
    rng = random.Random(seed)
    while not a.is_terminal():
        legal_a, legal_b = a.legal_actions(), b.legal_actions()
        assert len(legal_a) == len(legal_b)
        i = rng.randrange(len(legal_a))
        pa, pb = legal_a[i].text[2:], legal_b[i].text.split()[-1]     # "S@b1", "mark b3"
        assert pa[0] == pb[0] and int(pa[1]) == 4 - int(pb[1])
        a.apply(legal_a[i])
        b.apply(legal_b[i])
    assert b.is_terminal() and a.result()["winners"] == b.result()["winners"]
