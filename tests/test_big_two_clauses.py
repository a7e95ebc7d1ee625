"""One test (at least) per clause of seeds/big_two.md, played through the public API.

Conventions (see big_two_helpers): play runs counterclockwise, so the next seat is the seat number minus
one.  With 4 players the seats in turn order are A, B, C, D = 0, 3, 2, 1 and the dealer is D, so A gets the
first card; with 3 players they are A, B, C = 0, 2, 1 and the dealer is C.  Hands are stacked with
``big_two_helpers.stack`` (the deal order of B2-DEAL-5/6); cards a test does not name fill the hands,
weakest first.  Positions later in a hand are reached by real actions.  Expected legal lists come from the
oracle ``expected_plays`` / ``classify`` / ``beats`` in the helpers, never from the engine.
"""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl import IllegalAction

from big_two_helpers import (ALL_CARDS, RANKS, act, assert_illegal, classify, deal_seats,
                             expected_plays, lead_out, legal, new_game, passes, penalty, play_sets, rules,
                             stack, strength, trick)

A, B, C, D = 0, 3, 2, 1            # 4 players, in turn order (counterclockwise); D deals
A3, B3, C3 = 0, 2, 1               # 3 players, in turn order; C3 deals


def g4(hands: dict, **kw):
    return new_game(hands, n=4, dealer=D, **kw)


def g3(hands: dict, **kw):
    return new_game(hands, n=3, dealer=C3, **kw)


def free_lead(g, leader=A):
    """``leader`` (holding 3D) opens with the single 3D and everybody passes: ``leader`` leads anything."""
    assert g.current_player == leader
    g.apply("play 3D")
    passes(g, g.view(0)["players"] - 1)
    assert g.current_player == leader and not trick(g)["last_play"]


def cards_of(action: str) -> list:
    return action.split()[1:]


def kind(g) -> str:
    return trick(g)["kind"]


def check_list(g, last_cards=(), **kw):
    """The player on turn may make exactly the oracle's plays (and pass when a play stands)."""
    hand = g.hand_of(g.current_player)
    assert play_sets(g) == expected_plays(hand, last_cards, **kw)
    assert ("pass" in legal(g)) == bool(last_cards)


# ==================================================================================================
# 1. Setup / deal
# ==================================================================================================


@pytest.mark.parametrize("n", [3, 4])
def test_B2_DEAL_1_one_52_card_pack_no_jokers_three_or_four_players(n):
    g = rules().new_game(players=n, seed=7)
    cards = [c for s in range(n) for c in g.hand_of(s)]
    assert sorted(cards) == sorted(ALL_CARDS) and len(cards) == 52
    assert g.view(0)["zones"]["stock"]["count"] == 0
    assert rules().new_game(seed=1).view(0)["players"] == 4            # 4 is the default
    with pytest.raises(ValueError):                                     # no 53rd card, no joker
        rules().new_game(players=n, seed=1, dealer=0, deck=stack({}, n=n) + ["AS"])
    with pytest.raises(ValueError):
        rules().new_game(players=n, seed=1, dealer=0, deck=stack({}, n=n)[:-1] + ["Jk"])


@pytest.mark.parametrize("n", [2, 5])
def test_B2_DEAL_1_two_and_five_players_are_refused(n):
    with pytest.raises(ValueError):
        rules().new_game(players=n, seed=1)


def test_B2_DEAL_2_rank_order_three_low_two_high():
    """C holds one card of every rank (hearts); B plays a single; C may play exactly the higher ranks."""
    for led in ["4S", "9S", "KS", "AS"]:
        g = g4({A: ["3D"], B: [led], C: [r + "H" for r in RANKS if r != "3"] + ["3H"]})
        act(g, "play 3D", f"play {led}")
        singles = {next(iter(p)) for p in play_sets(g)}
        assert singles == {r + "H" for r in RANKS if RANKS.index(r) > RANKS.index(led[:-1])}
        check_list(g, [led])
    g = g4({A: ["3D"], B: ["AS"], C: ["2D", "KS"]})
    act(g, "play 3D", "play AS")
    assert {"2D"} in [set(p) for p in play_sets(g)]                   # the 2 is above the ace
    assert_illegal(g, "play KS")


def test_B2_DEAL_3_suit_order_diamonds_clubs_hearts_spades():
    """Within one rank: D < C < H < S.  3D is the lowest card, 2S the highest."""
    g = g4({A: ["3D"], B: ["9C"], C: ["9D", "9H", "9S"]})
    act(g, "play 3D", "play 9C")
    assert {next(iter(p)) for p in play_sets(g) if len(p) == 1 and next(iter(p))[0] == "9"} == {"9H", "9S"}
    assert_illegal(g, "play 9D")
    assert min(ALL_CARDS, key=strength) == "3D" and max(ALL_CARDS, key=strength) == "2S"
    g = g4({A: ["3D"], B: ["2S"]})
    act(g, "play 3D", "play 2S")
    for _ in range(2):                                                  # nobody can beat 2S
        assert legal(g) == ["pass"]
        g.apply("pass")


def test_B2_DEAL_4_rank_beats_suit():
    g = g4({A: ["3D"], B: ["9S"], C: ["10D", "9H"]})
    act(g, "play 3D", "play 9S")
    assert {"10D"} in [set(p) for p in play_sets(g)]                   # 10D beats 9S
    assert_illegal(g, "play 9H")
    g = g4({A: ["3D"], B: ["10D"], C: ["9S", "JD"]})
    act(g, "play 3D", "play 10D")
    assert_illegal(g, "play 9S")                                        # 9S does not beat 10D


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_B2_DEAL_5_four_players_thirteen_each_one_at_a_time_from_the_dealers_right(dealer):
    deck = list(ALL_CARDS)
    g = rules().new_game(players=4, seed=1, dealer=dealer, deck=deck)
    seats = deal_seats(4, dealer)
    assert seats[0] == (dealer - 1) % 4                                # counterclockwise: the dealer's right
    for k, s in enumerate(seats):
        assert sorted(g.hand_of(s)) == sorted(deck[k::4])
        assert len(g.hand_of(s)) == 13


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_B2_DEAL_6_three_players_seventeen_each_and_the_last_card_to_the_3D_holder(dealer):
    deck = list(ALL_CARDS)                                             # 3D on top, 2S the 52nd card
    g = rules().new_game(players=3, seed=1, dealer=dealer, deck=deck)
    seats = deal_seats(3, dealer)
    first = seats[0]
    assert sorted(g.hand_of(first)) == sorted(deck[0:51:3] + ["2S"])   # 3D holder: 17 + the 52nd
    for k, s in enumerate(seats[1:], start=1):
        assert sorted(g.hand_of(s)) == sorted(deck[k:51:3])
    assert sorted(len(g.hand_of(s)) for s in range(3)) == [17, 17, 18]
    assert g.current_player == first
    # another holder of 3D gets it, wherever the card sits
    g = g3({B3: ["3D"]}, extra="KH")
    assert "KH" in g.hand_of(B3) and len(g.hand_of(B3)) == 18 and g.current_player == B3


def test_B2_DEAL_7_three_players_a_52nd_card_3D_goes_to_the_3C_holder():
    g = g3({B3: ["3C"]}, extra="3D")
    assert "3D" in g.hand_of(B3) and "3C" in g.hand_of(B3)
    assert [len(g.hand_of(s)) for s in (A3, B3, C3)] == [17, 18, 17]
    assert g.current_player == B3                                       # now the 3D holder: leads
    assert all("3D" in cards_of(a) for a in legal(g))


def test_B2_DEAL_9_first_dealer_random_then_the_deal_passes_to_the_right():
    dealers = {rules().new_game(players=4, seed=s).view(0)["dealer"] for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    g = g4({A: ["3D"]}, overrides={"penalty_limit": 1000})
    lead_out(g, A)
    assert g.hand_number == 2 and g.view(0)["dealer"] == (D - 1) % 4   # next dealer: the dealer's right
    h = next(s for s in range(4) if "3D" in g.hand_of(s))
    lead_out(g, h)
    assert g.view(0)["dealer"] == (D - 2) % 4


def test_B2_DEAL_9_turn_order_is_counterclockwise():
    g = g4({A: ["3D"]})
    seen = [g.current_player]
    g.apply("play 3D")
    for _ in range(3):
        seen.append(g.current_player)
        g.apply("pass")
    assert seen == [0, 3, 2, 1]                                         # seat numbers fall: counterclockwise
    assert g.current_player == A


# ==================================================================================================
# 2. Turn
# ==================================================================================================


@pytest.mark.parametrize("holder", [A, B, C, D])
def test_B2_TURN_1_the_3D_holder_leads_the_first_hand(holder):
    g = g4({holder: ["3D"]})
    assert g.current_player == holder


def test_B2_TURN_1_the_3D_holder_leads_every_later_hand_too():
    g = g4({A: ["3D"]})
    for _ in range(3):
        if g.is_over:
            break
        h = next(s for s in range(4) if "3D" in g.hand_of(s))
        assert g.current_player == h
        assert all("3D" in cards_of(a) for a in legal(g))
        lead_out(g, h)
    assert g.hand_number >= 2


def test_B2_TURN_2_the_first_play_must_include_3D():
    hand = ["3D", "3C", "3H", "3S", "4D", "5C", "6H", "7S", "9D", "JD", "QD", "KD", "KS"]
    g = g4({A: hand})
    want = expected_plays(hand, must_include="3D")
    assert play_sets(g) == want
    kinds = {classify(p)[0] for p in want}
    assert kinds == {"single", "pair", "triple", "straight", "flush", "full_house", "four_of_a_kind"}
    assert all("3D" in p for p in want)
    for a in ["play 4D", "play KD KS", "play 3C", "play 3C 3H", "play 9D JD QD KD 4D"]:
        assert_illegal(g, a)
    g.apply("play 3D 3C 3H 3S KS")                                      # inside a five-card hand (B2-EDGE-1)
    assert kind(g) == "four_of_a_kind"


def test_B2_TURN_3_a_leader_may_lead_any_play_but_may_not_pass():
    g = g4({A: ["3D", "4D", "4C", "5D", "5C", "5H", "6S", "7S", "8S", "9S", "10H", "QH", "KH"]})
    assert_illegal(g, "pass")
    free_lead(g)
    check_list(g)                                                       # every play of the hand
    assert {len(p) for p in play_sets(g)} == {1, 2, 3, 5}
    assert_illegal(g, "pass")
    g.apply("play 6S 7S 8S 9S 10H")
    assert kind(g) == "straight" and g.current_player == B


def test_B2_TURN_4_beat_the_last_play_or_pass():
    g = g4({A: ["3D", "7D"], B: ["7C", "8D", "8C", "9H", "9S", "JS", "QS", "KS", "AS", "2C"]})
    g.apply("play 3D")
    check_list(g, ["3D"])
    g.apply("pass")
    g.apply("pass")
    g.apply("pass")
    g.apply("play 7D")
    assert g.current_player == B
    check_list(g, ["7D"])
    assert_illegal(g, "play 8D 8C")
    g.apply("play 7C")
    assert trick(g)["last_play"] == ["7C"] and trick(g)["last_player"] == B


def test_B2_TURN_5_a_player_may_pass_when_able_to_beat():
    g = g4({A: ["3D"], B: ["2S", "2H", "AS"]})
    g.apply("play 3D")
    assert "pass" in legal(g) and len(play_sets(g)) > 0
    g.apply("pass")
    assert g.current_player == C and trick(g)["last_play"] == ["3D"]


def test_B2_TURN_6_a_pass_does_not_lock_the_player_out_of_the_trick():
    g = g4({A: ["3D", "6D"], B: ["7D"], C: ["5D"]})
    act(g, "play 3D", "pass", "play 5D", "pass", "play 6D")
    assert g.current_player == B                                        # B passed once, plays now
    g.apply("play 7D")
    assert trick(g)["last_player"] == B


def test_B2_TURN_7_when_all_others_pass_the_last_player_leads_anything():
    g = g4({A: ["3D"], B: ["9D", "4C", "5C", "6H", "7S", "8D"], C: ["10D"]})
    act(g, "play 3D", "play 9D", "play 10D")
    g.apply("pass")                                                     # D
    g.apply("pass")                                                     # A
    assert g.current_player == B and trick(g)["last_play"] == ["10D"]   # one more pass needed
    g.apply("pass")                                                     # B: all others passed C's 10D
    assert g.current_player == C and trick(g)["last_play"] == []
    v = g.view(0)
    assert v["zones"]["trick"]["count"] == 0 and v["zones"]["played"]["count"] == 3
    assert sorted(v["zones"]["played"]["cards"]) == sorted(["3D", "9D", "10D"])
    check_list(g)                                                       # C leads any play
    assert "pass" not in legal(g)


def test_B2_TURN_7_the_trick_ends_after_the_others_pass_the_second_play():
    g = g4({A: ["3D"], B: ["9D", "4C", "5C", "6H", "7S", "8D"]})
    act(g, "play 3D", "play 9D", "pass", "pass", "pass")
    assert g.current_player == B and trick(g)["last_play"] == []
    check_list(g)
    assert any(len(p) == 5 for p in play_sets(g))                      # a five-card hand may be led
    g.apply("play 4C 5C 6H 7S 8D")
    assert kind(g) == "straight"


def test_B2_TURN_8_every_hand_size_is_public_the_cards_are_not():
    g = g4({A: ["3D", "4D", "4C"]})
    act(g, "play 3D", "pass", "pass", "pass", "play 4D 4C")
    for s in range(4):
        hz = g.view(s)["zones"]["hand"]
        assert [h["count"] for h in hz] == [len(g.hand_of(t)) for t in range(4)]
        assert [h["count"] for h in hz] == [10, 13, 13, 13]
        assert all(("cards" in hz[t]) == (t == s) for t in range(4))


# ==================================================================================================
# 3. Plays
# ==================================================================================================


def test_B2_PLAY_1_plays_are_one_two_three_or_five_cards():
    hand = ["3D", "3C", "3H", "3S", "4D", "4C", "5D", "5C", "6H", "7S", "8D", "9D", "10D"]
    g = g4({A: hand})
    free_lead(g)
    assert {len(p) for p in play_sets(g)} == {1, 2, 3, 5}
    for bad in ["play 3C 3H 3S 4D",                     # three and one
                "play 4D 4C 5D 5C",                     # two pairs
                "play 4D 5D 6H 7S",                     # four in sequence
                "play 4D 5C 6H 7S 8D 9D",               # six in sequence
                "play 4D 5C 7S 9D 10D",                 # five cards of no kind
                "play 3C 4D",                           # two ranks
                "play 3C 3H 3S 4D 4C 5D"]:              # a triple with too much
        with pytest.raises(IllegalAction, match="not a play"):
            g.apply(bad)
        assert_illegal(g, bad)


def test_B2_PLAY_2_only_the_same_number_of_cards_beats():
    b = ["4D", "4C", "5C", "6H", "7S", "8D", "2S", "9D", "9C", "9H"]
    g = g4({A: ["3D", "3C"], B: b})
    g.apply("play 3D 3C")
    check_list(g, ["3D", "3C"])
    assert all(len(p) == 2 for p in play_sets(g))
    for a in ["play 2S", "play 4C 5C 6H 7S 8D", "play 9D 9C 9H", "play 9D 9C 9H 4D 4C"]:
        assert_illegal(g, a)                          # a five-card hand does not beat a pair, nor a triple
    g = g4({A: ["3D"], B: b})
    g.apply("play 3D")
    assert all(len(p) == 1 for p in play_sets(g))
    assert_illegal(g, "play 4D 4C")                   # a pair does not beat a single


def test_B2_PLAY_3_singles_compare_by_rank_then_suit():
    c = ["4S", "9D", "9S", "10D", "JC", "QH", "KS", "AD", "2D", "5H", "6C", "7S", "8H"]
    g = g4({A: ["3D"], B: ["9H"], C: c})
    act(g, "play 3D", "play 9H")
    check_list(g, ["9H"])
    assert {next(iter(p)) for p in play_sets(g)} == {"9S", "10D", "JC", "QH", "KS", "AD", "2D"}


def test_B2_PLAY_4_pairs_compare_by_rank_then_the_higher_suit():
    g = g4({A: ["3D", "3C"], B: ["9H", "9C"], C: ["9S", "9D"]})
    act(g, "play 3D 3C", "play 9H 9C")
    assert frozenset({"9S", "9D"}) in play_sets(g)                     # S beats H
    check_list(g, ["9H", "9C"])
    g.apply("play 9S 9D")
    assert trick(g)["last_player"] == C and kind(g) == "pair"
    g = g4({A: ["3D", "3C"], B: ["9S", "9D"], C: ["9H", "9C", "10D", "10C"]})
    act(g, "play 3D 3C", "play 9S 9D")
    assert_illegal(g, "play 9H 9C")
    assert frozenset({"10D", "10C"}) in play_sets(g)                   # a higher rank, any suits
    check_list(g, ["9S", "9D"])


def test_B2_PLAY_5_triples_compare_by_rank():
    g = g4({A: ["3D", "3C", "3H"], B: ["4D", "4C", "4H", "5S", "5H", "5C"], C: ["2D", "2C"]})
    act(g, "play 3D 3C 3H")
    check_list(g, ["3D", "3C", "3H"])
    assert {frozenset(p) for p in play_sets(g)} >= {frozenset({"4D", "4C", "4H"}), frozenset({"5S", "5H", "5C"})}
    g.apply("play 4D 4C 4H")
    assert kind(g) == "triple"
    assert g.current_player == C
    assert_illegal(g, "play 2D 2C")                                     # a pair does not beat a triple
    check_list(g, ["4D", "4C", "4H"])


STRAIGHT = ["4C", "5H", "6S", "7D", "8C"]
FLUSH = ["4H", "6H", "9H", "JH", "KH"]
FULL_HOUSE = ["5D", "5C", "5S", "2D", "2C"]
FOUR = ["10D", "10C", "10H", "10S", "3C"]
STRAIGHT_FLUSH = ["JS", "QS", "KS", "AS", "2S"]
FIVES = [("straight", STRAIGHT), ("flush", FLUSH), ("full_house", FULL_HOUSE), ("four_of_a_kind", FOUR),
         ("straight_flush", STRAIGHT_FLUSH)]


@pytest.mark.parametrize("lo,hi", [(lo, hi) for hi in range(5) for lo in range(hi)])
def test_B2_PLAY_6_five_card_hands_rank_straight_flush_full_house_four_straight_flush(lo, hi):
    """Any hand of a higher type beats any hand of a lower type, and never the other way round."""
    (lo_kind, lo_cards), (hi_kind, hi_cards) = FIVES[lo], FIVES[hi]
    g = g4({A: ["3D"] + lo_cards, B: hi_cards})
    free_lead(g)
    g.apply("play " + " ".join(lo_cards))
    assert kind(g) == lo_kind
    assert frozenset(hi_cards) in play_sets(g)
    g.apply("play " + " ".join(hi_cards))
    assert kind(g) == hi_kind
    g = g4({A: ["3D"] + hi_cards, B: lo_cards})
    free_lead(g)
    g.apply("play " + " ".join(hi_cards))
    assert frozenset(lo_cards) not in play_sets(g)
    assert_illegal(g, "play " + " ".join(lo_cards))


def test_B2_PLAY_6_one_trick_climbs_through_every_type():
    a = ["3D", "4C", "5H", "6S", "7D", "10S", "JS", "QS", "KS", "AS"]
    b = ["4H", "6H", "9H", "JH", "KH"]
    c = ["5D", "5C", "5S", "2D", "2C"]
    d = ["8D", "8C", "8H", "8S", "3C"]
    g = g4({A: a, B: b, C: c, D: d})
    steps = [(A, ["3D", "4C", "5H", "6S", "7D"], "straight"), (B, b, "flush"), (C, c, "full_house"),
             (D, d, "four_of_a_kind"), (A, ["10S", "JS", "QS", "KS", "AS"], "straight_flush")]
    last: list = []
    for seat, cards, k in steps:
        assert g.current_player == seat
        check_list(g, last, must_include="3D" if not last else None)
        g.apply("play " + " ".join(cards))
        assert kind(g) == k
        last = cards


def test_B2_PLAY_7_a_straight_is_five_in_sequence_not_all_one_suit():
    g = g4({A: ["3D"] + STRAIGHT})
    free_lead(g)
    g.apply("play " + " ".join(STRAIGHT))
    assert kind(g) == "straight"
    assert classify(STRAIGHT) == ("straight", strength("8C"))


@pytest.mark.parametrize("cards,ok", [
    (["3C", "4D", "5H", "6S", "7C"], True),             # the lowest
    (["JD", "QC", "KH", "AS", "2C"], True),             # the highest
    (["QD", "KC", "AH", "2S", "3C"], False),            # no wrap round the 2
    (["KD", "AC", "2H", "3S", "4C"], False),
    (["AD", "2C", "3H", "4S", "5C"], False),
    (["2D", "3C", "4H", "5S", "6C"], False),
])
def test_B2_PLAY_8_straights_run_three_to_two_without_wrapping(cards, ok):
    hold = ["3D"] + cards
    g = g4({A: hold})
    free_lead(g)
    text = "play " + " ".join(cards)
    if ok:
        assert frozenset(cards) in play_sets(g)
        g.apply(text)
        assert kind(g) == "straight"
    else:
        assert frozenset(cards) not in play_sets(g)
        with pytest.raises(IllegalAction, match="not a play"):
            g.apply(text)


def test_B2_PLAY_8_J_Q_K_A_2_is_the_highest_straight():
    top = ["JD", "QC", "KH", "AS", "2C"]
    ace = ["10S", "JS", "QH", "KS", "AH"]
    g = g4({A: ["3D"] + ace, B: top})
    free_lead(g)
    g.apply("play " + " ".join(ace))
    assert frozenset(top) in play_sets(g)
    g = g4({A: ["3D"] + top, B: ace + ["2D"]})        # B also holds J-Q-K-A-2 topped by 2D < 2C
    free_lead(g)
    g.apply("play " + " ".join(top))
    check_list(g, top)
    assert not any(classify(p)[0] == "straight" for p in play_sets(g))
    assert_illegal(g, "play JS QH KS AH 2D")


def test_B2_PLAY_9_straights_compare_by_the_top_card_rank_then_suit():
    nine_h = ["5D", "6D", "7C", "8C", "9H"]
    nine_s = ["5C", "6C", "7D", "8D", "9S"]
    ten_low = ["6H", "7H", "8H", "9D", "10D"]
    g = g4({A: ["3D"] + nine_h, B: nine_s + ten_low})
    free_lead(g)
    g.apply("play " + " ".join(nine_h))
    assert frozenset(nine_s) in play_sets(g) and frozenset(ten_low) in play_sets(g)
    check_list(g, nine_h)
    g = g4({A: ["3D"] + nine_s, B: nine_h + ten_low})
    free_lead(g)
    g.apply("play " + " ".join(nine_s))
    assert_illegal(g, "play " + " ".join(nine_h))                      # same top rank, lower suit
    assert frozenset(ten_low) in play_sets(g)                          # a higher top rank, whatever suits


def test_B2_PLAY_10_flushes_compare_by_their_highest_card_only():
    """Ruleset reading: top card's rank, then its suit; the lower cards never count."""
    diamonds = ["KD", "QD", "JD", "9D", "4D"]        # card by card the stronger one
    hearts = ["KH", "9H", "7H", "5H", "4H"]
    g = g4({A: ["3D"] + diamonds, B: hearts})
    free_lead(g)
    g.apply("play " + " ".join(diamonds))
    assert kind(g) == "flush"
    assert frozenset(hearts) in play_sets(g)                           # K = K, hearts above diamonds
    g = g4({A: ["3D"] + hearts, B: diamonds})
    free_lead(g)
    g.apply("play " + " ".join(hearts))
    assert_illegal(g, "play " + " ".join(diamonds))


def test_B2_PLAY_10_a_higher_top_card_beats_whatever_the_suit():
    ace_d = ["AD", "9D", "7D", "5D", "4D"]
    king_s = ["KS", "JS", "9S", "7S", "5S"]
    g = g4({A: ["3D"] + king_s, B: ace_d})
    free_lead(g)
    g.apply("play " + " ".join(king_s))
    check_list(g, king_s)
    assert frozenset(ace_d) in play_sets(g)
    g = g4({A: ["3D"] + ace_d, B: king_s})
    free_lead(g)
    g.apply("play " + " ".join(ace_d))
    assert_illegal(g, "play " + " ".join(king_s))


def test_B2_PLAY_11_full_houses_compare_by_the_triple():
    nines = ["9D", "9C", "9H", "2D", "2C"]
    tens = ["10D", "10C", "10H", "4D", "4C"]
    g = g4({A: ["3D"] + nines, B: tens})
    free_lead(g)
    g.apply("play " + " ".join(nines))
    assert kind(g) == "full_house"
    assert frozenset(tens) in play_sets(g)
    g = g4({A: ["3D"] + tens, B: nines})
    free_lead(g)
    g.apply("play " + " ".join(tens))
    assert_illegal(g, "play " + " ".join(nines))                       # the pair of 2s does not count


def test_B2_PLAY_12_four_of_a_kind_compares_by_the_four_not_the_fifth_card():
    fives = ["5D", "5C", "5H", "5S", "2S"]
    sixes = ["6D", "6C", "6H", "6S", "4D"]
    g = g4({A: ["3D"] + fives, B: sixes})
    free_lead(g)
    g.apply("play " + " ".join(fives))
    assert kind(g) == "four_of_a_kind"
    assert frozenset(sixes) in play_sets(g)
    g = g4({A: ["3D"] + sixes, B: fives})
    free_lead(g)
    g.apply("play " + " ".join(sixes))
    assert_illegal(g, "play " + " ".join(fives))


def test_B2_PLAY_13_straight_flushes_compare_by_the_top_card_rank_then_suit():
    h9 = ["5H", "6H", "7H", "8H", "9H"]
    s9 = ["5S", "6S", "7S", "8S", "9S"]
    d10 = ["6D", "7D", "8D", "9D", "10D"]
    g = g4({A: ["3D"] + h9, B: s9 + d10})
    free_lead(g)
    g.apply("play " + " ".join(h9))
    assert kind(g) == "straight_flush"
    check_list(g, h9)
    assert {frozenset(s9), frozenset(d10)} <= play_sets(g)
    g = g4({A: ["3D"] + s9, B: h9 + d10})
    free_lead(g)
    g.apply("play " + " ".join(s9))
    assert_illegal(g, "play " + " ".join(h9))
    g.apply("play " + " ".join(d10))
    assert kind(g) == "straight_flush"


def test_B2_PLAY_14_a_play_that_does_not_beat_is_refused_and_nothing_changes():
    g = g4({A: ["3D"], B: ["9H"], C: ["9D", "5C", "5D", "8S", "10C"], D: ["2S"]})
    act(g, "play 3D", "play 9H")
    assert g.current_player == C
    for a in ["play 9D", "play 8S"]:
        with pytest.raises(IllegalAction, match="does not beat"):
            g.apply(a)
    for a in ["play 9D", "play 5C 5D", "play 8S", "play 9H", "play 2S", "play", "play XX", "discard 10C"]:
        assert_illegal(g, a)
    g.apply("play 10C")
    assert trick(g)["last_play"] == ["10C"]


# ==================================================================================================
# 4. Going out / end of the hand
# ==================================================================================================


A_OUT = ["3D", "4C", "4D", "5C", "5D", "5H", "2H", "2S", "6C", "7C", "8D", "9D", "10D"]


@pytest.mark.parametrize("last", ["2S", "6C 7C 8D 9D 10D"])
def test_B2_END_1_any_legal_play_may_be_the_last(last):
    g = g4({A: A_OUT})
    seq = ["3D", "4C 4D", "5C 5D 5H", "2H"] + [x for x in ["2S", "6C 7C 8D 9D 10D"] if x != last] + [last]
    for p in seq:
        assert g.current_player == A and g.hand_number == 1
        g.apply("play " + p)
        if p != last:
            passes(g, 3)
    assert g.hand_number == 2 and g.hand_log[0]["order"][0] == A


def test_B2_END_2_the_first_player_out_ends_the_hand_at_once():
    g = g4({A: ["3D"]})
    held = None
    for _ in range(13):
        held = [len(g.hand_of(s)) for s in range(4)]
        assert g.hand_number == 1
        g.apply(min((a for a in legal(g) if len(a.split()) == 2), key=lambda a: strength(a.split()[1])))
        if g.hand_number == 1:
            passes(g, 3)
    assert held == [1, 13, 13, 13]
    rec = g.hand_log[0]
    assert g.hand_number == 2 and len(g.hand_log) == 1 and rec["ending"] == "out"
    assert rec["order"][0] == A
    assert [b for b in g.scores] == [117, -39, -39, -39]               # the others kept their 13 cards


# ==================================================================================================
# 5. Scoring
# ==================================================================================================


def chain_hand(k: int, n: int = 4, name: str = "big_two", overrides=None):
    """A (3D) and the next player L trade ``k`` rising singles each, then A sheds the rest alone: L ends
    with ``13 - k`` (4 players) or ``17 - k`` (3 players) cards, every other loser with all of theirs."""
    chain = ALL_CARDS[:2 * k + 1]                       # rising by rank, then suit; 3D first
    a, l = chain[0::2], chain[1::2]
    seat_a = 0
    g = new_game({0: a, (n - 1): l}, n=n, dealer=1, name=name, overrides=overrides)
    loser = n - 1                                        # the next seat counterclockwise
    assert g.current_player == seat_a
    for i in range(k):
        g.apply(f"play {a[i]}")
        g.apply(f"play {l[i]}")
        passes(g, n - 2)
    g.apply(f"play {a[k]}")
    if g.hand_number == 1:
        passes(g, n - 1)
        lead_out(g, seat_a)
    return g, loser


def chain_scores(k: int) -> tuple:
    """Scores after ``chain_hand(k)`` (4 players): the loser L ends with 13 - k cards, B's neighbours C and
    D with 13; A wins."""
    g, loser = chain_hand(k)
    assert loser == B and len(g.hand_log) == 1 and g.hand_log[0]["order"][0] == A
    return g, [g.scores[s] for s in (A, B, C, D)]


def test_B2_SCORE_1_each_loser_pays_for_the_cards_left_in_hand():
    g, got = chain_scores(6)                            # B keeps 7 cards, C and D 13
    assert got[1:] == [-7, -39, -39]
    assert got[0] == 7 + 39 + 39


@pytest.mark.parametrize("k,left", [(4, 9), (6, 7), (10, 3), (12, 1)])
def test_B2_SCORE_2_one_point_a_card_below_ten(k, left):
    g, got = chain_scores(k)
    assert 13 - k == left and got[1] == -left == -penalty(left)


@pytest.mark.parametrize("k,left", [(1, 12), (3, 10)])
def test_B2_SCORE_3_two_points_a_card_from_ten_cards(k, left):
    g, got = chain_scores(k)
    assert got[1] == -2 * left == -penalty(left)
    assert got[0] == 2 * left + 78


def test_B2_SCORE_4_three_points_a_card_from_thirteen_cards():
    g, got = chain_scores(0)                            # nobody but A plays
    assert got == [117, -39, -39, -39]
    g = g4({A: ["3D"]}, overrides={"triple_at": 0})     # the parameters move the thresholds
    lead_out(g, A)
    assert [g.scores[s] for s in (B, C, D)] == [-26, -26, -26]
    g = g4({A: ["3D"]}, overrides={"triple_at": 0, "double_at": 14})
    lead_out(g, A)
    assert [g.scores[s] for s in (B, C, D)] == [-13, -13, -13]


def test_B2_SCORE_5_example_losers_with_3_11_and_13_cards():
    """A (3D) wins; B ends with 3 cards, C with 11, D with 13: -3, -22, -39, and A +64."""
    a = ["3D", "3H", "5H", "JH", "QH", "KH", "4D", "4C", "7D", "7C", "9D", "9C", "10D"]
    b = ["2S", "10S", "JD", "QC", "KS", "AS", "5D", "5C", "8D", "8C"]
    c = ["6D", "6C"]
    g = g4({A: a, B: b, C: c})
    act(g, "play 3D", "play 2S", "pass", "pass", "pass")                          # B wins the trick
    act(g, "play 10S JD QC KS AS", "pass", "pass", "play 3H 5H JH QH KH", "pass", "pass", "pass")
    act(g, "play 4D 4C", "play 5D 5C", "play 6D 6C", "pass", "play 7D 7C", "play 8D 8C", "pass", "pass",
        "play 9D 9C", "pass", "pass", "pass")
    assert [len(g.hand_of(s)) for s in (A, B, C, D)] == [1, 3, 11, 13]
    g.apply("play 10D")
    assert g.hand_number == 2
    assert [g.scores[s] for s in (A, B, C, D)] == [64, -3, -22, -39]
    assert sum(g.scores) == 0
    assert g.hands_won[A] == 1


def test_B2_SCORE_6_three_players_thresholds_count_cards_left():
    """3 players: the 3D holder (18 cards) goes out alone; the others hold 17 each: 3 x 17 = 51 each."""
    g = g3({A3: ["3D"]})
    assert len(g.hand_of(A3)) == 18
    lead_out(g, A3)
    assert [g.scores[s] for s in (A3, B3, C3)] == [102, -51, -51]


def test_B2_SCORE_6_three_players_a_player_who_played_still_pays_triple_at_thirteen():
    g, loser = chain_hand(4, n=3)                       # L plays 4 of 17 cards: 13 left
    assert loser == B3
    assert [g.scores[s] for s in (A3, B3, C3)] == [39 + 51, -39, -51]
    g, loser = chain_hand(5, n=3)                       # 12 left: double
    assert [g.scores[s] for s in (A3, B3, C3)] == [24 + 51, -24, -51]


# ==================================================================================================
# 6. Match end
# ==================================================================================================


def test_B2_MATCH_1_the_match_ends_after_the_hand_where_a_penalty_reaches_50():
    g = g4({A: ["3D"]})
    hands = 0
    while not g.is_over:
        h = next(s for s in range(4) if "3D" in g.hand_of(s))
        lead_out(g, h)
        hands += 1
        assert g.is_over == (min(g.scores) <= -50), g.scores
        assert hands < 10
    assert min(g.scores) <= -50 and hands >= 2                       # hand 1 leaves everyone at -39
    assert g.legal_actions() == [] and g.current_player is None


@pytest.mark.parametrize("limit,over", [(39, True), (40, False)])
def test_B2_MATCH_1_reaching_the_limit_exactly_ends_the_match(limit, over):
    g = g4({A: ["3D"]}, overrides={"penalty_limit": limit})
    lead_out(g, A)
    assert min(g.scores) == -39
    assert g.is_over == over


def test_B2_MATCH_2_the_highest_score_wins_an_equal_best_is_shared():
    shared = single = None
    for seed in range(40):
        g = g4({A: ["3D"]}, seed=seed)
        lead_out(g, A)                                                 # A +117, the others -39
        h = next(s for s in range(4) if "3D" in g.hand_of(s))
        lead_out(g, h)
        assert g.is_over
        if h == A and single is None:
            single = g
        if h != A and shared is None:
            shared = (g, h)
        if single and shared:
            break
    assert single is not None and shared is not None
    assert single.winner == A and single.scores[A] == max(single.scores) == 234
    g, h = shared
    assert g.scores[A] == g.scores[h] == 78 == max(g.scores)
    assert g.winner is None                                            # shared: no single winner


# ==================================================================================================
# 7. Edge cases
# ==================================================================================================


@pytest.mark.parametrize("play,k", [("3D 3C", "pair"), ("3D 3C 3H", "triple"),
                                    ("3D 4C 5H 6S 7D", "straight"), ("3D 3C 3H 9S 9H", "full_house"),
                                    ("3D 6D 8D 10D QD", "flush")])
def test_B2_EDGE_1_3D_may_be_led_inside_any_play(play, k):
    g = g4({A: play.split()})
    g.apply("play " + play)
    assert kind(g) == k and trick(g)["last_player"] == A


def test_B2_EDGE_2_a_single_2S_cannot_be_beaten_its_player_leads_again():
    g = g4({A: ["3D", "2S"], B: ["2H", "2D", "2C"]})
    act(g, "play 3D", "pass", "pass", "pass", "play 2S")
    for _ in range(3):
        assert legal(g) == ["pass"]
        g.apply("pass")
    assert g.current_player == A and trick(g)["last_play"] == []


def test_B2_EDGE_3_four_of_a_kind_needs_a_fifth_card():
    g = g4({A: ["3D", "7D", "7C", "7H", "7S", "9D"]})
    free_lead(g)
    assert frozenset({"7D", "7C", "7H", "7S"}) not in play_sets(g)
    assert_illegal(g, "play 7D 7C 7H 7S")
    assert frozenset({"7D", "7C", "7H", "7S", "9D"}) in play_sets(g)


def test_B2_EDGE_4_five_in_sequence_of_one_suit_is_a_straight_flush_only():
    sf = ["4D", "5D", "6D", "7D", "8D"]
    g = g4({A: ["3D"] + sf})
    free_lead(g)
    g.apply("play " + " ".join(sf))
    assert kind(g) == "straight_flush"
    assert classify(sf)[0] == "straight_flush"


def test_B2_EDGE_5_a_triple_carries_no_extra_card_except_in_a_full_house():
    g = g4({A: ["3D", "8D", "8C", "8H", "9S", "9H", "JD"]})
    free_lead(g)
    for bad in ["play 8D 8C 8H 9S", "play 8D 8C 8H 9S JD", "play 8D 8C 8H JD"]:
        assert_illegal(g, bad)
    g.apply("play 8D 8C 8H 9S 9H")
    assert kind(g) == "full_house"


def test_B2_EDGE_6_same_top_rank_the_top_cards_suit_decides_not_the_others():
    low_suits_top_s = ["5D", "6D", "7D", "8D", "9S"]
    high_suits_top_h = ["5S", "6S", "7S", "8S", "9H"]
    g = g4({A: ["3D"] + high_suits_top_h, B: low_suits_top_s})
    free_lead(g)
    g.apply("play " + " ".join(high_suits_top_h))
    assert frozenset(low_suits_top_s) in play_sets(g)


def test_B2_EDGE_7_three_players_the_18_card_hand_plays_normally():
    g = g3({A3: ["3D"]})
    assert len(g.hand_of(A3)) == 18
    check_list(g, must_include="3D")
    g.apply("play 3D")
    assert len(g.hand_of(A3)) == 17


def test_B2_EDGE_8_going_out_with_the_last_play_of_a_trick_needs_no_new_lead():
    g = g4({A: ["3D", "4D", "4C", "5D", "5C", "5H", "6S", "7S", "8S", "9S", "10H", "2S", "2H"]})
    act(g, "play 3D", "pass", "pass", "pass", "play 4D 4C", "pass", "pass", "pass",
        "play 5D 5C 5H", "pass", "pass", "pass", "play 6S 7S 8S 9S 10H", "pass", "pass", "pass", "play 2H",
        "pass", "pass", "pass")
    assert g.hand_of(A) == ["2S"] and g.hand_number == 1
    g.apply("play 2S")
    assert g.hand_number == 2 and len(g.hand_log) == 1                # no pass round, no new lead in hand 1
    assert g.view(0)["trick"]["last_play"] == [] and g.view(0)["zones"]["played"]["count"] == 0


# ==================================================================================================
# 8. Variants
# ==================================================================================================


def test_B2_VAR_3_clockwise_direction_parameter():
    r = rules("big_two", {"direction": "clockwise"})
    deck = list(ALL_CARDS)
    g = r.new_game(players=4, seed=1, dealer=1, deck=deck)
    assert sorted(g.hand_of(2)) == sorted(deck[0::4])                  # the dealer's left gets the first card
    assert g.current_player == 2
    seen = [g.current_player]
    g.apply("play 3D")
    for _ in range(3):
        seen.append(g.current_player)
        g.apply("pass")
    assert seen == [2, 3, 0, 1]
    lead_out(g, 2)
    assert g.view(0)["dealer"] == 2                                    # and the deal passes to the left


def test_B2_VAR_5_no_twos_in_straights():
    name = "big_two_no_twos_in_straights"
    top = ["JD", "QC", "KH", "AS", "2C"]
    ace = ["10D", "JC", "QH", "KS", "AH"]
    g = new_game({A: ["3D"] + top + ace}, n=4, dealer=D, name=name)
    free_lead(g)
    hand = g.hand_of(A)
    assert play_sets(g) == expected_plays(hand, twos_in_straights=False)
    assert frozenset(top) not in play_sets(g)
    with pytest.raises(IllegalAction, match="not a play"):
        g.apply("play " + " ".join(top))
    g.apply("play " + " ".join(ace))
    assert kind(g) == "straight"
    base = g4({A: ["3D"] + top})                                       # the base game allows it
    free_lead(base)
    assert frozenset(top) in play_sets(base)


def test_B2_VAR_5_no_twos_a_suited_J_to_2_is_a_flush():
    name = "big_two_no_twos_in_straights"
    suited = ["JH", "QH", "KH", "AH", "2H"]
    g = new_game({A: ["3D"] + suited}, n=4, dealer=D, name=name)
    free_lead(g)
    g.apply("play " + " ".join(suited))
    assert kind(g) == "flush"
    g = g4({A: ["3D"] + suited})
    free_lead(g)
    g.apply("play " + " ".join(suited))
    assert kind(g) == "straight_flush"


def test_B2_VAR_8_pass_locks_out():
    hands = {A: ["3D", "6D"], B: ["7D"], C: ["5D"]}
    g = new_game(hands, n=4, dealer=D, name="big_two_pass_locks_out")
    act(g, "play 3D", "pass", "play 5D", "pass", "play 6D")
    assert trick(g)["locked_out"] == sorted([B, D])
    assert g.current_player == C                                        # B is skipped
    g.apply("pass")
    assert g.current_player == A and trick(g)["last_play"] == []        # A's 6D won the trick
    g = g4(hands)                                                       # base: B gets the turn
    act(g, "play 3D", "pass", "play 5D", "pass", "play 6D")
    assert g.current_player == B and trick(g)["locked_out"] == []


def test_B2_VAR_9_winner_leads_later_hands_with_any_play():
    found = False
    for seed in range(30):
        g = new_game({A: ["3D"]}, n=4, dealer=D, name="big_two_winner_leads", seed=seed)
        assert g.current_player == A                                    # hand 1: the 3D holder
        assert all("3D" in cards_of(a) for a in legal(g))
        lead_out(g, A)
        h = next(s for s in range(4) if "3D" in g.hand_of(s))
        if h == A:
            continue
        found = True
        assert g.current_player == A                                    # hand 2: the last winner
        check_list(g)                                                   # any play, no 3D needed
        base = g4({A: ["3D"]}, seed=seed)
        lead_out(base, A)
        assert base.current_player == h
        break
    assert found


def test_B2_VAR_10_bombs_beat_a_single_two():
    c = ["7D", "7C", "7H", "7S", "4D", "9S", "10S", "JS", "QS", "KS", "AD", "AC"]
    hands = {A: ["3D"], B: ["2D", "2H", "AS"], C: c}
    g = new_game(hands, n=4, dealer=D, name="big_two_bombs")
    act(g, "play 3D", "play 2D")
    check_list(g, ["2D"], bombs=True)
    assert frozenset({"7D", "7C", "7H", "7S", "4D"}) in play_sets(g)
    assert frozenset({"9S", "10S", "JS", "QS", "KS"}) in play_sets(g)
    g.apply("play 7D 7C 7H 7S 4D")
    assert kind(g) == "four_of_a_kind"
    g2 = g4(hands)                                                      # base: only a higher 2 or a pass
    act(g2, "play 3D", "play 2D")
    check_list(g2, ["2D"])
    assert all(len(p) == 1 for p in play_sets(g2))
    # no bomb on a single ace, nor on a pair of 2s
    g = new_game({A: ["3D"], B: ["AS", "2D", "2H"], C: c}, n=4, dealer=D, name="big_two_bombs")
    act(g, "play 3D", "play AS")
    check_list(g, ["AS"], bombs=True)
    assert all(len(p) == 1 for p in play_sets(g))
    g = new_game({A: ["3D", "3C"], B: ["2D", "2H"], C: c}, n=4, dealer=D, name="big_two_bombs")
    act(g, "play 3D 3C", "play 2D 2H")
    check_list(g, ["2D", "2H"], bombs=True)
    assert all(len(p) == 2 for p in play_sets(g))


def test_B2_VAR_15_flat_penalty_one_point_a_card():
    for k in (0, 3):
        g, loser = chain_hand(k, name="big_two_flat_penalty")
        assert -g.scores[loser] == 13 - k
        assert [g.scores[s] for s in (1, 2)] == [-13, -13]
        assert g.scores[0] == 26 + 13 - k


@pytest.mark.parametrize("name", ["big_two_pass_locks_out", "big_two_winner_leads", "big_two_flat_penalty",
                                  "big_two_bombs", "big_two_no_twos_in_straights"])
def test_B2_VAR_files_change_only_their_own_setting(name):
    base = rules().params
    own = {"big_two_pass_locks_out": {"pass_locks_out": True},
           "big_two_winner_leads": {"later_leader": "last_winner"},
           "big_two_flat_penalty": {"double_at": 0, "triple_at": 0},
           "big_two_bombs": {"bombs": True},
           "big_two_no_twos_in_straights": {}}[name]
    p = rules(name).params
    assert {k: v for k, v in p.items() if base.get(k) != v} == own
    assert rulesdsl.load("variants/" + name).new_game(players=3, seed=1).current_player is not None


def test_B2_VAR_19_four_twos_dealt_win_the_hand_at_once():
    from big_two_helpers import rules as _rules_of, stack as _stack
    hands = {B: ["2D", "2C", "2H", "2S"]}
    r = _rules_of("big_two_four_twos_win")
    g = r.new_game(seed=0, dealer=D, players=4, deck=_stack(hands, n=4, dealer=D))
    first = g.hand_log[0]
    assert first["ending"] == "four_twos" and g.history == [] and g.hand_number == 2
    assert g.scores[B] == 3 * 39 and all(g.scores[s] == -39 for s in (A, C, D))   # 13 cards each: x3
    base = new_game(hands, n=4, dealer=D)                       # the base game plays it out
    assert base.hand_log == [] and base.hand_number == 1
