"""Where the matches of a run are played: here, in a pool of processes, or as Ray tasks.

Match ``k`` of a run is dealt from ``seed + k`` and its bots are seeded from that (``runner.bot_seed``),
so the three ways give the same results; ``run_matches`` yields them in match order, so a caller
cannot tell them apart but by the time taken.  A worker loads the ruleset once (a forked worker
inherits the parent's compiled copy) and then plays match after match.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Iterator, Optional

from .runner import MatchResult, play_match


class SimError(Exception):
    """A run that cannot start (Ray missing or unreachable); its text is one line for the user."""


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play any match of a run (picklable, so it travels to workers).

    ``ruleset``/``overrides``/``allow_paths`` load the rules as ``rulesdsl.load`` does; ``bots`` has one
    spec per seat; ``sys_path`` folders are put on ``sys.path`` in a worker (the folder the command ran
    in, so that a ``module:Class`` bot imports there as it does here)."""

    ruleset: str
    overrides: dict = field(default_factory=dict)
    allow_paths: tuple = ()
    players: Optional[int] = None
    bots: tuple = ("random",)
    bot_options: dict = field(default_factory=dict)
    seed: int = 0
    games: int = 1
    max_decisions: int = 1_000_000
    sys_path: tuple = ()
    digest: str = ""

    def key(self) -> str:
        """Which rules the plan plays (one loaded copy serves every plan with the same key)."""
        return json.dumps([self.ruleset, self.overrides, list(self.allow_paths), self.digest], sort_keys=True,
                          default=repr)


#: rules loaded in this process, by ``Plan.key`` (a forked worker starts with its parent's)
_RULES: dict = {}
#: the plan a pool worker plays (set by its initializer)
_PLAN: Optional[Plan] = None


def rules_for(plan: Plan):
    """The plan's rules, loaded once per process; refused (``SimError``) if they are not the rules the
    plan was made with (``plan.digest``: a file that differs where a worker runs)."""
    rules = _RULES.get(plan.key())
    if rules is None:
        from ..errors import RulesdslError, printable
        from ..rules import load

        for folder in plan.sys_path:
            if folder not in sys.path:
                sys.path.insert(0, folder)
        try:
            rules = load(plan.ruleset, plan.overrides or None, allow_paths=plan.allow_paths)
        except (RulesdslError, ValueError, OSError) as exc:
            raise SimError(f"a worker cannot load `{printable(plan.ruleset)}`: {printable(exc)}") from None
        if plan.digest and rules.digest != plan.digest:
            raise SimError(f"a worker loaded `{printable(plan.ruleset)}` with digest {rules.digest}, not "
                           f"{plan.digest}: the file differs where the worker runs")
        _RULES[plan.key()] = rules
    return rules


def play_one(plan: Plan, match: int, rules=None) -> MatchResult:
    """Match number ``match`` of the plan (dealt from ``plan.seed + match``)."""
    rules = rules if rules is not None else rules_for(plan)
    return play_match(rules, match, plan.seed + match, plan.bots, plan.bot_options, plan.players,
                      plan.max_decisions)


def play_chunk(plan: Plan, matches: list[int]) -> list[MatchResult]:
    """Several matches of a plan, in order (one task of a pool or of Ray)."""
    rules = rules_for(plan)
    return [play_one(plan, m, rules) for m in matches]


def _init_worker(plan: Plan) -> None:
    global _PLAN
    _PLAN = plan
    rules_for(plan)


def _play_in_worker(match: int) -> MatchResult:
    assert _PLAN is not None
    return play_one(_PLAN, match)


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def run_matches(plan: Plan, jobs: int = 1, rules=None, ray: Optional[str] = None) -> Iterator[MatchResult]:
    """The plan's matches, in order.  ``jobs`` processes (1: here); ``ray``: an address, or ``"local"``
    to start (or join) a Ray instance on this machine.  ``rules`` is the plan's rules if already
    loaded.  Closing the iterator early cancels the matches not yet played."""
    if rules is not None:                   # the caller's copy is the one to play (and to fork)
        _RULES.clear()
        _RULES[plan.key()] = rules
    if ray is not None:
        return _run_ray(plan, ray, jobs)
    jobs = max(1, min(jobs, plan.games))
    if jobs == 1:
        return (play_one(plan, m) for m in range(plan.games))
    return _run_pool(plan, jobs)


def _chunksize(games: int, jobs: int) -> int:
    """Matches per task: small enough to keep every worker busy to the end and a progress bar moving."""
    return max(1, min(16, games // (jobs * 8)))


def _run_pool(plan: Plan, jobs: int) -> Iterator[MatchResult]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    rules_for(plan)                 # loaded before the fork: the workers inherit it, compiled
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                               initargs=(plan,))
    try:
        yield from pool.map(_play_in_worker, range(plan.games), chunksize=_chunksize(plan.games, jobs))
    except BrokenProcessPool as exc:
        raise SimError(f"a worker process stopped: {exc}") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


RAY_MISSING = "--ray needs Ray, an optional extra: pip install 'rulesdsl[ray]'"


def _run_ray(plan: Plan, address: str, jobs: int) -> Iterator[MatchResult]:
    try:
        import ray
    except ImportError:
        raise SimError(RAY_MISSING) from None
    started = False
    if not ray.is_initialized():
        import logging

        options = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        try:
            if address == "local" and not os.environ.get("RAY_ADDRESS"):
                ray.init(num_cpus=max(1, jobs), **options)      # a new instance here, --jobs CPUs wide
            elif address == "local":
                ray.init(**options)                             # the instance RAY_ADDRESS names
            else:
                ray.init(address=address, **options)
        except Exception as exc:  # noqa: BLE001 -- Ray's errors vary by version; one line for the user
            raise SimError(f"cannot start or reach Ray at `{address}`: {type(exc).__name__}: {exc}") from None
        started = True
    return _ray_results(ray, plan, jobs, started)


def _ray_results(ray, plan: Plan, jobs: int, started: bool) -> Iterator[MatchResult]:
    task = ray.remote(play_chunk)
    size = _chunksize(plan.games, max(jobs, 1))
    chunks = [list(range(i, min(i + size, plan.games))) for i in range(0, plan.games, size)]
    refs = [task.remote(plan, chunk) for chunk in chunks]
    try:
        for ref in refs:
            try:
                chunk = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 -- a task that failed on a worker: one line
                lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]   # Ray adds its traceback
                raise SimError(f"a Ray task failed: {lines[-1] if lines else type(exc).__name__}") from None
            yield from chunk
    finally:
        for ref in refs:
            try:
                ray.cancel(ref)
            except Exception:  # noqa: BLE001 -- already done
                pass
        if started:
            ray.shutdown()
