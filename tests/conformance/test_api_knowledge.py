"""docs/api.md, "Determinizing: the worlds a seat cannot tell apart": `game.determinize(seat, rng)`.

The copy agrees with everything the seat has seen during the deal: every card it sees stays where it is,
so does every card it remembers in its exact place (the whole discard pile keeps its order); a card the
seat saw go into a hidden place stays there (the discard an opponent took is in that opponent's hand);
every other card may be anywhere hidden; zone sizes, scores, the turn and the seat's own view are
unchanged.  The copy depends only on what the seat knows, has no record, and can be determinized again
only for the same seat.
"""

from __future__ import annotations

import random
from collections import Counter
import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import game, legal

# Three players, twelve cards.  The turn-up covers an ace (`cover_while`), so the pile's bottom card was
# never shown to anyone; each turn is a draw from the stock or a take of the top N cards of the pile,
# then a discard.
PILE = """
    name: Pile memory
    players: 3
    deck: {ranks: [A, 2, 3, 4, 5, 6], suits: [S, H], values: {A: 1}}
    melds:
      set: {kind: set, min: 2, max: 2}
    table: {owner: player}
    zones:
      stock: {visible: none}
      discard: {visible: top}
      hand: {per: player, visible: owner}
    deal:
      - {deal: 2, to: hand}
      - {turn_up: discard, cover_while: 'rank(card) == "A"'}
    turn:
      - step: draw
        actions:
          - draw: stock
          - take: discard
            depth: any
            when: count(discard) >= 3
      - step: finish
        actions:
          - discard: discard
    stock_out: {when: count(stock) == 0, result: score}
    scoring:
      each_player: 0
    match: {ends_when: 'true', first_dealer: seat0}
"""

# dealer 0: seat 1 is dealt 2S 2H, seat 2 3S 3H, seat 0 4S 4H; AS is turned up and covered by 5H; the
# stock is 6S (top), 6H, AH, 5S
DECK = ["2S", "3S", "4S", "2H", "3H", "4H", "AS", "5H", "6S", "6H", "AH", "5S"]
ALL = set(DECK)


def hands(g) -> list:
    return [sorted(g.hand_of(s)) for s in range(3)]


def pile_game():
    """Seat 1 draws 6S and discards 2S, seat 2 draws 6H and discards 3H: the pile is AS (never shown),
    5H, 2S, 3H (top); seat 0 is on turn."""
    g = game(PILE, deck=DECK)
    assert hands(g) == [["4H", "4S"], ["2H", "2S"], ["3H", "3S"]]
    assert g.view(1)["zones"]["discard"] == {"count": 2, "top": "5H"}
    for a in ["draw stock", "discard 2S", "draw stock", "discard 3H"]:
        g.apply(a)
    assert g.current_player == 0 and "take discard 2" in legal(g)
    return g


def worlds(g, seat, n=40):
    return [g.determinize(seat, random.Random(i)) for i in range(n)]


@pytest.mark.parametrize("seat", [1, 2])
@documents("api:determinize")
def test_a_card_seen_under_the_top_of_the_pile_is_followed_into_the_hand_that_takes_it(seat):
    """The discard an opponent took is in that opponent's hand: seat 0 takes the top two cards (3H,
    and 2S under it, which both other seats saw land); in every world of seat 1 and of seat 2 both are
    in seat 0's hand, beside two of the cards that seat cannot place."""
    g = pile_game()
    g.apply("take discard 2")
    assert hands(g)[0] == ["2S", "3H", "4H", "4S"]
    assert g.view(seat)["zones"]["discard"] == {"count": 2, "top": "5H"}
    mine = set(g.hand_of(seat))
    for w in worlds(g, seat):
        assert {"2S", "3H"} <= set(w.hand_of(0)), w.hand_of(0)
        assert len(w.hand_of(0)) == 4
        assert set(w.hand_of(seat)) == mine
        assert w.view(seat) == g.view(seat)


@documents("api:determinize")
def test_the_whole_pile_keeps_its_order_in_every_world():
    """Each card of a discard pile was shown when it landed, so the pile keeps its order: in every
    world of seat 1, taking the top two cards takes 3H and 2S, and the top three adds 5H."""
    g = pile_game()
    for w in worlds(g, 1, 20):
        before = set(w.hand_of(0))
        w2 = w.clone()
        w.apply("take discard 2")
        assert set(w.hand_of(0)) - before == {"2S", "3H"}
        w2.apply("take discard 3")
        assert set(w2.hand_of(0)) - before == {"2S", "3H", "5H"}


@documents("api:determinize")
def test_cards_the_seat_never_saw_are_dealt_again_among_the_hidden_places():
    """Every other card may be anywhere hidden: seat 1 never saw 4S 4H (seat 0's hand), 3S (seat 2's
    last card), AS (under the pile) nor the stock's 6H.. (seat 2 drew 6H, seat 1 drew 6S itself).  Across
    worlds those cards change places, always the same cards in all, and each world keeps zone sizes,
    scores, the turn and seat 1's own view."""
    g = pile_game()
    known = set(g.hand_of(1)) | {"5H", "3H", "2S"}            # its hand, the pile's shown cards
    hidden = ALL - known
    assert hidden == {"4S", "4H", "3S", "AS", "6H", "AH", "5S"}
    seen_hands0 = set()
    for w in worlds(g, 1):
        assert w.view(1) == g.view(1)
        assert w.current_player == g.current_player and w.scores == g.scores
        assert [len(w.hand_of(s)) for s in range(3)] == [2, 2, 2]
        assert set(w.hand_of(1)) == set(g.hand_of(1))
        others = set(w.hand_of(0)) | set(w.hand_of(2))
        assert others <= hidden
        seen_hands0.add(tuple(sorted(w.hand_of(0))))
        w.apply("take discard 3")                              # lifts everything but the bottom card
        assert set(w.hand_of(0)) >= {"2S", "3H", "5H"}
    assert len(seen_hands0) > 3                                # dealt again, not copied


@documents("api:determinize")
def test_determinizing_depends_only_on_what_the_seat_knows():
    """Determinizing with the same rng gives the same world, and determinizing a determinized copy with
    the same rng gives the same world again; such a copy has no record and is determinized only for the
    same seat."""
    g = pile_game()
    a = g.determinize(1, random.Random(5))
    b = g.determinize(1, random.Random(5))
    assert hands(a) == hands(b)
    c = a.determinize(1, random.Random(5))
    assert hands(c) == hands(a)
    with pytest.raises(ValueError):
        a.record()
    with pytest.raises(ValueError):
        a.determinize(2, random.Random(5))
    assert hands(g) == [["4H", "4S"], ["2H", "6S"], ["3S", "6H"]]       # the game itself is untouched


@documents("api:determinize")
def test_hand_and_foot_a_taken_pile_stays_with_the_side_that_took_it():
    """Bundled Hand and Foot, seed 0: when a seat takes the pile, every card of it that the watching
    seats saw land (followed here from the pile's count and top in a view) and that is now in the
    taker's hand is, in each of their worlds, in the taker's hand."""
    r = rulesdsl.load("hand_and_foot")
    g = r.new_game(seed=0)
    rng = random.Random(0)
    watcher = None
    pile, count = [], None
    for _ in range(3000):
        if g.is_over or g.hand_number > 1:
            break
        v = g.view(0)
        d = v["zones"]["discard"]
        if count is None:
            pile, count = ([d["top"]] if d["count"] == 1 else None), d["count"]
        acts = legal(g)
        takes = [a for a in acts if a.startswith("take discard")]
        a = takes[0] if takes and pile is not None and len(pile) >= 3 else acts[rng.randrange(len(acts))]
        seat = g.current_player
        g.apply(a)
        d = g.view(0)["zones"]["discard"]
        if pile is not None:
            if d["count"] == count + 1:
                pile.append(d["top"])
            elif d["count"] < count:
                taken, pile = pile[d["count"]:], pile[:d["count"]]
                if a.startswith("take discard") and len(taken) >= 2:
                    watcher = (seat, taken)
                    break
            elif d["count"] != count:
                pile = None
        count = d["count"]
    assert watcher is not None, "no pile of two or more cards was taken"
    taker, taken = watcher
    held = Counter(g.hand_of(taker))
    kept = {c: min(n, held[c]) for c, n in Counter(taken).items()}    # (two decks: count copies)
    assert sum(kept.values()) >= 2
    for seat in range(4):
        if seat == taker:
            continue
        for w in worlds(g, seat, 15):
            assert w.view(seat) == g.view(seat)
            theirs = Counter(w.hand_of(taker))
            for c, n in kept.items():
                assert theirs[c] >= n, (seat, c, w.hand_of(taker))


# Three players, eight cards (two each, two left in a stock nobody draws from); before the first
# trick every seat, from the dealer's left, gives one card to the seat on its left.
PASS = """
    name: Pass one left
    players: 3
    deck: {ranks: [2, 3, 4, 5], suits: [S, H]}
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


def holders(w, card) -> tuple:
    return tuple(s for s in range(3) if card in w.hand_of(s))


@documents("api:determinize")
def test_a_card_given_away_is_in_the_receivers_hand_until_it_moves_unseen():
    """The cards the seat gave in an exchange are in the receiver's hand; once the receiver passes a
    card face down, the given card may be in any place it could have gone (the receiver's hand, or the
    hand it gave to), and never elsewhere.  Dealer 2: seat 0 holds 2S 2H and gives 2S to seat 1, who
    then gives 3S to seat 2."""
    g = game(PASS, deck=["2S", "3S", "4S", "2H", "3H", "4H", "5S", "5H"], dealer=2)
    assert g.current_player == 0 and legal(g) == ["give 2S", "give 2H"]
    g.apply("give 2S")
    assert all(holders(w, "2S") == (1,) for w in worlds(g, 0))
    g.apply("give 3S")
    places = {holders(w, "2S") for w in worlds(g, 0)}
    assert places == {(1,), (2,)}
