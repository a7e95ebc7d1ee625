"""A turn step by step: the steps and their choices, open melds, claims, counts (each mechanic of
``rulesdsl.mechanics`` words its own part: climbing's plays, trick play, bidding).

Why the choices are filtered here: an action whose ``when`` the parameters make false, or a go-out
that can never be made, is not part of the game being described, so it is left out, not shown with
"never".
"""

from __future__ import annotations

from ..model.game import ActionSpec, Claim, Step
from ..mechanics.registry import present
from .context import Context
from .document import Code, Item, Para, Section, bullets, cat, join, sentence

LAYOFF = {"any": "onto any meld on the table", "own": "onto one of your side's melds"}


def turn(ctx: Context) -> Section:
    m = ctx.model
    blocks: list = []
    if m.turn:
        blocks.append(Para(("Players take turns. A turn goes through these steps:",)))
        blocks.append(bullets((_step(ctx, s) for s in m.turn), ordered=True))
    for mech, _section in sorted(present(m), key=lambda ms: ms[0].stage):    # the mechanics' own parts
        blocks += mech.rulebook(ctx, "play")
    if m.table:
        blocks.append(_table(ctx))
    if m.auto_lay:
        a = m.auto_lay
        blocks.append(Para(sentence(cat("A card that is a ", Code(a.class_), " never stays in a hand: it is laid out "
                                        "at once to the ", Code(a.to),
                                        cat(" and replaced from the ", Code(a.replace_from)) if a.replace_from else "",
                                        "; when a replacement is owed and none is left, ",
                                        "the hand ends" if a.when_empty == "end_hand" else "play goes on without it",
                                        ". " if a.doc else "", ctx.doc(a.doc)))))
    claims = [_claim(ctx, name, c) for name, c in m.claims.items() if not ctx.off(c.when)]
    if claims:
        blocks.append(Section("Claims out of turn", (bullets(claims),)))
    for mech, _section in sorted(present(m), key=lambda ms: ms[0].stage):    # what they keep during a turn
        blocks += mech.rulebook(ctx, "turn")
    return Section("A turn", tuple(blocks))


def _step(ctx: Context, s: Step) -> Item:
    title = cat("Step ", Code(s.step), ". ", ctx.doc(s.doc), " " if s.doc else "",
                "Choose one of these, again and again until the turn ends:" if s.repeat else "Choose one of these:")
    offered = [_action(ctx, a) for a in s.actions if _offered(ctx, a)]
    return Item(title, bullets(offered).items)


def _offered(ctx: Context, a: ActionSpec) -> bool:
    if ctx.off(a.when):
        return False
    if a.go_out is not None and a.go_out in ctx.model.go_out:
        return not ctx.off(ctx.model.go_out[a.go_out].when)
    return True


def _action(ctx: Context, a: ActionSpec):
    text = _verb(ctx, a)
    if a.when is not None and not ctx.on(a.when):
        text = cat(text, ", only while ", ctx.when(a.when))
    if a.forbid is not None and not ctx.off(a.forbid):
        text = cat(text, "; refused when ", ctx.when(a.forbid))
    if a.then == "end_hand":
        text = cat(text, "; this ends the hand", cat(" (", Code(a.ending), ")") if a.ending else "")
    elif a.then == "end_turn":
        text = cat(text, "; this ends the turn")
    elif a.then:
        text = cat(text, "; then go to step ", Code(a.then))
    return sentence(cat(text, ". " if a.doc else "", ctx.doc(a.doc)))


def _verb(ctx: Context, a: ActionSpec):
    count = ctx.value(a.count) if a.count is not None else None
    if a.draw is not None:
        return cat("draw ", cat(count, " cards") if count else "the top card", " from the ", Code(a.draw))
    if a.take is not None:
        return _take(ctx, a, count)
    if a.discard is not None:
        return cat("discard one card onto the ", Code(a.discard), ", which ends the turn")
    if a.go_out is not None:
        return cat("go out: ", Code(a.go_out), " (see Going out)")
    if a.meld is not None:
        return ("lay a new meld on the table from your hand",)
    if a.layoff is not None:
        return cat("lay off a card ", LAYOFF[a.layoff])
    if a.ask is not None:
        return ("ask your partner whether you may go out; they answer yes or no",)
    return ("pass",)


def _take(ctx: Context, a: ActionSpec, count):
    if a.depth == "any":
        text = cat("take any card of the ", Code(a.take), " with every card above it")
    else:
        text = cat("take ", cat("the top ", count, " cards") if count else "the top card", " of the ", Code(a.take))
    if a.must_meld is not None and not ctx.off(a.must_meld):
        text = cat(text, "; the deepest card taken must be melded at once",
                   "" if ctx.on(a.must_meld) else cat(" when ", ctx.when(a.must_meld)))
    if a.meld_with is not None:
        text = cat(text, ", melding it at once with ", ctx.value(a.meld_with.count), " cards from your hand for which ",
                   ctx.when(a.meld_with.matching))
    return text


def _table(ctx: Context) -> Section:
    t = ctx.model.table
    owner = "the partnership that made them" if t.owner == "team" else "the player who made them"
    rules = [cat("melds are laid face up on the table and belong to ", owner)]
    if t.placed_value is not None:
        rules.append(cat("each card on the table scores ", ctx.value(t.placed_value)))
    if t.contract is not None:
        rules.append(cat("a side's first melds must be exactly ", ctx.value(t.contract), ", all in one turn"))
    if t.initial_minimum is not None:
        rules.append(cat("a side's first melds in one turn must total at least ", ctx.value(t.initial_minimum),
                         cat(", counting only cards for which ", ctx.when(t.counts_toward_minimum))
                         if t.counts_toward_minimum is not None else ""))
    if t.closes_at:
        books = join(cat(Code(n), " (", ctx.when(x), ")") for n, x in t.books.items())
        rules.append(cat(f"a meld of {t.closes_at} cards is a book", ": " if books else "", books))
    if t.one_open_per_rank:
        rules.append(("a side may have only one unfinished meld of each rank",))
    if not ctx.on(t.empty_hand_ends):
        rules.append(cat("melding the last card ends the hand only when ", ctx.when(t.empty_hand_ends))
                     if not ctx.off(t.empty_hand_ends) else ("a hand ends only by discarding the last card",))
    items = [sentence(r) for r in rules]
    if t.doc:
        items.append(ctx.doc(t.doc))
    return Section("Melds on the table", (bullets(items),))


def _claim(ctx: Context, name: str, c: Claim):
    if c.kind == "buy":
        text = cat(Code(name), ": when the next player draws from the stock instead of taking the discard, the "
                   "others in turn may buy it, taking ", ctx.value(c.penalty) if c.penalty is not None else ("no",),
                   " extra card(s) from the stock")
    else:
        text = cat(Code(name), ": after a discard that could be melded at once, the other players are asked in turn "
                   "from the discarder; a claimer takes it, melds it and plays a turn")
    if not ctx.on(c.when):
        text = cat(text, "; allowed while ", ctx.when(c.when))
    return sentence(cat(text, ". " if c.doc else "", ctx.doc(c.doc)))


