"""The Lark parser for ``grammar/rules.lark``: found, built once, and shared.

Why a module of its own: both the DSL reader (start ``document``) and the expression compiler (start
``expr``, for YAML strings) need the same parser, with the same post-lexer and the same limits.

* The grammar file is found in an installed wheel (package data ``rulesdsl.grammar``) or, in a source
  checkout, at ``<repo>/grammar/rules.lark``.
* The LALR parser is built lazily on first use and cached for the process (~40 ms).  Lark's
  ``cache=True`` would save ~35 ms more, but it unpickles a file from the shared temp directory, which
  another local user could plant; a rules file must never be a way to run code, so we do not use it.
* The post-lexer drops newlines inside ``[...]`` and ``(...)`` (lists and calls may span lines) but not
  inside ``{...}`` (a block's entries are newline-separated), and bounds bracket nesting.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Iterable, Iterator, Optional

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from . import MAX_DEPTH, MAX_EXPR_CHARS

KEYWORDS = frozenset("if then else and or not in for where true false none".split())
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
CARDKEY_RE = re.compile(r"(10|[2-9])[A-Za-z]*\Z")
SIGNED_NUMBER_RE = re.compile(r"-\d+(\.\d+)?\Z")
LITERALS = frozenset({"number", "string", "true", "false", "none"})

# A parse tree deeper than this is refused: later passes walk trees recursively.
MAX_TREE_DEPTH = 4 * MAX_DEPTH

_OPEN = {"LSQB": "RSQB", "LPAR": "RPAR", "LBRACE": "RBRACE"}
_CLOSE = {v: k for k, v in _OPEN.items()}


class NestingTooDeep(UnexpectedInput):
    """Brackets or operators nested beyond the limits (a located Lark error, like a syntax error)."""

    code = "E-DEPTH"

    def __init__(self, line: int, column: int, pos: int, what: str, limit: int = MAX_DEPTH):
        self.line, self.column, self.pos_in_stream = line, column, pos
        self.expected: set = set()
        self.state = None
        self.interactive_parser = None
        self.message = f"{what} nested too deeply (the limit is {limit} levels)"
        super().__init__(self.message)


class ExpressionTooLong(NestingTooDeep):
    """A value in a ``.rules`` file runs past ``MAX_EXPR_CHARS`` (stopped while lexing, before the
    parser builds a tree for it)."""

    code = "E-LIMIT"

    def __init__(self, line: int, column: int, pos: int):
        super().__init__(line, column, pos, "expressions")
        self.message = f"expression is too long (more than {MAX_EXPR_CHARS:,} characters)"
        self.args = (self.message,)

    def __str__(self) -> str:
        return self.message


class _PostLexer:
    """Drops ``_NL`` inside ``[]``/``()`` (not inside ``{}``), bounds bracket depth, and bounds the
    length of a value: the characters between two tokens that no expression holds (``{``, ``}``,
    ``=``, ``;``, a kept new line) stay within ``MAX_EXPR_CHARS``."""

    always_accept = ("_NL",)
    _RESET = frozenset({"LBRACE", "RBRACE", "EQUAL", "SEMICOLON", "_NL"})

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        stack: list[str] = []
        run_start = 0
        for tok in stream:
            kind = tok.type
            if kind in _OPEN:
                stack.append(kind)
                if len(stack) > MAX_DEPTH:
                    raise NestingTooDeep(tok.line, tok.column, tok.start_pos, "brackets")
            elif kind in _CLOSE:
                if stack and stack[-1] == _CLOSE[kind]:
                    stack.pop()
            elif kind == "_NL" and stack and stack[-1] != "LBRACE":
                continue
            if kind in self._RESET:
                run_start = tok.end_pos or 0
            elif (tok.end_pos or 0) - run_start > MAX_EXPR_CHARS + 2:   # + the parentheses of parse_expr_tree
                raise ExpressionTooLong(tok.line, tok.column, tok.start_pos)
            yield tok


def grammar_path() -> Path:
    """Where ``rules.lark`` is: package data in a wheel, else ``<repo>/grammar/`` in a checkout."""
    try:
        from importlib.resources import files

        candidate = files("rulesdsl.grammar").joinpath("rules.lark")
        if candidate.is_file():
            return Path(str(candidate))
    except (ImportError, TypeError, ValueError, OSError, AttributeError):
        pass
    return Path(__file__).resolve().parents[2] / "grammar" / "rules.lark"


_lock = threading.Lock()
_parser: Optional[Lark] = None


def get_parser() -> Lark:
    """The shared LALR parser (built on first call)."""
    global _parser
    if _parser is None:
        with _lock:
            if _parser is None:
                text = grammar_path().read_text(encoding="utf-8")
                _parser = Lark(text, parser="lalr", propagate_positions=True,
                               start=["document", "expr"], postlex=_PostLexer(),
                               maybe_placeholders=True)
    return _parser


def _check_depth(tree: Tree) -> Tree:
    """Refuse trees deeper than MAX_TREE_DEPTH (e.g. ``not not not ... x``), iteratively."""
    todo = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_TREE_DEPTH:
            m = node.meta
            raise NestingTooDeep(getattr(m, "line", 1), getattr(m, "column", 1),
                                 getattr(m, "start_pos", 0), "expressions", MAX_TREE_DEPTH)
        todo.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))
    return tree


def parse_expr_tree(text: str) -> Tree:
    """Parse one expression (start ``expr``); raises Lark's ``UnexpectedInput`` subclasses.

    An expression may span lines (a folded YAML string): it is parsed inside parentheses, where the
    post-lexer drops newlines, and positions on its first line are shifted back by that one column."""
    try:
        tree = get_parser().parse("(" + text + ")", start="expr")
    except UnexpectedInput as exc:
        if getattr(exc, "line", None) == 1 and getattr(exc, "column", 0) > 1:
            exc.column -= 1
        raise
    for node in tree.iter_subtrees():
        m = node.meta
        if not m.empty and m.line == 1:
            m.column -= 1
        for tok in node.children:
            if isinstance(tok, Token) and tok.line == 1:
                tok.column -= 1
    return _check_depth(tree)


def parse_expr_exact(text: str) -> Tree:
    """Parse ``text`` as one expression exactly as written in a DSL value (newlines are not dropped)."""
    return _check_depth(get_parser().parse(text, start="expr"))


def parse_document_tree(text: str) -> Tree:
    """Parse a whole ``.rules`` file (start ``document``); raises Lark's ``UnexpectedInput``."""
    return _check_depth(get_parser().parse(text, start="document"))


def span(tree: Tree) -> tuple[int, int]:
    """Start and end offsets of ``tree`` in its text, including parentheses wrapped around it.

    Lark inlines ``( expr )`` and keeps the parenthesised span as the "container" positions.
    """
    m = tree.meta
    return (getattr(m, "container_start_pos", m.start_pos), getattr(m, "container_end_pos", m.end_pos))


def span_start(tree: Tree) -> tuple[int, int]:
    """1-based line and column where ``span(tree)`` starts."""
    m = tree.meta
    return (getattr(m, "container_line", m.line), getattr(m, "container_column", m.column))


def is_name(text: str) -> bool:
    """True if ``text`` lexes as a single NAME token (a bare word, not a keyword)."""
    return bool(NAME_RE.match(text)) and text not in KEYWORDS


def is_literal(tree: Tree) -> bool:
    """True for a literal value: number, string, true/false/none, or ``-`` number."""
    if tree.data == "neg":
        child = tree.children[0]
        return isinstance(child, Tree) and child.data == "number"
    return tree.data in LITERALS


# ------------------------------------------------------------------------------------------ strings
_SIMPLE_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r", "0": "\0",
                   "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_HEX_LEN = {"x": 2, "u": 4, "U": 8}
_ESCAPE_RE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.S)


def string_value(token_text: str) -> str:
    """The value of a STRING token (quotes removed, escapes decoded); ValueError on a bad escape.

    Escapes: ``\\\\ \\" \\' \\n \\t \\r \\0 \\a \\b \\f \\v \\xHH \\uHHHH \\UHHHHHHHH``.  Other characters,
    including non-ASCII ones, stand for themselves.
    """
    body = token_text[1:-1]
    if "\\" not in body:
        return body

    def one(m: re.Match) -> str:
        esc = m.group(1)
        if esc in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[esc]
        if esc[0] in _HEX_LEN and len(esc) == 1 + _HEX_LEN[esc[0]]:
            code = int(esc[1:], 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise ValueError(f"`\\{esc}` is not a valid character")
            return chr(code)
        raise ValueError(f"unknown escape `\\{esc}` in a string")

    return _ESCAPE_RE.sub(one, body)


def quote_string(value: str) -> str:
    """A double-quoted STRING token for ``value`` that ``string_value`` reads back exactly."""
    out = ['"']
    for ch in value:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif code < 0x20 or 0x7F <= code <= 0xA0 or code in (0x2028, 0x2029, 0xFEFF) \
                or 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF) \
                or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069 or code in (0x061C, 0x200E, 0x200F):  # bidi
            out.append(f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# ------------------------------------------------------------------------------------------ errors
_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "SIGNED_NUMBER": "a negative number", "STRING": "a string",
    "CARDKEY": "a card key", "_NL": "a new line", "$END": "the end of the file",
    "COMPOP": "a comparison (`==`, `<`, ...)", "ADDOP": "`+` or `-`", "MULOP": "`*`, `/`, `//` or `%`",
}


def describe_terminal(name: str) -> str:
    """A reader-friendly name for a grammar terminal (``EQUAL`` -> `` `=` ``, ``NAME`` -> a name)."""
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    try:
        pattern = get_parser().get_terminal(name).pattern
    except (KeyError, AttributeError):
        return name
    if pattern.type == "str":
        return f"`{pattern.value}`"
    return name.lower().lstrip("_")


def describe_expected(names: Iterable[str], limit: int = 10) -> str:
    """``expected one of: ...`` for a set of terminal names (sorted, deterministic)."""
    words = sorted({describe_terminal(n) for n in names}, key=lambda w: (not w.startswith("`"), w))
    if not words:
        return ""
    if len(words) > limit:
        words = words[:limit] + ["..."]
    return ("expected " if len(words) == 1 else "expected one of: ") + ", ".join(words)
