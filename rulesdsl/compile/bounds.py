"""Static facts about a compiled condition that let the engine skip work it would throw away.

Two shapes are recognised, each where using it cannot change any outcome.

**A deadwood cap.**
A go-out that discards (``knock 7H``) is judged once per card of the hand, on the hand without that
card: eleven evaluations per turn for an eleven-card hand, nearly all false.  When the condition
demands a small deadwood (``deadwood(hand) <= 10`` or ``== 0`` among its top-level ``and`` terms),
most of those evaluations can be answered without running it, exactly:

    removing a card ``c`` lowers the minimum deadwood by at most the card's value, because the
    arrangement that is best without ``c`` is still an arrangement of the hand with ``c`` left
    unmelded:  deadwood(hand) <= deadwood(hand - c) + value(c).

So if ``deadwood(hand) - value(c)`` already exceeds the cap, the condition is false for ``c``.  The
engine computes ``deadwood(hand)`` once per scan (one memo look-up) and runs the condition only for
the cards that survive.  The cap is recognised only where skipping cannot change an outcome: every
term before the deadwood test folds to true (so none of them could have raised or been false first),
the cap is a constant, and ``hand`` is the acting player's zone that the scan removes cards from.

**A card singled out.**  A discard restriction is judged for every card of the hand (``forbid: card ==
turn.taken``: not the card just taken).  When the whole condition, once constants are folded, is
``card == X`` with ``X`` a turn or deal value (which no candidate card changes), one evaluation of
``X`` names the only card it refuses.
"""

from __future__ import annotations

from typing import Optional

from ..expr.ast import E
from ..expr.compiler import CompileError, Const


def _conjuncts(e: E) -> list:
    """The top-level ``and`` terms of ``e``, left to right."""
    if e.op == "and":
        return _conjuncts(e.args[0]) + _conjuncts(e.args[1])
    return [e]


def _const(scope, e: E):
    """``e``'s value if it folds to a constant, else a marker that it does not."""
    try:
        fn = scope._c(e)
    except CompileError:
        return _NOT_CONST
    return fn.value if isinstance(fn, Const) else _NOT_CONST


_NOT_CONST = object()


def deadwood_cap(scope, expr, zone: str = "hand") -> Optional[tuple]:
    """``(K, deadwood)`` when ``expr`` is a chain of ``and`` terms whose first non-constant term is
    ``deadwood(zone) <= K`` (or ``< K``, ``== K``) for a whole number ``K``: the condition cannot hold
    while ``deadwood(zone) > K``, and ``deadwood`` is that term's own compiled ``deadwood(zone)``.
    Else None (no shortcut)."""
    if expr is None:
        return None
    for term in _conjuncts(expr.ast):
        value = _const(scope, term)
        if value is _NOT_CONST:
            return _cap_of(scope, term, zone)
        if value is not True:
            return None                  # a constant false (or a non-boolean): leave it to the rule
    return None


def _cap_of(scope, term: E, zone: str) -> Optional[int]:
    if term.op != "cmp" or term.args[0] not in ("<=", "<", "=="):
        return None
    sym, left, right = term.args
    if not (left.op == "call" and left.args[0] == "deadwood" and len(left.args) == 2):
        return None
    arg = left.args[1]
    if not (arg.op == "name" and arg.args[0] == zone):
        return None
    try:
        if getattr(scope._c(arg), "player_zone", None) != zone:
            return None                  # `hand` is not the acting player's zone here
    except CompileError:
        return None
    k = _const(scope, right)
    if type(k) is not int:
        return None
    try:
        deadwood = scope._c(left)
    except CompileError:
        return None
    return (k - 1 if sym == "<" else k), deadwood


#: bindings that no candidate card changes: what happened this turn and this deal
_STATE_PREFIXES = ("turn.", "deal.")


def card_equals(scope, expr):
    """The compiled ``X`` when ``expr`` is, after folding, exactly ``card == X`` (or ``X == card``) with
    ``X`` a ``turn.*`` or ``deal.*`` value; else None."""
    if expr is None:
        return None
    terms = [t for t in _conjuncts(expr.ast) if _const(scope, t) is not True]
    if len(terms) != 1 or terms[0].op != "cmp" or terms[0].args[0] != "==":
        return None
    _sym, left, right = terms[0].args
    other = right if _is_card(left) else left if _is_card(right) else None
    if other is None or _dotted(other) is None or not _dotted(other).startswith(_STATE_PREFIXES):
        return None
    if _dotted(other) not in scope.names:
        return None
    return scope.names[_dotted(other)].get


def _is_card(e: E) -> bool:
    return e.op == "name" and e.args[0] == "card"


def _dotted(e: E) -> Optional[str]:
    """``turn.taken`` for the expression ``turn.taken``; None for anything else."""
    if e.op == "attr" and e.args[0].op == "name":
        return f"{e.args[0].args[0]}.{e.args[1]}"
    return None
