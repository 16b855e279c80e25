"""The HTML of ``rulepack serve``'s pages. Everything a ruleset or a person wrote is
escaped (``html.escape``); the game page's script builds its content with
``textContent`` (never ``innerHTML``) except the position's SVG, which the render
package drew from escaped texts."""

from __future__ import annotations

import html

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; background: #f7f4ec; color: #222; }
button { margin: 0.2em; padding: 0.4em 0.8em; font-size: 1em; cursor: pointer; }
#picture svg { max-width: 100%; height: auto; }
#status { font-weight: bold; margin: 0.5em 0; } #refused { color: #a00; }
pre { white-space: pre-wrap; background: #fff; padding: 1em; border: 1px solid #ccc; }
#table { display: flex; gap: 1em; align-items: flex-start; }
#side { min-width: 18em; max-width: 26em; }
#story { max-height: 32em; overflow-y: auto; font-size: 0.9em; padding-left: 2em; }
#picture [data-piece], #picture [data-cell] { cursor: pointer; }
#picture.stale { opacity: 0.55; }
#picture .target > :first-child { stroke: #2a7a2a; stroke-width: 3; }
#picture .picked > :first-child { stroke: #c03020; stroke-width: 4; }
button.clear { background: #eee; }
"""


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
            f"<body>{body}</body></html>\n")


def lobby(rulesets: list[str], tables: list[tuple[str, str, bool]],
          broken: dict[str, str] | None = None) -> str:
    """The lobby: a form to open a table, the tables (no tokens shown) and those whose
    records could not be taken up, with why."""
    options = "".join(f"<option>{html.escape(r)}</option>" for r in rulesets)
    rows = "".join(f"<li>{html.escape(name)} · {html.escape(tid)}"
                   f"{' (over)' if over else ''}</li>" for tid, name, over in tables)
    rows += "".join(f"<li>{html.escape(tid)}: cannot be taken up ({html.escape(why)})</li>"
                    for tid, why in (broken or {}).items())
    return _page("rulepack tables", f"""
<h1>rulepack tables</h1>
<form method="post" action="/tables">
<label>Ruleset <select name="ruleset">{options}</select></label>
<label>Seats <input name="seats" value="human,human" size="40"
 title="one per seat, in order: human, or a bot (random, greedy, lookahead, mcts...)"></label>
<label>Options <input name="options" size="30" placeholder="rounds=3 blind=true"></label>
<button type="submit">Open a table</button>
</form>
<h2>Tables</h2><ul>{rows or '<li>none yet</li>'}</ul>""")


def invitations(tid: str, links: dict[str, str], watch: str) -> str:
    """The links of a new table: one per human seat, and the spectators'."""
    items = "".join(f"<li>{html.escape(seat)}: <a href=\"{html.escape(url)}\">"
                    f"{html.escape(url)}</a></li>" for seat, url in links.items())
    return _page("table opened", f"""
<h1>Table {html.escape(tid)}</h1>
<p>Send each player their own link: it is their seat (keep it secret).</p>
<ul>{items}</ul>
<p>Spectators: <a href="{html.escape(watch)}">{html.escape(watch)}</a></p>""")


def error(message: str) -> str:
    """An error page: what went wrong, and the way back to the lobby."""
    return _page("rulepack: error", f"<h1>Error</h1><p>{html.escape(message)}</p>"
                 "<p><a href=\"/\">Back to the tables</a></p>")


_SCRIPT = """
const params = new URLSearchParams(location.search);
const token = params.get("token");
const tid = location.pathname.split("/")[2];
const $ = (id) => document.getElementById(id);
let decision = 0, socket = null, delay = 500;
let actions = [], marks = [], clicks = [], pictured = -1, refused = false;

// An action is picked by clicking the places it names, in order (a piece, then a
// cell): each click is the set of marks of what was clicked (a piece and its cell).
function follows(names, picked) {
  let i = 0;
  for (const hit of picked) {
    while (i < names.length && !hit.has(names[i])) i++;
    if (i >= names.length) return false;
    i++;
  }
  return true;
}
function matching(picked) {
  return actions.map((_, k) => k).filter((k) => follows(marks[k], picked));
}
function marksAt(el) {
  const hit = new Set();
  for (; el && el.getAttribute; el = el.parentNode) {
    const piece = el.getAttribute("data-piece"), cell = el.getAttribute("data-cell");
    if (piece !== null) hit.add("p" + piece);
    if (cell !== null) hit.add("c" + cell);
  }
  return hit;
}
function send(k) {
  socket.send(JSON.stringify({type: "act", decision: decision, action: actions[k]}));
  clicks = [];
}
function mark(name, cls) {
  const sel = name[0] === "p" ? `[data-piece="${CSS.escape(name.slice(1))}"]`
                              : `[data-cell="${CSS.escape(name.slice(1))}"]`;
  for (const el of $("picture").querySelectorAll(sel)) el.classList.add(cls);
}
function refresh() {
  for (const el of $("picture").querySelectorAll(".picked, .target"))
    el.classList.remove("picked", "target");
  const ks = matching(clicks);
  const box = $("actions");
  box.replaceChildren();
  for (const k of ks) {
    const b = document.createElement("button");
    b.textContent = actions[k];
    b.onclick = () => send(k);
    box.appendChild(b);
  }
  if (clicks.length) {
    const b = document.createElement("button");
    b.textContent = "clear the selection";
    b.className = "clear";
    b.onclick = () => { clicks = []; refresh(); };
    box.appendChild(b);
    for (const hit of clicks) for (const name of hit) mark(name, "picked");
  }
  // what may be clicked next
  for (const k of ks) {
    let i = 0;
    for (const hit of clicks) { while (!hit.has(marks[k][i])) i++; i++; }
    if (i < marks[k].length) mark(marks[k][i], "target");
  }
}
$("picture").addEventListener("click", (event) => {
  const hit = marksAt(event.target);
  if (!hit.size || !actions.length) return;
  let picked = [...clicks, hit];
  if (!matching(picked).length) picked = [hit];       // a new start
  if (!matching(picked).length) return;
  clicks = picked;
  const ks = matching(clicks);
  if (ks.length === 1 && marks[ks[0]].length === clicks.length) { send(ks[0]); return; }
  refresh();
});
function tell(msg) {
  const story = $("story");
  if (msg.story_reset) story.replaceChildren();
  for (const text of msg.story || []) {
    const li = document.createElement("li");
    li.textContent = text;
    story.appendChild(li);
  }
  while (story.children.length > 300) story.firstChild.remove();
  story.scrollTop = story.scrollHeight;
}
function show(msg) {
  if (!refused) $("refused").textContent = "";
  refused = false;
  decision = msg.decision;
  $("picture").classList.toggle("stale", pictured !== decision);
  tell(msg);
  if (msg.terminal) {
    $("status").textContent = `Game over. Winners: ${(msg.winners || []).join(", ") || "nobody"}. ${msg.why || ""}`;
    $("after").hidden = false;
  } else {
    $("status").textContent = msg.actions && msg.actions.length ? "Your turn" : `To move: ${msg.to_move}`;
  }
  $("scores").textContent = msg.scores
    ? "Scores: " + msg.scores.map((v, k) => `${(msg.seats || [])[k] || k + 1} ${v ?? "?"}`).join(" · ")
    : "";
  actions = msg.actions || [];
  marks = msg.marks || actions.map(() => []);
  clicks = [];
  refresh();
  // where the page stands, for people's style sheets and for tests
  document.body.dataset.decision = msg.decision;
  document.body.dataset.state = msg.terminal ? "over" : actions.length ? "turn" : "wait";
}
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tid}?token=${encodeURIComponent(token)}`);
  socket.onopen = () => { delay = 500; $("link").textContent = "connected"; };
  socket.onclose = () => {
    $("link").textContent = "reconnecting…";
    setTimeout(connect, delay); delay = Math.min(delay * 2, 8000);
  };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "refused") {      // said until the next action (the position follows)
      $("refused").textContent = msg.message; refused = true; return;
    }
    if (msg.type === "position") show(msg);
    if (msg.type === "picture" && msg.decision === decision) {   // (an older one: dropped)
      pictured = msg.decision;
      $("picture").innerHTML = msg.svg;
      $("picture").classList.remove("stale");
      document.body.dataset.picture = msg.decision;
      refresh();
    }
  };
}
for (const a of document.querySelectorAll("#after a"))
  a.href = `/t/${tid}/${a.getAttribute("data-path")}?token=${encodeURIComponent(token)}`;
connect();
"""


def game(title: str, who: str, rules: str) -> str:
    """The game page: the position (pushed by the socket), the actions as buttons and
    by clicking the picture, the story as the seat was told it, the rules; once the
    game is over, its replay and record."""
    return _page(title, f"""
<h1>{html.escape(title)}</h1>
<p>You are {html.escape(who)} · <span id="link">connecting…</span></p>
<div id="status"></div><div id="scores"></div><div id="refused"></div>
<div id="actions"></div>
<p id="after" hidden><a data-path="replay">Replay the game</a> ·
<a data-path="record">Download its record</a></p>
<div id="table"><div id="picture"></div>
<div id="side"><h2>Story</h2><ol id="story"></ol></div></div>
<details><summary>Rules</summary><pre>{html.escape(rules)}</pre></details>
<script>{_SCRIPT}</script>""")
