"""Lark's LALR parser read back from its cached tables, faster.

Lark rebuilds its parse table from the serialized data one entry at a time,
each reduction through ``Rule.deserialize``, which makes a dictionary of its
classes on every call; for ``rulepack.lark`` (about 530 states) that is a fifth
of the time a fresh process takes to load the parser.
:class:`CachedLALRParser` builds the same table (the same states, tokens,
``Shift``/``Reduce`` actions and the very ``Rule`` objects of the memo) in one
comprehension. It is used through Lark's ``_plugins`` option by
:func:`rulepack.grammar.tables.load_parser`.
"""

from __future__ import annotations

from typing import Any

from lark.grammar import Rule
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser
from lark.parsers.lalr_parser import _Parser as LarkParser


def parse_table(data: dict[str, Any], memo: dict[int, Any]) -> IntParseTable:
    """``IntParseTable.deserialize(data, memo)``, the same table built directly.

    :param data: the table as Lark serializes it: ``tokens`` (index → terminal
        name), ``states`` (state → token index → ``(0, next state)`` for a shift or
        ``(1, rule)`` for a reduction, a rule being a memo reference ``{"@": n}``),
        ``start_states`` and ``end_states``.
    """
    tokens = data["tokens"]

    def rule(arg: Any) -> Rule:
        if "@" in arg:
            found: Rule = memo[arg["@"]]
            return found
        made: Rule = Rule.deserialize(arg, memo)
        return made

    states = {state: {tokens[token]: ((Reduce, rule(arg)) if action == 1 else (Shift, arg))
                      for token, (action, arg) in actions.items()}
              for state, actions in data["states"].items()}
    table: IntParseTable = IntParseTable(  # type: ignore[no-untyped-call]
        states, data["start_states"], data["end_states"])
    return table


class CachedLALRParser(LALR_Parser):
    """Lark's ``LALR_Parser`` whose tables load through :func:`parse_table`."""

    # the signature of LALR_Parser.deserialize, which Lark's annotations do not give
    @classmethod
    def deserialize(cls, data: Any, memo: Any, callbacks: Any,  # type: ignore[override]
                    debug: bool = False) -> CachedLALRParser:
        inst = cls.__new__(cls)
        # an IntParseTable, as Lark's own deserialize gives (its annotation says ParseTable)
        inst._parse_table = parse_table(data, memo)  # type: ignore[assignment]
        inst.parser = LarkParser(inst._parse_table, callbacks, debug)
        return inst
