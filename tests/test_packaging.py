"""The wheel ships every package, the grammar and the rulesets (a missing one passes tests run from the
checkout but breaks an installed `rulesdsl`)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _listed_packages() -> set[str]:
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"packages = \[(.*?)\]", text, re.S).group(1)
    return set(re.findall(r'"([\w.]+)"', block))


def test_every_source_package_is_listed():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "rulesdsl").rglob("__init__.py")}
    missing = found - _listed_packages()
    assert not missing, f"add to pyproject.toml packages: {sorted(missing)}"


def test_data_packages_are_listed():
    assert {"rulesdsl.grammar", "rulesdsl.rulesets", "rulesdsl.rulesets.variants"} <= _listed_packages()
    assert (ROOT / "grammar" / "rules.lark").is_file()


def test_an_installed_layout_finds_its_rulesets_and_grammar(tmp_path):
    """Mirror the wheel: rulesets/ and grammar/ inside the package, run from elsewhere.  (Both are
    namespace packages there, which importlib.resources reports as a multiplexed path.)"""
    import shutil
    import subprocess
    import sys

    site = tmp_path / "site"
    shutil.copytree(ROOT / "rulesdsl", site / "rulesdsl", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "rulesets", site / "rulesdsl" / "rulesets")
    shutil.copytree(ROOT / "grammar", site / "rulesdsl" / "grammar")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    code = ("import rulesdsl; from rulesdsl.source.resolve import bundled_names; "
            "print(rulesdsl.load('variants/straight_gin').name, len(bundled_names()))")
    out = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True,
                         env={"PYTHONPATH": str(site), "PATH": ""}, timeout=60)
    assert out.returncode == 0, out.stderr
    name, count = out.stdout.rsplit(" ", 1)
    assert name == "Gin Rummy" and int(count) >= 20
