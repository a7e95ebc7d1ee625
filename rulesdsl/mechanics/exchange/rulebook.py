"""The exchange in the rulebook, in the part on the deal: the passes every player makes at once, and
the cards that change hands by the last deal's finishing positions."""

from __future__ import annotations

from ...rulebook.context import Context
from ...rulebook.document import Code, Para, bullets, cat, sentence
from . import ExchangeStep


def blocks(ctx: Context) -> list:
    out: list = []
    steps = ctx.model.exchange
    passes = [_exchange(ctx, x) for x in steps if not ctx.off(x.when) and x.to is not None]
    if passes:
        out.append(Para(("Before the first lead, every player passes cards, all at once:",)))
        out.append(bullets(passes))
    exchanges = [_exchange(ctx, x) for x in steps if not ctx.off(x.when) and x.to is None]
    if exchanges:
        out.append(Para(("From the second deal on, before the first lead, cards change hands by the finishing "
                         "positions of the deal before (1 is the first out, -1 the last):",)))
        out.append(bullets(exchanges))
    return out


def _exchange(ctx: Context, x: ExchangeStep):
    cards = ctx.const(x.cards)
    kind = f" {cards}" if cards in ("highest", "lowest") else (" chosen" if cards == "any" else "")
    if x.to is not None:
        text = cat("each player gives ", ctx.by_players(x.count), " of their", kind, " cards to ", ctx.value(x.to),
                   cat(" (they wait in the ", Code(x.aside), " until everyone has given)") if x.aside else "")
    else:
        text = cat("position ", str(x.giver), " gives ", ctx.by_players(x.count), " of their", kind,
                   " cards to position ", str(x.receiver))
    if cards not in ("highest", "lowest", "any"):
        text = cat(text, " (which: ", ctx.value(x.cards), ")")
    if not ctx.on(x.when):
        text = cat(text, ", when ", ctx.when(x.when))
    return sentence(cat(text, ". " if x.doc else "", ctx.doc(x.doc)))
