"""The ASGI application of ``rulepack serve`` (Starlette; served by uvicorn).

Routes:

- ``GET /``: the lobby: the rulesets, a form to open a table, the tables;
- ``POST /tables``: open a table (ruleset, players, seats, options): a page with one
  invitation link per human seat and a spectator link, each with its own token;
- ``GET /t/{id}?token=T``: the game page of the seat the token opens;
- ``GET /t/{id}/record?token=T``: the table's record, once the game is over (it holds
  the seed, which gives every hidden piece away);
- ``GET /t/{id}/replay?token=T``: the replay viewer of that record
  (:mod:`rulepack.render.replay_page`, every seat's story), once the game is over;
- ``WS /ws/{id}?token=T``: the seat's socket: the server sends ``position`` messages
  (:meth:`rulepack.web.table.Table.message`), each followed by a ``picture`` message
  (``{"type": "picture", "decision": N, "svg": ...}``: the seat's picture, drawn off the
  event loop, only the newest when positions come faster than pictures:
  :mod:`rulepack.web.pictures`); the page sends ``{"type": "act", "decision": N,
  "action": TEXT}``; a refused action gets ``{"type": "refused", "message": ...}``.

Bots play in a worker thread (``asyncio.to_thread``), one decision at a time after a
short delay, so the server never waits on them. Every table writes its record as it
goes; at start the server takes up every table from its record.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import secrets
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulepack.errors import RulepackError
from rulepack.web import pages
from rulepack.web.pictures import Drawer
from rulepack.web.store import Store
from rulepack.web.table import Refused, Table

#: the largest message a page may send (bytes)
MAX_MESSAGE = 16 * 1024
#: the bots' pause before each decision (seconds), so that people can follow
BOT_DELAY = 0.6


def said(exc: RulepackError) -> str:
    """What an error says, without the file it names (a page shows no server path)."""
    return "; ".join(d.message for d in exc.diagnostics) or str(exc)


def settle_memory() -> None:
    """Put the objects alive now (the tables, their compiled rulesets) out of the cyclic
    garbage collector's way (:func:`gc.freeze`): they live as long as the server, and
    its full collections, which walk every object, paused every table for up to 50 ms
    at 100 tables (``benchmarks/serve_load.py``). The garbage is collected first, so
    that none is kept for ever; that collection walks only what is not frozen yet."""
    gc.collect()
    gc.freeze()


@dataclass
class Page:
    """One open socket: its seat (-1: a spectator) and how many lines of the seat's
    story it has been sent."""

    seat: int
    told: int = 0
    #: the decision of the last picture sent; whether one is being drawn
    pictured: int = -1
    painting: bool = False


class Server:
    """The tables in memory, their sockets and bots."""

    def __init__(self, data: Path, bot_delay: float = BOT_DELAY, workers: int = 0) -> None:
        self.store = Store(data)
        self.bot_delay = bot_delay
        self.drawer = Drawer(workers)
        #: the rulesets loaded, by name or file (a game starts many tables)
        self.games: dict[str, Any] = {}
        self.tables: dict[str, Table] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.sockets: dict[str, dict[WebSocket, Page]] = {}
        self.bots: dict[str, asyncio.Task[None]] = {}
        #: the tables whose records could not be taken up: id → why (the lobby says)
        self.broken: dict[str, str] = {}

    async def startup(self) -> None:
        """Take up every table from its record."""
        for row in self.store.tables():
            try:
                self.tables[row.id] = await asyncio.to_thread(Table.resume, row)
            except RulepackError as exc:
                self.broken[row.id] = said(exc)
                continue
            except OSError as exc:
                self.broken[row.id] = exc.strerror or "cannot be read"
                continue
            self.locks[row.id] = asyncio.Lock()
            self.kick(row.id)
        settle_memory()

    def kick(self, tid: str) -> None:
        """Start the table's bots if one is to move and they are not running."""
        task = self.bots.get(tid)
        if self.tables[tid].bot_to_move() and (task is None or task.done()):
            self.bots[tid] = asyncio.get_running_loop().create_task(self._bots(tid))

    async def _bots(self, tid: str) -> None:
        table = self.tables[tid]
        while table.bot_to_move():
            await asyncio.sleep(self.bot_delay)
            async with self.locks[tid]:
                if not table.bot_to_move():
                    break
                await asyncio.to_thread(table.bot_step)
            await self.broadcast(tid)

    async def broadcast(self, tid: str) -> None:
        """Send every socket of the table its seat's new position, then its picture."""
        pages = list(self.sockets.get(tid, {}).items())
        for ws, page in pages:
            try:
                await self.send(tid, ws, page)
            except (RuntimeError, WebSocketDisconnect):
                self.sockets[tid].pop(ws, None)
        for ws, page in pages:
            await self.paint(tid, ws, page)

    async def send(self, tid: str, ws: WebSocket, page: Page, first: bool = False) -> None:
        """Send ``page`` its seat's position and the story it has not been sent
        (``first``: a page that has just connected, the story's last lines). Read under
        the table's lock: a bot may be deciding in a worker thread."""
        async with self.locks[tid]:
            msg = self.tables[tid].message(page.seat, None if first else page.told)
        page.told = msg["story_at"]
        await ws.send_text(json.dumps(msg))

    async def paint(self, tid: str, ws: WebSocket, page: Page) -> None:
        """Send ``page`` the picture of the table's position now, drawn by the drawer
        (:mod:`rulepack.web.pictures`): in order when it draws in this thread, else in
        a task of its own, which draws only the newest position."""
        if page.painting or page.pictured == self.tables[tid].state.decisions:
            return
        if self.drawer.workers <= 0:
            await self._paint(tid, ws, page)
        else:
            page.painting = True
            asyncio.get_running_loop().create_task(self._paint(tid, ws, page))

    async def _paint(self, tid: str, ws: WebSocket, page: Page) -> None:
        table = self.tables[tid]
        try:
            while (decision := table.state.decisions) != page.pictured:
                done = table.pictures.get(page.seat)
                if done is not None and done[0] == decision:
                    svg = done[1]
                else:
                    async with self.locks[tid]:
                        decision = table.state.decisions
                        job = table.picture_of(page.seat)
                    svg = await self.drawer.draw(*job)
                    table.pictures[page.seat] = (decision, svg)
                if table.state.decisions != decision:
                    continue                   # moved on while drawing: the newest
                page.pictured = decision
                await ws.send_text(json.dumps({"type": "picture", "decision": decision,
                                               "svg": svg}))
        except (RuntimeError, WebSocketDisconnect, OSError):
            pass                               # the page has gone
        except (RulepackError, BrokenProcessPool) as exc:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                await ws.send_text(json.dumps({"type": "refused", "message":
                                               f"the picture could not be drawn: {exc}"}))
        finally:
            page.painting = False

    def open(self, ruleset: str, players: int, seats: list[str], options: dict[str, Any],
             ) -> tuple[str, dict[int, str], str]:
        """Open a table; returns its id, the human seats' tokens and the spectators'.

        :raises RulepackError: a ruleset, player count, option or bot that does not fit."""
        from rulepack.agents.bots import make_agent
        from rulepack.loader import load
        game = self.games.get(ruleset)
        if game is None:
            game = self.games[ruleset] = load(ruleset)
        n = players or game.min_players
        if len(seats) != n:
            raise RulepackError.at(f"{n} seats are needed, not {len(seats)}")
        for s, kind in enumerate(seats):
            if kind != "human":
                try:
                    make_agent(kind, 0, s)
                except KeyError:
                    from rulepack.agents.bots import AGENTS, SEARCH_AGENTS
                    known = ", ".join(["human", *AGENTS, *SEARCH_AGENTS])
                    raise RulepackError.at(f"seat {s + 1}: no bot {kind!r} (a seat is one "
                                           f"of {known})") from None
        chosen = game.parse_options(options)
        row, tokens, watch = self.store.create(ruleset, n, chosen, seats,
                                               secrets.randbelow(2 ** 31))
        try:
            self.tables[row.id] = Table.start(row, game)
        except BaseException:
            self.store.delete(row.id)       # (a game that cannot start leaves no table)
            raise
        self.locks[row.id] = asyncio.Lock()
        settle_memory()
        return row.id, tokens, watch


def application(data: Path, rulesets: list[str] | None = None,
                bot_delay: float = BOT_DELAY, workers: int = 0) -> Starlette:
    """The app serving the tables kept in ``data`` (``rulesets``: files offered beside
    the bundled rulesets; ``workers``: processes drawing the pictures, 0: drawn in the
    server's thread, in order — see :mod:`rulepack.web.pictures`)."""
    server = Server(data, bot_delay, workers)
    offered = list(rulesets or [])

    def seat_of(tid: str, token: str | None) -> int | None:
        if tid not in server.tables or not token:
            return None
        return server.store.seat_of(tid, token)

    def refuse(why: str, status: int, as_json: bool = False) -> Response:
        if as_json:
            return JSONResponse({"error": why}, status_code=status)
        return HTMLResponse(pages.error(why), status_code=status)

    def seated(request: Request, as_json: bool = False) -> tuple[Table, int] | Response:
        """The table of a request and the seat its token opens, else a 404 (an error
        page, or ``{"error": ...}``)."""
        tid = request.path_params["tid"]
        seat = seat_of(tid, request.query_params.get("token"))
        if seat is None:
            return refuse("no such table, or a wrong token", 404, as_json)
        return server.tables[tid], seat

    async def lobby(request: Request) -> Response:
        from rulepack.loader import bundled_rulesets
        return HTMLResponse(pages.lobby(bundled_rulesets() + offered,
                                        [(t.row.id, t.row.ruleset, t.state.is_terminal())
                                         for t in server.tables.values()], server.broken))

    async def create(request: Request) -> Response:
        # a plain urlencoded form (parsed by the standard library: no multipart here)
        fields = parse_qs((await request.body()).decode("utf-8", "replace"))
        form = {k: v[0] for k, v in fields.items()}
        try:
            ruleset = str(form.get("ruleset", ""))
            if ruleset not in offered:
                from rulepack.loader import bundled_rulesets
                if ruleset not in bundled_rulesets():
                    raise RulepackError.at(f"no ruleset {ruleset!r} is offered here")
            seats = [s.strip() for s in str(form.get("seats", "")).split(",")]
            if any(not s for s in seats):
                raise RulepackError.at("seats are names separated by commas (human, random, "
                                       "mcts...), none of them empty")
            options = {}
            for pair in str(form.get("options", "")).split():
                if "=" not in pair:
                    raise RulepackError.at(f"options are NAME=VALUE separated by spaces, "
                                           f"not {pair!r}")
                name, value = pair.split("=", 1)
                options[name] = value
            given = str(form.get("players") or "").strip()
            if given and not given.isdigit():
                raise RulepackError.at(f"players is a number, not {given!r}")
            players = int(given or len(seats))
            tid, tokens, watch = server.open(ruleset, players, seats, options)
        except RulepackError as exc:
            return HTMLResponse(pages.error(said(exc)), status_code=400)
        server.kick(tid)
        base = str(request.base_url).rstrip("/")
        links = {server.tables[tid].seats[s]: f"{base}/t/{tid}?token={t}"
                 for s, t in tokens.items()}
        return HTMLResponse(pages.invitations(tid, links, f"{base}/t/{tid}?token={watch}"))

    async def game_page(request: Request) -> Response:
        found = seated(request)
        if isinstance(found, Response):
            return found
        table, seat = found
        from rulepack.rulebook.screen import plain, short_rules
        rules = plain(short_rules(table.game, table.row.players, dict(table.row.options)))
        who = "a spectator" if seat < 0 else table.seats[seat]
        return HTMLResponse(pages.game(table.game.title, who, rules))

    async def record(request: Request) -> Response:
        found = seated(request, as_json=True)
        if isinstance(found, Response):
            return found
        table, _ = found
        if not table.state.is_terminal():
            return refuse("the record is given once the game is over (it holds the seed)",
                          403, as_json=True)
        return FileResponse(table.row.record, filename=f"{table.row.id}.jsonl")

    async def replay_page(request: Request) -> Response:
        found = seated(request)
        if isinstance(found, Response):
            return found
        table, _ = found
        if not table.state.is_terminal():
            return refuse("the replay is shown once the game is over (it shows every hidden "
                          "piece)", 403)
        from rulepack.records import read_record
        from rulepack.render.replay_page import replay_html
        from rulepack.story import Teller
        page = await asyncio.to_thread(
            lambda: replay_html(read_record(table.row.record), Teller(),
                                name=f"table {table.row.id}"))
        return HTMLResponse(page)

    async def socket(ws: WebSocket) -> None:
        tid = ws.path_params["tid"]
        seat = seat_of(tid, ws.query_params.get("token"))
        if seat is None:
            await ws.close(code=4404)
            return
        await ws.accept()
        page = Page(seat)
        server.sockets.setdefault(tid, {})[ws] = page
        table = server.tables[tid]
        try:
            await server.send(tid, ws, page, first=True)
            await server.paint(tid, ws, page)
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    raise WebSocketDisconnect(frame.get("code", 1000))
                raw = frame.get("text")
                if raw is not None and len(raw) > MAX_MESSAGE or \
                        len(frame.get("bytes") or b"") > MAX_MESSAGE:
                    await ws.close(code=1009)
                    return
                try:
                    if raw is None:
                        raise ValueError("a message is JSON text, not binary")
                    try:
                        msg = json.loads(raw)
                    except (ValueError, RecursionError):
                        raise ValueError("a message is JSON: {\"type\": \"act\", \"decision\""
                                         ": N, \"action\": TEXT}") from None
                    if not isinstance(msg, dict) or msg.get("type") != "act":
                        raise ValueError("expected {\"type\": \"act\", \"decision\": N, "
                                         "\"action\": TEXT}")
                    decision, text = msg.get("decision"), msg.get("action")
                    if not isinstance(decision, int) or not isinstance(text, str):
                        raise ValueError("an act needs a decision number and an action text")
                    async with server.locks[tid]:
                        table.act(seat, decision, text)
                except (ValueError, Refused) as exc:
                    await ws.send_text(json.dumps({"type": "refused", "message": str(exc)}))
                    await server.send(tid, ws, page)
                    await server.paint(tid, ws, page)
                    continue
                await server.broadcast(tid)
                server.kick(tid)
        except WebSocketDisconnect:
            pass
        finally:
            server.sockets.get(tid, {}).pop(ws, None)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.startup()
        yield
        server.drawer.close()

    app = Starlette(routes=[
        Route("/", lobby), Route("/tables", create, methods=["POST"]),
        Route("/t/{tid}", game_page), Route("/t/{tid}/record", record),
        Route("/t/{tid}/replay", replay_page),
        WebSocketRoute("/ws/{tid}", socket),
    ], lifespan=lifespan, max_body_size=64 * 1024)
    app.state.server = server
    return app


def serve(data: Path, rulesets: list[str], host: str, port: int, bot_delay: float) -> None:
    """Run the app on uvicorn until stopped (its access log off: the URLs carry tokens).

    The process's full garbage collections are made a hundred times rarer (the third
    threshold 10 → 1000): each walks every object a game has made since its table
    opened, and they set the p99 of ``benchmarks/serve_load.py`` (100 tables) at
    82-88 ms instead of 75 (see :func:`settle_memory` for the tables themselves)."""
    import uvicorn
    first, second, _ = gc.get_threshold()
    gc.set_threshold(first, second, 1000)
    uvicorn.run(application(data, rulesets, bot_delay, workers=1), host=host, port=port,
                log_level="warning", access_log=False)
