"""Compile a model for a number of players into a ``Program``: tables and closures the engine runs.

Done once per (ruleset, player count).  Nothing the engine does during play looks a name up: every
condition, amount and count is a closure here, every card property a tuple indexed by card id.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import FunctionType
from typing import Any, Callable, Optional

from ..errors import Diagnostics, RuleEvaluationError, suggest
from ..expr.ast import E
from ..expr.compiler import Const, Scope
from ..model.game import ActionSpec, Ruleset
from ..model.setup import reads_deal_number, setup_value
from ..source.tree import Pos
from .bounds import card_equals, deadwood_cap
from .cards import CardTable, build_table
from .melds import MeldEngine
from ..mechanics.registry import card_play, mechanics, present
from .names import (builtins, card_class_builtins, closed_sets, seat_attrs,
                    state_bindings, table_bindings, team_bindings, zone_bindings)
from .table_melds import MeldRules


def _card_table(fn: Fn, expr, cards: CardTable, probe, diags: Diagnostics) -> list:
    """A card condition judged once per card at load; a failure is a located diagnostic."""
    out = []
    for c in cards.ids:
        probe.cand = c
        try:
            out.append(bool(fn(probe)))
        except Exception as exc:
            _card_rule_failed(expr, exc, cards.text[c], diags)
            return [False] * cards.size
    return out


#: the names a rule judged once per card at load may read, beside the functions of a card
_CARD_RULE_NAMES = frozenset({"card", "params", "players", "true", "false", "none"})


def _card_rule_failed(expr, exc: Exception, card: str, diags: Diagnostics) -> None:
    """Why a rule judged once per card at load failed, in the rule's own words: a name known only in
    play (the probe has no such value), or the rule's own failure -- never a Python internal."""
    stack, names, bound = [expr.ast], [], set()
    while stack:
        node = stack.pop()
        if isinstance(node, E):
            if node.op == "name" and node.args[0] not in _CARD_RULE_NAMES and node.args[0] not in names:
                names.append(node.args[0])
            if node.op == "comp":                      # its variable is the rule's own, not a name of play
                bound.add(node.args[2])
            stack.extend(a for a in node.args if isinstance(a, E))
    names = [n for n in names if n not in bound]
    hint = "a rule judged once per card at load may read `card`, `players` and the parameters only"
    if isinstance(exc, AttributeError) and names:
        shown = ", ".join(f"`{n}`" for n in sorted(names))
        diags.error("E-EVAL", f"`{expr.text}` is judged once per card at load, but it reads {shown}, "
                    "known only in play", expr.pos, hint)
    else:
        why = exc.detail if isinstance(exc, RuleEvaluationError) else str(exc)
        diags.error("E-EVAL", f"`{expr.text}` fails for the card {card}: {why}", expr.pos, hint)


def located(fn: Optional[Fn], rule: str, pos: Pos, registry: dict) -> Optional[Fn]:
    """A compiled rule that can be named when it fails at play time, at no cost while it succeeds.

    The rule's closure is copied once, at compile time, with a code object of its own (same bytecode,
    same cells: nothing is compiled from text), and ``registry`` maps that code object to the rule's key
    path (``turn[draw].take.when``) and position.  When play fails, ``rule_at`` finds the innermost rule
    in the traceback.  Constants cannot fail and are returned as they are."""
    if fn is None or isinstance(fn, Const) or not isinstance(fn, FunctionType):
        return fn
    code = fn.__code__.replace(co_name=f"rule {rule}", co_qualname=f"rule {rule} at {pos}")
    copy = FunctionType(code, fn.__globals__, code.co_name, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__ = fn.__kwdefaults__
    registry[code] = (rule, pos)
    return copy


def rule_at(exc: BaseException, registry: dict) -> Optional[tuple]:
    """(key path, position) of the innermost compiled rule running when ``exc`` was raised, if any
    (following the exception it was raised from, or during, when that one says nothing)."""
    seen = 0
    while exc is not None and seen < 8:
        found = None
        tb = exc.__traceback__
        while tb is not None:
            hit = registry.get(tb.tb_frame.f_code)
            if hit is not None:
                found = hit
            tb = tb.tb_next
        if found is not None:
            return found
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _ratio_fn(fn: Fn):
    """A meld-count condition (over ``naturals`` and ``wilds``) as a plain function of two ints."""
    probe = _CountProbe()

    def ratio(n: int, w: int) -> bool:
        probe.naturals, probe.wilds = n, w
        return bool(fn(probe))
    return ratio


class _CountProbe:
    def __init__(self):
        self.naturals = self.wilds = 0
        self.env: dict = {}


class _CardProbe:
    """The context for judging a card class (``wild:``) once per card at load."""

    def __init__(self, n: int):
        self.n = n
        self.cand = None
        self.env: dict = {}

Fn = Callable[[Any], Any]

MAX_COPIES = 16            # decks shuffled together
MAX_JOKERS = 16            # jokers per deck


@dataclass
class CAction:
    """A compiled choice of a step."""

    kind: str                  # draw | take | discard | go_out | meld | layoff | ask | pass
    arg: Optional[str]         # zone name, or go_out name
    when: Optional[Fn]
    forbid: Optional[Fn]
    rule: str
    pos: Pos
    then: Optional[int]        # index of the next step; None = the step after; -1 end of turn; -2 end of hand
    spec: ActionSpec = field(repr=False, default=None)
    must_meld: Optional[Fn] = None
    count: Optional[Fn] = None                 # draw/take: cards at once
    meld_with: Optional[tuple] = None          # take: (count, matching) hand cards melded with the top card
    marks: dict = field(default_factory=dict)  # discard: mark name -> condition
    key: str = ""                              # key path, e.g. turn[draw].take (for run-time errors)
    #: discard: ``forbid`` is exactly ``card == X`` and this is ``X`` (see ``compile.bounds``)
    forbid_card: Optional[Fn] = None


@dataclass
class CStep:
    name: str
    actions: list
    repeat: bool = False
    pos: Optional[Pos] = None
    #: the piles its discards name (``discard 2H to b``): set where the step discards to more than one
    named_piles: tuple = ()


@dataclass
class CGoOut:
    name: str
    discard: str
    when: Fn
    rule: str
    layoffs: str
    pos: Pos
    text: str
    arrange: bool = True
    #: ``(K, deadwood)``: ``when`` needs ``deadwood(hand) <= K`` first of all (see ``compile.bounds``)
    cap: Optional[tuple] = None


@dataclass
class COutcome:
    when: Fn
    scorer: str
    points: Fn


@dataclass
class CGoingOut:
    when: Fn
    needs_discard: bool
    keep: int
    permission: Fn                     # true: the partner must agree; "optional": a player may ask, and
    rule: str                          # the answer binds; false: nobody asks
    pos: Pos
    text: str


@dataclass
class CClaim:
    when: Fn
    priority: str
    pos: Pos
    kind: str = "called"
    penalty: Optional[Fn] = None


@dataclass
class MechanicContext:
    """What a mechanic's ``compile`` works with (``rulesdsl.mechanics.base.Mechanic.compile``): the
    ruleset's card table and scope, where problems go, the tables its builtins read (``holder``), which
    cards are wild (``wild``), and the ways to compile a rule: ``rule(expr, key)`` for a rule judged in play (named by its key path in
    run-time errors and ``explain``), ``optional(expr, key)`` for one that may be absent (None), and
    ``card_values(expr)`` for an expression over ``card`` judged once per card at load."""

    model: Ruleset
    n: int
    params: dict
    cards: CardTable
    scope: Scope
    diags: Diagnostics
    holder: dict
    rule: Callable
    optional: Callable
    probe: Any
    wild: tuple = ()              # card id -> whether it is wild (``wild:``)
    codes: dict = field(default_factory=dict)

    def card_values(self, expr) -> list:
        return _card_values(self.scope.compile(expr), expr, self.cards, self.probe, self.diags)

    def located(self, fn: Optional[Fn], key: str, pos: Pos) -> Optional[Fn]:
        """A closure compiled another way (``scope.compile`` wrapped), named by ``key`` in run-time
        errors as ``rule`` names its rules."""
        return located(fn, key, pos, self.codes)


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
    seating: Fn = None
    direction: Fn = None
    roles: dict = None
    on_tie: Fn = None
    wild: tuple = ()                     # card id -> is wild
    table_rules: Any = None              # MeldRules for open melds
    table: Optional[Fn] = None           # empty_hand_ends
    placed_value: Optional[Fn] = None
    claims: dict = None
    teams: int = 0                        # number of partnerships (0: every seat for itself)
    team_zones: list = None
    auto_lay: Optional[tuple] = None      # (class table, to zone, replace-from zone, end hand when it is empty)
    books: list = None                    # [(name, condition(naturals, wilds))]
    initial_minimum: Optional[Fn] = None
    counts_toward: Optional[Fn] = None
    going_out: Any = None                 # CGoingOut
    each_team: Optional[Fn] = None
    discard_zone: Optional[str] = None    # the pile the turn's `discard` action goes to
    reserve_zone: Optional[str] = None    # the per-player packet that becomes the hand (the foot)
    rule_codes: dict = field(default_factory=dict)   # see ``located``: names the rule that failed
    #: key path -> the expression of every rule compiled for play (``turn[draw].take.when``), and the
    #: scope they were compiled in: what ``expr.explain`` needs to say why a rule holds or not
    rule_exprs: dict = field(default_factory=dict)
    scope: Any = None
    _tracer: Any = None
    totals: list = field(default_factory=list)     # [(name, new value)] kept per side across deals
    draft: Optional[tuple] = None                  # (hand zone, discard zone, look zone, position)
    #: mechanic key -> its compiled section, or None (also an attribute each: ``prog.tricks``)
    sections: dict = field(default_factory=dict)
    #: the phases a hand goes through once dealt and exchanged, in order (the last plays the cards)
    hand_flow: tuple = ("turn",)
    #: the per-player zone cards are played from (the card-play mechanic's; else hand)
    hand_zone: str = "hand"
    #: the compiled section of the mechanic that plays the hand's cards (it has ``rank_pos``: card id
    #: -> its rank's position in the order of play), or None
    card_play: Any = None
    #: whether the hand is a race to play one's cards out (the card play ``sheds``)
    sheds: bool = False
    #: the mechanics' hooks (``Mechanic.hooks``) the engine calls whatever phase is playing: when a game
    #: starts, when a deal, trick or turn begins, and before an action is made
    on_start: tuple = ()
    on_begins: tuple = ()
    on_action: tuple = ()

    def tracer(self):
        """The ``expr.explain.Tracer`` of this program (made when first asked for: play never needs it)."""
        if self._tracer is None:
            from ..expr.explain import Tracer
            zones = {name: (spec.per, spec.visible) for name, spec in self.model.zones.items()}
            self._tracer = Tracer(self.scope, tuple(self.cards.text), zones)
        return self._tracer

    def roles_for(self, n: int) -> tuple:
        """(name, points) by finishing position for ``n`` players, or () when the game has no roles."""
        return (self.roles or {}).get(n, ())


class _Rules:
    """Compiles the rules of a ruleset for play: each named by its key path (``turn[draw].take.when``),
    so a run-time error and ``explain`` can say which rule it was and where it is written."""

    def __init__(self, scope: Scope):
        self.scope = scope
        self.codes: dict = {}              # code object of a rule's closure -> (key path, position)
        self.exprs: dict = {}              # key path -> the rule's expression (for explanations)

    def rule(self, e, key: str):
        """A rule that runs during play."""
        self.exprs[key] = e
        return located(self.scope.compile(e), key, e.pos, self.codes)

    def optional(self, e, key: str = ""):
        """A rule that may be absent (None); without a key, compiled but not named."""
        if e is None:
            return None
        return self.rule(e, key) if key else self.scope.compile(e)


def compile_program(model: Ruleset, n: int, params: dict, diags: Diagnostics) -> Optional[Program]:
    """Compile ``model`` for ``n`` players; problems go to ``diags`` (returns None if any).  The parts
    are compiled in a fixed order (the deck, the names rules read, the card tables, then the rules
    section by section), so problems are reported in the same order every time."""
    deck = _deck(model, n, params, diags)
    if deck is None:
        return None
    cards, melds = deck
    holder: dict = {"classes": {}}
    scope = _scope(model, n, params, diags, cards, melds, holder)
    rules = _Rules(scope)
    rc, opt = rules.rule, rules.optional
    probe = _CardProbe(n)
    wild_flags, table_rules = _card_tables(model, scope, cards, probe, diags, rules.codes, holder)
    scope.check_derived()                      # every derived value and function, used or not
    deal = _deal_steps(model, n, params, cards, diags, opt)
    steps = _turn_steps(model, scope, diags, rc, opt)
    go_out = _go_outs(model, scope, diags, rc)
    stock_out = _stock_out(model, rc, opt)
    sc, m = model.scoring, model.match
    multiplier = opt(sc.multiplier, "scoring.multiplier") or Const(1)
    outcomes = [COutcome(rc(o.when, f"scoring.outcomes[{i}].when"), o.scorer,
                         rc(o.points, f"scoring.outcomes[{i}].points")) for i, o in enumerate(sc.outcomes or ())]
    end_bonus = _end_bonus(m, rc, opt)
    ctx = MechanicContext(model, n, params, cards, scope, diags, holder, rc, opt, probe, tuple(wild_flags),
                          rules.codes)
    sections = {mech.key: mech.compile(section, ctx) if section is not None else None
                for mech, section in ((x, model.sections.get(x.key)) for x in mechanics())}
    totals = [(name, rc(e, f"scoring.totals.{name}")) for name, e in sc.totals.items()]
    each_player = opt(sc.each_player, "scoring.each_player")
    each_team = opt(sc.each_team, "scoring.each_team")
    table, books, going_out = _table(model, rc, opt)
    auto_lay = _auto_lay(model, holder, diags, opt)
    t = model.table
    placed_value = opt(t.placed_value, "table.placed_value") if t is not None else None
    holder["placed_value"] = placed_value
    per = {kind: [z for z, spec in model.zones.items() if spec.per == kind] for kind in ("table", "player", "team")}
    prog = Program(model, n, params, cards, melds, per["table"], per["player"], deal, steps, go_out,
                   stock_out, multiplier, outcomes, rc(m.ends_when, "match.ends_when"),
                   opt(m.next_dealer, "match.next_dealer"),
                   end_bonus, model.first_turn, each_player,
                   rc(m.seating, "match.seating"), rc(m.direction, "match.direction"), dict(model.roles),
                   rc(m.on_tie, "match.on_tie"), tuple(wild_flags), table_rules, table, placed_value,
                   {name: CClaim(rc(c.when, f"claims.{name}.when"), c.priority, c.pos, c.kind,
                                 opt(c.penalty, f"claims.{name}.penalty"))
                    for name, c in model.claims.items()},
                   model.teams.count if model.teams is not None else 0, per["team"], auto_lay, books,
                   opt(t.initial_minimum, "table.initial_minimum") if t is not None else None,
                   opt(t.counts_toward_minimum, "table.counts_toward_minimum") if t is not None else None,
                   going_out, each_team)
    prog.totals = totals
    _mechanics(prog, model, sections)
    prog.rule_codes, prog.rule_exprs, prog.scope = rules.codes, rules.exprs, scope
    _last_rules(prog, model, rc, opt)
    return None if diags else prog


def _stock_out(model: Ruleset, rc, opt) -> Optional[tuple]:
    """``stock_out``: (when, last chance, result, ending, unshuffled), or None."""
    so = model.stock_out
    if so is None:
        return None
    return (rc(so.when, "stock_out.when"), opt(so.last_chance, "stock_out.last_chance") or Const(False),
            so.result, so.ending, so.unshuffled)


def _end_bonus(m, rc, opt) -> Optional[tuple]:
    """``match.end_bonus``: (when, points), or None."""
    if m.end_bonus is None:
        return None
    return (opt(m.end_bonus.when, "match.end_bonus.when") or Const(True), rc(m.end_bonus.points, "match.end_bonus.points"))


def _last_rules(prog: Program, model: Ruleset, rc, opt) -> None:
    """What the program reads beside its sections: the draft, a contract, the checks after
    the deal, the pile a turn discards to and the reserve packet."""
    t = model.table
    prog.draft = next(((s.draft, s.discard_to, s.look, s.pos) for s in model.deal if s.draft is not None), None)
    prog.contract = (rc(t.contract, "table.contract"), {k: x.kind for k, x in model.melds.items()}) \
        if t is not None and t.contract is not None else None
    prog.after_deal = [(rc(a.when, f"after_deal[{i}].when"), a.ending, a.result) for i, a in enumerate(model.after_deal)]
    prog.discard_zone = next((a.arg for st in prog.steps for a in st.actions if a.kind == "discard"), None)
    prog.reserve_zone = next((z for z, spec in model.zones.items() if spec.reserve_for), None)


def _deck(model: Ruleset, n: int, params: dict, diags: Diagnostics) -> Optional[tuple]:
    """The card table and the meld engine, or None (with the problem in ``diags``) when the deck's
    copies, jokers or values are not whole numbers in range."""
    copies = setup_value(model.deck.copies, params, n, diags)
    jokers = setup_value(model.deck.jokers, params, n, diags)
    if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= MAX_COPIES:
        diags.error("E-DECK", f"`deck.copies` gives {copies!r}; it must be a whole number from 1 to {MAX_COPIES}",
                    model.deck.copies.pos)
        return None
    if not isinstance(jokers, int) or isinstance(jokers, bool) or not 0 <= jokers <= MAX_JOKERS:
        diags.error("E-DECK", f"`deck.jokers` gives {jokers!r}; it must be a whole number from 0 to {MAX_JOKERS}",
                    model.deck.jokers.pos)
        return None
    values = {}
    for rank, e in model.deck.values.items():
        v = setup_value(e, params, n, diags)
        if v is None and diags:
            return None
        if not isinstance(v, int) or isinstance(v, bool):
            diags.error("E-TYPE", f"the value of `{rank}` gives {v!r}; it must be a whole number", e.pos)
            return None
        values[rank] = v
    cards = build_table(model.deck.ranks, model.deck.suits, copies, jokers, values)
    return cards, MeldEngine(model.melds, cards)


def _scope(model: Ruleset, n: int, params: dict, diags: Diagnostics, cards: CardTable, melds, holder: dict) -> Scope:
    """What rules may read: the names of the zones and the state, each mechanic's names and builtins
    where its section is (and, where it is not, which section a name would need)."""
    table_zones = [z for z, spec in model.zones.items() if spec.per == "table"]
    player_zones = [z for z, spec in model.zones.items() if spec.per == "player"]
    team_zones = [z for z, spec in model.zones.items() if spec.per == "team"]
    names: dict = {}
    dormant: dict = {}                             # names whose mechanic this ruleset lacks -> that section
    names.update(zone_bindings(table_zones, player_zones))
    names.update(state_bindings([s.as_ for s in model.deal if s.as_]))
    if model.table is not None or model.wild is not None:
        names.update(table_bindings())
    else:
        dormant.update(dict.fromkeys(table_bindings(), "open melds (a `table:` section)"))
    names.update(team_bindings(team_zones, model.teams is not None))
    blt = builtins(cards, melds, holder)
    blt.update(card_class_builtins(list(model.classes), holder, cards, dict(model.deck.colors)))
    members: dict = {}                            # what every seat has: `player.NAME`
    for mech in mechanics():                     # each mechanic's names, where its section is
        section = model.sections.get(mech.key)
        if section is not None:
            names.update(mech.names(section))
            blt.update(mech.builtins(section, holder))
            members.update(mech.seat_members(section))
        else:
            dormant.update(dict.fromkeys(mech.dormant(), f"a `{mech.key}:` section"))
    scope = Scope(params, names, blt, dict(model.derived), diags,
                  seat_attrs(player_zones, team_zones, members, tuple(model.scoring.totals)), dormant,
                  cards, closed_sets(model, cards), frozenset(player_zones) | frozenset(team_zones))
    return scope


def _card_tables(model: Ruleset, scope: Scope, cards: CardTable, probe, diags: Diagnostics, rule_codes: dict,
                 holder: dict) -> tuple:
    """The card classes and wild cards, judged once per card, and the rules of melds on the table:
    ``(wild flags by card, MeldRules or None)``."""
    wild_flags = [False] * cards.size
    table_rules = None
    for cname, cexpr in model.classes.items():          # in order: a class may use the ones before it
        holder["classes"][cname] = _card_table(scope.compile(cexpr), cexpr, cards, probe, diags)
    if model.wild is not None:
        wild_flags = _card_table(scope.compile(model.wild), model.wild, cards, probe, diags)
    if model.table is not None or model.wild is not None:
        table_rules = _meld_rules(model, scope, cards, wild_flags, rule_codes)
    holder.update(wild=wild_flags, table_rules=table_rules)
    return wild_flags, table_rules


def _meld_rules(model: Ruleset, scope: Scope, cards: CardTable, wild_flags: list, rule_codes: dict) -> MeldRules:
    """Melds on the table: the meld types, with the group melds' wild-card ratio and conditions."""
    def rule(e, key):
        return located(scope.compile(e), key, e.pos, rule_codes)
    ratio = None
    group = next((x for x in model.melds.values() if x.kind == "group"), None)
    if group is not None and group.wild_ratio is not None:
        gname = next(k for k, x in model.melds.items() if x is group)
        ratio = _ratio_fn(rule(group.wild_ratio, f"melds.{gname}.wild_ratio"))
    closes = model.table.closes_at if model.table is not None else None
    table_rules = MeldRules(model.melds, cards, wild_flags, ratio, closes)
    table_rules.stay_open = model.table is not None and model.table.books_stay_open
    gtypes = [(k, x) for k, x in model.melds.items() if x.kind == "group"]
    if len(gtypes) > 1 or any(x.when is not None for _, x in gtypes):
        table_rules.set_group_conditions(
            [_ratio_fn(rule(x.wild_ratio, f"melds.{k}.wild_ratio")) if x.wild_ratio is not None else None
             for k, x in gtypes],
            [rule(x.when, f"melds.{k}.when") if x.when is not None else None for k, x in gtypes])
    return table_rules


def _deal_steps(model: Ruleset, n: int, params: dict, cards: CardTable, diags: Diagnostics, opt) -> list:
    """The deal, step by step, as the engine plays it (counts known at load where the parameters fix
    them; a step a parameter switches off is skipped)."""
    deal = []
    for di, s in enumerate(model.deal):
        active = None                          # None: every deal; else hand number -> whether it happens
        if s.when is not None:
            if reads_deal_number(s.when):
                active = _per_deal(s.when, params, n)
            elif not setup_value(s.when, params, n, diags):
                deal.append(("skip",))         # a step this parameter set switches off
                continue
        if s.set_aside is not None:
            deal.append(("set_aside", _set_aside(s.set_aside, params, n, cards, diags), s.to, s.pos, active))
        elif s.draft is not None:
            deal.append(("skip",))             # played as a phase of its own once the deal is done (`draft`)
        elif s.deal is not None:
            deal.append(("deal", _deal_count(s, params, n, diags), s.to, s.pos, opt(s.seat, f"deal[{di}].seat"),
                         active))
        else:
            deal.append(("turn_up", s.turn_up, s.as_, s.pos, opt(s.bury_while, f"deal[{di}].bury_while"),
                         opt(s.cover_while, f"deal[{di}].cover_while"), active))
    return deal


def _deal_count(s, params: dict, n: int, diags: Diagnostics):
    """How many cards a `deal:` step gives: "all" (every card, as evenly as possible), a table by deal
    number, or a number."""
    if s.deals_all:
        return "all"
    if reads_deal_number(s.deal):
        return _per_deal(s.deal, params, n)
    return setup_value(s.deal, params, n, diags)


def _turn_steps(model: Ruleset, scope: Scope, diags: Diagnostics, rc, opt) -> list:
    """The turn's steps, each action's rules named by its key path (the 2nd `draw` of a step:
    ``turn[draw].draw#2``)."""
    step_index = {s.step: i for i, s in enumerate(model.turn)}
    steps = []
    for s in model.turn:
        acts = []
        kinds: dict = {}
        for a in s.actions:
            kinds[a.kind] = kinds.get(a.kind, 0) + 1
            key = f"turn[{s.step}].{a.kind}" + (f"#{kinds[a.kind]}" if kinds[a.kind] > 1 else "")
            acts.append(_action(a, key, step_index, scope, diags, rc, opt))
        piles = tuple(dict.fromkeys(a.arg for a in acts if a.kind == "discard"))
        steps.append(CStep(s.step, acts, s.repeat, s.pos, piles if len(piles) > 1 else ()))
    return steps


def _action(a: ActionSpec, key: str, step_index: dict, scope: Scope, diags: Diagnostics, rc, opt) -> CAction:
    """One action of a turn step, compiled."""
    then = None
    if a.then is not None:
        then = {"end_turn": -1, "end_hand": -2}.get(a.then, step_index.get(a.then))
    act = CAction(a.kind, a.draw or a.take or a.discard or a.go_out or a.meld or a.layoff or a.ask,
                  opt(a.when, key + ".when"), opt(a.forbid, key + ".forbid"), a.rule, a.pos, then,
                  a, opt(a.must_meld, key + ".must_meld"), opt(a.count, key + ".count"),
                  (rc(a.meld_with.count, key + ".meld_with.count"), rc(a.meld_with.matching, key + ".meld_with.matching"))
                  if a.meld_with is not None else None,
                  {k: rc(v, f"{key}.mark.{k}") for k, v in a.mark.items()}, key)
    if a.forbid is not None and not isinstance(act.forbid, Const) and not diags:
        act.forbid_card = card_equals(scope, a.forbid)
    return act


def _go_outs(model: Ruleset, scope: Scope, diags: Diagnostics, rc) -> dict:
    """Each named way of going out, with the deadwood cap its condition implies (for the look-ahead)."""
    go_out = {}
    for name, g in model.go_out.items():
        when = rc(g.when, f"go_out.{name}.when")
        cap = deadwood_cap(scope, g.when) if not isinstance(when, Const) and not diags else None
        go_out[name] = CGoOut(name, g.discard, when, g.rule, g.layoffs, g.pos, g.when.text, g.arrange, cap)
    return go_out


def _table(model: Ruleset, rc, opt) -> tuple:
    """Open melds' rules: ``(empty hand ends the hand, books, going out)``."""
    t = model.table
    if t is None:
        return None, [], None
    table = opt(t.empty_hand_ends, "table.empty_hand_ends")
    books = [(k, _ratio_fn(rc(v, f"table.books.{k}"))) for k, v in t.books.items()]
    going_out = None
    if t.going_out is not None:
        go = t.going_out
        going_out = CGoingOut(rc(go.when, "table.going_out.when"), go.needs_discard, go.keep_when_not_out,
                              rc(go.permission, "table.going_out.permission"), go.rule, go.pos, go.when.text)
    return table, books, going_out


def _auto_lay(model: Ruleset, holder: dict, diags: Diagnostics, opt) -> Optional[tuple]:
    """``auto_lay``: (the class's card table, to, replace from, end the hand when empty, replace when)."""
    al = model.auto_lay
    if al is None:
        return None
    if al.class_ not in holder["classes"]:
        diags.error("E-UNKNOWN-CLASS", f"`auto_lay.class` names `{al.class_}`, which is not under `classes:`",
                    al.pos, suggest(al.class_, holder["classes"]) or "classes: " + ", ".join(holder["classes"]))
        return None
    return (holder["classes"][al.class_], al.to, al.replace_from, al.when_empty == "end_hand",
            opt(al.replace_when, "auto_lay.replace_when"))


def _per_deal(expr, params: dict, n: int):
    """A setup value that reads ``deal.number``: evaluated again for each hand."""
    def value(hand_number: int):
        sub = Diagnostics()
        v = setup_value(expr, params, n, sub, hand_number)
        if sub:
            raise RuleEvaluationError(sub.items[0].message, "deal", expr.pos)
        return v
    return value


def _set_aside(expr, params: dict, n: int, cards: CardTable, diags: Diagnostics) -> list:
    """The kinds of the cards a deal step sets aside (``set_aside``), read from parameters and ``players``."""
    v = setup_value(expr, params, n, diags)
    if v is None and diags:
        return []
    if not isinstance(v, (list, tuple)):
        diags.error("E-DEAL", f"`set_aside` gives {v!r} with {n} players; it must be a list of cards", expr.pos,
                    'e.g. `set_aside: \'if players == 3 then ["2D"] else []\'`')
        return []
    kinds = []
    for t in v:
        k = cards.parse_kind(t) if isinstance(t, str) else None
        if k is None:
            diags.error("E-DEAL", f"`set_aside` names {t!r} with {n} players, which is not a card of this deck",
                        expr.pos)
            return []
        kinds.append(k)
    return kinds


def _card_values(fn, expr, cards: CardTable, probe, diags: Diagnostics) -> list:
    """A card expression judged once per card at load (a value, not only a truth)."""
    out = []
    for c in cards.ids:
        probe.cand = c
        try:
            out.append(fn(probe))
        except Exception as exc:
            _card_rule_failed(expr, exc, cards.text[c], diags)
            return [None] * cards.size
    return out


def _mechanics(prog: Program, model: Ruleset, sections: dict) -> None:
    """The mechanics' compiled sections on the program, and what the core reads of them: the hand's
    flow of phases, the zone cards are played from, and the card play's rank order."""
    prog.sections = sections
    for key, compiled in sections.items():
        setattr(prog, key, compiled)
    hooks: dict = {"start": [], "begins": [], "action": []}
    for mech, _section in present(model):              # what the engine calls whatever phase plays
        if sections[mech.key] is not None:
            for event, fn in mech.hooks(sections[mech.key]).items():
                hooks[event].append(fn)
    prog.on_start, prog.on_begins, prog.on_action = (tuple(hooks[e]) for e in ("start", "begins", "action"))
    flow = []
    for mech, _section in sorted(present(model), key=lambda ms: ms[0].stage):
        if sections[mech.key] is not None:
            flow += mech.flow
    play = card_play(model)
    if play is None:
        flow += (["offer"] if model.first_turn is not None else []) + ["turn"]
    prog.hand_flow = tuple(flow)
    if play is not None:
        prog.hand_zone = play[0].play_from(play[1])
        prog.card_play = sections[play[0].key]
        prog.sheds = play[0].sheds
