"""``rulesdsl play`` and ``rulesdsl replay`` as people use them.

Every bundled game and variant is played to the end of a match through plain standard input (the
path scripts and pipes take): the answers are worked out beforehand on a twin table (same ruleset,
seed and bots; the person's moves chosen by a greedy bot), so the final scores the command prints
must be the twin's.  A real terminal (a pty, through pexpect) plays whole deals, is refused an
illegal move with the rule's message, saves and resumes, and steps a replay back and forth.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner


def _need(module: str):
    """The optional module, or a skip (a failure in CI, where every tool must be there)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{module} is not installed (pip install 'rulesdsl[play,test]')", allow_module_level=True)


_need("rich")
_need("prompt_toolkit")

import rulesdsl  # noqa: E402
from rulesdsl.bots import make_bot  # noqa: E402
from rulesdsl.cli.main import cli  # noqa: E402
from rulesdsl.source.resolve import bundled_names, read_file  # noqa: E402
from rulesdsl.table import HUMAN, Table  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

#: overrides that make a match short, by the bundled game a ruleset extends
SHORT = {"gin_rummy": {"target_score": 10}, "president": {"target_score": 1},
         "rummy_500": {"target_score": 30}, "hand_and_foot": {"deals_per_game": 1},
         "big_two": {"penalty_limit": 1}, "crazy_eights": {"target_score": 1},
         "contract_rummy": {"match.ends_when": "deal.number >= 1"}, "hearts": {"target_score": 1},
         "spades": {"target_score": 1}}


def _base(name: str) -> str:
    """The bundled game a bundled ruleset is, or extends."""
    path = dict(bundled_names())[name]
    ext = read_file(path).get("extends")
    return name if ext is None else _base(str(ext.value))


def _sets(overrides: dict) -> list:
    return [arg for k, v in overrides.items() for arg in ("--set", f"{k}={v}")]


#: bots that end a short match quickly (greedy is slow to choose in the long rummy games; random
#: bots never end a Gin hand but by the stock)
FAST_BOT = {"gin_rummy": "greedy", "president": "greedy", "big_two": "greedy", "crazy_eights": "greedy",
            "hearts": "greedy", "spades": "greedy"}


def _twin(rules, people: list, seed: int, players=None, bot: str = "greedy", limit: int = 3000):
    """The answers a person playing like ``bot`` would type at ``rulesdsl play`` (by number or text,
    in turn), and the table they lead to (the other seats: ``bot`` too); the table stops short of
    the match's end after ``limit`` actions."""
    n = players or rules.model.players.default
    table = Table.new(rules, [HUMAN if s in people else bot for s in range(n)], seed=seed)
    person = {s: make_bot(bot, seed=50 + s) for s in people}
    answers = []
    while True:
        table.run_bots(limit=limit)
        seat = table.to_move
        if seat is None or len(table.events) >= limit:
            return answers, table
        legal = table.view(seat)["legal_actions"]
        action = str(person[seat].choose(table.game))
        if action in legal and len(answers) % 2 == 0:
            answers.append(str(legal.index(action) + 1))
        else:
            answers.append(action.upper() if len(answers) % 3 == 0 else action)
        table.act(seat, action)


def _final_line(output: str) -> str:
    return next(line for line in output.splitlines() if line.startswith("Match over. Final scores:"))


def _expect_final(output: str, table, reader) -> None:
    game = table.game
    line = _final_line(output)
    if game.teams:
        for t in range(game.teams):
            names = " and ".join(table.name(s, reader) for s in game.members(t))
            assert f"team {t + 1} ({names}) {game.scores[t]}" in line, line
    else:
        for s, score in enumerate(game.scores):
            assert f"{table.name(s, reader)} {score}" in line, line
    if game.winner is not None:
        assert "Winner: " in output


def _play(args: list, answers: list, refusals: bool = False):
    result = CliRunner().invoke(cli, ["play", *args], input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    assert refusals or "Not allowed" not in result.output
    return result.output


@pytest.mark.parametrize("name", [n for n, _ in bundled_names()])
def test_every_game_to_the_end_of_a_match_through_standard_input(name):
    base = _base(name)
    overrides, bot = SHORT[base], FAST_BOT.get(base, "random")
    rules = rulesdsl.load(name, overrides=overrides)
    for seed in range(11, 16):             # random bots may buy and draw for ever: a seed where they end
        answers, twin = _twin(rules, [0], seed=seed, bot=bot)
        if twin.game.is_over:
            break
    assert twin.game.is_over
    output = _play([name, "--seed", str(seed), "--bots", bot, *_sets(overrides)], answers)
    _expect_final(output, twin, reader=0)
    assert "Hand 1 is over" in output


def test_two_people_share_the_keyboard_and_each_sees_only_their_hand():
    rules = rulesdsl.load("gin_rummy", overrides=SHORT["gin_rummy"])
    answers, twin = _twin(rules, [0, 1], seed=4)
    output = _play(["gin_rummy", "--seed", "4", "--seat", "1", "--seat", "2", *_sets(SHORT["gin_rummy"])], answers)
    _expect_final(output, twin, reader=None)
    screens = output.split("Pass to seat ")
    assert len(screens) > 3
    for screen in screens[1:]:
        seat = int(screen[0])
        assert f"you are seat {seat}" in screen.splitlines()[1]
    assert "\x1b" not in output and "\n" * 20 not in output        # a pipe gets no clearing: nothing to hide


def test_a_ruleset_file_of_ones_own(tmp_path, monkeypatch):
    source = REPO / "rulesets" / "crazy_eights.yaml"
    mine = tmp_path / "my_eights.yaml"
    mine.write_text(source.read_text(encoding="utf-8").replace("target_score: 100", "target_score: 1"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    rules = rulesdsl.load("./my_eights.yaml")
    answers, twin = _twin(rules, [1], seed=3, players=3)
    output = _play(["./my_eights.yaml", "--seed", "3", "--seat", "2", "--players", "3"], answers)
    _expect_final(output, twin, reader=1)


def test_commands_and_end_of_input():
    output = _play(["gin_rummy", "--seed", "2"], ["help", "rules", "log", "99"])
    assert "save FILE" in output and "target_score = 100" in output
    assert "No move is numbered 99" in output
    assert "Left the table." in output             # the end of the input leaves cleanly, status 0


def test_an_illegal_move_names_its_rule_and_changes_nothing():
    output = _play(["gin_rummy", "--seed", "1"], ["draw stock", "knock 10S", "log"], refusals=True)
    assert re.search(r"Not allowed: cannot knock now.*?deadwood\(hand\) = \d+.*?\[GIN-KNOCK-3 at \S*gin_rummy\.yaml:\d+:\d+\]", output, re.S)
    assert output.count("You draw from the stock.") == 2          # on the screen, and in the log
    assert "knocks" not in output and "You knock" not in output


def test_save_and_load(tmp_path):
    saved = tmp_path / "game.json"
    _play(["president", "--seed", "3", "--players", "4"], ["1", "1", f"save {saved}", "quit"])
    data = json.loads(saved.read_text())
    assert data["format"] == "rulesdsl-record/1" and data["table"]["seats"] == [HUMAN] + ["greedy"] * 3
    assert rulesdsl.replay(data).history == data["actions"]
    table = Table.load(data)
    hand = table.view(0)["zones"]["hand"][0]["cards"]
    output = _play(["--load", str(saved)], ["quit"])
    shown = output.split("Your hand")[1].split("Your move")[0]
    assert set(hand) <= set(shown.replace(":", " ").split())


@pytest.mark.parametrize("args,message", [
    (["no_such_game"], "error: "),
    (["gin_rummy", "--seat", "3"], "seat 3 does not exist"),
    (["gin_rummy", "--bots", "nobot"], "error: --bots"),
    (["gin_rummy", "--seat", "1", "--seat", "2", "--bots", "greedy"], "no seat for a bot"),
    (["gin_rummy", "--players", "3"], "--players"),
    (["gin_rummy", "--set", "nokey"], "KEY=VALUE"),
    ([], "name a game"),
    (["gin_rummy", "--load", "x.json"], "--load resumes"),
])
def test_option_errors_are_one_line_and_status_2(args, message):
    result = CliRunner().invoke(cli, ["play", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_saved_file_errors(tmp_path):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{nope")
    not_record = tmp_path / "list.json"
    not_record.write_text('{"format": "other"}')
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    for command in ("play --load", "replay"):
        for path, message in ((tmp_path / "missing.json", "cannot read"), (bad_json, "not JSON"),
                              (not_record, "not a rulesdsl record"), (deep, "nested too deeply")):
            result = CliRunner().invoke(cli, [*command.split(), str(path)])
            assert result.exit_code == 2, result.output
            lines = result.output.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_a_saved_game_seating_a_bot_of_its_own_loads_only_when_the_command_names_it(tmp_path, monkeypatch):
    """docs/play.md: from a file, only bundled bots are built; `--allow-bot MODULE:CLASS` names the
    module the person chose to run (a `module:Class` seat would otherwise import any code)."""
    (tmp_path / "loud.py").write_text("print('IMPORTED')\nfrom rulesdsl.bots.random_bot import RandomBot as Bot\n")
    monkeypatch.chdir(tmp_path)
    saved = tmp_path / "game.json"
    _play(["gin_rummy", "--seed", "1"], ["1", f"save {saved}", "quit"])
    data = json.loads(saved.read_text())
    data["table"]["seats"][1] = "loud:Bot"
    saved.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["play", "--load", str(saved)], input="quit\n")
    assert result.exit_code == 2 and "IMPORTED" not in result.output
    assert "--allow-bot loud:Bot" in result.output
    result = CliRunner().invoke(cli, ["play", "--load", str(saved), "--allow-bot", "loud:Bot"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "IMPORTED" in result.output and "seat 2 (loud:Bot)" in result.output
    data["table"]["bot_options"] = {"iterations": 10 ** 9}               # a replay builds no bot: any
    saved.write_text(json.dumps(data))
    result = CliRunner().invoke(cli, ["replay", str(saved)], input="q\n")
    assert result.exit_code == 0 and "IMPORTED" not in result.output, result.output


def test_the_command_line_holds_bot_options_to_what_a_saved_game_may_hold():
    """What `play` saves, `play --load` reads back: the options typed are held to the same bounds."""
    result = CliRunner().invoke(cli, ["play", "gin_rummy", "--bots", "ismcts", "--iterations", "200000"])
    assert result.exit_code == 2 and "iterations must be a whole number from 1 to 100,000" in result.output


def test_an_invalid_ruleset_prints_its_diagnostics_and_status_1(tmp_path, monkeypatch):
    (tmp_path / "broken.yaml").write_text("extends: gin_rummy\nparams: {no_such_param: 1}\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["play", "./broken.yaml"])
    assert result.exit_code == 1 and "error[" in result.output


def test_without_the_play_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)
    result = CliRunner().invoke(cli, ["play", "gin_rummy"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: the terminal table needs rich: pip install 'rulesdsl[play]'"
    assert CliRunner().invoke(cli, ["list"]).exit_code == 0      # the other commands do not need it


def test_replay_through_standard_input(tmp_path):
    saved = tmp_path / "game.json"
    _play(["gin_rummy", "--seed", "1"], ["1", "1", "1", f"save {saved}", "quit"])
    result = CliRunner().invoke(cli, ["replay", str(saved)], input="\nn\np\ng 3\ng 99\nx\nq\n")
    assert result.exit_code == 0, result.output
    positions = re.findall(r"replay · action (\d+) of (\d+)", result.output)
    total = positions[0][1]
    assert [p for p, _ in positions] == ["0", "1", "2", "1", "3"]
    assert "n or Enter: next action" in result.output           # a key it does not know: the keys
    assert f"g N, with N from 0 (the deal) to {total}." in result.output



def test_a_replay_says_a_hand_s_result_at_the_action_that_ended_it(tmp_path):
    """Stepping through a replay, the action that ends a hand is followed by the hand's result, the
    one before it is not; the last action of the match shows the last hand's.  Catches the result
    line left out of the replay."""
    table = Table.new(rulesdsl.load("crazy_eights", {"target_score": 60}), ["greedy", "greedy"], seed=4)
    table.run_bots()
    assert table.to_move is None
    events = table.events
    ends = [k for k in range(1, len(events) + 1) if k == len(events) or events[k].hand != events[k - 1].hand]
    assert len(ends) >= 2                                   # a match of several hands
    saved = tmp_path / "match.json"
    saved.write_text(json.dumps(table.save()))
    first = ends[0]
    keys = f"g {first - 1}\ng {first}\ng {len(events)}\nq\n"
    output = CliRunner().invoke(cli, ["replay", str(saved)], input=keys).output
    screens = re.split(r"replay · action \d+ of \d+", output)[1:]
    assert len(screens) == 4
    assert "Hand 1 ended" not in screens[1] and "Hand 1 ended (" in screens[2]
    assert f"Hand {len(ends)} ended (" in screens[3]
    # at the last action, a step forward says it is the end and stays there (it deals no position past it)
    output = CliRunner().invoke(cli, ["replay", str(saved)], input=f"g {len(events)}\nn\nq\n").output
    assert "This is the end of the game" in output
    assert re.findall(r"replay · action (\d+) of", output) == ["0", str(len(events))]

# ---------------------------------------------------------------------------------------- a real terminal
def _spawn(*args, cwd=None, term="dumb"):
    pexpect = _need("pexpect")
    env = dict(os.environ, TERM=term, COLUMNS="120", LINES="60",
               PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulesdsl.cli.main", *args], env=env, encoding="utf-8",
                          timeout=60, dimensions=(60, 120), cwd=cwd)
    return child, pexpect


def _moves(screen: str) -> list:
    """The numbered moves of the last screen, as (number, text)."""
    part = screen.rsplit("Your move:", 1)[-1]
    return re.findall(r"(\d+)\. (\S[^\r\n]*?)\s*(?=\r?\n|$)", part)


def _play_a_deal(child, pexpect, prompt: str, choose) -> str:
    """Answers every prompt with ``choose(moves)`` until the first hand is over; the result's line."""
    for _ in range(500):
        i = child.expect([prompt, r"Hand 1 is over[^\n]*\n([^\r\n]+)"])
        if i == 1:
            return child.match.group(1)
        child.sendline(choose(_moves(child.before)))
    raise AssertionError("the deal did not end")


def _leave(child, pexpect) -> None:
    i = child.expect([r"seat \d> ", pexpect.EOF])
    if i == 0:
        child.sendline("quit")
        child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_terminal_plays_a_whole_deal_of_gin():
    child, pexpect = _spawn("play", "gin_rummy", "--seed", "1", "--set", "target_score=500")

    def choose(moves):                   # take the discard or draw; discard the highest-numbered card
        assert moves, "no numbered moves on the screen"
        texts = [t for _, t in moves]
        if any(t.startswith(("knock", "gin")) for t in texts):
            return next(n for n, t in moves if t.startswith(("knock", "gin")))
        return moves[-1][0] if texts[0].startswith("discard") else "1"

    result = _play_a_deal(child, pexpect, r"seat 1> ", choose)
    assert re.match(r"Hand 1 ended \(\w+\)", result)
    _leave(child, pexpect)


def test_terminal_plays_a_deal_of_president_with_three_bots():
    child, pexpect = _spawn("play", "president", "--players", "4", "--seed", "2", "--bots", "greedy,random")
    result = _play_a_deal(child, pexpect, r"seat 1> ", lambda moves: moves[0][0])
    assert "Finishing order:" in result and "Roles:" in result
    _leave(child, pexpect)


def test_terminal_refuses_an_illegal_move_and_asks_again():
    child, pexpect = _spawn("play", "gin_rummy", "--seed", "1")
    child.expect("seat 1> ")
    child.sendline("discard QC")
    child.expect(r"Not allowed: `discard QC` is not allowed in the `draw` step.*\[turn step draw\]")
    child.expect("seat 1> ")
    child.sendline("draw")                      # a unique start of a move
    child.expect("You draw from the stock.")
    child.expect("seat 1> ")
    # Ctrl-C leaves cleanly. Sent once the prompt reads keys (echo off), as a person's key press comes: sent
    # while the tty still echoed, it once raced prompt_toolkit's start under a loaded CI machine.
    assert child.waitnoecho(timeout=30)
    child.sendintr()
    child.expect("Left the table.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_save_load_and_replay(tmp_path):
    saved = tmp_path / "saved.json"
    child, pexpect = _spawn("play", "gin_rummy", "--seed", "5", cwd=str(tmp_path))
    child.expect("seat 1> ")
    child.sendline("2")
    child.expect("seat 1> ")
    hand = child.before.rsplit("Your hand", 1)[1].split("Your move")[0]
    child.sendline("save saved.json")
    child.expect("Saved to saved.json")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and saved.exists()

    child, pexpect = _spawn("play", "--load", "saved.json", cwd=str(tmp_path))
    child.expect("seat 1> ")
    assert child.before.rsplit("Your hand", 1)[1].split("Your move")[0] == hand
    child.sendline("1")                         # the game goes on from there
    child.expect(r"Since your last turn:\s+You (draw|take|discard|pass)")
    _leave(child, pexpect)

    child, pexpect = _spawn("replay", "saved.json", cwd=str(tmp_path))
    child.expect(r"replay · action 0 of (\d+)")
    total = int(child.match.group(1))
    assert total >= 2
    child.expect("n/p/g N/q> ")
    for key, want in (("n", 1), ("", 2), ("p", 1), (f"g {total}", total)):
        child.sendline(key)
        child.expect(rf"replay · action {want} of {total}")
        child.expect("n/p/g N/q> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_hides_a_hand_before_the_next_person_takes_the_keyboard():
    child, pexpect = _spawn("play", "gin_rummy", "--seed", "1", "--seat", "1", "--seat", "2")
    child.expect(r"Pass to seat (\d) — press Enter")             # the first person too is asked
    first = child.match.group(1)
    assert "Your hand" not in child.before
    child.sendline("")
    for _ in range(4):
        i = child.expect([rf"seat {first}> ", r"Pass to seat (\d) — press Enter"])
        if i == 1:
            break
        child.sendline("1")
    else:
        raise AssertionError("the keyboard never passed")
    nxt = child.match.group(1)
    assert nxt != first
    cleared = child.before.rsplit("seat " + first + "> ", 1)[-1]
    assert cleared.count("\n") >= 60 and "Your hand" not in cleared     # a screenful between the two
    child.sendline("")
    child.expect(rf"you are seat {nxt}")
    assert child.before.count("\n") >= 60                             # the prompt too scrolls away first
    child.expect(rf"seat {nxt}> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_terminal_with_colour_and_completion():
    """A full terminal (xterm): red suits in red, TAB completes a move, Ctrl-D leaves."""
    child, pexpect = _spawn("play", "gin_rummy", "--seed", "1", term="xterm")
    child.expect(r"\x1b\[6n")                    # prompt_toolkit asks where the cursor is: answer as a terminal
    assert re.search(r"\x1b\[1;31m(10|[2-9AJQK])[HD]\x1b", child.before)
    assert not re.search(r"\x1b\[1;31m(10|[2-9AJQK])[SC]\x1b", child.before)
    child.send("\x1b[40;1R")
    child.expect("seat 1>")
    child.send("ta\t")
    child.expect("take discard")
    child.send("\r")
    child.expect("You take the discard")
    child.expect(r"\x1b\[6n")
    child.send("\x1b[40;1R")
    child.expect("seat 1>")
    child.send("\x04")
    child.expect("Left the table.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_first_screen_shows_the_last_thirty_lines_of_news_and_counts_the_rest(tmp_path):
    """On a seat's screen, "since your last turn" shows at most 30 lines; the earlier ones are counted,
    with the `log` command to read them (a game loaded after many moves shows its news so)."""
    table = Table.new(rulesdsl.load("president", overrides={"target_score": 50}), [HUMAN] + ["greedy"] * 3, seed=4)
    while len(table.log(0)) <= 45:
        table.run_bots()
        table.act(0, table.view(0)["legal_actions"][0])
    table.run_bots()
    saved = tmp_path / "long.json"
    saved.write_text(json.dumps(table.save()))
    news = table.log(0)
    output = _play(["--load", str(saved)], ["quit"])
    assert f"({len(news) - 30} earlier lines: type `log`)" in output
    assert news[-30] in output.split("earlier lines: type `log`)")[1]
