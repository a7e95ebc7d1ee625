"""Books and going out (docs/language.md, "Partnerships": `table.closes_at`, `books`, `going_out` with
`permission`): "`ask: partner` (a turn action) is offered when the going-out condition holds and the hand
can be melded down" -- counting the books the hand's own cards would complete this turn."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

# Two teams (seat 1's partner is seat 3); groups of one rank, the joker wild; a group of `closes_at` cards
# is a book, clean without a wild card, dirty with one.  Going out needs the discard of the last card.
TEAMS = """
name: books and asking
players: 4
teams: {count: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: 1, values: {A: 1, joker: 20}}
wild: is_joker(card)
melds:
  group: {kind: group, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: %(deal)d, to: hand}, {turn_up: discard}]
table:
  owner: team
  closes_at: %(closes)d
  books: {clean: wilds == 0, dirty: wilds > 0}
  going_out: {when: 'team_books(team_of(player), "%(book)s") >= 1', needs_discard: true, permission: true}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {ask: partner}, {discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_team: melded_value(team)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""
OTHERS = {0: ["4H", "4D", "6D", "6C"], 2: ["7H", "7D", "8D", "8C"], 3: ["AH", "2H", "AD", "2D"]}


def seat1_draws(hand: list, drawn: str, closes: int, book: str):
    n = len(hand)
    hands = {1: hand, **{s: h[:n] for s, h in OTHERS.items()}}
    deck = [r + s for s in "SHDC" for r in RANKS] + ["Jk"]
    g = game(TEAMS % {"deal": n, "closes": closes, "book": book}, dealt(hands, deck, then=["7C", drawn, "6H"]),
             dealer=0)
    g.apply("draw stock")
    assert g.current_player == 1
    return g


@documents("table.books", "table.going_out.permission")
def test_a_book_the_hands_wild_card_would_complete_lets_the_player_ask():
    """Seat 1 holds 5S 5H 5D and the joker and draws the 8H.  Books close at 4: three 5s and the joker
    make a dirty book, then the 8H is discarded, so a going-out condition of one dirty book can be met
    this turn and `ask` is offered; one of a clean book cannot (there is no fourth 5), and it is not.
    Catches the going-out look-ahead (partnership.py `_book_potential`) counting a new book's naturals as
    `close + w` for `close - w`: no book with a wild card seems possible and `ask` is not offered."""
    assert "ask" in legal(seat1_draws(["5S", "5H", "5D", "Jk"], "8H", closes=4, book="dirty"))
    assert "ask" not in legal(seat1_draws(["5S", "5H", "5D", "Jk"], "8H", closes=4, book="clean"))


@documents("table.closes_at", "table.going_out.permission")
def test_a_new_meld_of_closes_at_cards_is_a_book_for_asking_too():
    """Books close at 3, a group's smallest size: seat 1's new meld of 5S 5H 5D is at once a clean book,
    and the 8H is left to discard, so a condition of one clean book can be met and `ask` is offered
    (none of a dirty one: no wild card).  Catches the look-ahead's meld-down search (partnership.py
    `_down`) leaving a new meld of that size unclosed (`close_book(g, new)` dropped): it then counts no
    book and `ask` is not offered."""
    assert "ask" in legal(seat1_draws(["5S", "5H", "5D"], "8H", closes=3, book="clean"))
    assert "ask" not in legal(seat1_draws(["5S", "5H", "5D"], "8H", closes=3, book="dirty"))


# No books; going out needs the team's melds to be worth less than 20 when the hand is down.
LOW_VALUE = TEAMS.replace("  closes_at: %(closes)d\n  books: {clean: wilds == 0, dirty: wilds > 0}\n", "").replace(
    """'team_books(team_of(player), "%(book)s") >= 1'""", "'melded_value(team_of(player)) < 20'")


@documents("table.going_out.when", "table.going_out.permission")
def test_ask_is_not_offered_when_no_way_of_melding_down_meets_the_condition():
    """Seat 1 holds the four 5s and the joker and draws the 8H; going out needs its team's melds to be worth
    less than 20.  Melding down to the 8H puts all four 5s (20) and the joker (20) on the table, whatever
    the order, so the condition can never hold at the end and `ask` is not offered (though it holds now:
    nothing is melded).  The search reaches one position two ways (three 5s melded, then the fourth laid
    off, for each choice of the three).  Catches the search's memo of positions already found to fail
    answering yes (partnership.py `_down`, `if sig in failed: return False` -> `return True`)."""
    hands = {1: ["5S", "5H", "5D", "5C", "Jk"], 0: ["4H", "4D", "6D", "6C", "AS"], 2: ["7H", "7D", "8D", "8C", "AH"],
             3: ["AD", "2H", "3D", "2D", "3S"]}
    deck = [r + s for s in "SHDC" for r in RANKS] + ["Jk"]
    g = game(LOW_VALUE % {"deal": 5}, dealt(hands, deck, then=["7C", "8H", "6H"]), dealer=0)
    g.apply("draw stock")
    assert g.current_player == 1 and sorted(g.hand_of(1)) == ["5C", "5D", "5H", "5S", "8H", "Jk"]
    assert "ask" not in legal(g)
    assert any(a.startswith("meld 5") for a in legal(g))
