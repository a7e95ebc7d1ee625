"""Every ruleset as a PettingZoo AEC environment (extra ``[pettingzoo]``).

    import rulesdsl.pettingzoo
    env = rulesdsl.pettingzoo.env("my_game.rules", deals=1, some_param=5)   # a bundled name, or a path
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

``env(...)`` is ``raw_env(...)`` inside PettingZoo's usual wrappers; the numbering of actions and the
observation tensor are ``rulesdsl.encoding``'s, shared with the OpenSpiel face (docs/encoding.md).
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by test_packaging without the extra
    raise ImportError("rulesdsl.pettingzoo needs PettingZoo: pip install 'rulesdsl[pettingzoo]'") from exc

from .env import IllegalActionNumber, RulesEnv, env, raw_env

__all__ = ["env", "raw_env", "RulesEnv", "IllegalActionNumber"]
