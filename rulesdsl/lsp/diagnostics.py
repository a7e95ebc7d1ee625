"""A checked document's problems as LSP diagnostics: each at its line and column, to the end of the
token there; problems found in a base file (or with no place) shown at this file's ``extends``."""

from __future__ import annotations

import re

from lsprotocol import types

from ..errors import Diagnostic, printable
from .document import Analysis

_TOKEN = re.compile(r'''"(?:\\.|[^"\\])*"|'[^']*'|[\w.\-]+''')


def lsp_range(text: str, line: int, col: int) -> types.Range:
    """The range of the token starting at 1-based (``line``, ``col``) of ``text`` (one character if
    none starts there; the line's start for an unknown position)."""
    lines = text.split("\n")
    if line < 1 or line > len(lines):
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    row, start = line - 1, max(col - 1, 0)
    m = _TOKEN.match(lines[row], start)
    end = m.end() if m else min(start + 1, len(lines[row]))
    return types.Range(types.Position(row, start), types.Position(row, max(end, start)))


def to_lsp(analysis: Analysis) -> list[types.Diagnostic]:
    return [_one(analysis, d) for d in analysis.diagnostics]


def _one(analysis: Analysis, d: Diagnostic) -> types.Diagnostic:
    message = printable(d.message) + (f"\nhint: {printable(d.hint)}" if d.hint else "")
    pos = d.pos
    if pos.path != analysis.shown or pos.line < 1:
        if pos.line >= 1:
            message = f"{printable(pos)}: {message}"
        pos = analysis.extends_pos()
    severity = types.DiagnosticSeverity.Warning if d.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(range=lsp_range(analysis.text, pos.line, pos.col), message=message,
                            severity=severity, code=d.code, source="rulesdsl")
