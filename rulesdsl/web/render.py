"""What the page is sent: a seat's table, and a position of a replay.

A seat's state is built from ``table.view(seat)`` and ``table.log(seat)`` alone (and the public seat
names), so it holds nothing that seat may not see; the page draws it without knowing any game.  A
replay shows every seat, which is why a record is handed out only when the game is over or to its host.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from ..table import HUMAN, Table
from ..table.words import result_words

#: log lines sent with each state (the newest)
LOG_LINES = 300


def seat_state(room, seat: int) -> dict:
    """Everything the page of ``seat`` shows: its view, its log, the seats' names, the last hand's end."""
    table = room.table
    game = table.game
    return {
        "type": "state",
        "game": room.id,
        "title": room.title,
        "seat": seat,
        "names": [table.name(s, seat) for s in range(game.n)],
        "bots": [spec != HUMAN for spec in table.seats],
        "view": table.view(seat),
        "log": table.log(seat, last=LOG_LINES),
        "version": len(game.history),
        "hand_end": hand_end(table, room.hand_ends.get(seat), seat),
        "can_save": bool(game.is_over),
    }


def hand_end(table: Table, kept: Optional[Mapping], seat: Optional[int]) -> Optional[dict]:
    """The last hand's end as ``seat`` saw it: the table just before the action that ended it (its
    melds and the cards that seat could see), that action in words, and the result."""
    if not kept:
        return None
    entry = next((e for e in reversed(table.game.hand_log) if e.get("hand") == kept["hand"]), None)
    view = kept["view"]
    return {
        "hand": kept["hand"],
        "final": table.describe(kept["event"], seat),
        "result": result_words(entry, lambda s: table.name(s, seat), _teams(table)) if entry else None,
        "entry": entry,
        "melds": view.get("melds", []),
        "zones": view.get("zones", {}),
        "team_zones": view.get("team_zones"),
    }


def _teams(table: Table) -> Optional[list]:
    game = table.game
    return [game.members(t) for t in range(game.teams)] if game.teams else None


def replay_position(table: Table, actions: list, step: int, names: list) -> dict:
    """Position ``step`` (0: the deal, before any action) of a replay, as every seat sees it."""
    game = table.game
    return {
        "type": "replay",
        "title": game.prog.model.name,
        "step": step,
        "steps": len(actions),
        "action": actions[step - 1] if step else None,
        "names": names,
        "views": [table.view(s) for s in range(game.n)],
        "log": table.log(None, last=LOG_LINES),
        "hand_number": game.hand_number,
    }


def ruleset_form(name: str, rules: Any) -> dict:
    """A ruleset's parameters with their defaults (and choices, bounds), for the start page's form."""
    params = []
    for key, p in rules.model.params.items():
        default = list(p.default) if isinstance(p.default, tuple) else p.default
        params.append({"name": key, "default": default, "choices": list(p.choices) if p.choices else None,
                       "min": p.lo, "max": p.hi, "doc": p.doc or ""})
    players = rules.model.players
    return {"name": name, "title": rules.name, "params": params,
            "players": {"min": players.min, "max": players.max, "default": players.default}}
