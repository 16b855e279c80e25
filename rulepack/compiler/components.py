"""Components compiled into pieces, and the order of attributes' values.

A component declares attributes, each with its values; it makes one piece per
combination of them (times its ``copies``), with its derived attributes computed
for each piece, its readable name (its ``called`` template, or its kind and
values), its two sides (``up shows`` / ``down shows``) and its die faces
(:mod:`rulepack.compiler.dice`). Every attribute's values are gathered, in the
order pieces show them, for the ``order`` of each attribute (declared, else the
component's order, else numbers ascending then names).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from rulepack.compiler.dice import compile_rolls
from rulepack.compiler.scope import Global
from rulepack.engine.runtime import RuleValueError, show
from rulepack.engine.templates import NOT_A_FORMAT, TemplateError, fill, parts
from rulepack.engine.values import Piece, describe
from rulepack.errors import SemanticError
from rulepack.ir import Node

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance

#: Most pieces one game may have.
MAX_PIECES = 100_000


def compile_components(inst: "Instance") -> None:
    """The pieces of every component (each combination of its attributes' values,
    its derived attributes, its copies), added to ``inst`` with the values each
    attribute takes. :raises SemanticError: located."""
    seen: set[str] = set()
    derived_top = inst.ir.get("attributes", [])
    for comp in inst.ir.get("components", []):
        name = comp["name"]
        if name in seen:
            raise SemanticError.at(f"component {name!r} is declared twice", inst.loc(comp),
                                   code="duplicate-name")
        seen.add(name)
        attr_names = [a["name"] for a in comp["attributes"]]
        domains = []
        for i, a in enumerate(comp["attributes"]):
            if a["name"] in attr_names[:i]:
                raise SemanticError.at(f"component {name!r} declares attribute "
                                       f"{a['name']!r} twice", inst.loc(a),
                                       code="duplicate-name")
            inst.attributes.add(a["name"])
            for v in a["values"]:
                inst.check_seat_word(v, f"a value of attribute {a['name']!r}")
            values = inst.flatten([inst.evaluate(v) for v in a["values"]])
            for v in values:
                if type(v) not in (int, str, bool):
                    what = "a list" if isinstance(v, (list, tuple)) else \
                        repr(describe(v, inst.seat_names))
                    raise SemanticError.at(
                        f"attribute {a['name']!r} of {name!r}: each value must be a number, "
                        f"a name or a text, not {what} ({describe(v, inst.seat_names)})",
                        inst.loc(a),
                        code="bad-value")
            if not values:
                raise SemanticError.at(f"attribute {a['name']!r} of {name!r} has no values",
                                       inst.loc(a), code="empty-attribute")
            domains.append(values)
            dom = inst.domains.setdefault(a["name"], [])
            for v in values:
                if v not in dom:
                    dom.append(v)
        for d in comp.get("derived", []):
            inst.attributes.add(d["name"])
        for d in derived_top:
            if d.get("of") is None or name in d["of"]:
                inst.attributes.add(d["name"])
        self_scope = inst.scope(candidate="$self", locals=["$self"], static=True)
        copies_fn = inst.exprs.compile(comp["copies"], self_scope) if comp.get("copies") else None
        derived = [(d["name"], inst.exprs.compile(d["expr"], self_scope), d)
                   for d in comp.get("derived", [])]
        derived += [(d["name"], inst.exprs.compile(d["expr"], self_scope), d)
                    for d in derived_top if d.get("of") is None or name in d["of"]]
        template = comp.get("called")
        _check_text(inst, template, "called", comp)
        _check_text(inst, (comp.get("draw") or {}).get("symbol"), "symbol", comp)
        sides = _sides(inst, comp, attr_names + [d[0] for d in derived])
        rolls = compile_rolls(inst, comp, attr_names + [d[0] for d in derived])
        kind_list: list[Piece] = []
        for combo in itertools.product(*domains):
            attrs = dict(zip(attr_names, combo))
            proto = Piece(-1, name, attrs, name)
            inst.build.vars["$self"] = proto
            for dname, fn, dnode in derived:
                inst.evaluating = dnode
                try:
                    attrs[dname] = fn(inst.build)  # type: ignore[arg-type]
                    if isinstance(attrs[dname], (list, dict, tuple)) or \
                            type(attrs[dname]) not in (int, str, bool, float, type(None)):
                        raise RuleValueError(
                            f"attribute {dname!r} must be a number, a name or a text, not "
                            f"{show(attrs[dname])}")
                except RuleValueError:
                    raise
                except Exception:
                    raise SemanticError.at(
                        f"attribute {dname!r} cannot be computed for {name} "
                        f"{describe(list(combo))}", inst.loc(dnode), code="bad-value") from None
            copies = 1
            if copies_fn is not None:
                inst.evaluating = comp["copies"]
                made = copies_fn(inst.build)  # type: ignore[arg-type]
                if isinstance(made, bool) or not isinstance(made, int) or \
                        not 0 <= made <= 1000:
                    raise SemanticError.at(f"copies of {name} must be a number from 0 to 1000,"
                                           f" not {show(made)}", inst.loc(comp["copies"]),
                                           code="bad-copies")
                copies = made
            label = _piece_name(name, attr_names, attrs, template)
            for _ in range(copies):
                piece = Piece(len(inst.pieces), name, dict(attrs), label, comp.get("back"),
                              sides, rolls)
                inst.pieces.append(piece)
                kind_list.append(piece)
                if len(inst.pieces) > MAX_PIECES:
                    raise SemanticError.at(f"more than {MAX_PIECES} pieces", inst.loc(comp),
                                           code="too-many")
        inst.kind_pieces[name] = kind_list
        inst.declare(name, comp, "component")
        inst.globals[name] = Global("component", kind_list, comp)
    # Every attribute's values, fixed and derived, in the order pieces show them.
    for piece in inst.pieces:
        for attr, value in piece.attrs.items():
            dom = inst.domains.setdefault(attr, [])
            if value not in dom:
                dom.append(value)
    for comp in inst.ir.get("components", []):
        if comp.get("back") and comp["back"] not in inst.kind_pieces:
            raise SemanticError.at(f"component {comp['name']!r} has the back of "
                                   f"{comp['back']!r}, which is not a component",
                                   inst.loc(comp), code="unknown-component")
    for d in derived_top:
        for kind in d.get("of") or []:
            if kind not in inst.kind_pieces:
                raise SemanticError.at(f"attribute {d['name']!r} is declared for unknown "
                                       f"component {kind!r}", inst.loc(d),
                                       code="unknown-component")

def compile_orders(inst: "Instance") -> None:
    """The order of each attribute's values: declared (``order ...``), else the
    order the component lists them in, else numbers ascending then names.
    :raises SemanticError: an order of an unknown attribute, or one that leaves
    values out (located)."""
    for o in inst.ir.get("orders", []):
        attr = o["attribute"]
        values = inst.flatten([inst.evaluate(v) for v in o["values"]])
        inst.orders[attr] = {v: i for i, v in enumerate(values)}
        if attr not in inst.attributes and inst.pieces:
            raise SemanticError.at(f"order of unknown attribute {attr!r}", inst.loc(o),
                                   code="unknown-attribute")
        dom = inst.domains.get(attr, [])
        missing = [v for v in dom if v not in inst.orders[attr]]
        if missing:
            # an order from a library has no place in this file: point at the
            # component whose values it leaves out
            where = o if o.get("at") else next(
                (c for c in inst.ir.get("components", []) if c.get("at") and any(
                    a.get("name") == attr for a in c.get("attributes", []))), o)
            raise SemanticError.at(f"order {attr} leaves out {describe(missing)}",
                                   inst.loc(where), code="incomplete-order")
    declared = {a["name"] for c in inst.ir.get("components", []) for a in c["attributes"]}
    for attr, dom in inst.domains.items():
        if attr in declared:
            # the order the component lists its values in
            inst.orders.setdefault(attr, {v: i for i, v in enumerate(dom)})
        else:
            # a derived attribute: numbers ascending, then names
            natural = sorted(dom, key=_natural)
            inst.orders.setdefault(attr, {v: i for i, v in enumerate(natural)})


def _check_text(inst: "Instance", template: str | None, field: str, comp: Node) -> None:
    """A component's ``called`` or ``symbol`` template: fields by name only.

    :raises SemanticError: located at the component (code ``bad-template``)."""
    if template is None:
        return
    try:
        parts(template)
    except TemplateError as exc:
        shown = template if len(template) <= 60 else template[:57] + "..."
        message = f"{field} {shown!r} of {comp['name']}: " + (
            str(exc) if exc.field is None else
            f"{{{exc.field}}}: write an attribute's name in braces ({NOT_A_FORMAT})")
        raise SemanticError.at(message, inst.loc(comp), code="bad-template") from None


def _sides(inst: "Instance", comp: Node, attrs: list[str]
           ) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None] | None:
    """``up shows ...`` / ``down shows ...``: what each side of a two-sided piece
    shows (see :class:`Piece`), each an attribute of the component."""
    up, down = comp.get("up_shows"), comp.get("down_shows")
    if up is None and down is None:
        return None
    for side, names in (("up", up), ("down", down)):
        for a in names or ():
            if a not in attrs:
                raise SemanticError.at(
                    f"'{side} shows {a}': {comp['name']} has no attribute {a!r} (it has "
                    f"{', '.join(attrs) or 'none'})", inst.loc(comp), code="unknown-attribute")
    return (None if up is None else tuple(up), None if down is None else tuple(down))


def _natural(v: object) -> tuple[int, float, str]:
    if isinstance(v, bool) or v is None:
        return (0, int(bool(v)), "")
    if isinstance(v, (int, float)):
        return (1, v, "")
    return (2, 0, str(v))


def _piece_name(kind: str, attr_names: list[str], attrs: dict[str, object],
                template: str | None) -> str:
    """The readable name of a piece: the component's ``called`` template filled
    with its attributes (fixed and derived), or the component name followed by
    the values of its declared attributes."""
    values = {a: describe(v) for a, v in attrs.items()}
    if template is not None:
        values["kind"] = kind
        return fill(template, values)
    if not attr_names:
        return kind
    return f"{kind} " + " ".join(values[a] for a in attr_names)
