"""``rulesdsl schema``: the JSON Schema of the YAML syntax, for editors (see docs/editors.md)."""

from __future__ import annotations

import json
from typing import Optional

import click

from .common import write_output


@click.command("schema")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of standard output.")
@click.option("--draft", type=click.Choice(["2020-12", "07"]), default="2020-12", show_default=True,
              help="The JSON Schema draft (07 for editors whose YAML support implements only draft-07).")
def schema(output: Optional[str], draft: str) -> None:
    """Print the JSON Schema of ruleset YAML files (generated from the model), for editors:
    `rulesdsl schema > rulesdsl.schema.json`."""
    from ..model.json_schema import ruleset_schema

    write_output(json.dumps(ruleset_schema(draft), indent=2) + "\n", output, status=2)
