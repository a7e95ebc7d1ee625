"""The simplest player: a uniformly random legal action, from its own seeded RNG."""

from __future__ import annotations

import random
from typing import Optional

from ..engine.game import Game


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
            raise RuntimeError(f"no end after {max_decisions} decisions")
    return decisions
