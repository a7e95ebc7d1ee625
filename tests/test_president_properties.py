"""Hypothesis properties of President matches played through the public API.

Random playouts (a seeded random player that passes less often than it plays) run for 4 to 7 players under
random rule parameters drawn from the combinations the spec allows (the revolution, twos high and low and
clear threes never together; the four-singles trigger only with equal ranks beating).  Expectations come
from the spec: cards are conserved; every deal's role points sum to zero and follow PRES-ROLE-1; the engine
agrees at every step with an independent reference model (``president_helpers.RefDeal``: who is on turn,
which plays beat, when tricks and deals end, the finishing order, the exchange); deals and matches end;
seed + actions replay identically; an illegal action raises IllegalAction and changes nothing.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl import IllegalAction

from president_helpers import (ALL_CARDS, JOKER, RefDeal, beats, deal_sizes, kind_of, legal, legal_kinds,
                               options, order_value, rank, rules, snapshot, spec_points)

FAST = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def params(draw):
    """Rule parameters within the allowed combinations."""
    p = {
        "larger_set_beats": draw(st.sampled_from(["none", "higher_rank", "any_rank"])),
        "equal_rank_beats": draw(st.booleans()),
        "pass_locks_out": draw(st.booleans()),
        "jokers": draw(st.sampled_from([0, 2])),
        "vp_exchange": draw(st.booleans()),
        "target_score": draw(st.integers(min_value=2, max_value=6)),
    }
    p["equal_rank_skip"] = p["equal_rank_beats"] and draw(st.booleans())
    special = draw(st.sampled_from([None, None, "revolution", "twos_high_and_low", "clear_threes"]))
    if special:
        p[special] = True
    if special == "revolution":
        p["revolution_reverses_direction"] = draw(st.booleans())
        p["revolution_resets_each_deal"] = draw(st.booleans())
        if p["equal_rank_beats"] and draw(st.booleans()):
            p["revolution_triggers"] = "four_of_a_kind_or_singles"
    extra = draw(st.sampled_from([{}, {}, {"two_clears": True}, {"finish_on_two_allowed": False},
                                  {"exchange_count": 2}, {"exchange_return": "lowest"},
                                  {"seating": "keep_seats"}, {"dealer": "scum"},
                                  {"first_leader_later": "left_of_dealer"}, {"first_leader_later": "scum"},
                                  {"direction": "counterclockwise"}, {"exchange": False}]))
    p.update(extra)
    return p


players = st.integers(min_value=4, max_value=7)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def choose(game, rng: random.Random, p_pass: float = 0.3) -> str:
    acts = legal(game)
    moves = [a for a in acts if a != "pass"]
    if "pass" in acts and (not moves or rng.random() < p_pass):
        return "pass"
    return rng.choice(moves or acts)


def start(ov: dict, n: int, seed: int):
    r = rules(ov)
    return r, r.new_game(seed=seed, players=n)


def total_cards(p: dict) -> int:
    return 52 + p["jokers"]


# --------------------------------------------------------------------------------------------------


@given(ov=params(), n=players, seed=seeds, bot=seeds)
@FAST
def test_cards_are_conserved_after_every_action(ov, n, seed, bot):
    r, g = start(ov, n, seed)
    total = total_cards(r.params)
    deck = sorted(ALL_CARDS + [JOKER] * r.params["jokers"])
    rng = random.Random(bot)
    for _ in range(1500):
        if g.is_over:
            break
        g.apply(choose(g, rng))
        assert g.cards_in_play == total
        v = g.view(0)
        z = v["zones"]
        counted = sum(h["count"] for h in z["hand"]) + z["trick"]["count"] + z["played"]["count"]
        counted += z["stock"]["count"]
        assert counted == total
        for s in range(n):                                # each view shows its own hand only
            hz = g.view(s)["zones"]["hand"]
            assert all(("cards" in hz[t]) == (t == s) for t in range(n))
            assert sorted(hz[s]["cards"]) == sorted(g.hand_of(s))
        held = [c for s in range(n) for c in g.hand_of(s)] + list(z["trick"].get("cards", []))
        assert len(held) + z["played"]["count"] == total
        assert all(held.count(c) <= deck.count(c) for c in set(held))


@given(ov=params(), n=players, seed=seeds, bot=seeds)
@FAST
def test_role_points_of_every_deal_follow_the_table_and_sum_to_zero(ov, n, seed, bot):
    r, g = start(ov, n, seed)
    rng = random.Random(bot)
    prev = list(g.scores)
    deals = 0
    for _ in range(3000):
        if g.is_over:
            break
        g.apply(choose(g, rng))
        if len(g.hand_log) > deals:
            rec = g.hand_log[-1]
            got = [b - a for a, b in zip(prev, g.scores)]
            assert sorted(rec["order"]) == list(range(n))
            assert got == spec_points(rec["order"]), (rec, got)
            assert sum(got) == 0
            prev = list(g.scores)
            deals = len(g.hand_log)
    assert sum(g.scores) == 0


@given(ov=params(), n=players, seed=seeds, bot=seeds)
@FAST
def test_every_legal_play_beats_the_last_play_under_the_rules_in_force(ov, n, seed, bot):
    """View-level check: every play the engine lists beats what the view shows on the table (the rank to
    beat, the size of the last play, the revolution flag), and every play of the hand that does beat it is
    listed."""
    r, g = start(ov, n, seed)
    p = r.params
    rng = random.Random(bot)
    for _ in range(1500):
        if g.is_over:
            break
        v = g.view(g.current_player)
        if v["phase"] == "climb":
            t = v["trick"]
            rev = bool(v["state"].get("revolution"))
            last = (t["to_beat_rank"], len(t["last_play"])) if t["last_play"] else None
            hand = g.hand_of(g.current_player)
            kinds = legal_kinds(g)
            for k in kinds:
                if k[0] == "play" and last is not None:
                    assert beats((k[1], k[2]), last, p, rev), (k, last, rev, p)
            assert kinds == options(hand, last, p, rev), (sorted(kinds), last, rev, hand)
        g.apply(choose(g, rng))


class Tracker:
    """Drives a match and the reference model side by side, deal after deal."""

    def __init__(self, r, g):
        self.p = r.params
        self.g = g
        self.n = g.view(0)["players"]
        self.deal_no = 0
        self.model = None
        self.prev_order = None
        self.carry = False                      # a revolution carried over (revolution_resets_each_deal off)
        self.exchange_steps = []

    def new_deal(self):
        g, p, n = self.g, self.p, self.n
        v = g.view(0)
        self.deal_no = g.hand_number
        if self.prev_order is None:
            order = list(range(n))
            dealer = v["dealer"]
        else:
            order = list(self.prev_order) if p["seating"] == "rank_order" else list(range(n))
            dealer = self.prev_order[0] if p["dealer"] == "president" else self.prev_order[-1]
        assert v["dealer"] == dealer
        assert v["turn_order"] == (order if p["direction"] == "clockwise" else list(reversed(order))) or \
            self.carry
        # PRES-DEAL-5: sizes in dealing order from the player after the dealer
        step = 1 if p["direction"] == "clockwise" else -1
        i = order.index(dealer)
        dealt = [order[(i + step * (k + 1)) % n] for k in range(n)]
        counts = [h["count"] for h in v["zones"]["hand"]]
        assert [counts[s] for s in dealt] == deal_sizes(n, total_cards(p))
        self.order, self.dealer = order, dealer
        # the exchange steps (PRES-ROLE-3..5)
        steps = []
        if self.prev_order is not None and p["exchange"]:
            po = self.prev_order
            ret = "lowest" if p["exchange_return"] == "lowest" else "any"
            steps += [(po[-1], po[0], "highest")] * p["exchange_count"]
            steps += [(po[0], po[-1], ret)] * p["exchange_count"]
            if p["vp_exchange"]:
                steps += [(po[-2], po[1], "highest")] * p["exchange_count"]
                steps += [(po[1], po[-2], ret)] * p["exchange_count"]
        self.exchange_steps = steps
        if not steps:
            self.start_play()

    def start_play(self):
        g, p = self.g, self.p
        hands = {s: g.hand_of(s) for s in range(self.n)}
        if self.prev_order is None:
            leader = None
        elif p["first_leader_later"] == "president":
            leader = self.prev_order[0]
        elif p["first_leader_later"] == "scum":
            leader = self.prev_order[-1]
        else:
            leader = None
        m = RefDeal(p, self.order, hands, self.order[0])
        if self.carry:
            m.revolution = True
            if p["revolution_reverses_direction"]:
                m.direction = -m.direction
        if leader is None:
            leader = m.next_seat(self.dealer)
        m.actor = leader if m.hands[leader] else m.next_after(leader)
        self.model = m

    def check_exchange(self):
        g = self.g
        giver, receiver, how = self.exchange_steps[0]
        assert g.current_player == giver
        hand = g.hand_of(giver)
        if how == "any":
            want = set(hand)
        else:
            vals = [order_value(rank(c), False) for c in hand]
            pick = max(vals) if how == "highest" else min(vals)
            want = {c for c, x in zip(hand, vals) if x == pick}
        assert {a.split()[1] for a in legal(g)} == want and all(a.startswith("give ") for a in legal(g))

    def step(self, action: str):
        g = self.g
        if g.hand_number != self.deal_no:
            self.new_deal()
        if self.exchange_steps:
            self.check_exchange()
            giver, receiver, _ = self.exchange_steps.pop(0)
            card = action.split()[1]
            g.apply(action)
            assert card in g.hand_of(receiver)
            if not self.exchange_steps:
                self.start_play()
            return
        m = self.model
        assert g.current_player == m.actor, (g.current_player, m.actor, g.history[-6:])
        assert legal_kinds(g) == m.legal(), (sorted(legal_kinds(g)), sorted(m.legal()))
        t = g.view(0)["trick"]
        assert bool(t["last_play"]) == (m.last is not None)
        if m.last is not None:
            assert t["to_beat_rank"] == m.last[0] and len(t["last_play"]) == m.last[1]
            assert t["last_player"] == m.last[2]
        assert g.view(0)["state"].get("revolution", False) == m.revolution
        deals = len(g.hand_log)
        m.apply(action)
        g.apply(action)
        if m.final is not None:
            assert len(g.hand_log) == deals + 1
            rec = g.hand_log[-1]
            assert rec["order"] == m.final, (rec["order"], m.final)
            self.prev_order = m.final
            self.carry = bool(self.p["revolution"] and not self.p["revolution_resets_each_deal"] and m.revolution)
        else:
            assert len(g.hand_log) == deals


@given(ov=params(), n=players, seed=seeds, bot=seeds)
@FAST
def test_engine_agrees_with_the_reference_model(ov, n, seed, bot):
    r, g = start(ov, n, seed)
    tr = Tracker(r, g)
    rng = random.Random(bot)
    for _ in range(1200):
        if g.is_over:
            break
        tr.step(choose(g, rng))


@given(ov=params(), n=players, seed=seeds, bot=seeds)
@settings(max_examples=20, deadline=None)
def test_every_deal_and_match_ends(ov, n, seed, bot):
    r, g = start(ov, n, seed)
    rng = random.Random(bot)
    total = total_cards(r.params)
    actions_this_deal = 0
    deal = g.hand_number
    for _ in range(200_000):
        if g.is_over:
            break
        g.apply(choose(g, rng, p_pass=0.6))
        if g.hand_number != deal:
            deal, actions_this_deal = g.hand_number, 0
        actions_this_deal += 1
        # every trick removes at least one card; a trick has at most n plays/passes per card played
        assert actions_this_deal <= (total + 2 * n) * (n + 1) * 2
        assert g.hand_number < 400
    assert g.is_over and g.current_player is None and g.legal_actions() == []
    best = max(g.scores)
    assert best >= r.params["target_score"]
    assert g.winner is not None and g.scores[g.winner] == best and g.scores.count(best) == 1


@given(ov=params(), n=players, seed=seeds, bot=seeds)
@FAST
def test_same_seed_and_actions_replay_identically(ov, n, seed, bot):
    r, g1 = start(ov, n, seed)
    g2 = r.new_game(seed=seed, players=n)
    rng = random.Random(bot)
    for i in range(800):
        if g1.is_over:
            break
        a = choose(g1, rng)
        g1.apply(a)
        g2.apply(a)
        if i % 5 == 0 or g1.is_over:
            assert [g1.view(s) for s in range(n)] == [g2.view(s) for s in range(n)]
    assert g1.history == g2.history and g1.hand_log == g2.hand_log and g1.scores == g2.scores
    assert [g1.hand_of(s) for s in range(n)] == [g2.hand_of(s) for s in range(n)]


ACTION_TEXT = st.one_of(
    st.text(max_size=12),
    st.builds(lambda verb, cards: f"{verb} {' '.join(cards)}".strip(),
              st.sampled_from(["play", "give", "pass", "PLAY", "discard", "draw"]),
              st.lists(st.sampled_from(ALL_CARDS + [JOKER, "1S", "11H", "ZZ", "10X"]), max_size=5)),
)


@given(ov=params(), n=players, seed=seeds, bot=seeds, steps=st.integers(min_value=0, max_value=150),
       texts=st.lists(ACTION_TEXT, min_size=1, max_size=8))
@FAST
def test_illegal_action_raises_and_changes_nothing(ov, n, seed, bot, steps, texts):
    r, g = start(ov, n, seed)
    rng = random.Random(bot)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(choose(g, rng))
    if g.is_over:
        return
    me = g.current_player
    others = [c for s in range(n) if s != me for c in g.hand_of(s)]
    # cards another player holds are never the current player's to play or give
    candidates = list(texts) + [f"play {c}" for c in others[:3]] + [f"give {c}" for c in others[:2]]
    for text in candidates:
        before = snapshot(g)
        try:
            g.apply(text)
        except IllegalAction:
            assert snapshot(g) == before, f"rejected `{text}` changed the state"
            continue
        assert kind_of(g.history[-1]) in {kind_of(a) for a in before["legal"]}, (text, g.history[-1])
        return
