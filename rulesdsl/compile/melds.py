"""Meld types compiled for one deck: arrangement, deadwood and layoffs over card ids.

The exact search lives in ``compile.arrange.Arranger`` (bitmasks over distinct card kinds); this adapter
maps the ruleset's meld types onto it and converts between card ids and masks.  With several run or
set types (or a set type limited to some ``ranks``) the general search of ``compile.arrange_many`` takes
its place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

from .arrange import Arranger
from .arrange_many import ManyArranger
from .cards import CardTable


@dataclass(frozen=True)
class Arranged:
    points: int
    melds: tuple          # tuple of tuples of card ids
    deadwood: tuple       # card ids


class MeldEngine:
    def __init__(self, meld_types: dict, cards: CardTable):
        self.cards = cards
        self.types = meld_types
        runs = [m for m in meld_types.values() if m.kind == "run"]
        sets = [m for m in meld_types.values() if m.kind == "set"]
        self.run = runs[0] if runs else None
        self.set = sets[0] if sets else None
        index = {r: i for i, r in enumerate(cards.ranks)}
        run_order = [index[r] for r in self.run.order] if self.run and self.run.order else (
            list(range(len(cards.ranks))) if self.run else None)
        self.arranger: Optional[Arranger] = None
        if cards.distinct and (len(runs) > 1 or len(sets) > 1 or any(m.ranks for m in sets)):
            self.arranger = ManyArranger(             # several run or set types: the general search
                len(cards.ranks), len(cards.suits), list(cards.kind_value),
                [([index[r] for r in m.order] if m.order else list(range(len(cards.ranks))), m.min, m.max, m.wrap)
                 for m in runs],
                [(m.min, m.max, [index[r] for r in m.ranks] if m.ranks else None) for m in sets])
            self._deadwood = self.arranger.deadwood
        elif cards.distinct and (self.run or self.set):
            self.arranger = Arranger(
                len(cards.ranks), len(cards.suits), list(cards.kind_value),
                run_order, run_min=self.run.min if self.run else 3,
                run_max=self.run.max if self.run else None, wrap=bool(self.run and self.run.wrap),
                set_min=self.set.min if self.set else None,
                set_max=(self.set.max or len(cards.suits)) if self.set else 4)
            self._deadwood = self.arranger.deadwood
        kinds = cards.kind
        self._bit = self.bits = tuple(1 << kinds[i] for i in cards.ids)

    # ------------------------------------------------------------------ masks
    def mask(self, ids: Iterable[int]) -> int:
        bit = self._bit
        m = 0
        for c in ids:
            m |= bit[c]
        return m

    def ids_of(self, mask: int, pool: Sequence[int]) -> tuple:
        bit = self._bit
        return tuple(c for c in pool if bit[c] & mask)

    # ------------------------------------------------------------------ queries
    def deadwood_of(self, ids: Iterable[int]) -> int:
        """Minimum deadwood value of these cards (the hot path: one dict hit when memoised)."""
        if self.arranger is None:
            v = self.cards.value
            return sum(v[c] for c in ids)
        m = getattr(ids, "mask", None)     # zones keep their mask current (engine.zones.Cards)
        if m is not None:
            return self._deadwood(m)
        bit = self._bit
        m = 0
        for c in ids:
            m |= bit[c]
        return self._deadwood(m)

    def arrange(self, ids: Sequence[int]) -> Arranged:
        ids = tuple(ids)
        if self.arranger is None:
            v = self.cards.value
            return Arranged(sum(v[c] for c in ids), (), ids)
        best = self.arranger.best(self.mask(ids))
        melds = tuple(self.ids_of(m, ids) for m in best.melds)
        return Arranged(best.points, melds, self.ids_of(best.deadwood, ids))

    def best_for_declarer(self, ids: Sequence[int], defender: Sequence[int], layoffs: bool) -> Arranged:
        """The declarer's minimum-deadwood arrangement that is best for them: when several give the same
        deadwood and the defender may lay off, the one that leaves the defender the most deadwood after
        their best layoffs (ties: the first in a fixed order)."""
        ids = tuple(ids)
        if self.arranger is None or not layoffs:
            return self.arrange(ids)
        options = self.arranger.all_best(self.mask(ids))
        if len(options) <= 1:
            return self.arrange(ids)
        d_mask = self.mask(defender)
        best, best_key = None, None
        for melds in options:
            table = [(self.arranger.meld_kind(m), m) for m in melds]
            key = self.arranger.best_with_layoffs(d_mask, table).points
            if best_key is None or key > best_key:
                best, best_key = melds, key
        used = 0
        for m in best:
            used |= m
        dead = tuple(c for c in ids if not self._bit[c] & used)
        return Arranged(self.arranger.value(self.mask(dead)), tuple(self.ids_of(m, ids) for m in best), dead)

    def meld_kind(self, ids: Sequence[int]) -> str:
        if isinstance(self.arranger, ManyArranger):
            return self.arranger.meld_kind(self.mask(ids)) or "run"
        ranks = {self.cards.rank[c] for c in ids}
        return "set" if len(ranks) == 1 else "run"

    def fits(self, card: int, meld: Sequence[int]) -> bool:
        """Whether ``card`` may be laid off on ``meld`` (the result is still a valid meld)."""
        if self.arranger is None:
            return False
        return self.arranger.is_meld(self.mask(meld) | self._bit[card])

    def best_layoffs(self, ids: Sequence[int], table: Sequence[Sequence[int]]):
        """Best final deadwood for ``ids`` given melds on the table: (points, layoffs [(card, meld i)])."""
        ids = tuple(ids)
        if self.arranger is None:
            v = self.cards.value
            return sum(v[c] for c in ids), []
        res = self.arranger.best_with_layoffs(self.mask(ids), [(self.meld_kind(m), self.mask(m)) for m in table])
        by_kind = {self.cards.kind[c]: c for c in ids}
        return res.points, [(by_kind[k], i) for k, i in res.layoffs]
