"""The ``choose`` statement compiled: a decision of the flow and its actions.

A ``choose`` becomes a :class:`~rulepack.engine.program.Choice` (who decides, and
one :class:`~rulepack.engine.program.Alternative` per ``action``: its parameters'
sources and binders, its text, its guards), the instruction that suspends the
game at it, and each action's body, placed after it in the flow (taking an action
jumps into its body, which jumps to the end of the ``choose``). Mistakes in an
action are reported and the other actions still compiled, so one pass finds them
all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulepack.compiler.expressions import _bind_names, make_binder
from rulepack.compiler.scope import Scope
from rulepack.engine import flow as engine_flow
from rulepack.engine.program import SUSPEND, Alternative, Choice, Instr, Label
from rulepack.engine.templates import NOT_A_FORMAT, TemplateError, fields as template_fields
from rulepack.errors import SemanticError
from rulepack.ir import Node, names_in, nodes as ir_nodes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.flow import FlowCompiler
    from rulepack.compiler.flowgen import FlowGen, Lines
    from rulepack.engine.position import Position


def compile_choose(flow: "FlowCompiler", node: Node, scope: Scope) -> None:
    """Compile a ``choose``: its decision (a :class:`Choice` of the flow), the
    instruction that suspends the game there, and each action's body (entered
    when the action is taken), which jumps to the end of the ``choose``."""
    if not node.get("by") and scope.in_turns == 0:
        raise flow.error("this choose is outside any 'turns' loop, so there is no current "
                         "player: say who chooses with 'choose by ...'", node, scope,
                         code="nobody-chooses")
    by = flow.exprs.compile(node["by"], scope) if node.get("by") else None
    choice = Choice(len(flow.choices), by, at=node.get("at"))
    flow.choices.append(choice)
    done = Label()
    det = scope.child(deterministic=True)
    for i, alt in enumerate(node["actions"]):
        try:
            choice.alternatives.append(_alternative(flow, i, alt, scope, det))
        except SemanticError as exc:
            # report it, and go on with the other actions to find their mistakes too
            flow.errors.extend(exc.diagnostics)
            choice.alternatives.append(Alternative(i, alt["text"], [], [], None, None,
                                                   Label(), alt.get("at")))

    def factory(pc: int) -> Instr:
        choice.pc = pc

        def choose(st: "Position") -> int:
            engine_flow.suspend(st, choice)
            return SUSPEND
        return choose

    def src(pc: int, g: FlowGen) -> tuple[Lines, bool]:
        c = g.const(choice)
        if by is not None:
            return [f"_suspend(st, {c})", f"return {SUSPEND}"], True
        # State.suspend inline for the current player (the common case)
        return ["N = V['current']",
                "if type(N) is Player:",
                f"    st.pending = {c}", f"    st.pc = {pc}", "    st.decider = N",
                "    st.legal = None",
                "else:", f"    _suspend(st, {c})",
                f"return {SUSPEND}"], True
    flow.emit(factory, node, src)
    flow.jump(done, node)  # never reached: applying an action jumps into its body
    for alt_ir, alternative in zip(node["actions"], choice.alternatives):
        flow.place(alternative.body)
        names = [n for p in alt_ir["params"] for n in _bind_names(p["bind"])]
        body_scope = scope.with_locals(*[n for n in names if n not in scope.locals])
        body_scope.in_action += 1
        changed = {n["name"] for n in ir_nodes(alt_ir.get("body") or [])
                   if n.get("k") == "set"}
        for p in alt_ir["params"]:
            if isinstance(p["bind"], str) and p["bind"] not in changed:
                # a parameter's value is one of its source's elements
                kind = flow.exprs.source.element_kind(p["in"], body_scope)
                if kind is not None:
                    body_scope.kinds[p["bind"]] = kind
        flow.block(alt_ir.get("body") or [], body_scope)
        flow.jump(done, alt_ir)
    flow.place(done)

def _alternative(flow: "FlowCompiler", i: int, alt: Node, scope: Scope, det: Scope
                 ) -> Alternative:
    """Compile one ``action`` of a ``choose``: parameters, text, guard."""
    params = []
    names_so_far: list[str] = []
    pscope = det
    for param in alt["params"]:
        names = _bind_names(param["bind"])
        for nm in names:
            flow.check_new_local(nm, param, scope)
            if nm in names_so_far or names.count(nm) > 1:
                raise flow.error(f"this action names its parameter {nm!r} twice", param,
                                 scope, code="shadowing")
        if len(names) == 1:
            source = flow.exprs.compile_filtered(param["in"], pscope, names[0])
        else:
            source = flow.exprs.compile(param["in"], pscope)
        params.append((names, make_binder(param["bind"]), source))
        names_so_far.extend(names)
        flow.names.extend(names)
        pscope = pscope.with_locals(*names)
    _check_template(flow, alt, names_so_far, scope,
                         [_bind_names(p["bind"]) for p in alt["params"]])
    pre = post = None
    if alt.get("guard") is not None:
        if names_in(alt["guard"]) & set(names_so_far):
            post = flow.exprs.compile(alt["guard"], pscope)
        else:
            pre = flow.exprs.compile(alt["guard"], det)
    return Alternative(i, alt["text"], names_so_far, params, pre, post, Label(),
                       alt.get("at"), flow.inst.seat_names)

def _check_template(flow: "FlowCompiler", alt: Node, names: list[str], scope: Scope,
                    params: list[list[str]]) -> None:
    try:
        fields = template_fields(alt["text"])
    except TemplateError as exc:
        message = f"bad action text {quoted(alt['text'])}: {exc}" if exc.field is None else \
            f"action text mentions {{{exc.field}}}: write a parameter's name in braces " \
            f"({NOT_A_FORMAT})"
        raise flow.error(message, alt, scope, code="bad-template") from None
    for f in fields:
        if f not in names:
            raise flow.error(f"action text mentions {{{f}}}, which is not a parameter of "
                             "this action", alt, scope, code="bad-template")
    for bound in params:
        if not any(b in fields for b in bound):
            shown = bound[0] if len(bound) == 1 else "(" + ", ".join(bound) + ")"
            raise flow.error(f"the action text does not mention its parameter {shown}, so "
                             "two of its actions would read the same; add {"
                             f"{bound[0]}}} to the text", alt, scope, code="bad-template")


def quoted(text: str) -> str:
    """A text quoted for a message, cut to 60 characters."""
    return repr(text if len(text) <= 60 else text[:57] + "...")
