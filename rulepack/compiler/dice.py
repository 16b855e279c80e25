"""Dice: a component's ``rolls NAME: FACES [weights W, ...]`` compiled.

A die is a piece with one attribute that changes during play: the face it shows,
set by the ``roll`` statement (see :mod:`rulepack.engine.dice`). Its faces are
written like an attribute's values and computed like them (before zones and
variables exist); its weights, if given, are whole numbers from 1, one per face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulepack.ir import Node
from rulepack.engine.runtime import PSEUDO_ATTRIBUTES
from rulepack.engine.values import Rolls, describe
from rulepack.errors import SemanticError

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.compiler.instance import Instance

#: the most faces a die may have
MAX_FACES = 1000


def compile_rolls(inst: "Instance", comp: Node, fixed: list[str]) -> Rolls | None:
    """The :data:`~rulepack.engine.values.Rolls` of a component (``None``: not a
    die), its attribute added to the instance's attributes and its faces to the
    attribute's values (for ``order`` and sorting).

    :param fixed: the component's listed and derived attributes.
    :raises SemanticError: the name is taken, a face is not a number, name or
        text, the faces are too many, or the weights do not fit them (located).
    """
    rolls = comp.get("rolls")
    if rolls is None:
        return None
    name = rolls["name"]
    where = inst.loc(rolls)
    if name in fixed or name in PSEUDO_ATTRIBUTES:
        raise SemanticError.at(f"'rolls {name}': {comp['name']} already has an attribute "
                               f"{name!r}; the face a die shows needs a name of its own",
                               where, code="duplicate-name")
    for v in rolls["faces"]:
        inst.check_seat_word(v, f"a face of {comp['name']!r}")
    faces = inst.flatten([inst.evaluate(v) for v in rolls["faces"]])
    for v in faces:
        if type(v) not in (int, str, bool):
            raise SemanticError.at(f"'rolls {name}': each face must be a number, a name or a "
                                   f"text, not {describe(v, inst.seat_names)}", where,
                                   code="bad-value")
    if not faces or len(faces) > MAX_FACES:
        raise SemanticError.at(f"'rolls {name}': a die has 1 to {MAX_FACES} faces, not "
                               f"{len(faces)}", where, code="bad-value")
    weights: list[int] | None = None
    if rolls.get("weights") is not None:
        given = inst.flatten([inst.evaluate(v) for v in rolls["weights"]])
        weights = [w for w in given if type(w) is int and 1 <= w <= 1_000_000]
        if len(given) != len(faces) or len(weights) != len(given):
            raise SemanticError.at(
                f"'rolls {name}': the weights must be {len(faces)} whole numbers from 1 to "
                f"1000000, one per face, not {describe(given, inst.seat_names)}", where,
                code="bad-value")
    inst.attributes.add(name)
    inst.rolled_attributes.add(name)
    domain = inst.domains.setdefault(name, [])
    for v in faces:
        if v not in domain:
            domain.append(v)
    return (name, tuple(faces), None if weights is None else tuple(weights))
