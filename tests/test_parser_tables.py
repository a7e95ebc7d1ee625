"""The shipped parser (Lark's standalone module, generated ahead of time) is the grammar's parser.

``rulesdsl/source/_lark_standalone.py`` is generated from ``grammar/rules.lark`` so that a start
neither imports Lark nor builds LALR tables.  These tests fail when the grammar changes without
regenerating it, and check that it parses exactly as Lark itself does with the grammar: the same trees,
positions and errors, on every bundled ruleset written as DSL and on random text.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.source import build_parser, grammar
from rulesdsl.source.resolve import bundled_names, load_tree
from rulesdsl.source.writer import to_dsl

lark = pytest.importorskip("lark")


def test_shipped_tables_match_the_grammar_file():
    """The module records the digest of the grammar it was made from; `--check` compares it."""
    text = grammar.grammar_path().read_text(encoding="utf-8")
    from rulesdsl.source import _lark_standalone
    assert _lark_standalone.GRAMMAR_SHA256 == build_parser.grammar_digest(text), \
        "grammar/rules.lark changed: run python -m rulesdsl.source.build_parser"
    assert build_parser.main(["--check"]) == 0


def test_check_notices_a_changed_grammar(tmp_path, monkeypatch):
    changed = tmp_path / "rules.lark"
    changed.write_text(grammar.grammar_path().read_text(encoding="utf-8") + "\n// edited\n", encoding="utf-8")
    monkeypatch.setattr(build_parser, "grammar_path", lambda: changed)
    assert build_parser.main(["--check"]) == 1


def test_startup_does_not_import_lark():
    """The point of shipping tables: a load needs neither Lark nor a table build."""
    import subprocess
    import sys
    code = ("import sys, rulesdsl; rulesdsl.load('gin_rummy'); "
            "print(any(m == 'lark' or m.startswith('lark.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


_reference = None


def reference_parser():
    """Lark building the same grammar at run time, with the same options and post-lexer."""
    global _reference
    if _reference is None:
        _reference = lark.Lark(grammar.grammar_path().read_text(encoding="utf-8"), parser="lalr",
                               propagate_positions=True, start=list(build_parser.STARTS),
                               postlex=grammar._PostLexer(), maybe_placeholders=True)
    return _reference


def shape(node):
    """A tree as plain data: rule names, token types and values, and every position."""
    if isinstance(node, (grammar.Token, lark.Token)):
        return ("tok", node.type, str(node), node.line, node.column, node.end_line, node.end_column,
                node.start_pos, node.end_pos)
    if node is None:
        return None
    m = node.meta
    meta = None if m.empty else (m.line, m.column, m.end_line, m.end_column, m.start_pos, m.end_pos,
                                 getattr(m, "container_start_pos", None), getattr(m, "container_end_pos", None))
    return (str(node.data), meta, [shape(c) for c in node.children])


def outcome(parser, text: str, start: str):
    try:
        return ("ok", shape(parser.parse(text, start=start)))
    except Exception as exc:            # both raise the same kind of error at the same place
        return ("error", type(exc).__name__, getattr(exc, "line", None), getattr(exc, "column", None),
                sorted(getattr(exc, "expected", None) or ()))


def shipped():
    return grammar.get_parser()


@pytest.mark.parametrize("name", [n for n, _ in bundled_names()])
def test_every_bundled_ruleset_parses_the_same(name):
    text = to_dsl(load_tree(name)[0])
    assert outcome(shipped(), text, "document") == outcome(reference_parser(), text, "document")
    assert outcome(shipped(), text, "document")[0] == "ok"


PIECES = ["count(stock)", " > ", "params.knock_limit", " and ", "not ", "(", ")", "[", "]", ", ", "1", "-2",
          "\"s\"", "if ", " then ", " else ", "x", ".", "==", "+", "*", "//", "%", "\n", "{", "}", " = ", ";",
          "sum(c.value for c in hand where c.wild)", "10H", "none", "true", "in ", "'q'", "#", "@", "\\"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.sampled_from(build_parser.STARTS))
def test_random_text_parses_or_fails_the_same(pieces, start):
    text = "".join(pieces)
    assert outcome(shipped(), text, start) == outcome(reference_parser(), text, start)
