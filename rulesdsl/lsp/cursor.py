"""Where a cursor is in a ruleset being typed: the key path around it, and whether it is on a key or
in a value.

An editor asks about half-typed text that no reader accepts, so this does not parse: it reads YAML's
block structure from indentation and ``- `` items, and brackets (YAML flow mappings and lists on one
line, the DSL's ``{ }`` and ``[ ]``) with a small tokenizer.  A path is a tuple of keys, ``"[]"``
standing for an item of a list (``("turn", "[]", "actions")``).  Positions are LSP's: 0-based line
and character.  No pygls here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ..model.schema import ListOf, Struct
from .keys import type_at

#: one token of a DSL line or a YAML flow value
_TOKEN = re.compile(r'''#.*|"(?:\\.|[^"\\\n])*"?|'[^'\n]*'?|[A-Za-z0-9_][\w.\-]*|==|!=|<=|>=|\n|.''')
#: a YAML block line: indentation, ``- `` item marks, then maybe ``key:``
_YAML_KEY = re.compile(r'''("[^"]*"|'[^']*'|[^\s#{}\[\],"'&*!|>][^#{}\[\],]*?)[ \t]*:(?=\s|$)''')
_WORD = re.compile(r"[A-Za-z0-9_][\w.]*")


@dataclass(frozen=True)
class Context:
    """``path``: for ``mode == "key"``, the mapping the cursor's key belongs to; for ``"value"``, the
    key path of the value the cursor is in (its last key included)."""

    path: tuple
    mode: str


def word_at(line: str, char: int) -> tuple[str, int, int]:
    """The word (letters, digits, ``_``, ``.``) around ``char`` on ``line``: (word, start, end)."""
    for m in _WORD.finditer(line):
        if m.start() <= char <= m.end():
            return m.group(), m.start(), m.end()
    return "", char, char


def context(text: str, line: int, char: int, dsl: bool) -> Context:
    """The context at (``line``, ``char``) of ``text``, a ``.rules`` file when ``dsl``, else YAML."""
    lines = text.split("\n")
    if dsl:
        before = "\n".join(lines[:line] + [lines[line][:char] if line < len(lines) else ""])
        return _scan(_tokens(before), (), "=", dsl=True)
    return _yaml_context(lines, line, char)


def _tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text) if not t.startswith("#") and (t == "\n" or not t.isspace())]


# ------------------------------------------------------------------------------------------- brackets


def _scan(tokens: list[str], outer: tuple, sep: str, dsl: bool) -> Context:
    """Follow brackets: ``outer`` is the path the text sits in; a ``{`` or ``[`` after ``key`` +
    ``sep`` (or, in the DSL, right after ``key``) opens that key's value, one inside a list an item."""
    frames: list[tuple[Optional[str], str]] = []      # (label or None, "{" or "[")
    pending: Optional[str] = None                     # a key whose value comes next
    word: Optional[str] = None                        # the last word, maybe a key
    for tok in tokens:
        if tok in "{[":
            label = pending if pending is not None else \
                "[]" if frames and frames[-1][1] == "[" else \
                word if dsl and tok == "{" and word is not None else None
            frames.append((label, tok))
            pending = word = None
        elif tok in "}]":
            if frames:
                frames.pop()
            pending = word = None
        elif tok in (",", ";", "\n"):
            pending = word = None
        elif tok == sep and pending is None:
            pending = _unquote(word) if word is not None else None
        elif pending is None and (tok[0].isalnum() or tok[0] in "_\"'"):
            word = tok
    path = outer + tuple(label for label, _ in frames if label is not None)
    if pending is not None:
        return Context(path + (pending,), "value")
    if frames and frames[-1][1] == "[":
        return Context(path, "value")
    if not frames and outer and not dsl:
        return Context(path, "value")                  # a YAML scalar value, not a mapping
    return Context(path, "key")


def _unquote(word: str) -> str:
    return word[1:-1] if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'" else word


# ---------------------------------------------------------------------------------------- YAML blocks


@dataclass
class _Line:
    """One YAML line's block structure."""

    indent: int                 # where the key (or the text after the item marks) starts
    items: list                 # the columns of its ``- `` marks
    key: Optional[str]
    key_end: int                # the column after the key
    value_at: int               # the column after ``key:``, where its value starts
    value: str                  # the value's text, comment removed


def _parse_line(text: str) -> Optional[_Line]:
    """A line's structure, or None for a blank or comment line."""
    stripped = text.strip()
    if not stripped or stripped.startswith("#") or stripped in ("---", "..."):
        return None
    col = len(text) - len(text.lstrip(" "))
    items = []
    while text[col:col + 2] == "- " or text[col:].rstrip() == "-":
        items.append(col)
        col += 1
        while col < len(text) and text[col] == " ":
            col += 1
    m = _YAML_KEY.match(text, col)
    if m is None:
        return _Line(col, items, None, col, col, text[col:])
    value = text[m.end():]
    value = re.sub(r"(^|\s)#.*$", "", value)
    return _Line(col, items, _unquote(m.group(1).strip()), m.start(1) + len(m.group(1)), m.end(), value)


class _Blocks:
    """The stack of open YAML keys and items: (indent, label, open), ``open`` when a key's value is
    on the lines below (so a bare word there is a key being typed, not a continued value)."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str, bool]] = []

    def items(self, marks: list) -> None:
        for col in marks:
            while self.stack and self.stack[-1][0] > col:
                self.stack.pop()
            if self.stack and self.stack[-1][:2] == (col, "[]"):
                self.stack.pop()
            self.stack.append((col, "[]", True))

    def leave(self, indent: int) -> None:
        while self.stack and self.stack[-1][0] >= indent:
            self.stack.pop()

    def feed(self, ln: _Line) -> None:
        self.items(ln.items)
        if ln.key is not None:
            self.leave(ln.indent)
            self.stack.append((ln.indent, ln.key, not ln.value.strip()))

    def path(self) -> tuple:
        return tuple(label for _, label, _ in self.stack)


def _yaml_context(lines: list[str], line: int, char: int) -> Context:
    """The lines above give the open keys; the cursor's own line says whether it is on a key, in a
    flow value, in a scalar value, or starting a key of its own."""
    blocks = _Blocks()
    for text in lines[:line]:
        ln = _parse_line(text)
        if ln is not None:
            blocks.feed(ln)
    text = lines[line] if line < len(lines) else ""
    ln = _parse_line(text)
    if ln is None:                                   # a blank line: a key will start at the cursor
        blocks.leave(char)
        return Context(blocks.path(), "key")
    blocks.items([c for c in ln.items if c < char])
    if ln.key is None:
        return _keyless(blocks, ln, text, char)
    blocks.leave(ln.indent)
    if char <= ln.key_end:
        return Context(blocks.path(), "key")
    if ln.value.lstrip().startswith(("{", "[")):
        return _scan(_tokens(text[ln.value_at:char]), blocks.path() + (ln.key,), ":", dsl=False)
    return Context(blocks.path() + (ln.key,), "value")


def _keyless(blocks: _Blocks, ln: _Line, text: str, char: int) -> Context:
    """A line without ``key:``: a flow mapping or list item, a word of a list, a key half typed, or
    the continuation of the value above."""
    if text[ln.indent:ln.indent + 1] in ("{", "[") and char > ln.indent:     # `- {key: value, ...}`
        return _scan(_tokens(text[ln.indent:char]), blocks.path(), ":", dsl=False)
    if ln.items and ln.items[-1] < char:             # `- word`: an item of a list of words, or a new key
        parent = blocks.path()[:-1]
        return Context(parent, "value") if parent and _is_word_list(parent) else Context(blocks.path(), "key")
    blocks.leave(ln.indent)
    if blocks.stack and not blocks.stack[-1][2]:     # deeper than a key with a value: its continuation
        return Context(blocks.path(), "value")
    return Context(blocks.path(), "key")


def _is_word_list(path: tuple) -> bool:
    t = type_at(path)
    return isinstance(t, ListOf) and not isinstance(t.item, Struct)
