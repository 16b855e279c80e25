"""Generated Python source as a value: its text and what is known of it.

The generators (:mod:`rulepack.compiler.codegen`, :mod:`rulepack.compiler.flowgen`)
build every piece of source as a :class:`Code`: the text, and the facts the
generator knows about the value it computes (a whole number, a new list, a
piece, a cell...) or about the text itself (a plain name, a literal, whether it
holds an assignment expression, which generated locals it reads). Facts travel
with the value, so no table keyed by generated text is needed and nothing is
ever read back out of generated text.

Code is composed with :func:`code`: ``code("({} + {})", a, b, is_int=True)``
formats the texts of its parts into the template and gathers the facts that
are about the text (the locals read, an assignment expression); the facts about
the value are the caller's to give. A :class:`Code` refuses to be formatted any
other way (an f-string of one raises), so no part is ever joined in without
its facts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypedDict, Union, final

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack

#: what a value certainly is, when the generator knows: a piece, a grid cell, or
#: what lies on a cell (a piece or ``None``)
KINDS = ("piece", "cell", "slot")


class _NoLiteral:
    """The :attr:`Code.literal` of code that is not a literal."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NO_LITERAL"


NO_LITERAL: object = _NoLiteral()


@final
@dataclass(frozen=True, slots=True, eq=False)
class Code:
    """A piece of generated Python source (an expression, or a clause of one).

    :param text: the source.
    :param refs: the generated locals the text reads (``L3``, ``T7``...).
    :param walrus: the text holds an assignment expression (``:=``), which
        Python forbids in a comprehension's iterable.
    :param literal: the Python value of a literal (``3``, ``None``, ``'up'``),
        else :data:`NO_LITERAL`.
    :param simple: evaluating the text twice costs nothing and changes nothing
        (a local, a literal name, a variable's read ``V['x']``).
    :param ident: the text is a Python identifier (a local or ``None``/``True``/``False``).
    :param is_int: the value is a whole number (an ``int``, never a ``bool``).
    :param is_list: the value is a new list (or a constant one: never changed in place).
    :param int_list: the value is a list of whole numbers only.
    :param kind: what the value certainly is (one of :data:`KINDS`), else ``None``.
    :param cell_zone: the value is a cell of this grid (the zone's index).
    :param cell_piece: the local holding what lies on this cell (a loop beside a
        grid's slots: ``at(x)`` reads it).
    :param pieces: the value is a zone (not a grid): the code of its pieces'
        list, read from the state's zones (the list itself: do not change it).
    :param comprehension: the value is a where-comprehension ``[X CLAUSES]``:
        ``(X, CLAUSES)``, for a caller to build its own list from the same loop.
    :param by_slot: for such a comprehension over a grid's cells whose condition
        reads only what lies on each cell: ``(HEAD, PIECE, GRID, COND, CELLS)``
        (see :class:`~rulepack.compiler.codegen.GeneratedExpression`).
    :param logic: an ``and``/``or`` (``(a, op, b)``) or a conversion to a truth
        value (``(a, "", None)``), whose truth alone is ``a OP b`` or ``a``.
    :param not_none: the value is ``X is not None`` of this ``X``.
    :param flags: for a local read before a comprehension's loop: the flags
        handed out for it (see :class:`Flags`).
    """

    text: str
    refs: frozenset[str] = frozenset()
    walrus: bool = False
    literal: object = NO_LITERAL
    simple: bool = False
    ident: bool = False
    is_int: bool = False
    is_list: bool = False
    int_list: bool = False
    kind: str | None = None
    cell_zone: int | None = None
    cell_piece: "Code | None" = None
    pieces: "Code | None" = None
    comprehension: tuple[str, str] | None = None
    by_slot: tuple[str, str, int, str, str] | None = None
    logic: "tuple[Code, str, Code | None] | None" = None
    not_none: "Code | None" = None
    flags: "Flags | None" = None

    def __format__(self, spec: str) -> str:
        raise TypeError("a Code is joined with code(), which keeps its facts, not formatted")

    def __str__(self) -> str:
        raise TypeError("a Code is joined with code(), which keeps its facts; read .text")

    def with_facts(self, **facts: Unpack[Facts]) -> "Code":
        """This code with some facts changed."""
        return replace(self, **facts)

    @property
    def digits(self) -> bool:
        """Whether the text is a whole number written with digits only (``0``, ``12``)."""
        return type(self.literal) is int and self.literal >= 0


class Flags:
    """The flags handed out for a local read before a comprehension's loop
    (``"int"``/``"nonzero"`` → the flag's local: ``SourceGen.int_flag``), set in the
    loop's clause; closed once that clause is made (no flag is handed out after)."""

    __slots__ = ("handed", "open")

    def __init__(self) -> None:
        self.handed: dict[str, Code] = {}
        self.open = True


class Facts(TypedDict, total=False):
    """What a generator knows of the value of a new :class:`Code` (those of its
    fields that are not about its text; see there)."""

    is_int: bool
    is_list: bool
    int_list: bool
    kind: str | None
    cell_zone: int | None
    cell_piece: Code | None
    pieces: Code | None
    comprehension: tuple[str, str] | None
    by_slot: tuple[str, str, int, str, str] | None
    logic: tuple[Code, str, Code | None] | None
    not_none: Code | None
    flags: Flags | None


Part = Union[Code, str]


def code(template: str, *parts: Part, refs: frozenset[str] = frozenset(), simple: bool = False,
         **facts: Unpack[Facts]) -> Code:
    """``template`` with ``{}`` filled by each part's text, in order (a part given
    as ``str`` is plain text: a keyword, a constant's name). The result reads the
    locals its parts read (and ``refs``) and holds an assignment expression if a
    part does or the template has one; ``simple`` and ``facts`` give what is known
    of it and of its value (see :class:`Code`).

    :raises IndexError: fewer parts than the template's ``{}``.
    """
    texts = []
    read: frozenset[str] = frozenset()
    walrus = ":=" in template
    for p in parts:
        if type(p) is Code:
            texts.append(p.text)
            read |= p.refs
            walrus = walrus or p.walrus
        else:
            texts.append(p)
    if refs:
        read |= refs
    return Code(template.format(*texts), refs=read, walrus=walrus, simple=simple, **facts)


def local(name: str, **facts: Unpack[Facts]) -> Code:
    """A generated local's name (it reads itself)."""
    return Code(name, refs=frozenset([name]), simple=True, ident=True, **facts)


def literal(value: object, text: str) -> Code:
    """A literal (``text`` is ``repr(value)``)."""
    ident = value is None or type(value) is bool
    return Code(text, literal=value, simple=ident, ident=ident,
                is_int=type(value) is int)


def join(separator: str, parts: list[Code]) -> Code:
    """The parts' texts joined by ``separator``, with their facts about the text."""
    return code(separator.join("{}" for _ in parts), *parts)
