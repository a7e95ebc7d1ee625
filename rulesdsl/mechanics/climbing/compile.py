"""Climbing compiled: the rank order, the play patterns, the rules as closures, and what the phase's
memo may key on.

Why the analyses here: listing plays is the hot loop of a climbing game.  ``suits_matter`` says whether
any rule reads a suit (if none does, one play per choice of ranks is listed); ``same_size`` whether
``beats`` can only hold between plays of one size (then only that size is listed); ``beats_reads``
what ``beats`` and ``names_suit`` depend on, so the phase judges a play by one look-up.  Each is worked
out with the parameters in force, so a variant that is off costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ...compile.patterns import WILD_RANK, Pattern, Patterns
from ...compile.program import _ratio_fn
from ...expr.ast import E
from ...expr.compiler import Scope
from ...model.game import MeldType
from ...source.tree import Pos

#: the rank name a play of wild cards only reads as (`play.rank_name`)
WILD_RANK_NAME = "wild"

Fn = Any


@dataclass
class CToggle:
    name: str
    when: Fn
    reverses_order: Fn
    reverses_direction: Fn
    resets: Fn
    sets: bool = False                     # effect: set (else flip)
    resets_each_trick: Optional[Fn] = None


@dataclass
class COutHook:
    when: Fn
    drops_to_last: Fn


@dataclass
class CClimb:
    play_from: str
    to: str
    cleared_to: str
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
    first_leader: Fn
    toggles: list
    pos: Pos
    patterns: Any = None                   # compile.patterns.Patterns
    suits_matter: bool = False             # list every distinct play (else one per rank choice)
    suit_pos: dict = None                  # suit index -> position in the suit order
    opening: Optional[Fn] = None
    on_going_out: list = None
    ends_when: Optional[Fn] = None
    blocked_ends_hand: bool = False
    draw_from: Optional[str] = None
    draw_when: Optional[Fn] = None
    pass_when: Optional[Fn] = None
    next_draws: Optional[Fn] = None
    names_suit: Optional[Fn] = None
    rank_pos: tuple = ()                   # card id -> its rank's position in `order` (the order of play)
    same_size: bool = False                # `beats` needs play.size == last.size: list only that size
    beats_reads: Optional[tuple] = None    # (play/last members, other getters) `beats` depends on; None: more
    names_suit_reads: Optional[tuple] = None



#: names whose value depends on the suits of the cards played: reading one makes every suit choice a
#: different play in the legal list
SUIT_NAMES = frozenset(f"{w}.{m}" for w in ("play", "last") for m in ("high", "suit", "suits"))


_UNKNOWN = object()


def _static(x, params: dict):
    """An expression's value when the parameters alone decide it, else ``_UNKNOWN``."""
    op, a = x.op, x.args
    if op == "const":
        return a[0]
    if op == "attr" and a[0].op == "name" and a[0].args[0] == "params":
        return params.get(a[1], _UNKNOWN)
    if op == "not":
        v = _static(a[0], params)
        return _UNKNOWN if v is _UNKNOWN else not v
    if op in ("and", "or"):
        left, right = _static(a[0], params), _static(a[1], params)
        if op == "and" and (left is False or right is False):
            return False
        if op == "or" and (left is True or right is True):
            return True
        return _UNKNOWN if _UNKNOWN in (left, right) else (left and right if op == "and" else left or right)
    if op == "cmp" and a[0] in ("==", "!="):
        left, right = _static(a[1], params), _static(a[2], params)
        if _UNKNOWN in (left, right):
            return _UNKNOWN
        return (left == right) == (a[0] == "==")
    return _UNKNOWN


def _dotted(e, params: dict) -> set:
    """Every ``a.b`` name an expression can read with these parameters (branches the parameters
    switch off are skipped: a variant that is off costs nothing)."""
    out, stack = set(), [e.ast]
    while stack:
        x = stack.pop()
        if _static(x, params) is not _UNKNOWN:
            continue
        if x.op == "attr" and x.args[0].op == "name":
            out.add(f"{x.args[0].args[0]}.{x.args[1]}")
        if x.op == "if":
            cond = _static(x.args[0], params)
            if cond is not _UNKNOWN:
                stack.append(x.args[1] if cond else x.args[2])
                continue
        stack.extend(a for a in x.args if hasattr(a, "op"))
    return out


def _same_size(x, params: dict) -> bool:
    """Whether a ``beats`` expression can hold only when ``play.size == last.size`` (with these
    parameters): then only plays of the last play's size need be listed."""
    v = _static(x, params)
    if v is not _UNKNOWN:
        return not v
    op, a = x.op, x.args
    if op == "cmp" and a[0] == "==":
        names = {f"{e.args[0].args[0]}.{e.args[1]}" for e in a[1:] if e.op == "attr" and e.args[0].op == "name"}
        return names == {"play.size", "last.size"}
    if op == "and":
        return _same_size(a[0], params) or _same_size(a[1], params)
    if op == "or":
        return _same_size(a[0], params) and _same_size(a[1], params)
    if op == "if":
        cond = _static(a[0], params)
        if cond is not _UNKNOWN:
            return _same_size(a[1] if cond else a[2], params)
        return _same_size(a[1], params) and _same_size(a[2], params)
    return False


class _Unknowable(Exception):
    """An expression reads something other than plain values (see ``_view_reads``)."""


#: a name the listing changes per play judged: never part of a memo key
_PER_PLAY = "trick.same_rank_streak"


def _view_reads(e, scope: Scope) -> Optional[tuple]:
    """What a ``play``/``last`` condition (``beats``, ``names_suit``) depends on, for the engine's memo:
    ``(members, getters)`` -- the ``play.*``/``last.*`` members it reads, and the getters of the other
    names it reads, each a plain number, truth value or text that judging plays leaves unchanged (such
    as ``draws_owed``).  Its value is then a function of those alone.  None when it reads anything else
    (a derived value, a function, a comprehension, a seat, ``trick.same_rank_streak``).

    Branches are skipped exactly where the compiler folds them away (a parameter or a constant decides
    the left side of ``and``/``or``, or an ``if``): a variant that is off adds nothing to the key."""
    members, getters = set(), {}

    def plain(name: str):
        b = scope.names.get(name)
        if b is None or name == _PER_PLAY or b.type not in ("number", "bool", "text"):
            raise _Unknowable(name)
        getters.setdefault(name, b.get)
        return _UNKNOWN

    def walk(x):
        """The folded value (as the compiler folds it), or ``_UNKNOWN``; records what is read."""
        op, a = x.op, x.args
        if op == "const":
            return a[0]
        if op == "attr" and a[0].op == "name":
            base, member = a[0].args[0], a[1]
            if base == "params":
                if member not in scope.params:
                    raise _Unknowable(member)
                return scope.params[member]
            if base in ("play", "last") and f"{base}.{member}" in scope.names:
                members.add(member)
                return _UNKNOWN
            return plain(f"{base}.{member}")
        if op == "name":
            return plain(a[0])
        if op == "not":
            v = walk(a[0])
            return _UNKNOWN if v is _UNKNOWN else not v
        if op in ("and", "or"):
            v = walk(a[0])
            if v is _UNKNOWN:
                walk(a[1])
                return _UNKNOWN
            return walk(a[1]) if bool(v) == (op == "and") else v     # as the compiler folds a constant left side
        if op == "if":
            v = walk(a[0])
            if v is not _UNKNOWN:
                return walk(a[1] if v else a[2])
            walk(a[1])
            walk(a[2])
            return _UNKNOWN
        if op == "cmp" and a[0] in ("==", "!="):
            left, right = walk(a[1]), walk(a[2])
            if left is _UNKNOWN or right is _UNKNOWN:
                return _UNKNOWN
            return (left == right) == (a[0] == "==")
        if op in ("cmp", "bin", "in", "index", "neg", "list"):
            for y in a:
                if isinstance(y, E):
                    walk(y)
            return _UNKNOWN
        raise _Unknowable(op)

    if e is None:
        return (), ()
    try:
        walk(e.ast)
    except _Unknowable:
        return None
    return tuple(sorted(members)), tuple(getters[n] for n in sorted(getters))


def compile_climbing(c, ctx) -> Optional["CClimb"]:
    """The section compiled for ``ctx``'s program, or None (with the problem in ``ctx.diags``)."""
    cards, scope = ctx.cards, ctx.scope
    ranks = list(cards.ranks)
    names = {i: r for i, r in enumerate(ranks)}
    if cards.jokers:
        names[-1] = "joker"
    names[WILD_RANK] = WILD_RANK_NAME
    if c.order is not None:
        order = []
        for r in c.order:
            if r == "joker":
                order.append(-1)
            elif r in ranks:
                order.append(ranks.index(r))
        missing = [names[k] for k in names if k not in order and k != WILD_RANK]
        if missing:
            ctx.diags.error("E-CLIMB-ORDER", f"`climbing.order` leaves out {', '.join(missing)}", c.pos,
                            "every rank of the deck (and `joker` when there are jokers) must be ordered")
            return None
    else:
        order = list(range(len(ranks))) + ([-1] if cards.jokers else [])
    lo, hi = c.sizes[0], c.sizes[-1]

    def rc(e, rule: str):
        return ctx.rule(e, "climbing." + rule)

    def opt(e, rule: str):
        return rc(e, rule) if e is not None else None

    toggles = [CToggle(name, rc(t.when, f"toggles.{name}.when"), rc(t.reverses_order, f"toggles.{name}.reverses_order"),
                       rc(t.reverses_direction, f"toggles.{name}.reverses_direction"),
                       rc(t.resets_each_deal, f"toggles.{name}.resets_each_deal"), t.effect == "set",
                       opt(t.resets_each_trick, f"toggles.{name}.resets_each_trick"))
               for name, t in c.toggles.items()]
    suit_names = list(cards.suits)
    suit_order = [suit_names.index(s) for s in (c.suit_order or suit_names) if s in suit_names]
    suit_order += [i for i in range(len(suit_names)) if i not in suit_order]
    suit_pos = {s: i for i, s in enumerate(suit_order)}
    patterns = _play_patterns(c, cards, order, scope, ctx.located, lo, hi)
    pats = Patterns(patterns, cards, order, list(ctx.wild))
    pats.suit_pos = suit_pos
    read = set()
    exprs = [c.beats, c.takes_last_rank, c.skip_next, c.clears_trick, c.goes_last, c.ends_when, c.draw_when,
             c.pass_when, c.next_draws, c.names_suit] + [t.when for t in c.toggles.values()] + [
                 e for h in c.on_going_out for e in (h.when, h.drops_to_last)]
    for e in exprs:
        if e is not None:
            read |= _dotted(e, scope.params)
    suits_matter = (pats.suit_sensitive or bool(read & SUIT_NAMES)
                    or any(e is not None and _static(e.ast, scope.params) not in (None, False)
                           for e in (c.names_suit, c.opening_play_includes)))
    hooks = [COutHook(rc(h.when, f"on_going_out[{i}].when"), rc(h.drops_to_last, f"on_going_out[{i}].drops_to_last"))
             for i, h in enumerate(c.on_going_out)]
    climb = CClimb(c.play_from, c.to, c.cleared_to, order, names, rc(c.beats, "beats"), c.beats.text,
                   c.beats.pos, opt(c.takes_last_rank, "takes_last_rank"), opt(c.skip_next, "skip_next"),
                   opt(c.clears_trick, "clears_trick"), opt(c.goes_last, "goes_last"),
                   rc(c.pass_locks_out, "pass_locks_out"), rc(c.first_leader, "first_leader"), toggles, c.pos,
                   pats, suits_matter, suit_pos, opt(c.opening_play_includes, "opening_play_includes"), hooks,
                   opt(c.ends_when, "ends_when"), c.all_passed == "end_hand", c.draw_from,
                   opt(c.draw_when, "draw_when"), opt(c.pass_when, "pass_when"), opt(c.next_draws, "next_draws"),
                   opt(c.names_suit, "names_suit"))
    climb.same_size = _same_size(c.beats.ast, scope.params)
    climb.beats_reads = _view_reads(c.beats, scope)
    climb.names_suit_reads = _view_reads(c.names_suit, scope)
    climb.rank_pos = tuple(pats.pos[cards.rank[x]] for x in cards.ids)
    return climb


def _play_patterns(c, cards, order: list, scope: Scope, located, lo: int, hi: int) -> list:
    """The patterns of ``climbing.plays`` (or, without it, ``sizes`` cards of one rank) compiled."""
    ranks = list(cards.ranks)
    declared = c.plays or {"set": MeldType("set", lo, hi, None, False, False, None, None, c.pos)}
    out = []
    for tier, (name, m) in enumerate(declared.items()):
        allowed = frozenset(ranks.index(r) for r in m.ranks if r in ranks) if m.ranks else None
        if m.order:
            run_order = tuple(ranks.index(r) for r in m.order if r in ranks)
        else:
            run_order = tuple(k for k in order if k >= 0)
        ratio = None
        if m.wild_ratio is not None:
            ratio = _ratio_fn(located(scope.compile(m.wild_ratio), f"climbing.plays.{name}.wild_ratio",
                                      m.wild_ratio.pos))
        size_max = m.max if m.max is not None else (sum(m.groups) if m.groups else
                                                   (len(run_order) if m.kind == "run" else cards.size))
        size_min = sum(m.groups) if m.kind == "rank_groups" and m.groups else m.min
        out.append(Pattern(name, tier, m.kind, size_min, size_max, allowed, run_order, m.wrap,
                           m.suits != "any", m.distinct_suits,
                           tuple(sorted(m.groups or (), reverse=True)), ratio))
    return out
