"""Conformance: `bidding` (docs/language.md, "bidding: an auction before play").

Each test plays a tiny ruleset with an auction before trick play on a stacked deal and checks the bids
offered, the order of bidders, what the calls count as and what the view shows, as the docs say."""

from __future__ import annotations

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import dealt, game, legal, rules

RANKS = ["2", "3", "4", "5", "6"]
SUITS = ["S", "H", "D"]
DECK = [r + s for s in SUITS for r in RANKS]
# Dealer 0: seat 1 is dealt 4S 5D 3D, seat 2 2S 6S 4D, seat 0 5S 2D 6D (one card at a time, seat 1 first).
HANDS = {1: ["4S", "5D", "3D"], 2: ["2S", "6S", "4D"], 0: ["5S", "2D", "6D"]}


def stacked(hands: dict = HANDS, players: int = 3, dealer: int = 0) -> list:
    return dealt({s: hands[s] for s in range(players)}, DECK, dealer)


def ruleset(bidding: str, tricks: str = "", scoring: str = "  each_player: 0\n") -> str:
    """A one-deal trick game of three cards each, with ``bidding`` the lines under `bidding:`."""
    return ("name: bidding conformance\nplayers: 3\n"
            "deck: {ranks: [2, 3, 4, 5, 6], suits: [S, H, D]}\n"
            "zones:\n  stock: {visible: none}\n  hand: {per: player, visible: owner}\n"
            "  trick: {visible: all}\n  taken: {per: player, visible: all}\n"
            "deal:\n  - {deal: 3, to: hand}\n"
            "bidding:\n" + (bidding or "  min: 0\n") +
            "tricks:\n  first_leader: next_seat(dealer)\n" + tricks +
            "scoring:\n" + scoring +
            "match:\n  ends_when: deal.number >= 1\n  on_tie: shared\n")


def bids(*numbers) -> list:
    return [f"bid {n}" for n in numbers]


@documents("bidding", "bidding.first", "bidding.min", "bidding.max")
def test_each_seat_bids_once_in_turn_from_the_dealers_left_then_play_begins():
    """"Each seat bids once, in turn from `first`" (default `next_seat(dealer)`), a number "from min to max
    (default 0 to the cards in hand)"; bids are public (`view()["bids"]`).  "Then play begins": the first
    leader plays."""
    g = game(ruleset(""), deck=stacked(), dealer=0)
    assert g.view(0)["phase"] == "bid"
    assert g.current_player == 1
    assert legal(g) == bids(0, 1, 2, 3)
    assert g.view(0)["bids"] == [None, None, None]
    g.apply("bid 2")
    assert g.current_player == 2
    assert [g.view(s)["bids"] for s in range(3)] == [[None, 2, None]] * 3
    g.apply("bid 0")
    assert g.current_player == 0
    g.apply("bid 3")
    assert g.view(1)["bids"] == [3, 2, 0]
    assert g.view(0)["phase"] == "tricks" and g.current_player == 1
    assert sorted(legal(g)) == ["play 3D", "play 4S", "play 5D"]


@documents("bidding.first")
def test_first_names_the_seat_that_bids_first():
    """`first:` the seat that bids first; the others follow in turn to the left."""
    g = game(ruleset("  first: seat_after(dealer, 2)\n"), deck=stacked(), dealer=0)
    order = []
    while g.view(0)["phase"] == "bid":
        order.append(g.current_player)
        g.apply("bid 1")
    assert order == [2, 0, 1]


@documents("bidding.min", "bidding.max")
def test_min_and_max_bound_the_numbers_offered():
    """"Numbers from min to max": `min: 1`, `max: 2` offer `bid 1` and `bid 2` only, and a number outside
    them is refused, leaving the game as it was."""
    g = game(ruleset("  min: 1\n  max: 2\n"), deck=stacked(), dealer=0)
    assert legal(g) == bids(1, 2)
    for outside in ("bid 0", "bid 3"):
        with pytest.raises(rulesdsl.IllegalAction):
            g.apply(outside)
    assert g.history == [] and g.current_player == 1


@documents("bidding.max")
def test_max_is_an_expression_read_for_each_bidder():
    """`max` is an expression: `max: 'if player == dealer then 1 else 2'` gives the dealer 0..1, the others
    0..2."""
    g = game(ruleset("  max: 'if player == dealer then 1 else 2'\n"), deck=stacked(), dealer=0)
    assert legal(g) == bids(0, 1, 2)
    g.apply("bid 0")
    assert legal(g) == bids(0, 1, 2)
    g.apply("bid 0")
    assert g.current_player == 0 and legal(g) == bids(0, 1)


@documents("bidding.allowed")
def test_allowed_judges_each_amount_the_last_bid_may_not_make_the_tricks():
    """`allowed` over `amount` (the number judged), `bids_total` and `bids_made`: "the last bid may not fit
    exactly".  With three cards each and bids of 1 and 1, the last bidder may not bid 1."""
    text = ruleset("  allowed: 'bids_made < players - 1 or bids_total + amount != count(hand)'\n")
    g = game(text, deck=stacked(), dealer=0)
    g.apply("bid 1")
    assert legal(g) == bids(0, 1, 2, 3)
    g.apply("bid 1")
    assert legal(g) == bids(0, 2, 3)
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply("bid 1")
    g.apply("bid 0")
    assert g.view(0)["bids"] == [0, 1, 1]


@documents("bidding.calls", "bidding.calls.*.value")
def test_a_call_counts_as_its_value_and_bid_call_names_it():
    """"`bid NAME` (a call while its `when` holds; it counts as `value` tricks)"; `bid(seat)` reads the
    tricks bid ("a call counts as its `value`") and `bid_call(seat)` the call's name, `""` for a number.
    `value` defaults to 0."""
    text = ruleset("  min: 1\n  calls:\n    nil: {}\n    grand: {value: 3}\n",
                   scoring="  each_player: '100 * bid(player) + (if bid_call(player) == \"\" then 1 else if "
                           "bid_call(player) == \"nil\" then 2 else 3)'\n")
    g = game(text, deck=stacked(), dealer=0)
    assert sorted(legal(g)) == sorted(bids(1, 2, 3) + ["bid nil", "bid grand"])
    g.apply("bid grand")               # seat 1: 3 tricks
    g.apply("bid nil")                 # seat 2: 0 tricks
    g.apply("bid 2")                   # seat 0
    assert g.view(0)["bids"] == [2, "grand", "nil"]
    while not g.is_over:
        g.apply(legal(g)[0])
    assert g.scores == [201, 303, 2]


@documents("bidding.calls.*.when")
def test_a_call_is_offered_only_while_its_when_holds():
    """A call is offered "while its `when` holds": `when: player == dealer` offers `bid nil` to the dealer
    alone, and `when: bids_total >= 2` only once the bids so far add up to 2."""
    text = ruleset("  calls:\n    nil: {when: player == dealer}\n    double: {value: 4, when: bids_total >= 2}\n")
    g = game(text, deck=stacked(), dealer=0)
    assert legal(g) == bids(0, 1, 2, 3)
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply("bid nil")
    g.apply("bid 2")
    assert sorted(legal(g)) == sorted(bids(0, 1, 2, 3) + ["bid double"])
    g.apply("bid 0")
    assert sorted(legal(g)) == sorted(bids(0, 1, 2, 3) + ["bid nil", "bid double"])
    g.apply("bid double")
    assert g.view(0)["bids"] == ["double", 2, 0]


@documents("bidding.calls.*.blind")
def test_a_blind_call_is_made_before_looking_at_the_hand():
    """"A blind call is made before looking at the hand: a seat to which one is open at the start of the
    auction has its own hand hidden from it (`view()` withholds it) ... and chooses between its blind calls
    and `look`"; after looking it bids as anyone else (the blind call no longer offered)."""
    text = ruleset("  calls:\n    blind_nil: {blind: true, when: player == 2}\n    nil: {}\n")
    g = game(text, deck=stacked(), dealer=0)
    # seat 1: no blind call open, sees its hand and bids
    assert "cards" in g.view(1)["zones"]["hand"][1]
    assert "cards" not in g.view(2)["zones"]["hand"][2]
    assert sorted(legal(g)) == sorted(bids(0, 1, 2, 3) + ["bid nil"])
    g.apply("bid 1")
    assert g.current_player == 2
    assert sorted(legal(g)) == ["bid blind_nil", "look"]
    for unseen in ("bid 2", "bid nil", "play 2S"):                # a numbered bid needs a look first
        refused = g.refusal(unseen)
        assert refused.rule == "bidding.calls" and ("look at your hand first" in str(refused)
                                                    or "not open to you now" in str(refused)), str(refused)
    assert "look at your hand first" in str(g.refusal("bid 2"))
    g.apply("look")
    assert sorted(g.view(2)["zones"]["hand"][2]["cards"]) == ["2S", "4D", "6S"]
    assert g.current_player == 2
    assert sorted(legal(g)) == sorted(bids(0, 1, 2, 3) + ["bid nil"])
    refused = g.refusal("bid 9")                                  # looked: an ordinary refusal of a bid
    assert refused.rule == "bidding.allowed" and "not a bid you may make now" in str(refused)


@documents("bidding.calls.*.blind")
def test_the_encoding_tells_each_seat_who_has_looked_at_their_hand():
    """docs/encoding.md: `bids.looked` holds, for each seat from the observer, whether it has looked at
    its hand: 0 for a seat a blind call is open to until it looks, 1 after.  Catches the flags never
    filled (`view.get("looked") or ()` -> `and`)."""
    from conformance.test_encoding_observation_more import pieces

    text = ruleset("  calls:\n    blind_nil: {blind: true, when: player == 2}\n    nil: {}\n")
    g = game(text, deck=stacked(), dealer=0)
    g.apply("bid 1")
    r = rules(text)
    looked = lambda: {s: [int(x) for x in a] for s, a in pieces(r, g, "bids.looked").items()}
    before = looked()
    assert before[0][2] == 0 and before[2][0] == 0                 # seat 2, from seat 0 and from itself
    g.apply("look")
    after = looked()
    assert after[0][2] == 1 and after[2][0] == 1 and after[1][1] == 1


@documents("bidding.calls.*.blind")
def test_a_blind_call_made_unseen_counts_as_its_value():
    """The blind call itself is a bid like another: `bid blind_nil` (value 0 by default) is public in the
    view, and after it the seat sees its hand."""
    text = ruleset("  calls:\n    blind_nil: {blind: true, when: player == 2}\n",
                   scoring="  each_player: 'if bid_call(player) == \"blind_nil\" then 10 + bid(player) else 0'\n")
    g = game(text, deck=stacked(), dealer=0)
    g.apply("bid 1")
    g.apply("bid blind_nil")
    assert g.view(0)["bids"] == [None, 1, "blind_nil"]
    assert sorted(g.view(2)["zones"]["hand"][2]["cards"]) == ["2S", "4D", "6S"]
    g.apply("bid 0")
    while not g.is_over:
        g.apply(legal(g)[0])
    assert g.scores == [0, 0, 10]


@documents("bidding", "tricks.trump")
def test_a_trump_named_by_a_bid_is_judged_when_play_begins():
    """`trump`: "judged when play begins (after bids)"; "a trump named by a bid ... is an expression over
    `bid_call(...)`": the dealer's call `hearts` makes hearts trumps for the play."""
    text = ruleset("  calls:\n    hearts: {value: 2, when: player == dealer}\n",
                   tricks="  trump: 'if bid_call(dealer) == \"hearts\" then \"H\" else none'\n")
    hands = {1: ["6S", "2D", "3D"], 2: ["5S", "4D", "5D"], 0: ["2H", "6D", "3H"]}
    g = game(text, deck=stacked(hands), dealer=0)
    g.apply("bid 1")
    g.apply("bid 0")
    g.apply("bid hearts")
    assert g.view(0)["trick"]["trump"] == "H"
    g.apply("play 6S")
    g.apply("play 5S")
    g.apply("play 2H")                 # seat 0 trumps
    assert g.view(0)["trick"]["tricks_won"] == [1, 0, 0] and g.current_player == 0
    # with a number instead, no trumps: the 6S takes
    g = game(text, deck=stacked(hands), dealer=0)
    for b in ("bid 1", "bid 0", "bid 2"):
        g.apply(b)
    assert g.view(0)["trick"]["trump"] is None
    for c in ("play 6S", "play 5S", "play 2H"):
        g.apply(c)
    assert g.view(0)["trick"]["tricks_won"] == [0, 1, 0]


@documents("bidding.min", "bidding.max")
@pytest.mark.parametrize("bounds,shown", [
    ("  min: 'count(player.hand) * 100'\n  max: 'count(player.hand) * 100 + 2'\n", "bids from 300 to 302"),
    ("  min: '0 - count(player.hand)'\n  max: 1\n", "bids from -3 to 1"),
])
def test_bids_outside_0_to_200_are_a_located_error_in_play(bounds, shown):
    """docs/language.md, Limits: a bid is a number from 0 to the larger of 200 and the deck's size;
    bounds that read the play and fall outside are an `E-PLAY` error at `bidding.max`, never a listing
    the encoding cannot number."""
    with pytest.raises(rulesdsl.RuleEvaluationError) as stopped:
        game(ruleset(bounds), deck=stacked(), dealer=0).legal_actions()
    assert stopped.value.rule == "bidding.max" and shown in str(stopped.value)
    assert "a bid is a number from 0 to 200" in str(stopped.value)


@documents("bidding.calls.*.when", "tricks")
def test_trick_leader_is_none_in_each_auction_before_the_first_lead():
    """docs/language.md: `trick.leader` is who led the current trick -- in a deal's auction, before any
    lead, there is none, in the second deal as in the first.  A call open only then (`when: trick.leader ==
    none`) is offered in both auctions, and the view's trick names the seat that led.  Catches the last
    deal's leader kept into the next auction (the leader not reset with the deal)."""
    import random

    text = ruleset("  min: 0\n  calls:\n    opening: {when: 'trick.leader == none'}\n").replace(
        "ends_when: deal.number >= 1", "ends_when: deal.number >= 2")
    g = game(text, deck=stacked(), dealer=0)
    assert "bid opening" in legal(g)
    for _ in range(3):
        g.apply("bid 1")
    leader = g.current_player
    g.apply(legal(g)[0])
    assert g.view(0)["trick"]["leader"] == leader
    rng = random.Random(0)
    while g.hand_number == 1 and not g.is_over:
        moves = legal(g)
        g.apply(moves[rng.randrange(len(moves))])
    assert g.hand_number == 2 and g.view(0)["phase"] == "bid"
    assert "bid opening" in legal(g)
