"""Changes between two rulesets (``diff``) said in words, for people reading a house rule.

A change reads ``subject: before -> after``.  The subject is the changed thing in words: a parameter by
its name with the underscores gone (and, in the long form, its ``doc:`` text), anything else by the
section and the named item it lies in (``meld type NAME, max``; ``step NAME, action take discard,
when``).  Values are words: true/false as yes/no, names without underscores, lists and mappings in
brackets, and expressions as formulas in backticks, unless they follow a pattern that reads as words
(``params.NAME``).  The short form (``rulesdsl list --verbose``) leaves out docs and cuts long values.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from .diff import Change, child_type, is_formula
from ..mechanics.registry import by_key, mechanics
from .game import RULESET
from .schema import Type

#: the noun for an item of a named mapping, by the mapping's path (its keys)
MAP_NOUNS = {
    ("params",): "parameter", ("melds",): "meld type", ("zones",): "zone", ("go_out",): "go-out",
    ("derived",): "derived value", ("classes",): "card class", ("claims",): "claim",
    ("table", "books"): "book type",
    ("deck", "values"): "value of", ("deck", "colors"): "colour of", ("roles",): "roles with",
}

#: the noun for an item of a list, by the list's key
LIST_NOUNS = {
    "turn": "step", "deal": "deal step", "actions": "action", "after_deal": "check after the deal",
    "outcomes": "outcome", "constraints": "constraint",
    "on": "item",
}



def _list_noun(key: str) -> str:
    """The noun for an item of the list under ``key`` (the core's, or a mechanic's own)."""
    noun = LIST_NOUNS.get(key)
    if noun is None:
        noun = next((m.nouns[key] for m in mechanics() if key in m.nouns), "item")
    return noun


def _map_noun(keys: tuple) -> Optional[str]:
    """The noun for an item of the mapping at ``keys`` (the core's, or one inside a mechanic's
    section: ``("climbing", "plays")`` -> the mechanic's ``nouns["plays"]``; a section that is itself a
    mapping, ``("counters",)`` -> ``nouns["counters"]``), or None."""
    noun = MAP_NOUNS.get(keys)
    if noun is None and len(keys) in (1, 2):        # (a section that is a mapping names its own items)
        mech = by_key().get(keys[0])
        noun = mech.nouns.get(keys[-1]) if mech is not None else None
    return noun


#: how long a formula, and a whole value, may run in the short form (and in the long form)
SHORT_FORMULA, SHORT_VALUE = 32, 48
LONG_VALUE = 240

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_PATTERNS = (
    (re.compile(r"params\.([A-Za-z_][A-Za-z0-9_]*)\Z"), "the {0} setting"),
    (re.compile(r"not params\.([A-Za-z_][A-Za-z0-9_]*)\Z"), "not {0}"),
    (re.compile(r"params\.([A-Za-z_][A-Za-z0-9_]*) == \"([A-Za-z0-9_]*)\"\Z"), "{0} is {1}"),
    (re.compile(r"params\.([A-Za-z_][A-Za-z0-9_]*) != \"([A-Za-z0-9_]*)\"\Z"), "{0} is not {1}"),
)


def human(name: Any) -> str:
    """A name as words: ``hand_size`` -> ``hand size``."""
    return " ".join(str(name).replace("_", " ").split())


def param_docs(*trees: Any) -> dict:
    """Each parameter's ``doc:`` text, from the first tree (normalised) that gives one."""
    out: dict = {}
    for tree in trees:
        params = tree.get("params") if isinstance(tree, dict) else None
        for name, p in (params or {}).items():
            doc = p.get("doc") if isinstance(p, dict) else None
            if doc and name not in out:
                out[name] = " ".join(str(doc).split())
    return out


def sentence(change: Change, docs: Optional[Mapping[str, str]] = None, short: bool = False) -> str:
    """One change as one sentence."""
    parts, noun = _subject(change, docs or {}, short)
    subject = ", ".join(parts)
    t = _type_at(change.path)
    if change.order:
        return f"{subject} reordered" if short else \
            f"{subject} in a new order: {', '.join(human(x) for x in change.after)}"
    if change.kind == "changed":
        return f"{subject}: {value_words(change.before, t, short)} -> {value_words(change.after, t, short)}"
    if not noun:
        if change.kind == "added":
            return f"{subject}: set to {value_words(change.after, t, short)}"
        return f"{subject}: no longer set" + ("" if short else f" (was {value_words(change.before, t, short)})")
    return _item_sentence(change, parts, t, short)


def _item_sentence(change: Change, parts: list, t: Optional[Type], short: bool) -> str:
    """A named item added or taken away: ``SECTION: adds ITEM[ after ITEM]: value``."""
    said = f"adds {parts[-1]}{_placed(change)}" if change.kind == "added" else f"removes {parts[-1]}"
    if not short:
        shown = change.after if change.kind == "added" else change.before
        said += ": " + (_param_words(shown, short) if _is_param(change) else value_words(shown, t, short))
    return f"{', '.join(parts[:-1])}: {said}" if len(parts) > 1 else said


def _is_param(change: Change) -> bool:
    """Whether the change is a whole parameter, added or taken away."""
    return len(change.path) == 2 and change.path[0].key == "params"


def _param_words(p: Any, short: bool) -> str:
    """A parameter as words: its default, then what else bounds it (``5 (min 0, max 9)``)."""
    if not isinstance(p, dict) or "default" not in p:
        return value_words(p, None, short)
    rest = [f"{k} {value_words(v, None, short)}" for k, v in p.items() if k != "default"]
    return value_words(p["default"], None, short) + (f" ({', '.join(rest)})" if rest else "")


def one_line(changes: list, docs: Optional[Mapping[str, str]] = None) -> str:
    """Every change in the short form, joined with ``; ``."""
    return "; ".join(sentence(c, docs, short=True) for c in changes)


def _placed(change: Change) -> str:
    """Where an added list item stands: `` after step NAME`` or `` first``."""
    last = change.path[-1]
    if last.index is None:
        return ""
    if change.prev is None:
        return " first"
    noun = _list_noun(change.path[-2].key if len(change.path) > 1 else "")
    return f" after {noun} {human(change.prev)}"


def _subject(change: Change, docs: Mapping[str, str], short: bool) -> tuple[list, bool]:
    """The changed thing in words, from the outside in (``["step NAME", "action take discard", "when"]``),
    and whether it is a named item (a noun) rather than a field."""
    path = change.path
    if len(path) >= 2 and path[0].key == "params" and path[1].index is None:
        return _param_subject(path, docs, short)
    parts: list = []
    keys: tuple = ()
    noun = False
    for step in path:
        if step.index is not None:
            what = _list_noun(keys[-1] if keys else "")
            name = step.label if step.label is not None else str(step.index + 1)
            parts[-1:] = [f"{what} {human(name)}"]
            noun = True
            continue
        map_noun = _map_noun(keys)
        if map_noun is not None and parts:
            parts[-1:] = [f"{map_noun} {human(step.key)}"]
            noun = True
        else:
            parts.append(human(step.key))
            noun = False
        keys = keys + (step.key,)
    return parts, noun


def _param_subject(path: tuple, docs: Mapping[str, str], short: bool) -> tuple[list, bool]:
    name = path[1].key
    doc = docs.get(name, "")
    rest = [s.key for s in path[2:] if s.index is None]
    if not rest:
        return [f"parameter {human(name)}"], True
    if rest == ["default"]:
        return [human(name) + (f" ({doc})" if doc and not short else "")], False
    return [human(name)] + [human(k) for k in rest], False


def _type_at(path: tuple) -> Optional[Type]:
    t: Optional[Type] = RULESET
    for step in path:
        t = child_type(t, step.key if step.index is None else step.index)
    return t


def value_words(v: Any, t: Optional[Type] = None, short: bool = False) -> str:
    """A plain value in words (its type ``t`` says whether a text is a formula)."""
    text = _words(v, t, short)
    limit = SHORT_VALUE if short else LONG_VALUE
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def _words(v: Any, t: Optional[Type], short: bool) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "none"
    if isinstance(v, str):
        word = not is_formula(t) or v in getattr(t, "choices", ())     # one of a few words, or a formula
        return _word(v) if word else _formula(v, short)
    if isinstance(v, list):
        items = [_words(x, child_type(t, i), short) for i, x in enumerate(v)]
        if short and len(items) > 6:
            items = items[:3] + ["..."] + items[-1:]
        return "[" + ", ".join(items) + "]"
    if isinstance(v, dict):
        if short:
            return "{...}" if v else "{}"
        return "{" + ", ".join(f"{k}: {_words(x, child_type(t, k), short)}" for k, x in v.items()) + "}"
    return str(v)


def _word(v: str) -> str:
    """A text that is a name reads as words; anything else is quoted."""
    if _IDENT.match(v):
        return human(v)
    return v if v and not any(ch.isspace() for ch in v) else '"' + v + '"'


def _formula(v: str, short: bool) -> str:
    """An expression: words where it follows a known pattern, else the formula in backticks."""
    text = " ".join(v.split())
    for pattern, words in _PATTERNS:
        m = pattern.match(text)
        if m:
            return words.format(*(human(g) for g in m.groups()))
    if short and len(text) > SHORT_FORMULA:
        text = text[:SHORT_FORMULA - 3].rstrip() + "..."
    return f"`{text}`"
