"""More of taking the pile with a duty to meld (docs/language.md, "Partnerships", Drawing several:
`meld_with: {count, matching}` names the hand cards that must be melded at once with the top card)."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

# Group melds (one rank each; jokers wild, none dealt here), two decks, each player melding on its own table; a layoff may go onto
# anyone's meld; the pile is taken two at a time, its top card to be melded with two hand cards of its rank.
GROUPS = """
name: take groups
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: 1, copies: 2, values: {A: 1, joker: 20}}
wild: is_joker(card)
melds:
  group: {kind: group, min: 3, max: 8}
zones:
  stock: {visible: none}
  discard: {visible: all}
  hand: {per: player, visible: owner}
deal: [{deal: 6, to: hand}, {turn_up: discard}]
table: {owner: player}
turn:
  - step: draw
    actions:
      - draw: stock
      - {take: discard, count: 2, meld_with: {count: 2, matching: 'rank(card) == rank(top(discard))'}}
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
scoring: {each_player: 0}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


@documents("turn[].actions[].meld_with")
def test_cards_that_must_go_down_together_are_not_laid_off_onto_an_opponents_meld_of_their_rank():
    """Kills: the must-go-down-together cards are offered as layoffs too (melding.gen_layoffs without its
    "a new meld does that" early return).

    Seat 0 melds 5S 5H 5D and discards 5C; seat 1, holding the other 5S and 5H, takes the pile's top two
    (5C, and 8S under it).  The docs: the hand cards named "must be melded at once with the top card", so
    the only legal play is the new meld of the three 5s, though each 5 alone could go onto seat 0's open
    meld of 5s (`layoff: any`)."""
    seat1 = ["5S", "5H", "AC", "2C", "3D", "4D"]
    seat0 = ["5S", "5H", "5D", "5C", "7H", "6H"]
    deck = dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS] * 2 + ["Jk", "Jk"],
                 then=["2S", "8S", "8D", "7D", "7C"])
    g = game(GROUPS, deck, dealer=0)
    assert g.current_player == 1
    g.apply("draw stock")                                            # seat 1: 8S
    g.apply("discard 8S")
    g.apply("draw stock")                                            # seat 0: 8D
    g.apply("meld 5S 5H 5D")
    g.apply("discard 5C")
    assert "take discard" in legal(g)
    g.apply("take discard")                                          # 5C and 8S
    assert sorted(g.hand_of(1)) == sorted(seat1 + ["5C", "8S"])
    plays = legal(g)
    assert [sorted(a.split()[1:]) for a in plays] == [["5C", "5H", "5S"]], plays
    # once the three are down, a later 5 may go onto either meld of 5s: layoffs are otherwise offered
    g.apply(plays[0])
    assert "discard 8S" in legal(g)
