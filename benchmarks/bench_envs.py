"""Speed of the PettingZoo face against the engine's own API, for every bundled game.

Run:  python benchmarks/bench_envs.py [--seconds 3] [--seed 1] [--games gin_rummy,president]

Both sides play whole deals (one deal per game: ``deals=1``; a deal is cut short after ``MAX_ACTIONS``
engine actions on both sides) with uniformly random legal choices:

* **engine**: ``game.legal_actions()`` + ``game.apply`` -- one step is one engine action;
* **pettingzoo**: ``env.last()`` (the observation tensor and the mask) + ``env.step(n)`` with ``n``
  drawn from the mask -- one step is one decision, and a meld or a multi-card play takes one decision
  per card plus its commit, so the env also reports engine actions per second (the same unit as the
  engine's column) and decisions per engine action.

Figures are for this machine and this Python; nothing asserts on them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings

import numpy as np

#: engine actions before a deal is cut short, on both sides (the env's own bound for ``deals=1``)
MAX_ACTIONS = 2000

GAMES = ["gin_rummy", "president", "rummy_500", "hand_and_foot", "big_two", "crazy_eights", "contract_rummy"]


def measure_engine(name: str, seconds: float, seed: int) -> dict:
    import rulesdsl
    rules = rulesdsl.load(name)
    actions = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = rules.new_game(seed=seed + deals)
        rng = random.Random(seed + deals)
        played = 0
        while not game.is_over and game.hand_number == 1 and played < MAX_ACTIONS:
            played += 1
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            actions += 1
        deals += 1
    dt = time.perf_counter() - start
    return {"deals": deals, "actions": actions, "seconds": dt}


def measure_env(name: str, seconds: float, seed: int) -> dict:
    import rulesdsl.pettingzoo as pz
    env = pz.env(name, deals=1, max_actions=MAX_ACTIONS)
    steps = actions = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + deals)
        rng = np.random.default_rng(seed + deals)
        for _ in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        actions += len(env.unwrapped.game.history)
        deals += 1
    dt = time.perf_counter() - start
    return {"deals": deals, "steps": steps, "actions": actions, "seconds": dt}


def row(name: str, seconds: float, seed: int) -> dict:
    engine = measure_engine(name, seconds, seed)
    env = measure_env(name, seconds, seed)
    engine_aps = engine["actions"] / engine["seconds"]
    env_aps = env["actions"] / env["seconds"]
    return {
        "game": name,
        "engine_actions_per_s": engine_aps,
        "engine_deals_per_s": engine["deals"] / engine["seconds"],
        "env_steps_per_s": env["steps"] / env["seconds"],
        "env_actions_per_s": env_aps,
        "env_deals_per_s": env["deals"] / env["seconds"],
        "steps_per_action": env["steps"] / max(1, env["actions"]),
        "env_over_engine": env_aps / engine_aps,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per game and side")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated bundled names")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rows = []
    for g in filter(None, (x.strip() for x in args.games.split(","))):
        rows.append(row(g, args.seconds, args.seed))
        if not args.json:
            print(f"  measured {g}", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("Random play of one deal per game: the engine's API against the PettingZoo env (last + step)")
    print(f"  {'game':16} {'engine act/s':>12} {'env steps/s':>12} {'env act/s':>10} {'steps/act':>9} "
          f"{'env/engine':>10} {'engine deals/s':>14} {'env deals/s':>11}")
    for r in rows:
        print(f"  {r['game']:16} {r['engine_actions_per_s']:12,.0f} {r['env_steps_per_s']:12,.0f} "
              f"{r['env_actions_per_s']:10,.0f} {r['steps_per_action']:9.2f} {r['env_over_engine']:10.2f} "
              f"{r['engine_deals_per_s']:14.1f} {r['env_deals_per_s']:11.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
