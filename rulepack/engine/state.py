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

import bisect
from typing import TYPE_CHECKING, Any, cast

from rulepack.errors import IllegalActionError, Location, RulesetRuntimeError
from rulepack.engine.actions import Action, ChanceEvent, Reveal
from rulepack.engine.log import Log
from rulepack.engine.program import HALT, Alternative, Choice
from rulepack.patterns.budget import PatternBudgetError
from rulepack.engine.rng import Rng
from rulepack.engine.runtime import RuleValueError, items, show
from rulepack.engine.values import Cell, Piece, Player, ZoneRef, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance

_MISSING = object()

#: ``current_player`` of a finished game (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

#: Instructions the flow may run between two decisions before it is an error.
#: The bundled games run at most about 130; a loop that never reaches a decision
#: is reported within seconds.
FLOW_STEP_LIMIT = 100_000

#: Decisions a game may take by default before it is stopped as runaway.
DEFAULT_MAX_DECISIONS = 100_000


class State:
    """A position of a game. Build one with ``Game.new_game``.

    Mutating methods: :meth:`apply`. Everything else reads.
    """

    #: piece id → its slot in the grid it lies on (meaningless for pieces elsewhere);
    #: built when first needed, dropped (``None``) whenever a grid changes. Shared by
    #: clones, never changed in place.
    _slots: list[int] | None = None

    def __init__(self, inst: "Instance", seed: int = 0,
                 max_decisions: int = DEFAULT_MAX_DECISIONS) -> None:
        self.inst = inst
        n_pieces = len(inst.pieces)
        self.zones: list[list[Any]] = [[] for _ in inst.zones]
        for info in inst.zones:
            if info.kind == "grid":
                self.zones[info.index] = [None] * len(info.cells)
        self.zones[0] = list(inst.pieces)
        self.loc: list[int] = [0] * n_pieces
        self.face: list[bool] = [False] * n_pieces
        self.owner: list[Any] = [None] * n_pieces
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
        self._run(0)
        self.legal_actions()        # a first decision with no legal action fails here

    # ------------------------------------------------------------------ contract
    @property
    def num_players(self) -> int:
        return self.inst.num_players

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
        """The seat that must decide now, or :data:`TERMINAL`."""
        if self.terminal or self.decider is None:
            return TERMINAL
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
            try:
                legal = self._generate(choice, int(self.decider))  # type: ignore[arg-type]
                if not legal:
                    raise RuleValueError(f"{describe(self.decider, self.inst.seat_names)} has "
                                         "no legal action here")
            except Exception as exc:
                raise self._located(exc, choice.pc) from None
            self._legal = legal
        return legal

    def apply(self, action: Action | int | str) -> None:
        """Take a legal action (an :class:`Action`, its index, or its exact text)
        and advance the flow to the next decision or the end of the game.

        :raises IllegalActionError: the action is not legal here.
        :raises RulesetRuntimeError: the ruleset fails while running (located).
        """
        legal = self.legal_actions()
        if isinstance(action, int) and not isinstance(action, bool):
            if not 0 <= action < len(legal):
                raise IllegalActionError(f"no legal action number {action}")
            action = legal[action]
        elif isinstance(action, str):
            matches = [a for a in legal if a.text == action]
            if not matches:
                raise IllegalActionError(f"no legal action {action!r}")
            action = matches[0]
        elif action not in legal:
            raise IllegalActionError(f"{action!r} is not legal now")
        self._apply(cast(Action, action))  # a bool is never among the legal actions

    def _apply(self, action: Action) -> None:
        choice = self.pending
        assert choice is not None
        alt = choice.alternatives[action.alt]
        for (_, binder, _), value in zip(alt.params, action.values):
            binder(self, value)
        self.history.append(action)
        self.pending = None
        self.decider = None
        self._legal = None
        self.decisions += 1
        if self.decisions > self.max_decisions:
            raise RulesetRuntimeError.at(
                f"the game did not end within {self.max_decisions} decisions "
                "(raise the limit with --max-decisions if the game is simply long)",
                Location(self.inst.file), code="step-limit")
        self._run(alt.body.pc)

    def result(self) -> dict[str, Any]:
        """Scores, winners and returns of a finished game (or the running scores).

        :returns: ``{"scores": [..] | None, "winners": [seats], "draw": bool,
            "returns": [1.0 for a winner, 0.0 otherwise], "terminal": bool}``.
        """
        scores = self.scores()
        if self.explicit_winners is not None:
            winners = sorted(int(w) for w in self.explicit_winners)
        elif scores is not None and self.inst.winner_rule:
            candidates = [p for p in range(self.num_players) if self.active[p]]
            if candidates:
                pick = max if self.inst.winner_rule == "highest" else min
                best = pick(scores[p] for p in candidates)
                winners = [p for p in candidates if scores[p] == best]
            else:
                winners = []
        else:
            winners = []
        return {
            "scores": scores,
            "winners": winners,
            "draw": self.terminal and not winners,
            "returns": [1.0 if p in winners else 0.0 for p in range(self.num_players)],
            "terminal": self.terminal,
        }

    def scores(self) -> list[Any] | None:
        """Each seat's score by the ruleset's ``score`` rule, or ``None`` if it has none."""
        if self.inst.score_fn is None:
            return None
        return [self.score(Player(p)) for p in range(self.num_players)]

    def score(self, player: int) -> Any:
        """One seat's score. :raises RuleValueError: if ``player`` is not a seat."""
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            raise RuleValueError(f"score() of {show(player)}, which is not a player")
        fn = self.inst.score_fn
        if fn is None:
            raise RuleValueError("the ruleset declares no score")
        name = self.inst.score_param
        saved = self.vars.get(name, _MISSING)
        self.vars[name] = Player(player)
        at = (self.inst.ir.get("score") or {}).get("at") or [None, None]
        where = Location(self.inst.file, at[0] or None, at[1] or None)
        try:
            value = fn(self)
        except (RuleValueError, PatternBudgetError) as exc:
            raise RulesetRuntimeError.at(f"the score cannot be computed: {exc}", where,
                                         code="runtime") from None
        finally:
            if saved is _MISSING:
                self.vars.pop(name, None)
            else:
                self.vars[name] = saved
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesetRuntimeError.at(f"a score must be a number, not {describe(value)!r}",
                                         where, code="bad-score")
        return value

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may know, as JSON-able data (see :mod:`rulepack.engine.views`)."""
        from rulepack.engine.views import build_view
        return build_view(self, player)

    def clone(self) -> "State":
        """An independent copy; cheap (lists of references are copied, pieces shared)."""
        c = State.__new__(State)
        c.inst = self.inst
        c.zones = [z[:] for z in self.zones]
        c._slots = self._slots
        c.loc = self.loc[:]
        c.face = self.face[:]
        c.owner = self.owner[:]
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
        return c

    def to_json(self) -> dict[str, Any]:
        """Everything about the position, hidden information included (see
        :mod:`rulepack.engine.serialize`)."""
        from rulepack.engine.serialize import state_to_json
        return state_to_json(self)

    # ------------------------------------------------------------------ the flow VM
    def _run(self, pc: int) -> None:
        code = self.inst.code
        steps = 0
        try:
            while pc >= 0:
                pc = code[pc](self)
                steps += 1
                if steps > FLOW_STEP_LIMIT:
                    pc = self._endless_loop(pc)
                    raise RuleValueError(f"the flow ran {FLOW_STEP_LIMIT} steps without a "
                                         "decision, going round this loop (does it never end?)")
        except Exception as exc:
            raise self._located(exc, pc) from None
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
        code = self.inst.code
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
            return RulesetRuntimeError.at(f"this rule cannot be carried out: {exc}", loc,
                                          code="runtime")
        return exc

    def suspend(self, choice: Choice) -> None:
        """Called by a ``choose`` instruction: stop the flow at this decision (its
        legal actions are computed when first asked for, see :meth:`legal_actions`)."""
        if choice.by is not None:
            player = choice.by(self)
        else:
            player = self.vars.get("current")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.num_players:
            raise RuleValueError(f"a decision needs a player to make it, not {show(player)}")
        self.pending = choice
        self.pc = choice.pc
        self.decider = Player(player)
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

    # ------------------------------------------------------------------ primitives
    def chance_choice(self, options: list[Any]) -> Any:
        """A random element (a chance event, recorded in :attr:`history`)."""
        if not options:
            raise RuleValueError("random() of an empty list")
        value = options[self.rng.below(len(options))] if len(options) > 1 else options[0]
        self.history.append(ChanceEvent("random", "choice", value))
        return value

    def shuffle(self, zone: ZoneRef) -> None:
        """Shuffle a zone (a chance event). In a grid, the pieces change cells."""
        z = self.zones[zone.index]
        if self.inst.zone_kinds[zone.index] == "pile":
            raise RuleValueError(f"{zone.label} is a pile, which keeps no order to shuffle "
                                 "(make it a stack or a row)")
        if self.inst.zones[zone.index].kind == "grid":
            slots = [i for i, p in enumerate(z) if p is not None]
            pieces = [z[i] for i in slots]
            self.rng.shuffle(pieces)
            for i, p in zip(slots, pieces):
                z[i] = p
            self._slots = None
        else:
            self.rng.shuffle(z)
        self.history.append(ChanceEvent("shuffle", zone.label))

    def move(self, pieces: list[Piece], dest: ZoneRef | Cell, face_up: bool | None,
             bottom: bool = False) -> None:
        """Move pieces, in order, to a zone (or one grid cell); set their face if given."""
        kinds = self.inst.zone_kinds
        zones = self.zones
        loc = self.loc
        if len(pieces) > 8 and type(dest) is ZoneRef and kinds[dest.index] != "grid" and \
                self._move_many(pieces, dest, face_up, bottom):
            return
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be moved, not {show(piece)}")
            z = loc[piece.id]
            src = zones[z]
            try:
                i = src.index(piece)
            except ValueError:
                raise RuleValueError(f"{piece.name} is not where it should be") from None
            if kinds[z] == "grid":
                src[i] = None
                self._slots = None
            else:
                del src[i]
                if kinds[z] == "groups":
                    self.groupings.pop(z, None)
            if type(dest) is Cell:
                target = zones[dest.zone]
                if target[dest.slot] is not None:
                    raise RuleValueError(f"cell {dest} is not empty")
                target[dest.slot] = piece
                loc[piece.id] = dest.zone
                self._slots = None
            else:
                target = zones[dest.index]
                kind = kinds[dest.index]
                if kind == "pile":
                    bisect.insort(target, piece)
                elif kind == "grid":
                    try:
                        target[target.index(None)] = piece
                    except ValueError:
                        raise RuleValueError(f"{dest.label} is full") from None
                    self._slots = None
                elif bottom:
                    target.insert(0, piece)
                else:
                    target.append(piece)
                if kind == "groups":
                    self.groupings.pop(dest.index, None)
                loc[piece.id] = dest.index
            if face_up is not None:
                self.face[piece.id] = face_up

    def _move_many(self, pieces: list[Piece], dest: ZoneRef, face_up: bool | None,
                   bottom: bool) -> bool:
        """:meth:`move` of several pieces between zones that are not grids, each source
        filtered once instead of searched once per piece. The same result as moving
        them one by one; ``False`` (nothing changed) when that is not sure: a value
        that is not a piece, a piece twice, a piece on a grid or missing."""
        kinds = self.inst.zone_kinds
        loc = self.loc
        by_zone: dict[int, set[int]] = {}
        for piece in pieces:
            if type(piece) is not Piece:
                return False
            z = loc[piece.id]
            if kinds[z] == "grid":
                return False
            by_zone.setdefault(z, set()).add(piece.id)
        if sum(len(ids) for ids in by_zone.values()) != len(pieces):
            return False
        kept: dict[int, list[Piece]] = {}
        for z, ids in by_zone.items():
            src = self.zones[z]
            kept[z] = [p for p in src if p.id not in ids]
            if len(src) - len(kept[z]) != len(ids):
                return False
        for z, rest in kept.items():
            self.zones[z] = rest
            if kinds[z] == "groups":
                self.groupings.pop(z, None)
        target = self.zones[dest.index]
        kind = kinds[dest.index]
        if kind == "pile":
            target.extend(pieces)
            target.sort()
        elif bottom:
            target[:0] = pieces[::-1]
        else:
            target.extend(pieces)
        if kind == "groups":
            self.groupings.pop(dest.index, None)
        face = self.face
        for piece in pieces:
            loc[piece.id] = dest.index
            if face_up is not None:
                face[piece.id] = face_up
        return True

    def set_groups(self, zone: int, groups: list[list[Piece]]) -> None:
        """Reorder a ``groups`` zone as these groups (a partition of its pieces)."""
        self.zones[zone] = [p for g in groups for p in g]
        self.groupings[zone] = tuple(len(g) for g in groups)

    def groups(self, zone: int) -> list[list[Piece]] | None:
        """The groups of a ``groups`` zone, or ``None`` while it is not arranged."""
        sizes = self.groupings.get(zone)
        if sizes is None:
            return None
        out, i = [], 0
        pieces = self.zones[zone]
        for n in sizes:
            out.append(pieces[i:i + n])
            i += n
        return out

    def flip(self, pieces: list[Piece], up: bool | None) -> None:
        """Turn pieces face up, face down, or over (``up is None``)."""
        face = self.face
        revealed: list[Piece] = []
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be flipped, not {show(piece)}")
            was = face[piece.id]
            now = (not was) if up is None else up
            face[piece.id] = now
            if now and not was:
                revealed.append(piece)
        if revealed:
            by_zone: dict[int, list[Piece]] = {}
            for piece in revealed:
                by_zone.setdefault(self.loc[piece.id], []).append(piece)
            for z, group in by_zone.items():
                kind = self.inst.zone_kinds[z]
                places = [None if kind == "pile" else self.zones[z].index(p) for p in group]
                self.history.append(Reveal(self.inst.zones[z].label, group, places))

    def eliminate(self, player: Any) -> None:
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            raise RuleValueError(f"cannot eliminate {show(player)}: not a player")
        self.active[player] = False

    def end_game(self, winners: list[Any] | None) -> None:
        self.terminal = True
        if winners is not None:
            self.explicit_winners = [int(w) for w in winners]

    def next_active(self, player: Any) -> Player | None:
        """The next active seat clockwise after ``player`` (itself if it is the only one)."""
        n = self.num_players
        if player is None:
            return None
        player = self.seat(player)
        for k in range(1, n + 1):
            q = (int(player) + k) % n
            if self.active[q]:
                return Player(q)
        return None

    def seat(self, player: Any) -> int:
        """``player`` checked to be a seat number. :raises RuleValueError: otherwise."""
        if isinstance(player, bool) or not isinstance(player, int) or \
                not 0 <= player < self.num_players:
            raise RuleValueError(f"{show(player)} is not a player")
        return int(player)

    def seats_from(self, player: Any) -> list[Player]:
        """Active seats clockwise, starting with ``player``."""
        player = self.seat(player)
        n = self.num_players
        return [Player((player + k) % n) for k in range(n) if self.active[(player + k) % n]]

    def cells(self, zone: Any) -> list[Cell]:
        """All cells of a grid zone, row-major."""
        if type(zone) is not ZoneRef or self.inst.zones[zone.index].kind != "grid":
            raise RuleValueError(f"{show(zone)} is not a grid")
        return list(self.inst.zones[zone.index].cell_objects)

    def step(self, cell: Cell, direction: tuple[int, int]) -> Cell | None:
        """The cell next to ``cell`` in ``direction`` (row step, column step), or
        ``None`` off the grid or on a hole."""
        return self.inst.zones[cell.zone].neighbour(cell.slot, direction)

    def claim(self, pieces: list[Any], player: Any) -> None:
        """Make ``player`` (a seat, or ``None``) the owner of pieces."""
        if player is not None:
            player = Player(self.seat(player))
        owner = self.owner
        for piece in pieces:
            if type(piece) is not Piece:
                raise RuleValueError(f"only pieces can be claimed, not {show(piece)}")
            owner[piece.id] = player

    def piece_at(self, cell: Cell) -> Piece | None:
        """The piece in ``cell``, or ``None``."""
        piece: Piece | None = self.zones[cell.zone][cell.slot]
        return piece

    def cell_of(self, piece: Piece) -> Cell | None:
        """The cell ``piece`` lies in, or ``None`` when it is not on a grid."""
        z = self.loc[piece.id]
        info = self.inst.zones[z]
        if info.kind != "grid":
            return None
        slots = self._slots
        if slots is None:
            slots = self._slots = self._grid_slots()
        return info.cell_objects[slots[piece.id]]

    def _grid_slots(self) -> list[int]:
        slots = [-1] * len(self.inst.pieces)
        for info in self.inst.zones:
            if info.kind == "grid":
                for i, p in enumerate(self.zones[info.index]):
                    if p is not None:
                        slots[p.id] = i
        return slots

    def visible(self, piece: Piece, player: int) -> bool:
        """Whether ``player`` may see the identity of ``piece`` now."""
        if self.face[piece.id]:
            return True
        info = self.inst.zones[self.loc[piece.id]]
        seen = info.seen_by
        return seen == "everyone" or (seen == "owner" and info.owner == player)

    def knows(self, player: Any, piece: Any) -> bool:
        """Whether ``player`` knows which piece ``piece`` is: it can see it, or (in a
        state built by :func:`~rulepack.agents.determinize.determinize` for
        that player) it was placed from what the player saw or remembers."""
        p = self.seat(player)
        if type(piece) is not Piece:
            raise RuleValueError(f"knows() needs a piece, not {show(piece)}")
        if self.visible(piece, p):
            return True
        k = self.knowledge
        return k is not None and k[0] == p and piece.id in k[1]

    def describe_for(self, player: int | None) -> Any:
        """A value renderer that hides pieces ``player`` cannot see (``None``: show all)."""
        seats = self.inst.seat_names

        def render(value: Any) -> str:
            if type(value) is Piece and player is not None and not self.visible(value, player):
                return f"a {value.back}"
            if isinstance(value, (list, tuple)):
                return ", ".join(render(v) for v in value)
            return describe(value, seats)
        return render
