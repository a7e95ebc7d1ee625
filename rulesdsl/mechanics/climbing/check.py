"""Load checks of ``climbing:``: its zones exist, its ranks and suits are the deck's, and a player can
always lead (a lead is never passed, so some single card must be a play)."""

from __future__ import annotations

from typing import Optional

from ...check.semantic import calls, check_pattern, check_zone, copies_min, quiet_value, whole
from ...errors import Diagnostics, suggest


def check(m, c, d: Diagnostics) -> None:
    _zones(m, c, d)
    for s_ in (c.suit_order or ()):
        if s_ not in m.deck.suits:
            d.error("E-UNKNOWN-SUIT", f"`climbing.suit_order` names `{s_}`, which is not a suit of the deck",
                    c.pos, suggest(s_, list(m.deck.suits)) or "suits: " + " ".join(m.deck.suits))
    if c.plays:
        _plays(m, c, d)
    else:
        _sizes(m, c, d)
    for r in c.order or ():
        if r != "joker" and r not in m.deck.ranks:
            d.error("E-UNKNOWN-RANK", f"`climbing.order` names `{r}`, which is not a rank of the deck",
                    c.pos, suggest(r, list(m.deck.ranks) + ["joker"]))
    _roles(m, d)


def _zones(m, c, d: Diagnostics) -> None:
    """The zones plays come from and go to; ``draw_from`` where draws are owed or offered."""
    check_zone(m, d, c.play_from, "player", "`climbing.play_from`", c.pos)
    check_zone(m, d, c.to, "table", "`climbing.to`", c.pos)
    if c.all_passed == "new_trick" or c.clears_trick is not None:
        check_zone(m, d, c.cleared_to, "table", "`climbing.cleared_to`", c.pos)
    if c.draw_from is not None:
        check_zone(m, d, c.draw_from, "table", "`climbing.draw_from`", c.pos)
    elif c.next_draws is not None:
        d.error("E-MISSING", "`climbing.next_draws` needs `draw_from`: the zone owed cards are drawn from",
                c.next_draws.pos, "draw_from: stock")
    if c.draw_when is not None and c.draw_from is None:
        d.error("E-IGNORED", "`climbing.draw_when` has no effect without `draw_from`", c.draw_when.pos)


def _sizes(m, c, d: Diagnostics) -> None:
    """``sizes`` (plays of one rank): [1, most], the most no more than the deck holds of a rank."""
    if len(c.sizes) != 2 or c.sizes[0] > c.sizes[1]:
        d.error("E-RANGE", "`climbing.sizes` is [min, max] with min <= max", c.pos)
    elif c.sizes[0] != 1:
        d.error("E-CLIMB-SIZES", f"`climbing.sizes` starts at {c.sizes[0]}: a player holding no {c.sizes[0]} "
                "cards of one rank could never lead, and a lead is never passed", c.pos,
                f"allow single cards: `sizes: [1, {c.sizes[1]}]`")
    else:
        most = _most_of_a_rank(m)
        if most is not None and c.sizes[1] > most:
            d.error("E-CLIMB-SIZES", f"`climbing.sizes` allows plays of {c.sizes[1]} cards of one rank, but the "
                    f"deck never holds more than {most}", c.pos, f"write `sizes: [1, {most}]`")


def _plays(m, c, d: Diagnostics) -> None:
    """``climbing.plays``: each pattern sound, and any single card a play (a lead is never passed)."""
    copies = copies_min(m)
    for name, p in c.plays.items():
        check_pattern(m, d, f"play `{name}`", p, copies)
        if p.when is not None:
            d.error("E-UNSUPPORTED", f"play `{name}`: `when` applies to group melds on the table, not to plays",
                    p.pos, f"say it in `beats` (or `pass_when`): `play.kind != \"{name}\" or ...`")
    single = any(p.min == 1 and not p.ranks and p.kind in ("set", "group", "flush", "run") for p in c.plays.values())
    if not single:
        first = next(iter(c.plays.values()))
        d.error("E-CLIMB-SIZES", "no pattern under `climbing.plays` takes any single card: a player holding "
                "no other combination could never lead, and a lead is never passed", first.pos,
                "add `single: {kind: set, min: 1, max: 1}`")


def _roles(m, d: Diagnostics) -> None:
    """``roles`` name the finishing positions climbing ranks players by: one list per player count,
    one row per position."""
    if not m.roles:
        for ex in calls(m, "role", "role_points"):
            d.error("E-ROLES", "`role(...)` and `role_points(...)` read `roles`, which this ruleset does not "
                    "declare", ex.pos, "add `roles:` (one [role, points] per finishing position, by player "
                    "count), or score by `position(player)`")
        return
    for n in range(m.players.min, m.players.max + 1):
        rows = m.roles.get(n)
        if rows is None:
            d.error("E-ROLES", f"`roles` has no list for {n} players", m.at("roles"),
                    "give one [role, points] per finishing position for every allowed player count")
        elif len(rows) != n:
            d.error("E-ROLES", f"`roles` for {n} players lists {len(rows)} positions", m.at("roles"))


def _most_of_a_rank(m) -> Optional[int]:
    """The most cards of one rank the deck holds with any allowed player count (jokers are a rank)."""
    best = None
    for n in range(m.players.min, m.players.max + 1):
        known_c, copies = quiet_value(m.deck.copies, m.param_values(), n)
        known_j, jokers = quiet_value(m.deck.jokers, m.param_values(), n)
        if not (known_c and known_j and whole(copies) and whole(jokers)):
            return None
        most = copies * max(len(m.deck.suits), jokers)
        best = most if best is None else max(best, most)
    return best
