"""One test (at least) per clause of shared/spec/hand_and_foot.md, played through the public API.

Conventions (see hand_and_foot_helpers): seats 0 = North, 1 = East, 2 = South, 3 = West; team 0 = NS,
team 1 = EW.  Decks are stacked with ``stack``/``deal`` (13 hand cards one at a time from the dealer's left,
13 foot cards the same way, the upcard, then the stock, top first); unless a test says otherwise West deals,
so North plays first.  Seats whose cards do not matter hold one natural of each rank plus black threes (no
meld, no pile take) and play "junk" turns: draw from the stock, discard a drawn card.  Expected figures come
from the spec (card values, meld rules, scoring formulas) through the independent checker and scorer in
hand_and_foot_helpers, never from the engine.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rulesdsl
from rulesdsl import IllegalAction

from hand_and_foot_helpers import (E, EW, FULL_DECK, N, NATURAL_RANKS, NS, ONE_DECK, S, W, BooksDeal, act,
                                   assert_illegal, book_type, build, deal, drain, drawn, expected_gains, finish,
                                   grow, hand, is_natural, is_red_three, junk_turn, lay, legal, meld, meld_type,
                                   melds, open_meld, pile_count, pile_deal, play_turn, position, rank, red_threes,
                                   rules, stack, stock_count, stock_out, team_books, top, value,
                                   play_watching_initial_melds)

#: min_meld that switches the initial-meld minimum off (used where a test is about something else)
NO_MIN = {"min_meld": [0, 0, 0, 0]}
#: thirteen cards that can meld nothing and take no pile: one natural of each rank 4..A and two black threes
JUNK13 = ["4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "3S", "3C"]


def junk(*keep: str) -> list:
    """A 13-card hand: ``keep`` plus junk cards of other ranks (no meld, no pile take among the junk)."""
    ranks = {rank(c) for c in keep}
    rest = [c for c in JUNK13 if rank(c) not in ranks or rank(c) == "3"]
    out = list(keep) + rest
    return out[:13]


def verbs(game) -> set:
    return {a.split()[0] for a in legal(game)}


# ==================================================================================================
# 1. Setup / deal
# ==================================================================================================


def test_HF_DEAL_1_four_players_in_two_partnerships_partners_opposite_turns_alternate():
    g = deal()
    v = g.view(N)
    assert v["players"] == 4 and len(v["zones"]["hand"]) == 4
    assert v["teams"] == [[0, 2], [1, 3]]               # partners sit opposite (seats s and s + 2)
    with pytest.raises((ValueError, rulesdsl.RulesdslError)):
        rules().new_game(seed=1, players=3)
    seats = []
    for _ in range(12):
        seats.append(g.current_player)
        junk_turn(g)
    assert seats == [0, 1, 2, 3] * 3
    assert [s % 2 for s in seats] == [0, 1] * 6          # turns alternate between the partnerships
    # partners share their melds (the table is per partnership)
    g = deal({N: junk("9H", "9D", "9S", "KH", "KD", "KS")}, {}, stock=[None, None, None, None, None, None, "9C"])
    play_turn(g, N, "draw stock")
    meld(g, "9H", "9D", "9S")
    meld(g, "KH", "KD", "KS")
    g.apply("discard 4C")
    assert {m["owner"] for m in melds(g)} == {NS}


def test_HF_DEAL_2_five_54_card_decks_make_270_cards():
    deck = stack()
    assert len(deck) == 270 and Counter(deck) == Counter(ONE_DECK * 5)
    g = rules().new_game(seed=3, dealer=0, deck=deck)
    assert g.cards_in_play == 270
    z = g.view(0)["zones"]
    counted = z["stock"]["count"] + z["discard"]["count"] + sum(h["count"] for h in z["hand"])
    counted += sum(f["count"] for f in z["foot"]) + sum(t["count"] for t in g.view(0)["team_zones"]["red_threes"])
    assert counted == 270
    with pytest.raises(ValueError):
        rules().new_game(seed=1, dealer=0, deck=deck + ["AS"])              # a 271st card
    with pytest.raises(ValueError):
        rules().new_game(seed=1, dealer=0, deck=deck[:-1])                  # 269 cards
    with pytest.raises(ValueError):                                          # a sixth AS
        rules().new_game(seed=1, dealer=0, deck=["AS" if c == "KS" else c for c in deck])
    # a random (unstacked) game also holds 270 cards
    assert rules().new_game(seed=99).cards_in_play == 270


def test_HF_DEAL_3_card_classes_naturals_wilds_and_threes():
    deck = Counter(FULL_DECK)
    assert sum(k for c, k in deck.items() if is_natural(c)) == 220
    assert deck["Jk"] == 10 and sum(k for c, k in deck.items() if rank(c) == "2") == 20
    assert sum(k for c, k in deck.items() if is_red_three(c)) == 10
    assert sum(k for c, k in deck.items() if rank(c) == "3" and not is_red_three(c)) == 10
    # the engine's deck has exactly these cards: an 11th joker is not a card of it
    d = stack()
    i = d.index("4S")
    with pytest.raises(ValueError):
        rules().new_game(seed=1, dealer=3, deck=d[:i] + ["Jk"] + d[i + 1:])
    # behaviour of the classes: every natural rank 4..A melds; 2s and jokers are wild; threes never meld
    for r in NATURAL_RANKS:
        g = deal({N: junk(r + "S", r + "H", r + "D")}, overrides=NO_MIN)
        g.apply("draw stock")
        assert any(a.startswith("meld") and a.split()[1:] and all(rank(c) == r for c in a.split()[1:])
                   for a in legal(g)), r
    g = deal({N: junk("Jk", "2C", "2D", "3S", "3C", "3S")}, overrides=NO_MIN)
    g.apply("draw stock")
    assert any(a.startswith("meld") and sorted(a.split()[1:]) == ["2C", "2D", "Jk"] for a in legal(g))
    assert not any(a.startswith("meld") and "3S" in a for a in legal(g))
    # all ten red threes are laid out at once (class red three)
    g = deal({N: ["3H"] * 5 + ["3D"] * 5 + ["9C", "9D", "9S"]}, overrides=NO_MIN)
    assert len(red_threes(g, NS)) == 10 and len(hand(g, N)) == 13


def test_HF_DEAL_4_first_dealing_partnership_is_chosen_at_random():
    dealers = [rules().new_game(seed=s).view(0)["dealer"] for s in range(40)]
    assert {d % 2 for d in dealers} == {0, 1}
    assert len(set(dealers)) == 4
    # the same seed gives the same first dealer (the choice comes from the game's seeded chance)
    assert dealers == [rules().new_game(seed=s).view(0)["dealer"] for s in range(40)]


def _ordered_deck() -> list:
    """A recognisable full deck (red threes last, so no card is laid out before it can be checked)."""
    d = [c for c in FULL_DECK if not is_red_three(c)] + [c for c in FULL_DECK if is_red_three(c)]
    i = next(i for i in range(104, 270) if is_natural(d[i]))
    d.insert(104, d.pop(i))                 # a natural upcard: nothing is buried
    assert is_natural(d[104])
    return d


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_HF_DEAL_5_hand_then_foot_dealt_thirteen_each_one_at_a_time_from_dealers_left(dealer):
    deck = _ordered_deck()
    g = rules().new_game(seed=1, dealer=dealer, deck=deck)
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        assert sorted(hand(g, seat)) == sorted(deck[i:52:4]), seat
        assert sorted(g.hand_of(seat, "foot")) == sorted(deck[52 + i:104:4]), seat
        v = g.view(seat)
        assert v["zones"]["hand"][seat]["count"] == 13 and v["zones"]["foot"][seat]["count"] == 13
    assert top(g) == deck[104]


def test_HF_DEAL_5_eleven_card_variant_deals_eleven_and_eleven():
    g = deal({N: junk("9H")[:11]}, variant="eleven_cards")
    v = g.view(0)
    assert [h["count"] for h in v["zones"]["hand"]] == [11] * 4
    assert [f["count"] for f in v["zones"]["foot"]] == [11] * 4
    assert v["zones"]["stock"]["count"] == 270 - 88 - 1


def test_HF_DEAL_6_feet_lie_face_down_even_to_their_owners():
    g = deal()
    for _ in range(6):
        for s in range(4):
            v = g.view(s)
            for f in v["zones"]["foot"]:
                assert set(f) == {"count"} and f["count"] == 13
            assert v["in_reserve"] == [False] * 4
            assert len(v["zones"]["hand"][s]["cards"]) == v["zones"]["hand"][s]["count"]
        junk_turn(g)


def _bury_deck_game(seed: int, overrides=None):
    """The turned cards are 2C, Jk, 3S, then 9H; every other 2C, joker and 3S lies in a foot, so each of the
    three turned cards is the only one of its kind in the stock."""
    feet = {N: ["2C"] * 4 + ["Jk"] * 5 + ["3S"] * 4, E: ["Jk"] * 4}
    return deal({}, feet, upcard="2C", stock=["Jk", "3S", "9H"], seed=seed, overrides=overrides)


def test_HF_DEAL_7_upcard_three_or_wild_is_buried_in_the_stock_and_the_next_card_turned():
    positions = set()
    for seed in range(8):
        g = _bury_deck_game(seed)
        assert top(g) == "9H" and pile_count(g) == 1
        assert stock_count(g) == 165                     # the buried cards went back into the stock
        seen = drain(g)
        assert len(seen) == 165
        pos = tuple(seen.index(c) for c in ("2C", "Jk", "3S"))
        assert all(Counter(seen)[c] == 1 for c in ("2C", "Jk", "3S"))
        positions.add(pos)
    assert len(positions) > 1                            # buried at random places
    # a red three turned up is buried too (not laid out for anyone)
    g = deal(upcard="3H", stock=["3D", "Jk", "2D", "QS"])
    assert top(g) == "QS" and red_threes(g, NS) == [] and red_threes(g, EW) == [] and stock_count(g) == 165
    # upcard_bury alternatives
    g = _bury_deck_game(0, {"upcard_bury": "none"})
    assert top(g) == "2C"
    g = _bury_deck_game(0, {"upcard_bury": "wilds"})
    assert top(g) == "3S"
    g = deal(upcard="3S", stock=["9H"], overrides={"upcard_bury": "red_threes_and_wilds"})
    assert top(g) == "3S"


def test_HF_DEAL_8_after_the_deal_four_hands_four_feet_one_upcard_165_stock():
    g = deal()
    z = g.view(0)["zones"]
    assert [h["count"] for h in z["hand"]] == [13] * 4
    assert [f["count"] for f in z["foot"]] == [13] * 4
    assert z["discard"]["count"] == 1 and z["stock"]["count"] == 165


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_HF_DEAL_9_left_of_hand_dealer_plays_first_then_clockwise(dealer):
    g = deal(dealer=dealer)
    seats = []
    for _ in range(8):
        seats.append(g.current_player)
        junk_turn(g)
    assert seats == [(dealer + 1 + i) % 4 for i in range(8)]


def test_HF_DEAL_10_the_deal_passes_to_the_left():
    g = deal(dealer=2)
    dealers = []
    while not g.is_over:
        v = g.view(0)
        dealers.append(v["dealer"])
        assert g.current_player == (v["dealer"] + 1) % 4
        stock_out(g)
    assert dealers == [2, 3, 0, 1]


# ==================================================================================================
# 2. Turn
# ==================================================================================================


def test_HF_TURN_1_red_threes_in_hand_laid_and_replaced_before_drawing():
    g = deal({N: junk("3H", "3D", "9S")}, stock=["9C", "9D", "4D", "5D"])
    # North's turn has begun: both red threes are on NS's table, replaced by the top two stock cards
    assert sorted(red_threes(g, NS)) == ["3D", "3H"]
    assert Counter(hand(g, N)) == Counter(junk("3H", "3D", "9S")) - Counter(["3H", "3D"]) + Counter(["9C", "9D"])
    assert legal(g) == ["draw stock"]                    # ... before the draw
    before = hand(g, N)
    g.apply("draw stock")
    assert drawn(g, N, before) == ["4D", "5D"]


def test_HF_TURN_1_south_holds_its_red_three_until_its_turn():
    g = deal({S: junk("3H")}, stock=[None, None, None, None, "KH"])
    assert "3H" in hand(g, S) and red_threes(g, NS) == []
    junk_turn(g, N)
    assert "3H" in hand(g, S) and red_threes(g, NS) == []
    junk_turn(g, E)
    assert red_threes(g, NS) == ["3H"] and "3H" not in hand(g, S) and "KH" in hand(g, S)
    assert len(hand(g, S)) == 13


def test_HF_TURN_2_draw_then_melds_then_one_discard_in_that_order():
    g = deal({N: junk("9H", "9D", "9S", "KH", "KD", "KS")}, overrides=None)
    assert set(legal(g)) <= {"draw stock", "take discard"}
    assert_illegal(g, "discard 4C")                       # no discard before the draw
    assert_illegal(g, "meld 9H 9D 9S")                    # no meld before the draw
    g.apply("draw stock")
    assert "draw stock" not in legal(g)
    meld(g, "9H", "9D", "9S")
    meld(g, "KH", "KD", "KS")
    assert_illegal(g, "draw stock")
    g.apply("discard 4C")                                 # exactly one discard ends the turn
    assert g.current_player == E
    assert set(legal(g)) <= {"draw stock", "take discard"}


def test_HF_TURN_3_stock_or_pile_never_both():
    g = pile_deal(["9C", "5D", "6D", "7D"], hands={W: junk("7H", "7S", "KH", "KD", "KS", "AH", "AD", "AS")})
    assert {"draw stock", "take discard"} <= set(legal(g))
    g.apply("draw stock")
    assert_illegal(g, "take discard")
    g = pile_deal(["9C", "5D", "6D", "7D"], hands={W: junk("7H", "7S", "KH", "KD", "KS", "AH", "AD", "AS")})
    g.apply("take discard")
    assert_illegal(g, "draw stock")


def test_HF_TURN_4_cards_go_only_on_own_partnerships_melds():
    # East melds 9 9 9 (EW); North then holds a 9 and may not lay it on EW's meld
    g = deal({E: junk("9H", "9D", "9S", "KH", "KD", "KS"), N: junk("9C", "AH", "AD", "AS")},
             stock=[None, None, None, None, None, None, None, None, None, None, None, None])
    junk_turn(g, N)
    play_turn(g, E, "draw stock")
    no = build(g, "9H", "9D", "9S")
    meld(g, "KH", "KD", "KS")
    g.apply("discard 4C")
    junk_turn(g, S)
    junk_turn(g, W)
    play_turn(g, N, "draw stock")
    assert not any(a.startswith("layoff") for a in legal(g))
    assert_illegal(g, f"layoff 9C on {no}")
    meld(g, "AH", "AD", "AS")                            # NS's own initial meld (60)
    assert not any(a.startswith("layoff") and a.endswith(f"on {no}") for a in legal(g))
    assert_illegal(g, f"layoff 9C on {no}")


def test_HF_TURN_5_any_card_may_be_discarded_wild_or_black_three_and_it_ends_the_turn():
    g = deal({N: junk("Jk", "2C", "3S")})
    g.apply("draw stock")
    assert {"discard Jk", "discard 2C", "discard 3S"} <= set(legal(g))
    g.apply("discard Jk")
    assert top(g) == "Jk" and g.current_player == E
    junk_turn(g, E)
    junk_turn(g, S)
    junk_turn(g, W)
    play_turn(g, N, "draw stock", "discard 3S")
    assert top(g) == "3S" and g.current_player == E


def test_HF_TURN_6_cards_on_the_table_stay_put():
    b = BooksDeal().upto("N3")
    g = b.game
    table = [m["cards"] for m in melds(g)]
    b.N3()
    for lab in ("E3", "S3", "W3"):
        b.play(lab)
        now = [m["cards"] for m in melds(g)]
        assert now[:len(table)] == table                # nothing left a meld, nothing moved
    assert verbs(g) <= {"draw", "take", "pass"}
    for text in ("take melds", "take red_threes", "draw discard"):
        with pytest.raises(IllegalAction):
            g.apply(text)
    b.N4()
    for a in legal(g):
        assert a.split()[0] in {"meld", "layoff", "discard", "ask"}


# ==================================================================================================
# 3. Drawing and the discard pile
# ==================================================================================================

#: West's hand for pile tests: two natural 9s and an initial meld of its own (K K K + A A A = 90)
W99 = junk("9H", "9D", "KH", "KD", "KS", "AH", "AD", "AS")


def test_HF_DRAW_1_stock_draw_takes_the_top_two_cards():
    g = deal(stock=["9C", "QD", "5H"])
    before = hand(g, N)
    g.apply("draw stock")
    assert drawn(g, N, before) == ["9C", "QD"]
    assert stock_count(g) == 163 and len(hand(g, N)) == 15


def test_HF_DRAW_2_pile_draw_takes_the_top_seven():
    pile = ["KC", "4D", "5D", "6D", "4H", "5H", "6H", "9S"]
    g = pile_deal(pile, hands={W: W99})
    before = hand(g, W)
    g.apply("take discard")
    assert drawn(g, W, before) == sorted(pile[1:])          # the top seven, not the upcard below them
    assert pile_count(g) == 1 and top(g) == "KC"
    assert g.current_player == W


def test_HF_DRAW_2_pile_of_fewer_than_seven_is_taken_whole():
    pile = ["KC", "4D", "5D", "9S"]
    g = pile_deal(pile, hands={W: W99})
    before = hand(g, W)
    g.apply("take discard")
    assert drawn(g, W, before) == sorted(pile)
    assert pile_count(g) == 0 and top(g) is None


def test_HF_DRAW_3_top_card_must_not_be_a_three():
    g = pile_deal(["KC", "4D", "9S", "3S"], hands={W: W99})
    assert "take discard" not in legal(g)
    assert_illegal(g, "take discard")


@pytest.mark.parametrize("pair,ok", [(("9H", "9D"), True), (("9H", "2C"), False), (("9H", "Jk"), False),
                                     (("9H",), False)])
def test_HF_DRAW_3_two_naturals_of_the_top_rank_are_needed(pair, ok):
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={W: junk(*pair, "KH", "KD", "KS", "AH", "AD", "AS")})
    assert ("take discard" in legal(g)) == ok
    if not ok:
        assert_illegal(g, "take discard")


def test_HF_DRAW_3_top_card_and_the_two_naturals_are_melded_at_once():
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={W: W99})
    g.apply("take discard")
    # until the three cards are down, only melds and layoffs using them are legal
    for a in legal(g):
        assert a.startswith("meld") and sorted(a.split()[1:]) == ["9D", "9H", "9S"], a
    assert_illegal(g, "discard 4D")
    assert_illegal(g, "meld KH KD KS")
    meld(g, "9H", "9D", "9S")
    meld(g, "KH", "KD", "KS")
    assert "discard 4D" in legal(g)


def _east_melds_nines(extra=()):
    def play(g):
        meld(g, "9H", "9D", "9C")
        meld(g, "KH", "KD", "KS")
        for c in extra:
            grow(g, "9", c)
    return play


def test_HF_DRAW_4_the_three_cards_may_go_onto_the_incomplete_meld_of_that_rank():
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={E: junk("9H", "9D", "9C", "KH", "KD", "KS"),
                                                   W: junk("9H", "9D")}, plays={1: _east_melds_nines()})
    no = open_meld(g, EW, "9")
    assert "take discard" in legal(g)                    # EW has melded: no minimum, 9 9 9 is open
    g.apply("take discard")
    acts = legal(g)
    assert not any(a.startswith("meld") for a in acts)   # no second 9 meld while one is open (HF-MELD-6)
    assert acts and all(a.startswith("layoff") and a.endswith(f"on {no}") for a in acts)
    for c in ("9S", "9H", "9D"):
        lay(g, c, no)
    assert len(melds(g)[no - 1]["cards"]) == 6
    assert "discard 4C" in legal(g)


def test_HF_DRAW_5_other_taken_cards_go_to_hand_red_threes_laid_and_may_be_melded_same_turn():
    g = pile_deal(["3H", "KD", "KH", "9S"], hands={W: junk("9H", "9D", "KS", "AH", "AD", "AS")},
                  overrides={"upcard_bury": "none"}, after=["QH"])
    assert "take discard" in legal(g)
    before = hand(g, W)
    g.apply("take discard")
    assert red_threes(g, EW) == ["3H"]                   # laid at once ...
    assert drawn(g, W, before) == sorted(["KD", "KH", "9S", "QH"])      # ... and replaced by the stock top
    meld(g, "9H", "9D", "9S")
    meld(g, "KD", "KH", "KS")                            # taken cards melded the same turn
    meld(g, "AH", "AD", "AS")
    assert g.view(0)["team_melded"][EW]


def test_HF_DRAW_6_pile_before_the_initial_meld_only_if_that_turn_reaches_the_minimum():
    # 9 9 9 = 30 < 50 and nothing else to meld: the pile may not be taken ...
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={W: junk("9H", "9D")})
    assert "take discard" not in legal(g)
    assert_illegal(g, "take discard")
    # ... with K K K in hand (30 more) it may
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={W: junk("9H", "9D", "KH", "KD", "KS")})
    assert "take discard" in legal(g)
    # pile_before_initial_meld = never: not before the partnership has melded, even with the minimum
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={W: junk("9H", "9D", "KH", "KD", "KS")},
                  overrides={"pile_before_initial_meld": "never"})
    assert "take discard" not in legal(g)
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={E: junk("9H", "9D", "9C", "KH", "KD", "KS"),
                                                   W: junk("9H", "9D")},
                  overrides={"pile_before_initial_meld": "never"}, plays={1: _east_melds_nines()})
    assert "take discard" in legal(g)


@pytest.mark.parametrize("wild_top,holding,setting,ok", [
    ("2C", ("2H", "2D"), None, True),
    ("2C", ("Jk", "Jk"), None, False),
    ("2C", ("2H", "Jk"), None, False),
    ("Jk", ("Jk", "Jk"), None, True),
    ("Jk", ("2H", "2D"), None, False),
    ("2C", ("Jk", "Jk"), "any_two_wilds", True),
    ("2C", ("2H", "2D"), "never", False),
])
def test_HF_DRAW_7_wild_top_card_needs_two_of_the_same_kind_and_a_wild_meld(wild_top, holding, setting, ok):
    ov = {"pile_top_wild": setting} if setting else None
    g = pile_deal(["KC", "4D", "5D", wild_top], hands={W: junk(*holding)}, overrides=ov)
    assert ("take discard" in legal(g)) == ok
    if not ok:
        assert_illegal(g, "take discard")
        return
    g.apply("take discard")
    acts = legal(g)
    assert acts and all(a.startswith("meld") and wild_top in a.split() and "=" not in a for a in acts)
    meld(g, wild_top, *holding)
    assert melds(g)[-1]["kind"] == "wild"


def _east_melds(*groups):
    def play(g):
        for grp in groups:
            meld(g, *grp)
    return play


@pytest.mark.parametrize("east", [
    [("Jk", "Jk", "2C"), ("KH", "KD", "KS")],          # EW has an open wild meld and an open K meld
    [("9H", "9D", "9C"), ("KH", "KD", "KS")],          # EW has natural melds only
])
def test_HF_DRAW_7_the_wild_top_card_and_its_two_wild_cards_go_into_a_wild_meld(east):
    """With a 2 on top taken with two 2s, the three cards go into a wild meld (the open one, or a new one):
    never one by one into natural melds (``layoff 2S=KS``)."""
    e_hand = junk(*[c for grp in east for c in grp])
    g = pile_deal(["KC", "4D", "5D", "2S"], hands={E: e_hand, W: junk("2H", "2D")}, plays={1: _east_melds(*east)})
    g.apply("take discard")
    wild = [i for i, m in enumerate(melds(g), 1) if m["kind"] == "wild" and m["owner"] == EW]
    acts = legal(g)
    assert acts
    for a in acts:
        words = a.split()
        if words[0] == "layoff":
            assert "=" not in words[1] and int(words[-1]) in wild, f"`{a}`: a taken wild card into a natural meld"
        else:
            assert words[0] == "meld" and sorted(words[1:]) == ["2D", "2H", "2S"], a


def test_HF_DRAW_8_an_empty_pile_cannot_be_drawn_from():
    """Under the defaults every turn that does not end the deal ends with a discard, so a turn never begins
    with an empty pile; the pile is empty only after the whole pile was taken.  Then nothing can be taken
    from it (only the stock remains as a source), and the next player finds just the taker's discard."""
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={W: W99})
    g.apply("take discard")
    assert pile_count(g) == 0 and top(g) is None
    meld(g, "9H", "9D", "9S")
    assert_illegal(g, "take discard")
    meld(g, "KH", "KD", "KS")
    assert not any(a.startswith(("take", "draw")) for a in legal(g))
    g.apply("discard 4D")
    assert pile_count(g) == 1 and top(g) == "4D"
    assert "draw stock" in legal(g)


# ==================================================================================================
# 4. Melds and books
# ==================================================================================================


def test_HF_MELD_1_three_to_seven_cards_of_one_rank_4_to_A_or_wild_cards_threes_never():
    hand13 = ["9H", "9D", "9S", "9C", "9H", "9D", "9S", "9C", "8S", "3S", "3C", "Jk", "2C"]
    g = deal({N: hand13}, stock=["2D", "3S"])
    g.apply("draw stock")
    assert_illegal(g, "meld 9H 9D")                       # two cards are not a meld
    assert_illegal(g, "meld 3S 3C 3S")                    # threes never meld
    assert_illegal(g, "meld 9H 9D 8S")                    # one rank only
    no = build(g, "9H", "9D", "9S", "9C", "9H", "9D", "9S")
    m = melds(g)[no - 1]
    assert len(m["cards"]) == 7 and m.get("book") == "clean"
    assert not any(a.startswith("layoff") and a.endswith(f"on {no}") for a in legal(g))
    assert_illegal(g, f"layoff 9C on {no}")               # at most seven cards
    meld(g, "Jk", "2C", "2D")                             # a wild meld is legal
    assert melds(g)[-1]["kind"] == "wild"
    for m in melds(g):
        assert meld_type(m["cards"]) is not None


def test_HF_MELD_2_naturals_at_least_twice_the_wilds():
    hand13 = junk("9H", "9D", "9S", "9C", "9H", "2C", "Jk", "2D", "KH", "KD", "KS")
    g = deal({N: hand13}, stock=["9D", "4H"])
    g.apply("draw stock")
    assert_illegal(g, "meld 9H 2C=9S Jk=9D")              # 1 natural, 2 wilds
    assert_illegal(g, "meld 9H 2C=9S Jk=9S")
    assert not any(a.startswith("meld") and a.count("=") > 1 for a in legal(g))
    meld(g, "KH", "KD", "KS")
    no = build(g, "9H", "9D", "2C")                      # 2 naturals + 1 wild: 3 cards, at most 1 wild
    assert_illegal(g, f"layoff Jk=9S on {no}")            # 2 + 2
    lay(g, "9S", no)
    assert_illegal(g, f"layoff Jk=9S on {no}")            # 3 + 2 (5 cards: at most 1 wild)
    lay(g, "9C", no)
    lay(g, "Jk", no)                                      # 4 + 2 (6 cards: at most 2 wilds)
    assert_illegal(g, f"layoff 2D=9S on {no}")            # 4 + 3
    lay(g, "9H", no)                                      # 5 + 2 = 7: a dirty book
    m = melds(g)[no - 1]
    assert m.get("book") == "dirty" and meld_type(m["cards"]) == "dirty"


def test_HF_MELD_3_clean_dirty_and_wild_meld_types():
    hand13 = junk("9H", "9D", "9S", "KH", "KD", "Jk", "2C", "2D", "2H")
    g = deal({N: hand13}, stock=["9C", "4H"])
    g.apply("draw stock")
    nine = build(g, "9H", "9D", "9S")
    king = build(g, "KH", "KD", "Jk")
    wild = build(g, "2C", "2D", "2H")
    ms = melds(g)
    assert meld_type(ms[nine - 1]["cards"]) == "clean" and ms[nine - 1]["kind"] == "group"
    assert meld_type(ms[king - 1]["cards"]) == "dirty" and ms[king - 1]["cards"][-1] == "Jk=KS"
    assert meld_type(ms[wild - 1]["cards"]) == "wild" and ms[wild - 1]["kind"] == "wild"


def test_HF_MELD_4_seven_cards_make_a_closed_book():
    b = BooksDeal().upto("N3")
    g = b.game
    books = [i for i, m in enumerate(melds(g), 1) if len(m["cards"]) == 7]
    assert len(books) == 5
    for i, m in enumerate(melds(g), 1):
        assert ("book" in m) == (len(m["cards"]) == 7)
        assert len(m["cards"]) <= 7
    play_turn(g, N, "draw stock")                          # North holds Q Q Q 6C 10C
    assert not any(a.startswith("layoff") and int(a.split()[-1]) in books for a in legal(g))
    k_book = next(i for i in books if melds(g)[i - 1]["cards"][0] == "KS")
    assert_illegal(g, f"layoff 2C=KS on {k_book}")


def test_HF_MELD_5_book_types_at_completion():
    b = BooksDeal().upto("N3")
    ms = [m for m in melds(b.game) if "book" in m]
    kinds = {m["cards"][0]: m["book"] for m in ms}
    assert kinds == {"KS": "clean", "5S": "clean", "AS": "dirty", "8S": "dirty", "Jk": "wild"}
    for m in ms:
        assert book_type(m["cards"]) == m["book"]
    a_book = next(m for m in ms if m["cards"][0] == "AS")            # 6 naturals + 1 wild
    eight = next(m for m in ms if m["cards"][0] == "8S")             # 5 naturals + 2 wilds
    wild = next(m for m in ms if m["cards"][0] == "Jk")              # 3 jokers + 4 twos
    assert sum("=" in c for c in a_book["cards"]) == 1 and sum("=" in c for c in eight["cards"]) == 2
    assert Counter(rank(c) for c in wild["cards"]) == {"joker": 3, "2": 4}
    assert team_books(melds(b.game), NS) == Counter(clean=2, dirty=2, wild=1)


def test_HF_MELD_5_clean_meld_turns_dirty_when_a_wild_card_is_added():
    g = deal({N: junk("9H", "9D", "9S", "9C", "9H", "9D", "2C")}, stock=["KH", "KD"])
    g.apply("draw stock")
    no = build(g, "9H", "9D", "9S", "9C", "9H", "9D")      # six naturals: clean so far
    assert meld_type(melds(g)[no - 1]["cards"]) == "clean"
    lay(g, "2C", no)
    assert melds(g)[no - 1]["book"] == "dirty"


def test_HF_MELD_6_one_incomplete_meld_per_rank_and_one_wild_meld_books_unlimited():
    nines = ["9H", "9D", "9S", "9C", "9H", "9D", "9S", "9C", "9H", "9D"]
    g = deal({N: nines + ["Jk", "Jk", "2C"], S: junk("9S", "9C", "KH", "KD", "KS")},
             stock=["2D", "2H", None, None, "9C", "4H"])
    g.apply("draw stock")
    no = build(g, "9H", "9D", "9S")
    assert not any(a.startswith("meld") and rank(a.split()[1]) == "9" for a in legal(g))
    assert_illegal(g, "meld 9C 9H 9D")
    build(g, "Jk", "Jk", "2C")
    assert_illegal(g, "meld 2D 2H 2C")
    assert not any(a.startswith("meld") for a in legal(g))
    g.apply("discard 9C")
    junk_turn(g, E)
    # South may not start a second 9 meld either (the partnership's meld is open)
    play_turn(g, S, "draw stock")
    assert_illegal(g, "meld 9S 9C 9C")
    lay(g, "9S", no)
    lay(g, "9C", no)
    g.apply("discard 4H")
    junk_turn(g, W)
    play_turn(g, N, "draw stock")
    lay(g, "9C", no)
    lay(g, "9H", no)                                        # 7 cards: a book
    assert melds(g)[no - 1]["book"] == "clean"
    build(g, "9D", "9S", "9C")                              # a new 9 meld is allowed now
    nine_melds = [m for m in melds(g) if m["owner"] == NS and m["cards"][0][:-1] == "9"]
    assert len(nine_melds) == 2


def test_HF_MELD_7_either_partner_may_add_to_any_partnership_meld():
    g = deal({N: junk("9H", "9D", "9S", "KH", "KD", "KS"), S: junk("9C", "KC")}, stock=[None] * 6 + ["4H", "5H"])
    g.apply("draw stock")
    nine = build(g, "9H", "9D", "9S")
    king = build(g, "KH", "KD", "KS")
    g.apply("discard 4C")
    junk_turn(g, E)
    play_turn(g, S, "draw stock")
    assert {f"layoff 9C on {nine}", f"layoff KC on {king}"} <= set(legal(g))
    lay(g, "9C", nine)
    lay(g, "KC", king)
    assert melds(g)[nine - 1]["placed_by"] == [N, N, N, S]


def test_HF_MELD_8_initial_meld_minimum_50_in_deal_one():
    # K K K (30) and nothing else: not offered
    g = deal({N: junk("KH", "KD", "KS")})
    g.apply("draw stock")
    assert not any(a.startswith("meld") for a in legal(g))
    assert_illegal(g, "meld KH KD KS")
    # K K K + A A A: several melds combine; the turn cannot end between 0 and 50
    g = deal({N: junk("KH", "KD", "KS", "AH", "AD", "AS")})
    g.apply("draw stock")
    meld(g, "KH", "KD", "KS")
    assert not g.view(0)["team_melded"][NS]
    assert not any(a.startswith("discard") for a in legal(g))
    assert_illegal(g, "discard 4C")
    meld(g, "AH", "AD", "AS")                              # 90 >= 50
    assert g.view(0)["team_melded"][NS]
    assert "discard 4C" in legal(g)
    # wild cards count at their value: 9 9 Jk = 70
    g = deal({N: junk("9H", "9D", "Jk")})
    g.apply("draw stock")
    meld(g, "9H", "9D", "Jk")
    assert g.view(0)["team_melded"][NS]
    # red-three bonuses and book bonuses do not count
    g = deal({N: junk("3H", "3D", "KH", "KD", "KS")}, stock=["QD", "AD", "3S", "3C"])
    assert len(red_threes(g, NS)) == 2
    g.apply("draw stock")
    assert not any(a.startswith("meld") for a in legal(g))
    g = deal({N: ["4S", "4H", "4D", "4C", "4S", "4H", "4D"] + junk()[1:7]})
    g.apply("draw stock")
    assert not any(a.startswith("meld") for a in legal(g))  # a clean book of fours is 35 < 50


def test_HF_MELD_9_only_the_top_card_and_its_two_naturals_count_from_the_pile():
    pile = ["KC", "KD", "KH", "9S"]
    # 9 9 9 (30) + 5 5 5 (15) = 45: not enough, although the pile's K K K would make it 75.  (No king among
    # the junk -- AC takes its place: a king held before the take counts, and with the pile's KD KH it
    # would make 55.)
    g = pile_deal(pile, hands={W: junk("9H", "9D", "5S", "5H", "5D", "AC")})
    assert "take discard" not in legal(g)
    # with 6 6 6 too (60) the pile may be taken; K K K is melded but does not count
    g = pile_deal(pile, hands={W: junk("9H", "9D", "5S", "5H", "5D", "6S", "6H", "6D")})
    g.apply("take discard")
    meld(g, "9H", "9D", "9S")
    meld(g, "KC", "KD", "KH")
    meld(g, "5S", "5H", "5D")                              # 30 + 15 counted = 45
    assert not g.view(0)["team_melded"][EW]
    assert not any(a.startswith("discard") for a in legal(g))
    meld(g, "6S", "6H", "6D")                              # 60
    assert g.view(0)["team_melded"][EW]


def test_HF_MELD_10_after_the_partnership_met_the_minimum_no_minimum_for_either_partner():
    g = deal({N: junk("KH", "KD", "KS", "AH", "AD", "AS"), S: junk("4H", "4D", "4S")},
             stock=[None, None, None, None, "9D", "9S"])
    g.apply("draw stock")
    meld(g, "KH", "KD", "KS")
    meld(g, "AH", "AD", "AS")
    g.apply("discard 4C")
    junk_turn(g, E)
    play_turn(g, S, "draw stock")
    meld(g, "4H", "4D", "4S")                              # 15 points alone
    assert "discard 9D" in legal(g)
    g.apply("discard 9D")
    assert g.current_player == W


def test_HF_MELD_11_books_are_shown_closed_with_their_type_unfinished_melds_open():
    b = BooksDeal().upto("S2")
    for m in melds(b.game):
        if len(m["cards"]) == 7:
            assert m["book"] in ("clean", "dirty", "wild")
        else:
            assert "book" not in m


# ==================================================================================================
# 5. Red and black threes, wild cards
# ==================================================================================================


def test_HF_THREE_1_red_three_drawn_is_laid_at_once_and_replaced():
    g = deal(stock=["3H", "9C", "QD", "3D", "KD", "5S"])
    before = hand(g, N)
    g.apply("draw stock")
    assert red_threes(g, NS) == ["3H"]
    assert drawn(g, N, before) == ["9C", "QD"] and "3H" not in hand(g, N)
    assert stock_count(g) == 162
    g.apply("discard 9C")
    before = hand(g, E)
    g.apply("draw stock")                                  # East's red three goes before EW
    assert red_threes(g, EW) == ["3D"] and drawn(g, E, before) == ["5S", "KD"]


def _stock_out_with(w_foot_card: str, n_foot_card: str) -> list:
    """A junk deal played to the end of the stock, nobody melds and nobody reaches a foot; West's foot and
    North's foot each hold one chosen card (swapping the two cards leaves every other card where it was).
    Returns the deal scores [NS, EW] (each also checked against the spec scorer by ``finish``)."""
    g = deal({}, {W: [w_foot_card], N: [n_foot_card]})
    return stock_out(g)


def test_HF_THREE_2_red_three_plus_100_on_table_minus_100_in_unpicked_foot():
    base = _stock_out_with("3S", "3H")                      # NS's unpicked foot holds the red three
    swapped = _stock_out_with("3H", "3S")                   # EW's does
    assert swapped[NS] - base[NS] == 95                     # NS: -5 instead of -100
    assert swapped[EW] - base[EW] == -95                    # EW: -100 instead of -5
    # a red three laid by North counts +100 for NS (checked by the spec scorer inside ``finish``)
    g = deal({N: junk("3D")})
    assert red_threes(g, NS) == ["3D"]
    stock_out(g)
    # ... and the last stock card, a red three, is laid without replacement and still counts (HF-EDGE-2)


def test_HF_THREE_3_black_threes_cannot_be_melded_only_discarded():
    g = deal({N: junk("3S", "3C", "3S", "9H", "9D", "9S", "KH", "KD", "KS")})
    g.apply("draw stock")
    assert not any("3S" in a or "3C" in a for a in legal(g) if not a.startswith("discard"))
    assert_illegal(g, "meld 3S 3C 3S")
    nine = build(g, "9H", "9D", "9S")
    meld(g, "KH", "KD", "KS")
    assert_illegal(g, f"layoff 3S on {nine}")
    assert "discard 3S" in legal(g)


def test_HF_THREE_4_black_three_on_top_blocks_the_pile_until_covered():
    g = pile_deal(["KC", "4D", "9C", "3S"], hands={W: W99})
    assert "take discard" not in legal(g)
    assert_illegal(g, "take discard")
    # covered by a 9: the three below has no effect (and goes to hand with the taken cards, HF-EDGE-5)
    g = pile_deal(["KC", "9C", "3S", "9S"], hands={W: W99})
    assert "take discard" in legal(g)
    before = hand(g, W)
    g.apply("take discard")
    assert drawn(g, W, before) == sorted(["KC", "9C", "3S", "9S"])


def _stock_out_hands(n_card: str, e_card: str) -> list:
    """A junk deal to the end of the stock in which North's and East's dealt hands differ only in one card
    each (junk turns never discard a dealt card, so both cards are still held at the end)."""
    hands = {N: [n_card] + JUNK13[1:], E: [e_card] + JUNK13[1:]}
    return stock_out(deal(hands))


@pytest.mark.parametrize("card,penalty", [("3C", 5), ("4S", 5), ("8S", 10), ("Jk", 50)])
def test_HF_THREE_5_black_three_left_in_hand_or_foot_costs_five(card, penalty):
    base = _stock_out_with("3S", card)                      # West's foot holds a black three
    swapped = _stock_out_with(card, "3S")                   # North's foot holds it instead
    assert swapped[EW] - base[EW] == 5 - penalty
    assert swapped[NS] - base[NS] == penalty - 5
    base = _stock_out_hands("3S", card)                     # in North's hand
    swapped = _stock_out_hands(card, "3S")                  # in East's hand
    assert swapped[NS] - base[NS] == 5 - penalty
    assert swapped[EW] - base[EW] == penalty - 5


def test_HF_WILD_1_twos_and_jokers_stand_for_the_meld_rank():
    g = deal({N: junk("9H", "9D", "Jk", "KH", "KD", "2C")})
    g.apply("draw stock")
    assert_illegal(g, "meld 9H 9D Jk=8S")                  # a wild card stands for the meld's own rank
    meld(g, "9H", "9D", "Jk")
    meld(g, "KH", "KD", "2C")
    ms = melds(g)
    assert ms[0]["cards"] == ["9H", "9D", "Jk=9S"] and ms[1]["cards"] == ["KH", "KD", "2C=KS"]
    assert g.view(0)["team_melded"][NS]                    # 70 + 40


def test_HF_WILD_2_wild_melds_are_legal_and_a_wild_book_is_needed_to_go_out():
    b = BooksDeal(wild_book="never", n4=("9C", "6H")).upto("N4")
    g = b.game
    assert team_books(melds(g), NS) == Counter(clean=2, dirty=2)
    assert any(m["kind"] == "wild" for m in melds(g))            # a six-card wild meld (legal)
    play_turn(g, N, "draw stock")                          # Q Q Q 4D 6C + 9C 6H; South has played a foot turn
    assert "ask" not in legal(g)
    meld(g, "QS", "QH", "QD")
    grow(g, "6", "6C", "6H")
    assert hand(g, N) == ["4D", "9C"]                      # 9C on the 9 meld + discard 4D would be out ...
    nine = open_meld(g, NS, "9")
    assert f"layoff 9C on {nine}" not in legal(g)          # ... but without a wild book it is refused
    assert_illegal(g, f"layoff 9C on {nine}")
    assert_illegal(g, "ask")
    g.apply("discard 4D")
    assert g.hand_number == 1 and hand(g, N) == ["9C"] and g.current_player == E


def test_HF_WILD_3_wild_card_may_be_discarded_to_reach_the_foot_without_penalty():
    hands = {N: ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "5S", "5H", "5D", "5C", "5S", "5H"]}
    g = deal(hands, stock=["5D", "2C"])
    g.apply("draw stock")
    build(g, "KS", "KH", "KD", "KC", "KS", "KH", "KD")
    build(g, "5S", "5H", "5D", "5C", "5S", "5H", "5D")
    assert legal(g) == ["discard 2C"]
    g.apply("discard 2C")
    assert g.view(0)["in_reserve"][N] and top(g) == "2C" and g.current_player == E
    stock_out(g)                                           # the spec scorer has no penalty term


def _wild_to_foot(variant, e_hand=None):
    hands = {N: ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "5S", "5H", "5D", "5C", "5S", "5H"]}
    if e_hand:
        hands[E] = e_hand
    g = deal(hands, stock=["5D", "2C"], variant=variant)
    g.apply("draw stock")
    build(g, "KS", "KH", "KD", "KC", "KS", "KH", "KD")
    build(g, "5S", "5H", "5D", "5C", "5S", "5H")
    return g


def test_HF_WILD_3_variant_forbidden_the_emptying_discard_may_not_be_wild():
    """North holds 5D 2C next to an open six-card 5 meld.  The wild card may not be the discard that empties
    the hand, so North discards 5D (keeping 2C) -- or, if the engine offers laying 5D off (closing the book),
    the lone 2C may not be discarded and the game must still offer a legal action."""
    g = _wild_to_foot("wild_discard_forbidden")
    assert sorted(hand(g, N)) == ["2C", "5D"]
    assert "discard 5D" in legal(g)
    for a in legal(g):
        if a.startswith("layoff 5D"):
            # laying the 5 off would leave only the wild card, which may not be the emptying discard:
            # either this is not offered, or some legal action must remain afterwards
            lay_no = int(a.split()[-1])
            lay(g, "5D", lay_no)
            assert_illegal(g, "discard 2C")
            assert legal(g), "no legal action left"
            return
    g.apply("discard 5D")
    assert not g.view(0)["in_reserve"][N]


def test_HF_WILD_3_variant_penalty_costs_the_team_the_house_figure():
    g = _wild_to_foot("wild_discard_penalty")
    lay(g, "5D", open_meld(g, NS, "5"))
    g.apply("discard 2C")
    assert g.view(0)["in_reserve"][N]
    drain(g)
    pos = position(g)
    g.apply("pass")
    exp = expected_gains(pos, None)
    assert g.last_gains == [exp[NS] - 100, exp[EW]]


def test_HF_WILD_3_variant_blocks_pile_for_the_next_player():
    e_hand = junk("2H", "2D")
    for variant, ok in ((None, True), ("wild_discard_blocks_pile", False)):
        g = _wild_to_foot(variant, e_hand)
        lay(g, "5D", open_meld(g, NS, "5"))
        g.apply("discard 2C")
        assert g.current_player == E and top(g) == "2C"
        assert ("take discard" in legal(g)) == ok, variant


# ==================================================================================================
# 6. The foot
# ==================================================================================================


def test_HF_FOOT_1_foot_only_after_the_hand_is_empty():
    b = BooksDeal()
    g = b.game
    play_turn(g, N, "draw stock")
    build(g, "KS", "KH", "KD", "KC", "KS", "KH", "KD")
    assert not g.view(N)["in_reserve"][N] and g.view(N)["zones"]["foot"][N]["count"] == 13
    build(g, "5S", "5H", "5D", "5C", "5S", "5H", "5D")
    assert hand(g, N) == ["4C"] and not g.view(N)["in_reserve"][N]
    assert verbs(g) == {"discard"}


def test_HF_FOOT_2_way_a_melding_out_picks_up_the_foot_and_the_turn_goes_on():
    b = BooksDeal().upto("S2")
    g = b.game
    play_turn(g, S, "draw stock")
    meld(g, "10S", "10H", "10D")
    v = g.view(S)
    assert v["in_reserve"][S] and g.current_player == S
    assert hand(g, S) == sorted(BooksDeal.S_FOOT)
    assert v["zones"]["foot"][S]["count"] == 0
    assert not any(a.startswith(("draw", "take")) for a in legal(g))
    meld(g, "6S", "6H", "6D")
    g.apply("discard KH")                                  # ends with a discard from the foot
    assert g.current_player == W and len(hand(g, S)) == 9


def test_HF_FOOT_3_way_b_discarding_out_picks_up_the_foot_and_ends_the_turn():
    b = BooksDeal()
    g = b.game
    b.N1()
    v = g.view(N)
    assert v["in_reserve"][N] and g.current_player == E
    assert len(hand(g, N)) == 13 and v["zones"]["foot"][N]["count"] == 0
    assert top(g) == "4C"


def test_HF_FOOT_4_red_threes_in_a_picked_up_foot_are_laid_and_replaced():
    foot = [c if c != "AC" else "3H" for c in BooksDeal.S_FOOT]
    b = BooksDeal(s_foot=foot).upto("S2")
    g = b.game
    play_turn(g, S, "draw stock")
    n_stock = stock_count(g)
    meld(g, "10S", "10H", "10D")
    assert red_threes(g, NS) == ["3H"]
    assert "3H" not in hand(g, S) and len(hand(g, S)) == 13
    assert stock_count(g) == n_stock - 1


def test_HF_FOOT_5_in_the_foot_for_the_rest_of_the_deal():
    b = BooksDeal()
    g = b.game
    for lab in BooksDeal.ORDER[:-1]:
        b.play(lab)
        v = g.view(0)
        assert v["in_reserve"][N]                                      # since N1
        assert v["in_reserve"][S] == (b.done.index(lab) >= BooksDeal.ORDER.index("S2"))
        assert not v["in_reserve"][E] and not v["in_reserve"][W]
    b.N4()
    assert g.view(0)["in_reserve"] == [True, False, True, False]


# ==================================================================================================
# 7. Going out
# ==================================================================================================


def test_HF_OUT_1_going_out_ends_the_deal_at_once():
    b = BooksDeal().upto("N4")
    b.N4()
    g = b.game
    assert hand(g, N) == ["4S"]
    finish(g, "discard 4S")
    rec = g.hand_log[-1]
    assert rec["ending"] == "out" and rec["declarer"] == N
    assert g.hand_number == 2 and g.view(0)["dealer"] == N


def test_HF_OUT_2_books_needed_clean_does_not_count_as_dirty():
    b = BooksDeal(overrides={"books_clean": 1, "books_dirty": 3}).upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    assert "ask" not in legal(g)
    assert_illegal(g, "ask")
    b = BooksDeal(overrides={"books_clean": 1, "books_dirty": 3, "clean_counts_as_dirty": True}).upto("N4")
    b.N4()
    finish(b.game, "discard 4S")
    assert b.game.hand_log[-1]["ending"] == "out"


def test_HF_OUT_3_partner_must_have_played_a_full_turn_from_the_foot():
    # N2: South has not picked up the foot
    b = BooksDeal().upto("N2")
    g = b.game
    play_turn(g, N, "draw stock")
    build(g, "Jk", "Jk", "Jk", "2H", "2S", "2D", "2C")
    grow(g, "8", "2H")                                     # all five books now
    assert "ask" not in legal(g)
    # N3: South picked up the foot by melding out in S2, but that turn began with the hand
    b = BooksDeal(n3=("6C", "9C")).upto("N3")
    g = b.game
    assert g.view(0)["in_reserve"][S]
    play_turn(g, N, "draw stock")                          # Q Q Q 6C 9C: could meld all but one
    assert "ask" not in legal(g)
    assert_illegal(g, "ask")
    meld(g, "QS", "QH", "QD")
    assert not any(a.startswith("layoff") for a in legal(g))   # must keep two cards (HF-OUT-7)
    # the "picked_up" alternative: picking up is enough
    b = BooksDeal(n3=("6C", "9C"), overrides={"go_out_partner_foot": "picked_up"}).upto("N3")
    g = b.game
    play_turn(g, N, "draw stock")
    assert "ask" in legal(g)


def test_HF_OUT_4_partner_says_no_no_going_out_this_turn():
    b = BooksDeal().upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    g.apply("ask")
    assert g.current_player == S and legal(g) == ["yes", "no"]
    assert g.view(S)["question"]["from"] == N
    assert_illegal(g, "discard 4S")                          # North waits for the answer
    g.apply("no")
    assert g.current_player == N
    assert "ask" not in legal(g)                             # one question per turn
    meld(g, "QS", "QH", "QD")
    grow(g, "6", "6C")                                       # 9C 4S left: keeps two after melding
    assert not any(a.startswith(("layoff", "meld")) for a in legal(g))
    assert_illegal(g, f"layoff 9C on {open_meld(g, NS, '9')}")   # would leave the going-out discard
    g.apply("discard 4S")
    assert g.hand_number == 1 and g.current_player == E and hand(g, N) == ["9C"]


def test_HF_OUT_4_partner_says_yes_the_player_must_go_out():
    b = BooksDeal().upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    act(g, "ask", "yes")
    assert g.current_player == N
    assert not any(a.startswith("discard") for a in legal(g))   # no ordinary discard: must go out
    assert_illegal(g, "discard 4S")
    meld(g, "QS", "QH", "QD")
    grow(g, "6", "6C")
    grow(g, "9", "9C")
    assert legal(g) == ["discard 4S"]
    finish(g, "discard 4S")


def test_HF_OUT_4_a_binding_yes_never_leaves_the_player_without_a_legal_action():
    """After a yes the player must go out, so every action offered must keep going out possible.  Here
    North holds Q Q Q 6C 9C 9H: Q Q Q, 6C and 9C on the melds, discard 9H goes out.  Laying off 6C, 9C and
    9H first leaves Q Q Q alone (melding them would leave no card to discard): that last layoff must not be
    offered, or the game is stuck with no legal action."""
    b = BooksDeal(n4=("9C", "9H")).upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    act(g, "ask", "yes")
    grow(g, "6", "6C")
    grow(g, "9", "9C")
    nine = open_meld(g, NS, "9")
    if f"layoff 9H on {nine}" in legal(g):
        g.apply(f"layoff 9H on {nine}")
        assert legal(g), "after a binding yes the player was left with no legal action (hand Q Q Q)"


def test_HF_OUT_5_ask_only_on_own_turn_after_drawing():
    b = BooksDeal().upto("N4")
    g = b.game
    assert "ask" not in legal(g)
    assert_illegal(g, "ask")                                 # before drawing
    g.apply("draw stock")
    assert "ask" in legal(g)


def test_HF_OUT_5_no_ask_when_going_out_this_turn_is_impossible():
    """North holds J J J after drawing (no J meld on the table): melding them leaves no card to discard and
    nothing else can be placed, so going out this turn is impossible and the question may not be asked."""
    b = BooksDeal(n3=("JC", "10C"), n4=("JD", "JH")).upto("N3")
    g = b.game
    play_turn(g, N, "draw stock")
    meld(g, "QS", "QH", "QD")
    g.apply("discard 10C")
    for lab in ("E3", "S3", "W3"):
        b.play(lab)
    play_turn(g, N, "draw stock")
    assert hand(g, N) == ["JC", "JD", "JH"]
    assert "ask" not in legal(g), "`ask` offered although going out is impossible"


def test_HF_OUT_6_going_out_needs_the_final_discard():
    b = BooksDeal(n4=("9C", "QC")).upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    act(g, "ask", "yes")
    q = build(g, "QS", "QH", "QD")
    grow(g, "6", "6C")
    grow(g, "9", "9C")
    assert hand(g, N) == ["QC"]
    assert f"layoff QC on {q}" not in legal(g)             # melding the last card is not going out
    assert_illegal(g, f"layoff QC on {q}")
    assert legal(g) == ["discard QC"]
    finish(g, "discard QC")


def test_HF_OUT_7_in_the_foot_without_going_out_keep_two_cards_after_melding():
    b = BooksDeal().upto("N3")
    g = b.game
    play_turn(g, N, "draw stock")                          # Q Q Q 6C 10C; South has no foot turn yet
    meld(g, "QS", "QH", "QD")                              # leaves two
    assert f"layoff 6C on {open_meld(g, NS, '6')}" not in legal(g)
    assert_illegal(g, f"layoff 6C on {open_meld(g, NS, '6')}")
    g.apply("discard 10C")
    assert hand(g, N) == ["6C"] and g.current_player == E


# ==================================================================================================
# 8. Scoring
# ==================================================================================================

#: HF-SCORE-1, written out from the spec's table
SPEC_VALUES = {"Jk": 50, "2C": 20, "AS": 20, "KS": 10, "QS": 10, "JS": 10, "10S": 10, "9S": 10, "8S": 10,
               "7S": 5, "6S": 5, "5S": 5, "4S": 5, "3S": 5, "3C": 5}


@pytest.mark.parametrize("card", sorted(SPEC_VALUES))
def test_HF_SCORE_1_card_values(card):
    base = _stock_out_with(card, "4S")                        # West's foot: card; North's: 4S (5)
    swapped = _stock_out_with("4S", card)
    assert swapped[EW] - base[EW] == SPEC_VALUES[card] - 5
    assert swapped[NS] - base[NS] == 5 - SPEC_VALUES[card]
    assert value(card) == SPEC_VALUES[card]                    # the helper's table agrees with the spec


def _melds_or_not(do_meld: bool, *groups, keep_last: bool = False) -> list:
    """North holds the cards of ``groups`` and A A A (its initial meld, 60); in its first turn it melds
    A A A and (if ``do_meld``) each group (the last group without its last card if ``keep_last``); then a
    junk deal to the end of the stock.  Returns the deal scores."""
    cards = [c for grp in groups for c in grp]
    mine = cards + ["AH", "AD", "AS"]
    used = {rank(c) for c in mine}
    fill = [c for c in JUNK13 if rank(c) not in used]
    g = deal({N: (mine + fill)[:13]})
    g.apply("draw stock")
    if do_meld:
        meld(g, "AH", "AD", "AS")
        for i, grp in enumerate(groups):
            build(g, *(grp[:-1] if keep_last and i == len(groups) - 1 else grp))
    g.apply("discard " + next(c for c in fill if c in hand(g, N) and rank(c) != "3"))
    return stock_out(g)


def test_HF_SCORE_2_melded_cards_count_for_the_partnership():
    held = _melds_or_not(False, ["9H", "9D", "9S"], ["KH", "KD", "KS"])
    down = _melds_or_not(True, ["9H", "9D", "9S"], ["KH", "KD", "KS"])
    assert down[NS] - held[NS] == 2 * (30 + 30 + 60)           # 9 9 9, K K K and A A A: +value, not -value
    assert down[EW] == held[EW]


@pytest.mark.parametrize("cards,bonus", [
    (["4S", "4H", "4D", "4C", "4S", "4H", "4D"], 500),          # clean
    (["4S", "4H", "4D", "4C", "4S", "4H", "2C"], 300),          # dirty, 6 + 1
    (["4S", "4H", "4D", "4C", "4S", "2C", "2D"], 300),          # dirty, 5 + 2
    (["Jk", "Jk", "2C", "2D", "2H", "2S", "2C"], 1500),         # wild
])
def test_HF_SCORE_3_book_bonuses(cards, bonus):
    book = _melds_or_not(True, cards)
    six = _melds_or_not(True, cards, keep_last=True)            # the same deal, the last card kept in hand
    assert book[NS] - six[NS] == bonus + 2 * value(cards[-1])
    assert book[EW] == six[EW]


def test_HF_SCORE_4_red_threes_on_table_and_in_hand_or_foot():
    # -100 in an unpicked foot (see also HF-THREE-2), +100 on the table, the spec scorer agrees
    base = _stock_out_with("3S", "3D")
    swapped = _stock_out_with("3D", "3S")
    assert swapped[NS] - base[NS] == 95 and swapped[EW] - base[EW] == -95
    g = deal({N: junk("3H", "3D"), W: junk("3H")})
    assert len(red_threes(g, NS)) == 2
    gains = stock_out(g)
    assert len(g.hand_log) == 1 and gains == list(g.scores)


def test_HF_SCORE_5_going_out_bonus_only_when_someone_goes_out():
    b = BooksDeal().upto("N4")
    b.N4()
    g = b.game
    pos = position(g)
    g.apply("discard 4S")
    pos["hands"][N].remove("4S")
    no_bonus = expected_gains(pos, None)
    assert g.last_gains == [no_bonus[NS] + 100, no_bonus[EW]]
    # exhausted stock: no bonus for anyone (``finish`` checks the gains against the scorer without it)
    g = deal()
    stock_out(g)
    assert g.hand_log[-1]["declarer"] is None


def test_HF_SCORE_6_cards_left_in_hands_and_unpicked_feet_count_against():
    # a card in North's hand against the same card in East's hand
    a = _stock_out_hands("Jk", "4S")
    b = _stock_out_hands("4S", "Jk")
    assert b[NS] - a[NS] == 45 and b[EW] - a[EW] == -45
    # in the foot: South at the end of the going-out deal holds its foot cards (checked by ``finish``)
    bd = BooksDeal().upto("N4")
    bd.N4()
    assert len(hand(bd.game, S)) >= 9
    finish(bd.game, "discard 4S")


def test_HF_SCORE_7_deal_score_may_be_negative_and_adds_to_the_running_total():
    g = deal()
    first = stock_out(g)
    assert min(first) < 0 and g.scores == first
    second = stock_out(g)
    assert g.scores == [a + b for a, b in zip(first, second)]
    assert [h["points"] for h in g.hand_log] == [sum(first), sum(second)]


# ==================================================================================================
# 9. Deal end and match end
# ==================================================================================================


def test_HF_END_1_a_deal_ends_by_going_out_or_by_an_exhausted_stock():
    b = BooksDeal().upto("N4")
    b.N4()
    finish(b.game, "discard 4S")
    assert b.game.hand_log[-1]["ending"] == "out"
    g = deal()
    stock_out(g)
    assert g.hand_log[-1]["ending"] == "stock" and g.hand_number == 2


def test_HF_END_2_empty_stock_take_the_pile_if_allowed_else_the_deal_ends():
    g = deal(seed=4)

    def discard(game, seat, new):
        if stock_count(game) > 0:
            pool = new or hand(game, seat)
            return next((c for c in pool if is_natural(c)), pool[0])
        nxt = (seat + 1) % 4
        theirs = Counter(rank(c) for c in hand(game, nxt) if is_natural(c))
        return next(c for c in hand(game, seat) if is_natural(c) and theirs[rank(c)] >= 2)

    drain(g, discard=discard)
    assert stock_count(g) == 0
    p = g.current_player
    assert "draw stock" not in legal(g)
    assert_illegal(g, "draw stock")
    assert {"take discard", "pass"} <= set(legal(g))
    g.apply("take discard")                                   # the deal goes on from the pile
    assert g.hand_number == 1
    while g.current_player == p:
        acts = legal(g)
        plays = [a for a in acts if a.startswith(("meld", "layoff"))]
        g.apply(plays[0] if plays else next(a for a in acts if a.startswith("discard")))
    assert g.hand_number == 1 and stock_count(g) == 0
    assert "pass" in legal(g) and "draw stock" not in legal(g)
    finish(g, "pass")                                         # no going-out bonus
    assert g.hand_log[-1]["ending"] == "stock" and g.hand_number == 2


def test_HF_END_3_four_deals_with_minimums_50_90_120_150():
    """A full match of greedy-random play (never taking the pile, always answering no, so that every deal
    runs to the stock): in each deal, a partnership's first melds in a turn are accepted as its initial
    meld exactly when their value reaches that deal's minimum, and the turn cannot end below it; the match
    is over after the fourth deal."""
    g = rules().new_game(seed=11)
    done = play_watching_initial_melds(g, random.Random(11), deals=(1, 2, 3, 4))
    assert len(g.hand_log) == 4 and g.is_over
    assert set(done) == {1, 2, 3, 4}


def _tie_deck() -> list:
    """A deck that gives both partnerships cards of equal value everywhere: North's and East's hands, feet
    and draws pair up card for card by value, as do South's and West's; five red threes lie in each
    partnership's feet.  165 stock cards: North and East draw 21 times, South 20 times and a last single
    card, West 20 times."""
    pool = Counter(FULL_DECK)
    r3 = ["3H"] * 5 + ["3D"] * 5
    pool -= Counter(r3)
    by_value: dict = {}
    for c in sorted(pool.elements(), key=lambda c: (value(c), c)):
        by_value.setdefault(value(c), []).append(c)
    pairs = []
    for v, cards in sorted(by_value.items()):
        assert len(cards) % 2 == 0
        pairs += [(cards[i], cards[i + 1]) for i in range(0, len(cards), 2)]
    rng = random.Random(5)
    rng.shuffle(pairs)
    # a natural upcard with a natural partner card that goes to the bottom of the stock
    up_i = next(i for i, (a, b) in enumerate(pairs) if is_natural(a) and is_natural(b))
    up, spare = pairs.pop(up_i)
    it = iter(pairs)
    hands = {N: [], E: [], S: [], W: []}
    feet = {N: ["3H"] * 3, E: ["3D"] * 3, S: ["3H"] * 2, W: ["3D"] * 2}
    for a, b in (next(it) for _ in range(13)):
        hands[N].append(a)
        hands[E].append(b)
    for a, b in (next(it) for _ in range(13)):
        hands[S].append(a)
        hands[W].append(b)
    for a, b in (next(it) for _ in range(10)):
        feet[N].append(a)
        feet[E].append(b)
    for a, b in (next(it) for _ in range(11)):
        feet[S].append(a)
        feet[W].append(b)
    rest = list(it)
    # stock: rounds of (N draw, E draw, S draw, W draw); N/E draws are pairs, S/W draws are pairs
    stock: list = []
    while len(rest) >= 4:
        (a1, b1), (a2, b2), (a3, b3), (a4, b4) = rest[:4]
        rest = rest[4:]
        stock += [a1, a2, b1, b2, a3, a4, b3, b4]
    for a, b in rest:
        stock += [a, b]
    stock.append(spare)
    return stack(hands, feet, upcard=up, stock=stock, dealer=W)


def _tie_discard(game, seat, new):
    """Discard the drawn card of higher value (a choice by value only, so the partnerships stay level)."""
    return max(new, key=lambda c: (value(c), c)) if new else hand(game, seat)[0]


def test_HF_END_4_higher_total_wins_equal_totals_share_the_win():
    deck = _tie_deck()
    g = rules({"deals_per_game": 1}).new_game(seed=1, dealer=W, deck=deck)
    drain(g, discard=_tie_discard)
    assert g.current_player == W
    finish(g, "pass")
    assert g.is_over and g.scores[0] == g.scores[1]
    assert g.winner is None                                  # tie_rule = shared
    # tie_rule = another_deal: the match goes on
    g = rules({"deals_per_game": 1, "tie_rule": "another_deal"}).new_game(seed=1, dealer=W, deck=deck)
    drain(g, discard=_tie_discard)
    finish(g, "pass")
    assert not g.is_over and g.hand_number == 2
    while not g.is_over and g.scores[0] == g.scores[1]:
        stock_out(g)
    assert g.is_over and g.winner == max((0, 1), key=lambda t: g.scores[t])
    # a decided match: the higher total wins
    g = deal()
    while not g.is_over:
        stock_out(g)
    assert g.scores[0] != g.scores[1] and g.winner == max((0, 1), key=lambda t: g.scores[t])


# ==================================================================================================
# 10. Edge cases
# ==================================================================================================


#: every red three in East's foot (never picked up in a junk deal): the stock holds none, so every draw
#: takes exactly two cards and the 165-card stock ends with a single card
NO_RED_IN_STOCK = {E: ["3H"] * 5 + ["3D"] * 5}


def test_HF_EDGE_1_one_card_left_in_the_stock_is_taken_alone_and_the_turn_goes_on():
    g = deal({}, NO_RED_IN_STOCK, bottom=["QH"])
    drain(g, upto=1)
    assert stock_count(g) == 1
    s = g.current_player
    before = hand(g, s)
    g.apply("draw stock")
    assert drawn(g, s, before) == ["QH"] and stock_count(g) == 0
    assert any(a.startswith("discard") for a in legal(g))
    g.apply("discard QH")
    assert g.current_player == (s + 1) % 4 and "pass" in legal(g)


def test_HF_EDGE_2_red_three_without_replacement_ends_the_deal_and_still_scores():
    """The last stock card is a red three: it is laid (+100 for the partnership) and, with no card left to
    replace it, the deal ends at once as a stock-out, without a going-out bonus (HF-EDGE-2, HF-END-2)."""
    feet = {E: ["3H"] * 5 + ["3D"] * 4}
    g = deal({}, feet, bottom=["3D"])
    drain(g, upto=1)
    assert stock_count(g) == 1
    s = g.current_player
    pos = position(g)
    g.apply("draw stock")
    rec = g.hand_log[-1]
    assert g.hand_number == pos["hand_number"] + 1, "the deal goes on without a replacement card"
    assert rec["ending"] == "stock" and rec["declarer"] is None
    pos["red_threes"][s % 2] += 1                               # the three just laid counts +100
    assert list(g.last_gains) == expected_gains(pos, None)
    # the mechanic's other setting, `when_empty: play_on`: the player goes on with one card fewer
    g = deal({}, feet, bottom=["3D"], overrides={"auto_lay.when_empty": "play_on"})
    drain(g, upto=1)
    s = g.current_player
    before, r3 = hand(g, s), len(red_threes(g, s % 2))
    g.apply("draw stock")
    assert g.hand_number == 1 and stock_count(g) == 0 and len(red_threes(g, s % 2)) == r3 + 1
    assert hand(g, s) == before and g.current_player == s


def test_HF_EDGE_3_a_replacement_red_three_is_laid_and_replaced_in_turn():
    g = deal({N: junk("3H")}, stock=["3D", "9C", "QD", "KD"])
    assert red_threes(g, NS) == ["3H", "3D"]
    assert "9C" in hand(g, N) and "3D" not in hand(g, N) and len(hand(g, N)) == 13
    before = hand(g, N)
    g.apply("draw stock")
    assert drawn(g, N, before) == ["KD", "QD"]


def _east_six_nines(g):
    meld(g, "9H", "9D", "9C")
    meld(g, "KH", "KD", "KS")
    grow(g, "9", "9S", "9H", "9D")


EAST_NINES = junk("9H", "9D", "9C", "9S", "9H", "9D", "KH", "KD", "KS")


@pytest.mark.parametrize("west,ok", [(("9H", "9D"), False), (("9H", "9D", "2C"), True),
                                     (("9H", "9D", "9C"), True)])
def test_HF_EDGE_4_pile_onto_a_six_card_meld_needs_a_new_meld_for_the_rest(west, ok):
    g = pile_deal(["KC", "4D", "5D", "9S"], hands={E: EAST_NINES, W: junk(*west)}, plays={1: _east_six_nines})
    no = open_meld(g, EW, "9")
    assert len(melds(g)[no - 1]["cards"]) == 6
    assert ("take discard" in legal(g)) == ok
    if not ok:
        assert_illegal(g, "take discard")
        return
    g.apply("take discard")
    lay(g, "9S", no)                                          # the book closes at seven
    assert melds(g)[no - 1]["book"] == "clean"
    meld(g, *[c for c in ("9H", "9D") + tuple(west[2:])])    # the other two start a new 9 meld
    assert any(a.startswith("discard") for a in legal(g))


def test_HF_EDGE_4_pile_onto_a_five_card_meld():
    def five(g):
        meld(g, "9H", "9D", "9C")
        meld(g, "KH", "KD", "KS")
        grow(g, "9", "9S", "9H")
    for west, ok in ((("9H", "9D", "2C"), False), (("9H", "9D", "9C", "2C"), True)):
        g = pile_deal(["KC", "4D", "5D", "9S"], hands={E: EAST_NINES, W: junk(*west)}, plays={1: five})
        assert ("take discard" in legal(g)) == ok, west


def test_HF_EDGE_5_black_threes_and_wild_cards_among_the_taken_cards_go_to_hand():
    g = pile_deal(["KC", "3S", "2C", "9S"], hands={W: W99})
    before = hand(g, W)
    g.apply("take discard")
    assert drawn(g, W, before) == sorted(["KC", "3S", "2C", "9S"])
    meld(g, "9H", "9D", "9S")
    meld(g, "KH", "KD", "KS")
    assert "3S" in hand(g, W) and "2C" in hand(g, W)


def test_HF_EDGE_6_a_wild_card_joins_only_if_the_ratio_still_holds():
    g = deal({N: junk("9H", "9D", "2C", "Jk", "KH", "KD", "KS")})
    g.apply("draw stock")
    no = build(g, "9H", "9D", "2C")
    meld(g, "KH", "KD", "KS")
    assert not any(a.startswith("layoff Jk") and a.endswith(f"on {no}") for a in legal(g))
    assert_illegal(g, f"layoff Jk=9S on {no}")


SOUTH_OUT_FOOT = ["6S", "6H", "6D", "6C", "7S", "7H", "7D", "7C", "4H", "4S", "4D", "4C"]


def _south_goes_out_after_way_a(last: str):
    """BooksDeal, South's turn S2: 10 10 10 empties the hand (Way A), the foot (6 6 6 6, 7 7 7 7, 4 4 4 4 and
    ``last``) comes up; North has played a turn from its foot and NS has all five books, so South asks,
    North says yes, South melds twelve cards and discards ``last``: out in the same turn."""
    b = BooksDeal(s_foot=SOUTH_OUT_FOOT + [last]).upto("S2")
    g = b.game
    play_turn(g, S, "draw stock")
    meld(g, "10S", "10H", "10D")                              # Way A: the foot, same turn
    assert g.view(0)["in_reserve"][S] and g.current_player == S
    g.apply("ask")
    play_turn(g, N, "yes")
    build(g, "6S", "6H", "6D", "6C")
    build(g, "7S", "7H", "7D", "7C")
    build(g, "4H", "4S", "4D", "4C")
    assert hand(g, S) == [last] and legal(g) == [f"discard {last}"]
    finish(g, f"discard {last}")
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == S
    return g


def test_HF_EDGE_7_foot_picked_up_by_melding_out_and_out_in_the_same_turn():
    _south_goes_out_after_way_a("KS")


@pytest.mark.parametrize("last", ["Jk", "2C", "3S"])
def test_HF_EDGE_9_the_going_out_discard_may_be_a_wild_card_or_a_black_three(last):
    _south_goes_out_after_way_a(last)


def test_HF_EDGE_8_a_turn_ends_empty_handed_only_by_going_out_or_way_b():
    # Way B: the last card of the hand is discarded, the foot comes up, the turn ends
    b = BooksDeal()
    b.play("N1")
    assert b.game.current_player == E and len(hand(b.game, N)) == 13
    # in the foot without the right to go out: no meld or layoff leaves fewer than two cards
    b.upto("N3")
    g = b.game
    play_turn(g, N, "draw stock")                              # Q Q Q 6C 10C
    for a in legal(g):
        if a.startswith("meld"):
            assert len(hand(g, N)) - (len(a.split()) - 1) >= 2, a
        if a.startswith("layoff"):
            assert len(hand(g, N)) - 1 >= 2, a
    meld(g, "QS", "QH", "QD")
    assert not any(a.startswith(("meld", "layoff")) for a in legal(g))
    assert_illegal(g, f"layoff 6C on {open_meld(g, NS, '6')}")
    g.apply("discard 10C")
    assert hand(g, N) == ["6C"]


def test_HF_EDGE_10_unpicked_feet_stay_face_down_and_count_at_the_end():
    g = deal({}, {W: ["Jk"], N: ["4S"]})
    while stock_count(g) > 0:
        for s in range(4):
            assert all(set(f) == {"count"} for f in g.view(s)["zones"]["foot"])
        junk_turn(g)
    finish(g, "pass")
    a = g.last_gains
    b = _stock_out_with("4S", "Jk")
    assert b[EW] - a[EW] == 45 and b[NS] - a[NS] == -45


def test_HF_EDGE_11_hand_emptied_by_melding_after_taking_the_pile_picks_up_the_foot():
    west = ["9H", "9D", "KH", "KD", "KS", "QH", "QD", "JH", "JD", "AH", "AD", "AS", "AC"]
    g = pile_deal(["KC", "QC", "JC", "9S"], hands={W: west})
    g.apply("take discard")
    build(g, "9H", "9D", "9S")
    build(g, "KH", "KD", "KS", "KC")
    build(g, "QH", "QD", "QC")
    build(g, "AH", "AD", "AS", "AC")
    assert not g.view(0)["in_reserve"][W]
    build(g, "JH", "JD", "JC")                                # the hand is empty: the foot comes up
    v = g.view(W)
    assert v["in_reserve"][W] and g.current_player == W and len(hand(g, W)) == 13
    assert any(a.startswith("discard") for a in legal(g))


def test_HF_EDGE_12_the_final_turn_may_complete_the_last_book_before_going_out():
    b = BooksDeal(wild_book="n4").upto("N4")
    g = b.game
    assert team_books(melds(g), NS) == Counter(clean=2, dirty=2)
    b.N4()                                                    # 2C completes the wild book, then ask, yes ...
    assert team_books(melds(g), NS) == Counter(clean=2, dirty=2, wild=1)
    finish(g, "discard 4S")
    assert g.hand_log[-1]["ending"] == "out"


def test_HF_EDGE_12_the_last_book_may_be_completed_by_the_cards_that_take_the_player_out():
    """North (in the foot, South past a full foot turn, NS with 2 clean and 2 dirty books and a five-card wild
    meld) draws 2C 2S and holds 2C 2S 4D.  Laying 2C and 2S on the wild meld completes the wild book and
    leaves 4D to discard: going out this turn is legal (HF-EDGE-12: only the position after the final
    discard is checked against HF-OUT-2), so North may ask (HF-OUT-5), now or after laying 2C, and with a
    yes go out."""
    b = BooksDeal(wild_book="five", n4=("2C", "2S")).upto("N3")
    g = b.game
    play_turn(g, N, "draw stock")
    meld(g, "QS", "QH", "QD")
    grow(g, "6", "6C")
    g.apply("discard 10C")
    for lab in ("E3", "S3", "W3"):
        b.play(lab)
    play_turn(g, N, "draw stock")
    assert hand(g, N) == ["2C", "2S", "4D"]
    wild = open_meld(g, NS, "wild")
    assert len(melds(g)[wild - 1]["cards"]) == 5
    if "ask" not in legal(g):
        lay(g, "2C", wild)
    assert "ask" in legal(g), f"North cannot ask (nor lay 2S, leaving 4D to discard): legal {legal(g)}"
    act(g, "ask", "yes")
    for c in ("2C", "2S"):
        if c in hand(g, N):
            lay(g, c, wild)
    assert melds(g)[wild - 1]["book"] == "wild"
    finish(g, "discard 4D")
    assert g.hand_log[-1]["ending"] == "out"


# ==================================================================================================
# Every clause has a test
# ==================================================================================================

CLAUSES = {"DEAL": 10, "TURN": 6, "DRAW": 8, "MELD": 11, "THREE": 5, "WILD": 3, "FOOT": 5, "OUT": 7, "SCORE": 7,
           "END": 4, "EDGE": 12}


def test_every_clause_id_has_a_test_in_this_file():
    names = [n for n in globals() if n.startswith("test_HF_")]
    missing = [f"HF-{sec}-{i}" for sec, k in CLAUSES.items() for i in range(1, k + 1)
               if not any(n.startswith(f"test_HF_{sec}_{i}_") for n in names)]
    assert not missing


# ==================================================================================================
# The initial-meld bound at the wild-card capacity (HF-MELD-8 with HF-MELD-1/2/4)
# ==================================================================================================


def _first_turn(keep, minimum: int, stock):
    """North (first to play) holds ``keep`` plus junk singles, deal 1's minimum is ``minimum``, and North has
    drawn ``stock`` (two cards of ranks North does not hold): nothing but ``keep`` can be melded."""
    g = deal({N: junk(*keep)}, stock=list(stock), overrides={"min_meld": [minimum, 90, 120, 150]})
    g.apply("draw stock")
    return g


def _placements(g) -> list:
    return [a for a in legal(g) if a.startswith(("meld", "layoff"))]


SIX_ACES_TWO_TWOS = ["AS", "AH", "AD", "AC", "AS", "AH", "2C", "2D"]
THREE_ACES_TWO_TWOS = ["AS", "AH", "AD", "2C", "2D"]


@pytest.mark.parametrize("keep,stock,most,path", [
    # Six naturals, two wild cards.  All of them can only go into one ace meld: at most 7 cards (HF-MELD-1/4)
    # with naturals >= 2 x wilds (HF-MELD-2).  6A + 1 wild = 7 cards; 5A + 2 wilds = 7 cards (5 >= 4);
    # 6A + 2 wilds = 8 cards is too many -- exactly one wild card fits beside six naturals.  An ace and a
    # two are both 20 (HF-SCORE-1), so the most North can place is 6 x 20 + 20 = 5 x 20 + 2 x 20 = 140
    # (one wild card too many would make it 160).  Junk 4C-8C, 9S, 10S: singles, no meld.
    (SIX_ACES_TWO_TWOS, ["9S", "10S"], 140, ["AS", "AH", "AD", "2C", "AC", "AS", "AH"]),
    # Three naturals, two wild cards: 3 >= 2 x 1 but 3 < 2 x 2 -- one wild card fits (the ratio binds, not
    # the size).  Most: 3 x 20 + 20 = 80 (one too many: 100).  Two twos cannot meld alone (a wild meld
    # needs 3, HF-MELD-1).  Junk 4C-JC, QS, KS: singles.
    (THREE_ACES_TWO_TWOS, ["QS", "KS"], 80, ["AS", "AH", "AD", "2C"]),
])
def test_HF_MELD_8_the_minimum_bound_counts_only_the_wild_cards_a_meld_can_hold(keep, stock, most, path):
    """An initial meld is offered exactly when the cards it leaves can still reach the minimum (HF-MELD-8:
    the turn cannot end between 0 and the minimum, so nothing may be placed that cannot get there).  At the
    hand's most, the meld is offered and can be completed; 5 more (values are multiples of 5), or the
    value with one more wild card, is out of reach: nothing is offered and the turn ends normally."""
    g = _first_turn(keep, most, stock)
    build(g, *path)
    assert g.view(0)["team_melded"][NS]                        # the minimum was met with `most`
    for minimum in (most + 5, most + 20):
        g = _first_turn(keep, minimum, stock)
        assert _placements(g) == [], f"minimum {minimum} > {most} is out of reach: {_placements(g)}"
        assert_illegal(g, "meld AS AH AD")
        g.apply("discard 4C")                                   # the turn ends without a meld
        assert g.current_player == E and not g.view(0)["team_melded"][NS]


def test_HF_MELD_8_seven_naturals_and_a_wild_card_never_make_more_than_a_book():
    """Seven aces and 2C: one ace meld holds 7 cards, so 7A, or 6A + 2C -- 140 at most (HF-MELD-1/4); the
    aces left over after a book cannot start another ace meld.  With a minimum of 145 nothing may be placed.
    (Bug 5, fixed: the engine offered `meld AS AS 2C=AS`; after laying off four aces the turn had no legal
    action.)"""
    g = _first_turn(["AS", "AH", "AD", "AC", "AS", "AH", "AD", "2C"], 145, ["9S", "10S"])
    assert _placements(g) == []


def test_HF_MELD_8_a_natural_may_be_left_out_so_that_two_wild_cards_fit():
    """Six fours (5 each) and 2C 2D (20 each): 6 x 4 + one two = 50, but 5 fours + 2C 2D = 25 + 40 = 65 is a
    legal 7-card meld (5 >= 2 x 2, HF-MELD-2), so a minimum of 65 is reachable (HF-MELD-8)."""
    g = _first_turn(["4S", "4H", "4D", "4C", "4S", "4H", "2C", "2D"], 65, ["JS", "QS"])
    build(g, "4S", "4H", "4D", "2C", "4C", "2D", "4S")
    assert g.view(0)["team_melded"][NS]


def test_HF_OUT_4_alternative_optional_permission_going_out_without_asking():
    # `permission: optional`: North may go out without asking ...
    b = BooksDeal(variant="permission_optional").upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    assert "ask" in legal(g)                                 # asking is still allowed
    meld(g, "QS", "QH", "QD")
    grow(g, "6", "6C")
    grow(g, "9", "9C")
    finish(g, "discard 4S")                                  # out, with no question asked
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == N


def test_HF_OUT_4_alternative_optional_permission_an_answer_binds():
    b = BooksDeal(variant="permission_optional").upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    act(g, "ask", "no")                                      # asked: a no forbids going out this turn
    meld(g, "QS", "QH", "QD")
    grow(g, "6", "6C")
    assert not any(a.startswith(("layoff", "meld")) for a in legal(g))   # keeps two: cannot go out
    b = BooksDeal(variant="permission_optional").upto("N4")
    g = b.game
    play_turn(g, N, "draw stock")
    act(g, "ask", "yes")                                     # a yes binds: the turn must end by going out
    assert not any(a.startswith("discard") for a in legal(g))
