"""The source layer: text (YAML or the ``.rules`` DSL) -> one raw tree (``tree.Node``), and back.

``yaml_reader.read_yaml`` and ``dsl_reader.read_dsl`` read; ``writer.to_yaml`` / ``writer.to_dsl`` write.
Submodules are imported by their users, so importing this package stays cheap (no Lark, no PyYAML).

The limits below exist because a ruleset may come from anyone: a file too large or nested too deeply
must fail with a located error, not exhaust memory or the Python stack further down the pipeline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from ..errors import Diagnostic

MAX_TEXT_CHARS = 1_000_000   # characters of source text per file
MAX_DEPTH = 64               # nested mappings / lists (and brackets inside expressions)


def size_problem(text: str, path: str) -> Optional["Diagnostic"]:
    """A diagnostic if ``text`` is over the size bound, else None (shared by both readers)."""
    if len(text) <= MAX_TEXT_CHARS:
        return None
    from ..errors import Diagnostic
    from .tree import Pos

    return Diagnostic("E-TOO-BIG", f"file is too large ({len(text)} characters; the limit is "
                      f"{MAX_TEXT_CHARS})", Pos(path, 1, 1), "split the ruleset, or use `extends`")
