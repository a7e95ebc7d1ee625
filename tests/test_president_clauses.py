"""One test (at least) per clause of shared/spec/president.md, played through the public API.

Conventions (see president_helpers): seats A, B, C, ... = 0, 1, 2, ...; unless stated the first dealer is
the last seat, so A receives the first card, leads the first trick, and the turn order is A, B, C, ...
Hands are stacked with ``president_helpers.stack`` (PRES-DEAL-5 deal order); hands not given are filled
with the remaining cards.  Positions later in a deal are reached by real actions; later deals are played
on the engine's own seeded shuffles, steered to a wanted finishing order by ``steer_deal`` (legal actions
only).  Expected legal lists come from the spec oracle ``options``/``beats``, never from the engine.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl import IllegalAction
from rulesdsl.cli.main import cli

from president_helpers import (A, ALL_CARDS, B, C, D, E, F, G, JOKER, RANKS, TWO_LEFT, act, assert_illegal,
                               b_holds_only_2s, deal_sizes, dealing_order, do_exchange, dump, group, legal,
                               legal_kinds, new_game, options, played_count, plays, rank, role_names,
                               role_points, rules, spec_points, stack, steer_deal, strength, to_deal2, trick,
                               two_left)

P = rules().params                     # the default parameters


def score_deltas(g, fn) -> list:
    before = list(g.scores)
    fn()
    return [b - a for a, b in zip(before, g.scores)]


# ==================================================================================================
# 1. Setup / Deal
# ==================================================================================================


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_PRES_DEAL_1_one_standard_52_card_deck_without_jokers(n):
    r = rules()
    g = r.new_game(seed=3, players=n)
    assert g.cards_in_play == 52
    cards = [c for s in range(n) for c in g.hand_of(s)]
    assert sorted(cards) == sorted(ALL_CARDS)
    assert JOKER not in cards
    v = g.view(0)
    assert v["players"] == n and sum(h["count"] for h in v["zones"]["hand"]) == 52
    deck = stack({}, n=n)
    with pytest.raises(ValueError):                       # a joker is not a card of the base deck
        r.new_game(seed=1, dealer=0, players=n, deck=deck[:-1] + [JOKER])
    with pytest.raises(ValueError):                       # nor is a 53rd card
        r.new_game(seed=1, dealer=0, players=n, deck=deck + ["AS"])


@pytest.mark.parametrize("led", RANKS)
def test_PRES_DEAL_2_rank_order_two_high_ace_second_suits_irrelevant(led):
    """B holds one card of every rank (spades); A leads a single of ``led`` (hearts).  B may play exactly
    the ranks above it in 2 A K Q J 10 9 8 7 6 5 4 3 -- never the same rank in another suit."""
    b = [r + "S" for r in RANKS]
    a = [r + "H" for r in RANKS]
    g = new_game({A: a, B: b}, n=4)
    g.apply(f"play {led}H")
    above = {r for r in RANKS if RANKS.index(r) > RANKS.index(led)}
    assert plays(g) == {(r, 1) for r in above}
    if led == "A":
        assert plays(g) == {("2", 1)}                    # the ace is second-highest
    if led == "K":
        assert plays(g) == {("A", 1), ("2", 1)}
    assert_illegal(g, f"play {led}S")                    # suits never matter


def test_PRES_DEAL_3_first_dealer_random_first_deal_without_roles_or_exchange():
    r = rules()
    dealers = {r.new_game(seed=s, players=4).view(0)["dealer"] for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    for s in range(5):
        g = r.new_game(seed=s, players=5)
        v = g.view(g.current_player)
        assert v["phase"] == "climb" and "exchange" not in v
        assert not v.get("roles")
        assert g.current_player == (v["dealer"] + 1) % 5
        assert all(a.startswith("play ") for a in legal(g))


def test_PRES_DEAL_4_president_deals_later_deals():
    g = to_deal2(4, want=[C, A, D, B])
    assert g.view(0)["dealer"] == C
    g = to_deal2(5, want=[E, C, A, D, B])
    assert g.view(0)["dealer"] == E
    # the source's other reading: the Scum deals
    g = to_deal2(4, want=[C, A, D, B], overrides={"dealer": "scum"})
    assert g.view(0)["dealer"] == B
    # and the President deals again in deal 3
    g = to_deal2(4, want=[C, A, D, B])
    steer_deal(g, [D, B, A, C])
    assert g.view(0)["dealer"] == D


EXPECTED_SIZES = {4: [13, 13, 13, 13], 5: [11, 11, 10, 10, 10], 6: [9, 9, 9, 9, 8, 8], 7: [8, 8, 8, 7, 7, 7, 7]}


@pytest.mark.parametrize("n", [4, 5, 6, 7])
@pytest.mark.parametrize("dealer_pick", ["first", "last", "middle"])
def test_PRES_DEAL_5_all_cards_one_at_a_time_from_dealers_left_first_players_get_more(n, dealer_pick):
    dealer = {"first": 0, "last": n - 1, "middle": n // 2}[dealer_pick]
    assert deal_sizes(n) == EXPECTED_SIZES[n]
    deck = list(ALL_CARDS)                                # a recognisable order (block dealing differs)
    g = rules().new_game(seed=1, dealer=dealer, players=n, deck=deck)
    seats = dealing_order(n, dealer)
    for k, s in enumerate(seats):
        assert sorted(g.hand_of(s)) == sorted(deck[k::n]), (n, dealer, s)
        assert len(g.hand_of(s)) == EXPECTED_SIZES[n][k]
    assert g.cards_in_play == 52 and g.view(0)["zones"]["stock"]["count"] == 0


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_PRES_DEAL_5_later_deals_dealt_from_the_vice_president(n):
    want = list(reversed(range(n)))                       # last seat President, ..., A last
    g = to_deal2(n, want=want, seed=11)
    v = g.view(0)
    assert v["phase"] == "exchange" and v["dealer"] == want[0]
    counts = [h["count"] for h in v["zones"]["hand"]]
    # dealing order: VP, 3rd, ..., last place, President
    in_deal_order = want[1:] + want[:1]
    assert [counts[s] for s in in_deal_order] == EXPECTED_SIZES[n]


def test_PRES_DEAL_6_first_deal_turn_order_clockwise_from_dealers_left():
    g = new_game({}, n=5, dealer=B)
    assert g.view(0)["turn_order"] == [0, 1, 2, 3, 4]
    assert g.current_player == C
    lead = legal(g)[0]
    g.apply(lead)
    seen = []
    for _ in range(3):
        seen.append(g.current_player)
        g.apply("pass")
    seen.append(g.current_player)
    assert seen == [D, E, A, B]
    g.apply("pass")
    assert g.current_player == C and not trick(g)["last_play"]


@pytest.mark.parametrize("seating, expected", [("rank_order", [C, A, D, B]), ("keep_seats", [0, 1, 2, 3])])
def test_PRES_DEAL_7_later_turn_order_follows_finishing_order(seating, expected):
    g = to_deal2(4, want=[C, A, D, B], overrides={"seating": seating})
    do_exchange(g)
    v = g.view(0)
    assert v["turn_order"] == expected
    assert g.current_player == C                         # the President leads (PRES-PLAY-1)
    g.apply(legal(g)[0])
    seen = []
    for _ in range(3):
        seen.append(g.current_player)
        g.apply("pass")
    if seating == "rank_order":
        assert seen == [A, D, B]                         # Vice-President, Vice-scum, Scum
    else:
        assert seen == [D, A, B]                         # plain clockwise from the President
    assert g.current_player == C                         # the trick ended: back to its last player


def test_PRES_DEAL_8_exchange_after_the_deal_before_the_first_lead():
    g = to_deal2(4, want=[C, A, D, B])
    v = g.view(B)
    assert v["phase"] == "exchange" and g.current_player == B
    assert all(a.startswith("give ") for a in legal(g))
    assert sum(h["count"] for h in v["zones"]["hand"]) == 52          # everything already dealt
    assert v["zones"].get("played", {}).get("count", 0) == 0
    some = g.hand_of(B)[0]
    assert_illegal(g, f"play {some}")                    # no play before the exchange
    do_exchange(g)
    assert g.view(0)["phase"] == "climb" and g.current_player == C
    assert all(a.startswith("play ") for a in legal(g))


# ==================================================================================================
# 2. Turn
# ==================================================================================================


def test_PRES_TURN_1_with_a_play_on_the_table_beat_it_or_pass():
    b = ["3S", "5S", "5H", "6S", "6H", "6D", "9S", "9H", "KS", "KH", "KD", "KC", "2S"]
    g = new_game({A: ["7S", "7H"], B: b}, n=4)
    g.apply("play 7S 7H")
    assert g.current_player == B
    assert legal_kinds(g) == options(b, ("7", 2), P)
    assert plays(g) == {("9", 2), ("K", 2)}
    assert "pass" in legal(g)
    for bad in ("play 3S", "play 5S 5H", "play 6S 6H 6D", "play KS KH KD", "play KS KH KD KC"):
        assert_illegal(g, bad)
    g.apply("play KS KH")
    assert trick(g)["last_play"] == ["KS", "KH"] and trick(g)["last_player"] == B


def test_PRES_TURN_1_illegal_plays_rejected_and_state_unchanged():
    """A pair against a single, a lower or equal rank, cards the player does not hold (another player's --
    the only way to try to act out of turn, since ``apply`` acts for the player on turn -- or cards already
    played), mixed ranks, a repeated card, a card of no deck, and verbs of other phases."""
    b = ["4S", "9H", "9D", "JS", "JH", "KS", "3S", "5S", "6S", "7S", "8S", "10S", "QS"]
    c = ["AS", "AH", "2S"]
    g = new_game({A: ["9S", "2H"], B: b, C: c}, n=4)
    g.apply("play 9S")
    assert g.current_player == B
    for bad in ("play JS JH",            # a pair against a single
                "play 4S", "play 9H",    # lower, equal
                "play AS", "play 2S",    # C's cards: C is not on turn, and B does not hold them
                "play 2H",               # A's card
                "play 9S",               # already played
                "play JS KS",            # two ranks
                "play JS JS",            # the same card twice
                "play ZZ", "play 11H", "play Jk",
                "give JS", "discard JS", "draw stock", "play", ""):
        assert_illegal(g, bad)
    assert g.current_player == B and sorted(g.hand_of(B)) == sorted(b)
    g.apply("play JH")                                   # the state still accepts a legal play
    assert trick(g)["last_play"] == ["JH"] and g.current_player == C


def test_PRES_TURN_2_passing_is_always_allowed_even_when_able_to_beat():
    g = new_game({A: ["4S"], B: ["2S", "2H", "AS", "KS"]}, n=4)
    g.apply("play 4S")
    assert ("2", 1) in plays(g) and "pass" in legal(g)
    g.apply("pass")
    assert g.current_player == C and trick(g)["last_play"] == ["4S"]


def test_PRES_TURN_3_a_pass_does_not_lock_the_player_out_of_the_trick():
    assert P["pass_locks_out"] is False
    g = new_game({A: ["5S", "5H"], B: ["KS", "KH"], C: ["9S", "9H"]}, n=4)
    act(g, "play 5S 5H", "pass", "play 9S 9H", "pass", "pass")
    assert g.current_player == B
    assert ("K", 2) in plays(g)
    g.apply("play KS KH")
    assert trick(g)["last_player"] == B and trick(g)["locked_out"] == []


def test_PRES_TURN_3_alternative_pass_locks_out():
    g = new_game({A: ["5S", "5H"], B: ["KS", "KH"], C: ["9S", "9H"]}, n=4,
                 variant="variants/president_pass_locks_out")
    act(g, "play 5S 5H", "pass", "play 9S 9H", "pass")
    assert g.current_player == A
    g.apply("pass")                                      # B and D passed: only C's play stands
    assert not trick(g)["last_play"] and g.current_player == C


def play_in_turn(g, turns) -> None:
    """Apply ``turns`` = [(seat, action), ...], checking before each action that ``seat`` is on turn."""
    for i, (seat, action) in enumerate(turns):
        assert g.current_player == seat, (i, action, "ABCDEFG"[g.current_player], "ABCDEFG"[seat])
        g.apply(action)


# A 5, (B passes), C 6, D 7, A 8: B passed early in the trick, and the trick goes on round the table past B.
# With the lock-out B sits the rest of the trick out (PRES-TURN-3 alternative): after A's 8 the turn goes
# straight to C, and the trick ends when C and D have passed.  Without it (PRES-TURN-3, PRES-EDGE-4) B is
# asked again after A's 8 and the trick ends only when B, C and D have all passed.  Either way B's pass holds
# for that trick only: in the next trick, led by A, B is asked first.
_LOCK_TRICK = [(A, "play 5S"), (B, "pass"), (C, "play 6S"), (D, "play 7S"), (A, "play 8S")]


@pytest.mark.parametrize("locks, rest", [
    (True, [(C, "pass"), (D, "pass")]),
    (False, [(B, "pass"), (C, "pass"), (D, "pass")]),
], ids=["pass_locks_out", "pass_does_not_lock"])
def test_PRES_TURN_3_locked_out_player_is_skipped_until_the_trick_ends(locks, rest):
    g = new_game({A: ["5S", "8S", "10S"], C: ["6S"], D: ["7S"]}, n=4, overrides={"pass_locks_out": locks})
    play_in_turn(g, _LOCK_TRICK)
    assert trick(g)["locked_out"] == ([B] if locks else [])
    play_in_turn(g, rest)
    assert not trick(g)["last_play"] and g.current_player == A   # A's 8 won the trick: A leads
    assert trick(g)["locked_out"] == []
    play_in_turn(g, [(A, "play 10S")])
    assert g.current_player == B                                  # the lock lasted one trick only


def test_PRES_TURN_4_the_leader_must_play():
    g = new_game({}, n=4)
    assert g.current_player == A and "pass" not in legal(g)
    assert_illegal(g, "pass")
    act(g, legal(g)[0], "pass", "pass", "pass")          # the trick ends: A leads again
    assert g.current_player == A and not trick(g)["last_play"]
    assert "pass" not in legal(g)
    assert_illegal(g, "pass")


def test_PRES_TURN_5_turn_passes_to_next_active_player_skipping_players_out():
    g = b_holds_only_2s()
    g.apply("play 2S")                                   # B goes out
    assert g.view(0)["finished"] == [B]
    assert g.current_player == C
    act(g, "pass", "pass", "pass")                       # C, D, A
    assert g.current_player == C                         # trick over; B is out, C leads
    g.apply(legal(g)[0])
    assert g.current_player == D
    g.apply("pass")
    assert g.current_player == A
    g.apply("pass")
    assert g.current_player == C                         # B is skipped; the trick is over (C's play)


# ==================================================================================================
# 3. Plays
# ==================================================================================================


@pytest.mark.parametrize("n, dealer", [(4, 0), (4, 3), (5, 2), (6, 5), (7, 3)])
def test_PRES_PLAY_1_first_trick_led_by_dealers_left_then_by_the_president(n, dealer):
    g = new_game({}, n=n, dealer=dealer)
    assert g.current_player == (dealer + 1) % n
    want = [(dealer + 2 + i) % n for i in range(n)]      # the President is not the dealer's left
    steer_deal(g, want)
    do_exchange(g)
    assert g.view(0)["phase"] == "climb" and g.current_player == want[0]


@pytest.mark.parametrize("choice, leader_pos", [("president", 0), ("left_of_dealer", 1), ("scum", -1)])
def test_PRES_PLAY_1_first_leader_later_alternatives(choice, leader_pos):
    want = [C, A, D, B]
    g = to_deal2(4, want=want, overrides={"first_leader_later": choice})
    do_exchange(g)
    assert g.current_player == want[leader_pos]


def test_PRES_PLAY_2_a_lead_is_one_card_or_two_to_four_of_one_rank():
    a = ["3S", "5S", "5H", "7S", "7H", "7D", "9S", "9H", "9D", "9C", "JS", "KS", "2S"]
    g = new_game({A: a}, n=4)
    assert legal_kinds(g) == options(a, None, P)
    assert plays(g) >= {("5", 2), ("7", 3), ("9", 4), ("9", 1), ("9", 2), ("9", 3)}
    assert_illegal(g, "play 9S 9H 5S")                   # two ranks
    assert_illegal(g, "play 3S 5S")
    assert_illegal(g, "play JS KS")
    g.apply("play 9S 9H 9D 9C")
    assert trick(g)["last_play"] == ["9S", "9H", "9D", "9C"]


def test_PRES_PLAY_3_a_single_is_beaten_by_a_strictly_higher_single():
    g = new_game({A: ["9S"], B: ["8S", "9H", "10S", "10H", "QS"]}, n=4)
    g.apply("play 9S")
    singles = {r for r, size in plays(g) if size == 1}
    assert singles == {r for r in group(g.hand_of(B)) if strength(r) > strength("9")}
    assert_illegal(g, "play 8S")
    assert_illegal(g, "play 9H")
    assert_illegal(g, "play 10S 10H")                    # a pair does not beat a single
    g.apply("play 10H")                                  # any 10 of B's, not only the listed suit
    assert trick(g)["last_play"] == ["10H"]


def test_PRES_PLAY_4_a_set_is_beaten_only_by_a_higher_set_of_the_same_size():
    b = ["4S", "4H", "10S", "10H", "10D", "JS", "KS", "KH", "8S", "8H", "2S", "AS", "AH"]
    g = new_game({A: ["9S", "9H"], B: b}, n=4)
    g.apply("play 9S 9H")
    assert legal_kinds(g) == options(b, ("9", 2), P)
    assert plays(g) == {("10", 2), ("K", 2), ("A", 2)}
    for bad in ("play JS", "play 2S", "play 10S 10H 10D", "play 8S 8H", "play 4S 4H"):
        assert_illegal(g, bad)
    g.apply("play 10D 10S")
    act(g, "pass", "pass")
    assert g.current_player == A
    assert_illegal(g, "play 9S")                         # already played


def test_PRES_PLAY_5_equal_rank_does_not_beat_in_the_base_game():
    g = new_game({A: ["8S", "8H", "JS"], B: ["8D", "8C", "JH"]}, n=4)
    g.apply("play 8S 8H")
    assert ("8", 2) not in plays(g)
    assert_illegal(g, "play 8D 8C")
    g.apply("pass")
    g2 = new_game({A: ["8S", "8H", "JS"], B: ["8D", "8C", "JH"]}, n=4)
    g2.apply("play JS")
    assert_illegal(g2, "play JH")


def test_PRES_PLAY_6_a_two_cannot_be_beaten_in_the_base_game():
    for lead, b in ((["2S"], ["2H", "AS", "KS"]), (["2S", "2H"], ["2D", "2C", "AS", "AH"])):
        g = new_game({A: lead, B: b}, n=4)
        g.apply("play " + " ".join(lead))
        for seat in (B, C, D):
            assert g.current_player == seat
            assert legal(g) == ["pass"]
            g.apply("pass")
        assert g.current_player == A and not trick(g)["last_play"]   # no other power: A just leads again
    g = new_game({A: ["2S"], B: ["2H"]}, n=4)
    g.apply("play 2S")
    assert_illegal(g, "play 2H")


def test_PRES_PLAY_7_trick_ends_when_all_other_active_players_pass_in_succession():
    g = new_game({A: ["5S"], B: ["7S"]}, n=4)
    act(g, "play 5S", "play 7S", "pass", "pass")
    assert trick(g)["last_play"] == ["7S"] and g.current_player == A
    g.apply("pass")                                      # C, D, A passed after B's play
    assert not trick(g)["last_play"] and g.current_player == B
    assert played_count(g) == 2


def test_PRES_PLAY_8_finished_trick_cards_are_set_aside():
    g = new_game({A: ["5S", "5H"], B: ["9S", "9H"]}, n=4)
    act(g, "play 5S 5H", "play 9S 9H", "pass", "pass", "pass")
    v = g.view(0)
    assert v["zones"]["trick"]["count"] == 0
    assert v["zones"]["played"]["count"] == 4 and "cards" not in v["zones"]["played"]
    held = {c for s in range(4) for c in g.hand_of(s)}
    assert not held & {"5S", "5H", "9S", "9H"}
    assert g.cards_in_play == 52
    assert "play 5S 5H" not in legal(g)
    # they stay aside for the rest of the deal, joined by each finished trick
    lead = legal(g)[0]
    act(g, lead, "pass", "pass", "pass")
    assert g.view(0)["zones"]["played"]["count"] == 4 + len(lead.split()) - 1
    assert g.cards_in_play == 52


def test_PRES_PLAY_9_last_player_leads_next_or_next_active_after_them():
    g = new_game({A: ["5S"], B: ["7S"]}, n=4)
    act(g, "play 5S", "play 7S", "pass", "pass", "pass")
    assert g.current_player == B                         # the last player leads
    g = b_holds_only_2s()
    act(g, "play 2S", "pass", "pass", "pass")
    assert g.current_player == C                         # B is out: the next active player after B


# ==================================================================================================
# 4. Going out
# ==================================================================================================


def test_PRES_OUT_1_playing_the_last_card_goes_out_first_out_first_place():
    g = b_holds_only_2s()
    g.apply("play 2S")
    assert g.hand_of(B) == [] and g.view(0)["finished"] == [B]
    act(g, "pass", "pass", "pass")
    steer_deal(g, [B, D, A])
    assert g.hand_log[0]["order"] == [B, D, A, C]
    assert g.hand_log[0]["roles"][0] == "President"


def test_PRES_OUT_2_deal_goes_on_until_one_player_holds_cards():
    g = two_left()
    assert g.hand_number == 1 and not g.is_over                # two out, the deal goes on
    assert g.view(0)["finished"] == [A, B]
    dump(g, C)
    assert g.hand_number == 2
    rec = g.hand_log[0]
    assert rec["order"] == [A, B, C, D] and rec["roles"][-1] == "Scum"


def test_PRES_OUT_3_deal_ends_when_second_last_goes_out_even_mid_trick():
    c = ["6S", "6H", "6D", "10S", "10H", "JS", "JH", "QS", "QH", "KS", "KH", "AS", "AH"]
    d = ["6C", "10D", "10C", "JD", "JC", "QD", "QC", "KD", "KC", "AD", "AC", "2D", "2C"]
    g = two_left(c=c, d=d)
    before = list(g.scores)
    for play in ("play 6S 6H 6D", "play 10S 10H", "play JS JH", "play QS QH", "play KS KH"):
        act(g, play, "pass")
    g.apply("play AS AH")                                # C goes out; D could beat with 2D 2C
    assert g.hand_number == 2 and len(g.hand_log) == 1
    rec = g.hand_log[0]
    assert rec["order"] == [A, B, C, D]
    assert [b - a for a, b in zip(before, g.scores)] == [2, 1, -1, -2]   # D's 13 cards cost nothing more


def test_PRES_OUT_4_going_out_play_may_still_be_beaten():
    a = ["7S", "5C", "9S", "9H", "10S", "10H", "QS", "KS", "KH", "AS", "AH", "6H", "6D"]
    b = ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "5S", "5H", "5D", "6S", "JS"]
    g = new_game({A: a, B: b, C: ["QH", "QD"]}, n=4, dealer=A)
    act(g, "play 3S 3H 3D 3C", "pass", "pass", "pass", "play 4S 4H 4D 4C", "pass", "pass", "pass",
        "play 5S 5H 5D", "pass", "pass", "pass", "play 6S", "pass", "pass", "play 7S", "pass", "pass", "pass",
        "play 5C", "play JS")                            # B goes out on a J
    assert g.view(0)["finished"] == [B] and g.current_player == C
    assert ("Q", 1) in plays(g)
    g.apply("play QH")
    act(g, "pass", "pass")                               # D, A
    assert not trick(g)["last_play"] and g.current_player == C


# ==================================================================================================
# 5. Roles and card exchange
# ==================================================================================================

ORDERS = {4: [C, A, D, B], 5: [E, C, A, D, B], 6: [F, B, D, A, E, C], 7: [G, A, C, E, B, F, D]}


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_PRES_ROLE_1_finishing_positions_give_roles(n):
    want = ORDERS[n]
    g = new_game({}, n=n, seed=n)
    rec = steer_deal(g, want)
    assert rec["order"] == want
    assert rec["roles"] == role_names(n)
    do_exchange(g)
    v = g.view(0)
    assert {int(k): r for k, r in v["roles"].items()} == {s: role_names(n)[i] for i, s in enumerate(want)}


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_PRES_ROLE_2_role_titles_by_player_count(n):
    g = new_game({}, n=n)
    roles = steer_deal(g, list(range(n)))["roles"]
    assert roles[:2] == ["President", "Vice-President"]
    assert roles[-2] == "Vice-scum"
    assert roles[-1] == ("Super-scum" if n == 7 else "Scum")
    assert "Scum" not in roles[:-1] and (n == 7) == ("Super-scum" in roles)
    neutrals = roles[2:-2]
    assert neutrals == {4: [], 5: ["Neutral"], 6: ["Upper neutral", "Lower neutral"],
                        7: ["Upper neutral", "Neutral", "Lower neutral"]}[n]


def test_PRES_ROLE_3_scum_gives_the_president_their_highest_card():
    assert P["exchange"] is True and P["exchange_count"] == 1
    for seed in range(6):
        g = to_deal2(4, want=[C, A, D, B], seed=seed)
        scum = g.hand_of(B)
        top = max(strength(rank(c)) for c in scum)
        highest = sorted(c for c in scum if strength(rank(c)) == top)
        assert g.current_player == B
        assert sorted(legal(g)) == sorted(f"give {c}" for c in highest)
        low = min(scum, key=lambda c: strength(rank(c)))
        if strength(rank(low)) < top:
            assert_illegal(g, f"give {low}")
        pres = g.hand_of(C)
        g.apply(f"give {highest[0]}")
        assert highest[0] in g.hand_of(C) and highest[0] not in g.hand_of(B)
        assert len(g.hand_of(C)) == len(pres) + 1


def test_PRES_ROLE_4_president_returns_any_card_even_the_one_received():
    for seed in range(4):
        g = to_deal2(4, want=[C, A, D, B], seed=seed)
        got = legal(g)[0].split()[1]
        g.apply(f"give {got}")
        assert g.current_player == C
        assert sorted(legal(g)) == sorted(f"give {c}" for c in set(g.hand_of(C)))
        if seed % 2 == 0:
            g.apply(f"give {got}")                       # straight back
            assert got in g.hand_of(B)
        else:
            low = min(g.hand_of(C), key=lambda c: strength(rank(c)))
            g.apply(f"give {low}")
            assert low in g.hand_of(B) and got in g.hand_of(C)
        assert g.view(0)["phase"] == "climb"             # one card each way, then play


def test_PRES_ROLE_5_vice_exchange_only_with_vp_exchange():
    assert P["vp_exchange"] is False
    g = to_deal2(4, want=[C, A, D, B])
    act(g, legal(g)[0], legal(g)[0])
    assert g.view(0)["phase"] == "climb"                 # no Vice-scum -> VP exchange by default
    g = to_deal2(4, want=[C, A, D, B], overrides={"vp_exchange": True})
    act(g, legal(g)[0], legal(g)[0])
    assert g.view(0)["phase"] == "exchange" and g.current_player == D        # the Vice-scum gives
    vs = g.hand_of(D)
    top = max(strength(rank(c)) for c in vs)
    assert sorted(legal(g)) == sorted(f"give {c}" for c in set(vs) if strength(rank(c)) == top)
    card = legal(g)[0].split()[1]
    g.apply(f"give {card}")
    assert card in g.hand_of(A) and g.current_player == A                   # the VP returns any card
    assert sorted(legal(g)) == sorted(f"give {c}" for c in set(g.hand_of(A)))
    g.apply(f"give {card}")
    assert card in g.hand_of(D) and g.view(0)["phase"] == "climb"


def _deal2_where(pred, n=4, want=None, overrides=None, tries=400):
    for seed in range(tries):
        g = to_deal2(n, want=want, overrides=overrides, seed=seed)
        if pred(g):
            return g
    raise AssertionError("no seed gives the wanted second deal")


def test_PRES_ROLE_6_highest_by_rank_order_giver_chooses_among_equals():
    scum = B
    want = [C, A, D, B]
    g = _deal2_where(lambda g: sum(rank(c) == "2" for c in g.hand_of(scum)) >= 2, want=want)
    twos = sorted(c for c in g.hand_of(scum) if rank(c) == "2")
    assert sorted(legal(g)) == sorted(f"give {c}" for c in twos)
    g.apply(f"give {twos[-1]}")                          # the player's choice, not the first listed
    assert twos[-1] in g.hand_of(C)
    # the ace is below the 2: a Scum whose best cards are aces gives an ace
    g = _deal2_where(lambda g: not any(rank(c) == "2" for c in g.hand_of(scum))
                     and any(rank(c) == "A" for c in g.hand_of(scum)), want=want)
    aces = sorted(c for c in g.hand_of(scum) if rank(c) == "A")
    assert sorted(legal(g)) == sorted(f"give {c}" for c in aces)


def test_PRES_ROLE_7_roles_give_no_other_privileges():
    """After the exchange the same play rules hold for every role: each player's legal list is the spec
    oracle's for their hand and the play to beat, whatever their role."""
    g = to_deal2(4, want=[C, A, D, B], seed=5)
    do_exchange(g)
    start = g.hand_number
    seen = set()
    rng = random.Random(5)
    while g.hand_number == start:
        v = g.view(0)
        last = v["trick"]["last_play"]
        to_beat = None if not last else (v["trick"]["to_beat_rank"], len(last))
        hand = g.hand_of(g.current_player)
        assert legal_kinds(g) == options(hand, to_beat, P), (g.current_player, hand, to_beat)
        seen.add(g.current_player)
        acts = legal(g)
        moves = [a for a in acts if a != "pass"]
        g.apply("pass" if "pass" in acts and (not moves or rng.random() < 0.3) else rng.choice(moves))
    assert seen == {A, B, C, D}


# ==================================================================================================
# 6. Scoring
# ==================================================================================================


def test_PRES_SCORE_1_scoring_on_by_default_optional():
    assert P["scoring"] is True
    g = new_game({}, n=4)
    d = score_deltas(g, lambda: steer_deal(g, [A, B, C, D]))
    assert d == [2, 1, -1, -2]
    g = new_game({}, n=4, overrides={"scoring": False})
    d = score_deltas(g, lambda: steer_deal(g, [A, B, C, D]))
    assert d == [0, 0, 0, 0] and g.hand_log[0]["order"] == [A, B, C, D]


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_PRES_SCORE_2_points_by_finishing_position(n):
    want = ORDERS[n]
    g = new_game({}, n=n, seed=2)
    d = score_deltas(g, lambda: steer_deal(g, want))
    expected = [0] * n
    for pos, s in enumerate(want):
        expected[s] = role_points(n)[pos]
    assert d == expected
    assert role_points(n) == {4: [2, 1, -1, -2], 5: [2, 1, 0, -1, -2], 6: [2, 1, 0, 0, -1, -2],
                              7: [2, 1, 0, 0, 0, -1, -2]}[n]


def test_PRES_SCORE_3_first_deal_scores_like_every_deal_and_sums_to_zero():
    g = new_game({}, n=5)
    d1 = score_deltas(g, lambda: steer_deal(g, [B, A, E, C, D]))
    assert d1 == [1, 2, -1, -2, 0] and sum(d1) == 0
    d2 = score_deltas(g, lambda: steer_deal(g, [D, C, B, A, E]))
    assert d2 == [-1, 0, 1, 2, -2] and sum(d2) == 0
    assert sum(g.scores) == 0


# ==================================================================================================
# 7. Match end
# ==================================================================================================


def test_PRES_END_1_target_score_default_ten():
    assert P["target_score"] == 10
    g = new_game({}, n=4)
    for deal in range(1, 6):
        steer_deal(g, [A, B, C, D])
        assert g.scores[A] == 2 * deal
        assert g.is_over == (deal == 5)
    assert g.winner == A and g.scores == [10, 5, -5, -10]


def test_PRES_END_2_game_ends_after_the_deal_reaching_or_passing_target_highest_wins():
    g = new_game({}, n=4, overrides={"target_score": 5})
    steer_deal(g, [A, B, C, D])
    steer_deal(g, [A, B, C, D])
    assert not g.is_over and g.scores[A] == 4
    steer_deal(g, [B, A, C, D])                           # A 5 reaches 5, B 4
    assert g.is_over and g.winner == A and g.scores == [5, 4, -3, -6]
    assert g.current_player is None and g.legal_actions() == []
    with pytest.raises(IllegalAction):
        g.apply("pass")
    g = new_game({}, n=4, overrides={"target_score": 5})
    for _ in range(2):
        steer_deal(g, [A, B, C, D])
    steer_deal(g, [A, B, C, D])                          # 6 passes 5
    assert g.is_over and g.winner == A and g.scores[A] == 6


def test_PRES_END_3_a_tie_for_the_highest_total_plays_more_deals():
    g = new_game({}, n=4, overrides={"target_score": 3})
    steer_deal(g, [A, B, C, D])                          # 2 1 -1 -2
    steer_deal(g, [B, A, C, D])                          # 3 3 -2 -4: tie at the top
    assert g.scores == [3, 3, -2, -4]
    assert not g.is_over and g.hand_number == 3
    steer_deal(g, [B, A, C, D])                          # 4 5 -3 -6
    assert g.is_over and g.winner == B


def test_PRES_END_4_scoring_off_roles_are_the_only_result():
    g = new_game({}, n=4, overrides={"scoring": False, "target_score": 2})
    for _ in range(3):
        steer_deal(g, [A, B, C, D])
        assert g.scores == [0, 0, 0, 0] and not g.is_over          # no target ends it
    do_exchange(g)
    assert g.view(0)["roles"] == {A: "President", B: "Vice-President", C: "Vice-scum", D: "Scum"}
    assert all(rec["roles"] == role_names(4) for rec in g.hand_log)


# ==================================================================================================
# 8. Edge cases
# ==================================================================================================


def test_PRES_EDGE_1_player_out_and_all_pass_next_active_after_them_leads():
    g = b_holds_only_2s()
    act(g, "play 2S")
    assert g.current_player == C
    act(g, "pass", "pass")
    assert trick(g)["last_play"] == ["2S"] and g.current_player == A
    g.apply("pass")
    assert not trick(g)["last_play"] and g.current_player == C
    assert "pass" not in legal(g)


def test_PRES_EDGE_2_after_a_player_goes_out_the_remaining_active_players_must_all_pass():
    g = b_holds_only_2s()
    act(g, "play 2S", "pass", "pass")                    # C, D
    assert trick(g)["last_play"] == ["2S"] and g.current_player == A   # A has not passed yet
    g.apply("pass")
    assert not trick(g)["last_play"]
    # a play after the going-out play: the trick ends once the others (not the player out) pass
    a = ["7S", "5C", "9S", "9H", "10S", "10H", "QS", "KS", "KH", "AS", "AH", "6H", "6D"]
    b = ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "5S", "5H", "5D", "6S", "JS"]
    g = new_game({A: a, B: b, C: ["QH", "QD"], D: ["KD", "KC"]}, n=4, dealer=A)
    act(g, "play 3S 3H 3D 3C", "pass", "pass", "pass", "play 4S 4H 4D 4C", "pass", "pass", "pass",
        "play 5S 5H 5D", "pass", "pass", "pass", "play 6S", "pass", "pass", "play 7S", "pass", "pass", "pass",
        "play 5C", "play JS", "play QH", "play KD")
    assert g.current_player == A
    g.apply("pass")
    assert g.current_player == C and trick(g)["last_play"] == ["KD"]
    g.apply("pass")
    assert not trick(g)["last_play"] and g.current_player == D


def test_PRES_EDGE_3_two_active_players_trick_ends_after_one_pass():
    g = two_left()
    lead = legal(g)[0]
    g.apply(lead)
    assert g.current_player == D
    g.apply("pass")
    assert not trick(g)["last_play"] and g.current_player == C
    g.apply(legal(g)[0])
    beat = [a for a in legal(g) if a != "pass"]
    assert beat
    g.apply(beat[0])
    assert g.current_player == C
    g.apply("pass")
    assert not trick(g)["last_play"] and g.current_player == D


def test_PRES_EDGE_4_pass_play_later_and_pass_again_in_one_trick():
    g = new_game({A: ["5S"], B: ["9S", "3H"], C: ["7S", "10S"]}, n=4)
    act(g, "play 5S", "pass", "play 7S", "pass", "pass")   # B passed, C played, D, A passed
    assert g.current_player == B
    g.apply("play 9S")                                      # B plays after passing
    g.apply("play 10S")                                     # C beats it
    act(g, "pass", "pass")                                  # D, A
    assert g.current_player == B
    g.apply("pass")                                         # B passes again
    assert not trick(g)["last_play"] and g.current_player == C


def test_PRES_EDGE_5_cannot_beat_must_pass():
    b = ["KS", "KH", "AS", "AH", "2S", "2H", "3S", "4S", "5S", "6S", "7S", "8S", "QS"]
    g = new_game({A: ["9H", "9D", "9C"], B: b}, n=4)
    g.apply("play 9H 9D 9C")
    assert legal(g) == ["pass"]                            # no three cards of a rank above 9
    assert_illegal(g, "play KS KH")
    assert_illegal(g, "play 2S 2H")
    g.apply("pass")
    assert g.current_player == C


def test_PRES_EDGE_6_suits_never_break_ties():
    g = new_game({A: ["9C", "9D"], B: ["9S", "9H"]}, n=4)
    g.apply("play 9C 9D")
    assert ("9", 2) not in plays(g)
    assert_illegal(g, "play 9S 9H")
    g = new_game({A: ["AC"], B: ["AS"]}, n=4)
    g.apply("play AC")
    assert_illegal(g, "play AS")


@pytest.mark.parametrize("n, vp", [(4, False), (5, False), (6, True), (7, True), (4, True)])
def test_PRES_EDGE_7_exchange_is_one_card_each_way_hand_sizes_unchanged(n, vp):
    g = to_deal2(n, overrides={"vp_exchange": vp})
    sizes = [len(g.hand_of(s)) for s in range(n)]
    do_exchange(g)
    assert [len(g.hand_of(s)) for s in range(n)] == sizes
    assert g.cards_in_play == 52


@pytest.mark.parametrize("n", [3, 8, 2, 0])
def test_PRES_EDGE_8_player_counts_outside_4_to_7_rejected(n):
    with pytest.raises(ValueError):
        rules().new_game(seed=1, players=n)


def test_PRES_EDGE_8_cli_simulate_rejects_3_and_8_players():
    runner = CliRunner()
    for n in ("3", "8"):
        r = runner.invoke(cli, ["simulate", "president", "--players", n, "--games", "1"])
        assert r.exit_code == 2, r.output
        assert "Traceback" not in r.output
    r = runner.invoke(cli, ["simulate", "president", "--players", "4", "--games", "2"])
    assert r.exit_code == 0, r.output
    # the installed command line, as a user runs it
    proc = subprocess.run([sys.executable, "-c", "from rulesdsl.cli.main import main; main()",
                           "simulate", "president", "--players", "3"], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_PRES_EDGE_9_a_two_or_set_of_twos_may_be_led_or_used_to_go_out():
    assert P["finish_on_two_allowed"] is True
    g = new_game({A: ["2S", "2H"]}, n=4)
    assert ("2", 2) in plays(g) and ("2", 1) in plays(g)
    g.apply("play 2S 2H")
    assert trick(g)["last_play"] == ["2S", "2H"]
    g = two_left()                                       # A went out leading 2S, B leading 2H
    assert g.hand_log == [] and g.view(0)["finished"] == [A, B]
    steer = steer_deal(g, [A, B, C])
    assert steer["order"] == [A, B, C, D]
    g = b_holds_only_2s()                                # going out by beating with a 2
    g.apply("play 2S")
    assert g.view(0)["finished"] == [B]


def test_PRES_EDGE_9_alternative_going_out_on_a_two_finishes_last():
    b = [c for c in TWO_LEFT[B] if c != "2H"] + ["6S"]
    c = ["6H", "6D", "6C", "10S", "10H", "10D", "10C", "JS", "JH", "JD", "JC", "QS", "QH"]
    g = new_game({A: TWO_LEFT[A], B: b, C: c}, n=4, overrides={"finish_on_two_allowed": False})
    dump(g, A)                                           # A's last card is the 2S: A goes out first ...
    assert g.hand_of(A) == [] and g.current_player == B
    assert A not in g.view(0)["finished"]
    rec = steer_deal(g, [B, C])
    assert rec["order"] == [B, C, D, A]                  # ... but finishes last


def test_PRES_EDGE_9_alternative_two_players_out_on_a_two_first_one_out_is_lowest():
    """PRES-EDGE-9a (seeds/president.md): with finish_on_two_allowed off, players who go out on a 2 rank below
    every other player, including the one left holding cards; among them, the earlier one to go out on a 2
    ranks lower.  Here A goes out on the 2S first, B goes out normally (on 9s), C goes out on the 2H second,
    and D is left holding cards: B, D, then C, and A last."""
    b = ["6S", "7S", "7H", "7D", "7C", "8S", "8H", "8D", "8C", "9S", "9H", "9D", "9C"]
    c = ["6H", "6D", "6C", "10S", "10H", "10D", "10C", "JS", "JH", "JD", "JC", "QS", "2H"]
    g = new_game({A: TWO_LEFT[A], B: b, C: c}, n=4, overrides={"finish_on_two_allowed": False})
    start = list(g.scores)
    dump(g, A)                                           # A leads 3s, 4s, 5s, then the 2S, and goes out
    assert g.hand_of(A) == [] and g.view(0)["finished"] == [] and g.current_player == B
    dump(g, B)                                           # B leads 6, 7s, 8s, 9s: out normally, first place
    assert g.hand_of(B) == [] and g.view(0)["finished"] == [B] and g.current_player == C
    dump(g, C)                                           # C ends on the 2H; only D holds cards: the deal ends
    assert g.hand_number == 2 and len(g.hand_log) == 1
    rec = g.hand_log[0]
    assert rec["order"] == [B, D, C, A]
    assert rec["roles"] == role_names(4)                 # B President, D VP, C Vice-scum, A Scum
    assert [s - t for s, t in zip(g.scores, start)] == spec_points([B, D, C, A])


def test_PRES_EDGE_10_scum_gives_first_no_refusal():
    g = to_deal2(4, want=[C, A, D, B])
    assert g.current_player == B and g.view(B)["exchange"]["receiver"] == C
    pres_card = g.hand_of(C)[0]
    if pres_card not in g.hand_of(B):
        assert_illegal(g, f"give {pres_card}")           # the President cannot give first
    assert_illegal(g, "pass")                            # the Scum cannot refuse
    g.apply(legal(g)[0])
    assert g.current_player == C and g.view(C)["exchange"]["receiver"] == B
    assert_illegal(g, "pass")                            # the President cannot decline to return
    assert_illegal(g, "play " + g.hand_of(C)[0])
    g.apply(legal(g)[0])
    assert g.view(0)["phase"] == "climb"


@pytest.mark.parametrize("mode", ["higher_rank", "any_rank"])
def test_PRES_EDGE_11_bigger_sets_size_to_beat_is_the_last_play(mode):
    c = ["KS", "10S", "10H", "10D", "3S", "3H", "JS", "JH", "4S", "4H", "4D"]
    g = new_game({A: ["7S"], B: ["9S", "9H"], C: c}, n=4, overrides={"larger_set_beats": mode})
    act(g, "play 7S", "play 9S 9H")
    p = rules({"larger_set_beats": mode}).params
    assert legal_kinds(g) == options(g.hand_of(C), ("9", 2), p)
    assert ("K", 1) not in plays(g)                      # a single no longer beats: the size is now 2
    assert_illegal(g, "play KS")
    assert ("10", 2) in plays(g) and ("10", 3) in plays(g)
    assert (("3", 2) in plays(g)) is False               # same size, lower rank
    assert (("4", 3) in plays(g)) is (mode == "any_rank")  # bigger, lower rank: only with any_rank
    g.apply("play JS JH")
    assert g.current_player == D
    assert legal_kinds(g) == options(g.hand_of(D), ("J", 2), p)


# ==================================================================================================
# Variants (Variants 1-7): data files and undefined combinations
# ==================================================================================================

VARIANT_FILES = {
    "president_bigger_sets_higher": {"larger_set_beats": "higher_rank"},
    "president_bigger_sets_any": {"larger_set_beats": "any_rank"},
    "president_equal_rank": {"equal_rank_beats": True},
    "president_equal_rank_skip": {"equal_rank_beats": True, "equal_rank_skip": True},
    "president_revolution": {"revolution": True},
    "president_jokers": {"jokers": 2},
    "president_twos_high_and_low": {"twos_high_and_low": True},
    "president_clear_threes": {"clear_threes": True},
    "president_vp_exchange": {"vp_exchange": True},
    "president_pass_locks_out": {"pass_locks_out": True},
}


@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_VARIANTS_files_set_their_parameters(name):
    r = rulesdsl.load(f"rulesets/variants/{name}.yaml")
    for k, v in VARIANT_FILES[name].items():
        assert r.params[k] == v
    for k, v in P.items():
        if k not in VARIANT_FILES[name]:
            assert r.params[k] == v, k


def test_VARIANTS_5_jokers_rank_above_the_two_and_pair():
    g = new_game({A: ["2S", JOKER], B: ["2H", JOKER]}, n=4, variant="variants/president_jokers")
    assert g.cards_in_play == 54
    assert [len(g.hand_of(s)) for s in range(4)] == [14, 14, 13, 13]
    g.apply("play 2S")
    assert ("joker", 1) in plays(g)
    g.apply("play Jk")
    assert legal(g) == ["pass"] and g.current_player == C
    g = new_game({A: [JOKER, JOKER]}, n=4, variant="variants/president_jokers")
    assert ("joker", 2) in plays(g)
    g.apply("play Jk Jk")
    assert trick(g)["last_play"] == [JOKER, JOKER]


UNDEFINED = [
    {"revolution": True, "clear_threes": True},
    {"revolution": True, "twos_high_and_low": True},
    {"twos_high_and_low": True, "clear_threes": True},
    {"revolution": True, "twos_high_and_low": True, "clear_threes": True},
]


@pytest.mark.parametrize("ov", UNDEFINED, ids=lambda ov: "+".join(sorted(ov)))
def test_VARIANTS_undefined_combinations_are_E_CONSTRAINT_at_the_override(ov):
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load("president", overrides=ov)
    found = [d for d in exc.value.diagnostics if d.code == "E-CONSTRAINT"]
    assert found, [d.format() for d in exc.value.diagnostics]
    where = found[0].pos.path
    assert where.startswith("<override") and any(k in where for k in ov), found[0].format()


def test_VARIANTS_undefined_combination_in_a_variant_file_is_located_there(tmp_path):
    f = tmp_path / "mix.yaml"
    f.write_text("extends: president\nparams:\n  revolution: true\n  clear_threes: true\n")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(str(f))
    found = [d for d in exc.value.diagnostics if d.code == "E-CONSTRAINT"]
    assert found and found[0].pos.path.endswith("mix.yaml") and found[0].pos.line in (3, 4), found[0].format()
    # a variant file plus an override: the error points at a place outside the base ruleset
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load("rulesets/variants/president_revolution.yaml", overrides={"clear_threes": True})
    found = [d for d in exc.value.diagnostics if d.code == "E-CONSTRAINT"]
    assert found and not found[0].pos.path.endswith("rulesets/president.yaml"), found[0].format()


def test_VARIANTS_undefined_combination_via_cli_set():
    r = CliRunner().invoke(cli, ["validate", "president", "--set", "revolution=true", "--set", "clear_threes=true"])
    assert r.exit_code == 1 and "E-CONSTRAINT" in r.output and "--set" in r.output, r.output


@pytest.mark.parametrize("resets, carried, after_lead", [
    (False, True, [D, C, B]),                            # the revolution and its reversed direction carry over
    (True, False, [B, C, D]),                            # the default: deal 2 starts in the normal direction
], ids=["carried", "reset"])
def test_VARIANTS_4_revolution_carried_into_next_deal_keeps_play_reversed(resets, carried, after_lead):
    """Variants 4 with revolution_resets_each_deal false: a revolution in force when deal 1 ends is still in
    force in deal 2, rank order *and* direction (seeds: "A revolution carried into the next deal").  Deal 1
    finishes A, B, C, D, so deal 2 seats play in that order (PRES-DEAL-7) and the President A leads (PRES-PLAY-1);
    reversed, the turn after A's lead goes to D, then C, then B -- not to B."""
    g = new_game({A: ["9S", "9H", "9D", "9C"]}, n=4, overrides={"revolution": True,
                                                                "revolution_resets_each_deal": resets})
    act(g, "play 9S 9H 9D 9C", "pass", "pass", "pass")  # A starts a revolution in deal 1
    assert g.view(0)["state"]["revolution"] is True
    steer_deal(g, [A, B, C, D])
    do_exchange(g)
    assert g.hand_number == 2 and g.view(0)["phase"] == "climb"
    assert g.view(0)["state"]["revolution"] is carried
    play_in_turn(g, [(A, legal(g)[0])] + [(s, "pass") for s in after_lead])
    assert not trick(g)["last_play"] and g.current_player == A   # all passed after A's lead: A leads again
    v = g.view(0)["turn_order"]
    assert v[v.index(A):] + v[:v.index(A)] == [A] + after_lead


@pytest.mark.parametrize("ov", [{"revolution": True, "revolution_triggers": "four_of_a_kind_or_singles"},
                                {"revolution": True, "revolution_order": "source_list"}])
def test_VARIANTS_4_unusable_revolution_settings_rejected(ov):
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load("president", overrides=ov)
    assert "E-CONSTRAINT" in {d.code for d in exc.value.diagnostics}


@pytest.mark.parametrize("ov", [{"revolution": True, "equal_rank_beats": True},
                                {"larger_set_beats": "any_rank", "twos_high_and_low": True},
                                {"clear_threes": True, "equal_rank_beats": True, "equal_rank_skip": True},
                                {"revolution": True, "equal_rank_beats": True,
                                 "revolution_triggers": "four_of_a_kind_or_singles"}])
def test_VARIANTS_defined_combinations_load(ov):
    r = rulesdsl.load("president", overrides=ov)
    for k, v in ov.items():
        assert r.params[k] == v


# ==================================================================================================
# House rules (ours, beyond the spec): PRES-HOUSE-1..3
# ==================================================================================================

JOKERS_WILD = "variants/president_jokers_wild"
SUIT_LOCK = "variants/president_suit_lock"
FALLS = "variants/president_falls"


def _wild_shape(action: str) -> tuple:
    """A play under PRES-HOUSE-1 as (rank, size, jokers): a joker counts as the rank it is declared as
    (`Jk=5H`); a play of jokers alone has the rank "joker"."""
    words = action.split()[1:]
    jokers = sum(1 for w in words if w.split("=")[0] == JOKER)
    ranks = {w.split("=")[-1][:-1] for w in words if w != JOKER}
    assert len(ranks) <= 1, action
    return (ranks.pop() if ranks else "joker", len(words), jokers)


def _wild_options(hand, last=None) -> set:
    """PRES-HOUSE-1 oracle: 1-4 cards of one rank, at least one natural, jokers standing for that rank; a
    joker alone ranks above the 2; beating is PRES-PLAY-3/4 (same size, strictly higher rank)."""
    jokers = hand.count(JOKER)
    out = set()
    for r, cards in group(c for c in hand if c != JOKER).items():
        for nat in range(1, min(len(cards), 4) + 1):
            for w in range(0, min(jokers, 4 - nat) + 1):
                out.add((r, nat + w, w))
    if jokers:
        out.add(("joker", 1, 1))
    if last is not None:
        lr, ls = last
        out = {p for p in out if p[1] == ls and strength(p[0]) > strength(lr)}
    return out


def _wild_legal(g) -> set:
    return {_wild_shape(a) for a in legal(g) if a != "pass"}


@pytest.mark.parametrize("variant, changed", [(JOKERS_WILD, {"jokers": 2}), (SUIT_LOCK, {"suit_lock": True}),
                                              (FALLS, {"president_falls": True})])
def test_PRES_HOUSE_variant_files_set_their_parameters(variant, changed):
    base, r = rules().params, rules(variant=variant).params
    assert not base["suit_lock"] and not base["president_falls"] and base["jokers"] == 0   # all off by default
    assert {k: v for k, v in r.items() if base[k] != v} == changed


def test_PRES_HOUSE_1_a_joker_joins_a_set_as_its_rank():
    a = [JOKER, "5S", "5H", "2S", "3S", "4S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]   # 14 cards
    g = new_game({A: a, B: [JOKER, "6H", "6D", "8H", "AH"]}, n=4, variant=JOKERS_WILD)
    assert sorted(g.hand_of(A)) == sorted(a)
    assert _wild_legal(g) == _wild_options(a)            # a lead: every combination of the house rule
    assert ("5", 3, 1) in _wild_legal(g) and ("5", 4, 1) not in _wild_legal(g)   # only two natural 5s
    assert_illegal(g, "play 5S Jk=6H")                   # a joker stands for the set's own rank
    g.apply("play 5S Jk=5D")                             # a pair of 5s
    t = trick(g)
    assert t["to_beat_rank"] == "5" and sorted(t["last_play"]) == ["5S", JOKER]
    b = g.hand_of(B)
    assert _wild_legal(g) == _wild_options(b, ("5", 2)) and ("6", 2, 0) in _wild_legal(g)
    assert ("8", 2, 1) in _wild_legal(g)                 # B's own joker makes a pair of 8s
    g.apply("play 8H Jk=8D")
    assert trick(g)["to_beat_rank"] == "8"
    assert_illegal(g, "play 6S 6C")                      # C: a lower pair does not beat the 8s


def test_PRES_HOUSE_1_a_lone_joker_beats_a_single_two_and_nothing_beats_it():
    g = new_game({A: ["2S", "3S"], B: [JOKER, "2H"], D: [JOKER]}, n=4, variant=JOKERS_WILD)
    g.apply("play 2S")
    assert _wild_legal(g) == {("joker", 1, 1)}           # B's 2H is only equal; the joker alone is above
    assert _wild_legal(g) == _wild_options(g.hand_of(B), ("2", 1))
    g.apply("play Jk")
    assert legal(g) == ["pass"]                          # C: nothing is above a lone joker
    g.apply("pass")
    assert g.current_player == D and legal(g) == ["pass"]   # not even the other joker (PRES-PLAY-5)


def test_PRES_HOUSE_1_two_jokers_alone_are_not_a_play():
    a = [JOKER, JOKER, "5S", "3S", "4S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]
    g = new_game({A: a}, n=4, variant=JOKERS_WILD)
    assert sorted(g.hand_of(A)) == sorted(a)
    assert_illegal(g, "play Jk Jk")
    only_jokers = [x for x in legal(g) if set(x.split()[1:]) == {JOKER}]
    assert only_jokers == ["play Jk"]                    # jokers alone: only the lone joker
    assert _wild_legal(g) == _wild_options(a)
    g.apply("play 5S Jk=5H Jk=5D")                       # with a natural card both jokers may go
    assert trick(g)["to_beat_rank"] == "5" and len(trick(g)["last_play"]) == 3


def _locked_options(hand, last_cards, locked: bool) -> set:
    """PRES-HOUSE-2 oracle: the base beating rule (same size, higher rank), and while the lock holds, the
    play's suits are exactly the suits of the play to beat.  Plays as frozensets of cards (every distinct
    play is listed under the suit lock)."""
    from itertools import combinations
    size, lr = len(last_cards), rank(last_cards[0])
    suits = sorted(c[-1] for c in last_cards)
    out = set()
    for r, cards in group(hand).items():
        for combo in combinations(cards, size):
            if strength(r) > strength(lr) and (not locked or sorted(c[-1] for c in combo) == suits):
                out.add(frozenset(combo))
    return out


def _play_sets(g) -> set:
    return {frozenset(a.split()[1:]) for a in legal(g) if a != "pass"}


LOCK_HANDS = {A: ["5S", "5H", "3C", "4C"], B: ["7S", "7H", "8S", "8H", "7D"],
              C: ["9S", "9H", "9D", "KH", "AS", "10C"], D: ["JS", "QH", "QS", "JH", "2D"]}


def test_PRES_HOUSE_2_two_plays_of_the_same_suit_lock_the_trick_to_it():
    g = new_game(LOCK_HANDS, n=4, variant=SUIT_LOCK)
    g.apply("play 5S")
    assert g.view(0)["state"]["suit_lock"] is False
    g.apply("play 7S")                                   # two spades in a row: the trick is locked to spades
    assert g.view(0)["state"]["suit_lock"] is True
    assert _play_sets(g) == _locked_options(g.hand_of(C), ["7S"], True) and "pass" in legal(g)
    assert frozenset(["9S"]) in _play_sets(g)
    for card in ("9H", "KH", "10C"):                     # higher, but not spades
        assert_illegal(g, f"play {card}")
    g.apply("pass")
    assert _play_sets(g) == _locked_options(g.hand_of(D), ["7S"], True)       # D too, for the whole trick
    assert_illegal(g, "play QH")
    g.apply("play JS")
    assert g.current_player == A and _play_sets(g) == _locked_options(g.hand_of(A), ["JS"], True)
    act(g, "pass", "pass", "pass")                       # the trick ends: D leads the next
    assert g.current_player == D and g.view(0)["state"]["suit_lock"] is False
    g.apply("play QH")                                   # one play: no lock
    assert _play_sets(g) == _locked_options(g.hand_of(A), ["QH"], False)


def test_PRES_HOUSE_2_the_lock_needs_the_same_suits_in_the_last_two_plays():
    g = new_game(LOCK_HANDS, n=4, variant=SUIT_LOCK)
    act(g, "play 5S", "play 7H")                         # different suits: no lock
    assert g.view(0)["state"]["suit_lock"] is False
    assert _play_sets(g) == _locked_options(g.hand_of(C), ["7H"], False)
    assert {frozenset(["9S"]), frozenset(["9H"]), frozenset(["KH"])} <= _play_sets(g)
    g.apply("play 9H")                                   # 7H, 9H: now hearts are locked
    assert g.view(0)["state"]["suit_lock"] is True
    assert _play_sets(g) == _locked_options(g.hand_of(D), ["9H"], True)
    assert {frozenset(["JH"]), frozenset(["QH"])} <= _play_sets(g) and frozenset(["JS"]) not in _play_sets(g)


def test_PRES_HOUSE_2_sets_lock_to_the_same_suits_and_every_distinct_set_is_offered():
    g = new_game(LOCK_HANDS, n=4, variant=SUIT_LOCK)
    g.apply("play 5S 5H")
    pairs = _play_sets(g)
    assert pairs == _locked_options(g.hand_of(B), ["5S", "5H"], False)
    assert {frozenset(["7S", "7H"]), frozenset(["7S", "7D"]), frozenset(["7H", "7D"])} <= pairs
    g.apply("play 8S 8H")                                # spades and hearts twice: locked to that pair
    assert g.view(0)["state"]["suit_lock"] is True
    assert _play_sets(g) == _locked_options(g.hand_of(C), ["8S", "8H"], True)
    assert frozenset(["9S", "9H"]) in _play_sets(g)
    assert_illegal(g, "play 9S 9D")


def test_PRES_HOUSE_2_off_in_the_base_game():
    g = new_game(LOCK_HANDS, n=4)
    act(g, "play 5S", "play 7S")
    assert {("9", 1), ("K", 1), ("10", 1), ("A", 1)} <= plays(g)           # hearts and clubs still beat


class _Recorder:
    """The game, with each action recorded as (seat on turn, seats out so far, hand sizes, action)."""

    def __init__(self, g):
        self.g = g
        self.log = []

    def apply(self, action):
        g = self.g
        v = g.view(g.current_player)
        self.log.append((g.current_player, tuple(v.get("finished", [])),
                         [len(g.hand_of(s)) for s in range(v["players"])], action))
        g.apply(action)

    def __getattr__(self, name):
        return getattr(self.g, name)


def _falls_deal2(n: int, first: list):
    """Deal 1 (PRES-HOUSE-3 on) steered to ``first`` (that order, then the rest by seat): deal 2 begins."""
    g = new_game({}, n=n, variant=FALLS)
    order = first + [s for s in range(n) if s not in first]
    rec = steer_deal(g, order)
    assert rec["order"] == order                         # deal 1: no President yet, nobody falls
    assert g.hand_number == 2
    return g


@pytest.mark.parametrize("n", [4, 5])
def test_PRES_HOUSE_3_president_not_first_out_falls_to_last_at_once(n):
    g = _falls_deal2(n, [B])                              # B is the President of deal 2
    rec_g = _Recorder(g)
    before = list(g.scores)
    rec = steer_deal(rec_g, [C])                          # C goes out first in deal 2
    order = g.hand_log[-1]["order"]
    assert rec["order"] == order and order[0] == C and order[-1] == B
    assert sorted(order) == list(range(n))
    out_at = next(i for i, e in enumerate(rec_g.log) if e[1] == (C,))
    assert rec_g.log[out_at][2][B] > 0                   # B still held cards when C went out: out at once
    assert all(seat != B for seat, *_ in rec_g.log[out_at:])   # and B never plays again in this deal
    assert [b - a for a, b in zip(before, g.scores)] == spec_points(order)   # B scores the last place


def test_PRES_HOUSE_3_president_out_first_or_house_rule_off_nobody_falls():
    g = _falls_deal2(4, [B])
    rec = steer_deal(g, [B, D, C, A])                    # the President goes out first: order as played
    assert rec["order"] == [B, D, C, A]
    g = to_deal2(4, want=[B, A, C, D])                   # the base game: the President keeps playing
    rec = steer_deal(g, [C, B])
    assert rec["order"][:2] == [C, B]


def test_PRES_HOUSE_3_it_is_the_last_deals_president_who_falls():
    g = _falls_deal2(4, [B])
    rec = steer_deal(g, [C, A, D])                       # deal 2: B falls; C is the new President
    assert rec["order"] == [C, A, D, B]
    rec_g = _Recorder(g)
    rec = steer_deal(rec_g, [A, B])                      # deal 3: C (not B) falls to last when A goes out
    assert rec["order"][:2] == [A, B] and rec["order"][-1] == C
    out_at = next(i for i, e in enumerate(rec_g.log) if e[1] == (A,))
    assert rec_g.log[out_at][2][C] > 0 and all(seat != C for seat, *_ in rec_g.log[out_at:])
    assert any(seat == B for seat, *_ in rec_g.log[out_at:])  # last deal's runner-up plays on
