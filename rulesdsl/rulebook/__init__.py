"""``rulesdsl rulebook``: a readable rulebook generated from a resolved ruleset.

The rulebook is built as a small document (``document.py``) by one module per part of the game
(``cards``, ``dealing``, ``turns``, ``ending``, ``house``), with expressions folded by the values in
force (``fold.py``) and read as words where a pattern is recognisable (``words.py``); ``markdown.py``
and ``html.py`` write it out.  Nothing here knows any particular game: everything said comes from the
ruleset's sections, names and ``doc:`` texts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Sequence

from . import cards, dealing, ending, house, turns
from .context import Base, Context
from .document import Code, Document, Para, Section, cat, sentence

FORMATS = ("md", "html")


def build(rules: Any, base: Optional[Base] = None) -> Document:
    """The rulebook of a loaded ``Rules``; ``base`` is the game its house rules are measured against."""
    ctx = Context(rules, base)
    m = ctx.model
    intro = []
    if m.description:
        intro.append(Para(sentence((m.description,))))
    if base is not None and base.name != m.name:
        intro.append(Para(sentence(cat("A variant of ", base.name, "; its house rules are listed at the end"))))
    elif base is not None and rules.source and rules.source != base.label:
        intro.append(Para(sentence(cat("Played with the house rules of ", Code(rules.source), ", listed at the end"))))
    elif base is not None:
        intro.append(Para(("Played with house rules, listed at the end.",)))
    sections = [cards.players_and_deck(ctx), cards.zones(ctx)]
    if m.melds and (m.table or m.go_out or m.turn):
        sections.append(cards.melds(ctx))
    sections += [dealing.deal(ctx), turns.turn(ctx), ending.going_out(ctx), ending.scoring(ctx), ending.match(ctx),
                 house.house_rules(ctx), house.terms(ctx), house.parameters(ctx)]
    return Document(m.name, tuple(intro), tuple(s for s in sections if _has_content(s)))


def _has_content(s: Section) -> bool:
    return bool(s.blocks)


def render(rules: Any, fmt: str = "md", base: Optional[Base] = None) -> str:
    """The rulebook as Markdown (``md``) or one self-contained HTML page (``html``)."""
    from . import html, markdown

    if fmt not in FORMATS:
        raise ValueError(f"unknown rulebook format `{fmt}` (use {' or '.join(FORMATS)})")
    doc = build(rules, base)
    return markdown.render(doc) if fmt == "md" else html.render(doc)


def base_of(rules: Any, allow_paths: Sequence = ()) -> Optional[Base]:
    """The game ``rules`` is measured against: the ruleset its file ``extends`` (with that base's own
    defaults), else, when overrides were given, the same ruleset without them; None for a game as
    written."""
    from ..rules import load
    from ..source.resolve import find, read_file
    from ..source.tree import Map, Scalar

    dotted = {k: v for k, v in (rules.overrides or {}).items() if "." in k}
    tree = read_file(rules.path) if rules.path is not None else None
    ext = tree.get("extends") if isinstance(tree, Map) else None
    if isinstance(ext, Scalar) and isinstance(ext.value, str):
        path = find(ext.value, rules.path.parent)
        if path is not None:
            base = load(Path(path).resolve(), allow_paths=allow_paths)
            return Base(base.name, ext.value, base.params, dotted)
    if rules.overrides and rules.source:
        plain = load(rules.source, allow_paths=allow_paths)
        return Base(plain.name, rules.source, plain.params, dotted)
    return None


def rulebook(name: str, fmt: str = "md", overrides: Optional[dict] = None, allow_paths: Sequence = ()) -> str:
    """Load ``name`` (a bundled name or a file) with ``overrides`` and render its rulebook."""
    from ..rules import load

    rules = load(name, overrides or None, allow_paths=allow_paths)
    return render(rules, fmt, base_of(rules, allow_paths))
