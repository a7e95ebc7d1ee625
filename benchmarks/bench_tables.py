"""What a table costs per action, against the bare engine.

1. The table core (``rulesdsl.table``): per action, what a server does for every seat after a move --
   ``view(seat)`` and the last 30 lines of ``log(seat)`` -- on top of ``Table.step_bot()`` with random
   bots, against ``game.apply`` alone with the same random choices.  Figures: actions per second and
   the ratio.
2. The web table through its real server: ``rulesdsl serve``'s app under uvicorn on a free local port,
   two human seats of a game, each a websocket client (the ``websockets`` package) that answers its own
   state with its first legal action; figures: actions per second end to end (action sent -> every
   seat's new state received) and the median round trip.

    python benchmarks/bench_tables.py [--actions 3000] [--web-actions 400]

Needs the ``web`` extra for part 2.  Figures depend on the machine; run it on a quiet one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import threading
import time

import rulesdsl
from rulesdsl.table import Table

GAMES = {"gin_rummy": 2, "president": 4, "rummy_500": 3, "hand_and_foot": 4, "big_two": 4,
         "crazy_eights": 4, "contract_rummy": 4}


def _bare(name: str, players: int, actions: int) -> float:
    rules = rulesdsl.load(name)
    done, seed, start = 0, 0, time.perf_counter()
    while done < actions:
        game, rng = rules.new_game(seed=seed, players=players), random.Random(seed)
        while not game.is_over and done < actions:
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])
            done += 1
        seed += 1
    return done / (time.perf_counter() - start)


def _table(name: str, players: int, actions: int) -> float:
    rules = rulesdsl.load(name)
    done, seed, start = 0, 0, time.perf_counter()
    while done < actions:
        table = Table.new(rules, ["random"] * players, seed=seed)
        while table.to_move is not None and done < actions:
            table.step_bot()
            for s in range(players):
                table.view(s)
                table.log(s, last=30)
            done += 1
        seed += 1
    return done / (time.perf_counter() - start)


def core(actions: int) -> None:
    print(f"table core: {actions:,} actions per game, random bots; per action every seat's view and log tail")
    print(f"{'game':16} {'engine/s':>10} {'table/s':>10} {'ratio':>7}")
    for name, n in GAMES.items():
        bare, table = _bare(name, n, actions), _table(name, n, actions)
        print(f"{name:16} {bare:10,.0f} {table:10,.0f} {table / bare:7.2f}")


def _free_port() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


async def _seat(url: str, seat_count: int, stop: int, times: list, done: asyncio.Event) -> None:
    import websockets

    async with websockets.connect(url, max_size=2 ** 22) as ws:
        sent = None
        while not done.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 30)
            except (asyncio.TimeoutError, websockets.ConnectionClosed):
                return
            msg = json.loads(raw)
            if msg.get("type") != "state":
                continue
            if sent is not None:
                times.append(time.perf_counter() - sent)
                sent = None
            view = msg.get("view", {})
            if view.get("is_over") or len(times) >= stop:
                done.set()
                return
            legal = view.get("legal_actions") or []
            if legal:
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": legal[0]}))


def web(actions: int, name: str = "gin_rummy") -> None:
    import uvicorn

    from rulesdsl.web.app import create_app
    from rulesdsl.web.lobby import Lobby

    lobby = Lobby()
    players = GAMES[name]
    room = lobby.create(name, ["human"] * players, seed=1)
    sock = _free_port()
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(lobby, bot_delay=0), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    urls = [f"ws://127.0.0.1:{port}/ws?token={room.token_of(s)}" for s in range(players)]

    async def play() -> list:
        times: list = []
        done = asyncio.Event()
        await asyncio.gather(*(_seat(u, players, actions, times, done) for u in urls))
        return times

    start = time.perf_counter()
    times = asyncio.run(play())
    elapsed = time.perf_counter() - start
    server.should_exit = True
    thread.join(5)
    print(f"web table ({name}, {players} human seats over websockets, uvicorn on loopback): "
          f"{len(times):,} actions in {elapsed:.2f} s = {len(times) / elapsed:,.0f} actions/s; "
          f"round trip median {statistics.median(times) * 1000:.2f} ms, p95 "
          f"{sorted(times)[int(len(times) * 0.95)] * 1000:.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--actions", type=int, default=3000)
    ap.add_argument("--web-actions", type=int, default=400)
    args = ap.parse_args()
    core(args.actions)
    try:
        web(args.web_actions)
    except ImportError as exc:
        print(f"web table: skipped ({exc}; pip install '.[web]')")


if __name__ == "__main__":
    main()
