"""Phase objects of the core's own mechanics (each mechanic module of ``rulesdsl.mechanics`` brings its
own), and the one place that gathers a program's phases."""

from __future__ import annotations

from .drawing import LastChancePhase, OfferPhase, TurnPhase
from .going_out import LayoffPhase
from .melding import ClaimPhase
from .partnership import AnswerPhase
from .draft import DraftPhase
from ...mechanics.registry import present


def build_phases(prog) -> dict:
    """The phases a program uses, by name."""
    phases = {"turn": TurnPhase(prog), "layoff": LayoffPhase(prog), "last_chance": LastChancePhase(prog)}
    if prog.first_turn is not None:
        phases["offer"] = OfferPhase(prog)
    for mech, _section in present(prog.model):      # the mechanics' own phases (rulesdsl.mechanics)
        if prog.sections[mech.key] is not None:
            phases.update(mech.phases(prog))
    if prog.draft is not None:
        phases["draft"] = DraftPhase(prog)
    if prog.claims:
        phases["claim"] = ClaimPhase(prog)
    if prog.going_out is not None:
        phases["answer"] = AnswerPhase(prog)
    return phases
