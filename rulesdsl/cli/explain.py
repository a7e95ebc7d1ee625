"""``rulesdsl explain``: whether an action is legal in a position, and if not, why.

The position is rebuilt, never described: a seed and the actions played since (``--seed 1 --actions
"pass; pass; draw stock"``), or a game's record (``--record game.json``, from ``Game.record()``).  The
answer names the rule that refuses the action, where it is written, and the parts of its condition
with their values (see ``expr.explain``).  ``--rule KEY`` explains a named rule instead of an action.

Exit status: 0 the action is legal (or the rule holds), 1 it is refused (or the rule is false), 2 the
command cannot answer (a ruleset, record, action or option it cannot use): one ``error:`` line.
"""

from __future__ import annotations

import sys
from typing import Optional

import click

from ..engine.record import RecordError, read_record_file
from ..errors import RulesdslError, excerpt, printable
from .common import _ALLOW_PATH, _parse_sets, load_or_exit

#: refusals that say the action itself is not written right, not that the rules forbid it
_NOTATION = ("action syntax", "card notation", "wild cards")


def _fail(message: str) -> None:
    """One ``error:`` line on standard error, exit 2."""
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(2)


@click.command()
@click.argument("ruleset")
@click.argument("action", required=False)
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@click.option("--players", type=int, default=None, help="Number of players (where the ruleset allows a range).")
@click.option("--seed", type=int, default=None, help="The deal's seed (with --actions: the moves played since).")
@click.option("--actions", default="", metavar='"A; B; ..."', help="Actions played from the deal, separated by `;`.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="A game's record (JSON, from Game.record()): the position it ends in.")
@click.option("--rule", "rule_key", default=None, metavar="KEY",
              help="Explain this rule (a key path such as go_out.knock.when) instead of an action.")
@_ALLOW_PATH
def explain(ruleset: str, action: Optional[str], sets: tuple, players: Optional[int], seed: Optional[int],
            actions: str, record_path: Optional[str], rule_key: Optional[str], allow_paths: tuple) -> None:
    """Say whether ACTION is legal in a position of RULESET, and if not, why.

    The position is --seed S (with --actions "a; b; c") or --record FILE.  The answer names the rule
    that refuses the action, where it is written, and its condition's parts with their values."""
    if (action is None) == (rule_key is None):
        _fail("say what to explain: an ACTION (as in `knock 7S`) or `--rule KEY`, one of the two")
    if (seed is None) == (record_path is None):
        _fail("say which position: `--seed S` (with `--actions \"a; b\"`) or `--record FILE`, one of the two")
    if record_path is not None and (actions or players is not None):
        _fail("`--record` gives the whole position; `--actions` and `--players` go with `--seed`")
    overrides, where = _parse_sets(sets)
    rules = load_or_exit(ruleset, overrides, where, allow_paths, status=2, stream=sys.stderr)
    game = _position(rules, seed, players, actions, record_path)
    if rule_key is not None:
        _explain_rule(game, rule_key)
    else:
        _explain_action(game, action)


def _position(rules, seed: Optional[int], players: Optional[int], actions: str, record_path: Optional[str]):
    """The game in the position asked for: a record replayed, or a seed's deal and the actions."""
    if record_path is not None:
        try:
            return rules.replay(_read_record(record_path))
        except RulesdslError as exc:
            _fail(f"`{record_path}`: {exc}")
    try:
        game = rules.new_game(seed=seed, players=players)
    except (ValueError, RulesdslError) as exc:
        _fail(f"cannot start the game: {exc}")
    for i, text in enumerate(t.strip() for t in actions.split(";") if t.strip()):
        if game.is_over:
            _fail(f"action {i + 1}, `{excerpt(text, 40)}`: the match is already over")
        try:
            game.apply(text)
        except RulesdslError as exc:
            _fail(f"action {i + 1}, `{excerpt(text, 40)}`, cannot be played: {exc}")
    return game


def _read_record(path: str) -> dict:
    try:
        return read_record_file(path)
    except RecordError as exc:
        _fail(f"`{path}`: {exc}")
    raise AssertionError


def _explain_action(game, text: str) -> None:
    """Legal (exit 0) or refused, with the rule and why (exit 1); a misspelt action is an error."""
    seat = game.current_player
    refused = game.refusal(text)
    if refused is None:
        click.echo(f"`{excerpt(text)}` is legal now (seat {seat} to play, {game.step_name()})")
        sys.exit(0)
    if refused.rule in _NOTATION:
        _fail(str(refused))
    click.echo(f"`{excerpt(text)}` is not legal now (seat {seat} to play, {game.step_name()})")
    full = refused.trace.unsealed if refused.trace is not None and refused.trace.sealed else None
    if full is not None:                   # the command replays from the seed: it sees every card
        refused = type(refused)(refused.headline, refused.rule, refused.pos, full)
    click.echo(refused.explain())
    sys.exit(1)


def _explain_rule(game, key: str) -> None:
    try:
        trace = game.explain(key)
    except KeyError as exc:
        _fail(str(exc.args[0]))
    click.echo(trace.report())
    sys.exit(0 if trace.holds else 1)
