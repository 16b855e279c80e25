"""Tree search: UCT Monte Carlo tree search over states built from a player's view.

One search (:func:`uct`) serves three agents (:mod:`rulepack.agents.strong`):

* ``mcts`` searches one state rebuilt from the view (exact when nothing is
  hidden), keyed by the actions themselves;
* ``ismcts`` (single-observer information-set MCTS, Cowling, Powley & Whitehouse
  2012) draws a new determinization for every iteration and keys the tree by
  what the searching player can see of each action, so no hidden identity ever
  tells two branches apart;
* ``pimc`` runs ``mcts`` on several determinizations and lets them vote.

An iteration is: a sampled root state (a clone, with its own chance generator,
so chance is sampled), selection down the tree by UCB1 with availability counts
(an action is only weighed where it is legal), one expansion, a playout, and the
backup of one reward per player. Rewards come from the ruleset's result: a win
is worth 1 (shared between several winners), a loss 0, a draw ``1/players`` to
each. A playout plays uniformly random actions to the end, or (``rollout =
"heuristic"``) ``cutoff`` of them (by default as many as the ruleset's
``heuristic ... after N random decisions`` says, else none) and then values the
position by the ruleset's ``heuristic`` (its second one, read after N random
decisions, where it declares two: :func:`~rulepack.agents.value.search_value`;
each player's lead over the others,
scaled into (0, 1): see :class:`Margins`). With a heuristic, ``bias`` makes the
expansion progressive bias: a node met with actions it has no child for gets a
child for each, worth the heuristic value of its result, and UCB1 chooses among
them all (:meth:`Search.widen_all`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Callable

from rulepack.agents.observation import observe, watch
from rulepack.engine.queries import visible
from rulepack.engine.rng import Rng
from rulepack.engine.values import Piece

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State

#: The rollout policies: ``random`` to the end; ``heuristic``: ``cutoff`` random
#: decisions, then the ruleset's heuristic; ``auto``: ``heuristic`` when the
#: ruleset declares one, else ``random``.
ROLLOUTS = ("auto", "random", "heuristic")

#: Observing, a node keyed by what the searcher observed starts each action with
#: up to this many virtual visits worth the action's mean in the node keyed by
#: actions alone (which gathers every outcome), so a rarely met outcome is not
#: searched from nothing.
OUTCOME_PRIOR = 2

#: The default ``bias`` of ``mcts`` (see :class:`SearchOptions`; measured in
#: docs/agents.md, *Strength*). ``ismcts`` and ``pimc`` keep 0 (not measured
#: there).
MCTS_BIAS = 1

#: A playout longer than this many decisions is stopped and valued as a draw
#: (or by the heuristic): a random player may never finish some games.
MAX_PLAYOUT = 5_000


@dataclass(frozen=True)
class SearchOptions:
    """The options every search agent takes (``--seat mcts:iterations=500,c=1``).

    :ivar iterations: iterations per decision (default 1000 when no ``seconds``).
    :ivar seconds: a time budget per decision, in seconds (the search stops at
        whichever budget runs out first; a time budget is not reproducible).
    :ivar c: the exploration constant of UCB1 (rewards lie in [0, 1]).
    :ivar rollout: one of :data:`ROLLOUTS`.
    :ivar cutoff: random decisions of a heuristic playout before it is valued
        (``None``: the ruleset's, ``heuristic(p) = ... after N random decisions``,
        else 0).
    :ivar samples: determinizations per decision (``pimc`` only).
    :ivar prior: with a heuristic playout, each action at the root starts with
        this many virtual visits worth the heuristic value of its result (0: none).
    :ivar bias: with a heuristic playout, below the root too: a node the walk
        reaches with legal actions it has no child for makes a child for every
        one of them at once, each starting with this many virtual visits worth
        the heuristic value of its result, and the walk chooses among all of
        them by UCB1 (progressive bias by virtual visits); it stops below the
        first new child it takes. 0: one new child an iteration, taken at
        random, as plain UCT does. ``None``: the agent's default
        (:data:`MCTS_BIAS` for ``mcts``, 0 for ``ismcts`` and ``pimc``).
    :ivar seed: seeds the agent instead of the game seed (see ``make_agent``).
    :ivar observe: key the node after an action by what the searching player
        observes of its result too (:mod:`rulepack.agents.observation`), so the
        tree branches on what a flip or a draw shows; ``None``: the agent's
        default (on for ``ismcts``, off for ``mcts`` and ``pimc``).
    :ivar groups: move groups (Childs, Brodeur & Kocsis 2008): where the legal
        actions come from more than one ``action`` of the ruleset and some
        ``action`` gives several (``draw a tile`` beside ``play {t}`` for each
        of eight tiles), the walk first chooses the ``action`` by UCB1, then
        its parameters, so an ``action`` with many instances does not crowd
        out one with a single instance. ``None``: the agent's default (on
        for ``ismcts``, off for ``mcts`` and ``pimc``).
    """

    iterations: int | None = None
    seconds: float | None = None
    c: float = 0.7
    rollout: str = "auto"
    cutoff: int | None = None
    samples: int = 10
    prior: int = 2
    bias: int | None = None
    seed: int | None = None
    observe: bool | None = None
    groups: bool | None = None

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be above 0, not {self.seconds}")
        if not self.c >= 0:
            raise ValueError(f"c must be 0 or more, not {self.c}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {self.rollout!r}")
        if self.cutoff is not None and self.cutoff < 0:
            raise ValueError(f"cutoff must be 0 or more, not {self.cutoff}")
        if self.prior < 0:
            raise ValueError(f"prior must be 0 or more, not {self.prior}")
        if self.bias is not None and self.bias < 0:
            raise ValueError(f"bias must be 0 or more, not {self.bias}")
        if self.samples < 1:
            raise ValueError(f"samples must be at least 1, not {self.samples}")

    @property
    def budget(self) -> int:
        """The iteration budget (1000 when only ``seconds`` or nothing is given
        and no iteration count is, unbounded with ``seconds`` alone)."""
        if self.iterations is not None:
            return self.iterations
        return 1 << 62 if self.seconds is not None else 1000

    @classmethod
    def parse(cls, options: dict[str, str]) -> "SearchOptions":
        """Options from ``NAME=VALUE`` text. :raises ValueError: unknown name or bad value."""
        kinds = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, text in options.items():
            if name not in kinds:
                raise ValueError(f"unknown option {name!r} (options: {', '.join(kinds)})")
            kind = kinds[name].type
            if "bool" in str(kind):
                values[name] = _flag(name, text)
                continue
            try:
                if "int" in str(kind):
                    values[name] = int(text)
                elif "float" in str(kind) or name == "c":
                    values[name] = float(text)
                else:
                    values[name] = text
            except ValueError:
                raise ValueError(f"{name}={text!r} is not a number") from None
        return cls(**values)


def _flag(name: str, text: str) -> bool:
    """``true``/``false`` (or ``1``/``0``, ``yes``/``no``, ``on``/``off``).
    :raises ValueError: anything else."""
    word = text.strip().lower()
    if word in ("true", "1", "yes", "on"):
        return True
    if word in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"{name}={text!r} is not true or false")


class Node:
    """A node of the tree: its children by key, and for the move into it its
    visits, summed reward (for the player who moved) and availability. With
    observations on, the node of a move leads to one node per result the
    searching player may observe (:attr:`outcomes`), whose children come next."""

    __slots__ = ("children", "visits", "reward", "avail", "action", "outcomes", "keys")

    def __init__(self, action: Any = None) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.action = action      # one action with this key (the first one met)
        self.outcomes: dict[Any, Node] | None = None
        #: observing: id of an action → (the action, its key) at this node
        self.keys: dict[int, tuple[Any, Any]] | None = None


#: Marks an outcome keyed by how the searcher reads another player's action after it.
_AFTER = object()

#: Marks the key of a move group: ``(_GROUP, choice, alternative)``.
_GROUP = object()


def group_keys(legal: list[Any]) -> list[Any] | None:
    """The move group of each action (its ``action`` of the ruleset), or ``None``
    where grouping changes nothing: one group, or one action per group."""
    if len(legal) < 3:
        return None
    groups = [(_GROUP, a.choice, a.alt) for a in legal]
    return groups if 1 < len(set(groups)) < len(groups) else None


def is_group(key: Any) -> bool:
    """Whether a child's key is a move group's (its children are the actions)."""
    return type(key) is tuple and len(key) == 3 and key[0] is _GROUP


def exact_key(st: "State", action: Any, player: int) -> Any:
    """Key an action by itself (perfect information, or a single determinization)."""
    return action


def masked_key(st: "State", action: Any, player: int) -> Any:
    """Key an action by what ``player`` sees of it now: a piece hidden from the
    player becomes its back, so actions on different hidden pieces share a node."""
    values = action.values
    for v in values:
        t = type(v)
        if t is Piece or t is tuple or t is list:
            return (action.choice, action.alt, tuple(_mask(st, x, player) for x in values))
    return (action.choice, action.alt, values)


def _mask(st: "State", value: Any, player: int) -> Any:
    t = type(value)
    if t is Piece:
        return value if visible(st.position, value, player) else ("hidden", value.back)
    if t is tuple or t is list:
        return tuple(_mask(st, v, player) for v in value)
    return value


def rewards(st: "State") -> list[float]:
    """The reward of each player at the end of a game: 1 shared by the winners, or
    ``1/players`` each for a draw (or an unfinished game)."""
    n = st.program.num_players
    winners = st.result()["winners"] if st.is_terminal() else []
    if not winners:
        return [1.0 / n] * n
    share = 1.0 / len(winners)
    out = [0.0] * n
    for w in winners:
        out[w] = share
    return out


class Margins:
    """Heuristic values → rewards in (0, 1), by each player's lead over the mean of
    the others: ``0.5 + 0.5 * tanh(lead / scale)``, where ``scale`` is the mean
    size of the leads met so far in this search (so a ruleset's heuristic may
    count in any unit)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.count = 0

    def __call__(self, values: list[float]) -> list[float]:
        n = len(values)
        if n < 2:
            return [0.5] * n
        whole = sum(values)
        leads = [v - (whole - v) / (n - 1) for v in values]
        self.total += sum(abs(x) for x in leads) / n
        self.count += 1
        scale = self.total / self.count
        if scale <= 0:
            return [0.5] * n
        return [0.5 + 0.5 * math.tanh(x / scale) for x in leads]


class Search:
    """One UCT search from a root that ``sample`` draws anew for each iteration.

    :param sample: ``sample(rng) → State`` a root state (a fresh copy each time).
    :param player: the searching player.
    :param key: how a child is keyed (:func:`exact_key` or :func:`masked_key`).
    :param options: budgets and policy.
    :param rng: the agent's generator: it seeds the playouts and chance.
    :param observe: key the node after each move by what ``player`` observes
        of its result too (see :mod:`rulepack.agents.observation`);
        ``options.observe``, when set, decides instead.
    :param bias: the agent's default for ``options.bias`` (used when it is ``None``).
    :param groups: the agent's default for ``options.groups``.
    """

    def __init__(self, sample: Callable[[random.Random], "State"], player: int,
                 key: Callable[["State", Any, int], Any], options: SearchOptions,
                 rng: Rng, observe: bool = False, bias: int = 0,
                 groups: bool = False) -> None:
        self.sample = sample
        self.player = player
        self.key = key
        self.options = options
        self.observing = observe if options.observe is None else options.observe
        self.bias = bias if options.bias is None else options.bias
        self.grouping = groups if options.groups is None else options.groups
        self.random = random.Random(rng.below(1 << 62))
        self.root = Node()
        self.margins = Margins()
        self.sample_program: Any = None
        self.looks: dict[int, Any] = {}       # observe()'s cache of how pieces look

    def run(self, iterations: int | None = None) -> Node:
        """Search until the budget is spent; returns the root."""
        opts = self.options
        budget = opts.budget if iterations is None else iterations
        if self.sample_program is None:
            self.sample_program = self.sample(self.random).program
        deadline = None if opts.seconds is None else time.perf_counter() + opts.seconds
        if opts.prior and not self.root.children and self.heuristic:
            self.seed_root(opts.prior)
        for i in range(budget):
            self.iterate()
            if deadline is not None and (i & 7) == 7 and time.perf_counter() >= deadline:
                break
        return self.root

    @property
    def heuristic(self) -> bool:
        """Whether playouts end on the ruleset's heuristic."""
        rollout = self.options.rollout
        program = self.sample_program
        if rollout == "auto":
            return program.heuristic is not None
        return rollout == "heuristic" and (program.heuristic is not None or
                                           program.score is not None)

    def seed_root(self, weight: int) -> None:
        """Give every action of the root ``weight`` virtual visits, one per
        determinization, each worth the heuristic value of the position the
        action leads to there."""
        for _ in range(weight):
            self.value_children(self.root, self.sample(self.random))

    def value_children(self, node: Node, st: "State") -> None:
        """Give every action of ``st`` (one per key) a virtual visit under ``node``,
        worth to the player who moves the heuristic value of the position the
        action leads to (the result, if the game ends there)."""
        mover = st.current_player
        key = self.key
        viewer = self.player
        done = set()
        legal = st.legal_actions()
        groups = group_keys(legal) if self.grouping else None
        best: dict[Any, tuple[Node, float]] = {}
        for i, action in enumerate(legal):
            k = key(st, action, viewer)
            if k in done:
                continue
            done.add(k)
            value = self.value_of(st, action)[mover]
            children = node.children
            if groups is not None:
                # the group's visit is worth its best action's value
                g = groups[i]
                group = children.get(g)
                if group is None:
                    group = children[g] = Node(action)
                if g not in best or value > best[g][1]:
                    best[g] = (group, value)
                children = group.children
            child = children.get(k)
            if child is None:
                child = children[k] = Node(action)
            child.visits += 1
            child.avail += 1
            child.reward += value
        for group, value in best.values():
            group.visits += 1
            group.avail += 1
            group.reward += value

    def value_of(self, st: "State", action: Any) -> list[float]:
        """Every player's reward for the position the legal ``action`` leads to
        from ``st`` (``st`` is left as it was): the result if the game ends there,
        else the players' heuristic leads (see :class:`Margins`)."""
        from rulepack.agents.value import search_value
        after = st.clone()
        after.apply(action)
        if after.is_terminal():
            return rewards(after)
        return self.margins([search_value(after, p) for p in range(st.program.num_players)])

    def widen_all(self, st: "State", children: dict[Any, Node], kids: list[Node | None],
                  keys: list[Any], legal: list[Any], mover: int, weight: int) -> set[Node]:
        """Progressive bias (option ``bias``): a child in ``children`` for every
        key of ``keys`` that has none, made for its first action in ``legal``
        and given ``weight`` virtual visits (and as many availabilities) worth
        to ``mover`` the value of that action's result (:meth:`value_of`).
        Fills ``kids`` (the child of each key) in place; returns the new children."""
        made: set[Node] = set()
        for i, child in enumerate(kids):
            if child is not None:
                continue
            k = keys[i]
            child = children.get(k)        # an equal key came first
            if child is None:
                action = legal[i]
                child = children[k] = Node(action)
                child.visits = child.avail = weight
                child.reward = weight * self.value_of(st, action)[mover]
                made.add(child)
            kids[i] = child
        return made

    def iterate(self) -> None:
        """One iteration: a sample, the walk down, one new node, a playout, the
        backup. Observing, the walk follows two trees at once: the tree keyed by
        actions alone (which decides when to stop and expand) and the tree keyed
        by actions and what the searcher observed of their results, whose
        statistics choose the action, each new node starting from the first
        tree's (see :data:`OUTCOME_PRIOR`)."""
        rnd = self.random
        st = self.sample(rnd)
        self.sample_program = st.program
        st.position.rng = Rng(rnd.getrandbits(62))   # chance is sampled anew each iteration
        key = self.key
        viewer = self.player
        observing = self.observing
        c = self.options.c
        node = self.root          # keyed by actions
        known = self.root         # keyed by actions and observations (observing only)
        path: list[tuple[Node, int]] = []        # (child, the player who moved into it)
        bias = self.bias if self.bias and self.heuristic else 0
        grouping = self.grouping
        while not st.is_terminal():
            legal = st.legal_actions()
            mover = st.current_player
            children = node.children
            if key is exact_key:
                keys = legal
            elif observing:
                # at a node keyed by what the searcher knows, an action looks the
                # same to it in every determinization: its key is kept there
                memo = known.keys
                if memo is None:
                    memo = known.keys = {}
                keys = []
                for a in legal:
                    hit = memo.get(id(a))
                    if hit is None or hit[0] is not a:
                        hit = memo[id(a)] = (a, key(st, a, viewer))
                    keys.append(hit[1])
            else:
                keys = [key(st, a, viewer) for a in legal]
            groups = group_keys(legal) if grouping else None
            if groups is not None:
                # move groups: the walk chooses an ``action`` of the ruleset
                # first (a step of the tree that changes nothing in the state),
                # then among its instances
                node, known, chosen = self.enter_group(node, known, groups, legal, mover, path)
                members = [i for i, g in enumerate(groups) if g == chosen]
                legal = [legal[i] for i in members]
                keys = [keys[i] for i in members]
                children = node.children
            split = known is not node
            # each key is looked up once (hashing an action is not free): equal
            # keys share one child, so a child stands for its key from here on
            kids = [children.get(k) for k in keys]
            made: set[Node] | None = None
            if bias and None in kids:
                made = self.widen_all(st, children, kids, keys, legal, mover, bias)
            elif None in kids:
                i, _, _ = self.expand(node, known, kids, keys, legal, mover, path)
                st.apply_index(members[i] if groups is not None else i)
                break
            own = known.children
            best, best_i, distinct = _choose(kids, keys, legal, own, split, c)
            # among actions sharing the key, any one (they look alike to the searcher)
            same = [i for i, child in enumerate(kids) if child is best] if \
                distinct < len(keys) else [best_i]
            at = same[rnd.randrange(len(same))] if len(same) > 1 else same[0]
            action = legal[at]
            index = members[at] if groups is not None else at
            path.append((best, mover))
            node = best
            new = made is not None and best in made
            if observing:
                if split:
                    best = own[keys[best_i]]
                    path.append((best, mover))
                start = watch(st)
                st.apply_index(index)
                seen_now: Any = observe(st, start, viewer, self.looks)
                holder = best
                if mover != viewer and key is not exact_key:
                    # another player's choice among pieces the searcher saw, that
                    # ends out of its sight ("keep a tile"): what follows is keyed
                    # by the action as the searcher reads it afterwards, so the
                    # searcher's later nodes do not know which piece was chosen
                    after = key(st, action, viewer)
                    if after != keys[best_i]:
                        holder = known
                        seen_now = (_AFTER, after, seen_now)
                outcomes = holder.outcomes
                if outcomes is None:
                    outcomes = holder.outcomes = {}
                nxt = outcomes.get(seen_now)
                if nxt is None:
                    nxt = outcomes[seen_now] = Node()
                known = nxt
            else:
                st.apply_index(index)
                known = node
            if new:
                break           # the new child made here is this iteration's leaf
        reward = self.playout(st)
        for child, mover in path:
            child.visits += 1
            child.reward += reward[mover]

    def enter_group(self, node: Node, known: Node, groups: list[Any], legal: list[Any],
                    mover: int, path: list[tuple[Node, int]]) -> tuple[Node, Node, Any]:
        """The move-group step of a walk (option ``groups``): from ``node`` (and
        ``known``, its twin keyed by observations too) into the child of one
        group of ``groups`` (one key per action of ``legal``), chosen by UCB1
        among the groups met, or a new one at random when some group has no
        child yet. Appends the children entered to ``path``; returns them and
        the group's key."""
        first: dict[Any, int] = {}            # each group's first action, in the order met
        for i, g in enumerate(groups):
            first.setdefault(g, i)
        order = list(first)
        reps = [legal[i] for i in first.values()]
        children = node.children
        kids = [children.get(g) for g in order]
        if None in kids:
            i, group, mine = self.expand(node, known, kids, order, reps, mover, path)
            return group, mine, order[i]
        split = known is not node
        group, i, _ = _choose(kids, order, reps, known.children, split, self.options.c)
        mine = known.children[order[i]] if split else group
        path.append((group, mover))
        if split:
            path.append((mine, mover))
        return group, mine, order[i]

    def expand(self, node: Node, known: Node, kids: list[Node | None], keys: list[Any],
               legal: list[Any], mover: int,
               path: list[tuple[Node, int]]) -> tuple[int, Node, Node]:
        """Plain expansion at ``node`` (``kids``: its child of each key of
        ``keys``, ``None`` where it has none): a key without a child, drawn at
        random, gets one (and so does its twin under ``known`` when that is
        another node), appended to ``path``. Returns the key's index, the
        child and its twin (the child itself when not split)."""
        rnd = self.random
        fresh = [i for i, child in enumerate(kids) if child is None]
        i = fresh[rnd.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
        child = mine = _grow(node.children, kids, keys, legal, i)
        path.append((child, mover))
        if known is not node:
            tree = known.children
            mine = _grow(tree, [tree.get(k) for k in keys], keys, legal, i)
            path.append((mine, mover))
        return i, child, mine

    def playout(self, st: "State") -> list[float]:
        """Play on from ``st`` (in place) and return every player's reward."""
        opts = self.options
        rollout = opts.rollout
        program = st.program
        if rollout == "auto":
            rollout = "heuristic" if program.heuristic is not None else "random"
        if rollout != "heuristic":
            limit = MAX_PLAYOUT
        else:
            after = program.heuristic.after if program.heuristic is not None else 0
            limit = after if opts.cutoff is None else opts.cutoff
        rnd = self.random.random
        legal_actions, apply, over = st.legal_actions, st.apply_index, st.is_terminal
        steps = 0
        while not over() and steps < limit:
            apply(int(rnd() * len(legal_actions())))
            steps += 1
        if over():
            return rewards(st)
        if rollout == "heuristic" and (program.heuristic is not None or program.score is not None):
            from rulepack.agents.value import search_value
            return self.margins([search_value(st, p) for p in range(program.num_players)])
        return rewards(st)


def _choose(kids: list[Node | None], keys: list[Any], legal: list[Any], own: dict[Any, Node],
            split: bool, c: float) -> tuple[Node, int, int]:
    """UCB1 among ``kids`` (the child of each key; equal keys share one), each
    counted available once more. With ``split``, the statistics are those of
    the twin children in ``own`` (keyed by observations too; made where
    missing), each starting with up to :data:`OUTCOME_PRIOR` virtual visits
    worth its child's mean. Returns the best child, the first index of its
    key and how many distinct children there are. Every key has its child by
    then (the callers expand or widen first): ``kids`` holds no ``None``."""
    log, sqrt = math.log, math.sqrt
    best = None
    best_value = -1.0
    best_i = 0
    seen = set()
    for i, child in enumerate(kids):
        if child in seen:
            continue
        assert child is not None, "a key without its child"
        seen.add(child)
        child.avail += 1
        visits = child.visits
        if split:
            k = keys[i]
            mine = own.get(k)
            if mine is None:
                mine = own[k] = Node(legal[i])
            mine.avail += 1
            w = visits if visits < OUTCOME_PRIOR else OUTCOME_PRIOR
            n = mine.visits + w
            value = (mine.reward + w * child.reward / visits) / n + c * sqrt(
                log(mine.avail) / n)
        else:
            value = child.reward / visits + c * sqrt(log(child.avail) / visits)
        if value > best_value:
            best, best_value, best_i = child, value, i
    assert best is not None
    return best, best_i, len(seen)


def _grow(tree: dict[Any, Node], kids: list[Node | None], keys: list[Any], legal: list[Any],
          i: int) -> Node:
    """Expansion in ``tree``: one more availability for each child there is
    (``kids``: the tree's child of each key, ``None`` where it has none), and
    the child of ``keys[i]``, made for ``legal[i]`` if it is new."""
    for child in kids:
        if child is not None:
            child.avail += 1
    child = tree.get(keys[i])      # None, unless an equal key came first
    if child is None:
        child = tree[keys[i]] = Node(legal[i])
        child.avail = 1
    return child


def best_child(root: Node) -> Any:
    """The key of the most visited child (ties: the best mean reward, then the
    first one met)."""
    best_key = None
    best = (-1, -1.0)
    for k, child in root.children.items():
        score = (child.visits, child.reward / child.visits if child.visits else 0.0)
        if score > best:
            best, best_key = score, k
    return best_key


def action_children(root: Node) -> tuple[dict[Any, Node], Any]:
    """The root's children that are actions (those of move groups taken out of
    their groups), and the key of the chosen one: :func:`best_child`, within
    the best group where the root has groups."""
    best = best_child(root)
    if not any(is_group(k) for k in root.children):
        return root.children, best
    actions: dict[Any, Node] = {}
    for k, child in root.children.items():
        if is_group(k):
            actions.update(child.children)
        else:
            actions[k] = child
    if best is not None and is_group(best):
        best = best_child(root.children[best])
    return actions, best
