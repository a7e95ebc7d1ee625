"""Conformance: expressions are typed at load (docs/language.md, "Expressions", "Types are checked at
load"), checked on the tiny draw-and-discard game of test_setup_game (eight cards, A..4 in two suits): a name whose kind is known before play (`players` a number, `ending` a text) is refused
where it can never do what it says."""

from __future__ import annotations

import pytest

from conformance.keys import documents
from conformance.play import game, refusal
from conformance.test_setup_game import DECK, text

# The tiny draw-and-discard game of test_setup_game: with two players and dealer 0, seat 1 gets deck[0],
# deck[2], seat 0 deck[1], deck[3]; a turn draws (while `draw_when` holds) then discards, and the first
# discard ends the hand (a stock-out that is scored) and the match.


@documents("turn[].actions[].when")
@pytest.mark.parametrize("cond, gives", [("players", "a number"), ("ending", "a text")])
def test_a_bare_name_of_a_number_or_a_text_is_no_condition(cond, gives):
    """docs/language.md: a condition must give true or false; one that gives a number or a text is
    `E-TYPE`.  `players` is the number of players and `ending` a text (the names table), so either,
    written bare as a `when:`, is refused where it is written.  Catches the static type of a bare name
    being forgotten (every name then "unknown", so nothing is refused)."""
    out = refusal(text(draw_when=cond))
    assert f"error[E-TYPE]: `{cond}` stands where a condition must be true or false, but it gives {gives}" in out
    g = game(text(draw_when=f'{cond} != "void"' if cond == "ending" else f"{cond} > 1"), deck=DECK, dealer=0)
    assert [str(a) for a in g.legal_actions()] == ["draw stock"]     # compared, the name is a condition


@documents("scoring.each_player")
def test_a_bare_text_name_compared_with_a_number_is_refused():
    """docs/language.md: text compared with a number is `E-TYPE`.  `ending` is a text (how the hand
    ended), so `ending == 5` can never hold and is refused; compared with a text, it is no type error
    (the hand here ends by a stock-out, `ending` "stock", so every seat scores 1).  Catches the static
    type of a bare name being forgotten."""
    out = refusal(text(score="if ending == 5 then 1 else 0"))
    assert "error[E-TYPE]: `ending` is text and `5` a number: `ending == 5` is always false" in out
    g = game(text(score='if ending == "stock" then 1 else 0'), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.is_over and g.scores == [1, 1]


@documents("scoring.each_player")
def test_a_comprehension_under_a_name_that_is_no_aggregate_is_refused():
    """docs/language.md: the aggregates are `sum`, `count`, `max`, `min`, `any`, `all` over a list or a
    comprehension; a comprehension under any other name (`total(c for c in hand)`) names something
    unknown and is refused at load with `E-UNDEFINED`, listing the aggregates; under `count` it loads
    (two cards left in each hand here, so every seat scores 2).  Catches the check for an unknown
    aggregate being dropped."""
    out = refusal(text(score="total(c for c in hand)"))
    assert "error[E-UNDEFINED]: `total(... for ... in ...)` is not an aggregate" in out, out
    assert "aggregates: all, any, count, max, min, sum" in out, out
    g = game(text(score="count(c for c in hand)"), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.is_over and g.scores == [2, 2]


@documents("scoring.each_player")
def test_a_choice_between_a_card_and_none_is_compared_as_a_card():
    """docs/language.md: a text compared with a card names that card, and a branch of `none` leaves the
    other branch's kind, so `(if ... then top(discard) else none) == "AS"` compares the top discard with
    the ace of spades.  Seat 1 discards AS, ending the hand: the top discard is AS, so every seat scores 1
    (and 0 against "2S"); a text that is no card of the deck is refused there too.  Catches the choice
    losing its card kind (the comparison then never holds)."""
    choice = "(if count(discard) > 0 then top(discard) else none)"
    for named, want in (('"AS"', [1, 1]), ('"2S"', [0, 0])):
        g = game(text(score=f"if {choice} == {named} then 1 else 0"), deck=DECK, dealer=0)
        g.apply("draw stock")
        g.apply("discard AS")
        assert g.is_over and g.scores == want, named
    out = refusal(text(score=f'if {choice} == "AX" then 1 else 0'))
    assert 'error[E-TYPE]: "AX" is compared with a card, but it is no card of this deck' in out, out


@documents("derived", "scoring.each_player")
def test_a_derived_value_that_gives_a_card_is_compared_as_a_card():
    """docs/language.md: a derived value that gives a card (`up: top(discard)`) is a card wherever it is
    read, so `up == "AS"` names the ace of spades and `up == "AX"` is refused at load.  Catches the card
    kind lost through the derived value's name (the comparison then loaded, and never held)."""
    extra = "derived:\n  up: 'if count(discard) > 0 then top(discard) else none'\n"
    for named, want in (('"AS"', [1, 1]), ('"2S"', [0, 0])):
        g = game(text(extra, score=f"if up == {named} then 1 else 0"), deck=DECK, dealer=0)
        g.apply("draw stock")
        g.apply("discard AS")
        assert g.is_over and g.scores == want, named
    out = refusal(text(extra, score='if up == "AX" then 1 else 0'))
    assert 'error[E-TYPE]: "AX" is compared with a card, but it is no card of this deck' in out, out


@pytest.mark.parametrize("bad", [") + 1", "== 2"])
def test_an_expression_that_cannot_start_so_is_located_at_its_first_character(bad):
    """docs/language.md: every problem is `path:line:col`; a syntax error is located at the token the
    parser could not take.  Here that is the expression's very first character (the line and column
    where it is written in the file).  Catches the offset of an error at the start being moved one
    character on."""
    src = text(score=bad)
    line_no, line = next((n, ln) for n, ln in enumerate(src.splitlines(), 1) if bad in ln)
    out = refusal(src)
    assert f"conformance.yaml:{line_no}:{line.index(bad) + 1}: error[E-EXPR-SYNTAX]" in out, out


@documents("scoring.each_player")
def test_an_expression_nested_past_the_limits_is_refused_where_it_goes_too_deep():
    """docs/language.md, Limits: brackets nest at most 64 deep and operators 256; past that the expression
    is `E-DEPTH`, located at the bracket (or operator) that goes too deep, with the hint to split it -- not a
    syntax error.  At the limit it loads and computes (every seat scores 1).  Catches the depth error
    being reported as "cannot parse expression"."""
    out = refusal(text(score="(" * 65 + "1" + ")" * 65))
    assert "conformance.yaml:24:79: error[E-DEPTH]: brackets nested too deeply (the limit is 64 levels)" in out
    assert "hint: split it into derived values" in out and "cannot parse" not in out
    out = refusal(text(score="if " + "not " * 300 + "true then 1 else 0"))
    assert "error[E-DEPTH]: expressions nested too deeply (the limit is 256 levels)" in out
    g = game(text(score="(" * 60 + "1" + ")" * 60), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.is_over and g.scores == [1, 1]


@documents("scoring.each_player")
def test_a_seats_score_is_a_number_and_its_zones_are_not():
    """docs/language.md: text compared with a number is `E-TYPE`.  A seat's `score`, `hands_won` and
    `deadwood` are numbers, so `dealer.score == "A"` is refused; a seat's zone (`dealer.hand`) is cards, not
    a number, so comparing it with a text is not refused as number-against-text, and compared with a number
    the score scores (seat 0 deals; every seat's total is still 0, so each scores 1).  Catches the static
    type of a seat's attributes given to the wrong ones."""
    for attr in ("score", "hands_won", "deadwood"):
        out = refusal(text(score=f'if dealer.{attr} == "A" then 1 else 0'))
        assert f'error[E-TYPE]: `"A"` is text and `dealer.{attr}` a number' in out, out
    assert game(text(score='if dealer.hand == "A" then 1 else 0'), deck=DECK, dealer=0) is not None
    g = game(text(score="if dealer.score == 0 then 1 else 0"), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.is_over and g.scores == [1, 1]
