"""The building blocks every section's schema is made of, shared by the core model (``model.game``)
and the mechanic modules (``rulesdsl.mechanics``): one place, so a mechanic's section reads like the
core's own."""

from __future__ import annotations

from typing import Any, Optional

from ..expr.ast import Expr
from .schema import Field, ListOf, Str


def const_expr(value: Any) -> Expr:
    """An expression that is this value (a key's default written as a rule would be)."""
    from ..expr.ast import E
    return Expr(E("const", (value,)), str(value))


def make(cls, rename: Optional[dict] = None):
    """The ``Struct`` builder that makes a ``cls`` from the built keys (``rename``: key -> field name,
    for keys that are Python words such as ``as`` or ``class``)."""
    rename = rename or {}

    def build(**kw):
        return cls(**{rename.get(k, k): v for k, v in kw.items()})
    build.model = cls          # type: ignore[attr-defined]  # its docstring describes the section to editors
    return build


#: rank names, lowest first
RANK_LIST = ListOf(Str(), min_len=1)

#: `doc:` on a section, step, meld type, zone, go-out...: text for readers, shown by `rulesdsl rulebook`
DOC = Field(Str(), default="", doc="text for readers, shown in the rulebook; no rule reads it")
