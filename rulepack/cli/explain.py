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
from rulepack.printable import printable, printable_data

RULING = re.compile(r"\b(?i:rulings?)(?:\.md)?:?\s+([A-Z]\d+(?:\s*[-–,]\s*[A-Z]?\d+)*)")


def rulings_cited(path: Path) -> list[tuple[int, str, str]]:
    """(line, ruling ids, the comment) for every comment of a ``.rules`` file citing rulings."""
    out: list[tuple[int, str, str]] = []
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


#: Where the rulings that rulesets cite are written, in the repository.
RULINGS_DOC = "docs/rulings.md"


def source_note(source: str, ruleset: Path | None) -> str:
    """How ``explain`` cites a ruleset's ``source``: as it is when it names an existing
    file (next to the ruleset), else marked as the original text, not in the repository."""
    if ruleset is not None and (ruleset.parent / source).is_file():
        return source
    return f"{source} (the original rules, not in this repository)"


def explain_data(game: Game, path: Path | None) -> dict[str, Any]:
    """What ``rulepack explain`` shows, as JSON-ready data.

    Keys: ``name``, ``title``, ``source`` (or ``None``), ``min_players``,
    ``max_players``, ``options`` (name → ``values``, ``default``, ``help``),
    ``components`` (kind → ``pieces``, ``attributes``, and for a die ``rolls``:
    ``attribute``, ``faces``, ``weights``; for the smallest player count), ``zones`` (list of ``name``, ``kind``, ``per``, ``seen_by``),
    ``variables`` (list of ``name``, ``per`` (``"player"``, ``"team"`` or ``""``),
    ``seen_by`` (``"everyone"``, ``"owner"`` or ``"nobody"``)),
    ``patterns`` (name → constraint texts, or alternatives joined by ``or``),
    ``phases``, ``ending`` (how the game ends and who wins: lines of text, see
    :func:`ending_lines`) and ``rulings`` (list of ``file``, ``line``, ``rulings``,
    ``comment``; their texts are in ``rulings_doc``).
    """
    inst = game.instance(game.min_players, {})
    options = {}
    for name, spec in game.options.items():
        if spec["type"] == "bool":
            values = "true, false"
        elif spec["type"] == "int":
            values = f"{spec['min']}..{spec['max']}"
        elif spec["type"] == "text":
            values = "a text"
        else:
            values = ", ".join(str(_lit(v)) for v in spec["values"])
        options[name] = {"values": values, "default": str(_lit(spec["default"])),
                         "help": spec.get("help") or ""}
    components: dict[str, dict[str, Any]] = {
        kind: {"pieces": len(pieces), "attributes": sorted({a for p in pieces for a in p.attrs})}
        for kind, pieces in inst.kind_pieces.items()}
    for kind, pieces in inst.kind_pieces.items():
        rolls = pieces[0].rolls if pieces else None
        if rolls is not None:          # a die: the attribute a roll sets, its faces
            components[kind]["rolls"] = {"attribute": rolls[0],
                                         "faces": [_lit(f) for f in rolls[1]],
                                         "weights": None if rolls[2] is None else list(rolls[2])}
    zones = []
    for z in game.ir.get("zones", []):
        info = next(i for i in inst.zones if i.name == z["name"])
        zones.append({"name": z["name"],
                      "kind": info.kind if info.kind != "grid" else f"grid {info.rows}x{info.cols}",
                      "per": z.get("per") or "", "seen_by": info.seen_by})
    variables = [{"name": v["name"],
                  "per": "player" if v.get("per_player") else "team" if v.get("per_team") else "",
                  "seen_by": v.get("seen") or "everyone"}
                 for v in game.ir.get("variables", [])]
    patterns = {p["name"]: (" or ".join(p["any"]) if p.get("any")
                            else ", ".join(_constraint(c) for c in p["all"]))
                for p in game.ir.get("patterns", [])}
    rulings = []
    if path is not None and path.suffix == ".rules":
        rulings = [{"file": path.name, "line": line, "rulings": ids, "comment": comment}
                   for line, ids, comment in rulings_cited(path)]
    return {"name": game.name, "title": game.title,
            "source": source_note(game.source, path) if game.source else None,
            "min_players": game.min_players, "max_players": game.max_players,
            "options": options, "components": components, "zones": zones,
            "variables": variables,
            "patterns": patterns, "phases": [p["name"] for p in game.ir.get("phases", [])],
            "ending": ending_lines(game),
            "rulings": rulings, "rulings_doc": RULINGS_DOC}


def ending_lines(game: Game) -> list[str]:
    """How the game ends and who wins, in short lines read from the ruleset's
    ``winner``, ``score`` and ``end`` declarations (see :mod:`rulepack.cli.ending`)."""
    from rulepack.cli.ending import ending
    return ending(game)


def explain(game: Game, path: Path | None) -> RenderableType:
    """A rich renderable describing the ruleset (the data of :func:`explain_data`, its
    texts shown printable)."""
    data = printable_data(explain_data(game, path))
    parts: list[RenderableType] = []
    title = Text(data["title"], style="bold")
    if data["source"]:
        title.append(f"  (source: {data['source']})", style="dim")
    parts.append(title)
    lo, hi = data["min_players"], data["max_players"]
    parts.append(Text(f"{lo}-{hi} players" if lo != hi else f"{lo} players"))
    for line in data["ending"]:
        parts.append(Text(line))
    if data["options"]:
        table = Table("option", "values", "default", "meaning", box=box.SIMPLE, title="Options")
        for name, o in data["options"].items():
            table.add_row(*_cells(name, o["values"], o["default"], o["help"]))
        parts.append(table)
    comps = Table("component", "pieces", "attributes", box=box.SIMPLE,
                  title=f"Components (for {lo} players)")
    for kind, c in data["components"].items():
        attributes = ", ".join(c["attributes"])
        if "rolls" in c:
            r = c["rolls"]
            faces = ", ".join(str(f) for f in r["faces"])
            weights = "" if r["weights"] is None else \
                " weights " + ", ".join(str(w) for w in r["weights"])
            attributes += ("; " if attributes else "") + f"rolls {r['attribute']}: {faces}{weights}"
        comps.add_row(*_cells(kind, str(c["pieces"]), attributes))
    parts.append(comps)
    zones = Table("zone", "kind", "per", "face-down pieces seen by", box=box.SIMPLE, title="Zones")
    for z in data["zones"]:
        zones.add_row(*_cells(z["name"], z["kind"], z["per"], z["seen_by"]))
    parts.append(zones)
    if data["variables"]:
        table = Table("variable", "per", "seen by", box=box.SIMPLE, title="Variables")
        for v in data["variables"]:
            table.add_row(*_cells(v["name"], v["per"], v["seen_by"]))
        parts.append(table)
    if data["patterns"]:
        pats = Table("pattern", "constraints", box=box.SIMPLE, title="Patterns")
        for name, text in data["patterns"].items():
            pats.add_row(*_cells(name, text))
        parts.append(pats)
    if data["phases"]:
        parts.append(Text("Phases: " + ", ".join(data["phases"])))
    if data["rulings"]:
        table = Table("where", "ruling", "where the ruleset says", box=box.SIMPLE,
                      title=f"Rulings applied (their texts: {data['rulings_doc']})")
        for r in data["rulings"]:
            table.add_row(*_cells(f"{r['file']}:{r['line']}", r["rulings"], r["comment"]))
        parts.append(table)
    return Group(*parts)


def _cells(*texts: str) -> list[Text]:
    """Table cells as text, never read as rich markup."""
    return [Text(t) for t in texts]


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


def explain_types(found: list[Any], text: str) -> RenderableType:
    """``rulepack explain --types``: each line of the ruleset that has typed names,
    then each name or expression on it with its kind (``Inferred`` items of
    :func:`rulepack.validation.inferred_types`)."""
    lines = text.splitlines()
    table = Table(box=box.SIMPLE, show_header=True, title="Kinds the type check infers")
    table.add_column("line", justify="right", style="dim")
    table.add_column("ruleset")
    table.add_column("kind")
    last = None
    for item in found:
        if item.line != last:
            source = _without_comment(lines[item.line - 1]) if 0 < item.line <= len(lines) \
                else ""
            table.add_row(str(item.line), Text(printable(source), style="bold"), "")
            last = item.line
        table.add_row("", Text(f"  {printable(item.text)}"), Text(printable(item.kind)))
    return table


def _without_comment(line: str) -> str:
    """A line of a ruleset without its comment (a ``#`` outside a string) and the
    spaces around."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i].strip()
    return line.strip()
