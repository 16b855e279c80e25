"""The :class:`~rulepack.engine.program.Program` an :class:`~rulepack.compiler.instance.Instance`
hands the engine.

:func:`build_program` reads what the compiler made of a ruleset — its pieces,
zones, choices, the flow's code and the IR of each instruction — and turns it
into the engine's frozen value: per instruction its place in the ruleset and
what it draws (no IR), the score and heuristic as functions of ``(position,
player)``, what the tensors' vocabulary needs, and the deferred numbering of
actions, for a program that runs one function per instruction;
:func:`with_blocks` makes it run the generated blocks, and :func:`with_start`
adds where every game starts (found by running the flow's seed-free prefix on
the first program).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Callable

from rulepack.engine.drawn import block_positions, draws
from rulepack.engine.position import Position
from rulepack.compiler.closures import Fn
from rulepack.engine.program import (Deferred, HeuristicRule, Instr, Instruction, Program,
                                     ScoreRule, frozen_map)
from rulepack.engine.values import Player
from rulepack.errors import Location
from rulepack.ir import Node, nodes

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance

_MISSING = object()


def location(inst: "Instance", node: object) -> Location:
    """Where an IR node stands (the file alone when it has no place)."""
    at = node.get("at") if isinstance(node, dict) else None
    if at and at[0]:
        return Location(inst.file, at[0] or None, at[1] or None)
    return Location(inst.file)


def instruction(inst: "Instance", node: Node | None) -> Instruction:
    """What is known of the instruction of statement ``node``."""
    if not isinstance(node, dict):
        return Instruction(location(inst, node))
    k = node.get("k")
    subject: str | None = None
    if k == "shuffle":
        zone = node.get("zone")
        subject = zone.get("name") if isinstance(zone, dict) else None
    elif k in ("let", "set"):
        target = node.get("bind") or node.get("name")
        subject = target if isinstance(target, str) else None
    one_draw = False
    if k in ("shuffle", "let", "set"):
        one_draw = sum(1 for n in nodes(node) if n.get("k") == "shuffle"
                       or (n.get("k") == "call" and n.get("fn") == "random")) == 1
    return Instruction(location(inst, node), k, subject, draws(node, inst.drawing_calls),
                       one_draw)


def _draw_count(node: object) -> int:
    return sum(1 for n in nodes(node) if n.get("k") in ("shuffle", "roll")
               or (n.get("k") == "call" and n.get("fn") == "random"))


def replayable(inst: "Instance", instructions: tuple[Instruction, ...]) -> bool:
    """Whether every draw of the ruleset is in an instruction that draws nothing
    else, so no chance node ever sends a step back to its start (see
    :mod:`rulepack.engine.chance`). A draw outside the flow's instructions (in a
    define, say) is not seen in them: then ``False``."""
    found = 0
    known = True
    for pc, node in enumerate(inst.code_nodes):
        n = _draw_count(node) if isinstance(node, dict) else 0
        if n:
            known = known and instructions[pc].one_draw
            found += n
    return known and found == _draw_count(inst.ir)


def with_player(fn: Fn, name: str) -> Callable[[Position, Player], object]:
    """``fn`` (an expression reading the player as the variable ``name``) as a
    function of ``(position, player)``: the variable set while it runs, then put
    back."""
    def of(st: Position, player: Player) -> object:
        variables = st.vars
        saved = variables.get(name, _MISSING)
        variables[name] = player
        try:
            return fn(st)
        finally:
            if saved is _MISSING:
                del variables[name]
            else:
                variables[name] = saved
    return of


def _score(inst: "Instance") -> ScoreRule | None:
    declaration = inst.ir.get("score")
    if declaration is None or inst.score_fn is None:
        return None
    game = inst.ir.get("game") or {}
    of = inst.score_of or with_player(inst.score_fn, inst.score_param)
    return ScoreRule(of, location(inst, declaration), inst.secret_score,
                     inst.score_range, location(inst, game.get("scores")),
                     inst.score_sum, location(inst, game.get("score_sum")),
                     Deferred(inst.score_bounds))


def _heuristic(inst: "Instance") -> HeuristicRule | None:
    declaration = inst.ir.get("heuristic")
    if declaration is None or inst.heuristic_fn is None:
        return None
    search = None
    if inst.search_heuristic_fn is not None:
        search = HeuristicRule(with_player(inst.search_heuristic_fn,
                                            inst.search_heuristic_param),
                               location(inst, declaration.get("search")), inst.heuristic_after)
    return HeuristicRule(with_player(inst.heuristic_fn, inst.heuristic_param),
                         location(inst, declaration), inst.heuristic_after, search)


def _static_facts(inst: "Instance") -> tuple[bool, bool, frozenset[str]]:
    """Whether the ruleset draws chance anywhere and whether it can turn a piece
    face down; its symbols and texts."""
    chance = hiding = False
    for key in ("setup", "phases", "play", "defines"):
        for node in nodes(inst.ir.get(key)):
            k = node.get("k")
            if k in ("shuffle", "roll") or (k == "call" and node.get("fn") == "random"):
                chance = True
            if (k == "move" and node.get("face") == "down") or \
                    (k == "flip" and node.get("face") != "up"):
                hiding = True
    words = {name for name, g in inst.globals.items() if g.kind == "symbol"}
    words |= {n["value"] for n in nodes(inst.ir) if n.get("k") == "lit"
              and isinstance(n.get("value"), str)}
    return chance, hiding, frozenset(words)


def build_program(inst: "Instance", code: list[Instr],
                  blocks: dict[int, list[int]] | None, steps: list[Instr]) -> Program:
    """The program of ``inst`` running ``code`` (the generated blocks where they
    start, ``steps`` elsewhere), with no start yet.

    :param blocks: each generated block's first instruction → the instructions it
        runs (``None``: ``code`` is one function per instruction).
    :param steps: one function per instruction (generated; the closures where
        generation is off).
    """
    instructions = tuple(instruction(inst, node) for node in inst.code_nodes)
    chance, hiding, words = _static_facts(inst)
    game = inst.ir.get("game") or {}
    patterns = {name: g.value for name, g in inst.globals.items() if g.kind == "pattern"}
    variables = {v["name"]: location(inst, v) for v in inst.ir.get("variables", [])}
    program = Program(
        name=inst.name, file=inst.file, options=frozen_map(inst.options),
        num_players=inst.num_players, seats=inst.seats, seat_names=inst.seat_names,
        seat_orders=inst.seat_orders, next_seat=inst.next_seat,
        teams=None if inst.teams is None else tuple(inst.teams),
        pieces=tuple(inst.pieces),
        kind_pieces=frozen_map({k: tuple(v) for k, v in inst.kind_pieces.items()}),
        zones=tuple(inst.zones), zone_kinds=tuple(inst.zone_kinds),
        zone_refs=tuple(inst.zone_refs), patterns=tuple(inst.patterns),
        pattern_refs=frozen_map(patterns),
        code=tuple(code), steps=tuple(steps), instructions=instructions,
        choices=tuple(inst.choices),
        chance_positions=frozen_map(block_positions(
            inst.code_nodes, blocks or {pc: [pc] for pc in range(len(inst.code_nodes))},
            [i.draws for i in instructions])),
        replayable=replayable(inst, instructions), start=None,
        initial=frozen_map(inst.var_inits), flow_names=inst.flow_names,
        variable_locations=frozen_map(variables), private_vars=frozen_map(inst.private_vars),
        score=_score(inst), heuristic=_heuristic(inst), winner_rule=inst.winner_rule,
        longest=inst.longest, longest_location=location(inst, game.get("longest")),
        has_chance=chance, may_hide=hiding, words=words,
        turns_pieces=any(n.get("k") == "rotate" for key in ("setup", "phases", "play")
                         for n in nodes(inst.ir.get(key))),
        action_numbering=Deferred(inst.action_space),
        chance_bound=Deferred(inst.max_chance_outcomes))
    _own_actions(program)
    return program


def with_blocks(inst: "Instance", program: Program, code: list[Instr],
                blocks: dict[int, list[int]] | None) -> Program:
    """``program`` (built by :func:`build_program` on one function per instruction)
    running ``code``: the generated blocks where they start. Only what the blocks
    change is computed again (the code, where chance nodes stand in them).

    :param blocks: each generated block's first instruction → the instructions it
        runs (``None``: ``code`` is one function per instruction)."""
    return dataclasses.replace(program, code=tuple(code), chance_positions=frozen_map(
        block_positions(inst.code_nodes,
                        blocks or {pc: [pc] for pc in range(len(inst.code_nodes))},
                        [i.draws for i in program.instructions])))


def with_start(program: Program, start: "tuple[Position, int] | None",
               code: list[Instr]) -> Program:
    """``program`` running ``code``, with where every game starts: the start's
    position becomes the new program's."""
    made = dataclasses.replace(program, code=tuple(code), start=start)
    if start is not None:
        start[0].program = made
    _own_actions(made)
    return made


def _own_actions(program: Program) -> None:
    """Each alternative of the program's choices knows its program (its actions'
    ids are numbered by it)."""
    for choice in program.choices:
        for alt in choice.alternatives:
            alt.program = program
