"""Evaluate setup-time expressions: values fixed before a game exists (deck copies, deal counts).

They may read the parameters and ``players`` only.  Both the checker (for every allowed player count)
and the compiler use this, so "deals more cards than the deck holds" is caught at load time.
"""

from __future__ import annotations

from typing import Any

from ..errors import Diagnostics
from ..expr.ast import Expr
from ..expr.compiler import Binding, Scope

PLAYERS = Binding(lambda ctx: ctx.n, "the number of players")


class SetupContext:
    def __init__(self, n: int):
        self.n = n
        self.env: dict = {}


def setup_value(expr: Expr, params: dict, n: int, diags: Diagnostics) -> Any:
    """The value of ``expr`` with ``n`` players (problems go to ``diags``)."""
    fn = Scope(params, {"players": PLAYERS}, {}, diags=diags).compile(expr)
    try:
        return fn(SetupContext(n))
    except Exception as exc:
        shown = " ".join(expr.text.split())
        shown = shown if len(shown) <= 80 else shown[:80] + "..."
        diags.error("E-EVAL", f"`{shown}` fails with {n} players: {type(exc).__name__}: {exc}", expr.pos)
        return None
