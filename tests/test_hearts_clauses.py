"""Hearts, clause by clause (seeds/hearts.md): each test fails when its rule is broken.

Deals are stacked (``tricks_helpers.deck_for``: the dealer is seat 3, so seat 0 is dealt first);
expected outcomes come from the rules, never from the engine."""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl import IllegalAction
from tests.common import assert_illegal
from tests.tricks_helpers import RANKS, deck_for, first_legal, pass_cards, play_deal, trick_winner

SUITS = ["C", "D", "S", "H"]
ALL = [r + s for s in SUITS for r in RANKS]


def game(players=4, overrides=None, hands=None, stripped=(), seed=1):
    rules = rulesdsl.load("hearts", overrides)
    deck = deck_for(hands, stripped) if hands else None
    return rules.new_game(players=players, seed=seed, dealer=players - 1, deck=deck)


def by_suit_hands():
    """Seat 0: every club; seat 1: every diamond; seat 2: every spade; seat 3: every heart."""
    return [[r + s for r in RANKS] for s in SUITS]


def mixed_hands():
    """A deal where every seat holds some of each suit (a plain round-robin of the sorted deck)."""
    return [[c for i, c in enumerate(ALL) if i % 4 == s] for s in range(4)]


# ---------------------------------------------------------------- setup

def test_HRT_DEAL_1_four_players_52_cards_13_each():
    g = game()
    v = g.view(0)
    assert [h["count"] for h in v["zones"]["hand"]] == [13, 13, 13, 13]
    assert g.cards_in_play == 52


@pytest.mark.parametrize("players,removed,each", [(3, ["2D"], 17), (5, ["2C", "2D"], 10)])
def test_HRT_DEAL_2_three_and_five_players_strip_low_cards(players, removed, each):
    g = game(players)
    v = g.view(0)
    assert sorted(v["zones"]["stripped"]["cards"]) == sorted(removed)
    assert [h["count"] for h in v["zones"]["hand"]] == [each] * players


def test_HRT_DEAL_2_five_players_three_of_clubs_leads():
    g = game(5, {"passing": False})
    holder = next(s for s in range(5) if "3C" in g.hand_of(s))
    assert g.current_player == holder
    assert [str(a) for a in g.legal_actions()] == ["play 3C"]


# ---------------------------------------------------------------- passing

def test_HRT_PASS_1_to_4_direction_rotates_left_right_across_hold():
    g = game(seed=7)
    seen = []
    for deal in range(1, 5):
        assert g.hand_number == deal
        before = [set(g.hand_of(s)) for s in range(4)]
        if deal == 4:
            assert g.view(0)["phase"] == "tricks"      # the fourth deal holds: no passing
            seen.append(0)
        else:
            given = pass_cards(g)
            assert all(len(v) == 3 for v in given.values())
            after = [set(g.hand_of(s)) for s in range(4)]
            offsets = set()
            for s in range(4):
                got = after[s] - before[s]
                assert len(got) == 3
                giver = next(o for o in range(4) if got <= set(given[o]))
                offsets.add((s - giver) % 4)
            assert len(offsets) == 1
            seen.append(offsets.pop())
        play_deal(g)
    assert seen == [1, 3, 2, 0]                         # left, right (3 = -1), across, hold


def test_HRT_PASS_4_received_cards_arrive_only_after_everyone_passed():
    g = game(seed=3)
    first = g.current_player
    hand = g.hand_of(first)
    for c in hand[:3]:
        g.apply(f"give {c}")
    receiver = (first + 1) % 4
    assert not set(hand[:3]) & set(g.hand_of(receiver))          # waiting aside
    assert g.view(receiver).get("passed", []) == []              # the receiver has not seen them
    assert [p["card"] for p in g.view(first)["passed"]] == hand[:3]   # the giver remembers them
    assert g.current_player == receiver                          # and cannot pass them on
    for c in g.hand_of(receiver)[:3]:
        assert c not in hand[:3]


def test_HRT_PASS_variant_no_passing_starts_with_the_lead():
    g = rulesdsl.load("variants/hearts_no_passing").new_game(seed=3)
    assert g.view(0)["phase"] == "tricks"
    assert_illegal(g, "give 2C")


def test_HRT_PASS_3_three_players_never_pass_across():
    g = game(3, seed=5)
    offsets = []
    for _ in range(3):
        before = [set(g.hand_of(s)) for s in range(3)]
        if g.view(0)["phase"] == "exchange":
            given = pass_cards(g)
            got = set(g.hand_of(0)) - before[0]
            offsets.append(next((0 - o) % 3 for o in range(3) if got <= set(given.get(o, []))))
        else:
            offsets.append(0)
        play_deal(g)
    assert offsets == [1, 2, 0]


# ---------------------------------------------------------------- leads and play

def test_HRT_LEAD_1_two_of_clubs_holder_leads_it():
    g = game(overrides={"passing": False}, hands=mixed_hands())
    assert g.current_player == 0 and "2C" in g.hand_of(0)
    assert [str(a) for a in g.legal_actions()] == ["play 2C"]
    assert_illegal(g, "play AC")


def test_HRT_PLAY_1_must_follow_the_led_suit():
    g = game(overrides={"passing": False}, hands=mixed_hands())
    g.apply("play 2C")
    legal = [str(a) for a in g.legal_actions()]
    assert legal and all(a.endswith("C") for a in legal)
    assert_illegal(g, "play 3D")


def test_HRT_PLAY_3_no_penalty_card_on_the_first_trick_unless_nothing_else():
    g = game(overrides={"passing": False}, hands=by_suit_hands())
    g.apply("play 2C")
    assert all(not a.endswith("C") for a in map(str, g.legal_actions()))   # seat 1: diamonds only
    g.apply("play 2D")
    legal = [str(a) for a in g.legal_actions()]                         # seat 2: spades, not the queen
    assert "play QS" not in legal and "play AS" in legal
    assert_illegal(g, "play QS")
    g.apply("play AS")
    legal = [str(a) for a in g.legal_actions()]                         # seat 3: only hearts -> any heart
    assert len(legal) == 13 and all(a.endswith("H") for a in legal)


def test_HRT_PLAY_4_highest_of_the_led_suit_takes_the_trick_and_leads():
    g = game(overrides={"passing": False}, hands=mixed_hands())
    plays = []
    for _ in range(4):
        seat = g.current_player
        act = str(g.legal_actions()[-1])
        plays.append((seat, act.split()[1]))
        g.apply(act)
    winner = trick_winner(plays)
    assert g.current_player == winner
    assert g.view(0)["trick"]["tricks_won"][winner] == 1
    assert sorted(g.view(0)["zones"]["taken"][winner]["cards"]) == sorted(c for _, c in plays)


def test_HRT_LEAD_2_and_3_hearts_may_not_lead_until_broken():
    hands = [["2C"] + [r + "S" for r in RANKS[:12]],
             [r + "C" for r in RANKS[1:12]] + ["AH", "AD"],
             [r + "D" for r in RANKS[:12]] + ["AS"],
             ["AC"] + [r + "H" for r in RANKS[:12]]]
    # trick 1: seat 3 wins with AC; seat 2 may not throw the AS... it holds no penalty card anyway
    g = game(overrides={"passing": False}, hands=[hands[0], hands[1], hands[2], hands[3]])
    for act in ("play 2C", "play KC", "play 2D", "play AC"):
        g.apply(act)
    assert g.current_player == 3
    assert g.view(0)["trick"]["broken"]["hearts"] is False
    legal = [str(a) for a in g.legal_actions()]
    assert len(legal) == 12 and all(a.endswith("H") for a in legal)       # only hearts left: may lead one


def test_HRT_LEAD_2_a_leader_holding_other_suits_may_not_lead_an_unbroken_heart():
    hands = [["2C"] + [r + "S" for r in RANKS[:12]],
             ["AC"] + [r + "C" for r in RANKS[1:11]] + ["AH", "AS"],
             [r + "D" for r in RANKS],
             ["KC"] + [r + "H" for r in RANKS[:12]]]
    g = game(overrides={"passing": False}, hands=hands)
    for act in ("play 2C", "play AC", "play 2D", "play KC"):            # seat 1 takes trick 1
        g.apply(act)
    assert g.current_player == 1
    assert "play AH" not in [str(a) for a in g.legal_actions()]
    assert_illegal(g, "play AH")
    for act in ("play 3C", "play 3D", "play 2H", "play 2S"):            # seat 3, void in clubs, breaks hearts
        g.apply(act)
    assert g.view(0)["trick"]["broken"]["hearts"] is True
    assert g.current_player == 1
    assert "play AH" in [str(a) for a in g.legal_actions()]


def test_HRT_LEAD_2_only_hearts_left_may_lead_a_heart():
    hands = [["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"],
             ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"],
             ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
             ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]]
    g = game(overrides={"passing": False}, hands=hands)
    # seat 0 takes every trick with clubs; on trick 1 seat 1 holds only hearts, so plays one
    g.apply("play 2C")
    assert len(g.legal_actions()) == 13
    g.apply("play 2H")
    assert g.view(0)["trick"]["broken"]["hearts"] is True


# ---------------------------------------------------------------- scoring and the match

def _taken_points(view, seat, jd=0):
    pts = 0
    for c in view["zones"]["taken"][seat]["cards"]:
        pts += 1 if c.endswith("H") else 0
        pts += 13 if c == "QS" else 0
        pts += jd if c == "JD" else 0
    return pts


def _play_recording(g):
    """Play one deal with random legal cards; return the taken piles just before the last card."""
    rng = random.Random(5)
    hand = g.hand_number
    last = None
    while g.hand_number == hand:
        last = g.view(0)
        g.apply(rng.choice(g.legal_actions()))
    return last


def test_HRT_SCORE_1_hearts_one_point_queen_thirteen():
    g = game(overrides={"passing": False}, seed=11)
    before = list(g.scores)
    rng = random.Random(2)
    while g.hand_number == 1:
        v = g.view(0)
        if sum(h["count"] for h in v["zones"]["hand"]) == 0:
            break
        if v["zones"]["hand"][g.current_player]["count"] == 1 and len(v["trick"]["plays"]) == 3:
            plays = [(p["seat"], p["card"]) for p in v["trick"]["plays"]]
            seat = g.current_player
            card = str(g.legal_actions()[0]).split()[1]
            winner = trick_winner(plays + [(seat, card)])
            expected = [_taken_points(v, s) for s in range(4)]
            expected[winner] += sum(1 for _, c in plays + [(seat, card)] if c.endswith("H")) + \
                13 * any(c == "QS" for _, c in plays + [(seat, card)])
            if max(expected) == 26:
                expected = [0 if e == 26 else 26 for e in expected]
            g.apply(f"play {card}")
            assert [a - b for a, b in zip(g.scores, before)] == expected
            assert sum(expected) in (26, 78)
            return
        g.apply(rng.choice(g.legal_actions()))
    pytest.fail("the deal did not reach its last trick")


def _moon_deal(overrides):
    hands = [[r + "C" for r in RANKS],
             ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "2H", "3H", "4H", "5H"],
             ["JD", "QD", "KD", "AD", "2S", "3S", "4S", "5S", "6H", "7H", "8H", "9H", "10H"],
             ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "JH", "QH", "KH", "AH"]]
    g = game(overrides={"passing": False, **overrides}, hands=hands)
    play_deal(g)                       # seat 0 leads every club and takes every trick
    return g


def test_HRT_SCORE_3_shooting_the_moon_adds_26_to_everyone_else():
    g = _moon_deal({})
    assert g.scores == [0, 26, 26, 26]


def test_HRT_SCORE_3_shooting_the_moon_may_subtract_26_from_the_shooter():
    g = _moon_deal({"moon": "subtract_from_self"})
    assert g.scores == [-26, 0, 0, 0]


def test_HRT_SCORE_variant_jack_of_diamonds_minus_ten():
    g = _moon_deal({"jack_of_diamonds": -10})
    assert g.scores == [-10, 26, 26, 26]
    assert rulesdsl.load("variants/hearts_jack_of_diamonds").params["jack_of_diamonds"] == -10


def test_HRT_END_1_2_match_ends_at_target_and_lowest_total_wins():
    g = _moon_deal({"target_score": 20})
    assert g.is_over
    assert g.winner == 0                 # 0 against 26: the lowest total wins


def test_HRT_END_2_a_tie_for_lowest_plays_another_deal():
    hands = [[r + "C" for r in RANKS],
             ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "2H", "3H", "4H", "5H"],
             ["JD", "QD", "KD", "AD", "2S", "3S", "4S", "5S", "6H", "7H", "8H", "9H", "10H"],
             ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "JH", "QH", "KH", "AH"]]
    rules = rulesdsl.load("hearts", {"passing": False, "target_score": 20, "moon": "subtract_from_self"})
    g = rules.new_game(seed=1, dealer=3, deck=deck_for(hands))
    play_deal(g)
    assert g.scores == [-26, 0, 0, 0] and not g.is_over            # nobody reached 20
    assert g.hand_number == 2


def test_HRT_illegal_actions_change_nothing():
    g = game(overrides={"passing": False}, hands=mixed_hands())
    for bad in ("play 3C", "play 2H", "give 2C", "bid 3", "draw stock", "play XX"):
        assert_illegal(g, bad)
    with pytest.raises(IllegalAction):
        g.apply("play 2C", seat=1)
