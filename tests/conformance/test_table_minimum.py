"""First melds under conditions (docs/language.md, "Partnerships": `table.initial_minimum`,
`counts_toward_minimum`; "Contracts": `table.contract`).  Two players, A..8 in four suits, face values."""

from __future__ import annotations


import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import dealt, game, legal, refusal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: minimum
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
melds:
  run: {kind: run, min: 3}
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 9, to: hand}, {turn_up: discard}]
table: {owner: player, %s}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [%s]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""
OPEN = "{meld: any}, {layoff: any}, {discard: discard}"
CONTRACT = ("{meld: any, when: not team_melded(player)}, {layoff: any, when: team_melded(player)}, "
            "{discard: discard}")
SEAT0 = ["AH", "2H", "4H", "6H", "AD", "3D", "7D", "AC", "3C"]


def stack(seat1, seat0, up, stock):
    return dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS], then=[up, *stock])


def seat1_draws(table, actions, hand, drawn, stock=("6C", "7C"), seat0=SEAT0):
    g = game(RULES % (table, actions), stack(hand, seat0, "4C", [drawn] + list(stock)), dealer=0)
    g.apply("draw stock")
    return g


def melds(g):
    return sorted(a for a in legal(g) if a.startswith("meld"))


def discards(g):
    return sorted(a for a in legal(g) if a.startswith("discard"))


HAND = ["5S", "5H", "5D", "8S", "8H", "8D", "2S", "2D", "2C"]     # 15 + 24 + 6


@documents("table.initial_minimum")
def test_the_first_melds_of_a_turn_must_reach_the_minimum():
    """`initial_minimum`: until an owner has melded, the cards one player places in one turn must total
    it; a meld is offered only if the minimum stays reachable with the cards left, and the turn cannot
    end between zero and the minimum.  The hand: three 5s (15), three 8s (24), three 2s (6)."""
    g = seat1_draws("initial_minimum: 40", OPEN, HAND, "7S")
    assert melds(g) == ["meld 2S 2D 2C", "meld 5S 5H 5D", "meld 8S 8H 8D"]   # only all three make 45
    assert len(discards(g)) == 10                                 # not melding at all is allowed
    g.apply("meld 5S 5H 5D")                                      # 15: the turn cannot end here
    assert legal(g) == ["meld 2S 2D 2C", "meld 8S 8H 8D"]
    g.apply("meld 8S 8H 8D")                                      # 39: not yet
    assert legal(g) == ["meld 2S 2D 2C"]
    g.apply("meld 2S 2D 2C")                                      # 45 >= 40: down
    assert legal(g) == ["discard 7S"]
    g = seat1_draws("initial_minimum: 30", OPEN, HAND, "7S")
    g.apply("meld 5S 5H 5D")
    g.apply("meld 8S 8H 8D")                                      # 39 >= 30: the turn may end
    assert melds(g) == ["meld 2S 2D 2C"] and len(discards(g)) == 4
    g = seat1_draws("initial_minimum: 46", OPEN, HAND, "7S")
    assert melds(g) == []                                         # 45 < 46: nothing may be melded


@documents("table.initial_minimum")
def test_after_the_initial_meld_any_meld_is_allowed():
    """The minimum binds only until an owner has melded: a later turn's meld of 6 points is allowed."""
    seat0 = ["AH", "3H", "4H", "6H", "AD", "3D", "7D", "AC", "3C"]
    g = seat1_draws("initial_minimum: 30", OPEN, ["5S", "5H", "5D", "8S", "8H", "8D", "2S", "2D", "7C"], "7S",
                    stock=("7H", "2H"), seat0=seat0)
    assert melds(g) == ["meld 5S 5H 5D", "meld 8S 8H 8D"]       # 2S 2D: no third 2 yet
    g.apply("meld 5S 5H 5D")
    g.apply("meld 8S 8H 8D")
    g.apply("discard 7S")                                         # seat 1 keeps 2S 2D 7C
    g.apply("draw stock")
    g.apply("discard 7H")
    g.apply("draw stock")                                         # seat 1 draws 2H
    assert [sorted(m.split()[1:]) for m in melds(g)] == [["2D", "2H", "2S"]]


@documents("table.counts_toward_minimum")
def test_only_cards_that_count_toward_the_minimum_are_summed():
    """`counts_toward_minimum`: only such cards are summed toward `initial_minimum` (here, not the 8s:
    15 + 6 = 21 < 30, so nothing may be melded)."""
    g = seat1_draws('initial_minimum: 30, counts_toward_minimum: rank(card) != "8"', OPEN, HAND, "7S")
    assert melds(g) == []
    g = seat1_draws('initial_minimum: 21, counts_toward_minimum: rank(card) != "8"', OPEN, HAND, "7S")
    assert melds(g) == ["meld 2S 2D 2C", "meld 5S 5H 5D", "meld 8S 8H 8D"]
    g.apply("meld 5S 5H 5D")                                      # 15 counted
    assert legal(g) == ["meld 2S 2D 2C", "meld 8S 8H 8D"]
    g.apply("meld 8S 8H 8D")                                      # 39 placed, still 15 counted
    assert legal(g) == ["meld 2S 2D 2C"]
    g.apply("meld 2S 2D 2C")                                      # 21 counted: down
    assert legal(g) == ["discard 7S"]


@documents("table.counts_toward_minimum")
def test_cards_that_do_not_count_cannot_make_an_initial_meld_alone():
    """The cards placed in one turn must total `initial_minimum`, counting only `counts_toward_minimum`
    cards, and the turn cannot end below it: three 8s that count nothing leave the turn unfinished."""
    g = seat1_draws('initial_minimum: 21, counts_toward_minimum: rank(card) != "8"', OPEN, HAND, "7S")
    g.apply("meld 8S 8H 8D")                                      # 24 placed, 0 counted
    assert legal(g) == ["meld 2S 2D 2C", "meld 5S 5H 5D"]
    refused = g.refusal("discard 7S")                             # the refusal says why, by its rule
    assert refused.rule == "initial meld" and "must first make the initial meld" in str(refused)


CHAND = ["5S", "5H", "5D", "5C", "8S", "8H", "AS", "2S", "3S"]


@documents("table.contract")
def test_the_first_melds_must_be_exactly_the_contract():
    """`contract`: until a player has gone down, the melds of one turn must be exactly the contract's
    meld types, each at its type's minimum size, all in that turn; a meld is offered only while its type
    is still missing and the rest of the contract can still be made; the turn cannot end part-way."""
    g = seat1_draws('contract: \'["set", "set"]\'', CONTRACT, CHAND, "7H")
    assert melds(g) == []                                         # no second set beside the fives
    g = seat1_draws('contract: \'["set", "set"]\'', CONTRACT, CHAND, "8D")
    assert melds(g) == ["meld 5H 5D 5C", "meld 5S 5D 5C", "meld 5S 5H 5C", "meld 5S 5H 5D", "meld 8S 8H 8D"]
    g.apply("meld 8S 8H 8D")
    assert sorted(legal(g)) == ["meld 5H 5D 5C", "meld 5S 5D 5C", "meld 5S 5H 5C", "meld 5S 5H 5D"]
    g.apply("meld 5S 5H 5D")                                      # down: team_melded(player)
    assert sorted(legal(g)) == ["discard 2S", "discard 3S", "discard 5C", "discard AS",
                                "layoff 5C on 2"]


@documents("table.contract")
def test_a_contract_of_a_set_and_a_run_takes_each_type_once():
    """`contract: '["set", "run"]'`: a meld is offered only while its type is still missing."""
    g = seat1_draws('contract: \'["set", "run"]\'', CONTRACT, CHAND, "7H")
    assert melds(g) == ["meld 5H 5D 5C", "meld 5S 5D 5C", "meld 5S 5H 5C", "meld 5S 5H 5D", "meld AS 2S 3S"]
    g.apply("meld AS 2S 3S")
    assert sorted(legal(g)) == ["meld 5H 5D 5C", "meld 5S 5D 5C", "meld 5S 5H 5C", "meld 5S 5H 5D"]
    g = seat1_draws('contract: \'["run", "run"]\'', CONTRACT, CHAND, "7H")
    assert melds(g) == []                                         # one run only in this hand


@documents("table.contract")
def test_a_layoff_is_no_meld_of_the_contract():
    """The contract counts new melds only: a card laid off on a meld placed this turn (where the turn's
    `layoff` has no `when`) fills no second set, so the turn still needs one before it can end."""
    hand = ["5S", "5H", "5D", "8C", "8S", "8H", "AS", "2S", "3S"]
    g = seat1_draws('contract: \'["set", "set"]\'', OPEN, hand, "8D")
    g.apply("meld 8S 8H 8D")
    assert legal(g) == ["meld 5S 5H 5D", "layoff 8C on 1"]
    g.apply("layoff 8C on 1")
    assert legal(g) == ["meld 5S 5H 5D"]                          # not down: the turn cannot end
    g.apply("meld 5S 5H 5D")
    assert sorted(legal(g)) == ["discard 2S", "discard 3S", "discard AS", "meld AS 2S 3S"]   # down


@documents("table.contract")
def test_a_contract_names_only_meld_types():
    """A name in a list the contract writes, or a derived value it reads writes, that is no meld type is
    `E-UNKNOWN-MELD` at load, located at the name; one it gives at play, past any load check, stops the
    game (`E-PLAY`, naming what it gave and the meld types)."""
    out = refusal(RULES % ("contract: '[\"set\", \"sett\"]'", CONTRACT))
    assert "conformance.yaml:13:43: error[E-UNKNOWN-MELD]: `table.contract` names the meld type `sett`" in out
    assert "did you mean `set`?" in out
    derived = (RULES % ("contract: 'deals[deal.number - 1]'", CONTRACT)
               + 'derived:\n  deals: \'[["set", "run"], ["runs"]]\'\n')
    assert "error[E-UNKNOWN-MELD]: `table.contract` names the meld type `runs`" in refusal(derived)
    g = game(RULES % ("contract: 'if count(stock) > 100 then [\"set\"] else 3'", CONTRACT),
             stack(CHAND, SEAT0, "4C", ["7H", "6C", "7C"]), dealer=0)
    g.apply("draw stock")
    with pytest.raises(rulesdsl.RuleEvaluationError) as stopped:
        g.legal_actions()
    assert "`table.contract` gives 3; it must be a list of meld type names (run, set)" in str(stopped.value)
    assert stopped.value.rule == "table.contract"
