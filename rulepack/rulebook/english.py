"""Every construct of the language as English.

:class:`English` reads a ruleset's IR (:mod:`rulepack.ir`) and gives, for an
expression, a noun phrase (:meth:`English.phrase`) or, for a condition, a clause
(:meth:`English.clause`); for statements, numbered-free lines of instructions
(:meth:`English.block`), each carrying the source position of the statement it
says (:class:`Line`), so that a rulebook can be checked to say every rule. The
declarations (zones, patterns, components, options, variables, constants,
defines, score, winner) have their own sentences.

The English is the language's, not a game's: names the ruleset gives (a zone
``won``, a define ``can_play``) are written as words (*won*, *can play*) and
defined where the rulebook lists its terms. A formula stays a formula where
English would be longer (``the total value × (1 + …)``). A kind of node this
module has no English for raises :class:`NoEnglish`: a test fails, the rulebook
never falls back to code silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from rulepack.ir import nodes

Node = dict[str, Any]

#: numbers written as words in counts
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve")

#: built-in names as English
_BUILTIN = {"players": "the players", "others": "the other players",
            "active": "the players still in the game", "current": "the current player",
            "next": "the next player", "round": "the number of the round",
            "owner": "its owner", "nobody": "nobody", "everyone": "everyone",
            "axes": "the four lines through a cell (a row, a column, two diagonals)",
            "directions": "the eight directions"}
_WORDS = {"up": "face up", "down": "face down", "none": "nothing", "true": "true",
          "false": "false"}

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least", "in": "is one of",
            "not in": "is not one of"}
_ARITH = {"+": "+", "-": "−", "*": "×", "/": "÷", "//": "÷ (rounded down)",
          "%": "modulo"}


#: a pattern's constraints on an attribute ({a}) and on a condition ({c})
_ON_ATTRIBUTE = {"same": "all of the same {a}", "distinct": "each of a different {a}",
                 "consecutive": "of consecutive {a}s (in the order of {a}s, no wrapping round)",
                 "covers": "showing every {a}"}
_ON_CONDITION = {"each": "each such that {c}",
                 "wild": "where a piece such that {c} is wild (it stands for any piece)"}


#: what :meth:`English.known` gives for a value the options do not decide
UNKNOWN: Any = type("Unknown", (), {"__repr__": lambda self: "UNKNOWN"})()


class NoEnglish(Exception):
    """A construct this module cannot say in English (a test failure)."""


@dataclass
class Line:
    """One line of a rulebook's instructions: its English (Markdown inline), how
    deep it is indented (a step inside a loop, a choice's options) and the
    source position ``[line, column]`` of the rule it says."""

    text: str
    depth: int = 0
    at: list[int] | None = None


@dataclass
class English:
    """The English of one ruleset's IR.

    :param ir: the ruleset's IR (as the parser gives it).
    :param values: names whose value is known and short (options chosen, small
        constants): written as the value (``after 4 rounds``, not ``after rounds
        rounds``).
    """

    ir: dict[str, Any]
    values: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ir = self.ir
        self.zones: dict[str, Node] = {z["name"]: z for z in ir.get("zones") or []}
        self.variables: dict[str, Node] = {v["name"]: v for v in ir.get("variables") or []}
        self.constants: dict[str, Node] = {c["name"]: c for c in ir.get("constants") or []}
        self.defines: dict[str, Node] = {d["name"]: d for d in ir.get("defines") or []}
        self.patterns: dict[str, Node] = {p["name"]: p for p in ir.get("patterns") or []}
        self.phases: dict[str, Node] = {p["name"]: p for p in ir.get("phases") or []}
        self.options: dict[str, Node] = {o["name"]: o for o in ir.get("options") or []}
        self.components: set[str] = {c["name"] for c in ir.get("components") or []}
        for use in ir.get("uses") or []:
            self.components |= set(use.get("only") or ("tile", "coin", "die", "pawn"))
        attrs = {a["name"] for c in ir.get("components") or [] for a in c.get("attributes") or []}
        attrs |= {a["name"] for c in ir.get("components") or [] for a in c.get("derived") or []}
        attrs |= {a["name"] for a in ir.get("attributes") or []}
        if ir.get("uses"):
            attrs |= {"suit", "rank"}
        self.attributes = attrs | {"face", "owner", "zone", "name", "kind", "cell", "row", "col",
                                   "angle"}
        #: the words a ruleset's values are (suits, ranks, an attribute's values, seats,
        #: an option's choices): written as they are
        symbols: set[str] = set()
        if ir.get("uses"):
            symbols |= {"suns", "moons", "crowns", "arms", "null", "ace"}
        for c in ir.get("components") or []:
            for a in c.get("attributes") or []:
                symbols |= {v["name"] for v in a.get("values") or []
                            if isinstance(v, dict) and v.get("k") == "name"}
        for o in ir.get("orders") or []:
            symbols |= {v["name"] for v in o.get("values") or []
                        if isinstance(v, dict) and v.get("k") == "name"}
        for o in ir.get("options") or []:
            symbols |= {v["name"] for v in o.get("values") or []
                        if isinstance(v, dict) and v.get("k") == "name"}
        symbols |= set((ir.get("game") or {}).get("seats") or [])
        self.symbols = symbols
        #: every name the rules bind for a while (let, for, parameters, comprehensions,
        #: argmax, a define's or the score's parameters): written in italics; any
        #: other name not declared is a word of the ruleset's (a die's face, a symbol)
        bound: set[str] = set()
        for n in nodes(ir):
            bind = n.get("bind")
            if isinstance(bind, str):
                bound.add(bind)
            elif isinstance(bind, list):
                bound |= {b for b in bind if isinstance(b, str)}
        for d in ir.get("defines") or []:
            bound |= set(d.get("params") or [])
        for key in ("score", "heuristic"):
            decl = ir.get(key) or {}
            if isinstance(decl.get("player"), str):
                bound.add(decl["player"])
        self.bound = bound
        #: names of the piece being described (inside ``where``, a pattern's ``each``)
        self._its = False
        #: rules that do not apply with the options chosen (``values``): their lines,
        #: each group headed by the condition, for the rulebook's options section
        self.elsewhere: list[Line] = []
        #: the positions of conditions the options decide (their rules are said
        #: without them, or in :attr:`elsewhere`)
        self.folded: list[list[int]] = []

    # ------------------------------------------------------------------ names
    @staticmethod
    def words(name: str) -> str:
        """A ruleset's name as words: ``won_categories`` → ``won categories``."""
        return name.replace("_", " ")

    @staticmethod
    def local(name: str) -> str:
        """A name the rules bind for a while (a loop's, an action's): in italics."""
        return f"*{name}*"

    def term(self, name: str) -> str:
        """A name the ruleset defines (a define, a constant): italic words, listed
        among the rulebook's terms."""
        return f"*{self.words(name)}*"

    # ------------------------------------------------------------------ expressions
    def phrase(self, node: Any) -> str:
        """An expression as a noun phrase.

        :raises NoEnglish: a kind of node without English."""
        if not isinstance(node, dict):
            return self._value(node)
        kind = node.get("k")
        method: Callable[[Node], str] | None = getattr(self, f"_e_{kind}", None)
        if method is None:
            raise NoEnglish(f"no English for an expression of kind {kind!r}")
        return method(node)

    def known(self, node: Any) -> Any:
        """The value of an expression the options decide (literals, the values
        given, ``not``, ``and``, ``or``, ``==``, ``!=`` of them), else :data:`UNKNOWN`."""
        if not isinstance(node, dict):
            return UNKNOWN
        k = node.get("k")
        if k == "lit":
            return node.get("value")
        if k == "name":
            return self.values.get(node["name"], UNKNOWN)
        if k == "op":
            args = [self.known(a) for a in node.get("args") or []]
            op = node["op"]
            if op == "not" and args[0] is not UNKNOWN:
                return not args[0]
            if op == "and":
                if any(a is False for a in args):
                    return False
                return True if all(a is True for a in args) else UNKNOWN
            if op == "or":
                if any(a is True for a in args):
                    return True
                return False if all(a is False for a in args) else UNKNOWN
            if op in ("==", "!=") and UNKNOWN not in args:
                return (args[0] == args[1]) == (op == "==")
        return UNKNOWN

    def unvalued(self, say: Callable[[Any], str], node: Any) -> str:
        """``say(node)`` with the options named, not valued (``if the option blind
        holds``): for the rules that apply only with other options."""
        saved, self.values = self.values, {}
        try:
            return say(node)
        finally:
            self.values = saved

    def _aside(self, cond: Any, lines: list[Line], holds: bool) -> None:
        """Keep ``lines``, the rules that apply when ``cond`` is ``holds`` (not with
        the options chosen), for the options section."""
        if not lines:
            return
        said = self.unvalued(self.clause, cond)
        head = f"If {said}:" if holds else f"Unless {said}:"
        self.elsewhere.append(Line(head, 0, None))
        base = min(ln.depth for ln in lines)
        self.elsewhere += [Line(ln.text, ln.depth - base + 1, ln.at) for ln in lines]

    def clause(self, node: Any) -> str:
        """A condition as a clause (``the stack is empty``, ``p's score is at least 6``).

        :raises NoEnglish: a kind of node without English."""
        if isinstance(node, dict):
            k = node.get("k")
            decided = self.known(node)
            if decided is True or decided is False:
                return "always" if decided else "never"
            if k == "op":
                op, args = node["op"], node.get("args") or []
                if op in ("and", "or"):
                    # parts the options decide say nothing here (true in an and, false
                    # in an or): the others are the condition
                    args = [a for a in args if self.known(a) is not (op == "and")]
                    if len(args) == 1:
                        return self.clause(args[0])
                if op == "and":
                    return " and ".join(self._part(a) for a in args)
                if op == "or":
                    return " or ".join(self._part(a) for a in args)
                if op == "not":
                    inner = args[0]
                    if isinstance(inner, dict) and inner.get("k") == "name":
                        return f"{self.phrase(inner)} is false"
                    return f"it is not so that {self.clause(inner)}"
                if op in _COMPARE:
                    return self._compare(op, args[0], args[1])
            if k == "call" and node.get("fn") in ("any", "all"):
                return self._any_all(node)
            if k == "call" and node.get("fn") == "empty":
                return f"{self.phrase(node['args'][0])} has an empty cell"
            if k == "lit" and isinstance(node.get("value"), bool):
                return "always" if node["value"] else "never"
            if k == "call" and node.get("fn") in self.defines:
                return f"{self._call_args(node)} holds"
        text = self.phrase(node)
        if text.startswith("whether "):
            return text[len("whether "):]
        if isinstance(node, dict) and node.get("k") in ("name", "index", "attr"):
            return f"{text} is true"
        return f"{text} holds"

    def _part(self, node: Any) -> str:
        text = self.clause(node)
        if isinstance(node, dict) and node.get("k") == "op" and node.get("op") in ("and", "or"):
            return f"({text})"
        return text

    def _compare(self, op: str, left: Any, right: Any) -> str:
        is_ = "is" if op == "==" else "is not"
        if op in ("==", "!=") and isinstance(right, dict) and right.get("k") == "lit" and \
                right.get("value") is None and isinstance(left, dict) and \
                left.get("k") == "call" and left.get("fn") == "at":
            where = self.phrase(left["args"][0])
            return f"there is a piece on {where}" if op == "!=" else f"{where} is empty"
        if op in ("==", "!=") and isinstance(right, dict) and right.get("k") == "lit" and \
                right.get("value") is None:
            return f"{self.phrase(left)} {is_} nothing"
        if op in ("==", "!=") and isinstance(right, dict) and right.get("k") == "list" and \
                not right.get("items"):
            return f"{self.phrase(left)} {is_} empty"
        if op in ("==", "!=") and isinstance(right, dict) and right.get("k") == "lit" and \
                right.get("value") in ("up", "down") and isinstance(left, dict) and (
                    (left.get("k") == "name" and left.get("name") == "face") or
                    (left.get("k") == "attr" and left.get("name") == "face")):
            who = "it" if left.get("k") == "name" else self.phrase(left["of"])
            return f"{who} {is_} face {right['value']}"
        if op in (">", ">=", "==", "!=") and isinstance(left, dict) and left.get("k") == "call" \
                and left.get("fn") == "count" and isinstance(right, dict) and \
                right.get("k") == "lit" and right.get("value") == 0:
            what = self.phrase(left["args"][0])
            if op == "==":
                return f"{what} holds nothing"
            return f"{what} holds something"
        return f"{self.phrase(left)} {_COMPARE[op]} {self.phrase(right)}"

    def _any_all(self, node: Node) -> str:
        arg = node["args"][0]
        some = node["fn"] == "any"
        if isinstance(arg, dict) and arg.get("k") == "comp":
            over = self._each(arg["bind"], arg["in"])
            inner = self.clause(arg["expr"])
            if arg.get("if") is not None:
                over += f" such that {self.clause(arg['if'])}"
            return f"{'for some' if some else 'for every'} {over}, {inner}"
        return f"{'some' if some else 'every'} one of {self.phrase(arg)} holds"

    def _value(self, value: Any) -> str:
        if value is None:
            return "nothing"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if isinstance(value, str):
            return _WORDS.get(value, value.replace("_", " ") if re.fullmatch(r"\w+", value)
                              else f"“{value}”")
        if isinstance(value, (list, tuple)):
            return _listed([self._value(v) for v in value])
        return str(value)

    def _e_lit(self, node: Node) -> str:
        return self._value(node.get("value"))

    def _e_name(self, node: Node) -> str:
        name = node["name"]
        if name in self.values:
            return self._value(self.values[name])
        if self._its and name in self.attributes:
            return f"its {self.words(name)}"
        if name in _BUILTIN:
            return _BUILTIN[name]
        if name in _WORDS:
            return _WORDS[name]
        if name in self.symbols and name not in self.constants:
            return self.words(name)
        if name in self.zones:
            return self.zone_name(name)
        if name in self.variables:
            return f"the {self.words(name)}"
        if name in self.constants or name in self.defines:
            return self.term(name)
        if name in self.patterns:
            return f"a {self.words(name)}"
        if name in self.options:
            return f"the option {self.words(name)}"
        if name in self.components:
            return f"every {self.words(name)}"
        if name in ("suits", "ranks"):
            return f"the {name}"
        if name in self.attributes:
            return f"its {self.words(name)}"
        if name in self.bound:
            return self.local(name)
        return self.words(name)

    def zone_name(self, name: str, owner: str | None = None) -> str:
        """A zone, or one zone of a family (``owner``: whose): ``the discards``,
        ``the current player's hand``, ``the hand of moons``."""
        zone = self.zones.get(name) or {}
        if owner is None:
            if zone.get("per"):
                return f"every {self.words(name)}"
            return f"the {self.words(name)}"
        if zone.get("per") == "player":
            return f"{_possessive(owner)} {self.words(name)}"
        return f"the {self.words(name)} of {owner}"

    def _e_op(self, node: Node) -> str:
        op, args = node["op"], node.get("args") or []
        if op in ("and", "or", "not") or op in _COMPARE:
            return f"whether {self.clause(node)}"
        if op == "neg" or (op == "-" and len(args) == 1):
            return f"−{self._operand(args[0])}"
        if op in _ARITH:
            return f" {_ARITH[op]} ".join(self._operand(a) for a in args)
        raise NoEnglish(f"no English for the operator {op!r}")

    def _operand(self, node: Any) -> str:
        text = self.phrase(node)
        if isinstance(node, dict) and node.get("k") == "op" and node.get("op") in _ARITH:
            return f"({text})"
        return text

    def _call_args(self, node: Node) -> str:
        name = node["fn"]
        args = node.get("args") or []
        if not args:
            return self.term(name)
        return f"{self.term(name)} of {_listed([self.phrase(a) for a in args])}"

    def _e_call(self, node: Node) -> str:
        fn = node["fn"]
        args = node.get("args") or []
        a = [self.phrase(x) for x in args]
        if fn in self.defines:
            return self._call_args(node)
        simple: dict[str, Callable[[], str]] = {
            "count": lambda: f"the number of {self._members(args[0], a[0])}",
            "sum": lambda: f"the total of {a[0]}",
            "max": lambda: f"the largest of {a[0]}",
            "min": lambda: f"the smallest of {a[0]}",
            "distinct": lambda: f"the different values of {a[0]}",
            "unique": lambda: f"{a[0]} (each kind of piece once: two identical "
                              "pieces count as one)",
            "only": lambda: f"the one and only element of {a[0]}",
            "random": lambda: f"one drawn at random from {a[0]}",
            "order": lambda: f"the players in turn order starting with {a[0]}",
            "after": lambda: f"the player after {a[0]}",
            "score": lambda: f"{_possessive(a[0])} score",
            "abs": lambda: f"the size of {a[0]}",
            "cells": lambda: f"the cells of {a[0]}",
            "empty": lambda: f"the empty cells of {a[0]}",
            "at": lambda: f"the piece on {a[0]}",
            "is_active": lambda: f"whether {a[0]} is still in the game",
            "first": lambda: f"the first of {a[0]}",
            "last": lambda: f"the last of {a[0]}",
            "flatten": lambda: f"all the elements of the lists in {a[0]}",
            "team": lambda: f"{_possessive(a[0])} team",
            "stack_at": lambda: f"the pieces on {a[0]}, bottom to top",
            "height": lambda: f"how many pieces are stacked on {a[0]}",
            "under": lambda: f"the piece under {a[0]}",
            "neighbours": lambda: f"the cells next to {a[0]}",
            "neighbors": lambda: f"the cells next to {a[0]}",
            "any": lambda: f"whether {self._any_all(node)}",
            "all": lambda: f"whether {self._any_all(node)}",
        }
        simple.update({
            "cell": lambda: f"the cell of {a[0]} in row {a[1]}, column {a[2]}",
            "step": lambda: f"the cell one step from {a[0]} in the direction {a[1]}",
            "ends": lambda: f"the far ends of the line through {a[0]} along {a[1]}",
            "knows": lambda: f"whether {a[0]} knows {a[1]}",
            "best": lambda: f"the best {_singular(a[0])} that can be made from {a[1]}",
            "matches": lambda: f"whether {a[1]} make {a[0]}",
            "partition": lambda: f"a way to split {a[1]} into groups that each make "
                                 f"{a[0]}",
        })
        if fn in simple:
            return simple[fn]()
        if fn == "partitionable":
            more = f", with any of {a[2]}" if len(a) > 2 else ""
            return f"whether {a[1]}{more} can be split into groups that each make " \
                   f"{a[0]}"
        if fn == "usable":
            return f"the pieces of {a[2]} that can join {a[1]} in groups that " \
                   f"each make {a[0]}"
        raise NoEnglish(f"no English for the function {fn!r}")

    def _members(self, node: Any, text: str) -> str:
        """What a count counts: ``pieces in the stack`` for a zone, else the phrase."""
        if isinstance(node, dict) and (node.get("k") == "name" and node.get("name") in self.zones
                                       or node.get("k") == "index" and isinstance(
                                           node.get("of"), dict) and
                                       node["of"].get("name") in self.zones):
            return f"pieces in {text}"
        return text

    def _e_attr(self, node: Node) -> str:
        name = node["name"]
        of = node["of"]
        if name == "face":
            return f"the side {self.phrase(of)} shows"
        return f"the {self.words(name)} of {self.phrase(of)}"

    def _e_index(self, node: Node) -> str:
        of, index = node["of"], node["index"]
        if isinstance(of, dict) and of.get("k") == "name":
            name = of["name"]
            if name in self.zones:
                return self.zone_name(name, self.phrase(index))
            if name in self.variables and (self.variables[name].get("per_player") or
                                           self.variables[name].get("per_team")):
                return f"{_possessive(self.phrase(index))} {self.words(name)}"
        if isinstance(index, dict) and index.get("k") == "lit" and isinstance(index.get("value"),
                                                                                int):
            n = index["value"]
            return f"the {_ordinal(n + 1) if n >= 0 else 'last'} element of {self.phrase(of)}"
        return f"the entry for {self.phrase(index)} in {self.phrase(of)}"

    def _e_list(self, node: Node) -> str:
        items = node.get("items") or []
        if not items:
            return "no element"
        return f"the list {_listed([self.phrase(i) for i in items])}"

    def _e_tuple(self, node: Node) -> str:
        return "(" + ", ".join(self.phrase(i) for i in node.get("items") or []) + ")"

    def _e_map(self, node: Node) -> str:
        pairs = node.get("items") or node.get("pairs") or []
        shown = []
        for pair in pairs:
            k, v = (pair["key"], pair["value"]) if isinstance(pair, dict) else pair
            shown.append(f"{self.phrase(k)} → {self.phrase(v)}")
        return "the table " + "; ".join(shown)

    def _e_range(self, node: Node) -> str:
        return f"the numbers from {self.phrase(node['from'])} to {self.phrase(node['to'])}"

    def _each(self, bind: Any, source: Any) -> str:
        """``each player p``, ``each piece t in the discards``, ``each x in S``."""
        names = bind if isinstance(bind, list) else [bind]
        shown = ", ".join(self.local(n) for n in names)
        if len(names) > 1:
            shown = f"({shown})"
        src = self.phrase(source)
        if isinstance(source, dict) and source.get("k") == "name":
            n = source["name"]
            if n in ("players", "others", "active"):
                return f"{'player' if n == 'players' else 'other player' if n == 'others' else 'player still in'} {shown}" \
                    if n != "active" else f"player {shown} still in the game"
            if n in ("suits", "ranks"):
                return f"{n[:-1]} {shown}"
        return f"{shown} in {src}"

    def _e_comp(self, node: Node) -> str:
        over = self._each(node["bind"], node["in"])
        out = f"{self.phrase(node['expr'])} for each {over}"
        if node.get("if") is not None:
            out += f" such that {self.clause(node['if'])}"
        return out

    def _e_where(self, node: Node) -> str:
        of = self.phrase(node["of"])
        cond = self._its_clause(node["cond"])
        if of.startswith("every ") or not self._members(node["of"], of).startswith("pieces in"):
            return f"{of} such that {cond}"
        return f"the pieces of {of} such that {cond}"

    def _e_sort(self, node: Node) -> str:
        key = self._its_phrase(node["by"])
        way = "highest first" if node.get("descending") else "lowest first"
        return f"{self.phrase(node['of'])}, ordered by {key} ({way})"

    def _e_top(self, node: Node) -> str:
        end = node.get("end", "top")
        count = node.get("count")
        of = self.phrase(node["of"])
        if count is None:
            return f"the {end} piece of {of}"
        return f"the {end} {self.phrase(count)} pieces of {of}"

    def _e_if(self, node: Node) -> str:
        decided = self.known(node["cond"])
        if decided is True or decided is False:
            return self.phrase(node["then"] if decided else node["else"])
        return (f"(if {self.clause(node['cond'])}: {self.phrase(node['then'])}; otherwise: "
                f"{self.phrase(node['else'])})")

    def _e_argmax(self, node: Node) -> str:
        over = self._each(node["bind"], node["in"])
        out = f"the {over}"
        if node.get("if") is not None:
            out += f", among those such that {self.clause(node['if'])},"
        by = node["by"]
        if isinstance(by, dict) and by.get("k") == "list" and by.get("items"):
            keys = [self.phrase(k) for k in by["items"]]
            ranked = keys[0] + " is highest" + "".join(
                f", then (among those tied) {k} is highest" for k in keys[1:])
            return out + f" for whom {ranked} (all of them if still tied)"
        return out + f" for whom {self.phrase(by)} is highest (all of them if tied)"

    def _e_run(self, node: Node) -> str:
        cond = self._its_clause(node["where"])
        return (f"the longest line of cells through {self.phrase(node['through'])} along "
                f"{self.phrase(node['along'])} whose pieces all hold that {cond}")

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list[Node] | None, depth: int = 0) -> list[Line]:
        """Statements as lines of instructions.

        :raises NoEnglish: a kind of statement without English."""
        out: list[Line] = []
        for s in stmts or []:
            out += self.statement(s, depth)
        return out

    def statement(self, node: Node, depth: int = 0) -> list[Line]:
        """One statement as lines (a loop: its line, then its body one deeper).

        :raises NoEnglish: a kind of statement without English."""
        kind = node.get("k")
        method: Callable[[Node, int], list[Line]] | None = getattr(self, f"_s_{kind}", None)
        if method is None:
            raise NoEnglish(f"no English for a statement of kind {kind!r}")
        return method(node, depth)

    def _line(self, node: Node, depth: int, text: str) -> Line:
        return Line(_sentence(text), depth, node.get("at"))

    def _s_move(self, node: Node, depth: int) -> list[Line]:
        what = self.phrase(node["what"])
        to = self.phrase(node["to"])
        text = f"move {what} to {to}"
        if node.get("bottom"):
            text += ", at the bottom"
        if node.get("face"):
            text += f", face {node['face']}"
        return [self._line(node, depth, text)]

    def _s_flip(self, node: Node, depth: int) -> list[Line]:
        face = node.get("face")
        how = f"face {face}" if face else "over"
        return [self._line(node, depth, f"turn {self.phrase(node['what'])} {how}")]

    def _s_rotate(self, node: Node, depth: int) -> list[Line]:
        what, deg = self.phrase(node["what"]), self.phrase(node["degrees"])
        if node.get("clockwise"):
            return [self._line(node, depth, f"turn {what} clockwise by {deg} degrees")]
        return [self._line(node, depth, f"point {what} {deg} degrees counter-clockwise from up "
                                         "(90: left, 180: down, 270: right)")]

    def _s_shuffle(self, node: Node, depth: int) -> list[Line]:
        return [self._line(node, depth, f"shuffle {self.phrase(node['zone'])}")]

    def _s_roll(self, node: Node, depth: int) -> list[Line]:
        return [self._line(node, depth, f"roll {self.phrase(node['what'])}")]

    def _s_let(self, node: Node, depth: int) -> list[Line]:
        bind = node["bind"]
        names = ", ".join(self.local(n) for n in (bind if isinstance(bind, list) else [bind]))
        return [self._line(node, depth, f"let {names} be {self.phrase(node['expr'])}")]

    def _s_set(self, node: Node, depth: int) -> list[Line]:
        name = node["name"]
        target = f"the {self.words(name)}" if name in self.variables else self.local(name)
        if node.get("index") is not None:
            target = f"{_possessive(self.phrase(node['index']))} {self.words(name)}"
        return [self._line(node, depth, f"{target} becomes {self.phrase(node['expr'])}")]

    def _s_reset(self, node: Node, depth: int) -> list[Line]:
        name = node["name"]
        return [self._line(node, depth, f"the {self.words(name)} goes back to its starting "
                                         "value")]

    def _s_for(self, node: Node, depth: int) -> list[Line]:
        head = self._line(node, depth, f"for each {self._each(node['bind'], node['in'])}:")
        return [head] + self.block(node.get("body"), depth + 1)

    def _s_if(self, node: Node, depth: int) -> list[Line]:
        decided = self.known(node["cond"])
        if decided is True or decided is False:
            # the options decide it: the rules that apply, and the others aside
            self.folded.append(node["at"])
            taken, aside = ("then", "else") if decided else ("else", "then")
            self._aside(node["cond"], self.block(node.get(aside), depth), not decided)
            return self.block(node.get(taken), depth)
        out = [self._line(node, depth, f"if {self.clause(node['cond'])}:")]
        out += self.block(node.get("then"), depth + 1)
        other = node.get("else")
        if other:
            out.append(Line("Otherwise:", depth, None))
            out += self.block(other, depth + 1)
        return out

    def _s_while(self, node: Node, depth: int) -> list[Line]:
        head = self._line(node, depth, f"as long as {self.clause(node['cond'])}, again and "
                                        "again:")
        return [head] + self.block(node.get("body"), depth + 1)

    def _s_repeat(self, node: Node, depth: int) -> list[Line]:
        head = self._line(node, depth, f"again and again, until {self.clause(node['until'])}:")
        return [head] + self.block(node.get("body"), depth + 1)

    def _s_maximize(self, node: Node, depth: int) -> list[Line]:
        head = self._line(node, depth, "play the following so as to reach the highest "
                                        f"{self.phrase(node['value'])} possible by its end "
                                        "(a choice that cannot lead there is not allowed):")
        return [head] + self.block(node.get("body"), depth + 1)

    def _s_rounds(self, node: Node, depth: int) -> list[Line]:
        if node.get("times") is not None:
            text = f"play {self.phrase(node['times'])} rounds; in each round:"
        else:
            text = f"play rounds until {self.clause(node['until'])}; in each round:"
        return [self._line(node, depth, text)] + self.block(node.get("body"), depth + 1)

    def _s_turns(self, node: Node, depth: int) -> list[Line]:
        first = self.phrase(node["from"])
        text = f"starting with {first} and going clockwise, each player in turn"
        if node.get("until") is not None:
            text += f" (until, after a turn, {self.clause(node['until'])})"
        text += " — the player whose turn it is is the current player:"
        return [self._line(node, depth, text)] + self.block(node.get("body"), depth + 1)

    def _s_choose(self, node: Node, depth: int) -> list[Line]:
        who = self.phrase(node["by"]) if node.get("by") is not None else "the current player"
        out = [self._line(node, depth, f"{who} chooses one of these actions:")]
        for alt in node.get("actions") or []:
            out += self.action(alt, depth + 1)
        return out

    def action(self, alt: Node, depth: int) -> list[Line]:
        """One action of a ``choose``: how it is written, for which values, when it
        is allowed, then what it does (nothing, and the action kept aside, when the
        options forbid it)."""
        guard = alt.get("guard")
        if guard is not None and self.known(guard) is False:
            self.folded.append(alt["at"])
            self._aside(guard, self._action_lines(alt, depth, None), True)
            return []
        return self._action_lines(alt, depth, guard)

    def _action_lines(self, alt: Node, depth: int, guard: Any) -> list[Line]:
        text = f"“{alt['text']}”"
        for p in alt.get("params") or []:
            text += f", for each {self._each(p['bind'], p['in'])}"
        if guard is not None and self.known(guard) is not True:
            text += f", if {self.clause(guard)}"
        body = alt.get("body") or []
        text += ":" if body else " (nothing else happens)."
        return [Line(text, depth, alt.get("at"))] + self.block(body, depth + 1)

    def _s_end(self, node: Node, depth: int) -> list[Line]:
        what = node.get("what", "game")
        if what == "game":
            winners = node.get("winners")
            if isinstance(winners, dict) and winners.get("k") == "list":
                items = winners.get("items") or []
                if not items:
                    return [self._line(node, depth, "the game ends; nobody wins")]
                who = _listed([self.phrase(i) for i in items])
                return [self._line(node, depth, f"the game ends; {who} "
                                                f"win{'s' if len(items) == 1 else ''}")]
            if winners is not None:
                return [self._line(node, depth, "the game ends; the winners: "
                                                f"{self.phrase(winners)}")]
            return [self._line(node, depth, "the game ends")]
        return [self._line(node, depth, f"the {what} ends here")]

    def _s_do(self, node: Node, depth: int) -> list[Line]:
        name = self.words(node["phase"])
        return [self._line(node, depth, f"play the {name} (see “The {name}”)")]

    def _s_eliminate(self, node: Node, depth: int) -> list[Line]:
        return [self._line(node, depth, f"{self.phrase(node['player'])} is out of the game")]

    def _s_claim(self, node: Node, depth: int) -> list[Line]:
        return [self._line(node, depth, f"{self.phrase(node['what'])} now belongs to "
                                         f"{self.phrase(node['for'])}")]

    def _s_arrange(self, node: Node, depth: int) -> list[Line]:
        return [self._line(node, depth, f"arrange {self.phrase(node['zone'])} into groups that "
                                         f"each make {self.phrase(node['into'])}")]

    def _s_say(self, node: Node, depth: int) -> list[Line]:
        to = f" to {self.phrase(node['to'])}" if node.get("to") is not None else ""
        return [self._line(node, depth, f"announce{to}: “{node['text']}”")]

    # ------------------------------------------------------------------ declarations
    def zone(self, z: Node, shape: tuple[int, int, list[str]] | None = None) -> Line:
        """A zone's line: what kind of place it is, whose, who sees it.

        :param shape: a grid's rows, columns and the names of the places left out,
            when the game is built (its size may depend on the options)."""
        kinds = {"stack": "a stack (pieces taken from its top)", "row": "a row of pieces",
                 "pile": "a pile", "groups": "groups of pieces"}
        if z["kind"] == "grid":
            if shape is not None:
                rows, cols, holes = shape
                what = f"a grid of {rows} rows and {cols} columns"
                if holes and len(holes) <= 12:
                    what += f", without {_listed(holes)}"
                elif holes:
                    what += f", {rows * cols - len(holes)} of its places used"
            else:
                what = f"a grid of {self.phrase(z['rows'])} rows and " \
                       f"{self.phrase(z['cols'])} columns"
                if z.get("holes"):
                    what += f" without the cells {self.phrase(z['holes'])}"
            if z.get("stacked"):
                what += "; each cell holds a stack of pieces"
            if z.get("notation"):
                what += "; its cells are named as PPN names them (columns a, b, c… from the " \
                        "left, rows 1, 2… from the bottom: a1 is the bottom left)"
            else:
                what += "; its cells are named by column letter and row number (a1 is the " \
                        "top left, b1 the cell to its right, a2 the one below it)"
        else:
            what = kinds[z["kind"]]
        per = z.get("per")
        name = self.words(z["name"])
        head = f"**{name}**" if not per else f"**{name}** (one for each {per})"
        seen = z.get("seen_by")
        if isinstance(seen, dict) and seen.get("k") == "name":
            who = {"owner": "only its owner", "everyone": "everyone", "nobody": "nobody"}.get(
                seen["name"], self.phrase(seen))
            what += f", seen by {who}"
        return Line(f"{head}: {what}.", 0, z.get("at"))

    def pattern(self, p: Node) -> Line:
        """A pattern's line: ``**flush**: four pieces, all of the same suit.``"""
        name = self.words(p["name"])
        if p.get("any"):
            alts = _listed([f"a {self.words(n)}" for n in p["any"]], "or")
            return Line(f"**{name}**: {alts}.", 0, p.get("at"))
        size = "pieces"
        parts: list[str] = []
        for c in p.get("all") or []:
            kind, arg = c["c"], c.get("arg")
            if kind == "size":
                size = f"{_count_range(arg, self)} pieces"
            elif kind in _ON_ATTRIBUTE:
                parts.append(_ON_ATTRIBUTE[kind].format(a=self.words(arg)))
            elif kind in _ON_CONDITION:
                parts.append(_ON_CONDITION[kind].format(c=self._its_clause(arg)))
            else:
                raise NoEnglish(f"no English for the pattern constraint {kind!r}")
        return Line(f"**{name}**: {size}" + (", " + ", ".join(parts) if parts else "") + ".",
                    0, p.get("at"))

    def _its_clause(self, node: Any) -> str:
        """A condition on a piece, its bare attribute names the piece's (``its rank``)."""
        return self._of_a_piece(self.clause, node)

    def _its_phrase(self, node: Any) -> str:
        """:meth:`_its_clause` for a value (a sort key)."""
        return self._of_a_piece(self.phrase, node)

    def _of_a_piece(self, say: Callable[[Any], str], node: Any) -> str:
        saved, self._its = self._its, True
        try:
            return say(node)
        finally:
            self._its = saved

    def define(self, d: Node) -> Line:
        """A define as a term: ``*can play* of *p*: …``."""
        params = d.get("params") or []
        head = self.term(d["name"])
        if params:
            head += " of " + _listed([self.local(p) for p in params])
        body = d.get("expr")
        boolean = isinstance(body, dict) and (
            (body.get("k") == "op" and body.get("op") in ("and", "or", "not", *_COMPARE)) or
            (body.get("k") == "call" and body.get("fn") in ("any", "all")))
        text = f"holds when {self.clause(body)}" if boolean else f"is {self.phrase(body)}"
        return Line(f"{head} {text}.", 0, d.get("at"))

    def constant(self, c: Node) -> Line:
        return Line(f"{self.term(c['name'])} is {self.phrase(c['expr'])}.", 0, c.get("at"))

    def variable(self, v: Node) -> Line:
        per = " (one for each player)" if v.get("per_player") else ""
        seen = {"owner": ", seen only by its owner", "nobody": ", seen by nobody"}.get(
            v.get("seen") or "", "")
        return Line(f"The **{self.words(v['name'])}**{per} starts as {self.phrase(v['expr'])}"
                    f"{seen}.", 0, v.get("at"))

    def option(self, o: Node) -> Line:
        name = self.words(o["name"])
        kind = o.get("type")
        if kind == "bool":
            what = "on or off"
        elif kind == "int":
            what = f"a number from {o.get('min')} to {o.get('max')}"
        elif kind == "choice":
            what = "one of " + _listed([self.phrase(v) for v in o.get("values") or []], "or")
        else:
            what = "a text"
        default = self.phrase(o.get("default"))
        help_text = f" — {o['help']}" if o.get("help") else ""
        return Line(f"**{name}**: {what} (normally {default}){help_text}.", 0, o.get("at"))

    def score(self, s: Node) -> Line:
        p = s.get("player", "p")
        return Line(f"The score of a player {self.local(p)} is {self.phrase(s['expr'])}.", 0,
                    s.get("at"))

    def winner(self, w: Node) -> Line:
        rule = w.get("rule")
        text = {"highest": "The player with the highest score wins (tied players share the "
                           "win).",
                "lowest": "The player with the lowest score wins (tied players share the "
                          "win)."}.get(str(rule))
        if text is None:
            raise NoEnglish(f"no English for the winner rule {rule!r}")
        return Line(text, 0, w.get("at"))

    def requirement(self, r: Node) -> Line:
        return Line(f"It must hold that {self.clause(r['cond'])} ({r.get('message')}).", 0,
                    r.get("at"))


# ---------------------------------------------------------------------- helpers
def _listed(items: list[str], last: str = "and") -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _possessive(owner: str) -> str:
    if owner.endswith("*"):
        return f"{owner}’s"
    return f"{owner}'s" if not owner.endswith("s") else f"{owner}'"


def _singular(text: str) -> str:
    return text[2:] if text.startswith("a ") else text


def _ordinal(n: int) -> str:
    names = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
    return names.get(n, f"{n}th")


def _count_range(arg: Any, english: English) -> str:
    if isinstance(arg, dict) and arg.get("k") == "range":
        lo, hi = english.phrase(arg["from"]), english.phrase(arg["to"])
        joined = "or" if lo.isdigit() and hi.isdigit() and int(hi) == int(lo) + 1 else "to"
        return f"{_number_word(lo)} {joined} {_number_word(hi)}"
    return _number_word(english.phrase(arg))


def _number_word(text: str) -> str:
    return _NUMBER_WORDS[int(text)] if text.isdigit() and int(text) < len(_NUMBER_WORDS) else text


def _sentence(text: str) -> str:
    """A sentence: its first letter a capital, a full stop unless it ends a head."""
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((":", ".", "?", "!")) else text + "."
