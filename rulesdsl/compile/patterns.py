"""Card patterns for plays: which combinations a climbing or shedding game accepts, and how strong each is.

A play's patterns are declared with the meld vocabulary (``kind: set | group | wild | run | flush |
rank_groups``, ``min``, ``max``, ``ranks``, ``order``, ``wrap``, ``suits``, ``wild_ratio``), listed
from weakest to strongest.  Cards that fit several patterns count as the strongest (the last listed):
five cards in sequence and of one suit are a straight flush, not a straight.

A play is judged on its *faces*: ``(rank key, suit index, wild)`` per card, where a wild card shows the
identity it was declared as (``Jk=6C``).  ``PlayShape`` is what classification finds; the engine turns it
into the ``play.*`` names under the rank order in force.  Candidates are enumerated per pattern from a
hand (never every subset of it), and at most ``MAX_CANDIDATES`` are listed for one position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations, product
from typing import Callable, Iterator, Optional, Sequence

from .cards import CardTable

#: the rank key of a pattern of wild cards only: above every rank
WILD_RANK = -2
#: candidates listed for one position at most (a bound on work for any ruleset)
MAX_CANDIDATES = 4000


@dataclass(frozen=True)
class Pattern:
    name: str
    tier: int                       # position in `plays:`, weakest first
    kind: str
    min: int
    max: int
    ranks: Optional[frozenset]      # rank keys allowed (set/group)
    run_order: tuple                # run: rank keys in sequence (a rank may appear at both ends)
    wrap: bool
    same_suit: bool                 # run: one suit
    distinct_suits: bool            # set: every card of a different suit
    groups: tuple                   # rank_groups: sizes, largest first
    ratio: Optional[Callable]       # group: (naturals, wilds) -> allowed


@dataclass(frozen=True)
class PlayShape:
    """A classified play: its pattern and the ranks and suits that decide its strength."""

    pattern: Pattern
    rank_key: int                   # the rank it is of (set, group), its top (run) or main group's rank
    rank_pos: int                   # position of that rank in the ordering that compares it
    scale: int                      # highest position that ordering has (to reverse it)
    low_pos: int                    # position of its lowest rank
    high_suit: int                  # suit index of its strongest card (-1: none)
    suits: tuple                    # suit indexes of its cards (declared ones for wild cards), sorted
    wilds: int
    size: int


class Patterns:
    """The ruleset's play patterns compiled for one deck."""

    def __init__(self, patterns: list, cards: CardTable, order: list, wild: Sequence[bool]):
        self.patterns = patterns
        self.cards = cards
        self.order = order                                  # climbing order: rank keys low to high
        self.pos = {k: i for i, k in enumerate(order)}
        self.top = len(order)                               # a wild-only play ranks above every rank
        self.wild = wild
        self.n_r = len(cards.ranks)
        self.n_s = len(cards.suits)
        self.suit_pos = {i: i for i in range(self.n_s)}     # suit index -> position (set by the compiler)
        self.suit_sensitive = any(p.kind == "flush" or (p.kind == "run" and p.same_suit) or p.distinct_suits
                                  for p in patterns)
        self._sized = {(p.tier, k): replace(p, min=k, max=k) for p in patterns for k in range(p.min, min(p.max, 64) + 1)}
        self._fitting: dict = {}                            # play size -> (matcher, pattern), strongest first
        self._runs: dict = {}                               # (tier, size) -> {sorted ranks: window start}
        self._run_list: dict = {}                           # (tier, size) -> windows of distinct ranks

    # ------------------------------------------------------------------ faces
    def faces(self, ids: Sequence[int], declared: Sequence[Optional[int]]) -> list:
        """(rank key, suit, wild) per card; a wild card's declared kind gives its face (None: undeclared)."""
        c = self.cards
        out = []
        for i, d in zip(ids, declared):
            if self.wild[i]:
                if d is None:
                    out.append((None, None, True))
                else:
                    out.append((c.kind_rank[d], d // self.n_r if c.kind_rank[d] >= 0 else -1, True))
            else:
                out.append((c.rank[i], c.suit[i], False))
        return out

    # ------------------------------------------------------------------ classification
    def classify(self, faces: list) -> Optional[PlayShape]:
        """The strongest pattern these faces fit, or None."""
        n = len(faces)
        fitting = self._fitting.get(n)
        if fitting is None:                    # the patterns a play of n cards may fit, strongest first
            fitting = self._fitting[n] = tuple((_MATCHERS[p.kind], p) for p in reversed(self.patterns)
                                               if p.min <= n <= p.max)
        for match, p in fitting:
            shape = match(self, p, faces)
            if shape is not None:
                return shape
        return None

    def run_list(self, p: Pattern, n: int) -> tuple:
        """The windows of ``n`` different ranks of a run pattern's order, lowest start first, each with
        its ranks as bits."""
        windows = self._run_list.get((p.tier, n))
        if windows is None:
            order, L = p.run_order, len(p.run_order)
            windows = tuple((w, sum(1 << r for r in w)) for w in (tuple(order[(lo + i) % L] for i in range(n))
                                                                  for lo in range(L if p.wrap else L - n + 1))
                            if len(set(w)) == n)
            self._run_list[(p.tier, n)] = windows
        return windows

    def run_windows(self, p: Pattern, n: int) -> dict:
        """For a run pattern and a length: each window of the run order (its ranks sorted) -> where the
        highest such window starts.  Built once per pattern and length; a run is then one look-up."""
        table = self._runs.get((p.tier, n))
        if table is None:
            order, L = p.run_order, len(p.run_order)
            table = {}
            for lo in range(L if p.wrap else L - n + 1):       # later windows overwrite: the highest wins
                window = tuple(sorted(order[(lo + i) % L] for i in range(n)))
                if len(set(window)) == n:                      # a rank at both ends of `order` is in no run twice
                    table[window] = lo
            self._runs[(p.tier, n)] = table
        return table

    def _shape(self, p, rank_key, rank_pos, scale, low_pos, high_suit, faces) -> PlayShape:
        suits = tuple(sorted(s for _, s, _ in faces if s is not None and s >= 0))
        return PlayShape(p, rank_key, rank_pos, scale, low_pos, high_suit, suits,
                         sum(1 for f in faces if f[2]), len(faces))

    def _best_suit(self, suits, suit_pos) -> int:
        known = [s for s in suits if s is not None and s >= 0]
        return max(known, key=suit_pos.__getitem__) if known else -1

    # ------------------------------------------------------------------ candidates
    def candidates(self, hand: Sequence[int], suits_matter: bool, size: Optional[int] = None) -> Iterator[tuple]:
        """(ids, declared) for plays the hand could make: per pattern, a bounded enumeration.  With
        ``suits_matter`` false, one candidate per choice of ranks is enough (other suits are the same
        play); classification and judging happen in the engine."""
        c = self.cards
        by_rank: dict = {}
        wilds = []
        wild, rank = self.wild, c.rank
        for i in sorted(hand, key=c.kind.__getitem__):
            if wild[i]:
                wilds.append(i)
            else:
                r = rank[i]
                if r in by_rank:
                    by_rank[r].append(i)
                else:
                    by_rank[r] = [i]
        for p in self.patterns:
            if size is not None:                   # only plays of this many cards can be legal
                if not p.min <= size <= p.max:
                    continue
                p = self._sized.get((p.tier, size), p)
            yield from _ENUMERATORS[p.kind](self, p, by_rank, wilds, suits_matter)


# ---------------------------------------------------------------------- matchers (faces -> shape)

def _match_set(P: Patterns, p: Pattern, faces: list) -> Optional[PlayShape]:
    if any(w for _, _, w in faces):
        return None
    ranks = {r for r, _, _ in faces}
    if len(ranks) != 1:
        return None
    r = ranks.pop()
    if p.ranks is not None and r not in p.ranks:
        return None
    suits = [s for _, s, _ in faces]
    if p.distinct_suits and len(set(suits)) != len(suits):
        return None
    return P._shape(p, r, P.pos[r], P.top, P.pos[r], P._best_suit(suits, P.suit_pos), faces)


def _match_group(P: Patterns, p: Pattern, faces: list) -> Optional[PlayShape]:
    nat = [f for f in faces if not f[2]]
    if not nat:
        return None
    ranks = {r for r, _, _ in nat} | {r for r, _, w in faces if w and r is not None}
    if len(ranks) != 1:
        return None
    r = ranks.pop()
    if r < 0 or (p.ranks is not None and r not in p.ranks):
        return None
    w = len(faces) - len(nat)
    if p.ratio is not None and not p.ratio(len(nat), w):
        return None
    return P._shape(p, r, P.pos[r], P.top, P.pos[r], P._best_suit([s for _, s, _ in faces], P.suit_pos), faces)


def _match_wild(P: Patterns, p: Pattern, faces: list) -> Optional[PlayShape]:
    if not all(w for _, _, w in faces):
        return None
    return P._shape(p, WILD_RANK, P.top, P.top, P.top, -1, faces)


def _match_run(P: Patterns, p: Pattern, faces: list) -> Optional[PlayShape]:
    if any(r is None or r < 0 or s is None or s < 0 for r, s, _ in faces):
        return None
    if p.same_suit and len({s for _, s, _ in faces}) != 1:
        return None
    order, n = p.run_order, len(faces)
    L = len(order)
    best = P.run_windows(p, n).get(tuple(sorted(r for r, _, _ in faces)))   # the highest window (A high over A low)
    if best is None:
        return None
    top_rank = order[(best + n - 1) % L]
    top_suit = next(s for r, s, _ in faces if r == top_rank)          # the ranks of a run are distinct
    return P._shape(p, top_rank, (best + n - 1) % L, L - 1, best, top_suit, faces)   # a wrapped run ranks by its top


def _match_flush(P: Patterns, p: Pattern, faces: list) -> Optional[PlayShape]:
    if any(r is None or r < 0 or s is None or s < 0 for r, s, _ in faces):
        return None
    if len({s for _, s, _ in faces}) != 1:
        return None
    ranks = sorted((P.pos[r] for r, _, _ in faces))
    top = max((r for r, _, _ in faces), key=P.pos.__getitem__)
    return P._shape(p, top, ranks[-1], P.top, ranks[0], faces[0][1], faces)


def _match_rank_groups(P: Patterns, p: Pattern, faces: list) -> Optional[PlayShape]:
    if any(w or r is None for r, _, w in faces):
        return None
    counts: dict = {}
    for r, _, _ in faces:
        counts[r] = counts.get(r, 0) + 1
    if tuple(sorted(counts.values(), reverse=True)) != p.groups:
        return None
    big = p.groups[0]
    main = max((r for r, k in counts.items() if k == big), key=P.pos.__getitem__)
    low = min(P.pos[r] for r in counts)
    return P._shape(p, main, P.pos[main], P.top, low,
                    P._best_suit([s for r, s, _ in faces if r == main], P.suit_pos), faces)


_MATCHERS = {"set": _match_set, "group": _match_group, "wild": _match_wild, "run": _match_run,
             "flush": _match_flush, "rank_groups": _match_rank_groups}


# ---------------------------------------------------------------------- enumerators (hand -> candidates)

#: (None,) * k: the declared identities of k natural cards, made once
_NONE = tuple((None,) * k for k in range(65))


def _choose(cards: list, k: int, suits_matter: bool):
    """Ways to pick ``k`` of these cards: every way when suits matter, else the first ``k``."""
    if k > len(cards):
        return
    if suits_matter:
        yield from combinations(cards, k)
    else:
        yield tuple(cards[:k])


def _enum_set(P, p, by_rank, wilds, sm):
    every = sm or p.distinct_suits
    for r, cards in by_rank.items():
        if p.ranks is not None and r not in p.ranks:
            continue
        for k in range(p.min, min(p.max, len(cards)) + 1):
            plain = _NONE[k] if k < len(_NONE) else (None,) * k
            if every:
                for ids in combinations(cards, k):
                    yield ids, plain
            else:
                yield tuple(cards[:k]), plain


def _enum_group(P, p, by_rank, wilds, sm):
    for r, cards in by_rank.items():
        if r < 0 or (p.ranks is not None and r not in p.ranks):
            continue
        for k in range(1, min(p.max, len(cards)) + 1):
            for w in range(0, min(len(wilds), p.max - k) + 1):
                if k + w < p.min or (p.ratio is not None and not p.ratio(k, w)):
                    continue
                for ids in _choose(cards, k, sm):
                    for suits in _wild_suits(P, ids, w, sm):
                        decl = tuple(r + P.n_r * s for s in suits)
                        yield ids + tuple(wilds[:w]), (None,) * k + decl   # wild cards stand for this rank


def _wild_suits(P, ids: tuple, w: int, suits_matter: bool):
    """The suits ``w`` wild cards may stand for beside the natural cards ``ids`` (of one rank): suits
    the naturals do not have, in suit order -- every choice of them when suits matter to a play (a
    joker beside JS may be JH, JD or JC), else the first; past the free suits, the first card's suit."""
    used = {P.cards.suit[i] for i in ids}
    free = [s for s in sorted(range(P.n_s), key=P.suit_pos.__getitem__) if s not in used]
    if w > len(free) or not suits_matter:
        yield tuple(free[j] if j < len(free) else P.cards.suit[ids[0]] for j in range(w))
    else:
        yield from combinations(free, w)


def _enum_wild(P, p, by_rank, wilds, sm):
    for k in range(p.min, min(p.max, len(wilds)) + 1):
        yield tuple(wilds[:k]), (None,) * k


def _enum_run(P, p, by_rank, wilds, sm):
    """Runs: per window of the run order (and per suit for one-suit runs), the cards present; a wild
    card fills a rank the hand lacks (never stands in for a card the hand holds)."""
    if not wilds:
        yield from _enum_run_natural(P, p, by_rank, sm)
        return
    order, L, c = p.run_order, len(p.run_order), P.cards
    n_w = len(wilds)
    suit_of = c.suit
    for n in range(p.min, p.max + 1):
        for lo in range(L if p.wrap else L - n + 1):
            window = [order[(lo + i) % L] for i in range(n)]
            if len(set(window)) != n:
                continue
            present = [by_rank.get(r, ()) for r in window]
            if sum(1 for h in present if not h) > n_w:
                continue
            for only in (range(P.n_s) if p.same_suit else (None,)):
                slots, gaps = [], []
                for g, (r, have) in enumerate(zip(window, present)):
                    if only is not None:
                        have = [i for i in have if suit_of[i] == only]
                    elif not sm:
                        have = have[:1]
                    if not have:
                        gaps.append(g)
                        have = [None]
                    slots.append(have)
                if len(gaps) > n_w or len(gaps) == n:
                    continue
                for pick in product(*slots):
                    suit = only if only is not None else next(suit_of[x] for x in pick if x is not None)
                    ids = tuple(x for x in pick if x is not None) + tuple(wilds[:len(gaps)])
                    decl = (None,) * (n - len(gaps)) + tuple(window[g] + P.n_r * suit for g in gaps)
                    yield ids, decl


def _enum_run_natural(P, p, by_rank, sm):
    """``_enum_run`` for a hand without wild cards, the same candidates in the same order: a window
    needs every rank present, and a one-suit run a suit every rank of the window has."""
    suit_of = P.cards.suit
    masks = {}
    if p.same_suit:
        for r, cards in by_rank.items():
            m = 0
            for i in cards:
                if suit_of[i] >= 0:
                    m |= 1 << suit_of[i]
            masks[r] = m
    every = (1 << P.n_s) - 1
    held = 0                                            # the ranks the hand holds, as bits
    for r in by_rank:
        if r >= 0:
            held |= 1 << r
    for n in range(max(p.min, 1), p.max + 1):           # (no run of no cards)
        for window, need in P.run_list(p, n):
            if need & ~held:
                continue
            present = [by_rank[r] for r in window]
            if not p.same_suit:
                if sm:
                    for pick in product(*present):
                        yield pick, (None,) * n
                else:
                    yield tuple(h[0] for h in present), (None,) * n
                continue
            common = every
            for r in window:
                common &= masks[r]
            if not common:
                continue
            for only in range(P.n_s):
                if common >> only & 1:
                    slots = [[i for i in have if suit_of[i] == only] for have in present]
                    for pick in product(*slots):
                        yield pick, (None,) * n


def _enum_flush(P, p, by_rank, wilds, sm):
    c = P.cards
    by_suit: dict = {}
    for cards in by_rank.values():
        for i in cards:
            if c.suit[i] >= 0:
                by_suit.setdefault(c.suit[i], []).append(i)
    for s, cards in by_suit.items():
        for k in range(p.min, min(p.max, len(cards)) + 1):
            for ids in combinations(cards, k):
                yield ids, (None,) * k


def _enum_rank_groups(P, p, by_rank, wilds, sm):
    sizes = p.groups

    def fill(i, used, acc):
        if i == len(sizes):
            yield acc
            return
        for r, cards in by_rank.items():
            if r in used or len(cards) < sizes[i]:
                continue
            if i > 0 and sizes[i] == sizes[i - 1] and r < max(used):     # equal groups in one order only
                continue
            for ids in _choose(cards, sizes[i], sm):
                yield from fill(i + 1, used | {r}, acc + ids)
    for ids in fill(0, frozenset(), ()):
        yield ids, (None,) * len(ids)


_ENUMERATORS = {"set": _enum_set, "group": _enum_group, "wild": _enum_wild, "run": _enum_run,
                "flush": _enum_flush, "rank_groups": _enum_rank_groups}
