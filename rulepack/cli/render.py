"""Showing games with rich: a player's view, event lines, results, summaries.

Everything here reads plain data — views (see
:mod:`rulepack.interpreter.views`), :class:`~rulepack.cli.events.Event` lines
and result dicts — and builds rich renderables from :class:`rich.text.Text`
(never markup strings: labels such as ``hand[player 1]`` would read as markup).
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.rule import Rule
from rich.style import Style
from rich.table import Table
from rich.text import Text

from rulepack.cli.events import Event

_PLURALS = {"die": "dice", "child": "children"}


def plural(kind: str, n: int) -> str:
    """``("tile", 3)`` → ``"3 tiles"``; ``("tile", 1)`` → ``"1 tile"``."""
    if n == 1:
        return f"1 {kind}"
    word = _PLURALS.get(kind)
    if word is None:
        word = kind + "es" if kind.endswith(("s", "x", "ch", "sh")) else kind + "s"
    return f"{n} {word}"


def seat_name(seats: list[str], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return seats[seat] if 0 <= seat < len(seats) else f"player {seat + 1}"


# ---------------------------------------------------------------------- values
def value_text(value: Any, seats: list[str], nested: bool = False) -> str:
    """Readable text for a masked view value (see ``views.masked_value``)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if value.get("hidden"):
            return f"a face-down {value.get('kind', 'piece')}"
        if "name" in value and "id" in value:
            return str(value["name"])
        if "player" in value and len(value) == 1:
            return seat_name(seats, value["player"])
        for key in ("zone", "cell", "pattern"):
            if key in value and len(value) == 1:
                return str(value[key])
        return ", ".join(f"{k}: {value_text(v, seats, True)}" for k, v in value.items())
    if isinstance(value, list):
        if not value:
            return "—"
        inner = ", ".join(value_text(v, seats, True) for v in value)
        return f"({inner})" if nested else inner
    return str(value)


def _piece_label(piece: dict[str, Any], own_zone: bool) -> str:
    name = str(piece.get("name", piece.get("kind", "piece")))
    if piece.get("face") == "down" and not own_zone:
        name += " (face down)"
    return name


def _runs(pieces: list[dict[str, Any]], own_zone: bool) -> list[tuple[str, bool]]:
    """Piece labels in order, consecutive hidden pieces of a kind counted together.
    Each entry: (text, hidden?)."""
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        if p.get("hidden"):
            kind = p.get("kind", "piece")
            j = i
            while j < len(pieces) and pieces[j].get("hidden") and pieces[j].get("kind") == kind:
                j += 1
            n = j - i
            out.append((f"a face-down {kind}" if n == 1 else f"{plural(kind, n)} face down", True))
            i = j
        else:
            out.append((_piece_label(p, own_zone), False))
            i += 1
    return out


def _join(parts: list[tuple[str, bool]]) -> Text:
    text = Text()
    for k, (label, hidden) in enumerate(parts):
        if k:
            text.append(", ")
        text.append(label, style="dim italic" if hidden else "")
    return text


def zone_contents(zone: dict[str, Any], viewer: int | None,
                  seats: list[str] | None = None) -> RenderableType:
    """One zone of a view as text (a small table for a grid)."""
    own = zone.get("owner") is not None and zone.get("owner") == viewer
    kind = zone.get("kind")
    if kind == "grid":
        return grid_table(zone, seats)
    if "groups" in zone:
        groups = zone.get("groups") or []
        if not groups:
            return Text("empty", style="dim")
        text = Text()
        for k, group in enumerate(groups):
            if k:
                text.append("\n")
            text.append(f"{k + 1}. ")
            text.append_text(_join(_runs(list(group), own)))
        return text
    pieces = list(zone.get("pieces") or [])
    hidden_count = int(zone.get("hidden") or 0) if kind == "pile" else 0
    if not pieces and not hidden_count:
        return Text("empty", style="dim")
    if kind == "stack":
        pieces = pieces[::-1]
    parts = _runs(pieces, own)
    if hidden_count:
        parts.append((f"{hidden_count} hidden {'piece' if hidden_count == 1 else 'pieces'}", True))
    text = _join(parts)
    if kind == "stack" and len(pieces) > 1 and not all(p.get("hidden") for p in pieces):
        text = Text("top: ", style="dim") + text
    return text


#: Seat colours for seats whose names are not colours, by seat index.
SEAT_PALETTE = ["red", "blue", "green", "yellow", "magenta", "cyan", "bright_red", "bright_blue"]


def seat_colour(seats: list[str], seat: int) -> str:
    """The colour of a seat: its name when that is a colour rich knows (``red``,
    ``yellow``...), else :data:`SEAT_PALETTE` by seat index."""
    name = seat_name(seats, seat).strip().lower()
    try:
        Color.parse(name)
        return name
    except ColorParseError:
        return SEAT_PALETTE[seat % len(SEAT_PALETTE)]


def seat_style(seats: list[str], seat: int) -> Style:
    """A piece owned by ``seat``: its label in bold on the seat's colour (as a
    Multiplay cube shows its number on its owner's colour), black or white text
    for contrast."""
    colour = Color.parse(seat_colour(seats, seat))
    r, g, b = colour.get_truecolor()
    light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 110
    return Style(bold=True, color="black" if light else "bright_white", bgcolor=colour)


def seat_marks(seats: list[str]) -> list[str]:
    """One-letter marks for the seats on a board printed without colour: the seats'
    initials when they differ (``r``, ``y``, ``g``, ``b``), else ``A``, ``B``..."""
    initials = [seat_name(seats, p)[:1].lower() for p in range(len(seats))]
    if all(i.isalpha() for i in initials) and len(set(initials)) == len(initials):
        return initials
    return [chr(ord("A") + p) if p < 26 else str(p + 1) for p in range(len(seats))]


class GridBoard:
    """A grid zone as a table: columns a, b, c..., rows 1, 2, 3...; holes are blank.

    A piece with an owner shows in its owner's colour (:func:`seat_style`); on a
    console without colour it carries its owner's mark instead (``24r``), with a
    legend under the board.
    """

    def __init__(self, zone: dict[str, Any], seats: list[str] | None = None) -> None:
        self.zone = zone
        self.seats = list(seats or [])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        coloured = console.color_system is not None and not console.no_color
        yield self.table(coloured)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        coloured = console.color_system is not None and not console.no_color
        return Measurement.get(console, options, self.table(coloured))

    def table(self, coloured: bool) -> Table:
        zone = self.zone
        rows, cols = int(zone.get("rows") or 0), int(zone.get("cols") or 0)
        cells: dict[tuple[int, int], Any] = {}
        labels: dict[int, str] = {}
        for cell in zone.get("cells") or []:
            r, c = int(cell["row"]), int(cell["col"])
            cells[(r, c)] = cell.get("piece")
            label = str(cell.get("cell", ""))
            labels.setdefault(c, label.rstrip("0123456789") or str(c))
        shown = [p for p in cells.values() if p and not p.get("hidden")]
        owners = sorted({int(p["owner"]) for p in shown if p.get("owner") is not None})
        seats = list(self.seats)
        while owners and len(seats) <= owners[-1]:
            seats.append(f"player {len(seats) + 1}")
        marks = seat_marks(seats) if owners else []
        # every piece as a chip of one width: " 24 " (" 24r" without colour)
        width = max([len(_piece_label(p, False)) for p in shown] + [3])
        # no column rules: chips of one colour side by side read as a row
        table = Table(box=None, show_header=True, header_style="bold", padding=(0, 0),
                      pad_edge=False)
        table.add_column("", justify="right")
        for c in range(1, cols + 1):
            table.add_column(labels.get(c, str(c)), justify="center", min_width=width + 2)
        for r in range(1, rows + 1):
            row: list[RenderableType] = [Text(f"{r} ", style="dim")]
            for c in range(1, cols + 1):
                if (r, c) not in cells:
                    row.append(Text(" "))
                    continue
                piece = cells[(r, c)]
                if piece is None:
                    row.append(Text("·", style="dim"))
                elif piece.get("hidden"):
                    row.append(Text("▒" * width, style="dim"))
                elif piece.get("owner") is not None:
                    seat = int(piece["owner"])
                    label = _piece_label(piece, False).rjust(width)
                    if coloured:
                        row.append(Text(f" {label} ", style=seat_style(seats, seat)))
                    else:
                        row.append(Text(f" {label}{marks[seat]}", style="bold"))
                else:
                    row.append(Text(f" {_piece_label(piece, False).rjust(width)} "))
            table.add_row(*row)
        if owners:
            table.caption = self.legend(seats, marks, coloured)
            table.caption_justify = "left"
        return table

    @staticmethod
    def legend(seats: list[str], marks: list[str], coloured: bool) -> Text:
        text = Text()
        for p in range(len(seats)):
            if p:
                text.append("  ")
            if coloured:
                text.append(f" {seat_name(seats, p)} ", style=seat_style(seats, p))
            else:
                text.append(f"{marks[p]} = {seat_name(seats, p)}")
        text.append("  plain: nobody's" if coloured else "  no mark: nobody's")
        return text


def grid_table(zone: dict[str, Any], seats: list[str] | None = None) -> GridBoard:
    """A grid zone as a board (see :class:`GridBoard`): pieces in their cells,
    column letters and row numbers, owned pieces in their owner's colour."""
    return GridBoard(zone, seats)


# ---------------------------------------------------------------------- views
def chance_names(ir: dict[str, Any]) -> list[str]:
    """Names the flow binds to a chance outcome (``let roll = random(1..12)``), in
    the order of the ruleset: a player should see the die they must play with."""
    out: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            expr = node.get("expr")
            if (node.get("k") == "let" and isinstance(node.get("bind"), str)
                    and isinstance(expr, dict) and expr.get("k") == "call"
                    and expr.get("fn") == "random" and node["bind"] not in out):
                out.append(node["bind"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(ir.get("setup"))
    walk(ir.get("phases"))
    walk(ir.get("play"))
    return out


def flow_value_text(value: Any, seats: list[str]) -> str:
    """A flow variable of a view (tagged as in ``serialize.encode``) as text."""
    if isinstance(value, dict):
        if "player" in value and len(value) == 1:
            return seat_name(seats, int(value["player"]))
        if "tuple" in value:
            return "(" + ", ".join(flow_value_text(v, seats) for v in value["tuple"]) + ")"
        if "hidden" in value:
            return f"a face-down {value['hidden']}"
    if isinstance(value, list):
        return ", ".join(flow_value_text(v, seats) for v in value) or "—"
    return value_text(value, seats)


def scores_text(scores: list[Any] | None, seats: list[str],
                viewer: int | None = None) -> Text | None:
    if scores is None:
        return None
    text = Text("Scores: ", style="bold")
    for p, s in enumerate(scores):
        if p:
            text.append(" · ")
        name = seat_name(seats, p) + (" (you)" if p == viewer else "")
        text.append(f"{name} {s}")
    return text


def view_renderable(view: dict[str, Any], title: str,
                    per_player: set[str] | None = None,
                    chance: list[str] | None = None) -> RenderableType:
    """A player's view: header, scores, zones and variables.

    :param per_player: names of per-player variables (their value is one per seat).
    :param chance: names of flow values bound to chance outcomes (see
        :func:`chance_names`), shown with the variables when the flow holds them.
    """
    viewer = view.get("player")
    seats = list(view.get("seats") or [])
    parts: list[RenderableType] = []
    head = f"{title} · {seat_name(seats, viewer)}"
    if view.get("round"):
        head = f"{title} · round {view['round']} · {seat_name(seats, viewer)}"
    parts.append(Rule(Text(head, style="bold")))
    scores = scores_text(view.get("scores"), seats, viewer)
    if scores is not None:
        parts.append(scores)
    table = Table(box=None, show_header=False, padding=(0, 1), expand=False)
    table.add_column("zone", style="bold", no_wrap=True)
    table.add_column("count", justify="right", style="dim")
    table.add_column("pieces")
    for label, zone in (view.get("zones") or {}).items():
        name = Text(str(label))
        if zone.get("owner") is not None and zone.get("owner") == viewer:
            name = Text(f"{label} (yours)", style="bold green")
        count = zone.get("count")
        if zone.get("kind") == "grid":
            count = sum(1 for c in zone.get("cells") or [] if c.get("piece") is not None)
        table.add_row(name, Text("" if count is None else str(count)),
                      zone_contents(zone, viewer, seats))
    parts.append(table)
    variables = dict(view.get("variables") or {})
    flow_vars = (view.get("flow") or {}).get("vars") or {}
    extra = {name: flow_value_text(flow_vars[name], seats) for name in (chance or [])
             if name not in variables and flow_vars.get(name) is not None}
    if variables or extra:
        vt = Table(box=None, show_header=False, padding=(0, 1))
        vt.add_column("name", style="bold", no_wrap=True)
        vt.add_column("value")
        for name, value in variables.items():
            if per_player and name in per_player and isinstance(value, list) \
                    and len(value) == len(seats):
                shown = "; ".join(f"{seat_name(seats, p)}: {value_text(v, seats)}"
                                  for p, v in enumerate(value))
            else:
                shown = value_text(value, seats)
            vt.add_row(Text(name), Text(shown))
        for name, shown in extra.items():
            vt.add_row(Text(name), Text(shown, style="bold"))
        parts.append(Text("Variables", style="bold"))
        parts.append(vt)
    return Group(*parts)


def actions_renderable(texts: list[str]) -> RenderableType:
    """The numbered legal actions."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column("n", justify="right", style="bold cyan")
    table.add_column("action")
    for i, t in enumerate(texts, 1):
        table.add_row(f"{i}.", Text(t))
    return Group(Text("Your move:", style="bold"), table)


# ---------------------------------------------------------------------- events
def event_text(event: Event, seats: list[str], viewer: int | None = None) -> Text:
    """``"player 2: draw the top tile of the stack"``; chance events dimmed."""
    if event.kind == "chance":
        return Text(f"chance: {event.text}", style="dim")
    if event.kind == "reveal":
        return Text(event.text, style="italic")
    who = seat_name(seats, event.player)
    if viewer is not None and event.player == viewer:
        who += " (you)"
    text = Text()
    text.append(f"{who}: ", style="bold")
    text.append(event.text)
    return text


# ---------------------------------------------------------------------- results
def winners_text(result: dict[str, Any], seats: list[str]) -> Text:
    winners = list(result.get("winners") or [])
    if not result.get("terminal", True):
        return Text("The game did not finish.", style="bold yellow")
    if not winners:
        return Text("Draw: nobody wins.", style="bold")
    names = ", ".join(seat_name(seats, w) for w in winners)
    if len(winners) == 1:
        return Text(f"Winner: {names}", style="bold green")
    return Text(f"Winners (shared): {names}", style="bold green")


def result_renderable(result: dict[str, Any], seats: list[str], kinds: list[str],
                      viewer: int | None = None) -> RenderableType:
    """The scores table and the winners line."""
    winners = set(result.get("winners") or [])
    scores = result.get("scores")
    table = Table(title="Result", box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("seat")
    table.add_column("played by")
    if scores is not None:
        table.add_column("score", justify="right")
    table.add_column("")
    for p in range(len(seats)):
        kind = "you" if viewer is not None and p == viewer else (kinds[p] if p < len(kinds) else "")
        row = [Text(seat_name(seats, p)), Text(kind)]
        if scores is not None:
            row.append(Text(str(scores[p])))
        row.append(Text("winner" if p in winners else "", style="bold green"))
        table.add_row(*row)
    return Group(table, winners_text(result, seats))


def summary_renderable(summary: dict[str, Any]) -> RenderableType:
    """The table of a simulation (see :func:`rulepack.cli.simulate.summarise`)."""
    table = Table(title=f"{summary['title']}: {summary['games']} games, "
                        f"{summary['players']} players, seed {summary['seed']}",
                  box=box.SIMPLE_HEAD, title_justify="left")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("mean score", justify="right")
    for s in summary["seats"]:
        mean = s["mean_score"]
        table.add_row(Text(s["name"]), Text(s["agent"]), str(s["wins"]), f"{s['win_rate']:.1%}",
                      "—" if mean is None else f"{mean:.2f}")
    facts = Table(box=None, show_header=False, padding=(0, 1))
    facts.add_column("what", style="bold")
    facts.add_column("value", justify="right")
    facts.add_row("mean length", f"{summary['mean_decisions']:.1f} decisions")
    facts.add_row("draws", str(summary["draws"]))
    facts.add_row("ties", f"{summary['ties']} (games with more than one winner)")
    facts.add_row("speed", f"{summary['games_per_second']:.1f} games/s")
    return Group(table, facts)
