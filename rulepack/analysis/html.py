"""An analysis report as one self-contained HTML page: the figures of the
terminal tables and four plots (matplotlib, the ``analysis`` extra), each an
inline PNG, so the page needs no other file.

Plots: the length histogram, win rates per seat with their 95% intervals, the
branching factor by turn, and rule coverage (how often each alternative was
legal), every variant in each.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")            # no display: pictures only
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from rulepack.printable import printable_data  # noqa: E402

STYLE = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.2em .8em;text-align:right}
th:first-child,td:first-child{text-align:left}tr:nth-child(even){background:#f4f4f4}
.dead{color:#b00}img{max-width:100%}"""


def _png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    plt.close(fig)
    return ("<img alt='plot' src='data:image/png;base64,"
            + base64.b64encode(buf.getvalue()).decode("ascii") + "'>")


def plots(report: dict[str, Any]) -> list[tuple[str, str]]:
    """``(title, <img> tag)`` of each plot of a report."""
    cols = report["variants"]
    out: list[tuple[str, str]] = []
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for v in cols:
        xs = [d for d, _ in v["length"]["histogram"]]
        ws = [n for _, n in v["length"]["histogram"]]
        ax.hist(xs, weights=ws, bins=min(40, max(1, len(xs))), alpha=0.55, label=v["label"])
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.legend()
    out.append(("Length", _png(fig)))

    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / len(cols)
    for k, v in enumerate(cols):
        seats = v["balance"]["seats"]
        xs = [p + k * width for p in range(len(seats))]
        rates = [s["rate"] for s in seats]
        errs = [[s["rate"] - s["ci95"][0] for s in seats], [s["ci95"][1] - s["rate"] for s in seats]]
        ax.bar(xs, rates, width, yerr=errs, capsize=3, label=v["label"])
    ax.axhline(1 / report["players"], color="grey", linestyle=":", linewidth=1)
    ax.set_xticks([p + width * (len(cols) - 1) / 2 for p in range(report["players"])],
                  report["seats"])
    ax.set_ylabel("win rate (95% interval)")
    ax.legend()
    out.append(("Win rate per seat", _png(fig)))

    fig, ax = plt.subplots(figsize=(7, 3.2))
    for v in cols:
        rows = v["choice"]["by_turn"]
        ax.plot([r["turn"] for r in rows], [r["mean"] for r in rows], label=v["label"])
    ax.set_xlabel("turn (0: before the first)")
    ax.set_ylabel("legal actions per decision")
    ax.legend()
    out.append(("Branching factor by turn", _png(fig)))

    alts = cols[0]["coverage"]["alternatives"]
    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.35 * max(1, len(alts)) * len(cols)))
    height = 0.8 / len(cols)
    for k, v in enumerate(cols):
        rows = v["coverage"]["alternatives"]
        ax.barh([i + k * height for i in range(len(rows))], [a["legal_rate"] for a in rows],
                height, label=v["label"])
    ax.set_yticks([i + height * (len(cols) - 1) / 2 for i in range(len(alts))],
                  [f"{a['text']} ({a['at'].rsplit('/', 1)[-1]})" for a in alts])
    ax.invert_yaxis()
    ax.set_xlabel("share of its decisions at which the action was legal")
    ax.legend()
    out.append(("Rule coverage", _png(fig)))
    return out


def _row(name: str, cells: list[str]) -> str:
    return "<tr><td>" + html.escape(name) + "</td>" + "".join(
        f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>"


def page(report: dict[str, Any]) -> str:
    """The whole page of a report (see :func:`rulepack.analysis.analyze.analyze`);
    its texts HTML-escaped and :func:`~rulepack.printable.printable` (no control
    character, in the page nor in the plots' labels)."""
    report = printable_data(report)
    cols = report["variants"]
    title = f"{report['title']}: analysis of {report['games']} games per variant"
    head = "<tr><th></th>" + "".join(f"<th>{html.escape(v['label'])}</th>" for v in cols) + "</tr>"

    def rate(r: dict[str, Any]) -> str:
        return f"{r['rate']:.1%} ({r['ci95'][0] * 100:.1f}–{r['ci95'][1] * 100:.1f})"

    def dist(d: dict[str, Any]) -> str:
        return "—" if not d["count"] else f"{d['mean']:.1f} · {d['median']:.1f} " \
            f"[{d['p5']:.1f}–{d['p95']:.1f}]"

    rows = [_row(name, [rate(v["balance"]["seats"][p]) for v in cols])
            for p, name in enumerate(report["seats"])]
    rows.append(_row("first player's advantage",
                     [f"{v['balance']['first_player']['advantage']:+.1%}" for v in cols]))
    rows.append(_row("draws", [rate(v["balance"]["draws"]) for v in cols]))
    for key in ("decisions", "turns", "rounds"):
        rows.append(_row(f"{key} (mean · median [5–95%])", [dist(v["length"][key]) for v in cols]))
    rows.append(_row("hit the decision limit", [rate(v["length"]["limit"]) for v in cols]))
    rows.append(_row("final score margin", [dist(v["drama"]["margin"]) for v in cols]))
    rows.append(_row("lead changes", [dist(v["drama"]["lead_changes"]) for v in cols]))
    rows.append(_row("branching factor", ["—" if v["choice"]["branching"] is None
                                          else f"{v['choice']['branching']:.2f}" for v in cols]))
    rows.append(_row("forced moves", [rate(v["choice"]["forced"]) for v in cols]))
    dead = "".join(f"<li class='dead'>{html.escape(v['label'])}: {html.escape(line)}</li>"
                   for v in cols for line in v["coverage"]["dead"])
    figures = "".join(f"<h2>{html.escape(t)}</h2>{img}" for t, img in plots(report))
    agents = ", ".join(dict.fromkeys(report["agents"]))
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title><style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p>{report['players']} players, {html.escape(agents)}, seed {report['seed']}"
            f"{', seats rotated' if report['rotate'] else ''}.</p>"
            f"<table>{head}{''.join(rows)}</table>"
            f"<h2>Dead rules</h2><ul>{dead or '<li>none</li>'}</ul>{figures}</body></html>")


def write_html(report: dict[str, Any], path: str | Path) -> None:
    """Write :func:`page` to ``path``. :raises OSError: it cannot be written."""
    Path(path).write_text(page(report), encoding="utf-8")
