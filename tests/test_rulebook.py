"""``rulesdsl rulebook``: every bundled game and variant renders, the HTML is well formed, the numbers in
force and ``doc:`` texts appear where they belong, a variant names its base and what it changes, and
expressions read as words where a pattern is recognisable (a formula otherwise)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.expr.ast import parse
from rulesdsl.model.game import build_ruleset
from rulesdsl.errors import Diagnostics
from rulesdsl.rulebook import base_of, build, render, rulebook
from rulesdsl.rulebook.document import Code, from_markup, plain
from rulesdsl.rulebook.fold import Folder
from rulesdsl.rulebook.words import Words
from rulesdsl.source.dsl_reader import read_dsl
from rulesdsl.source.resolve import bundled_dir, bundled_names, read_file
from rulesdsl.source.writer import to_dsl

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "rulebook-example.md"
SECTIONS = ("Players and cards", "The deal", "Scoring", "The end of the match", "House rules", "Parameters in force")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Balance(HTMLParser):
    """Checks that every element is closed, in order (a strict reading of the page)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list = []
        self.problems: list = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):     # <meta ... />: opened and closed at once
        pass

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.problems.append(tag)


def well_formed(page: str) -> ET.Element:
    checker = Balance()
    checker.feed(page)
    checker.close()
    assert not checker.problems and not checker.stack, (checker.problems, checker.stack)
    return ET.fromstring(page.split("\n", 1)[1])       # XML, after the doctype line


def books(name: str, **overrides):
    rules = rulesdsl.load(name, overrides or None)
    base = base_of(rules)
    return render(rules, "md", base), render(rules, "html", base)


@pytest.mark.parametrize("name", [n for n, _ in bundled_names()])
def test_every_bundled_ruleset_renders_in_both_formats(name):
    md, page = books(name)
    for title in SECTIONS:
        assert f"## {title}" in md
    root = well_formed(page)
    assert root.tag == "html"
    assert not re.search(r"<(script|link|img|iframe)\b|https?://", page)    # self-contained
    assert root.find("head/style") is not None
    if name.startswith("variants/"):
        assert "Base game:" in md


def _line(md: str, start: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(start))


def test_the_numbers_in_force_appear_where_the_rule_is_described():
    md, _ = books("gin_rummy", knock_limit=5)
    knock = _line(md, "- `knock`:")
    assert "at most 5" in knock and "10" not in knock
    assert "at most 10" in _line(books("gin_rummy")[0], "- `knock`:")
    draw = _line(md, "   - Draw the top card")
    assert "more than 2 cards remain in the stock" in draw
    assert "more than 4 cards remain" in _line(books("gin_rummy", stock_floor=4)[0], "   - Draw the top card")


def test_the_exchange_reads_as_passes_at_once_or_by_finishing_positions():
    """The exchange's part of the deal: passes every player makes at once (`to`), and cards that change
    hands by the last deal's positions (`giver` / `receiver`), each said only where the ruleset has it."""
    president, _ = books("president")
    assert "From the second deal on, before the first lead, cards change hands by the finishing" in president
    assert "- Position -1 gives 1 of their highest cards to position 1." in president
    assert "- Position 1 gives 1 of their chosen cards to position -1." in president
    assert "every player passes cards" not in president
    hearts, _ = books("hearts")
    assert "Before the first lead, every player passes cards, all at once:" in hearts
    assert "- Each player gives 3 of their chosen cards to " in hearts and "From the second deal on" not in hearts


def test_the_trick_rules_say_when_a_suit_is_broken():
    """`tricks.broken` in words: Hearts' hearts are broken once a heart is played (the queen of spades
    too only where the house rule is on, and then the rulebook says so)."""
    hearts, _ = books("hearts")
    assert "- `broken.hearts` holds once a card is played for which the card's suit is H." in hearts
    queen, _ = books("hearts", queen_breaks_hearts=True)
    line = next(x for x in queen.splitlines() if x.startswith("- `broken.hearts` holds once"))
    assert "Q" in line and "S" in line


def test_a_switched_off_branch_vanishes_and_appears_when_switched_on():
    off, _ = books("gin_rummy")
    on, _ = books("gin_rummy", big_gin_enabled=True)
    assert "big_gin" not in off.split("## House rules")[0]
    assert "- `big_gin`:" in on and "ended by `big_gin`: the declarer scores 31" in on


def test_doc_text_on_steps_parameters_and_go_outs_appears():
    md, page = books("gin_rummy")
    assert "Step `draw`. Every turn begins by taking one card." in md
    assert "Every turn begins by taking one card." in page
    assert "the most deadwood a player may knock with" in _line(md, "| `knock_limit` |")
    assert "whoever has less deadwood scores the difference" in _line(md, "- `knock`:")


def test_doc_text_is_escaped_in_html_and_markdown(tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text('extends: gin_rummy\nstock_out: {doc: "a <b>bold</b> & *starred* | piped `code`"}\n'
                 'match: {doc: "ends </section> here"}\n')
    rules = rulesdsl.load(str(f))
    page = render(rules, "html", base_of(rules))
    well_formed(page)
    assert "<b>" not in page and "&lt;b&gt;bold&lt;/b&gt; &amp; *starred* | piped <code>code</code>" in page
    md = render(rules, "md", base_of(rules))
    assert r"a \<b\>bold\</b\> & \*starred\* \| piped `code`" in md


def test_a_variant_names_its_base_and_its_changed_parameters():
    md, page = books("variants/oklahoma_gin")
    house = md.split("## House rules")[1].split("\n## ")[0]
    assert "Base game: Gin Rummy (`gin_rummy`)." in house
    assert "| `target_score` | `150` | `100` |" in house
    assert "| `knock_limit_from_upcard` | `true` | `false` |" in house
    assert "`knock_limit` |" not in house                           # unchanged: not a house rule
    assert "`knock_limit` is 0 if the upcard's rank is A; otherwise the upcard's value." in md
    assert "the player's deadwood is at most the `knock_limit`" in _line(md, "- `knock`:")


def test_overrides_on_a_game_are_its_house_rules():
    md, _ = books("gin_rummy", knock_limit=5)
    house = md.split("## House rules")[1]
    assert "| `knock_limit` | `5` | `10` |" in house
    assert "as written, with no house rules" in books("gin_rummy")[0]


# ------------------------------------------------------------------------------ expressions in words

def said(text: str, params: dict | None = None, derived: dict | None = None, cond: bool = True) -> str:
    ast, diag = parse(text)
    assert diag is None
    words = Words({"stock": "table", "hand": "player", "discard": "table"}, frozenset(derived or {}),
                  frozenset({"red_three"}))
    e = Folder(params or {}, derived or {}).fold(ast)
    return plain(words.condition(e) if cond else words.value(e))


@pytest.mark.parametrize("text, words", [
    ("count(stock) > params.stock_floor", "more than 2 cards remain in the stock"),
    ("count(stock) <= params.stock_floor", "at most 2 cards remain in the stock"),
    ("count(stock) == 0", "the stock is empty"),
    ("count(hand) >= 1", "at least 1 card remains in the player's hand"),
    ("params.on and deadwood(hand) <= params.limit and deadwood(hand) > 0",
     "the player's deadwood is at most 10 and more than 0"),
    ("params.off and deadwood(hand) == 0", "never"),
    ("params.off or count(stock) < 3", "fewer than 3 cards remain in the stock"),
    ('ending == "knock"', "the hand ended by knock"),
    ("not is_joker(card)", "the card is not a joker"),
    ("red_three(card)", "the card is a red_three"),
    ("deal.scorer == none", "nobody scored the hand"),
    ("card == turn.taken", "the card is the card taken this turn"),
    ("play.rank > last.rank", "the play's rank is more than the last play's rank"),
    ('play.rank_name in ["8", "J"]', "the play's rank is 8 or J"),
    ("score(player) >= params.limit", "the player's score is at least 10"),
])
def test_conditions_read_as_sentences(text, words):
    assert said(text, {"stock_floor": 2, "limit": 10, "on": True, "off": False}) == words


@pytest.mark.parametrize("text, words", [
    ("params.bonus + deadwood(defender)", "25 plus the defender's deadwood"),
    ("if deal.scorer == none then dealer else next_seat(dealer)",
     "the dealer if nobody scored the hand; otherwise the player to the left of the dealer"),
    ("if params.off then 3 else params.bonus * 2", "50"),
    ("held(player)", "the value of the cards in the player's hand"),
    ("held(player) + (if player == declarer then params.zero else 0)", "the value of the cards in the player's hand"),
    ("params.minimums[1] * 1", "90"),
    ("score(player) * 2 + params.bonus", "the player's score times 2 plus 25"),
    ("score(player) - (score(dealer) + 1)", "score(player) - (score(dealer) + 1)"),   # no words can say it
    ("10 + (if player == winner then params.bonus else 0)", "10 plus (25 if the player is the winner; otherwise 0)"),
    ("params.minimums[deal.number]", "[50, 90, 120][deal.number]"),
])
def test_values_read_as_phrases(text, words):
    assert said(text, {"bonus": 25, "off": False, "zero": 0, "minimums": (50, 90, 120)}, cond=False) == words


def test_unrecognised_expressions_fall_back_to_the_folded_formula():
    ast, _ = parse("count(hand) % params.cut == 0 or meld_size(team, \"7\") > params.cut")
    words = Words({"hand": "player"})
    out = words.condition(Folder({"cut": 5}, {}).fold(ast))
    assert out == (Code("count(hand) % 5 == 0"), " or ", Code('meld_size(team, "7") > 5'))


@pytest.mark.parametrize("text, words", [
    ("sum(held(p) for p in opponents(player))",
     "the total, over each p among the player's opponents, of the value of the cards in p's hand"),
    ("count(c for c in hand where value(c) > params.cut)", "the number of c among the player's hand for which c's value is more than 5"),
    ("all(held(player) < held(p) for p in opponents(player))",
     "for every p among the player's opponents, the value of the cards in the player's hand is less than "
     "the value of the cards in p's hand"),
])
def test_comprehensions_read_as_phrases(text, words):
    ast, _ = parse(text)
    e = Folder({"cut": 5}, {}).fold(ast)
    w = Words({"hand": "player"})
    assert plain(w.condition(e) if text.startswith("all") else w.value(e)) == words


def test_derived_values_the_parameters_decide_are_folded():
    derived_ast, _ = parse("if not params.from_card then params.limit else value(deal.upcard)")
    from rulesdsl.expr.ast import Expr
    derived = {"limit": Expr(derived_ast, "")}
    assert said("deadwood(hand) <= limit", {"from_card": False, "limit": 7}, derived) == "the player's deadwood is at most 7"
    assert said("deadwood(hand) <= limit", {"from_card": True, "limit": 7}, derived) == "the player's deadwood is at most the limit"


def test_doc_markup_keeps_backticks_as_code():
    assert from_markup("take `stock` now") == ("take ", Code("stock"), " now")
    assert from_markup("a lone ` tick") == ("a lone ` tick",)


# ------------------------------------------------------------------------------ doc: in both syntaxes

def test_the_dsl_round_trip_keeps_doc_text(tmp_path):
    tree = read_file(bundled_dir() / "gin_rummy.yaml")
    text = to_dsl(tree)
    assert 'doc = "Every turn begins by taking one card."' in text
    back = read_dsl(text, "g.rules")
    assert back == tree
    d = Diagnostics()
    model = build_ruleset(back, d)
    assert not d.items and model.turn[0].doc == "Every turn begins by taking one card."
    assert model.go_out["knock"].doc.startswith("The opponent then lays off")
    assert model.params["knock_limit"].doc == "the most deadwood a player may knock with"
    f = tmp_path / "mine.rules"
    f.write_text(text)
    assert "Step `draw`. Every turn begins by taking one card." in rulebook(str(f))


def test_doc_changes_no_rule():
    tree = read_file(bundled_dir() / "gin_rummy.yaml")
    d = Diagnostics()
    with_doc = build_ruleset(tree, d)
    plain_tree = read_dsl(to_dsl(tree).replace('doc = "Every turn begins by taking one card."', ""), "g.rules")
    assert build_ruleset(plain_tree, d).turn == with_doc.turn


def _parts(obj):
    """Every dataclass instance inside a model (sections, steps, actions, meld types, exchange steps...)."""
    import dataclasses
    stack, seen = [obj], set()
    while stack:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            yield x
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)


@pytest.mark.parametrize("name", ["gin_rummy", "president", "hearts", "spades", "rummy_500", "hand_and_foot",
                                  "contract_rummy", "big_two", "crazy_eights"])
def test_no_doc_text_takes_part_in_the_models_equality(name):
    """docs/language.md, `doc`: "No rule reads it: it never changes ... the model's equality": every part of
    a bundled model that carries a doc equals itself with another doc (so `diff` and caches keyed by the
    model see no change)."""
    import dataclasses
    kinds = set()
    for part in _parts(rulesdsl.load(name).model):
        if any(f.name == "doc" for f in dataclasses.fields(part)):
            assert dataclasses.replace(part, doc=str(part.doc) + " (reworded)") == part, type(part).__name__
            kinds.add(type(part).__name__)
    assert len(kinds) >= 3, kinds


# ------------------------------------------------------------------------------ the command

@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args):
        result = runner.invoke(cli, list(args))
        assert "Traceback" not in result.output
        return result
    return invoke


def test_cli_writes_markdown_and_html(run, tmp_path):
    r = run("rulebook", "gin_rummy", "--set", "knock_limit=5")
    assert r.exit_code == 0 and "at most 5" in _line(r.output, "- `knock`:")
    out = tmp_path / "gin.html"
    r = run("rulebook", "variants/straight_gin", "--format", "html", "--output", str(out))
    assert r.exit_code == 0 and r.output == ""
    well_formed(out.read_text(encoding="utf-8"))


def test_cli_invalid_ruleset_prints_diagnostics_and_exits_1(run, tmp_path):
    r = run("rulebook", "gin_rummy", "--set", "knock_limt=5")
    assert r.exit_code == 1 and "error[E-UNKNOWN-PARAM]" in r.output and "did you mean `knock_limit`" in r.output


def test_cli_other_errors_are_one_line_and_exit_2(run, tmp_path):
    r = run("rulebook", "gin_rummy", "--output", str(tmp_path / "no" / "such" / "dir.md"))
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and r.output.startswith("error: cannot write")


def test_the_example_in_docs_is_up_to_date():
    """docs/rulebook-example.md is `rulesdsl rulebook gin_rummy --output docs/rulebook-example.md`."""
    assert EXAMPLE.read_text(encoding="utf-8") == rulebook("gin_rummy")


def test_the_document_model_has_every_part_of_a_climbing_game():
    doc = build(rulesdsl.load("president"))
    titles = [s.title for s in doc.sections]
    assert "A turn" in titles and "Scoring" in titles
    turn = next(s for s in doc.sections if s.title == "A turn")
    assert any(getattr(b, "title", "") == "Plays and tricks" for b in turn.blocks)


def test_the_generator_names_no_game():
    """Games are data: no module of the rulebook names a bundled game, so every word it says comes from
    the ruleset.  (`contract` is a language key, `table.contract`, so only `contract_rummy` counts.)"""
    games = {n for n, _ in bundled_names() if "/" not in n}
    words = {w for n in games for w in n.split("_") if len(w) > 2 and w not in ("and", "foot", "hand", "two", "500", "contract")}
    pattern = re.compile("|".join([re.escape(n.replace("_", sep)) for n in games for sep in "_ "] +
                                  [rf"\b{w}\b" for w in words]), re.I)
    package = Path(rulesdsl.__file__).parent
    for path in list((package / "rulebook").glob("*.py")) + [package / "cli" / "rulebook.py"]:
        found = pattern.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.name} names `{found.group(0)}`"
