"""Reading PPN (issue 35): ppgames' records read into the moves ppgames' own parser
makes of them, and each move carried out on the table as ppgames does — checked
against ppgames' output for its records (tests/data/ppn/expected, see the README
there)."""

from __future__ import annotations

import functools

import json
from pathlib import Path

import random

import pytest
from hypothesis import given, settings, strategies as st

from rulepack.errors import RulepackError
from rulepack.ppn.movetext import expand_braces, read_ppn
from rulepack.ppn.table import PPNError, Row, Table, parse_place, parse_spec

DATA = Path(__file__).parent / "data" / "ppn"
RECORDS = sorted(p.stem for p in (DATA / "expected").glob("*.json"))
#: the records whose every move this reading carries out (the moves of issue 35's
#: games: drops, moves, stacks moved and removed, captures, swaps)
CARRIED_OUT = ["american-checkers", "four-field-kono", "fujisan", "relativity", "tablut",
               "tic-tac-toe"]


def expected(name: str) -> list[dict]:
    return json.loads((DATA / "expected" / f"{name}.json").read_text(encoding="utf-8"))["games"]


@pytest.mark.parametrize("name", RECORDS)
def test_a_record_reads_into_ppgames_moves(name):
    """Names, texts and comments as ppgames' read_ppn() gives them, for all 13 of its
    records (brace expansion, ';', move numbers, comments)."""
    games = read_ppn((DATA / f"{name}.ppn").read_text(encoding="utf-8"), f"{name}.ppn")
    theirs = expected(name)
    assert len(games) == len(theirs)
    for game, their in zip(games, theirs):
        assert game.metadata == their["metadata"]
        ours = [(m.name, m.text, m.comment) for m in game.moves]
        assert ours == [(m["name"], m["text"], m["comment"]) for m in their["moves"][1:]]


def rows(state: list[list]) -> list[tuple]:
    return [(r[0], r[1], r[2], r[3], float(r[4]) % 360, float(r[5]), float(r[6])) for r in state]


@pytest.mark.parametrize("name", CARRIED_OUT)
def test_each_move_of_a_record_leaves_the_table_ppgames_leaves(name):
    """From the start ppgames' setup gives, every move of the record carried out
    here leaves the same pieces, in the same stacking order, at the same places."""
    [their] = expected(name)
    [game] = read_ppn((DATA / f"{name}.ppn").read_text(encoding="utf-8"))
    table = Table([Row(str(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7])
                   for r in their["states"][0]])
    assert len(game.moves) == len(their["states"]) - 1
    for move, state in zip(game.moves, their["states"][1:]):
        table.apply(move.text)
        got = [(r.id, r.piece_side, r.suit, r.rank, float(r.angle) % 360, r.x, r.y)
               for r in table.rows]
        assert got == rows(state), f"{name} {move.name} {move.text}"


def test_places_and_pieces_are_read_as_ppn_writes_them():
    assert [parse_place(p) for p in ("a1", "b6", "aa12", "(0,5)", "(2.5,-3)")] == [
        (1, 1), (2, 6), (27, 12), (0, 5), (2.5, -3)]
    assert parse_spec("t") == ("tile_back", 1, 1, 0)
    assert parse_spec("S") == ("coin_back", 1, 1, 0)          # a suit alone: a coin's back
    assert parse_spec("5") == ("coin_face", 1, 6, 0)          # a rank alone: a coin's face
    assert parse_spec("M2") == ("tile_face", 2, 3, 0)         # both: a tile's face
    assert parse_spec("Mv") == ("coin_back", 2, 1, 180)
    assert parse_spec("Ma") == ("tile_face", 2, 2, 0) and parse_spec("Mn")[2] == 1
    assert parse_spec("pS")[0] == "pawn_face" and parse_spec("dS5")[:3] == ("die_face", 1, 6)
    assert expand_braces("a{1..3}") == ["a1", "a2", "a3"]
    assert expand_braces("x{S,M}@b2") == ["xS@b2", "xM@b2"]
    assert expand_braces("{x}") == ["{x}"]


@pytest.mark.parametrize("move, why", [
    ("b5-b4", "no piece at b5"),
    ("S@z", "'z' is not a place"),
    ("?Sd~3", "a move this reading does not carry out"),
    ("-b2", "nothing to name"),
])
def test_a_move_that_cannot_be_carried_out_says_why(move, why):
    table = Table([Row("1", "coin_back", 1, 1, 0, 1, 1)])
    with pytest.raises(PPNError, match=why):
        table.apply(move)


def test_a_header_that_is_not_yaml_is_a_located_error():
    with pytest.raises(RulepackError, match="header is not YAML") as info:
        read_ppn("---\nGameType: [Tablut\n...\n1. a4-a3\n", "bad.ppn")
    assert info.value.diagnostics[0].location.file == "bad.ppn"


def test_rs_random_generator_draws_as_r_does():
    """``set.seed(s)`` then ``sample.int``/``runif`` as R 4.2.2 draws them (the
    Mersenne Twister, rejection sampling), for the records' seed 42 and eleven
    others; the numbers come from ``Rscript tests/data/ppn/r-random.R``."""
    from rulepack.ppn.rrandom import RRandom
    for case in json.loads((DATA / "r-random.json").read_text(encoding="utf-8")):
        r = RRandom(int(case["seed"]))
        assert r.sample_int(6) == case["sample6"], case["seed"]
        assert r.sample_int(24) == case["sample24"]
        assert r.sample_int(6, 4, replace=True) == case["dice"]
        assert r.sample_int(4, 20, replace=True) == case["four"]
        assert r.sample_int(100, 3) == case["hundred"]
        assert r.sample_int(70000, 5) == case["big"]
        assert [r.unif_rand() for _ in range(3)] == pytest.approx(case["runif"], abs=1e-15)


@pytest.mark.skipif(__import__("shutil").which("Rscript") is None, reason="needs R (Rscript)")
def test_the_stored_draws_are_what_r_draws_now():
    """Where R is installed (Debian: r-base-core), it still draws the stored numbers."""
    import subprocess
    out = subprocess.run(["Rscript", str(DATA / "r-random.R")], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    assert json.loads(out) == json.loads((DATA / "r-random.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------------- import
KONO = (DATA / "four-field-kono.ppn").read_text(encoding="utf-8")


def run(*args: str):
    from click.testing import CliRunner

    from rulepack.cli.main import main
    return CliRunner().invoke(main, list(args))


def test_a_record_imports_move_by_move_and_its_record_replays(tmp_path):
    """``rulepack ppn import``: each PPN move is the one legal action that relocates
    the pieces as it says (the ruleset from GameType: Four Field Kono); the game is
    written as a rulepack record that ``replay`` verifies."""
    record = tmp_path / "game.jsonl"
    result = run("ppn", "import", str(DATA / "four-field-kono.ppn"), "-o", str(record))
    assert result.exit_code == 0, result.output
    assert "32 moves, astronomical wins" in result.output
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0 and "32 decisions, winners: astronomical" in replayed.output


def test_a_move_no_legal_action_makes_is_an_error_naming_it(tmp_path):
    bad = tmp_path / "bad.ppn"
    bad.write_text(KONO.replace("2. c1:c3", "2. c1-c2"), encoding="utf-8")
    result = run("ppn", "import", str(bad))
    assert result.exit_code == 1
    assert "move 2. c1-c2: no legal action of Four Field Kono does this; the nearest:" in \
        result.output
    gone = tmp_path / "gone.ppn"
    gone.write_text(KONO.replace("2. c1:c3", "2. d3-d2"), encoding="utf-8")   # d3 is empty
    assert "move 2. d3-d2: no piece at d3" in run("ppn", "import", str(gone)).output


def test_a_failed_move_shows_the_position_and_draws_it(tmp_path):
    """The issue's error: the move's number and text, the position (text and, with
    --picture, an image) and the nearest legal actions."""
    bad = tmp_path / "bad.ppn"
    bad.write_text(KONO.replace("2. c1:c3", "2. c1-c2"), encoding="utf-8")
    result = run("ppn", "import", str(bad))
    lines = result.output.splitlines()
    at = lines.index("  board:")
    # after 1. b1:b3 1... d3:b3 (rows from the top: astronomical's suns and moons)
    assert lines[at + 1].split() == ["a", "b", "c", "d"]
    assert lines[at + 2].split() == ["4", "S", "S", "M", "M"]
    assert lines[at + 3].split() == ["3", "S", "M", "M", "."]
    assert lines[at + 5].split() == ["1", "A", ".", "C", "C"]
    pytest.importorskip("drawsvg")
    picture = tmp_path / "where.svg"
    result = run("ppn", "import", str(bad), "--picture", str(picture))
    assert result.exit_code == 1 and picture.read_bytes().startswith(b"<?xml")
    assert "bad.ppn:" in result.output and "no legal action" in result.output


def test_a_record_without_a_ruleset_says_how_to_give_one(tmp_path):
    result = run("ppn", "import", str(DATA / "tic-tac-toe.ppn"))
    assert result.exit_code == 1 and "give one with --ruleset" in result.output
    odd = tmp_path / "odd.ppn"
    odd.write_text("---\nGameType:\n  Name: Four Field Kono\n  Coins: abc\n...\n1. b1:b3\n",
                   encoding="utf-8")
    result = run("ppn", "import", str(odd))
    assert result.exit_code == 1
    assert "GameType gives Coins: 'abc', and Four Field Kono has no option 'coins'" in \
        result.output


def test_check_imports_every_record_of_a_folder(tmp_path):
    """``rulepack ppn check DIR``: one line a game, ok or its first error; exit 1 if
    any game does not import."""
    (tmp_path / "a.ppn").write_text(KONO, encoding="utf-8")
    result = run("ppn", "check", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("a.ppn: 32 moves, astronomical wins, ok")
    (tmp_path / "b.ppn").write_text(KONO.replace("16... d4:d2", "16... d4-d3"),
                                    encoding="utf-8")
    result = run("ppn", "check", str(tmp_path))
    assert result.exit_code == 1
    assert "b.ppn: error: move 16... d4-d3: no legal action" in result.output


# ---------------------------------------------------------------------- export
def ppn_rulesets() -> list[str]:
    """The bundled rulesets with a board named as PPN names it."""
    import rulepack
    from rulepack.loader import bundled_rulesets
    out = []
    for name in bundled_rulesets():
        game = rulepack.load(name)
        zones = game.new_game(game.min_players, seed=0).program.zones
        if any(z.kind == "grid" and z.notation is not None for z in zones):
            out.append(name)
    return out


def test_every_bundled_ruleset_with_a_ppn_board_is_checked_here():
    assert ppn_rulesets() == ["alquerque", "american-checkers", "four-field-kono", "fujisan",
                              "ludo", "nine-mens-morris", "piecepack-tic-tac-toe", "tablut",
                              "twelve-mens-morris"]


@functools.lru_cache(maxsize=None)
def _loaded(name: str):
    import rulepack
    return rulepack.load(name)


def assert_round_trip(name: str, seed: int, limit: int | None = None) -> None:
    """A random game of ``name`` (at most ``limit`` decisions), exported as PPN and
    imported again: the same actions, to the same end."""
    from rulepack.ppn.export import ppn_text
    from rulepack.ppn.importer import import_game
    game = _loaded(name)
    state = game.new_game(game.min_players, seed=seed)
    rng = random.Random(seed)
    decisions = []
    while not state.is_terminal() and (limit is None or len(decisions) < limit):
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        decisions.append((state.current_player, action.text))
        state.apply(action)
    text = ppn_text(game, game.new_game(game.min_players, seed=seed), decisions, seed)
    [record] = read_ppn(text, "exported.ppn")
    imported = import_game(record, game, "exported.ppn")
    assert [a.text for _, a in imported.moves if a is not None] == \
        [t for _, t in decisions], (name, seed)
    assert imported.state.is_terminal() == state.is_terminal(), (name, seed)
    assert imported.state.result() == state.result(), (name, seed)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2 ** 31 - 1), data=st.data())
def test_an_exported_game_imports_back_to_the_same_game(seed, data):
    """``ppn export`` then ``ppn import``: random games of every bundled ruleset with
    a PPN board come back as the same actions, to the same end."""
    assert_round_trip(data.draw(st.sampled_from(ppn_rulesets())), seed, limit=80)


def test_export_writes_the_moves_as_ppgames_recorded_them(tmp_path):
    """The record imported from ppgames and exported again has the same moves."""
    record = tmp_path / "game.jsonl"
    assert run("ppn", "import", str(DATA / "four-field-kono.ppn"), "-o", str(record)).exit_code == 0
    out = tmp_path / "again.ppn"
    result = run("ppn", "export", str(record), "-o", str(out))
    assert result.exit_code == 0, result.output
    [ours] = read_ppn(out.read_text(encoding="utf-8"))
    [theirs] = read_ppn(KONO)
    assert [(m.name, m.text) for m in ours.moves] == [(m.name, m.text) for m in theirs.moves]


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_the_round_trip_is_the_identity_on_a_thousand_games(chunk):
    """Issue 35's figure: export then import is the identity on 1,000 random games
    of the bundled rulesets with a PPN board (50 games a chunk; ``-m slow``), each
    played to its end or to 120 decisions (the long solitaire and race games: Fuji-san
    and Ludo take about a second a whole game)."""
    names = ppn_rulesets()
    for seed in range(chunk * 50, chunk * 50 + 50):
        assert_round_trip(names[seed % len(names)], seed, limit=120)
