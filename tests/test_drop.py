"""A declaration that shows the hand without arranging it (issue 10, item 3): `go_out.NAME.arrange: false`.

The declarer's cards stay in the hand, face up; `held(declarer)` counts all of them, and scoring compares
totals (the lowest wins; a dropper who is not lowest pays more)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl

BUNDLED = Path(rulesdsl.__file__).resolve().parent.parent / "rulesets"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
ALL = [r + s for s in "SHDC" for r in RANKS]
VALUE = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}

DROP = """
go_out:
  drop: {discard: none, arrange: false, when: 'held(player) <= 60'}
turn:
  - step: draw
    actions:
      - draw: stock
      - take: discard
  - step: finish
    actions:
      - discard: discard
      - go_out: drop
scoring:
  outcomes:
    - when: ending == "drop" and held(declarer) < held(defender)
      scorer: declarer
      points: held(defender) - held(declarer)
    - when: ending == "drop"
      scorer: defender
      points: 2 * (held(declarer) - held(defender)) + 10
"""


def _rules(tmp_path):
    path = tmp_path / "drop.yaml"
    path.write_text(f"extends: {BUNDLED / 'gin_rummy.yaml'}\n{DROP}")
    return rulesdsl.load(path)


def _deal(rules, non_dealer, dealer, upcard, stock_top):
    deck = []
    for a, b in zip(non_dealer, dealer):
        deck += [a, b]
    deck += [upcard] + stock_top
    deck += [c for c in ALL if c not in deck]
    return rules.new_game(seed=0, dealer=0, deck=deck)


def _value(cards):
    return sum(VALUE[c[:-1]] for c in cards)


# seat 1 (non-dealer) holds a low hand containing a run: a drop shows it unmelded
LOW = ["AS", "2S", "3S", "AH", "2H", "AD", "2D", "AC", "3H", "4C"]        # 20 points, AS-2S-3S a run
HIGH = ["KS", "QS", "JH", "KH", "QD", "JD", "KC", "QC", "9S", "8H"]       # 96 points, no meld


def _to_drop(g):
    g.apply("pass")                   # the non-dealer declines the upcard
    g.apply("pass")                   # so does the dealer
    g.apply("draw stock")             # the non-dealer draws the forced card (5C, worth 5)


def test_a_drop_shows_the_whole_hand_and_held_counts_every_card(tmp_path):
    g = _deal(_rules(tmp_path), LOW, HIGH, "10D", ["5C"])
    _to_drop(g)
    assert "drop" in [str(a) for a in g.legal_actions()]
    g.apply("drop")
    rec = g.hand_log[-1]
    assert rec["ending"] == "drop" and rec["declarer"] == 1
    assert rec["deadwood"][1] == _value(LOW) + 5 == 25               # not arranged: the run counts
    assert rec["scorer"] == 1 and rec["points"] == _value(HIGH) - 25
    assert g.hand_number == 2


def test_a_dropper_who_is_not_lowest_pays_more(tmp_path):
    dealer = ["3D", "4S", "4H", "4D", "5S", "5H", "6S", "6H", "7S", "7H"]      # 51 points
    g = _deal(_rules(tmp_path), LOW, dealer, "10D", ["5C", "3C"])
    _to_drop(g)
    g.apply("discard 5C")                     # the non-dealer keeps 20 points
    g.apply("draw stock")                     # the dealer draws 3C: 54 points, and drops anyway
    g.apply("drop")
    rec = g.hand_log[-1]
    assert rec["declarer"] == 0 and rec["deadwood"][0] == 54
    assert rec["scorer"] == 1 and rec["points"] == 2 * (54 - _value(LOW)) + 10


def test_a_drop_with_layoffs_is_refused_at_load(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {BUNDLED / 'gin_rummy.yaml'}\n"
                    "go_out:\n  knock: {arrange: false}\n")
    with pytest.raises(rulesdsl.RulesetError) as e:
        rulesdsl.load(path)
    assert any(d.code == "E-IGNORED" and "arrange: false" in d.message for d in e.value.diagnostics)
