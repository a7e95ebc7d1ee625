"""docs/api.md, "Determinizing": more of what a world keeps and what it deals again.

The pile here is `visible: top` and its bottom card was covered as the deal turned it up, so no seat saw
it: "every other card may be anywhere hidden"."""

from __future__ import annotations

import random

import rulesdsl
from conformance.keys import documents
from conformance.test_api_knowledge import pile_game


@documents("api:determinize")
def test_a_covered_card_under_a_top_only_pile_is_not_remembered():
    """Kills: a `visible: top` pile shows its top TWO cards (visibility.shown_slots off by one).

    AS was turned up and covered by 5H at once (`cover_while`), and the pile shows only its top, so no
    seat ever saw AS; seat 1's hidden slots are seat 0's two cards, seat 2's two, the two in the stock
    and the pile's bottom (seven slots for seven unseen cards), so across 40 worlds AS must sometimes be
    in an opponent's hand.  A seat that had seen AS would keep it at the pile's bottom in every world."""
    g = pile_game()
    elsewhere = 0
    for i in range(40):
        w = g.determinize(1, random.Random(i))
        if "AS" in set(w.hand_of(0)) | set(w.hand_of(2)):
            elsewhere += 1
    assert elsewhere > 0
    # and the pile's two shown cards above it are never dealt again (seat 1 saw 2S and 3H land)
    for i in range(10):
        w = g.determinize(1, random.Random(i))
        assert not {"2S", "3H", "5H"} & (set(w.hand_of(0)) | set(w.hand_of(2)))



@documents("api:determinize")
def test_a_world_lists_the_moves_of_its_own_cards_not_the_real_ones():
    """"A determinized copy plays on like any game": the player on turn in a world made for another seat
    is offered the cards that world dealt it, even when the real game had already listed its moves
    (kills: a world keeping the listing of the game it was copied from)."""
    g = rulesdsl.load("gin_rummy").new_game(seed=3)
    g.apply("take discard")                            # seat 1 takes the upcard and must discard
    real = {str(a) for a in g.legal_actions()}         # listed, and kept, for seat 1's real hand
    assert all(str(a).startswith("discard ") for a in g.legal_actions())
    others = 0
    for i in range(20):
        w = g.determinize(0, random.Random(i))
        offered = w.legal_actions()
        named = {c for a in offered for c in a.cards}
        assert named <= set(w.hand_of(1)) and len(named) == 10      # all but the card just taken
        others += {str(a) for a in offered} != real
    assert others > 0


@documents("api:determinize")
def test_a_card_face_down_in_a_face_up_pile_stays_face_down_in_every_world():
    """A world deals the face-down card of a face-up pile again (the other seat never saw it), and the card
    dealt there lies face down as the real one does: the pile still reads `face down` to that seat (kills:
    the face-down marks not following a card that is renamed)."""
    from conformance.test_api_log import DECK as FOLD_DECK, FOLD
    from conformance.play import game

    g = game(FOLD, deck=FOLD_DECK)
    for action in ("draw stock", "discard AS", "draw stock", "fold AH"):    # seat 0 folds AH face down
        g.apply(action)
    assert g.view(1)["zones"]["pile"]["cards"] == ["AS", "face down"]
    elsewhere = 0
    for i in range(30):
        w = g.determinize(1, random.Random(i))
        assert w.view(1)["zones"]["pile"]["cards"] == ["AS", "face down"]
        elsewhere += w.prog.cards.text[w.zones["pile"][1]] != "AH"
    assert elsewhere > 0                                  # another card lies there in some worlds
