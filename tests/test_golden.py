"""Golden playthroughs and perft counts (tests/golden.py): the engine plays every
recorded game exactly as it did when it was recorded, step by step, and counts
the same legal-action trees.

A failure names the ruleset, configuration, seed and step of the first
divergence. Regenerating the data is allowed only with a note saying why the
behaviour changed (see the docstring of tests/golden.py).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import golden
from rulepack.engine import inspect
from rulepack.loader import bundled_rulesets

RULESETS = list(golden.CONFIGS)
DATA = {name: golden.read(name) for name in RULESETS}
PERFT = golden.read("perft")["perft"]
GAMES = [(name, g) for name in RULESETS for g in DATA[name]["games"]]


def game_id(item: tuple[str, dict[str, Any]]) -> str:
    return f"{item[1]['config']} seed {item[1]['seed']}"


@pytest.mark.parametrize("item", GAMES, ids=[game_id(i) for i in GAMES])
def test_recorded_game_replays_identically(item: tuple[str, dict[str, Any]]) -> None:
    _, record = item
    divergence = golden.check_game(record)
    assert divergence is None, divergence


@pytest.mark.parametrize("entry", PERFT, ids=[f"{e['config']} seed {e['seed']} +{e['prefix']}"
                                              for e in PERFT])
def test_perft_counts(entry: dict[str, Any]) -> None:
    config = golden.find_config(entry["config"])
    record = golden.find_record(DATA[config.ruleset], entry["config"], entry["seed"])
    difference = golden.check_perft(entry, record)
    assert difference is None, difference


def test_every_bundled_ruleset_and_configuration_is_recorded() -> None:
    assert sorted(RULESETS) == bundled_rulesets()
    for name, configs in golden.CONFIGS.items():
        expected = [(c.name, s) for c in configs for s in c.seeds]
        recorded = [(g["config"], g["seed"]) for g in DATA[name]["games"]]
        assert recorded == expected, f"{name}: tests/data/golden differs from CONFIGS; regenerate"
    assert [(e["config"], e["seed"], e["prefix"], e["depth"]) for e in PERFT] == \
        [(p.config.name, p.seed, p.prefix, p.depth) for p in golden.PERFT]


# ------------------------------------------------------------------ the checker can fail
SMALL = next(g for g in DATA["multzo"]["games"] if g["config"] == "multzo 3p" and g["seed"] == 1)


def corrupted(change: Any) -> dict[str, Any]:
    record = copy.deepcopy(SMALL)
    change(record)
    return record


def flip_hex(h: str) -> str:
    return ("1" if h[0] == "0" else "0") + h[1:]


def test_an_altered_state_hash_is_reported_at_its_step() -> None:
    def alter(r: dict[str, Any]) -> None:
        r["steps"][6][2] = flip_hex(r["steps"][6][2])
    message = golden.check_game(corrupted(alter))
    assert message is not None
    assert message.startswith("multzo 3p seed 1, step 7 (action ")
    assert "state hash" in message


def test_an_altered_start_is_reported_at_step_0() -> None:
    message = golden.check_game(corrupted(lambda r: r.update(start=flip_hex(r["start"]))))
    assert message is not None and "step 0" in message


def test_an_altered_legal_action_count_is_reported() -> None:
    def alter(r: dict[str, Any]) -> None:
        r["steps"][3][1] += 1
    message = golden.check_game(corrupted(alter))
    assert message is not None and "step 4" in message and "legal actions" in message


def test_an_action_no_longer_legal_is_reported() -> None:
    def alter(r: dict[str, Any]) -> None:
        r["steps"][2][0] = "dance on the table"
    message = golden.check_game(corrupted(alter))
    assert message is not None and "step 3" in message and "not among the legal" in message


def test_another_legal_action_than_the_policy_picks_is_reported() -> None:
    k = next(i for i, step in enumerate(SMALL["steps"]) if step[1] > 1)
    state = golden.replay_prefix(golden.find_config("multzo 3p"), SMALL, k)
    other = next(a.text for a in state.legal_actions() if a.text != SMALL["steps"][k][0])

    def alter(r: dict[str, Any]) -> None:
        r["steps"][k][0] = other
    message = golden.check_game(corrupted(alter))
    assert message is not None and f"step {k + 1}" in message
    assert "random policy picks" in message


def test_a_different_result_or_length_is_reported() -> None:
    def alter(r: dict[str, Any]) -> None:
        r["result"]["scores"][0] += 1
    message = golden.check_game(corrupted(alter))
    assert message is not None and "result" in message
    message = golden.check_game(corrupted(lambda r: r["steps"].pop()))
    assert message is not None and "not over" in message


def test_an_altered_perft_count_is_reported() -> None:
    entry = copy.deepcopy(next(e for e in PERFT if e["config"] == "mismemory 2p"
                               and e["prefix"] == 30))
    entry["counts"] = entry["counts"][:2]
    entry["counts"][1] += 1
    record = golden.find_record(DATA["mismemory"], entry["config"], entry["seed"])
    message = golden.check_perft(entry, record)
    assert message is not None and "perft(2)" in message


def test_the_summary_sees_order_faces_owners_and_variables() -> None:
    """The hash changes when anything it promises to cover changes (positions
    edited through their documented JSON form)."""
    def rebuilt(ruleset: str, data: dict[str, Any]) -> str:
        return golden.state_hash(golden.game(ruleset).state_from_json(data))

    state = golden.new_game(golden.find_config("multiplay 2p"), 0)
    data = state.to_json()
    assert rebuilt("multiplay", data) == golden.state_hash(state)
    piece = inspect.grid_cells(state, "board")[0][1]
    assert piece is not None
    for change in (lambda d: d.update(face_up=sorted(set(d["face_up"]) ^ {piece.id})),
                   lambda d: d["owner"].append([piece.id, {"player": 1}]),
                   lambda d: d["variables"].update(points=[0, 1])):
        other = copy.deepcopy(data)
        change(other)
        assert rebuilt("multiplay", other) != golden.state_hash(state)

    state = golden.new_game(golden.find_config("multzo 3p"), 0)
    data = copy.deepcopy(state.to_json())
    stack = inspect.zone_labels(state).index("stack")
    data["zones"][stack][:2] = data["zones"][stack][1::-1]
    assert rebuilt("multzo", data) != golden.state_hash(state)
