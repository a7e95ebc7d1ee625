"""Melds laid on the table: validity with wild cards and several decks, and bounded candidates.

Unlike the arrangement search (``compile.arrange``, distinct cards only), these rules work on physical
cards of any deck: a meld is a list of (card id, declared kind) pairs, where a natural card declares
its own kind and a wild card the kind it stands for (fixed once placed).

Candidates stay small: a new meld is offered only at its minimum size (three cards for a run or set);
longer melds grow one card at a time by laying off, so no subset of a hand is ever enumerated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterable, Iterator, Optional, Sequence

from .cards import CardTable


@dataclass
class TableMeld:
    """A meld on the table: cards with their declared kinds, who owns it and who placed each card."""

    kind: str                  # "run", "set", "group" or "wild"
    cards: list                # card ids, in meld order (runs low to high)
    declared: list             # kind each card stands for (parallel to cards)
    owner: int                 # seat (or team) owning it
    placers: list              # seat that placed each card (parallel to cards)
    lo: int = 0                # runs: window in the run order
    hi: int = 0
    rank: int = -2             # group: the rank it is of; wild melds: -1
    book: str = ""             # the book type once closed (``closes_at``)
    staged: bool = False       # part of an initial meld still below its minimum
    _lay: object = field(default=None, compare=False, repr=False)   # layoff table (MeldRules._layoffs)

    def copy(self) -> "TableMeld":
        """An independent copy (for look-ahead searches that try placements)."""
        return TableMeld(self.kind, list(self.cards), list(self.declared), self.owner, list(self.placers),
                         self.lo, self.hi, self.rank, self.book, self.staged)

    def counts(self, wild: Sequence[bool]) -> tuple[int, int]:
        """(naturals, wilds) in the meld."""
        w = sum(map(wild.__getitem__, self.cards))
        return len(self.cards) - w, w


ALL_BRANCHES = frozenset(("group", "wild", "set", "run"))     # the parts of the new-meld search


def _memo2(fn):
    """A condition over (naturals, wilds) -- it reads nothing else -- judged once per pair."""
    seen: dict = {}

    def cached(n: int, w: int) -> bool:
        r = seen.get((n, w))
        if r is None:
            r = seen[(n, w)] = fn(n, w)
        return r
    return cached


class MeldRules:
    def __init__(self, meld_types: dict, cards: CardTable, wild: Sequence[bool],
                 ratio=None, closes_at: Optional[int] = None):
        self.cards = cards
        self.wild = wild                      # id -> is wild
        runs = [m for m in meld_types.values() if m.kind == "run"]
        sets = [m for m in meld_types.values() if m.kind == "set"]
        groups = [m for m in meld_types.values() if m.kind == "group"]
        wilds = [m for m in meld_types.values() if m.kind == "wild"]
        self.run = runs[0] if runs else None
        self.set = sets[0] if sets else None
        self.group = groups[0] if groups else None
        self.wildm = wilds[0] if wilds else None
        self.ratio = _memo2(ratio) if ratio else (lambda n, w: True)   # group: (naturals, wilds) -> allowed
        # several group types: each rank belongs to the first type that lists it (or lists no ranks)
        self.groups = groups
        self.ratios = [self.ratio] + [(lambda n, w: True)] * (len(groups) - 1)
        self.group_when: list = [None] * len(groups)     # a type's own condition for a new meld (compiled)
        self.closes_at = closes_at
        self.stay_open = False                 # books keep taking cards (``books_stay_open``)
        self._reach_memo: dict = {}            # look-ahead of the engine: what a rank's melds can hold
        self._book_memo: dict = {}             # (naturals, wilds) -> book type
        ranks_all = list(cards.ranks)
        self.group_of_rank: dict = {}
        for i, gt in enumerate(groups):
            for r in ([ranks_all.index(x) for x in gt.ranks if x in ranks_all] if gt.ranks else range(len(ranks_all))):
                self.group_of_rank.setdefault(r, i)
        self.group_ranks = set(self.group_of_rank)
        ranks = list(cards.ranks)
        self.order = [ranks.index(r) for r in self.run.order] if self.run and self.run.order else list(range(len(ranks)))
        n_r = len(ranks)
        self.n_r, self.n_s = n_r, len(cards.suits)
        self.set_max = (self.set.max or self.n_s * cards.copies) if self.set else 0
        # runs of minimum size: per suit, the kinds of every window of the run order (built once)
        self._windows = []
        for s in range(len(cards.suits)):
            wins = []
            if self.run:
                size = self.run.min
                for lo in range(0, len(self.order) - size + 1):
                    window = self.order[lo:lo + size]
                    if len(set(window)) == size:
                        wins.append(tuple(s * n_r + r for r in window))
            self._windows.append(wins)
        # each window's ranks as a bitmask (the same windows in every suit); which windows a suit's
        # ranks can fill, memoised (``_run_windows``): at most 2**ranks * 2**ranks entries, in practice few
        self._window_ranks = [sum(1 << (k % n_r) for k in w) for w in (self._windows[0] if self._windows else [])]
        self._run_memo: dict = {}
        self.distinct_suits = bool(self.set and self.set.distinct_suits)
        self._rank_of = [k % n_r for k in range(cards.n_kinds)]    # kind -> rank_suit(kind), as tables
        self._suit_of = [k // n_r for k in range(cards.n_kinds)]
        # the last new_melds answer, with its (pool in order, must): a pure function of them and of these
        # fixed rules, so it never goes stale.  One entry: repeats come back to back (a claim window
        # judged, then listed), and a larger store of tuples only keeps the garbage collector busy
        self._new_last: Optional[tuple] = None
        self._branches = self._branch_kinds()

    # ------------------------------------------------------------------ group types
    def gtype(self, rank: int):
        """The group meld type a rank's melds are of."""
        return self.groups[self.group_of_rank.get(rank, 0)]

    def gratio(self, rank: int):
        """That type's wild-card condition over (naturals, wilds)."""
        return self.ratios[self.group_of_rank.get(rank, 0)]

    def set_group_conditions(self, ratios: list, whens: list) -> None:
        """Each group type's compiled ``wild_ratio`` (None: any) and ``when`` (None: always)."""
        self.ratios = [_memo2(r) if r else (lambda n, w: True) for r in ratios]
        self.ratio = self.ratios[0] if self.ratios else self.ratio
        self.group_when = list(whens)

    # ------------------------------------------------------------------ kinds
    def kind_of(self, rank: int, suit: int) -> int:
        return suit * self.n_r + rank

    def rank_suit(self, kind: int) -> tuple[int, int]:
        return kind % self.n_r, kind // self.n_r

    def natural_kind(self, card: int) -> Optional[int]:
        return None if self.wild[card] else self.cards.kind[card]

    # ------------------------------------------------------------------ validity
    def classify(self, declared: Sequence[int]) -> Optional[tuple]:
        """("set", 0, 0) or ("run", lo, hi) for a valid meld of these declared kinds, else None.
        (Group and wild melds are built by ``make_group``; they never reach here.)"""
        if not declared:
            return None
        rs = [self.rank_suit(k) for k in declared]
        n = len(rs)
        if self.set and self.set.min <= n <= self.set_max and len({r for r, _ in rs}) == 1:
            suits = [s for _, s in rs]
            if not self.distinct_suits or len(set(suits)) == n:
                return ("set", 0, 0)
        if self.run and n >= self.run.min and (self.run.max is None or n <= self.run.max):
            suits = {s for _, s in rs}
            if len(suits) == 1:
                ranks = [r for r, _ in rs]
                if len(set(ranks)) == n:
                    window = self._window(set(ranks))
                    if window is not None:
                        return ("run", window[0], window[1])
        return None

    def _window(self, ranks: set) -> Optional[tuple]:
        order, n = self.order, len(ranks)
        for lo in range(0, len(order) - n + 1):
            if set(order[lo:lo + n]) == ranks and len(set(order[lo:lo + n])) == n:
                return lo, lo + n - 1
        return None

    # ------------------------------------------------------------------ new melds
    def new_melds(self, pool: Sequence[int], must: Iterable[int] = (), key=None) -> list[tuple]:
        """Minimum-size melds from ``pool`` (card ids): tuples of (card, declared kind), deduplicated by
        text; with ``must``, only melds containing every one of those cards.  Of several copies of a
        card, the first in ``key`` order is used (by default the lowest id).

        The answer depends only on the pool in ``key`` order and on ``must`` (the rules are fixed): the
        last one is kept for a repeated question; callers get a fresh list each time (the tuples are
        immutable)."""
        memo_key = self._prepare(pool, must, key)
        last = self._new_last
        if last is not None and last[0] == memo_key:
            hit = last[1]
        else:
            hit = tuple(self._new_melds(*memo_key))
            self._new_last = (memo_key, hit)
        return list(hit)

    def iter_new_melds(self, pool: Sequence[int], must: Iterable[int] = (), key=None,
                       kind: Optional[str] = None) -> Iterator[tuple]:
        """``new_melds`` one at a time, in the same order: for a caller that may stop at the first that
        suits it (then the rest are never built).  With ``kind``, the search skips the parts that
        cannot build a meld of that kind (``kind_of_pairs``); the caller still checks each meld."""
        memo_key = self._prepare(pool, must, key)
        last = self._new_last
        if last is not None and last[0] == memo_key:
            return iter(last[1])
        return self._new_melds(*memo_key, self._branches.get(kind, frozenset()) if kind is not None else ALL_BRANCHES)

    def kind_of_pairs(self, pairs) -> str:
        """The kind a new meld of these (card, declared kind) pairs is: "wild" (wild cards only, where
        such melds exist), else "group" where groups exist, else "set" (one rank) or "run"."""
        naturals = [c for c, _ in pairs if not self.wild[c]]
        if self.wildm is not None and not naturals:
            return "wild"
        if self.group is not None:
            return "group"
        ranks = {self.rank_suit(k)[0] for _, k in pairs}
        return "set" if len(ranks) == 1 and self.set is not None else "run"

    def _branch_kinds(self) -> dict:
        """Meld kind -> the parts of ``_new_melds`` whose melds can be of that kind (``kind_of_pairs``):
        every meld a part builds holds a natural card, but those of the wild-meld part; with groups,
        all of those are groups; a run of one card has one rank (a set, where sets exist)."""
        made = {"wild": "wild"}
        for part in ("group", "set", "run"):
            if self.group is not None:
                made[part] = "group"
            elif part == "run" and self.run is not None and self.run.min == 1 and self.set is not None:
                made[part] = "set"
            else:
                made[part] = part
        return {k: frozenset(p for p, m in made.items() if m == k) for k in ("wild", "group", "set", "run")}

    def _prepare(self, pool: Sequence[int], must: Iterable[int], key) -> tuple:
        """(the pool in ``key`` order, ``must`` frozen): all a search depends on."""
        must = frozenset(must)
        wild, kind, rank_of, suit_of = self.wild, self.cards.kind, self._rank_of, self._suit_of
        pinned = [kind[c] for c in must if not wild[c]]
        if pinned:
            # a card that must be melded pins the rank (sets, groups) or suit (runs) of every meld
            # offered: the other natural cards play no part, and leaving them out changes nothing
            ranks = {rank_of[k] for k in pinned}
            suits = {suit_of[k] for k in pinned}
            pool = [c for c in pool if wild[c] or rank_of[kind[c]] in ranks or suit_of[kind[c]] in suits]
        return tuple(sorted(pool, key=key)), must

    def _new_melds(self, order: tuple, must: frozenset, branches=ALL_BRANCHES) -> Iterator[tuple]:
        """``new_melds`` for a pool already in order, one meld at a time (a caller asking whether
        there is any stops at the first).  Ranks and windows that cannot hold a meld (too few
        cards even with every wild card) are skipped before anything is built."""
        ckind, wild_of = self.cards.kind, self.wild
        rank_of, suit_of = self._rank_of, self._suit_of
        n_r = self.n_r
        if any(not wild_of[c] and ckind[c] >= n_r * self.n_s for c in must):
            return                       # a joker that is not wild (no rank, no suit) is in no meld
        naturals: dict[int, list[int]] = {}
        wilds = []
        for c in order:
            if wild_of[c]:
                wilds.append(c)
            else:
                k = ckind[c]
                lst = naturals.get(k)
                if lst is None:
                    naturals[k] = [c]
                else:
                    lst.append(c)
        seen = set()

        def emit(pairs):
            """The meld, if it holds the ``must`` cards and is new (by text), else None."""
            if must and not must.issubset([c for c, _ in pairs]):
                return None
            key = tuple(sorted([(ckind[c], k) for c, k in pairs]))   # a card's text is its kind's
            if key in seen:
                return None
            seen.add(key)
            return tuple(pairs)

        n_wild = len(wilds)
        # a natural card that must be in the meld pins its rank (sets, groups) and suit (runs)
        pinned = [c for c in must if not wild_of[c]]
        must_wild = any(wild_of[c] for c in must)
        pin_rank = {rank_of[ckind[c]] for c in pinned}
        pin_suit = {suit_of[ckind[c]] for c in pinned}
        if len(pin_rank) > 1:
            pin_rank = set()             # no set or group holds two ranks
            skip_sets = True
        else:
            skip_sets = False
        if pinned:
            ranks_seen = sorted(pin_rank)
        else:
            ranks_seen = sorted({rank_of[k] for k in naturals})   # a rank with no natural holds no set or group
        if self.group and not skip_sets and "group" in branches:
            for r in ranks_seen:
                if r not in self.group_ranks:
                    continue
                g, ratio = self.gtype(r), self.gratio(r)
                nats = [c for k in range(self.n_s) for c in naturals.get(r + k * n_r, ())]
                for j in range(0, min(n_wild, g.min) + 1):
                    k = g.min - j
                    if k < 1 or len(nats) < k or not ratio(k, j):
                        continue
                    for pick in self._pick_any(nats, k, must):
                        for wpick in self._wild_choices(wilds, j, must):
                            m = emit([(c, ckind[c]) for c in pick] + [(w, r) for w in wpick])
                            if m is not None:
                                yield m
        if self.wildm and n_wild >= self.wildm.min and "wild" in branches:
            for wpick in self._pick_any(wilds, self.wildm.min, must):
                m = emit([(w, ckind[w]) for w in wpick])
                if m is not None:
                    yield m
        if self.set and not skip_sets and "set" in branches:
            size = self.set.min
            least = size - min(n_wild, size - 1)          # naturals a set needs at the least
            repeat = not self.distinct_suits and self.cards.copies > 1
            per_rank: dict = {}                           # rank -> its natural cards (or kinds) held
            for k, lst in naturals.items():
                r = rank_of[k]
                per_rank[r] = per_rank.get(r, 0) + (len(lst) if repeat else 1)
            for r in ranks_seen:
                if per_rank.get(r, 0) < least:
                    continue                              # (a prefilter: the exact tests follow)
                by_suit = {s: naturals[r + s * n_r] for s in range(self.n_s) if r + s * n_r in naturals}
                if repeat:
                    # several decks: a set may repeat a suit (7H 7H 7S); any cards of the rank will do
                    nats = [c for st in by_suit for c in by_suit[st]]
                    if len(nats) < least:
                        continue
                    for j in range(0, min(n_wild, size - 1) + 1):
                        if len(nats) < size - j:
                            continue
                        for pick in self._pick_any(nats, size - j, must):
                            for wpick in self._wild_choices(wilds, j, must):
                                m = emit([(c, ckind[c]) for c in pick] + [(w, r) for w in wpick])
                                if m is not None:
                                    yield m
                    continue
                if len(by_suit) < least:
                    continue
                for j in range(0, min(n_wild, size - 1) + 1):
                    k = size - j
                    for suits in combinations(by_suit, k):
                        for pick in self._choices(by_suit, suits, must):
                            free = [s for s in range(self.n_s) if s not in suits]
                            if self.distinct_suits and len(free) < j:
                                continue
                            for wpick in self._wild_choices(wilds, j, must):
                                pairs = list(zip(pick, (r + s * n_r for s in suits)))
                                pairs += [(w, r + (free[i] if self.distinct_suits else 0) * n_r)
                                          for i, w in enumerate(wpick)]
                                m = emit(pairs)
                                if m is not None:
                                    yield m
        if self.run and len(pin_suit) <= 1 and "run" in branches:
            size = self.run.min
            suit_ranks: dict = {}                          # suit -> bitmask of the ranks held in it
            for k in naturals:
                st = suit_of[k]
                suit_ranks[st] = suit_ranks.get(st, 0) | (1 << rank_of[k])
            pin_ranks = 0
            for c in pinned:
                pin_ranks |= 1 << rank_of[ckind[c]]
            n_w = min(n_wild, size)
            for s in (pin_suit if pinned else [s for s in range(self.n_s) if s in suit_ranks]):
                windows = self._windows[s]
                for i in self._run_windows(suit_ranks.get(s, 0), n_w, pin_ranks):
                    kinds = windows[i]
                    held = [k for k in kinds if k in naturals]
                    missing = size - len(held)
                    if missing > n_wild or not held:
                        continue
                    # a wild card stands in for a missing rank; where a wild card must be melded,
                    # it may also stand in for a rank the player holds
                    swaps = [()]
                    if must_wild and missing < n_wild:
                        swaps += [c for j in range(1, min(n_wild - missing, len(held) - 1) + 1)
                                  for c in combinations(held, j)]
                    for out_kinds in swaps:
                        have = [k for k in held if k not in out_kinds]
                        base = {k: naturals[k] for k in have}
                        for pick in self._choices(base, tuple(have), must):
                            for wpick in self._wild_choices(wilds, size - len(have), must):
                                it = iter(wpick)
                                chosen = dict(zip(have, pick))
                                m = emit([(chosen[k], k) if k in chosen else (next(it), k) for k in kinds])
                                if m is not None:
                                    yield m

    def _run_windows(self, ranks: int, n_wild: int, pinned: int) -> tuple:
        """The windows (indices into a suit's ``_windows``) that a suit holding ``ranks`` (a bitmask)
        could fill with ``n_wild`` wild cards: at least one natural, the rest wild, every ``pinned``
        rank inside.  The windows are the same for every suit, so this is memoised on the masks."""
        key = (ranks, n_wild, pinned)
        hit = self._run_memo.get(key)
        if hit is None:
            size = self.run.min
            hit = []
            for i, mask in enumerate(self._window_ranks):
                n = (ranks & mask).bit_count()
                if n and size - n <= n_wild and mask & pinned == pinned:
                    hit.append(i)
            hit = self._run_memo[key] = tuple(hit)
        return hit

    @staticmethod
    def _choices(groups: dict, keys: tuple, must: set) -> list[tuple]:
        """One card per key; a second choice only where a `must` card could be picked instead."""
        picks = [[]]
        for k in keys:
            cards = groups[k]
            options = [cards[0]] + [c for c in cards[1:] if c in must]
            picks = [p + [c] for p in picks for c in options]
        return [tuple(p) for p in picks]

    def _pick_any(self, cards: list, k: int, must: set) -> list[tuple]:
        """``k`` cards where any will do (same rank, suits irrelevant): the first ones, with the
        ``must`` cards first, and one choice per distinct text (a 2 or a joker differ in value)."""
        text = self.cards.text
        firsts = [c for c in cards if c in must] + [c for c in cards if c not in must]
        if len({text[c] for c in cards}) <= 1:
            return [tuple(firsts[:k])] if len(firsts) >= k else []
        out, seen = [], set()
        for combo in combinations(firsts, k):
            key = tuple(sorted(text[c] for c in combo))
            if key not in seen:
                seen.add(key)
                out.append(combo)
        return out

    def _wild_choices(self, wilds: list, j: int, must: set) -> list[tuple]:
        """``j`` wild cards: one choice per distinct mix of faces (a joker and a 2 differ in value)."""
        if j == 0:
            return [()]
        if len(wilds) < j:
            return []
        return self._pick_any(wilds, j, must)

    # ------------------------------------------------------------------ layoffs
    def layoff_kinds(self, meld: TableMeld, card: int) -> list[tuple[int, str]]:
        """Where ``card`` may go on ``meld``: (kind it stands for, end) pairs, end = "low", "high" or
        "set"; empty if it does not fit.  An ace that fits both ends of a run is offered once (low).
        (The answer for every card is worked out once per state of the meld: ``_layoffs``.)"""
        by_kind, wild_fit = self._layoffs(meld)
        if self.wild[card]:
            return [(self.cards.kind[card], "set")] if wild_fit is True else wild_fit
        return by_kind.get(self.cards.kind[card], [])

    def _layoffs(self, meld: TableMeld) -> tuple:
        """(natural kind -> its layoffs, the layoffs of a wild card -- or True: "as itself") for the
        meld as it is.  Kept on the meld with its size: a meld only changes by ``place``, which adds a
        card, so a table of the same size is that of the same meld (``copy`` starts without one)."""
        cached = meld._lay
        if cached is not None and cached[0] == len(meld.cards):
            return cached[1]
        table = self._layoff_table(meld)
        meld._lay = (len(meld.cards), table)
        return table

    def _layoff_table(self, meld: TableMeld) -> tuple:
        none: tuple = ({}, [])
        if self.closes_at is not None and len(meld.cards) >= self.closes_at and not self.stay_open:
            return none                                  # a book is closed
        kinds = range(self.n_r * self.n_s)               # the kinds after these are jokers: of no rank
        if meld.kind == "group":
            spec, ratio = self.gtype(meld.rank), self.gratio(meld.rank)
            if spec.max is not None and len(meld.cards) >= spec.max:
                return none
            n, w = meld.counts(self.wild)
            wild_fit = [(self.kind_of(meld.rank, 0), "set")] if ratio(n, w + 1) else []
            kind_rank = self.cards.kind_rank
            by_kind = {k: [(k, "set")] for k in kinds if kind_rank[k] == meld.rank} if ratio(n + 1, w) else {}
            return by_kind, wild_fit
        if meld.kind == "wild":
            if self.wildm.max is not None and len(meld.cards) >= self.wildm.max:
                return none
            return {}, True
        if meld.kind == "set":
            if len(meld.cards) >= self.set_max:
                return none
            r = self.rank_suit(meld.declared[0])[0]
            # distinct suits bind the natural cards; a wild card declares only the rank (its suit
            # is notation: one not yet shown, where there is one)
            natural_suits = {self.rank_suit(k)[1] for c, k in zip(meld.cards, meld.declared) if not self.wild[c]}
            shown = {self.rank_suit(k)[1] for k in meld.declared}
            free = [s for s in range(self.n_s) if s not in shown] or [0]
            by_kind = {}
            for k in kinds:
                kr, ks = self.rank_suit(k)
                if kr == r and not (self.distinct_suits and ks in natural_suits):
                    by_kind[k] = [(k, "set")]
            return by_kind, [(self.kind_of(r, free[0]), "set")]
        if self.run.max is not None and len(meld.cards) >= self.run.max:
            return none
        s = self.rank_suit(meld.declared[0])[1]
        present = {self.rank_suit(k)[0] for k in meld.declared}
        ends = []
        if meld.lo > 0 and self.order[meld.lo - 1] not in present:
            ends.append((self.kind_of(self.order[meld.lo - 1], s), "low"))
        if meld.hi + 1 < len(self.order) and self.order[meld.hi + 1] not in present:
            k = self.kind_of(self.order[meld.hi + 1], s)
            if not ends or ends[0][0] != k:
                ends.append((k, "high"))
        return {e[0]: [e] for e in ends}, ends

    def place(self, meld: TableMeld, card: int, kind: int, end: str, placer: int) -> None:
        """Add a card to a meld at ``end`` (the layoff was checked); runs stay in order."""
        if end == "low":
            meld.lo -= 1
            meld.cards.insert(0, card)
            meld.declared.insert(0, kind)
            meld.placers.insert(0, placer)
            return
        if end == "high":
            meld.hi += 1
        meld.cards.append(card)
        meld.declared.append(kind)
        meld.placers.append(placer)

    def make(self, pairs: Sequence[tuple], owner: int, placer: int) -> TableMeld:
        naturals = [c for c, _ in pairs if not self.wild[c]]
        if self.wildm and not naturals:
            return TableMeld("wild", [c for c, _ in pairs], [k for _, k in pairs], owner, [placer] * len(pairs),
                             rank=-1)
        if self.group:
            r = self.cards.kind_rank[self.cards.kind[naturals[0]]]
            order = [p for p in pairs if not self.wild[p[0]]] + [p for p in pairs if self.wild[p[0]]]
            return TableMeld("group", [c for c, _ in order], [k for _, k in order], owner,
                             [placer] * len(pairs), rank=r)
        kind, lo, hi = self.classify([k for _, k in pairs])
        if kind == "run":
            pos = {r: i for i, r in enumerate(self.order[lo:hi + 1])}
            pairs = sorted(pairs, key=lambda p: pos[self.rank_suit(p[1])[0]])
        return TableMeld(kind, [c for c, _ in pairs], [k for _, k in pairs], owner, [placer] * len(pairs), lo, hi)

    def fits_somewhere(self, melds: Sequence[TableMeld], card: int) -> bool:
        return any(self.layoff_kinds(m, card) for m in melds)
