"""Shared helpers for the Crazy Eights tests (tests/test_crazy_eights_*.py).

Everything here is written from the rules as seeds/crazy_eights.md states them, not from the engine:

* cards, card values (C8-SCORE-1) and deal sizes (C8-DEAL-3),
* ``stack``: a full deck, top card first, that deals chosen hands (one card at a time, from the dealer's
  left), then turns up a chosen starter and leaves a chosen stock top,
* ``legal_oracle``: what the player on turn may do (C8-PLAY-*, C8-TURN-*, the variants), from the hand, the
  top card, the suit in force, the cards owed, the cards drawn this turn and the stock count,
* ``hand_points``: the score of an ended hand (C8-SCORE-*),
* ``RefHand``: an independent reference model of one hand (turns, draws, passes, skips, owed cards, the
  end), for the property tests.

Seats are A, B, C, ... = 0, 1, 2, ...  Turn order is clockwise: the seat after s is s + 1 (mod n).
"""

from __future__ import annotations

from typing import Optional, Sequence

import rulesdsl
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]
ALL_CARDS = [r + s for s in SUITS for r in RANKS]
A, B, C, D, E, F, G = range(7)

BASE = "crazy_eights"
VARIANTS = {
    "base": BASE,
    "draw_three": "variants/crazy_eights_draw_three",
    "draw_one": "variants/crazy_eights_draw_one",
    "eights_on_match": "variants/crazy_eights_eights_on_match",
    "twos_and_queens": "variants/crazy_eights_twos_and_queens",
}

# The parameters each shipped file is meant to set (everything else at the base default).
DEFAULTS = {"draw_limit": 0, "draw_when_able": True, "eights": "anywhere", "twos_draw_two": False,
            "queens_skip": False, "target_score": 100}
VARIANT_PARAMS = {
    "base": {},
    "draw_three": {"draw_limit": 3},
    "draw_one": {"draw_limit": 1, "draw_when_able": False},
    "eights_on_match": {"eights": "on_match"},
    "twos_and_queens": {"twos_draw_two": True, "queens_skip": True},
}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def value(card: str) -> int:
    """C8-SCORE-1: 8 = 50; J, Q, K = 10; A = 1; the others their pip value (10 = 10)."""
    r = rank(card)
    if r == "8":
        return 50
    if r in ("J", "Q", "K"):
        return 10
    if r == "A":
        return 1
    return int(r)


def hand_value(cards: Sequence[str]) -> int:
    return sum(value(c) for c in cards)


def hand_size(n: int) -> int:
    """C8-DEAL-3: 7 cards each with 2 players, 5 with 3 to 7."""
    return 7 if n == 2 else 5


def dealing_order(n: int, dealer: int) -> list:
    return [(dealer + 1 + i) % n for i in range(n)]


_RULES: dict = {}


def rules(variant: str = "base", overrides: Optional[dict] = None):
    key = (variant, tuple(sorted((overrides or {}).items())))
    if key not in _RULES:
        _RULES[key] = rulesdsl.load(VARIANTS.get(variant, variant), overrides=dict(overrides or {}) or None)
    return _RULES[key]


def stack(hands: dict, n: int, dealer: int, after: Sequence[str] = (), fill: Optional[Sequence[str]] = None) -> list:
    """A full deck, top card first.  The deal gives each seat of ``hands`` exactly those cards (a hand not
    given, or given short, is completed from the unused cards: ``fill`` first, in that order, then the rest in
    ``ALL_CARDS`` order); ``after`` are the cards that follow the deal, in order: ``after[0]`` is turned up
    as the starter, ``after[1]`` is the top of the stock, and so on.  The unused cards follow."""
    size = hand_size(n)
    seats = dealing_order(n, dealer)
    given = {s: list(hands.get(s, [])) for s in range(n)}
    used = [c for h in given.values() for c in h] + list(after)
    assert len(used) == len(set(used)), f"a card is used twice: {used}"
    assert set(used) <= set(ALL_CARDS), used
    pool = [c for c in ALL_CARDS if c not in used]
    if fill is not None:
        pool = [c for c in fill if c in pool] + [c for c in pool if c not in fill]
    for s in seats:
        assert len(given[s]) <= size, f"seat {s} gets {size} cards, not {len(given[s])}"
        while len(given[s]) < size:
            given[s].append(pool.pop(0))
    out = []
    for i in range(size * n):
        out.append(given[seats[i % n]][i // n])
    out += list(after) + pool
    assert sorted(out) == sorted(ALL_CARDS)
    return out


def new_game(hands: dict, n: int = 2, dealer: Optional[int] = None, after: Sequence[str] = (),
             variant: str = "base", overrides: Optional[dict] = None, seed: int = 0, fill=None):
    """A match whose first hand is stacked.  The dealer defaults to the last seat, so seat A plays first."""
    dealer = n - 1 if dealer is None else dealer
    deck = stack(hands, n, dealer, after, fill)
    g = rules(variant, overrides).new_game(seed=seed, dealer=dealer, players=n, deck=deck)
    size = hand_size(n)
    seats = dealing_order(n, dealer)
    for k, s in enumerate(seats):                    # the stacking helper deals what it says
        assert sorted(g.hand_of(s)) == sorted(deck[k:size * n:n]), (s, g.hand_of(s))
        assert set(hands.get(s, [])) <= set(g.hand_of(s))
    rest = deck[size * n:]
    starter = next(c for c in rest if rank(c) != "8")    # C8-DEAL-6: eights are buried, the order kept
    assert top(g) == starter, (top(g), starter)
    assert stock_count(g) == 52 - size * n - 1
    return g


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def top(game) -> str:
    return game.view(0)["zones"]["discard"]["top"]


def stock_count(game) -> int:
    return game.view(0)["zones"]["stock"]["count"]


def eight_plays(card: str) -> list:
    """C8-PLAY-3: an 8 is played naming one of the four suits."""
    return [f"play {card} name {s}" for s in SUITS]


def matches(card: str, top_rank: str, in_force: str, p: dict) -> bool:
    """C8-PLAY-1/2/4, C8-VAR-5: may ``card`` go on a top card of rank ``top_rank`` with suit ``in_force``
    (the named suit after an 8)?"""
    if suit(card) == in_force or rank(card) == top_rank:
        return True
    return rank(card) == "8" and p["eights"] == "anywhere"


def legal_oracle(hand: Sequence[str], top_rank: str, in_force: str, p: dict, owed: int = 0, drawn: int = 0,
                 stock: int = 1) -> set:
    """Every action text the player on turn may take (C8-TURN-*, C8-PLAY-*, variants)."""
    out = set()
    if owed > 0:                                          # C8-VAR-7/8: answer with a 2, or draw the debt
        for c in hand:
            if rank(c) == "2":
                out.add(f"play {c}")
        out.add("draw stock")
        return out
    for c in hand:
        if matches(c, top_rank, in_force, p):
            if rank(c) == "8":
                out.update(eight_plays(c))
            else:
                out.add(f"play {c}")
    can_play = bool(out)
    limit = p["draw_limit"]
    if stock > 0 and (limit == 0 or drawn < limit) and (p["draw_when_able"] or not can_play):
        out.add("draw stock")
    if not can_play and (stock == 0 or (limit > 0 and drawn >= limit)):
        out.add("pass")
    return out


def hand_points(hands: dict, ending: str) -> dict:
    """C8-SCORE-2..5: points per seat for an ended hand (``hands``: the cards left per seat)."""
    seats = sorted(hands)
    vals = {s: hand_value(hands[s]) for s in seats}
    pts = {s: 0 for s in seats}
    if ending == "out":
        out = [s for s in seats if not hands[s]]
        assert len(out) == 1, hands
        pts[out[0]] = sum(vals.values())
        return pts
    low = min(vals.values())
    lows = [s for s in seats if vals[s] == low]
    if len(lows) == 1:
        pts[lows[0]] = sum(v - low for v in vals.values())
    return pts


class RefHand:
    """One hand of Crazy Eights as seeds/crazy_eights.md states the ruleset, followed action by action.

    It is given the dealt hands, the starter, the stock count and the dealer; cards drawn are unknown to it
    until the caller reports them (``drawn_cards``), since the stock's order is hidden."""

    def __init__(self, p: dict, n: int, dealer: int, hands: dict, starter: str, stock: int):
        self.p = p
        self.n = n
        self.hands = {s: list(h) for s, h in hands.items()}
        self.top_rank, self.in_force = rank(starter), suit(starter)
        self.top_card = starter
        self.named: Optional[str] = None
        self.stock = stock
        self.owed = 0
        self.drawn = 0
        self.passes: set = set()
        self.actor = (dealer + 1) % n                   # C8-TURN-1
        self.ending: Optional[str] = None

    def legal(self) -> set:
        return legal_oracle(self.hands[self.actor], self.top_rank, self.in_force, self.p, self.owed,
                            self.drawn, self.stock)

    def _next(self, steps: int = 1) -> None:
        self.actor = (self.actor + steps) % self.n
        self.drawn = 0

    def apply(self, action: str, drawn_cards: Sequence[str] = ()) -> None:
        assert action in self.legal(), (action, sorted(self.legal()))
        me = self.actor
        words = action.split()
        if words[0] == "draw":
            self.passes = set()
            if self.owed:
                k = min(self.owed, self.stock)
                assert len(drawn_cards) == k
                self.hands[me] += list(drawn_cards)
                self.stock -= k
                self.owed = 0
                self._next()
            else:
                assert len(drawn_cards) == 1
                self.hands[me] += list(drawn_cards)
                self.stock -= 1
                self.drawn += 1
            return
        if words[0] == "pass":
            self.passes.add(me)
            if len(self.passes) == self.n:              # C8-END-3: everyone holding cards passed in a row
                self.ending = "blocked"
                return
            self._next()
            return
        card = words[1]
        self.hands[me].remove(card)
        self.top_card = card
        self.top_rank = rank(card)
        self.in_force = words[3] if len(words) == 4 else suit(card)
        self.passes = set()
        if self.p["twos_draw_two"] and rank(card) == "2":
            self.owed += 2
        else:
            self.owed = 0
        if not self.hands[me]:                          # C8-END-1
            self.ending = "out"
            return
        skip = self.p["queens_skip"] and rank(card) == "Q"
        self._next(2 if skip else 1)
