"""The rulebook as a small document model: sections of paragraphs, lists and tables.

Why a model between the ruleset and the output: what the rulebook says is decided once, and the
Markdown and HTML writers only decide how it looks; neither writer knows anything of rules, and each
escapes text in one place.

Inline text is a tuple of pieces: ``str`` (words) or ``Code`` (a formula or a name, shown as code).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Union


@dataclass(frozen=True)
class Code:
    """A formula or a name, shown verbatim in code type."""

    text: str


Piece = Union[str, Code]
Inline = tuple


def cat(*parts) -> Inline:
    """Inline text from words, ``Code`` and other inline texts; adjacent words are merged."""
    out: list = []
    for p in parts:
        for x in (p if isinstance(p, tuple) else (p,)):
            if isinstance(x, str) and out and isinstance(out[-1], str):
                out[-1] += x
            elif x != "":
                out.append(x)
    return tuple(out)


def join(items: Iterable[Inline], sep: str = ", ", last: str = " and ") -> Inline:
    """``a, b and c``."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return cat(*items)
    parts: list = []
    for i, item in enumerate(items):
        if i:
            parts.append(last if i == len(items) - 1 else sep)
        parts.append(item)
    return cat(*parts)


def from_markup(text: str) -> Inline:
    """An author's ``doc:`` text: words, with `backticks` around code.  A lone backtick is a word."""
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return (text,) if text else ()
    return cat(*(Code(p) if i % 2 else p for i, p in enumerate(parts)))


def plain(inline: Inline) -> str:
    """The inline text without markup (for tests and titles)."""
    return "".join(p.text if isinstance(p, Code) else p for p in inline)


def sentence(inline: Inline) -> Inline:
    """Capitalised and ended with a full stop."""
    inline = cat(inline)
    if not inline:
        return inline
    first = inline[0]
    if isinstance(first, str) and first:
        inline = (first[0].upper() + first[1:],) + inline[1:]
    last = inline[-1]
    if isinstance(last, str) and last.rstrip().endswith((".", "!", "?", ":")):
        return inline
    return cat(inline, ".")


@dataclass(frozen=True)
class Para:
    text: Inline


@dataclass(frozen=True)
class Item:
    """One list item: its text, and an optional nested list."""

    text: Inline
    sub: tuple = ()


@dataclass(frozen=True)
class Bullets:
    items: tuple
    ordered: bool = False


@dataclass(frozen=True)
class Table:
    header: tuple           # column titles (plain words)
    rows: tuple             # tuples of Inline


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple = ()
    anchor: str = ""


@dataclass(frozen=True)
class Document:
    title: str
    intro: tuple = ()                 # blocks before the first section
    sections: tuple = field(default=())


Block = Union[Para, Bullets, Table, Section]


def bullets(items: Iterable, ordered: bool = False) -> Bullets:
    """A list from inline texts or ``Item``s (empty ones are left out)."""
    return Bullets(tuple(i if isinstance(i, Item) else Item(i) for i in items if i), ordered)
