"""Stacked deals for tests and replays: `new_game(deck=..., decks=[...])` and `Game.stack_next(deck)`."""

from __future__ import annotations

import random

import pytest

import rulesdsl

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
DECK = [r + s for s in "SHDC" for r in RANKS]


def _play_to_next_hand(g, seed=0):
    rng = random.Random(seed)
    start = g.hand_number
    while g.hand_number == start and not g.is_over:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])


def _dealt(deck, n, dealer, size):
    """Seat -> cards dealt one at a time from the dealer's left (two players: the other seat first)."""
    hands = {s: [] for s in range(n)}
    order = [(dealer + 1 + i) % n for i in range(n)]
    for i in range(size * n):
        hands[order[i % n]].append(deck[i])
    return hands


def test_decks_stack_the_first_deals_in_order():
    second = list(reversed(DECK))
    g = rulesdsl.load("gin_rummy").new_game(seed=3, dealer=0, deck=DECK, decks=[second])
    assert sorted(g.hand_of(1)) == sorted(_dealt(DECK, 2, 0, 10)[1])
    _play_to_next_hand(g)
    assert g.hand_number == 2
    d = g.dealer
    assert sorted(g.hand_of(0)) == sorted(_dealt(second, 2, d, 10)[0])
    assert sorted(g.hand_of(1)) == sorted(_dealt(second, 2, d, 10)[1])


def test_decks_without_deck_stack_from_the_first_deal():
    g = rulesdsl.load("gin_rummy").new_game(seed=3, dealer=1, decks=[DECK])
    assert sorted(g.hand_of(0)) == sorted(_dealt(DECK, 2, 1, 10)[0])


def test_stack_next_on_a_running_game_deals_the_next_hand_from_it():
    g = rulesdsl.load("gin_rummy").new_game(seed=5, dealer=0)
    shuffled = DECK[7:] + DECK[:7]
    g.stack_next(shuffled)
    assert g.hand_number == 1                            # the hand in progress is not redealt
    _play_to_next_hand(g, seed=5)
    d = g.dealer
    assert sorted(g.hand_of(0)) == sorted(_dealt(shuffled, 2, d, 10)[0])
    _play_to_next_hand(g, seed=6)                        # nothing more stacked: a seeded shuffle again
    assert sorted(g.hand_of(0)) != sorted(_dealt(shuffled, 2, g.dealer, 10)[0])


@pytest.mark.parametrize("bad", [DECK[:-1], DECK + ["AS"], DECK[:-1] + ["XX"]])
def test_a_bad_stacked_deck_is_refused_and_changes_nothing(bad):
    g = rulesdsl.load("gin_rummy").new_game(seed=5, dealer=0)
    before = (g.hand_of(0), g.hand_of(1), g.legal_actions())
    with pytest.raises(ValueError):
        g.stack_next(bad)
    assert (g.hand_of(0), g.hand_of(1), g.legal_actions()) == before
    _play_to_next_hand(g, seed=5)
    assert g.hand_number == 2                            # the next deal is a shuffle, not a half-stacked deck
