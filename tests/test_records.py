"""Game records (DESIGN.md, Records): written as the game goes, replayed and
verified, and resumed so that an interrupted game goes on exactly as it would have.

"A game record is JSON Lines validated by schemas/record.schema.json: a header
(ruleset name and content hash, options, seed, seats and agents), one line per
decision and chance event, and the result. rulepack replay re-executes a record
and verifies it; an interrupted interactive game resumes from its record, because
the record is written as the game goes, never only at the end."
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulepack
from rulepack.cli.main import main
from rulepack.records import (FORMAT, RecordError, RecordWriter, read_record, replay,
                              ruleset_hash, state_hash)

try:
    from bundled import bundled
except ImportError:  # tests/ imported as a package
    from tests.bundled import bundled

GAMES = [("multzo", 3, {}), ("multiplay", 2, {}), ("mismemory", 2, {}),
         ("packkub", 2, {"rounds": 1}), ("packkub", 3, {"rounds": 1, "jokers": 2})]


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def record_random_game(path: Path, name: str, players: int, options: dict[str, Any],
                       seed: int) -> Any:
    """Play random legal actions, writing the record; returns the final state."""
    game = bundled(name)
    state = game.new_game(players, seed=seed, options=options)
    writer = RecordWriter(path, game, state, name, ["random"] * players)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        player = state.current_player
        since = len(state.history)
        state.apply(legal[index])
        writer.after(state, player, index, since)
    writer.finish(state)
    return state


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, data: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(d) + "\n" for d in data), encoding="utf-8")


@pytest.mark.parametrize("name, players, options", GAMES)
def test_a_recorded_game_replays_to_the_same_final_state(tmp_path, name, players, options):
    path = tmp_path / "game.jsonl"
    played = record_random_game(path, name, players, options, seed=7)
    record = read_record(path)
    assert record.finished and record.decisions == played.decisions
    assert record.header["format"] == FORMAT
    assert record.header["ruleset"]["sha256"] == ruleset_hash(rulepack.load(name))
    done = replay(record)
    assert done.warnings == []
    assert state_hash(done.state) == state_hash(played)
    assert done.state.result()["winners"] == played.result()["winners"]


def test_one_line_per_decision_and_chance_event_in_the_order_they_happened(tmp_path):
    path = tmp_path / "game.jsonl"
    played = record_random_game(path, "multzo", 3, {}, seed=3)
    data = lines(path)
    assert data[0]["type"] == "header" and data[-1]["type"] == "result"
    body = data[1:-1]
    history = [e for e in played.history if type(e).__name__ in ("Action", "ChanceEvent")]
    assert len(body) == len(history)
    for line, entry in zip(body, history):
        if line["type"] == "decision":
            assert line["action"] == entry.text and line["player"] == entry.player
        else:
            assert (line["kind"], line["detail"]) == (entry.kind, entry.detail)
    assert [d["n"] for d in body if d["type"] == "decision"] == list(range(1, played.decisions + 1))


def test_the_record_is_written_as_the_game_goes(tmp_path):
    """Every line is on disk as soon as it is written: a game cut off leaves a
    readable record of everything until then."""
    game = rulepack.load("multzo")
    state = game.new_game(2, seed=1)
    path = tmp_path / "game.jsonl"
    writer = RecordWriter(path, game, state, "multzo", ["random", "random"])
    for _ in range(5):
        since = len(state.history)
        player = state.current_player
        state.apply(state.legal_actions()[0])
        writer.after(state, player, 0, since)
    record = read_record(path)                  # the writer is still open
    assert record.decisions == 5 and record.end is None
    assert state_hash(replay(record).state) == state_hash(state)
    writer.close()


def test_resuming_a_cut_record_gives_the_game_an_uninterrupted_run_gives(tmp_path):
    """The bots of a resumed game make the recorded choices again, so the rest of
    the game is the one the same seed gives without the interruption."""
    full = tmp_path / "full.jsonl"
    result = run("play", "multzo", "--seat", "greedy", "--seat", "memory", "--seat", "random",
                 "--seed", "5", "--record", str(full))
    assert result.exit_code == 0, result.output
    data = lines(full)
    decisions = [i for i, d in enumerate(data) if d["type"] == "decision"]
    cut = data[:decisions[len(decisions) // 2] + 1]
    half = tmp_path / "half.jsonl"
    write_lines(half, cut + [{"type": "stop", "reason": "quit",
                              "decisions": sum(d["type"] == "decision" for d in cut)}])
    result = run("resume", str(half))
    assert result.exit_code == 0, result.output
    assert "resumed after" in result.output
    assert half.read_text() == full.read_text()


def test_a_human_who_quits_is_told_how_to_resume_and_the_record_says_so(
        records_in_a_temporary_folder):
    result = run("play", "multzo", "--seat", "human", "--seat", "random", "--seed", "2",
                 input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    files = list(records_in_a_temporary_folder.glob("multzo-*.jsonl"))
    assert len(files) == 1
    assert f"rulepack resume {files[0]}" in result.output.replace("\n", "")
    record = read_record(files[0])
    assert record.end is not None and record.end[1] == {
        "type": "stop", "reason": "quit", "decisions": record.decisions}
    assert record.header["agents"] == ["human", "random"]
    # taken up again with a bot in the human's seat, it plays to the end
    result = run("resume", str(files[0]), "--seat", "random", "--seat", "random")
    assert result.exit_code == 0, result.output
    assert read_record(files[0]).finished
    assert run("replay", str(files[0])).exit_code == 0


def test_no_record_and_bots_only_games_write_nothing(records_in_a_temporary_folder):
    assert run("play", "multzo", "--players", "2").exit_code == 0
    assert run("play", "multzo", "--seat", "human", "--seat", "random", "--no-record",
               input="q\n").exit_code == 0
    assert list(records_in_a_temporary_folder.iterdir()) == []


def test_replay_prints_the_outcome(tmp_path):
    path = tmp_path / "game.jsonl"
    played = record_random_game(path, "multiplay", 2, {}, seed=4)
    result = run("replay", str(path))
    assert result.exit_code == 0
    seats = read_record(path).header["seats"]
    assert seats == ["red", "yellow"]             # Multiplay's seats are its colours
    winners = ", ".join(seats[w] for w in played.result()["winners"])
    assert f"ok: Multiplay, 2 players, seed 4, {played.decisions} decisions" in result.output
    assert f"winners: {winners}" in result.output
    data = json.loads(run("replay", str(path), "--json").output)
    assert data["winners"] == played.result()["winners"] and data["finished"] is True


# ---------------------------------------------------------------------- verification
def tampered(tmp_path: Path, change: Any) -> tuple[Path, int]:
    """A recorded game with one line changed by ``change(lines) -> index``."""
    path = tmp_path / "game.jsonl"
    record_random_game(path, "multzo", 3, {}, seed=11)
    data = lines(path)
    index = change(data)
    write_lines(path, data)
    return path, index + 1


def check_located(path: Path, line: int, fragment: str) -> None:
    with pytest.raises(RecordError) as info:
        replay(read_record(path))
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.location.line == line
    assert fragment in diagnostic.message
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert f"{path}:{line}" in result.output and "Traceback" not in result.output


def test_a_changed_action_text_is_found_at_its_line(tmp_path):
    def change(data: list[dict[str, Any]]) -> int:
        i = [k for k, d in enumerate(data) if d["type"] == "decision"][10]
        data[i]["action"] = "pass"
        return i
    path, line = tampered(tmp_path, change)
    check_located(path, line, "the record says 'pass'")


def test_a_changed_choice_is_found_where_the_games_part(tmp_path):
    """Another legal index: the replay follows it, and the game parts from the
    record at once or at a later line; the result can never agree."""
    def change(data: list[dict[str, Any]]) -> int:
        i = next(k for k, d in enumerate(data) if d["type"] == "decision" and d["index"] > 0)
        data[i]["index"] = 0
        return i
    path, line = tampered(tmp_path, change)
    with pytest.raises(RecordError) as info:
        replay(read_record(path))
    assert info.value.diagnostics[0].location.line == line  # the text no longer matches


def test_a_changed_chance_outcome_is_found(tmp_path):
    def change(data: list[dict[str, Any]]) -> int:
        i = next(k for k, d in enumerate(data) if d["type"] == "chance" and "outcome" in d)
        data[i]["outcome"] = {"player": (data[i]["outcome"]["player"] + 1) % 3}
        return i
    path, line = tampered(tmp_path, change)
    check_located(path, line, "the record says 'random choice' with outcome")


def test_a_changed_result_is_found(tmp_path):
    def change(data: list[dict[str, Any]]) -> int:
        data[-1]["scores"] = [s + 1 for s in data[-1]["scores"]]
        return len(data) - 1
    path, line = tampered(tmp_path, change)
    check_located(path, line, "the result differs: scores")


@pytest.mark.parametrize("text, line, fragment", [
    ("", None, "the record is empty"),
    ('{"type": "decision", "n": 1, "player": 0, "index": 0, "action": "x"}\n', 1,
     "the first line of a record is its header"),
    ("HEADER\n{not json\n", 2, "not a JSON line"),
    ('HEADER\n{"type": "decision", "n": 1, "player": 0, "index": -1, "action": "x"}\n', 2,
     "decision line: -1 is less than the minimum of 0 (at index)"),
    ('HEADER\n{"type": "move", "n": 1}\n', 2, "not a record line"),
    ('HEADER\n{"type": "decision", "n": 2, "player": 0, "index": 0, "action": "x"}\n', 2,
     "decision 2 where decision 1 was expected"),
    ('HEADER\n' + '{"type": "stop", "reason": "quit", "decisions": 0}\n' * 2, 3,
     "a stop line after the stop"),
    ('HEADER\n{"type": "stop", "reason": "quit", "decisions": 4}\n', 2,
     "the stop line counts 4 decisions, the record has 0"),
    ('HEADER\n{"type": "decision", "n": 1, "player": 0, "index": 1.0, "action": "x"}\n', 2,
     "1.0 is not of type 'integer'"),
    ('HEADER\n[' * 1 + '[' * 100000 + ']' * 100001 + '\n', 2, "not a JSON line"),
    ('AGENTS\n', 1, "unknown agent 'foo'"),
    ('SEATS\n', 1, "the header has 2 players, 1 seats and 2 agents"),
])
def test_a_bad_record_file_gets_a_located_error(tmp_path, text, line, fragment):
    header = {"type": "header", "format": FORMAT, "format_version": 2,
              "ruleset": {"name": "multzo", "source": "multzo", "sha256": "0" * 64},
              "players": 2, "options": {}, "seed": 0, "seats": ["a", "b"],
              "agents": ["random", "random"]}
    path = tmp_path / "bad.jsonl"
    text = text.replace("AGENTS", json.dumps(dict(header, agents=["random", "foo"])))
    text = text.replace("SEATS", json.dumps(dict(header, seats=["a"])))
    path.write_text(text.replace("HEADER", json.dumps(header)), encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(path)
    diagnostic = info.value.diagnostics[0]
    assert diagnostic.location.line == line and fragment in diagnostic.message
    result = run("replay", str(path))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert fragment in result.output


def test_a_missing_record_is_an_error_not_a_traceback(tmp_path):
    result = run("replay", str(tmp_path / "nowhere.jsonl"))
    assert result.exit_code == 1 and "no such record file" in result.output


def test_resume_refuses_a_finished_game(tmp_path):
    path = tmp_path / "game.jsonl"
    record_random_game(path, "multzo", 2, {}, seed=1)
    result = run("resume", str(path))
    assert result.exit_code == 1 and "the game is over" in result.output


RULES = """
game count_up {
  players 2
}
var points per player = 0
score(p) = points[p]
winner highest score
play {
  turns from random(players) until max([points[p] for p in players]) >= 3 {
    choose {
      action "one" { set points[current] = points[current] + 1 }
      action "two" { set points[current] = points[current] + 2 }
    }
  }
}
"""


def test_the_content_hash_ignores_comments_and_sees_rule_changes(tmp_path):
    """The header's hash is of the compiled rules: a comment or the layout does
    not change it, a rule does, and replaying then warns (and here fails, since
    the changed rule changes the game)."""
    rules = tmp_path / "count.rules"
    rules.write_text(RULES, encoding="utf-8")
    path = tmp_path / "game.jsonl"
    result = run("play", str(rules), "--players", "2", "--seed", "3", "--record", str(path))
    assert result.exit_code == 0, result.output
    assert read_record(path).header["ruleset"]["source"] == str(rules)   # as the user gave it
    rules.write_text("# a comment\n" + RULES.replace("    choose", "\n    choose"),
                     encoding="utf-8")
    assert replay(read_record(path)).warnings == []
    rules.write_text(RULES.replace("points[current] + 2", "points[current] + 3"),
                     encoding="utf-8")
    result = run("replay", str(path))
    assert "have changed since this record was made" in result.output


@pytest.mark.parametrize("keep", [1, 2, 5, 17, 30])
def test_a_record_cut_anywhere_resumes_to_the_uninterrupted_game(tmp_path, keep):
    """A program killed between two lines of one step (after the header, after a
    decision whose chance events were not all written, or in the middle of a
    line) leaves a record that still resumes to the same game."""
    full = tmp_path / "full.jsonl"
    assert run("play", "multzo", "--players", "3", "--seed", "5", "--record",
               str(full)).exit_code == 0
    text = full.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(text.splitlines(keepends=True)[:keep]), encoding="utf-8")
    result = run("resume", str(cut))
    assert result.exit_code == 0, result.output
    assert cut.read_text(encoding="utf-8") == text


def test_a_last_line_without_its_newline_is_continued_on_a_new_line(tmp_path):
    full = tmp_path / "full.jsonl"
    assert run("play", "multzo", "--players", "2", "--seed", "6", "--record",
               str(full)).exit_code == 0
    text = full.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(text.splitlines(keepends=True)[:20]).rstrip("\n"), encoding="utf-8")
    assert run("resume", str(cut)).exit_code == 0
    assert cut.read_text(encoding="utf-8") == text


def test_a_game_stopped_by_an_error_leaves_a_record_that_replays(tmp_path):
    """The action that failed is not a decision of the record: the stop line
    counts the decisions written."""
    path = tmp_path / "game.jsonl"
    result = run("play", "multzo", "--players", "2", "--seed", "1", "--max-decisions", "5",
                 "--json", "--record", str(path))
    assert result.exit_code == 1 and "did not end within 5 decisions" in result.output
    record = read_record(path)
    assert record.end[1] == {"type": "stop", "reason": "error", "decisions": 5}
    assert replay(record).state.decisions == 5


def test_a_record_that_cannot_be_written_is_an_error_not_a_traceback(tmp_path):
    result = run("play", "multzo", "--players", "2", "--json", "--record",
                 str(tmp_path / "no" / "such" / "x.jsonl"))
    assert result.exit_code == 1 and "cannot write the record" in result.output


def test_a_record_cut_at_any_byte_of_its_last_two_lines_resumes(tmp_path):
    """A crash or a power loss in the middle of a write leaves a last line cut short:
    at every byte of the last two lines, reading drops that line with a warning
    naming it, resuming removes it from the file, and the game goes on to the same
    end as the uninterrupted one."""
    from rulepack.cli.recording import drop_stop_line
    full = tmp_path / "full.jsonl"
    assert run("play", "tic-tac-toe", "--players", "2", "--seed", "1", "--record",
               str(full)).exit_code == 0
    data = full.read_bytes()
    *_, before_last, last = data.splitlines(keepends=True)
    start = len(data) - len(before_last) - len(last)
    cut = tmp_path / "cut.jsonl"
    kept_sets: dict[int, int] = {}
    for at in range(start, len(data) + 1):
        cut.write_bytes(data[:at])
        record = read_record(cut)
        complete = data[:at].count(b"\n")        # whole lines before the cut
        partial = data[:at].rsplit(b"\n", 1)[-1]
        whole = bool(partial) and data[at:at + 1] == b"\n"   # only its newline is missing
        if whole and at == len(data) - 1:
            assert record.finished and record.warnings == []
            continue
        read = 1 + len(record.entries) + (record.end is not None)
        assert read == complete + whole, at
        if partial and not whole:
            (warning,) = record.warnings
            assert warning.severity == "warning" and warning.location.line == complete + 1
            line = json.loads(before_last if at < len(data) - len(last) else last)
            assert f"was cut short after {len(partial)} bytes" in warning.message
            named = f"decision {line['n']}" if line["type"] == "decision" \
                else f"a {line['type']} line"
            if len(partial) > 40:       # far enough to have written its type and number
                assert named in warning.message, (at, warning.message)
        else:
            assert record.warnings == []
        drop_stop_line(record)
        assert cut.read_bytes() == data[:at + 1 if whole else at - len(partial)], at
        if not record.finished:
            kept_sets.setdefault(complete + whole, at)
    # each different number of whole lines kept: the game resumes to the same end
    assert len(kept_sets) == 2
    for complete, at in kept_sets.items():
        cut.write_bytes(data[:at])
        result = run("resume", str(cut))
        assert result.exit_code == 0, (at, result.output)
        assert cut.read_bytes() == data, at


def test_resume_completes_a_record_cut_before_its_result_line(tmp_path):
    full = tmp_path / "full.jsonl"
    assert run("play", "tic-tac-toe", "--players", "2", "--seed", "2", "--record",
               str(full)).exit_code == 0
    text = full.read_text(encoding="utf-8")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[:text.rindex('{"type": "result"')], encoding="utf-8")
    result = run("resume", str(cut))
    assert result.exit_code == 0 and "the game was over" in result.output
    assert cut.read_text(encoding="utf-8") == text


def test_a_record_never_shows_lines_of_the_file_it_names(tmp_path):
    """A record may come from anyone: a ruleset file it names that does not load is
    reported without a word of its content; ``--ruleset`` names another one."""
    path = tmp_path / "game.jsonl"
    record_random_game(path, "tic-tac-toe", 2, {}, seed=1)
    secret = tmp_path / "secret.json"
    secret.write_text('{"password": "hunter2-SECRET"}\n', encoding="utf-8")
    data = lines(path)
    data[0]["ruleset"]["source"] = str(secret)
    write_lines(path, data)
    result = run("replay", str(path))
    assert result.exit_code == 1 and "does not load" in result.output
    assert "SECRET" not in result.output and "password" not in result.output
    assert run("replay", str(path), "--ruleset", "tic-tac-toe").exit_code == 0
    # a path relative to the record's folder is found from anywhere
    (tmp_path / "ttt.rules").write_text(
        (Path(rulepack.__file__).parent / "rulesets" / "tic-tac-toe.rules").read_text(
            encoding="utf-8"), encoding="utf-8")
    data[0]["ruleset"]["source"] = "ttt.rules"
    write_lines(path, data)
    assert run("replay", str(path)).exit_code == 0


def test_records_are_readable_by_their_owner_only(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o644)
    assert run("play", "tic-tac-toe", "--players", "2", "--record", str(path)).exit_code == 0
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_huge_record_line_is_refused_not_echoed(tmp_path):
    path = tmp_path / "game.jsonl"
    record_random_game(path, "tic-tac-toe", 2, {}, seed=1)
    text = path.read_text(encoding="utf-8").splitlines(keepends=True)
    line = '{"type": "chance", "kind": "shuffle", "detail": "' + "x" * 2_000_000 + '"}'
    text.insert(2, line + "\n")
    path.write_text("".join(text), encoding="utf-8")
    result = run("replay", str(path))
    assert result.exit_code == 1 and f":3: error: a line of {len(line)} bytes" in result.output
    assert len(result.output) < 1000
