"""Evaluate setup-time expressions: values fixed before a game exists (deck copies, deal counts).

They may read the parameters, ``players`` and ``deal.number`` (a deal's size may change from deal to
deal); one that reads ``deal.number`` is evaluated again for each hand, and checked at load for the
first ``CHECKED_DEALS`` deals.  Both the checker (for every allowed player count)
and the compiler use this, so "deals more cards than the deck holds" is caught at load time.
"""

from __future__ import annotations

from typing import Any

from ..errors import Diagnostics
from ..expr.ast import Expr
from ..expr.compiler import Binding, Scope

PLAYERS = Binding(lambda ctx: ctx.n, "the number of players")
DEAL_NUMBER = Binding(lambda ctx: ctx.hand_number, "1 for the first hand, 2 for the next, ...", type="number")
#: deals a setup value that reads ``deal.number`` is checked for at load
CHECKED_DEALS = 16


class SetupContext:
    def __init__(self, n: int, hand_number: int = 1):
        self.n = n
        self.hand_number = hand_number
        self.env: dict = {}


def reads_deal_number(expr: Expr) -> bool:
    """Whether a setup value changes from deal to deal."""
    stack = [expr.ast]
    while stack:
        x = stack.pop()
        if x.op == "attr" and x.args[0].op == "name" and x.args[0].args[0] == "deal" and x.args[1] == "number":
            return True
        stack.extend(a for a in x.args if hasattr(a, "op"))
    return False


def deal_numbers(*exprs) -> range:
    """The deal numbers setup values must be checked for."""
    return range(1, CHECKED_DEALS + 1) if any(e is not None and reads_deal_number(e) for e in exprs) else range(1, 2)


def setup_value(expr: Expr, params: dict, n: int, diags: Diagnostics, hand_number: int = 1) -> Any:
    """The value of ``expr`` with ``n`` players in deal ``hand_number`` (problems go to ``diags``)."""
    fn = Scope(params, {"players": PLAYERS, "deal.number": DEAL_NUMBER}, {}, diags=diags).compile(expr)
    try:
        return fn(SetupContext(n, hand_number))
    except Exception as exc:
        shown = " ".join(expr.text.split())
        shown = shown if len(shown) <= 80 else shown[:80] + "..."
        why = getattr(exc, "detail", None) or str(exc)         # the rule's own words, never a Python type
        diags.error("E-EVAL", f"`{shown}` fails with {n} players: {why}", expr.pos,
                    "a value fixed at the deal may read the parameters, `players` and `deal.number`")
        return None
