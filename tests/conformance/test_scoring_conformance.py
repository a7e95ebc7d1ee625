"""Conformance: `scoring`, `match` and `teams` (docs/language.md: "scoring", "match", "Partnerships").

The games are as small as a hand can be: one card each, and one action ends the hand -- a go-out (`call`,
`fold` or `rest`, each with no discard, so the actor is the declarer and, with two players, the other
seat the defender) or `pass`, which ends the hand as `stock`."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import game, legal

# With dealer 0 the deal goes from seat 1: seat 1 gets the deck's first card, seat 0 the second...
# (A is worth 1, the other ranks their face value.)
BASE = """
name: scoring
players: %(players)s
deck: {ranks: [A, 2, 3, 4], suits: [S, H], values: {A: 1}}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
deal:
  - {deal: 1, to: hand}
turn:
  - step: only
    actions:
      - go_out: call
      - go_out: fold
      - go_out: rest
      - pass: true
        then: end_hand
go_out:
  call: {discard: none, arrange: false, when: 'true'}
  fold: {discard: none, arrange: false, when: 'true'}
  rest: {discard: none, arrange: false, when: 'true'}
"""
DECK = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"]     # seat 1: AS, seat 0: 2S (dealer 0)


def ruleset(rest: str, players: int = 2) -> str:
    return BASE % {"players": players} + rest


# ------------------------------------------------------------------ scoring

OUTCOMES = """
scoring:
  multiplier: deal.number
  outcomes:
    - when: ending == "call"
      scorer: declarer
      points: 10 + held(defender)
    - when: ending == "call" or ending == "fold"
      scorer: defender
      points: 3
match:
  ends_when: deal.number >= 3
  first_dealer: seat0
  next_dealer: next_seat(dealer)
  on_tie: shared
"""


@documents("scoring", "scoring.outcomes", "scoring.outcomes[].when", "scoring.outcomes[].scorer",
           "scoring.outcomes[].points", "scoring.multiplier")
def test_the_first_outcome_that_holds_scores_its_points_times_the_multiplier_for_its_scorer():
    """The first outcome whose `when` holds scores `points` (times `multiplier`) for its `scorer`, who is
    also credited with a hand won; when none holds, nobody scores."""
    g = game(ruleset(OUTCOMES), deck=DECK, decks=[DECK, DECK])
    assert g.dealer == 0 and g.current_player == 1
    g.apply("call")                  # both outcomes hold: the first, for seat 1: (10 + 2) * 1
    assert g.scores == [0, 12] and g.hands_won == [0, 1]
    assert (g.hand_log[-1]["declarer"], g.hand_log[-1]["scorer"], g.hand_log[-1]["points"]) == (1, 1, 12)
    assert g.dealer == 1 and g.current_player == 0
    g.apply("fold")                  # only the second holds: seat 0 declared, seat 1 defends: 3 * 2
    assert g.scores == [0, 18] and g.hands_won == [0, 2]
    assert g.hand_log[-1]["scorer"] == 1
    g.apply("rest")                  # none holds: nobody scores, nobody wins the hand
    assert g.is_over
    assert g.scores == [0, 18] and g.hands_won == [0, 2]
    assert g.hand_log[-1]["scorer"] is None


EACH_PLAYER = """
scoring:
  each_player: 10 * held(player) + player
  %(multiplier)s
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""


@documents("scoring", "scoring.each_player")
def test_each_player_scores_every_seat_by_one_expression():
    """`each_player`: every seat scores the expression, `player` being the seat scored."""
    g = game(ruleset(EACH_PLAYER % {"multiplier": ""}), deck=DECK, dealer=0)
    g.apply("pass")
    assert g.scores == [10 * 2 + 0, 10 * 1 + 1]


@documents("scoring.multiplier", "scoring.each_player")
def test_the_multiplier_multiplies_what_each_player_scores():
    """`multiplier` multiplies the points scored (an expression: here 3 for a `call`, else 1)."""
    text = ruleset(EACH_PLAYER % {"multiplier": "multiplier: 'if ending == \"call\" then 3 else 1'"})
    g = game(text, deck=DECK, dealer=0)
    g.apply("call")
    assert g.scores == [3 * 20, 3 * 11]
    g = game(text, deck=DECK, dealer=0)
    g.apply("pass")
    assert g.scores == [20, 11]


TEAMS = """
teams: {count: %(count)d}
scoring:
  each_team: sum(10 * held(p) + p for p in members(team))
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""


@documents("teams", "teams.count", "scoring.each_team")
def test_each_team_scores_per_team_with_partners_sitting_opposite():
    """`teams: {count: 2}`: seat s plays for team s % 2; `each_team` scores each team (`team` bound), and
    `game.scores` is per team.  Dealer 0, four seats: seat 1 gets AS, 2 gets 2S, 3 gets 3S, 0 gets 4S."""
    g = game(ruleset(TEAMS % {"count": 2}, players=4), deck=DECK, dealer=0)
    assert [g.hand_of(s) for s in range(4)] == [["4S"], ["AS"], ["2S"], ["3S"]]
    assert g.view(0)["teams"] == [[0, 2], [1, 3]]
    g.apply("pass")
    assert g.scores == [(40 + 0) + (20 + 2), (10 + 1) + (30 + 3)]


@documents("teams.count", "scoring.each_team")
def test_three_teams_of_two_among_six_players():
    """`teams: {count: 3}` with six players: seat s plays for team s % 3 (partners sit opposite), and
    there are three scores.  Dealer 0: seats 1..5 get AS 2S 3S 4S AH, seat 0 gets 2H."""
    g = game(ruleset(TEAMS % {"count": 3}, players=6), deck=DECK, dealer=0)
    assert g.view(0)["teams"] == [[0, 3], [1, 4], [2, 5]]
    g.apply("pass")
    assert [g.hand_of(s) for s in range(6)] == [["2H"], ["AS"], ["2S"], ["3S"], ["4S"], ["AH"]]
    assert g.scores == [(20 + 0) + (30 + 3), (10 + 1) + (40 + 4), (20 + 2) + (10 + 5)]


TOTALS = """
scoring:
  each_player: held(player) + 10 * player.hands_seen
  totals:
    hands_seen: player.hands_seen + 1
    after: score(player)
match:
  ends_when: any(p.after >= 20 for p in seats)
  on_tie: shared
"""


@documents("scoring.totals")
def test_running_totals_are_judged_after_the_hands_score_with_the_old_values():
    """`totals:` keeps named numbers per side across deals: after each hand each side's new value is its
    expression, judged after the hand's score and with the old values (0 at the start); rules read them
    as `player.NAME`.  Hand 1 scores the cards held, 2 and 1 (`hands_seen` is still 0); hand 2 (dealt the
    other way round) 1 + 10 and 2 + 10; hand 3 2 + 20 and 1 + 20.  `after`, the score *after* the hand,
    first reaches 20 in hand 3, which ends the match (`ends_when` is checked after the totals move on)."""
    g = game(ruleset(TOTALS), deck=DECK, decks=[DECK] * 3, dealer=0)
    g.apply("pass")
    assert g.scores == [2, 1] and not g.is_over
    g.apply("pass")                                   # the dealer moved on: seat 1 now holds 2S
    assert g.scores == [2 + 1 + 10, 1 + 2 + 10]
    assert not g.is_over
    g.apply("pass")
    assert g.scores == [13 + 2 + 20, 13 + 1 + 20]
    assert g.is_over and g.hand_number == 3          # `after` read the score made in hand 3 (35 >= 20)


OLD_VALUES = """
scoring:
  each_player: 10 * player.a + player.b
  totals:
    b: player.b + 1
    a: player.b
match:
  ends_when: deal.number >= 2
  on_tie: shared
"""


@documents("scoring.totals")
def test_every_running_total_is_judged_with_the_old_values_of_the_others():
    """Each new value is judged "with the old values": `a` (listed after `b`) takes `b`'s old value, so
    after hand 1 `b` is 1 and `a` is 0, and hand 2 scores 10 * 0 + 1."""
    g = game(ruleset(OLD_VALUES), deck=DECK, decks=[DECK], dealer=0)
    g.apply("pass")
    assert g.scores == [0, 0]
    g.apply("pass")
    assert g.is_over and g.scores == [1, 1]


TEAM_TOTALS = """
teams: {count: 2}
scoring:
  each_team: 100 * team.streak + team
  totals:
    streak: team.streak + 1 + team
match:
  ends_when: deal.number >= 2
  on_tie: shared
"""


@documents("scoring.totals", "scoring.each_team")
def test_running_totals_are_kept_per_team_in_a_team_game():
    """With teams a running total is per team, read as `team.NAME`: team 0's `streak` goes 0, 1, team 1's
    0, 2; each hand scores 100 * the old value + the team's number."""
    g = game(ruleset(TEAM_TOTALS, players=4), deck=DECK, decks=[DECK], dealer=0)
    g.apply("pass")
    assert g.scores == [0, 1]
    g.apply("pass")
    assert g.is_over and g.scores == [100, 1 + 200 + 1]


# ------------------------------------------------------------------ match

def _match(match: str, scoring: str = "each_player: 'if player == 1 then 7 else 0'") -> str:
    return ruleset(f"scoring:\n  {scoring}\nmatch:\n" + "".join(f"  {line}\n" for line in match.strip().split("\n")))


@documents("match", "match.ends_when")
def test_the_match_ends_after_the_scored_hand_that_makes_ends_when_true():
    """`ends_when` is checked after each scored hand: seat 1 scores 7 a hand, so 20 is reached in hand 3."""
    g = game(_match("ends_when: max_score >= 20"), deck=DECK, decks=[DECK] * 3, dealer=0)
    g.apply("pass")
    g.apply("pass")
    assert not g.is_over and g.scores == [0, 14]
    g.apply("pass")
    assert g.is_over and g.scores == [0, 21] and g.winner == 1 and g.hand_number == 3


@documents("match.ends_when")
def test_a_void_hand_is_not_a_scored_hand_for_ends_when():
    """`ends_when` is checked after each *scored* hand: a void hand (an `after_deal` misdeal) does not
    end the match, even where `ends_when` would hold."""
    text = _match("ends_when: deal.number >= 1") + (
        "after_deal:\n  - {when: 'holder(\"AS\") == next_seat(dealer)', ending: misdeal, result: void}\n")
    g = game(text, deck=DECK, decks=[list(reversed(DECK))], dealer=0)
    assert [e["ending"] for e in g.hand_log] == ["void"]
    assert not g.is_over and g.hand_number == 2
    g.apply("pass")
    assert g.is_over and g.scores == [0, 7]


@documents("match.first_dealer")
def test_first_dealer_seat0_or_random():
    """`first_dealer: seat0` makes seat 0 deal the first hand; `random` draws the first dealer by the seed."""
    fixed = {game(_match("ends_when: deal.number >= 1\nfirst_dealer: seat0"), seed=s).dealer for s in range(12)}
    assert fixed == {0}
    drawn = {game(_match("ends_when: deal.number >= 1\nfirst_dealer: random"), seed=s).dealer for s in range(12)}
    assert drawn == {0, 1}


@documents("match.next_dealer", "scoring.outcomes[].scorer")
def test_next_dealer_names_who_deals_next_and_none_keeps_the_dealer():
    """`next_dealer` gives the seat that deals the next hand (here the hand's scorer, `deal.scorer`); one
    that gives `none` (a hand nobody scored) keeps the dealer."""
    text = ruleset("scoring:\n  outcomes:\n    - {when: 'ending == \"call\"', scorer: declarer, points: 1}\n"
                   "match:\n  ends_when: deal.number >= 4\n  on_tie: shared\n  next_dealer: deal.scorer\n")
    g = game(text, deck=DECK, decks=[DECK] * 3, dealer=0)
    g.apply("call")                                   # seat 1 scores: it deals next
    assert g.dealer == 1 and g.current_player == 0
    g.apply("rest")                                   # nobody scores: seat 1 deals again
    assert g.dealer == 1 and g.current_player == 0
    g.apply("call")                                   # seat 0 scores
    assert g.dealer == 0 and g.current_player == 1


@documents("match.next_dealer")
def test_next_dealer_moves_the_deal_to_the_left():
    """`next_dealer: next_seat(dealer)`: the deal passes to the left, hand by hand."""
    g = game(ruleset("scoring:\n  each_player: 0\nmatch:\n  ends_when: deal.number >= 4\n  on_tie: shared\n"
                     "  next_dealer: next_seat(dealer)\n", players=3), deck=DECK, decks=[DECK] * 3, dealer=0)
    dealers = []
    for _ in range(3):
        dealers.append(g.dealer)
        g.apply("pass")
    assert dealers + [g.dealer] == [0, 1, 2, 0]


@documents("match.winner")
def test_winner_highest_or_lowest_total():
    """`winner: highest` (the default): the highest total wins; `lowest`: the lowest total wins."""
    for how, seat in (("", 1), ("winner: highest", 1), ("winner: lowest", 0)):
        g = game(_match(f"ends_when: deal.number >= 1\n{how}"), deck=DECK, dealer=0)
        g.apply("pass")
        assert g.is_over and g.scores == [0, 7] and g.winner == seat, how


TIE = "each_player: 'if deal.number == 1 then 5 else player'"


@documents("match.on_tie")
def test_on_tie_another_hand_plays_on_until_one_side_leads():
    """`on_tie: another_hand` (the default): when the match would end with the top totals tied, another
    hand is played."""
    for how in ("", "on_tie: another_hand"):
        g = game(_match(f"ends_when: deal.number >= 1\n{how}", TIE), deck=DECK, decks=[DECK], dealer=0)
        g.apply("pass")
        assert g.scores == [5, 5] and not g.is_over and g.hand_number == 2, how
        g.apply("pass")
        assert g.is_over and g.scores == [5, 6] and g.winner == 1


@documents("match.on_tie")
def test_on_tie_shared_ends_the_match_with_the_top_tied():
    """`on_tie: shared`: the match ends though the top totals are tied; no single seat is the winner.
    An expression may choose between the two."""
    g = game(_match("ends_when: deal.number >= 1\non_tie: shared", TIE), deck=DECK, dealer=0)
    g.apply("pass")
    assert g.is_over and g.scores == [5, 5] and g.winner is None
    chosen = "ends_when: deal.number >= 1\non_tie: 'if deal.number >= 2 then \"shared\" else \"another_hand\"'"
    g = game(_match(chosen, "each_player: 5"), deck=DECK, decks=[DECK], dealer=0)
    g.apply("pass")
    assert not g.is_over
    g.apply("pass")
    assert g.is_over and g.scores == [10, 10] and g.winner is None


@documents("match.direction")
def test_counterclockwise_play_and_deal_go_to_the_right():
    """`direction: counterclockwise`: turn order goes the other way round: the deal and the first turn
    start at the dealer's right (four players, dealer 0: seat 3), not its left."""
    text = "scoring:\n  each_player: 0\nmatch:\n  ends_when: deal.number >= 1\n  on_tie: shared\n  direction: %s\n"
    left = game(ruleset(text % "clockwise", players=4), deck=DECK, dealer=0)
    assert [left.hand_of(s) for s in range(4)] == [["4S"], ["AS"], ["2S"], ["3S"]]
    assert left.current_player == 1 and left.view(0)["turn_order"] == [0, 1, 2, 3]
    right = game(ruleset(text % "counterclockwise", players=4), deck=DECK, dealer=0)
    assert [right.hand_of(s) for s in range(4)] == [["4S"], ["3S"], ["2S"], ["AS"]]
    assert right.current_player == 3 and right.view(0)["turn_order"] == [3, 2, 1, 0]


END_BONUS = """
ends_when: max_score >= 10
end_bonus:
  when: %s
  points: 'if player == winner then 50 else 1'
"""


@documents("match.end_bonus", "match.end_bonus.when", "match.end_bonus.points")
def test_the_end_bonus_is_added_once_after_the_end():
    """`end_bonus` is added once, after the end, to each seat (`player`; `winner` the match winner), while
    its `when` holds; it never counts toward the end.  Seat 1 scores 6 a hand, seat 0 scores 4."""
    scoring = "each_player: 'if player == 1 then 6 else 4'"
    g = game(_match(END_BONUS % "true", scoring), deck=DECK, decks=[DECK], dealer=0)
    g.apply("pass")
    assert not g.is_over and g.scores == [4, 6]       # no bonus yet, and none that would reach 10
    g.apply("pass")
    assert g.is_over and g.winner == 1
    assert g.scores == [8 + 1, 12 + 50]
    g = game(_match(END_BONUS % "false", scoring), deck=DECK, decks=[DECK], dealer=0)
    g.apply("pass")
    g.apply("pass")
    assert g.is_over and g.scores == [8, 12]


# Three players climb with singles; with dealer 0 seat 1 holds 4S 4H, seat 2 5S 5H, seat 0 3S 3H.
CLIMBING = """
name: seating
players: 3
deck: {ranks: [3, 4, 5], suits: [S, H]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  played: {visible: all}
  trick: {visible: all}
deal:
  - {deal: all, to: hand}
climbing:
  plays: {single: {kind: set, min: 1, max: 1}}
  beats: play.rank > last.rank
  first_leader: next_seat(dealer)
scoring:
  each_player: 0
match:
  ends_when: deal.number >= 2
  on_tie: shared
  next_dealer: next_seat(dealer)
  seating: %s
"""
CLIMB_DECK = ["4S", "5S", "3S", "4H", "5H", "3H"]
# seat 2 goes out first, then seat 1; seat 0 is left holding 3H: the finishing order is 2, 1, 0
FIRST_HAND = ["play 4S", "play 5S", "pass", "pass", "play 5H", "pass", "pass", "play 3S", "play 4H"]


@documents("match.seating")
def test_seating_finishing_makes_the_last_finishing_order_the_turn_order():
    """`seating: finishing`: turn order = the last deal's finishing order (here 2, 1, 0, so after the
    dealer, seat 1, come seat 0 and then seat 2, in the deal and in play); `fixed` keeps the seats' order
    (after seat 1 come seat 2, then seat 0)."""
    seen = {}
    for seating in ("fixed", "finishing"):
        g = game(CLIMBING % seating, deck=CLIMB_DECK, decks=[CLIMB_DECK], dealer=0)
        for a in FIRST_HAND:
            g.apply(a)
        assert g.hand_log[-1]["order"] == [2, 1, 0] and g.hand_number == 2 and g.dealer == 1
        hands = [sorted(g.hand_of(s)) for s in range(3)]
        first = g.current_player
        g.apply(legal(g)[0])
        seen[seating] = (g.view(0)["turn_order"], hands, first, g.current_player)
    # fixed: dealt 2, 0, 1 (4S to seat 2, 5S to seat 0, 3S to seat 1); seat 2 leads, then seat 0
    assert seen["fixed"] == ([0, 1, 2], [["5H", "5S"], ["3H", "3S"], ["4H", "4S"]], 2, 0)
    # finishing: dealt 0, 2, 1 (4S to seat 0, 5S to seat 2, 3S to seat 1); seat 0 leads, then seat 2
    assert seen["finishing"] == ([2, 1, 0], [["4H", "4S"], ["3H", "3S"], ["5H", "5S"]], 0, 2)
