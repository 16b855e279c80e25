"""CI: ``rulepack serve`` as a user installs it (``.[all]``, no test extra): started on
a free port, its lobby served, a table of two bots opened, the spectator's socket
follows the game to its end (positions and pictures, the pictures drawn by the worker
process), and the server stops on SIGINT. Exit code 1 with the reason otherwise."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

BIN = Path(sys.executable).parent


def main() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = Path(tempfile.mkdtemp(prefix="serve-smoke-"))
    proc = subprocess.Popen([str(BIN / "rulepack"), "serve", "--port", str(port), "--data",
                             str(data), "--bot-delay", "0"], stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                lobby = httpx.get(base + "/", timeout=2)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            print("rulepack serve did not start")
            return 1
        assert "tic-tac-toe" in lobby.text, lobby.text[:200]
        r = httpx.post(base + "/tables", data={"ruleset": "tic-tac-toe",
                                               "seats": "random,random"}, timeout=30)
        r.raise_for_status()
        tid, watch = re.findall(r'href="[^"]*/t/([^?"]+)\?token=([^"]+)"', r.text)[-1]
        pictures = 0
        end = None
        with connect(f"ws://127.0.0.1:{port}/ws/{tid}?token={watch}") as ws:
            while True:              # to the end, and the end's picture
                msg = json.loads(ws.recv(timeout=60))
                if msg["type"] == "position" and msg["terminal"]:
                    end = msg
                if msg["type"] == "picture":
                    pictures += 1
                    if "<svg" not in msg["svg"]:
                        print("a picture without SVG")
                        return 1
                    if end is not None and msg["decision"] == end["decision"]:
                        break
        msg = end
        print(f"rulepack serve: a game of bots followed to its end ({msg['decision']} "
              f"decisions, {pictures} pictures); {msg['why']}")
        return 0
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    sys.exit(main())
