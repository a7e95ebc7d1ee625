"""docs/api.md: `game.record()`, `rulesdsl.replay(rec)` / `rules.replay(rec)` and `game.stack_next(d)`.

A record is "JSON-ready: ruleset (name, overrides, digest), players, seed, dealer, stacked decks, every
action's text -- a saved game"; replaying it gives "the same game in the same position"; a stacked deck
is dealt by "the next deal still to come", and the record keeps where it was stacked, so a replay deals
the same hands whether the deck was stacked before the first action, just before the action that ends
a hand, or after the last action.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import game, legal, rules

# Two players, six cards: two each, two in the stock.  A turn is a draw and a discard; the hand is
# scored once a turn ends with the stock empty (after four actions), each seat scoring what it holds.
QUICK = """
    name: Quick hands
    players: 2
    params:
      bonus: 0
    deck: {ranks: [A, 2, 3], suits: [S, H], values: {A: 1}}
    zones:
      stock: {visible: none}
      discard: {visible: top}
      hand: {per: player, visible: owner}
    deal:
      - {deal: 2, to: hand}
    turn:
      - step: draw
        actions:
          - draw: stock
      - step: finish
        actions:
          - discard: discard
    stock_out:
      when: count(stock) == 0
      result: score
    scoring:
      each_player: 'sum(value(c) for c in player.hand) + params.bonus'
    match:
      ends_when: deal.number >= 4
      first_dealer: seat0
"""

D1 = ["AS", "AH", "2S", "2H", "3S", "3H"]
D2 = ["3H", "3S", "2H", "2S", "AH", "AS"]
D3 = ["2S", "3H", "AS", "2H", "3S", "AH"]


def dealt(deck, n, dealer, size):
    """Seat -> the cards it is dealt (sorted), one at a time from the dealer's left (docs/api.md,
    "Stacked decks")."""
    hands = {s: [] for s in range(n)}
    for i in range(size * n):
        hands[(dealer + 1 + i) % n].append(deck[i])
    return {s: sorted(h) for s, h in hands.items()}


def hands(g) -> dict:
    """Seat -> the cards in its hand (sorted)."""
    return {s: sorted(g.hand_of(s)) for s in range(g.view(0)["players"])}


def snapshot(g) -> dict:
    """Everything a player or a watcher can observe of a game through the public API."""
    n = g.view(0)["players"]
    return copy.deepcopy(dict(
        views=[g.view(s) for s in range(n)], history=list(g.history), scores=list(g.scores),
        hands=[g.hand_of(s) for s in range(n)], hand_number=g.hand_number, hand_log=list(g.hand_log),
        current=g.current_player, legal=[str(a) for a in g.legal_actions()], is_over=g.is_over,
        winner=g.winner))


def first_action(g) -> str:
    return legal(g)[0]


def play_on(g, k: int) -> None:
    """The first listed action, ``k`` times (or until the match ends)."""
    for _ in range(k):
        if g.is_over:
            return
        g.apply(first_action(g))


@documents("api:record")
def test_a_record_names_ruleset_overrides_digest_players_seed_dealer_decks_and_every_action():
    """A record holds the ruleset (name, overrides, digest), players, seed, dealer, stacked decks and
    every action's text; it is JSON-ready, and replaying it under the same rules gives the same game in
    the same position."""
    r = rules(QUICK, overrides={"bonus": 5})
    g = r.new_game(seed=12345, deck=D1, dealer=0)
    assert g.current_player == 1                    # dealt first (2S, AS), and first to play
    for a in ["draw stock", "discard AS", "draw stock", "discard 3H"]:
        g.apply(a)
    # seat 1 keeps 2S 3S (2 + 3), seat 0 AH 2H (1 + 2), each plus the overridden bonus of 5
    assert g.hand_number == 2 and g.scores == [3 + 5, 5 + 5]
    play_on(g, 2)                                   # and two actions of the next hand
    rec = g.record()
    assert json.loads(json.dumps(rec)) == rec
    assert rec["ruleset"] == "conformance.yaml" and rec["overrides"] == {"bonus": 5}
    assert rec["digest"] == r.digest
    assert rec["players"] == 2 and rec["seed"] == 12345 and rec["dealer"] == 0
    assert rec["decks"] == [D1]
    assert rec["actions"] == g.history and len(rec["actions"]) == 6
    back = r.replay(json.loads(json.dumps(rec)))
    assert snapshot(back) == snapshot(g)


@documents("api:record")
def test_a_record_made_under_other_rules_is_refused():
    """Another digest (here: another override) or a bad record is a `rulesdsl.RecordError`."""
    g = rules(QUICK, overrides={"bonus": 5}).new_game(seed=1, deck=D1, dealer=0)
    play_on(g, 2)
    rec = g.record()
    with pytest.raises(rulesdsl.RecordError):
        rules(QUICK).replay(rec)
    same = rules(QUICK, overrides={"bonus": 5})
    for bad in (dict(rec, actions=rec["actions"] + ["discard 9S"]),     # an action that does not replay
                dict(rec, seed=True), dict(rec, actions="draw stock"),    # fields of the wrong type
                {k: v for k, v in rec.items() if k != "digest"}, [rec]):
        with pytest.raises(rulesdsl.RecordError):
            same.replay(bad)


@documents("api:record", "api:replay")
def test_a_bundled_record_replays_by_its_name_and_overrides():
    """`rulesdsl.replay(rec)` loads the ruleset the record names, with its overrides, and gives the
    same game in the same position; it then plays on exactly as the original."""
    r = rulesdsl.load("gin_rummy", overrides={"knock_limit": 5})
    g = r.new_game(seed=77)
    play_on(g, 5)
    rec = json.loads(json.dumps(g.record()))
    assert rec["ruleset"] == "gin_rummy" and rec["overrides"] == {"knock_limit": 5}
    back = rulesdsl.replay(rec)
    assert back.seed == 77 and back.history == g.history
    assert snapshot(back) == snapshot(g)
    play_on(g, 6)
    play_on(back, 6)
    assert snapshot(back) == snapshot(g)


def _quick_with_stack(where: str):
    """A QUICK game on D1 (dealer 0) whose deck D2 was stacked at ``where``: before the first action,
    just before the fourth action (the one that ends hand 1), or after the last action of the record
    (which stops after hand 1's four actions)."""
    g = game(QUICK, deck=D1, dealer=0, seed=9)
    if where == "start":
        g.stack_next(D2)
    play_on(g, 3)
    assert g.hand_number == 1
    if where == "before_end":
        g.stack_next(D2)
    g.apply(first_action(g))                       # the stock is empty: this action ends hand 1
    assert g.hand_number == 2 and len(g.history) == 4
    if where == "after_last":
        # the record stops here; stack the deck of the hand after the one being played
        g.stack_next(D3)
    return g


@pytest.mark.parametrize("where,before", [("start", 0), ("before_end", 3), ("after_last", 4)])
@documents("api:stack_next", "api:replay", "api:record")
def test_a_replay_deals_the_same_hands_wherever_the_deck_was_stacked(where, before):
    """`stack_next(d)` stacks the next deal still to come (not the hand in progress); the record keeps
    the stacked deck with the number of actions made before it, and replaying the record gives the same
    game in the same position, and the same hands from then on."""
    g = _quick_with_stack(where)
    stacked = D3 if where == "after_last" else D2
    rec = json.loads(json.dumps(g.record()))
    assert rec["stacks"] == [{"before": before, "deck": stacked}]
    if where != "after_last":
        # hand 2 came from D2; dealer 1 now (next_seat), so seat 0 is dealt first
        assert hands(g) == dealt(D2, 2, 1, 2)
    back = rules(QUICK).replay(rec)
    assert snapshot(back) == snapshot(g)
    for _ in range(4):                             # play hand 2 out on both: hand 3 is dealt alike
        a = first_action(g)
        g.apply(a)
        back.apply(a)
        assert snapshot(back) == snapshot(g)
    assert g.hand_number == 3
    if where == "after_last":
        assert hands(g) == dealt(D3, 2, 0, 2)


@documents("api:stack_next")
def test_stack_next_twice_stacks_the_next_two_deals_in_order():
    """Call `stack_next` again for the deal after: the next deals come from the stacked decks in the
    order they were stacked, and the hand in progress is not dealt again."""
    g = game(QUICK, deck=D1, dealer=0)
    before = [g.hand_of(s) for s in (0, 1)]
    g.stack_next(D2)
    g.stack_next(D3)
    assert [g.hand_of(s) for s in (0, 1)] == before
    play_on(g, 4)
    assert g.hand_number == 2 and hands(g) == dealt(D2, 2, 1, 2)
    play_on(g, 4)
    assert g.hand_number == 3 and hands(g) == dealt(D3, 2, 0, 2)


@documents("api:stack_next")
def test_a_hand_dealt_again_after_a_void_deal_takes_the_next_stacked_deck():
    """A hand dealt again after a void deal takes the next stacked deck as well (a void hand counts in
    `hand_number`, and the same dealer deals again)."""
    g = game(QUICK.replace("result: score", "result: void"), deck=D1, dealer=0)
    g.stack_next(D2)
    play_on(g, 4)
    assert g.hand_log[0]["ending"] == "void" and g.scores == [0, 0]
    assert g.hand_number == 2 and g.dealer == 0
    assert hands(g) == dealt(D2, 2, 0, 2)


def _hand_end_index(name: str, seed: int, players=None) -> tuple[list, int]:
    """The actions of a bundled game played by a seeded random chooser until hand 1 ends (and the match
    goes on), and the index of the action that ended it."""
    for chooser in range(50):
        g = rulesdsl.load(name).new_game(seed=seed, players=players)
        rng = random.Random(chooser)
        while g.hand_number == 1 and not g.is_over:
            acts = legal(g)
            g.apply(acts[rng.randrange(len(acts))])
        if not g.is_over:
            return list(g.history), len(g.history) - 1
    raise AssertionError("every hand 1 ended the match")


@documents("api:stack_next", "api:replay")
def test_crazy_eights_replay_with_a_deck_stacked_just_before_the_hand_ends():
    """Bundled Crazy Eights, seed 3: a deck stacked just before the play that ends hand 1 deals hand 2,
    and the replay of the record deals that same hand 2 (and goes on identically)."""
    actions, k = _hand_end_index("crazy_eights", 3)
    r = rulesdsl.load("crazy_eights")
    deck = [rk + s for s in "CDHS" for rk in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    random.Random(99).shuffle(deck)
    g = r.new_game(seed=3)
    for a in actions[:k]:
        g.apply(a)
    g.stack_next(deck)
    g.apply(actions[k])
    assert g.hand_number == 2
    n, dealer = g.view(0)["players"], g.dealer
    assert hands(g) == dealt(deck, n, dealer, 5)
    play_on(g, 3)
    rec = g.record()
    assert rec["stacks"] == [{"before": k, "deck": deck}]
    back = rulesdsl.replay(json.loads(json.dumps(rec)))
    assert snapshot(back) == snapshot(g)
