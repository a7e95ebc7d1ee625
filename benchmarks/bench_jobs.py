"""The speed-up of ``--jobs`` over a serial run, and a check that both give the same results.

Run:  python benchmarks/bench_jobs.py [--game president] [--games 60] [--jobs 2] [--bots random]
                                      [--repeat 3] [--set target_score=4]

Plays the same matches with one process and with ``--jobs`` processes, alternately ``--repeat`` times,
through rulesdsl.sim (what ``rulesdsl simulate`` runs), and prints the best wall time of each, the
speed-up and whether the results were identical (they must be: each match is seeded by its number).
The speed-up is bounded by the cores the machine actually gives; a busy machine shows less.
"""

from __future__ import annotations

import argparse
import sys
import time

from rulesdsl.sim import simulate


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="president")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", dest="sets", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    overrides = {}
    for pair in args.sets:
        key, _, value = pair.partition("=")
        overrides[key] = int(value) if value.lstrip("-").isdigit() else value
    best = {1: float("inf"), args.jobs: float("inf")}
    results = {}
    for _ in range(args.repeat):
        for jobs in (1, args.jobs):
            t0 = time.perf_counter()
            run = simulate(args.game, games=args.games, seed=args.seed, bots=args.bots, players=args.players,
                           overrides=overrides, jobs=jobs)
            best[jobs] = min(best[jobs], time.perf_counter() - t0)
            results[jobs] = run.results
    same = results[1] == results[args.jobs]
    decisions = sum(r.decisions for r in results[1])
    print(f"{args.game}: {args.games} matches, {decisions:,} decisions, bots {args.bots}, best of {args.repeat}")
    print(f"  --jobs 1: {best[1]:.2f} s ({decisions / best[1]:,.0f} decisions/s)")
    print(f"  --jobs {args.jobs}: {best[args.jobs]:.2f} s ({decisions / best[args.jobs]:,.0f} decisions/s)")
    print(f"  speed-up x{best[1] / best[args.jobs]:.2f}; results identical: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
