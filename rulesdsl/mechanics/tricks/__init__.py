"""Trick play (``tricks:``): each player in turn plays one card to the trick; the strongest card takes
it, and its player leads the next.  Following the led suit, trumps, lead and play restrictions and the
suits that break are rules of the ruleset.

This module is the whole mechanic but its run-time phase (``phase.TrickPhase``): the section's model
and schema, its load checks, the names rules read, and its compiled form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ...expr.ast import Expr
from ...model.parts import DOC, RANK_LIST, make
from ...model.schema import CardT, CondT, ExprT, Field, MapOf, NumT, SeatT, Str, Struct
from ...source.tree import Pos, UNKNOWN
from ..base import Mechanic


@dataclass(frozen=True)
class Tricks:
    """Trick play: each player in turn plays one card to the trick; the strongest card takes it, and
    its player leads the next.  Following the led suit, trumps, lead and play restrictions and the
    suits that break are rules of the ruleset."""

    first_leader: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)
    play_from: str = "hand"
    to: str = "trick"
    won_to: str = "taken"
    order: Optional[tuple] = None          # ranks low to high (`joker` for jokers); default: the deck's
    suit_of: Optional[Expr] = None         # a card's suit for following and trumps (default: its own)
    follow: Optional[Expr] = None          # whether the led suit must be followed when able (default true)
    trump: Optional[Expr] = None           # the trump suit of the deal (a suit name) or none
    strength: Optional[Expr] = None        # the card with the greatest strength takes the trick
    opening_lead: Optional[Expr] = None    # a card (text) the first lead of the deal must be
    may_lead: Optional[Expr] = None        # cards that may lead, unless the leader holds no such card
    may_play: Optional[Expr] = None        # cards that may be played, unless no other card is legal
    broken: dict = field(default_factory=dict)   # name -> condition over `card`: broken.NAME once played

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


TRICKS = Struct("tricks", {
    "first_leader": Field(SeatT(), True, doc="the seat that leads the first trick, e.g. `holder(\"2C\")`"),
    "play_from": Field(Str(), default="hand", doc="the per-player zone cards are played from"),
    "to": Field(Str(), default="trick", doc="the table zone of the trick being played"),
    "won_to": Field(Str(), default="taken", doc="the zone that receives the tricks a player takes (a team zone: the side's)"),
    "order": Field(RANK_LIST, doc="ranks low to high within a suit (`joker` for jokers); default: deck order"),
    "suit_of": Field(ExprT(), doc="a card's suit for following and trumping, over `card` (default `suit(card)`; "
                                  "e.g. jokers as trumps), judged once per card"),
    "follow": Field(CondT(), doc="whether a player must follow the led suit when able (default true)"),
    "trump": Field(ExprT(), doc="the trump suit (a suit name) or none, judged when the first trick begins"),
    "strength": Field(NumT(), doc="over `card`, `trick.led` and `trump`: the card of greatest strength takes the "
                                   "trick (the first played among equals); default: the highest trump, else the "
                                   "highest card of the led suit"),
    "opening_lead": Field(CardT(), doc="a card (text) the first lead of the deal must be, when the leader holds it"),
    "may_lead": Field(CondT(), doc="over `card`: which cards may lead a trick, unless the leader holds none of them"),
    "may_play": Field(CondT(), doc="over `card`: which cards may be played at all, unless no other card is legal"),
    "broken": Field(MapOf(CondT()), default={},
                    doc="name -> condition over `card`: `broken.NAME` is true once such a card has been played "
                        "this deal"),
    "doc": DOC,
}, make(Tricks))


@dataclass
class CTricks:
    """Compiled trick play: card tables judged once per card, and the rules judged in play."""

    play_from: str
    to: str
    won_to: str
    first_leader: Callable
    rank_pos: tuple                 # card id -> position of its rank in `order` (higher is stronger)
    suit_of: tuple                  # card id -> its suit for following and trumps (a name, or None)
    follow: Callable
    trump: Optional[Callable]
    strength: Optional[Callable]
    opening_lead: Optional[Callable]
    may_lead: Optional[Callable]
    may_play: Optional[Callable]
    broken: list                    # [(name, card table of the cards that break it)]
    pos: Pos = None


class TricksMechanic(Mechanic):
    key = "tricks"
    summary = "trick play: each player plays one card, following suit when able; the strongest card takes the trick"
    section = Field(TRICKS, doc="trick play: one card each, follow suit, the strongest card takes the trick")
    plays_cards = True
    flow = ("tricks",)
    stage = 100
    state = dict.fromkeys(("t_led", "t_number", "t_leader", "t_trump", "t_broken", "t_won", "t_players", "t_size",
                           "t_opening"), "plain")

    def endings(self, section) -> tuple:
        return ("tricks",)

    def play_from(self, section) -> str:
        return section.play_from

    def check(self, m, t: Tricks, d) -> None:
        """Its zones exist with the right owners; its order names real ranks."""
        from ...check.semantic import check_zone
        from ...errors import suggest
        check_zone(m, d, t.play_from, "player", "`tricks.play_from`", t.pos)
        check_zone(m, d, t.to, "table", "`tricks.to`", t.pos)
        spec = m.zones.get(t.won_to)
        if spec is None or spec.per == "table":
            check_zone(m, d, t.won_to, "player", "`tricks.won_to`", t.pos)
        elif spec.per == "team" and m.teams is None:
            d.error("E-TEAMS", f"`tricks.won_to` names the team zone `{t.won_to}`, but there are no `teams`", t.pos)
        for r in t.order or ():
            if r != "joker" and r not in m.deck.ranks:
                d.error("E-UNKNOWN-RANK", f"`tricks.order` names `{r}`, which is not a rank of the deck", t.pos,
                        suggest(r, list(m.deck.ranks) + ["joker"]))

    # ------------------------------------------------------------------ expressions
    def names(self, t: Optional[Tricks]) -> dict:
        """Names kept current by the trick phase."""
        from ...expr.compiler import Binding
        names = {
            "trick.led": Binding(lambda g: g.t_led, "the suit led to the current trick (none before the lead)",
                                 type="text"),
            "trick.number": Binding(lambda g: g.t_number, "the current trick's number in the deal (1 = the first)",
                                    type="number"),
            "trick.leader": Binding(lambda g: g.t_leader, "the seat that led the current trick"),
            "trump": Binding(lambda g: g.t_trump, "the trump suit of the deal (a suit name), or none", type="text"),
        }
        for b in (t.broken if t is not None else ()):
            names[f"broken.{b}"] = Binding(lambda g, _b=b: g.t_broken[_b],
                                           f"whether a card that breaks `{b}` has been played this deal", type="bool")
        return names

    def builtins(self, t, holder: dict) -> dict:
        """Tricks taken, and a card's suit and rank position under ``tricks:`` (tables ``compile`` fills)."""
        from ...expr.compiler import Builtin
        suit_of = holder.setdefault("trick_suits", [])
        rank_pos = holder.setdefault("trick_ranks", [])
        return {
            "tricks": Builtin(lambda g, s: g.t_won[s], (1, 1), "the tricks a seat has taken this deal",
                              returns="number"),
            "card_suit": Builtin(lambda g, c: None if c is None else suit_of[c], (1, 1),
                                 "a card's suit for following and trumps (`tricks.suit_of`)", returns="text"),
            "trick_rank": Builtin(lambda g, c: -1 if c is None else rank_pos[c], (1, 1),
                                  "the position of a card's rank in `tricks.order` (0 = lowest)", returns="number"),
        }

    def closed_sets(self, model, t: Tricks, cards) -> dict:
        suits = tuple(cards.suits)
        out: dict[str, Any] = {"trump": suits}
        if t.suit_of is None:          # `suit_of` may name suits of its own (a joker's "T")
            out.update({"trick.led": suits, "card_suit()": suits})
        return out

    # ------------------------------------------------------------------ compile
    def compile(self, t: Tricks, ctx) -> Optional[CTricks]:
        """The rank order and each card's suit as tables, the rest as rules."""
        from ...expr.compiler import Const
        cards = ctx.cards
        ranks = list(cards.ranks)
        if t.order is not None:
            keys = [-1 if r == "joker" else ranks.index(r) for r in t.order if r == "joker" or r in ranks]
            missing = [r for i, r in enumerate(ranks) if i not in keys] + (
                ["joker"] if cards.jokers and -1 not in keys else [])
            if missing:
                ctx.diags.error("E-TRICKS", f"`tricks.order` leaves out {', '.join(missing)}", t.pos,
                                "every rank of the deck (and `joker` when there are jokers) must be ordered")
                return None
        else:
            keys = list(range(len(ranks))) + ([-1] if cards.jokers else [])
        pos_of = {k: i for i, k in enumerate(keys)}
        rank_pos = tuple(pos_of[cards.rank[c]] for c in cards.ids)
        if t.suit_of is not None:
            suit_of = ctx.card_values(t.suit_of)
        else:
            suit_of = [cards.suits[cards.suit[c]] if cards.suit[c] >= 0 else None for c in cards.ids]
        broken = [(name, tuple(bool(v) for v in ctx.card_values(e))) for name, e in t.broken.items()]
        rc, opt = ctx.rule, ctx.optional
        compiled = CTricks(t.play_from, t.to, t.won_to, rc(t.first_leader, "tricks.first_leader"), rank_pos,
                           tuple(suit_of), opt(t.follow, "tricks.follow") or Const(True), opt(t.trump, "tricks.trump"),
                           opt(t.strength, "tricks.strength"), opt(t.opening_lead, "tricks.opening_lead"),
                           opt(t.may_lead, "tricks.may_lead"), opt(t.may_play, "tricks.may_play"), broken, t.pos)
        ctx.holder["trick_suits"].extend(compiled.suit_of)      # the tables `card_suit` and `trick_rank` read
        ctx.holder["trick_ranks"].extend(compiled.rank_pos)
        return compiled

    # ------------------------------------------------------------------ engine
    def observation(self, prog, layout):
        from .observation import layout as pieces
        return pieces(prog, layout)

    def observe(self, data, spec, pieces: dict, view: dict, seat: int, count) -> None:
        from .observation import fill
        fill(data, spec, pieces, view, seat, count)

    def result_words(self, entry: dict, name) -> str:
        won = entry.get("tricks")
        return " Tricks taken: " + ", ".join(f"{name(s)} {n}" for s, n in enumerate(won)) + "." if won else ""

    def rulebook(self, ctx, part: str) -> list:
        from .rulebook import section
        return [section(ctx)] if part == "play" else []

    def greedy(self):
        from .greedy import choose
        return choose

    def phases(self, prog) -> dict:
        from .phase import TrickPhase
        return {"tricks": TrickPhase(prog)}
