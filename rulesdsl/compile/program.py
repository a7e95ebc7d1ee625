"""Compile a model for a number of players into a ``Program``: tables and closures the engine runs.

Done once per (ruleset, player count).  Nothing the engine does during play looks a name up: every
condition, amount and count is a closure here, every card property a tuple indexed by card id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import Diagnostics
from ..expr.compiler import Const, Scope
from ..model.game import ActionSpec, Ruleset
from ..model.setup import setup_value
from ..source.tree import Pos
from .cards import CardTable, build_table
from .melds import MeldEngine
from .names import builtins, seat_attrs, state_bindings, zone_bindings

Fn = Callable[[Any], Any]


@dataclass
class CAction:
    """A compiled choice of a step."""

    kind: str                  # draw | take | discard | go_out | pass
    arg: Optional[str]         # zone name, or go_out name
    when: Optional[Fn]
    forbid: Optional[Fn]
    rule: str
    pos: Pos
    then: Optional[int]        # index of the next step; None = the step after; -1 = end of turn
    spec: ActionSpec = field(repr=False, default=None)


@dataclass
class CStep:
    name: str
    actions: list


@dataclass
class CGoOut:
    name: str
    discard: str
    when: Fn
    rule: str
    layoffs: str
    pos: Pos
    text: str


@dataclass
class COutcome:
    when: Fn
    scorer: str
    points: Fn


@dataclass
class Program:
    model: Ruleset
    n: int
    params: dict
    cards: CardTable
    melds: MeldEngine
    table_zones: list
    player_zones: list
    deal: list                 # ("deal", count, zone) | ("turn_up", zone, fact)
    steps: list
    go_out: dict
    stock_out: Optional[tuple]  # (when, last_chance)
    multiplier: Fn
    outcomes: list
    ends_when: Fn
    next_dealer: Optional[Fn]
    end_bonus: Optional[tuple]  # (when, points)
    first_turn: Any


def compile_program(model: Ruleset, n: int, params: dict, diags: Diagnostics) -> Optional[Program]:
    """Compile ``model`` for ``n`` players; problems go to ``diags`` (returns None if any)."""
    copies = setup_value(model.deck.copies, params, n, diags)
    jokers = setup_value(model.deck.jokers, params, n, diags)
    if not isinstance(copies, int) or copies < 1:
        diags.error("E-DECK", f"`deck.copies` gives {copies!r}; it must be a whole number >= 1",
                    model.deck.copies.pos)
        return None
    if not isinstance(jokers, int) or jokers < 0:
        diags.error("E-DECK", f"`deck.jokers` gives {jokers!r}; it must be a whole number >= 0",
                    model.deck.jokers.pos)
        return None
    cards = build_table(model.deck.ranks, model.deck.suits, copies, jokers, model.deck.values)
    melds = MeldEngine(model.melds, cards)

    table_zones = [z for z, spec in model.zones.items() if spec.per == "table"]
    player_zones = [z for z, spec in model.zones.items() if spec.per == "player"]
    facts = [s.as_ for s in model.deal if s.as_]
    names = {}
    names.update(zone_bindings(table_zones, player_zones))
    names.update(state_bindings(facts))
    scope = Scope(params, names, builtins(cards, melds), dict(model.derived), diags,
                  seat_attrs(player_zones))

    def opt(e):
        return scope.compile(e) if e is not None else None

    for name, e in model.derived.items():      # check every derived value, used or not
        scope.compile(e)

    deal = []
    for s in model.deal:
        if s.deal is not None:
            count = setup_value(s.deal, params, n, diags)
            deal.append(("deal", count, s.to, s.pos))
        else:
            deal.append(("turn_up", s.turn_up, s.as_, s.pos))

    step_index = {s.step: i for i, s in enumerate(model.turn)}
    steps = []
    for s in model.turn:
        acts = []
        for a in s.actions:
            then = None
            if a.then is not None:
                then = -1 if a.then == "end_turn" else step_index.get(a.then)
            acts.append(CAction(a.kind, a.draw or a.take or a.discard or a.go_out, opt(a.when),
                                opt(a.forbid), a.rule, a.pos, then, a))
        steps.append(CStep(s.step, acts))

    go_out = {name: CGoOut(name, g.discard, scope.compile(g.when), g.rule, g.layoffs, g.pos, g.when.text)
              for name, g in model.go_out.items()}
    stock_out = None
    if model.stock_out is not None:
        stock_out = (scope.compile(model.stock_out.when),
                     opt(model.stock_out.last_chance) or Const(False))
    sc = model.scoring
    multiplier = opt(sc.multiplier) or Const(1)
    outcomes = [COutcome(scope.compile(o.when), o.scorer, scope.compile(o.points)) for o in sc.outcomes]
    m = model.match
    end_bonus = None
    if m.end_bonus is not None:
        end_bonus = (opt(m.end_bonus.when) or Const(True), scope.compile(m.end_bonus.points))
    prog = Program(model, n, params, cards, melds, table_zones, player_zones, deal, steps, go_out,
                   stock_out, multiplier, outcomes, scope.compile(m.ends_when), opt(m.next_dealer),
                   end_bonus, model.first_turn)
    return None if diags else prog
