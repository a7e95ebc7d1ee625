"""The exchange: cards passed between roles after the deal and before the first lead.

Finishing positions of the last deal name giver and receiver (1 = first, -1 = last); each step gives
``count`` cards chosen as ``cards`` says (``highest``, ``lowest`` or ``any``), one ``give CARD`` action
per card.  Highest and lowest follow the climbing rank order.
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction, RuleEvaluationError
from ..actions import Action
from .base import Phase


class ExchangePhase(Phase):
    """Cards passed between roles before the first lead, one card per action (``give CARD``)."""

    name = "exchange"

    def applies(self, g) -> bool:
        return bool(g.previous_order) and len(g.previous_order) == g.n and self._first(g, 0) is not None

    def _first(self, g, i: int) -> Optional[int]:
        """The first exchange step from ``i`` on that applies and asks for at least one card."""
        steps = self.prog.exchange
        while i < len(steps) and not (steps[i].when(g) and self._count(g, i) > 0):
            i += 1
        return i if i < len(steps) else None

    def _count(self, g, i: int) -> int:
        """How many cards exchange step ``i`` passes (0: the step is skipped)."""
        step = self.prog.exchange[i]
        n = step.count(g)
        if type(n) is not int or n < 0:
            raise RuleEvaluationError(f"the exchange gives {n!r} cards; it must be a whole number, 0 or more",
                                      f"exchange[{i}].count", step.pos)
        return n

    def _seat(self, g, position: int) -> int:
        order = g.previous_order
        return order[position - 1] if position > 0 else order[position]

    def enter(self, g) -> None:
        g.xstep = self._first(g, 0)
        g.xgiven = 0
        g.xcount = self._count(g, g.xstep)
        g.actor = self._seat(g, self.prog.exchange[g.xstep].giver)

    def generate(self, g) -> list[Action]:
        step = self.prog.exchange[g.xstep]
        hand = g.pzones["hand"][g.actor]
        cards = self.prog.cards
        how = step.cards(g)
        pool = sorted(hand)
        if how in ("highest", "lowest") and pool:
            pos = self.prog.climbing.patterns.pos          # rank key -> position in the climbing order
            vals = [pos[cards.rank[c]] for c in pool]
            want = max(vals) if how == "highest" else min(vals)
            pool = [c for c, v in zip(pool, vals) if v == want]
        seen, out = set(), []
        for c in pool:
            t = cards.text[c]
            if t not in seen:
                seen.add(t)
                out.append(Action("give", "", (t,)))
        return out

    def apply(self, g, action: Action, chosen: Action) -> None:
        step = self.prog.exchange[g.xstep]
        giver, receiver = g.actor, self._seat(g, step.receiver)
        card = g.find(g.pzones["hand"][giver], action.cards[0])
        g.pzones["hand"][giver].remove(card)
        g.pzones["hand"][receiver].append(card)
        g.xgiven += 1
        if g.xgiven < g.xcount:                # the count judged when the step began
            return
        nxt = self._first(g, g.xstep + 1)
        if nxt is None:
            g.enter("climb")
            return
        g.xstep, g.xgiven, g.xcount = nxt, 0, self._count(g, nxt)
        g.actor = self._seat(g, self.prog.exchange[nxt].giver)

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        step = self.prog.exchange[g.xstep]
        return IllegalAction(f"the exchange: give {step.cards(g)} card(s); legal: "
                             + ", ".join(str(a) for a in legal), "exchange", step.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "exchange":
            step = self.prog.exchange[g.xstep]
            out["exchange"] = {"giver": g.actor, "receiver": self._seat(g, step.receiver),
                               "cards": step.cards(g), "given": g.xgiven, "count": g.xcount}
