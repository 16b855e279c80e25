"""The game state: zones, faces, variables and the position of the flow.

:class:`State` implements the engine contract of DESIGN.md: ``current_player``,
``legal_actions()``, ``apply()``, ``is_terminal()``, ``result()``,
``view(player)``, ``to_json()``, ``clone()``. It knows no game: everything it
does comes from the compiled :class:`~rulepack.compiler.instance.Instance`.

Chance events (shuffles, random choices) are resolved by the state's own seeded
generator as the flow reaches them and are recorded in :attr:`State.history`
next to the players' actions, so one seed fixes the whole game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.errors import IllegalActionError, Location, RulesetRuntimeError
from rulepack.engine.actions import Action, ChanceEvent, Reveal
from rulepack.engine.effects import Effects
from rulepack.engine.chance import CHANCE, ExplicitChance
from rulepack.engine.ids import ActionIds
from rulepack.engine.observe import Observations, past_longest
from rulepack.engine.log import Log
from rulepack.engine.program import HALT, Alternative, Choice
from rulepack.patterns.budget import PatternBudgetError
from rulepack.engine.rng import Rng
from rulepack.engine.start import PROBE_LIMIT, RefusingRng, Start, find_start
from rulepack.engine.runtime import EVAL_STEPS, RuleValueError, failure_text, items, show
from rulepack.engine.values import Player, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance

#: what the history holds, importable from here as before
__all__ = ["State", "Action", "ChanceEvent", "Reveal", "TERMINAL", "CHANCE", "DEFAULT_MAX_DECISIONS",
           "FLOW_STEP_LIMIT"]

_MISSING = object()

#: ``current_player`` of a finished game (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

#: Steps the flow may run between two decisions before it is an error: a step is
#: an instruction on the closures, a generated block (several instructions, and
#: the short blocks it always goes on to; a block that jumps back to its own start
#: goes round up to ``FlowGen.SELF_LOOP_ROUNDS`` times in one step) with generated
#: code, so where exactly a long loop is stopped depends on the code's shape, not
#: whether it is.
#: The bundled games run at most about 130; a loop that never reaches a decision
#: is reported within seconds.
FLOW_STEP_LIMIT = 100_000

#: Decisions a game may take by default before it is stopped as runaway.
DEFAULT_MAX_DECISIONS = 100_000


class State(ActionIds, ExplicitChance, Observations, Effects):
    """A position of a game. Build one with ``Game.new_game``.

    A game of an instance whose code is generated begins as a copy of the
    instance's start (:mod:`rulepack.engine.start`): the part of the flow before
    the first chance event runs once per instance, not once per game.

    ``generate=False`` runs it on the closures if the instance has not generated
    its code yet (checking a ruleset sets up one game and needs no fast code).

    Mutating methods: :meth:`apply`. Everything else reads. Its data and queries
    are those of :class:`~rulepack.engine.table.Table`, the changes the flow makes
    those of :class:`~rulepack.engine.effects.Effects`.
    """

    #: the budget of loop elements left (see :func:`~rulepack.engine.runtime.charge`);
    #: a state made another way than ``__init__`` (restored from JSON) starts full
    steps_left: int = EVAL_STEPS
    #: the block ``_run`` is running (``None`` outside it): where a chance event is drawn
    _block: int | None = None

    def __init__(self, inst: "Instance", seed: int = 0,
                 max_decisions: int = DEFAULT_MAX_DECISIONS, generate: bool = True,
                 chance: str = "sampled") -> None:
        if generate:
            inst.prepare()     # the instance's generated code, made before its first game
            start = inst.start
            if start and chance == "sampled":
                self._start_from(*start, seed, max_decisions)
                return
        self._fields(inst, seed, max_decisions)
        self._initial_values()
        if chance != "sampled":
            from rulepack.engine import chance as explicit
            explicit.start(self, chance)
        else:
            self._run(0)
        if self.rng.node is None:
            self.legal_actions()    # a first decision with no legal action fails here

    def _fields(self, inst: "Instance", seed: int, max_decisions: int) -> None:
        """The fields of a state of ``inst`` before its flow runs."""
        self.inst = inst
        n_pieces = len(inst.pieces)
        self.zones: list[list[Any]] = [[] for _ in inst.zones]
        for info in inst.zones:
            if info.kind == "grid":
                self.zones[info.index] = [None] * len(info.cells)
        self.zones[0] = list(inst.pieces)
        self._owned = set(range(len(self.zones)))
        self.loc: list[int] = [0] * n_pieces
        self.face: list[bool] = [False] * n_pieces
        self.owner: list[Any] = [None] * n_pieces
        self.rolled: dict[int, Any] = {}
        self.active: list[bool] = [True] * inst.num_players
        self.vars: dict[str, Any] = {"current": None, "round": 0}
        self.rng = Rng(seed)
        self.seed = seed
        self.pc = 0
        self.pending: Choice | None = None
        self.decider: Player | None = None
        self._legal: list[Action] | None = None
        self.terminal = False
        self.explicit_winners: list[int] | None = None
        #: every action, chance event and reveal so far, in order (shared by clones)
        self.history = Log()
        self.decisions = 0
        self.turn_count = 0
        self.max_decisions = max_decisions
        self.knowledge: tuple[int, frozenset[int]] | None = None
        self.groupings: dict[int, tuple[int, ...]] = {}
        #: what the pattern searches keep between their questions in this game
        #: (rulepack.patterns.partition.GameMemo), shared by clones: it changes
        #: no answer, and a new game starts without it
        self.memo: dict[Any, Any] = {}
        #: what is left of the budget of loop elements (see runtime.charge), renewed
        #: whenever the flow runs and whenever legal actions are listed
        self.steps_left = EVAL_STEPS

    def _initial_values(self) -> None:
        """Set the declared variables to their initial values."""
        inst = self.inst
        for name in inst.var_inits:
            try:
                self.vars[name] = inst.initial_value(self, name)
            except RuleValueError as exc:
                decl: dict[str, Any] = next(
                    (v for v in inst.ir.get("variables", []) if v["name"] == name), {})
                at = decl.get("at") or [None, None]
                raise RulesetRuntimeError.at(
                    f"the initial value of {name!r} cannot be computed: {exc}",
                    Location(inst.file, at[0] or None, at[1] or None), code="bad-value") from None

    @staticmethod
    def find_start(inst: "Instance") -> "Start | None":
        """Where every game of ``inst`` starts, whatever its seed (see
        :mod:`rulepack.engine.start`), found on the instructions' closures."""
        def unstarted() -> State:
            st = State.__new__(State)
            st._fields(inst, 0, DEFAULT_MAX_DECISIONS)
            st.rng = RefusingRng()
            st._initial_values()
            return st
        return find_start(unstarted, PROBE_LIMIT)

    def _start_from(self, start: "State", pc: int, seed: int, max_decisions: int) -> None:
        """Begin a game as a copy of ``start`` (the instance's start: see
        :mod:`rulepack.engine.start`), then run its flow on from instruction ``pc`` with
        the game's generator (``pc == -1``: ``start`` is at a decision)."""
        self.inst = start.inst
        self.zones = start.zones[:]         # shared until written (copy on write)
        self._owned = set()
        start._owned = set()
        self._cells = start._cells
        self.loc = start.loc[:]
        self.face = start.face[:]
        self.owner = start.owner[:]
        self.rolled = start.rolled
        self.active = start.active[:]
        self.vars = dict(start.vars)
        self.rng = Rng(seed)
        self.seed = seed
        self.pc = start.pc
        self.pending = start.pending
        self.decider = start.decider
        self._legal = None
        self.terminal = False
        self.explicit_winners = start.explicit_winners
        self.history = start.history.clone()
        self.decisions = start.decisions
        self.turn_count = start.turn_count
        self.max_decisions = max_decisions
        self.knowledge = start.knowledge
        self.groupings = dict(start.groupings)
        self.memo = {}
        self.steps_left = start.steps_left
        if pc >= 0:
            # the prefix and the rest of the flow share one budget, as in one run
            self._run(pc, start.steps_left)
        if self.rng.node is None:
            self.legal_actions()    # a first decision with no legal action fails here

    # ------------------------------------------------------------------ contract
    @property
    def round(self) -> int:
        """The number of the current round (1-based; 0 before any ``rounds`` loop)."""
        return int(self.vars.get("round") or 0)

    @property
    def turn_player(self) -> int | None:
        """The seat whose turn it is (``current``), or ``None`` outside turns."""
        current = self.vars.get("current")
        return None if current is None else int(current)

    @property
    def current_player(self) -> int:
        """The seat that must decide now, :data:`CHANCE` at a chance node
        (explicit chance only), or :data:`TERMINAL`."""
        if self.terminal or self.decider is None:
            return CHANCE if self.rng.node is not None else TERMINAL
        return int(self.decider)

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list[Action]:
        """The legal actions of the pending decision, in canonical order.

        They are computed when first asked for, not when the flow stops at the
        decision: a bot that only weighs the position an action leads to never
        pays for them. The list is shared with the state: do not modify it.
        Empty when the game is over.

        :raises RulesetRuntimeError: the player has no legal action, or a guard or
            parameter of an action cannot be computed (located at the ``choose``).
        """
        legal = self._legal
        if legal is None:
            choice = self.pending
            if choice is None:
                return []
            self.steps_left = EVAL_STEPS
            try:
                generate = choice.generate
                if generate is not None:
                    legal = generate(self, self.decider)  # type: ignore[arg-type]
                else:
                    legal = self._generate(choice, int(self.decider))  # type: ignore[arg-type]
                if not legal:
                    raise RuleValueError(f"{describe(self.decider, self.inst.seat_names)} has "
                                         "no legal action here")
            except Exception as exc:
                raise self._located(exc, choice.pc) from None
            self._legal = legal
        return legal

    def apply(self, action: Action | str) -> list[Any]:
        """Take a legal action (an :class:`Action` or its exact text) and advance
        the flow to the next decision or the end of the game. A number is never
        read as a position in the legal list: a stable id goes to :meth:`apply_id`.

        :returns: the history entries it ran through, in order: the action, then
            chance events, reveals... (one ``apply()`` may run through reveals,
            the end of a round and the next shuffle).

        :raises IllegalActionError: the action is not legal here (or is a number).
        :raises RulesetRuntimeError: the ruleset fails while running (located).
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if type(action) is Action:
            # the legal actions come from the instance's action table, so the one
            # asked for is usually the very object listed (found by identity; a
            # plain loop beats any(map(is_, ...)) at every length)
            for listed in legal:
                if listed is action:
                    break
            else:
                if action not in legal:
                    raise IllegalActionError(f"{action!r} is not legal now")
        elif isinstance(action, int):
            raise IllegalActionError(f"apply() takes an Action or its text, not the number "
                                     f"{action!r} (a stable action id goes to apply_id())")
        elif isinstance(action, str):
            matches = [a for a in legal if a.text == action]
            if not matches:
                raise IllegalActionError(f"no legal action {action!r}")
            action = matches[0]
        else:
            raise IllegalActionError(f"{action!r} is not legal now")
        history = self.history
        start = history._n          # len(history), read directly: apply() is hot
        if self.rng.explicit:
            self._take(action)      # (stops at chance nodes: rulepack.engine.chance)
        else:
            self._apply(action)     # (what _take does then, without its call)
        history = self.history      # (explicit chance may have put back another log)
        return history._items[start:history._n]     # history.since(start)

    def _apply(self, action: Action) -> None:
        choice = self.pending
        assert choice is not None
        alt = choice.alternatives[action.alt]
        names = alt.single_names
        if names is not None:
            if len(names) == 1:
                self.vars[names[0]] = action.values[0]
            elif names:
                self.vars.update(zip(names, action.values))
        else:
            for (_, binder, _), value in zip(alt.params, action.values):
                binder(self, value)
        history = self.history
        if len(history._items) == history._n:      # Log.append, inline (the common case)
            history._items.append(action)
            history._n += 1
        else:
            history.append(action)
        self.pending = None
        self.decider = None
        self._legal = None
        self.decisions += 1
        if self.decisions > self.max_decisions:
            if self.decisions > (self.inst.longest or self.decisions):
                raise past_longest(self.inst)
            at = choice.at or [0, 0]   # located at the decision that went over
            raise RulesetRuntimeError.at(
                f"the game did not end within {self.max_decisions} decisions "
                "(if the game is simply long, raise the limit: --max-decisions on the command line, new_game(max_decisions=...) in Python)",
                Location(self.inst.file, at[0] or None, at[1] or None), code="step-limit")
        self._run(alt.body.pc)

    def result(self) -> dict[str, Any]:
        """Scores, winners and returns of a finished game (or the running scores):
        see :func:`rulepack.engine.outcome.outcome` for the keys."""
        from rulepack.engine.outcome import outcome
        return outcome(self)

    def scores(self) -> list[Any] | None:
        """Each seat's score by the ruleset's ``score`` rule, or ``None`` if it has none."""
        if self.inst.score_fn is None:
            return None
        return [self.score(Player(p)) for p in range(self.num_players)]

    def score(self, player: int) -> Any:
        """One seat's score. Its evaluation has the steps of a decision to itself
        (:data:`~rulepack.engine.runtime.EVAL_STEPS`) and leaves the state's as
        they were. :raises RuleValueError: if ``player`` is not a seat."""
        if type(player) is not Player:          # (a Player is always a seat)
            if not isinstance(player, int) or not 0 <= player < self.num_players:
                raise RuleValueError(f"score() of {show(player)}, which is not a player")
            player = Player(player)
        inst = self.inst
        if inst.score_fn is None:
            raise RuleValueError("the ruleset declares no score")
        of = inst.score_of
        steps_left = self.steps_left
        self.steps_left = EVAL_STEPS
        try:
            if of is not None:
                value = of(self, player)        # (generated: the player an argument)
            else:
                value = self._score_by_variable(player)
        except (RuleValueError, PatternBudgetError) as exc:
            raise RulesetRuntimeError.at(f"the score cannot be computed: {exc}",
                                         self._score_location(), code="runtime") from None
        finally:
            self.steps_left = steps_left
        t = type(value)
        if t is not int and (t is bool or not isinstance(value, (int, float))):
            raise RulesetRuntimeError.at(f"a score must be a number, not {describe(value)!r}",
                                         self._score_location(), code="bad-score")
        return value

    def _score_by_variable(self, player: Player) -> Any:
        """The score of ``player`` on the closures: its parameter set as a variable
        while the score's expression runs, then put back."""
        inst = self.inst
        fn = inst.score_fn
        assert fn is not None      # (State.score checks)
        name = inst.score_param
        variables = self.vars
        saved = variables.get(name, _MISSING)
        variables[name] = player
        try:
            return fn(self)
        finally:
            if saved is _MISSING:
                del variables[name]
            else:
                variables[name] = saved

    def _score_location(self) -> Location:
        at = (self.inst.ir.get("score") or {}).get("at") or [None, None]
        return Location(self.inst.file, at[0] or None, at[1] or None)

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as JSON-able data (see :mod:`rulepack.engine.views`)."""
        from rulepack.engine.views import build_view
        return build_view(self, player)

    def clone(self) -> "State":
        """An independent copy; cheap (lists of references are copied, pieces shared)."""
        c = State.__new__(State)
        c.inst = self.inst
        c.zones = self.zones[:]         # the zones' lists are shared until one side writes
        c._owned = set()
        self._owned = set()
        c._cells = self._cells
        c.loc = self.loc[:]
        c.face = self.face[:]
        c.owner = self.owner[:]
        c.rolled = self.rolled          # replaced by a roll, never changed in place
        c.active = self.active[:]
        c.vars = dict(self.vars)
        c.rng = self.rng.clone()
        c.seed = self.seed
        c.pc = self.pc
        c.pending = self.pending
        c.decider = self.decider
        c._legal = self._legal
        c.terminal = self.terminal
        c.explicit_winners = self.explicit_winners
        c.history = self.history.clone()
        c.decisions = self.decisions
        c.turn_count = self.turn_count
        c.max_decisions = self.max_decisions
        c.knowledge = self.knowledge
        c.groupings = dict(self.groupings)
        c.memo = self.memo
        c.steps_left = self.steps_left
        return c

    def to_json(self, history: bool = True) -> dict[str, Any]:
        """Everything about the position, hidden information included (see
        :mod:`rulepack.engine.serialize`); ``history=False``: without the history."""
        from rulepack.engine.serialize import state_to_json
        return state_to_json(self, history)

    # ------------------------------------------------------------------ the flow VM
    def _run(self, pc: int, budget: int = EVAL_STEPS) -> None:
        code = self.inst.code
        steps = 0
        self.steps_left = budget
        try:
            while pc >= 0:
                self._block = pc        # for the position of a chance event (drawn.py)
                pc = code[pc](self)
                steps += 1
                if steps > FLOW_STEP_LIMIT:
                    pc = self._endless_loop(pc)
                    raise RuleValueError(f"the flow ran {FLOW_STEP_LIMIT} steps without a "
                                         "decision, going round this loop (does it never end?)")
        except Exception as exc:
            self._block = None
            # a generated block leaves the instruction it was running in _fault
            raise self._located(exc, self.__dict__.pop("_fault", pc)) from None
        self._block = None
        if pc == HALT:
            self.terminal = True
            self.pending = None
            self.decider = None
            self._legal = None

    def _endless_loop(self, pc: int, probe: int = 10_000) -> int:
        """The instruction to blame when the flow has run too long from ``pc``
        without a decision: runs up to ``probe`` more steps (the state is lost
        anyway) and returns the back jump of the loop that went round the fewest
        times, at least twice: the outermost loop still going round (inner loops
        that end go round more often). Loops compile to back jumps (a jump to an
        earlier instruction) whose rule is the loop's; phases are inlined, so
        nothing else jumps back. Returns ``pc`` if no loop went round twice."""
        code = self.inst.steps
        rounds: dict[int, int] = {}
        try:
            for _ in range(probe):
                nxt = code[pc](self)
                if 0 <= nxt <= pc:
                    rounds[pc] = rounds.get(pc, 0) + 1
                if nxt < 0:
                    break
                pc = nxt
        except Exception:  # noqa: BLE001 - only looking for the loop; the first error stands
            pass
        going = [(n, jump) for jump, n in rounds.items() if n >= 2]
        return min(going)[1] if going else pc

    def _located(self, exc: Exception, pc: int) -> Exception:
        """The error to raise for ``exc``, met while running instruction ``pc``: a
        :class:`RulesetRuntimeError` located at that instruction's rule. Errors of
        the engine itself (``AssertionError`` and the like) pass unchanged."""
        node = self.inst.code_nodes[pc] if 0 <= pc < len(self.inst.code) else None
        at = node.get("at") if isinstance(node, dict) else None
        loc = Location(self.inst.file, at[0], at[1]) if at and at[0] else Location(self.inst.file)
        if isinstance(exc, (RuleValueError, PatternBudgetError)):
            return RulesetRuntimeError.at(str(exc), loc, code="runtime")
        if isinstance(exc, RecursionError):
            return RulesetRuntimeError.at("the ruleset recursed too deeply",
                                          Location(self.inst.file), code="runtime")
        if isinstance(exc, (TypeError, ValueError, IndexError, KeyError, AttributeError,
                            ZeroDivisionError, OverflowError)):
            # A value of an unexpected kind reached an operation that does not check
            # for it; still the user's ruleset, so still a located message.
            return RulesetRuntimeError.at("this rule cannot be carried out: "
                                          + failure_text(exc), loc,
                                          code="runtime")
        return exc

    def suspend(self, choice: Choice) -> None:
        """Called by a ``choose`` instruction: stop the flow at this decision (its
        legal actions are computed when first asked for, see :meth:`legal_actions`)."""
        if choice.by is not None:
            player = choice.by(self)
        else:
            player = self.vars.get("current")
        if type(player) is not Player:
            if not isinstance(player, int) or isinstance(player, bool) or \
                    not 0 <= player < self.num_players:
                raise RuleValueError(f"a decision needs a player to make it, not {show(player)}")
            player = Player(player)
        self.pending = choice
        self.pc = choice.pc
        self.decider = player
        self._legal = None

    def _generate(self, choice: Choice, player: int) -> list[Action]:
        """The legal actions of ``choice``. The action parameters it binds while it
        tries them are put back as they were: asking changes nothing in the state."""
        out: list[Action] = []
        saved = {name: self.vars.get(name, _MISSING) for name in choice.bound_names}
        try:
            for alt in choice.alternatives:
                if alt.pre_guard is not None and not alt.pre_guard(self):
                    continue
                if not alt.params:
                    if alt.post_guard is None or alt.post_guard(self):
                        out.append(Action(choice.index, alt, (), player))
                    continue
                self._expand(choice, alt, 0, (), player, out)
        finally:
            for name, value in saved.items():
                if value is _MISSING:
                    self.vars.pop(name, None)
                else:
                    self.vars[name] = value
        return out

    def _expand(self, choice: Choice, alt: Alternative, i: int, values: tuple[Any, ...],
                player: int, out: list[Action]) -> None:
        names, binder, source = alt.params[i]
        candidates = list(items(self, source(self)))
        if i < len(alt.params) - 1:
            for value in candidates:
                binder(self, value)
                self._expand(choice, alt, i + 1, values + (value,), player, out)
            return
        post_guard = alt.post_guard
        index = choice.index
        if post_guard is None:
            # nothing reads the last parameter: no need to bind it
            if len(names) > 1:
                for value in candidates:
                    binder(self, value)    # checks that a tuple destructures
            out += [Action(index, alt, values + (value,), player) for value in candidates]
            return
        for value in candidates:
            binder(self, value)
            if post_guard(self):
                out.append(Action(index, alt, values + (value,), player))
