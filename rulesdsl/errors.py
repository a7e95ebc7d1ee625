"""Errors users see: located ruleset diagnostics, and illegal or malformed actions during play.

Every problem in a ruleset becomes a ``Diagnostic`` (``path:line:col: error[CODE]: message`` plus a hint).
Loading collects all of them and raises one ``RulesetError`` that carries the list, so a user sees every
mistake of a file in one run.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Iterable, Optional

from .source.tree import Pos, UNKNOWN

#: characters never printed as they are: C0 controls (line breaks and tabs included), DEL, C1
#: controls, bidirectional overrides and isolates, line and paragraph separators, and lone surrogates
#: (which cannot even be encoded)
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape_char(m: "re.Match[str]") -> str:
    o = ord(m.group())
    return f"\\x{o:02x}" if o <= 0xFF else f"\\u{o:04x}"


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

    def as_dict(self) -> dict:
        """The diagnostic as JSON-ready data; texts are ``printable`` (a client printing them is safe)."""
        return {"path": printable(self.pos.path), "line": self.pos.line, "col": self.pos.col,
                "severity": self.severity, "code": self.code, "message": printable(self.message),
                "hint": printable(self.hint)}

    def __str__(self) -> str:
        return self.format()


class RulesdslError(Exception):
    """Base of every error rulesdsl raises on purpose."""


class RulesetError(RulesdslError):
    """A ruleset could not be loaded; ``diagnostics`` lists every problem found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
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
