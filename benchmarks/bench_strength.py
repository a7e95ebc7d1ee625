"""How strong a bot is against another, in every bundled game: bot A against bot B in both seat
arrangements, with 95% intervals; and how hands end when one bot plays every seat.

Run:  python benchmarks/bench_strength.py [--a greedy] [--b random] [--games 50] [--only gin]
                                          [--iterations 1000] [--seconds X] [--rollout random|greedy]
                                          [--under greedy] [--jobs N] [--seed 1] [--depth N]
                                          [--set target_score=40] [--no-under]

For each game (at its default number of players): A plays side 0 (seat 0, or every seat of team 0) and
B every other seat, then A plays side 1; the same seeds in both.  With two sides the figure is A's win
rate (Wilson interval; 50% is even); with more it is A's mean finishing position by final score (1 is
first; ties share their places; t interval) beside its win rate.  Then ``--under`` plays every seat for
the same number of matches: the share of hands that end void (nobody scores, dealt again) and the share
of deals that end with someone going out (a declarer, or the finishing ending ``out`` of climbing and
shedding games) rather than a stock running out or a blocked table.

Every match goes through rulesdsl.sim (the runner ``rulesdsl simulate`` uses), over --jobs processes.
Nothing here asserts anything: the figures are for reading.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import rulesdsl
from rulesdsl.errors import ShadowedFileWarning
from rulesdsl.sim import FAILED, FINISHED, UNFINISHED, simulate
from rulesdsl.sim.stats import mean_interval, proportion_interval, ratio_interval

GAMES = ["gin_rummy", "president", "rummy_500", "hand_and_foot", "big_two", "crazy_eights", "contract_rummy"]


def sides_of(rules) -> list[int]:
    """The side (seat, or team) of every seat, as the engine sees it."""
    game = rules.new_game(seed=0)
    return [game.team_of(s) if game.teams else s for s in range(game.n)]


def place(scores: list, side: int) -> float:
    """Finishing position of ``side`` by final score: 1 + sides ahead, ties sharing their places."""
    mine = scores[side]
    ahead = sum(1 for s in scores if s > mine)
    level = sum(1 for s in scores if s == mine) - 1
    return 1 + ahead + level / 2


def a_against_b(name: str, args, side: int, sides: list[int]) -> dict:
    bots = [args.a if s == side else args.b for s in sides]
    run = simulate(name, games=args.games, seed=args.seed, bots=bots, bot_options=options(args), jobs=args.jobs,
                   max_decisions=args.max_decisions, overrides=overrides(args))
    return tally(run.results, side)


def tally(results, side: int) -> dict:
    done = [r for r in results if r.status == FINISHED]
    for r in results:
        if r.status == FAILED:
            print(f"  match {r.match + 1} (seed {r.seed}) failed: {r.error}", file=sys.stderr)
    return {"wins": sum(1 for r in done if r.winner == side), "finished": len(done),
            "places": [place(r.scores, side) for r in done],
            "unfinished": sum(1 for r in results if r.status == UNFINISHED),
            "failed": sum(1 for r in results if r.status == FAILED)}


def overrides(args) -> dict:
    """``--set KEY=VALUE`` pairs (whole numbers read as such)."""
    out = {}
    for pair in args.set:
        key, _, value = pair.partition("=")
        out[key] = int(value) if value.lstrip("-").isdigit() else value
    return out


def options(args) -> dict:
    given = {"iterations": args.iterations, "seconds": args.seconds, "rollout": args.rollout, "depth": args.depth}
    return {k: v for k, v in given.items() if v is not None}


def percent(e) -> str:
    if e.value is None:
        return "n/a"
    return f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]" if e.low is not None else f"{100 * e.value:.1f}%"


def plain(e) -> str:
    if e.value is None:
        return "n/a"
    return f"{e.value:.2f} [{e.low:.2f}, {e.high:.2f}]" if e.low is not None else f"{e.value:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", default="greedy", help="the bot measured (default greedy)")
    ap.add_argument("--b", default="random", help="its opponent in every other seat (default random)")
    ap.add_argument("--under", default=None, help="the bot for the how-hands-end figures (default: --a)")
    ap.add_argument("--games", type=int, default=50, help="matches per arrangement")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None, help="only games whose name contains this text")
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--rollout", choices=["random", "greedy"], default=None)
    ap.add_argument("--jobs", type=int, default=None, help="processes (default: every core)")
    ap.add_argument("--depth", type=int, default=None, help="rollout decisions before a search judges a position")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override (repeatable)")
    ap.add_argument("--no-under", action="store_true", help="skip the how-hands-end run")
    ap.add_argument("--max-decisions", type=int, default=200_000, help="a match past this is unfinished")
    args = ap.parse_args()
    warnings.simplefilter("ignore", ShadowedFileWarning)      # the names here are the bundled games
    under = args.under or args.a
    print(f"A = {args.a}, B = {args.b}, {args.games} matches per arrangement, seed {args.seed}; "
          f"hands under {under}")
    print("| game | players | A as side 0 | A as side 1 | A, both | A's mean place (1 best) | void hands "
          f"| deals gone out | unfinished / failed | s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in GAMES:
        if args.only and args.only not in name:
            continue
        t0 = time.perf_counter()
        rules = rulesdsl.load(name, overrides=overrides(args) or None)
        sides = sides_of(rules)
        n_sides = len(set(sides))
        arr = [a_against_b(name, args, side, sides) for side in (0, 1)]
        rates = [proportion_interval(x["wins"], x["finished"]) for x in arr]
        both = proportion_interval(sum(x["wins"] for x in arr), sum(x["finished"] for x in arr))
        mean_place = mean_interval(arr[0]["places"] + arr[1]["places"]) if n_sides > 2 else None
        run = simulate(name, games=0 if args.no_under else args.games, seed=args.seed + 10_000, bots=under,
                       bot_options=options(args), jobs=args.jobs, max_decisions=args.max_decisions,
                       overrides=overrides(args)) if not args.no_under else None
        done = [r for r in run.results if r.status == FINISHED] if run else []
        hands = [len(r.hands) for r in done]
        void = ratio_interval([sum(1 for h in r.hands if h[0] == "void") for r in done], hands, share=True)
        gone = ratio_interval([sum(1 for h in r.hands if h[0] != "void" and (h[3] is not None or h[0] == "out"))
                               for r in done],
                              [sum(1 for h in r.hands if h[0] != "void") for r in done], share=True)
        under_tally = tally(run.results if run else [], 0)
        unfinished = sum(x["unfinished"] for x in arr) + under_tally["unfinished"]
        failed = sum(x["failed"] for x in arr) + under_tally["failed"]
        print(f"| {rules.name} | {len(sides)} | {percent(rates[0])} | {percent(rates[1])} | {percent(both)} | "
              f"{plain(mean_place) if mean_place else '-'} | {percent(void)} | {percent(gone)} | {unfinished} / {failed} | "
              f"{time.perf_counter() - t0:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
