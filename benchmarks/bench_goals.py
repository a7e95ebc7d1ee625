"""Issue 11's speed goals, each measured side by side in one run and printed beside its target.

Run:  python benchmarks/bench_goals.py [--seconds 4] [--rounds 3] [--base f11127e] [--skip-peers]

* **Gin Rummy** random playouts, decisions/s, against OpenSpiel's C++ game driven from Python and
  RLCard's game core (``bench_gin.py``'s setups, interleaved rounds): target x2 each.
* **Rummy 500** (2, 4, 6 players) and **Hand and Foot** hands/s against this code as it was before the
  speed work (``--base``, a temporary ``git worktree``), both in subprocesses, interleaved: target x5.
  **President** (4, 5, 7 players) deals/s the same way: target x2.  Every other bundled game is shown
  too, without a target.
* ``legal_actions()`` latency per game (``bench_legal.py``'s measure): target p99 < 5 ms, max < 50 ms.
* ``game.clone()`` per second on a Gin position mid-hand (target 20,000/s), and for every bundled game.
* Cold start: ``rulesdsl validate gin_rummy`` and ``import rulesdsl; rulesdsl.load('gin_rummy')`` as
  subprocesses, median of runs: target 100 ms; ``python -c pass`` is shown for scale.

The machine's speed drifts with its load: the ratios, measured side by side, are the figures to read.
Nothing here is a test; tests never assert on wall time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

#: the commit before issue 11's speed work: the figures' "today"
BASELINE = "f11127e"

PLAYOUTS = [  # (label, ruleset, players, target ratio against the baseline or None)
    ("Rummy 500, 2 players", "rummy_500", 2, 5.0),
    ("Rummy 500, 4 players", "rummy_500", 4, 5.0),
    ("Rummy 500, 6 players", "rummy_500", 6, 5.0),
    ("Hand and Foot", "hand_and_foot", 4, 5.0),
    ("President, 4 players", "president", 4, 2.0),
    ("President, 5 players", "president", 5, 2.0),
    ("President, 7 players", "president", 7, 2.0),
    ("Gin Rummy", "gin_rummy", 2, None),
    ("Big Two, 4 players", "big_two", 4, None),
    ("Crazy Eights, 4 players", "crazy_eights", 4, None),
    ("Contract Rummy, 4 players", "contract_rummy", 4, None),
]

PLAYER = r"""
import random, sys, time
import rulesdsl
name, n, secs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rules = rulesdsl.load(name)
rules.new_game(seed=0, players=n)                        # warm-up: compile for this player count
hands = dec = m = 0
clock = time.perf_counter
t = clock()
end = t + secs
while clock() < end:                  # matches played in turn; the last one stops when time is up
    g = rules.new_game(seed=m, players=n)
    rng = random.Random(m)
    while not g.is_over and (dec & 63 or clock() < end):
        a = g.legal_actions()
        g.apply(a[rng.randrange(len(a))])
        dec += 1
    hands += len(g.hand_log)          # the hands finished, in a match finished or not
    m += 1
dt = clock() - t
print(hands / dt, dec / dt)
"""


def playout_rate(tree: str, name: str, n: int, seconds: float) -> tuple:
    """(hands/s, decisions/s) of random matches for ``seconds``, in a fresh process importing ``tree``
    (the hands finished count, including those of a match the time cut short)."""
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", PLAYER, name, str(n), str(seconds)], cwd=tree, env=env,
                         capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    h, d = out.stdout.split()
    return float(h), float(d)


def against_baseline(base: str, old_tree: str, seconds: float, rounds: int) -> None:
    print(f"\nRandom playouts: this checkout against {base} (before the speed work), "
          f"{rounds} interleaved rounds of {seconds:g} s each")
    print(f"  {'game':28} {'hands/s then':>13} {'hands/s now':>12} {'ratio':>7} {'target':>7}  met"
          f"   {'decisions/s then':>17} {'now':>8} {'ratio':>7}")
    for label, name, n, target in PLAYOUTS:
        old, new = [], []
        for r in range(rounds):
            order = [(old_tree, old), (ROOT, new)]
            for tree, into in (order if r % 2 == 0 else order[::-1]):
                into.append(playout_rate(tree, name, n, seconds))
        o, w = statistics.median(x[0] for x in old), statistics.median(x[0] for x in new)
        od, wd = statistics.median(x[1] for x in old), statistics.median(x[1] for x in new)
        ratio = w / o if o else float("nan")
        goal = f"x{target:g}" if target else ""
        met = ("yes" if ratio >= target else "no") if target else ""
        print(f"  {label:28} {o:>13.1f} {w:>12.1f} {'x%.2f' % ratio:>7} {goal:>7}  {met:3}"
              f"   {od:>17,.0f} {wd:>8,.0f} {'x%.2f' % (wd / od):>7}", flush=True)


def gin_against_peers(seconds: float, rounds: int) -> None:
    import bench_gin
    systems = [("rulesdsl", bench_gin.setup_rulesdsl)]
    for label, setup in (("RLCard game core", bench_gin.setup_rlcard_core),
                         ("OpenSpiel", bench_gin.setup_openspiel)):
        try:
            systems.append((label, setup))
            setup(1)
        except Exception as exc:         # a peer that is not installed
            systems.pop()
            print(f"  {label}: not installed ({type(exc).__name__})")
    hands = max(100, int(seconds * 120))
    res = bench_gin.measure(systems, hands, rounds, 2024)
    ours = res["rulesdsl"]["decisions"] / res["rulesdsl"]["seconds"]
    print(f"\nGin Rummy random playouts ({hands} hands each, {rounds} interleaved rounds)")
    print(f"  {'system':20} {'decisions/s':>12} {'rulesdsl/peer':>14} {'target':>7}  met")
    print(f"  {'rulesdsl':20} {ours:>12,.0f}")
    for label, _ in systems[1:]:
        theirs = res[label]["decisions"] / res[label]["seconds"]
        ratio = ours / theirs
        print(f"  {label:20} {theirs:>12,.0f} {'x%.2f' % ratio:>14} {'x2':>7}  {'yes' if ratio >= 2 else 'no'}")


def latency(seconds: float) -> None:
    import bench_legal
    print(f"\nlegal_actions() latency, random play, {seconds:g} s per game (target p99 < 5 ms, max < 50 ms)")
    print(f"  {'game':28} {'calls':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  met")
    for label, name, n, _target in PLAYOUTS:
        r = bench_legal.measure(name, n, seconds, 1)
        met = "yes" if r["p99"] < 0.005 and r["max"] < 0.050 else "no"
        print(f"  {label:28} {r['calls']:>8} {1e3 * r['p50']:>8.3f} {1e3 * r['p99']:>8.3f} "
              f"{1e3 * r['max']:>8.2f}  {met}", flush=True)


def clones(seconds: float) -> None:
    print(f"\ngame.clone() per second, a position 40 random moves into the first hand (target: Gin 20,000/s)")
    print(f"  {'game':28} {'clones/s':>10}  met")
    from bench_search import position
    for label, name, n, _target in PLAYOUTS:
        g = position(name, n)
        done, t = 0, time.perf_counter()
        while time.perf_counter() - t < seconds / 4:
            for _ in range(100):
                g.clone()
            done += 100
        rate = done / (time.perf_counter() - t)
        met = ("yes" if rate >= 20_000 else "no") if name == "gin_rummy" else ""
        print(f"  {label:28} {rate:>10,.0f}  {met}", flush=True)


def cold(runs: int, base_tree: str) -> None:
    """Median wall time of fresh processes, with bytecode caching on (a temporary pycache), for this
    checkout and the baseline, interleaved.  The CLI is run as ``python -m rulesdsl.cli.main`` so
    that both trees are timed the same way (an installed ``rulesdsl`` script adds nothing to it)."""
    print(f"\nCold start, median of {runs} runs after one untimed run, against the baseline (target < 100 ms)")
    print(f"  {'command':36} {'then ms':>8} {'now ms':>8} {'ratio':>7}  met")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        cmds = [("python -c pass (for scale)", ["-c", "pass"], False),
                ("rulesdsl validate gin_rummy", ["-m", "rulesdsl.cli.main", "validate", "gin_rummy"], True),
                ("import rulesdsl; load('gin_rummy')",
                 ["-c", "import rulesdsl; rulesdsl.load('gin_rummy')"], True)]
        for label, args, target in cmds:
            times: dict = {base_tree: [], ROOT: []}
            for tree in times:
                subprocess.run([sys.executable, *args], env=dict(env, PYTHONPATH=tree), cwd=tree,
                               capture_output=True)
            for i in range(runs):
                for tree in (base_tree, ROOT) if i % 2 == 0 else (ROOT, base_tree):
                    t = time.perf_counter()
                    subprocess.run([sys.executable, *args], env=dict(env, PYTHONPATH=tree), cwd=tree,
                                   capture_output=True)
                    times[tree].append(time.perf_counter() - t)
            then, now = (1e3 * statistics.median(times[t]) for t in (base_tree, ROOT))
            met = ("yes" if now < 100 else "no") if target else ""
            print(f"  {label:36} {then:>8.0f} {now:>8.0f} {'x%.2f' % (now / then):>7}  {met}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds for side-by-side figures")
    ap.add_argument("--base", default=BASELINE, help="the commit the x5 / x2 goals compare with")
    ap.add_argument("--cold-runs", type=int, default=9)
    ap.add_argument("--skip-peers", action="store_true", help="no OpenSpiel / RLCard comparison")
    args = ap.parse_args()
    import platform
    print(f"Issue 11 speed goals; Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = os.path.join(tmp, "base")
        subprocess.run(["git", "worktree", "add", "--detach", "-q", old_tree, args.base], cwd=ROOT, check=True)
        try:
            cold(args.cold_runs, old_tree)
            clones(args.seconds)
            if not args.skip_peers:
                gin_against_peers(args.seconds, args.rounds)
            against_baseline(args.base, old_tree, args.seconds, args.rounds)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", old_tree], cwd=ROOT)
    latency(args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
