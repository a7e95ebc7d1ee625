"""Gin Rummy through the game-library faces: rulesdsl's OpenSpiel game (and PettingZoo environment)
against the engine's own API, OpenSpiel's hand-coded C++ gin_rummy and RLCard's Gin.

Run:  python benchmarks/bench_faces.py [--hands 200] [--seed 2024] [--json PATH]

Every system plays HANDS hands (one deal each) with every seat choosing uniformly at random among the
legal actions, in interleaved rounds (bench_gin's ``measure``).  Two rows per face:

* "steps": legal actions + apply only;
* "+ obs": also the observation tensor of the player on turn before each decision, as a learning loop
  reads it (for RLCard, ``env.run`` encodes its 5x52 observation at every step anyway).

A *decision* is one number chosen by a player: in rulesdsl's faces a meld or a multi-card play takes
one decision per card and one to commit, so decisions per hand differ from the engine's actions per
hand (Gin's random hands rarely meld; the figures say how many).  Chance events (OpenSpiel's deals)
are not decisions, but their time counts.  A peer that is not installed is reported and skipped.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from benchmarks.bench_gin import (measure, setup_openspiel, setup_rlcard_core,  # noqa: E402
                                  setup_rlcard_env, speed_words, version_of)

import rulesdsl  # noqa: E402

WARMUP_HANDS = 3


def setup_engine(seed: int):
    """The engine's API: one deal per game (a fresh game per hand), legal_actions() + apply()."""
    rules = rulesdsl.load("gin_rummy")
    rng = random.Random(seed)
    next_seed = [seed]

    def run(n):
        decisions = 0
        endings = collections.Counter()
        for _ in range(n):
            game = rules.new_game(seed=next_seed[0])
            next_seed[0] += 1
            legal, apply = game.legal_actions, game.apply
            while game.hand_number == 1 and not game.is_over:
                actions = legal()
                apply(actions[rng.randrange(len(actions))])
                decisions += 1
            endings[game.hand_log[0]["ending"]] += 1
        return n, decisions, endings

    run(WARMUP_HANDS)
    return run


def _spiel_loop(game, seed: int, with_obs: bool, ending):
    """OpenSpiel's own loop over ``game``: chance sampled, each decision random among the legal ones
    (reading the observation tensor first when ``with_obs``); ``ending(state)`` names how it ended."""
    rng = random.Random(seed)

    def run(n):
        decisions = 0
        endings = collections.Counter()
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outs = state.chance_outcomes()
                    state.apply_action(outs[rng.randrange(len(outs))][0])
                    continue
                if with_obs:
                    state.observation_tensor(state.current_player())
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
            endings[ending(state)] += 1
        return n, decisions, endings

    run(WARMUP_HANDS)
    return run


def _openspiel_face(seed: int, with_obs: bool):
    import pyspiel
    import rulesdsl.openspiel  # noqa: F401 -- registers "rulesdsl"

    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "deals": 1})
    return _spiel_loop(game, seed, with_obs, lambda state: state._d.game.hand_log[0]["ending"])


def _pettingzoo_face(seed: int, with_obs: bool):
    """The AEC loop: ``last()`` (observation and mask, or only the flags) then ``step``."""
    import numpy as np
    from rulesdsl.pettingzoo import raw_env

    env = raw_env("gin_rummy", deals=1)
    rng = random.Random(seed)
    next_seed = [seed]

    def run(n):
        decisions = 0
        endings = collections.Counter()
        for _ in range(n):
            env.reset(seed=next_seed[0])
            next_seed[0] += 1
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last(observe=with_obs)
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"]) if with_obs else env.decisions.legal()
                env.step(legal[rng.randrange(len(legal))])
                decisions += 1
            endings[env.game.hand_log[0]["ending"] if env.game.hand_log else "cut"] += 1
        return n, decisions, endings

    run(WARMUP_HANDS)
    return run


def _openspiel_cpp_with_obs(seed: int):
    import pyspiel

    return _spiel_loop(pyspiel.load_game("gin_rummy"), seed, True, lambda state: "deal")


def _available(module: str) -> bool:
    try:
        __import__(module)
        return True
    except Exception:
        return False


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200, help="hands per system (default 200)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = ap.parse_args(argv)

    spiel, zoo, rlc = _available("pyspiel"), _available("pettingzoo"), _available("rlcard")
    systems = [
        ("engine game.apply", setup_engine, True),
        ("rulesdsl OpenSpiel steps", lambda s: _openspiel_face(s, False), spiel),
        ("rulesdsl OpenSpiel + obs", lambda s: _openspiel_face(s, True), spiel),
        ("rulesdsl PettingZoo steps", lambda s: _pettingzoo_face(s, False), zoo and _available("rulesdsl.pettingzoo")),
        ("rulesdsl PettingZoo + obs", lambda s: _pettingzoo_face(s, True), zoo and _available("rulesdsl.pettingzoo")),
        ("OpenSpiel C++ gin steps", setup_openspiel, spiel),
        ("OpenSpiel C++ gin + obs", _openspiel_cpp_with_obs, spiel),
        ("RLCard env.run (+ obs)", setup_rlcard_env, rlc),
        ("RLCard game core", setup_rlcard_core, rlc),
    ]
    print(f"Gin Rummy through game-library faces: {args.hands} hands per system, seed {args.seed}")
    print(f"python {platform.python_version()} on {platform.machine()} {sys.platform}, {os.cpu_count()} cpus; "
          f"rulesdsl {rulesdsl.__version__}, open-spiel {version_of('open-spiel') if spiel else 'not installed'}, "
          f"pettingzoo {version_of('pettingzoo') if zoo else 'not installed'}, "
          f"rlcard {version_of('rlcard') if rlc else 'not installed'}")
    print()
    results = measure([(label, setup) for label, setup, ok in systems if ok], args.hands,
                      max(1, args.rounds), args.seed)
    base = results["engine game.apply"]
    print(f"  {'system':<28} {'hands':>6} {'decisions':>10} {'hands/s':>9} {'decisions/s':>12} {'dec/hand':>9}"
          "   hands/s against the engine")
    for label, _, ok in systems:
        r = results.get(label)
        if not ok or r is None:
            print(f"  {label:<28} not installed")
            continue
        ratio = r["hands_per_s"] / base["hands_per_s"]
        r["ratio_to_engine"] = ratio
        print(f"  {label:<28} {r['hands']:>6} {r['decisions']:>10,} {r['hands_per_s']:>9,.1f} "
              f"{r['decisions_per_s']:>12,.0f} {r['decisions_per_hand']:>9.1f}   x{ratio:.2f}")
    for mine, peer in (("rulesdsl OpenSpiel + obs", "OpenSpiel C++ gin + obs"),
                       ("rulesdsl PettingZoo + obs", "RLCard env.run (+ obs)")):
        if mine in results and peer in results:
            ratio = results[mine]["hands_per_s"] / results[peer]["hands_per_s"]
            print(f"  {mine} against {peer}: {speed_words(ratio)} per hand")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2, default=str)
    return results


if __name__ == "__main__":
    main()
