"""Hypothesis properties of Big Two matches played through the public API.

Random playouts (a seeded random player that passes now and then) run with 3 and 4 players, over the base
ruleset and every variant file, with the direction and the penalty limit drawn at random.  Expectations
come from the rules as seeds/big_two.md states them: cards are conserved; every hand ends within a bound;
the player on turn always has a legal action; an illegal action raises IllegalAction and changes nothing;
a view never shows another seat's hand; every listed play beats the last play under an independent oracle
(``big_two_helpers.classify`` / ``beats``), and every play that beats is listed; and the engine agrees at
every step with a reference model of the hand (who is on turn, trick ends, lock-outs, the opening play,
who leads each hand, scores, dealers, the end of the match).
"""

from __future__ import annotations

import random
from typing import Optional

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl import IllegalAction

from big_two_helpers import (ALL_CARDS, VARIANTS, all_plays, all_plays_brute, beats, classify, expected_plays,
                             legal, penalty, play_sets, rules, snapshot)

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.sampled_from(["big_two"] + VARIANTS)
players = st.sampled_from([3, 4])
seeds = st.integers(min_value=0, max_value=2**31 - 1)
overrides = st.fixed_dictionaries({"direction": st.sampled_from(["counterclockwise", "clockwise"]),
                                   "penalty_limit": st.sampled_from([20, 50])})


def start(name: str, ov: dict, n: int, seed: int):
    r = rules(name, ov)
    return r, r.new_game(players=n, seed=seed)


def choose(game, rng: random.Random, p_pass: float = 0.3) -> str:
    acts = legal(game)
    moves = [a for a in acts if a != "pass"]
    if "pass" in acts and (not moves or rng.random() < p_pass):
        return "pass"
    # favour small plays now and then, so that hands last and tricks have several plays
    if moves and rng.random() < 0.5:
        small = min(len(a.split()) for a in moves)
        moves = [a for a in moves if len(a.split()) == small]
    return rng.choice(moves or acts)


def options(name: str, ov: dict) -> dict:
    """The rules in force, from this page's clauses and variant rows (not read back from the ruleset)."""
    flat = name == "big_two_flat_penalty"
    return dict(bombs=name == "big_two_bombs", twos=name != "big_two_no_twos_in_straights",
                locks=name == "big_two_pass_locks_out", winner_leads=name == "big_two_winner_leads",
                double_at=0 if flat else 10, triple_at=0 if flat else 13, limit=ov["penalty_limit"],
                step=-1 if ov["direction"] == "counterclockwise" else 1)


# --------------------------------------------------------------------------------------------------


@given(name=names, ov=overrides, n=players, seed=seeds, bot=seeds)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cards_are_conserved_after_every_action(name, ov, n, seed, bot):
    r, g = start(name, ov, n, seed)
    rng = random.Random(bot)
    for _ in range(700):
        if g.is_over:
            break
        g.apply(choose(g, rng))
        z = g.view(0)["zones"]
        counted = sum(h["count"] for h in z["hand"]) + z["trick"]["count"] + z["played"]["count"] + \
            z["stock"]["count"]
        assert counted == 52 and g.cards_in_play == 52
        every = [c for s in range(n) for c in g.hand_of(s)] + z["trick"]["cards"] + z["played"]["cards"]
        assert sorted(every) == sorted(ALL_CARDS)


@given(name=names, ov=overrides, n=players, seed=seeds, bot=seeds)
@FAST
def test_every_hand_ends_within_a_bound_and_a_legal_action_always_exists(name, ov, n, seed, bot):
    """Each play sheds a card and at most n - 1 passes separate two plays, so a hand takes at most
    52 * n actions; the match ends (random play, a generous bound on hands)."""
    r, g = start(name, ov, n, seed)
    rng = random.Random(bot)
    hand, in_hand = g.hand_number, 0
    for _ in range(100_000):
        if g.is_over:
            break
        acts = g.legal_actions()
        assert acts and g.current_player is not None
        g.apply(choose(g, rng, p_pass=0.6))
        if g.hand_number != hand:
            hand, in_hand = g.hand_number, 0
        else:
            in_hand += 1
        assert in_hand <= 52 * n
        assert g.hand_number < 300
    assert g.is_over and g.legal_actions() == [] and g.current_player is None
    assert min(g.scores) <= -r.params["penalty_limit"]


@given(name=names, ov=overrides, n=players, seed=seeds, bot=seeds)
@FAST
def test_a_view_never_shows_another_seats_hand(name, ov, n, seed, bot):
    r, g = start(name, ov, n, seed)
    rng = random.Random(bot)
    for _ in range(400):
        if g.is_over:
            break
        for s in range(n):
            v = g.view(s)
            hz = v["zones"]["hand"]
            assert sorted(hz[s]["cards"]) == sorted(g.hand_of(s))
            assert all("cards" not in hz[t] for t in range(n) if t != s)
            assert [h["count"] for h in hz] == [len(g.hand_of(t)) for t in range(n)]
            text = repr({k: x for k, x in v.items() if k not in ("zones", "legal_actions")})
            others = {c for t in range(n) if t != s for c in g.hand_of(t)}
            assert not any(f"'{c}'" in text for c in others)
            shown = v["zones"]["trick"]["cards"] + v["zones"]["played"]["cards"]
            assert not others & set(shown)
            if v["current_player"] != s:
                assert v["legal_actions"] == []
        g.apply(choose(g, rng))


@given(name=names, ov=overrides, n=players, seed=seeds, bot=seeds)
@FAST
def test_every_listed_play_beats_the_last_play_and_every_beating_play_is_listed(name, ov, n, seed, bot):
    """View-level: the last play is read from the view; the oracle judges the engine's list."""
    r, g = start(name, ov, n, seed)
    o = options(name, ov)
    rng = random.Random(bot)
    for _ in range(400):
        if g.is_over:
            break
        t = g.view(g.current_player)["trick"]
        last = t["last_play"]
        hand = g.hand_of(g.current_player)
        listed = play_sets(g)
        last_c = classify(last, o["twos"]) if last else None
        if last:
            assert last_c is not None and last_c[0] == t["kind"], (last, t["kind"])
        plays = all_plays(hand, o["twos"])
        for p in listed:
            assert p in plays, (sorted(p), hand)                           # a real play of cards held
            assert beats(plays[p], last_c, len(p), len(last), o["bombs"], last), (sorted(p), last)
        first = g.view(0)["zones"]["played"]["count"] == 0 and not last
        need = "3D" if first and not (o["winner_leads"] and g.hand_number > 1) else None
        assert listed == expected_plays(hand, last, must_include=need, bombs=o["bombs"],
                                        twos_in_straights=o["twos"])
        assert ("pass" in legal(g)) == bool(last)
        g.apply(choose(g, rng))


class RefHand:
    """One hand of Big Two as the clauses describe it, from the dealt hands."""

    def __init__(self, o: dict, hands: dict, leader: int, opening: Optional[str]):
        self.o = o
        self.n = len(hands)
        self.hands = {s: list(h) for s, h in hands.items()}
        self.last: Optional[list] = None
        self.last_player: Optional[int] = None
        self.pending: set = set()
        self.locked: set = set()
        self.actor = leader
        self.opening = opening
        self.winner: Optional[int] = None

    def next_after(self, s: int) -> int:
        t = s
        for _ in range(self.n):
            t = (t + self.o["step"]) % self.n
            if t not in self.locked:
                return t
        return s

    def legal(self) -> tuple:
        return (expected_plays(self.hands[self.actor], self.last or (), must_include=self.opening,
                               bombs=self.o["bombs"], twos_in_straights=self.o["twos"]), self.last is not None)

    def apply(self, action: str) -> None:
        me = self.actor
        if action == "pass":
            assert self.last is not None
            self.pending.discard(me)
            if self.o["locks"]:
                self.locked.add(me)
            if not self.pending:
                self._end_trick()
            else:
                self.actor = self.next_after(me)
            return
        cards = action.split()[1:]
        for c in cards:
            self.hands[me].remove(c)
        self.opening = None
        self.last, self.last_player = cards, me
        if not self.hands[me]:
            self.winner, self.actor = me, None                   # B2-END-2: the first out ends the hand
            return
        self.pending = {s for s in range(self.n) if s != me and s not in self.locked}
        if not self.pending:
            self._end_trick()
        else:
            self.actor = self.next_after(me)

    def _end_trick(self) -> None:
        self.actor = self.last_player                            # B2-TURN-7
        self.last, self.last_player = None, None
        self.pending, self.locked = set(), set()

    def deltas(self) -> list:
        o = self.o
        pen = {s: penalty(len(h), o["double_at"], o["triple_at"]) for s, h in self.hands.items()}
        return [sum(pen.values()) if s == self.winner else -pen[s] for s in range(self.n)]


class Tracker:
    def __init__(self, name, ov, g):
        self.o = options(name, ov)
        self.g = g
        self.n = g.view(0)["players"]
        self.hand_no = 0
        self.model: Optional[RefHand] = None
        self.prev_winner: Optional[int] = None
        self.prev_dealer: Optional[int] = None
        self.scores = [0] * self.n

    def new_hand(self):
        g, o, n = self.g, self.o, self.n
        self.hand_no = g.hand_number
        v = g.view(0)
        if self.prev_dealer is not None:
            assert v["dealer"] == (self.prev_dealer + o["step"]) % n     # B2-DEAL-9
        self.prev_dealer = v["dealer"]
        hands = {s: g.hand_of(s) for s in range(n)}
        holder = next(s for s in range(n) if "3D" in hands[s])
        sizes = sorted(len(h) for h in hands.values())
        if n == 4:
            assert sizes == [13] * 4
        else:                                                              # B2-DEAL-6/7
            assert sizes == [17, 17, 18] and len(hands[holder]) == 18
        later = o["winner_leads"] and self.prev_winner is not None
        leader = self.prev_winner if later else holder
        self.model = RefHand(o, hands, leader, None if later else "3D")

    def step(self, action: str):
        g = self.g
        if g.hand_number != self.hand_no:
            self.new_hand()
        m = self.model
        assert g.current_player == m.actor, (g.current_player, m.actor, g.history[-8:])
        want, can_pass = m.legal()
        assert play_sets(g) == want
        assert ("pass" in legal(g)) == can_pass
        t = g.view(0)["trick"]
        assert t["last_play"] == [] if m.last is None else sorted(t["last_play"]) == sorted(m.last)
        assert t["locked_out"] == sorted(m.locked)
        before = len(g.hand_log)
        m.apply(action)
        g.apply(action)
        if m.winner is not None:
            assert len(g.hand_log) == before + 1
            rec = g.hand_log[-1]
            assert rec["order"][0] == m.winner and rec["ending"] == "out"
            self.scores = [a + b for a, b in zip(self.scores, m.deltas())]
            assert list(g.scores) == self.scores and sum(self.scores) == 0
            assert g.is_over == (min(self.scores) <= -self.o["limit"])
            self.prev_winner = m.winner
        else:
            assert len(g.hand_log) == before and not g.is_over


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("name", ["big_two"] + VARIANTS)
@given(ov=overrides, seed=seeds, bot=seeds)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_engine_agrees_with_the_reference_model(name, n, ov, seed, bot):
    """Every variant file at both player counts (two random matches each)."""
    r, g = start(name, ov, n, seed)
    tr = Tracker(name, ov, g)
    rng = random.Random(bot)
    lazy = bot % n                                        # a seat that passes whenever it may: big penalties
    for _ in range(1200):
        if g.is_over:
            break
        tr.step(choose(g, rng, 1.0 if g.current_player == lazy else 0.3))
    if g.is_over:                                                   # B2-MATCH-2
        best = max(g.scores)
        leaders = [s for s in range(n) if g.scores[s] == best]
        assert g.winner == (leaders[0] if len(leaders) == 1 else None)


ACTION_TEXT = st.one_of(
    st.text(max_size=12),
    st.builds(lambda verb, cards: f"{verb} {' '.join(cards)}".strip(),
              st.sampled_from(["play", "pass", "PLAY", "discard", "draw", "give"]),
              st.lists(st.sampled_from(ALL_CARDS + ["Jk", "1S", "11H", "ZZ", "10X"]), max_size=6)),
)


@given(name=names, ov=overrides, n=players, seed=seeds, bot=seeds, steps=st.integers(0, 120),
       texts=st.lists(ACTION_TEXT, min_size=1, max_size=6))
@FAST
def test_an_illegal_action_raises_and_changes_nothing(name, ov, n, seed, bot, steps, texts):
    r, g = start(name, ov, n, seed)
    o = options(name, ov)
    rng = random.Random(bot)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(choose(g, rng))
    if g.is_over:
        return
    me = g.current_player
    hand = g.hand_of(me)
    others = [c for s in range(n) if s != me for c in g.hand_of(s)]
    listed = play_sets(g)
    # plays the oracle refuses: real combinations of the hand that do not beat, or lack the opening 3D
    refused = [p for p in all_plays(hand, o["twos"]) if p not in listed][:4]
    cands = [("play " + " ".join(sorted(p)), True) for p in refused]
    cands += [(f"play {c}", True) for c in others[:3]]
    if not g.view(0)["trick"]["last_play"]:
        cands.append(("pass", True))
    cands += [(t, False) for t in texts]
    for text, must_fail in cands:
        before = snapshot(g)
        try:
            g.apply(text)
        except IllegalAction:
            assert snapshot(g) == before, f"rejected `{text}` changed the state"
            continue
        assert not must_fail, f"`{text}` was accepted"
        done = g.history[-1]
        assert done in before["legal"], (text, done)
        return


@given(st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=18, unique=True), st.booleans())
@settings(max_examples=60, deadline=None)
def test_the_fast_oracle_agrees_with_trying_every_subset(hand, twos):
    """The oracle's own check: building five-card candidates by suit, window and rank group finds exactly
    the plays that trying every 1, 2, 3 and 5 cards finds."""
    assert all_plays(hand, twos) == all_plays_brute(hand, twos)
