"""One piece, or its back, as SVG shapes in a square slot.

Every function draws into a :class:`drawsvg.Group` whose origin is the slot's
top-left corner; ``size`` is the slot's side in pixels. Shapes sit centred in the
slot (a tile fills it, a coin or a die a little less). Coordinates are rounded
to tenths of a pixel so that pictures are the same bytes everywhere.
"""

from __future__ import annotations

import math

import drawsvg as dw

from rulepack.render.appearance import Look

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
#: A piece's back: the fill and the mark colour of its shape.
BACK_FILL = {"tile": "#35506b", "coin": "#b89b5e", "card": "#35506b"}
BACK_DEFAULT = "#8a939c"
MARK = "#e8e2d0"


def r1(x: float) -> float:
    """Rounded to a tenth (deterministic SVG numbers)."""
    v = round(x, 1)
    return int(v) if v == int(v) else v


def text(g: dw.Group, s: str, x: float, y: float, size: float, colour: str,
         bold: bool = True, anchor: str = "middle", max_width: float | None = None) -> None:
    """Centred text (``anchor`` middle) whose middle line is at ``y``; shrunk to
    fit ``max_width``."""
    if not s:
        return
    if max_width is not None:
        size = min(size, max_width / max(1.0, 0.62 * len(s)))
    g.append(dw.Text(s, r1(size), r1(x), r1(y + 0.36 * size), text_anchor=anchor,
                     font_family=FONT, font_weight="bold" if bold else "normal", fill=colour))


def box(shape: str, size: float) -> tuple[float, float, float, float]:
    """The rectangle ``(x, y, w, h)`` of a shape in its slot."""
    scale = {"tile": 0.96, "coin": 0.82, "die": 0.68, "pawn": 0.8, "cube": 0.86,
             "disc": 0.86, "card": 0.96, "token": 0.86}.get(shape, 0.86)
    h = size * scale
    w = h * 0.7 if shape in ("card", "pawn") else h
    return (size - w) / 2, (size - h) / 2, w, h


def outline(g: dw.Group, shape: str, size: float, fill: str, stroke: str,
            width: float = 1.2, dash: str | None = None) -> None:
    """The shape's body."""
    x, y, w, h = box(shape, size)
    extra = {"stroke_dasharray": dash} if dash else {}
    if shape in ("coin", "disc"):
        g.append(dw.Circle(r1(x + w / 2), r1(y + h / 2), r1(w / 2), fill=fill, stroke=stroke,
                           stroke_width=width, **extra))
    elif shape == "pawn":
        cx = x + w / 2
        head = w * 0.28
        body = (f"M{r1(x + w * 0.1)},{r1(y + h)} L{r1(x + w * 0.9)},{r1(y + h)} "
                f"L{r1(cx + w * 0.16)},{r1(y + head * 2)} L{r1(cx - w * 0.16)},{r1(y + head * 2)} Z")
        g.append(dw.Path(body, fill=fill, stroke=stroke, stroke_width=width, **extra))
        g.append(dw.Circle(r1(cx), r1(y + head), r1(head), fill=fill, stroke=stroke,
                           stroke_width=width, **extra))
    else:
        radius = {"tile": 0.08, "die": 0.16, "cube": 0.12, "card": 0.1, "token": 0.2}[shape]
        g.append(dw.Rectangle(r1(x), r1(y), r1(w), r1(h), rx=r1(w * radius), fill=fill,
                              stroke=stroke, stroke_width=width, **extra))
        if shape == "cube":   # a bevel: the cube's top edge
            g.append(dw.Line(r1(x + w * 0.12), r1(y + h * 0.08), r1(x + w * 0.88),
                             r1(y + h * 0.08), stroke=stroke, stroke_width=0.6, opacity=0.5))


# ---------------------------------------------------------------------- suits
def suit_symbol(g: dw.Group, symbol: str, cx: float, cy: float, r: float, colour: str,
                background: str) -> None:
    """A suit symbol of radius ``r`` centred at ``(cx, cy)``."""
    if symbol == "sun":
        for k in range(8):
            a = k * math.pi / 4
            g.append(dw.Line(r1(cx + math.cos(a) * r * 0.55), r1(cy + math.sin(a) * r * 0.55),
                             r1(cx + math.cos(a) * r), r1(cy + math.sin(a) * r),
                             stroke=colour, stroke_width=r1(max(1.0, r * 0.16)),
                             stroke_linecap="round"))
        g.append(dw.Circle(r1(cx), r1(cy), r1(r * 0.45), fill=colour))
    elif symbol == "moon":
        g.append(dw.Circle(r1(cx), r1(cy), r1(r * 0.85), fill=colour))
        g.append(dw.Circle(r1(cx + r * 0.38), r1(cy - r * 0.22), r1(r * 0.7), fill=background))
    elif symbol == "crown":
        pts = [(-0.85, 0.6), (-0.85, -0.45), (-0.45, 0.0), (0.0, -0.75), (0.45, 0.0),
               (0.85, -0.45), (0.85, 0.6)]
        _polygon(g, pts, cx, cy, r, colour)
    elif symbol == "arms":
        for sign in (1, -1):
            g.append(dw.Line(r1(cx - r * 0.75 * sign), r1(cy - r * 0.75), r1(cx + r * 0.7 * sign),
                             r1(cy + r * 0.7), stroke=colour, stroke_width=r1(max(1.2, r * 0.2)),
                             stroke_linecap="round"))
            g.append(dw.Line(r1(cx + r * 0.25 * sign), r1(cy + r * 0.65),
                             r1(cx + r * 0.65 * sign), r1(cy + r * 0.25), stroke=colour,
                             stroke_width=r1(max(1.0, r * 0.16)), stroke_linecap="round"))
    elif symbol == "diamond":
        _polygon(g, [(0, -0.9), (0.65, 0), (0, 0.9), (-0.65, 0)], cx, cy, r, colour)
    elif symbol in ("heart", "spade"):
        flip = -1 if symbol == "spade" else 1
        d = (f"M{r1(cx)},{r1(cy + 0.85 * r * flip)} "
             f"C{r1(cx - 1.3 * r)},{r1(cy + 0.05 * r * flip)} {r1(cx - 0.7 * r)},"
             f"{r1(cy - 0.95 * r * flip)} {r1(cx)},{r1(cy - 0.4 * r * flip)} "
             f"C{r1(cx + 0.7 * r)},{r1(cy - 0.95 * r * flip)} {r1(cx + 1.3 * r)},"
             f"{r1(cy + 0.05 * r * flip)} {r1(cx)},{r1(cy + 0.85 * r * flip)} Z")
        g.append(dw.Path(d, fill=colour))
        if symbol == "spade":
            _polygon(g, [(0, 0.3), (0.3, 0.95), (-0.3, 0.95)], cx, cy, r, colour)
    elif symbol == "club":
        for dx, dy in ((0, -0.45), (-0.45, 0.15), (0.45, 0.15)):
            g.append(dw.Circle(r1(cx + dx * r), r1(cy + dy * r), r1(0.38 * r), fill=colour))
        _polygon(g, [(0, 0.1), (0.3, 0.95), (-0.3, 0.95)], cx, cy, r, colour)
    else:  # "letter:X"
        text(g, symbol.partition(":")[2], cx, cy, r * 1.5, colour)


def _polygon(g: dw.Group, pts: list[tuple[float, float]], cx: float, cy: float, r: float,
             colour: str) -> None:
    flat: list[float] = []
    for px, py in pts:
        flat += [r1(cx + px * r), r1(cy + py * r)]
    g.append(dw.Lines(*flat, close=True, fill=colour))


# ---------------------------------------------------------------------- pieces
def draw_piece(g: dw.Group, look: Look, size: float) -> None:
    """A visible piece: its face (or a coin's suit side); a face-down piece the
    viewer may see has a dashed outline."""
    x, y, w, h = box(look.shape, size)
    cx, cy = x + w / 2, y + h / 2
    edge_width = 2.6 if look.edge != "#333333" else 1.2
    if look.shape == "pawn" and look.suit is not None:
        outline(g, "pawn", size, look.suit_colour, look.edge, edge_width)
    else:
        outline(g, look.shape, size, look.fill, look.edge, edge_width)
    if look.suit is not None and look.shape != "pawn":
        if look.side == "suit" or (not look.text and look.shape in ("tile", "coin", "die")):
            suit_symbol(g, look.suit, cx, cy, w * 0.3, look.suit_colour, look.fill)
        else:
            small = look.shape in ("coin", "die")
            text(g, look.text, cx, cy + (h * 0.1 if small else h * 0.08),
                 h * (0.4 if small else 0.52), look.ink, max_width=w * 0.8)
            sr = w * (0.13 if small else 0.14)
            sy = y + h * (0.2 if small else 0.2)
            sx = cx if small else x + w * 0.2
            suit_symbol(g, look.suit, sx, sy, sr, look.suit_colour, look.fill)
    elif look.text:
        text(g, look.text, cx, cy, h * 0.42, look.ink, max_width=w * 0.84)
    if look.side == "down":
        outline(g, look.shape, size, "none", "#666666", 1.4, dash="3,2")
    if look.title:
        g.append(dw.Title(look.title + (" (face down)" if look.side == "down" else "")))


def draw_back(g: dw.Group, shape: str, size: float, kind: str) -> None:
    """A piece seen from its back: a tile's gridded back, a coin's plain back,
    any other shape hatched grey. Nothing on it tells pieces of a kind apart."""
    x, y, w, h = box(shape, size)
    fill = BACK_FILL.get(shape, BACK_DEFAULT)
    outline(g, shape, size, fill, "#222222", 1.2)
    if shape in ("tile", "card"):
        inset = w * 0.12
        for k in (0, 1, 2):
            gx = x + inset + k * (w - 2 * inset) / 2
            gy = y + inset + k * (h - 2 * inset) / 2
            g.append(dw.Line(r1(gx), r1(y + inset), r1(gx), r1(y + h - inset), stroke=MARK,
                             stroke_width=1))
            g.append(dw.Line(r1(x + inset), r1(gy), r1(x + w - inset), r1(gy), stroke=MARK,
                             stroke_width=1))
    elif shape in ("coin", "disc"):
        g.append(dw.Circle(r1(x + w / 2), r1(y + h / 2), r1(w * 0.32), fill="none", stroke=MARK,
                           stroke_width=1.2))
    else:
        for k in (0.3, 0.5, 0.7):
            g.append(dw.Line(r1(x + w * k), r1(y + h * 0.2), r1(x + w * (k - 0.15)),
                             r1(y + h * 0.8), stroke=MARK, stroke_width=1))
    g.append(dw.Title(f"a face-down {kind}"))
