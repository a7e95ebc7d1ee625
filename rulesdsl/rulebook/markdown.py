"""The rulebook as Markdown (GitHub's flavour): headings, paragraphs, lists, pipe tables.

Why escaping lives here alone: words from a ruleset (names, ``doc:`` text) may hold any character;
each is written so that it shows as itself, never as markup.
"""

from __future__ import annotations

import re

from .document import Bullets, Code, Document, Para, Section, Table

_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def words(text: str) -> str:
    """Plain words: Markdown's special characters escaped, line breaks folded to spaces."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split("\n")))


def code(text: str) -> str:
    """A code span that holds any text: the fence is longer than any run of backticks inside."""
    text = " ".join(text.split())
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def inline(pieces: tuple, in_table: bool = False) -> str:
    out = "".join(code(p.text) if isinstance(p, Code) else words(p) for p in pieces)
    return out.replace("|", "\\|") if in_table else out


def render(doc: Document) -> str:
    lines = [f"# {words(doc.title)}", ""]
    for b in doc.intro:
        lines += _block(b, 2)
    for s in doc.sections:
        lines += _block(s, 2)
    return "\n".join(lines).rstrip("\n") + "\n"


def _block(b, level: int) -> list:
    if isinstance(b, Section):
        out = ["#" * min(level, 6) + " " + words(b.title), ""]
        for x in b.blocks:
            out += _block(x, level + 1)
        return out
    if isinstance(b, Para):
        return [inline(b.text), ""] if b.text else []
    if isinstance(b, Bullets):
        return _list(b, 0) + [""]
    if isinstance(b, Table):
        return _table(b) + [""]
    raise TypeError(type(b).__name__)


def _list(b: Bullets, depth: int) -> list:
    out = []
    for i, item in enumerate(b.items):
        mark = f"{i + 1}." if b.ordered else "-"
        out.append("   " * depth + f"{mark} {inline(item.text)}")
        if item.sub:
            out += _list(Bullets(item.sub), depth + 1)
    return out


def _table(t: Table) -> list:
    head = "| " + " | ".join(words(h) for h in t.header) + " |"
    rule = "|" + "|".join("---" for _ in t.header) + "|"
    rows = ["| " + " | ".join(inline(c, True) for c in row) + " |" for row in t.rows]
    return [head, rule] + rows



