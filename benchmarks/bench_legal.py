"""How long one `legal_actions()` takes, in every position random play reaches, per bundled game.

Run:  python benchmarks/bench_legal.py [--seconds 6] [--seed 1] [--all]

A server or a bot calls ``legal_actions()`` once per decision, and the slowest positions (a long hand of
cards in an open-meld game, a look-ahead before a take) are what a player waits for.  Each game is played
with uniformly random legal actions for about ``--seconds`` seconds; every call is timed cold (the list is
computed afresh after each ``apply``) and the median, p99 and maximum are printed, with the position of the
slowest call.  The target is p99 under 5 ms and no call over 50 ms.  ``--all`` adds every bundled variant
at every allowed player count.  Figures are for this machine; tests never assert on them.
"""

from __future__ import annotations

import argparse
import random
import time

import rulesdsl
from rulesdsl.source.resolve import bundled_names

GAMES = [  # (label, ruleset, players)
    ("Gin Rummy", "gin_rummy", None),
    ("President, 5 players", "president", 5),
    ("President, 7 players", "president", 7),
    ("Rummy 500, 2 players", "rummy_500", 2),
    ("Rummy 500, 4 players", "rummy_500", 4),
    ("Rummy 500, 8 players (2 decks)", "rummy_500", 8),
    ("Hand and Foot", "hand_and_foot", None),
    ("Big Two, 3 players", "big_two", 3),
    ("Big Two, 4 players", "big_two", 4),
    ("Crazy Eights, 4 players", "crazy_eights", 4),
    ("Contract Rummy, 4 players", "contract_rummy", 4),
]


def measure(name: str, players, seconds: float, seed: int) -> dict:
    rules = rulesdsl.load(name)
    times: list = []
    worst = (0.0, "")
    matches = 0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        game = rules.new_game(seed=seed + matches, players=players)
        rng = random.Random(seed + matches)
        while not game.is_over and clock() - start < seconds:
            t = clock()
            acts = game.legal_actions()
            dt = clock() - t
            times.append(dt)
            if dt > worst[0]:
                worst = (dt, f"match {matches}, hand {game.hand_number}, {game.phase}, {len(acts)} actions")
            game.apply(acts[rng.randrange(len(acts))])
        matches += 1
    times.sort()
    n = len(times)
    return {"calls": n, "p50": times[n // 2], "p99": times[min(n - 1, (99 * n) // 100)], "max": times[-1],
            "where": worst[1]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=6.0, help="time per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all", action="store_true", help="every bundled variant at every player count too")
    args = ap.parse_args()
    games = list(GAMES)
    if args.all:
        for name, _ in bundled_names():
            p = rulesdsl.load(name).model.players
            games += [(f"{name}, {n} players", name, n) for n in range(p.min, p.max + 1)]
    print("legal_actions() latency under random play (cold: once per position)")
    print(f"  {'game':40} {'calls':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}   slowest position")
    for label, name, players in games:
        r = measure(name, players, args.seconds, args.seed)
        print(f"  {label:40} {r['calls']:>8} {1e3 * r['p50']:>8.3f} {1e3 * r['p99']:>8.3f} "
              f"{1e3 * r['max']:>8.2f}   {r['where']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
