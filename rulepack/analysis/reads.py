"""What a ruleset's score reads: the zones and variables it depends on, found in the
IR, so that the analysis recomputes the scores only when one of them has changed.

The answer is conservative: :func:`score_reads` returns ``None`` (read the scores
every time) as soon as the expression, or a ``define`` it calls, might read
anything else of a game in progress: a piece's ``face``, ``owner``, ``zone``,
``cell``, ``row`` or ``col``, the turn order (``others``, ``active``, ``next``,
``is_active``), another ``score``, a chance (``random``), a pattern or grid
function, the face a die shows (a ``rolls`` attribute), or an expression kind not
listed in :data:`KINDS`. Other piece attributes, constants, options and symbols
are fixed for a game and count as nothing.

:class:`ScoreCache` then compares, at each reading, the contents of those zones
and the values of those variables with the last reading's (plain values only: a
variable holding a zone or a cell turns the cache off for the rest of the game).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulepack.engine.runtime import PSEUDO_ATTRIBUTES
from rulepack.engine.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

#: Expression kinds whose own evaluation reads nothing of the state beyond their parts.
KINDS = frozenset({"lit", "name", "list", "tuple", "map", "range", "if", "attr", "index",
                   "op", "where", "sort", "comp", "argmax", "call"})

#: Built-in functions that compute from their arguments only.
PURE_FUNCTIONS = frozenset({"count", "sum", "max", "min", "any", "all", "distinct", "only",
                            "first", "last", "abs", "flatten", "unique"})

#: Names whose value is neither a zone, a variable nor fixed for a game.
OTHER_STATE = frozenset(set(PSEUDO_ATTRIBUTES) - {"kind", "name"}
                        | {"others", "active", "next"})

#: Built-in names that are variables of the state.
STATE_VARIABLES = ("current", "round")


class _Unknown(Exception):
    """The expression may read something other than zones and variables."""


def expression_reads(node: Any, globals_: dict[str, Any],
                     rolled: frozenset[str] | set[str] = frozenset()
                     ) -> tuple[list[int], list[str]] | None:
    """The zone indices and variable names an expression may read, sorted, or
    ``None`` if it may read more (see the module's docstring).

    :param node: expression IR.
    :param globals_: the instance's global names
        (:attr:`~rulepack.compiler.instance.Instance.globals`: ``kind`` and ``value``).
    :param rolled: the attributes dice show (they change with each roll).
    """
    zones: set[int] = set()
    names: set[str] = set()
    seen: set[str] = set()

    def walk(n: Any) -> None:
        if isinstance(n, list):
            for x in n:
                walk(x)
            return
        if not isinstance(n, dict):
            return
        k = n.get("k")
        if k is not None:
            if k not in KINDS:
                raise _Unknown
            if k == "name":
                name(n["name"])
            elif k == "attr" and (n["name"] in OTHER_STATE or n["name"] in rolled):
                raise _Unknown
            elif k == "call":
                call(n["fn"])
        for key, value in n.items():
            if key != "at":
                walk(value)

    def name(text: str) -> None:
        if text in OTHER_STATE:
            raise _Unknown
        if text in STATE_VARIABLES:
            names.add(text)
            return
        g = globals_.get(text)
        if g is None and text in rolled:     # a die's face, or a local of that name
            raise _Unknown
        if g is None:                        # a local, an attribute or a fixed word
            return
        if g.kind in ("var", "player_var", "team_var"):
            names.add(text)
        elif g.kind == "zone":
            zones.add(g.value.index)
        elif g.kind == "zone_family":
            zones.update(z.index for z in g.value["zones"])

    def call(fn: str) -> None:
        g = globals_.get(fn)
        if g is not None and g.kind == "define":
            if fn not in seen:               # defines are never recursive
                seen.add(fn)
                walk(g.value["expr"])
        elif fn not in PURE_FUNCTIONS:
            raise _Unknown

    try:
        walk(node)
    except _Unknown:
        return None
    return sorted(zones), sorted(names)


def score_reads(inst: Any) -> tuple[list[int], list[str]] | None:
    """:func:`expression_reads` of a compiled instance's ``score`` (``None`` without one)."""
    score = inst.ir.get("score")
    if not score or inst.score_fn is None:
        return None
    return expression_reads(score["expr"], inst.globals, inst.rolled_attributes)


def frozen(value: Any) -> Any:
    """A copy of a plain variable value that later changes to it cannot touch
    (lists and maps become tuples, numbers and texts keep their type), to compare
    with ``==``.

    :raises TypeError: the value holds something whose meaning depends on the
        state (a zone, a cell).
    """
    t = type(value)
    if t is list or t is tuple:
        return (t, tuple(frozen(v) for v in value))
    if t is dict:
        return (dict, tuple((frozen(k), frozen(v)) for k, v in value.items()))
    if value is None or t is Piece:
        return value
    if isinstance(value, (int, float, str)):
        return (t, value)                    # True == 1 == 1.0, but they are not the same
    raise TypeError(f"not a plain value: {value!r}")


class ScoreCache:
    """Each seat's score, read again only when a zone or variable it depends on
    has changed since the last reading.

    :param read: computes the scores of a state (``State.scores``).
    :param reads: :func:`score_reads` of the game's instance; ``None`` reads every time.
    """

    def __init__(self, read: Callable[["State"], Any],
                 reads: tuple[list[int], list[str]] | None) -> None:
        self.read = read
        self.zones, self.names = reads if reads is not None else ([], [])
        self.on = reads is not None
        self.seen: list[list[Any]] | None = None     # the zones at the last reading
        self.values: list[Any] = []                  # the variables, frozen
        self.last: Any = None

    def scores(self, st: "State") -> Any:
        """The scores of ``st`` (a list per seat, or ``None``)."""
        if not self.on:
            return self.read(st)
        zones = st.position.zones
        seen = self.seen
        try:
            values = [frozen(st.position.vars.get(n)) for n in self.names] if self.names \
                else self.values
        except TypeError:
            self.on = False
            return self.read(st)
        if (seen is None or values != self.values
                or not all(zones[z] == old for z, old in zip(self.zones, seen))):
            self.seen = [list(zones[z]) for z in self.zones]
            self.values = values
            self.last = self.read(st)
        return self.last
