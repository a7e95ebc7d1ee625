"""Bidding in the rulebook: who bids first, the numbers and the named calls a seat may bid."""

from __future__ import annotations

from ...rulebook.context import Context
from ...rulebook.document import Code, Para, Section, cat, sentence


def section(ctx: Context) -> Section:
    b = ctx.model.bidding
    calls = [cat(Code(f"bid {name}"), " (", ctx.value(c.value), " tricks", ", before looking at the hand" if c.blind
                 else "", ", when " if not ctx.on(c.when) else "", ctx.when(c.when) if not ctx.on(c.when) else "", ")")
             for name, c in b.calls.items() if not ctx.off(c.when)]
    text = cat("Before play, each player bids once, in turn from ",
               ctx.value(b.first) if b.first is not None else "the dealer's left", ": a number of tricks from ",
               ctx.value(b.min), " to ", ctx.value(b.max) if b.max is not None else "the cards in hand")
    if not ctx.on(b.allowed):
        text = cat(text, " for which ", ctx.when(b.allowed))
    if calls:
        text = cat(text, ", or ", *[cat(c, ", " if i + 1 < len(calls) else "") for i, c in enumerate(calls)])
    return Section("Bidding", (Para(sentence(cat(text, ". " if b.doc else "", ctx.doc(b.doc)))),))
