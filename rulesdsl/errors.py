"""Errors users see: located ruleset diagnostics, and illegal or malformed actions during play.

Every problem in a ruleset becomes a ``Diagnostic`` (``path:line:col: error[CODE]: message`` plus a hint).
Loading collects all of them and raises one ``RulesetError`` that carries the list, so a user sees every
mistake of a file in one run.  The error also carries the text of the files that load read
(``Sources``), so the command line can show each mistake's line with a caret under its column
(``Diagnostic.render``) without reading any file again.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Optional

from .source.tree import Pos, UNKNOWN

#: characters never printed as they are: C0 controls (line breaks and tabs included), DEL, C1
#: controls, bidirectional overrides and isolates, line and paragraph separators, invisible characters
#: that would hide in a quoted name (the soft hyphen, Hangul fillers, zero-width space, word joiner,
#: invisible operators, the byte-order mark, the Mongolian vowel separator, tag characters; the joiners
#: that shape scripts and emoji stay), and lone surrogates (which cannot even be encoded)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\xad\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u2028-\u202e"
                     "\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0\ud800-\udfff\U000e0000-\U000e007f]")


def _escape_char(m: "re.Match[str]") -> str:
    o = ord(m.group())
    return f"\\x{o:02x}" if o <= 0xFF else f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}"


def printable(text: object) -> str:
    """``text`` safe to print on a terminal or hand to a client: every control character (and bidi
    override, separator, lone surrogate) written as a visible escape (ESC is ``\\x1b``).  Everything a
    user sees from rulesdsl passes through here: diagnostics (text and JSON), refused actions, rule
    failures, the command line's echo of its arguments."""
    s = text if type(text) is str else str(text)
    return _UNSAFE.sub(_escape_char, s) if _UNSAFE.search(s) else s


#: how much of a user's own input a message quotes back
ECHO_LIMIT = 80


def excerpt(text: object, limit: int = ECHO_LIMIT) -> str:
    """``printable(text)`` cut to ``limit`` characters with an ellipsis: how messages quote input."""
    s = printable(text)
    return s if len(s) <= limit else s[:max(limit - 3, 1)] + "..."


#: how much of a line in a base file reached through ``extends`` (not named by the user) is quoted
BASE_QUOTE_LIMIT = 40
#: the widest source line an excerpt shows (display cells); a longer one is cut around the column
EXCERPT_WIDTH = 100
#: line breaks as YAML counts them (the DSL's parser counts ``\n`` only)
_YAML_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


class Sources:
    """The text of the files one load read, keyed by the path its diagnostics show, for excerpts.

    Kept from the load itself, so formatting never reads a file again (it may have changed, or not be
    the user's to show).  A file the user did not name (a base reached through ``extends``) is quoted
    at most ``BASE_QUOTE_LIMIT`` characters of a line, as its diagnostics' quotes are."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}
        self._limits: dict[str, int] = {}
        self._shifts: dict[str, int] = {}

    def add(self, path: str, text: str, *, dsl: bool = False, limit: Optional[int] = None, shift: int = 0) -> None:
        """Keep ``text`` for ``path``; ``limit`` cuts what a line may show, ``shift`` is how many
        characters of the text come before column 1 (a ``--set`` pseudo-path: the text is
        ``--set KEY=VALUE``, its columns count from ``KEY``)."""
        self._lines[path] = text.split("\n") if dsl else _YAML_BREAKS.split(text)
        if limit is not None:
            self._limits[path] = limit
        if shift:
            self._shifts[path] = shift

    def update(self, other: "Sources", limit: Optional[int] = None) -> None:
        """Take ``other``'s files (each cut to ``limit``, when given)."""
        for path, lines in other._lines.items():
            self._lines[path] = lines
            cuts = [x for x in (other._limits.get(path), limit) if x is not None]
            if cuts:
                self._limits[path] = min(cuts)
            if path in other._shifts:
                self._shifts[path] = other._shifts[path]

    def line(self, pos: Pos) -> Optional[tuple[str, int, int]]:
        """(line text, 0-based index of the column in it, width limit) of ``pos``, or None."""
        lines = self._lines.get(pos.path)
        if lines is None or not 1 <= pos.line <= len(lines) or pos.col < 1:
            return None
        text = lines[pos.line - 1].rstrip("\r")
        return text, pos.col - 1 + self._shifts.get(pos.path, 0), self._limits.get(pos.path, EXCERPT_WIDTH)

    def __contains__(self, path: str) -> bool:
        return path in self._lines

    def __iter__(self):
        """The paths held."""
        return iter(self._lines)


def _cells(ch: str) -> int:
    """Display cells of one (printable) character: 2 for wide East Asian ones, 0 for combining marks
    and format characters."""
    if unicodedata.combining(ch) or unicodedata.category(ch) == "Cf":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _segments(text: str) -> list[tuple[str, int]]:
    """Each character of a source line as (what is shown, its display cells): tabs expanded to the
    next multiple of 8, control characters escaped (``printable``)."""
    out: list[tuple[str, int]] = []
    at = 0
    for ch in text:
        shown = " " * (8 - at % 8) if ch == "\t" else printable(ch)
        width = len(shown) if shown != ch else _cells(ch)
        out.append((shown, width))
        at += width
    return out


def _window(segs: list[tuple[str, int]], index: int, limit: int) -> tuple[int, int]:
    """The characters [start, end) of a line to show: at most ``limit`` cells, holding ``index``,
    about half of them before it."""
    n = len(segs)
    start, end = min(index, n), min(index + 1, n)
    used = sum(w for _, w in segs[start:end])
    while start > 0 and used + segs[start - 1][1] <= limit // 2:
        start -= 1
        used += segs[start][1]
    while end < n and used + segs[end][1] <= limit:
        used += segs[end][1]
        end += 1
    while start > 0 and used + segs[start - 1][1] <= limit:
        start -= 1
        used += segs[start][1]
    return start, end


def source_excerpt(text: str, index: int, limit: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """A source line as shown under a diagnostic, and the display cell of character ``index`` in it
    (where the caret goes): printable, tabs expanded, cut around ``index`` when longer than
    ``limit`` cells (``...`` marks a cut)."""
    segs = _segments(text)
    index = max(0, min(index, len(segs)))
    start, end = _window(segs, index, limit)
    head = "..." if start > 0 else ""
    shown = head + "".join(s for s, _ in segs[start:end]) + ("..." if end < len(segs) else "")
    return shown, len(head) + sum(w for _, w in segs[start:index])


@dataclass(frozen=True)
class Diagnostic:
    """One located problem in a ruleset."""

    code: str
    message: str
    pos: Pos = UNKNOWN
    hint: str = ""
    severity: str = "error"

    def format(self) -> str:
        text = f"{printable(self.pos)}: {self.severity}[{self.code}]: {printable(self.message)}"
        if self.hint:
            text += f"\n  hint: {printable(self.hint)}"
        return text

    def render(self, sources: Optional[Sources] = None, color: bool = False) -> str:
        """``format()`` with the source line under the first line and a caret under the column (when
        ``sources`` holds the file), in colour when ``color`` (ANSI codes for a terminal)."""
        paint = _painter(color)
        head = (paint(f"{printable(self.pos)}:", bold=True) + " "
                + paint(f"{self.severity}[{self.code}]:", fg="red", bold=True) + " "
                + paint(printable(self.message), bold=True))
        lines = [head] + self._excerpt(sources, paint)
        if self.hint:
            lines.append("  " + paint("hint:", fg="cyan", bold=True) + f" {printable(self.hint)}")
        return "\n".join(lines)

    def _excerpt(self, sources: Optional[Sources], paint) -> list[str]:
        """The gutter lines: the line number, the source line, a caret under the column."""
        found = sources.line(self.pos) if sources is not None else None
        if found is None:
            return []
        text, index, limit = found
        shown, caret = source_excerpt(text, index, limit)
        number = str(self.pos.line)
        bar = paint(" " * len(number) + " |", fg="blue", bold=True)
        return [bar, paint(f"{number} |", fg="blue", bold=True) + (" " + shown if shown else ""),
                bar + " " + " " * caret + paint("^", fg="red", bold=True)]

    def as_dict(self) -> dict:
        """The diagnostic as JSON-ready data; texts are ``printable`` (a client printing them is safe)."""
        return {"path": printable(self.pos.path), "line": self.pos.line, "col": self.pos.col,
                "severity": self.severity, "code": self.code, "message": printable(self.message),
                "hint": printable(self.hint)}

    def __str__(self) -> str:
        return self.format()


class RulesdslError(Exception):
    """Base of every error rulesdsl raises on purpose."""


def _painter(color: bool):
    """``paint(text, **style)``: ``click.style`` when colouring, else the text as it is."""
    if not color:
        return lambda text, **style: text
    import click
    return click.style


class RulesetError(RulesdslError):
    """A ruleset could not be loaded; ``diagnostics`` lists every problem found, and ``sources`` the
    text of the files read (for ``Diagnostic.render``), when known."""

    def __init__(self, diagnostics: Iterable[Diagnostic], sources: Optional[Sources] = None):
        self.diagnostics = list(diagnostics)
        self.sources = sources
        super().__init__("\n".join(d.format() for d in self.diagnostics) or "invalid ruleset")


class IllegalAction(RulesdslError):
    """An action that the rules forbid now (or that does not parse).  The game is unchanged.

    ``rule`` names the rule that forbids it and ``pos`` where that rule is written, when known.
    ``trace``, when a condition of the ruleset refuses the action, says why that condition is false
    (an ``expr.explain.Trace``: its parts with their values); ``explain()`` gives it as text.
    """

    def __init__(self, message: str, rule: str = "", pos: Optional[Pos] = None, trace=None):
        self.rule = rule
        self.pos = pos
        self.trace = trace
        self.headline = printable(message)
        self.detail = self.headline + (": " + trace.text if trace is not None else "")
        super().__init__(self.detail + printable(self.where()))

    def where(self) -> str:
        """`` [rule at path:line:col]``, or ``""`` when no rule is named."""
        pos = self.pos
        return f" [{self.rule}" + (f" at {pos}" if pos and pos.line else "") + "]" if self.rule else ""

    def explain(self) -> str:
        """Why the action is refused, for a person: the message, then the rule with where it is written
        and, when a condition refused it, that condition's parts with their values, one per line."""
        out = [self.headline]
        if self.rule:
            out.append("rule: " + printable(self.rule + (f" at {self.pos}" if self.pos and self.pos.line else "")))
        if self.trace is not None:
            out.append("why:")
            out.extend("  " + line for line in self.trace.lines())
        return "\n".join(out)


class RuleEvaluationError(RulesdslError):
    """A rule's expression failed while playing (e.g. it compared a number with text), or play reached
    a position the ruleset leaves no way out of (a deal that needs more cards than the stock holds, a
    player on turn with no legal action).

    Static checks catch most such mistakes at load; this is the last line, so a bad ruleset never
    surfaces as a raw Python error.  The game cannot continue after it.

    ``rule`` is the key path of the rule that failed (``turn[draw].take.when``, ``scoring.each_team``,
    ``match.next_dealer``), ``pos`` where it is written (a ``Pos``; ``str(pos)`` is ``path:line:col``),
    ``seat`` the seat that was acting and ``step`` the turn step (or the phase: ``deal``, ``climb``,
    ``exchange``, ...) at the time; each is ``""``/``None`` when unknown.  ``detail`` is the message
    without the location."""

    def __init__(self, message: str, rule: str = "", pos: Optional[Pos] = None, seat: Optional[int] = None,
                 step: Optional[str] = None):
        self.detail = message
        self.rule = rule
        self.pos = pos
        self.seat = seat
        self.step = step
        super().__init__(message)

    def located(self, seat: Optional[int], step: Optional[str], doing: str = "") -> "RuleEvaluationError":
        """This error with the seat and step filled in where unknown (and what the game was doing)."""
        detail = self.detail
        if doing and " while " not in detail:
            detail = f"{detail} (while {doing})"
        return RuleEvaluationError(detail, self.rule, self.pos, self.seat if self.seat is not None else seat,
                                   self.step if self.step is not None else step)

    def __str__(self) -> str:
        where = f"{self.pos}: " if self.pos is not None and self.pos.line else ""
        ctx = []
        if self.rule:
            ctx.append(f"rule `{self.rule}`")
        if self.seat is not None:
            ctx.append(f"seat {self.seat}")
        if self.step:
            ctx.append(f"step `{self.step}`")
        return printable(f"{where}error[E-PLAY]: " + (f"{', '.join(ctx)}: " if ctx else "") + self.detail)


class ShadowedFileWarning(UserWarning):
    """A bare ruleset name (no extension, no ``./``) meant a bundled ruleset while a local file has the
    same name.  The bundled ruleset was used; the message says how to name the local file instead.

    ``name`` is the name as written, ``bundled`` the bundled file used, ``local`` the local file as a
    path (``./NAME.rules``), ``extends_from`` the file whose ``extends`` wrote the name (else None)."""

    def __init__(self, name: str, bundled: str, local: str, extends_from: Optional[str] = None):
        self.name, self.bundled, self.local, self.extends_from = name, bundled, local, extends_from
        what = "bundled variant" if "variants/" in bundled.replace("\\", "/") else "bundled game"
        if extends_from:
            text = (f"{extends_from}: `extends: {name}` means the {what} ({bundled}), not the file "
                    f"{local} beside it; to extend that file, write `extends: {local}`")
        else:
            text = (f"`{name}` means the {what} ({bundled}), not the local file {local}; to use the "
                    f"local file, write {local}")
        super().__init__(printable(text))


class Diagnostics:
    """A collector: layers append problems here and keep going, so all are reported at once."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self._seen: set = set()

    def error(self, code: str, message: str, pos: Pos = UNKNOWN, hint: str = "") -> None:
        """Record a problem once: an expression compiled twice (a derived value, once for itself and
        once where a rule uses it) reports its mistake once."""
        d = Diagnostic(code, message, pos, hint)
        key = (code, message, str(pos))
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(d)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise RulesetError(self.items)


def suggest(word: str, choices: Iterable[str]) -> str:
    """A "did you mean ...?" hint for an unknown name, or an empty string."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""
