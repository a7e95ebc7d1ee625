"""Hypothesis properties of Rummy 500 matches played through the public API.

Random playouts use the seeded bot of rummy500_helpers (it melds and lays off often, sometimes draws deep
or takes the top discard, calls Rummy at random and otherwise plays any legal action), over 2 to 6 players
and the rule variants, with small target scores so that matches are short.  Expectations come from the
spec through the independent oracle of the helpers:

* cards are conserved after every action (R500-DEAL-1/2);
* every hand scores, for every player, melded minus held (R500-SCORE-1..6), recomputed from the view data
  and the action that ends the hand; the running totals are the sums of these hand scores;
* every meld on the table is a valid set or run (R500-MELD-1..4), jokers keep their declared card, melds
  keep their owner and placed cards keep their placer (R500-MELD-5..7, R500-LAYOFF-2/5);
* every offered meld, layoff, deep take and Rummy call is allowed by the spec, and those the spec allows
  are offered (R500-TURN-3/5, R500-LAYOFF-1/3, R500-CALL-1/2);
* hands and matches end; the same seed and actions replay identically; a view shows no other player's hand;
  an illegal action raises IllegalAction and changes nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rulesdsl import IllegalAction

from rummy500_helpers import (ALL_CARDS, JOKER, bot_action, deck_cards, declared, fits, hand_scores, is_joker,
                              is_meld, legal, meld_of_three, natural, rules, snapshot, table_after)

VARIANTS = [
    {},
    {"jokers_enabled": False},
    {"rank_values": "five_ten_fifteen"},
    {"going_out_requires_discard": True},
    {"final_discard_must_be_unplayable": True},
    {"rummy_calls_enabled": False},
    {"stock_out_end": "empty_stock"},
    {"joker_value": "represented", "low_ace_value": 15},
    {"top_discard_must_meld": True},
]

variant = st.sampled_from(range(len(VARIANTS)))
players = st.sampled_from([2, 3, 4, 5, 6])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: how often the bot melds when it can: eager players go out fast, lazy ones let the stock run out and the
#: discard pile grow (deep takes, Rummy calls)
style = st.sampled_from([0.9, 0.25])
MAX_ACTIONS = 6000


def new_match(v: int, n: int, seed: int, target: int = 50):
    ov = dict(VARIANTS[v], target_score=target)
    return rules(ov).new_game(seed=seed, players=n), ov


def score_kw(ov: dict) -> dict:
    return dict(five_ten=ov.get("rank_values") == "five_ten_fifteen",
                low_ace=ov.get("low_ace_value", 1),
                joker_represented=ov.get("joker_value") == "represented")


def deck_size(ov: dict, n: int) -> int:
    decks = 2 if n >= 5 else 1
    return decks * (52 + (2 if ov.get("jokers_enabled", True) else 0))


def play(game, rng, each=None, max_actions=MAX_ACTIONS, p_meld=0.9):
    """Play the match out with the bot; ``each(game, action)`` runs before each action, and its result (if
    callable) after it."""
    k = 0
    while not game.is_over and k < max_actions:
        a = bot_action(game, rng, p_meld=p_meld)
        after = each(game, a) if each else None
        game.apply(a)
        if callable(after):
            after()
        k += 1
    return k


# --------------------------------------------------------------------------------------------------


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@settings(FAST)
def test_cards_are_conserved_after_every_action(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed, target=150)
    size = deck_size(ov, n)
    full = Counter(deck_cards(n, ov.get("jokers_enabled", True)))
    assert sum(full.values()) == size

    def check():
        assert g.cards_in_play == size
        if g.is_over:
            return
        v0 = g.view(0)
        z = v0["zones"]
        known = Counter()
        for s in range(n):
            known.update(g.hand_of(s))
        known.update(z["discard"].get("cards", []))
        known.update(natural(c) for m in v0["melds"] for c in m["cards"])
        assert known + Counter() <= full, known - full
        assert sum(known.values()) + z["stock"]["count"] == size
        counted = z["stock"]["count"] + z["discard"]["count"] + sum(h["count"] for h in z["hand"])
        counted += sum(len(m["cards"]) for m in v0["melds"])
        assert counted == size

    check()
    play(g, random.Random(bot), each=lambda game, a: check, p_meld=lazy)


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@settings(FAST)
def test_every_hand_scores_melded_minus_held_and_totals_add_up(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed, target=300)
    kw = score_kw(ov)
    hand_scores_seen = []

    def each(game, a):
        ms, hands = table_after(game, a)
        expected = hand_scores(ms, hands, **kw)
        start, before = game.hand_number, list(game.scores)

        def after():
            if game.hand_number != start or game.is_over:
                got = [x - y for x, y in zip(game.scores, before)]
                assert got == expected, (a, got, expected, ms, hands)
                hand_scores_seen.append(got)
                rec = game.hand_log[-1]
                assert rec["ending"] in ("out", "stock")
                if rec["ending"] == "out":
                    assert hands[rec["declarer"]] == []          # the player who went out holds nothing
        return after

    play(g, random.Random(bot), each=each, p_meld=lazy)
    assert g.is_over
    assert len(hand_scores_seen) == len(g.hand_log)
    assert g.scores == [sum(h[s] for h in hand_scores_seen) for s in range(n)]
    best = max(g.scores)
    assert best >= 300 and g.scores.count(best) == 1 and g.winner == g.scores.index(best)


def valid_table(view) -> None:
    for m in view["melds"]:
        cards = m["cards"]
        assert is_meld(cards), cards
        assert len(m["placed_by"]) == len(cards)
        assert m["kind"] == ("set" if len({declared(c)[:-1] for c in cards}) == 1 else "run")
        for c in cards:
            if is_joker(c):
                assert declared(c) in ALL_CARDS
            else:
                assert "=" not in c


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@settings(FAST)
def test_every_meld_on_the_table_is_valid_and_placed_cards_never_change(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed)
    state = {"hand": g.hand_number, "melds": []}

    def after():
        if g.is_over:
            return
        ms = g.view(0)["melds"]
        valid_table(g.view(0))
        if g.hand_number != state["hand"]:
            assert ms == []                       # a new hand starts with an empty table
            state["hand"] = g.hand_number
        else:
            old = state["melds"]
            assert len(ms) >= len(old)
            for m0, m1 in zip(old, ms):
                assert m1["owner"] == m0["owner"]
                placed0 = Counter(zip(m0["cards"], m0["placed_by"]))
                placed1 = Counter(zip(m1["cards"], m1["placed_by"]))
                assert not placed0 - placed1, (m0, m1)          # nothing moves, no joker is re-declared
        state["melds"] = ms

    play(g, random.Random(bot), each=lambda game, a: after, p_meld=lazy)


def check_offers(g, ov) -> None:
    """Every offered action is allowed by the spec, and (where the engine has no other constraint to weigh)
    every action the spec allows is offered."""
    if g.is_over:
        return
    seat = g.current_player
    v = g.view(seat)
    acts = legal(g)
    table = v["melds"]
    hand = g.hand_of(seat)
    pile = v["zones"]["discard"].get("cards", [])
    for a in acts:
        w = a.split()
        if w[0] == "meld":
            assert is_meld(w[1:]), a
            assert not Counter(natural(c) for c in w[1:]) - Counter(hand), a
        elif w[0] == "layoff":
            c, target = w[1], int(w[-1])
            assert is_meld(table[target - 1]["cards"] + [c]), (a, table[target - 1])
        elif w[0] == "take" and len(w) == 3:
            k = int(w[2])
            deep = pile[-k]
            pool = hand + pile[-k + 1:]
            assert meld_of_three(deep, pool) or any(fits(deep, m["cards"]) for m in table), (a, hand, pile)
        elif w[0] == "claim":
            k = int(w[2])
            top = pile[-1]
            if k == 1:
                assert any(fits(top, m["cards"]) for m in table), (a, table)
            else:
                deep = pile[-k]
                assert any(is_meld_declared([deep, x, top]) for x in pile[-k + 1:-1]), (a, pile)
    if v["phase"] == "claim":
        top = pile[-1]
        can = any(fits(top, m["cards"]) for m in table) or meld_of_three(top, pile[:-1])
        assert (len(acts) > 1) == can, (acts, top, pile, table)
        return
    if v["step"] == "draw" and not ov.get("top_discard_must_meld"):
        for k in range(2, len(pile) + 1):
            deep = pile[-k]
            can = meld_of_three(deep, hand + pile[-k + 1:]) or any(fits(deep, m["cards"]) for m in table)
            assert (f"take discard {k}" in acts) == can, (k, hand, pile, table, acts)
        return
    # play step with no pending duty (a discard is offered) and enough cards that no layoff or meld can
    # strand the player with only the card just taken (R500-EDGE-2)
    if not any(a.startswith("discard") for a in acts) or len(hand) < 4:
        return
    if ov.get("final_discard_must_be_unplayable") or ov.get("going_out_requires_discard"):
        return
    taken = v.get("taken_this_turn")
    for c in set(hand):
        if c == JOKER:
            continue
        for i, m in enumerate(table, 1):
            if fits(c, m["cards"]):
                assert f"layoff {c} on {i}" in acts, (c, m, acts)
    if len(hand) < 5:            # a meld could leave only the card just taken, which may not be discarded
        return
    nat = sorted({c for c in hand if not is_joker(c)})
    offered = {tuple(sorted(a.split()[1:])) for a in acts if a.startswith("meld")}
    for trio in combinations(nat, 3):
        if is_meld(trio):
            assert tuple(sorted(trio)) in offered, (trio, acts, taken)


def is_meld_declared(cards) -> bool:
    """A meld of these cards with each joker declared at will."""
    nat = [c for c in cards if not is_joker(c)]
    jk = len(cards) - len(nat)
    if jk == 0:
        return is_meld(cards)
    if len(nat) <= 1:
        return True
    return meld_of_three(nat[0], nat[1:] + [JOKER] * jk)


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@settings(FAST)
def test_offered_melds_layoffs_takes_and_calls_follow_the_spec(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed)
    check_offers(g, ov)
    play(g, random.Random(bot), each=lambda game, a: (lambda: check_offers(game, ov)), p_meld=lazy)


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@example(v=0, n=5, seed=7735858, bot=17816, lazy=0.25)   # a Rummy call that left the caller without a move
@settings(FAST)
def test_every_hand_and_every_match_ends(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed, target=300)
    per_hand = Counter()

    def each(game, a):
        per_hand[game.hand_number] += 1
        assert per_hand[game.hand_number] < 1500, "a hand does not end"
        assert legal(game), "a player is on turn with no legal action"

    k = play(g, random.Random(bot), each=each, p_meld=lazy)
    assert g.is_over and k < MAX_ACTIONS
    assert g.current_player is None and legal(g) == []


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@settings(FAST)
def test_same_seed_and_actions_replay_identically(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed)
    play(g, random.Random(bot), p_meld=lazy)
    h = rules(ov).new_game(seed=seed, players=n)
    for a in g.history:
        h.apply(a)
    assert h.history == g.history
    assert h.scores == g.scores and h.hand_log == g.hand_log and h.winner == g.winner
    assert [h.view(s) for s in range(n)] == [g.view(s) for s in range(n)]
    # and a second bot run with the same seeds plays the very same match
    g2, _ = new_match(v, n, seed)
    play(g2, random.Random(bot), p_meld=lazy)
    assert g2.history == g.history and g2.scores == g.scores


@given(v=variant, n=players, seed=seeds, bot=seeds, lazy=style)
@settings(FAST)
def test_views_never_show_another_players_hand(v, n, seed, bot, lazy):
    g, ov = new_match(v, n, seed)

    def check():
        if g.is_over:
            return
        for s in range(n):
            view = g.view(s)
            for t, h in enumerate(view["zones"]["hand"]):
                assert ("cards" in h) == (t == s)
                assert h["count"] == len(g.hand_of(t))
            assert "cards" not in view["zones"]["stock"] and "top" not in view["zones"]["stock"]
            shown = Counter(g.hand_of(s)) + Counter(view["zones"]["discard"].get("cards", []))
            shown += Counter(natural(c) for m in view["melds"] for c in m["cards"])
            seen = visible_card_words(view)
            assert set(seen) <= set(shown), set(seen) - set(shown)
            taken = view.get("taken_this_turn")
            if taken is not None:          # a card taken from the spread pile this turn: public knowledge
                assert taken in state["pile_before_take"], (taken, state)
            assert (view["legal_actions"] != []) == (s == g.current_player)

    state = {"pile_before_take": []}

    def each(game, a):
        if a.startswith(("take", "claim")):
            state["pile_before_take"] = list(game.view(0)["zones"]["discard"].get("cards", []))
        return check

    play(g, random.Random(bot), each=each, p_meld=lazy)


def visible_card_words(view) -> Counter:
    """Card texts shown anywhere in a view, except its legal actions and past hands' records."""
    out = Counter()

    def walk(x):
        if isinstance(x, dict):
            for key, val in x.items():
                if key in ("legal_actions", "last_hands", "taken_this_turn"):
                    continue
                walk(val)
        elif isinstance(x, (list, tuple)):
            for val in x:
                walk(val)
        elif isinstance(x, str):
            for word in x.split():
                if natural(word) in ALL_CARDS or natural(word) == JOKER:
                    out[natural(word)] += 1

    walk(view)
    return out


@given(v=variant, n=players, seed=seeds, bot=seeds, steps=st.integers(0, 150),
       junk=st.sampled_from(["meld 9H Jk=5C JH", "layoff 2C on 9", "claim discard 1", "discard XX", "take discard 99",
                             "draw stock", "pass", "meld AS", "take stock", "layoff Jk=KH on 1", "frobnicate"]))
@settings(FAST)
def test_illegal_actions_raise_and_change_nothing(v, n, seed, bot, steps, junk):
    g, ov = new_match(v, n, seed)
    rng = random.Random(bot)
    other_states = []
    for _ in range(steps):
        if g.is_over:
            break
        other_states.append(legal(g))
        g.apply(bot_action(g, rng))
    if g.is_over:
        return
    acts = set(legal(g))
    candidates = [junk] + [a for acts_then in other_states[-5:] for a in acts_then]
    for a in candidates[:20]:
        if a in acts:
            continue
        before = snapshot(g)
        try:
            g.apply(a)
        except IllegalAction:
            assert snapshot(g) == before, a
        else:
            raise AssertionError(f"`{a}` was accepted though not listed as legal: {sorted(acts)}")
