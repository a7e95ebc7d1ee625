"""Expression syntax tree: small immutable nodes built from the Lark parse tree.

The AST is what the model stores for every expression field, so a YAML string and the same expression
written bare in a ``.rules`` file compare equal (``==`` ignores positions and source text).  Positions
are kept for diagnostics: ``pos`` is where the node starts in the ruleset file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from lark import Token
from lark.exceptions import UnexpectedInput

from ..errors import Diagnostic
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


_BINOPS = {"+", "-", "*", "/", "//", "%"}


def _pos_of(node: Any, base: Pos) -> Pos:
    meta = getattr(node, "meta", None)
    line = getattr(node, "line", None) or (getattr(meta, "line", None) if meta and not meta.empty else None)
    col = getattr(node, "column", None) or (getattr(meta, "column", None) if meta and not meta.empty else None)
    if not line:
        return base
    if line == 1:
        return Pos(base.path, base.line, base.col + col - 1)
    return Pos(base.path, base.line + line - 1, col)


def from_lark(tree: Any, base: Pos = UNKNOWN) -> E:
    """Convert a Lark ``expr`` tree into an ``E`` node; ``base`` is where the expression text starts."""
    if isinstance(tree, Token):
        raise ValueError(f"unexpected token {tree!r}")
    kind = tree.data
    ch = tree.children
    pos = _pos_of(tree, base)
    conv = lambda t: from_lark(t, base)  # noqa: E731
    if kind == "number":
        text = str(ch[0])
        return E("const", (float(text) if "." in text else int(text),), pos)
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


def parse(text: str, pos: Pos = UNKNOWN) -> tuple[Optional[E], Optional[Diagnostic]]:
    """Parse expression text; returns (ast, None) or (None, located diagnostic)."""
    from ..source.grammar import parse_expr_tree

    try:
        tree = parse_expr_tree(text)
    except UnexpectedInput as exc:
        line = getattr(exc, "line", 1) or 1
        col = getattr(exc, "column", 1) or 1
        at = pos.shifted(col - 1) if line == 1 else Pos(pos.path, pos.line + line - 1, col)
        from ..source.grammar import describe_expected
        expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or []
        hint = describe_expected(expected) or "check the expression syntax"
        return None, Diagnostic("E-EXPR-SYNTAX", f"cannot parse expression `{text.strip()}`", at, hint)
    except Exception as exc:  # lark raises a few non-UnexpectedInput errors on odd input
        return None, Diagnostic("E-EXPR-SYNTAX", f"cannot parse expression `{text.strip()}`: {exc}", pos,
                                "check the expression syntax")
    try:
        return from_lark(tree, pos), None
    except ValueError as exc:
        return None, Diagnostic("E-EXPR-SYNTAX", str(exc), pos, "")


def expr_from_scalar(node: Scalar) -> tuple[Optional[Expr], Optional[Diagnostic]]:
    """An expression field's value: literals become constants, strings are parsed."""
    value = node.value
    if isinstance(value, str):
        ast, diag = parse(value, node.pos.shifted(node.text_offset))
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


def unparse(e: E) -> str:
    """Canonical text of an expression (parses back to an equal AST)."""
    op, a = e.op, e.args

    def wrap(sub: E, min_prec: int) -> str:
        s = unparse(sub)
        return f"({s})" if _prec(sub) < min_prec else s

    if op == "const":
        v = a[0]
        if v is True:
            return "true"
        if v is False:
            return "false"
        if v is None:
            return "none"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return repr(v)
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
