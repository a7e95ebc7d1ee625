"""Any mutated ruleset either loads or fails with located diagnostics -- never another exception.

Mutations act on the raw tree of the bundled Gin Rummy file: delete a key, replace a value with a
value of another type, change a number, rename a key, break an expression.  Each mutant is written
back as YAML (and as DSL) and loaded through the public API, as a user's file would be.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rulesdsl
from rulesdsl.source.resolve import find, read_file
from rulesdsl.source.writer import to_dsl, to_yaml

from common import mutate_tree, tree_paths

BASE = read_file(find("gin_rummy"))


ALL_PATHS = [p for p, _ in tree_paths(BASE) if p]

replacement = st.one_of(
    st.integers(-5, 200), st.booleans(), st.none(),
    st.sampled_from(["", "stock", "hand", "zz", "not", "1 +", "params.nope", "deadwood(", "A", "joker",
                     "count(stock) > 2", "if x then 1 else 2", "[1, 2", "max(a for a in seats)"]),
    st.just({}), st.just([]), st.just({"kind": "run"}), st.just([1, "x", None]),
)


def _load_text(tmp_path: Path, text: str, suffix: str):
    f = tmp_path / f"mutant{suffix}"
    f.write_text(text)
    try:
        rules = rulesdsl.load(str(f))
    except rulesdsl.RulesetError as exc:
        assert exc.diagnostics, "a RulesetError must carry diagnostics"
        for d in exc.diagnostics:
            assert d.code.startswith("E-")
            assert d.message
            assert d.pos.line >= 0 and d.pos.path
        return None
    return rules


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(ALL_PATHS), how=st.sampled_from(["delete", "replace", "rename"]),
       value=replacement, syntax=st.sampled_from([".yaml", ".rules"]))
def test_mutated_ruleset_loads_or_reports_located_diagnostics(tmp_path, path, how, value, syntax):
    mutant = mutate_tree(BASE, path, how, value)
    text = to_yaml(mutant) if syntax == ".yaml" else to_dsl(mutant)
    rules = _load_text(tmp_path, text, syntax)
    if rules is not None:
        # a mutant that loads must also play: a few random actions, never an internal error
        # a mutant that loads must also play: a few actions, never a raw Python error (a rule that
        # fails at run time is a RuleEvaluationError, the documented last line of defence)
        try:
            game = rules.new_game(seed=1)
            for _ in range(40):
                if game.is_over:
                    break
                acts = game.legal_actions()
                if not acts:
                    break
                game.apply(acts[len(acts) // 2])
        except rulesdsl.RulesdslError:
            pass


@pytest.mark.parametrize("text, code", [
    ("name: X\nplayers: 2\n", "E-MISSING"),
    ("{{{", "E-YAML"),
])
def test_broken_files_report_codes(tmp_path, text, code):
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(str(f))
    assert code in {d.code for d in exc.value.diagnostics}


def _variant(tmp_path: Path, body: str) -> Path:
    f = tmp_path / "v.yaml"
    f.write_text("extends: gin_rummy\n" + body)
    return f


@pytest.mark.parametrize("body, code, line", [
    ("params: {knock_limt: 5}\n", "E-UNKNOWN-PARAM", 2),
    ("melds:\n  set: {kind: set, min: 5, max: 6}\n", "E-MELD-IMPOSSIBLE", 3),
    ("melds:\n  run: {kind: run, min: 5, order: [A, 2, 3, 4]}\n", "E-MELD-IMPOSSIBLE", 3),
    ("melds:\n  run: {kind: run, min: 14}\n", "E-MELD-IMPOSSIBLE", 3),
    ("melds:\n  run: {kind: run, min: 3, order: [A, 2, 3, X]}\n", "E-UNKNOWN-RANK", 3),
    ("params: {hand_size: 30}\n", "E-DEAL-TOO-MANY", None),
    ("derived: {knock_limit: params.knock_limitt}\n", "E-UNDEFINED-PARAM", 2),
    ("derived: {knock_limit: knock_limit + 1}\n", "E-CYCLE", 2),
    ("scoring: {outcomes: [{scorer: declarer, points: deadwod(defender)}]}\n", "E-UNDEFINED", 2),
    ("turn: [{step: draw, actions: [{draw: stok}]}]\n", "E-UNKNOWN-ZONE", 2),
    ("params: {dealer_rotation: sometimes}\n", "E-CHOICE", 2),
    ("go_out: {pass: {when: true}}\n", "E-RESERVED", 2),
    ("stock_out: {when: 'count(stock) <'}\n", "E-EXPR-SYNTAX", 2),
])
def test_each_kind_of_mistake_is_located(tmp_path, body, code, line):
    f = _variant(tmp_path, body)
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(str(f))
    found = [d for d in exc.value.diagnostics if d.code == code]
    assert found, [d.format() for d in exc.value.diagnostics]
    if line is not None:
        assert found[0].pos.line == line and found[0].pos.path.endswith("v.yaml"), found[0].format()
    assert "Traceback" not in found[0].format()


def test_all_mistakes_reported_in_one_run(tmp_path):
    f = _variant(tmp_path, "params: {knock_limt: 5, gin_bonuss: 3}\n")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(str(f))
    assert len([d for d in exc.value.diagnostics if d.code == "E-UNKNOWN-PARAM"]) == 2
    assert any("did you mean `knock_limit`" in d.hint for d in exc.value.diagnostics)


def test_unknown_override_is_an_error_with_a_suggestion():
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load("gin_rummy", overrides={"knock_limt": 5})
    assert "knock_limit" in exc.value.diagnostics[0].hint


def test_dotted_override_and_params_override():
    rules = rulesdsl.load("gin_rummy", overrides={"params.knock_limit": 3, "gin_bonus": 20})
    assert rules.params["knock_limit"] == 3 and rules.params["gin_bonus"] == 20
