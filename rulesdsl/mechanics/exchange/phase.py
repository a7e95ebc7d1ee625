"""The exchange: cards passed after the deal and before the first lead.

A step names its giver and receiver in one of two ways:

* by finishing positions of the last deal (``giver: -1, receiver: 1``: the last gives to the first);
  such a step needs a last deal, so it never runs in the first;
* ``to:``: every seat gives, from the dealer's left round the table, to the seat ``to`` gives with
  ``player`` bound to the giver (``seat_after(player, 1)``: to the left; a direction that changes by
  deal reads ``deal.number``).  A seat ``to`` sends to itself, or to none, gives nothing.  The cards
  wait in the giver's ``aside`` zone until every seat has given, so nobody passes on a card received.

Each step gives ``count`` cards chosen as ``cards`` says (``highest``, ``lowest`` or ``any``), one
``give CARD`` action per card.  Highest and lowest follow the rank order of play (climbing or tricks).
The cards a seat gave and received this deal are shown to that seat alone (``view()["passed"]``).
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction, RuleEvaluationError
from ...engine.actions import Action
from ...engine.phases.base import Phase


class ExchangePhase(Phase):
    """Cards passed between roles before the first lead, one card per action (``give CARD``)."""

    name = "exchange"

    def governs(self, g) -> tuple:
        i = getattr(g, "xstep", None)
        return (f"exchange[{i}]", self.prog.exchange[i].pos) if i is not None else ("exchange", None)

    def applies(self, g) -> bool:
        return self._first(g, 0) is not None

    def _first(self, g, i: int) -> Optional[int]:
        """The first exchange step from ``i`` on that applies and asks for at least one card."""
        steps = self.prog.exchange
        while i < len(steps) and not (self._possible(g, steps[i]) and steps[i].when(g) and self._count(g, i) > 0
                                      and self._givers(g, i)):
            i += 1
        return i if i < len(steps) else None

    def _possible(self, g, step) -> bool:
        """A step by finishing positions needs the last deal's finishing order."""
        return step.to is not None or (bool(g.previous_order) and len(g.previous_order) == g.n)

    def _givers(self, g, i: int) -> list:
        """The seats that give in step ``i``, in order, each with its receiver: ``[(giver, receiver)]``."""
        step = self.prog.exchange[i]
        if step.to is None:                     # a seat that would give itself gives nothing
            giver, receiver = self._seat(g, step.giver), self._seat(g, step.receiver)
            return [(giver, receiver)] if giver != receiver else []
        out = []
        seat = g.next_seat(g.dealer)
        saved = getattr(g, "actor", None)       # none yet while the first hand is being dealt
        try:
            for _ in range(g.n):
                g.actor = seat
                to = step.to(g)
                if to is not None and (type(to) is not int or not 0 <= to < g.n):
                    raise RuleEvaluationError(f"`to` gives {to!r} for seat {seat}; it must be a seat or none",
                                              f"exchange[{i}].to", step.pos)
                if to is not None and to != seat:
                    out.append((seat, to))
                seat = g.next_seat(seat)
        finally:
            g.actor = saved
        return out

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

    def reset(self, g) -> None:
        g.passed = []                      # (giver, receiver, card text, arrived) of every card given this deal
        g.xgivers = []

    def enter(self, g) -> None:
        self._begin(g, self._first(g, 0))

    def _begin(self, g, i: int) -> None:
        g.xstep = i
        g.xgiven = 0
        g.xcount = self._count(g, i)
        g.xgivers = self._givers(g, i)
        g.xpairs = list(g.xgivers)
        g.actor = g.xgivers[0][0]

    def generate(self, g) -> list[Action]:
        step = self.prog.exchange[g.xstep]
        hand = g.pzones["hand"][g.actor]
        cards = self.prog.cards
        how = step.cards(g)
        pool = sorted(hand)
        if how in ("highest", "lowest") and pool:
            vals = self._rank_positions(pool)
            want = max(vals) if how == "highest" else min(vals)
            pool = [c for c, v in zip(pool, vals) if v == want]
        seen, out = set(), []
        for c in pool:
            t = cards.text[c]
            if t not in seen:
                seen.add(t)
                out.append(Action("give", "", (t,)))
        return out

    def _rank_positions(self, pool: list) -> list:
        """Each card's rank position in the order of play (the card-play mechanic's)."""
        return [self.prog.card_play.rank_pos[c] for c in pool]

    def apply(self, g, action: Action, chosen: Action) -> None:
        step = self.prog.exchange[g.xstep]
        giver, receiver = g.xgivers[0]
        card = g.find(g.pzones["hand"][giver], action.cards[0])
        g.pzones["hand"][giver].remove(card)
        (g.pzones[step.aside][giver] if step.aside else g.pzones["hand"][receiver]).append(card)
        g.passed.append((giver, receiver, action.cards[0], not step.aside))
        g.xgiven += 1
        if g.xgiven < g.xcount:                # the count judged when the step began
            return
        g.xgiven = 0
        g.xgivers = g.xgivers[1:]
        if g.xgivers:                          # the next seat gives
            g.actor = g.xgivers[0][0]
            return
        if step.aside:                         # every seat has given: the cards set aside arrive
            self._deliver(g, step)
        nxt = self._first(g, g.xstep + 1)
        if nxt is None:
            g.enter(g.phase_after(self.name))
            return
        self._begin(g, nxt)

    def _deliver(self, g, step) -> None:
        """The cards waiting aside go to their receivers (in the order given)."""
        for giver, receiver in g.xpairs:
            aside = g.pzones[step.aside][giver]
            hand = g.pzones["hand"][receiver]
            while aside:
                hand.append(aside.pop(0))
        g.passed = [(a, b, c, True) for a, b, c, _ in g.passed]

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        step = self.prog.exchange[g.xstep]
        return IllegalAction(f"the exchange: give {step.cards(g)} card(s); legal: "
                             + ", ".join(str(a) for a in legal), "exchange", step.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "exchange":
            out["exchange"] = {"giver": g.actor, "receiver": g.xgivers[0][1],
                               "cards": self.prog.exchange[g.xstep].cards(g), "given": g.xgiven, "count": g.xcount}
        passed = getattr(g, "passed", ())
        if passed:                             # a seat sees only the cards it gave or received
            out["passed"] = [{"from": a, "to": b, "card": c} for a, b, c, arrived in passed
                             if seat == a or (seat == b and arrived)]
