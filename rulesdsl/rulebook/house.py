"""The parameters in force, the house rules against the base game, and the terms the rules use.

Why house rules compare resolved parameters: a variant may set a value equal to the base's, and a
``--set`` may change a game with no variant file at all; what matters to players is which values
differ from the game they know.
"""

from __future__ import annotations

from typing import Any

from ..expr.ast import FunctionExpr
from .context import Context
from .document import Code, Para, Section, Table, bullets, cat, join, sentence


def show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def house_rules(ctx: Context) -> Section:
    base = ctx.base
    if base is None:
        return Section("House rules", (Para(sentence(cat("These are the rules of ", ctx.model.name,
                                                         " as written, with no house rules"))),))
    rows = []
    for name, p in ctx.model.params.items():
        here = ctx.params[name]
        if name not in base.params:
            rows.append(((Code(name),), (Code(show(here)),), ("(new)",), ctx.doc(p.doc)))
        elif base.params[name] != here:
            rows.append(((Code(name),), (Code(show(here)),), (Code(show(base.params[name])),), ctx.doc(p.doc)))
    for key, value in base.overrides.items():
        rows.append(((Code(key),), (Code(show(value)),), ("",), ()))
    intro = sentence(cat("Base game: ", base.name, " (", Code(base.label), ")"))
    if not rows:
        return Section("House rules", (Para(intro), Para(("No parameter differs from the base game.",))))
    return Section("House rules", (Para(intro), Para(("These values differ from the base game:",)),
                                   Table(("parameter", "here", "in the base game", "meaning"), tuple(rows))))


def parameters(ctx: Context) -> Section:
    rows = []
    for name, p in ctx.model.params.items():
        options = join(((Code(show(c)),) for c in p.choices), last=" or ") if p.choices else ()
        choices = cat(" (one of " if p.doc else "one of ", options, ")" if p.doc else "") if options else ()
        rows.append(((Code(name),), (Code(show(ctx.params[name])),), cat(ctx.doc(p.doc), choices)))
    return Section("Parameters in force", (
        Para(("Every number and switch the rules above use, as set for this game:",)),
        Table(("parameter", "value", "meaning"), tuple(rows))))


def terms(ctx: Context) -> Section:
    """Derived values the parameters do not decide, and derived functions, each in words or as a formula."""
    items = []
    for name, x in ctx.model.derived.items():
        if isinstance(x, FunctionExpr):
            items.append(cat(Code(x.heading), " is ", ctx.words.value(ctx.folder.fold(x.ast, frozenset(x.params)))))
            continue
        folded = ctx.folder.derived_value(name)
        if folded.op != "const":
            items.append(cat(Code(name), " is ", ctx.words.value(folded)))
    if not items:
        return Section("Terms", ())
    return Section("Terms", (Para(("Names the rules above use:",)), bullets(sentence(i) for i in items)))
