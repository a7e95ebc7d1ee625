"""``rulesdsl encoding NAME``: the fixed action numbering and observation layout of a ruleset.

Why a command of its own: a learner's action space is only usable when its numbers can be read; the
numbering is derived from the ruleset (and its parameters and player count), so the only faithful
documentation of it is printed from the ruleset itself.  JSON carries the ruleset's digest, the key the
numbering is stable for.
"""

from __future__ import annotations

import json
import sys
from typing import Optional

import click

from ..errors import printable
from .common import _ALLOW_PATH, _parse_sets, load_or_exit, write_output


@click.command("encoding")
@click.argument("ruleset")
@click.option("--players", type=int, default=None, help="Number of players (default: the ruleset's).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of standard output.")
@_ALLOW_PATH
def encoding(ruleset: str, players: Optional[int], sets: tuple[str, ...], fmt: str, output: Optional[str],
             allow_paths: tuple[str, ...]) -> None:
    """Print RULESET's action numbering and observation layout, as the OpenSpiel and PettingZoo
    faces use them (see docs/encoding.md)."""
    from ..encoding.setup import encode

    overrides, where = _parse_sets(sets)
    rules = load_or_exit(ruleset, overrides, where, allow_paths, players=players)
    try:
        enc = encode(rules, players)
    except ValueError as exc:
        click.echo(f"error: {printable(exc)}", err=True)
        sys.exit(2)
    data = _describe(enc)
    text = json.dumps(data, indent=1) + "\n" if fmt == "json" else _words(data)
    write_output(text, output, status=2)


def _describe(enc) -> dict:
    space = enc.actions
    return {
        "format": "rulesdsl.encoding/1",
        "ruleset": enc.rules.name,
        "digest": enc.rules.digest,
        "players": enc.players,
        "actions": {"size": space.size, "whole": len(space.whole), "tokens": len(space.tokens),
                    "next_meld": space.next_meld, "commits": len(space.commits),
                    "names": list(space.names)},
        "observation": {"size": enc.observation.size,
                        "pieces": [{"name": n, "shape": list(shape), "start": at, "size": size}
                                   for n, shape, at, size in enc.observation.offsets()]},
    }


def _words(data: dict) -> str:
    a, o = data["actions"], data["observation"]
    lines = [f"{data['ruleset']} for {data['players']} players (digest {data['digest']})", "",
             (f"actions: {a['size']:,} numbers -- {a['whole']:,} whole actions, {a['tokens']:,} card tokens, "
              f"`next meld` ({a['next_meld']}), {a['commits']:,} commits"), ""]
    lines += [f"{i:>6}  {name}" for i, name in enumerate(a["names"])]
    lines += ["", f"observation: {o['size']:,} numbers", ""]
    lines += [f"{p['start']:>6}  {p['name']:<24} {'x'.join(map(str, p['shape'])):>10}" for p in o["pieces"]]
    return "\n".join(lines) + "\n"
