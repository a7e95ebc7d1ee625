"""Per-seat counters kept by the engine as actions happen (issue 10, item 4): `counters:` with `on`,
`add`, `seat`, `when` and a reset scope (the seat's turn, a trick, a deal, never)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl

BUNDLED = Path(rulesdsl.__file__).resolve().parent.parent / "rulesets"


def _load(tmp_path, base: str, extra: str, overrides=None) -> rulesdsl.Rules:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {BUNDLED / (base + '.yaml')}\n{extra}")
    return rulesdsl.load(path, overrides=overrides)


def test_a_turn_counter_limits_draws_to_one_per_turn(tmp_path):
    rules = _load(tmp_path, "crazy_eights",
                  "counters:\n  draws_now: {on: [draw], resets: turn}\n"
                  "climbing:\n  draw_when: counters.draws_now < 1\n"
                  "  pass_when: not can_play and (count(stock) == 0 or counters.draws_now >= 1)\n")
    for seed in range(4):
        g = rules.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        drew = None                                   # the seat that drew, while its turn lasts
        for _ in range(400):
            if g.is_over:
                break
            seat = g.current_player
            acts = [str(a) for a in g.legal_actions()]
            if drew == seat:
                assert "draw stock" not in acts       # a second draw in the same turn is never offered
            else:
                drew = None
            a = rng.choice(acts)
            g.apply(a)
            if a == "draw stock" and g.current_player == seat:
                drew = seat


def test_a_deal_counter_counts_each_seats_plays_and_scoring_reads_it(tmp_path):
    rules = _load(tmp_path, "big_two",
                  "counters:\n  plays_made: {on: [play], resets: deal}\n  cards_played: {on: [play], add: event.size}\n"
                  "scoring:\n  each_player: 'player.plays_made * 1000 + player.cards_played'\n"
                  "match:\n  ends_when: deal.number >= 1\n  on_tie: shared\n")
    g = rules.new_game(players=4, seed=7)
    rng = random.Random(7)
    plays = [0] * 4
    cards = [0] * 4
    while not g.is_over:
        seat = g.current_player
        a = rng.choice(g.legal_actions())
        if a.verb == "play":
            plays[seat] += 1
            cards[seat] += len(a.cards)
        g.apply(a)
    assert g.scores == [p * 1000 + c for p, c in zip(plays, cards)]
    assert sum(cards) == 52 - sum(len(g.hand_of(s)) for s in range(4))


def test_a_layoff_counter_credits_the_owner_of_the_meld(tmp_path):
    rules = _load(tmp_path, "rummy_500",
                  "counters:\n  laid_on_me: {on: [layoff], seat: event.meld_owner, when: 'event.meld_owner != player',"
                  " resets: match}\n")
    found = 0
    for seed in range(6):
        g = rules.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        expect = [0] * 3
        for _ in range(3000):
            if g.is_over:
                break
            acts = g.legal_actions()
            a = acts[rng.randrange(len(acts))]
            if a.verb == "layoff":
                owner = g.view(0)["melds"][a.target - 1]["owner"]
                if owner != g.current_player:
                    expect[owner] += 1
                    found += 1
            g.apply(a)
            assert g.counters["laid_on_me"] == expect
    assert found > 0


def test_counters_are_checked_at_load(tmp_path):
    with pytest.raises(rulesdsl.RulesetError) as e:
        _load(tmp_path, "gin_rummy", "counters:\n  hand: {on: [discard]}\n  knocks: {on: [knok]}\n")
    codes = {d.code for d in e.value.diagnostics}
    assert {"E-DUPLICATE", "E-UNKNOWN-ACTION"} <= codes
    assert any("knock" in (d.hint or "") for d in e.value.diagnostics if d.code == "E-UNKNOWN-ACTION")
