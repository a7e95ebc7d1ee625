"""The web table's routes: pages, the JSON API of the start page and of replays, and the socket of a seat.

The server is the only authority.  A socket's token decides its seat; every action goes through
``Room.act`` (the game refuses what its rules forbid); each socket is sent only its own seat's state
(``render.seat_state``).  Bots move here, on the server, one at a time with ``bot_delay`` seconds
between moves so people can follow.  See docs/web.md for the protocol and the security model.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import IllegalAction, RulesdslError, RulesetError, printable
from .lobby import BOT_NAMES, Lobby, LobbyError, Room
from .protocol import ProtocolError, error, read_message, refused
from .render import ruleset_form, seat_state
from .replays import MAX_REPLAYS_WAITING, REPLAY_THREADS, check_upload, open_record, position

STATIC = Path(__file__).parent / "static"
#: largest request body the API reads (an uploaded record)
MAX_BODY = 4 * 1024 * 1024


def create_app(lobby: Optional[Lobby] = None, bot_delay: float = 0.6) -> Starlette:
    """The Starlette app serving ``lobby``'s games; ``bot_delay``: seconds between two bot moves."""
    lobby = lobby or Lobby()
    tables = Tables(lobby, bot_delay)
    page = _page
    routes = [
        Route("/", page), Route("/t/{token}", page), Route("/table/{game}", page), Route("/replay", page),
        Route("/api/rulesets", tables.rulesets),
        Route("/api/ruleset", tables.ruleset),
        Route("/api/games", tables.create, methods=["POST"]),
        Route("/api/replays", tables.open_replay, methods=["POST"]),
        Route("/api/replays/{key}/{step}", tables.replay_step),
        Route("/api/{game}/record", tables.record),
        WebSocketRoute("/ws", tables.socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        await tables.start_bots()
        yield

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.lobby = lobby
    app.state.tables = tables
    return app


async def _page(request: Request) -> FileResponse:
    """Every page is the one document; its script reads the address (start page, table, replay)."""
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})


def _fail(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": printable(message)}, status_code=status)


class _Busy(Exception):
    """More replay requests wait than the server queues."""


class Tables:
    """The handlers, sharing the lobby and the running bot tasks."""

    def __init__(self, lobby: Lobby, bot_delay: float):
        self.lobby = lobby
        self.bot_delay = bot_delay
        self._tasks: set = set()
        self._replay_slots: Optional[asyncio.Semaphore] = None
        self._replays_waiting = 0

    def replay_slots(self) -> asyncio.Semaphore:
        """At most ``REPLAY_THREADS`` replays are built at once (made in the server's own loop)."""
        if self._replay_slots is None:
            self._replay_slots = asyncio.Semaphore(REPLAY_THREADS)
        return self._replay_slots

    # ------------------------------------------------------------------ start page
    async def rulesets(self, request: Request) -> JSONResponse:
        return JSONResponse({"rulesets": [{"name": n, "title": t} for n, t in self.lobby.names()],
                             "bots": list(BOT_NAMES), "served": self.lobby.served})

    async def ruleset(self, request: Request) -> JSONResponse:
        name = request.query_params.get("name", "")      # a query, so `./my.rules` stays as written
        try:                                          # loading a ruleset is game work: off the loop
            return JSONResponse(await asyncio.to_thread(lambda: ruleset_form(name, self.lobby.rules(name))))
        except LobbyError as exc:
            return _fail(str(exc), 404)
        except RulesdslError as exc:
            return _fail(str(exc))

    async def create(self, request: Request) -> JSONResponse:
        """``{"ruleset", "params": {name: value}, "seats": ["human", "greedy", ...]}`` -> the links."""
        body = await _json_body(request)
        if not isinstance(body, dict):
            return _fail("send a JSON object: {ruleset, params, seats}")
        name, params, seats = body.get("ruleset"), body.get("params", {}), body.get("seats")
        if not isinstance(params, dict) or not isinstance(seats, list) or not seats:
            return _fail("`params` is an object and `seats` a non-empty list")
        try:
            room = await asyncio.to_thread(lambda: self.lobby.create(name, seats, self._changed(name, params)))
        except LobbyError as exc:
            return _fail(str(exc))
        except RulesetError as exc:
            return _fail("; ".join(d.message for d in exc.diagnostics))
        except RulesdslError as exc:
            return _fail(str(exc))
        self.kick(room)
        return JSONResponse(links(room, str(request.base_url).rstrip("/")))

    def _changed(self, name: Any, params: dict) -> dict:
        """The parameters that differ from the ruleset's defaults (so a variant keeps its own)."""
        defaults = self.lobby.rules(name).params
        out = {}
        for key, value in self.lobby.client_overrides(name, params).items():
            default = defaults[key]
            if isinstance(default, tuple):
                default = list(default)
            if not _same_value(value, default):          # 1 is not `true`, nor 1.0 a whole 1
                out[key] = value
        return out

    # ------------------------------------------------------------------ records and replays
    async def record(self, request: Request) -> JSONResponse:
        room = self.lobby.games.get(request.path_params["game"])
        if room is None:
            return _fail("no such game", 404)
        if not self.lobby.may_save(room, request.query_params.get("token")):
            return _fail("the record (which shows every hidden card) is given once the game is over, "
                         "or to the host", 403)
        async with room.get_lock():
            record = room.table.save()
        return JSONResponse(record, headers={
            "Content-Disposition": f'attachment; filename="record-{room.id}.json"'})

    async def open_replay(self, request: Request) -> JSONResponse:
        """``{"record": {...}}`` (an uploaded file) or ``{"game", "token"}`` (a game here)."""
        body = await _json_body(request)
        try:
            record, rules = await self._record_of(body)
            clean, names = check_upload(record)           # before queueing: nothing unchecked is kept
            del body, record
            replay = await self._replay_work(open_record, self.lobby, clean, names, rules)
        except LobbyError as exc:
            return _fail(str(exc))
        except RulesdslError as exc:
            return _fail(str(exc))
        except _Busy as exc:
            return _fail(str(exc), 503)
        key = self.lobby.add_replay(replay)
        return JSONResponse({"replay": key, "steps": len(replay.record["actions"]),
                             "players": len(replay.names), "names": replay.names})

    async def _record_of(self, body: Any) -> tuple:
        """The record to replay, and the rules to replay it under (None: the offered ruleset it names)."""
        if isinstance(body, dict) and "game" in body:
            room = self.lobby.games.get(body.get("game")) if isinstance(body.get("game"), str) else None
            if room is None or not self.lobby.may_save(room, body.get("token")):
                raise LobbyError("that game's record is not yours to see yet (only once it is over, or its host)")
            async with room.get_lock():
                return room.table.save(), room.rules
        if isinstance(body, dict) and "record" in body:
            return body["record"], None
        raise LobbyError("send {record: ...} or {game, token}")

    async def replay_step(self, request: Request) -> JSONResponse:
        replay = self.lobby.replays.get(request.path_params["key"])
        if replay is None:
            return _fail("no such replay", 404)
        step = request.path_params["step"]
        if not (step.isascii() and step.isdigit()) or len(step) > 9:
            return _fail("a replay position is a count of actions: 0, 1, 2, ...", 404)
        try:                                         # positions are rebuilt from copies: threads may share them
            return JSONResponse(await self._replay_work(position, replay, int(step)))
        except LobbyError as exc:
            return _fail(str(exc))
        except _Busy as exc:
            return _fail(str(exc), 503)

    async def _replay_work(self, fn, *args):
        """``fn(*args)`` in a thread, at most ``REPLAY_THREADS`` at once and ``MAX_REPLAYS_WAITING``
        waiting: replays never take the threads games and bots move in, nor queue without bound."""
        slots = self.replay_slots()
        if slots.locked() and self._replays_waiting >= MAX_REPLAYS_WAITING:
            raise _Busy("the server is busy replaying other records; try again in a moment")
        self._replays_waiting += 1
        try:
            await slots.acquire()
        finally:                                     # (a request given up while waiting waits no more)
            self._replays_waiting -= 1
        try:
            return await asyncio.to_thread(fn, *args)
        finally:
            slots.release()

    # ------------------------------------------------------------------ the seat's socket
    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        found = self.lobby.seat_of(ws.query_params.get("token"))
        if found is None:
            await ws.send_json(error("this link opens no seat here (unknown token)"))
            await ws.close(code=4403)
            return
        room, seat = found
        room.sockets.append((ws, seat))
        try:
            async with room.get_lock():
                await _send(ws, await asyncio.to_thread(seat_state, room, seat))
            self.kick(room)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                await self._handle(ws, room, seat, text if text is not None else message.get("bytes"))
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets[:] = [(w, s) for w, s in room.sockets if w is not ws]

    async def _handle(self, ws: WebSocket, room: Room, seat: int, raw: Any) -> None:
        try:
            msg = read_message(raw)
        except ProtocolError as exc:
            await _send(ws, error(str(exc)))
            return
        async with room.get_lock():                 # the table changes and is read under the room's lock
            if msg["type"] == "sync":                # (game work runs in a thread: the loop serves the others)
                await _send(ws, await asyncio.to_thread(seat_state, room, seat))
                return
            reply = await asyncio.to_thread(self._act, room, seat, msg["action"])
            if reply is not None:
                await _send(ws, reply)
                return
            await self.broadcast(room)
        self.kick(room)

    def _act(self, room: Room, seat: int, text: str) -> Optional[dict]:
        """Do ``seat``'s action; a reply for that socket alone when refused, else None."""
        on_turn = room.table.to_move
        if on_turn != seat:
            who = "nobody (the game is over)" if on_turn is None else room.table.name(on_turn, seat)
            return refused(f"it is not your turn: {who} is to move", "turn order")
        try:
            room.act(seat, text)
        except IllegalAction as exc:
            return refused(str(exc), exc.rule)
        except RulesdslError as exc:
            return error(f"the game stopped: {exc}")
        return None

    async def broadcast(self, room: Room) -> None:
        """Send every socket on ``room`` its own seat's state (called holding the room's lock, so the
        states are of one position and reach every socket in the order the positions came)."""
        states: dict = {}
        for ws, seat in list(room.sockets):
            if seat not in states:
                states[seat] = await asyncio.to_thread(seat_state, room, seat)
            try:
                await _send(ws, states[seat])
            except Exception:  # noqa: BLE001 -- a closed socket is dropped, the others still get theirs
                room.sockets[:] = [(w, s) for w, s in room.sockets if w is not ws]

    # ------------------------------------------------------------------ bots
    async def start_bots(self) -> None:
        for room in list(self.lobby.games.values()):
            self.kick(room)

    def kick(self, room: Room) -> None:
        """Let the bots play while one of them is on turn (one task per room at a time)."""
        if room.bots_running or not self._bot_on_turn(room):
            return
        room.bots_running = True
        task = asyncio.get_running_loop().create_task(self._run_bots(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def _bot_on_turn(room: Room) -> bool:
        seat = room.table.to_move
        return seat is not None and seat in room.table.bots and not room.table.game.broken

    async def _run_bots(self, room: Room) -> None:
        try:
            while self._bot_on_turn(room):
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                async with room.get_lock():
                    try:
                        moved = await asyncio.to_thread(room.step_bot)
                    except RulesdslError as exc:
                        await self._tell_all(room, error(f"the game stopped: {exc}"))
                        return
                    if moved is None:         # the table changed hands while this waited: nothing moved
                        return
                    await self.broadcast(room)
        finally:
            room.bots_running = False

    async def _tell_all(self, room: Room, message: dict) -> None:
        for ws, _ in list(room.sockets):
            try:
                await _send(ws, message)
            except Exception:  # noqa: BLE001
                pass


async def _send(ws: WebSocket, message: dict) -> None:
    """Send ``message`` as strict JSON: a value that is not a finite number never reaches a browser
    (which would refuse the whole message); the seat is told the game cannot be shown instead."""
    try:
        text = json.dumps(message, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    except ValueError:
        text = json.dumps(error("the game holds a value that is not a finite number; it cannot be shown"))
    await ws.send_text(text)


def _same_value(a: Any, b: Any) -> bool:
    """Equal as ruleset values: of one kind (Python's ``1 == True`` and ``1 == 1.0`` do not count)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    return a == b


def links(room: Room, base: str) -> dict:
    """The links that open a game: one per human seat, and the host's link to its record."""
    table = room.table
    return {
        "game": room.id,
        "title": room.title,
        "seats": [{"seat": s, "player": table.seats[s], "link": f"{base}/t/{room.token_of(s)}"
                   if table.is_human(s) else None} for s in range(table.game.n)],
        "host": room.host,
        "record": f"{base}/api/{room.id}/record?token={room.host}",
    }


async def _json_body(request: Request) -> Any:
    """The request's JSON body, read up to ``MAX_BODY`` bytes (None when larger or not JSON).  Only a
    body sent as ``application/json`` is read: another site's page cannot send that to this server
    without the browser asking first (CORS), and the server never says yes, so no page elsewhere can
    make games here in a visitor's name."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return None
    size = 0
    chunks = []
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):            # not JSON, or nested past what the parser follows
        return None
