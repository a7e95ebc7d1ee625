"""The deal: dealing steps, a first-turn offer, checks right after the deal, and what the mechanics
add before play (an exchange).

Why one section: these all happen before the first ordinary turn, in this order, and a reader sets up
the table by following them.
"""

from __future__ import annotations

from ..mechanics.registry import present
from ..model.game import AfterDeal, DealStep
from .context import Context
from .document import Code, Para, Section, bullets, cat, join, sentence

SEATS = {"left_of_dealer": "the player to the dealer's left", "dealer": "the dealer"}


def deal(ctx: Context) -> Section:
    m = ctx.model
    steps = [_deal_step(ctx, s) for s in m.deal if not ctx.off(s.when)]
    if m.first_turn:
        steps.append(_first_turn(ctx))
    steps.extend(_after_deal(ctx, a) for a in m.after_deal if not ctx.off(a.when))
    blocks = [Para(("The dealer shuffles and deals:",)), bullets(steps, ordered=True)]
    for mech, _section in sorted(present(m), key=lambda ms: ms[0].stage):    # the mechanics' own parts
        blocks += mech.rulebook(ctx, "deal")
    return Section("The deal", tuple(blocks))


def _deal_step(ctx: Context, s: DealStep):
    if s.draft is not None:
        text = cat("the players build their hands (", Code(s.draft), ") from the stock, in turn from the dealer's "
                   "left: each looks at the top card (in their ", Code(s.look or ""), ") and keeps it, the next card "
                   "going unseen to the ", Code(s.discard_to or ""), ", or passes it there and takes the next card, "
                   "until fewer than two cards are left")
    elif s.set_aside is not None:
        text = cat("take ", ctx.by_players(s.set_aside), " out of the deck into the ", Code(s.to or ""))
    elif s.turn_up is not None:
        text = cat("turn the top card of the stock face up onto the ", Code(s.turn_up))
        if s.as_:
            text = cat(text, " (the ", s.as_.replace("_", " "), ")")
        if s.bury_while is not None and not ctx.off(s.bury_while):
            text = cat(text, "; while ", ctx.when(s.bury_while), ", it goes back into the stock and the next "
                       "card is turned up instead")
        if s.cover_while is not None and not ctx.off(s.cover_while):
            text = cat(text, "; while ", ctx.when(s.cover_while), ", another card is turned up onto it")
    elif s.deals_all:
        text = cat("deal every card, one at a time from the dealer's left, into the players' ", Code(s.to or ""),
                   " (some may get one more)")
    else:
        text = cat("deal ", ctx.by_players(s.deal), " cards, one at a time from the dealer's left, into each "
                   "player's ", Code(s.to or ""))
        if s.seat is not None:
            text = cat("deal ", ctx.by_players(s.deal), " cards into the ", Code(s.to or ""), " of ",
                       ctx.value(s.seat), " only")
    if s.when is not None and not ctx.on(s.when):
        text = cat(text, ", when ", ctx.when(s.when))
    return sentence(cat(text, ". " if s.doc else "", ctx.doc(s.doc)))


def _first_turn(ctx: Context):
    f = ctx.model.first_turn
    who = join((SEATS.get(s, s),) for s in f.to)
    text = cat("the top card of the ", Code(f.offer), " is offered to ", who, ", in that order: each may take it "
               "or pass; if all pass, ", SEATS.get(f.if_all_pass.seat, f.if_all_pass.seat), " draws from the ",
               Code(f.if_all_pass.draw), " and the turn goes on")
    return sentence(cat(text, ". " if f.doc else "", ctx.doc(f.doc)))


def _after_deal(ctx: Context, a: AfterDeal):
    result = "nobody scores and the same dealer deals again" if a.result == "void" else "it is scored"
    text = cat("if ", ctx.when(a.when), " once the deal is complete, the hand ends at once (", Code(a.ending),
               ") and ", result)
    return sentence(cat(text, ". " if a.doc else "", ctx.doc(a.doc)))
