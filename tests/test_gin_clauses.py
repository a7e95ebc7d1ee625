"""One test (at least) per clause of shared/spec/gin_rummy.md, played through the public API.

Conventions: unless stated, ``dealer=0`` so seat 1 is the non-dealer and receives deck[0] (see
``gin_helpers.stack``).  In the go-out tests seat 1 (the non-dealer) is the knocker: both players pass the
upcard, the knocker draws the top stock card and goes out; seat 0 is the defender.  Every expected figure
is derived from the spec (card values, meld rules, scoring formulas) by the oracle in gin_helpers, never
read back from the engine.
"""

from __future__ import annotations

import random

import pytest

import rulesdsl
from rulesdsl import IllegalAction

from gin_helpers import (ALL_CARDS, Match, act, assert_illegal, bot_action, deadwood, deadwood_after_layoffs, deal,
                         defender_with, drawn_card, fits, is_meld, legal, meld_no, play_to_void, rules, snapshot,
                         stack, steer_hand, total, value, visible_cards, knock_outcome, optimal_partitions)

ND, DL = 1, 0          # with dealer 0: seat 1 is the non-dealer, seat 0 the dealer
KN, DF = ND, DL        # in the go-out tests the non-dealer knocks and the dealer defends

# A reusable deal: the non-dealer is one card (KD) from gin; the dealer holds ten unrelated cards.
GIN10 = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "KD"]
JUNK = ["2H", "4H", "6H", "8H", "10H", "3C", "5C", "8C", "JC", "KC"]      # no meld, no layoff: DW 66
UP = "KS"


def junk(exclude, n=10) -> list:
    """``n`` cards with no meld among them (alternating ranks per suit, at most two of a rank)."""
    pool = [r + s for s in "SD" for r in ["K", "J", "9", "7", "5", "3", "A"]] + \
           [r + s for s in "HC" for r in ["Q", "10", "8", "6", "4", "2"]]
    out = [c for c in pool if c not in set(exclude)][:n]
    assert len(out) == n and deadwood(out) == total(out)
    return out


def go_out_deal(final10, extra, defender10=None, upcard=UP, drawn=None, overrides=None, more_stock=()):
    """The knocker (seat 1, non-dealer) will hold ``final10`` + ``extra`` after drawing ``drawn`` (a card
    of final10, by default its last) from the stock; both players pass the upcard first.  The default
    defender holds ten meld-free cards (``junk``)."""
    drawn = drawn if drawn is not None else final10[-1]
    if defender10 is None:
        defender10 = junk(list(final10) + [extra, upcard])
    dealt = [c for c in final10 if c != drawn] + [extra]
    g = deal(dealt, defender10, upcard, stock_top=[drawn, *more_stock], overrides=overrides)
    act(g, "pass", "pass", "draw stock")
    assert sorted(g.hand_of(KN)) == sorted(final10 + [extra])
    return g


def quick_gin(overrides=None, defender10=JUNK, dealer=0):
    """A first hand that ends at once: the non-dealer draws KD and goes gin discarding 9C."""
    dealt = [c for c in GIN10 if c != "KD"] + ["9C"]
    g = deal(dealt, defender10, UP, stock_top=["KD"], overrides=overrides, dealer=dealer)
    act(g, "pass", "pass", "draw stock", "gin 9C")
    return g


def top_of_discard(game, seat=0):
    return game.view(seat)["zones"]["discard"].get("top")


# ==================================================================================================
# 1. Setup / Deal
# ==================================================================================================


def test_GIN_DEAL_1_two_players_one_standard_52_card_deck():
    r = rules()
    g = r.new_game(seed=11, dealer=0)
    v = g.view(0)
    assert v["players"] == 2 and len(v["zones"]["hand"]) == 2
    assert g.cards_in_play == 52
    z = v["zones"]
    assert z["stock"]["count"] + z["discard"]["count"] + sum(h["count"] for h in z["hand"]) == 52
    # play the hand out to the floor: every card seen is a distinct card of the standard deck, no joker
    seen = g.hand_of(0) + g.hand_of(1) + [z["discard"]["top"]]
    seen += play_to_void(g)
    assert len(seen) == len(set(seen)) == 50
    assert set(seen) <= set(ALL_CARDS)
    with pytest.raises((ValueError, rulesdsl.RulesdslError)):
        r.new_game(seed=1, players=3)
    deck = stack(GIN10[:9] + ["9C"], JUNK, UP)
    with pytest.raises(ValueError):                  # a joker is not a card of this deck
        r.new_game(seed=1, dealer=0, deck=deck[:-1] + ["Jk"])
    with pytest.raises(ValueError):                  # nor is a 53rd card
        r.new_game(seed=1, dealer=0, deck=deck + ["AS"])


def test_GIN_DEAL_2_first_dealer_random_then_alternates_and_void_redeals_same_dealer():
    firsts = {rules().new_game(seed=s).view(0)["dealer"] for s in range(40)}
    assert firsts == {0, 1}
    # alternate after a scored hand
    for dealer in (0, 1):
        g = quick_gin(dealer=dealer)
        assert g.hand_log[-1]["ending"] == "gin"
        assert g.view(0)["dealer"] == 1 - dealer
    # the dealer_rotation alternatives: "winner" (the scorer deals) and "loser"
    for rotation, expected in (("alternate", 1), ("winner", 0), ("loser", 1)):
        dealt = [c for c in GIN10 if c != "KD"] + ["9C"]          # the dealer (seat 0) takes KD and goes gin
        g = deal(JUNK, dealt, "KD", overrides={"dealer_rotation": rotation})
        act(g, "pass", "take discard", "gin 9C")
        assert g.hand_log[-1]["scorer"] == 0
        assert g.view(0)["dealer"] == expected, rotation
    # same dealer after a void hand
    g = deal(GIN10[:9] + ["9C"], JUNK, UP)
    play_to_void(g)
    assert g.hand_log[-1]["ending"] == "void"
    assert g.view(0)["dealer"] == 0 and g.hand_number == 2


@pytest.mark.parametrize("dealer", [0, 1])
def test_GIN_DEAL_3_ten_cards_each_dealt_alternately_non_dealer_first(dealer):
    deck = list(ALL_CARDS)           # a recognisable order: block dealing would give other hands
    g = rules().new_game(seed=1, dealer=dealer, deck=deck)
    nd = 1 - dealer
    assert sorted(g.hand_of(nd)) == sorted(deck[0:20:2])
    assert sorted(g.hand_of(dealer)) == sorted(deck[1:20:2])
    for s in (0, 1):
        assert g.view(s)["zones"]["hand"][s]["count"] == 10
    assert g.current_player == nd


def test_GIN_DEAL_4_stock_and_upcard():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D", "5D"])
    z = g.view(0)["zones"]
    assert z["stock"]["count"] == 31
    assert z["discard"]["count"] == 1 and z["discard"]["top"] == "QH"
    act(g, "pass", "pass")
    before = g.hand_of(ND)
    g.apply("draw stock")
    assert drawn_card(g, before) == "4D"                     # deck[21] is the top of the stock
    assert g.view(0)["zones"]["stock"]["count"] == 30
    g.apply("discard 9C")
    before = g.hand_of(DL)
    g.apply("draw stock")
    assert drawn_card(g, before) == "5D"


def test_GIN_DEAL_5_discard_pile_squared_only_top_visible_and_takeable():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D", "5D", "6C"])
    act(g, "pass", "pass", "draw stock", "discard 9C", "draw stock", "discard 2H")
    for seat in (0, 1):
        pile = g.view(seat)["zones"]["discard"]
        assert pile["count"] == 3
        assert pile["top"] == "2H"
        assert "cards" not in pile                    # no list of the buried cards
        assert visible_cards(g.view(seat)) & {"9C", "QH"} == set()
    before = g.hand_of(ND)
    g.apply("take discard")
    assert drawn_card(g, before) == "2H"
    assert top_of_discard(g) == "9C"


# ==================================================================================================
# 2. Turn
# ==================================================================================================


def test_GIN_TURN_1_non_dealer_offered_upcard_first():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH")
    assert g.current_player == ND
    assert sorted(legal(g)) == ["pass", "take discard"]
    assert_illegal(g, "draw stock")
    g.apply("take discard")
    assert "QH" in g.hand_of(ND) and len(g.hand_of(ND)) == 11
    assert g.current_player == ND


def test_GIN_TURN_2_dealer_offered_upcard_after_non_dealer_passes():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH")
    g.apply("pass")
    assert g.current_player == DL
    assert sorted(legal(g)) == ["pass", "take discard"]
    assert_illegal(g, "draw stock")
    g.apply("take discard")
    assert "QH" in g.hand_of(DL) and len(g.hand_of(DL)) == 11


def test_GIN_TURN_3_both_pass_non_dealer_must_draw_stock():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D"])
    act(g, "pass", "pass")
    assert g.current_player == ND
    assert legal(g) == ["draw stock"]
    assert_illegal(g, "take discard")
    assert_illegal(g, "pass")
    g.apply("draw stock")
    assert "4D" in g.hand_of(ND)
    g.apply("discard 4D")
    # ...and that completes a normal turn: the dealer now has a normal turn
    assert g.current_player == DL
    assert sorted(legal(g)) == ["draw stock", "take discard"]


def test_GIN_TURN_4_upcard_taker_discards_then_other_player_takes_normal_turn():
    # the dealer takes the upcard: then the non-dealer plays next
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH")
    act(g, "pass", "take discard")
    assert g.current_player == DL
    acts = legal(g)
    assert acts and all(a.split()[0] in ("discard", "knock", "gin") for a in acts)
    g.apply("discard 2H")
    assert g.current_player == ND
    assert sorted(legal(g)) == ["draw stock", "take discard"]
    assert top_of_discard(g) == "2H"
    # the non-dealer takes the upcard: completes that turn by discarding, then the dealer's normal turn
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH")
    g.apply("take discard")
    acts = legal(g)
    assert acts and all(a.split()[0] in ("discard", "knock", "gin") for a in acts)
    g.apply("discard 9C")
    assert g.current_player == DL
    assert sorted(legal(g)) == ["draw stock", "take discard"]


@pytest.mark.parametrize("source", ["draw stock", "take discard"])
def test_GIN_TURN_5_normal_turn_draws_exactly_one_card_from_stock_or_discard(source):
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D", "5D"])
    act(g, "pass", "pass", "draw stock", "discard 9C")       # the dealer's normal turn comes next
    assert sorted(legal(g)) == ["draw stock", "take discard"]
    assert top_of_discard(g) == "9C"
    before = g.hand_of(DL)
    g.apply(source)
    got = drawn_card(g, before)
    assert got == ("5D" if source == "draw stock" else "9C")
    assert len(g.hand_of(DL)) == 11
    assert not any(a in ("draw stock", "take discard") for a in legal(g))
    assert_illegal(g, "draw stock")
    assert_illegal(g, "take discard")


def test_GIN_TURN_6_turn_ends_with_exactly_one_discard():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D"])
    act(g, "pass", "pass", "draw stock")
    acts = legal(g)
    # every way to end the turn discards exactly one card (face up, or face down when going out)
    assert all(len(a.split()) == 2 and a.split()[0] in ("discard", "knock", "gin") for a in acts)
    assert {a.split()[1] for a in acts if a.startswith("discard ")} == set(g.hand_of(ND))
    assert_illegal(g, "pass")
    assert_illegal(g, "done")
    assert g.current_player == ND                    # nothing ends the turn but a discard
    g.apply("discard 4D")
    assert len(g.hand_of(ND)) == 10
    assert top_of_discard(g) == "4D"
    assert g.current_player == DL


def test_GIN_TURN_7_taken_discard_may_not_be_rediscarded_but_stock_card_may():
    # taken from the discard pile: may not be discarded in the same turn, the state stays unchanged
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D"])
    g.apply("take discard")
    assert "discard QH" not in legal(g)
    assert_illegal(g, "discard QH")
    assert "discard 9C" in legal(g)
    # ...in a normal turn too
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D", "5D"])
    act(g, "pass", "pass", "draw stock", "discard 4D", "take discard")
    assert_illegal(g, "discard 4D")
    # a card drawn from the stock may be discarded at once
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D"])
    act(g, "pass", "pass", "draw stock")
    assert "discard 4D" in legal(g)
    g.apply("discard 4D")
    assert top_of_discard(g) == "4D"
    # with the parameter switched on, the taken card may be discarded again
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", overrides={"rediscard_taken_discard": True})
    g.apply("take discard")
    assert "discard QH" in legal(g)
    g.apply("discard QH")
    assert top_of_discard(g) == "QH" and g.current_player == DL


def test_GIN_TURN_7_taken_discard_may_not_be_the_go_out_discard():
    """The face-down discard of a knock or gin is a discard of the same turn (GIN-KNOCK-4), so the card
    just taken from the pile may not be it either; with ``rediscard_taken_discard`` it may."""
    ready = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "4C"]      # DW 4 before drawing
    g = deal(ready, JUNK, "KH")
    g.apply("take discard")
    assert "knock 4C" in legal(g)                          # KH kept: DW 10
    assert "knock KH" not in legal(g)
    assert_illegal(g, "knock KH")
    g = deal(ready, JUNK, "KH", overrides={"rediscard_taken_discard": True})
    g.apply("take discard")
    assert "knock KH" in legal(g)


def test_GIN_TURN_8_hands_concealed_and_no_melds_on_table_during_play():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", stock_top=["4D", "5D", "6D", "7S"])
    act(g, "pass", "pass")
    for _ in range(4):
        for seat in (0, 1):
            v = g.view(seat)
            assert v["melds"] == []
            mine, theirs = v["zones"]["hand"][seat], v["zones"]["hand"][1 - seat]
            assert sorted(mine["cards"]) == sorted(g.hand_of(seat))
            assert "cards" not in theirs and theirs["count"] == len(g.hand_of(1 - seat))   # only a count
            assert "cards" not in v["zones"]["stock"]
            assert not visible_cards(v) & set(g.hand_of(1 - seat))
        before = g.hand_of(g.current_player)
        g.apply("draw stock")
        g.apply(f"discard {drawn_card(g, before)}")


def test_GIN_TURN_9_players_alternate_until_the_hand_ends():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH")
    act(g, "pass", "pass")
    order = []
    while g.hand_number == 1:
        order.append(g.current_player)
        before = g.hand_of(g.current_player)
        g.apply("draw stock")
        g.apply(f"discard {drawn_card(g, before)}")
    assert order[0] == ND
    assert all(a != b for a, b in zip(order, order[1:]))
    assert len(order) == 29                                      # 31 stock cards down to the floor of 2
    assert g.hand_log[-1]["ending"] == "void"


# ==================================================================================================
# 3. Melds
# ==================================================================================================


@pytest.mark.parametrize("cards,melded", [
    (["4D", "5D", "6D"], True),
    (["AD", "2D", "3D", "4D"], True),                 # the seed's example
    (["6H", "7H", "8H", "9H", "10H", "JH", "QH"], True),
    (["4D", "5D", "7D"], False),                      # not consecutive
    (["4D", "5H", "6D"], False),                      # not one suit
    (["4D", "5D"], False),                            # too short
])
def test_GIN_MELD_1_run_is_three_or_more_consecutive_same_suit(cards, melded):
    a = rules().arrange(cards)
    assert (a.points == 0) is melded
    assert a.points == (0 if melded else total(cards))


@pytest.mark.parametrize("three,melded", [(["4D", "5D", "6D"], True), (["4D", "5D", "7D"], False),
                                          (["4D", "5H", "6D"], False)])
def test_GIN_MELD_1_run_completes_gin_in_play(three, melded):
    final10 = three + ["9S", "9H", "9C", "10S", "JS", "QS", "KS"]
    g = go_out_deal(final10, "8C", upcard="QH")
    assert ("gin 8C" in legal(g)) is melded
    if not melded:
        assert_illegal(g, "gin 8C")


@pytest.mark.parametrize("cards,points", [
    (["AS", "2S", "3S"], 0),
    (["QS", "KS", "AS"], 21),
    (["KS", "AS", "2S"], 13),
    (["QS", "KS", "AS", "2S"], 23),
])
def test_GIN_MELD_2_ace_low_only_no_wrap_around(cards, points):
    assert rules().arrange(cards).points == points


def test_GIN_MELD_2_wrap_around_does_not_make_gin_in_play():
    # the knocker would be gin only if Q-K-A of spades were a run
    final10 = ["QS", "KS", "AS", "7H", "7D", "7C", "10D", "JD", "QD", "KD"]
    g = go_out_deal(final10, "9C", JUNK, upcard="QH")
    assert deadwood(final10) == 21
    assert not any(a.startswith("gin") for a in legal(g))
    assert_illegal(g, "gin 9C")
    assert_illegal(g, "knock 9C")                     # 21 > 10


@pytest.mark.parametrize("cards,melded", [
    (["8S", "8H", "8D"], True),
    (["8S", "8H", "8D", "8C"], True),
    (["8S", "8H"], False),
    (["8S", "8H", "9D"], False),
])
def test_GIN_MELD_3_set_is_three_or_four_of_a_rank(cards, melded):
    a = rules().arrange(cards)
    assert a.points == (0 if melded else total(cards))
    if melded:
        assert len(a.melds) == 1 and sorted(a.melds[0]) == sorted(cards)


def test_GIN_MELD_3_set_of_four_makes_gin():
    final10 = ["8S", "8H", "8D", "8C", "AS", "2S", "3S", "10D", "JD", "QD"]
    g = go_out_deal(final10, "KC", ["2H", "4H", "6H", "9H", "10H", "3C", "5C", "9C", "JC", "KH"])
    assert "gin KC" in legal(g)
    g.apply("gin KC")
    assert g.hand_log[-1]["ending"] == "gin"


@pytest.mark.parametrize("cards", [
    ["7S", "7D", "7H", "5H", "6H"],
    ["7S", "7D", "7H", "8H", "9H"],
    ["4C", "5C", "6C", "6S", "6H", "7C"],
    ["AS", "2S", "3S", "3H", "3D", "4S"],
])
def test_GIN_MELD_4_a_card_belongs_to_one_meld_only(cards):
    a = rules().arrange(cards)
    used = [c for m in a.melds for c in m]
    assert len(used) == len(set(used))                # melds are disjoint
    assert not set(used) & set(a.deadwood)
    assert sorted(used + list(a.deadwood)) == sorted(cards)
    assert a.points == deadwood(cards)                # the oracle never shares a card
    assert all(is_meld(m) for m in a.melds)


def test_GIN_MELD_4_shared_card_cannot_make_gin():
    # 7H would be needed in both the 7s and the 5H-6H-7H run: no gin, and no knock (DW 11 + 9 = 20)
    final10 = ["7S", "7D", "7H", "5H", "6H", "10C", "JC", "QC", "KC", "9S"]
    g = go_out_deal(final10, "2D", ["2H", "4H", "8H", "10H", "3C", "5C", "8C", "AD", "3D", "6S"])
    assert deadwood(final10) == 20
    assert not any(a.split()[0] in ("gin", "knock") for a in legal(g))


@pytest.mark.parametrize("cards", [
    ["AS", "2S", "3S", "7H", "7D", "7C", "KC", "5D", "9H", "QS"],
    ["2H", "3H", "4H", "5H", "9C", "9D", "9S", "AC", "AD", "10S"],
    ["KS", "KH", "QD", "JD", "10D", "AC", "2C", "4C", "6C", "8C"],
])
def test_GIN_MELD_5_deadwood_is_every_card_not_in_a_meld_valued_by_rank(cards):
    a = rules().arrange(cards)
    in_melds = {c for m in a.melds for c in m}
    assert set(a.deadwood) == set(cards) - in_melds
    assert a.points == sum(value(c) for c in a.deadwood) == deadwood(cards)


def test_GIN_MELD_5_logged_deadwood_is_the_sum_of_unmatched_values():
    final10 = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "4C"]
    g = go_out_deal(final10, "KH", JUNK)
    g.apply("knock KH")
    assert g.view(DF)["zones"]["hand"][KN]["cards"] == ["4C"]      # the knocker's unmatched card
    g.apply("done")
    assert g.hand_log[-1]["deadwood"][KN] == 4


def test_GIN_MELD_6_engine_uses_a_minimum_deadwood_arrangement():
    # longest run first (7H-10H) would leave 7S 7D 4D = 18; the best split (7s + 8H-10H) leaves 4D = 4
    final10 = ["7S", "7D", "7H", "8H", "9H", "10H", "AC", "2C", "3C", "4D"]
    assert deadwood(final10) == 4
    g = go_out_deal(final10, "KS", upcard="QS")
    assert "knock KS" in legal(g)
    g.apply("knock KS")
    shown = g.view(DF)["melds"]
    assert all(is_meld(m["cards"]) for m in shown)
    assert sorted(c for m in shown for c in m["cards"]) == sorted(set(final10) - {"4D"})
    g.apply("done")
    assert g.hand_log[-1]["deadwood"][KN] == 4
    # for several random hands the API's arrangement is a minimum (oracle brute force)
    rng = random.Random(6)
    for _ in range(300):
        cards = rng.sample(ALL_CARDS, rng.choice([10, 11]))
        assert rules().arrange(cards).points == deadwood(cards)


# ==================================================================================================
# 4. Laying off
# ==================================================================================================

LAY_KNOCKER = ["2D", "3D", "4D", "7C", "7H", "7S", "9S", "10S", "JS", "5C"]      # DW 5 (the spec's ex. 3)


def test_GIN_LAYOFF_1_defender_may_lay_off_and_laid_off_card_is_not_deadwood():
    defender = ["5D", "QH", "QD", "QC", "2H", "4H", "6H", "8C", "10C", "KC"]
    g = go_out_deal(LAY_KNOCKER, "KH", defender)
    g.apply("knock KH")
    assert g.current_player == DF
    n = meld_no(g, "2D")
    assert f"layoff 5D on {n}" in legal(g)
    g.apply(f"layoff 5D on {n}")
    assert "5D" in g.view(KN)["melds"][n - 1]["cards"]
    assert "5D" not in g.hand_of(DF)
    g.apply("done")
    rest = [c for c in defender if c != "5D"]
    assert g.hand_log[-1]["deadwood"][DF] == deadwood(rest) == 2 + 4 + 6 + 8 + 10 + 10


def test_GIN_LAYOFF_2_layoff_extends_a_run_at_either_end_or_completes_a_set_of_four():
    # knocker melds: 4D-5D-6D (run) and 9C-9H-9S (set); deadwood AC
    knocker = ["4D", "5D", "6D", "9C", "9H", "9S", "JS", "QS", "KS", "AC"]
    defender = ["3D", "7D", "9D", "2D", "8D", "10S", "2H", "5H", "8C", "KC"]
    g = go_out_deal(knocker, "KH", defender, upcard="QH")
    g.apply("knock KH")
    run, sset, top = meld_no(g, "4D"), meld_no(g, "9C"), meld_no(g, "JS")
    lay = {a for a in legal(g) if a.startswith("layoff")}
    assert lay == {f"layoff 3D on {run}", f"layoff 7D on {run}", f"layoff 9D on {sset}",
                   f"layoff 10S on {top}"}
    for bad in (f"layoff 2D on {run}", f"layoff 8D on {run}", f"layoff 9D on {run}", f"layoff 3D on {sset}",
                f"layoff 2H on {run}"):
        assert_illegal(g, bad)


def test_GIN_LAYOFF_3_layoffs_chain():
    knocker = ["2D", "3D", "4D", "7C", "7H", "7S", "9S", "10S", "JS", "AC"]
    defender = ["5D", "6D", "QH", "QD", "QC", "2H", "4H", "8H", "10C", "KC"]
    g = go_out_deal(knocker, "KH", defender)
    g.apply("knock KH")
    n = meld_no(g, "2D")
    assert f"layoff 6D on {n}" not in legal(g)            # 6D does not touch 2D-4D yet
    g.apply(f"layoff 5D on {n}")
    assert f"layoff 6D on {n}" in legal(g)                # ...but extends 2D-5D
    g.apply(f"layoff 6D on {n}")
    assert sorted(g.view(DF)["melds"][n - 1]["cards"]) == sorted(["2D", "3D", "4D", "5D", "6D"])
    g.apply("done")
    assert g.hand_log[-1]["deadwood"][DF] == 2 + 4 + 8 + 10 + 10
    # the engine's own layoffs (after `done`) chain too
    g = go_out_deal(knocker, "KH", defender)
    act(g, "knock KH", "done")
    assert g.hand_log[-1]["deadwood"][DF] == 2 + 4 + 8 + 10 + 10


def test_GIN_LAYOFF_4_only_defender_lays_off_only_onto_knocker_melds():
    # knocker deadwood 5C; defender holds a 5-set (the knocker's 5C would fit it) and 4C/6C around 5C
    knocker = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "5C"]
    defender = ["5S", "5H", "5D", "4C", "6C", "2H", "9H", "JH", "KH", "8C"]
    g = go_out_deal(knocker, "KS", defender, upcard="QH")
    g.apply("knock KS")
    v = g.view(DF)
    assert v["phase"] == "layoff" and g.current_player == DF
    assert all(m["owner"] == KN for m in v["melds"])        # only the knocker's melds are on the table
    assert not any("5C" in m["cards"] for m in v["melds"])
    lay = [a for a in legal(g) if a.startswith("layoff")]
    assert not any(a.split()[1] in ("4C", "6C") for a in lay)      # no layoff onto deadwood
    g.apply("done")
    rec = g.hand_log[-1]
    assert rec["deadwood"][KN] == 5                         # the knocker never lays off its 5C
    assert rec["deadwood"][DF] == deadwood(defender) == 4 + 6 + 2 + 9 + 10 + 10 + 8
    assert rec["scorer"] == KN and rec["points"] == rec["deadwood"][DF] - 5


def test_GIN_LAYOFF_5_no_layoffs_against_gin():
    # the defender's 4S, 8D... would fit the gin player's melds after a knock; not after a gin
    defender = ["4S", "7S", "9D", "2H", "4H", "6H", "8H", "3C", "5C", "JC"]
    g = quick_gin(defender10=defender)
    rec = g.hand_log[-1]
    assert rec["ending"] == "gin" and g.hand_number == 2          # no layoff window: the hand is over
    assert rec["deadwood"][DL] == total(defender) == deadwood(defender)
    assert rec["points"] == 25 + total(defender)


def test_GIN_LAYOFF_6_engine_minimises_defender_deadwood_over_layoffs_and_arrangements():
    # laying 4H onto 5H-8H leaves 4C (4); keeping the 4-set 4S 4H 4C leaves 2S 3S 5S (10)
    knocker = ["5H", "6H", "7H", "8H", "9C", "9D", "9S", "9H", "AC", "3D"]
    defender = ["KS", "KD", "KC", "KH", "2S", "3S", "4S", "5S", "4H", "4C"]
    g = go_out_deal(knocker, "QC", defender, upcard="JC")
    act(g, "knock QC", "done")
    expected = deadwood_after_layoffs(defender, [["5H", "6H", "7H", "8H"], ["9C", "9D", "9S", "9H"]])
    assert expected == 4
    assert g.hand_log[-1]["deadwood"][DF] == expected
    # with manual layoffs first, `done` still completes the best remaining ones
    knocker = ["2D", "3D", "4D", "7C", "7H", "7S", "9S", "10S", "JS", "AC"]
    defender = ["5D", "6D", "7D", "8S", "QH", "QD", "QC", "2H", "4H", "KC"]
    g = go_out_deal(knocker, "KH", defender)
    g.apply("knock KH")
    g.apply(f"layoff 5D on {meld_no(g, '2D')}")
    g.apply("done")
    melds = [["2D", "3D", "4D", "5D"], ["7C", "7H", "7S"], ["9S", "10S", "JS"]]
    assert g.hand_log[-1]["deadwood"][DF] == deadwood_after_layoffs([c for c in defender if c != "5D"], melds)
    assert g.hand_log[-1]["deadwood"][DF] == 2 + 4 + 10


def test_GIN_LAYOFF_7_the_knocker_lays_out_the_arrangement_best_for_them():
    # two layouts leave the knocker 6 (2C 3D AD): 7S 7D 7C + 7H 8H 9H 10H lets the defender lay off 6H
    # (deadwood 29, the knocker scores 23); 7S 7D 7C 7H + 8H 9H 10H does not (35 - 6 = 29)
    knocker = ["7S", "7D", "7C", "7H", "8H", "9H", "10H", "2C", "3D", "AD"]
    defender = ["6H", "QS", "QD", "QH", "2S", "3S", "4S", "9C", "10C", "KS"]
    assert {deadwood_after_layoffs(defender, p) for p in optimal_partitions(knocker)} == {29, 35}
    g = go_out_deal(knocker, "KC", defender, upcard="JC")
    g.apply("knock KC")
    laid = sorted(sorted(m["cards"]) for m in g.view(DF)["melds"])
    assert laid == sorted([sorted(["7S", "7D", "7C", "7H"]), sorted(["8H", "9H", "10H"])])
    assert not [a for a in legal(g) if a.startswith("layoff 6H")]
    g.apply("done")
    rec = g.hand_log[-1]
    assert rec["deadwood"][DF] == 35 and rec["scorer"] == KN and rec["points"] == 35 - 6
    assert knock_outcome(knocker, defender)["points"] == 29


def test_GIN_LAYOFF_7_a_knock_may_name_its_layout_among_the_least_deadwood_ones():
    knocker = ["7S", "7D", "7C", "7H", "8H", "9H", "10H", "2C", "3D", "AD"]
    defender = ["6H", "QS", "QD", "QH", "2S", "3S", "4S", "9C", "10C", "KS"]
    g = go_out_deal(knocker, "KC", defender, upcard="JC")
    before = snapshot(g)
    for bad in ("knock KC with 7S 7D 7C",                          # leaves 7H 8H 9H 10H as deadwood
                "knock KC with 7S 7D 7C 7H / 8H 9H",               # 8H 9H is no meld
                "knock KC with 7S 7D 7C 7H / 7H 8H 9H"):           # 7H twice
        with pytest.raises(rulesdsl.IllegalAction):
            g.apply(bad)
        assert snapshot(g) == before
    g.apply("knock KC with 7S 7D 7C / 7H 8H 9H 10H")               # the layout worse for the knocker
    assert g.history[-1] == "knock KC with 7S 7D 7C / 7H 8H 9H 10H"
    assert f"layoff 6H on {meld_no(g, '7H')}" in legal(g)
    g.apply("done")
    rec = g.hand_log[-1]
    assert rec["deadwood"][DF] == 29 and rec["points"] == 29 - 6


# ==================================================================================================
# 5. Going out
# ==================================================================================================


def test_GIN_KNOCK_1_hand_ends_by_gin_or_knock():
    g = quick_gin()
    assert g.hand_log[-1]["ending"] == "gin" and g.hand_number == 2
    g = go_out_deal(LAY_KNOCKER, "KH")
    act(g, "knock KH", "done")
    assert g.hand_log[-1]["ending"] == "knock" and g.hand_number == 2
    assert g.hand_log[-1]["declarer"] == KN


def test_GIN_KNOCK_1_straight_gin_only_gin_ends_the_hand():
    g = go_out_deal(LAY_KNOCKER, "KH", overrides={"knock_allowed": False})
    assert not any(a.startswith("knock") for a in legal(g))
    assert_illegal(g, "knock KH")
    g = go_out_deal(GIN10, "9C", JUNK, overrides={"knock_allowed": False})
    g.apply("gin 9C")
    assert g.hand_log[-1]["ending"] == "gin"


def test_GIN_KNOCK_2_knock_only_on_own_turn_after_drawing_even_on_first_turn():
    ready = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "4C"]      # DW 4 before drawing
    g = deal(ready, JUNK, "KH", stock_top=["8S"])
    assert g.current_player == ND
    assert_illegal(g, "knock 4C")                         # first-turn offer: not drawn yet
    assert_illegal(g, "gin 4C")
    g.apply("pass")
    assert g.current_player == DL
    with pytest.raises(IllegalAction):                    # not the non-dealer's turn
        g.apply("knock 4C")
    g.apply("pass")
    assert_illegal(g, "knock 4C")                         # the forced draw comes first
    g.apply("draw stock")
    assert "knock 8S" in legal(g)


def test_GIN_KNOCK_2_knock_right_after_taking_upcard():
    ready = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "5C", "KH"]
    # the upcard QD completes 10D-JD-QD: after taking it the non-dealer can knock discarding KH (DW 5)
    assert "knock KH" not in str(legal(deal(ready, junk(ready + ["QD"]), "QD")))
    g = deal(ready, junk(ready + ["QD"]), "QD")
    g.apply("take discard")
    assert "knock KH" in legal(g)
    act(g, "knock KH", "done")
    rec = g.hand_log[-1]
    assert rec["ending"] == "knock" and rec["declarer"] == ND and rec["deadwood"][ND] == 5


def test_GIN_KNOCK_3_knock_limit_ten_counted_after_the_discard():
    hand11 = ["AS", "2S", "3S", "4S", "5S", "8H", "8D", "8S", "KC", "9H", "AD"]
    assert deadwood(hand11) == 20                            # over the limit with 11 cards
    g = go_out_deal([c for c in hand11 if c != "AD"], "AD", drawn="9H")
    expected = {f"knock {c}" for c in hand11 if 0 < deadwood(set(hand11) - {c}) <= 10}
    assert expected == {"knock KC"}
    assert {a for a in legal(g) if a.startswith("knock")} == expected
    assert_illegal(g, "knock 9H")                           # leaves 11
    assert_illegal(g, "knock AD")                           # leaves 19
    act(g, "knock KC", "done")                              # leaves exactly 10
    assert g.hand_log[-1]["deadwood"][KN] == deadwood([c for c in hand11 if c != "KC"]) == 10


def test_GIN_KNOCK_3_knock_limit_parameter():
    hand11 = ["AS", "2S", "3S", "4S", "5S", "8H", "8D", "8S", "KC", "9H", "AD"]
    g = go_out_deal([c for c in hand11 if c != "AD"], "AD", drawn="9H", overrides={"knock_limit": 9})
    assert not any(a.startswith("knock") for a in legal(g))
    assert_illegal(g, "knock KC")


def test_GIN_KNOCK_4_knocker_lays_ten_cards_face_up_as_melds_and_deadwood():
    g = go_out_deal(LAY_KNOCKER, "KH")
    g.apply("knock KH")
    for seat in (0, 1):
        v = g.view(seat)
        shown = [c for m in v["melds"] if m["owner"] == KN for c in m["cards"]]
        shown += v["zones"]["hand"][KN].get("cards", [])
        assert sorted(shown) == sorted(LAY_KNOCKER)          # the other 10 cards, face up
        assert v["zones"]["hand"][KN]["cards"] == ["5C"]     # deadwood apart from the melds
        assert sorted(sorted(m["cards"]) for m in v["melds"]) == sorted(
            [["2D", "3D", "4D"], ["7C", "7H", "7S"], ["10S", "9S", "JS"]])
        assert "KH" not in shown


def test_GIN_KNOCK_4_knock_discard_is_face_down():
    g = go_out_deal(LAY_KNOCKER, "KH")
    g.apply("knock KH")
    assert g.view(DF)["phase"] == "layoff"
    # the defender must not see the face-down discard (it is not the visible top of the discard pile)
    assert "KH" not in visible_cards(g.view(DF)), g.view(DF)["zones"]["discard"]


def test_GIN_KNOCK_5_gin_is_ten_melded_cards_after_the_discard():
    g = go_out_deal(GIN10, "9C", JUNK)
    expected = {f"gin {c}" for c in GIN10 + ["9C"] if deadwood(set(GIN10 + ["9C"]) - {c}) == 0}
    assert expected == {"gin 9C"}
    assert {a for a in legal(g) if a.startswith("gin")} == expected
    # a knock with 0 deadwood always counts as gin: either it is not offered (gin is), or it scores as gin
    if "knock 9C" in legal(g):
        g.apply("knock 9C")
        if g.view(0)["phase"] == "layoff":
            g.apply("done")
    else:
        assert_illegal(g, "knock 9C")
        g.apply("gin 9C")
    rec = g.hand_log[-1]
    assert rec["ending"] == "gin"
    assert rec["points"] == 25 + deadwood(JUNK) and rec["deadwood"] == [deadwood(JUNK), 0]


def test_GIN_KNOCK_5_gin_not_allowed_with_deadwood():
    g = go_out_deal(LAY_KNOCKER, "KH")
    assert not any(a.startswith("gin") for a in legal(g))
    assert_illegal(g, "gin KH")


def test_GIN_KNOCK_6_defender_reveals_hand_after_a_knock():
    defender = ["5D", "QH", "QD", "QC", "2H", "4H", "6H", "8C", "10C", "KC"]
    g = go_out_deal(LAY_KNOCKER, "KH", defender)
    assert "cards" not in g.view(KN)["zones"]["hand"][DF]
    g.apply("knock KH")
    assert sorted(g.view(KN)["zones"]["hand"][DF]["cards"]) == sorted(defender)
    g.apply("done")
    assert g.hand_log[-1]["deadwood"][DF] == deadwood_after_layoffs(
        defender, [["2D", "3D", "4D"], ["7C", "7H", "7S"], ["9S", "10S", "JS"]])


def test_GIN_KNOCK_7_knocking_is_optional():
    g = go_out_deal(LAY_KNOCKER, "KH")
    assert "knock KH" in legal(g) and "discard KH" in legal(g)
    g.apply("discard KH")
    assert g.hand_number == 1 and g.hand_log == []
    assert g.current_player == DF
    assert sorted(legal(g)) == ["draw stock", "take discard"]


def test_GIN_KNOCK_8_big_gin_only_when_enabled():
    eleven = ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "10D", "JD", "QD", "KD"]
    assert deadwood(eleven) == 0
    dealt = eleven[:10]
    g = deal(dealt, JUNK, UP, stock_top=["KD"])
    act(g, "pass", "pass", "draw stock")
    assert "big_gin" not in legal(g)
    assert_illegal(g, "big_gin")
    assert "gin 4S" in legal(g)
    g = deal(dealt, JUNK, UP, stock_top=["KD"], overrides={"big_gin_enabled": True})
    act(g, "pass", "pass", "draw stock")
    assert "big_gin" in legal(g)
    g.apply("big_gin")
    rec = g.hand_log[-1]
    assert rec["ending"] == "big_gin" and rec["declarer"] == ND
    # not with a deadwood card among the 11, even when enabled
    g = deal(dealt, JUNK, UP, stock_top=["9C"], overrides={"big_gin_enabled": True})
    act(g, "pass", "pass", "draw stock")
    assert "big_gin" not in legal(g)
    assert_illegal(g, "big_gin")


# ==================================================================================================
# 6. Scoring
# ==================================================================================================


@pytest.mark.parametrize("card,val", [
    ("KS", 10), ("QH", 10), ("JD", 10), ("10C", 10), ("9S", 9), ("8H", 8), ("7D", 7), ("6C", 6),
    ("5S", 5), ("4H", 4), ("3D", 3), ("2C", 2), ("AS", 1)])
def test_GIN_SCORE_1_card_values(card, val):
    assert rules().arrange([card]).points == val


def test_GIN_SCORE_1_values_in_a_scored_hand():
    defender = ["KH", "QC", "JH", "AC", "AD", "2C", "5H", "9H", "3D", "6C"]     # no meld
    assert total(defender) == 10 + 10 + 10 + 1 + 1 + 2 + 5 + 9 + 3 + 6
    g = quick_gin(defender10=defender)
    assert g.hand_log[-1]["deadwood"][DL] == 57
    assert g.scores[ND] == 25 + 57


def test_GIN_SCORE_2_knock_scores_the_difference_without_bonus():
    g = go_out_deal(LAY_KNOCKER, "KH")
    defender = g.hand_of(DF)
    act(g, "knock KH", "done")
    ddw = deadwood_after_layoffs(defender, [["2D", "3D", "4D"], ["7C", "7H", "7S"], ["9S", "10S", "JS"]])
    rec = g.hand_log[-1]
    assert rec["scorer"] == KN
    assert rec["points"] == ddw - 5
    assert g.scores[KN] == ddw - 5 and g.scores[DF] == 0
    assert g.hands_won == [0, 1]


UNDERCUT_KNOCKER = ["AS", "2S", "3S", "6H", "6C", "6D", "JD", "QD", "KD", "8C"]          # DW 8
UNDERCUT_DEFENDER = ["9C", "9H", "9S", "2H", "3H", "4H", "5H", "4S", "AC", "2C"]        # DW 7 -> 3


@pytest.mark.parametrize("overrides,bonus", [(None, 25), ({"undercut_bonus": 10}, 10)])
def test_GIN_SCORE_3_undercut_defender_scores_difference_plus_bonus(overrides, bonus):
    g = go_out_deal(UNDERCUT_KNOCKER, "KH", UNDERCUT_DEFENDER, overrides=overrides)
    act(g, "knock KH", "done")
    ddw = deadwood_after_layoffs(UNDERCUT_DEFENDER, [["AS", "2S", "3S"], ["6H", "6C", "6D"], ["JD", "QD", "KD"]])
    assert ddw == 3                                           # 4S goes onto AS-3S, AC + 2C remain
    rec = g.hand_log[-1]
    assert rec["scorer"] == DF and rec["points"] == (8 - 3) + bonus
    assert g.scores == [(8 - 3) + bonus, 0] and g.hands_won == [1, 0]


@pytest.mark.parametrize("overrides,bonus", [(None, 25), ({"gin_bonus": 20}, 20)])
def test_GIN_SCORE_4_gin_scores_bonus_plus_full_deadwood_without_layoffs(overrides, bonus):
    defender = ["4S", "7S", "9D", "2H", "4H", "6H", "8H", "3C", "5C", "JC"]     # 4S, 7S, 9D would fit
    g = quick_gin(overrides=overrides, defender10=defender)
    rec = g.hand_log[-1]
    assert rec["scorer"] == ND and rec["points"] == bonus + total(defender)
    assert g.scores == [0, bonus + total(defender)]


def test_GIN_SCORE_5_gin_cannot_be_undercut():
    defender = ["4H", "5H", "6H", "9S", "9H", "9D", "2D", "3D", "4D", "5D"]
    assert deadwood(defender) == 0
    g = quick_gin(defender10=defender)
    rec = g.hand_log[-1]
    assert rec["scorer"] == ND and rec["points"] == 25
    assert g.scores == [0, 25] and g.hands_won == [0, 1]


@pytest.mark.parametrize("overrides,bonus", [({"big_gin_enabled": True}, 31),
                                             ({"big_gin_enabled": True, "big_gin_bonus": 50}, 50)])
def test_GIN_SCORE_6_big_gin_scores_its_bonus_plus_full_deadwood(overrides, bonus):
    eleven = ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "10D", "JD", "QD", "KD"]
    defender = ["5S", "8D", "2H", "4H", "6H", "8H", "10H", "3C", "5C", "JC"]      # 5S, 8D would fit
    g = deal(eleven[:10], defender, UP, stock_top=["KD"], overrides=overrides)
    act(g, "pass", "pass", "draw stock", "big_gin")
    rec = g.hand_log[-1]
    assert rec["scorer"] == ND and rec["points"] == bonus + total(defender)


def test_GIN_SCORE_7_only_one_player_scores_and_is_credited_one_hand_won():
    for g in (quick_gin(),):
        assert g.scores[DL] == 0 and g.scores[ND] > 0
        assert g.hands_won == [0, 1]
    g = go_out_deal(UNDERCUT_KNOCKER, "KH", UNDERCUT_DEFENDER)
    act(g, "knock KH", "done")
    assert g.scores[KN] == 0 and g.scores[DF] > 0 and g.hands_won == [1, 0]
    assert g.hand_log[-1]["scorer"] == DF


@pytest.mark.parametrize("overrides,upcard,mult", [
    ({"knock_limit_from_upcard": True, "spade_upcard_doubles": True}, "KS", 2),
    ({"knock_limit_from_upcard": True, "spade_upcard_doubles": True}, "KH", 1),
    (None, "KS", 1),
])
def test_GIN_SCORE_8_hand_multiplier(overrides, upcard, mult):
    dealt = [c for c in GIN10 if c != "KD"] + ["9C"]
    g = deal(dealt, JUNK, upcard, stock_top=["KD"], overrides=overrides)
    act(g, "pass", "pass", "draw stock", "gin 9C")
    assert g.hand_log[-1]["points"] == (25 + total(JUNK)) * mult
    g = go_out_deal(LAY_KNOCKER, "KD", upcard=upcard, overrides=overrides)
    defender = g.hand_of(DF)
    act(g, "knock KD", "done")
    ddw = deadwood_after_layoffs(defender, [["2D", "3D", "4D"], ["7C", "7H", "7S"], ["9S", "10S", "JS"]])
    assert g.hand_log[-1]["points"] == (ddw - 5) * mult


# ==================================================================================================
# 7. Match end
# ==================================================================================================


def gin_worth(points: int, overrides=None, seed=0):
    """A first hand in which the non-dealer (seat 1) goes gin for exactly ``points`` (25 + deadwood)."""
    dealt = [c for c in GIN10 if c != "KD"] + ["9C"]
    defender = defender_with(points - 25, exclude=GIN10 + ["9C", UP])
    g = deal(dealt, defender, UP, stock_top=["KD"], overrides=overrides, seed=seed)
    act(g, "pass", "pass", "draw stock", "gin 9C")
    assert g.hand_log[0]["points"] == points
    return g


def test_GIN_END_1_target_defaults_to_100_and_is_a_parameter():
    g = gin_worth(99)
    assert not g.is_over and g.scores == [0, 99]
    g = gin_worth(100)
    assert g.is_over and g.winner == ND
    g = gin_worth(100, overrides={"target_score": 150})
    assert not g.is_over and g.scores == [0, 100]
    g = gin_worth(40, overrides={"target_score": 40})
    assert g.is_over and g.winner == ND
    g = gin_worth(39, overrides={"target_score": 40})
    assert not g.is_over


def test_GIN_END_2_match_ends_when_a_total_reaches_the_target():
    g = gin_worth(100)
    assert g.is_over and g.winner == ND
    assert g.current_player is None and g.legal_actions() == []
    assert g.view(0)["is_over"] and g.view(1)["winner"] == ND
    before = snapshot(g)
    for a in ("draw stock", "pass", "take discard"):
        with pytest.raises(IllegalAction):
            g.apply(a)
    assert snapshot(g) == before


@pytest.mark.parametrize("overrides,winner_total,loser_total", [
    (None, 100 + 2 * 100 + 25, 0),                                          # shutout: game bonus doubled
    ({"shutout_rule": "none"}, 100 + 100 + 25, 0),
    ({"end_bonuses_enabled": False}, 100, 0),
    ({"game_bonus": 50, "box_bonus": 20}, 100 + 2 * 50 + 20, 0),
])
def test_GIN_END_3_end_bonuses(overrides, winner_total, loser_total):
    g = gin_worth(100, overrides=overrides)
    assert g.is_over and g.winner == ND
    assert g.scores[ND] == winner_total and g.scores[DL] == loser_total


def test_GIN_END_3_end_bonuses_without_shutout():
    """Both players score: a stacked first hand (seat 1: gin for 35, target 40) and then seeded bot
    play on random deals until the match ends; expected totals from the spec's formula."""
    checked = 0
    for seed in range(40):
        g = gin_worth(35, overrides={"target_score": 40}, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(bot_action(g, rng))
        raw = [0, 0]
        won = [0, 0]
        for rec in g.hand_log:
            if rec["ending"] != "void":
                raw[rec["scorer"]] += rec["points"]
                won[rec["scorer"]] += 1
        w, l = g.winner, 1 - g.winner
        assert raw[w] >= 40 > raw[l]
        if raw[l] == 0:
            continue
        assert g.scores[w] == raw[w] + 100 + 25 * won[w]
        assert g.scores[l] == raw[l] + 25 * won[l]
        checked += 1
        if checked >= 3:
            break
    assert checked >= 1


def test_GIN_END_4_end_bonuses_do_not_count_toward_the_target():
    # 35 + a 25 box bonus would reach 40, but bonuses are only added at match end
    g = gin_worth(35, overrides={"target_score": 40})
    assert not g.is_over and g.scores == [0, 35] and g.hands_won == [0, 1]
    # the final margin is the winner's total minus the loser's total
    g = gin_worth(100)
    assert g.scores[g.winner] - g.scores[1 - g.winner] == 100 + 200 + 25


# ==================================================================================================
# 8. Edge cases
# ==================================================================================================


def filler_stock(exclude, last):
    pool = [c for c in ALL_CARDS if c not in set(exclude) | {last}]
    return pool[:28] + [last]


def test_GIN_EDGE_1_stock_floor_makes_the_hand_void():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH")
    act(g, "pass", "pass")
    draws = 0
    while g.hand_number == 1:
        v = g.view(g.current_player)
        assert v["zones"]["stock"]["count"] > 2
        assert "draw stock" in legal(g)
        before = g.hand_of(g.current_player)
        g.apply("draw stock")
        draws += 1
        left = g.view(0)["zones"]["stock"]["count"]
        assert left == 31 - draws
        if left == 2:
            assert "draw stock" not in legal(g)
            drawer = g.current_player
            assert drawer == ND                     # the 29th draw: third-last card
        g.apply(f"discard {drawn_card(g, before)}")
        if left == 2:
            assert g.hand_number == 2             # void at once: nobody draws at 2 cards
    assert draws == 29
    rec = g.hand_log[-1]
    assert rec["ending"] == "void" and rec.get("scorer") is None and not rec.get("points")
    assert g.scores == [0, 0] and g.hands_won == [0, 0]
    assert g.view(0)["dealer"] == 0 and g.hand_number == 2
    assert g.view(0)["zones"]["stock"]["count"] == 31 and g.cards_in_play == 52


def test_GIN_EDGE_1_stock_floor_parameter_zero_plays_the_stock_out():
    g = deal(GIN10[:9] + ["9C"], JUNK, "QH", overrides={"stock_floor": 0})
    assert len(play_to_void(g)) == 31
    assert g.hand_log[-1]["ending"] == "void" and g.scores == [0, 0]


def test_GIN_EDGE_2_third_last_card_drawer_may_still_go_out():
    nd = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "5C", "9C"]          # QD makes DW 5
    dl = junk(nd + ["QH", "QD"])
    stock = filler_stock(nd + dl + ["QH"], "QD")
    g = deal(nd, dl, "QH", stock_top=stock)
    act(g, "pass", "pass")
    while True:
        before = g.hand_of(g.current_player)
        g.apply("draw stock")
        c = drawn_card(g, before)
        if c == "QD":
            break
        g.apply(f"discard {c}")
    assert g.view(0)["zones"]["stock"]["count"] == 2 and g.current_player == ND
    assert "knock 9C" in legal(g)
    act(g, "knock 9C", "done")
    rec = g.hand_log[-1]
    assert rec["ending"] == "knock" and rec["declarer"] == ND and rec["deadwood"][ND] == 5


LAST_ND = ["2S", "4S", "6S", "9S", "3D", "6D", "9D", "JD", "5H", "10H"]        # no meld
LAST_DL = ["AH", "2H", "3H", "8S", "8H", "8D", "JC", "QC", "4C", "2D"]         # with KC: knock 4C, DW 2


def _to_last_discard(overrides=None):
    dl = LAST_DL
    assert deadwood(dl) == 26 and deadwood(set(dl) - {"4C"} | {"KC"}) == 2
    stock = filler_stock(LAST_ND + dl + ["KS"], "KC")
    g = deal(LAST_ND, dl, "KS", stock_top=stock, overrides=overrides)
    act(g, "pass", "pass")
    while True:
        before = g.hand_of(g.current_player)
        g.apply("draw stock")
        c = drawn_card(g, before)
        if c == "KC":
            return g
        g.apply(f"discard {c}")


def test_GIN_EDGE_3_last_discard_option_off_by_default():
    g = _to_last_discard()
    g.apply("discard KC")                # the dealer could knock with KC, but the hand is void at once
    assert g.hand_log[-1]["ending"] == "void" and g.hand_number == 2 and g.scores == [0, 0]


def test_GIN_EDGE_3_last_discard_may_be_taken_only_to_go_out():
    g = _to_last_discard({"last_discard_option": True})
    g.apply("discard KC")
    assert g.hand_number == 1 and g.current_player == DL
    assert g.view(DL)["zones"]["stock"]["count"] == 2
    assert sorted(legal(g)) == ["pass", "take discard"]
    assert_illegal(g, "draw stock")                    # no stock draw at the floor
    g.apply("take discard")
    acts = legal(g)
    assert acts and all(a.split()[0] in ("knock", "gin") for a in acts)
    assert_illegal(g, "discard 4C")
    assert "knock 4C" in acts
    act(g, "knock 4C", "done")
    rec = g.hand_log[-1]
    assert rec["ending"] == "knock" and rec["declarer"] == DL
    # a last discard that does not let the opponent go out cannot be taken: the hand is void
    g = _to_last_discard({"last_discard_option": True})
    g.apply("discard 10H")
    assert legal(g) == ["pass"]
    assert_illegal(g, "take discard")
    g.apply("pass")
    assert g.hand_log[-1]["ending"] == "void" and g.hand_number == 2


def test_GIN_EDGE_4_knock_over_the_limit_is_rejected():
    final10 = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "JC"]     # DW 10
    g = go_out_deal(final10, "KH")
    assert "knock KH" in legal(g)
    g = go_out_deal(final10, "KH", overrides={"knock_limit": 9})
    assert_illegal(g, "knock KH")
    assert "discard KH" in legal(g)
    final10 = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "9H", "2C"]
    assert deadwood(final10) == 31
    g = go_out_deal(final10, "KH", drawn="JD")
    assert min(deadwood(set(final10 + ["KH"]) - {c}) for c in final10 + ["KH"]) > 10
    assert not any(a.startswith("knock") for a in legal(g))
    assert_illegal(g, "knock KH")
    assert_illegal(g, "knock 9H")


def test_GIN_EDGE_5_equal_deadwood_is_an_undercut():
    knocker = ["2C", "3C", "4C", "9H", "9S", "9D", "JS", "QS", "KS", "7D"]        # DW 7
    defender = ["5H", "5D", "5C", "8S", "8H", "8C", "AD", "2D", "3D", "7C"]      # DW 7, 5C kept in its set
    assert deadwood(knocker) == 7
    assert deadwood_after_layoffs(defender, [["2C", "3C", "4C"], ["9H", "9S", "9D"], ["JS", "QS", "KS"]]) == 7
    g = go_out_deal(knocker, "KH", defender, upcard="QH")
    act(g, "knock KH", "done")
    rec = g.hand_log[-1]
    assert rec["deadwood"] == [7, 7]
    assert rec["scorer"] == DF and rec["points"] == 0 + 25
    assert g.scores == [25, 0]
    # with undercut_on_equal off, a tie is no undercut: the defender does not score, the knocker scores 0
    g = go_out_deal(knocker, "KH", defender, upcard="QH", overrides={"undercut_on_equal": False})
    act(g, "knock KH", "done")
    assert g.scores == [0, 0] and g.hands_won[DF] == 0


def test_GIN_EDGE_6_defender_at_zero_after_layoffs_undercuts():
    knocker = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "5C"]       # DW 5
    defender = ["8H", "8S", "8C", "2H", "3H", "4H", "KD", "7S", "4S", "5S"]       # 26 before layoffs
    assert deadwood(defender) == 26
    assert deadwood_after_layoffs(defender, [["AS", "2S", "3S"], ["7H", "7D", "7C"], ["10D", "JD", "QD"]]) == 0
    g = go_out_deal(knocker, "KH", defender, upcard="QH")
    act(g, "knock KH", "done")
    rec = g.hand_log[-1]
    assert rec["deadwood"] == [0, 5]
    assert rec["scorer"] == DF and rec["points"] == 5 + 25


def test_GIN_EDGE_7_ace_and_king_ends_of_runs_and_full_sets():
    knocker = ["AH", "2H", "3H", "JD", "QD", "KD", "5S", "5H", "5D", "4C"]        # DW 4
    defender = ["KH", "AD", "4H", "10D", "5C", "7S", "8C", "JC", "2S", "9S"]
    g = go_out_deal(knocker, "KC", defender, upcard="QH")
    g.apply("knock KC")
    low, high, fives = meld_no(g, "AH"), meld_no(g, "KD"), meld_no(g, "5S")
    lay = {a for a in legal(g) if a.startswith("layoff")}
    assert lay == {f"layoff 4H on {low}", f"layoff 10D on {high}", f"layoff 5C on {fives}"}
    assert_illegal(g, f"layoff KH on {low}")      # no K below an ace
    assert_illegal(g, f"layoff AD on {high}")     # no A above a king
    g.apply(f"layoff 5C on {fives}")
    assert not any(a.endswith(f"on {fives}") for a in legal(g))       # a 4-card set takes no more
    assert not fits("5C", ["5S", "5H", "5D", "5C"])


def test_GIN_EDGE_8_card_fitting_two_melds_counts_once():
    assert rules().arrange(["7S", "7D", "7H", "5H", "6H"]).points == 11 == deadwood(["7S", "7D", "7H", "5H", "6H"])
    # in the knocker's hand: 7H may not serve both 7S-7D-7H and 5H-6H-7H (DW would be 3, really 14+)
    final10 = ["5H", "6H", "7H", "7S", "7D", "9C", "10C", "JC", "2D", "AS"]
    assert deadwood(final10) == 14
    g = go_out_deal(final10, "KS", upcard="QS")
    assert not any(a.startswith("knock") for a in legal(g))
    assert_illegal(g, "knock KS")
    # a defender card that fits two of the knocker's melds is laid off once
    knocker = ["4H", "5H", "6H", "7S", "7D", "7C", "JS", "QS", "KS", "2C"]
    defender = ["7H", "8D", "AD", "3C", "10C", "2H", "9H", "JH", "4D", "6S"]
    g = go_out_deal(knocker, "KH", defender, upcard="QH")
    g.apply("knock KH")
    run, sevens = meld_no(g, "4H"), meld_no(g, "7S")
    assert {f"layoff 7H on {run}", f"layoff 7H on {sevens}"} <= set(legal(g))
    g.apply(f"layoff 7H on {sevens}")
    assert not any(a.startswith("layoff 7H") for a in legal(g))
    g.apply("done")
    assert g.hand_log[-1]["deadwood"][DF] == total(defender) - 7


@pytest.mark.parametrize("ace_gin_only", [True, False])
def test_GIN_EDGE_9_oklahoma_ace_upcard_gin_only(ace_gin_only):
    okl = {"knock_limit_from_upcard": True, "spade_upcard_doubles": True, "oklahoma_ace_gin_only": ace_gin_only}
    final10 = ["2S", "3S", "4S", "7H", "7D", "7C", "10D", "JD", "QD", "AC"]       # DW 1
    g = go_out_deal(final10, "KH", JUNK, upcard="AH", overrides=okl, drawn="QD")
    if ace_gin_only:
        assert not any(a.startswith("knock") for a in legal(g))
        assert_illegal(g, "knock KH")
    else:                                         # the ace's value, 1, is then the knock limit
        assert {a for a in legal(g) if a.startswith("knock")} == {"knock KH"}
    # gin still ends the hand
    final10 = ["2S", "3S", "4S", "5S", "7H", "7D", "7C", "10D", "JD", "QD"]
    g = go_out_deal(final10, "KH", JUNK, upcard="AH", overrides=okl, drawn="QD")
    assert "gin KH" in legal(g)
    g.apply("gin KH")
    assert g.hand_log[-1]["ending"] == "gin" and g.hand_log[-1]["points"] == 25 + total(JUNK)


def test_GIN_EDGE_10_void_hand_neither_won_nor_lost():
    """A void first hand, then seeded bot play on random deals until the first scored hand, which ends the
    match (target 1): the void hand earns no box bonus and does not spoil the shutout."""
    for seed in range(20):
        g = deal(GIN10[:9] + ["9C"], JUNK, "QH", overrides={"target_score": 1}, seed=seed)
        play_to_void(g)
        assert g.hand_log[0]["ending"] == "void" and g.hands_won == [0, 0] and g.scores == [0, 0]
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(bot_action(g, rng, go_out=1.0))
        scored = [r for r in g.hand_log if r["ending"] != "void"]
        assert len(scored) == 1
        w = g.winner
        assert w == scored[0]["scorer"]
        assert g.hands_won[w] == 1 and g.hands_won[1 - w] == 0
        assert g.scores[w] == scored[0]["points"] + 2 * 100 + 25 * 1
        assert g.scores[1 - w] == 0
        return


def test_GIN_END_3_a_hand_won_for_0_points_keeps_the_shutout_the_bonuses_are_judged_once():
    """GIN-END-3: "if the loser scored 0 in the whole match, shutout_rule applies"; the end bonuses are added
    once, all judged on the totals as they stand when the target is reached (GIN-END-4).

    Hand 1 (stacked, undercut_bonus 0, target 1): seat 1 knocks with 2C-3C-4C, 9H-9S-9D, JS-QS-KS and 7D:
    deadwood 7.  Seat 0 holds 5H-5D-5C, 8S-8H-8C, AD-2D-3D and 7C: deadwood 7; nothing lays off (7C fits no
    meld, 5C on 2C-4C would break its set: 5 + 5 + 7 = 17).  Equal counts are an undercut (GIN-EDGE-5):
    seat 0 scores (7 - 7) + 0 = 0 and is credited one hand won (GIN-SCORE-7).  Totals 0 / 0: no end.
    Hand 2 (a random deal, steered): seat 1 goes out and scores p > 0 >= 1: the match ends, seat 1 wins.
    Bonuses: seat 0 (loser): 0 + 25 x 1 hand won = 25.  Seat 1: the loser's points are 0, so the shutout
    doubles the game bonus: p + 2 x 100 + 25 x 1 = p + 225.  (Judging seat 1's bonus after seat 0's box
    bonus was added would see 25 > 0: no shutout, p + 125.)"""
    knocker = ["2C", "3C", "4C", "9H", "9S", "9D", "JS", "QS", "KS", "7D"]
    defender = ["5H", "5D", "5C", "8S", "8H", "8C", "AD", "2D", "3D", "7C"]
    assert deadwood(knocker) == 7
    assert deadwood_after_layoffs(defender, [["2C", "3C", "4C"], ["9H", "9S", "9D"], ["JS", "QS", "KS"]]) == 7
    dealt = [c for c in knocker if c != "7D"] + ["KH"]            # 7D is drawn from the stock
    match = Match(overrides={"undercut_bonus": 0, "target_score": 1}, seed=3, dealer=DL,
                  deck=stack(dealt, defender, "QH", stock_top=["7D"]))
    g = match.game
    act(g, "pass", "pass", "draw stock", "knock KH", "done")
    rec = g.hand_log[-1]
    assert (rec["ending"], rec["declarer"], rec["scorer"], rec["points"]) == ("knock", KN, DF, 0)
    assert g.scores == [0, 0] and g.hands_won == [1, 0] and not g.is_over
    out = steer_hand(match, lambda o: o["scorer"] == KN and o["declarer"] == KN, winner=KN, rng=random.Random(3))
    p = out["points"]
    assert p > 0 and g.hand_log[-1]["points"] == p
    assert g.is_over and g.winner == KN and g.hands_won == [1, 1]
    assert g.scores == [25, p + 2 * 100 + 25]
