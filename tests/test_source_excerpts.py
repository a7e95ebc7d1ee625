"""Diagnostics show the source line with a caret under the column (issue 14, item 6).

The caret sits under the reported column (tabs expanded, escapes and wide characters counted); colour
codes appear only when asked (``--color always``, or ``auto`` on a terminal without ``NO_COLOR``);
``--format json`` keeps its shape; a hostile line prints no raw control character; the text comes
from the load itself (never read again), and a base file the user did not name is quoted only in a
short window.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.errors import BASE_QUOTE_LIMIT, Diagnostic, Sources, source_excerpt
from rulesdsl.source.tree import Pos

ROOT = Path(__file__).resolve().parents[1]
#: what must never reach a terminal raw (as in test_untrusted): C0 but the line break, DEL, C1, bidi
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
SGR = re.compile("\x1b\\[[0-9;]*m")
SECRET = "hunter2-s3cr3t-0123456789abcdefghij"


def validate(*args: str):
    r = CliRunner().invoke(cli, ["validate", *args])
    assert "Traceback" not in r.output and r.exit_code in (0, 1), r.output
    return r


def excerpts(output: str) -> dict[str, tuple[Pos, str, int]]:
    """Each diagnostic's code -> (its position, the source line shown, the caret's column in that
    line's text), read back from the printed text."""
    lines = output.splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"(.*):(\d+):(\d+): error\[([A-Z-]+)\]", line)
        if not m or i + 3 >= len(lines):
            continue
        bar, src, caret = lines[i + 1:i + 4]
        gutter = src.index("| ") + 2
        assert bar == " " * (gutter - 2) + "|" and src.startswith(m.group(2) + " |"), lines[i:i + 4]
        assert caret.startswith(bar) and caret.rstrip().endswith("^") and caret.count("^") == 1
        out[m.group(4)] = (Pos(m.group(1), int(m.group(2)), int(m.group(3))), src[gutter:], caret.index("^") - gutter)
    return out


def test_the_caret_sits_under_the_column_of_real_mistakes(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gin_rummy\n"
                 "params: {knock_limt: 5}\n"
                 "melds:\n  set: {kind: sett, min: 3}\n"
                 "stock_out: {when: 'count(stock) <'}\n"
                 "colour: blue\n")
    r = validate(str(f), "--color", "never")
    assert r.exit_code == 1
    found = excerpts(r.output)
    assert set(found) >= {"E-UNKNOWN-PARAM", "E-CHOICE", "E-EXPR-SYNTAX", "E-UNKNOWN-KEY"}, r.output
    for code, word in [("E-UNKNOWN-PARAM", "knock_limt"), ("E-CHOICE", "sett"), ("E-UNKNOWN-KEY", "colour")]:
        pos, line, caret = found[code]
        assert line == f.read_text().splitlines()[pos.line - 1]
        assert caret == pos.col - 1 and line[caret:].startswith(word), (code, line, caret)
    pos, line, caret = found["E-EXPR-SYNTAX"]
    assert caret == pos.col - 1 and line[caret:] == "'}"       # the expression ends too early
    assert "  hint: did you mean `knock_limit`?" in r.output


def test_tabs_expand_and_the_caret_follows(tmp_path):
    f = tmp_path / "tabs.yaml"
    f.write_text("extends: gin_rummy\nstock_out: {when: \"\tcount(stock) <\", result: voidd}\n")
    r = validate(str(f), "--color", "never")
    pos, line, caret = excerpts(r.output)["E-CHOICE"]
    assert "\t" not in line and line[caret:].startswith("voidd")
    assert line == f.read_text().splitlines()[1].expandtabs(8)


def test_the_dsl_and_a_yaml_syntax_error_get_excerpts_too(tmp_path):
    f = tmp_path / "g.rules"
    assert CliRunner().invoke(cli, ["convert", "gin_rummy", "--to", "rules", "--output", str(f)]).exit_code == 0
    f.write_text(f.read_text().replace("scoring {", "scoring {\n  colour = 1", 1))
    pos, line, caret = excerpts(validate(str(f), "--color", "never").output)["E-UNKNOWN-KEY"]
    assert line[caret:] == "colour = 1"
    y = tmp_path / "y.yaml"
    y.write_text("name: x\nplayers: 2\n  deck: [\n")
    pos, line, caret = excerpts(validate(str(y), "--color", "never").output)["E-YAML"]
    assert line == "  deck: [" and caret == pos.col - 1


def test_a_set_override_shows_what_was_typed():
    r = validate("gin_rummy", "--set", "knock_limt=5", "--color", "never")
    pos, line, caret = excerpts(r.output)["E-UNKNOWN-PARAM"]
    assert line == "--set knock_limt=5" and line[caret:] == "knock_limt=5"


def test_colour_only_when_asked(tmp_path, monkeypatch):
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gin_rummy\nparams: {knock_limt: 5}\n")
    plain = validate(str(f)).output                      # auto, and the runner is no terminal
    assert "\x1b" not in plain and "\x1b" not in validate(str(f), "--color", "never").output
    coloured = validate(str(f), "--color", "always").output
    assert "\x1b[" in coloured and SGR.sub("", coloured) == plain
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b" not in validate(str(f)).output
    assert "\x1b[" in validate(str(f), "--color", "always").output    # an explicit choice wins


def _on_a_terminal(args: list[str], env: dict) -> str:
    """The command's output when its standard output is a terminal (a pseudo-terminal)."""
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "rulesdsl.cli.main", *args], stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError as exc:                       # EIO: the other side closed (the program ended)
            if exc.errno != errno.EIO:
                raise
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    proc.wait(timeout=120)
    return b"".join(chunks).decode()


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals on Windows")
def test_auto_colours_a_terminal_unless_no_color(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gin_rummy\nparams: {knock_limt: 5}\n")
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT)
    assert "\x1b[31m" in _on_a_terminal(["validate", str(f)], env)
    assert "\x1b[" not in _on_a_terminal(["validate", str(f)], dict(env, NO_COLOR="1"))


def test_json_keeps_its_shape(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("extends: gin_rummy\nparams: {knock_limt: 5}\n")
    for colour in ("always", "never"):
        data = json.loads(validate(str(f), "--format", "json", "--color", colour).output)
        assert data == {"ruleset": str(f), "valid": False, "diagnostics": [
            {"path": data["diagnostics"][0]["path"], "line": 2, "col": 10, "severity": "error",
             "code": "E-UNKNOWN-PARAM", "message": "unknown parameter `knock_limt`",
             "hint": "did you mean `knock_limit`?"}]}


def test_a_hostile_line_prints_no_control_character(tmp_path):
    f = tmp_path / "hostile.yaml"
    f.write_text("extends: gin_rummy\nname: \"\u202egnp\"  \t\x1b]0;TITLE\x07: 1\n")   # raw ESC and BEL: no YAML
    for colour in ("never", "always"):
        out = SGR.sub("", validate(str(f), "--color", colour).output)
        assert not UNSAFE.search(out), repr(out)
        assert "\\x1b]0;TITLE\\x07" in out and "\\u202e" in out
    g = tmp_path / "hostile2.yaml"
    g.write_text("extends: gin_rummy\n\"k\u202e\u2066\": 1\n")
    out = validate(str(g), "--color", "never").output
    pos, line, caret = excerpts(out)["E-UNKNOWN-KEY"]
    assert line == '"k\\u202e\\u2066": 1' and caret == 0 and not UNSAFE.search(out)


def test_a_base_file_is_quoted_in_a_short_window_and_the_text_comes_from_the_load(tmp_path):
    (tmp_path / "base.yaml").write_text(f"extends: gin_rummy\nplayers: {{min: 2, max: \"{SECRET * 3}\"}}\n")
    (tmp_path / "v.yaml").write_text("extends: ./base.yaml\n")
    out = validate(str(tmp_path / "v.yaml"), "--color", "never").output
    pos, line, caret = excerpts(out)["E-TYPE"]
    assert pos.path.endswith("base.yaml") and line[caret:].startswith('"hunter2')
    assert len(line) <= BASE_QUOTE_LIMIT + 6 and SECRET not in line      # the window and two "..."
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "v.yaml")
    (tmp_path / "base.yaml").write_text("changed on disk\n")             # formatting reads nothing
    d = exc.value.diagnostics[0]
    assert "hunter2" in d.render(exc.value.sources) and "changed" not in d.render(exc.value.sources)
    named = validate(str(tmp_path / "v.yaml"), "--color", "never").output   # now no ruleset: no excerpt
    assert "E-EXTENDS-INVALID" in named and "| changed" not in named


def test_a_base_that_is_no_ruleset_never_joins_the_sources(tmp_path):
    (tmp_path / "creds.yaml").write_text(f"password: {SECRET}\n")
    (tmp_path / "v.yaml").write_text("extends: ./creds.yaml\n")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "v.yaml")
    sources = exc.value.sources
    assert any(p.endswith("v.yaml") for p in sources) and not any(p.endswith("creds.yaml") for p in sources)


def test_format_is_unchanged_and_render_without_sources_equals_it():
    d = Diagnostic("E-X", "bad `thing`", Pos("f.yaml", 3, 4), "try another")
    assert d.format() == "f.yaml:3:4: error[E-X]: bad `thing`\n  hint: try another"
    assert d.render() == d.format() == d.render(Sources())
    s = Sources()
    s.add("f.yaml", "a\nb\n  \tthing: x\n")
    assert d.render(s).splitlines()[1:4] == ["  |", "3 |         thing: x", "  |         ^"]
    assert d.render(s).splitlines()[0] == d.format().splitlines()[0]


def test_long_lines_are_cut_around_the_column_and_wide_characters_count_twice():
    text = "x" * 300 + "HERE" + "y" * 300
    shown, caret = source_excerpt(text, 300, 100)
    assert shown.startswith("...") and shown.endswith("...") and len(shown) <= 106
    assert shown[caret:].startswith("HERE")
    shown, caret = source_excerpt("\u540d\u524d: bad", 4)       # two wide characters, then ": bad"
    assert shown == "\u540d\u524d: bad" and caret == 6
    assert source_excerpt("short", 99) == ("short", 5)          # past the end: after the last character
