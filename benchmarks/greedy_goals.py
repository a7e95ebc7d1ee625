"""The ``greedy`` bot's goals, measured (issue 12): play strength and how its deals end.

    python benchmarks/greedy_goals.py [--gin 200] [--hf 20] [--climb 40] [--speed 3]

* Gin: greedy against random, half the matches with greedy as seat 0 and half as seat 1; the win
  rate with a 95% Wilson interval (goal: at least 95%);
* Gin, greedy against greedy: the share of hands that end void (goal: under one in three);
* Hand and Foot, four greedy players: the share of deals that end with a team going out (goal: most);
* climbing games: one greedy seat against random seats, its mean finishing position per deal
  (1 = first out) beside what random play would give;
* decisions per second, greedy against greedy, per bundled game.
"""

from __future__ import annotations

import argparse
import time

import rulesdsl
from rulesdsl.bots import make_bot
from rulesdsl.sim.stats import proportion_interval


def wilson(k: int, n: int) -> tuple:
    """The 95% Wilson interval of k successes in n (``rulesdsl.sim.stats``, as every report uses)."""
    e = proportion_interval(k, n)
    return (e.low, e.high)


def play(game, bots, max_decisions: int = 200_000) -> int:
    d = 0
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
        d += 1
        if d >= max_decisions:
            raise RuntimeError(f"no end after {d} decisions")
    return d


def gin_vs_random(matches: int) -> None:
    rules = rulesdsl.load("gin_rummy")
    wins = 0
    t = time.perf_counter()
    for m in range(matches):
        g_seat = m % 2
        game = rules.new_game(seed=1000 + m)
        bots = [make_bot("greedy" if s == g_seat else "random", seed=m * 7 + s) for s in range(2)]
        play(game, bots)
        wins += game.winner == g_seat
    lo, hi = wilson(wins, matches)
    print(f"gin: greedy beat random in {wins}/{matches} matches = {wins / matches:.1%} "
          f"(95% interval {lo:.1%}..{hi:.1%}); {time.perf_counter() - t:.0f} s")


def gin_void(matches: int) -> None:
    rules = rulesdsl.load("gin_rummy")
    hands = void = 0
    for m in range(matches):
        game = rules.new_game(seed=2000 + m)
        play(game, [make_bot("greedy", seed=m * 7 + s) for s in range(2)])
        hands += len(game.hand_log)
        void += sum(1 for h in game.hand_log if h["ending"] == "void")
    print(f"gin, greedy vs greedy: {void}/{hands} hands void = {void / hands:.1%} ({matches} matches)")


def hf_out(matches: int) -> None:
    rules = rulesdsl.load("hand_and_foot")
    deals = out = 0
    endings: dict = {}
    for m in range(matches):
        game = rules.new_game(seed=3000 + m)
        play(game, [make_bot("greedy", seed=m * 7 + s) for s in range(4)])
        for h in game.hand_log:
            deals += 1
            out += h.get("declarer") is not None
            endings[h["ending"]] = endings.get(h["ending"], 0) + 1
    print(f"hand and foot, four greedy: {out}/{deals} deals end with a team going out = {out / deals:.1%} "
          f"(endings {endings})")


def climbing(name: str, deals: int, players: int) -> None:
    rules = rulesdsl.load(name)
    pos_sum = n = 0
    m = 0
    while n < deals:
        game = rules.new_game(seed=4000 + m, players=players)
        g_seat = m % players
        bots = [make_bot("greedy" if s == g_seat else "random", seed=m * 11 + s) for s in range(players)]
        d = 0
        while not game.is_over and game.hand_number <= 3 and d < 50_000:
            game.apply(bots[game.current_player].choose(game))
            d += 1
        for h in game.hand_log:
            order = h.get("order")
            if order:
                pos_sum += order.index(g_seat) + 1
                n += 1
        m += 1
    print(f"{name} ({players} players): greedy's mean finishing position {pos_sum / n:.2f} over {n} deals "
          f"(random: {(players + 1) / 2:.2f})")


SPEED = [("gin_rummy", {}), ("rummy_500", {}), ("hand_and_foot", {}), ("contract_rummy", {}),
         ("president", {}), ("big_two", {}), ("crazy_eights", {})]


def speed(matches: int) -> None:
    for name, over in SPEED:
        rules = rulesdsl.load(name, overrides=over)
        decisions, spent = 0, 0.0
        for m in range(matches):
            game = rules.new_game(seed=5000 + m)
            bots = [make_bot("greedy", seed=m * 7 + s) for s in range(game.n)]
            t = time.perf_counter()
            d = 0
            while not game.is_over and game.hand_number <= 2 and d < 20_000:
                game.apply(bots[game.current_player].choose(game))
                d += 1
            spent += time.perf_counter() - t
            decisions += d
        print(f"speed {name}: {decisions / spent:.0f} greedy decisions/s ({decisions} decisions, first two deals "
              f"of {matches} matches)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gin", type=int, default=200)
    ap.add_argument("--void", type=int, default=50)
    ap.add_argument("--hf", type=int, default=10)
    ap.add_argument("--climb", type=int, default=60)
    ap.add_argument("--speed", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated: gin,void,hf,climb,speed")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else {"gin", "void", "hf", "climb", "speed"}
    if "speed" in only:
        speed(a.speed)
    if "void" in only:
        gin_void(a.void)
    if "climb" in only:
        climbing("president", a.climb, 5)
        climbing("big_two", a.climb, 4)
        climbing("crazy_eights", a.climb, 4)
    if "hf" in only:
        hf_out(a.hf)
    if "gin" in only:
        gin_vs_random(a.gin)


if __name__ == "__main__":
    main()
