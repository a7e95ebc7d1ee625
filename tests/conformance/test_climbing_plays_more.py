"""Conformance: what a play may be (docs/language.md, "What a play may be: `plays`"), more: the suit a
flush reads as (`play.suit`), checked from a stacked hand by the exact plays listed."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import game
from conformance.test_climbing_plays import DECK5
from conformance.test_climbing_tricks import cl, plays, stack, text

SAME_SUIT = """
first_leader: dealer
beats: play.kind == last.kind and play.suit == last.suit and play.rank > last.rank
"""
FLUSHES = """
plays:
  single: {kind: set, min: 1, max: 1}
  flush: {kind: flush, min: 3, max: 3}
"""


@documents("climbing.plays.*.kind")
def test_a_flush_reads_as_its_own_suit():
    """`flush`: cards of one suit; `play.suit` is that suit.  Seat 0 leads 3S 4S 5S (a spade flush);
    with `beats` asking for the same suit, seat 1's heart flush 4H 5H 6H (higher, but hearts) does not
    beat it, and it holds only two spades, so it has no flush to play.  Catches a flush's suit read from
    the wrong field of its first card (every flush then reads as the first suit)."""
    hands = {0: ["3S", "4S", "5S", "7H", "3H"], 1: ["5H", "6H", "4H", "6S", "7S"]}
    g = game(text(cl(SAME_SUIT, FLUSHES), ranks="3, 4, 5, 6, 7", per=5), stack(hands, DECK5), dealer=0)
    g.apply("play 3S 4S 5S")
    assert [a for a in plays(g) if len(a.split()) > 2] == []
    # the other way round: seat 0 leads the heart flush, seat 1 holds a higher spade flush
    hands = {0: ["3H", "4H", "5H", "7S", "3S"], 1: ["5S", "6S", "4S", "6H", "7H"]}
    g = game(text(cl(SAME_SUIT, FLUSHES), ranks="3, 4, 5, 6, 7", per=5), stack(hands, DECK5), dealer=0)
    g.apply("play 3H 4H 5H")
    assert [a for a in plays(g) if len(a.split()) > 2] == []       # 4S 5S 6S is spades: it does not beat


@documents("climbing.plays.*.ranks")
def test_a_group_pattern_takes_only_the_ranks_it_lists():
    """`ranks:` limits which ranks a set or group pattern takes (docs/language.md, "What a play may be"),
    wild cards included: with 7s wild and a `group` pair of `ranks: [4]`, seat 0 (3S 4S 5H 6H 7S) may
    pair its 7 only with the 4 (`play 4S 7S=4H`), not with the 3, 5 or 6 it also holds.  Catches the
    group enumeration skipping the listed ranks instead of the others (no wild pair is then offered)."""
    hands = {0: ["3S", "4S", "5H", "6H", "7S"], 1: ["3H", "4H", "5S", "6S", "7H"]}
    block = """
    plays:
      single: {kind: set, min: 1, max: 1}
      pair: {kind: group, min: 2, max: 2, wild_ratio: naturals >= 1, ranks: [4]}
    """
    g = game(text(cl(SAME_SUIT.replace("play.suit == last.suit and ", ""), block), ranks="3, 4, 5, 6, 7",
                  per=5, extra='wild: rank(card) == "7"'), stack(hands, DECK5), dealer=0)
    assert [a for a in plays(g) if "=" in a] == ["play 4S 7S=4H"]


@documents("climbing.plays.*.kind", "climbing.clears_trick")
def test_a_wild_play_reads_as_the_rank_name_wild():
    """A play of wild cards only (`kind: wild`) ranks above every rank, and its `play.rank_name` is
    `"wild"` (docs/language.md, the pattern table).  With `clears_trick: play.rank_name == "wild"`, seat 0's
    7S 7H (7s wild) ends the trick at once, and seat 0 leads the next (a cleared trick is led by the seat
    that cleared it).  Catches the wild rank's name missing from the rank names (the rule then never
    holds, and seat 1 would be asked to beat the wild play)."""
    from conformance.test_climbing_plays import WILD_PLAYS
    hands = {0: ["3S", "4S", "7S", "7H", "5H"], 1: ["3H", "4H", "5S", "6S", "6H"]}
    head = SAME_SUIT.replace("play.suit == last.suit and ", "") + 'clears_trick: play.rank_name == "wild"\n'
    g = game(text(cl(head, WILD_PLAYS % "naturals >= 1"), ranks="3, 4, 5, 6, 7", per=5,
                  extra='wild: rank(card) == "7"'), stack(hands, DECK5), dealer=0)
    g.apply("play 7S 7H")
    assert g.current_player == 0
    trick = g.view(0)["trick"]
    assert trick["last_play"] == [] and trick["kind"] is None          # a new trick, nothing to beat
    assert plays(g) == ["play 3S", "play 4S", "play 5H"]                # any single leads it, no pass
