"""Pictures of positions (``rulepack/render``, ``rulepack render``, ``replay --html``).

* every bundled and example ruleset renders at several positions, from the
  table's view and from every seat's: the SVG parses, the PNG is not blank;
* a seat's picture shows only what its view shows: dealing the pieces it
  cannot see differently (``determinize``, the bots' own permutation of hidden
  pieces) gives the same bytes, while the picture of a seat that saw those
  pieces changes; the table's picture is unchanged by any such permutation;
* pictures are deterministic, and the golden pictures ``docs/pictures/*.svg``
  (``tests/pictures.py``) are the same bytes;
* ``draw`` hints change the colour, shape and text of pieces; bad hints are
  located errors;
* ``rulepack render`` writes SVG or PNG by extension or ``--format``, for a
  ruleset after N decisions or a record at a step, from any view; bad
  arguments are usage errors, a step past the record's end a located error;
* ``rulepack replay --html`` writes one page that needs no network, with a
  picture per step and view and the move list.

Marked ``render``: run with ``python -m pytest -m render`` (needs the render extra).
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

try:
    import cairosvg  # noqa: F401
    import drawsvg  # noqa: F401
    from PIL import Image
except (ImportError, OSError) as exc:  # OSError: cairosvg without libcairo
    pytest.skip(f"the render extra is not installed: {exc}", allow_module_level=True)

from click.testing import CliRunner

import rulepack
from rulepack.agents.determinize import determinize
from rulepack.cli.main import main
from rulepack.engine.inspect import zone_labels, zone_pieces
from rulepack.engine.rng import Rng
from rulepack.errors import RulepackError
from rulepack.loader import bundled_rulesets
from rulepack.render.output import appearance, encode, picture
from rulepack.render.positions import played

from pictures import FOLDER, GOLDEN, golden_svg

pytestmark = pytest.mark.render

SVG = "{http://www.w3.org/2000/svg}"

#: ruleset → [(players, options, decisions)]: the setup, the middle, the end (or late)
POSITIONS = {
    "multzo": [(2, {}, 0), (3, {}, 25), (2, {}, 10**6)],
    "packkub": [(2, {"rounds": "1"}, 0), (4, {"jokers": "2", "rounds": "1"}, 30),
                (3, {"rounds": "1"}, 10**6)],
    "multiplay": [(2, {}, 0), (4, {}, 30), (2, {}, 10**6)],
    "mismemory": [(2, {}, 0), (3, {"grid": "line"}, 12), (2, {"grid": "4x6"}, 10**6)],
    "tic-tac-toe": [(2, {}, 0), (2, {}, 4), (2, {}, 10**6)],
    "connect-four": [(2, {}, 0), (2, {}, 9), (2, {}, 10**6)],
    "partners": [(4, {}, 0), (4, {}, 9), (4, {}, 10**6)],
    "ladders": [(1, {}, 0), (1, {}, 12), (1, {}, 10**6)],
    "pig": [(2, {}, 0), (3, {"goal": "20"}, 9), (4, {}, 10**6)],
    "four-field-kono": [(2, {}, 0), (2, {}, 20), (2, {}, 10**6)],
    "piecepack-tic-tac-toe": [(2, {}, 0), (2, {}, 4), (2, {}, 10**6)],
    "alquerque": [(2, {}, 0), (2, {}, 10), (2, {}, 10**6)],
    "american-checkers": [(2, {}, 0), (2, {}, 50), (2, {"huffing": "true"}, 10**6)],
    "tablut": [(2, {}, 0), (2, {}, 12), (2, {"modern_castle": "true"}, 10**6)],
    "fujisan": [(1, {}, 0), (1, {}, 8), (1, {"coins": "44452n24n3aa/a25335325ann"}, 10**6)],
    "nine-mens-morris": [(2, {}, 0), (2, {}, 30), (2, {}, 10**6)],
    "twelve-mens-morris": [(2, {}, 0), (2, {}, 30), (2, {}, 10**6)],
    "awithlaknannai-mosona": [(2, {}, 0), (2, {}, 12), (2, {}, 10**6)],
    "ludo": [(2, {}, 0), (4, {}, 40), (3, {}, 10**6)],
    "backgammon": [(2, {}, 0), (2, {}, 40), (2, {"doubling": True}, 10**6)],
}


@pytest.fixture(scope="module")
def games() -> dict[str, rulepack.Game]:
    return {name: rulepack.load(name) for name in POSITIONS}


def states(games, name):
    for seed, (players, options, after) in enumerate(POSITIONS[name], start=1):
        yield played(games[name], ["random"] * players, seed, options, after)


def svg_of(game, state, seat, looks=None) -> bytes:
    return encode(picture(game, state, seat, "", looks), "svg")


def test_every_bundled_ruleset_has_positions():
    assert set(POSITIONS) == set(bundled_rulesets())
    assert set(GOLDEN) == set(bundled_rulesets())


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_ruleset_renders_from_every_view(games, name):
    game = games[name]
    for k, state in enumerate(states(games, name)):
        looks = appearance(game, state)
        for seat in [None, *range(state.program.num_players)]:
            root = ET.fromstring(svg_of(game, state, seat, looks))
            assert root.tag == f"{SVG}svg"
            assert float(root.get("width")) > 100 and float(root.get("height")) > 100
            texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
            assert game.title in texts
            seats = state.view(0)["seats"]
            assert all(s in texts for s in seats)       # every seat's area, named
        if k == 1:
            png = encode(picture(game, state, 0, "", looks), "png")
            image = Image.open(io.BytesIO(png)).convert("RGB")
            colours = image.getcolors(maxcolors=1 << 20)
            assert colours is not None and len(colours) > 20   # not blank: many colours
            assert image.size[0] > 100


def hidden_titles(svg: bytes) -> int:
    return svg.count(b"<title>a face-down ")


@pytest.mark.parametrize("name", ["multzo", "packkub", "mismemory"])
def test_hidden_pieces_are_backs(games, name):
    """Dealing the pieces a seat cannot see another way changes nothing in its
    picture, nor in the table's; a seat that could see them sees the change."""
    game = games[name]
    changed_elsewhere = moved = 0
    for state in states(games, name):
        if state.is_terminal():
            continue
        looks = appearance(game, state)
        for seat in range(state.program.num_players):
            mine = svg_of(game, state, seat, looks)
            table = svg_of(game, state, None, looks)
            assert hidden_titles(mine) > 0
            for k in range(3):
                other = determinize(state.program, state.view(seat), Rng(100 + k))
                moved += places(other) != places(state)
                assert svg_of(game, other, seat, looks) == mine
                assert svg_of(game, other, None, looks) == table
                changed_elsewhere += sum(svg_of(game, other, q, looks)
                                         != svg_of(game, state, q, looks)
                                         for q in range(state.program.num_players) if q != seat)
    assert moved > 0                # the permutations did move pieces
    if name != "mismemory":         # (there nobody sees a face-down tile of the board)
        assert changed_elsewhere > 0    # ... pieces another seat could see


def places(state) -> list:
    """Every piece's name by zone, in zone order (the inspection API)."""
    return [[p.name for p in zone_pieces(state, z)] for z in zone_labels(state)]


def test_the_table_shows_less_than_a_seat(games):
    state = next(s for s in states(games, "packkub") if s.decisions == 30)
    game = games["packkub"]
    table, mine = svg_of(game, state, None, None), svg_of(game, state, 0, None)
    assert hidden_titles(table) > hidden_titles(mine)
    hand = len(state.view(0)["zones"]["hand[player 1]"]["pieces"])
    assert hidden_titles(table) - hidden_titles(mine) == hand


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_pictures(name):
    """docs/pictures/<name>.svg is this picture; regenerate with tests/pictures.py
    only for an intended change of the drawing."""
    assert golden_svg(name) == (FOLDER / f"{name}.svg").read_bytes()


def test_pictures_are_deterministic(games):
    game = games["multzo"]
    a = played(game, ["random"] * 3, 5, {}, 12)
    b = played(rulepack.load("multzo"), ["random"] * 3, 5, {}, 12)
    assert svg_of(game, a, 1) == svg_of(game, b, 1)
    assert encode(picture(game, a, None), "png") == encode(picture(game, b, None), "png")


# ---------------------------------------------------------------------- draw hints
HINTED = """
game hinted {
  players 2
  seats north, south
}
component stone {
  called "{colour} stone {n}"
  colour: black, white
  n: 1..2
  draw shape disc, symbol "{n}", colour by colour {black: "#101010", white: "ivory"}
}
component flag {
  called "flag"
  draw colour "gold"
}
zone board: grid 2 x 3
zone flags: row
setup {
  move stone to board face up
  move flag to flags face up
}
play {
  turns from north until true {
    choose {
      action "pass" {
      }
    }
  }
}
"""


def load_text(tmp_path: Path, text: str) -> rulepack.Game:
    path = tmp_path / "hinted.rules"
    path.write_text(text, encoding="utf-8")
    return rulepack.load(str(path))


def test_draw_hints_give_shape_colour_and_text(tmp_path):
    game = load_text(tmp_path, HINTED)
    state = game.new_game(2, seed=1)
    svg = svg_of(game, state, None).decode()
    assert svg.count('fill="#101010"') == 2 and svg.count('fill="ivory"') == 2
    assert svg.count('fill="gold"') == 1
    stones = re.findall(r"<circle [^>]*fill=\"(?:#101010|ivory)\"", svg)
    assert len(stones) == 4                                  # discs
    assert ">1</text>" in svg and ">2</text>" in svg         # the symbol: {n}
    plain = load_text(tmp_path, HINTED.replace("  draw shape disc, symbol \"{n}\", colour by "
                                               "colour {black: \"#101010\", white: \"ivory\"}\n",
                                               ""))
    svg = svg_of(plain, plain.new_game(2, seed=1), None).decode()
    assert "ivory" not in svg and "white stone 1" in svg     # without hints: the name


@pytest.mark.parametrize("hint,message,col", [
    ('draw colour "blurple"', "unknown colour 'blurple'", 3),
    ('draw colour by size {1: "red"}', "has no attribute 'size'", 3),
])
def test_bad_draw_hints_are_located(tmp_path, hint, message, col):
    text = HINTED.replace('  draw colour "gold"', "  " + hint)
    game = load_text(tmp_path, text)
    state = game.new_game(2, seed=1)
    with pytest.raises(RulepackError) as info:
        picture(game, state, None)
    d = info.value.diagnostics[0]
    assert message in d.message
    line = text.splitlines().index("  " + hint) + 1
    assert (d.location.line, d.location.column) == (line, col)


# ---------------------------------------------------------------------- the command
def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_render_writes_svg_and_png_by_extension(tmp_path):
    svg, png = tmp_path / "pos.svg", tmp_path / "pos.png"
    r = run("render", "multzo", "-n", "3", "--seed", "3", "--after", "20", "-o", str(svg))
    assert r.exit_code == 0, r.output
    assert svg.read_bytes() == (FOLDER / "multzo.svg").read_bytes()    # GOLDEN["multzo"]
    r = run("render", "multzo", "-n", "3", "--seed", "3", "--after", "20", "--output", str(png),
            "--view", "2")
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    other = tmp_path / "pos.img"
    r = run("render", "packkub", "-o", "jokers=1", "--format", "png", "-o", str(other))
    assert r.exit_code == 0, r.output
    assert other.read_bytes()[:4] == b"\x89PNG"
    r = run("render", "tic-tac-toe", "--after", "3")
    assert r.exit_code == 0 and r.stdout_bytes.startswith(b"<?xml")


@pytest.mark.parametrize("args,code,text", [
    (["--step", "3"], 2, "--step is for a record"),
    (["--view", "5"], 2, "is not 'table'"),
    (["-o", "a.svg", "-o", "b.svg"], 2, "more than one output file"),
    (["-o", "pos.gif"], 2, "cannot tell the format"),
    (["-n", "9"], 1, "player"),
])
def test_render_usage_errors(tmp_path, args, code, text):
    r = run("render", "multzo", *args)
    assert r.exit_code == code, r.output
    assert text in r.output


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "game.jsonl"
    r = run("play", "multzo", "--players", "2", "--seed", "6", "--json", "--record", str(path))
    assert r.exit_code == 0, r.output
    return path


def test_render_a_record_at_a_step(record, tmp_path):
    out = tmp_path / "s.svg"
    r = run("render", str(record), "--step", "5", "--view", "player 1", "-o", str(out))
    assert r.exit_code == 0, r.output
    # the record's step 5 is the game played by the same bots for 5 decisions
    game = rulepack.load("multzo")
    state = played(game, ["random", "random"], 6, {}, 5)
    expected = encode(picture(game, state, 0, "step 5 of " + str(_decisions(record))), "svg")
    assert out.read_bytes() == expected
    r = run("render", str(record), "--step", "100000")
    assert r.exit_code == 1 and "the record has only" in r.output
    r = run("render", str(record), "--after", "3")
    assert r.exit_code == 2


def _decisions(record: Path) -> int:
    return sum(1 for line in record.read_text().splitlines()
               if json.loads(line)["type"] == "decision")


def test_replay_page_is_self_contained(record, tmp_path):
    page = tmp_path / "game.html"
    r = run("replay", str(record), "--html", str(page))
    assert r.exit_code == 0, r.output
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text)
    assert "http://" not in text.replace("http://www.w3.org/", "")
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>',
                                text, re.S).group(1))
    n = _decisions(record)
    assert len(data["steps"]) == n + 1
    assert data["views"] == ["the table", "player 1", "player 2"]
    assert [len(m) for m in data["moves"]] == [n] * 3
    assert [len(m) for m in data["notes"]] == [n + 1] * 3

    def svg(step: int, view: int) -> str:
        return "\n".join(data["lines"][k] for first, count in data["steps"][step][view]
                         for k in range(first, first + count))
    for step in (0, n // 2, n):
        for view in range(3):
            ET.fromstring(svg(step, view).encode())
    assert svg(0, 0) != svg(1, 0) and svg(0, 1) != svg(0, 2)


def test_the_commands_of_docs_pictures_make_its_pictures(tmp_path):
    """docs/pictures.md shows each golden picture under the command that makes it."""
    import shlex
    text = (FOLDER.parent / "pictures.md").read_text(encoding="utf-8")
    commands = re.findall(r"^`(rulepack render [^`]*-o docs/pictures/([\w-]+)\.svg)`$", text,
                          re.M)
    assert sorted(name for _, name in commands) == sorted(GOLDEN)
    for command, name in commands:
        args = shlex.split(command)[1:]
        args[-1] = str(tmp_path / f"{name}.svg")
        r = run(*args)
        assert r.exit_code == 0, r.output
        assert (tmp_path / f"{name}.svg").read_bytes() == (FOLDER / f"{name}.svg").read_bytes()
        assert f"](pictures/{name}.svg)" in text


def test_a_die_roll_the_flow_holds_is_shown(games):
    """Multiplay's d12 (``let roll = random(1..12)``) is in every view's heading."""
    game = games["multiplay"]
    state = played(game, ["random"] * 2, 8, {}, 9)
    roll = state.view(0)["flow"]["vars"]["roll"]
    assert isinstance(roll, int) and 1 <= roll <= 12
    for seat in (None, 0, 1):
        assert f">roll {roll} · ".encode() in svg_of(game, state, seat)


def test_a_ppn_grid_is_labelled_by_its_names(tmp_path):
    """Issue 35, item 2: a grid declaring notation ppn shows its rows numbered from
    the bottom (and a grid beside the board its own coordinates) in the picture."""
    from test_notation import RULES
    path = tmp_path / "corner.rules"
    path.write_text(RULES.replace("NOTATION", "notation ppn"), encoding="utf-8")
    out = tmp_path / "corner.svg"
    result = CliRunner().invoke(main, ["render", str(path), "--seed", "1", "-o", str(out)])
    assert result.exit_code == 0, result.output
    texts = [t.text for t in ET.parse(out).getroot().iter() if t.tag.endswith("text")]
    board = texts.index("a")
    assert texts[board:board + 7] == ["a", "b", "c", "d", "3", "2", "1"]
    assert ["0", "6", "5"] == texts[texts.index("0"):texts.index("0") + 3]
