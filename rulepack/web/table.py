"""One table of ``rulepack serve``: its game, the record it writes as it goes, its
bots, and what each seat is sent.

A seat is sent only what its player may know: the picture of that seat's view (the
render package draws hidden pieces as their backs), its scores as it sees them, the
legal actions when it is to move, and the result. A spectator (seat ``-1``) is sent
the table's picture (what every seat sees). No message carries the view's JSON, the
history, the seed or another seat's actions list.

An action comes with the number of decisions the sender saw; it is taken only if
that is still the number, the sender is the seat to move and the text is one of the
legal actions (otherwise refused with a message, the position unchanged).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rulepack.agents.bots import Decision, make_agent
from rulepack.records import RecordWriter, read_record, replay
from rulepack.web.store import TableRow

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.engine.state import State
    from rulepack.game import Game

HUMAN = "human"


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
        if state.is_terminal():
            self.writer.close()

    @classmethod
    def start(cls, row: TableRow, game: "Game") -> "Table":
        """A new game at a new table, its record begun.

        :raises RulepackError: the options or player count do not fit the ruleset."""
        state = game.new_game(row.players, seed=row.seed, options=row.options)
        writer = RecordWriter(row.record, game, state, row.ruleset, row.seats)
        return cls(row, game, state, writer)

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
        return cls(row, done.game, done.state, writer)

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
        state.apply(state.legal_actions()[index])
        self.writer.after(state, seat, index, since)
        if state.is_terminal():
            self.writer.finish(state)

    # ------------------------------------------------------------------ messages
    def message(self, seat: int) -> dict[str, Any]:
        """What ``seat`` (-1: a spectator) is sent of the position now."""
        from rulepack.render.output import encode, picture
        state = self.state
        viewer = None if seat < 0 else seat
        svg = encode(picture(self.game, state, viewer, ""), "svg").decode()
        out: dict[str, Any] = {"type": "position", "decision": state.decisions,
                               "seat": seat, "svg": svg, "terminal": state.is_terminal()}
        if seat >= 0:
            out["scores"] = state.view(seat).get("scores")
        if not state.is_terminal():
            mover = state.current_player
            out["to_move"] = self.seats[mover] if mover >= 0 else "chance"
            out["actions"] = [a.text for a in state.legal_actions()] if mover == seat else []
        else:
            from rulepack.rulebook.screen import why_ended
            result = state.result()
            out["winners"] = [self.seats[w] for w in result.get("winners") or []]
            out["scores"] = result.get("scores")
            out["why"] = why_ended(self.game, state, dict(self.row.options))
        return out
