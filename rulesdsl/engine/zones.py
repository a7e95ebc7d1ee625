"""A zone's cards: a list that also keeps the bitmask of its card kinds up to date.

Conditions such as ``deadwood(hand) <= knock_limit`` are checked for every candidate discard on every
turn; with the mask maintained on each move, the arrangement memo is hit without rebuilding a mask
from the list.  Only the engine mutates zones, through the methods overridden here.  (With several
copies of a card the mask is not meaningful and is not used.)
"""

from __future__ import annotations

from typing import Iterable, Sequence


class Cards(list):
    __slots__ = ("mask", "_bit")

    def __init__(self, bit: Sequence[int], cards: Iterable[int] = ()):
        super().__init__()
        self.mask = 0
        self._bit = bit
        for c in cards:
            self.append(c)

    def append(self, c: int) -> None:
        list.append(self, c)
        self.mask ^= self._bit[c]

    def insert(self, i: int, c: int) -> None:
        list.insert(self, i, c)
        self.mask ^= self._bit[c]

    def pop(self, i: int = -1) -> int:
        c = list.pop(self, i)
        self.mask ^= self._bit[c]
        return c

    def remove(self, c: int) -> None:
        list.remove(self, c)
        self.mask ^= self._bit[c]

    def extend(self, cards: Iterable[int]) -> None:
        for c in cards:
            self.append(c)

    def __delitem__(self, i) -> None:
        if not isinstance(i, int):
            raise TypeError("zones delete one card at a time")
        c = self[i]
        list.__delitem__(self, i)
        self.mask ^= self._bit[c]

    def __reduce__(self):
        return (Cards, (self._bit, list(self)))
