"""Games on the server, their seats, and the tokens that open them.

A token is the only thing that makes a browser a player: ``secrets.token_urlsafe`` gives each human
seat one, and the host of a game one more.  Whoever holds a seat's token plays that seat and sees what
that seat sees; nothing a client sends can name another seat.  The host token may save the game's
record at any time (a record holds the seed, so it reveals every hidden card: a seat's token may save
it only once the match is over).

Rules come from the bundled games (the same list as ``rulesdsl list``) or from the one ruleset the
server was started with; a name or a record from a client never makes the server read another file.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from ..bots import BotError
from ..table import HUMAN, Table, TableError

#: bytes of randomness in a token (``token_urlsafe`` writes 4 characters for every 3 bytes)
TOKEN_BYTES = 24
#: games kept at once; creating one more forgets the oldest finished (or else the oldest) game
MAX_GAMES = 200
#: uploaded records kept for replay at once
MAX_REPLAYS = 50
#: bots a seat may be given from the start page (a ``module:Class`` spec would import code)
BOT_NAMES = ("random", "greedy", "ismcts")


class LobbyError(ValueError):
    """A game that cannot be made or found: an unknown ruleset, bad seats or parameters."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Room:
    """One game being played: its table, the token of each human seat, the host's token, the sockets
    open on it, and what each seat saw as the last hand ended (the deal that follows replaces the
    cards on the table at once, so the end of a hand is kept to be shown)."""

    id: str
    name: str                                  # the ruleset as it was asked for
    table: Table
    rules: Any
    host: str
    tokens: dict = field(default_factory=dict)            # token -> seat
    hand_ends: dict = field(default_factory=dict)         # seat -> {"hand", "view", "event"}
    sockets: list = field(default_factory=list)           # (websocket, seat)
    lock: Optional[asyncio.Lock] = None
    bots_running: bool = False
    kept: bool = False                         # made from the command line: never forgotten for a new one

    @property
    def title(self) -> str:
        return self.table.game.prog.model.name

    def token_of(self, seat: int) -> Optional[str]:
        return next((t for t, s in self.tokens.items() if s == seat), None)

    def get_lock(self) -> asyncio.Lock:
        if self.lock is None:
            self.lock = asyncio.Lock()
        return self.lock

    def act(self, seat: int, text) -> Any:
        """``seat`` acts (``Table.act``: IllegalAction leaves everything as it was); when the action
        ends a hand, each human seat's view from just before it is kept as that hand's last look."""
        before = {s: self.table.view(s) for s in self.table.humans}
        hand = self.table.game.hand_number
        event = self.table.act(seat, text)
        self._keep_hand_end(hand, before, event)
        return event

    def step_bot(self) -> Any:
        """The bot on turn moves (None when no bot is on turn)."""
        seat = self.table.to_move
        if seat is None or seat not in self.table.bots:
            return None
        return self.act(seat, self.table.bots[seat].choose(self.table.game))

    def _keep_hand_end(self, hand: int, before: Mapping[int, dict], event) -> None:
        game = self.table.game
        if game.hand_number == hand and not game.is_over:
            return
        for seat, view in before.items():
            self.hand_ends[seat] = {"hand": hand, "view": view, "event": event}


class Lobby:
    """Every game on this server, found by its id or by a token."""

    def __init__(self, served: Optional[str] = None, served_overrides: Optional[Mapping] = None,
                 allow_paths: Sequence = (), bot_options: Optional[Mapping] = None):
        self.served = served                  # the ruleset named on the command line, if any
        self.served_overrides = dict(served_overrides or {})
        self.allow_paths = tuple(allow_paths)
        self.bot_options = dict(bot_options or {})
        self.games: "OrderedDict[str, Room]" = OrderedDict()
        self.by_token: dict[str, tuple] = {}      # token -> (room, seat)
        self.replays: "OrderedDict[str, Any]" = OrderedDict()
        self._rules: dict = {}
        self._names: Optional[list] = None
        self._lock = threading.RLock()            # games are made in threads: one change at a time

    # ------------------------------------------------------------------ rules
    def names(self) -> list[tuple[str, str]]:
        """The rulesets this server offers: the bundled list, and the one it was started with."""
        if self._names is None:
            from ..rules import bundled_listing

            listing = bundled_listing()
            if self.served and self.served not in {n for n, _ in listing}:
                listing.insert(0, (self.served, "(served file)"))
            self._names = listing
        return list(self._names)

    def rules(self, name: str, overrides: Optional[Mapping] = None):
        """The loaded ruleset ``name`` with ``overrides``; only a name from ``names()`` is loaded.
        A ruleset's mistakes (a bad parameter) raise ``RulesetError``."""
        from ..rules import load

        if not isinstance(name, str) or name not in {n for n, _ in self.names()}:
            raise LobbyError(f"no game called `{str(name)[:40]}` is offered here")
        merged = dict(self.served_overrides) if name == self.served else {}
        merged.update(overrides or {})
        key = (name, repr(sorted(merged.items())))
        found = self._rules.get(key)
        if found is None:
            found = load(name, merged or None, allow_paths=self.allow_paths if name == self.served else ())
            with self._lock:
                if len(self._rules) > 64:
                    self._rules.clear()
                self._rules[key] = found
        return found

    def client_overrides(self, name: str, overrides: Mapping) -> dict:
        """Overrides a client sends (the start page's form, an uploaded record's ``overrides``): only the
        declared parameters of ``name``, never a dotted path (``derived.f``, ``stock_out.when`` would
        rewrite the rules themselves); the served ruleset's own overrides may be repeated as they are."""
        declared = self.rules(name).params
        served = self.served_overrides if name == self.served else {}
        out = {}
        for key, value in overrides.items():
            if key in served and served[key] == value:
                continue
            if key not in declared:
                raise LobbyError(f"`{str(key)[:40]}` is no parameter of this game (a client sets only the "
                                 "game's parameters)")
            out[key] = value
        return out

    # ------------------------------------------------------------------ games
    def create(self, name: str, seats: Sequence[str], overrides: Optional[Mapping] = None,
               seed=None, trusted: bool = False) -> Room:
        """A new game of ``name`` with these seats (``human`` or a bot name each), dealt from an
        unpredictable seed unless ``seed`` is given.  Seats from a client are ``human`` or one of
        ``BOT_NAMES``; the command line (``trusted``) may name any bot spec."""
        rules = self.rules(name, overrides)
        seats = [str(s) if trusted else check_seat(s) for s in seats]
        players = rules.model.players
        if not players.min <= len(seats) <= players.max:
            allowed = str(players.min) if players.min == players.max else f"{players.min} to {players.max}"
            raise LobbyError(f"{rules.name} is for {allowed} players, not {len(seats)}")
        try:
            table = Table.new(rules, seats, seed=seed, bot_options=self.bot_options)
        except (TableError, BotError) as exc:
            raise LobbyError(str(exc)) from None
        room = Room(id=secrets.token_urlsafe(9), name=name, table=table, rules=rules, host=new_token(),
                    kept=trusted)
        with self._lock:
            for seat in table.humans:
                token = new_token()
                room.tokens[token] = seat
                self.by_token[token] = (room, seat)
            self._make_room_for_one_more()
            self.games[room.id] = room
        return room

    def _make_room_for_one_more(self) -> None:
        """Forget the oldest finished game (else the oldest) while ``MAX_GAMES`` are kept; the games
        the command line made are never forgotten (their links were printed once)."""
        while len(self.games) >= MAX_GAMES:
            others = [g for g in self.games.values() if not g.kept]
            if not others:
                break
            done = next((g for g in others if g.table.game.is_over), None)
            self.forget(done or others[0])

    def forget(self, room: Room) -> None:
        self.games.pop(room.id, None)
        for token in room.tokens:
            self.by_token.pop(token, None)

    def seat_of(self, token: Any) -> Optional[tuple]:
        """``(room, seat)`` for a seat's token, else None."""
        if not isinstance(token, str):
            return None
        return self.by_token.get(token)

    def may_save(self, room: Room, token: Any) -> bool:
        """The record (which holds the seed, so every hidden card) goes to the host at any time, and
        to a seat of the game once the match is over."""
        if not isinstance(token, str):
            return False
        if secrets.compare_digest(token.encode("utf-8", "surrogatepass"), room.host.encode()):
            return True
        return token in room.tokens and room.table.game.is_over

    # ------------------------------------------------------------------ replays
    def add_replay(self, replay: Any) -> str:
        key = secrets.token_urlsafe(9)
        with self._lock:
            while len(self.replays) >= MAX_REPLAYS:
                self.replays.popitem(last=False)
            self.replays[key] = replay
        return key


def check_seat(spec: Any) -> str:
    """A seat as a client may ask for it: ``human`` or one of ``BOT_NAMES``."""
    if spec == HUMAN or spec in BOT_NAMES:
        return spec
    raise LobbyError(f"a seat is `human` or a bot ({', '.join(BOT_NAMES)}), not `{str(spec)[:40]}`")
