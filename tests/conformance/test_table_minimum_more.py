"""First melds under `table.initial_minimum` with wild cards (docs/language.md, "Partnerships"): "a meld
is offered only if the minimum stays reachable with the cards left" -- wild cards left in the hand count
for what they could still add to the melds placed this turn, whatever their rank."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

# Aces are the deck's first rank; 2s are wild; a group holds at least twice as many naturals as wilds.
WILD_GROUPS = """
name: minimum with wild cards
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 15, "2": 20}}
wild: rank(card) == "2"
melds:
  group: {kind: group, min: 3, max: 7, wild_ratio: naturals >= 2 * wilds}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 6, to: hand}, {turn_up: discard}]
table: {owner: player, initial_minimum: 60}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def seat1_after_drawing(hand: list, drawn: str):
    deck = [r + s for s in "SHDC" for r in RANKS]
    seat0 = ["3S", "3H", "4D", "6D", "6C", "8C"]
    g = game(WILD_GROUPS, dealt({1: hand, 0: seat0}, deck, then=["AC", drawn]), dealer=0)
    g.apply("draw stock")
    return g


def melds(g) -> list:
    return sorted(" ".join(sorted(a.split()[1:])) for a in legal(g) if a.startswith("meld"))


@documents("table.initial_minimum")
def test_a_wild_card_left_in_hand_keeps_the_minimum_reachable_for_a_meld_of_the_first_rank():
    """Three aces (15 each: 45) and a wild 2 (20) against a minimum of 60.  Melds are offered at their
    minimum size, three cards, and every one of those cards' melds is: three aces alone leave the minimum
    reachable, since the 2 can join them afterwards (45 + 20 = 65; the ratio 3 >= 2 x 1 holds); two aces
    and the 2 standing for an ace (50) are topped up by the third ace (65).  The 5, 7 and 8 form no meld.  Catches the look-ahead
    (partnership.py `max_more`) leaving out an open meld of rank key 0, the deck's first rank (`k >= 0`
    -> `k > 0`): the wild card then counts for nothing and `meld AD AH AS` is not offered."""
    g = seat1_after_drawing(["AS", "AH", "AD", "2S", "5S", "7H"], "8D")
    assert melds(g) == ["2S=AS AD AH", "2S=AS AD AS", "2S=AS AH AS", "AD AH AS"]
    g.apply("meld AS AH AD")
    assert legal(g) == ["layoff 2S=AS on 1"]                        # 45: the turn cannot end below 60
    g.apply("layoff 2S=AS on 1")
    assert sorted(a for a in legal(g) if a.startswith("discard")) == ["discard 5S", "discard 7H", "discard 8D"]
