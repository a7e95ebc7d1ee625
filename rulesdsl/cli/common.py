"""What the commands share: ``--set`` pairs, ``--allow-path``, loading a ruleset with its notes, and
printing diagnostics (each with its source line and a caret, in colour on a terminal)."""

from __future__ import annotations

import os
import re
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

import click

from ..errors import Diagnostic, RulesetError, ShadowedFileWarning, Sources, excerpt, printable
from ..source.tree import Pos


def _parse_sets(pairs: tuple[str, ...]) -> tuple[dict, dict]:
    """``--set key=value`` pairs -> overrides; values read like YAML scalars (5, true, winner)."""
    from ..source.yaml_reader import read_yaml

    out, where = {}, {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"`{excerpt(pair)}` is not KEY=VALUE", param_hint="--set")
        key, _, text = pair.partition("=")
        key = key.strip()
        pos = Pos(f"{SET_PREFIX}{pair}", 1, 1)
        try:
            node = read_yaml(text.strip() or "null", f"{SET_PREFIX}{pair}")
            value = node.plain()
        except RulesetError as exc:
            if any(d.code == "E-NUMBER" for d in exc.diagnostics):
                raise                          # a number past the bound, not a word
            value = text
        out[key] = value
        where[key] = pos
    return out, where


#: what ``--set KEY=VALUE`` diagnostics are located at: this prefix and the pair (column 1 is KEY)
SET_PREFIX = "--set "


def _print_diagnostics(diags: list[Diagnostic], fmt: str, stream=None, *, sources: Optional[Sources] = None,
                       where: Optional[dict] = None, color: str = "auto") -> None:
    """Print diagnostics as text (JSON output is printed whole by the command): each with the line
    it points at from ``sources`` (the text the load read; a ``--set`` pair from ``where`` is its
    own line) and a caret under the column, coloured as ``color`` (auto|always|never) says."""
    stream = stream or sys.stdout
    if fmt == "json":
        return
    sources = _with_sets(sources, where)
    paint = _use_color(color, stream)
    for d in diags:
        click.echo(d.render(sources, paint), file=stream, color=paint)


def _with_sets(sources: Optional[Sources], where: Optional[dict]) -> Sources:
    """``sources`` and the ``--set`` pairs, each shown as the text typed (``--set KEY=VALUE``)."""
    out = Sources()
    if sources is not None:
        out.update(sources)
    for pos in (where or {}).values():
        if pos.path.startswith(SET_PREFIX) and pos.path not in out:
            out.add(pos.path, pos.path, dsl=True, shift=len(SET_PREFIX))
    return out


def _use_color(choice: str, stream) -> bool:
    """``always``, ``never``, or (``auto``) when ``stream`` is a terminal and ``NO_COLOR`` is unset."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


@contextmanager
def _notes(skip: Optional[Callable[[ShadowedFileWarning], bool]] = None) -> Iterator[None]:
    """Print each ``ShadowedFileWarning`` raised inside as one ``note:`` line on standard error
    (unless ``skip`` says it is moot); other warnings are shown as usual."""
    log: list = []
    try:
        with warnings.catch_warnings(record=True) as log:
            warnings.simplefilter("always", ShadowedFileWarning)
            yield
    finally:
        for w in log or ():
            if isinstance(w.message, ShadowedFileWarning):
                if not (skip and skip(w.message)):
                    click.echo(f"note: {printable(w.message)}", err=True)
            else:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)


def _load(name: str, overrides: dict, where: dict, allow_paths: tuple = ()):
    from ..rules import load

    with _notes():
        return load(name, overrides or None, where, allow_paths=allow_paths)


def load_or_exit(name: str, overrides: dict, where: dict, allow_paths: tuple = (), players: Optional[int] = None,
                 status: int = 1, stream=None, not_found_is_usage: bool = False):
    """The ruleset a command runs on, or its diagnostics (each with its source line) and exit
    ``status``; a number of players it does not allow is a usage error on ``--players``.  With
    ``not_found_is_usage``, a name that names nothing is one ``error:`` line and exit 2."""
    try:
        rules = _load(name, overrides, where, allow_paths)
    except RulesetError as exc:
        if not_found_is_usage and all(d.code == "E-NOT-FOUND" for d in exc.diagnostics):
            d = exc.diagnostics[0]
            click.echo(f"error: {printable(d.message)}" + (f" ({printable(d.hint)})" if d.hint else ""), err=True)
            sys.exit(2)
        _print_diagnostics(exc.diagnostics, "text", stream, sources=exc.sources, where=where)
        sys.exit(status)
    if players is not None:
        try:
            rules.program(players)
        except ValueError as exc:
            raise click.BadParameter(printable(exc), param_hint="--players")
    return rules


def write_output(text: str, output: Optional[str], status: int = 1) -> None:
    """``text`` to standard output, or to the file ``output``; a file that cannot be written is one
    ``error:`` line and exit ``status``."""
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        click.echo(f"error: cannot write `{printable(output)}`: {printable(exc.strerror or exc)}", err=True)
        sys.exit(status)


#: ``--color``: whether diagnostics are coloured
_COLOR = click.option(
    "--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
    help="Colour the diagnostics: auto (on a terminal, unless NO_COLOR is set), always or never.")

#: ``--allow-path DIR``: a folder outside the ruleset's own that its ``extends`` may name
_ALLOW_PATH = click.option(
    "--allow-path", "allow_paths", multiple=True, metavar="DIR", type=click.Path(),
    help="A folder (outside the ruleset's own) whose files `extends` may name (repeatable).")


_KEY_VALUE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*=")


def ruleset_groups(args: tuple) -> list[tuple[str, tuple]]:
    """``GAME GAME target_score=50 variants/VARIANT`` -> each ruleset with the KEY=VALUE arguments
    that follow it (``compare`` and ``diff`` read their rulesets so); a KEY=VALUE before any ruleset
    is a usage error."""
    groups: list = []
    for arg in args:
        if _KEY_VALUE.match(arg):
            if not groups:
                raise click.UsageError(f"`{printable(arg)}` comes before any ruleset: write the ruleset first, "
                                       "then its overrides (GAME target_score=50)")
            groups[-1][1].append(arg)
        else:
            groups.append((arg, []))
    return [(name, tuple(sets)) for name, sets in groups]
