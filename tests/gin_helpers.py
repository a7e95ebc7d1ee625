"""Shared helpers for the Gin Rummy acceptance tests (tests/test_gin_*.py).

Everything here is written from the spec (shared/spec/gin_rummy.md), not from the engine:

* card notation and values (GIN-SCORE-1), meld definitions (GIN-MELD-1..4),
* an independent brute-force oracle for minimum deadwood and for the defender's best layoffs
  (GIN-MELD-5/6, GIN-LAYOFF-2/3/6), used to derive expected figures,
* ``stack()``: a full 52-card deck, top card first, for the documented deal order,
* small game utilities (``deal``, ``act``, ``snapshot``, ``assert_illegal``, ``meld_no``),
* a seeded greedy bot and a full-information planner that drives *random* (unstacked) hands of a match
  to a wanted outcome through the public API only (used where a spec example needs a match state that a
  single stacked hand cannot give).
"""

from __future__ import annotations

import copy
import random
from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterable, Optional, Sequence

import pytest

import rulesdsl
from rulesdsl import IllegalAction
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

# --------------------------------------------------------------------------------------------------
# Cards (spec: "Card notation", GIN-SCORE-1)
# --------------------------------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
ALL_CARDS = [r + s for s in SUITS for r in RANKS]


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def rank_index(card: str) -> int:
    """Ace low: A=0 .. K=12 (GIN-MELD-2)."""
    return RANKS.index(rank(card))


def value(card: str) -> int:
    """GIN-SCORE-1: K, Q, J = 10; 2-10 face value; A = 1."""
    return min(rank_index(card) + 1, 10)


def total(cards: Iterable[str]) -> int:
    return sum(value(c) for c in cards)


# --------------------------------------------------------------------------------------------------
# Independent meld / deadwood / layoff oracle (brute force over the spec's definitions)
# --------------------------------------------------------------------------------------------------


def is_run(cards: Iterable[str]) -> bool:
    """GIN-MELD-1/2: 3+ cards, one suit, consecutive ranks, ace low only, no wrap-around."""
    cards = list(cards)
    if len(cards) < 3 or len({suit(c) for c in cards}) != 1:
        return False
    idx = sorted(rank_index(c) for c in cards)
    return len(set(idx)) == len(idx) and idx[-1] - idx[0] == len(idx) - 1


def is_set(cards: Iterable[str]) -> bool:
    """GIN-MELD-3: 3 or 4 cards of one rank (one deck: distinct suits)."""
    cards = list(cards)
    return 3 <= len(cards) <= 4 and len({rank(c) for c in cards}) == 1 and len(set(cards)) == len(cards)


def is_meld(cards: Iterable[str]) -> bool:
    cards = list(cards)
    return is_run(cards) or is_set(cards)


def melds_in(cards: Iterable[str]) -> list:
    """Every meld (as a frozenset) made only of the given cards."""
    cards = sorted(set(cards), key=ALL_CARDS.index)
    out = []
    by_suit: dict = {}
    by_rank: dict = {}
    for c in cards:
        by_suit.setdefault(suit(c), []).append(c)
        by_rank.setdefault(rank(c), []).append(c)
    for group in by_suit.values():
        group = sorted(group, key=rank_index)
        for i in range(len(group)):
            for j in range(i + 3, len(group) + 1):
                if is_run(group[i:j]):
                    out.append(frozenset(group[i:j]))
    for group in by_rank.values():
        for k in (3, 4):
            for combo in combinations(group, k):
                out.append(frozenset(combo))
    return out


@lru_cache(maxsize=200_000)
def _arrangements(cards: frozenset) -> tuple:
    """(min deadwood, every optimal partition as a frozenset of melds)."""
    melds = melds_in(cards)
    best = [total(cards), {frozenset()}]

    def rec(start: int, used: frozenset, chosen: tuple) -> None:
        dw = total(cards - used)
        if dw < best[0]:
            best[0], best[1] = dw, {frozenset(chosen)}
        elif dw == best[0]:
            best[1].add(frozenset(chosen))
        for i in range(start, len(melds)):
            m = melds[i]
            if not (m & used):
                rec(i + 1, used | m, chosen + (m,))

    rec(0, frozenset(), ())
    return best[0], tuple(best[1])


def deadwood(cards: Iterable[str]) -> int:
    """GIN-MELD-5/6: the minimum deadwood total over all arrangements (each card in one meld)."""
    return _arrangements(frozenset(cards))[0]


def optimal_partitions(cards: Iterable[str]) -> tuple:
    return _arrangements(frozenset(cards))[1]


def fits(card: str, meld: Iterable[str]) -> bool:
    """GIN-LAYOFF-2: the card extends a run at either end, or makes a 3-card set a 4-card set."""
    meld = set(meld)
    return card not in meld and is_meld(meld | {card})


@lru_cache(maxsize=200_000)
def _after_layoffs(hand: frozenset, melds: tuple) -> int:
    best = deadwood(hand)
    for c in hand:
        for i, m in enumerate(melds):
            if fits(c, m):
                grown = melds[:i] + (m | {c},) + melds[i + 1:]
                best = min(best, _after_layoffs(hand - {c}, tuple(sorted(grown, key=sorted))))
    return best


def deadwood_after_layoffs(hand: Iterable[str], knocker_melds: Iterable[Iterable[str]]) -> int:
    """GIN-LAYOFF-6: the defender's least deadwood over all layoff choices (chains allowed) and
    arrangements of the rest."""
    melds = tuple(sorted((frozenset(m) for m in knocker_melds), key=sorted))
    return _after_layoffs(frozenset(hand), melds)


def knock_outcome(knocker10: Iterable[str], defender10: Iterable[str], gin_bonus=25, undercut_bonus=25):
    """Spec scoring of a go-out (GIN-SCORE-2..5, GIN-EDGE-5/6) from the knocker's 10 cards after the
    face-down discard, as a dict with ending, knocker_dw, defender_dw, scorer ('knocker'/'defender'),
    points.  When several arrangements give the knocker the same least deadwood, the knocker lays out
    the one that leaves the defender the most deadwood after layoffs (GIN-LAYOFF-7)."""
    kdw = deadwood(knocker10)
    if kdw == 0:
        ddw = deadwood(defender10)
        return dict(ending="gin", knocker_dw=0, defender_dw=ddw, scorer="knocker", points=gin_bonus + ddw)
    ddw = max(deadwood_after_layoffs(defender10, part) for part in optimal_partitions(knocker10))
    if ddw <= kdw:
        return dict(ending="knock", knocker_dw=kdw, defender_dw=ddw, scorer="defender",
                    points=kdw - ddw + undercut_bonus)
    return dict(ending="knock", knocker_dw=kdw, defender_dw=ddw, scorer="knocker", points=ddw - kdw)


MELD_FREE_POOL = [r + s for s in "SD" for r in ["K", "J", "9", "7", "5", "3", "A"]] + \
                 [r + s for s in "HC" for r in ["Q", "10", "8", "6", "4", "2"]]


def meld_free_choices(target: int, exclude, n: int = 10):
    """Every choice of ``n`` cards with no possible meld among them (alternating ranks per suit, at most
    two of a rank) whose values sum to ``target``, avoiding ``exclude``."""
    pool = sorted((c for c in MELD_FREE_POOL if c not in set(exclude)), key=value, reverse=True)

    def rec(i, left, k, chosen):
        if k == 0:
            if left == 0:
                yield chosen
            return
        if len(pool) - i < k or left < k:
            return
        yield from rec(i + 1, left - value(pool[i]), k - 1, chosen + [pool[i]])
        yield from rec(i + 1, left, k, chosen)

    yield from rec(0, target, n, [])


def defender_with(dw: int, exclude) -> list:
    """Ten cards whose deadwood is exactly ``dw`` (some melds, the rest meld-free), avoiding ``exclude``."""
    blocks = [["2H", "3H", "4H"], ["8S", "8D", "8C"], ["5C", "6C", "7C"], ["JH", "QH", "KH"]]
    blocks = [b for b in blocks if not set(b) & set(exclude)]
    for k in range(len(blocks) + 1):
        used = [c for b in blocks[:k] for c in b]
        if len(used) > 10:
            break
        for free in meld_free_choices(dw, list(exclude) + used, n=10 - len(used)):
            if deadwood(used + free) == dw:
                return used + free
    raise AssertionError(f"no defender hand with deadwood {dw}")


# --------------------------------------------------------------------------------------------------
# Decks and games
# --------------------------------------------------------------------------------------------------


def stack(non_dealer_hand: Sequence[str], dealer_hand: Sequence[str], upcard: str,
          stock_top: Sequence[str] = ()) -> list:
    """A full 52-card deck, top card first, for the documented deal order (GIN-DEAL-3/4):
    deck[0] -> non-dealer, deck[1] -> dealer, ... (20 cards), deck[20] = upcard, deck[21:] = stock
    (``stock_top`` first, then every remaining card in the fixed order of ALL_CARDS)."""
    nd, d = list(non_dealer_hand), list(dealer_hand)
    assert len(nd) == 10 and len(d) == 10, (len(nd), len(d))
    deck: list = []
    for a, b in zip(nd, d):
        deck += [a, b]
    deck.append(upcard)
    deck += list(stock_top)
    for c in deck:
        assert c in ALL_CARDS, c
    assert len(set(deck)) == len(deck), f"duplicate cards in the stacked deck: {deck}"
    deck += [c for c in ALL_CARDS if c not in set(deck)]
    assert len(deck) == 52
    return deck


_RULES: dict = {}


def rules(overrides: Optional[dict] = None):
    key = tuple(sorted((overrides or {}).items()))
    if key not in _RULES:
        _RULES[key] = rulesdsl.load("gin_rummy", overrides=dict(overrides or {}))
    return _RULES[key]


def deal(non_dealer_hand, dealer_hand, upcard, stock_top=(), overrides=None, dealer=0, seed=0):
    """A new match whose first hand is stacked as described (see ``stack``)."""
    return rules(overrides).new_game(seed=seed, dealer=dealer,
                                     deck=stack(non_dealer_hand, dealer_hand, upcard, stock_top))


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]






def visible_cards(view) -> set:
    """Every card text that appears anywhere in a view (a JSON-like structure)."""
    found = set()

    def walk(x):
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            for word in x.split():
                if word in ALL_CARDS:
                    found.add(word)

    walk(view)
    return found


def meld_no(game, card: str) -> int:
    """The 1-based number (as in view()["melds"]) of the table meld holding ``card``."""
    for i, m in enumerate(game.view(0)["melds"], 1):
        if card in m["cards"]:
            return i
    raise AssertionError(f"{card} is in no table meld: {game.view(0)['melds']}")


def other(seat: int) -> int:
    return 1 - seat


def drawn_card(game, before_hand: Sequence[str]) -> str:
    seat = game.current_player
    new = set(game.hand_of(seat)) - set(before_hand)
    assert len(new) == 1, new
    return new.pop()


def play_to_void(game) -> list:
    """From the start of a hand: both players pass the upcard, then every turn draws from the stock and
    discards the drawn card, until the hand ends.  Returns the stock cards drawn, in order."""
    start = game.hand_number
    drawn = []
    act(game, "pass", "pass")
    while game.hand_number == start and not game.is_over:
        seat = game.current_player
        before = game.hand_of(seat)
        game.apply("draw stock")
        c = drawn_card(game, before)
        drawn.append(c)
        game.apply(f"discard {c}")
    return drawn


# --------------------------------------------------------------------------------------------------
# A seeded greedy bot (random playouts that still end hands by knocking often)
# --------------------------------------------------------------------------------------------------


def bot_action(game, rng: random.Random, go_out: float = 0.8, greedy: float = 0.8) -> str:
    """A seeded, mostly greedy player: goes out when it may (probability ``go_out``), otherwise keeps the
    cards that minimise its deadwood; with probability 1 - ``greedy`` it plays any legal action."""
    acts = legal(game)
    outs = [a for a in acts if a.split()[0] in ("gin", "knock", "big_gin")]
    if outs and rng.random() < go_out:
        return rng.choice(outs)
    if rng.random() >= greedy:
        return rng.choice(acts)
    if "done" in acts:
        return "done"
    seat = game.current_player
    hand = game.hand_of(seat)
    discards = [a for a in acts if a.startswith("discard ")]
    if discards:
        return min(discards, key=lambda a: (deadwood(set(hand) - {a.split()[1]}), rng.random()))
    top = game.view(seat)["zones"]["discard"].get("top")
    if "take discard" in acts and top:
        best = min(deadwood(set(hand + [top]) - {c}) for c in hand)
        if best < deadwood(hand) or "pass" not in acts and "draw stock" not in acts:
            return "take discard"
    for a in ("draw stock", "pass"):
        if a in acts:
            return a
    return rng.choice(acts)


# --------------------------------------------------------------------------------------------------
# Full-information planner for random hands (public API only)
# --------------------------------------------------------------------------------------------------


class Match:
    """A match plus what is needed to replay it (seed, dealer, stacked first deck, overrides)."""

    def __init__(self, overrides=None, seed=0, dealer=0, deck=None):
        self.overrides = dict(overrides or {})
        self.seed, self.dealer, self.deck = seed, dealer, deck
        self.game = self._fresh()

    def _fresh(self):
        return rules(self.overrides).new_game(seed=self.seed, dealer=self.dealer, deck=self.deck)

    def replay(self):
        """An independent copy of the match, rebuilt from seed + actions (GIN determinism)."""
        g = self._fresh()
        for a in self.game.history:
            g.apply(a)
        return g


def probe_deal(match: Match) -> dict:
    """What a full-information planner knows about the current (unstarted) hand: both hands, the upcard,
    the dealer, and the stock order -- read on a replayed copy by drawing every stock card."""
    g = match.replay()
    v = g.view(0)
    assert v["phase"] == "offer", v["phase"]
    info = dict(dealer=v["dealer"], hands=[g.hand_of(0), g.hand_of(1)], upcard=v["zones"]["discard"]["top"])
    info["stock"] = play_to_void(g)
    return info


def plan_hand(info: dict, want: Callable[[dict], bool], winner: int, rng: random.Random,
              playouts: int = 60, w_target: int = 0, l_target: Optional[int] = None,
              knock_limit: int = 10) -> Optional[list]:
    """Search seeded randomised greedy playouts of the probed hand for an action sequence after which the
    spec's scoring gives an outcome accepted by ``want``.  ``winner`` is the seat steered towards going
    out (towards deadwood ``w_target``); the other seat steers its deadwood towards ``l_target``.
    The outcome dict passed to ``want``: ending, declarer, scorer (seats), points, deadwood [seat0, seat1].
    Returns the action texts (both players, from the first-turn offer to the end of the hand)."""
    loser = other(winner)
    for _ in range(playouts):
        hands = [set(info["hands"][0]), set(info["hands"][1])]
        pile = [info["upcard"]]
        stock = list(info["stock"])
        actions: list = []
        seat = other(info["dealer"])
        first = True
        noise = rng.uniform(0.0, 0.6)
        lt = l_target if l_target is not None else rng.randint(5, 40)

        def score_hand(s: int, hand: set) -> float:
            dw = deadwood(hand)
            target = w_target if s == winner else lt
            return abs(dw - target) + (rng.random() * 8 if rng.random() < noise else rng.random() * 0.1)

        # first-turn offer: decide for both players whether to take the upcard
        offer_taken = None
        for s in (seat, other(seat)):
            up = pile[-1]
            if rng.random() < 0.5 and deadwood(hands[s] | {up}) < deadwood(hands[s]) + value(up) - 2:
                offer_taken = s
                break
            actions.append("pass")
        turn_seat = seat if offer_taken is None else offer_taken
        forced = offer_taken is None
        ok = False
        for _turn in range(80):
            s = turn_seat
            hand = hands[s]
            taken = None
            if first and offer_taken is not None:
                taken = pile.pop()
                hand.add(taken)
                actions.append("take discard")
            else:
                top = pile[-1] if pile else None
                take = False
                if not forced and top is not None:
                    gain = min(score_hand(s, hand | {top} - {c}) for c in hand)
                    take = gain < score_hand(s, hand) - 0.5 and rng.random() < 0.9
                if take:
                    taken = pile.pop()
                    hand.add(taken)
                    actions.append("take discard")
                else:
                    if not stock:
                        break
                    hand.add(stock.pop(0))
                    actions.append("draw stock")
            first = False
            forced = False
            # go-out options of either player, judged by the spec scoring oracle
            outcome = None
            for c in sorted(hand):
                if c == taken:                 # GIN-TURN-7: never the card just taken from the pile
                    continue
                rest = hand - {c}
                dw = deadwood(rest)
                if dw > knock_limit:
                    continue
                res = knock_outcome(rest, hands[other(s)])
                if res is None:
                    continue
                scorer = s if res["scorer"] == "knocker" else other(s)
                dws = [0, 0]
                dws[s], dws[other(s)] = res["knocker_dw"], res["defender_dw"]
                out = dict(ending=res["ending"], declarer=s, scorer=scorer, points=res["points"],
                           deadwood=dws, discard=c)
                if want(out):
                    outcome = out
                    break
            if outcome is not None:
                verb = "gin" if outcome["ending"] == "gin" else "knock"
                actions.append(f"{verb} {outcome['discard']}")
                if verb == "knock":
                    actions.append("done")
                return actions, outcome
            choices = [c for c in sorted(hand) if c != taken]
            c = min(choices, key=lambda x: score_hand(s, hand - {x}))
            hand.discard(c)
            pile.append(c)
            actions.append(f"discard {c}")
            if len(stock) == 0:
                break                      # the engine voids the hand here (stock at the floor)
            turn_seat = other(s)
    return None


def steer_hand(match: Match, want: Callable[[dict], bool], winner: int, rng: random.Random,
               max_deals: int = 60, **plan_kw) -> dict:
    """Play the current hand of ``match`` to an outcome accepted by ``want``: probe the deal, plan with
    the spec oracle, and play the plan; when no plan is found the players void the hand (both just draw
    and discard until the stock floor), which redeals with the same dealer, and the search goes on.
    Checks that the engine's hand record agrees with the oracle's predicted outcome and returns it."""
    g = match.game
    for _ in range(max_deals):
        info = probe_deal(match)
        found = plan_hand(info, want, winner, rng, **plan_kw)
        if found is None:
            scores, won = list(g.scores), list(g.hands_won)
            play_to_void(g)
            assert g.hand_log[-1]["ending"] == "void"
            assert (g.scores, g.hands_won) == (scores, won)
            continue
        actions, outcome = found
        n = len(g.hand_log)
        act(g, *actions)
        rec = g.hand_log[n]
        assert rec["ending"] == outcome["ending"], (rec, outcome)
        assert rec["declarer"] == outcome["declarer"], (rec, outcome)
        assert rec["scorer"] == outcome["scorer"], (rec, outcome)
        assert rec["points"] == outcome["points"], (rec, outcome)
        assert list(rec["deadwood"]) == outcome["deadwood"], (rec, outcome)
        return outcome
    raise AssertionError(f"no deal in {max_deals} allowed the wanted outcome")
