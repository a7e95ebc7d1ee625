"""Sections on what the game is played with: players, the deck and its values, zones, melds.

Why here: these sections describe things before any rule acts on them, so they read the model's
declarations (and the card table the compiler built with the values in force), never its conditions.
"""

from __future__ import annotations

from ..mechanics.registry import card_play
from ..model.game import MeldType
from .context import Context
from .document import Code, Item, Para, Section, Table, bullets, cat, join, sentence

VISIBLE = {"none": "nobody (face down)", "top": "everyone sees the top card", "all": "everyone sees every card",
           "owner": "its owner", "team": "its team"}
PER = {"table": "on the table", "player": "one per player", "team": "one per team"}


def players_and_deck(ctx: Context) -> Section:
    m = ctx.model
    p = m.players
    count = f"{p.min} players" if p.min == p.max else f"{p.min} to {p.max} players ({p.default} unless agreed otherwise)"
    blocks = [Para(sentence(cat("For ", count)))]
    if m.teams:
        blocks.append(Para(sentence(f"Players form {m.teams.count} partnerships: seat s plays for partnership "
                                    f"s mod {m.teams.count}, so partners do not sit side by side")))
    blocks.append(Para(_deck_sentence(ctx)))
    blocks.extend(_doc(ctx, m.deck.doc))
    blocks.append(Section("Card values", (_values_table(ctx),)))
    if m.wild is not None and not ctx.off(m.wild):
        blocks.append(Para(sentence(cat("A card is wild when ", ctx.when(m.wild)))))
    if m.classes:
        blocks.append(Para(("Kinds of card the rules refer to:",)))
        blocks.append(bullets(cat(Code(k), ": a card for which ", ctx.when(v)) for k, v in m.classes.items()))
    return Section("Players and cards", tuple(blocks))


def _deck_sentence(ctx: Context):
    d = ctx.model.deck
    copies = ctx.by_players(d.copies)
    jokers = ctx.by_players(d.jokers)
    ranks = " ".join(d.ranks)
    text = cat("The deck: ", copies, " cop", "y" if copies == ("1",) else "ies", " of ",
               str(len(d.ranks) * len(d.suits)), " cards, ranks ", Code(ranks), " (low to high as listed) in the suits ",
               Code(" ".join(d.suits)))
    if jokers != ("0",):
        text = cat(text, ", with ", jokers, " joker(s) per copy")
    return sentence(text)


def _values_table(ctx: Context) -> Table:
    """Each rank's value in force (the compiled card table: numeric ranks default to face value)."""
    cards = ctx.rules.program().cards
    ranks = list(cards.ranks) + (["joker"] if cards.jokers else [])
    values = [str(cards.kind_value[i]) for i in range(len(cards.ranks))] + \
        ([str(cards.kind_value[-1])] if cards.jokers else [])
    return Table(("rank",) + tuple(ranks), (((("value",),) + tuple((v,) for v in values)),))


def zones(ctx: Context) -> Section:
    rows = []
    for name, z in ctx.model.zones.items():
        note = cat(f"becomes the {z.reserve_for} when that is empty" if z.reserve_for else "",
                   "; " if z.reserve_for and z.doc else "", ctx.doc(z.doc))
        rows.append(((Code(name),), (PER.get(z.per, z.per),), (VISIBLE.get(z.visible, z.visible),), note))
    return Section("Where the cards lie", (
        Para(("The cards lie in these places; the end of each pile is its top.",)),
        Table(("place", "where", "who sees it", "notes"), tuple(rows))))


def melds(ctx: Context) -> Section:
    m = ctx.model
    items = [Item(cat(Code(name), ": ", meld_words(ctx, mt), ". " if mt.doc else "", ctx.doc(mt.doc)))
             for name, mt in m.melds.items() if not ctx.off(mt.when)]
    intro = "A meld is one of these:" if len(items) > 1 else "A meld is:"
    blocks = [Para((intro,)), bullets(items)]
    if len([t for t in m.melds.values() if t.kind in ("run", "set")]) and m.table is None and card_play(m) is None:
        blocks.append(Para(("Deadwood is the total value of the cards left out of melds, in the arrangement that "
                            "leaves the least.",)))
    return Section("Melds", tuple(blocks))


def meld_words(ctx: Context, mt: MeldType):
    """One meld type (or play pattern) in words."""
    size = _size(mt)
    if mt.kind == "run":
        order = " ".join(mt.order or ctx.model.deck.ranks)
        suits = "of any suits" if mt.suits == "any" else "of one suit"
        text = cat(size, _cards(size), suits, " in sequence, in the order ", Code(order),
                   ", which wraps around" if mt.wrap else "")
    elif mt.kind == "set":
        text = cat(size, _cards(size), "of one rank", ", each of a different suit" if mt.distinct_suits else "")
    elif mt.kind == "group":
        text = cat(size, _cards(size), "of one rank, wild cards included")
    elif mt.kind == "wild":
        text = cat(size, " wild", _cards(size), "only")
    elif mt.kind == "flush":
        text = cat(size, _cards(size), "of one suit")
    else:
        text = cat("groups of one rank each, of ", join(str(g) for g in (mt.groups or ())), " cards")
    if mt.ranks:
        text = cat(text, " (ranks ", Code(" ".join(mt.ranks)), " only)")
    if mt.wild_ratio is not None and not ctx.on(mt.wild_ratio):
        text = cat(text, ", as long as ", ctx.when(mt.wild_ratio))
    if mt.when is not None and not ctx.on(mt.when):
        text = cat(text, "; a new one only while ", ctx.when(mt.when))
    return text


def _size(mt: MeldType) -> str:
    if mt.max is None:
        return f"{mt.min} or more"
    return str(mt.min) if mt.min == mt.max else f"{mt.min} to {mt.max}"


def _cards(size: str) -> str:
    return " card " if size == "1" else " cards "


def _doc(ctx: Context, text: str):
    return [Para(ctx.doc(text))] if text else []
