"""Regressions from review: bad rulesets fail located at load or cleanly at play; the engine never
half-changes a game, never hangs, never leaks hidden cards, and never names a pile by a fixed word."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl

GIN = str(Path(__file__).resolve().parents[1] / "rulesets" / "gin_rummy.yaml")
HF = str(Path(__file__).resolve().parents[1] / "rulesets" / "hand_and_foot.yaml")


def _file(tmp_path: Path, text: str) -> str:
    f = tmp_path / "r.yaml"
    f.write_text(text)
    return str(f)


@pytest.mark.parametrize("body, code", [
    ("claims: {rummy: {}}\n", "E-MISSING"),                       # claims need open melds
    ("turn:\n  - step: draw\n    actions:\n      - {draw: stock}\n"
     "      - {take: discard, depth: any, must_meld: 'count(turn.taken_cards) > 1'}\n"
     "  - step: finish\n    actions: [{discard: discard}]\n", "E-MISSING"),
    ("derived: {x: 'play.size + 1'}\n", "E-UNDEFINED"),           # climbing names need climbing
    ("deck: {copies: '1 // (players - 2)'}\n", "E-EVAL"),         # a setup value that fails
    ("classes: {odd: 'value(card) / 0 > 1'}\n", "E-EVAL"),        # a card condition that fails
    ("players: {min: 2, max: 3000}\n", "E-RANGE"),                 # bounded sizes
    ("params: {knock_limit: {default: 1, min: [1]}}\n", "E-TYPE"),
    ("deal: [{deal: all, to: hand}, {turn_up: discard}]\n", "E-DEAL"),
])
def test_bad_rulesets_are_located_errors_at_load(tmp_path, body, code):
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(_file(tmp_path, f"extends: {GIN}\n" + body))
    assert code in {d.code for d in exc.value.diagnostics}, [d.format() for d in exc.value.diagnostics]


def test_an_extends_name_too_long_for_the_file_system_is_not_found(tmp_path):
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(_file(tmp_path, "extends: " + "x" * 300 + "\n"))
    assert exc.value.diagnostics[0].code == "E-NOT-FOUND"


def test_bury_while_that_buries_everything_fails_cleanly_not_forever(tmp_path):
    f = _file(tmp_path, f"extends: {GIN}\ndeal:\n  - {{deal: params.hand_size, to: hand}}\n"
                        "  - {turn_up: discard, as: upcard, bury_while: 'true'}\n")
    with pytest.raises(rulesdsl.RuleEvaluationError):
        rulesdsl.load(f).new_game(seed=1)


def test_a_rule_failing_in_play_breaks_the_game_without_losing_cards(tmp_path):
    f = _file(tmp_path, f"extends: {HF}\ntable:\n  books: {{clean: 'wilds == 0', dirty: 'wilds > 0 and "
                        "naturals // (wilds - wilds) > 0', wild: 'naturals == 0'}\n")      # divides by zero in play
    g = rulesdsl.load(f).new_game(seed=0)
    rng = random.Random(0)
    with pytest.raises(rulesdsl.RuleEvaluationError):
        for _ in range(5000):
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
    assert g.cards_in_play == 270
    with pytest.raises(rulesdsl.RuleEvaluationError):
        g.apply("pass")                                      # a broken game stays stopped


def test_the_discard_pile_may_have_any_name(tmp_path):
    text = Path(GIN).read_text().replace("discard: discard", "discard: pile").replace(
        "offer: discard", "offer: pile").replace("take: discard", "take: pile").replace(
        "turn_up: discard", "turn_up: pile").replace("  discard: {visible: top}", "  pile: {visible: top}")
    rules = rulesdsl.load(_file(tmp_path, text), overrides={"last_discard_option": True})
    for seed in range(6):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number < 4:
            acts = g.legal_actions()
            assert acts
            g.apply(acts[rng.randrange(len(acts))])
            assert g.cards_in_play == 52


def test_last_chance_never_leaves_the_taker_without_a_move():
    """The 50th-card rule: taking the last discard is offered only if the taker can then go out --
    judged with the card remembered as taken (so it may not be the go-out discard)."""
    rules = rulesdsl.load("variants/gin_tournament_last_discard")
    for seed in range(12):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over and g.hand_number < 6:
            acts = g.legal_actions()
            assert acts, (seed, g.history[-5:])
            outs = [a for a in acts if a.verb in ("knock", "gin")]
            if g.phase == "last_chance":
                a = next((x for x in acts if x.verb == "take"), acts[0])
            else:
                a = next((x for x in acts if x.verb == "discard"), None) if not outs and g.phase == "turn" \
                    else None
                a = a or acts[rng.randrange(len(acts))]
            g.apply(a)


def test_a_go_out_action_honours_its_own_condition(tmp_path):
    text = Path(GIN).read_text().replace("      - go_out: knock                        # GIN-KNOCK-3",
                                         "      - {go_out: knock, when: 'false'}")
    rules = rulesdsl.load(_file(tmp_path, text), overrides={"knock_limit": 100})
    g = rules.new_game(seed=3)
    g.apply("pass")
    g.apply("pass")
    g.apply("draw stock")
    assert not [a for a in g.legal_actions() if a.verb == "knock"]


def test_action_text_is_case_tolerant():
    g = rulesdsl.load("gin_rummy").new_game(seed=2)
    g.apply("PASS")
    g.apply("pass")
    g.apply("Draw STOCK")
    assert g.history[-1] == "draw stock"


def test_views_copy_the_log():
    g = rulesdsl.load("gin_rummy", overrides={"target_score": 1000}).new_game(seed=1)
    rng = random.Random(1)
    while not g.hand_log:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    v = g.view(0)
    v["last_hands"][0]["points"] = 999
    assert g.hand_log[0]["points"] != 999


def test_team_zones_visible_to_the_team_only(tmp_path):
    f = _file(tmp_path, f"extends: {HF}\nzones:\n  red_threes: {{per: team, visible: team}}\n")
    g = rulesdsl.load(f).new_game(seed=4)
    v0, v1 = g.view(0), g.view(1)
    assert "cards" in v0["team_zones"]["red_threes"][0] and "cards" not in v0["team_zones"]["red_threes"][1]
    assert "cards" in v1["team_zones"]["red_threes"][1] and "cards" not in v1["team_zones"]["red_threes"][0]


@pytest.mark.parametrize("expr,code", [('count("ab" * 400000000)', "E-TYPE"), ("1 // 0", "E-EVAL"),
                                       ("max(1, \"a\")", "E-EVAL"), ("-\"a\"", "E-EVAL")])
def test_constant_expressions_that_fail_are_located_errors(tmp_path, expr, code):
    """Folded at load: they would fail every time, so they are reported (and nothing huge is built); a
    text multiplied is refused by its types before anything is computed."""
    f = _file(tmp_path, f"extends: {GIN}\nderived: {{x: '{expr}'}}\n")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(f)
    d = exc.value.diagnostics[0]
    assert d.code == code and d.pos.line == 2
