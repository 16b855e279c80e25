"""Showing games with rich: a player's view, event lines, results, summaries.

Everything here reads plain data — views (see
:mod:`rulepack.engine.views`), :class:`~rulepack.story.Event` lines
and result dicts — and builds rich renderables from :class:`rich.text.Text`
(never markup strings: labels such as ``hand[player 1]`` would read as markup).
Texts of the ruleset in them (names, labels, action and event texts, titles) are
shown :func:`~rulepack.printable.printable`: control characters and line breaks
written out as escapes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich import box
from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.rule import Rule
from rich.style import Style
from rich.table import Table
from rich.text import Text

from rulepack.story import Event, line
# its home is rulepack.ir (pictures use it); re-exported for the session
from rulepack.ir import chance_names as chance_names  # noqa: F401
from rulepack.printable import printable, printable_data

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.outcome import Outcome

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
    return printable(seats[seat]) if 0 <= seat < len(seats) else f"player {seat + 1}"


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
            return _piece_label(value, True)
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
    if isinstance(piece.get("rolls"), str):           # a die: the face it shows
        name += f" showing {value_text(piece.get(piece['rolls']), [])}"
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
                  seats: list[str] | None = None, compact: bool = False) -> RenderableType:
    """One zone of a view as text (a small table for a grid).

    :param compact: a stack shows only its top piece (``top: NAME``; its count is shown
        beside it by :func:`view_renderable`).
    """
    own = zone.get("owner") is not None and zone.get("owner") == viewer
    kind = zone.get("kind")
    if kind == "grid":
        return grid_table(zone, seats)
    groups = zone.get("groups")
    if groups:
        # a groups zone (PackKub's table): one numbered line per group
        text = Text()
        width = len(str(len(groups)))
        for k, group in enumerate(groups):
            if k:
                text.append("\n")
            text.append(f"{k + 1:>{width}}. ", style="bold")
            text.append_text(_join(_runs(list(group), own)))
        return text
    # a groups zone not arranged yet (``groups`` is None) lists its pieces as they lie
    pieces = list(zone.get("pieces") or [])
    hidden_count = int(zone.get("hidden") or 0) if kind == "pile" else 0
    if not pieces and not hidden_count:
        return Text("empty", style="dim")
    if kind == "stack":
        pieces = pieces[::-1]
        if compact and len(pieces) > 1:
            return Text("top: ", style="dim") + _join(_runs(pieces[:1], own))
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

    The board fits the width it is given: every piece is a chip of one width, the
    longest name; if that is too wide, names wrap inside narrower chips (as wide as
    their longest word); if the columns still do not fit (a line of 24 cells), the
    board is printed in bands of columns, one under the other, each with its column
    letters and row numbers.
    """

    def __init__(self, zone: dict[str, Any], seats: list[str] | None = None) -> None:
        self.zone = zone
        self.seats = list(seats or [])
        rows, cols = int(zone.get("rows") or 0), int(zone.get("cols") or 0)
        self.rows, self.cols = rows, cols
        self.cells: dict[tuple[int, int], Any] = {}
        self.labels: dict[int, str] = {}
        for cell in zone.get("cells") or []:
            r, c = int(cell["row"]), int(cell["col"])
            piece = cell.get("piece")
            stack = cell.get("stack") or []
            if len(stack) > 1 and piece is not None and not piece.get("hidden"):
                # a stacked grid's cell: its top, and how many pieces the stack holds
                piece = {**piece, "name": f"{piece.get('name', piece.get('kind'))} "
                                          f"(stack of {len(stack)})"}
            if piece is not None and not piece.get("hidden") and piece.get("angle"):
                # a piece turned: the way it points (PPN's ^ < v >)
                arrow = {90: "<", 180: "v", 270: ">"}.get(int(piece["angle"]),
                                                          f"{piece['angle']}°")
                piece = {**piece, "name": f"{piece.get('name', piece.get('kind'))} {arrow}"}
            self.cells[(r, c)] = piece
            label = str(cell.get("cell", ""))
            self.labels.setdefault(c, label.rstrip("0123456789") or str(c))
        # a grid that names its cells as PPN does says how (rows from the bottom)
        self.labels.update(enumerate(zone.get("column_names") or [], 1))
        self.row_names: dict[int, str] = dict(enumerate(zone.get("row_names") or [], 1))
        self.shown = [p for p in self.cells.values() if p and not p.get("hidden")]
        owners = sorted({int(p["owner"]) for p in self.shown if p.get("owner") is not None})
        seats = list(self.seats)
        while owners and len(seats) <= owners[-1]:
            seats.append(f"player {len(seats) + 1}")
        self.owners = owners
        self.all_seats = seats
        self.marks = seat_marks(seats) if owners else []
        names = [_piece_label(p, False) for p in self.shown]
        # every piece as a chip of one width: " 24 " (" 24r" without colour)
        self.full_width = max([len(n) for n in names] + [3])
        # narrow chips: names wrapped at spaces (a mark glued to the last word)
        words = [len(w) for n in names for w in n.split()]
        self.narrow_width = min(self.full_width,
                                max(words + [3]) + (1 if self.owners else 0))
        self.head = len(str(rows)) + 1

    def width_for(self, chip: int, columns: int) -> int:
        """Characters a band of ``columns`` columns of chips ``chip`` wide needs."""
        return self.head + columns * (chip + 2)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        coloured = console.color_system is not None and not console.no_color
        yield self.table(coloured, options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        smallest = self.width_for(self.narrow_width, min(1, self.cols))
        largest = self.width_for(self.full_width, self.cols)
        return Measurement(smallest, largest).clamp(max_width=options.max_width)

    def table(self, coloured: bool, max_width: int | None = None) -> RenderableType:
        """The board as one table, or as bands of columns if ``max_width`` is too small."""
        columns = list(range(1, self.cols + 1))
        if max_width is None or self.width_for(self.full_width, self.cols) <= max_width:
            return self.band(columns, coloured, self.full_width, wrap=False, legend=True)
        chip = self.narrow_width
        if self.width_for(chip, self.cols) <= max_width:
            return self.band(columns, coloured, chip, wrap=True, legend=True)
        per = max(1, (max_width - self.head) // (chip + 2))
        count = -(-self.cols // per)
        per = -(-self.cols // count)                      # bands of even widths
        parts: list[RenderableType] = []
        for k in range(count):
            if k:
                parts.append(Text(""))
            parts.append(self.band(columns[k * per:(k + 1) * per], coloured, chip, wrap=True,
                                   legend=k == count - 1))
        return Group(*parts)

    def band(self, columns: list[int], coloured: bool, width: int, wrap: bool,
             legend: bool) -> Table:
        """Some columns of the board with chips ``width`` wide (names wrapped if ``wrap``)."""
        seats, marks = self.all_seats, self.marks
        if wrap:
            table = Table(box=None, show_header=True, header_style="bold", padding=(0, 1),
                          pad_edge=False)
            table.add_column("", justify="right", no_wrap=True)
            for c in columns:
                table.add_column(self.labels.get(c, str(c)), justify="center", width=width)
        else:
            # no column rules: chips of one colour side by side read as a row
            table = Table(box=None, show_header=True, header_style="bold", padding=(0, 0),
                          pad_edge=False)
            table.add_column("", justify="right")
            for c in columns:
                table.add_column(self.labels.get(c, str(c)), justify="center",
                                 min_width=width + 2)
        for r in range(1, self.rows + 1):
            name = self.row_names.get(r, str(r))
            row: list[RenderableType] = [Text(f"{name} " if not wrap else name, style="dim")]
            for c in columns:
                row.append(self.chip(self.cells.get((r, c), _HOLE), r, c, coloured, width, wrap))
            table.add_row(*row)
        if self.owners and legend:
            table.caption = self.legend(seats, marks, coloured)
            table.caption_justify = "left"
        return table

    def chip(self, piece: Any, r: int, c: int, coloured: bool, width: int, wrap: bool) -> Text:
        if piece is _HOLE:
            return Text(" ")
        if piece is None:
            return Text("·", style="dim")
        if piece.get("hidden"):
            return Text("▒" * width, style="dim")
        label = _piece_label(piece, False)
        if piece.get("owner") is not None:
            seat = int(piece["owner"])
            if wrap:
                if coloured:
                    return Text(label, style=seat_style(self.all_seats, seat), justify="center")
                return Text(f"{label}{self.marks[seat]}", style="bold", justify="center")
            label = label.rjust(width)
            if coloured:
                return Text(f" {label} ", style=seat_style(self.all_seats, seat))
            return Text(f" {label}{self.marks[seat]}", style="bold")
        if wrap:
            return Text(label, justify="center")
        return Text(f" {label.rjust(width)} ")

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


#: A place of a grid's rectangle that is no cell (Mismemory's gap in the centre).
_HOLE = object()


def grid_table(zone: dict[str, Any], seats: list[str] | None = None) -> GridBoard:
    """A grid zone as a board (see :class:`GridBoard`): pieces in their cells,
    column letters and row numbers, owned pieces in their owner's colour."""
    return GridBoard(zone, seats)


# ---------------------------------------------------------------------- views
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
        text.append(f"{name} {'?' if s is None else s}")     # None: a secret score
    return text


#: A variable's value (or entry) the viewer may not see (see ``engine.views``): left out.
_SECRET = {"hidden": True}

#: The first characters of variable names that are bookkeeping, not for players:
#: the compact screen leaves them out.
INTERNAL_PREFIXES = ("_", "$")


def is_shown(zone: dict[str, Any]) -> bool:
    """Whether the compact screen shows a zone: a grid always, another zone when it
    holds pieces (seen or hidden)."""
    return zone.get("kind") == "grid" or bool(zone.get("count") or zone.get("pieces")
                                               or zone.get("hidden"))


def view_renderable(view: dict[str, Any], title: str,
                    per_player: set[str] | None = None,
                    chance: list[str] | None = None, compact: bool = False,
                    per_team: dict[str, list[str]] | None = None) -> RenderableType:
    """A player's view: header, scores, zones and variables.

    :param per_player: names of per-player variables (their value is one per seat).
    :param per_team: per-team variables (their value is one per team): name → each
        team's label (``"north & south"``), in the order of the teams.
    :param chance: names of flow values bound to chance outcomes (see
        :func:`chance_names`), shown with the variables when the flow holds them.
    :param compact: leave out empty zones other than grids (see :func:`is_shown`) and
        variables whose names start with ``_`` or ``$`` (:data:`INTERNAL_PREFIXES`), and
        show a stack as its count and top piece (what ``rulepack play`` shows without
        ``--verbose``).
    """
    view = printable_data(view)
    title = printable(title)
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
        if compact and not is_shown(zone):
            continue
        heading = Text(str(label))
        if zone.get("owner") is not None and zone.get("owner") == viewer:
            heading = Text(f"{label} (yours)", style="bold green")
        count = zone.get("count")
        if zone.get("kind") == "grid":
            count = sum(len(c["stack"]) if "stack" in c else c.get("piece") is not None
                        for c in zone.get("cells") or [])
        table.add_row(heading, Text("" if count is None else str(count)),
                      zone_contents(zone, viewer, seats, compact))
    parts.append(table)
    variables = {name: value for name, value in (view.get("variables") or {}).items()
                 if not (compact and str(name).startswith(INTERNAL_PREFIXES))
                 and value != _SECRET}
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
                                  for p, v in enumerate(value) if v != _SECRET)
            elif per_team and name in per_team and isinstance(value, list) \
                    and len(value) == len(per_team[name]):
                shown = "; ".join(f"{printable(team)}: {value_text(v, seats)}"
                                  for team, v in zip(per_team[name], value) if v != _SECRET)
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
        table.add_row(f"{i}.", Text(printable(t)))
    return Group(Text("Your move:", style="bold"), table)


# ---------------------------------------------------------------------- events
def event_text(event: Event, seats: list[str], viewer: int | None = None) -> Text:
    """``"player 2: draw the top tile of the stack"`` (:func:`rulepack.story.line`),
    the player's name bold; chance events dimmed, reveals in italics, narrations bold."""
    plain = line(event, seats, viewer)
    style = {"chance": "dim", "reveal": "italic", "say": "bold"}.get(event.kind)
    if style is not None:
        return Text(plain, style=style)
    text = Text(plain)
    text.stylize("bold", 0, len(plain) - len(printable(event.text)))
    return text


# ---------------------------------------------------------------------- results
def winners_text(result: "Outcome", seats: list[str]) -> Text:
    winners = list(result.get("winners") or [])
    if not result.get("terminal", True):
        return Text("The game did not finish.", style="bold yellow")
    if not winners:
        if not result.get("draw", True):
            return Text("Lost: nobody wins.", style="bold red")
        return Text("Draw: nobody wins.", style="bold")
    teams = [t["players"] for t in result.get("teams") or () if t["winner"]]
    if teams:
        names = ", ".join(" + ".join(seat_name(seats, p) for p in team) for team in teams)
        if len(teams) == 1:
            return Text(f"Winners (team): {names}", style="bold green")
        return Text(f"Winning teams (shared): {names}", style="bold green")
    names = ", ".join(seat_name(seats, w) for w in winners)
    if len(winners) == 1:
        return Text(f"Winner: {names}", style="bold green")
    return Text(f"Winners (shared): {names}", style="bold green")


def result_renderable(result: "Outcome", seats: list[str], kinds: list[str],
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
        row = [Text(seat_name(seats, p)), Text(printable(kind))]
        if scores is not None:
            row.append(Text(str(scores[p])))
        row.append(Text("winner" if p in winners else "", style="bold green"))
        table.add_row(*row)
    return Group(table, winners_text(result, seats))


def rate_text(row: dict[str, Any]) -> str:
    """A win rate with its 95% interval, e.g. ``"47.0% (42.1–52.0)"``.

    :param row: a seat or agent row of a summary (``win_rate``, ``win_rate_ci95``).
    """
    lo, hi = row["win_rate_ci95"]
    return f"{row['win_rate']:.1%} ({lo * 100:.1f}–{hi * 100:.1f})"


def _rows_table(headers: list[str], cells: list[list[str]], rows: list[dict[str, Any]],
                title: str | None = None) -> Table:
    """A table of seats, agents or teams: the given columns (texts on the left,
    counts on the right), then each row's win rate and mean score."""
    table = Table(title=None if title is None else Text(title, style="table.title"),
                  box=box.SIMPLE_HEAD, title_justify="left")
    for h in headers:
        table.add_column(h, justify="right" if h in ("#", "games", "wins", "losses", "draws")
                         else "left")
    table.add_column("win rate (95% CI)", justify="right")
    table.add_column("mean score", justify="right")
    for row, texts in zip(rows, cells):
        mean = row["mean_score"]
        table.add_row(*(Text(t) for t in texts), rate_text(row),
                      "—" if mean is None else f"{mean:.2f}")
    return table


def summary_renderable(summary: dict[str, Any]) -> RenderableType:
    """The tables of a simulation summary (see :func:`rulepack.cli.simulate.simulate`): one row per seat,
    with ``rotate`` one row per agent entry too, then length, draws, ties, speed."""
    summary = printable_data(summary)
    rotated = summary.get("rotate", False)
    n = summary["players"]
    title = (f"{summary['title']}: {summary['games']} games, {n} player{'s' if n != 1 else ''}, "
             f"seed {summary['seed']}" + (", seats rotated" if rotated else ""))
    parts: list[RenderableType] = [_rows_table(
        ["seat", "agent", "wins"], [[s["name"], s["agent"], str(s["wins"])] for s in summary["seats"]],
        summary["seats"], title=title)]
    if rotated:
        parts.append(_rows_table(
            ["#", "agent", "games", "wins"],
            [[str(a["entry"]), a["name"], str(a["games"]), str(a["wins"])]
             for a in summary["agents"]], summary["agents"]))
    if summary.get("teams"):
        parts.append(_rows_table(
            ["team", "wins", "losses", "draws"],
            [[t["name"], str(t["wins"]), str(t["losses"]), str(t["draws"])]
             for t in summary["teams"]], summary["teams"]))
    facts = Table(box=None, show_header=False, padding=(0, 1))
    facts.add_column("what", style="bold")
    facts.add_column("value", justify="right")
    facts.add_row("mean length", f"{summary['mean_decisions']:.1f} decisions")
    facts.add_row("draws", str(summary["draws"]))
    facts.add_row("ties", f"{summary['ties']} (games with more than one winn"
                          f"{'ing team' if summary.get('teams') else 'er'})")
    facts.add_row("speed", f"{summary['games_per_second']:.1f} games/s")
    parts.append(facts)
    return Group(*parts)
