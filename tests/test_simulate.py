"""`rulesdsl simulate`: bots per seat, the report with its intervals, --json, --plot, unfinished matches,
and every problem with the options as one line (exit 2), never a traceback."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from rulesdsl.cli.main import cli
from rulesdsl.sim import simulate as simulate_api

QUICK = ("president", "--players", "4", "--set", "target_score=4")


def run(*args, jobs="1"):
    r = CliRunner().invoke(cli, ["simulate", *args, "--jobs", jobs])
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def test_the_text_report_gives_intervals_wins_and_the_first_players_edge():
    r = run(*QUICK, "--games", "6", "--seed", "1")
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.splitlines()[0] == "President: 6 matches, 4 players, seed 1, bots random"
    assert re.search(r"hands \(deals\) played: \d+ \(\d+\.\d \[\d+\.\d, \d+\.\d\] per match\)", out)
    assert re.search(r"win rate by seat: seat 0 \d+\.\d% \[\d+\.\d, \d+\.\d\]", out)
    assert re.search(r"first to act won \d of 6: .*edge over an even 25\.0%: [+-]\d+\.\d pp \[", out)
    assert "roles by seat" in out and "final margin: mean" in out and "decisions/s" in out


def test_json_report_schema():
    r = run(*QUICK, "--games", "3", "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert set(rep) == {"schema", "ruleset", "players", "side", "sides", "bots", "bot_options", "seed", "games",
                        "max_decisions", "matches", "hands", "decisions", "endings", "wins", "first_player",
                        "margin", "roles", "timing", "per_match", "warnings"}
    assert rep["schema"] == "rulesdsl.simulate/1"
    assert set(rep["ruleset"]) == {"name", "source", "overrides", "digest"}
    assert rep["ruleset"]["overrides"] == {"target_score": 4}
    assert set(rep["matches"]) == {"played", "finished", "unfinished", "failed", "stopped_early"}
    assert set(rep["hands"]["per_match"]) == {"value", "low", "high", "n"}
    assert set(rep["endings"][0]) == {"ending", "hands", "share", "points_per_hand"}
    assert set(rep["wins"]) == {"by_side", "shared"} and len(rep["wins"]["by_side"]) == 4
    assert set(rep["first_player"]) == {"wins", "matches", "rate", "even", "edge"}
    assert set(rep["per_match"][0]) == {"match", "seed", "status", "winner", "scores", "hands", "decisions",
                                        "first", "dealer"}
    assert [m["seed"] for m in rep["per_match"]] == [0, 1, 2]
    assert sum(s["wins"] for s in rep["wins"]["by_side"]) + rep["wins"]["shared"] == 3
    assert rep["roles"]["names"][0] == "President"


def test_team_games_count_wins_by_team():
    rep = simulate_api("hand_and_foot", games=1, jobs=1).report
    assert (rep["side"], rep["sides"], rep["players"]) == ("team", 2, 4)
    assert len(rep["per_match"][0]["scores"]) == 2 and len(rep["wins"]["by_side"]) == 2
    assert rep["per_match"][0]["winner"] in (0, 1, None)


def test_an_unfinished_match_is_reported_with_its_seed_and_the_run_goes_on():
    r = run(*QUICK, "--games", "3", "--seed", "20", "--set", "target_score=1000", "--max-decisions", "150")
    assert r.exit_code == 0, r.output
    for k in (1, 2, 3):
        assert f"match {k} unfinished (seed {19 + k}): no end within 150 decisions" in r.stdout
    assert "0 of 3 matches finished, 3 unfinished" in r.stdout
    rep = json.loads(run(*QUICK, "--games", "3", "--seed", "20", "--set", "target_score=1000",
                         "--max-decisions", "150", "--json").stdout)
    assert rep["matches"]["unfinished"] == [{"match": k, "seed": 19 + k, "decisions": 150} for k in (1, 2, 3)]


def test_unfinished_and_finished_matches_in_one_run():
    rep = simulate_api("president", players=4, games=6, overrides={"target_score": 4}, max_decisions=300).report
    unfinished = {u["seed"] for u in rep["matches"]["unfinished"]}
    statuses = {m["seed"]: m["status"] for m in rep["per_match"]}
    assert unfinished == {s for s, st in statuses.items() if st == "unfinished"}
    assert rep["matches"]["finished"] == 6 - len(unfinished)
    assert all(m["decisions"] <= 300 for m in rep["per_match"])


def test_no_progress_bar_when_standard_error_is_not_a_terminal():
    r = run(*QUICK, "--games", "3")
    assert r.stderr == ""
    assert "\r" not in r.output and "[#" not in r.output


def test_a_progress_bar_when_standard_error_is_a_terminal(monkeypatch):
    import rulesdsl.cli.simulate as sim_cli

    monkeypatch.setattr(sim_cli, "_stderr_is_terminal", lambda: True)
    r = run(*QUICK, "--games", "3")
    assert r.exit_code == 0
    assert "President" in r.stderr                 # the bar's label (click draws the bar on a real terminal)
    assert "President" not in r.stdout.splitlines()[1:]


def test_bots_one_per_seat_the_last_repeated():
    rep = json.loads(run(*QUICK, "--games", "2", "--bots", "sim_bots:FirstLegal,random", "--json").stdout)
    assert rep["bots"] == ["sim_bots:FirstLegal", "random", "random", "random"]
    text = run(*QUICK, "--games", "2", "--bots", "sim_bots:FirstLegal,random").stdout
    assert "bots sim_bots:FirstLegal,random" in text.splitlines()[0]


def test_bot_options_reach_the_bots_that_take_them():
    rep = json.loads(run(*QUICK, "--games", "1", "--bots", "sim_bots:FirstLegal,random", "--iterations", "7",
                         "--json").stdout)
    assert rep["bot_options"] == {"iterations": 7}          # random takes none: left out for it
    assert rep["matches"]["finished"] == 1


def test_search_options_reach_ismcts():
    rep = json.loads(run(*QUICK, "--games", "1", "--bots", "ismcts,greedy", "--iterations", "3", "--depth", "1",
                         "--rollout", "random", "--json").stdout)
    assert rep["bot_options"] == {"iterations": 3, "rollout": "random", "depth": 1}
    assert rep["bots"][0] == "ismcts" and rep["matches"]["finished"] == 1


@pytest.mark.parametrize("bots,words", [
    ("nosuchbot", "unknown bot `nosuchbot`"),
    ("no_such_module_xyz:Bot", "cannot import module `no_such_module_xyz`"),
    ("sim_bots:Missing", "has no class `Missing`"),
    ("sim_bots:NeedsWidth", "bot `sim_bots:NeedsWidth`"),
    ("random,random,random,random,random", "names 5 bots for 4 players"),
    ("random,,random", "one bot per seat"),
])
def test_a_bot_that_cannot_be_made_is_one_line_and_exit_2(bots, words):
    r = run(*QUICK, "--games", "1", "--bots", bots)
    assert r.exit_code == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: --bots: ")
    assert words in r.stderr


@pytest.mark.parametrize("bot,words", [("sim_bots:Raises", "raised ValueError: no idea what to do"),
                                       ("sim_bots:Illegal", "chose an illegal action")])
def test_a_bot_that_fails_in_play_fails_its_match_as_one_line(bot, words):
    r = run(*QUICK, "--games", "2", "--seed", "4", "--bots", bot)
    assert r.exit_code == 1
    lines = [ln for ln in r.stdout.splitlines() if re.match(r"match \d+ \(seed", ln)]
    assert len(lines) == 2 and lines[0].startswith(f"match 1 (seed 4): bot `{bot}` (seat ")
    assert all(words in ln for ln in lines)
    assert "0 of 2 matches finished, 2 failed" in r.stdout


def test_a_run_stops_after_ten_failed_matches():
    r = run(*QUICK, "--games", "30", "--bots", "sim_bots:Raises", jobs="2")
    assert r.exit_code == 1
    assert "stopped after match 10 of 30: 10 matches failed" in r.stdout
    assert len([ln for ln in r.stdout.splitlines() if re.match(r"match \d+ \(seed", ln)]) == 10


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<svg")])
def test_plot_writes_png_and_svg(tmp_path, suffix, magic):
    pytest.importorskip("matplotlib")
    f = tmp_path / f"dist{suffix}"
    r = run(*QUICK, "--games", "4", "--plot", str(f))
    assert r.exit_code == 0, r.output
    data = f.read_bytes()
    assert magic in data[:400]
    if suffix == ".svg":
        assert b"match length" in data and b"wins by seat" in data


def test_plot_refuses_another_format_before_playing(tmp_path):
    r = run(*QUICK, "--games", "1", "--plot", str(tmp_path / "dist.pdf"))
    assert r.exit_code == 2 and r.stderr.startswith("error: --plot writes a .png or an .svg file")
    assert r.stdout == "" and not (tmp_path / "dist.pdf").exists()


def test_plot_without_matplotlib_is_one_line(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    r = run(*QUICK, "--games", "1", "--plot", str(tmp_path / "dist.png"))
    assert r.exit_code == 2
    assert r.stderr.strip() == "error: --plot needs matplotlib, an optional extra: pip install 'rulesdsl[plot]'"
