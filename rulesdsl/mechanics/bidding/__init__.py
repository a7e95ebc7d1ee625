"""Bidding (``bidding:``): an auction before trick play in which each seat bids once, in turn, a
number of tricks or a named call (``bid nil``); blind calls come before the bidder looks at the hand.

This module is the whole mechanic but its run-time phase (``phase.BidPhase``): the section's model and
schema, its load checks, the names rules read, and its compiled form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ...expr.ast import Expr
from ...model.parts import DOC, const_expr, make
from ...model.schema import Bool, CondT, ExprT, Field, MapOf, NumT, SeatT, Struct
from ...source.tree import Pos, UNKNOWN
from ..base import Mechanic, Verb


@dataclass(frozen=True)
class BidCall:
    """A named bid (`bid nil`): worth `value` tricks, offered while `when` holds; a blind call only
    before the bidder has looked at the hand."""

    value: Expr
    when: Expr
    blind: bool = False
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


@dataclass(frozen=True)
class Bidding:
    """An auction before trick play: each seat bids once, in turn, a number of tricks or a named call."""

    first: Optional[Expr]
    min: Expr
    max: Optional[Expr]
    allowed: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)
    calls: dict = field(default_factory=dict)    # name -> BidCall

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


BID_CALL = Struct("bid call", {
    "value": Field(NumT(), default=const_expr(0), doc="the tricks the call counts as, `bid(seat)`"),
    "when": Field(CondT(), default=const_expr(True), doc="the call is offered while this holds"),
    "blind": Field(Bool(), default=False, doc="offered only before the bidder has looked at the hand"),
    "doc": DOC,
}, make(BidCall))

BIDDING = Struct("bidding", {
    "first": Field(SeatT(), doc="the seat that bids first (default: the dealer's left)"),
    "min": Field(NumT(), default=const_expr(0), doc="the lowest number a bidder may bid"),
    "max": Field(NumT(), doc="the highest number a bidder may bid (default: the cards in the bidder's hand)"),
    "allowed": Field(CondT(), default=const_expr(True),
                     doc="over `amount` (the number bid) and `bids_total`: whether a bid of that number is allowed"),
    "calls": Field(MapOf(BID_CALL), default={}, doc="named bids besides the numbers: `bid NAME`"),
    "doc": DOC,
}, make(Bidding))


@dataclass
class CBidding:
    first: Optional[Callable]
    min: Callable
    max: Optional[Callable]
    allowed: Callable
    calls: list                     # [(name, value, when, blind)]
    pos: Pos = None


class BiddingMechanic(Mechanic):
    key = "bidding"
    summary = "an auction before trick play: each seat bids once, a number of tricks or a named call"
    section = Field(BIDDING, doc="an auction before trick play: each seat bids once, a number or a named call")
    requires = {"tricks": "bids are numbers of tricks"}
    flow = ("bid",)
    stage = 40
    state = dict.fromkeys(("bids", "bid_calls", "unlooked", "cand_amount"), "plain")
    verbs = {"bid": Verb("word", "`bid 4` or `bid nil`", ("bids {zone}", "bid {zone}"))}

    def check(self, m, b: Bidding, d) -> None:
        """Each call is a word the notation can write after `bid`."""
        for name in b.calls:
            if not name.isidentifier() or name != name.lower() or name.isdigit():
                d.error("E-BIDDING", f"the call `{name}` must be a lowercase word (it is written `bid {name}`)",
                        b.pos)

    def names(self, b) -> dict:
        """The number judged in ``allowed``, and the bids so far."""
        from ...expr.compiler import Binding
        return {
            "amount": Binding(lambda g: g.cand_amount, "in bidding.allowed: the number of tricks being bid",
                              type="number"),
            "bids_total": Binding(lambda g: sum(v for v in g.bids if v is not None),
                                  "the sum of the bids made so far this deal", type="number"),
            "bids_made": Binding(lambda g: sum(1 for v in g.bids if v is not None),
                                 "how many seats have bid this deal", type="number"),
        }

    def builtins(self, b, holder: dict) -> dict:
        """``bid(seat)``, ``bid_call(seat)``: what a seat bid this deal, readable by scoring."""
        from ...expr.compiler import Builtin
        return {
            "bid": Builtin(lambda g, s: g.bids[s], (1, 1), "the tricks a seat bid this deal (a call counts as its "
                           "`value`), or none before it bids", returns="number"),
            "bid_call": Builtin(lambda g, s: g.bid_calls[s], (1, 1), "the named call a seat bid (e.g. \"nil\"), \"\" "
                                "for a number, or none before it bids", returns="text"),
        }

    def closed_sets(self, model, b: Bidding, cards) -> dict:
        return {"bid_call()": ("",) + tuple(b.calls)}

    def compile(self, b: Bidding, ctx) -> CBidding:
        rc, opt = ctx.rule, ctx.optional
        return CBidding(opt(b.first, "bidding.first"), rc(b.min, "bidding.min"), opt(b.max, "bidding.max"),
                        rc(b.allowed, "bidding.allowed"),
                        [(name, rc(c.value, f"bidding.calls.{name}.value"), rc(c.when, f"bidding.calls.{name}.when"),
                          c.blind) for name, c in b.calls.items()], b.pos)

    def action_texts(self, prog) -> list:
        """``bid k`` for every number a bid may name, and ``bid NAME`` for each named call."""
        from .phase import MAX_BIDS
        numbers = [f"bid {k}" for k in range(max(MAX_BIDS, prog.cards.size) + 1)]
        return numbers + [f"bid {call[0]}" for call in prog.bidding.calls]

    def observation(self, prog, layout):
        from .observation import layout as pieces
        return pieces(prog, layout)

    def observe(self, data, spec, pieces: dict, view: dict, seat: int, count) -> None:
        from .observation import fill
        fill(data, spec, pieces, view, seat, count)

    def rulebook(self, ctx, part: str) -> list:
        from .rulebook import section
        return [section(ctx)] if part == "play" else []

    def greedy(self):
        from .greedy import choose
        return choose

    def phases(self, prog) -> dict:
        from .phase import BidPhase
        return {"bid": BidPhase(prog)}
