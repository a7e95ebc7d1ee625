"""rulesdsl: a declarative rules language for card games, and the interpreter that plays it.

    import rulesdsl
    rules = rulesdsl.load("gin_rummy", overrides={"knock_limit": 5})
    game = rules.new_game(seed=7)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
"""

from .engine.actions import Action
from .engine.game import Game
from .engine.record import RecordError
from .errors import (Diagnostic, IllegalAction, RuleEvaluationError, RulesdslError, RulesetError,
                     ShadowedFileWarning)
from .rules import Arrangement, Rules, load, replay

__all__ = ["load", "replay", "Rules", "Game", "Action", "Arrangement", "Diagnostic", "IllegalAction",
           "RuleEvaluationError", "RulesetError", "RulesdslError", "RecordError", "ShadowedFileWarning"]
__version__ = "0.1.0"
