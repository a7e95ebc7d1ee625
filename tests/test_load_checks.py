"""What a ruleset makes impossible is caught at load, located where the value was written, and the
diagnostics say what is wrong in words that fit the place (issue 8, sections 1 and 2).

Each case here validated before and then dead-ended, crashed or silently did nothing in play.  The
expected numbers are worked out from the rules, not read back from the engine: Gin deals 10 cards to
each of 2 players from 52 and turns one up; Hand and Foot's `min_meld` is four numbers; President's
deck holds four cards of each rank.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.source.resolve import bundled, bundled_names
from rulesdsl.source.tree import Pos


def _errors(name, overrides=None, where=None):
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(name, overrides, where)
    return exc.value.diagnostics


def _one(diags, code):
    """The single diagnostic of ``code``; every diagnostic is located and carries a hint."""
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, [d.format() for d in diags]
    d = found[0]
    assert d.pos.line >= 1 and d.pos.col >= 1, d.format()
    assert d.hint, d.format()
    return d


def _set(**values):
    """Overrides as the CLI gives them: each remembers the `--set` text that wrote it."""
    return values, {k: Pos(f"--set {k}={v}", 1, 1) for k, v in values.items()}


def _file(tmp_path: Path, text: str, name: str = "r.yaml") -> str:
    f = tmp_path / name
    f.write_text(text)
    return str(f)


def _load_file(tmp_path, text):
    return _errors(_file(tmp_path, text))


# ------------------------------------------------------------------ 1. impossible by the numbers

def test_gin_hand_size_zero_is_refused_at_the_override():
    d = _one(_errors("gin_rummy", *_set(hand_size=0)), "E-RANGE")       # hand_size is declared `min: 1`
    assert d.pos.path == "--set hand_size=0"
    assert "`hand_size` is 0; it must be at least 1" in d.message


def test_a_deal_that_gives_nobody_a_card_in_hand_is_refused_at_the_override(tmp_path):
    f = _file(tmp_path, "extends: gin_rummy\nparams:\n  hand_size: {default: 10, min: 0}\n")   # a lower bound
    d = _one(_errors(f, *_set(hand_size=0)), "E-DEAL")
    assert d.pos.path == "--set hand_size=0"
    assert "`hand`" in d.message


def test_gin_stock_left_at_or_below_the_floor_after_the_deal_is_refused():
    # 52 - 2 * 25 - 1 upcard = 1 card left, and the hand ends when the stock holds <= 2
    d = _one(_errors("gin_rummy", *_set(hand_size=25)), "E-STOCK-OUT")
    assert d.pos.path == "--set hand_size=25"
    assert "1 card" in d.message
    # 52 - 2 * 24 - 1 = 3 cards left: one more than the floor, the hand can be played
    rulesdsl.load("gin_rummy", {"hand_size": 24})


def test_gin_stock_floor_above_the_stock_is_refused():
    # 52 - 20 - 1 = 31 cards left, below a floor of 1000
    d = _one(_errors("gin_rummy", *_set(stock_floor=1000)), "E-STOCK-OUT")
    assert d.pos.path == "--set stock_floor=1000"
    assert "31 card" in d.message
    rulesdsl.load("gin_rummy", {"stock_floor": 30})            # 31 > 30: the hand starts


def test_deal_larger_than_the_deck_is_located_at_the_variant_line(tmp_path):
    f = _file(tmp_path, "extends: gin_rummy\nparams:\n  hand_size: 26\n")     # 52 + 1 upcard > 52
    d = _one(_errors(f), "E-DEAL-TOO-MANY")
    assert (Path(d.pos.path).name, d.pos.line) == ("r.yaml", 3)
    assert "53" in d.message and "52" in d.message


def test_hand_and_foot_draw_and_take_counts_must_move_a_card():
    diags = _errors("hand_and_foot", *_set(pile_take_count=-1, stock_draw_count=0))
    codes = [d for d in diags if d.code == "E-COUNT"]
    assert {d.pos.path for d in codes} == {"--set pile_take_count=-1", "--set stock_draw_count=0"}
    for d in codes:
        assert d.hint
    rulesdsl.load("hand_and_foot", {"stock_draw_count": 1, "pile_take_count": 1})


@pytest.mark.parametrize("sizes", ["[4, 4]", "[2, 4]", "[1, 5]"])
def test_president_play_sizes_no_hand_can_lead_or_hold(tmp_path, sizes):
    # a lead is never passed, so a hand of single cards must be able to lead: min 1; and a deck of
    # four suits never holds five cards of one rank
    d = _one(_load_file(tmp_path, f"extends: president\nclimbing: {{sizes: {sizes}}}\n"), "E-CLIMB-SIZES")
    assert d.pos.line == 2


def test_president_sizes_one_to_four_still_load(tmp_path):
    rules = rulesdsl.load(_file(tmp_path, "extends: president\nclimbing: {sizes: [1, 3]}\n"))
    assert tuple(rules.model.climbing.sizes) == (1, 3)


# ------------------------------------------------------------------ 2. parameter lists

def test_list_parameter_of_the_wrong_length_is_refused_at_the_override():
    d = _one(_errors("hand_and_foot", *_set(min_meld=[50])), "E-TYPE")
    assert d.pos.path == "--set min_meld=[50]"
    assert "4" in d.message and "1" in d.message


def test_list_parameter_with_an_item_of_another_kind_is_refused():
    d = _one(_errors("hand_and_foot", *_set(min_meld=[50, 90, "x", 150])), "E-TYPE")
    assert "`x`" in d.message


def test_list_parameter_of_the_right_shape_plays():
    rules = rulesdsl.load("hand_and_foot", {"min_meld": [10, 20, 30, 40]})
    assert rules.params["min_meld"] == (10, 20, 30, 40)


def test_list_override_in_a_variant_file_is_located_there(tmp_path):
    f = _file(tmp_path, "extends: hand_and_foot\nparams:\n  min_meld: [50, 90]\n")
    d = _one(_errors(f), "E-TYPE")
    assert (Path(d.pos.path).name, d.pos.line) == ("r.yaml", 3)


def test_length_any_declares_a_list_of_any_length(tmp_path):
    f = _file(tmp_path, "extends: gin_rummy\nparams:\n  extra: {default: [1, 2], length: any}\n")
    assert rulesdsl.load(f, {"extra": [1, 2, 3]}).params["extra"] == (1, 2, 3)
    d = _one(_errors(f, {"extra": [1, "a"]}), "E-TYPE")
    assert "`a`" in d.message


def test_a_list_default_of_mixed_kinds_is_refused(tmp_path):
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nparams:\n  extra: {default: [1, two]}\n"), "E-TYPE")
    assert d.pos.line == 3 and "quote" in d.hint


# ------------------------------------------------------------------ 3. exchange seats

def test_exchange_seat_out_of_range(tmp_path):
    d = _one(_load_file(tmp_path, "extends: president\nexchange:\n  - {giver: 100, receiver: 1, cards: highest}\n"),
             "E-EXCHANGE")
    assert d.pos.line == 3 and "100" in d.message


@pytest.mark.parametrize("giver, receiver", [(1, 1), (-2, -2), (1, -4)])
def test_exchange_giving_to_oneself(tmp_path, giver, receiver):
    # President allows 4 to 7 players: with 4, position 1 and position -4 are the same player
    d = _one(_load_file(tmp_path, f"extends: president\nexchange:\n  - {{giver: {giver}, receiver: {receiver}, "
                                  "cards: any}\n"), "E-EXCHANGE")
    assert d.pos.line == 3


# ------------------------------------------------------------------ 4. per-seat totals in team games

@pytest.mark.parametrize("expr", ["score(player) > 5", "dealer.score > 5", "hands_won(partner(player)) > 1"])
def test_per_seat_totals_in_a_team_game(tmp_path, expr):
    d = _one(_load_file(tmp_path, f"extends: hand_and_foot\nmatch: {{ends_when: '{expr}'}}\n"), "E-TEAMS")
    assert "team_of(" in d.hint


def test_per_team_totals_in_a_team_game_load(tmp_path):
    rules = rulesdsl.load(_file(tmp_path, "extends: hand_and_foot\nmatch: {ends_when: 'score(team_of(player)) > 5000'}\n"))
    assert "score(team_of(player))" in rules.model.match.ends_when.text


# ------------------------------------------------------------------ 5. none as a parameter value

def test_a_bare_none_default_is_refused(tmp_path):
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nparams:\n  drop_max: {default: none}\n"), "E-TYPE")
    assert d.pos.line == 3 and "none" in d.message


def test_comparing_a_parameter_with_none_is_refused(tmp_path):
    d = _one(_load_file(tmp_path, 'extends: gin_rummy\nparams:\n  drop_max: {default: "none"}\n'
                                  "match: {ends_when: 'params.drop_max == none'}\n"), "E-TYPE")
    assert d.pos.line == 4
    assert '"none"' in d.hint


def test_none_as_a_declared_word_still_loads():
    assert rulesdsl.load("president").params["larger_set_beats"] == "none"


# ------------------------------------------------------------------ 6. choices of mixed kinds

def test_choices_of_mixed_kinds_are_refused_where_the_odd_one_is(tmp_path):
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nparams:\n  extra: {default: 1,\n"
                                  "          choices: [1, two]}\n"), "E-TYPE")
    assert d.pos.line == 4


# ------------------------------------------------------------------ 7. text compared with numbers

@pytest.mark.parametrize("expr", ["play.rank_name == 8", "8 != last.rank_name"])
def test_rank_name_compared_with_a_number(tmp_path, expr):
    d = _one(_load_file(tmp_path, f"extends: president\nclimbing: {{clears_trick: '{expr}'}}\n"), "E-TYPE")
    assert '"8"' in d.hint


def test_rank_compared_with_a_number_by_order(tmp_path):
    _one(_load_file(tmp_path, "extends: gin_rummy\nwild: 'rank(card) < 5'\ntable: {owner: player}\n"), "E-TYPE")


def test_like_with_like_comparisons_load(tmp_path):
    rules = rulesdsl.load(_file(tmp_path, "extends: president\nclimbing: {clears_trick: 'play.rank_name == \"8\" "
                                  "and play.size == 4'}\n"))
    assert "play.rank_name" in rules.model.climbing.clears_trick.text


# ------------------------------------------------------------------ 8. keys the mechanics ignore

@pytest.mark.parametrize("body", ["wild: is_joker(card)\n", "melds: {set: {kind: set, min: 2}}\n"])
def test_meld_keys_in_a_game_without_melds(tmp_path, body):
    _one(_load_file(tmp_path, "extends: president\n" + body), "E-IGNORED")


def test_then_after_a_discard_is_ignored(tmp_path):
    text = bundled("gin_rummy").read_text()
    text = text.replace("        rule: GIN-TURN-7\n", "        rule: GIN-TURN-7\n        then: draw\n", 1)
    _one(_load_file(tmp_path, text), "E-IGNORED")


def test_then_on_a_meld_inside_a_repeat_step_is_ignored(tmp_path):
    text = bundled("hand_and_foot").read_text()
    old = "      - meld: any                                      # HF-MELD-1..8\n"
    assert old in text
    text = text.replace(old, "      - {meld: any, then: end_turn}\n")
    d = _one(_load_file(tmp_path, text), "E-IGNORED")
    assert "repeat" in d.message


# ------------------------------------------------------------------ 9. diagnostics that fit the place

def test_a_missing_member_names_the_member(tmp_path):
    d = _one(_load_file(tmp_path, "extends: president\nclimbing: {clears_trick: play.colour == 1}\n"), "E-UNDEFINED")
    assert "`play` has no member `colour`" in d.message
    for member in ("size", "rank", "rank_name"):
        assert member in d.hint


def test_a_cycle_of_derived_values_is_reported_once(tmp_path):
    diags = _load_file(tmp_path, "extends: gin_rummy\nderived: {a: b + 1, b: c + 1, c: a + 1}\n"
                                 "match: {ends_when: 'a > 1 and b > 1 and c > 1'}\n")
    d = _one(diags, "E-CYCLE")
    assert all(f"`{n}`" in d.message for n in "abc")
    assert len(diags) == 1, [x.format() for x in diags]


def test_a_word_suggestion_comes_from_the_words_of_the_key(tmp_path):
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nmatch: {on_tie: share}\n"), "E-CHOICE")
    assert "`shared`" in d.hint and "score" not in d.hint


def test_a_yaml_set_says_to_write_a_list(tmp_path):
    d = _one(_load_file(tmp_path, "extends: hand_and_foot\nparams: {min_meld: {49, 50}}\n"), "E-TYPE")
    assert "[49, 50]" in d.hint


def test_a_yaml_set_given_to_a_list_key_says_to_write_a_list(tmp_path):
    d = _one(_load_file(tmp_path, "extends: president\nclimbing: {sizes: {1, 4}}\n"), "E-TYPE")
    assert "[1, 4]" in d.hint


def test_a_function_named_as_a_value_is_not_suggested_as_itself(tmp_path):
    d = _one(_load_file(tmp_path, "extends: hand_and_foot\nmatch: {ends_when: wild > 3}\n"), "E-UNDEFINED")
    assert "did you mean `wild`" not in d.hint
    assert "wild(" in d.hint and "function" in d.message


def test_an_unknown_name_suggests_a_close_bare_name_and_lists_bare_names(tmp_path):
    """A misspelt name gets "did you mean" over the bare names an expression may use (`dealer`), and a name
    close to none lists some of them -- bare names, not members such as `deal.number`.  Catches the names
    offered being the dotted ones instead (`"." not in n` -> `in`)."""
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nmatch: {ends_when: 'dealr == 1'}\n"), "E-UNDEFINED")
    assert "did you mean `dealer`" in d.hint
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nmatch: {ends_when: 'zzzzzz == 1'}\n"), "E-UNDEFINED")
    listed = d.hint.removeprefix("names: ").split(", ")
    assert d.hint.startswith("names: ") and "dealer" in listed and not any("." in n for n in listed)


def test_a_value_called_as_a_function(tmp_path):
    d = _one(_load_file(tmp_path, "extends: gin_rummy\nmatch: {ends_when: 'players() > 3'}\n"), "E-UNDEFINED")
    assert "not a function" in d.message


# ------------------------------------------------------------------ 10. long chains of derived values

def _chain(n: int, forward: bool) -> str:
    lines = ["extends: gin_rummy", "derived:"]
    if forward:       # each value names the next: compiling d1 walks the whole chain
        lines += [f"  d{i}: d{i + 1} + 1" for i in range(1, n)] + [f"  d{n}: count(hand)"]
        top = "d1"
    else:
        lines += ["  d1: count(hand)"] + [f"  d{i}: d{i - 1} + 1" for i in range(2, n + 1)]
        top = f"d{n}"
    lines.append(f"match: {{ends_when: '{top} > 1000 or max_score >= params.target_score'}}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("forward", [True, False])
def test_three_hundred_chained_derived_values_are_one_located_error(tmp_path, forward):
    diags = _load_file(tmp_path, _chain(300, forward))
    d = _one(diags, "E-DEPTH")
    assert len(diags) == 1


@pytest.mark.parametrize("forward", [True, False])
def test_a_chain_within_the_limit_loads_and_computes(tmp_path, forward):
    rules = rulesdsl.load(_file(tmp_path, _chain(40, forward)))
    g = rules.new_game(seed=3)
    assert not g.is_over           # 10 cards in hand + 39 is far below 1000: the match goes on


def test_validate_never_ends_in_an_internal_error_on_a_long_chain(tmp_path):
    f = _file(tmp_path, _chain(300, True))
    out = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", "validate", f],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "E-DEPTH" in out.stdout and "internal error" not in out.stdout + out.stderr


# ------------------------------------------------------------------ everything bundled still loads

@pytest.mark.parametrize("name", [n for n, _ in bundled_names()])
def test_every_bundled_ruleset_and_variant_loads(name):
    assert rulesdsl.load(name).digest


def test_auto_lay_when_empty_without_a_replacement_zone_is_ignored_and_said(tmp_path):
    """`when_empty` says what happens when a replacement is owed from an empty zone; with no
    `replace_from` nothing is ever owed, so the key would silently do nothing."""
    text = bundled("hand_and_foot").read_text()
    assert "  replace_from: stock\n" in text
    d = _one(_load_file(tmp_path, text.replace("  replace_from: stock\n", "")), "E-IGNORED")
    assert "when_empty" in d.message and "replace_from" in d.hint
    rulesdsl.load(_file(tmp_path, text.replace("  when_empty: end_hand", "  when_empty: play_on"), "ok.yaml"))


def test_a_mistake_in_a_derived_value_a_rule_uses_is_reported_once(tmp_path):
    """Gin's `hand_multiplier` is compiled for itself and where `scoring.multiplier` reads it: one
    mistake, one diagnostic."""
    diags = _load_file(tmp_path, 'extends: gin_rummy\nderived:\n  hand_multiplier: "nosuch + 1"\n')
    d = _one(diags, "E-UNDEFINED")
    assert (d.pos.line, d.pos.col) == (3, 21) and "nosuch" in d.message


def test_a_name_that_exists_only_with_another_mechanic_says_which(tmp_path):
    """`play.size` is a climbing name: in a game without `climbing:` the diagnostic says so, rather than
    suggesting `player`."""
    diags = _load_file(tmp_path, 'extends: gin_rummy\nderived:\n  hand_multiplier: "play.size + 1"\n')
    d = _one(diags, "E-UNDEFINED")
    assert "climbing" in d.message and "player" not in d.hint
