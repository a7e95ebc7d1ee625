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
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

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
          stock: Sequence[Optional[str]] = (), dealer: int = 3, size: int = 13,
          bottom: Sequence[str] = ()) -> list:
    """The full 270-card deck, top card first, that deals ``hands`` / ``feet`` (seat -> cards), turns
    ``upcard`` and leaves ``stock`` (top first) on top of the stock.  Unspecified hand and foot cards are
    filled with one natural of each rank (no meld, no pile take) and then black threes; a ``None`` in
    ``stock`` is a filler card (the next of the rest).  The rest of the stock follows in a fixed order,
    naturals first (ranks interleaved), then black threes, red threes and wild cards, then ``bottom`` (the
    very last cards of the stock).  The last stock card is a red three only if ``bottom`` says so: a red
    three that cannot be replaced ends the deal (HF-EDGE-2)."""
    hands = {s: list(c) for s, c in (hands or {}).items()}
    feet = {s: list(c) for s, c in (feet or {}).items()}
    pool = Counter(FULL_DECK)
    fixed = [c for cs in hands.values() for c in cs] + [c for cs in feet.values() for c in cs] + [upcard]
    fixed += [c for c in stock if c is not None] + list(bottom)
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
                # a hand's filler avoids the ranks of its chosen cards; a foot's filler does not depend on
                # them (so two decks that swap chosen foot cards differ only in those cards)
                avoid = Counter(rank(c) for c in got if is_natural(c)) if packets is hands else Counter()
                got = got + take_fill(size - len(got), avoid)
            packets[s] = got
    deck: list = []
    order = deal_order(dealer)
    for packets in (hands, feet):
        for i in range(size):
            for s in order:
                deck.append(packets[s][i])
    deck.append(upcard)
    rest = list(pool.elements())
    rest.sort(key=lambda c: (is_wild(c), is_red_three(c), rank(c) == "3", FULL_DECK.index(natural_text(c))))
    # interleave ranks so that the filler stock does not hand out runs of one rank
    by_rank: dict = {}
    for c in rest:
        by_rank.setdefault((is_wild(c), is_red_three(c), rank(c) == "3"), []).append(c)
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
    it = iter(mixed)
    deck += [c if c is not None else next(it) for c in stock]
    deck += list(it) + list(bottom)
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
    key = (variant, repr(sorted((overrides or {}).items())))
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


def play_turn(game, seat: int, *actions: str) -> None:
    """Check that ``seat`` is on turn, then play ``actions``."""
    assert game.current_player == seat, f"seat {game.current_player} is on turn, not {seat}"
    act(game, *actions)


# --------------------------------------------------------------------------------------------------
# Final positions and the independent scorer (HF-SCORE-*)
# --------------------------------------------------------------------------------------------------


def position(game) -> dict:
    """What the spec scorer needs, read before the action that ends a deal: the melds, each team's laid red
    threes, every hand (each from its owner's view), every unpicked foot (``hand_of(seat, "foot")``: the
    feet are turned up at the end of the deal, HF-EDGE-10), who picked up their foot, who melded."""
    v = game.view(0)
    return copy.deepcopy(dict(
        melds=v["melds"],
        red_threes=[len(red_threes(game, t)) for t in (0, 1)],
        hands=[hand(game, s) for s in range(4)],
        feet=[[] if v["in_reserve"][s] else sorted(game.hand_of(s, "foot")) for s in range(4)],
        in_reserve=list(v["in_reserve"]),
        team_melded=list(v["team_melded"]),
        actor=game.current_player,
        hand_number=game.hand_number,
    ))


def held(pos: dict, team: int) -> list:
    """Every card held by a partnership: both hands and any unpicked foot (HF-SCORE-4/6)."""
    return [c for s in (team, team + 2) for c in pos["hands"][s] + pos["feet"][s]]


def expected_gains(pos: dict, going_out_team: Optional[int], **kw) -> list:
    """The spec's deal score of both partnerships for a final position (see ``team_score``)."""
    return [team_score([m for m in pos["melds"] if m["owner"] == t], pos["red_threes"][t], held(pos, t),
                       went_out=(going_out_team == t), melded=pos["team_melded"][t], **kw) for t in (0, 1)]


def finish(game, action: str, **kw) -> list:
    """Play ``action``, which must end the deal, and check both partnerships' deal scores against the spec
    scorer applied to the final position (the position before the action, less the going-out discard).
    Returns the deal scores [NS, EW]."""
    pos = position(game)
    actor = game.current_player
    before = list(game.scores)
    game.apply(action)
    assert game.hand_number == pos["hand_number"] + 1 or game.is_over, f"`{action}` did not end the deal"
    rec = game.hand_log[-1]
    out_team = None
    if rec["ending"] == "out":
        card = action.split()[1]
        pos["hands"][actor].remove(card)
        out_team = actor % 2
        assert rec["declarer"] == actor
    else:
        assert rec["ending"] == "stock" and rec["declarer"] is None
    exp = expected_gains(pos, out_team, **kw)
    gains = list(game.last_gains)
    assert gains == exp, f"deal scores {gains}, the spec gives {exp}"
    assert list(game.scores) == [b + g for b, g in zip(before, gains)]        # HF-SCORE-7
    return gains


def drain(game, upto: int = 0, discard=None) -> list:
    """Junk turns (draw, discard a drawn card) until the stock holds at most ``upto`` cards.  ``discard``
    (game, seat, drawn cards) -> card may choose the discard.  Returns the cards drawn, in order (a red
    three laid at once shows up as drawn too)."""
    seen: list = []
    deal_number = game.hand_number
    while stock_count(game) > upto and not game.is_over and game.hand_number == deal_number:
        s = game.current_player
        before_hand = hand(game, s)
        before_r3 = Counter(red_threes(game, s % 2))
        game.apply("draw stock")
        if game.hand_number != deal_number or game.is_over:
            break                                    # the last card, a red three, ended the deal
        new = drawn(game, s, before_hand)
        laid = list((Counter(red_threes(game, s % 2)) - before_r3).elements())
        seen += laid + new
        if discard is not None:
            pick = discard(game, s, new)
        else:
            pool = new or hand(game, s)
            pick = next((c for c in pool if is_natural(c)), pool[0])
        game.apply(f"discard {pick}")
    return seen


def stock_out(game, **kw) -> list:
    """Junk turns to the end of the stock, then the player on turn declines the pile: the deal ends
    (HF-END-2).  The deal scores are checked by ``finish``; returns them.  (A deal whose last stock card
    is a red three ends on that draw instead, HF-EDGE-2: its scores are returned unchecked.  Stacked deals
    never end so unless their ``bottom`` says so.)"""
    deal_number = game.hand_number
    drain(game)
    if game.hand_number != deal_number or game.is_over:
        return list(game.last_gains)
    assert stock_count(game) == 0
    assert "draw stock" not in legal(game) and "pass" in legal(game)
    return finish(game, "pass", **kw)


# --------------------------------------------------------------------------------------------------
# A seeded greedy-random bot for playouts
# --------------------------------------------------------------------------------------------------


def bot_action(game, rng: random.Random, p_yes: float = 0.9, p_take: float = 0.6) -> str:
    """Mostly melds and lays off natural cards (wild cards go into natural melds only now and then, so wild
    melds and wild books happen), asks to go out when it may, usually answers yes, takes the pile often,
    draws otherwise, and discards black threes and lone cards first."""
    acts = legal(game)
    if acts == ["yes", "no"]:
        return "yes" if rng.random() < p_yes else "no"
    if "ask" in acts and rng.random() < 0.9:
        return "ask"
    plays = [a for a in acts if a.startswith(("layoff", "meld"))]
    plain = [a for a in plays if "=" not in a]
    if plain and rng.random() < 0.95:
        return rng.choice(plain)
    if plays and rng.random() < 0.15:
        return rng.choice(plays)
    if "take discard" in acts and rng.random() < p_take:
        return "take discard"
    if "draw stock" in acts:
        return "draw stock"
    if "pass" in acts:
        return "pass"
    ds = [a for a in acts if a.startswith("discard")]
    if ds:
        counts = Counter(rank(c) for c in hand(game, game.current_player))

        def cost(a: str) -> int:
            c = a.split()[1]
            if is_black_three(c):
                return -1
            if is_wild(c):
                return 10
            return counts[rank(c)]

        return min(ds, key=lambda a: (cost(a), rng.random()))
    return rng.choice(acts)


# --------------------------------------------------------------------------------------------------
# Scenario A: the deal of worked examples 1 and 2 (NS goes out in deal 1)
# --------------------------------------------------------------------------------------------------

#: East (seat 1) deals, so South plays first; turn order S, W, N, E.
EX12_HANDS = {
    S: ["3H", "KS", "KH", "KD", "KC", "KS", "KH", "KD", "5S", "5H", "5D", "5C", "5S"],
    N: ["3D", "AS", "AH", "AD", "AC", "AS", "AH", "Jk", "8S", "8H", "8D", "8C", "8S"],
    E: ["JS", "JH", "JD", "JC", "JS", "2C", "2H", "7S", "7H", "7D", "7C", "7S", "7H"],
    W: ["3H", "9S", "9H", "9D", "5S", "5H", "5D", "5C", "6S", "6H", "6D", "6C", "10H"],
}
EX12_FEET = {
    S: ["QS", "QH", "QD", "2S", "9S", "JS", "3S", "7S", "7H", "7D", "7C", "6S", "6H"],
    N: ["Jk", "Jk", "Jk", "Jk", "2H", "2S", "2D", "4S", "4H", "4D", "4C", "6C", "6S"],
    E: ["AS", "AH", "7C", "Jk", "3C", "4S", "4H", "4D", "4C", "5H", "5D", "5C", "5S"],
    W: ["3D", "Jk", "Jk", "2S", "AS", "AH", "AD", "KS", "KH", "9C", "6H", "6D", "3S"],
}
EX12_STOCK = ["5H", "5D", "4C",      # S1: replaces the red three 3H, then draws 5D 4C
              "KH", "4D", "QC",      # W1: replaces 3H, draws 4D QC
              "2C", "2D", "9H",      # N1: replaces 3D, draws 2D 9H
              "7D", "8C",            # E1
              "6D", "10C",           # S2
              "6C", "JH",            # W2
              "6H", "10S"]           # N2


def example_1_2_deal(overrides=None):
    return deal(EX12_HANDS, EX12_FEET, upcard="KC", stock=EX12_STOCK, dealer=E, overrides=overrides)


def example_1_2_play(g, stop_before_out: bool = False) -> None:
    """The seven turns of the deal: S1 (two clean books, discards out of the hand: Way B), W1 (9 9 9 and
    5 5 5 5: EW's initial meld of exactly 50), N1 (two dirty books, Way B), E1 (dirty J book and clean 7 book,
    Way B), S2 (Q Q Q 2 from the foot, keeps 9 J b3 and seven cards worth 35), W2 (6 6 6 6, keeps K 10 6 4),
    N2 (wild book, 4 4 4 4, asks, South says yes, 6 6 6, discards 10S: out)."""
    play_turn(g, S, "draw stock")
    build(g, "KS", "KH", "KD", "KC", "KS", "KH", "KD")
    build(g, "5S", "5H", "5D", "5C", "5S", "5H", "5D")
    g.apply("discard 4C")
    play_turn(g, W, "draw stock")
    build(g, "9S", "9H", "9D")
    build(g, "5S", "5H", "5D", "5C")
    g.apply("discard QC")
    play_turn(g, N, "draw stock")
    build(g, "AS", "AH", "AD", "AC", "AS", "AH", "Jk")
    build(g, "8S", "8H", "8D", "8C", "8S", "2C", "2D")
    g.apply("discard 9H")
    play_turn(g, E, "draw stock")
    build(g, "JS", "JH", "JD", "JC", "JS", "2C", "2H")
    build(g, "7S", "7H", "7D", "7C", "7S", "7H", "7D")
    g.apply("discard 8C")
    play_turn(g, S, "draw stock")
    build(g, "QS", "QH", "QD", "2S")
    g.apply("discard 10C")
    play_turn(g, W, "draw stock")
    build(g, "6S", "6H", "6D", "6C")
    g.apply("discard JH")
    play_turn(g, N, "draw stock")
    build(g, "Jk", "Jk", "Jk", "Jk", "2H", "2S", "2D")
    build(g, "4S", "4H", "4D", "4C")
    g.apply("ask")
    play_turn(g, S, "yes")
    assert g.current_player == N
    build(g, "6C", "6S", "6H")
    if not stop_before_out:
        g.apply("discard 10S")


# --------------------------------------------------------------------------------------------------
# Scenario B: NS build 2 clean, 2 dirty and 1 wild book; North reaches the foot first, South later
# --------------------------------------------------------------------------------------------------


class BooksDeal:
    """A stacked first deal, West dealing (turn order N, E, S, W); East and West only draw and discard.

    N1: draws 5D 4C; clean K book and clean 5 book (105 >= 50: NS's initial meld); discards 4C, the last
        card of the hand: picks up the foot (Way B).
    S1: draws 10S JS; dirty A book (A x6 + Jk) and 8 8 8 8 8 2D; discards JS and keeps 10S (not in the foot).
    N2: (first turn from the foot) draws QD 4D; wild book Jk Jk Jk 2H 2S 2D 2C (``wild_book="n2"``; with
        ``"n4"`` only six wild cards, 2C kept for N4; with ``"never"`` six, and 2C discarded; with ``"five"``
        five, 2D on the 9 meld and 2C discarded); 2H on the 8 meld: second dirty book; 9 9 9; discards 4D and
        keeps Q Q Q (plus 2C with ``"n4"``, plus 4D with ``"five"``).
    S2: draws ``s2`` (10H 10D); melds 10 10 10, emptying the hand: picks up the foot and goes on (Way A);
        6 6 6 from the foot; discards KH.  (This turn began with the hand: no foot turn yet.)
    N3: draws ``n3`` (6C 10C); discards 10C.
    S3: a junk turn: South's first complete turn from the foot.
    N4: draws ``n4`` (9C 4S): may ask; with a yes, Q Q Q, 6C on the 6 meld, 9C on the 9 meld, discard 4S: out.
    """

    ORDER = ["N1", "E1", "S1", "W1", "N2", "E2", "S2", "W2", "N3", "E3", "S3", "W3", "N4"]
    S_FOOT = ["6S", "6H", "6D", "7S", "7H", "7D", "4H", "4S", "KS", "KH", "9C", "10C", "AC"]

    def __init__(self, wild_book: str = "n2", s2=("10H", "10D"), n3=("6C", "10C"), n4=("9C", "4S"),
                 s_foot=None, n_hand_extra=None, overrides=None, variant=None, bottom=()):
        self.wild_book = wild_book
        hands = {
            N: ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "5S", "5H", "5D", "5C", "5S", "5H"],
            S: ["AS", "AH", "AD", "AC", "AS", "AH", "Jk", "8S", "8H", "8D", "8C", "8S", "2D"],
        }
        feet = {
            N: ["Jk", "Jk", "Jk", "2H", "2S", "2D", "2C", "2H", "9S", "9H", "9D", "QS", "QH"],
            S: list(s_foot or self.S_FOOT),
        }
        stock = ["5D", "4C", None, None, "10S", "JS", None, None, "QD", "4D", None, None, *s2, None, None,
                 *n3, None, None, None, None, None, None, *n4]
        self.game = deal(hands, feet, upcard="KC", stock=stock, dealer=W, overrides=overrides, variant=variant,
                         bottom=bottom)
        self.done: list = []

    # the default turns -----------------------------------------------------------------------------
    def N1(self):
        g = self.game
        play_turn(g, N, "draw stock")
        build(g, "KS", "KH", "KD", "KC", "KS", "KH", "KD")
        build(g, "5S", "5H", "5D", "5C", "5S", "5H", "5D")
        g.apply("discard 4C")

    def S1(self):
        g = self.game
        play_turn(g, S, "draw stock")
        build(g, "AS", "AH", "AD", "AC", "AS", "AH", "Jk")
        build(g, "8S", "8H", "8D", "8C", "8S", "2D")
        g.apply("discard JS")

    def N2(self):
        g = self.game
        play_turn(g, N, "draw stock")
        if self.wild_book == "five":
            # a five-card wild meld; 2D goes on the 9 meld, 2C is discarded: North keeps Q Q Q 4D
            build(g, "Jk", "Jk", "Jk", "2H", "2S")
            grow(g, "8", "2H")
            meld(g, "9S", "9H", "9D")
            grow(g, "9", "2D")
            g.apply("discard 2C")
            return
        wilds = ["Jk", "Jk", "Jk", "2H", "2S", "2D"] + (["2C"] if self.wild_book == "n2" else [])
        build(g, *wilds)
        grow(g, "8", "2H")
        meld(g, "9S", "9H", "9D")
        g.apply("discard 2C" if self.wild_book == "never" else "discard 4D")

    def S2(self):
        g = self.game
        play_turn(g, S, "draw stock")
        meld(g, "10S", "10H", "10D")
        meld(g, "6S", "6H", "6D")
        g.apply("discard KH")

    def N3(self):
        g = self.game
        play_turn(g, N, "draw stock")
        g.apply("discard 10C")

    def N4(self):
        """Goes out (default cards): ask, yes, Q Q Q, 6C, 9C, discard 4S."""
        g = self.game
        play_turn(g, N, "draw stock")
        if self.wild_book == "n4":
            grow(g, "wild", "2C")
        g.apply("ask")
        play_turn(g, S, "yes")
        meld(g, "QS", "QH", "QD")
        grow(g, "6", "6C")
        grow(g, "9", "9C")

    def junk(self, seat: int):
        junk_turn(self.game, seat)

    def play(self, label: str) -> None:
        fn = getattr(self, label, None)
        if label[0] in "EW" or (label == "S3"):
            self.junk({"E": E, "W": W, "S": S}[label[0]])
        else:
            fn()
        self.done.append(label)

    def upto(self, label: str) -> "BooksDeal":
        """Play the default turns before ``label`` (in ORDER), not ``label`` itself."""
        for lab in self.ORDER[len(self.done):]:
            if lab == label:
                break
            self.play(lab)
        return self


# --------------------------------------------------------------------------------------------------
# Piles built by real discards
# --------------------------------------------------------------------------------------------------


def pile_deal(pile: Sequence[str], hands: Optional[dict] = None, feet: Optional[dict] = None, after=(),
              overrides=None, variant=None, bottom=(), seed: int = 0, plays: Optional[dict] = None,
              draws: Optional[dict] = None):
    """A stacked deal (West dealing: turn order N, E, S, W) in which the discard pile becomes ``pile``
    (bottom first: the upcard, then one discard per turn) by the time West is on turn: each turn before
    draws [the card it will discard, a filler card] and discards the first.  ``len(pile)`` must be 4, 8 or
    12.  ``after`` are the stock cards that follow (West's draw, ...).  ``plays`` {turn index: fn(game)} runs
    between that turn's draw and its discard; ``draws`` {turn index: card} replaces its filler card.
    Returns the game with West on turn."""
    assert len(pile) % 4 == 0
    stock: list = []
    for i, c in enumerate(pile[1:]):
        stock += [c, (draws or {}).get(i)]
    stock += list(after)
    g = deal(hands, feet, upcard=pile[0], stock=stock, dealer=W, overrides=overrides, variant=variant,
             bottom=bottom, seed=seed)
    for i, c in enumerate(pile[1:]):
        g.apply("draw stock")
        if plays and i in plays:
            plays[i](g)
        g.apply(f"discard {c}")
    assert g.current_player == W and pile_count(g) == len(pile) and top(g) == pile[-1]
    return g


# --------------------------------------------------------------------------------------------------
# Initial-meld monitor (HF-MELD-8, HF-END-3)
# --------------------------------------------------------------------------------------------------

SPEC_MINIMUMS = {1: 50, 2: 90, 3: 120, 4: 150}


def play_watching_initial_melds(game, rng: random.Random, deals: Sequence[int], minimums=SPEC_MINIMUMS) -> Counter:
    """Play greedy-random turns (never taking the pile, always answering no, so no going out) until the
    match is over, checking in the deals listed: a partnership that has not melded gets its initial meld
    exactly when the cards one player placed in that turn reach the deal's minimum (wild cards at their
    value), and until then the turn cannot end (no discard is legal).  Returns, per deal, how many initial
    melds were completed."""
    done: Counter = Counter()
    placed = 0
    while not game.is_over:
        seat = game.current_player
        a = bot_action(game, rng, p_yes=0.0, p_take=0.0)
        team = seat % 2
        melded_before = game.view(0)["team_melded"][team]
        if a in ("draw stock", "take discard"):
            placed = 0
        d = game.hand_number
        game.apply(a)
        if game.hand_number != d or game.is_over or d not in deals:
            continue
        if a.startswith(("meld", "layoff")) and not melded_before:
            words = a.split()[1:] if a.startswith("meld") else [a.split()[1]]
            placed += sum(value(w) for w in words)
            now = game.view(0)["team_melded"][team]
            assert now == (placed >= minimums[d]), (d, placed, a)
            if now:
                done[d] += 1
            else:
                assert not any(x.startswith("discard") for x in legal(game)), (d, placed, legal(game))
    return done
