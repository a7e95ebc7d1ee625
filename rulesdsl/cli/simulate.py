"""``rulesdsl simulate`` and ``rulesdsl compare``: matches played by bots, summed up with 95% intervals.

Both commands play match ``k`` dealt from ``--seed + k`` with the same bots, so their figures do not
depend on ``--jobs`` or ``--ray`` (only the speed line does), and ``compare`` plays every ruleset from the
same seeds.  A match the ruleset stops is one located line (exit 1); a match still going after
``--max-decisions`` is reported as unfinished, with its seed, and is no error.  Problems with the
options (an unknown bot, a module that does not import, Ray or matplotlib missing) are one ``error:``
line on standard error and exit 2.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Optional

import click

from ..errors import printable
from ..sim import Plan, SimError, collect, default_jobs, report_for, run_matches
from ..sim.runner import FAILED, UNFINISHED
from .common import _ALLOW_PATH, _parse_sets, load_or_exit, ruleset_groups

#: a run stops after this many failed matches (a broken ruleset usually fails every match)
MAX_FAILED_MATCHES = 10
#: unfinished matches listed one line each; the rest are counted (all are in --json)
MAX_UNFINISHED_LINES = 10


def _run_options(f):
    """The options ``simulate`` and ``compare`` share, in the order ``--help`` shows them."""
    options = [
        click.option("--games", default=100, show_default=True, type=click.IntRange(1), help="Matches to play."),
        click.option("--seed", default=0, show_default=True, type=int,
                     help="Seed of the first match; match k is dealt from seed + k."),
        click.option("--players", default=None, type=int, help="Number of players, where the game allows a range."),
        click.option("--bots", default="random", show_default=True, metavar="SPEC[,SPEC...]",
                     help="One bot per seat, the last repeated: random, greedy, ismcts, or module:Class "
                          "(a class of your own, importable from the current folder)."),
        click.option("--iterations", default=None, type=click.IntRange(1),
                     help="Search iterations per decision (bots that search, e.g. ismcts)."),
        click.option("--seconds", default=None, type=click.FloatRange(0, min_open=True),
                     help="Thinking time per decision (bots that search)."),
        click.option("--rollout", default=None, type=click.Choice(["random", "greedy"]),
                     help="How a searching bot plays out positions."),
        click.option("--depth", default=None, type=click.IntRange(0),
                     help="Rollout decisions a searching bot plays before it judges a position (default: "
                          "judged at once where the ruleset scores positions, deals played out in climbing)."),
        click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Override a parameter (repeatable)."),
        click.option("--max-decisions", default=1_000_000, show_default=True, type=click.IntRange(1),
                     help="A match still going after this many decisions is reported as unfinished (with "
                          "its seed) and the run goes on."),
        click.option("--jobs", default=None, type=click.IntRange(1),
                     help="Processes to play in (default: every core); the results do not depend on it."),
        click.option("--ray", default=None, is_flag=False, flag_value="local", metavar="[ADDRESS]",
                     help="Play the matches as Ray tasks: alone, on a Ray instance on this machine (started "
                          "or joined); with an address (--ray=auto, --ray=ray://host:10001), on that cluster.  "
                          "Needs pip install 'rulesdsl[ray]'."),
        click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (for scripts)."),
        _ALLOW_PATH,
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _fail(message: str, status: int = 2) -> None:
    """One ``error:`` line on standard error, then exit (2: the command cannot run as asked)."""
    click.echo(f"error: {printable(message)}", err=True)
    sys.exit(status)


def _bot_options(iterations: Optional[int], seconds: Optional[float], rollout: Optional[str],
                 depth: Optional[int] = None) -> dict:
    given = {"iterations": iterations, "seconds": seconds, "rollout": rollout, "depth": depth}
    return {k: v for k, v in given.items() if v is not None}


def _seat_bots(text: str, players: int, options: dict) -> tuple:
    """The bot spec of every seat, each checked by making one (unknown names, modules that do not
    import, options a class refuses are caught here, before any match)."""
    from ..bots import BotError, make_bot, seat_specs

    if ":" in text and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())         # module:Class from the current folder, as pytest and uvicorn do
    try:
        specs = seat_specs(text, players)
        for spec in dict.fromkeys(specs):
            make_bot(spec, seed=0, **options)
    except BotError as exc:
        _fail(f"--bots: {exc}")
    return tuple(specs)


def _plan(name: str, rules, overrides: dict, allow_paths: tuple, players, bots, options, seed, games,
          max_decisions) -> Plan:
    return Plan(ruleset=name, overrides=dict(overrides), allow_paths=tuple(str(p) for p in allow_paths),
                players=players, bots=bots, bot_options=options, seed=seed, games=games,
                max_decisions=max_decisions, sys_path=(os.getcwd(),), digest=rules.digest)


class _Progress:
    """A progress bar on standard error when it is a terminal; nothing otherwise (pipes, files, tests)."""

    def __init__(self, total: int, label: str):
        self.bar = None
        if _stderr_is_terminal():
            self.bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True)
            self.bar.__enter__()

    def step(self, _result=None) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _play(plan: Plan, rules, jobs: int, ray: Optional[str], progress: _Progress):
    """Play a plan; returns (results, stopped early, seconds).  Ray or a worker that cannot run: exit 2."""
    t0 = time.perf_counter()
    try:
        results, stopped = collect(run_matches(plan, jobs, rules=rules, ray=ray), MAX_FAILED_MATCHES, progress.step)
    except SimError as exc:
        progress.close()
        _fail(str(exc))
    return results, stopped, time.perf_counter() - t0


def _match_lines(results, max_decisions: int, prefix: str = "") -> list[str]:
    """One line per failed match (its located error), and per unfinished match (its seed) up to a bound."""
    lines, unfinished = [], 0
    for r in results:
        if r.status == FAILED:
            lines.append(f"{prefix}match {r.match + 1} (seed {r.seed}): {printable(r.error)}")
        elif r.status == UNFINISHED:
            unfinished += 1
            if unfinished <= MAX_UNFINISHED_LINES:
                lines.append(f"{prefix}match {r.match + 1} unfinished (seed {r.seed}): no end within "
                             f"{max_decisions:,} decisions")
    if unfinished > MAX_UNFINISHED_LINES:
        lines.append(f"{prefix}... and {unfinished - MAX_UNFINISHED_LINES} more unfinished matches "
                     f"(every seed is in --json)")
    return lines


def _stopped_line(results, games: int) -> str:
    failed = sum(1 for r in results if r.status == FAILED)
    return f"stopped after match {len(results)} of {games}: {failed} matches failed"


@click.command()
@click.argument("ruleset")
@_run_options
@click.option("--plot", "plot_file", default=None, metavar="FILE",
              help="Draw the distributions (match length, margins, wins) into FILE.png or FILE.svg; "
                   "needs pip install 'rulesdsl[plot]'.")
def simulate(ruleset: str, games: int, seed: int, players: Optional[int], bots: str, iterations, seconds, rollout,
             depth, sets: tuple, max_decisions: int, jobs: Optional[int], ray: Optional[str], as_json: bool,
             allow_paths: tuple, plot_file: Optional[str]) -> None:
    """Play matches between bots and report how they went, with 95% intervals, and how fast.

    A match the ruleset stops (a rule that fails in play, a player left with no legal action) is
    reported as "match N (seed S): <located error>" and the run goes on (it stops after 10 such
    matches); exit status 1 when any match failed.  A match still going after --max-decisions is
    reported as unfinished with its seed and counted; that is no failure."""
    if plot_file is not None:
        from ..sim.plot import plot_format

        try:
            plot_format(plot_file)
        except SimError as exc:
            _fail(str(exc))
    overrides, where = _parse_sets(sets)
    rules = load_or_exit(ruleset, overrides, where, allow_paths, players)
    options = _bot_options(iterations, seconds, rollout, depth)
    specs = _seat_bots(bots, rules.program(players).n, options)
    jobs = jobs or default_jobs()
    plan = _plan(ruleset, rules, overrides, allow_paths, players, specs, options, seed, games, max_decisions)
    progress = _Progress(games, printable(rules.name))
    try:
        results, stopped, elapsed = _play(plan, rules, jobs, ray, progress)
    finally:
        progress.close()
    rep = report_for(rules, plan, results, elapsed, jobs, stopped)
    if plot_file is not None:
        from ..sim.plot import write_plot

        try:
            write_plot(plot_file, results, rep)
        except SimError as exc:
            _fail(str(exc))
    if as_json:
        from ..sim.summary import jsonable

        click.echo(json.dumps(jsonable(rep), indent=2))
    else:
        from ..sim.summary import text_lines

        for line in _match_lines(results, max_decisions):
            click.echo(line)
        if stopped:
            click.echo(_stopped_line(results, games))
        for line in text_lines(rep):
            click.echo(line)
    if any(r.status == FAILED for r in results):
        sys.exit(1)


def _ruleset_groups(args: tuple) -> list[tuple[str, tuple]]:
    """``GAME GAME target_score=50 variants/VARIANT`` -> each ruleset with the KEY=VALUE
    arguments that follow it (at least two rulesets)."""
    groups = ruleset_groups(args)
    if len(groups) < 2:
        raise click.UsageError("compare needs at least two rulesets (the same name twice, with overrides after "
                               "the second: GAME GAME target_score=50)")
    return groups


@click.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="A [KEY=VALUE...] B [KEY=VALUE...] [C ...]")
@_run_options
def compare(rulesets: tuple, games: int, seed: int, players: Optional[int], bots: str, iterations, seconds,
            rollout, depth, sets: tuple, max_decisions: int, jobs: Optional[int], ray: Optional[str], as_json: bool,
            allow_paths: tuple) -> None:
    """Play the same matches (same seeds, same bots) under several rulesets and compare each with the first.

    Each ruleset may be followed by its own overrides, KEY=VALUE words that apply to it alone:

    \b
      rulesdsl compare GAME GAME target_score=50
      rulesdsl compare GAME variants/VARIANT ./house_rules.yaml --games 500

    --set applies to every ruleset (an override of its own wins).  For every figure the table shows
    A, B and the difference B - A with its 95% interval, paired match by match; the reading line names
    what differs and the figures that moved beyond chance.  Exit status 1 when any match failed."""
    common, common_where = _parse_sets(sets)
    options = _bot_options(iterations, seconds, rollout, depth)
    runs = []
    for name, own in _ruleset_groups(rulesets):
        overrides, where = _parse_sets(own)
        merged = {**common, **overrides}
        rules = load_or_exit(name, merged, {**common_where, **where}, allow_paths, players)
        runs.append((name, overrides, merged, rules))
    prog0 = runs[0][3].program(players)
    for name, _, _, rules in runs[1:]:
        prog = rules.program(players)
        if (prog.n, prog.teams) != (prog0.n, prog0.teams):
            raise click.UsageError(f"{printable(name)} plays {prog.n} players ({prog.teams or 'no'} teams) and "
                                   f"{printable(runs[0][0])} {prog0.n} ({prog0.teams or 'no'} teams): compare "
                                   "needs the same seats (use --players)")
    specs = _seat_bots(bots, prog0.n, options)
    jobs = jobs or default_jobs()
    progress = _Progress(games * len(runs), "compare")
    played = []
    try:
        for name, overrides, merged, rules in runs:
            plan = _plan(name, rules, merged, allow_paths, players, specs, options, seed, games, max_decisions)
            results, stopped, elapsed = _play(plan, rules, jobs, ray, progress)
            played.append((plan, rules, results, stopped, report_for(rules, plan, results, elapsed, jobs, stopped)))
    finally:
        progress.close()
    _compare_output(runs, played, common, as_json, max_decisions, games)
    if any(r.status == FAILED for p in played for r in p[2]):
        sys.exit(1)


def _compare_output(runs, played, common: dict, as_json: bool, max_decisions: int, games: int) -> None:
    from ..sim.compare import compare as compare_runs
    from ..sim.compare import difference_label, text_lines
    from ..sim.summary import bots_text, interval_text, jsonable

    letters = [chr(ord("A") + i) if i < 26 else f"#{i + 1}" for i in range(len(runs))]
    shown = [printable(" ".join([name] + [f"{k}={v}" for k, v in overrides.items()])) for name, overrides, _, _ in runs]
    base_plan, base_rules, base_results, _, base_rep = played[0]
    comparisons = []
    for i in range(1, len(runs)):
        plan, rules, results, _, rep = played[i]
        label = difference_label(runs[0][0], runs[0][2], runs[i][0], runs[i][2], rules.params)
        cmp = compare_runs(base_results, results, label=label, side=rep["side"], sides=rep["sides"])
        cmp["a"], cmp["b"] = shown[0], shown[i]
        comparisons.append(cmp)
    if as_json:
        click.echo(json.dumps(jsonable({"schema": "rulesdsl.compare/1", "rulesets": [p[4] for p in played],
                                        "comparisons": comparisons}), indent=2))
        return
    rep0 = base_rep
    click.echo(f"{len(runs)} rulesets, the same {games} matches each (seeds {rep0['seed']} to "
               f"{rep0['seed'] + games - 1}), {rep0['players']} players, bots {bots_text(rep0['bots'])}"
               + (f", --set {' '.join(f'{k}={v}' for k, v in common.items())}" if common else ""))
    for letter, text, (plan, rules, results, stopped, rep) in zip(letters, shown, played):
        m = rep["matches"]
        extra = "".join([f", {len(m['unfinished'])} unfinished" if m["unfinished"] else "",
                         f", {len(m['failed'])} failed" if m["failed"] else ""])
        click.echo(f"{letter}: {text} ({printable(rep['ruleset']['name'])}): {m['finished']} of {games} finished"
                   f"{extra}, {interval_text(rep['hands']['per_match'])} hands per match")
        for line in _match_lines(results, max_decisions, prefix=f"{letter}: "):
            click.echo(line)
        if stopped:
            click.echo(f"{letter}: " + _stopped_line(results, games))
    for i, cmp in enumerate(comparisons, 1):
        click.echo("")
        for line in text_lines(cmp, letters[0], letters[i]):
            click.echo(line)
