"""Static name resolution for the expression compiler.

A :class:`Scope` records, while a ruleset is compiled, which names are local
(loop variables, action parameters, ``let``), which name is the *candidate* of
a ``where`` filter (so that bare attribute names such as ``suit`` mean the
candidate's attribute) and which names are declared globally (variables,
constants, options, zones, components, patterns, symbols).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from rulepack.ir import Node

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack
from rulepack.errors import Location


@dataclass
class Global:
    """A global name: its kind and, for constants, options and the like, its value.

    kind is one of ``var``, ``player_var``, ``team_var``, ``const``, ``option``, ``zone``,
    ``zone_family``, ``component``, ``pattern``, ``symbol``, ``builtin``.
    """

    kind: str
    #: what the name stands for, whose type depends on ``kind``: a value of the
    #: rules language (``const``, ``option``), a ``ZoneRef`` (``zone``), the
    #: family's ``{"per": ..., "zones": ...}`` (``zone_family``), the component's
    #: pieces (``component``), a ``PatternRef`` (``pattern``), the word itself
    #: (``symbol``), the define's IR (``define``)
    value: Any = None
    node: Node | None = None  # the declaration, for messages


class ScopeChanges(TypedDict, total=False):
    """Fields of a :class:`Scope` that a child scope may change (see there)."""

    locals: list[str]
    candidate: str | None
    in_turns: int
    in_action: int
    deterministic: bool
    static: bool
    declares_symbols: bool
    kinds: dict[str, str]


@dataclass
class Scope:
    """Compile-time environment of an expression or statement."""

    globals: dict[str, Global]
    attributes: set[str]
    file: str = "<string>"
    locals: list[str] = field(default_factory=list)
    candidate: str | None = None
    in_turns: int = 0
    in_action: int = 0
    deterministic: bool = False  # True inside guards and parameters: no chance allowed
    static: bool = False  # computed once per instance, before any state exists
    declares_symbols: bool = False  # unknown bare names become symbols (constants, attribute values)
    #: what the values of some locals certainly are (``"cell"``, ``"piece"``): the
    #: parameters of an action drawn from cells or a zone, which nothing changes
    kinds: dict[str, str] = field(default_factory=dict)

    def child(self, **changes: Unpack[ScopeChanges]) -> "Scope":
        """A copy with some fields changed; ``locals`` is copied, not shared."""
        data = dict(self.__dict__)
        data["locals"] = list(self.locals)
        data["kinds"] = dict(self.kinds)
        data.update(changes)
        return Scope(**data)

    def with_locals(self, *names: str) -> "Scope":
        s = self.child()
        s.locals.extend(names)
        for n in names:
            s.kinds.pop(n, None)
        return s

    def location(self, node: Node | None, path: str | None = None) -> Location:
        at = node.get("at") if isinstance(node, dict) else None
        if at and at[0]:
            return Location(self.file, at[0], at[1])
        return Location(self.file, None, None, path)
