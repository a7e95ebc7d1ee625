"""Replays: a game record opened on the server and shown position by position, every seat at once.

A record comes from a finished game here or from a file a person uploads.  An uploaded record is
replayed only under a ruleset this server offers (``Lobby.rules``: the bundled games and the one it
was started with), so a record cannot make the server read a file, and its seats are only names here:
no bot is made from it (a ``module:Class`` seat would import code).

A record from elsewhere costs the server only what it bounds: at most ``MAX_REPLAY_ACTIONS`` actions
(a record whose overrides make an endless game is cut there, refused), only its checked fields kept
(``record.checked``), at most ``MOST_KEPT`` copies of the game per replay, and a position rebuilt from
the nearest copy, so a request replays at most a few hundred actions.  ``Tables`` runs at most
``REPLAY_THREADS`` replays at once, beside the games and bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..engine.record import Positions, RecordError, checked
from ..errors import RulesdslError
from ..table import HUMAN, Table
from ..table.session import SAVED_TABLE_FIELDS, after_action, before_action
from .lobby import BOT_NAMES, LobbyError
from .render import LOG_LINES, replay_position

#: most actions a record replayed here may hold
MAX_REPLAY_ACTIONS = 20_000
#: copies of the game a replay keeps (one every 32 actions, fewer for a long record)
MOST_KEPT = 64
#: replays built at once (opening one, or one position); the others wait their turn
REPLAY_THREADS = 2
#: requests waiting for a replay to be built; past it a request is told the server is busy (503)
MAX_REPLAYS_WAITING = 16


@dataclass
class Replay:
    record: dict               # the checked fields only
    rules: Any
    names: list
    positions: Positions


def check_upload(record: Any) -> tuple[dict, list]:
    """An uploaded record's checked fields and its seats' names, before any work is queued: cheap, and
    what was sent is not kept (``record.checked``)."""
    if not isinstance(record, Mapping):
        raise LobbyError("a record is a JSON object")
    saved = record.get("table", {})
    if not isinstance(saved, Mapping) or not set(saved) <= set(SAVED_TABLE_FIELDS):
        raise LobbyError(f"the record's `table` holds only {', '.join(SAVED_TABLE_FIELDS)}")
    try:
        clean = checked(record, MAX_REPLAY_ACTIONS)
    except RecordError as exc:
        raise LobbyError(f"the record does not replay here: {exc}") from None
    return clean, _names(saved.get("seats"), clean["players"])


def open_record(lobby, clean: dict, names: list, rules=None) -> Replay:
    """Check that the checked record ``clean`` replays to its end (under ``rules``, or the offered
    ruleset it names with the game's own parameters only: ``Lobby.client_overrides``)."""
    try:
        if rules is None:
            rules = lobby.rules(clean["ruleset"], lobby.client_overrides(clean["ruleset"], clean["overrides"]))
        positions = Positions(clean, rules, most_kept=MOST_KEPT)
        positions.at(len(clean["actions"]))        # it replays to its end (keeping copies on the way)
    except (RecordError, RulesdslError) as exc:
        raise LobbyError(f"the record does not replay here: {exc}") from None
    return Replay(clean, rules, names, positions)


def position(replay: Replay, step: int) -> dict:
    """The position after the first ``step`` actions, with the last ``LOG_LINES`` of its log."""
    actions = replay.record["actions"]
    step = max(0, min(step, len(actions)))
    log: list = []

    def logged(game, text: str) -> None:
        log.append(before_action(game, text))
        game.apply(text)
        log[-1] = after_action(game, log[-1])

    try:
        game = replay.positions.at(step, earliest=step - LOG_LINES, apply=logged)
    except RulesdslError as exc:
        raise LobbyError(f"the record does not replay here: {exc}") from None
    table = Table(game, [HUMAN] * game.n)
    table.events = log
    return replay_position(table, actions, step, replay.names)


def _names(seats: Any, n: int) -> list:
    """Seat names for the replay: "seat 2", with the bot's name for a seat a known bot played."""
    names = []
    for s in range(n):
        spec = seats[s] if isinstance(seats, list) and s < len(seats) else HUMAN
        names.append(f"seat {s + 1}" + (f" ({spec})" if isinstance(spec, str) and spec in BOT_NAMES else ""))
    return names
