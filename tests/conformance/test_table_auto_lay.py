"""Card classes and cards never kept in a hand (docs/language.md, "Partnerships": `classes`, `auto_lay`
with `class`, `to`, `replace_from`, `replace_when`, `when_empty`).  A draw-and-discard game on A..8 in
which every 8 is laid out to the seat's `laid` zone."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: auto lay
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
classes:
  eight: rank(card) == "8"
  low: value(card) <= 2
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
  laid: {per: player, visible: all}
deal: [{deal: %d, to: hand}, {turn_up: discard}]
%s
turn:
  - step: draw
    actions: [{draw: stock, when: count(stock) > 0}, {take: discard}]
  - step: play
    actions: [{discard: discard, forbid: low(card)}]
scoring: {each_player: count(player.laid) * 100 - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def stack(seat1, seat0, up, stock, rest_order=None):
    return dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS], then=[up, *stock])


def laid(g, seat):
    return g.view(seat)["zones"]["laid"][seat].get("cards")


def play(auto_lay: str, seat1, seat0, up, stock, deal=4):
    return game(RULES % (deal, auto_lay), stack(seat1, seat0, up, stock), dealer=0)


@documents("classes")
def test_a_class_is_a_predicate_in_expressions():
    """`classes:` names card classes, each callable in expressions: `low(card)` forbids discarding an A
    or a 2 here."""
    g = play("", ["AS", "2S", "5H", "6H"], ["3D", "4D", "5D", "6D"], "7C", ["7H"])
    g.apply("draw stock")
    assert sorted(legal(g)) == ["discard 5H", "discard 6H", "discard 7H"]


@documents("auto_lay", "auto_lay.class", "auto_lay.to", "auto_lay.replace_from")
def test_a_dealt_card_of_the_class_is_laid_out_and_replaced_at_the_turn_start():
    """`auto_lay` lays every card of `class` out to `to` at the start of a turn and whenever one arrives,
    and replaces each from `replace_from`."""
    g = play("auto_lay: {class: eight, to: laid, replace_from: stock}",
             ["8S", "2S", "5H", "6H"], ["3D", "4D", "5D", "6D"], "7C", ["7H", "6S", "5S"])
    assert laid(g, 1) == ["8S"] and sorted(g.hand_of(1)) == ["2S", "5H", "6H", "7H"]
    g.apply("draw stock")                                    # 6S
    assert sorted(g.hand_of(1)) == ["2S", "5H", "6H", "6S", "7H"]
    assert g.view(0)["zones"]["laid"][1]["cards"] == ["8S"]  # laid face up: every seat sees it


@documents("auto_lay.class", "auto_lay.replace_from")
def test_a_drawn_card_of_the_class_is_laid_out_and_replaced():
    """A card of the class that arrives by a draw is laid out at once and replaced; without
    `replace_from` it is not replaced (the player goes on with one card fewer)."""
    g = play("auto_lay: {class: eight, to: laid, replace_from: stock}",
             ["AS", "2S", "5H", "6H"], ["3D", "4D", "5D", "6D"], "7C", ["8H", "6S", "5S"])
    g.apply("draw stock")                                    # 8H: laid, 6S replaces it
    assert laid(g, 1) == ["8H"] and sorted(g.hand_of(1)) == ["2S", "5H", "6H", "6S", "AS"]
    g = play("auto_lay: {class: eight, to: laid}",
             ["AS", "2S", "5H", "6H"], ["3D", "4D", "5D", "6D"], "7C", ["8H", "6S", "5S"])
    g.apply("draw stock")
    assert laid(g, 1) == ["8H"] and sorted(g.hand_of(1)) == ["2S", "5H", "6H", "AS"]
    assert sorted(legal(g)) == ["discard 5H", "discard 6H"]


@documents("auto_lay.replace_when")
def test_replace_when_judges_the_card_and_how_it_arrived():
    """`replace_when` limits the replacement by the card and how it `arrived` (`"dealt"`, `"drawn"` or
    `"taken"`)."""
    text = 'auto_lay: {class: eight, to: laid, replace_from: stock, replace_when: arrived == "dealt"}'
    g = play(text, ["8S", "2S", "5H", "6H"], ["3D", "4D", "5D", "6D"], "7C", ["7H", "8H", "5S"])
    assert laid(g, 1) == ["8S"] and "7H" in g.hand_of(1)     # dealt: replaced
    g.apply("draw stock")                                    # 8H drawn: laid, not replaced
    assert sorted(laid(g, 1)) == ["8H", "8S"]
    assert sorted(g.hand_of(1)) == ["2S", "5H", "6H", "7H"]
    text = 'auto_lay: {class: eight, to: laid, replace_from: stock, replace_when: suit(card) == "H"}'
    g = play(text, ["8S", "2S", "5H", "6H"], ["3D", "4D", "5D", "6D"], "7C", ["7H", "8H", "5S"])
    assert laid(g, 1) == ["8S"] and sorted(g.hand_of(1)) == ["2S", "5H", "6H"]   # 8S: not replaced
    g.apply("draw stock")                                    # 7H
    assert sorted(g.hand_of(1)) == ["2S", "5H", "6H", "7H"]


FIFTEEN_1 = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "AH", "2H", "3H", "4H", "5H", "6H", "7H", "AD"]
FIFTEEN_0 = ["2D", "3D", "4D", "5D", "6D", "7D", "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8S", "8D"]


@documents("auto_lay.when_empty")
def test_when_empty_says_what_happens_when_no_replacement_is_left():
    """`when_empty`: when a replacement is owed and `replace_from` is empty, `play_on` (the default; the
    player goes on with one card fewer) or `end_hand` (the hand ends at once as a stock-out, once the
    action is complete)."""
    # 15 cards each and an upcard leave one card in the stock, 8H; seat 1 plays first and takes the upcard
    # 8C: it is laid and 8H replaces it, itself an 8: laid, and its replacement is owed from an empty stock
    s1 = FIFTEEN_1
    s0 = FIFTEEN_0
    for mode, over in (("end_hand", True), ("play_on", False)):
        g = game(RULES % (15, f"auto_lay: {{class: eight, to: laid, replace_from: stock, when_empty: {mode}}}"),
                 stack(s1, s0, "8C", ["8H"]), dealer=0)
        g.apply("take discard")                              # 8C taken: laid; the stock's 8H replaces it
        assert sorted(laid(g, 1)) == ["8C", "8H"]
        assert g.is_over is over, mode
        if mode == "end_hand":
            assert g.hand_log[-1]["ending"] == "stock"
        else:
            assert len(g.hand_of(1)) == 15 and g.current_player == 1
