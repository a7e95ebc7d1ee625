"""`rulesdsl compare`: the same seeds and bots under each ruleset, paired differences with 95% intervals,
and one line that reads what changed."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.sim.compare import compare, difference_label, reading
from rulesdsl.sim import simulate


def run(*args):
    r = CliRunner().invoke(cli, ["compare", *args, "--jobs", "1"])
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    return r


def test_a_ruleset_compared_with_itself_differs_by_exactly_zero():
    r = run("president", "president", "--players", "4", "--games", "6", "--set", "target_score=4", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["schema"] == "rulesdsl.compare/1" and len(data["rulesets"]) == 2
    (cmp,) = data["comparisons"]
    assert cmp["label"] == "the same rules" and cmp["paired_matches"] == 6
    assert cmp["figures"], cmp
    for f in cmp["figures"]:
        d = f["difference"]
        assert (d["value"], d["low"], d["high"]) == (0.0, 0.0, 0.0), f
    assert cmp["reading"] == "the same rules: no figure differs beyond chance over 6 paired matches"


def test_a_higher_knock_limit_means_more_knocks_and_shorter_matches():
    """With random players who knock whenever the rules let them, a limit of 25 lets far more hands end
    in a knock (fewer in a void deal) than the standard 10, so a one-hand match comes much sooner."""
    r = run("gin_rummy", "gin_rummy", "knock_limit=25", "--games", "12", "--set", "target_score=1", "--json")
    assert r.exit_code == 0, r.output
    (cmp,) = json.loads(r.stdout)["comparisons"]
    assert cmp["reading"].startswith("knock_limit=25: ")
    assert "knock endings +" in cmp["reading"] and "hands per match -" in cmp["reading"]
    figures = {f["figure"]: f for f in cmp["figures"]}
    knocks = figures["knock endings"]["difference"]
    assert knocks["low"] > 0                              # more knocks, beyond chance
    assert figures["hands per match"]["difference"]["high"] < 0


def test_each_later_ruleset_is_compared_with_the_first():
    r = run("president", "president", "target_score=2", "president", "target_score=6", "--players", "4",
            "--games", "8", "--set", "target_score=4", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    labels = [c["label"] for c in data["comparisons"]]
    assert labels == ["target_score=2", "target_score=6"]
    assert [c["b"] for c in data["comparisons"]] == ["president target_score=2", "president target_score=6"]
    longer = {f["figure"]: f for f in data["comparisons"][1]["figures"]}["hands per match"]["difference"]
    assert longer["low"] > 0                              # a higher target takes more deals, every time


def test_the_text_gives_each_run_a_table_and_a_reading():
    r = run("president", "president", "target_score=6", "--players", "4", "--games", "6", "--set",
            "target_score=4")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0] == "2 rulesets, the same 6 matches each (seeds 0 to 5), 4 players, bots random, --set target_score=4"
    assert lines[1].startswith("A: president (President): 6 of 6 finished, ")
    assert lines[2].startswith("B: president target_score=6 (President): 6 of 6 finished, ")
    assert "B against A: 6 matches finished under both" in lines
    assert any(ln.split()[:3] == ["hands", "per", "match"] for ln in lines)
    assert lines[-1].startswith("reading: target_score=6: hands per match +")


def test_the_same_matches_are_played_under_each_ruleset():
    a = simulate("president", players=4, games=5, seed=3, overrides={"target_score": 4})
    b = simulate("president", players=4, games=5, seed=3, overrides={"target_score": 5})
    assert [r.seed for r in a.results] == [r.seed for r in b.results] == [3, 4, 5, 6, 7]
    cmp = compare(a.results, b.results, label="target_score=5", side="seat", sides=4)
    assert cmp["paired_matches"] == 5
    hands = {f["figure"]: f for f in cmp["figures"]}["hands per match"]
    diffs = [len(y.hands) - len(x.hands) for x, y in zip(a.results, b.results)]
    assert hands["difference"]["value"] == sum(diffs) / 5


def test_labels_name_what_differs():
    assert difference_label("g", {}, "g", {"knock_limit": 5}) == "knock_limit=5"
    assert difference_label("g", {}, "variants/v", {}) == "variants/v"
    assert difference_label("g", {"a": 1}, "g", {}, {"a": 3}) == "a=3"
    assert difference_label("g", {"flag": False}, "g", {"flag": True}) == "flag=true"
    assert difference_label("g", {"a": 1}, "g", {"a": 1}) == "the same rules"


def test_the_reading_lists_the_clearest_changes_first():
    def fig(name, kind, value, low, high, a=0.5):
        return {"figure": name, "kind": kind, "a": {"value": a, "low": None, "high": None, "n": 9},
                "difference": {"value": value, "low": low, "high": high, "n": 9}}

    figures = [fig("hands per match", "mean", 1.8, 1.5, 2.1), fig("seat 0 win rate", "rate", 0.05, -0.1, 0.2),
               fig("out endings", "share", -0.1, -0.2, -0.05, a=0.4)]
    line = reading("x=5", figures, 9)
    assert line == "x=5: hands per match +1.8 [+1.5, +2.1]; out endings -25% (-10.0 pp [-20.0, -5.0])"


def test_usage_errors_are_exit_2():
    r = run("president")
    assert r.exit_code == 2 and "at least two rulesets" in r.output
    r = run("target_score=3", "president")
    assert r.exit_code == 2 and "comes before any ruleset" in r.output
    r = run("gin_rummy", "president")
    assert r.exit_code == 2 and "same seats" in r.output
    r = run("president", "president", "--bots", "nosuchbot")
    assert r.exit_code == 2 and r.stderr.startswith("error: --bots: unknown bot")


def test_an_unknown_override_is_a_located_error():
    r = run("president", "president", "target_scor=3")
    assert r.exit_code == 1 and "target_score" in r.stdout
