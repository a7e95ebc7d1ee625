"""Engine-internal promises that round 8's survivors in rulesdsl/engine showed untested (issue 26)."""

from __future__ import annotations

from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

#: a step that draws from the stock only: the discard pile is there (it takes the discards) but no step
#: draws from it
STOCK_ONLY = """
name: stock_only
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
zones:
  stock: {visible: none}
  discard: {visible: all}
  hand: {per: player, visible: owner}
deal: [{deal: 5, to: hand}, {turn_up: discard}]
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    actions: [{discard: discard}]
scoring: {each_player: 0 - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def test_a_draw_from_a_zone_the_step_does_not_draw_from_is_refused_naming_the_zone_it_does():
    """Kills drawing.py `explain`: the check `action.zone != a.arg` dropped (the refusal of `draw
    discard`, where the step draws only from `stock`, would fall back to a generic one that does not say
    which zone the step works on).  The refusal names the step's rule and both zones."""
    hands = {1: ["AS", "2S", "3S", "4S", "5S"], 0: ["AH", "2H", "3H", "4H", "5H"]}
    g = game(STOCK_ONLY, dealt(hands, [r + s for s in "SHDC" for r in RANKS], then=["8C"]), dealer=0)
    assert legal(g) == ["draw stock"]                     # only the stock is drawn from here
    refused = g.refusal("draw discard")
    assert refused is not None and refused.rule == "turn step draw"
    assert "`draw` works on `stock` here, not `discard`" in str(refused)
    assert g.refusal("draw stock") is None
