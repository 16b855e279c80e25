"""``rulepack serve`` (issue 37), through its pages and sockets: a table opened, its
seats playing a whole game over websockets with a bot, actions checked against the
position (stale, out of turn, illegal, malformed: refused, the position unchanged),
tokens that open nothing, nothing hidden sent to a seat (every bundled ruleset with
hidden information, on the wire), every table taken up from its record when the
server starts again — also after ``kill -9`` of a real ``rulepack serve``."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Collection
from typing import Any

import pytest

pytestmark = pytest.mark.web
starlette = pytest.importorskip("starlette")
pytest.importorskip("drawsvg")
from starlette.testclient import TestClient  # noqa: E402

import rulepack  # noqa: E402
from rulepack.engine.queries import visible  # noqa: E402
from rulepack.engine.sightings import apply_watched  # noqa: E402
from rulepack.records import read_record, replay  # noqa: E402
from rulepack.web.app import application  # noqa: E402


class Sock:
    """A test client's websocket whose ``receive_text`` gives the next message that is
    not a picture; the pictures are kept, in order, for :meth:`picture`."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.pictures: list[dict[str, Any]] = []

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def receive_text(self) -> str:
        while True:
            text = self.ws.receive_text()
            if json.loads(text).get("type") != "picture":
                return text
            self.pictures.append(json.loads(text))

    def picture(self, decision: int) -> dict[str, Any]:
        """The picture of ``decision`` (those of earlier ones dropped)."""
        while True:
            while self.pictures:
                msg = self.pictures.pop(0)
                if msg["decision"] == decision:
                    return msg
            msg = json.loads(self.ws.receive_text())
            assert msg["type"] == "picture", msg
            self.pictures.append(msg)


def connect(stack: contextlib.ExitStack, client: TestClient, tid: str, token: str) -> Sock:
    return Sock(stack.enter_context(client.websocket_connect(f"/ws/{tid}?token={token}")))


def open_table(client: TestClient, ruleset: str, seats: str, options: str = ""
               ) -> tuple[str, list[str], str]:
    """A new table: its id, the human seats' tokens (in seat order), the spectators'."""
    r = client.post("/tables", data={"ruleset": ruleset, "seats": seats, "options": options})
    assert r.status_code == 200, r.text
    links = re.findall(r'href="http://testserver/t/([^?"]+)\?token=([^"]+)"', r.text)
    tid = links[0][0]
    return tid, [t for _, t in links[:-1]], links[-1][1]


def settle(conns: list[Any], latest: list[dict[str, Any]], table: Any) -> list[dict[str, Any]]:
    """Read each socket until it has the table's position, once no bot is to move (the
    bots play in the server's own thread: their pushes are read as they come)."""
    while True:
        while table.bot_to_move():
            time.sleep(0.005)
        target = table.state.decisions
        for i, conn in enumerate(conns):
            while latest[i]["decision"] < target:
                msg = json.loads(conn.receive_text())
                if msg["type"] == "position":
                    latest[i] = msg
        if table.state.decisions == target and not table.bot_to_move():
            return latest


def whole_game(conns: list[Any], table: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Play the table's game to its end through the seats' sockets, each human seat
    choosing at random; the last position each socket received."""
    latest: list[dict[str, Any]] = [json.loads(c.receive_text()) for c in conns]
    while not (latest := settle(conns, latest, table))[0]["terminal"]:
        mover = next(i for i, m in enumerate(latest) if m.get("actions"))
        msg = latest[mover]
        conns[mover].send_text(json.dumps({"type": "act", "decision": msg["decision"],
                                           "action": rng.choice(msg["actions"])}))
    return latest


def test_two_seats_and_a_bot_play_a_whole_game(tmp_path: Path) -> None:
    app = application(tmp_path, bot_delay=0)
    with TestClient(app) as client:
        assert "multzo" in client.get("/").text
        tid, tokens, watch = open_table(client, "multzo", "human,human,random")
        assert len(tokens) == 2
        page = client.get(f"/t/{tid}?token={tokens[0]}")
        assert page.status_code == 200 and "Rules" in page.text and tokens[0] not in \
            page.text.split("<script>")[0]
        rng = random.Random(1)
        table = app.state.server.tables[tid]
        stack = contextlib.ExitStack()
        with stack:
            conns = [connect(stack, client, tid, t) for t in tokens]
            latest = whole_game(conns, table, rng)
            moves = latest[0]["decision"]
        assert moves > 5 and latest[0]["why"].startswith("The game ended")
        assert latest[0]["decision"] == latest[1]["decision"]
        # the record, once the game is over, replays to the same end
        r = client.get(f"/t/{tid}/record?token={tokens[1]}")
        assert r.status_code == 200
        path = tmp_path / "got.jsonl"
        path.write_bytes(r.content)
        done = replay(read_record(path))
        assert done.state.is_terminal() and done.state.decisions == latest[0]["decision"]
        # and the replay viewer of the game, from the page's link
        r = client.get(f"/t/{tid}/replay?token={tokens[0]}")
        assert r.status_code == 200 and f"Multzo: replay of table {tid}" in r.text
        assert "svg" in r.text and str(tmp_path) not in r.text
        # a page that connects now is sent the story's last lines, as its seat was told
        with contextlib.ExitStack() as stack:
            first = json.loads(connect(stack, client, tid, tokens[0]).receive_text())
        told = table.story[0]
        assert first["story_reset"] and first["story"] == told[-300:]
        assert first["story_at"] == len(told) and any("(you): " in t for t in told)


def test_each_message_carries_only_the_new_lines_of_the_story(tmp_path: Path) -> None:
    """The story is sent as it grows: a page's messages, joined, are its seat's story
    (nothing sent twice, nothing missed), each seat's story its own."""
    app = application(tmp_path, bot_delay=0)
    with TestClient(app) as client:
        tid, tokens, watch = open_table(client, "multzo", "human,human")
        table = app.state.server.tables[tid]
        with contextlib.ExitStack() as stack:
            conns = [connect(stack, client, tid, t) for t in tokens + [watch]]
            got: list[list[str]] = [[], [], []]
            latest = []
            for i, c in enumerate(conns):
                msg = json.loads(c.receive_text())
                got[i] += msg["story"]
                latest.append(msg)
            rng = random.Random(2)
            for _ in range(40):
                mover = next(i for i, m in enumerate(latest) if m.get("actions"))
                conns[mover].send_text(json.dumps({
                    "type": "act", "decision": latest[mover]["decision"],
                    "action": rng.choice(latest[mover]["actions"])}))
                latest = [json.loads(c.receive_text()) for c in conns]
                for i, msg in enumerate(latest):
                    assert not msg.get("story_reset")
                    got[i] += msg["story"]
                if latest[0]["terminal"]:
                    break
        assert got == [table.story[0], table.story[1], table.story[-1]]
        assert got[0] != got[1] and any("→" in t for t in got[0])
        assert not any("→" in t for t in got[2])


def test_stale_out_of_turn_illegal_and_malformed_actions_are_refused(tmp_path: Path) -> None:
    app = application(tmp_path, bot_delay=0)
    with TestClient(app) as client:
        tid, tokens, watch = open_table(client, "tic-tac-toe", "human,human")
        with contextlib.ExitStack() as stack:
            a, b = connect(stack, client, tid, tokens[0]), connect(stack, client, tid, tokens[1])
            ma, mb = json.loads(a.receive_text()), json.loads(b.receive_text())
            first, other = (a, b) if ma["actions"] else (b, a)
            m = ma if ma["actions"] else mb
            for sock, msg, why in [
                    (other, {"type": "act", "decision": 0, "action": m["actions"][0]},
                     "not your turn"),
                    (first, {"type": "act", "decision": 5, "action": m["actions"][0]},
                     "has changed"),
                    (first, {"type": "act", "decision": 0, "action": "teleport"}, "not a legal"),
                    (first, {"type": "dance"}, "expected"),
                    (first, {"type": "act", "decision": "0", "action": 3}, "needs a decision")]:
                sock.send_text(json.dumps(msg))
                refused = json.loads(sock.receive_text())
                assert refused["type"] == "refused" and why in refused["message"], refused
                again = json.loads(sock.receive_text())
                assert again["type"] == "position" and again["decision"] == 0
            first.send_text("not json at all")
            assert json.loads(first.receive_text())["type"] == "refused"
            first.receive_text()
            first.send_text("x" * (1 << 20))              # a 1 MB message: closed
            with pytest.raises(Exception):
                first.receive_text()
        # the position is unchanged, and the server still serves the table
        with client.websocket_connect(f"/ws/{tid}?token={watch}") as w:
            assert json.loads(w.receive_text())["decision"] == 0
        # the record and its replay are not given while the game goes on (the seed)
        assert client.get(f"/t/{tid}/record?token={tokens[0]}").status_code == 403
        assert client.get(f"/t/{tid}/replay?token={tokens[0]}").status_code == 403


def test_wrong_tokens_and_unknown_tables_open_nothing(tmp_path: Path) -> None:
    app = application(tmp_path, bot_delay=0)
    with TestClient(app) as client:
        tid, tokens, watch = open_table(client, "tic-tac-toe", "human,human")
        for url in (f"/t/{tid}?token=nope", f"/t/nosuchtable?token={tokens[0]}", f"/t/{tid}"):
            assert client.get(url).status_code == 404
        for url in (f"/ws/{tid}?token=nope", f"/ws/nosuch?token={tokens[0]}", f"/ws/{tid}"):
            with pytest.raises(Exception):
                with client.websocket_connect(url) as ws:
                    ws.receive_text()
        r = client.post("/tables", data={"ruleset": "/etc/passwd", "seats": "human"})
        assert r.status_code == 400 and "no ruleset" in r.text
        r = client.post("/tables", data={"ruleset": "multzo", "seats": "human,robot"})
        assert r.status_code == 400 and "no bot &#x27;robot&#x27;" in r.text and "mcts" in r.text
        for form, why in [
                ({"ruleset": "packkub", "seats": "human,human", "options": "rounds 3"},
                 "NAME=VALUE"),
                ({"ruleset": "multzo", "seats": "human,,random"}, "none of them empty"),
                ({"ruleset": "multzo", "seats": "human,human", "players": "abc"},
                 "players is a number"),
                ({"ruleset": "tic-tac-toe", "seats": "human"}, "2-2 players")]:
            r = client.post("/tables", data=form)
            assert r.status_code == 400 and why in r.text, (form, r.text)
            assert "&lt;string&gt;" not in r.text and str(tmp_path) not in r.text
            assert 'href="/"' in r.text                 # the way back to the lobby
        # a refused table leaves nothing behind (a restarted server had listed it broken)
        assert [t.id for t in app.state.server.store.tables()] == [tid]
        # the data folder, its records and its index are the user's alone
        for path, mode in [(tmp_path, 0o700), (tmp_path / "records", 0o700),
                           (tmp_path / "tables.sqlite3", 0o600)]:
            assert path.stat().st_mode & 0o777 == mode, path
        # a binary frame, JSON nested 5000 deep, a decision of 5000 digits: refused,
        # the socket still open
        with contextlib.ExitStack() as stack:
            a = connect(stack, client, tid, tokens[0])
            first = json.loads(a.receive_text())
            for send in (lambda: a.ws.send_bytes(b"\x00\x01"),
                         lambda: a.send_text("[" * 5000 + "]" * 5000),
                         lambda: a.send_text('{"type": "act", "decision": ' + "9" * 5000 +
                                             ', "action": "x"}')):
                send()
                refused = json.loads(a.receive_text())
                assert refused["type"] == "refused" and "JSON" in refused["message"], refused
                assert json.loads(a.receive_text())["decision"] == first["decision"]
        # a thousand connections opened and dropped: refused cleanly, the server up
        for _ in range(1000):
            with pytest.raises(Exception):
                with client.websocket_connect(f"/ws/{tid}?token=x"):
                    pass
        assert client.get("/").status_code == 200


def seen_by(state: Any, seat: int) -> set[str]:
    """The names of the pieces ``seat`` may see now."""
    return {p.name for p in state.program.pieces if visible(state.position, p, seat)}


def leaked(state: Any, seat: int, wire: str, saw: Collection[str] = ()) -> list[str]:
    """The names of pieces hidden from ``seat`` that a message carries: the names of
    the pieces it may see (or ``saw``) are taken out first (longest first: "2 of moons
    coin" may be seen while the tile "2 of moons" is hidden)."""
    pieces = state.program.pieces
    seen = seen_by(state, seat) | set(saw)
    for name in sorted(seen, key=len, reverse=True):
        wire = wire.replace(name, "")
    hidden = {p.name for p in pieces if not visible(state.position, p, seat)} - seen
    return [h for h in hidden if h in wire]


def _hiding() -> list[str]:
    """The bundled rulesets in which a piece can be hidden (face down, in a hand)."""
    from rulepack.loader import bundled_rulesets
    out = []
    for name in bundled_rulesets():
        game = rulepack.load(name)
        if game.instance(game.min_players).program().may_hide:
            out.append(name)
    return out


@pytest.mark.parametrize("name", _hiding())
def test_no_message_to_a_seat_names_a_piece_hidden_from_it(name: str, tmp_path: Path) -> None:
    """The leak check of the views, on the bytes each seat's socket receives: every
    bundled ruleset that can hide a piece, a game of random actions (up to 60)."""
    game = rulepack.load(name)
    n = game.min_players
    app = application(tmp_path, bot_delay=0)
    server = app.state.server
    with TestClient(app) as client:
        tid, tokens, watch = open_table(client, name, ",".join(["human"] * n))
        table = server.tables[tid]
        with contextlib.ExitStack() as stack:
            conns = [connect(stack, client, tid, t) for t in tokens + [watch]]
            check_leaks(name, conns, table)


def check_leaks(name: str, conns: list[Any], table: Any) -> None:
    """Random actions through the sockets (one per seat, then a spectator's, seat -1:
    what every seat sees); no message names a piece hidden from its seat."""
    rng = random.Random(3)
    seats = [*range(len(conns) - 1), -1]
    latest = [json.loads(c.receive_text()) for c in conns]
    before: list[set[str]] = [set() for _ in conns]
    for _ in range(60):
        for seat, msg, saw, conn in zip(seats, latest, before, conns):
            # the position: what the seat sees now; the story's new lines: what it saw
            # just before the action, or sees after it (rulepack.story)
            position = {k: v for k, v in msg.items() if k != "story"}
            found = leaked(table.state, seat, json.dumps(position))
            found += leaked(table.state, seat, json.dumps(msg["story"]), saw)
            # and the picture that follows it
            found += leaked(table.state, seat, conn.picture(msg["decision"])["svg"])
            assert not found, (name, seat, found)
        if latest[0]["terminal"]:
            break
        mover = next(i for i, m in enumerate(latest) if m.get("actions"))
        text = rng.choice(latest[mover]["actions"])
        # what each seat sees before the step, or at some moment of it (a hand shown
        # at the showdown, then gathered for the next deal)
        action = next(a for a in table.state.legal_actions() if a.text == text)
        trial = table.state.clone()
        during = apply_watched(trial, action, seats)
        pieces = table.state.program.pieces
        before = [seen_by(table.state, seat) | {pieces[i].name for i in during[seat]}
                  for seat in seats]
        conns[mover].send_text(json.dumps({"type": "act", "decision": latest[mover]["decision"],
                                           "action": text}))
        latest = [json.loads(c.receive_text()) for c in conns]


def test_a_restarted_server_takes_every_table_up_where_it_was(tmp_path: Path) -> None:
    app = application(tmp_path, bot_delay=0)
    with TestClient(app) as client:
        tid, tokens, watch = open_table(client, "mismemory", "human,human")
        rng = random.Random(5)
        with contextlib.ExitStack() as stack:
            a, b = connect(stack, client, tid, tokens[0]), connect(stack, client, tid, tokens[1])
            latest = [json.loads(a.receive_text()), json.loads(b.receive_text())]
            for _ in range(7):
                mover = next(i for i, m in enumerate(latest) if m.get("actions"))
                (a, b)[mover].send_text(json.dumps({
                    "type": "act", "decision": latest[mover]["decision"],
                    "action": rng.choice(latest[mover]["actions"])}))
                latest = [json.loads(a.receive_text()), json.loads(b.receive_text())]
            before_picture = a.picture(latest[0]["decision"])["svg"]
        before = app.state.server.tables[tid].message(0)
    again = application(tmp_path, bot_delay=0)
    with TestClient(again) as client:
        with contextlib.ExitStack() as stack:
            a = connect(stack, client, tid, tokens[0])
            after = json.loads(a.receive_text())
            picture = a.picture(after["decision"])["svg"]
    assert picture == before_picture
    assert after == before


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(data: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, "-m", "rulepack.cli.main", "serve", "--port",
                             str(port), "--data", str(data), "--bot-delay", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("rulepack serve did not start")


def recv(sock: Any, kind: str, decision: int | None = None) -> dict[str, Any]:
    """The next message of ``kind`` (of ``decision``) a real server's socket sends;
    the others are dropped (pictures come in their own time: a worker draws them)."""
    while True:
        msg = json.loads(sock.recv(timeout=30))
        if msg["type"] == kind and decision in (None, msg["decision"]):
            return dict(msg)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_kill_9_and_restart_lose_nothing(tmp_path: Path) -> None:
    """A real server killed with SIGKILL mid-game and started again: the game goes on
    from the same position, and its record replays with nothing duplicated."""
    from websockets.sync.client import connect
    import httpx
    port = _free_port()
    proc = _start(tmp_path, port)
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/tables",
                       data={"ruleset": "tic-tac-toe", "seats": "human,human"})
        links = re.findall(r'href="[^"]*/t/([^?"]+)\?token=([^"]+)"', r.text)
        tid, tokens = links[0][0], [t for _, t in links[:2]]
        stack = contextlib.ExitStack()       # (the first sockets die with the server)
        socks = [stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{tid}?token={t}"))
                 for t in tokens]
        latest = [recv(s, "position") for s in socks]
        for _ in range(3):
            mover = next(i for i, m in enumerate(latest) if m.get("actions"))
            socks[mover].send(json.dumps({"type": "act", "decision": latest[mover]["decision"],
                                          "action": latest[mover]["actions"][0]}))
            latest = [recv(s, "position") for s in socks]
        before = latest
        pictures = [recv(s, "picture", 3)["svg"] for s in socks]
        workers = children(proc.pid)
        assert workers, "no picture worker"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        stack.close()
    # the server's picture worker leaves with it (none is left behind)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, f"picture workers left running: {workers}"
        time.sleep(0.2)
    proc = _start(tmp_path, port)
    try:
        stack = contextlib.ExitStack()
        socks = [stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws/{tid}?token={t}"))
                 for t in tokens]
        latest = [recv(s, "position") for s in socks]
        assert [m["decision"] for m in latest] == [m["decision"] for m in before] == [3, 3]
        assert [recv(s, "picture", 3)["svg"] for s in socks] == pictures
        while not latest[0]["terminal"]:
            mover = next(i for i, m in enumerate(latest) if m.get("actions"))
            socks[mover].send(json.dumps({"type": "act", "decision": latest[mover]["decision"],
                                          "action": latest[mover]["actions"][0]}))
            latest = [recv(s, "position") for s in socks]
        stack.close()
    finally:
        proc.terminate()
        proc.wait()
    record = read_record(tmp_path / "records" / f"{tid}.jsonl")
    done = replay(record)
    assert done.state.is_terminal() and record.decisions == done.state.decisions == \
        latest[0]["decision"]


def test_the_picture_worker_is_replaced_when_it_dies() -> None:
    """Pictures are drawn by a worker process (rulepack.web.pictures.Drawer): the same
    SVG as drawn in the server's thread, and a worker killed (out of memory, say) is
    replaced at the next picture."""
    import asyncio
    import multiprocessing
    from rulepack.web.pictures import Drawer
    game = rulepack.load("tic-tac-toe")
    state = game.new_game(2, seed=1)
    from rulepack.render.tableview import seat_view
    from rulepack.ir import chance_names
    job = ("tic-tac-toe|x", game.ir["components"], ["x", "o"], chance_names(game.ir),
           game.title, seat_view(state, 0, game.ir["components"]))
    inline = asyncio.run(Drawer(0).draw(*job))
    drawer = Drawer(1)

    async def twice() -> list[str]:
        first = await drawer.draw(*job)
        for child in multiprocessing.active_children():
            child.kill()
            child.join()
        return [first, await drawer.draw(*job)]
    try:
        assert asyncio.run(twice()) == [inline, inline]
    finally:
        drawer.close()
    assert 'data-cell="board/b2"' in inline
