"""The search agents: ``mcts``, ``ismcts`` and ``pimc`` (see :mod:`rulepack.agents.search`).

Each decides from its :class:`~rulepack.agents.bots.Decision` only: the view,
the action texts and what it has observed before (a
:class:`~rulepack.agents.belief.Belief` that follows hidden pieces it saw). It
answers with the index of an action whose text is the one its search liked best.

All take the options of :class:`~rulepack.agents.search.SearchOptions`::

    MCTSAgent(seed, iterations=300)                      # Python
    --seat mcts:iterations=300  --seat ismcts:seconds=0.5,c=1   # the command line
"""

from __future__ import annotations

from typing import Any

from rulepack.engine.queries import describe_for
from rulepack.agents.belief import Belief
from rulepack.agents.value import has_hidden
from rulepack.agents.determinize import Sampler
from rulepack.agents.search import (MCTS_BIAS, Node, Search, SearchOptions, action_children,
                                    exact_key, masked_key)
from rulepack.engine.rng import Rng


class SearchAgent:
    """What the three search agents share: options, seed, belief, the answer.

    :param seed: the agent's seed (see :func:`~rulepack.agents.bots.agent_seed`).
    :param options: keyword options of :class:`SearchOptions` (``iterations=300``...).
    :raises ValueError: a bad option value.
    """

    name = "search"
    #: ``notify`` shows it each action as it saw it
    sees_actions = True

    def __init__(self, seed: int = 0, **options: Any) -> None:
        self.options = options.pop("search", None) or SearchOptions(**options)
        self.rng = Rng(seed)
        self.belief = Belief(self.rng.below(1 << 62))

    def observe(self, view: dict[str, Any], reveals: list[dict[str, Any]] | None = None,
                action: tuple[Any, ...] | None = None) -> None:
        self.belief.observe(view, reveals, action)

    def choose(self, decision: Any) -> int:
        if decision.count == 1:
            return 0
        view = decision.view
        self.belief.bind(decision.program)
        self.belief.observe(view)
        texts = decision.actions
        votes = self.search(decision, view)
        top = max(votes.get(t, 0.0) for t in texts)
        best = [i for i, t in enumerate(texts) if votes.get(t, 0.0) == top]
        return best[self.rng.below(len(best))] if len(best) > 1 else best[0]

    def search(self, decision: Any, view: dict[str, Any]) -> dict[str, float]:
        """Votes per action text (the most voted is played)."""
        raise NotImplementedError

    def sampler(self, decision: Any, view: dict[str, Any]) -> Sampler:
        return Sampler(decision.program, view, self.rng, known=self.belief.known(view),
                       linked=self.belief.links())


def votes_of(root: Node, player: int, ref: Any) -> dict[str, float]:
    """Root children → ``{text: visits}``, texts as ``player`` reads them in ``ref``;
    the most visited child gets a bonus so that it wins a tie of texts."""
    render = describe_for(ref.position, player)
    out: dict[str, float] = {}
    actions, best = action_children(root)
    for k, child in actions.items():
        text = child.action.render(render)
        out[text] = out.get(text, 0.0) + child.visits + (0.5 if k == best else 0.0)
    if actions is not root.children and best is not None:
        # move groups: the best action of the best group, however few its visits
        text = actions[best].action.render(render)
        out[text] = max(out.values()) + 0.5
    return out


class MCTSAgent(SearchAgent):
    """UCT on one state rebuilt from the view (every hidden piece guessed once per
    decision: meant for games without hidden information), chance sampled; with
    a heuristic, progressive bias below the root (``bias``, default
    :data:`~rulepack.agents.search.MCTS_BIAS`)."""

    name = "mcts"

    def search(self, decision: Any, view: dict[str, Any]) -> dict[str, float]:
        sampler = self.sampler(decision, view)
        base = sampler.base
        root = Search(lambda rnd: base.clone(), decision.player, exact_key, self.options,
                      self.rng, bias=MCTS_BIAS).run()
        return votes_of(root, decision.player, base)


class ISMCTSAgent(SearchAgent):
    """Single-observer information-set MCTS: a new determinization each iteration,
    consistent with everything the agent has seen; the tree keyed by actions as
    the agent sees them and, after each action, by what the agent observes of
    its result (where the view hides something; option ``observe``); by move
    groups (option ``groups``, on by default)."""

    name = "ismcts"

    def search(self, decision: Any, view: dict[str, Any]) -> dict[str, float]:
        sampler = self.sampler(decision, view)
        hidden = has_hidden(view)
        if hidden:
            sample = sampler.sample
            key = masked_key
        else:
            base = sampler.base
            sample, key = (lambda rnd: base.clone()), exact_key
        root = Search(sample, decision.player, key, self.options, self.rng,
                      observe=hidden, groups=True).run()
        return votes_of(root, decision.player, sampler.base)


class PIMCAgent(SearchAgent):
    """Perfect-information Monte Carlo: ``samples`` determinizations, a UCT search
    of each with an equal share of the budget, and a vote (each search votes for
    its most visited action; visits break ties)."""

    name = "pimc"

    def search(self, decision: Any, view: dict[str, Any]) -> dict[str, float]:
        import random
        sampler = self.sampler(decision, view)
        opts = self.options
        samples = opts.samples if has_hidden(view) else 1
        budget = max(1, opts.budget // samples)
        if opts.seconds is not None:
            from dataclasses import replace
            opts = replace(opts, seconds=opts.seconds / samples)
        votes: dict[str, float] = {}
        rnd = random.Random(self.rng.below(1 << 62))
        for _ in range(samples):
            base = sampler.sample(rnd)
            # the search runs (and is dropped) within this sample: it roots at this base
            root = Search(lambda _: base.clone(), decision.player, exact_key, opts,
                          self.rng).run(budget)
            tally = votes_of(root, decision.player, base)
            total = sum(tally.values()) or 1.0
            top = max(tally, key=lambda t: tally[t])
            for text, n in tally.items():
                votes[text] = votes.get(text, 0.0) + (1.0 if text == top else 0.0) + n / total / 2
        return votes


#: The search agents by name (see :data:`rulepack.agents.bots.SEARCH_AGENTS`).
SEARCHERS: dict[str, type[SearchAgent]] = {
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
    "pimc": PIMCAgent,
}
