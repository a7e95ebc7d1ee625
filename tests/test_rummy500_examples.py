"""The 12 worked examples of shared/spec/rummy_500.md ("Worked scoring examples"), played through the engine.

Every figure is reached by real play of a stacked hand: the player is dealt the cards, draws, melds and lays
off through ``apply``, and the hand ends through the engine, by another player going out or by the stock
running out (``end_by_stock``: every player draws and discards until the stock is empty, then the player on
turn passes; hands do not change while the stock is drained).  ``finish`` checks every seat's score change
against the spec scorer of the helpers, and each test asserts the spec's own figures.

Two things cannot come from one stacked hand, and are done as follows:

* Running totals before the hand ("A 310, B 455, C 20"): only the first hand of a match can be stacked, so
  those totals are written into ``game.scores`` before the first action (``set_totals``).  The engine then
  adds the hand scores to them.
* The tie-break hand of example 9 is the second hand of the match, which the engine deals at random.  It is
  played by a full-information planner (``steer_stock_out``).  The planner reads the deal through a replayed
  copy of the match, picks the cards each player keeps and melds so that A scores -10 and B +8, and plays
  that line through the public API.  The stock then runs out.

Seats: A, B, C, D = 0, 1, 2, 3.  Unless a test says otherwise the dealer is the last seat, so A plays first.
"""

from __future__ import annotations

import pytest

from rulesdsl import IllegalAction

from rummy500_helpers import (A, B, C, D, Match, act, deal, drain, end_by_stock, finish, go, in_claim, lay, legal,
                              meld, meld_no, melds, pile, pile_game, set_totals, steer_stock_out, total)


def test_example_1_plain_hand_plus_40():
    """A is dealt 7S 8S KH KD KC 4D 2C.  The pile is 5H 9S QC, and A takes its top two cards (9S must be
    melded at once): A melds 7S 8S 9S and KH KD KC, discards 2C, and holds 4D QC.  The hand ends when the
    stock runs out (nobody else melds)."""
    g = pile_game({A: ["7S", "8S", "KH", "KD", "KC", "4D", "2C"]}, ["5H", "9S", "QC"], A)
    act(g, "take discard 2")
    meld(g, "7S", "8S", "9S")
    meld(g, "KH", "KD", "KC")
    act(g, "discard 2C")
    got, held = end_by_stock(g)
    assert sorted(held[A]) == ["4D", "QC"]
    assert total(held[A]) == 14
    assert got[A] == 54 - 14 == 40


def test_example_2_ace_both_ways_plus_26():
    """A is dealt AH 2H 3H QS KS AS AD, draws 9C, melds AH 2H 3H (1+2+3) and QS KS AS (10+10+15), discards 9C
    and holds AD; the stock runs out."""
    g = deal({A: ["AH", "2H", "3H", "QS", "KS", "AS", "AD"]}, "QC", ["9C"])
    act(g, "draw stock")
    meld(g, "AH", "2H", "3H")
    meld(g, "QS", "KS", "AS")
    act(g, "discard 9C")
    got, held = end_by_stock(g)
    assert held[A] == ["AD"]
    assert got[A] == (1 + 2 + 3) + (10 + 10 + 15) - 15 == 26


@pytest.mark.parametrize("before,after", [(120, 86), (20, -14)])
def test_example_3_negative_hand_minus_34(before, after):
    """A is dealt 4C 5C 6C AS KH Jk 9D, draws 9S, melds 4C 5C 6C, discards 9S and holds AS KH Jk 9D; the stock
    runs out.  A's running total before the hand is put in place with ``set_totals``."""
    g = deal({A: ["4C", "5C", "6C", "AS", "KH", "Jk", "9D"]}, "QC", ["9S"])
    set_totals(g, [before, 0, 0])
    act(g, "draw stock")
    meld(g, "4C", "5C", "6C")
    act(g, "discard 9S")
    got, held = end_by_stock(g)
    assert sorted(held[A]) == sorted(["AS", "KH", "Jk", "9D"])
    assert total(held[A]) == 15 + 10 + 15 + 9 == 49
    assert got[A] == 15 - 49 == -34
    assert g.scores[A] == after


def jokers_hand(overrides=None):
    g = deal({A: ["9H", "JH", "Jk", "5C", "5D", "Jk", "2C"], B: ["KS", "QD", "10S", "8D", "6S", "4D", "3H"]},
             "QC", ["7S"], overrides=overrides)
    act(g, "draw stock", "meld 9H Jk=10H JH")
    sets = [a for a in legal(g) if a.startswith("meld") and {"5C", "5D"} <= set(a.split()) and "Jk=5" in a]
    act(g, sets[0], "discard 7S")
    assert sorted(g.hand_of(A)) == ["2C"]
    return g


def test_example_4_jokers_score_15_wherever_they_lie():
    """A is dealt 9H JH 5C 5D 2C and both jokers, draws 7S, melds 9H Jk(=10H) JH and 5C 5D Jk(=5), discards 7S
    and holds 2C; the stock runs out."""
    g = jokers_hand()
    got, held = end_by_stock(g)
    assert got[A] == (9 + 15 + 10) + (5 + 5 + 15) - 2 == 34 + 25 - 2


def test_example_4_joker_value_represented_card():
    g = jokers_hand({"joker_value": "represented"})
    got, held = end_by_stock(g, joker_represented=True)
    assert got[A] == (9 + 10 + 10) + (5 + 5 + 5) - 2 == 29 + 15 - 2


def test_example_4_a_joker_left_in_hand_costs_15():
    """B holds a joker (and six meld-free cards) when the stock runs out."""
    g = deal({B: ["Jk", "KS", "QD", "10S", "8D", "6S", "4D"]}, "QC")
    got, held = end_by_stock(g)
    assert got[B] == -(15 + 10 + 10 + 10 + 8 + 6 + 4)


def test_example_5_layoffs_credit_the_player_who_lays_off():
    """Four players.  A melds 2S 3S 4S; B lays off 5S, C lays off AS at the low end, D lays off 6S (each draws
    and discards a meld-free card); the stock runs out."""
    hands = {A: ["2S", "3S", "4S", "KD", "JD", "9D", "7D"], B: ["5S", "QH", "10H", "8H", "6H", "4H", "2H"],
             C: ["AS", "KS", "JS", "9S", "QC", "10C", "8C"], D: ["6S", "6C", "4C", "2C", "5D", "3D", "AD"]}
    g = deal(hands, "KC", ["QD", "10D", "8D", "JC"], players=4)
    act(g, "draw stock")
    meld(g, "2S", "3S", "4S")
    go(g, "discard QD", "draw stock")
    lay(g, "5S", "2S")
    go(g, "discard 10D", "draw stock")
    lay(g, "AS", "2S")
    go(g, "discard 8D", "draw stock")
    lay(g, "6S", "2S")
    go(g, "discard JC")
    m = melds(g)[0]
    assert m["owner"] == A
    assert dict(zip(m["cards"], m["placed_by"])) == {"AS": C, "2S": A, "3S": A, "4S": A, "5S": B, "6S": D}
    got, held = end_by_stock(g)
    assert got[A] == 9 - total(held[A])               # A's total from this meld stays 9
    assert got[B] == 5 - total(held[B])
    assert got[C] == 1 - total(held[C])               # the ace is in a run with 2 and 3
    assert got[D] == 6 - total(held[D])


def test_example_6_full_three_player_hand():
    """Totals before the hand A 310, B 455, C 20 (``set_totals``).  C must end holding exactly five cards having
    melded nothing, so this hand is dealt 5 cards each (``hand_size_more_players: 5``; with 7-card hands C
    would hold 7).  A and B get their extra cards from the discard pile:

    A: 10D JD QD 6C 6H; B: 2S 3S 4S 8H 8D; C: KS QH 9C 2D Jk; upcard KH; stock 8C 7D AC 6S 5S.
    A draws 8C, melds 10D JD QD, discards 8C.  B draws 7D, melds 2S 3S 4S, discards 7D.  C draws and discards
    AC.  A draws and discards 6S.  B takes the top four pile cards (8C 7D AC 6S), melds 8H 8D 8C, discards 6S
    and keeps 7D AC.  C draws and discards 5S (a Rummy call is possible; everyone passes).  A takes 6S 5S,
    melds 6C 6H 6S, lays 5S off on B's 2S 3S 4S and has gone out."""
    hands = {A: ["10D", "JD", "QD", "6C", "6H"], B: ["2S", "3S", "4S", "8H", "8D"], C: ["KS", "QH", "9C", "2D", "Jk"]}
    m = Match(hands, "KH", ["8C", "7D", "AC", "6S", "5S"], overrides={"hand_size_more_players": 5},
              totals=[310, 455, 20])
    g = m.game
    act(g, "draw stock")
    meld(g, "10D", "JD", "QD")
    act(g, "discard 8C", "draw stock")
    meld(g, "2S", "3S", "4S")
    act(g, "discard 7D", "draw stock", "discard AC", "draw stock", "discard 6S")
    act(g, "take discard 4")
    meld(g, "8H", "8D", "8C")
    act(g, "discard 6S", "draw stock", "discard 5S")
    assert in_claim(g)
    act(g, "pass", "pass")
    assert sorted(g.hand_of(B)) == ["7D", "AC"] and sorted(g.hand_of(C)) == sorted(["KS", "QH", "9C", "2D", "Jk"])
    act(g, "take discard 2")
    meld(g, "6C", "6H", "6S")
    assert g.hand_of(A) == ["5S"]
    got = finish(g, f"layoff 5S on {meld_no(g, '2S')}")
    assert got == [53, 11, -46]
    assert g.scores == [363, 466, -26]
    assert not g.is_over and g.hand_number == 2               # nobody has reached 500: another hand


EX7_PILE = ["3C", "9H", "KD", "5S", "JC"]
EX7_HAND = ["10H", "JH", "2S", "7S", "9S", "KS", "QD"]


@pytest.mark.parametrize("discard", ["KD", "5S", "JC"])
def test_example_7_deep_draw_melds_9H_10H_JH_for_29(discard):
    """The pile 3C 9H KD 5S JC is built by play; A holds 10H JH (and five meld-free cards).  A chooses 9H, so
    takes 9H KD 5S JC, must meld 9H 10H JH now, and may discard KD, 5S or JC; the stock then runs out."""
    g = pile_game({A: EX7_HAND}, EX7_PILE, A)
    act(g, "take discard 4")
    assert pile(g) == ["3C"]
    assert all("9H" in a.split() for a in legal(g))
    meld(g, "9H", "10H", "JH")
    assert {"discard KD", "discard 5S", "discard JC"} <= set(legal(g))
    act(g, f"discard {discard}")
    got, held = end_by_stock(g)
    assert got[A] == 9 + 10 + 10 - total(held[A]) == 29 - total(held[A])


def test_example_7_single_top_card_may_not_be_discarded():
    g = pile_game({A: EX7_HAND}, EX7_PILE, A)
    act(g, "take discard")
    assert "discard JC" not in legal(g)
    with pytest.raises(IllegalAction):
        g.apply("discard JC")


def test_example_8_stock_runs_out_two_players():
    """Two players with 10-card hands (``hand_size_two_players: 10``, the spec's listed alternative; with 13
    cards P2 could not meld only 20 points' worth and hold three cards).  P1 (seat 0) melds 4C 5C 6C (+7C, 8C
    laid off) and 5S 5H 5D = 45, discarding the card drawn, and holds 3C 9D.  P2 melds 2S 2H 2D (+2C) and 4S
    4H 4D = 20 and holds KS 6D AH.  Both then draw and discard until the stock is empty; P2 is on turn and
    declines the discard pile, so the hand ends."""
    hands = {0: ["4C", "5C", "6C", "7C", "8C", "5S", "5H", "5D", "3C", "9D"],
             1: ["2S", "2H", "2D", "2C", "4S", "4H", "4D", "KS", "6D", "AH"]}
    g = deal(hands, "QC", ["JS", "JH"], players=2, overrides={"hand_size_two_players": 10})
    act(g, "draw stock")
    meld(g, "4C", "5C", "6C")
    lay(g, "7C", "4C")
    lay(g, "8C", "4C")
    meld(g, "5S", "5H", "5D")
    act(g, "discard JS", "draw stock")
    meld(g, "2S", "2H", "2D")
    lay(g, "2C", "2S")
    meld(g, "4S", "4H", "4D")
    act(g, "discard JH")
    drain(g)
    assert g.current_player == 1 and "pass" in legal(g)
    held = [g.hand_of(0), g.hand_of(1)]
    got = finish(g, "pass")
    assert sorted(held[0]) == ["3C", "9D"] and sorted(held[1]) == sorted(["KS", "6D", "AH"])
    assert got == [45 - 12, 20 - 31] == [33, -11]
    assert g.hand_log[-1]["ending"] == "stock"


EX9 = {B: ["8H", "9H", "10H", "AS", "2S", "3S", "8D"], C: ["JH", "QH", "KH", "4S", "5S", "2H", "9D"],
       A: ["6S", "7S", "8S", "9S", "5H", "5D", "5C"]}


def example_9_hand(totals, seed=0):
    """A deals, so B plays first.  B draws KC, melds 8H 9H 10H and AS 2S 3S, discards KC and holds 8D (+25).
    C draws QD, melds JH QH KH, discards QD and holds 4S 5S 2H 9D (+10).  A draws JC, melds 6S 7S 8S, lays off
    9S, melds 5H 5D 5C and goes out discarding JC (+45)."""
    m = Match(EX9, "10C", ["KC", "QD", "JC"], players=3, dealer=A, totals=totals, seed=seed)
    g = m.game
    act(g, "draw stock")
    meld(g, "8H", "9H", "10H")
    meld(g, "AS", "2S", "3S")
    act(g, "discard KC", "draw stock")
    meld(g, "JH", "QH", "KH")
    act(g, "discard QD", "draw stock")
    meld(g, "6S", "7S", "8S")
    lay(g, "9S", "6S")
    meld(g, "5H", "5D", "5C")
    got = finish(g, "discard JC")
    assert got == [45, 25, 10]
    return m


def test_example_9_match_end_highest_total_wins():
    """Totals before the hand A 470, B 480, C 300 (``set_totals``)."""
    m = example_9_hand([470, 480, 300])
    g = m.game
    assert g.scores == [515, 505, 310]
    assert g.is_over and g.winner == A                         # although B led before the hand


def test_example_9_tie_case_another_hand_then_B_wins():
    """Totals before the hand A 460, B 480, C 300, so the hand above gives A 505, B 505, a tie: another hand is
    dealt (at random).  The planner plays that hand so that A scores -10 and B +8, ending it by the stock;
    a seed whose deal allows such a line is searched for (the plan is checked against the spec scorer)."""
    for seed in range(40):
        m = example_9_hand([460, 480, 300], seed=seed)
        g = m.game
        assert g.scores[:2] == [505, 505]
        assert not g.is_over and g.winner is None and g.hand_number == 2
        got = steer_stock_out(m, {A: -10, B: 8})
        if got is None:
            continue
        assert got[:2] == [-10, 8]
        assert g.scores[:2] == [495, 513]
        assert g.is_over and g.winner == B
        return
    pytest.fail("no deal of the tie-break hand allowed the planned line")


def test_example_10_five_ten_fifteen_variant_plus_25():
    """Variant file rummy_500_five_ten_fifteen.yaml.  A is dealt 2D 3D KS KH KC 9C 7S; the pile is 10C 4D AH
    and A takes its top two cards (4D must be melded at once): A melds 2D 3D 4D and KS KH KC, discards 7S and
    holds 9C AH; the stock runs out."""
    g = pile_game({A: ["2D", "3D", "KS", "KH", "KC", "9C", "7S"]}, ["10C", "4D", "AH"], A,
                  variant="five_ten_fifteen")
    act(g, "take discard 2")
    meld(g, "2D", "3D", "4D")
    meld(g, "KS", "KH", "KC")
    act(g, "discard 7S")
    got, held = end_by_stock(g, five_ten=True)
    assert sorted(held[A]) == ["9C", "AH"]
    assert got[A] == (5 + 5 + 5) + 30 - (5 + 15) == 25


@pytest.mark.parametrize("low_ace,expected", [(None, 1 + 5 + 5), (15, 15 + 5 + 5)])
def test_example_10_low_ace_in_the_five_ten_fifteen_variant(low_ace, expected):
    """B melds AC 2C 3C (drawing and discarding 9D); the stock runs out.  With ``low_ace_value: 15`` (the
    exception dropped) the same meld scores 25."""
    ov = {} if low_ace is None else {"low_ace_value": low_ace}
    m = Match({B: ["AC", "2C", "3C", "KS", "QD", "10S", "8D"]}, "QC", ["JH", "9D"], variant="five_ten_fifteen",
          overrides=ov)
    g = m.game
    act(g, "draw stock", "discard JH", "draw stock")
    meld(g, "AC", "2C", "3C")
    act(g, "discard 9D")
    got, held = end_by_stock(g, five_ten=True, low_ace=low_ace or 1)
    assert got[B] == expected - total(held[B], five_ten=True)


def test_example_11_floating_variant_plus_38():
    """Variant file rummy_500_floating.yaml, four players, 3-card hands (``hand_size_more_players: 3``, so that
    P can empty the hand with exactly these cards); A deals, so B plays first and P = A plays fourth.
    B holds 9C 10C JC and C holds 6S 7S 8S: each melds them and lays off the card drawn (QC, 5S), and floats.
    D draws and discards.  P holds 7C 7D 7H, draws 8C, melds 7C 7D 7H, lays 8C off on B's clubs and floats.
    B and C float on (laying off KC, 4S).  P draws 9S and lays it off on C's spades (+9), floating again.
    B and C float on (AC, 3S).  P draws KD and discards it: the hand ends."""
    hands = {A: ["7C", "7D", "7H"], B: ["9C", "10C", "JC"], C: ["6S", "7S", "8S"], D: ["2D", "4D", "QH"]}
    stock = ["QC", "5S", "2H", "8C", "KC", "4S", "6D", "9S", "AC", "3S", "10H", "KD"]
    m = Match(hands, "KS", stock, players=4, dealer=A, variant="floating", overrides={"hand_size_more_players": 3})
    g = m.game
    act(g, "draw stock")
    meld(g, "9C", "10C", "JC")
    lay(g, "QC", "9C")
    act(g, "draw stock")
    meld(g, "6S", "7S", "8S")
    lay(g, "5S", "6S")
    act(g, "draw stock", "discard 2H")
    assert g.current_player == A and g.hand_of(B) == [] and g.hand_of(C) == []
    act(g, "draw stock")
    meld(g, "7C", "7D", "7H")
    lay(g, "8C", "9C")
    assert g.hand_of(A) == [] and g.hand_number == 1          # P floats
    act(g, "draw stock")
    lay(g, "KC", "9C")
    act(g, "draw stock")
    lay(g, "4S", "6S")
    act(g, "draw stock", "discard 6D")
    act(g, "draw stock")                                      # P: 9S
    lay(g, "9S", "6S")
    assert g.hand_of(A) == [] and g.hand_number == 1          # floats again
    act(g, "draw stock")
    lay(g, "AC", "9C")
    act(g, "draw stock")
    lay(g, "3S", "6S")
    act(g, "draw stock", "discard 10H")
    act(g, "draw stock")                                      # P: KD
    got = finish(g, "discard KD")
    assert got[A] == 21 + 8 + 9 == 38


def test_example_11_without_floating_plus_29():
    """Base rules, four players with 4-card hands (``hand_size_more_players: 4``); A deals.  B melds 9C 10C JC
    and C melds 6S 7S 8S (each keeps one card); D draws and discards.  P = A holds 7C 7D 7H QH, draws 8C, melds
    the sevens, lays 8C off on B's clubs and goes out discarding QH, on that first turn."""
    hands = {A: ["7C", "7D", "7H", "QH"], B: ["9C", "10C", "JC", "2D"], C: ["6S", "7S", "8S", "4D"],
             D: ["KD", "JD", "9D", "5H"]}
    g = deal(hands, "KS", ["2H", "AD", "6D", "8C"], players=4, dealer=A, overrides={"hand_size_more_players": 4})
    act(g, "draw stock")
    meld(g, "9C", "10C", "JC")
    act(g, "discard 2H", "draw stock")
    meld(g, "6S", "7S", "8S")
    act(g, "discard AD", "draw stock", "discard 6D", "draw stock")
    meld(g, "7C", "7D", "7H")
    lay(g, "8C", "9C")
    got = finish(g, "discard QH")
    assert got[A] == 21 + 8 == 29


CALL_HANDS = {A: ["5H", "6H", "7H", "KS", "JS", "9S", "3S"], B: ["8H", "QC", "10C", "8C", "6C", "4C", "2C"],
              C: ["KH", "QS", "10S", "8S", "6S", "4S", "2S"], D: ["KD", "JD", "9D", "7D", "5D", "3D", "AD"]}


def example_12_call():
    """A has 5H 6H 7H on the table (melded after drawing and discarding JC); B draws 9C and discards 8H."""
    g = deal(CALL_HANDS, "2D", ["JC", "9C"], players=4)
    act(g, "draw stock")
    meld(g, "5H", "6H", "7H")
    act(g, "discard JC", "draw stock", "discard 8H")
    assert in_claim(g)
    return g


def test_example_12_rummy_call_D_calls_before_C_draws():
    """C passes and D calls: D takes 8H, lays it off (+8 for D) and discards KD; play continues with A, and C's
    turn is skipped.  The stock then runs out."""
    g = example_12_call()
    assert g.current_player == C
    act(g, "pass", "claim discard 1")
    assert g.current_player == D
    act(g, "layoff 8H on 1", "discard KD")
    assert g.current_player == A and g.view(A)["step"] == "draw"
    got, held = end_by_stock(g)
    assert got[D] == 8 - total(held[D])
    assert got[A] == 18 - total(held[A])


def test_example_12_both_call_C_nearest_after_B_gets_the_card():
    g = example_12_call()
    assert g.view(A)["claim"]["waiting"] == [C, D, A]
    act(g, "claim discard 1")                                  # C calls first; D's call never comes
    assert g.current_player == C
    act(g, "layoff 8H on 1", "discard KH")
    assert g.current_player == D
    assert melds(g)[0]["placed_by"][-1] == C


def test_example_12_second_trigger_takes_the_pile_from_the_deepest_relevant_card():
    """The pile is 4D 9C 5D (built by play); B discards 6D.  C calls, takes 4D 9C 5D 6D, must meld 4D 5D 6D
    (+15) and keeps 9C, then discards QS; the stock runs out."""
    hands = {B: ["6D", "QC", "10C", "8C", "KS", "JS", "2S"], C: ["KH", "QS", "10S", "8S", "6S", "4S", "AS"]}
    g = pile_game(hands, ["4D", "9C", "5D"], B, players=4, stock_after=["7C"])
    act(g, "draw stock", "discard 6D")
    assert in_claim(g) and g.current_player == C
    act(g, "claim discard 4")
    assert pile(g) == []
    assert all({"4D", "6D"} <= set(a.split()) for a in legal(g))
    meld(g, "4D", "5D", "6D")
    assert "9C" in g.hand_of(C)
    act(g, "discard QS")
    assert g.current_player == D
    got, held = end_by_stock(g)
    assert "9C" in held[C]
    assert got[C] == 15 - total(held[C])
