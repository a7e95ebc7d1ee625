"""Conformance: the deal and the first-turn offer (docs/language.md: "`deal`" and "`first_turn`: offering a
pile's top card"; docs/api.md: "Stacked decks").

Each test deals a stacked deck of a few cards and checks exactly where every card went: the hands (one
card at a time from the dealer's left), the turned-up cards, the cards set aside or buried, a draft's
choices; and then who may do what on the first turn."""

from __future__ import annotations

import textwrap

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import game, legal, refusal

# A turn: draw from the stock or take the discard, then discard.  The hand ends (scored) once the stock
# falls to `floor` cards as a turn ends; `deals` hands make the match.
GAME = """
name: deal
players: {players}
deck: {deck}
{extra}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  aside: {{visible: all}}
  hand: {{per: player, visible: owner}}
{zones}
deal:
{deal}
turn:
  - step: draw
    actions:
      - draw: stock
      - take: discard
  - step: finish
    actions:
      - discard: discard
stock_out: {{when: count(stock) <= {floor}, result: score}}
scoring:
  each_player: {scoring}
match:
  ends_when: deal.number >= {deals}
  on_tie: shared
"""
DECK8 = "{ranks: [A, 2, 3, 4], suits: [S, H]}"
CARDS8 = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"]


def text(deal: str, extra: str = "", zones: str = "", deck: str = DECK8, players: str = "2", floor: int = 0,
         scoring: str = "0", deals: int = 1) -> str:
    return GAME.format(deal=textwrap.indent(textwrap.dedent(deal).strip("\n"), "  "), extra=textwrap.dedent(extra),
                       zones=zones, deck=deck, players=players, floor=floor, scoring=scoring, deals=deals)


def hands(g) -> list[set[str]]:
    """Each seat's hand, as a set of card texts."""
    return [set(g.hand_of(s)) for s in range(len(g.scores))]


# ------------------------------------------------------------------ deal, to, turn_up, as

@documents("deal", "deal[].deal", "deal[].to")
def test_cards_are_dealt_one_at_a_time_from_the_dealers_left_into_the_zone_to():
    """`{deal: N, to: ZONE}` deals N cards to each player's `ZONE`, one at a time from the dealer's left;
    steps run in order; the rest is the stock, its next card on top."""
    t = text("- {deal: 2, to: hand}\n- {deal: 1, to: side}", zones="  side: {per: player, visible: owner}")
    g = game(t, deck=CARDS8, dealer=0)
    assert hands(g) == [{"2S", "4S"}, {"AS", "3S"}]
    assert g.hand_of(1, "side") == ["AH"] and g.hand_of(0, "side") == ["2H"]
    assert g.view(0)["zones"]["stock"] == {"count": 2}
    g.apply("draw stock")
    assert sorted(g.hand_of(1)) == ["3H", "3S", "AS"]                 # 3H was on top of the stock
    g = game(t, deck=CARDS8, dealer=1)                                   # dealer 1: seat 0 first
    assert hands(g) == [{"AS", "3S"}, {"2S", "4S"}]


@documents("deal[].deal")
def test_deal_all_deals_every_card_so_the_first_players_get_one_more():
    """`deal: all` deals every card, one at a time, so the first players in dealing order get one more."""
    t = text("- {deal: all, to: hand}", players="3", deck="{ranks: [A, 2, 3, 4, 5, 6, 7], suits: [S]}")
    t = t.replace("      - draw: stock\n", "")
    g = game(t, deck=["AS", "2S", "3S", "4S", "5S", "6S", "7S"], dealer=0)
    assert hands(g) == [{"3S", "6S"}, {"AS", "4S", "7S"}, {"2S", "5S"}]
    assert g.view(0)["zones"]["stock"] == {"count": 0}


@documents("deal[].deal", "deal[].when")
def test_deal_counts_may_read_players_parameters_and_the_deal_number():
    """A deal count may depend on `players`, the parameters and `deal.number`: evaluated for each hand."""
    t = text("- {deal: 'if deal.number == 1 then params.first else 3', to: hand}", extra="params:\n  first: 1",
             deals=2, floor=10)
    t = t.replace("stock_out: {when: count(stock) <= 10, result: score}",
                  "stock_out: {when: count(discard) >= 1, result: score}")
    g = game(t, deck=CARDS8, decks=[CARDS8], dealer=0)
    assert hands(g) == [{"2S"}, {"AS"}]
    g.apply("draw stock")
    g.apply("discard AS")
    assert g.hand_number == 2
    d2 = g.dealer
    first = 1 - d2                                                      # the seat left of the second dealer
    assert sorted(g.hand_of(first)) == sorted(["AS", "3S", "AH"])
    assert sorted(g.hand_of(d2)) == sorted(["2S", "4S", "2H"])
    assert hands(game(t, deck=CARDS8, dealer=0, overrides={"first": 2})) == [{"2S", "4S"}, {"AS", "3S"}]


@documents("deal[].turn_up", "deal[].as")
def test_turn_up_turns_one_card_face_up_and_as_remembers_it():
    """`{turn_up: ZONE, as: NAME}`: after the hands, the next card goes face up onto the pile, and the deal
    remembers it as `deal.NAME` (for the whole hand, wherever the card goes)."""
    t = text("- {deal: 2, to: hand}\n- {turn_up: discard}\n- {turn_up: discard, as: upcard}", floor=1,
             scoring='if rank(deal.upcard) == "2" and suit(deal.upcard) == "H" then 7 else 1')
    g = game(t, deck=CARDS8, dealer=0)
    assert g.view(0)["zones"]["discard"] == {"count": 2, "top": "2H"}      # AH under 2H
    assert g.view(0)["zones"]["stock"] == {"count": 2}
    assert legal(g) == ["draw stock", "take discard"]
    g.apply("take discard")
    assert set(g.hand_of(1)) == {"AS", "3S", "2H"}
    g.apply("discard 3S")
    g.apply("draw stock")                                               # one card left: the hand ends
    g.apply("discard 2S")
    assert g.is_over and g.scores == [7, 7]                             # deal.upcard stays 2H


@documents("deal[].bury_while")
def test_bury_while_puts_the_turned_card_back_into_the_stock_until_one_is_not_of_the_class():
    """`bury_while:` while the turned-up card is of the class (`card`), it goes back into the stock and
    the next is turned up; the buried cards stay in the stock."""
    t = text("- {deal: 1, to: hand}\n- {turn_up: discard, as: upcard, bury_while: 'rank(card) == \"A\"'}")
    deck = ["2S", "3S", "AS", "AH", "4S", "2H", "3H", "4H"]
    for seed in range(5):
        g = game(t, deck=deck, dealer=0, seed=seed)
        assert g.view(0)["zones"]["discard"] == {"count": 1, "top": "4S"}
        assert g.view(0)["zones"]["stock"] == {"count": 5}
        stock_cards = set(CARDS8) - set(g.hand_of(0)) - set(g.hand_of(1)) - {"4S"}
        assert stock_cards == {"AS", "AH", "2H", "3H", "4H"}
    # each card turned and buried goes back at a random place, AH (turned after AS) included: the stock's
    # next card is then most often 2H, the first card below them
    drawn = set()
    for seed in range(20):
        g = game(t, deck=deck, dealer=0, seed=seed)
        g.apply("draw stock")
        drawn |= set(g.hand_of(1)) - {"2S"}
    assert "2H" in drawn and drawn <= {"AS", "AH", "2H"}


@documents("deal[].bury_while")
def test_bury_while_finds_the_one_card_that_does_not_match_and_stops_when_none_is_left():
    """docs/language.md: after as many tries as the stock has cards, the top-most card that does not match
    is turned; a stock of nothing but matches stops the deal with an error.  Here only 4H fails the class:
    every seed turns it up (burying at random, a try at a time, once raised "buries every card" in about a
    third of the deals); a class every card is in stops the deal, naming the rule."""
    t = text("- {deal: 1, to: hand}\n- {turn_up: discard, as: upcard, bury_while: 'card != \"4H\"'}")
    for seed in range(200):
        g = game(t, deck=CARDS8, dealer=0, seed=seed)
        assert g.view(0)["zones"]["discard"] == {"count": 1, "top": "4H"}, seed
        assert g.view(0)["zones"]["stock"] == {"count": 5}
    every = text("- {deal: 1, to: hand}\n- {turn_up: discard, bury_while: 'value(card) >= 0'}")
    with pytest.raises(rulesdsl.RuleEvaluationError) as stopped:
        game(every, deck=CARDS8, dealer=0)
    assert "`bury_while` buries every card of the stock" in str(stopped.value)
    assert stopped.value.rule == "deal[1].bury_while"


@documents("deal[].cover_while")
def test_cover_while_turns_more_cards_onto_the_pile_under_the_one_that_stops():
    """`cover_while:` while the turned-up card is of the class, another is turned onto it; the covered
    cards stay in the pile, under it."""
    t = text("- {deal: 1, to: hand}\n- {turn_up: aside, cover_while: 'rank(card) == \"A\"'}")
    g = game(t, deck=["2S", "3S", "AS", "AH", "4S", "2H", "3H", "4H"], dealer=0)
    assert g.view(0)["zones"]["aside"] == {"count": 3, "cards": ["AS", "AH", "4S"]}
    assert g.view(0)["zones"]["stock"] == {"count": 3}
    g = game(t, deck=["2S", "3S", "4S", "AH", "AS", "2H", "3H", "4H"], dealer=0)
    assert g.view(0)["zones"]["aside"] == {"count": 1, "cards": ["4S"]}


@documents("deal[].seat")
def test_seat_deals_the_steps_cards_to_one_seat_read_when_the_step_runs():
    """`seat:` deals the step's cards to that seat only, read when the step runs (`holder(...)` of a card
    dealt by an earlier step)."""
    t = text("- {deal: 1, to: hand}\n- {deal: 2, to: hand, seat: 'holder(\"AS\")'}")
    g = game(t, deck=["2S", "AS", "3S", "4S", "AH", "2H", "3H", "4H"], dealer=0)
    assert hands(g) == [{"AS", "3S", "4S"}, {"2S"}]
    g = game(t, deck=["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"], dealer=0)
    assert hands(g) == [{"2S"}, {"AS", "3S", "4S"}]


@documents("deal[].when")
def test_when_switches_a_deal_step_on_or_off_by_the_parameters():
    """`when:` switches a step on or off by the parameters and `players`."""
    t = text("- {deal: 2, to: hand}\n- {turn_up: discard, when: params.starter}", extra="params:\n  starter: true")
    g = game(t, deck=CARDS8, dealer=0)
    assert g.view(0)["zones"]["discard"] == {"count": 1, "top": "AH"}
    g = game(t, deck=CARDS8, dealer=0, overrides={"starter": False})
    assert g.view(0)["zones"]["discard"] == {"count": 0} and g.view(0)["zones"]["stock"] == {"count": 4}
    t3 = text("- {deal: 2, to: hand}\n- {deal: 1, to: hand, when: players == 3}", players="{min: 2, max: 3}",
              deck="{ranks: [A, 2, 3, 4], suits: [S, H, D]}")
    cards12 = [r + s for s in "SHD" for r in "A234"]
    assert [len(h) for h in hands(game(t3, deck=cards12, dealer=0))] == [2, 2]
    assert [len(h) for h in hands(game(t3, deck=cards12, dealer=0, players=3))] == [3, 3, 3]


@documents("deal[].set_aside", "deal[].to")
def test_set_aside_takes_named_cards_out_before_anything_is_dealt():
    """`set_aside:` takes the named cards out of the deck into the table zone `to:` before anything is
    dealt; it may read `players` (a deck stripped for some counts)."""
    t = text("- {set_aside: 'if players == 3 then [\"AS\"] else []', to: aside}\n- {deal: 2, to: hand}",
             players="{min: 2, max: 3}", deck="{ranks: [A, 2, 3], suits: [S, H, D]}")
    cards9 = ["AS", "2S", "3S", "AH", "2H", "3H", "AD", "2D", "3D"]
    g = game(t, deck=cards9, players=3, dealer=0)
    assert g.view(0)["zones"]["aside"] == {"count": 1, "cards": ["AS"]}
    # the deal skips AS: 2S -> seat 1, 3S -> seat 2, AH -> seat 0, 2H -> 1, 3H -> 2, AD -> 0
    assert [sorted(g.hand_of(s)) for s in range(3)] == [sorted(["AH", "AD"]), sorted(["2S", "2H"]),
                                                         sorted(["3S", "3H"])]
    g = game(t, deck=cards9, players=2, dealer=0)
    assert g.view(0)["zones"]["aside"] == {"count": 0, "cards": []}
    assert [sorted(g.hand_of(s)) for s in range(2)] == [sorted(["2S", "AH"]), sorted(["AS", "3S"])]


@documents("deal[].deal", "deal[].to")
def test_a_deal_that_does_not_fit_or_gives_no_hand_a_card_is_refused():
    """Checked at load: the deal fits in the deck (`E-DEAL-TOO-MANY`); each player gets at least one card
    in `hand` (`E-DEAL`); a count is a whole number >= 0."""
    assert "error[E-DEAL-TOO-MANY]" in refusal(text("- {deal: 5, to: hand}"))
    assert "error[E-DEAL]" in refusal(text("- {deal: 0, to: hand}"))
    assert "error[E-UNKNOWN-ZONE]" in refusal(text("- {deal: 1, to: hnd}"))
    # a step dealt to one seat, its count read from `players`: judged for every player count allowed
    seat_deal = "- {deal: 1, to: hand}\n- {deal: 'players * 2', to: hand, seat: dealer}"
    assert "with 3 players the deal needs 9 cards, but the deck holds 8" in refusal(
        text(seat_deal, players="{min: 2, max: 3}"))
    assert "the deal count gives -1 with 2 players" in refusal(text(seat_deal.replace("players * 2", "players - 3")))
    assert len(game(text(seat_deal), deck=CARDS8, dealer=0).hand_of(0)) == 5


# ------------------------------------------------------------------ draft, discard_to, look

DRAFT_ZONES = "  out: {visible: none}\n  looking: {per: player, visible: owner}"


@documents("deal[].draft", "deal[].discard_to", "deal[].look")
def test_a_draft_builds_the_hands_from_the_stock():
    """`draft:` in turn from the dealer's left, the player sees the top card (in their `look` zone, shown
    to them alone) and keeps it (the next card goes unseen to `discard_to`) or passes it (it goes to
    `discard_to` and they take the next card), until fewer than two cards are left."""
    t = text("- {draft: hand, discard_to: out, look: looking}", zones=DRAFT_ZONES)
    t = t.replace("stock_out: {when: count(stock) <= 0, result: score}", "")
    t = t.replace("      - draw: stock\n      - take: discard\n", "      - pass: true\n        then: end_hand\n")
    g = game(t, deck=CARDS8, dealer=0)
    assert g.current_player == 1 and legal(g) == ["keep", "pass"]
    assert g.view(1)["zones"]["looking"] == [{"count": 0}, {"count": 1, "cards": ["AS"]}]
    assert g.view(0)["zones"]["looking"] == [{"count": 0, "cards": []}, {"count": 1}]
    g.apply("keep")                     # AS kept; 2S goes to `out` unseen
    assert g.current_player == 0 and g.view(0)["zones"]["looking"][0] == {"count": 1, "cards": ["3S"]}
    g.apply("pass")                     # 3S refused; 4S taken
    g.apply("keep")                     # seat 1 keeps AH; 2H out
    g.apply("pass")                     # seat 0 refuses 3H, takes 4H; nothing is left
    assert hands(g) == [{"4S", "4H"}, {"AS", "AH"}]
    assert g.view(0)["zones"]["out"] == {"count": 4} and g.view(0)["zones"]["stock"] == {"count": 0}
    assert g.phase == "turn" and g.current_player == 1


@documents("deal[].draft")
def test_a_draft_stops_when_fewer_than_two_cards_are_left():
    """The draft goes on until fewer than two cards are left: with five cards, each of two turns takes two
    and the last card stays in the stock."""
    t = text("- {draft: hand, discard_to: out, look: looking}", zones=DRAFT_ZONES,
             deck="{ranks: [A, 2, 3, 4, 5], suits: [S]}", floor=0)
    t = t.replace("stock_out: {when: count(stock) <= 0, result: score}", "")
    t = t.replace("      - draw: stock\n      - take: discard\n", "      - pass: true\n        then: end_hand\n")
    g = game(t, deck=["AS", "2S", "3S", "4S", "5S"], dealer=0)
    g.apply("pass")                     # seat 1: AS out, takes 2S
    g.apply("keep")                     # seat 0: keeps 3S, 4S out
    assert g.phase == "turn" and hands(g) == [{"3S"}, {"2S"}]
    assert g.view(0)["zones"]["stock"] == {"count": 1} and g.view(0)["zones"]["out"] == {"count": 2}


# ------------------------------------------------------------------ first_turn

FIRST = """
first_turn:
  offer: discard
  to: {to}
  if_all_pass: {{seat: {seat}, draw: stock}}
"""


def offered(to: str = "[left_of_dealer, dealer]", seat: str = "left_of_dealer"):
    t = text("- {deal: 2, to: hand}\n- {turn_up: discard}", extra=FIRST.format(to=to, seat=seat), floor=1)
    return game(t, deck=CARDS8, dealer=0)     # seat 1: AS 3S, seat 0: 2S 4S, upcard AH, stock 2H 3H 4H


@documents("first_turn", "first_turn.offer", "first_turn.to")
def test_the_offer_goes_to_the_seats_in_order_and_each_may_take_or_pass():
    """`first_turn`: the pile's top card (`offer`) is offered to the seats `to` in this order; each may
    `take discard` or `pass`; one who takes goes on to the step after drawing."""
    g = offered()
    assert g.current_player == 1 and g.phase == "offer" and legal(g) == ["take discard", "pass"]
    g.apply("pass")
    assert g.current_player == 0 and legal(g) == ["take discard", "pass"]
    g.apply("take discard")
    assert sorted(g.hand_of(0)) == ["2S", "4S", "AH"] and g.view(g.current_player)["step"] == "finish"
    assert sorted(legal(g)) == ["discard 2S", "discard 4S", "discard AH"]
    g.apply("discard 2S")
    assert g.current_player == 1 and legal(g) == ["draw stock", "take discard"]     # a normal turn


@documents("first_turn.offer", "first_turn.to")
def test_the_first_seat_offered_may_take_at_once():
    """The first seat in `to` that takes the card ends the offer and goes on to discard."""
    g = offered()
    g.apply("take discard")
    assert sorted(g.hand_of(1)) == ["3S", "AH", "AS"] and g.current_player == 1
    assert sorted(legal(g)) == ["discard 3S", "discard AH", "discard AS"]
    g = offered(to="[dealer]", seat="dealer")
    assert g.current_player == 0 and legal(g) == ["take discard", "pass"]          # only the dealer is offered


@documents("first_turn.if_all_pass", "first_turn.if_all_pass.seat", "first_turn.if_all_pass.draw")
def test_if_all_pass_that_seat_must_draw_from_the_stock():
    """`if_all_pass: {seat, draw}`: when every seat offered passes, that seat must draw from that zone."""
    g = offered()
    g.apply("pass")
    g.apply("pass")
    assert g.current_player == 1 and legal(g) == ["draw stock"]
    refused = g.refusal("take discard")                           # the passed card may not be taken now
    assert "this turn must start with `draw stock`" in str(refused)
    assert refused.rule == "first turn: both players passed the offered card"
    g.apply("draw stock")
    assert sorted(g.hand_of(1)) == ["2H", "3S", "AS"] and g.view(g.current_player)["step"] == "finish"
    g = offered(seat="dealer")
    g.apply("pass")
    g.apply("pass")
    assert g.current_player == 0 and legal(g) == ["draw stock"]
    g.apply("draw stock")
    assert sorted(g.hand_of(0)) == ["2H", "2S", "4S"]
    g.apply("discard 2H")
    assert g.current_player == 1 and legal(g) == ["draw stock", "take discard"]


@documents("first_turn", "first_turn.offer")
def test_taking_the_offer_goes_on_to_the_step_right_after_drawing():
    """"A player who takes the offered card goes on to the step after drawing": the next step of the
    turn, not its last, where the turn has more steps after the draw."""
    t = text("- {deal: 2, to: hand}\n- {turn_up: discard}", extra=FIRST.format(to="[left_of_dealer, dealer]",
             seat="left_of_dealer"), floor=0)
    t = t.replace("""  - step: finish
    actions:
      - discard: discard""", """  - step: again
    actions:
      - draw: stock
  - step: finish
    actions:
      - discard: discard""")
    g = game(t, deck=CARDS8, dealer=0)
    g.apply("take discard")
    assert g.view(1)["step"] == "again" and legal(g) == ["draw stock"]
    g.apply("draw stock")
    assert g.view(1)["step"] == "finish" and len(g.hand_of(1)) == 4
