"""A ruleset compiled for one player count and one set of options.

Components, zones and even the rules' constants may depend on the number of
players and on options (one tile set per player; a grid shape chosen by an
option), so :class:`Instance` is built per ``(players, options)`` and cached by
the :class:`~rulepack.game.Game`. It holds the pieces, the zones,
the compiled patterns, the program of the flow and the initial values of the
variables. It is immutable once built and shared by every state of that
configuration.
"""

from __future__ import annotations

import weakref

from weakref import WeakKeyDictionary
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Callable

from rulepack.errors import Diagnostic, Location, RulepackError, SemanticError
from rulepack.ir import Node, calls_in, names_in, nodes, rename
from rulepack.patterns import match as pat
from rulepack.compiler.actionspace import ActionSpace, max_chance_outcomes
from rulepack.compiler.bounds import Range, score_bounds
from rulepack.compiler.components import compile_components, compile_orders
from rulepack.compiler.closures import Fn
from rulepack.compiler.expressions import (BUILTIN_FUNCTIONS, BUILTIN_NAMES, LITERAL_WORDS,
                                               ExprCompiler)
from rulepack.compiler.build import build_program, with_blocks, with_start
from rulepack.compiler.flow import FlowCompiler
from rulepack.engine import effects
from rulepack.engine.drawn import drawing_calls
from rulepack.engine.program import HALT, Choice, Instr, Program
from rulepack.engine.position import Position
from rulepack.engine.start import find_program_start
from rulepack.engine.zones import ZoneInfo
from rulepack.engine.runtime import (EVAL_STEPS, PSEUDO_ATTRIBUTES, RuleValueError, failure_text,
                                     show)
from rulepack.compiler.kinds import check_kinds
from rulepack.compiler.scope import Global, Scope, ScopeChanges
from rulepack.engine.values import Cell, PatternRef, Piece, Player, ZoneRef, describe

if TYPE_CHECKING:  # pragma: no cover
    from typing_extensions import Unpack


ZONE_KINDS = ("stack", "row", "pile", "grid", "groups")
VISIBILITIES = ("owner", "nobody", "everyone")


#: each program the compiler made → the instance it was made from (see
#: :func:`instance_of`), held weakly both ways: the instance holds its program, and a
#: program holds its instance (its deferred action numbering), so a strong value
#: would keep every program ever made alive
_MADE_FROM: "WeakKeyDictionary[Program, weakref.ref[Instance]]" = WeakKeyDictionary()


def instance_of(program: Program) -> "Instance":
    """The compiler's instance ``program`` was made from (its IR, scopes and
    generated source: for tools such as ``rulepack compile`` and the tests).

    :raises KeyError: a program the compiler did not make."""
    inst = _MADE_FROM[program]()
    if inst is None:        # pragma: no cover - a live program keeps its instance
        raise KeyError(program)
    return inst


class _BuildState:
    """Stands in for a state while constants and components are evaluated."""

    def __init__(self, inst: "Instance") -> None:
        #: what the runtime functions read of a position's program (the instance
        #: has the same zones, pieces and seats: there is no program yet)
        self.program = inst
        self.vars: dict[str, object] = {}
        #: one budget of loop elements for everything evaluated while building
        self.steps_left = EVAL_STEPS


class Instance:
    """The compiled form of a ruleset for a player count and options.

    :param kinds: run the type check (:mod:`rulepack.compiler.kinds`); off only for
        tools that show what the check infers of a ruleset it may refuse.
    :raises SemanticError: anything the ruleset says that cannot be compiled.
    :raises RuleValueError: never escapes; converted to SemanticError with a location.
    """

    def __init__(self, ir: Node, num_players: int, options: dict[str, object],
                 file: str, kinds: bool = True) -> None:
        self.ir = ir
        self.file = file
        #: the IR node evaluated last while the instance is built (where an error
        #: of a value is located: see :meth:`evaluate`)
        self.evaluating: Node | None = None
        self.num_players = num_players
        #: seat ``i`` as a :class:`Player`, and the seat clockwise after it
        self.seats: tuple[Player, ...] = tuple(Player(i) for i in range(num_players))
        #: the seats clockwise from each seat (``order(p)`` with every seat active)
        self.seat_orders: tuple[tuple[Player, ...], ...] = tuple(
            tuple(self.seats[(i + k) % num_players] for k in range(num_players))
            for i in range(num_players))
        self.next_seat: tuple[Player, ...] = tuple(Player((i + 1) % num_players)
                                                   for i in range(num_players))
        self.options = options
        game = ir.get("game") or {}
        self.name: str = game.get("name", "ruleset")
        self.seat_names: tuple[str, ...] = tuple(game.get("seats") or ())
        self.globals: dict[str, Global] = {}
        self.attributes: set[str] = set(PSEUDO_ATTRIBUTES)
        #: the attributes dice show (``rolls``): set by rolls, not fixed
        self.rolled_attributes: set[str] = set()
        self.exprs = ExprCompiler(self)
        self.build = _BuildState(self)
        self.pieces: list[Piece] = []
        self.kind_pieces: dict[str, list[Piece]] = {}
        self.orders: dict[str, dict[object, int]] = {}
        self.domains: dict[str, list[object]] = {}
        self.zones: list[ZoneInfo] = []
        self.zone_kinds: list[str] = []
        self.zone_refs: list[ZoneRef] = []
        self.patterns: list[pat.Pattern] = []
        self.phase_ir = {p["name"]: p for p in ir.get("phases", [])}
        #: each variable's initial value: name → (``"player"``, ``"team"`` or ``None``:
        #: one value per seat, per team or one in all, the function giving a value)
        self.var_inits: dict[str, tuple[str | None, Fn]] = {}
        #: the variables not seen by everyone: name → ``"owner"`` or ``"nobody"``
        self.private_vars: dict[str, str] = {
            v["name"]: v["seen"] for v in ir.get("variables", [])
            if v.get("seen") in ("owner", "nobody")}
        self.score_fn: Fn | None = None
        #: the score as generated code of ``(state, player)`` (made by :meth:`prepare`)
        self.score_of: Callable[["Position", object], object] | None = None
        self.score_param = "p"
        #: the score reads a variable ``seen by owner`` (each player sees only their
        #: own score until the game ends) or ``seen by nobody`` (nobody sees one)
        self.secret_score: str | None = None
        self.heuristic_fn: Fn | None = None
        self.heuristic_param = "p"
        #: random decisions a bot's playout takes before it reads the heuristic
        #: (``heuristic(p) = ... after N random decisions``; 0 when not said)
        self.heuristic_after = 0
        #: the search bots' heuristic, when the ruleset declares a second one read
        #: ``after N random decisions`` (else ``None``: they read ``heuristic_fn``)
        self.search_heuristic_fn: Fn | None = None
        self.search_heuristic_param = "p"
        winner = ir.get("winner")
        self.winner_rule: str | None = winner["rule"] if winner else None
        #: the fixed partnerships, each a tuple of seats, or ``None`` without teams
        self.teams: list[tuple[int, ...]] | None = None
        #: each seat's team (its index in :attr:`teams`); empty without teams
        self.team_of: tuple[int, ...] = ()
        #: the most decisions a game of this instance takes, as the ruleset declares
        #: it (``at most N decisions``), or ``None``
        self.longest: int | None = None
        #: the range every final score is in (``scores from LO to HI``), or ``None``
        self.score_range: Range | None = None
        #: what the final scores add up to (``scores sum to N``), or ``None``
        self.score_sum: float | None = None
        self.choices: list[Choice] = []
        #: the names other than the variables that the flow may keep in a state's
        #: variables (``let``, ``for`` and parameter names, its own ``$`` names),
        #: in the order met; ``current`` and ``round`` are always there
        self.flow_names: tuple[str, ...] = ()
        self.code: list[Instr] = []
        self.code_nodes: list[Node | None] = []
        #: each generated block (its first instruction) → the instructions it runs
        #: the program with generated code (made by :meth:`prepare`), and one that
        #: runs on the closures (for a look before the code is generated)
        self._program: Program | None = None
        self._closures: Program | None = None
        #: the instruction closures, one per instruction (``code`` holds the
        #: generated block functions where blocks start)
        self.steps: list[Instr] = []
        #: the generated source of the flow's blocks ("" if not generated)
        self.flow_source = ""
        self._unprepared: FlowCompiler | None = None

        # Names the ruleset declares, known before they exist: a constant or an
        # attribute value naming one of them is an error, not a new symbol.
        self.later_names: dict[str, str] = {}
        for key, kind in (("components", "component"), ("zones", "zone"),
                          ("variables", "variable"), ("constants", "constant"),
                          ("phases", "phase")):
            for decl in ir.get(key, []):
                self.later_names.setdefault(decl["name"], kind)
        for opt in ir.get("options", []):
            if opt.get("type") == "choice":
                for v in opt.get("values", []):
                    if isinstance(v, dict) and v.get("k") == "name":
                        self.globals.setdefault(v["name"], Global("symbol", v["name"]))
        for kind, names in (("option", [o["name"] for o in ir.get("options", [])]),
                            ("seat", list(self.seat_names)),
                            ("pattern", [p["name"] for p in ir.get("patterns", [])]),
                            ("define", [d["name"] for d in ir.get("defines", [])])):
            for n in names:
                if n in BUILTIN_NAMES or n in LITERAL_WORDS:
                    node = next((d for key in ("options", "patterns", "defines")
                                 for d in ir.get(key, []) if d.get("name") == n), game)
                    raise SemanticError.at(f"{n!r} is a built-in name of the language; choose "
                                           f"another name for this {kind}", self.loc(node),
                                           code="builtin-name")
        for opt_name, value in options.items():
            self.globals[opt_name] = Global("option", value)
        for i, seat in enumerate(self.seat_names):
            self.globals.setdefault(seat, Global("const", Player(i)))
        for i, p in enumerate(ir.get("patterns", [])):
            self.globals.setdefault(p["name"], Global("pattern", PatternRef(p["name"], i), p))
        seen_phases: set[str] = set()
        for ph in ir.get("phases", []):
            if ph["name"] in seen_phases:
                raise SemanticError.at(f"phase {ph['name']!r} is declared twice", self.loc(ph),
                                       code="duplicate-name")
            seen_phases.add(ph["name"])
        self.defines_active: list[str] = []
        for d in ir.get("defines", []):
            if d["name"] in self.globals or d["name"] in BUILTIN_FUNCTIONS:
                raise SemanticError.at(f"{d['name']!r} is already a name; choose another name for "
                                       "this define", self.loc(d), code="duplicate-name")
            for param in d["params"]:
                if param in LITERAL_WORDS or param in BUILTIN_NAMES:
                    raise SemanticError.at(f"{param!r} is a word of the language; choose another "
                                           "name for this parameter", self.loc(d),
                                           code="builtin-name")
            if len(set(d["params"])) != len(d["params"]):
                raise SemanticError.at(f"define {d['name']!r} names a parameter twice",
                                       self.loc(d), code="duplicate-name")
            self.globals[d["name"]] = Global("define", d)
        try:
            self._constants()
            self._teams()
            self._longest()
            self._score_declarations()
            self._requirements()
            compile_components(self)
            compile_orders(self)
            self._zones()
            self._patterns()
            self._variables()
            self._score()
            self._heuristic()
            self._defines()
            self._flow()
            #: warnings of the type check (values that may fail in play)
            verdict = check_kinds(self) if kinds else None
            self.kind_warnings = [] if verdict is None else list(verdict.warnings)
            #: ``id()`` of each operator of the IR proven to take numbers (the
            #: generated code tests neither side: :mod:`rulepack.compiler.kinds`)
            self.proven_numbers: frozenset[int] = frozenset() if verdict is None \
                else verdict.numbers
        except RuleValueError as exc:
            raise SemanticError.at(str(exc), self._where_building, code="bad-value") from None

    # ------------------------------------------------------------------ helpers
    def scope(self, **kw: Unpack[ScopeChanges]) -> Scope:
        return Scope(self.globals, self.attributes, self.file, **kw)

    def static_scope(self) -> Scope:
        """For what is computed once per instance (zone shapes, pattern sizes...)."""
        return Scope(self.globals, self.attributes, self.file, static=True)

    def loc(self, node: Node | None) -> Location:
        """Where ``node`` stands in the ruleset (the file alone when it has no place)."""
        return self.scope().location(node)

    @property
    def _where_building(self) -> Location:
        return self.loc(self.evaluating)

    def evaluate(self, node: Node, scope: Scope | None = None) -> object:
        """The value of expression ``node``, computed once while the instance is
        built (by default where new words are symbols).

        :raises SemanticError: it cannot be computed (located at ``node``)."""
        self.evaluating = node
        f = self.exprs.compile(node, scope or self.scope(declares_symbols=True))
        try:
            return f(self.build)  # type: ignore[arg-type]
        except (TypeError, ValueError, IndexError, KeyError, AttributeError,
                ZeroDivisionError, OverflowError) as exc:
            # a value of the wrong kind where the expression does not check for it
            # (a list as the key of a map...): the ruleset's mistake, located
            raise SemanticError.at(f"this value cannot be computed: {failure_text(exc)}",
                                   self.loc(node), code="bad-value") from None

    def flatten(self, values: list[object]) -> list[object]:
        """``values`` with each list or tuple among them replaced by its elements."""
        out: list[object] = []
        for v in values:
            if isinstance(v, (list, tuple)):
                out.extend(v)
            else:
                out.append(v)
        return out

    def check_seat_word(self, node: object, what: str) -> None:
        """A seat name written where a new word (a symbol) is meant: the seat takes
        over the word, which is a located error saying so."""
        if isinstance(node, dict) and node.get("k") == "name" and node["name"] in self.seat_names:
            word = node["name"]
            raise SemanticError.at(
                f"{word!r} is a seat name here ({what} cannot be a player): the seat "
                f"{word} takes over the word {word!r} everywhere in the ruleset; rename the "
                f"seat or the value (a text, \"{word}\", is a value of its own)",
                self.loc(node), code="seat-shadows-word")

    # ------------------------------------------------------------------ constants
    def _constants(self) -> None:
        for c in self.ir.get("constants", []):
            self.declare(c["name"], c, "const")
            value = self.evaluate(c["expr"])
            self.globals[c["name"]] = Global("const", value, c)
            self.later_names.pop(c["name"], None)

    def _teams(self) -> None:
        """``teams (north, south), (east, west)``: every seat of this player count in
        exactly one team; the seats a team names beyond the count are left out."""
        exprs = (self.ir.get("game") or {}).get("teams")
        if not exprs:
            return
        teams: list[tuple[int, ...]] = []
        seen: set[int] = set()
        for expr in exprs:
            value = self.evaluate(expr, self.static_scope())
            members = list(value) if isinstance(value, (list, tuple)) else [value]
            team: list[int] = []
            for m in members:
                if not isinstance(m, int) or isinstance(m, bool) or m < 0:
                    raise SemanticError.at(f"a team lists players, not {describe(m)!r}",
                                           self.loc(expr), code="bad-team")
                if m in seen:
                    raise SemanticError.at(f"{describe(Player(m), self.seat_names)} is in two "
                                           "teams", self.loc(expr), code="bad-team")
                seen.add(m)
                if m < self.num_players:
                    team.append(int(m))
            if team:
                teams.append(tuple(team))
        missing = [p for p in range(self.num_players) if p not in seen]
        if missing:
            raise SemanticError.at(
                f"{describe(Player(missing[0]), self.seat_names)} is in no team (with "
                f"{self.num_players} players every seat needs a team)",
                self.loc((self.ir.get("game") or {})), code="bad-team")
        self.teams = teams
        seat_team = [0] * self.num_players
        for i, team_seats in enumerate(teams):
            for seat in team_seats:
                seat_team[seat] = i
        self.team_of = tuple(seat_team)

    def _longest(self) -> None:
        """``at most N decisions``: a whole number of at least 1, of the options and
        the player count."""
        expr = (self.ir.get("game") or {}).get("longest")
        if expr is None:
            return
        value = self.evaluate(expr, self.static_scope())
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SemanticError.at(f"'at most ... decisions' needs a whole number of at least 1, "
                                   f"not {describe(value)}", self.loc(expr),
                                   code="bad-length")
        self.longest = int(value)

    def _score_declarations(self) -> None:
        """``scores from LO to HI`` and ``scores sum to N``: numbers of the options
        and the player count (LO at most HI), for a ruleset with a score."""
        game = self.ir.get("game") or {}
        declared = game.get("scores")
        total = game.get("score_sum")
        if (declared is not None or total is not None) and self.ir.get("score") is None:
            raise SemanticError.at("'scores ...' needs a score declaration (score(p) = ...)",
                                   self.loc(declared if declared is not None else total),
                                   code="no-score")

        def number(expr: Node, what: str) -> float:
            value = self.evaluate(expr, self.static_scope())
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise SemanticError.at(f"'{what}' needs a number, not {describe(value)}",
                                       self.loc(expr), code="bad-scores")
            return value

        if declared is not None:
            low = number(declared["from"], "scores from ... to ...")
            high = number(declared["to"], "scores from ... to ...")
            if low > high:
                raise SemanticError.at(f"scores from {describe(low)} to {describe(high)}: the "
                                       "lowest score comes first", self.loc(declared),
                                       code="bad-scores")
            self.score_range = (low, high)
        if total is not None:
            self.score_sum = number(total, "scores sum to ...")

    def _requirements(self) -> None:
        """``require COND "message"``: a player count or options the rules do not cover."""
        from rulepack.errors import OptionError
        for r in self.ir.get("requirements", []):
            if not self.evaluate(r["cond"], self.static_scope()):
                raise OptionError.at(r["message"], Location(self.name), code="requirement")

    def declare(self, name: str, node: Node, kind: str) -> None:
        """Check that ``name`` may be declared as a ``kind`` (a built-in name or a
        name declared before may not). :raises SemanticError: located."""
        if name in BUILTIN_NAMES or name in LITERAL_WORDS:
            raise SemanticError.at(f"{name!r} is a built-in name of the language; choose another "
                                   "name", self.loc(node), code="builtin-name")
        g = self.globals.get(name)
        if g is not None and g.kind not in ("symbol",) \
                and not (g.kind == "pattern" and kind == "pattern" and g.node is node):
            # point at the declaration that has a place in this file (a library's has none)
            where = node if isinstance(node, dict) and node.get("at") else g.node
            other = g.kind.replace("_", " ").replace("player var", "variable").replace(
                "zone family", "zone")
            if other == kind.replace("var", "variable"):
                message = f"{other} {name!r} is declared twice"
            else:
                message = f"{name!r} is declared twice (already a {other})"
            raise SemanticError.at(message, self.loc(where), code="duplicate-name")

    # ------------------------------------------------------------------ zones
    def _add_zone(self, name: str, label: str, kind: str, key: object = None,
                  owner: int | None = None, seen_by: str = "nobody", rows: int = 0,
                  cols: int = 0, cells: list[tuple[int, int]] | None = None,
                  notation: tuple[int, int] | None = None, stacked: bool = False) -> ZoneRef:
        info = ZoneInfo(len(self.zones), name, label, kind, key, owner, seen_by, rows, cols,
                        cells, notation, stacked)
        self.zones.append(info)
        self.zone_kinds.append(info.kind)
        ref = ZoneRef(info.index, info.name, info.label)
        self.zone_refs.append(ref)
        return ref

    def _zones(self) -> None:
        self._add_zone("box", "box", "pile")
        self.globals["box"] = Global("zone", self.zone_refs[0])
        for z in self.ir.get("zones", []):
            name = z["name"]
            self.declare(name, z, "zone")
            kind = z["kind"]
            per = z.get("per")
            if per is not None and per != "player" and per not in self.domains:
                raise SemanticError.at(f"zone {name!r} is per {per!r}, which is not an attribute "
                                       "of any component (write 'per player' for one zone per "
                                       "player)", self.loc(z), code="unknown-attribute")
            seen_by = "nobody"
            if z.get("seen_by") is not None:
                seen = self.evaluate(z["seen_by"], self.static_scope())
                if not isinstance(seen, str) or seen not in VISIBILITIES:
                    raise SemanticError.at(f"'seen by' must be owner, nobody or everyone, not "
                                           f"{describe(seen, self.seat_names)}",
                                           self.loc(z["seen_by"]), code="bad-visibility")
                seen_by = seen
                if seen_by == "owner" and z.get("per") != "player":
                    raise SemanticError.at(f"zone {name!r} is seen by its owner, but only a zone "
                                           "'per player' has an owner", self.loc(z),
                                           code="bad-visibility")
            rows = cols = 0
            cells: list[tuple[int, int]] = []
            if kind == "grid":
                rows_given = self.evaluate(z["rows"], self.static_scope())
                cols_given = self.evaluate(z["cols"], self.static_scope())
                if not (isinstance(rows_given, int) and 1 <= rows_given <= 100
                        and isinstance(cols_given, int) and 1 <= cols_given <= 100):
                    raise SemanticError.at("a grid needs 1 to 100 rows and columns",
                                           self.loc(z), code="bad-grid")
                rows, cols = rows_given, cols_given
                holes: set[tuple[int, int]] = set()
                if z.get("holes") is not None:
                    for h in self._flatten_cells(self.evaluate(z["holes"], self.static_scope())):
                        holes.add(h)
                cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in holes]
            notation = self._notation(z)
            stacked = bool(z.get("stacked"))
            if stacked and kind != "grid":
                raise SemanticError.at(f"zone {name!r} is a {kind}, which holds its pieces in "
                                       "one order already: only a grid is 'stacked' (a stack "
                                       "in each cell)", self.loc(z), code="bad-stacked")
            per = z.get("per")
            if per is None:
                ref = self._add_zone(name, name, kind, None, None, seen_by, rows, cols, cells,
                                     notation, stacked)
                self.globals[name] = Global("zone", ref, z)
                continue
            if per == "player":
                keys: list[object] = [Player(i) for i in range(self.num_players)]
            else:
                if per not in self.domains:
                    raise SemanticError.at(f"zone {name!r} is per {per!r}, which is not an "
                                           "attribute of any component", self.loc(z),
                                           code="unknown-attribute")
                keys = sorted(self.domains[per], key=lambda v: self.orders[per].get(v, 0))
            family: dict[object, ZoneRef] | list[ZoneRef]
            family = [] if per == "player" else {}
            for key in keys:
                label = f"{name}[{describe(key, self.seat_names)}]"
                owner = int(key) if per == "player" and isinstance(key, Player) else None
                ref = self._add_zone(name, label, kind, key, owner, seen_by, rows, cols, cells,
                                     notation, stacked)
                if isinstance(family, list):
                    family.append(ref)
                else:
                    family[key] = ref
            self.globals[name] = Global("zone_family", {"per": per, "zones": family}, z)

    def _notation(self, z: Node) -> tuple[int, int] | None:
        """A grid's ``notation ppn [from (X, Y)]``: the PPN coordinates of its
        bottom-left cell (``(1, 1)`` unless given), or ``None`` without one.

        :raises SemanticError: a notation other than ``ppn``; on a zone that is not
            a grid."""
        notation = z.get("notation")
        if notation is None:
            return None
        if z["kind"] != "grid":
            raise SemanticError.at(f"zone {z['name']!r} is a {z['kind']}: only a grid names its "
                                   "cells (notation ppn)", self.loc(z), code="bad-notation")
        if notation.get("kind") != "ppn":
            raise SemanticError.at(f"a grid's notation is ppn (PPN's algebraic names: a1 at the "
                                   f"bottom left), not {notation.get('kind')!r}", self.loc(z),
                                   code="bad-notation")
        origin = notation.get("origin") or [1, 1]
        return int(origin[0]), int(origin[1])

    def _flatten_cells(self, value: object) -> list[tuple[int, int]]:
        if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
            value = [value]
        if value is not None and not isinstance(value, list):
            raise RuleValueError(f"a grid's holes are a list of (row, column), not {show(value)}")
        out = []
        for v in value or []:
            if not (isinstance(v, (tuple, list)) and len(v) == 2):
                raise RuleValueError(f"a grid hole is written (row, column), not {show(v)}")
            out.append((int(v[0]) - 1, int(v[1]) - 1))
        return out

    # ------------------------------------------------------------------ patterns
    def _patterns(self) -> None:
        decls = self.ir.get("patterns", [])
        names: set[str] = set()
        for i, p in enumerate(decls):
            self.declare(p["name"], p, "pattern")
            if p["name"] in names:
                raise SemanticError.at(f"pattern {p['name']!r} is declared twice", self.loc(p),
                                       code="duplicate-name")
            names.add(p["name"])
            self.globals[p["name"]] = Global("pattern", PatternRef(p["name"], i), p)
        compiled: dict[str, pat.Pattern] = {}
        for p in decls:
            if p.get("all") is not None:
                compiled[p["name"]] = self._pattern(p)
        for p in decls:
            if p.get("any") is not None:
                alts = []
                for n in p["any"]:
                    if n not in compiled:
                        raise SemanticError.at(f"unknown pattern {n!r} (a union names patterns "
                                               "made of constraints)", self.loc(p),
                                               code="unknown-pattern")
                    alts.append(compiled[n])
                compiled[p["name"]] = pat.Pattern(p["name"], alternatives=alts)
        self.patterns = [compiled[p["name"]] for p in decls]

    def _pattern(self, p: Node) -> pat.Pattern:
        size = (1, 1_000_000)
        same: list[str] = []
        distinct: list[tuple[str, int]] = []
        consecutive: list[tuple[str, dict[object, int]]] = []
        covers: list[tuple[str, list[object]]] = []
        each: list[pat.Predicate] = []
        wild: pat.Predicate | None = None
        for c in p["all"]:
            kind, arg = c["c"], c["arg"]
            if kind == "size":
                value = self.evaluate(arg, self.static_scope())
                if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
                    size = (min(value), max(value))
                elif isinstance(value, int) and not isinstance(value, bool):
                    size = (value, value)
                else:
                    raise SemanticError.at(f"size must be a number or a range, not {value!r}",
                                           self.loc(c), code="bad-pattern")
                continue
            if kind in ("each", "wild"):
                cond = self.exprs.compile(arg, self.scope(candidate="$it", locals=["$it"],
                                                          deterministic=True))
                test: pat.Predicate
                if self._fixed(arg):
                    # reads only fixed attributes and constants: one answer per piece
                    answers: dict[int, bool] = {}

                    def test(st: "Position", piece: Piece, cond: Fn = cond,
                             answers: dict[int, bool] = answers) -> bool:
                        hit = answers.get(piece.id)
                        if hit is None:
                            hit = _test_piece(st, piece, cond)
                            answers[piece.id] = hit
                        return hit
                    test.fixed = True  # type: ignore[attr-defined]
                else:
                    def test(st: "Position", piece: Piece, cond: Fn = cond) -> bool:
                        return _test_piece(st, piece, cond)
                if kind == "each":
                    each.append(test)
                else:
                    if wild is not None:
                        raise SemanticError.at("a pattern has one 'wild' condition",
                                               self.loc(c), code="bad-pattern")
                    wild = test
                continue
            if arg not in self.domains:
                raise SemanticError.at(f"pattern {p['name']!r} uses attribute {arg!r}, which no "
                                       "component has", self.loc(c), code="unknown-attribute")
            if arg in self.rolled_attributes and not any(arg in x.attrs for x in self.pieces):
                raise SemanticError.at(f"pattern {p['name']!r}: '{kind} {arg}' reads a fixed "
                                       f"attribute, and {arg!r} is the face a die shows, which "
                                       "rolls change (test it with 'each')", self.loc(c),
                                       code="rolled-in-pattern")
            if kind == "same":
                same.append(arg)
            elif kind == "distinct":
                distinct.append((arg, len(self.domains[arg])))
            elif kind == "consecutive":
                consecutive.append((arg, self.orders[arg]))
            elif kind == "covers":
                covers.append((arg, list(self.domains[arg])))
            else:
                raise SemanticError.at(f"unknown constraint {kind!r}", self.loc(c), code="bad-ir")
        return pat.Pattern(p["name"], size, same, distinct, consecutive, covers, each, wild)

    def piece_test(self, cond: Node) -> Callable[[Piece], bool] | None:
        """A ``where`` condition as a test of one candidate piece, when it reads
        only fixed attributes, constants, options and symbols (its answer for a
        piece never changes); ``None`` for any other condition. A piece the
        condition cannot be computed for passes the test (it may be kept)."""
        if not self._fixed(cond):
            return None
        try:      # (static: no generated code, so the flow's generated module is as it was)
            fn = self.exprs.compile(cond, self.scope(candidate="$it", locals=["$it"],
                                                     deterministic=True, static=True))
        except RulepackError:
            return None
        build = self.build

        def test(piece: Piece) -> bool:
            try:
                return _test_piece(build, piece, fn)  # type: ignore[arg-type]
            except (RulepackError, RuleValueError, TypeError, ValueError, KeyError,
                    IndexError, AttributeError):
                return True
        return test

    def _fixed(self, node: object) -> bool:
        """True if an expression reads only pieces' fixed attributes, constants,
        options and symbols (so its value for a piece never changes)."""
        if isinstance(node, list):
            return all(self._fixed(x) for x in node)
        if not isinstance(node, dict):
            return True
        k = node.get("k")
        if k == "name":
            name = node["name"]
            if name in self.attributes:
                return (name not in PSEUDO_ATTRIBUTES or name in ("kind", "name")) and \
                    name not in self.rolled_attributes
            g = self.globals.get(name)
            return g is not None and g.kind in ("const", "option", "symbol", "pattern")
        if k == "call" and node.get("fn") in ("random", "score", "at", "knows", "cells",
                                               "empty", "is_active", "order", "after"):
            return False
        if k in ("top",):
            return False
        return all(self._fixed(v) for key, v in node.items() if key != "at")

    # ------------------------------------------------------------------ variables
    def _variables(self) -> None:
        for v in self.ir.get("variables", []):
            name = v["name"]
            self.declare(name, v, "var")
            if v.get("per_team") and self.teams is None:
                raise SemanticError.at(f"variable {name!r} is one value per team, but this game "
                                       "has no teams (declare them in the game: teams (north, "
                                       "south), (east, west))", self.loc(v), code="no-teams")
            kind = "player_var" if v.get("per_player") else "team_var" if v.get("per_team") \
                else "var"
            self.globals[name] = Global(kind, None, v)
        names = [v["name"] for v in self.ir.get("variables", [])]
        for i, v in enumerate(self.ir.get("variables", [])):
            later = set(names[i:])
            bad = names_in(v["expr"]) & later
            if bad:
                raise SemanticError.at(f"the initial value of {v['name']!r} uses "
                                       f"{sorted(bad)[0]!r}, which is not set yet (a variable "
                                       "can use only the variables declared before it)",
                                       self.loc(v), code="used-too-early")
            fn = self.exprs.compile(v["expr"], self.scope())
            per = "player" if v.get("per_player") else "team" if v.get("per_team") else None
            self.var_inits[v["name"]] = (per, fn)

    def _score(self) -> None:
        s = self.ir.get("score")
        if s is None:
            if self.winner_rule is not None:
                raise SemanticError.at(f"'winner {self.winner_rule} score' needs a score "
                                       "declaration (score(p) = ...)",
                                       self.loc(self.ir.get("winner")), code="no-score")
            return
        if "score" in calls_in(s["expr"]):
            raise SemanticError.at("the score uses score() itself; write it from the zones and "
                                   "variables", self.loc(s), code="recursive-score")
        self.score_param = s["player"]
        if s["player"] in self.attributes or s["player"] in self.globals or \
                s["player"] in BUILTIN_NAMES or s["player"] in LITERAL_WORDS:
            raise SemanticError.at(f"{s['player']!r} is already a name in this ruleset; choose "
                                   "another name for the player", self.loc(s), code="shadowing")
        self._score_scope = self.scope(locals=[s["player"]], deterministic=True)
        self.score_fn = self.exprs.compile(s["expr"], self._score_scope)
        read = self._names_read(s["expr"])
        secret = [self.private_vars[n] for n in read if n in self.private_vars]
        if secret:
            self.secret_score = "nobody" if "nobody" in secret else "owner"

    def _names_read(self, expr: object) -> set[str]:
        """The names an expression reads, through the defines it calls."""
        defines = {d["name"]: d for d in self.ir.get("defines", [])}
        found = set(names_in(expr))
        todo = [c for c in calls_in(expr) if c in defines]
        done: set[str] = set()
        while todo:
            name = todo.pop()
            if name in done:
                continue
            done.add(name)
            found |= names_in(defines[name]["expr"])
            todo.extend(c for c in calls_in(defines[name]["expr"]) if c in defines)
        return found

    def _heuristic(self) -> None:
        h = self.ir.get("heuristic")
        if h is None:
            return
        self.heuristic_param, self.heuristic_fn = self._compile_heuristic(h)
        self.heuristic_after = int(h.get("after", 0))
        searched = h.get("search")
        if searched is not None:
            self.search_heuristic_param, self.search_heuristic_fn = \
                self._compile_heuristic(searched)
            self.heuristic_after = int(searched.get("after", 0))

    def _compile_heuristic(self, h: Node) -> tuple[str, Fn]:
        """(its player parameter, its compiled expression) of one ``heuristic``.

        :raises SemanticError: the parameter is already a name (code ``shadowing``)."""
        player = h["player"]
        if player in self.attributes or player in self.globals or \
                player in BUILTIN_NAMES or player in LITERAL_WORDS:
            raise SemanticError.at(f"{player!r} is already a name in this ruleset; choose "
                                   "another name for the player", self.loc(h), code="shadowing")
        return player, self.exprs.compile(h["expr"], self.scope(locals=[player],
                                                                deterministic=True))

    def _endless_loops(self) -> list[Diagnostic]:
        """A loop that can never stop, in a ruleset that never says ``end game``:
        the game could never end (a flow with no end)."""
        everything = [self.ir.get("setup", []), self.ir.get("play", []),
                      [p["body"] for p in self.ir.get("phases", [])]]
        if any(n.get("k") == "end" and n.get("what") == "game" for n in nodes(everything)):
            return []
        out = []
        for n in nodes(everything):
            k = n.get("k")
            always = k == "turns" and n.get("until") is None
            cond = n.get("cond") if k == "while" else n.get("until") if k == "repeat" else None
            if k in ("while", "repeat") and isinstance(cond, dict) and cond.get("k") == "lit":
                always = bool(cond["value"]) if k == "while" else not cond["value"]
            if always and any(e.get("k") == "end" and e.get("what") == "round"
                              for e in nodes(n.get("body", []))):
                always = False  # left by 'end round'
            if always:
                out.extend(SemanticError.at(
                    f"this {k} loop never stops and the ruleset never says 'end game', so the "
                    "game could never end", self.loc(n), code="endless-flow",
                    hint="add 'until CONDITION' or an 'end game' where the game is won").diagnostics)
        return out

    def _defines(self) -> None:
        """Compile every define once on its own, so a mistake in one that is never
        called is still reported."""
        for d in self.ir.get("defines", []):
            private = [f"${d['name']}:{p}" for p in d["params"]]
            body = rename(d["expr"], dict(zip(d["params"], private)))
            self.defines_active.append(d["name"])
            try:
                self.exprs.compile(body, self.scope(locals=private))
            finally:
                self.defines_active.pop()

    # ------------------------------------------------------------------ flow
    def prepare(self) -> None:
        """Generate and compile the instance's Python code (expressions, then the
        flow's blocks and legal actions) and make its :class:`Program`, once,
        before its first game: until then it runs on the closures, so loading
        and checking a ruleset costs no code generation."""
        flow = self._unprepared
        if flow is None:
            return
        self._unprepared = None
        self.exprs.source.prepare()
        score = self.ir.get("score")
        if score is not None and self.score_fn is not None:
            # score(p) with p an argument, not a variable set and put back
            self.score_of = self.exprs.source.of_one("score_of", score["expr"],
                                                     self._score_scope, score["player"])
        # the flow an instruction at a time, generated (compiled when first run);
        # where every game starts is found before the blocks are made: a game that
        # starts inside a block (at the instruction that first draws) enters a
        # block of its own there
        flow.gen.drawing = self.drawing_calls
        steps = flow.generate_steps(self.steps, self.code_nodes)
        first = build_program(self, steps, None, steps)
        # the seed-free start is worked out once, here, on the reference backend
        # (as validate's dry run): the steps are compiled only if a game needs them
        start = find_program_start(replace(first, code=tuple(self.steps),
                                           steps=tuple(self.steps)))
        self.code = flow.generate(steps, self.code_nodes,
                                  frozenset([start[1]] if start and start[1] >= 0 else []))
        self.flow_source = flow.gen.module
        blocks = getattr(flow.gen, "blocks", None)
        self._program = with_start(with_blocks(self, first, self.code, blocks), start,
                                   self.code)
        _MADE_FROM[self._program] = weakref.ref(self)

    def program(self, generate: bool = True) -> Program:
        """What the engine runs a game of this instance from.

        :param generate: ``False``: if its code has not been generated yet, a
            program that runs on the compiler's closures (for a one-off look, such
            as ``validate``'s dry run), without generating it.
        """
        if generate:
            self.prepare()
        if self._program is not None:
            return self._program
        if self._closures is None:
            self._closures = build_program(self, self.steps, None, self.steps)
            _MADE_FROM[self._closures] = weakref.ref(self)
        return self._closures

    @cached_property
    def drawing_calls(self) -> frozenset[str]:
        """``random`` and the defines that call it (see :func:`drawn.draws`)."""
        return drawing_calls(self.ir)

    def _flow(self) -> None:
        flow = FlowCompiler(self, self.exprs)
        scope = self.scope()
        flow.block(self.ir.get("setup", []), scope)
        flow.block(self.ir.get("play", []), scope)

        # the play ran out: the last statement of play (its loop's end) ended the game
        last = (self.ir.get("play") or self.ir.get("setup") or [None])[-1]
        at = list(last["at"]) if isinstance(last, dict) and last.get("at") else None

        def game_over(pc: int) -> Instr:
            def end(st: "Position") -> int:
                effects.end_game(st, None, at)
                return HALT
            return end
        flow.emit(game_over, None,
                  lambda pc, g: ([f"_end_game(st, None, {at!r})", f"return {HALT}"], True))
        for phase in self.ir.get("phases", []):
            if phase["name"] not in flow.phases_used:
                # compile it anyway (never reached) so mistakes inside are reported
                flow.block(phase["body"], scope)
                flow.errors.extend(SemanticError.at(
                    f"phase {phase['name']!r} is described but never run (no 'do "
                    f"{phase['name']}' reaches it)", self.loc(phase),
                    code="unreachable-phase").diagnostics)
        flow.errors.extend(self._endless_loops())
        if flow.errors:
            raise SemanticError(sorted(flow.errors[:20], key=lambda d: (
                d.location.line or 0, d.location.column or 0)))
        self.steps, self.code_nodes = flow.link()
        self.code = self.steps
        self._unprepared = flow
        self.choices = flow.choices
        self.phases_used = flow.phases_used
        self.flow_names = tuple(n for n in dict.fromkeys(flow.names)
                                if n not in self.var_inits and n not in ("current", "round"))

    def action_space(self) -> "ActionSpace":
        """The instance's numbered actions (built when first asked for).

        :raises SemanticError: some action's parameter has no finite domain
            (code ``unbounded-actions``).
        """
        space = self.__dict__.get("_action_space")
        if space is None:
            space = self.__dict__["_action_space"] = ActionSpace.build(self)
        return space

    def score_bounds(self) -> Range | None:
        """The lowest and highest final score: declared (``scores from LO to
        HI``) or derived from the score (:func:`rulepack.compiler.bounds.score_bounds`);
        ``None`` without a score or a range (made once)."""
        if "_score_bounds" not in self.__dict__:
            self.__dict__["_score_bounds"] = score_bounds(self)
        bounds: Range | None = self.__dict__["_score_bounds"]
        return bounds

    def max_chance_outcomes(self) -> int:
        """The most outcomes any chance node of the instance can have (built when
        first asked for). :raises SemanticError: a ``random`` with no bound on
        its outcomes (code ``unbounded-chance``)."""
        bound = self.__dict__.get("_max_chance_outcomes")
        if bound is None:
            bound = self.__dict__["_max_chance_outcomes"] = max_chance_outcomes(self)
        return int(bound)


def _test_piece(st: "Position", piece: Piece, cond: Fn) -> bool:
    v = st.vars
    had = "$it" in v
    saved = v.get("$it")
    v["$it"] = piece
    try:
        return bool(cond(st))
    finally:
        if had:
            v["$it"] = saved
        else:
            del v["$it"]
