"""Statement IR → a flat program of instruction closures.

The flow of a game (setup, phases, rounds, turns, decisions) compiles to a list
of instructions ``ins(state) -> next_pc``. Loops and conditionals become jumps;
an action's effects are placed right after its ``choose`` instruction and jump
back to the end of the ``choose`` when done. The whole position of the flow is
therefore one integer (the program counter) plus the state's variables, which
makes states cheap to clone and to serialise.

Special return values: :data:`~rulepack.engine.program.SUSPEND` (a decision is pending) and
:data:`~rulepack.engine.program.HALT` (the game is over); a ``choose`` is compiled by
:mod:`rulepack.compiler.choices`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, cast

from rulepack.errors import Diagnostic, SemanticError
from rulepack.ir import Node
from rulepack.compiler.choices import compile_choose, quoted
from rulepack.compiler.closures import Binder, Fn
from rulepack.compiler.expressions import BUILTIN_NAMES, LITERAL_WORDS, ExprCompiler, _bind_names, make_binder
from rulepack.compiler.flowgen import FlowGen, Fragment, Line, Lines, jump
from rulepack.engine import dice, effects, ops, queries
from rulepack.engine.actions import Narration
from rulepack.engine import lookahead
from rulepack.engine.drawn import draws
from rulepack.engine.program import HALT, Choice, Instr, Label, Maximize
from rulepack.engine.runtime import RuleValueError, items, show
from rulepack.engine.templates import NOT_A_FORMAT, TemplateError, fields as template_fields
from rulepack.compiler.scope import Scope
from rulepack.engine.values import Cell, Player, ZoneRef

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance
    from rulepack.engine.position import Position

#: Most errors one compilation reports.
MAX_ERRORS = 20


@dataclass
class _Loop:
    kind: str            # "turns", "rounds" or "loop"
    end_of_iteration: Label
    exit: Label
    restore: tuple[str, str] | None = None   # (variable, where its outer value is kept)


class FlowCompiler:
    """Compiles the statements of one game instance into its program."""

    def __init__(self, inst: "Instance", exprs: ExprCompiler) -> None:
        self.inst = inst
        self.exprs = exprs
        self.factories: list[tuple[Callable[[int], Instr], Node | None]] = []
        #: per instruction, its Python statements for the generated blocks (or None)
        self.fragments: list[Fragment | None] = []
        #: instructions entered by a jump or a decision (where blocks start)
        self.entries: set[int] = set()
        #: the generator of the flow's blocks (its module: ``rulepack compile``)
        self.gen = FlowGen(exprs.source, inst.file, inst.num_players)
        self.labels_at: dict[int, list[Label]] = {}
        self.choices: list[Choice] = []
        self.loops: list[_Loop] = []
        #: the ``maximize`` block being compiled, and how many loops were open at its start
        self.maximizing: tuple[Maximize, int] | None = None
        self.maximizes: list[Maximize] = []
        self.phase_stack: list[str] = []
        self.counter = 0
        self.phases_used: set[str] = set()
        self.errors: list[Diagnostic] = []
        #: every name the flow may keep in a state's variables, in the order met
        #: (``let``, ``for`` and parameter names, and the flow's own ``$`` names)
        self.names: list[str] = []

    # ------------------------------------------------------------------ emitting
    def place(self, label: Label) -> None:
        label.pc = len(self.factories)
        self.entries.add(label.pc)

    def emit(self, factory: Callable[[int], Instr], node: Node | None,
             src: Fragment | None = None) -> None:
        """Add an instruction: its closure (``factory(pc)``) and, if given, its
        fragment of generated source (see :mod:`rulepack.compiler.flowgen`)."""
        self.factories.append((factory, node))
        self.fragments.append(src)

    def jump(self, target: Label, node: Node | None = None) -> None:
        self.emit(lambda pc: (lambda st: target.pc), node,
                  lambda pc, g: ([jump(target.pc)], True))

    def link(self) -> tuple[list[Instr], list[Node | None]]:
        """Resolve labels and build the program: one closure per instruction, and
        the source node of each."""
        steps = [factory(pc) for pc, (factory, _) in enumerate(self.factories)]
        nodes = [node for _, node in self.factories]
        return steps, nodes

    def generate_steps(self, closures: list[Instr], nodes: list[Node | None]) -> list[Instr]:
        """One generated function per instruction (see ``FlowGen.steps``); the
        expressions' generated code must be ready (``SourceGen.prepare``)."""
        return self.gen.steps(closures, self.fragments, nodes)

    def generate(self, steps: list[Instr], nodes: list[Node | None],
                 more: frozenset[int] = frozenset()) -> list[Instr]:
        """The program with the generated blocks where they start (``steps``
        elsewhere), and each decision's generated legal actions.

        :param more: instructions that must start a block too (where games start).
        """
        entries = self.entries | {c.pc for c in self.choices} | more
        return self.gen.build(steps, self.fragments, nodes, entries, self.choices)

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        name = f"${prefix}{self.counter}"
        self.names.append(name)
        return name

    def error(self, message: str, node: Node | None, scope: Scope,
              code: str = "semantic") -> SemanticError:
        return SemanticError.at(message, scope.location(node), code=code)

    # ------------------------------------------------------------------ statements
    def block(self, stmts: list[Node], scope: Scope) -> Scope:
        """Compile a block; returns the scope after it (``let`` names added).

        A statement that cannot be compiled is recorded in :attr:`errors` and the
        block goes on, so one pass reports every mistake (a failed ``let`` still
        introduces its names, so they do not cause more errors below)."""
        for stmt in stmts:
            try:
                scope = self.statement(stmt, scope)
            except SemanticError as exc:
                if len(self.errors) >= MAX_ERRORS:
                    raise SemanticError(self.errors) from None
                self.errors.extend(exc.diagnostics)
                if stmt.get("k") == "let":
                    scope = scope.with_locals(*_bind_names(stmt["bind"]))
        return scope

    def statement(self, node: Node, scope: Scope) -> Scope:
        kind = node.get("k")
        method = getattr(self, f"_s_{kind}", None)
        if method is None:
            raise self.error(f"unknown statement kind {kind!r}", node, scope, code="bad-ir")
        result = method(node, scope)
        return result if isinstance(result, Scope) else scope

    def _s_move(self, node: Node, scope: Scope) -> None:
        what = self.exprs.compile(node["what"], scope)
        to_value = self.exprs.compile(node["to"], scope)
        to = self._destination(node["to"], scope, to_value)
        face = node.get("face")
        face_up = None if face is None else face == "up"
        bottom = bool(node.get("bottom"))

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def move(st: "Position") -> int:
                pieces = list(items(st, what(st)))
                dest = to(st)
                effects.move(st, pieces, dest, face_up, bottom)
                return nxt
            return move

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            zone = g.pieces(what)
            if zone is not None:
                # a zone's pieces, as a list of their own (the zone changes as they move)
                lines = [f"W = list({zone})"]
                move = [f"_move(st, W, D, {face_up!r}, {bottom!r})"]
            elif g.fresh_list(what):
                lines = [f"W = {g.expr(what)}"]     # a new list: moved as it is
                move = [f"_move(st, W, D, {face_up!r}, {bottom!r})"]
            else:
                lines = [f"W = {g.expr(what)}"]
                move = ["if type(W) is Piece:",
                        f"    _move_one(st, W, D, {face_up!r}, {bottom!r})",
                        "else:",
                        f"    _move(st, list(items(st, W)), D, {face_up!r}, {bottom!r})"]
            return lines + [f"D = {g.expr(to_value)}",
                            "if type(D) is not ZoneRef and type(D) is not Cell:",
                            f"    {g.const(to)}(st)    # raises: not a zone or a cell",
                            *move], False
        self.emit(factory, node, src)

    def _destination(self, node: Node, scope: Scope, f: Fn | None = None
                     ) -> Callable[["Position"], ZoneRef | Cell]:
        if f is None:
            f = self.exprs.compile(node, scope)

        def dest(st: "Position") -> ZoneRef | Cell:
            d = f(st)
            if type(d) is ZoneRef or type(d) is Cell:
                return d
            raise RuleValueError(f"cannot move pieces to {show(d)}: not a zone or a cell")
        return dest

    def _s_flip(self, node: Node, scope: Scope) -> None:
        what = self.exprs.compile(node["what"], scope)
        face = node.get("face")
        up = None if face is None else face == "up"

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def flip(st: "Position") -> int:
                effects.flip(st, items(st, what(st)), up)
                return nxt
            return flip

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            zone = g.pieces(what)
            if zone is not None:                # a zone's pieces, read directly
                return [f"_flip(st, {zone}, {up!r})"], False
            return [f"W = {g.expr(what)}",
                    "if type(W) is Piece:",
                    f"    _flip_one(st, W, {up!r})",
                    "else:",
                    f"    _flip(st, items(st, W), {up!r})"], False
        self.emit(factory, node, src)

    def _s_rotate(self, node: Node, scope: Scope) -> None:
        what = self.exprs.compile(node["what"], scope)
        degrees = self.exprs.compile(node["degrees"], scope)
        clockwise = bool(node.get("clockwise"))

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def rotate(st: "Position") -> int:
                effects.rotate(st, what(st), degrees(st), clockwise)
                return nxt
            return rotate

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"{g.const(effects.rotate)}(st, {g.expr(what)}, {g.expr(degrees)}, "
                    f"{clockwise!r})"], False
        self.emit(factory, node, src)

    def _s_shuffle(self, node: Node, scope: Scope) -> None:
        zone = self.exprs.compile(node["zone"], scope)

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def shuffle(st: "Position") -> int:
                effects.shuffle(st, zone(st))
                return nxt
            return shuffle

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"_shuffle(st, {g.expr(zone)})"], False
        self.emit(factory, node, src)

    def _s_roll(self, node: Node, scope: Scope) -> None:
        what = self.exprs.compile(node["what"], scope)

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def roll(st: "Position") -> int:
                dice.roll(st, list(items(st, what(st))))
                return nxt
            return roll

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"_roll(st, list({g.items(what)}))"], False
        self.emit(factory, node, src)

    def _s_let(self, node: Node, scope: Scope) -> Scope:
        value = self.exprs.compile(node["expr"], scope)
        names = _bind_names(node["bind"])
        for n in names:
            self.check_new_local(n, node, scope)
        self.names.extend(names)
        binder = make_binder(node["bind"])

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def let(st: "Position") -> int:
                binder(st, value(st))
                return nxt
            return let
        self.emit(factory, node, _bind_fragment(node["bind"], binder, value))
        return scope.with_locals(*names)

    def check_new_local(self, name: str, node: Node, scope: Scope) -> None:
        if name in BUILTIN_NAMES or name in LITERAL_WORDS:
            raise self.error(f"{name!r} is a built-in name; choose another name for this "
                             "variable", node, scope, code="shadowing")
        if name in scope.locals:
            raise self.error(f"{name!r} is already in use here (an enclosing loop, parameter or "
                             "let); choose another name, or change it with 'set'", node, scope,
                             code="shadowing")
        if name in scope.attributes:
            raise self.error(f"{name!r} is an attribute of pieces; choose another name for this "
                             "variable", node, scope, code="shadowing")
        g = scope.globals.get(name)
        if g is not None and g.kind not in ("symbol",):
            raise self.error(f"{name!r} is already declared as a {g.kind.replace('_', ' ')}; "
                             "choose another name", node, scope, code="shadowing")

    def _s_set(self, node: Node, scope: Scope) -> None:
        name = node["name"]
        g = scope.globals.get(name)
        if name in scope.locals:
            if node.get("index") is not None:
                raise self.error(f"{name!r} is a local name; only per-player and per-team "
                                 "variables take [...]", node, scope)
        elif g is None or g.kind not in ("var", "player_var", "team_var"):
            raise self.error(f"cannot set {name!r}: it is not a declared variable "
                             "(declare it with 'var' or introduce it with 'let')", node, scope,
                             code="unknown-variable")
        value = self.exprs.compile(node["expr"], scope)
        if node.get("index") is None:
            def factory(pc: int) -> Instr:
                nxt = pc + 1

                def assign(st: "Position") -> int:
                    st.vars[name] = value(st)
                    return nxt
                return assign

            def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
                return [f"V[{name!r}] = {g.expr(value)}"], False
        else:
            if g is None or g.kind not in ("player_var", "team_var"):
                raise self.error(f"{name!r} is not a per-player variable (nor a per-team one)",
                                 node, scope)
            index = self.exprs.compile(node["index"], scope)
            per_team = g.kind == "team_var"
            n = len(self.inst.teams or ()) if per_team else self.inst.num_players

            def check(i: object) -> int:
                if per_team:
                    return ops.team_entry(i, n, name)
                if not isinstance(i, int) or not 0 <= i < n:
                    raise RuleValueError(f"{name}[{show(i)}]: not a player")
                return i

            def factory(pc: int) -> Instr:
                nxt = pc + 1

                def assign_item(st: "Position") -> int:
                    i = check(index(st))
                    lst = list(st.vars[name])
                    lst[i] = value(st)
                    st.vars[name] = lst
                    return nxt
                return assign_item

            def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
                # a seat (Player) or a number indexes a per-player list; only a
                # number (a team, as team() gives it) a per-team one
                fast = "type(I) is int" if per_team else "(type(I) is Player or type(I) is int)"
                return [f"I = {g.expr(index)}",
                        f"if not ({fast} and 0 <= I < {n}):",
                        f"    I = {g.const(check)}(I)",
                        f"L = list(V[{name!r}])",
                        f"L[I] = {g.expr(value)}",
                        f"V[{name!r}] = L"], False
        self.emit(factory, node, src)

    def _s_reset(self, node: Node, scope: Scope) -> None:
        name = node["name"]
        g = scope.globals.get(name)
        if g is None or g.kind not in ("var", "player_var", "team_var"):
            raise self.error(f"cannot reset {name!r}: it is not a declared variable", node, scope,
                             code="unknown-variable")

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def reset(st: "Position") -> int:
                per, init = st.program.initial[name]
                st.vars[name] = init(st) if per is None else \
                    [init(st) for _ in range(cast(int, st.program.entries(name)))]
                return nxt
            return reset

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            per, init = self.inst.var_inits[name]
            value = g.expr(init)
            if per is not None:     # a value per seat or team, each computed anew
                n = self.inst.num_players if per == "player" else len(self.inst.teams or ())
                value = f"[{value} for _ in {g.const(range(n))}]"
            return [f"V[{name!r}] = {value}"], False
        self.emit(factory, node, src)

    def _s_for(self, node: Node, scope: Scope) -> None:
        names = _bind_names(node["bind"])
        for n in names:
            self.check_new_local(n, node, scope)
        self.names.extend(names)
        source = self.exprs.compile_filtered(node["in"], scope, names[0]) if len(names) == 1 \
            else self.exprs.compile(node["in"], scope)
        binder = make_binder(node["bind"])
        lst, idx = self.fresh("for"), self.fresh("i")
        top, cont, done = Label(), Label(), Label()

        def init(pc: int) -> Instr:
            nxt = pc + 1

            def for_init(st: "Position") -> int:
                st.vars[lst] = list(items(st, source(st)))
                st.vars[idx] = 0
                return nxt
            return for_init

        def init_src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"V[{lst!r}] = list({g.items(source)})", f"V[{idx!r}] = 0"], False
        self.emit(init, node, init_src)
        self.place(top)

        def step(pc: int) -> Instr:
            nxt = pc + 1

            def for_next(st: "Position") -> int:
                v = st.vars
                i = v[idx]
                xs = v[lst]
                if i >= len(xs):
                    return done.pc
                v[idx] = i + 1
                binder(st, xs[i])
                return nxt
            return for_next

        def step_src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            lines: list[str | Line] = [f"I = V[{idx!r}]", f"if I >= len(V[{lst!r}]):",
                                       jump(done.pc, 4), f"V[{idx!r}] = I + 1"]
            return lines + _bind_lines(node["bind"], binder, f"V[{lst!r}][I]", g), False
        self.emit(step, node, step_src)
        self.loops.append(_Loop("loop", cont, done))
        self.block(node["body"], scope.with_locals(*names))
        self.loops.pop()
        self.place(cont)
        self.jump(top, node)
        self.place(done)

    def _s_if(self, node: Node, scope: Scope) -> None:
        cond = self.exprs.compile(node["cond"], scope)
        otherwise, done = Label(), Label()

        def factory(pc: int) -> Instr:
            nxt = pc + 1
            return lambda st: nxt if cond(st) else otherwise.pc

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"if not {g.cond(cond)}:", jump(otherwise.pc, 4)], False
        self.emit(factory, node, src)
        self.block(node["then"], scope)
        if node.get("else"):
            self.jump(done, node)
            self.place(otherwise)
            self.block(node["else"], scope)
        else:
            self.place(otherwise)
        self.place(done)

    def _s_while(self, node: Node, scope: Scope) -> None:
        cond = self.exprs.compile(node["cond"], scope)
        top, done = Label(), Label()
        self.place(top)

        def factory(pc: int) -> Instr:
            nxt = pc + 1
            return lambda st: nxt if cond(st) else done.pc

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"if not {g.cond(cond)}:", jump(done.pc, 4)], False
        self.emit(factory, node, src)
        self.loops.append(_Loop("loop", top, done))
        self.block(node["body"], scope)
        self.loops.pop()
        self.jump(top, node)
        self.place(done)

    def _s_maximize(self, node: Node, scope: Scope) -> None:
        """``maximize VALUE { ... }``: each decision of the block keeps the actions
        from which the highest VALUE at the block's end can be reached
        (:mod:`rulepack.engine.lookahead`)."""
        if self.maximizing is not None:
            raise self.error("a maximize block cannot stand inside another", node, scope,
                             code="nested-maximize")
        value = self.exprs.compile(node["value"], scope)
        block = Maximize(len(self.maximizes), value, node.get("at"))
        self.maximizes.append(block)
        first_choice, first_pc = len(self.choices), len(self.factories)
        self.maximizing = (block, len(self.loops))
        try:
            self.block(node["body"], scope)
        finally:
            self.maximizing = None
        drawing = self.inst.drawing_calls
        for factory_node in [n for _, n in self.factories[first_pc:]]:
            if draws(factory_node, drawing):
                raise self.error("a maximize block cannot draw chance (roll, shuffle, random): "
                                 "its look-ahead would see the draw before the player does",
                                 factory_node, scope, code="chance-in-maximize")
        for choice in self.choices[first_choice:]:
            choice.maximize = block
        self._emit_leave(block, node)

    def _emit_leave(self, block: Maximize, node: Node | None) -> None:
        """The instruction where the flow leaves ``block``: a look-ahead stops there."""
        def factory(pc: int) -> Instr:
            nxt = pc + 1
            return lambda st: lookahead.leave(st, block, nxt)

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return ["if st.probe is not None:",
                    f"    return {g.const(lookahead.leave)}(st, {g.const(block)}, {pc + 1})"], False
        self.emit(factory, node, src)

    def _s_repeat(self, node: Node, scope: Scope) -> None:
        until = self.exprs.compile(node["until"], scope)
        top, cont, done = Label(), Label(), Label()
        self.place(top)
        self.loops.append(_Loop("loop", cont, done))
        self.block(node["body"], scope)
        self.loops.pop()
        self.place(cont)

        def factory(pc: int) -> Instr:
            return lambda st: done.pc if until(st) else top.pc

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"return {done.pc} if {g.cond(until)} else {top.pc}"], True
        self.emit(factory, node, src)
        self.place(done)

    def _s_rounds(self, node: Node, scope: Scope) -> None:
        until = self.exprs.compile(node["until"], scope) if node.get("until") else None
        times = self.exprs.compile(node["times"], scope) if node.get("times") else None
        top, cont, done = Label(), Label(), Label()
        outer = self.fresh("outer_round")

        def init(pc: int) -> Instr:
            nxt = pc + 1

            def rounds_init(st: "Position") -> int:
                st.vars[outer] = st.vars.get("round")
                if times is not None:
                    n = _round_count(times(st))
                    if n < 1:
                        return done.pc
                st.vars["round"] = 1
                return nxt
            return rounds_init

        def init_src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            lines: list[str | Line] = [f"V[{outer!r}] = V.get('round')"]
            if times is not None:
                check = g.const(_round_count)
                lines += [f"N = {g.expr(times)}",
                          "if type(N) is not int:",
                          f"    N = {check}(N)    # raises unless a whole number",
                          "if N < 1:", jump(done.pc, 4)]
            return lines + ["V['round'] = 1"], False
        self.emit(init, node, init_src)
        self.place(top)
        self.loops.append(_Loop("rounds", cont, done, ("round", outer)))
        self.block(node["body"], scope)
        self.loops.pop()
        self.place(cont)

        def after(pc: int) -> Instr:
            def rounds_next(st: "Position") -> int:
                if until is not None and until(st):
                    return done.pc
                if times is not None and st.vars["round"] >= times(st):
                    return done.pc
                st.vars["round"] += 1
                return top.pc
            return rounds_next

        def after_src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            lines: list[str | Line] = []
            if until is not None:
                lines += [f"if {g.cond(until)}:", jump(done.pc, 4)]
            if times is not None:
                lines += [f"if V['round'] >= {g.expr(times)}:", jump(done.pc, 4)]
            return lines + ["V['round'] += 1", jump(top.pc)], True
        self.emit(after, node, after_src)
        self.place(done)
        self._emit_restore("round", outer, node)

    def _emit_restore(self, name: str, saved: str, node: Node | None) -> None:
        """After a loop: give ``name`` back the value it had before (nested loops)."""
        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def restore(st: "Position") -> int:
                st.vars[name] = st.vars.pop(saved, None)
                return nxt
            return restore

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"V[{name!r}] = V.pop({saved!r}, None)"], False
        self.emit(factory, node, src)

    def _s_turns(self, node: Node, scope: Scope) -> None:
        start = self.exprs.compile(node["from"], scope)
        until = self.exprs.compile(node["until"], scope) if node.get("until") else None
        top, cont, done = Label(), Label(), Label()
        n = self.inst.num_players
        outer = self.fresh("outer_current")

        def init(pc: int) -> Instr:
            nxt = pc + 1

            def turns_init(st: "Position") -> int:
                st.vars[outer] = st.vars.get("current")
                p = start(st)
                if not isinstance(p, int) or not 0 <= p < n:
                    raise RuleValueError(f"turns must start from a player, not {show(p)}")
                if not st.active[p]:
                    p = queries.next_active(st, p)
                    if p is None:
                        return done.pc
                st.vars["current"] = Player(p)
                return nxt
            return turns_init

        def seat(p: object) -> Player:
            if not isinstance(p, int) or not 0 <= p < n:
                raise RuleValueError(f"turns must start from a player, not {show(p)}")
            return Player(p)

        def init_src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            # a Player is always a seat (see rulepack.engine.values.Player)
            return [f"V[{outer!r}] = V.get('current')",
                    f"N = {g.expr(start)}",
                    "if type(N) is not Player:",
                    f"    N = {g.const(seat)}(N)    # raises unless a seat",
                    "if not st.active[N]:",
                    "    N = _next_active(st, N)",
                    "    if N is None:", jump(done.pc, 8),
                    "V['current'] = N"], False
        self.emit(init, node, init_src)
        self.place(top)
        self.loops.append(_Loop("turns", cont, done, ("current", outer)))
        self.block(node["body"], scope.child(in_turns=scope.in_turns + 1))
        self.loops.pop()
        self.place(cont)

        def after(pc: int) -> Instr:
            def turns_next(st: "Position") -> int:
                if st.terminal:
                    return HALT
                if until is not None and until(st):
                    return done.pc
                nxt_player = queries.next_active(st, st.vars["current"])
                if nxt_player is None:
                    return done.pc
                st.vars["current"] = nxt_player
                st.turns += 1
                return top.pc
            return turns_next

        def after_src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            lines: list[str | Line] = ["if st.terminal:", f"    return {HALT}"]
            if until is not None:
                lines += [f"if {g.cond(until)}:", jump(done.pc, 4)]
            after = g.const(self.inst.next_seat)       # (queries.next_active, inline)
            return lines + ["N = V['current']",
                            f"N = {after}[N] if type(N) is Player and st.active[{after}[N]] "
                            "else _next_active(st, N)",
                            "if N is None:", jump(done.pc, 4),
                            "V['current'] = N", "st.turns += 1",
                            jump(top.pc)], True
        self.emit(after, node, after_src)
        self.place(done)
        self._emit_restore("current", outer, node)

    def _s_choose(self, node: Node, scope: Scope) -> None:
        compile_choose(self, node, scope)

    def _s_end(self, node: Node, scope: Scope) -> None:
        what = node["what"]
        if what == "game":
            winners = self.exprs.compile(node["winners"], scope) if node.get("winners") else None
            at = list(node["at"]) if node.get("at") else None

            def factory(pc: int) -> Instr:
                def end_game(st: "Position") -> int:
                    w = None if winners is None else items(st, winners(st))
                    effects.end_game(st, w, at)
                    return HALT
                return end_game

            def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
                w = "None" if winners is None else g.items(winners)
                return [f"_end_game(st, {w}, {at!r})", f"return {HALT}"], True
            self.emit(factory, node, src)
            return
        kind = "turns" if what == "turn" else "rounds"
        for depth in range(len(self.loops) - 1, -1, -1):
            loop = self.loops[depth]
            if loop.kind == kind:
                if self.maximizing is not None and depth < self.maximizing[1]:
                    # out of a maximize block: a look-ahead stops here
                    self._emit_leave(self.maximizing[0], node)
                # leaving inner turns/rounds loops: give back their outer current/round
                for inner in reversed(self.loops[depth + 1:]):
                    if inner.restore is not None:
                        self._emit_restore(inner.restore[0], inner.restore[1], node)
                self.jump(loop.end_of_iteration, node)
                return
        raise self.error(f"'end {what}' outside any {kind} loop", node, scope, code="misplaced-end")

    def _s_do(self, node: Node, scope: Scope) -> None:
        name = node["phase"]
        phase = self.inst.phase_ir.get(name)
        if phase is None:
            raise self.error(f"unknown phase {name!r}", node, scope, code="unknown-phase")
        if name in self.phase_stack:
            raise self.error(f"phase {name!r} runs itself (through {' → '.join(self.phase_stack)})",
                             node, scope, code="recursive-phase")
        self.phases_used.add(name)
        self.phase_stack.append(name)
        self.block(phase["body"], scope)
        self.phase_stack.pop()

    def _s_claim(self, node: Node, scope: Scope) -> None:
        what = self.exprs.compile(node["what"], scope)
        player = self.exprs.compile(node["for"], scope)

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def claim(st: "Position") -> int:
                effects.claim(st, items(st, what(st)), player(st))
                return nxt
            return claim

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"W = {g.items(what)}", f"_claim(st, W, {g.expr(player)})"], False
        self.emit(factory, node, src)

    def _s_arrange(self, node: Node, scope: Scope) -> None:
        zone = self.exprs.compile(node["zone"], scope)
        into = self.exprs.compile(node["into"], scope)
        patterns = self.inst.patterns

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def arrange(st: "Position") -> int:
                z = zone(st)
                effects.arrange(st, z, ops.pattern(patterns, into(st)))
                return nxt
            return arrange

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"W = {g.expr(zone)}",
                    f"_arrange(st, W, _pattern({g.const(patterns)}, {g.expr(into)}))"], False
        self.emit(factory, node, src)

    def _s_say(self, node: Node, scope: Scope) -> None:
        text = node["text"]
        try:
            fields = template_fields(text)
        except TemplateError as exc:
            message = f"bad text {quoted(text)}: {exc}" if exc.field is None else \
                f"say mentions {{{exc.field}}}: write a name in braces (give a value a name " \
                f"with let first; {NOT_A_FORMAT})"
            raise self.error(message, node, scope, code="bad-template") from None
        getters = [(f, self.exprs.compile({"k": "name", "name": f, "at": node.get("at")}, scope))
                   for f in dict.fromkeys(fields)]
        to = None if node.get("to") is None else self.exprs.compile(node["to"], scope)

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def say(st: "Position") -> int:
                told = None if to is None else told_players(to(st), st.program.num_players)
                st.history.append(Narration(text, {f: g(st) for f, g in getters}, told))
                return nxt
            return say

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            values = ", ".join(f"{g.const(f)}: {g.expr(fn)}" for f, fn in getters)
            told = "None" if to is None else \
                f"{g.const(told_players)}({g.expr(to)}, {self.inst.num_players})"
            return [f"st.history.append({g.const(Narration)}({g.const(text)}, {{{values}}}, "
                    f"{told}))"], False
        self.emit(factory, node, src)

    def _s_eliminate(self, node: Node, scope: Scope) -> None:
        player = self.exprs.compile(node["player"], scope)

        def factory(pc: int) -> Instr:
            nxt = pc + 1

            def eliminate(st: "Position") -> int:
                effects.eliminate(st, player(st))
                return nxt
            return eliminate

        def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
            return [f"_eliminate(st, {g.expr(player)})"], False
        self.emit(factory, node, src)


def told_players(value: object, players: int) -> tuple[int, ...]:
    """The seats ``say ... to VALUE`` tells: a player or a list of players.

    :raises RuleValueError: something else than players."""
    told = list(value) if isinstance(value, (list, tuple)) else [value]
    seats: list[int] = []
    for p in told:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < players:
            raise RuleValueError(f"say ... to needs players, not {show(p)}")
        seats.append(int(p))
    return tuple(seats)


def _round_count(n: object) -> int:
    """The number of ``rounds ... times N``. :raises RuleValueError: not a whole number."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise RuleValueError(f"rounds ... times needs a number, not {show(n)}")
    return n


def _bind_lines(bind: str | list[str], binder: Binder, value: str,
                g: FlowGen) -> list[str]:
    """Statements storing ``value`` (source) as ``bind`` does (see ``make_binder``)."""
    if isinstance(bind, str):
        return [f"V[{bind!r}] = {value}"]
    names = ", ".join(f"V[{n!r}]" for n in bind)
    return [f"U = {value}",
            f"if not ((type(U) is tuple or type(U) is list) and len(U) == {len(bind)}):",
            f"    {g.const(binder)}(st, U)    # raises: cannot unpack",
            f"{names}{',' if len(bind) == 1 else ''} = U"]


def _bind_fragment(bind: str | list[str], binder: Binder,
                   value: Fn) -> Fragment:
    """The fragment of ``let BIND = VALUE``."""
    def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
        return _bind_lines(bind, binder, g.expr(value), g), False
    return src
