"""Bots of a user's own, for the simulation tests (named ``sim_bots:Class`` on the command line)."""

from __future__ import annotations

import random


class SeededRandom:
    """Chooses exactly as the bundled ``random`` bot does, from its own seeded generator: the same
    results under ``sim_bots:SeededRandom`` show that a user's class gets the same seed per seat."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def choose(self, game):
        actions = game.legal_actions()
        return actions[self.rng.randrange(len(actions))]


class FirstLegal:
    """Always the first legal action; takes (and ignores) a search budget."""

    def __init__(self, iterations=1):
        self.iterations = iterations

    def choose(self, game):
        return game.legal_actions()[0]


class Raises:
    def choose(self, game):
        raise ValueError("no idea what to do")


class Illegal:
    def choose(self, game):
        return "pass pass pass"


class NeedsWidth:
    """A class that cannot be made without an option the command line never gives."""

    def __init__(self, width):
        self.width = width

    def choose(self, game):
        return game.legal_actions()[0]
