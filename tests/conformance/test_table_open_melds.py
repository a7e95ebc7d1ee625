"""Open melds on the table (docs/language.md, "`wild` and `table`: open melds", the `meld` and `layoff`
actions, and "Naming how a hand ends"): who owns a meld, what a placed card scores, when melding the
last card ends the hand, and the names the endings are recorded under.  A tiny deck (A..8), stacked."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, game, legal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: open melds
players: {players}
{teams}
deck: {{ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: 1, values: {{A: 1, joker: 20}}}}
wild: is_joker(card)
melds:
  run: {{kind: run, min: 3}}
  set: {{kind: set, min: 3}}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  hand: {{per: player, visible: owner}}
deal: [{{deal: 4, to: hand}}, {{turn_up: discard}}]
table: {{{table}}}
turn:
  - step: draw
    actions: [{{draw: stock}}]
  - step: play
    repeat: true
    actions: [{{meld: any}}, {{layoff: {layoff}}}, {{discard: discard}}]
stock_out: {{when: count(stock) == 0, result: score}}
scoring: {{{scoring}}}
match: {{ends_when: deal.number >= 1, on_tie: shared}}
"""


def ruleset(table="owner: player", layoff="any", players=2, scoring="each_player: melded(player) - held(player)"):
    teams = "teams: {count: 2}" if players == 4 else ""
    return RULES.format(table=table, layoff=layoff, players=players, teams=teams, scoring=scoring)


def stack(hands: dict, up: str, stock, n: int = 2):
    """A full deck, top card first, for dealer 0: one card at a time from seat 1 round the table."""
    return dealt({s: hands[s][:4] for s in range(n)}, [r + s for s in "SHDC" for r in RANKS] + ["Jk"],
                 then=[up, *stock])


SEAT0 = ["4H", "4D", "6D", "6C"]                 # 20 points, no meld


def seat1_draws(text, hand, drawn, seat0=SEAT0, stock=()):
    g = game(text, stack({1: hand, 0: seat0}, "7C", [drawn] + list(stock)), dealer=0)
    g.apply("draw stock")
    return g


@documents("table", "table.empty_hand_ends", "turn[].actions[].meld", "turn[].actions[].layoff")
def test_melding_the_last_card_ends_the_hand_when_empty_hand_ends():
    """`empty_hand_ends: true`: melding the last card goes out; the hand is scored at once
    (`melded(player) - held(player)`: seat 1 placed A..5 = 15, seat 0 holds 4+4+6+6 = 20)."""
    g = seat1_draws(ruleset("owner: player, empty_hand_ends: true"), ["AS", "2S", "3S", "4S"], "5S")
    g.apply("meld AS 2S 3S")
    assert sorted(legal(g)) == ["discard 4S", "discard 5S", "layoff 4S on 1"]
    g.apply("layoff 4S on 1")
    g.apply("layoff 5S on 1")
    assert g.is_over
    assert g.scores == [-20, 15]
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == 1


@documents("table.empty_hand_ends")
def test_without_empty_hand_ends_only_a_discard_goes_out():
    """`empty_hand_ends: false`: melding the last card does not end the hand; only a discard does."""
    g = seat1_draws(ruleset("owner: player, empty_hand_ends: false"), ["AS", "2S", "3S", "4S"], "5S",
                    stock=["8H", "7S"])
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    g.apply("layoff 5S on 1")
    assert not g.is_over and g.hand_of(1) == [] and g.current_player == 0
    g.apply("draw stock")                                     # seat 0 draws 8H
    g.apply("discard 8H")
    g.apply("draw stock")                                     # seat 1 draws 7S and discards it: out
    assert legal(g) == ["discard 7S"]
    g.apply("discard 7S")
    assert g.is_over and g.scores == [-20, 15]


@documents("table.ending_by_discard", "table.ending_by_meld")
def test_the_endings_by_discard_and_by_meld_are_named_apart():
    """`ending_by_discard` names the ending when the last card goes to the discard pile, `ending_by_meld`
    when it is melded or laid off (both default `out`); scoring reads it as `ending`."""
    text = ruleset("owner: player, ending_by_discard: discarded_out, ending_by_meld: spread_out",
                   scoring='each_player: if ending == "spread_out" then 100 else if ending == "discarded_out" '
                           'then 10 else 1')
    g = seat1_draws(text, ["AS", "2S", "3S", "4S"], "5S")
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    g.apply("layoff 5S on 1")
    assert g.hand_log[-1]["ending"] == "spread_out" and g.scores == [100, 100]
    g = seat1_draws(text, ["AS", "2S", "3S", "4S"], "8S")
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    g.apply("discard 8S")
    assert g.hand_log[-1]["ending"] == "discarded_out" and g.scores == [10, 10]
    g = seat1_draws(ruleset("owner: player"), ["AS", "2S", "3S", "4S"], "8S")
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    g.apply("discard 8S")
    assert g.hand_log[-1]["ending"] == "out"


@documents("table.placed_value")
def test_placed_value_scores_each_card_where_it_lies():
    """`placed_value`: what each placed card scores, judged where it lies (`card`, `as`: the card a wild
    card stands for, `meld.kind`); `melded(seat)` sums it over the cards the seat placed, layoffs too.
    Here: a joker counts `2 * value(as)`, a run card ten times its value, a set card its value."""
    table = ('owner: player, placed_value: \'if is_joker(card) then 2 * value(as) else if meld.kind == "run" '
             'then 10 * value(card) else value(card)\'')

    def play(text):
        g = seat1_draws(text, ["AS", "2S", "Jk", "4S"], "8D", seat0=["6S", "6H", "6D", "4D"], stock=["7H", "8H"])
        g.apply("discard 8D")
        g.apply("draw stock")                                 # seat 0 draws 7H
        g.apply("meld 6S 6H 6D")
        g.apply("discard 4D")                                 # seat 0 keeps 7H
        g.apply("draw stock")                                 # seat 1 draws 8H
        g.apply("meld AS 2S Jk=3S")
        g.apply("layoff 4S on 2")
        g.apply("discard 8H")
        assert g.is_over
        return g.scores

    # seat 1: 10 + 20 + 2 * 3 + 40 = 76; seat 0: the set 6 + 6 + 6 = 18, less 7H held
    assert play(ruleset(table)) == [11, 76]
    # without placed_value a placed card scores its value (the joker 20): 1 + 2 + 20 + 4
    assert play(ruleset("owner: player")) == [11, 27]


@documents("turn[].actions[].layoff")
def test_a_layoff_scores_for_the_player_who_made_it():
    """Every placed card remembers who placed it, so a layoff scores for the player who made it
    (`melded(seat)`): seat 0 lays 4S 5S off onto seat 1's run and scores them (8 + 8 + 8 + 4 + 5)."""
    g = seat1_draws(ruleset("owner: player"), ["AS", "2S", "3S", "8H"], "7H", seat0=["4S", "5S", "8D", "8C"],
                    stock=["8S"])
    g.apply("meld AS 2S 3S")
    g.apply("discard 7H")                                     # seat 1 keeps 8H
    g.apply("draw stock")                                     # seat 0 draws 8S
    g.apply("meld 8D 8C 8S")
    g.apply("layoff 4S on 1")
    g.apply("layoff 5S on 1")                                 # seat 0's hand is empty: out
    assert g.is_over
    assert g.scores == [33, 1 + 2 + 3 - 8]


@documents("table.owner", "turn[].actions[].layoff")
def test_layoff_own_reaches_only_the_melds_of_the_owner():
    """`layoff: any` adds a card to anyone's meld, `own` to one's own; with `owner: player` a meld
    belongs to who made it."""
    hand1, hand0 = ["AS", "2S", "3S", "8H"], ["4S", "4D", "6D", "6C"]
    for layoff, expect in (("any", ["layoff 4S on 1"]), ("own", [])):
        g = game(ruleset("owner: player", layoff=layoff), stack({1: hand1, 0: hand0}, "7C", ["7H", "5H"]),
                 dealer=0)
        g.apply("draw stock")
        g.apply("meld AS 2S 3S")
        g.apply("discard 7H")
        g.apply("draw stock")                                 # seat 0 draws 5H
        assert [a for a in legal(g) if a.startswith("layoff")] == expect, layoff


@documents("table.owner")
def test_team_owned_melds_are_the_partners_own():
    """`owner: team`: melds belong to the partnership, and `layoff: own` reaches the partner's melds
    (seat s plays for team s % 2); with `owner: player` it does not."""
    hands = {1: ["AS", "2S", "3S", "8H"], 2: ["4H", "4D", "6D", "6C"], 3: ["4S", "5D", "7D", "8D"],
             0: ["5C", "5H", "7S", "8C"]}
    for owner, expect in (("team", ["layoff 4S on 1"]), ("player", [])):
        text = ruleset(f"owner: {owner}", layoff="own", players=4,
                       scoring="each_team: melded_value(team)")
        g = game(text, stack(hands, "6H", ["7H", "2H", "3H"], n=4), dealer=0)
        g.apply("draw stock")                                 # seat 1
        g.apply("meld AS 2S 3S")
        g.apply("discard 7H")
        g.apply("draw stock")                                 # seat 2 (the other team): 2H
        assert [a for a in legal(g) if a.startswith("layoff")] == [], owner
        g.apply("discard 2H")
        g.apply("draw stock")                                 # seat 3, seat 1's partner: 3H
        assert [a for a in legal(g) if a.startswith("layoff")] == expect, owner
