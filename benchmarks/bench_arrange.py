"""Speed of rulesdsl.compile.arrange: minimum-deadwood calls on random hands.

Run:  python benchmarks/bench_arrange.py [--n 20000] [--seed 2024]

For 10- and 11-card hands from a 52-card deck (ranks A..K, values A=1, 2-10 face, J/Q/K=10, runs
ace-low, sets of 3-4) it prints microseconds per ``Arranger.deadwood`` call:

* cold      -- a fresh Arranger, N distinct hands, each seen once (the memo only shares
               sub-results between hands, as it would in a simulation);
* cold/clr  -- as cold, but both memos are cleared before every call (nothing shared at all);
* warm      -- the same hands again (every call a memo hit);
* melds     -- the cold figure restricted to hands holding at least one meld (the slow path).

Medians come from timing each call (the timer's own cost, printed, is subtracted); means come from
timing the whole loop (per call for cold/clr and melds).  Each measurement is repeated (--repeat)
and the lowest figure kept, as timeit does, because scheduler stalls of a few milliseconds on a
shared machine otherwise swamp a mean of microsecond calls.

If RLCard or OpenSpiel are importable, their deadwood functions are timed on the same hands and the
ratio to the cold figure is printed.  Nothing is installed.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from rulesdsl.compile.arrange import Arranger, cards_of, mask_of  # noqa: E402

N_RANKS, N_SUITS = 13, 4
VALUES = [min(r + 1, 10) for _s in range(N_SUITS) for r in range(N_RANKS)]
ACE_LOW = list(range(N_RANKS))

perf = time.perf_counter_ns


def make_hands(n: int, size: int, seed: int) -> list:
    rng = random.Random(seed)
    seen = set()
    hands = []
    while len(hands) < n:
        m = mask_of(rng.sample(range(N_RANKS * N_SUITS), size))
        if m not in seen:
            seen.add(m)
            hands.append(m)
    return hands


def timer_overhead() -> float:
    samples = []
    for _ in range(20000):
        t = perf()
        samples.append(perf() - t)
    return statistics.median(samples)


def per_call(fn, items, overhead: float, before=None) -> list:
    """Nanoseconds of each call fn(item), timer overhead removed."""
    out = []
    append = out.append
    gc.disable()
    try:
        for x in items:
            if before is not None:
                before()
            t = perf()
            fn(x)
            append(perf() - t - overhead)
    finally:
        gc.enable()
    return out


def loop_mean(fn, items) -> float:
    gc.disable()
    try:
        t = perf()
        for x in items:
            fn(x)
        return (perf() - t) / len(items)
    finally:
        gc.enable()


def us(ns: float) -> str:
    return f"{ns / 1000:7.3f}"


def peers() -> dict:
    """Deadwood functions of installed peers, each taking our hand mask.  Conversion to the
    peer's card objects is done before timing (see ``convert``)."""
    found = {}
    try:  # RLCard
        from rlcard.games.gin_rummy.utils import melding as rl_melding
        from rlcard.games.gin_rummy.utils import utils as rl_utils

        def rl_convert(mask):
            return [rl_utils.get_card(k) for k in cards_of(mask)]

        def rl_deadwood(hand):
            if len(hand) == 10:
                clusters = rl_melding.get_best_meld_clusters(hand=hand)
                if clusters:
                    return rl_utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0])
                return sum(rl_utils.get_deadwood_value(c) for c in hand)
            # get_best_meld_clusters only takes 10 cards: the same search, done here
            best = sum(rl_utils.get_deadwood_value(c) for c in hand)
            for cluster in rl_melding.get_meld_clusters(hand=hand):
                used = [c for pile in cluster for c in pile]  # copies: compare by ==
                left = sum(rl_utils.get_deadwood_value(c) for c in hand if c not in used)
                best = min(best, left)
            return best

        found["rlcard"] = (rl_convert, rl_deadwood)
    except Exception:
        pass
    try:  # OpenSpiel
        import pyspiel

        gr = getattr(pyspiel, "gin_rummy", None)
        if gr is not None:
            utils10 = gr.GinRummyUtils(N_RANKS, N_SUITS, 10)

            def os_convert(mask):
                return cards_of(mask)

            found["openspiel"] = (os_convert, utils10.min_deadwood)
    except Exception:
        pass
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=20000, help="hands per size (default 20000)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--repeat", type=int, default=3,
                    help="repeat each measurement, keep the lowest median and mean (default 3)")
    args = ap.parse_args()

    print(f"python {sys.version.split()[0]} on {sys.platform}; N={args.n} hands per size, "
          f"seed {args.seed}")
    overhead = timer_overhead()
    print(f"timer overhead {overhead / 1000:.3f} us per call (subtracted from medians)")
    t = perf()
    Arranger(N_RANKS, N_SUITS, VALUES, ACE_LOW)
    print(f"construction (tables cached per configuration after the first): "
          f"{(perf() - t) / 1e6:.1f} ms")
    other = peers()
    print()
    print(f"{'cards':>5} {'figure':<10} {'median us':>10} {'mean us':>10}")
    for size in (10, 11):
        hands = make_hands(args.n, size, args.seed + size)
        best = {}

        def keep(name: str, med: float, mean: float) -> None:
            old = best.get(name)
            best[name] = (med, mean) if old is None else (min(old[0], med), min(old[1], mean))

        for _ in range(args.repeat):
            arr = Arranger(N_RANKS, N_SUITS, VALUES, ACE_LOW)
            cold = per_call(arr.deadwood, hands, overhead)
            fresh = Arranger(N_RANKS, N_SUITS, VALUES, ACE_LOW)
            keep("cold", statistics.median(cold), loop_mean(fresh.deadwood, hands))
            warm = per_call(arr.deadwood, hands, overhead)
            keep("warm", statistics.median(warm), loop_mean(arr.deadwood, hands))
            fresh = Arranger(N_RANKS, N_SUITS, VALUES, ACE_LOW)
            cleared = per_call(fresh.deadwood, hands, overhead, before=fresh.clear_cache)
            keep("cold/clr", statistics.median(cleared), statistics.mean(cleared))
            melded = [i for i, h in enumerate(hands) if arr.cover(h)]
            melds_cold = [cold[i] for i in melded]
            keep("melds", statistics.median(melds_cold), statistics.mean(melds_cold))

        for name in ("cold", "cold/clr", "warm", "melds"):
            med, mean = best[name]
            print(f"{size:>5} {name:<10} {us(med):>10} {us(mean):>10}")
        print(f"{size:>5} {len(melded) / len(hands):.1%} of hands hold at least one meld; "
              f"p99 cold {us(sorted(cold)[int(0.99 * len(cold))])} us")
        cold_med, cold_mean = best["cold"]

        for name, (convert, fn) in sorted(other.items()):
            converted = [convert(h) for h in hands]
            peer = per_call(fn, converted, overhead)
            mean = statistics.mean(peer)
            med = statistics.median(peer)
            # sanity check: the figures agree where the peer computes the same thing
            if size == 10 or name == "rlcard":
                bad = sum(1 for h, c in zip(hands[:500], converted[:500])
                          if fn(c) != arr.deadwood(h))
                agree = f"; disagreements on 500 hands: {bad}"
            else:
                agree = "; its 11-card value also drops the highest deadwood card"
            print(f"{size:>5} {name:<10} {us(med):>10} {us(mean):>10}   "
                  f"x{med / max(cold_med, 1):.1f} median, "
                  f"x{mean / max(cold_mean, 1):.1f} mean vs cold{agree}")
        print()


if __name__ == "__main__":
    main()
