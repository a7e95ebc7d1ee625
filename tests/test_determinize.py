"""``Game.determinize(seat, rng)``: hidden cards dealt again, consistently with what the seat has seen.

Properties over every bundled game and variant: the copy holds every card once, the seat's own view
is unchanged, the original is untouched, the copy plays on; the copy depends only on what the seat
knows (determinizing a determinized world gives the same world); and over many samples each hidden
card lands in each place as often as that place's share of the hidden slots.  Worked cases: a card an
opponent took from the discard pile stays in that opponent's hand; the discard pile below its top
keeps its order; cards given in an exchange stay with the receiver.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.engine import state
from rulesdsl.engine.determinize import _deal, _placeable
from rulesdsl.engine.visibility import containers
from rulesdsl.source.resolve import bundled_names

from common import random_moves, snapshot
from gin_helpers import deal

NAMES = [n for n, _ in bundled_names()]


def placement(g) -> dict:
    """Where every card lies, slot by slot, and every other state that names a card."""
    out = {key: list(cards) for key, cards in containers(g)}
    for attr in sorted(state.CARD | state.CARDS | state.CARD_VALUED):
        v = getattr(g, attr, None)
        out[attr] = sorted(v) if isinstance(v, (set, list)) else (sorted(v.items()) if isinstance(v, dict) else v)
    return out


def all_cards(g) -> list:
    return sorted(c for _, cards in containers(g) for c in cards)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), moves=st.integers(0, 120),
       seat=st.integers(0, 7), k=st.integers(0, 1000))
def test_a_determinized_copy_keeps_the_cards_the_view_and_plays_on(name, seed, moves, seat, k):
    g = rulesdsl.load(name).new_game(seed=seed)
    random_moves(g, random.Random(seed), moves)
    seat %= g.n
    before = snapshot(g)
    d = g.determinize(seat, random.Random(k))
    assert snapshot(g) == before                              # the original is untouched
    assert all_cards(d) == all_cards(g) == list(range(len(all_cards(g))))   # every card, once
    assert d.view(seat) == g.view(seat)
    assert d.determinized_for == seat
    with pytest.raises(ValueError):
        d.record()                                            # its seed and actions no longer make it
    if g.n > 1:
        with pytest.raises(ValueError):
            d.determinize((seat + 1) % g.n, random.Random(k))
    random_moves(d, random.Random(k), 80)                     # a world that plays on (else: an error)
    assert all_cards(d) == list(range(len(all_cards(g))))


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), moves=st.integers(0, 120),
       seat=st.integers(0, 7), j=st.integers(0, 1000), k=st.integers(0, 1000))
def test_the_copy_depends_only_on_what_the_seat_knows(name, seed, moves, seat, j, k):
    """Two worlds the seat cannot tell apart (the game, and a determinization of it) give the same
    determinization for the same random draws: nothing hidden leaks into it."""
    g = rulesdsl.load(name).new_game(seed=seed)
    random_moves(g, random.Random(seed), moves)
    seat %= g.n
    other_world = g.determinize(seat, random.Random(j))
    a = g.determinize(seat, random.Random(k))
    b = other_world.determinize(seat, random.Random(k))
    assert placement(a) == placement(b)
    assert a.rng.random() == b.rng.random()                  # later shuffles too


def test_every_attribute_of_a_game_in_play_is_declared():
    """engine.state names every attribute a game holds, so that clone and determinize miss none."""
    found: set = set()
    for name in NAMES:
        rules = rulesdsl.load(name)
        for seed in range(3):
            g = rules.new_game(seed=seed)
            rng = random.Random(seed)
            for _ in range(400):
                found |= set(g.__dict__)
                if g.is_over:
                    break
                random_moves(g, rng, 1)
            g.determinize(0, rng)
            found |= set(g.__dict__)
    assert found - state.DECLARED == set()


# ---------------------------------------------------------------- worked cases (Gin, stacked deals)

ND = ["2C", "3C", "4C", "9D", "KS", "QD", "7H", "8S", "5D", "AS"]
DL = ["2H", "3H", "4H", "9C", "KD", "QS", "7C", "8D", "5S", "AD"]


def test_a_card_taken_from_the_discard_pile_stays_in_that_hand():
    g = deal(ND, DL, upcard="10S", stock_top=["6H", "6D", "JC"])
    g.apply("pass")                        # non-dealer (seat 1) passes the upcard
    g.apply("take discard")                # the dealer (seat 0) takes it
    g.apply("discard 9C")
    seat = 1
    ts = g.prog.cards.parse_kind("10S")
    for k in range(200):
        d = g.determinize(seat, random.Random(k))
        dealer_hand = [d.prog.cards.kind[c] for c in d.pzones["hand"][0]]
        assert ts in dealer_hand
        assert d.view(seat) == g.view(seat)
        assert d.hand_of(seat) == g.hand_of(seat)


def test_the_discard_pile_below_its_top_keeps_its_order():
    g = deal(ND, DL, upcard="10S", stock_top=["6H", "6D", "JC", "JD"])
    g.apply("pass")
    g.apply("pass")
    g.apply("draw stock")                  # seat 1 draws 6H
    g.apply("discard KS")                  # KS covers TS
    g.apply("draw stock")                  # seat 0 draws 6D
    g.apply("discard KD")                  # KD covers KS
    pile = list(g.zones["discard"])
    for k in range(50):
        d = g.determinize(1, random.Random(k))
        assert list(d.zones["discard"]) == pile


def test_each_unseen_card_lands_in_each_place_in_proportion_to_its_hidden_slots():
    """At the first turn the non-dealer sees its 10 cards and the upcard; the 41 others lie 10 in the
    dealer's hand and 31 in the stock, each equally likely anywhere (5 standard errors of slack)."""
    g = deal(ND, DL, upcard="10S")
    seat, samples = 1, 1500
    in_hand: Counter = Counter()
    top: Counter = Counter()
    for k in range(samples):
        d = g.determinize(seat, random.Random(k))
        in_hand.update(d.pzones["hand"][0])
        top[d.zones["stock"][-1]] += 1
    unseen = set(range(52)) - set(g.pzones["hand"][1]) - set(g.zones["discard"])
    assert len(unseen) == 41 and set(in_hand) == unseen and set(top) <= unseen
    p = 10 / 41
    slack = 5 * (p * (1 - p) / samples) ** 0.5
    for c in unseen:
        assert abs(in_hand[c] / samples - p) < slack, g.prog.cards.text[c]
    q = 1 / 41
    for c in unseen:
        assert abs(top[c] / samples - q) < 5 * (q * (1 - q) / samples) ** 0.5


def test_the_game_s_own_stock_order_and_generator_are_not_kept():
    """A search must not learn the real next card or the next shuffle."""
    g = deal(ND, DL, upcard="10S")
    tops = {g.determinize(1, random.Random(k)).zones["stock"][-1] for k in range(60)}
    assert len(tops) > 10
    a, b = g.determinize(1, random.Random(1)), g.determinize(1, random.Random(2))
    assert a.rng.random() != b.rng.random()


def test_cards_given_in_an_exchange_stay_with_the_receiver():
    rules = rulesdsl.load("president")
    for seed in range(40):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number == 1:
            random_moves(g, rng, 1)
        while not g.is_over and g.phase == "exchange":
            giver = g.current_player
            held = set(g.pzones["hand"][giver])
            random_moves(g, rng, 1)
            gone = held - set(g.pzones["hand"][giver])
            if not gone:
                continue
            receiver = next(s for s in range(g.n) if gone <= set(g.pzones["hand"][s]))
            for k in range(30):
                d = g.determinize(giver, random.Random(k))
                assert gone <= set(d.pzones["hand"][receiver])
            return
    pytest.fail("no exchange in 40 matches")


def test_a_constrained_deal_places_every_card_where_it_may_be():
    """Cards with several possible places, and no room to spare: every sample is a consistent deal,
    and every consistent deal turns up."""
    x, y, z = ("seat", "hand", 0), ("seat", "hand", 1), ("table", "stock")
    classes = {frozenset({x, y}): [1], frozenset({y, z}): [2], frozenset({x, z}): [3]}
    seen = set()
    for k in range(200):
        out = _deal({m: list(g) for m, g in classes.items()}, {x: 1, y: 1, z: 1}, random.Random(k))
        assert 1 not in out[z] and 2 not in out[x] and 3 not in out[y]
        assert sorted(c for v in out.values() for c in v) == [1, 2, 3]
        seen.add(tuple(out[k][0] for k in (x, y, z)))
    assert seen == {(1, 2, 3), (3, 1, 2)}


def test_a_place_a_deal_would_take_from_cards_that_need_it_is_refused():
    """Card 3 may lie in hand 0 or hand 1; cards 1 and 2 in hand 0 or the stock; one slot each.  Cards 1
    and 2 need both hand 0 and the stock, so 3 can only go to hand 1: when 3 is tried in hand 0, the check
    that the rest still fit must see that 1 and 2 cannot then both be placed (the flow finds no second
    path).  Catches that check taking a slot from cards already routed through it without rerouting them
    (`flow > 0 and _augment(...)` -> `or`): 3 went to hand 0 and the deal then found no place for 2."""
    a, b, c = ("seat", "hand", 0), ("seat", "hand", 1), ("table", "stock")
    for k in range(40):
        out = _deal({frozenset({a, b}): [3], frozenset({a, c}): [1, 2]}, {a: 1, b: 1, c: 1}, random.Random(k))
        assert out[b] == [3] and sorted(out[a] + out[c]) == [1, 2]


def test_the_fit_check_moves_a_card_on_twice_and_forgets_where_it_was():
    """One slot each in places 0, 1 and 2; card y may lie anywhere, cards x1 and x2 only in place 0.  The
    check first sends y to 0; x1 then moves y on to 1; for x2, 0 is full of x1 alone, so nothing fits.
    Catches the flow remembering y in place 0 after moving it on (`flow[other, key] -= 1` -> `+=`): y then
    moves on a second time, from 1 to 2, and two cards seem to fit the one slot of place 0.  (Small ints
    as places, so the order in which a set of them is tried is fixed.)"""
    left = {0: 1, 1: 1, 2: 1}
    assert not _placeable({frozenset({0, 1, 2}): ["y"], frozenset({0}): ["x1", "x2"]}, dict(left))
    assert _placeable({frozenset({0, 1, 2}): ["y"], frozenset({0}): ["x1"], frozenset({2}): ["z"]}, dict(left))


def test_a_player_halfway_through_a_contract_keeps_the_rest_of_it_in_every_world():
    """Found by the property above: seat 1 of a Contract Rummy (deuces wild) has laid down the first
    set of its contract and must lay down the rest before discarding.  The other seats know it holds
    the rest, so every world dealt for them must too: before, some worlds left seat 1 no legal action
    (a dead end the real game never reaches)."""
    g = rulesdsl.load("variants/contract_rummy_deuces_wild").new_game(seed=283)
    random_moves(g, random.Random(283), 90)
    assert g.history[-1].startswith("meld ") and g.actor == 1 and g.legal_actions()
    for k in range(60):
        d = g.determinize(0, random.Random(k))
        assert d.legal_actions(), k                          # the contract can be finished
        assert d.view(0) == g.view(0)
        random_moves(d, random.Random(k), 40)
