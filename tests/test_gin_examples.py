"""The ten worked scoring examples of shared/spec/gin_rummy.md, played through the engine.

Each single-hand example is a stacked first hand (``gin_helpers.stack``) played as a real action
sequence: the player who goes out is the non-dealer (seat 1) unless stated; both players pass the upcard,
the go-out player draws the missing card from the stock top and knocks / goes gin with the spec's discard;
the defender (seat 0, the dealer) lays off as the example says and ends with ``done``.  Every figure
asserted is the spec's own number; the oracle in gin_helpers only double-checks the hands constructed here.

Examples 7 and 10 need match states that one stacked hand cannot give (running totals 45/30; 92/40 with
5/2 hands won; a 4-hand shutout).  Only the first hand of a match can be stacked, so those tests play the
first hand stacked and the later hands on the engine's own seeded random deals, steered by a
full-information planner (``gin_helpers.steer_hand``): it reads a deal through the public API (a replayed
copy of the match draws the whole stock), searches for a sequence of real actions of both players whose
outcome -- scored by the spec oracle -- is the one needed, plays it, and checks that the engine's hand
record agrees with the oracle; when a deal allows no such outcome both players just draw and discard to the
stock floor, which voids the hand (no score, no hand won) and redeals.  No private state is touched.
"""

from __future__ import annotations

import random

import pytest

from gin_helpers import (Match, act, assert_illegal, deadwood, deadwood_after_layoffs, deal, defender_with,
                         drawn_card, legal, meld_no, stack, steer_hand)

ND, DL = 1, 0
OKLAHOMA = {"knock_limit_from_upcard": True, "spade_upcard_doubles": True}


def go_out(final10, extra, defender10, upcard, drawn=None, overrides=None):
    """Stack the hand so that the non-dealer holds ``final10`` + ``extra`` after drawing ``drawn`` (a card
    of ``final10``; by default its last) from the stock top; both players have passed the upcard."""
    drawn = drawn or final10[-1]
    dealt = [c for c in final10 if c != drawn] + [extra]
    g = deal(dealt, defender10, upcard, stock_top=[drawn], overrides=overrides)
    act(g, "pass", "pass", "draw stock")
    assert sorted(g.hand_of(ND)) == sorted(list(final10) + [extra])
    return g


def assert_hand(g, *, ending, declarer, scorer, points, deadwood_by_seat=None):
    rec = g.hand_log[-1]
    assert rec["ending"] == ending
    assert rec["declarer"] == declarer
    assert rec["scorer"] == scorer
    assert rec["points"] == points
    if deadwood_by_seat is not None:
        assert list(rec["deadwood"]) == list(deadwood_by_seat)
    assert g.scores[scorer] == points and g.scores[1 - scorer] == 0
    assert g.hands_won[scorer] == 1 and g.hands_won[1 - scorer] == 0


# --------------------------------------------------------------------------------------------------
# 1-6: single hands under the default rules
# --------------------------------------------------------------------------------------------------


def test_example_1_source_gin_35():
    gin = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD", "KD"]
    opponent = ["8S", "8H", "8D", "4S", "4H", "4D", "5C", "2H", "2D", "AC"]
    assert deadwood(gin) == 0 and deadwood(opponent) == 5 + 2 + 2 + 1
    g = go_out(gin, "9H", opponent, upcard="KS")
    assert "gin 9H" in legal(g)
    g.apply("gin 9H")
    assert g.view(0)["phase"] != "layoff"                      # no layoff against gin
    assert_hand(g, ending="gin", declarer=ND, scorer=ND, points=35, deadwood_by_seat=[10, 0])


def test_example_2_source_knock_5_against_30_scores_25():
    """The source gives only the totals (knocker 5, defender 30 after layoffs).  Constructed hands: the
    knocker keeps A-2-3 of spades, three 7s, J-Q-K of diamonds and 5C; the defender lays 4S off onto
    A-2-3 of spades and is left with 8S 10H 6D 2C 3H AD = 30 beside a set of 9s."""
    knocker = ["AS", "2S", "3S", "7H", "7D", "7C", "JD", "QD", "KD", "5C"]
    defender = ["9S", "9H", "9C", "4S", "8S", "10H", "6D", "2C", "3H", "AD"]
    assert deadwood(knocker) == 5
    assert deadwood_after_layoffs(defender, [["AS", "2S", "3S"], ["7H", "7D", "7C"], ["JD", "QD", "KD"]]) == 30
    g = go_out(knocker, "JC", defender, upcard="QH", drawn="KD")
    g.apply("knock JC")
    g.apply(f"layoff 4S on {meld_no(g, 'AS')}")
    g.apply("done")
    assert_hand(g, ending="knock", declarer=ND, scorer=ND, points=25, deadwood_by_seat=[30, 5])


@pytest.mark.parametrize("manual", [True, False], ids=["explicit-layoffs", "engine-layoffs"])
def test_example_3_knock_with_layoffs_22(manual):
    eleven = ["2D", "3D", "4D", "7C", "7H", "7S", "9S", "10S", "JS", "5C", "KH"]
    defender = ["QH", "QD", "QC", "5D", "7D", "8S", "8H", "KC", "3S", "6H"]
    assert deadwood(defender) == 47
    g = go_out(eleven[:10], "KH", defender, upcard="2C", drawn="5C")
    assert sorted(g.hand_of(ND)) == sorted(eleven)
    assert "knock KH" in legal(g)
    g.apply("knock KH")
    if manual:
        g.apply(f"layoff 5D on {meld_no(g, '2D')}")
        g.apply(f"layoff 7D on {meld_no(g, '7C')}")
        g.apply(f"layoff 8S on {meld_no(g, '9S')}")
    g.apply("done")
    assert_hand(g, ending="knock", declarer=ND, scorer=ND, points=22, deadwood_by_seat=[27, 5])


@pytest.mark.parametrize("manual", [True, False], ids=["explicit-layoffs", "engine-layoffs"])
def test_example_4_undercut_31(manual):
    knocker = ["AS", "2S", "3S", "6H", "6C", "6D", "JD", "QD", "KD", "8C"]
    defender = ["9C", "9H", "9S", "2H", "3H", "4H", "5H", "4S", "2C", "6S"]
    assert deadwood(knocker) == 8 and deadwood(defender) == 12
    g = go_out(knocker, "10C", defender, upcard="QH", drawn="KD")
    g.apply("knock 10C")
    if manual:
        g.apply(f"layoff 4S on {meld_no(g, 'AS')}")
        g.apply(f"layoff 6S on {meld_no(g, '6H')}")
    g.apply("done")
    assert_hand(g, ending="knock", declarer=ND, scorer=DL, points=31, deadwood_by_seat=[2, 8])


@pytest.mark.parametrize("manual", [True, False], ids=["explicit-layoff", "engine-layoffs"])
def test_example_5_undercut_on_equal_counts_25(manual):
    knocker = ["5H", "6H", "7H", "8H", "9C", "9D", "9S", "9H", "AC", "3D"]
    defender = ["KS", "KD", "KC", "KH", "2S", "3S", "4S", "5S", "4H", "4C"]
    assert deadwood(knocker) == 4
    g = go_out(knocker, "JC", defender, upcard="QD", drawn="8H")
    g.apply("knock JC")
    if manual:
        g.apply(f"layoff 4H on {meld_no(g, '5H')}")
    g.apply("done")
    assert_hand(g, ending="knock", declarer=ND, scorer=DL, points=25, deadwood_by_seat=[4, 4])


def test_example_6_gin_against_fully_melded_defender_25():
    gin = ["2C", "3C", "4C", "5H", "5D", "5S", "9D", "10D", "JD", "QD"]
    defender = ["KS", "KH", "KC", "6H", "7H", "8H", "9H", "JS", "JH", "JC"]
    assert deadwood(defender) == 0
    g = go_out(gin, "AD", defender, upcard="2S")
    g.apply("gin AD")
    assert_hand(g, ending="gin", declarer=ND, scorer=ND, points=25, deadwood_by_seat=[0, 0])


# --------------------------------------------------------------------------------------------------
# 7: the stock runs out with running totals 45 and 30
# --------------------------------------------------------------------------------------------------


def dealer_gin_first_hand(points: int, seed: int):
    """A match whose stacked first hand is a gin by the dealer (seat 0) for exactly ``points``: the
    non-dealer passes the upcard (the dealer's tenth meld card), the dealer takes it and goes gin."""
    gin9 = ["AS", "2S", "3S", "7H", "7D", "7C", "10D", "JD", "QD"]
    up = "KD"
    nd = defender_with(points - 25, exclude=gin9 + ["9H", up])
    match = Match(seed=seed, dealer=0, deck=stack(nd, gin9 + ["9H"], up))
    act(match.game, "pass", "take discard", "gin 9H")
    rec = match.game.hand_log[-1]
    assert (rec["ending"], rec["scorer"], rec["points"]) == ("gin", 0, points)
    return match


def test_example_7_stock_runs_out_void_hand_keeps_totals_45_30():
    """Hand 1 (stacked): A = seat 0 goes gin for 45.  Hand 2 (random deal, dealer seat 1): steered so that
    B = seat 1 scores exactly 30.  Hand 3 (random deal, dealer seat 0, so B is the non-dealer): both pass
    the upcard and every turn draws from the stock and discards the drawn card, so B draws the
    third-last stock card and discards without knocking."""
    match = dealer_gin_first_hand(45, seed=7)
    g = match.game
    rng = random.Random(7)
    steer_hand(match, lambda o: o["scorer"] == 1 and o["points"] == 30, winner=1, rng=rng)
    assert g.scores == [45, 30] and g.hands_won == [1, 1]
    dealer, number = g.view(0)["dealer"], g.hand_number
    assert dealer == 0                                         # B (seat 1) is the non-dealer
    act(g, "pass", "pass")
    while g.hand_number == number:
        seat = g.current_player
        before = g.hand_of(seat)
        g.apply("draw stock")
        stock_left = g.view(0)["zones"]["stock"]["count"]
        if stock_left == 2:
            assert seat == 1                                   # B drew the third-last card
            assert "draw stock" not in legal(g)
        g.apply(f"discard {drawn_card(g, before)}")
    rec = g.hand_log[-1]
    assert rec["ending"] == "void"
    assert g.scores == [45, 30]                                # totals stay 45 and 30
    assert g.hands_won == [1, 1]                               # no hand won is credited
    assert g.view(0)["dealer"] == dealer                       # the same dealer redeals
    assert g.hand_number == number + 1 and not g.is_over


# --------------------------------------------------------------------------------------------------
# 8: Oklahoma gin, upcard 4S (knock limit 4, scores doubled)
# --------------------------------------------------------------------------------------------------

OK_KNOCKER = ["AH", "2H", "3H", "7C", "7D", "7S", "10D", "JD", "QD", "3C"]           # DW 3


def test_example_8_oklahoma_knock_34():
    defender = ["5S", "5H", "5D", "AS", "2C", "3D", "4C", "6H", "AD", "3S"]            # DW 20, no layoff
    assert deadwood(OK_KNOCKER) == 3 and deadwood(defender) == 20
    assert deadwood_after_layoffs(defender, [["AH", "2H", "3H"], ["7C", "7D", "7S"], ["10D", "JD", "QD"]]) == 20
    g = go_out(OK_KNOCKER, "KC", defender, upcard="4S", overrides=OKLAHOMA)
    act(g, "knock KC", "done")
    assert_hand(g, ending="knock", declarer=ND, scorer=ND, points=34, deadwood_by_seat=[20, 3])


def test_example_8_oklahoma_undercut_52():
    defender = ["5S", "5H", "5D", "8S", "8H", "8C", "9S", "10S", "JS", "2C"]          # DW 2
    assert deadwood(defender) == 2
    g = go_out(OK_KNOCKER, "KC", defender, upcard="4S", overrides=OKLAHOMA)
    act(g, "knock KC", "done")
    assert_hand(g, ending="knock", declarer=ND, scorer=DL, points=52, deadwood_by_seat=[2, 3])


def test_example_8_oklahoma_gin_74():
    gin = ["AH", "2H", "3H", "7C", "7D", "7S", "10D", "JD", "QD", "KD"]
    defender = ["5S", "5H", "5D", "8S", "8H", "8C", "AS", "2C", "3D", "6C"]            # DW 12
    assert deadwood(defender) == 12
    g = go_out(gin, "KC", defender, upcard="4S", overrides=OKLAHOMA)
    g.apply("gin KC")
    assert_hand(g, ending="gin", declarer=ND, scorer=ND, points=74, deadwood_by_seat=[12, 0])


def test_example_8_oklahoma_knock_with_5_is_illegal():
    knocker = ["AH", "2H", "3H", "7C", "7D", "7S", "10D", "JD", "QD", "5C"]              # DW 5
    defender = ["5S", "5H", "5D", "AS", "2C", "3D", "4C", "6H", "AD", "3S"]
    g = go_out(knocker, "KC", defender, upcard="4S", overrides=OKLAHOMA)
    assert not any(a.startswith("knock") for a in legal(g))
    assert_illegal(g, "knock KC")
    # the same knock is legal under the default limit of 10
    g = go_out(knocker, "KC", defender, upcard="4S")
    assert "knock KC" in legal(g)


# --------------------------------------------------------------------------------------------------
# 9: big gin
# --------------------------------------------------------------------------------------------------


def test_example_9_big_gin_45():
    eleven = ["3H", "4H", "5H", "6H", "8C", "8D", "8S", "QS", "QH", "QD", "QC"]
    defender = ["AS", "2S", "3S", "9H", "10H", "JH", "AD", "2C", "4C", "7H"]           # DW 14; 7H would fit
    assert deadwood(eleven) == 0 and deadwood(defender) == 14
    g = deal(eleven[:10], defender, "KS", stock_top=["QC"], overrides={"big_gin_enabled": True})
    act(g, "pass", "pass", "draw stock")
    assert "big_gin" in legal(g)
    g.apply("big_gin")
    assert g.view(0)["phase"] != "layoff"
    assert_hand(g, ending="big_gin", declarer=ND, scorer=ND, points=45, deadwood_by_seat=[14, 0])


# --------------------------------------------------------------------------------------------------
# 10: match end and bonuses
# --------------------------------------------------------------------------------------------------


def budget_want(budget: dict, low: int = 5, high: int = 45):
    """An outcome is accepted when its scorer still has wins to play and the points leave a remainder
    that the remaining wins can make (exactly, for the last one)."""
    def want(o):
        s, p = o["scorer"], o["points"]
        if s not in budget:
            return False
        wins, left = budget[s]
        if wins <= 0:
            return False
        if wins == 1:
            return p == left
        rest = left - p
        return p >= low and low * (wins - 1) <= rest <= high * (wins - 1)
    return want


def play_budget(match, budget: dict, rng) -> None:
    """Steer hands until every seat's budget of (wins, points) is used up."""
    while any(w > 0 for w, _ in budget.values()):
        winner = max(budget, key=lambda s: budget[s][0])
        out = steer_hand(match, budget_want(budget), winner=winner, rng=rng)
        w, left = budget[out["scorer"]]
        budget[out["scorer"]] = (w - 1, left - out["points"])
        assert not match.game.is_over


def test_example_10_match_end_with_bonuses_332_90():
    """A = seat 0, B = seat 1.  Hand 1 is stacked (A goes gin for 35); later hands are random deals steered
    (see the module docstring) until A has 92 from 4 hands won and B 40 from 2.  The last hand is steered
    to exactly the spec's: A knocks with deadwood 4 against B's 19 and scores 15."""
    match = dealer_gin_first_hand(35, seed=10)
    g = match.game
    rng = random.Random(10)
    play_budget(match, {0: (3, 92 - 35), 1: (2, 40)}, rng)
    assert g.scores == [92, 40] and g.hands_won == [4, 2] and not g.is_over
    steer_hand(match, lambda o: (o["ending"], o["declarer"], o["scorer"], o["deadwood"], o["points"])
               == ("knock", 0, 0, [4, 19], 15), winner=0, rng=rng, w_target=4, l_target=19)
    rec = g.hand_log[-1]
    assert (rec["ending"], rec["declarer"], rec["scorer"], rec["points"]) == ("knock", 0, 0, 15)
    assert list(rec["deadwood"]) == [4, 19]
    assert g.is_over and g.winner == 0
    assert g.hands_won == [5, 2]
    assert g.scores == [332, 90]                     # 107 + 100 + 5 x 25 ; 40 + 2 x 25
    assert g.scores[0] - g.scores[1] == 242


def test_example_10_shutout_404():
    """A = seat 0 wins four hands for 104 in all (the stacked first hand for 35, then steered random
    hands; the last one takes A from below 100 to 104) and B never scores."""
    match = dealer_gin_first_hand(35, seed=404)
    g = match.game
    rng = random.Random(404)
    budget = {0: (3, 104 - 35)}
    while budget[0][0] > 0:
        w, left = budget[0]
        out = steer_hand(match, budget_want(budget, low=5, high=60), winner=0, rng=rng)
        budget[0] = (w - 1, left - out["points"])
        if budget[0][0] > 0:
            assert not g.is_over
    assert g.hands_won == [4, 0]
    assert sum(r["points"] for r in g.hand_log if r["ending"] != "void") == 104
    assert g.is_over and g.winner == 0
    assert g.scores == [404, 0]                      # 104 + 200 + 4 x 25 ; 0
