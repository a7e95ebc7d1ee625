"""Tests for rulesdsl.compile.arrange: exact minimum-deadwood arrangement and layoffs.

Every exactness claim is checked against a brute force written here from the meld definitions alone
(enumerate every subset of the hand, keep the valid melds, try every disjoint combination).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations, permutations, product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesdsl.compile import arrange as arrange_module
from rulesdsl.compile.arrange import Arrangement, Arranger, LayoffResult, cards_of, mask_of

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"
STD_VALUES = [min(r + 1, 10) for _s in range(4) for r in range(13)]
ACE_LOW = list(range(13))
ACE_BOTH = list(range(13)) + [0]


def kind(card: str) -> int:
    return SUITS.index(card[-1]) * 13 + RANKS.index(card[:-1])


def hand(text: str) -> int:
    return mask_of(kind(c) for c in text.split())


def names(mask: int) -> list:
    return [RANKS[k % 13] + SUITS[k // 13] for k in cards_of(mask)]


# --------------------------------------------------------------------------------------------------
# Independent oracle
# --------------------------------------------------------------------------------------------------


class Cfg:
    """A meld configuration, as given to the Arranger, used by the brute force."""

    def __init__(self, n_ranks=13, n_suits=4, values=None, run_order=ACE_LOW, run_min=3,
                 run_max=None, wrap=False, set_min=3, set_max=4):
        self.n_ranks, self.n_suits = n_ranks, n_suits
        self.values = list(values) if values is not None else [
            min(k % n_ranks + 1, 10) for k in range(n_ranks * n_suits)]
        self.run_order, self.run_min, self.run_max = run_order, run_min, run_max
        self.wrap, self.set_min, self.set_max = wrap, set_min, set_max

    def arranger(self, **kw) -> Arranger:
        return Arranger(self.n_ranks, self.n_suits, self.values, self.run_order, self.run_min,
                        self.run_max, self.wrap, self.set_min, self.set_max, **kw)

    @property
    def n_cards(self) -> int:
        return self.n_ranks * self.n_suits

    def is_run(self, cards) -> bool:
        if self.run_order is None or not cards:
            return False
        R = self.n_ranks
        if len({k // R for k in cards}) != 1:
            return False
        n = len(cards)
        if n < self.run_min or (self.run_max is not None and n > self.run_max):
            return False
        ranks = {k % R for k in cards}
        if len(ranks) != n:
            return False
        order = list(self.run_order)
        L = len(order)
        for i in range(L):
            if self.wrap:
                if n > L:
                    break
                window = [order[(i + t) % L] for t in range(n)]
            else:
                if i + n > L:
                    break
                window = order[i:i + n]
            if len(set(window)) == n and set(window) == ranks:
                return True
        return False

    def is_set(self, cards) -> bool:
        if self.set_min is None or not cards:
            return False
        R = self.n_ranks
        return (len({k % R for k in cards}) == 1 and len(set(cards)) == len(cards)
                and self.set_min <= len(cards) <= self.set_max)

    def is_meld(self, cards) -> bool:
        return self.is_run(cards) or self.is_set(cards)

    def melds_in(self, cards) -> list:
        cards = sorted(cards)
        out = []
        for size in range(1, len(cards) + 1):
            for sub in combinations(cards, size):
                if self.is_meld(sub):
                    out.append(mask_of(sub))
        return sorted(out)

    def value(self, mask: int) -> int:
        return sum(self.values[k] for k in cards_of(mask))

    def brute_deadwood(self, mask: int) -> int:
        melds = self.melds_in(cards_of(mask))
        vals = [self.value(m) for m in melds]

        @lru_cache(maxsize=None)
        def best(i: int, avail: int) -> int:
            if i == len(melds):
                return 0
            b = best(i + 1, avail)
            if melds[i] & avail == melds[i]:
                b = max(b, vals[i] + best(i + 1, avail & ~melds[i]))
            return b

        return self.value(mask) - best(0, mask)

    def chain_ok(self, kind_: str, meld: int, laid: int) -> bool:
        """Can the cards of ``laid`` be added to ``meld`` one at a time, each step valid?"""
        check = self.is_run if kind_ == "run" else self.is_set
        cards = cards_of(laid)
        for perm in permutations(cards):
            cur = cards_of(meld)
            ok = True
            for k in perm:
                cur = cur + [k]
                if not check(cur):
                    ok = False
                    break
            if ok:
                return True
        return not cards

    def brute_layoffs(self, mask: int, table) -> int:
        R = self.n_ranks
        held = cards_of(mask)
        opts = []
        for k in held:
            o = [-1]
            for t, (kind_, meld) in enumerate(table):
                tc = cards_of(meld)
                if kind_ == "run" and k // R == tc[0] // R:
                    o.append(t)
                if kind_ == "set" and k % R == tc[0] % R:
                    o.append(t)
            opts.append(o)
        best = None
        for assign in product(*opts):
            laid = [0] * len(table)
            for k, t in zip(held, assign):
                if t >= 0:
                    laid[t] |= 1 << k
            if not all(self.chain_ok(kd, m, laid[t]) for t, (kd, m) in enumerate(table)):
                continue
            rest = mask
            for x in laid:
                rest &= ~x
            pts = self.brute_deadwood(rest)
            if best is None or pts < best:
                best = pts
        return best

    def all_melds(self) -> list:
        """Every meld of the whole deck as (kind, mask) -- for drawing table melds."""
        out = []
        R = self.n_ranks
        if self.run_order is not None:
            seen = set()
            for s in range(self.n_suits):
                for n in range(self.run_min, (self.run_max or len(self.run_order)) + 1):
                    for i in range(len(self.run_order)):
                        ranks = [self.run_order[(i + t) % len(self.run_order)] for t in range(n)
                                 if self.wrap or i + t < len(self.run_order)]
                        cards = [s * R + r for r in ranks]
                        if len(cards) == n and self.is_run(cards) and mask_of(cards) not in seen:
                            seen.add(mask_of(cards))
                            out.append(("run", mask_of(cards)))
        if self.set_min is not None:
            for r in range(R):
                suit_cards = [s * R + r for s in range(self.n_suits)]
                for n in range(self.set_min, self.set_max + 1):
                    for sub in combinations(suit_cards, n):
                        out.append(("set", mask_of(sub)))
        return out


LOW = Cfg(run_order=ACE_LOW)
BOTH = Cfg(run_order=ACE_BOTH)
WRAP = Cfg(run_order=ACE_LOW, wrap=True)

OTHER_CFGS = {
    "no_sets": Cfg(set_min=None),
    "no_runs": Cfg(run_order=None),
    "run_max4_sets23": Cfg(run_max=4, set_min=2, set_max=3),
    "runs2_both": Cfg(run_order=ACE_BOTH, run_min=2, set_max=3),
    "odd_values": Cfg(values=[(k * 7) % 11 for k in range(52)], run_order=ACE_BOTH),
    "5x6_wrap": Cfg(n_ranks=6, n_suits=5, run_order=list(range(6)), wrap=True, set_max=5),
    "6suits_counter": Cfg(n_ranks=8, n_suits=6, run_order=list(range(8)), set_max=6),
    "16ranks_lazy": Cfg(n_ranks=16, n_suits=2, run_order=list(range(16)) + [0],
                        set_min=2, set_max=2),
    "order_subset": Cfg(run_order=[1, 2, 3, 4, 5, 6, 7, 8, 9], run_min=4),
}


@st.composite
def hands(draw, cfg: Cfg = LOW, max_size: int = 11):
    """Random hands of three shapes: uniform; drawn from a narrow band of ranks and suits; or the
    union of a few random melds plus stray cards -- so that several, competing melds are common."""
    R, S = cfg.n_ranks, cfg.n_suits
    shape = draw(st.sampled_from(("uniform", "band", "melds")))
    if shape == "melds":
        melds = _all_melds(cfg)
        cards: set = set()
        for _ in range(draw(st.integers(1, 4))):
            _kind, m = draw(st.sampled_from(melds))
            cards.update(cards_of(m))
        cards.update(draw(st.sets(st.integers(0, cfg.n_cards - 1), max_size=3)))
        cards = set(sorted(cards)[:max_size]) if len(cards) > max_size else cards
        return mask_of(cards)
    if shape == "uniform":
        pool = list(range(cfg.n_cards))
    else:
        lo = draw(st.integers(0, R - 1))
        width = draw(st.integers(3, min(6, R)))
        ranks = {(lo + i) % R for i in range(width)}
        suits = draw(st.sets(st.integers(0, S - 1), min_size=1))
        pool = sorted(s * R + r for s in suits for r in ranks)
    cards = draw(st.sets(st.sampled_from(pool), max_size=min(max_size, len(pool))))
    return mask_of(cards)


_ARRANGERS: dict = {}
_MELDS: dict = {}


def _all_melds(cfg: Cfg) -> list:
    melds = _MELDS.get(id(cfg))
    if melds is None:
        melds = _MELDS[id(cfg)] = cfg.all_melds()
    return melds


def arranger_for(cfg: Cfg) -> Arranger:
    a = _ARRANGERS.get(id(cfg))
    if a is None:
        a = _ARRANGERS[id(cfg)] = cfg.arranger()
    return a


def check_arrangement(cfg: Cfg, a: Arranger, mask: int, arr: Arrangement) -> None:
    used = 0
    for m in arr.melds:
        assert m & used == 0, "melds overlap"
        assert m & mask == m, "meld uses a card outside the hand"
        assert cfg.is_meld(cards_of(m)), f"invalid meld {cards_of(m)}"
        assert a.is_meld(m)
        used |= m
    assert arr.deadwood == mask & ~used
    assert arr.points == cfg.value(arr.deadwood)
    assert arr.points == a.deadwood(mask)


# --------------------------------------------------------------------------------------------------
# Exactness against the brute force
# --------------------------------------------------------------------------------------------------

SLOW = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(hands(LOW))
def test_deadwood_matches_brute_force_ace_low(mask):
    a = arranger_for(LOW)
    assert a.deadwood(mask) == LOW.brute_deadwood(mask)
    check_arrangement(LOW, a, mask, a.best(mask))


@SLOW
@given(hands(BOTH))
def test_deadwood_matches_brute_force_ace_both_ways(mask):
    a = arranger_for(BOTH)
    assert a.deadwood(mask) == BOTH.brute_deadwood(mask)
    check_arrangement(BOTH, a, mask, a.best(mask))


@SLOW
@given(hands(WRAP))
def test_deadwood_matches_brute_force_wrap(mask):
    a = arranger_for(WRAP)
    assert a.deadwood(mask) == WRAP.brute_deadwood(mask)
    check_arrangement(WRAP, a, mask, a.best(mask))


@pytest.mark.parametrize("name", sorted(OTHER_CFGS))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_other_configurations_match_brute_force(name, data):
    cfg = OTHER_CFGS[name]
    a = arranger_for(cfg)
    mask = data.draw(hands(cfg, max_size=10))
    assert a.deadwood(mask) == cfg.brute_deadwood(mask)
    check_arrangement(cfg, a, mask, a.best(mask))
    assert a.melds_within(mask) == cfg.melds_in(cards_of(mask))


@settings(max_examples=150, deadline=None)
@given(hands(BOTH))
def test_melds_within_and_is_meld(mask):
    a = arranger_for(BOTH)
    expected = BOTH.melds_in(cards_of(mask))
    assert a.melds_within(mask) == expected
    for m in expected:
        assert a.is_meld(m)
        assert a.meld_kind(m) == ("run" if BOTH.is_run(cards_of(m)) else "set")
    if mask and mask not in expected:
        assert not a.is_meld(mask)
        assert a.meld_kind(mask) is None


@settings(max_examples=150, deadline=None)
@given(hands(LOW))
def test_cover_is_union_of_melds(mask):
    a = arranger_for(LOW)
    union = 0
    for m in LOW.melds_in(cards_of(mask)):
        union |= m
    assert a.cover(mask) == union
    assert a.value(mask) == LOW.value(mask)


def test_memo_is_bounded_and_results_unchanged():
    import random

    rng = random.Random(7)
    small = BOTH.arranger(memo_limit=40)
    big = BOTH.arranger()
    for _ in range(2000):
        m = mask_of(rng.sample(range(52), rng.choice((10, 11))))
        assert small.deadwood(m) == big.deadwood(m)
        assert len(small._memo) <= 40
        assert len(small._gmemo) <= 40
    small.clear_cache()
    assert not small._memo and not small._gmemo


def test_cold_and_warm_agree():
    import random

    rng = random.Random(3)
    a = LOW.arranger()
    masks = [mask_of(rng.sample(range(52), 10)) for _ in range(300)]
    first = [a.deadwood(m) for m in masks]
    assert [a.deadwood(m) for m in masks] == first
    a.clear_cache()
    assert [a.deadwood(m) for m in reversed(masks)] == first[::-1]


# --------------------------------------------------------------------------------------------------
# Examples
# --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def low() -> Arranger:
    return Arranger(13, 4, STD_VALUES, ACE_LOW)


@pytest.fixture(scope="module")
def both() -> Arranger:
    return Arranger(13, 4, STD_VALUES, ACE_BOTH)


def test_all_melded_is_zero(low):
    m = hand("AS 2S 3S 7H 7D 7C 10D JD QD KD")
    assert low.deadwood(m) == 0
    arr = low.best(m)
    assert arr.points == 0 and arr.deadwood == 0
    assert sorted(arr.melds) == sorted([hand("AS 2S 3S"), hand("7H 7D 7C"), hand("10D JD QD KD")])


def test_two_sets_and_deadwood(low):
    m = hand("8S 8H 8D 4S 4H 4D 5C 2H 2D AC")
    assert low.deadwood(m) == 10
    arr = low.best(m)
    assert arr.points == 10
    assert arr.deadwood == hand("5C 2H 2D AC")
    check_arrangement(LOW, low, m, arr)


def test_card_fitting_two_melds_counts_once(low):
    m = hand("7H 7S 7D 5H 6H")
    # 7H can complete either 7S7D7H or 5H6H7H, not both: best leaves 5H 6H (11) or 7S 7D (14).
    assert low.deadwood(m) == 11
    arr = low.best(m)
    assert arr.melds == (hand("7S 7H 7D"),)
    assert arr.deadwood == hand("5H 6H")
    # with a fourth 7 both melds fit
    assert low.deadwood(m | hand("7C")) == 0


def test_ace_low_versus_ace_both_ways(low, both):
    m = hand("QS KS AS 5D")
    assert low.deadwood(m) == 26
    assert both.deadwood(m) == 5
    assert not low.is_meld(hand("QS KS AS"))
    assert both.is_meld(hand("QS KS AS"))
    assert not both.is_meld(hand("KS AS 2S")), "ace both ways must not wrap"
    wrap = Arranger(13, 4, STD_VALUES, ACE_LOW, wrap=True)
    assert wrap.is_meld(hand("KS AS 2S"))


def test_full_suit_runs(both):
    full = hand("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    assert both.is_meld(full)
    assert both.deadwood(full) == 0


def test_empty_and_out_of_deck_bits(low):
    assert low.deadwood(0) == 0
    assert low.best(0) == Arrangement(0, (), 0)
    assert low.melds_within(0) == []
    assert low.deadwood(1 << 60) == 0  # bits past the deck are ignored


def test_no_melds_at_all_configuration():
    a = Arranger(13, 4, STD_VALUES, None, set_min=None)
    m = hand("AS 2S 3S 7H 7D 7C")
    assert a.deadwood(m) == 1 + 2 + 3 + 21
    assert a.melds_within(m) == []
    assert not a.is_meld(hand("AS 2S 3S"))


def test_copy_and_pickle(low):
    import copy
    import pickle

    assert copy.copy(low) is low and copy.deepcopy({"a": low})["a"] is low
    clone = pickle.loads(pickle.dumps(low))
    m = hand("AS 2S 3S 7H 7D 9C")
    assert clone.deadwood(m) == low.deadwood(m) == 23
    assert Arranger.deadwood(low, m) == 23  # the class-level method delegates to the instance's


def test_helpers_round_trip():
    kinds = [0, 5, 13, 51]
    assert cards_of(mask_of(kinds)) == kinds
    assert cards_of(0) == []
    assert mask_of([]) == 0
    assert mask_of([3, 3]) == 8
    with pytest.raises(ValueError):
        cards_of(-1)
    with pytest.raises(ValueError):
        mask_of([-2])


@pytest.mark.parametrize("kwargs", [
    dict(n_ranks=0),
    dict(values=[1] * 51),
    dict(run_order=[0, 1, 13]),
    dict(run_min=3, run_max=2),
    dict(set_min=3, set_max=2),
    dict(set_min=0),
])
def test_bad_parameters_are_rejected(kwargs):
    params = dict(n_ranks=13, n_suits=4, values=STD_VALUES, run_order=ACE_LOW)
    params.update(kwargs)
    with pytest.raises(ValueError):
        Arranger(**params)


@pytest.mark.parametrize("kwargs", [dict(set_min=1, set_max=1), dict(run_min=1, run_max=1)])
def test_the_smallest_bounds_are_accepted(kwargs):
    """One card is a legal meld size (the check refuses only below one): every card melds alone."""
    params = dict(n_ranks=13, n_suits=4, values=STD_VALUES, run_order=ACE_LOW)
    params.update(kwargs)
    assert Arranger(**params).deadwood(hand("KS 9H 2D")) == 0


def test_bits_beyond_the_deck_are_ignored(low):
    """A mask is cut to the deck's card kinds first: a stray bit above the last kind is no card."""
    m = hand("AS 2S 3S 7H 9C")
    stray = m | 1 << 52 | 1 << 53
    assert low.best(stray) == low.best(m)
    assert low.all_best(stray) == low.all_best(m)
    table = [("run", hand("4S 5S 6S"))]
    assert low.best_with_layoffs(stray, table) == low.best_with_layoffs(m, table)


# --------------------------------------------------------------------------------------------------
# Layoffs
# --------------------------------------------------------------------------------------------------


def check_layoff_result(cfg: Cfg, a: Arranger, mask: int, table, res: LayoffResult) -> None:
    laid = 0
    cur = [m for _k, m in table]
    for k, t in res.layoffs:
        bit = 1 << k
        assert bit & mask and not bit & laid, "laid-off card not held or used twice"
        laid |= bit
        cur[t] |= bit
        check = cfg.is_run if table[t][0] == "run" else cfg.is_set
        assert check(cards_of(cur[t])), "layoff order is not playable card by card"
    used = laid
    for m in res.melds:
        assert m & used == 0 and m & mask == m and cfg.is_meld(cards_of(m))
        used |= m
    assert res.deadwood == mask & ~used
    assert res.points == cfg.value(res.deadwood)


def test_layoff_example_1(low):
    table = [("run", hand("2D 3D 4D")), ("set", hand("7C 7H 7S")), ("run", hand("9S 10S JS"))]
    m = hand("QH QD QC 5D 7D 8S 8H KC 3S 6H")
    res = low.best_with_layoffs(m, table)
    assert res.points == 27
    assert sorted(res.layoffs) == sorted([(kind("5D"), 0), (kind("7D"), 1), (kind("8S"), 2)])
    assert res.melds == (hand("QH QD QC"),)
    assert res.deadwood == hand("KC 3S 6H 8H")
    check_layoff_result(LOW, low, m, table, res)


def test_layoff_example_2(low):
    table = [("run", hand("AS 2S 3S")), ("set", hand("6H 6C 6D")), ("run", hand("JD QD KD"))]
    m = hand("9C 9H 9S 2H 3H 4H 5H 4S 2C 6S")
    res = low.best_with_layoffs(m, table)
    assert res.points == 2
    assert res.deadwood == hand("2C")
    check_layoff_result(LOW, low, m, table, res)


def test_layoff_example_3(low):
    table = [("run", hand("5H 6H 7H 8H")), ("set", hand("9C 9D 9S 9H"))]
    m = hand("KS KD KC KH 2S 3S 4S 5S 4H 4C")
    res = low.best_with_layoffs(m, table)
    assert res.points == 4
    assert res.deadwood == hand("4C")
    assert res.layoffs == ((kind("4H"), 0),)
    check_layoff_result(LOW, low, m, table, res)


def test_layoff_chain_order(low):
    table = [("run", hand("2D 3D 4D"))]
    m = hand("6D 5D KC")
    res = low.best_with_layoffs(m, table)
    assert res.layoffs == ((kind("5D"), 0), (kind("6D"), 0))
    assert res.points == 10
    # 6D alone cannot be laid off
    res = low.best_with_layoffs(hand("6D KC"), table)
    assert res.layoffs == () and res.points == 16


def test_run_ending_in_ace_extends_upward_only(low):
    table = [("run", hand("AS 2S 3S"))]
    res = low.best_with_layoffs(hand("KS 4S"), table)
    assert res.layoffs == ((kind("4S"), 0),)
    assert res.points == 10


def test_run_ending_in_king_extends_downward_only(low):
    table = [("run", hand("JS QS KS"))]
    res = low.best_with_layoffs(hand("AS 10S"), table)
    assert res.layoffs == ((kind("10S"), 0),)
    assert res.points == 1


def test_ace_both_ways_run_ends(both):
    # J-Q-K takes the ace above it; Q-K-A takes nothing past the ace
    res = both.best_with_layoffs(hand("AS 10S"), [("run", hand("JS QS KS"))])
    assert res.points == 0 and len(res.layoffs) == 2
    res = both.best_with_layoffs(hand("2S JS"), [("run", hand("QS KS AS"))])
    assert res.layoffs == ((kind("JS"), 0),)
    assert res.points == 2


def test_sets_take_cards_up_to_set_max():
    five = Arranger(13, 5, [min(r + 1, 10) for _s in range(5) for r in range(13)], ACE_LOW)
    seven = lambda s: s * 13 + 6  # noqa: E731
    full_set = mask_of(seven(s) for s in range(4))
    res = five.best_with_layoffs(1 << seven(4), [("set", full_set)])
    assert res.layoffs == () and res.points == 7, "a 4-card set takes nothing"
    three = mask_of(seven(s) for s in range(3))
    res = five.best_with_layoffs(1 << seven(4) | 1 << seven(3), [("set", three)])
    assert len(res.layoffs) == 1 and res.points == 7
    # the 4-suit deck: a 3-card set takes the fourth
    low = Arranger(13, 4, STD_VALUES, ACE_LOW)
    res = low.best_with_layoffs(hand("7C"), [("set", hand("7S 7H 7D"))])
    assert res.layoffs == ((kind("7C"), 0),) and res.points == 0


def test_layoff_tie_break_prefers_fewest_layoffs():
    # 5D 6D 7D can be melded or all laid off onto 2D3D4D: both leave 0; fewest layoffs wins
    low = Arranger(13, 4, STD_VALUES, ACE_LOW)
    table = [("run", hand("2D 3D 4D"))]
    m = hand("5D 6D 7D")
    res = low.best_with_layoffs(m, table)
    assert res.points == 0
    assert res.layoffs == ()
    assert res.melds == (m,)
    # 4S fits both sets (a tie): the lower table index / lower mask is chosen, reproducibly
    table = [("set", hand("4H 4D 4C")), ("set", hand("9S 9H 9D"))]
    res = low.best_with_layoffs(hand("4S 9C"), table)
    assert res.points == 0
    assert res.layoffs == ((kind("4S"), 0), (kind("9C"), 1))


def test_layoffs_are_deterministic():
    table = [("run", hand("2D 3D 4D")), ("run", hand("8D 9D 10D")), ("set", hand("6S 6H 6C"))]
    m = hand("5D 6D 7D 2S 2H")
    r1 = LOW.arranger().best_with_layoffs(m, table)
    r2 = LOW.arranger().best_with_layoffs(m, table)
    assert r1 == r2
    assert r1.points == 4
    check_layoff_result(LOW, arranger_for(LOW), m, table, r1)


def test_layoff_rejects_bad_table(low):
    with pytest.raises(ValueError):
        low.best_with_layoffs(hand("5D"), [("row", hand("2D 3D 4D"))])
    with pytest.raises(ValueError):
        low.best_with_layoffs(hand("4D"), [("run", hand("2D 3D 4D"))])


@st.composite
def layoff_instances(draw, cfg: Cfg):
    melds = _all_melds(cfg)
    table = []
    used = 0
    for _ in range(draw(st.integers(1, 3))):
        kind_, m = draw(st.sampled_from(melds))
        if m & used:
            continue
        table.append((kind_, m))
        used |= m
    R = cfg.n_ranks
    near = set()
    for _k, m in table:
        for c in cards_of(m):
            for d in (-2, -1, 0, 1, 2):
                near.add((c % R + d) % R)
    pool = [k for k in range(cfg.n_cards) if k % R in near and not used >> k & 1]
    cards = draw(st.sets(st.sampled_from(pool), max_size=min(8, len(pool))))
    return mask_of(cards), table


OTHER_CFGS_BY_KEY = {"low": LOW, "both": BOTH, "wrap": WRAP,
                     "run_max4": Cfg(run_max=4, set_max=3)}


@pytest.mark.parametrize("key", sorted(OTHER_CFGS_BY_KEY))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_layoffs_match_brute_force(key, data):
    cfg = OTHER_CFGS_BY_KEY[key]
    a = arranger_for(cfg)
    mask, table = data.draw(layoff_instances(cfg))
    res = a.best_with_layoffs(mask, table)
    assert res.points == cfg.brute_layoffs(mask, table)
    check_layoff_result(cfg, a, mask, table, res)


# --------------------------------------------------------------------------------------------------
# The module knows no game
# --------------------------------------------------------------------------------------------------


def test_module_names_no_game():
    text = Path(arrange_module.__file__).read_text(encoding="utf-8").lower()
    for word in ("gin", "rummy", "canasta", "oklahoma", "tonk", "president", "daifugo",
                 "hand and foot", "knock"):
        assert not re.search(r"\b" + word + r"\b", text), word
