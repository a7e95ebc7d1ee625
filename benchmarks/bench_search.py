"""What search costs, per bundled game: clones, determinizations and ISMCTS iterations per second.

Run:  python benchmarks/bench_search.py [--seconds 2] [--iterations 300] [--games gin_rummy,president]

For each game, a position 40 random moves into the first deal, or the first choice after it (the seat
on turn searches):

* ``game.clone()`` per second;
* ``game.determinize(seat, rng)`` per second (the first call, which replays the deal so far to learn
  what the seat has seen, is shown apart);
* ISMCTS iterations per second, over ``--iterations`` iterations of one decision: as the bot plays by
  default (leaves judged at once where the ruleset scores positions; deals played out with greedy
  rollouts in climbing games), and with 20 random rollout decisions before judging.

Nothing here is a test; tests never assert on wall time.  The machine's speed drifts with its load.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import rulesdsl  # noqa: E402
from rulesdsl.bots import make_bot  # noqa: E402

GAMES = [("Gin Rummy", "gin_rummy", 2), ("Rummy 500, 4 players", "rummy_500", 4), ("Hand and Foot", "hand_and_foot", 4),
         ("President, 5 players", "president", 5), ("Big Two, 4 players", "big_two", 4),
         ("Crazy Eights, 4 players", "crazy_eights", 4), ("Contract Rummy, 4 players", "contract_rummy", 4)]


def position(name: str, players: int):
    g = rulesdsl.load(name).new_game(seed=5, players=players)
    rng = random.Random(5)
    moves = 0
    while not g.is_over and (moves < 40 or len(g.legal_actions()) < 2):   # then on to a real choice
        a = g.legal_actions()
        g.apply(a[rng.randrange(len(a))])
        moves += 1
    return g


def rate(fn, seconds: float) -> float:
    done, t = 0, time.perf_counter()
    while time.perf_counter() - t < seconds:
        for _ in range(20):
            fn()
        done += 20
    return done / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per clone / determinize figure")
    ap.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations timed per figure")
    ap.add_argument("--games", default="", help="comma-separated ruleset names (default: all bundled)")
    args = ap.parse_args()
    only = set(filter(None, args.games.split(",")))
    print(f"{'game':28} {'clones/s':>10} {'first det. ms':>14} {'determinize/s':>14} "
          f"{'ISMCTS it/s':>12} {'20 random':>10}")
    for label, name, n in GAMES:
        if only and name not in only:
            continue
        g = position(name, n)
        seat = g.current_player
        clones = rate(g.clone, args.seconds)
        t = time.perf_counter()
        g.determinize(seat, random.Random(0))
        first = (time.perf_counter() - t) * 1000
        rng = random.Random(1)
        dets = rate(lambda: g.determinize(seat, rng), args.seconds)
        its = []
        for options in ({}, {"depth": 20, "rollout": "random"}):
            bot = make_bot("ismcts", seed=1, iterations=args.iterations, **options)
            t = time.perf_counter()
            bot.choose(g)
            its.append(bot.last_iterations / (time.perf_counter() - t) if bot.last_iterations else float("nan"))
        print(f"{label:28} {clones:>10,.0f} {first:>14.1f} {dets:>14,.0f} {its[0]:>12,.0f} {its[1]:>10,.0f}",
              flush=True)


if __name__ == "__main__":
    main()
