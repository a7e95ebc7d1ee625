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
