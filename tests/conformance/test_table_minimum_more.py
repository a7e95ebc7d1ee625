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
stock_out: {when: count(stock) == 0, result: score}
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


# Runs and sets, no wild card in play: A..8 at face value (A = 1).
RUNS_AND = """
name: minimum with runs
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
wild: is_joker(card)
melds:
  run: {kind: run, min: 3}
  %s
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 9, to: hand}, {turn_up: discard}]
table: {owner: player, initial_minimum: %d}
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
# Seat 1: a run 2H 3H 4H (9), three 8s (24), and 5S 2D 4D, which meld with nothing; it draws the 7S.
RUN_HAND = ["2H", "3H", "4H", "8S", "8H", "8D", "5S", "2D", "4D"]
RUN_SEAT0 = ["AS", "AH", "AD", "6S", "6H", "7D", "7H", "3S", "5C"]


def seat1_with_runs(other_meld: str, minimum: int):
    deck = [r + s for s in "SHDC" for r in RANKS]
    g = game(RUNS_AND % (other_meld, minimum), dealt({1: RUN_HAND, 0: RUN_SEAT0}, deck, then=["4C", "7S", "6C"]),
             dealer=0)
    g.apply("draw stock")
    return g


@documents("table.initial_minimum")
def test_a_first_meld_that_leaves_the_minimum_out_of_reach_is_not_offered():
    """The most seat 1 can place this turn is the run and the 8s: 9 + 24 = 33.  Against a minimum of 34
    nothing may be melded ("an action is offered only if the minimum stays reachable", and the turn
    cannot end once a card is placed, so a meld of the run would leave the player with no move); against
    33 the run is offered, and after it the 8s.  Catches the look-ahead counting the hand's 2D as joining
    the run 2H 3H 4H, as if the run held its first rank open like a set (partnership.py
    `minimum_reachable`; fixed with this test: the run was offered at 34, then the turn had no legal
    action and play stopped with E-PLAY)."""
    g = seat1_with_runs("set: {kind: set, min: 3}", 34)
    assert melds(g) == []
    assert "discard 7S" in legal(g)
    g = seat1_with_runs("set: {kind: set, min: 3}", 33)
    assert "2H 3H 4H" in melds(g)
    g.apply("meld 2H 3H 4H")
    assert legal(g) == ["meld 8S 8H 8D"]                           # 9: the turn goes on until 33
    g.apply("meld 8S 8H 8D")
    assert "discard 7S" in legal(g)


# Wild cards only (2s and jokers, 20 each), melds of exactly three of them, one open meld per rank.
WILD_THREES = WILD_GROUPS.replace('wild: rank(card) == "2"', 'wild: rank(card) == "2" or is_joker(card)').replace(
    'values: {A: 15, "2": 20}}', 'jokers: 2, values: {A: 15, "2": 20, joker: 20}}').replace(
    "  group: {kind: group, min: 3, max: 7, wild_ratio: naturals >= 2 * wilds}\n",
    "  group: {kind: group, min: 3, max: 7, wild_ratio: naturals >= 2 * wilds}\n  wilds: {kind: wild, min: 3, max: 3}\n"
).replace("table: {owner: player, initial_minimum: 60}", "table: {owner: player, one_open_per_rank: true, initial_minimum: %d}")


@documents("table.initial_minimum", "table.one_open_per_rank")
def test_a_full_meld_of_wild_cards_left_open_makes_no_room_for_a_second():
    """Seat 1 holds six wild cards (four 2s and two jokers, 20 each); a meld of wild cards is exactly three,
    and with one open meld per rank a second may not be started while the first is on the table unclosed
    (no book closes it).  So at most 60 can be placed: against 60 the meld of three is offered, against 100
    it is not.  Catches the look-ahead (partnership.py `_reachable`) letting a new meld start beside an open
    one that holds no natural card (`n < 0` -> `n <= 0`): it counts 120 and offers a meld after which the
    turn could never reach 100."""
    deck = [r + s for s in "SHDC" for r in RANKS] + ["Jk", "Jk"]
    for minimum, offered in ((60, True), (100, False)):
        g = game(WILD_THREES % minimum, dealt({1: ["2S", "2H", "2D", "2C", "Jk", "Jk"],
                                              0: ["3S", "3H", "4D", "6D", "6C", "8C"]}, deck, then=["AC", "7S"]),
                 dealer=0)
        g.apply("draw stock")
        assert any(set(m.split()) <= {"2S", "2H", "2D", "2C", "Jk"} for m in melds(g)) is offered, (minimum, melds(g))


@documents("table.initial_minimum")
def test_one_wild_card_completes_one_meld_toward_the_minimum():
    """Seat 1 holds a run 2H 3H 4H (9), 7C 7D, 6D 6C, one joker (10) and the AS, and draws the 8C.  The
    joker can complete one meld only: the most that can be placed is the run 2H 3H 4H, the run 6C 7C 8C
    (21) and 6D 7D with the joker (23), 53 in all (the 7s and the joker as a set, 24, leave 6D 6C with
    nothing).  Against 54 nothing is offered (a meld would leave a turn that cannot end); against 53 the
    run is, and the turn goes on to 53.  Catches the look-ahead (partnership.py `_reach`) letting one
    wild card join two melds, or leaving runs out of the count (it once did: the test said 33)."""
    rules = RUNS_AND.replace("values: {A: 1}}", "jokers: 1, values: {A: 1, joker: 10}}")
    deck = [r + s for s in "SHDC" for r in RANKS] + ["Jk"]
    hand = ["2H", "3H", "4H", "7C", "7D", "6D", "6C", "Jk", "AS"]
    seat0 = ["AH", "AD", "3S", "5S", "8S", "8H", "2D", "4D", "5C"]
    for minimum, offered in ((54, False), (53, True)):
        g = game(rules % ("set: {kind: set, min: 3}", minimum),
                 dealt({1: hand, 0: seat0}, deck, then=["4C", "8C", "3C"]), dealer=0)
        g.apply("draw stock")
        assert ("2H 3H 4H" in melds(g)) is offered and (melds(g) == []) is not offered
    for meld in ("2H 3H 4H", "6C 7C 8C"):
        g.apply("meld " + meld)
        assert not [a for a in legal(g) if a.startswith("discard")]                                   # 9, then 30: the turn goes on
    assert melds(g) == ["6D 7D Jk=5D", "6D 7D Jk=8D"]              # only the joker's meld makes 53
    g.apply("meld 6D 7D Jk=8D")
    assert [a for a in legal(g) if a.startswith("discard")] == ["discard AS"]


@documents("table.initial_minimum", "table.one_open_per_rank")
def test_one_open_meld_per_rank_still_lets_a_first_meld_of_another_rank_count_toward_the_minimum():
    """Three aces (45) and three 8s (24) against a minimum of 60, with one open meld per rank: neither meld
    reaches 60 alone, but each leaves the other rank's new meld to come (69), so both are offered, and after
    the aces the 8s.  Catches the look-ahead (partnership.py `_reachable`) letting a rank with no meld yet
    start one only when several open melds of a rank are allowed (`n < 0 or not one_open` -> `and`): the
    minimum then looks out of reach and nothing is offered."""
    rules = WILD_GROUPS.replace("table: {owner: player, initial_minimum: 60}",
                                "table: {owner: player, one_open_per_rank: true, initial_minimum: 60}")
    deck = [r + s for s in "SHDC" for r in RANKS]
    g = game(rules, dealt({1: ["AS", "AH", "AD", "8S", "8H", "8D"], 0: ["3S", "3H", "4D", "6D", "6C", "8C"]},
                          deck, then=["AC", "5S"]), dealer=0)
    g.apply("draw stock")
    assert melds(g) == ["8D 8H 8S", "AD AH AS"]
    g.apply("meld AS AH AD")
    assert melds(g) == ["8D 8H 8S"] and not any(a.startswith("discard") for a in legal(g))
    g.apply("meld 8S 8H 8D")
    assert sorted(a for a in legal(g) if a.startswith("discard")) == ["discard 5S"]


@documents("table.contract", "melds.*.kind")
def test_a_contract_can_ask_for_a_meld_of_wild_cards_beside_groups():
    """Groups and a meld type of wild cards only (`kind: wild`), and a contract of one wild meld: of seat
    1's three 5s and three 2s (wild), only the 2s are offered, as the wild meld, and after it the turn
    may end.  Catches compile/table_melds.py `kind_of_pairs` taking a meld of wild cards for a group where
    groups exist: the contract's wild meld would never be offered."""
    rules = WILD_GROUPS.replace(
        "  group: {kind: group, min: 3, max: 7, wild_ratio: naturals >= 2 * wilds}\n",
        "  group: {kind: group, min: 3, max: 7, wild_ratio: naturals >= 2 * wilds}\n  wilds: {kind: wild, min: 3}\n"
    ).replace("initial_minimum: 60", "contract: '[\"wilds\"]'")
    deck = [r + s for s in "SHDC" for r in RANKS]
    g = game(rules, dealt({1: ["5S", "5H", "5D", "2S", "2H", "2D"], 0: ["3S", "3H", "4D", "6D", "6C", "8C"]},
                          deck, then=["AC", "7S"]), dealer=0)
    g.apply("draw stock")
    assert melds(g) == ["2D 2H 2S"]
    g.apply("meld 2S 2H 2D")
    assert "discard 7S" in legal(g) and g.view(1)["melds"][0]["kind"] == "wild"
