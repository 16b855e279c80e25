"""The ruleset IR as stand-alone data ("rules as data").

The IR is read (``.rules``, ``.yaml`` or ``.json``), its libraries merged in, so
the output needs nothing else: saved as ``game.yaml`` or ``game.json`` it loads,
validates and plays exactly as the original.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulepack.cli.errors import reported
from rulepack.printable import printable, printable_json

FORMATS = ("yaml", "json", "python")


def standalone_ir(ruleset: str, positions: bool = False) -> dict[str, Any]:
    """Read a ruleset (bundled name or path) into merged IR.

    :param positions: keep the source positions (they point into the ``.rules`` text,
        not into the data file the output is saved as).
    :raises InvalidInput: the ruleset cannot be read (exit 1).
    """
    from rulepack.loader import merge_libraries, read_ir, resolve, strip_positions
    with reported():
        path = resolve(ruleset)
        display = ruleset if Path(ruleset).exists() else str(path)
        ir = merge_libraries(read_ir(path, display))
    ir.pop("file", None)
    return ir if positions else strip_positions(ir)


def schema_uri() -> str:
    """The ``file:`` URI of the installed ruleset schema (``schemas/ruleset.schema.json``)."""
    return (Path(__file__).resolve().parent.parent / "schemas" / "ruleset.schema.json").as_uri()


def dump(ir: dict[str, Any], fmt: str) -> str:
    """IR as YAML (block style, in IR order) or JSON (indented). The YAML starts with
    a ``# yaml-language-server: $schema=URI`` line naming the schema, so editors
    with yaml-language-server check, complete and explain it."""
    if fmt == "json":
        return printable_json(json.dumps(ir, indent=2, ensure_ascii=False)) + "\n"
    import yaml
    text = yaml.safe_dump(ir, sort_keys=False, allow_unicode=True, default_flow_style=False)
    if printable(text, newlines=True) != text:
        # YAML writes a bidirectional control or a line separator raw when it may write
        # any character: then every character beyond ASCII is written as an escape
        text = yaml.safe_dump(ir, sort_keys=False, allow_unicode=False, default_flow_style=False)
    return f"# yaml-language-server: $schema={schema_uri()}\n" + text


def python_source(ruleset: str, players: int | None, options: dict[str, str]) -> str:
    """The Python source a ruleset compiles to, for one player count and options
    (``rulepack compile RULESET --format python``): the function of every
    expression, then the flow's blocks and each decision's legal actions, which
    inline those expressions.

    :raises InvalidInput: the ruleset cannot be read or compiled (exit 1).
    """
    from rulepack.cli.args import load_game
    with reported():
        game = load_game(ruleset)
        inst = game.instance(game.min_players if players is None else players, options)
        inst.prepare()
    # ruleset text reaches the module only in repr() literals, and in comments escaped
    # (a line break in the title would end the comment)
    header = (f"# {printable(game.title)}: {inst.num_players} players, options "
              f"{printable(repr(dict(sorted(inst.options.items()))))}\n")
    flow = ("\n\n# The flow: one function per basic block (B<pc>) and per decision "
            "(A<n>: its legal actions),\n# with the expressions above inlined.\n\n"
            + inst.flow_source) if inst.flow_source else ""
    return header + inst.exprs.source.module_source() + flow
