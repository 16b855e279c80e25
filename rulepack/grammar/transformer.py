"""Parse tree → ruleset IR.

The IR is plain JSON-able data (dicts, lists, strings, numbers, booleans,
``None``) described by ``schemas/ruleset.schema.json``. Every expression and
statement is a dict with a kind key ``"k"`` and, when it came from text, a
position ``"at": [line, column]`` (1-based) so later stages can point at the
source.
"""

from __future__ import annotations

import ast
from typing import Any, Callable

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import GrammarError, VisitError
from lark.tree import Meta
from lark.visitors import _vargs_meta_inline, _VArgsWrapper

from rulepack.errors import Location, SemanticError

IR = dict[str, Any]


def _at(meta: Meta | Token) -> list[int]:
    line = getattr(meta, "line", None)
    column = getattr(meta, "column", None)
    if line is None or column is None:
        return [0, 0]
    return [int(line), int(column)]


def _lit(value: Any, at: list[int]) -> IR:
    return {"k": "lit", "value": value, "at": at}


def _op(op: str, args: list[IR], at: list[int]) -> IR:
    return {"k": "op", "op": op, "args": args, "at": at}


#: The shapes a ``draw shape`` hint may name (pictures: ``rulepack.render``).
DRAW_SHAPES = ("tile", "coin", "die", "pawn", "cube", "disc", "card", "token")


@v_args(meta=True, inline=True)
class ToIR(Transformer[Token, IR]):
    """Lark transformer producing the ruleset IR from a ``rulepack.lark`` tree."""

    def _call_userfunc(self, tree: Tree[Token], new_children: list[Any] | None = None) -> Any:
        # Lark's own binds the method anew for every node (a wrapper built through
        # functools.update_wrapper, a tenth of the transformation); every method
        # here takes (meta, *children) (the class's v_args), so it is called so.
        method = _METHODS.get(tree.data)
        if method is None:
            return super()._call_userfunc(tree, new_children)  # type: ignore[no-untyped-call]
        children = new_children if new_children is not None else tree.children
        try:
            return method(self, tree.meta, *children)
        except GrammarError:
            raise
        except Exception as exc:
            raise VisitError(tree.data, tree, exc) from exc  # type: ignore[no-untyped-call]

    # ------------------------------------------------------------- top level
    def start(self, meta: Meta, *items: tuple[str, Any]) -> IR:
        ir: IR = {
            "format": "rulepack-ir/1",
            "game": None,
            "uses": [],
            "components": [],
            "orders": [],
            "attributes": [],
            "options": [],
            "zones": [],
            "patterns": [],
            "constants": [],
            "variables": [],
            "score": None,
            "heuristic": None,
            "winner": None,
            "setup": [],
            "phases": [],
            "play": [],
            "requirements": [],
            "defines": [],
        }
        list_keys = {"uses", "components", "orders", "attributes", "options", "zones",
                     "patterns", "constants", "variables", "phases", "requirements", "defines"}
        for number, (key, value) in enumerate(items):
            if key == "language":
                version, at = value
                if number:
                    raise SemanticError.at("the language version comes first, before every "
                                           "declaration (language 1)",
                                           Location("<string>", at[0], at[1]),
                                           code="language-not-first")
                ir = {"format": ir.pop("format"), "language": version,  # shown first
                      "language_at": at, **ir}
            elif key in list_keys:
                ir[key].append(value)
            elif key in ("setup", "play"):
                ir[key].extend(value)
            elif key == "heuristic" and ir[key] is not None and "search" not in ir[key] and \
                    ("after" in ir[key]) != ("after" in value):
                # a second heuristic: one read at once (greedy, memory, lookahead),
                # one read after N random decisions (the search bots)
                searched, plain = (ir[key], value) if "after" in ir[key] else (value, ir[key])
                ir[key] = {**plain, "search": searched}
            else:
                if ir[key] is not None:
                    at = value.get("at") if isinstance(value, dict) else None
                    line, col = (at or [None, None])
                    if key == "heuristic":
                        raise SemanticError.at(
                            "a ruleset has one 'heuristic' declaration, or two: one read at "
                            "once and one read 'after N random decisions'; this is one too many",
                            Location("<string>", line, col), code="duplicate-declaration")
                    raise SemanticError.at(f"a ruleset has one '{key}' declaration; this is a "
                                           "second one", Location("<string>", line, col),
                                           code="duplicate-declaration")
                ir[key] = value
        return ir

    def language_decl(self, meta: Meta, version: Token) -> tuple[str, Any]:
        return ("language", (int(version), [version.line, version.column]))

    def game_decl(self, meta: Meta, name: Token, *fields: tuple[str, Any]) -> tuple[str, IR]:
        game: IR = {"name": str(name), "title": str(name), "source": None,
                    "players": [2, 2], "players_at": None, "seats": None, "at": _at(meta)}
        for key, value in fields:
            if key == "players":
                game["players"], game["players_at"] = value
            else:
                game[key] = value
        return ("game", game)

    def game_title(self, meta: Meta, s: Token) -> tuple[str, Any]:
        return ("title", _string(s))

    def game_source(self, meta: Meta, s: Token) -> tuple[str, Any]:
        return ("source", _string(s))

    def game_players(self, meta: Meta, lo: Token, hi: Token) -> tuple[str, Any]:
        return ("players", ([int(lo), int(hi)], _at(meta)))

    def game_players_fixed(self, meta: Meta, n: Token) -> tuple[str, Any]:
        return ("players", ([int(n), int(n)], _at(meta)))

    def game_seats(self, meta: Meta, names: list[str]) -> tuple[str, Any]:
        return ("seats", names)

    def game_teams(self, meta: Meta, teams: list[IR]) -> tuple[str, Any]:
        return ("teams", teams)

    def game_longest(self, meta: Meta, bound: IR) -> tuple[str, Any]:
        return ("longest", bound)

    def game_score_range(self, meta: Meta, low: IR, high: IR) -> tuple[str, Any]:
        return ("scores", {"from": low, "to": high, "at": _at(meta)})

    def game_score_sum(self, meta: Meta, total: IR) -> tuple[str, Any]:
        return ("score_sum", total)

    def use_decl(self, meta: Meta, name: Token, only: list[str] | None = None) -> tuple[str, IR]:
        return ("uses", {"library": str(name), "only": only, "at": _at(meta)})

    def component_decl(self, meta: Meta, name: Token, *fields: tuple[str, Any]) -> tuple[str, IR]:
        comp: IR = {"name": str(name), "attributes": [], "derived": [], "copies": None,
                    "called": None, "back": None, "draw": None, "at": _at(meta)}
        for key, value in fields:
            if key in ("copies", "called", "back", "draw"):
                comp[key] = value
            elif key in ("up_shows", "down_shows"):     # a two-sided piece's sides
                comp[key] = value
            elif key == "rolls":                        # a die: the faces a roll shows
                if "rolls" in comp:
                    line, col = value["at"]
                    raise SemanticError.at(f"component {comp['name']!r} rolls twice (a die "
                                           "shows one face)", Location("<string>", line, col),
                                           code="duplicate-declaration")
                comp[key] = value
            else:
                comp[key].append(value)
        return ("components", comp)

    def comp_attribute(self, meta: Meta, name: Token, values: list[IR]) -> tuple[str, IR]:
        return ("attributes", {"name": str(name), "values": values, "at": _at(meta)})

    def comp_derived(self, meta: Meta, name: Token, expr: IR) -> tuple[str, IR]:
        return ("derived", {"name": str(name), "expr": expr, "at": _at(meta)})

    def comp_copies(self, meta: Meta, expr: IR) -> tuple[str, IR]:
        return ("copies", expr)

    def comp_up_shows(self, meta: Meta, names: list[str]) -> tuple[str, Any]:
        return ("up_shows", names)

    def comp_down_shows(self, meta: Meta, names: list[str]) -> tuple[str, Any]:
        return ("down_shows", names)

    def comp_rolls(self, meta: Meta, name: Token, faces: list[IR],
                   weights: list[IR] | None = None) -> tuple[str, IR]:
        return ("rolls", {"name": str(name), "faces": faces, "weights": weights,
                          "at": _at(meta)})

    def comp_back(self, meta: Meta, name: Token) -> tuple[str, Any]:
        return ("back", str(name))

    def comp_called(self, meta: Meta, text: Token) -> tuple[str, Any]:
        return ("called", _string(text))

    def comp_draw(self, meta: Meta, *hints: tuple[str, Any]) -> tuple[str, IR]:
        draw: IR = {"shape": None, "symbol": None, "colour": None, "colour_by": None,
                    "at": _at(meta)}
        for key, value in hints:
            if draw[key] is not None:
                line, col = _at(meta)
                raise SemanticError.at(f"'draw' gives the {key} twice",
                                       Location("<string>", line, col),
                                       code="duplicate-declaration")
            draw[key] = value
        return ("draw", draw)

    def dh_shape(self, meta: Meta, name: Token) -> tuple[str, Any]:
        if str(name) not in DRAW_SHAPES:
            line, col = _at(name)
            raise SemanticError.at(f"unknown shape '{name}' (shapes: {', '.join(DRAW_SHAPES)})",
                                   Location("<string>", line, col), code="unknown-shape")
        return ("shape", str(name))

    def dh_symbol(self, meta: Meta, text: Token) -> tuple[str, Any]:
        return ("symbol", _string(text))

    def dh_colour(self, meta: Meta, text: Token) -> tuple[str, Any]:
        return ("colour", _string(text))

    def dh_colour_by(self, meta: Meta, name: Token, *entries: list[Any]) -> tuple[str, Any]:
        return ("colour_by", {"attribute": str(name), "colours": list(entries)})

    def draw_colour(self, meta: Meta, key: Token, colour: Token) -> list[Any]:
        if key.type == "INT":
            value: Any = int(key)
        elif key.type == "STRING":
            value = _string(key)
        else:
            value = str(key)
        return [value, _string(colour)]

    def order_decl(self, meta: Meta, name: Token, values: list[IR]) -> tuple[str, IR]:
        return ("orders", {"attribute": str(name), "values": values, "at": _at(meta)})

    def attribute_decl(self, meta: Meta, name: Token, *rest: Any) -> tuple[str, IR]:
        of = rest[0] if len(rest) == 2 else None
        return ("attributes", {"name": str(name), "of": of, "expr": rest[-1], "at": _at(meta)})

    def option_decl(self, meta: Meta, name: Token, otype: IR, default: IR,
                    help_text: Token | None = None) -> tuple[str, IR]:
        opt: IR = {"name": str(name), **otype, "default": default,
                   "help": _string(help_text) if help_text is not None else None,
                   "at": _at(meta)}
        return ("options", opt)

    def opt_bool(self, meta: Meta) -> IR:
        return {"type": "bool"}

    def opt_int(self, meta: Meta, lo: int, hi: int) -> IR:
        return {"type": "int", "min": lo, "max": hi}

    def signed(self, meta: Meta, *parts: Token) -> int:
        return -int(parts[-1]) if len(parts) == 2 else int(parts[-1])

    def opt_text(self, meta: Meta) -> IR:
        return {"type": "text"}

    def opt_choice(self, meta: Meta, values: list[IR]) -> IR:
        if len(values) == 1 and values[0].get("k") == "list":
            values = values[0]["items"]         # one of [a, b]: the same as one of a, b
        return {"type": "choice", "values": values}

    def zone_decl(self, meta: Meta, name: Token, kind: IR, *opts: tuple[str, Any]) -> tuple[str, IR]:
        zone: IR = {"name": str(name), **kind, "per": None, "seen_by": None, "at": _at(meta)}
        for key, value in opts:
            zone[key] = value
        return ("zones", zone)

    def zk_stack(self, meta: Meta) -> IR:
        return {"kind": "stack"}

    def zk_row(self, meta: Meta) -> IR:
        return {"kind": "row"}

    def zk_pile(self, meta: Meta) -> IR:
        return {"kind": "pile"}

    def zk_groups(self, meta: Meta) -> IR:
        return {"kind": "groups"}

    def zk_grid(self, meta: Meta, rows: IR, cols: IR, holes: IR | None = None) -> IR:
        return {"kind": "grid", "rows": rows, "cols": cols, "holes": holes}

    def zo_per_player(self, meta: Meta) -> tuple[str, Any]:
        return ("per", "player")

    def zo_per_attribute(self, meta: Meta, name: Token) -> tuple[str, Any]:
        return ("per", str(name))

    def zo_notation(self, meta: Meta, name: Token, x: int | None = None,
                    y: int | None = None) -> tuple[str, Any]:
        return ("notation", {"kind": str(name), "origin": None if x is None else [x, y]})

    def zo_stacked(self, meta: Meta) -> tuple[str, Any]:
        return ("stacked", True)

    def zo_seen_by(self, meta: Meta, expr: IR) -> tuple[str, Any]:
        return ("seen_by", expr)

    def pattern_decl(self, meta: Meta, name: Token, body: IR) -> tuple[str, IR]:
        return ("patterns", {"name": str(name), **body, "at": _at(meta)})

    def pattern_all(self, meta: Meta, *constraints: IR) -> IR:
        return {"all": list(constraints), "any": None}

    def pattern_any(self, meta: Meta, *names: Token) -> IR:
        return {"all": None, "any": [str(n) for n in names]}

    def _constraint(self, meta: Meta | Token, c: str, arg: Any) -> IR:
        return {"c": c, "arg": arg, "at": _at(meta)}

    def c_size(self, meta: Meta, expr: IR) -> IR:
        return self._constraint(meta, "size", expr)

    def c_same(self, meta: Meta, name: Token) -> IR:
        return self._constraint(name, "same", str(name))

    def c_distinct(self, meta: Meta, name: Token) -> IR:
        return self._constraint(name, "distinct", str(name))

    def c_consecutive(self, meta: Meta, name: Token) -> IR:
        return self._constraint(name, "consecutive", str(name))

    def c_covers(self, meta: Meta, name: Token) -> IR:
        return self._constraint(name, "covers", str(name))

    def c_each(self, meta: Meta, expr: IR) -> IR:
        return self._constraint(meta, "each", expr)

    def c_wild(self, meta: Meta, expr: IR) -> IR:
        return self._constraint(meta, "wild", expr)

    def const_decl(self, meta: Meta, name: Token, expr: IR) -> tuple[str, IR]:
        return ("constants", {"name": str(name), "expr": expr, "at": _at(meta)})

    def define_decl(self, meta: Meta, name: Token, *rest: Any) -> tuple[str, IR]:
        params = [str(p) for p in rest[:-1] if p is not None]
        return ("defines", {"name": str(name), "params": params, "expr": rest[-1],
                            "at": _at(meta)})

    def var_decl(self, meta: Meta, name: Token, *rest: Any) -> tuple[str, IR]:
        per_player = any(r is True for r in rest[:-1])
        var: IR = {"name": str(name), "per_player": per_player, "expr": rest[-1],
                   "at": _at(meta)}
        if any(r == "team" for r in rest[:-1]):
            var["per_team"] = True
        for r in rest[:-1]:
            if isinstance(r, tuple):        # seen by owner / nobody / everyone
                var["seen"] = r[0]
        return ("variables", var)

    def var_seen(self, meta: Meta, who: Token) -> tuple[str, Any]:
        return (str(who), _at(meta))

    def per_player(self, meta: Meta) -> bool:
        return True

    def per_team(self, meta: Meta) -> str:
        return "team"

    def score_decl(self, meta: Meta, name: Token, expr: IR) -> tuple[str, IR]:
        return ("score", {"player": str(name), "expr": expr, "at": _at(meta)})

    def require_decl(self, meta: Meta, cond: IR, message: Token) -> tuple[str, IR]:
        return ("requirements", {"cond": cond, "message": _string(message), "at": _at(meta)})

    def heuristic_decl(self, meta: Meta, name: Token, expr: IR,
                       after: Token | None = None) -> tuple[str, IR]:
        out: dict[str, Any] = {"player": str(name), "expr": expr, "at": _at(meta)}
        if after is not None:
            out["after"] = int(after)
        return ("heuristic", out)

    def winner_highest(self, meta: Meta) -> tuple[str, IR]:
        return ("winner", {"rule": "highest", "at": _at(meta)})

    def winner_lowest(self, meta: Meta) -> tuple[str, IR]:
        return ("winner", {"rule": "lowest", "at": _at(meta)})

    def setup_decl(self, meta: Meta, block: list[IR]) -> tuple[str, list[IR]]:
        return ("setup", block)

    def phase_decl(self, meta: Meta, name: Token, block: list[IR]) -> tuple[str, IR]:
        return ("phases", {"name": str(name), "body": block, "at": _at(meta)})

    def play_decl(self, meta: Meta, block: list[IR]) -> tuple[str, list[IR]]:
        return ("play", block)

    # ------------------------------------------------------------- statements
    def block(self, meta: Meta, *stmts: IR) -> list[IR]:
        return [s for s in stmts if isinstance(s, dict)]

    def move_stmt(self, meta: Meta, what: IR, to: IR, *opts: tuple[str, Any]) -> IR:
        stmt: IR = {"k": "move", "what": what, "to": to, "face": None, "bottom": False,
                    "at": _at(meta)}
        for key, value in opts:
            stmt[key] = value
        return stmt

    def mo_face(self, meta: Meta, face: IR) -> tuple[str, Any]:
        return ("face", face["value"])

    def mo_bottom(self, meta: Meta) -> tuple[str, Any]:
        return ("bottom", True)

    def up(self, meta: Meta) -> IR:
        return _lit("up", _at(meta))

    def down(self, meta: Meta) -> IR:
        return _lit("down", _at(meta))

    def flip_stmt(self, meta: Meta, what: IR, face: IR | None = None) -> IR:
        return {"k": "flip", "what": what, "face": face["value"] if face else None,
                "at": _at(meta)}

    def rotate_to(self, meta: Meta, what: IR, degrees: IR) -> IR:
        return {"k": "rotate", "what": what, "degrees": degrees, "clockwise": False,
                "at": _at(meta)}

    def rotate_clockwise(self, meta: Meta, what: IR, degrees: IR) -> IR:
        return {"k": "rotate", "what": what, "degrees": degrees, "clockwise": True,
                "at": _at(meta)}

    def shuffle_stmt(self, meta: Meta, zone: IR) -> IR:
        return {"k": "shuffle", "zone": zone, "at": _at(meta)}

    def roll_stmt(self, meta: Meta, what: IR) -> IR:
        return {"k": "roll", "what": what, "at": _at(meta)}

    def let_stmt(self, meta: Meta, bind: Any, expr: IR) -> IR:
        return {"k": "let", "bind": bind, "expr": expr, "at": _at(meta)}

    def set_stmt(self, meta: Meta, name: Token, *rest: IR) -> IR:
        index = rest[0] if len(rest) == 2 else None
        return {"k": "set", "name": str(name), "index": index, "expr": rest[-1],
                "at": _at(meta)}

    def reset_stmt(self, meta: Meta, name: Token) -> IR:
        return {"k": "reset", "name": str(name), "at": _at(meta)}

    def for_stmt(self, meta: Meta, bind: Any, iterable: IR, body: list[IR]) -> IR:
        return {"k": "for", "bind": bind, "in": iterable, "body": body, "at": _at(meta)}

    def if_stmt(self, meta: Meta, cond: IR, then: list[IR], otherwise: Any = None) -> IR:
        if isinstance(otherwise, dict):
            otherwise = [otherwise]
        return {"k": "if", "cond": cond, "then": then, "else": otherwise, "at": _at(meta)}

    def while_stmt(self, meta: Meta, cond: IR, body: list[IR]) -> IR:
        return {"k": "while", "cond": cond, "body": body, "at": _at(meta)}

    def maximize_stmt(self, meta: Meta, value: IR, body: list[IR]) -> IR:
        return {"k": "maximize", "value": value, "body": body, "at": _at(meta)}

    def repeat_stmt(self, meta: Meta, body: list[IR], until: IR) -> IR:
        return {"k": "repeat", "body": body, "until": until, "at": _at(meta)}

    def rounds_stmt(self, meta: Meta, limit: tuple[str, IR], body: list[IR]) -> IR:
        stmt: IR = {"k": "rounds", "until": None, "times": None, "body": body, "at": _at(meta)}
        stmt[limit[0]] = limit[1]
        return stmt

    def rl_until(self, meta: Meta, expr: IR) -> tuple[str, IR]:
        return ("until", expr)

    def rl_times(self, meta: Meta, expr: IR) -> tuple[str, IR]:
        return ("times", expr)

    def turns_stmt(self, meta: Meta, start: IR, *rest: Any) -> IR:
        until = rest[0] if len(rest) == 2 else None
        return {"k": "turns", "from": start, "until": until, "body": rest[-1], "at": _at(meta)}

    def choose_stmt(self, meta: Meta, *rest: IR) -> IR:
        by = None
        alts = list(rest)
        if alts and alts[0].get("k") != "action":
            by = alts.pop(0)
        return {"k": "choose", "by": by, "actions": alts, "at": _at(meta)}

    def alternative(self, meta: Meta, text: Token, *rest: Any) -> IR:
        alt: IR = {"k": "action", "text": _string(text), "params": [], "guard": None,
                   "body": [], "at": _at(meta)}
        for item in rest:
            if isinstance(item, tuple) and item[0] == "param":
                alt["params"].append(item[1])
            elif isinstance(item, tuple) and item[0] == "guard":
                alt["guard"] = item[1]
            elif isinstance(item, list):
                alt["body"] = item
        return alt

    def param(self, meta: Meta, bind: Any, iterable: IR) -> tuple[str, IR]:
        return ("param", {"bind": bind, "in": iterable, "at": _at(meta)})

    def guard(self, meta: Meta, expr: IR) -> tuple[str, IR]:
        return ("guard", expr)

    def end_game(self, meta: Meta, winners: IR | None = None) -> IR:
        return {"k": "end", "what": "game", "winners": winners, "at": _at(meta)}

    def end_turn(self, meta: Meta) -> IR:
        return {"k": "end", "what": "turn", "winners": None, "at": _at(meta)}

    def end_round(self, meta: Meta) -> IR:
        return {"k": "end", "what": "round", "winners": None, "at": _at(meta)}

    def do_stmt(self, meta: Meta, name: Token) -> IR:
        return {"k": "do", "phase": str(name), "at": _at(meta)}

    def eliminate_stmt(self, meta: Meta, player: IR) -> IR:
        return {"k": "eliminate", "player": player, "at": _at(meta)}

    def arrange_stmt(self, meta: Meta, zone: IR, pattern: IR) -> IR:
        return {"k": "arrange", "zone": zone, "into": pattern, "at": _at(meta)}

    def say_stmt(self, meta: Meta, text: Token, to: IR | None = None) -> IR:
        return {"k": "say", "text": _string(text), "to": to, "at": _at(meta)}

    def claim_stmt(self, meta: Meta, what: IR, player: IR) -> IR:
        return {"k": "claim", "what": what, "for": player, "at": _at(meta)}

    def bind_name(self, meta: Meta, name: Token) -> str:
        return str(name)

    def bind_tuple(self, meta: Meta, *names: Token) -> list[str]:
        return [str(n) for n in names]

    # ------------------------------------------------------------- expressions
    def if_expr(self, meta: Meta, cond: IR, then: IR, otherwise: IR) -> IR:
        return {"k": "if", "cond": cond, "then": then, "else": otherwise, "at": _at(meta)}

    def argmax_expr(self, meta: Meta, name: Token, iterable: IR, *rest: IR) -> IR:
        cond = rest[0] if len(rest) == 2 else None
        return {"k": "argmax", "bind": str(name), "in": iterable, "if": cond, "by": rest[-1],
                "at": _at(meta)}

    def run_expr(self, meta: Meta, through: IR, along: IR, cond: IR) -> IR:
        return {"k": "run", "through": through, "along": along, "where": cond, "at": _at(meta)}

    def where(self, meta: Meta, of: IR, cond: IR) -> IR:
        return {"k": "where", "of": of, "cond": cond, "at": _at(meta)}

    def sort(self, meta: Meta, of: IR, name: Token, descending: Any = None) -> IR:
        return {"k": "sort", "of": of, "by": str(name), "descending": descending is not None,
                "at": _at(name)}

    def descending(self, meta: Meta) -> bool:
        return True

    def or_(self, meta: Meta, a: IR, b: IR) -> IR:
        return _op("or", [a, b], _at(meta))

    def and_(self, meta: Meta, a: IR, b: IR) -> IR:
        return _op("and", [a, b], _at(meta))

    def not_(self, meta: Meta, a: IR) -> IR:
        return _op("not", [a], _at(meta))

    def compare(self, meta: Meta, a: IR, op: Token, b: IR) -> IR:
        return _op(str(op), [a, b], _at(meta))

    def in_(self, meta: Meta, a: IR, b: IR) -> IR:
        return _op("in", [a, b], _at(meta))

    def not_in(self, meta: Meta, a: IR, b: IR) -> IR:
        return _op("not in", [a, b], _at(meta))

    def range(self, meta: Meta, a: IR, b: IR) -> IR:
        return {"k": "range", "from": a, "to": b, "at": _at(meta)}

    def binop(self, meta: Meta, a: IR, op: Token, b: IR) -> IR:
        return _op(str(op), [a, b], _at(meta))

    def neg(self, meta: Meta, a: IR) -> IR:
        if a.get("k") == "lit" and isinstance(a["value"], int) and not isinstance(a["value"], bool):
            return _lit(-a["value"], _at(meta))
        return _op("neg", [a], _at(meta))

    def attr(self, meta: Meta, of: IR, name: Token) -> IR:
        return {"k": "attr", "of": of, "name": str(name), "at": _at(name)}

    def index(self, meta: Meta, of: IR, idx: IR) -> IR:
        return {"k": "index", "of": of, "index": idx, "at": _at(meta)}

    def call(self, meta: Meta, name: Token, *args: IR | None) -> IR:
        return {"k": "call", "fn": str(name), "args": [a for a in args if a is not None],
                "at": _at(meta)}

    def int_(self, meta: Meta, tok: Token) -> IR:
        return _lit(int(tok), _at(tok))

    def string(self, meta: Meta, tok: Token) -> IR:
        return _lit(_string(tok), _at(tok))

    def name(self, meta: Meta, tok: Token) -> IR:
        return {"k": "name", "name": str(tok), "at": _at(tok)}

    def none(self, meta: Meta) -> IR:
        return _lit(None, _at(meta))

    def true(self, meta: Meta) -> IR:
        return _lit(True, _at(meta))

    def false(self, meta: Meta) -> IR:
        return _lit(False, _at(meta))

    def list_(self, meta: Meta, *items: IR | None) -> IR:
        return {"k": "list", "items": [i for i in items if i is not None], "at": _at(meta)}

    def tuple_(self, meta: Meta, *items: IR | None) -> IR:
        return {"k": "tuple", "items": [i for i in items if i is not None], "at": _at(meta)}

    def comprehension(self, meta: Meta, expr: IR, bind: Any, iterable: IR,
                      cond: IR | None = None) -> IR:
        return {"k": "comp", "expr": expr, "bind": bind, "in": iterable, "if": cond,
                "at": _at(meta)}

    def map_(self, meta: Meta, *items: list[IR] | None) -> IR:
        return {"k": "map", "items": [i for i in items if i is not None], "at": _at(meta)}

    def map_item(self, meta: Meta, key: IR, value: IR) -> list[IR]:
        return [key, value]

    def top(self, meta: Meta, count: IR | None, of: IR) -> IR:
        return {"k": "top", "end": "top", "count": count, "of": of, "at": _at(meta)}

    def bottom(self, meta: Meta, count: IR | None, of: IR) -> IR:
        return {"k": "top", "end": "bottom", "count": count, "of": of, "at": _at(meta)}

    def expr_list(self, meta: Meta, *items: IR) -> list[IR]:
        return list(items)

    def name_list(self, meta: Meta, *names: Token) -> list[str]:
        return [str(n) for n in names]


#: Each rule's method of ToIR, unbound: its function under Lark's v_args wrapper.
_METHODS: dict[str, Callable[..., Any]] = {
    name: w.base_func for name, w in vars(ToIR).items()
    if isinstance(w, _VArgsWrapper) and w.visit_wrapper is _vargs_meta_inline}


def _string(tok: Token) -> str:
    """Decode a STRING token (double quotes, backslash escapes)."""
    try:
        value = ast.literal_eval(str(tok))
    except (ValueError, SyntaxError):
        value = str(tok)[1:-1]
    return str(value)
