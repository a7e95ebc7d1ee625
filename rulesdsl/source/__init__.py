"""The source layer: text (YAML or the ``.rules`` DSL) -> one raw tree (``tree.Node``), and back.

``yaml_reader.read_yaml`` and ``dsl_reader.read_dsl`` read; ``writer.to_yaml`` / ``writer.to_dsl`` write.
Submodules are imported by their users, so importing this package stays cheap (no Lark, no PyYAML).

The limits below exist because a ruleset may come from anyone: a file too large or nested too deeply
must fail with a located error, not exhaust memory or the Python stack further down the pipeline
(``read_limited`` checks a file's size before reading it; the expression limits are enforced by the
expression parser and compiler).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ..errors import Diagnostic

MAX_TEXT_CHARS = 256_000     # characters of source text per file (a bundled game is about 15,000)
MAX_DEPTH = 64               # nested mappings / lists (and brackets inside expressions)
MAX_EXPR_CHARS = 10_000      # characters of one expression
MAX_NUMBER = 10 ** 15        # a number written in a ruleset, or folded from constants, is within +-this


MAX_FILE_BYTES = 4 * MAX_TEXT_CHARS   # UTF-8 takes at most 4 bytes a character


def read_limited(path: "os.PathLike[str] | str", shown: str) -> str:
    """The UTF-8 text of a ruleset file, never reading more than ``MAX_FILE_BYTES + 1`` bytes: a file
    over the bound is refused (``E-TOO-BIG``, a ``RulesetError``) before it is decoded, whatever its
    size.  ``OSError`` and ``UnicodeDecodeError`` pass through to the caller."""
    with open(path, "rb") as f:
        try:
            size = os.fstat(f.fileno()).st_size
        except OSError:
            size = 0
        data = f.read(MAX_FILE_BYTES + 1) if size <= MAX_FILE_BYTES else b""
    if size > MAX_FILE_BYTES or len(data) > MAX_FILE_BYTES:
        from ..errors import Diagnostic, RulesetError
        from .tree import Pos

        shown_size = f"{size:,} bytes" if size > MAX_FILE_BYTES else f"more than {MAX_FILE_BYTES:,} bytes"
        raise RulesetError([Diagnostic("E-TOO-BIG", f"file is too large ({shown_size}; the limit is "
                                       f"{MAX_TEXT_CHARS:,} characters)", Pos(shown, 1, 1),
                                       "split the ruleset, or use `extends`")])
    return data.decode("utf-8")


def size_problem(text: str, path: str) -> Optional["Diagnostic"]:
    """A diagnostic if ``text`` is over the size bound, else None (shared by both readers)."""
    if len(text) <= MAX_TEXT_CHARS:
        return None
    from ..errors import Diagnostic
    from .tree import Pos

    return Diagnostic("E-TOO-BIG", f"file is too large ({len(text):,} characters; the limit is "
                      f"{MAX_TEXT_CHARS:,})", Pos(path, 1, 1), "split the ruleset, or use `extends`")
