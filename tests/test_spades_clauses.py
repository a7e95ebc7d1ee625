"""Spades, clause by clause (seeds/spades.md): each test fails when its rule is broken.

Deals are stacked (``tricks_helpers.deck_for``: dealer seat 3, so seat 0 bids and leads first);
expected scores are worked out from the rules in the test."""

from __future__ import annotations

import pytest

import rulesdsl
from tests.common import assert_illegal
from tests.tricks_helpers import RANKS, deck_for, first_legal, play_deal

SPADES = [r + "S" for r in RANKS]
OTHERS = [r + s for s in "CDH" for r in RANKS]


def spades_to(seat_in_deal_order: int) -> list:
    """Hands in dealing order where the given one holds every spade and the others the rest."""
    hands, rest = [], list(OTHERS)
    for i in range(4):
        if i == seat_in_deal_order:
            hands.append(list(SPADES))
        else:
            hands.append(rest[:13])
            rest = rest[13:]
    return hands


def new(overrides=None, hands=None):
    return rulesdsl.load("spades", overrides).new_game(seed=1, dealer=3, deck=deck_for(hands) if hands else None)


def bid_all(g, bids):
    for b in bids:
        if "look" in [str(a) for a in g.legal_actions()] and b != "blind_nil":
            g.apply("look")
        g.apply(f"bid {b}")


def test_SPD_DEAL_1_2_four_players_two_partnerships_thirteen_cards():
    g = new()
    v = g.view(0)
    assert v["teams"] == [[0, 2], [1, 3]]
    assert [h["count"] for h in v["zones"]["hand"]] == [13] * 4


def test_SPD_BID_1_2_each_bids_once_from_the_dealers_left_one_to_thirteen_or_nil():
    g = new()
    assert g.view(0)["phase"] == "bid" and g.current_player == 0
    legal = [str(a) for a in g.legal_actions()]
    assert legal == [f"bid {n}" for n in range(1, 14)] + ["bid nil"]
    assert_illegal(g, "bid 0")
    assert_illegal(g, "bid 14")
    assert_illegal(g, "play 2C")
    order = []
    for b in (3, 4, 2, 5):
        order.append(g.current_player)
        g.apply(f"bid {b}")
    assert order == [0, 1, 2, 3]
    assert g.view(1)["bids"] == [3, 4, 2, 5]                  # bids are public
    assert g.view(0)["phase"] == "tricks" and g.current_player == 0


def test_SPD_PLAY_4_spades_may_not_be_led_until_broken():
    hands = [[c for i, c in enumerate(SPADES + OTHERS) if i % 4 == s] for s in range(4)]
    g = new(hands=hands)
    bid_all(g, [3, 3, 3, 3])
    legal = [str(a) for a in g.legal_actions()]
    assert legal and not any(a.endswith("S") for a in legal)
    assert_illegal(g, "play " + next(c for c in g.hand_of(0) if c.endswith("S")))


def test_SPD_SCORE_1_2_4_contract_made_with_overtricks_set_and_nil_made():
    g = new(hands=spades_to(0))                  # seat 0 leads only spades and takes all 13 tricks
    bid_all(g, [5, 3, "nil", 4])
    play_deal(g)
    # team 0: contract 5 made with 8 overtricks = 58, nil made = 100; team 1: 7 bid, set = -70
    assert g.scores == [158, -70]
    assert g.totals["bags"] == [8, 0]


def test_SPD_SCORE_4_nil_failed_and_contract_set():
    g = new(hands=spades_to(0))
    bid_all(g, ["nil", 3, 5, 4])
    play_deal(g)
    assert g.scores == [-100 - 50, -70]


def test_SPD_SCORE_3_ten_bags_cost_100_and_the_rest_carry_over():
    g = new(hands=spades_to(0))
    # deal 2: seat 0 deals, seat 1 is dealt to first and leads; seat 2 holds every spade and trumps
    g.stack_next(deck_for(spades_to(1)))
    bid_all(g, [5, 3, "nil", 4])
    play_deal(g)
    assert g.hand_number == 2 and g.current_player == 1
    # team 1 is behind by 228: its players may bid blind nil before looking
    assert "bid blind_nil" in [str(a) for a in g.legal_actions()]
    assert "cards" not in g.view(1)["zones"]["hand"][1]
    bid_all(g, [3, 5, 4, "nil"])                 # seats 1, 2, 3, 0
    play_deal(g)
    assert g.totals["bags"] == [6, 0]
    assert g.scores == [158 + 58 + 100 - 100, -140]


def test_SPD_BID_4_blind_nil_only_before_looking_and_scores_double():
    g = new({"blind_nil_behind": 0}, hands=spades_to(0))
    assert [str(a) for a in g.legal_actions()] == ["bid blind_nil", "look"]
    assert "cards" not in g.view(0)["zones"]["hand"][0]
    g.apply("look")
    assert "cards" in g.view(0)["zones"]["hand"][0]
    assert "bid blind_nil" not in [str(a) for a in g.legal_actions()]
    g.apply("bid 5")
    g.apply("look")
    g.apply("bid 3")
    g.apply("bid blind_nil")                     # seat 2, before looking
    bid_all(g, [4])
    play_deal(g)
    assert g.scores == [58 + 200, -70]


def test_SPD_PLAY_3_a_spade_trumps_the_led_suit():
    g = new(hands=spades_to(1))                  # seat 1 holds every spade; seat 0 leads
    bid_all(g, [1, 13, 1, 1])
    led = str(g.legal_actions()[0])
    g.apply(led)
    g.apply(first_legal(g))                      # seat 1 cannot follow: a spade
    g.apply(first_legal(g))
    g.apply(first_legal(g))
    assert g.current_player == 1
    assert g.view(0)["trick"]["tricks_won"] == [0, 1, 0, 0]


def test_SPD_END_1_game_to_500():
    g = new({"target_score": 150}, hands=spades_to(0))
    bid_all(g, [5, 3, "nil", 4])
    play_deal(g)
    assert g.is_over and g.winner == 0


def test_SPD_variant_jokers_are_the_highest_trumps():
    rules = rulesdsl.load("variants/spades_jokers")
    g = rules.new_game(seed=4)
    v = g.view(0)
    assert sorted(v["zones"]["stripped"]["cards"]) == ["2C", "2H"]
    assert g.cards_in_play == 54 and [h["count"] for h in v["zones"]["hand"]] == [13] * 4
    prog = g.prog
    jk = prog.cards.parse_kind("Jk")
    joker = next(c for c in prog.cards.ids if prog.cards.kind[c] == jk)
    ace = next(c for c in prog.cards.ids if prog.cards.text[c] == "AS")
    assert prog.tricks.suit_of[joker] == "S" and prog.tricks.rank_pos[joker] > prog.tricks.rank_pos[ace]


def test_SPD_VAR_2_two_players_draft_their_hands_keep_or_pass():
    rules = rulesdsl.load("variants/spades_two_players")
    deck = [r + s for s in "SHDC" for r in RANKS]               # top card first: 2S, 3S, ...
    g = rules.new_game(seed=1, dealer=1, deck=deck)
    assert g.view(0)["phase"] == "draft" and g.current_player == 0
    assert g.view(0)["zones"]["looking"][0]["cards"] == ["2S"]
    assert "cards" not in g.view(1)["zones"]["looking"][0]       # only the drafter sees it
    assert [str(a) for a in g.legal_actions()] == ["keep", "pass"]
    g.apply("keep")                                             # 2S kept; 3S burnt unseen
    assert g.hand_of(0) == ["2S"] and g.view(0)["zones"]["discarded"]["count"] == 1
    assert g.current_player == 1 and g.view(1)["zones"]["looking"][1]["cards"] == ["4S"]
    g.apply("pass")                                             # 4S refused; 5S taken blind
    assert g.hand_of(1) == ["5S"] and g.view(0)["zones"]["discarded"]["count"] == 2
    while g.view(0)["phase"] == "draft":
        g.apply("keep")
    assert [len(g.hand_of(s)) for s in (0, 1)] == [13, 13]
    assert g.view(0)["zones"]["discarded"]["count"] == 26 and g.cards_in_play == 52
    assert g.view(0)["phase"] == "bid"
    assert_illegal(g, "keep")
