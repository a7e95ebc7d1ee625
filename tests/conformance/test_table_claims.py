"""Out-of-turn claims of a discard (docs/language.md, `claims`): called claims asked in turn from the
discarder, the claimer melding the card and finishing a turn; buys, with `penalty` cards from the stock
and no turn.  Three players, A..8, five cards each."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: claims
players: 3
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
melds:
  run: {kind: run, min: 3}
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: all}
  hand: {per: player, visible: owner}
deal: [{deal: 5, to: hand}, {turn_up: discard}]
table: {owner: player}
turn:
  - step: draw
    actions: [{draw: stock}, {take: discard}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
claims:
  %s
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def stack(hands, up, stock, n=3):
    return dealt({s: hands[s][:5] for s in range(n)}, [r + s for s in "SHDC" for r in RANKS], then=[up, *stock])


HANDS = {1: ["AS", "2S", "3S", "8H", "7S"], 2: ["4S", "7H", "7D", "6C", "8D"], 0: ["5H", "5D", "2C", "3C", "AH"]}
STOCK = ["6S", "6H", "6D", "5S", "4D"]


def after_seat2_discards(claims: str, card="4S"):
    """Seat 1 melds AS 2S 3S and discards 8H; seat 2 draws 6H and discards ``card``."""
    g = game(RULES % claims, stack(HANDS, "8C", STOCK), dealer=0)
    g.apply("draw stock")                                   # seat 1: 6S
    g.apply("meld AS 2S 3S")
    g.apply("discard 8H")
    if g.current_player != 2:                               # a claim window on 8H: nobody can meld it
        raise AssertionError(f"unexpected claim window: {legal(g)}")
    g.apply("draw stock")                                   # seat 2: 6H
    g.apply(f"discard {card}")
    return g


@documents("claims", "claims.*.priority")
def test_a_called_claim_is_asked_in_turn_from_the_discarder():
    """After a discard that could be melded without other cards (here 4S, laid off by itself onto
    AS 2S 3S), the other players are asked in turn from the discarder (`priority: from_discarder`):
    `claim discard N` or `pass`.  The claimer melds the card at once, then finishes a turn, and play
    continues from the claimer: players in between lose their turn."""
    g = after_seat2_discards("rummy: {priority: from_discarder}")
    assert g.current_player == 0 and legal(g) == ["claim discard 1", "pass"]
    refused = g.refusal("draw stock")                                   # nothing else is a move here
    assert refused.rule == "claim window" and "`claim` it" in str(refused)
    g.apply("pass")
    assert g.current_player == 1 and legal(g) == ["claim discard 1", "pass"]
    g.apply("claim discard 1")
    assert g.current_player == 1 and legal(g) == ["layoff 4S on 1"]     # the claimed card, at once
    g.apply("layoff 4S on 1")
    assert sorted(legal(g)) == ["discard 6S", "discard 7S"]
    g.apply("discard 7S")
    assert g.current_player == 2                                        # seat 0 lost its turn
    assert g.history[-5:] == ["discard 4S", "pass", "claim discard 1", "layoff 4S on 1", "discard 7S"]


@documents("claims")
def test_a_discard_nobody_could_meld_opens_no_claim():
    """Only a discard that could be melded without other cards is claimed: after 6C the next player
    simply plays."""
    g = after_seat2_discards("rummy: {priority: from_discarder}", card="6C")
    assert g.current_player == 0 and legal(g) == ["draw stock", "take discard"]


@documents("claims.*.when")
def test_a_claim_is_offered_only_while_its_when_holds():
    """A claim's `when` (`when: params.rummy_calls_enabled`): while it does not hold no one is asked."""
    g = after_seat2_discards("rummy: {when: count(stock) > 100}")
    assert g.current_player == 0 and legal(g) == ["draw stock", "take discard"]
    g = after_seat2_discards("rummy: {when: count(stock) > 10}")
    assert g.current_player == 0 and legal(g) == ["claim discard 1", "pass"]


BUY = "buy: {kind: buy, penalty: %d, when: %s}"


@documents("claims.*.kind", "claims.*.penalty")
def test_a_buy_takes_the_card_and_penalty_cards_without_a_turn():
    """`kind: buy`: once the next player has drawn from the stock rather than take the last discard, the
    other players (not the discarder), in turn after them, may buy it: `claim discard 1` takes the card
    and `penalty` cards from the stock, without a turn; play then goes on with the player who drew."""
    g = game(RULES % (BUY % (1, "'true'")), stack(HANDS, "8C", STOCK), dealer=0)
    g.apply("draw stock")                                   # seat 1: 6S
    g.apply("discard 8H")
    assert g.current_player == 2 and legal(g) == ["draw stock", "take discard"]
    g.apply("draw stock")                                   # seat 2 draws 6H instead of taking 8H
    assert g.current_player == 0 and legal(g) == ["claim discard 1", "pass"]
    refused = g.refusal("discard 5H")
    assert refused.rule == "buy window" and "may be bought" in str(refused)
    g.apply("claim discard 1")
    assert sorted(g.hand_of(0)) == sorted(HANDS[0] + ["8H", "6D"])      # the card and one stock card
    assert g.current_player == 2                                        # back to the player who drew
    assert len(g.hand_of(2)) == 6 and "6H" in g.hand_of(2)
    g = game(RULES % (BUY % (2, "'true'")), stack(HANDS, "8C", STOCK), dealer=0)
    g.apply("draw stock")
    g.apply("discard 8H")
    g.apply("draw stock")
    g.apply("claim discard 1")
    assert sorted(g.hand_of(0)) == sorted(HANDS[0] + ["8H", "6D", "5S"])


@documents("claims.*.kind", "claims.*.when")
def test_a_buy_asks_the_others_in_turn_while_when_holds():
    """The buyers are asked in turn after the player who drew, never the discarder; `when` is judged for
    each (`player`), and a pass hands the question on."""
    g = game(RULES % (BUY % (1, "'true'")), stack(HANDS, "8C", STOCK), dealer=0)
    g.apply("draw stock")
    g.apply("discard 8H")
    g.apply("draw stock")
    g.apply("pass")                                         # seat 0 passes; seat 1 discarded it: not asked
    assert g.current_player == 2 and "claim discard 1" not in legal(g)
    g = game(RULES % (BUY % (1, "player != 0")), stack(HANDS, "8C", STOCK), dealer=0)
    g.apply("draw stock")
    g.apply("discard 8H")
    g.apply("draw stock")
    assert g.current_player == 2 and "claim discard 1" not in legal(g)   # nobody may buy


@documents("claims", "claims.*.priority")
def test_a_claim_may_take_deeper_to_complete_a_meld_with_cards_in_the_pile():
    """A discard that completes a meld with cards already in the pile may be claimed: `claim discard N`
    takes the top N cards, and the claimed card and the deepest card taken must be melded at once."""
    hands = {1: ["6D", "2H", "3H", "8H", "7S"], 2: ["7D", "4H", "5H", "6C", "8D"], 0: ["AS", "2C", "3C", "4S", "AH"]}
    g = game(RULES % "rummy: {priority: from_discarder}", stack(hands, "5D", ["6S", "6H", "2S"]), dealer=0)
    g.apply("draw stock")
    g.apply("discard 6D")                                  # 5D 6D: no meld yet, no claim
    assert g.current_player == 2 and legal(g) == ["draw stock", "take discard"]
    g.apply("draw stock")
    g.apply("discard 7D")                                  # 5D 6D 7D in the pile
    assert g.current_player == 0 and legal(g) == ["claim discard 3", "pass"]
    g.apply("claim discard 3")
    assert legal(g) == ["meld 5D 6D 7D"]


@documents("claims")
def test_a_discard_that_empties_the_hand_ends_it_and_no_claim_follows():
    """A discard that empties the hand ends the hand; no claim can follow it (6S would lay off)."""
    hands = {1: ["AS", "2S", "3S", "4S", "5S"], 2: ["7D", "4H", "5H", "6C", "8D"], 0: ["AD", "2C", "3C", "4C", "AH"]}
    g = game(RULES % "rummy: {priority: from_discarder}", stack(hands, "5D", ["8H", "7H", "2H", "6S"]), dealer=0)
    g.apply("draw stock")                                  # seat 1: 8H
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    g.apply("discard 8H")                                  # keeps 5S
    g.apply("draw stock")                                  # seat 2: 7H
    g.apply("discard 8D")
    g.apply("draw stock")                                  # seat 0: 2H
    g.apply("discard 2H")
    g.apply("draw stock")                                  # seat 1: 6S
    g.apply("layoff 5S on 1")
    assert sorted(legal(g)) == ["discard 6S", "layoff 6S on 1"]
    g.apply("discard 6S")
    assert g.is_over and g.hand_log[-1]["declarer"] == 1


@documents("claims")
def test_a_claimer_goes_on_in_the_step_that_melds_wherever_it_lies_in_the_turn():
    """The claimer goes on from the step where melding happens, not the step after the draw: here a step
    of its own (a `pass`) lies between the draw and the play step, and after `claim discard 1` the claimer
    lays the claimed card off at once, in the play step.  Catches the claimer being put in the step after
    the draw."""
    rules = RULES.replace("  - step: play\n", "  - step: wait\n    actions: [{pass: true}]\n  - step: play\n")
    g = game(rules % "rummy: {priority: from_discarder}", stack(HANDS, "8C", STOCK), dealer=0)
    g.apply("draw stock")                                   # seat 1: 6S
    assert legal(g) == ["pass"]
    g.apply("pass")
    g.apply("meld AS 2S 3S")
    g.apply("discard 8H")
    g.apply("draw stock")                                   # seat 2: 6H
    g.apply("pass")
    g.apply("discard 4S")
    g.apply("pass")                                         # seat 0 does not claim
    g.apply("claim discard 1")
    assert g.current_player == 1 and legal(g) == ["layoff 4S on 1"]
