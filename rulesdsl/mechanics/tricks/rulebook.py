"""Trick play in the rulebook: who leads, what must be played, what takes a trick.

Why a module of its own: trick-taking games describe play as one card each to a trick, not as steps
or as plays that beat the last; their clauses (following, trumps, leads, broken suits) are read only
here.  A clause the parameters switch off is left out.
"""

from __future__ import annotations

from ...rulebook.context import Context
from ...rulebook.document import Code, Para, Section, bullets, cat, sentence


def section(ctx: Context) -> Section:
    t = ctx.model.tricks
    blocks: list = [Para(ctx.doc(t.doc))] if t.doc else []
    blocks.append(Para(("How play goes:",)))
    blocks.append(bullets(sentence(r) for r in _rules(ctx)))
    return Section("Tricks", tuple(blocks))


def _rules(ctx: Context) -> list:
    t = ctx.model.tricks
    order = " ".join(t.order or ctx.model.deck.ranks)
    rules = [cat("each player in turn plays one card from their ", Code(t.play_from), " to the ", Code(t.to)),
             cat("ranks count from low to high in the order ", Code(order)),
             cat("the first trick of a deal is led by ", ctx.value(t.first_leader))]
    if t.opening_lead is not None:
        rules.append(cat("the first lead of a deal must be ", ctx.value(t.opening_lead)))
    if t.follow is None or not ctx.off(t.follow):
        rules.append(("a player who can follow the suit led must do so",) if t.follow is None or ctx.on(t.follow)
                     else cat("a player must follow the suit led when able, when ", ctx.when(t.follow)))
    if t.suit_of is not None:
        rules.append(cat("a card's suit, for following and trumps, is ", ctx.value(t.suit_of)))
    if t.trump is not None:
        rules.append(cat("the trump suit is ", ctx.value(t.trump)))
    if t.may_lead is not None and not ctx.on(t.may_lead):
        rules.append(cat("a card may lead only when ", ctx.when(t.may_lead), ", unless the leader holds no such card"))
    if t.may_play is not None and not ctx.on(t.may_play):
        rules.append(cat("a card may be played only when ", ctx.when(t.may_play), ", unless no other card is legal"))
    for name, e in t.broken.items():
        rules.append(cat(Code(f"broken.{name}"), " holds once a card is played for which ", ctx.when(e)))
    taker = (cat("the card of greatest ", Code(t.strength.text), " takes the trick (the first played among equals)")
             if t.strength is not None else
             ("the highest trump takes the trick, else the highest card of the suit led",))
    rules.append(cat(taker, "; its player takes the cards into their ", Code(t.won_to), " and leads the next trick"))
    return rules
