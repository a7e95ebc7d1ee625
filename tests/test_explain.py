"""Why an action is refused: ``IllegalAction.trace`` / ``explain()``, ``Game.explain``, ``rulesdsl explain``.

A trace names the parts of the condition that decided, with their values, and leaves out what the
parameters switch off; its verdict is the compiled rule's verdict."""

from __future__ import annotations

import functools
import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.expr.ast import Expr, parse
from rulesdsl.expr.compiler import Binding, Scope
from rulesdsl.expr.explain import MAX_PARTS, MAX_TEXT, Tracer

from common import assert_illegal


@functools.lru_cache(maxsize=None)

def _gin_line(start: str) -> int:
    """The line of bundled gin_rummy.yaml that starts with ``start`` (so edits above it move nothing here)."""
    from rulesdsl.source.resolve import bundled
    lines = bundled("gin_rummy").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


KNOCK_ITEM = _gin_line("  knock:") + 1           # the knock go-out's first key: where its rule is reported
KNOCK_WHEN = _gin_line("    when: params.knock_allowed")

def rules(name: str, **overrides):
    return rulesdsl.load(name, overrides=overrides or None)


def gin_after_draw(**overrides):
    g = rules("gin_rummy", **overrides).new_game(seed=1)
    for a in ("pass", "pass", "draw stock"):
        g.apply(a)
    return g


def president_pair_on_trick(name: str = "president"):
    """Seed 1, four players, random moves until a pair is the play to beat."""
    g = rules(name).new_game(seed=1, players=4)
    rng = random.Random(1)
    while not (g.phase == "climb" and len(g.view(0)["trick"]["last_play"]) == 2):
        g.apply(rng.choice(g.legal_actions()))
    return g


def refusal(g, action: str) -> rulesdsl.IllegalAction:
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        g.apply(action)
    return refused.value


# ----------------------------------------------------------------------------------------- gin knock
@pytest.mark.parametrize("limit", [10, 5])
def test_a_refused_knock_shows_the_deadwood_after_its_discard_and_the_knock_limit(limit):
    g = gin_after_draw(knock_limit=limit)
    seat = g.current_player
    hand = g.hand_of(seat)
    card = hand[0]
    deadwood = rules("gin_rummy").arrange([c for c in hand if c != card]).points
    assert deadwood > limit
    before = str(g.legal_actions())
    e = refusal(g, f"knock {card}")
    assert e.trace is not None and e.trace.holds is False
    assert f"deadwood(hand) = {deadwood} > knock_limit = {limit}" in str(e)
    assert "params.knock_allowed" not in str(e)        # true: not the reason, not shown
    text = e.explain()
    assert "GIN-KNOCK-3 at " in text and f"gin_rummy.yaml:{KNOCK_ITEM}" in text
    assert f"deadwood(hand) = {deadwood}" in text
    assert str(g.legal_actions()) == before and g.hand_of(seat) == hand


def test_a_limit_the_position_chooses_says_how_it_was_chosen():
    """Oklahoma: the knock limit is the upcard's value, and 0 (gin only) when it is an ace."""
    said = set()
    for seed in range(1, 40):
        g = rules("variants/oklahoma_gin").new_game(seed=seed)
        for a in ("pass", "pass", "draw stock"):
            g.apply(a)
        e = g.refusal("knock " + g.hand_of(g.current_player)[0])
        if e is None or e.trace is None:
            continue
        text = str(e)
        if '== "A", so 0)' in text:
            said.add("ace")
            assert "> knock_limit = 0 (rank(deal.upcard) = \"A\" == \"A\", so 0)" in text
        elif '!= "A", so value(deal.upcard) = ' in text:
            said.add("value")
            limit = text.split("knock_limit = ", 1)[1].split(" ", 1)[0]
            assert f"so value(deal.upcard) = {limit})" in text
    assert said == {"ace", "value"}


@pytest.mark.parametrize("verb", ["knock", "discard"])
def test_a_card_not_in_the_hand_is_refused_as_that(verb):
    """A knock's discard, or a discard, of a card the player does not hold is refused for that reason
    alone ("QS is not in your hand", rule `cards in hand`), before any condition is judged.  Catches the
    go-out's check being skipped (the refusal then blamed the knock's condition)."""
    g = gin_after_draw()
    seat = g.current_player
    held = set(g.hand_of(seat))
    card = next(c for c in g.hand_of(1 - seat) if c not in held)
    e = g.refusal(f"{verb} {card}")
    assert e.rule == "cards in hand" and str(e).startswith(f"{card} is not in your hand"), str(e)


def test_a_refusal_leaves_the_game_as_it_was():
    assert_illegal(gin_after_draw(), "knock " + gin_after_draw().hand_of(1)[0])
    g = president_pair_on_trick()
    assert_illegal(g, "play " + g.hand_of(g.current_player)[0])


def test_a_refusal_with_no_condition_behind_it_explains_with_its_message():
    g = gin_after_draw()
    e = refusal(g, "discard ZZ")
    assert e.trace is None
    assert e.explain().splitlines()[0] == e.detail and "rule: card notation" in e.explain()


# ----------------------------------------------------------------------------------------- president
def test_a_refused_play_in_president_is_a_short_trace_without_the_variants_switched_off():
    g = president_pair_on_trick()
    single = next(c for c in g.hand_of(g.current_player))
    e = refusal(g, f"play {single}")
    message = str(e)
    assert len(message) < 200, message
    assert "play.size = 1 != last.size = 2" in message
    for off in ("suit_lock", "twos_high_and_low", "larger_set_beats", "clear_threes", "params."):
        assert off not in message and off not in e.explain()
    assert e.rule == "beats" and "president.yaml:63" in message


def lower_single(g):
    """A single in the hand that ranks below the single to beat (and is no 2), or None."""
    order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    last = g.view(0)["trick"]["last_play"]
    top = order.index(last[0][:-1])
    return next((c for c in g.hand_of(g.current_player) if order.index(c[:-1]) < top), None)


def single_on_trick(name: str):
    g = rules(name).new_game(seed=2, players=4)
    rng = random.Random(2)
    while True:
        v = g.view(0)
        if g.phase == "climb" and len(v["trick"]["last_play"]) == 1 and lower_single(g) \
                and v["trick"]["last_play"][0][:-1] not in ("2", "3"):
            return g
        g.apply(rng.choice(g.legal_actions()))


def test_a_lower_single_shows_both_ranks_by_name():
    g = single_on_trick("president")
    card = lower_single(g)
    last = g.view(0)["trick"]["last_play"][0]
    e = refusal(g, f"play {card}")
    assert f"(rank {card[:-1]}) <= last.rank = " in str(e) and f"(rank {last[:-1]})" in str(e)
    assert "rank_name" not in str(e)


def test_a_variant_switched_on_shows_its_branch():
    g = single_on_trick("variants/president_twos_high_and_low")
    card = lower_single(g)
    e = refusal(g, f"play {card}")
    assert "none of:" in str(e)
    assert f'play.rank_name = "{card[:-1]}" != "2"' in str(e)
    assert 'last.rank_name = "' in str(e)


# ----------------------------------------------------------------------------------------- the tracer
def scope(params=None, **values):
    names = {k: Binding(lambda c, _k=k: c[_k]) for k in values}
    return Scope(dict(params or {}), names, {}), values


def trace_of(text: str, params=None, **values):
    sc, ctx = scope(params, **values)
    ast, diag = parse(text)
    assert diag is None, diag
    fn = sc.compile(Expr(ast, text))
    t = Tracer(sc).trace(Expr(ast, text), ctx)
    assert t.value == fn(ctx)                         # the trace's verdict is the compiled one
    return t


@pytest.mark.parametrize("text, said", [
    ("limit > b", "limit = 10 (a = 5 > 1, so 10) <= b = 20"),
    ("b < limit", "b = 20 >= limit = 10 (a = 5 > 1, so 10)")])
def test_a_derived_value_the_position_chooses_says_its_choice_on_either_side(text, said):
    """A derived value whose body is an `if` the position decides shows the choice made beside its value,
    whichever side of a comparison it stands on.  Catches the left side's choice left out."""
    sc, ctx = scope(a=5, b=20)
    sc = Scope({}, sc.names, {}, {"limit": Expr(parse("if a > 1 then 10 else 0")[0], "if a > 1 then 10 else 0")})
    ast, _ = parse(text)
    t = Tracer(sc).trace(Expr(ast, text), ctx)
    assert t.value is False and t.text == said


def test_and_shows_its_first_false_part_only():
    t = trace_of("a > 1 and b == 2 and c < 0", a=5, b=3, c=9)
    assert t.text == "b = 3 != 2"


def test_or_drops_branches_the_parameters_switch_off():
    t = trace_of("(params.on and a > 1) or (params.off and b > 1) or c == 1",
                 {"on": True, "off": False}, a=0, b=5, c=2)
    assert t.text == "none of: a = 0 <= 1; c = 2 != 1"
    assert "params" not in t.text and "b =" not in t.text


def test_a_chain_with_one_part_left_reads_as_that_part():
    """An `or` (or `and`) whose other parts the parameters switch off reads as its one part left, also
    as the branch an `if` takes.  Catches the lone part kept inside a chain of one (`_gather` without its
    one-step case): the branch then read "so `params.off or b == 1`: b = 2 != 1"."""
    t = trace_of("if a > 1 then (params.off or b == 1) else true", {"off": False}, a=5, b=2)
    assert t.value is False and t.text == "a = 5 > 1, so b = 2 != 1"
    t = trace_of("if a > 1 then (params.on and b == 2) else false", {"on": True}, a=5, b=2)
    assert t.value is True and t.text == "a = 5 > 1, so b = 2 == 2"


def test_a_condition_the_parameters_decide_says_so_as_a_whole():
    """`params.off and ...` with `off` false (or `params.on or ...` with `on` true) is decided by the
    parameters alone: compiled to a constant, it is explained as one ("is false with these parameters"),
    not by its parts; with the parameter the other way, the rest decides.  Catches `and` (or `or`) with a
    constant left side no longer folded to a constant when compiled."""
    assert trace_of("params.off and a > 1", {"off": False}, a=5).text == \
        "`params.off and a > 1` is false with these parameters"
    assert trace_of("params.on or a > 1", {"on": True}, a=0).text == "`params.on or a > 1` is true with these parameters"
    assert trace_of("params.on and a > 1", {"on": True}, a=0).text == "a = 0 <= 1"


def test_if_names_the_branch_taken_and_not_negates():
    t = trace_of("if a > 1 then b == 1 else c == 1", a=5, b=2, c=1)
    assert t.value is False and t.text == "a = 5 > 1, so b = 2 != 1"
    t = trace_of("if a > 1 then b == 1 or c == 2 else true", a=5, b=2, c=1)
    assert t.text == "a = 5 > 1, so `b == 1 or c == 2`: none of: b = 2 != 1; c = 1 != 2"
    assert trace_of("not (a in b)", a=1, b=[1, 2]).text == "a = 1 in b = [1, 2]"


def test_a_long_condition_is_cut():
    text = " or ".join(f"a == {i}" for i in range(40))
    t = trace_of(text, a=-1)
    assert t.text.count("a = -1 != ") == MAX_PARTS and "and 34 more" in t.text
    assert len(t.lines()) <= MAX_PARTS + 2
    long = " or ".join(f"a_value_with_a_rather_long_name == {i}" for i in range(40))
    t = trace_of(long, a_value_with_a_rather_long_name=-1)
    assert len(t.text) == MAX_TEXT and t.text.endswith("...")
    assert len(t.lines()) == MAX_PARTS + 2 and all(len(x) < 80 for x in t.lines())


def test_a_failing_part_is_reported_not_raised():
    sc, ctx = scope(a="x", b=1)
    ast, _ = parse("a < b")
    t = Tracer(sc).trace(Expr(ast, "a < b"), ctx)
    assert "cannot be evaluated" in t.text and t.value is None


# ----------------------------------------------------------------------------------------- property
RULESETS = ["gin_rummy", "president", "rummy_500", "hand_and_foot", "big_two", "crazy_eights", "contract_rummy",
            "variants/president_twos_high_and_low", "variants/president_suit_lock", "variants/president_revolution",
            "variants/oklahoma_gin", "variants/crazy_eights_twos_and_queens",
            "variants/hand_and_foot_wild_discard_penalty", "variants/contract_rummy_deuces_wild", "hearts", "spades"]


def check_every_rule(g) -> int:
    """Every rule's trace verdict equals its compiled value here (or both fail); returns how many."""
    prog = g.prog
    checked = 0
    for key, expr in prog.rule_exprs.items():
        fn = prog.scope.compile(expr)
        try:
            want = fn(g)
        except Exception:                             # noqa: BLE001 -- a rule read out of its context
            want = Exception
        t = g.explain(key)
        if want is Exception:
            assert t.value is None and "cannot be evaluated" in t.text, (key, t.text)
        else:
            assert t.value == want and bool(t.value) == bool(want), (key, t.value, want, t.text)
            assert t.text and len(t.text) <= MAX_TEXT
        checked += 1
    return checked


@settings(max_examples=14, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 2**16), st.integers(0, 60))
def test_every_rules_trace_agrees_with_its_compiled_value(name, seed, moves):
    g = rules(name).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert check_every_rule(g) > 5


def test_every_bundled_game_is_checked_along_a_game():
    for name in RULESETS[:7]:
        g = rules(name).new_game(seed=3)
        rng = random.Random(3)
        for i in range(90):
            if g.is_over:
                break
            if i % 15 == 0:
                check_every_rule(g)
            g.apply(rng.choice(g.legal_actions()))


def test_refused_plays_in_climbing_games_carry_a_false_trace():
    for name in ("president", "big_two", "crazy_eights", "variants/president_suit_lock"):
        g = rules(name).new_game(seed=5)
        rng = random.Random(5)
        traced = 0
        for _ in range(80):
            if g.is_over:
                break
            legal = g.legal_actions()
            if g.phase == "climb" and g.view(0)["trick"]["last_play"]:
                for c in g.hand_of(g.current_player):
                    e = g.refusal(f"play {c}")
                    if e is not None and e.trace is not None:
                        assert e.trace.holds is False and e.rule == "beats" and len(str(e)) < 300
                        traced += 1
            g.apply(rng.choice(legal))
        assert traced, name


# ----------------------------------------------------------------------------------------- Game API
def test_game_explain_names_a_rule_and_refuses_an_unknown_one():
    g = gin_after_draw()
    assert "go_out.knock.when" in g.rules()
    t = g.explain("go_out.knock.when")
    assert t.holds is False and "deadwood(hand) = " in t.text and t.pos.line == KNOCK_WHEN
    assert f"gin_rummy.yaml:{KNOCK_WHEN}" in t.report()
    with pytest.raises(KeyError, match="did you mean `go_out.knock.when`"):
        g.explain("go_out.knok.when")


def test_refusal_is_none_for_a_legal_action_and_plays_nothing():
    g = gin_after_draw()
    card = g.hand_of(1)[0]
    assert g.refusal(f"discard {card}") is None
    assert g.refusal(f"knock {card}").rule == "GIN-KNOCK-3"
    assert g.hand_of(1).count(card) == 1 and g.history == ["pass", "pass", "draw stock"]


# ----------------------------------------------------------------------------------------- CLI
@pytest.fixture()
def run():
    runner = CliRunner()

    def invoke(*args):
        result = runner.invoke(cli, ["explain", *args])
        assert "Traceback" not in result.output
        return result
    return invoke


def test_cli_explains_a_refused_action_from_a_seed_and_actions(run):
    card = gin_after_draw().hand_of(1)[0]
    r = run("gin_rummy", "--seed", "1", "--actions", "pass; pass; draw stock", f"knock {card}")
    assert r.exit_code == 1, r.output
    assert f"`knock {card}` is not legal now" in r.output
    assert f"rule: GIN-KNOCK-3 at rulesets/gin_rummy.yaml:{KNOCK_ITEM}" in r.output
    assert "deadwood(hand) = " in r.output and "> knock_limit = 10" in r.output


def test_cli_says_a_legal_action_is_legal(run):
    card = gin_after_draw().hand_of(1)[0]
    r = run("gin_rummy", "--seed", "1", "--actions", "pass; pass; draw stock", f"discard {card}")
    assert r.exit_code == 0 and "is legal now" in r.output


def test_cli_an_unknown_action_is_the_parse_error(run):
    r = run("gin_rummy", "--seed", "1", "frobnicate 3S")
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [r.output.strip()]
    assert r.output.startswith("error: unknown action `frobnicate`")


def test_cli_bad_positions_are_one_line_errors(run, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    for args in (["gin_rummy", "knock 3S"],                                  # no position
                 ["gin_rummy", "--record", str(deep), "pass"],              # nested past the parser
                 ["gin_rummy", "--seed", "1"],                               # nothing to explain
                 ["gin_rummy", "--seed", "1", "--actions", "pass; bogus", "pass"],
                 ["gin_rummy", "--record", str(bad), "pass"],
                 ["gin_rummy", "--record", str(tmp_path / "missing.json"), "pass"],
                 ["gin_rummy", "--seed", "1", "--rule", "go_out.knok.when"]):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert r.output.startswith("error: ") and len(r.output.strip().splitlines()) == 1, r.output


def test_cli_replays_a_record_and_explains_a_rule(run, tmp_path):
    g = president_pair_on_trick()
    f = tmp_path / "game.json"
    f.write_text(json.dumps(g.record()))
    single = g.hand_of(g.current_player)[0]
    r = run("president", "--record", str(f), f"play {single}")
    assert r.exit_code == 1, r.output
    assert "play.size = 1 != last.size = 2" in r.output and "rule: beats at " in r.output
    r = run("gin_rummy", "--seed", "1", "--actions", "pass; pass; draw stock", "--rule", "go_out.knock.when")
    assert r.exit_code == 1 and f"go_out.knock.when at rulesets/gin_rummy.yaml:{KNOCK_WHEN}" in r.output


def test_the_authoring_guide_shows_what_explain_prints(run):
    """The first example of docs/authoring.md's `rulesdsl explain` section is the command's output, verbatim."""
    import shlex
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "authoring.md").read_text()
    section = doc.split("## `rulesdsl explain`", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    command, expected = block.split("\n", 1)
    args = shlex.split(command.removeprefix("$ "))
    assert args[:2] == ["rulesdsl", "explain"]
    r = run(*args[2:])
    assert r.output == expected


# ----------------------------------------------------------------------------------------- hidden cards
def hidden_scope():
    from rulesdsl.expr.compiler import Builtin
    values = {"stock": [7, 8, 9], "discard": [3, 4], "hand": [1, 2]}
    names = {k: Binding(lambda c, _k=k: c[_k]) for k in values}
    top = Builtin(lambda g, z: z[-1] if z else None, (1, 1))
    holder = Builtin(lambda g, card: 0 if card in g["hand"] else None, (1, 1), shows="secret")   # who holds it
    sc = Scope({}, names, {"top": top, "holder": holder})
    zones = {"stock": ("table", "none"), "discard": ("table", "top"), "hand": ("player", "owner")}
    return Tracer(sc, zones=zones), values


@pytest.mark.parametrize("text, hidden", [
    ("count(stock) > 5", False), ("top(discard) == 3", False), ("count(hand) == 1", False),
    ("top(stock) == 1", True), ("count(discard) > 1 and 9 in stock", True), ("sum(discard) == 1", True),
    ("holder(2) == 0", True), ("count(stock) > 1 and holder(9) == 0", True),   # a function that reads hands
])
def test_a_trace_for_a_player_never_shows_cards_that_player_cannot_see(text, hidden):
    tracer, ctx = hidden_scope()
    ast, _ = parse(text)
    full = tracer.trace(Expr(ast, text), ctx)
    sealed = tracer.trace(Expr(ast, text), ctx, seat=1)
    assert full.sealed is False and "cannot see" not in full.text
    assert sealed.sealed is hidden and sealed.value == full.value
    if hidden:
        assert sealed.text == "it reads cards seat 1 cannot see" and sealed.unsealed.text == full.text
    else:
        assert sealed.text == full.text


def test_a_refusal_that_reads_the_stock_is_sealed_and_the_command_shows_it_all(tmp_path, run):
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "rulesets" / "gin_rummy.yaml").read_text()
    old = "when: count(stock) > params.stock_floor "
    assert old in text
    f = tmp_path / "peek.yaml"
    f.write_text(text.replace(old, 'when: count(stock) > params.stock_floor and rank(top(stock)) != "A" '))
    peek = rulesdsl.load(f)
    def ace_on_stock():
        """A position (seed, game) where the stock's top card is an ace and drawing is refused."""
        for seed in range(100):
            g = peek.new_game(seed=seed)
            rng = random.Random(seed)
            for _ in range(20):
                legal = [str(a) for a in g.legal_actions()]
                if g.step_name() == "draw" and "take discard" in legal and "draw stock" not in legal:
                    return seed, g
                g.apply(rng.choice(legal))
        pytest.fail("no position with an ace on the stock")
    seed, g = ace_on_stock()
    played = list(g.history)
    e = g.refusal("draw stock")
    assert e.trace.sealed and "cannot see" in str(e) and '"A"' not in str(e) and '"A"' not in e.explain()
    assert 'rank(top(stock)) = "A" == "A"' in e.trace.unsealed.text
    r = run(str(f), "--seed", str(seed), "--actions", "; ".join(played), "draw stock")
    assert r.exit_code == 1 and 'rank(top(stock)) = "A" == "A"' in r.output
