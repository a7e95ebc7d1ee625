"""A bare name (no extension, no ``./``) means a bundled game or variant everywhere -- the CLI,
``rulesdsl.load`` and ``extends`` -- and a local file is named as a path; an empty file is one
diagnostic; ``convert`` never writes over the file it reads.

The CLI tests run the installed ``rulesdsl`` command from a temporary folder, as a user would (the
original report: ``rulesdsl convert gin_rummy --to rules > gin_rummy.rules`` wrote an empty file,
because the shell's empty ``gin_rummy.rules`` was taken for the game)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.errors import ShadowedFileWarning
from rulesdsl.source.resolve import bundled_dir

_SCRIPT = Path(sys.executable).parent / ("rulesdsl.exe" if os.name == "nt" else "rulesdsl")
CLI = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "rulesdsl.cli.main"]
GIN_DIGEST = rulesdsl.load(str(bundled_dir() / "gin_rummy.yaml")).digest

posix_shell = pytest.mark.skipif(os.name != "posix", reason="needs a POSIX shell for `>` redirection")


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    out = subprocess.run(CLI + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


def shell(cwd: Path, line: str) -> subprocess.CompletedProcess:
    """Run ``line`` in /bin/sh with ``rulesdsl`` standing for the installed command."""
    cmd = line.replace("rulesdsl", shlex.join(CLI), 1)
    out = subprocess.run(cmd, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


def digest_of(path: Path) -> str:
    return rulesdsl.load(str(path)).digest


# --- the report itself -------------------------------------------------------------------------------

@posix_shell
def test_convert_a_bundled_game_into_a_file_named_like_it(tmp_path):
    r = shell(tmp_path, "rulesdsl convert gin_rummy --to rules > gin_rummy.rules")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""                        # the local file is the output: no note about it
    text = (tmp_path / "gin_rummy.rules").read_text()
    assert text.startswith('name = "Gin Rummy"'), text[:200]
    assert digest_of(tmp_path / "gin_rummy.rules") == GIN_DIGEST


def test_a_bare_name_beside_a_file_of_that_name_is_the_bundled_game_with_a_note(tmp_path):
    (tmp_path / "gin_rummy.rules").write_text("")    # what the shell's `>` left before the fix
    r = cli(tmp_path, "validate", "gin_rummy")
    assert r.returncode == 0, r.stdout
    assert r.stdout.strip() == f"gin_rummy: ok (Gin Rummy, digest {GIN_DIGEST})"
    assert r.stderr.count("note:") == 1
    assert "bundled game" in r.stderr and "./gin_rummy.rules" in r.stderr
    r = cli(tmp_path, "simulate", "gin_rummy", "--games", "1", "--set", "target_score=10")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("Gin Rummy: 1 matches") and "./gin_rummy.rules" in r.stderr


def test_the_local_file_is_named_as_a_path_and_an_empty_one_is_one_diagnostic(tmp_path):
    (tmp_path / "gin_rummy.rules").write_text("")
    r = cli(tmp_path, "validate", "gin_rummy.rules", "./gin_rummy.rules")
    assert r.returncode == 1
    lines = [ln for ln in r.stdout.splitlines() if "error[" in ln]
    assert len(lines) == 2, r.stdout                 # one per argument, not seven each
    for ln in lines:
        assert ln.startswith("gin_rummy.rules:1:1: error[E-EMPTY]: the file is empty: a ruleset needs at "
                             "least `name`, `players`, `deck`"), ln
    assert r.stdout.count("hint:") == 2 and "``" not in r.stdout
    assert "gin_rummy.rules: 1 error" in r.stdout and "./gin_rummy.rules: 1 error" in r.stdout


@pytest.mark.parametrize("name, text", [("c.yaml", "# a house rule, some day\n\n"),
                                        ("c.rules", "# nothing yet\n   # still nothing\n")])
def test_a_comment_only_file_is_one_diagnostic(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    r = cli(tmp_path, "validate", name)
    assert r.returncode == 1
    assert r.stdout.count("error[") == 1, r.stdout
    assert f"{name}:1:1: error[E-EMPTY]: the file is empty (it has only comments)" in r.stdout


def test_top_level_problems_name_the_top_level_in_words(tmp_path):
    (tmp_path / "partial.yaml").write_text("name: Mine\ncolour: red\n")
    r = cli(tmp_path, "validate", "partial.yaml")
    assert r.returncode == 1
    assert "partial.yaml:1:1: error[E-MISSING]: the ruleset needs the top-level key `players`" in r.stdout
    assert "partial.yaml:2:1: error[E-UNKNOWN-KEY]: unknown top-level key `colour`" in r.stdout
    assert "``" not in r.stdout
    (tmp_path / "list.yaml").write_text("- name\n")
    r = cli(tmp_path, "validate", "list.yaml")
    assert "list.yaml:1:1: error[E-TYPE]: a ruleset must be a mapping of top-level keys" in r.stdout
    assert "``" not in r.stdout


# --- what a bare name means ---------------------------------------------------------------------------

def test_a_bare_name_matching_only_a_local_file_is_refused_with_the_path_to_write(tmp_path):
    (tmp_path / "my_gin.rules").write_text("")
    r = cli(tmp_path, "validate", "my_gin")
    assert r.returncode == 1
    assert "my_gin:0:0: error[E-NOT-FOUND]: no bundled game or variant named `my_gin`" in r.stdout
    assert "for the local file write `./my_gin.rules`" in r.stdout


def test_an_unknown_bare_name_lists_close_bundled_names(tmp_path):
    r = cli(tmp_path, "validate", "gin_rumy", "okla", "variants/straight")
    assert r.returncode == 1
    assert "did you mean `gin_rummy`?" in r.stdout
    assert "did you mean `variants/oklahoma_gin`?" in r.stdout
    assert "did you mean `variants/straight_gin`" in r.stdout


def test_a_bundled_name_with_an_extension_is_a_file_path(tmp_path):
    r = cli(tmp_path, "validate", "gin_rummy.yaml")
    assert r.returncode == 1
    assert "gin_rummy.yaml:0:0: error[E-NOT-FOUND]: no file `gin_rummy.yaml`" in r.stdout
    assert "for the bundled ruleset write `gin_rummy`" in r.stdout


def test_bundled_variant_names_work_from_any_folder(tmp_path):
    r = cli(tmp_path, "validate", "variants/oklahoma_gin", "oklahoma_gin")
    assert r.returncode == 0, r.stdout
    assert r.stdout.count(": ok (Gin Rummy") == 2 and r.stderr == ""


def test_extends_a_bare_name_means_the_bundled_game_and_a_path_the_local_file(tmp_path):
    assert cli(tmp_path, "convert", "gin_rummy", "--output", "gin_rummy.yaml").returncode == 0
    base = tmp_path / "gin_rummy.yaml"
    base.write_text(base.read_text().replace("name: Gin Rummy", "name: House Gin", 1))
    (tmp_path / "bare.yaml").write_text("extends: gin_rummy\nparams: {knock_limit: 5}\n")
    (tmp_path / "path.yaml").write_text("extends: ./gin_rummy.yaml\nparams: {knock_limit: 5}\n")
    r = cli(tmp_path, "validate", "bare.yaml", "path.yaml")
    assert r.returncode == 0, r.stdout
    assert "bare.yaml: ok (Gin Rummy," in r.stdout and "path.yaml: ok (House Gin," in r.stdout
    assert r.stderr.count("note:") == 1
    assert "note: bare.yaml: `extends: gin_rummy` means the bundled game" in r.stderr
    assert "write `extends: ./gin_rummy.yaml`" in r.stderr


# --- convert --output, and never over its own input -------------------------------------------------

def test_convert_output_writes_the_file_in_the_syntax_of_its_extension(tmp_path):
    r = cli(tmp_path, "convert", "gin_rummy", "--to", "rules", "--output", "my_gin.rules")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "" and r.stderr == ""
    assert (tmp_path / "my_gin.rules").read_text().startswith('name = "Gin Rummy"')
    r = cli(tmp_path, "convert", "my_gin.rules", "-o", "my_gin.yaml")        # --to from the extension
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "my_gin.yaml").read_text().startswith("name: Gin Rummy")
    assert digest_of(tmp_path / "my_gin.rules") == digest_of(tmp_path / "my_gin.yaml") == GIN_DIGEST
    r = cli(tmp_path, "convert", "gin_rummy", "--to", "yaml", "--output", "wrong.rules")
    assert r.returncode == 2 and "does not match" in r.stderr
    assert not (tmp_path / "wrong.rules").exists()


def test_convert_refuses_an_output_that_is_a_file_it_reads(tmp_path):
    assert cli(tmp_path, "convert", "gin_rummy", "--output", "my_gin.rules").returncode == 0
    before = (tmp_path / "my_gin.rules").read_text()
    for spelled in ("my_gin.rules", "./my_gin.rules", str(tmp_path / "my_gin.rules")):
        r = cli(tmp_path, "convert", "my_gin.rules", "--to", "rules", "--output", spelled)
        assert r.returncode == 2, (spelled, r.stderr)
        assert "which this conversion reads" in r.stderr
        assert (tmp_path / "my_gin.rules").read_text() == before
    (tmp_path / "v.yaml").write_text("extends: ./my_gin.rules\nparams: {knock_limit: 5}\n")
    r = cli(tmp_path, "convert", "v.yaml", "--resolved", "--output", "my_gin.rules")   # a base it reads
    assert r.returncode == 2 and "which this conversion reads" in r.stderr
    assert (tmp_path / "my_gin.rules").read_text() == before


@posix_shell
def test_convert_refuses_a_redirected_stdout_that_is_the_file_it_reads(tmp_path):
    assert cli(tmp_path, "convert", "gin_rummy", "--output", "my_gin.rules").returncode == 0
    before = (tmp_path / "my_gin.rules").read_text()
    r = shell(tmp_path, "rulesdsl convert my_gin.rules --to yaml >> my_gin.rules")
    assert r.returncode == 2 and "standard output is my_gin.rules" in r.stderr
    assert (tmp_path / "my_gin.rules").read_text() == before             # nothing appended
    r = shell(tmp_path, "rulesdsl convert ./my_gin.rules --to yaml > my_gin.rules")
    assert r.returncode == 2 and "standard output is my_gin.rules" in r.stderr
    assert "--output FILE" in r.stderr


# --- the API ----------------------------------------------------------------------------------------

def test_load_a_bare_name_is_the_bundled_game_and_warns_about_the_local_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gin_rummy.rules").write_text("")
    with pytest.warns(ShadowedFileWarning, match=r"not the local file \./gin_rummy\.rules") as caught:
        rules = rulesdsl.load("gin_rummy")
    assert rules.digest == GIN_DIGEST
    assert caught[0].filename == __file__                    # the warning points at the caller's line
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load("gin_rummy.rules")
    assert [d.code for d in exc.value.diagnostics] == ["E-EMPTY"]


def test_load_warns_about_nothing_when_no_local_file_is_shadowed(tmp_path, monkeypatch):
    for folder in (tmp_path, bundled_dir()):                 # in the bundled folder it is the same file
        monkeypatch.chdir(folder)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert rulesdsl.load("gin_rummy").digest == GIN_DIGEST


def test_a_path_object_always_names_a_file_never_a_bundled_game(tmp_path, monkeypatch):
    from pathlib import Path
    monkeypatch.chdir(tmp_path)
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(Path("gin_rummy"))                 # no such file here: not the bundled game
    assert exc.value.diagnostics[0].code == "E-NOT-FOUND"
    (tmp_path / "mine.yaml").write_text("extends: gin_rummy\nparams: {knock_limit: 5}\n")
    assert rulesdsl.load(Path("mine.yaml")).params["knock_limit"] == 5
    assert rulesdsl.load(tmp_path / "mine.yaml").params["knock_limit"] == 5
