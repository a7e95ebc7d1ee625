"""Counters (``counters:``): per-seat counts the engine keeps as actions happen -- each action a counter
watches adds to a seat's count, and the count starts again at each turn, trick or deal it ``resets``
at (never, for ``match``).  Rules read the acting seat's count as ``counters.NAME`` and any seat's as
``SEAT.NAME`` (``player.NAME``, ``partner(player).NAME``).

The whole mechanic is this module: its section, its load checks, its names, what it compiles, the
state it keeps, the engine's events it listens to (``hooks``: an action about to be made, a turn, a
trick or a deal beginning) and its words in the rulebook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ...errors import RuleEvaluationError
from ...expr.ast import Expr
from ...model.parts import DOC, const_expr, make
from ...model.schema import Choice, CondT, Field, ListOf, MapOf, NumT, SeatT, Str, Struct
from ...source.tree import Pos, UNKNOWN
from ..base import Mechanic


@dataclass(frozen=True)
class Counter:
    """A per-seat count kept by the engine: each action ``on`` (a verb or a go-out name) adds ``add``
    to the count of ``seat`` (default: the seat acting), while ``when`` holds; it starts again at 0 at
    each ``resets`` (the seat's turn, a trick, a deal; never for ``match``)."""

    on: tuple
    add: Expr
    seat: Optional[Expr]
    when: Optional[Expr]
    resets: str
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


COUNTER = Struct("counter", {
    "on": Field(ListOf(Str(), 1), True, doc="the actions that count: verbs (play, layoff, ...) or go-out names"),
    "add": Field(NumT(), default=const_expr(1), doc="how much each such action adds (`event.size`: its cards)"),
    "seat": Field(SeatT(), doc="whose count changes (default: the seat acting; `event.meld_owner` for a layoff)"),
    "when": Field(CondT(), doc="the action counts only when this holds"),
    "resets": Field(Choice("turn", "trick", "deal", "match"), default="deal",
                    doc="when the count starts again at 0: the seat's own turn, a trick, a deal, never"),
    "doc": DOC,
}, make(Counter))


@dataclass(frozen=True)
class CCounter:
    """A counter as play reads it: the verbs it watches and its compiled rules."""

    name: str
    on: frozenset
    add: Callable
    seat: Optional[Callable]
    when: Optional[Callable]
    resets: str


#: which counts start again when a scope begins: a deal starts every turn and trick count again too
_RESET_BY = {"turn": ("turn",), "trick": ("trick",), "deal": ("turn", "trick", "deal")}


class CountersMechanic(Mechanic):
    key = "counters"
    summary = "per-seat counts the engine keeps as actions happen"
    section = Field(MapOf(COUNTER), doc="per-seat counts the engine keeps as actions happen")
    nouns = {"counters": "counter"}
    state = {"counters": "plain"}
    phrases = {"bases": {"counters": "the player's "}}

    def check(self, m, counters, d) -> None:
        """Counter names are free members of a seat; the actions they watch exist."""
        from ...errors import suggest
        from ...model.game import builtin_verbs
        taken = set(m.zones) | {"score", "hands_won", "deadwood"}
        verbs = set(builtin_verbs()) | set(m.go_out)
        for name, c in counters.items():
            if name in taken:
                d.error("E-DUPLICATE", f"counter `{name}` has the name of a seat's member (a zone, score, hands_won, "
                        "deadwood)", c.pos, "choose another name")
            for verb in c.on:
                if verb not in verbs:
                    d.error("E-UNKNOWN-ACTION", f"counter `{name}` counts `{verb}`, which is no action of this "
                            "ruleset", c.pos, suggest(verb, sorted(verbs)) or "actions: " + ", ".join(sorted(verbs)))

    def names(self, counters) -> dict:
        """``counters.NAME``: the acting seat's count; ``event.size`` / ``event.meld_owner`` while an
        action is being counted."""
        from ...expr.compiler import Binding
        counters = counters or {}                 # (no section: the names are the ruleset's own, none dormant)
        names = {f"counters.{c}": Binding(lambda g, _c=c: g.counters[_c][g.actor], f"the acting seat's `{c}` count",
                                          type="number") for c in counters}
        if counters:
            names["event.size"] = Binding(lambda g: g.event_size, "cards the action being counted moves",
                                          type="number")
            names["event.meld_owner"] = Binding(lambda g: g.event_owner, "the owner of the meld a layoff goes onto")
        return names

    def seat_members(self, counters) -> dict:
        return {c: (lambda g, s, _c=c: g.counters[_c][s]) for c in counters or {}}

    def compile(self, counters, ctx) -> Optional[tuple]:
        rc, opt = ctx.rule, ctx.optional
        return tuple(CCounter(name, frozenset(c.on), rc(c.add, f"counters.{name}.add"),
                              opt(c.seat, f"counters.{name}.seat"), opt(c.when, f"counters.{name}.when"), c.resets)
                     for name, c in counters.items()) or None

    def hooks(self, compiled) -> dict:
        by_scope = {scope: tuple(c.name for c in compiled if c.resets in resets)
                    for scope, resets in _RESET_BY.items()}

        def start(g) -> None:
            g.counters = {c.name: [0] * g.n for c in compiled}

        def begins(g, scope: str, seat: Optional[int]) -> None:
            for name in by_scope[scope]:
                row = g.counters[name]
                for s in (range(g.n) if seat is None else (seat,)):
                    row[s] = 0

        def action(g, action) -> None:
            for c in compiled:
                if action.verb in c.on and (c.when is None or c.when(g)):
                    _add(g, c)

        return {"start": start, "begins": begins, "action": action}

    def rulebook(self, ctx, part: str) -> list:
        if part != "turn":
            return []
        from ...rulebook.document import Section, bullets
        return [Section("Counts kept during play",
                        (bullets(_words(ctx, name, c) for name, c in ctx.model.counters.items()),))]


def _add(g, c: CCounter) -> None:
    """The action counts for ``c``: its amount goes to the seat ``seat`` names (the actor by default;
    none: nobody's)."""
    seat = c.seat(g) if c.seat is not None else g.actor
    if seat is None:
        return
    if type(seat) is not int or not 0 <= seat < g.n:
        raise RuleEvaluationError(f"`counters.{c.name}.seat` gives {seat!r}; it must be a seat",
                                  f"counters.{c.name}.seat")
    amount = c.add(g)
    if type(amount) is not int:
        raise RuleEvaluationError(f"`counters.{c.name}.add` gives {amount!r}; it must be a whole number",
                                  f"counters.{c.name}.add")
    g.counters[c.name][seat] += amount


def _words(ctx, name: str, c: Counter):
    from ...rulebook.document import Code, cat, join, sentence
    text = cat(Code(name), ": counts ", join((Code(v),) for v in c.on), " actions",
               cat(" (adding ", ctx.value(c.add), " each)") if ctx.const(c.add) != 1 else "",
               cat(" while ", ctx.when(c.when)) if c.when is not None else "",
               f"; it starts again each {c.resets}" if c.resets != "match" else "")
    return sentence(cat(text, ". " if c.doc else "", ctx.doc(c.doc)))
