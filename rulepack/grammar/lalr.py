"""Lark's LALR parser read back from its cached tables, faster.

Lark rebuilds its parse table from the serialized data one entry at a time,
each reduction through ``Rule.deserialize``, which makes a dictionary of its
classes on every call; for ``rulepack.lark`` (about 530 states) that is a fifth
of the time a fresh process takes to load the parser.
:class:`CachedLALRParser` builds the same table (the same states, tokens,
``Shift``/``Reduce`` actions and the very ``Rule`` objects of the memo) in one
comprehension. It is used through Lark's ``_plugins`` option by
:func:`rulepack.grammar.tables.load_parser`.

:class:`StartPositionsLALRParser` also gives each node of the tree only where it
starts (``meta.line``, ``column``, ``start_pos``, what the IR keeps), not where it
ends, which the compiler never reads: the tree of ``parse_rules`` is built an
eighth faster. The formatter and the language server, which need the ends, use
the parser with Lark's full positions.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree
from lark.grammar import Rule
from lark.parse_tree_builder import PropagatePositions
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


class StartPositions:
    """Lark's ``PropagatePositions`` wrapper of one rule's tree builder, the start
    only: a node starts where its first child that has a position starts (the
    child's container, as Lark has it, when the child was inlined)."""

    __slots__ = ("node_builder",)

    def __init__(self, node_builder: Any) -> None:
        self.node_builder = node_builder

    def __call__(self, children: list[Any]) -> Any:
        res = self.node_builder(children)
        if type(res) is Tree:
            for c in children:
                if type(c) is Tree:
                    first: Any = c.meta
                    if first.empty:
                        continue
                elif isinstance(c, Token):
                    first = c
                else:
                    continue
                meta: Any = res.meta     # Lark sets the container_* attributes unannotated
                line = getattr(first, "container_line", first.line)
                column = getattr(first, "container_column", first.column)
                start = getattr(first, "container_start_pos", first.start_pos)
                if not hasattr(meta, "line"):
                    meta.line, meta.column, meta.start_pos = line, column, start
                    meta.empty = False
                meta.container_line = line
                meta.container_column = column
                meta.container_start_pos = start
                break
        return res


class StartPositionsLALRParser(CachedLALRParser):
    """:class:`CachedLALRParser` whose trees know where each node starts only
    (see :class:`StartPositions`)."""

    @classmethod
    def deserialize(cls, data: Any, memo: Any, callbacks: Any,  # type: ignore[override]
                    debug: bool = False) -> StartPositionsLALRParser:
        callbacks = {rule: StartPositions(cb.node_builder) if isinstance(cb, PropagatePositions)
                     else cb for rule, cb in callbacks.items()}
        inst = super().deserialize(data, memo, callbacks, debug)
        assert isinstance(inst, StartPositionsLALRParser)
        return inst
