"""Train a tiny policy on a house-rule variant through the PettingZoo environment (numpy only).

A linear softmax policy over the ruleset's action numbers (logits ``W @ x``, illegal numbers masked
out) learns by REINFORCE -- the return of each game, minus a running baseline, times the gradient of
the log-probability of each number it chose -- playing against a uniformly random opponent.  Then
the trained and the untrained policy (all-zero weights: uniform over the legal numbers) are each
evaluated against the same opponent, seats alternating.  See docs/training.md.

    python examples/train_reinforce.py [--episodes 800] [--eval-games 500] [--lr 0.5] [--seed 0]

Nothing here knows the game: the ruleset, its players and the environment's spaces decide everything.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Optional

import numpy as np

#: a small, fast house rule: Crazy Eights where a player draws at most three cards, then passes
RULESET = "variants/crazy_eights_draw_three"


class LinearPolicy:
    """Softmax over the legal action numbers of ``W @ x`` (``x``: the scaled observation and a 1)."""

    def __init__(self, n_features: int, n_actions: int):
        self.w = np.zeros((n_actions, n_features + 1))

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.w @ x
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def choose(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        p = self.probabilities(x, mask)
        return int(rng.choice(len(p), p=p))

    def gradient(self, steps: list) -> np.ndarray:
        """Sum over a game's steps of the gradient of log pi(a | x) (one row per legal number)."""
        g = np.zeros_like(self.w)
        for x, mask, a in steps:
            p = self.probabilities(x, mask)
            p[a] -= 1.0
            g -= np.outer(p, x)
        return g


def feature_scale(env) -> np.ndarray:
    """Divide each element by its space's upper bound where it is finite (card counts, flags)."""
    high = env.observation_space(env.possible_agents[0])["observation"].high.astype(np.float64)
    return np.where(np.isfinite(high) & (high > 0), high, 1.0)


def features(obs: dict, scale: np.ndarray) -> np.ndarray:
    return np.append(obs["observation"] / scale, 1.0)


def random_number(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_game(env, policy: LinearPolicy, learner: str, seed: int, rng: np.random.Generator,
              scale: np.ndarray) -> tuple:
    """One game: ``learner`` plays ``policy``, every other agent random.  Returns the learner's
    reward and its steps ``(x, mask, number)``."""
    env.reset(seed=seed)
    steps, reward = [], 0.0
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if agent == learner:
                reward = float(r)
            env.step(None)
            continue
        if agent == learner:
            x = features(obs, scale)
            number = policy.choose(x, obs["action_mask"], rng)
            steps.append((x, obs["action_mask"], number))
        else:
            number = random_number(obs["action_mask"], rng)
        env.step(number)
    return reward, steps


def train(env, policy: LinearPolicy, episodes: int, lr: float, rng: np.random.Generator,
          scale: np.ndarray, seed: int) -> dict:
    """REINFORCE with a running-mean baseline; the learner's seat turns with each game."""
    agents = env.possible_agents
    baseline, steps_taken = 0.0, 0
    for episode in range(episodes):
        learner = agents[episode % len(agents)]
        reward, steps = play_game(env, policy, learner, seed + episode, rng, scale)
        steps_taken += len(steps)
        if steps:
            policy.w += lr * (reward - baseline) * policy.gradient(steps) / len(steps)
        baseline += 0.02 * (reward - baseline)
    return {"episodes": episodes, "learner_steps": steps_taken}


def evaluate(env, policy: LinearPolicy, games: int, rng: np.random.Generator, scale: np.ndarray,
             seed: int) -> dict:
    """Win rate (return > 0) and mean return of ``policy`` against random, seats alternating."""
    agents = env.possible_agents
    rewards = [play_game(env, policy, agents[g % len(agents)], seed + g, rng, scale)[0] for g in range(games)]
    return {"games": games, "win_rate": float(np.mean([r > 0 for r in rewards])),
            "mean_return": float(np.mean(rewards))}


def run(ruleset: str = RULESET, players: int = 2, episodes: int = 800, eval_games: int = 500,
        lr: float = 0.5, seed: int = 0) -> dict:
    """Train, evaluate untrained and trained policies; the report as a dict."""
    import rulesdsl.pettingzoo as pz
    started = time.perf_counter()
    env = pz.env(ruleset, players=players, deals=1)
    env.reset(seed=seed)
    agent = env.possible_agents[0]
    n_features = int(env.observation_space(agent)["observation"].shape[0])
    n_actions = int(env.action_space(agent).n)
    scale = feature_scale(env)
    rng = np.random.default_rng(seed)
    policy = LinearPolicy(n_features, n_actions)
    eval_seed = 10**9 + seed          # evaluation deals differ from training deals
    untrained = evaluate(env, policy, eval_games, rng, scale, eval_seed)
    trained_on = train(env, policy, episodes, lr, rng, scale, seed)
    trained = evaluate(env, policy, eval_games, rng, scale, eval_seed)
    return {
        "ruleset": ruleset, "players": players, "actions": n_actions, "features": n_features,
        **trained_on, "lr": lr, "untrained": untrained, "trained": trained,
        "weight_norm": float(np.linalg.norm(policy.w)), "seconds": round(time.perf_counter() - started, 2),
    }


def main(argv: Optional[list] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=RULESET)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--episodes", type=int, default=800)
    ap.add_argument("--eval-games", type=int, default=500)
    ap.add_argument("--lr", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    report = run(args.ruleset, args.players, args.episodes, args.eval_games, args.lr, args.seed)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{report['ruleset']} ({report['players']} players): {report['actions']} action numbers, "
          f"{report['features']} observation features")
    print(f"trained {report['episodes']} games ({report['learner_steps']} learner steps) in {report['seconds']} s")
    for name in ("untrained", "trained"):
        r = report[name]
        print(f"{name:9s} vs random: win rate {r['win_rate']:.3f}, mean return {r['mean_return']:+.3f} "
              f"over {r['games']} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
