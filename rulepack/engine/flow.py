"""Running a program's flow on a position: to the next decision, its legal
actions, and an action's effects.

The flow is the program's list of instructions (``code[pc](position) -> next
pc``): :func:`run` runs it from an instruction until a decision is pending
(:data:`~rulepack.engine.program.SUSPEND`) or the game is over
(:data:`~rulepack.engine.program.HALT`); a ``choose`` instruction calls
:func:`suspend`. :func:`legal` lists the pending decision's actions, and
:func:`take` applies one (its parameters bound, its body run). Errors of the
ruleset come out as :class:`~rulepack.errors.RulesetRuntimeError` located at the
statement that failed (:func:`located`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rulepack.engine import lookahead
from rulepack.engine.actions import Action
from rulepack.engine.program import HALT, Alternative, Choice
from rulepack.engine.runtime import EVAL_STEPS, RuleValueError, failure_text, items, show
from rulepack.engine.values import Player, describe
from rulepack.errors import Diagnostic, Location, RulesetRuntimeError
from rulepack.patterns.budget import PatternBudgetError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position
    from rulepack.engine.program import Program

#: Steps the flow may run between two decisions before it is an error: a step is
#: an instruction (one at a time), or a generated block (several instructions, and
#: the short blocks it always goes on to; a block that jumps back to its own start
#: goes round up to ``FlowGen.SELF_LOOP_ROUNDS`` times in one step), so where
#: exactly a long loop is stopped depends on the code's shape, not whether it is.
#: The bundled games run at most about 130; a loop that never reaches a decision
#: is reported within seconds.
FLOW_STEP_LIMIT = 100_000

#: Decisions a game may take by default before it is stopped as runaway.
DEFAULT_MAX_DECISIONS = 100_000

#: ``current_player`` at a chance node (OpenSpiel's kChancePlayerId).
CHANCE = -1

#: ``current_player`` of a finished game (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

_MISSING = object()


def current_player(st: "Position") -> int:
    """The seat that must decide now, :data:`CHANCE` at a chance node (explicit
    chance only), or :data:`TERMINAL`."""
    if st.terminal or st.decider is None:
        return CHANCE if st.rng.node is not None else TERMINAL
    return int(st.decider)


def initial_values(st: "Position") -> None:
    """Set the declared variables to their initial values.

    :raises RulesetRuntimeError: one cannot be computed (located at its declaration)."""
    program = st.program
    for name, (per, fn) in program.initial.items():
        try:
            st.vars[name] = fn(st) if per is None else \
                [fn(st) for _ in range(cast(int, program.entries(name)))]
        except RuleValueError as exc:
            raise RulesetRuntimeError.at(
                f"the initial value of {name!r} cannot be computed: {exc}",
                program.variable_locations.get(name, Location(program.file)),
                code="bad-value") from None


def run(st: "Position", pc: int, budget: int = EVAL_STEPS) -> None:
    """Run the flow from instruction ``pc`` to the next decision or the end, with
    ``budget`` loop and search steps (:func:`rulepack.engine.runtime.charge`).

    :raises RulesetRuntimeError: the ruleset fails (located), or the flow runs
        :data:`FLOW_STEP_LIMIT` steps without a decision."""
    code = st.program.code
    steps = 0
    st.steps_left = budget
    try:
        while pc >= 0:
            st.block = pc        # for the position of a chance event (drawn.py)
            pc = code[pc](st)
            steps += 1
            if steps > FLOW_STEP_LIMIT:
                pc = _endless_loop(st, pc)
                raise RuleValueError(f"the flow ran {FLOW_STEP_LIMIT} steps without a "
                                     "decision, going round this loop (does it never end?)")
    except Exception as exc:
        st.block = None
        # a generated block leaves the instruction it was running in ``fault``
        fault = st.fault
        st.fault = None
        raise located(st, exc, pc if fault is None else fault) from None
    st.block = None
    if pc == HALT:
        st.terminal = True
        st.pending = None
        st.decider = None
        st.legal = None


def _endless_loop(st: "Position", pc: int, probe: int = 10_000) -> int:
    """The instruction to blame when the flow has run too long from ``pc``
    without a decision: runs up to ``probe`` more steps (the position is lost
    anyway) and returns the back jump of the loop that went round the fewest
    times, at least twice: the outermost loop still going round (inner loops
    that end go round more often). Loops compile to back jumps (a jump to an
    earlier instruction) whose rule is the loop's; phases are inlined, so
    nothing else jumps back. Returns ``pc`` if no loop went round twice."""
    code = st.program.steps
    rounds: dict[int, int] = {}
    try:
        for _ in range(probe):
            nxt = code[pc](st)
            if 0 <= nxt <= pc:
                rounds[pc] = rounds.get(pc, 0) + 1
            if nxt < 0:
                break
            pc = nxt
    except Exception:  # noqa: BLE001 - only looking for the loop; the first error stands
        pass
    going = [(n, jump) for jump, n in rounds.items() if n >= 2]
    return min(going)[1] if going else pc


def located(st: "Position", exc: Exception, pc: int) -> Exception:
    """The error to raise for ``exc``, met while running instruction ``pc``: a
    :class:`RulesetRuntimeError` located at that instruction's rule. Errors of
    the engine itself (``AssertionError`` and the like) pass unchanged."""
    program = st.program
    loc = program.location(pc)
    if isinstance(exc, (RuleValueError, PatternBudgetError)):
        return RulesetRuntimeError.at(str(exc), loc, code="runtime")
    if isinstance(exc, RecursionError):
        return RulesetRuntimeError.at("the ruleset recursed too deeply",
                                      Location(program.file), code="runtime")
    if isinstance(exc, (TypeError, ValueError, IndexError, KeyError, AttributeError,
                        ZeroDivisionError, OverflowError)):
        # A value of an unexpected kind reached an operation that does not check
        # for it; still the user's ruleset, so still a located message.
        return RulesetRuntimeError.at("this rule cannot be carried out: " + failure_text(exc),
                                      loc, code="runtime")
    return exc


def suspend(st: "Position", choice: Choice) -> None:
    """Called by a ``choose`` instruction: stop the flow at this decision (its
    legal actions are listed when first asked for, see :func:`legal`).

    :raises RuleValueError: nobody (no seat) is to take it."""
    if choice.by is not None:
        player = choice.by(st)
    else:
        player = st.vars.get("current")
    if type(player) is not Player:
        if not isinstance(player, int) or isinstance(player, bool) or \
                not 0 <= player < st.program.num_players:
            raise RuleValueError(f"a decision needs a player to make it, not {show(player)}")
        player = Player(player)
    st.pending = choice
    st.pc = choice.pc
    st.decider = player
    st.legal = None


def legal(st: "Position") -> list[Action]:
    """The legal actions of the pending decision, in canonical order (listed when
    first asked for, then kept with the position: do not change the list); empty
    when no decision is pending. Inside a ``maximize`` block, only the actions
    from which the block's highest value can still be reached
    (:mod:`rulepack.engine.lookahead`).

    :raises RulesetRuntimeError: the player has no legal action, or a guard or
        parameter of an action cannot be computed (located at the ``choose``), or
        the look-ahead of a ``maximize`` block fails."""
    actions = st.legal
    if actions is None:
        choice = st.pending
        if choice is None:
            return []
        decider = st.decider
        assert decider is not None
        st.steps_left = EVAL_STEPS
        try:
            generate = choice.generate
            if generate is not None:
                actions = generate(st, decider)
            else:
                actions = _generate(st, choice, int(decider))
            if not actions:
                raise RuleValueError(f"{describe(decider, st.program.seat_names)} has "
                                     "no legal action here")
            if choice.maximize is not None and st.probe is None and len(actions) > 1:
                actions = lookahead.best(st, choice.maximize, actions, take, legal)
        except Exception as exc:
            raise located(st, exc, choice.pc) from None
        st.legal = actions
    return actions


def _generate(st: "Position", choice: Choice, player: int) -> list[Action]:
    """The legal actions of ``choice`` on the closures. The action parameters it
    binds while it tries them are put back as they were: asking changes nothing."""
    out: list[Action] = []
    variables = st.vars
    saved = {name: variables.get(name, _MISSING) for name in choice.bound_names}
    try:
        for alt in choice.alternatives:
            if alt.pre_guard is not None and not alt.pre_guard(st):
                continue
            if not alt.params:
                if alt.post_guard is None or alt.post_guard(st):
                    out.append(Action(choice.index, alt, (), player))
                continue
            _expand(st, choice, alt, 0, (), player, out)
    finally:
        for name, value in saved.items():
            if value is _MISSING:
                variables.pop(name, None)
            else:
                variables[name] = value
    return out


def _expand(st: "Position", choice: Choice, alt: Alternative, i: int, values: tuple[object, ...],
            player: int, out: list[Action]) -> None:
    names, binder, source = alt.params[i]
    candidates = list(items(st, source(st)))
    if i < len(alt.params) - 1:
        for value in candidates:
            binder(st, value)
            _expand(st, choice, alt, i + 1, values + (value,), player, out)
        return
    post_guard = alt.post_guard
    index = choice.index
    if post_guard is None:
        # nothing reads the last parameter: no need to bind it
        if len(names) > 1:
            for value in candidates:
                binder(st, value)    # checks that a tuple destructures
        out += [Action(index, alt, values + (value,), player) for value in candidates]
        return
    for value in candidates:
        binder(st, value)
        if post_guard(st):
            out.append(Action(index, alt, values + (value,), player))


def take(st: "Position", action: Action) -> None:
    """Apply a legal ``action`` of the pending decision: bind its parameters,
    record it, and run its body and the flow on to the next decision or the end.

    :raises RulesetRuntimeError: the ruleset fails, or the game goes past its
        decisions (``max_decisions``, or the ruleset's ``at most N decisions``)."""
    choice = st.pending
    assert choice is not None
    st.said = None              # what observers noted of the position before it
    alt = choice.alternatives[action.alt]
    names = alt.single_names
    if names is not None:
        if len(names) == 1:
            st.vars[names[0]] = action.values[0]
        elif names:
            st.vars.update(zip(names, action.values))
    else:
        for (_, binder, _), value in zip(alt.params, action.values):
            binder(st, value)
    st.history.append(action)
    st.pending = None
    st.decider = None
    st.legal = None
    st.decisions += 1
    if st.decisions > st.max_decisions:
        program = st.program
        if st.decisions > (program.longest or st.decisions):
            raise past_longest(program)
        at = choice.at or [0, 0]   # located at the decision that went over
        raise RulesetRuntimeError.at(
            f"the game did not end within {st.max_decisions} decisions "
            "(if the game is simply long, raise the limit: --max-decisions on the command "
            "line, new_game(max_decisions=...) in Python)",
            Location(program.file, at[0] or None, at[1] or None), code="step-limit")
    run(st, alt.body.pc)


def action_of_id(st: "Position", ident: int) -> Action:
    """The action with stable id ``ident``: the legal one when it is legal now,
    else a new :class:`Action` (taken by the seat deciding now, or seat 0).

    :raises ValueError: no action has this id.
    :raises SemanticError: the program has no fixed action numbering."""
    if st.decider is not None:
        for a in legal(st):
            if a.id == ident:
                return a
    program = st.program
    choice, alt, values = program.action_numbering.get().decode(ident)
    alternative = program.choices[choice].alternatives[alt]
    player = int(st.decider) if st.decider is not None else 0
    return Action(choice, alternative, values, player, ident)


def past_longest(program: "Program") -> RulesetRuntimeError:
    """The error of a game that went on past the decisions its ruleset declares
    (``at most N decisions``), located at that declaration."""
    return RulesetRuntimeError(Diagnostic(
        f"the game did not end within the {program.longest} decisions its ruleset declares "
        "(at most ... decisions)", program.longest_location,
        code="past-longest", hint="a game this long shows that the bound is wrong: raise it"))
