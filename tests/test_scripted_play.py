"""A person plays each bundled game through a pseudo-terminal (``rulepack play``
with a human seat, answering every prompt with 1): the screen is the compact one
and the log carries the ruleset's narration (``» ...``) and names the piece the
player discards or draws. The three examples that narrate nothing (Tic-Tac-Toe,
Connect Four, Ladders) show their moves, a forced move played with a notice and
the result in words instead. Slow (about 35 s): marked ``terminal``, run by .ci/run
as a second step (``python -m pytest -m terminal``)."""

from __future__ import annotations

import os
import pty
import re
import select
import sys
import time

import pytest

#: ruleset, player count, seed, a narration (or, for a game that narrates
#: nothing, a line of the log) the game must show
GAMES = [
    ("multzo", 2, 1, "» player 2 plays first"),
    ("packkub", 2, 1, "plays first; whoever has the fewest tiles left"),
    ("multiplay", 2, 1, "for a row of 3"),
    ("mismemory", 2, 3, "keeps one of the pair"),
    ("partners", 4, 1, "takes the trick with"),
    ("tic-tac-toe", 2, 1, "X (you): mark a1"),
    ("connect-four", 2, 1, "red (you): drop in column 1"),
    ("ladders", 1, 1, "Your only move: turn the next tile (played for you)"),
    ("pig", 2, 1, "rolls first; the first to bank 50 points wins"),
]

#: how each game's result is told: a winner by seat name, or a lost patience
RESULT = re.compile(r"^(Winners?( \((team|shared)\))?: .+|Draw: .+|Lost: nobody wins\.)\r?$", re.M)

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROMPT = re.compile(r"q to quit\)[^\n]*: (\x1b\[[0-9;]*m)*$")


def play_in_pty(args: list[str], timeout: float = 90.0) -> str:
    """Run ``rulepack play`` in a pty, typing ``1`` and Enter at each prompt
    (``Choose 1-N ...: ``), or when it has been silent for a while."""
    pid, fd = pty.fork()
    if pid == 0:                                   # the child: the game
        os.environ.update(COLUMNS="110", NO_COLOR="1")
        os.execvp(sys.executable, [sys.executable, "-m", "rulepack.cli.main", "play", *args])
    out = b""
    deadline = time.time() + timeout
    try:
        while time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 1.0)
            if not ready:
                os.write(fd, b"1\n")                # it waits for the player
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:                        # the game is over
                break
            if not chunk:
                break
            out += chunk
            if PROMPT.search(out[-200:].decode("utf-8", "replace")):
                os.write(fd, b"1\n")
    finally:
        os.waitpid(pid, 0)
        os.close(fd)
    return ANSI.sub("", out.decode("utf-8", "replace"))


@pytest.mark.terminal
@pytest.mark.parametrize("name, players, seed, narration", GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_human_game_shows_narration_and_the_compact_screen(tmp_path, name, players, seed,
                                                             narration):
    others = ["--seat", "random"] * (players - 1)
    text = play_in_pty([name, "--seat", "human", *others, "--seed", str(seed),
                        "--record", str(tmp_path / "game.jsonl")])
    assert "Result" in text, text[-2000:]
    assert narration in text
    assert RESULT.search(text), text[-1000:]
    # the compact screen: the always-empty box is left out
    assert not re.search(r"^\s*box\s", text, re.M)
    if name == "ladders":     # a patience is won or lost, never drawn
        assert not re.search(r"^Draw:", text, re.M)
    if name == "multzo":
        assert re.search(r"player 1 \(you\): discard \S.* face up", text)
        assert re.search(r"player 1 \(you\): draw the top tile of the stack → \S", text)
