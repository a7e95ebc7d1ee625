"""Speed of random playouts for every bundled game: hands (deals) per second and decisions per second.

Run:  python benchmarks/bench_games.py [--seconds 4] [--seed 1]

Each game is played with uniformly random legal actions through the public API (``legal_actions`` +
``apply``) for about ``--seconds`` seconds, in whole matches.  Figures are for this machine, with this
Python; there is no peer here (RLCard and OpenSpiel have none of these games but Gin Rummy, which
``bench_gin.py`` compares).  Tests never assert on these numbers.
"""

from __future__ import annotations

import argparse
import random
import time

import rulesdsl

GAMES = [  # (label, ruleset, players, overrides)
    ("Gin Rummy", "gin_rummy", None, None),
    ("President, 4 players", "president", 4, None),
    ("President, 5 players", "president", 5, None),
    ("President, 7 players", "president", 7, None),
    ("Rummy 500, 2 players", "rummy_500", 2, None),
    ("Rummy 500, 4 players", "rummy_500", 4, None),
    ("Rummy 500, 6 players (2 decks)", "rummy_500", 6, None),
    ("Hand and Foot", "hand_and_foot", None, None),
    ("Big Two, 3 players", "big_two", 3, None),
    ("Big Two, 4 players", "big_two", 4, None),
    ("Crazy Eights, 2 players", "crazy_eights", 2, None),
    ("Crazy Eights, 5 players", "crazy_eights", 5, None),
    ("Contract Rummy, 4 players", "contract_rummy", 4, None),
]


def measure(name: str, players, overrides, seconds: float, seed: int) -> dict:
    rules = rulesdsl.load(name, overrides=overrides)
    hands = decisions = matches = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = rules.new_game(seed=seed + matches, players=players)
        rng = random.Random(seed + matches)
        while not game.is_over:
            acts = game.legal_actions()
            game.apply(acts[rng.randrange(len(acts))])
            decisions += 1
        hands += len(game.hand_log)
        matches += 1
    dt = time.perf_counter() - start
    return {"hands": hands, "decisions": decisions, "matches": matches, "seconds": dt}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="time per game (whole matches)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print("Random playouts of every bundled game (whole matches, default rules)")
    print(f"  {'game':34} {'matches':>7} {'hands':>7} {'hands/s':>9} {'decisions/s':>12} {'dec/hand':>9}")
    for label, name, players, overrides in GAMES:
        r = measure(name, players, overrides, args.seconds, args.seed)
        print(f"  {label:34} {r['matches']:>7} {r['hands']:>7} {r['hands'] / r['seconds']:>9.1f} "
              f"{r['decisions'] / r['seconds']:>12,.0f} {r['decisions'] / max(r['hands'], 1):>9.1f}", flush=True)
    print("  (a hand is one deal played to its end; President and Hand and Foot call it a deal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
