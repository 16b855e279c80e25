"""Which statement of the ruleset a chance event was drawn by.

A chance event (``shuffle``, ``random``) is drawn deep inside the flow: in a
generated block function (which keeps the instruction it runs in its local
``P``) or in an instruction closure run by ``State._run`` (local ``pc``).
:func:`drawn_at` finds that instruction by looking up the Python stack (only at
a chance event, a few frames) and gives its statement's position.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.table import Table

#: the file name of the flow's generated code (rulepack.compiler.flowgen)
GENERATED = "<rulepack generated flow>"


def drawn_at(st: "Table") -> list[int] | None:
    """``[line, column]`` of the statement being run, or ``None`` if not found."""
    frame: Any = sys._getframe(1)
    pc = None
    while frame is not None:
        code = frame.f_code
        if code.co_filename == GENERATED and "P" in frame.f_locals:
            pc = frame.f_locals["P"]
            break
        if code.co_name == "_run" and "pc" in frame.f_locals:
            pc = frame.f_locals["pc"]
            break
        frame = frame.f_back
    nodes = st.inst.code_nodes
    if not isinstance(pc, int) or not 0 <= pc < len(nodes):
        return None
    node = nodes[pc]
    at = node.get("at") if isinstance(node, dict) else None
    return [at[0], at[1]] if at and at[0] else None
