"""Conformance: what a play may be (docs/language.md, "What a play may be: `plays`").

`plays` declares the combinations with the meld vocabulary, weakest first; cards that fit several patterns
count as the strongest one listed.  Each test leads from a stacked hand and checks the exact plays listed,
or plays a combination and reads its pattern's name (`view()["trick"]["kind"]`)."""

from __future__ import annotations

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import dealt, game, legal
from conformance.test_climbing_tricks import cl, plays, ranks_of, stack, text

DECK5 = [r + s for s in "SH" for r in "34567"]
DECK3S = [r + s for s in "SHC" for r in "3456"]

HEAD = """
first_leader: dealer
beats: play.kind == last.kind and play.rank > last.rank
"""


def five(plays_block: str, hands: dict, extra: str = ""):
    """Two players, ranks 3..7 in S and H, five cards each, seat 0 leading."""
    return game(text(cl(HEAD, plays_block), ranks="3, 4, 5, 6, 7", per=5, extra=extra), stack(hands, DECK5),
                dealer=0)


def kind_after(g, action: str) -> str:
    g.apply(action)
    return g.view(0)["trick"]["kind"]


@documents("climbing.plays", "climbing.plays.*.kind", "climbing.plays.*.min", "climbing.plays.*.max")
def test_plays_are_the_declared_patterns_of_min_to_max_cards():
    """`plays` declares the combinations; a `set` is `min`..`max` natural cards of one rank."""
    rules = cl(HEAD, """
    plays:
      single: {kind: set, min: 1, max: 1}
      big: {kind: set, min: 3, max: 3}
    """)
    hands = {0: ["3S", "3H", "3C", "4S"], 1: ["5S", "5H", "5C", "6S"]}
    g = game(text(rules, suits="S, H, C", per=4), stack(hands, DECK3S), dealer=0)
    assert ranks_of(g) == ["3", "3 3 3", "4"]                     # no pair: neither pattern takes 2 cards
    g.apply("play 3S 3H 3C")
    assert g.view(1)["trick"]["kind"] == "big"
    assert ranks_of(g) == ["5 5 5", "pass"]                       # beats: the same pattern, higher
    g = game(text(rules.replace("min: 3, max: 3", "min: 2, max: 3"), suits="S, H, C", per=4),
             stack(hands, DECK3S), dealer=0)
    assert ranks_of(g) == ["3", "3 3", "3 3 3", "4"]


@documents("climbing.plays.*.ranks")
def test_a_set_pattern_takes_only_the_ranks_it_lists():
    """`ranks:` limits which ranks a set (or group) pattern takes."""
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      pair: {kind: set, min: 2, max: 2, ranks: [6]}
    """, {0: ["3S", "3H", "6S", "6H", "4S"], 1: ["5S", "5H", "7S", "7H", "4H"]})
    assert ranks_of(g) == ["3", "4", "6", "6 6"]


@documents("climbing.plays.*.suits")
def test_a_run_is_of_one_suit_unless_suits_any():
    """A `run` is a window of the order, `suits: same` (default) or `any`."""
    hands = {0: ["3S", "4H", "5S", "4S", "7H"], 1: ["3H", "5H", "6S", "6H", "7S"]}
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      run: {kind: run, min: 3, max: 3}
    """, hands)
    assert [a for a in plays(g) if len(a.split()) > 2] == ["play 3S 4S 5S"]
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      run: {kind: run, min: 3, max: 3, suits: any}
    """, hands)
    assert [a for a in ranks_of(g) if len(a.split()) > 1] == ["3 4 5"]
    assert kind_after(g, "play 3S 4H 5S") == "run"                # mixed suits: still a run


@documents("climbing.plays.*.order")
def test_a_run_follows_its_own_order():
    """A run is a window of `order` (default: the climbing order)."""
    hands = {0: ["7S", "3S", "4S", "5S", "6S"], 1: ["7H", "3H", "4H", "5H", "6H"]}
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      run: {kind: run, min: 3, max: 3, order: [7, 3, 4, 5, 6]}
    """, hands)
    runs = [a for a in ranks_of(g) if len(a.split()) > 1]
    assert runs == ["3 4 5", "3 4 7", "4 5 6"]                    # 7-3-4 is a run here, 5-6-7 is not
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      run: {kind: run, min: 3, max: 3}
    """, hands)
    assert [a for a in ranks_of(g) if len(a.split()) > 1] == ["3 4 5", "4 5 6", "5 6 7"]


@documents("climbing.plays.*.wrap")
def test_wrap_makes_the_run_order_cyclic():
    """`wrap: true` makes the order cyclic: 6-7-3 is a run; without it, it is not."""
    hands = {0: ["6S", "7S", "3S", "4H", "5H"], 1: ["7H", "3H", "4S", "5S", "6H"]}
    block = """
    plays:
      single: {kind: set, min: 1, max: 1}
      run: {kind: run, min: 3, max: 3, wrap: %s}
    """
    g = five(block % "true", hands)
    assert [a for a in plays(g) if len(a.split()) > 2] == ["play 3S 6S 7S"]
    g = five(block % "false", hands)
    assert [a for a in plays(g) if len(a.split()) > 2] == []


@documents("climbing.plays.*.kind")
def test_a_flush_is_cards_of_one_suit_ranked_by_its_highest_card():
    """`flush`: `min`..`max` cards of one suit; `play.rank` is its highest card's rank."""
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      flush: {kind: flush, min: 3, max: 3}
    """, {0: ["3S", "4S", "6S", "7H", "3H"], 1: ["5H", "6H", "4H", "5S", "7S"]})
    assert [a for a in plays(g) if len(a.split()) > 2] == ["play 3S 4S 6S"]
    assert kind_after(g, "play 3S 4S 6S") == "flush"
    # seat 1 holds 4H 5H 6H (top 6: not higher than 6) and 5S 7S with no third spade ...
    assert [a for a in plays(g) if len(a.split()) > 2] == []
    g = five("""
    plays:
      single: {kind: set, min: 1, max: 1}
      flush: {kind: flush, min: 3, max: 3}
    """, {0: ["3S", "4S", "5S", "7H", "3H"], 1: ["5H", "6H", "4H", "6S", "7S"]})
    g.apply("play 3S 4S 5S")                                      # top 5: a flush topped by 6 beats it
    assert [a for a in plays(g) if len(a.split()) > 2] == ["play 4H 5H 6H"]


@documents("climbing.plays.*.groups", "climbing.plays.*.kind")
def test_rank_groups_are_same_rank_groups_of_exactly_the_sizes_given():
    """`rank_groups`: same-rank groups of exactly the sizes `groups`; `play.rank` is the largest group's rank."""
    block = """
    plays:
      single: {kind: set, min: 1, max: 1}
      house: {kind: rank_groups, groups: [2, 1]}
    """
    g = five(block, {0: ["5S", "5H", "3S", "4S", "7S"], 1: ["4H", "6S", "6H", "7H", "3H"]})
    houses = sorted(a for a in ranks_of(g) if len(a.split()) == 3)
    assert houses == ["3 5 5", "4 5 5", "5 5 7"]                  # a pair of 5s and any odd card
    assert kind_after(g, "play 5S 5H 3S") == "house"
    # seat 1: 6 6 with 4, 7 or 3 beats (rank 6 > 5); no other pair
    assert sorted(a for a in ranks_of(g) if len(a.split()) == 3) == ["3 6 6", "4 6 6", "6 6 7"]


@documents("climbing.plays.*.groups")
def test_rank_groups_of_equal_size_rank_by_the_highest_of_them():
    """Of equal largest groups (two pair), `play.rank` is the highest group's rank: 6 6 3 3 is a 6,
    so 5 5 4 4 does not beat it (by the lower pair it would, 4 > 3)."""
    block = """
    plays:
      single: {kind: set, min: 1, max: 1}
      two_pair: {kind: rank_groups, groups: [2, 2]}
    """
    g = five(block, {0: ["3S", "3H", "6S", "6H", "7S"], 1: ["4S", "4H", "5S", "5H", "7H"]})
    g.apply("play 3S 3H 6S 6H")
    assert g.view(1)["trick"]["kind"] == "two_pair"
    assert legal(g) == ["pass"]


@documents("climbing.plays")
def test_cards_that_fit_several_patterns_count_as_the_strongest_listed():
    """Cards that fit several patterns count as the strongest one listed (a same-suit run is a
    straight flush, not a straight); `play.tier` is the pattern's position, 0 first."""
    g = game(text(cl("""
    first_leader: dealer
    beats: play.tier > last.tier
    plays:
      single: {kind: set, min: 1, max: 1}
      straight: {kind: run, min: 3, max: 3, suits: any}
      straight_flush: {kind: run, min: 3, max: 3}
    """), ranks="3, 4, 5, 6, 7", per=5), stack({0: ["3S", "4S", "5S", "7H", "3H"],
                                                 1: ["4H", "5H", "6H", "6S", "7S"]}, DECK5), dealer=0)
    assert kind_after(g, "play 3S 4S 5S") == "straight_flush"
    assert legal(g) == ["pass"]                                   # nothing is above the top tier
    g = game(text(cl("""
    first_leader: dealer
    beats: play.tier > last.tier
    plays:
      single: {kind: set, min: 1, max: 1}
      straight: {kind: run, min: 3, max: 3, suits: any}
      straight_flush: {kind: run, min: 3, max: 3}
    """), ranks="3, 4, 5, 6, 7", per=5), stack({0: ["3S", "4H", "5S", "7S", "3H"],
                                                 1: ["5H", "6H", "7H", "4S", "6S"]}, DECK5), dealer=0)
    assert kind_after(g, "play 3S 4H 5S") == "straight"
    assert plays(g) == ["pass", "play 5H 6H 7H"]                  # a straight flush, not the straight 4S 5H 6S


WILD_PLAYS = """
plays:
  single: {kind: set, min: 1, max: 1}
  pair: {kind: group, min: 2, max: 2, wild_ratio: %s}
  wilds: {kind: wild, min: 1, max: 2}
"""


@documents("climbing.plays.*.wild_ratio", "climbing.plays.*.kind")
def test_wild_cards_join_groups_under_wild_ratio_and_alone_only_as_a_wild_play():
    """Wild cards join `group` patterns and say what they stand for (`play 3S 7S=3H`); `wild_ratio:
    naturals >= 1` keeps a group from being all wild; a wild card alone is a play only under a `wild`
    pattern, which ranks above every rank."""
    hands = {0: ["3S", "4S", "7S", "7H", "5H"], 1: ["3H", "4H", "5S", "6S", "6H"]}
    g = five(WILD_PLAYS % "naturals >= 1", hands, extra='wild: rank(card) == "7"')
    groups = sorted(a for a in legal(g) if "=" in a)
    assert len(groups) == 3 and sorted(a.split()[1][0] for a in groups) == ["3", "4", "5"]
    assert "play 7S 7H" in legal(g) and ("play 7S" in legal(g) or "play 7H" in legal(g))
    assert kind_after(g, "play 7S 7H") == "wilds"
    g = five(WILD_PLAYS % "naturals >= 2", hands, extra='wild: rank(card) == "7"')
    assert not any("=" in a for a in legal(g))                    # one natural and a wild: not enough
    g = game(text(cl("""
    first_leader: dealer
    beats: play.size == last.size and play.rank > last.rank
    """, WILD_PLAYS % "naturals >= 1"), ranks="3, 4, 5, 6, 7", per=5, extra='wild: rank(card) == "7"'),
             stack({0: ["6S", "3S", "4S", "5S", "3H"], 1: ["7S", "4H", "5H", "6H", "7H"]}, DECK5), dealer=0)
    g.apply("play 6S")
    assert ranks_of(g) == ["7", "pass"]                           # a wild single is above the top rank


@documents("climbing.plays.*.kind")
def test_a_bare_wild_card_stands_for_the_groups_rank_unless_a_run_could_read_it_otherwise():
    """docs/language.md: where no pattern is a run, a wild card may be written bare (`play 3S 7S`: a pair,
    the 7 standing for a 3); with a run pattern the same cards could be read several ways, so each wild
    card must say what it stands for (`play 3S 4S 7S=5S`), and a bare one is refused, rule `wild cards`.
    Catches the rule applied the other way round (bare wild cards refused only without runs), and a run's
    gaps counted twice against its wild cards (two gaps, two wild cards: no run)."""
    hands = {0: ["3S", "4S", "7S", "7H", "5H"], 1: ["3H", "4H", "5S", "6S", "6H"]}
    g = five(WILD_PLAYS % "naturals >= 1", hands, extra='wild: rank(card) == "7"')
    assert g.refusal("play 3S 7S") is None
    assert kind_after(g, "play 3S 7S") == "pair"
    g = five(WILD_PLAYS % "naturals >= 1" + "  run: {kind: run, min: 3, max: 3}\n", hands,
             extra='wild: rank(card) == "7"')
    refused = g.refusal("play 3S 7S")
    assert refused.rule == "wild cards" and "say what each wild card stands for" in str(refused)
    assert g.refusal("play 3S 4S 7S=5S") is None
    # wild cards fill as many places of a run as there are wild cards, on either side of a natural card,
    # a wild card standing for its own rank too (7H=7H: the 7s are wild, so the hand holds no natural 7)
    plays = {str(a) for a in g.legal_actions()}
    assert {"play 5H 7S=4H 7H=6H", "play 5H 7S=3H 7H=4H", "play 4S 7S=5S 7H=6S", "play 5H 7S=6H 7H=7H"} <= plays


DISTINCT = """
name: distinct
players: 2
deck: {ranks: [3, 4, 5], suits: [S, H], copies: 2}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  played: {visible: all}
deal: [{deal: 4, to: hand}]
climbing:
  first_leader: dealer
  beats: play.size == last.size and play.rank > last.rank
  plays:
    single: {kind: set, min: 1, max: 1}
    pair: {kind: set, min: 2, max: 2, distinct_suits: %s}
scoring: {each_player: '0'}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


@documents("climbing.plays.*.distinct_suits")
def test_distinct_suits_refuses_a_repeated_suit_even_with_two_copies_of_a_card():
    """`distinct_suits`: every card of a set of a different suit -- with `deck.copies: 2` the two 3S make
    no pair, while 3S 3H do."""
    deck = ["4S", "3S", "4H", "3S", "5S", "3H", "5H", "5S", "3H", "4S", "4H", "5H"]
    g = game(DISTINCT % "true", deck, dealer=0)
    assert sorted(g.hand_of(0)) == ["3H", "3S", "3S", "5S"]
    pairs = [a for a in plays(g) if len(a.split()) == 3]
    assert pairs == ["play 3H 3S"]
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply("play 3S 3S")
    g = game(DISTINCT % "false", deck, dealer=0)
    assert [a for a in ranks_of(g) if len(a.split()) == 2] == ["3 3"]
    g.apply("play 3S 3S")                                         # without it, any two 3s are a pair
    assert g.view(0)["trick"]["last_play"] == ["3S", "3S"]


@documents("climbing.plays.*.when")
def test_a_play_pattern_with_a_false_when_is_not_offered():
    """A pattern's `when` (meld vocabulary: "a new meld of that type only while this holds") should keep
    the pattern from being played while false -- or the key should be refused as one no rule reads
    (E-IGNORED / E-UNSUPPORTED), as `when` on a non-group meld is."""
    block = """
    plays:
      single: {kind: set, min: 1, max: 1}
      pair: {kind: set, min: 2, max: 2, when: 'false'}
    """
    try:
        g = five(block, {0: ["3S", "3H", "4S", "5S", "7S"], 1: ["4H", "5H", "6S", "6H", "7H"]})
    except rulesdsl.RulesetError:
        return
    assert ranks_of(g) == ["3", "4", "5", "7"]


@documents("climbing.plays")
def test_at_most_four_thousand_candidates_are_examined_for_one_position():
    """"At most 4,000 candidates are examined for one position": thirteen spades under a flush of 1 to 13
    cards are 8,191 plays, and the lead lists the first 4,000 found (a bound on the work, never a stall)."""
    ranks = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    block = """
    plays:
      any: {kind: flush, min: 1, max: 13}
    """
    deck = [r + "S" for r in ranks] + [r + "H" for r in ranks]
    g = game(text(cl(HEAD, block), ranks=", ".join(ranks), per=13),
             stack({0: [r + "S" for r in ranks], 1: [r + "H" for r in ranks]}, deck), dealer=0)
    listed = legal(g)
    assert len(listed) == 4000 and len(set(listed)) == 4000
    g.apply(listed[-1])
    assert g.current_player == 1


@documents("climbing.plays.*.max", "climbing.plays.*.kind")
def test_a_group_holds_at_most_max_cards_however_many_of_the_rank_are_held():
    """A `group` is `min`..`max` cards of one rank with wild cards: three 3s and a pattern of at most two
    list pairs of 3s, never the three (nor two 3s and the wild card)."""
    g = game(text(cl("""
    first_leader: dealer
    beats: play.size == last.size and play.rank > last.rank
    plays:
      single: {kind: set, min: 1, max: 1}
      pair: {kind: group, min: 2, max: 2, wild_ratio: naturals >= 1}
    """), ranks="3, 4, 5, 6", suits="S, H, C", per=4, extra='wild: rank(card) == "6"'),
             stack({0: ["3S", "3H", "3C", "6S"], 1: ["4S", "4H", "5S", "5H"]}, DECK3S), dealer=0)
    sizes = {len(a.split()) - 1 for a in legal(g)}
    assert sizes == {1, 2}
    assert "3 3" in ranks_of(g) and "3 3 3" not in ranks_of(g)


ACE_BOTH_ENDS = """
name: ace both ends
players: 2
deck: {ranks: [A, 2, 3, 4], suits: [S, H]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  played: {visible: all}
deal: [{deal: 4, to: hand}]
climbing:
  first_leader: dealer
  beats: play.size == last.size and play.rank > last.rank
  plays:
    single: {kind: set, min: 1, max: 1}
    run: {kind: run, min: 3, max: 4, order: [A, 2, 3, A], suits: any}
scoring: {each_player: '0'}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


@documents("climbing.plays")
def test_a_rank_at_both_ends_of_a_run_order_is_in_no_run_twice():
    """A run pattern's `order` may name a rank at both ends (ace low or high), "but never both in one
    run": with AS AH 2S 3S, A-2-3 is a run and A-2-3-A is no play at all (it is refused as no pattern,
    not as a play that is merely not allowed now)."""
    deck = [r + s for s in "SH" for r in "A234"]
    g = game(ACE_BOTH_ENDS, dealt({0: ["AS", "AH", "2S", "3S"], 1: ["4S", "4H", "2H", "3H"]}, deck), dealer=0)
    assert [a for a in plays(g) if len(a.split()) > 2] == ["play 2S 3S AS"]
    refused = g.refusal("play AS 2S 3S AH")
    assert refused is not None and "is not a play" in str(refused)
