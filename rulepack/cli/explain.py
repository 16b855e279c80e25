"""``rulepack explain``: what a ruleset says, in a designer's terms.

It lists the game's players, options, components, zones, patterns and phases,
and every place where the ruleset cites a ruling (a ``# ruling X1`` comment),
with the comment's own words, so a player can see which decisions were taken
where the original rules are open.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rulepack.game import Game
from rulepack.engine.runtime import show
from rulepack.engine.values import describe

RULING = re.compile(r"\b(?i:rulings?)(?:\.md)?:?\s+([A-Z]\d+(?:\s*[-–,]\s*[A-Z]?\d+)*)")


def rulings_cited(path: Path) -> list[tuple[int, str, str]]:
    """(line, ruling ids, the comment) for every comment of a ``.rules`` file citing rulings."""
    out = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return out
    for number, line in enumerate(lines, 1):
        if "#" not in line:
            continue
        comment = line[line.index("#") + 1:].strip()
        for match in RULING.finditer(comment):
            out.append((number, match.group(1), comment))
    return out


def explain(game: Game, path: Path | None) -> RenderableType:
    """A rich renderable describing the ruleset."""
    parts: list[RenderableType] = []
    title = Text(game.title, style="bold")
    if game.source:
        title.append(f"  (source: {game.source})", style="dim")
    parts.append(title)
    parts.append(Text(f"{game.min_players}-{game.max_players} players"
                      if game.min_players != game.max_players else f"{game.min_players} players"))
    inst = game.instance(game.min_players, {})
    if game.options:
        table = Table("option", "values", "default", "meaning", box=box.SIMPLE, title="Options")
        for name, spec in game.options.items():
            if spec["type"] == "bool":
                values = "true, false"
            elif spec["type"] == "int":
                values = f"{spec['min']}..{spec['max']}"
            else:
                values = ", ".join(str(_lit(v)) for v in spec["values"])
            table.add_row(name, values, str(_lit(spec["default"])), spec.get("help") or "")
        parts.append(table)
    comps = Table("component", "pieces", "attributes", box=box.SIMPLE,
                  title=f"Components (for {game.min_players} players)")
    for kind, pieces in inst.kind_pieces.items():
        attrs = sorted({a for p in pieces for a in p.attrs})
        comps.add_row(kind, str(len(pieces)), ", ".join(attrs))
    parts.append(comps)
    zones = Table("zone", "kind", "per", "face-down pieces seen by", box=box.SIMPLE, title="Zones")
    for z in game.ir.get("zones", []):
        info = next(i for i in inst.zones if i.name == z["name"])
        zones.add_row(z["name"], info.kind if info.kind != "grid" else
                      f"grid {info.rows}x{info.cols}", z.get("per") or "", info.seen_by)
    parts.append(zones)
    if game.ir.get("patterns"):
        pats = Table("pattern", "constraints", box=box.SIMPLE, title="Patterns")
        for p in game.ir["patterns"]:
            if p.get("any"):
                pats.add_row(p["name"], " or ".join(p["any"]))
            else:
                pats.add_row(p["name"], ", ".join(_constraint(c) for c in p["all"]))
        parts.append(pats)
    phases = [p["name"] for p in game.ir.get("phases", [])]
    if phases:
        parts.append(Text("Phases: " + ", ".join(phases)))
    if path is not None and path.suffix == ".rules":
        cited = rulings_cited(path)
        if cited:
            table = Table("line", "ruling", "where the ruleset says", box=box.SIMPLE,
                          title="Rulings applied")
            for line, ids, comment in cited:
                table.add_row(str(line), ids, comment)
            parts.append(table)
    return Group(*parts)


def _lit(node: Any) -> Any:
    if isinstance(node, dict):
        node = node.get("value", node.get("name"))
    return show(node) if isinstance(node, bool) or node is None else node


def _constraint(c: dict[str, Any]) -> str:
    arg = c["arg"]
    if isinstance(arg, dict):
        if arg.get("k") == "range":
            return f"{c['c']} {_lit(arg['from'])}..{_lit(arg['to'])}"
        if arg.get("k") == "lit":
            return f"{c['c']} {describe(arg['value'])}"
        return f"{c['c']} (condition)"
    return f"{c['c']} {arg}"
