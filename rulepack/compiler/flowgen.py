"""The flow's program → generated Python: a function per instruction and per basic block.

:class:`~rulepack.compiler.flow.FlowCompiler` emits each instruction as a closure
``ins(state) -> next_pc`` (the reference backend) and as Python statements (a
*fragment*). This module turns each instruction's fragment into a function
``S<pc>(st) -> next_pc`` (the flow an instruction at a time: where a game
starts, explicit chance's snapshots and the probes of the start run on these),
cuts the program into basic blocks — runs of instructions entered only at their
first one: the start, every jump target and decision, and the instruction
after an unconditional jump — and turns each block into one generated function
``B<pc>(st) -> next_pc`` that runs the fragments one after another, with the
expressions they evaluate inlined (the generated source of
:mod:`rulepack.compiler.codegen`). ``code[pc]`` is the block's function for the
first instruction of a block and the instruction's step for the others, so
entering anywhere (a restored position resumes at its decision) still works.

A block that always goes on to a short block takes that block's body in instead
of returning its number (:meth:`FlowGen._merge`): an action's body, the end of the
turn and the next decision run as one function. The block itself still exists
for the other ways in.

A block remembers the instruction it is running (``P``) and leaves it
in ``st.fault`` when an error passes, so errors are located at the rule that
failed, as with closures.

A block's body is a list of :class:`Line` values: a statement's text, its
indentation, and, for a jump (``return K``), the block it goes on to; the
inlined expressions' local functions are lines of their own. Merging,
threading and loops work on those values, never on the generated text.

Safety is that of :mod:`rulepack.compiler.codegen`: ruleset text reaches the
source only as ``repr()`` literals; every other value (closures, choices, zone
references) is bound in the namespace under a generated name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import FunctionType
from typing import TYPE_CHECKING, Callable, Sequence, Union, final

from rulepack.compiler import codegen
from rulepack.engine import drawn
from rulepack.compiler.closures import Fn
from rulepack.compiler.codegen import (BASE_BUILTINS, BASE_NAMESPACE, ZONES, GeneratedExpression,
                                       SourceGen, reads_variable, table_locals)
from rulepack.engine.actions import Action
from rulepack.engine.runtime import recharge
from rulepack.engine.program import Alternative, Choice, Instr
from rulepack.engine.values import Player, ZoneRef
from rulepack.ir import Node

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position


@final
@dataclass(frozen=True, slots=True)
class Line:
    """One statement of a generated block.

    :param text: its source, with the indentation it has in its fragment (several
        lines: an inlined expression's local function, whose lines are its own).
    :param indent: spaces more before it (a block taken into a branch's body).
    :param jump: for ``return K`` (``K >= 0``): the instruction it goes on to.
    """

    text: str
    indent: int = 0
    jump: int | None = None

    def indented(self, spaces: int) -> "Line":
        return replace(self, indent=self.indent + spaces)

    def render(self, pad: str) -> list[str]:
        """Its lines, each after ``pad`` and its own indentation."""
        lead = pad + " " * self.indent
        return [lead + part for part in self.text.split("\n")]


def jump(target: int, indent: int = 0) -> Line:
    """``return TARGET`` (after ``indent`` spaces): go on to instruction ``target``."""
    return Line(f"return {target}", indent, target)


def _size(lines: list[Line]) -> int:
    """The number of lines of text of ``lines``."""
    return sum(line.text.count("\n") + 1 for line in lines)


#: what a fragment gives: lines of text, or :class:`Line` values (a jump)
Lines = Sequence[Union[str, Line]]

#: A fragment: ``(pc, gen) -> (lines, ends)``; ``ends`` is True when its last line
#: always returns (control never falls through to the next instruction).
Fragment = Callable[[int, "FlowGen"], tuple[Lines, bool]]


def _lines(lines: Lines) -> list[Line]:
    return [line if type(line) is Line else Line(line) for line in lines]

#: marks a variable that had no value before a decision bound it
_MISSING = object()


def _new_action(table: dict[object, Action], key: object, choice: int, alt: Alternative,
                values: tuple[object, ...], player: int) -> Action:
    """A new action, kept in ``table`` under ``key`` (its values)."""
    action = table[key] = Action(choice, alt, values, player)
    return action


def _generated(namespace: dict[str, object], name: str) -> FunctionType:
    """The generated function ``name`` of a generated module's ``namespace``."""
    fn = namespace[name]
    if not isinstance(fn, FunctionType):   # pragma: no cover - a bug of the generator
        raise TypeError(f"{name} is not a generated function")
    return fn


def _self_loop(body: list[Line], start: int, rounds: int) -> list[Line]:
    """``body``, the lines of block ``start``, as a loop inside the function when
    they jump back to ``start`` (a ``for`` loop whose body has no decision): each
    such jump goes round again instead, at most ``rounds`` times in a row, then
    returns as before (so :func:`rulepack.engine.flow.run` still counts the loop's steps)."""
    if not any(line.jump == start for line in body):
        return body
    out: list[Line] = [Line("R_ = 0"), Line("while True:")]
    for line in body:
        if line.jump == start:
            at = line.indent + 4
            out += [Line("R_ += 1", at), Line(f"if R_ < {rounds}:", at),
                    Line("    continue", at), line.indented(4)]
        else:
            out.append(line.indented(4))
    return out


def _make(pc: int) -> Instr:  # pragma: no cover - each stub's globals hold its own
    raise AssertionError("a step stub runs with the globals FlowGen.steps gives it")


def _lazy_step(st: "Position", pc: int = -1) -> int:
    """The code of step ``pc`` (its default) before the steps are compiled (see
    :meth:`FlowGen.steps`): compile them all, then run this one."""
    return _make(pc)(st)


def _function(name: str, comment: str, refs: frozenset[str], body: list[Line]) -> str:
    """The source of a generated function ``name(st)`` running ``body``, which
    leaves the instruction it runs (``P``) in ``st.fault`` when an error passes."""
    head = [f"def {name}(st):  # {comment}", *table_locals(refs)]
    rendered = [text for line in body for text in line.render("        ")]
    return "\n".join(head + ["    try:"] + rendered
                     + ["    except BaseException:", "        st.fault = P",
                        "        raise"]) + "\n"


class FlowGen:
    """Generates the block functions of one instance's flow.

    :param source: the instance's expression source generator (its generated
        functions are inlined; names are unique within the instance).
    :param where: file of the ruleset (for the comment of each block).
    :param players: the number of seats.
    """

    def __init__(self, source: SourceGen, where: str, players: int) -> None:
        self.source = source
        self.where = where
        self.players = players
        self.ns: dict[str, object] = {}
        self._consts = 0
        #: the lines the current fragment's inlined expressions need before it
        #: (their local functions), and the locals those expressions read
        self._lines: list[Line] = []
        self._refs: frozenset[str] = frozenset()
        #: each instruction's lines and what they read (see :meth:`_parts`)
        self._made_parts: tuple[list[tuple[list[Line], bool]],
                                list[frozenset[str]]] | None = None
        #: the generated module's text (``rulepack compile --format python``)
        self.module = ""
        #: blocks whose source did not compile (a generator bug; closures used)
        self.failures: list[str] = []
        #: the calls that draw a chance event (``random`` and the defines calling it)
        self.drawing: frozenset[str] = drawn.RANDOM

    # ------------------------------------------------------------------ for fragments
    def const(self, value: object) -> str:
        """A name bound to ``value`` in the blocks' namespace."""
        name = f"C{self._consts}"
        self._consts += 1
        self.ns[name] = value
        return name

    def expr(self, fn: Fn) -> str:
        """Source evaluating the compiled expression ``fn``: its generated form
        inline (its statements placed before the current fragment's), or a call."""
        record: GeneratedExpression | None = self.source.by_function.get(fn)
        if record is None:
            return f"{self.const(fn)}(st)"
        self.ns.update(record.constants)
        self._lines.extend(Line(part.text) for part in record.prelude)
        self._refs |= record.refs
        return f"({record.body.text})"

    def cond(self, fn: Fn) -> str:
        """Like :meth:`expr`, for a condition: only the value's truth counts."""
        record = self.source.by_function.get(fn)
        src = self.expr(fn)
        return f"({record.truth.text})" if record is not None else src

    def never(self, fn: Fn) -> bool:
        """Whether the condition ``fn`` is the constant false (an option's, say)."""
        record = self.source.by_function.get(fn)
        return record is not None and record.truth.literal is False

    def items(self, fn: Fn) -> str:
        """Source of the elements of ``fn``'s value as a list (``items()``, left
        out when the generated expression always gives a list)."""
        record = self.source.by_function.get(fn)
        src = self.expr(fn)
        return src if record is not None and record.body.is_list else f"items(st, {src})"

    def pieces(self, fn: Fn) -> str | None:
        """Source of the pieces' list of the zone (not a grid) that ``fn`` always
        gives, read from the state's zones (the list itself: do not change it), or
        ``None`` when ``fn`` may give something else."""
        record = self.source.by_function.get(fn)
        if record is None or record.body.pieces is None:
            return None
        self.expr(fn)                    # its constants and prelude
        self._refs |= record.body.pieces.refs
        return f"({record.body.pieces.text})"

    def fresh_list(self, fn: Fn) -> bool:
        """Whether ``fn``'s generated code always gives a list of its own (or a
        constant one: values are never changed in place)."""
        record = self.source.by_function.get(fn)
        return record is not None and record.body.is_list

    # ------------------------------------------------------------------ blocks
    def build(self, code: list[Instr], fragments: list[Fragment | None], nodes: list[Node | None],
              entries: set[int], choices: list[Choice]) -> list[Instr]:
        """``code`` with the first instruction of every block replaced by the
        block's generated function; each of ``choices`` gets its generated
        legal-action function (:attr:`Choice.generate`).

        :param entries: instructions entered from elsewhere than the one before
            (jump targets, decisions, the start).
        """
        if not codegen.ENABLED or not code:
            return code
        n = len(code)
        parts, refs = self._parts(fragments)
        leaders = sorted({0, *entries} | {pc + 1 for pc, (_, ends) in enumerate(parts)
                                          if ends and pc + 1 < n})
        # jump threading: a block that only jumps is jumped over
        only_jump = {pc: line.jump for pc in leaders
                     if len(parts[pc][0]) == 1 and (line := parts[pc][0][0]).jump is not None
                     and line.indent == 0}

        def target(pc: int) -> int:
            seen = set()
            while pc in only_jump and pc not in seen:
                seen.add(pc)
                pc = only_jump[pc]
            return pc

        def thread(line: Line) -> Line:
            if line.jump is None or line.jump not in only_jump:
                return line
            return jump(target(line.jump), line.indent)
        self.leaders = leaders
        out = list(code)
        bodies: dict[int, list[Line]] = {}
        members: dict[int, list[int]] = {}
        for i, start in enumerate(leaders):
            stop = leaders[i + 1] if i + 1 < len(leaders) else n
            body: list[Line] = []
            ends = False
            for pc in range(start, stop):
                block_lines, ends = parts[pc]
                body.append(Line(f"P = {pc}"))
                body.extend(thread(line) for line in block_lines)
            if not ends:
                body.append(thread(jump(stop) if stop < n else Line("return -2")))
            bodies[start] = body
            members[start] = list(range(start, stop))
        merged = {start: self._merge(start, bodies, members, nodes) for start in leaders}
        self.blocks = {start: instrs for start, (_, instrs) in merged.items()}
        sources = []
        for start in leaders:
            body = _self_loop(merged[start][0], start, self.SELF_LOOP_ROUNDS)
            read: frozenset[str] = frozenset()
            for pc in merged[start][1]:
                read |= refs[pc]
            sources.append((f"B{start}", _function(f"B{start}", self._comment(nodes[start]),
                                                   read, body)))
        for choice in choices:
            sources.append((f"A{choice.index}", self.legal(choice)))
        module = "\n\n".join(src for _, src in sources)
        namespace = self._compile(module)
        if namespace is None:   # pragma: no cover - a bug of the generator
            return code
        for name, _ in sources:
            if name[0] == "B":
                out[int(name[1:])] = _generated(namespace, name)
        for choice in choices:
            choice.generate = _generated(namespace, f"A{choice.index}")
        self.module = module
        return out

    def steps(self, code: list[Instr], fragments: list[Fragment | None],
              nodes: list[Node | None]) -> list[Instr]:
        """One generated function per instruction, ``S<pc>(st) -> next_pc`` (its
        fragment alone: the flow entered an instruction at a time, as explicit
        chance's snapshots and the engine's check for endless loops do);
        ``code`` (the closures) when generation is off.

        A game with sampled chance seldom runs them, so they are compiled when
        one is first called: each function is a stub that compiles them all and
        then takes the generated code as its own (later calls run it directly)."""
        if not codegen.ENABLED or not code:
            return code
        n = len(code)
        parts, refs = self._parts(fragments)
        stubs: list[FunctionType] = []

        def make(pc: int) -> Instr:
            """Compile every step (once) and give each stub its code; step ``pc``."""
            if stubs[pc].__code__ is not _lazy_step.__code__:
                return stubs[pc]
            sources = []
            for at, (lines, ends) in enumerate(parts):
                body = [Line(f"P = {at}"), *lines]
                if not ends:
                    body.append(jump(at + 1) if at + 1 < n else Line("return -2"))
                sources.append(_function(f"S{at}", self._comment(nodes[at]), refs[at], body))
            namespace = self._compile("\n\n".join(sources))
            if namespace is None:   # pragma: no cover - a bug of the generator
                return code[pc]
            shared.update(namespace)
            for at, stub in enumerate(stubs):
                stub.__code__ = _generated(namespace, f"S{at}").__code__
                stub.__defaults__ = None
            return stubs[pc]

        shared = self._namespace()      # the stubs' globals, then the steps'
        shared["_make"] = make
        for pc in range(n):
            stubs.append(FunctionType(_lazy_step.__code__, shared, f"S{pc}", (pc,)))
        return list(stubs)

    def _parts(self, fragments: list[Fragment | None]
               ) -> tuple[list[tuple[list[Line], bool]], list[frozenset[str]]]:
        """Each instruction's lines (and whether they always return) and the locals
        they read, from its fragment (asked once: the steps and the blocks share them).

        :raises AssertionError: an instruction without generated source."""
        if self._made_parts is not None:
            return self._made_parts
        parts: list[tuple[list[Line], bool]] = []
        refs: list[frozenset[str]] = []
        for pc, frag in enumerate(fragments):
            assert frag is not None, f"instruction {pc} has no generated source"
            self._lines = []
            self._refs = frozenset()
            lines, ends = frag(pc, self)
            parts.append((self._lines + _lines(lines), ends))
            refs.append(self._refs)
        self._made_parts = parts, refs
        return self._made_parts

    def _namespace(self) -> dict[str, object]:
        """The globals generated flow code runs with: the generated expressions'
        (:data:`BASE_NAMESPACE`), the few builtins it uses, and the values bound so far."""
        namespace = dict(BASE_NAMESPACE)
        namespace["__builtins__"] = {**BASE_BUILTINS,
                                     "BaseException": BaseException, "KeyError": KeyError,
                                     "map": map}
        namespace["Action"] = Action
        namespace["Player"] = Player
        namespace["ZoneRef"] = ZoneRef
        namespace["MISSING"] = _MISSING
        namespace["_new_action"] = _new_action
        namespace["_recharge"] = recharge
        namespace.update(self.ns)
        return namespace

    def _compile(self, module: str) -> dict[str, object] | None:
        """The namespace of the generated ``module`` once run (``None``, and the
        failure noted, if it does not compile: a bug of the generator)."""
        namespace = self._namespace()
        try:
            compiled = compile(module, "<rulepack generated flow>", "exec")
        except SyntaxError as exc:  # pragma: no cover - a bug of the generator
            self.failures.append(str(exc))
            return None
        exec(compiled, namespace)  # noqa: S102 - our own source, ruleset text only as reprs
        return namespace

    def _reads(self, fn: Fn, names: list[str]) -> bool:
        """Whether the expression ``fn`` may read one of the variables ``names``: its
        generated source (body and prelude: every variable it reads is written
        ``V['name']`` there) names one, or it is a closure (not known)."""
        record = self.source.by_function.get(fn)
        if record is None:
            return True
        refs = record.refs
        return any(reads_variable(refs, name) for name in names)

    #: the most lines of a block that another block ending with a jump to it
    #: takes in, and the most blocks one block takes in that way
    MERGE_LINES = 40
    MERGE_BLOCKS = 3
    #: the most lines of a block that a branch jumping to it takes in
    BRANCH_LINES = 16
    #: the most times a block that jumps back to its own start (a loop with no
    #: decision in its body) goes round before it returns to
    #: :func:`rulepack.engine.flow.run`, which counts its steps (:data:`~rulepack.engine.flow.FLOW_STEP_LIMIT`)
    SELF_LOOP_ROUNDS = 8

    def _merge(self, start: int, bodies: dict[int, list[Line]], members: dict[int, list[int]],
               nodes: list[Node | None]) -> tuple[list[Line], list[int]]:
        """The body of block ``start`` with the blocks it always goes on to taken in:
        while it ends by jumping to another block (an unindented jump) that is
        short, not already taken in, and would not make a second statement that
        draws a chance event in the function (their positions are looked up by
        block: :mod:`rulepack.engine.drawn`), that block's body replaces the jump.
        Saves the dispatch of one block per block taken in (the turn's end, the
        next decision...). A block is never taken into itself (a block that jumps
        back to its own start goes round inside its function: :func:`_self_loop`).

        :returns: the body's lines and the instructions it runs.
        """
        body = list(bodies[start])
        instrs = list(members[start])
        draws = sum(1 for pc in instrs if drawn.draws(nodes[pc], self.drawing))
        for _ in range(self.MERGE_BLOCKS):
            last = body[-1]
            k = last.jump
            if k is None or last.indent:
                break
            more = bodies.get(k)
            if more is None or k in instrs or _size(more) > self.MERGE_LINES:
                break
            extra = sum(1 for pc in members[k] if drawn.draws(nodes[pc], self.drawing))
            if draws + extra > 1:
                break
            draws += extra
            body[-1:] = more
            instrs += members[k]
        # a branch's jump (``if ...: return K``) to a short block: that block's body
        # in its place (once per line; an else that goes back to a loop's start
        # then goes round inside the function too)
        out: list[Line] = []
        for line in body:
            k = line.jump if line.jump is not None and line.indent > 0 else -1
            more = bodies.get(k)
            if more is None or k == start or k in instrs or _size(more) > self.BRANCH_LINES:
                out.append(line)
                continue
            extra = sum(1 for pc in members[k] if drawn.draws(nodes[pc], self.drawing))
            if draws + extra > 1:
                out.append(line)
                continue
            draws += extra
            instrs += members[k]
            out += [more_line.indented(line.indent) for more_line in more]
        return out, instrs

    # ------------------------------------------------------------------ decisions
    def legal(self, choice: Choice) -> str:
        """The source of ``A<i>(st, player) -> list[Action]``: the legal actions
        of ``choice`` in canonical order, as :func:`rulepack.engine.flow.legal` lists them.

        Every distinct action (alternative, player, parameter values) is made
        once per instance and kept in a table of its alternative (the values are
        pieces, cells, players, numbers...; an unhashable value, a list, makes a
        new action each time), so asking again costs a lookup, not an object.
        Actions on a grid's cells picked by what lies on them are kept by the
        cell's slot and listed by a loop over the grid's slots.
        Parameters bound while trying are put back as they were.
        """
        self._lines = []
        self._refs = frozenset()
        body: list[str] = []
        binds = False          # whether some parameter is stored in the variables
        offered = 0            # the alternatives that may be offered
        alone: str | None = None    # the list by slot of an alternative with no guard
        for alt in choice.alternatives:
            make = self.const(alt)
            ind = ""
            if alt.pre_guard is not None:
                guard = self.cond(alt.pre_guard)
                if self.never(alt.pre_guard):
                    continue            # never offered (an option's constant, say)
                body.append(f"if {guard}:")
                ind = "    "
            offered += 1
            params = alt.params
            record = self.source.by_function.get(params[0][2]) if len(params) == 1 else None
            if record is not None and record.body.by_slot is not None and \
                    len(params[0][0]) == 1 and alt.post_guard is None:
                # cells of a grid picked by what lies on them: per seat, the action
                # of every cell, by slot, made here; the grid's slots are walked
                # beside them
                hoist, piece, grid, cond, cells = record.body.by_slot
                self.expr(params[0][2])          # its constants and prelude
                self._refs |= ZONES.refs
                grid_cells = self.ns[cells]
                if not isinstance(grid_cells, tuple):   # pragma: no cover - a generator bug
                    raise TypeError(f"{cells} is not a grid's cells")
                table = self.const([[Action(choice.index, alt, (cell,), Player(p))
                                     for cell in grid_cells]
                                    for p in range(self.players)])
                made = (f"[a_ {hoist}for a_, {piece} in zip(T, _charge(st, Z[{grid}])) "
                        f"if {cond}]")
                body += [f"{ind}T = {table}[player]", f"{ind}out += {made}"]
                if not ind:
                    alone = made
                continue
            if not params and alt.post_guard is None:
                # no parameter: one action per seat, made here
                seats = self.const([Action(choice.index, alt, (), Player(p))
                                    for p in range(self.players)])
                body.append(f"{ind}out.append({seats}[player])")
                continue
            # per seat, the actions of this alternative made so far, by values
            table = self.const([{} for _ in range(self.players)])
            body.append(f"{ind}D = {table}[player]")
            if len(params) == 1 and len(params[0][0]) == 1 and alt.post_guard is None:
                # the common case in one comprehension: a lookup per action
                if record is not None and record.body.comprehension is not None:
                    # the parameter's where and the lookups in one loop
                    x, clauses = record.body.comprehension
                    self.expr(params[0][2])          # its constants and prelude
                    new = f"_new_action(D, {x}, {choice.index}, {make}, ({x},), player)"
                    body += [f"{ind}try:",
                             f"{ind}    get = D.get",
                             f"{ind}    out += [get({x}) or {new} {clauses}]",
                             f"{ind}except TypeError:  # a value that cannot be a key (a list)",
                             f"{ind}    out += [Action({choice.index}, {make}, ({x},), player) "
                             f"{clauses}]"]
                    continue
                src = self.pieces(params[0][2]) or self.items(params[0][2])
                new = f"_new_action(D, X0, {choice.index}, {make}, (X0,), player)"
                made = f"[Action({choice.index}, {make}, (X0,), player) for X0 in S0]"
                # the actions made before, looked up by map (a loop in C); when one
                # is new (or a value cannot be a key), what was added is taken back
                # and the list made by a comprehension
                body += [f"{ind}S0 = {src}",
                         f"{ind}M_ = len(out)",
                         f"{ind}try:",
                         f"{ind}    out += map(D.__getitem__, S0)",
                         f"{ind}except KeyError:  # one not made yet",
                         f"{ind}    del out[M_:]",
                         f"{ind}    try:",
                         f"{ind}        get = D.get",
                         f"{ind}        out += [get(X0) or {new} for X0 in S0]",
                         f"{ind}    except TypeError:  # a value that cannot be a key",
                         f"{ind}        del out[M_:]",
                         f"{ind}        out += {made}",
                         f"{ind}except TypeError:  # a value that cannot be a key (a list)",
                         f"{ind}    del out[M_:]",
                         f"{ind}    out += {made}"]
                continue
            xs = [f"X{i}" for i in range(len(params))]
            last = len(params) - 1
            outer: list[str] = []           # names bound by the loops outside this one
            first_loop = len(body)          # where the outermost loop starts
            for i, (bound, binder, source) in enumerate(params):
                src = self.pieces(source) or self.items(source)
                if i and not self._reads(source, outer):
                    # the same list whatever the outer loops bind: made once, when
                    # first needed (an outer loop that runs no time never makes it)
                    # (what it cost the budget is taken again at every later use,
                    # as if it were made again)
                    body.insert(first_loop, f"{ind[:len(ind) - 4 * i]}Y{i} = None")
                    first_loop += 1
                    body += [f"{ind}if Y{i} is None:",
                             f"{ind}    C{i}_ = st.steps_left",
                             f"{ind}    Y{i} = {src}",
                             f"{ind}    C{i}_ -= st.steps_left",
                             f"{ind}else:",
                             f"{ind}    _recharge(st, C{i}_)"]
                    src = f"Y{i}"
                body.append(f"{ind}for X{i} in {src}:")
                outer += bound
                ind += "    "
                if len(bound) > 1 and i == last and alt.post_guard is None:
                    # nothing reads the names: only check that the value destructures
                    body += [f"{ind}if not ((type(X{i}) is tuple or type(X{i}) is list) "
                             f"and len(X{i}) == {len(bound)}):",
                             f"{ind}    {self.const(binder)}(st, X{i})"]
                elif len(bound) > 1:
                    body.append(f"{ind}{self.const(binder)}(st, X{i})")
                    binds = True
                elif alt.post_guard is not None or \
                        any(self._reads(p[2], bound) for p in params[i + 1:]):
                    # stored only where the guard or a later parameter may read it
                    body.append(f"{ind}V[{bound[0]!r}] = X{i}")
                    binds = True
            if alt.post_guard is not None:
                body.append(f"{ind}if {self.cond(alt.post_guard)}:")
                ind += "    "
            values = "(" + "".join(x + ", " for x in xs) + ")"
            key = ("(" + ", ".join(xs) + ")") if len(xs) > 1 else (xs[0] if xs else "None")
            body += [f"{ind}try:",
                     f"{ind}    a = D[{key}]",
                     f"{ind}except KeyError:",
                     f"{ind}    a = D[{key}] = Action({choice.index}, {make}, {values}, player)",
                     f"{ind}except TypeError:  # a value that cannot be a key (a list)",
                     f"{ind}    a = Action({choice.index}, {make}, {values}, player)",
                     f"{ind}out.append(a)"]
        names = choice.bound_names
        head = [f"def A{choice.index}(st, player):  # {self._comment({'at': choice.at})}",
                *table_locals(self._refs), "    out = []"]
        inner = [text for line in self._lines for text in line.render("        ")] + \
            ["        " + ln for ln in body]
        if not names or not binds:
            if offered == 1 and alone is not None:
                # one list by slot, nothing else: returned as it is made
                head[-1] = "    " + body[0]             # "T = ...", instead of "out = []"
                prelude = [text for line in self._lines for text in line.render("    ")]
                return "\n".join(head + prelude + [f"    return {alone}"]) + "\n"
            return "\n".join(head + ["    if True:"] + inner + ["    return out"]) + "\n"
        saved = self.const(names)
        return "\n".join(head + [f"    S = [V.get(n, MISSING) for n in {saved}]", "    try:"]
                         + inner
                         + ["    finally:",
                            f"        for n, x in zip({saved}, S):",
                            "            if x is MISSING:",
                            "                V.pop(n, None)",
                            "            else:",
                            "                V[n] = x",
                            "    return out"]) + "\n"

    def _comment(self, node: Node | None) -> str:
        at = node.get("at") if isinstance(node, dict) else None
        if at and at[0]:
            return f"{self.where!r} line {at[0]} column {at[1]}"
        return repr(self.where)

