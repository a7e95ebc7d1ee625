"""`unparse` writes an expression's canonical text, which parses back to the same expression: the
writers (YAML and DSL conversion), `explain` and the rulebook print expressions with it, so a missing
pair of parentheses would change what a converted ruleset means.  Checked on the constructs where
precedence decides (an `if` as an operand, mixed `and` / `or`, subtraction, comparisons of comparisons)
and, with Hypothesis, on random expression trees of every construct."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesdsl.expr.ast import E, parse, unparse


def _same(e: E) -> E:
    back, diag = parse(unparse(e))
    assert diag is None, (unparse(e), diag)
    return back


@pytest.mark.parametrize("text", [
    "(if a then b else c) or d",          # an if on the left of or: without parentheses `d` joins the else
    "(if a then b else c) and d",
    "d or (if a then b else c)",
    "(if a then 1 else 2) + 3",
    "not (if a then b else c)",
    "count(x for x in hand where (if a then x > 1 else x < 1))",
    "a - (b - c)", "(a - b) - c", "a * (b + c)", "-(a + b)", "-(a * b)", "-a * b",
    "(a or b) and c", "a or b and c", "not (a and b)",
    "(a == b) == c", "(a in b) in c", "(a < b) + 1",
])
def test_canonical_text_parses_back_to_the_same_expression(text):
    """Kills a precedence slip in `unparse` (`_PREC`, the `wrap` thresholds): each text's canonical form
    must parse to the expression the text means."""
    e, diag = parse(text)
    assert diag is None
    assert _same(e) == e


NAMES = st.sampled_from([E("name", ("a",)), E("name", ("b",)), E("name", ("hand",)), E("const", (1,)),
                         E("const", (True,)), E("const", ("x y",))])


def _node(sub):
    return st.one_of(
        st.tuples(st.sampled_from(["and", "or"]), sub, sub).map(lambda t: E(t[0], (t[1], t[2]))),
        sub.map(lambda x: E("not", (x,))),
        sub.map(lambda x: E("neg", (x,))),
        st.tuples(st.sampled_from(["+", "-", "*", "/"]), sub, sub).map(lambda t: E("bin", t)),
        st.tuples(st.sampled_from(["==", "<", ">="]), sub, sub).map(lambda t: E("cmp", t)),
        st.tuples(sub, sub).map(lambda t: E("in", t)),
        st.tuples(sub, sub, sub).map(lambda t: E("if", t)),
        st.lists(sub, max_size=3).map(lambda xs: E("list", tuple(xs))),
        st.tuples(sub, sub).map(lambda t: E("call", ("max", t[0], t[1]))),
        sub.map(lambda x: E("attr", (x, "rank"))),
        st.tuples(sub, sub).map(lambda t: E("index", t)),
        st.tuples(sub, sub, st.one_of(st.none(), sub)).map(
            lambda t: E("comp", ("count", t[0], "x", t[1], t[2]))),
    )


TREES = st.recursive(NAMES, _node, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(TREES)
def test_every_expression_tree_survives_its_canonical_text(e):
    """Any tree of the expression constructs, written by `unparse` and parsed again, is the same tree."""
    assert _same(e) == e
