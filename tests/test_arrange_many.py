"""Several run and set types in the arrangement search (issue 10, item 7): `deadwood`, the go-out layout
and layoffs are exact against a brute-force oracle over every partition into melds of any declared type."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from hypothesis import given, settings, strategies as st

import rulesdsl

BUNDLED = Path(rulesdsl.__file__).resolve().parent.parent / "rulesets"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SUITS = "SHDC"
ALL = [r + s for s in SUITS for r in RANKS]
VALUE = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}

# Gin with two run types (short runs of exactly 3 in rank order, long runs of 5+ with the ace high or
# low) and two set types (3-4 of a rank, or exactly 2 kings: a "royal pair")
TYPES = """
melds:
  run: {kind: run, min: 3, max: 3}                   # replaces Gin's own run type
  long: {kind: run, min: 5, order: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]}
  set: {kind: set, min: 3, max: 4}
  royal: {kind: set, min: 2, max: 2, ranks: [K]}
"""


def _rules(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text(f"extends: {BUNDLED / 'gin_rummy.yaml'}\n{TYPES}")
    return rulesdsl.load(path)


def _is_meld(cards: frozenset) -> bool:
    cs = sorted(cards)
    ranks = [RANKS.index(c[:-1]) for c in cs]
    suits = {c[-1] for c in cs}
    if len(set(r for r in ranks)) == 1:
        n = len(cs)
        return 3 <= n <= 4 or (n == 2 and cs[0][:-1] == "K")
    if len(suits) != 1:
        return False
    rs = sorted(ranks)
    n = len(rs)
    if n == 3 and rs == list(range(rs[0], rs[0] + 3)):
        return True
    if n >= 5:
        if rs == list(range(rs[0], rs[0] + n)):
            return True
        high = sorted(13 if r == 0 else r for r in rs)             # the ace high
        return high == list(range(high[0], high[0] + n))
    return False


@lru_cache(maxsize=None)
def _oracle(hand: frozenset) -> int:
    if not hand:
        return 0
    c = min(hand)
    best = VALUE[c[:-1]] + _oracle(hand - {c})
    rest = sorted(hand - {c})
    from itertools import combinations
    for k in range(1, min(len(rest), 13) + 1):
        for combo in combinations(rest, k):
            m = frozenset(combo) | {c}
            if _is_meld(m):
                best = min(best, _oracle(hand - m))
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=6, max_size=10, unique=True))
def test_deadwood_with_several_types_is_exact(tmp_path_factory, hand):
    rules = _rules(tmp_path_factory.mktemp("many"))
    arr = rules.arrange(hand)
    assert arr.points == _oracle(frozenset(hand))
    for meld in arr.melds:
        assert _is_meld(frozenset(meld))


def test_a_long_run_with_the_ace_high_and_a_royal_pair(tmp_path):
    rules = _rules(tmp_path)
    arr = rules.arrange(["10S", "JS", "QS", "KS", "AS", "KH", "KD", "2C", "3C", "4C"])
    assert arr.points == 0
    assert sorted(map(sorted, arr.melds)) == sorted(map(sorted, [["10S", "JS", "QS", "KS", "AS"], ["KH", "KD"],
                                                                    ["2C", "3C", "4C"]]))
    four = rules.arrange(["2C", "3C", "4C", "5C", "9H", "9D"])     # no type takes 4 cards: 3C-5C, 2C left
    assert four.points == _oracle(frozenset(["2C", "3C", "4C", "5C", "9H", "9D"])) == 2 + 18


def test_random_matches_with_several_types_play_to_the_end(tmp_path):
    rules = _rules(tmp_path)
    for seed in range(3):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(4000):
            if g.is_over:
                break
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
        for h in g.hand_log:
            if h["ending"] in ("knock", "gin"):
                assert h["deadwood"][h["declarer"]] <= 10


def test_several_run_types_with_open_melds_are_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {BUNDLED / 'rummy_500.yaml'}\nmelds:\n  run2: {{kind: run, min: 5}}\n")
    import pytest
    with pytest.raises(rulesdsl.RulesetError) as e:
        rulesdsl.load(path)
    assert any(d.code == "E-UNSUPPORTED" and "table" in d.message for d in e.value.diagnostics)


@lru_cache(maxsize=None)
def _after_layoffs(hand: frozenset, melds: tuple) -> int:
    best = _oracle(hand)
    for c in hand:
        for i, m in enumerate(melds):
            if _is_meld(m | {c}):
                grown = melds[:i] + (m | {c},) + melds[i + 1:]
                best = min(best, _after_layoffs(hand - {c}, grown))
    return best


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=14, max_size=17, unique=True))
def test_layoffs_with_several_types_are_exact(tmp_path_factory, cards):
    rules = _rules(tmp_path_factory.mktemp("many"))
    prog = rules.program()
    table = prog.cards
    knocker, defender = cards[:10], cards[10:]
    melds = rules.arrange(knocker).melds
    ids = lambda texts: [table.parse_kind(t) for t in texts]          # one deck: id == kind
    points, _lay = prog.melds.best_layoffs(ids(defender), [ids(m) for m in melds])
    assert points == _after_layoffs(frozenset(defender), tuple(frozenset(m) for m in melds))


@lru_cache(maxsize=None)
def _best_partitions(hand: frozenset) -> frozenset:
    """Every set of melds (a frozenset of frozensets) leaving ``hand`` its least deadwood."""
    from itertools import combinations

    target = _oracle(hand)
    if not hand:
        return frozenset([frozenset()])
    c = min(hand)
    out = set()
    if VALUE[c[:-1]] + _oracle(hand - {c}) == target:
        out |= _best_partitions(hand - {c})
    rest = sorted(hand - {c})
    for k in range(1, min(len(rest), 13) + 1):
        for combo in combinations(rest, k):
            m = frozenset(combo) | {c}
            if _is_meld(m) and _oracle(hand - m) == target:
                out |= {p | {m} for p in _best_partitions(hand - m)}
    return frozenset(out)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=15, max_size=17, unique=True))
def test_the_knock_layout_with_several_types_leaves_the_defender_the_most_deadwood(tmp_path_factory, cards):
    """docs/language.md (going out): of the layouts with the least deadwood, the declarer lays out the
    one that leaves the defender the most deadwood after the defender's best layoffs -- with several
    meld types too, where every least-deadwood layout is found by the general search."""
    rules = _rules(tmp_path_factory.mktemp("many"))
    prog = rules.program()
    ids = lambda texts: [prog.cards.parse_kind(t) for t in texts]       # one deck: id == kind
    text = prog.cards.text
    knocker, defender = cards[:10], cards[10:]
    chosen = prog.melds.best_for_declarer(ids(knocker), ids(defender), True)
    layout = tuple(frozenset(text[c] for c in m) for m in chosen.melds)
    options = _best_partitions(frozenset(knocker))
    assert frozenset(layout) in options
    best = max(_after_layoffs(frozenset(defender), tuple(sorted(p, key=sorted))) for p in options)
    assert _after_layoffs(frozenset(defender), tuple(sorted(layout, key=sorted))) == best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=7, max_size=10, unique=True))
def test_every_least_deadwood_layout_is_found_with_several_types(tmp_path_factory, hand):
    """The general search lists every layout with the least deadwood (the declarer chooses among them),
    the same set as an oracle that tries every partition into melds of any declared type."""
    rules = _rules(tmp_path_factory.mktemp("many"))
    melds = rules.program().melds
    ids = [melds.cards.parse_kind(t) for t in hand]                    # one deck: id == kind
    text = melds.cards.text
    found = {frozenset(frozenset(text[c] for c in melds.ids_of(m, ids)) for m in layout)
             for layout in melds.arranger.all_best(melds.mask(ids))}
    want = _best_partitions(frozenset(hand))
    assert found == set(want) if len(want) < 64 else found <= set(want)


def test_among_layouts_that_tie_for_the_defender_the_declarer_shows_the_first():
    """melds.best_for_declarer: when several least-deadwood layouts leave the defender the same deadwood,
    the first in the search's fixed order is shown (so the same deal always shows the same table)."""
    prog = rulesdsl.load(BUNDLED / "gin_rummy.yaml").program()
    melds = prog.melds
    ids = lambda texts: [prog.cards.parse_kind(t) for t in texts.split()]        # one deck: id == kind
    knocker = ids("5S 6S 7S 8S 8H 8D 8C KH KD KC")     # 5-8S + three 8s, or 5-7S + four 8s: no deadwood
    defender = ids("2H 3D 4C 10H JD QC 2C 3H 4D 10C")  # lays off on neither layout
    options = melds.arranger.all_best(melds.mask(knocker))
    shown = lambda layout: sorted(sorted(melds.ids_of(m, knocker)) for m in layout)
    assert len({tuple(map(tuple, shown(o))) for o in options}) >= 2      # a real tie between layouts
    chosen = melds.best_for_declarer(knocker, defender, True)
    assert sorted(sorted(m) for m in chosen.melds) == shown(options[0])
    assert chosen.deadwood == ()
