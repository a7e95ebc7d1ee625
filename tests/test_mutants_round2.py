"""Tests that kill the second mutation-testing round's survivors: each checks documented behaviour
(docs/language.md, docs/api.md, docs/encoding.md) on a small ruleset or a bundled game, and its
docstring names the code mistake it catches."""

from __future__ import annotations

from conformance.play import game, legal
from conformance.test_tricks_play import ruleset as trick_ruleset, stacked as trick_stacked


# ------------------------------------------------------------------ encoding: broken suits

def test_hearts_observation_has_a_hearts_broken_feature_that_turns_on():
    """docs/encoding.md: a trick game's observation has `tricks.broken`, shape (names,), one flag per
    name under `broken:` (Hearts: `hearts`), set once such a card has been played.  Catches the layout
    dropping the `tricks.broken` piece (observation.py `if broken: self.flags("tricks.broken", ...)`
    deleted): the piece is missing and the feature is never written."""
    from rulesdsl.encoding.observation import fill
    from rulesdsl.encoding.setup import encode

    enc = encode("hearts")
    assert ("tricks.broken", (1,)) in tuple(enc.observation.pieces)
    g = enc.rules.new_game(seed=3)
    tensor = enc.observation.new_tensor()
    fill(enc.observation, tensor, g.view(0), [])
    assert list(enc.observation.views(tensor)["tricks.broken"]) == [0.0]      # nothing broken yet
    for _ in range(200):
        if (g.view(0).get("trick") or {}).get("broken", {}).get("hearts"):
            break
        g.apply(g.legal_actions()[0])
    assert g.view(0)["trick"]["broken"]["hearts"] is True
    fill(enc.observation, tensor, g.view(0), [])
    assert list(enc.observation.views(tensor)["tricks.broken"]) == [1.0]


# ------------------------------------------------------------------ view(): last_hands

def test_view_last_hands_keeps_the_tricks_per_seat_list():
    """docs/api.md: `view()` holds `last_hands`, the last hands' records (`hand_log`), a trick game's
    record holding `tricks` taken per seat (docs/language.md) -- a plain copy, equal to the record and
    not shared with it.  Catches `_plain_copy` turning lists into `None` (game.py
    `return [_plain_copy(v) for v in value]` -> `return None`)."""
    g = game(trick_ruleset(deals=2),
             trick_stacked({0: ["2S", "3S", "4S"], 1: ["5S", "6S", "2H"], 2: ["3H", "4H", "5H"]}))
    for _ in range(50):
        if g.is_over or g.view(0)["last_hands"]:
            break
        g.apply(g.legal_actions()[0])
    last = g.view(0)["last_hands"]
    assert len(last) == 1
    record = last[0]
    assert isinstance(record["tricks"], list) and sum(record["tricks"]) == 3
    assert record["tricks"] == list(g.hand_log[-1]["tricks"])
    assert record["deadwood"] == [0, 0, 0]
    record["tricks"].append(99)                                  # a copy: the game's log is untouched
    assert len(g.view(0)["last_hands"][0]["tricks"]) == 3


# ------------------------------------------------------------------ drawing: turn.taken

TAKE_TWO = """
name: take two
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
melds:
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: all}
  hand: {per: player, visible: owner}
deal: [{deal: 4, to: hand}, {turn_up: discard}, {turn_up: discard}]
table: {owner: player}
turn:
  - step: draw
    actions:
      - draw: stock
      - {take: discard, count: 2}
  - step: play
    actions:
      - {discard: discard, forbid: card == turn.taken}
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: 0 - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def _take_two_deck():
    seat1, seat0 = ["5S", "5H", "2D", "3C"], ["4H", "4D", "6D", "6C"]
    deck = []
    for a, b in zip(seat1, seat0):
        deck += [a, b]
    deck += ["3S", "5C"] + ["8S", "8D", "7D"]            # pile: 3S under 5C (5C on top)
    rest = [r + s for s in "SHDC" for r in "A 2 3 4 5 6 7 8".split()]
    for c in deck:
        rest.remove(c)
    return deck + rest


def test_turn_taken_is_the_top_card_when_two_are_taken():
    """docs/language.md: `turn.taken` is the card taken from a pile this turn; a `take:` with `count: 2`
    takes the top two and `turn.taken` is the top one (5C, over 3S), while `turn.taken_cards` holds
    both.  A discard `forbid: card == turn.taken` so refuses 5C and allows 3S.  Catches `take` keeping
    the deepest card (drawing.py `g.taken = cards[0]` -> `cards[-1]`)."""
    g = game(TAKE_TWO, _take_two_deck())
    seat = g.current_player
    assert "take discard" in legal(g)
    g.apply("take discard")
    assert {"3S", "5C"} <= set(g.hand_of(seat))
    acts = legal(g)
    assert "discard 5C" not in acts
    assert "discard 3S" in acts


# ------------------------------------------------------------------ determinize: a reshuffled stock

def test_a_stock_of_known_cards_after_a_reshuffle_is_dealt_again_in_a_new_order():
    """engine/determinize.py docs ("a stock made of known cards after a reshuffle keeps those cards, in a
    new order"; "a pile's order is what a reshuffle hides"): after `result: reshuffle` turned the seen
    discard pile into a new stock, `Game.determinize` keeps those cards in the stock but deals them again
    among its slots.  Catches the "known to be in this hand" skip being applied to table zones too
    (`spot[0][0] != "table"` -> `spot[0][-1] != "table"`): the stock would keep its real order in every
    sample, leaking the next draws to a search."""
    import random

    from conformance.test_endings_conformance import (DECK, END_AFTER_RESHUFFLE, RESHUFFLE, ruleset,
                                                      turn_of)

    g = game(ruleset(RESHUFFLE, extra_draw=END_AFTER_RESHUFFLE), deck=DECK, dealer=0)
    for seat in (1, 0, 1, 0, 1):
        turn_of(g, seat)
    assert g.current_player == 0 and len(g.zones["stock"]) == 5      # refilled from the pile
    real = list(g.zones["stock"])
    orders = set()
    for k in range(30):
        d = g.determinize(0, random.Random(k))
        assert sorted(d.zones["stock"]) == sorted(real)              # the same cards ...
        assert d.view(0) == g.view(0)
        orders.add(tuple(d.zones["stock"]))
    assert len(orders) > 5                                           # ... in new orders


# ------------------------------------------------------------------ books: going out by completing one

BOOKS_OUT = """
name: books out
players: 4
teams: {count: 2}
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: 1, values: {A: 1, joker: 20}}
wild: is_joker(card)
melds:
  group: {kind: group, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 4, to: hand}, {turn_up: discard}]
table:
  owner: team
  closes_at: 4
  books: {clean: wilds == 0, dirty: wilds > 0}
  going_out: {when: 'team_books(team_of(player), "clean") >= 1', needs_discard: true,
              keep_when_not_out: 2, permission: true}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {layoff: any}, {ask: partner}, {discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_team: melded_value(team)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def _books_out_deck():
    hands = {1: ["5S", "5H", "5D", "7S"], 0: ["4H", "4D", "6D", "6C"], 2: ["7H", "7D", "8D", "8C"],
             3: ["AH", "2H", "AD", "2D"]}
    deck = []
    for k in range(4):
        deck += [hands[(1 + i) % 4][k] for i in range(4)]
    deck += ["7C"] + ["8H", "6H", "3H", "3D", "5C"]          # the upcard, then the stock top first
    rest = [r + s for s in "SHDC" for r in "A 2 3 4 5 6 7 8".split()] + ["Jk"]
    for c in deck:
        rest.remove(c)
    return deck + rest


def test_completing_an_open_meld_into_a_book_with_a_natural_makes_going_out_askable():
    """docs/language.md, Partnerships: `ask: partner` is offered when going out could follow this
    turn's placements -- here laying the one natural 5C onto the team's open 5S 5H 5D completes a clean
    book (`closes_at: 4`), which the going-out condition asks for, then 7S is discarded.  Catches the
    book-type look-ahead skipping the completions of an open meld (partnership.py
    `range(w0, w0 + n_wild + 1)` -> `range(w0, w0 + n_wild - 1)`, empty with no wild in hand), which
    prunes the going out as inconceivable: no `ask`."""
    g = game(BOOKS_OUT, _books_out_deck(), dealer=0)
    g.apply("draw stock")                                    # seat 1: 8H
    g.apply("meld 5S 5H 5D")
    g.apply("discard 8H")
    for seat in (2, 3, 0):
        assert g.current_player == seat
        g.apply("draw stock")
        g.apply(f"discard {g.hand_of(seat)[0]}")
    g.apply("draw stock")                                    # seat 1: 5C
    assert sorted(g.hand_of(1)) == ["5C", "7S"]
    assert "ask" in legal(g)
    g.apply("ask")
    g.apply("yes")
    assert legal(g) == ["layoff 5C on 1"]
    g.apply("layoff 5C on 1")
    assert [m.get("book") for m in g.view(1)["melds"]] == ["clean"]
    g.apply("discard 7S")
    assert g.is_over and g.hand_log[-1]["declarer"] == 1


# ------------------------------------------------------------------ encoding: totals, relative to the seat

def test_the_observation_holds_the_totals_and_where_the_game_is_relative_to_the_seat():
    """docs/encoding.md: `scores`, `hands_won` (sides,) are the totals, and seats are relative to the
    observer (row 0 its own, then the next seat in turn); `hand_number`, `current_player` and `dealer`
    say where the game is.  Catches the totals not written (observation.py `v["scores"][r] = score`
    deleted, a survivor of the third round)."""
    import random
    from rulesdsl.encoding.observation import fill
    from rulesdsl.encoding.setup import encode

    enc = encode("gin_rummy")
    g = enc.rules.new_game(seed=5)
    rng = random.Random(5)
    for _ in range(20000):                        # until a hand has been scored
        if g.is_over or any(g.scores):
            break
        g.apply(rng.choice(g.legal_actions()))
    view = g.view(1)
    assert any(view["scores"]) and not g.is_over, "the position should have scores to show"
    tensor = enc.observation.new_tensor()
    fill(enc.observation, tensor, view, [])
    parts = enc.observation.views(tensor)
    n = view["players"]
    assert list(parts["scores"]) == [view["scores"][(1 + r) % n] for r in range(n)]
    assert list(parts["hands_won"]) == [view["hands_won"][(1 + r) % n] for r in range(n)]
    assert list(parts["hand_number"]) == [view["hand_number"]]
    assert list(parts["dealer"]) == [1.0 if (1 + r) % n == view["dealer"] else 0.0 for r in range(n)]
