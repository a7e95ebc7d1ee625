"""The language's mechanics, one module (or package) each: see ``base.Mechanic`` for what one
declares and ``registry`` for how the core finds them (built in, or added by an installed package)."""

from __future__ import annotations

from .base import Mechanic, Verb
from .registry import by_key, card_play, mechanics, present

__all__ = ["Mechanic", "Verb", "by_key", "card_play", "mechanics", "present"]
