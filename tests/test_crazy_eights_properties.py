"""Hypothesis properties of Crazy Eights matches played through the public API.

Random playouts (a seeded random player that prefers playing to drawing) run for 2 to 7 players over the
base game and every shipped variant file (and, now and then, a random mix of the parameters).  Expectations
come from the rules as seeds/crazy_eights.md states them: the 52 cards are conserved; every hand ends
within a bound and so does the match; the player on turn always has a legal action; an illegal action
raises IllegalAction and changes nothing; a seat's view shows no other hand and nothing of the stock but
its size; and at every step the engine agrees with an independent reference model
(``crazy_eights_helpers.RefHand``): who is on turn, which plays match the top card, when drawing and
passing are allowed, owed cards, skips, how the hand ends and what it scores.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crazy_eights_helpers import (ALL_CARDS, RefHand, SUITS, VARIANTS, assert_illegal, hand_points, hand_size,
                                  legal, rank, rules, stock_count, suit, top)

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players = st.integers(min_value=2, max_value=7)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


@st.composite
def rulesets(draw):
    """A shipped file (base or variant), or now and then the base with a random mix of parameters."""
    if draw(st.integers(0, 3)) == 0:
        ov = {"draw_limit": draw(st.integers(0, 3)), "draw_when_able": draw(st.booleans()),
              "eights": draw(st.sampled_from(["anywhere", "on_match"])), "twos_draw_two": draw(st.booleans()),
              "queens_skip": draw(st.booleans())}
        return ("base", tuple(sorted(ov.items())))
    return (draw(st.sampled_from(sorted(VARIANTS))), ())


def load(rs):
    variant, ov = rs
    return rules(variant, dict(ov) or None)


def choose(game, rng: random.Random) -> str:
    acts = legal(game)
    plays = [a for a in acts if a.startswith("play")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(acts)


def hand_bound(n: int) -> int:
    """Actions one hand can take: at most 51 plays and 51 + 4 draws (a plain draw takes a card from the stock,
    which is never refilled; a draw of owed cards follows a 2), and between two of those at most n - 1 passes
    (n in a row end the hand)."""
    return (51 + 55 + 1) * (n + 1)


def ref_for(g, p: dict) -> RefHand:
    n = g.view(0)["players"]
    v = g.view(0)
    return RefHand(p, n, v["dealer"], {s: g.hand_of(s) for s in range(n)}, top(g), stock_count(g))


def check_against_ref(g, ref: RefHand) -> None:
    t = g.view(g.current_player)["trick"]
    assert g.current_player == ref.actor
    assert top(g) == ref.top_card
    assert (t["named_suit"] or suit(ref.top_card)) == ref.in_force
    assert t["draws_owed"] == ref.owed
    assert t["drawn_this_turn"] == ref.drawn
    assert stock_count(g) == ref.stock
    for s in ref.hands:
        assert Counter(g.hand_of(s)) == Counter(ref.hands[s]), s
    assert set(legal(g)) == ref.legal(), (sorted(legal(g)), sorted(ref.legal()))


def step(g, ref: RefHand, action: str) -> bool:
    """Apply ``action`` to the game and the model; True when the hand ended."""
    me = g.current_player
    before = Counter(g.hand_of(me))
    hand_no = g.hand_number
    g.apply(action)
    drawn = []
    if action == "draw stock" and g.hand_number == hand_no:
        drawn = list((Counter(g.hand_of(me)) - before).elements())
    ref.apply(action, drawn)
    ended = g.hand_number != hand_no or g.is_over
    assert ended == (ref.ending is not None), (action, ref.ending)
    return ended


# --------------------------------------------------------------------------------------------------


@given(rs=rulesets(), n=players, seed=seeds, bot=seeds)
@FAST
def test_cards_are_conserved_after_every_action(rs, n, seed, bot):
    """52 cards after every action: hands, stock and pile add up, no card is held twice, and the cards held
    plus the cards played (the starter and every play since) are the whole pack less the stock."""
    r = load(rs)
    g = r.new_game(seed=seed, players=n)
    rng = random.Random(bot)
    pile = [top(g)]
    hand_no = 1
    for _ in range(3000):
        if g.is_over or g.hand_number > 2:
            break
        a = choose(g, rng)
        g.apply(a)
        if g.hand_number != hand_no:
            hand_no = g.hand_number
            pile = [top(g)] if not g.is_over else pile
        elif a.startswith("play"):
            pile.append(a.split()[1])
        assert g.cards_in_play == 52
        z = g.view(0)["zones"]
        assert sum(h["count"] for h in z["hand"]) + z["stock"]["count"] + z["discard"]["count"] == 52
        held = [c for s in range(n) for c in g.hand_of(s)]
        assert len(held) == len(set(held))
        if not g.is_over:
            assert z["discard"]["count"] == len(pile)
            assert not set(held) & set(pile)
            assert len(held) + len(pile) + z["stock"]["count"] == 52
            assert set(held) | set(pile) <= set(ALL_CARDS)


@given(rs=rulesets(), n=players, seed=seeds, bot=seeds)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_terminates_within_a_bound(rs, n, seed, bot):
    """Every hand ends within ``hand_bound(n)`` actions; the player on turn always has a legal action; the
    match ends (a generous 100-hand sanity bound) with a unique highest total at or above the target."""
    r = load(rs)
    g = r.new_game(seed=seed, players=n)
    rng = random.Random(bot)
    in_hand = 0
    hand_no = 1
    while not g.is_over:
        acts = g.legal_actions()
        assert acts and g.current_player is not None
        g.apply(rng.choice([str(a) for a in acts if str(a).startswith("play")] or [str(a) for a in acts])
                if rng.random() < 0.85 else str(rng.choice(acts)))
        in_hand += 1
        if g.hand_number != hand_no:
            hand_no, in_hand = g.hand_number, 0
        assert in_hand <= hand_bound(n), "a hand did not end"
        assert g.hand_number <= 100, "the match did not end"
    target = r.params["target_score"]
    best = max(g.scores)
    assert best >= target and g.scores.count(best) == 1
    assert g.winner == g.scores.index(best)
    assert g.legal_actions() == [] and g.current_player is None


@given(rs=rulesets(), n=players, seed=seeds, bot=seeds)
@FAST
def test_engine_agrees_with_the_reference_model(rs, n, seed, bot):
    """Up to three hands: at every step the player on turn, the top card and suit in force, the owed cards,
    the hands, the stock count and the exact legal set (every listed play matches the top card, every
    matching card is listed, draw and pass exactly when the rules allow) agree with ``RefHand``; each hand
    ends as the model says and scores ``hand_points``; the match ends exactly when a single highest total
    reaches the target."""
    r = load(rs)
    p = dict(r.params)
    g = r.new_game(seed=seed, players=n)
    rng = random.Random(bot)
    ref = ref_for(g, p)
    assert g.current_player == (g.view(0)["dealer"] + 1) % n
    assert all(len(g.hand_of(s)) == hand_size(n) for s in range(n))
    assert rank(top(g)) != "8"
    for _ in range(3000):
        if g.is_over or g.hand_number > 3:
            break
        check_against_ref(g, ref)
        before = list(g.scores)
        dealer = g.view(0)["dealer"]
        if step(g, ref, choose(g, rng)):
            gained = [b - a for a, b in zip(before, g.scores)]
            want = hand_points(ref.hands, ref.ending)
            assert gained == [want[s] for s in range(n)], (ref.ending, ref.hands)
            rec = g.hand_log[-1]
            assert rec["ending"] == ref.ending
            best = max(g.scores)
            should_end = best >= p["target_score"] and g.scores.count(best) == 1
            assert g.is_over == should_end
            if not g.is_over:
                assert g.view(0)["dealer"] == (dealer + 1) % n
                ref = ref_for(g, p)


ILLEGAL_TEXTS = ["pass", "draw stock", "take discard", "discard 5H", "play", "play XX", "play 5H 5S", "knock",
                 "play 8H name Z", "meld 3H 4H 5H"]


@given(rs=rulesets(), n=players, seed=seeds, bot=seeds)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_illegal_action_raises_and_changes_nothing(rs, n, seed, bot):
    """At sampled positions: cards the player does not hold, held cards that do not match, an 8 without a
    suit, and draw/pass when not offered all raise IllegalAction and leave every observable part unchanged
    (tests/common.py snapshot)."""
    r = load(rs)
    g = r.new_game(seed=seed, players=n)
    rng = random.Random(bot)
    checked = 0
    for i in range(600):
        if g.is_over or g.hand_number > 2:
            break
        if i % 7 == 0:
            me = g.current_player
            ok = set(legal(g))
            hand = g.hand_of(me)
            others = [c for s in range(n) if s != me for c in g.hand_of(s)]
            tries = [t for t in ILLEGAL_TEXTS if t not in ok]
            tries += [f"play {c}" for c in hand if f"play {c}" not in ok and rank(c) != "8"][:3]
            tries += [f"play {c} name {rng.choice(SUITS)}" for c in hand
                      if rank(c) == "8" and not any(a.startswith(f"play {c} ") for a in ok)][:2]
            tries += [f"play {c}" for c in hand if rank(c) == "8"][:1]            # a suit must be named
            tries += [f"play {c}" for c in others[:2]]
            for t in tries:
                assert_illegal(g, t)
                checked += 1
        g.apply(choose(g, rng))
    assert checked > 0


CARD_WORDS = set(ALL_CARDS)


def cards_in(obj) -> set:
    """Every card text anywhere in a JSON-like value."""
    text = json.dumps(obj)
    return {w for w in text.replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split()
            if w in CARD_WORDS}


@given(rs=rulesets(), n=players, seed=seeds, bot=seeds)
@FAST
def test_a_view_shows_only_its_own_hand_and_the_stock_size(rs, n, seed, bot):
    """During play, view(seat) names no card but its own hand and the top of the pile (with the last play);
    other hands and the stock show as counts only; legal actions only for the seat on turn."""
    r = load(rs)
    g = r.new_game(seed=seed, players=n)
    rng = random.Random(bot)
    for i in range(400):
        if g.is_over or g.hand_number > 1:
            break
        if i % 3 == 0:
            for s in range(n):
                v = g.view(s)
                z = v["zones"]
                assert set(z["stock"]) == {"count"}
                assert set(z["discard"]) == {"count", "top"} and z["discard"]["top"] == top(g)
                for t in range(n):
                    assert ("cards" in z["hand"][t]) == (t == s)
                assert sorted(z["hand"][s]["cards"]) == sorted(g.hand_of(s))
                if s != g.current_player:
                    assert v["legal_actions"] == []
                shown = cards_in({k: x for k, x in v.items() if k != "last_hands"})
                assert shown <= set(g.hand_of(s)) | {top(g)}, (s, shown - set(g.hand_of(s)))
        g.apply(choose(g, rng))


@given(rs=rulesets(), n=players, seed=seeds, shuffle=seeds)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_view_does_not_depend_on_hidden_cards(rs, n, seed, shuffle):
    """Two deals that agree on seat s's hand and the starter but differ in every other hand and in the order
    of the stock give seat s identical views."""
    variant, ov = rs
    rng = random.Random(shuffle)
    deck = list(ALL_CARDS)
    random.Random(seed).shuffle(deck)
    size = hand_size(n)
    dealer = seed % n
    order = [(dealer + 1 + i) % n for i in range(n)]
    s = rng.randrange(n)
    k = order.index(s)
    mine = set(range(k, size * n, n))
    starter_pos = size * n
    while rank(deck[starter_pos]) == "8":                 # keep the starter fixed: no eight to bury
        j = rng.randrange(starter_pos + 1, 52)
        deck[starter_pos], deck[j] = deck[j], deck[starter_pos]
    hidden = [i for i in range(52) if i not in mine and i != starter_pos]
    other = list(deck)
    vals = [deck[i] for i in hidden]
    rng.shuffle(vals)
    for i, c in zip(hidden, vals):
        other[i] = c
    r = load(rs)
    g1 = r.new_game(seed=1, dealer=dealer, players=n, deck=deck)
    g2 = r.new_game(seed=2, dealer=dealer, players=n, deck=other)
    assert g1.view(s) == g2.view(s)
