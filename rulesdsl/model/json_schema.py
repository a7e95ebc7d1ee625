"""The JSON Schema (draft 2020-12) of the YAML syntax, derived from the model's own schema objects.

Editors (yaml-language-server, VS Code's YAML extension) complete keys, show field docs on hover and
underline mistakes with it, before ``rulesdsl validate`` runs.  It is generated, never written by
hand: every ``Type`` in ``model.schema`` and ``model.game`` says what it accepts (``json_schema``), so
a field added to the model appears here by itself.  It checks structure only (keys, kinds, choices,
ranges); expressions, names and everything the checker knows stay ``rulesdsl validate``'s job.

A file with ``extends`` gives only what differs from its base, and mappings merge key by key, so
such a file is checked against a "partial" form of every section reached through mappings: no key is
required there.  A list replaces its base's list whole, so a list's items are complete either way.

The schema is draft 2020-12, or draft-07 on request: yaml-language-server (VS Code's YAML extension)
implements draft-07 and warns that 2020-12 is "not yet fully supported".  The two differ here only in
the ``$schema`` line, where definitions live and how a fixed-length list ([role, points]) is written.
"""

from __future__ import annotations

import inspect
import re
from typing import Any, Callable

from ..mechanics.registry import load_installed
from .game import RULESET, SOURCE_FIELDS
from .schema import Field, Struct, Type

DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: the drafts ``ruleset_schema`` writes: their ``$schema`` and where named definitions live
DRAFTS = {"2020-12": (DIALECT, "$defs"), "07": ("http://json-schema.org/draft-07/schema#", "definitions")}


class Generator:
    """Renders types into fragments, collecting named definitions (``$defs``) as it goes.

    ``partial`` is true while rendering what a file with ``extends`` may write (see the module
    docstring); ``of`` keeps the mode, ``complete`` renders a type outside it."""

    def __init__(self, draft: str = "2020-12") -> None:
        self.draft = draft
        self.dialect, self.defs_key = DRAFTS[draft]
        self.defs: dict[str, dict] = {}
        self.partial = False
        self._struct_names: dict[int, str] = {}
        self._partial_refs: dict[int, dict] = {}

    def of(self, t: Type) -> dict:
        return t.json_schema(self)

    def complete(self, t: Type) -> dict:
        """``t`` with every required key required: what replaces a base's value whole."""
        return self._in_mode(False, lambda: t.json_schema(self))

    def define(self, name: str, body: Callable[[], dict]) -> dict:
        """A reference to the definition ``name``, rendering ``body`` the first time."""
        key = _key(name)
        if key not in self.defs:
            self.defs[key] = {}                 # taken before rendering: a recursive type refers back
            self.defs[key] = body()
        return {"$ref": f"#/{self.defs_key}/{key}"}

    def tuple(self, items: list[dict]) -> dict:
        """A list of exactly these items, in this order."""
        keyword = "prefixItems" if self.draft == "2020-12" else "items"
        return {"type": "array", keyword: items, "minItems": len(items), "maxItems": len(items)}

    def expression(self) -> dict:
        return self.define("expression", lambda: {
            "description": "an expression: a literal (a number, true/false) or text in the expression "
                           "language (docs/language.md)",
            "type": ["string", "number", "boolean", "null"]})

    def struct(self, s: Struct) -> dict:
        """A section: one definition, and a partial one where that differs (keys required)."""
        name = self._name(s)
        full = self.define(name, lambda: self._in_mode(False, lambda: self._struct_body(s)))
        if not self.partial:
            return full
        if id(s) not in self._partial_refs:
            body = self._struct_body(s)
            self._partial_refs[id(s)] = full if body == self.defs[name] else \
                self.define(name + "_partial", lambda: body)
        return self._partial_refs[id(s)]

    def field(self, f: Field) -> dict:
        out = dict(self.of(f.type))
        if f.doc:
            out["description"] = f.doc
        default = _json_default(f.default)
        if default is not None:
            out["default"] = default
        return out

    def _struct_body(self, s: Struct) -> dict:
        body: dict[str, Any] = {"type": "object", "title": s.label}
        doc = _model_doc(s)
        if doc:
            body["description"] = doc
        body["properties"] = {k: self.field(f) for k, f in s.fields.items()}
        required = [k for k, f in s.fields.items() if f.required]
        if required and not self.partial:
            body["required"] = required
        body["additionalProperties"] = False           # ``Struct.build`` refuses unknown keys
        if s.shorthand:                                # a scalar stands for {shorthand: value}
            scalar = {"type": ["string", "number", "boolean", "null"]}
            return {"anyOf": [{"allOf": [scalar, self.of(s.fields[s.shorthand].type)]}, body]}
        return body

    def _name(self, s: Struct) -> str:
        """The struct's label, made unique (two sections may share a label)."""
        if id(s) not in self._struct_names:
            taken = set(self._struct_names.values())
            name, n = _key(s.label), 2
            while name in taken:
                name, n = f"{_key(s.label)}_{n}", n + 1
            self._struct_names[id(s)] = name
        return self._struct_names[id(s)]

    def _in_mode(self, partial: bool, render: Callable[[], dict]) -> dict:
        saved, self.partial = self.partial, partial
        try:
            return render()
        finally:
            self.partial = saved


def _key(name: str) -> str:
    """A name as a ``$defs`` key: letters, digits and ``_``."""
    return re.sub(r"[^A-Za-z0-9_]+", "_", name).strip("_")


def _model_doc(s: Struct) -> str:
    """The docstring of the model class a section builds, as one line (none for a dataclass's
    generated signature)."""
    cls = getattr(s.make, "model", None)
    doc = inspect.getdoc(cls) if cls is not None else None
    if not doc or doc.startswith(cls.__name__ + "("):
        return ""
    return " ".join(doc.split())


def _json_default(value: Any) -> Any:
    """A field's default as JSON, when it is plain data (a constant expression counts); else None."""
    from ..expr.ast import Expr

    if isinstance(value, Expr):
        value = value.ast.args[0] if value.ast.op == "const" else None
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple) and all(isinstance(v, (bool, int, float, str)) for v in value):
        return list(value)
    return None


def top_level() -> Struct:
    """The top level as a file may write it: the ruleset's sections and the keys the source layer
    reads (``extends``).  The vocabulary is the whole of it: installed packages' mechanics included."""
    load_installed()
    return Struct(RULESET.label, {**RULESET.fields, **SOURCE_FIELDS}, RULESET.make)


def ruleset_schema(draft: str = "2020-12") -> dict:
    """The JSON Schema of a YAML ruleset file: a whole ruleset, or with ``extends`` only what differs
    (``draft``: ``2020-12`` or ``07``)."""
    gen = Generator(draft)
    top = top_level()
    whole = gen.of(top)
    gen.partial = True
    variant = gen.of(top)
    return {
        "$schema": gen.dialect,
        "title": "rulesdsl ruleset",
        "description": "A card game's rules as data (rulesdsl; generated by `rulesdsl schema` from the model). "
                       "A file with `extends` gives only what differs from its base.",
        "type": "object",
        "if": {"type": "object", "required": ["extends"]},
        "then": variant,
        "else": whole,
        gen.defs_key: gen.defs,
    }
