"""What every phase offers the game core.

A phase is one family of mechanics (drawing and discarding, a layoff window, a mechanic's own play).
It is created once per program and keeps no state of its own: everything lives on the ``Game``, so a
game can be copied, compared and replayed.  ``generate`` lists the legal actions; ``apply`` carries one
out (it was checked legal first); ``explain`` names the rule that forbids an illegal one.
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction
from ..actions import Action


class Phase:
    name = ""
    #: whether an equivalent action is recorded as written (climbing: the suits played matter to
    #: the cards moved) or as the listed action it stands for (a meld in another card order)
    keeps_chosen = False

    def __init__(self, prog) -> None:
        self.prog = prog

    def start(self, g) -> None:
        """State kept from deal to deal, set up once when the game begins (before the first deal)."""

    def reset(self, g) -> None:
        """Per-hand state, set up when a hand starts (before any phase is entered)."""

    def applies(self, g) -> bool:
        """Whether a hand entering this phase of its flow stops here now (else it goes on to the next:
        an exchange with nothing to give in the first deal)."""
        return True

    def governs(self, g) -> Optional[tuple]:
        """(key path, position) of the rule that governs this phase now, which a run-time error in it
        names when no inner rule does; None: the engine's own default for the phase."""
        return None

    def enter(self, g) -> None:
        """Called when the game switches to this phase: set ``g.actor``."""

    def generate(self, g) -> list[Action]:
        raise NotImplementedError

    def apply(self, g, action: Action, chosen: Action) -> None:
        """Carry out ``action`` (legal).  ``chosen`` is what the player wrote, when it was an
        equivalent of a listed action (e.g. other suits of the same rank)."""
        raise NotImplementedError

    def counting(self, g, action: Action, chosen: Action) -> None:
        """Before ``counters`` judge an action of this phase: bind what names the action (``play.*``
        in climbing).  ``counted`` undoes it."""

    def counted(self, g) -> None:
        """After ``counters`` judged an action: the bindings ``counting`` made are gone."""

    def equivalent(self, g, action: Action, legal: list) -> Optional[Action]:
        """A listed action that ``action`` is equivalent to, or None."""
        return None

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        return None

    def why_not(self, g, key: str):
        """Why the rule compiled under ``key`` (``turn[draw].take.when``) is false in ``g`` now: an
        ``expr.explain.Trace``, or None when it holds (or no expression stands behind the key)."""
        expr = self.prog.rule_exprs.get(key)
        if expr is None:
            return None
        trace = self.prog.tracer().trace(expr, g, key, expr.pos, seat=g.actor)
        return None if trace.holds else trace

    def view(self, g, seat: int, out: dict) -> None:
        """Add what this phase shows to ``view(seat)``."""


def cards_where(g, cards, rule) -> list:
    """The cards for which ``rule`` holds with ``card`` bound to each in turn (``g.cand``), in order;
    ``g.cand`` is left as it was.  One place for the rules a ruleset writes over one card."""
    saved = g.cand
    try:
        kept = []
        for c in cards:
            g.cand = c
            if rule(g):
                kept.append(c)
    finally:
        g.cand = saved
    return kept
