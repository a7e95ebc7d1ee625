"""``rulesdsl play`` and ``rulesdsl replay``: a game at the terminal, people against bots (or each
other, sharing the keyboard), and a saved game stepped through.

Seats are counted from 1 here, as the table names them to people ("seat 1").  The screen and the
prompt live in ``rulesdsl.table`` (``terminal``, ``reading``, ``playing``); they need the ``play``
extra (rich, prompt_toolkit), imported only when one of these commands runs, so the other commands
work without it.  Problems with the options or a saved file are one ``error:`` line and exit 2; an
invalid ruleset prints its diagnostics and exits 1.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

import click

from ..errors import RulesetError, printable
from .common import _ALLOW_PATH, _parse_sets, load_or_exit

EXTRA_HINT = "pip install 'rulesdsl[play]'"


def _fail(message: str, status: int = 2) -> None:
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(status)


def _need_play_extra() -> None:
    """The play extra (rich, prompt_toolkit) is there, or one error line saying how to get it."""
    try:
        import prompt_toolkit  # noqa: F401
        import rich  # noqa: F401
    except ImportError as exc:
        _fail(f"the terminal table needs {exc.name or 'the play extra'}: {EXTRA_HINT}")


@click.command()
@click.argument("name", required=False)
@click.option("--seat", "seats", multiple=True, type=click.IntRange(1), metavar="N",
              help="A seat played by a person, counted from 1 (repeatable: people share the keyboard). Default: 1.")
@click.option("--bots", default=None, metavar="SPEC[,SPEC...]",
              help="Bots for the other seats in order, the last repeated: random, greedy (default), ismcts, "
                   "or module:Class.")
@click.option("--iterations", default=None, type=click.IntRange(1),
              help="Search iterations per decision, for bots that search (ismcts; at most 100,000).")
@click.option("--seconds", default=None, type=click.FloatRange(0, min_open=True),
              help="Thinking time per decision, for bots that search (at most 600).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@click.option("--players", default=None, type=int, help="Number of players, where the game allows a range.")
@click.option("--seed", default=None, type=int, help="Deal from this seed (default: an unpredictable one).")
@click.option("--load", "load_file", default=None, metavar="FILE", type=click.Path(dir_okay=False),
              help="Resume a game saved with `save FILE` (its ruleset and seats come from the file).")
@click.option("--allow-bot", "allow_bots", multiple=True, metavar="MODULE:CLASS",
              help="With --load: build this bot of your own where the file seats it (repeatable); "
                   "a file's other seats are people or bundled bots only.")
@_ALLOW_PATH
def play(name: Optional[str], seats: tuple, bots: Optional[str], iterations: Optional[int],
         seconds: Optional[float], sets: tuple, players: Optional[int], seed: Optional[int],
         load_file: Optional[str], allow_bots: tuple, allow_paths: tuple) -> None:
    """Play a game at the terminal: NAME is a bundled game or variant, or a ruleset file.

    Answer with a move's number or text (TAB completes); `help` lists the commands."""
    _need_play_extra()
    from ..table import Table, TableError

    if load_file is not None:
        if name or seats or bots or sets or (players, seed, iterations, seconds) != (None,) * 4:
            raise click.UsageError("--load resumes a saved game as it was: give no NAME, --seat, --bots, "
                                   "--iterations, --seconds, --set, --players or --seed with it")
        table = _load_saved(load_file, allow_paths, allow_bots)
    else:
        if allow_bots:
            raise click.UsageError("--allow-bot goes with --load (name your own bots with --bots)")
        if not name:
            raise click.UsageError("name a game to play (see `rulesdsl list`), or --load FILE")
        rules = _rules(name, sets, allow_paths, players)
        n = players if players is not None else rules.model.players.default
        options = {k: v for k, v in (("iterations", iterations), ("seconds", seconds)) if v is not None}
        from ..bots import BotError, check_bot_options
        try:
            check_bot_options(options)                 # the bounds a saved game is read back with
        except BotError as exc:
            _fail(f"--{exc}")
        try:
            table = Table.new(rules, _seating(seats, bots, n, options), seed=seed, bot_options=options)
        except TableError as exc:
            _fail(str(exc))
    if not table.humans:
        _fail("the saved table has no seat for a person")
    sys.exit(_run_table(table))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@_ALLOW_PATH
def replay(file: str, allow_paths: tuple) -> None:
    """Step through a saved game, every seat's cards shown: n or Enter (next), p (previous), g N, q."""
    _need_play_extra()
    from ..engine.record import Positions, RecordError
    from ..rules import rules_for
    from ..table.playing import Replayer

    table = _load_saved(file, allow_paths, seats_as_labels=True)
    data = _read_json(file)
    try:
        positions = Positions(data, rules_for(data, None, allow_paths))
    except (RecordError, RulesetError) as exc:
        _fail(f"{file}: {exc}")
    console, reader = _console_and_reader()
    sys.exit(Replayer(table, positions, console, reader).run())


def _rules(name: str, sets: tuple, allow_paths: tuple, players: Optional[int]):
    """The ruleset: an unknown name is one error line (exit 2), an invalid ruleset its diagnostics (exit 1)."""
    overrides, where = _parse_sets(sets)
    return load_or_exit(name, overrides, where, allow_paths, players, not_found_is_usage=True)


def _seating(seats: tuple, bots: Optional[str], n: int, options: dict) -> list:
    """One entry per seat: "human" for the people's seats (1-based on the command line), bots in order,
    each checked by making one (an unknown name or a module that does not import: one error line)."""
    from ..bots import BotError, make_bot, seat_specs
    from ..table import HUMAN

    if bots and ":" in bots and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())         # module:Class from the current folder, as simulate does
    people = sorted({s - 1 for s in seats or (1,)})
    if people[-1] >= n:
        raise click.BadParameter(f"seat {people[-1] + 1} does not exist: this game has {n} seats", param_hint="--seat")
    n_bots = n - len(people)
    if n_bots == 0:
        if bots:
            raise click.BadParameter("every seat is a person's: there is no seat for a bot", param_hint="--bots")
        return [HUMAN] * n
    try:
        specs = iter(seat_specs(bots or "greedy", n_bots))
        chosen = [HUMAN if s in people else next(specs) for s in range(n)]
        for spec in set(chosen) - {HUMAN}:
            make_bot(spec, seed=0, **options)
    except BotError as exc:
        _fail(f"--bots: {exc}")
    return chosen


def _read_json(path: str):
    from ..engine.record import RecordError, read_record_file

    try:
        return read_record_file(path)
    except RecordError as exc:
        _fail(f"{path}: {exc}")


def _load_saved(path: str, allow_paths: tuple, allow_bots: tuple = (), seats_as_labels: bool = False):
    """The saved table in ``path`` (one error line, exit 2, when it is not one).  ``seats_as_labels``:
    a replay builds no bot, so the file's seats are only names (any spec, any options)."""
    from ..table import Table, TableError

    data = _read_json(path)
    if not isinstance(data, dict):
        _fail(f"{path} is not a saved game (a JSON object is expected)")
    if allow_bots and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())         # module:Class from the current folder, as --bots does
    try:
        if not seats_as_labels:
            return Table.load(data, allow_paths=allow_paths, allow_bots=allow_bots)
        saved = data.get("table")
        labels = saved.get("seats") if isinstance(saved, dict) else None
        plain = {k: v for k, v in data.items() if k != "table"}
        table = Table.load(plain, allow_paths=allow_paths)
        if isinstance(labels, list) and len(labels) == table.game.n and all(isinstance(x, str) for x in labels):
            table.seats = [x[:60] for x in labels]   # names only: no bot is built from them
        return table
    except TableError as exc:
        _fail(f"{path}: {exc}")


def _console_and_reader():
    from rich.console import Console

    from ..table.reading import make_reader

    return Console(highlight=False), make_reader()


def _run_table(table) -> int:
    from ..table.playing import TerminalTable

    console, reader = _console_and_reader()
    return TerminalTable(table, console, reader).run()
