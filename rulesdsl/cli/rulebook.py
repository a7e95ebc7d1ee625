"""``rulesdsl rulebook NAME``: the ruleset's rulebook, as Markdown or one HTML page.

Why a command of its own: players read rules, not rulesets; the text is generated from the resolved
ruleset with the overrides in force, so a house rule set with ``--set`` shows in every sentence it
touches.  An invalid ruleset prints its diagnostics (exit 1); anything else that goes wrong is one
``error:`` line (exit 2).
"""

from __future__ import annotations

import sys
from typing import Optional

import click

from ..errors import RulesdslError, RulesetError, printable
from .common import _ALLOW_PATH, _notes, _parse_sets, _print_diagnostics, load_or_exit, write_output


@click.command()
@click.argument("ruleset")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", help="Markdown or one HTML page.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of standard output.")
@_ALLOW_PATH
def rulebook(ruleset: str, fmt: str, sets: tuple[str, ...], output: Optional[str],
             allow_paths: tuple[str, ...]) -> None:
    """Print a readable rulebook of RULESET (a bundled name or a file path), with the values in force."""
    from ..rulebook import base_of, render

    overrides, where = _parse_sets(sets)
    rules = load_or_exit(ruleset, overrides, where, allow_paths)
    try:
        with _notes():
            text = render(rules, fmt, base_of(rules, allow_paths))
    except RulesetError as exc:
        _print_diagnostics(exc.diagnostics, "text", sources=exc.sources)
        sys.exit(1)
    except (RulesdslError, OSError, ValueError) as exc:
        _fail(exc)
    write_output(text, output, status=2)


def _fail(what) -> None:
    click.echo(f"error: {printable(what)}", err=True)
    sys.exit(2)
