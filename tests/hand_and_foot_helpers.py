"""Shared helpers for the Hand and Foot acceptance tests (tests/test_hand_and_foot_*.py).

Everything here is written from the spec (shared/spec/hand_and_foot.md), not from the engine:

* card notation, classes and values (HF-DEAL-3, HF-SCORE-1),
* an independent meld / book checker (HF-MELD-1..6, HF-WILD-1/2) working on view texts (``2C=9S``),
* an independent deal scorer (HF-SCORE-2..7) working on the final position (melds, red threes, the cards
  held in hands and unpicked feet),
* ``stack``: the full 270-card deck, top card first, for the documented deal (HF-DEAL-5/7): 13 hand cards
  one at a time to each seat from the dealer's left, then 13 foot cards the same way, then the upcard, then
  the stock (its top first),
* small game utilities (``act``, ``legal``, ``snapshot``, ``assert_illegal``, ``meld``, ``lay``,
  ``build``, ``open_meld``, ``junk_turn``), and a seeded greedy-random bot for playouts.

Seats: 0 = North, 1 = East, 2 = South, 3 = West; team 0 = NS (seats 0, 2), team 1 = EW (seats 1, 3).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path
from typing import Iterable, Optional, Sequence

import pytest

import rulesdsl
from rulesdsl import IllegalAction

# --------------------------------------------------------------------------------------------------
# Cards (Overview, HF-DEAL-2/3, HF-SCORE-1)
# --------------------------------------------------------------------------------------------------

NATURAL_RANKS = ["4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
RANKS = ["2", "3"] + NATURAL_RANKS
SUITS = ["S", "H", "D", "C"]
JOKER = "Jk"
ONE_DECK = [r + s for r in RANKS for s in SUITS] + [JOKER, JOKER]          # 54 cards
FULL_DECK = ONE_DECK * 5                                                  # HF-DEAL-2: 270 cards
N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1
RED = {"H", "D"}


def natural_text(card: str) -> str:
    """The physical card of a view text: ``2C=9S`` -> ``2C``."""
    return card.split("=")[0]


def rank(card: str) -> str:
    """The rank of the physical card (``joker`` for a joker)."""
    c = natural_text(card)
    return "joker" if c == JOKER else c[:-1]


def is_wild(card: str) -> bool:
    return rank(card) in ("2", "joker")                    # HF-WILD-1


def is_red_three(card: str) -> bool:
    c = natural_text(card)
    return rank(c) == "3" and c[-1] in RED


def is_black_three(card: str) -> bool:
    c = natural_text(card)
    return rank(c) == "3" and c[-1] not in RED


def is_natural(card: str) -> bool:
    return rank(card) in NATURAL_RANKS                     # HF-DEAL-3: ranks 4 to A


def value(card: str) -> int:
    """HF-SCORE-1: Joker 50; 2 and A 20; K-8 10; 7-4 5; black 3 5 (a red three has no card value)."""
    r = rank(card)
    if r == "joker":
        return 50
    if r in ("2", "A"):
        return 20
    if r in ("K", "Q", "J", "10", "9", "8"):
        return 10
    if r in ("7", "6", "5", "4"):
        return 5
    if r == "3":
        return 0 if is_red_three(card) else 5
    raise ValueError(card)


def total(cards: Iterable[str]) -> int:
    return sum(value(c) for c in cards)


# --------------------------------------------------------------------------------------------------
# Independent meld / book checker (HF-MELD-1..6, HF-WILD-1/2)
# --------------------------------------------------------------------------------------------------


def meld_type(cards: Sequence[str]) -> Optional[str]:
    """"clean" / "dirty" / "wild" for a valid meld of 3-7 cards (view texts), else None.

    HF-MELD-1: one natural rank 4..A (wild cards standing for it), or 3-7 wild cards only; no threes.
    HF-MELD-2: with naturals and wilds mixed, naturals >= 2 * wilds.  HF-MELD-3: the types."""
    if not 3 <= len(cards) <= 7:
        return None
    if any(rank(c) == "3" for c in cards):
        return None
    wilds = [c for c in cards if is_wild(c)]
    nats = [c for c in cards if not is_wild(c)]
    if not nats:
        return "wild"
    if len({rank(c) for c in nats}) != 1:
        return None
    r = rank(nats[0])
    for w in wilds:                                      # a wild card declared for another rank is wrong
        if "=" in w and w.split("=")[1][:-1] != r:
            return None
    if len(nats) < 2 * len(wilds):
        return None
    return "clean" if not wilds else "dirty"


def meld_rank(cards: Sequence[str]) -> str:
    """The rank a meld holds open: its natural rank, or ``wild``."""
    nats = [rank(c) for c in cards if not is_wild(c)]
    return nats[0] if nats else "wild"


def book_type(cards: Sequence[str]) -> Optional[str]:
    """HF-MELD-4/5: a 7-card meld is a book, typed by its cards."""
    return meld_type(cards) if len(cards) == 7 else None


def team_books(melds: Sequence[dict], team: int) -> Counter:
    return Counter(book_type(m["cards"]) for m in melds if m["owner"] == team and len(m["cards"]) == 7)


# --------------------------------------------------------------------------------------------------
# Independent deal scorer (HF-SCORE-1..7, HF-THREE-2/5, Variants)
# --------------------------------------------------------------------------------------------------

BOOK_BONUS = {"clean": 500, "dirty": 300, "wild": 1500}


def team_score(melds: Sequence[dict], red_threes_on_table: int, held: Sequence[str], went_out: bool,
               melded: bool = True, red_three_unmelded: str = "plus", book_bonus=BOOK_BONUS,
               going_out_bonus: int = 100, red_three_value: int = 100) -> int:
    """One partnership's deal score from the final position.

    ``melds``: the partnership's melds (view dicts); ``red_threes_on_table``: its laid red threes;
    ``held``: every card in both partners' hands and in any unpicked foot; ``went_out``: a partner went out."""
    cards = sum(total(m["cards"]) for m in melds)                                      # HF-SCORE-2
    books = sum(book_bonus[book_type(m["cards"])] for m in melds if len(m["cards"]) == 7)   # HF-SCORE-3
    sign = -1 if (red_three_unmelded == "minus" and not melded) else 1
    threes = sign * red_three_value * red_threes_on_table                             # HF-SCORE-4
    threes -= red_three_value * sum(1 for c in held if is_red_three(c))
    out = going_out_bonus if went_out else 0                                          # HF-SCORE-5
    penalty = sum(value(c) for c in held if not is_red_three(c))                      # HF-SCORE-6
    return cards + books + threes + out - penalty                                     # HF-SCORE-7


# --------------------------------------------------------------------------------------------------
# Stacked decks (HF-DEAL-5/7/8)
# --------------------------------------------------------------------------------------------------


def deal_order(dealer: int) -> list:
    """HF-DEAL-5/9: cards go one at a time to each player, starting at the dealer's left."""
    return [(dealer + 1 + i) % 4 for i in range(4)]


#: filler for unspecified hands and feet: naturals only, at most one of each rank per 11 cards
FILL_ORDER = [r + s for s in SUITS for r in NATURAL_RANKS]


def stack(hands: Optional[dict] = None, feet: Optional[dict] = None, upcard: str = "KC",
          stock: Sequence[str] = (), dealer: int = 3, size: int = 13, bottom: Sequence[str] = ()) -> list:
    """The full 270-card deck, top card first, that deals ``hands`` / ``feet`` (seat -> cards), turns
    ``upcard`` and leaves ``stock`` (top first) on top of the stock.  Unspecified hand and foot cards are
    filled with naturals that form no meld and no pile take (at most one card of a rank per packet, as far as
    the deck allows); the rest of the stock follows in a fixed order with red threes and wild cards last,
    then ``bottom`` (the very last cards of the stock)."""
    hands = {s: list(c) for s, c in (hands or {}).items()}
    feet = {s: list(c) for s, c in (feet or {}).items()}
    pool = Counter(FULL_DECK)
    fixed = [c for cs in hands.values() for c in cs] + [c for cs in feet.values() for c in cs] + [upcard]
    fixed += list(stock) + list(bottom)
    need = Counter(fixed)
    for c, k in need.items():
        assert pool[c] >= k, f"stacked deck: {c} used {k} times, the deck has {pool[c]}"
    pool -= need

    def take_fill(n: int, avoid: Counter) -> list:
        """One natural of each rank not in ``avoid``, then black threes (two at most), then anything."""
        out: list = []
        for c in FILL_ORDER:
            if len(out) == n:
                break
            if pool[c] > 0 and avoid[rank(c)] == 0 and rank(c) not in {rank(x) for x in out}:
                out.append(c)
                pool[c] -= 1
        for c in ["3S", "3C"]:
            if len(out) < n and pool[c] > 0:
                out.append(c)
                pool[c] -= 1
        for c in FILL_ORDER * 5:
            if len(out) == n:
                break
            if pool[c] > 0:
                out.append(c)
                pool[c] -= 1
        assert len(out) == n
        return out

    for packets in (hands, feet):
        for s in range(4):
            got = packets.get(s, [])
            assert len(got) <= size, (s, got)
            if len(got) < size:
                avoid = Counter(rank(c) for c in got if is_natural(c))
                got = got + take_fill(size - len(got), avoid)
            packets[s] = got
    deck: list = []
    order = deal_order(dealer)
    for packets in (hands, feet):
        for i in range(size):
            for s in order:
                deck.append(packets[s][i])
    deck.append(upcard)
    deck += list(stock)
    rest = list(pool.elements())
    rest.sort(key=lambda c: (is_red_three(c), is_wild(c), rank(c) == "3", FULL_DECK.index(natural_text(c))))
    # interleave ranks so that the filler stock does not hand out runs of one rank
    by_rank: dict = {}
    for c in rest:
        by_rank.setdefault((is_red_three(c), is_wild(c), rank(c) == "3"), []).append(c)
    mixed: list = []
    for key in sorted(by_rank):
        group = by_rank[key]
        buckets: dict = {}
        for c in group:
            buckets.setdefault(rank(c), []).append(c)
        while any(buckets.values()):
            for r in sorted(buckets, key=lambda r: RANKS.index(r) if r in RANKS else 99):
                if buckets[r]:
                    mixed.append(buckets[r].pop(0))
    deck += mixed + list(bottom)
    assert len(deck) == 270 and Counter(deck) == Counter(FULL_DECK)
    return deck


# --------------------------------------------------------------------------------------------------
# Rules and games
# --------------------------------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[1]
VARIANTS = {
    "eleven_cards": {"hand_size": 11, "foot_size": 11},
    "wild_discard_blocks_pile": {"wild_discard_to_foot": "blocks_pile"},
    "wild_discard_forbidden": {"wild_discard_to_foot": "forbidden"},
    "wild_discard_penalty": {"wild_discard_to_foot": "penalty", "wild_discard_penalty": 100},
}
_RULES: dict = {}


def rules(overrides: Optional[dict] = None, variant: Optional[str] = None):
    key = (variant, tuple(sorted((overrides or {}).items())))
    if key not in _RULES:
        name = str(REPO / "rulesets" / "variants" / f"hand_and_foot_{variant}.yaml") if variant else "hand_and_foot"
        _RULES[key] = rulesdsl.load(name, overrides=dict(overrides or {}))
    return _RULES[key]


def deal(hands=None, feet=None, upcard="KC", stock=(), dealer=3, overrides=None, variant=None, seed=0,
         bottom=()):
    """A new match whose first deal is stacked (see ``stack``).  Default dealer West (3): North plays first."""
    size = 11 if variant == "eleven_cards" else (overrides or {}).get("hand_size", 13)
    deck = stack(hands, feet, upcard, stock, dealer, size=size, bottom=bottom)
    return rules(overrides, variant).new_game(seed=seed, dealer=dealer, deck=deck)


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def hand(game, seat: int) -> list:
    return sorted(game.view(seat)["zones"]["hand"][seat]["cards"])


def melds(game) -> list:
    return game.view(0)["melds"]


def red_threes(game, team: int) -> list:
    return game.view(0)["team_zones"]["red_threes"][team]["cards"]


def top(game) -> Optional[str]:
    return game.view(0)["zones"]["discard"].get("top")


def stock_count(game) -> int:
    return game.view(0)["zones"]["stock"]["count"]


def pile_count(game) -> int:
    return game.view(0)["zones"]["discard"]["count"]


def snapshot(game) -> dict:
    """Everything observable through the public API (for 'state unchanged' checks)."""
    return copy.deepcopy(dict(
        views=[game.view(s) for s in range(4)],
        history=list(game.history),
        scores=list(game.scores),
        hand_number=game.hand_number,
        hand_log=list(game.hand_log),
        current=game.current_player,
        legal=legal(game),
        is_over=game.is_over,
        cards_in_play=game.cards_in_play,
    ))


def assert_illegal(game, action: str) -> None:
    """The action raises IllegalAction and leaves every observable part of the state unchanged."""
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(action)
    after = snapshot(game)
    assert after == before, f"`{action}` was rejected but changed the state"


def drawn(game, seat: int, before: Sequence[str]) -> list:
    return sorted((Counter(hand(game, seat)) - Counter(before)).elements())


# --------------------------------------------------------------------------------------------------
# Scripted play: melds, layoffs, books
# --------------------------------------------------------------------------------------------------


def _wild_text(card: str, r: str) -> str:
    """The notation of a wild card standing for rank ``r`` in a natural meld (``2C=9S``)."""
    return f"{card}={r}S"


def meld_text(cards: Sequence[str]) -> str:
    """``meld`` action text for these physical cards: wild cards in a natural meld are declared."""
    nats = [c for c in cards if not is_wild(c)]
    if nats:
        r = rank(nats[0])
        words = [c if not is_wild(c) else _wild_text(c, r) for c in cards]
    else:
        words = list(cards)
    return "meld " + " ".join(words)


def _same(a: str, b: str) -> bool:
    wa, wb = a.split(), b.split()
    return wa[0] == wb[0] and sorted(wa[1:]) == sorted(wb[1:])


def meld(game, *cards: str) -> str:
    """Start a meld with exactly these cards (any order).  Fails the test if it is not legal."""
    want = meld_text(cards)
    found = [a for a in legal(game) if a.startswith("meld ") and _same(a, want)]
    if not found:
        raise AssertionError(f"`{want}` (in any order) is not legal for seat {game.current_player}; "
                             f"hand {hand(game, game.current_player)}; legal: {legal(game)[:40]}")
    game.apply(found[0])
    return found[0]


def open_meld(game, team: int, r: str) -> int:
    """The 1-based number of ``team``'s unfinished meld of rank ``r`` (``wild`` for a wild meld)."""
    found = [i for i, m in enumerate(melds(game), 1)
             if m["owner"] == team and "book" not in m and meld_rank(m["cards"]) == r]
    assert len(found) == 1, (team, r, melds(game))
    return found[0]


def lay(game, card: str, target: int) -> str:
    """Lay ``card`` off onto meld number ``target`` (a wild card is declared for a natural meld)."""
    m = melds(game)[target - 1]
    r = meld_rank(m["cards"])
    text = _wild_text(card, r) if is_wild(card) and r != "wild" else card
    a = f"layoff {text} on {target}"
    game.apply(a)
    return a


def team_of(seat: int) -> int:
    return seat % 2


def build(game, *cards: str) -> int:
    """Meld the first three cards, then lay off the others one by one onto that meld (in the order given);
    returns the meld's number."""
    meld(game, *cards[:3])
    team = team_of(game.current_player)
    nats = [c for c in cards[:3] if not is_wild(c)]
    r = rank(nats[0]) if nats else "wild"
    no = open_meld(game, team, r)
    for c in cards[3:]:
        lay(game, c, no)
    return no


def grow(game, r: str, *cards: str) -> int:
    """Lay ``cards`` off, one by one, onto the current player's team's unfinished meld of rank ``r``."""
    no = open_meld(game, team_of(game.current_player), r)
    for c in cards:
        lay(game, c, no)
    return no


def junk_turn(game, seat: Optional[int] = None) -> str:
    """A turn that changes nothing on the table: draw from the stock, discard a drawn card (a natural one
    if possible)."""
    s = game.current_player
    if seat is not None:
        assert s == seat, (s, seat)
    before = hand(game, s)
    game.apply("draw stock")
    new = drawn(game, s, before) or hand(game, s)
    pick = next((c for c in new if is_natural(c)), new[0])
    game.apply(f"discard {pick}")
    return pick
