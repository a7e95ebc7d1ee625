"""Replacement of auto-laid cards by how they arrived (issue 10, item 8): `auto_lay.replace_when` over
`card` and `arrived` ("dealt", "drawn", "taken").  The ruleset: Gin, where kings never stay in a hand."""

from __future__ import annotations

import rulesdsl

from gin_helpers import stack

KINGS = """extends: gin_rummy
classes:
  king: rank(card) == "K"
zones:
  laid: {per: player, visible: all}
auto_lay: {class: king, to: laid, replace_from: stock, replace_when: arrived != "taken"}
"""
ND = ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "10D"]
DL = ["AH", "2H", "3H", "4S", "5S", "6S", "7D", "8D", "9D", "10C"]


def _rules(tmp_path, text=KINGS):
    path = tmp_path / "kings.yaml"
    path.write_text(text)
    return rulesdsl.load(path)


def test_a_taken_king_is_laid_but_not_replaced(tmp_path):
    g = _rules(tmp_path).new_game(seed=1, dealer=0, deck=stack(ND, DL, "KD", ["QS", "JH"]))
    g.apply("take discard")                              # the non-dealer takes the offered king
    v = g.view(1)
    assert v["zones"]["laid"][1]["cards"] == ["KD"]
    assert len(g.hand_of(1)) == 10 and "QS" not in g.hand_of(1)
    assert v["zones"]["stock"]["count"] == 52 - 21       # nothing drawn to replace it


def test_a_drawn_king_is_replaced_and_so_is_a_dealt_one(tmp_path):
    g = _rules(tmp_path).new_game(seed=1, dealer=0, deck=stack(ND, DL, "QD", ["KS", "JH", "10H"]))
    g.apply("pass")
    g.apply("pass")
    g.apply("draw stock")                                # the non-dealer draws KS: laid, JH replaces it
    v = g.view(1)
    assert v["zones"]["laid"][1]["cards"] == ["KS"] and "JH" in g.hand_of(1) and len(g.hand_of(1)) == 11
    dealt = ["KC"] + ND[1:]
    g = _rules(tmp_path).new_game(seed=1, dealer=0, deck=stack(dealt, DL, "QD", ["JH", "10H"]))
    g.apply("pass")
    g.apply("pass")                                      # the non-dealer's turn begins: the dealt king goes
    v = g.view(1)
    assert v["zones"]["laid"][1]["cards"] == ["KC"] and "JH" in g.hand_of(1) and len(g.hand_of(1)) == 10


def test_without_replace_when_a_taken_king_is_replaced(tmp_path):
    text = KINGS.replace(', replace_when: arrived != "taken"', "")
    g = _rules(tmp_path, text).new_game(seed=1, dealer=0, deck=stack(ND, DL, "KD", ["QS", "JH"]))
    g.apply("take discard")
    assert "QS" in g.hand_of(1) and len(g.hand_of(1)) == 11
