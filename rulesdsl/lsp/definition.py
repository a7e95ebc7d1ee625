"""Go to definition: from ``extends`` to the base file, from ``params.NAME`` (or a parameter a variant
sets) to where the parameter is declared, from a derived name to its definition."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import Diagnostics, RulesetError
from ..source.resolve import load_tree
from ..source.tree import Map, Pos
from . import names
from .cursor import context, word_at
from .document import Analysis


def definition(a: Analysis, line: int, char: int) -> Optional[tuple[Path, int, int]]:
    """The file and 0-based line and character the thing under the cursor is defined at, or None."""
    lines = a.text.split("\n")
    text = lines[line] if line < len(lines) else ""
    word, start, _ = word_at(text, char)
    if not word:
        return None
    ctx = context(a.text, line, start, a.dsl)
    if ctx.mode == "value" and ctx.path == ("extends",):
        return _base_file(a)
    if word.startswith("params.") and ctx.mode == "value":
        return _param(a, word.split(".")[1], line)
    if ctx.mode == "key" and ctx.path == ("params",):
        return _param(a, word, line)
    if ctx.mode == "value" and word in names.derived(a):
        return _at(a, names.declared_at(a, "derived", names.derived(a)[word][0]))
    return None


def _base_file(a: Analysis) -> Optional[tuple[Path, int, int]]:
    """The base file, as the check found it (so only where ``extends`` may reach)."""
    bases = list(a.files.values())
    return (bases[0], 0, 0) if bases else None


def _param(a: Analysis, name: str, line: int) -> Optional[tuple[Path, int, int]]:
    """Where this ruleset sets the parameter; from that very line, where its base declares it."""
    found = _at(a, names.declared_at(a, "params", name))
    if found is not None and not (found[0] == a.path and found[1] == line):
        return found
    return _in_base(a, name)


def _in_base(a: Analysis, name: str) -> Optional[tuple[Path, int, int]]:
    bases = list(a.files.values())
    if not bases:
        return None
    try:
        tree, _ = load_tree(str(bases[0].resolve()), diags=Diagnostics())
    except RulesetError:
        return None
    params = tree.get("params") if isinstance(tree, Map) else None
    if not isinstance(params, Map) or name not in params:
        return None
    base = Analysis(bases[0], "", tree=tree, files=dict(a.files))
    return _at(base, params.where(name))


def _at(a: Analysis, pos: Optional[Pos]) -> Optional[tuple[Path, int, int]]:
    if pos is None or pos.line < 1:
        return None
    path = a.file_of(pos)
    return (path, pos.line - 1, max(pos.col - 1, 0)) if path is not None else None
