"""The language server's reading of a cursor's place, without the protocol (and without pygls): on
every key written in every bundled game, in YAML and in the DSL, the cursor is on a key that the
schema allows at that path; half-typed text still gives the enclosing path."""

from __future__ import annotations

import re

import pytest

from rulesdsl.lsp.cursor import Context, context
from rulesdsl.lsp.keys import keys_at, type_at
from rulesdsl.source.resolve import bundled_names, read_file
from rulesdsl.source.writer import to_dsl

GAMES = [(name, path) for name, path in bundled_names() if "/" not in name]
#: a key at the start of a YAML line (after item marks), or inside a flow mapping
YAML_KEYS = re.compile(r"^(?:\s*(?:-\s+)*)(?P<k>[A-Za-z_]\w*)\s*:(?=\s|$)|(?<=[{,] )(?P<f>[A-Za-z_]\w*): ", re.M)
DSL_KEYS = re.compile(r"^\s*(?P<k>[A-Za-z_]\w*)\s*(?:=|\{)", re.M)


def _keys(text: str, pattern: "re.Pattern[str]"):
    for m in pattern.finditer(text):
        group = "k" if m.group("k") else "f"
        at = m.start(group)
        line = text.count("\n", 0, at)
        yield m.group(group), line, at - (text.rfind("\n", 0, at) + 1)


@pytest.mark.parametrize("name,path", GAMES, ids=[n for n, _ in GAMES])
def test_every_written_key_is_a_key_the_schema_allows_there(name, path):
    for text, dsl, pattern in ((path.read_text(encoding="utf-8"), False, YAML_KEYS),
                               (to_dsl(read_file(path)), True, DSL_KEYS)):
        seen = 0
        for key, line, char in _keys(text, pattern):
            ctx = context(text, line, char, dsl)
            assert ctx.mode == "key", (key, line, ctx)
            allowed = keys_at(ctx.path)
            if allowed:                       # a mapping of the schema's keys (not of the user's names)
                assert key in allowed, (key, line, ctx)
                seen += 1
            else:
                assert type_at(ctx.path) is not None, (key, line, ctx)
        assert seen > 20


@pytest.mark.parametrize("text,line,char,expected", [
    ("params:\n  kno", 1, 5, Context(("params",), "key")),
    ("deck:\n  ranks: [A]\n  ", 2, 2, Context(("deck",), "key")),
    ("turn:\n  - step: draw\n    act", 2, 7, Context(("turn", "[]"), "key")),
    ("turn:\n- step: draw\n  actions:\n  - {draw: st", 3, 13, Context(("turn", "[]", "actions", "[]", "draw"), "value")),
    ("zones:\n  stock: {visible: no", 1, 21, Context(("zones", "stock", "visible"), "value")),
    ("derived:\n  limit: >-\n    if params.", 2, 14, Context(("derived", "limit"), "value")),
    ("first_turn:\n  to: [dealer, le", 1, 17, Context(("first_turn", "to"), "value")),
])
def test_half_typed_yaml(text, line, char, expected):
    assert context(text, line, char, dsl=False) == expected


@pytest.mark.parametrize("text,line,char,expected", [
    ("params {\n  kno", 1, 5, Context(("params",), "key")),
    ("deal = [\n  { deal = params.", 1, 18, Context(("deal", "[]", "deal"), "value")),
    ("zones { stock { visible = ", 0, 26, Context(("zones", "stock", "visible"), "value")),
    ("match {\n  ends_when = max_score >= 10\n  ", 2, 2, Context(("match",), "key")),
])
def test_half_typed_dsl(text, line, char, expected):
    assert context(text, line, char, dsl=True) == expected
