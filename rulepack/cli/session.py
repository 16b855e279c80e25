"""One game at the terminal, from the first decision to the result.

Three ways to watch, chosen by the seats:

- bots only: a spectator's story — every event with everything named;
- one human: the story as that player may know it, printed as it happens, and
  before each of their decisions their view and the numbered actions;
- several humans sharing the screen: each one's story is kept until their next
  decision, then shown after the screen has been handed over.

Agents only ever get a :class:`~rulepack.agents.bots.Decision`; the
human seat only ever sees ``state.view(player)`` and masked texts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from rulepack.cli import render
from rulepack.cli.args import HUMAN
from rulepack.story import Event, Viewer, describe_entries, step
from rulepack.cli.interactive import Keyboard
from rulepack.agents.bots import Agent, Decision, make_agent, notify, seen_before
from rulepack.printable import printable
from rulepack.engine.values import Player, describe

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.outcome import Outcome
    from rulepack.game import Game
    from rulepack.records import RecordWriter
    from rulepack.engine.state import State


def make_agents(kinds: list[str], seed: int) -> dict[int, Agent]:
    """A seeded agent for every bot seat."""
    return {seat: make_agent(kind, seed, seat) for seat, kind in enumerate(kinds) if kind != HUMAN}


def bot_index(agent: Agent, state: "State", player: int) -> int:
    """The index an agent chooses, checked."""
    decision = Decision(state, player)
    index = agent.choose(decision)
    if not isinstance(index, int) or not 0 <= index < decision.count:
        raise RuntimeError(f"agent {getattr(agent, 'name', agent)!r} chose {index!r} "
                           f"among {decision.count} actions")
    return index


class Session:
    """Plays ``state`` to its end at the console.

    :param kinds: the kind of each seat: ``"human"`` or an agent name.
    :param seed: the game seed (it also seeds the bots).
    :param agents: the bots, by seat (default: new ones from ``kinds`` and ``seed``;
        a resumed game passes those that followed the replay).
    :param recorder: writes the game's record as it goes (see :mod:`rulepack.records`).
    :param resumed: the game is taken up after ``state.decisions`` decisions: the
        story so far is not told again.
    :param verbose: show every zone, variable and stacked piece (default: the compact
        screen of :func:`rulepack.cli.render.view_renderable`).
    :raises rulepack.cli.interactive.Quit: a human quits.
    :raises rulepack.errors.RulepackError: the ruleset fails while running.
    """

    def __init__(self, game: "Game", state: "State", kinds: list[str], seed: int,
                 console: Console, show_chance: bool = True,
                 agents: dict[int, Agent] | None = None, recorder: "RecordWriter | None" = None,
                 resumed: bool = False, verbose: bool = False) -> None:
        self.game = game
        self.state = state
        self.kinds = kinds
        self.console = console
        self.show_chance = show_chance
        self.recorder = recorder
        self.resumed = resumed
        self.compact = not verbose
        self.humans = [seat for seat, kind in enumerate(kinds) if kind == HUMAN]
        self.agents = agents if agents is not None else make_agents(kinds, seed)
        self.observers = [(seat, a) for seat, a in self.agents.items() if hasattr(a, "observe")]
        self.keyboard = Keyboard(console, self.humans) if self.humans else None
        self.shared = len(self.humans) > 1
        self.viewers: list[Viewer] = list(self.humans) if self.humans else [None]
        self.waiting: dict[Viewer, list[RenderableType]] = {v: [] for v in self.viewers}
        self.per_player = {v["name"] for v in game.ir.get("variables", []) if v.get("per_player")}
        self.chance = render.chance_names(game.ir)
        teams = [" & ".join(describe(Player(p), state.program.seat_names) for p in team)
                 for team in state.program.teams or ()]
        #: the per-team variables, with the teams' labels (``"north & south"``)
        self.per_team = {v["name"]: teams for v in game.ir.get("variables", [])
                         if v.get("per_team")}
        public = state.view(0)
        #: the seats' names as shown (printable: no control character nor line break)
        seats = public["seats"]
        assert isinstance(seats, list)
        self.seats: list[str] = [printable(s) for s in seats]
        #: the game's title as shown
        self.title = printable(game.title)
        self.round = public.get("round")
        scores = None if state.program.score is not None and state.program.score.secret else public.get("scores")
        assert scores is None or isinstance(scores, list)
        self.scores: list[Any] | None = scores

    # ------------------------------------------------------------------ output
    def emit(self, viewer: Viewer, items: list[RenderableType], at_screen: bool = False) -> None:
        """Show lines to a viewer now, or keep them until their next decision.

        :param at_screen: the viewer is the one at the shared screen now.
        """
        if self.shared and not at_screen:
            self.waiting[viewer].extend(items)
        else:
            for item in items:
                self.console.print(item, soft_wrap=True)

    def _event_lines(self, events: list[Event], viewer: Viewer) -> list[RenderableType]:
        return [render.event_text(e, self.seats, viewer) for e in events
                if self.show_chance or e.kind != "chance"]

    def _public_notes(self) -> tuple[list[RenderableType], list[RenderableType]]:
        """(score changes, new round marker) since the last call."""
        public = self.state.view(0)
        scores_note: list[RenderableType] = []
        round_note: list[RenderableType] = []
        # seat 0's view: with a secret score (docs: var ... seen by owner) none is public
        public_scores = None if self.state.program.score is not None and self.state.program.score.secret else public.get("scores")
        assert public_scores is None or isinstance(public_scores, list)
        if public_scores != self.scores:
            self.scores = public_scores
            text = render.scores_text(self.scores, self.seats)
            if text is not None:
                scores_note.append(text)
        if public.get("round") != self.round:
            self.round = public.get("round")
            if self.round and not self.state.is_terminal():
                round_note.append(Rule(Text(f"round {self.round}", style="bold")))
        return scores_note, round_note

    def header(self) -> RenderableType:
        who = ", ".join(f"{self.seats[p]} ({self.kinds[p]})" for p in range(len(self.kinds)))
        if self.humans:
            # the seed fixes every hidden piece: a player at the screen sees it at the end
            return Text(f"{self.title} · {who}", style="bold")
        return Text(f"{self.title} · {who} · seed {self.state.position.seed}", style="bold")

    def _options(self) -> dict[str, Any]:
        return dict(self.state.program.options)

    def ending(self) -> RenderableType:
        """How the game ends and who wins, in English, for this game's player count and
        options (:func:`rulepack.rulebook.screen.ending_lines`)."""
        from rulepack.rulebook.screen import ending_lines
        lines = ending_lines(self.game, self.state.program.num_players, self._options())
        return Text("\n".join(printable(line.replace("*", "")) for line in lines), style="dim")

    def rules(self) -> None:
        """Print the short rules of this game at this player count and options: the
        rulebook's play, terms, scoring and end (``rulepack explain`` keeps the
        designer's tables)."""
        from rulepack.rulebook.screen import plain, short_rules
        text = short_rules(self.game, self.state.program.num_players, self._options())
        # as plain text: what the ruleset wrote is never read as markup
        self.console.print(Text(printable(plain(text), newlines=True)))

    def view(self, player: int) -> RenderableType:
        """The screen of ``player`` (compact unless verbose)."""
        view = self.state.view(player)
        return render.view_renderable(view, self.game.title, self.per_player, self.chance,
                                      compact=self.compact, per_team=self.per_team)

    # ------------------------------------------------------------------ the game
    def run(self) -> "Outcome":
        """Play to the end; returns ``state.result()``."""
        self.console.print(self.header(), soft_wrap=True)
        if self.humans:
            self.console.print(self.ending())
        for v in self.viewers:
            start: list[RenderableType] = []
            if self.resumed:
                start.append(Text(f"resumed after {self.state.decisions} decisions",
                                  style="bold"))
            if self.round:
                start.append(Rule(Text(f"round {self.round}", style="bold")))
            if not self.resumed:
                start += self._event_lines(describe_entries(self.state, self.state.history, v),
                                           v)
            self.emit(v, start)
        while not self.state.is_terminal():
            player = self.state.current_player
            if player in self.agents:
                index = bot_index(self.agents[player], self.state, player)
            else:
                index = self.ask_human(player)
            action = self.state.legal_actions()[index]
            since = len(self.state.history)
            before = seen_before(self.state, action, self.observers)
            events = step(self.state, action, self.viewers)
            if self.recorder is not None:
                self.recorder.after(self.state, player, index, since)
            notify(self.observers, self.state, since, before)
            scores_note, round_note = self._public_notes()
            for v in self.viewers:
                if round_note:
                    # what closes the round (its reveals and narrations) above the new
                    # round's heading, from its first chance event (the new deal) below
                    new = next((i for i, e in enumerate(events[v]) if e.kind == "chance"),
                               len(events[v]))
                    lines = (self._event_lines(events[v][:new], v) + scores_note + round_note
                             + self._event_lines(events[v][new:], v))
                else:
                    lines = self._event_lines(events[v], v) + scores_note
                self.emit(v, lines, at_screen=v == player and self.keyboard is not None
                          and self.keyboard.owner == player)
        return self.finish()

    def ask_human(self, player: int) -> int:
        """Show ``player`` their screen and read their choice."""
        assert self.keyboard is not None
        self.keyboard.hand_over(player, self.seats[player])
        if self.shared and self.waiting[player]:
            self.console.print(Text("Since your last turn:", style="bold"))
            for item in self.waiting[player]:
                self.console.print(item, soft_wrap=True)
        self.waiting[player] = []
        texts = Decision(self.state, player).actions
        if len(texts) == 1:
            self.console.print(Text(f"Your only move: {printable(texts[0])} (played for you)",
                                    style="yellow"), soft_wrap=True)
            return 0

        def show() -> None:
            self.console.print(self.view(player))
            self.console.print(render.actions_renderable(texts))
        show()
        return self.keyboard.choose(len(texts), show, texts, rules=self.rules)

    def finish(self) -> "Outcome":
        result = self.state.result()
        if self.recorder is not None:
            self.recorder.finish(self.state)
        if self.shared:
            assert self.keyboard is not None
            self.keyboard.hide()
            self.console.print(Text(f"{self.title}: game over", style="bold"))
        elif self.humans:
            viewer = self.humans[0]
            self.console.print(self.view(viewer))
        solo = self.humans[0] if len(self.humans) == 1 else None
        self.console.print(render.result_renderable(result, self.seats, self.kinds, solo))
        from rulepack.rulebook.screen import score_lines, why_ended
        why = why_ended(self.game, self.state, self._options())
        if why:
            self.console.print(Text(printable(why.replace("*", "")), style="bold"))
        for line in score_lines(self.game, self.state, self._options()):
            self.console.print(Text(printable(line.replace("*", ""))))
        ending = f" · seed {self.state.position.seed}" if self.humans else ""   # hidden until now
        self.console.print(Text(f"{self.state.decisions} decisions{ending}", style="dim"))
        return result
