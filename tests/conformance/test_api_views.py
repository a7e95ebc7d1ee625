"""docs/api.md: `game.view(seat)` ("everything that seat may see, nothing more"), `game.clone()` ("an
independent copy in the same position: moves on either are not seen by the other; both continue from
the same random state") and `game.winner` / `view()["winner"]` (the winning seat -- or team, where the
game has teams -- once the match is over; with `match.on_tie: shared`, a tie for the best total ends
the match and the seats at the top share the win)."""

from __future__ import annotations

import copy
import json
import re
import textwrap

import pytest

import rulesdsl


from conformance.keys import documents
from conformance.play import game, legal, rules
from conformance.test_api_record import QUICK as RECORD_QUICK

CARD = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b")

# Two players, eight cards: two each, the rest a stock; `table` shows all its cards, `discard` only its
# top.  A turn draws (from the stock) and either discards or folds: a go-out whose own discard goes face
# down onto the pile, and that lets the opponent lay off (so the hand goes on).
SEEN = """
    name: What a seat sees
    players: 2
    deck: {ranks: [A, 2, 3, 4], suits: [S, H], values: {A: 1}}
    melds:
      set: {kind: set, min: 2, max: 3}
    zones:
      stock: {visible: none}
      discard: {visible: top}
      table: {visible: all}
      hand: {per: player, visible: owner}
    deal:
      - {deal: 2, to: hand}
    counters:
      draws: {on: [draw]}
    turn:
      - step: draw
        actions:
          - draw: stock
      - step: finish
        actions:
          - discard: discard
          - go_out: fold
    go_out:
      fold: {discard: face_down, when: 'deadwood(hand) > 0', layoffs: opponents}
    stock_out: {when: count(stock) == 0, result: score}
    scoring:
      outcomes: [{when: 'true', scorer: declarer, points: 1}]
    match: {ends_when: 'true', first_dealer: seat0}
"""

# dealer 0: seat 1 is dealt AS 2S, seat 0 AH 2H; the stock is 3S (top), 3H, 4S, 4H
DECK = ["AS", "AH", "2S", "2H", "3S", "3H", "4S", "4H"]


def cards_in(value) -> set:
    return set(CARD.findall(json.dumps(value)))


@documents("api:view")
def test_a_view_shows_the_own_hand_and_only_the_count_of_the_others():
    """`view(seat)` returns seat, players, hand_number, dealer, turn_order, current_player, phase, step,
    scores, hands_won, zones, melds, last_hands, legal_actions, is_over and winner; per zone a `count`,
    and `cards` or `top` only where the zone's `visible` lets the seat see them; `legal_actions` only
    for the seat on turn; counters are left out."""
    g = game(SEEN, deck=DECK)
    assert g.current_player == 1
    v1, v0 = g.view(1), g.view(0)
    keys = {"seat", "players", "hand_number", "dealer", "turn_order", "current_player", "phase", "step",
            "scores", "hands_won", "zones", "melds", "last_hands", "legal_actions", "is_over", "winner"}
    assert keys <= set(v1)
    assert "counters" not in v1 and "counters" not in v0
    assert v1["seat"] == 1 and v1["players"] == 2 and v1["hand_number"] == 1 and v1["dealer"] == 0
    assert v1["current_player"] == 1 and v1["phase"] == "turn" and v1["step"] == "draw"
    assert v1["legal_actions"] == ["draw stock"] and v0["legal_actions"] == []
    assert v1["is_over"] is False and v1["winner"] is None
    hand = v1["zones"]["hand"]
    assert sorted(hand[1]["cards"]) == ["2S", "AS"] and hand[1]["count"] == 2
    assert hand[0] == {"count": 2}                              # the opponent's hand: its size only
    assert v1["zones"]["stock"] == {"count": 4}
    assert v1["zones"]["discard"] == {"count": 0}
    assert v1["zones"]["table"] == {"count": 0, "cards": []}
    assert cards_in(v1) == {"AS", "2S"} and cards_in(v0) == {"AH", "2H"}


@documents("api:view")
def test_a_view_shows_the_top_of_a_top_zone_and_a_drawn_card_to_its_drawer_only():
    """`top` shows one card (the end of the zone's list), `none` and another seat's `owner` zone only a
    count; a card drawn from the stock is seen by the seat that drew it alone."""
    g = game(SEEN, deck=DECK)
    for a in ["draw stock", "discard AS", "draw stock", "discard AH"]:
        g.apply(a)                                  # seat 1 draws 3S, seat 0 draws 3H
    v1, v0 = g.view(1), g.view(0)
    assert v1["zones"]["discard"] == v0["zones"]["discard"] == {"count": 2, "top": "AH"}
    assert v1["zones"]["stock"] == {"count": 2}
    assert sorted(v1["zones"]["hand"][1]["cards"]) == ["2S", "3S"] and v1["zones"]["hand"][0] == {"count": 2}
    assert sorted(v0["zones"]["hand"][0]["cards"]) == ["2H", "3H"] and v0["zones"]["hand"][1] == {"count": 2}
    assert cards_in(v1) == {"2S", "3S", "AH"} and cards_in(v0) == {"2H", "3H", "AH"}


# the same game, the discards going onto `table` (visible: all) instead
FACE = SEEN.replace("          - discard: discard\n", "          - discard: table\n")


@documents("api:view")
def test_a_card_face_down_in_a_face_up_zone_shows_as_face_down_and_the_folded_hand_to_all():
    """An `all` zone shows every card, in order; a face-down card shows as such (a go-out's
    `discard: face_down` onto that zone); hands shown after a go-out are visible to all."""
    g = game(FACE, deck=DECK)
    for a in ["draw stock", "discard AS", "draw stock"]:       # seat 1: 3S, lays AS; seat 0 draws 3H
        g.apply(a)
    assert g.view(1)["zones"]["table"] == {"count": 1, "cards": ["AS"]}
    assert "fold AH" in legal(g)
    g.apply("fold AH")                                          # seat 0 keeps 2H 3H: deadwood 5 > 0
    for seat in (0, 1):
        v = g.view(seat)
        assert v["zones"]["table"] == {"count": 2, "cards": ["AS", "face down"]}
        assert sorted(v["zones"]["hand"][0]["cards"]) == ["2H", "3H"]
    assert "AH" not in cards_in(g.view(1))
    assert g.view(1)["phase"] == "layoff" and g.view(1)["legal_actions"] == ["done"]


# ----------------------------------------------------------------------------------------- clone

# test_api_record's two players with six cards and a hand of four actions, over six hands; the next hands
# are shuffled by the game's generator
QUICK = RECORD_QUICK.replace("ends_when: deal.number >= 4", "ends_when: deal.number >= 6")
assert QUICK != RECORD_QUICK


def snapshot(g) -> dict:
    n = g.view(0)["players"]
    return copy.deepcopy(dict(
        views=[g.view(s) for s in range(n)], history=list(g.history), scores=list(g.scores),
        hands=[sorted(g.hand_of(s)) for s in range(n)], hand_number=g.hand_number,
        hand_log=list(g.hand_log), current=g.current_player, legal=legal(g), is_over=g.is_over,
        winner=g.winner))


@documents("api:clone")
def test_a_clone_given_the_same_moves_plays_the_same_game_shuffles_included():
    """A clone is in the same position, and both continue from the same random state: given the same
    moves, clone and original show the same views at every step, the later (shuffled) hands included."""
    g = rules(QUICK).new_game(seed=2024)
    g.apply("draw stock")
    twin = g.clone()
    assert snapshot(twin) == snapshot(g)
    for _ in range(17):                                         # into hand 5, four shuffles later
        a = legal(g)[-1]
        g.apply(a)
        twin.apply(a)
        assert snapshot(twin) == snapshot(g)
    assert g.hand_number == 5


@documents("api:clone")
def test_moves_on_a_clone_are_not_seen_by_the_original_nor_the_reverse():
    """Moves on either are not seen by the other: acting on the clone leaves the original exactly as it
    was, and each then plays on as a game replayed with its own moves."""
    r = rules(QUICK)
    g = r.new_game(seed=7)
    g.apply("draw stock")
    before = snapshot(g)
    twin = g.clone()
    for _ in range(6):
        twin.apply(legal(twin)[0])
    assert snapshot(g) == before
    mine = []
    for _ in range(6):
        a = legal(g)[-1]
        mine.append(a)
        g.apply(a)
    assert twin.history[1:] != g.history[1:]
    for game_, moves in ((g, g.history), (twin, twin.history)):
        again = r.new_game(seed=7)
        for m in moves:
            again.apply(m)
        assert snapshot(again) == snapshot(game_)


# --------------------------------------------------------------------------------------- winners

# Three players; the first hand is scored at once after the deal (`after_deal`), each seat scoring
# what it holds; `share` chooses what a tie for the best total does.
TIES = """
    name: Ties
    players: 3
    params:
      share: true
    deck: {ranks: [A, 2, 3, 4], suits: [S, H], values: {A: 1}}
    zones:
      stock: {visible: none}
      discard: {visible: top}
      hand: {per: player, visible: owner}
    deal:
      - {deal: 2, to: hand}
    after_deal:
      - {when: deal.number == 1, ending: counted}
    turn:
      - step: draw
        actions:
          - draw: stock
      - step: finish
        actions:
          - discard: discard
    stock_out: {when: count(stock) == 0, result: score}
    scoring:
      each_player: 'sum(value(c) for c in player.hand)'
    match:
      ends_when: 'true'
      first_dealer: seat0
      on_tie: 'if params.share then "shared" else "another_hand"'
"""

# dealer 0: seat 1 AH 2H (3), seat 2 3S 2S (5), seat 0 4S AS (5): seats 0 and 2 tie
TIE_DECK = ["AH", "3S", "4S", "2H", "2S", "AS", "3H", "4H"]
# seat 1 AH 2H (3), seat 2 3S 2S (5), seat 0 4S 4H (8): seat 0 alone
ONE_DECK = ["AH", "3S", "4S", "2H", "2S", "4H", "3H", "AS"]


@documents("api:winners")
def test_the_seat_alone_at_the_top_is_the_winner():
    """`game.winner` is the winning seat once over, and every view says so."""
    g = game(TIES, deck=ONE_DECK)
    assert g.is_over and g.scores == [8, 3, 5]
    assert g.winner == 0
    assert all(g.view(s)["winner"] == 0 and g.view(s)["is_over"] for s in range(3))


@documents("api:winners")
def test_the_lowest_total_wins_where_match_winner_is_lowest():
    """`match.winner: lowest`: the lowest total wins."""
    text = TIES.replace("      first_dealer: seat0\n", "      first_dealer: seat0\n      winner: lowest\n")
    g = game(text, deck=ONE_DECK)
    assert g.scores == [8, 3, 5] and g.winner == 1


@documents("api:winners")
def test_a_tie_with_another_hand_plays_on_until_one_seat_leads():
    """`on_tie: another_hand`: a tie for the best total does not end the match; the next hand breaks it.
    Hand 2 (dealer 1, stacked): seat 2 draws 3H and discards AH (keeps 2H 3H: 5), seat 0 draws 4H and
    discards 2S (keeps 3S 4H: 7); seat 1 keeps 4S AS (5)."""
    g = game(TIES, deck=TIE_DECK, overrides={"share": False}, decks=[TIE_DECK])
    assert g.scores == [5, 3, 5] and not g.is_over and g.winner is None and g.hand_number == 2
    for a in ["draw stock", "discard AH", "draw stock", "discard 2S"]:
        g.apply(a)
    assert g.is_over and g.scores == [5 + 7, 3 + 5, 5 + 5] and g.winner == 0


@documents("api:winners")
def test_a_shared_win_ends_the_match_with_no_single_winner():
    """`on_tie: shared`: a tie for the best total ends the match (the win is shared), and no single
    seat is named the winner."""
    g = game(TIES, deck=TIE_DECK)
    assert g.is_over and g.scores == [5, 3, 5]
    assert g.winner is None and g.view(1)["winner"] is None


def _winners(g) -> set:
    """The seats the game names as sharing the win, in whatever form it names them."""
    w = getattr(g, "winners", None)
    if w is None:
        w = g.view(0)["winner"]
    if w is None:
        return set()
    return set(w) if isinstance(w, (list, tuple, set, frozenset)) else {w}


@documents("api:winners")
def test_the_seats_that_share_a_win_are_named():
    """The seats that share a win are named: seats 0 and 2 tie at 5 under `on_tie: shared`."""
    g = game(TIES, deck=TIE_DECK)
    assert g.is_over and g.scores == [5, 3, 5]
    assert _winners(g) == {0, 2}


TEAMS = """
    name: Team totals
    players: 4
    teams: {count: 2}
    deck: {ranks: [A, 2, 3, 4], suits: [S, H], values: {A: 1}}
    zones:
      stock: {visible: none}
      discard: {visible: top}
      hand: {per: player, visible: owner}
    deal:
      - {deal: 2, to: hand}
    after_deal:
      - {when: 'true', ending: counted}
    turn:
      - step: finish
        actions:
          - discard: discard
    scoring:
      each_team: 'sum(held(p) for p in members(team))'
    match:
      ends_when: 'true'
      first_dealer: seat0
      on_tie: shared
"""


@documents("api:winners")
def test_in_a_team_game_the_winner_is_the_team_of_both_partners():
    """Where the game has teams, scores are per team and the winner is a team; seat s plays for team
    s % 2 (`view()["teams"]` lists the members).  Dealer 0: seat 1 4H 2S, seat 2 3S AS, seat 3 4S 3H,
    seat 0 2H AH: team 0 (seats 0, 2) 3 + 4 = 7, team 1 (seats 1, 3) 6 + 7 = 13."""
    g = game(TEAMS, deck=["4H", "3S", "4S", "2H", "2S", "AS", "3H", "AH"])
    assert g.is_over and g.scores == [7, 13]
    assert g.winner == 1
    assert g.view(0)["teams"][g.winner] == [1, 3]


LABELLED = SEEN.replace("fold: {discard: face_down, when: 'deadwood(hand) > 0', layoffs: opponents}",
                        "fold: {discard: face_down, when: 'deadwood(hand) == 0', layoffs: opponents, rule: MY-FOLD-1}")


@documents("api:refusal")
def test_a_refusal_names_the_rule_that_forbids_the_action_and_changes_nothing():
    """docs/api.md, `IllegalAction`: `.rule` is the file's `rule:` label where it gives one, else the step
    or check, or the engine's own (`action syntax`, `card notation`, `turn order`, `match end`: `.pos`
    None); `.pos` is where the rule is written; `apply` raises it and the game is as it was.  Once the
    match is over, every action is refused as `match end`."""
    g = game(LABELLED, DECK)
    assert g.actor == 1
    for action, rule in (("hop", "action syntax"), ("discard 9Z", "card notation")):
        assert (g.refusal(action).rule, g.refusal(action).pos) == (rule, None)
    turn = g.refusal("draw stock", seat=0)
    assert (turn.rule, turn.pos) == ("turn order", None) and "seat 0 is not on turn; seat 1 is" in str(turn)
    step = g.refusal("discard AS")                                # the step that does not offer it
    assert (step.rule, step.pos) == ("turn step draw", None) and "allowed: draw" in str(step)
    g.apply("draw stock")                                         # seat 1 holds AS 2S 3S: deadwood 6
    assert g.refusal("discard 4S").rule == "cards in hand"
    fold = g.refusal("fold AS")
    assert fold.rule == "MY-FOLD-1" and fold.pos.line == line_of(LABELLED, "fold:")
    before = json.dumps(g.view(None), sort_keys=True), list(g.history)
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        g.apply("fold AS")
    assert refused.value.rule == "MY-FOLD-1"
    assert (json.dumps(g.view(None), sort_keys=True), list(g.history)) == before
    over = game(SEEN, DECK)                                      # seat 1 folds; seat 0 lays off nothing
    for action in ("draw stock", "fold AS", "done"):
        over.apply(action)
    assert over.is_over
    assert (over.refusal("draw stock").rule, over.refusal("draw stock").pos) == ("match end", None)


def line_of(text: str, fragment: str) -> int:
    """The line (from 1) of the ruleset ``text``, as loaded, that holds ``fragment``."""
    return next(i for i, line in enumerate(textwrap.dedent(text).splitlines(), 1) if fragment in line)


@documents("api:refusal")
@pytest.mark.parametrize("text", ["layoff 5D on x", "layoff 5D on 0", "layoff 5D on 12345", "layoff 5D on -1"])
def test_a_layoff_names_a_meld_by_its_number_from_1(text):
    """docs/api.md, the notation: `layoff 5D on 1` adds 5D to table meld 1 (numbered as in the view, from
    1).  Anything else after `on` is refused as action syntax, saying what is wanted, before any game
    sees it; `on 1` reads.  Catches the meld number's check dropped (a word or 0 then read as a meld)."""
    from rulesdsl.engine.actions import parse_action
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        parse_action(text)
    assert refused.value.rule == "action syntax"
    assert "`on` needs a meld number (1, 2, ... as numbered in the view)" in str(refused.value)
    assert parse_action("layoff 5D on 1").target == 1


@documents("api:refusal")
@pytest.mark.parametrize("text", ["discard 5D on 1", "meld 5D 5S 5H on 2", "play 5D on 1"])
def test_only_a_layoff_names_a_meld(text):
    """docs/api.md, the notation: `on N` belongs to `layoff CARD on N` alone; another action with it is
    refused as action syntax saying so, rather than reading `on` and the number as cards.  Catches that
    refusal dropped (the two words were then read as two more cards)."""
    from rulesdsl.engine.actions import parse_action
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        parse_action(text)
    assert refused.value.rule == "action syntax" and "only `layoff CARD on N` does" in str(refused.value)
