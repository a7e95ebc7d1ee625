"""docs/api.md, "Tables": `table.log(reader)` tells each action in words, and "a card of an action is
named to a reader only if that reader saw it just before or just after (a discard, a meld, a trick),
made the action, or the action ended the hand; otherwise it is "a card" (a card given face down to
another seat). `log(None)` names every card, for replays."  Seats are named from 1 for people:
seat 0 is "Seat 1"."""

from __future__ import annotations

import rulesdsl
from rulesdsl.table import Table
from conformance.keys import documents
from conformance.play import game, legal

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
FULL = [r + s for s in "SHDC" for r in RANKS]


def gin_knock_table():
    """Bundled Gin Rummy, dealer 0, stacked: seat 1 holds AS 2S 3S / 4H 5H 6H / 7D 8D 9D and KC, takes
    the upcard 2C and knocks with KC (deadwood 2C = 2); seat 0 holds 10S JH QD 2D 4C 6C 8C 10C QC 5S,
    none of which lays off on those melds (deadwood 75)."""
    s1 = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC"]
    s0 = ["10S", "JH", "QD", "2D", "4C", "6C", "8C", "10C", "QC", "5S"]
    deck = [c for pair in zip(s1, s0) for c in pair] + ["2C"]
    deck += [c for c in FULL if c not in deck]
    g = rulesdsl.load("gin_rummy").new_game(seed=0, dealer=0, deck=deck)
    t = Table(g, ["human", "human"])
    t.act(1, "take discard")
    assert "knock KC" in legal(g)
    t.act(1, "knock KC")
    return t


@documents("api:log")
def test_a_knock_discard_lies_face_down_so_the_opponent_reads_a_card():
    """Gin's knock discards face down: the opponent saw that card neither before (in the knocker's
    hand) nor after (face down on the pile), and the knock did not end the hand (the layoff window is
    open), so its log says "a card"; the knocker and a replay's log name it."""
    t = gin_knock_table()
    assert t.game.view(0)["phase"] == "layoff"
    assert t.log(0) == ["Seat 2 takes the discard.", "Seat 2 knocks, discarding a card."]
    assert t.log(1) == ["You take the discard.", "You knock, discarding KC."]
    assert t.log(None) == ["Seat 2 takes the discard.", "Seat 2 knocks, discarding KC."]
    t.act(0, "done")                                # the hand ends; the knock's line stays as it was
    lines = t.log(0)
    assert lines[:3] == ["Seat 2 takes the discard.", "Seat 2 knocks, discarding a card.", "You are done."]
    # seat 1 scores the difference of deadwood, 75 - 2
    assert lines[3].startswith("Hand 1 ended (knock) by seat 2. Seat 2 scores 73.")
    assert "KC" not in " ".join(lines)


@documents("api:log")
def test_gin_seed_14_greedy_knock_is_a_card_to_the_opponent():
    """Bundled Gin Rummy, seed 14, two greedy bots: the first knock's discard lies face down, so the
    opponent's log tells it as "a card" while the knocker's names it."""
    t = Table.new(rulesdsl.load("gin_rummy"), ["greedy", "greedy"], seed=14)
    g = t.game
    event = None
    while not g.is_over and g.hand_number == 1:
        e = t.step_bot()
        if e.text.split()[0] in ("knock", "gin"):
            event = e
            break
    assert event is not None and event.text.startswith("knock ")
    card = event.text.split()[1]
    other = 1 - event.seat
    assert g.view(other)["zones"]["discard"].get("top_face_down") is True
    name = f"Seat {event.seat + 1} (greedy)"
    assert t.describe(event, other) == f"{name} knocks, discarding a card."
    assert t.describe(event, event.seat) == f"You knock, discarding {card}."
    assert t.describe(event, None) == f"{name} knocks, discarding {card}."


# Two players, eight cards; a turn draws, then discards onto the pile (`visible: all`) or folds: a
# go-out whose discard goes face down onto the pile, after which the opponent may lay off (the hand
# goes on).  `close` is the same go-out without layoffs: it ends the hand at once.
FOLD = """
    name: Fold face down
    players: 2
    deck: {ranks: [A, 2, 3, 4], suits: [S, H], values: {A: 1}}
    melds:
      set: {kind: set, min: 2, max: 3}
    zones:
      stock: {visible: none}
      pile: {visible: all}
      hand: {per: player, visible: owner}
    deal:
      - {deal: 2, to: hand}
    turn:
      - step: draw
        actions:
          - draw: stock
      - step: finish
        actions:
          - discard: pile
          - go_out: fold
          - go_out: close
    go_out:
      fold: {discard: face_down, when: 'deadwood(hand) > 0', layoffs: opponents}
      close: {discard: face_down, when: 'deadwood(hand) > 0'}
    stock_out: {when: count(stock) == 0, result: score}
    scoring:
      outcomes: [{when: 'true', scorer: declarer, points: 1}]
    match: {ends_when: 'true', first_dealer: seat0}
"""

# dealer 0: seat 1 is dealt AS 2S, seat 0 AH 2H; the stock is 3S (top), 3H, 4S, 4H
DECK = ["AS", "AH", "2S", "2H", "3S", "3H", "4S", "4H"]


def fold_table(go_out: str) -> Table:
    """Seat 1 draws 3S and discards AS face up; seat 0 draws 3H and goes out with AH face down."""
    t = Table(game(FOLD, deck=DECK), ["human", "human"])
    t.act(1, "draw stock")
    t.act(1, "discard AS")
    t.act(0, "draw stock")
    t.act(0, f"{go_out} AH")
    return t


@documents("api:log")
def test_a_card_folded_face_down_into_a_face_up_zone_is_a_card_to_the_other_seat():
    """The pile shows every card, but the fold's discard lies face down in it, and the hand goes on:
    the other seat saw AH neither before nor after, so it reads "a card"; the face-up discard AS and
    the draws read as the docs' words."""
    t = fold_table("fold")
    assert t.game.view(1)["zones"]["pile"]["cards"] == ["AS", "face down"]
    assert not t.game.is_over
    assert t.log(1) == ["You draw from the stock.", "You discard AS.", "Seat 1 draws from the stock.",
                        "Seat 1 folds, discarding a card."]
    assert t.log(0) == ["Seat 2 draws from the stock.", "Seat 2 discards AS.", "You draw from the stock.",
                        "You fold, discarding AH."]
    assert t.log(None)[-1] == "Seat 1 folds, discarding AH."


@documents("api:log")
def test_a_face_down_card_of_an_action_that_ends_the_hand_is_named():
    """A card of an action that ended the hand is named to every reader: `close` goes out without a
    layoff window, so the hand (and the one-hand match) ends on it."""
    t = fold_table("close")
    assert t.game.is_over
    assert t.log(1)[3] == "Seat 1 closes, discarding AH."


# Three players; before the first trick every seat gives one card to the seat on its left.
PASS = """
    name: Pass one left
    players: 3
    deck: {ranks: [2, 3, 4], suits: [S, H]}
    zones:
      stock: {visible: none}
      hand: {per: player, visible: owner}
      trick: {visible: all}
      taken: {per: player, visible: none}
    deal:
      - {deal: 2, to: hand}
    exchange:
      - {to: 'next_seat(player)', count: 1, cards: any}
    tricks:
      first_leader: next_seat(dealer)
    scoring:
      each_player: 'count(player.taken)'
    match: {ends_when: 'true', first_dealer: seat0}
"""


@documents("api:log")
def test_a_card_given_to_another_seat_is_named_to_giver_and_receiver_only():
    """A card given face down to another seat is "a card" to the others; the giver made the action and
    the receiver sees it just after, in its hand; a replay's log names it.  Dealer 0: seat 1 (the first
    giver) holds 2S 2H and gives 2S to seat 2."""
    t = Table(game(PASS, deck=["2S", "3S", "4S", "2H", "3H", "4H"]), ["human"] * 3)
    assert t.game.current_player == 1 and legal(t.game) == ["give 2S", "give 2H"]
    t.act(1, "give 2S")
    assert t.log(1) == ["You give 2S."]
    assert t.log(2) == ["Seat 2 gives 2S."]
    assert t.log(0) == ["Seat 2 gives a card."]
    assert t.log(None) == ["Seat 2 gives 2S."]
