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
    return _page("rulepack: error", f"<h1>Error</h1><p>{html.escape(message)}</p>")


_SCRIPT = """
const params = new URLSearchParams(location.search);
const token = params.get("token");
const tid = location.pathname.split("/")[2];
let decision = 0, socket = null, delay = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tid}?token=${encodeURIComponent(token)}`);
  socket.onopen = () => { delay = 500; document.getElementById("link").textContent = "connected"; };
  socket.onclose = () => {
    document.getElementById("link").textContent = "reconnecting…";
    setTimeout(connect, delay); delay = Math.min(delay * 2, 8000);
  };
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "refused") { document.getElementById("refused").textContent = msg.message; return; }
    if (msg.type !== "position") return;
    document.getElementById("refused").textContent = "";
    decision = msg.decision;
    document.getElementById("picture").innerHTML = msg.svg;
    const status = document.getElementById("status");
    if (msg.terminal) {
      status.textContent = `Game over. Winners: ${(msg.winners || []).join(", ") || "nobody"}. ${msg.why || ""}`;
    } else {
      status.textContent = `To move: ${msg.to_move}`;
    }
    const scores = document.getElementById("scores");
    scores.textContent = msg.scores ? `Scores: ${msg.scores.join(" · ")}` : "";
    const box = document.getElementById("actions");
    box.replaceChildren();
    for (const text of msg.actions || []) {
      const b = document.createElement("button");
      b.textContent = text;
      b.onclick = () => socket.send(JSON.stringify({type: "act", decision: decision, action: text}));
      box.appendChild(b);
    }
  };
}
connect();
"""


def game(title: str, who: str, rules: str) -> str:
    """The game page: the position (pushed by the socket), the actions as buttons,
    the rules."""
    return _page(title, f"""
<h1>{html.escape(title)}</h1>
<p>You are {html.escape(who)} · <span id="link">connecting…</span></p>
<div id="status"></div><div id="scores"></div><div id="refused"></div>
<div id="actions"></div>
<div id="picture"></div>
<details><summary>Rules</summary><pre>{html.escape(rules)}</pre></details>
<script>{_SCRIPT}</script>""")
