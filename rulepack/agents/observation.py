"""What one player observes of a step of the game: the key of an outcome in the tree.

Information-set MCTS keys a node by what the searching player knows. Keying the
node after an action by the action alone merges every result the action may
have (a flip that shows a 3 and one that shows a 5 lead to one node), so the
search cannot plan what to do *after* it sees the result. :func:`observe` names
the result as the player sees it, so that the tree branches on it (as
OpenSpiel's IS-MCTS keys nodes by information-state strings, and as
multiple-observer IS-MCTS does):

* every zone the step changed, as the player sees it: a piece the player can
  identify by its id, another by its look (its back, or the side it shows);
  a pile (which keeps no order) as the ids it shows and the sorted looks of
  those it hides;
* every zone where the step turned a piece face up (a reveal), the same way;
* the value of a random choice the step drew, a piece masked as above.

Which zones a step changed comes from the position's copy-on-write bookkeeping:
:func:`watch` empties the set of zones the position owns (``Position.owned``), so
every zone the step writes is copied first and listed there afterwards (see
:meth:`~rulepack.engine.position.Position.writable`). A shuffle's order is not
observed unless the player can see the shuffled zone.

Two determinizations that the player cannot tell apart before a step and that
show the same thing after it get equal keys; a key never holds the identity of
a piece the player cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulepack.engine.actions import ChanceEvent, Reveal
from rulepack.engine.queries import visible
from rulepack.engine.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State


def watch(st: "State") -> int:
    """Start watching a step of ``st``: from now on every zone it writes is
    listed in its position's ``owned``. :returns: the length of the history now
    (pass it to :func:`observe`)."""
    st.position.owned = set()
    return len(st.history)


def observe(st: "State", start: int, player: int,
            looks: dict[int, Any] | None = None) -> tuple[Any, ...]:
    """What ``player`` observes of the step since :func:`watch` returned ``start``.

    :param looks: a cache of how pieces of ``st``'s instance look in a zone
        hidden from ``player`` (see :func:`_zone`), kept by a caller that
        observes many steps of one instance for one player; ``None``: none.

    :returns: a hashable tuple: ``(zone index, contents as the player sees
        them)`` for each zone the step changed or revealed a piece in (by zone
        index), then the drawn values of random choices.
    """
    position = st.position
    zones = set(position.owned)
    drawn: list[Any] = []
    history = st.history
    if len(history) > start + 1:
        loc = position.loc
        for entry in history[start + 1:]:
            t = type(entry)
            if t is Reveal:
                zones.update(loc[p.id] for p in entry.pieces)   # where they are now
            elif t is ChanceEvent and entry.kind == "random":
                drawn.append(_masked(st, entry.outcome, player))
    if looks is None:
        looks = {}
    out: list[Any] = [(z, _zone(st, z, player, looks)) for z in sorted(zones)]
    if drawn:
        out.append(tuple(drawn))
    return tuple(out)


def _zone(st: "State", z: int, player: int, looks: dict[int, Any]) -> tuple[Any, ...]:
    """Zone ``z`` as ``player`` sees it. ``looks``: piece id * 2 + face up → what
    the piece shows in a zone hidden from ``player`` (filled as met)."""
    pieces = st.position.zones[z]
    info = st.program.zones[z]
    seen = info.seen_by
    if seen == "everyone" or (seen == "owner" and info.owner == player):
        if info.kind == "pile":
            return tuple(p.id for p in pieces)
        return tuple(None if p is None else p.id for p in pieces)
    face = st.position.face
    out: list[Any] = []
    for p in pieces:
        if p is None:
            out.append(None)
            continue
        k = p.id * 2 + face[p.id]
        look = looks.get(k)
        if look is None:
            look = looks[k] = _look(p, face[p.id])
        out.append(look)
    if info.kind == "pile":     # the ids it shows, then the looks of the rest, sorted
        return (tuple(x for x in out if type(x) is int),
                tuple(sorted(x for x in out if type(x) is not int)))
    return tuple(out)


def _look(p: Piece, up: bool) -> Any:
    """What a piece in a zone hidden from the player shows it, face up or not
    (``up``): its id if the side up shows the whole piece (as
    :func:`~rulepack.engine.queries.visible` says), else its look."""
    if up and (p.sides is None or p.sides[0] is None):
        return p.id
    return p.look(up)


def _masked(st: "State", value: Any, player: int) -> Any:
    t = type(value)
    if t is Piece:
        position = st.position
        return value.id if visible(position, value, player) else \
            ("hidden", value.look(position.face[value.id]))
    if t is tuple or t is list:
        return tuple(_masked(st, v, player) for v in value)
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value
