"""Hover: a key's documentation (from the model's schema), a builtin's, a parameter's value and doc,
a zone's or a derived value's definition."""

from __future__ import annotations

from typing import Optional

from . import names
from .cursor import context, word_at
from .document import Analysis
from .keys import choices_at, describe_key


def hover_text(a: Analysis, line: int, char: int) -> Optional[tuple[str, int, int]]:
    """Markdown for what is under the cursor, with the word's start and end on the line, or None."""
    text = a.text.split("\n")[line] if line < len(a.text.split("\n")) else ""
    word, start, end = word_at(text, char)
    if not word:
        return None
    ctx = context(a.text, line, start, a.dsl)
    found = _on_key(a, ctx.path, word) if ctx.mode == "key" else _in_value(a, ctx.path, word, text[end:])
    return (found, start, end) if found else None


def _on_key(a: Analysis, path: tuple, word: str) -> Optional[str]:
    if path == ("params",):
        return names.param_text(a, word) or describe_key(path + (word,))
    if path == ("zones",):
        return names.zone_text(a, word)
    if path == ("derived",):
        return _derived_text(a, word.split("(")[0])
    return describe_key(path + (word,))


def _in_value(a: Analysis, path: tuple, word: str, after: str) -> Optional[str]:
    if path == ("extends",) and a.files:
        return f"**base**: `{next(iter(a.files))}`"
    if word.startswith("params."):
        return names.param_text(a, word.split(".")[1])
    if after.lstrip().startswith("(") and word in names.builtins():
        return names.builtins()[word]
    found = (names.zone_text(a, word) or _derived_text(a, word) or
             (f"`{word}`: {names.state_names()[word]}" if word in names.state_names() else None))
    if found:
        return found
    if word in names.builtins():
        return names.builtins()[word]
    if word in choices_at(path):
        return describe_key(path)
    return None


def _derived_text(a: Analysis, name: str) -> Optional[str]:
    entry = names.derived(a).get(name)
    if entry is None:
        return None
    heading, body = entry
    return f"**derived `{heading}`** = `{body.plain()}`"
