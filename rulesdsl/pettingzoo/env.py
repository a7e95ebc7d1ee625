"""Any ruleset as a PettingZoo AEC environment.

* **Agents** are ``player_0 .. player_{n-1}``, one per seat; the agent selected is always the seat the
  engine has on turn, so a factored action (several numbers: the cards of a meld, then its commit) is
  several steps of the same agent in a row.
* **Actions** are the numbers of ``rulesdsl.encoding`` (``Discrete(size)``, the same for every agent);
  the ``action_mask`` of an observation marks ``Decisions.legal()`` for the agent on turn and is all
  zeros for everyone else, so sampling from the mask can only ever reach the engine's legal actions.
* **Observations** are ``{"observation": float32 tensor, "action_mask": int8}``, the tensor filled from
  ``game.view(seat)`` alone, so it cannot hold a card the seat may not see.
* **Chance** is the engine's own seeded shuffle: ``reset(seed=s)`` starts ``rules.new_game(seed=s)``
  (no seed: an unpredictable one), so a seed fixes the whole trajectory for given actions.
* **Rewards** come once, when the game ends: ``seat_returns`` (``win`` or ``score``), zero-sum.
  **Termination** at the end of the match, or after ``deals`` deals when asked (judged by the totals
  so far, as the OpenSpiel face does); **truncation** once ``max_actions`` engine actions are played.
* **Illegal numbers** raise ``IllegalActionNumber`` (an ``IllegalAction``) and change nothing, rather
  than ending the game: an agent that ignores its mask has a bug worth seeing.  ``env(...,
  illegal_reward=r)`` asks for PettingZoo's convention instead (``TerminateIllegalWrapper``: the game
  ends, the offender gets ``r``, the others 0 -- no longer zero-sum).
"""

from __future__ import annotations

import operator
from typing import Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..encoding.decisions import Decisions, IllegalNumber
from ..encoding.observation import fill
from ..encoding.setup import Encoding, encode, seat_returns
from .render import view_text

RENDER_MODES = ("human", "ansi")


class IllegalActionNumber(IllegalNumber):
    """A number the agent on turn may not choose now (outside the mask).  The game is unchanged."""


def env(ruleset, players: Optional[int] = None, render_mode: Optional[str] = None, deals: int = 0,
        returns: str = "win", max_actions: int = 0, illegal_reward: Optional[float] = None,
        **overrides) -> AECEnv:
    """``raw_env`` in PettingZoo's usual wrappers: numbers outside the action space are refused
    (``AssertOutOfBoundsWrapper``) and the AEC call order is enforced (``OrderEnforcingWrapper``);
    with ``illegal_reward``, an illegal number ends the game instead of raising."""
    out: AECEnv = raw_env(ruleset, players, render_mode, deals, returns, max_actions, **overrides)
    if illegal_reward is not None:
        out = wrappers.TerminateIllegalWrapper(out, illegal_reward=float(illegal_reward))
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)


def raw_env(ruleset, players: Optional[int] = None, render_mode: Optional[str] = None, deals: int = 0,
            returns: str = "win", max_actions: int = 0, **overrides) -> "RulesEnv":
    """The environment of ``ruleset`` (a bundled name, ``variants/...`` for a house rule, a path, or
    loaded ``Rules``), its own parameters given by name (``some_param=5``)."""
    return RulesEnv(encode(ruleset, players, overrides, deals, returns, max_actions), render_mode)


class RulesEnv(AECEnv):
    """One ruleset at one player count as an AEC environment (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "rulesdsl_v0", "is_parallelizable": False}

    def __init__(self, encoding: Encoding, render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {render_mode!r}")
        self.encoding = encoding
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"rulesdsl_{_slug(encoding.rules.name)}_v0")
        self.possible_agents = [f"player_{i}" for i in range(encoding.players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = _observation_space(encoding)
        act_space = spaces.Discrete(encoding.actions.size)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._decisions: Optional[Decisions] = None
        self._actions = 0          # engine actions played since reset (the truncation bound counts these)
        self._ended = False

    # -- spaces ---------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- what the engine holds --------------------------------------------------------------------------
    @property
    def decisions(self) -> Decisions:
        """The game and the selection of the agent on turn (read it; step the environment to move)."""
        if self._decisions is None:
            raise RuntimeError("call reset() first")
        return self._decisions

    @property
    def game(self):
        return self.decisions.game

    def seat_of(self, agent: str) -> int:
        return self._seat[agent]

    def describe(self, number: int) -> str:
        """What an action number means, in words (``discard QS``, ``add 9H``, ``commit meld``)."""
        return self.encoding.actions.describe(int(number))

    # -- the AEC cycle --------------------------------------------------------------------------------
    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """A new match, shuffled by the engine from ``seed`` (None: an unpredictable seed)."""
        enc = self.encoding
        game = enc.rules.new_game(seed=None if seed is None else int(seed), players=enc.players)
        self._decisions = Decisions(game, enc.actions)
        self._actions = 0
        self._ended = False
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._decisions.current_player]

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = self._legal_number(agent, action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self._decisions.apply(number) is not None:
            self._actions += 1
            self._after_action()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _legal_number(self, agent: str, action) -> int:
        """``action`` as an int, refused (nothing changed) unless the mask of ``agent`` marks it."""
        try:
            number = operator.index(action)
        except TypeError:
            raise IllegalActionNumber(f"{agent}: an action is a whole number, not {action!r}") from None
        size = self.encoding.actions.size
        if not 0 <= number < size:
            raise IllegalActionNumber(f"{agent}: {number} is not an action number (0 .. {size - 1})")
        try:
            self._decisions.completing(number)
        except IllegalNumber:
            raise IllegalActionNumber(
                f"{agent} cannot choose {number} ({self.describe(number)}) now; "
                f"the action_mask of its observation marks the legal numbers") from None
        return number

    def _after_action(self) -> None:
        """After an engine action: the match over, cut short, or the next seat's turn."""
        enc = self.encoding
        game = self._decisions.game
        if game.is_over:
            self._end(truncated=False, cut=False)
        elif enc.deals and game.hand_number > enc.deals:
            self._end(truncated=False, cut=True)
        elif self._actions >= enc.max_actions:
            self._end(truncated=True, cut=True)
        else:
            self.agent_selection = self.possible_agents[self._decisions.current_player]

    def _end(self, truncated: bool, cut: bool) -> None:
        """Pay every seat its return; the agents then leave, one ``step(None)`` each."""
        self._ended = True
        returns = seat_returns(self.encoding, self._decisions.game, cut)
        self.rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
        flags = {a: True for a in self.agents}
        if truncated:
            self.truncations = flags
        else:
            self.terminations = flags

    # -- what an agent sees -----------------------------------------------------------------------------
    def observe(self, agent: str) -> dict:
        """The tensor of ``agent``'s own view and its mask (zeros unless it is on turn)."""
        d = self.decisions
        seat = self._seat[agent]
        on_turn = not self._ended and d.current_player == seat
        tensor = self.encoding.observation.new_tensor()
        fill(self.encoding.observation, tensor, d.game.view(seat), d.selected_cards() if on_turn else [])
        mask = np.zeros(self.encoding.actions.size, np.int8)
        if on_turn:
            mask[d.legal()] = 1
        return {"observation": tensor, "action_mask": mask}

    def render(self) -> Optional[str]:
        """The seat on turn's view in words (at the end: the last agent selected)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        d = self.decisions
        seat = d.current_player if not self._ended and d.current_player is not None \
            else self._seat[self.agent_selection]
        on_turn = not self._ended and d.current_player == seat
        text = view_text(d.game.view(seat), self.encoding.rules.name, self.possible_agents,
                         d.selected_cards() if on_turn else [])
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")


def _observation_space(enc: Encoding) -> spaces.Dict:
    """The tensor with the bounds the encoding declares for each piece, and the mask."""
    low, high = enc.observation.low_high()
    size = enc.actions.size
    return spaces.Dict({
        "observation": spaces.Box(np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
    })

