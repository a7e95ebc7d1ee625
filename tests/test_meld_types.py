"""Several meld types of one kind, each with its own conditions (issue 10, item 7, for group melds): each
rank belongs to the first group type that lists it; a type has its own size, wild ratio and `when`."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl

RULES = """
name: Two group types
players: {min: 2, max: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K], suits: [S, H, D, C], jokers: 1}
wild: is_joker(card)
melds:
  threes: {kind: group, ranks: [3], min: 3, max: 4, wild_ratio: wilds == 0, when: count(hand) <= 5}
  group: {kind: group, min: 3, wild_ratio: naturals >= 2}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 7, to: hand}, {turn_up: discard}]
table: {owner: player}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
ALL = [r + s for s in "SHDC" for r in RANKS] + ["Jk"]


def _game(tmp_path, seat1: list, seat0: list, up: str, stock: list):
    path = tmp_path / "two_groups.yaml"
    path.write_text(RULES)
    rules = rulesdsl.load(path)
    deck = []
    for a, b in zip(seat1, seat0):
        deck += [a, b]
    deck += [up] + stock
    deck += [c for c in ALL if c not in deck]
    return rules.new_game(seed=0, dealer=0, deck=deck)


def _melds(g) -> set:
    return {frozenset(a.cards) for a in g.legal_actions() if a.verb == "meld"}


SEAT0 = ["AS", "5H", "7D", "9C", "JS", "KH", "2D"]


def test_a_rank_of_the_restricted_type_is_melded_only_while_its_condition_holds(tmp_path):
    # seat 1: four threes, two sevens and a joker; 8 cards after the draw: the threes' `when` is false
    g = _game(tmp_path, ["3S", "3H", "3D", "3C", "7S", "7H", "Jk"], SEAT0, "QC", ["KC", "QD"])
    g.apply("draw stock")
    assert not any(all(c.startswith("3") for c in m) for m in _melds(g))
    seven = next(a for a in g.legal_actions() if a.verb == "meld" and {"7S", "7H"} <= {c.split("=")[0] for c in a.cards})
    g.apply(seven)                                        # 5 cards left: now the threes may go down
    threes = [m for m in _melds(g) if all(c.startswith("3") for c in m)]
    assert threes and all(len(m) in (3, 4) for m in threes)
    assert frozenset({"3S", "3H", "3D", "3C"}) not in threes    # new melds start at the minimum (3)


def test_the_restricted_type_takes_no_wild_card(tmp_path):
    g = _game(tmp_path, ["3S", "3H", "Jk", "8S", "8H", "8D", "JC"], SEAT0, "QC", ["KC", "QD"])
    g.apply("draw stock")
    g.apply("meld 8S 8H 8D")                              # 5 cards left: 3S 3H Jk JC KC
    assert g.hand_of(1) and len(g.hand_of(1)) == 5
    assert not any(any(c.startswith("3") or "=3" in c for c in m) for m in _melds(g))   # 3S 3H Jk: no


def test_other_ranks_follow_the_general_type(tmp_path):
    g = _game(tmp_path, ["8S", "8H", "Jk", "3S", "9H", "10D", "JC"], SEAT0, "QC", ["KC", "QD"])
    g.apply("draw stock")
    assert any({"8S", "8H"} <= {c.split("=")[0] for c in m} and any(c.startswith("Jk") for c in m)
               for m in _melds(g))                       # a wild card joins an 8 group (naturals >= 2)


def test_when_is_refused_on_a_run(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(RULES.replace("  group: {kind: group, min: 3, wild_ratio: naturals >= 2}",
                                  "  run: {kind: run, min: 3, when: count(hand) <= 5}"))
    with pytest.raises(rulesdsl.RulesetError) as e:
        rulesdsl.load(path)
    assert any(d.code == "E-UNSUPPORTED" and "`when`" in d.message for d in e.value.diagnostics)
