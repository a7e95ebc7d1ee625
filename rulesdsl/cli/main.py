"""The ``rulesdsl`` command: list, validate, simulate, convert.

Errors are printed like a compiler's (``path:line:col: error[CODE]: message`` and a hint); no traceback
ever reaches the user.  Exit status: 0 ok, 1 invalid ruleset (or a failed run), 2 usage.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from typing import Optional

import click

from ..errors import Diagnostic, RulesdslError, RulesetError
from ..source.tree import Pos


def _parse_sets(pairs: tuple[str, ...]) -> tuple[dict, dict]:
    """``--set key=value`` pairs -> overrides; values read like YAML scalars (5, true, winner)."""
    from ..source.yaml_reader import read_yaml

    out, where = {}, {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"`{pair}` is not KEY=VALUE", param_hint="--set")
        key, _, text = pair.partition("=")
        key = key.strip()
        pos = Pos(f"--set {pair}", 1, 1)
        try:
            node = read_yaml(text.strip() or "null", f"--set {pair}")
            value = node.plain()
        except RulesetError:
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesdsl")
def cli() -> None:
    """rulesdsl: card-game rules as data, and the interpreter that plays them."""


@cli.command("list")
def list_cmd() -> None:
    """List the bundled games and variants."""
    from ..source.resolve import bundled_names
    from ..source.resolve import read_file

    for name, path in bundled_names():
        title = ""
        try:
            tree = read_file(path)
            ext = tree.get("extends") if hasattr(tree, "get") else None
            nm = tree.get("name") if hasattr(tree, "get") else None
            if nm is not None:
                title = str(nm.value)
            if ext is not None:
                title = (title + " " if title else "") + f"(extends {ext.value})"
        except RulesdslError:
            title = "(unreadable)"
        click.echo(f"{name:32} {title}")


@cli.command()
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
def validate(rulesets: tuple[str, ...], fmt: str, sets: tuple[str, ...]) -> None:
    """Check rulesets (paths or bundled names); print every problem, located."""
    from ..rules import load

    overrides, where = _parse_sets(sets)
    report = []
    bad = False
    for name in rulesets:
        try:
            rules = load(name, overrides or None, where)
            report.append({"ruleset": name, "valid": True, "name": rules.name, "digest": rules.digest,
                           "diagnostics": []})
            if fmt == "text":
                click.echo(f"{name}: ok ({rules.name}, digest {rules.digest})")
        except RulesetError as exc:
            bad = True
            report.append({"ruleset": name, "valid": False,
                           "diagnostics": [d.as_dict() for d in exc.diagnostics]})
            _print_diagnostics(exc.diagnostics, fmt)
            if fmt == "text":
                n = len(exc.diagnostics)
                click.echo(f"{name}: {n} error{'s' if n != 1 else ''}")
    if fmt == "json":
        click.echo(json.dumps(report if len(report) > 1 else report[0], indent=2))
    sys.exit(1 if bad else 0)


@cli.command()
@click.argument("ruleset")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1), help="Matches to play.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the first match.")
@click.option("--players", default=None, type=int, help="Number of players, where the game allows a range.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
def simulate(ruleset: str, games: int, seed: int, players: Optional[int], sets: tuple[str, ...]) -> None:
    """Play random matches and report how they went, and how fast."""
    from ..bots.random_bot import play_out
    from ..rules import load

    overrides, where = _parse_sets(sets)
    try:
        rules = load(ruleset, overrides or None, where)
    except RulesetError as exc:
        _print_diagnostics(exc.diagnostics, "text")
        sys.exit(1)
    try:
        rules.program(players)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--players")
    endings: Counter = Counter()
    wins: Counter = Counter()
    roles: dict = {}
    hands = decisions = shared = 0
    margins = []
    t0 = time.perf_counter()
    for g in range(games):
        game = rules.new_game(seed=seed + g, players=players)
        decisions += play_out(game, seed=seed + g)
        hands += len(game.hand_log)
        endings.update(h["ending"] for h in game.hand_log)
        for h in game.hand_log:
            for seat, role in zip(h.get("order", ()), h.get("roles", ())):
                roles.setdefault(seat, Counter())[role] += 1
        if game.winner is None:
            shared += 1
        else:
            wins[game.winner] += 1
            s = sorted(game.scores, reverse=True)
            margins.append(s[0] - s[1] if len(s) > 1 else s[0])
    dt = time.perf_counter() - t0
    n = rules.program(players).n
    click.echo(f"{rules.name}: {games} matches, {n} players, seed {seed}")
    click.echo(f"hands (deals) played: {hands} ({hands / games:.1f} per match)")
    click.echo("how hands ended: " + ", ".join(f"{k} {v} ({100 * v / hands:.1f}%)"
                                               for k, v in endings.most_common()))
    if roles:
        names = [r for r, _ in rules.program(players).roles_for(n)]
        click.echo("roles by seat (deals finished in each role):")
        click.echo("  seat  " + "  ".join(f"{r[:14]:>14}" for r in names))
        for seat in range(n):
            c = roles.get(seat, Counter())
            click.echo(f"  {seat:>4}  " + "  ".join(f"{c[r]:>14}" for r in names))
    teams = rules.program(players).teams
    side = "team" if teams else "seat"
    click.echo(f"match wins by {side}: " + ", ".join(f"{side} {s}: {wins[s]}" for s in range(teams or n))
               + (f", shared: {shared}" if shared else ""))
    if margins:
        click.echo(f"final margin: mean {sum(margins) / len(margins):.1f}, max {max(margins)}")
    click.echo(f"speed: {hands / dt:,.0f} hands/s, {decisions / dt:,.0f} decisions/s "
               f"({dt:.2f} s for {decisions:,} decisions)")


@cli.command()
@click.argument("ruleset")
@click.option("--to", "target", type=click.Choice(["yaml", "rules"]), required=True, help="Output syntax.")
@click.option("--resolved", is_flag=True, help="Write the ruleset with its `extends` chain merged in.")
def convert(ruleset: str, target: str, resolved: bool) -> None:
    """Print a ruleset in the other syntax (YAML <-> .rules); the model is the same."""
    from ..source.resolve import find, load_tree, read_file
    from ..source.writer import to_dsl, to_yaml

    try:
        if resolved:
            tree, _ = load_tree(ruleset)
        else:
            path = find(ruleset)
            if path is None:
                load_tree(ruleset)        # raises the located "not found" diagnostic
            tree = read_file(path)
    except RulesetError as exc:
        _print_diagnostics(exc.diagnostics, "text")
        sys.exit(1)
    from ..source.tree import Map
    if not isinstance(tree, Map):
        click.echo(f"{tree.pos}: error[E-TYPE]: a ruleset is a mapping of sections, not a list or a value")
        sys.exit(1)
    click.echo(to_yaml(tree) if target == "yaml" else to_dsl(tree), nl=False)


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: runs the click group and turns any unexpected error into one line, not a traceback."""
    try:
        cli.main(args=argv, prog_name="rulesdsl", standalone_mode=True)
    except SystemExit:
        raise
    except RulesdslError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 -- the promise is: never a traceback
        click.echo(f"internal error: {type(exc).__name__}: {exc} (please report this)", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
