"""The replay viewer: one self-contained HTML page stepping through a record.

The page holds the picture of every step (the start, then after each decision)
from the table's view and from each seat's, the move list, previous / next
buttons, the left and right arrow keys (Home and End too) and a choice of seat.
It loads nothing from the network: the pictures are inline SVG, the script and
the style are in the page.

To keep the page small, the pictures share their lines: the SVG lines of all
pictures are stored once each, and a picture is a list of runs ``[first,
count]`` of that table (consecutive pictures differ in a few lines).
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from rulepack.render.output import appearance, picture
from rulepack.render.picture import svg_text
from rulepack.render.positions import every_step

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.records import Record


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


def move_texts(record: "Record") -> list[str]:
    """``"1. player 2: draw the top tile of the stack"`` for each decision."""
    seats = list(record.header["seats"])
    out = []
    for _, line in record.entries:
        if line["type"] == "decision":
            who = seats[line["player"]] if 0 <= line["player"] < len(seats) else "?"
            out.append(f"{line['n']}. {who}: {line['action']}")
    return out


def page_data(record: "Record") -> dict[str, Any]:
    """Everything the page shows, as JSON data: ``{"title", "views": [names],
    "moves": [texts], "lines": [svg lines], "steps": [[runs per view]]}``.

    :raises RecordError: the record is bad or its replay contradicts it.
    """
    from rulepack.records import load_recorded_game
    game, _ = load_recorded_game(record)
    seats = list(record.header["seats"])
    moves = move_texts(record)
    table = LineTable()
    steps: list[list[list[list[int]]]] = []
    looks: list[Any] = []

    def visit(step: int, state: Any) -> None:
        if not looks:
            looks.append(appearance(game, state))
        caption = "the start" if step == 0 else f"after {moves[step - 1]}"
        steps.append([table.add(svg_text(picture(game, state, seat, caption, looks[0])))
                      for seat in [None, *range(len(seats))]])

    every_step(record, visit)
    return {"title": game.title, "views": ["the table"] + seats, "moves": moves,
            "lines": table.lines, "steps": steps}


def replay_html(record: "Record") -> str:
    """The replay page of a record (see the module's docstring)."""
    data = page_data(record)
    title = f"{data['title']}: replay of {record.path}"
    payload = json.dumps(data, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")
    options = "".join(f'<option value="{k}">{html.escape(v)}</option>'
                      for k, v in enumerate(data["views"]))
    moves = "".join(f'<li data-step="{k + 1}">{html.escape(m)}</li>'
                    for k, m in enumerate(data["moves"]))
    return (_PAGE.replace("@TITLE@", html.escape(title))
            .replace("@OPTIONS@", options)
            .replace("@MOVES@", moves)
            .replace("@DATA@", payload))


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
<label>seen by <select id="seat">@OPTIONS@</select></label>
<span class="hint">keys: &larr; &rarr; Home End</span>
</header>
<main>
<div id="picture"></div>
<ol id="moves"><li data-step="0">the start</li>@MOVES@</ol>
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
function show() {
  const seat = Number(document.getElementById("seat").value);
  document.getElementById("picture").innerHTML = svgOf(data.steps[step][seat]);
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
document.getElementById("seat").addEventListener("change", show);
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
show();
</script>
</body>
</html>
"""
