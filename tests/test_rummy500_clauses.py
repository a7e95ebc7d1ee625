"""One test (at least) per clause of shared/spec/rummy_500.md, played through the public API.

Conventions: seats are A, B, C, ... = 0, 1, 2, ...  Unless a test says otherwise a game has 3 players and
the dealer is C, so A plays first, then B, then C.  Hands are stacked with ``rummy500_helpers.stack`` (the
deal of R500-DEAL-4: one card at a time from the dealer's left); cards a test does not name come from a
meld-free filler (``JUNK``).  ``pile_game`` builds a discard pile by real play without changing any hand
(each turn draws the next pile card from the stock and discards it).  Expected figures come from the spec
(card values, meld rules, scoring formula) through the independent oracle in the helpers, never from the
engine.
"""

from __future__ import annotations

from collections import Counter

import pytest

import rulesdsl
from rulesdsl import IllegalAction

from rummy500_helpers import (A, ALL_CARDS, B, C, D, JOKER, act, assert_illegal, deal, deck_cards, deltas, drain,
                              drawn, end_by_stock, finish, go, in_claim, is_meld, lay, legal, meld, meld_no, melds,
                              n_players, pass_claims, pile, pile_game, rules, stack, stock_count, stock_out, total,
                              variant_rules)

BASE = rules()


HEARTS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH"]


def quick_out(players=3, dealer=2, overrides=None, seed=0, others=None):
    """A hand that the first player (the dealer's left) ends on their first turn: they hold a heart run from
    2H (2H..8H with 7 cards, 2H..AH with 13), draw KC, meld 2H 3H 4H, lay off the other hearts one by one
    and discard KC.  ``others`` may give the other seats' hands."""
    first = (dealer + 1) % players
    size = 13 if players == 2 else 7
    hands = {first: HEARTS[:size]}
    hands.update(others or {})
    g = deal(hands, "QC", ["KC"], players=players, dealer=dealer, overrides=overrides, seed=seed)
    return g, first


def go_out_now(g, first):
    """The player set up by ``quick_out`` draws and places every heart (KC is left)."""
    act(g, "draw stock")
    hearts = [c for c in HEARTS if c in g.hand_of(first)]
    meld(g, *hearts[:3])
    for c in hearts[3:]:
        lay(g, c, "2H")


def end_quick(g, first):
    go_out_now(g, first)
    hand = g.hand_of(first)
    assert hand == ["KC"], hand
    g.apply("discard KC")


# ==================================================================================================
# 1. Setup / Deal
# ==================================================================================================


def seen_after_drain(g) -> Counter:
    """Every card of the hand: the hands, then the whole stock drawn and discarded onto the spread pile."""
    drain(g)
    seen = Counter()
    for s in range(n_players(g)):
        seen.update(g.hand_of(s))
    seen.update(pile(g))
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R500_DEAL_1_standard_52_card_deck_plus_two_jokers(players):
    g = BASE.new_game(seed=5, players=players)
    assert g.cards_in_play == 54
    assert seen_after_drain(g) == Counter(ALL_CARDS + [JOKER, JOKER])


def test_R500_DEAL_1_jokers_optional_and_jokers_per_deck():
    g = rules({"jokers_enabled": False}).new_game(seed=5, players=3)
    assert g.cards_in_play == 52
    assert seen_after_drain(g) == Counter(ALL_CARDS)
    g = rules({"jokers_per_deck": 1}).new_game(seed=5, players=3)
    assert g.cards_in_play == 53
    assert seen_after_drain(g) == Counter(ALL_CARDS + [JOKER])


def test_R500_DEAL_1_two_to_eight_players_and_the_stacked_deck_is_the_whole_deck():
    for n in range(2, 9):
        g = BASE.new_game(seed=1, players=n)
        assert g.view(0)["players"] == n
    for n in (1, 9):
        with pytest.raises((ValueError, rulesdsl.RulesdslError)):
            BASE.new_game(seed=1, players=n)
    deck = stack({}, "QC", players=3)
    BASE.new_game(seed=1, dealer=2, players=3, deck=deck)
    with pytest.raises(ValueError):                                  # a third joker is not in the deck
        BASE.new_game(seed=1, dealer=2, players=3, deck=[c for c in deck if c != "KS"] + [JOKER])
    with pytest.raises(ValueError):                                  # nor a 55th card
        BASE.new_game(seed=1, dealer=2, players=3, deck=deck + ["AS"])
    plain = stack({}, "QC", players=3, jokers_enabled=False)
    assert len(plain) == 52
    rules({"jokers_enabled": False}).new_game(seed=1, dealer=2, players=3, deck=plain)
    with pytest.raises(ValueError):                                  # no joker when jokers are off
        rules({"jokers_enabled": False}).new_game(seed=1, dealer=2, players=3,
                                                 deck=[c for c in plain if c != "KS"] + [JOKER])


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_R500_DEAL_2_five_or_more_players_use_two_decks(players):
    g = BASE.new_game(seed=2, players=players)
    assert g.cards_in_play == 108
    assert seen_after_drain(g) == Counter(deck_cards(players)) == Counter((ALL_CARDS + [JOKER] * 2) * 2)
    # a stacked two-deck deck (every card twice) is accepted
    deck = stack({0: ["5D", "5D", "5H"]}, "QC", players=players, dealer=players - 1)
    g = BASE.new_game(seed=2, dealer=players - 1, players=players, deck=deck)
    assert Counter(g.hand_of(0))["5D"] == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R500_DEAL_2_two_to_four_players_use_one_deck(players):
    g = BASE.new_game(seed=2, players=players)
    assert g.cards_in_play == 54
    deck = stack({}, "QC", players=players, dealer=players - 1)
    with pytest.raises(ValueError):                                  # a second 5D is not in one deck
        BASE.new_game(seed=2, dealer=players - 1, players=players, deck=deck[:-1] + ["5D"])


def test_R500_DEAL_2_decks_parameter():
    assert rules({"decks": "two"}).new_game(seed=1, players=4).cards_in_play == 108


def test_R500_DEAL_3_first_dealer_random_then_deal_passes_left():
    for n in (2, 3, 4, 5):
        dealers = {BASE.new_game(seed=s, players=n).view(0)["dealer"] for s in range(60)}
        assert dealers == set(range(n)), (n, dealers)
    for n, dealer in ((3, 2), (4, 1), (2, 0)):
        g, first = quick_out(players=n, dealer=dealer)
        end_quick(g, first)
        assert g.hand_log[-1]["ending"] == "out"
        assert g.hand_number == 2
        assert g.view(0)["dealer"] == (dealer + 1) % n
        assert g.current_player == (dealer + 2) % n
        stock_out(g)                                                 # a random hand ended by the stock
        assert g.view(0)["dealer"] == (dealer + 2) % n
        assert g.current_player == (dealer + 3) % n


@pytest.mark.parametrize("players,dealer", [(2, 0), (2, 1), (3, 2), (3, 0), (4, 1), (5, 3), (8, 7)])
def test_R500_DEAL_4_one_card_at_a_time_from_the_dealers_left_13_or_7_each(players, dealer):
    deck = deck_cards(players)                    # a recognisable order: block dealing would give other hands
    g = BASE.new_game(seed=1, dealer=dealer, players=players, deck=deck)
    size = 13 if players == 2 else 7
    for i in range(players):
        seat = (dealer + 1 + i) % players
        assert sorted(g.hand_of(seat)) == sorted(deck[i:players * size:players]), seat
        assert g.view(seat)["zones"]["hand"][seat]["count"] == size


def test_R500_DEAL_4_hand_size_parameters():
    g = rules({"hand_size_two_players": 10}).new_game(seed=1, players=2)
    assert [h["count"] for h in g.view(0)["zones"]["hand"]] == [10, 10]
    g = rules({"hand_size_more_players": 5}).new_game(seed=1, players=4)
    assert [h["count"] for h in g.view(0)["zones"]["hand"]] == [5, 5, 5, 5]


@pytest.mark.parametrize("players", [2, 3, 6])
def test_R500_DEAL_5_stock_face_down_and_its_top_card_turned_up(players):
    deck = deck_cards(players)
    g = BASE.new_game(seed=1, dealer=players - 1, players=players, deck=deck)
    size = 13 if players == 2 else 7
    dealt = players * size
    for s in range(players):
        z = g.view(s)["zones"]
        assert z["discard"]["cards"] == [deck[dealt]]
        assert z["stock"]["count"] == len(deck) - dealt - 1
        assert "cards" not in z["stock"] and "top" not in z["stock"]
    seat = g.current_player
    before = g.hand_of(seat)
    g.apply("draw stock")
    assert drawn(g, seat, before) == [deck[dealt + 1]]


def test_R500_DEAL_6_discard_pile_spread_every_card_visible_and_takeable():
    g = pile_game({A: ["10H", "JH", "4D", "6D"]}, ["3C", "9H", "KD", "5S", "5D"], A, players=4)
    for s in range(4):
        assert g.view(s)["zones"]["discard"]["cards"] == ["3C", "9H", "KD", "5S", "5D"]
        assert g.view(s)["zones"]["discard"]["count"] == 5
    acts = legal(g)
    assert "take discard" in acts           # the top card
    assert "take discard 4" in acts         # 9H with everything above it (9H 10H JH)
    act(g, "take discard 4")
    assert pile(g) == ["3C"]
    assert Counter(g.hand_of(A)) >= Counter(["9H", "KD", "5S", "5D", "10H", "JH"])


@pytest.mark.parametrize("players,dealer", [(2, 0), (3, 2), (4, 1), (5, 4)])
def test_R500_DEAL_7_dealers_left_plays_first_and_turns_pass_clockwise(players, dealer):
    g = deal({}, "QC", players=players, dealer=dealer)
    order = []
    for _ in range(2 * players):
        pass_claims(g)
        order.append(g.current_player)
        before = g.hand_of(g.current_player)
        g.apply("draw stock")
        g.apply(f"discard {drawn(g, g.current_player, before)[0]}")
    assert order == [(dealer + 1 + i) % players for i in range(2 * players)]
    assert g.view(0)["turn_order"] == list(range(players))


# ==================================================================================================
# 2. Turn
# ==================================================================================================

TURN_HANDS = {A: ["7H", "8H", "9H", "KH", "KD", "KC", "4D"], B: ["2C", "4C", "6C", "8C", "10C", "QC", "AD"]}


def test_R500_TURN_1_draw_is_compulsory_then_melds_then_one_discard():
    g = deal(TURN_HANDS, "JS", ["2D", "3S"])
    assert sorted(legal(g)) == ["draw stock", "take discard"]        # nothing but a draw first
    for bad in ("meld 7H 8H 9H", "discard 4D", "layoff 4D on 1", "pass"):
        assert_illegal(g, bad)
    act(g, "draw stock")
    assert not any(a.startswith(("draw", "take")) for a in legal(g))  # one draw only
    meld(g, "7H", "8H", "9H")
    meld(g, "KH", "KD", "KC")                                         # any number of melds
    assert g.current_player == A
    act(g, "discard 2D")                                              # the discard ends the turn
    assert g.current_player == B
    assert sorted(g.hand_of(A)) == ["4D"]


def test_R500_TURN_1_no_discard_when_the_hand_is_empty():
    g = deal({A: HEARTS[:7]}, "QC", ["9H"])
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    assert g.hand_of(A) == ["9H"] and g.hand_number == 1
    lay(g, "9H", "2H")                            # the last card is placed: no discard, the hand is over
    assert g.hand_number == 2
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == A


def test_R500_TURN_2_draw_from_stock_top_or_discard_top():
    g = deal(TURN_HANDS, "JS", ["2D", "3S"])
    before = g.hand_of(A)
    act(g, "draw stock")
    assert drawn(g, A, before) == ["2D"]
    act(g, "discard 2D")
    before = g.hand_of(B)
    act(g, "take discard")
    assert drawn(g, B, before) == ["2D"]
    assert pile(g) == ["JS"]


def test_R500_TURN_3_deep_draw_takes_the_card_and_all_above_and_it_must_be_melded_next():
    g = pile_game({A: ["10H", "JH", "4S", "6S", "8S", "10S", "QS"]}, ["3C", "9H", "KD", "5S", "JC"], A)
    assert "take discard 4" in legal(g)
    before = g.hand_of(A)
    act(g, "take discard 4")
    assert sorted(drawn(g, A, before)) == sorted(["9H", "KD", "5S", "JC"])
    assert pile(g) == ["3C"]
    # until 9H is melded, only melds or layoffs using it are legal
    acts = legal(g)
    assert acts and all(a.startswith(("meld", "layoff")) and "9H" in a.split() for a in acts), acts
    for bad in ("discard KD", "discard 9H", "draw stock", "meld 4S 5S 6S", "take discard"):
        assert_illegal(g, bad)
    meld(g, "9H", "10H", "JH")
    assert any(same(a, "meld 4S 5S 6S") for a in legal(g))         # the duty is met: play goes on
    assert "discard KD" in legal(g)


def same(a, b):
    return sorted(a.split()) == sorted(b.split())


def test_R500_TURN_4_taking_only_the_top_discard_carries_no_duty_to_meld():
    g = pile_game({A: ["10H", "JH", "4S", "5S", "6S", "KD", "2C"]}, ["3C", "9H", "QH"], A)
    act(g, "take discard")
    acts = legal(g)
    assert any(a.startswith("discard") for a in acts)
    assert any(same(a, "meld 4S 5S 6S") for a in acts)               # a meld without QH
    meld(g, "4S", "5S", "6S")
    act(g, "discard KD")                                              # QH kept in hand, never melded
    assert "QH" in g.hand_of(A) and g.current_player == B


def test_R500_TURN_4_top_discard_must_meld_parameter():
    ov = {"top_discard_must_meld": True}
    g = pile_game({A: ["10H", "JH", "4S", "5S", "6S", "KD", "2C"]}, ["3C", "9H", "QH"], A, overrides=ov)
    act(g, "take discard")
    acts = legal(g)
    assert acts and all("QH" in a.split() for a in acts), acts
    g = pile_game({A: ["10H", "JH", "4S", "5S", "6S", "KD", "2C"]}, ["3C", "9H", "7C"], A, overrides=ov)
    assert "take discard" not in legal(g)                             # 7C cannot be melded at once
    assert_illegal(g, "take discard")


def test_R500_TURN_5_deep_draw_legal_when_met_by_hand_cards():
    g = pile_game({A: ["10H", "JH", "4S", "6S", "8S", "10S", "QS"]}, ["3C", "9H", "KD", "5S", "JC"], A)
    assert "take discard 4" in legal(g)                               # 9H 10H JH


def test_R500_TURN_5_deep_draw_legal_when_met_by_other_taken_cards():
    g = pile_game({A: ["KS", "JS", "9S", "7S", "2H", "4H", "6H"]}, ["QC", "4D", "KH", "5D", "6D"], A)
    assert "take discard 4" in legal(g)
    act(g, "take discard 4")
    acts = legal(g)
    assert all("4D" in a.split() for a in acts) and any(same(a, "meld 4D 5D 6D") for a in acts), acts
    meld(g, "4D", "5D", "6D")


def test_R500_TURN_5_deep_draw_legal_when_met_by_a_layoff_on_the_table():
    # B melds 5H 6H 7H; C discards QC; A may take 8H from under QC, since 8H lays off on B's run
    hands = {A: ["KS", "JS", "9S", "7S", "2D", "4D", "3C"], B: ["5H", "6H", "7H", "KD", "JD", "9D", "2S"]}
    g = deal(hands, "10C", ["8H", "QH", "QC"], dealer=2)
    go(g, "draw stock", "discard 8H")                                 # A
    go(g, "draw stock")                                               # B
    meld(g, "5H", "6H", "7H")
    go(g, "discard QH")
    go(g, "draw stock", "discard QC")                                 # C
    assert pile(g) == ["10C", "8H", "QH", "QC"] and g.current_player == A
    assert "take discard 3" in legal(g)
    act(g, "take discard 3")
    assert legal(g) == ["layoff 8H on 1"]
    act(g, "layoff 8H on 1")


def test_R500_TURN_5_deep_draw_refused_when_the_card_cannot_be_melded():
    g = pile_game({A: ["10H", "JH", "2S", "7S", "9S", "JS", "KS"]}, ["3C", "9H", "KD", "5S", "JC"], A)
    acts = legal(g)
    for k in (2, 3, 5):                          # 5S, KD, 3C: no meld with the hand or the cards above
        assert f"take discard {k}" not in acts
        assert_illegal(g, f"take discard {k}")
    assert_illegal(g, "take discard 6")          # deeper than the pile


def test_R500_TURN_6_melds_laid_face_up_in_front_of_the_player():
    g = deal(TURN_HANDS, "JS", ["2D"])
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    for s in range(3):
        ms = melds(g, s)
        assert len(ms) == 1 and ms[0]["owner"] == A and sorted(ms[0]["cards"]) == ["7H", "8H", "9H"]
        assert ms[0]["placed_by"] == [A, A, A]
    assert "7H" not in g.hand_of(A)


def test_R500_TURN_7_one_discard_when_cards_remain():
    g = deal(TURN_HANDS, "JS", ["2D"])
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    assert g.current_player == A                          # the turn is not over before a discard
    assert any(a.startswith("discard") for a in legal(g))
    act(g, "discard KH")
    assert g.current_player == B
    assert not any(a.startswith("discard") for a in legal(g))      # B draws first


def test_R500_TURN_7_single_taken_card_may_not_be_the_discard():
    g = pile_game({A: ["10H", "JH", "4S", "6S", "8S", "10S", "QS"]}, ["3C", "9H", "KD", "5S", "JC"], A)
    act(g, "take discard")
    assert "discard JC" not in legal(g)
    assert_illegal(g, "discard JC")
    act(g, "discard QS")


def test_R500_TURN_7_after_a_deep_take_any_other_taken_card_may_be_discarded():
    for card in ("KD", "5S", "JC"):                                   # JC was the top card (Ambiguity 16)
        g = pile_game({A: ["10H", "JH", "4S", "6S", "8S", "10S", "QS"]}, ["3C", "9H", "KD", "5S", "JC"], A)
        act(g, "take discard 4")
        meld(g, "9H", "10H", "JH")
        assert f"discard {card}" in legal(g)
        act(g, f"discard {card}")
        assert pile(g) == ["3C", card]


def test_R500_TURN_8_melds_and_layoffs_only_on_own_turn_after_drawing():
    g = deal(TURN_HANDS, "JS", ["2D", "9C"])
    assert_illegal(g, "meld 7H 8H 9H")                                # before drawing
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    act(g, "discard 2D")
    # B is on turn: nothing of A's may be melded now, and B must draw before laying off
    assert g.current_player == B
    assert not any(a.startswith(("meld", "layoff")) for a in legal(g))
    assert_illegal(g, "layoff 10C on 1")
    act(g, "draw stock")
    assert_illegal(g, "meld KH KD KC")                                # A's cards are not B's to meld


# ==================================================================================================
# 2b. Calling "Rummy!"
# ==================================================================================================

# Four players, the dealer is D, so A plays first.  A melds 5H 6H 7H; B discards 8H, which lays off by itself.
CALL_HANDS = {A: ["5H", "6H", "7H", "KS", "JS", "9S", "3S"], B: ["8H", "QC", "10C", "8C", "6C", "4C", "2C"],
              C: ["KH", "QS", "10S", "8S", "6S", "4S", "2S"], D: ["KD", "JD", "9D", "7D", "5D", "3D", "AD"]}


def call_game(overrides=None, discard="8H"):
    """A melds 5H 6H 7H (drawing and discarding JC); B draws 9C and discards ``discard``."""
    g = deal(CALL_HANDS, "2D", ["JC", "9C", "QD", "10D", "KC"], players=4, overrides=overrides)
    act(g, "draw stock")
    meld(g, "5H", "6H", "7H")
    act(g, "discard JC")
    assert not in_claim(g) and g.current_player == B
    act(g, "draw stock", f"discard {discard}")
    return g


def second_trigger_game():
    """Pile 4D 9C 5D (bottom first); B, on turn, draws and discards 6D: 4D 5D 6D is a meld of pile cards."""
    hands = {B: ["6D", "QC", "10C", "8C", "KS", "JS", "2S"], C: ["KH", "QS", "10S", "8S", "6S", "4S", "AS"]}
    g = pile_game(hands, ["4D", "9C", "5D"], B, players=4, stock_after=["7C", "QH", "JH"])
    act(g, "draw stock", "discard 6D")
    return g


def test_R500_CALL_1_window_opens_when_the_discard_lays_off_by_itself():
    g = call_game()
    assert in_claim(g)
    assert g.current_player == C
    assert sorted(legal(g)) == ["claim discard 1", "pass"]
    assert g.view(C)["claim"]["discarder"] == B


def test_R500_CALL_1_window_opens_when_the_discard_completes_a_meld_with_pile_cards():
    g = second_trigger_game()
    assert in_claim(g) and g.current_player == C
    assert sorted(legal(g)) == ["claim discard 4", "pass"]


def test_R500_CALL_1_no_call_on_a_discard_that_needs_other_cards():
    g = call_game(discard="QC")                     # QC fits no meld and makes none with the pile
    assert not in_claim(g) and g.current_player == C and g.view(C)["step"] == "draw"
    assert_illegal(g, "claim discard 1")
    # 5D would need a hand card (4D .. 6D) to be melded: no call either
    g = pile_game({B: ["5D", "QC", "10C", "8C", "KS", "JS", "2S"]}, ["4D", "9C"], B, players=4)
    act(g, "draw stock", "discard 5D")
    assert not in_claim(g) and g.current_player == C
    assert_illegal(g, "claim discard 3")


def test_R500_CALL_1_rummy_calls_can_be_turned_off():
    g = call_game(overrides={"rummy_calls_enabled": False})
    assert not in_claim(g) and g.current_player == C and g.view(C)["step"] == "draw"
    assert_illegal(g, "claim discard 1")


def test_R500_CALL_2_caller_takes_from_the_deepest_relevant_card_and_melds_at_once():
    g = second_trigger_game()
    for bad in ("claim discard 1", "claim discard 2", "claim discard 3", "claim discard 5"):
        assert_illegal(g, bad)
    before = g.hand_of(C)
    act(g, "claim discard 4")
    assert sorted(drawn(g, C, before)) == sorted(["4D", "9C", "5D", "6D"])
    assert pile(g) == []
    acts = legal(g)
    assert acts and all(a.startswith("meld") and {"4D", "6D"} <= set(a.split()) for a in acts), acts
    assert_illegal(g, "discard 9C")
    meld(g, "4D", "5D", "6D")
    assert "9C" in g.hand_of(C)                      # kept (example 12)
    assert melds(g)[0]["owner"] == C and melds(g)[0]["placed_by"] == [C, C, C]


def test_R500_CALL_2_single_card_call_must_be_laid_off_at_once():
    g = call_game()
    act(g, "pass", "claim discard 1")               # C passes, D calls
    assert g.current_player == D
    assert legal(g) == ["layoff 8H on 1"]
    assert_illegal(g, "discard KD")
    act(g, "layoff 8H on 1")
    assert melds(g)[0]["placed_by"] == [A, A, A, D]


def test_R500_CALL_2_caller_can_meld_the_called_cards_even_holding_the_card_a_joker_stands_for():
    """The pile is AH 9S 2H; B discards a joker: AH 2H Jk(=3H) is a meld of pile cards, so C may call for the
    top four cards.  C holds 3H.  C must then meld AH and the joker at once (R500-CALL-2, R500-TURN-3), e.g.
    AH 2H Jk(=3H) -- a joker may stand for any card (R500-MELD-6) -- or AH Jk(=2H) 3H; C may not be left
    without any legal action."""
    hands = {B: ["Jk", "QC", "10C", "8C", "KS", "JS", "5D"], C: ["3H", "QS", "10S", "8S", "6S", "4S", "KD"]}
    g = pile_game(hands, ["AH", "9S", "2H"], B, players=4, stock_after=["7C"])
    act(g, "draw stock", "discard Jk")
    assert in_claim(g) and g.current_player == C
    assert "claim discard 4" in legal(g)
    act(g, "claim discard 4")
    acts = legal(g)
    assert acts, f"the caller holds {g.hand_of(C)} and has no legal action"
    assert all(a.startswith("meld") and "AH" in a.split() and any(w.startswith("Jk=") for w in a.split())
               for a in acts), acts


def test_R500_CALL_3_call_only_before_the_next_player_draws():
    g = call_game()
    act(g, "pass", "pass", "pass")                  # C, D, A pass: the window is closed
    assert not in_claim(g) and g.current_player == C and g.view(C)["step"] == "draw"
    assert_illegal(g, "claim discard 1")
    act(g, "draw stock")
    assert_illegal(g, "claim discard 1")
    assert pile(g)[-1] == "8H"


def test_R500_CALL_4_caller_finishes_the_turn_and_play_continues_to_the_callers_left():
    g = call_game()
    act(g, "pass", "claim discard 1", "layoff 8H on 1")       # D calls
    assert g.current_player == D and any(a.startswith("discard") for a in legal(g))
    act(g, "discard KD")
    assert g.current_player == A and g.view(A)["step"] == "draw"          # C lost the turn
    # the last seat asked, A, calls: C and D both lose their turn, then B plays
    g = call_game()
    act(g, "pass", "pass", "claim discard 1", "layoff 8H on 1", "discard KS")
    assert g.current_player == B and g.view(B)["step"] == "draw"


def test_R500_CALL_5_no_call_on_a_going_out_discard():
    hands = {A: ["2H", "3H", "4H", "5H", "6H", "7H", "9H"]}
    g = deal(hands, "QC", ["8H"], players=4)
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    assert g.hand_of(A) == ["9H"]                    # 9H lays off on A's own run
    g.apply("discard 9H")
    assert g.hand_number == 2 and g.hand_log[-1]["ending"] == "out"
    assert not in_claim(g) and g.view(0)["step"] == "draw"
    assert_illegal(g, "claim discard 1")


def test_R500_CALL_6_nearest_caller_after_the_discarder_gets_the_card():
    g = call_game()
    assert g.view(A)["claim"]["waiting"] == [C, D, A]
    act(g, "claim discard 1")                         # C is asked first; D and A never get the card
    assert g.current_player == C
    act(g, "layoff 8H on 1", "discard KH")
    assert g.current_player == D and g.view(D)["step"] == "draw"
    assert melds(g)[0]["placed_by"] == [A, A, A, C]


def test_R500_CALL_7_calling_is_optional_and_never_by_the_discarder():
    g = call_game()
    asked = []
    while in_claim(g):
        asked.append(g.current_player)
        act(g, "pass")
    assert asked == [C, D, A]                         # B, the discarder, is never asked
    assert g.current_player == C and pile(g)[-1] == "8H"   # nobody called: C plays a normal turn
    act(g, "draw stock")
    assert "layoff 8H on 1" not in legal(g)
    assert_illegal(g, "claim discard 1")                    # no claim by the player on turn in the play step


# ==================================================================================================
# 3. Melds
# ==================================================================================================

MELD_HANDS = {A: ["KH", "KD", "KC", "3S", "4S", "6S", "Jk"], B: ["KS", "5S", "2D", "9C", "JD", "QC", "Jk"]}


def test_R500_MELD_1_set_of_three_or_four_never_five():
    g = deal(MELD_HANDS, "7C", ["QH", "AC", "10D"])
    act(g, "draw stock")
    meld(g, "KH", "KD", "KC")
    assert melds(g)[0]["kind"] == "set"
    act(g, "discard QH", "draw stock")
    lay(g, "KS", "KH")                                # the fourth card
    assert sorted(melds(g)[0]["cards"]) == sorted(["KS", "KH", "KD", "KC"])
    assert not any(a.endswith("on 1") for a in legal(g))
    assert_illegal(g, "layoff Jk=KS on 1")            # no fifth card, jokers included
    assert_illegal(g, "layoff Jk=KH on 1")


def test_R500_MELD_1_set_cap_counts_jokers():
    g = deal(MELD_HANDS, "7C", ["QH", "AC", "10D"])
    act(g, "draw stock")
    meld(g, "KH", "KD", "Jk=KS")
    act(g, "discard QH", "draw stock")
    assert any(a.startswith("layoff Jk=K") and a.endswith("on 1") for a in legal(g))
    act(g, [a for a in legal(g) if a.startswith("layoff Jk=K")][0])
    assert len(melds(g)[0]["cards"]) == 4
    assert_illegal(g, "layoff KS on 1")               # KH KD Jk Jk is full


def test_R500_MELD_2_with_two_decks_a_set_needs_different_suits():
    hands = {A: ["5D", "5D", "5H", "7S", "7S", "7H", "KD"]}
    g = deal(hands, "8C", ["5C", "QS"], players=5)
    act(g, "draw stock")
    assert_illegal(g, "meld 5H 5D 5D")
    assert_illegal(g, "meld 5D 5H 5D")
    assert_illegal(g, "meld 7S 7S 7H")
    assert not any(Counter(a.split()[1:])["5D"] > 1 for a in legal(g) if a.startswith("meld"))
    meld(g, "5H", "5D", "5C")
    assert_illegal(g, "layoff 5D on 1")               # a second 5D may not join
    assert all(a != "layoff 5D on 1" for a in legal(g))


def test_R500_MELD_3_run_is_three_or_more_consecutive_cards_of_one_suit():
    hands = {A: ["3S", "4S", "5S", "6S", "8S", "4H", "9D"]}
    g = deal(hands, "8C", ["7S", "QH"])
    act(g, "draw stock")
    for bad in ("meld 3S 4S 6S", "meld 3S 4H 5S", "meld 4S 5S", "meld 6S 7S 8S 9D"):
        assert_illegal(g, bad)
    meld(g, "3S", "4S", "5S")
    assert melds(g)[0]["kind"] == "run"
    lay(g, "6S", "3S")
    lay(g, "7S", "3S")
    lay(g, "8S", "3S")
    assert sorted(melds(g)[0]["cards"], key=lambda c: int(c[:-1])) == ["3S", "4S", "5S", "6S", "7S", "8S"]


def test_R500_MELD_4_ace_high_or_low_but_no_wrap():
    hands = {A: ["KH", "AH", "2H", "QS", "KS", "AS", "Jk"], B: ["AD", "2D", "3D", "JC", "9C", "7C", "5C"]}
    g = deal(hands, "8C", ["4C", "10H", "JS"])
    act(g, "draw stock")
    for bad in ("meld KH AH 2H", "meld KH Jk=AH 2H", "meld Jk=KH AH 2H", "meld KH AH Jk=2H", "meld AH 2H Jk=KH"):
        assert_illegal(g, bad)
    meld(g, "QS", "KS", "AS")                          # ace high
    act(g, "discard 4C", "draw stock")
    meld(g, "AD", "2D", "3D")                          # ace low
    kinds = [m["kind"] for m in melds(g)]
    assert kinds == ["run", "run"]


def test_R500_MELD_5_melds_stay_in_front_of_their_maker_and_score_for_them():
    g = deal(TURN_HANDS, "JS", ["2D", "10H", "QS"])
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    act(g, "discard 2D", "draw stock")
    lay(g, "10H", "7H")                                # B lays off on A's meld
    act(g, "discard QC")
    m = melds(g)[0]
    assert m["owner"] == A and m["placed_by"].count(A) == 3
    got, hands = end_by_stock(g)
    assert g.hand_log[-1]["ending"] == "stock"
    assert got[A] == 7 + 8 + 9 - total(hands[A])         # the meld scores for A, the 10H for B
    assert got[B] == 10 - total(hands[B])


def test_R500_MELD_6_joker_declared_when_melded_suit_of_the_run():
    hands = {A: ["9H", "JH", "Jk", "5C", "5D", "2S", "KD"]}
    g = deal(hands, "8C", ["QS", "4H"])
    act(g, "draw stock")
    for bad in ("meld 9H Jk=5C JH", "meld 9H Jk=10S JH", "meld 9H Jk=QH JH", "meld 9H Jk JH", "meld 9H Jk=Jk JH",
                "meld 5C 5D Jk=6C", "meld 5C 5D Jk=5C"):
        assert_illegal(g, bad)
    act(g, "meld 9H Jk=10H JH")
    m = melds(g)[0]
    assert sorted(m["cards"]) == sorted(["9H", "Jk=10H", "JH"]) and m["kind"] == "run"


def test_R500_MELD_6_joker_declaration_never_changes_during_the_hand():
    hands = {A: ["9H", "JH", "Jk", "2S", "4S", "6S", "KD"], B: ["QH", "8H", "KH", "7H", "3C", "5C", "AD"]}
    g = deal(hands, "8C", ["QS", "4H", "9S"])
    act(g, "draw stock", "meld 9H Jk=10H JH", "discard QS", "draw stock")
    lay(g, "QH", "9H")
    lay(g, "8H", "9H")
    lay(g, "KH", "9H")
    lay(g, "7H", "9H")
    act(g, "discard 4H")
    assert "Jk=10H" in melds(g)[0]["cards"]
    assert sorted(melds(g)[0]["cards"]) == sorted(["7H", "8H", "9H", "Jk=10H", "JH", "QH", "KH"])


def test_R500_MELD_7_a_melded_joker_cannot_be_taken_back_or_exchanged():
    hands = {A: ["9H", "JH", "Jk", "2S", "4S", "6S", "KD"], B: ["10H", "QC", "KC", "7C", "3C", "5C", "AD"]}
    g = deal(hands, "8C", ["QS", "4H"])
    act(g, "draw stock", "meld 9H Jk=10H JH", "discard QS", "draw stock")
    assert not any("10H" in a.split() and a.startswith("layoff") for a in legal(g))
    for bad in ("layoff 10H on 1", "take Jk", "meld 10H", "discard Jk"):
        assert_illegal(g, bad)
    assert all(a.split()[0] in ("meld", "layoff", "discard") for a in legal(g))
    act(g, "discard 10H")
    assert "Jk=10H" in melds(g)[0]["cards"]


def test_R500_MELD_8_no_minimum_of_natural_cards():
    hands = {A: ["5C", "Jk", "Jk", "9S", "KD", "2H", "7D"]}
    g = deal(hands, "8C", ["QS"])
    act(g, "draw stock")
    sets = [a for a in legal(g) if a.startswith("meld") and a.count("Jk") == 2]
    assert any("5C" in a.split() for a in sets), legal(g)       # 5C with two jokers
    meld(g, *[w for w in sets if "5C" in w.split()][0].split()[1:])
    assert len(melds(g)) == 1 and is_meld(melds(g)[0]["cards"])


# ==================================================================================================
# 4. Laying off
# ==================================================================================================


def test_R500_LAYOFF_1_lay_off_on_own_and_other_players_melds():
    hands = {A: ["7H", "8H", "9H", "10S", "JS", "QS", "4C"], B: ["10H", "KS", "6H", "2C", "3D", "5D", "AC"]}
    g = deal(hands, "8C", ["KD", "9S", "AD"])
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    meld(g, "10S", "JS", "QS")
    act(g, "discard KD", "draw stock")
    acts = legal(g)
    assert {"layoff 10H on 1", "layoff 6H on 1", "layoff KS on 2", "layoff 9S on 2"} <= set(acts)
    lay(g, "10H", "7H")
    lay(g, "9S", "QS")
    act(g, "discard 2C")
    assert melds(g)[0]["owner"] == A and melds(g)[1]["owner"] == A


def test_R500_LAYOFF_2_laid_off_card_scores_for_the_player_who_laid_it_off():
    hands = {A: ["7H", "8H", "9H", "10S", "JS", "QS", "4C"], B: ["10H", "KS", "6H", "2C", "3D", "5D", "AC"]}
    g = deal(hands, "8C", ["KD", "9S", "AD"])
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    act(g, "discard KD", "draw stock")
    lay(g, "10H", "7H")
    lay(g, "6H", "7H")
    act(g, "discard 2C")
    m = melds(g)[0]
    placed = dict(zip(m["cards"], m["placed_by"]))
    assert placed == {"6H": B, "7H": A, "8H": A, "9H": A, "10H": B}
    got, hands = end_by_stock(g)
    assert got[B] == 10 + 6 - total(hands[B])
    assert got[A] == 7 + 8 + 9 - total(hands[A])


def test_R500_LAYOFF_3_run_extends_at_either_end_set_takes_its_fourth_card():
    hands = {A: ["7H", "8H", "9H", "QS", "QD", "QC", "4C"], B: ["10H", "6H", "QH", "2C", "3D", "5D", "AC"]}
    g = deal(hands, "8C", ["KD", "9S"])
    act(g, "draw stock")
    meld(g, "7H", "8H", "9H")
    meld(g, "QS", "QD", "QC")
    act(g, "discard KD", "draw stock")
    acts = legal(g)
    assert {"layoff 6H on 1", "layoff 10H on 1", "layoff QH on 2"} <= set(acts)
    for bad in ("layoff 5D on 1", "layoff 2C on 2", "layoff QH on 1", "layoff 10H on 2", "layoff 3D on 1"):
        assert_illegal(g, bad)
    lay(g, "6H", "7H")                                  # low end
    lay(g, "10H", "7H")                                 # high end
    lay(g, "QH", "QS")                                  # the fourth queen
    assert sorted(melds(g)[0]["cards"]) == sorted(["6H", "7H", "8H", "9H", "10H"])
    assert sorted(melds(g)[1]["cards"]) == sorted(["QS", "QH", "QD", "QC"])


def test_R500_LAYOFF_3_with_two_decks_the_fourth_card_of_a_set_has_a_new_suit():
    hands = {A: ["QS", "QD", "QC", "2H", "4H", "6H", "8H"], B: ["QS", "QH", "JS", "9S", "7S", "5S", "3S"]}
    g = deal(hands, "8C", ["KD", "10D"], players=5)
    act(g, "draw stock")
    meld(g, "QS", "QD", "QC")
    act(g, "discard KD", "draw stock")
    assert "layoff QH on 1" in legal(g)
    assert_illegal(g, "layoff QS on 1")
    lay(g, "QH", "QS")


def test_R500_LAYOFF_4_layoffs_extend_earlier_layoffs_but_nothing_past_an_ace():
    hands = {A: ["4S", "5S", "6S", "QH", "KH", "AH", "AD"], B: ["7S", "2D", "3D", "JH", "2H", "KD", "9C"],
             C: ["8S", "4D", "10C", "QC", "6C", "2C", "AC"]}
    g = deal(hands, "8C", ["9D", "JD", "7D", "5C", "3C"])
    act(g, "draw stock")
    meld(g, "4S", "5S", "6S")
    meld(g, "QH", "KH", "AH")
    act(g, "discard 9D", "draw stock")
    lay(g, "7S", "4S")                                  # 4-5-6 + 7
    assert "layoff 2H on 2" not in legal(g)             # A-K-Q takes no 2
    assert_illegal(g, "layoff 2H on 2")
    assert not any(a.startswith("layoff Jk") for a in legal(g))
    lay(g, "JH", "QH")
    act(g, "discard 9C", "draw stock")
    lay(g, "8S", "4S")                                  # + 8, on B's layoff
    assert sorted(melds(g)[0]["cards"], key=lambda c: int(c[:-1])) == ["4S", "5S", "6S", "7S", "8S"]
    assert "layoff 2C on 2" not in legal(g) and "layoff AC on 2" not in legal(g)


def test_R500_LAYOFF_4_low_ace_run_takes_no_king():
    hands = {A: ["AD", "2D", "3D", "9C", "7S", "5S", "3S"], B: ["KD", "4D", "JH", "2H", "10C", "QC", "6C"]}
    g = deal(hands, "8C", ["9D", "JD"])
    act(g, "draw stock")
    meld(g, "AD", "2D", "3D")
    act(g, "discard 9D", "draw stock")
    assert "layoff 4D on 1" in legal(g)
    assert "layoff KD on 1" not in legal(g)
    assert_illegal(g, "layoff KD on 1")
    lay(g, "4D", "AD")
    assert_illegal(g, "layoff KD on 1")


def test_R500_LAYOFF_5_a_card_fitting_two_melds_goes_where_the_player_chooses_and_stays():
    hands = {A: ["5H", "6H", "7H", "8S", "8D", "8C", "4C"], B: ["8H", "9H", "2C", "3D", "5D", "AC", "JS"]}
    for target, other in (("8S", "5H"), ("5H", "8S")):
        g = deal(hands, "10C", ["KD", "QS", "KS", "QD"])
        act(g, "draw stock")
        meld(g, "5H", "6H", "7H")
        meld(g, "8S", "8D", "8C")
        act(g, "discard KD", "draw stock")
        assert {"layoff 8H on 1", "layoff 8H on 2"} <= set(legal(g))
        lay(g, "8H", target)
        act(g, "discard QS")
        n = meld_no(g, "8H")
        assert n == meld_no(g, target) and "8H" not in melds(g)[meld_no(g, other) - 1]["cards"]
        go(g, "draw stock", "discard KS", "draw stock", "discard QD")
        assert meld_no(g, "8H") == n                      # never moves


def test_R500_LAYOFF_6_a_joker_may_be_laid_off_declared_as_the_card_it_extends():
    hands = {A: ["5H", "6H", "7H", "8S", "8D", "8C", "4C"], B: ["Jk", "Jk", "2C", "3D", "5D", "AC", "JS"]}
    g = deal(hands, "10C", ["KD", "QS"])
    act(g, "draw stock")
    meld(g, "5H", "6H", "7H")
    meld(g, "8S", "8D", "8C")
    act(g, "discard KD", "draw stock")
    jl = {a for a in legal(g) if a.startswith("layoff Jk")}
    assert {"layoff Jk=4H on 1", "layoff Jk=8H on 1"} <= jl
    assert any(a.startswith("layoff Jk=8") and a.endswith("on 2") for a in jl)
    assert "layoff Jk=9H on 1" not in jl
    for bad in ("layoff Jk=9H on 1", "layoff Jk=4S on 1", "layoff Jk=9S on 2", "layoff Jk=8S on 2"):
        assert_illegal(g, bad)
    act(g, "layoff Jk=8H on 1")
    assert "Jk=8H" in melds(g)[0]["cards"]
    set_jk = [a for a in legal(g) if a.startswith("layoff Jk=8") and a.endswith("on 2")]
    act(g, set_jk[0])
    assert any(c.startswith("Jk=8") for c in melds(g)[1]["cards"])
    assert all(is_meld(m["cards"]) for m in melds(g))


# ==================================================================================================
# 5. Going out / end of hand
# ==================================================================================================


def test_R500_OUT_1_hand_ends_at_once_when_the_last_card_is_discarded():
    g, first = quick_out()
    go_out_now(g, first)
    assert g.hand_of(first) == ["KC"] and g.hand_number == 1
    got = finish(g, "discard KC")
    assert got[first] == sum(range(2, 9))
    rec = g.hand_log[-1]
    assert rec["ending"] == "out" and rec["declarer"] == first
    assert g.hand_number == 2 and g.view(0)["hand_number"] == 2


def test_R500_OUT_1_hand_ends_at_once_when_the_last_card_is_melded():
    g = deal({A: HEARTS[:7]}, "QC", ["9H"])
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    got = finish(g, f"layoff 9H on {meld_no(g, '2H')}")
    assert got[A] == sum(range(2, 10))
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == A


def test_R500_OUT_2_empty_stock_and_the_player_on_turn_declines_the_pile():
    g = deal(TURN_HANDS, "JS")
    assert_illegal(g, "pass")                                  # the stock is not empty yet
    drain(g)
    assert stock_count(g) == 0
    assert "draw stock" not in legal(g)
    assert_illegal(g, "draw stock")
    assert "pass" in legal(g) and "take discard" in legal(g)
    finish(g, "pass")
    assert g.hand_log[-1]["ending"] == "stock" and g.hand_log[-1]["declarer"] is None
    assert g.hand_number == 2


def test_R500_OUT_2_stock_out_alternative_ends_as_soon_as_the_stock_is_empty():
    g = deal(TURN_HANDS, "JS", overrides={"stock_out_end": "empty_stock"})
    n = stock_count(g)
    for _ in range(n):
        pass_claims(g)
        assert g.hand_number == 1
        seat = g.current_player
        before = g.hand_of(seat)
        g.apply("draw stock")
        g.apply(f"discard {drawn(g, seat, before)[0]}")
    pass_claims(g)
    assert g.hand_number == 2 and g.hand_log[-1]["ending"] == "stock"


def test_R500_OUT_3_discard_pile_is_never_turned_over():
    g = deal(TURN_HANDS, "JS")
    drain(g)
    size = len(pile(g))
    seat = g.current_player
    act(g, "take discard")
    act(g, [a for a in legal(g) if a.startswith("discard")][0])
    pass_claims(g)
    assert g.current_player == (seat + 1) % 3 and g.hand_number == 1
    assert stock_count(g) == 0 and len(pile(g)) == size       # no new stock: the pile stays where it is
    assert "draw stock" not in legal(g) and {"pass", "take discard"} <= set(legal(g))
    assert_illegal(g, "draw stock")


def test_R500_OUT_4_no_melding_after_the_hand_ends_cards_held_count_against():
    # B holds K K J (30) and C holds K 10 J ...; A goes out: what they hold counts against them
    others = {B: ["KH", "KD", "JC", "2C", "4D", "6S", "8C"], C: ["KS", "10D", "JH", "3C", "9D", "5S", "7C"]}
    g, first = quick_out(others=others)
    go_out_now(g, first)
    got = finish(g, "discard KC")
    assert got[B] == -(30 + 2 + 4 + 6 + 8)
    assert got[C] == -(10 + 10 + 10 + 3 + 9 + 5 + 7)
    assert g.hand_number == 2 and melds(g) == []          # the next hand starts with an empty table


def test_R500_OUT_5_going_out_earns_no_bonus():
    g, first = quick_out()
    go_out_now(g, first)
    assert finish(g, "discard KC")[first] == 2 + 3 + 4 + 5 + 6 + 7 + 8
    g, first = quick_out(overrides={"going_out_bonus": 10})         # the house-rule alternative
    go_out_now(g, first)
    assert deltas(g, lambda: g.apply("discard KC"))[first] == 35 + 10


# ==================================================================================================
# 6. Scoring per hand
# ==================================================================================================


def test_R500_SCORE_1_card_values():
    hands = {A: ["AS", "KH", "QD", "JC", "10S", "9H", "8D"], B: ["7C", "6S", "5H", "4D", "3C", "2S", "Jk"]}
    g = deal(hands, "QC")
    got, held = end_by_stock(g)
    assert got[A] == -(15 + 10 + 10 + 10 + 10 + 9 + 8)
    assert got[B] == -(7 + 6 + 5 + 4 + 3 + 2 + 15)
    assert got[C] == -total(held[C])


def test_R500_SCORE_2_ace_in_a_run_with_2_and_3_scores_one():
    hands = {A: ["AH", "2H", "3H", "2S", "3S", "4S", "9C"], B: ["AS", "KD", "JD", "9D", "7D", "5D", "3D"]}
    g = deal(hands, "QC", ["JC", "8C"])
    act(g, "draw stock")
    meld(g, "AH", "2H", "3H")
    meld(g, "2S", "3S", "4S")
    act(g, "discard 9C", "draw stock")
    lay(g, "AS", "2S")                                 # laid off at the low end of 2-3-4
    act(g, "discard 8C")
    got, held = end_by_stock(g)
    assert got[A] == (1 + 2 + 3) + (2 + 3 + 4) - total(held[A])
    assert got[B] == 1 - total(held[B])


def test_R500_SCORE_2_low_ace_value_parameter():
    hands = {A: ["AH", "2H", "3H", "KS", "QD", "10S", "9C"]}
    g = deal(hands, "QC", ["JC"], overrides={"low_ace_value": 15})
    act(g, "draw stock")
    meld(g, "AH", "2H", "3H")
    act(g, "discard JC")
    got, held = end_by_stock(g, low_ace=15)
    assert got[A] == 15 + 2 + 3 - total(held[A])


def test_R500_SCORE_3_ace_worth_15_in_a_set_in_QKA_and_in_hand_joker_always_15():
    hands = {A: ["AS", "AD", "AC", "QH", "KH", "AH", "Jk"], B: ["2D", "3D", "Jk", "9S", "7S", "5S", "4C"]}
    g = deal(hands, "QC", ["JC", "8C"])
    act(g, "draw stock")
    meld(g, "AS", "AD", "AC")
    meld(g, "QH", "KH", "AH")
    act(g, "discard JC", "draw stock")
    meld(g, "Jk=AD", "2D", "3D") if any(same(a, "meld Jk=AD 2D 3D") for a in legal(g)) else meld(g, "2D", "3D", "Jk=4D")
    act(g, "discard 8C")
    got, held = end_by_stock(g)
    assert got[A] == 45 + 35 - 15                          # the joker left in A's hand costs 15
    assert got[B] == 15 + 2 + 3 - total(held[B])           # a joker standing for an ace (or a 4) scores 15


def test_R500_SCORE_3_joker_value_parameter_represented_card():
    hands = {A: ["9H", "JH", "Jk", "KS", "QD", "10S", "9C"]}
    g = deal(hands, "QC", ["JC"], overrides={"joker_value": "represented"})
    act(g, "draw stock", "meld 9H Jk=10H JH", "discard JC")
    got, held = end_by_stock(g, joker_represented=True)
    assert got[A] == 9 + 10 + 10 - total(held[A])


def test_R500_SCORE_4_hand_score_is_melded_minus_held():
    hands = {A: ["7S", "8S", "9S", "KH", "KD", "KC", "4D"]}
    g = deal(hands, "QC", ["JC"])
    act(g, "draw stock")
    meld(g, "7S", "8S", "9S")
    act(g, "discard JC")
    got, held = end_by_stock(g)
    assert sorted(held[A]) == sorted(["KH", "KD", "KC", "4D"])
    assert got[A] == 24 - 34


def test_R500_SCORE_5_every_player_scored_every_hand_the_one_out_holds_nothing():
    g, first = quick_out(players=4, dealer=3)
    go_out_now(g, first)
    held = [g.hand_of(s) for s in range(4)]
    got = finish(g, "discard KC")
    assert got[first] == 35
    for s in (1, 2, 3):
        assert got[s] == -total(held[s]) and got[s] < 0


def test_R500_SCORE_6_running_totals_add_up_and_may_be_negative():
    g, first = quick_out()
    go_out_now(g, first)
    h1 = finish(g, "discard KC")
    assert g.scores == h1 and min(h1) < 0
    h2, _ = end_by_stock(g)                              # a random second hand, nobody melds
    assert all(x < 0 for x in h2)
    assert g.scores == [a + b for a, b in zip(h1, h2)]
    assert min(g.scores) < 0 and not g.is_over


# ==================================================================================================
# 7. Match end
# ==================================================================================================

# A goes out on their second turn with 8S..AS (8+9+10+10+10+10+15 = 72); B melds AH AD AC (45) and KH KD KC
# (30) on their first turn and keeps ``b_keeps`` (3C: 72 in all, a tie with A; 9C: 66).
def end_hand(target, b_keeps="3C", seed=0):
    hands = {A: ["8S", "9S", "10S", "JS", "QS", "KS", "AS"], B: ["AH", "AD", "AC", "KH", "KD", "KC", b_keeps],
             C: ["QD", "10D", "8D", "6H", "4H", "2H", "JC"]}
    g = deal(hands, "2D", ["2C", "5D", "7C", "4D"], overrides={"target_score": target}, seed=seed)
    act(g, "draw stock", "discard 2C")                        # A draws and discards
    act(g, "draw stock")                                      # B melds 75
    meld(g, "AH", "AD", "AC")
    meld(g, "KH", "KD", "KC")
    act(g, "discard 5D")
    return g


def a_goes_out(g):
    act(g, "draw stock", "discard 7C", "draw stock")          # C, then A draws 4D
    meld(g, "8S", "9S", "10S")
    for c in ("JS", "QS", "KS", "AS"):
        lay(g, c, "8S")
    return finish(g, "discard 4D")


def test_R500_END_1_hands_continue_until_a_total_reaches_the_target():
    g = end_hand(target=73, b_keeps="9C")
    got = a_goes_out(g)
    assert got[:2] == [72, 66]
    assert not g.is_over and g.hand_number == 2 and g.winner is None
    g = end_hand(target=72, b_keeps="9C")                    # reaching the target exactly is enough
    a_goes_out(g)
    assert g.is_over and g.winner == A and g.hand_number == 1
    assert legal(g) == [] and g.current_player is None
    with pytest.raises(IllegalAction):
        g.apply("draw stock")


def test_R500_END_2_highest_total_wins():
    g = end_hand(target=20, b_keeps="9C")
    got = a_goes_out(g)
    assert got[:2] == [72, 66] and g.scores[:2] == [72, 66]
    assert g.is_over and g.winner == A


def test_R500_END_3_tie_for_highest_total_another_hand_is_played():
    g = end_hand(target=72)
    got = a_goes_out(g)
    assert got[:2] == [72, 72]
    assert not g.is_over and g.winner is None and g.hand_number == 2


@pytest.mark.parametrize("seed", range(6))
def test_R500_END_3_after_the_tie_break_hand_the_end_is_checked_again(seed):
    target = 30
    g = end_hand(target=target, seed=seed)
    a_goes_out(g)
    assert not g.is_over and g.hand_number == 2
    h2, held = end_by_stock(g)                                 # the random tie-break hand, nobody melds
    totals = g.scores
    best = max(totals)
    if best >= target and totals.count(best) == 1:
        assert g.is_over and g.winner == totals.index(best)
    else:
        assert not g.is_over and g.winner is None and g.hand_number == 3


def test_R500_END_3_tie_break_with_a_winner_happens():
    """The seeds of the test above include a tie-break hand with a unique winner (so END-3 is exercised)."""
    outcomes = []
    for seed in range(6):
        g = end_hand(target=30, seed=seed)
        a_goes_out(g)
        end_by_stock(g)
        outcomes.append(g.is_over)
    assert any(outcomes)


def test_R500_END_4_end_checked_only_between_hands():
    g = end_hand(target=20, b_keeps="9C")                      # B has melded 75 > 20
    assert not g.is_over and g.current_player == C and g.winner is None
    assert g.scores == [0, 0, 0]                                # nothing is scored during the hand
    a_goes_out(g)
    assert g.is_over


# ==================================================================================================
# 8. Edge cases
# ==================================================================================================


def test_R500_EDGE_1_going_out_on_a_deep_draw_turn():
    g = pile_game({A: ["10H", "JH", "4S", "5S", "6S", "KH", "KC"]}, ["2C", "9H", "KD"], A)
    act(g, "take discard 2")
    meld(g, "9H", "10H", "JH")
    meld(g, "4S", "5S", "6S")
    assert sorted(g.hand_of(A)) == sorted(["KH", "KD", "KC"])
    got = finish(g, [a for a in legal(g) if same(a, "meld KH KD KC")][0])
    assert got[A] == 29 + 15 + 30
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == A


def edge2_game(c_discard):
    hands = {A: ["2S", "3S", "4S", "7H", "8H", "9H", "KD"], B: ["QC", "JD", "9C", "6D", "4C", "2D", "10S"],
             C: ["AC", "3D", "5C", "7D", "9D", "JC", "KC"]}
    g = deal(hands, "8C", ["5S", "QS", c_discard])
    act(g, "draw stock")
    meld(g, "2S", "3S", "4S")
    lay(g, "5S", "2S")
    act(g, "discard KD")
    assert sorted(g.hand_of(A)) == ["7H", "8H", "9H"]
    go(g, "draw stock", "discard QS", "draw stock", f"discard {c_discard}")
    return g


def test_R500_EDGE_2_the_single_taken_card_may_not_be_left_as_the_only_card():
    g = edge2_game("JS")
    act(g, "take discard")
    assert sorted(legal(g)) == ["discard 7H", "discard 8H", "discard 9H"]
    assert_illegal(g, "meld 7H 8H 9H")                          # would leave JS, which cannot be discarded
    assert_illegal(g, "discard JS")
    act(g, "discard 9H")
    assert g.current_player == B and sorted(g.hand_of(A)) == ["7H", "8H", "JS"]


def test_R500_EDGE_2_the_taken_card_may_be_melded_to_go_out():
    g = edge2_game("10H")
    act(g, "take discard")
    meld(g, "8H", "9H", "10H")                                   # the taken card goes into a meld
    assert sorted(legal(g)) == sorted([f"layoff 7H on {meld_no(g, '8H')}", "discard 7H"])
    got = finish(g, f"layoff 7H on {meld_no(g, '8H')}")
    assert got[A] == 2 + 3 + 4 + 5 + 7 + 8 + 9 + 10


def test_R500_EDGE_2_the_taken_card_may_be_laid_off_on_a_meld_made_this_turn():
    """7H 8H 9H leaves only the taken 10H, which then lays off on that very meld: a legal way out."""
    g = edge2_game("10H")
    act(g, "take discard")
    assert any(same(a, "meld 7H 8H 9H") for a in legal(g)), legal(g)
    meld(g, "7H", "8H", "9H")
    assert legal(g) == [f"layoff 10H on {meld_no(g, '7H')}"]
    got = finish(g, legal(g)[0])
    assert got[A] == 2 + 3 + 4 + 5 + 7 + 8 + 9 + 10


def test_R500_EDGE_3_with_an_empty_stock_the_pile_may_still_be_drawn():
    g = deal(TURN_HANDS, "JS")
    drain(g)
    seat = g.current_player
    assert "take discard" in legal(g)
    act(g, "take discard")
    act(g, [a for a in legal(g) if a.startswith("discard")][0])
    pass_claims(g)
    assert g.hand_number == 1 and g.current_player == (seat + 1) % 3       # play goes on
    assert stock_count(g) == 0 and {"pass", "take discard"} <= set(legal(g))


def test_R500_EDGE_4_ace_laid_off_low_on_another_players_2_3_4_scores_1_and_on_J_Q_K_15():
    hands = {A: ["2S", "3S", "4S", "JH", "QH", "KH", "9C"], B: ["AS", "AH", "JD", "9D", "7D", "5D", "3D"]}
    g = deal(hands, "QC", ["10C", "8C"])
    act(g, "draw stock")
    meld(g, "2S", "3S", "4S")
    meld(g, "JH", "QH", "KH")
    act(g, "discard 9C", "draw stock")
    lay(g, "AS", "2S")
    lay(g, "AH", "JH")
    act(g, "discard 8C")
    got, held = end_by_stock(g)
    assert got[B] == 1 + 15 - total(held[B])
    assert got[A] == 9 + 30 - total(held[A])


def test_R500_EDGE_5_ace_beside_a_joker_2_scores_1_a_joker_ace_scores_15():
    hands = {A: ["AC", "Jk", "3C", "2D", "3D", "Jk", "9S"]}
    g = deal(hands, "QH", ["KS"])
    act(g, "draw stock")
    act(g, "meld AC Jk=2C 3C")
    act(g, "meld Jk=AD 2D 3D")
    act(g, "discard KS")
    got, held = end_by_stock(g)
    assert sorted(held[A]) == ["9S"]
    assert got[A] == (1 + 15 + 3) + (15 + 2 + 3) - 9


@pytest.mark.parametrize("fourth,fifth", [("7C", "7H"), ("7H", "7C")])
def test_R500_EDGE_6_joker_counts_toward_the_four_card_set_cap(fourth, fifth):
    """7S 7D Jk(=7) is a set of three: exactly one more natural 7 (either one left) may join, then it is full.
    Spec: the joker declares only its rank in a set (R500-MELD-6), and the cap counts it (R500-EDGE-6)."""
    hands = {A: ["7S", "7D", "Jk", "QH", "KH", "2C", "9C"], B: [fourth, fifth, "8D", "10C", "JC", "4H", "6H"]}
    g = deal(hands, "3C", ["8C", "2D"])
    act(g, "draw stock")
    jk_sets = [a for a in legal(g) if a.startswith("meld") and {"7S", "7D"} <= set(a.split()) and "Jk=7" in a]
    assert jk_sets, legal(g)
    act(g, jk_sets[0], "discard 8C", "draw stock")
    assert f"layoff {fourth} on 1" in legal(g), f"a natural {fourth} may join 7S 7D Jk: {melds(g)}"
    act(g, f"layoff {fourth} on 1")
    assert len(melds(g)[0]["cards"]) == 4
    assert_illegal(g, f"layoff {fifth} on 1")


def test_R500_EDGE_7_base_rules_allow_a_playable_going_out_discard_without_a_call():
    hands = {A: ["2H", "3H", "4H", "5H", "6H", "7H", "9H"]}
    g = deal(hands, "QC", ["8H"])
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    assert "discard 9H" in legal(g)
    finish(g, "discard 9H")
    assert g.hand_log[-1]["ending"] == "out" and not in_claim(g)


def test_R500_EDGE_7_variant_final_discard_must_be_unplayable():
    hands = {A: ["2H", "3H", "4H", "5H", "6H", "7H", "9H"]}
    g = deal(hands, "QC", ["8H"], variant="unplayable_final_discard")
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    assert legal(g) == [f"layoff 9H on {meld_no(g, '2H')}"]
    assert_illegal(g, "discard 9H")
    finish(g, legal(g)[0])
    assert g.hand_log[-1]["ending"] == "out"
    # an unplayable last card may still be discarded
    hands = {A: ["2H", "3H", "4H", "5H", "6H", "7H", "JS"]}
    g = deal(hands, "QC", ["8H"], variant="unplayable_final_discard")
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    finish(g, "discard JS")


def test_R500_EDGE_8_uniquely_highest_wins_although_another_reached_the_target_first():
    g = end_hand(target=60, b_keeps="9C")                       # B melds 75 first
    got = a_goes_out(g)
    assert g.scores[A] == 72 and g.scores[B] == 66 and min(g.scores[A], g.scores[B]) >= 60
    assert g.is_over and g.winner == A


def test_R500_EDGE_9_a_tie_break_hand_may_leave_everyone_below_the_target():
    g = end_hand(target=72)
    a_goes_out(g)
    assert g.scores[:2] == [72, 72] and not g.is_over
    end_by_stock(g)                                              # nobody melds: every total falls
    assert max(g.scores) < 72
    assert not g.is_over and g.winner is None and g.hand_number == 3


# ==================================================================================================
# Variants named in the source (rulesets/variants/rummy_500_*.yaml)
# ==================================================================================================


def test_variant_no_jokers():
    g = variant_rules("no_jokers").new_game(seed=4, players=3)
    assert g.cards_in_play == 52
    assert seen_after_drain(g) == Counter(ALL_CARDS)
    hands = {A: ["9H", "JH", "5C", "5D", "2S", "KD", "4C"]}
    g = deal(hands, "QC", ["7S"], variant="no_jokers")
    act(g, "draw stock")
    assert not any("Jk" in a for a in legal(g))
    assert_illegal(g, "meld 9H Jk=10H JH")


def test_variant_five_ten_fifteen_values():
    hands = {A: ["2S", "5H", "9D", "10C", "KS", "AH", "Jk"]}
    g = deal(hands, "QC", variant="five_ten_fifteen")
    got, held = end_by_stock(g, five_ten=True)
    assert got[A] == -(5 + 5 + 5 + 10 + 10 + 15 + 15)


def test_variant_floating_melding_the_whole_hand_does_not_end_it():
    g = deal({A: HEARTS[:7]}, "QC", ["9H", "KC", "JD"], variant="floating")
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    lay(g, "9H", "2H")
    assert g.hand_of(A) == [] and g.hand_number == 1           # A floats: the hand goes on
    assert g.current_player == B and g.view(B)["zones"]["hand"][A]["count"] == 0
    go(g, "draw stock", "discard KC", "draw stock", "discard JD")
    assert g.current_player == A and g.hand_number == 1
    assert "draw stock" in legal(g)
    # the base rules end the hand at once
    g = deal({A: HEARTS[:7]}, "QC", ["9H", "KC", "JD"])
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H"):
        lay(g, c, "2H")
    finish(g, f"layoff 9H on {meld_no(g, '2H')}")


def test_variant_floating_penalty_zero_when_the_hand_ends_meanwhile():
    hands = {A: HEARTS[:7], B: ["KS", "KD", "KC", "KH", "QS", "QD", "QC"]}
    g = deal(hands, "3C", ["9H", "2C"], variant="floating")
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H", "9H"):
        lay(g, c, "2H")
    assert g.hand_of(A) == [] and g.hand_number == 1             # A floats
    act(g, "draw stock")                                          # B goes out with a discard
    meld(g, "KS", "KD", "KC")
    lay(g, "KH", "KS")
    meld(g, "QS", "QD", "QC")
    got = finish(g, "discard 2C")
    assert got[A] == sum(range(2, 10))                            # A floated: nothing held, nothing charged
    assert got[B] == 40 + 30


def test_variant_floating_options_on_the_next_turn():
    """(a) draw from the stock and discard: the hand ends; (c) draw, lay off and float again."""
    hands = {A: HEARTS[:7]}
    for option in ("a", "c"):
        g = deal(hands, "QC", ["9H", "KC", "JD", "10H" if option == "c" else "KD", "5C"], variant="floating")
        act(g, "draw stock")
        meld(g, "2H", "3H", "4H")
        for c in ("5H", "6H", "7H", "8H", "9H"):
            lay(g, c, "2H")
        go(g, "draw stock", "discard KC", "draw stock", "discard JD")
        assert g.current_player == A
        assert "take discard" not in legal(g)                       # JD could only be discarded again
        act(g, "draw stock")
        if option == "a":
            got = finish(g, "discard KD")
            assert got[A] == sum(range(2, 10))
        else:
            lay(g, "10H", "2H")
            assert g.hand_of(A) == [] and g.hand_number == 1 and g.current_player == B


@pytest.mark.parametrize("option", ["b", "d"])
def test_variant_floating_options_taking_several_discards(option):
    """A floats after placing 2H..9H; the next discards are 10H (a Rummy call is possible; everyone passes),
    QS and, with four players, KD.  (b) Three players: A takes 10H QS, lays 10H off on the run and discards QS,
    the one card left: the hand ends.  (d) Four players: A takes 10H QS KD, lays 10H off and discards QS while
    keeping KD: play resumes with B."""
    hands = {A: HEARTS[:7]}
    stock = ["9H", "10H", "QS"] + (["KD"] if option == "d" else [])
    players = 4 if option == "d" else 3
    g = deal(hands, "3C", stock, players=players, variant="floating")
    act(g, "draw stock")
    meld(g, "2H", "3H", "4H")
    for c in ("5H", "6H", "7H", "8H", "9H"):
        lay(g, c, "2H")
    assert g.hand_of(A) == [] and g.current_player == B
    go(g, "draw stock", "discard 10H", "draw stock", "discard QS")
    if option == "d":
        go(g, "draw stock", "discard KD")
    assert g.current_player == A
    k = 2 if option == "b" else 3
    assert f"take discard {k}" in legal(g)
    act(g, f"take discard {k}")
    lay(g, "10H", "2H")
    if option == "b":
        got = finish(g, "discard QS")                       # one card left, discarded: the hand ends
        assert got[A] == sum(range(2, 11))
    else:
        act(g, "discard QS")
        assert g.hand_of(A) == ["KD"] and g.hand_number == 1 and g.current_player == B


def test_R500_TURN_3_a_deep_draw_from_the_middle_leaves_every_card_below_it_in_order():
    """R500-TURN-3: the deep draw takes the chosen card and every card above it -- nothing below.
    The pile (bottom first) is 3C 9H KD 5S JC 2D QH; A holds 4S and 6S, so 5S (the 4th card from the top)
    can be melded at once (R500-TURN-5).  `take discard 4` takes 5S JC 2D QH: A's hand grows from 7 to 11
    by exactly those four, and 3C 9H KD stay in the pile, in that order, for every player to see."""
    g = pile_game({A: ["4S", "6S", "8D", "10C", "KH", "2H", "AC"]}, ["3C", "9H", "KD", "5S", "JC", "2D", "QH"], A)
    before = g.hand_of(A)
    act(g, "take discard 4")
    assert sorted(drawn(g, A, before)) == sorted(["5S", "JC", "2D", "QH"])
    assert len(g.hand_of(A)) == 7 + 4
    for seat in (A, B, C):
        assert pile(g, seat) == ["3C", "9H", "KD"]
    meld(g, "4S", "5S", "6S")                                         # the duty: 5S melded next
    assert pile(g) == ["3C", "9H", "KD"]
