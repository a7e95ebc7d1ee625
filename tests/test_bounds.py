"""Bounds on what a ruleset file may ask for, and diagnostics that stay located and printable.

Hostile or careless files must end in a located diagnostic (exit 1), never in "internal error" (exit 3),
and never after minutes of work or gigabytes of memory: huge files (also through ``extends``), huge
expressions, numbers that fold past Python's int-to-text limit, lone surrogates, comprehensions nested
so deep that one evaluation runs for minutes.  And an error inside a multi-line YAML expression points
at the offending token, not at the key.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.errors import RulesetError
from rulesdsl.expr.compiler import MAX_COMP_NESTING, MAX_STEPS
from rulesdsl.source import MAX_EXPR_CHARS, MAX_NUMBER, MAX_TEXT_CHARS
from rulesdsl.source.dsl_reader import read_dsl
from rulesdsl.source.yaml_reader import read_yaml

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, timeout: float = 300) -> tuple[int, str, float]:
    """Run the real command line in a child process: exit code, all output, seconds taken.  The timeout
    only detects a hang (far above any normal run): no test here asserts on wall time."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulesdsl.cli.main", *args], capture_output=True,
                          timeout=timeout, cwd=ROOT, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    out = (done.stdout + done.stderr).decode("utf-8", "replace")
    return done.returncode, out, time.perf_counter() - start


def load_errors(path: Path) -> list:
    with pytest.raises(RulesetError) as info:
        rulesdsl.load(str(path))
    return info.value.diagnostics


def where_in(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column of the ``occurrence``-th ``needle`` in ``text`` (found independently)."""
    at = -1
    for _ in range(occurrence):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


# ------------------------------------------------------------------ positions in multi-line YAML
MULTILINE = {
    "folded": "  knock_limit: >-\n    if not params.knock_limit_from_upcard then params.knock_limit\n"
              "    else if rank(deal.upcard) == \"A\" then 0\n    else value(bogus_name)\n",
    "literal": "  knock_limit: |\n    if not params.knock_limit_from_upcard then params.knock_limit\n"
               "    else if rank(deal.upcard) == \"A\" then 0\n      else value(bogus_name)\n",
    "plain": "  knock_limit: if not params.knock_limit_from_upcard then params.knock_limit\n"
             "    else if rank(deal.upcard) == \"A\" then 0\n    else value(bogus_name)\n",
    "double-quoted": "  knock_limit: \"if not params.knock_limit_from_upcard then params.knock_limit\n"
                     "    else if rank(deal.upcard) == \\\"A\\\" then 0\n    else value(bogus_name)\"\n",
    "folded, more indented": "  knock_limit: >\n    if not params.knock_limit_from_upcard\n"
                             "       then params.knock_limit\n    else value(bogus_name)\n",
}


@pytest.mark.parametrize("style", sorted(MULTILINE))
def test_unknown_name_in_a_multiline_yaml_expression_points_at_the_name(tmp_path, style):
    text = "extends: gin_rummy\nderived:\n" + MULTILINE[style]
    f = tmp_path / "g.yaml"
    f.write_text(text)
    diags = [d for d in load_errors(f) if "bogus_name" in d.message]
    assert diags, load_errors(f)
    line, col = where_in(text, "bogus_name")
    assert (diags[0].pos.line, diags[0].pos.col) == (line, col)
    assert line == text.count("\n")            # the last line of the expression, not the key's


def test_syntax_error_in_a_folded_expression_points_at_the_bad_token(tmp_path):
    text = ("extends: gin_rummy\nderived:\n  knock_limit: >-\n    if params.knock_allowed\n"
            "    then params.knock_limit\n    else 10 * * 2\n")
    f = tmp_path / "g.yaml"
    f.write_text(text)
    [d] = load_errors(f)
    assert d.code == "E-EXPR-SYNTAX"
    line, col = where_in(text, "*", 2)         # the second `*` is the one that cannot be there
    assert (d.pos.line, d.pos.col) == (line, col)


def test_position_after_escapes_in_a_double_quoted_expression(tmp_path):
    text = 'extends: gin_rummy\nderived:\n  hand_multiplier: "if \\x22S\\x22 == \\"S\\" then 1 else bogus_name"\n'
    f = tmp_path / "g.yaml"
    f.write_text(text)
    found = [d for d in load_errors(f) if "bogus_name" in d.message]
    assert found and all((d.pos.line, d.pos.col) == where_in(text, "bogus_name") for d in found)


def test_scalar_positions_map_every_character_back_to_its_source():
    text = ("a: >-\n  one two\n    three\n  four\nb: |\n  x\n   y z\n"
            "c: plain\n  next line\nd: \"q \\x41 \\\"r\\\"\n  s \\\n  t\"\ne: 'it''s\n   here'\n")
    tree = read_yaml(text, "t.yaml")
    lines = text.split("\n")
    for key in "abcde":
        node = tree[key]
        for i, ch in enumerate(node.value):
            if ch.isspace():
                continue
            at = node.locate(i)
            shown = lines[at.line - 1][at.col - 1]
            # a character written as an escape is located at its backslash
            assert shown == ch or shown == "\\", (key, i, ch, at)


# ------------------------------------------------------------------ no internal error from validate
def test_folded_number_past_the_int_text_limit_is_located(tmp_path):
    # every factor is a constant (parameters are folded): the product folds to 82 digits
    product = " * ".join(["999999999"] * 9) + " * params.hand_size"
    f = tmp_path / "g.yaml"
    f.write_text(f'extends: gin_rummy\ndeal:\n  - {{deal: "{product}", to: hand}}\n'
                 f'  - {{turn_up: discard, as: upcard}}\n')
    code, out, _ = cli("validate", str(f))
    assert code == 1, out
    assert "internal error" not in out and "E-LIMIT" in out
    assert ":3:" in out                         # the deal line


def test_deal_count_of_a_huge_number_is_refused_not_crashed(tmp_path):
    # no single factor is large, but the product would have thousands of digits
    product = "*".join(["99999"] * 200)
    f = tmp_path / "g.yaml"
    f.write_text(f'extends: gin_rummy\ndeal:\n  - {{deal: "{product}", to: hand}}\n'
                 f'  - {{turn_up: discard, as: upcard}}\n')
    code, out, _ = cli("validate", str(f))
    assert code == 1 and "internal error" not in out, out
    assert "E-LIMIT" in out and len(out) < 2000   # the message names no thousand-digit number


@pytest.mark.parametrize("syntax", ["yaml", "rules", "expression"])
def test_numbers_written_past_the_bound_are_refused(syntax):
    big = str(MAX_NUMBER * 10)
    if syntax == "yaml":
        with pytest.raises(RulesetError) as info:
            read_yaml(f"a: {big}\n", "t.yaml")
        assert info.value.diagnostics[0].code == "E-NUMBER"
        assert read_yaml(f"a: {MAX_NUMBER}\n", "t.yaml")["a"].value == MAX_NUMBER
    elif syntax == "rules":
        with pytest.raises(RulesetError) as info:
            read_dsl(f"a = {big}\n", "t.rules")
        assert info.value.diagnostics[0].code == "E-NUMBER"
        assert read_dsl(f"a = {MAX_NUMBER}\n", "t.rules")["a"].value == MAX_NUMBER
    else:
        from rulesdsl.expr.ast import parse
        assert parse(f"1 + {big}")[1].code == "E-NUMBER"
        assert parse(f"1 + {MAX_NUMBER}")[1] is None


@pytest.mark.parametrize("where", ["value", "key"])
def test_lone_surrogate_is_a_located_diagnostic(tmp_path, where):
    text = ('extends: gin_rummy\nname: "Gin \\ud800"\n' if where == "value"
            else 'extends: gin_rummy\nparams:\n  "k\\udc00": 3\n')
    f = tmp_path / "g.yaml"
    f.write_text(text)
    for fmt in ("text", "json"):
        code, out, _ = cli("validate", "--format", fmt, str(f))
        assert code == 1, out
        assert "internal error" not in out and "surrogate" in out
    line, col = where_in(text, "\\ud800" if where == "value" else "\\udc00")
    assert f":{line}:{col}:" in cli("validate", str(f))[1]


def test_a_two_gigabyte_file_is_refused_before_it_is_read(tmp_path):
    f = tmp_path / "huge.yaml"
    with open(f, "wb") as out:                  # sparse: costs no disk
        out.write(b"name: x\n")
        out.truncate(2 * 1024 ** 3)
    code, out, _ = cli("validate", str(f))
    assert code == 1 and "E-TOO-BIG" in out and "internal error" not in out, out


def test_a_huge_file_named_by_extends_is_refused_before_it_is_read(tmp_path):
    base = tmp_path / "base.yaml"
    with open(base, "wb") as out:
        out.write(b"name: x\n")
        out.truncate(300 * 1024 ** 2)
    f = tmp_path / "g.yaml"
    f.write_text("extends: base.yaml\nname: y\n")
    code, out, _ = cli("validate", str(f))
    assert code == 1 and "E-TOO-BIG" in out and "internal error" not in out, out
    # and through the API, in this process: memory stays small
    import tracemalloc
    tracemalloc.start()
    try:
        with pytest.raises(RulesetError):
            rulesdsl.load(str(f))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 1024 ** 2


def test_a_file_just_over_the_character_limit_is_still_refused(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text("name: x\n# " + "a" * MAX_TEXT_CHARS + "\n")
    code, out, _ = cli("validate", str(f))
    assert code == 1 and "E-TOO-BIG" in out, out


# ------------------------------------------------------------------ bounded work
@pytest.mark.parametrize("syntax", ["yaml", "rules"])
def test_a_huge_expression_is_refused_before_it_is_parsed(tmp_path, syntax):
    big = "+".join(["1"] * 100_000)             # 0.2 MB, under the file limit, far over the expression limit
    f = tmp_path / f"g.{syntax}"
    if syntax == "yaml":
        f.write_text(f'extends: gin_rummy\nderived:\n  hand_multiplier: "{big}"\n')
    else:
        f.write_text(f'extends = "gin_rummy"\nderived {{\n  hand_multiplier = {big}\n}}\n')
    code, out, _ = cli("validate", str(f))
    assert code == 1 and "E-LIMIT" in out and "internal error" not in out, out[:500]
    assert len(out) < 2000                      # the expression is not echoed whole


def test_an_expression_at_the_length_limit_is_accepted():
    from rulesdsl.expr.ast import parse
    text = "1 +" + " " * (MAX_EXPR_CHARS - 4) + "2"   # exactly the limit: long, but shallow
    assert len(text) == MAX_EXPR_CHARS and parse(text)[1] is None
    assert parse(text + " ")[1].code == "E-LIMIT"
    dsl = read_dsl(f"a = {text}\n", "t.rules")      # the .rules reader takes the same length
    assert dsl["a"].value == text


def nest(levels: int, zone: str = "stock") -> str:
    expr = "1"
    for i in range(levels):
        expr = f"count(c{i} for c{i} in {zone} where {expr} > 0)"
    return expr


def turn_when(expr: str) -> str:
    return ("extends: gin_rummy\nturn:\n  - step: draw\n    actions:\n      - draw: stock\n"
            f"        when: {expr} > 0\n      - take: discard\n  - step: finish\n    actions:\n"
            "      - discard: discard\n      - go_out: gin\n      - go_out: knock\n")


def test_comprehensions_nested_beyond_the_limit_are_refused_at_load(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text(turn_when(nest(5)))
    [d] = load_errors(f)
    assert d.code == "E-LIMIT" and d.pos.line == 6
    f.write_text(turn_when(nest(MAX_COMP_NESTING)))     # two levels, as Hand and Foot uses, are fine
    assert rulesdsl.load(str(f)).new_game(seed=1).legal_actions()


def test_nesting_through_derived_values_counts(tmp_path):
    f = tmp_path / "g.yaml"
    text = turn_when("count(a for a in stock where inner > 0)").replace(
        "turn:\n", f"derived:\n  inner: {nest(2)}\nturn:\n", 1)
    f.write_text(text)
    [d] = load_errors(f)
    assert d.code == "E-LIMIT" and "derived" in d.message
    assert (d.pos.line, d.pos.col) == where_in(text, "count(a")


def test_nesting_counts_through_a_chain_of_derived_values(tmp_path):
    """docs/language.md, Limits: comprehensions nest at most two deep, counting those of the derived values
    a rule names and of the ones they name in turn.  `outer` has one comprehension around `inner`, which
    has one of its own: two levels, so `outer` alone is fine; a rule with a comprehension around `outer`
    is three deep and refused at that comprehension.  Catches the nesting of a derived value not adding
    the nesting of the ones it names."""
    derived = f"derived:\n  inner: {nest(1)}\n  outer: count(b for b in stock where inner > 0)\nturn:\n"
    f = tmp_path / "g.yaml"
    text = turn_when("count(a for a in stock where outer > 0)").replace("turn:\n", derived, 1)
    f.write_text(text)
    [d] = load_errors(f)
    assert d.code == "E-LIMIT" and "derived" in d.message
    assert (d.pos.line, d.pos.col) == where_in(text, "count(a")
    f.write_text(turn_when("outer").replace("turn:\n", derived, 1))
    assert rulesdsl.load(str(f)).new_game(seed=1).legal_actions()


def test_a_simulated_five_deep_comprehension_ends_quickly(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text(turn_when(nest(5)))
    code, out, _ = cli("simulate", str(f), "--games", "2")
    assert code == 1 and "E-LIMIT" in out and "internal error" not in out, out


def test_load_time_comprehensions_are_bounded(tmp_path):
    items = "[" + ", ".join(["1"] * 1500) + "]"  # 1,500 x 1,500 steps if it ran to the end
    f = tmp_path / "g.yaml"
    f.write_text(f'extends: gin_rummy\ndeck:\n  copies: "sum(sum(1 for a in {items}) for b in {items}) - 2249999"\n')
    code, out, _ = cli("validate", str(f))
    assert code == 1 and "internal error" not in out, out[:500]
    assert f"{MAX_STEPS:,} comprehension steps" in out


def test_play_time_comprehension_budget_stops_the_game_with_a_located_error(tmp_path):
    items = "[" + ", ".join(["1"] * 400) + "]"   # 400 x 400 = 160,000 steps per evaluation
    text = turn_when(f"count(a for a in {items} where count(b for b in {items}) > 0)")
    f = tmp_path / "g.yaml"
    f.write_text(text)
    rules = rulesdsl.load(str(f))               # nothing at load can see it: the lists are constants
    game = rules.new_game(seed=1)
    with pytest.raises(rulesdsl.RuleEvaluationError) as info:
        for _ in range(10):                     # past the upcard offer, to the first draw step
            game.apply(game.legal_actions()[0])
    assert f"{MAX_STEPS:,}" in str(info.value)
    line, col = where_in(text, "count(b")
    assert f"g.yaml:{line}:{col}" in str(info.value)
    code, out, _ = cli("simulate", str(f), "--games", "1")
    assert code == 1 and "internal error" not in out, out


def test_one_evaluation_has_one_budget_however_many_derived_uses_it_makes(tmp_path):
    """docs/language.md, Limits: every comprehension of one evaluation draws on one budget, those of the
    derived functions it uses included: a function within the budget, used twice, is past it."""
    from rulesdsl.expr.ast import Expr, FunctionExpr, parse
    from rulesdsl.expr.compiler import Scope

    class Ctx:
        def __init__(self):
            self.env = {}

    items = "[" + ", ".join(["1"] * 200) + "]"
    body, _ = parse(f"sum(count(a for a in {items}) for b in {items})")      # 40,200 steps: within
    functions = {"f": FunctionExpr(body, "sum(...)", params=("x",), name="f")}
    once = Scope({}, {}, {}, dict(functions)).compile(Expr(parse("f(1)")[0], "f(1)"))
    assert once(Ctx()) == 40_000
    twice = Scope({}, {}, {}, dict(functions)).compile(Expr(parse("f(1) + f(2)")[0], "f(1) + f(2)"))
    assert twice(Ctx()) == 80_000                                          # 80,400 steps: within
    thrice = Scope({}, {}, {}, dict(functions)).compile(Expr(parse("f(1) + f(2) + f(3)")[0], "x"))
    ctx = Ctx()
    with pytest.raises(ValueError, match=f"past {MAX_STEPS:,} comprehension steps"):
        thrice(ctx)                                                        # 120,600: past it
    assert ctx.env == {}                                                   # and nothing left behind
    assert twice(ctx) == 80_000


def test_a_rule_evaluated_inside_another_shares_its_budget():
    """docs/language.md, Limits: a rule evaluated inside another (a builtin such as `is_wild(card)` runs the
    `wild` rule) draws on the outer evaluation's budget.  The inner rule goes through 40,200 items, within
    the budget; run three times from an outer comprehension it is past it (120,603), and the outer rule
    is stopped.  Catches the inner evaluation opening a budget of its own (and dropping the outer one's
    count when it ends): the outer rule then ran to 120,000."""
    from rulesdsl.expr.ast import Expr, parse
    from rulesdsl.expr.compiler import Builtin, Scope

    class Ctx:
        def __init__(self):
            self.env = {}

    items = "[" + ", ".join(["1"] * 200) + "]"
    inner = Scope({}, {}, {}).compile(Expr(parse(f"sum(count(a for a in {items}) for b in {items})")[0], "inner"))
    assert inner(Ctx()) == 40_000
    builtins = {"inner": Builtin(lambda c: inner(c), (0, 0))}
    outer = Scope({}, {}, builtins).compile(Expr(parse("sum(inner() for k in [1, 2, 3])")[0], "outer"))
    ctx = Ctx()
    with pytest.raises(ValueError, match=f"past {MAX_STEPS:,} comprehension steps"):
        outer(ctx)
    assert ctx.env == {}
    twice = Scope({}, {}, builtins).compile(Expr(parse("sum(inner() for k in [1, 2])")[0], "twice"))
    assert twice(ctx) == 80_000                                            # 80,402: within


def test_a_budget_does_not_leak_between_evaluations():
    from rulesdsl.expr.ast import Expr, parse
    from rulesdsl.expr.compiler import Scope

    class Ctx:
        env: dict = {}

    items = "[" + ", ".join(["1"] * 300) + "]"
    ast, _ = parse(f"sum(count(a for a in {items}) for b in {items})")   # 90,300 steps: within
    fn = Scope({}, {}, {}).compile(Expr(ast, "x"))
    ctx = Ctx()
    ctx.env = {}
    for _ in range(3):                          # each evaluation has the whole budget again
        assert fn(ctx) == 90_000
    assert ctx.env == {}


def test_a_product_in_play_past_the_number_bound_is_an_error_not_a_huge_number():
    from rulesdsl.expr.ast import Expr, parse
    from rulesdsl.expr.compiler import Binding, Scope, TooLarge

    class Ctx:
        def __init__(self, x):
            self.x, self.env = x, {}

    ast, _ = parse("x * x * x")
    fn = Scope({}, {"x": Binding(lambda c: c.x)}, {}).compile(Expr(ast, "x * x * x"))
    assert fn(Ctx(1000)) == 10 ** 9
    with pytest.raises(TooLarge):
        fn(Ctx(10 ** 6))


def test_a_set_value_past_the_number_bound_is_e_number_not_text():
    code, out, _ = cli("validate", "gin_rummy", "--set", "gin_bonus=99999999999999999999")
    assert code == 1 and "E-NUMBER" in out and "--set gin_bonus=" in out and "internal error" not in out, out
    assert "E-TYPE" not in out                   # not read as the text "99999..."
