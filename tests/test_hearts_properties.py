"""Hearts properties (Hypothesis): card conservation after every action, one card per player per
trick, following suit whenever able, termination, never a player without a legal action, and views
that show no other hand (passed cards only to their giver and receiver).  See
``tricks_helpers.check_invariants``."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from tests.tricks_helpers import check_invariants

seeds = st.integers(0, 2**32 - 1)
VARIANTS = ["hearts", "variants/hearts_no_passing", "variants/hearts_jack_of_diamonds",
            "variants/hearts_moon_subtracts"]


@given(name=st.sampled_from(VARIANTS), players=st.integers(3, 5), seed=seeds, bot=seeds)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hearts_invariants_hold_through_a_match(name, players, seed, bot):
    rules = rulesdsl.load(name, {"target_score": 30})
    check_invariants(rules, players, seed, bot)
