"""Game records: JSON Lines written as a game goes, read back, replayed and verified.

A record (format ``rulepack-record/2``, ``format_version`` 2, checked line by
line against ``schemas/record.schema.json``) is:

- a ``header``: the format and its version, the ruleset (name, where it was
  loaded from, and the SHA-256 of its compiled rules) and the language version
  it declares, player count, options, seed, seat names, the agent of each seat,
  the decision limit and rulepack's version;
- one ``chance`` line per chance event (a shuffle, a random choice and its
  outcome) and one ``decision`` line per decision (its number, the player, the
  index of the action among the legal actions in their canonical order, and the
  action's text), in the order they happened;
- at the end, a ``result`` line (scores, winners, the SHA-256 of the final
  state's JSON) or, for a game interrupted, a ``stop`` line.

Every line is flushed when it is written, so a game that is interrupted, or a
program that crashes, leaves a record of everything up to then: a game resumes
from it (``rulepack resume``). The seed fixes every chance event, so replaying
is re-executing: :func:`replay` plays the recorded decisions from the seed and
checks each action text, each chance event and the result against the record.

Records of format 1 (``rulepack-record/1``, written before headers had a
``format_version``) are read and replayed as they are: their lines are those of
format 2 but for the header's ``format_version`` and ``language``. A format this
rulepack does not read (a newer one) is a located error at the header, with a
hint (:func:`rulepack.versions.record_format_version`).

Errors: :class:`RecordError` (a :class:`~rulepack.errors.RulepackError`)
located at the line of the record (and the column, for bad JSON).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable

from rulepack.errors import Diagnostic, Location, RulepackError
from rulepack.files import (MAX_RECORD_BYTES, MAX_RECORD_LINE_BYTES, nesting_error,
                            read_limited, shorten)
from rulepack.engine.serialize import encode, plain
from rulepack.engine.state import Action, ChanceEvent
from rulepack.engine.values import player_name
from rulepack.versions import RECORD_FORMAT_VERSION, record_format_version

if TYPE_CHECKING:  # pragma: no cover
    from rulepack.game import Game
    from rulepack.engine.state import State

FORMAT = f"rulepack-record/{RECORD_FORMAT_VERSION}"

#: The deepest nesting of a record line (an outcome is at most a few levels deep).
MAX_RECORD_NESTING = 50

#: The kinds of line, by their ``"type"``.
_LINE_TYPES = ("header", "chance", "decision", "result", "stop")


class RecordError(RulepackError):
    """A record that cannot be read, or that the replay contradicts."""


# ---------------------------------------------------------------------- hashing
def ruleset_hash(game: "Game") -> str:
    """SHA-256 (hex) of the compiled rules: the merged IR as canonical JSON,
    without source positions and file names, so comments, layout and where the
    file lies do not change it, and a change in a library it uses does; nor do a
    component's ``draw`` hints, which change pictures, not play, nor the language
    version the ruleset declares."""
    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("at", "file", "draw") and
                    not k.endswith("_at")}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    ir = {k: v for k, v in game.ir.items() if k != "language"}  # how it is written, not what
    text = json.dumps(strip(ir), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def state_hash(state: "State") -> str:
    """SHA-256 (hex) of ``state.to_json()`` as canonical JSON: equal for equal states.
    What the state says of itself for readers (the labels of zones and pieces,
    where each chance event was drawn, a shuffle's new order, all of which follow
    from the rest) is left out, so records keep their hashes."""
    data = state.to_json()
    data.pop("labels", None)
    history = data.get("history")
    for event in history if isinstance(history, list) else []:
        if isinstance(event, dict) and "chance" in event:
            event.pop("at", None)
            if event["chance"] == "shuffle":
                event["outcome"] = None
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------- lines
def header_line(game: "Game", state: "State", source: str, agents: list[str]) -> dict[str, Any]:
    """The first line of a record for a game just started (``state`` fresh from
    ``new_game``). ``source``: the ruleset as given (a bundled name or a path);
    ``agents``: the kind of each seat (``"human"`` or an agent name)."""
    from rulepack import __version__
    inst = state.program
    return {"type": "header", "format": FORMAT, "format_version": RECORD_FORMAT_VERSION,
            "ruleset": {"name": game.name, "source": source, "sha256": ruleset_hash(game)},
            "language": game.ir.get("language"),
            "title": game.title, "players": state.program.num_players,
            "options": plain(dict(inst.options)), "seed": state.position.seed,
            "seats": [player_name(p, inst.seat_names) for p in range(inst.num_players)],
            "agents": list(agents),
            "max_decisions": state.position.max_decisions, "rulepack": __version__}


def chance_lines(state: "State", since: int) -> list[dict[str, Any]]:
    """The ``chance`` lines of the chance events in ``state.history[since:]``
    (reveals follow from the decisions and the seed and are not recorded)."""
    return [chance_line(e) for e in state.history[since:] if isinstance(e, ChanceEvent)]


def chance_line(event: ChanceEvent) -> dict[str, Any]:
    """A chance event as a record line (a shuffle's order is not recorded: the
    seed gives it)."""
    line: dict[str, Any] = {"type": "chance", "kind": event.kind, "detail": event.detail}
    if event.outcome is not None and event.kind != "shuffle":
        line["outcome"] = encode(event.outcome)
    return line


def decision_line(number: int, player: int, index: int, action: Action) -> dict[str, Any]:
    """Decision ``number`` (from 1): ``player`` took the action at ``index`` of the
    legal actions (their canonical order)."""
    return {"type": "decision", "n": number, "player": int(player), "index": index,
            "action": action.text}


def result_line(state: "State") -> dict[str, Any]:
    result = state.result()
    line = {"type": "result", "decisions": state.decisions, "scores": plain(result["scores"]),
            "winners": plain(result["winners"]), "draw": bool(result["draw"]),
            "state_sha256": state_hash(state)}
    if result.get("teams") is not None:      # by team, for a game with partners
        line["teams"] = [{"players": [int(p) for p in t["players"]], "score": plain(t["score"]),
                          "winner": t["winner"]} for t in result["teams"]]
    return line


# ---------------------------------------------------------------------- writing
class RecordWriter:
    """Writes the record of one game as it goes: every line is flushed at once.

    The file is created readable and writable by its owner only (mode 0600).

    Use: ``RecordWriter(path, game, state, source, agents)`` right after
    ``new_game`` (it writes the header and the setup's chance events), then
    :meth:`apply` for each decision instead of ``state.apply``, and :meth:`finish`
    or :meth:`stop` at the end.

    :param append: continue a record (resuming): no header is written and the
        game is taken up at ``state`` as it is.
    :raises OSError: the file cannot be written.
    """

    def __init__(self, path: str | Path, game: "Game", state: "State", source: str,
                 agents: list[str], append: bool = False) -> None:
        self.path = Path(path)
        #: decisions recorded (the stop line's count: a failed action is not one)
        self.decisions = state.decisions
        # open for the whole game, each line flushed; closed by finish() or stop();
        # readable by its owner only (it holds the seed, which gives every hidden
        # piece away)
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
        # never waiting on a named pipe; a record is a regular file
        fd = os.open(self.path, flags | getattr(os, "O_NONBLOCK", 0), 0o600)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(errno.EINVAL, "not a regular file", str(self.path))
        os.set_blocking(fd, True)
        if not append:
            os.fchmod(fd, 0o600)   # a file that was there before, too
        self.file: IO[str] = open(fd, "a" if append else "w", encoding="utf-8")  # noqa: SIM115
        if not append:
            self.write(header_line(game, state, source, agents))
            for line in chance_lines(state, 0):
                self.write(line)

    def write(self, line: dict[str, Any]) -> None:
        self.file.write(json.dumps(line, ensure_ascii=False) + "\n")
        self.file.flush()

    def after(self, state: "State", player: int, index: int, since: int) -> None:
        """Record the decision just applied, the one at ``index`` among the legal
        actions ``player`` chose from, and the chance events it led to (the
        history from ``since``, its length before the action)."""
        self.decisions += 1
        self.write(decision_line(self.decisions, player, index, state.history[since]))
        for line in chance_lines(state, since + 1):
            self.write(line)

    def finish(self, state: "State") -> None:
        """The result line of a game that has ended; closes the file."""
        self.write(result_line(state))
        self.close()

    def stop(self, state: "State", reason: str) -> None:
        """A ``stop`` line for a game interrupted (``reason``: ``"quit"``,
        ``"error"``...); closes the file."""
        self.write({"type": "stop", "reason": reason, "decisions": self.decisions})
        self.close()

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()


# ---------------------------------------------------------------------- reading
@dataclass
class Record:
    """A record read from a file.

    :param header: the header line (a dict).
    :param entries: the ``chance`` and ``decision`` lines, in order, each with
        its line number in the file (``(line, data)``).
    :param end: the ``result`` or ``stop`` line and its line number, or ``None``
        for a record cut short (the program ended without writing one).
    :param warnings: a last line cut short and dropped.
    :param cut: the number of that line.
    """

    path: str
    header: dict[str, Any]
    entries: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    end: tuple[int, dict[str, Any]] | None = None
    #: what reading it found to say: a last line cut short and dropped
    warnings: list[Diagnostic] = field(default_factory=list)
    #: the number of the last line, cut short and dropped, if there was one
    cut: int | None = None

    @property
    def format_version(self) -> int:
        """The record's format version (1: a header without ``format_version``)."""
        return int(self.header.get("format_version", 1))

    @property
    def decisions(self) -> int:
        return sum(1 for _, e in self.entries if e["type"] == "decision")

    @property
    def finished(self) -> bool:
        """The game ended (the record has a result)."""
        return self.end is not None and self.end[1]["type"] == "result"


def _error(path: str, line: int | None, message: str, column: int | None = None,
           code: str = "bad-record", source: str | None = None) -> RecordError:
    return RecordError(Diagnostic(message, Location(path, line, column), code=code,
                                  source_line=source))


def _json_line(path: str, number: int, chunk: bytes) -> Any:
    """The JSON value of one line of a record (bytes without the newline)."""
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _error(path, number, f"not UTF-8 text: byte 0x{chunk[exc.start]:02x}",
                     exc.start + 1) from None
    if chunk.count(b"[") + chunk.count(b"{") > MAX_RECORD_NESTING and \
            nesting_error(text, MAX_RECORD_NESTING) is not None:
        raise _error(path, number, f"not a JSON line: nested more than {MAX_RECORD_NESTING} "
                     "levels deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _error(path, number, f"not a JSON line: {exc.msg}", exc.colno,
                     source=text) from None
    except RecursionError:
        raise _error(path, number, "not a JSON line: nested too deeply") from None
    except ValueError:      # what int() refuses: a number of more than 4,300 digits
        raise _error(path, number, "not a JSON line: a number too long to read") from None


def _cut_warning(path: str, number: int, chunk: bytes) -> Diagnostic:
    """The warning for a last line cut short: what kind of line it was, how much of it
    was written."""
    kind = re.search(rb'"type"\s*:\s*"([a-z]+)"', chunk)
    what = f"a {kind.group(1).decode()} line" if kind and kind.group(1).decode() in _LINE_TYPES \
        else "a line"
    n = re.search(rb'"n"\s*:\s*([0-9]+)\s*,', chunk)
    if kind and kind.group(1) == b"decision" and n:
        what = f"decision {int(n.group(1))}"
    return Diagnostic(f"the last line, {what}, was cut short after {len(chunk)} bytes (the "
                      "program stopped while writing it); it is dropped"
                      + (f" and the record is read up to line {number - 1}" if number > 1 else ""),
                      Location(path, number), severity="warning",
                      code="record-cut")


def read_record(path: str | Path) -> Record:
    """Read and check a record file.

    A last line cut short (no newline, and not a whole JSON line: the program was
    killed or the power failed while writing it) is dropped, with a warning in
    :attr:`Record.warnings` naming it; the record then ends at the line before.

    :raises RecordError: the file is missing, not a regular file, larger than
        :data:`~rulepack.files.MAX_RECORD_BYTES`, not JSON Lines, a line does not
        follow the schema, or the lines are out of order (located at the line).
    """
    from rulepack.schemas.validate import record_line_validator
    display = str(path)
    raw = read_limited(path, MAX_RECORD_BYTES, "record", display, error=RecordError)
    chunks = raw.split(b"\n")
    lines: list[tuple[int, dict[str, Any]]] = []
    warnings: list[Diagnostic] = []
    cut: int | None = None
    for number, chunk in enumerate(chunks, start=1):
        last = number == len(chunks)   # no newline after it: perhaps cut short
        chunk = chunk.removesuffix(b"\r")
        if not chunk.strip():
            continue
        if len(chunk) > MAX_RECORD_LINE_BYTES:
            raise _error(display, number, f"a line of {len(chunk)} bytes, more than a record "
                         f"line may be ({MAX_RECORD_LINE_BYTES})")
        try:
            data = _json_line(display, number, chunk)
        except RecordError:
            if not last:
                raise
            cut = number
            warnings.append(_cut_warning(display, number, chunk))
            break
        kind = data.get("type") if isinstance(data, dict) else None
        text = chunk.decode("utf-8")
        if kind not in _LINE_TYPES:
            raise _error(display, number, "not a record line: a JSON object whose \"type\" is "
                         f"one of {', '.join(_LINE_TYPES)}", source=text)
        errors = sorted(record_line_validator(kind).iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            where = "/".join(str(p) for p in errors[0].absolute_path)
            raise _error(display, number, f"{kind} line: {shorten(errors[0].message)}"
                         + (f" (at {shorten(where)})" if where else ""), source=text)
        lines.append((number, data))
    if not lines:
        raise RecordError(warnings + [Diagnostic("the record is empty: it needs a whole header "
                                                 "line", Location(display), code="bad-record")])
    first, header = lines[0]
    if header["type"] != "header":
        raise _error(display, first, "the first line of a record is its header")
    try:
        record_format_version(header, Location(display, first))
    except RulepackError as exc:
        raise RecordError(exc.diagnostics) from None
    from rulepack.agents.bots import AGENTS, SEARCH_AGENTS, AgentSpecError, check_spec
    if not len(header["seats"]) == len(header["agents"]) == header["players"]:
        raise _error(display, first, f"the header has {header['players']} players, "
                     f"{len(header['seats'])} seats and {len(header['agents'])} agents")
    for agent in header["agents"]:
        if agent == "human":
            continue
        try:
            check_spec(agent)
        except AgentSpecError:
            raise _error(display, first, f"unknown agent {agent!r} (agents: human, "
                         f"{', '.join(sorted([*AGENTS, *SEARCH_AGENTS]))})") from None
    record = Record(display, header, warnings=warnings, cut=cut)
    expected = 1
    for number, data in lines[1:]:
        kind = data["type"]
        if record.end is not None:
            raise _error(display, number, f"a {kind} line after the {record.end[1]['type']} "
                         f"line of line {record.end[0]}")
        if kind == "header":
            raise _error(display, number, "a second header line")
        if kind in ("result", "stop"):
            if data["decisions"] != expected - 1:
                raise _error(display, number, f"the {kind} line counts {data['decisions']} "
                             f"decisions, the record has {expected - 1}")
            record.end = (number, data)
            continue
        if kind == "decision":
            if data["n"] != expected:
                raise _error(display, number, f"decision {data['n']} where decision "
                             f"{expected} was expected")
            expected += 1
        record.entries.append((number, data))
    return record


# ---------------------------------------------------------------------- replaying
@dataclass
class Replay:
    """What :func:`replay` gives: the game, the state after the last recorded
    decision, and warnings (a ruleset changed since the record was made)."""

    game: "Game"
    state: "State"
    warnings: list[Diagnostic] = field(default_factory=list)
    #: chance lines the replay produced past the end of a record cut off in the
    #: middle of a step (no result or stop line): a resumed game writes them first
    missing: list[dict[str, Any]] = field(default_factory=list)


#: ``on_decision(state, player, index)``: called before each recorded decision is
#: applied (bots that must follow the game, for instance).
DecisionHook = Callable[["State", int, int], None]
#: ``after_decision(state, since)``: called after each, with the history's length
#: before it.
AfterHook = Callable[["State", int], None]


def load_recorded_game(record: Record, ruleset: str | None = None) -> tuple["Game", list[Diagnostic]]:
    """The game a record was played with, and a warning if its rules changed.

    The header names the ruleset by its bundled name or by the path the player
    gave (relative paths are tried from the current folder, then from the record's
    folder). Since a record may come from anyone, nothing of a ruleset file it
    names is shown: if that file does not load, the error only says so (the user
    can run ``rulepack validate`` on it).

    :param ruleset: the ruleset to replay with instead (a bundled name or a path
        the user gave): its errors are shown in full.
    :raises RulepackError: the ruleset cannot be found or loaded.
    """
    import rulepack
    from rulepack.loader import RULESET_SUFFIXES, bundled_rulesets
    spec = record.header["ruleset"]
    if ruleset is not None:
        game = rulepack.load(ruleset)
    else:
        source = spec["source"]
        name = shorten(source, 120)
        bundled = source in bundled_rulesets()
        candidates = [Path(source), Path(record.path).parent / source] if not bundled else []
        found = next((c for c in candidates if c.suffix in RULESET_SUFFIXES and c.is_file()),
                     None)
        if found is None and not bundled:
            if spec["name"] not in bundled_rulesets():
                raise _error(record.path, 1, f"the ruleset {name} of this record is not there "
                             "(give it with --ruleset PATH)", code="no-file")
            source = spec["name"]  # the file is gone: the bundled ruleset of that name
        try:
            game = rulepack.load(found if found is not None else source)
        except RulepackError:
            raise _error(record.path, 1, f"the ruleset {name} this record names does not load "
                         f"(rulepack validate shows why)", code="bad-ruleset") from None
    warnings: list[Diagnostic] = list(record.warnings)
    if ruleset_hash(game) != spec["sha256"]:
        warnings.append(Diagnostic(
            f"the rules of {shorten(spec['name'], 80)!r} have changed since this record was "
            "made; replaying it anyway", Location(record.path, 1), severity="warning",
            code="ruleset-changed"))
    return game, warnings


def replay(record: Record, upto: int | None = None,
           on_decision: DecisionHook | None = None,
           after_decision: AfterHook | None = None, ruleset: str | None = None) -> Replay:
    """Re-execute a record from its seed and check it.

    Each decision must be the recorded player's, at a legal index whose action
    has the recorded text; the chance events must be the recorded ones; a result
    line must match the final state (scores, winners and the state's hash).

    :param upto: stop after this many decisions (default: all).
    :param on_decision: called with ``(state, player, index)`` before each
        decision is applied.
    :param after_decision: called with ``(state, since)`` after each.
    :param ruleset: replay with this ruleset instead of the one the record names
        (see :func:`load_recorded_game`).
    :raises RecordError: the replay contradicts the record (located at its line).
    :raises RulepackError: the ruleset cannot be loaded or fails while running.
    """
    game, warnings = load_recorded_game(record, ruleset)
    try:
        return _replay(record, game, warnings, upto, on_decision, after_decision)
    except RecordError as exc:
        if not any(w.code == "ruleset-changed" for w in warnings):
            raise
        raise RecordError(warnings + exc.diagnostics) from None  # the changed rules, first


def _replay(record: Record, game: "Game", warnings: list[Diagnostic], upto: int | None,
            on_decision: DecisionHook | None, after_decision: AfterHook | None) -> Replay:
    h = record.header
    path = record.path
    try:
        state = game.new_game(h["players"], seed=h["seed"], options=h["options"],
                              max_decisions=h.get("max_decisions") or 100_000)
    except RulepackError as exc:
        raise _error(path, 1, f"the recorded game cannot be set up: "
                     f"{exc.diagnostics[0].message}") from None
    pending = chance_lines(state, 0)
    entries = list(record.entries)
    position = 0

    missing: list[dict[str, Any]] = []
    cut_off = record.end is None and upto is None

    def check_chance(produced: list[dict[str, Any]]) -> None:
        nonlocal position
        for line in produced:
            if line["type"] != "chance":
                continue
            if position >= len(entries) and cut_off:
                missing.append(line)   # the program stopped before writing it
                continue
            if position >= len(entries) or entries[position][1]["type"] != "chance":
                at = entries[position][0] if position < len(entries) else None
                raise _error(path, at, f"the replay has a chance event here ({_chance_text(line)}) "
                             "that the record does not", code="replay-mismatch")
            number, recorded = entries[position]
            if not _same_chance(recorded, line):
                raise _error(path, number, f"the record says {_chance_text(recorded)}, the replay "
                             f"gives {_chance_text(line)}", code="replay-mismatch")
            position += 1

    check_chance(pending)
    done = 0
    while position < len(entries) and (upto is None or done < upto):
        number, line = entries[position]
        if line["type"] == "chance":
            raise _error(path, number, f"the record has a chance event here "
                         f"({_chance_text(line)}) that the replay does not",
                         code="replay-mismatch")
        if state.is_terminal():
            raise _error(path, number, "the game is over before this decision",
                         code="replay-mismatch")
        if state.current_player != line["player"]:
            raise _error(path, number, f"decision {line['n']}: the record has player "
                         f"{line['player']} deciding, the replay player {state.current_player}",
                         code="replay-mismatch")
        legal = state.legal_actions()
        index = line["index"]
        if index >= len(legal):
            raise _error(path, number, f"decision {line['n']}: there are {len(legal)} legal "
                         f"actions, not {index + 1} ({line['action']!r})", code="replay-mismatch")
        if legal[index].text != line["action"]:
            raise _error(path, number, f"decision {line['n']}: the record says "
                         f"{line['action']!r}, the replay's action {index} is "
                         f"{legal[index].text!r}", code="replay-mismatch")
        if on_decision is not None:
            on_decision(state, line["player"], index)
        since = len(state.history)
        state.apply(legal[index])
        position += 1
        done += 1
        check_chance(chance_lines(state, since))
        if after_decision is not None:
            after_decision(state, since)
    if upto is None and record.end is not None and record.end[1]["type"] == "result":
        number, end = record.end
        if not state.is_terminal():
            raise _error(path, number, "the record has a result, but the replayed game has not "
                         "ended", code="replay-mismatch")
        got = result_line(state)
        for key in ("winners", "scores", "draw", "state_sha256"):
            if got[key] != end[key]:
                raise _error(path, number, f"the result differs: {key} is {end[key]!r} in the "
                             f"record, {got[key]!r} in the replay", code="replay-mismatch")
    return Replay(game, state, warnings, missing)


def _same_chance(recorded: dict[str, Any], produced: dict[str, Any]) -> bool:
    return (recorded["kind"] == produced["kind"] and recorded["detail"] == produced["detail"]
            and recorded.get("outcome") == produced.get("outcome"))


def _chance_text(line: dict[str, Any]) -> str:
    text = f"'{line['kind']} {line['detail']}'"
    if "outcome" in line:
        text += f" with outcome {json.dumps(line['outcome'])}"
    return text
