"""Shared helpers for the President acceptance tests (tests/test_president_*.py).

Everything here is written from the spec (shared/spec/president.md), not from the engine:

* card notation and the rank order (PRES-DEAL-2), the deck with or without jokers (PRES-DEAL-1, Variants 5),
* ``deal_sizes`` / ``stack``: the deal of PRES-DEAL-5 (one card at a time from the dealer's left; the first
  players in dealing order get the odd cards) and a full deck, top card first, that gives chosen hands,
* ``beats`` / ``options``: an independent oracle of what beats what under the base rules and the variants
  (PRES-PLAY-3..6, Variants 1-7), used to derive the expected legal lists,
* ``RefDeal``: an independent reference model of one deal (turns, passing, tricks, going out, skips,
  revolutions), written from sections 2-4 and the variants, for the property tests,
* ``steer_deal``: a full-information planner that plays the current deal (random or stacked) through the
  public API to a wanted finishing order, using only legal actions,
* small game utilities (``act``, ``legal``, ``snapshot``, ``assert_illegal``, ``deltas``).

Seats are named A, B, C, ... = 0, 1, 2, ...  Unless a test says otherwise the dealer of the first deal is the
last seat, so A (seat 0) receives the first card, leads the first trick, and the first-deal turn order is
A, B, C, ...
"""

from __future__ import annotations

import copy
from typing import Iterable, Optional, Sequence

import pytest

import rulesdsl
from rulesdsl import IllegalAction
from common import assert_illegal, snapshot  # noqa: F401  (shared by every game's tests)

# --------------------------------------------------------------------------------------------------
# Cards (PRES-DEAL-1/2)
# --------------------------------------------------------------------------------------------------

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]      # low -> high
SUITS = ["S", "H", "D", "C"]
JOKER = "Jk"
ALL_CARDS = [r + s for r in RANKS for s in SUITS]                                  # 52, low ranks first
A, B, C, D, E, F, G = range(7)
NAMES = "ABCDEFG"

ROLES = {                                                                          # PRES-ROLE-1
    4: [("President", 2), ("Vice-President", 1), ("Vice-scum", -1), ("Scum", -2)],
    5: [("President", 2), ("Vice-President", 1), ("Neutral", 0), ("Vice-scum", -1), ("Scum", -2)],
    6: [("President", 2), ("Vice-President", 1), ("Upper neutral", 0), ("Lower neutral", 0), ("Vice-scum", -1),
        ("Scum", -2)],
    7: [("President", 2), ("Vice-President", 1), ("Upper neutral", 0), ("Neutral", 0), ("Lower neutral", 0),
        ("Vice-scum", -1), ("Super-scum", -2)],
}


def deck_cards(jokers: int = 0) -> list:
    return list(ALL_CARDS) + [JOKER] * jokers


def rank(card: str) -> str:
    return "joker" if card == JOKER else card[:-1]


def strength(r: str) -> int:
    """Normal order (PRES-DEAL-2; a joker ranks above the 2, Variants 5): higher is stronger."""
    return 13 if r == "joker" else RANKS.index(r)


def group(cards: Iterable[str]) -> dict:
    out: dict = {}
    for c in cards:
        out.setdefault(rank(c), []).append(c)
    return out


# --------------------------------------------------------------------------------------------------
# Deal (PRES-DEAL-5) and stacked decks
# --------------------------------------------------------------------------------------------------


def dealing_order(n: int, dealer: int) -> list:
    """First deal: one card at a time, clockwise, starting with the player after the dealer."""
    return [(dealer + 1 + i) % n for i in range(n)]


def deal_sizes(n: int, total: int = 52) -> list:
    """Cards per position in dealing order: the first ``total % n`` players get one more."""
    return [total // n + (1 if k < total % n else 0) for k in range(n)]


def stack(hands: dict, n: int = 4, dealer: Optional[int] = None, jokers: int = 0,
          fill: Optional[Sequence[str]] = None) -> list:
    """A full deck, top card first, so that the first deal gives each seat of ``hands`` those cards; every
    hand is completed to its PRES-DEAL-5 size from ``fill`` (default: the unused cards, lowest rank first,
    dealt round the seats so that no filler hand is all of one kind)."""
    dealer = n - 1 if dealer is None else dealer
    seats = dealing_order(n, dealer)
    deck = deck_cards(jokers)
    sizes = dict(zip(seats, deal_sizes(n, len(deck))))
    given = {s: list(hands.get(s, [])) for s in range(n)}
    used = [c for h in given.values() for c in h]
    for c in used:
        assert c in deck, c
    assert all(used.count(c) <= deck.count(c) for c in set(used)), f"a card is given twice: {used}"
    pool = list(deck)
    for c in used:
        pool.remove(c)
    if fill is not None:
        order = list(fill) + [c for c in pool if c not in fill]
        pool = [c for c in order if c in pool]
    for s in range(n):
        assert len(given[s]) <= sizes[s], f"seat {s} gets {sizes[s]} cards, not {len(given[s])}"
    # hand the remaining cards out round the seats that still need some
    while pool:
        for s in seats:
            if len(given[s]) < sizes[s] and pool:
                given[s].append(pool.pop(0))
    out = []
    for i in range(len(deck)):
        s = seats[i % n]
        out.append(given[s][i // n])
    assert sorted(out) == sorted(deck)
    return out


_RULES: dict = {}


def rules(overrides: Optional[dict] = None, variant: Optional[str] = None):
    key = (variant, tuple(sorted((overrides or {}).items())))
    if key not in _RULES:
        name = variant or "president"
        _RULES[key] = rulesdsl.load(name, overrides=dict(overrides or {}) or None)
    return _RULES[key]


def new_game(hands: Optional[dict] = None, n: int = 4, dealer: Optional[int] = None, overrides=None,
             variant=None, seed: int = 0, fill=None):
    """A match whose first deal is stacked: ``hands`` maps seats to (some of) their cards."""
    r = rules(overrides, variant)
    dealer = n - 1 if dealer is None else dealer
    deck = stack(hands or {}, n=n, dealer=dealer, jokers=r.params["jokers"], fill=fill)
    g = r.new_game(seed=seed, dealer=dealer, players=n, deck=deck)
    for s, h in (hands or {}).items():
        assert set(h) <= set(g.hand_of(s)), (s, h, g.hand_of(s))
    return g


# --------------------------------------------------------------------------------------------------
# Game utilities
# --------------------------------------------------------------------------------------------------


def act(game, *actions: str) -> None:
    for a in actions:
        game.apply(a)


def legal(game) -> list:
    return [str(a) for a in game.legal_actions()]


def kind_of(action: str) -> tuple:
    """An action as its choice: ('pass',), ('play', rank, size) or ('give', card)."""
    words = action.split()
    if words[0] == "play":
        ranks = {rank(c) for c in words[1:]}
        assert len(ranks) == 1, action
        return ("play", ranks.pop(), len(words) - 1)
    return tuple(words)


def legal_kinds(game) -> set:
    return {kind_of(a) for a in legal(game)}


def plays(game) -> set:
    """The (rank, size) plays the engine offers now."""
    return {(k[1], k[2]) for k in legal_kinds(game) if k[0] == "play"}


def trick(game) -> dict:
    """The trick part of the view (absent outside play, e.g. during the exchange)."""
    return game.view(0).get("trick") or {"last_play": [], "last_player": None, "to_beat_rank": None,
                                         "passed": [], "locked_out": []}


def played_count(game) -> int:
    return game.view(0)["zones"]["played"]["count"]






def spec_points(order: Sequence[int]) -> list:
    """Points per seat for a finishing order, from the table of PRES-ROLE-1 / PRES-SCORE-2."""
    n = len(order)
    out = [0] * n
    for pos, seat in enumerate(order):
        out[seat] = ROLES[n][pos][1]
    return out


# --------------------------------------------------------------------------------------------------
# The beating oracle (PRES-PLAY-3..6, PRES-EDGE-6, Variants 1-7), from the spec
# --------------------------------------------------------------------------------------------------


def order_value(r: str, revolution: bool) -> int:
    """Position of a rank in the order in force (higher wins).  A revolution inverts it (Variants 4)."""
    v = strength(r)
    return -v if revolution else v


def beats(play: tuple, last: tuple, p: dict, revolution: bool = False) -> bool:
    """Does ``play`` = (rank, size) beat ``last`` = (rank to beat, size)?  ``p``: the rule parameters."""
    pr, ps = play
    lr, ls = last
    higher = order_value(pr, revolution) > order_value(lr, revolution)
    if ps > ls:                                             # Variants 1-2 only
        if p["larger_set_beats"] == "any_rank":
            return True
        if p["larger_set_beats"] == "higher_rank":
            return higher
        return False                                        # PRES-PLAY-4: another size never beats
    if ps < ls:
        return False
    if higher:                                              # PRES-PLAY-3/4
        return True
    if pr == lr:                                            # PRES-PLAY-5, PRES-EDGE-6; Variants 3
        if p["clear_threes"] and pr == "3":
            return True                                     # n 3s beat any n cards (Variants 7)
        return bool(p["equal_rank_beats"])
    if p["twos_high_and_low"] and (pr == "2") != (lr == "2"):
        return True                                         # Variants 6: 2 beats all, all beat 2
    if p["clear_threes"] and pr == "3":
        return True
    return False


def options(hand: Sequence[str], last: Optional[tuple], p: dict, revolution: bool = False) -> set:
    """Every (rank, size) the hand may play now (PRES-PLAY-2: 1 to 4 cards of one rank), plus ('pass',)
    when a play is on the table (PRES-TURN-1/2; a lead cannot be passed, PRES-TURN-4)."""
    out = set()
    for r, cards in group(hand).items():
        for size in range(1, min(len(cards), 4) + 1):
            if last is None or beats((r, size), last, p, revolution):
                out.add(("play", r, size))
    if last is not None:
        out.add(("pass",))
    return out


# --------------------------------------------------------------------------------------------------
# An independent reference model of one deal (sections 2-4, Variants 1-7)
# --------------------------------------------------------------------------------------------------


class RefDeal:
    """One deal of President as the spec describes it, from the hands after the exchange.

    ``order``: the turn order (seats, clockwise); ``leader``: who leads the first trick."""

    def __init__(self, p: dict, order: list, hands: dict, leader: int):
        self.p = p
        self.order = list(order)
        self.n = len(order)
        self.hands = {s: list(h) for s, h in hands.items()}
        self.direction = -1 if p["direction"] == "counterclockwise" else 1
        self.revolution = False
        self.last: Optional[tuple] = None       # (rank to beat, size, player)
        self.pending: set = set()               # active players who have not passed since the last play
        self.locked: set = set()                # out of this trick (pass_locks_out)
        self.out: list = []                     # finishing order so far
        self.bottom: list = []                  # went out on a 2 with finish_on_two_allowed off
        self.streak = (None, 0)                 # consecutive single plays of one rank in this trick
        self.actor = leader if self.hands[leader] else self.next_after(leader)
        self.final: Optional[list] = None

    def next_seat(self, s: int) -> int:
        i = self.order.index(s)
        return self.order[(i + self.direction) % self.n]

    def active(self) -> list:
        return [s for s in self.order if self.hands[s]]

    def next_after(self, s: int) -> int:
        """PRES-TURN-5: the next active player in turn order (locked-out players sit the trick out)."""
        t = s
        for _ in range(self.n):
            t = self.next_seat(t)
            if self.hands[t] and t not in self.locked:
                return t
        return s

    def legal(self) -> set:
        last = None if self.last is None else (self.last[0], self.last[1])
        return options(self.hands[self.actor], last, self.p, self.revolution)

    def apply(self, action: str) -> None:
        k = kind_of(action)
        assert k in self.legal(), (action, sorted(self.legal()))
        me = self.actor
        if k[0] == "pass":
            self.pending.discard(me)
            if self.p["pass_locks_out"]:
                self.locked.add(me)
            if not self.pending:
                self._end_trick(self.last[2])
            else:
                self.actor = self.next_after(me)
            return
        _, r, size = k
        for c in action.split()[1:]:
            self.hands[me].remove(c)
        last = self.last
        # Variants 3: "after an equal-rank play the next active player is skipped" (read literally: the
        # play's rank equals the rank to beat, whatever its size -- sizes differ only with Variants 1-2)
        skip = bool(self.p["equal_rank_beats"] and self.p["equal_rank_skip"] and last is not None
                    and r == last[0])
        held = last[0] if (self.p["clear_threes"] and r == "3" and last is not None) else r
        run = self.streak[1] + 1 if (size == 1 and self.streak[0] == r) else (1 if size == 1 else 0)
        self.streak = (r if size == 1 else None, run)
        if self.p["revolution"]:
            trigger = size == 4 or (self.p["revolution_triggers"] == "four_of_a_kind_or_singles" and run >= 4)
            if trigger:
                self.revolution = not self.revolution
                if self.p["revolution_reverses_direction"]:
                    self.direction = -self.direction
        self.last = (held, size, me)
        if not self.hands[me]:
            if not self.p["finish_on_two_allowed"] and r == "2":
                self.bottom.append(me)
            else:
                self.out.append(me)
        active = [s for s in self.active() if s not in self.bottom]
        if len(active) <= 1:                                   # PRES-OUT-2/3
            self.final = self.out + active + list(reversed(self.bottom))
            self.actor = None
            return
        if self.p["two_clears"] and r == "2":
            self._end_trick(me)
            return
        self.pending = {s for s in active if s != me and s not in self.locked}
        if not self.pending:
            self._end_trick(me)
            return
        nxt = self.next_after(me)
        if skip:                                               # Variants 3
            nxt = self.next_after(nxt)
        self.actor = nxt

    def _end_trick(self, last_player: int) -> None:
        """PRES-PLAY-7/8/9: the last player leads, or the next active player after them."""
        self.last = None
        self.pending = set()
        self.locked = set()
        self.streak = (None, 0)
        self.actor = last_player if self.hands[last_player] else self.next_after(last_player)


# --------------------------------------------------------------------------------------------------
# A full-information planner: play the current deal to a wanted finishing order (base rules)
# --------------------------------------------------------------------------------------------------


def _lowest_group_play(hand: list) -> str:
    g = group(hand)
    r = min(g, key=strength)
    return "play " + " ".join(g[r][:4])


def steer_deal(game, want: Sequence[int], max_actions: int = 2000) -> dict:
    """Play the current deal to the finishing order ``want`` (all seats, or the first ones) and return its
    hand_log record.  The exchange, if any, gives the first legal card.  The player who should go out next
    (the target) takes the lead by beating a low single of the leader, then leads one whole rank after
    another while everybody passes.  Only legal actions, chosen from what the players hold."""
    start = game.hand_number
    want = list(want)
    for _ in range(max_actions):
        if game.is_over or game.hand_number != start:
            break
        v = game.view(game.current_player)
        if v["phase"] == "exchange":
            game.apply(legal(game)[0])
            continue
        p = game.current_player
        finished = v["finished"]
        targets = [s for s in want if s not in finished and game.hand_of(s)]
        t = targets[0] if targets else None
        last = v["trick"]["last_play"]
        hand = game.hand_of(p)
        if not last:                                         # p leads
            if t is None or p == t:
                game.apply(_lowest_group_play(hand))
            else:
                rev = bool(v.get("state", {}).get("revolution"))
                tmax = max(order_value(rank(c), rev) for c in game.hand_of(t))
                low = [c for c in sorted(hand, key=lambda c: order_value(rank(c), rev))
                       if order_value(rank(c), rev) < tmax]
                assert low and len(hand) > 1, f"planner: {NAMES[p]} cannot hand the lead to {NAMES[t]}"
                game.apply(f"play {low[0]}")
            continue
        if p == t and v["trick"]["last_player"] != t:
            beat = [a for a in legal(game) if a != "pass"]
            game.apply(beat[0] if beat else "pass")
        else:
            game.apply("pass")
    else:
        raise AssertionError("planner: the deal did not end")
    rec = game.hand_log[start - 1]
    assert rec["order"][:len(want)] == want, (rec["order"], want)
    return rec


# --------------------------------------------------------------------------------------------------
# Shared positions, reached by real actions (base rules or a variant)
# --------------------------------------------------------------------------------------------------


def dump(g, seat: int) -> None:
    """``seat`` leads one whole rank after another (lowest first) while everybody else passes, until it
    has no cards.  Starts with ``seat`` on lead."""
    start = g.hand_number
    while g.hand_number == start and g.hand_of(seat) and not g.is_over:
        assert g.current_player == seat and not trick(g)["last_play"], (seat, g.current_player)
        gr = group(g.hand_of(seat))
        r = min(gr, key=strength)
        g.apply("play " + " ".join(gr[r]))
        while g.hand_number == start and trick(g)["last_play"] and g.current_player != seat:
            g.apply("pass")


# B leads first (dealer A) and sheds everything but 2S; A then takes the lead with 7S and leads JS.
B_LAST_TWO = {
    B: ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "5S", "5H", "5D", "6S", "2S"],
    A: ["7S", "JS", "8S", "8H", "9S", "10S", "10H", "QS", "KS", "KH", "AS", "AH", "5C"],
}


def b_holds_only_2s(overrides=None):
    """4 players, dealer A: B leads 3333, 4444, 555 and 6S; A beats the 6 with 7S and leads JS.
    B now holds only 2S and is on turn (PRES-PLAY-9 / PRES-EDGE-1 / Example 7 position)."""
    g = new_game(B_LAST_TWO, n=4, dealer=A, overrides=overrides)
    assert g.current_player == B
    act(g, "play 3S 3H 3D 3C", "pass", "pass", "pass",
        "play 4S 4H 4D 4C", "pass", "pass", "pass",
        "play 5S 5H 5D", "pass", "pass", "pass",
        "play 6S", "pass", "pass", "play 7S", "pass", "pass", "pass",
        "play JS")
    assert g.hand_of(B) == ["2S"] and g.current_player == B
    return g


# A and B shed everything (3s-5s + 2S, 6s... + 2H); C and D share the rest.
TWO_LEFT = {
    A: ["3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "5S", "5H", "5D", "5C", "2S"],
    B: ["7S", "7H", "7D", "7C", "8S", "8H", "8D", "8C", "9S", "9H", "9D", "9C", "2H"],
}


def two_left(overrides=None, c=None, d=None):
    """4 players, dealer D: A goes out 1st, B 2nd, by leading everything; C and D remain, C on lead."""
    hands = dict(TWO_LEFT)
    if c:
        hands[C] = c
    if d:
        hands[D] = d
    g = new_game(hands, n=4, overrides=overrides)
    dump(g, A)
    dump(g, B)
    v = g.view(0)
    assert v["finished"] == [A, B] and g.current_player == C and g.hand_number == 1
    return g


def to_deal2(n=4, want=None, overrides=None, seed=0, hands=None):
    """Deal 1 stacked (default fill), steered to ``want`` (default A, B, C, ...); returns the match at the
    start of deal 2 (its exchange, when there is one)."""
    want = list(range(n)) if want is None else want
    g = new_game(hands or {}, n=n, overrides=overrides, seed=seed)
    steer_deal(g, want)
    assert g.hand_number == 2
    return g


def do_exchange(g):
    while g.view(0)["phase"] == "exchange":
        g.apply(legal(g)[0])


def role_names(n: int) -> list:
    return [r for r, _ in ROLES[n]]


def role_points(n: int) -> list:
    return [pt for _, pt in ROLES[n]]
