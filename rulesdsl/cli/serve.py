"""``rulesdsl serve``: the web table.  Starts a local server and prints one link per human seat.

Without a ruleset, the start page (``/``) lets a host choose a game, its parameters and seats.  The
server needs the ``web`` extra (Starlette, uvicorn, websockets), imported only here, so every other
command works without it.
"""

from __future__ import annotations

import socket
import sys
from typing import Optional

import click

from ..errors import printable
from .common import _ALLOW_PATH, _parse_sets, load_or_exit

WEB_EXTRA = "the web table needs the web extra: pip install 'rulesdsl[web]'"
#: largest websocket frame uvicorn reads; the protocol itself refuses messages over 4 KB
WS_MAX_SIZE = 64 * 1024


@click.command()
@click.argument("ruleset", required=False)
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--seats", default=None, metavar="human,bot,...",
              help="Who sits where: `human`, `bot` (the next of --bots) or a bot name, per seat.  "
                   "Default: one person, the rest bots.")
@click.option("--bots", default="greedy", show_default=True, help="Bots for `bot` seats (the last repeated).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@click.option("--players", type=int, default=None, help="Number of players, where the game allows a range.")
@click.option("--seed", type=int, default=None, help="Deal from this seed (default: unpredictable).")
@click.option("--bot-delay", type=float, default=0.6, show_default=True, help="Seconds between two bot moves.")
@_ALLOW_PATH
def serve(ruleset: Optional[str], port: int, host: str, seats: Optional[str], bots: str, sets: tuple,
          players: Optional[int], seed: Optional[int], bot_delay: float, allow_paths: tuple) -> None:
    """Play in the browser: serve RULESET (or a start page to choose a game) and print the links."""
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.lobby import Lobby, LobbyError
    except ImportError:
        click.echo(f"error: {WEB_EXTRA}", err=True)
        sys.exit(2)
    overrides, where = _parse_sets(sets)
    if sets and not ruleset:
        raise click.UsageError("--set needs a RULESET (on the start page, parameters are set in the form)")
    lobby = Lobby(served=ruleset, served_overrides=overrides, allow_paths=allow_paths)
    room = None
    if ruleset:
        rules = load_or_exit(ruleset, overrides, where, allow_paths)
        specs = _seat_specs(seats, bots, players or rules.model.players.default if not seats else players)
        try:
            room = lobby.create(ruleset, specs, overrides, seed=seed, trusted=True)
        except LobbyError as exc:
            click.echo(f"error: {printable(exc)}", err=True)
            sys.exit(2)
    sock = _listen(host, port)
    base = f"http://{_shown_host(host)}:{sock.getsockname()[1]}"
    _print_links(room, base)
    config = uvicorn.Config(create_app(lobby, bot_delay=bot_delay), log_level="warning", ws_max_size=WS_MAX_SIZE)
    uvicorn.Server(config).run(sockets=[sock])


def _seat_specs(seats: Optional[str], bots: str, players: Optional[int]) -> list[str]:
    """``--seats human,bot,greedy`` -> one spec per seat (``bot`` takes the next of ``--bots``)."""
    from ..bots import BotError, seat_specs

    words = [w.strip() for w in seats.split(",")] if seats else ["human"] + ["bot"] * ((players or 2) - 1)
    if players is not None and len(words) != players:
        raise click.BadParameter(f"{len(words)} seats named for {players} players", param_hint="--seats")
    if any(not w for w in words):
        raise click.BadParameter("an empty seat; write human, bot or a bot name per seat", param_hint="--seats")
    try:
        pool = iter(seat_specs(bots, max(1, words.count("bot"))))
    except BotError as exc:
        raise click.BadParameter(str(exc), param_hint="--bots") from None
    return [next(pool) if w == "bot" else w for w in words]


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket (bound here, so a busy port is one line, and port 0 finds a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        click.echo(f"error: cannot listen on {printable(host)}:{port}: {printable(exc.strerror or exc)}", err=True)
        sys.exit(2)
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def _shown_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _print_links(room, base: str) -> None:
    if room is None:
        click.echo(f"start page: {base}/")
    else:
        table = room.table
        click.echo(f"{printable(room.title)} ({printable(room.name)}), seats: {', '.join(table.seats)}")
        for seat in table.humans:
            click.echo(f"seat {seat + 1}: {base}/t/{room.token_of(seat)}")
        click.echo(f"host (the record, any time; it shows every card): {base}/api/{room.id}/record?token={room.host}")
        click.echo(f"start page for more games: {base}/")
    click.echo("stop with Ctrl-C")
    sys.stdout.flush()
