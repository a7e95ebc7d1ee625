"""How a hand ends, how it scores, and how the match ends.

Why the scoring outcomes are filtered and numbered: the ruleset scores the first outcome that holds,
so the order is part of the rule; an outcome the parameters switch off is not part of the game.
"""

from __future__ import annotations

from ..mechanics.registry import present
from ..model.game import GoOut
from .context import Context
from .document import Code, Para, Section, bullets, cat, sentence

DISCARD = {"face_down": "discards one card face down", "face_up": "discards one card face up",
           "none": "shows the hand without discarding"}


def going_out(ctx: Context) -> Section:
    m = ctx.model
    items = [_go_out(ctx, name, g) for name, g in m.go_out.items() if not ctx.off(g.when)]
    blocks: list = []
    if items:
        blocks.append(Para(("A player may end the hand in these ways (judged after the discard):",)))
        blocks.append(bullets(items))
        blocks.append(Para(("The player who goes out is the declarer; the other, the defender.",)))
    t = m.table
    if t is not None and t.going_out is not None:
        g = t.going_out
        blocks.append(Para(sentence(cat("A player may go out (empty the hand for good) only when ", ctx.when(g.when),
                                        "; ", "the last card must be discarded" if g.needs_discard else
                                        "the last card may be melded",
                                        "; the partner must agree first" if ctx.on(g.permission) else
                                        "; a player may ask the partner first, and the answer binds"
                                        if ctx.const(g.permission) == "optional" else "",
                                        ". " if g.doc else "", ctx.doc(g.doc)))))
    elif t is not None:
        blocks.append(Para(sentence(cat("A player who plays their last card goes out (", Code(t.ending_by_discard),
                                        " by a discard, ", Code(t.ending_by_meld), " by a meld)"))))
    so = m.stock_out
    if so is not None and not ctx.off(so.when):
        blocks.append(Para(_stock_out(ctx)))
    return Section("Going out", tuple(blocks) or (Para(("The hand ends as the plays above say.",)),))


def _go_out(ctx: Context, name: str, g: GoOut):
    text = cat(Code(name), ": when ", ctx.when(g.when), ", the player ", DISCARD[g.discard])
    if not g.arrange:
        text = cat(text, " and shows the hand as it is")
    else:
        text = cat(text, " and lays out the melds")
    if g.layoffs == "opponents":
        text = cat(text, "; the opponents may then lay off cards onto those melds")
    return sentence(cat(text, ". " if g.doc else "", ctx.doc(g.doc)))


def _stock_out(ctx: Context):
    so = ctx.model.stock_out
    result = {"void": "the hand is void: nobody scores and the same dealer deals again",
              "score": cat("the hand ends and is scored (", Code(so.ending), ")"),
              "reshuffle": "the discard pile but its top card is shuffled to make a new stock"}[so.result]
    text = cat("When a turn ends without going out and ", ctx.when(so.when), ", ", result)
    if so.last_chance is not None and not ctx.off(so.last_chance):
        text = cat(text, "; first, the next player may take the last discard, but only to go out")
    return sentence(cat(text, ". " if so.doc else "", ctx.doc(so.doc)))


def scoring(ctx: Context) -> Section:
    s = ctx.model.scoring
    blocks: list = []
    if s.outcomes:
        outcomes = [sentence(cat("if ", ctx.when(o.when), ": the ", o.scorer, " scores ", ctx.value(o.points),
                                 ". " if o.doc else "", ctx.doc(o.doc)))
                    for o in s.outcomes if not ctx.off(o.when)]
        blocks.append(Para(("The first of these that applies scores the hand; if none does, nobody scores:",)))
        blocks.append(bullets(outcomes, ordered=True))
        if s.multiplier is not None and ctx.const(s.multiplier) != 1:
            blocks.append(Para(sentence(cat("The points are multiplied by ", ctx.value(s.multiplier)))))
    if s.each_player is not None:
        blocks.append(Para(sentence(cat("At the end of each hand every player scores ", ctx.value(s.each_player)))))
    if s.each_team is not None:
        blocks.append(Para(sentence(cat("At the end of each hand every partnership scores ", ctx.value(s.each_team)))))
    if s.doc:
        blocks.append(Para(ctx.doc(s.doc)))
    for mech, _ in present(ctx.model):          # a mechanic's own part of scoring (climbing's roles)
        blocks += mech.rulebook(ctx, "scoring")
    return Section("Scoring", tuple(blocks))


def match(ctx: Context) -> Section:
    mt = ctx.model.match
    rules = [cat("the match ends after a hand when ", ctx.when(mt.ends_when)),
             ("the highest total wins",)]
    tie = ctx.const(mt.on_tie)
    rules.append(("a tie for the highest total plays another hand",) if tie == "another_hand" else
                 ("a tie for the highest total shares the win",) if tie == "shared" else
                 cat("on a tie: ", ctx.value(mt.on_tie)))
    rules.append(("the first dealer is chosen at random",) if mt.first_dealer == "random" else
                 ("seat 0 deals first",))
    if mt.next_dealer is not None:
        rules.append(cat("after each hand the dealer is ", ctx.value(mt.next_dealer)))
    seating, direction = ctx.const(mt.seating), ctx.const(mt.direction)
    if seating != "fixed":
        rules.append(("players sit in the order they finished the last deal",) if seating == "finishing" else
                     cat("seating: ", ctx.value(mt.seating)))
    rules.append(("play goes to the left (clockwise)",) if direction == "clockwise" else
                 ("play goes to the right (counterclockwise)",) if direction == "counterclockwise" else
                 cat("direction of play: ", ctx.value(mt.direction)))
    eb = mt.end_bonus
    if eb is not None and not ctx.off(eb.when):
        rules.append(cat("when the match ends, each player adds ", ctx.value(eb.points),
                         "" if eb.when is None or ctx.on(eb.when) else cat(", when ", ctx.when(eb.when))))
    blocks = [bullets(sentence(r) for r in rules)]
    if mt.doc:
        blocks.append(Para(ctx.doc(mt.doc)))
    return Section("The end of the match", tuple(blocks))
