"""``rulesdsl schema``: the JSON Schema of the YAML syntax, for editors (see docs/editors.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import click

from ..errors import printable


@click.command("schema")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of standard output.")
@click.option("--draft", type=click.Choice(["2020-12", "07"]), default="2020-12", show_default=True,
              help="The JSON Schema draft (07 for editors whose YAML support implements only draft-07).")
def schema(output: Optional[str], draft: str) -> None:
    """Print the JSON Schema of ruleset YAML files (generated from the model), for editors:
    `rulesdsl schema > rulesdsl.schema.json`."""
    from ..model.json_schema import ruleset_schema

    text = json.dumps(ruleset_schema(draft), indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        click.echo(f"error: cannot write `{printable(output)}`: {printable(exc.strerror or exc)}", err=True)
        sys.exit(2)
