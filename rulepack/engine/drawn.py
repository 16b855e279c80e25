"""Which statement of the ruleset a chance event was drawn by.

A chance event (``shuffle``, ``random``) is drawn deep inside the flow: in a
generated block function (which keeps the instruction it runs in its local
``P``) or in an instruction run by :func:`rulepack.engine.flow.run` (local ``pc``).
the flow notes the block it runs (``Position.block``); a block with one statement
that draws is answered from a table of its program (``chance_positions``). Otherwise
:func:`drawn_at` finds the instruction by looking up the Python stack (a few
frames) and gives its statement's position.
"""

from __future__ import annotations

import sys
from types import FrameType
from typing import TYPE_CHECKING, Sequence

from rulepack.ir import Node, calls_in

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.position import Position

#: the file name of the flow's generated code (rulepack.compiler.flowgen)
GENERATED = "<rulepack generated flow>"


#: keys of a statement's IR that hold other statements (run as their own instructions)
_BODIES = frozenset({"body", "then", "else", "actions"})


#: the calls that draw a chance event, in a ruleset with no define that does
RANDOM = frozenset({"random"})


def drawing_calls(ir: Node) -> frozenset[str]:
    """``random`` and the ruleset's defines that call it, however deeply."""
    defines = {d["name"]: calls_in(d.get("expr")) for d in ir.get("defines", [])}
    out = set(RANDOM)
    grew = True
    while grew:
        grew = False
        for name, calls in defines.items():
            if name not in out and calls & out:
                out.add(name)
                grew = True
    return frozenset(out)


def draws(node: object, calls: frozenset[str] = RANDOM) -> bool:
    """Whether the instruction of statement ``node`` itself may draw a chance
    event: a ``shuffle``, a ``roll``, or one of ``calls`` (:func:`drawing_calls`:
    ``random(...)`` and the defines that call it) in its own expressions."""
    if not isinstance(node, dict):
        return False
    if node.get("k") in ("shuffle", "roll"):
        return True
    return not calls.isdisjoint(calls_in({k: v for k, v in node.items() if k not in _BODIES}))


def block_positions(nodes: Sequence[object], blocks: dict[int, list[int]],
                    drawing: Sequence[bool]) -> dict[int, list[int]]:
    """For each block (its first instruction → the instructions it runs) with
    exactly one instruction that draws (``drawing[pc]``: see :func:`draws`): that
    statement's ``[line, column]`` (``nodes[pc]``: the instructions' statements)."""
    out: dict[int, list[int]] = {}
    for start, instrs in blocks.items():
        drawn = [nodes[pc] for pc in instrs if drawing[pc]]
        if len(drawn) == 1 and isinstance(drawn[0], dict):     # (what draws is a dict)
            at = drawn[0].get("at")
            if at and at[0]:
                out[start] = [at[0], at[1]]
    return out


def drawn_at(st: "Position") -> list[int] | None:
    """``[line, column]`` of the statement being run, or ``None`` if not found."""
    block = st.block
    if block is not None:
        at = st.program.chance_positions.get(block)
        if at is not None:
            return list(at)
    frame: FrameType | None = sys._getframe(1)
    pc = None
    while frame is not None:
        code = frame.f_code
        if code.co_filename == GENERATED and "P" in frame.f_locals:
            pc = frame.f_locals["P"]
            break
        if code.co_name == "run" and "pc" in frame.f_locals:
            pc = frame.f_locals["pc"]
            break
        frame = frame.f_back
    instructions = st.program.instructions
    if not isinstance(pc, int) or not 0 <= pc < len(instructions):
        return None
    location = instructions[pc].location
    return [location.line, location.column or 0] if location.line else None
