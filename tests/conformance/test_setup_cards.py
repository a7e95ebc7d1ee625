"""Conformance: the cards and where they lie (docs/language.md: "`deck`" and "`zones`"; docs/api.md: "Cards",
"Stacked decks", "Views").

Each test builds a deck for the feature alone, stacks it, and checks the documented outcome: which cards
exist (ranks x suits x copies, plus jokers), what `value`, `rank`, `suit` and `color` say of them, and what
each seat's `view` shows of every zone."""

from __future__ import annotations

import textwrap

import pytest

from conformance.keys import documents
from conformance.play import game, legal, refusal, rules

# Dealer 0 and two players: seat 1 gets deck[0], deck[2], ...; seat 0 deck[1], deck[3], ...; then any
# turn-up; the rest is the stock, top first.  A turn is one discard (or a pass); the first discard ends
# the hand (a scored stock-out) and the match.
GAME = """
name: cards
players: {players}
deck: {deck}
{extra}
zones:
{zones}
deal:
  - {{deal: {deal}, to: hand}}
{deal_extra}
turn:
  - step: finish
    actions:
      - discard: discard
      - pass: true
stock_out: {{when: count(discard) >= 1, result: score}}
scoring:
  {scoring}
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""
ZONES = """\
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}"""


def text(deck: str = "{ranks: [A, 2, 3, 4], suits: [S, H]}", extra: str = "", zones: str = ZONES, deal: str = "2",
         deal_extra: str = "", scoring: str = "each_player: 0", players: str = "2") -> str:
    return GAME.format(deck=deck, extra=textwrap.dedent(extra), zones=zones, deal=deal, deal_extra=deal_extra,
                       scoring=scoring, players=players)


def all_cards(ranks, suits, copies=1):
    return [r + s for s in suits for r in ranks] * copies


def total(g) -> int:
    """Every card in the game, counted from seat 0's view of the zones."""
    n = 0
    for z in g.view(0)["zones"].values():
        n += sum(e["count"] for e in z) if isinstance(z, list) else z["count"]
    return n


# ------------------------------------------------------------------ deck

@documents("deck", "deck.ranks", "deck.suits")
def test_the_deck_is_one_card_of_each_rank_in_each_suit():
    """`ranks` and `suits`: the deck holds one card of every rank in every suit, written rank then
    suit; a stacked deck must list each exactly once."""
    ranks, suits = ["9", "10", "J"], ["S", "H", "D"]
    t = text(deck="{ranks: [9, 10, J], suits: [S, H, D]}", deal="1")
    deck = all_cards(ranks, suits)
    g = game(t, deck=deck, dealer=0)
    assert total(g) == 9 and g.hand_of(1) == ["9S"] and g.hand_of(0) == ["10S"]
    for bad in (deck[:-1] + ["QS"], deck[:-1], deck + ["9S"]):
        with pytest.raises(ValueError):
            game(t, deck=bad, dealer=0)
    with pytest.raises(ValueError):
        game(text(deck="{ranks: [9, 10, J], suits: [S, H]}", deal="1"), deck=deck, dealer=0)


@documents("deck.ranks", "deck.suits")
def test_rank_and_suit_name_a_card_and_input_is_case_insensitive_with_t_for_ten():
    """Cards are written rank then suit (`10H`); `rank(card)` and `suit(card)` give the names; input is
    case-insensitive and `T` stands for 10."""
    t = text(deck="{ranks: [9, 10], suits: [S, H]}", deal="1",
             scoring='each_player: if count(c for c in hand where rank(c) == "10" and suit(c) == "H") > 0 then 5 else 1')
    g = game(t, deck=["10S", "10H", "9S", "9H"], dealer=0)
    assert legal(g) == ["discard 10S", "pass"]
    g.apply("DISCARD ts")
    assert g.history == ["discard 10S"]
    assert g.is_over and g.scores == [5, 1]          # seat 0 holds 10H, seat 1 nothing


@documents("deck.ranks", "deck.values")
def test_values_naming_a_rank_not_in_the_deck_are_refused():
    """A reference to a rank not declared is refused: `deck.values` naming a rank the deck lacks is
    `E-UNKNOWN-RANK`."""
    assert "error[E-UNKNOWN-RANK]" in refusal(text(deck="{ranks: [A, 2], suits: [S, H], values: {K: 10}}"))
    rules(text(deck="{ranks: [A, 2, K], suits: [S, H], values: {K: 10}}"))


@documents("deck.ranks", "deck.suits")
@pytest.mark.parametrize("deck,what", [("{ranks: [A, 2, 2, 3], suits: [S, H]}", "rank `2`"),
                                       ("{ranks: [A, 2], suits: [S, H, S]}", "suit `S`")])
def test_a_rank_or_suit_listed_twice_is_refused(deck, what):
    """Each rank and suit names one kind of card: one listed twice is `E-DUPLICATE`, naming it."""
    out = refusal(text(deck=deck))
    assert "error[E-DUPLICATE]" in out and f"{what} is listed twice in `deck`" in out, out


@documents("deck.values")
def test_values_give_each_rank_its_value_and_numeric_ranks_default_to_face_value():
    """`value(card)` is the card's value from `deck.values`; numeric ranks default to face value; a
    value may be an expression over the parameters; `joker: N` values a joker."""
    t = text(deck="{ranks: [A, 2, 9, K], suits: [S], jokers: 1, values: {A: 1, K: 'params.king', joker: 25}}",
             extra="params:\n  king: 10", deal="2", players="2",
             scoring="each_player: sum(value(c) for c in hand)")
    g = game(t, deck=["AS", "2S", "9S", "KS", "Jk"], dealer=0)
    assert g.hand_of(1) == ["AS", "9S"] and g.hand_of(0) == ["2S", "KS"]
    g.apply("discard AS")
    assert g.scores == [2 + 10, 9]
    g = game(t, deck=["Jk", "2S", "9S", "KS", "AS"], dealer=0, overrides={"king": 4})
    g.apply("pass")
    g.apply("discard 2S")
    assert g.scores == [4, 25 + 9]


@documents("deck.copies")
def test_copies_shuffles_several_decks_together_and_may_read_players():
    """`copies`: that many decks are shuffled together (an expression that may use `players`): each card
    is then in the deck that many times, and a stacked deck lists it so often."""
    t = text(deck="{ranks: [A, 2], suits: [S, H], copies: 'if players == 3 then 2 else 1'}", deal="1",
             players="{min: 2, max: 3}")
    one = all_cards(["A", "2"], ["S", "H"])
    assert total(game(t, deck=one, dealer=0)) == 4
    g = game(t, deck=one * 2, players=3, dealer=0)
    assert total(g) == 8 and g.hand_of(1) == ["AS"] and g.hand_of(0) == ["AH"]
    with pytest.raises(ValueError):
        game(t, deck=one, players=3, dealer=0)
    t2 = text(deck="{ranks: [A, 2], suits: [S, H], copies: params.decks}", extra="params:\n  decks: 2",
              deal="1", scoring='each_player: count(c for c in hand where rank(c) == "A" and suit(c) == "S")')
    g = game(t2, deck=["AS", "AS", "2S", "2H", "AH", "2S", "2H", "AH"], dealer=0)
    assert g.hand_of(0) == ["AS"] and g.hand_of(1) == ["AS"]       # two copies of AS
    g.apply("discard AS")
    assert g.scores == [1, 0]


@documents("deck.jokers")
def test_jokers_are_added_to_each_copy():
    """`jokers`: jokers per copy, written `Jk`; `is_joker(card)` tells them."""
    t = text(deck="{ranks: [A], suits: [S, H], jokers: 1, copies: 2}", deal="3",
             scoring="each_player: count(c for c in hand where is_joker(c))")
    g = game(t, deck=["Jk", "AS", "AH", "Jk", "AS", "AH"], dealer=0)
    assert total(g) == 6
    assert sorted(g.hand_of(1)) == ["AH", "AS", "Jk"] and sorted(g.hand_of(0)) == ["AH", "AS", "Jk"]
    g.apply("discard AS")
    assert g.scores == [1, 1]
    with pytest.raises(ValueError):                 # three jokers: one too many
        game(t, deck=["Jk", "AS", "AH", "Jk", "AS", "Jk"], dealer=0)


@documents("deck.colors")
def test_colors_name_each_suits_colour_for_color_card():
    """`deck.colors` maps suits to colours, which `color(card)` reads."""
    t = text(deck="{ranks: [A, 2], suits: [S, H, D, C], colors: {S: black, C: black, H: red, D: red}}", deal="2",
             scoring='each_player: count(c for c in hand where color(c) == "red")')
    g = game(t, deck=["AS", "AH", "2D", "2C", "AD", "AC", "2S", "2H"], dealer=0)
    assert sorted(g.hand_of(1)) == ["2D", "AS"] and sorted(g.hand_of(0)) == ["2C", "AH"]
    g.apply("discard 2D")
    assert g.scores == [1, 0]


@documents("deck.colors")
def test_color_card_reads_the_colour_of_every_suit_the_first_included():
    """`color(card)` for a card of each suit, spades (the deck's first suit) included: seat 1 keeps the
    AS and seat 0 the 2C, one black card each.  Catches compile/names.py `color` taking the first suit
    for no suit (`< 0` -> `< 1`): the AS would have no colour."""
    t = text(deck="{ranks: [A, 2], suits: [S, H, D, C], colors: {S: black, C: black, H: red, D: red}}", deal="2",
             scoring='each_player: count(c for c in hand where color(c) == "black")')
    g = game(t, deck=["AS", "AH", "2D", "2C", "AD", "AC", "2S", "2H"], dealer=0)
    g.apply("discard 2D")
    assert g.scores == [1, 1]


# ------------------------------------------------------------------ zones

VIS_ZONES = """\
  stock: {visible: none}
  discard: {visible: top}
  shown: {visible: all}
  hand: {per: player, visible: owner}
  secret: {per: player, visible: none}
  open: {per: player, visible: all}"""


@documents("zones", "zones.*.visible", "zones.*.per")
def test_visible_says_what_each_seat_is_shown_of_a_zone():
    """`visible`: `none` shows only the count, `top` only the top card (the end of the list), `all`
    every card, `owner` a per-player zone's cards to its owner alone; `per: player` gives one zone per
    player, `per: table` (the default) one on the table."""
    t = text(deck="{ranks: [A, 2, 3, 4], suits: [S, H, D]}", zones=VIS_ZONES, deal="1", deal_extra="  - {deal: 1, to: secret}\n  - {deal: 1, to: open}\n"
             "  - {turn_up: shown}\n  - {turn_up: shown}\n  - {turn_up: discard}\n  - {turn_up: discard}")
    t = t.replace("when: count(discard) >= 1", "when: count(discard) >= 3")
    deck = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "AD", "2D", "3D", "4D"]
    g = game(t, deck=deck, dealer=0)
    for seat in (0, 1):
        z = g.view(seat)["zones"]
        assert z["stock"] == {"count": 2}
        assert z["discard"] == {"count": 2, "top": "2D"}
        assert z["shown"] == {"count": 2, "cards": ["3H", "4H"]}
        assert z["secret"] == [{"count": 1}, {"count": 1}]
        assert z["open"] == [{"count": 1, "cards": ["2H"]}, {"count": 1, "cards": ["AH"]}]
        own = {0: "2S", 1: "AS"}
        assert z["hand"][seat] == {"count": 1, "cards": [own[seat]]}
        assert z["hand"][1 - seat] == {"count": 1}


@documents("zones.*.per", "zones.*.visible", "deck.colors")
def test_a_team_zone_is_one_per_team_and_owner_shows_it_to_the_team():
    """`per: team` gives one zone per partnership (a rule reads it as `team.NAME`); `visible: owner` on
    it shows its cards to the team's members only."""
    t = text(deck="{ranks: [A, 2], suits: [S, H, D, C], colors: {S: black, C: black, H: red, D: red}}",
             extra="teams: {count: 2}\nclasses:\n  red: color(card) == \"red\"\nauto_lay: {class: red, to: pile}",
             zones=ZONES + "\n  pile: {per: team, visible: owner}", players="4",
             scoring="each_team: count(team.pile)")
    g = game(t, deck="AS AH AD AC 2S 2H 2D 2C".split(), dealer=0)
    g.apply("pass")                        # seat 1; seat 2 (team 0) begins its turn: AH 2H are laid out
    assert g.hand_of(2) == []
    for seat in (0, 2):
        assert g.view(seat)["team_zones"]["pile"] == [{"count": 2, "cards": ["AH", "2H"]}, {"count": 0}]
    for seat in (1, 3):
        assert g.view(seat)["team_zones"]["pile"] == [{"count": 2}, {"count": 0, "cards": []}]
    g.apply("pass")
    g.apply("pass")                        # seat 3 lays AD 2D out for team 1, then passes
    g.apply("discard AC")                  # seat 0 discards: the hand ends
    assert g.is_over and g.scores == [2, 2]


@documents("zones.*.reserve_for", "zones.*.visible")
def test_a_reserve_packet_becomes_the_hand_when_the_hand_is_empty():
    """`reserve_for: hand`: a per-player packet (the foot) that becomes the hand when the hand is empty;
    after a discard out of the hand the turn ends, with the packet now the hand.  With `visible: none`
    not even its owner sees it until then."""
    zones = ZONES + "\n  foot: {per: player, visible: none, reserve_for: hand}"
    t = text(deck="{ranks: [A, 2, 3, 4], suits: [S]}", zones=zones, deal="1",
             deal_extra="  - {deal: 1, to: foot}", scoring="each_player: count(hand) + 10 * count(foot)")
    t = t.replace("when: count(discard) >= 1", "when: count(discard) >= 2")
    g = game(t, deck=["AS", "2S", "3S", "4S"], dealer=0)
    assert g.hand_of(1) == ["AS"]
    assert g.view(1)["zones"]["foot"] == [{"count": 1}, {"count": 1}]
    g.apply("discard AS")
    assert g.hand_of(1) == ["3S"] and g.current_player == 0            # the foot was picked up
    assert g.view(1)["zones"]["foot"][1] == {"count": 0}
    assert g.view(1)["zones"]["hand"][1] == {"count": 1, "cards": ["3S"]}
    g.apply("discard 2S")
    assert g.is_over and g.scores == [1, 1]          # seat 0 picked up 4S; seat 1 holds 3S; no foot left


@documents("zones")
def test_a_stock_and_a_hand_are_required():
    """A table zone `stock` and a per-player zone `hand` are required."""
    no_stock = ZONES.replace("  stock: {visible: none}\n", "")
    assert "error[E-MISSING]: the ruleset needs a table zone named `stock`" in refusal(text(zones=no_stock))
    stock_per_seat = ZONES.replace("  stock: {visible: none}", "  stock: {per: player, visible: none}")
    assert stock_per_seat != ZONES
    assert "error[E-MISSING]: the ruleset needs a table zone named `stock`" in refusal(text(zones=stock_per_seat))
    hand_on_table = ZONES.replace("hand: {per: player, visible: owner}", "hand: {visible: owner}")
    assert "error[E-MISSING]: the ruleset needs a per-player zone named `hand`" in refusal(text(zones=hand_on_table))


@documents("deck.copies", "deck.jokers")
def test_setup_values_may_read_only_parameters_and_players():
    """Setup values (`deck.copies`, `deck.jokers`, ...) may read only parameters and `players`: a zone is
    an unknown name there (`E-UNDEFINED`)."""
    assert "error[E-UNDEFINED]: unknown name `stock`" in refusal(
        text(deck="{ranks: [A, 2, 3, 4], suits: [S, H], copies: 'count(stock)'}"))
    assert "error[E-UNDEFINED]: unknown name `hand`" in refusal(
        text(deck="{ranks: [A, 2, 3, 4], suits: [S, H], jokers: 'count(hand)'}"))
    g = game(text(deck="{ranks: [A], suits: [S], jokers: 'players - 1 + params.extra'}", extra="params:\n  extra: 1",
                  deal="1", scoring="each_player: count(c for c in hand where is_joker(c))"),
             deck=["Jk", "Jk", "AS"], dealer=0)
    assert g.hand_of(0) == ["Jk"] and g.hand_of(1) == ["Jk"] and total(g) == 3


@documents("deck.copies", "deck.jokers")
def test_copies_and_jokers_are_whole_numbers_within_the_limits():
    """`copies` is a whole number from 1 to 16, `jokers` from 0 to 16 (docs, Limits); anything else, a
    parameter's value included, is `E-DECK` naming what it gave."""
    deck = "{ranks: [A, 2, 3, 4], suits: [S, H], %s}"
    for key, value, shown in (("jokers", "17", "17"), ("jokers", "-1", "-1"), ("jokers", "true", "True"),
                              ("jokers", "'\"two\"'", "'two'"), ("copies", "17", "17"),
                              ("copies", "true", "True")):
        out = refusal(text(deck=deck % f"{key}: {value}"))
        most = 16
        least = 0 if key == "jokers" else 1
        assert (f"error[E-DECK]: `deck.{key}` gives {shown}; it must be a whole number from {least} to {most}"
                in out), (key, value, out)
    rules(text(deck=deck % "jokers: 16"))
    rules(text(deck=deck % "copies: 16, jokers: 0"))


@documents("deck.jokers")
def test_a_joker_and_no_card_have_no_rank_and_no_suit():
    """docs/language.md (Builtins): `rank(card)` and `suit(card)` are `none` for a joker (it has neither)
    and for no card at all (`turn.drawn` when nothing was drawn).  Seat 1 holds the joker and the ace;
    nobody draws, so every seat has the 1 for no card, and seat 1 the 10 for its joker.  Catches a joker
    read as the last suit or rank of the deck, or no card read as a card."""
    t = text(deck="{ranks: [A, 2], suits: [S, H], jokers: 1}",
             scoring="each_player: count(c for c in hand where suit(c) == none and rank(c) == none) * 10"
                     " + (if suit(turn.drawn) == none and rank(turn.drawn) == none then 1 else 0)")
    g = game(t, deck=["Jk", "2S", "AS", "2H", "AH"], dealer=0)
    assert sorted(g.hand_of(1)) == ["AS", "Jk"]
    g.apply("pass")
    g.apply("discard 2S")
    assert g.is_over and g.scores == [1, 11], g.scores


@documents("deck.ranks")
def test_a_deck_of_one_rank_melds_like_any_other():
    """A deck may have a single rank (four aces here): two of them are a set, so each hand of two aces has
    no deadwood, and a seat left with one ace scores its value (5).  Catches the meld search refusing a deck
    of fewer than two ranks."""
    t = text(deck="{ranks: [A], suits: [S, H, D, C], values: {A: 5}}", extra="melds:\n  set: {kind: set, min: 2}",
             scoring="each_player: deadwood(hand)")
    g = game(t, deck=["AS", "AH", "AD", "AC"], dealer=0)
    assert sorted(g.hand_of(1)) == ["AD", "AS"]
    g.apply("pass")
    g.apply("discard AC")
    assert g.is_over and g.scores == [5, 0]
