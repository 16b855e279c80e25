"""A view as a picture: the table in the middle, the seats' areas around it.

The layout: a heading (the game, whose view, the round, whose turn or the
result), the seats' areas above and below the table (each with the seat's
name, colour and score, and the zones the seat owns), and between them the
shared zones (zones declared ``per`` something other than a player drawn
together, one frame per declaration). The ``box`` of pieces out of play is
only counted.

:func:`svg_bytes` and :func:`png_bytes` give the same bytes for the same view.
"""

from __future__ import annotations

from typing import Any

import drawsvg as dw

from rulepack.render.appearance import Appearance, ink
from rulepack.render.blocks import Block, column, empty, flow, frame, label, place
from rulepack.render.pieces import r1
from rulepack.render.zones import family_block, zone_block
from rulepack.printable import printable, printable_data

MARGIN = 12
#: The widest a band of seats' areas or the table may grow before wrapping, pixels.
MAX_WIDTH = 1100
BACKGROUND = "#f4f0e6"


def seat_name(seats: list[str], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return seats[seat] if 0 <= seat < len(seats) else f"player {seat + 1}"


def view_title(view: dict[str, Any]) -> str:
    """``"table view"`` or ``"player 2's view"``."""
    seats = list(view.get("seats") or [])
    viewer = view.get("player")
    return "table view" if viewer is None else f"{seat_name(seats, viewer)}'s view"


def chance_text(view: dict[str, Any], names: list[str]) -> list[str]:
    """``"roll 7"`` for each chance outcome the flow holds that is a number or a
    text (a die roll; a random first seat is not shown)."""
    held = (view.get("flow") or {}).get("vars") or {}
    out = []
    for name in names:
        value = held.get(name)
        if isinstance(value, (int, str)) and not isinstance(value, bool):
            out.append(f"{name} {value}")
    return out


def status_text(view: dict[str, Any], chance: list[str] | None = None) -> str:
    """Where the game stands: the round, the chance outcomes the flow holds (see
    :func:`chance_text`), whose turn, or the result."""
    seats = list(view.get("seats") or [])
    parts = []
    if view.get("round"):
        parts.append(f"round {view['round']}")
    parts += chance_text(view, chance or [])
    if view.get("terminal"):
        result = view.get("result") or {}
        winners = [seat_name(seats, w) for w in result.get("winners") or []]
        parts.append("game over: " + (("winner " + ", ".join(winners)) if winners else "a draw"))
    elif view.get("current_player") is not None:
        parts.append(f"{seat_name(seats, view['current_player'])} to play")
    return " · ".join(parts)


def seat_area(app: Appearance, view: dict[str, Any], seat: int,
              zones: list[tuple[str, dict[str, Any]]]) -> Block:
    """A seat's area: its name, colour and score, and the zones it owns."""
    seats = list(view.get("seats") or [])
    head = seat_name(seats, seat)
    if view.get("player") == seat:
        head += " (you)"
    scores = view.get("scores")
    if scores is not None and seat < len(scores) and scores[seat] is not None:
        head += f" · score {scores[seat]}"
    active = view.get("active") or []
    if seat < len(active) and not active[seat]:
        head += " · out"
    elif view.get("current_player") == seat and not view.get("terminal"):
        head += " · to play"
    colour = app.seat_colour(seat)
    inner = flow([zone_block(app, zone, str(zone.get("name", label_)))
                  for label_, zone in zones], 6, MAX_WIDTH * 0.6) if zones else empty(120, 4)
    stripe = label(head, 13, ink(colour), width=max(inner.width, 0.62 * 13 * len(head)))

    def paint_head(g: dw.Group) -> None:
        g.append(dw.Rectangle(-4, -2, r1(stripe.width + 8), r1(stripe.height + 3), rx=4,
                              fill=colour))
        stripe.paint(g)
    header = Block(stripe.width, stripe.height + 2, paint_head)
    return frame(column([header, inner], 6), None, pad=8, fill="#fbf8f0", stroke=colour,
                 stroke_width=2)


def shared_zones(app: Appearance, view: dict[str, Any]) -> list[Block]:
    """The zones nobody owns, a family (``coins[suns]``...) in one frame."""
    families: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    order: list[str] = []
    for label_, zone in (view.get("zones") or {}).items():
        if zone.get("owner") is not None or label_ == "box":
            continue
        name = str(zone.get("name", label_))
        if name not in families:
            families[name] = []
            order.append(name)
        key = label_[len(name) + 1:-1] if label_.startswith(name + "[") else label_
        families[name].append((key, zone))
    blocks = []
    for name in order:
        members = families[name]
        if len(members) == 1 and members[0][0] == name:
            blocks.append(zone_block(app, members[0][1], name))
        else:
            blocks.append(family_block(app, name, members))
    return blocks


def around(view: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The seats above the table and those below it: the viewer (else the first
    seat) below, the others in turn order from the left above, then below."""
    n = int(view.get("players") or len(view.get("seats") or []))
    first = view.get("player") or 0
    order = [(first + k) % n for k in range(n)]
    top = order[1:1 + n // 2]
    bottom = [order[0]] + order[1 + n // 2:]
    return top, bottom


def picture_block(app: Appearance, view: dict[str, Any], title: str,
                  caption: str = "") -> Block:
    """The whole picture of ``view`` (see the module's docstring)."""
    owned: dict[int, list[tuple[str, dict[str, Any]]]] = {}
    for label_, zone in (view.get("zones") or {}).items():
        if zone.get("owner") is not None:
            owned.setdefault(int(zone["owner"]), []).append((label_, zone))
    top, bottom = around(view)
    areas = {s: seat_area(app, view, s, owned.get(s, [])) for s in top + bottom}
    parts: list[Block] = [label(f"{title} · {view_title(view)}", 16)]
    status = " · ".join(p for p in (status_text(view, app.chance), caption) if p)
    if status:
        parts.append(label(status, 12, "#444444", bold=False))
    if top:
        parts.append(flow([areas[s] for s in top], 10, MAX_WIDTH))
    table = shared_zones(app, view)
    if table:
        parts.append(frame(flow(table, 10, MAX_WIDTH), "table", pad=8, fill="#e7efe4",
                           stroke="#9db493"))
    parts.append(flow([areas[s] for s in bottom], 10, MAX_WIDTH))
    box = (view.get("zones") or {}).get("box")
    if box and box.get("count"):
        parts.append(label(f"out of play (the box): {box['count']} pieces", 10, "#666666",
                           bold=False))
    return column(parts, 10)


def drawing(app: Appearance, view: dict[str, Any], title: str, caption: str = "") -> dw.Drawing:
    """The picture of ``view`` as a drawsvg drawing. Its texts (names, labels, the
    title) are drawn :func:`~rulepack.printable.printable`: a control character is
    no character of XML, and the SVG may be printed to a terminal."""
    shown = printable_data(view)
    for label_, zone in (shown.get("zones") or {}).items():
        zone.setdefault("label", label_)       # (a grid's cells are marked with it)
    body = picture_block(app, shown, printable(title), printable(caption))
    width, height = r1(body.width + 2 * MARGIN), r1(body.height + 2 * MARGIN)
    d = dw.Drawing(width, height)
    d.append(dw.Rectangle(0, 0, width, height, fill=BACKGROUND))
    place(d, body, MARGIN, MARGIN)
    return d


def svg_text(d: dw.Drawing) -> str:
    """The SVG document of a drawing (deterministic)."""
    return str(d.as_svg())


def svg_bytes(d: dw.Drawing) -> bytes:
    return svg_text(d).encode("utf-8")


def png_bytes(d: dw.Drawing, scale: float = 1.5) -> bytes:
    """The drawing as PNG (cairosvg), ``scale`` times its SVG size."""
    import cairosvg
    data = cairosvg.svg2png(bytestring=svg_bytes(d), scale=scale)
    return bytes(data) if data is not None else b""
