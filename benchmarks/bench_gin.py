"""Gin Rummy speed, rulesdsl side by side with RLCard and OpenSpiel (random playouts).

Run:  python benchmarks/bench_gin.py [--hands 1000] [--seed 2024]
      python -m benchmarks.bench_gin   (from the repository root; same options)

Every system plays HANDS hands of Gin Rummy under its default rules, both seats choosing uniformly at
random among the legal actions (in --rounds interleaved rounds, after a few untimed warm-up hands),
and prints:

* hands per second, decisions per second and mean decisions per hand (a decision = one action chosen
  by a player and applied; chance events such as OpenSpiel's card deals are not decisions);
* how the hands ended, per system, so the figures can be judged for comparability;
* microseconds per minimum-deadwood call on random 10-card hands (median, cold: each hand seen once);
* cold-start wall time of ``rulesdsl validate gin_rummy`` and of ``python -c "import rulesdsl;
  rulesdsl.load('gin_rummy')"`` as subprocesses (median of 5 runs after one untimed run), beside
  the bare interpreter and the peers' equivalent "import and make the game" one-liners.

Ratios are printed as "rulesdsl/peer" of the figure in that row, with the plain reading beside it.
A peer that is not importable is reported as "not installed" and skipped; nothing is installed.
``--json PATH`` also writes the figures as JSON (``run_all.py`` uses it for its summary).

What a "hand" is, per system (all three end most random hands without a score):

* rulesdsl -- one deal played to its end: a knock (with the defender's layoffs), a gin, or a void
  hand when a turn ends with the stock at the floor of 2 cards.  The match is given a huge
  ``target_score`` so that it never ends; hands are counted in ``game.hand_log``.
* RLCard   -- one ``env.run(is_training=True)`` with two ``RandomAgent``: the dealer's opponent is
  dealt 11 cards and discards first (no upcard offer); gin is forced whenever it is possible; the
  hand is a "dead hand" when a player
  declares it with 2 cards left in the stock (or after 200 moves); two forced "score" actions
  close every hand and count as decisions (the agents choose them).  ``env.run`` also encodes a
  5x52 observation and the legal-action dict for every step; the "game core" row drives
  ``GinRummyGame`` directly (judge + step) without that layer.
* OpenSpiel -- one game of ``pyspiel.load_game("gin_rummy")``: knocking is its own action, followed
  by the discard and by laying melds one action each, then the defender's layoffs card by card
  and melds; at the wall (2 cards in the stock) the player may only take the upcard to knock, or
  pass, which ends the hand; the hand also ends when the same card is discarded back twice in a
  row, or after 50 upcard draws.  Chance outcomes (deals, stock draws) are sampled in Python.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks import bench_arrange  # noqa: E402  (also puts ROOT on sys.path)

import rulesdsl  # noqa: E402
from rulesdsl.bots.random_bot import play_out  # noqa: E402

HUGE_TARGET = 10 ** 9
WARMUP_HANDS = 5


# ------------------------------------------------------------------------------------------ helpers

def version_of(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return "?"


def speed_words(ratio: float) -> str:
    """A ratio of speeds (rulesdsl speed / peer speed) in words."""
    if ratio >= 1:
        return f"rulesdsl {ratio:.2f}x faster"
    return f"rulesdsl {1 / ratio:.2f}x slower"


# ------------------------------------------------------------------------------------------ playouts
# Each setup_*(seed) builds its system, plays a few untimed warm-up hands and returns run(n), which
# plays at least n more hands and returns (hands, decisions, Counter of endings).

def setup_rulesdsl(seed: int):
    """Public API: legal_actions() + apply(), uniformly random, one long match (huge target)."""
    rules = rulesdsl.load("gin_rummy", overrides={"target_score": HUGE_TARGET})
    rng = random.Random(seed)
    randrange = rng.randrange
    warm = rules.new_game(seed=seed + 1)
    game = rules.new_game(seed=seed)

    def play(g, n):
        log = g.hand_log
        goal = len(log) + n
        legal, apply = g.legal_actions, g.apply
        decisions = 0
        while len(log) < goal:
            actions = legal()
            apply(actions[randrange(len(actions))])
            decisions += 1
        return n, decisions, collections.Counter(h["ending"] for h in log[goal - n:])

    play(warm, WARMUP_HANDS)
    return lambda n: play(game, n)


def setup_rulesdsl_play_out(seed: int):
    """rulesdsl.bots.random_bot.play_out over whole default matches (target 100)."""
    rules = rulesdsl.load("gin_rummy")
    play_out(rules.new_game(seed=seed + 10 ** 6), seed + 10 ** 6)  # warm-up match
    next_seed = [seed]

    def run(n):
        done = decisions = 0
        endings = collections.Counter()
        while done < n:
            s = next_seed[0]
            next_seed[0] += 1
            game = rules.new_game(seed=s)
            decisions += play_out(game, s)
            done += len(game.hand_log)
            endings.update(h["ending"] for h in game.hand_log)
        return done, decisions, endings

    return run


def setup_rlcard_env(seed: int):
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    np.random.seed(seed)                      # RandomAgent draws from numpy's global RNG
    agent = RandomAgent(num_actions=env.num_actions)
    env.set_agents([agent, agent])

    def run(n):
        decisions = 0
        endings = collections.Counter()
        for _ in range(n):
            env.run(is_training=True)
            decisions += len(env.game.actions)
            endings[rlcard_ending(env.game)] += 1
        return n, decisions, endings

    run(WARMUP_HANDS)
    return run


def setup_rlcard_core(seed: int):
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame

    game = GinRummyGame()
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    randrange = rng.randrange

    def run(n):
        decisions = 0
        endings = collections.Counter()
        for _ in range(n):
            game.init_game()
            legal, step, over = game.judge.get_legal_actions, game.step, game.is_over
            while not over():
                actions = legal()
                step(actions[randrange(len(actions))])
                decisions += 1
            endings[rlcard_ending(game)] += 1
        return n, decisions, endings

    run(WARMUP_HANDS)
    return run


def rlcard_ending(game) -> str:
    from rlcard.games.gin_rummy.utils.action_event import (DeclareDeadHandAction, GinAction,
                                                           KnockAction)
    a = game.round.going_out_action
    if isinstance(a, GinAction):
        return "gin"
    if isinstance(a, KnockAction):
        return "knock"
    if isinstance(a, DeclareDeadHandAction):
        if len(game.round.dealer.stock_pile) <= game.settings.stockpile_dead_card_count:
            return "dead hand (stock at 2)"
        return "dead hand (move cap)"
    return f"other ({type(a).__name__})"


def setup_openspiel(seed: int):
    import pyspiel

    gr = getattr(pyspiel, "gin_rummy", None)           # the bindings of older versions lack it
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    randrange = rng.randrange
    PASS = getattr(gr, "PASS_ACTION", 54)
    DRAW_UPCARD = getattr(gr, "DRAW_UPCARD_ACTION", 52)
    wall = getattr(gr, "WALL_STOCK_SIZE", 2)

    def ending(state, last: int) -> str:
        knocked = list(state.knocked())
        if any(knocked):
            return "gin" if state.deadwood()[knocked.index(True)] == 0 else "knock"
        if last == PASS and state.stock_size() == wall:
            return "wall (pass at 2 cards)"
        if last == DRAW_UPCARD:
            return "upcard-draw cap"
        if 0 <= last < 52:                  # a discard: the same card went back twice in a row
            return "repeated discard"
        return f"other (last action {last})"

    def run(n):
        decisions = 0
        endings = collections.Counter()
        for _ in range(n):
            state = game.new_initial_state()
            is_terminal, is_chance = state.is_terminal, state.is_chance_node
            outcomes, legal, apply = state.chance_outcomes, state.legal_actions, state.apply_action
            a = -1
            while not is_terminal():
                if is_chance():
                    outs = outcomes()                 # uniform here: a card from the stock
                    a = outs[randrange(len(outs))][0]
                else:
                    actions = legal()
                    a = actions[randrange(len(actions))]
                    decisions += 1
                apply(a)
            endings[ending(state, a)] += 1
        return n, decisions, endings

    run(WARMUP_HANDS)
    return run


def measure(systems: list, hands: int, rounds: int, seed: int) -> dict:
    """Play HANDS hands per system in ROUNDS interleaved rounds (the order rotating each round), so
    that a change of load on the machine falls on every system alike; sums per system."""
    runners = {label: setup(seed) for label, setup in systems}
    totals = {label: [0, 0, 0.0, collections.Counter()] for label, _ in systems}
    labels = [label for label, _ in systems]
    per_round = [hands // rounds + (1 if i < hands % rounds else 0) for i in range(rounds)]
    for i, n in enumerate(per_round):
        if n == 0:
            continue
        order = labels[i % len(labels):] + labels[:i % len(labels)]
        for label in order:
            t = time.perf_counter()
            h, d, e = runners[label](n)
            dt = time.perf_counter() - t
            tot = totals[label]
            tot[0] += h
            tot[1] += d
            tot[2] += dt
            tot[3].update(e)
    out = {}
    for label, (h, d, dt, e) in totals.items():
        out[label] = dict(hands=h, decisions=d, seconds=dt, hands_per_s=h / dt,
                          decisions_per_s=d / dt, decisions_per_hand=d / h,
                          endings=dict(e.most_common()))
    return out


# ------------------------------------------------------------------------------------------ deadwood

def deadwood_figures(n: int, seed: int, repeat: int = 3) -> dict:
    """Median microseconds per cold 10-card deadwood call: {system: (median_us, note)}."""
    rules = rulesdsl.load("gin_rummy")
    engine_arr = rules.program().melds.arranger
    rebuild, args = engine_arr.__reduce__()             # the ruleset's own arranger configuration
    hands = bench_arrange.make_hands(n, 10, seed + 10)
    overhead = bench_arrange.timer_overhead()
    out = {}
    best = None
    for _ in range(repeat):
        fresh = rebuild(*args)                           # empty memo: every hand is new to it
        med = statistics.median(bench_arrange.per_call(fresh.deadwood, hands, overhead))
        best = med if best is None else min(best, med)
    out["rulesdsl"] = (best / 1000, "prog.melds.arranger.deadwood on a bit mask, fresh memo")
    check = rebuild(*args)
    for name, (convert, fn) in sorted(bench_arrange.peers().items()):
        converted = [convert(h) for h in hands]
        pbest = None
        for _ in range(repeat):
            med = statistics.median(bench_arrange.per_call(fn, converted, overhead))
            pbest = med if pbest is None else min(pbest, med)
        bad = sum(1 for h, c in zip(hands[:500], converted[:500]) if fn(c) != check.deadwood(h))
        what = ("melding.get_best_meld_clusters + utils.get_deadwood_count on Card objects"
                if name == "rlcard" else "pyspiel.gin_rummy.GinRummyUtils.min_deadwood on card ints")
        out[name] = (pbest / 1000, f"{what}; disagreements with rulesdsl on 500 hands: {bad}")
    return out


# ------------------------------------------------------------------------------------------ cold start

def cold_start(runs: int, have_rlcard: bool, have_openspiel: bool) -> list:
    """[(label, median seconds or None, note)] of subprocess wall times.

    Bytecode: the main figures let Python cache compiled modules (PYTHONPYCACHEPREFIX in a temporary
    folder, so nothing is written into the checkout; the untimed first run fills it), as a normal
    install does.  If the environment sets PYTHONDONTWRITEBYTECODE, the two rulesdsl commands are
    timed once more under it: then a checkout without __pycache__ recompiles rulesdsl every start."""
    base = dict(os.environ)
    base["PYTHONPATH"] = ROOT + (os.pathsep + base["PYTHONPATH"] if base.get("PYTHONPATH") else "")
    py = sys.executable
    script = os.path.join(os.path.dirname(py), "rulesdsl")
    if not os.path.exists(script):
        script = shutil.which("rulesdsl")
    if script:
        validate = ([script, "validate", "gin_rummy"], "rulesdsl validate gin_rummy", f"script {script}")
    else:
        validate = ([py, "-m", "rulesdsl.cli.main", "validate", "gin_rummy"],
                    "rulesdsl validate gin_rummy", "no `rulesdsl` script installed: ran python -m "
                    "rulesdsl.cli.main (pip install -e . to get the script)")
    load = ([py, "-c", "import rulesdsl; rulesdsl.load('gin_rummy')"],
            "python -c \"import rulesdsl; rulesdsl.load('gin_rummy')\"", "")
    commands = [
        ([py, "-c", "pass"], "python -c pass", "the interpreter alone, for reference"),
        validate,
        load,
        ([py, "-c", "import rlcard; rlcard.make('gin-rummy')"],
         "python -c \"import rlcard; rlcard.make('gin-rummy')\"", "peer, for reference"),
        ([py, "-c", "import pyspiel; pyspiel.load_game('gin_rummy')"],
         "python -c \"import pyspiel; pyspiel.load_game('gin_rummy')\"", "peer, for reference"),
    ]
    out = []
    with tempfile.TemporaryDirectory(prefix="bench_gin_pyc_") as prefix:
        cached = dict(base, PYTHONPYCACHEPREFIX=prefix)
        cached.pop("PYTHONDONTWRITEBYTECODE", None)
        plan = [(argv, label, note, cached) for argv, label, note in commands]
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            for argv, label, _note in (validate, load):
                plan.append((argv, label + " [PYTHONDONTWRITEBYTECODE=1]",
                             "as this environment runs it: no bytecode written or read from a "
                             "cache prefix; rulesdsl compiled from source unless its __pycache__ "
                             "exists", base))
        for argv, label, note, env in plan:
            if ("rlcard" in label and not have_rlcard) or ("pyspiel" in label and not have_openspiel):
                out.append((label, None, "not installed"))
                continue
            times = []
            err = None
            for i in range(runs + 1):                   # the first run is untimed (disk, .pyc)
                t = time.perf_counter()
                r = subprocess.run(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
                dt = time.perf_counter() - t
                if r.returncode != 0:
                    err = (r.stderr.strip().splitlines() or ["?"])[-1]
                    break
                if i:
                    times.append(dt)
            if err is None:
                out.append((label, statistics.median(times), note))
            else:
                out.append((label, None, f"failed: {err}"))
    return out


# ------------------------------------------------------------------------------------------ main

def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=1000, help="hands per system (default 1000)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds the hands are split into (default 3)")
    ap.add_argument("--arrange-n", type=int, default=10000,
                    help="random 10-card hands for the deadwood figures (default 10000)")
    ap.add_argument("--cold-runs", type=int, default=5, help="timed runs per cold-start command")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-start subprocesses")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = ap.parse_args(argv)

    have_rlcard = have_openspiel = True
    try:
        import rlcard  # noqa: F401
    except Exception:
        have_rlcard = False
    try:
        import pyspiel  # noqa: F401
    except Exception:
        have_openspiel = False

    versions = {"rulesdsl": rulesdsl.__version__,
                "rlcard": version_of("rlcard") if have_rlcard else "not installed",
                "open-spiel": version_of("open-spiel") if have_openspiel else "not installed"}
    print(f"Gin Rummy, random playouts: {args.hands} hands per system, seed {args.seed}")
    print(f"python {platform.python_version()} on {platform.machine()} {sys.platform}, "
          f"{os.cpu_count()} cpus; " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    print()

    # ---- playouts
    systems = [("rulesdsl", setup_rulesdsl, True),
               ("rulesdsl play_out", setup_rulesdsl_play_out, True),
               ("RLCard env.run", setup_rlcard_env, have_rlcard),
               ("RLCard game core", setup_rlcard_core, have_rlcard),
               ("OpenSpiel", setup_openspiel, have_openspiel)]
    results = measure([(label, setup) for label, setup, present in systems if present],
                      args.hands, max(1, args.rounds), args.seed)
    for label, _setup, present in systems:
        results.setdefault(label, None)

    base = results["rulesdsl"]
    print("Playouts (uniformly random legal actions, default rules)")
    print(f"  {'system':<20} {'hands':>6} {'decisions':>10} {'seconds':>8} {'hands/s':>9} "
          f"{'decisions/s':>12} {'dec/hand':>9}   rulesdsl/peer (hands/s; decisions/s)")
    for label, _setup, _present in systems:
        r = results[label]
        if r is None:
            print(f"  {label:<20} not installed")
            continue
        line = (f"  {label:<20} {r['hands']:>6} {r['decisions']:>10,} {r['seconds']:>8.2f} "
                f"{r['hands_per_s']:>9,.0f} {r['decisions_per_s']:>12,.0f} "
                f"{r['decisions_per_hand']:>9.1f}")
        if label.startswith("rulesdsl"):
            if label != "rulesdsl":
                line += "   (rulesdsl's own random bot, whole matches to 100 points)"
        else:
            rh = base["hands_per_s"] / r["hands_per_s"]
            rd = base["decisions_per_s"] / r["decisions_per_s"]
            r["ratio_hands"], r["ratio_decisions"] = rh, rd
            line += f"   x{rh:.2f}; x{rd:.2f}  ({speed_words(rh)} per hand)"
        print(line)
    print("  rows 'rulesdsl' use the public API: game.legal_actions() + game.apply(); the ratios "
          "compare that row.")
    print()

    print("How the hands ended")
    for label, _setup, _present in systems:
        r = results[label]
        if r is None:
            print(f"  {label:<20} not installed")
            continue
        total = r["hands"]
        parts = ", ".join(f"{k} {v} ({100 * v / total:.1f}%)" for k, v in r["endings"].items())
        print(f"  {label:<20} {parts}")
    print()

    # ---- deadwood
    dw = deadwood_figures(args.arrange_n, args.seed)
    print(f"Minimum deadwood of a random 10-card hand ({args.arrange_n} distinct hands, each seen "
          "once; median of per-call times, best of 3)")
    base_us = dw["rulesdsl"][0]
    print(f"  {'system':<20} {'median us':>10}   rulesdsl/peer")
    print(f"  {'rulesdsl':<20} {base_us:>10.3f}   -  ({dw['rulesdsl'][1]})")
    for name, present in (("rlcard", have_rlcard), ("openspiel", have_openspiel)):
        label = {"rlcard": "RLCard", "openspiel": "OpenSpiel"}[name]
        if not present:
            print(f"  {label:<20} not installed")
            continue
        if name not in dw:
            print(f"  {label:<20} no deadwood function exposed by this version")
            continue
        us, note = dw[name]
        ratio = base_us / us
        print(f"  {label:<20} {us:>10.3f}   x{ratio:.2f}  ({speed_words(1 / ratio)}; {note})")
    print()

    # ---- cold start
    cold = []
    if not args.no_cold:
        cold = cold_start(args.cold_runs, have_rlcard, have_openspiel)
        print(f"Cold start, wall time of a subprocess (median of {args.cold_runs} runs after one "
              "untimed run; bytecode cached unless marked)")
        for label, secs, note in cold:
            fig = f"{secs * 1000:8.0f} ms" if secs is not None else f"{'-':>8}   "
            print(f"  {fig}  {label}" + (f"   [{note}]" if note else ""))
        print()

    print("Notes for reading the figures")
    for line in NOTES:
        print("  - " + line)

    figures = {"args": vars(args), "versions": versions, "playouts": results,
               "deadwood_us": {k: v[0] for k, v in dw.items()},
               "cold_start_s": {label: secs for label, secs, _ in cold}}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=2)
    return figures


NOTES = [
    "a 'hand' is one deal played to its end in each system; see the endings above. Under random "
    "play most hands end without a score (void / dead hand / wall), so hands/s mostly measures "
    "drawing and discarding; the knock path (arrangement, layoffs, scoring) is rare in all three.",
    "decisions differ in grain: rulesdsl's knock names its discard ('knock 7H') and the defender's "
    "layoffs end with 'done'; OpenSpiel knocks, discards and lays each meld as separate actions; "
    "RLCard forces gin when possible and closes every hand with two forced score actions. When a "
    "knock is possible a random player picks it more often in rulesdsl and RLCard (one knock "
    "action per eligible discard) than in OpenSpiel (one knock action among ~11 discards).",
    "rulesdsl voids a hand when a turn ends with 2 cards in the stock; RLCard offers 'declare dead "
    "hand' or taking the discard at 2 cards; OpenSpiel lets the player at the wall take the upcard "
    "only to knock, else the hand ends. Its repeated-discard and 50-upcard-draw rules end a few "
    "more hands early.",
    "RLCard env.run encodes a 5x52 numpy observation and the legal-action dict (twice) per step and "
    "records trajectories: that is the interface its users call (run with is_training=True, so "
    "RandomAgent.step picks with numpy and skips eval_step's probability table); the 'game core' "
    "row drives GinRummyGame directly with Python's random. OpenSpiel is C++ behind pybind11 and "
    "also keeps both players' action-observation histories (an observation string per action); "
    "its card deals are chance nodes sampled from Python and are not counted as decisions.",
    "rulesdsl keeps its arranger memo across hands within a process (a design feature for "
    "simulation); the deadwood row starts from an empty memo and sees each hand once.",
    "wall clock, garbage collector on, one process; the hands are played in interleaved rounds "
    "(--rounds) so that a change of load hits every system alike. Setup and warm-up hands are not "
    "timed. On a shared 2-core machine expect +-10% or more between runs: compare ratios, not "
    "single figures.",
]


if __name__ == "__main__":
    main()
