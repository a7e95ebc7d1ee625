"""Conformance: `climbing.beats` with a parameter in it (docs/language.md, "Which plays are listed":
"Branches a parameter switches off are not counted").

A parameter that is on leaves the rest of the condition to decide; one that is off removes its branch.
Either way the plays offered are exactly those the condition, with the parameter's value, accepts."""

from __future__ import annotations

import pytest

from conformance.keys import documents
from conformance.play import game
from conformance.test_climbing_tricks import DECK, cl, ranks_of, stack, text

# Seat 0 leads the 4S; seat 1 holds 3S 5S 6S (ranks 3..6 low to high).
HANDS = {0: ["4S", "3H", "6H"], 1: ["3S", "5S", "6S"]}


def after_a_four(beats: str, params: str) -> list:
    """The ranks seat 1 may play (or `pass`) over seat 0's lead of the 4S."""
    rules = cl("sizes: [1, 1]\nfirst_leader: dealer", "beats: " + beats)
    g = game(text(rules, extra="params: " + params), stack(HANDS, DECK), dealer=0)
    g.apply("play 4S")
    assert g.current_player == 1
    return ranks_of(g)


@documents("climbing.beats")
@pytest.mark.parametrize("beats,params,expected", [
    # on: `true and play.rank > last.rank` is the rank test alone: the 5 and the 6 beat a 4
    ("params.climb and play.rank > last.rank", "{climb: true}", ["5", "6", "pass"]),
    # off: `false and ...` is false: nothing beats
    ("params.climb and play.rank > last.rank", "{climb: false}", ["pass"]),
    # off: `false or play.rank > last.rank` is the rank test alone
    ("params.any_rank or play.rank > last.rank", "{any_rank: false}", ["5", "6", "pass"]),
    # on: `true or ...` is true: every card beats
    ("params.any_rank or play.rank > last.rank", "{any_rank: true}", ["3", "5", "6", "pass"]),
])
def test_a_parameter_on_the_left_of_and_or_leaves_the_rest_of_beats_to_decide(beats, params, expected):
    """A parameter deciding the left side of `and`/`or` leaves the right side to judge each play on its
    own.  Catches climbing/compile.py `_view_reads` folding a constant left side the wrong way round
    (`bool(v) == (op == "and")` -> `!=`): the right side's reads (`play.rank`) are then missed, the
    phase's memo keys every play alike, and the first play judged decides for all (only `pass`)."""
    assert after_a_four(beats, params) == expected


STREAK = ("beats: (play.rank > last.rank and trick.same_rank_streak == 1)"
          " or (play.rank == last.rank and trick.same_rank_streak == 2)")


@documents("climbing.beats")
def test_beats_reads_the_same_rank_streak_the_play_would_make():
    """`trick.same_rank_streak`: "the consecutive plays of one rank", judged in `beats` for the play
    being judged, this one included.  The rule: a higher rank starts a streak of 1, and a rank may be
    matched once (a streak of 2).  Over seat 0's 4S, seat 1 may match with the 4H or climb with the 6H;
    over the two 4s, seat 2's 4C would be a third (3) and is refused, its 5C is a new streak (1).
    Catches climbing/phase.py `_streak` off by one (`+ 1` -> `+ 2`, or `else 1` -> `else 2`)."""
    from conformance.test_climbing_tricks import DECK3
    rules = cl("sizes: [1, 1]\nfirst_leader: dealer", STREAK)
    hands = {0: ["4S", "3H", "6S"], 1: ["4H", "3S", "6H"], 2: ["4C", "5C", "3C"]}
    g = game(text(rules, players=3, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    assert g.current_player == 0
    g.apply("play 4S")
    assert ranks_of(g) == ["4", "6", "pass"]
    g.apply("play 4H")
    assert g.current_player == 2 and ranks_of(g) == ["5", "pass"]
