"""Hypothesis properties of Gin Rummy matches played through the public API.

Random playouts use the seeded greedy bot of gin_helpers (it goes out when it may, with some
probability, and otherwise mostly keeps its deadwood low, sometimes playing any legal action), over a few
rule variants, with small target scores so that matches are short.  Expectations come from the spec:
card conservation, determinism (seed + actions = replay), illegal actions change nothing, matches end,
scores only grow and only the hand's scorer gains during a match, the end bonuses of GIN-END-3, and the
legal go-outs are exactly those the knock limit allows (GIN-KNOCK-3/5, GIN-EDGE-4).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl import IllegalAction

from gin_helpers import ALL_CARDS, bot_action, deadwood, legal, rules, snapshot

VARIANTS = [
    {},
    {"knock_allowed": False},
    {"knock_limit_from_upcard": True, "spade_upcard_doubles": True},
    {"big_gin_enabled": True},
    {"last_discard_option": True},
    {"gin_bonus": 20, "undercut_bonus": 10, "box_bonus": 20},
    {"rediscard_taken_discard": True},
    {"dealer_rotation": "winner"},
]

variant = st.sampled_from(range(len(VARIANTS)))
seeds = st.integers(min_value=0, max_value=2**31 - 1)
FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_match(v: int, seed: int, target: int = 10):
    overrides = dict(VARIANTS[v], target_score=target)
    return rules(overrides).new_game(seed=seed), overrides


def play(game, rng, max_actions=200_000, each=None, go_out=0.8):
    n = 0
    while not game.is_over and n < max_actions:
        a = bot_action(game, rng, go_out=go_out)
        before = snapshot(game) if each else None
        game.apply(a)
        n += 1
        if each:
            each(before, a, game)
    return n


def where_cards_are(game) -> list:
    """Every card the public views place somewhere (hands of both seats from their owners' views, table
    melds, the visible discard top), plus the counts of the hidden parts."""
    v0, v1 = game.view(0), game.view(1)
    cards = list(v0["zones"]["hand"][0].get("cards", [])) + list(v1["zones"]["hand"][1].get("cards", []))
    cards += [c for m in v0["melds"] for c in m["cards"]]
    return cards


# --------------------------------------------------------------------------------------------------


@given(v=variant, seed=seeds, bot=seeds, go_out=st.sampled_from([0.8, 0.1]))
@settings(FAST)
def test_cards_are_conserved_after_every_action(v, seed, bot, go_out):
    g, _ = new_match(v, seed)

    def check(_before, _a, game):
        assert game.cards_in_play == 52
        if game.is_over:
            return
        v0 = game.view(0)
        z = v0["zones"]
        counted = z["stock"]["count"] + z["discard"]["count"] + sum(h["count"] for h in z["hand"])
        counted += sum(len(m["cards"]) for m in v0["melds"])
        assert counted == 52
        placed = where_cards_are(game)
        assert len(placed) == len(set(placed)), placed                    # no card in two places
        assert set(placed) <= set(ALL_CARDS)
        top = z["discard"].get("top")
        if top is not None:
            assert top not in placed
        for s in (0, 1):
            assert sorted(game.hand_of(s)) == sorted(game.view(s)["zones"]["hand"][s]["cards"])

    play(g, random.Random(bot), max_actions=3000, each=check, go_out=go_out)


@given(v=variant, seed=seeds, bot=seeds)
@settings(FAST)
def test_same_seed_and_actions_replay_identically(v, seed, bot):
    g1, overrides = new_match(v, seed)
    g2 = rules(overrides).new_game(seed=seed)
    rng = random.Random(bot)
    steps = 0
    while not g1.is_over and steps < 3000:
        a = bot_action(g1, rng)
        g1.apply(a)
        g2.apply(a)
        steps += 1
        if steps % 7 == 0 or g1.is_over:
            assert g1.view(0) == g2.view(0) and g1.view(1) == g2.view(1)
    assert g1.history == g2.history
    assert g1.hand_log == g2.hand_log
    assert (g1.scores, g1.hands_won, g1.winner, g1.is_over) == (g2.scores, g2.hands_won, g2.winner, g2.is_over)
    for s in (0, 1):
        assert g1.hand_of(s) == g2.hand_of(s)


ACTION_TEXT = st.one_of(
    st.text(max_size=20),
    st.builds(lambda verb, card, n: f"{verb} {card}" + (f" on {n}" if n else ""),
              st.sampled_from(["discard", "knock", "gin", "layoff", "draw", "take", "pass", "done", "big_gin",
                               "DISCARD", "meld", "play"]),
              st.sampled_from(ALL_CARDS + ["1S", "11H", "ZZ", "Jk", "10X", "stock", "discard", ""]),
              st.integers(min_value=0, max_value=6)),
)


@given(v=variant, seed=seeds, bot=seeds, steps=st.integers(min_value=0, max_value=120),
       texts=st.lists(ACTION_TEXT, min_size=1, max_size=8), other_seed=seeds,
       other_steps=st.integers(min_value=0, max_value=120))
@settings(FAST)
def test_illegal_action_raises_and_changes_nothing(v, seed, bot, steps, texts, other_seed, other_steps):
    g, overrides = new_match(v, seed, target=30)
    rng = random.Random(bot)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(bot_action(g, rng))
    # candidate actions: random texts, and legal actions of another state of another game
    other = rules(overrides).new_game(seed=other_seed)
    orng = random.Random(other_seed)
    for _ in range(other_steps):
        if other.is_over:
            break
        other.apply(bot_action(other, orng))
    candidates = list(texts) + legal(other)
    for text in candidates:
        before = snapshot(g)
        legal_before = before["legal"]
        try:
            g.apply(text)
        except IllegalAction:
            assert snapshot(g) == before, f"rejected `{text}` changed the state"
            continue
        # accepted: it must have been one of the legal actions (in some spelling)
        assert g.history[-1] in legal_before, (text, g.history[-1])
        assert text.strip().split()[0].lower() == g.history[-1].split()[0]
        return


@given(v=variant, seed=seeds, bot=seeds)
@settings(max_examples=40, deadline=None)
def test_every_playout_ends_and_the_winner_reached_the_target(v, seed, bot):
    g, overrides = new_match(v, seed, target=10)
    n = play(g, random.Random(bot), max_actions=200_000)
    assert g.is_over, f"not over after {n} actions"
    assert g.current_player is None and g.legal_actions() == []
    raw = [0, 0]
    for rec in g.hand_log:
        if rec["ending"] != "void":
            raw[rec["scorer"]] += rec["points"]
    assert raw[g.winner] >= 10 > raw[1 - g.winner]


@given(v=variant, seed=seeds, bot=seeds, target=st.sampled_from([10, 40, 100]))
@settings(max_examples=40, deadline=None)
def test_scores_only_grow_and_only_the_scorer_gains_each_hand(v, seed, bot, target):
    g, overrides = new_match(v, seed, target=target)
    params = rules(overrides).params
    rng = random.Random(bot)
    prev_scores, prev_won, prev_log, prev_dealer = list(g.scores), list(g.hands_won), 0, g.view(0)["dealer"]
    while not g.is_over:
        g.apply(bot_action(g, rng))
        scores = list(g.scores)
        assert all(b >= a for a, b in zip(prev_scores, scores)), (prev_scores, scores)   # never decrease
        if len(g.hand_log) == prev_log:
            assert scores == prev_scores and g.hands_won == prev_won      # nothing changes mid-hand
            continue
        assert len(g.hand_log) == prev_log + 1
        rec = g.hand_log[-1]
        if rec["ending"] == "void":                                       # GIN-EDGE-1/10
            assert rec.get("scorer") is None and not rec.get("points")
            assert scores == prev_scores and g.hands_won == prev_won
            assert g.view(0)["dealer"] == prev_dealer
        else:                                                              # GIN-SCORE-7
            s = rec["scorer"]
            assert s in (0, 1) and rec["points"] > 0
            assert g.hands_won[s] == prev_won[s] + 1 and g.hands_won[1 - s] == prev_won[1 - s]
            if not g.is_over:
                assert scores[s] == prev_scores[s] + rec["points"]
                assert scores[1 - s] == prev_scores[1 - s]
                if params["dealer_rotation"] == "alternate":
                    assert g.view(0)["dealer"] == 1 - prev_dealer
                elif params["dealer_rotation"] == "winner":
                    assert g.view(0)["dealer"] == s
            if rec["ending"] == "knock":
                assert 0 < rec["deadwood"][rec["declarer"]] <= 10
            if rec["ending"] in ("gin", "big_gin"):
                assert rec["scorer"] == rec["declarer"] and rec["deadwood"][rec["declarer"]] == 0
        if not g.is_over:
            assert g.hand_number == len(g.hand_log) + 1
        prev_scores, prev_won, prev_log = scores, list(g.hands_won), len(g.hand_log)
        prev_dealer = g.view(0)["dealer"]
    # GIN-END-3: end bonuses on top of the raw hand points
    raw = [0, 0]
    for rec in g.hand_log:
        if rec["ending"] != "void":
            raw[rec["scorer"]] += rec["points"]
    w, l = g.winner, 1 - g.winner
    assert raw[w] >= target > raw[l]
    box, game_bonus = params["box_bonus"], params["game_bonus"]
    assert g.scores[w] == raw[w] + (2 * game_bonus if raw[l] == 0 else game_bonus) + box * g.hands_won[w]
    assert g.scores[l] == raw[l] + box * g.hands_won[l]


@given(seed=seeds, bot=seeds, limit=st.sampled_from([10, 5, 0]))
@settings(FAST)
def test_legal_go_outs_are_exactly_those_the_knock_limit_allows(seed, bot, limit):
    g = rules({"knock_limit": limit, "target_score": 30}).new_game(seed=seed)
    rng = random.Random(bot)
    taken = None
    for _ in range(1500):
        if g.is_over:
            break
        v = g.view(g.current_player)
        hand = g.hand_of(g.current_player)
        if v["phase"] == "turn" and len(hand) == 11:
            acts = legal(g)
            knocks = {a.split()[1] for a in acts if a.startswith("knock ")}
            gins = {a.split()[1] for a in acts if a.startswith("gin ")}
            for c in hand:
                if c == taken:               # GIN-TURN-7: never the card just taken from the pile
                    assert c not in knocks and c not in gins, (hand, c)
                    continue
                dw = deadwood(set(hand) - {c})
                assert (c in knocks) == (0 < dw <= limit), (hand, c, dw)
                assert (c in gins) == (dw == 0), (hand, c, dw)
        a = bot_action(g, rng)
        top = v["zones"]["discard"].get("top")
        g.apply(a)
        taken = top if a == "take discard" else None
