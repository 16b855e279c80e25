"""The replay page holds, for a seat, only what that seat may know; its texts are inert.

* ``rulepack replay RECORD --html PAGE --view SEAT`` writes the page of one seat:
  for every bundled ruleset with hidden information and every seat, no piece the
  seat never saw is named anywhere in the bytes of its page, and at each step the
  picture, the move and what the step told name only pieces the seat had seen by
  then (what it saw: every position, and every move and flip inside a step,
  :func:`rulepack.engine.sightings.apply_watched`);
* the page of every seat (``--view all``, the default) reads each seat's moves as
  that seat was told them (Multzo's ``discard a tile face down``), names every
  piece in the table's move list, and says so;
* texts from a ruleset (title, action and ``say`` texts, piece names) carry no
  markup and no control character into the page.

Marked ``render``: run with ``python -m pytest -m render`` (needs the render extra).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

try:
    import cairosvg  # noqa: F401
    import drawsvg  # noqa: F401
except (ImportError, OSError) as exc:  # OSError: cairosvg without libcairo
    pytest.skip(f"the render extra is not installed: {exc}", allow_module_level=True)

from click.testing import CliRunner

from rulepack.cli.main import main
from rulepack.engine.observe import game_type
from rulepack.engine.sightings import apply_watched
from rulepack.loader import bundled_rulesets
from rulepack.records import read_record, replay
from rulepack.engine.queries import visible

try:
    from bundled import bundled
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled

pytestmark = pytest.mark.render

#: The decisions of a record kept for a page (a page draws every step: keep it short).
DECISIONS = 40


def _hidden_information() -> dict[str, int]:
    """Bundled ruleset → its smallest player count, for those with hidden information."""
    out = {}
    for name in bundled_rulesets():
        game = bundled(name)
        state = game.new_game(game.min_players, seed=1)
        if game_type(state.program, state.position)["information"] == "imperfect":
            out[name] = game.min_players
    return out


HIDDEN = _hidden_information()


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def short_record(name: str, players: int, folder: Path, seed: int = 3) -> Path:
    """A record of bots playing ``name``, cut after :data:`DECISIONS` decisions
    (an interrupted game, as a quit leaves it)."""
    whole = folder / f"{name}-whole.jsonl"
    r = run("play", name, "--players", str(players), "--seed", str(seed), "--json",
            "--record", str(whole))
    assert r.exit_code == 0, r.output
    kept, decisions = [], 0
    for line in whole.read_text(encoding="utf-8").splitlines():
        if json.loads(line)["type"] == "decision":
            if decisions == DECISIONS:
                break
            decisions += 1
        kept.append(line)
    path = folder / f"{name}.jsonl"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def page(record: Path, view: str) -> tuple[str, dict[str, Any]]:
    """The page ``replay --html --view VIEW`` writes: its text and its JSON data."""
    out = record.with_name(f"{record.stem}-{view}.html")
    r = run("replay", str(record), "--html", str(out), "--view", view)
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script id="data" type="application/json">(.*?)</script>',
                                text, re.S).group(1))
    return text, data


def sightings(record: Path) -> list[list[set[int]]]:
    """``seen[step][seat]``: the ids of the pieces ``seat`` had seen by the end of
    ``step`` (step 0: the start), at a position or inside a step."""
    seen: list[list[set[int]]] = []
    during: list[dict[int, dict[int, int]]] = []

    def mark(state: Any) -> None:
        """Close a step: what was seen inside it and at the position it left."""
        now = [{p.id for p in state.program.pieces if visible(state.position, p, seat)}
               for seat in range(state.program.num_players)]
        if during:
            inside = during.pop()
            now = [now[seat] | set(inside[seat]) for seat in range(len(now))]
        if seen:
            now = [a | b for a, b in zip(seen[-1], now)]
        seen.append(now)

    def before(state: Any, player: int, index: int) -> None:
        mark(state)
        during.append(apply_watched(state.clone(), state.legal_actions()[index],
                                    list(range(state.program.num_players))))

    done = replay(read_record(record), on_decision=before)
    mark(done.state)
    return seen


def named_unseen(texts: list[str], names: dict[int, str], seen: set[int]) -> list[str]:
    """The names of pieces not in ``seen`` that ``texts`` hold, once the names of
    the pieces seen are taken out (longest first: ``"2 of suns coin"`` holds
    ``"2 of suns"``)."""
    shown = sorted({names[i] for i in seen}, key=len, reverse=True)
    unseen = {names[i] for i in names if i not in seen} - set(shown)
    found = set()
    for text in texts:
        rest = text
        for name in shown:
            rest = rest.replace(name, "\0")
        found |= {name for name in unseen if name in rest}
    return sorted(found)


def strings(data: Any) -> list[str]:
    """Every string in JSON data."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, list):
        return [s for item in data for s in strings(item)]
    if isinstance(data, dict):
        return [s for item in data.values() for s in strings(item)]
    return []


def svg(data: dict[str, Any], step: int, view: int) -> str:
    return "\n".join(data["lines"][k] for first, count in data["steps"][step][view]
                     for k in range(first, first + count))


def test_hidden_information_rulesets_are_found():
    assert {"multzo", "mismemory", "packkub", "partners", "ladders"} <= set(HIDDEN)


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_a_seats_page_names_no_piece_hidden_from_it(name, tmp_path):
    players = HIDDEN[name]
    record = short_record(name, players, tmp_path)
    seen = sightings(record)
    game = bundled(name)
    pieces = game.new_game(players, seed=1).program.pieces
    names = {p.id: p.name for p in pieces}
    seats = read_record(record).header["seats"]
    for seat in range(players):
        text, data = page(record, str(seat + 1))
        assert data["views"] == [seats[seat]] and "only what" in data["notice"]
        assert len(seen[0][seat]) < len(pieces), f"{seats[seat]} sees every piece"
        # the whole page, its bytes and every string of its data
        leaked = named_unseen([text] + strings(data), names, seen[-1][seat])
        assert not leaked, f"{name}: {seats[seat]}'s page names {leaked}, never seen"
        # each step: its picture, its move and what it told, by what was seen by then
        steps = len(data["steps"])
        assert steps == len(seen)
        for step in range(steps):
            told = [svg(data, step, 0)] + data["notes"][0][step]
            if step:
                told.append(data["moves"][0][step - 1])
            leaked = named_unseen(told, names, seen[step][seat])
            assert not leaked, f"{name}, step {step}: {seats[seat]} is told {leaked} too soon"


def test_every_seats_page_tells_each_seat_its_own_story(tmp_path):
    """The issue's case: player 2 reads player 1's face-down discard as ``a tile``,
    on the page of every seat too; the table's move list names it, and the page
    says that it names every piece."""
    record = short_record("multzo", 2, tmp_path, seed=6)
    seen = sightings(record)
    names = {p.id: p.name for p in bundled("multzo").new_game(2, seed=1).program.pieces}
    text, data = page(record, "all")
    assert data["views"] == ["the table", "player 1", "player 2"]
    assert "names every piece" in data["notice"] and "names every piece" in text
    down = [k for k, move in enumerate(data["moves"][0])
            if move.startswith(f"{k + 1}. player 1: discard ") and "face down" in move]
    assert down, "player 1 never discards face down in this game"
    for k in down:
        assert data["moves"][2][k] == f"{k + 1}. player 1: discard a tile face down to end " \
                                      "the round"
        assert data["moves"][1][k].startswith(f"{k + 1}. player 1 (you): discard ")
        assert "a tile" not in data["moves"][1][k]
    # the table's story names pieces player 2 had not seen by then (the check of
    # test_a_seats_page_names_no_piece_hidden_from_it finds them); the seats' do not
    for view, seat, leaks in ((0, 1, True), (1, 0, False), (2, 1, False)):
        early = [k for k, move in enumerate(data["moves"][view])
                 if named_unseen([move] + data["notes"][view][k + 1], names, seen[k + 1][seat])]
        assert bool(early) == leaks, (view, [data["moves"][view][k] for k in early])
    # the pictures of a seat are those of its own page
    _, own = page(record, "2")
    assert [svg(own, s, 0) for s in range(len(own["steps"]))] == \
        [svg(data, s, 2) for s in range(len(data["steps"]))]
    assert own["moves"][0] == data["moves"][2] and own["notes"][0] == data["notes"][2]


def test_view_is_checked(tmp_path):
    record = short_record("multzo", 2, tmp_path)
    out = tmp_path / "p.html"
    for bad in ("3", "table", "nobody"):
        r = run("replay", str(record), "--html", str(out), "--view", bad)
        assert r.exit_code == 2 and "'all', a seat number (1-2)" in r.output, r.output
        assert "Traceback" not in r.output and not out.exists()
    r = run("replay", str(record), "--view", "1")
    assert r.exit_code == 2 and "--view is for the page" in r.output
    r = run("replay", str(record), "--html", str(out), "--view", "Player 2")
    assert r.exit_code == 0 and "replay viewer of player 2" in r.output
    # seat names from a record reach the terminal inert
    lines = record.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["seats"] = ["red\x1b[2J", "blue"]
    record.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    for view, code in (("3", 2), ("1", 0)):
        r = run("replay", str(record), "--html", str(out), "--view", view)
        assert r.exit_code == code and "red\\x1b[2J" in r.output, r.output
        assert "Error" in r.output or "replay viewer of red\\x1b[2J" in r.output


#: A ruleset whose title, piece names, action and ``say`` texts hold markup and
#: control characters.
MARKUP = Path(__file__).parent / "data" / "markup.rules"

#: Control characters no page may hold (the newline is the page's own).
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("view", ["all", "1"])
def test_ruleset_texts_stay_inert_on_the_page(view, tmp_path):
    record = tmp_path / "game.jsonl"
    r = run("play", str(MARKUP), "--players", "2", "--seed", "1", "--json",
            "--record", str(record))
    assert r.exit_code == 0, r.output
    text, data = page(record, view)
    # the page's own two scripts, no other element from the ruleset's texts
    assert re.findall(r"<(script|img)\b", text) == ["script", "script"]
    # a title holding the page's own placeholder "@DATA@" keeps it as its text
    assert re.search(r"<title>[^<]*@DATA@: replay of [^<]*</title>", text)
    assert text.count('<script id="data"') == 1
    assert not CONTROL.search(text)
    for s in strings(data):
        assert not CONTROL.search(s), s
    # shown as text: the markup escaped, each control character written out
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;&lt;img src=x " \
        "onerror=alert(&#x27;title&#x27;)&gt;\\x1b[31m red \\x9b2J" in text
    moves = data["moves"][-1]
    assert moves[0].startswith("1. X") and \
        moves[0].endswith(": <script>alert('move')</script>\\x1b[2J put at " + moves[0][-2:])
    said = [n for n in strings(data["notes"]) if n.startswith("» ")]
    assert said and said[0] == "» <img src=x onerror=alert(1)>\\x1b[31mX put a mark\\u202e"
    assert any("&lt;img src=x onerror=alert('X')&gt;\\x1b]0;pwned\\x07" in line
               for line in data["lines"])
