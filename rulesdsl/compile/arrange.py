"""Exact minimum-deadwood arrangement of distinct cards into runs and sets.

Cards are small ints ("kinds"): ``kind = suit * n_ranks + rank``.  A hand, a meld, or any group of
cards is an int bitmask over kinds (bit ``k`` set = card ``k`` held).  Nothing here knows a game:
the deck shape, the card values and the meld rules all come from the constructor.

Melds
-----
* A *run* is a set of same-suit cards whose ranks form a contiguous window of ``run_order`` (cyclic
  when ``wrap``) with no rank repeated, of length ``run_min`` .. ``run_max``.  ``run_order`` lists
  rank indexes, so ``[0, 1, ..., 12]`` allows the first rank only at the low end, and
  ``[0, 1, ..., 12, 0]`` allows it at either end (never both in one run).
* A *set* is ``set_min`` .. ``set_max`` cards of one rank (necessarily of distinct suits).

Algorithm
---------
``deadwood(mask)`` = value(mask) - G(cover), where ``cover`` is the part of the hand that lies in at
least one meld inside the hand, and ``G(m)`` is the largest total value of disjoint melds inside
``m``.  Both ``cover`` and value(mask) come from tables indexed by a suit's rank pattern (built once
per configuration, shared between instances), so a hand without any meld -- the common case -- costs
a handful of table look-ups.  ``G`` branches on the lowest card of ``m``: it is either left out (its
melds are gone) or it is in one of the melds containing it (runs from a per-pattern table, sets from
a per-card list); results are memoised by mask.  Cards in no meld are skipped without branching.

The top-level ``deadwood`` is a closure over local tables, unrolled for four suits, so the hot path
has no loop over suits and no attribute look-ups (and no generated code: nothing here is eval'd).  Both memo dicts are bounded: they are cleared once they reach
``memo_limit`` entries.
"""

from __future__ import annotations

from itertools import combinations

from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

__all__ = [
    "Arranger",
    "Arrangement",
    "LayoffResult",
    "cards_of",
    "mask_of",
    "popcount",
]


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------


def cards_of(mask: int) -> List[int]:
    """The kinds whose bits are set in ``mask``, in ascending order."""
    if mask < 0:
        raise ValueError(f"a card mask cannot be negative: {mask}")
    out = []
    append = out.append
    while mask:
        low = mask & -mask
        append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(kinds: Iterable[int]) -> int:
    """The bitmask holding the given kinds (repeats are harmless)."""
    mask = 0
    for k in kinds:
        if k < 0:
            raise ValueError(f"a card kind cannot be negative: {k}")
        mask |= 1 << k
    return mask


def popcount(mask: int) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


class Arrangement(NamedTuple):
    """A best arrangement of a hand: ``points`` of deadwood, the ``melds`` (masks, ordered by their
    lowest card) and the ``deadwood`` mask (the hand minus the meld cards)."""

    points: int
    melds: Tuple[int, ...]
    deadwood: int


class LayoffResult(NamedTuple):
    """A best arrangement with layoffs onto melds already on the table.

    ``layoffs`` is a tuple of ``(card_kind, table_index)`` in an order that can be played one card
    at a time (table index ascending; along a run, each card is adjacent to the meld when laid)."""

    points: int
    melds: Tuple[int, ...]
    layoffs: Tuple[Tuple[int, int], ...]
    deadwood: int


class _LazyTable(dict):
    """A pattern-indexed table filled on first use (for decks whose suits are too long to tabulate
    every rank pattern up front)."""

    __slots__ = ("_fn",)

    def __init__(self, fn: Callable[[int], object]):
        super().__init__()
        self._fn = fn

    def __missing__(self, key: int):
        value = self[key] = self._fn(key)
        return value


#: Suits of at most this many ranks get fully precomputed pattern tables (2**n entries each).
_EAGER_MAX_RANKS = 14

#: Shared per-configuration tables: key -> tables.  A handful of configurations at most.
_TABLE_CACHE: Dict[tuple, tuple] = {}
_TABLE_CACHE_MAX = 32


def _cache_put(key: tuple, value: tuple) -> tuple:
    if len(_TABLE_CACHE) >= _TABLE_CACHE_MAX:
        _TABLE_CACHE.clear()
    _TABLE_CACHE[key] = value
    return value


def _run_patterns(n_ranks: int, order: Sequence[int], run_min: int, run_max: int,
                  wrap: bool) -> Tuple[int, ...]:
    """Every run as a rank pattern (bit r = rank r), ascending, without repeats."""
    n = len(order)
    found = set()
    for i in range(n):
        for length in range(run_min, run_max + 1):
            if not wrap and i + length > n:
                break
            if length > n:
                break
            ranks = [order[(i + t) % n] for t in range(length)]
            if len(set(ranks)) != length:
                continue
            pattern = 0
            for r in ranks:
                pattern |= 1 << r
            found.add(pattern)
    return tuple(sorted(found))


def _rank_tables(n_ranks: int, runs: Tuple[int, ...]):
    """(first, cover) tables over rank patterns p of one suit.

    ``first[p]``: the runs inside p that hold p's lowest rank (ascending masks).
    ``cover[p]``: the union of all runs inside p.
    """
    key = ("rank", n_ranks, runs)
    hit = _TABLE_CACHE.get(key)
    if hit is not None:
        return hit
    by_low: Dict[int, List[int]] = {}
    for r in runs:
        by_low.setdefault(r & -r, []).append(r)

    if n_ranks <= _EAGER_MAX_RANKS:
        size = 1 << n_ranks
        full = size - 1
        acc: Dict[int, List[int]] = {}
        for r in runs:  # every superset of r whose lowest bit is r's lowest bit
            low = r & -r
            free = full & ~r & ~(low - 1)
            sub = free
            while True:
                acc.setdefault(r | sub, []).append(r)
                if not sub:
                    break
                sub = (sub - 1) & free
        empty: tuple = ()
        first: list = [empty] * size
        for p, lst in acc.items():
            first[p] = tuple(lst)
        cover = [0] * size
        for p in range(1, size):
            c = cover[p & (p - 1)]
            for r in first[p]:
                c |= r
            cover[p] = c
        return _cache_put(key, (first, cover))

    def first_fn(p: int) -> tuple:
        if not p:
            return ()
        return tuple(r for r in by_low.get(p & -p, ()) if r & p == r)

    first_lazy = _LazyTable(first_fn)

    def cover_fn(p: int) -> int:
        c = 0
        while p:
            for r in first_lazy[p]:
                c |= r
            p &= p - 1
        return c

    return _cache_put(key, (first_lazy, _LazyTable(cover_fn)))


def _value_table(n_ranks: int, suit_values: Tuple[int, ...]):
    """``table[p]`` = total value of the ranks in pattern p of one suit."""
    key = ("value", n_ranks, suit_values)
    hit = _TABLE_CACHE.get(key)
    if hit is not None:
        return hit[0]
    if n_ranks <= _EAGER_MAX_RANKS:
        size = 1 << n_ranks
        table = [0] * size
        for p in range(1, size):
            low = p & -p
            table[p] = table[p ^ low] + suit_values[low.bit_length() - 1]
    else:

        def fn(p: int) -> int:
            total = 0
            while p:
                low = p & -p
                total += suit_values[low.bit_length() - 1]
                p ^= low
            return total

        table = _LazyTable(fn)
    _cache_put(key, (table,))
    return table


def _suit_first_table(n_ranks: int, runs: Tuple[int, ...], first, shift: int,
                      suit_values: Tuple[int, ...], vtable):
    """``table[p]`` = ((meld mask in kind space, meld value), ...) for ``first[p]`` in one suit."""
    if not isinstance(first, list):
        return _LazyTable(lambda p: tuple((r << shift, vtable[r]) for r in first[p]))
    key = ("suit", n_ranks, runs, shift, suit_values)
    hit = _TABLE_CACHE.get(key)
    if hit is not None:
        return hit[0]
    # ``first`` holds only a few distinct lists of runs (one per lowest rank and stretch above it):
    # each is converted once and shared by every pattern that has it
    conv = {lst: tuple((r << shift, vtable[r]) for r in lst) for lst in set(first)}
    out = [conv[lst] for lst in first]
    _cache_put(key, (out,))
    return out


def _rebuild(n_ranks, n_suits, values, run_order, run_min, run_max, wrap, set_min, set_max,
             memo_limit) -> "Arranger":
    return Arranger(n_ranks, n_suits, values, run_order, run_min, run_max, wrap, set_min, set_max,
                    memo_limit=memo_limit)


# --------------------------------------------------------------------------------------------------
# The arranger
# --------------------------------------------------------------------------------------------------


class Arranger:
    """Exact minimum-deadwood arrangement of distinct cards into runs and sets.

    Parameters
    ----------
    n_ranks, n_suits:
        deck shape; card kind ``k = suit * n_ranks + rank``.
    values:
        ``values[kind]`` = deadwood points of that card.
    run_order:
        rank indexes in run order; a run is a contiguous window of it with no rank repeated.
        ``None`` = no runs.
    run_min, run_max:
        run length bounds (``run_max`` None = no upper bound).
    wrap:
        the run order is cyclic.
    set_min, set_max:
        set size bounds (``set_min`` None = no sets).
    memo_limit:
        the memo dicts are cleared when they reach this many entries.
    """

    def __init__(self, n_ranks: int, n_suits: int, values: Sequence[int],
                 run_order: Optional[Sequence[int]], run_min: int = 3,
                 run_max: Optional[int] = None, wrap: bool = False,
                 set_min: Optional[int] = 3, set_max: int = 4, *,
                 memo_limit: int = 1 << 17):
        if n_ranks < 1 or n_suits < 1:
            raise ValueError("n_ranks and n_suits must be at least 1")
        n_cards = n_ranks * n_suits
        values = tuple(int(v) for v in values)
        if len(values) != n_cards:
            raise ValueError(f"values must give one value per card kind ({n_cards}), "
                             f"got {len(values)}")
        if run_order is not None:
            run_order = tuple(int(r) for r in run_order)
            for r in run_order:
                if not 0 <= r < n_ranks:
                    raise ValueError(f"run_order holds rank index {r}, outside 0..{n_ranks - 1}")
            if run_min < 1:
                raise ValueError("run_min must be at least 1")
            if run_max is None:
                run_max = len(run_order)
            if run_max < run_min:
                raise ValueError("run_max must be at least run_min")
        if set_min is not None:
            if set_min < 1:
                raise ValueError("set_min must be at least 1")
            if set_max < set_min:
                raise ValueError("set_max must be at least set_min")
        if memo_limit < 1:
            raise ValueError("memo_limit must be positive")

        self.n_ranks = n_ranks
        self.n_suits = n_suits
        self.values = values
        self.run_order = run_order
        self.run_min = run_min
        self.run_max = run_max
        self.wrap = bool(wrap)
        self.set_min = set_min
        self.set_max = set_max
        self.memo_limit = memo_limit

        R, S = n_ranks, n_suits
        F = (1 << R) - 1
        self._F = F
        self._full = (1 << n_cards) - 1
        self._shifts = tuple(s * R for s in range(S))

        # ---- runs: rank-pattern tables shared by all suits, per-suit tables with values
        runs = (_run_patterns(R, run_order, run_min, run_max, self.wrap)
                if run_order is not None else ())
        self._run_patterns = runs
        self._vtables = [_value_table(R, values[s * R:(s + 1) * R]) for s in range(S)]
        if runs:
            first, cover = _rank_tables(R, runs)
            suit_first = [_suit_first_table(R, runs, first, s * R, values[s * R:(s + 1) * R],
                                            self._vtables[s]) for s in range(S)]
        else:
            first = cover = None
            empty_table = _LazyTable(lambda p: ())
            suit_first = [empty_table] * S
        self._first = first
        self._cover_table = cover

        # ---- sets: per rank, every valid set mask; per card, the sets whose lowest card it is
        self._rank_masks = tuple(mask_of(s * R + r for s in range(S)) for r in range(R))
        has_sets = set_min is not None and set_min <= min(set_max, S)
        self._has_sets = has_sets
        sets_by_rank: List[Tuple[int, ...]] = []
        sets_by_low: Dict[int, List[Tuple[int, int]]] = {}
        for r in range(R):
            lst = []
            if has_sets:
                kinds = [s * R + r for s in range(S)]
                for size in range(set_min, min(set_max, S) + 1):
                    for combo in combinations(kinds, size):
                        m = mask_of(combo)
                        lst.append(m)
                        v = sum(values[k] for k in combo)
                        sets_by_low.setdefault(combo[0], []).append((m, v))
            sets_by_rank.append(tuple(sorted(lst)))
        self._sets_by_rank = tuple(sets_by_rank)

        # ---- every meld, for is_meld / meld_kind
        run_masks = set()
        for s in range(S):
            for r in runs:
                run_masks.add(r << (s * R))
        self._runs_all = frozenset(run_masks)
        self._sets_all = frozenset(m for lst in sets_by_rank for m in lst)

        # ---- per card (keyed by its single-bit mask): (suit shift, suit run table, sets tuple)
        card_info = {}
        for k in range(n_cards):
            s = k // R
            sets_k = tuple(sorted(sets_by_low.get(k, ())))
            card_info[1 << k] = (s * R, suit_first[s], sets_k)
        self._card_info = card_info

        self._memo: Dict[int, int] = {}
        self._gmemo: Dict[int, int] = {}
        self._G = self._make_g()
        self.deadwood = self._make_deadwood()  # type: ignore[method-assign]

    # ---------------------------------------------------------------- construction of the hot path

    def _make_g(self) -> Callable[[int], int]:
        """G(m): the largest total value of disjoint melds made of cards of m (m != 0)."""
        card_info = self._card_info
        gmemo = self._gmemo
        gget = gmemo.get
        F = self._F
        NEG = -(1 << 62)

        def G(m: int) -> int:
            orig = m
            while True:
                low = m & -m
                sh, table, sets = card_info[low]
                best = NEG
                for M, v in table[m >> sh & F]:
                    rem = m ^ M
                    if rem:
                        g = gget(rem)
                        if g is None:
                            g = G(rem)
                        v += g
                    if v > best:
                        best = v
                for M, v in sets:
                    if M & m == M:
                        rem = m ^ M
                        if rem:
                            g = gget(rem)
                            if g is None:
                                g = G(rem)
                            v += g
                        if v > best:
                            best = v
                m ^= low
                if best == NEG:  # the lowest card is in no meld here: it is deadwood
                    if not m:
                        best = 0
                        break
                    g = gget(m)
                    if g is not None:
                        best = g
                        break
                    continue
                if m:  # the lowest card left out
                    g = gget(m)
                    if g is None:
                        g = G(m)
                    if g > best:
                        best = g
                break
            gmemo[orig] = best
            return best

        return G

    def _make_deadwood(self) -> Callable[[int], int]:
        """The hot path as a closure over local tables (no attribute look-ups, no generated code).

        Four suits get an unrolled body (the common deck shape); any other shape a loop over suits."""
        R, S, F = self.n_ranks, self.n_suits, self._F
        memo, memo_get = self._memo, self._memo.get
        gmemo, gmemo_get = self._gmemo, self._gmemo.get
        G, RC, LIMIT = self._G, self._cover_table, self.memo_limit
        has_runs, has_sets = bool(self._run_patterns), self._has_sets
        k = self.set_min if has_sets else 0
        spread = mask_of(s * R for s in range(S))
        vt = self._vtables

        def finish(mask: int, r: int, cov: int) -> int:
            if cov:
                g = gmemo_get(cov)
                if g is None:
                    g = G(cov)
                    if len(gmemo) >= LIMIT:
                        gmemo.clear()
                r -= g
            if len(memo) >= LIMIT:
                memo.clear()
            memo[mask] = r
            return r

        if S == 4 and has_runs and has_sets and k == 3:
            V0, V1, V2, V3 = vt
            R2, R3 = 2 * R, 3 * R

            def deadwood(mask: int) -> int:
                r = memo_get(mask)
                if r is not None:
                    return r
                p0 = mask & F
                p1 = mask >> R & F
                p2 = mask >> R2 & F
                p3 = mask >> R3 & F
                cov = RC[p0] | RC[p1] << R | RC[p2] << R2 | RC[p3] << R3
                sr = (p0 & p1 & p2) | (p0 & p1 & p3) | (p0 & p2 & p3) | (p1 & p2 & p3)
                if sr:
                    cov |= sr * spread & mask
                r = V0[p0] + V1[p1] + V2[p2] + V3[p3]
                if not cov:
                    memo[mask] = r
                    if len(memo) >= LIMIT:
                        memo.clear()
                    return r
                return finish(mask, r, cov)

            return deadwood

        shifts = [s * R for s in range(S)]

        def deadwood(mask: int) -> int:  # noqa: F811 -- the general shape
            r = memo_get(mask)
            if r is not None:
                return r
            pats = [mask >> sh & F for sh in shifts]
            cov = 0
            if has_runs:
                for p, sh in zip(pats, shifts):
                    cov |= RC[p] << sh
            if has_sets:
                counts = [0] * (k + 1)          # counts[j]: ranks held in at least j suits
                for p in pats:
                    for j in range(k, 1, -1):
                        counts[j] |= counts[j - 1] & p
                    counts[1] |= p
                sr = counts[k]
                if sr:
                    cov |= sr * spread & mask
            r = sum(v[p] for v, p in zip(vt, pats))
            return finish(mask, r, cov)

        return deadwood

    # ---------------------------------------------------------------- public API

    def deadwood(self, mask: int) -> int:
        """Minimum deadwood points of the cards in ``mask`` (memoised; the hot path).

        Each instance shadows this method with its generated function (same signature), so
        ``arranger.deadwood`` is a plain function: bind it to a local in loops.  Bits past the
        deck are ignored."""
        return self.__dict__["deadwood"](mask)

    # The instance holds a generated function and caches: copies share the instance (it is
    # immutable apart from its memo), and pickling rebuilds it from the constructor arguments.
    def __copy__(self) -> "Arranger":
        return self

    def __deepcopy__(self, memo: dict) -> "Arranger":
        return self

    def __reduce__(self):
        return (_rebuild, (self.n_ranks, self.n_suits, self.values, self.run_order, self.run_min,
                           self.run_max, self.wrap, self.set_min, self.set_max, self.memo_limit))

    def clear_cache(self) -> None:
        """Forget every memoised result."""
        self._memo.clear()
        self._gmemo.clear()

    def value(self, mask: int) -> int:
        """Total points of the cards in ``mask`` (no melding)."""
        F = self._F
        return sum(vt[mask >> sh & F] for vt, sh in zip(self._vtables, self._shifts))

    def cover(self, mask: int) -> int:
        """The cards of ``mask`` that belong to at least one meld made only of cards in ``mask``."""
        F = self._F
        cov = 0
        if self._run_patterns:
            table = self._cover_table
            for sh in self._shifts:
                cov |= table[mask >> sh & F] << sh
        if self._has_sets:
            k = self.set_min
            for rm in self._rank_masks:
                held = mask & rm
                if held and popcount(held) >= k:
                    cov |= held
        return cov

    def _g0(self, m: int) -> int:
        if not m:
            return 0
        g = self._gmemo.get(m)
        return g if g is not None else self._G(m)

    def best(self, mask: int) -> Arrangement:
        """A minimum-deadwood arrangement of ``mask`` (deterministic)."""
        mask &= self._full
        g0 = self._g0
        info = self._card_info
        F = self._F
        m = self.cover(mask)
        melds = []
        while m:
            low = m & -m
            sh, table, sets = info[low]
            target = g0(m)
            chosen = 0
            for M, v in table[m >> sh & F]:
                if v + g0(m ^ M) == target:
                    chosen = M
                    break
            if not chosen:
                for M, v in sets:
                    if M & m == M and v + g0(m ^ M) == target:
                        chosen = M
                        break
            if chosen:
                melds.append(chosen)
                m ^= chosen
            else:
                m ^= low
        used = 0
        for M in melds:
            used |= M
        dead = mask & ~used
        return Arrangement(self.value(dead), tuple(melds), dead)

    def all_best(self, mask: int, limit: int = 64) -> List[Tuple[int, ...]]:
        """Every minimum-deadwood arrangement of ``mask`` (tuples of meld masks, in a fixed order), at
        most ``limit`` of them.  Exact: a card is either left over or starts one of the melds within
        the cards left, and a branch survives only while it can still reach the minimum."""
        mask &= self._full
        target = self.deadwood(mask)
        deadwood, value = self.deadwood, self.value
        out: List[Tuple[int, ...]] = []

        def search(avail: int, dead: int, chosen: Tuple[int, ...]) -> None:
            if len(out) >= limit:
                return
            m = self.cover(avail)
            if not m:
                if dead + value(avail) == target:
                    out.append(chosen)
                return
            low = m & -m
            if dead + value(low) + deadwood(avail ^ low) == target:
                search(avail ^ low, dead + value(low), chosen)
            for M in self.melds_within(avail):
                if M & low and dead + deadwood(avail ^ M) == target:
                    search(avail ^ M, dead, chosen + (M,))

        search(mask, 0, ())
        return out

    def melds_within(self, mask: int) -> List[int]:
        """Every valid meld made only of cards in ``mask``, ascending by mask."""
        out: List[int] = []
        F = self._F
        if self._run_patterns:
            first = self._first
            for sh in self._shifts:
                q = mask >> sh & F
                while q:
                    out.extend(r << sh for r in first[q])
                    q &= q - 1
        if self._has_sets:
            k = self.set_min
            for r, rm in enumerate(self._rank_masks):
                held = mask & rm
                if held and popcount(held) >= k:
                    out.extend(M for M in self._sets_by_rank[r] if M & held == M)
        out.sort()
        return out

    def is_meld(self, mask: int) -> bool:
        """True when ``mask`` is exactly one valid run or set."""
        return mask in self._runs_all or mask in self._sets_all

    def meld_kind(self, mask: int) -> Optional[str]:
        """``"run"``, ``"set"`` or None for a mask that is no meld."""
        if mask in self._runs_all:
            return "run"
        if mask in self._sets_all:
            return "set"
        return None

    def extensions(self, kind: str, meld: int, mask: int) -> List[int]:
        """Every non-empty group of cards from ``mask`` that can be laid off onto the table meld
        ``meld`` of ``kind`` ("run" or "set"), one card at a time, each step leaving a valid meld
        of that kind.  Ascending by mask."""
        if kind == "run":
            valid = self._runs_all
        elif kind == "set":
            valid = self._sets_all
        else:
            raise ValueError(f"table meld kind must be 'run' or 'set', not {kind!r}")
        pool = cards_of(mask & ~meld)
        seen = {meld}
        frontier = [meld]
        while frontier:
            nxt = []
            for cur in frontier:
                for k in pool:
                    grown = cur | (1 << k)
                    if grown != cur and grown not in seen and grown in valid:
                        seen.add(grown)
                        nxt.append(grown)
            frontier = nxt
        seen.discard(meld)
        return sorted(g & ~meld for g in seen)

    def _chain(self, valid: frozenset, meld: int, laid: int) -> List[int]:
        """An order in which the cards of ``laid`` can be added to ``meld`` one at a time."""
        if not laid:
            return []
        for k in cards_of(laid):
            grown = meld | (1 << k)
            if grown in valid:
                rest = self._chain(valid, grown, laid & ~(1 << k))
                if rest is not None:
                    return [k] + rest
        return None  # type: ignore[return-value]

    def best_with_layoffs(self, mask: int, table: Sequence[Tuple[str, int]]) -> LayoffResult:
        """Minimum deadwood of ``mask`` when its cards may also be laid off onto ``table`` melds.

        ``table`` lists ``(kind, meld_mask)`` with kind "run" or "set"; those cards are not in
        ``mask``.  Exact: every valid combination of layoffs is tried.  Ties go to the fewest
        layoffs, then the lowest mask of laid-off cards, then the lowest per-meld masks."""
        mask &= self._full
        table = [(kind, int(meld)) for kind, meld in table]
        options: List[List[int]] = []
        for kind, meld in table:
            if meld & mask:
                raise ValueError("a table meld shares cards with the hand")
            options.append([0] + self.extensions(kind, meld, mask))

        deadwood = self.deadwood
        n = len(table)
        best_key = None
        best_choice: Tuple[int, ...] = ()
        choice = [0] * n

        def search(t: int, used: int, count: int) -> None:
            nonlocal best_key, best_choice
            if t == n:
                key = (deadwood(mask & ~used), count, used, tuple(choice))
                if best_key is None or key < best_key:
                    best_key = key
                    best_choice = tuple(choice)
                return
            for laid in options[t]:
                if laid & used:
                    continue
                choice[t] = laid
                search(t + 1, used | laid, count + popcount(laid))
            choice[t] = 0

        search(0, 0, 0)
        layoffs: List[Tuple[int, int]] = []
        laid_all = 0
        for t, laid in enumerate(best_choice):
            if laid:
                kind, meld = table[t]
                valid = self._runs_all if kind == "run" else self._sets_all
                layoffs.extend((k, t) for k in self._chain(valid, meld, laid))
                laid_all |= laid
        arr = self.best(mask & ~laid_all)
        return LayoffResult(arr.points, arr.melds, tuple(layoffs), arr.deadwood)

    def __repr__(self) -> str:
        return (f"Arranger(n_ranks={self.n_ranks}, n_suits={self.n_suits}, "
                f"run_order={self.run_order}, run_min={self.run_min}, run_max={self.run_max}, "
                f"wrap={self.wrap}, set_min={self.set_min}, set_max={self.set_max})")
