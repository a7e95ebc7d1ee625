"""Shared helpers for the Big Two tests (tests/test_big_two_*.py).

Everything here is written from the rules as seeds/big_two.md states them, not from the engine:

* card notation, the rank order 3 .. A 2 and the suit order D < C < H < S (B2-DEAL-2/3),
* ``deal_seats`` / ``stack``: the deal of B2-DEAL-5/6/7 (one card at a time, starting with the dealer's
  next seat in the direction of play, counterclockwise by default; with 3 players the 52nd card goes to
  the holder of 3D, or of 3C when it is the 3D itself) and a full deck, top card first, giving chosen hands,
* ``classify`` / ``beats`` / ``all_plays``: an independent oracle of what a play is and what beats what
  (B2-PLAY-*, with the variants' options), used to derive expected legal lists,
* small game utilities (``act``, ``legal``, ``play_sets``, ``lead_out``).
"""

from __future__ import annotations

from itertools import combinations, product
from typing import Optional, Sequence

import rulesdsl
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]     # low -> high
SUITS = ["D", "C", "H", "S"]                                                     # low -> high
ALL_CARDS = [r + s for r in RANKS for s in SUITS]                                # 52, weakest first
VARIANTS = ["big_two_pass_locks_out", "big_two_winner_leads", "big_two_flat_penalty", "big_two_bombs",
            "big_two_no_twos_in_straights"]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def strength(card: str) -> tuple:
    """A single card's strength: rank first, then suit (B2-DEAL-4)."""
    return (RANKS.index(rank(card)), SUITS.index(suit(card)))


# --------------------------------------------------------------------------------------------------
# The oracle (B2-PLAY-*)
# --------------------------------------------------------------------------------------------------

TIER = {"single": 0, "pair": 1, "triple": 2, "straight": 3, "flush": 4, "full_house": 5, "four_of_a_kind": 6,
        "straight_flush": 7}


def _consecutive(cards: Sequence[str], twos_in_straights: bool) -> bool:
    """Five ranks in a row of 3 4 5 ... A 2 with no wrap (B2-PLAY-8); without twos the 2 never counts."""
    idx = sorted(RANKS.index(rank(c)) for c in cards)
    if not twos_in_straights and RANKS.index("2") in idx:
        return False
    return len(set(idx)) == 5 and idx[-1] - idx[0] == 4


def _top(cards: Sequence[str]) -> str:
    return max(cards, key=strength)


def classify(cards: Sequence[str], twos_in_straights: bool = True) -> Optional[tuple]:
    """(kind, key) of a play, or None when the cards are no play.  Keys compare plays of one kind."""
    cards = list(cards)
    n = len(cards)
    ranks = [rank(c) for c in cards]
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if n in (1, 2, 3):
        if len(set(ranks)) != 1:
            return None
        kind = {1: "single", 2: "pair", 3: "triple"}[n]
        return kind, strength(_top(cards))
    if n != 5:
        return None
    one_suit = len({suit(c) for c in cards}) == 1
    run = _consecutive(cards, twos_in_straights)
    top = strength(_top(cards))                       # rank of the top card, then its suit
    if run and one_suit:
        return "straight_flush", top
    if counts == [4, 1]:
        quad = next(r for r in ranks if ranks.count(r) == 4)
        return "four_of_a_kind", (RANKS.index(quad),)
    if counts == [3, 2]:
        trip = next(r for r in ranks if ranks.count(r) == 3)
        return "full_house", (RANKS.index(trip),)
    if one_suit:
        return "flush", top                           # as the ruleset compares flushes: top card only
    if run:
        return "straight", top
    return None


def beats(play: tuple, last: Optional[tuple], size_play: int, size_last: int, bombs: bool = False,
          last_cards: Sequence[str] = ()) -> bool:
    """Does ``play`` (kind, key) beat ``last``?  A lead (last None) is anything."""
    if last is None:
        return True
    if bombs and last[0] == "single" and rank(last_cards[0]) == "2" and play[0] in ("four_of_a_kind",
                                                                                   "straight_flush"):
        return True
    if size_play != size_last:
        return False
    if TIER[play[0]] != TIER[last[0]]:
        return TIER[play[0]] > TIER[last[0]]
    return play[1] > last[1]


def all_plays_brute(hand: Sequence[str], twos_in_straights: bool = True) -> dict:
    """Every play the hand holds, by trying every 1, 2, 3 and 5 cards: frozenset of cards -> (kind, key)."""
    out = {}
    for k in (1, 2, 3, 5):
        for combo in combinations(sorted(hand, key=strength), k):
            c = classify(combo, twos_in_straights)
            if c is not None:
                out[frozenset(combo)] = c
    return out


def all_plays(hand: Sequence[str], twos_in_straights: bool = True) -> dict:
    """The same as ``all_plays_brute``, faster: five-card candidates are built from the hand's suits (five of
    one suit), rank windows (five ranks in a row) and rank groups (3 + 2, 4 + 1), then classified by
    ``classify``.  (``all_plays_brute`` checks this on random hands.)"""
    by_rank: dict = {}
    by_suit: dict = {}
    for c in sorted(hand, key=strength):
        by_rank.setdefault(rank(c), []).append(c)
        by_suit.setdefault(suit(c), []).append(c)
    cands = []
    for cards in by_rank.values():
        for k in (1, 2, 3):
            cands.extend(combinations(cards, k))
    for cards in by_suit.values():
        cands.extend(combinations(cards, 5))
    for lo in range(len(RANKS) - 4):
        window = RANKS[lo:lo + 5]
        if all(r in by_rank for r in window):
            cands.extend(product(*(by_rank[r] for r in window)))
    for r3, c3 in by_rank.items():
        for r2, c2 in by_rank.items():
            if r2 == r3:
                continue
            if len(c3) >= 3 and len(c2) >= 2:
                cands.extend(t + p for t in combinations(c3, 3) for p in combinations(c2, 2))
            if len(c3) == 4:
                cands.extend(tuple(c3) + (x,) for x in c2)
    out = {}
    for combo in cands:
        c = classify(combo, twos_in_straights)
        if c is not None:
            out[frozenset(combo)] = c
    return out


def expected_plays(hand: Sequence[str], last_cards: Sequence[str] = (), *, must_include: Optional[str] = None,
                   bombs: bool = False, twos_in_straights: bool = True) -> set:
    """The plays (as frozensets) a hand may make on ``last_cards`` (empty: a lead)."""
    last = classify(last_cards, twos_in_straights) if last_cards else None
    out = set()
    for cards, c in all_plays(hand, twos_in_straights).items():
        if must_include is not None and must_include not in cards:
            continue
        if beats(c, last, len(cards), len(last_cards), bombs, last_cards):
            out.add(cards)
    return out


# --------------------------------------------------------------------------------------------------
# Deal (B2-DEAL-5/6/7/9) and stacked decks
# --------------------------------------------------------------------------------------------------


def next_seat(seat: int, n: int, direction: str = "counterclockwise") -> int:
    return (seat + (-1 if direction == "counterclockwise" else 1)) % n


def deal_seats(n: int, dealer: int, direction: str = "counterclockwise") -> list:
    """Dealing order: the dealer's next seat in the direction of play first, the dealer last."""
    out = [next_seat(dealer, n, direction)]
    while len(out) < n:
        out.append(next_seat(out[-1], n, direction))
    return out


def hand_size(n: int) -> int:
    return 17 if n == 3 else 13


def stack(hands: dict, n: int = 4, dealer: int = 0, extra: Optional[str] = None,
          direction: str = "counterclockwise") -> list:
    """A full deck, top card first, such that the deal gives each seat of ``hands`` those cards (among its
    13, or with 3 players among its first 17); other cards fill the hands round the table, weakest first.
    With 3 players ``extra`` is the 52nd card (default: the strongest card left over)."""
    size = hand_size(n)
    seats = deal_seats(n, dealer, direction)
    given = {s: list(hands.get(s, [])) for s in range(n)}
    used = [c for h in given.values() for c in h] + ([extra] if extra else [])
    assert len(used) == len(set(used)), f"a card is given twice: {used}"
    assert all(c in ALL_CARDS for c in used), used
    pool = [c for c in ALL_CARDS if c not in used]
    if n == 3 and extra is None:
        extra = pool.pop()
    for s in range(n):
        assert len(given[s]) <= size, (s, given[s])
    while any(len(given[s]) < size for s in seats):
        for s in seats:
            if len(given[s]) < size:
                given[s].append(pool.pop(0))
    deck = [given[s][i] for i in range(size) for s in seats]
    if n == 3:
        deck.append(extra)
    assert sorted(deck) == sorted(ALL_CARDS)
    return deck


_RULES: dict = {}


def rules(name: str = "big_two", overrides: Optional[dict] = None):
    key = (name, tuple(sorted((overrides or {}).items())))
    if key not in _RULES:
        path = name if name == "big_two" else "variants/" + name
        _RULES[key] = rulesdsl.load(path, overrides=dict(overrides) if overrides else None)
    return _RULES[key]


def new_game(hands: dict, n: int = 4, dealer: int = 0, name: str = "big_two", overrides=None, extra=None,
             seed: int = 0):
    """A match whose first deal is stacked: ``hands`` maps seats to (some of) their cards."""
    r = rules(name, overrides)
    direction = r.params["direction"]
    deck = stack(hands, n=n, dealer=dealer, extra=extra, direction=direction)
    g = r.new_game(seed=seed, dealer=dealer, players=n, deck=deck)
    for s, h in hands.items():
        assert set(h) <= set(g.hand_of(s)), (s, h, g.hand_of(s))
    return g


# --------------------------------------------------------------------------------------------------
# Game utilities
# --------------------------------------------------------------------------------------------------


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def play_sets(game) -> set:
    """The plays the engine lists now, as frozensets of cards."""
    return {frozenset(a.split()[1:]) for a in legal(game) if a.startswith("play ")}


def trick(game) -> dict:
    return game.view(0)["trick"]


def passes(game, k: int) -> None:
    for _ in range(k):
        game.apply("pass")


def lead_out(game, seat: int) -> None:
    """``seat`` leads its cards one single at a time (weakest first) while everybody else passes, until
    the hand ends.  Starts with ``seat`` on lead."""
    start = game.hand_number
    while game.hand_number == start and not game.is_over:
        assert game.current_player == seat and not trick(game)["last_play"], (seat, game.current_player)
        singles = [a for a in legal(game) if a.startswith("play ") and len(a.split()) == 2]
        game.apply(min(singles, key=lambda a: strength(a.split()[1])) if singles else legal(game)[0])
        while game.hand_number == start and not game.is_over and game.current_player != seat:
            game.apply("pass")


def penalty(cards_left: int, double_at: int = 10, triple_at: int = 13) -> int:
    """B2-SCORE-2..4: one point a card; twice that from ``double_at`` cards, three times from ``triple_at``
    (0: never)."""
    if triple_at and cards_left >= triple_at:
        return 3 * cards_left
    if double_at and cards_left >= double_at:
        return 2 * cards_left
    return cards_left
