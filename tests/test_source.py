"""The source layer: YAML and DSL readers, positions, safety, and writers that round-trip."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.errors import RulesetError
from rulesdsl.source import MAX_DEPTH, MAX_NUMBER, MAX_TEXT_CHARS
from rulesdsl.source.dsl_reader import read_dsl
from rulesdsl.source.grammar import (get_parser, grammar_path, parse_document_tree, parse_expr_tree,
                                     quote_string, string_value)
from rulesdsl.source.tree import Map, Pos, Scalar, Seq
from rulesdsl.source.writer import float_text, to_dsl, to_yaml
from rulesdsl.source.yaml_reader import read_yaml


def codes(exc: RulesetError) -> list[str]:
    return [d.code for d in exc.diagnostics]


def yaml_error(text: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        read_yaml(text, "t.yaml")
    return info.value


def dsl_error(text: str) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        read_dsl(text, "t.rules")
    return info.value


# ------------------------------------------------------------------------------------------ grammar
def test_grammar_is_found_and_parser_is_built_once():
    assert grammar_path().name == "rules.lark" and grammar_path().is_file()
    assert get_parser() is get_parser()


def test_expr_start_and_document_start():
    assert parse_expr_tree("deadwood(hand) <= params.knock_limit").data == "compare"
    assert parse_expr_tree("count(x for x in hand where x > 2)").data == "call"
    assert parse_document_tree("a = 1\nb { c = 2 }\n").data == "document"


def test_newlines_are_dropped_inside_brackets_but_not_blocks():
    tree = read_dsl("a = f(1,\n  2)\nb = [1,\n 2,\n {\n  c = 3\n  d = 4\n }\n]\n", "t.rules")
    assert tree.plain() == {"a": "f(1,\n  2)", "b": [1, 2, {"c": 3, "d": 4}]}


@pytest.mark.parametrize("token, value", [
    ('"plain"', "plain"), ("'single'", "single"), (r'"a\"b"', 'a"b'), (r'"tab\tnl\n"', "tab\tnl\n"),
    (r'"\x41\u00e9\U0001F600"', "A\u00e9\U0001F600"), (r"'it\'s'", "it's"), ('"é"', "é"),
])
def test_string_values(token, value):
    assert string_value(token) == value
    assert string_value(quote_string(value)) == value


@pytest.mark.parametrize("token", [r'"\q"', r'"\ud800"', r'"\U00110000"'])
def test_bad_string_escapes(token):
    with pytest.raises(ValueError):
        string_value(token)


# ------------------------------------------------------------------------------------------ DSL
DSL = '''\
# a comment
name = "A game"   # trailing comment
players = 2
ratio = 1.5
neg = -3
flag = true
nothing = none
word = knock
rule = deadwood(hand) <= params.knock_limit
paren = (a + b) * 2
"10" = 10
10H = x
deck {
  ranks = [A, 2, 3]
  items = [
    {a = 1; b = 2},
    [1, 2],
    count(x for x in hand where x > 2),
  ]
}
'''


def test_dsl_values():
    tree = read_dsl(DSL, "g.rules")
    assert tree.plain() == {
        "name": "A game", "players": 2, "ratio": 1.5, "neg": -3, "flag": True, "nothing": None,
        "word": "knock", "rule": "deadwood(hand) <= params.knock_limit", "paren": "(a + b) * 2",
        "10": 10, "10H": "x",
        "deck": {"ranks": ["A", 2, 3],
                 "items": [{"a": 1, "b": 2}, [1, 2], "count(x for x in hand where x > 2)"]},
    }
    assert type(tree["ratio"].value) is float and type(tree["neg"].value) is int


def test_dsl_positions():
    tree = read_dsl(DSL, "g.rules")
    assert tree.pos == Pos("g.rules", 1, 1)
    assert tree.key_pos["name"] == Pos("g.rules", 2, 1)
    assert tree["name"].pos == Pos("g.rules", 2, 8) and tree["name"].text_offset == 1
    assert tree["neg"].pos == Pos("g.rules", 5, 7)
    assert tree["rule"].pos == Pos("g.rules", 9, 8) and tree["rule"].text_offset == 0
    assert tree["paren"].pos == Pos("g.rules", 10, 9)
    assert tree.key_pos["10"] == Pos("g.rules", 11, 1)
    deck = tree["deck"]
    assert deck.pos == Pos("g.rules", 13, 6)
    assert deck.key_pos["items"] == Pos("g.rules", 15, 3)
    items = deck["items"]
    assert items.pos == Pos("g.rules", 15, 11)
    assert items.items[0].pos == Pos("g.rules", 16, 5)
    assert items.items[0].key_pos["b"] == Pos("g.rules", 16, 13)
    assert items.items[2].pos == Pos("g.rules", 18, 5)


def test_dsl_expression_text_is_exact():
    tree = read_dsl("a = (x + y)\nb = [ (p),  q  or  r ]\nc = f(1,  # note\n  2)\n", "t.rules")
    assert tree["a"].value == "(x + y)"
    assert tree["b"].plain() == ["p", "q  or  r"]
    assert tree["c"].value == "f(1,  # note\n  2)"


def test_dsl_duplicate_keys_name_both_places():
    err = dsl_error("a = 1\nb { x = 1\n  x = 2 }\na = 3\n")
    assert codes(err) == ["E-DUP-KEY", "E-DUP-KEY"]
    first = err.diagnostics[0]
    assert (first.pos.line, first.pos.col) == (3, 3) and "t.rules:2:5" in first.message
    assert "t.rules:4:1: error[E-DUP-KEY]" in str(err) and "t.rules:1:1" in str(err)


@pytest.mark.parametrize("text, line, col, expect", [
    ("a b", 1, 3, "`=`"),
    ("a = 1\nb = (1\n", 2, 5, "close it with `)`"),          # reported where the `(` opens
    ("a = ", 1, 5, "a name"),
    ("in = 3", 1, 1, "keyword"),
    ("a = 'x\n", 1, 5, "close it"),
    ("a = 1 }", 1, 7, "the end of the file"),
    ("a = 1\n  b == 2\n", 2, 6, "a name"),
    ("a = $", 1, 5, "a name"),
    ("hand = [10H, 9S]", 1, 11, '"10H"'),
])
def test_dsl_syntax_errors_are_located(text, line, col, expect):
    err = dsl_error(text)
    (diag,) = err.diagnostics
    assert diag.code == "E-SYNTAX"
    assert (diag.pos.line, diag.pos.col) == (line, col)
    assert expect in diag.hint


def test_dsl_bounds():
    assert codes(dsl_error("a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))) == ["E-DEPTH"]
    assert codes(dsl_error("a = " + "not " * 1000 + "x")) == ["E-DEPTH"]
    assert codes(dsl_error("a = 1\n" + "#" * MAX_TEXT_CHARS)) == ["E-TOO-BIG"]
    assert codes(dsl_error("a = " + "9" * 5000)) == ["E-NUMBER"]
    assert codes(dsl_error('a = "\\q"')) == ["E-SYNTAX"]


def test_dsl_empty_document_is_an_empty_map():
    assert read_dsl("", "t.rules") == Map({})
    assert read_dsl("\n# only a comment\n\n", "t.rules") == Map({})


# ------------------------------------------------------------------------------------------ YAML
YAML = '''\
# a comment
name: "A game"
players: 2
deck:
  ranks: [A, 2, 3]
  items:
    - a: 1
      b: 2
    - rule: deadwood(hand) <= params.knock_limit
10: ten
'''


def test_yaml_positions():
    tree = read_yaml(YAML, "g.yaml")
    assert tree.key_pos["name"] == Pos("g.yaml", 2, 1)
    assert tree["name"].pos == Pos("g.yaml", 2, 7) and tree["name"].text_offset == 1
    assert tree["players"].pos == Pos("g.yaml", 3, 10) and tree["players"].text_offset == 0
    deck = tree["deck"]
    assert deck.pos == Pos("g.yaml", 5, 3) and deck.key_pos["ranks"] == Pos("g.yaml", 5, 3)
    assert deck["ranks"].pos == Pos("g.yaml", 5, 10)
    assert deck["ranks"].items[1].pos == Pos("g.yaml", 5, 14)
    items = deck["items"]
    assert items.items[0].key_pos["b"] == Pos("g.yaml", 8, 7)
    assert items.items[1]["rule"].pos == Pos("g.yaml", 9, 13)
    assert tree.key_pos["10"] == Pos("g.yaml", 10, 1)


@pytest.mark.parametrize("text, value", [
    ("no", "no"), ("on", "on"), ("off", "off"), ("yes", "yes"), ("y", "y"), ("n", "n"),
    ("1e3", "1e3"), ("1.5e3", "1.5e3"), ("0x10", "0x10"), ("0o7", "0o7"), ("1_000", "1_000"),
    (".inf", ".inf"), (".nan", ".nan"), ("2001-12-14", "2001-12-14"), ("1:30", "1:30"), ("=", "="),
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("FALSE", False),
    ("null", None), ("~", None), ("", None), ("NULL", None),
    ("10", 10), ("-3", -3), ("+4", 4), ("010", 10), ("1.5", 1.5), ("-0.25", -0.25), ("1.", 1.0),
    ('"10"', "10"), ("'true'", "true"), ("!!str 10", "10"), ("10H", "10H"),
])
def test_yaml_schema_has_no_yaml11_surprises(text, value):
    node = read_yaml(f"v: {text}\n", "t.yaml")["v"]
    assert type(node.value) is type(value) and node.value == value


def test_yaml_keys_are_text():
    tree = read_yaml("10: a\ntrue: b\n1.50: c\nnull: d\n", "t.yaml")
    assert list(tree.keys()) == ["10", "true", "1.50", "null"]


def test_yaml_duplicate_keys_name_both_places():
    err = yaml_error("a: 1\nb:\n  x: 1\n  x: 2\na: 3\n")
    assert codes(err) == ["E-DUP-KEY", "E-DUP-KEY"]
    assert err.diagnostics[0].pos == Pos("t.yaml", 4, 3) and "t.yaml:3:3" in err.diagnostics[0].message
    assert err.diagnostics[1].pos == Pos("t.yaml", 5, 1) and "t.yaml:1:1" in err.diagnostics[1].message


@pytest.mark.parametrize("text, code", [
    ("a: &x [1, 2]\nb: *x\n", "E-YAML-ANCHOR"),
    ("a: &x [1, 2]\nb: *x\n", "E-YAML-ALIAS"),
    ("base: {a: 1}\n<<: {b: 2}\n", "E-YAML-MERGE"),
    ("a: !!python/object/apply:os.system [ls]\n", "E-YAML-TAG"),
    ("a: !custom x\n", "E-YAML-TAG"),
    ("a: !!int '3'\n", "E-YAML-TAG"),
    ("? [1, 2]\n: x\n", "E-YAML-KEY"),
    ("a: 1\n---\nb: 2\n", "E-YAML"),
    ("a: " + "9" * 5000 + "\n", "E-NUMBER"),
    ("a: 1\n" + "#" * MAX_TEXT_CHARS, "E-TOO-BIG"),
    ("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "E-DEPTH"),
])
def test_yaml_unsafe_or_ambiguous_input_is_rejected(text, code):
    assert code in codes(yaml_error(text))


def test_billion_laughs_is_rejected_quickly():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    err = yaml_error("\n".join(lines))
    assert "E-YAML-ALIAS" in codes(err)


def test_quoted_merge_key_is_a_plain_key():
    assert read_yaml('"<<": 1\n', "t.yaml").plain() == {"<<": 1}


@pytest.mark.parametrize("text, line, col", [
    ("a: b: c\n", 1, 5),
    ("a:\n\tb: 1\n", 2, 1),
    ("a: 'x\n", 2, 1),
    ("a: [1, 2\n", 2, 1),
    ("- a\nb: 1\n", 2, 1),
    ("a: \x01\n", 1, 4),
])
def test_yaml_syntax_errors_are_located(text, line, col):
    (diag,) = yaml_error(text).diagnostics
    assert diag.code == "E-YAML" and (diag.pos.line, diag.pos.col) == (line, col)
    assert diag.message.startswith("invalid YAML: ")


def test_yaml_empty_file_is_an_empty_map():
    assert read_yaml("", "t.yaml") == Map({})
    assert read_yaml("# nothing\n", "t.yaml") == Map({})


def test_both_syntaxes_give_the_same_tree():
    dsl = read_dsl(DSL, "g.rules")
    assert read_yaml(to_yaml(dsl), "g.yaml") == dsl
    yml = read_yaml(YAML, "g.yaml")
    assert read_dsl(to_dsl(yml), "g.rules") == yml


# ------------------------------------------------------------------------------------------ writers
@pytest.mark.parametrize("value, text", [
    (1e20, "100000000000000000000.0"), (1.5e-7, "0.00000015"), (-0.0, "-0.0"), (2.0, "2.0"),
    (0.1, "0.1"),
])
def test_float_text(value, text):
    assert float_text(value) == text


def test_non_finite_floats_cannot_be_written():
    with pytest.raises(ValueError):
        to_yaml(Scalar(math.inf))


def test_writers_quote_only_when_needed():
    tree = Map({"a": Scalar("knock"), "b": Scalar("x + 1"), "c": Scalar("true"), "d": Scalar("10"),
                "e": Scalar("no"), "f": Scalar("a: b"), "in": Scalar("(p)"), "10": Scalar(10)})
    assert to_yaml(tree) == ('a: knock\nb: x + 1\nc: "true"\nd: "10"\ne: "no"\nf: "a: b"\n'
                             'in: (p)\n10: 10\n')
    assert to_dsl(tree) == ('a = knock\nb = x + 1\nc = "true"\nd = "10"\ne = no\nf = "a: b"\n'
                            '"in" = "(p)"\n10 = 10\n')


@pytest.mark.parametrize("text", [
    "", " ", "a\r\nb", "\x85", "\u2028", "\ufeff", "\x00", "\x7f", "é", "\U0001F600", "'", '"', "\\",
    "- x", "? x", "x:", "a #b", "---", "...", "<<", "%x", "@x", "`x`", "!x", "&x", "*x", "|", ">", "{}", "[]",
    "1e3", "0x10", ".5", "+1", "1_0", "yes", "Null", "x" * 2000,
])
def test_writers_round_trip_odd_strings(text):
    tree = Map({text: Scalar(text), "list": Seq([Scalar(text), Map({text: Scalar(text)})])})
    assert read_yaml(to_yaml(tree), "t.yaml") == tree
    assert read_dsl(to_dsl(tree), "t.rules") == tree


def test_dsl_writer_needs_a_map():
    with pytest.raises(TypeError):
        to_dsl(Seq([]))


EXPRESSIONS = ["a + b", "(a + b)", "f(x)", "not x", "x[0]", "[1] + [2]", "a  +  b", "-x", "--3",
               "a.b", "if a then b else c", "count(x for x in hand where x > 2)", "x in [1, 2]",
               "f(1,\n 2)", "(a) # c", " a", "a ", "[1, 2]", "(3)", "-3", "'q'", "f(", "a\nb", "x.1"]
keys = st.one_of(st.text(max_size=12), st.sampled_from(["a", "b_c", "10", "10H", "-1", "in", "true", "<<"]))
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-MAX_NUMBER, MAX_NUMBER),       # the readers refuse larger ones
    st.floats(-MAX_NUMBER, MAX_NUMBER, allow_nan=False, allow_infinity=False),
    st.text(), st.sampled_from(EXPRESSIONS),
).map(Scalar)
trees = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4).map(Seq),
                           st.dictionaries(keys, kids, max_size=4).map(Map)),
    max_leaves=25,
)
maps = st.dictionaries(keys, trees, max_size=5).map(Map)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_yaml_round_trip(tree):
    assert read_yaml(to_yaml(tree), "t.yaml") == tree


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_dsl_round_trip(tree):
    assert read_dsl(to_dsl(tree), "t.rules") == tree


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(maps)
def test_yaml_file_to_dsl_and_back(tree):
    from_yaml = read_yaml(to_yaml(tree), "t.yaml")
    assert read_dsl(to_dsl(from_yaml), "t.rules") == from_yaml
    assert read_yaml(to_yaml(read_dsl(to_dsl(from_yaml), "t.rules")), "t.yaml") == tree


@settings(max_examples=50)
@given(maps)
def test_writers_are_deterministic(tree):
    assert to_yaml(tree) == to_yaml(read_yaml(to_yaml(tree), "t.yaml"))
    assert to_dsl(tree) == to_dsl(read_dsl(to_dsl(tree), "t.rules"))


# ------------------------------------------------------------------------------------------ fuzz
def only_ruleset_errors(reader, text: str) -> None:
    try:
        result = reader(text, "fuzz")
    except RulesetError as exc:
        assert exc.diagnostics and all(d.code.startswith("E-") and d.pos.line >= 1 for d in exc.diagnostics)
    else:
        assert isinstance(result, (Map, Seq, Scalar))


SPECIAL = list("{}[]()=:;,.-#\"'\\\n\t !&*|>?%@`~<") + ["if ", " in ", "not", "---", "\n  ", "- "]
mutation = st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=3),
                     st.one_of(st.sampled_from(SPECIAL), st.text(max_size=3)))


def mutate(text: str, edits) -> str:
    for where, how, piece in edits:
        i = where % (len(text) + 1)
        if how == 0:
            text = text[:i] + piece + text[i:]
        elif how == 1:
            text = text[:i] + text[i + 1:]
        elif how == 2:
            text = text[:i] + piece + text[i + 1:]
        else:
            text = text[:i] + text[i:][::-1][:len(piece)] + text[i + len(piece):]
    return text


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(SPECIAL), st.text(max_size=3)), max_size=60).map("".join))
def test_fuzz_arbitrary_text(text):
    only_ruleset_errors(read_yaml, text)
    only_ruleset_errors(read_dsl, text)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutation, min_size=1, max_size=6))
def test_fuzz_mutated_documents(edits):
    only_ruleset_errors(read_dsl, mutate(DSL, edits))
    only_ruleset_errors(read_yaml, mutate(YAML, edits))


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(maps, st.lists(mutation, min_size=1, max_size=4))
def test_fuzz_mutated_written_documents(tree, edits):
    only_ruleset_errors(read_dsl, mutate(to_dsl(tree), edits))
    only_ruleset_errors(read_yaml, mutate(to_yaml(tree), edits))
