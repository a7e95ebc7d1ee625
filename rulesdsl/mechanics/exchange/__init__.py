"""The exchange (``exchange:``): cards passed after the deal and before the first lead -- by the
finishing positions of the last deal (the last gives the first its best cards), or every seat to the
seat ``to`` names (every player passing to the left, say).  Highest and lowest follow the order of play.

This module is the whole mechanic but its run-time phase (``phase.ExchangePhase``), its words in the
rulebook (``rulebook``) and the greedy bot's choice (``greedy``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ...expr.ast import Expr
from ...model.parts import DOC, const_expr, make
from ...model.schema import ChoiceExpr, CondT, ExprT, Field, Int, ListOf, NumT, SeatT, Str, Struct
from ...source.tree import Pos, UNKNOWN
from ..base import Mechanic


@dataclass(frozen=True)
class ExchangeStep:
    """One transfer: ``count`` cards from the giver to the receiver (finishing positions of the last
    deal: 1 = first, -1 = last), chosen as ``cards`` says (highest, lowest or any)."""

    giver: Optional[int]
    receiver: Optional[int]
    count: Expr
    cards: Expr
    when: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)
    to: Optional[Expr] = None          # every seat gives, to the seat this names (`player` = the giver)
    aside: Optional[str] = None        # with `to`: where given cards wait until every seat has given

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


EXCHANGE_STEP = Struct("exchange step", {
    "giver": Field(Int(), doc="a finishing position of the last deal (1 = first, -1 = last)"),
    "receiver": Field(Int(), doc="a finishing position of the last deal (1 = first, -1 = last)"),
    "to": Field(SeatT(none_ok=True), doc="instead of giver and receiver: every seat gives, each to the seat this gives "
                             "(`player` is the giver; itself or none: it gives nothing)"),
    "aside": Field(Str(), doc="with `to`: the per-player zone where given cards wait, unseen by the receiver, "
                              "until every seat has given"),
    "count": Field(NumT(), default=const_expr(1)),
    "cards": Field(ChoiceExpr("highest", "lowest", "any"), True),
    "when": Field(CondT(), default=const_expr(True)),
    "doc": DOC,
}, make(ExchangeStep))


@dataclass
class CExchange:
    giver: Optional[int]
    receiver: Optional[int]
    count: Callable
    cards: Callable
    when: Callable
    pos: Pos
    to: Optional[Callable] = None      # every seat gives, to the seat this gives (`player` = the giver)
    aside: Optional[str] = None        # where given cards wait until every seat has given


class ExchangeMechanic(Mechanic):
    key = "exchange"
    summary = ("cards passed before the first lead: by last deal's finishing positions, or every seat to the "
               "seat `to` names")
    section = Field(ListOf(EXCHANGE_STEP))
    flow = ("exchange",)
    stage = 5                            # right after the deal, before any auction or play
    observed_phases = ("exchange",)
    nouns = {"exchange": "exchange"}
    state = dict.fromkeys(("xstep", "xgiven", "xcount", "xgivers", "xpairs", "passed"), "plain")

    def counts(self, model, steps) -> list:
        return [(x.count, 0, f"`count` of exchange step {i + 1}", "the number of cards given")
                for i, x in enumerate(steps)]

    def check(self, m, steps, d) -> None:
        """It uses the order of play; exchange seats are finishing positions (1 = first, -1 = last):
        each must exist with every allowed player count, and a step may not give to its own giver."""
        from ...check.semantic import card_play_sections, check_zone, quiet_value
        from ..registry import card_play
        if card_play(m) is None:
            d.error("E-MISSING", f"`exchange` needs {card_play_sections()} section (it uses its rank order)", m.pos)
        for i, x in enumerate(steps):
            if x.to is not None:
                if x.giver is not None or x.receiver is not None:
                    d.error("E-EXCHANGE", f"exchange step {i + 1}: `to` (every seat gives) or `giver` and "
                            "`receiver` (finishing positions), not both", x.pos)
                if x.aside is not None:
                    check_zone(m, d, x.aside, "player", f"`exchange[{i}].aside`", x.pos)
                continue
            if x.giver is None or x.receiver is None:
                d.error("E-EXCHANGE", f"exchange step {i + 1} needs `giver` and `receiver` (finishing positions), "
                        "or `to` (every seat gives to the seat it names)", x.pos)
                continue
            if x.aside is not None:
                d.error("E-IGNORED", f"exchange step {i + 1}: `aside` goes with `to`", x.pos)
            if _positions_exist(m, x, i, d):
                _not_to_itself(m, x, i, d, quiet_value)

    def compile(self, steps, ctx) -> Optional[list]:
        rc, opt = ctx.rule, ctx.optional
        return [CExchange(x.giver, x.receiver, rc(x.count, f"exchange[{i}].count"), rc(x.cards, f"exchange[{i}].cards"),
                          rc(x.when, f"exchange[{i}].when"), x.pos, opt(x.to, f"exchange[{i}].to"), x.aside)
                for i, x in enumerate(steps)] or None

    def rulebook(self, ctx, part: str) -> list:
        from .rulebook import blocks
        return blocks(ctx) if part == "deal" else []

    def greedy(self):
        from .greedy import choose
        return choose

    def phases(self, prog) -> dict:
        from .phase import ExchangePhase
        return {"exchange": ExchangePhase(prog)}


def _positions_exist(m, x, i: int, d) -> bool:
    ok = True
    for label, p in (("giver", x.giver), ("receiver", x.receiver)):
        if p == 0 or abs(p) > m.players.min:
            d.error("E-EXCHANGE", f"exchange step {i + 1}: `{label}: {p}` is no finishing position with "
                    f"{m.players.min} players", x.pos,
                    f"positions count from 1 (first out) or from -1 (last out), up to {m.players.min}")
            ok = False
    return ok


def _not_to_itself(m, x, i: int, d, quiet_value) -> None:
    params = m.param_values()
    for n in range(m.players.min, m.players.max + 1):
        g = x.giver - 1 if x.giver > 0 else n + x.giver
        r = x.receiver - 1 if x.receiver > 0 else n + x.receiver
        known, on = quiet_value(x.when, params, n)
        if g == r and known and on:        # where `when` may not hold, play skips the step
            d.error("E-EXCHANGE", f"exchange step {i + 1}: the giver ({x.giver}) and the receiver "
                    f"({x.receiver}) are the same player with {n} players", x.pos,
                    "a player cannot give cards to themselves")
            break
