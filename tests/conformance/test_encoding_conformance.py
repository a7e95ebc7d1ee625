"""Conformance: the action numbering of docs/encoding.md (`rulesdsl/encoding/`) where a ruleset bids.

"Where the ruleset bids, `bid k` for k from 0 to the larger of 200 and the deck's size, and `bid NAME`
for each named call" are whole actions: one number each, the same in every position.  The numbers
offered are exactly the next steps of the legal actions' paths, and choosing one applies that action."""

from __future__ import annotations

import pytest

from conformance.keys import documents
from conformance.play import rules
from rulesdsl.encoding import Decisions, IllegalNumber, build_action_space
from rulesdsl.encoding.actions import EncodingError
from rulesdsl.encoding.setup import encode
from rulesdsl.engine.actions import parse_action

# Two players bid once each (seat 1 first, with dealer 0), then play four tricks of 2..5 in S and H.
BIDDING = """
name: bidding numbers
players: 2
deck: {ranks: [2, 3, 4, 5], suits: [S, H], copies: %(copies)s}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  taken: {per: player, visible: all}
deal:
  - {deal: %(deal)s, to: hand}
bidding:
  min: %(min)s
  max: %(max)s
%(calls)s
tricks:
  first_leader: next_seat(dealer)
scoring:
  each_player: tricks(player)
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""
DECK = ["2S", "3S", "4S", "5S", "2H", "3H", "4H", "5H"]


def bidding(min_bid, max_bid, calls: str = "", copies: int = 1, deal="all") -> str:
    return BIDDING % {"min": min_bid, "max": max_bid, "calls": calls, "copies": copies, "deal": deal}


def _round_trip(d: Decisions) -> dict:
    """Every legal action's number: one number each, it describes the action, and it completes it."""
    numbers = {}
    for action in d.game.legal_actions():
        path = d.space.path(action)
        assert len(path) == 1, (str(action), path)        # a bid is a whole action
        (n,) = path
        assert d.space.describe(n) == str(action)
        assert d.completing(n) == action
        numbers[str(action)] = n
    assert sorted(numbers.values()) == d.legal()
    return numbers


@documents("bidding.min", "bidding.max")
def test_every_bid_from_min_to_max_200_has_one_number_that_applies_it():
    """`bidding` `min: 1`, `max: 200`: every number from `min` to `max` is a legal bid, each is one
    number of the numbering (`bid k`, k up to the larger of 200 and the deck's size), and that number
    applies it -- `bid 200` and `bid 1`, the bounds, included.  (The engine offers at most 200 numbers
    in one bid: `min: 0, max: 200` is an E-PLAY error, so the lower bound here is 1.)"""
    text = bidding(1, 200)
    r = rules(text)
    d = Decisions(r.new_game(seed=0, deck=DECK, dealer=0), build_action_space(r.program()))
    assert [str(a) for a in d.game.legal_actions()] == [f"bid {k}" for k in range(1, 201)]
    numbers = _round_trip(d)
    assert len(numbers) == 200
    top = numbers["bid 200"]
    assert d.apply(top) == parse_action("bid 200")        # seat 1 bids the most
    assert d.game.history == ["bid 200"]
    low = _round_trip(d)["bid 1"]
    assert d.apply(low) == parse_action("bid 1")          # seat 0 the least
    assert d.game.history == ["bid 200", "bid 1"]
    assert d.game.view(0)["bids"] == [1, 200]
    assert d.game.phase == "tricks"


@documents("bidding.min", "bidding.max")
def test_a_bid_of_0_has_its_number_at_the_lower_bound():
    """`min: 0` (numbers from 0): `bid 0` is the first number of the numbering, and round-trips."""
    r = rules(bidding(0, 4))
    space = build_action_space(r.program())
    d = Decisions(r.new_game(seed=0, deck=DECK, dealer=0), space)
    numbers = _round_trip(d)
    assert sorted(numbers) == [f"bid {k}" for k in range(0, 5)]
    assert numbers["bid 0"] == space.whole["bid 0"] == min(space.whole[f"bid {k}"] for k in range(201))
    assert d.apply(numbers["bid 0"]) == parse_action("bid 0")
    assert d.game.history == ["bid 0"]


@documents("bidding.min", "bidding.max", "bidding.calls")
def test_the_numbers_offered_are_the_bids_between_the_bounds_and_the_calls():
    """`min: 3`, `max: 200` and a call `nil`: the numbers offered are those of `bid 3` .. `bid 200` and
    `bid nil`; the number of `bid 2` (below `min`) exists in the numbering but is refused, and changes
    nothing."""
    text = bidding(3, 200, calls="  calls:\n    nil: {value: 0}\n")
    r = rules(text)
    space = build_action_space(r.program())
    d = Decisions(r.new_game(seed=0, deck=DECK, dealer=0), space)
    numbers = _round_trip(d)
    assert sorted(numbers) == sorted([f"bid {k}" for k in range(3, 201)] + ["bid nil"])
    below = space.whole["bid 2"]
    with pytest.raises(IllegalNumber):
        d.apply(below)
    assert d.game.history == [] and d.selection == ()
    assert d.apply(numbers["bid 3"]) == parse_action("bid 3")
    assert d.apply(_round_trip(d)["bid nil"]) == parse_action("bid nil")
    assert d.game.history == ["bid 3", "bid nil"]


@documents("bidding.calls")
def test_bids_are_numbered_from_0_to_200_whatever_the_bounds():
    """The numbering depends on the ruleset alone: `bid 0` .. `bid 200` for an eight-card deck (the larger
    of 200 and the deck's size), then `bid NAME` for each call; no `bid 201`."""
    space = encode(rules(bidding(1, 13, calls="  calls:\n    nil: {value: 0}\n    misere: {value: 0}\n"))).actions
    bids = [n for n in space.names if n.startswith("bid ")]
    assert bids == [f"bid {k}" for k in range(0, 201)] + ["bid nil", "bid misere"]
    with pytest.raises(EncodingError):
        space.path(parse_action("bid 201"))


@documents("bidding.max")
def test_with_a_deck_larger_than_200_bids_are_numbered_up_to_the_decks_size():
    """"From 0 to the larger of 200 and the deck's size": with four 52-card decks (208 cards) the
    numbering runs to `bid 208`, and a legal `bid 208` (the `max`) round-trips, as does `bid 9` (`min`)."""
    text = bidding(9, 208, copies=4, deal=4).replace("ranks: [2, 3, 4, 5], suits: [S, H]",
                                                     "ranks: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A], "
                                                     "suits: [C, D, H, S]")
    r = rules(text)
    space = build_action_space(r.program())
    bids = [n for n in space.names if n.startswith("bid ")]
    assert bids == [f"bid {k}" for k in range(0, 209)]
    d = Decisions(r.new_game(seed=0), space)
    numbers = _round_trip(d)
    assert sorted(numbers, key=lambda t: int(t.split()[1])) == [f"bid {k}" for k in range(9, 209)]
    assert d.apply(numbers["bid 208"]) == parse_action("bid 208")
    assert d.apply(_round_trip(d)["bid 9"]) == parse_action("bid 9")


@pytest.mark.parametrize("deals, cut", [(3, 6_000), (1, 2_000), (0, 100_000)])
def test_a_game_is_cut_short_after_two_thousand_actions_a_deal_unless_told(deals, cut):
    """docs/encoding.md: `max_actions` 0 cuts the game short after 2,000 engine actions per deal, a whole
    match (`deals` 0) counting as 50 deals; a number given is kept.  Catches another default bound (the
    game libraries' `max_game_length` and truncation read it)."""
    assert encode("gin_rummy", deals=deals).max_actions == cut
    assert encode("gin_rummy", deals=deals, max_actions=777).max_actions == 777


def test_layoffs_are_numbered_for_every_meld_the_table_can_reach_and_no_more():
    """docs/encoding.md: `layoff C on m` has a number for every meld number the table can reach, the deck's
    cards over the smallest meld: Gin's 52 cards and melds of three give melds 1 to 17.  Catches the first
    or the last meld number left out, or one too many."""
    names = set(encode("gin_rummy").actions.names)
    assert {f"layoff AS on {m}" for m in range(1, 18)} <= names
    assert "layoff AS on 18" not in names and "layoff AS on 0" not in names
