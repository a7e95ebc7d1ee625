"""The climbing vocabulary in general terms: plays as card patterns, their members, wild cards and named
suits in plays, toggles, going-out hooks, the opening play, seat-directed deals, draws and blocked play.

Every ruleset here is small and written inline (a minimal climbing game, changed one construct at a time),
so a failure names the construct, not a game.  Expected results are worked out in the test from the rule
being tested.  Seats are 0, 1, ...; unless a test says otherwise the dealer is the last seat, so seat 0
receives the first card and (``first_leader: next_seat(dealer)``) leads.
"""

from __future__ import annotations

import copy
from itertools import combinations
from pathlib import Path

import pytest
import yaml

import rulesdsl
from rulesdsl import RuleEvaluationError
from common import assert_illegal

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]      # low -> high
SUITS = ["S", "H", "D", "C"]
ALL = [r + s for r in RANKS for s in SUITS]
JOKER = "Jk"


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data):                      # rulesets refuse YAML aliases
        return True


BASE = {
    "name": "Tiny climb",
    "players": {"min": 2, "max": 5, "default": 2},
    "params": {"hand_size": 5},
    "deck": {"ranks": RANKS, "suits": SUITS},
    "zones": {"stock": {"visible": "none"}, "hand": {"per": "player", "visible": "owner"},
              "trick": {"visible": "all"}, "played": {"visible": "none"}},
    "deal": [{"deal": "params.hand_size", "to": "hand"}],
    "climbing": {"plays": {"single": {"kind": "set", "min": 1, "max": 1}},
                 "beats": "play.size == last.size and play.rank > last.rank",
                 "first_leader": "next_seat(dealer)"},
    "scoring": {"each_player": 0},
    "match": {"ends_when": "deal.number >= 1", "on_tie": "shared"},
}

SINGLE = {"kind": "set", "min": 1, "max": 1}
PAIR = {"kind": "set", "min": 2, "max": 2}


def write(tmp_path: Path, top: dict | None = None, name: str = "r.yaml", **climbing) -> str:
    """BASE with top-level sections replaced (``top``) and climbing keys set (``climbing``), as a file."""
    d = copy.deepcopy(BASE)
    for k, v in (top or {}).items():
        d[k] = copy.deepcopy(v)
    d["climbing"].update(copy.deepcopy(climbing))
    f = tmp_path / name
    f.write_text(yaml.dump(d, Dumper=_Dumper, sort_keys=False))
    return str(f)


def load(tmp_path, top=None, name="r.yaml", hand_size=None, **climbing):
    """The ruleset; ``hand_size`` overrides the cards dealt to each player (5)."""
    return rulesdsl.load(write(tmp_path, top, name, **climbing),
                         overrides={"hand_size": hand_size} if hand_size else None)


def errors(tmp_path, top=None, name="r.yaml", **climbing) -> list:
    with pytest.raises(rulesdsl.RulesetError) as exc:
        load(tmp_path, top, name, **climbing)
    return exc.value.diagnostics


def codes(diags) -> set:
    return {d.code for d in diags}


def stacked(hands: dict, n: int = 2, per: int = 5, dealer: int | None = None, jokers: int = 0,
            extra=()) -> list:
    """A full deck, top card first: ``per`` rounds of one card at a time from the dealer's next seat give
    each seat of ``hands`` those cards (completed from the unused cards, low first); ``extra`` follows,
    so it is the top of the stock after the deal."""
    dealer = n - 1 if dealer is None else dealer
    seats = [(dealer + 1 + i) % n for i in range(n)]
    pool = ALL + [JOKER] * jokers
    for c in [c for h in hands.values() for c in h] + list(extra):
        pool.remove(c)
    given = {s: list(hands.get(s, ())) for s in range(n)}
    for s in seats:
        assert len(given[s]) <= per
        while len(given[s]) < per:
            given[s].append(pool.pop(0))
    dealt = [given[seats[i % n]][i // n] for i in range(per * n)]
    return dealt + list(extra) + pool


def new(rules, hands: dict, n: int = 2, dealer: int | None = None, jokers: int = 0, extra=()):
    """A game of ``rules`` whose deal gives each seat of ``hands`` those cards (and fills the rest)."""
    per = rules.params["hand_size"]
    dealer = n - 1 if dealer is None else dealer
    g = rules.new_game(players=n, seed=1, dealer=dealer,
                       deck=stacked(hands, n, per, dealer, jokers, extra))
    for s, h in hands.items():                         # the stacking is what the deal really gave
        assert set(h) <= set(g.hand_of(s)) and len(g.hand_of(s)) == per, (s, h, g.hand_of(s))
    return g


def legal(g) -> list:
    return [str(a) for a in g.legal_actions()]


def played_sets(g) -> list:
    """Each legal play as the set of its cards (wild cards with their declared identity)."""
    return [frozenset(a.split()[1:]) for a in legal(g) if a.startswith("play ")]


def trick(g) -> dict:
    return g.view(0)["trick"]


# ==================================================================================================
# Patterns: classification of every kind, the strongest fit
# ==================================================================================================

POKER = {
    "single": SINGLE,
    "pair": PAIR,
    "straight": {"kind": "run", "min": 3, "max": 5, "suits": "any"},
    "flush": {"kind": "flush", "min": 5, "max": 5},
    "full_house": {"kind": "rank_groups", "groups": [3, 2]},
    "four_kind": {"kind": "rank_groups", "groups": [4, 1]},
    "straight_flush": {"kind": "run", "min": 3, "max": 5},              # one suit: `suits` defaults to same
}
POKER_BEATS = ("play.size == last.size and (play.tier > last.tier "
               "or (play.kind == last.kind and play.high > last.high))")

CLASSIFY = [
    (["7S"], "single"),
    (["7S", "7H"], "pair"),
    (["3S", "4H", "5D"], "straight"),                    # a run of any suits
    (["9S", "10H", "JD", "QC", "KS"], "straight"),
    (["KS", "AH", "2D"], "straight"),                    # the top of the order: 2 is highest
    (["3S", "4S", "5S"], "straight_flush"),              # fits straight too: the strongest fit counts
    (["3S", "5S", "7S", "9S", "JS"], "flush"),
    (["3S", "4S", "5S", "6S", "7S"], "straight_flush"),  # fits straight, flush and straight flush
    (["3S", "3H", "3D", "5S", "5H"], "full_house"),
    (["3S", "3H", "3D", "3C", "5S"], "four_kind"),
    (["3S", "3H", "3D", "5S", "6H"], None),              # three and two odd cards
    (["3S", "3H", "5D"], None),                          # no pattern of a pair and an odd card
    (["7S", "7H", "7D", "7C"], None),                    # a four needs its odd card ([4, 1])
    (["AS", "2H", "3D"], None),                          # no wrap: 2 is the top, 3 the bottom
    (["3S", "4H", "6D"], None),                          # a gap
    (["3S", "4H", "5D", "6C", "7S", "8H"], None),        # longer than any pattern
]


@pytest.mark.parametrize("cards, kind", CLASSIFY, ids=lambda x: "-".join(x) if isinstance(x, list) else str(x))
def test_each_pattern_kind_classifies_a_lead(tmp_path, cards, kind):
    r = load(tmp_path, plays=POKER, beats=POKER_BEATS, hand_size=len(cards) + 1)   # one card kept after the play
    g = new(r, {0: cards})
    offered = frozenset(cards) in played_sets(g)        # a lead: every play is legal, every distinct one listed
    assert offered == (kind is not None), (cards, legal(g))
    if kind is None:
        assert_illegal(g, "play " + " ".join(cards))
        return
    g.apply("play " + " ".join(cards))
    t = trick(g)
    assert t["kind"] == kind and sorted(t["last_play"]) == sorted(cards) and t["last_player"] == 0


def test_run_of_one_suit_refuses_mixed_suits_unless_suits_any(tmp_path):
    same = load(tmp_path, name="same.yaml", plays={"single": SINGLE, "run": {"kind": "run", "min": 3, "max": 3}})
    anys = load(tmp_path, name="any.yaml",
                plays={"single": SINGLE, "run": {"kind": "run", "min": 3, "max": 3, "suits": "any"}})
    hand = {0: ["3S", "4S", "5S", "4H", "5D"]}
    g = new(same, hand)
    assert {s for s in played_sets(g) if len(s) == 3} == {frozenset(["3S", "4S", "5S"])}
    assert_illegal(g, "play 3S 4H 5D")
    g.apply("play 3S 4S 5S")
    assert trick(g)["kind"] == "run"
    g = new(anys, hand)                                  # no rule reads a suit: one run per choice of ranks
    runs = [sorted(c[:-1] for c in s) for s in played_sets(g) if len(s) == 3]
    assert runs == [["3", "4", "5"]]
    g.apply("play 3S 4H 5D")
    assert trick(g)["kind"] == "run"


@pytest.mark.parametrize("cards", [["AS", "2H", "3D"], ["2S", "3H", "4D"], ["QS", "KH", "AD"]])
def test_wrap_makes_the_run_order_cyclic(tmp_path, cards):
    plays = {"single": SINGLE, "run": {"kind": "run", "min": 3, "max": 3, "suits": "any", "wrap": True}}
    wrapped = load(tmp_path, name="wrap.yaml", plays=plays)
    flat = load(tmp_path, name="flat.yaml", plays={**plays, "run": {**plays["run"], "wrap": False}})
    crosses_top = cards[0] != "QS"                      # A-2-3 and 2-3-4 go past the top of the order
    g = new(wrapped, {0: cards})
    g.apply("play " + " ".join(cards))
    assert trick(g)["kind"] == "run"
    g = new(flat, {0: cards})
    if crosses_top:
        assert_illegal(g, "play " + " ".join(cards))
    else:
        g.apply("play " + " ".join(cards))
        assert trick(g)["kind"] == "run"


@pytest.mark.parametrize("groups, lead, answer, beats", [
    ([3, 2], ["5S", "5H", "5D", "3S", "3H"], ["4S", "4H", "4D", "2S", "2H"], False),   # the three decides
    ([3, 2], ["5S", "5H", "5D", "3S", "3H"], ["6S", "6H", "6D", "4S", "4H"], True),
    ([4, 1], ["5S", "5H", "5D", "5C", "2S"], ["4S", "4H", "4D", "4C", "2H"], False),   # the four decides
    ([4, 1], ["5S", "5H", "5D", "5C", "3S"], ["6S", "6H", "6D", "6C", "3H"], True),
])
def test_rank_groups_rank_is_the_largest_groups_rank(tmp_path, groups, lead, answer, beats):
    r = load(tmp_path, plays={"single": SINGLE, "hand": {"kind": "rank_groups", "groups": groups}},
             beats="play.size == last.size and play.kind == last.kind and play.rank > last.rank", hand_size=6)
    g = new(r, {0: lead, 1: answer})
    g.apply("play " + " ".join(lead))
    assert trick(g)["kind"] == "hand" and trick(g)["to_beat_rank"] == lead[0][:-1]
    assert (frozenset(answer) in played_sets(g)) == beats
    assert legal(g)[-1] == "pass"
    if not beats:
        assert legal(g) == ["pass"]


def test_strongest_fit_is_the_last_listed_pattern_the_cards_fit(tmp_path):
    cards = ["3S", "4S", "5S", "6S", "7S"]
    r = load(tmp_path, name="a.yaml", plays=POKER, beats=POKER_BEATS, hand_size=6)
    g = new(r, {0: cards})
    g.apply("play " + " ".join(cards))
    assert trick(g)["kind"] == "straight_flush"
    reordered = {k: v for k, v in POKER.items() if k != "flush"}
    reordered["flush"] = POKER["flush"]                  # now the flush is listed last: the strongest
    r = load(tmp_path, name="b.yaml", plays=reordered, beats=POKER_BEATS, hand_size=6)
    g = new(r, {0: cards})
    g.apply("play " + " ".join(cards))
    assert trick(g)["kind"] == "flush"


def test_play_tier_lets_a_stronger_pattern_beat_higher_ranks(tmp_path):
    """play.tier is the pattern's position: a low flush beats a high straight (tier), a straight flush
    beats a flush, and within one pattern the higher top card wins (play.high)."""
    r = load(tmp_path, plays=POKER, beats=POKER_BEATS, hand_size=6)
    straight = ["9S", "10H", "JD", "QC", "KS"]
    flush = ["3H", "5H", "7H", "9H", "JH"]
    g = new(r, {0: straight + ["3C"], 1: flush + ["4C"]})
    g.apply("play " + " ".join(straight))
    assert frozenset(flush) in played_sets(g)
    assert frozenset(["JS", "QS", "KS", "AS", "2S"]) not in played_sets(g)    # not held, of course
    g.apply("play " + " ".join(flush))
    assert trick(g)["kind"] == "flush"
    assert legal(g) == ["pass"]                          # seat 0 has one card left


# ==================================================================================================
# play.* members: high with suit_order, suits, wilds and naturals
# ==================================================================================================


@pytest.mark.parametrize("suit_order, expected", [
    (["D", "C", "H", "S"], {"5H", "5S", "6D"}),          # C is the second-lowest suit: only H and S beat it
    (None, {"6D"}),                                      # deck order S H D C: C is the highest suit
])
def test_play_high_ranks_by_rank_then_suit_order(tmp_path, suit_order, expected):
    extra = {"suit_order": suit_order} if suit_order else {}
    r = load(tmp_path, beats="play.high > last.high", **extra)
    g = new(r, {0: ["5C", "3S", "3H", "3D", "3C"], 1: ["5D", "5H", "5S", "4S", "6D"]})
    g.apply("play 5C")
    assert {a.split()[1] for a in legal(g) if a != "pass"} == expected
    assert g.view(1)["play_choices"] == "every distinct play is listed"
    for card in {"5D", "5H", "5S", "4S", "6D"} - expected:
        assert_illegal(g, f"play {card}")


def test_no_suit_read_lists_one_play_per_rank_choice_and_view_says_so(tmp_path):
    plays = {"single": SINGLE, "pair": PAIR}
    plain = load(tmp_path, name="plain.yaml", plays=plays)
    suited = load(tmp_path, name="suited.yaml", plays=plays,
                  beats="play.size == last.size and play.high > last.high")
    hand = {0: ["5S", "5H", "5D", "9C", "9H"]}
    g = new(plain, hand)
    sets = played_sets(g)
    ranks = sorted((len(s), sorted(c[:-1] for c in s)) for s in sets)
    assert ranks == sorted([(1, ["5"]), (1, ["9"]), (2, ["5", "5"]), (2, ["9", "9"])])
    assert "one play per choice of ranks" in g.view(0)["play_choices"]
    g.apply("play 5D 5H")                                # another spelling of the listed pair of 5s
    assert sorted(trick(g)["last_play"]) == ["5D", "5H"]
    g = new(suited, hand)
    assert len(played_sets(g)) == 5 + 3 + 1             # every card; every pair: C(3,2) of 5s, one of 9s
    assert g.view(0)["play_choices"] == "every distinct play is listed"


# ==================================================================================================
# Wild cards in plays
# ==================================================================================================

WILD_TOP = {"deck": {"ranks": RANKS, "suits": SUITS, "jokers": 2}, "wild": "is_joker(card)"}
WILD_PLAYS = {"single": SINGLE, "grp": {"kind": "group", "min": 1, "max": 4, "wild_ratio": "naturals >= 1"},
              "lone": {"kind": "wild", "min": 1, "max": 1}}
NATURALS_BEAT = ("play.size == last.size and (play.rank > last.rank "
                 "or (play.rank == last.rank and play.naturals > last.naturals))")


def _wild_rules(tmp_path):
    return load(tmp_path, WILD_TOP, plays=WILD_PLAYS, beats=NATURALS_BEAT)


def _shape(play: str) -> tuple:
    """A play as (natural cards, wild cards, rank the wild cards stand for)."""
    words = play.split()[1:]
    nat = tuple(sorted(w for w in words if not w.startswith(JOKER)))
    wild = [w for w in words if w.startswith(JOKER)]
    stands = {w.split("=")[1][:-1] for w in wild if "=" in w}
    return nat, len(wild), (stands.pop() if len(stands) == 1 else None if not stands else "mixed")


def test_wild_card_joins_a_group_as_the_card_it_is_declared(tmp_path):
    r = _wild_rules(tmp_path)
    g = new(r, {0: ["6S", JOKER, "9H", "9D", "3C"], 1: ["6H", "6D", JOKER, "KS", "4C"]}, jokers=2)
    assert (("6S",), 1, "6") in {_shape(a) for a in legal(g) if a != "pass"}
    assert_illegal(g, "play 6S Jk=7C")                   # a wild card must stand for the group's rank
    g.apply("play 6S Jk=6C")
    t = trick(g)
    assert t["kind"] == "grp" and t["to_beat_rank"] == "6" and sorted(t["last_play"]) == ["6S", JOKER]
    # seat 1 (6H 6D Jk KS 4C) answers two cards: higher rank, or the same rank with more natural cards
    got = {_shape(a) for a in legal(g) if a != "pass"}
    assert got == {(("6D", "6H"), 0, None), (("KS",), 1, "K")}, legal(g)
    assert_illegal(g, "play 6H Jk=6C")                   # same rank, no more natural cards
    assert_illegal(g, "play 4C Jk=4S")


def test_wild_cards_alone_form_only_the_wild_pattern(tmp_path):
    r = _wild_rules(tmp_path)
    g = new(r, {0: [JOKER, JOKER, "5S", "5H", "7D"]}, jokers=2)
    assert_illegal(g, "play Jk Jk")                      # `lone` takes one; a group needs a natural card
    assert not [a for a in legal(g) if a.split()[1:] == [JOKER, JOKER]]
    assert ((), 1, None) in {_shape(a) for a in legal(g)}
    assert_illegal(g, "play 5S 5H Jk=5D Jk=5C 7D")       # over max 4, and two ranks
    g.apply("play 5S Jk=5D Jk=5C")                        # two wild cards with one natural: ratio holds
    assert trick(g)["kind"] == "grp" and len(trick(g)["last_play"]) == 3


@pytest.mark.parametrize("top, action", [
    ({"deck": {"ranks": RANKS, "suits": SUITS, "jokers": 2}}, "play 6S Jk=6C"),    # jokers, none wild
    ({}, "play 6S Jk=6C"),                                                         # no jokers at all
    ({"deck": {"ranks": RANKS, "suits": SUITS, "jokers": 2}}, "play 6S 7S=6C"),    # a natural card
])
def test_declaring_a_card_that_is_not_wild_is_an_illegal_action(tmp_path, top, action):
    jokers = top.get("deck", {}).get("jokers", 0)
    r = load(tmp_path, top, plays={"single": SINGLE, "pair": PAIR})
    hand = ["6S", "7S", "6C", "9D"] + ([JOKER] if jokers else ["3S"])
    g = new(r, {0: hand}, jokers=jokers)
    assert_illegal(g, action)                            # rulesdsl.IllegalAction, never a TypeError
    if jokers:
        g.apply("play Jk")                                # a joker that is not wild is a card of its own rank
        assert trick(g)["to_beat_rank"] == "joker"


# ==================================================================================================
# Named suits
# ==================================================================================================

NAMING = dict(beats='play.suit == last.suit or play.rank_name == last.rank_name or play.rank_name == "8"',
              names_suit='play.rank_name == "8"')


@pytest.mark.parametrize("bad", ["play 8H", "play 8H name", "play 8H name Z", "play 9H name S",
                                 "pass name S", "play 8H name S S", "play 8H name !!", "play name S",
                                 "play 8H name S name H"])
def test_malformed_or_misplaced_name_is_an_illegal_action(tmp_path, bad):
    r = load(tmp_path, **NAMING)
    g = new(r, {0: ["8H", "9H", "3C", "4D", "5S"]})
    assert_illegal(g, bad)


def test_named_suit_is_the_suit_to_follow(tmp_path):
    r = load(tmp_path, **NAMING)
    g = new(r, {0: ["8H", "9H", "3C", "4D", "5S"], 1: ["6H", "6S", "KS", "4C", "8D"]})
    eights = [a for a in legal(g) if a.startswith("play 8H")]
    assert sorted(eights) == sorted(f"play 8H name {s}" for s in SUITS)
    assert "play 9H" in legal(g) and not any("name" in a for a in legal(g) if "8H" not in a)
    g.apply("play 8H name s")                            # the suit in any case
    assert trick(g)["named_suit"] == "S"
    hand = g.hand_of(1)
    expected = {c for c in hand if c.endswith("S") or c[:-1] == "8"}
    got = {a.split()[1] for a in legal(g) if a.startswith("play")}
    assert got == expected == {"6S", "KS", "8D"}
    assert_illegal(g, "play 6H")                         # hearts no longer follow


# ==================================================================================================
# Toggles: effect set / flip, resets_each_trick
# ==================================================================================================


@pytest.mark.parametrize("effect", ["set", "flip"])
@pytest.mark.parametrize("resets", [True, None])
def test_toggle_set_stays_on_flip_turns_over_and_trick_end_resets(tmp_path, effect, resets):
    toggle = {"when": "last.size > 0 and play.suit == last.suit"}
    if effect == "set":
        toggle["effect"] = "set"
    if resets is not None:
        toggle["resets_each_trick"] = resets
    r = load(tmp_path, toggles={"lock": toggle},
             beats="play.rank > last.rank and (not state.lock or play.suit == last.suit)")
    g = new(r, {0: ["3S", "5S", "9H", "10H", "JH"], 1: ["4S", "6S", "7H", "QD", "KD"]})
    g.apply("play 3S")
    assert g.view(0)["state"]["lock"] is False
    g.apply("play 4S")                                   # two plays of one suit: on, with either effect
    assert g.view(0)["state"]["lock"] is True
    g.apply("play 5S")                                   # again: `set` keeps it on, `flip` turns it off
    on = effect == "set"
    assert g.view(0)["state"]["lock"] is on
    singles = {a.split()[1] for a in legal(g) if a != "pass"}
    assert singles == ({"6S"} if on else {"6S", "7H", "QD", "KD"})
    g.apply("pass")                                      # seat 0's play stands: the trick ends
    assert not trick(g)["last_play"] and g.current_player == 0
    assert g.view(0)["state"]["lock"] is (on and not resets)


# ==================================================================================================
# Going out: on_going_out / drops_to_last, ends_when, all_passed
# ==================================================================================================

SETS = {"set": {"kind": "set", "min": 1, "max": 3}}


def test_on_going_out_drops_seats_to_last_in_hook_order(tmp_path):
    hooks = [{"when": "finished_players == 1", "drops_to_last": "3"},
             {"when": "finished_players == 1", "drops_to_last": "1"}]
    r = load(tmp_path, plays=SETS, on_going_out=hooks, hand_size=3)
    g = new(r, {0: ["5S", "5H", "5D"]}, n=4)
    g.apply("play 5S 5H 5D")                             # 0 out; 3 then 1 drop below seat 2, 1 lowest
    assert g.hand_log[-1]["order"] == [0, 2, 3, 1]
    assert g.hand_log[-1]["ending"] == "out"


def test_dropped_seat_gets_no_more_turns_and_finishes_last(tmp_path):
    hooks = [{"when": "finished_players == 1", "drops_to_last": "next_seat(player)"}]
    r = load(tmp_path, plays=SETS, on_going_out=hooks, hand_size=3)
    g = new(r, {0: ["5S", "5H", "5D"], 1: ["6S", "6H", "6D"], 2: ["7S", "7H", "7D"], 3: ["3S", "4S", "8C"]},
            n=4)
    g.apply("play 5S 5H 5D")                             # 0 goes out: its next seat, 1, drops to last
    assert g.current_player == 2 and len(g.hand_of(1)) == 3
    g.apply("pass")
    assert g.current_player == 3
    g.apply("pass")                                      # all passed; 0 is out and 1 dropped: 2 leads
    assert g.current_player == 2 and not trick(g)["last_play"]
    g.apply("play 7S 7H 7D")                             # second out: the hook's `when` no longer holds
    assert g.hand_log[-1]["order"] == [0, 2, 3, 1]


def test_hook_without_effect_when_its_condition_is_false(tmp_path):
    hooks = [{"when": "finished_players == 2", "drops_to_last": "1"}]
    r = load(tmp_path, plays=SETS, on_going_out=hooks, hand_size=3)
    g = new(r, {0: ["5S", "5H", "5D"], 1: ["6S", "6H", "6D"]}, n=4)
    g.apply("play 5S 5H 5D")
    assert g.current_player == 1                         # not dropped: 1 is next
    g.apply("play 6S 6H 6D")                             # second out; 1 is out already: nobody drops
    assert g.current_player == 2


@pytest.mark.parametrize("ends_when", [None, "finished_players >= 1"])
def test_ends_when_ends_the_hand_after_a_play(tmp_path, ends_when):
    extra = {"ends_when": ends_when} if ends_when else {}
    r = load(tmp_path, plays=SETS, hand_size=3, **extra)
    g = new(r, {0: ["5S", "5H", "5D"]}, n=3)
    g.apply("play 5S 5H 5D")
    if ends_when:
        assert len(g.hand_log) == 1 and g.hand_log[0]["order"][0] == 0
    else:                                                # the default: play on until one holds cards
        assert not g.hand_log and g.current_player == 1


@pytest.mark.parametrize("all_passed", ["new_trick", "end_hand"])
def test_all_passed_starts_a_new_trick_or_ends_the_hand_blocked(tmp_path, all_passed):
    r = load(tmp_path, all_passed=all_passed)
    g = new(r, {0: ["KS", "3H", "4H", "5H", "6H"], 1: ["3S", "4S", "5S", "6S", "7S"]})
    g.apply("play KS")
    assert legal(g) == ["pass"]
    g.apply("pass")
    if all_passed == "new_trick":                        # seat 0's play stood: it leads a new trick
        assert g.current_player == 0 and not trick(g)["last_play"] and not g.hand_log
        assert "pass" not in legal(g)
        return
    assert g.current_player == 0 and trick(g)["last_play"] == ["KS"]   # its own play still to beat
    assert legal(g) == ["pass"]
    g.apply("pass")                                      # everyone passed in a row: play is blocked
    assert len(g.hand_log) == 1 and g.hand_log[0]["ending"] == "blocked"


# ==================================================================================================
# Opening play, holder(), deal `seat:`
# ==================================================================================================


def test_opening_play_must_include_the_card_and_holder_finds_its_seat(tmp_path):
    r = load(tmp_path, plays={"single": SINGLE, "pair": PAIR}, first_leader='holder("5H")',
             opening_play_includes='if deal.number > 5 then none else "5H"')
    for seat in (0, 1):
        g = new(r, {seat: ["5S", "5H", "7C", "9D", "9H"]})
        assert g.current_player == seat
        assert set(played_sets(g)) == {frozenset(["5H"]), frozenset(["5H", "5S"])}
        assert_illegal(g, "play 5S")
        assert_illegal(g, "play 9D 9H")
        g.apply("play 5H")
        g.apply("pass")                                  # a new trick: any play may lead now
        assert g.current_player == seat
        assert frozenset(["9D", "9H"]) in played_sets(g) and frozenset(["5S"]) in played_sets(g)


def test_constant_opening_card_single_is_listed_and_accepted(tmp_path):
    r = load(tmp_path, plays={"single": SINGLE, "pair": PAIR}, first_leader='holder("5H")',
             opening_play_includes='"5H"')
    g = new(r, {1: ["5S", "5H", "7C", "9D", "9H"]})
    assert g.current_player == 1
    assert frozenset(["5H"]) in played_sets(g)
    g.apply("play 5H")
    assert trick(g)["last_play"] == ["5H"]


def test_holder_of_a_card_nobody_holds_is_none(tmp_path):
    r = load(tmp_path, first_leader='if holder("2C") == none then 1 else 0')
    g = new(r, {0: ["3S", "4S", "5S", "6S", "7S"], 1: ["3H", "4H", "5H", "6H", "7H"]})
    assert "2C" not in g.hand_of(0) + g.hand_of(1)
    assert g.current_player == 1
    g = new(r, {0: ["2C", "4S", "5S", "6S", "7S"]})
    assert g.current_player == 0


@pytest.mark.parametrize("where", ["seat1", "seat0_has_3C", "stock"])
def test_deal_step_with_seat_gives_cards_to_that_seat_only(tmp_path, where):
    deal = [{"deal": 5, "to": "hand"},
            {"deal": 1, "to": "hand", "seat": 'if holder("3D") != none then holder("3D") else holder("3C")'}]
    r = load(tmp_path, {"deal": deal})
    if where == "seat1":
        hands, gets = {1: ["3D", "4S", "5S", "6S", "7S"], 0: ["8S", "9S", "10S", "JS", "QS"]}, 1
    elif where == "seat0_has_3C":
        hands, gets = {0: ["3C", "4H", "5H", "6H", "7H"], 1: ["8H", "9H", "10H", "JH", "QH"]}, 0
    else:                                                # 3D is the next card of the stock: nobody holds it
        hands, gets = {0: ["3C", "4H", "5H", "6H", "7H"], 1: ["8H", "9H", "10H", "JH", "QH"]}, 0
    extra = ["3D"] if where == "stock" else ["2C"]
    g = r.new_game(players=2, seed=1, dealer=1, deck=stacked(hands, extra=extra))
    assert [len(g.hand_of(s)) for s in (0, 1)] == [6 if gets == 0 else 5, 6 if gets == 1 else 5]
    assert sorted(g.hand_of(gets)) == sorted(hands[gets] + extra)
    assert sorted(g.hand_of(1 - gets)) == sorted(hands[1 - gets])


def test_deal_seat_that_is_not_a_seat_is_a_rule_evaluation_error(tmp_path):
    deal = [{"deal": 5, "to": "hand"}, {"deal": 1, "to": "hand", "seat": "7"}]
    r = load(tmp_path, {"deal": deal})
    with pytest.raises(RuleEvaluationError):
        r.new_game(players=2, seed=1, dealer=1)


# ==================================================================================================
# Draws: draw_from / draw_when / pass_when / next_draws, trick.plays
# ==================================================================================================

SHED_TOP = {"zones": {"stock": {"visible": "none"}, "hand": {"per": "player", "visible": "owner"},
                      "discard": {"visible": "top"}, "played": {"visible": "none"}}}


def test_draw_when_and_pass_when_read_turn_draws_and_can_play(tmp_path):
    r = load(tmp_path, SHED_TOP, to="discard", draw_from="stock", beats="play.suit == last.suit",
             draw_when="turn.draws < 2", pass_when="not can_play")
    g = new(r, {0: ["3S", "4D", "5D", "6D", "7D"], 1: ["9S", "9H", "10H", "JH", "QH"]},
            extra=["8H", "8C", "8D"])
    g.apply("play 3S")
    assert legal(g) == ["play 9S", "draw stock"]         # can play: no pass; fewer than 2 draws: draw
    g.apply("draw stock")
    assert "8H" in g.hand_of(1) and g.current_player == 1
    g.apply("draw stock")
    assert "8C" in g.hand_of(1)
    assert legal(g) == ["play 9S"]                       # two draws made; able to play: no pass
    g.apply("play 9S")
    assert legal(g) == ["draw stock", "pass"]            # seat 0 holds no spade: may draw, may pass


def test_next_draws_owed_cards_are_answered_or_drawn_and_add_up(tmp_path):
    r = load(tmp_path, SHED_TOP, to="discard", draw_from="stock",
             beats='(draws_owed == 0 or play.rank_name == "2") and '
                   '(play.suit == last.suit or play.rank_name == last.rank_name)',
             next_draws='if play.rank_name == "2" then 2 else 0')
    g = new(r, {0: ["2S", "2H", "9H", "9D", "3C"], 1: ["6H", "6S", "2D", "KS", "4C"]},
            extra=["5C", "5D", "5H", "5S", "7C"])
    g.apply("play 2S")
    assert trick(g)["draws_owed"] == 2
    assert legal(g) == ["play 2D", "draw stock"]         # answer with a 2 or draw; no pass, no other play
    assert_illegal(g, "pass")
    assert_illegal(g, "play 6S")
    g.apply("play 2D")                                   # answered: the next player owes 2 + 2
    assert trick(g)["draws_owed"] == 4 and g.current_player == 0
    before = len(g.hand_of(0))
    g.apply("draw stock")                                # the owed cards, then the turn passes
    assert len(g.hand_of(0)) == before + 4
    assert {"5C", "5D", "5H", "5S"} <= set(g.hand_of(0)) and "7C" not in g.hand_of(0)
    assert g.current_player == 1 and trick(g)["draws_owed"] == 0


def test_trick_plays_counts_the_plays_of_the_current_trick(tmp_path):
    r = load(tmp_path, beats="trick.plays < 2 and play.rank > last.rank")
    g = new(r, {0: ["3S", "5S", "9S", "10S", "JS"], 1: ["4H", "6H", "7H", "8H", "QH"]})
    g.apply("play 3S")
    g.apply("play 4H")
    assert legal(g) == ["pass"]                          # a third play would be one too many
    g.apply("pass")
    assert g.current_player == 1 and not trick(g)["last_play"]
    g.apply("play 6H")
    assert "play 9S" in legal(g)                          # a new trick counts afresh


# ==================================================================================================
# Load checks
# ==================================================================================================


@pytest.mark.parametrize("plays", [
    {"pair": PAIR},
    {"single": {"kind": "set", "min": 1, "max": 1, "ranks": ["3"]}, "pair": PAIR},   # not *any* single card
])
def test_no_pattern_taking_a_single_card_is_E_CLIMB_SIZES(tmp_path, plays):
    d = errors(tmp_path, plays=plays)
    assert "E-CLIMB-SIZES" in codes(d), [x.format() for x in d]


def test_unknown_suit_in_suit_order_is_E_UNKNOWN_SUIT(tmp_path):
    d = errors(tmp_path, suit_order=["D", "C", "H", "X"])
    found = [x for x in d if x.code == "E-UNKNOWN-SUIT"]
    assert found and "`X`" in found[0].message and found[0].pos.path.endswith("r.yaml"), [x.format() for x in d]


def test_rank_groups_without_groups_is_E_MISSING(tmp_path):
    d = errors(tmp_path, plays={"single": SINGLE, "fh": {"kind": "rank_groups"}})
    assert any(x.code == "E-MISSING" and "groups" in x.message for x in d), [x.format() for x in d]


def test_next_draws_without_draw_from_is_E_MISSING(tmp_path):
    d = errors(tmp_path, next_draws="2")
    assert any(x.code == "E-MISSING" and "draw_from" in x.message for x in d), [x.format() for x in d]


def test_flush_under_melds_is_E_UNSUPPORTED(tmp_path):
    f = tmp_path / "gin_flush.yaml"
    f.write_text("extends: gin_rummy\nmelds:\n  flush: {kind: flush, min: 3, max: 5}\n")
    with pytest.raises(rulesdsl.RulesetError) as exc:
        rulesdsl.load(str(f))
    found = [x for x in exc.value.diagnostics if x.code == "E-UNSUPPORTED"]
    assert found and found[0].pos.path.endswith("gin_flush.yaml") and found[0].pos.line == 3, \
        [x.format() for x in exc.value.diagnostics]


@pytest.mark.parametrize("key, value", [("suits", "any"), ("groups", [2])])
def test_run_or_rank_groups_key_on_a_set_is_E_IGNORED(tmp_path, key, value):
    d = errors(tmp_path, plays={"single": {**SINGLE, key: value}})
    assert any(x.code == "E-IGNORED" and f"`{key}`" in x.message for x in d), [x.format() for x in d]


def test_every_construct_together_loads(tmp_path):
    """The keys that are refused above are accepted where they apply (a control for the load checks)."""
    r = load(tmp_path, plays=POKER, suit_order=["D", "C", "H", "S"], draw_from="stock",
             next_draws='if play.rank_name == "2" then 2 else 0', beats=POKER_BEATS)
    assert r.new_game(players=2, seed=3).legal_actions()


# ==================================================================================================
# President: one play per rank and size; every distinct play under the suit lock
# ==================================================================================================


PRES_HAND = ["5S", "5H", "5D", "9C", "9H", "3S", "4S", "6S", "7S", "8S", "10S", "JS", "QS"]   # 13 cards


def _president(variant: str | None):
    from president_helpers import new_game
    g = new_game({0: PRES_HAND}, n=4, variant=variant)
    assert sorted(g.hand_of(0)) == sorted(PRES_HAND)
    return g


def test_president_base_lists_one_play_per_rank_and_size():
    g = _president(None)
    kinds = sorted((a.split()[1][:-1], len(a.split()) - 1) for a in legal(g))
    counts = {}
    for c in PRES_HAND:
        counts[c[:-1]] = counts.get(c[:-1], 0) + 1
    assert kinds == sorted((r, k) for r, n in counts.items() for k in range(1, n + 1))   # each once, no suits
    assert "one play per choice of ranks" in g.view(0)["play_choices"]
    g.apply("play 5D 5H")                                # another spelling of the listed pair
    assert sorted(g.view(1)["trick"]["last_play"]) == ["5D", "5H"]


def test_president_suit_lock_lists_every_distinct_play():
    g = _president("variants/president_suit_lock")
    sets = played_sets(g)
    by_rank = {}
    for c in PRES_HAND:
        by_rank.setdefault(c[:-1], []).append(c)
    expected = [frozenset(x) for cards in by_rank.values() for k in range(1, len(cards) + 1)
                for x in combinations(cards, k)]
    assert sorted(map(sorted, sets)) == sorted(map(sorted, expected))    # every distinct play, once
    assert g.view(0)["play_choices"] == "every distinct play is listed"
