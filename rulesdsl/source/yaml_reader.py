"""Read a YAML ruleset into the raw tree, safely and with the position of every node.

Why not ``yaml.safe_load``: it forgets positions, silently keeps the last of two equal keys, expands
aliases (a "billion laughs" file is a few lines), and resolves YAML 1.1 surprises (``no`` -> False,
``on`` -> True, ``0x10`` -> 16, ``2001-12-14`` -> a date).  Instead we read PyYAML's *event* stream (its
reader, scanner and parser: no constructor, so no object is ever built from a tag) and compose the tree
ourselves, iteratively, with a schema of our own:

* ``true``/``false`` (also ``True``/``TRUE``...) are booleans; ``yes``/``no``/``on``/``off`` are strings;
* ``null``, ``~`` and an empty value are None;
* ``[-+]?[0-9]+`` is an int; a float needs a dot (``1.5``); ``1e3``, ``0x10``, ``.inf`` stay strings;
* anything quoted, or a block scalar (``|``, ``>``), is a string;
* mapping keys are the text as written (``10: x`` has the key ``"10"``).

Rejected with located diagnostics: anchors and aliases, merge keys (``<<``), tags (except ``!!str``),
non-scalar keys, duplicate keys (``E-DUP-KEY``), more than one document, nesting deeper than
``MAX_DEPTH``, files larger than ``MAX_TEXT_CHARS``, numbers beyond ``MAX_NUMBER`` (``E-NUMBER``), and
text holding a lone surrogate (``"\\ud800"``: no file or terminal can carry it).  YAML syntax errors
become ``E-YAML``.

A string scalar whose text is not its source verbatim (a folded ``>`` or literal ``|`` block, a plain
or quoted scalar over several lines, escapes) keeps ``spans`` mapping its characters back to lines and
columns, so an error inside an expression written that way points at the offending token.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from typing import Optional, Union

import yaml
from yaml.events import (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent,
                         ScalarEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent)
from yaml.parser import Parser
from yaml.reader import Reader, ReaderError
from yaml.scanner import Scanner

from ..errors import Diagnostic, Diagnostics, RulesetError
from . import MAX_DEPTH, MAX_NUMBER, size_problem
from .tree import Map, Node, Pos, Scalar, Seq

_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_TRUE = re.compile(r"(?:true|True|TRUE)\Z")
_FALSE = re.compile(r"(?:false|False|FALSE)\Z")
_INT = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)\Z")
_STR_TAG = "tag:yaml.org,2002:str"
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE_LEN = {"x": 4, "u": 6, "U": 10}


def resolve_plain(text: str) -> Union[None, bool, int, float, str]:
    """The value of an unquoted, untagged YAML scalar under our schema (ValueError if out of range)."""
    if _NULL.match(text):
        return None
    if _TRUE.match(text):
        return True
    if _FALSE.match(text):
        return False
    if _INT.match(text):
        if len(text.lstrip("+-0")) > len(str(MAX_NUMBER)):   # before int(): no huge conversion
            raise ValueError(text)
        number = int(text)
        if not -MAX_NUMBER <= number <= MAX_NUMBER:
            raise ValueError(text)
        return number
    if _FLOAT.match(text):
        value = float(text)
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise ValueError(text)
        return value
    return text


def read_yaml(text: str, path: str) -> Node:
    """Parse YAML ``text`` (from file ``path``) into a raw tree; raises ``RulesetError``.

    An empty file (or one with only comments) is an empty ``Map``, as an empty DSL file is.
    """
    too_big = size_problem(text, path)
    if too_big:
        raise RulesetError([too_big])
    diags = Diagnostics()
    try:
        root = _Composer(path, diags, text).document(text)
    except yaml.YAMLError as exc:
        raise RulesetError(diags.items + [yaml_diagnostic(exc, text, path)]) from None
    diags.raise_if_any()
    return root


class _Events(Reader, Scanner, Parser):
    """PyYAML's event source without a composer or constructor (nothing but events is produced)."""

    def __init__(self, text: str):
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)


class _Frame:
    """An open mapping or sequence while composing."""

    __slots__ = ("node", "expect_key", "key", "key_pos")

    def __init__(self, node: Union[Map, Seq]):
        self.node = node
        self.expect_key = True
        self.key: Optional[str] = None
        self.key_pos: Optional[Pos] = None


class _Composer:
    """Builds the tree from events with an explicit stack (no recursion, so depth is ours to bound)."""

    def __init__(self, path: str, diags: Diagnostics, text: str = ""):
        self.path, self.diags, self.text = path, diags, text
        self._line_starts: Optional[list[int]] = None

    def pos(self, mark) -> Pos:
        return Pos(self.path, mark.line + 1, mark.column + 1)

    def document(self, text: str) -> Node:
        events = _Events(text)
        try:
            root: Optional[Node] = None
            events.get_event()                       # StreamStart
            while not events.check_event(StreamEndEvent):
                event = events.get_event()
                if isinstance(event, DocumentStartEvent):
                    if root is not None:
                        self.diags.error("E-YAML", "more than one YAML document in the file",
                                         self.pos(event.start_mark), "remove the `---` line and what follows")
                        break
                    root = self.node(events)
            return root if root is not None else Map({}, Pos(self.path, 1, 1))
        finally:
            events.dispose()

    def node(self, events: _Events) -> Node:
        stack: list[_Frame] = []
        while True:
            event = events.get_event()
            where = self.pos(event.start_mark)
            raw_key: Optional[tuple[str, bool]] = None
            if isinstance(event, (MappingStartEvent, SequenceStartEvent)):
                self.check_props(event, where, scalar=False)
                if len(stack) >= MAX_DEPTH:
                    self.diags.error("E-DEPTH", f"nested too deeply (the limit is {MAX_DEPTH} levels)",
                                     where, "flatten the structure")
                    raise RulesetError(self.diags.items)
                stack.append(_Frame(Map({}, where) if isinstance(event, MappingStartEvent) else Seq([], where)))
                continue
            if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
                done: Node = stack.pop().node
            elif isinstance(event, ScalarEvent):
                self.check_props(event, where, scalar=True)
                done = self.scalar(event, where)
                raw_key = (event.value, event.tag is None and event.style is None)
                if _SURROGATE.search(event.value):
                    self.surrogate(event, done)
                    raw_key = (_SURROGATE.sub("\ufffd", event.value), raw_key[1])
            elif isinstance(event, AliasEvent):
                self.diags.error("E-YAML-ALIAS", f"aliases (`*{event.anchor}`) are not allowed", where,
                                 "repeat the value, or use parameters and `extends`")
                done = Scalar(None, where)
            else:   # the parser only yields the events above inside a document
                raise yaml.YAMLError(f"unexpected YAML event {type(event).__name__}")
            if not stack:
                return done
            self.attach(stack[-1], done, raw_key)

    def check_props(self, event, where: Pos, scalar: bool) -> None:
        if event.anchor is not None:
            self.diags.error("E-YAML-ANCHOR", f"anchors (`&{event.anchor}`) are not allowed", where,
                             "repeat the value, or use parameters and `extends`")
        tag = event.tag
        if tag not in (None, "!") and not (scalar and tag == _STR_TAG):
            shown = "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag
            self.diags.error("E-YAML-TAG", f"tag `{shown}` is not allowed", where,
                             "rulesets are plain data: remove the tag (quote a value to make it a string)")

    def scalar(self, event: ScalarEvent, where: Pos) -> Scalar:
        spans = self.spans(event)
        if event.tag is not None or event.style is not None:
            return Scalar(event.value, where, text_offset=1 if event.style in ("'", '"') else 0, spans=spans)
        try:
            return Scalar(resolve_plain(event.value), where, spans=spans)
        except ValueError:
            shown = event.value if len(event.value) <= 20 else event.value[:20] + "..."
            self.diags.error("E-NUMBER", f"number `{shown}` is too large (the limit is {MAX_NUMBER:,})",
                             where, "numbers in rules are small; quote it if it is meant as text")
            return Scalar(event.value, where, spans=spans)

    def surrogate(self, event: ScalarEvent, node: Scalar) -> None:
        """A lone surrogate (only a ``\\uD800``-style escape makes one) cannot be printed or saved."""
        at = _SURROGATE.search(event.value)
        assert at is not None
        code = ord(at.group())
        self.diags.error("E-YAML", f"`\\u{code:04x}` is half of a surrogate pair, not a character",
                         node.locate(at.start()) if isinstance(node.value, str) else node.pos,
                         "write the character itself, or its code point as `\\U0001xxxx`")
        if isinstance(node.value, str):
            node.value = _SURROGATE.sub("\ufffd", node.value)

    # ---------------------------------------------------------------- positions inside a scalar
    def where_index(self, index: int) -> tuple[int, int]:
        """1-based line and column of character ``index`` of the source text."""
        if self._line_starts is None:
            text, starts, at = self.text, [0], self.text.find("\n")
            while at >= 0:
                starts.append(at + 1)
                at = text.find("\n", at + 1)
            self._line_starts = starts
        line = bisect_right(self._line_starts, index) - 1
        return line + 1, index - self._line_starts[line] + 1

    def spans(self, event: ScalarEvent) -> Optional[tuple[tuple[int, int, int], ...]]:
        """Runs ``(value offset, line, column)`` mapping a scalar's text to its source, when the text is
        not the source verbatim on one line; None when it is, or when the two cannot be aligned."""
        value, style, text = event.value, event.style, self.text
        start, end = event.start_mark.index, event.end_mark.index
        one_line = event.start_mark.line == event.end_mark.line
        if not value or not text or end > len(text) or (one_line and style is None):
            return None
        if one_line and style in ("'", '"') and text[start + 1:end - 1] == value:
            return None
        if style in ("|", ">"):
            p = text.find("\n", start, end)
            if p < 0:
                return None
            p += 1
        else:
            p = start + (1 if style in ("'", '"') else 0)
        double = style == '"'
        escapes = Scanner.ESCAPE_REPLACEMENTS
        runs: list[tuple[int, int, int]] = []
        last_i = last_p = -1
        for i, ch in enumerate(value):
            if ch in " \t\n\r":
                continue          # made by folding or indentation: shown at the run before it
            while True:
                if p >= end:
                    return None   # cannot align (should not happen): the scalar's start is used
                c = text[p]
                if double and c == "\\" and p + 1 < end:
                    kind = text[p + 1]
                    if kind in "\r\n":                       # an escaped line break: nothing
                        p += 2
                        continue
                    size = _ESCAPE_LEN.get(kind, 2)
                    made = escapes.get(kind) if size == 2 else _code_point(text[p + 2:p + size])
                    if made == ch:
                        break
                    p += size
                    continue
                if c == ch:
                    break
                p += 1
            if not (runs and last_p >= 0 and i - last_i == p - last_p and "\n" not in text[last_p:p]):
                line, col = self.where_index(p)
                runs.append((i, line, col))
            last_i, last_p = i, p
            if double and text[p] == "\\":
                size = _ESCAPE_LEN.get(text[p + 1], 2)
                p += size
                last_p = -1        # the next character starts a new run
            else:
                p += 1
        return tuple(runs) or None

    def attach(self, frame: _Frame, node: Node, raw_key: Optional[tuple[str, bool]]) -> None:
        parent = frame.node
        if isinstance(parent, Seq):
            parent.items.append(node)
            return
        if frame.expect_key:
            frame.expect_key = False
            frame.key, frame.key_pos = None, node.pos
            if raw_key is None:
                self.diags.error("E-YAML-KEY", "a mapping key must be a single value, not a mapping or list",
                                 node.pos, "use a plain word as the key")
            elif raw_key == ("<<", True):
                self.diags.error("E-YAML-MERGE", "merge keys (`<<`) are not allowed", node.pos,
                                 "write the entries out, or use `extends`")
            else:
                frame.key = raw_key[0]
            return
        frame.expect_key = True
        key, key_pos = frame.key, frame.key_pos
        if key is None or key_pos is None:
            return
        assert isinstance(parent, Map)
        if key in parent.entries:
            first = parent.key_pos[key]
            self.diags.error("E-DUP-KEY", f"duplicate key `{key}` (first written at {first})", key_pos,
                             f"remove one of the two entries; the first is at line {first.line}")
            return
        parent.entries[key] = node
        parent.key_pos[key] = key_pos


def _code_point(digits: str) -> Optional[str]:
    try:
        return chr(int(digits, 16))
    except (ValueError, OverflowError):
        return None


# ------------------------------------------------------------------------------------------ errors
_HINTS = {
    "mapping values are not allowed here":
        "a value containing `: ` must be quoted; otherwise check the indentation of this line",
    "found character '\\t' that cannot start any token": "YAML indents with spaces, not tabs",
    "could not find expected ':'": "a key must be followed by `: ` and its value",
    "found unexpected end of stream": "a quote or bracket is not closed",
    "did not find expected key": "check the indentation: entries of one mapping line up",
    "did not find expected '-' indicator": "check the indentation: items of one list line up",
    "expected <block end>": "check the indentation: this line does not line up with the ones above",
    "character U+": "write control characters as escapes inside double quotes (\"\\t\")",
    "found unknown escape character": "in double quotes write a backslash as `\\\\`, or use single quotes",
}


def yaml_diagnostic(exc: yaml.YAMLError, text: str, path: str) -> Diagnostic:
    """A located ``E-YAML`` diagnostic from a PyYAML error (problem mark, else reader position)."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    if mark is not None:
        where = Pos(path, mark.line + 1, mark.column + 1)
    else:
        offset = exc.position if isinstance(exc, ReaderError) else None
        if isinstance(offset, int) and 0 <= offset <= len(text):
            line = text.count("\n", 0, offset) + 1
            where = Pos(path, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)
        else:
            where = Pos(path, 1, 1)
    problem = getattr(exc, "problem", None)
    if problem is None and isinstance(exc, ReaderError):
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        problem = f"character U+{char:04X} is not allowed in YAML text"
    problem = problem or str(exc).splitlines()[0]
    hint = next((h for p, h in _HINTS.items() if problem.startswith(p)), "")
    context = getattr(exc, "context", None)
    ctx_mark = getattr(exc, "context_mark", None)
    if context and ctx_mark is not None and ctx_mark is not mark:
        extra = f"{context} at line {ctx_mark.line + 1}, column {ctx_mark.column + 1}"
        hint = f"{hint}; {extra}" if hint else extra
    return Diagnostic("E-YAML", f"invalid YAML: {problem}", where, hint)
