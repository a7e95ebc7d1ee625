"""Trick play's pieces of the observation tensor (``encoding.observation``):

* ``tricks.plays`` (n, K): the cards played to the trick in play, by seat;
* ``tricks.leader`` (n,): who led it;
* ``tricks.led`` and ``tricks.trump`` (suits + 1): the led suit and the trump suit (the last slot for
  a suit the deck does not name);
* ``tricks.won`` (n,), ``tricks.number`` (1,): tricks taken by each seat, the trick's number;
* ``tricks.broken`` (one per name under ``broken:``): whether each has been broken.
"""

from __future__ import annotations


def layout(prog, out) -> tuple:
    """Add the pieces to ``out`` (an ``encoding.observation`` layout); returns what ``fill`` needs."""
    broken = tuple(name for name, _ in prog.tricks.broken)
    n = out.n
    out.cards("tricks.plays", (n, out.k))
    out.flags("tricks.leader", (n,))
    out.flags("tricks.led", (len(prog.cards.suits) + 1,))
    out.flags("tricks.trump", (len(prog.cards.suits) + 1,))
    out.cards("tricks.won", (n,))
    out.cards("tricks.number", (1,))
    if broken:
        out.flags("tricks.broken", (len(broken),))
    return broken


def fill(broken: tuple, spec, v: dict, view: dict, seat: int, count) -> None:
    """The trick in play (one card per seat so far), who led, the led suit and trumps, tricks won."""
    trick = view.get("trick") or {}
    n = spec.n
    for play in trick.get("plays", ()):
        count(spec, v["tricks.plays"][(play["seat"] - seat) % n], (play["card"],))
    if trick.get("leader") is not None:
        v["tricks.leader"][(trick["leader"] - seat) % n] = 1
    for key in ("led", "trump"):
        suit = trick.get(key)
        if suit is not None:
            v[f"tricks.{key}"][spec.suits.index(suit) if suit in spec.suits else len(spec.suits)] = 1
    for s, won in enumerate(trick.get("tricks_won", ())):
        v["tricks.won"][(s - seat) % n] = won
    v["tricks.number"][0] = trick.get("number", 0)
    if broken:
        flags = trick.get("broken") or {}
        for i, name in enumerate(broken):
            v["tricks.broken"][i] = 1.0 if flags.get(name) else 0.0
