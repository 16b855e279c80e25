"""Stable action ids: every action an instance can ever offer, numbered once.

Algorithms that treat a game as a black box (OpenSpiel, reinforcement learning)
need a fixed number of distinct actions, known before any game, and the same
number for the same action in every state. :class:`ActionSpace` derives it from
the ruleset's decisions: for each ``action`` of each ``choose``, the *finite
domain* of each parameter — every value it could ever take — is found by a
small abstract interpretation of the IR (:class:`Domains`), then the ids of an
action are its alternative's offset plus its parameters' positions in their
domains (mixed radix). Alternatives of different decisions with the same text
and parameters (Kuhn poker's "pass" and "bet", offered at each of its
decisions) are one action and share their ids, over the union of their
domains; offsets follow the order of the alternatives' first appearance. Domains are over-approximations, which only makes the
space larger than the actions a game can offer, never smaller; two things keep
them tight where the ruleset allows:

- a zone holds only the pieces that moves can bring to it (every piece starts in
  the supply and moves only by ``move``: :meth:`Domains._zone_contents` grows
  each zone's set until no move adds one), so a hand dealt from a stack of
  tiles ranges over the tiles, not over the coins too;
- the name a comprehension binds is, in its expression, that comprehension's
  elements only (``[(x, x.cell) for x in board]``), not every value a name ``x``
  takes anywhere in the ruleset;
- a ``where`` whose condition reads only fixed attributes, constants, options
  and symbols (``card where colour == red and n <= 3``) keeps only the pieces it
  lets through, so a hand dealt four cards of a colour ranges over those four,
  and a shuffle of three cards draws among three.

Domains are sets of concrete values (pieces, cells, players, numbers, words,
``none``...), lists as :class:`ListDom`, tuples as :class:`TupleDom`. Other
names are followed through every assignment to them (``let``, ``set``, ``var``,
loop and parameter bindings), whatever their scope: a superset again. A parameter whose
values cannot be listed before play (a count, a sum, arithmetic) makes the
space undefined: :meth:`ActionSpace.build` raises a located
:class:`~rulepack.errors.SemanticError` (code ``unbounded-actions``).
"""

from __future__ import annotations

import functools
import itertools
import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, TypeVar

from rulepack.compiler.kinds import Kind, describe, parameter_kinds
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef
from rulepack.errors import Location, SemanticError
from rulepack.ir import Node, nodes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance
    from rulepack.engine.actions import Action

#: no action space is built with more ids than this (a sign of a domain too coarse)
MAX_ACTIONS = 2_000_000
#: the longest integer range a domain may hold
MAX_RANGE = 100_000

T = TypeVar("T")

#: how a name is assigned: ``("value", 0, EXPR)`` (its value), ``("elements", 0,
#: EXPR)`` (an element of it), ``("part", I, EXPR)`` (part I of an element of it),
#: ``("tuple-part", I, EXPR)`` (part I of its value); EXPR is IR
Assigned = tuple[str, int, object]


@dataclass(frozen=True)
class ListDom:
    """A list (or other collection) whose elements are among ``elems``."""

    elems: frozenset[object]


#: the arithmetic the listing carries out on whole numbers it knows
_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod}


@dataclass(frozen=True)
class TupleDom:
    """A tuple whose i-th part is among ``parts[i]``."""

    parts: tuple[frozenset[object], ...]


class NotFinite(Exception):
    """A value whose possible values cannot be listed before play."""

    def __init__(self, why: str, node: object = None) -> None:
        super().__init__(why)
        self.why = why
        self.node = node


def stable_key(value: object) -> tuple[object, ...]:
    """A sort key for domain values that is the same in every process."""
    if type(value) is Piece:
        return (0, value.id)
    if type(value) is Cell:
        return (1, value.zone, value.slot)
    if type(value) is Player:
        return (2, int(value))
    if type(value) is ZoneRef:
        return (3, value.index)
    if type(value) is PatternRef:
        return (4, value.index)
    if type(value) is bool:
        return (5, int(value))
    if value is None:
        return (6,)
    t = type(value)
    if t is int or t is float:
        return (7, value)
    if t is str:
        return (8, value)
    if type(value) is tuple:
        return (9, tuple(stable_key(v) for v in value))
    return (10, repr(value))


def _hashable(value: object) -> object:
    """A constant's value as a domain atom: lists become :class:`ListDom`."""
    if isinstance(value, list):
        return ListDom(frozenset(_hashable(v) for v in value))
    if isinstance(value, dict):
        return ListDom(frozenset(_hashable(k) for k in value))
    if isinstance(value, tuple):
        return tuple(_hashable(v) for v in value)
    return value


class Domains:
    """The abstract interpretation: :meth:`value` and :meth:`elements` of IR nodes.

    :param inst: a compiled instance (its globals, zones and pieces).
    """

    def __init__(self, inst: "Instance") -> None:
        self.inst = inst
        self.pieces = frozenset(inst.pieces)
        self.cells = frozenset(c for z in inst.zones if z.kind == "grid" for c in z.cell_objects)
        self.seats = frozenset(Player(p) for p in range(inst.num_players))
        #: name -> how it is assigned (see :data:`Assigned`)
        self.assigned: dict[str, list[Assigned]] = {}
        #: how many times a name defined through itself was cut short (its values so
        #: far stand for it): arithmetic over such values would list too few
        self._cuts = 0
        self._busy: set[str] = set()
        self._memo: dict[str, frozenset[object]] = {}
        #: the names a comprehension binds, while its expression is read: there they
        #: are its elements only, not every value the name takes anywhere
        self._local: dict[str, frozenset[object]] = {}
        #: per ``where`` node (by id), its condition as a test of a piece (``None``: not fixed)
        self._tests: dict[int, Callable[[Piece], bool] | None] = {}
        #: each define: (its parameters, its body)
        self._defines: dict[str, tuple[list[str], object]] = {
            d["name"]: ([p for p in d.get("params") or [] if isinstance(p, str)], d.get("expr"))
            for d in inst.ir.get("defines", []) if isinstance(d, dict)
            and isinstance(d.get("name"), str)}
        #: the defines whose bodies are being read (a define that calls itself)
        self._calling: set[str] = set()
        for decl in inst.ir.get("variables", []):
            if decl.get("expr") is not None:
                self._note(decl["name"], ("value", 0, decl["expr"]))
        for key in ("setup", "phases", "play", "defines"):
            self._collect(inst.ir.get(key))
        #: per zone index, the pieces that can ever be in it (``None``: any piece)
        self.contents: dict[int, frozenset[object]] | None = None
        self.contents = self._zone_contents()

    def _zone_contents(self) -> dict[int, frozenset[object]] | None:
        """The pieces each zone can ever hold: every piece starts in the supply
        (zone 0) and moves only by ``move``, so a zone holds only what the moves
        to it can move — found by growing every zone's set until no move adds a
        piece (hands dealt from a stack of tiles hold tiles only). ``None`` (any
        piece anywhere) when a move's destination cannot be listed."""
        moves = [n for key in ("setup", "phases", "play")
                 for n in nodes(self.inst.ir.get(key)) if n.get("k") == "move"]
        contents: dict[int, frozenset[object]] = {z.index: frozenset() for z in self.inst.zones}
        contents[0] = self.pieces
        for _ in range(len(contents) + 2):
            self.contents, self._memo = contents, {}
            grown = dict(contents)
            try:
                for move in moves:
                    pieces = frozenset(p for p in self.elements(move["what"]) if type(p) is Piece)
                    for zone in self._destinations(move["to"]):
                        grown[zone] = grown[zone] | pieces
            except NotFinite:
                return None
            if grown == contents:
                self._memo = {}
                return contents
            contents = grown
        self._memo = {}
        return None         # pragma: no cover - each round adds a piece or stops

    def _destinations(self, node: object) -> set[int]:
        """The zones a ``move`` may put pieces in. :raises NotFinite: unknown."""
        out: set[int] = set()
        for a in self.value(node):
            if type(a) is ZoneRef:
                out.add(a.index)
            elif type(a) is Cell:
                out.add(a.zone)
            elif a is not None:
                raise NotFinite("a destination that is not a zone or a cell", node)
        return out

    def _note(self, name: str, how: Assigned) -> None:
        self.assigned.setdefault(name, []).append(how)

    def _bind(self, bind: object, source: object) -> None:
        if isinstance(bind, str):
            self._note(bind, ("elements", 0, source))
        elif isinstance(bind, list):
            for i, name in enumerate(bind):
                if isinstance(name, str):
                    self._note(name, ("part", i, source))

    def _collect(self, node: object) -> None:
        if isinstance(node, list):
            for v in node:
                self._collect(v)
            return
        if not isinstance(node, dict):
            return
        k = node.get("k")
        if k == "let" and isinstance(node.get("bind"), str):
            self._note(node["bind"], ("value", 0, node["expr"]))
        elif k == "let" and isinstance(node.get("bind"), list):
            for i, name in enumerate(node["bind"]):
                self._note(name, ("tuple-part", i, node["expr"]))
        elif k == "set" and isinstance(node.get("name"), str):
            self._note(node["name"], ("value", 0, node["expr"]))
        elif k in ("for", "comp", "argmax") and "bind" in node and "in" in node:
            self._bind(node["bind"], node["in"])
        for key, v in node.items():
            if key == "params" and isinstance(v, list):
                for p in v:
                    if isinstance(p, dict) and "bind" in p and "in" in p:
                        self._bind(p["bind"], p["in"])
            self._collect(v)

    def in_scope(self, names: dict[str, frozenset[object]], read: Callable[[], T]) -> T:
        """``read()`` where each of ``names`` holds the given values only (a
        formula's parameter: the score's player is one of the seats)."""
        outer = self._local
        self._local = {**outer, **names}
        try:
            return read()
        finally:
            self._local = outer

    # ------------------------------------------------------------------ names
    def name(self, name: str, node: object) -> frozenset[object]:
        local = self._local.get(name)
        if local is not None:
            return local
        if name in self._memo:
            return self._memo[name]
        if name in self.assigned:
            if name in self._busy:
                self._cuts += 1          # (arithmetic on such a name is not listed)
                return frozenset()       # a name defined through itself adds nothing new
            self._busy.add(name)
            outer, self._local = self._local, {}   # its assignments are read in their own
            try:                                   # scope, not in the one it is named in
                out: set[object] = set()
                for how in self.assigned[name]:
                    out |= self._assignment(how)
            finally:
                self._busy.discard(name)
                self._local = outer
            result = frozenset(out)
            if not self._busy:
                self._memo[name] = result
            return result
        g = self.inst.globals.get(name)
        if g is not None:
            if g.kind in ("const", "option", "symbol"):
                return frozenset([_hashable(g.value if g.kind != "symbol" else g.value)])
            if g.kind == "zone":
                return frozenset([g.value])
            if g.kind == "zone_family":
                return frozenset(g.value["zones"].values()) if isinstance(
                    g.value.get("zones"), dict) else frozenset(g.value["zones"])
            if g.kind == "component":
                return frozenset([ListDom(frozenset(g.value))])
            if g.kind == "pattern":
                return frozenset([g.value])
        if name in ("players", "others", "active"):
            return frozenset([ListDom(self.seats)])
        if name in ("current", "next", "nobody"):
            return self.seats | {None}
        if name == "owner":
            return self.seats | {None}
        raise NotFinite(f"the values of {name!r} cannot be listed before play", node)

    def _assignment(self, how: Assigned) -> frozenset[object]:
        if how[0] == "value":
            return self.value(how[2])
        if how[0] == "elements":
            return self.elements(how[2])
        if how[0] == "tuple-part":
            atoms = self.value(how[2])
        else:
            atoms = self.elements(how[2])
        i = how[1]
        out: set[object] = set()
        for a in atoms:
            if isinstance(a, TupleDom) and i < len(a.parts):
                out |= a.parts[i]
            elif type(a) is tuple and i < len(a):
                out.add(a[i])
            elif isinstance(a, ListDom):
                out |= a.elems
        return frozenset(out)

    # ------------------------------------------------------------------ expressions
    def elements(self, node: object) -> frozenset[object]:
        """Every value an element of ``node``'s value can be (``items()``)."""
        return self.elements_of(self.value(node), node)

    def elements_of(self, atoms: Iterable[object], node: object) -> frozenset[object]:
        out: set[object] = set()
        for a in atoms:
            if isinstance(a, ListDom):
                out |= a.elems
            elif type(a) is ZoneRef:
                out |= self.pieces if self.contents is None else self.contents[a.index]
            elif isinstance(a, TupleDom):
                for part in a.parts:
                    out |= part
            elif type(a) is tuple:
                out |= set(a)
            elif a is not None:
                out.add(a)
        return frozenset(out)

    def value(self, node: object) -> frozenset[object]:
        """Every value ``node`` can have. :raises NotFinite: when they cannot be listed."""
        if not isinstance(node, dict):
            return frozenset([_hashable(node)])
        k = node.get("k")
        if k == "lit":
            return frozenset([_hashable(node["value"])])
        if k == "name":
            return self.name(node["name"], node)
        if k == "list":
            out: set[object] = set()
            for item in node["items"]:
                out |= self.value(item)
            return frozenset([ListDom(frozenset(out))])
        if k == "tuple":
            return frozenset([TupleDom(tuple(self.value(i) for i in node["items"]))])
        if k == "range":
            lo = [v for v in self.value(node["from"]) if type(v) is int]
            hi = [v for v in self.value(node["to"]) if type(v) is int]
            if not lo or not hi or max(hi) - min(lo) > MAX_RANGE:
                raise NotFinite("a range whose ends are not known numbers", node)
            return frozenset([ListDom(frozenset(range(min(lo), max(hi) + 1)))])
        if k == "where":
            return frozenset([ListDom(self._kept(node))])
        if k == "sort":
            return frozenset([ListDom(self.elements(node["of"]))])
        if k == "comp":
            return frozenset([ListDom(self._in_scope(node, node["expr"]))])
        if k == "argmax":
            return frozenset([ListDom(self.elements(node["in"]))])
        if k == "top":
            pieces = self.elements(node["of"])
            if node.get("count") is None:         # one piece, or none when it is empty
                return pieces | {None}
            return frozenset([ListDom(pieces)])
        if k == "run":
            return frozenset([ListDom(self.cells)])
        if k == "if":
            return self.value(node["then"]) | self.value(node["else"])
        if k == "index":
            return self._index(node)
        if k == "attr":
            return self._attr(node)
        if k == "op":
            return self._op(node)
        if k == "call":
            return self._call(node)
        raise NotFinite(f"the values of a {k!r} expression cannot be listed before play", node)

    def _kept(self, node: Node) -> frozenset[object]:
        """The elements of a ``where``: those of what it filters, less the pieces a
        condition of fixed attributes turns away (``Instance.piece_test``)."""
        found = self.elements(node["of"])
        key = id(node)
        if key not in self._tests:
            self._tests[key] = self.inst.piece_test(node["cond"])
        test = self._tests[key]
        if test is None:
            return found
        return frozenset(x for x in found if type(x) is not Piece or test(x))

    def _in_scope(self, comp: Node, expr: object) -> frozenset[object]:
        """The values of ``expr`` where ``comp`` binds its names to its elements
        (``[(x, x.cell) for x in board]``: ``x`` is a piece of the board there,
        whatever else a name ``x`` is bound to elsewhere in the ruleset)."""
        bind = comp.get("bind")
        scope: dict[str, frozenset[object]] = {}
        if isinstance(bind, str):
            scope[bind] = self.elements(comp["in"])
        elif isinstance(bind, list):
            for i, name in enumerate(bind):
                if isinstance(name, str):
                    scope[name] = self._assignment(("part", i, comp["in"]))
        outer = self._local
        self._local = {**outer, **scope}
        try:
            return self.value(expr)
        finally:
            self._local = outer

    def _index(self, node: Node) -> frozenset[object]:
        of = node["of"]
        if isinstance(of, dict) and of.get("k") == "name":
            g = self.inst.globals.get(of["name"])
            if g is not None and g.kind in ("zone_family", "player_var", "team_var") \
                    or of["name"] in self.assigned and g is not None and g.kind == "var":
                if g.kind == "zone_family":
                    return self.name(of["name"], of)
                return self.name(of["name"], of)   # a per-player value: what it is set to
        return self.elements(of)

    def _attr(self, node: Node) -> frozenset[object]:
        name = node["name"]
        if name == "cell":
            return self.cells | {None}
        if name == "owner":
            return self.seats | {None}
        if name == "face":
            return frozenset(["up", "down"])
        if name == "zone":
            return frozenset(self.inst.zone_refs)
        out: set[object] = set()
        for a in self.value(node["of"]):
            if type(a) is Piece and name in ("row", "col"):
                # a piece's place: any row or column of the grids (none off them)
                out |= {c.row + 1 if name == "row" else c.col + 1 for c in self.cells}
                out.add(None)
            elif type(a) is Piece:
                if name == "kind":
                    out.add(a.kind)
                elif name == "name":
                    out.add(a.name)
                elif name in a.attrs:
                    out.add(_hashable(a.attrs[name]))
                else:
                    out.add(None)
            elif type(a) is Cell and name in ("row", "col"):
                out.add((a.row if name == "row" else a.col) + 1)    # (counted from 1)
            elif a is None:
                out.add(None)
            else:
                raise NotFinite(f"the values of .{name} cannot be listed before play", node)
        return frozenset(out)

    def _op(self, node: Node) -> frozenset[object]:
        op = node["op"]
        if op in ("==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "in", "not in"):
            return frozenset([True, False])
        if op == "+":
            values = [self.value(a) for a in node["args"]]
            if all(all(isinstance(v, ListDom) for v in vs) for vs in values):
                return frozenset([ListDom(self.elements_of(
                    [v for vs in values for v in vs], node))])
        if op in _ARITHMETIC and len(node["args"]) == 2:
            # whole numbers both sides, few enough to combine: every result
            # (none there is an error in play, not a value)
            cuts = self._cuts
            left, right = ([v for v in self.value(a) if v is not None] for a in node["args"])
            if self._cuts != cuts:
                raise NotFinite(f"the result of {op!r} cannot be listed before play", node)
            xs = [v for v in left if type(v) is int]
            ys = [v for v in right if type(v) is int]
            if len(xs) == len(left) and len(ys) == len(right) and len(xs) * len(ys) <= 10_000:
                return frozenset(_ARITHMETIC[op](x, y) for x in xs for y in ys
                                 if op not in ("//", "%") or y != 0)
        raise NotFinite(f"the result of {op!r} cannot be listed before play", node)

    def _call(self, node: Node) -> frozenset[object]:
        fn = node["fn"]
        args = node.get("args") or []
        if fn in self._defines:
            return self._define(fn, args, node)
        if fn in ("cell", "step"):
            return self.cells | {None}
        if fn == "after":
            return self.seats
        if fn in ("at", "under"):
            return self.pieces | {None}
        if fn == "stack_at":
            return frozenset([ListDom(self.pieces)])
        if fn == "height":
            return frozenset(range(len(self.pieces) + 1))
        if fn == "flatten" and args:
            inner: set[object] = set()
            for v in self.elements(args[0]):
                if not isinstance(v, ListDom):
                    raise NotFinite("flatten() of something other than lists", node)
                inner |= v.elems
            return frozenset([ListDom(frozenset(inner))])
        if fn in ("first", "last", "only", "random", "max", "min") and args:
            return self.elements(args[0]) | {None}
        if fn in ("unique", "reverse", "sorted", "shuffled") and args:
            return frozenset([ListDom(self.elements(args[0]))])
        if fn in ("empty", "cells"):
            cells: set[object] = set()
            for z in (self.value(args[0]) if args else ()):
                if type(z) is ZoneRef and self.inst.zones[z.index].kind == "grid":
                    cells |= set(self.inst.zones[z.index].cell_objects)
                else:
                    cells |= self.cells
            return frozenset([ListDom(frozenset(cells or self.cells))])
        if fn in ("ends", "neighbours", "neighbors", "line"):
            return frozenset([ListDom(self.cells)])
        if fn in ("best", "usable", "partition"):
            return frozenset([ListDom(self.pieces)])
        if fn == "order":
            return frozenset([ListDom(self.seats)])
        raise NotFinite(f"the values of {fn}() cannot be listed before play", node)


    def _define(self, fn: str, args: list[object], node: Node) -> frozenset[object]:
        """The values of a ``define``'s body, its parameters holding the values of
        the call's arguments (and nothing of the caller's names)."""
        if fn in self._calling:
            raise NotFinite(f"the values of {fn}() (a define that calls itself)", node)
        params, body = self._defines[fn]
        scope = {p: self.value(a) for p, a in zip(params, args)}
        outer, self._local = self._local, scope
        self._calling.add(fn)
        try:
            return self.value(body)
        finally:
            self._calling.discard(fn)
            self._local = outer

    # ------------------------------------------------------------------ list lengths
    def max_length(self, node: object) -> int:
        """The most elements ``node``'s value can have as a collection.
        :raises NotFinite: when no bound can be found."""
        if not isinstance(node, dict):
            raise NotFinite("a collection of unknown length", node)
        k = node.get("k")
        if k == "range":
            lo = [v for v in self.value(node["from"]) if type(v) is int]
            hi = [v for v in self.value(node["to"]) if type(v) is int]
            if lo and hi:
                return max(0, max(hi) - min(lo) + 1)
        elif k == "list":
            return len(node["items"])
        elif k == "where":
            bound = self.max_length(node["of"])
            if self._distinct(node["of"]):      # a zone's pieces: no piece twice
                bound = min(bound, len(self._kept(node)))
            return bound
        elif k == "sort":
            return self.max_length(node["of"])
        elif k in ("comp", "argmax"):
            return self.max_length(node["in"])
        elif k == "if":
            return max(self.max_length(node["then"]), self.max_length(node["else"]))
        elif k == "op" and node.get("op") == "+":
            return sum(self.max_length(a) for a in node["args"])
        elif k == "index":
            of = node["of"]
            g = self.inst.globals.get(str(of.get("name"))) if isinstance(of, dict) else None
            if g is not None and g.kind == "zone_family":
                return self._most_held(self.name(of["name"], of))
        elif k == "name":
            name = node["name"]
            if name in ("players", "others", "active"):
                return len(self.seats)
            g = self.inst.globals.get(name)
            if name not in self.assigned and g is not None:
                if g.kind == "zone":
                    return self._most_held([g.value])
                if g.kind == "component":
                    return len(g.value)
                if g.kind == "const" and isinstance(g.value, (list, tuple, dict)):
                    return len(g.value)
            if name in self.assigned and name not in self._busy:
                self._busy.add(name)
                try:
                    return max(self.max_length(how[2]) for how in self.assigned[name]
                               if how[0] == "value")
                except ValueError:
                    pass
                finally:
                    self._busy.discard(name)
        elif k == "call" and node.get("fn") in ("cells", "empty", "ends", "neighbours"):
            return len(self.cells)
        elif k == "call" and node.get("fn") in ("unique", "best", "usable"):
            return len(self.pieces)
        raise NotFinite("a collection whose length cannot be bounded before play", node)

    def _most_held(self, zones: Iterable[object]) -> int:
        """The most pieces any of ``zones`` can hold (every piece when unknown)."""
        if self.contents is None:
            return len(self.pieces)
        return max([0] + [len(self.contents[z.index]) for z in zones if type(z) is ZoneRef])

    def _distinct(self, node: object) -> bool:
        """Whether ``node`` names a zone, a zone of a family or a component: a
        collection that holds no piece twice."""
        if not isinstance(node, dict):
            return False
        named: Node = node["of"] if node.get("k") == "index" else node
        if named.get("k") != "name" or named["name"] in self.assigned:
            return False
        g = self.inst.globals.get(named["name"])
        return g is not None and g.kind in ("zone", "zone_family", "component")


def max_chance_outcomes(inst: "Instance") -> int:
    """The most outcomes a chance node of the instance can have: a shuffle's first
    draw (the most pieces the shuffled zone can hold), a ``random(X)`` the most
    elements of X, a roll the most faces of a die.

    :raises SemanticError: a ``random`` of a collection whose length has no
        bound before play (code ``unbounded-chance``), located at it.
    """
    domains = Domains(inst)
    best = max([1] + [len(p.rolls[1]) for p in inst.pieces if p.rolls is not None])
    found = [node for key in ("setup", "phases", "play", "defines")
             for node in nodes(inst.ir.get(key))
             if node.get("k") == "shuffle" or (node.get("k") == "call"
                                               and node.get("fn") == "random")]
    for node in found:
        if node["k"] == "shuffle":
            # the first draw of a shuffle picks among the pieces of the zone
            try:
                best = max(best, domains.max_length(node["zone"]))
            except NotFinite:
                best = max(best, len(inst.pieces))
            continue
        try:
            best = max(best, domains.max_length(node["args"][0]))
        except NotFinite as exc:
            at = node.get("at") or [None, None]
            raise SemanticError.at(
                f"random() here has no bound on its number of outcomes: {exc.why} "
                "(explicit chance, needed by the OpenSpiel adapter, lists them)",
                Location(inst.file, at[0] or None, at[1] or None),
                code="unbounded-chance") from None
    return best


class ActionSpace:
    """The numbered actions of one instance.

    ``size`` is the number of distinct actions; an action's id is in ``0 ..
    size-1`` and depends only on its alternative (its text and parameters: the
    same in two decisions, the same ids) and its parameters' values;
    :meth:`decode` gives the first decision that offers an id.

    :raises SemanticError: (from :meth:`build`) a parameter's values cannot be
        listed before play (code ``unbounded-actions``), located at the parameter.
    """

    def __init__(self, inst: "Instance") -> None:
        self.inst = inst
        #: per (choice, alt): first id, per parameter (domain list, index of value)
        self.layout: dict[tuple[int, int],
                          tuple[int, list[tuple[list[object], dict[object, int]]]]] = {}
        #: per id range: (first id, choice, alt), sorted
        self.starts: list[tuple[int, int, int]] = []
        self.size = 0

    @classmethod
    def build(cls, inst: "Instance") -> "ActionSpace":
        space = cls(inst)
        domains = Domains(inst)
        @functools.cache
        def kinds() -> dict[int, Kind | None]:   # (worked out only if a domain needs it)
            return parameter_kinds(inst)
        nodes = _choose_nodes(inst.ir)
        by_at = {tuple(n["at"]): n for n in nodes if n.get("at")}
        groups: list[_Group] = []
        by_key: dict[tuple[str, tuple[str, ...]], list[_Group]] = {}
        for i, choice in enumerate(inst.choices):
            node = by_at.get(tuple(choice.at or ())) or nodes[i]
            for alt, alt_ir in zip(choice.alternatives, node["actions"]):
                values = [_domain(domains, alt.text, p, kinds) for p in alt_ir["params"]]
                # the same text with the same parameters in another decision is the
                # same action (Kuhn poker's "pass" and "bet" at each of its decisions)
                key = (alt.text, tuple(repr(p["bind"]) for p in alt_ir["params"]))
                group = next((g for g in by_key.get(key, ()) if choice.index not in g.choices),
                             None)
                if group is None:
                    group = _Group(alt_ir, [set() for _ in values])
                    groups.append(group)
                    by_key.setdefault(key, []).append(group)
                group.choices.add(choice.index)
                group.members.append((choice.index, alt.index))
                for known, more in zip(group.values, values):
                    known.update(more)
        offset = 0
        for group in groups:
            params = []
            n = 1
            for found in group.values:
                ordered = sorted(found, key=stable_key)
                index: dict[object, int] = {}
                for i, v in enumerate(ordered):
                    index.setdefault(v, i)
                params.append((ordered, index))
                n *= max(1, len(ordered))
            for member in group.members:
                space.layout[member] = (offset, params)
            space.starts.append((offset, *group.members[0]))
            offset += n
            if offset > MAX_ACTIONS:
                at = group.first.get("at") or [None, None]
                raise SemanticError.at(
                    f"the ruleset's actions number more than {MAX_ACTIONS} (at action "
                    f"{group.first.get('text')!r})",
                    Location(inst.file, at[0] or None, at[1] or None), code="unbounded-actions")
        space.size = offset
        return space

    def id_of(self, action: "Action") -> int:
        """The id of ``action``. :raises ValueError: a value outside its domain
        (the analysis missed a value: a bug)."""
        first, params = self.layout[(action.choice, action.alt)]
        ident = 0
        for (values, index), v in zip(params, action.values):
            try:
                i = index[v]
            except (KeyError, TypeError):
                raise ValueError(f"the value {v!r} of action {action.text!r} is outside the "
                                 "domain found for its parameter") from None
            ident = ident * len(values) + i
        return first + ident

    def decode(self, ident: int) -> tuple[int, int, tuple[object, ...]]:
        """``(choice, alternative, values)`` of an id. :raises ValueError: out of range."""
        if not isinstance(ident, int) or not 0 <= ident < self.size:
            raise ValueError(f"no action id {ident!r} (ids are 0..{self.size - 1})")
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:                       # the last start <= ident
            mid = (lo + hi + 1) // 2
            if self.starts[mid][0] <= ident:
                lo = mid
            else:
                hi = mid - 1
        first, choice, alt = self.starts[lo]
        rest = ident - first
        _, params = self.layout[(choice, alt)]
        values: list[object] = []
        for domain, _ in reversed(params):
            rest, i = divmod(rest, len(domain))
            values.append(domain[i])
        return choice, alt, tuple(reversed(values))


@dataclass
class _Group:
    """The alternatives that share ids: one text with the same parameters, at most
    one alternative per decision (``first``: the IR of the first of them)."""

    first: Node
    values: list[set[object]]
    choices: set[int] = field(default_factory=set)
    members: list[tuple[int, int]] = field(default_factory=list)


def _domain(domains: Domains, text: str, param: Node,
            kinds: Callable[[], dict[int, "Kind | None"]]) -> list[object]:
    """Every value a parameter can take: followed through the ruleset (see
    :class:`Domains`), else every value of its type (:func:`kind_domain`: a cell
    of the grids, a piece, a player...).

    :param kinds: gives the kind of each parameter's values (by the ``id()`` of its
        IR: :func:`rulepack.compiler.kinds.parameter_kinds`), asked only when needed.
    :raises SemanticError: they cannot be listed, because the parameter's type is
        unbounded (a number from arithmetic) or unknown (code
        ``unbounded-actions``), located at the expression that made it so.
    """
    try:
        return _enumerate(domains, param)
    except NotFinite as exc:
        kind = kinds().get(id(param))
        found = kind_domain(domains, kind)
        if found is not None and isinstance(param.get("bind"), str):
            return sorted(found, key=stable_key)
        node = exc.node if isinstance(exc.node, dict) else param
        at = node.get("at") or param.get("at") or [None, None]
        typed = "" if kind is None or not kind.basic else \
            f"; its values are {describe(kind, optional=True)}, which cannot be listed"
        raise SemanticError.at(
            f"action {text!r} has no fixed number of possible actions: "
            f"{exc.why}{typed} (stable action ids, needed by the OpenSpiel, "
            "PettingZoo and Gymnasium adapters, list every value a "
            "parameter can take; take it from a zone, a list of known "
            "values, a range with known ends, or a value of a known kind: a cell, a "
            "piece, a player)",
            Location(domains.inst.file, at[0] or None, at[1] or None),
            code="unbounded-actions") from None


def kind_domain(domains: Domains, kind: "Kind | None") -> frozenset[object] | None:
    """Every value of a kind, where there are finitely many known before play: a
    cell (of the grids), a piece, a player, a zone, true or false, ``none``, a
    whole number known now; ``None`` for any other (a number from arithmetic, a
    word, a list, a map)."""
    if kind is None or not kind.basic:
        return None
    out: set[object] = set()
    for basic in kind.basic:
        if basic == "none":
            out.add(None)
        elif basic == "cell":
            out |= domains.cells
        elif basic == "piece":
            out |= domains.pieces
        elif basic == "player":
            out |= domains.seats
        elif basic == "zone":
            out |= set(domains.inst.zone_refs)
        elif basic == "bool":
            out |= {True, False}
        elif basic == "number" and kind.number is not None:
            out.add(kind.number)
        else:
            return None
    return frozenset(out)


def _enumerate(domains: Domains, param: Node) -> list[object]:
    bind = param["bind"]
    atoms = domains.elements(param["in"])
    out: set[object] = set()
    for a in atoms:
        if isinstance(a, TupleDom):
            if isinstance(bind, list) and len(a.parts) != len(bind):
                continue
            size = 1
            for part in a.parts:
                size *= len(part)
            if size > MAX_ACTIONS:
                raise NotFinite("too many combinations of a tuple's parts", param["in"])
            out.update(itertools.product(*[sorted(p, key=stable_key) for p in a.parts]))
        elif isinstance(a, ListDom):
            raise NotFinite("a parameter that takes lists as values", param["in"])
        else:
            out.add(a)
    return sorted(out, key=stable_key)


def _choose_nodes(ir: Node) -> list[Node]:
    """The ``choose`` statements of the IR (matched to the compiled decisions by
    their position; in this order when the IR has no positions)."""
    out: list[Node] = []

    def walk(node: object) -> None:
        if isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, dict):
            if node.get("k") == "choose":
                out.append(node)
            for v in node.values():
                walk(v)
    walk(ir.get("setup"))
    walk(ir.get("phases"))
    walk(ir.get("play"))
    return out
