"""Phase objects: the mechanics library, one module per family."""

from __future__ import annotations

from .climbing import ClimbPhase
from .exchange import ExchangePhase
from .drawing import LastChancePhase, OfferPhase, TurnPhase
from .going_out import LayoffPhase
from .melding import ClaimPhase
from .partnership import AnswerPhase
from .bidding import BidPhase
from .tricks import TrickPhase
from .draft import DraftPhase


def build_phases(prog) -> dict:
    """The phases a program uses, by name."""
    phases = {"turn": TurnPhase(prog), "layoff": LayoffPhase(prog), "last_chance": LastChancePhase(prog)}
    if prog.first_turn is not None:
        phases["offer"] = OfferPhase(prog)
    if prog.climbing is not None:
        phases["climb"] = ClimbPhase(prog)
    if prog.tricks is not None:
        phases["tricks"] = TrickPhase(prog)
    if prog.draft is not None:
        phases["draft"] = DraftPhase(prog)
    if prog.bidding is not None:
        phases["bid"] = BidPhase(prog)
    if prog.exchange is not None:
        phases["exchange"] = ExchangePhase(prog)
    if prog.claims:
        phases["claim"] = ClaimPhase(prog)
    if prog.going_out is not None:
        phases["answer"] = AnswerPhase(prog)
    return phases
