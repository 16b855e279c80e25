"""The terminal side of ``rulepack analyze``: variants from the command line, and
the report as rich tables with one column per variant."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import click
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulepack.cli.args import parse_options
from rulepack.printable import printable_data


def variants(base: dict[str, str], compare: Sequence[str],
             sets: Sequence[str]) -> list[dict[str, str] | None]:
    """The option sets compared, each on top of ``base`` (the ``--option`` pairs).

    ``compare`` holds ``NAME=V1,V2,...`` (one variant per value; several such give
    every combination); ``sets`` holds whole option sets ``"NAME=V NAME=V"``, one
    variant each. Without either, the one variant is ``base``.

    :raises click.BadParameter: a malformed pair (usage error).
    """
    axes: list[list[tuple[str, str]]] = []
    for spec in compare:
        name, sep, values = spec.partition("=")
        if not sep or not name.strip() or not values.strip():
            raise click.BadParameter(f"{spec!r} is not NAME=VALUE,VALUE...",
                                     param_hint="'--compare-option'")
        axes.append([(name.strip(), v.strip()) for v in values.split(",")])
    combos = [dict(c) for c in itertools.product(*axes)] if axes else []
    extra = [parse_options(s.split()) for s in sets]
    chosen = [{**c, **e} for c in (combos or [{}]) for e in (extra or [{}])]
    out: list[dict[str, str] | None] = [{**base, **c} or None for c in chosen]
    return out


def parse_team(spec: str) -> list[int]:
    """``"1,3"`` → ``[0, 2]`` (seats 1-based on the command line, 0-based inside).

    :raises click.BadParameter: not a list of seat numbers.
    """
    try:
        seats = [int(x) - 1 for x in spec.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"{spec!r} is not a list of seat numbers like 1,3",
                                 param_hint="'--team'") from None
    if not seats or min(seats) < 0:
        raise click.BadParameter(f"{spec!r} is not a list of seat numbers like 1,3",
                                 param_hint="'--team'")
    return seats


def _rate(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return f"{row['rate']:.1%} ({lo * 100:.1f}–{hi * 100:.1f})"


def _dist(d: dict[str, Any], digits: int = 1) -> str:
    if not d["count"]:
        return "—"
    return (f"{d['mean']:.{digits}f} · {d['median']:.{digits}f} "
            f"[{d['p5']:.{digits}f}–{d['p95']:.{digits}f}]")


def _table(title: str, report: dict[str, Any]) -> Table:
    table = Table(title=Text(title, style="table.title"), box=box.SIMPLE_HEAD,
                  title_justify="left")
    table.add_column("")
    for v in report["variants"]:
        table.add_column(Text(v["label"]), justify="right")
    return table


def report_renderable(report: dict[str, Any]) -> RenderableType:
    """The tables of an analysis report (see :func:`rulepack.analysis.analyze.analyze`):
    balance, length, drama, choice and rule coverage, one column per variant (the
    dead rules are apart: :func:`dead_rules`). Its texts are shown printable."""
    report = printable_data(report)
    cols = report["variants"]
    agents = ", ".join(dict.fromkeys(report["agents"]))
    n = report["players"]
    head = (f"{report['title']}: {report['games']} games per variant, {n} "
            f"player{'s' if n != 1 else ''}, {agents}, seed {report['seed']}"
            + (", seats rotated" if report["rotate"] else ""))
    balance = _table(head + "\n\nbalance: win rate (95% interval)", report)
    for p, name in enumerate(report["seats"]):
        balance.add_row(Text(name), *[_rate(v["balance"]["seats"][p]) for v in cols])
    balance.add_row("first player's advantage",
                    *[f"{v['balance']['first_player']['advantage']:+.1%}" for v in cols])
    for t, team in enumerate(report["teams"]):
        balance.add_row(f"team {', '.join(map(str, team))}",
                        *[_rate(v["balance"]["teams"][t]) for v in cols])
    if "agents" in cols[0]["balance"]:
        for k, a in enumerate(cols[0]["balance"]["agents"]):
            balance.add_row(Text(f"agent {a['agent']}"),
                            *[_rate(v["balance"]["agents"][k]) for v in cols])
    balance.add_row("draws", *[_rate(v["balance"]["draws"]) for v in cols])
    balance.add_row("shared wins", *[_rate(v["balance"]["shared_wins"]) for v in cols])

    length = _table("length: mean · median [5th–95th percentile]", report)
    for key in ("decisions", "turns", "rounds"):
        length.add_row(key, *[_dist(v["length"][key]) for v in cols])
    length.add_row("hit the decision limit", *[_rate(v["length"]["limit"]) for v in cols])

    drama = _table("decisiveness and drama: mean · median [5th–95th percentile]", report)
    drama.add_row("final score margin", *[_dist(v["drama"]["margin"]) for v in cols])
    drama.add_row("lead changes", *[_dist(v["drama"]["lead_changes"]) for v in cols])
    drama.add_row("winner leads for good after", *[
        "—" if not v["drama"]["decided_at"]["count"] else
        f"{v['drama']['decided_at']['mean']:.0%} · {v['drama']['decided_at']['median']:.0%}"
        f" of the game" for v in cols])

    choice = _table("choice", report)
    choice.add_row("branching factor", *[
        "—" if v["choice"]["branching"] is None else f"{v['choice']['branching']:.2f}"
        for v in cols])
    choice.add_row("forced moves", *[_rate(v["choice"]["forced"]) for v in cols])
    shown = sorted({r["turn"] for v in cols for r in v["choice"]["by_turn"]})[:6]
    for t in shown:
        choice.add_row(f"branching, turn {t}", *[
            next((f"{r['mean']:.2f}" for r in v["choice"]["by_turn"] if r["turn"] == t), "—")
            for v in cols])

    cover = _table("rule coverage: legal at % of its decisions · times chosen", report)
    for k, a in enumerate(cols[0]["coverage"]["alternatives"]):
        cover.add_row(Text(f"{a['text']}  ({a['at'].rsplit('/', 1)[-1]})"), *[
            _coverage_cell(v["coverage"]["alternatives"][k]) for v in cols])
    for k, p in enumerate(cols[0]["coverage"]["phases"]):
        cover.add_row(Text(f"phase {p['name']}  ({p['at'].rsplit('/', 1)[-1]})"), *[
            Text(f"reached in {v['coverage']['phases'][k]['reached_rate']:.0%} of games",
                 style="red" if v["coverage"]["phases"][k]["dead"] else "")
            for v in cols])
    return Group(balance, length, drama, choice, cover)


def dead_rules(report: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """``(variant label, ["FILE:LINE: ...", ...])`` of each variant with dead rules;
    printed as whole lines (``soft_wrap``), so FILE:LINE stays one word for editors;
    texts shown printable."""
    return [(v["label"], v["coverage"]["dead"]) for v in printable_data(report["variants"])
            if v["coverage"]["dead"]]


def _coverage_cell(a: dict[str, Any]) -> Text:
    if a["dead"]:
        return Text("never legal", style="red")
    return Text(f"{a['legal_rate']:.0%} · {a['chosen']}")
