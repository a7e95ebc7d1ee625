"""The trick-taking vocabulary carries more than the two bundled games: a third game of the family
(exact bidding with a turned-up trump and a dealer's "hook", ``tests/family/oh_hell.yaml``) is a file
and nothing else.  It validates and plays to the end at every player count, its trump is the turned
card's suit, and the last bidder may not make the bids add up to the tricks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl
from tests.tricks_helpers import check_invariants

FIXTURE = Path(__file__).parent / "family" / "oh_hell.yaml"


@pytest.mark.parametrize("players", range(3, 8))
def test_plays_to_the_end_with_the_invariants_at_every_player_count(players):
    check_invariants(rulesdsl.load(FIXTURE), players, seed=players, bot_seed=1)


def test_trump_is_the_turned_cards_suit_and_the_hook_binds_the_last_bidder():
    g = rulesdsl.load(FIXTURE).new_game(players=4, seed=3)
    upcard = g.view(0)["zones"]["upcard"]["cards"][0]
    rng = random.Random(2)
    for _ in range(3):
        g.apply(rng.choice([a for a in g.legal_actions()]))
    last = [int(str(a).split()[1]) for a in g.legal_actions()]
    total = sum(b for b in g.view(0)["bids"] if b is not None)
    hand = len(g.hand_of(g.current_player))
    assert hand - total not in last and sorted(set(range(hand + 1)) - {hand - total}) == last
    g.apply(g.legal_actions()[0])
    assert g.view(0)["trick"]["trump"] == upcard[-1]


def test_greedy_bots_finish_a_match():
    from rulesdsl.bots import make_bot
    g = rulesdsl.load(FIXTURE).new_game(players=5, seed=9)
    bots = [make_bot("greedy", seed=s) for s in range(5)]
    for _ in range(2000):
        if g.is_over:
            break
        g.apply(bots[g.current_player].choose(g))
    assert g.is_over


def test_won_cards_go_to_the_sides_pile_when_it_is_a_team_zone(tmp_path):
    f = tmp_path / "team_piles.yaml"
    f.write_text("extends: spades\nzones: {taken: {per: team, visible: all}}\n")
    g = rulesdsl.load(f).new_game(seed=5)
    while g.view(0)["phase"] == "bid":
        legal = [str(a) for a in g.legal_actions()]
        g.apply("look" if "look" in legal else legal[0])
    plays = []
    for _ in range(4):
        plays.append(g.current_player)
        g.apply(g.legal_actions()[0])
    winner = g.current_player
    piles = g.view(0)["team_zones"]["taken"]
    assert piles[winner % 2]["count"] == 4 and piles[1 - winner % 2]["count"] == 0
