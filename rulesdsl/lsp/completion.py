"""Completion: the keys the schema allows where the cursor is, parameter names after ``params.`` (and
under a variant's ``params:``), the words a value may be, zone names where a zone is named, and in
expressions builtins, zones, derived values and the names every ruleset has."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..source.resolve import bundled_names
from . import names
from .cursor import context
from .document import Analysis
from .keys import choices_at, describe_key, is_expression, keys_at, type_at

_PREFIX = re.compile(r"[\w.]*$")


@dataclass(frozen=True)
class Item:
    """One completion: ``kind`` is key, param, word, zone, function, name or file."""

    label: str
    kind: str
    doc: str = ""


def complete(a: Analysis, line: int, char: int) -> list[Item]:
    lines = a.text.split("\n")
    before = lines[line][:char] if line < len(lines) else ""
    prefix = _PREFIX.search(before).group()
    ctx = context(a.text, line, char, a.dsl)
    if ctx.mode == "key":
        return _keys(a, ctx.path)
    if prefix.startswith("params."):
        return _params(a)
    return _values(a, ctx.path)


def _keys(a: Analysis, path: tuple) -> list[Item]:
    if path == ("params",) and a.files:                 # a variant sets its bases' parameters
        return _params(a)
    out = [Item(k, "key", describe_key(path + (k,)) or "") for k in keys_at(path)]
    if path == ():
        out.append(Item("extends", "key", describe_key(("extends",)) or ""))
    return out


def _params(a: Analysis) -> list[Item]:
    return [Item(n, "param", names.param_text(a, n) or "") for n in names.declared(a, "params")]


def _values(a: Analysis, path: tuple) -> list[Item]:
    if path == ("extends",):
        return [Item(n, "file") for n, _ in bundled_names()]
    out = [Item(w, "word") for w in choices_at(path)]
    if path and path[-1] in names.ZONE_KEYS and not is_expression(path) and type_at(path) is not None:
        out += _zones(a)
    if is_expression(path):
        out += _zones(a)
        out += [Item(n, "function", doc) for n, doc in names.builtins().items()]
        out += [Item(n, "name", f"derived: `{h}`") for n, (h, _) in names.derived(a).items()]
        out += [Item(n, "name", doc) for n, doc in names.state_names().items()]
        out.append(Item("params", "name", "the ruleset's parameters: `params.NAME`"))
    return out


def _zones(a: Analysis) -> list[Item]:
    return [Item(z, "zone", names.zone_text(a, z) or "") for z in names.declared(a, "zones")]
