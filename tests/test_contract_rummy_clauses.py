"""One test (at least) per clause of seeds/contract_rummy.md, played through the public API.

Conventions (see contract_rummy_helpers): seats A, B, C, ... = 0, 1, 2, ...; unless stated the dealer is the
last seat, so A plays first and turns go A, B, C, ...  Deals are stacked with ``contract_rummy_helpers.stack``
(one card at a time from the dealer's left, then the upcard, then the stock, top first), and every stacked
deal is checked against the hands it should give.  A later deal is reached by ending the deals before it at
once (``reach_deal``: the first player goes out on the first turn).  Expected legal melds come from
``contract_options`` (written from the rules), expected scores from ``value`` and sums worked out here.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rulesdsl import IllegalAction

from contract_rummy_helpers import (A, B, C, CONTRACTS, D, DEFAULTS, JOKER, QUICK_OUT, QUICK_UPCARD,
                                    VARIANT_PARAMS, VARIANTS, act, assert_illegal, check_deal, contract_options,
                                    copies, dealer_of, discards, full_deck, hand_value, legal,
                                    listed, listed_melds, new_game, norm, pass_buys, phase, pile_count,
                                    play_quick_out, quick_deck, reach_deal, rules, stack, stock_count, table_melds,
                                    top, value)


def m(*cards) -> tuple:
    """A meld as compared: its cards sorted."""
    return tuple(sorted(cards))


def first_of(deal: int, n: int = 4, first_dealer: int = None) -> int:
    first_dealer = n - 1 if first_dealer is None else first_dealer
    return (dealer_of(deal, n, first_dealer) + 1) % n


def at_deal(deal: int, hand: list, drawn: str, n: int = 4, variant: str = "base", others: dict = None,
            upcard: str = QUICK_UPCARD, more: tuple = ()):
    """Deal ``deal`` stacked so that its first player holds ``hand`` and draws ``drawn`` from the stock;
    returns the game after that draw, with the first player."""
    p = first_of(deal, n)
    hands = dict(others or {})
    hands[p] = hand
    g = reach_deal(deal, n, hands, [upcard, drawn, *more], variant=variant)
    assert g.current_player == p
    g.apply("draw stock")
    assert g.current_player == p and phase(g) == "turn"          # no buy window on the first upcard
    return g, p


def turn(g, buyer=None, take=False, discard=None) -> list:
    """The player on turn draws (or takes the upcard); in the buy window that follows a stock draw,
    ``buyer`` buys when asked and everyone else passes; then the player discards ``discard`` (or the
    first card listed).  Returns the seats asked in the buy window, in order."""
    me = g.current_player
    g.apply("take discard" if take else "draw stock")
    asked = []
    while phase(g) == "claim":
        s = g.current_player
        asked.append(s)
        g.apply("claim discard 1" if s == buyer else "pass")
    assert g.current_player == me and phase(g) == "turn"
    g.apply(f"discard {discard or discards(g)[0]}")
    return asked


# ==================================================================================================
# Setup and deal
# ==================================================================================================

def test_CR_DEAL_1_three_to_eight_players():
    r = rules()
    for n in (2, 9):
        with pytest.raises(ValueError):
            r.new_game(players=n, seed=0)
    for n in range(3, 9):
        g = r.new_game(players=n, seed=n)
        assert g.view(0)["players"] == n and not g.is_over


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8])
def test_CR_DEAL_2_pack_is_two_or_three_decks_with_one_joker_each(n):
    pack = full_deck(n)
    assert len(pack) == {3: 106, 4: 106}.get(n, 159)
    r = rules()
    g = r.new_game(players=n, seed=1, dealer=n - 1, deck=pack)     # exactly this pack stacks ...
    assert g.cards_in_play == len(pack)
    for wrong in (pack + [JOKER], pack[:-1], pack[:-1] + ["AS"]):   # ... a joker more or less does not
        with pytest.raises(ValueError):
            r.new_game(players=n, seed=1, dealer=n - 1, deck=wrong)
    g = r.new_game(players=n, seed=7)                               # a shuffled deal: all cards accounted
    seen = sum(len(g.hand_of(s)) for s in range(n)) + pile_count(g) + stock_count(g)
    assert seen == len(pack) and copies(n) == (2 if n <= 4 else 3)


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_CR_DEAL_3_seven_deals_of_10_10_10_10_12_12_12_cards(n):
    first_dealer = n - 1
    decks = [quick_deck(k, n, dealer_of(k, n, first_dealer)) for k in range(1, 8)]
    g = rules().new_game(players=n, seed=0, dealer=first_dealer, deck=decks[0], decks=decks[1:])
    for k in range(1, 8):
        check_deal(g, decks[k - 1], n, dealer_of(k, n, first_dealer), k)    # sizes, upcard, stock
        assert all(len(g.hand_of(s)) == (10 if k <= 4 else 12) for s in range(n))
        assert not g.is_over
        play_quick_out(g, k, n)
    assert g.is_over and len(g.hand_log) == 7 and g.legal_actions() == []


def test_CR_DEAL_4_dealer_passes_left_and_deals_one_at_a_time_from_the_left():
    n = 4
    for dealer in range(n):
        hands = {s: [f"{r}{'SHDC'[s]}" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]]
                 for s in range(n)}
        deck = stack(hands, n, dealer, after=["KC", "KD"])
        # deck[0] goes to the dealer's left, deck[1] to the seat after, ...
        assert deck[0] in hands[(dealer + 1) % n] and deck[1] in hands[(dealer + 2) % n]
        g = rules().new_game(players=n, seed=0, dealer=dealer, deck=deck)
        check_deal(g, deck, n, dealer, 1)
    # the first dealer is chosen at random: several seeds give several dealers
    assert len({rules().new_game(players=4, seed=s).view(0)["dealer"] for s in range(24)}) > 1
    # after each deal the deal passes one seat to the left (CR-DEAL-3 test checks every deal's dealer)
    g = reach_deal(3, n, {}, ["5D", "6D"], first_dealer=2)
    assert g.view(0)["dealer"] == (2 + 2) % n


def test_CR_DEAL_5_upcard_turned_stock_rest_and_dealers_left_plays_first():
    g = new_game({A: ["3S"]}, after=["KH", "QD"], dealer=D)
    assert top(g) == "KH" and pile_count(g) == 1 and stock_count(g) == 106 - 40 - 1
    assert g.current_player == A and legal(g) == ["draw stock", "take discard"]
    g.apply("draw stock")
    assert "QD" in g.hand_of(A)                                    # the stock's top card, right after the upcard
    g = new_game({}, after=["KH"], dealer=B)
    assert g.current_player == C


# ==================================================================================================
# Contracts, melds and wild cards
# ==================================================================================================

# For each deal: the first player's hand and drawn card, and the melds (sorted cards) the rules allow.
CONTRACT_CASES = {
    1: (["7S", "7H", "7D", "7C", "9S", "9H", "2C", "3C", "4C", "5C"], "9D",
        {m("7C", "7D", "7H"), m("7C", "7D", "7S"), m("7C", "7H", "7S"), m("7D", "7H", "7S"), m("9D", "9H", "9S")}),
    2: (["7S", "7H", "7D", "7C", "4H", "5H", "6H", "9S", "9H", "KD"], "2C",
        {m("7C", "7D", "7S"), m("4H", "5H", "6H", "7H")}),
    3: (["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "7S", "7H"], "KD",
        {m("2C", "3C", "4C", "5C"), m("6C", "7C", "8C", "9C")}),
    4: (["7S", "7H", "7D", "9S", "9H", "9D", "QS", "QH", "5C", "5D"], "QD",
        {m("7D", "7H", "7S"), m("9D", "9H", "9S"), m("QD", "QH", "QS")}),
    5: (["7S", "7H", "7D", "9S", "9H", "9D", "2C", "3C", "4C", "5C", "6C", "KD"], "8S",
        {m("7D", "7H", "7S"), m("9D", "9H", "9S"), m("2C", "3C", "4C", "5C"), m("3C", "4C", "5C", "6C")}),
    6: (["7S", "7H", "7D", "2C", "3C", "4C", "5C", "6C", "8C", "9C", "10C", "KD"], "JC",
        {m("7D", "7H", "7S"), m("2C", "3C", "4C", "5C"), m("3C", "4C", "5C", "6C"), m("8C", "9C", "10C", "JC")}),
    7: (["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"], "AC", None),
}


@pytest.mark.parametrize("deal", range(1, 8))
def test_CR_CONTRACT_1_each_deal_offers_the_melds_of_its_contract(deal):
    hand, drawn, expected = CONTRACT_CASES[deal]
    g, p = at_deal(deal, hand, drawn)
    cards = hand + [drawn]
    oracle = contract_options(cards, CONTRACTS[deal - 1])
    if expected is not None:
        assert oracle == expected                                  # the oracle agrees with the worked case
    assert listed_melds(g) == oracle
    kinds = {"set" if len({c[:-1] for c in x}) == 1 else "run" for x in oracle}
    assert kinds <= set(CONTRACTS[deal - 1])


def test_CR_CONTRACT_1_deal_7_three_runs_from_thirteen_clubs():
    hand, drawn, _ = CONTRACT_CASES[7]
    g, p = at_deal(7, hand, drawn)
    melds = listed_melds(g)
    # 13 clubs A..K: three disjoint runs of 4 leave one card; A-2-3-4 (ace low) and J-Q-K-A (ace high)
    # both appear; a run whose removal splits the rest into pieces shorter than 4 does not.
    assert m("2C", "3C", "4C", "AC") in melds and m("AC", "JC", "KC", "QC") in melds
    assert m("3C", "4C", "5C", "6C") in melds                          # leaves 7-10, J-Q-K-A
    assert m("4C", "5C", "6C", "7C") not in melds                      # leaves A-2-3: a gap of three
    assert melds == contract_options(hand + [drawn], CONTRACTS[6])


def test_CR_CONTRACT_2_sets_any_suits_and_repeated_cards_with_several_decks():
    g, p = at_deal(1, ["7S", "7S", "7H", "7D", "7C", "7H", "2C", "4D", "6H", "KC"], "JD")
    melds = listed_melds(g)
    assert m("7H", "7S", "7S") in melds and m("7C", "7D", "7H") in melds
    assert melds == contract_options(g.hand_of(p), ["set", "set"])
    act(g, "meld 7S 7S 7H", "meld 7D 7C 7H")                          # two sets of sevens make the contract
    assert [x["kind"] for x in table_melds(g)] == ["set", "set"]


def test_CR_CONTRACT_3_runs_ace_low_or_high_never_round_the_corner():
    hand = ["QH", "KH", "AH", "2H", "3H", "4H", "9S", "10S", "JS", "5D"]
    g, p = at_deal(3, hand, "QS")
    melds = listed_melds(g)
    assert m("2H", "3H", "4H", "AH") in melds                          # A-2-3-4
    assert m("9S", "10S", "JS", "QS") in melds
    # K-A-2-3 and Q-K-A-2 would go round the corner, and J-Q-K-A lacks JH: no hearts run holds KH
    assert not any("KH" in x for x in melds)
    assert_illegal(g, "meld KH AH 2H 3H")
    assert melds == contract_options(hand + ["QS"], ["run", "run"])


def test_CR_CONTRACT_4_jokers_stand_for_any_card_of_a_set_or_run():
    g, p = at_deal(3, ["4H", "5H", "6H", JOKER, "9S", "10S", "JS", "QS", "3D", "KC"], "8D")
    melds = set(listed(g, "meld"))
    assert "meld Jk=3H 4H 5H 6H" in melds and "meld 4H 5H 6H Jk=7H" in melds   # either end, declared
    act(g, "meld 9S 10S JS QS", "meld 4H 5H 6H Jk=7H")
    assert table_melds(g)[1]["cards"] == ["4H", "5H", "6H", "Jk=7H"]
    g, p = at_deal(1, ["7S", "7H", JOKER, "9C", "9S", JOKER, "2C", "4D", "6H", "KC"], "JD")
    assert {norm(a) for a in listed(g, "meld")} == {("7H", "7S", "Jk=7S"), ("9C", "9S", "Jk=9S")}


def test_CR_CONTRACT_5_every_meld_holds_a_natural_card():
    # five players: three decks, three jokers; the three jokers never make a meld by themselves
    n = 5
    g, p = at_deal(1, [JOKER, JOKER, JOKER, "9C", "9S", "9H", "2C", "4D", "6H", "KC"], "JD", n=n)
    melds = listed(g, "meld")
    assert melds and all(any("=" not in w for w in a.split()[1:]) for a in melds)
    assert "meld 9S Jk=9S Jk=9S" in melds                               # one natural is enough
    assert_illegal(g, "meld Jk=7S Jk=7H Jk=7D")


def test_CR_CONTRACT_6_contract_melds_are_exactly_the_minimum_size():
    g, p = at_deal(1, ["7S", "7H", "7D", "7C", "9S", "9H", "9D", "9C", "2C", "4D"], "KD")
    assert all(len(x) == 3 for x in listed_melds(g))
    assert_illegal(g, "meld 7S 7H 7D 7C")                               # a set of four is not offered
    g, p = at_deal(3, ["2H", "3H", "4H", "5H", "6H", "9S", "10S", "JS", "QS", "KD"], "5D")
    assert all(len(x) == 4 for x in listed_melds(g))
    assert_illegal(g, "meld 2H 3H 4H 5H 6H")                            # nor a run of five
    act(g, "meld 2H 3H 4H 5H", "meld 9S 10S JS QS")
    assert "layoff 6H on 1" in legal(g)                                 # longer only by laying off


def test_CR_CONTRACT_7_departure_same_rank_sets_and_joinable_runs_are_allowed():
    # two sets of one rank (the draft would refuse them) ...
    g, p = at_deal(1, ["7S", "7H", "7D", "7S", "7H", "7C", "2C", "4D", "6H", "KC"], "JD")
    act(g, "meld 7S 7H 7D", "meld 7S 7H 7C")
    assert sum(1 for x in table_melds(g) if x["owner"] == p) == 2 and "meld" not in " ".join(legal(g))
    # ... and two runs of one suit that could be joined (5-8H and 9-QH)
    g, p = at_deal(3, ["5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "2S", "KD"], "4C")
    assert m("5H", "6H", "7H", "8H") in listed_melds(g)
    act(g, "meld 5H 6H 7H 8H", "meld 9H 10H JH QH")
    assert [x["cards"] for x in table_melds(g)] == [["5H", "6H", "7H", "8H"], ["9H", "10H", "JH", "QH"]]


# ==================================================================================================
# Turn
# ==================================================================================================

def test_CR_TURN_1_draw_then_play_then_discard_ends_the_turn():
    g = new_game({A: ["3S", "5H", "8D", "JC", "KS", "2H", "4D", "6C", "9S", "QH"]}, after=["7H", "AS"])
    assert legal(g) == ["draw stock", "take discard"]                   # (a) draw first: nothing else
    assert_illegal(g, "discard 3S")
    g.apply("draw stock")
    assert "AS" in g.hand_of(A) and len(g.hand_of(A)) == 11
    assert "draw stock" not in legal(g) and "take discard" not in legal(g)   # exactly one card
    assert set(discards(g)) == set(g.hand_of(A))                        # (d) any card may go
    g.apply("discard KS")
    assert g.current_player == B and top(g) == "KS" and len(g.hand_of(A)) == 10


def test_CR_TURN_2_taken_upcard_cannot_be_discarded_that_turn():
    g = new_game({A: ["3S", "5H", "8D", "JC", "KS", "2H", "4D", "6C", "9S", "QH"]}, after=["7H", "AS"])
    g.apply("take discard")                                              # no penalty card
    assert "7H" in g.hand_of(A) and len(g.hand_of(A)) == 11 and stock_count(g) == 65
    assert "7H" not in discards(g)
    with pytest.raises(IllegalAction) as e:
        g.apply("discard 7H")
    assert e.value.rule == "CR-TURN-2"
    assert_illegal(g, "discard 7H")
    # a card drawn from the stock may be discarded at once
    g = new_game({A: ["3S", "5H", "8D", "JC", "KS", "2H", "4D", "6C", "9S", "QH"]}, after=["7H", "AS"])
    act(g, "draw stock", "discard AS")
    assert top(g) == "AS"
    # with two decks the other copy of the taken card is a different card, and may go
    g = new_game({A: ["7H", "5H", "8D", "JC", "KS", "2H", "4D", "6C", "9S", "QH"]}, after=["7H", "AS"])
    g.apply("take discard")
    assert "7H" in discards(g)
    g.apply("discard 7H")
    assert g.hand_of(A).count("7H") == 1 and top(g) == "7H"


def test_CR_TURN_3_empty_stock_is_refilled_from_the_discard_pile_less_its_top():
    n = 4
    g = new_game({}, n=n)
    pile = [top(g)]
    while stock_count(g) > 1:
        turn(g)
        pile.append(top(g))
    assert stock_count(g) == 1 and pile_count(g) == len(pile) == 65
    me = g.current_player
    g.apply("draw stock")                                                # the last card: stock empty
    assert stock_count(g) == 0 and phase(g) == "turn"                    # no buy: no penalty card left
    card = discards(g)[0]
    g.apply(f"discard {card}")
    pile.append(card)
    assert g.hand_number == 1 and g.current_player == (me + 1) % n
    assert top(g) == card and pile_count(g) == 1                         # the upcard stays
    assert stock_count(g) == len(pile) - 1 == 65
    held = Counter(c for s in range(n) for c in g.hand_of(s))
    stock = Counter(full_deck(n)) - held - Counter([card])
    assert stock == Counter(pile[:-1])                                   # the old pile, less its top


def test_CR_TURN_4_nobody_acts_out_of_turn_except_a_buy():
    g = new_game({A: ["3S", "5H", "8D", "JC", "KS", "2H", "4D", "6C", "9S", "QH"]}, after=["7H", "AS"])
    with pytest.raises(IllegalAction):
        g.apply("draw stock", seat=B)
    act(g, "draw stock", "discard 3S", "draw stock")
    assert phase(g) == "claim" and g.current_player == C                # C acts in B's turn: only a buy
    assert legal(g) == ["claim discard 1", "pass"]
    assert_illegal(g, "discard " + g.hand_of(C)[0])


# ==================================================================================================
# Going down
# ==================================================================================================

def test_CR_DOWN_1_only_the_exact_contract_goes_down():
    # deal 2 (a set and a run): 7S 7H 7D 7C and 4H 5H 6H; 7H is needed by the run, so the only set offered
    # is the one that leaves it, and a run is offered only with 7H
    hand, drawn, expected = CONTRACT_CASES[2]
    g, p = at_deal(2, hand, drawn)
    assert listed_melds(g) == expected
    assert_illegal(g, "meld 7S 7H 7D")                                   # would leave no run
    assert_illegal(g, "meld 9S 9H 7S")                                   # no meld at all


def test_CR_DOWN_2_a_type_is_offered_only_while_needed_and_the_turn_cannot_end_part_way():
    g, p = at_deal(2, ["7S", "7H", "7D", "9S", "9H", "9C", "3C", "4C", "5C", "KD"], "6C")
    assert listed_melds(g) == {m("7D", "7H", "7S"), m("9C", "9H", "9S"), m("3C", "4C", "5C", "6C")}
    g.apply("meld 7S 7H 7D")
    assert discards(g) == [] and listed(g, "layoff") == []               # no discard part-way
    assert_illegal(g, "discard KD")
    assert listed_melds(g) == {m("3C", "4C", "5C", "6C")}                 # the set is no longer needed
    assert_illegal(g, "meld 9S 9H 9C")
    g.apply("meld 3C 4C 5C 6C")
    assert set(discards(g)) == {"9S", "9H", "9C", "KD"}                   # contract complete: the turn may end
    assert listed(g, "meld") == []


def test_CR_DOWN_2_no_meld_or_layoff_before_going_down():
    g = new_game({A: ["7C", "7C", "7S", "9C", "9C", "9S", "KH", "KD", "2H", "3S"],
                  B: ["7H", "4S", "5S", "6S", "8D", "10D", "JD", "QD", "AC", "2C"]}, after=["5D", "QC"])
    act(g, "draw stock", "meld 7C 7C 7S", "meld 9C 9C 9S", "discard QC")
    g.apply("draw stock")
    pass_buys(g)
    assert g.current_player == B
    assert listed(g, "layoff") == [] and listed(g, "meld") == []         # 7H would fit, but B is not down
    assert_illegal(g, "layoff 7H on 1")


def test_CR_DOWN_3_once_down_no_new_meld_only_layoffs():
    g, p = at_deal(1, ["7S", "7H", "7D", "9S", "9H", "9C", "QC", "QC", "QS", "9D"], "KD")
    act(g, "meld 7S 7H 7D", "meld 9S 9H 9C")
    assert listed(g, "meld") == []                                       # Q Q Q is a set, but not now
    assert_illegal(g, "meld QC QC QS")
    assert listed(g, "layoff") == ["layoff 9D on 2"]


def test_CR_DOWN_4_down_on_the_first_turn_melds_stay_open_to_anyone_down():
    g = new_game({A: ["7C", "7C", "7S", "9C", "9C", "9S", "KH", "KD", "2H", "3S"],
                  B: ["QC", "QC", "QS", "JC", "JC", "JS", "7H", "9H", "2D", "3D"]}, after=["5D", "4S", "6H"])
    act(g, "draw stock", "meld 7C 7C 7S", "meld 9C 9C 9S", "discard 4S")
    g.apply("draw stock")
    pass_buys(g)
    act(g, "meld QC QC QS", "meld JC JC JS")
    assert {"layoff 7H on 1", "layoff 9H on 2"} <= set(listed(g, "layoff"))   # CR-LAYOFF-2: same turn
    act(g, "layoff 7H on 1", "layoff 9H on 2")
    assert table_melds(g)[0]["cards"][-1] == "7H" and table_melds(g)[0]["placed_by"][-1] == B
    assert table_melds(g)[0]["owner"] == A


# ==================================================================================================
# Laying off
# ==================================================================================================

def test_CR_LAYOFF_1_a_down_player_lays_off_onto_any_meld_in_a_later_turn():
    g = new_game({A: ["7C", "7C", "7S", "9C", "9C", "9S", "KH", "KD", "2H", "JC"],
                  B: ["QC", "QC", "QS", "JS", "JH", "JD", "4H", "5D", "2D", "3D"],
                  D: ["QH"]}, after=["5H", "4S", "6H", "8S", "8D", "QD"])
    act(g, "draw stock", "meld 7C 7C 7S", "meld 9C 9C 9S", "discard 4S")
    g.apply("draw stock")
    pass_buys(g)
    act(g, "meld QC QC QS", "meld JS JH JD", "discard 6H")
    turn(g)                                                               # C
    turn(g, discard="QH")                                                 # D throws a queen
    assert g.current_player == A
    g.apply("take discard")
    assert "layoff QH on 3" in legal(g) and "layoff JC on 4" in legal(g)  # onto B's melds
    act(g, "layoff QH on 3", "layoff JC on 4")
    assert table_melds(g)[2]["owner"] == B and table_melds(g)[2]["placed_by"][-1] == A


def test_CR_LAYOFF_3_a_layoff_must_fit_and_melds_are_never_merged():
    g, p = at_deal(3, ["5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "4H", "KD"], "KH")
    act(g, "meld 5H 6H 7H 8H", "meld 9H 10H JH QH")
    lay = set(listed(g, "layoff"))
    # 4H extends the first run downwards, KH the second upwards; nothing joins the two runs
    assert lay == {"layoff 4H on 1", "layoff KH on 2"}
    assert_illegal(g, "layoff KD on 2")
    assert_illegal(g, "layoff 4H on 2")
    act(g, "layoff 4H on 1", "layoff KH on 2")
    assert [len(x["cards"]) for x in table_melds(g)] == [5, 5]


def test_CR_LAYOFF_3_wild_cards_are_laid_off_onto_sets_and_runs():
    g, p = at_deal(2, ["7S", "7H", "7D", "4C", "5C", "6C", "7C", JOKER, "2D", "KD"], "3S")
    act(g, "meld 7S 7H 7D", "meld 4C 5C 6C 7C")
    lay = set(listed(g, "layoff"))
    assert {"layoff Jk=3C on 2", "layoff Jk=8C on 2"} <= lay               # either end of the run
    assert any(a.startswith("layoff Jk=7") and a.endswith("on 1") for a in lay)   # a seven on the set


def test_CR_LAYOFF_4_joker_shift_is_not_supported():
    # A's run 4H 5H 6H Jk=7H; later A draws 7H.  The draft's shift would put 7H in place of the joker and
    # move the joker to an end; the ruleset offers no such action: 7H fits neither end, so it can only be
    # discarded, and the joker stays where it is.
    g, p = at_deal(3, ["4H", "5H", "6H", JOKER, "9S", "10S", "JS", "QS", "3H", "KC"], "2D",
                   more=("4S", "4D", "4C", "7H"))
    act(g, "meld 9S 10S JS QS", "meld 4H 5H 6H Jk=7H", "discard KC")
    turn(g), turn(g), turn(g)
    assert g.current_player == p
    g.apply("draw stock")
    pass_buys(g)
    assert "7H" in g.hand_of(p)
    assert [a for a in legal(g) if "7H" in a.split()[1]] == ["discard 7H"]
    assert "layoff 3H on 2" in legal(g)                                   # an ordinary layoff still fits
    assert table_melds(g)[1]["cards"] == ["4H", "5H", "6H", "Jk=7H"]


# ==================================================================================================
# Buying
# ==================================================================================================

HAND_A = ["3S", "5H", "8D", "JC", "KS", "2H", "4D", "6C", "9S", "QH"]


def test_CR_BUY_1_next_players_own_take_is_a_normal_draw_and_the_first_upcard_is_not_bought():
    g = new_game({A: HAND_A}, after=["7H", "AS", "AH"])
    g.apply("draw stock")                                                # the first upcard: no buy window
    assert phase(g) == "turn" and g.current_player == A
    g.apply("discard KS")
    g.apply("take discard")                                              # B takes A's discard: no buy, no penalty
    assert phase(g) == "turn" and g.current_player == B
    assert "KS" in g.hand_of(B) and len(g.hand_of(B)) == 11 and stock_count(g) == 64


def test_CR_BUY_2_window_after_a_stock_draw_asks_in_turn_from_the_drawer_without_the_discarder():
    g = new_game({A: HAND_A}, after=["7H", "AS", "AH", "AD"])
    act(g, "draw stock", "discard KS", "draw stock")
    assert phase(g) == "claim" and g.view(C)["claim"]["kind"] == "buy"
    assert g.current_player == C and legal(g) == ["claim discard 1", "pass"]
    g.apply("pass")
    assert g.current_player == D and phase(g) == "claim"
    g.apply("pass")
    assert g.current_player == B and phase(g) == "turn"                  # A (the discarder) is never asked
    assert "AH" in g.hand_of(B) and top(g) == "KS"
    # three players: only the third is asked
    g = new_game({A: HAND_A}, n=3, dealer=C, after=["7H", "AS", "AH", "AD"])
    act(g, "draw stock", "discard KS", "draw stock")
    assert g.current_player == C
    g.apply("pass")
    assert g.current_player == B and phase(g) == "turn"


def test_CR_BUY_2_first_asked_who_buys_takes_it_the_rest_are_not_asked():
    g = new_game({A: HAND_A}, after=["7H", "AS", "AH", "AD"])
    act(g, "draw stock", "discard KS", "draw stock", "pass")
    assert g.current_player == D
    g.apply("claim discard 1")
    assert "KS" in g.hand_of(D) and g.current_player == B and phase(g) == "turn"
    g = new_game({A: HAND_A}, after=["7H", "AS", "AH", "AD"])
    act(g, "draw stock", "discard KS", "draw stock", "claim discard 1")   # C buys: D is not asked
    assert g.current_player == B and phase(g) == "turn" and "KS" in g.hand_of(C)


def test_CR_BUY_3_4_buyer_gets_the_upcard_and_the_next_stock_card_the_drawer_plays_on():
    g = new_game({A: HAND_A}, after=["7H", "AS", "AH", "AD", "AC"])
    before_c = Counter(g.hand_of(C))
    act(g, "draw stock", "discard KS", "draw stock")                     # B drew AH; the window opens after
    before_b = Counter(g.hand_of(B))
    g.apply("claim discard 1")
    assert Counter(g.hand_of(C)) - before_c == Counter(["KS", "AD"])    # the upcard, then the penalty card
    assert len(g.hand_of(C)) == 12                                       # the buyer does not discard
    assert Counter(g.hand_of(B)) == before_b and "AH" in g.hand_of(B)    # the drawer's draw came first
    assert top(g) == "7H" and stock_count(g) == 65 - 3
    assert g.current_player == B and phase(g) == "turn"
    assert listed(g, "discard") and "take discard" not in legal(g)      # B goes on with the play step
    g.apply("discard AH")
    assert g.current_player == C and len(g.hand_of(C)) == 12            # C's own turn comes as usual
    assert legal(g) == ["draw stock", "take discard"]


def test_CR_BUY_5_at_most_three_buys_a_deal_counted_per_seat():
    g = new_game({A: HAND_A}, after=["7H"])
    turn(g)                                                               # A
    for k in range(3):
        assert turn(g, buyer=C) == [C]                                    # B draws; C buys at once
        assert g.counters["buys"][C] == k + 1
        turn(g), turn(g), turn(g)                                         # C, D, A
    assert turn(g, buyer=C) == [D]                                        # C has bought three times
    assert len(g.hand_of(C)) == 10 + 3 * 2


def test_CR_BUY_5_buy_count_resets_with_the_deal():
    hand, drawn, script = QUICK_OUT[1]
    g = new_game({A: hand}, after=["5D", "KD", "4H", "4D", "4S", "4C", drawn])
    act(g, "draw stock", "discard KD")
    assert turn(g, buyer=C) == [C]                                        # B draws 4H; C buys KD + 4D
    assert g.counters["buys"] == [0, 0, 1, 0]
    turn(g), turn(g)                                                      # C, D
    assert g.current_player == A
    c_hand = list(g.hand_of(C))
    assert "KD" in c_hand and "4D" in c_hand                              # the bought card and the penalty
    g.apply("draw stock")
    pass_buys(g)
    act(g, *script)
    assert g.hand_number == 2 and g.counters["buys"] == [0, 0, 0, 0]
    assert g.hand_log[0]["declarer"] == A and g.scores[C] == -hand_value(c_hand)


def test_CR_BUY_6_a_player_who_is_down_is_not_asked():
    g = new_game({A: HAND_A, C: ["7C", "7C", "7S", "9C", "9C", "9S", "KH", "KD", "2H", "3S"]},
                 after=["7H"])
    turn(g), turn(g)                                                      # A, B
    g.apply("draw stock")
    pass_buys(g)
    act(g, "meld 7C 7C 7S", "meld 9C 9C 9S", "discard KH")               # C goes down
    turn(g), turn(g)                                                      # D, A
    assert turn(g) == [D]                                                 # B draws: C is down, D is asked
    turn(g)                                                               # C (down) may still draw ...
    assert g.current_player == D
    g.apply("take discard")                                               # ... and others take as usual
    assert phase(g) == "turn"


def test_CR_BUY_7_no_buy_unless_the_stock_holds_the_penalty_card():
    g = new_game({}, n=4)
    while stock_count(g) > 2:
        turn(g)
    assert stock_count(g) == 2
    g.apply("draw stock")                                                 # 1 left: a buy may happen
    assert phase(g) == "claim"
    pass_buys(g)
    g.apply("discard " + discards(g)[0])
    g.apply("draw stock")                                                 # 0 left: no window
    assert phase(g) == "turn" and stock_count(g) == 0


# ==================================================================================================
# Going out
# ==================================================================================================

def test_CR_OUT_1_2_going_out_by_discarding_the_last_card():
    hand, drawn, script = QUICK_OUT[1]
    g = new_game({A: hand}, after=["5D", drawn])
    act(g, "draw stock", *script[:-1])
    assert g.hand_of(A) == ["QC"] and legal(g) == ["discard QC"]
    g.apply("discard QC")
    assert g.hand_number == 2 and g.hand_log[0]["ending"] == "out_by_discard" and g.hand_log[0]["declarer"] == A


def test_CR_OUT_1_2_going_out_by_laying_off_the_last_card():
    hand, _, script = QUICK_OUT[1]
    g = new_game({A: hand}, after=["5D", "7S"])
    act(g, "draw stock", *script[:-1])
    assert g.hand_of(A) == ["7S"] and "layoff 7S on 1" in legal(g)
    g.apply("layoff 7S on 1")                                             # the hand is empty: out, no discard
    assert g.hand_number == 2 and g.hand_log[0]["ending"] == "out_by_layoff" and g.hand_log[0]["declarer"] == A
    assert g.scores[A] == 0


def test_CR_OUT_3_down_and_out_in_one_turn_deal_7_three_runs_and_a_discard():
    hand, drawn, _ = QUICK_OUT[7]
    g = reach_deal(7, 4, {first_of(7): hand}, [QUICK_UPCARD, drawn])
    assert len(g.hand_of(first_of(7))) == 12
    play_quick_out(g, 7, 4)
    assert g.hand_log[-1]["ending"] == "out_by_discard" and g.is_over


def test_CR_OUT_4_the_deal_ends_at_once_when_a_player_goes_out():
    hand, drawn, script = QUICK_OUT[1]
    g = new_game({A: hand}, after=["5D", drawn])
    others = {s: list(g.hand_of(s)) for s in (B, C, D)}
    act(g, "draw stock", *script)
    assert g.hand_number == 2 and g.view(0)["dealer"] == A and g.current_player == B
    assert len(g.hand_log) == 1
    deltas = {s: g.scores[s] for s in (B, C, D)}
    assert deltas == {s: -hand_value(others[s]) for s in (B, C, D)}     # nobody played after A went out


# ==================================================================================================
# Scoring
# ==================================================================================================

def test_CR_SCORE_2_card_values():
    assert [value(c) for c in ["AS", JOKER, "KH", "QD", "JC", "10S", "9H", "2D"]] == [15, 15, 10, 10, 10, 10, 9, 2]
    hand, drawn, script = QUICK_OUT[1]
    b = ["AS", JOKER, "KH", "QD", "JC", "10S", "9H", "2D", "5S", "3H"]
    c = ["AH", "AD", "AC", "KS", "KD", "2S", "2H", "3D", "3C", "4S"]
    g = new_game({A: hand, B: b, C: c}, after=["5D", drawn])
    act(g, "draw stock", *script)
    assert g.scores[B] == -(15 + 15 + 10 + 10 + 10 + 10 + 9 + 2 + 5 + 3)
    assert g.scores[C] == -(15 * 3 + 10 + 10 + 2 + 2 + 3 + 3 + 4)
    assert g.scores[A] == 0


def test_CR_SCORE_1_a_down_player_counts_only_the_cards_in_hand():
    a_hand = ["7C", "7C", "7S", "9C", "9C", "9S", "7H", "7D", "9H", "KD"]
    b_hand = ["QC", "QC", "QS", "JC", "JC", "JS", "AS", "AH", "2D", "3D"]
    g = new_game({A: a_hand, B: b_hand}, after=["5D", "4S", "6H", "8S", "8D", "9D"])
    act(g, "draw stock", "meld 7C 7C 7S", "meld 9C 9C 9S", "layoff 7H on 1", "layoff 7D on 1",
        "discard 4S")                                                     # A keeps 9H KD
    g.apply("draw stock")
    pass_buys(g)
    act(g, "meld QC QC QS", "meld JC JC JS", "discard 6H")               # B down, keeps AS AH 2D 3D
    turn(g)                                                               # C draws 8S
    turn(g)                                                               # D draws 8D
    c_hand, d_hand = list(g.hand_of(C)), list(g.hand_of(D))
    g.apply("draw stock")                                                 # A draws 9D
    pass_buys(g)
    act(g, "layoff 9H on 2", "layoff 9D on 2", "discard KD")              # A out
    assert g.hand_number == 2
    expected = [0, -hand_value(["AS", "AH", "2D", "3D"]), -hand_value(c_hand), -hand_value(d_hand)]
    assert g.scores == expected                                           # B's six melded cards do not count
    assert g.hand_log[0]["points"] == sum(expected)


# ==================================================================================================
# Match end
# ==================================================================================================

def _tie_decks(n: int, first_dealer: int, lower_seat0_in_deal7: bool) -> tuple:
    """Seven quick deals in which the three players who do not go out hold one rank list each in S, H, D
    (the same value); with 4 players and the first dealer D, A, B and C tie and D is last."""
    decks = []
    for k in range(1, 8):
        dealer = dealer_of(k, n, first_dealer)
        first = (dealer + 1) % n
        ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "K"] + (["J", "Q"] if k >= 5 else [])
        others = {}
        for s, su in zip([x for x in range(n) if x != first], "SHD"):
            others[s] = [r + su for r in ranks]
        if lower_seat0_in_deal7 and k == 7:
            others[A] = [c if c != "KS" else "4H" for c in others[A]]
        decks.append(quick_deck(k, n, dealer, others))
    return decks


@pytest.mark.parametrize("lower", [False, True])
def test_CR_END_1_2_after_seven_deals_the_lowest_penalty_wins_ties_share(lower):
    n = 4
    decks = _tie_decks(n, D, lower)
    g = rules().new_game(players=n, seed=0, dealer=D, deck=decks[0], decks=decks[1:])
    totals = [0] * n
    for k in range(1, 8):
        first = (dealer_of(k, n, D) + 1) % n
        hands = {s: list(g.hand_of(s)) for s in range(n)}
        play_quick_out(g, k, n)
        for s in range(n):
            if s != first:
                totals[s] -= hand_value(hands[s])
        assert g.scores == totals                                          # CR-SCORE-3: running totals
        assert g.is_over == (k == 7)
    if lower:
        assert totals == [-354, -360, -360, -444] and g.winner == A
    else:
        assert totals == [-360, -360, -360, -444] and g.winner is None     # A, B and C share the win
    assert g.legal_actions() == [] and g.current_player is None


# ==================================================================================================
# Edge cases
# ==================================================================================================

def test_CR_EDGE_1_a_joker_upcard_may_be_taken_and_a_discarded_joker_bought():
    g = new_game({A: HAND_A}, after=[JOKER, "AS"])
    assert "take discard" in legal(g)
    g.apply("take discard")
    assert JOKER in g.hand_of(A) and JOKER not in discards(g)
    g = new_game({A: HAND_A[:9] + [JOKER]}, after=["7H", "AS", "AH", "AD"])
    act(g, "draw stock", "discard Jk", "draw stock", "claim discard 1")
    assert JOKER in g.hand_of(C)


def test_CR_EDGE_2_3_a_run_with_a_joker_grows_at_either_end_and_an_ace_ends_a_run():
    g, p = at_deal(3, ["JH", "QH", "KH", JOKER, "5S", "6S", "7S", "8S", "10H", "4S"], "9S")
    act(g, "meld JH QH KH Jk=AH", "meld 5S 6S 7S 8S")
    lay = set(listed(g, "layoff"))
    assert "layoff 10H on 1" in lay                                      # J-Q-K-A grows only downwards
    assert {"layoff 4S on 2", "layoff 9S on 2"} <= lay                    # either end of 5-8S
    g.apply("layoff 4S on 2")
    assert table_melds(g)[1]["cards"][0] == "4S"


def test_CR_EDGE_3_no_wrap_a_two_does_not_extend_j_q_k_a():
    g, p = at_deal(3, ["JH", "QH", "KH", "AH", "5S", "6S", "7S", "8S", "2H", "3D"], "4D")
    act(g, "meld JH QH KH AH", "meld 5S 6S 7S 8S")
    assert not any(a.startswith("layoff 2H") for a in legal(g))
    assert_illegal(g, "layoff 2H on 1")


def test_CR_EDGE_4_down_player_with_one_unfit_card_discards_it_to_go_out():
    g = new_game({A: ["7C", "7C", "7S", "9C", "9C", "9S", "7H", "7D", "9H", "KD"]},
                 after=["5D", "7S", "4S", "4H", "4D", "KH"])
    act(g, "draw stock", "meld 7C 7C 7S", "meld 9C 9C 9S", "layoff 7H on 1", "layoff 7D on 1",
        "layoff 7S on 1", "discard KD")
    assert g.hand_of(A) == ["9H"]
    turn(g), turn(g), turn(g)
    g.apply("draw stock")                                                  # A draws KH, which fits nowhere
    pass_buys(g)
    assert set(legal(g)) == {"layoff 9H on 2", "discard 9H", "discard KH"}
    act(g, "layoff 9H on 2", "discard KH")
    assert g.hand_log[0]["declarer"] == A and g.hand_number == 2


def test_CR_EDGE_4_no_layoff_that_would_leave_only_the_taken_upcard():
    g = new_game({A: ["7C", "7C", "7S", "9C", "9C", "9S", "7H", "7D", "9H", "KD"], D: ["KH"]},
                 after=["5D", "7S", "4S", "4H", "4D"])
    act(g, "draw stock", "meld 7C 7C 7S", "meld 9C 9C 9S", "layoff 7H on 1", "layoff 7D on 1",
        "layoff 7S on 1", "discard KD")
    turn(g), turn(g), turn(g, discard="KH")
    g.apply("take discard")                                               # A: 9H + KH (KH may not go back)
    # laying off 9H would leave only KH, which could not be discarded: not offered
    assert legal(g) == ["discard 9H"]
    assert_illegal(g, "layoff 9H on 2")
    g.apply("discard 9H")
    assert g.hand_of(A) == ["KH"] and g.hand_number == 1 and g.current_player == B


def test_CR_EDGE_5_nothing_to_shuffle_ends_the_deal_and_it_is_scored():
    # five players, no buy limit: the stock (108 cards) drains two cards a turn while the pile stays at one
    n = 5
    g = new_game({}, n=n, variant="unlimited_buys")
    assert stock_count(g) == 159 - 50 - 1 == 108
    g.apply("take discard")
    g.apply("discard " + discards(g)[0])
    while True:
        me = g.current_player
        assert pile_count(g) == 1
        last = stock_count(g) == 2
        g.apply("draw stock")
        assert phase(g) == "claim"
        g.apply("claim discard 1")
        assert pile_count(g) == 0 and g.current_player == me
        card = discards(g)[0]
        if last:
            hands = {s: Counter(g.hand_of(s)) for s in range(n)}
            hands[me] -= Counter([card])
            g.apply(f"discard {card}")
            break
        g.apply(f"discard {card}")
    assert g.hand_number == 2 and g.hand_log[0]["ending"] == "no_cards_left"
    assert g.scores == [-hand_value(list(hands[s].elements())) for s in range(n)]


# ==================================================================================================
# Variants
# ==================================================================================================

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_VARIANTS_files_set_their_parameters(variant):
    assert dict(rules(variant).params) == {**DEFAULTS, **VARIANT_PARAMS[variant]}


def test_CR_VAR_6_unlimited_buys():
    g = new_game({A: HAND_A}, after=["7H"], variant="unlimited_buys")
    turn(g)
    for k in range(4):
        assert turn(g, buyer=C) == [C]
        turn(g), turn(g), turn(g)
    assert g.counters["buys"][C] == 4 and len(g.hand_of(C)) == 18


def test_CR_VAR_7_two_penalty_cards():
    g = new_game({A: HAND_A}, after=["7H", "AS", "AH", "AD", "AC", "2S"], variant="two_penalty_cards")
    before = Counter(g.hand_of(C))
    act(g, "draw stock", "discard KS", "draw stock", "claim discard 1")
    assert Counter(g.hand_of(C)) - before == Counter(["KS", "AD", "AC"])
    assert stock_count(g) == 65 - 4 and g.current_player == B
    # the window needs two cards in the stock after the draw
    g = new_game({}, variant="two_penalty_cards")
    while stock_count(g) > 3:
        turn(g)
    g.apply("draw stock")                                                 # 2 left: a buy may happen
    assert phase(g) == "claim"
    pass_buys(g)
    g.apply("discard " + discards(g)[0])
    g.apply("draw stock")                                                 # 1 left: no window
    assert phase(g) == "turn" and stock_count(g) == 1


def test_CR_VAR_8_buy_when_down():
    g = new_game({A: HAND_A, C: ["7C", "7C", "7S", "9C", "9C", "9S", "KH", "KD", "2H", "3S"]},
                 after=["7H"], variant="buy_when_down")
    turn(g), turn(g)
    g.apply("draw stock")
    pass_buys(g)
    act(g, "meld 7C 7C 7S", "meld 9C 9C 9S", "discard KH")
    turn(g), turn(g)
    assert turn(g, buyer=C) == [C]                                        # C is down, and still buys


def test_CR_VAR_3_deuces_wild():
    g, p = at_deal(1, ["7S", "7H", "2C", "9C", "9S", "2D", "2H", "4D", "6H", "KC"], "3D", variant="deuces_wild")
    melds = set(listed(g, "meld"))
    assert "meld 7S 7H 2C=7S" in melds and "meld 9S 9C 2D=9S" in melds   # a 2 completes a set
    # every 2 is wild, even standing for a 2: three 2s have no natural card and make no set
    assert not any(all(w.startswith("2") for w in a.split()[1:]) for a in melds)
    assert_illegal(g, "meld 2C 2D 2H")
    # in the base game the 2s are plain cards
    g, p = at_deal(1, ["7S", "7H", "2C", "9C", "9S", "2D", "2H", "4D", "6H", "KC"], "3D")
    assert {norm(a) for a in listed(g, "meld")} == set()                   # 2C 2D 2H alone: no second set
    g, p = at_deal(1, ["7S", "7H", "2C", "9C", "9S", "9H", "2H", "4D", "6H", "KC"], "2D")
    assert m("2C", "2D", "2H") in listed_melds(g)


def test_CR_VAR_3_deuces_wild_a_two_scores_as_a_joker():
    hand, drawn, script = QUICK_OUT[1]
    b = ["2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C", "4S", "4H"]
    g = new_game({A: hand, B: b}, after=["5D", drawn], variant="deuces_wild")
    act(g, "draw stock", *script)
    assert g.scores[B] == -(15 * 4 + 3 * 4 + 4 * 2)           # a wild 2 left in hand counts 15
