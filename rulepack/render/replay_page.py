"""The replay viewer: one self-contained HTML page stepping through a record.

The page holds the picture of every step (the start, then after each decision),
the move list with what each step told (chance events, reveals, the ruleset's
``say`` lines), previous / next buttons, the left and right arrow keys (Home and
End too) and, on a page of every seat, a choice of seat. It loads nothing from
the network: the pictures are inline SVG, the script and the style are in the page.

Whose page (``view``): a seat's page (``view`` = a seat from 0) holds that seat's
pictures and the story as that seat was told it, and nothing else, so no byte of
it names a piece hidden from the seat. The page of every seat (:data:`ALL`, for
after the game) holds the table's pictures with the whole story (every hidden
piece named: the page says so) and each seat's pictures with that seat's story.

Every text from the ruleset or the record (the title, seat, piece and zone names,
action and ``say`` texts) is made inert: control characters (C0 and C1 but the
newline, DEL, bidirectional overrides) are written as ``\\xNN`` / ``\\uNNNN``,
the HTML is escaped, and the embedded JSON has no ``<``, ``>`` or ``&``.

To keep the page small, the pictures share their lines: the SVG lines of all
pictures are stored once each, and a picture is a list of runs ``[first,
count]`` of that table (consecutive pictures differ in a few lines).
"""

from __future__ import annotations

import html
import json
import re
from typing import TYPE_CHECKING, Any, Protocol

from rulepack.render.output import appearance, picture
from rulepack.render.picture import svg_text

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.actions import Action
    from rulepack.engine.state import State
    from rulepack.records import Record

#: ``view`` of the page of every seat (and of the table, with every move named).
ALL = "all"

#: Whose page: :data:`ALL`, or a seat (from 0).
View = str | int

#: A viewer of the story: a seat (from 0), or ``None``, who sees everything.
Viewer = int | None

#: Control characters a text may not carry into the page: C0 but the newline, DEL,
#: C1, the line and paragraph separators and the bidirectional embeddings,
#: overrides and isolates (text that reads backwards).
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e"
                      "\u2066-\u2069]")


def inert(text: str) -> str:
    """``text`` with each control character (see :data:`_CONTROL`) written out
    as ``\\x1b`` (``\\u202e`` past 0xff): shown, never obeyed."""
    def escape(m: re.Match[str]) -> str:
        c = ord(m.group())
        return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
    return _CONTROL.sub(escape, text)


class Teller(Protocol):
    """How the page tells each step, viewer by viewer (the command line passes
    the terminal's own telling, so that the page reads as the screen did)."""

    def start(self, state: "State", viewers: list[Viewer]) -> dict[Viewer, list[str]]:
        """The lines of the setup (``state``: before the first decision), per viewer."""

    def step(self, state: "State", action: "Action",
             viewers: list[Viewer]) -> dict[Viewer, list[str]]:
        """Apply ``action`` (legal in ``state``) to ``state`` and return the lines of
        the step per viewer, the action's own line first (``"player 2: draw the
        top tile of the stack"``)."""


class LineTable:
    """Lines stored once each; a text is a list of runs ``[first, count]``."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.index: dict[str, int] = {}

    def add(self, text: str) -> list[list[int]]:
        runs: list[list[int]] = []
        for line in text.split("\n"):
            k = self.index.get(line)
            if k is None:
                k = self.index[line] = len(self.lines)
                self.lines.append(line)
            if runs and runs[-1][0] + runs[-1][1] == k:
                runs[-1][1] += 1
            else:
                runs.append([k, 1])
        return runs


def viewers_of(view: View, players: int) -> list[Viewer]:
    """The viewers a page shows: ``[None, 0, 1, ...]`` for :data:`ALL` (``None``:
    the table's pictures, everything told), else ``[view]``.

    :raises ValueError: ``view`` is neither :data:`ALL` nor a seat.
    """
    if view == ALL:
        return [None, *range(players)]
    if type(view) is int and 0 <= view < players:
        return [view]
    raise ValueError(f"{view!r} is not {ALL!r} nor a seat (0-{players - 1})")


def page_data(record: "Record", teller: Teller, view: View = ALL) -> dict[str, Any]:
    """Everything the page shows, as JSON data: ``{"title", "notice", "views":
    [names], "moves": [[texts] per view], "notes": [[[lines] per step] per view],
    "lines": [svg lines], "steps": [[runs per view] per step]}``; ``moves[v][k]``
    is decision ``k + 1`` as view ``v`` was told it, ``notes[v][s]`` the other
    lines of step ``s`` (step 0: the setup). Every text is :func:`inert`.

    :param teller: tells each step per viewer (see :class:`Teller`).
    :param view: whose page (see the module's docstring).
    :raises ValueError: ``view`` is not :data:`ALL` nor a seat of the record.
    :raises RecordError: the record is bad or its replay contradicts it.
    """
    from rulepack.records import load_recorded_game, replay
    game, _ = load_recorded_game(record)
    seats = [str(s) for s in record.header["seats"]]
    viewers = viewers_of(view, len(seats))
    table = LineTable()
    steps: list[list[list[list[int]]]] = []
    moves: list[list[str]] = [[] for _ in viewers]
    notes: list[list[list[str]]] = [[] for _ in viewers]
    looks: list[Any] = []

    def draw(state: "State") -> None:
        """The pictures of the step that led to ``state``, one per viewer."""
        if not looks:
            looks.append(appearance(game, state))
            for k, lines in enumerate(_told(teller.start(state, viewers), viewers)):
                notes[k].append(lines)
        step = len(steps)
        steps.append([table.add(inert(svg_text(picture(
            game, state, v, "the start" if step == 0 else f"after {moves[k][step - 1]}",
            looks[0])))) for k, v in enumerate(viewers)])

    def before(state: "State", player: int, index: int) -> None:
        draw(state)
        told = _told(teller.step(state.clone(), state.legal_actions()[index], viewers), viewers)
        for k, lines in enumerate(told):
            moves[k].append(f"{len(moves[k]) + 1}. {lines[0] if lines else '?'}")
            notes[k].append(lines[1:])

    done = replay(record, on_decision=before)
    draw(done.state)
    names = ["the table" if v is None else seats[v] for v in viewers]
    if view == ALL:
        notice = ("Every seat's page: the table's move list names every piece, hidden ones "
                  "too. A seat's own page: rulepack replay RECORD --html PAGE --view SEAT.")
    else:
        notice = f"{names[0]}'s page: only what {names[0]} may know."
    return {"title": inert(game.title), "notice": inert(notice),
            "views": [inert(n) for n in names], "moves": moves, "notes": notes,
            "lines": table.lines, "steps": steps}


def _told(told: dict[Viewer, list[str]], viewers: list[Viewer]) -> list[list[str]]:
    """The lines told to each viewer, in ``viewers``' order, inert."""
    return [[inert(line) for line in told.get(v, [])] for v in viewers]


def replay_html(record: "Record", teller: Teller, view: View = ALL,
                name: str | None = None) -> str:
    """The replay page of a record (see the module's docstring and :func:`page_data`),
    titled with ``name`` (default: the record's path).

    :raises ValueError: ``view`` is not :data:`ALL` nor a seat of the record.
    :raises RecordError: the record is bad or its replay contradicts it.
    """
    data = page_data(record, teller, view)
    title = f"{data['title']}: replay of {inert(str(record.path if name is None else name))}"
    # JSON in a script element: no "<", ">" or "&" may end it or open a comment
    payload = (json.dumps(data, ensure_ascii=True, separators=(",", ":"))
               .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
    options = "".join(f'<option value="{k}">{html.escape(v)}</option>'
                      for k, v in enumerate(data["views"]))
    fill = {"TITLE": html.escape(title), "NOTICE": html.escape(data["notice"]),
            "CHOICE": "" if len(data["views"]) == 1 else
            f'<label>seen by <select id="seat">{options}</select></label>',
            "DATA": payload}
    # one pass: a text that holds "@DATA@" stays that text
    return re.sub("@(TITLE|NOTICE|CHOICE|DATA)@", lambda m: fill[m.group(1)], _PAGE)


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; background: #f4f0e6;
       color: #222; }
header { position: sticky; top: 0; background: #e9e2cf; padding: 8px 14px;
         border-bottom: 1px solid #c9bfa6; display: flex; gap: 14px; align-items: center;
         flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0 12px 0 0; }
button { font-size: 14px; padding: 3px 10px; }
main { display: flex; gap: 14px; padding: 12px 14px; align-items: flex-start; }
#picture svg { width: 100%; height: auto; max-height: calc(100vh - 80px); }
#picture { flex: 1 1 auto; min-width: 0; }
#moves { flex: 0 0 320px; max-height: 85vh; overflow: auto; margin: 0; padding: 6px 8px;
         list-style: none; background: #fffdf6; border: 1px solid #c9bfa6; font-size: 13px; }
#moves li { padding: 2px 4px; cursor: pointer; border-radius: 3px; }
#moves li.current { background: #2f5d8a; color: #fff; }
#moves .note { display: block; padding-left: 1.2em; font-size: 12px; opacity: 0.8;
               white-space: pre-wrap; }
#notice { font-size: 12px; color: #5a4a1a; padding: 4px 14px; background: #f7efd4;
          border-bottom: 1px solid #e2d6ae; }
.hint { color: #666; font-size: 12px; }
</style>
</head>
<body>
<header>
<h1>@TITLE@</h1>
<button id="first" type="button" title="Home">&#xAB; start</button>
<button id="prev" type="button" title="left arrow">&#x25C0; previous</button>
<span id="where"></span>
<button id="next" type="button" title="right arrow">next &#x25B6;</button>
<button id="last" type="button" title="End">end &#xBB;</button>
@CHOICE@
<span class="hint">keys: &larr; &rarr; Home End</span>
</header>
<div id="notice">@NOTICE@</div>
<main>
<div id="picture"></div>
<ol id="moves"></ol>
</main>
<script id="data" type="application/json">@DATA@</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const last = data.steps.length - 1;
let step = 0;
function svgOf(runs) {
  const out = [];
  for (const [first, count] of runs) {
    for (let k = first; k < first + count; k++) out.push(data.lines[k]);
  }
  return out.join("\\n");
}
const choice = document.getElementById("seat");
function seat() { return choice ? Number(choice.value) : 0; }
function line(text, cls) {
  const span = document.createElement("span");
  if (cls) span.className = cls;
  span.textContent = text;
  return span;
}
function listMoves() {
  const v = seat();
  const list = document.getElementById("moves");
  list.replaceChildren();
  for (let s = 0; s <= last; s++) {
    const li = document.createElement("li");
    li.dataset.step = String(s);
    li.appendChild(line(s === 0 ? "the start" : data.moves[v][s - 1], ""));
    for (const note of data.notes[v][s]) li.appendChild(line(note, "note"));
    list.appendChild(li);
  }
}
function show() {
  document.getElementById("picture").innerHTML = svgOf(data.steps[step][seat()]);
  document.getElementById("where").textContent = "step " + step + " of " + last;
  document.getElementById("prev").disabled = step === 0;
  document.getElementById("first").disabled = step === 0;
  document.getElementById("next").disabled = step === last;
  document.getElementById("last").disabled = step === last;
  for (const li of document.querySelectorAll("#moves li")) {
    const here = Number(li.dataset.step) === step;
    li.classList.toggle("current", here);
    if (here) li.scrollIntoView({block: "nearest"});
  }
}
function go(to) { step = Math.max(0, Math.min(last, to)); show(); }
document.getElementById("prev").addEventListener("click", () => go(step - 1));
document.getElementById("next").addEventListener("click", () => go(step + 1));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("last").addEventListener("click", () => go(last));
if (choice) choice.addEventListener("change", () => { listMoves(); show(); });
document.getElementById("moves").addEventListener("click", (e) => {
  const li = e.target.closest("li");
  if (li) go(Number(li.dataset.step));
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(last);
});
listMoves();
show();
</script>
</body>
</html>
"""
