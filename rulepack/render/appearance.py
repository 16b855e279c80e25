"""How a piece looks: its shape, colours and text, from its component.

Piecepack components (``tile``, ``coin``, ``die``, ``pawn`` with a ``suit``
attribute, as ``use piecepack`` declares them) are drawn as piecepack pieces:
suits have their colour and symbol (suns red, moons black, crowns green, arms
blue; the card suits of a Six Pack too), ranks their numeral (``null`` as
``n``, ``ace`` as ``A``). Any other component is drawn from its attributes:
its shape is its ``draw shape`` hint, else its name when that is a shape
(``cube``, ``disc``...), else the shape of the component it shows as its
``back``, else a ``token``; its colour is its ``draw colour`` hint (one colour,
or one per value of an attribute), else its owner's colour, else white; its
text is its ``draw symbol`` template, else (a die) the face it shows, else its
name. A piecepack die shows the rank it rolled.

Errors: :class:`~rulepack.errors.RulepackError` located at the ``draw`` hint
for a colour no SVG renderer knows or an attribute the component lacks.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any

from cairosvg.colors import COLORS, color as parse_colour

from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.engine.templates import TemplateError, fill
from rulepack.grammar.transformer import DRAW_SHAPES

#: Shapes a piece may have (``draw shape`` names these).
SHAPES = DRAW_SHAPES
#: The piecepack components, drawn as piecepack pieces.
PIECEPACK = ("tile", "coin", "die", "pawn")

#: Suit → (colour, symbol drawn by :mod:`.pieces`).
SUITS: dict[str, tuple[str, str]] = {
    "suns": ("#d7261e", "sun"), "moons": ("#1a1a1a", "moon"),
    "crowns": ("#1e8c3a", "crown"), "arms": ("#1f4fb4", "arms"),
    "hearts": ("#d7261e", "heart"), "spades": ("#1a1a1a", "spade"),
    "diamonds": ("#d7261e", "diamond"), "clubs": ("#1a1a1a", "club"),
}
#: Colours of suits that are not in :data:`SUITS`.
SUIT_PALETTE = ["#8e44ad", "#d35400", "#16a085", "#7f8c8d", "#c0392b", "#2c3e50"]
#: Seat colours for seats whose names are not colours, by seat index.
SEAT_PALETTE = ["#d7261e", "#1f4fb4", "#1e8c3a", "#e6b800", "#8e44ad", "#16a085",
                "#d35400", "#7f8c8d"]
#: The numeral shown for a rank.
RANK_TEXT = {"null": "n", "ace": "A"}


def is_colour(text: str) -> bool:
    """Whether an SVG renderer knows ``text`` as a colour (a CSS name, ``#rgb``,
    ``#rrggbb``)."""
    return text.lower() in COLORS or re.fullmatch(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}", text) \
        is not None


def light(colour: str) -> bool:
    """Whether ``colour`` is light (dark text reads on it)."""
    r, g, b, _ = parse_colour(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5


def ink(colour: str) -> str:
    """Black or white, whichever reads on ``colour``."""
    return "#111111" if light(colour) else "#ffffff"


def seat_colours(seats: list[str]) -> list[str]:
    """Each seat's colour: its name when that is a colour (``red``, ``yellow``),
    else :data:`SEAT_PALETTE` by seat index."""
    out = []
    for k, name in enumerate(seats):
        name = name.strip().lower()
        out.append(name if name in COLORS else SEAT_PALETTE[k % len(SEAT_PALETTE)])
    return out


def rank_text(rank: Any) -> str:
    return RANK_TEXT.get(str(rank), str(rank))


@dataclass(frozen=True)
class Look:
    """How one piece is drawn.

    :param shape: one of :data:`SHAPES`.
    :param fill: the face's colour; ``ink`` the colour of its text and symbols.
    :param text: the main text (a rank, a number, a name); may be empty.
    :param suit: the suit symbol's name (a key of :data:`SUITS`' symbols) or None.
    :param suit_colour: the suit's colour (piecepack pieces).
    :param edge: the outline's colour (an owner's colour on a piecepack piece).
    :param side: ``"face"``, ``"down"`` (a face-down piece the viewer may see)
        or ``"suit"`` (a piecepack coin's suit side).
    """

    shape: str
    fill: str
    ink: str
    text: str
    suit: str | None = None
    suit_colour: str = "#1a1a1a"
    edge: str = "#333333"
    side: str = "face"
    title: str = ""


class Appearance:
    """The looks of a ruleset's pieces, from its components and seats.

    :param components: the ruleset's ``components`` IR (libraries merged).
    :param seats: the seat names.
    :param file: the ruleset's file, to locate errors in ``draw`` hints.
    :param chance: the names the flow binds to chance outcomes (``rulepack.ir.chance_names``).
    :raises RulepackError: a ``draw`` hint names an unknown colour or attribute.
    """

    def __init__(self, components: list[dict[str, Any]], seats: list[str],
                 file: str = "<ruleset>", chance: list[str] | None = None) -> None:
        self.seats = seat_colours(seats)
        #: names the flow binds to chance outcomes (a die roll): shown in the heading
        self.chance = list(chance or [])
        self.components = {c["name"]: c for c in components}
        self.draw = {c["name"]: dict(c.get("draw") or {}) for c in components}
        for c in components:
            self._check(c, file)
        #: SVG markup of the pieces drawn so far, by look (see ``zones.piece_block``)
        self.fragments: dict[Any, str] = {}
        #: whether pictures mark what a page may click: each piece the view shows
        #: (``data-piece="ID"``) and each grid cell (``data-cell="ZONE/CELL"``)
        self.marks = False

    # ------------------------------------------------------------------ checks
    def _check(self, comp: dict[str, Any], file: str) -> None:
        draw = comp.get("draw")
        if not draw:
            return
        at = draw.get("at") or [None, None]

        def fail(message: str) -> RulepackError:
            return RulepackError(Diagnostic(f"component {comp['name']}: {message}",
                                            Location(file, at[0], at[1]), code="bad-draw-hint"))
        colours = [draw["colour"]] if draw.get("colour") else []
        by = draw.get("colour_by")
        if by:
            names = {a["name"] for a in comp.get("attributes") or []} | \
                    {d["name"] for d in comp.get("derived") or []}
            if by["attribute"] not in names:
                raise fail(f"'colour by {by['attribute']}': the component has no attribute "
                           f"{by['attribute']!r}")
            colours += [c for _, c in by["colours"]]
        for colour in colours:
            if not is_colour(colour):
                raise fail(f"unknown colour {colour!r} (a CSS colour name or #rrggbb)")

    @staticmethod
    def suit_colour(suit: Any) -> str:
        """A suit's colour: :data:`SUITS`, else a :data:`SUIT_PALETTE` colour chosen
        by the suit's name (the same in every picture)."""
        key = str(suit)
        if key in SUITS:
            return SUITS[key][0]
        return SUIT_PALETTE[zlib.crc32(key.encode("utf-8")) % len(SUIT_PALETTE)]

    # ------------------------------------------------------------------ shapes
    def shape(self, kind: str) -> str:
        """The shape of a component's pieces (see the module's docstring)."""
        seen: set[str] = set()
        while kind not in seen:
            seen.add(kind)
            hint = self.draw.get(kind, {}).get("shape")
            if hint:
                return str(hint)
            if kind in SHAPES:
                return kind
            back = (self.components.get(kind) or {}).get("back")
            if not back:
                break
            kind = back
        return "token"

    def seat_colour(self, seat: int) -> str:
        return self.seats[seat] if 0 <= seat < len(self.seats) else \
            SEAT_PALETTE[seat % len(SEAT_PALETTE)]

    # ------------------------------------------------------------------ looks
    def look(self, piece: dict[str, Any], own_face_down: bool = False) -> Look:
        """The look of a visible piece of a view (``{"kind", "name", attributes...,
        "face", "owner"}``). ``own_face_down``: drawn as a face-down piece the
        viewer may see."""
        kind = str(piece.get("kind"))
        shape = self.shape(kind)
        draw = self.draw.get(kind, {})
        owner = piece.get("owner")
        owner_colour = None if owner is None else self.seat_colour(int(owner))
        side = "down" if own_face_down else "face"
        name = str(piece.get("name", kind))
        suit = piece.get("suit")
        pp = kind in PIECEPACK and suit is not None and not draw
        if pp or (shape in PIECEPACK and suit is not None and not draw.get("colour")
                  and not draw.get("colour_by")):
            suit_colour = self.suit_colour(suit)
            symbol = SUITS.get(str(suit), (None, None))[1] or f"letter:{str(suit)[:1].upper()}"
            text = rank_text(piece["rank"]) if "rank" in piece else ""
            if draw.get("symbol"):
                text = fill_template(draw["symbol"], piece)
            if shape == "coin" and piece.get("face") == "down":
                side = "suit"
            return Look(shape, "#fbf7ec", suit_colour, text, symbol, suit_colour,
                        edge=owner_colour or "#333333", side=side, title=name)
        fill = self._fill(piece, draw) or owner_colour or "#ffffff"
        if draw.get("symbol"):
            text = fill_template(draw["symbol"], piece)
        elif isinstance(piece.get("rolls"), str):         # a die: the face it shows
            text = str(piece.get(piece["rolls"]))
        else:
            text = name if any(ch.isalnum() for ch in name) else ""
        edge = "#333333" if owner_colour is None or fill == owner_colour else owner_colour
        return Look(shape, fill, ink(fill), text, None, edge=edge, side=side, title=name)

    def _fill(self, piece: dict[str, Any], draw: dict[str, Any]) -> str | None:
        by = draw.get("colour_by")
        if by:
            value = piece.get(by["attribute"])
            for key, colour in by["colours"]:
                if key == value or str(key) == str(value):
                    return str(colour)
        colour = draw.get("colour")
        return str(colour) if colour else None


def fill_template(template: str, piece: dict[str, Any]) -> str:
    """``"{number}"`` → the piece's number; ``{kind}`` is its component; a
    ``{...}`` naming nothing stays as written; filled like ``called``
    (:func:`rulepack.engine.templates.fill`). A template that is not fields by name
    (the compiler refuses it) is drawn as written."""
    values = {k: rank_text(v) if k == "rank" else str(v) for k, v in piece.items()}
    try:
        return fill(template, values)
    except TemplateError:
        return template
