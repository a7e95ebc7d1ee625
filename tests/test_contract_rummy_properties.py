"""Hypothesis properties of Contract Rummy played through the public API.

Random playouts run with 3 to 8 players over the base ruleset and every shipped variant, starting at a
random deal (1 to 7: the deals before it end at once, ``reach_deal``, and the chosen deal is a random
shuffle).  A seeded random player goes down whenever a contract meld is offered, lays off often, takes the
upcard now and then and buys now and then.  Each example is bounded to a few hundred actions.
Expectations come from the rules as seeds/contract_rummy.md states them:

* every card of the pack is somewhere after every action: hands, table melds, the discard pile (followed
  action by action) and the stock (the rest, whose size the view gives);
* while the match is not over, the player who must act has a legal action;
* an illegal action raises IllegalAction and changes nothing (``common.snapshot``);
* a seat's view shows its own hand and no other, nothing of the stock but its size, the pile's top only;
* before a player is down, every listed meld is a minimum-size meld of a type the contract still needs;
  when the hand holds no wild card the listed melds are exactly those of ``contract_options``; after the
  first contract meld no discard is listed until the contract is complete; no layoff before going down;
* a buy window opens only after a stock draw that follows a discard, and asks exactly the seats the rules
  name, in turn from the drawer (CR-BUY-2/5/6/7).
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl import IllegalAction

from contract_rummy_helpers import (CONTRACTS, DEFAULTS, JOKER, QUICK_OUT, VARIANT_PARAMS, VARIANTS,
                                    contract_options, dealer_of, full_deck, is_min_meld, legal, listed,
                                    listed_melds, meld_kind, phase, pile_count, quick_deck, rank, rules,
                                    snapshot, stack, stock_count, top)

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 300

variants = st.sampled_from(sorted(VARIANTS))
players = st.sampled_from([3, 4, 4, 5, 8])
deals = st.integers(min_value=1, max_value=7)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def start(variant: str, n: int, deal: int, seed: int):
    """A match at the start of ``deal`` (a random shuffle), the deals before it ended at once."""
    rng = random.Random(seed)
    first_dealer = rng.randrange(n)
    decks = [quick_deck(k, n, dealer_of(k, n, first_dealer)) for k in range(1, deal)]
    pack = full_deck(n)
    rng.shuffle(pack)
    decks.append(stack({}, n, dealer_of(deal, n, first_dealer), deal=deal, fill=pack))
    g = rules(variant).new_game(players=n, seed=seed, dealer=first_dealer, deck=decks[0], decks=decks[1:])
    for k in range(1, deal):
        g.apply("draw stock")
        for a in QUICK_OUT[k][2]:
            g.apply(a)
        assert g.hand_number == k + 1
    return g


def choose(g, rng: random.Random) -> str:
    acts = legal(g)
    if acts == ["claim discard 1", "pass"]:
        return acts[0] if rng.random() < 0.3 else "pass"
    if "draw stock" in acts:
        return "take discard" if "take discard" in acts and rng.random() < 0.2 else "draw stock"
    melds = [a for a in acts if a.startswith("meld")]
    if melds and rng.random() < 0.9:
        return rng.choice(melds)
    lays = [a for a in acts if a.startswith("layoff")]
    if lays and rng.random() < 0.7:
        return rng.choice(lays)
    return rng.choice(acts)


def params(variant: str) -> dict:
    """The rules in force, from this page's variant rows (not read back from the ruleset)."""
    return {**DEFAULTS, **VARIANT_PARAMS[variant]}


def is_wild(card: str, p: dict) -> bool:
    return card == JOKER or (p["deuces_wild"] and rank(card) == "2")


def table_cards(g) -> Counter:
    return Counter(w.split("=")[0] for m in g.view(0)["melds"] for w in m["cards"])


class Follow:
    """What the rules say the public record implies, followed action by action: the discard pile's cards,
    who is down, and buys per seat this deal."""

    def __init__(self, g, p: dict):
        self.p = p
        self.n = g.view(0)["players"]
        self.new_deal(g)

    def new_deal(self, g) -> None:
        self.deal = g.hand_number
        self.pile = [top(g)]
        self.buys = [0] * self.n
        self.last = None                          # the last action of this deal: (verb, seat)

    def down(self, g, seat: int) -> bool:
        owned = sum(1 for m in g.view(0)["melds"] if m["owner"] == seat)
        return owned >= len(CONTRACTS[g.hand_number - 1])

    def expected_buyers(self, g, drawer: int, discarder: int) -> list:
        """CR-BUY-2/5/6/7: after ``drawer`` drew from the stock, the seats asked in turn."""
        out, s = [], drawer
        for _ in range(self.n - 1):
            s = (s + 1) % self.n
            if s == discarder:
                continue
            if self.down(g, s) and not self.p["buy_after_down"]:
                continue
            if self.p["max_buys"] and self.buys[s] >= self.p["max_buys"]:
                continue
            if stock_count(g) < self.p["buy_penalty"]:
                continue
            out.append(s)
        return out

    def after(self, g, seat: int, action: str) -> None:
        """Update the pile after ``seat`` did ``action``."""
        if g.is_over:
            return
        if g.hand_number != self.deal:
            self.new_deal(g)
            return
        verb = action.split()[0]
        if verb == "discard":
            self.pile.append(action.split()[1])
            if pile_count(g) == 1 and len(self.pile) > 1:        # CR-TURN-3: the rest became the stock
                self.pile = self.pile[-1:]
        elif verb in ("take", "claim"):
            self.pile.pop()
        if verb == "claim":
            self.buys[seat] += 1
        self.last = (verb, seat)


def check_conservation(g, f: Follow, n: int) -> None:
    hands = Counter()
    for s in range(n):
        hands.update(g.hand_of(s))
    known = hands + table_cards(g) + Counter(f.pile)
    pack = Counter(full_deck(n))
    assert not (known - pack), f"cards beyond the pack: {known - pack}"
    assert sum(known.values()) + stock_count(g) == len(full_deck(n)) == g.cards_in_play
    assert pile_count(g) == len(f.pile) and (not f.pile or top(g) == f.pile[-1])


@given(variant=variants, n=players, deal=deals, seed=seeds, bot=seeds)
@FAST
def test_cards_are_conserved_after_every_action(variant, n, deal, seed, bot):
    g = start(variant, n, deal, seed)
    f = Follow(g, params(variant))
    rng = random.Random(bot)
    check_conservation(g, f, n)
    for _ in range(MAX_ACTIONS):
        if g.is_over:
            break
        seat, a = g.current_player, choose(g, rng)
        g.apply(a)
        f.after(g, seat, g.history[-1])
        if not g.is_over:
            check_conservation(g, f, n)


@given(variant=variants, n=players, deal=deals, seed=seeds, bot=seeds)
@FAST
def test_a_legal_action_always_exists_until_the_match_is_over(variant, n, deal, seed, bot):
    g = start(variant, n, deal, seed)
    rng = random.Random(bot)
    for _ in range(MAX_ACTIONS):
        if g.is_over:
            assert g.legal_actions() == [] and g.current_player is None
            break
        assert g.current_player is not None and g.legal_actions()
        g.apply(choose(g, rng))


def illegal_candidates(g, rng: random.Random) -> list:
    """Texts that must be refused now (must_fail True), and random texts (either way)."""
    n = g.view(0)["players"]
    me = g.current_player
    mine = Counter(g.hand_of(me))
    pack = sorted(set(full_deck(n)))
    absent = [c for c in pack if c not in mine]
    acts = set(legal(g))
    cands = []
    for c in rng.sample(absent, min(3, len(absent))):
        cands.append((f"discard {c}", True))                  # a card the player does not hold
    cands.append((f"layoff {next(iter(mine))} on 99", True))   # no such meld
    for text in ("claim discard 1", "take discard", "draw stock", "pass", "meld 7S 8H 9D"):
        if text not in acts:
            cands.append((text, True))
    cands += [("discard", True), ("meld", True), ("draw", True), ("hello", True), ("", True)]
    return cands


@given(variant=variants, n=players, deal=deals, seed=seeds, bot=seeds, steps=st.integers(0, 200))
@FAST
def test_an_illegal_action_raises_and_changes_nothing(variant, n, deal, seed, bot, steps):
    g = start(variant, n, deal, seed)
    rng = random.Random(bot)
    for _ in range(steps):
        if g.is_over:
            return
        g.apply(choose(g, rng))
    if g.is_over:
        return
    for text, must_fail in illegal_candidates(g, rng):
        before = snapshot(g)
        try:
            g.apply(text)
        except IllegalAction:
            assert snapshot(g) == before, f"rejected `{text}` changed the state"
            continue
        assert not must_fail, f"`{text}` was accepted"


@given(variant=variants, n=players, deal=deals, seed=seeds, bot=seeds)
@FAST
def test_a_view_never_shows_another_seats_hand_or_the_stock(variant, n, deal, seed, bot):
    g = start(variant, n, deal, seed)
    rng = random.Random(bot)
    for i in range(MAX_ACTIONS):
        if g.is_over:
            break
        if i % 7 == 0:
            for s in range(n):
                v = g.view(s)
                hands = v["zones"]["hand"]
                for t in range(n):
                    if t == s:
                        assert Counter(hands[t]["cards"]) == Counter(g.hand_of(s))
                    else:
                        assert set(hands[t]) == {"count"} and hands[t]["count"] == len(g.hand_of(t))
                assert set(v["zones"]["stock"]) == {"count"}
                assert set(v["zones"]["discard"]) <= {"count", "top"}
                assert "counters" not in v
        g.apply(choose(g, rng))


def check_melds_listed(g, p: dict) -> None:
    """Before going down: only needed types at minimum size, exactly the oracle's for natural hands; no
    discard part-way; no layoff.  Once down: no meld."""
    me = g.current_player
    contract = CONTRACTS[g.hand_number - 1]
    own = [m["kind"] for m in g.view(0)["melds"] if m["owner"] == me]
    melds = listed(g, "meld")
    if len(own) >= len(contract):                               # down (CR-DOWN-3)
        assert melds == []
        return
    needs = list(contract)
    for k in own:
        needs.remove(k)                                          # only contract types were placed
    for a in melds:
        kind, stood = meld_kind(a)
        assert kind in needs, (a, needs)
        assert is_min_meld(kind, stood), a
        assert any(not is_wild(w.split("=")[0], p) for w in a.split()[1:]), a    # a natural card
    hand = g.hand_of(me)
    if not any(is_wild(c, p) for c in hand):
        assert listed_melds(g) == contract_options(hand, needs), (sorted(hand), needs)
    if own:                                                      # part-way: the turn cannot end
        assert listed(g, "discard") == []
    assert listed(g, "layoff") == []


@given(variant=variants, n=players, deal=deals, seed=seeds, bot=seeds)
@FAST
def test_listed_melds_are_the_contracts_still_needed_types(variant, n, deal, seed, bot):
    g = start(variant, n, deal, seed)
    p = params(variant)
    rng = random.Random(bot)
    checked = 0
    for _ in range(MAX_ACTIONS):
        if g.is_over:
            break
        if phase(g) == "turn" and g.view(0)["step"] != "draw":
            check_melds_listed(g, p)
            checked += 1
        g.apply(choose(g, rng))
    assert checked > 0 or g.is_over


@given(variant=variants, n=players, deal=deals, seed=seeds, bot=seeds)
@FAST
def test_buy_windows_ask_exactly_the_seats_the_rules_name(variant, n, deal, seed, bot):
    g = start(variant, n, deal, seed)
    p = params(variant)
    f = Follow(g, p)
    rng = random.Random(bot)
    for _ in range(MAX_ACTIONS):
        if g.is_over:
            break
        seat = g.current_player
        a = choose(g, rng)
        last = f.last
        deal_before = g.hand_number
        g.apply(a)
        if a == "draw stock" and g.hand_number == deal_before:
            after_discard = last is not None and last[0] == "discard"
            expected = f.expected_buyers(g, seat, last[1]) if after_discard else []
            asked = []
            while phase(g) == "claim":
                s = g.current_player
                asked.append(s)
                assert g.view(s)["claim"]["kind"] == "buy" and legal(g) == ["claim discard 1", "pass"]
                b = "claim discard 1" if rng.random() < 0.3 else "pass"
                g.apply(b)
                if b != "pass":
                    f.buys[s] += 1
                    f.pile.pop()
                    break
            assert asked == expected[:len(asked)], (asked, expected)
            if not asked or g.history[-1] == "pass":
                assert asked == expected, (asked, expected)
            assert g.current_player == seat and phase(g) == "turn"
            f.last = ("draw", seat)
        else:
            f.after(g, seat, g.history[-1])
