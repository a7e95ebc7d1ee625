"""Conformance: `counters` (docs/language.md, "counters: counts the engine keeps as actions happen").

Each test plays a tiny ruleset written for the feature on a stacked deal and checks the counts the docs
promise, read through `game.counters` (docs/api.md) and through rules that read them (`SEAT.NAME`)."""

from __future__ import annotations


from conformance.keys import documents
from conformance.play import game, legal

# A draw-and-discard game on eight cards.  With dealer 0 the deal goes from seat 1: seat 1 gets AS,
# seat 0 gets 2S, 3S is turned up, and the stock (top first) is 4S AH 2H 3H 4H.  Seat 1 plays first;
# a turn is `draw stock` then `discard C`; the stock-out (stock empty, checked as a turn ends) scores
# the hand, so the hand ends after seat 1's third turn (five draws: 1, 0, 1, 0, 1).
DRAWING = """
name: counting
players: 2
deck: {ranks: [A, 2, 3, 4], suits: [S, H]}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal:
  - {deal: 1, to: hand}
  - {turn_up: discard}
turn:
  - step: draw
    actions:
      - draw: stock
  - step: finish
    actions:
      - discard: discard
stock_out:
  when: count(stock) == 0
  result: score
match:
  ends_when: deal.number >= %(deals)d
  on_tie: shared
  next_dealer: next_seat(dealer)
"""
DECK = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"]


def drawing(extra: str, deals: int = 1) -> str:
    return scored(DRAWING % {"deals": deals} + extra)


def scored(text: str) -> str:
    """A ruleset needs `scoring`: where the test reads none, nobody scores."""
    return text if "\nscoring:" in text else text + "scoring:\n  each_player: 0\n"


def turn_of(g, seat: int) -> None:
    """The seat on turn draws and discards its first card."""
    assert g.current_player == seat
    g.apply("draw stock")
    g.apply(legal(g)[0])


@documents("counters", "counters.*.on")
def test_an_action_listed_under_on_adds_one_for_the_acting_seat():
    """`on` lists action verbs; by default each such action adds 1 to the acting seat's count (`+1 for
    the acting seat on each play`); actions not listed are not counted."""
    g = game(drawing("counters:\n  draws: {on: [draw]}\n  discards: {on: [discard]}\n"), deck=DECK, dealer=0)
    assert g.counters == {"draws": [0, 0], "discards": [0, 0]}
    g.apply("draw stock")                                  # seat 1
    assert g.counters == {"draws": [0, 1], "discards": [0, 0]}
    g.apply("discard AS")
    assert g.counters == {"draws": [0, 1], "discards": [0, 1]}
    g.apply("draw stock")                                  # seat 0
    assert g.counters == {"draws": [1, 1], "discards": [0, 1]}


@documents("counters.*.on", "scoring.each_player")
def test_a_scoring_rule_reads_each_seats_count_as_seat_dot_name():
    """Rules read the counts as `SEAT.NAME` (`player.plays_made`); an action is counted as it is made,
    so a scoring rule sees the hand's last action.  Five draws (seats 1, 0, 1, 0, 1) and five discards."""
    g = game(drawing("counters:\n  draws: {on: [draw], resets: deal}\n  discards: {on: [discard], resets: deal}\n"
                     "scoring:\n  each_player: 100 * player.draws + player.discards\n"), deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert g.is_over
    assert g.scores == [100 * 2 + 2, 100 * 3 + 3]


@documents("counters.*.resets")
def test_a_turn_count_restarts_only_for_the_seat_whose_turn_begins():
    """`resets: turn` -- the seat's own turn: a `turn` count starts again when *that seat's* turn begins;
    the other seat's count is kept until its own next turn."""
    g = game(drawing("counters:\n  draws: {on: [draw], resets: turn}\n"), deck=DECK, dealer=0)
    turn_of(g, 1)
    assert g.counters["draws"] == [0, 1]                   # seat 0's turn has begun: seat 1's count stays
    g.apply("draw stock")
    assert g.counters["draws"] == [1, 1]
    g.apply(legal(g)[0])
    assert g.counters["draws"] == [1, 0]                   # seat 1's turn begins: only its count restarts
    g.apply("draw stock")
    assert g.counters["draws"] == [1, 1]


@documents("counters.*.resets", "scoring.each_player")
def test_a_turn_count_of_the_seat_not_on_turn_is_seen_by_scoring():
    """A `turn` count of a seat whose turn has not begun again keeps its last turn's value, and scoring
    reads it: the hand ends after seat 1's turn, when seat 0 still holds the draw of its own last turn."""
    g = game(drawing("counters:\n  draws: {on: [draw], resets: turn}\n"
                     "scoring:\n  each_player: player.draws\n"), deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert g.is_over and g.scores == [1, 1]


@documents("counters.*.resets")
def test_a_deal_count_restarts_with_each_hand_and_a_match_count_never():
    """`deal` counts start again with each hand; `match` counts never do (`resets` defaults to deal)."""
    text = drawing("counters:\n  per_deal: {on: [discard], resets: deal}\n  ever: {on: [discard], resets: match}\n"
                   "  default: {on: [discard]}\n", deals=2)
    g = game(text, deck=DECK, decks=[DECK], dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert g.hand_number == 2 and not g.is_over
    assert g.counters == {"per_deal": [0, 0], "ever": [2, 3], "default": [0, 0]}
    first = g.current_player                                # the new dealer's left
    turn_of(g, first)
    assert g.counters["ever"][first] == [2, 3][first] + 1
    assert g.counters["per_deal"][first] == 1 and g.counters["default"][first] == 1


@documents("counters.*.seat")
def test_seat_names_the_seat_whose_count_the_action_adds_to():
    """`seat:` names whose count an action adds to (default: the seat acting)."""
    g = game(drawing("counters:\n  fed: {on: [discard], seat: next_seat(player)}\n"), deck=DECK, dealer=0)
    turn_of(g, 1)
    assert g.counters["fed"] == [1, 0]                     # seat 1 discarded: its left, seat 0, is credited
    turn_of(g, 0)
    assert g.counters["fed"] == [1, 1]


@documents("counters.*.when")
def test_when_is_judged_in_the_position_the_action_is_made_from():
    """An action is counted only while `when` holds, judged in the position it is made from: the draws
    made from a stock of 3 cards or fewer (of 5, 4, 3, 2, 1 cards: seat 1's second and third, seat 0's
    second)."""
    g = game(drawing("counters:\n  late: {on: [draw], when: count(stock) <= 3, resets: match}\n"),
             deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert g.counters["late"] == [1, 2]


@documents("counters.*.add")
def test_add_event_size_counts_the_card_a_draw_moves():
    """`add: event.size` adds "the cards the action moves": a draw from the stock moves one card, a
    discard one."""
    g = game(drawing("counters:\n  moved: {on: [draw, discard], add: event.size}\n"), deck=DECK, dealer=0)
    g.apply("draw stock")
    assert g.counters["moved"] == [0, 1]
    g.apply("discard AS")
    assert g.counters["moved"] == [0, 2]


# A climbing game: pairs or singles of 3..6; with dealer 0 seat 1 holds 3S 3H 5S 5H, seat 0 the rest.
CLIMBING = """
name: climbing counts
players: 2
deck: {ranks: [3, 4, 5, 6], suits: [S, H]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  played: {visible: all}
  trick: {visible: all}
deal:
  - {deal: all, to: hand}
climbing:
  sizes: [1, 2]
  beats: play.size == last.size and play.rank > last.rank
  first_leader: next_seat(dealer)
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""
CLIMB_DECK = ["3S", "4S", "3H", "4H", "5S", "6S", "5H", "6H"]


@documents("counters.*.add")
def test_add_counts_the_cards_the_action_moves():
    """`add: event.size` adds the cards the action moves instead of 1."""
    g = game(scored(CLIMBING) + "counters:\n  cards_played: {on: [play], add: event.size}\n  plays: {on: [play]}\n",
             deck=CLIMB_DECK, dealer=0)
    g.apply("play 3S 3H")
    assert g.counters == {"cards_played": [0, 2], "plays": [0, 1]}
    g.apply("play 4S 4H")
    assert g.counters == {"cards_played": [2, 2], "plays": [1, 1]}
    g.apply("pass")
    g.apply("play 6S")
    assert g.counters == {"cards_played": [3, 2], "plays": [2, 1]}


@documents("counters.*.resets")
def test_a_turn_count_restarts_only_for_the_climbing_seat_whose_turn_begins():
    """`resets: turn` in a climbing game: the count starts again when that seat's turn begins, and
    only that seat's."""
    g = game(scored(CLIMBING) + "counters:\n  per_turn: {on: [play, pass], resets: turn}\n",
             deck=CLIMB_DECK, dealer=0)
    g.apply("play 3S 3H")
    assert g.counters["per_turn"] == [0, 1]                # seat 0 is on turn; seat 1 keeps its count
    g.apply("play 4S 4H")
    assert g.counters["per_turn"] == [1, 0]                # seat 1's turn begins: only its count restarts
    g.apply("pass")
    assert g.counters["per_turn"][1] == 1                  # seat 1's pass, counted


@documents("counters.*.resets")
def test_a_turn_count_restarts_when_the_trick_winner_leads_again():
    """`resets: turn`: a `turn` count starts again when that seat's turn begins -- also the turn in which
    it leads the next trick, having taken the last one."""
    g = game(scored(CLIMBING) + "counters:\n  per_turn: {on: [play, pass], resets: turn}\n",
             deck=CLIMB_DECK, dealer=0)
    g.apply("play 3S 3H")
    g.apply("play 4S 4H")                                  # seat 0: its count is 1
    g.apply("pass")                                        # the trick ends; seat 0 leads: a new turn
    assert g.current_player == 0
    assert g.counters["per_turn"] == [0, 1]


@documents("counters.*.resets")
def test_a_trick_count_restarts_when_a_climbing_trick_ends():
    """`resets: trick`: the count starts again when a trick ends (every other player has passed)."""
    g = game(scored(CLIMBING) + "counters:\n  in_trick: {on: [play], resets: trick}\n  in_deal: {on: [play]}\n",
             deck=CLIMB_DECK, dealer=0)
    g.apply("play 3S 3H")
    assert g.counters["in_trick"] == [0, 1]
    g.apply("play 4S 4H")
    g.apply("pass")                                        # seat 1 passes: seat 0's pair takes the trick
    assert g.counters == {"in_trick": [0, 0], "in_deal": [1, 1]}


# A trick-taking game: with dealer 0 seat 1 holds 2S 4S 2H 4H, seat 0 holds 3S 5S 3H 5H; seat 1 leads.
TRICKS = """
name: trick counts
players: 2
deck: {ranks: [2, 3, 4, 5], suits: [S, H]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  taken: {per: player, visible: all}
deal:
  - {deal: all, to: hand}
tricks:
  first_leader: next_seat(dealer)
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""
TRICK_DECK = ["2S", "3S", "4S", "5S", "2H", "3H", "4H", "5H"]


@documents("counters.*.resets")
def test_a_trick_count_restarts_when_a_trick_is_taken():
    """`resets: trick`: a `trick` count starts again when a trick ends; a `deal` count goes on."""
    g = game(scored(TRICKS) + "counters:\n  in_trick: {on: [play], resets: trick}\n  in_deal: {on: [play]}\n",
             deck=TRICK_DECK, dealer=0)
    g.apply("play 2S")
    assert g.counters == {"in_trick": [0, 1], "in_deal": [0, 1]}
    g.apply("play 3S")                                     # the trick ends: seat 0 takes it and leads
    assert g.counters == {"in_trick": [0, 0], "in_deal": [1, 1]}
    assert g.current_player == 0
    g.apply("play 5S")
    assert g.counters == {"in_trick": [1, 0], "in_deal": [2, 1]}


@documents("counters.*.resets")
def test_a_turn_count_restarts_for_each_play_to_a_trick():
    """`resets: turn`: a `turn` count starts again when that seat's turn begins -- in trick play, each
    time the seat is to play a card; so a count of plays per turn never passes 1."""
    g = game(scored(TRICKS) + "counters:\n  per_turn: {on: [play], resets: turn}\n", deck=TRICK_DECK, dealer=0)
    g.apply("play 2S")                                     # seat 1 plays; seat 0's turn begins
    assert g.counters["per_turn"] == [0, 1]
    g.apply("play 3S")                                     # 3S takes the trick: seat 0 is on turn again
    assert g.current_player == 0 and g.counters["per_turn"] == [0, 1]     # ... a new turn, counted afresh
    g.apply("play 5S")                                     # seat 0's second turn; then seat 1's begins
    assert g.counters["per_turn"] == [1, 0]
