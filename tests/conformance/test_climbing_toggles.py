"""Conformance: climbing toggles and the trick state they read (docs/language.md, `climbing`: `toggles`,
"Trick state, opening play and going-out hooks"; Names: `play.low`, `trick.same_rank_streak`, `state.NAME`).

A toggle flips (or sets) on a play that makes its `when` true, the play itself judged under the old order;
while on it may reverse the rank order (`play.rank`, `play.low`, `play.high` read the reversed order) and
the turn direction."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import game
from conformance.test_climbing_tricks import DECK, DECK3, cl, ranks_of, stack, text

SINGLES = """
sizes: [1, 1]
first_leader: dealer
"""

REV = """
toggles:
  rev:
    when: %s
    reverses_order: %s
"""


@documents("climbing.toggles", "climbing.toggles.*.when", "climbing.toggles.*.reverses_order")
def test_a_toggle_flips_on_a_play_that_makes_when_true_and_reverses_the_order():
    """A toggle flips when a play makes `when` true; the play itself is judged under the old order; while
    on, `reverses_order` reverses the rank order (lower now beats higher)."""
    rules = cl(SINGLES.replace("[1, 1]", "[1, 2]"), "beats: play.size == last.size and play.rank > last.rank",
               REV % ("play.size == 2", "true"))
    hands = {0: ["4S", "4H", "6H", "3H"], 1: ["3S", "5S", "6S", "5H"]}
    g = game(text(rules, per=4), stack(hands, DECK), dealer=0)
    g.apply("play 4S 4H")                                         # a lead: the revolution comes on
    g.apply("pass")
    assert g.current_player == 0 and g.view(0)["state"] == {"rev": True}
    g.apply("play 6H")
    assert ranks_of(g) == ["3", "5", "pass"]                      # reversed: 3 and 5 beat a 6
    g = game(text(rules.replace("reverses_order: true", "reverses_order: false"), per=4), stack(hands, DECK),
             dealer=0)
    g.apply("play 4S 4H")
    g.apply("pass")
    g.apply("play 6H")
    assert ranks_of(g) == ["pass"]                                # not reversed: nothing beats a 6
    g = game(text(rules.replace("play.size == 2", "play.size == 3"), per=4), stack(hands, DECK), dealer=0)
    g.apply("play 4S 4H")                                         # `when` false: no revolution
    g.apply("pass")
    assert g.view(0)["state"] == {"rev": False}


@documents("climbing.toggles.*.reverses_order")
def test_play_low_is_reversed_with_play_rank_under_a_reversed_order():
    """`low` (the lowest rank's position) is, like `rank`, a position in the order in force: under a
    reversed order a rule reading `play.low` sees the reversed meaning."""
    rules = cl(SINGLES.replace("[1, 1]", "[1, 2]"), "beats: play.size == last.size and play.low > last.low",
               REV % ("play.size == 2 and play.rank_name == \"5\"", "true"))
    hands = {0: ["5S", "5H", "3S"], 1: ["4S", "4H", "6S", "6H"]}
    g = game(text(rules, per=4, suits="S, H, C"), stack({0: hands[0] + ["3H"], 1: hands[1]}, DECK3), dealer=0)
    g.apply("play 5S 5H")                                         # the revolution comes on with this lead
    assert ranks_of(g) == ["4 4", "pass"]                         # reversed: a pair of 4s is higher than 5s
    g.apply("play 4S 4H")
    assert ranks_of(g) == ["3 3", "pass"]
    g = game(text(rules.replace('"5"', '"6"'), per=4, suits="S, H, C"),
             stack({0: hands[0] + ["3H"], 1: hands[1]}, DECK3), dealer=0)
    g.apply("play 5S 5H")                                         # no revolution: 6s beat 5s
    assert ranks_of(g) == ["6 6", "pass"]


@documents("climbing.toggles.*.when")
def test_the_same_rank_streak_starts_again_at_a_new_trick():
    """`trick.same_rank_streak` counts the consecutive plays of this rank in the trick, this one included:
    an answer of the same rank makes it 2, but a lead of the rank that ended the last trick is 1 -- so a
    toggle reading it does not flip at that lead."""
    rules = cl(SINGLES, "beats: play.rank >= last.rank", REV % ("trick.same_rank_streak == 2", "true"))
    hands = {0: ["4S", "4H", "6H"], 1: ["4C", "3S", "5S"]}
    g = game(text(rules, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 4S")
    g.apply("play 4C")                                            # the second 4 in a row: the order reverses
    assert g.view(0)["state"] == {"rev": True}
    assert ranks_of(g) == ["4", "pass"]                           # reversed: 6 no longer beats a 4
    g = game(text(rules, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 4S")
    g.apply("pass")                                               # the trick ends on a 4
    g.apply("play 4H")                                            # a lead of 4: the streak is 1
    assert g.view(1)["state"] == {"rev": False}
    assert ranks_of(g) == ["4", "5", "pass"]                      # not reversed: 5 beats, 3 does not


@documents("climbing.toggles.*.effect")
def test_effect_set_turns_a_toggle_on_and_flip_turns_it_over():
    """`effect: set` turns the state on and it stays on; the default `flip` turns it over on every play
    that makes `when` true."""
    rules = cl(SINGLES, "beats: play.rank > last.rank or state.lock", """
    toggles:
      lock:
        when: play.rank_name in ["4", "5"]
        effect: %s
    """)
    hands = {0: ["4S", "3H", "6H"], 1: ["5S", "3S", "6S"]}
    for effect, on in (("set", True), ("flip", False)):
        g = game(text(rules % effect), stack(hands, DECK), dealer=0)
        g.apply("play 4S")                                        # on
        g.apply("play 5S")                                        # set: stays on; flip: off again
        assert g.view(0)["state"] == {"lock": on}
        assert ranks_of(g) == (["3", "6", "pass"] if on else ["6", "pass"])


@documents("climbing.toggles.*.resets_each_trick")
def test_resets_each_trick_turns_the_state_off_when_the_trick_ends():
    """`resets_each_trick: true`: the state is off again when the trick ends (without it, it stays on)."""
    rules = cl(SINGLES, "beats: play.rank > last.rank", """
    toggles:
      lock:
        when: play.rank_name == "4"
        effect: set
        resets_each_trick: %s
    """)
    hands = {0: ["4S", "3H", "6H"], 1: ["5S", "3S", "6S"]}
    for resets, on in (("true", False), ("false", True)):
        g = game(text(rules % resets), stack(hands, DECK), dealer=0)
        g.apply("play 4S")
        assert g.view(0)["state"] == {"lock": True}
        g.apply("pass")                                           # the trick ends
        assert g.view(0)["state"] == {"lock": on}


@documents("climbing.toggles.*.resets_each_deal")
def test_resets_each_deal_decides_whether_a_state_survives_into_the_next_deal():
    """`resets_each_deal` (default true): the state is off at the start of each deal; false keeps it."""
    rules = cl(SINGLES, "beats: play.rank > last.rank", """
    toggles:
      lock:
        when: play.rank_name == "4"
        effect: set
        resets_each_deal: %s
    """)
    hands = {0: ["4S"], 1: ["3S"]}
    deck = stack(hands, DECK)
    for resets, on in (("true", False), ("false", True)):
        g = game(text(rules % resets, per=1, deals=2), deck, dealer=0, decks=[deck])
        g.apply("play 4S")                                        # seat 0 out: the deal ends
        assert g.view(0)["hand_number"] == 2 and not g.is_over
        assert g.view(0)["state"] == {"lock": on}


@documents("climbing.toggles.*.reverses_direction")
def test_reverses_direction_turns_play_the_other_way_while_on():
    """`reverses_direction`: while the state is on the turn goes the other way round the table."""
    rules = cl(SINGLES, "beats: play.rank > last.rank", """
    toggles:
      back:
        when: play.rank_name == "4"
        reverses_direction: %s
    """)
    hands = {0: ["3S", "6C", "3C"], 1: ["4S", "6S", "4C"], 2: ["5H", "6H", "5C"]}
    g = game(text(rules % "true", players=3, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    assert g.current_player == 1
    g.apply("play 4S")                                            # reversed: back to seat 0, not seat 2
    assert g.current_player == 0
    g = game(text(rules % "false", players=3, suits="S, H, C"), stack(hands, DECK3), dealer=0)
    g.apply("play 3S")
    g.apply("play 4S")
    assert g.current_player == 2
