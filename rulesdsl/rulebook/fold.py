"""Fold an expression with the parameters in force, so the rulebook speaks of the game being played.

Why a fold of its own: the compiler folds to closures, which cannot be read back as text.  Here the
result is again an AST: ``params.limit`` becomes the number in force, a derived value that the
parameters decide becomes its value, and a branch a parameter switches off disappears
(``params.bonus_enabled and ...`` with the switch off is ``false``).  Only a few total operations on
constants are computed, each guarded; anything else is left as written.
"""

from __future__ import annotations

import operator
from typing import Any, Optional

from ..expr.ast import E, Expr, FunctionExpr

_NOTHING = object()

_BIN = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}
#: folded numbers stay readable; a product past this is left as written
_LIMIT = 10 ** 15


class Folder:
    """Folds expressions of one ruleset: ``params`` are the values in force, ``derived`` its derived
    values (functions are never inlined), ``players`` the player count when it is fixed, and
    ``off_endings`` the go-outs that cannot happen (``ending == "NAME"`` is then false)."""

    def __init__(self, params: dict, derived: dict, players: Optional[int] = None,
                 off_endings: frozenset = frozenset()):
        self.params = params
        self.off_endings = off_endings     # go-out names the parameters switch off: no hand ends so
        self.derived = {k: v for k, v in derived.items() if not isinstance(v, FunctionExpr)}
        self.players = players
        self._memo: dict[str, E] = {}
        self._busy: set = set()

    def expr(self, x: Optional[Expr]) -> Optional[E]:
        return None if x is None else self.fold(x.ast)

    def derived_value(self, name: str) -> E:
        """A derived value's folded body (cycles cannot reach here: the ruleset was checked)."""
        if name not in self._memo:
            self._busy.add(name)
            self._memo[name] = self.fold(self.derived[name].ast)
            self._busy.discard(name)
        return self._memo[name]

    def fold(self, e: E, bound: frozenset = frozenset()) -> E:
        """``e`` with everything the parameters decide computed; ``bound`` are comprehension names,
        which hide derived names of the same spelling."""
        op, a = e.op, e.args
        handler = getattr(self, "_" + op, None)
        return handler(e, a, bound) if handler else e

    # one method per operator: each says what it can compute, and keeps the rest

    def _name(self, e, a, bound):
        name = a[0]
        if name in bound:
            return e
        if name == "players" and self.players is not None:
            return E("const", (self.players,), e.pos)
        if name in self.derived and name not in self._busy:
            body = self.derived_value(name)
            return body if body.op == "const" else e
        return e

    def _attr(self, e, a, bound):
        base, member = a
        if base.op == "name" and base.args[0] == "params" and "params" not in bound and member in self.params:
            value = self.params[member]
            if isinstance(value, (list, tuple)):        # a list parameter reads back as a list: [50, 90]
                return E("list", tuple(E("const", (v,), e.pos) for v in value), e.pos)
            return E("const", (value,), e.pos)
        return E("attr", (self.fold(base, bound), member), e.pos)

    def _not(self, e, a, bound):
        inner = self.fold(a[0], bound)
        if inner.op == "const":
            return E("const", (not inner.args[0],), e.pos)
        if inner.op == "not":
            return inner.args[0]
        return E("not", (inner,), e.pos)

    def _and(self, e, a, bound):
        return self._logic(e, a, bound, stop=False)

    def _or(self, e, a, bound):
        return self._logic(e, a, bound, stop=True)

    def _logic(self, e, a, bound, stop: bool):
        """``and`` stops at a false side, ``or`` at a true one; a constant side that does not stop
        leaves the other side alone."""
        left, right = self.fold(a[0], bound), self.fold(a[1], bound)
        for side, other in ((left, right), (right, left)):
            if side.op == "const" and isinstance(side.args[0], bool):
                return E("const", (stop,), e.pos) if side.args[0] is stop else other
        return E(e.op, (left, right), e.pos)

    def _if(self, e, a, bound):
        cond = self.fold(a[0], bound)
        if cond.op == "const" and isinstance(cond.args[0], bool):
            return self.fold(a[1] if cond.args[0] else a[2], bound)
        yes, no = self.fold(a[1], bound), self.fold(a[2], bound)
        if yes == no:                                  # both branches alike (a switched-off bonus: 0 and 0)
            return yes
        return E("if", (cond, yes, no), e.pos)

    def _neg(self, e, a, bound):
        inner = self.fold(a[0], bound)
        if inner.op == "const" and _number(inner.args[0]):
            return E("const", (-inner.args[0],), e.pos)
        return E("neg", (inner,), e.pos)

    def _bin(self, e, a, bound):
        left, right = self.fold(a[1], bound), self.fold(a[2], bound)
        value = _compute(a[0], left, right)
        if value is not _NOTHING:
            return E("const", (value,), e.pos)
        if _neutral(a[0], right):                      # x + 0, x - 0, x * 1: what a switched-off bonus leaves
            return left
        if a[0] in "+*" and _neutral(a[0], left):
            return right
        return E("bin", (a[0], left, right), e.pos)

    def _cmp(self, e, a, bound):
        left, right = self.fold(a[1], bound), self.fold(a[2], bound)
        if (a[0] == "==" and left.op == "name" and left.args[0] == "ending" and "ending" not in bound
                and right.op == "const" and right.args[0] in self.off_endings):
            return E("const", (False,), e.pos)
        if left.op == "const" and right.op == "const":
            x, y = left.args[0], right.args[0]
            if a[0] in ("==", "!=") or (_number(x) and _number(y)):
                return E("const", (_CMP[a[0]](x, y),), e.pos)
        return E("cmp", (a[0], left, right), e.pos)

    def _in(self, e, a, bound):
        item, seq = self.fold(a[0], bound), self.fold(a[1], bound)
        if item.op == "const" and seq.op == "list" and all(x.op == "const" for x in seq.args):
            return E("const", (item.args[0] in [x.args[0] for x in seq.args],), e.pos)
        return E("in", (item, seq), e.pos)

    def _list(self, e, a, bound):
        return E("list", tuple(self.fold(x, bound) for x in a), e.pos)

    def _index(self, e, a, bound):
        base, idx = self.fold(a[0], bound), self.fold(a[1], bound)
        items = base.args if base.op == "list" else None
        if items is not None and idx.op == "const" and isinstance(idx.args[0], int) \
                and not isinstance(idx.args[0], bool) and 0 <= idx.args[0] < len(items):
            return items[idx.args[0]]
        return E("index", (base, idx), e.pos)

    def _call(self, e, a, bound):
        return E("call", (a[0],) + tuple(self.fold(x, bound) for x in a[1:]), e.pos)

    def _comp(self, e, a, bound):
        name, item, var, seq, cond = a
        inner = bound | {var}
        return E("comp", (name, self.fold(item, inner), var, self.fold(seq, bound),
                          None if cond is None else self.fold(cond, inner)), e.pos)


def _neutral(op: str, side: E) -> bool:
    """Whether ``side`` leaves the other operand of ``op`` unchanged (0 for + and -, 1 for *)."""
    if side.op != "const" or not _number(side.args[0]):
        return False
    return (op in ("+", "-") and side.args[0] == 0) or (op == "*" and side.args[0] == 1)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _compute(op: str, left: E, right: E) -> Any:
    """``left op right`` for two numbers when it is exact and small; else ``_NOTHING``."""
    if left.op != "const" or right.op != "const" or op not in _BIN:
        return _NOTHING
    x, y = left.args[0], right.args[0]
    if not (_number(x) and _number(y)):
        return _NOTHING
    value = _BIN[op](x, y)
    return value if abs(value) <= _LIMIT else _NOTHING
