"""Conformance: `stock_out` and `after_deal` (docs/language.md: "stock_out" and "Naming how a hand ends,
and after_deal").

Every test plays a tiny draw-and-discard game on a stacked deal and checks how the hand ends, its name in
`hand_log` (read by scoring as `ending`), who deals next and what is scored."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import game, legal, refusal, rules

# Eight cards.  With dealer 0 the deal goes from seat 1: seat 1 gets 2S, seat 0 gets 3S, 4S is turned up,
# and the stock (top first) is AS 4H 2H 3H AH.  Seat 1 plays first; a turn is a draw (or a take of the
# discard) and then a discard or the go-out `aces` (discard a card and hold only aces).
GAME = """
name: endings
players: 2
deck: {ranks: [A, 2, 3, 4], suits: [S, H]}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal:
  - {deal: 1, to: hand}
%(turn_up)s
turn:
  - step: draw
    actions:
      - draw: stock
      - take: discard
%(extra_draw)s
  - step: finish
    actions:
      - discard: discard
      - go_out: aces
go_out:
  aces: {discard: face_up, arrange: false, when: 'all(rank(c) == "A" for c in hand)'}
match:
  ends_when: deal.number >= %(deals)d
  on_tie: shared
  next_dealer: next_seat(dealer)
"""
DECK = ["2S", "3S", "4S", "AS", "4H", "2H", "3H", "AH"]
# the same cards the other way round: seat 1 gets 3S, seat 0 gets 2S
SWAPPED = ["3S", "2S", "4S", "AS", "4H", "2H", "3H", "AH"]
DEFAULT_SCORING = "scoring:\n  each_player: 0\n"


def ruleset(extra: str, deals: int = 1, turn_up: bool = True, extra_draw: str = "") -> str:
    text = GAME % {"deals": deals, "turn_up": "  - {turn_up: discard}" if turn_up else "",
                   "extra_draw": extra_draw} + extra
    return text if "\nscoring:" in text else text + DEFAULT_SCORING


def turn_of(g, seat: int) -> str:
    """The seat on turn draws from the stock and discards the first card of its hand; returns it."""
    assert g.current_player == seat and g.phase == "turn", (g.current_player, g.phase)
    g.apply("draw stock")
    card = g.hand_of(seat)[0]
    g.apply(f"discard {card}")
    return card


# ------------------------------------------------------------------ stock_out

@documents("stock_out")
def test_a_step_of_draws_alone_needs_a_stock_out():
    """A turn step that offers nothing but draws, from zones no discard refills, and no `stock_out`:
    its player would have no legal action once the stock is empty, so the file is refused (E-STOCK-OUT,
    at the step).  A `stock_out`, another action in the step, or a discard into the stock makes it
    playable."""
    draws_only = ruleset("").replace("      - draw: stock\n      - take: discard\n", "      - draw: stock\n")
    out = refusal(draws_only)
    assert "conformance.yaml:13:5: error[E-STOCK-OUT]: step `draw` offers only draws from `stock`" in out
    assert "add `stock_out: {when: count(stock) == 0, result: score}`" in out
    rules(draws_only + "stock_out: {when: count(stock) == 0, result: void}\n")
    rules(draws_only.replace("      - draw: stock\n", "      - draw: stock\n      - pass: true\n"
                             "        when: count(stock) == 0\n        then: end_hand\n"))
    rules(draws_only.replace("      - discard: discard\n", "      - discard: stock\n"))


@documents("stock_out", "stock_out.when", "stock_out.result")
def test_a_void_stock_out_ends_the_hand_when_a_turn_ends_and_the_same_dealer_deals_again():
    """`stock_out.when` is checked when a turn ends without going out; `result: void`: nobody scores,
    the same dealer deals again (even where `next_dealer` would move the deal on)."""
    g = game(ruleset("stock_out:\n  when: count(stock) <= 2\n  result: void\n"
                     "scoring:\n  each_player: 5\n", deals=2), deck=DECK, decks=[DECK], dealer=0)
    turn_of(g, 1)
    turn_of(g, 0)
    assert g.hand_log == [] and g.hand_number == 1          # three cards are left: play goes on
    turn_of(g, 1)                                          # two cards left as the turn ends
    assert [e["ending"] for e in g.hand_log] == ["void"]
    assert g.hand_number == 2 and g.dealer == 0 and g.scores == [0, 0]
    assert g.current_player == 1 and sorted(g.hand_of(1)) == ["2S"]


@documents("stock_out.result", "stock_out.ending", "scoring.each_player")
def test_a_scored_stock_out_records_its_ending_name_and_scoring_reads_it():
    """`result: score` scores the hand; `ending:` names it (default `stock`), in `hand_log` and as
    `ending` for scoring."""
    scoring = "scoring:\n  each_player: 'if ending == \"stock_emptied\" then player + 1 else 100'\n"
    g = game(ruleset("stock_out:\n  when: count(stock) == 0\n  result: score\n  ending: stock_emptied\n"
                     + scoring), deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert g.is_over
    assert [e["ending"] for e in g.hand_log] == ["stock_emptied"]
    assert g.scores == [1, 2]


@documents("stock_out.ending")
def test_an_unnamed_stock_out_is_named_stock():
    """Without `ending:`, a stock-out is recorded (and read by scoring) as `stock`."""
    scoring = "scoring:\n  each_player: 'if ending == \"stock\" then player + 1 else 100'\n"
    g = game(ruleset("stock_out:\n  when: count(stock) == 0\n  result: score\n" + scoring), deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert [e["ending"] for e in g.hand_log] == ["stock"] and g.scores == [1, 2]


LAST_CHANCE = "stock_out:\n  when: count(stock) == 0\n  last_chance: %s\n  result: void\n" \
              "scoring:\n  each_player: 'if player == declarer then 10 else 0'\n"


def _exhaust(g, last_discard: str) -> None:
    """Five turns empty the stock; seat 1 makes the last discard (`last_discard`, from AH 2H)."""
    for seat in (1, 0, 1, 0):
        turn_of(g, seat)
    g.apply("draw stock")                                  # seat 1 holds AH 2H
    assert sorted(g.hand_of(1)) == ["2H", "AH"]
    g.apply(f"discard {last_discard}")


@documents("stock_out.last_chance")
def test_last_chance_lets_the_next_player_take_the_discard_only_to_go_out():
    """`last_chance`: after the stock-out, the next player may take the discard only to go out."""
    g = game(ruleset(LAST_CHANCE % "true"), deck=DECK, dealer=0)
    _exhaust(g, "AH")                                      # seat 0 holds 4H: AH would let it go out
    assert g.hand_log == [] and g.current_player == 0
    assert legal(g) == ["take discard", "pass"]
    g.apply("take discard")
    assert legal(g) == ["aces 4H"]                          # going out is all that is left
    g.apply("aces 4H")
    assert [(e["ending"], e["declarer"]) for e in g.hand_log] == [("aces", 0)]
    assert g.scores == [10, 0]


@documents("stock_out.last_chance", "stock_out.result")
def test_after_a_last_chance_pass_the_stock_outs_result_applies():
    """A discard that would not let the player go out is not offered; after the pass the stock-out's
    result applies (`void`: the same dealer deals again, nobody scores)."""
    g = game(ruleset(LAST_CHANCE % "true", deals=2), deck=DECK, decks=[DECK], dealer=0)
    _exhaust(g, "2H")                                      # 2H would not let seat 0 go out
    assert g.hand_log == [] and legal(g) == ["pass"]
    g.apply("pass")
    assert [e["ending"] for e in g.hand_log] == ["void"]
    assert g.hand_number == 2 and g.dealer == 0 and g.scores == [0, 0]


@documents("stock_out.last_chance")
def test_without_last_chance_the_stock_out_applies_at_once():
    """With `last_chance` false, nobody may take the last discard: the hand ends as the turn ends."""
    g = game(ruleset(LAST_CHANCE % "false", deals=2), deck=DECK, decks=[DECK], dealer=0)
    _exhaust(g, "AH")
    assert [e["ending"] for e in g.hand_log] == ["void"] and g.hand_number == 2


RESHUFFLE = """stock_out:
  when: count(stock) == 0
  result: reshuffle
scoring:
  each_player: 10 * deal.reshuffles + player
"""
# once the stock has been refilled, the player may end the hand
END_AFTER_RESHUFFLE = "      - pass: true\n        when: deal.reshuffles >= 1\n        then: end_hand\n"


@documents("stock_out.result")
def test_a_reshuffle_turns_the_discard_pile_less_its_top_card_into_a_new_stock():
    """`result: reshuffle` shuffles the discard pile, less its top card, face down into a new stock, and
    play goes on; `deal.reshuffles` counts how often this hand."""
    g = game(ruleset(RESHUFFLE, extra_draw=END_AFTER_RESHUFFLE), deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0):
        turn_of(g, seat)
    assert "pass" not in legal(g)
    last = turn_of(g, 1)                                   # the stock is empty; the pile holds 6 cards
    assert g.hand_log == [] and g.current_player == 0 and g.phase == "turn"
    zones = g.view(0)["zones"]
    assert zones["stock"] == {"count": 5}
    assert zones["discard"] == {"count": 1, "top": last}
    held = set(g.hand_of(0)) | set(g.hand_of(1))
    assert legal(g) == ["draw stock", "take discard", "pass"]
    before = set(g.hand_of(0))
    g.apply("draw stock")
    (drawn,) = set(g.hand_of(0)) - before
    assert drawn not in held | {last}                      # the new stock holds the old pile's cards
    g.apply(f"discard {g.hand_of(0)[0]}")
    g.apply("pass")                                        # seat 1 ends the hand
    assert [e["ending"] for e in g.hand_log] == ["stock"]
    assert g.scores == [10, 11]


@documents("stock_out.result")
def test_a_reshuffle_with_nothing_to_shuffle_is_a_void_hand_by_default():
    """When there is nothing to shuffle (the pile holds only its top card), the hand is void."""
    text = ruleset("stock_out:\n  when: count(stock) <= 5\n  result: reshuffle\nscoring:\n  each_player: 7\n",
                   deals=2, turn_up=False)
    g = game(text, deck=DECK, decks=[DECK], dealer=0)        # the stock holds 6 cards
    turn_of(g, 1)                                          # 5 left; the pile holds one card
    assert [e["ending"] for e in g.hand_log] == ["void"]
    assert g.hand_number == 2 and g.dealer == 0 and g.scores == [0, 0]


@documents("stock_out.unshuffled", "stock_out.ending")
def test_unshuffled_score_scores_the_hand_under_the_stock_outs_ending():
    """`unshuffled: score`: with nothing to shuffle the hand is scored under `ending`."""
    text = ruleset("stock_out:\n  when: count(stock) <= 5\n  result: reshuffle\n  unshuffled: score\n"
                   "  ending: dry\nscoring:\n  each_player: 'if ending == \"dry\" then 7 + player else 100'\n",
                   turn_up=False)
    g = game(text, deck=DECK, dealer=0)
    turn_of(g, 1)
    assert [e["ending"] for e in g.hand_log] == ["dry"]
    assert g.is_over and g.scores == [7, 8]


# ------------------------------------------------------------------ after_deal

SCORE_BY_ENDING = "scoring:\n  each_player: 'if ending == \"low_two\" then player + 1 else 100'\n"


@documents("after_deal", "after_deal[].when", "after_deal[].ending")
def test_an_after_deal_check_that_holds_ends_the_hand_at_once_under_its_name():
    """Checked once the deal is complete, before anyone acts: when it holds the hand ends at once and is
    scored (nothing is recorded as an action), named `ending`."""
    g = game(ruleset('after_deal:\n  - {when: \'holder("2S") == next_seat(dealer)\', ending: low_two}\n'
                     + SCORE_BY_ENDING), deck=DECK, dealer=0)
    assert [e["ending"] for e in g.hand_log] == ["low_two"]
    assert g.history == [] and g.is_over
    assert g.scores == [1, 2]


@documents("after_deal[].when")
def test_an_after_deal_check_that_does_not_hold_changes_nothing():
    """A check whose `when` does not hold for the dealt cards leaves the hand to be played."""
    g = game(ruleset('after_deal:\n  - {when: \'holder("2S") == next_seat(dealer)\', ending: low_two}\n'
                     + SCORE_BY_ENDING), deck=SWAPPED, dealer=0)
    assert g.hand_log == [] and g.hand_number == 1 and g.current_player == 1
    assert legal(g) == ["draw stock", "take discard"]


@documents("after_deal[].result")
def test_a_void_after_deal_check_redeals_with_the_same_dealer():
    """`result: void`: the same dealer deals again, nobody scores; the check's name is the `reason`."""
    g = game(ruleset('after_deal:\n  - {when: \'holder("2S") == next_seat(dealer)\', ending: misdeal, '
                     'result: void}\nscoring:\n  each_player: 5\n', deals=2),
             deck=DECK, decks=[SWAPPED], dealer=0)
    assert [(e["ending"], e.get("reason")) for e in g.hand_log] == [("void", "misdeal")]
    assert g.hand_number == 2 and g.dealer == 0 and g.scores == [0, 0]
    assert g.hand_of(1) == ["3S"] and g.current_player == 1


@documents("after_deal", "after_deal[].ending")
def test_of_several_checks_that_hold_the_first_one_ends_the_hand():
    """The checks are made in order: the first that holds ends the hand, under its name."""
    checks = ('after_deal:\n'
              '  - {when: \'holder("4H") == dealer\', ending: never_holds}\n'
              '  - {when: \'holder("2S") == next_seat(dealer)\', ending: first_check}\n'
              '  - {when: \'holder("3S") == dealer\', ending: second_check}\n')
    scoring = "scoring:\n  each_player: 'if ending == \"first_check\" then player + 1 else 100'\n"
    g = game(ruleset(checks + scoring), deck=DECK, dealer=0)
    assert [e["ending"] for e in g.hand_log] == ["first_check"]
    assert g.scores == [1, 2]


@documents("after_deal", "after_deal[].result")
def test_a_void_check_listed_first_wins_over_a_scored_one():
    """In order: a void check listed before a scored check that also holds makes the hand void."""
    checks = ('after_deal:\n'
              '  - {when: \'holder("3S") == dealer\', ending: misdeal, result: void}\n'
              '  - {when: \'holder("2S") == next_seat(dealer)\', ending: low_two}\n')
    g = game(ruleset(checks + SCORE_BY_ENDING, deals=2), deck=DECK, decks=[SWAPPED], dealer=0)
    assert [(e["ending"], e.get("reason")) for e in g.hand_log] == [("void", "misdeal")]
    assert g.scores == [0, 0] and g.hand_number == 2
