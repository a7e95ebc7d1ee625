"""The ``ismcts`` bot: legal, harmless, reproducible, blind to hidden cards, and it finds a clear win.

Strength is measured in benchmarks (``benchmarks/bench_strength.py``), never in timed tests; here the
budgets are a few dozen iterations.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.bots import BotError, make_bot
from rulesdsl.source.resolve import bundled_names

from common import random_moves, snapshot
from gin_helpers import act, deal

NAMES = [n for n, _ in bundled_names()]


@settings(max_examples=14, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), moves=st.integers(0, 120))
def test_it_chooses_a_legal_action_and_leaves_the_game_as_it_was(name, seed, moves):
    g = rulesdsl.load(name).new_game(seed=seed)
    random_moves(g, random.Random(seed), moves)
    if g.is_over:
        return
    before = snapshot(g)
    bot = make_bot("ismcts", seed=seed, iterations=12, depth=8)
    a = bot.choose(g)
    assert a in g.legal_actions()
    assert snapshot(g) == before


@settings(max_examples=8, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), moves=st.integers(0, 100))
def test_it_depends_only_on_what_its_seat_knows(name, seed, moves):
    """The same choice in the real game and in any world the seat cannot tell from it, and the same
    choice again with the same seed."""
    g = rulesdsl.load(name).new_game(seed=seed)
    random_moves(g, random.Random(seed), moves)
    if g.is_over:
        return
    me = g.current_player
    other_world = g.determinize(me, random.Random(seed + 1))
    pick = make_bot("ismcts", seed=5, iterations=15, depth=6).choose(g)
    assert make_bot("ismcts", seed=5, iterations=15, depth=6).choose(other_world) == pick
    assert make_bot("ismcts", seed=5, iterations=15, depth=6).choose(g) == pick


def test_it_goes_gin_when_it_can():
    """Seat 1 drew the card that completes its melds: going gin wins the deal outright."""
    final = ["8S", "8H", "8D", "AS", "2S", "3S", "10D", "JD", "QD", "KD"]
    defender = ["2H", "4H", "6H", "9H", "10H", "3C", "5C", "9C", "JC", "KH"]
    g = deal(final[:9] + ["4C"], defender, upcard="7D", stock_top=["KD"])
    act(g, "pass", "pass", "draw stock")
    assert "gin 4C" in [str(a) for a in g.legal_actions()]
    bot = make_bot("ismcts", seed=1, iterations=150, depth=10)
    assert str(bot.choose(g)) == "gin 4C"
    assert bot.last_iterations == 150


def test_one_legal_action_is_taken_without_search():
    g = deal(["2C", "3C", "4C", "9D", "KS", "QD", "7H", "8S", "5D", "AS"],
             ["2H", "3H", "4H", "9C", "KD", "QS", "7C", "8D", "5S", "AD"], upcard="10S")
    act(g, "pass", "pass")
    bot = make_bot("ismcts", seed=1, iterations=50)
    assert [str(a) for a in g.legal_actions()] == ["draw stock"]
    assert str(bot.choose(g)) == "draw stock" and bot.last_iterations == 0


def test_a_time_budget_searches_until_the_time_is_up():
    g = rulesdsl.load("gin_rummy").new_game(seed=3)
    random_moves(g, random.Random(3), 5)
    bot = make_bot("ismcts", seed=1, seconds=0.05, iterations=10**9)
    assert bot.choose(g) in g.legal_actions()
    assert 0 < bot.last_iterations < 10**9


@pytest.mark.parametrize("options", [dict(iterations=0), dict(seconds=-1), dict(rollout="clever"),
                                     dict(depth=-2)])
def test_bad_options_are_refused_with_a_message(options):
    with pytest.raises(BotError, match="ismcts"):
        make_bot("ismcts", seed=1, **options)


def test_a_deal_still_going_after_the_rollout_bound_is_judged_as_it_stands(monkeypatch):
    """Climbing deals are played out; one that outlasts the bound is judged by the cards held."""
    import rulesdsl.bots.ismcts as ismcts
    monkeypatch.setattr(ismcts, "_WHOLE_DEAL", 1)
    g = rulesdsl.load("president").new_game(seed=4)
    random_moves(g, random.Random(4), 3)
    assert make_bot("ismcts", seed=1, iterations=10).choose(g) in g.legal_actions()
