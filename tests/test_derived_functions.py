"""Derived functions (`derived: {penalty(n): ...}`): small named functions of their arguments.

Each expression is evaluated through the public API: a tiny climbing game ("probe") whose first play
ends the hand and the match, so `game.scores` is `scoring.each_player` for each seat.  Expected values
are computed here from the rules of the language, never read from the engine.
"""

from __future__ import annotations

import random
import textwrap

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.errors import RulesetError

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = ["D", "C", "H", "S"]
ALL_CARDS = [r + s for r in RANKS for s in SUITS]

PROBE = """\
name: Probe
players: {players}
params: {{bonus: 7, double_at: 3, triple_at: 5, extra: {extra}}}
deck: {{ranks: [3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, 2], suits: [D, C, H, S]}}
zones:
  stock: {{visible: none}}
  hand: {{per: player, visible: owner}}
  trick: {{visible: all}}
  played: {{visible: all}}
deal:
  - {{deal: {deal}, to: hand}}
  - {{deal: params.extra, to: hand, seat: 'next_seat(next_seat(dealer))'}}
climbing:
  sizes: [1, 4]
  beats: play.size == last.size and play.rank > last.rank
  first_leader: next_seat(dealer)
  ends_when: finished_players >= 1
derived:
{derived}
scoring:
  each_player: {scoring}
match:
  ends_when: 'true'
"""


def _probe_text(derived: str, scoring: str, players: int = 2, deal: int = 1, extra: int = 0) -> str:
    derived = textwrap.indent(textwrap.dedent(derived).strip("\n"), "  ")
    return PROBE.format(derived=derived, scoring=scoring, players=players, deal=deal, extra=extra)


def _write(tmp_path, text: str, name: str = "probe.yaml"):
    f = tmp_path / name
    f.write_text(text)
    return f


def _deck(first: list) -> list:
    return list(first) + [c for c in ALL_CARDS if c not in first]


def _one_hand(rules, players: int = 2, deck_first=("3D", "4D")) -> list:
    """Deal (dealer 0), let the leader (seat 1) play their whole hand: it goes out, the match ends."""
    g = rules.new_game(players=players, seed=1, dealer=0, deck=_deck(list(deck_first)))
    assert g.current_player == 1
    lead = sorted(g.hand_of(1), key=str)
    g.apply("play " + " ".join(str(c) for c in lead))
    assert g.is_over
    return list(g.scores)


def scores(tmp_path, derived: str, scoring: str) -> list:
    return _one_hand(rulesdsl.load(_write(tmp_path, _probe_text(derived, scoring))))


def load_errors(tmp_path, derived: str, scoring: str = "0", name: str = "probe.yaml") -> list:
    f = _write(tmp_path, _probe_text(derived, scoring), name)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    return exc.value.diagnostics


def _line_col(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column of the ``occurrence``-th ``needle`` in ``text``."""
    at = -1
    for _ in range(occurrence):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def _only(diags, code):
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, [d.format() for d in diags]
    return found[0]


# ------------------------------------------------------------------ the harness itself

def test_the_probe_deals_and_scores_as_the_tests_assume(tmp_path):
    # a constant scoring and a function-free probe: seat s scores s * 10 + 1
    assert scores(tmp_path, "unused: 0", "player * 10 + 1") == [1, 11]


# ------------------------------------------------------------------ evaluation

def test_a_function_of_one_argument(tmp_path):
    assert scores(tmp_path, "double(n): n * 2", "double(player) + 1") == [2 * 0 + 1, 2 * 1 + 1]


def test_a_function_of_two_arguments_binds_them_in_order(tmp_path):
    derived = """
      add(a, b): a + b
      sub(a, b): a - b
    """
    assert scores(tmp_path, derived, "add(player, params.bonus) * 100 + sub(10, player)") == \
        [(0 + 7) * 100 + (10 - 0), (1 + 7) * 100 + (10 - 1)]


def test_calls_nest_as_arguments(tmp_path):
    derived = """
      add(a, b): a + b
      double(n): n * 2
    """
    # p + 1 + 2 * (p + 2)
    assert scores(tmp_path, derived, "add(add(player, 1), double(add(player, 2)))") == [0 + 1 + 2 * 2, 1 + 1 + 2 * 3]


def test_a_function_calls_a_derived_value_and_a_function_declared_anywhere(tmp_path):
    derived = """
      total(n): twice(n) + base
      base: params.bonus * 2
      twice(n): n * 2
    """
    assert scores(tmp_path, derived, "total(player + 3)") == [2 * 3 + 14, 2 * 4 + 14]


def test_a_derived_value_may_call_a_function(tmp_path):
    derived = """
      sq(n): n * n
      nine: sq(3)
    """
    assert scores(tmp_path, derived, "nine + player") == [9, 10]


def test_parameters_shadow_seats_derived_values_and_other_names(tmp_path):
    derived = """
      base: 1000
      f(player): player * 100
      g(base): base + 1
      h(hand, dealer): hand - dealer
    """
    # inside f, `player` is the argument (3), not the seat being scored; in g, `base` is the argument
    assert scores(tmp_path, derived, "f(3) + g(player) + h(50, 8)") == [300 + 1 + 42, 300 + 2 + 42]


def test_a_comprehension_variable_shadows_a_parameter_only_inside_it(tmp_path):
    derived = "h(n): sum(n for n in [1, 2, 3]) + n"
    assert scores(tmp_path, derived, "h(10 + player)") == [6 + 10, 6 + 11]


def test_a_call_inside_a_comprehension_leaves_the_callers_variable_alone(tmp_path):
    derived = "k(x): x * 10"
    # the parameter `x` and the comprehension's `x` share a name: after each call, x is the item again
    assert scores(tmp_path, derived, "sum(k(x + 5) + x for x in [1, 2]) + player") == \
        [sum((x + 5) * 10 + x for x in (1, 2)) + p for p in (0, 1)]


def test_penalty_as_in_the_issue(tmp_path):
    # params: double_at 3, triple_at 5 (the probe's); n * 3 from 5 cards, n * 2 from 3, else n
    derived = "penalty(n): n * (if n >= params.triple_at then 3 else if n >= params.double_at then 2 else 1)"
    got = scores(tmp_path, derived, "'penalty(player + 2) * 1000 + penalty(player + 4)'")
    expect = []
    for p in (0, 1):
        pen = [n * (3 if n >= 5 else 2 if n >= 3 else 1) for n in (p + 2, p + 4)]
        expect.append(pen[0] * 1000 + pen[1])
    assert got == expect == [2 * 1000 + 8, 6 * 1000 + 15]


# ------------------------------------------------------------------ load-time problems

@pytest.mark.parametrize("call, got", [("add(player)", 1), ("add(1, 2, 3)", 3), ("one()", 0)])
def test_a_wrong_number_of_arguments_is_a_located_arity_error(tmp_path, call, got):
    derived = """
      add(a, b): a + b
      one(x): x
    """
    text = _probe_text(derived, f"'player + {call}'")
    f = _write(tmp_path, text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-ARITY")
    assert (d.pos.line, d.pos.col) == _line_col(text, call)
    name, want = call.split("(")[0], {"add": 2, "one": 1}[call.split("(")[0]]
    assert f"`{name}` takes {want} argument" in d.message and f"got {got}" in d.message
    assert ("add(a, b)" if name == "add" else "one(x)") in d.hint


def test_builtin_arity_errors_are_unchanged(tmp_path):
    d = _only(load_errors(tmp_path, "x: value()", "x"), "E-ARITY")
    assert "`value`" in d.message


def test_recursion_is_refused_with_e_cycle(tmp_path):
    text = _probe_text("f(n): if n <= 0 then 0 else f(n - 1)", "f(3)")
    f = _write(tmp_path, text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-CYCLE")
    assert "`f`" in d.message and "recursion" in d.hint
    assert (d.pos.line, d.pos.col) == _line_col(text, "f(n - 1)")


def test_mutual_recursion_is_refused_once_naming_both(tmp_path):
    derived = """
      even(n): if n == 0 then true else odd(n - 1)
      odd(n): if n == 0 then false else even(n - 1)
    """
    d = _only(load_errors(tmp_path, derived, "'if even(4) then 1 else 0'"), "E-CYCLE")
    assert "`even`" in d.message and "`odd`" in d.message


def test_a_cycle_through_a_derived_value_is_refused(tmp_path):
    derived = """
      f(n): n + v
      v: f(1)
    """
    d = _only(load_errors(tmp_path, derived, "v"), "E-CYCLE")
    assert "`f`" in d.message and "`v`" in d.message


def test_an_unused_recursive_function_is_still_refused(tmp_path):
    _only(load_errors(tmp_path, "f(n): f(n)", "0"), "E-CYCLE")


@pytest.mark.parametrize("heading, builtin", [("value(c)", "value"), ("sum(a, b)", "sum"),
                                              ("opponents(s)", "opponents")])
def test_a_function_may_not_take_a_builtins_name(tmp_path, heading, builtin):
    text = _probe_text(f"{heading}: 1", "0")
    f = _write(tmp_path, text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-RESERVED")
    assert f"`{builtin}`" in d.message and "builtin" in d.message
    assert "rename" in d.hint
    assert (d.pos.line, d.pos.col) == _line_col(text, heading)


def test_an_unknown_name_in_a_body_is_located(tmp_path):
    text = _probe_text("f(n): n + nosuch", "f(1)")
    f = _write(tmp_path, text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-UNDEFINED")
    assert "`nosuch`" in d.message
    assert (d.pos.line, d.pos.col) == _line_col(text, "nosuch")


def test_a_body_does_not_see_the_callers_comprehension_variable(tmp_path):
    text = _probe_text("leak(n): n + p", "sum(leak(1) for p in [1, 2])")
    f = _write(tmp_path, text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-UNDEFINED")
    assert "`p`" in d.message and (d.pos.line, d.pos.col) == _line_col(text, "p\n")


def test_a_function_named_without_a_call_is_an_error_with_its_heading(tmp_path):
    d = _only(load_errors(tmp_path, "f(n): n", "f"), "E-UNDEFINED")
    assert "function, not a value" in d.message and "f(n)" in d.hint


@pytest.mark.parametrize("heading, words", [
    ("f()", "no arguments"),
    ("f(a, a)", "twice"),
    ("f(a, b, c, d, e)", "limit"),
    ("f(a b)", "parameter"),
    ("f(if)", "parameter"),
    ("f(x", "function heading"),
])
def test_malformed_headings_are_located_at_the_key(tmp_path, heading, words):
    text = _probe_text(f"'{heading}': 1", "0")
    f = _write(tmp_path, text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-EXPR-SYNTAX")
    assert words in d.message
    assert (d.pos.line, d.pos.col) == _line_col(text, f"'{heading}'")


def test_a_name_declared_as_value_and_function_is_a_duplicate(tmp_path):
    derived = """
      f(n): n
      f: 3
    """
    d = _only(load_errors(tmp_path, derived, "0"), "E-DUP-KEY")
    assert "`f`" in d.message


def test_the_result_type_of_a_call_is_checked_like_a_builtins(tmp_path):
    d = _only(load_errors(tmp_path, "f(n): n * 2", "'if f(player) == \"A\" then 1 else 0'"), "E-TYPE")
    assert "f(player)" in d.message


def test_a_comprehension_inside_a_function_counts_toward_the_nesting_limit(tmp_path):
    derived = "inner(k): count(c for c in hand where count(d for d in hand where d == c) > k)"
    d = _only(load_errors(tmp_path, derived, "sum(inner(x) for x in [1])"), "E-LIMIT")
    assert "nested" in d.message


def _doubling(levels: int) -> str:
    """``f0(x): x`` and ``f_i(x): f_{i-1}(x) + f_{i-1}(x)``: level ``i`` expands to 2^(i+1) - 1 calls."""
    return "\n".join(["f0(x): x"] + [f"f{i}(x): f{i - 1}(x) + f{i - 1}(x)" for i in range(1, levels + 1)])


def test_a_function_whose_calls_expand_past_the_limit_is_refused_at_load(tmp_path):
    """docs/language.md, Limits: one evaluation expands to at most 10,000 uses of derived values and
    functions, counted through the chain; past it, the first function over is `E-LIMIT` at its line."""
    from rulesdsl.expr.compiler import MAX_DERIVED_CALLS

    fits = max(i for i in range(40) if 2 ** (i + 1) - 1 <= MAX_DERIVED_CALLS)
    assert scores(tmp_path, _doubling(fits), f"f{fits}(player)") == [0, 2 ** fits]
    text = _probe_text(_doubling(48), "f48(player)")
    d = _only(load_errors(tmp_path, _doubling(48), "f48(player)"), "E-LIMIT")
    assert f"`f{fits + 1}`" in d.message and f"{2 ** (fits + 2) - 1:,} uses" in d.message
    assert (d.pos.line, d.pos.col) == _line_col(text, f"f{fits}(x) + f{fits}(x)")
    d = _only(load_errors(tmp_path, _doubling(fits), f"f{fits}(player) + f{fits}(player)"), "E-LIMIT")
    assert "this rule expands" in d.message


def test_each_use_of_a_constant_in_a_chain_counts_one(tmp_path):
    """The expansion counts a derived value folded to a constant as one use wherever it is used:
    `f0(x): x + k + k` is 3 uses, `f_i` 1 + 2 uses of `f_{i-1}`; the first level past the limit is
    refused with its exact count."""
    from rulesdsl.expr.compiler import MAX_DERIVED_CALLS

    derived = "\n".join(["k: params.bonus", "f0(x): x + k + k"] +
                         [f"f{i}(x): f{i - 1}(x) + f{i - 1}(x)" for i in range(1, 30)])
    cost, level = 3, 0
    while cost <= MAX_DERIVED_CALLS:
        cost, level = 1 + 2 * cost, level + 1
    d = _only(load_errors(tmp_path, derived, "f29(player)"), "E-LIMIT")
    assert f"`f{level}`" in d.message and f"{cost:,} uses" in d.message


def test_a_derived_value_folded_to_a_constant_counts_as_one_use(tmp_path):
    """A derived value of parameters alone is computed once, at load: building on it many times is no
    expansion (`c_i: c_{i-1} + c_{i-1} - c_{i-1}` would count 3^9 uses if each were computed again)."""
    derived = "\n".join(["c0: params.bonus"] + [f"c{i}: c{i - 1} + c{i - 1} - c{i - 1}" for i in range(1, 10)])
    assert scores(tmp_path, derived, "c9 + player") == [7, 8]


# ------------------------------------------------------------------ both syntaxes

ROUND_TRIP = _probe_text("""
  penalty(n): n * (if n >= params.triple_at then 3 else if n >= params.double_at then 2 else 1)
  add(a, b): a + b
  base: add(params.bonus, 1)
""", "'if count(player.hand) == 0 then sum(penalty(count(p.hand)) for p in opponents(player)) "
     "else -penalty(add(count(player.hand), base))'")


def test_convert_round_trips_a_ruleset_with_functions_both_ways(tmp_path):
    runner = CliRunner()
    src = _write(tmp_path, ROUND_TRIP, "fn.yaml")
    r = runner.invoke(cli, ["convert", str(src), "--to", "rules"])
    assert r.exit_code == 0, r.output
    assert "penalty(n) = " in r.output and "add(a, b) = " in r.output    # headings are written bare
    dsl = tmp_path / "fn.rules"
    dsl.write_text(r.output)
    a, b = rulesdsl.load(src), rulesdsl.load(dsl)
    assert a.model == b.model and a.digest == b.digest
    assert set(a.model.derived) == {"penalty", "add", "base"}
    r2 = runner.invoke(cli, ["convert", str(dsl), "--to", "yaml"])
    assert r2.exit_code == 0, r2.output
    back = tmp_path / "back.yaml"
    back.write_text(r2.output)
    c = rulesdsl.load(back)
    assert c.model == a.model and c.digest == a.digest


def test_a_function_written_in_the_dsl_reads_like_the_yaml_one(tmp_path):
    yaml_file = _write(tmp_path, _probe_text("add(a, b): a + b", "add(player, 5)"), "p.yaml")
    dsl_text = CliRunner().invoke(cli, ["convert", str(yaml_file), "--to", "rules"]).output
    # written by hand: spaces and a line break inside the heading read as the same key
    assert "add(a, b) = a + b" in dsl_text
    hand = dsl_text.replace("add(a, b) = a + b", "add( a,\n      b ) = a + b")
    dsl_file = tmp_path / "p.rules"
    dsl_file.write_text(hand)
    a, b = rulesdsl.load(yaml_file), rulesdsl.load(dsl_file)
    assert a.model == b.model and a.digest == b.digest
    assert _one_hand(b) == [5, 6]


def test_a_dsl_heading_problem_is_located(tmp_path):
    f = tmp_path / "bad.rules"
    text = _probe_text("x: 1", "0")
    dsl = CliRunner().invoke(cli, ["convert", str(_write(tmp_path, text)), "--to", "rules"]).output
    dsl = dsl.replace("x = 1", "f(a, a) = 1")
    f.write_text(dsl)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(f)
    d = _only(exc.value.diagnostics, "E-EXPR-SYNTAX")
    assert (d.pos.line, d.pos.col) == _line_col(dsl, "f(a, a)")


# ------------------------------------------------------------------ game level

def _penalty(n: int, double_at: int, triple_at: int) -> int:
    """The penalty for n cards left, from the rules (0 switches a multiplier off)."""
    if triple_at > 0 and n >= triple_at:
        return 3 * n
    if double_at > 0 and n >= double_at:
        return 2 * n
    return n


@pytest.mark.parametrize("extra", [0, 1, 3])
def test_a_game_scored_with_a_function_gives_the_expected_scores(tmp_path, extra):
    # 3 players, 2 cards each; seat 2 (two seats after the dealer) gets `extra` more.  Seat 1 leads a
    # pair and goes out; the winner collects every penalty, the others lose theirs.
    derived = "penalty(n): n * (if n >= params.triple_at then 3 else if n >= params.double_at then 2 else 1)"
    scoring = ("'if count(player.hand) == 0 then sum(penalty(count(p.hand)) for p in opponents(player)) "
               "else -penalty(count(player.hand))'")
    rules = rulesdsl.load(_write(tmp_path, _probe_text(derived, scoring, players=3, deal=2, extra=extra)))
    # dealt one at a time from the dealer's left: seat 1, 2, 0, 1, 2, 0, then `extra` to seat 2
    first = ["3D", "5D", "7D", "3C", "5C", "7C"] + ["9D", "9C", "9H"][:extra]
    g = rules.new_game(players=3, seed=1, dealer=0, deck=_deck(first))
    assert sorted(map(str, g.hand_of(1))) == ["3C", "3D"]
    assert len(g.hand_of(2)) == 2 + extra and len(g.hand_of(0)) == 2
    assert g.current_player == 1
    g.apply("play 3D 3C")
    assert g.is_over
    left = {0: 2, 2: 2 + extra}
    pen = {s: _penalty(n, 3, 5) for s, n in left.items()}
    assert list(g.scores) == [-pen[0], sum(pen.values()), -pen[2]]


# ------------------------------------------------------------------ Big Two uses penalty(n)

OLD_BIG_TWO_SCORING = """\
extends: big_two
scoring:
  each_player: >-
    if count(player.hand) == 0 then
      sum(count(p.hand) * (if params.triple_at > 0 and count(p.hand) >= params.triple_at then 3
                           else if params.double_at > 0 and count(p.hand) >= params.double_at then 2 else 1)
          for p in opponents(player))
    else -(count(player.hand) * (if params.triple_at > 0 and count(player.hand) >= params.triple_at then 3
                                 else if params.double_at > 0 and count(player.hand) >= params.double_at then 2
                                 else 1))
"""


def test_big_two_declares_penalty_and_its_scoring_calls_it():
    m = rulesdsl.load("big_two").model
    assert m.derived["penalty"].params == ("n",)
    assert "penalty(" in m.scoring.each_player.text


def _first_hand(rules, players: int, seed: int, passers: frozenset):
    """Play one hand: seats in ``passers`` pass whenever they may, the others make a random play.
    Returns (scores after the hand, cards each seat held when it ended)."""
    g = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while True:
        sizes = [len(g.hand_of(s)) for s in range(players)]
        seat = g.current_player
        legal = [str(a) for a in g.legal_actions()]
        plays = [a for a in legal if a != "pass"]
        if seat in passers and "pass" in legal:
            choice = "pass"
        else:
            choice = rng.choice(plays or legal)
        before = len(g.hand_log)
        g.apply(choice)
        if len(g.hand_log) > before:
            sizes[seat] -= len(choice.split()) - 1
            assert sizes[seat] == 0               # the hand ends when its first player goes out
            return list(g.scores), sizes


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("overrides", [{}, {"double_at": 0, "triple_at": 0}, {"triple_at": 0},
                                       {"double_at": 5, "triple_at": 8}])
def test_big_two_scores_the_penalty_as_before(players, overrides, tmp_path):
    new = rulesdsl.load("big_two", overrides=overrides)
    old_file = tmp_path / "old_big_two.yaml"
    old_file.write_text(OLD_BIG_TWO_SCORING)
    old = rulesdsl.load(old_file, overrides=overrides)
    params = {"double_at": 10, "triple_at": 13, **overrides}
    seen = set()
    for seed in range(6):
        passers = frozenset(range(1, players)) if seed % 2 else frozenset({seed % players})
        got_new, left = _first_hand(new, players, seed, passers)
        got_old, left_old = _first_hand(old, players, seed, passers)
        assert (got_new, left) == (got_old, left_old)
        winner = left.index(0)
        pen = [_penalty(n, params["double_at"], params["triple_at"]) for n in left]
        expect = [sum(pen) if s == winner else -pen[s] for s in range(players)]
        assert got_new == expect, (seed, left)
        seen.update(left)
    assert max(seen) >= 10 and any(0 < n < 10 for n in seen)   # multiplied and plain penalties both met


def test_a_recursive_function_whose_type_is_asked_for_is_refused_not_looped(tmp_path):
    """`f(n): f(n - 1) + 1` compared with a number: working out what `f` gives asks what `f` gives.
    The load must answer E-CYCLE, not recurse without end (expr/compiler.py `_function_type` marking a
    function while its type is worked out)."""
    d = _only(load_errors(tmp_path, "f(n): f(n - 1) + 1", "'if f(3) == 1 then 1 else 0'"), "E-CYCLE")
    assert "`f`" in d.message
