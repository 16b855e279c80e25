"""Blocks: drawings of known size that are placed by their parent.

A :class:`Block` knows its width and height (pixels) and paints itself into a
:class:`drawsvg.Group` with its top-left corner at the origin; :func:`row`,
:func:`column`, :func:`flow` and :func:`frame` combine blocks into bigger ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import drawsvg as dw

from rulepack.render.pieces import FONT, r1

Paint = Callable[[dw.Group], None]


@dataclass
class Block:
    """A drawing ``width`` × ``height`` pixels; ``paint`` draws it at the origin."""

    width: float
    height: float
    paint: Paint


def place(parent: dw.Group | dw.Drawing, block: Block, x: float, y: float) -> None:
    """Paint ``block`` with its top-left corner at ``(x, y)`` of ``parent``."""
    g = dw.Group(transform=f"translate({r1(x)},{r1(y)})")
    block.paint(g)
    parent.append(g)


def empty(width: float = 0, height: float = 0) -> Block:
    return Block(width, height, lambda g: None)


def row(blocks: list[Block], gap: float) -> Block:
    """Blocks side by side, tops aligned."""
    width = sum(b.width for b in blocks) + gap * max(0, len(blocks) - 1)
    height = max([b.height for b in blocks] + [0])

    def paint(g: dw.Group) -> None:
        x = 0.0
        for b in blocks:
            place(g, b, x, 0)
            x += b.width + gap
    return Block(width, height, paint)


def column(blocks: list[Block], gap: float) -> Block:
    """Blocks one under the other, left edges aligned."""
    width = max([b.width for b in blocks] + [0])
    height = sum(b.height for b in blocks) + gap * max(0, len(blocks) - 1)

    def paint(g: dw.Group) -> None:
        y = 0.0
        for b in blocks:
            place(g, b, 0, y)
            y += b.height + gap
    return Block(width, height, paint)


def flow(blocks: list[Block], gap: float, max_width: float) -> Block:
    """Blocks in lines no wider than ``max_width`` (a block wider than that has a
    line of its own)."""
    lines: list[list[Block]] = [[]]
    width = 0.0
    for b in blocks:
        if lines[-1] and width + gap + b.width > max_width:
            lines.append([])
            width = 0.0
        width += (gap if lines[-1] else 0) + b.width
        lines[-1].append(b)
    return column([row(line, gap) for line in lines if line], gap)


def label(s: str, size: float = 12, colour: str = "#222222", bold: bool = True,
          width: float | None = None) -> Block:
    """A line of text."""
    w = width if width is not None else 0.6 * size * len(s)

    def paint(g: dw.Group) -> None:
        g.append(dw.Text(s, r1(size), 0, r1(size * 0.95), font_family=FONT, fill=colour,
                         font_weight="bold" if bold else "normal"))
    return Block(w, size * 1.25, paint)


def frame(inner: Block, title: str | None, pad: float = 6, fill: str = "#fffdf6",
          stroke: str = "#b9ad8f", title_colour: str = "#333333", stroke_width: float = 1,
          min_width: float = 0) -> Block:
    """``inner`` in a rounded box with ``title`` above it, inside the box."""
    head = label(title, 11, title_colour) if title else empty()
    width = max(inner.width, head.width, min_width) + 2 * pad
    height = inner.height + head.height + 2 * pad + (2 if title else 0)

    def paint(g: dw.Group) -> None:
        g.append(dw.Rectangle(0, 0, r1(width), r1(height), rx=6, fill=fill, stroke=stroke,
                              stroke_width=stroke_width))
        if title:
            place(g, head, pad, pad - 1)
        place(g, inner, pad, pad + head.height + (2 if title else 0))
    return Block(width, height, paint)
