"""Rulesets from strangers and action text from players (issue 8, section 3; `play 9S Jk=9H`).

* ``extends`` reaches bundled rulesets and files inside the named file's folder tree only (no
  absolute path, no ``..`` out, no symbolic link out), unless ``allow_paths`` / ``--allow-path``
  widens it; a file outside is never read, and a base that is no ruleset is quoted in excerpts only.
* Everything printed escapes control characters (C0, DEL, C1, bidi overrides), text and JSON alike.
* ``apply`` reads actions strictly, records canonical text, refuses malformed ``Action`` values and
  quotes at most a short excerpt of what it was sent; ``seat=`` refuses a sender not on turn.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import random
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl import Action, IllegalAction, RuleEvaluationError, RulesetError
from rulesdsl.cli.main import cli
from rulesdsl.errors import Diagnostic, printable
from rulesdsl.source.tree import Pos

from common import assert_illegal, snapshot

#: what must never reach a terminal raw (the issue's list: C0 but the line break, DEL, C1, bidi)
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
SECRET = "hunter2-s3cr3t-0123456789abcdefghij"


def cli_run(*args):
    r = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in r.output, r.output
    return r


# --- extends is confined -----------------------------------------------------------------------------

@pytest.fixture()
def folders(tmp_path):
    """``rules/`` (the user's folder) and ``outside/`` beside it, holding a secret and a real base."""
    rules, outside = tmp_path / "rules", tmp_path / "outside"
    rules.mkdir()
    outside.mkdir()
    (outside / "secret.yaml").write_text(f"password: {SECRET}\n")
    (outside / "shadow").write_text(f"root:{SECRET}:19000:0:99999:7:::\n")
    (outside / "base.yaml").write_text("extends: gin_rummy\nname: Outside Gin\n")
    return rules, outside


@pytest.fixture()
def reads(monkeypatch):
    """Every file opened for reading (``open``, ``io.open``, ``Path.read_text``), resolved."""
    seen: list = []
    real = io.open

    def spy(file, *a, **kw):
        if isinstance(file, (str, os.PathLike)) and "r" in (a[0] if a else kw.get("mode", "r")):
            seen.append(Path(file).resolve())
        return real(file, *a, **kw)
    monkeypatch.setattr(builtins, "open", spy)
    monkeypatch.setattr(io, "open", spy)
    return seen


def codes(exc) -> list:
    return [d.code for d in exc.value.diagnostics]


@pytest.mark.parametrize("target", ["ABS/secret.yaml", "ABS/shadow", "/etc/passwd"])
def test_extends_an_absolute_path_is_refused_without_reading_it(folders, reads, target):
    rules, outside = folders
    target = target.replace("ABS", str(outside))
    (rules / "v.yaml").write_text(f"extends: {target}\n")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(rules / "v.yaml")
    assert codes(exc) == ["E-EXTENDS-PATH"]
    d = exc.value.diagnostics[0]
    assert (d.pos.line, d.pos.col) == (1, 10) and "absolute path" in d.message
    assert "allow_paths" in d.hint and "--allow-path" in d.hint
    assert SECRET not in str(exc.value) and "root:" not in str(exc.value)
    assert reads == [(rules / "v.yaml").resolve()]                  # only the file named was read


@pytest.mark.parametrize("target", ["../outside/secret.yaml", "./../outside/base.yaml", "./sub/../../outside/shadow"])
def test_extends_cannot_climb_out_of_the_named_files_folder(folders, reads, target):
    rules, _ = folders
    (rules / "sub").mkdir()
    (rules / "v.yaml").write_text(f"extends: {target}\n")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(rules / "v.yaml")
    assert codes(exc) == ["E-EXTENDS-PATH"] and "outside the folder" in exc.value.diagnostics[0].message
    assert SECRET not in str(exc.value)
    assert reads == [(rules / "v.yaml").resolve()]


def test_a_base_in_a_subfolder_may_not_climb_above_the_named_files_folder(folders, reads):
    rules, _ = folders
    (rules / "sub").mkdir()
    (rules / "v.yaml").write_text("extends: ./sub/mid.yaml\n")
    (rules / "sub" / "mid.yaml").write_text("extends: ../../outside/secret.yaml\n")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(rules / "v.yaml")
    assert codes(exc) == ["E-EXTENDS-PATH"]
    assert exc.value.diagnostics[0].pos.path.endswith("mid.yaml")
    assert (Path(folders[1]) / "secret.yaml").resolve() not in reads


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_symbolic_link_out_of_the_folder_is_refused(folders, reads):
    rules, outside = folders
    try:
        (rules / "link.yaml").symlink_to(outside / "secret.yaml")
        (rules / "linked_dir").symlink_to(outside, target_is_directory=True)
    except OSError:
        pytest.skip("symbolic links not permitted here")
    for target in ("./link.yaml", "./linked_dir/secret.yaml", "./linked_dir/base.yaml"):
        (rules / "v.yaml").write_text(f"extends: {target}\n")
        with pytest.raises(RulesetError) as exc:
            rulesdsl.load(rules / "v.yaml")
        assert codes(exc) == ["E-EXTENDS-PATH"], target
        assert SECRET not in str(exc.value)
    assert all(p.parent != outside.resolve() for p in reads)


def test_allow_paths_and_allow_path_widen_the_confinement(folders):
    rules, outside = folders
    (rules / "rel.yaml").write_text("extends: ../outside/base.yaml\n")
    (rules / "abs.yaml").write_text(f"extends: {outside / 'base.yaml'}\n")
    for name in ("rel.yaml", "abs.yaml"):
        with pytest.raises(RulesetError):
            rulesdsl.load(rules / name)
        assert rulesdsl.load(rules / name, allow_paths=[outside]).name == "Outside Gin"
        assert rulesdsl.load(rules / name, allow_paths=[str(outside / "base.yaml")]).name == "Outside Gin"
        r = cli_run("validate", str(rules / name))
        assert r.exit_code == 1 and "E-EXTENDS-PATH" in r.output
        r = cli_run("validate", "--allow-path", str(outside), str(rules / name))
        assert r.exit_code == 0, r.output
        assert "ok (Outside Gin" in r.output
    r = cli_run("simulate", str(rules / "rel.yaml"), "--games", "1", "--set", "target_score=10",
                "--allow-path", str(outside))
    assert r.exit_code == 0, r.output
    r = cli_run("convert", str(rules / "rel.yaml"), "--resolved", "--to", "yaml", "--allow-path", str(outside))
    assert r.exit_code == 0 and "name: Outside Gin" in r.output


def test_extends_inside_the_folder_tree_and_bundled_names_still_work(folders):
    rules, _ = folders
    (rules / "sub").mkdir()
    (rules / "sub" / "base.yaml").write_text("extends: gin_rummy\nname: Sub Gin\n")
    (rules / "sub" / "mid.rules").write_text('extends = "./base.yaml"\n')
    (rules / "v.yaml").write_text("extends: ./sub/mid.rules\nparams: {knock_limit: 5}\n")
    loaded = rulesdsl.load(rules / "v.yaml")
    assert loaded.name == "Sub Gin" and loaded.params["knock_limit"] == 5
    assert rulesdsl.load("variants/oklahoma_gin").name == "Gin Rummy"


def test_extends_names_only_ruleset_files(folders, reads):
    rules, _ = folders
    (rules / "notes.txt").write_text(f"password: {SECRET}\n")
    (rules / "v.yaml").write_text("extends: ./notes.txt\n")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(rules / "v.yaml")
    assert codes(exc) == ["E-EXTENDS-PATH"] and "no ruleset file" in exc.value.diagnostics[0].message
    assert SECRET not in str(exc.value) and (rules / "notes.txt").resolve() not in reads


@pytest.mark.parametrize("body, key", [
    (f"password: {SECRET}\n", "password"),
    (f"root:{SECRET}:19000:0:99999:7:::\n", None),              # a shadow line: one text, no mapping
    (f"aws_secret_access_key_{SECRET}: 1\n", "aws_secre"),
    (f"name: [unclosed {SECRET}\n", None),                      # not even YAML
])
def test_a_base_that_is_no_ruleset_is_one_diagnostic_quoting_a_short_excerpt(folders, body, key):
    rules, _ = folders
    (rules / "creds.yaml").write_text(body)
    (rules / "v.yaml").write_text("extends: ./creds.yaml\n")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(rules / "v.yaml")
    assert codes(exc) == ["E-EXTENDS-INVALID"]
    d = exc.value.diagnostics[0]
    assert d.pos.path.endswith("v.yaml") and d.pos.line == 1        # located where the user can act
    assert "creds.yaml" in d.message and "validate" in d.hint
    assert SECRET not in d.format() and SECRET[:13] not in d.format()
    if key:
        assert f"`{key}" in d.message and len(max(re.findall("`[^`]*`", d.message), key=len)) <= 16
    r = cli_run("validate", "--format", "json", str(rules / "v.yaml"))
    assert r.exit_code == 1 and SECRET[:13] not in r.output


def test_a_bad_value_in_a_base_is_quoted_in_an_excerpt_and_in_full_when_the_base_is_named(folders):
    rules, _ = folders
    (rules / "base.yaml").write_text(f"extends: gin_rummy\nplayers: {{min: 2, max: \"{SECRET * 2}\"}}\n")
    (rules / "v.yaml").write_text("extends: ./base.yaml\n")
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(rules / "v.yaml")
    d = exc.value.diagnostics[0]
    assert d.pos.path.endswith("base.yaml") and (d.pos.line, d.pos.col) == (2, 24)
    assert SECRET[:30] in d.message and SECRET * 2 not in d.message and "..." in d.message
    with pytest.raises(RulesetError) as exc:                     # named by the user: quoted whole
        rulesdsl.load(rules / "base.yaml")
    assert SECRET * 2 in exc.value.diagnostics[0].message


# --- nothing printed carries control characters ------------------------------------------------------

def test_printable_escapes_c0_del_c1_and_bidi_as_visible_text():
    assert printable("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert printable("\x1b]0;pwned\x07") == "\\x1b]0;pwned\\x07"
    assert printable("x\x00\x7f\x9b\x85y") == "x\\x00\\x7f\\x9b\\x85y"
    assert printable("evil\u202egnp.exe\u2066") == "evil\\u202egnp.exe\\u2066"
    assert printable("line\nbreak\r") == "line\\x0abreak\\x0d"
    assert printable("\ud800") == "\\ud800"                       # a lone surrogate cannot be encoded
    assert printable("plain text, caf\u00e9 \u2660 10H") == "plain text, caf\u00e9 \u2660 10H"
    assert printable("a\u200bb\u2060c\ufeffd") == "a\\u200bb\\u2060c\\ufeffd"     # invisible, so shown
    assert printable("x\xady\u3164z\U000e0041") == "x\\xady\\u3164z\\U000e0041"
    assert printable("\U0001f468\u200d\U0001f469 \u0645\u200c\u06cc") == "\U0001f468\u200d\U0001f469 \u0645\u200c\u06cc"


def test_a_refusal_shows_an_invisible_character_of_the_action_as_an_escape():
    game = rulesdsl.load("gin_rummy").new_game(seed=1)
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        game.apply("discard\u200b QS")
    assert "\u200b" not in str(refused.value) and "\\u200b" in str(refused.value)


HOSTILE = 'extends: gin_rummy\n"k\\e[2J\\e]0;TITLE\\a\\u202e\\x9b": 1\nname: "\\e]0;x\\a"\n'


def test_diagnostics_escape_keys_and_values_in_text_and_json(tmp_path):
    f = tmp_path / "hostile.yaml"
    f.write_text(HOSTILE)
    r = cli_run("validate", str(f))
    assert r.exit_code == 1
    assert not UNSAFE.search(r.output), repr(r.output)
    assert "unknown top-level key `k\\x1b[2J\\x1b]0;TITLE\\x07\\u202e\\x9b`" in r.output
    r = cli_run("validate", "--format", "json", str(f))
    assert r.exit_code == 1
    data = json.loads(r.output)
    for d in data["diagnostics"]:
        for v in d.values():
            assert not (isinstance(v, str) and UNSAFE.search(v)), d     # safe even once decoded
    assert any("k\\x1b[2J" in d["message"] for d in data["diagnostics"])
    d = Diagnostic("E-X", "bad `\x1b[2J`", Pos("a\x1b]0;t\x07.yaml", 1, 1), "try `\u202e`")
    assert not UNSAFE.search(d.format()) and not UNSAFE.search(json.dumps(d.as_dict(), ensure_ascii=False))


def test_set_keys_and_ruleset_arguments_are_escaped():
    r = cli_run("validate", "gin_rummy", "--set", "k\x1b]0;TITLE\x07=3")
    assert r.exit_code == 1 and "unknown parameter `k\\x1b]0;TITLE\\x07`" in r.output
    assert not UNSAFE.search(r.output)
    r = cli_run("validate", "gin\x1b[2J\x9b")
    assert r.exit_code == 1 and not UNSAFE.search(r.output)
    r = cli_run("validate", "--set", "\x1b]0;x\x07", "gin_rummy")       # no `=`: a usage error
    assert r.exit_code == 2 and not UNSAFE.search(r.output)


def test_a_ruleset_name_with_control_characters_is_escaped_when_it_loads(tmp_path):
    f = tmp_path / "named.yaml"
    f.write_text('extends: gin_rummy\nname: "Gin \\e]0;TITLE\\a\\u202e"\n')
    for args in (("validate", str(f)), ("simulate", str(f), "--games", "1", "--set", "target_score=10")):
        r = cli_run(*args)
        assert r.exit_code == 0, r.output
        assert "Gin \\x1b]0;TITLE\\x07\\u202e" in r.output and not UNSAFE.search(r.output)


@pytest.mark.parametrize("syntax", ["yaml", "rules"])
def test_convert_writes_control_characters_as_escapes_that_read_back(tmp_path, syntax):
    f = tmp_path / "named.yaml"
    f.write_text('extends: gin_rummy\nname: "Gin \\e]0;TITLE\\a\\u202e\\u2066\\x9b"\n')
    r = cli_run("convert", str(f), "--to", syntax)
    assert r.exit_code == 0 and not UNSAFE.search(r.output), repr(r.output)
    out = tmp_path / f"back.{syntax}"
    out.write_text(r.output)
    assert rulesdsl.load(out).name == "Gin \x1b]0;TITLE\x07\u202e\u2066\x9b"     # the same text


def test_refusals_and_rule_failures_are_escaped():
    game = rulesdsl.load("gin_rummy").new_game(seed=3)
    with pytest.raises(IllegalAction) as exc:
        game.apply("discard \x1b]0;TITLE\x07")
    assert not UNSAFE.search(str(exc.value)) and "\\x1b]0;TITLE\\x07" in str(exc.value)
    with pytest.raises(IllegalAction) as exc:
        game.apply("\u202epass")
    assert not UNSAFE.search(str(exc.value))
    assert not UNSAFE.search(str(RuleEvaluationError("a rule read `\x1b[2J`")))


# --- apply reads strictly and records canonical text -------------------------------------------------

def _play_until(game, want, seed=0, limit=2000):
    """Play seeded random actions until ``want(legal)`` holds (a position to test from)."""
    rng = random.Random(seed)
    for _ in range(limit):
        legal = game.legal_actions()
        if want(legal):
            return legal
        game.apply(rng.choice(legal))
    pytest.fail("no such position reached")


def test_a_climbing_play_names_no_meld():
    game = rulesdsl.load("president").new_game(seed=1)
    play = next(a for a in game.legal_actions() if a.verb == "play")
    for text in (f"{play} on 99999999999999999999", f"{play} on 1", f"{play} on"):
        assert_illegal(game, text)
    assert_illegal(game, Action("play", "", play.cards, 1))
    assert game.history == []


def test_a_meld_names_no_meld_to_lay_on():
    game = rulesdsl.load("rummy_500").new_game(seed=5)
    legal = _play_until(game, lambda legal: any(a.verb == "meld" for a in legal))
    meld = next(a for a in legal if a.verb == "meld")
    assert_illegal(game, f"{meld} on 1")
    assert_illegal(game, Action("meld", "", meld.cards, 1))
    game.apply(str(meld))                                 # the same meld, written right, is taken
    assert game.history[-1] == str(meld)


@pytest.mark.parametrize("text", [
    "discard", "discard QS KS", "give", "layoff QS", "layoff QS on", "layoff QS on 0", "layoff on 1",
    "meld", "play", "pass QS", "draw", "draw stock 2", "take discard 0", "take discard 99999",
    "draw stock on 1", "knock QS KS", "gin QS on 1",
])
def test_each_verb_takes_only_the_parts_its_notation_names(text):
    game = rulesdsl.load("gin_rummy").new_game(seed=2)
    assert_illegal(game, text)


@pytest.mark.parametrize("action", [
    Action(5), Action("draw", 3), Action("draw", "stock", (), "1"), Action("draw", "stock", (), 1.0),
    Action("draw", "stock", (), -1), Action("discard", "", "QS"), Action("discard", "", (1,)),
    Action("discard", "", (None,)), Action("discard", "", ("Q S",)), Action("draw", "st ock"),
    Action(None, None, None, None), Action("draw", "stock", (), 10 ** 30), Action("", "stock"),
    Action("discard", "", ("QS",) * 100_000),
])
def test_a_hand_built_action_with_wrong_fields_is_refused(action):
    game = rulesdsl.load("gin_rummy").new_game(seed=2)
    game.apply("pass")
    assert_illegal(game, action)


def test_a_hand_built_card_with_a_space_is_refused_even_where_its_text_would_read_as_legal():
    """docs/api.md: a hand-built `Action` obeys the notation: a card text is one word.  `"QS "` joined
    into text would read back as the legal `discard QS`; it is refused, naming the rule, unchanged."""
    game = rulesdsl.load("gin_rummy").new_game(seed=2)
    game.apply("pass")
    game.apply("pass") if str(game.legal_actions()[0]) == "pass" else None
    game.apply(next(a for a in game.legal_actions() if a.verb in ("draw", "take")))
    card = next(a.cards[0] for a in game.legal_actions() if a.verb == "discard")
    for bad in (Action("discard", "", (card + " ",)), Action("discard", "", (" " + card,))):
        before = snapshot(game)
        with pytest.raises(IllegalAction, match="single words") as refused:
            game.apply(bad)
        assert refused.value.rule == "action syntax" and snapshot(game) == before
    game.apply(Action("discard", "", (card.lower(),)))                # the same card, written right (any case)
    assert game.history[-1] == f"discard {card}"


def test_other_things_than_actions_are_refused():
    game = rulesdsl.load("gin_rummy").new_game(seed=2)
    for thing in (None, 5, b"pass", ["pass"], object()):
        assert_illegal(game, thing)


def test_long_input_comes_back_as_a_short_excerpt():
    game = rulesdsl.load("rummy_500").new_game(seed=5)
    _play_until(game, lambda legal: any(a.verb == "meld" for a in legal))
    for text in ("discard " + "Q" * 100_000, "x" * 100_000, "meld " + "7S " * 300, "meld " + "7S=7H " * 150,
                 "layoff 7S on " + "9" * 5000, "take " + "z" * 5000):
        before = snapshot(game)
        with pytest.raises(IllegalAction) as exc:
            game.apply(text)
        assert len(str(exc.value)) < 400, (text[:20], len(str(exc.value)))
        assert snapshot(game) == before


def test_history_records_the_canonical_text_not_the_spelling():
    game = rulesdsl.load("president").new_game(seed=4)
    legal = game.legal_actions()
    pair = next(a for a in legal if a.verb == "play" and len(a.cards) == 2)
    spelled = "  PLAY   " + "  ".join(c.lower() for c in reversed(pair.cards)) + "  "
    game.apply(spelled)
    assert game.history == [str(pair)]                    # the listed play's text, cards in its order
    gin = rulesdsl.load("gin_rummy").new_game(seed=2)
    gin.apply(Action("pass", "", (), False))              # equal to the listed `pass`
    gin.apply(" PASS ")
    assert gin.history == ["pass", "pass"]


def test_a_declared_identity_in_a_climbing_play_is_refused():
    game = rulesdsl.load("variants/president_jokers").new_game(seed=1)
    single = next(a for a in game.legal_actions() if a.verb == "play" and len(a.cards) == 1)
    card = single.cards[0]
    for text in (f"play {card} Jk=9H", f"play {card}=9H", "play Jk=9H", f"play {card} {card}=AS"):
        assert_illegal(game, text)
    assert_illegal(game, Action("play", "", (card, "Jk=9H")))


def test_a_declared_identity_is_for_wild_cards_in_melds_only():
    game = rulesdsl.load("rummy_500").new_game(seed=5)
    legal = _play_until(game, lambda legal: any(a.verb == "discard" for a in legal))
    card = next(a for a in legal if a.verb == "discard").cards[0]
    assert_illegal(game, f"discard {card}=AS")
    assert_illegal(game, "meld 7S=7H 7D 7C")          # 7S is no wild card in Rummy 500


# --- the sender's seat, and unpredictable seeds ------------------------------------------------------

def test_apply_refuses_a_seat_not_on_turn():
    game = rulesdsl.load("gin_rummy").new_game(seed=2)
    on_turn = game.current_player
    for seat in ({0, 1} - {on_turn}).pop(), 7, -1, "0", True if on_turn != 1 else False, 1.0 * (1 - on_turn):
        before = snapshot(game)
        with pytest.raises(IllegalAction, match="not on turn"):
            game.apply("pass", seat=seat)
        assert snapshot(game) == before
    game.apply("pass", seat=on_turn)
    assert game.history == ["pass"]


def test_a_game_without_a_seed_is_not_predictable_from_the_clock(monkeypatch):
    rules = rulesdsl.load("gin_rummy")
    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.0)
    monkeypatch.setattr(time, "time_ns", lambda: 1_700_000_000_000_000_000)
    monkeypatch.setattr(time, "perf_counter", lambda: 1.0)
    monkeypatch.setattr(time, "monotonic", lambda: 1.0)
    hands = {tuple(rules.new_game(dealer=0).hand_of(0)) for _ in range(5)}
    assert len(hands) == 5                  # 10-card hands from 52 cards: equal by chance ~1e-13


def test_the_docs_tell_a_server_to_use_unpredictable_seeds_and_the_sender_seat():
    root = Path(__file__).resolve().parents[1]
    api = (root / "docs" / "api.md").read_text()
    assert "secrets" in api and "seat=" in api and "allow_paths" in api
    readme = (root / "README.md").read_text()
    embedding = readme.split("## Embedding", 1)[1].split("\n## ", 1)[0]
    assert "secrets" in embedding and "seat=" in embedding
