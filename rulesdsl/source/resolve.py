"""Find a ruleset, read it in either syntax, and resolve ``extends`` plus overrides into one tree.

How a name is found (the CLI, ``rulesdsl.load`` and ``extends`` all follow it):

* a name with an extension (``.yaml``, ``.yml``, ``.rules``) or one that starts with ``./``, ``../`` or
  ``/`` is a file path: relative to the working directory, or, in ``extends``, to the file that extends;
* any other name (``NAME`` or ``variants/NAME``) is a bundled game or variant, and nothing else.

``extends`` is confined, because a ruleset may come from a stranger: it names a bundled ruleset, or a
file with a ruleset extension inside the folder of the file that was named (its subfolders included;
no ``..`` out of it, no absolute path but into the bundled rulesets, symbolic links resolved before
the check).  ``allow_paths``
(``--allow-path DIR`` on the command line) widens that to other folders, by relative or absolute
path.  A file outside is never read.  A base file that does not read as a ruleset (a syntax error, a
top level with keys no ruleset has) is reported at the ``extends`` line without quoting it beyond a
short excerpt: diagnostics quote in full only the files a user named.

So a local file never takes the place of a bundled ruleset unasked.  When a bundled name also matches
a local file (``NAME.rules`` beside the caller), the bundled ruleset is used and a
``ShadowedFileWarning`` says which file was not (the CLI prints it as a ``note:`` line); a bare name
that only matches a local file is an error whose hint spells the path.

A variant file names its base with ``extends:`` and changes only what differs.  Maps merge key by
key; anything else replaces.  Under ``params`` a bare value changes a declared parameter's default,
and naming an undeclared parameter is an error with a suggestion, so a typo in a house rule never
silently does nothing.  Every node keeps the position of the file (or ``--set``) that wrote it, so
diagnostics point at the line that set the value.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import sys
import warnings
from pathlib import Path
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Union

from ..errors import BASE_QUOTE_LIMIT, Diagnostics, RulesetError, ShadowedFileWarning, Sources, excerpt, suggest
from .tree import Map, Node, Pos, Scalar, describe, from_plain

EXTENSIONS = (".yaml", ".yml", ".rules")
MAX_EXTENDS_DEPTH = 16
_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


def bundled_dir() -> Path:
    """The folder of bundled rulesets: ``rulesdsl/rulesets`` in an installed package (package data),
    else the repository's top-level ``rulesets/`` in a source checkout."""
    here = Path(__file__).resolve().parents[1]          # the rulesdsl package
    installed = here / "rulesets"
    if installed.is_dir():
        return installed
    return here.parent / "rulesets"


def is_bundled(path: Path) -> bool:
    """Whether a file lies among the bundled rulesets (a base a user extends, never one of theirs)."""
    try:
        path.resolve().relative_to(bundled_dir().resolve())
        return True
    except (OSError, ValueError):
        return False


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


def is_path(name: str) -> bool:
    """Whether ``name`` names a file (it has a ruleset extension, or starts with ``./``, ``../`` or
    ``/``) rather than a bundled ruleset."""
    if Path(name).suffix.lower() in EXTENSIONS:
        return True
    return name.startswith(("./", "../", ".\\", "..\\")) or name in (".", "..") or os.path.isabs(name)


def bundled(name: str) -> Optional[Path]:
    """The bundled ruleset a bare name means (``NAME`` or ``variants/NAME``; a variant's own name
    works too when no game has it), or None."""
    table = dict(bundled_names())
    return table.get(name) or table.get("variants/" + name)


def local_matches(name: str, folder: Optional[Path] = None) -> list[Path]:
    """The files in ``folder`` (default: the working directory) that a bare name looks like:
    ``NAME`` itself or ``NAME`` with a ruleset extension.  Only for notes and hints: a bare name
    never resolves to them."""
    return [c for c in _candidates((folder / name) if folder is not None else Path(name)) if _is_file(c)]


def _candidates(c: Path) -> list[Path]:
    """``c``, and (without an extension) ``c`` with each ruleset extension."""
    if c.suffix.lower() in EXTENSIONS or not c.name:      # `.` or `..` has no name to extend
        return [c]
    return [c] + [c.with_name(c.name + ext) for ext in EXTENSIONS]


def _is_file(c: Path) -> bool:
    try:
        return c.is_file()
    except (OSError, ValueError):      # a name too long (or odd) for the file system is no file
        return False


def _file(name: str, relative_to: Optional[Path]) -> Optional[Path]:
    """A file path, taken relative to ``relative_to`` when given; without an extension, the file
    itself or the file with a ruleset extension."""
    c = (relative_to / name) if relative_to is not None else Path(name)
    return next((t for t in _candidates(c) if _is_file(t)), None)


def find(name: str, relative_to: Optional[Path] = None, *, extends_from: Optional[str] = None) -> Optional[Path]:
    """The file a ruleset name means, or None (see the module docstring for the rule).

    ``relative_to`` is the folder of the file whose ``extends`` names ``name`` (None: the working
    directory).  A bare name that also matches a local file there warns with ``ShadowedFileWarning``;
    ``extends_from`` (the extending file, as shown) words that warning."""
    if is_path(name):
        return _file(name, relative_to)
    try:
        path = bundled(name)
    except (OSError, ValueError):
        return None
    if path is not None:
        local = [p for p in local_matches(name, relative_to) if not _same_file(p, path)]
        if local:
            warnings.warn(ShadowedFileWarning(name, display_path(path), _spelled(local[0], relative_to),
                                              extends_from), stacklevel=_caller_level())
    return path


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _spelled(path: Path, relative_to: Optional[Path]) -> str:
    """How to write a local file as a path: ``./NAME.rules`` (relative to ``relative_to``)."""
    rel = path.relative_to(relative_to) if relative_to is not None else path
    text = rel.as_posix()
    return text if text.startswith(("./", "../", "/")) else "./" + text


def _caller_level() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside this package."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR + os.sep):
        level += 1
        frame = frame.f_back
    return level


def _close_bundled(name: str) -> list[str]:
    """Bundled names close to ``name`` (best first), comparing own names: ``variants/`` and an
    extension aside."""
    keys: dict[str, str] = {}
    for n, _ in bundled_names():
        keys.setdefault(n.split("/")[-1], n)
    probe = name[:-len(Path(name).suffix)] if Path(name).suffix.lower() in EXTENSIONS else name
    probe = probe.replace("\\", "/").split("/")[-1]
    starts = [k for k in keys if len(probe) >= 3 and k.startswith(probe)]
    out: list[str] = []
    for k in starts + difflib.get_close_matches(probe, list(keys), n=6, cutoff=0.6):
        if keys[k] not in out:
            out.append(keys[k])
    return out[:3]


def _or_list(items: list[str]) -> str:
    quoted = [f"`{i}`" for i in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def not_found(name: str, relative_to: Optional[Path] = None) -> tuple[str, str]:
    """The message and hint for a name that resolves to nothing (``relative_to`` as in ``find``:
    given, the name comes from an ``extends``)."""
    if not name.strip():
        return ("`extends` names no ruleset (the name is empty)" if relative_to is not None
                else "the ruleset name is empty"), "give a bundled name (`rulesdsl list`) or a file path"
    close = _close_bundled(name)
    if is_path(name):
        relative = "" if os.path.isabs(name) else \
            " (paths are relative to this file)" if relative_to is not None else \
            " (paths are relative to the working directory)"
        if relative_to is not None:
            message = f"`extends` names the file `{name}`, which is not there{relative}"
        else:
            message = f"no file `{name}`{relative}"
        stem = name[:-len(Path(name).suffix)] if Path(name).suffix.lower() in EXTENSIONS else name
        if bundled(stem) is not None:
            hint = f"a name with an extension is a file path; for the bundled ruleset write `{stem}`"
        else:
            hint = "check the path" + (f"; bundled rulesets close to it: {_or_list(close)}" if close else "")
        return message, hint
    if relative_to is not None:
        message = f"`extends` names `{name}`, which is no bundled game or variant"
    else:
        message = f"no bundled game or variant named `{name}`"
    local = local_matches(name, relative_to)
    if local:
        hint = (f"a name without an extension means a bundled ruleset only; for the local file write "
                f"`{_spelled(local[0], relative_to)}`")
    elif close:
        hint = f"did you mean {_or_list(close)}? (`rulesdsl list` shows every bundled ruleset)"
    else:
        hint = "`rulesdsl list` shows the bundled rulesets; a file is named with its extension (`NAME.rules`)"
    return message, hint


def read_file(path: Path, display: Optional[str] = None, text: Optional[str] = None,
              sources: Optional[Sources] = None) -> Node:
    """Read one file (YAML or DSL by extension) into a raw tree.  A file with nothing in it (empty,
    or only comments) is one ``E-EMPTY`` diagnostic, not a list of every missing section.  ``text``,
    when given, is the file's content as the caller holds it (an editor's unsaved buffer): the file
    itself is then not read.  ``sources``, when given, keeps the text (for excerpts under
    diagnostics), even if it does not parse."""
    from . import read_limited
    from .dsl_reader import read_dsl
    from .yaml_reader import read_yaml

    shown = display or display_path(path)
    try:
        if text is None:
            text = read_limited(path, shown)      # refuses a huge file before reading it
    except (OSError, UnicodeDecodeError) as exc:
        d = Diagnostics()
        d.error("E-READ", f"cannot read ruleset: {exc}", Pos(shown, 1, 1))
        raise RulesetError(d.items) from None
    if sources is not None:
        sources.add(shown, text, dsl=path.suffix == ".rules")
    tree = read_dsl(text, shown) if path.suffix == ".rules" else read_yaml(text, shown)
    if isinstance(tree, Map) and not len(tree):
        d = Diagnostics()
        d.error("E-EMPTY", f"{_emptiness(text)}: a ruleset needs at least {_required_keys()}",
                Pos(shown, 1, 1),
                "start from a bundled ruleset: `rulesdsl convert NAME --to rules --output FILE` writes "
                "one to edit, or write `extends: NAME` and only what differs (`rulesdsl list` names them)")
        raise RulesetError(d.items)
    return tree


def _emptiness(text: str) -> str:
    """Say how a file without keys looks: empty, only comments, or an empty mapping."""
    lines = [ln.strip() for ln in text.lstrip("\ufeff").splitlines()]
    if not any(lines):
        return "the file is empty"
    if all(not ln or ln.startswith("#") for ln in lines):
        return "the file is empty (it has only comments)"
    return "the file holds no keys"


def _required_keys() -> str:
    """The top-level keys every ruleset must have, in words (read from the model's schema)."""
    from ..model.game import RULESET

    keys = [f"`{k}`" for k, f in RULESET.fields.items() if f.required]
    return ", ".join(keys[:-1]) + " and " + keys[-1] if len(keys) > 1 else "".join(keys)


def display_path(path: Path) -> str:
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
              diags: Optional[Diagnostics] = None,
              files: Optional[list[Path]] = None,
              allow_paths: Sequence[Union[str, "os.PathLike[str]"]] = (),
              text: Optional[str] = None, sources: Optional[Sources] = None) -> tuple[Node, Path]:
    """Resolve ``name`` (path or bundled name) with its ``extends`` chain and the given overrides.

    Problems that leave a usable tree (an unknown parameter in a variant or an override) go to
    ``diags`` when given, so the caller can report them together with later problems; without
    ``diags`` they are raised.  A file that cannot be found or read is always raised at once.
    ``files``, when given, receives every file read (the named one first, then its bases).
    ``allow_paths``: folders (or files) outside the named file's folder that ``extends`` may name.
    ``text``: the named file's content, when the caller holds it (an editor's buffer, saved or not);
    ``name`` is then its path (it need not exist yet), and its ``extends`` resolve from its folder as
    if it were read from there.
    ``sources``, when given, receives the text of every file read that may be quoted (``Sources``)."""
    own = diags is None
    d = Diagnostics() if own else diags
    path = Path(name) if text is not None else find(name)
    if path is None:
        d = Diagnostics()
        message, hint = not_found(name)
        d.error("E-NOT-FOUND", message, Pos(name, 0, 0), hint)
        raise RulesetError(d.items)
    if isinstance(allow_paths, (str, os.PathLike)):
        allow_paths = [allow_paths]
    allowed = tuple(_real(p) for p in allow_paths)
    scope = _Scope((_real(path.parent), _real(bundled_dir())) + allowed, (_real(bundled_dir()),) + allowed)
    tree = _resolve_file(path, [], d, files, scope, text=text, sources=sources)
    if overrides:
        tree = apply_overrides(tree, overrides, override_pos or {}, d)
    if own:
        d.raise_if_any()
    return tree, path


class _Scope(NamedTuple):
    """Where ``extends`` may reach: ``roots`` (real paths: the named file's folder, the bundled
    rulesets, the allowed paths) and ``allowed`` (where an absolute path may lead: the bundled rulesets
    and the allowed paths)."""

    roots: tuple
    allowed: tuple


def _real(p: Union[str, "os.PathLike[str]"]) -> str:
    """The path with every symbolic link resolved (what a check of where a file lies must compare)."""
    return os.path.realpath(os.fspath(p))


def _inside(real: str, roots: Sequence[str]) -> bool:
    """Whether the real path ``real`` is one of ``roots`` or lies under one."""
    for root in roots:
        try:
            if os.path.commonpath([root, real]) == root:
                return True
        except ValueError:                  # another drive, or a mix of absolute and relative
            continue
    return False


_WIDEN = ("to allow another folder, pass `--allow-path DIR` (command line) or "
          "`rulesdsl.load(..., allow_paths=[DIR])`")


def _confine(name: str, folder: Path, scope: _Scope, pos: Pos, d: Diagnostics) -> None:
    """Refuse (before anything is read) an ``extends`` path that leaves the allowed folders."""
    shown = excerpt(name)
    if os.path.isabs(name):
        if not _inside(_real(name), scope.allowed):
            d.error("E-EXTENDS-PATH", f"`extends` names the absolute path `{shown}`; a ruleset extends a "
                    "bundled ruleset or a file in its own folder, by a relative path", pos,
                    "write the path relative to this file (`./base.yaml`); " + _WIDEN)
            raise RulesetError(d.items)
        return
    if not _inside(_real(folder / name), scope.roots):
        d.error("E-EXTENDS-PATH", f"`extends` names `{shown}`, outside the folder of the ruleset named "
                "(a ruleset extends a bundled ruleset or a file in its own folder tree)", pos, _WIDEN)
        raise RulesetError(d.items)


def _check_base(name: str, base: Path, scope: _Scope, pos: Pos, d: Diagnostics) -> None:
    """A base file found by path: it must really lie inside (a symbolic link may point out) and be
    a ruleset file by its extension."""
    if not _inside(_real(base), scope.roots):
        d.error("E-EXTENDS-PATH", f"`extends` names `{excerpt(name)}`, which leads (through a symbolic "
                "link) outside the folder of the ruleset named", pos, _WIDEN)
        raise RulesetError(d.items)
    if base.suffix.lower() not in EXTENSIONS:
        d.error("E-EXTENDS-PATH", f"`extends` names `{excerpt(name)}`, which is no ruleset file (a ruleset "
                f"file ends in {', '.join(EXTENSIONS)})", pos, "name the ruleset file with its extension")
        raise RulesetError(d.items)


def _read_base(path: Path, shown: str, name: str, pos: Pos, d: Diagnostics,
               sources: Optional[Sources] = None) -> Node:
    """Read a base file reached through ``extends`` (not a bundled one).  What does not read as a
    ruleset is one diagnostic at the ``extends`` line that says where the problem is and quotes at most
    a short excerpt: the file was not named by the user, and may not be a ruleset at all.  So its text
    joins ``sources`` only once it reads as a ruleset, and then cut to short excerpts."""
    from ..mechanics.registry import load_installed
    from ..model.game import RULESET, SOURCE_KEYS

    def refuse(why: str) -> None:
        d.error("E-EXTENDS-INVALID", f"`extends` names `{excerpt(name)}`, which {why}", pos,
                f"check that file by naming it: `rulesdsl validate {excerpt(name)}`")
        raise RulesetError(d.items)

    mine = Sources()
    try:
        tree = read_file(path, shown, sources=mine)
    except RulesetError as exc:
        first = exc.diagnostics[0] if exc.diagnostics else None
        refuse("does not read as a ruleset" + (f" (error[{first.code}] at {first.pos})" if first else ""))
    if not isinstance(tree, Map):
        refuse(f"is not a ruleset (it holds {describe(tree)}, not a mapping of sections; {tree.pos})")
    for key in tree.keys():
        if key not in RULESET.fields and key not in SOURCE_KEYS and not (load_installed() and key in RULESET.fields):
            refuse(f"is not a ruleset: its top-level key `{excerpt(key, 12)}` ({tree.where(key)}) is no "
                   "ruleset section")
    if sources is not None:
        sources.update(mine, limit=BASE_QUOTE_LIMIT)
    return tree


def _resolve_file(path: Path, chain: list[Path], d: Diagnostics, files: Optional[list[Path]] = None,
                  scope: Optional[_Scope] = None, named_by: Optional[tuple[str, Pos]] = None,
                  text: Optional[str] = None, sources: Optional[Sources] = None) -> Node:
    """Read ``path`` and its ``extends`` chain.  ``named_by`` (the ``extends`` value and where it is
    written) is given for a base file; ``scope`` bounds where ``extends`` may reach; ``text`` is the
    named file's content when the caller holds it."""
    if scope is None:
        scope = _Scope((_real(path.parent), _real(bundled_dir())), (_real(bundled_dir()),))
    shown = display_path(path)
    if files is not None:
        files.append(path)
    if named_by is not None and not _inside(_real(path), (_real(bundled_dir()),)):
        tree = _read_base(path, shown, named_by[0], named_by[1], d, sources)
    else:
        tree = read_file(path, shown, text, sources)
    if not isinstance(tree, Map) or "extends" not in tree:
        return tree
    ext = tree["extends"]
    if not isinstance(ext, Scalar) or not isinstance(ext.value, str):
        d.error("E-TYPE", "`extends` must name a ruleset", ext.pos)
        raise RulesetError(d.items)
    by_path = is_path(ext.value)
    if by_path:
        _confine(ext.value, path.parent, scope, ext.pos, d)
    base_path = find(ext.value, path.parent, extends_from=shown)
    if base_path is None:
        message, hint = not_found(ext.value, path.parent)
        d.error("E-NOT-FOUND", message, ext.pos, hint)
        raise RulesetError(d.items)
    if by_path:
        _check_base(ext.value, base_path, scope, ext.pos, d)
    resolved = base_path.resolve()
    if resolved in chain or resolved == path.resolve():
        d.error("E-CYCLE", f"`extends` chain loops back to `{ext.value}`", ext.pos)
        raise RulesetError(d.items)
    if len(chain) >= MAX_EXTENDS_DEPTH:
        d.error("E-DEPTH", f"`extends` chain deeper than {MAX_EXTENDS_DEPTH}", ext.pos)
        raise RulesetError(d.items)
    base = _resolve_file(base_path, chain + [path.resolve()], d, files, scope, (ext.value, ext.pos),
                         sources=sources)
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
            if not isinstance(v, Map) and _whole_only(base_default) and not _whole_only(v):
                d.error("E-TYPE", f"parameter `{k}` is a whole number; this sets it to {v.plain()}", over.where(k),
                        f"the base declares `{k}` at {base_default.pos} as {base_default.plain()}")
                continue
            from ..model.game import param_override_problem       # list items and length
            problem = None if isinstance(v, Map) else param_override_problem(k, entries[k], v)
            if problem:
                d.error("E-TYPE", problem[0], over.where(k), problem[1])
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


def _whole_only(node: Node) -> bool:
    """A whole number (a parameter whose default is one takes only whole numbers)."""
    return isinstance(node, Scalar) and isinstance(node.value, int) and not isinstance(node.value, bool)


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
        if not isinstance(key, str):
            d.error("E-TYPE", f"an override's key is a {type(key).__name__}", Pos("<override>", 1, 1),
                    "name a parameter, or a dotted path such as `deck.jokers`")
            continue
        pos = where.get(key) or Pos(f"<override {excerpt(key, 40)}>", 1, 1)
        problem = override_value_problem(value)
        if problem is not None:
            d.error(problem[0], f"override `{excerpt(key, 40)}`: {problem[1]}", pos, problem[2])
            continue
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


#: items an override's value may hold in all (a list parameter's items, nested lists and mappings)
MAX_OVERRIDE_ITEMS = 1000


def override_value_problem(value: Any) -> Optional[tuple[str, str, str]]:
    """Why ``value`` cannot be an override at all, whatever it overrides: (code, message, hint), or None.

    The one check every path shares (``load(overrides=)``, ``--set``, the web start page, a record's or
    a saved game's overrides, the OpenSpiel and PettingZoo parameters all reach ``apply_overrides``):
    plain data only (numbers, true/false, texts, lists, mappings with text keys), every number finite
    and within +-``MAX_NUMBER`` as a number written in a file is, nested no deeper than a file may be,
    and small.  The parameter's own kind and bounds are checked after, where it is declared."""
    from . import MAX_DEPTH, MAX_NUMBER

    stack, seen = [(value, 0)], 0
    while stack:
        v, depth = stack.pop()
        seen += 1
        if seen > MAX_OVERRIDE_ITEMS:
            return ("E-TOO-BIG", f"the value holds more than {MAX_OVERRIDE_ITEMS:,} items",
                    "a parameter is a number, true/false, a word, or a short list")
        if depth > MAX_DEPTH:
            return ("E-DEPTH", f"the value is nested deeper than {MAX_DEPTH} levels", "give a plain value")
        if v is None or isinstance(v, (bool, str)):
            continue
        if isinstance(v, (int, float)):
            if v != v or v in (float("inf"), float("-inf")):
                return ("E-NUMBER", f"`{v}` is not a finite number", "give a number")
            if not -MAX_NUMBER <= v <= MAX_NUMBER:
                return ("E-NUMBER", f"the number is too large (the limit is {MAX_NUMBER:,})",
                        "numbers in rules are small; check for a typo")
        elif isinstance(v, (list, tuple)):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                return ("E-TYPE", "a mapping's keys must be texts", "write the keys as words")
            stack.extend((x, depth + 1) for x in v.values())
        else:
            return ("E-TYPE", f"a {type(v).__name__} is no ruleset value",
                    "give a number, true/false, a word, or a list")
    return None


def digest(tree: Any) -> str:
    """A short, stable fingerprint of a resolved ruleset (for replays and saves): a tree, or its plain
    data (``rules.py`` passes it without its ``doc:`` texts)."""
    plain = tree.plain() if isinstance(tree, Node) else tree
    blob = json.dumps(plain, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
