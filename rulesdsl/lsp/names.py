"""The names a ruleset declares (zones, parameters, derived values and functions, card classes),
read from a checked document's resolved tree, and the names every ruleset has (builtins, state)."""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

from ..model.docs import AGGREGATE_DOCS
from ..source.tree import Map, Node, Pos
from .document import Analysis

#: keys whose value names a zone (where the schema says only "a name")
ZONE_KEYS = frozenset({"to", "turn_up", "offer", "draw", "take", "discard", "play_from", "cleared_to",
                       "draw_from", "replace_from", "reserve_for"})


def declared(a: Analysis, section: str) -> dict[str, Node]:
    """The entries of a mapping section (``zones``, ``params``, ``classes`` ...) by name."""
    node = a.section(section)
    return dict(node.items()) if isinstance(node, Map) else {}


def declared_at(a: Analysis, section: str, name: str) -> Optional[Pos]:
    node = a.section(section)
    return node.where(name) if isinstance(node, Map) and name in node else None


def derived(a: Analysis) -> dict[str, tuple[str, Node]]:
    """Derived names (a function's heading ``f(a, b)`` by its name ``f``) -> (heading, body)."""
    return {k.split("(")[0].strip(): (k, v) for k, v in declared(a, "derived").items()}


@lru_cache(maxsize=1)
def builtins() -> dict[str, str]:
    """Builtin functions and aggregates -> their doc with the call's shape."""
    from ..compile.names import builtin_docs

    out = {name: f"`{name}({_args(arity)})`: {doc}" for name, (doc, arity) in builtin_docs().items()}
    out.update({name: f"`{name}(...)`: {doc}" for name, doc in AGGREGATE_DOCS.items()})
    return out


def _args(arity: tuple) -> str:
    lo, hi = arity
    return ", ".join(["x"] * lo) + (", ..." if hi != lo else "")


@lru_cache(maxsize=1)
def state_names() -> dict[str, str]:
    from ..compile.names import name_docs

    return name_docs()


def param_text(a: Analysis, name: str) -> Optional[str]:
    """Markdown for a parameter: its value in this ruleset, choices and range, doc, and where declared."""
    node = declared(a, "params").get(name)
    if node is None:
        return None
    value = node["default"] if isinstance(node, Map) and "default" in node else node
    lines = [f"**`params.{name}`** = `{value.plain()}`"]
    if isinstance(node, Map):
        for key in ("choices", "min", "max", "length"):
            if key in node:
                lines.append(f"{key}: `{node[key].plain()}`")
        if "doc" in node:
            lines.append(str(node["doc"].plain()))
    where = declared_at(a, "params", name)
    if where is not None:
        lines.append(f"set at {where}")
    return "\n\n".join(lines)


def zone_text(a: Analysis, name: str) -> Optional[str]:
    node = declared(a, "zones").get(name)
    if node is None:
        return None
    get = (lambda k, d: node[k].plain() if isinstance(node, Map) and k in node else d)
    return f"**zone `{name}`**: per {get('per', 'table')}, visible {get('visible', 'none')}"
