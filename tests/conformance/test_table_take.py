"""Taking from the pile with a duty to meld (docs/language.md, `turn`: `depth: any` with `must_meld`;
"Partnerships", Drawing several: `take` with `count` and `meld_with: {count, matching}`).  A tiny deck
(A..8), two players, the pile stacked by turning up cards at the deal."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: take
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
melds:
  run: {kind: run, min: 3}
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: all}
  hand: {per: player, visible: owner}
deal: [{deal: 4, to: hand}, {turn_up: discard}, {turn_up: discard}]
table: {owner: player}
turn:
  - step: draw
    actions:
      - draw: stock
      - %s
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: %s}, {discard: discard}]
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""
SEAT0 = ["4H", "4D", "6D", "6C"]


def stack(seat1, seat0, pile, stock=("8S", "8D", "7D")):
    return dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS], then=[*pile, *stock])


def start(take: str, seat1, pile, layoff="any", seat0=SEAT0, stock=("8S", "8D", "7D")):
    """Seat 1 to play first (dealer 0); ``pile`` turned up bottom first, so its last card is the top."""
    return game(RULES % (take, layoff), stack(seat1, seat0, pile, stock), dealer=0)


def takes(g):
    return [a for a in legal(g) if a.startswith("take")]


DEEP = "{take: discard, depth: any, must_meld: count(turn.taken_cards) > 1}"


@documents("turn[].actions[].must_meld")
def test_a_deep_take_obliges_the_deepest_card_to_be_melded_at_once():
    """`depth: any` offers `take discard N` (the top N cards); `must_meld` (judged after taking) obliges
    the player to meld the deepest card taken at once; such a take is offered only when that is possible,
    and until it is done only melds or layoffs using that card are legal."""
    g = start(DEEP, ["AS", "2S", "5H", "6H"], ["3S", "8H"])          # pile: 3S under 8H
    assert takes(g) == ["take discard", "take discard 2"]
    g.apply("take discard 2")
    assert sorted(g.hand_of(1)) == ["2S", "3S", "5H", "6H", "8H", "AS"]
    assert legal(g) == ["meld AS 2S 3S"]
    g.apply("meld AS 2S 3S")
    assert "discard 8H" in legal(g) and "discard 5H" in legal(g)
    g = start(DEEP, ["AS", "4S", "5H", "6H"], ["3S", "8H"])          # 3S cannot be melded: no deep take
    assert takes(g) == ["take discard"]
    g.apply("take discard")                                          # one card: must_meld is false
    assert not any(a.startswith("meld") for a in legal(g)) and "discard AS" in legal(g)


@documents("turn[].actions[].must_meld")
def test_without_must_meld_a_deep_take_is_free():
    """Without `must_meld` a deep take carries no duty: offered whatever the deepest card is."""
    g = start("{take: discard, depth: any}", ["AS", "4S", "5H", "6H"], ["3S", "8H"])
    assert takes(g) == ["take discard", "take discard 2"]
    g.apply("take discard 2")
    assert "discard 5H" in legal(g)


@documents("turn[].actions[].must_meld")
def test_must_meld_is_a_condition_judged_after_taking():
    """`must_meld: 'true'`: even the top card alone must be melded at once, so the take is offered only
    when it can be."""
    always = "{take: discard, depth: any, must_meld: 'true'}"
    g = start(always, ["AS", "2S", "5H", "6H"], ["8H", "3S"])       # pile: 8H under 3S
    assert takes(g) == ["take discard"]                              # 8H could not be melded: no take 2
    g.apply("take discard")
    assert legal(g) == ["meld AS 2S 3S"]
    g = start(always, ["AS", "4S", "5H", "6H"], ["8H", "3S"])
    assert takes(g) == []


PILE_TAKE = "{take: discard, count: 2, meld_with: {count: 2, matching: '%s'}}"


@documents("turn[].actions[].meld_with", "turn[].actions[].meld_with.count",
           "turn[].actions[].meld_with.matching")
def test_meld_with_names_the_hand_cards_melded_with_the_top_card():
    """`take:` with `count:` takes the top N at once, and `meld_with: {count: 2, matching: CONDITION}`
    names the hand cards that must be melded at once with the top card (the take is offered only if that
    can be done)."""
    same = PILE_TAKE % "rank(card) == rank(top(discard))"
    g = start(same, ["5S", "5H", "2D", "3C"], ["3S", "5C"])          # pile: 3S under 5C
    assert takes(g) == ["take discard"]
    g.apply("take discard")
    assert sorted(g.hand_of(1)) == ["2D", "3C", "3S", "5C", "5H", "5S"]    # both cards taken
    assert [sorted(a.split()[1:]) for a in legal(g)] == [["5C", "5H", "5S"]]      # that meld, and only it
    g = start(same, ["5S", "7H", "2D", "3C"], ["3S", "5C"])          # one 5 only: no take
    assert takes(g) == []
    not_spades = PILE_TAKE % 'rank(card) == rank(top(discard)) and suit(card) != "S"'
    g = start(not_spades, ["5S", "5H", "2D", "3C"], ["3S", "5C"])
    assert takes(g) == []                                            # 5S does not match
    g = start(not_spades, ["5S", "5H", "5D", "3C"], ["3S", "5C"])
    g.apply("take discard")
    assert [sorted(a.split()[1:]) for a in legal(g)] == [["5C", "5D", "5H"]]


@documents("turn[].actions[].meld_with.count")
def test_a_meld_with_count_of_zero_lays_the_top_card_alone_onto_a_meld():
    """With a count of 0 the top card goes down alone: onto a meld, as the step's `layoff` allows."""
    zero = PILE_TAKE.replace("count: 2, matching", "count: 0, matching") % "true"
    g = start(zero, ["5S", "5H", "5D", "AC"], ["3S", "2C"], layoff="own", seat0=["4H", "4D", "6D", "5C"],
              stock=("8S", "8D", "7D"))
    assert takes(g) == []                                            # no meld for 2C to go onto
    g.apply("draw stock")                                            # 8S
    g.apply("meld 5S 5H 5D")
    g.apply("discard 8S")
    g.apply("draw stock")                                            # seat 0: 8D
    g.apply("discard 5C")
    assert takes(g) == ["take discard"]
    g.apply("take discard")
    assert legal(g) == ["layoff 5C on 1"]


@documents("turn[].actions[].meld_with")
def test_cards_that_must_go_down_together_make_a_new_meld_not_a_layoff():
    """`meld_with`: the top card and the hand cards named go down together, as one new meld: with a meld
    of their rank already on the table (two decks), no layoff of one of them alone is offered."""
    rules = (RULES % (PILE_TAKE % "rank(card) == rank(top(discard))", "any")).replace(
        "suits: [S, H, D, C], values", "suits: [S, H, D, C], copies: 2, values").replace("{deal: 4, to: hand}",
                                                                                        "{deal: 7, to: hand}")
    seat1 = ["5S", "5H", "5D", "5S", "5H", "AC", "2C"]
    seat0 = ["4H", "4D", "6D", "6C", "5C", "7C", "7H"]
    deck = dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS] * 2, then=["3S", "2H", "8S", "8D"])
    g = game(rules, deck, dealer=0)
    g.apply("draw stock")                                            # seat 1: 8S
    g.apply("meld 5S 5H 5D")
    g.apply("discard 8S")
    g.apply("draw stock")                                            # seat 0: 8D
    g.apply("discard 5C")
    assert "take discard" in legal(g)
    g.apply("take discard")                                          # 5C and 8S, 5C to be melded with 5S 5H
    plays = legal(g)
    assert plays and all(a.startswith("meld ") for a in plays), plays
    assert [sorted(a.split()[1:]) for a in plays] == [["5C", "5H", "5S"]]
