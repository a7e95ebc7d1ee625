"""Conformance: `roles` and `exchange` (docs/language.md, "`roles` and `exchange`").

Three players, ranks 3..6 in S, H, C, two cards each, dealer 0 every deal (seat 1 is dealt first and leads).
The first deal is played out to the finishing order [1, 2, 0]; the second deal is stacked to show the
exchange made before its first lead, by the positions of the first deal."""

from __future__ import annotations

from string import Template
import textwrap

from conformance.keys import documents
from conformance.play import game, legal, refusal, rules

GAME = Template("""
name: roles
players: 3
deck: {ranks: [3, 4, 5, 6], suits: [S, H, C]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  played: {visible: all}
  passing: {per: player, visible: owner}
deal: [{deal: 2, to: hand}]
climbing:
  sizes: [1, 1]
  beats: play.rank > last.rank
  first_leader: next_seat(dealer)
roles:
  3: [[Top, 2], [Middle, 0], [Bottom, -2]]
exchange:
$exchange
scoring: {each_player: '$scoring'}
match: {ends_when: deal.number >= 2, on_tie: shared, next_dealer: dealer}
""")

ALL = [r + s for s in "SHC" for r in "3456"]


def deck(seat1, seat2, seat0):
    """Dealer 0: one card at a time to seats 1, 2, 0; the rest of the cards are the stock."""
    top = [seat1[0], seat2[0], seat0[0], seat1[1], seat2[1], seat0[1]]
    return top + [c for c in ALL if c not in top]


FIRST = deck(["6S", "3S"], ["5S", "4S"], ["3H", "4H"])


def text(exchange: str, scoring: str = "role_points(player)") -> str:
    return GAME.substitute(exchange=textwrap.indent(textwrap.dedent(exchange).strip("\n"), "  "),
                           scoring=scoring)


def play_first_deal(g):
    """Seat 1 goes out first, seat 2 second, seat 0 is left holding cards."""
    for a in ("play 6S", "pass", "pass", "play 3S", "play 5S", "pass", "play 4S"):
        g.apply(a)
    assert g.view(0)["hand_number"] == 2


TWO_WAY = """
- {giver: -1, receiver: 1, count: 1, cards: highest}
- {giver: 1, receiver: -1, count: 1, cards: any}
"""


@documents("roles")
def test_roles_give_each_finishing_position_a_name_and_points():
    """`roles`, by player count: [name, points] per finishing position; `role_points(seat)` and
    `role(seat)` give a seat's in the deal just ended."""
    g = game(text("[]", "role_points(player) * 10 + (if role(player) == \"Middle\" then 1 else 0)"), FIRST,
             dealer=0, decks=[deck(["3C", "4C"], ["5C", "6C"], ["3H", "6H"])])
    play_first_deal(g)
    assert g.scores == [-20, 20, 1]                               # order 1, 2, 0: Top, Middle, Bottom
    assert g.view(0)["roles"] == {1: "Top", 2: "Middle", 0: "Bottom"}
    bad = text("[]").replace("3: [[Top, 2], [Middle, 0], [Bottom, -2]]", "3: [[Top, 2], [Bottom, -2]]")
    assert "E-ROLES" in refusal(bad)                              # one [name, points] per position


@documents("roles")
def test_role_without_roles_and_roles_without_finishers_are_refused_where_written():
    """`role(seat)` and `role_points(seat)` read `roles`: a climbing ruleset without `roles` that scores
    by them is refused at load (`E-ROLES`, at the scoring rule; it failed mid-match with a Python
    `KeyError`), while `position(seat)` still loads and scores the finishing position.  `roles` in a
    ruleset whose play ranks nobody as they finish is refused as having no effect (`E-IGNORED`, at the
    `roles` key of the file that wrote it)."""
    no_roles = text("[]").replace("roles:\n  3: [[Top, 2], [Middle, 0], [Bottom, -2]]\n", "")
    for call in ("role_points(player)", "if role(player) == \"Top\" then 1 else 0"):
        out = refusal(no_roles.replace("'role_points(player)'", f"'{call}'"))
        assert "error[E-ROLES]: `role(...)` and `role_points(...)` read `roles`" in out, out
        line = next(i for i, t in enumerate(no_roles.splitlines(), 1) if t.startswith("scoring:"))
        assert f":{line}:24: error[E-ROLES]" in out, out                # located at the scoring rule
    g = game(no_roles.replace("'role_points(player)'", "'10 * position(player)'"), FIRST, dealer=0,
             decks=[deck(["3C", "4C"], ["5C", "6C"], ["3H", "6H"])])
    play_first_deal(g)
    assert g.scores == [30, 10, 20]                               # order 1, 2, 0: positions 1, 2, 3
    ignored = refusal("extends: rummy_500\nroles:\n  2: [[Top, 1], [Bottom, 0]]\n")
    assert "2:1: error[E-IGNORED]: `roles` has no effect" in ignored, ignored


@documents("roles")
def test_a_role_compared_with_a_name_no_row_gives_is_refused_with_the_roles_declared():
    """docs/language.md, "A closed set of names": `role(...)` can only be one of the roles declared; a
    comparison with another text can never hold, and is `E-CHOICE` with "did you mean".  Catches the
    roles left out of the closed sets (the comparison then loaded and was simply never true)."""
    out = refusal(text("[]").replace("'role_points(player)'", "'if role(player) == \"Tpo\" then 1 else 0'"))
    assert "error[E-CHOICE]" in out and "did you mean `Top`" in out, out
    assert rules(text("[]").replace("'role_points(player)'", "'if role(player) == \"Top\" then 1 else 0'"))


@documents("roles")
def test_the_rulebook_lists_the_roles_and_reads_role_points_as_words():
    """`rulesdsl rulebook`: a climbing game's `roles` are a table in "Scoring" (players, position, role,
    points), and `role_points(player)` reads as "the player's role points" (the climbing mechanic's words)."""
    from rulesdsl.rulebook import rulebook
    text = rulebook("president")
    assert "every player scores the player's role points" in text
    scoring = text.split("\n## Scoring\n")[1].split("\n## ")[0]
    assert "### Roles" in scoring and "| 4 | 1 | President | 2 |" in scoring


@documents("scoring.each_player")
def test_a_mechanics_function_in_a_ruleset_without_its_section_names_the_section():
    """A function a mechanic gives (`position` of `climbing:`, `bid` of `bidding:`, `tricks` of `tricks:`)
    called in a ruleset without that section is refused at load, saying which section brings it
    (`E-UNDEFINED`); it was "unknown function", or for `position` loaded and failed mid-match with a
    Python `ValueError`."""
    for base, call, section in (("rummy_500", "position(player)", "climbing"), ("hearts", "position(player)",
                                "climbing"), ("rummy_500", "bid(player)", "bidding"),
                                ("rummy_500", "tricks(player)", "tricks")):
        out = refusal(f"extends: {base}\nscoring:\n  each_player: '{call}'\n")
        want = f"error[E-UNDEFINED]: `{call.split('(')[0]}(...)` exists only in a ruleset with a `{section}:` section"
        assert want in out, (base, call, out)


@documents("exchange", "exchange[].giver", "exchange[].receiver", "exchange[].cards", "exchange[].count")
def test_last_place_gives_its_highest_card_to_first_who_returns_any_card():
    """Before the first lead of a later deal, by positions of the last deal: last place (-1) gives its
    highest card to the first (1), then the first returns any card (`give CARD`)."""
    second = deck(["4C", "5H"], ["5C", "3C"], ["3H", "6H"])
    g = game(text(TWO_WAY), FIRST, dealer=0, decks=[second])
    assert g.view(0)["phase"] == "climb"                          # no exchange in the first deal
    play_first_deal(g)
    assert g.view(0)["phase"] == "exchange" and g.current_player == 0
    assert legal(g) == ["give 6H"]                                # its highest card, no choice
    g.apply("give 6H")
    assert g.current_player == 1
    assert sorted(legal(g)) == ["give 4C", "give 5H", "give 6H"]  # any card, the one received too
    g.apply("give 4C")
    assert sorted(g.hand_of(1)) == ["5H", "6H"] and sorted(g.hand_of(0)) == ["3H", "4C"]
    assert g.view(1)["phase"] == "climb" and g.current_player == 1   # then the first lead


@documents("exchange[].count", "exchange[].cards")
def test_count_cards_are_given_one_action_each_and_lowest_follows_the_rank_order():
    """`count` cards are given, one `give` each; `cards: lowest` (here written as an expression giving
    one) offers the lowest cards in the order of play."""
    second = deck(["4C", "5H"], ["5C", "3C"], ["6C", "6H"])
    g = game(text("""
    - {giver: -1, receiver: 1, count: 'deal.number', cards: highest}
    - {giver: 2, receiver: -1, count: 1, cards: 'if deal.number > 1 then "lowest" else "any"'}
    """), FIRST, dealer=0, decks=[second])
    play_first_deal(g)
    assert g.current_player == 0 and sorted(legal(g)) == ["give 6C", "give 6H"]   # both are highest
    g.apply("give 6H")
    assert g.current_player == 0 and legal(g) == ["give 6C"]     # count 2: the second card
    g.apply("give 6C")
    assert sorted(g.hand_of(1)) == ["4C", "5H", "6C", "6H"] and g.hand_of(0) == []
    assert g.current_player == 2 and legal(g) == ["give 3C"]     # second place gives its lowest to last
    g.apply("give 3C")
    assert g.hand_of(0) == ["3C"]


@documents("exchange[].when")
def test_an_exchange_step_runs_only_while_when_holds():
    """`when`: a step whose condition is false is skipped (here every step: play starts at once)."""
    second = deck(["4C", "5H"], ["5C", "3C"], ["3H", "6H"])
    g = game(text("""
    - {giver: -1, receiver: 1, count: 1, cards: highest, when: deal.number > 2}
    - {giver: 1, receiver: -1, count: 1, cards: any}
    """), FIRST, dealer=0, decks=[second])
    play_first_deal(g)
    assert g.current_player == 1 and sorted(legal(g)) == ["give 4C", "give 5H"]   # only the second step
    g = game(text(TWO_WAY.replace("cards: any}", "cards: any, when: 'false'}")
                  .replace("cards: highest}", "cards: highest, when: 'false'}")), FIRST, dealer=0, decks=[second])
    play_first_deal(g)
    assert g.view(1)["phase"] == "climb" and sorted(g.hand_of(0)) == ["3H", "6H"]


@documents("exchange[].giver", "exchange[].receiver")
def test_giver_and_receiver_naming_one_seat_are_refused():
    """Positions naming the same player (1 and -3 with three players) cannot exchange."""
    assert "E-EXCHANGE" in refusal(text("- {giver: 1, receiver: -3, count: 1, cards: any}"))


@documents("exchange[].to")
def test_to_makes_every_seat_give_from_the_dealers_left_in_every_deal():
    """`to:` every seat gives, from the dealer's left round the table, to the seat `to` gives with
    `player` bound to the giver; such a step runs in every deal, the first too.  Without `aside` a card
    received may be passed on."""
    g = game(text("- {to: 'seat_after(player, 1)', count: 1, cards: any}"), FIRST, dealer=0)
    assert g.view(0)["phase"] == "exchange" and g.current_player == 1
    assert sorted(legal(g)) == ["give 3S", "give 6S"]
    g.apply("give 6S")                                            # to seat 2
    assert g.current_player == 2 and sorted(legal(g)) == ["give 4S", "give 5S", "give 6S"]
    g.apply("give 6S")                                            # passed on to seat 0
    assert g.current_player == 0
    g.apply("give 6S")                                            # and back to seat 1
    assert sorted(g.hand_of(1)) == ["3S", "6S"] and g.view(1)["phase"] == "climb"


@documents("exchange[].aside")
def test_aside_holds_given_cards_unseen_until_every_seat_has_given():
    """With `aside:` the cards given wait there, unseen by the receiver, until every seat has given:
    nobody passes on a card received; `view()["passed"]` shows a seat the cards it gave, and those it
    received once they arrived."""
    g = game(text("- {to: 'seat_after(player, 1)', count: 1, cards: any, aside: passing}"), FIRST, dealer=0)
    g.apply("give 6S")
    assert g.current_player == 2 and sorted(legal(g)) == ["give 4S", "give 5S"]   # the 6S is not here yet
    assert g.view(1)["passed"] == [{"from": 1, "to": 2, "card": "6S"}]
    assert g.view(2).get("passed", []) == []                      # not arrived: unseen
    g.apply("give 5S")
    g.apply("give 4H")
    assert sorted(g.hand_of(2)) == ["4S", "6S"] and sorted(g.hand_of(0)) == ["3H", "5S"]
    assert sorted(g.hand_of(1)) == ["3S", "4H"]
    assert g.view(2)["passed"] == [{"from": 1, "to": 2, "card": "6S"}, {"from": 2, "to": 0, "card": "5S"}]


@documents("exchange[].to")
def test_a_seat_that_to_names_itself_gives_nothing():
    """A seat `to` gives itself (or `none`) gives nothing: here every seat gives to the holder of the 6S,
    who is skipped; when every seat would give itself the step is skipped and play begins."""
    g = game(text("- {to: 'holder(\"6S\")', count: 1, cards: any}"), FIRST, dealer=0)
    assert g.view(0)["phase"] == "exchange" and g.current_player == 2   # seat 1 (the holder) is skipped
    g.apply("give 5S")
    assert g.current_player == 0
    g.apply("give 3H")
    assert sorted(g.hand_of(1)) == ["3H", "3S", "5S", "6S"] and g.view(1)["phase"] == "climb"
    g = game(text("- {to: player, count: 1, cards: any}"), FIRST, dealer=0)
    assert g.view(1)["phase"] == "climb" and g.current_player == 1 and sorted(g.hand_of(1)) == ["3S", "6S"]
    g = game(text("- {to: none, count: 1, cards: any}"), FIRST, dealer=0)
    assert g.view(1)["phase"] == "climb"
