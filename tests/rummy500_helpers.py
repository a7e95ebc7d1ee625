"""Shared helpers for the Rummy 500 acceptance tests (tests/test_rummy500_*.py).

Everything here is written from the spec (shared/spec/rummy_500.md), not from the engine:

* card notation, the deck (R500-DEAL-1/2) and card values (R500-SCORE-1..3, the 5/10/15 variant),
* ``stack``: a full deck, top card first, for the documented deal (R500-DEAL-4/5): one card at a time from
  the dealer's left, 13 cards each with 2 players and 7 with 3 or more, then the upcard, then the stock;
  cards a test does not name come from ``JUNK`` (26 cards with no meld among them), jokers go to the bottom,
* an independent meld validator (R500-MELD-1..4, R500-MELD-6) working on view texts (``Jk=10H``), and a
  "could this card be melded" oracle (``fits``, ``meld_of_three``: R500-TURN-5, R500-CALL-1, R500-LAYOFF-3),
* an independent hand scorer (R500-SCORE-1..6) working on view data (melds with ``placed_by``, hands), and
  ``finish``: play the action that ends a hand and check every seat's score change against it,
* game utilities: ``act``, ``go`` (passing claim windows), ``meld`` (any card order), ``lay``, ``legal``,
  ``snapshot`` / ``assert_illegal``, ``pile_game`` (a discard pile built by play), ``drain`` /
  ``end_by_stock`` (the stock runs out, R500-OUT-2), ``Match`` (replayable; ``set_totals``),
* a seeded random bot for playouts (mostly melds and lays off, sometimes draws deep, calls Rummy), and
  ``steer_stock_out``: a full-information planner that plays a random hand to exact scores.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Iterable, Optional, Sequence

import pytest

import rulesdsl
from rulesdsl import IllegalAction
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

# --------------------------------------------------------------------------------------------------
# Cards (Overview, R500-DEAL-1/2, R500-SCORE-1)
# --------------------------------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
JOKER = "Jk"
ALL_CARDS = [r + s for s in SUITS for r in RANKS]          # the 52 natural cards
A, B, C, D, E, F, G, H = range(8)

#: 26 cards with no meld among them (per suit every other rank; each rank in two suits only)
JUNK = [r + s for r, s in zip(["K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"] * 2,
                              ["S", "H", "S", "H", "S", "H", "S", "H", "S", "H", "S", "H", "S"]
                              + ["D", "C", "D", "C", "D", "C", "D", "C", "D", "C", "D", "C", "D"])]


def deck_cards(players: int = 2, jokers_enabled: bool = True, jokers_per_deck: int = 2,
               decks: Optional[int] = None) -> list:
    """R500-DEAL-1/2: one deck for 2-4 players, two for 5+; 2 jokers per deck when jokers are on."""
    if decks is None:
        decks = 2 if players >= 5 else 1
    one = list(ALL_CARDS) + ([JOKER] * jokers_per_deck if jokers_enabled else [])
    return one * decks


def hand_size(players: int, overrides: Optional[dict] = None) -> int:
    """R500-DEAL-4: 13 cards each with 2 players, 7 with 3 or more (or the ruleset's hand-size parameters)."""
    ov = overrides or {}
    if players == 2:
        return ov.get("hand_size_two_players", 13)
    return ov.get("hand_size_more_players", 7)


def is_joker(card: str) -> bool:
    return card.split("=")[0] == JOKER


def natural(card: str) -> str:
    """The physical card of a view text: ``Jk=10H`` -> ``Jk``."""
    return card.split("=")[0]


def declared(card: str) -> str:
    """The card a view text stands for: ``Jk=10H`` -> ``10H``; a natural card stands for itself."""
    return card.split("=")[1] if "=" in card else card


def rank(card: str) -> str:
    return declared(card)[:-1]


def suit(card: str) -> str:
    return declared(card)[-1]


FIVE_TEN = {"2": 5, "3": 5, "4": 5, "5": 5, "6": 5, "7": 5, "8": 5, "9": 5}


def value(card: str, five_ten: bool = False) -> int:
    """R500-SCORE-1 (and the 5/10/15 variant): 2-10 face (2-9 = 5 in the variant), J/Q/K 10, A 15, joker 15."""
    if is_joker(card):
        return 15
    r = natural(card)[:-1]
    if r == "A":
        return 15
    if r in ("J", "Q", "K"):
        return 10
    if five_ten and r in FIVE_TEN:
        return 5
    return int(r)


def total(cards: Iterable[str], five_ten: bool = False) -> int:
    return sum(value(c, five_ten) for c in cards)


# --------------------------------------------------------------------------------------------------
# Independent meld validator (R500-MELD-1..4, R500-MELD-6, R500-EDGE-6)
# --------------------------------------------------------------------------------------------------


def _run_positions(ranks: list) -> Optional[list]:
    """Positions 1..14 of run ranks with the ace low (1) or high (14), never both; None if no way."""
    low = [RANKS.index(r) + 1 for r in ranks]
    high = [14 if r == "A" else RANKS.index(r) + 1 for r in ranks]
    for pos in (low, high):
        s = sorted(pos)
        if len(set(s)) == len(s) and s[-1] - s[0] == len(s) - 1:
            return s
    return None


def meld_kind(cards: Sequence[str]) -> Optional[str]:
    """"set", "run" or None for a meld given as view texts (jokers written ``Jk=<card>``).

    Set: 3 or 4 cards (jokers included) of one declared rank, the natural cards' suits all different (a joker
    in a set declares only its rank, so the suit written after its rank is not checked).
    Run: 3+ cards of one declared suit in consecutive ranks; the ace low (A-2-3) or high (Q-K-A), not both,
    no wrap-around.  A joker must carry a declared natural card; a natural card declares itself."""
    cards = list(cards)
    for c in cards:
        if is_joker(c) and "=" not in c:
            return None
        if not is_joker(c) and "=" in c:
            return None
        d = declared(c)
        if d not in ALL_CARDS:
            return None
    if len(cards) < 3:
        return None
    ranks = [rank(c) for c in cards]
    suits = [suit(c) for c in cards]
    nat_suits = [suit(c) for c in cards if not is_joker(c)]
    if len(cards) <= 4 and len(set(ranks)) == 1 and len(set(nat_suits)) == len(nat_suits):
        return "set"          # in a set a joker declares its rank only (R500-MELD-6, Ambiguity 15)
    if len(set(suits)) == 1 and len(set(ranks)) == len(ranks) and _run_positions(ranks) is not None:
        return "run"
    return None


def is_meld(cards: Sequence[str]) -> bool:
    return meld_kind(cards) is not None


def ace_is_low(meld_cards: Sequence[str], card: str) -> bool:
    """R500-SCORE-2, R500-EDGE-4/5, Ambiguity 17: a (natural) ace in a run that also holds a 2 and a 3 of its
    suit (declared ranks count, so a joker standing for the 2 or the 3 counts)."""
    if is_joker(card) or natural(card)[:-1] != "A":
        return False
    if meld_kind(meld_cards) != "run":
        return False
    ranks = {rank(c) for c in meld_cards}
    return "2" in ranks and "3" in ranks


def placed_value(meld_cards: Sequence[str], card: str, five_ten: bool = False, low_ace: int = 1,
                 joker_represented: bool = False) -> int:
    """The value a placed card scores (R500-SCORE-1..3)."""
    if is_joker(card):
        return value(declared(card), five_ten) if joker_represented else 15
    if ace_is_low(meld_cards, card):
        return low_ace
    return value(card, five_ten)


def melded_by(melds: Sequence[dict], five_ten: bool = False, **kw) -> Counter:
    """Per seat: the value of every card the seat placed (view melds with ``placed_by``), R500-LAYOFF-2."""
    out: Counter = Counter()
    for m in melds:
        for card, seat in zip(m["cards"], m["placed_by"]):
            out[seat] += placed_value(m["cards"], card, five_ten, **kw)
    return out


def hand_scores(melds: Sequence[dict], hands: Sequence[Sequence[str]], five_ten: bool = False, **kw) -> list:
    """R500-SCORE-4/5: every seat scores melded minus held."""
    got = melded_by(melds, five_ten, **kw)
    return [got[s] - total(h, five_ten) for s, h in enumerate(hands)]


# --------------------------------------------------------------------------------------------------
# Stacked decks (R500-DEAL-4/5)
# --------------------------------------------------------------------------------------------------


def dealing_order(players: int, dealer: int) -> list:
    """R500-DEAL-4/7: clockwise from the dealer's left."""
    return [(dealer + 1 + i) % players for i in range(players)]


def stack(hands: dict, upcard: str, stock_top: Sequence[str] = (), players: Optional[int] = None,
          dealer: int = 0, jokers_enabled: bool = True, decks: Optional[int] = None,
          fill: Optional[Sequence[str]] = None, size: Optional[int] = None, jokers_per_deck: int = 2) -> list:
    """A full deck, top card first: seat s gets ``hands[s]`` (seats not named get filler cards), dealt one
    card at a time from the dealer's left; then the upcard; then the stock (``stock_top`` first, its first
    card on top, then every card left, in the order of ``fill`` or the fixed order of the deck)."""
    n = players if players is not None else max(2, max(hands) + 1)
    size = hand_size(n) if size is None else size
    pool = Counter(deck_cards(n, jokers_enabled, jokers_per_deck, decks=decks))
    named = [c for h in hands.values() for c in h] + [upcard] + list(stock_top)
    need = Counter(named)
    for c, k in need.items():
        assert pool[c] >= k, f"{c} is used {k} times; the deck holds {pool[c]}"
    left = pool - need
    if fill is None:        # filler hands meld-free (JUNK first), jokers last (at the bottom of the stock)
        fill = JUNK + [c for c in ALL_CARDS if c not in JUNK]
    rest_order = list(fill)
    rest = []
    for c in rest_order:
        if left[c] > 0:
            rest.append(c)
            left[c] -= 1
    for c, k in left.items():
        rest += [c] * k
    full = {}
    for s in range(n):
        h = list(hands.get(s, []))
        assert len(h) <= size, f"seat {s} is given {len(h)} cards; a hand is {size}"
        while len(h) < size:
            h.append(rest.pop(0))
        full[s] = h
    deck = []
    order = dealing_order(n, dealer)
    for i in range(size):
        for s in order:
            deck.append(full[s][i])
    deck.append(upcard)
    deck += list(stock_top)
    deck += rest
    assert Counter(deck) == pool, "the stacked deck is not the whole deck"
    return deck


_RULES: dict = {}

REPO = Path(__file__).resolve().parents[1]
#: the variant files of rulesets/variants/ and the parameters each one sets (spec "Variants named in the source")
VARIANTS = {
    "no_jokers": {"jokers_enabled": False},
    "five_ten_fifteen": {"rank_values": "five_ten_fifteen"},
    "floating": {"going_out_requires_discard": True},
    "unplayable_final_discard": {"final_discard_must_be_unplayable": True},
}


def variant_path(name: str) -> Path:
    return REPO / "rulesets" / "variants" / f"rummy_500_{name}.yaml"


def variant_rules(name: str, overrides: Optional[dict] = None):
    key = ("variant", name, tuple(sorted((overrides or {}).items())))
    if key not in _RULES:
        _RULES[key] = rulesdsl.load(str(variant_path(name)), overrides=dict(overrides or {}))
    return _RULES[key]


def rules(overrides: Optional[dict] = None):
    key = tuple(sorted((overrides or {}).items()))
    if key not in _RULES:
        _RULES[key] = rulesdsl.load("rummy_500", overrides=dict(overrides or {}))
    return _RULES[key]


def deal(hands: dict, upcard: str, stock_top: Sequence[str] = (), players: int = 3, dealer: Optional[int] = None,
         overrides: Optional[dict] = None, seed: int = 0, fill=None, variant: Optional[str] = None):
    """A new match whose first hand is stacked (see ``stack``).  By default the dealer is the last seat, so
    seat 0 (A) receives the first card and plays first.  ``variant`` loads rulesets/variants/rummy_500_<name>.yaml
    instead of the base file with ``overrides``."""
    ov = dict(overrides or {})
    dealer = players - 1 if dealer is None else dealer
    return Match(hands, upcard, stock_top, players, dealer, ov, seed, fill, variant).game


class Match:
    """A match whose first hand is stacked, with what is needed to replay it through the public API
    (ruleset, seed, dealer, stacked deck, running totals put in place before the first hand)."""

    def __init__(self, hands: dict, upcard: str, stock_top: Sequence[str] = (), players: int = 3,
                 dealer: Optional[int] = None, overrides: Optional[dict] = None, seed: int = 0, fill=None,
                 variant: Optional[str] = None, totals: Optional[Sequence[int]] = None):
        ov = dict(overrides or {})
        self.dealer = players - 1 if dealer is None else dealer
        self.players, self.seed = players, seed
        if variant is not None:
            self.rules = variant_rules(variant, ov)
            ov = {**VARIANTS[variant], **ov}
        else:
            self.rules = rules(ov)
        self.deck = stack_for(hands, upcard, stock_top, players, self.dealer, ov, fill)
        self.totals = list(totals) if totals is not None else None
        self.game = self._fresh()

    def _fresh(self):
        g = self.rules.new_game(seed=self.seed, dealer=self.dealer, players=self.players, deck=self.deck)
        if self.totals is not None:
            set_totals(g, self.totals)
        return g

    def replay(self):
        """An independent copy of the match, rebuilt from its start and the actions played so far."""
        g = self._fresh()
        for a in self.game.history:
            g.apply(a)
        return g


def set_totals(game, totals: Sequence[int]) -> None:
    """Put running totals in place before the (stacked) first hand of a match.

    Only the first hand of a match can be stacked, so a worked example that starts from given totals
    (e.g. "A 310, B 455, C 20") writes them into ``game.scores`` before any action; the hand itself is then
    played through the engine, which adds each hand score to these totals (R500-SCORE-6)."""
    assert game.hand_number == 1 and not game.history and game.scores == [0] * len(game.scores)
    game.scores[:] = list(totals)
    assert game.view(0)["scores"] == list(totals)


def stack_for(hands: dict, upcard: str, stock_top: Sequence[str], players: int, dealer: int, ov: dict,
              fill=None) -> list:
    """``stack`` with the deck and hand size that the overrides ``ov`` give."""
    jok = ov.get("jokers_enabled", True)
    decks = {"one": 1, "two": 2}.get(ov.get("decks", "by_players"))
    return stack(hands, upcard, stock_top, players=players, dealer=dealer, jokers_enabled=jok, decks=decks,
                 fill=fill, size=hand_size(players, ov), jokers_per_deck=ov.get("jokers_per_deck", 2))


# --------------------------------------------------------------------------------------------------
# Game utilities
# --------------------------------------------------------------------------------------------------


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def n_players(game) -> int:
    return game.view(0)["players"]






def pile(game, seat: int = 0) -> list:
    """The discard pile, bottom first (R500-DEAL-6: spread, all visible)."""
    return list(game.view(seat)["zones"]["discard"].get("cards", []))


def stock_count(game) -> int:
    return game.view(0)["zones"]["stock"]["count"]


def melds(game, seat: int = 0) -> list:
    return game.view(seat)["melds"]


def meld_no(game, card: str) -> int:
    """The 1-based number (as in view()["melds"]) of the table meld holding ``card`` (a view text, or a
    natural card)."""
    for i, m in enumerate(game.view(0)["melds"], 1):
        if card in m["cards"] or card in [natural(c) for c in m["cards"]]:
            return i
    raise AssertionError(f"{card} is in no table meld: {game.view(0)['melds']}")


def drawn(game, seat: int, before: Sequence[str]) -> list:
    """The cards that entered ``seat``'s hand since ``before`` (a multiset difference)."""
    return list((Counter(game.hand_of(seat)) - Counter(before)).elements())


def phase(game) -> str:
    return game.view(0)["phase"]


def in_claim(game) -> bool:
    return phase(game) == "claim"


def pass_claims(game) -> None:
    """Every player asked in an open claim window passes."""
    while not game.is_over and in_claim(game):
        game.apply("pass")


def go(game, *actions: str) -> None:
    """Like ``act``, but any claim window open before an action is passed by everyone first."""
    for a in actions:
        pass_claims(game)
        game.apply(a)
    pass_claims(game)


def same_cards(a: str, b: str) -> bool:
    """Two meld actions with the same verb and the same cards (any order)."""
    wa, wb = a.split(), b.split()
    return wa[0] == wb[0] and sorted(wa[1:]) == sorted(wb[1:])


def meld(game, *cards: str) -> str:
    """Meld these cards (written in any order; a joker as ``Jk=<card>``): the legal action with exactly these
    cards is played.  Fails the test if there is none."""
    want = "meld " + " ".join(cards)
    found = [a for a in legal(game) if a.startswith("meld ") and same_cards(a, want)]
    assert found, f"`{want}` (in any order) is not legal; legal: {legal(game)}"
    game.apply(found[0])
    return found[0]


def lay(game, card: str, holder: str) -> None:
    """Lay ``card`` off onto the table meld holding the card ``holder``."""
    game.apply(f"layoff {card} on {meld_no(game, holder)}")


def deltas(game, fn) -> list:
    """Per-seat change of the running totals while ``fn()`` runs."""
    before = list(game.scores)
    fn()
    return [a - b for a, b in zip(game.scores, before)]


def table_after(game, action: str) -> tuple:
    """(melds, hands) as they will be once ``action`` (by the player on turn) is carried out, from the view
    data and the action text alone: a meld adds a meld placed by the actor, a layoff adds the card to meld N,
    a discard removes the card from the hand, a pass changes nothing."""
    actor = game.current_player
    ms = copy.deepcopy(game.view(0)["melds"])
    hands = [list(game.hand_of(s)) for s in range(n_players(game))]
    words = action.split()
    verb = words[0]
    if verb == "meld":
        ms.append({"owner": actor, "cards": words[1:], "placed_by": [actor] * (len(words) - 1)})
        for c in words[1:]:
            hands[actor].remove(natural(c))
    elif verb == "layoff":
        m = ms[int(words[-1]) - 1]
        m["cards"].append(words[1])
        m["placed_by"].append(actor)
        hands[actor].remove(natural(words[1]))
    elif verb == "discard":
        hands[actor].remove(words[1])
    return ms, hands


def finish(game, action: str, **score_kw) -> list:
    """Play ``action``, which must end the hand, and check every seat's score change against the spec scorer
    (``hand_scores``) applied to the final melds and hands.  Returns the score changes."""
    ms, hands = table_after(game, action)
    expected = hand_scores(ms, hands, **score_kw)
    start = game.hand_number
    got = deltas(game, lambda: game.apply(action))
    assert game.hand_number == start + 1 or game.is_over, f"`{action}` did not end the hand"
    assert got == expected, f"score changes {got}, the spec gives {expected} (melds {ms}, hands {hands})"
    return got


def end_by_stock(game, **score_kw) -> tuple:
    """Empty the stock (``drain``), then the player on turn declines the pile (``pass``), ending the hand
    (R500-OUT-2); the score changes are checked by ``finish``.  Returns (score changes, hands at the end)."""
    drain(game)
    hands = [game.hand_of(s) for s in range(n_players(game))]
    got = finish(game, "pass", **score_kw)
    return got, hands


def drain(game, upto: int = 0) -> None:
    """Every player in turn draws the top stock card and discards that same card (claim windows are passed),
    until the stock holds ``upto`` cards.  Hands do not change."""
    while stock_count(game) > upto:
        pass_claims(game)
        seat = game.current_player
        assert game.view(seat)["step"] == "draw", game.view(seat)["step"]
        before = game.hand_of(seat)
        game.apply("draw stock")
        card = drawn(game, seat, before)[0]
        game.apply(f"discard {card}")
    pass_claims(game)


def stock_out(game) -> list:
    """Empty the stock (``drain``), then the player on turn declines the pile: the hand ends (R500-OUT-2).
    Returns the hands of every seat just before the end."""
    drain(game)
    n = n_players(game)
    hands = [game.hand_of(s) for s in range(n)]
    start = game.hand_number
    game.apply("pass")
    assert game.hand_number == start + 1 or game.is_over
    return hands


def pile_game(hands: dict, pile_cards: Sequence[str], target: int, players: int = 3, stock_after=(),
              overrides: Optional[dict] = None, seed: int = 0, fill=None, variant: Optional[str] = None):
    """A stacked hand in which the discard pile is ``pile_cards`` (bottom first) and seat ``target`` is on turn
    to draw.  The pile is built by real play without changing any hand: pile_cards[0] is the upcard, and
    each of the next turns draws the next pile card from the stock and discards it at once (claim windows
    are passed).  The dealer is chosen so that ``target`` is on turn afterwards."""
    k = len(pile_cards) - 1
    first = (target - k) % players
    dealer = (first - 1) % players
    g = deal(hands, pile_cards[0], list(pile_cards[1:]) + list(stock_after), players=players, dealer=dealer,
             overrides=overrides, seed=seed, fill=fill, variant=variant)
    for c in pile_cards[1:]:
        pass_claims(g)
        g.apply("draw stock")
        g.apply(f"discard {c}")
    pass_claims(g)
    assert g.current_player == target and pile(g) == list(pile_cards), (g.current_player, pile(g))
    return g


# --------------------------------------------------------------------------------------------------
# A seeded random bot (playouts for the property tests)
# --------------------------------------------------------------------------------------------------


def bot_action(game, rng: random.Random, p_meld: float = 0.9, p_deep: float = 0.3, p_claim: float = 0.5) -> str:
    """Mostly melds and lays off when it can, sometimes takes deep or the top discard, calls Rummy with some
    probability, and otherwise plays any legal action (discards at random)."""
    acts = legal(game)
    assert acts, "a player is on turn with no legal action"
    claims = [a for a in acts if a.startswith("claim")]
    if claims:
        return rng.choice(claims) if rng.random() < p_claim else "pass"
    places = [a for a in acts if a.startswith(("meld", "layoff"))]
    if places and rng.random() < p_meld:
        return rng.choice(places)
    takes = [a for a in acts if a.startswith("take")]
    deep = [a for a in takes if len(a.split()) == 3]
    if deep and rng.random() < p_deep:
        return rng.choice(deep)
    if "draw stock" in acts and rng.random() < 0.85:
        return "draw stock"
    if "take discard" in acts and rng.random() < 0.5:
        return "take discard"
    discards = [a for a in acts if a.startswith("discard")]
    if discards:
        return rng.choice(discards)
    return rng.choice(acts)


# --------------------------------------------------------------------------------------------------
# A full-information planner for a random (unstacked) hand, through the public API only
# --------------------------------------------------------------------------------------------------


def _positions(card: str) -> list:
    r = RANKS.index(natural(card)[:-1]) + 1
    return [1, 14] if r == 1 else [r]


def candidate_melds(cards: Iterable[str], max_run: int = 5) -> list:
    """Natural-card melds among ``cards``: sets of 3 or 4 and runs of 3..max_run (spec section 3)."""
    cs = sorted({c for c in cards if not is_joker(c)})
    out = []
    by_rank: dict = {}
    for c in cs:
        by_rank.setdefault(natural(c)[:-1], []).append(c)
    for group in by_rank.values():
        for k in (3, 4):
            for combo in combinations(group, k):
                out.append(tuple(combo))
    for s in SUITS:
        at = {}
        for c in cs:
            if suit(c) == s:
                for p in _positions(c):
                    at[p] = c
        for lo in range(1, 15):
            for length in range(3, max_run + 1):
                window = [at.get(p) for p in range(lo, lo + length)]
                if None not in window and len(set(window)) == length:
                    out.append(tuple(window))
    return out


def _subset_with(items: list, k: int, target: int) -> Optional[list]:
    """``k`` of ``items`` whose values sum to ``target`` (a small DP), or None."""
    best: dict = {(0, 0): []}
    for c in items:
        v = value(c)
        for (n, t), chosen in list(best.items()):
            key = (n + 1, t + v)
            if n < k and t + v <= target and key not in best:
                best[key] = chosen + [c]
    return best.get((k, target))


def plan_cards(seen: Sequence[str], size: int, target: int) -> Optional[tuple]:
    """(melds, held): up to two disjoint melds and ``size`` - (melded) held cards, all from ``seen``, such that
    melded value minus held value is ``target`` (spec scoring)."""
    cands = candidate_melds(seen)
    options = [()] + [(m,) for m in cands] + [(a, b) for a, b in combinations(cands, 2) if not set(a) & set(b)]
    options.sort(key=len)
    for ms in options:
        used = [c for m in ms for c in m]
        if len(used) > size:
            continue
        mval = sum(placed_value(list(m), c) for m in ms for c in m)
        rest = list((Counter(seen) - Counter(used)).elements())
        held = _subset_with(rest, size - len(used), mval - target)
        if held is not None:
            return [list(m) for m in ms], held
    return None


def place_meld(game, cards: Sequence[str]) -> None:
    """Put a natural meld of any size on the table: its lowest three cards as a new meld (a set: any three),
    then the others laid off one by one."""
    cards = list(cards)
    if meld_kind(cards) == "run":
        low = "A" in [natural(c)[:-1] for c in cards] and "2" in [natural(c)[:-1] for c in cards]
        cards.sort(key=lambda c: _positions(c)[0] if low else _positions(c)[-1])
    meld(game, *cards[:3])
    for c in cards[3:]:
        lay(game, c, cards[0])


def steer_stock_out(match: "Match", targets: dict) -> Optional[list]:
    """Play the current hand of ``match`` (random or stacked) so that each seat in ``targets`` scores exactly
    its target, and end it by the stock running out (R500-OUT-2).  A replayed copy of the match is drained
    to learn the stock order; each targeted seat then keeps the cards of its plan (discarding others), melds
    on its last turn and discards its one spare card; other seats draw and discard.  Returns the score
    changes (checked by ``finish``), or None (nothing played) when no plan exists for this deal."""
    g = match.game
    probe = match.replay()
    n = n_players(probe)
    start = [probe.hand_of(s) for s in range(n)]
    draws = []
    while stock_count(probe) > 0:
        pass_claims(probe)
        seat = probe.current_player
        before = probe.hand_of(seat)
        probe.apply("draw stock")
        card = drawn(probe, seat, before)[0]
        draws.append((seat, card))
        probe.apply(f"discard {card}")
    last = {s: max(i for i, (x, _) in enumerate(draws) if x == s) for s in targets}
    plans = {}
    for s, t in targets.items():
        seen = start[s] + [c for x, c in draws if x == s]
        plan = plan_cards(seen, len(start[s]), t)
        if plan is None:
            return None
        plans[s] = plan
    for i, (seat, card) in enumerate(draws):
        pass_claims(g)
        assert g.current_player == seat
        g.apply("draw stock")
        if seat not in plans:
            g.apply(f"discard {card}")
            continue
        ms, held = plans[seat]
        keep = Counter([c for m in ms for c in m] + held)
        spare = list((Counter(g.hand_of(seat)) - keep).elements())
        if i == last[seat]:
            for m in ms:
                place_meld(g, m)
            spare = list((Counter(g.hand_of(seat)) - Counter(held)).elements())
            assert len(spare) == 1, spare
        g.apply(f"discard {card if card in spare else spare[0]}")
    pass_claims(g)
    got = finish(g, "pass")
    for s, t in targets.items():
        assert got[s] == t, (got, targets)
    return got


# --------------------------------------------------------------------------------------------------
# Independent "could this card be melded" oracle (R500-TURN-5, R500-CALL-1, R500-LAYOFF-3)
# --------------------------------------------------------------------------------------------------


def fits(card: str, meld_cards: Sequence[str]) -> bool:
    """Whether ``card`` can be added to the meld (a joker: under some declaration), R500-LAYOFF-3/4/6."""
    if is_joker(card):
        return any(is_meld(list(meld_cards) + [f"{JOKER}={d}"]) for d in ALL_CARDS)
    return is_meld(list(meld_cards) + [card])


def _pos_set(card: str) -> list:
    return _positions(card)


def meld_of_three(card: str, pool: Sequence[str]) -> bool:
    """Whether ``card`` and two cards of ``pool`` (jokers declared at will) form a meld (spec section 3)."""
    pool = list(pool)
    nj = sum(1 for c in pool if is_joker(c))
    nat = [c for c in pool if not is_joker(c)]
    if is_joker(card):
        if nj >= 1 and (nat or nj >= 2):
            return True
        for x, y in combinations(nat, 2):
            if meld_of_three(x, [y, JOKER]):
                return True
        return False
    r, s = natural(card)[:-1], natural(card)[-1]
    if nj >= 2:
        return True
    same_rank = {natural(c)[-1] for c in nat if natural(c)[:-1] == r and natural(c)[-1] != s}
    if len(same_rank) >= 2 - nj:
        return True
    have = {p for c in nat if natural(c)[-1] == s and natural(c) != natural(card) for p in _pos_set(c)}
    for p in _pos_set(card):
        for lo in range(max(1, p - 2), min(p, 12) + 1):
            others = [q for q in range(lo, lo + 3) if q != p]
            if sum(1 for q in others if q in have) >= 2 - nj:
                return True
    return False
