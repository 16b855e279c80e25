"""A zone of a view as a block, laid out by its kind.

- ``grid``: a board with column letters and row numbers (holes left blank);
- ``row``: the pieces in order, in lines of at most :data:`PER_LINE`;
- ``stack``: the top piece on the edges of those under it, and the count;
- ``pile``: the pieces shown, then one back per hidden piece (their count);
- ``groups``: each group a separate meld (the pieces as they lie while the
  zone is not arranged).

Zones are view data (see :func:`rulepack.engine.views.zone_json`): pieces the
viewer cannot see are ``{"hidden": true, "kind": back}`` and are drawn as backs.
"""

from __future__ import annotations

from typing import Any

import drawsvg as dw

from rulepack.render.appearance import Appearance
from rulepack.render.blocks import Block, flow, frame, label, place, row
from rulepack.render.pieces import draw_back, draw_piece, outline, r1, text

#: The side of a piece's slot, pixels.
SLOT = 40
GAP = 4
#: Pieces per line of a row or a pile.
PER_LINE = 12


def piece_block(app: Appearance, piece: dict[str, Any] | None, size: float = SLOT) -> Block:
    """One piece (a back if hidden) in a square slot, turned the way it points
    (its ``angle``)."""
    if piece is None:
        return Block(size, size, lambda g: None)
    if piece.get("hidden") and isinstance(piece.get("shows"), dict) and piece["shows"]:
        # a two-sided piece the viewer cannot identify, drawn as the side it shows
        # (a piecepack coin's back: its suit)
        shown = {"kind": piece.get("kind"), "name": piece.get("look", piece.get("kind")),
                 "face": piece.get("face"), **piece["shows"]}
        key: Any = ("piece", app.look(shown), size)
    elif piece.get("hidden"):
        kind = str(piece.get("kind", "piece"))
        key = ("back", kind, size)
    else:
        look = app.look(piece, own_face_down=piece.get("face") == "down")
        key = ("piece", look, size)
    markup = app.fragments.get(key)
    if markup is None:
        g = dw.Group()
        if key[0] == "back":
            draw_back(g, app.shape(key[1]), size, key[1])
        else:
            draw_piece(g, key[1], size)
        markup = fragment(g)
        app.fragments[key] = markup

    angle = piece.get("angle") or 0
    if angle:
        # turned as the piece points (degrees counter-clockwise; SVG turns clockwise)
        half = r1(size / 2)
        markup = f'<g transform="rotate({-angle} {half} {half})">{markup}</g>'
    if app.marks and isinstance(piece.get("id"), int):     # a piece the viewer sees
        markup = f'<g data-piece="{piece["id"]}">{markup}</g>'

    def paint(g: dw.Group) -> None:
        g.append(dw.Raw(markup))
    return Block(size, size, paint)


def fragment(g: dw.Group) -> str:
    """The SVG markup of a group (drawn once, then reused for every piece that
    looks the same: a picture is drawn many times faster)."""
    d = dw.Drawing(1, 1)
    d.append(g)
    body = str(d.as_svg()).split("</defs>\n", 1)[1]
    return body.rsplit("</svg>", 1)[0].rstrip("\n")


def placeholder(size: float = SLOT) -> Block:
    """An empty place: a dashed slot."""
    def paint(g: dw.Group) -> None:
        g.append(dw.Rectangle(2, 2, r1(size - 4), r1(size - 4), rx=4, fill="none",
                              stroke="#c9bfa6", stroke_dasharray="4,3"))
        text(g, "empty", size / 2, size / 2, 9, "#a89e86", bold=False)
    return Block(size, size, paint)


def pieces_flow(app: Appearance, pieces: list[dict[str, Any]], per_line: int = PER_LINE) -> Block:
    if not pieces:
        return placeholder()
    return flow([piece_block(app, p) for p in pieces], GAP, per_line * (SLOT + GAP))


def grid_block(app: Appearance, zone: dict[str, Any]) -> Block:
    """A board: cells as squares, column letters above, row numbers to the left."""
    rows, cols = int(zone.get("rows") or 0), int(zone.get("cols") or 0)
    cell = SLOT + 2
    head = 14
    cells = {(int(c["row"]), int(c["col"])): c for c in zone.get("cells") or []}
    letters: dict[int, str] = {}
    for (_, c), entry in cells.items():
        letters.setdefault(c, str(entry.get("cell", "")).rstrip("0123456789") or str(c))
    # a grid that names its cells as PPN does says how (rows from the bottom)
    letters.update(enumerate(zone.get("column_names") or [], 1))
    numbers = dict(enumerate(zone.get("row_names") or [], 1))
    width = head + cols * cell
    height = head + rows * cell

    def paint(g: dw.Group) -> None:
        for c in range(1, cols + 1):
            text(g, letters.get(c, str(c)), head + (c - 0.5) * cell, head / 2, 10, "#6b6250")
        for r in range(1, rows + 1):
            text(g, numbers.get(r, str(r)), head / 2, head + (r - 0.5) * cell, 10, "#6b6250")
        for (r, c), entry in sorted(cells.items()):
            x, y = head + (c - 1) * cell, head + (r - 1) * cell
            at = g
            if app.marks:
                at = dw.Group(data_cell=f"{zone.get('label', '')}/{entry.get('cell', '')}")
                g.append(at)
            at.append(dw.Rectangle(r1(x), r1(y), cell, cell, fill="#eadcb6", stroke="#a8976c",
                                   stroke_width=0.8))
            stack = entry.get("stack")
            if stack and len(stack) > 1:
                cell_stack(at, app, stack, x + 1, y + 1)
            elif entry.get("piece") is not None:
                place(at, piece_block(app, entry["piece"]), x + 1, y + 1)
    return Block(width, height, paint)


#: how much smaller each piece of a stack in a cell is drawn than the one under it
STACK_SCALE = 0.74


def cell_stack(g: dw.Group, app: Appearance, stack: list[dict[str, Any]], x: float,
               y: float) -> None:
    """A stacked grid's cell (``stack``: its pieces bottom to top) drawn as a stack
    seen from above: each piece smaller than the one under it and centred on it,
    and the height in the corner."""
    size = float(SLOT)
    for piece in stack:
        off = (SLOT - size) / 2
        place(g, piece_block(app, piece, r1(size)), r1(x + off), r1(y + off))
        size *= STACK_SCALE
    g.append(dw.Circle(r1(x + SLOT - 6), r1(y + 6), 6, fill="#3d3a33", stroke="#f4efe1",
                       stroke_width=0.8))
    text(g, str(len(stack)), x + SLOT - 6, y + 6, 8, "#f4efe1")


def stack_block(app: Appearance, zone: dict[str, Any]) -> Block:
    """The top piece over the edges of up to three pieces under it; the count below."""
    pieces = list(zone.get("pieces") or [])
    if not pieces:
        return placeholder()
    under = min(3, len(pieces) - 1)
    step = 3
    count = label(f"{len(pieces)} in the stack" if len(pieces) != 1 else "1 in the stack",
                  10, "#555555", bold=False)
    top = pieces[-1]

    def paint(g: dw.Group) -> None:
        for k in range(under):
            piece = pieces[-2 - (under - 1 - k)]
            sub = dw.Group(transform=f"translate({(under - k) * step},{(under - k) * step})")
            if piece.get("hidden"):
                kind = str(piece.get("kind"))
                draw_back(sub, app.shape(kind), SLOT, kind)
            else:
                outline(sub, app.shape(str(piece.get("kind"))), SLOT, "#f4efe1", "#555555")
            g.append(sub)
        place(g, piece_block(app, top), 0, 0)
        place(g, count, 0, SLOT + under * step + 3)
    return Block(max(SLOT + under * step, count.width), SLOT + under * step + 3 + count.height,
                 paint)


def pile_pieces(zone: dict[str, Any]) -> list[dict[str, Any]]:
    """The pieces of a pile as drawn: those shown, then a back per hidden one."""
    out = list(zone.get("pieces") or [])
    for kind, n in sorted((zone.get("hidden_kinds") or {}).items()):
        out += [{"hidden": True, "kind": kind}] * int(n)
    missing = int(zone.get("hidden") or 0) - sum((zone.get("hidden_kinds") or {}).values())
    out += [{"hidden": True, "kind": "piece"}] * max(0, missing)
    return out


def groups_block(app: Appearance, zone: dict[str, Any]) -> Block:
    groups = zone.get("groups")
    if groups is None:
        return pieces_flow(app, list(zone.get("pieces") or []))
    if not groups:
        return placeholder()
    melds = [frame(row([piece_block(app, p) for p in group], 2), None, pad=3, fill="#f3ecd8",
                   stroke="#c9bfa6") for group in groups]
    return flow(melds, 8, 16 * (SLOT + GAP))


def zone_content(app: Appearance, zone: dict[str, Any]) -> Block:
    """The inside of a zone, by its kind."""
    kind = zone.get("kind")
    if kind == "grid":
        return grid_block(app, zone)
    if kind == "stack":
        return stack_block(app, zone)
    if kind == "pile":
        return pieces_flow(app, pile_pieces(zone))
    if kind == "groups":
        return groups_block(app, zone)
    return pieces_flow(app, list(zone.get("pieces") or []))


def zone_count(zone: dict[str, Any]) -> int:
    if zone.get("kind") == "grid":
        return sum(len(c["stack"]) if "stack" in c else c.get("piece") is not None
                   for c in zone.get("cells") or [])
    return int(zone.get("count") or 0)


def zone_block(app: Appearance, zone: dict[str, Any], title: str) -> Block:
    """A zone in its frame, titled with its name and how many pieces it holds."""
    n = zone_count(zone)
    heading = f"{title} · {n}" if zone.get("kind") != "stack" else title
    return frame(zone_content(app, zone), heading)


def family_block(app: Appearance, name: str, members: list[tuple[str, dict[str, Any]]]) -> Block:
    """Zones declared together (``coins[suns]``, ``coins[moons]``...): one frame,
    a sub-frame per key."""
    inner = row([zone_block(app, zone, key) for key, zone in members], 6)
    return frame(inner, name, fill="#f7f1e1")
