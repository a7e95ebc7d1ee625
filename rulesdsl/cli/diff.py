"""``rulesdsl diff A B``: what ruleset B changes relative to A, and the one-line changes of
``rulesdsl list --verbose``.

Both rulesets are compared resolved (``extends`` merged, overrides applied), as the engine would play
them; ``model.diff`` finds the changes and ``model.diff_words`` says them.  A ruleset that does not load
is reported as ``validate`` reports it (diagnostics, exit 1); a command that cannot run as asked is one
``error:`` line (exit 2).
"""

from __future__ import annotations

import json
import shutil
import sys
from typing import Optional

import click

from ..errors import RulesdslError, RulesetError, printable
from .common import _ALLOW_PATH, _load, _parse_sets, _print_diagnostics, ruleset_groups

#: ``list --verbose`` cuts its lines to the terminal's width, or to this many characters off a terminal
LIST_WIDTH = 100


@click.command("diff")
@click.argument("rulesets", nargs=-1, required=True, metavar="A [KEY=VALUE...] B [KEY=VALUE...]")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter in both (repeatable).")
@_ALLOW_PATH
def diff(rulesets: tuple, fmt: str, sets: tuple, allow_paths: tuple) -> None:
    """Say what ruleset B changes relative to ruleset A, resolved (extends and overrides applied).

    A and B are bundled names, variants or files, each optionally followed by its own KEY=VALUE
    overrides:

    \b
      rulesdsl diff GAME variants/VARIANT
      rulesdsl diff GAME GAME target_score=50 --format json

    Exit status: 0 (with or without differences), 1 when a ruleset is invalid, 2 on a usage error."""
    groups = _two_groups(rulesets)
    common, common_where = _parse_sets(sets)
    loaded, invalid = [], []
    for name, own in groups:
        overrides, where = _parse_sets(own)
        try:
            loaded.append(_load(name, {**common, **overrides}, {**common_where, **where}, allow_paths))
        except RulesetError as exc:
            invalid.append((" ".join((name,) + own), exc))
    if invalid:
        _report_invalid(invalid, fmt)
        sys.exit(1)
    shown = [printable(" ".join((name,) + own)) for name, own in groups]
    _print_changes(shown, loaded[0].tree.plain(), loaded[1].tree.plain(), fmt)


def _two_groups(args: tuple) -> list:
    """The two rulesets with their own overrides; anything else is one ``error:`` line, exit 2."""
    try:
        groups = ruleset_groups(args)
    except click.UsageError as exc:
        _fail(exc.message)
    if len(groups) != 2:
        _fail(f"diff compares two rulesets, A and B; {len(groups)} given "
              "(overrides follow their ruleset: GAME GAME target_score=50)")
    return groups


def _fail(message: str) -> None:
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(2)


def _report_invalid(invalid: list, fmt: str) -> None:
    """Rulesets that do not load, reported as ``validate`` reports them (in JSON: one report, or a list
    of two)."""
    if fmt != "json":
        for _, exc in invalid:
            _print_diagnostics(exc.diagnostics, "text", sources=exc.sources)
        return
    reports = [{"ruleset": printable(name), "valid": False, "diagnostics": [d.as_dict() for d in exc.diagnostics]}
               for name, exc in invalid]
    click.echo(json.dumps(reports if len(reports) > 1 else reports[0], indent=2))


def _print_changes(shown: list, a: dict, b: dict, fmt: str) -> None:
    from ..model.diff import diff as changes_between
    from ..model.diff import normalise
    from ..model.diff_words import param_docs, sentence

    changes = changes_between(a, b)
    docs = param_docs(normalise(b), normalise(a))
    if fmt == "json":
        rows = [{**c.as_dict(), "text": printable(sentence(c, docs))} for c in changes]
        click.echo(json.dumps({"schema": "rulesdsl.diff/1", "a": shown[0], "b": shown[1], "changes": rows},
                              indent=2, default=str))
        return
    if not changes:
        click.echo("no differences")
        return
    click.echo(f"{shown[1]} changes, relative to {shown[0]}:")
    for c in changes:
        click.echo(f"- {printable(sentence(c, docs))}")


# ------------------------------------------------------------------------------- list --verbose


def variant_changes(name: str, cache: Optional[dict] = None) -> Optional[str]:
    """What bundled ruleset ``name`` changes relative to the ruleset it extends, in one short line;
    None when it extends nothing.  The variant is resolved as ``load`` resolves it (its base resolved,
    then its own file merged on top); ``cache`` keeps resolved bases between calls, so listing every
    variant reads each base once."""
    from ..model.diff import diff as changes_between
    from ..model.diff import normalise
    from ..model.diff_words import one_line, param_docs
    from ..errors import Diagnostics
    from ..source.resolve import bundled, is_path, load_tree, merge, read_file

    path = bundled(name)
    if path is None:
        return None
    try:
        own = read_file(path)
        ext = own.get("extends") if hasattr(own, "get") else None
        if ext is None:
            return None
        base_name = str(ext.value) if not is_path(str(ext.value)) else str(path.parent / str(ext.value))
        cache = {} if cache is None else cache
        if base_name not in cache:
            cache[base_name] = load_tree(base_name)[0]
        problems = Diagnostics()
        a, b = cache[base_name].plain(), merge(cache[base_name], own, problems).plain()
    except RulesdslError:
        return "(unreadable)"
    if problems.items:
        return "(does not load: `rulesdsl validate` says why)"
    changes = changes_between(a, b)
    return printable(one_line(changes, param_docs(normalise(b), normalise(a))) if changes else "no changes")


def list_width() -> int:
    """How wide a ``list --verbose`` line may be: the terminal's width, or ``LIST_WIDTH`` off a terminal."""
    try:
        if sys.stdout.isatty():
            return max(40, shutil.get_terminal_size((LIST_WIDTH, 24)).columns)
    except (AttributeError, ValueError, OSError):
        pass
    return LIST_WIDTH


def cut(line: str, width: int) -> str:
    """``line`` cut to ``width`` characters, ending in ``...`` when cut."""
    return line if len(line) <= width else line[:width - 3].rstrip() + "..."
