"""Climbing and shedding (``climbing:``): each play beats (or matches) the last, or the player passes;
a trick ends when everyone else has passed, and players finish in the order they run out of cards.

This module is the section's model and schema and the mechanic's declaration; the rest of it lives
beside it: ``check`` (load checks), ``names`` (what rules read), ``compile``, ``phase`` (play),
``observation``, ``rulebook`` and ``greedy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ...expr.ast import Expr
from ...model.game import MELD
from ...model.parts import DOC, RANK_LIST, const_expr, make
from ...model.schema import CardT, Choice, CondT, ExprT, Field, Int, ListOf, MapOf, NumT, SeatT, Str, Struct
from ...source.tree import Pos, UNKNOWN
from ..base import Mechanic


@dataclass(frozen=True)
class Toggle:
    """A state flag a play can flip or set (a revolution, a suit lock); while on it may reverse the rank
    order and/or the turn direction."""

    when: Expr
    reverses_order: Expr
    reverses_direction: Expr
    resets_each_deal: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)
    effect: str = "flip"                 # flip: turn over; set: turn on until it resets
    resets_each_trick: Optional[Expr] = None

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class OutHook:
    """Run when a player goes out (``player`` is that seat): while ``when`` holds, the seat
    ``drops_to_last`` gives is out at once and finishes below everyone still playing."""

    when: Expr
    drops_to_last: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class Climbing:
    """Play combinations that beat the last play, or pass; tricks; finishing order."""

    play_from: str
    to: str
    cleared_to: str
    sizes: tuple
    order: Optional[tuple]
    beats: Expr
    takes_last_rank: Optional[Expr]
    skip_next: Optional[Expr]
    clears_trick: Optional[Expr]
    goes_last: Optional[Expr]
    pass_locks_out: Expr
    first_leader: Expr
    toggles: dict
    pos: Pos = field(default=UNKNOWN, compare=False)
    plays: dict = field(default_factory=dict)     # name -> MeldType: what a play may be, weakest first
    suit_order: Optional[tuple] = None             # suits low to high (default: the deck's order)
    opening_play_includes: Optional[Expr] = None   # a card the first play of a deal must include
    on_going_out: tuple = ()                       # OutHook, in order
    ends_when: Optional[Expr] = None               # default: one player still holds cards
    all_passed: str = "new_trick"                  # or end_hand: play is blocked
    draw_from: Optional[str] = None                # a zone a player may draw from instead of playing
    draw_when: Optional[Expr] = None
    pass_when: Optional[Expr] = None
    next_draws: Optional[Expr] = None              # cards the next player owes after this play
    names_suit: Optional[Expr] = None              # this play names the suit to follow (`name S`)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


TOGGLE = Struct("toggle", {
    "when": Field(CondT(), True),
    "effect": Field(Choice("flip", "set"), default="flip",
                    doc="flip: a play that makes `when` true turns the state over; set: turns it on"),
    "reverses_order": Field(CondT(), default=const_expr(False)),
    "reverses_direction": Field(CondT(), default=const_expr(False)),
    "resets_each_deal": Field(CondT(), default=const_expr(True)),
    "resets_each_trick": Field(CondT(), doc="the state turns off when a trick ends"),
    "doc": DOC,
}, make(Toggle))

OUT_HOOK = Struct("on_going_out", {
    "when": Field(CondT(), True),
    "drops_to_last": Field(SeatT(), True, doc="a seat that is out at once, finishing below every player left"),
}, make(OutHook))

CLIMBING = Struct("climbing", {
    "play_from": Field(Str(), default="hand", doc="the per-player zone plays come from"),
    "to": Field(Str(), default="trick", doc="the table zone of the current trick"),
    "cleared_to": Field(Str(), default="played", doc="where finished tricks go"),
    "sizes": Field(ListOf(Int(1), 2), default=(1, 4), doc="[min, max] cards in one play"),
    "order": Field(RANK_LIST, doc="ranks low to high for beating (`joker` for jokers); default: deck order"),
    "beats": Field(CondT(), True, doc="whether `play` beats `last`"),
    "takes_last_rank": Field(CondT(), doc="the play then counts as the rank it beat"),
    "skip_next": Field(CondT(), doc="the next active player is skipped after this play"),
    "clears_trick": Field(CondT(), doc="the trick ends at once and this player leads"),
    "goes_last": Field(CondT(), doc="going out with this play finishes last"),
    "pass_locks_out": Field(CondT(), default=const_expr(False)),
    "first_leader": Field(SeatT(), True, doc="the seat that leads the first trick"),
    "toggles": Field(MapOf(TOGGLE), default={}),
    "plays": Field(MapOf(MELD), default={}, doc="what a play may be (meld patterns), weakest first; "
                                                 "default: `sizes` cards of one rank"),
    "suit_order": Field(ListOf(Str(), min_len=1), doc="suits low to high, for `play.high` (default: deck order)"),
    "opening_play_includes": Field(CardT(), doc="a card (text) the first play of a deal must include"),
    "on_going_out": Field(ListOf(OUT_HOOK), default=()),
    "ends_when": Field(CondT(), doc="the hand ends when this holds after a play (default: one player left)"),
    "all_passed": Field(Choice("new_trick", "end_hand"), default="new_trick",
                        doc="when everyone passes in a row: the last player leads a new trick, or play is blocked"),
    "draw_from": Field(Str(), doc="a zone a player may draw one card from instead of playing"),
    "draw_when": Field(CondT(), doc="when `draw` is offered (default: when no play is legal)"),
    "pass_when": Field(CondT(), doc="when `pass` is offered while a play stands (default: always)"),
    "next_draws": Field(NumT(), doc="cards the next player must draw after this play, unless they answer it"),
    "names_suit": Field(CondT(), doc="this play names the suit to follow: `play 8H name S`"),
    "doc": DOC,
}, make(Climbing))


class ClimbingMechanic(Mechanic):
    key = "climbing"
    summary = "climbing and shedding games: each play beats (or matches) the last, or the player passes"
    section = Field(CLIMBING)
    plays_cards = True
    sheds = True
    ranks_finishers = True
    flow = ("climb",)
    observed_phases = ("climb",)
    stage = 100
    nouns = {"plays": "play", "toggles": "toggle", "on_going_out": "going-out rule"}
    ordered = ("plays",)
    state = {**dict.fromkeys(("locked", "bottom", "pending", "passes", "finished", "opening", "plays_made",
                              "trick_plays", "clast", "cplay", "streak", "streak_now", "state", "draws",
                              "can_play", "owed"), "plain"),
             "trick_last": "public_cards", "play_actions": "derived", "play_entries": "derived"}

    phrases = {
        "names": {"finished_players": "the number of players out", "active_players": "the players still holding cards",
                  "draws_owed": "the cards owed"},
        "members": {("turn", "draws"): "the cards drawn this turn",
                    ("trick", "same_rank_streak"): "the plays of this rank in a row",
                    ("trick", "plays"): "the plays in this trick",
                    **{(side, m): who + noun for side, who in (("play", "the play's "), ("last", "the last play's "))
                       for m, noun in (("size", "size"), ("rank", "rank"), ("rank_name", "rank"), ("kind", "kind"),
                                       ("tier", "tier"), ("high", "highest card"), ("low", "lowest rank"),
                                       ("suit", "suit"), ("suits", "suits"), ("wilds", "wild cards"),
                                       ("naturals", "natural cards"))}},
        "conditions": {"can_play": ("the player has a legal play", "the player has no legal play")},
        "own": {"position": "finishing position", "role": "role", "role_points": "role points"},
    }

    def endings(self, section) -> tuple:
        return ("blocked",)

    def play_from(self, section) -> str:
        return section.play_from

    def reads_wild(self, c) -> bool:
        """Plays of group or wild patterns use the ruleset's wild cards."""
        return any(p.kind in ("group", "wild") for p in c.plays.values())

    def check(self, m, c, d) -> None:
        from .check import check
        check(m, c, d)

    def names(self, c) -> dict:
        from .names import bindings
        return bindings(list(c.toggles) if c is not None else [])

    def builtins(self, c, holder: dict) -> dict:
        """A seat's finishing position in the deal just ended, and the role (`roles`) it gave."""
        from .names import finishing_builtins
        return finishing_builtins()

    def closed_sets(self, model, c, cards) -> dict:
        ranks, suits = tuple(cards.ranks), tuple(cards.suits)
        if any(p.kind == "wild" for p in (c.plays or {}).values()):
            from .compile import WILD_RANK_NAME
            ranks += (WILD_RANK_NAME,)     # a play of wild cards only reads as this rank name
        out = {}
        for side in ("play", "last"):
            out[f"{side}.suit"] = suits
            out[f"{side}.rank_name"] = ranks + ("joker",)
            if c.plays:              # a turned-up card no pattern fits reads as a single
                out[f"{side}.kind"] = tuple(c.plays) + ("single",)
        return out

    def compile(self, c, ctx):
        from .compile import compile_climbing
        return compile_climbing(c, ctx)

    def copy_types(self) -> tuple:
        from .phase import Played, PlayView, _Cand
        from ...compile.patterns import PlayShape
        return (PlayShape, _Cand), (Played, PlayView)

    def observation(self, prog, layout):
        from .observation import layout as pieces
        return pieces(prog, layout)

    def observe(self, data, spec, pieces: dict, view: dict, seat: int, count) -> None:
        from .observation import fill
        fill(data, spec, pieces, view, seat, count)

    def rulebook(self, ctx, part: str) -> list:
        from .rulebook import plays_and_tricks, roles
        if part == "play":
            return [plays_and_tricks(ctx)]
        return [roles(ctx)] if part == "scoring" and ctx.model.roles else []

    def greedy(self):
        from .greedy import choose
        return choose

    def phases(self, prog) -> dict:
        from .phase import ClimbPhase
        return {"climb": ClimbPhase(prog)}
