"""Conformance: the sections that name and shape a game (docs/language.md: "`name`, `description`,
`players`", "`doc`: text for readers", "`params`", "`derived`", "`constraints`" and "Variants: `extends`
and overrides").

Every test loads a tiny draw-and-discard game (eight cards, A..4 in two suits) written for the feature
alone, and checks what the docs promise: the rulebook's text, the player counts allowed, the values a
rule reads, and the diagnostics a ruleset or an override is refused with (exact code and place)."""

from __future__ import annotations

import textwrap

import pytest

import rulesdsl
from rulesdsl.rulebook import base_of, render

from conformance.keys import documents
from conformance.play import game, legal, refusal, rules

# With two players and dealer 0, seat 1 gets deck[0], deck[2]; seat 0 gets deck[1], deck[3]; the stock is
# the rest, its top first.  A turn: draw (offered while `draw_when` holds), then discard; the first discard
# ends the hand (a stock-out that is scored), and the match, after one hand.
GAME = """
name: {name}
players: {players}
{extra}
deck: {{ranks: [A, 2, 3, 4], suits: [S, H]}}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  hand: {{per: player, visible: owner}}
deal:
  - {{deal: {deal}, to: hand}}
turn:
  - step: draw
    actions:
      - draw: stock
        when: {draw_when}
      - pass: true
        when: not ({draw_when})
  - step: finish
    actions:
      - discard: discard
stock_out: {{when: count(discard) >= 1, result: score}}
scoring:
  each_player: {score}
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""
DECK = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"]


def text(extra: str = "", players="2", deal="2", draw_when="true", score="0", name="mini") -> str:
    return GAME.format(extra=textwrap.dedent(extra), players=players, deal=deal, draw_when=draw_when,
                       score=score, name=name)


def refused(exc: pytest.ExceptionInfo) -> list[tuple[str, str, int]]:
    """(code, file name, line) of every diagnostic of a RulesetError."""
    return [(d.code, str(d.pos.path).rsplit("/", 1)[-1], d.pos.line) for d in exc.value.diagnostics]


# ------------------------------------------------------------------ name, description, doc

@documents("name")
def test_the_name_is_the_rules_name_and_the_rulebooks_title():
    """`name` names the game: `rules.name` is it, and the rulebook is titled with it."""
    r = rules(text(name="Tiny Rummy"))
    assert r.name == "Tiny Rummy"
    assert render(r).splitlines()[0] == "# Tiny Rummy"
    assert "# Tiny Rummy" not in render(rules(text(name="Other")))


@documents("description")
def test_the_description_opens_the_rulebook():
    """`description` is the text that introduces the game: the rulebook shows it under the title."""
    md = render(rules(text("description: Two players race to the last card.")))
    lines = [l for l in md.splitlines() if l.strip()]
    assert lines[:2] == ["# mini", "Two players race to the last card."]
    assert "race to the last card" not in render(rules(text()))


@documents("doc")
def test_a_doc_text_is_shown_in_the_rulebook_and_changes_no_rule():
    """A `doc:` text on a step, an action, a zone, a deal step or a parameter is shown by the rulebook
    where the thing is described; no rule reads it: neither play nor the ruleset's digest changes."""
    plain = text("params:\n  bonus: {default: 3}", score="params.bonus")
    documented = plain.replace("  - step: finish\n", "  - step: finish\n    doc: Every turn ends with one discard.\n") \
        .replace("bonus: {default: 3}", "bonus: {default: 3, doc: points for every player}") \
        .replace("stock: {visible: none}", "stock: {visible: none, doc: the undealt cards}") \
        .replace("- {deal: 2, to: hand}", "- {deal: 2, to: hand, doc: two cards each}")
    assert documented != plain
    a, b = rules(plain), rules(documented)
    assert a.digest == b.digest
    md = render(b)
    assert "Every turn ends with one discard." in md and "Every turn ends with one discard." not in render(a)
    for words in ("points for every player", "the undealt cards", "two cards each"):
        assert words in md and words not in render(a)
    ga, gb = a.new_game(deck=DECK, dealer=0), b.new_game(deck=DECK, dealer=0)
    for action in ("draw stock", "discard AS"):
        assert legal(ga) == legal(gb)
        ga.apply(action)
        gb.apply(action)
    assert ga.view(0) == gb.view(0) and ga.history == gb.history and ga.scores == gb.scores == [3, 3]


# ------------------------------------------------------------------ players

@documents("players")
def test_a_fixed_player_count_refuses_any_other():
    """`players: 2`: the game is for two; `new_game(players=N)` with another count is refused."""
    r = rules(text(players="2"))
    g = r.new_game(deck=DECK, dealer=0)
    assert g.view(0)["players"] == 2 and g.hand_of(1) == ["AS", "3S"] and g.hand_of(0) == ["2S", "4S"]
    with pytest.raises(ValueError):
        r.new_game(players=3)


@documents("players", "players.min", "players.max", "players.default")
def test_a_range_of_players_allows_each_count_in_it_and_defaults_to_the_minimum():
    """`players: {min, max, default}` allows any count from min to max (`new_game(players=N)`); other
    counts are refused; without `default` a game has `min` players."""
    r = rules(text(players="{min: 2, max: 3}"))
    assert r.new_game(seed=1).view(0)["players"] == 2                       # default: min
    g = r.new_game(deck=DECK, players=3, dealer=0)                          # from the dealer's left
    assert [g.hand_of(s) for s in range(3)] == [["3S", "2H"], ["AS", "4S"], ["2S", "AH"]]
    for n in (1, 4):
        with pytest.raises(ValueError):
            r.new_game(players=n)
    assert rules(text(players="{min: 2, max: 3, default: 3}")).new_game(seed=1).view(0)["players"] == 3


@documents("players.max", "players.min")
def test_the_deal_is_checked_at_load_for_every_allowed_count():
    """The deal is checked at load for every allowed player count: three cards each fit eight cards for
    two players but not for three (`E-DEAL-TOO-MANY`), whatever the default."""
    rules(text(players="{min: 2, max: 2}", deal="3"))
    assert "error[E-DEAL-TOO-MANY]" in refusal(text(players="{min: 2, max: 3}", deal="3"))
    assert "error[E-DEAL-TOO-MANY]" in refusal(text(players="{min: 3, max: 3}", deal="3"))


@documents("players.default")
def test_a_default_outside_the_range_is_refused():
    """`players.default` lies between `min` and `max`: a default outside is `E-RANGE`."""
    out = refusal(text(players="{min: 2, max: 3, default: 4}"))
    assert out.startswith("conformance.yaml:3:10: error[E-RANGE]:")


# ------------------------------------------------------------------ params

@documents("params", "params.*.default")
def test_a_parameter_is_read_as_params_name_and_an_override_changes_its_default():
    """Rules read a parameter as `params.NAME`; it is its default unless an override (`--set`, the API's
    `overrides`) changes it.  Bare and mapping forms declare the same thing."""
    for extra in ("params:\n  bonus: 7", "params:\n  bonus: {default: 7}"):
        g = game(text(extra, score="params.bonus + player"), deck=DECK, dealer=0)
        g.apply("draw stock")
        g.apply("discard AS")
        assert g.is_over and g.scores == [7, 8]
        assert rules(text(extra)).params == {"bonus": 7}
        assert rules(text(extra), {"bonus": 2}).params == {"bonus": 2}


@documents("params", "params.*.default")
def test_a_boolean_parameter_switches_a_rule():
    """A `true`/`false` parameter read by a `when:` turns an action on and off, by default and by
    override."""
    extra = "params:\n  may_draw: false"
    assert legal(game(text(extra, draw_when="params.may_draw"), deck=DECK, dealer=0)) == ["pass"]
    assert legal(game(text(extra, draw_when="params.may_draw"), deck=DECK, dealer=0,
                      overrides={"may_draw": True})) == ["draw stock"]


@documents("params.*.default")
def test_an_override_of_another_kind_or_an_undeclared_name_is_refused():
    """A parameter's kind is its default's; an override of another kind is refused (`E-TYPE`); an
    undeclared name is `E-UNKNOWN-PARAM` with a suggestion; `none` is refused as a value."""
    extra = "params:\n  limit: 3"
    assert refusal(text(extra), {"limit": "x"}).startswith("<override limit>:1:1: error[E-TYPE]:")
    out = refusal(text(extra), {"limitt": 2})
    assert "error[E-UNKNOWN-PARAM]: unknown parameter `limitt`" in out and "did you mean `limit`?" in out
    assert "error[E-TYPE]" in refusal(text("params:\n  limit: null"))


@documents("params.*.choices")
def test_choices_limit_a_word_parameter_to_the_words_listed():
    """`choices`: the value must be one of them; an override or default among none of them is
    `E-CHOICE`; a listed word is accepted."""
    extra = "params:\n  mode: {default: fast, choices: [fast, slow]}"
    assert rules(text(extra), {"mode": "slow"}).params == {"mode": "slow"}
    out = refusal(text(extra), {"mode": "medium"})
    assert out.startswith("<override mode>:1:1: error[E-CHOICE]: parameter `mode` is `medium`; it must be one of: "
                          "fast, slow")
    assert refusal(text("params:\n  mode: {default: medium, choices: [fast, slow]}")).startswith(
        "conformance.yaml:5:19: error[E-CHOICE]")
    # a rule may compare the word
    g = game(text(extra, draw_when='params.mode == "fast"'), deck=DECK, dealer=0, overrides={"mode": "slow"})
    assert legal(g) == ["pass"]


@documents("params.*.min", "params.*.max")
def test_min_and_max_bound_a_numeric_parameter():
    """`min`/`max`: the smallest and largest value an override may give; outside them is `E-RANGE`;
    the bounds themselves are allowed; so is a default outside them refused."""
    extra = "params:\n  limit: {default: 3, min: 1, max: 5}"
    assert rules(text(extra), {"limit": 1}).params == {"limit": 1}
    assert rules(text(extra), {"limit": 5}).params == {"limit": 5}
    assert refusal(text(extra), {"limit": 6}).startswith(
        "<override limit>:1:1: error[E-RANGE]: parameter `limit` is 6; it must be from 1 to 5")
    assert refusal(text(extra), {"limit": 0}).startswith(
        "<override limit>:1:1: error[E-RANGE]: parameter `limit` is 0; it must be from 1 to 5")
    assert "error[E-RANGE]" in refusal(text("params:\n  limit: {default: 7, min: 1, max: 5}"))


@documents("params.*.length", "params.*.default")
def test_a_list_parameter_keeps_its_length_unless_length_says_otherwise():
    """A list's length is its default's unless `length:` gives another (a number, or `any`); an override
    of another length is refused (`E-TYPE`)."""
    assert rules(text("params:\n  xs: [1, 2]"), {"xs": [5, 6]}).params == {"xs": (5, 6)}
    out = refusal(text("params:\n  xs: [1, 2]"), {"xs": [1, 2, 3]})
    assert out.startswith("<override xs>:1:1: error[E-TYPE]: parameter `xs` is a list of 2 numbers; this gives 3")
    anylen = "params:\n  xs: {default: [1, 2], length: any}"
    assert rules(text(anylen), {"xs": [1, 2, 3]}).params == {"xs": (1, 2, 3)}
    assert rules(text(anylen), {"xs": [4]}).params == {"xs": (4,)}
    three = "params:\n  xs: {default: [1, 2, 3], length: 3}"
    assert rules(text(three)).params == {"xs": (1, 2, 3)}
    assert "error[E-TYPE]" in refusal(text(three), {"xs": [1, 2]})
    assert refusal(text("params:\n  xs: {default: [1, 2], length: 3}")).startswith(
        "conformance.yaml:5:17: error[E-TYPE]: parameter `xs` has 2 item(s); its `length` is 3")


@documents("params.*.length")
def test_a_list_parameter_is_read_by_index():
    """A list parameter is a list in rules: `params.bonuses[i]`."""
    g = game(text("params:\n  bonuses: {default: [10, 20], length: any}", score="params.bonuses[player]"),
             deck=DECK, dealer=0, overrides={"bonuses": [4, 9, 1]})
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.scores == [4, 9]


# ------------------------------------------------------------------ derived

@documents("derived")
def test_a_derived_value_is_read_by_name_like_a_parameter():
    """A named expression under `derived:` is used by other expressions by its name."""
    extra = "derived:\n  stock_left: count(stock) > 3\n  points: 2 * count(hand) + 1"
    g = game(text(extra, draw_when="stock_left", score="points"), deck=DECK, dealer=0)
    assert legal(g) == ["draw stock"]              # four cards in the stock
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.is_over and g.scores == [5, 5]         # two cards in each hand at the end


@documents("derived")
def test_a_derived_function_takes_arguments():
    """A key written `name(a, b)` declares a function; its arguments hide any other name."""
    extra = 'derived:\n  twice(n): 2 * n\n  "add(a, b)": a + b'
    g = game(text(extra, score="add(twice(player), 3)"), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.scores == [3, 5]


@documents("derived")
def test_a_derived_cycle_is_refused_once_naming_every_value():
    """A derived value may not depend on itself: a cycle is reported once (`E-CYCLE`), naming every value
    in it; a call with the wrong number of arguments is `E-ARITY`."""
    out = refusal(text("derived:\n  a: b + 1\n  b: c\n  c: a", score="a"))
    assert out.count("error[") == 1 and "error[E-CYCLE]" in out
    assert all(f"`{n}`" in out for n in "abc")
    assert "error[E-ARITY]" in refusal(text("derived:\n  f(n): n", score="f(1, 2)"))


@documents("derived")
@pytest.mark.parametrize("call", ["sum(1, 2)", "count(1, 2)", "any(true, false)", "max()", "min()"])
def test_an_aggregate_takes_one_sequence_and_max_min_also_several_values(call):
    """docs/language.md, expressions: an aggregate takes one list or comprehension (`max`/`min` also two
    or more values); any other number of arguments is `E-ARITY`, naming the aggregate."""
    out = refusal(text(score=f"if {call} then 1 else 0" if call.startswith("any") else call))
    assert "error[E-ARITY]" in out and f"`{call.split('(')[0]}` takes one sequence" in out, out
    g = game(text(score="max(2, 5, 3) + min([4, 1]) + sum([1, 2])"), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.scores == [9, 9]


@documents("derived")
def test_a_comprehension_variable_hides_a_name_of_another_type():
    """A comprehension's variable hides any other name while it runs (`players`, a number, here runs over
    texts): it is typed by what it runs over, so comparing it with text is no type error."""
    score = 'count(players for players in ["a", "b", "a"] where players == "a") + players'
    g = game(text(score=score), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.scores == [4, 4]


@documents("derived")
def test_a_chain_of_derived_values_is_at_most_fifty_deep():
    """A chain of derived values built on one another may be at most 50 deep (`E-DEPTH`)."""
    def chain(n: int) -> str:
        return "derived:\n  d0: 1\n" + "".join(f"  d{i}: d{i - 1} + 1\n" for i in range(1, n))
    g = game(text(chain(50), score="d49"), deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.scores == [50, 50]
    assert "error[E-DEPTH]" in refusal(text(chain(60), score="d59"))


# ------------------------------------------------------------------ constraints

CONSTRAINED = """
params:
  fast: false
  slow: false
constraints:
  - require: not (params.fast and params.slow)
    message: fast and slow do not combine
    params: [fast, slow]
"""


@documents("constraints", "constraints[].require", "constraints[].message")
def test_a_constraint_refuses_a_parameter_combination_with_its_message():
    """`constraints`: a parameter combination for which `require` is false is refused at load with
    `E-CONSTRAINT` and the constraint's `message` (naming the values in force); others load."""
    rules(text(CONSTRAINED))
    rules(text(CONSTRAINED), {"fast": True})
    rules(text(CONSTRAINED), {"slow": True})
    out = refusal(text(CONSTRAINED), {"fast": True, "slow": True})
    assert out.count("error[") == 1
    assert "error[E-CONSTRAINT]: fast and slow do not combine (fast = True, slow = True)" in out


@documents("constraints[].params", "extends")
def test_a_constraint_error_points_at_the_parameter_a_variant_set(tmp_path):
    """`constraints[].params`: the error points at whichever of these parameters a variant set (the
    variant's line), not at the base."""
    (tmp_path / "base.yaml").write_text(text(CONSTRAINED.replace("slow: false", "slow: true")), encoding="utf-8")
    rulesdsl.load(tmp_path / "base.yaml")
    (tmp_path / "variant.yaml").write_text("extends: ./base.yaml\nname: fast\nparams:\n  fast: true\n",
                                           encoding="utf-8")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "variant.yaml")
    assert refused(exc) == [("E-CONSTRAINT", "variant.yaml", 4)]
    assert "fast and slow do not combine" in str(exc.value)


@documents("constraints[].params", "extends")
def test_a_variant_setting_both_parameters_is_told_at_the_last_one_it_wrote(tmp_path):
    """Where a variant sets several of a constraint's parameters, the error points at the last of them
    it wrote (the one that made the combination)."""
    (tmp_path / "base.yaml").write_text(text(CONSTRAINED), encoding="utf-8")
    (tmp_path / "variant.yaml").write_text("extends: ./base.yaml\nname: both\nparams:\n  slow: true\n"
                                           "  fast: true\n", encoding="utf-8")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "variant.yaml")
    assert refused(exc) == [("E-CONSTRAINT", "variant.yaml", 5)]


@documents("constraints[].params")
def test_without_params_a_constraint_error_points_at_the_rule():
    """Without `params:` the error has no parameter to point at: it points at the constraint itself."""
    written = CONSTRAINED.replace("    params: [fast, slow]\n", "")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rules(text(written), {"fast": True, "slow": True})
    [d] = exc.value.diagnostics
    assert d.code == "E-CONSTRAINT" and d.pos.line == text(written).splitlines().index(
        "  - require: not (params.fast and params.slow)") + 1
    with pytest.raises(rulesdsl.RulesetError) as exc:          # with `params:`, at an override that set one
        rules(text(CONSTRAINED), {"fast": True, "slow": True})
    [d] = exc.value.diagnostics
    assert d.code == "E-CONSTRAINT" and str(d.pos.path) in ("<override fast>", "<override slow>")


# ------------------------------------------------------------------ extends

@documents("extends")
def test_a_variant_changes_what_it_gives_and_keeps_the_rest(tmp_path):
    """`extends: PATH` (with its extension, relative to the variant): mappings merge key by key, lists and
    values replace; a bare value under `params` changes a declared parameter's default (keeping its
    `choices`)."""
    base = text("params:\n  bonus: 1\n  mode: {default: fast, choices: [fast, slow]}",
                score='params.bonus + (if params.mode == "slow" then 10 else 0)')
    (tmp_path / "base.yaml").write_text(base, encoding="utf-8")
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "base.yaml").write_text(base, encoding="utf-8")
    (tmp_path / "house" / "variant.yaml").write_text(textwrap.dedent("""\
        extends: ./base.yaml
        name: mini house
        params: {bonus: 4, mode: slow}
        zones:
          discard: {visible: all}
        deal:
          - {deal: 3, to: hand}
        """), encoding="utf-8")
    r = rulesdsl.load(tmp_path / "house" / "variant.yaml")
    assert r.name == "mini house" and r.params == {"bonus": 4, "mode": "slow"}
    g = r.new_game(deck=DECK, dealer=0)
    assert g.hand_of(1) == ["AS", "3S", "AH"]                            # the deal list was replaced
    assert g.view(0)["zones"]["stock"] == {"count": 2}                  # zones merged: stock kept
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.view(0)["zones"]["discard"]["cards"] == ["AS"]              # the variant's visibility
    assert g.is_over and g.scores == [14, 14]
    # the choices are kept from the base
    (tmp_path / "bad.yaml").write_text("extends: ./base.yaml\nparams: {mode: medium}\n", encoding="utf-8")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "bad.yaml")
    assert refused(exc) == [("E-CHOICE", "bad.yaml", 2)]


@documents("extends")
def test_a_variant_may_not_set_an_undeclared_parameter_but_may_declare_one(tmp_path):
    """Under `params`, an undeclared name is an error with a suggestion (at the variant line); the mapping
    form `{default: ...}` declares a new parameter."""
    (tmp_path / "base.yaml").write_text(text("params:\n  bonus: 1", score="params.bonus"), encoding="utf-8")
    (tmp_path / "typo.yaml").write_text("extends: ./base.yaml\nparams:\n  bonsu: 4\n", encoding="utf-8")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "typo.yaml")
    assert refused(exc) == [("E-UNKNOWN-PARAM", "typo.yaml", 3)] and "`bonus`" in str(exc.value)
    (tmp_path / "new.yaml").write_text("extends: ./base.yaml\nparams:\n  extra: {default: 6}\nscoring:\n"
                                       "  each_player: params.bonus + params.extra\n", encoding="utf-8")
    g = rulesdsl.load(tmp_path / "new.yaml").new_game(deck=DECK, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.scores == [7, 7]


@documents("extends")
def test_a_variants_rulebook_names_its_base(tmp_path):
    """A variant is measured against the game it extends: its rulebook says it is a variant of the base."""
    (tmp_path / "base.yaml").write_text(text("params:\n  bonus: 1", name="Base Game"), encoding="utf-8")
    (tmp_path / "v.yaml").write_text("extends: ./base.yaml\nname: House Game\nparams: {bonus: 2}\n",
                                     encoding="utf-8")
    r = rulesdsl.load(tmp_path / "v.yaml")
    md = render(r, "md", base_of(r))
    assert md.startswith("# House Game") and "A variant of Base Game" in md


@documents("extends")
def test_extends_naming_nothing_is_not_found(tmp_path):
    """`extends` naming nothing is `E-NOT-FOUND`."""
    (tmp_path / "v.yaml").write_text("extends: ./missing.yaml\nname: v\n", encoding="utf-8")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(tmp_path / "v.yaml")
    assert [d.code for d in exc.value.diagnostics] == ["E-NOT-FOUND"]


@documents("params.*.choices", "params.*.default")
def test_the_word_none_is_a_choice_compared_as_text():
    """`none` (or `null`) is refused as a value; in YAML the bare word `none` is text, allowed only among
    `choices`, and compared with `"none"` (quoted): `params.NAME == none` is an error (`E-TYPE`), as it
    could never hold."""
    extra = "params:\n  mode: {default: none, choices: [none, fast]}"
    assert rules(text(extra)).params == {"mode": "none"}
    assert legal(game(text(extra, draw_when='params.mode == "none"'), deck=DECK, dealer=0)) == ["draw stock"]
    assert legal(game(text(extra, draw_when='params.mode == "none"'), deck=DECK, dealer=0,
                      overrides={"mode": "fast"})) == ["pass"]
    assert "error[E-TYPE]: parameter `mode` always has a value" in refusal(text(extra, draw_when="params.mode == none"))
    assert refusal(text("params:\n  mode: none")).startswith("conformance.yaml:5:9: error[E-TYPE]: parameter `mode` "
                                                             "is `none`")
