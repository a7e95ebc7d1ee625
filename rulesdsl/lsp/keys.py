"""What the model's schema says about a key path: the keys a mapping there may hold, a key's type
and documentation.  Read from the same ``Struct``s the loader checks against, so the editor never
offers a key the checker refuses.  No pygls here."""

from __future__ import annotations

from typing import Optional

from ..model.docs import section_doc
from ..mechanics.registry import load_installed
from ..model.game import RULESET, ParamT, PlayersT
from ..model.schema import Choice, ChoiceExpr, ExprT, Field, Int, ListOf, MapOf, Str, Struct, Type

#: mappings the schema checks by hand (not with a Struct), given as Structs for tools
_PARAM = Struct("parameter", {k: Field(t) for k, t in (
    ("default", ExprT()), ("choices", ListOf(Str())), ("min", Int()), ("max", Int()), ("length", Int()),
    ("doc", Str()))})
_PLAYERS = Struct("players", {"min": Field(Int(1), True), "max": Field(Int(1), True), "default": Field(Int(1))})


def _as_struct(t: Type) -> Type:
    if isinstance(t, ParamT):
        return _PARAM
    if isinstance(t, PlayersT):
        return _PLAYERS
    return t


def type_at(path: tuple) -> Optional[Type]:
    """The type of the value at ``path`` (keys, ``"[]"`` for a list item), or None where the schema
    has no such key."""
    load_installed()                               # an editor offers the whole vocabulary
    t: Optional[Type] = RULESET
    for key in path:
        t = _as_struct(t) if t is not None else None
        if isinstance(t, ListOf):
            t = _as_struct(t.item)
            if key == "[]":
                continue
        if key == "[]":
            return None
        if isinstance(t, Struct):
            f = t.fields.get(key)
            t = f.type if f is not None else None
        elif isinstance(t, MapOf):
            t = t.value
        else:
            return None
    return _as_struct(t) if t is not None else None


def field_at(path: tuple) -> Optional[Field]:
    """The ``Field`` that declares the last key of ``path`` (None for a user's name, such as a zone)."""
    if not path or path[-1] == "[]":
        return None
    parent = type_at(path[:-1])
    if isinstance(parent, ListOf):
        parent = _as_struct(parent.item)
    return parent.fields.get(path[-1]) if isinstance(parent, Struct) else None


def keys_at(path: tuple) -> dict[str, Field]:
    """The keys a mapping at ``path`` may hold (empty where the keys are the user's names)."""
    t = type_at(path)
    if isinstance(t, ListOf):
        t = _as_struct(t.item)
    return dict(t.fields) if isinstance(t, Struct) else {}


def choices_at(path: tuple) -> tuple:
    """The words a value at ``path`` may be (empty where it is free)."""
    t = type_at(path)
    if isinstance(t, ListOf):
        t = t.item
    return tuple(t.choices) if isinstance(t, (Choice, ChoiceExpr)) else ()


def is_expression(path: tuple) -> bool:
    """Whether the value at ``path`` is an expression (where builtins and names may be written)."""
    t = type_at(path)
    if isinstance(t, (ListOf, MapOf)) and not isinstance(t, Struct):
        t = t.item if isinstance(t, ListOf) else t.value
    return isinstance(t, ExprT)


def describe_key(path: tuple) -> Optional[str]:
    """Markdown for a key: its path, what it holds, whether required, and its documentation."""
    f = field_at(path)
    doc = (f.doc if f is not None else "") or section_doc(path) or ""
    if f is None and not doc:
        return None
    shown = ".".join(k for k in path if k != "[]")
    head = f"**`{shown}`**"
    if f is not None:
        head += f": {_type_words(f.type)}" + (" (required)" if f.required else "")
    return head + (f"\n\n{doc}" if doc else "")


def _type_words(t: Type) -> str:
    t = _as_struct(t)
    if isinstance(t, Struct):
        return "a mapping of " + ", ".join(f"`{k}`" for k in t.fields)
    return t.name
