"""Who sees which card: the one place that reads the ruleset's ``visible:`` declarations.

``Game.view`` (what a seat is shown) and ``determinize`` (what a seat knows) both ask here, so the two
cannot disagree: a card ``view(seat)`` shows is a card the seat knows, and every other card is one a
determinization may deal again.

A zone declares ``visible: all | top | owner | team | none``.  On top of that, a hand laid face up
(``revealed``, at a going out) is seen by everyone, a card lying face down in a face-up zone
(``face_down``) by no one, and the melds on the table by everyone.
"""

from __future__ import annotations

from typing import Iterator


def table_zone_shows(g, zone: str) -> str:
    """What a table zone shows everyone: ``all`` of its cards, its ``top`` card, or ``none``."""
    vis = g.prog.model.zones[zone].visible
    return vis if vis in ("all", "top") else "none"


def player_zone_shown(g, zone: str, owner: int, seat: int) -> bool:
    """Whether ``seat`` sees the cards of ``owner``'s ``zone``."""
    vis = g.prog.model.zones[zone].visible
    if owner in g.unlooked and zone == "hand":     # not yet looked at (a blind bid is still open to it)
        return False
    return (vis == "all" or (vis == "owner" and owner == seat) or (zone == "hand" and g.revealed[owner])
            or (vis == "team" and g.team_of(owner) == g.team_of(seat)))        # the owner and its partners


def team_zone_shown(g, zone: str, team: int, seat: int) -> bool:
    """Whether ``seat`` sees the cards of ``team``'s ``zone``."""
    vis = g.prog.model.zones[zone].visible
    return vis == "all" or (vis in ("team", "owner") and team == g.team_of(seat))


def containers(g) -> Iterator[tuple]:
    """Every place cards lie, as ``(key, cards)``: table zones, each seat's and team's zones, the melds.
    Keys are hashable and stable within a hand (``("table", zone)``, ``("seat", zone, s)``,
    ``("team", zone, t)``, ``("melds", i)``)."""
    for z, cards in g.zones.items():
        yield ("table", z), cards
    for z, per in g.pzones.items():
        for s, cards in enumerate(per):
            yield ("seat", z, s), cards
    for z, per in g.tzones.items():
        for t, cards in enumerate(per):
            yield ("team", z, t), cards
    for i, m in enumerate(g.table_melds):
        yield ("melds", i), m
    for i, m in enumerate(g.melds):
        yield ("tmelds", i), m.cards


def shown_slots(g, key: tuple, cards, seat: int) -> range:
    """The positions of ``cards`` (the container ``key``) that ``seat`` sees now, face-down cards aside
    (the caller skips those)."""
    kind = key[0]
    if kind in ("melds", "tmelds"):
        return range(len(cards))
    if kind == "table":
        shows = table_zone_shows(g, key[1])
        if shows == "all":
            return range(len(cards))
        return range(len(cards) - 1, len(cards)) if shows == "top" and cards else range(0)
    if kind == "seat":
        return range(len(cards)) if player_zone_shown(g, key[1], key[2], seat) else range(0)
    return range(len(cards)) if team_zone_shown(g, key[1], key[2], seat) else range(0)


def seen_by(g, seat: int) -> set:
    """The cards ``seat`` sees right now (where they lie is in its ``view``)."""
    down = g.face_down
    seen = set()
    for key, cards in containers(g):
        for i in shown_slots(g, key, cards, seat):
            c = cards[i]
            if c not in down:
                seen.add(c)
    return seen
