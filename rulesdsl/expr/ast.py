"""Expression syntax tree: small immutable nodes built from the Lark parse tree.

The AST is what the model stores for every expression field, so a YAML string and the same expression
written bare in a ``.rules`` file compare equal (``==`` ignores positions and source text).  Positions
are kept for diagnostics: ``pos`` is where the node starts in the ruleset file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import Diagnostic
from ..source.grammar import Token, UnexpectedInput
from ..source.tree import Pos, Scalar, UNKNOWN


@dataclass(frozen=True)
class E:
    """One expression node: ``op`` names the construct, ``args`` its operands (nodes or plain values)."""

    op: str
    args: tuple = ()
    pos: Pos = field(default=UNKNOWN, compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return unparse(self)


@dataclass(frozen=True)
class Expr:
    """An expression field of the model: its AST, and the text it was written as (for messages)."""

    ast: E
    text: str = field(compare=False)
    pos: Pos = field(default=UNKNOWN, compare=False, hash=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class CondExpr(Expr):
    """An expression written where a condition stands (``when``, ``forbid``, ``beats`` ...): it must
    give true or false, so a number or a text there is a type error at load."""


@dataclass(frozen=True)
class NumExpr(Expr):
    """An expression written where a number stands (a score, a count, a value): a text, a truth value, a
    list or nothing there is a type error at load."""


@dataclass(frozen=True)
class SeatExpr(Expr):
    """An expression written where a seat stands (a first leader, the next dealer): a text, a truth
    value, a list, cards or nothing there is a type error at load."""

    none_ok = False


@dataclass(frozen=True)
class SeatOrNoneExpr(SeatExpr):
    """A seat, or none for no seat (an exchange's `to`: that seat gives nothing)."""

    none_ok = True


@dataclass(frozen=True)
class CardExpr(Expr):
    """An expression written where a card stands, as its text (an opening lead), or none: a number, a
    truth value, a list, cards or a text that is no card of the deck there is a type error at load."""


@dataclass(frozen=True)
class FunctionExpr(Expr):
    """A derived function (``penalty(n): n * 2`` under ``derived:``): its body, and its parameters,
    which are local names in the body.  ``key_pos`` is where the heading ``penalty(n)`` was written."""

    params: tuple = ()
    name: str = ""
    key_pos: Pos = field(default=UNKNOWN, compare=False, hash=False, repr=False)

    @property
    def heading(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


MAX_FUNCTION_PARAMS = 4     # a derived function takes at most this many arguments
_HEADING = re.compile(r"\s*([^\s(]*)\s*\((.*)\)\s*\Z", re.S)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def parse_heading(key: str) -> tuple[str, Optional[tuple], str, str]:
    """A key under ``derived:``: ``name`` (a value) or ``name(a, b)`` (a function).

    Returns ``(name, params or None, problem, hint)``; ``problem`` is "" when the key is well formed."""
    from ..source.grammar import KEYWORDS

    if "(" not in key and ")" not in key:
        return key, None, "", ""
    m = _HEADING.match(key)
    if m is None:
        return key, None, f"`{_short(key)}` is neither a derived name nor a function heading", \
            "write a value as `name: ...` and a function as `name(a, b): ...` (inside a YAML `{...}`, " \
            "quote a heading with commas: `\"add(a, b)\": ...`)"
    name, inner = m.group(1), m.group(2)
    params = tuple(p.strip() for p in inner.split(",")) if inner.strip() else ()
    if not _IDENT.match(name) or name in KEYWORDS:
        return key, None, f"`{_short(name)}` cannot name a derived function", \
            "a function's name is a word of letters, digits and `_` (not a keyword)"
    if not params:
        return name, None, f"derived function `{name}()` takes no arguments", \
            f"a derived value without arguments is written without the parentheses: `{name}: ...`"
    for p in params:
        if not _IDENT.match(p) or p in KEYWORDS:
            return name, None, f"`{_short(p)}` cannot be a parameter of `{name}`", \
                "parameters are words of letters, digits and `_` (not keywords), separated by commas"
    seen = [p for i, p in enumerate(params) if p in params[:i]]
    if seen:
        return name, None, f"parameter `{seen[0]}` is written twice in `{name}({', '.join(params)})`", \
            "give each parameter its own name"
    if len(params) > MAX_FUNCTION_PARAMS:
        return name, None, f"derived function `{name}` takes {len(params)} arguments; the limit is " \
            f"{MAX_FUNCTION_PARAMS}", "pass fewer values (a derived value can compute the rest)"
    return name, params, "", ""


_BINOPS = {"+", "-", "*", "/", "//", "%"}


Locate = Callable[[int], Pos]   # offset in the expression text -> where that character was written


class NumberTooLarge(ValueError):
    pass


def _locator(text: str, base: Pos) -> Locate:
    """Positions in ``text`` written verbatim from ``base`` (later lines from column 1)."""
    return Scalar(text, base).locate


def _pos_of(node: Any, base: Pos, locate: Optional[Locate], shift: int) -> Pos:
    """Where a Lark tree starts.  Offsets in the parsed text are ``shift`` characters past the
    expression's own (``parse_expr_tree`` parses it inside parentheses)."""
    meta = getattr(node, "meta", None)
    if meta is None or meta.empty:
        return base
    if locate is not None and isinstance(getattr(meta, "start_pos", None), int):
        return locate(meta.start_pos - shift)
    line, col = meta.line, meta.column
    if line == 1:
        return Pos(base.path, base.line, base.col + col - 1)
    return Pos(base.path, base.line + line - 1, col)


def _number(text: str) -> Any:
    from ..source import MAX_NUMBER

    if len(text.split(".")[0].lstrip("0")) > len(str(MAX_NUMBER)):
        raise NumberTooLarge(f"number `{_short(text, 20)}` is too large (the limit is {MAX_NUMBER:,})")
    value = float(text) if "." in text else int(text)
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise NumberTooLarge(f"number `{_short(text, 20)}` is too large (the limit is {MAX_NUMBER:,})")
    return value


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


def from_lark(tree: Any, base: Pos = UNKNOWN, locate: Optional[Locate] = None, shift: int = 1) -> E:
    """Convert a Lark ``expr`` tree into an ``E`` node; ``base`` is where the expression text starts,
    ``locate`` maps an offset in the text to its position (``Scalar.locate``)."""
    if isinstance(tree, Token):
        raise ValueError(f"unexpected token {tree!r}")
    kind = tree.data
    ch = tree.children
    pos = _pos_of(tree, base, locate, shift)
    conv = lambda t: from_lark(t, base, locate, shift)  # noqa: E731
    if kind == "number":
        return E("const", (_number(str(ch[0])),), pos)
    if kind == "string":
        from ..source.grammar import string_value
        return E("const", (string_value(str(ch[0])),), pos)
    if kind == "true":
        return E("const", (True,), pos)
    if kind == "false":
        return E("const", (False,), pos)
    if kind == "none":
        return E("const", (None,), pos)
    if kind == "name":
        return E("name", (str(ch[0]),), pos)
    if kind == "attr":
        return E("attr", (conv(ch[0]), str(ch[1])), pos)
    if kind == "index":
        return E("index", (conv(ch[0]), conv(ch[1])), pos)
    if kind == "neg":
        return E("neg", (conv(ch[0]),), pos)
    if kind == "not_":
        return E("not", (conv(ch[0]),), pos)
    if kind in ("and_", "or_"):
        return E(kind[:-1], (conv(ch[0]), conv(ch[1])), pos)
    if kind == "binop":
        return E("bin", (str(ch[1]), conv(ch[0]), conv(ch[2])), pos)
    if kind == "compare":
        return E("cmp", (str(ch[1]), conv(ch[0]), conv(ch[2])), pos)
    if kind == "in_":
        return E("in", (conv(ch[0]), conv(ch[1])), pos)
    if kind == "not_in":
        return E("not", (E("in", (conv(ch[0]), conv(ch[1])), pos),), pos)
    if kind == "if_":
        return E("if", (conv(ch[0]), conv(ch[1]), conv(ch[2])), pos)
    if kind == "list":
        return E("list", tuple(conv(c) for c in ch if c is not None), pos)
    if kind == "call":
        name = str(ch[0])
        args = ch[1] if len(ch) > 1 else None
        if args is None:
            return E("call", (name,), pos)
        if args.data == "comprehension":
            a = args.children
            return E("comp", (name, conv(a[0]), str(a[1]), conv(a[2]),
                              conv(a[3]) if len(a) > 3 and a[3] is not None else None), pos)
        return E("call", (name,) + tuple(conv(c) for c in args.children), pos)
    if kind in ("expr", "block", "assign"):
        raise ValueError(f"not an expression: {kind}")
    raise ValueError(f"unknown expression node {kind}")


def _error_offset(exc: Exception, text: str) -> Optional[int]:
    """The offset in ``text`` of a Lark error (the parser saw ``"(" + text + ")"``), if it says."""
    token = getattr(exc, "token", None)
    if token is not None and getattr(token, "type", None) == "$END":
        return len(text)
    for where in (getattr(token, "start_pos", None), getattr(exc, "pos_in_stream", None)):
        if isinstance(where, int) and where >= 0:
            return min(max(where - 1, 0), len(text))
    return None


def parse(text: str, pos: Pos = UNKNOWN,
          locate: Optional[Locate] = None) -> tuple[Optional[E], Optional[Diagnostic]]:
    """Parse expression text; returns (ast, None) or (None, located diagnostic).

    ``pos`` is where the text starts; ``locate`` (default: the text as written from ``pos``) maps an
    offset in it to a position, for a text that is not its source verbatim (a folded YAML string).
    Texts longer than ``MAX_EXPR_CHARS`` are refused before the parser sees them."""
    from ..source import MAX_EXPR_CHARS
    from ..source.grammar import NestingTooDeep, describe_expected, parse_expr_tree

    if locate is None:
        locate = _locator(text, pos)
    if len(text) > MAX_EXPR_CHARS:
        return None, Diagnostic("E-LIMIT", f"expression is too long ({len(text):,} characters; the limit is "
                                f"{MAX_EXPR_CHARS:,})", pos,
                                "split it into derived values, each a few lines long")
    try:
        tree = parse_expr_tree(text)
    except UnexpectedInput as exc:
        offset = _error_offset(exc, text)
        if offset is not None:
            at = locate(offset)
        else:
            line = getattr(exc, "line", 1) or 1
            col = getattr(exc, "column", 1) or 1
            at = pos.shifted(col - 1) if line == 1 else Pos(pos.path, pos.line + line - 1, col)
        if isinstance(exc, NestingTooDeep):
            return None, Diagnostic("E-DEPTH", exc.message, at, "split it into derived values")
        expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or []
        hint = describe_expected(expected) or "check the expression syntax"
        return None, Diagnostic("E-EXPR-SYNTAX", f"cannot parse expression `{_short(text)}`", at, hint)
    except Exception as exc:  # lark raises a few non-UnexpectedInput errors on odd input
        return None, Diagnostic("E-EXPR-SYNTAX", f"cannot parse expression `{_short(text)}`: "
                                f"{_short(str(exc))}", pos, "check the expression syntax")
    try:
        return from_lark(tree, pos, locate), None
    except NumberTooLarge as exc:
        return None, Diagnostic("E-NUMBER", str(exc), pos, "numbers in rules are small")
    except ValueError as exc:
        return None, Diagnostic("E-EXPR-SYNTAX", _short(str(exc), 200), pos, "")


def expr_from_scalar(node: Scalar) -> tuple[Optional[Expr], Optional[Diagnostic]]:
    """An expression field's value: literals become constants, strings are parsed."""
    value = node.value
    if isinstance(value, str):
        ast, diag = parse(value, node.pos.shifted(node.text_offset), node.locate)
        if diag:
            return None, diag
        return Expr(ast, value, node.pos), None
    return Expr(E("const", (value,), node.pos), repr(value) if not isinstance(value, bool)
                else ("true" if value else "false"), node.pos), None


# ------------------------------------------------------------------------------------------ unparse
_PREC = {"if": 0, "or": 1, "and": 2, "not": 3, "cmp": 4, "in": 4, "bin+": 5, "bin*": 6, "neg": 7}


def _prec(e: E) -> int:
    if e.op == "bin":
        return _PREC["bin+"] if e.args[0] in "+-" else _PREC["bin*"]
    return _PREC.get(e.op, 9)


def literal(v: Any) -> str:
    """A constant as the expression language writes it: true, false, none, "text" (escaped), 5."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "none"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(v)


def unparse(e: E) -> str:
    """Canonical text of an expression (parses back to an equal AST)."""
    op, a = e.op, e.args

    def wrap(sub: E, min_prec: int) -> str:
        s = unparse(sub)
        return f"({s})" if _prec(sub) < min_prec else s

    if op == "const":
        return literal(a[0])
    if op == "name":
        return a[0]
    if op == "attr":
        return f"{wrap(a[0], 9)}.{a[1]}"
    if op == "index":
        return f"{wrap(a[0], 9)}[{unparse(a[1])}]"
    if op == "neg":
        return f"-{wrap(a[0], 7)}"
    if op == "not":
        return f"not {wrap(a[0], 3)}"
    if op in ("and", "or"):
        p = _PREC[op]
        return f"{wrap(a[0], p)} {op} {wrap(a[1], p + 1)}"
    if op == "bin":
        p = _prec(e)
        return f"{wrap(a[1], p)} {a[0]} {wrap(a[2], p + 1)}"
    if op == "cmp":
        return f"{wrap(a[1], 5)} {a[0]} {wrap(a[2], 5)}"
    if op == "in":
        return f"{wrap(a[0], 5)} in {wrap(a[1], 5)}"
    if op == "if":
        return f"if {unparse(a[0])} then {unparse(a[1])} else {unparse(a[2])}"
    if op == "list":
        return "[" + ", ".join(unparse(x) for x in a) + "]"
    if op == "call":
        return f"{a[0]}(" + ", ".join(unparse(x) for x in a[1:]) + ")"
    if op == "comp":
        name, item, var, seq, cond = a
        tail = f" where {wrap(cond, 1)}" if cond is not None else ""
        return f"{name}({unparse(item)} for {var} in {wrap(seq, 1)}{tail})"
    raise ValueError(op)
