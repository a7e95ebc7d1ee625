"""Spades properties (Hypothesis): the same invariants as Hearts (``tricks_helpers.check_invariants``),
plus: bids are shown to every seat, and a hand is hidden from its owner until it looks or bids blind."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from tests.tricks_helpers import check_invariants

seeds = st.integers(0, 2**32 - 1)


@given(name=st.sampled_from(["spades", "variants/spades_jokers"]), seed=seeds, bot=seeds)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_spades_invariants_hold_through_a_match(name, seed, bot):
    check_invariants(rulesdsl.load(name, {"blind_nil_behind": 0}), 4, seed, bot)


@given(seed=seeds, bot=seeds)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bids_are_public_and_blind_hands_hidden(seed, bot):
    g = rulesdsl.load("spades", {"blind_nil_behind": 0}).new_game(seed=seed)
    rng = random.Random(bot)
    while g.view(0)["phase"] == "bid":
        seat = g.current_player
        own = g.view(seat)["zones"]["hand"][seat]
        legal = [str(a) for a in g.legal_actions()]
        if "look" in legal:
            assert "cards" not in own and "bid blind_nil" in legal
        else:
            assert "cards" in own
        act = rng.choice(legal)
        g.apply(act)
        if act != "look":
            for s in range(4):
                shown = g.view(s)["bids"][seat]
                assert shown == act.split()[1] or shown == int(act.split()[1])


@given(seed=seeds, bot=seeds)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_two_player_spades_invariants_hold_through_a_match(seed, bot):
    check_invariants(rulesdsl.load("variants/spades_two_players"), 2, seed, bot)
