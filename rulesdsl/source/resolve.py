"""Find a ruleset, read it in either syntax, and resolve ``extends`` plus overrides into one tree.

A variant file names its base with ``extends:`` (a bundled name or a path relative to the file) and
changes only what differs.  Maps merge key by key; anything else replaces.  Under ``params`` a bare
value changes a declared parameter's default, and naming an undeclared parameter is an error with a
suggestion, so a typo in a house rule never silently does nothing.  Every node keeps the position of
the file (or ``--set``) that wrote it, so diagnostics point at the line that set the value.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Mapping, Optional

from ..errors import Diagnostics, RulesetError, suggest
from .tree import Map, Node, Pos, Scalar, describe, from_plain

EXTENSIONS = (".yaml", ".yml", ".rules")
MAX_EXTENDS_DEPTH = 16


def bundled_dir() -> Path:
    """The folder of bundled rulesets: ``rulesdsl/rulesets`` in an installed package (package data),
    else the repository's top-level ``rulesets/`` in a source checkout."""
    here = Path(__file__).resolve().parents[1]          # the rulesdsl package
    installed = here / "rulesets"
    if installed.is_dir():
        return installed
    return here.parent / "rulesets"


def bundled_names() -> list[tuple[str, Path]]:
    """Every bundled game and variant as (name, path); variants are named ``variants/NAME``."""
    out = []
    root = bundled_dir()
    for sub, prefix in ((root, ""), (root / "variants", "variants/")):
        if sub.is_dir():
            for p in sorted(sub.iterdir()):
                if p.suffix in EXTENSIONS and not p.name.startswith("_"):
                    out.append((prefix + p.stem, p))
    return out


def find(name: str, relative_to: Optional[Path] = None) -> Optional[Path]:
    """A ruleset path from a file path, a path relative to a file, or a bundled name."""
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / name)
    candidates.append(Path(name))
    for c in candidates:
        try:
            if c.is_file():
                return c
            for ext in EXTENSIONS:
                if not c.suffix and c.with_name(c.name + ext).is_file():
                    return c.with_name(c.name + ext)
        except (OSError, ValueError):      # a name too long (or odd) for the file system is no file
            continue
    root = bundled_dir()
    stem = name[:-len(Path(name).suffix)] if Path(name).suffix in EXTENSIONS else name
    for folder in (root, root / "variants"):
        for ext in EXTENSIONS:
            p = folder / (stem.replace("variants/", "") + ext)
            try:
                if p.is_file():
                    return p
            except (OSError, ValueError):
                return None
    return None


def read_file(path: Path, display: Optional[str] = None) -> Node:
    """Read one file (YAML or DSL by extension) into a raw tree."""
    from .dsl_reader import read_dsl
    from .yaml_reader import read_yaml

    shown = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        d = Diagnostics()
        d.error("E-READ", f"cannot read ruleset: {exc}", Pos(shown, 1, 1))
        raise RulesetError(d.items) from None
    if path.suffix == ".rules":
        return read_dsl(text, shown)
    return read_yaml(text, shown)


def _display(path: Path) -> str:
    """Show bundled files as ``rulesets/NAME.yaml`` and others relative to the working directory."""
    try:
        rel = path.resolve().relative_to(bundled_dir().resolve())
        return str(Path("rulesets") / rel)
    except ValueError:
        pass
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def load_tree(name: str, overrides: Optional[Mapping[str, Any]] = None,
              override_pos: Optional[Mapping[str, Pos]] = None,
              diags: Optional[Diagnostics] = None) -> tuple[Node, Path]:
    """Resolve ``name`` (path or bundled name) with its ``extends`` chain and the given overrides.

    Problems that leave a usable tree (an unknown parameter in a variant or an override) go to
    ``diags`` when given, so the caller can report them together with later problems; without
    ``diags`` they are raised.  A file that cannot be found or read is always raised at once."""
    own = diags is None
    d = Diagnostics() if own else diags
    path = find(name)
    if path is None:
        d = Diagnostics()
        names = [n for n, _ in bundled_names()]
        d.error("E-NOT-FOUND", f"no ruleset file or bundled game named `{name}`", Pos(name, 0, 0),
                suggest(name, names) or "bundled: " + ", ".join(names))
        raise RulesetError(d.items)
    tree = _resolve_file(path, [], d)
    if overrides:
        tree = apply_overrides(tree, overrides, override_pos or {}, d)
    if own:
        d.raise_if_any()
    return tree, path


def _resolve_file(path: Path, chain: list[Path], d: Diagnostics) -> Node:
    tree = read_file(path, _display(path))
    if not isinstance(tree, Map) or "extends" not in tree:
        return tree
    ext = tree["extends"]
    if not isinstance(ext, Scalar) or not isinstance(ext.value, str):
        d.error("E-TYPE", "`extends` must name a ruleset", ext.pos)
        raise RulesetError(d.items)
    base_path = find(ext.value, path.parent)
    if base_path is None:
        names = [n for n, _ in bundled_names()]
        d.error("E-NOT-FOUND", f"`extends` names `{ext.value}`, which is not a file or bundled game",
                ext.pos, suggest(ext.value, names) or "bundled: " + ", ".join(names))
        raise RulesetError(d.items)
    resolved = base_path.resolve()
    if resolved in chain or resolved == path.resolve():
        d.error("E-CYCLE", f"`extends` chain loops back to `{ext.value}`", ext.pos)
        raise RulesetError(d.items)
    if len(chain) >= MAX_EXTENDS_DEPTH:
        d.error("E-DEPTH", f"`extends` chain deeper than {MAX_EXTENDS_DEPTH}", ext.pos)
        raise RulesetError(d.items)
    base = _resolve_file(base_path, chain + [path.resolve()], d)
    return merge(base, tree, d)


def merge(base: Node, over: Node, d: Diagnostics, path: tuple[str, ...] = ()) -> Node:
    """Overlay ``over`` on ``base``: maps merge, everything else replaces."""
    if not (isinstance(base, Map) and isinstance(over, Map)):
        return over
    entries = dict(base.entries)
    key_pos = dict(base.key_pos)
    for k, v in over.items():
        if path == () and k == "extends":
            continue
        if path == ("params",):
            if k not in entries:
                if isinstance(v, Map) and "default" in v:      # a variant may declare a new parameter
                    entries[k], key_pos[k] = v, over.where(k)
                    continue
                d.error("E-UNKNOWN-PARAM", f"unknown parameter `{k}`", over.where(k),
                        suggest(k, entries) or "a variant can only change declared parameters")
                continue
            base_default = entries[k]["default"] if isinstance(entries[k], Map) and "default" in entries[k] \
                else entries[k]
            if not isinstance(v, Map) and _value_kind(base_default) != _value_kind(v):
                d.error("E-TYPE", f"parameter `{k}` is {_value_kind(base_default)}; this sets it to "
                        f"{describe(v)}",
                        over.where(k), f"the base declares `{k}` at {base_default.pos}")
                continue
            if isinstance(entries[k], Map) and "default" in entries[k] and not isinstance(v, Map):
                old = entries[k]
                new = Map(dict(old.entries), old.pos, dict(old.key_pos))
                new.entries["default"] = v
                new.key_pos["default"] = over.where(k)
                entries[k] = new
                continue
        entries[k] = merge(entries[k], v, d, path + (k,)) if k in entries else v
        key_pos[k] = over.where(k)
    # a mapping the overlay touched is reported where the overlay wrote it (the latest writer)
    return Map(entries, over.pos if path else base.pos, key_pos)


def _value_kind(node: Node) -> str:
    """A node's kind for type checks: texts are one kind, whatever they say."""
    if isinstance(node, Scalar) and isinstance(node.value, str):
        return "text"
    return describe(node)


def apply_overrides(tree: Node, overrides: Mapping[str, Any], where: Mapping[str, Pos],
                    d: Diagnostics) -> Node:
    """Apply ``{key: value}`` overrides: a parameter name, or a dotted path such as ``deck.jokers``."""
    if not isinstance(tree, Map):
        return tree
    params = tree.get("params")
    param_names = list(params.keys()) if isinstance(params, Map) else []
    for key, value in overrides.items():
        pos = where.get(key) or Pos(f"<override {key}>", 1, 1)
        node = from_plain(value, pos)
        if "." not in key:
            if key not in param_names:
                d.error("E-UNKNOWN-PARAM", f"unknown parameter `{key}`", pos,
                        suggest(key, param_names) or "parameters: " + ", ".join(param_names))
                continue
            overlay = Map({"params": Map({key: node}, pos, {key: pos})}, pos, {"params": pos})
        else:
            parts = key.split(".")
            if parts[0] == "params" and len(parts) == 2 and parts[1] not in param_names:
                d.error("E-UNKNOWN-PARAM", f"unknown parameter `{parts[1]}`", pos,
                        suggest(parts[1], param_names) or "parameters: " + ", ".join(param_names))
                continue
            cur: Node = tree
            for p in parts[:-1]:
                if not isinstance(cur, Map) or p not in cur:
                    cur = None  # type: ignore[assignment]
                    break
                cur = cur[p]
            if not isinstance(cur, Map):
                d.error("E-UNKNOWN-KEY", f"`{key}` is not a key of this ruleset", pos,
                        "override a parameter by name, or a dotted path such as `deck.jokers`")
                continue
            overlay = node
            for p in reversed(parts):
                overlay = Map({p: overlay}, pos, {p: pos})
        tree = merge(tree, overlay, d)
    return tree


def digest(tree: Node) -> str:
    """A short, stable fingerprint of a resolved ruleset (for replays and saves)."""
    blob = json.dumps(tree.plain(), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
