"""What one resolved ruleset changes relative to another, as a list of located changes.

Both sides are resolved plain trees (``Rules.tree.plain()``: ``extends`` merged, overrides applied).
The walk follows the model's schema, so it compares what the model would see, not how it was written:

* a parameter written bare (``x: 5``) is the same as ``x: {default: 5}``, a player count ``n`` the same
  as ``{min: n, max: n, default: n}``, and a field left out the same as the schema's default for it;
* expression fields are compared as parsed expressions, so re-spacing or re-wrapping one is no change;
* named items are matched by name: mappings by key (parameters, meld types, zones, go-out names) and
  lists of steps, actions, deal steps and after-deal checks by the name each item carries, so
  inserting one step shows one added step, not every later step changed.  Lists without names are
  aligned as sequences, for the same reason.

Each change has a path (``turn[draw].actions[take discard].when``), a kind (``changed``, ``added``,
``removed``), the values before and after (plain data), and where they lie in either normalised tree
(``a_at``, ``b_at``: keys and 0-based indices, for tools and tests).  Named items that stand in another
order are one ``changed`` of the list itself, whose values are the names in order (``order`` is set);
so are the keys of a mapping whose order counts (climbing plays, weakest first).  Putting changes into
words is ``diff_words``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Iterator, NamedTuple, Optional

from ..mechanics.registry import by_key
from .game import RULESET, ParamT, PlayersT
from .schema import ExprT, Field, ListOf, MapOf, Struct, Type

#: a key absent from a mapping (distinct from a value of None)
MISSING = object()

#: the keys that name an item of a list, by the schema's label for the item's mapping: the first one
#: present names it (an action by its verb and target, a step by its name, ...)
NAMING_KEYS = {
    "step": ("step",),
    "action": ("draw", "take", "discard", "go_out", "meld", "layoff", "ask", "pass"),
    "deal step": ("turn_up", "to"),
    "after_deal": ("ending",),
    "constraint": ("message",),
}

#: mappings whose order is part of the rules (the first that fits wins, or weakest first), by their keys;
#: each mechanic names its own (``Mechanic.ordered``)
ORDERED_MAPS = {("table", "books")}

#: of those, the keys whose value alone names the item (the others read "key value")
BARE_NAMES = ("step", "ending", "message")


class Step(NamedTuple):
    """One step of a change's path: a mapping key (``index`` None), or a list item (``key`` None) by
    its 0-based index on the side it is read from, and its name when it has one."""

    key: Optional[str] = None
    index: Optional[int] = None
    label: Optional[str] = None

    def text(self) -> str:
        if self.index is None:
            return str(self.key)
        return f"[{self.label if self.label is not None else self.index + 1}]"


@dataclass(frozen=True)
class Change:
    """One difference, located in both trees (so a tool can point at it and a test can check it) and
    flagged for the words that will say it (a formula, an added item's neighbour, a new order)."""

    path: tuple            # of Step, as B has it (as A has it for a removal)
    kind: str              # changed | added | removed
    before: Any            # plain value (None when added)
    after: Any             # plain value (None when removed)
    a_at: Optional[tuple]  # keys / indices into the normalised A (None: not there)
    b_at: Optional[tuple]  # ... into the normalised B
    formula: bool = False  # the value is an expression field
    prev: Optional[str] = None   # an added list item: the name (or 1-based number) of the item before it
    order: bool = False    # a list's named items in another order (before, after: their names)

    def path_text(self) -> str:
        """``params.x.default``, ``turn[draw].actions[take discard].when``, ``scoring.outcomes[2]``."""
        out = ""
        for s in self.path:
            t = s.text()
            out += t if (t.startswith("[") or not out) else "." + t
        return out

    def as_dict(self) -> dict:
        return {"path": self.path_text(), "kind": self.kind, "before": self.before, "after": self.after}


def diff(a: Any, b: Any) -> list[Change]:
    """The changes that turn resolved plain tree ``a`` into ``b``, in B's order."""
    return list(_walk(normalise(a), normalise(b), (), (), (), RULESET))


def normalise(tree: Any) -> Any:
    """A resolved plain tree with the schema's shorthands written out (bare parameters, a single player
    count, a scalar for a one-key mapping, a scalar for a one-item list); what ``a_at`` and ``b_at``
    index."""
    return _normal(tree, RULESET)


def value_at(tree: Any, at: tuple) -> Any:
    """The value ``at`` (keys and indices) reaches in ``tree``, or ``MISSING``."""
    for k in at:
        try:
            tree = tree[k]
        except (KeyError, IndexError, TypeError):
            return MISSING
    return tree


def child_type(t: Optional[Type], key: Any) -> Optional[Type]:
    """The schema type of ``key`` inside a value of type ``t`` (None where the schema says nothing)."""
    f = child_field(t, key)
    if f is not None:
        return f.type
    if isinstance(t, MapOf):
        return t.value
    if isinstance(t, ListOf):
        return t.item
    return None


def child_field(t: Optional[Type], key: Any) -> Optional[Field]:
    """The schema field ``key`` of a ``Struct`` (or a parameter's mapping), else None."""
    if isinstance(t, Struct):
        return t.fields.get(key)
    if isinstance(t, ParamT):
        return _PARAM_FIELDS.get(key)
    return None


#: a parameter, once written out, is a mapping of these (none is an expression)
_PARAM_FIELDS = {k: Field(Type()) for k in ParamT._keys}


def is_formula(t: Optional[Type]) -> bool:
    """Whether a value of type ``t`` is an expression."""
    return isinstance(t, ExprT)


# ------------------------------------------------------------------------------------ normalising


def _normal(value: Any, t: Optional[Type]) -> Any:
    """``value`` (of schema type ``t``) with its shorthands written out, so two spellings of one rule
    compare equal."""
    if isinstance(t, ParamT):
        value = value if isinstance(value, dict) else {"default": value}
        return {k: _normal(v, child_type(t, k)) for k, v in value.items()}
    if isinstance(t, PlayersT):
        return _players(value)
    if isinstance(t, Struct) and t.shorthand and not isinstance(value, (dict, list)):
        value = {t.shorthand: value}
    if isinstance(t, ListOf) and t.scalar_ok and not isinstance(value, list):
        value = [value]
    if isinstance(value, dict):
        return {k: _normal(v, child_type(t, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_normal(v, child_type(t, i)) for i, v in enumerate(value)]
    return value


def _players(value: Any) -> Any:
    """A player count in full: ``n`` is ``{min: n, max: n, default: n}``, a missing default is ``min``
    (as the model reads them)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"min": value, "max": value, "default": value}
    if isinstance(value, dict) and "default" not in value and "min" in value:
        return {**value, "default": value["min"]}
    return value


# ------------------------------------------------------------------------------------------ walking


def _walk(a: Any, b: Any, path: tuple, a_at: tuple, b_at: tuple, t: Optional[Type]) -> Iterator[Change]:
    """Changes between two values of type ``t`` found at ``path``."""
    if isinstance(a, dict) and isinstance(b, dict):
        yield from _walk_map(a, b, path, a_at, b_at, t)
    elif _item_lists(a, b):
        yield from _walk_list(a, b, path, a_at, b_at, t)
    elif not same(a, b, t):
        yield Change(path, "changed", a, b, a_at, b_at, is_formula(t))


def _ordered(keys: tuple) -> bool:
    """Whether the mapping at ``keys`` is one whose order counts."""
    if keys in ORDERED_MAPS:
        return True
    mech = by_key().get(keys[0]) if len(keys) == 2 else None
    return mech is not None and keys[1] in mech.ordered


def _walk_map(a: dict, b: dict, path, a_at, b_at, t) -> Iterator[Change]:
    """Key by key; a key on one side only counts as the schema's default for it, when it has one.  In
    a mapping whose order means something (``ORDERED_MAPS``) the keys in another order are one change."""
    if _ordered(tuple(s.key for s in path if s.index is None)):
        order_a, order_b = [k for k in a if k in b], [k for k in b if k in a]
        if order_a != order_b:
            yield Change(path, "changed", order_a, order_b, a_at, b_at, order=True)
    for k in list(a) + [k for k in b if k not in a]:
        ct = child_type(t, k)
        default = _default(child_field(t, k))
        av, bv = a.get(k, default), b.get(k, default)
        here = path + (Step(key=k),)
        if av is MISSING:
            yield Change(here, "added", None, bv, None, _at(b_at, k), is_formula(ct))
        elif bv is MISSING:
            yield Change(here, "removed", av, None, _at(a_at, k), None, is_formula(ct))
        else:
            yield from _walk(av, bv, here, _at(a_at, k) if k in a else None, _at(b_at, k) if k in b else None, ct)


def _default(f: Optional[Field]) -> Any:
    """A field's default as plain data, or ``MISSING`` when it has none (leaving it out means no value)."""
    if f is None or f.default is None:
        return MISSING
    d = f.default
    ast = getattr(d, "ast", None)
    if ast is not None:                          # an expression default: a constant
        return ast.args[0] if ast.op == "const" else getattr(d, "text", MISSING)
    if isinstance(d, tuple):
        return list(d)
    return d


def _item_lists(a: Any, b: Any) -> bool:
    """Two lists of mappings, compared item by item (a list of scalars is compared as one value)."""
    return (isinstance(a, list) and isinstance(b, list) and bool(a or b)
            and all(isinstance(x, dict) for x in a + b))


def _walk_list(a: list, b: list, path, a_at, b_at, t) -> Iterator[Change]:
    """Items aligned by name (or, without names, by content), then compared pairwise, the changes in
    B's order.  An item whose name is on both sides is the same item wherever it stands: if such items
    stand in another order, that is one change of the list's order (the names before and after)."""
    item_t = child_type(t, 0)
    la, lb = _labels(a, item_t), _labels(b, item_t)
    both = set(la) & set(lb) - {None}
    order_a, order_b = [x for x in la if x in both], [x for x in lb if x in both]
    if order_a != order_b:
        yield Change(path, "changed", order_a, order_b, a_at, b_at, order=True)
    at_b = {x: j for j, x in enumerate(lb) if x in both}
    found = [(at_b[x], i, at_b[x]) for i, x in enumerate(la) if x in both] + \
        list(_unnamed(a, b, la, lb, both))
    for _, i, j in sorted(found, key=lambda f: f[0]):
        if i is None:
            prev = None if j == 0 else (lb[j - 1] if lb[j - 1] is not None else str(j))
            yield Change(path + (Step(index=j, label=lb[j]),), "added", None, b[j], None, _at(b_at, j), prev=prev)
        elif j is None:
            yield Change(path + (Step(index=i, label=la[i]),), "removed", a[i], None, _at(a_at, i), None)
        else:
            yield from _walk(a[i], b[j], path + (Step(index=j, label=lb[j]),), _at(a_at, i), _at(b_at, j), item_t)


def _unnamed(a: list, b: list, la: list, lb: list, both: set) -> Iterator[tuple]:
    """The items not matched by name, aligned as sequences by content, as ``(place in B, i, j)``: a pair
    to compare, or ``i`` (removed) or ``j`` (added) alone.  Unnamed items changed in place (as many
    between the same neighbours) are paired, so a changed outcome shows its changed field."""
    ia = [i for i, x in enumerate(la) if x not in both]
    ib = [j for j, x in enumerate(lb) if x not in both]
    keys_a = [la[i] if la[i] is not None else _canon(a[i]) for i in ia]
    keys_b = [lb[j] if lb[j] is not None else _canon(b[j]) for j in ib]
    for op, i1, i2, j1, j2 in SequenceMatcher(None, keys_a, keys_b, autojunk=False).get_opcodes():
        pairs = [(ia[x], ib[y]) for x, y in zip(range(i1, i2), range(j1, j2))]
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1
                             and all(la[i] is None and lb[j] is None for i, j in pairs)):
            yield from ((j, i, j) for i, j in pairs)
            continue
        place = ib[j1] if j1 < len(ib) else len(b)
        yield from ((place - 0.5, i, None) for i in ia[i1:i2])
        yield from ((j, None, j) for j in ib[j1:j2])


def _at(at: Optional[tuple], key: Any) -> Optional[tuple]:
    """One step further into a side (None: that side has no such value, it is a default)."""
    return None if at is None else at + (key,)


def _labels(items: list, t: Optional[Type]) -> list:
    """Each item's name (None when it has none); a name met again gets ``#2``, ``#3``."""
    keys = NAMING_KEYS.get(getattr(t, "label", None), ())
    out, seen = [], {}
    for item in items:
        name = next((_label(k, item[k]) for k in keys if k in item), None)
        if name is not None:
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name} #{seen[name]}"
        out.append(name)
    return out


def _label(key: str, value: Any) -> str:
    if key in BARE_NAMES:
        return str(value)
    if value is True:
        return key
    return f"{key} {value}"


def _canon(v: Any) -> str:
    """An item's content as one comparable text (types kept apart: true is not 1)."""
    return "=" + json.dumps(v, sort_keys=True, default=str)


def same(a: Any, b: Any, t: Optional[Type] = None) -> bool:
    """Whether two values mean the same: equal data (true is not 1), or, for an expression field,
    expressions that parse to the same tree."""
    if _canon(a) == _canon(b):
        return True
    if is_formula(t) and not isinstance(a, (dict, list)) and not isinstance(b, (dict, list)):
        pa, pb = _parsed(a), _parsed(b)
        return pa is not None and pa == pb
    return False


def _parsed(v: Any) -> Any:
    """An expression value's syntax tree (positions aside), or None when it does not parse."""
    from ..expr.ast import E, parse

    if not isinstance(v, str):
        return E("const", (v,))
    ast, problem = parse(v)
    return None if problem else ast
