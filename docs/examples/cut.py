"""A mechanic written end to end, as an installed package would add it: the cut.

After the deal, one seat cuts the stock: it lifts some cards off the top (at least ``leave`` stay on
each side) and puts them underneath; the card that then lies on top may be turned face up to a table
zone -- Cribbage's starter.  A ruleset uses it with one section::

    cut: {by: "next_seat(dealer)", leave: 4, turn_up: starter}

and rules read ``cut.depth`` (how many cards were lifted; none before the cut).  A package registers
it in its ``pyproject.toml``::

    [project.entry-points."rulesdsl.mechanics"]
    cut = "cut:Cut"

Nothing else changes: the loader, the checks, the compiler, the engine, the notation (``cut 12``), the
encoding's numbering, the table's log, the rulebook and the bots all find it through the registry.
``tests/test_mechanics.py`` installs this file as a package and plays it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from rulesdsl.engine.actions import Action
from rulesdsl.engine.phases.base import Phase
from rulesdsl.errors import IllegalAction, RuleEvaluationError
from rulesdsl.expr.ast import Expr
from rulesdsl.mechanics import Mechanic, Verb
from rulesdsl.model.parts import DOC, make
from rulesdsl.model.schema import ExprT, Field, Int, Str, Struct
from rulesdsl.source.tree import UNKNOWN, Pos


# ---------------------------------------------------------------------- the model: the section's shape

@dataclass(frozen=True)
class CutSection:
    """After the deal, a seat cuts the stock; the card then on top may be turned up."""

    by: Optional[Expr]
    leave: int
    turn_up: Optional[str]
    pos: Pos = field(default=UNKNOWN, compare=False)
    doc: str = field(default="", compare=False)


SECTION = Struct("cut", {
    "by": Field(ExprT(), doc="the seat that cuts (default: the dealer's right)"),
    "leave": Field(Int(1), default=1, doc="at least this many cards stay on each side of the cut"),
    "turn_up": Field(Str(), doc="a table zone that receives the card on top after the cut, face up"),
    "doc": DOC,
}, make(CutSection))


# ---------------------------------------------------------------------- compiled: what play reads

@dataclass
class CompiledCut:
    by: object              # a compiled rule giving the seat, or None: the dealer's right
    leave: int
    turn_up: Optional[str]
    pos: Pos


# ---------------------------------------------------------------------- the mechanic

class Cut(Mechanic):
    key = "cut"
    summary = "after the deal, a seat cuts the stock; the card then on top may be turned up (a starter)"
    section = Field(SECTION, doc="after the deal, a seat cuts the stock")
    flow = ("cut",)
    stage = 10                                    # before any auction or card play
    state = {"cut_depth": "plain"}
    verbs = {"cut": Verb("word", "`cut 12`", ("cuts the stock at {zone}", "cut the stock at {zone}"))}

    def check(self, model, section, diags) -> None:
        spec = model.zones.get(section.turn_up) if section.turn_up else None
        if section.turn_up and (spec is None or spec.per != "table"):
            diags.error("E-UNKNOWN-ZONE", f"`cut.turn_up` names `{section.turn_up}`, which is not a table zone",
                        section.pos, "zones: " + ", ".join(model.zones))

    def names(self, section) -> dict:
        from rulesdsl.expr.compiler import Binding
        return {"cut.depth": Binding(lambda g: g.cut_depth, "how many cards the cut lifted (none before the cut)",
                                     type="number")}

    def dormant(self) -> tuple:
        return ("cut.depth",)

    def compile(self, section, ctx) -> CompiledCut:
        return CompiledCut(ctx.optional(section.by, "cut.by"), section.leave, section.turn_up, section.pos)

    def action_texts(self, prog) -> list:
        return [f"cut {k}" for k in range(1, prog.cards.size + 1)]

    def rulebook(self, ctx, part: str) -> list:
        if part != "deal":
            return []
        from rulesdsl.rulebook.document import Code, Para, Section, cat, sentence
        c = ctx.model.cut
        text = cat("After the deal, ", ctx.value(c.by) if c.by is not None else "the dealer's right",
                   " cuts the stock, leaving at least ", str(c.leave), " cards on each side")
        if c.turn_up:
            text = cat(text, "; the card then on top is turned face up to the ", Code(c.turn_up))
        return [Section("The cut", (Para(sentence(text)),))]

    def phases(self, prog) -> dict:
        return {"cut": CutPhase(prog)}


# ---------------------------------------------------------------------- the phase: play


class CutPhase(Phase):
    name = "cut"

    def governs(self, g) -> tuple:
        return "cut", self.prog.cut.pos

    def reset(self, g) -> None:
        g.cut_depth = None

    def enter(self, g) -> None:
        c = self.prog.cut
        seat = c.by(g) if c.by is not None else (g.dealer - 1) % g.n
        if type(seat) is not int:
            raise RuleEvaluationError(f"`by` gives {seat!r}; it must be a seat", "cut.by", c.pos)
        g.actor = seat % g.n

    def generate(self, g) -> list:
        stock = g.zones["stock"]
        leave = self.prog.cut.leave
        return [Action("cut", str(k)) for k in range(leave, len(stock) - leave + 1)]

    def apply(self, g, action, chosen) -> None:
        k = int(action.zone)
        stock = g.zones["stock"]
        order = list(stock)
        order = order[-k:] + order[:-k]              # the top k cards (the end of the list) go under
        while stock:
            stock.pop()
        stock.extend(order)
        g.cut_depth = k
        if self.prog.cut.turn_up and stock:
            g.zones[self.prog.cut.turn_up].append(stock.pop())
        g.enter(g.phase_after("cut"))

    def explain(self, g, action, legal) -> Optional[IllegalAction]:
        return IllegalAction(f"`{action}` is not a cut you may make; legal: {', '.join(map(str, legal))}",
                             "cut.leave", self.prog.cut.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if getattr(g, "cut_depth", None) is not None:
            out["cut"] = g.cut_depth
