"""A small declarative schema: check a raw tree against field types and build plain values.

Every section of the model is described by a ``Struct`` of ``Field``s.  ``build`` walks the raw tree,
reports every problem as a located diagnostic (unknown key with a suggestion, wrong type, missing
required key, value not among the choices) and keeps going, so one run shows all mistakes.

Each type also says what it accepts as a JSON Schema fragment (``json_schema``), so the schema editors
use (``rulesdsl schema``, built by ``model.json_schema``) is derived from these same objects and cannot
drift from what the loader checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import Diagnostics, suggest
from ..expr.ast import Expr, expr_from_scalar
from ..source.tree import Map, Node, Scalar, Seq, describe


class Type:
    """Base of the field types; ``build`` returns the value or ``INVALID`` after reporting."""

    name = "value"

    def build(self, node: Node, diags: Diagnostics, where: str) -> Any:
        raise NotImplementedError

    def json_schema(self, gen: Any) -> dict:
        """What ``build`` accepts, as a JSON Schema fragment; ``gen`` (a ``json_schema.Generator``)
        renders nested types.  A type without one cannot be described to editors, so it fails loudly."""
        raise NotImplementedError(f"{type(self).__name__} has no JSON Schema form")


INVALID = object()


_kind = describe


class Int(Type):
    name = "a whole number"

    def __init__(self, lo: Optional[int] = None, hi: Optional[int] = None):
        self.lo, self.hi = lo, hi

    def build(self, node, diags, where):
        if not isinstance(node, Scalar) or isinstance(node.value, bool) or not isinstance(node.value, int):
            diags.error("E-TYPE", f"`{where}` must be {self.name}, not {_kind(node)}", node.pos)
            return INVALID
        v = node.value
        if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            rng = f"{self.lo if self.lo is not None else '...'} to {self.hi if self.hi is not None else '...'}"
            diags.error("E-RANGE", f"`{where}` is {v}, outside {rng}", node.pos)
            return INVALID
        return v

    def json_schema(self, gen):
        out: dict = {"type": "integer"}
        if self.lo is not None:
            out["minimum"] = self.lo
        if self.hi is not None:
            out["maximum"] = self.hi
        return out


class Bool(Type):
    name = "true or false"

    def build(self, node, diags, where):
        if not isinstance(node, Scalar) or not isinstance(node.value, bool):
            diags.error("E-TYPE", f"`{where}` must be true or false, not {_kind(node)}", node.pos)
            return INVALID
        return node.value

    def json_schema(self, gen):
        return {"type": "boolean"}


class Str(Type):
    name = "a name or text"

    def build(self, node, diags, where):
        if not isinstance(node, Scalar) or not isinstance(node.value, (str, int)) or isinstance(node.value, bool):
            diags.error("E-TYPE", f"`{where}` must be {self.name}, not {_kind(node)}", node.pos)
            return INVALID
        return str(node.value)

    def json_schema(self, gen):
        return {"type": ["string", "integer"]}     # a rank `2` is written as a number


class Text(Type):
    """Text only: a number is refused (a ruleset's name in ``extends``)."""

    name = "text"

    def build(self, node, diags, where):
        if not isinstance(node, Scalar) or not isinstance(node.value, str):
            diags.error("E-TYPE", f"`{where}` must be {self.name}, not {_kind(node)}", node.pos)
            return INVALID
        return node.value

    def json_schema(self, gen):
        return {"type": "string"}


class Choice(Type):
    def __init__(self, *choices: str):
        self.choices = choices
        self.name = "one of " + ", ".join(choices)

    def build(self, node, diags, where):
        v = node.value if isinstance(node, Scalar) else None
        if not isinstance(v, str) or v not in self.choices:
            shown = v if isinstance(v, str) else _kind(node)
            diags.error("E-CHOICE", f"`{where}` is `{shown}`; it must be one of: {', '.join(self.choices)}",
                        node.pos, suggest(str(shown), self.choices))
            return INVALID
        return v

    def json_schema(self, gen):
        return {"enum": list(self.choices)}


class ExprT(Type):
    """An expression: a literal, or text in the expression sublanguage."""

    name = "an expression"

    def build(self, node, diags, where):
        if not isinstance(node, Scalar):
            diags.error("E-TYPE", f"`{where}` must be an expression, not {_kind(node)}", node.pos)
            return INVALID
        expr, diag = expr_from_scalar(node)
        if diag:
            diags.items.append(diag)
            return INVALID
        return expr

    def json_schema(self, gen):
        return gen.expression()


class CondT(ExprT):
    """A condition: an expression that gives true or false (checked when it is compiled)."""

    name = "a condition"

    def build(self, node, diags, where):
        built = super().build(node, diags, where)
        if isinstance(built, Expr):
            from ..expr.ast import CondExpr
            return CondExpr(built.ast, built.text, built.pos)
        return built


class _KindT(ExprT):
    """An expression of one kind (a number, a seat, a card): built as that kind's ``Expr`` subclass, which
    the compiler checks (``expr_class``)."""

    def expr_class(self) -> type:
        raise NotImplementedError

    def build(self, node, diags, where):
        built = super().build(node, diags, where)
        if type(built) is Expr:
            return self.expr_class()(built.ast, built.text, built.pos)
        return built


class NumT(_KindT):
    """A number: an expression that gives a number (checked when it is compiled)."""

    name = "a number"

    def expr_class(self) -> type:
        from ..expr.ast import NumExpr
        return NumExpr


class SeatT(_KindT):
    """A seat: an expression that gives a seat's number (checked when it is compiled); with
    ``none_ok``, none (no seat) too."""

    name = "a seat"

    def __init__(self, none_ok: bool = False):
        self.none_ok = none_ok

    def expr_class(self) -> type:
        from ..expr.ast import SeatExpr, SeatOrNoneExpr
        return SeatOrNoneExpr if self.none_ok else SeatExpr


class CardT(_KindT):
    """A card, written as its text, or none: an expression checked when it is compiled."""

    name = "a card"

    def expr_class(self) -> type:
        from ..expr.ast import CardExpr
        return CardExpr


@dataclass(frozen=True)
class WordsExpr(Expr):
    """An expression written where one of a few words may stand: it remembers the words, so a bare
    unknown name there is reported against them (``on_tie: share`` -> did you mean `shared`?)."""

    words: tuple = field(default=(), compare=False)


class ChoiceExpr(ExprT):
    """One of a few words, or an expression that gives one (``cards: highest`` or ``cards: 'if ...'``)."""

    def __init__(self, *choices: str):
        self.choices = choices
        self.name = "one of " + ", ".join(choices) + ", or an expression giving one"

    def build(self, node, diags, where):
        if isinstance(node, Scalar) and node.value in self.choices:
            from ..expr.ast import E
            return Expr(E("const", (node.value,), node.pos), str(node.value), node.pos)
        built = super().build(node, diags, where)
        if isinstance(built, Expr):
            return WordsExpr(built.ast, built.text, built.pos, tuple(self.choices))
        return built

    def json_schema(self, gen):
        return {"anyOf": [{"enum": list(self.choices)}, gen.expression()]}


def yaml_set_hint(node: Node) -> str:
    """``{49, 50}`` in YAML is a set: a mapping whose keys have no values.  Say to write a list."""
    if isinstance(node, Map) and len(node) and all(isinstance(v, Scalar) and v.value is None
                                                   for _, v in node.items()):
        keys = ", ".join(node.keys())
        return f"`{{{keys}}}` is a YAML set (keys without values), not a list: write `[{keys}]`"
    return ""


def value_kind(node: Node) -> str:
    """A node's kind for parameter checks: texts are one kind whatever they say, numbers one kind."""
    if isinstance(node, Scalar) and isinstance(node.value, str):
        return "text"
    return describe(node)


class ListOf(Type):
    def __init__(self, item: Type, min_len: int = 0, scalar_ok: bool = False):
        self.item, self.min_len, self.scalar_ok = item, min_len, scalar_ok
        self.name = f"a list of {item.name}"

    def build(self, node, diags, where):
        if isinstance(node, Scalar) and self.scalar_ok:
            node = Seq([node], node.pos)
        if not isinstance(node, Seq):
            diags.error("E-TYPE", f"`{where}` must be {self.name}, not {_kind(node)}", node.pos, yaml_set_hint(node))
            return INVALID
        if len(node) < self.min_len:
            diags.error("E-TYPE", f"`{where}` needs at least {self.min_len} item(s)", node.pos)
            return INVALID
        out = [self.item.build(n, diags, f"{where}[{i + 1}]") for i, n in enumerate(node)]
        return INVALID if any(v is INVALID for v in out) else tuple(out)

    def json_schema(self, gen):
        """A list replaces its base's whole (``extends`` merges mappings only), so its items are
        complete even in a variant file."""
        item = gen.complete(self.item)
        out: dict = {"type": "array", "items": item}
        if self.min_len:
            out["minItems"] = self.min_len
        return {"anyOf": [item, out]} if self.scalar_ok else out


class MapOf(Type):
    def __init__(self, value: Type, key_check: Optional[Callable[[str], bool]] = None):
        self.value = value
        self.key_check = key_check
        self.name = f"a mapping of {value.name}"

    def build(self, node, diags, where):
        if not isinstance(node, Map):
            diags.error("E-TYPE", f"`{where}` must be a mapping, not {_kind(node)}", node.pos)
            return INVALID
        out = {}
        bad = False
        for k, v in node.items():
            built = self.value.build(v, diags, f"{where}.{k}")
            bad = bad or built is INVALID
            out[k] = built
        return INVALID if bad else out

    def json_schema(self, gen):
        return {"type": "object", "additionalProperties": gen.of(self.value)}


@dataclass
class Field:
    type: Type
    required: bool = False
    default: Any = None
    doc: str = ""


class Struct(Type):
    """A mapping with known keys.  ``make`` turns the built dict into the model object."""

    def __init__(self, name: str, fields: dict[str, Field], make: Optional[Callable[..., Any]] = None,
                 shorthand: Optional[str] = None):
        self.name = f"a `{name}` mapping"
        self.label = name
        self.fields = fields
        self.make = make
        self.shorthand = shorthand   # a scalar value means {shorthand: value}

    def build(self, node, diags, where):
        if isinstance(node, Scalar) and self.shorthand:
            node = Map({self.shorthand: node}, node.pos, {self.shorthand: node.pos})
        if not isinstance(node, Map):
            diags.error("E-TYPE", f"`{where}` must be {self.name}, not {_kind(node)}" if where else
                        f"a ruleset must be a mapping of top-level keys (`name: ...`), not {_kind(node)}",
                        node.pos)
            return INVALID
        out: dict[str, Any] = {}
        bad = False
        for k, v in node.items():
            f = self.fields.get(k)
            if f is None:
                diags.error("E-UNKNOWN-KEY", f"unknown key `{k}` in `{where}`" if where else
                            f"unknown top-level key `{k}`", node.where(k),
                            suggest(k, self.fields) or "allowed: " + ", ".join(self.fields))
                bad = True
                continue
            built = f.type.build(v, diags, f"{where}.{k}" if where else k)
            if built is INVALID:
                bad = True
            out[k] = built
        for k, f in self.fields.items():
            if k not in out:
                if f.required:
                    diags.error("E-MISSING", f"`{where}` needs the key `{k}`" if where else
                                f"the ruleset needs the top-level key `{k}`", node.pos, f.doc)
                    bad = True
                else:
                    out[k] = f.default
        if bad:
            return INVALID
        out["pos"] = node.pos
        return self.make(**out) if self.make else out

    def json_schema(self, gen):
        return gen.struct(self)


def without_docs(value: Any, type_: Type) -> Any:
    """Plain ruleset data (``Node.plain()``) read under ``type_``, with every ``doc:`` text taken out.

    ``doc:`` is for readers (the rulebook, hover in editors), not a rule, so a ruleset's digest is taken
    without it: mending a doc's wording does not make saved games "made under other rules".  The walk
    follows the schema, so a key named ``doc`` that a ruleset chose (a parameter, a zone) stays."""
    if isinstance(type_, Struct) and isinstance(value, dict):
        fields = type_.fields
        return {k: without_docs(v, fields[k].type) if k in fields else v
                for k, v in value.items() if not (k == "doc" and "doc" in fields)}
    if isinstance(type_, ListOf) and isinstance(value, list):
        return [without_docs(v, type_.item) for v in value]
    if isinstance(type_, MapOf) and isinstance(value, dict):
        return {k: without_docs(v, type_.value) for k, v in value.items()}
    strip = getattr(type_, "without_doc", None)           # a type of its own that carries a doc
    return strip(value) if strip is not None else value
