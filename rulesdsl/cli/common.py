"""What the commands share: ``--set`` pairs, ``--allow-path``, loading a ruleset with its notes, and
printing diagnostics."""

from __future__ import annotations

import re
import sys
import warnings
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

import click

from ..errors import Diagnostic, RulesetError, ShadowedFileWarning, excerpt, printable
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
        pos = Pos(f"--set {pair}", 1, 1)
        try:
            node = read_yaml(text.strip() or "null", f"--set {pair}")
            value = node.plain()
        except RulesetError as exc:
            if any(d.code == "E-NUMBER" for d in exc.diagnostics):
                raise                          # a number past the bound, not a word
            value = text
        out[key] = value
        where[key] = pos
    return out, where


def _print_diagnostics(diags: list[Diagnostic], fmt: str, stream=None) -> None:
    stream = stream or sys.stdout
    if fmt == "json":
        return
    for d in diags:
        click.echo(d.format(), file=stream)


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
