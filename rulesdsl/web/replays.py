"""Replays: a game record opened on the server and shown position by position, every seat at once.

A record comes from a finished game here or from a file a person uploads.  An uploaded record is
replayed only under a ruleset this server offers (``Lobby.rules``: the bundled games and the one it
was started with), so a record cannot make the server read a file, and its seats are only names here:
no bot is made from it (a ``module:Class`` seat would import code).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..engine.record import RecordError
from ..errors import RulesdslError
from ..table import HUMAN, Table, TableError
from .lobby import BOT_NAMES, LobbyError
from .render import replay_position


@dataclass
class Replay:
    record: dict
    rules: Any
    names: list


def open_record(lobby, record: Any, rules=None) -> Replay:
    """Check that ``record`` replays to its end (under ``rules``, or the offered ruleset it names)."""
    if not isinstance(record, Mapping):
        raise LobbyError("a record is a JSON object")
    if rules is None:
        name, overrides = record.get("ruleset"), record.get("overrides")
        if not isinstance(overrides, Mapping):
            raise LobbyError("the record's `overrides` must be an object")
        rules = lobby.rules(name, dict(overrides))
    _load(record, rules, None)
    return Replay(dict(record), rules, _names(record))


def position(replay: Replay, step: int) -> dict:
    """The position after the first ``step`` actions, built by replaying that prefix."""
    actions = replay.record["actions"]
    step = max(0, min(step, len(actions)))
    table = _load(replay.record, replay.rules, step)
    return replay_position(table, actions, step, replay.names)


def _load(record: Mapping, rules, step) -> Table:
    data = dict(record)
    if step is not None:
        data["actions"] = list(record["actions"])[:step]
    players = data.get("players")
    seats = [HUMAN] * players if type(players) is int and 0 < players <= 64 else None
    try:
        return Table.load(data, rules=rules, seats=seats)
    except (TableError, RecordError, RulesdslError) as exc:
        raise LobbyError(f"the record does not replay here: {exc}") from None


def _names(record: Mapping) -> list:
    """Seat names for the replay: "seat 2", with the bot's name for a seat a known bot played."""
    saved = record.get("table")
    seats = saved.get("seats") if isinstance(saved, Mapping) else None
    n = record.get("players") if type(record.get("players")) is int else 0
    names = []
    for s in range(n):
        spec = seats[s] if isinstance(seats, list) and s < len(seats) else HUMAN
        names.append(f"seat {s + 1}" + (f" ({spec})" if spec in BOT_NAMES else ""))
    return names
