"""The ``rulesdsl`` command: list, validate, simulate, convert.

Errors are printed like a compiler's (``path:line:col: error[CODE]: message`` and a hint); no traceback
ever reaches the user.  Exit status: 0 ok, 1 invalid ruleset (or a failed run), 2 usage.

A ruleset argument is a bundled name (``NAME``, ``variants/NAME``) or a file path (with its extension,
or starting with ``./``); when a bundled name also matches a local file, a ``note:`` line on standard
error says which one was used (see ``source.resolve``).
"""

from __future__ import annotations

import json
import os
import sys
import time
import warnings
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

import click

from ..errors import Diagnostic, RulesdslError, RulesetError, ShadowedFileWarning, excerpt, printable
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
        click.echo(f"{name:32} {printable(title)}")


@cli.command()
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@_ALLOW_PATH
def validate(rulesets: tuple[str, ...], fmt: str, sets: tuple[str, ...], allow_paths: tuple[str, ...]) -> None:
    """Check rulesets (bundled names, or paths with their extension); print every problem, located."""
    overrides, where = _parse_sets(sets)
    report = []
    bad = False
    for name in rulesets:
        shown = printable(name)
        try:
            rules = _load(name, overrides, where, allow_paths)
            report.append({"ruleset": shown, "valid": True, "name": printable(rules.name),
                           "digest": rules.digest, "diagnostics": []})
            if fmt == "text":
                click.echo(f"{shown}: ok ({printable(rules.name)}, digest {rules.digest})")
        except RulesetError as exc:
            bad = True
            report.append({"ruleset": shown, "valid": False,
                           "diagnostics": [d.as_dict() for d in exc.diagnostics]})
            _print_diagnostics(exc.diagnostics, fmt)
            if fmt == "text":
                n = len(exc.diagnostics)
                click.echo(f"{shown}: {n} error{'s' if n != 1 else ''}")
    if fmt == "json":
        click.echo(json.dumps(report if len(report) > 1 else report[0], indent=2))
    sys.exit(1 if bad else 0)


@cli.command()
@click.argument("ruleset")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1), help="Matches to play.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the first match.")
@click.option("--players", default=None, type=int, help="Number of players, where the game allows a range.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable).")
@click.option("--max-decisions", default=1_000_000, show_default=True, type=click.IntRange(1),
              help="A match still not over after this many decisions is reported as one that does not end.")
@_ALLOW_PATH
def simulate(ruleset: str, games: int, seed: int, players: Optional[int], sets: tuple[str, ...],
             max_decisions: int, allow_paths: tuple[str, ...]) -> None:
    """Play random matches and report how they went, and how fast.

    A match the ruleset stops (a rule that fails in play, a player left with no legal action) is
    reported as ``match N (seed S): <located error>`` and the run goes on with the next match; a match
    that does not end within ``--max-decisions`` stops the run.  Exit status 1 when any match failed."""
    from ..bots.random_bot import NoEndError, play_out
    from ..errors import RuleEvaluationError

    overrides, where = _parse_sets(sets)
    try:
        rules = _load(ruleset, overrides, where, allow_paths)
    except RulesetError as exc:
        _print_diagnostics(exc.diagnostics, "text")
        sys.exit(1)
    try:
        rules.program(players)
    except ValueError as exc:
        raise click.BadParameter(printable(exc), param_hint="--players")
    endings: Counter = Counter()
    wins: Counter = Counter()
    roles: dict = {}
    hands = decisions = shared = finished = 0
    margins = []
    failed = 0
    t0 = time.perf_counter()
    for g in range(games):
        game = None
        try:
            game = rules.new_game(seed=seed + g, players=players)
            decisions += play_out(game, seed=seed + g, max_decisions=max_decisions)
        except (RuleEvaluationError, NoEndError) as exc:
            failed += 1
            decisions += len(game.history) if game is not None else 0
            what = f"no end after {exc.decisions:,} decisions" if isinstance(exc, NoEndError) else exc
            click.echo(f"match {g + 1} (seed {seed + g}): {printable(what)}")
            if isinstance(exc, NoEndError):
                if g + 1 < games:
                    click.echo(f"stopped after match {g + 1} of {games}: a match that does not end")
                break
            if failed >= _MAX_FAILED_MATCHES and g + 1 < games:
                click.echo(f"stopped after match {g + 1} of {games}: {failed} matches failed")
                break
            continue
        finished += 1
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
    played = f"{games} matches" if not failed else f"{finished} of {games} matches finished, {failed} failed"
    click.echo(f"{printable(rules.name)}: {played}, {n} players, seed {seed}")
    click.echo(f"hands (deals) played: {hands} ({hands / max(finished, 1):.1f} per finished match)"
               if failed else f"hands (deals) played: {hands} ({hands / games:.1f} per match)")
    if hands:
        click.echo("how hands ended: " + ", ".join(f"{printable(k)} {v} ({100 * v / hands:.1f}%)"
                                                   for k, v in endings.most_common()))
    if roles:
        names = list(dict.fromkeys(r for r, _ in rules.program(players).roles_for(n)))   # a shared name once
        click.echo("roles by seat (deals finished in each role):")
        click.echo("  seat  " + "  ".join(f"{printable(r)[:14]:>14}" for r in names))
        for seat in range(n):
            c = roles.get(seat, Counter())
            click.echo(f"  {seat:>4}  " + "  ".join(f"{c[r]:>14}" for r in names))
    teams = rules.program(players).teams
    side = "team" if teams else "seat"
    click.echo(f"match wins by {side}: " + ", ".join(f"{side} {s}: {wins[s]}" for s in range(teams or n))
               + (f", shared: {shared}" if shared else ""))
    if margins:
        click.echo(f"final margin: mean {_mean_text(margins)}, max {_number_text(max(margins))}")
    dt = max(dt, 1e-9)
    click.echo(f"speed: {hands / dt:,.0f} hands/s, {decisions / dt:,.0f} decisions/s "
               f"({dt:.2f} s for {decisions:,} decisions)")
    if failed:
        sys.exit(1)


#: ``simulate`` stops after this many failed matches (a broken ruleset usually fails every match)
_MAX_FAILED_MATCHES = 10


def _number_text(v) -> str:
    """A score as text, however large (Python refuses to print integers of more than 4,300 digits)."""
    try:
        return str(v)
    except ValueError:
        return f"a number of about {int(v.bit_length() * 0.30103)} digits"


def _mean_text(values: list) -> str:
    """The mean of scores, to one decimal; exact integer division when the total is too large for a float."""
    total, n = sum(values), len(values)
    try:
        return f"{total / n:.1f}"
    except OverflowError:
        return _number_text(total // n)


@cli.command()
@click.argument("ruleset")
@click.option("--to", "target", type=click.Choice(["yaml", "rules"]), default=None,
              help="Output syntax (optional with --output FILE.yaml / FILE.rules).")
@click.option("--resolved", is_flag=True, help="Write the ruleset with its `extends` chain merged in.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write to FILE instead of standard output (never to the file being read).")
@_ALLOW_PATH
def convert(ruleset: str, target: Optional[str], resolved: bool, output: Optional[str],
            allow_paths: tuple[str, ...]) -> None:
    """Print a ruleset in the other syntax (YAML <-> .rules); the model is the same.

    RULESET is a bundled name (gives a copy to edit) or a file path with its extension."""
    from ..source.resolve import find, load_tree, not_found, read_file
    from ..source.tree import Map
    from ..source.writer import to_dsl, to_yaml

    target = _target_syntax(target, output)
    stdout = None if output else _stdout_stat()

    said: set = set()

    def moot(note: ShadowedFileWarning) -> bool:
        """A note already given, or about the very file being written (it is not meant)."""
        if str(note) in said or _is_target(Path(note.local), output, stdout):
            return True
        said.add(str(note))
        return False

    try:
        with _notes(skip=moot):
            path = find(ruleset)
        if path is None:
            message, hint = not_found(ruleset)
            _print_diagnostics([Diagnostic("E-NOT-FOUND", message, Pos(ruleset, 0, 0), hint)], "text")
            sys.exit(1)
        _refuse_own_input(path, output, stdout)
        if resolved:
            files: list = []
            with _notes(skip=moot):
                tree, _ = load_tree(ruleset, files=files, allow_paths=allow_paths)
            for f in files[1:]:
                _refuse_own_input(f, output, stdout)
        else:
            tree = read_file(path)
    except RulesetError as exc:
        _print_diagnostics(exc.diagnostics, "text")
        sys.exit(1)
    if not isinstance(tree, Map):
        click.echo(f"{printable(tree.pos)}: error[E-TYPE]: a ruleset is a mapping of sections, not a list or a value")
        sys.exit(1)
    text = to_yaml(tree) if target == "yaml" else to_dsl(tree)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as exc:
        click.echo(f"error: cannot write `{printable(output)}`: {printable(exc.strerror or exc)}", err=True)
        sys.exit(1)


def _target_syntax(target: Optional[str], output: Optional[str]) -> str:
    """``--to``, or the syntax ``--output``'s extension implies; a file is read back by its extension,
    so the two must agree."""
    implied = None
    if output is not None:
        suffix = Path(output).suffix.lower()
        implied = "rules" if suffix == ".rules" else "yaml" if suffix in (".yaml", ".yml") else None
    if target is None and implied is None:
        raise click.UsageError("say the output syntax with `--to yaml` or `--to rules` (or give `--output` "
                               "a file ending in .yaml or .rules)")
    if target is not None and implied is not None and target != implied:
        raise click.UsageError(f"`--to {target}` does not match `--output {printable(output)}`, which will be read as "
                               f"{'the DSL' if implied == 'rules' else 'YAML'}; change the extension or `--to`")
    return target or implied  # type: ignore[return-value]


def _stdout_stat() -> Optional[os.stat_result]:
    """What standard output is, when it is a regular file (a shell's ``>`` redirection), else None."""
    try:
        st = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):       # no real file descriptor (a test runner)
        return None
    import stat
    return st if stat.S_ISREG(st.st_mode) else None


def _is_target(path: Path, output: Optional[str], stdout: Optional[os.stat_result]) -> bool:
    """Whether ``path`` is the file ``convert`` writes: ``--output FILE``, or a redirected stdout."""
    try:
        st = os.stat(path)
        if output is not None:
            return os.path.exists(output) and os.path.samestat(st, os.stat(output))
        return stdout is not None and os.path.samestat(st, stdout)
    except (OSError, ValueError):
        return False


def _refuse_own_input(path: Path, output: Optional[str], stdout: Optional[os.stat_result]) -> None:
    """Stop (usage error, nothing written) when ``convert`` would write over a file it reads."""
    if not _is_target(path, output, stdout):
        return
    from ..source.resolve import display_path

    shown = printable(display_path(path))
    if output is not None:
        raise click.UsageError(f"`--output {printable(output)}` is {shown}, which this conversion reads; writing it "
                               f"would destroy it.  Write to another file.")
    raise click.UsageError(f"standard output is {shown}, which this conversion reads (a shell's `>` empties "
                           f"the file before convert starts).  Write to another file, or use `--output FILE`.")


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: runs the click group and turns any unexpected error into one line, not a traceback."""
    try:
        cli.main(args=argv, prog_name="rulesdsl", standalone_mode=True)
    except SystemExit:
        raise
    except RulesetError as exc:                # e.g. a `--set` value past the number bound
        _print_diagnostics(exc.diagnostics, "text", sys.stderr)
        sys.exit(1)
    except RulesdslError as exc:
        click.echo(f"error: {printable(exc)}", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 -- the promise is: never a traceback
        click.echo(f"internal error: {type(exc).__name__}: {printable(exc)} (please report this)", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
