"""What every part of the rulebook reads: the ruleset, the values in force, and how to say things.

Why one object: each section decides what to say from the same facts (the folded expression, the
player counts, whether a branch is switched off), and saying "off" the same way everywhere is what
makes a house rule's switched-off clause vanish from every section at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from ..expr.ast import E, Expr
from .document import Inline, cat, from_markup
from .fold import Folder
from .words import Words


@dataclass
class Base:
    """The game a ruleset is read against: its name, how it is written, and its parameters."""

    name: str
    label: str                       # how it was named: the `extends` value, or the name loaded
    params: dict
    overrides: dict = field(default_factory=dict)    # --set values not naming a parameter (dotted keys)


class Context:
    """The facts a section reads: ``rules`` (a loaded ``Rules``), its model and parameters, a
    ``Folder`` per player count and ``Words`` for the ruleset's names."""

    def __init__(self, rules: Any, base: Optional[Base] = None):
        self.rules = rules
        self.model = rules.model
        self.params = rules.params
        self.base = base
        p = self.model.players
        self.counts = tuple(range(p.min, p.max + 1))
        fixed = p.min if p.min == p.max else None
        plain = Folder(self.params, self.model.derived, fixed)
        off = frozenset(k for k, g in self.model.go_out.items() if plain.fold(g.when.ast) == E("const", (False,)))
        self.folder = Folder(self.params, self.model.derived, fixed, off)
        self._by_count = {n: Folder(self.params, self.model.derived, n, off) for n in self.counts}
        self.words = Words({k: z.per for k, z in self.model.zones.items()}, frozenset(self.model.derived),
                           frozenset(self.model.classes))

    # ------------------------------------------------------------------ folding

    def fold(self, x: Optional[Expr]) -> Optional[E]:
        return self.folder.expr(x)

    def off(self, x: Optional[Expr]) -> bool:
        """True when the parameters in force make a condition false: the clause is not in play."""
        e = self.fold(x)
        return e is not None and e.op == "const" and e.args[0] is False

    def on(self, x: Optional[Expr]) -> bool:
        """True when a condition always holds with these parameters."""
        e = self.fold(x)
        return e is not None and e.op == "const" and e.args[0] is True

    def const(self, x: Optional[Expr], default: Any = None) -> Any:
        e = self.fold(x)
        return e.args[0] if e is not None and e.op == "const" else default

    # ------------------------------------------------------------------ words

    def when(self, x: Expr) -> Inline:
        return self.words.condition(self.fold(x))

    def value(self, x: Expr) -> Inline:
        return self.words.value(self.fold(x))

    def by_players(self, x: Expr) -> Inline:
        """A count that may depend on the player count: one number, or one per range of counts."""
        values = {n: self._by_count[n].expr(x) for n in self.counts}
        if not all(e.op == "const" for e in values.values()):
            return self.value(x)
        groups: list = []
        for n in self.counts:
            v = values[n].args[0]
            if groups and groups[-1][2] == v:
                groups[-1][1] = n
            else:
                groups.append([n, n, v])
        if len(groups) == 1:
            return self.words.value(values[self.counts[0]])
        return cat(*(cat(" or " if i else "", str(v), f" ({_range(lo, hi)} players)")
                     for i, (lo, hi, v) in enumerate(groups)))

    @staticmethod
    def doc(text: str) -> Inline:
        return from_markup(text) if text else ()


def _range(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo} to {hi}"
