"""Plays and tricks: what a play may be, what beats what, and the trick's own rules.

Why a module of its own: climbing and shedding games describe a turn as one play against the last,
not as steps, and their clauses (skips, clears, toggles, draws owed) are read only here.  A clause the
parameters switch off is left out.
"""

from __future__ import annotations

from ...rulebook.cards import meld_words
from ...rulebook.context import Context
from ...rulebook.document import Code, Para, Section, Table, bullets, cat, sentence
from . import Toggle


def plays_and_tricks(ctx: Context) -> Section:
    c = ctx.model.climbing
    blocks: list = [Para(ctx.doc(c.doc))] if c.doc else []
    blocks += _patterns(ctx)
    blocks.append(Para(("How play goes:",)))
    blocks.append(bullets(sentence(r) for r in _play_rules(ctx) + _extra_rules(ctx) + _ending_rules(ctx)))
    return Section("Plays and tricks", tuple(blocks))


def _patterns(ctx: Context) -> list:
    c = ctx.model.climbing
    if not c.plays:
        return [Para(sentence(f"A play is {c.sizes[0]} to {c.sizes[1]} cards of one rank"))]
    return [Para(("A play is one of these, weakest first:",)),
            bullets(cat(Code(n), ": ", meld_words(ctx, t)) for n, t in c.plays.items())]


def _play_rules(ctx: Context) -> list:
    """Order, leader, what beats what, and the clauses a parameter may switch on."""
    c = ctx.model.climbing
    order = " ".join(c.order or ctx.model.deck.ranks)
    rules = [
        cat("ranks count from low to high in the order ", Code(order)),
        cat("the first lead of a deal is made by ", ctx.value(c.first_leader)),
        cat("a play goes onto the ", Code(c.to), "; a play beats the last one when ", ctx.when(c.beats)),
        ("leading, any play may be made; a lead is never passed",),
    ]
    return rules + [cat(label, ctx.when(x)) for label, x in _clauses(c) if x is not None and not ctx.off(x)]


def _clauses(c):
    return (("after this play the next player is skipped when ", c.skip_next),
            ("the trick ends at once and the player leads again when ", c.clears_trick),
            ("a play counts as the rank it beat when ", c.takes_last_rank),
            ("going out with a play finishes last when ", c.goes_last),
            ("a player who passes is out of the trick until it ends when ", c.pass_locks_out),
            ("a player who cannot play may pass when ", c.pass_when),
            ("the player names the suit to follow when ", c.names_suit))


def _extra_rules(ctx: Context) -> list:
    """Suits, an opening card, drawing instead of playing, draws owed, toggles, going-out hooks."""
    c = ctx.model.climbing
    rules: list = []
    if c.suit_order:
        rules.append(cat("suits rank from low to high ", Code(" ".join(c.suit_order))))
    if c.opening_play_includes is not None:
        rules.append(cat("the first play of a deal must include ", ctx.value(c.opening_play_includes)))
    if c.draw_from:
        rules.append(cat("instead of playing, a player may draw a card from the ", Code(c.draw_from),
                         " when they have no legal play" if c.draw_when is None else
                         "" if ctx.on(c.draw_when) else cat(" while ", ctx.when(c.draw_when))))
    if c.next_draws is not None and ctx.const(c.next_draws) != 0:
        rules.append(cat("after a play the next player must draw ", ctx.value(c.next_draws), " cards unless they "
                         "answer it with a play"))
    rules += [_toggle(ctx, name, t) for name, t in c.toggles.items() if not ctx.off(t.when)]
    rules += [cat("when a player goes out and ", ctx.when(h.when), ", ", ctx.value(h.drops_to_last),
                  " is out at once and finishes last") for h in c.on_going_out if not ctx.off(h.when)]
    return rules


def _toggle(ctx: Context, name: str, t: Toggle):
    return cat("the ", Code(name), " turns ", "on" if t.effect == "set" else "over", " when ", ctx.when(t.when),
               "; while it is on, the rank order is reversed" if ctx.on(t.reverses_order) else "",
               "; while it is on, play goes the other way" if ctx.on(t.reverses_direction) else "",
               "; it is off again when a trick ends" if ctx.on(t.resets_each_trick) else
               "; it is off again at each deal" if ctx.on(t.resets_each_deal) else "",
               ". " if t.doc else "", ctx.doc(t.doc))


def _ending_rules(ctx: Context) -> list:
    c = ctx.model.climbing
    ends = cat("the hand ends when ", ctx.when(c.ends_when)) if c.ends_when is not None \
        else ("the hand ends when only one player still holds cards",)
    trick = ("when everyone passes in a row, play is blocked and the hand ends",) if c.all_passed == "end_hand" \
        else ("a trick ends when every other player still in it has passed; its last player leads the next",)
    return [ends, trick]


def roles(ctx: Context) -> Section:
    """The `roles` table: the role and points of each finishing position, by the number of players."""
    rows = []
    for n, by_position in sorted(ctx.model.roles.items()):
        for i, (name, points) in enumerate(by_position):
            rows.append(((str(n),), (str(i + 1),), (name,), (str(points),)))
    return Section("Roles", (Para(("Finishing positions give roles and points, by the number of players:",)),
                             Table(("players", "position", "role", "points"), tuple(rows))))
