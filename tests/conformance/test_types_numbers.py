"""Conformance: "A number is a number" (docs/language.md, "Types are checked at load").  A key that a rule
reads as a number -- a score, a value, a count -- must give one; a text, true or false, a list or nothing
there is `E-TYPE`, reported where it is written, each branch of an `if` judged on its own; so are cards
(a zone, `top(stock)`), which once loaded as a score and stopped the first scoring with a `TypeError`.  (Such a file
once loaded and then stopped in play with a Python `TypeError`.)"""

from __future__ import annotations

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import rules
from conformance.test_tricks_play import ruleset


def refused(text: str):
    """The one diagnostic ``text`` is refused with."""
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rules(text)
    (d,) = exc.value.diagnostics
    return d


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@documents("scoring.each_player", "params")
@pytest.mark.parametrize("scoring,extra,gives", [
    ("  each_player: null\n", "", "nothing (none)"),
    ("  each_player: '\"many\"'\n", "", "a text"),
    ("  each_player: tricks(player) > 2\n", "", "true or false"),
    ("  each_player: 'if tricks(player) > 0 then params.bonus else 0'\n", "params: {bonus: [1, 2]}\n", "a list"),
    ("  each_player: 'if tricks(player) > 0 then 1 else \"none\"'\n", "", "a text"),
    ("  each_player: stock\n", "", "cards (a list of them)"),
    ("  each_player: player.hand\n", "", "cards (a list of them)"),
    ("  each_player: 'if tricks(player) > 0 then top(stock) else 0'\n", "", "a card"),
])
def test_a_score_that_gives_no_number_is_refused_where_it_is_written(scoring, extra, gives):
    text = extra + ruleset(scoring=scoring)
    d = refused(text)
    assert d.code == "E-TYPE" and f"stands where a number must be, but it gives {gives}" in d.message
    assert d.pos.line == line_of(text, "each_player") and d.hint


@documents("tricks.strength", "counters.*.add", "scoring.multiplier")
@pytest.mark.parametrize("tricks,scoring,key", [
    ("  strength: 'card_suit(card)'\n", "  each_player: tricks(player)\n", "strength"),
    ("", "  each_player: tricks(player)\n  multiplier: '[2]'\n", "multiplier"),
])
def test_other_numbers_are_numbers_too(tricks, scoring, key):
    text = ruleset(tricks=tricks, scoring=scoring)
    d = refused(text)
    assert d.code == "E-TYPE" and "where a number must be" in d.message and d.pos.line == line_of(text, key)


@documents("scoring.each_player")
def test_a_number_read_from_a_list_or_chosen_by_if_still_loads_and_scores():
    """What may be a number is not refused: an item of a list parameter, an `if` of two numbers."""
    text = "params: {bonus: [1, 2]}\n" + ruleset(
        scoring="  each_player: 'if tricks(player) > 0 then params.bonus[1] else tricks(player)'\n")
    assert rules(text).model.scoring.each_player is not None


@documents("params")
@pytest.mark.parametrize("symbol", ["*", "-"])
def test_arithmetic_on_a_word_stops_the_game_saying_which_operator_takes_numbers(symbol):
    """What the load cannot see (an item of a list of words, multiplied) stops the game at the rule, in the
    rule's own terms.  Catches expr/compiler.py `_numbers_only` naming its operator only after the early
    return for `*`: a product of a word failed with a NameError about the compiler's own variable."""
    from conformance.play import game
    text = "params: {xs: [a, b]}\n" + ruleset(scoring=f"  each_player: 'params.xs[0] {symbol} tricks(player)'\n")
    g = game(text)
    with pytest.raises(rulesdsl.RuleEvaluationError) as stopped:
        while not g.is_over:
            g.apply(g.legal_actions()[0])
    assert stopped.value.rule == "scoring.each_player"
    assert f"`{symbol}` takes numbers, not str and int" in str(stopped.value)


@documents("params")
@pytest.mark.parametrize("declared", ["{default: {}}", "{default: {a: 1}}"])
def test_a_parameter_is_never_a_mapping(declared):
    """A parameter is a number, true or false, a word or a list: a mapping as its default is
    `E-TYPE` where it is written (it once loaded, and the first rule that read it stopped the game)."""
    text = f"params: {{x: {declared}}}\n" + ruleset()
    d = refused(text)
    assert d.code == "E-TYPE" and "parameter `x` is a mapping" in d.message and d.pos.line == 1


@documents("params")
@pytest.mark.parametrize("scoring,extra,words", [
    ("  each_player: 'params.w * tricks(player)'\n", "params: {w: high}\n", "`*` is given a text and a number"),
    ("  each_player: 'tricks(player) % params.xs'\n", "params: {xs: [1, 2]}\n", "`%` is given a number and a list"),
    ("  each_player: 'tricks(player) + params.w'\n", "params: {w: high}\n", "`+` is given a number and a text"),
    ("  each_player: 'count(hand) + params.xs'\n", "params: {xs: [1, 2]}\n", "`+` is given a number and a list"),
    ("  each_player: 'count(hand) - player.hand'\n", "", "`-` is given a number and cards"),
    ("  each_player: 'top(stock) + 1'\n", "", "`+` is given a card and a number"),
])
def test_arithmetic_that_can_never_run_is_refused_where_it_is_written(scoring, extra, words):
    """docs/language.md: arithmetic on a text, a list or nothing (`+` joining only texts with texts, lists with
    lists) is `E-TYPE` at load (a parameter of another kind once loaded, and stopped the game at the rule)."""
    text = extra + ruleset(scoring=scoring)
    d = refused(text)
    assert d.code == "E-TYPE" and "cannot be computed" in d.message and words in d.message, d.message


@documents("match.ends_when", "params")
def test_ordering_a_number_with_a_list_is_refused_where_it_is_written():
    text = "params: {target: [100]}\n" + ruleset().replace("ends_when: deal.number >= 1",
                                                         "ends_when: deal.number >= params.target")
    d = refused(text)
    assert d.code == "E-TYPE" and "cannot be ordered with `>=`" in d.message and d.pos.line == line_of(text, "ends_when")


def test_arithmetic_of_numbers_and_truth_values_and_joins_of_one_kind_still_load():
    text = "params: {xs: [1, 2], w: high}\n" + ruleset(
        scoring="  each_player: 'tricks(player) * 2 + (tricks(player) > 1) + count(params.xs + [3])"
                " + count(player.hand + player.taken)'\n")
    assert rules(text).model.scoring.each_player is not None


# --------------------------------------------------------------------- a seat is a seat, a card a card
@documents("tricks.first_leader", "match.next_dealer")
@pytest.mark.parametrize("line,gives", [
    ("  first_leader: 'true'\n", "true or false"),
    ("  first_leader: '\"2S\"'\n", "a text"),
    ("  first_leader: 'if deal.number > 1 then next_seat(dealer) else player.hand'\n", "cards (a list of them)"),
    ("  first_leader: 'none'\n", "nothing (none)"),
])
def test_a_seat_that_gives_no_seat_is_refused_where_it_is_written(line, gives):
    """docs/language.md: a key that names a seat (`first_leader`, `next_dealer`, `bidding.first`, a deal's
    or a counter's `seat`, `drops_to_last`, an exchange's `to`) must give one; each branch of an `if` is
    judged.  (`first_leader: "true"` once loaded and stopped the first trick: "gives True; it must be a
    seat".)"""
    text = ruleset(tricks=line)
    d = refused(text)
    assert d.code == "E-TYPE" and f"stands where a seat must be, but it gives {gives}" in d.message, d.message
    assert d.pos.line == line_of(text, "first_leader") and "next_seat(dealer)" in d.hint


def test_none_is_a_seat_only_where_it_means_no_seat():
    """`match.next_dealer` may give none (the dealer deals again), so `none` there loads; in
    `first_leader` it is refused (above)."""
    text = ruleset().replace("match:\n", "match:\n  next_dealer: 'if deal.number > 1 then none else next_seat(dealer)'\n")
    assert rules(text).model.match.next_dealer is not None
    d = refused(ruleset().replace("match:\n", "match:\n  next_dealer: '\"N\"'\n"))
    assert d.code == "E-TYPE" and "or none for no seat" in d.hint


@documents("tricks.opening_lead")
@pytest.mark.parametrize("line,words", [
    ("  opening_lead: '\"2Z\"'\n", "\"2Z\" stands where a card must be, but it is no card of this deck"),
    ("  opening_lead: 'count(hand)'\n", "stands where a card must be, but it gives a number"),
    ("  opening_lead: 'if deal.number > 1 then \"2S\" else player.hand'\n",
     "stands where a card must be, but it gives cards"),
])
def test_a_card_that_is_no_card_is_refused_where_it_is_written(line, words):
    """docs/language.md: a key that names a card (`opening_lead`, `opening_play_includes`) gives its text, or
    none; a text that is no card of the deck, a number or cards is `E-TYPE`.  (`opening_lead: "2Z"` once
    loaded and stopped the first lead.)"""
    text = ruleset(tricks=line)
    d = refused(text)
    assert d.code == "E-TYPE" and words in d.message, d.message
    assert d.pos.line == line_of(text, "opening_lead")
    loads = ruleset(tricks="  opening_lead: 'if deal.number > 1 then none else \"2S\"'\n")
    assert rules(loads).model.tricks.opening_lead is not None


@documents("tricks.opening_lead", "derived", "params")
def test_a_card_text_in_a_derived_value_or_a_parameter_is_checked_where_it_is_written():
    """The card a key names may come from a derived value or a parameter: a text there that is no card is
    refused too, at the derived value's text or at the key that reads the parameter."""
    text = "derived:\n  lead: 'if players == 3 then \"9S\" else \"2S\"'\n" + ruleset(tricks="  opening_lead: lead\n")
    d = refused(text)
    assert d.code == "E-TYPE" and '"9S" stands where a card must be' in d.message and d.pos.line == line_of(text, "lead:")
    text = "params: {lead: 7S}\n" + ruleset(tricks="  opening_lead: params.lead\n")
    d = refused(text)
    assert d.code == "E-TYPE" and 'parameter `lead` is "7S"' in d.message and d.pos.line == line_of(text, "opening_lead")
    assert rules("params: {lead: 3S}\n" + ruleset(tricks="  opening_lead: params.lead\n")) is not None


@documents("tricks.opening_lead")
def test_a_card_text_made_in_play_that_is_no_card_stops_the_first_lead_naming_the_rule():
    """A text put together in play cannot be judged at load: when it is no card of the deck, the first
    trick stops with a located error naming `opening_lead`, rather than leading freely.  Catches the
    test for it turned round (`text is not None` -> `is None`)."""
    from conformance.play import game
    text = ruleset(tricks="  opening_lead: 'rank(top(stock)) + \"Z\"'\n")
    with pytest.raises(rulesdsl.RuleEvaluationError) as exc:
        game(text, seed=1)
    assert "`opening_lead` gives" in str(exc.value) and "not a card of this deck" in str(exc.value)
