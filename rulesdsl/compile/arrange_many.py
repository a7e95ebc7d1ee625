"""Exact minimum-deadwood arrangement when a ruleset declares several run or set types.

``compile.arrange.Arranger`` is built for one run pattern and one set pattern (its tables are per
pattern).  With several types (runs of 3 in one order and runs of 4 in another, sets of 3-4 and sets
of exactly 5 from several ranks...) this module enumerates every meld of every type over the deck's
card kinds once, and searches disjoint melds by branching on the lowest card of the hand, memoised by
mask.  It offers the same interface the engine uses (``deadwood``, ``best``, ``all_best``, ``is_meld``,
``meld_kind``, ``value``, ``melds_within``, ``extensions``, ``best_with_layoffs``), for distinct cards
(one deck, no jokers), as ``Arranger`` does.
"""

from __future__ import annotations

from itertools import combinations
from typing import List, Sequence, Tuple

from .arrange import Arrangement, LayoffResult, cards_of, popcount


class ManyArranger:
    MEMO_LIMIT = 400_000

    def __init__(self, n_ranks: int, n_suits: int, values: Sequence[int], runs: Sequence[tuple],
                 sets: Sequence[tuple]):
        """``runs``: (order as rank indexes, min, max, wrap) per run type; ``sets``: (min, max, ranks or
        None) per set type."""
        self.n_ranks, self.n_suits = n_ranks, n_suits
        self.values = list(values)
        self.kind_of: dict = {}                  # meld mask -> "run" | "set"
        for order, lo, hi, wrap in runs:
            L = len(order)
            for s in range(n_suits):
                for size in range(lo, min(hi or L, L) + 1):
                    for start in range(L if wrap else L - size + 1):
                        ranks = [order[(start + i) % L] for i in range(size)]
                        if len(set(ranks)) == size:
                            self.kind_of.setdefault(sum(1 << (s * n_ranks + r) for r in ranks), "run")
        for lo, hi, allowed in sets:
            for r in (allowed if allowed is not None else range(n_ranks)):
                for size in range(lo, min(hi or n_suits, n_suits) + 1):
                    for suits in combinations(range(n_suits), size):
                        self.kind_of.setdefault(sum(1 << (s * n_ranks + r) for s in suits), "set")
        self.by_card: dict = {}                  # card bit -> melds containing it
        for m in self.kind_of:
            for c in cards_of(m):
                self.by_card.setdefault(1 << c, []).append(m)
        self._memo: dict = {}

    # ------------------------------------------------------------------ basics
    def value(self, mask: int) -> int:
        v = self.values
        return sum(v[c] for c in cards_of(mask))

    def is_meld(self, mask: int) -> bool:
        return mask in self.kind_of

    def meld_kind(self, mask: int):
        return self.kind_of.get(mask)

    def melds_within(self, mask: int) -> List[int]:
        seen = set()
        for bit, melds in self.by_card.items():
            if bit & mask:
                seen.update(m for m in melds if m & mask == m)
        return sorted(seen)

    def clear_cache(self) -> None:
        self._memo.clear()

    # ------------------------------------------------------------------ search
    def deadwood(self, mask: int) -> int:
        memo = self._memo
        hit = memo.get(mask)
        if hit is not None:
            return hit
        if len(memo) > self.MEMO_LIMIT:
            memo.clear()
        if not mask:
            return 0
        low = mask & -mask
        rest = mask ^ low
        best = self.values[low.bit_length() - 1] + self.deadwood(rest)
        for m in self.by_card.get(low, ()):
            if m & mask == m:
                d = self.deadwood(mask ^ m)
                if d < best:
                    best = d
        memo[mask] = best
        return best

    def best(self, mask: int) -> Arrangement:
        target, melds, m = self.deadwood(mask), [], mask
        while m:
            low = m & -m
            for meld in self.by_card.get(low, ()):
                if meld & m == meld and self.deadwood(m ^ meld) == self.deadwood(m):
                    melds.append(meld)
                    m ^= meld
                    break
            else:
                m ^= low
        used = 0
        for meld in melds:
            used |= meld
        return Arrangement(target, tuple(melds), mask & ~used)

    def all_best(self, mask: int, limit: int = 64) -> List[Tuple[int, ...]]:
        target = self.deadwood(mask)
        out: List[Tuple[int, ...]] = []

        def search(avail: int, dead: int, chosen: tuple) -> None:
            if len(out) >= limit:
                return
            if not avail:
                if dead == target:
                    out.append(chosen)
                return
            low = avail & -avail
            v = self.values[low.bit_length() - 1]
            if dead + v + self.deadwood(avail ^ low) == target:
                search(avail ^ low, dead + v, chosen)
            for m in self.by_card.get(low, ()):
                if m & avail == m and dead + self.deadwood(avail ^ m) == target:
                    search(avail ^ m, dead, chosen + (m,))

        search(mask, 0, ())
        return out

    # ------------------------------------------------------------------ layoffs
    def _grow(self, meld: int, mask: int) -> dict:
        """Every meld reachable from ``meld`` by laying hand cards (of ``mask``) one at a time, each step
        a meld: reached meld -> the card laid last (for the order)."""
        parent = {meld: None}
        todo = [meld]
        while todo:
            cur = todo.pop()
            for c in cards_of(mask & ~cur):
                nxt = cur | (1 << c)
                if nxt in self.kind_of and nxt not in parent:
                    parent[nxt] = c
                    todo.append(nxt)
        return parent

    def extensions(self, kind: str, meld: int, mask: int) -> List[int]:
        """Sets of hand cards that can be laid onto ``meld`` one at a time, every step a meld."""
        return sorted(m & ~meld for m in self._grow(meld, mask) if m != meld)

    def best_with_layoffs(self, mask: int, table: Sequence[Tuple[str, int]]) -> LayoffResult:
        table = [(kind, int(meld)) for kind, meld in table]
        options = [[0] + self.extensions(kind, meld, mask) for kind, meld in table]
        best_key, best_choice = None, ()
        choice = [0] * len(table)

        def search(t: int, used: int) -> None:
            nonlocal best_key, best_choice
            if t == len(table):
                key = (self.deadwood(mask & ~used), popcount(used), used, tuple(choice))
                if best_key is None or key < best_key:
                    best_key, best_choice = key, tuple(choice)
                return
            for laid in options[t]:
                if laid & used:
                    continue
                choice[t] = laid             # (every level sets its own entry before the leaf reads it)
                search(t + 1, used | laid)

        search(0, 0)
        layoffs, laid_all = [], 0
        for t, laid in enumerate(best_choice):
            if laid:
                layoffs.extend(self._chain(table[t][1], laid, t))
                laid_all |= laid
        arr = self.best(mask & ~laid_all)
        return LayoffResult(arr.points, arr.melds, tuple(layoffs), arr.deadwood)

    def _chain(self, meld: int, laid: int, t: int) -> list:
        """The order to lay ``laid`` onto ``meld`` one card at a time (every step a meld)."""
        parent = self._grow(meld, laid)
        out, cur = [], meld | laid
        while cur != meld:
            c = parent[cur]
            out.append((c, t))
            cur &= ~(1 << c)
        return out[::-1]
