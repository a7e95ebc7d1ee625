"""Tests that catch small engine mistakes no other test noticed (a mutation-testing round): each checks
documented behaviour (docs/language.md) on a small ruleset with a stacked deal."""

from __future__ import annotations

from conformance.play import game, legal
from conformance.test_climbing_tricks import cl, stack as climb_stack, text as climb_text

RANKS = "A 2 3 4 5 6 7 8".split()


def _stack(seat1, seat0, up, stock):
    """A full A..8 deck (four suits), top card first: two hands dealt alternately from seat 1 (dealer 0),
    the upcard (if any), the stock's top cards, then every other card."""
    deck = []
    for a, b in zip(seat1, seat0):
        deck += [a, b]
    deck += ([up] if up else []) + list(stock)
    rest = [r + s for s in "SHDC" for r in RANKS]
    for c in deck:
        rest.remove(c)
    return deck + rest


WILD_MELD_MINIMUM = """
name: wild meld minimum
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {"2": 20}}
wild: rank(card) == "2"
melds:
  group: {kind: group, min: 3, max: 7, wild_ratio: naturals >= 2 * wilds}
  wilds: {kind: wild, min: 3, max: 7}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 6, to: hand}, {turn_up: discard}]
table: {owner: player, one_open_per_rank: true, initial_minimum: 80}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def test_initial_minimum_look_ahead_counts_growing_a_wild_meld():
    """`initial_minimum`: a meld is offered only if the minimum stays reachable with the cards left.  Four
    2s (wild, 20 each) against a minimum of 80: a wild meld of three (60) is offered because the fourth 2
    can join it afterwards (then 80), and after it that layoff is offered.  Catches the look-ahead
    (`_reachable`) refusing to grow a meld that holds no natural card (`n > 0` for `n >= 0`)."""
    g = game(WILD_MELD_MINIMUM, _stack(["2S", "2H", "2D", "2C", "5S", "7H"], ["3S", "3H", "4D", "6D", "6C", "8C"],
                                       "AC", ["8D"]), dealer=0)
    g.apply("draw stock")
    melds = sorted(a for a in legal(g) if a.startswith("meld"))
    assert melds == ["meld 2H 2D 2C", "meld 2S 2D 2C", "meld 2S 2H 2C", "meld 2S 2H 2D"]
    g.apply("meld 2S 2H 2D")
    assert legal(g) == ["layoff 2C on 1"]                   # the turn cannot end at 60
    g.apply("layoff 2C on 1")
    assert any(a.startswith("discard") for a in legal(g))   # 80: down


CLAIMS = """
name: claims after a turn
players: 3
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
melds:
  run: {kind: run, min: 3}
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: all}
  hand: {per: player, visible: owner}
%s
deal: [{deal: %d, to: hand}%s]
table: {owner: player}
turn:
  - step: draw
    actions: [{draw: stock}, {take: discard}]
  - step: play
    repeat: %s
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
claims:
  rummy: {priority: from_discarder}
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def _deal3(hands, per, extra=()):
    """Three hands of ``per`` cards dealt one at a time from seat 1 (dealer 0), then ``extra`` cards."""
    deck = []
    for k in range(per):
        deck += [hands[s][k] for s in (1, 2, 0)]
    deck += list(extra)
    rest = [r + s for s in "SHDC" for r in RANKS]
    for c in deck:
        rest.remove(c)
    return deck + rest


def test_a_discard_that_picks_up_the_foot_can_be_claimed():
    """The reserve packet: after a discard out of the hand the packet is picked up and the turn ends;
    the discard is an ordinary one, so `claims` ask the others about it (5S lays off onto AS..4S).
    Catches the claim window losing the discard's zone on that path (`g.claim_zone` not set)."""
    text = CLAIMS % ("  foot: {per: player, visible: none, reserve_for: hand}", 4,
                     ", {deal: 2, to: foot}", "true")
    hands = {1: ["AS", "2S", "3S", "4S"], 2: ["6H", "7H", "7D", "6C"], 0: ["5H", "5D", "2C", "3C"]}
    feet = {1: ["8S", "8H"], 2: ["8D", "8C"], 0: ["AH", "AD"]}
    g = game(text, _deal3(hands, 4, [feet[s][k] for k in range(2) for s in (1, 2, 0)] + ["5S"]), dealer=0)
    g.apply("draw stock")                                   # seat 1 draws 5S
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    g.apply("discard 5S")                                   # the hand is empty: the foot is picked up
    assert sorted(g.hand_of(1)) == ["8H", "8S"]
    assert g.current_player == 2 and legal(g) == ["claim discard 1", "pass"]


def test_a_turn_ending_on_a_meld_after_the_pile_was_emptied_opens_no_claim():
    """A turn that ends by melding (a step that does not repeat) after taking the only discard leaves
    no pile to claim from: play goes to the next player, who may only draw.  Catches the claim depth
    helper reading the top of an empty pile (`if not pile: return []` removed)."""
    text = CLAIMS % ("", 4, "", "false")
    hands = {1: ["AS", "2S", "6D", "8H"], 2: ["4H", "4D", "7D", "6C"], 0: ["5H", "5D", "2C", "3C"]}
    g = game(text, _deal3(hands, 4, ["4C"]), dealer=0)
    g.apply("draw stock")                                   # seat 1 draws 4C
    g.apply("discard 4C")                                   # nobody can meld it alone: no claim
    assert g.current_player == 2
    g.apply("take discard")                                 # the pile is empty now
    g.apply("meld 4H 4D 4C")                                # the play step ends the turn
    assert g.current_player == 0 and legal(g) == ["draw stock"]


JOKER_GROUPS = climb_text(cl("""
first_leader: dealer
beats: play.kind == last.kind and play.size == last.size and play.rank > last.rank
plays:
  single: {kind: set, min: 1, max: 1}
  group: {kind: group, min: 2, max: 16}
  run: {kind: run, min: 2, max: 2}
"""), ranks="3, 4, 5, 6, 7, 8, 9, 10", per=16, deck_extra=", jokers: 16", extra='wild: rank(card) == "10"')


def test_jokers_that_are_not_wild_form_no_group_and_every_play_is_listed():
    """A `group` is one rank with wild cards; a joker that is not wild has no rank to group under, so
    thirteen jokers give no group play, and (suits mattering: a one-suit run) every distinct play is
    listed -- the run 3S 4S included.  Catches the group enumeration taking jokers as a rank of their
    own (`r < 0 or ...` mutated to `and`): the 8,000 joker subsets exhaust the 4,000 candidates examined
    for one position, and the run is lost."""
    deck = [r + s for s in "SH" for r in "3 4 5 6 7 8 9 10".split()] + ["Jk"] * 16
    other = [c for c in deck if c not in ("3S", "3H", "4S", "Jk")] + ["Jk"] * 3
    g = game(JOKER_GROUPS, climb_stack({0: ["Jk"] * 13 + ["3S", "3H", "4S"], 1: other}, deck), dealer=0)
    assert g.current_player == 0
    assert legal(g) == ["play 3S", "play 3H", "play 3S 3H", "play 4S", "play 3S 4S", "play Jk"]
