"""Deal and stock details (issue 10, item 8): deal steps switched by a parameter (`when:`), a turned-up
card covered while it is of a class (`cover_while`), the card just drawn (`turn.drawn`), and a stock-out
that shuffles the discard pile, less its top card, into a new stock (`stock_out.result: reshuffle`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl

BUNDLED = Path(rulesdsl.__file__).resolve().parent.parent / "rulesets"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
DECK = [r + s for s in "SHDC" for r in RANKS]


def _load(tmp_path, base: str, extra: str, overrides=None) -> rulesdsl.Rules:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {BUNDLED / (base + '.yaml')}\n{extra}")
    return rulesdsl.load(path, overrides=overrides)


def _total(g) -> int:
    v = g.view(0)
    n = 0
    for z in v["zones"].values():
        n += sum(e["count"] for e in z) if isinstance(z, list) else z["count"]
    return n + sum(len(m["cards"]) for m in v["melds"])


def test_a_deal_step_switched_off_by_a_parameter_does_not_happen(tmp_path):
    extra = ("params: {starter: {default: true}}\n"
             "deal:\n  - {deal: 'if players == 2 then 7 else 5', to: hand}\n"
             "  - {turn_up: discard, bury_while: 'rank(card) == \"8\"', when: params.starter}\n")
    on = _load(tmp_path, "crazy_eights", extra).new_game(players=3, seed=2)
    assert on.view(0)["zones"]["discard"]["count"] == 1 and on.view(0)["trick"]["last_play"]
    off = _load(tmp_path, "crazy_eights", extra, {"starter": False}).new_game(players=3, seed=2)
    assert off.view(0)["zones"]["discard"]["count"] == 0
    assert off.view(0)["zones"]["stock"]["count"] == 52 - 15
    assert "pass" not in [str(a) for a in off.legal_actions()]        # the first player leads anything
    assert len([a for a in off.legal_actions() if a.verb == "play"]) >= 5


def _gin_deck(upcards):
    """Two players, dealer 0: 20 cards dealt alternately, then ``upcards`` in order, then the rest."""
    hands = [c for c in DECK if c not in upcards][:20]
    rest = [c for c in DECK if c not in upcards and c not in hands]
    return hands + list(upcards) + rest


def test_a_turned_up_card_of_the_class_is_covered_and_stays_under_the_pile(tmp_path):
    rules = _load(tmp_path, "gin_rummy", "deal:\n  - {deal: 10, to: hand}\n"
                                        "  - {turn_up: discard, as: upcard, cover_while: 'rank(card) == \"A\"'}\n")
    g = rules.new_game(seed=1, dealer=0, deck=_gin_deck(["AS", "AH", "5D"]))
    v = g.view(1)
    assert v["zones"]["discard"]["count"] == 3 and v["zones"]["discard"]["top"] == "5D"
    assert v["zones"]["stock"]["count"] == 52 - 23
    assert "take discard" in [str(a) for a in g.legal_actions()]     # the offer is of the covering card
    g.apply("take discard")
    assert "5D" in g.hand_of(g.current_player)


def test_turn_drawn_names_the_card_just_drawn(tmp_path):
    rules = _load(tmp_path, "gin_rummy", "turn:\n  - step: draw\n    actions:\n      - draw: stock\n"
                                        "      - take: discard\n  - step: discard\n    actions:\n"
                                        "      - discard: discard\n        forbid: card == turn.drawn\n")
    g = rules.new_game(seed=4, dealer=0)
    while g.phase != "turn" or g.view(g.current_player)["step"] != "draw":
        g.apply("pass")
    seat = g.current_player
    before = set(g.hand_of(seat))
    g.apply("draw stock")
    drawn = (set(g.hand_of(seat)) - before).pop()
    discards = [a.cards[0] for a in g.legal_actions() if a.verb == "discard"]
    assert drawn not in discards and len(discards) == 10
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply(f"discard {drawn}")


def test_a_reshuffling_stock_out_turns_the_discard_pile_into_the_stock(tmp_path):
    rules = _load(tmp_path, "gin_rummy", "stock_out: {when: count(stock) <= 2, result: reshuffle}\n",
                  {"knock_allowed": False})       # gin only: hands run long enough to reach the stock's end
    seen = 0
    for seed in range(6):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.is_over:
                break
            before = g.view(0)
            stock_before, pile_before = before["zones"]["stock"]["count"], before["zones"]["discard"]["count"]
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            assert _total(g) == 52
            after = g.view(0)["zones"]
            if after["stock"]["count"] > stock_before and g.hand_number == before["hand_number"]:
                seen += 1
                assert after["discard"]["count"] == 1                      # only the top card stays
                assert after["stock"]["count"] == stock_before + pile_before - 1 \
                    or after["stock"]["count"] == stock_before + pile_before   # the turn's own discard moved too
    assert seen > 0
    # no hand ever ended on the stock: void hands come only when there was nothing to shuffle
    assert all(h["ending"] != "stock" for h in g.hand_log)


def test_cover_while_and_seat_are_refused_on_the_wrong_kind_of_step(tmp_path):
    with pytest.raises(rulesdsl.RulesetError) as e:
        _load(tmp_path, "gin_rummy", "deal:\n  - {deal: 10, to: hand, cover_while: 'true'}\n"
                                     "  - {turn_up: discard, as: upcard, seat: 0}\n")
    msgs = [d.message for d in e.value.diagnostics if d.code == "E-DEAL"]
    assert any("cover_while" in m for m in msgs) and any("`seat`" in m for m in msgs)


def test_a_reshuffle_after_a_last_chance_lets_the_player_who_passed_play_on(tmp_path):
    rules = _load(tmp_path, "gin_rummy", "stock_out: {when: count(stock) <= 2, result: reshuffle}\n",
                  {"knock_allowed": False, "last_discard_option": True})
    found = 0
    for seed in range(10):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if g.is_over:
                break
            if g.phase == "last_chance" and "pass" in [str(a) for a in g.legal_actions()]:
                seat, hand = g.current_player, g.hand_number
                g.apply("pass")
                if g.hand_number == hand:                 # a new stock, not a void hand
                    found += 1
                    assert g.phase == "turn" and g.current_player == seat
                    assert g.view(seat)["step"] == "draw" and "draw stock" in [str(a) for a in g.legal_actions()]
                continue
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
            assert _total(g) == 52
    assert found > 0


def test_a_deal_size_may_change_from_deal_to_deal(tmp_path):
    rules = _load(tmp_path, "gin_rummy", "deal:\n  - {deal: 'if deal.number == 1 then 10 else 7', to: hand}\n"
                                        "  - {turn_up: discard, as: upcard}\n")
    g = rules.new_game(seed=1)
    assert [len(g.hand_of(s)) for s in range(2)] == [10, 10]
    rng = random.Random(0)
    while g.hand_number == 1:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    assert [len(g.hand_of(s)) for s in range(2)] == [7, 7] and g.view(0)["step"] != "discard"   # a fresh deal
    assert g.view(0)["zones"]["stock"]["count"] + sum(len(g.hand_of(s)) for s in range(2)) + \
        g.view(0)["zones"]["discard"]["count"] == 52


def test_a_deal_size_by_deal_number_is_checked_for_later_deals_at_load(tmp_path):
    with pytest.raises(rulesdsl.RulesetError) as e:
        _load(tmp_path, "gin_rummy", "deal:\n  - {deal: 'if deal.number == 3 then 30 else 7', to: hand}\n"
                                     "  - {turn_up: discard, as: upcard}\n")
    d = [x for x in e.value.diagnostics if x.code == "E-DEAL-TOO-MANY"]
    assert d and "in deal 3" in d[0].message
