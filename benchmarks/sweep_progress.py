"""The progress guarantee at scale: random matches of every bundled game and variant at every allowed
player count, checking after every action that a match not over offers a legal action.

Run:  python benchmarks/sweep_progress.py [--matches 100] [--seed 1] [--max-decisions 200000] [--only NAME]

The test suite runs the same check on a few matches per case (tests/test_guarantees.py); this is the full
run.  Each row counts matches that ended, that stopped with a located RuleEvaluationError, that were still
running at the decision bound, and dead ends (a position with no legal action: must be 0).  Exit status 1
if any dead end or unexpected error was met.
"""

from __future__ import annotations

import argparse
import random
import time

import rulesdsl
from rulesdsl.source.resolve import bundled_names


def run_case(rules, players: int, matches: int, seed: int, bound: int) -> dict:
    out = {"over": 0, "stopped": 0, "running": 0, "dead_ends": 0, "crashes": 0, "decisions": 0, "first": ""}
    for m in range(matches):
        game = rules.new_game(seed=seed + m, players=players)
        rng = random.Random(seed + m)
        outcome = "running"
        try:
            for _ in range(bound):
                if game.is_over:
                    outcome = "over"
                    break
                acts = game.legal_actions()
                if not acts:
                    outcome = "dead_ends"
                    out["first"] = out["first"] or (f"seed {seed + m}: no legal action, hand {game.hand_number}, "
                                                    f"last {game.history[-4:]}")
                    break
                game.apply(acts[rng.randrange(len(acts))])
                out["decisions"] += 1
            else:
                outcome = "over" if game.is_over else "running"
        except rulesdsl.RuleEvaluationError as exc:
            outcome = "stopped"
            out["first"] = out["first"] or f"seed {seed + m}: {exc}"
        except Exception as exc:  # noqa: BLE001 -- reported, the sweep goes on
            outcome = "crashes"
            out["first"] = out["first"] or f"seed {seed + m}: {type(exc).__name__}: {exc}"
        out[outcome] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=100, help="matches per ruleset and player count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-decisions", type=int, default=200_000, help="bound per match")
    ap.add_argument("--only", default=None, help="only rulesets whose name contains this text")
    args = ap.parse_args()
    total = {"matches": 0, "dead_ends": 0, "crashes": 0, "decisions": 0}
    print(f"  {'ruleset':44} {'n':>2} {'over':>6} {'stopped':>7} {'running':>7} {'dead':>5} {'crash':>5} {'s':>6}")
    bad = False
    for name, _ in bundled_names():
        if args.only and args.only not in name:
            continue
        rules = rulesdsl.load(name)
        p = rules.model.players
        for n in range(p.min, p.max + 1):
            t = time.perf_counter()
            r = run_case(rules, n, args.matches, args.seed, args.max_decisions)
            dt = time.perf_counter() - t
            total["matches"] += args.matches
            total["dead_ends"] += r["dead_ends"]
            total["crashes"] += r["crashes"]
            total["decisions"] += r["decisions"]
            print(f"  {name:44} {n:>2} {r['over']:>6} {r['stopped']:>7} {r['running']:>7} {r['dead_ends']:>5} "
                  f"{r['crashes']:>5} {dt:>6.1f}", flush=True)
            if r["first"] and (r["dead_ends"] or r["crashes"] or r["stopped"]):
                print(f"      first: {r['first'][:300]}")
            bad = bad or r["dead_ends"] > 0 or r["crashes"] > 0
    print(f"  total: {total['matches']} matches, {total['decisions']:,} decisions, "
          f"{total['dead_ends']} dead ends, {total['crashes']} crashes")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
