"""Meld types (docs/language.md, `melds` and `wild`): each kind, size, order, wrap, suits and ranks rule
checked on a tiny deck (ranks A..8, four suits) with a stacked deal, by the melds a player is offered
or by the exact arrangement of a hand."""

from __future__ import annotations


from conformance.keys import documents
from conformance.play import game, legal, refusal, rules

RANKS = "A 2 3 4 5 6 7 8".split()
SUITS = "SHDC"

TABLE = """
name: melds
players: 2
deck: {{ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: {jokers}, copies: {copies}}}
{wild}
melds:
{melds}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  hand: {{per: player, visible: owner}}
deal: [{{deal: 4, to: hand}}, {{turn_up: discard}}]
table: {{owner: player}}
turn:
  - step: draw
    actions: [{{draw: stock}}]
  - step: play
    repeat: true
    actions: [{{meld: any}}, {{layoff: any}}, {{discard: discard}}]
stock_out: {{when: count(stock) == 0, result: score}}
scoring: {{each_player: melded(player) - held(player)}}
match: {{ends_when: deal.number >= 1, on_tie: shared}}
"""

ARRANGE = """
name: arrange
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C]}
melds:
%s
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 4, to: hand}]
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: finish
    actions: [{discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: deadwood(hand)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def table_rules(melds: str, wild: str = "", jokers: int = 0, copies: int = 1) -> str:
    return TABLE.format(melds=melds, wild=wild, jokers=jokers, copies=copies)


def stack(seat1, seat0, up, stock, jokers=0, copies=1):
    """A full deck, top card first: the two hands dealt alternately from seat 1 (dealer 0), the upcard,
    the stock's top cards, then every other card."""
    every = [r + s for s in SUITS for r in RANKS] * copies + ["Jk"] * (jokers * copies)
    deck = []
    for a, b in zip(seat1, seat0):
        deck += [a, b]
    deck += [up] + list(stock)
    rest = list(every)
    for c in deck:
        rest.remove(c)
    return deck + rest


def after_draw(text, seat1, drawn, seat0=("4H", "4D", "6D", "6C"), up="7C", **kw):
    """Seat 1 (first to play, dealer 0) holds ``seat1`` and draws ``drawn``: its play step."""
    g = game(text, stack(seat1, seat0, up, [drawn], **kw), dealer=0)
    g.apply("draw stock")
    assert g.current_player == 1 and sorted(g.hand_of(1)) == sorted(list(seat1) + [drawn])
    return g


def melds_offered(g) -> set:
    return {a for a in legal(g) if a.startswith("meld ")}


def by_rank(offered: set) -> set:
    """Meld texts with a wild card's declared suit dropped (a group's wild card stands for a rank):
    `meld 5S 5H Jk=5S` -> `meld 5S 5H Jk=5`."""
    return {" ".join(c[:-1] if "=" in c else c for c in m.split()) for m in offered}


def layoffs_offered(g) -> set:
    return {a for a in legal(g) if a.startswith("layoff ")}


@documents("melds", "melds.*.kind", "melds.*.min", "turn[].actions[].meld")
def test_a_run_is_same_suit_cards_in_order_offered_at_its_minimum_size():
    """A `run` is same-suit cards forming a window of `order`; `meld: any` starts a meld on the table,
    offered at its minimum size."""
    text = table_rules("  run: {kind: run, min: 3}")
    g = after_draw(text, ["AS", "2S", "3S", "5H"], "4S")
    assert melds_offered(g) == {"meld AS 2S 3S", "meld 2S 3S 4S"}
    g = after_draw(table_rules("  run: {kind: run, min: 4}"), ["AS", "2S", "3S", "5H"], "4S")
    assert melds_offered(g) == {"meld AS 2S 3S 4S"}
    g = after_draw(text, ["AS", "2H", "3S", "5H"], "4S")          # suits mixed: no run
    assert melds_offered(g) == set()


@documents("melds.*.kind", "melds.*.min")
def test_a_set_is_min_cards_of_one_rank():
    """A `set` is `min`..`max` cards of one rank."""
    g = after_draw(table_rules("  set: {kind: set, min: 3}"), ["5S", "5H", "5D", "8D"], "8C")
    assert melds_offered(g) == {"meld 5S 5H 5D"}
    g = after_draw(table_rules("  set: {kind: set, min: 2}"), ["5S", "5H", "3D", "8D"], "8C")
    assert melds_offered(g) == {"meld 5S 5H", "meld 8D 8C"}
    g = after_draw(table_rules("  run: {kind: run, min: 3}"), ["5S", "5H", "5D", "8D"], "8C")
    assert melds_offered(g) == set()                                 # no set type: no set


@documents("melds.*.max")
def test_max_caps_what_a_meld_on_the_table_may_grow_to():
    """A set is `min`..`max` cards of one rank: a fourth card is laid off only while max allows it."""
    for mx, expect in ((3, set()), (4, {"layoff 5C on 1"})):
        g = after_draw(table_rules(f"  set: {{kind: set, min: 3, max: {mx}}}"), ["5S", "5H", "5D", "5C"], "8C")
        g.apply("meld 5S 5H 5D")
        assert layoffs_offered(g) == expect, mx
    for mx, expect in ((3, set()), (4, {"layoff 5C on 1", "layoff Jk=5S on 1"})):      # a group likewise
        g = after_draw(table_rules(f"  group: {{kind: group, min: 3, max: {mx}}}", wild="wild: is_joker(card)",
                                   jokers=1), ["5S", "5H", "5D", "5C"], "Jk", jokers=1)
        g.apply("meld 5S 5H 5D")
        assert layoffs_offered(g) == expect, mx
    g = after_draw(table_rules("  run: {kind: run, min: 3, max: 3}"), ["AS", "2S", "3S", "5H"], "4S")
    assert melds_offered(g) == {"meld AS 2S 3S", "meld 2S 3S 4S"}
    g.apply("meld AS 2S 3S")
    assert layoffs_offered(g) == set()                               # a run of 3 at most
    g = after_draw(table_rules("  run: {kind: run, min: 3}"), ["AS", "2S", "3S", "5H"], "4S")
    g.apply("meld AS 2S 3S")
    assert layoffs_offered(g) == {"layoff 4S on 1"}


@documents("melds.*.order")
def test_order_is_the_run_sequence_and_a_rank_may_stand_at_both_ends():
    """A run is a window of `order`; a rank may appear at both ends (`[A, 2, ..., K, A]`: ace high or
    low, never both in one run)."""
    default = table_rules("  run: {kind: run, min: 3}")
    high = table_rules("  run: {kind: run, min: 3, order: [2, 3, 4, 5, 6, 7, 8, A]}")
    both = table_rules("  run: {kind: run, min: 3, order: [A, 2, 3, 4, 5, 6, 7, 8, A]}")
    hand, drawn = ["7S", "8S", "AS", "2S"], "3S"
    assert melds_offered(after_draw(default, hand, drawn)) == {"meld AS 2S 3S"}
    assert melds_offered(after_draw(high, hand, drawn)) == {"meld 7S 8S AS"}
    assert melds_offered(after_draw(both, hand, drawn)) == {"meld AS 2S 3S", "meld 7S 8S AS"}
    g = after_draw(table_rules("  run: {kind: run, min: 4, order: [A, 2, 3, 4, 5, 6, 7, 8, A]}"),
                   ["7S", "8S", "AS", "2S"], "5C")
    assert melds_offered(g) == set()                                 # 8S AS 2S: never both ends at once
    r = rules(ARRANGE % "  run: {kind: run, min: 3, order: [A, 2, 3, 4, 5, 6, 7, 8, A]}")
    assert sorted(r.arrange(["8S", "AS", "2S"]).deadwood) == ["2S", "8S", "AS"]
    assert r.arrange(["7S", "8S", "AS"]).deadwood == [] and r.arrange(["AS", "2S", "3S"]).deadwood == []


@documents("melds.*.wrap")
def test_wrap_makes_the_order_cyclic_in_the_arrangement():
    """`wrap: true` makes the order cyclic: 7 8 A is a run of A..8; without it, it is not.
    (Arrangement is exact: `deadwood(...)`, `rules.arrange(...)`.)"""
    plain = rules(ARRANGE % "  run: {kind: run, min: 3}")
    wrap = rules(ARRANGE % "  run: {kind: run, min: 3, wrap: true}")
    cards = ["8S", "AS", "2S", "5H"]
    assert sorted(plain.arrange(cards).deadwood) == sorted(cards)
    assert [sorted(m) for m in wrap.arrange(cards).melds] == [sorted(["8S", "AS", "2S"])]
    assert wrap.arrange(cards).deadwood == ["5H"] and wrap.arrange(cards).points == 5


@documents("melds.*.wrap")
def test_wrap_is_refused_for_open_melds_on_the_table_not_ignored():
    """`wrap` is honoured by the arrangement search (above); open melds on the table do not take it yet,
    and a key the engine would not honour is refused (`E-UNSUPPORTED`, at the meld type), never ignored."""
    out = refusal(table_rules("  run: {kind: run, min: 3, wrap: true}"))
    assert "E-UNSUPPORTED" in out and "`wrap`" in out and "table" in out


@documents("melds.*.distinct_suits")
def test_distinct_suits_forbids_two_cards_of_one_suit_in_a_set():
    """`distinct_suits: true`: a set's cards are all of different suits (two decks shuffled together)."""
    hand, drawn = ["5S", "5S", "5H", "8D"], "5D"
    g = after_draw(table_rules("  set: {kind: set, min: 3, distinct_suits: true}", copies=2), hand, drawn,
                   copies=2)
    assert melds_offered(g) == {"meld 5S 5H 5D"}
    g = after_draw(table_rules("  set: {kind: set, min: 3}", copies=2), hand, drawn, copies=2)
    assert melds_offered(g) == {"meld 5S 5H 5D", "meld 5S 5S 5H", "meld 5S 5S 5D"}


@documents("melds.*.distinct_suits", "wild")
def test_a_set_with_more_wild_cards_than_it_may_hold_keeps_a_natural_card():
    """A set holds at least one natural card: with four wild 2s and one five in hand, the sets offered
    are the five with two of the 2s, each 2 standing for a suit the set does not have yet.  Catches the
    count of wild cards a set may take being the wild cards held (`min(n_wild, size - 1)` -> `max`): the
    search then asked for a set of -1 natural cards and the move listing failed with a ValueError."""
    hand, drawn = ["5S", "2H", "2D", "2C"], "2S"
    wild = 'wild: rank(card) == "2"'
    g = after_draw(table_rules("  set: {kind: set, min: 3, distinct_suits: true}", wild=wild), hand, drawn)
    offered = melds_offered(g)
    assert len(offered) == 6 and all(m.startswith("meld 5S ") for m in offered)
    assert "meld 5S 2H=5H 2D=5D" in offered and "meld 2H=5S 2D=5H 2C=5D" not in offered
    g = after_draw(table_rules("  set: {kind: set, min: 3}", wild=wild), hand, drawn)
    assert "meld 5S 2D=5S 2C=5S" in melds_offered(g) and len(melds_offered(g)) == 6


@documents("melds.*.ranks")
def test_ranks_picks_the_group_type_of_each_rank():
    """Several `group` types: each rank belongs to the first that lists it (a type without `ranks`
    takes the rest), with its own `min`."""
    melds = ("  pairs: {kind: group, ranks: [8], min: 2}\n"
             "  group: {kind: group, min: 3}")
    g = after_draw(table_rules(melds, wild="wild: is_joker(card)", jokers=1), ["8S", "8H", "5D", "5C"], "3C",
                   jokers=1)
    assert melds_offered(g) == {"meld 8S 8H"}                      # two eights are a meld, two fives not


@documents("melds.*.ranks")
def test_ranks_limits_a_set_type_in_the_arrangement():
    """Several set types are taken by the arrangement search; `ranks` limits which ranks a type melds
    (`royal: {kind: set, min: 2, max: 2, ranks: [K]}`: a pair of kings)."""
    r = rules(ARRANGE % "  set: {kind: set, min: 3}\n  pair: {kind: set, min: 2, max: 2, ranks: [8]}")
    a = r.arrange(["8S", "8H", "5S", "5H"])
    assert [sorted(m) for m in a.melds] == [["8H", "8S"]]
    assert sorted(a.deadwood) == ["5H", "5S"] and a.points == 10


@documents("melds.*.ranks")
def test_ranks_limits_a_lone_set_type():
    """`ranks` (group/set): the ranks that may be melded: a set type of eights melds no fives in the
    arrangement; on the table a set's `ranks` is not taken yet, so it is refused, not ignored."""
    arranged = rules(ARRANGE % "  set: {kind: set, min: 3, ranks: [8]}")
    assert sorted(arranged.arrange(["5S", "5H", "5D"]).deadwood) == ["5D", "5H", "5S"]
    assert [sorted(m) for m in arranged.arrange(["8S", "8H", "8D"]).melds] == [["8D", "8H", "8S"]]
    out = refusal(table_rules("  set: {kind: set, min: 3, ranks: [8]}"))
    assert "E-UNSUPPORTED" in out and "`ranks`" in out


@documents("wild", "melds.*.wild_ratio")
def test_wild_cards_join_a_group_as_wild_ratio_allows():
    """`wild:` says which cards are wild; a `group` is one rank with wild cards, `wild_ratio` over
    `naturals` and `wilds` must hold; a wild card is written with the card it stands for."""
    hand, drawn = ["5S", "5H", "Jk", "8D"], "3C"
    loose = table_rules("  group: {kind: group, min: 3, wild_ratio: naturals >= 2 * wilds}",
                        wild="wild: is_joker(card)", jokers=1)
    g = after_draw(loose, hand, drawn, jokers=1)
    assert by_rank(melds_offered(g)) == {"meld 5S 5H Jk=5"}
    strict = loose.replace("naturals >= 2 * wilds", "wilds == 0")
    assert melds_offered(after_draw(strict, hand, drawn, jokers=1)) == set()
    g = after_draw(loose, ["5S", "Jk", "8H", "3D"], "6S", jokers=1)
    assert melds_offered(g) == set()                                 # one natural, one wild: 1 < 2
    eights = table_rules("  group: {kind: group, min: 3, wild_ratio: naturals >= 2 * wilds}",
                         wild='wild: rank(card) == "8"')
    g = after_draw(eights, ["5S", "5H", "3D", "8D"], "3C")           # now the 8 is the wild card
    assert by_rank(melds_offered(g)) == {"meld 5S 5H 8D=5", "meld 3D 3C 8D=3"}
    g = after_draw(table_rules("  group: {kind: group, min: 3}", wild="wild: false"), ["5S", "5H", "3D", "8D"], "3C")
    assert melds_offered(g) == set()


@documents("melds.*.when")
def test_when_allows_a_new_meld_of_its_type_only_while_it_holds():
    """A group type's `when`: a new meld of that type only while this holds."""
    melds = "  group: {kind: group, min: 3, when: count(hand) <= %d}"
    hand, drawn = ["5S", "5H", "5D", "8D"], "8C"
    yes = after_draw(table_rules(melds % 5, wild="wild: is_joker(card)", jokers=1), hand, drawn, jokers=1)
    assert melds_offered(yes) == {"meld 5S 5H 5D"}
    no = after_draw(table_rules(melds % 4, wild="wild: is_joker(card)", jokers=1), hand, drawn, jokers=1)
    assert melds_offered(no) == set()                               # five cards in hand


@documents("melds.*.kind")
def test_a_wild_meld_is_wild_cards_only():
    """`kind: wild`: wild cards only."""
    melds = "  group: {kind: group, min: 3, wild_ratio: wilds == 0}\n  wilds: {kind: wild, min: 3}"
    g = after_draw(table_rules(melds, wild='wild: rank(card) == "2"'), ["2S", "2H", "AD", "8D"], "2C")
    offered = melds_offered(g)
    assert offered == {"meld 2S 2H 2C"}
    g = after_draw(table_rules("  group: {kind: group, min: 3, wild_ratio: wilds == 0}", wild='wild: rank(card) == "2"'),
                   ["2S", "2H", "AD", "8D"], "2C")
    assert melds_offered(g) == set()                                 # no wild type: three 2s are no meld


@documents("melds.*.suits")
def test_suits_is_refused_outside_a_run():
    """`suits` (`same` or `any`) belongs to runs; on another kind it is a key nothing reads (`E-IGNORED`)."""
    out = refusal(table_rules("  set: {kind: set, min: 3, suits: any}"))
    assert "E-IGNORED" in out and "`suits` applies only to `kind: run`" in out


@documents("melds.*.suits")
def test_suits_any_on_a_meld_run_is_refused_not_ignored():
    """`suits: any` makes runs of mixed suits for plays (`climbing.plays`); the meld engines do not take
    it yet, so on a meld run it is refused (`E-UNSUPPORTED`), never silently read as `same`."""
    out = refusal(table_rules("  run: {kind: run, min: 3, suits: any}"))
    assert "E-UNSUPPORTED" in out and "`suits: any`" in out
    out = refusal(ARRANGE % "  run: {kind: run, min: 3, suits: any}")
    assert "E-UNSUPPORTED" in out


@documents("melds.*.groups", "melds.*.kind")
def test_groups_and_rank_groups_belong_to_plays_not_melds():
    """`groups` applies only to `kind: rank_groups`, and `rank_groups` (like `flush`) is a pattern for
    `climbing.plays`: melds are runs, sets, groups or wild."""
    out = refusal(table_rules("  set: {kind: set, min: 3, groups: [2, 1]}"))
    assert "E-IGNORED" in out and "`groups` applies only to `kind: rank_groups`" in out
    out = refusal(table_rules("  full: {kind: rank_groups, groups: [2, 1]}"))
    assert "E-UNSUPPORTED" in out and "melds are runs, sets, groups or wild" in out


@documents("melds", "melds.*.min", "melds.*.max")
def test_several_run_types_are_taken_by_the_arrangement_search():
    """Several run or set types are taken by the arrangement search: a meld is then any meld of any
    declared type, found by an exact search (`run` exactly three, `long` five or more: a run of four is
    neither, so A..4 of spades leaves the ace; A..5 is one long run)."""
    r = rules(ARRANGE % "  run: {kind: run, min: 3, max: 3}\n  long: {kind: run, min: 5}")
    a = r.arrange(["AS", "2S", "3S", "4S"])
    assert [sorted(m) for m in a.melds] == [["2S", "3S", "4S"]] and a.deadwood == ["AS"]
    a = r.arrange(["AS", "2S", "3S", "4S", "5S"])
    assert a.deadwood == [] and len(a.melds) == 1 and len(a.melds[0]) == 5
    a = r.arrange(["AS", "2S", "3S", "4S", "5S", "6S"])
    assert a.deadwood == [] and sorted(len(m) for m in a.melds) in ([3, 3], [6])


@documents("melds", "table")
def test_melds_on_the_table_take_one_run_type():
    """Melds on the table (`table:`) still take one run and one set type."""
    out = refusal(table_rules("  run: {kind: run, min: 3, max: 3}\n  long: {kind: run, min: 5}"))
    assert "E-UNSUPPORTED" in out and "more than one `run` meld type" in out
