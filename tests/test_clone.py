"""``Game.clone()``: an independent copy of a game in play, for every bundled game and variant.

The properties: a clone and its original played apart never see each other's moves (each ends
exactly where a game replayed from the seed with its own moves ends); a clone given the same moves
as its original plays the same game, hands to come included (the random state is copied); and a
clone is refused nothing its original allows.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.source.resolve import bundled_names

from common import assert_plays_in_step, random_moves as play, snapshot

NAMES = [n for n, _ in bundled_names()]


def replay(rules, seed: int, moves: list):
    g = rules.new_game(seed=seed)
    for m in moves:
        g.apply(m)
    return g


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), before=st.integers(0, 150),
       after=st.integers(1, 60))
def test_a_clone_and_its_original_played_apart_do_not_see_each_other(name, seed, before, after):
    rules = rulesdsl.load(name)
    original = rules.new_game(seed=seed)
    rng = random.Random(seed)
    common = play(original, rng, before)
    twin = original.clone()
    mine = play(original, random.Random(seed + 1), after)
    theirs = play(twin, random.Random(seed + 2), after)
    assert snapshot(original) == snapshot(replay(rules, seed, common + mine))
    assert snapshot(twin) == snapshot(replay(rules, seed, common + theirs))


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), before=st.integers(0, 150))
def test_a_clone_given_the_same_moves_plays_the_same_game(name, seed, before):
    rules = rulesdsl.load(name)
    original = rules.new_game(seed=seed)
    play(original, random.Random(seed), before)
    twin = original.clone()
    assert snapshot(twin) == snapshot(original)
    # long enough to cross into later hands of most games
    assert_plays_in_step(original, twin, random.Random(seed + 7), 250)
    assert twin.hand_log == original.hand_log


def test_clone_copies_a_finished_and_a_fresh_game():
    rules = rulesdsl.load("gin_rummy", overrides={"target_score": 1})
    g = rules.new_game(seed=3)
    assert snapshot(g.clone()) == snapshot(g)
    rng = random.Random(3)
    for _ in range(20_000):                      # a random player that goes out whenever it can
        if g.is_over:
            break
        acts = g.legal_actions()
        outs = [a for a in acts if a.verb in ("gin", "knock")]
        g.apply(outs[0] if outs else acts[rng.randrange(len(acts))])
    assert g.is_over
    twin = g.clone()
    assert twin.is_over and twin.winner == g.winner and twin.scores == g.scores
    with pytest.raises(rulesdsl.IllegalAction):
        twin.apply("pass")


def test_an_unknown_kind_of_state_is_refused_not_shared():
    """A new kind of state must be declared (immutable, or with copy_state) before clone copies it."""
    g = rulesdsl.load("gin_rummy").new_game(seed=1)

    class Opaque:
        pass
    g.some_new_state = Opaque()
    with pytest.raises(TypeError, match="Opaque"):
        g.clone()
