"""Shared helpers for the Contract Rummy tests (tests/test_contract_rummy_*.py).

Everything here is written from the rules as seeds/contract_rummy.md states them, not from the engine:

* the deck (2 copies of 52 cards and one joker per copy with 3-4 players, 3 copies with 5-8; CR-DEAL-2),
  card values (CR-SCORE-2), hand sizes per deal (CR-DEAL-3) and the contract per deal (CR-CONTRACT-1),
* ``stack``: a full deck, top card first, that deals chosen hands (one card at a time from the dealer's
  left, CR-DEAL-4), then turns up a chosen upcard and leaves chosen stock cards on top (CR-DEAL-5),
* ``contract_options``: which minimum-size melds a player who is not down may start, for natural cards:
  the types the contract still needs, and only when the rest of the contract can still be made from the
  cards left (CR-DOWN-1/2, CR-CONTRACT-6),
* ``QUICK_OUT``: for each deal, a hand with which the first player goes out on the first turn, and the
  actions that do it; ``reach_deal`` plays deals 1 .. k-1 that way to reach a stacked deal k.

Seats are A, B, C, ... = 0, 1, 2, ...  Turn order is clockwise: the seat after s is s + 1 (mod n).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Optional, Sequence

import rulesdsl
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
RUN_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]   # CR-CONTRACT-3
NATURALS = [r + s for s in SUITS for r in RANKS]
JOKER = "Jk"
A, B, C, D, E, F, G, H = range(8)

# CR-CONTRACT-1: the contract of deal 1 .. 7.
CONTRACTS = [["set", "set"], ["set", "run"], ["run", "run"], ["set", "set", "set"], ["set", "set", "run"],
             ["set", "run", "run"], ["run", "run", "run"]]
MIN_SIZE = {"set": 3, "run": 4}                                                         # CR-CONTRACT-6

BASE = "contract_rummy"
VARIANTS = {
    "base": BASE,
    "unlimited_buys": "variants/contract_rummy_unlimited_buys",
    "deuces_wild": "variants/contract_rummy_deuces_wild",
    "two_penalty_cards": "variants/contract_rummy_two_penalty_cards",
    "buy_when_down": "variants/contract_rummy_buy_when_down",
}
DEFAULTS = {"buy_penalty": 1, "max_buys": 3, "buy_after_down": False, "deuces_wild": False}
VARIANT_PARAMS = {
    "base": {},
    "unlimited_buys": {"max_buys": 0},
    "deuces_wild": {"deuces_wild": True},
    "two_penalty_cards": {"buy_penalty": 2},
    "buy_when_down": {"buy_after_down": True},
}


def rank(card: str) -> str:
    return "Jk" if card == JOKER else card[:-1]


def suit(card: str) -> str:
    return card[-1]


def value(card: str) -> int:
    """CR-SCORE-2: ace 15, joker 15, K Q J 10, 2 to 10 at face value (a wild 2 too: see Departures)."""
    r = rank(card)
    if r in ("A", "Jk"):
        return 15
    if r in ("J", "Q", "K"):
        return 10
    return int(r)


def hand_value(cards: Sequence[str]) -> int:
    return sum(value(c) for c in cards)


def copies(n: int) -> int:
    """CR-DEAL-2: two decks with 3 or 4 players, three with 5 to 8."""
    return 2 if n <= 4 else 3


def full_deck(n: int) -> list:
    """Every card of the pack, each copy of a deck with its one joker."""
    return [c for _ in range(copies(n)) for c in NATURALS + [JOKER]]


def hand_size(deal: int) -> int:
    """CR-DEAL-3: 10 cards in deals 1-4, 12 in deals 5-7."""
    return 10 if deal <= 4 else 12


def dealing_order(n: int, dealer: int) -> list:
    return [(dealer + 1 + i) % n for i in range(n)]


def dealer_of(deal: int, n: int, first_dealer: int) -> int:
    """CR-DEAL-4: the deal passes one seat to the left after each deal."""
    return (first_dealer + deal - 1) % n


_RULES: dict = {}


def rules(variant: str = "base", overrides: Optional[dict] = None):
    key = (variant, tuple(sorted((overrides or {}).items())))
    if key not in _RULES:
        _RULES[key] = rulesdsl.load(VARIANTS.get(variant, variant), overrides=dict(overrides or {}) or None)
    return _RULES[key]


def stack(hands: dict, n: int, dealer: int, after: Sequence[str] = (), deal: int = 1,
          fill: Sequence[str] = ()) -> list:
    """A full deck, top card first.  The deal gives each seat of ``hands`` those cards (a hand not given, or
    given short, is completed from the unused cards: ``fill`` first, then the rest in deck order); ``after``
    follows the deal: ``after[0]`` is turned up, ``after[1]`` is the top of the stock, and so on."""
    pool = full_deck(n)
    size = hand_size(deal)
    given = {s: list(hands.get(s, [])) for s in range(n)}
    for c in [c for h in given.values() for c in h] + list(after) + list(fill):
        assert c in pool, f"more copies of {c} than the pack holds"
        pool.remove(c)
    pool = list(fill) + pool
    for s in dealing_order(n, dealer):
        assert len(given[s]) <= size, f"seat {s} gets {size} cards, not {len(given[s])}"
        while len(given[s]) < size:
            given[s].append(pool.pop(0))
    seats = dealing_order(n, dealer)
    out = [given[seats[i % n]][i // n] for i in range(size * n)] + list(after) + pool
    assert Counter(out) == Counter(full_deck(n))
    return out


def dealt(deck: Sequence[str], n: int, dealer: int, deal: int = 1) -> dict:
    """What the deal gives each seat from a stacked deck (one card at a time from the dealer's left)."""
    size = hand_size(deal)
    seats = dealing_order(n, dealer)
    return {s: list(deck[k:size * n:n]) for k, s in enumerate(seats)}


def check_deal(g, deck: Sequence[str], n: int, dealer: int, deal: int) -> None:
    """The engine dealt what the stacked deck says: hands, upcard, stock size."""
    size = hand_size(deal)
    for s, cards in dealt(deck, n, dealer, deal).items():
        assert Counter(g.hand_of(s)) == Counter(cards), (deal, s, g.hand_of(s), cards)
    assert top(g) == deck[size * n], (top(g), deck[size * n])
    assert stock_count(g) == len(full_deck(n)) - size * n - 1
    assert g.view(0)["dealer"] == dealer and g.hand_number == deal


def new_game(hands: dict, n: int = 4, dealer: Optional[int] = None, after: Sequence[str] = (),
             variant: str = "base", overrides: Optional[dict] = None, seed: int = 0, fill: Sequence[str] = ()):
    """A match whose first deal is stacked.  The dealer defaults to the last seat, so A plays first."""
    dealer = n - 1 if dealer is None else dealer
    deck = stack(hands, n, dealer, after, 1, fill)
    g = rules(variant, overrides).new_game(players=n, seed=seed, dealer=dealer, deck=deck)
    check_deal(g, deck, n, dealer, 1)
    return g


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def top(game) -> Optional[str]:
    return game.view(0)["zones"]["discard"].get("top")


def stock_count(game) -> int:
    return game.view(0)["zones"]["stock"]["count"]


def pile_count(game) -> int:
    return game.view(0)["zones"]["discard"]["count"]


def phase(game) -> str:
    return game.view(0)["phase"]


def table_melds(game) -> list:
    return game.view(0)["melds"]


def listed(game, verb: str) -> list:
    return [a for a in legal(game) if a.split()[0] == verb]


def norm(meld_text: str) -> tuple:
    """A `meld ...` action as a sorted tuple of its cards (the order of cards is not part of a meld)."""
    return tuple(sorted(meld_text.split()[1:]))


def listed_melds(game) -> set:
    return {norm(a) for a in listed(game, "meld")}


def discards(game) -> list:
    return [a.split()[1] for a in listed(game, "discard")]


# ------------------------------------------------------------------------------------------ the contract
def min_melds(cards: Sequence[str], kind: str) -> set:
    """Every minimum-size meld of natural cards of ``kind`` among ``cards`` (as sorted tuples; several
    copies of a card are the same card for this purpose)."""
    have = Counter(c for c in cards if c != JOKER)
    out = set()
    if kind == "set":
        for r in RANKS:
            of_rank = [c for c in sorted(have.elements()) if rank(c) == r]
            for pick in itertools.combinations(of_rank, MIN_SIZE["set"]):
                out.add(tuple(sorted(pick)))
    else:
        for s in SUITS:
            for i in range(len(RUN_ORDER) - MIN_SIZE["run"] + 1):
                window = [r + s for r in RUN_ORDER[i:i + MIN_SIZE["run"]]]
                if all(have[c] >= 1 for c in window):
                    out.add(tuple(sorted(window)))
    return out


def feasible(cards: Sequence[str], needs: Sequence[str]) -> bool:
    """Whether ``needs`` (meld types) can all be made, disjointly and at minimum size, from ``cards``."""
    if not needs:
        return True
    first, rest = needs[0], list(needs[1:])
    for m in min_melds(cards, first):
        left = Counter(cards)
        left.subtract(m)
        if feasible(list(left.elements()), rest):
            return True
    return False


def contract_options(cards: Sequence[str], needs: Sequence[str]) -> set:
    """CR-DOWN-1/2 as the ruleset implements them: the melds a player not yet down may start now."""
    out = set()
    for kind in set(needs):
        rest_needs = list(needs)
        rest_needs.remove(kind)
        for m in min_melds(cards, kind):
            left = Counter(cards)
            left.subtract(m)
            if feasible(list(left.elements()), rest_needs):
                out.add(m)
    return out


def meld_kind(meld_text: str) -> tuple:
    """The kind and the cards stood for of a listed `meld` action: a set if every card stands for one rank,
    else a run (a wild card is written `Jk=7S`, and stands for 7S)."""
    stood = [w.split("=")[-1] for w in meld_text.split()[1:]]
    kind = "set" if len({rank(c) for c in stood}) == 1 else "run"
    return kind, stood


def is_min_meld(kind: str, stood: Sequence[str]) -> bool:
    """A minimum-size set or run (CR-CONTRACT-2/3/6) by the cards stood for."""
    if len(stood) != MIN_SIZE[kind]:
        return False
    if kind == "set":
        return len({rank(c) for c in stood}) == 1
    if len({suit(c) for c in stood}) != 1:
        return False
    ranks = sorted(rank(c) for c in stood)
    for i in range(len(RUN_ORDER) - MIN_SIZE["run"] + 1):
        if sorted(RUN_ORDER[i:i + MIN_SIZE["run"]]) == ranks:
            return True
    return False


# ------------------------------------------------------------------------------------------ quick deals
# For each deal: the first player's hand, the card it draws, and the turn with which it goes out at once:
# the contract at minimum size, every other card laid off, then the drawn card discarded.  Only clubs
# and second copies are used, so the hands leave one copy of every spade, heart and diamond free; no 2 and
# no joker is used, so the same hands serve in the deuces-wild variant.
QUICK_OUT = {
    1: (["7C", "7C", "7S", "9C", "9C", "9S", "7H", "7D", "9H", "9D"], "QC",
        ["meld 7C 7C 7S", "meld 9C 9C 9S", "layoff 7H on 1", "layoff 7D on 1", "layoff 9H on 2",
         "layoff 9D on 2", "discard QC"]),
    2: (["QC", "QC", "QS", "3C", "4C", "5C", "6C", "QH", "7C", "8C"], "JC",
        ["meld QC QC QS", "meld 3C 4C 5C 6C", "layoff QH on 1", "layoff 7C on 2", "layoff 8C on 2",
         "discard JC"]),
    3: (["3C", "4C", "5C", "6C", "9C", "10C", "JC", "QC", "7C", "8C"], "QD",
        ["meld 3C 4C 5C 6C", "meld 9C 10C JC QC", "layoff 7C on 1", "layoff 8C on 1", "discard QD"]),
    4: (["7C", "7C", "7S", "9C", "9C", "9S", "QC", "QC", "QS", "7H"], "JD",
        ["meld 7C 7C 7S", "meld 9C 9C 9S", "meld QC QC QS", "layoff 7H on 1", "discard JD"]),
    5: (["7C", "7C", "7S", "9C", "9C", "9S", "3C", "4C", "5C", "6C", "7H", "9H"], "QD",
        ["meld 7C 7C 7S", "meld 9C 9C 9S", "meld 3C 4C 5C 6C", "layoff 7H on 1", "layoff 9H on 2",
         "discard QD"]),
    6: (["7C", "7C", "7S", "3C", "4C", "5C", "6C", "9C", "10C", "JC", "QC", "7H"], "QD",
        ["meld 7C 7C 7S", "meld 3C 4C 5C 6C", "meld 9C 10C JC QC", "layoff 7H on 1", "discard QD"]),
    7: (["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"], "QD",
        ["meld 3C 4C 5C 6C", "meld 7C 8C 9C 10C", "meld JC QC KC AC", "discard QD"]),
}
QUICK_UPCARD = "AD"


def quick_deck(deal: int, n: int, dealer: int, others: Optional[dict] = None) -> list:
    """A deck for ``deal`` with which its first player goes out on the first turn (``QUICK_OUT``)."""
    hand, drawn, _ = QUICK_OUT[deal]
    hands = dict(others or {})
    hands[(dealer + 1) % n] = hand
    return stack(hands, n, dealer, after=[QUICK_UPCARD, drawn], deal=deal)


def play_quick_out(g, deal: int, n: int) -> None:
    """The first player of ``deal`` goes out on the first turn; the deal ends and is scored."""
    first = (g.view(0)["dealer"] + 1) % n
    hand, drawn, script = QUICK_OUT[deal]
    assert g.hand_number == deal and g.current_player == first
    assert Counter(g.hand_of(first)) == Counter(hand)
    g.apply("draw stock")
    for a in script:
        assert g.current_player == first and g.hand_number == deal, (deal, a)
        g.apply(a)
    assert len(g.hand_log) == deal and g.hand_log[-1]["declarer"] == first


def reach_deal(deal: int, n: int, hands: dict, after: Sequence[str], first_dealer: Optional[int] = None,
               variant: str = "base", overrides: Optional[dict] = None, seed: int = 0, fill: Sequence[str] = ()):
    """A match at the start of ``deal``, whose deal is stacked with ``hands`` and ``after``; the deals before
    it end at once (``QUICK_OUT``).  Returns the game (the deal's hands are checked)."""
    first_dealer = n - 1 if first_dealer is None else first_dealer
    decks = [quick_deck(k, n, dealer_of(k, n, first_dealer)) for k in range(1, deal)]
    target = stack(hands, n, dealer_of(deal, n, first_dealer), after, deal, fill)
    decks.append(target)
    g = rules(variant, overrides).new_game(players=n, seed=seed, dealer=first_dealer, deck=decks[0],
                                           decks=decks[1:])
    for k in range(1, deal):
        check_deal(g, decks[k - 1], n, dealer_of(k, n, first_dealer), k)
        play_quick_out(g, k, n)
    check_deal(g, target, n, dealer_of(deal, n, first_dealer), deal)
    return g


def pass_buys(g) -> int:
    """Pass every buy offer now open; returns how many seats were asked."""
    k = 0
    while phase(g) == "claim":
        g.apply("pass")
        k += 1
    return k
