"""The deadwood shortcut of the discard go-out scan (``compile.bounds``) never changes a listing.

A go-out that discards is judged on the hand without each card; where its condition starts with
``deadwood(hand) <= K``, cards whose removal cannot bring the deadwood down to ``K`` are skipped
without judging (deadwood(hand) <= deadwood(hand - c) + value(c)).  These tests check which
conditions get the shortcut, and that a ruleset with it lists exactly what the same rules written
so that it does not apply list (``deadwood(hand) + 0``), position by position, in random play.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl


def variant(tmp_path, name: str, knock: str, gin: str = "deadwood(hand) == 0") -> rulesdsl.Rules:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: gin_rummy\ngo_out:\n  knock: {{when: '{knock}'}}\n  gin: {{when: '{gin}'}}\n",
                    encoding="utf-8")
    return rulesdsl.load(path)


def caps(rules) -> dict:
    return {name: (g.cap[0] if g.cap else None) for name, g in rules.program().go_out.items()}


def test_gin_rummy_conditions_get_their_caps():
    assert caps(rulesdsl.load("gin_rummy")) == {"gin": 0, "knock": 10, "big_gin": None}
    assert caps(rulesdsl.load("gin_rummy", overrides={"knock_limit": 7}))["knock"] == 7


def test_a_cap_that_is_not_constant_or_not_first_is_not_used(tmp_path):
    # Oklahoma: the limit is the upcard's value, known only in play
    assert caps(rulesdsl.load("oklahoma_gin"))["knock"] is None
    # straight gin: the knock folds to false (no cap needed: it is never judged true)
    assert caps(rulesdsl.load("straight_gin"))["knock"] is None
    # a term that is not constant comes first: it must still be judged for every card
    assert caps(variant(tmp_path, "a", "count(stock) > 5 and deadwood(hand) <= 10"))["knock"] is None
    # `<` and `==` give their caps; `>=` or an expression around deadwood give none
    assert caps(variant(tmp_path, "b", "deadwood(hand) < 10"))["knock"] == 9
    assert caps(variant(tmp_path, "c", "deadwood(hand) + 0 <= 10"))["knock"] is None
    assert caps(variant(tmp_path, "d", "deadwood(hand) >= 10"))["knock"] is None
    assert caps(variant(tmp_path, "e", "true and deadwood(hand) <= 4 and count(hand) > 2"))["knock"] == 4


def play_in_lockstep(a: rulesdsl.Rules, b: rulesdsl.Rules, seed: int, decisions: int) -> int:
    """Play both rulesets with the same choices; every listing must be identical.  Returns how
    many listings offered a go-out (so the test knows it saw some)."""
    ga, gb = a.new_game(seed=seed), b.new_game(seed=seed)
    rng = random.Random(seed)
    outs = 0
    for _ in range(decisions):
        if ga.is_over:
            break
        la, lb = ga.legal_actions(), gb.legal_actions()
        assert [str(x) for x in la] == [str(x) for x in lb]
        outs += any(x.verb in ("knock", "gin") for x in la)
        # lean towards going out, so that hands reach the knock path as well as the draw/discard one
        goes = [x for x in la if x.verb in ("knock", "gin")]
        choice = goes[0] if goes and rng.random() < 0.5 else la[rng.randrange(len(la))]
        ga.apply(choice)
        gb.apply(str(choice))
    return outs


@settings(max_examples=12, deadline=None)
@given(limit=st.integers(0, 30), op=st.sampled_from(["<=", "<", "=="]), seed=st.integers(0, 10_000))
def test_the_shortcut_lists_exactly_what_judging_every_card_lists(tmp_path_factory, limit, op, seed):
    tmp = tmp_path_factory.mktemp("caps")
    fast = variant(tmp, "fast", f"deadwood(hand) {op} {limit} and deadwood(hand) > 0",
                   gin=f"deadwood(hand) {op} {min(limit, 3)}")
    slow = variant(tmp, "slow", f"deadwood(hand) + 0 {op} {limit} and deadwood(hand) > 0",
                   gin=f"deadwood(hand) + 0 {op} {min(limit, 3)}")
    assert caps(fast)["knock"] is not None and caps(slow)["knock"] is None
    play_in_lockstep(fast, slow, seed, 600)


def test_lockstep_reaches_go_outs(tmp_path):
    """The property above is not vacuous: with a generous cap, go-outs are listed and taken."""
    fast = variant(tmp_path, "fast", "deadwood(hand) <= 40 and deadwood(hand) > 0")
    slow = variant(tmp_path, "slow", "deadwood(hand) + 0 <= 40 and deadwood(hand) > 0")
    assert play_in_lockstep(fast, slow, 7, 800) > 0


# ---------------------------------------------------------------------------- a card singled out
def forbid_variant(tmp_path, name: str, forbid: str) -> rulesdsl.Rules:
    path = tmp_path / f"{name}.yaml"
    path.write_text("extends: gin_rummy\nturn:\n  - step: draw\n    actions: [{draw: stock, when: 'count(stock) > 2'}, "
                    "{take: discard}]\n  - step: finish\n    actions:\n"
                    f"      - {{discard: discard, forbid: '{forbid}'}}\n"
                    "      - {go_out: gin}\n      - {go_out: knock}\n", encoding="utf-8")
    return rulesdsl.load(path)


def singled_out(rules) -> list:
    return [a.forbid_card is not None for s in rules.program().steps for a in s.actions if a.kind == "discard"]


def test_a_restriction_that_names_one_card_is_recognised(tmp_path):
    assert singled_out(rulesdsl.load("gin_rummy")) == [True]             # card == turn.taken
    assert singled_out(forbid_variant(tmp_path, "a", "turn.taken == card")) == [True]
    assert singled_out(forbid_variant(tmp_path, "b", "card == turn.drawn")) == [True]
    # anything else is judged card by card
    assert singled_out(forbid_variant(tmp_path, "c", "value(card) > 9")) == [False]
    assert singled_out(forbid_variant(tmp_path, "d", "value(card) >= 0 and card == turn.taken")) == [False]
    assert singled_out(forbid_variant(tmp_path, "e", "card != turn.taken")) == [False]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), drawn=st.booleans())
def test_a_singled_out_card_is_refused_exactly_as_judging_every_card(tmp_path_factory, seed, drawn):
    tmp = tmp_path_factory.mktemp("forbid")
    x = "turn.drawn" if drawn else "turn.taken"
    fast = forbid_variant(tmp, "fast", f"card == {x}")
    slow = forbid_variant(tmp, "slow", f"value(card) >= 0 and card == {x}")
    assert singled_out(fast) == [True] and singled_out(slow) == [False]
    play_in_lockstep(fast, slow, seed, 500)
