"""`rulesdsl diff A B` and `rulesdsl list --verbose`: what a ruleset changes relative to another, on the
resolved models, in words and in JSON.

Expectations are written out only where they follow from a variant's own one-line file; everything else is
checked against the resolved trees themselves (every change claimed is really there, nothing equal is
reported)."""

from __future__ import annotations

import copy
import functools
import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.model.diff import MISSING, diff, normalise, same, value_at
from rulesdsl.model.diff_words import human, sentence
from rulesdsl.source.resolve import bundled_names, read_file

GAMES = [name for name, path in bundled_names() if "extends" not in read_file(path)]
VARIANTS = [(name, read_file(path)["extends"].value, read_file(path).plain())
            for name, path in bundled_names() if "extends" in read_file(path)]


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result


def tree(name, **overrides):
    """The resolved plain tree ``load`` gives (a fresh copy; bundled ones are loaded once)."""
    if overrides or not name.replace("/", "").replace("_", "").isalnum():
        return rulesdsl.load(name, overrides or None).tree.plain()
    return copy.deepcopy(_bundled_tree(name))


@functools.lru_cache(maxsize=None)
def _bundled_tree(name):
    return rulesdsl.load(name).tree.plain()


def write(tmp_path, name, data) -> str:
    """A ruleset file (JSON is YAML) in ``tmp_path``, named as the CLI takes a path."""
    f = tmp_path / name
    f.write_text(json.dumps(data))
    return str(f)


def assert_really_differs(a, b, changes):
    """Every change is where it says, with the values it says, and they differ."""
    na, nb = normalise(a), normalise(b)
    for c in changes:
        if c.a_at is not None:
            assert value_at(na, c.a_at) is not MISSING, c
        if c.b_at is not None:
            assert value_at(nb, c.b_at) is not MISSING, c
        if c.kind == "added":
            assert c.a_at is None and value_at(nb, c.b_at) == c.after, c
        elif c.kind == "removed":
            assert c.b_at is None and value_at(na, c.a_at) == c.before, c
        elif c.order:
            assert c.before != c.after and value_at(na, c.a_at) != value_at(nb, c.b_at), c
        else:
            assert c.kind == "changed" and not same(c.before, c.after), c
            assert c.b_at is None or value_at(nb, c.b_at) == c.after, c
            assert c.a_at is None or value_at(na, c.a_at) == c.before, c


@pytest.mark.parametrize("name,base,own", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_every_variant_changes_something_and_each_change_is_real(name, base, own):
    a, b = tree(base), tree(name)
    changes = diff(a, b)
    assert changes
    assert_really_differs(a, b, changes)
    paths = {c.path_text() for c in changes}
    for param, value in own.get("params", {}).items():  # what the file sets anew, it changes
        was = normalise(a)["params"][param]["default"]
        assert (f"params.{param}.default" in paths) == (not same(was, value)), param
    for c in changes:                                  # and nothing outside what the file writes
        assert c.path[0].key in own


@pytest.mark.parametrize("name", GAMES + [v[0] for v in VARIANTS])
def test_a_ruleset_does_not_differ_from_itself(name):
    assert diff(tree(name), tree(name)) == []


def test_an_override_shows_exactly_that_parameter():
    changes = diff(tree("gin_rummy"), tree("gin_rummy", knock_limit=5))
    assert [(c.path_text(), c.kind, c.before, c.after) for c in changes] == \
        [("params.knock_limit.default", "changed", 10, 5)]
    assert sentence(changes[0]) == "knock limit: 10 -> 5"


def test_a_step_inserted_in_the_middle_is_one_added_step(tmp_path):
    turn = tree("gin_rummy")["turn"]
    first = turn[0]["step"]
    turn.insert(1, {"step": "wait", "actions": [{"pass": True}]})
    path = write(tmp_path, "wait.yaml", {"extends": "gin_rummy", "turn": turn})
    a, b = tree("gin_rummy"), tree(path)
    changes = diff(a, b)
    assert [(c.path_text(), c.kind, c.prev) for c in changes] == [("turn[wait]", "added", first)]
    assert sentence(changes[0], short=True) == f"adds step wait after step {human(first)}"
    assert_really_differs(a, b, changes)
    back = diff(b, a)                                  # and the other way: one removed step
    assert [(c.path_text(), c.kind) for c in back] == [("turn[wait]", "removed")]


def test_an_unnamed_item_inserted_in_the_middle_is_one_added_item(tmp_path):
    outcomes = tree("gin_rummy")["scoring"]["outcomes"]
    new = {"when": "deadwood(declarer) == 99", "scorer": "declarer", "points": 1}
    outcomes.insert(2, new)
    path = write(tmp_path, "outcome.yaml", {"extends": "gin_rummy", "scoring": {"outcomes": outcomes}})
    changes = diff(tree("gin_rummy"), tree(path))
    assert [(c.path_text(), c.kind, c.after) for c in changes] == [("scoring.outcomes[3]", "added", new)]


def test_named_items_in_another_order_are_one_change_of_order(tmp_path):
    turn = tree("gin_rummy")["turn"]
    actions = turn[-1]["actions"]
    actions[-1], actions[-2] = actions[-2], actions[-1]
    path = write(tmp_path, "order.yaml", {"extends": "gin_rummy", "turn": turn})
    a, b = tree("gin_rummy"), tree(path)
    changes = diff(a, b)
    assert [(c.path_text(), c.kind, c.order) for c in changes] == \
        [(f"turn[{turn[-1]['step']}].actions", "changed", True)]
    assert_really_differs(a, b, changes)


def test_what_means_the_same_is_no_change(tmp_path):
    """Re-spaced expressions, a field written at its default, a parameter written out in full."""
    base = tree("gin_rummy")
    ends = "   ".join(base["match"]["ends_when"].split())
    path = write(tmp_path, "same.yaml", {"extends": "gin_rummy", "match": {"ends_when": ends},
                                         "melds": {"run": {"wrap": False}},
                                         "params": {"knock_limit": {"default": 10}}})
    assert tree(path)["match"]["ends_when"] != base["match"]["ends_when"]
    assert diff(base, tree(path)) == []


def test_a_number_that_becomes_an_expression_reads_as_a_formula(tmp_path):
    path = write(tmp_path, "copies.yaml", {"extends": "gin_rummy", "deck": {"copies": "if players > 2 then 2 else 1"}})
    [change] = diff(tree("gin_rummy"), tree(path))
    assert change.formula
    assert sentence(change) == "deck, copies: 1 -> `if players > 2 then 2 else 1`"


def test_a_parameter_doc_is_said_with_its_name(tmp_path):
    path = write(tmp_path, "doc.yaml", {"extends": "gin_rummy",
                                        "params": {"target_score": {"default": 150, "doc": "points to win"}}})
    r = run("diff", "gin_rummy", path)
    assert r.exit_code == 0, r.output
    assert "- target score (points to win): 100 -> 150\n" in r.output


def test_cli_text_for_a_one_line_variant():
    r = run("diff", "gin_rummy", "variants/straight_gin")         # params: {knock_allowed: false}
    assert r.exit_code == 0, r.output
    assert r.output == "variants/straight_gin changes, relative to gin_rummy:\n- knock allowed: yes -> no\n"


def _named(param: str, game: str = "gin_rummy") -> str:
    """How the long form names a parameter: its words, and its ``doc:`` text in brackets when it has one."""
    doc = rulesdsl.load(game).model.params[param].doc
    return human(param) + (f" ({' '.join(doc.split())})" if doc else "")


def test_cli_overrides_belong_to_their_ruleset_and_set_to_both():
    r = run("diff", "gin_rummy", "gin_rummy", "knock_limit=5", "target_score=50")
    assert r.output.splitlines() == ["gin_rummy knock_limit=5 target_score=50 changes, relative to gin_rummy:",
                                     f"- {_named('knock_limit')}: 10 -> 5", f"- {_named('target_score')}: 100 -> 50"]
    r = run("diff", "gin_rummy", "knock_limit=5", "gin_rummy")
    assert r.output.splitlines()[1:] == [f"- {_named('knock_limit')}: 5 -> 10"]
    r = run("diff", "gin_rummy", "variants/straight_gin", "--set", "knock_limit=5")
    assert r.output.splitlines()[1:] == [f"- {_named('knock_allowed')}: yes -> no"]


def test_cli_no_differences():
    r = run("diff", "gin_rummy", "gin_rummy", "--set", "knock_limit=5")
    assert (r.exit_code, r.output) == (0, "no differences\n")


def test_cli_json_shape():
    r = run("diff", "gin_rummy", "variants/oklahoma_gin", "--format", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert set(data) == {"schema", "a", "b", "changes"}
    assert (data["schema"], data["a"], data["b"]) == ("rulesdsl.diff/1", "gin_rummy", "variants/oklahoma_gin")
    own = read_file(dict(bundled_names())["variants/oklahoma_gin"]).plain()["params"]
    assert [c["path"] for c in data["changes"]] == [f"params.{k}.default" for k in own]
    for c in data["changes"]:
        assert set(c) == {"path", "kind", "before", "after", "text"}
        assert c["kind"] == "changed" and c["after"] == own[c["path"].split(".")[1]]
        assert c["text"].startswith(_named(c["path"].split(".")[1]) + ": ")
    empty = json.loads(run("diff", "gin_rummy", "gin_rummy", "--format", "json").output)
    assert empty["changes"] == []


def test_cli_errors(tmp_path):
    for args in (["gin_rummy"], ["gin_rummy", "president", "big_two"], ["knock_limit=5", "gin_rummy"]):
        r = run("diff", *args)
        assert r.exit_code == 2, args
        assert len(r.output.splitlines()) == 1 and r.output.startswith("error: "), r.output
    r = run("diff", "gin_rummy", "gin_rummy", "knock_limt=5")
    assert r.exit_code == 1 and "error[E-UNKNOWN-PARAM]" in r.output and "did you mean `knock_limit`?" in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: gin_rummy\nmelds:\n  set: {kind: set, min: 9}\n")
    r = run("diff", "gin_rummy", str(bad), "--format", "json")
    assert r.exit_code == 1
    report = json.loads(r.output)
    assert report["valid"] is False and report["diagnostics"][0]["code"] == "E-MELD-IMPOSSIBLE"
    r = run("diff", "gin_rummy", "no_such_game")
    assert r.exit_code == 1 and "error[E-NOT-FOUND]" in r.output


@pytest.mark.parametrize("name", GAMES + ["variants/president_jokers_wild"])
def test_a_copy_in_the_other_syntax_does_not_differ(tmp_path, name):
    copy = tmp_path / "copy.rules"
    assert run("convert", name, "--resolved", "--output", str(copy)).exit_code == 0
    r = run("diff", name, str(copy))
    assert (r.exit_code, r.output) == (0, "no differences\n")


def test_list_verbose_adds_each_variants_changes():
    plain = run("list").output.splitlines()
    verbose = run("list", "--verbose")
    assert verbose.exit_code == 0
    lines = verbose.output.splitlines()
    assert len(lines) == len(plain)
    variants = {v[0] for v in VARIANTS}
    for short, line in zip(plain, lines):
        name = short.split()[0]
        assert len(line) <= 100
        if name not in variants:
            assert line == short                        # a game keeps its line
            continue
        assert line.startswith(short + " ") and len(line) > len(short) + 1
    assert f"{'variants/straight_gin':32} (extends gin_rummy) knock allowed: yes -> no" in lines
    cut = [line for line in lines if line.startswith("variants/hand_and_foot_permission_optional ")]
    assert cut[0].endswith("...") and len(cut[0]) > 90


def test_words_for_items_added_and_removed_inside_a_section(tmp_path):
    turn = tree("gin_rummy")["turn"]
    last = turn[-1]
    extra = {"pass": True, "when": "count(stock) == 0"}
    last["actions"].insert(1, extra)
    before = _label_words(last["actions"][0])
    path = write(tmp_path, "more.yaml", {"extends": "gin_rummy", "turn": turn,
                                         "melds": {"pair": {"kind": "set", "min": 2, "max": 2}}})
    changes = diff(tree("gin_rummy"), tree(path))
    said = [sentence(c, short=True) for c in changes]
    assert said == ["adds meld type pair", f"step {last['step']}: adds action pass after action {before}"]
    assert sentence(changes[1]) == (f"step {last['step']}: adds action pass after action {before}: "
                                    "{pass: yes, when: `count(stock) == 0`}")
    back = [sentence(c, short=True) for c in diff(tree(path), tree("gin_rummy"))]
    assert back == ["removes meld type pair", f"step {last['step']}: removes action pass"]


def _label_words(action: dict) -> str:
    """How an action (its first key is its verb) is named in words: ``verb target``."""
    verb, target = next(iter(action.items()))
    return human(f"{verb} {target}")


def test_a_word_where_a_formula_may_stand_reads_as_a_word():
    [change] = diff(tree("gin_rummy"), tree("gin_rummy", **{"match.on_tie": "shared"}))
    assert sentence(change) == "match, on tie: another hand -> shared"


def test_any_two_games_compare_without_error():
    """Different games differ everywhere: every change still lies where it says."""
    for a_name, b_name in zip(GAMES, GAMES[1:] + GAMES[:1]):
        a, b = tree(a_name), tree(b_name)
        changes = diff(a, b)
        assert changes
        assert_really_differs(a, b, changes)
        assert all(sentence(c) and sentence(c, short=True) for c in changes)


def test_cli_json_reports_both_invalid_rulesets_in_one_document():
    r = run("diff", "no_such_game", "gin_rummy", "knock_limt=5", "--format", "json")
    assert r.exit_code == 1
    reports = json.loads(r.output)
    assert [(x["ruleset"], x["valid"], x["diagnostics"][0]["code"]) for x in reports] == \
        [("no_such_game", False, "E-NOT-FOUND"), ("gin_rummy knock_limt=5", False, "E-UNKNOWN-PARAM")]


def test_plays_in_another_order_are_one_change(tmp_path):
    """Climbing plays are listed weakest first: their order is part of the rules."""
    plays = tree("big_two")["climbing"]["plays"]
    names = list(plays)
    names[0], names[1] = names[1], names[0]
    path = write(tmp_path, "order.yaml", {**tree("big_two"), "climbing": {**tree("big_two")["climbing"],
                                                                           "plays": {k: plays[k] for k in names}}})
    changes = diff(tree("big_two"), tree(path))
    assert [(c.path_text(), c.order, c.after) for c in changes] == [("climbing.plays", True, names)]
    assert sentence(changes[0], short=True) == "climbing, plays reordered"


def _plain_paths(node, prefix=()):
    """Every (path, value) of a plain tree, the root first."""
    yield prefix, node
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        yield from _plain_paths(v, prefix + (k,))


def _other(v):
    """A value of the same kind that differs from ``v``."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float)):
        return v + 1
    if isinstance(v, str):
        return v + "_x" if v.isidentifier() else f"({v}) and false"
    return None


@given(game=st.sampled_from(GAMES), pick=st.integers(0, 10**6), how=st.sampled_from(["leaf", "drop", "insert"]))
@settings(max_examples=60, deadline=None)
def test_any_one_edit_is_reported_where_it_is(game, pick, how):
    a = normalise(tree(game))
    b = copy.deepcopy(a)
    paths = [(p, v) for p, v in _plain_paths(b) if p]
    if how == "leaf":
        paths = [(p, v) for p, v in paths if _other(v) is not None]
    elif how == "insert":
        paths = [(p, v) for p, v in paths if isinstance(v, list) and v and isinstance(v[0], dict)]
    path, value = paths[pick % len(paths)]
    parent = value_at(b, path[:-1])
    if how == "leaf":
        parent[path[-1]] = _other(value)
    elif how == "drop":
        del parent[path[-1]]
    else:
        value.insert(pick % (len(value) + 1), {**copy.deepcopy(value[0]), "rule": "edit"})
    changes = diff(a, b)
    assert_really_differs(a, b, changes)
    assert diff(b, b) == []
    if how != "drop":
        assert changes, (path, how)
        assert all(c.path_text() for c in changes)
