"""The language's mechanics, one module each (``rulesdsl.mechanics``; docs/mechanics.md).

* The core names no mechanic: no module outside ``rulesdsl/mechanics`` writes a registered mechanic's
  section key, phase, action word or expression names in its code (prose may), as no module names a
  game.  So a mechanic is added, changed or removed in its own module.
* Each built-in mechanic's section is part of the schema, documented, and hovered with its summary.
* An installed package adds a mechanic through the ``rulesdsl.mechanics`` entry point group, with no
  edit to rulesdsl: docs/examples/cut.py, installed into a throw-away site folder, loads, checks,
  plays (notation, encoding, log words, rulebook, record and replay, clone, determinize, bots), and
  ``validate`` names the package it came from.  Without the package the same file is refused.
* A package whose mechanic cannot be loaded stops only the rulesets that use its section, with the
  reason (``E-MECHANIC``); a package may not take a core section's key.
"""

from __future__ import annotations

import ast
import io
import json
import os
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.mechanics import mechanics
from rulesdsl.model.docs import section_doc
from rulesdsl.model.game import RULESET
from rulesdsl.model.json_schema import ruleset_schema

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "examples" / "cut.py"


# ------------------------------------------------------------------ the core names no mechanic

def _words() -> tuple:
    """The words that name a built-in mechanic in code: its section key, phases and action words (as
    names or texts), and the names and functions it gives rules (as texts: a local variable may be
    called `amount`, but code reading the rule name "amount" reads the mechanic's)."""
    names, texts = set(), set()
    for m in mechanics():
        names |= {m.key, *m.flow, *m.verbs}
        texts |= {m.key, *m.flow, *m.verbs, *m.dormant(), *m.builtins(None, {})}
    return names, texts


def _code_words(path: Path, words: tuple) -> list:
    """(line, word) for each name or string literal of ``path``'s code that is one of ``words``."""
    names, texts = words
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.NAME and tok.string in names:
            hits.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING:
            try:
                value = ast.literal_eval(tok.string)
            except (ValueError, SyntaxError):          # an f-string: its parts are not one name
                continue
            if isinstance(value, str) and value in texts:
                hits.append((tok.start[0], value))
    return hits


def test_the_core_names_no_mechanic():
    words = _words()
    assert {"tricks", "bidding", "bid"} <= words[0] and {"trick.led", "card_suit", "trump"} <= words[1]
    found = {}
    for path in sorted((ROOT / "rulesdsl").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1] == "mechanics" or path.name == "_lark_standalone.py":
            continue
        hits = _code_words(path, words)
        if hits:
            found[str(rel)] = hits
    assert not found, f"core modules naming a mechanic (move the code into its mechanic): {found}"


def test_the_scan_finds_a_mechanic_named_in_code(tmp_path):
    """The check above is not vacuous: code that reads a mechanic's section by name is found, prose is not."""
    probe = tmp_path / "probe.py"
    probe.write_text('"""Trick play: the tricks are counted."""\nx = prog.tricks\ny = "bid"\n# tricks\n')
    assert _code_words(probe, _words()) == [(2, "tricks"), (3, "bid")]


# ------------------------------------------------------------------ the built-in mechanics

@pytest.mark.parametrize("mech", mechanics(), ids=lambda m: m.key)
def test_each_mechanic_is_a_section_of_the_schema_with_its_summary(mech):
    assert mech.origin == "rulesdsl"
    assert RULESET.fields[mech.key] is mech.section
    assert section_doc((mech.key,)) == mech.summary
    assert f"`{mech.key}`" in (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    schema = ruleset_schema()
    assert mech.key in schema["$defs"]["ruleset"]["properties"]


def test_a_mechanic_needs_the_sections_it_names(tmp_path):
    """``requires``: each built-in mechanic that needs another section is refused without it, at its
    own section, with the reason it gives (bidding counts tricks)."""
    need = [m for m in mechanics() if m.requires]
    assert need
    for m in need:
        path = tmp_path / f"{m.key}.yaml"
        path.write_text(f"extends: gin_rummy\n{m.key}: {{}}\n")
        with pytest.raises(rulesdsl.RulesetError) as err:
            rulesdsl.load(str(path))
        for key, why in m.requires.items():
            wanted = f"{m.key}.yaml:2:{len(m.key) + 3}: error[E-MISSING]: `{m.key}` needs a `{key}` section ({why})"
            assert wanted in str(err.value)


# ------------------------------------------------------------------ a mechanic from an installed package

CUT_RULES = """
extends: gin_rummy
cut: {by: "next_seat(dealer)", leave: 4, turn_up: starter}
zones:
  starter: {visible: all}
stock_out: {when: "count(stock) <= 2 or cut.depth == 0"}
"""

PLAY = r"""
import json, random, sys
import rulesdsl
from rulesdsl.mechanics import by_key
from rulesdsl.encoding import Decisions, build_action_space
from rulesdsl.table.words import action_words
from rulesdsl.bots import make_bot
from rulesdsl import replay
rules = rulesdsl.load(sys.argv[1])
out = {"origin": by_key()["cut"].origin}
g = rules.new_game(seed=3)
out["phase"] = g.phase
out["legal"] = [str(a) for a in g.legal_actions()]
out["cutter"] = g.actor
stock_before = list(g.zones["stock"])
g.apply("cut 10")
out["moved"] = list(g.zones["stock"]) + g.zones["starter"] == stock_before[-10:] + stock_before[:-10]
out["starter"] = len(g.zones["starter"])
out["after"] = g.phase
out["view_cut"] = g.view(0).get("cut")
out["words"] = action_words(rulesdsl.Action("cut", "10"))
space = build_action_space(rules.program())
out["numbered"] = "cut 10" in space.whole
before = (list(g.history), g.view(0))
try:
    g.apply("cut 2")
except rulesdsl.IllegalAction as exc:
    out["refused"] = (list(g.history), g.view(0)) == before
rng = random.Random(1)
bot = make_bot("greedy", seed=1)
for i in range(400):
    if g.is_over:
        break
    g.apply(bot.choose(g) if i % 2 else rng.choice(g.legal_actions()))
again = replay(g.record(), rules)
out["replayed"] = again.history == g.history
out["cuts"] = sum(1 for h in g.history if h.startswith("cut "))
c = g.clone()
out["clone"] = c.view(0) == g.view(0)
if not g.is_over:
    d = g.determinize(0, random.Random(2))
    out["determinized"] = d.view(0) == g.view(0) and bool(d.legal_actions())
fresh = rules.new_game(seed=5)
dec = Decisions(fresh, space)
out["by_number"] = sorted(dec.legal()) == sorted(space.whole[str(a)] for a in fresh.legal_actions())
print(json.dumps(out))
"""


def _site(tmp_path: Path, entry_points: str, modules: dict) -> Path:
    """A folder that, on PYTHONPATH, is an installed distribution with these entry points."""
    site = tmp_path / "site"
    info = site / "rulesdsl_example_pkg-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rulesdsl-example-pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)
    for name, text in modules.items():
        (site / name).write_text(text)
    return site


def _run(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(site))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=300)


def _cli(site: Path, *args: str) -> subprocess.CompletedProcess:
    return _run(site, "-c", "from rulesdsl.cli.main import cli; cli()", *args)


def test_an_installed_package_adds_a_mechanic_that_plays_end_to_end(tmp_path):
    site = _site(tmp_path, "[rulesdsl.mechanics]\ncut = cut:Cut\n", {"cut.py": EXAMPLE.read_text()})
    path = tmp_path / "cut_gin.yaml"
    path.write_text(CUT_RULES)
    run = _run(site, "-c", PLAY, str(path))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["origin"] == "rulesdsl-example-pkg"
    assert out["phase"] == "cut" and out["cutter"] == 1                    # the dealer's left, as `by` says
    assert out["legal"] == [f"cut {k}" for k in range(4, 31 - 4 + 1)]      # 52 - 21 dealt: 31 in the stock
    assert out["moved"] and out["starter"] == 1 and out["after"] == "offer"
    assert out["view_cut"] == 10 and out["words"] == "cuts the stock at 10" and out["numbered"]
    assert out["refused"] is True                                          # the cut is over: refused, no change
    assert out["replayed"] and out["cuts"] >= 1 and out["clone"] and out["by_number"]
    assert out.get("determinized", True)

    valid = _cli(site, "validate", str(path))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert "cut (rulesdsl-example-pkg)" in valid.stdout
    report = json.loads(_cli(site, "validate", "--format", "json", str(path)).stdout)
    assert report["mechanics"] == [{"section": "cut", "package": "rulesdsl-example-pkg"}]
    book = _cli(site, "rulebook", str(path))
    assert book.returncode == 0 and "The cut" in book.stdout and "leaving at least 4 cards" in book.stdout

    path.write_text(CUT_RULES.replace("turn_up: starter", "turn_up: starer"))
    bad = _cli(site, "validate", str(path))
    assert bad.returncode == 1 and "error[E-UNKNOWN-ZONE]" in bad.stdout and "cut_gin.yaml:3:" in bad.stdout


def test_installed_packages_are_looked_for_only_when_a_ruleset_needs_them(tmp_path):
    """Reading every distribution's entry points costs a cold start some 20 ms: a ruleset that uses only
    the built-in language never pays it; one with a section it lacks does, and finds the package's."""
    site = _site(tmp_path, "[rulesdsl.mechanics]\ncut = cut:Cut\n", {"cut.py": EXAMPLE.read_text()})
    path = tmp_path / "cut_gin.yaml"
    path.write_text(CUT_RULES)
    code = ("import json, sys, rulesdsl\nfrom rulesdsl.mechanics import registry\nfrom rulesdsl.engine import state\n"
            "rulesdsl.load('gin_rummy').new_game(seed=1).clone()\nbefore = [registry._installed, 'cut_depth' in state.PLAIN]\n"
            "g = rulesdsl.load(sys.argv[1]).new_game(seed=1)\n"
            "print(json.dumps(before + [registry._installed, 'cut_depth' in state.PLAIN, g.clone().view(0) == g.view(0)]))")
    run = _run(site, "-c", code, str(path))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [False, False, True, True, True]      # what was known before is read again


def test_without_the_package_the_section_is_unknown(tmp_path):
    """A ruleset runs no code: it can use only the mechanics that are installed."""
    path = tmp_path / "cut_gin.yaml"
    path.write_text(CUT_RULES)
    with pytest.raises(rulesdsl.RulesetError) as err:
        rulesdsl.load(str(path))
    assert "E-UNKNOWN-KEY" in str(err.value) and "`cut`" in str(err.value)


def test_a_base_file_may_use_an_installed_packages_section(tmp_path):
    """`extends` reads a base file's sections with the installed packages' among them: a base that
    writes `cut:` is a ruleset where the package is installed (and `load_installed` says whether it
    found something new: once, then no more)."""
    site = _site(tmp_path, "[rulesdsl.mechanics]\ncut = cut:Cut\n", {"cut.py": EXAMPLE.read_text()})
    (tmp_path / "cut_gin.yaml").write_text(CUT_RULES)
    child = tmp_path / "house.yaml"
    child.write_text("extends: ./cut_gin.yaml\nname: cut gin, house rules\n")
    valid = _cli(site, "validate", str(child))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert "cut (rulesdsl-example-pkg)" in valid.stdout
    run = _run(site, "-c", "from rulesdsl.mechanics.registry import load_installed as l; print(l(), l())")
    assert run.stdout.split() == ["True", "False"], run.stderr


def test_a_package_whose_mechanic_fails_stops_only_the_rulesets_that_use_it(tmp_path):
    site = _site(tmp_path, "[rulesdsl.mechanics]\nbroken = broken_mech:Broken\ndeck = broken_mech:Deck\n"
                           "tricks = broken_mech:Tricks\n",
                 {"broken_mech.py": textwrap.dedent("""
                     from rulesdsl.mechanics import Mechanic
                     raise RuntimeError("the package is half installed")
                 """)})
    uses = tmp_path / "uses.yaml"
    uses.write_text("extends: gin_rummy\nbroken: {}\n")
    run = _cli(site, "validate", str(uses), "gin_rummy", "hearts")
    assert run.returncode == 1
    assert "error[E-MECHANIC]" in run.stdout and "rulesdsl-example-pkg" in run.stdout
    assert "the package is half installed" in run.stdout
    assert "gin_rummy: ok" in run.stdout and "hearts: ok" in run.stdout   # any other ruleset loads as before,
    assert run.stdout.count("E-MECHANIC") == 1                             # even with a key the core or a
                                                                           # built-in mechanic has
    assert "Traceback" not in run.stdout + run.stderr


def test_a_package_may_not_take_a_core_section_or_an_action_word(tmp_path):
    code = textwrap.dedent("""
        from rulesdsl.mechanics import Mechanic, Verb
        from rulesdsl.model.schema import Field, Struct
        class Deck(Mechanic):
            key = "deck"
            section = Field(Struct("deck", {}))
        class Draws(Mechanic):
            key = "draws"
            section = Field(Struct("draws", {}))
            verbs = {"draw": Verb("nothing", "`draw`")}
    """)
    site = _site(tmp_path, "[rulesdsl.mechanics]\ndeck = taker:Deck\ndraws = taker:Draws\n", {"taker.py": code})
    run = _run(site, "-c", "import json, rulesdsl\nfrom rulesdsl.mechanics.registry import broken, by_key, load_installed\n"
                           "load_installed()\ng = rulesdsl.load('gin_rummy').new_game(seed=1)\n"
                           "print(json.dumps([sorted(broken()), sorted(by_key())]))")
    assert run.returncode == 0, run.stderr
    refused, registered = json.loads(run.stdout)
    assert refused == ["deck", "draws"] and "deck" not in registered and "draws" not in registered


def test_the_finishing_order_is_a_core_name_every_ruleset_may_read(tmp_path):
    """docs/language.md, Names: `previous_order` (the last deal's finishing order) belongs to the core,
    which keeps it for the match's seating, the roles and the exchange; a ruleset without a climbing
    section reads it too (empty until a deal has ranked its players)."""
    path = tmp_path / "reads_order.yaml"
    path.write_text('extends: gin_rummy\nderived:\n  first_out: "count(previous_order)"\n')
    game = rulesdsl.load(path).new_game(seed=1)
    assert game.previous_order == []
    assert game.prog.scope.names["previous_order"].get(game) == []


@pytest.mark.parametrize("name, phase, rule, line", [
    ("president", "climb", "climbing", 62), ("hearts", "exchange", "exchange[0]", 51),
    ("spades", "bid", "bidding", 37), ("spades", "tricks", "tricks", 46)])
def test_a_failure_inside_a_mechanic_names_its_section_and_where_it_is_written(monkeypatch, name, phase, rule, line):
    """A mechanic's phase declares the section that governs it (`governs`): a failure that no rule of the
    file caused (here the phase's listing breaks) stops the game naming that section and its place in the
    file, as the E-PLAY error's rule and position.  Catches a phase that names nothing (the error then reads
    the bare phase name, with no position)."""
    g = rulesdsl.load(name).new_game(seed=1)
    while g.phase != phase:
        g.apply(g.legal_actions()[0])

    def broken(game):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(g.phases[phase], "generate", broken)
    with pytest.raises(rulesdsl.RuleEvaluationError) as stopped:
        g.legal_actions()
    assert stopped.value.rule == rule
    assert stopped.value.pos.line == line and str(stopped.value.pos.path).endswith(f"{name}.yaml")
