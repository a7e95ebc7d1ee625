"""The draft: players build their hands from the stock instead of being dealt them.

In turn from the dealer's left, the player drafting sees the top card of the stock (it lies in their
``look`` zone, shown to them alone) and either keeps it (``keep``: it joins their hand, and the next card
of the stock goes to ``discard_to`` unseen) or refuses it (``pass``: it goes to ``discard_to``, and they take
the next card without choice).  Each turn takes two cards from the stock; the draft ends when fewer than
two are left, and the hand goes on as after a deal (an exchange, an auction, play).
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction
from ..actions import Action
from .base import Phase

KEEP = Action("keep")
PASS = Action("pass")


class DraftPhase(Phase):
    name = "draft"

    def __init__(self, prog) -> None:
        super().__init__(prog)
        self.to, self.discard_to, self.look, self.pos = prog.draft

    def enter(self, g) -> None:
        self._offer(g, g.next_seat(g.dealer))

    def _offer(self, g, seat: int) -> None:
        """``seat`` drafts next: the top card of the stock goes to its look zone; or the draft is over."""
        stock = g.zones["stock"]
        if len(stock) < 2:
            g.enter(g.after_draft())
            return
        g.actor = seat
        g.pzones[self.look][seat].append(stock.pop())

    def generate(self, g) -> list[Action]:
        return [KEEP, PASS]

    def apply(self, g, action: Action, chosen: Action) -> None:
        me = g.actor
        looked = g.pzones[self.look][me]
        stock = g.zones["stock"]
        hand, pile = g.pzones[self.to][me], g.zones[self.discard_to]
        seen = looked.pop()
        nxt = stock.pop()
        if action.verb == "keep":
            hand.append(seen)
            pile.append(nxt)
        else:
            pile.append(seen)
            hand.append(nxt)
        self._offer(g, g.next_seat(me))

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        return IllegalAction("the draft: `keep` the card you look at, or `pass` it and take the next",
                             "deal (draft)", self.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "draft":
            out["draft"] = {"drafter": g.actor, "stock": len(g.zones["stock"])}
