"""The command line: list, validate (text and JSON, exit codes), simulate, convert; never a traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl.cli.main import cli, main


@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args):
        result = runner.invoke(cli, list(args))
        assert "Traceback" not in result.output
        return result
    return invoke


def test_list_shows_bundled_games_and_variants(run):
    r = run("list")
    assert r.exit_code == 0
    assert "gin_rummy" in r.output and "variants/straight_gin" in r.output


def test_validate_ok(run):
    r = run("validate", "gin_rummy", "variants/oklahoma_gin")
    assert r.exit_code == 0, r.output
    assert r.output.count(": ok") == 2


def test_validate_reports_located_errors_and_exit_1(run, tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gin_rummy\nparams: {knock_limt: 5}\nmelds:\n  set: {kind: set, min: 9}\n")
    r = run("validate", str(f))
    assert r.exit_code == 1
    assert "bad.yaml:2:" in r.output and "error[E-UNKNOWN-PARAM]" in r.output
    assert "did you mean `knock_limit`?" in r.output
    assert "error[E-MELD-IMPOSSIBLE]" in r.output          # both problems in one run


def test_validate_json(run, tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gin_rummy\nparams: {knock_limt: 5}\n")
    r = run("validate", "--format", "json", str(f))
    assert r.exit_code == 1
    data = json.loads(r.output)
    assert data["valid"] is False
    d = data["diagnostics"][0]
    assert (d["line"], d["code"]) == (2, "E-UNKNOWN-PARAM") and d["path"].endswith("bad.yaml")


def test_validate_usage_error_is_exit_2(run):
    assert run("validate").exit_code == 2
    assert run("validate", "gin_rummy", "--format", "xml").exit_code == 2


def test_set_unknown_key_suggests(run):
    r = run("validate", "gin_rummy", "--set", "knock_limt=5")
    assert r.exit_code == 1 and "knock_limit" in r.output


def test_unknown_ruleset_is_located_error(run):
    r = run("validate", "gin_rumy")
    assert r.exit_code == 1 and "E-NOT-FOUND" in r.output and "gin_rummy" in r.output


def test_simulate_prints_summary(run):
    r = run("simulate", "gin_rummy", "--games", "2", "--seed", "3", "--set", "target_score=20")
    assert r.exit_code == 0, r.output
    for word in ("hands (deals) played", "how hands ended", "hands/s", "decisions/s"):
        assert word in r.output


def test_simulate_set_values_are_typed(run):
    r = run("simulate", "gin_rummy", "--games", "1", "--set", "big_gin_enabled=true", "--set", "target_score=10")
    assert r.exit_code == 0, r.output


def test_simulate_rejects_player_count(run):
    r = run("simulate", "gin_rummy", "--players", "3", "--games", "1")
    assert r.exit_code == 2 and "2 players" in r.output


def test_convert_round_trips_to_the_same_model(run, tmp_path):
    r = run("convert", "gin_rummy", "--to", "rules")
    assert r.exit_code == 0
    f = tmp_path / "gin.rules"
    f.write_text(r.output)
    a, b = rulesdsl.load("gin_rummy"), rulesdsl.load(str(f))
    assert a.model == b.model and a.digest == b.digest
    r2 = run("convert", str(f), "--to", "yaml")
    g = tmp_path / "gin.yaml"
    g.write_text(r2.output)
    assert rulesdsl.load(str(g)).model == a.model


def test_main_never_shows_a_traceback(capsys, monkeypatch, tmp_path):
    f = tmp_path / "x.rules"
    f.write_text("name = \n = = {")
    with pytest.raises(SystemExit) as exc:
        main(["validate", str(f)])
    out = capsys.readouterr()
    assert exc.value.code == 1
    assert "Traceback" not in out.out + out.err and "E-SYNTAX" in out.out
