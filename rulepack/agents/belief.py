"""Following hidden pieces: where the pieces a player once saw must be now.

A view shows where the visible pieces are; a player who watched the game knows
more. :class:`Belief` compares each view with the one before and follows a
piece out of sight: when pieces the player saw vanish and hidden places
appear, it pairs them — first a piece with the very place it was seen at (a
tile turned face down where it lies), then, for each kind of back, a single
vanished piece with a single new hidden place ("the tile I put back went to
c3", "my discard is the face-down one"). Into a pile it follows a piece to the
pile. Where several pieces vanish at once into several places, it takes the
action as the player saw it (:func:`rulepack.agents.bots.seen_action`) and
replays it on a *particle*, a state consistent with the last view: a piece goes
where the particle's copy of the action put it, unless chance took part in that
step. Where the action as seen names a piece the player did not see (another
player's secret choice), the pieces it moved are *linked* to the places they
went, in an order the player cannot tell (:meth:`Belief.links`), when every
reading of it agrees on those places. It lets a piece go as soon as it may have moved unseen: its place is
emptied or shown, its zone is shuffled, or, in a stack, row or pile, a hidden
piece of its kind left that zone. So every place it claims is sure, given the
views; what it cannot follow is left to chance in the determinizations.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from rulepack.engine.rng import Rng
from rulepack.engine.views import grid_places

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.program import Program
    from rulepack.engine.state import State

#: A place: (zone label, position) with position ``None`` in a pile.
Place = tuple[str, Any]


def _scan(view: dict[str, Any]) -> tuple[dict[int, Place], dict[Place, str],
                                         dict[tuple[str, str], int], dict[str, int]]:
    """(visible piece → place, hidden place → back, (pile, back) → hidden count,
    zone → count of places)."""
    visible: dict[int, Place] = {}
    hidden: dict[Place, str] = {}
    piles: dict[tuple[str, str], int] = {}
    sizes: dict[str, int] = {}
    for label, zone in view["zones"].items():
        kind = zone["kind"]
        if kind == "grid":
            entries = [e for _, e in grid_places(zone)]
        elif kind == "pile":
            for p in zone["pieces"]:
                visible[p["id"]] = (label, None)
            for back, n in (zone.get("hidden_kinds") or {}).items():
                piles[(label, back)] = int(n)
            continue
        else:
            entries = zone["pieces"]
            sizes[label] = len(entries)
        for pos, entry in enumerate(entries):
            if entry is None:
                continue
            if entry.get("hidden"):
                hidden[(label, pos)] = entry["kind"]
            else:
                visible[entry["id"]] = (label, pos)
    return visible, hidden, piles, sizes


class Belief:
    """Where the hidden pieces a player has seen are, from its successive views.

    Feed it every view of the player, in order (:meth:`observe`); read
    :meth:`known` to build determinizations (its ``known`` argument). The
    views it gets before it knows the rules (:meth:`bind`) wait until then.

    :param seed: seeds the particle's guesses.
    """

    def __init__(self, seed: int = 0) -> None:
        self.places: dict[int, Place] = {}
        #: pieces that went to these places, in an order the player cannot tell
        #: (another player's secret choice: "keep a tile and put the other at c3")
        self.linked: list[tuple[list[int], list[Place]]] = []
        self._last: tuple[Any, ...] | None = None
        self._backs: dict[int, str] = {}
        self._waiting: list[tuple[Any, ...]] = []
        self._program: "Program | None" = None
        self._particle: "State | None" = None
        self._rng = Rng(seed)

    def bind(self, program: "Program") -> None:
        """Learn the rules (public): the particle can be built, and the views seen so
        far are taken in."""
        if self._program is not None:
            return
        self._program = program
        waiting, self._waiting = self._waiting, []
        self._last = None
        self.places = {}
        self.linked = []
        for args in waiting:
            self.observe(*args)

    def observe(self, view: dict[str, Any], reveals: list[dict[str, Any]] | None = None,
                action: tuple[Any, ...] | None = None) -> None:
        """Learn from the next view.

        :param reveals: events since the last view: ``{"zone": label, "places": ...}``
            for pieces shown in passing, ``{"zone": label, "shuffled": True}`` for a
            shuffle.
        :param action: the action taken since, as the player saw it
            (:func:`rulepack.agents.bots.seen_action`).
        """
        if self._program is None:
            self._waiting.append((view, reveals, action))
        now = _scan(view)
        visible, hidden, piles, sizes = now
        for zone in view["zones"].values():
            for p in _pieces(zone):
                if not p.get("hidden"):
                    self._backs.setdefault(p["id"], self._back(p))
        shuffled = {r["zone"] for r in reveals or [] if r.get("shuffled")}
        last = self._last
        self._last = now
        if last is None:
            self._rebuild(view)
            return
        was_visible, was_hidden, was_piles, was_sizes = last
        # let go of what may have moved unseen: a piece in a pile that lost hidden
        # pieces of its back, unless every hidden piece that arrived anywhere is one
        # the player saw go (then the pile's losses are the pieces now shown)
        moved_unseen = _arrivals(last, now) - _departures(was_visible, visible, self._backs)
        for pid, (label, pos) in list(self.places.items()):
            lost = pid in visible or label in shuffled
            if pos is None:
                back = self._backs.get(pid, "")
                lost = lost or (moved_unseen.get(back, 0) > 0 and
                                piles.get((label, back), 0) < was_piles.get((label, back), 0))
            else:
                lost = lost or (label, pos) not in hidden or \
                    (label in sizes and not _same_prefix(label, last, now))
            if lost:
                del self.places[pid]
        self.linked = self._keep_links(last, now, shuffled, moved_unseen)
        # follow what went out of sight
        vanished = [pid for pid in was_visible if pid not in visible]
        new_places: list[Place] = [pl for pl in hidden if pl not in was_hidden]
        for (label, back), n in piles.items():
            new_places.extend([(label, None)] * max(0, n - was_piles.get((label, back), 0)))
        # pieces shown and hidden again within the step ("flip the tile at c5",
        # no pair: both turned back): followed by the replay too
        shown = [(r["zone"], pos, pid) for r in reveals or [] if not r.get("shuffled")
                 for pos, pid in r.get("places", ())]
        passing = [pid for _, _, pid in shown if pid not in visible and pid not in was_visible]
        if (vanished or passing) and action is not None and not shuffled:
            for pid, place in self._replay(action, vanished + passing, hidden, piles,
                                           shown, was_hidden).items():
                self.places[pid] = place
                if pid in vanished:
                    vanished.remove(pid)
                if place in new_places:
                    new_places.remove(place)
            self._settle_links()
            if vanished and _names_hidden(action[2]):
                # a choice the player did not see: the pieces it may have moved
                # are followed only as a group (or not at all)
                link = self._link(action, vanished, hidden, piles)
                if link is not None:
                    self.linked.append(link)
                vanished = []
        rest = []
        for pid in vanished:
            place = was_visible[pid]
            if place[1] is not None and place in new_places and place[0] not in shuffled:
                self.places[pid] = place
                new_places.remove(place)
            else:
                rest.append(pid)
        by_back: dict[str, tuple[list[int], list[Place]]] = {}
        for pid in rest:
            by_back.setdefault(self._backs.get(pid, ""), ([], []))[0].append(pid)
        for place in new_places:
            its_back = hidden.get(place) if place[1] is not None else None
            if its_back is None:
                its_back = next((b for (lab, b), n in piles.items() if lab == place[0] and
                                 n > was_piles.get((lab, b), 0)), "")
            by_back.setdefault(its_back, ([], []))[1].append(place)
        for pids, places in by_back.values():
            if len(pids) == 1 and len(places) == 1:
                self.places[pids[0]] = places[0]
            elif pids and len(pids) == len(places) and len(set(places)) == 1 and \
                    places[0][1] is None:
                for pid in pids:                  # all into one pile
                    self.places[pid] = places[0]
        self._rebuild(view)

    def _back(self, entry: dict[str, Any]) -> str:
        if self._program is not None:
            return str(self._program.pieces[entry["id"]].back)
        return str(entry["kind"])

    def _replay(self, action: tuple[Any, ...], pids: list[int], hidden: dict[Place, str],
                piles: dict[tuple[str, str], int],
                shown: list[tuple[str, Any, int]] | None = None,
                was_hidden: dict[Place, str] | None = None) -> dict[int, Place]:
        """Where ``pids`` went, by the particle's copy of ``action`` (none if the
        action is not the particle's one legal action that reads so, or chance
        took part). ``shown``: the pieces the step showed, ``(zone, position,
        piece id)``; a piece shown at a place that was hidden before the step is
        put there in the particle first, and the replay counts only if it shows
        exactly these pieces at these places."""
        from rulepack.engine.actions import ChanceEvent, Reveal
        st = self._particle
        found: dict[int, Place] = {}
        if st is None or st.is_terminal():
            return found
        choice, alt, values = action
        if _names_hidden(values):     # a piece it did not see: see _link
            return found
        try:
            if shown:
                st = _with_shown(st, shown, was_hidden or {})
                if st is None:
                    return found
            matches = [a for a in st.legal_actions() if a.choice == choice and a.alt == alt
                       and _fits(a.values, values)]
            if len(matches) != 1:
                return found
            after = st.clone()
            start = len(after.history)
            after.apply(matches[0])
        except Exception:   # the particle cannot run on: nothing is followed through it
            return found
        events = after.history[start:]
        if any(isinstance(e, ChanceEvent) for e in events):
            return found
        if shown is not None and sorted(map(repr, shown)) != sorted(map(repr, (
                (e.zone, pos, p.id) for e in events if isinstance(e, Reveal)
                for p, pos in zip(e.pieces, e.places)))):
            return found        # the particle's step shows other pieces than the true one
        taken = set(self.places.values())
        for pid in pids:
            place = _place_of(after, pid)
            if place is None or place in taken and place[1] is not None:
                continue
            label, pos = place
            back = after.program.pieces[pid].back
            if (pos is not None and hidden.get(place) == back) or \
                    (pos is None and piles.get((label, back), 0) > 0):
                found[pid] = place
                taken.add(place)
        return found

    def _link(self, action: tuple[Any, ...], pids: list[int], hidden: dict[Place, str],
              piles: dict[tuple[str, str], int]) -> tuple[list[int], list[Place]] | None:
        """``pids`` (pieces the player saw vanish in an action naming a piece it did
        not see) and the places they went to, in an order the player cannot
        tell, if every reading of the action on the particle sends exactly these
        pieces to exactly these places (without chance); else ``None``."""
        from rulepack.engine.actions import ChanceEvent
        st = self._particle
        if st is None or st.is_terminal():
            return None
        choice, alt, values = action
        taken = set(self.places.values())
        for _, places in self.linked:
            taken.update(places)
        outcome: list[Place] | None = None
        try:
            matches = [a for a in st.legal_actions() if a.choice == choice and a.alt == alt
                       and _fits(a.values, values)]
            if not matches:
                return None
            for a in matches:
                after = st.clone()
                start = len(after.history)
                after.apply(a)
                if any(isinstance(e, ChanceEvent) for e in after.history[start:]):
                    return None
                places = [pl for pid in pids if (pl := _place_of(after, pid)) is not None]
                if len(places) < len(pids):     # one of them is not where it can be told
                    return None
                reading = sorted(places, key=repr)
                if outcome is None:
                    outcome = reading
                elif reading != outcome:
                    return None
        except Exception:   # the particle cannot run on: nothing is linked
            return None
        assert outcome is not None
        backs = Counter(self._backs.get(pid, "") for pid in pids)
        for label, pos in outcome:
            if pos is None:
                if not any(n > 0 for (lab, _), n in piles.items() if lab == label):
                    return None
                continue
            back = hidden.get((label, pos))
            if back is None or (label, pos) in taken or backs[back] <= 0:
                return None
            backs[back] -= 1
        return list(pids), list(outcome)

    def _keep_links(self, last: tuple[Any, ...], now: tuple[Any, ...], shuffled: set[str],
                    moved_unseen: "Counter[str]") -> list[tuple[list[int], list[Place]]]:
        """The links that still hold: a linked piece shown at one of its link's
        places leaves the link with that place (a link of one piece is followed);
        a link whose piece shows up elsewhere, or one of whose places may have
        changed unseen, is let go."""
        visible, hidden, piles, sizes = now
        was_piles = last[2]
        kept: list[tuple[list[int], list[Place]]] = []
        for pids, places in self.linked:
            narrowed = _narrow(pids, places, visible, lambda at, places: (
                at if at in places else (at[0], None) if (at[0], None) in places else None))
            if narrowed is None:
                continue
            pids, places = narrowed
            broken = False
            for label, pos in places:
                if broken:
                    break
                if label in shuffled and pos is not None:
                    broken = True
                elif pos is None:
                    broken = any(n < was_piles.get((lab, b), 0) and moved_unseen.get(b, 0) > 0
                                 for (lab, b), n in piles.items() if lab == label) or \
                        not any(n > 0 for (lab, _), n in piles.items() if lab == label)
                else:
                    broken = (label, pos) not in hidden or \
                        (label in sizes and not _same_prefix(label, last, now))
            if not broken:
                self._hold(pids, places, kept)
        return kept

    def _settle_links(self) -> None:
        """A followed piece of a link, at one of the link's places, leaves it with
        that place (the last piece left is followed); a link one of whose pieces
        is followed elsewhere is let go."""
        kept: list[tuple[list[int], list[Place]]] = []
        for pids, places in self.linked:
            narrowed = _narrow(pids, places, self.places,
                               lambda at, places: at if at in places else None)
            if narrowed is not None:
                self._hold(*narrowed, kept)
        self.linked = kept

    def _hold(self, pids: list[int], places: list[Place],
              kept: list[tuple[list[int], list[Place]]]) -> None:
        """What is left of a link: nothing, one piece (followed to the place
        left), or several (kept as a link)."""
        if len(pids) == 1:
            self.places[pids[0]] = places[0]
        elif pids:
            kept.append((pids, places))

    def links(self) -> list[tuple[list[int], list[Place]]]:
        """Groups of hidden pieces the player knows went to a group of places, in an
        order it cannot tell: ``[(piece ids, places)]`` (the ``linked`` argument of
        :func:`~rulepack.agents.determinize.determinize`)."""
        return [(list(p), list(q)) for p, q in self.linked]

    def _rebuild(self, view: dict[str, Any]) -> None:
        """A new particle for this view, with every followed piece in its place."""
        if self._program is None:
            return
        from rulepack.agents.determinize import determinize
        try:
            self._particle = determinize(self._program, view, self._rng, known=self.places,
                                         linked=self.linked)
        except Exception:       # a view the rules cannot rebuild: no particle
            self._particle = None

    def known(self, view: dict[str, Any] | None = None) -> dict[int, Place]:
        """Piece id → place of every hidden piece followed (the ``known`` argument of
        :func:`~rulepack.agents.determinize.determinize`)."""
        return dict(self.places)


def _hidden_counts(scan: tuple[Any, ...]) -> dict[tuple[str, str], int]:
    """(zone, back) → hidden pieces there."""
    counts: dict[tuple[str, str], int] = dict(scan[2])
    for (label, _), back in scan[1].items():
        counts[(label, back)] = counts.get((label, back), 0) + 1
    return counts


def _arrivals(last: tuple[Any, ...], now: tuple[Any, ...]) -> "Counter[str]":
    """Back → how many hidden pieces more the zones that gained some hold now."""
    before, after = _hidden_counts(last), _hidden_counts(now)
    out: Counter[str] = Counter()
    for (label, back), n in after.items():
        if n > before.get((label, back), 0):
            out[back] += n - before.get((label, back), 0)
    return out


def _departures(was_visible: dict[int, Place], visible: dict[int, Place],
                backs: dict[int, str]) -> "Counter[str]":
    """Back → pieces the player saw that are out of sight now."""
    return Counter(backs.get(pid, "") for pid in was_visible if pid not in visible)


def _same_prefix(label: str, last: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """Whether the places a stack or row has in both scans show the same thing (a
    piece hidden in it then kept its position: nothing below it moved)."""
    n = min(last[3].get(label, 0), now[3].get(label, 0))
    shown = [{place: pid for pid, place in scan[0].items() if place[0] == label}
             for scan in (last, now)]
    for pos in range(n):
        place = (label, pos)
        if shown[0].get(place) != shown[1].get(place) or \
                (place in last[1]) != (place in now[1]):
            return False
    return True


def _names_hidden(values: Any) -> bool:
    """Whether an action as seen (:func:`rulepack.agents.bots.seen_action`) holds a
    piece the player did not see."""
    for v in values:
        if type(v) is tuple and v:
            if v[0] == "hidden" or (v[0] != "piece" and _names_hidden(v)):
                return True
    return False


def _fits(values: tuple[Any, ...], seen: tuple[Any, ...]) -> bool:
    """Whether an action's values read as ``seen`` (a named piece must be that piece;
    a hidden one any piece of that back)."""
    if len(values) != len(seen):
        return False
    for v, s in zip(values, seen):
        if type(s) is tuple and s and s[0] == "piece":
            if getattr(v, "id", None) != s[1]:
                return False
        elif type(s) is tuple and s and s[0] == "hidden":
            if getattr(v, "back", None) != s[1]:
                return False
        elif type(s) is tuple:
            if not isinstance(v, (tuple, list)) or not _fits(tuple(v), s):
                return False
        elif v != s:
            return False
    return True


def _narrow(pids: list[int], places: list[Place], known: dict[int, Any],
            slot: Callable[[Any, list[Place]], Place | None]
            ) -> tuple[list[int], list[Place]] | None:
    """A link less its pieces whose place is ``known``: each leaves with the
    place ``slot(where it is, the link's places)`` gives, or the link is broken
    (``None``) when that is ``None``."""
    pids, places = list(pids), list(places)
    for pid in [q for q in pids if q in known]:
        at = slot(known[pid], places)
        if at is None:
            return None
        pids.remove(pid)
        places.remove(at)
    return pids, places


def _with_shown(st: "State", shown: list[tuple[str, Any, int]],
                was_hidden: dict[Place, str]) -> "State | None":
    """A copy of ``st`` in which each piece shown at a place that was hidden is
    there (swapped with the piece of its back the copy had there), or ``None``
    if some piece cannot be put so."""
    out = st.clone()
    program = st.program
    position = out.position
    labels = {z.label: z.index for z in program.zones}
    for label, pos, pid in shown:
        if pos is None or (label, pos) not in was_hidden:
            continue
        piece = program.pieces[pid]
        zi = labels.get(label)
        if zi is None or program.zones[zi].kind == "pile":
            return None
        other = position.zones[zi][pos]
        if other is None or other.back != piece.back:
            return None
        if other is piece:
            continue
        zj = position.loc[pid]
        at = position.zones[zj].index(piece)
        position.put([(zj, at), (zi, pos)], [other, piece],
                     [position.face[pid], position.face[other.id]])
    return out


def _place_of(st: "State", pid: int) -> Place | None:
    position = st.position
    zi = position.loc[pid]
    info = st.program.zones[zi]
    if info.kind == "pile":
        return (info.label, None)
    zone = position.zones[zi]
    for pos, p in enumerate(zone):
        if p is not None and p.id == pid:
            return (info.label, pos)
    return None


def _pieces(zone: dict[str, Any]) -> list[dict[str, Any]]:
    if zone["kind"] == "grid":
        return [e for _, e in grid_places(zone) if e is not None]
    return list(zone["pieces"])
