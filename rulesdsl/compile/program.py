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
from .names import builtins, climbing_bindings, seat_attrs, state_bindings, table_bindings, zone_bindings
from .table_melds import MeldRules


class _CardProbe:
    """The context for judging a card class (``wild:``) once per card at load."""

    def __init__(self, n: int):
        self.n = n
        self.cand = None
        self.env: dict = {}

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
    then: Optional[int]        # index of the next step; None = the step after; -1 end of turn; -2 end of hand
    spec: ActionSpec = field(repr=False, default=None)
    must_meld: Optional[Fn] = None


@dataclass
class CStep:
    name: str
    actions: list
    repeat: bool = False


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
class CToggle:
    name: str
    when: Fn
    reverses_order: Fn
    reverses_direction: Fn
    resets: Fn


@dataclass
class CClimb:
    play_from: str
    to: str
    cleared_to: str
    min_size: int
    max_size: int
    order: list                # rank keys low to high (-1 = joker)
    rank_names: dict           # rank key -> name
    beats: Fn
    beats_text: str
    beats_pos: Pos
    takes_last_rank: Optional[Fn]
    skip_next: Optional[Fn]
    clears_trick: Optional[Fn]
    goes_last: Optional[Fn]
    pass_locks_out: Fn
    lead_must_play: bool
    first_leader: Fn
    toggles: list
    pos: Pos


@dataclass
class CClaim:
    when: Fn
    priority: str
    pos: Pos


@dataclass
class CExchange:
    giver: int
    receiver: int
    count: Fn
    cards: Fn
    when: Fn
    pos: Pos


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
    each_player: Optional[Fn] = None
    climbing: Optional[CClimb] = None
    exchange: Optional[list] = None
    seating: Fn = None
    direction: Fn = None
    roles: dict = None
    on_tie: Fn = None
    wild: tuple = ()                     # card id -> is wild
    table_rules: Any = None              # MeldRules for open melds
    table: Optional[Fn] = None           # empty_hand_ends
    placed_value: Optional[Fn] = None
    claims: dict = None

    def roles_for(self, n: int) -> tuple:
        """(name, points) by finishing position for ``n`` players, or () when the game has no roles."""
        return (self.roles or {}).get(n, ())


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
    values = {}
    for rank, e in model.deck.values.items():
        v = setup_value(e, params, n, diags)
        if not isinstance(v, int) or isinstance(v, bool):
            diags.error("E-TYPE", f"the value of `{rank}` gives {v!r}; it must be a whole number", e.pos)
            return None
        values[rank] = v
    cards = build_table(model.deck.ranks, model.deck.suits, copies, jokers, values)
    melds = MeldEngine(model.melds, cards)

    table_zones = [z for z, spec in model.zones.items() if spec.per == "table"]
    player_zones = [z for z, spec in model.zones.items() if spec.per == "player"]
    facts = [s.as_ for s in model.deal if s.as_]
    names = {}
    names.update(zone_bindings(table_zones, player_zones))
    names.update(state_bindings(facts))
    toggle_names = list(model.climbing.toggles) if model.climbing is not None else []
    names.update(climbing_bindings(toggle_names))
    names.update(table_bindings())
    wild_flags = [False] * cards.size
    table_rules = None
    holder: dict = {}
    scope = Scope(params, names, builtins(cards, melds, model.roles, holder), dict(model.derived), diags,
                  seat_attrs(player_zones))
    if model.wild is not None:
        fn = scope.compile(model.wild)
        probe = _CardProbe(n)
        for c in cards.ids:
            probe.cand = c
            wild_flags[c] = bool(fn(probe))
    if model.table is not None or model.wild is not None:
        table_rules = MeldRules(model.melds, cards, wild_flags)
    holder.update(wild=wild_flags, table_rules=table_rules)

    def opt(e):
        return scope.compile(e) if e is not None else None

    for name, e in model.derived.items():      # check every derived value, used or not
        scope.compile(e)

    deal = []
    for s in model.deal:
        if s.deal is not None:
            if s.deals_all:
                count = "all"                  # every card, one at a time, as evenly as possible
            else:
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
                then = {"end_turn": -1, "end_hand": -2}.get(a.then, step_index.get(a.then))
            acts.append(CAction(a.kind, a.draw or a.take or a.discard or a.go_out or a.meld or a.layoff,
                                opt(a.when), opt(a.forbid), a.rule, a.pos, then, a, opt(a.must_meld)))
        steps.append(CStep(s.step, acts, s.repeat))

    go_out = {name: CGoOut(name, g.discard, scope.compile(g.when), g.rule, g.layoffs, g.pos, g.when.text)
              for name, g in model.go_out.items()}
    stock_out = None
    if model.stock_out is not None:
        stock_out = (scope.compile(model.stock_out.when),
                     opt(model.stock_out.last_chance) or Const(False), model.stock_out.result)
    sc = model.scoring
    multiplier = opt(sc.multiplier) or Const(1)
    outcomes = [COutcome(scope.compile(o.when), o.scorer, scope.compile(o.points)) for o in sc.outcomes or ()]
    m = model.match
    end_bonus = None
    if m.end_bonus is not None:
        end_bonus = (opt(m.end_bonus.when) or Const(True), scope.compile(m.end_bonus.points))
    climbing = _climbing(model, cards, scope, diags) if model.climbing is not None else None
    exchange = [CExchange(x.giver, x.receiver, scope.compile(x.count), scope.compile(x.cards),
                          scope.compile(x.when), x.pos) for x in model.exchange] or None
    each_player = opt(sc.each_player)
    table = opt(model.table.empty_hand_ends) if model.table is not None else None
    placed_value = opt(model.table.placed_value) if model.table is not None else None
    holder["placed_value"] = placed_value
    prog = Program(model, n, params, cards, melds, table_zones, player_zones, deal, steps, go_out,
                   stock_out, multiplier, outcomes, scope.compile(m.ends_when), opt(m.next_dealer),
                   end_bonus, model.first_turn, each_player, climbing, exchange,
                   scope.compile(m.seating), scope.compile(m.direction), dict(model.roles),
                   scope.compile(m.on_tie), tuple(wild_flags), table_rules, table, placed_value,
                   {name: CClaim(scope.compile(c.when), c.priority, c.pos) for name, c in model.claims.items()})
    return None if diags else prog


def _climbing(model: Ruleset, cards: CardTable, scope: Scope, diags: Diagnostics) -> Optional[CClimb]:
    c = model.climbing
    ranks = list(cards.ranks)
    names = {i: r for i, r in enumerate(ranks)}
    if cards.jokers:
        names[-1] = "joker"
    if c.order is not None:
        order = []
        for r in c.order:
            if r == "joker":
                order.append(-1)
            elif r in ranks:
                order.append(ranks.index(r))
        missing = [names[k] for k in names if k not in order]
        if missing:
            diags.error("E-CLIMB-ORDER", f"`climbing.order` leaves out {', '.join(missing)}", c.pos,
                        "every rank of the deck (and `joker` when there are jokers) must be ordered")
            return None
    else:
        order = list(range(len(ranks))) + ([-1] if cards.jokers else [])
    lo, hi = c.sizes[0], c.sizes[-1]
    opt = lambda e: scope.compile(e) if e is not None else None  # noqa: E731
    toggles = [CToggle(name, scope.compile(t.when), scope.compile(t.reverses_order),
                       scope.compile(t.reverses_direction), scope.compile(t.resets_each_deal))
               for name, t in c.toggles.items()]
    return CClimb(c.play_from, c.to, c.cleared_to, lo, hi, order, names, scope.compile(c.beats), c.beats.text,
                  c.beats.pos, opt(c.takes_last_rank), opt(c.skip_next), opt(c.clears_trick), opt(c.goes_last),
                  scope.compile(c.pass_locks_out), c.lead_must_play, scope.compile(c.first_leader), toggles, c.pos)
