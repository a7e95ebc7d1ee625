"""One seat's view in a few lines of plain text, for ``render()``.

Drawn from ``game.view(seat)`` alone (as the terminal table is, without needing ``rich``), so it can
name only the cards that seat may see: its own hand, the face-up piles, the melds, the trick.  Nothing
here knows a game: zones, melds and extra view keys are drawn from the shape of the view.
"""

from __future__ import annotations

import json
from typing import Sequence

#: view keys drawn in their own lines; any other key is listed under "also"
_DRAWN = {"seat", "players", "hand_number", "dealer", "turn_order", "current_player", "phase", "step",
          "scores", "hands_won", "zones", "melds", "legal_actions", "is_over", "winner", "trick",
          "finished", "teams", "team_zones", "last_hands"}
#: at most this many legal actions are listed (the mask has them all)
LEGAL_SHOWN = 24
#: an extra view value is cut to this many characters
EXTRA_CHARS = 120


def view_text(view: dict, title: str, names: Sequence[str], selection: Sequence[str] = ()) -> str:
    """The text of ``view`` (one seat's), headed by ``title``; ``names[i]`` names seat ``i``."""
    seat = view["seat"]
    lines = [_headline(view, title, names)]
    lines.append("scores: " + ", ".join(f"{s} {v}" for s, v in zip(_side_names(view, names), view["scores"])))
    lines += _zones(view, seat, names)
    lines += _melds(view, names)
    lines += _trick(view, names)
    lines += _extras(view)
    if selection:
        lines.append("chosen so far: " + " ".join(selection))
    lines += _legal(view)
    return "\n".join(lines)


def _headline(view: dict, title: str, names: Sequence[str]) -> str:
    seat = view["seat"]
    if view.get("is_over"):
        winner = view.get("winner")
        state = "match over" + ("" if winner is None else f", winner {_side_names(view, names)[winner]}")
    else:
        turn = view.get("current_player")
        state = f"{view['phase']} ({view['step']}), to move: {'-' if turn is None else names[turn]}"
    return f"{title} -- seen by {names[seat]} -- hand {view['hand_number']}, dealer {names[view['dealer']]}, {state}"


def _side_names(view: dict, names: Sequence[str]) -> list:
    teams = view.get("teams")
    if teams:
        return [f"team {t} ({' '.join(names[s] for s in members)})" for t, members in enumerate(teams)]
    return list(names)


def _pile(name: str, entry: dict) -> str:
    """``discard: 3 cards, top QS`` or ``hand: 10 cards: 4D 5C ...``."""
    count = entry.get("count", 0)
    text = f"{name}: {count} card{'' if count == 1 else 's'}"
    if "top" in entry:
        text += f", top {entry['top']}"
    cards = entry.get("cards")
    if cards:
        text += ": " + " ".join(cards)
    return text


def _zones(view: dict, seat: int, names: Sequence[str]) -> list:
    lines = []
    for zone, entry in view["zones"].items():
        if not isinstance(entry, list):
            lines.append(_pile(zone, entry))
    for zone, entry in view["zones"].items():
        if isinstance(entry, list):
            order = [seat] + [s for s in range(len(entry)) if s != seat]
            for s in order:
                who = f"{names[s]} (you)" if s == seat else names[s]
                lines.append(_pile(f"{who} {zone}", entry[s]))
    for zone, per_team in view.get("team_zones", {}).items():
        for t, entry in enumerate(per_team):
            lines.append(_pile(f"team {t} {zone}", entry))
    return lines


def _melds(view: dict, names: Sequence[str]) -> list:
    melds = view.get("melds") or []
    if not melds:
        return []
    sides = _side_names(view, names)
    lines = ["melds:"]
    for i, meld in enumerate(melds, 1):
        owner = meld.get("owner")
        whose = f" [{sides[owner]}]" if isinstance(owner, int) and 0 <= owner < len(sides) else ""
        kind = f" {meld['kind']}" if meld.get("kind") else ""
        lines.append(f"  {i}.{whose}{kind}: {' '.join(meld['cards'])}")
    return lines


def _trick(view: dict, names: Sequence[str]) -> list:
    trick = view.get("trick")
    lines = []
    if trick and trick.get("last_play"):
        by = trick.get("last_player")
        lines.append(f"to beat: {' '.join(trick['last_play'])}" + ("" if by is None else f" by {names[by]}"))
    if trick and trick.get("passed"):
        lines.append("passed: " + " ".join(names[s] for s in trick["passed"]))
    if view.get("finished"):
        lines.append("finished: " + " ".join(names[s] for s in view["finished"]))
    return lines


def _extras(view: dict) -> list:
    out = []
    for key in sorted(k for k in view if k not in _DRAWN):
        value = json.dumps(view[key], sort_keys=True, separators=(",", ":"))
        if len(value) > EXTRA_CHARS:
            value = value[:EXTRA_CHARS - 3] + "..."
        out.append(f"{key}: {value}")
    return ["also: " + "; ".join(out)] if out else []


def _legal(view: dict) -> list:
    legal = view.get("legal_actions") or []
    if not legal:
        return []
    shown = ", ".join(legal[:LEGAL_SHOWN])
    more = len(legal) - LEGAL_SHOWN
    return ["legal: " + shown + (f" (and {more} more)" if more > 0 else "")]
