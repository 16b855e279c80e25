"""One table of ``rulepack serve``: its game, the record it writes as it goes, its
bots, and what each seat is sent.

A seat is sent only what its player may know: the picture of that seat's view (the
render package draws hidden pieces as their backs), its scores as it sees them, the
legal actions when it is to move, the story's new lines as that seat may know them
(:mod:`rulepack.story`), and the result. A spectator (seat ``-1``,
:data:`rulepack.story.TABLE`) is sent the table's picture and story (what every seat
sees and is told). No message carries the view's JSON, the history, the seed or
another seat's actions list.

An action comes with the number of decisions the sender saw; it is taken only if
that is still the number, the sender is the seat to move and the text is one of the
legal actions (otherwise refused with a message, the position unchanged).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rulepack import story
from rulepack.agents.bots import Decision, make_agent
from rulepack.engine.views import scores_seen
from rulepack.records import RecordWriter, read_record, replay
from rulepack.web.store import TableRow

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import Action, State
    from rulepack.game import Game

HUMAN = "human"
#: the most lines of the story a page is sent when it connects
STORY_LINES = 300


class Refused(Exception):
    """An action that is not taken: stale, not the sender's turn, or not legal."""


class Table:
    """A table's game in progress (see the module's description)."""

    def __init__(self, row: TableRow, game: "Game", state: "State", writer: RecordWriter) -> None:
        self.row = row
        self.game = game
        self.state = state
        self.writer = writer
        self.bots = {seat: make_agent(kind, row.seed, seat) for seat, kind in enumerate(row.seats)
                     if kind != HUMAN}
        self.seats = [str(s) for s in cast("list[object]", state.view(0)["seats"])]
        #: the viewers a story is kept for: each seat, and the table (spectators)
        self.viewers: list[int | None] = [*range(row.players), story.TABLE]
        #: each viewer's story so far, as lines (:func:`rulepack.story.line`)
        self.story: dict[int | None, list[str]] = {v: [] for v in self.viewers}
        from rulepack.ir import chance_names
        #: the names the flow binds to chance outcomes (a picture's heading shows them)
        self.chance = chance_names(game.ir)
        #: names the ruleset and its seats for the drawer (its looks are built once)
        self.looks_key = f"{game.file or game.name}|{'|'.join(self.seats)}"
        #: the pictures drawn last: seat → (decision, SVG)
        self.pictures: dict[int, tuple[int, str]] = {}
        if state.is_terminal():
            self.writer.close()

    @classmethod
    def start(cls, row: TableRow, game: "Game") -> "Table":
        """A new game at a new table, its record begun.

        :raises RulepackError: the options or player count do not fit the ruleset."""
        state = game.new_game(row.players, seed=row.seed, options=row.options)
        from rulepack.render.output import appearance
        appearance(game, state)      # a bad draw hint is refused here, not by the drawer
        writer = RecordWriter(row.record, game, state, row.ruleset, row.seats)
        table = cls(row, game, state, writer)
        table._begin(state)          # the setup's shuffles and deals
        return table

    @classmethod
    def resume(cls, row: TableRow) -> "Table":
        """A table's game taken up from its record (after the server was stopped or
        killed): replayed to its last decision, the record continued.

        :raises RulepackError: the record is bad or does not replay."""
        record = read_record(row.record)
        done = replay(record)
        writer = RecordWriter(row.record, done.game, done.state, row.ruleset, row.seats,
                              append=True)
        for line in done.missing:
            writer.write(line)
        table = cls(row, done.game, done.state, writer)
        # the story told again: the game set up as the record's, and its decisions
        again = done.game.new_game(row.players, seed=row.seed, options=row.options)
        table._begin(again)
        for _, line in record.entries:
            if line["type"] == "decision":
                table._tell(again, line["index"])
        return table

    def _begin(self, state: "State") -> None:
        """Begin each viewer's story with the setup of ``state``, a game not yet played
        (its shuffles and deals)."""
        for v in self.viewers:
            self.story[v] = [story.line(e, self.seats, v)
                             for e in story.describe_entries(state, state.history, v)]

    def _tell(self, state: "State", index: int) -> None:
        """Take the legal action ``index`` in ``state``, adding to each viewer's story."""
        told = story.step(state, state.legal_actions()[index], self.viewers)
        for v, events in told.items():
            self.story[v] += [story.line(e, self.seats, v) for e in events]

    # ------------------------------------------------------------------ playing
    def act(self, seat: int, decision: int, text: str) -> None:
        """Take ``text`` for ``seat``, which saw ``decision`` decisions.

        :raises Refused: stale, not the seat's turn, not legal, or the game is over."""
        state = self.state
        if state.is_terminal():
            raise Refused("the game is over")
        if decision != state.decisions:
            raise Refused("that position has changed: here is the new one")
        if seat != state.current_player:
            raise Refused("it is not your turn")
        texts = [a.text for a in state.legal_actions()]
        if text not in texts:
            raise Refused("that is not a legal action here")
        self._apply(seat, texts.index(text))

    def bot_to_move(self) -> bool:
        """Whether a bot is to move."""
        return not self.state.is_terminal() and self.state.current_player in self.bots

    def bot_step(self) -> None:
        """The bot to move decides, and its action is taken."""
        seat = self.state.current_player
        decision = Decision(self.state, seat)
        index = self.bots[seat].choose(decision)
        self._apply(seat, int(index))

    def _apply(self, seat: int, index: int) -> None:
        state = self.state
        since = len(state.history)
        self._tell(state, index)
        self.writer.after(state, seat, index, since)
        if state.is_terminal():
            self.writer.finish(state)

    # ------------------------------------------------------------------ messages
    def _marks(self, action: "Action", seat: int) -> list[str]:
        """The places of the picture an action names, in order, as the picture marks
        them: ``"p12"`` a piece the seat sees (``data-piece``), ``"cboard/b4"`` a
        grid's cell (``data-cell``). A page picks an action by clicking them."""
        from rulepack.engine.queries import visible
        from rulepack.engine.values import Cell, Piece
        out: list[str] = []
        zones = self.state.program.zones
        stack: list[object] = list(reversed(action.values))
        while stack:
            value = stack.pop()
            if isinstance(value, (list, tuple)):
                stack.extend(reversed(value))
            elif type(value) is Piece:
                if visible(self.state.position, value, seat):
                    out.append(f"p{value.id}")
            elif type(value) is Cell:
                out.append(f"c{zones[value.zone].label}/{value.label}")
        return out

    def message(self, seat: int, told: int | None = None) -> dict[str, Any]:
        """What ``seat`` (-1: a spectator) is sent of the position now (its picture
        follows: :meth:`picture_of`).

        :param told: how many lines of its story the page has; None (a page that has
            just connected): the last :data:`STORY_LINES` lines, and ``"story_reset"``.
        :returns: a ``position`` message; its ``story_at`` is the story's length."""
        state = self.state
        out: dict[str, Any] = {"type": "position", "decision": state.decisions,
                               "seat": seat, "seats": self.seats,
                               "terminal": state.is_terminal()}
        lines = self.story[seat if seat >= 0 else story.TABLE]
        if told is None:
            out["story_reset"] = True
            told = max(0, len(lines) - STORY_LINES)
        out["story"] = lines[told:]
        out["story_at"] = len(lines)
        if seat >= 0:
            out["scores"] = scores_seen(state.position, seat)
        if not state.is_terminal():
            mover = state.current_player
            out["to_move"] = self.seats[mover] if mover >= 0 else "chance"
            legal = state.legal_actions() if mover == seat else []
            out["actions"] = [a.text for a in legal]
            out["marks"] = [self._marks(a, seat) for a in legal]
        else:
            from rulepack.rulebook.screen import plain, why_ended
            result = state.result()
            out["winners"] = [self.seats[w] for w in result.get("winners") or []]
            out["scores"] = result.get("scores")
            out["why"] = plain(why_ended(self.game, state, dict(self.row.options)))
        return out

    def picture_of(self, seat: int) -> tuple[Any, ...]:
        """What :func:`rulepack.web.pictures.draw` needs to draw the picture ``seat``
        (-1: a spectator, the table's view) may see now: the seat's view, never the
        position."""
        from rulepack.render.tableview import seat_view
        components = self.game.ir.get("components") or []
        view = seat_view(self.state, None if seat < 0 else seat, components)
        return (self.looks_key, components, self.seats, self.chance, self.game.title, view)
