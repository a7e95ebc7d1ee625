"""Books (docs/language.md, "Partnerships": `table.closes_at`, `books`, `books_stay_open`,
`one_open_per_rank`): a group meld that reaches `closes_at` cards is a book, closed and typed by
`books`; it may stay open; no second unfinished meld of a rank.  Two decks of A..8 and a joker each."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: books
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: 1, copies: 2, values: {A: 1, joker: 20}}
wild: is_joker(card)
melds:
  group: {kind: group, min: 3, max: 6, wild_ratio: naturals >= 2 * wilds}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 8, to: hand}, {turn_up: discard}]
table: {owner: player, %s}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: '100 * team_books(player, "clean") + 10 * team_books(player, "dirty") + count(hand)'}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""
BOOKS = "closes_at: 4, books: {clean: wilds == 0, dirty: wilds > 0}"
SEAT0 = ["AS", "AH", "2D", "3C", "4S", "6H", "7D", "8C"]


def stack(seat1, seat0, up, stock):
    return dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS] * 2 + ["Jk", "Jk"],
                 then=[up, *stock])


def seat1_draws(table, hand, drawn="8H", stock=("7C", "6C")):
    g = game(RULES % table, stack(hand, SEAT0, "2S", [drawn] + list(stock)), dealer=0)
    g.apply("draw stock")
    return g


def layoffs(g):
    return sorted(a for a in legal(g) if a.startswith("layoff"))


def books(g):
    return [m.get("book") for m in g.view(0)["melds"]]


@documents("table.closes_at", "table.books")
def test_a_meld_of_closes_at_cards_is_a_book_closed_and_typed():
    """`closes_at: 4`: a meld of 4 is a book: closed (it takes no more cards), typed by `books` at
    completion (`clean: wilds == 0`)."""
    g = seat1_draws(BOOKS, ["5S", "5H", "5D", "5C", "Jk", "7H", "3S", "3H"])
    g.apply("meld 5S 5H 5D")
    assert books(g) == [None]
    assert [a.split("=")[0] for a in layoffs(g)] == ["layoff 5C on 1", "layoff Jk"]
    g.apply("layoff 5C on 1")
    assert books(g) == ["clean"]
    assert layoffs(g) == []                                  # closed: not even the joker
    g = seat1_draws("books: {clean: wilds == 0, dirty: wilds > 0}", ["5S", "5H", "5D", "5C", "Jk", "7H", "3S", "3H"])
    g.apply("meld 5S 5H 5D")
    g.apply("layoff 5C on 1")
    assert books(g) == [None] and [a.split("=")[0] for a in layoffs(g)] == ["layoff Jk"]   # no closes_at


@documents("table.books")
def test_a_book_is_typed_by_the_first_condition_that_holds_and_scored():
    """`books: {clean: ..., dirty: ...}`: a book's type at completion, over `naturals` and `wilds`;
    `team_books(side, "clean")` counts a side's books of a type (here 100 a clean book, 10 a dirty one,
    plus the cards left in hand)."""
    g = seat1_draws(BOOKS, ["5S", "5H", "5D", "Jk", "7S", "7H", "7D", "7C"], drawn="8H")
    g.apply("meld 5S 5H 5D")
    g.apply(next(a for a in legal(g) if a.startswith("layoff Jk")))
    g.apply("meld 7S 7H 7D")
    g.apply("layoff 7C on 2")
    assert books(g) == ["dirty", "clean"]
    g.apply("discard 8H")
    assert g.is_over and g.scores == [8, 110]


@documents("table.books_stay_open")
def test_an_open_book_keeps_taking_cards_and_is_typed_again():
    """`books_stay_open: true`: a book keeps taking cards up to the meld type's `max`, typed again as they
    join."""
    g = seat1_draws(BOOKS + ", books_stay_open: true", ["5S", "5H", "5D", "5C", "Jk", "5S", "3S", "3H"])
    g.apply("meld 5S 5H 5D")
    g.apply("layoff 5C on 1")
    assert books(g) == ["clean"]
    assert [a.split("=")[0] for a in layoffs(g)] == ["layoff 5S on 1", "layoff Jk"]
    g.apply(next(a for a in legal(g) if a.startswith("layoff Jk")))
    assert books(g) == ["dirty"] and len(g.view(0)["melds"][0]["cards"]) == 5
    g.apply("layoff 5S on 1")
    assert books(g) == ["dirty"] and layoffs(g) == []        # max 6


@documents("table.one_open_per_rank")
def test_no_second_unfinished_meld_of_a_rank():
    """`one_open_per_rank: true`: no second unfinished meld of a rank (per owner); once the first is a
    closed book, a new one may start."""
    hand = ["5S", "5H", "5D", "5S", "5H", "5D", "5C", "3H"]
    g = seat1_draws(BOOKS + ", one_open_per_rank: true", hand)
    g.apply("meld 5S 5H 5D")
    assert [a for a in legal(g) if a.startswith("meld")] == []
    g.apply("layoff 5C on 1")                                # a book: the rank is free again
    assert [a for a in legal(g) if a.startswith("meld")] == ["meld 5S 5H 5D"]
    g = seat1_draws(BOOKS, hand)
    g.apply("meld 5S 5H 5D")
    assert sorted(a for a in legal(g) if a.startswith("meld")) == [      # without it: 3 of 5S 5H 5D 5C
        "meld 5H 5D 5C", "meld 5S 5D 5C", "meld 5S 5H 5C", "meld 5S 5H 5D"]


@documents("table.books_stay_open", "table.one_open_per_rank")
def test_an_open_book_holds_its_rank_open():
    """With `books_stay_open` a book holds its rank open: no second meld of its rank while it is open
    (with `one_open_per_rank`)."""
    hand = ["5S", "5H", "5D", "5S", "5H", "5D", "5C", "3H"]
    g = seat1_draws(BOOKS + ", one_open_per_rank: true, books_stay_open: true", hand)
    g.apply("meld 5S 5H 5D")
    g.apply("layoff 5C on 1")
    assert books(g) == ["clean"]
    assert [a for a in legal(g) if a.startswith("meld")] == []
