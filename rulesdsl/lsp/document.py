"""One open document, checked: the diagnostics ``rulesdsl validate`` would print for its current text,
and the resolved tree (this file over its ``extends`` chain) the other features read names from.

The text is checked as the editor holds it (``rulesdsl.load(path, text=...)``), so ``extends``
resolves and is confined from the file's folder exactly as on the command line.  No pygls here.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from ..errors import Diagnostic, Diagnostics, RulesetError, ShadowedFileWarning
from ..rules import load
from ..source.resolve import display_path, load_tree
from ..source.tree import Map, Node, Pos

_EXTENDS = re.compile(r"^extends\s*[:=]\s*", re.M)


@dataclass
class Analysis:
    """What one check of a document found.  ``tree`` is the resolved source tree (None when even the
    source layer refused the text: a syntax error, a missing base); ``files`` maps each file's shown
    path (as diagnostics and positions name it) to the file itself."""

    path: Path
    text: str
    diagnostics: list = field(default_factory=list)
    tree: Optional[Map] = None
    files: dict = field(default_factory=dict)

    @property
    def dsl(self) -> bool:
        return self.path.suffix == ".rules"

    @property
    def shown(self) -> str:
        return display_path(self.path)

    def file_of(self, pos: Pos) -> Optional[Path]:
        """The file a position is in (this document, or a base file), or None (``--set``, unknown)."""
        return self.path if pos.path == self.shown else self.files.get(pos.path)

    def extends_pos(self) -> Pos:
        """Where this document writes ``extends`` (its value), else its first line: where problems
        found in a base file are shown."""
        m = _EXTENDS.search(self.text)
        if m is None:
            return Pos(self.shown, 1, 1)
        line = self.text.count("\n", 0, m.start()) + 1
        return Pos(self.shown, line, m.end() - m.start() + 1)

    def section(self, key: str) -> Optional[Node]:
        return self.tree.get(key) if isinstance(self.tree, Map) else None


def analyse(path: Path, text: str, allow_paths: Sequence[str] = (),
            previous: Optional[Analysis] = None) -> Analysis:
    """Check ``text`` as the content of ``path``.  When the text no longer resolves (half typed), the
    names of ``previous`` (the last check that did) are kept for completion and hover."""
    out = Analysis(path, text)
    files: list[Path] = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ShadowedFileWarning)
            tree, _ = load_tree(str(path), diags=Diagnostics(), files=files, allow_paths=allow_paths, text=text)
        out.tree = tree if isinstance(tree, Map) else None
    except RulesetError:
        pass
    out.files = {display_path(f): f for f in files[1:]}
    if out.tree is None and previous is not None:
        out.tree, out.files = previous.tree, previous.files
    out.diagnostics = check(path, text, allow_paths)
    return out


def check(path: Path, text: str, allow_paths: Sequence[str] = ()) -> list[Diagnostic]:
    """Every problem ``rulesdsl validate`` reports for this text, and a warning for each bundled name
    that shadows a local file."""
    found: list[Diagnostic] = []
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always", ShadowedFileWarning)
        try:
            load(str(path), text=text, allow_paths=allow_paths)
        except RulesetError as exc:
            found = list(exc.diagnostics)
        except Exception as exc:  # noqa: BLE001 -- a checker bug must not silence the editor
            found = [Diagnostic("E-INTERNAL", f"internal error: {type(exc).__name__}: {exc} (please report "
                                "this)", Pos(display_path(path), 1, 1))]
    notes = [Diagnostic("W-SHADOWED", str(w.message), Pos(display_path(path), 0, 0), severity="warning")
             for w in log if isinstance(w.message, ShadowedFileWarning)]
    return found + notes
