"""The auction before trick play: each seat bids once, in turn order from ``bidding.first``.

A bid is a number from ``min`` to ``max`` that ``allowed`` accepts (``amount`` is the number judged,
``bids_total`` the bids so far: "the last bidder may not make the total equal the tricks"), or a named
call (``bid nil``) while its ``when`` holds.  A blind call is made before looking at the hand: a seat
to which one is open starts the auction with its hand hidden from itself (``view`` withholds it), and
chooses between its blind calls and ``look``; after looking it bids as anyone else.  Bids are public:
``view`` shows them to every seat, and ``bid(seat)`` / ``bid_call(seat)`` read them in scoring.
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction, RuleEvaluationError
from ...engine.actions import Action
from ...engine.phases.base import Phase

LOOK = Action("look")
#: the widest span of numbers one bid offers, ``max - min`` (0 to 200: 201 numbers; a rule giving more is a
#: located error, never a huge list); a bid is at most the larger of this and the deck's size, as the
#: encoding numbers them
MAX_BIDS = 200


class BidPhase(Phase):
    name = "bid"

    def __init__(self, prog) -> None:
        super().__init__(prog)
        self.b = prog.bidding

    def governs(self, g) -> tuple:
        return "bidding", self.b.pos

    def reset(self, g) -> None:
        g.bids = [None] * g.n            # tricks bid, per seat (a call counts as its value)
        g.bid_calls = [None] * g.n       # the call's name, "" for a number
        g.unlooked = set()               # seats that have not looked at their hands yet
        g.cand_amount = None

    def enter(self, g) -> None:
        b = self.b
        first = b.first(g) if b.first is not None else g.next_seat(g.dealer)
        if type(first) is not int:
            raise RuleEvaluationError(f"`first` gives {first!r}; it must be a seat", "bidding.first", b.pos)
        blind = [when for _, _, when, is_blind in b.calls if is_blind]
        for s in range(g.n):                        # who may still call blind: judged for each bidder
            g.actor = s
            if any(when(g) for when in blind):
                g.unlooked.add(s)
        g.actor = first % g.n

    def generate(self, g) -> list[Action]:
        b = self.b
        out = []
        blind_turn = g.actor in g.unlooked
        for name, _value, when, is_blind in b.calls:
            if is_blind == blind_turn and when(g):
                out.append(Action("bid", name))
        if blind_turn:
            out.append(LOOK)
            return out
        return self._numbers(g) + out

    def _numbers(self, g) -> list[Action]:
        b = self.b
        lo = b.min(g)
        hi = b.max(g) if b.max is not None else len(g.pzones[self._hand()][g.actor])
        for what, v in (("min", lo), ("max", hi)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise RuleEvaluationError(f"`{what}` gives {v!r}; it must be a whole number", f"bidding.{what}", b.pos)
        if hi - lo > MAX_BIDS:
            raise RuleEvaluationError(f"bids from {lo} to {hi} are more than {MAX_BIDS + 1} choices", "bidding.max",
                                      b.pos)
        top = max(MAX_BIDS, self.prog.cards.size)
        if hi > top or lo < 0:
            raise RuleEvaluationError(f"bids from {lo} to {hi}: a bid is a number from 0 to {top} (the larger of "
                                      f"{MAX_BIDS} and the deck's size)", "bidding.max", b.pos)
        out = []
        try:
            for amount in range(lo, hi + 1):
                g.cand_amount = amount
                if b.allowed(g):
                    out.append(Action("bid", str(amount)))
        finally:
            g.cand_amount = None
        return out

    def _hand(self) -> str:
        return self.prog.hand_zone

    def apply(self, g, action: Action, chosen: Action) -> None:
        me = g.actor
        if action.verb == "look":
            g.unlooked.discard(me)
            return
        g.unlooked.discard(me)
        call = next((c for c in self.b.calls if c[0] == action.zone), None)
        if call is None:
            g.bids[me], g.bid_calls[me] = int(action.zone), ""
        else:
            value = call[1](g)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleEvaluationError(f"`value` gives {value!r}; it must be a whole number",
                                          f"bidding.calls.{call[0]}.value", self.b.pos)
            g.bids[me], g.bid_calls[me] = value, call[0]
        if all(v is not None for v in g.bids):
            g.enter(g.phase_after(self.name))
            return
        nxt = g.next_seat(me)
        while g.bids[nxt] is not None:
            nxt = g.next_seat(nxt)
        g.actor = nxt

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        shown = ", ".join(str(a) for a in legal)
        if action.verb == "bid" and not action.zone.isdigit():      # a call: its `when`, not `allowed`
            return IllegalAction(f"`{action}` is not open to you now; legal: {shown}", "bidding.calls", self.b.pos)
        if g.actor in g.unlooked:
            return IllegalAction(f"look at your hand first (`look`), or make a blind call; legal: {shown}",
                                 "bidding.calls", self.b.pos)
        return IllegalAction(f"`{action}` is not a bid you may make now; legal: {shown}", "bidding.allowed", self.b.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if not hasattr(g, "bids"):
            return
        out["bids"] = [None if v is None else (c or v) for v, c in zip(g.bids, g.bid_calls)]
        out["looked"] = [s not in g.unlooked for s in range(g.n)]
