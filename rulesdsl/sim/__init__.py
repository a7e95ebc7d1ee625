"""Simulation: many matches of a ruleset played by bots, summed up with 95% intervals, and compared.

    from rulesdsl.sim import simulate
    run = simulate("my_game.yaml", games=200, bots="greedy,random", jobs=2)
    run.report["wins"]["by_side"]        # JSON-ready, as `rulesdsl simulate --json` prints it
    run.results[0]                      # MatchResult of match 1: seed, status, winner, scores, hands...

Modules, one job each: ``runner`` plays one match; ``parallel`` plays a run's matches here, in a pool of
processes or on Ray, always giving them back in match order; ``stats`` the intervals; ``summary`` the
report of a run; ``compare`` the paired comparison of two runs; ``plot`` the optional figure.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence, Union

from ..bots import seat_specs
from .parallel import Plan, SimError, default_jobs, run_matches
from .runner import FAILED, FINISHED, UNFINISHED, MatchResult, bot_seed, play_match

__all__ = ["simulate", "collect", "Run", "Plan", "MatchResult", "SimError", "run_matches", "play_match",
           "bot_seed", "default_jobs", "FINISHED", "UNFINISHED", "FAILED", "report_for"]


@dataclass
class Run:
    """A finished run: the results in match order, its report, and whether it stopped early."""

    results: list
    report: dict
    stopped_early: bool = False


def collect(matches: Iterable[MatchResult], max_failed: Optional[int] = None,
            each: Optional[Callable[[MatchResult], None]] = None) -> tuple[list, bool]:
    """Gather results in order; stop (closing the source, which cancels what is left) after
    ``max_failed`` failed matches.  ``each`` is called with every result as it comes (progress,
    printing).  Returns the results and whether the run stopped early."""
    results: list = []
    failed = 0
    it = iter(matches)
    try:
        for r in it:
            results.append(r)
            if each is not None:
                each(r)
            if r.status == FAILED:
                failed += 1
                if max_failed is not None and failed >= max_failed:
                    return results, True
    finally:
        close = getattr(it, "close", None)
        if close is not None:
            close()
    return results, False


def report_for(rules, plan: Plan, results: Sequence[MatchResult], seconds: float = 0.0, jobs: int = 1,
               stopped_early: bool = False) -> dict:
    """The JSON-ready report of a plan's results (see ``summary.report``)."""
    from .summary import report

    prog = rules.program(plan.players)
    role_names: list = []
    if any(r.roles for r in results):
        role_names = list(dict.fromkeys(str(name) for name, _ in prog.roles_for(prog.n)))
    ruleset = {"name": rules.name, "source": plan.ruleset, "overrides": dict(plan.overrides),
               "digest": rules.digest}
    return report(results, ruleset=ruleset, players=prog.n, teams=prog.teams or 0, bots=plan.bots,
                  bot_options=plan.bot_options, seed=plan.seed, games=plan.games,
                  max_decisions=plan.max_decisions, role_names=role_names, seconds=seconds, jobs=jobs,
                  stopped_early=stopped_early)


def simulate(ruleset: Union[str, "os.PathLike"], *, games: int = 100, seed: int = 0,
             bots: Union[str, Sequence[str]] = "random", players: Optional[int] = None,
             overrides: Optional[dict] = None, bot_options: Optional[dict] = None, jobs: Optional[int] = 1,
             ray: Optional[str] = None, max_decisions: int = 1_000_000, allow_paths: Sequence = (),
             max_failed: Optional[int] = None) -> Run:
    """Play ``games`` matches (match ``k`` dealt from ``seed + k``) and report them.  ``bots`` is one
    spec per seat (``"ismcts,greedy"``: the last repeated) or a list; ``jobs`` processes (``None``:
    every core); ``ray`` an address or ``"local"``.  The results do not depend on ``jobs`` or ``ray``."""
    from ..rules import load

    rules = load(str(ruleset), overrides or None, allow_paths=allow_paths)
    n = rules.program(players).n
    specs = tuple(seat_specs(bots, n) if isinstance(bots, str) else list(bots))
    plan = Plan(ruleset=str(ruleset), overrides=dict(overrides or {}), allow_paths=tuple(map(str, allow_paths)),
                players=players, bots=specs, bot_options=dict(bot_options or {}), seed=seed, games=games,
                max_decisions=max_decisions, sys_path=(os.getcwd(),), digest=rules.digest)
    jobs = default_jobs() if jobs is None else jobs
    t0 = time.perf_counter()
    results, stopped = collect(run_matches(plan, jobs, rules=rules, ray=ray), max_failed)
    seconds = time.perf_counter() - t0
    return Run(results, report_for(rules, plan, results, seconds, jobs, stopped), stopped)
