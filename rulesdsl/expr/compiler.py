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
from ..source.tree import UNKNOWN
from .ast import CardExpr, CondExpr, E, Expr, FunctionExpr, NumExpr, SeatExpr


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
    type: str = ""                              # "text", "number", "bool" when always so (else "")
    shows: str = ""                             # "card" / "cards": card ids, shown by name in traces


@dataclass
class Builtin:
    """A library function: ``fn(ctx, *args)``; ``pure`` ones fold over constant arguments."""

    fn: Callable[..., Any]
    arity: tuple[int, int]          # (min, max); max -1 = any
    doc: str = ""
    pure: bool = False
    fuse: Optional[Callable[[Callable], Optional[Callable]]] = None   # one-argument fast path
    returns: str = ""               # "text", "number", "bool" when the result is always so (else "")
    shows: str = ""                 # "card" / "cards": card ids, shown by name in traces; "secret":
                                    # it reads cards other seats hold (a trace for a player hides it)


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
MAX_DERIVED_DEPTH = 50     # derived values built on derived values, at most this many deep
#: derived values and functions one evaluation may expand to, counting every use through the chain
#: (``f(x): g(x) + g(x)`` expands to 1 + 2 of ``g``'s): a few calls each sharing the next would
#: otherwise double the work per level, so the expansion is bounded at load
MAX_DERIVED_CALLS = 10_000


def _numbers_only(op):
    def run(a, b):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            raise TypeError(f"`{symbol}` takes numbers, not {type(a).__name__} and {type(b).__name__}")
        return op(a, b)

    def bounded_product(a, b):          # a product is the one way a number can explode in play
        return _bounded(run(a, b))

    symbol = {operator.mul: "*", operator.sub: "-", operator.truediv: "/", operator.floordiv: "//",
              operator.mod: "%"}[op]          # (before the return below: `run` reads it for `*` too)
    if op is operator.mul:
        return bounded_product
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


#: comparisons with a constant on the right, as one closure each (the commonest shape of a condition)
_CMP_CONST = {
    operator.eq: lambda x, v: lambda c: x(c) == v,
    operator.ne: lambda x, v: lambda c: x(c) != v,
    operator.lt: lambda x, v: lambda c: x(c) < v,
    operator.le: lambda x, v: lambda c: x(c) <= v,
    operator.gt: lambda x, v: lambda c: x(c) > v,
    operator.ge: lambda x, v: lambda c: x(c) >= v,
}

_AGG = {"sum": sum, "count": len, "max": _max, "min": _min, "any": any, "all": all}


class Scope:
    """Everything a ruleset's expressions may name, for one compile."""

    def __init__(self, params: dict[str, Any], names: dict[str, Binding], builtins: dict[str, Builtin],
                 derived: Optional[dict[str, Expr]] = None, diags: Optional[Diagnostics] = None,
                 seat_attrs: Optional[dict[str, Callable[[Any, Any], Any]]] = None,
                 dormant: Optional[dict[str, str]] = None, cards: Any = None,
                 closed: Optional[dict[str, tuple]] = None, zone_attrs: frozenset = frozenset()):
        self.params = params
        self.zone_attrs = zone_attrs          # seat members that are zones of cards (`dealer.hand`)
        self.closed = closed or {}            # texts a name or function can ever give (``compile.names``)
        self.cards = cards                    # the deck's card table: a card named as text is that card
        self.names = names
        self.dormant = dormant or {}          # name -> the section that brings it, absent from this ruleset
        self.builtins = builtins
        derived = derived or {}
        self.functions = {k: v for k, v in derived.items() if isinstance(v, FunctionExpr)}   # name(a, b)
        self.derived = {k: v for k, v in derived.items() if not isinstance(v, FunctionExpr)}
        self._entries = derived                   # both, for dependency order and cycles
        self.seat_attrs = seat_attrs or {}
        self.diags = diags if diags is not None else Diagnostics()
        self._derived_done: dict[str, Callable] = {}
        self._derived_busy: set[str] = set()
        self._derived_failed: set[str] = set()     # reported once; later uses fail silently
        self._derived_ready = False
        self._derived_cost: dict[str, int] = {}    # name -> derived uses one evaluation of it expands to
        self._locals: list[str] = []
        self._local_shows: dict[str, str] = {}   # a comprehension's variable -> "card" when it runs over cards
        self._n_params = 0                        # how many of ``_locals`` (the first) are parameters
        self._fn_types: dict[str, str] = {}

    # ------------------------------------------------------------------ public
    def compile(self, expr: Expr, extra: tuple[str, ...] = ()) -> Callable[[Any], Any]:
        """Compile one expression field; on error records a diagnostic and returns a constant None.

        A field that is one of a few words or an expression (``on_tie: shared``) carries its words
        (``expr.words``): a bare unknown name there is reported against those words first."""
        words = getattr(expr, "words", ())
        try:
            if words and expr.ast.op == "name" and not self._resolves(expr.ast.args[0]):
                name = expr.ast.args[0]
                self._fail(expr.ast, "E-CHOICE", f"`{name}` is neither one of {', '.join(words)} nor a name "
                           "an expression may use",
                           _suggest(name, words) or _suggest(name, self.known_names())
                           or "write one of: " + ", ".join(words))
            if not any(expr is entry for entry in self._entries.values()):   # (a derived body: its own)
                self._check_expansion(expr.ast)
            fn = self._c(expr.ast)
            if isinstance(expr, CondExpr):
                self._check_condition(expr.ast)
            elif isinstance(expr, NumExpr):
                self._check_number(expr.ast)
            elif isinstance(expr, SeatExpr):
                self._check_seat(expr.ast, expr.none_ok)
            elif isinstance(expr, CardExpr):
                self._check_card(expr.ast)
            if self._nesting(expr.ast) and not isinstance(fn, Const):
                fn = _one_budget(fn)
            return fn
        except CompileError:
            return Const(None)

    def _use_cost(self, name: str) -> int:
        """What one use of a derived value or function expands to: 1 for one folded to a constant at
        load (it is computed once, there), else its own expansion."""
        if isinstance(self._derived_done.get(name), Const):
            return 1
        return self._derived_cost.get(name, 1)

    def _check_expansion(self, ast: E) -> None:
        """An expression's own uses of derived values and functions expand within ``MAX_DERIVED_CALLS``."""
        if not self._entries:
            return
        if not self._derived_ready:
            self._prepare_derived()
        total = sum(self._use_cost(d) for d, _ in _derived_refs(ast, self.derived, self.functions))
        if total > MAX_DERIVED_CALLS:
            self._fail(ast, "E-LIMIT", f"this rule expands to {_at_most(total)} uses of derived values and "
                       f"functions in one evaluation; the limit is {MAX_DERIVED_CALLS:,}",
                       "use each derived value or function once where it is used several times")

    def check_derived(self) -> None:
        """Compile every derived value and function for itself, used or not (a function's body with its
        parameters as local names); each problem is reported once."""
        if not self._derived_ready:
            self._prepare_derived()
        for entry in self._entries.values():
            saved = self._locals, self._n_params
            self._locals = list(getattr(entry, "params", ()))
            self._n_params = len(self._locals)
            try:
                self.compile(entry)
            finally:
                self._locals, self._n_params = saved

    def known_names(self) -> list[str]:
        """Every name a bare word may be: values, derived values and ``params`` (not functions)."""
        return sorted({n for n in self.names if "." not in n} | set(self.derived) | {"params"})

    def _resolves(self, name: str) -> bool:
        return name in self._locals or name in self.names or name in self.derived or name == "params"

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
            self._check_arithmetic(e)
            return self._fold2(_BIN[a[0]], self._c(a[1]), self._c(a[2]), e)
        if op == "cmp":
            by_name = self._card_compare(e)
            if by_name is not None:
                return by_name
            self._check_compare(e)
            return self._fold2(_CMP[a[0]], self._c(a[1]), self._c(a[2]), e)
        if op == "in":
            by_name = self._card_membership(e)
            if by_name is not None:
                return by_name
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

    # ------------------------------------------------------------------ static types
    def _type(self, e: E) -> str:
        """What an expression always gives, when that is known before play: "text", "number", "bool",
        "none", or "" (unknown or mixed)."""
        op, a = e.op, e.args
        if op == "const":
            return _type_of(a[0])
        if op == "name":
            n = a[0]
            if n in self._locals:
                return ""
            b = self.names.get(n)
            return b.type if b is not None else ""
        if op == "attr":
            base_e, attr = a
            if base_e.op == "name" and base_e.args[0] not in self._locals:
                if base_e.args[0] == "params":
                    return _type_of(self.params[attr]) if attr in self.params else ""
                b = self.names.get(f"{base_e.args[0]}.{attr}")
                if b is not None:
                    return b.type
            return "number" if attr in ("score", "hands_won", "deadwood") and attr in self.seat_attrs else ""
        if op == "call":
            name = a[0]
            if self._is_function(name):
                return self._function_type(name)
            b = self.builtins.get(name)
            if b is not None:
                return b.returns
            return "number" if name in ("count", "sum") else ""
        if op == "comp":
            return "number" if a[0] in ("count", "sum") else "bool" if a[0] in ("any", "all") else ""
        if op == "neg" or (op == "bin" and a[0] != "+"):
            return "number"
        if op == "bin":                                  # `+` adds numbers or joins texts
            left, right = self._type(a[1]), self._type(a[2])
            return left if left == right and left in ("number", "text") else ""
        if op in ("cmp", "in", "not"):
            return "bool"        # refused where a number stands; as good as "" to the other checks
        if op == "list":
            return "list"
        return ""

    def _check_condition(self, e: E) -> None:
        """A condition must give true or false: a number or a text there is a type error at load."""
        kind = self._type(e)
        if kind in ("number", "text"):
            self._fail(e, "E-TYPE", f"`{e}` stands where a condition must be true or false, but it gives "
                       f"{'a number' if kind == 'number' else 'a text'}",
                       "compare it: `count(stock) == 0`, `params.x > 2`, `ending == \"stock\"`")

    def _check_arithmetic(self, e: E) -> None:
        """Arithmetic that can never run is a type error at load: `-`, `*`, `/`, `//`, `%` on a text, a list
        or nothing; `+` of a number and a text or a list, or of nothing (true and false count as 1 and 0)."""
        sym, left, right = e.args
        kinds = (self._value_kind(left), self._value_kind(right))
        if sym == "+":
            known = {"list" if k == "cards" else k for k in kinds if k}      # cards join as a list does
            bad = bool(known & {"none", "card"}) or (len(known) > 1 and known != {"number", "bool"})
        else:
            bad = any(k in ("text", "list", "none", "card", "cards") for k in kinds)
        if bad:
            shown = " and ".join(_NOT_NUMBERS.get(k, "a number") if k else "a value" for k in kinds)
            self._fail(e, "E-TYPE", f"`{e}` cannot be computed: `{sym}` is given {shown}",
                       "numbers add, subtract and multiply; texts and lists only join with `+`, each with its own kind")

    def _check_number(self, e: E) -> None:
        """A number rule must give a number: a branch of it that always gives text, a truth value, a list
        or nothing is a type error at load (each branch of an `if` is judged on its own)."""
        if e.op == "if":
            self._check_number(e.args[1])
            self._check_number(e.args[2])
            return
        kind = self._value_kind(e)
        if kind in _NOT_NUMBERS:
            self._fail(e, "E-TYPE", f"`{e}` stands where a number must be, but it gives {_NOT_NUMBERS[kind]}",
                       "a score, a count or a value is a number: `count(hand)`, `params.points`, `10`")

    def _check_seat(self, e: E, none_ok: bool) -> None:
        """A seat rule must give a seat (a number; none too where that means no seat): a branch that
        always gives text, a truth value, a list, cards or (where none is no seat) nothing is refused."""
        if e.op == "if":
            self._check_seat(e.args[1], none_ok)
            self._check_seat(e.args[2], none_ok)
            return
        kind = self._value_kind(e)
        if kind in _NOT_NUMBERS and not (none_ok and kind == "none"):
            self._fail(e, "E-TYPE", f"`{e}` stands where a seat must be, but it gives {_NOT_NUMBERS[kind]}",
                       "a seat is its number, from 0: `dealer`, `next_seat(dealer)`, `holder(\"2C\")`"
                       + (", or none for no seat" if none_ok else ""))

    def _check_card(self, e: E, seen: frozenset = frozenset()) -> None:
        """A card rule gives a card as its text (or a card, or none): a branch that always gives a
        number, a truth value, a list or cards is refused, and so is a text that names no card of the
        deck -- written there, in a derived value it names, or as a parameter's value."""
        op, a = e.op, e.args
        if op == "if":
            self._check_card(a[1], seen)
            self._check_card(a[2], seen)
            return
        if op == "const" and isinstance(a[0], str):
            self._card_kind(e, "stands where a card must be")     # no card of the deck: E-TYPE
            return
        if op == "name" and a[0] in self.derived and a[0] not in self._locals and a[0] not in seen:
            self._check_card(self.derived[a[0]].ast, seen | {a[0]})
            return
        if op == "attr" and a[0].op == "name" and a[0].args[0] == "params" and isinstance(self.params.get(a[1]), str):
            text = self.params[a[1]]
            if self.cards.parse_kind(text) is None and not _names_a_card(text, self.cards):
                self._fail(e, "E-TYPE", f"parameter `{a[1]}` is \"{text}\", which stands where a card must be, "
                           "but it is no card of this deck", f"cards are written rank then suit: "
                           f"\"{self.cards.kind_text[0]}\", \"{self.cards.kind_text[-1]}\"")
            return
        kind = self._value_kind(e)
        if kind in ("number", "bool", "list", "cards"):
            self._fail(e, "E-TYPE", f"`{e}` stands where a card must be, but it gives "
                       f"{_NOT_NUMBERS.get(kind, 'a number')}",
                       "a card is written as its text, `\"2C\"`, or read from the table: `top(discard)`")

    def _value_kind(self, e: E) -> str:
        """``_type``, or "card" / "cards" for what always gives cards (a zone, ``top(discard)``): the kinds
        a number rule and arithmetic refuse."""
        return self._type(e) or self._shows(e)

    # ------------------------------------------------------------------ cards named as text
    def _shows(self, e: E, seen: frozenset = frozenset()) -> str:
        """"card" when an expression always gives a card (or none), "cards" a sequence of cards, else ""."""
        op, a = e.op, e.args
        if op == "name":
            n = a[0]
            if n in self._locals:
                return self._local_shows.get(n, "")
            b = self.names.get(n)
            if b is not None:
                return b.shows if b.shows in ("card", "cards") else ""
            if n in self.derived and n not in seen:
                return self._shows(self.derived[n].ast, seen | {n})
            return ""
        if op == "attr" and a[0].op == "name" and a[0].args[0] not in self._locals:
            b = self.names.get(f"{a[0].args[0]}.{a[1]}")
            if b is not None:
                return b.shows if b.shows in ("card", "cards") else ""
        if op == "attr" and a[1] in self.zone_attrs:
            return "cards"                   # a seat's zone: `dealer.hand`, `partner(player).hand`
        if op == "call" and not self._is_function(a[0]):
            b = self.builtins.get(a[0])
            return b.shows if b is not None and b.shows in ("card", "cards") else ""
        if op == "if":                       # a branch of `none` leaves the other's kind (a card or none)
            yes, no = self._shows(a[1], seen), self._shows(a[2], seen)
            none_yes, none_no = _is_none(a[1]), _is_none(a[2])
            return yes if yes == no or none_no else no if none_yes else ""
        return ""

    def _card_kind(self, e: E, where: str = "is compared with a card") -> int:
        """The card kind a text constant names (-1: a card this deal's deck lacks, such as a joker when a
        parameter deals none, which no card equals); a text that names no card is a type error at load."""
        text = e.args[0]
        kind = self.cards.parse_kind(text)
        if kind is None and _names_a_card(text, self.cards):
            return -1
        if kind is None:
            kinds = self.cards.kind_text
            self._fail(e, "E-TYPE", f"\"{text}\" {where}, but it is no card of this deck",
                       _suggest(text.upper(), kinds) or f"cards are written rank then suit: \"{kinds[0]}\", "
                       f"\"{kinds[-1]}\"")
        return kind

    def _card_compare(self, e: E):
        """``c == "AS"``: a card compared with text compares the card's name (any copy of it); ``None``
        when this comparison is not between a card and text."""
        sym, left, right = e.args
        if self.cards is None or sym not in ("==", "!="):
            return None
        for card_e, text_e in ((left, right), (right, left)):
            if self._shows(card_e) != "card":
                continue
            equal = sym == "=="
            kind_of = self.cards.kind
            card = self._c(card_e)
            if text_e.op == "const" and isinstance(text_e.args[0], str):
                k = self._card_kind(text_e)
                if equal:
                    return lambda c: (v := card(c)) is not None and kind_of[v] == k
                return lambda c: (v := card(c)) is None or kind_of[v] != k
            if self._type(text_e) == "text":
                parse, text = self.cards.parse_kind, self._c(text_e)
                return lambda c: ((v := card(c)) is not None and kind_of[v] == parse(str(text(c)))) is equal
            return None
        return None

    def _card_membership(self, e: E):
        """``"AS" in hand``: whether a copy of the card named is among the cards; ``c in ["AS", "KS"]``:
        whether the card is one of those named.  ``None`` when neither side is a card named as text."""
        item_e, seq_e = e.args
        if self.cards is None:
            return None
        kind_of = self.cards.kind
        if item_e.op == "const" and isinstance(item_e.args[0], str) and self._shows(seq_e) == "cards":
            k, seq = self._card_kind(item_e), self._c(seq_e)
            return lambda c: any(kind_of[v] == k for v in seq(c))
        if self._shows(item_e) == "card" and seq_e.op == "list" and seq_e.args and all(
                x.op == "const" and isinstance(x.args[0], str) for x in seq_e.args):
            kinds, card = frozenset(self._card_kind(x) for x in seq_e.args), self._c(item_e)
            return lambda c: (v := card(c)) is not None and kind_of[v] in kinds
        return None

    def _is_function(self, name: str) -> bool:
        return name in self.functions and name not in self.builtins and name not in _AGG

    def _function_type(self, name: str) -> str:
        """What a derived function always gives (its body's type, its parameters unknown)."""
        if name not in self._fn_types:
            self._fn_types[name] = ""                # while it is worked out (a cycle is reported elsewhere)
            fn = self.functions[name]
            saved = self._locals, self._n_params
            self._locals, self._n_params = list(fn.params), len(fn.params)
            try:
                self._fn_types[name] = self._type(fn.ast)
            finally:
                self._locals, self._n_params = saved
        return self._fn_types[name]

    def _check_compare(self, e: E) -> None:
        """Comparisons that can never hold, or never run, are type errors at load:
        text with a number (``play.rank_name == 8``), and a parameter with ``none``."""
        sym, left, right = e.args
        for x, y in ((left, right), (right, left)):
            if (sym in ("==", "!=") and y.op == "const" and y.args[0] is None and x.op == "attr"
                    and x.args[0].op == "name" and x.args[0].args[0] == "params"
                    and "params" not in self._locals and x.args[1] in self.params):
                name, value = x.args[1], self.params[x.args[1]]
                shown = f"the text \"{value}\"" if isinstance(value, str) else f"`{value!r}`"
                self._fail(e, "E-TYPE", f"parameter `{name}` always has a value (here {shown}), so `{e}` is "
                           f"always {'false' if sym == '==' else 'true'}",
                           f'compare with the text: `params.{name} {sym} "none"`' if value == "none" else
                           "a parameter is never none; compare it with one of its values")
        if sym in ("==", "!="):
            for x, y in ((left, right), (right, left)):
                self._check_closed(e, x, y)
        tl, tr = self._type(left), self._type(right)
        if sym not in ("==", "!=") and ("none" in (tl, tr) or ("list" in (tl, tr) and tl != tr)):
            odd = right if tr in ("none", "list") else left
            self._fail(e, "E-TYPE", f"`{e}` cannot be judged: `{odd}` gives "
                       f"{_NOT_NUMBERS[self._type(odd)]}, which cannot be ordered with `{sym}`",
                       "order numbers with numbers and texts with texts")
        if {tl, tr} != {"text", "number"}:
            return
        text_e, num_e = (left, right) if tl == "text" else (right, left)
        if sym in ("==", "!="):
            msg = (f"`{text_e}` is text and `{num_e}` a number: `{e}` is always "
                   f"{'false' if sym == '==' else 'true'}")
        else:
            msg = f"`{text_e}` is text and `{num_e}` a number: they cannot be ordered with `{sym}`"
        if num_e.op == "const" and sym in ("==", "!="):
            quoted = E("cmp", (sym, text_e, E("const", (str(num_e.args[0]),))) if text_e is left
                       else (sym, E("const", (str(num_e.args[0]),)), text_e))
            hint = f"names are text: quote the number, `{quoted}`"
        else:
            hint = "compare text with text and numbers with numbers"
        self._fail(e, "E-TYPE", msg, hint)

    def _closed_key(self, e: E) -> str:
        """The key of ``closed`` an expression is read under: a name, a member, or a call."""
        if e.op == "name" and e.args[0] not in self._locals:
            return e.args[0]
        if e.op == "attr" and e.args[0].op == "name" and e.args[0].args[0] not in self._locals:
            return f"{e.args[0].args[0]}.{e.args[1]}"
        if e.op == "call" and not self._is_function(e.args[0]):
            return e.args[0] + "()"
        return ""

    def _check_closed(self, e: E, x: E, y: E) -> None:
        """``x`` gives one of a closed set of texts, and ``y`` is a text outside it: never equal."""
        values = self.closed.get(self._closed_key(x))
        if values is None or y.op != "const" or not isinstance(y.args[0], str) or y.args[0] in values:
            return
        word = y.args[0]
        shown = ", ".join(f'"{v}"' for v in values[:12]) + (", ..." if len(values) > 12 else "")
        close = suggest(word, values)
        self._fail(y, "E-CHOICE", f"`{x}` is never \"{word}\" in this ruleset, so `{e}` is always "
                   f"{'false' if e.args[0] == '==' else 'true'}",
                   (close + "; " if close else "") + f"`{x}` is one of: {shown}")

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
            cmp = _CMP_CONST.get(f)
            if cmp is not None:                 # `deadwood(hand) <= 10`: one frame, no operator call
                return cmp(x, yv)
            return lambda c: f(x(c), yv)
        if isinstance(x, Const):
            xv = x.value
            return lambda c: f(xv, y(c))
        return lambda c: f(x(c), y(c))

    def _members(self, base: str) -> list[str]:
        """The members a dotted name offers: ``play`` -> size, rank, rank_name."""
        return sorted(n.split(".", 1)[1] for n in self.names if n.startswith(base + "."))

    def _name(self, e: E, name: str) -> Callable[[Any], Any]:
        if name in self._locals:
            return lambda c, _n=name: c.env[_n]
        if name in self.names:
            return self.names[name].get
        if name in self.derived:
            return self._derived(e, name)
        if name == "params":
            self._fail(e, "E-EXPR", "`params` needs a parameter name, as in `params.knock_limit`")
        members = self._members(name)
        if members:
            self._fail(e, "E-UNDEFINED", f"`{name}` is not a value by itself; it has members",
                       "use one of: " + ", ".join(f"{name}.{m}" for m in members))
        if self._is_function(name):
            self._fail(e, "E-UNDEFINED", f"`{name}` is a function, not a value",
                       f"call it: `{self.functions[name].heading}`")
        if name in self.builtins or name in _AGG:
            self._fail(e, "E-UNDEFINED", f"`{name}` is a function, not a value",
                       f"call it: `{name}(...)`" + (f" ({self.builtins[name].doc})" if name in self.builtins
                                                     and self.builtins[name].doc else ""))
        needs = self.dormant.get(name) or next((v for k, v in self.dormant.items() if k.startswith(name + ".")), "")
        if needs:
            self._fail(e, "E-UNDEFINED", f"`{name}` exists only in a ruleset with {needs}, and this one has none",
                       f"add {needs}, or use a name this ruleset has")
        holder = next((k for k, values in self.closed.items() if name in values), None)
        if holder is not None:                          # a word meant as text: "yes", "out"
            who = holder.replace("()", "(...)")
            self._fail(e, "E-UNDEFINED", f"unknown name `{name}`: `{name}` is a text here, not a name",
                       f'write a text in quotes inside the expression, `"{name}"` (YAML: \'"{name}"\', the DSL: '
                       f'\'"{name}"\'), and compare it: `{who} == "{name}"`')
        self._fail(e, "E-UNDEFINED", f"unknown name `{name}`",
                   _suggest(name, self.known_names()) or "names: " + ", ".join(self.known_names()[:12]))
        raise AssertionError

    def _derived(self, e: E, name: str) -> Callable[[Any], Any]:
        if not self._derived_ready:
            self._prepare_derived()
        if name in self._derived_done:
            return self._derived_done[name]
        if name in self._derived_failed:
            raise CompileError(name)             # reported once, where the problem is
        if name in self._derived_busy:            # (prepared in dependency order: not reached)
            self._fail(e, "E-CYCLE", f"derived value `{name}` refers to itself",
                       "derived values may not depend on themselves, directly or through others")
        self._derived_busy.add(name)
        entry = self._entries[name]
        saved = self._locals, self._n_params
        self._locals = list(getattr(entry, "params", ()))
        self._n_params = len(self._locals)
        try:
            fn = self._c(entry.ast)
        except CompileError:
            self._derived_failed.add(name)
            raise
        finally:
            self._locals, self._n_params = saved
            self._derived_busy.discard(name)
        self._derived_done[name] = fn
        return fn

    def _prepare_derived(self) -> None:
        """Compile every derived value once, dependencies first, without recursing through the chain.

        The order is found with an explicit stack, so a long chain of derived values costs no Python
        recursion.  A cycle is reported once (naming every member), a chain deeper than
        ``MAX_DERIVED_DEPTH`` once (at its first value past the limit); the values involved then fail
        silently wherever they are used."""
        self._derived_ready = True
        for name, fn in self.functions.items():             # a function may not hide a builtin
            if name in self.builtins or name in _AGG:
                b = self.builtins.get(name)
                self.diags.error("E-RESERVED", f"`{name}` is a builtin function and cannot name a derived "
                                 "function", fn.key_pos if fn.key_pos != UNKNOWN else fn.pos,
                                 f"rename it (`{name}` is {b.doc if b is not None and b.doc else 'a builtin'}), "
                                 f"e.g. `my_{name}({', '.join(fn.params)})`")
                self._derived_failed.add(name)
        deps = {name: _derived_refs(ex.ast, self.derived, self.functions, frozenset(getattr(ex, "params", ())))
                for name, ex in self._entries.items()}
        state: dict[str, int] = {}               # 1 on the stack, 2 done
        order: list[str] = []
        for root in self._entries:
            if root in state:
                continue
            state[root] = 1
            stack = [(root, iter(deps[root]))]
            while stack:
                name, it = stack[-1]
                step = next(it, None)
                if step is None:
                    stack.pop()
                    state[name] = 2
                    order.append(name)
                    continue
                dep, ref = step
                if state.get(dep) == 1:                      # back to a value on the stack: a cycle
                    cycle = [n for n, _ in stack][[n for n, _ in stack].index(dep):]
                    if not any(n in self._derived_failed for n in cycle):
                        shown = ", ".join(f"`{n}`" for n in cycle)
                        if not any(n in self.functions for n in cycle):
                            msg = (f"derived value `{dep}` refers to itself" if len(cycle) == 1 else
                                   f"derived values {shown} refer to each other in a cycle")
                            hint = "derived values may not depend on themselves, directly or through others"
                        else:
                            msg = (f"derived function `{dep}` calls itself" if len(cycle) == 1 else
                                   f"derived values and functions {shown} refer to each other in a cycle")
                            hint = ("derived functions may not call themselves, directly or through others "
                                    "(no recursion: every evaluation terminates)")
                        self.diags.error("E-CYCLE", msg, ref.pos, hint)
                    self._derived_failed.update(cycle)
                elif dep not in state:
                    state[dep] = 1
                    stack.append((dep, iter(deps[dep])))
        depth: dict[str, int] = {}
        cost = self._derived_cost
        for name in order:                                   # dependencies come first
            below = [d for d, _ in deps[name]]
            if any(d in self._derived_failed for d in below):
                self._derived_failed.add(name)
                continue
            cost[name] = 1 + sum(self._use_cost(d) for d in below)
            if cost[name] > MAX_DERIVED_CALLS:
                self.diags.error("E-LIMIT", f"derived {'function' if name in self.functions else 'value'} "
                                 f"`{name}` expands to {_at_most(cost[name])} uses of derived values and "
                                 f"functions in one evaluation; the limit is {MAX_DERIVED_CALLS:,}",
                                 self._entries[name].pos, "use each derived value or function once where it "
                                 "is used several times (each use is computed again)")
                self._derived_failed.add(name)
                continue
            depth[name] = 1 + max((depth.get(d, 0) for d in below), default=0)
            if depth[name] > MAX_DERIVED_DEPTH:
                self.diags.error("E-DEPTH", f"derived value `{name}` sits on a chain of {depth[name]} derived "
                                 f"values; the limit is {MAX_DERIVED_DEPTH}", self._entries[name].pos,
                                 "compute it from fewer intermediate derived values")
                self._derived_failed.add(name)
                continue
            if name in self._derived_failed:
                continue
            entry = self._entries[name]
            saved = self._locals, self._n_params
            self._locals = list(getattr(entry, "params", ()))
            self._n_params = len(self._locals)
            try:
                self._derived_done[name] = self._c(entry.ast)
            except CompileError:
                self._derived_failed.add(name)
            finally:
                self._locals, self._n_params = saved

    def _attr(self, e: E) -> Callable[[Any], Any]:
        base_e, attr = e.args
        if base_e.op == "name" and base_e.args[0] == "params" and "params" not in self._locals:
            if attr not in self.params:
                self._fail(e, "E-UNDEFINED-PARAM", f"unknown parameter `{attr}`",
                           _suggest(attr, self.params) or "declare it under `params:`")
            return Const(self.params[attr])
        if base_e.op == "name":
            base_name = base_e.args[0]
            dotted = f"{base_name}.{attr}"
            if dotted in self.names:
                return self.names[dotted].get
            members = self._members(base_name)
            if members and not self._resolves(base_name):
                self._fail(e, "E-UNDEFINED", f"`{base_name}` has no member `{attr}`",
                           (_suggest(attr, members) + " " if _suggest(attr, members) else "")
                           + f"members of `{base_name}`: " + ", ".join(members))
        base = self._c(base_e)
        if attr in self.seat_attrs:
            get = self.seat_attrs[attr]
            return lambda c: get(c, base(c))
        known = sorted(self.seat_attrs)
        self._fail(e, "E-UNDEFINED", f"`{base_e}` has no member `{attr}`",
                   (_suggest(attr, known) + " " if _suggest(attr, known) else "")
                   + ("members of a seat or team: " + ", ".join(known) if known else ""))
        raise AssertionError

    def _call(self, e: E) -> Callable[[Any], Any]:
        name, arg_es = e.args[0], e.args[1:]
        if self._is_function(name):
            return self._call_function(e, name, arg_es)
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
            self._fail(e, "E-ARITY", f"`{name}` takes one sequence, got {len(arg_es)} argument(s)"
                       + (" (or two or more values)" if name in ("max", "min") else ""),
                       f"write `{name}(x for x in ...)` or `{name}([...])`"
                       + (f", or `{name}(a, b)`" if name in ("max", "min") else ""))
        b = self.builtins.get(name)
        if b is None:
            if self._resolves(name):
                self._fail(e, "E-UNDEFINED", f"`{name}` is a value, not a function",
                           f"write `{name}` without the parentheses")
            needs = self.dormant.get(name)
            if needs:
                self._fail(e, "E-UNDEFINED", f"`{name}(...)` exists only in a ruleset with {needs}, and this one "
                           "has none", f"add {needs}, or use a function this ruleset has")
            self._fail(e, "E-UNDEFINED", f"unknown function `{name}`",
                       _suggest(name, list(self.builtins) + list(_AGG) + list(self.functions)) or
                       "functions: " + ", ".join(sorted(set(self.builtins) | set(_AGG) | set(self.functions))))
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

    def _call_function(self, e: E, name: str, arg_es: tuple) -> Callable[[Any], Any]:
        """A call of a derived function: its arguments are evaluated in the caller's scope, then bound
        to its parameters (local names of the body, compiled once) while the body runs."""
        fn = self.functions[name]
        params = fn.params
        if len(arg_es) != len(params):
            self._fail(e, "E-ARITY", f"`{name}` takes {len(params)} argument(s), got {len(arg_es)}",
                       f"it is declared as `{fn.heading}`" + (f" at {fn.key_pos}" if fn.key_pos != UNKNOWN else ""))
        args = [self._c(x) for x in arg_es]
        body = self._derived(e, name)
        if isinstance(body, Const):              # the arguments cannot change it
            return body
        return _bind(params, args, body)

    def _comp(self, e: E) -> Callable[[Any], Any]:
        name, item_e, var, seq_e, cond_e = e.args
        agg = _AGG.get(name)
        if agg is None:
            self._fail(e, "E-UNDEFINED", f"`{name}(... for ... in ...)` is not an aggregate",
                       "aggregates: " + ", ".join(sorted(_AGG)))
        if len(self._locals) - self._n_params >= MAX_COMP_NESTING:   # one local per enclosing comprehension
            self._fail(e, "E-LIMIT", f"comprehensions nested more than {MAX_COMP_NESTING} deep",
                       "each level multiplies the work (a zone of 100 cards three deep is a million "
                       "steps); compute the inner part as a derived value or a function of the card")
        own = self._nesting(e)                          # with the derived values it names
        if self._entries:
            total = len(self._locals) - self._n_params + own
            if total > MAX_COMP_NESTING:
                self._fail(e, "E-LIMIT", f"comprehensions nested {total} deep, counting those inside the "
                           f"derived values this one uses (the limit is {MAX_COMP_NESTING})",
                           "each level multiplies the work; use a derived value outside the comprehension")
        seq = self._c(seq_e)
        self._locals.append(var)
        saved_shows = self._local_shows.get(var)
        self._local_shows[var] = "card" if self._shows(seq_e) == "cards" else ""
        try:
            item = self._c(item_e)
            cond = self._c(cond_e) if cond_e is not None else None
        finally:
            self._locals.pop()
            self._local_shows[var] = saved_shows or ""
        where = e.pos
        too_costly = (f"{where}: `{name}(... for {var} in ...)` goes past {MAX_STEPS:,} comprehension "
                      f"steps in one evaluation")

        starts_budget = own > 1           # comprehensions run inside this one: the outermost counts

        def run(c):
            env = c.env
            items = seq(c)
            # Within a rule's evaluation (``_one_budget``) every comprehension draws on its one budget,
            # those of the derived values and functions it uses included.  Evaluated on its own (a
            # derived value checked by itself), the outermost of a nest sets a budget for the nest.
            left = env.get(_STEPS)
            outermost = left is None and starts_budget
            if left is not None or outermost:
                if not isinstance(items, (tuple, list, str, dict, set, frozenset)):
                    items = tuple(items)
                left = (MAX_STEPS if outermost else left) - len(items)
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


    def _nesting(self, e: E) -> int:
        """How deep comprehensions nest in ``e``, counting those of the derived values it names."""
        if getattr(self, "_derived_nest", None) is None:
            self._derived_nest = _derived_nesting(self.derived, self.functions)
        lexical, refs = _comp_shape(e, self.derived, frozenset(self._locals), self.functions)
        return max([lexical] + [depth + self._derived_nest.get(name, 0) for name, depth in refs])


def _comp_shape(e: E, derived: dict, bound: frozenset = frozenset(),
                functions: Optional[dict] = None) -> tuple[int, list[tuple[str, int]]]:
    """How deep comprehensions nest in ``e`` itself, and the derived values (and functions) it names
    with the number of comprehensions around each.  Walked with an explicit stack."""
    deepest, refs = 0, []
    functions = functions or {}
    stack: list[tuple[Any, int, frozenset]] = [(e, 0, bound)]
    while stack:
        node, depth, names = stack.pop()
        if not isinstance(node, E):
            continue
        if node.op == "name":
            if node.args[0] in derived and node.args[0] not in names:
                refs.append((node.args[0], depth))
            continue
        if node.op == "call" and node.args[0] in functions:
            refs.append((node.args[0], depth))
        if node.op == "comp":
            _agg, item, var, seq, cond = node.args
            deepest = max(deepest, depth + 1)
            stack.append((seq, depth, names))
            stack.extend((x, depth + 1, names | {var}) for x in (item, cond))
            continue
        stack.extend((x, depth, names) for x in node.args if isinstance(x, E))
    return deepest, refs


def _derived_nesting(derived: dict, functions: Optional[dict] = None) -> dict[str, int]:
    """Each derived value's (and function's) comprehension nesting, counting the derived values it
    names (in dependency order, with an explicit stack; a cycle counts as nothing, it is reported
    elsewhere)."""
    functions = functions or {}
    shapes = {name: _comp_shape(ex.ast, derived, frozenset(getattr(ex, "params", ())), functions)
              for name, ex in {**derived, **functions}.items()}
    out: dict[str, int] = {}
    for root in shapes:
        if root in out:
            continue
        stack, open_ = [root], {root}
        while stack:
            name = stack[-1]
            todo = next((r for r, _ in shapes[name][1] if r not in out and r not in open_), None)
            if todo is not None:
                stack.append(todo)
                open_.add(todo)
                continue
            stack.pop()
            open_.discard(name)
            lexical, refs = shapes[name]
            out[name] = max([lexical] + [d + out.get(r, 0) for r, d in refs])
    return out


_MISSING = object()
_STEPS = " steps"          # key in ``ctx.env`` (no comprehension variable can have this name)


def _one_budget(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``fn`` (a rule that reaches comprehensions, its own or its derived values') with one budget of
    ``MAX_STEPS`` comprehension items for the whole evaluation: a rule using a derived function many
    times cannot multiply the budget by its uses.  A rule evaluated inside another shares its budget."""
    def evaluation(c):
        env = c.env
        if _STEPS in env:
            return fn(c)
        env[_STEPS] = MAX_STEPS
        try:
            return fn(c)
        finally:
            env.pop(_STEPS, None)
    return evaluation


def _bind(params: tuple, args: list, body: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A call of a compiled function body: the arguments' values stand for ``params`` in ``ctx.env``
    while ``body`` runs (what was there before is put back, as for a comprehension variable)."""
    if len(params) == 1:
        p, x = params[0], args[0]

        def call1(c):
            env = c.env
            value = x(c)
            saved = env.get(p, _MISSING)
            env[p] = value
            try:
                return body(c)
            finally:
                if saved is _MISSING:
                    env.pop(p, None)
                else:
                    env[p] = saved
        return call1

    def call(c):
        env = c.env
        values = [x(c) for x in args]
        saved = [env.get(p, _MISSING) for p in params]
        env.update(zip(params, values))
        try:
            return body(c)
        finally:
            for p, old in zip(params, saved):
                if old is _MISSING:
                    env.pop(p, None)
                else:
                    env[p] = old
    return call


def _is_none(e: E) -> bool:
    return e.op == "const" and e.args[0] is None


def _names_a_card(text: str, cards) -> bool:
    """Whether a text is written as a card of these ranks and suits, or a joker (``"Jk"``)."""
    from ..compile.cards import normalise
    t = normalise(text)
    return t == "JK" or any(t == f"{r}{s}".upper() for r in cards.ranks for s in cards.suits)


#: what a value that is no number is called in the type error of a number rule
_NOT_NUMBERS = {"text": "a text", "bool": "true or false", "list": "a list", "none": "nothing (none)",
                "card": "a card", "cards": "cards (a list of them)"}


def _type_of(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return "list"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "text"
    return ""


def _suggest(word: str, choices) -> str:
    """A "did you mean" hint that never offers the word itself back."""
    return suggest(word, [c for c in choices if c != word])


def _at_most(n: int) -> str:
    """A count for a message: exact when it is short, else its order of magnitude."""
    return f"{n:,}" if n < 10 ** 12 else f"about 10^{len(str(n)) - 1}"


def _derived_refs(e: E, derived: dict, functions: Optional[dict] = None,
                  params: frozenset = frozenset()) -> list[tuple[str, E]]:
    """The derived values an expression names and the derived functions it calls (with the node
    naming each), comprehension variables and a function's ``params`` aside.  Walked with an explicit
    stack: the parser bounds an expression's depth, not its width."""
    out: list[tuple[str, E]] = []
    functions = functions or {}
    stack: list[tuple[Any, frozenset]] = [(e, params)]
    while stack:
        node, bound = stack.pop()
        if not isinstance(node, E):
            continue
        if node.op == "name":
            n = node.args[0]
            if n in derived and n not in bound:
                out.append((n, node))
            continue
        if node.op == "call" and node.args[0] in functions:
            out.append((node.args[0], node))
        if node.op == "comp":
            _agg, item, var, seq, cond = node.args
            stack.append((seq, bound))
            inner = bound | {var}
            stack.append((item, inner))
            if cond is not None:
                stack.append((cond, inner))
            continue
        if node.op == "attr":
            stack.append((node.args[0], bound))
            continue
        for x in node.args:
            if isinstance(x, E):
                stack.append((x, bound))
    out.reverse()
    return out
