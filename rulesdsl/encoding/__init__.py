"""Fixed numberings of actions and observations derived from a ruleset, shared by the game-library
faces (``rulesdsl.openspiel``, ``rulesdsl.pettingzoo``).  See docs/encoding.md."""

from .actions import ActionSpace, EncodingError, build_action_space
from .decisions import Decisions

__all__ = ["ActionSpace", "EncodingError", "build_action_space", "Decisions"]
