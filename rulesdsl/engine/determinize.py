"""``Game.determinize(seat, rng)``: a copy in which every card hidden from ``seat`` is dealt again.

A search bot cannot look at the other hands or the order of the stock; it samples a world that
agrees with everything its seat has seen and searches that.  The copy:

* keeps every card the seat sees, and every card it remembers in its exact slot (``knowledge``);
* fills the other slots (the stock, the hidden part of other hands and packets) with the other cards,
  at random, each card only into a place it may be in: a card an opponent took from the discard pile
  stays in that opponent's hand; a card never seen may be anywhere hidden; a stock made of known cards
  after a reshuffle keeps those cards, in a new order;
* keeps the zone sizes, so the seat's own ``view`` is unchanged;
* draws its future chance (the next shuffle) from ``rng``, not from the game's own generator;
* leaves the player on turn a legal action: a deal that would not (the rest of a contract a player
  began to lay down is not in the hand dealt) is dealt again, up to ``MAX_DEALS`` times.

Dealing again is done by renaming card ids: the card that lay in a slot is replaced everywhere it is
named (zones, the card just drawn, cards that must be melded, marks...) by the card dealt into that
slot, so the state stays consistent however the ruleset refers to cards.  The attributes that hold
card ids are declared in ``engine.state``.

Sampling is uniform when every hidden card may be anywhere hidden (the common case); with cards known
to be in one of several places, cards are placed most constrained first, each into a place chosen in
proportion to its free slots among those that leave the rest placeable.
"""

from __future__ import annotations

import random
from collections import defaultdict
from ..errors import RulesdslError
from . import state
from .knowledge import locate, tracker_for
from .visibility import seen_by
from .zones import Cards


def determinize(game, seat: int, rng: random.Random):
    if not (type(seat) is int and 0 <= seat < game.n):
        raise ValueError(f"seat must be a whole number from 0 to {game.n - 1}")
    if game.determinized_for is not None and game.determinized_for != seat:
        raise ValueError(f"this game was determinized for seat {game.determinized_for}; it can be determinized "
                         f"again only for that seat (determinize the game itself for seat {seat})")
    slots, classes = _plan(game, seat)
    for _ in range(MAX_DEALS):
        copy = _dealt_copy(game, slots, classes, rng)
        copy.determinized_for = seat
        if copy.is_over or _plays_on(copy):
            return copy
    return copy


#: deals tried for a world in which the player on turn can act (see ``_plays_on``)
MAX_DEALS = 200


def _dealt_copy(game, slots: dict, classes: dict, rng: random.Random):
    """One copy of ``game`` with the free slots dealt again from ``rng``."""
    dealt = _deal(classes, {k: len(v) for k, v in slots.items()}, rng)
    rename = {}
    for key, cards in dealt.items():
        for (pos, old), new in zip(slots[key], cards):
            if old != new:
                rename[old] = new
    copy = game.clone()
    _rename(copy, rename)
    copy._rng, copy._rng_shared = random.Random(rng.getrandbits(64)), False
    return copy


def _plays_on(copy) -> bool:
    """Whether the player on turn has a legal action in this world.  What a player began this turn
    tells the others something about the hidden hand (a player halfway through laying down a contract
    holds the rest of it): a deal that contradicts it would leave no legal action, so it is dealt
    again -- the worlds kept are those the real one could be."""
    try:
        return bool(copy.legal_actions())
    except RulesdslError:
        return False


def _plan(game, seat: int) -> tuple:
    """What there is to deal in this position: place -> its free slots ``[(position, card)]``, and
    the free cards grouped by the places each may be in.  A free slot is one the seat neither sees nor
    remembers, and whose card it does not know to be in that hand (a hand's order means nothing, and a
    known card keeps its identity wherever the state names it: "the card taken this turn").  A pile's
    known cards are dealt again among its free slots, since a pile's order is what a reshuffle hides.
    Made once per position and seat (a search determinizes the same position many times)."""
    know = tracker_for(game, seat)
    if know.plan_at == know.done:
        return know.plan
    where = locate(game)
    seen = seen_by(game, seat)
    slots: dict = defaultdict(list)
    places = know.places
    for c, spot in where.items():
        if c in seen or know.pinned.get(c) == spot:
            continue
        if spot[0][0] != "table" and places.get(c) == frozenset((spot[0],)):
            continue                    # known to be in this hand: a hand has no order to hide
        slots[spot[0]].append((spot[1], c))
    everywhere = frozenset(slots)
    classes: dict = defaultdict(list)
    for per in slots.values():
        for _, c in per:
            may = know.places.get(c)
            classes[everywhere if may is None else may & everywhere].append(c)
    for group in classes.values():
        group.sort()                    # the deal depends on what the seat knows, not on where cards are
    know.plan, know.plan_at = (dict(slots), dict(classes)), know.done
    return know.plan


def _deal(classes: dict, capacity: dict, rng: random.Random) -> dict:
    """place -> the cards dealt into it, in a random order: each card into a place it may be in,
    every place filled.  Cards known to be in one place go there; when the others may all be anywhere
    still free (the common case), one uniform deal places them."""
    out: dict = {k: [] for k in capacity}
    left = dict(capacity)
    rest = {}
    for may, group in classes.items():
        if len(may) == 1:
            (key,) = may
            out[key].extend(group)
            left[key] -= len(group)
        else:
            rest[may] = list(group)
    open_places = frozenset(k for k, n in left.items() if n)
    if len(rest) == 1 and next(iter(rest)) >= open_places:
        (group,) = rest.values()
        rng.shuffle(group)
        i = 0
        for key in capacity:
            n = left[key]
            out[key].extend(group[i:i + n])
            i += n
    elif rest:
        _deal_constrained(rest, left, out, rng)
    for cards in out.values():
        rng.shuffle(cards)
    return out


def _deal_constrained(todo: dict, left: dict, out: dict, rng: random.Random) -> None:
    """Cards with several possible places, of several kinds: the most constrained first, each into a
    place chosen in proportion to its free slots among those that leave the rest placeable."""
    for may in sorted(todo, key=lambda m: (len(m), sorted(map(repr, m)))):
        group = todo[may]
        rng.shuffle(group)
        while group:
            c = group.pop()
            options = [k for k in sorted(may, key=repr) if left[k] > 0]
            while options:
                key = _weighted(options, left, rng)
                left[key] -= 1
                if _placeable(todo, left):
                    out[key].append(c)
                    break
                left[key] += 1
                options.remove(key)
            else:
                raise AssertionError("no consistent deal: the seat's knowledge contradicts the game")


def _weighted(options: list, left: dict, rng: random.Random):
    r = rng.randrange(sum(left[k] for k in options))
    for k in options:
        r -= left[k]
        if r < 0:
            return k
    return options[-1]


def _placeable(todo: dict, left: dict) -> bool:
    """Whether the cards still to place fit the free slots left (a flow from the groups of cards,
    each holding so many, to the places they may go, each taking so many)."""
    need = {may: len(g) for may, g in todo.items() if g}
    if sum(need.values()) > sum(left.values()):
        return False
    flow: dict = defaultdict(int)               # (group, place) -> cards sent
    room = dict(left)
    for may, n in need.items():
        for _ in range(n):
            if not _augment(may, need, flow, room, set()):
                return False
    return True


def _augment(group, need, flow, room, visited) -> bool:
    """Send one more card of ``group`` to some place, moving other groups' cards along if needed."""
    for key in group:
        if key in visited:
            continue
        visited.add(key)
        if room[key] > 0:
            room[key] -= 1
            flow[group, key] += 1
            return True
        for other in need:                      # a place that is full: move one of its cards on
            if flow[other, key] > 0 and _augment(other, need, flow, room, visited):
                flow[other, key] -= 1
                flow[group, key] += 1
                return True
    return False


def _rename(g, rename: dict) -> None:
    """Replace each card ``old`` by ``rename[old]`` everywhere the state names a card, and drop what was
    derived from the old cards (a listing of moves names them)."""
    if not rename:
        return                  # the same cards where they were: what was derived from them still holds
    get = rename.get
    bit = g.prog.melds.bits
    for z, cards in g.zones.items():
        if any(c in rename for c in cards):
            g.zones[z] = Cards(bit, [get(c, c) for c in cards])
    for attr in ("pzones", "tzones"):
        for z, per in getattr(g, attr).items():
            for i, cards in enumerate(per):
                if any(c in rename for c in cards):
                    per[i] = Cards(bit, [get(c, c) for c in cards])
    for attr in state.CARD:
        c = getattr(g, attr, None)
        if c is not None:
            setattr(g, attr, get(c, c))
    for attr in state.CARDS:
        v = getattr(g, attr, None)
        if v is not None:
            setattr(g, attr, type(v)(get(c, c) for c in v))
    for attr in state.CARD_KEYED:
        v = getattr(g, attr, None)
        if v:
            setattr(g, attr, {name: {get(c, c): s for c, s in inner.items()} for name, inner in v.items()})
    for attr in state.CARD_VALUED:
        v = getattr(g, attr, None)
        if v:
            setattr(g, attr, {name: get(c, c) if type(c) is int else c for name, c in v.items()})
    _drop_derived(g)


def _drop_derived(g) -> None:
    for attr, empty in state.DERIVED.items():
        if attr in g.__dict__:
            setattr(g, attr, type(getattr(g, attr))() if empty == state.EMPTIED else empty)
