"""Compile expression ASTs into Python closures, once per load.

A compiled expression is a function of one argument, the evaluation context (the engine's game state,
or any object that offers what the bindings read).  Nothing is looked up by name at evaluation time:
names are resolved here, parameters are folded to constants, and operators over constants are folded
too, so ``if params.knock_limit_from_upcard then ... else params.knock_limit`` becomes a constant.

There are no loops, no recursion, no assignment and no access to Python objects: comprehensions range
over finite collections, derived values may not refer to themselves, so every evaluation terminates.
Problems (unknown names, wrong arity, bad types known at compile time) become located diagnostics.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import Diagnostics, suggest
from ..source import MAX_NUMBER
from .ast import E, Expr


class Const:
    """A compile-time constant (the result of folding)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value

    def __call__(self, ctx: Any) -> Any:
        return self.value


@dataclass
class Binding:
    """A name the context provides: ``get(ctx)`` reads it; ``attrs`` are its dotted members."""

    get: Callable[[Any], Any]
    doc: str = ""
    attrs: dict = field(default_factory=dict)   # attr name -> Binding (get receives ctx, base value)


@dataclass
class Builtin:
    """A library function: ``fn(ctx, *args)``; ``pure`` ones fold over constant arguments."""

    fn: Callable[..., Any]
    arity: tuple[int, int]          # (min, max); max -1 = any
    doc: str = ""
    pure: bool = False
    fuse: Optional[Callable[[Callable], Optional[Callable]]] = None   # one-argument fast path


class CompileError(Exception):
    pass


MAX_SEQUENCE = 10_000      # no expression builds a text or list longer than this
MAX_COMP_NESTING = 2       # comprehensions inside comprehensions, at most this many levels (lexically)
MAX_STEPS = 100_000        # items all the comprehensions of one evaluation may go through


class TooLarge(ValueError):
    """A number past ``MAX_NUMBER`` (folded from constants, or a product in play)."""


class EvaluationTooCostly(ValueError):
    """An evaluation went through more than ``MAX_STEPS`` comprehension items; ``pos`` is where the
    comprehension that passed the budget is written."""

    def __init__(self, message: str, pos=None):
        super().__init__(message)
        self.pos = pos


def _bounded(value: Any) -> Any:
    """``value``, unless it is a number beyond ``MAX_NUMBER`` (raises ``TooLarge``, safely worded)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise TooLarge(f"it gives {_number_words(value)}; numbers in rules stay within +-{MAX_NUMBER:,}")
    return value


def _number_words(value: Any) -> str:
    """A number for a message, without ever formatting thousands of digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        digits = len(str(value)) if value.bit_length() < 4000 else int(value.bit_length() * 0.30103) + 1
        return f"a number of {digits:,} digits" if digits > 20 else f"`{value}`"
    return f"`{value!r}`"


def _numbers_only(op):
    def run(a, b):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            raise TypeError(f"`{symbol}` takes numbers, not {type(a).__name__} and {type(b).__name__}")
        return op(a, b)

    def bounded_product(a, b):          # a product is the one way a number can explode in play
        return _bounded(run(a, b))

    if op is operator.mul:
        return bounded_product
    symbol = {operator.mul: "*", operator.sub: "-", operator.truediv: "/", operator.floordiv: "//",
              operator.mod: "%"}[op]
    return run


def _add(a, b):
    """Numbers add; texts and lists join, within ``MAX_SEQUENCE``."""
    out = a + b
    if isinstance(out, (str, tuple, list)) and len(out) > MAX_SEQUENCE:
        raise ValueError(f"an expression built a sequence longer than {MAX_SEQUENCE}")
    return out


_BIN = {"+": _add, "-": _numbers_only(operator.sub), "*": _numbers_only(operator.mul),
        "/": _numbers_only(operator.truediv), "//": _numbers_only(operator.floordiv),
        "%": _numbers_only(operator.mod)}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}
def _max(seq):
    return max(seq, default=0)


def _min(seq):
    return min(seq, default=0)


_AGG = {"sum": sum, "count": len, "max": _max, "min": _min, "any": any, "all": all}


class Scope:
    """Everything a ruleset's expressions may name, for one compile."""

    def __init__(self, params: dict[str, Any], names: dict[str, Binding], builtins: dict[str, Builtin],
                 derived: Optional[dict[str, Expr]] = None, diags: Optional[Diagnostics] = None,
                 seat_attrs: Optional[dict[str, Callable[[Any, Any], Any]]] = None):
        self.params = params
        self.names = names
        self.builtins = builtins
        self.derived = derived or {}
        self.seat_attrs = seat_attrs or {}
        self.diags = diags if diags is not None else Diagnostics()
        self._derived_done: dict[str, Callable] = {}
        self._derived_busy: set[str] = set()
        self._locals: list[str] = []

    # ------------------------------------------------------------------ public
    def compile(self, expr: Expr, extra: tuple[str, ...] = ()) -> Callable[[Any], Any]:
        """Compile one expression field; on error records a diagnostic and returns a constant None."""
        try:
            return self._c(expr.ast)
        except CompileError:
            return Const(None)

    def known_names(self) -> list[str]:
        return sorted(set(self.names) | set(self.derived) | {"params"} | set(self.builtins))

    # ------------------------------------------------------------------ internals
    def _fail(self, e: E, code: str, msg: str, hint: str = "") -> None:
        self.diags.error(code, msg, e.pos, hint)
        raise CompileError(msg)

    def _c(self, e: E) -> Callable[[Any], Any]:
        op, a = e.op, e.args
        if op == "const":
            return Const(a[0])
        if op == "name":
            return self._name(e, a[0])
        if op == "attr":
            return self._attr(e)
        if op == "index":
            base, idx = self._c(a[0]), self._c(a[1])
            return self._fold2(lambda x, i: x[i], base, idx, e)
        if op == "neg":
            inner = self._c(a[0])
            return self._fold1(operator.neg, inner, e)
        if op == "not":
            inner = self._c(a[0])
            return self._fold1(operator.not_, inner, e)
        if op == "and":
            x, y = self._c(a[0]), self._c(a[1])
            if isinstance(x, Const):
                return y if x.value else x
            return lambda c: x(c) and y(c)
        if op == "or":
            x, y = self._c(a[0]), self._c(a[1])
            if isinstance(x, Const):
                return x if x.value else y
            return lambda c: x(c) or y(c)
        if op == "bin":
            return self._fold2(_BIN[a[0]], self._c(a[1]), self._c(a[2]), e)
        if op == "cmp":
            return self._fold2(_CMP[a[0]], self._c(a[1]), self._c(a[2]), e)
        if op == "in":
            return self._fold2(lambda x, s: x in s, self._c(a[0]), self._c(a[1]), e)
        if op == "if":
            cond, yes, no = self._c(a[0]), self._c(a[1]), self._c(a[2])
            if isinstance(cond, Const):
                return yes if cond.value else no
            return lambda c: yes(c) if cond(c) else no(c)
        if op == "list":
            items = [self._c(x) for x in a]
            if all(isinstance(i, Const) for i in items):
                return Const(tuple(i.value for i in items))
            return lambda c: tuple(i(c) for i in items)
        if op == "call":
            return self._call(e)
        if op == "comp":
            return self._comp(e)
        self._fail(e, "E-EXPR", f"unsupported expression `{e}`")
        raise AssertionError

    def _fold1(self, f, x, e: Optional[E] = None):
        if isinstance(x, Const):
            try:
                return Const(_bounded(f(x.value)))
            except Exception as exc:      # constant operands: it would fail every time
                self._fold_error(e, exc)
        return lambda c: f(x(c))

    def _fold_error(self, e: Optional[E], exc: Exception) -> None:
        if e is not None:
            shown = str(e)
            shown = shown if len(shown) <= 80 else shown[:80] + "..."
            if isinstance(exc, TooLarge):
                self._fail(e, "E-LIMIT", f"`{shown}` is too large: {exc}", "numbers in rules are small")
            self._fail(e, "E-EVAL", f"`{shown}` cannot be computed: {type(exc).__name__}: {exc}")

    def _fold2(self, f, x, y, e: Optional[E] = None):
        if isinstance(x, Const) and isinstance(y, Const):
            try:
                return Const(_bounded(f(x.value, y.value)))
            except Exception as exc:
                self._fold_error(e, exc)
        if isinstance(y, Const):
            yv = y.value
            return lambda c: f(x(c), yv)
        if isinstance(x, Const):
            xv = x.value
            return lambda c: f(xv, y(c))
        return lambda c: f(x(c), y(c))

    def _name(self, e: E, name: str) -> Callable[[Any], Any]:
        if name in self._locals:
            return lambda c, _n=name: c.env[_n]
        if name in self.names:
            return self.names[name].get
        if name in self.derived:
            return self._derived(e, name)
        if name == "params":
            self._fail(e, "E-EXPR", "`params` needs a parameter name, as in `params.knock_limit`")
        self._fail(e, "E-UNDEFINED", f"unknown name `{name}`",
                   suggest(name, self.known_names()) or "names: " + ", ".join(sorted(self.names)[:12]))
        raise AssertionError

    def _derived(self, e: E, name: str) -> Callable[[Any], Any]:
        if name in self._derived_done:
            return self._derived_done[name]
        if name in self._derived_busy:
            self._fail(e, "E-CYCLE", f"derived value `{name}` refers to itself",
                       "derived values may not depend on themselves, directly or through others")
        self._derived_busy.add(name)
        saved, self._locals = self._locals, []
        try:
            fn = self._c(self.derived[name].ast)
        finally:
            self._locals = saved
            self._derived_busy.discard(name)
        self._derived_done[name] = fn
        return fn

    def _attr(self, e: E) -> Callable[[Any], Any]:
        base_e, attr = e.args
        if base_e.op == "name" and base_e.args[0] == "params" and "params" not in self._locals:
            if attr not in self.params:
                self._fail(e, "E-UNDEFINED-PARAM", f"unknown parameter `{attr}`",
                           suggest(attr, self.params) or "declare it under `params:`")
            return Const(self.params[attr])
        if base_e.op == "name":
            dotted = f"{base_e.args[0]}.{attr}"
            if dotted in self.names:
                return self.names[dotted].get
        base = self._c(base_e)
        if attr in self.seat_attrs:
            get = self.seat_attrs[attr]
            return lambda c: get(c, base(c))
        known = sorted(self.seat_attrs) + sorted(n.split(".", 1)[1] for n in self.names if "." in n)
        self._fail(e, "E-UNDEFINED", f"unknown member `{attr}` in `{e}`", suggest(attr, known))
        raise AssertionError

    def _call(self, e: E) -> Callable[[Any], Any]:
        name, arg_es = e.args[0], e.args[1:]
        if name in _AGG and name not in self.builtins:
            if len(arg_es) == 1:
                seq = self._c(arg_es[0])
                f = _AGG[name]
                return self._fold1(f, seq, e)
            if name in ("max", "min") and arg_es:
                args = [self._c(x) for x in arg_es]
                f = _AGG[name]
                if all(isinstance(x, Const) for x in args):
                    try:
                        return Const(_bounded(f([x.value for x in args])))
                    except Exception as exc:
                        self._fold_error(e, exc)
                return lambda c: f([x(c) for x in args])
        b = self.builtins.get(name)
        if b is None:
            self._fail(e, "E-UNDEFINED", f"unknown function `{name}`",
                       suggest(name, list(self.builtins) + list(_AGG)) or
                       "functions: " + ", ".join(sorted(set(self.builtins) | set(_AGG))))
        lo, hi = b.arity
        if len(arg_es) < lo or (hi >= 0 and len(arg_es) > hi):
            want = str(lo) if lo == hi else f"{lo} to {hi}" if hi >= 0 else f"at least {lo}"
            self._fail(e, "E-ARITY", f"`{name}` takes {want} argument(s), got {len(arg_es)}")
        args = [self._c(x) for x in arg_es]
        fn = b.fn
        if b.pure and all(isinstance(x, Const) for x in args):
            try:
                return Const(_bounded(fn(None, *[x.value for x in args])))
            except Exception as exc:
                self._fold_error(e, exc)
        if len(args) == 1:
            x = args[0]
            fused = b.fuse(x) if b.fuse is not None else None
            if fused is not None:
                return fused
            return lambda c: fn(c, x(c))
        if len(args) == 0:
            return lambda c: fn(c)
        return lambda c: fn(c, *[x(c) for x in args])

    def _comp(self, e: E) -> Callable[[Any], Any]:
        name, item_e, var, seq_e, cond_e = e.args
        agg = _AGG.get(name)
        if agg is None:
            self._fail(e, "E-UNDEFINED", f"`{name}(... for ... in ...)` is not an aggregate",
                       "aggregates: " + ", ".join(sorted(_AGG)))
        if len(self._locals) >= MAX_COMP_NESTING:      # one local per enclosing comprehension
            self._fail(e, "E-LIMIT", f"comprehensions nested more than {MAX_COMP_NESTING} deep",
                       "each level multiplies the work (a zone of 100 cards three deep is a million "
                       "steps); compute the inner part as a derived value or a function of the card")
        seq = self._c(seq_e)
        self._locals.append(var)
        try:
            item = self._c(item_e)
            cond = self._c(cond_e) if cond_e is not None else None
        finally:
            self._locals.pop()
        where = e.pos
        too_costly = (f"{where}: `{name}(... for {var} in ...)` goes past {MAX_STEPS:,} comprehension "
                      f"steps in one evaluation")

        def run(c):
            env = c.env
            items = seq(c)
            try:
                size = len(items)
            except TypeError:
                items = tuple(items)
                size = len(items)
            left = env.get(_STEPS)             # steps left in this evaluation (set by the outermost)
            outermost = left is None
            left = (MAX_STEPS if outermost else left) - size
            if left < 0:
                raise EvaluationTooCostly(too_costly, where)
            env[_STEPS] = left
            saved = env.get(var, _MISSING)
            out = []
            try:
                for v in items:
                    env[var] = v
                    if cond is None or cond(c):
                        out.append(item(c))
            finally:
                if saved is _MISSING:
                    env.pop(var, None)
                else:
                    env[var] = saved
                if outermost:
                    env.pop(_STEPS, None)
            return agg(out)

        return run


_MISSING = object()
_STEPS = " steps"          # key in ``ctx.env`` (no comprehension variable can have this name)
