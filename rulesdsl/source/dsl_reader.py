"""Read a ``.rules`` DSL file into the raw tree (the same tree a YAML file gives).

The DSL is parsed with the Lark grammar (start ``document``); this module only turns the parse tree
into ``Map``/``Seq``/``Scalar`` nodes:

* ``key = value`` and ``key { ... }`` are mapping entries (a repeated key is ``E-DUP-KEY``);
* a ``[ ... ]`` value is a ``Seq``; its items may be blocks, lists or expressions;
* a single literal becomes a typed scalar (``3``, ``-3``, ``1.5``, ``"text"``, ``true``, ``none``), and a
  bare name becomes its ``str``;
* any other value is an expression, kept as its exact source text (a ``str`` scalar), exactly as a
  YAML file would hold it: expressions are parsed later, by the layer that knows a field's type.

Syntax errors become one located ``E-SYNTAX`` diagnostic with what was expected.
"""

from __future__ import annotations

import math

from ..errors import Diagnostic, Diagnostics, RulesetError
from . import MAX_NUMBER, size_problem
from .grammar import (KEYWORDS, NestingTooDeep, Token, Tree, UnexpectedCharacters, UnexpectedInput,
                      UnexpectedToken, describe_expected, is_literal, parse_document_tree, span, span_start,
                      string_value)
from .tree import Map, Node, Pos, Scalar, Seq


def read_dsl(text: str, path: str) -> Map:
    """Parse DSL ``text`` (from file ``path``) into a ``Map``; raises ``RulesetError``."""
    too_big = size_problem(text, path)
    if too_big:
        raise RulesetError([too_big])
    if text.startswith("\ufeff"):      # a byte-order mark some editors write; invisible, so skipped
        text = text[1:]
    try:
        tree = parse_document_tree(text)
    except UnexpectedInput as exc:
        raise RulesetError([syntax_diagnostic(exc, text, path)]) from None
    diags = Diagnostics()
    node = _Builder(text, path, diags).document(tree)
    diags.raise_if_any()
    return node


class _Builder:
    """Parse tree -> raw tree, collecting problems (duplicate keys, bad numbers or escapes)."""

    def __init__(self, text: str, path: str, diags: Diagnostics):
        self.text, self.path, self.diags = text, path, diags

    def pos(self, line: int, col: int) -> Pos:
        return Pos(self.path, line, col)

    def document(self, tree: Tree) -> Map:
        return self.entries(tree.children, Map({}, self.pos(1, 1)))

    def entries(self, children: list, into: Map) -> Map:
        for entry in children:
            if not isinstance(entry, Tree):   # a placeholder for an empty [entry ...] part
                continue
            key_tok = entry.children[0].children[0]
            key = self.key_text(key_tok)
            value = self.value(entry.children[1])
            first_tok = key_tok.children[0] if isinstance(key_tok, Tree) else key_tok
            where = self.pos(first_tok.line, first_tok.column)
            if key in into.entries:
                first = into.key_pos[key]
                self.diags.error("E-DUP-KEY", f"duplicate key `{key}` (first written at {first})", where,
                                 f"remove one of the two entries; the first is at line {first.line}")
                continue
            into.entries[key] = value
            into.key_pos[key] = where
        return into

    def key_text(self, tok) -> str:
        if isinstance(tok, Tree):        # a heading `name(a, b)`, kept as that canonical text
            name, *params = (str(t) for t in tok.children if t is not None)
            return f"{name}({', '.join(params)})"
        if tok.type == "STRING":
            return self.string(tok)
        return str(tok)

    def string(self, tok: Token) -> str:
        try:
            return string_value(str(tok))
        except ValueError as exc:
            self.diags.error("E-SYNTAX", str(exc), self.pos(tok.line, tok.column),
                             "escapes are \\\\ \\\" \\' \\n \\t \\r \\xHH \\uHHHH; write `\\\\` for a backslash")
            return str(tok)[1:-1]

    def value(self, tree: Tree) -> Node:
        kind = tree.data
        if kind == "block":
            return self.entries(tree.children, Map({}, self.pos(tree.meta.line, tree.meta.column)))
        line, col = span_start(tree)
        if kind == "list":
            return Seq([self.value(c) for c in tree.children if isinstance(c, Tree)], self.pos(line, col))
        if is_literal(tree):
            return self.literal(tree, self.pos(line, col))
        if kind == "name":
            return Scalar(str(tree.children[0]), self.pos(line, col))
        start, end = span(tree)
        return Scalar(self.text[start:end], self.pos(line, col))

    def literal(self, tree: Tree, where: Pos) -> Scalar:
        kind = tree.data
        if kind == "true":
            return Scalar(True, where)
        if kind == "false":
            return Scalar(False, where)
        if kind == "none":
            return Scalar(None, where)
        if kind == "string":
            return Scalar(self.string(tree.children[0]), where, text_offset=1)
        if kind == "neg":
            number = self.number(tree.children[0].children[0], where)
            return Scalar(-number if number is not None else None, where)
        return Scalar(self.number(tree.children[0], where), where)

    def number(self, tok: Token, where: Pos):
        text = str(tok)
        value: float = math.inf
        if len(text.split(".")[0].lstrip("0")) <= len(str(MAX_NUMBER)):   # no huge conversion
            value = float(text) if "." in text else int(text)
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            self.diags.error("E-NUMBER", f"number `{text[:20]}{'...' if len(text) > 20 else ''}` is too large "
                             f"(the limit is {MAX_NUMBER:,})", where, "numbers in rules are small; check for a typo")
            return None
        return value


# ------------------------------------------------------------------------------------------ errors
def _end_of(text: str) -> tuple[int, int]:
    """1-based line and column just after the last character of ``text``."""
    line = text.count("\n") + 1
    return line, len(text) - (text.rfind("\n") + 1) + 1


def syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    """A friendly, located diagnostic for a Lark parse error."""
    line, col = getattr(exc, "line", None), getattr(exc, "column", None)
    if not isinstance(line, int) or line < 1 or not isinstance(col, int) or col < 1:
        line, col = _end_of(text)
    where = Pos(path, line, col)
    if isinstance(exc, NestingTooDeep):
        return Diagnostic(exc.code, exc.message, where, "flatten the structure; split big expressions")
    hint = ""
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = exc.expected or set()
        if tok.type == "$END":
            line, col = _end_of(text)
            where = Pos(path, line, col)
            message = "unexpected end of file"
        elif tok.type == "_NL":
            message = "unexpected end of line"
        else:
            message = f"unexpected `{_short(str(tok))}`"
        hint = describe_expected(expected)
        start = getattr(tok, "start_pos", None)
        if tok.type == "NAME" and isinstance(start, int) and 0 < start <= len(text) and text[start - 1].isdigit():
            hint = f"a word cannot follow a number: write a card as a string (\"{_card_before(text, start)}\")"
        elif str(tok) in KEYWORDS and "NAME" in expected:
            hint += f"; `{tok}` is a keyword: quote it to use it as a name (\"{tok}\")"
        opened = _unclosed(text, getattr(tok, "start_pos", None), expected)
        if opened is not None and (tok.type == "$END" or str(tok) in ")]}"
                                   or _line_col(text, opened[1])[0] < line):
            # a bracket left open past its line (or closed by the wrong one): reported where it opens
            bracket, at = opened
            return Diagnostic("E-SYNTAX", f"`{bracket}` is never closed", Pos(path, *_line_col(text, at)),
                              f"close it with `{_CLOSE[bracket]}` before the {message.removeprefix('unexpected ')} "
                              f"at line {line}, column {col}")
    elif isinstance(exc, UnexpectedCharacters):
        char = exc.char
        if char in "\"'":
            message = "unterminated string (a string ends on the line where it starts)"
            hint = f"close it with {char}; write a line break as \\n"
        else:
            message = f"unexpected character `{char}`"
            hint = describe_expected(exc.allowed or ())
    else:
        message = "invalid syntax"
    return Diagnostic("E-SYNTAX", message, where, hint)


_CLOSE = {"(": ")", "[": "]", "{": "}"}
#: the grammar's names for the closing brackets (``RPAR``), as Lark reports them expected
_CLOSING_TERMINALS = {"RPAR": "(", "RSQB": "[", "RBRACE": "{"}


def _unclosed(text: str, upto, expected) -> "tuple[str, int] | None":
    """The bracket still open where the parser wanted its closing one: (bracket, offset), or None.
    Strings and comments are skipped; only a bracket the parser expected closed is named."""
    wanted = {_CLOSING_TERMINALS[t] for t in expected if t in _CLOSING_TERMINALS}
    if not wanted or not isinstance(upto, int):
        return None
    stack: list = []
    i, quote = 0, ""
    while i < min(upto, len(text)):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote or ch == "\n":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        elif ch in _CLOSE:
            stack.append((ch, i))
        elif ch in ")]}" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack and stack[-1][0] in wanted else None


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _card_before(text: str, start: int) -> str:
    """The digits before ``start`` plus the word from ``start`` (``10H`` from ``... 10H``)."""
    i = start
    while i > 0 and text[i - 1].isdigit():
        i -= 1
    j = start
    while j < len(text) and (text[j].isalnum() or text[j] == "_"):
        j += 1
    return text[i:j]


def _short(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
