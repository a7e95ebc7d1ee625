"""The simplest player: a uniformly random legal action, from its own seeded RNG."""

from __future__ import annotations

import random
from typing import Optional

from ..engine.game import Game


class NoEndError(RuntimeError):
    """``play_out`` made its ``max_decisions`` decisions and the match is still not over (a ruleset
    whose match cannot end, e.g. a target score no hand can reach).  ``decisions`` is that bound."""

    def __init__(self, decisions: int):
        self.decisions = decisions
        super().__init__(f"no end after {decisions} decisions")


class RandomBot:
    def __init__(self, seed: Optional[int] = None):
        self.rng = random.Random(seed)

    def choose(self, game: Game):
        actions = game.legal_actions()
        return actions[self.rng.randrange(len(actions))]


def play_out(game: Game, seed: Optional[int] = None, max_decisions: int = 1_000_000) -> int:
    """Play ``game`` to the end with random choices; returns the number of decisions made."""
    rng = random.Random(seed)
    randrange = rng.randrange
    decisions = 0
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[randrange(len(actions))])
        decisions += 1
        if decisions >= max_decisions:
            raise NoEndError(max_decisions)
    return decisions
