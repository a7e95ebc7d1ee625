"""Conformance: shedding with `climbing` (docs/language.md, "Shedding: matching a pile, naming a suit,
drawing").

Two players, ranks 3 4 5 6 8 in S and H (ten cards), dealer 0: seat 1 gets deck[0], deck[2], seat 0
deck[1], deck[3]; deck[4] is turned up onto the pile (`to: discard`), the first play to beat; the rest
is the stock, its top first.  Seat 1 leads."""

from __future__ import annotations

from string import Template

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import game, legal

SHED = Template("""
name: shed
players: 2
deck: {ranks: [3, 4, 5, 6, 8], suits: [S, H]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  discard: {visible: top}
  played: {visible: all}
deal: [{deal: 2, to: hand}, {turn_up: discard}]
climbing:
  to: discard
  plays: {single: {kind: set, min: 1, max: 1}}
  beats: $beats
  first_leader: next_seat(dealer)
$climbing
scoring: {each_player: 'if ending == "blocked" then 10 + count(player.hand) else count(player.hand)'}
match: {ends_when: deal.number >= 1, on_tie: shared}
""")

MATCH = 'play.suit == last.suit or play.rank_name == last.rank_name or play.rank_name == "8"'


def shed(climbing: str = "", beats: str = MATCH) -> str:
    import textwrap
    return SHED.substitute(beats=f"'{beats}'", climbing=textwrap.indent(textwrap.dedent(climbing).strip("\n"), "  "))


ALL = [r + s for s in "SH" for r in "34568"]


def deal(seat1, seat0, up, top=()):
    """The deck: seat 1's and seat 0's two cards each, the turned-up card, then the stock: ``top`` first,
    the other cards after it (S then H, low to high)."""
    deck = [seat1[0], seat0[0], seat1[1], seat0[1], up] + list(top)
    return deck + [c for c in ALL if c not in deck]


EIGHTS = 'names_suit: play.rank_name == "8"\npass_when: not can_play'


@documents("climbing.to", "climbing.names_suit")
def test_the_turned_up_card_is_the_first_play_to_beat_and_an_eight_names_a_suit():
    """A card turned up into `to` at the deal is the first play to beat; `names_suit`: the player names
    the suit to follow, `play 8H name S`, and the next play must follow that suit (`play.suit` is the
    suit the play named)."""
    g = game(shed(EIGHTS), deal(["3S", "8H"], ["5S", "4H"], "6S"), dealer=0)
    assert g.current_player == 1 and g.view(1)["zones"]["discard"]["top"] == "6S"
    assert sorted(legal(g)) == ["play 3S", "play 8H name H", "play 8H name S"]   # 3S follows the 6S
    g.apply("play 8H name H")
    assert g.view(0)["trick"]["named_suit"] == "H"
    assert legal(g) == ["play 4H"]                                # H named: the 5S does not follow
    g = game(shed(EIGHTS), deal(["3S", "8H"], ["5S", "4H"], "6S"), dealer=0)
    g.apply("play 8H name S")
    assert legal(g) == ["play 5S"]
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply("play 4H")


@documents("climbing.draw_from", "climbing.draw_when")
def test_draw_takes_one_card_and_the_same_player_goes_on():
    """`draw_from: stock`: `draw stock` takes one card and the same player goes on; `draw` is offered
    when `draw_when` holds (default: when no play is legal)."""
    cards = deal(["4H", "5H"], ["3S", "6H"], "6S", ("3H", "4S"))        # seat 1 cannot follow the 6S
    no_pass = "pass_when: not can_play and count(stock) == 0"
    g = game(shed("draw_from: stock\n" + no_pass), cards, dealer=0)
    assert legal(g) == ["draw stock"]
    g.apply("draw stock")                                         # the 3H: still no match
    assert g.current_player == 1 and sorted(g.hand_of(1)) == ["3H", "4H", "5H"]
    assert legal(g) == ["draw stock"]
    g.apply("draw stock")                                         # the 4S follows suit
    assert g.current_player == 1 and legal(g) == ["play 4S"]
    cards = deal(["4S", "5H"], ["3S", "6H"], "6S")        # seat 1 can follow
    assert legal(game(shed("draw_from: stock\n" + no_pass), cards, dealer=0)) == ["play 4S"]   # no draw
    g = game(shed("draw_from: stock\ndraw_when: turn.draws < 1\n" + no_pass), cards, dealer=0)
    assert sorted(legal(g)) == ["draw stock", "play 4S"]         # a draw though a play is legal
    g.apply("draw stock")                                         # the 5S; one draw allowed this turn
    assert g.current_player == 1 and sorted(legal(g)) == ["play 4S", "play 5S"]


@documents("climbing.pass_when")
def test_pass_is_offered_only_while_pass_when_holds():
    """`pass_when`: when `pass` is offered while a play stands (default: always); when nothing else is
    legal, `pass` is, so play never dead-ends."""
    cards = deal(["4S", "5H"], ["3S", "6H"], "6S")
    assert sorted(legal(game(shed(), cards, dealer=0))) == ["pass", "play 4S"]
    assert legal(game(shed("pass_when: not can_play"), cards, dealer=0)) == ["play 4S"]
    cards = deal(["4H", "5H"], ["3S", "6H"], "6S")        # no match and no draw: pass anyway
    assert legal(game(shed("pass_when: 'false'"), cards, dealer=0)) == ["pass"]


@documents("climbing.next_draws")
def test_next_draws_makes_the_next_player_owe_cards_unless_they_answer():
    """`next_draws`: the next player owes cards (they add up); they answer with a play `beats` accepts
    (passing the debt on, plus its own) or `draw` them all, which ends the turn."""
    rules = shed("""
    draw_from: stock
    next_draws: 'if play.rank_name == "3" then 2 else 0'
    pass_when: not can_play
    """, beats='(draws_owed == 0 or play.rank_name == "3") and (play.suit == last.suit or play.rank_name == last.rank_name)')
    g = game(rules, deal(["3S", "5S"], ["3H", "4S"], "6S", ("4H", "5H", "6H", "8S")), dealer=0)
    g.apply("play 3S")                                            # seat 0 owes 2
    assert g.view(0)["trick"]["draws_owed"] == 2
    assert sorted(legal(g)) == ["draw stock", "play 3H"]         # 4S follows suit, but does not answer
    g.apply("play 3H")                                            # seat 1 now owes 2 + 2
    assert g.view(1)["trick"]["draws_owed"] == 4 and legal(g) == ["draw stock"]
    g.apply("draw stock")                                         # all four at once; the turn passes
    assert sorted(g.hand_of(1)) == ["4H", "5H", "5S", "6H", "8S"] and g.current_player == 0
    assert g.view(0)["trick"]["draws_owed"] == 0


@documents("climbing.all_passed")
def test_all_passed_end_hand_blocks_the_hand_and_new_trick_starts_a_new_one():
    """`all_passed: end_hand`: the hand ends as "blocked" when every player still holding cards has
    passed in a row, with no play or draw between; by default (`new_trick`) the trick ends when every
    other player has passed and its last player leads a new one."""
    cards = deal(["4S", "5H"], ["3H", "8H"], "6S")
    g = game(shed("all_passed: end_hand", beats="play.suit == last.suit"), cards, dealer=0)
    g.apply("play 4S")
    assert legal(g) == ["pass"]                                   # seat 0 has no spade
    g.apply("pass")
    assert not g.is_over and legal(g) == ["pass"]                 # seat 1's 5H does not follow either
    g.apply("pass")
    assert g.is_over and g.scores == [12, 11]                     # blocked: 10 + the cards held
    g = game(shed("", beats="play.suit == last.suit"), cards, dealer=0)
    g.apply("play 4S")
    g.apply("pass")                                               # new_trick: seat 1 leads again
    assert not g.is_over and g.current_player == 1 and legal(g) == ["play 5H"]
    assert g.view(0)["zones"]["discard"]["count"] == 0
    assert sorted(g.view(0)["zones"]["played"]["cards"]) == ["4S", "6S"]


@documents("climbing.all_passed", "climbing.to")
def test_every_player_may_answer_the_turned_up_card_before_its_trick_ends():
    """A card turned up into `to` is the first play to beat, and a trick ends only when every other active
    player has passed since the last play: no player made the turned-up card, so one pass does not end
    its trick -- the next player, who can follow it, is on turn."""
    cards = deal(["4H", "5H"], ["3S", "8H"], "6S")               # seat 1 cannot follow the 6S; seat 0 can
    g = game(shed("", beats="play.suit == last.suit"), cards, dealer=0)
    g.apply("pass")
    assert g.current_player == 0 and sorted(legal(g)) == ["pass", "play 3S"]
    assert g.view(0)["zones"]["discard"]["top"] == "6S"
