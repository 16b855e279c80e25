"""Load on ``rulepack serve``: many tables played as fast as their clients can.

Starts a real ``rulepack serve`` (its own process, on loopback, bots never used),
opens ``--tables`` tables of two-player Multzo through the lobby's form, and connects
two scripted websocket clients per table (the ``websockets`` library, one asyncio
process). Each client, whenever its seat is to move, sends a random legal action
(seeded) at once. Measured:

* actions per second over the run (every table playing its game to its end);
* the latency of each action: from the moment its client sent it to the moment
  *both* seats of the table have received the position after it (p50, p99, max);
* the server's memory (resident set, from ``/proc``) after the tables are opened and
  their clients connected, and after every game is over and the clients are gone.

Run from the repository root (needs the web extra)::

    .venv/bin/python benchmarks/serve_load.py --tables 100
    .venv/bin/python benchmarks/serve_load.py --tables 100 --repeat 10
    .venv/bin/python benchmarks/serve_load.py --tables 100 --json > load.json

The target of issue 37, on the 2-core machine CI runs on: p99 ≤ 100 ms at 100
tables, and the server's memory after the run within 50 MB of its memory before.
Clients and server share the machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: every latency measured in this process, seconds (the runs pooled)
LATENCIES: list[float] = []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    """The process's resident set, MB (``VmRSS`` of ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start_server(data: Path, port: int, profile: str | None = None) -> subprocess.Popen[bytes]:
    run = ["-m", "cProfile", "-o", profile] if profile else []
    proc = subprocess.Popen([sys.executable, *run, "-m", "rulepack.cli.main", "serve", "--port",
                             str(port), "--data", str(data), "--bot-delay", "0"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("rulepack serve did not start")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used, seconds (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_tables(base: str, n: int, ruleset: str) -> list[tuple[str, list[str]]]:
    """Open ``n`` tables through the lobby's form: (id, the two seats' tokens)."""
    import httpx
    out = []
    with httpx.Client(base_url=base, timeout=60) as client:
        for _ in range(n):
            r = client.post("/tables", data={"ruleset": ruleset, "seats": "human,human"})
            r.raise_for_status()
            links = re.findall(r'href="[^"]*/t/([^?"]+)\?token=([^"]+)"', r.text)
            out.append((links[0][0], [t for _, t in links[:2]]))
    return out


class Table:
    """One table's two clients and the actions in flight."""

    def __init__(self, tid: str, tokens: list[str], seed: int) -> None:
        self.tid = tid
        self.tokens = tokens
        self.rng = random.Random(seed)
        self.sent: dict[int, float] = {}          # decision → when its action was sent
        self.seen: dict[int, list[float]] = {}    # decision → when each seat received it
        self.latencies: list[float] = []
        self.got: list[dict[int, float]] = [{}, {}]   # per seat: decision → position came
        self.lags: list[float] = []                   # position → its picture, seconds
        self.pictures = 0
        self.finished = 0.0
        self.actions = 0
        self.done = 0


async def client(table: Table, seat: int, port: int, ready: asyncio.Event,
                 connected: list[int]) -> None:
    import websockets
    url = f"ws://127.0.0.1:{port}/ws/{table.tid}?token={table.tokens[seat]}"
    async with websockets.connect(url, max_size=None) as ws:
        connected[0] += 1
        first = True
        async for raw in ws:
            now = time.perf_counter()
            msg = json.loads(raw)
            if msg.get("type") == "picture":
                came = table.got[seat].get(msg["decision"])
                if came is not None:
                    table.pictures += 1
                    table.lags.append(now - came)
                continue
            if msg.get("type") != "position":
                continue
            d = msg["decision"]
            table.got[seat][d] = now
            if d - 1 in table.sent:
                times = table.seen.setdefault(d, [])
                times.append(now)
                if len(times) == 2:
                    table.latencies.append(max(times) - table.sent.pop(d - 1))
            if first:
                first = False
                await ready.wait()          # every client connected: start together
            if msg["terminal"]:
                table.done += 1
                table.finished = max(table.finished, now)
                # the last position's picture (drawn once the others are)
                async for raw in ws:
                    last = json.loads(raw)
                    if last.get("type") == "picture" and last["decision"] == d:
                        table.pictures += 1
                        table.lags.append(time.perf_counter() - now)
                        break
                return
            if msg.get("actions"):
                table.sent[d] = time.perf_counter()
                table.actions += 1
                await ws.send(json.dumps({"type": "act", "decision": d,
                                          "action": table.rng.choice(msg["actions"])}))


async def run_clients(tables: list[Table], port: int, on_connected: Any) -> float:
    """Play every table's game; the seconds from the start to the last position."""
    ready = asyncio.Event()
    connected = [0]
    tasks = [asyncio.create_task(client(t, s, port, ready, connected))
             for t in tables for s in (0, 1)]
    while connected[0] < len(tasks):
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    on_connected()
    start = time.perf_counter()
    ready.set()
    await asyncio.gather(*tasks)
    return max(t.finished for t in tables) - start


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def run_once(tables_n: int, ruleset: str, seed: int, profile: str | None) -> dict[str, Any]:
    """One run on a new server: the figures (see the module's description)."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="serve-load-", dir=ROOT / "benchmarks") as tmp:
        proc = start_server(Path(tmp), port, profile)
        try:
            idle = rss_mb(proc.pid)
            made = open_tables(f"http://127.0.0.1:{port}", tables_n, ruleset)
            tables = [Table(tid, tokens, seed * 1000 + k)
                      for k, (tid, tokens) in enumerate(made)]
            before: list[float] = []
            cpu: list[float] = []

            def started() -> None:
                before.append(rss_mb(proc.pid))
                cpu.extend([cpu_seconds(proc.pid), time.process_time()])
            elapsed = asyncio.run(run_clients(tables, port, started))
            cpu = [cpu_seconds(proc.pid) - cpu[0], time.process_time() - cpu[1]]
            time.sleep(1.0)
            after = rss_mb(proc.pid)
        finally:
            proc.send_signal(signal.SIGINT)      # (uvicorn stops; a profile is written)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = [x for t in tables for x in t.latencies]
    lags = [x for t in tables for x in t.lags]
    LATENCIES.extend(lat)
    actions = sum(t.actions for t in tables)
    positions = sum(len(g) for t in tables for g in t.got)
    return {
        "tables": tables_n, "ruleset": ruleset, "games_finished": sum(
            t.done == 2 for t in tables),
        "actions": actions, "seconds": round(elapsed, 2),
        "actions_per_second": round(actions / elapsed, 1),
        "latency_ms": {"p50": round(1000 * statistics.median(lat), 1),
                       "p99": round(1000 * percentile(lat, 0.99), 1),
                       "max": round(1000 * max(lat), 1)},
        "pictures": {"positions_received": positions,
                     "pictures_received": sum(t.pictures for t in tables),
                     "lag_ms_p50": round(1000 * statistics.median(lags), 1),
                     "lag_ms_p99": round(1000 * percentile(lags, 0.99), 1)},
        "cpu_seconds": {"server": round(cpu[0], 2), "clients": round(cpu[1], 2)},
        "cpus": os.cpu_count(),
        "server_rss_mb": {"idle": round(idle, 1), "before": round(before[0], 1),
                          "after": round(after, 1),
                          "growth": round(after - before[0], 1)},
    }


def show(out: dict[str, Any]) -> None:
    print(f"{out['tables']} tables of {out['ruleset']}, two clients each: {out['actions']} "
          f"actions in {out['seconds']} s = {out['actions_per_second']} actions/s")
    print("latency (action sent → both seats have the next position): "
          f"p50 {out['latency_ms']['p50']} ms, p99 {out['latency_ms']['p99']} ms, "
          f"max {out['latency_ms']['max']} ms")
    pic = out["pictures"]
    print(f"pictures (drawn by a worker process, the newest only): {pic['pictures_received']} "
          f"for {pic['positions_received']} positions received; from a position to its "
          f"picture p50 {pic['lag_ms_p50']} ms, p99 {pic['lag_ms_p99']} ms")
    print(f"CPU during the run: server {out['cpu_seconds']['server']} s, clients "
          f"{out['cpu_seconds']['clients']} s (of {out['seconds']} s on {out['cpus']} cores; "
          "the picture worker's not counted)")
    m = out["server_rss_mb"]
    print(f"server memory: {m['idle']} MB idle, {m['before']} MB with the tables open, "
          f"{m['after']} MB after the run ({m['growth']:+} MB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--ruleset", default="multzo")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="runs, each on a new server")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--profile", metavar="FILE",
                    help="profile the server (cProfile) into FILE; its figures are slower")
    args = ap.parse_args()
    runs = [run_once(args.tables, args.ruleset, args.seed + k, args.profile)
            for k in range(args.repeat)]
    if args.json:
        print(json.dumps(runs if args.repeat > 1 else runs[0], indent=2))
        return
    for k, out in enumerate(runs):
        if args.repeat > 1:
            print(f"-- run {k + 1}")
        show(out)
    if args.repeat > 1:
        p99 = sorted(r["latency_ms"]["p99"] for r in runs)
        growth = max(r["server_rss_mb"]["growth"] for r in runs)
        pooled = round(1000 * percentile(LATENCIES, 0.99), 1)
        print(f"-- {args.repeat} runs: p99 of all {len(LATENCIES)} actions {pooled} ms; of each "
              f"run: median {statistics.median(p99)} ms, worst {p99[-1]} ms; memory growth "
              f"at most {growth:+} MB")


if __name__ == "__main__":
    main()
