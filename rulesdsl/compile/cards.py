"""Cards as small ints with precomputed tables.

A *kind* is a distinct face (rank x suit, then one kind for the joker); physical card ids are dense
(0 .. size-1), copy after copy, and every table is indexed by id.  With one copy and no jokers, id == kind == ``suit * n_ranks + rank``, so a
hand is also a bitmask of kinds.  Text is rank then suit (``10H``, ``QS``), or ``Jk`` for a joker; input
is case-insensitive and ``T`` stands for 10.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence

JOKER_TEXT = "Jk"


@dataclass(frozen=True)
class CardTable:
    ranks: tuple            # rank names, in the deck's listed order
    suits: tuple
    copies: int
    jokers: int             # jokers per copy
    n_kinds: int            # len(ranks) * len(suits) (+1 if jokers)
    ids: tuple              # every physical card id, in a fixed order
    kind: tuple             # id -> kind
    rank: tuple             # id -> rank index (-1 for a joker)
    suit: tuple             # id -> suit index (-1 for a joker)
    value: tuple            # id -> card value
    text: tuple             # id -> text
    kind_text: tuple        # kind -> text
    kind_value: tuple       # kind -> value
    kind_rank: tuple        # kind -> rank index (-1 for a joker)
    by_text: dict           # normalised text -> kind

    @property
    def distinct(self) -> bool:
        """True when every card is unique (one copy, no jokers): a hand is a set of kinds."""
        return self.copies == 1 and self.jokers == 0

    @property
    def size(self) -> int:
        return len(self.ids)

    def parse_kind(self, text: str) -> Optional[int]:
        return self.by_text.get(normalise(text))

    def texts(self, ids: Iterable[int]) -> list[str]:
        t = self.text
        return [t[i] for i in ids]


def normalise(text: str) -> str:
    s = text.strip().upper()
    if s in ("JK", "JOKER"):
        return "JK"
    if s.startswith("T") and len(s) == 2:
        s = "10" + s[1:]
    return s


def default_value(rank: str) -> Optional[int]:
    """Numeric ranks are worth their face value unless the ruleset says otherwise."""
    return int(rank) if re.fullmatch(r"[0-9]{1,3}", rank) else None


def build_table(ranks: Sequence[str], suits: Sequence[str], copies: int, jokers: int,
                values: dict) -> CardTable:
    n_r, n_s = len(ranks), len(suits)
    n_nat = n_r * n_s
    n_kinds = n_nat + (1 if jokers else 0)
    kind_text = [f"{ranks[k % n_r]}{suits[k // n_r]}" for k in range(n_nat)]
    kind_value = []
    for k in range(n_nat):
        r = ranks[k % n_r]
        v = values.get(r, default_value(r))
        kind_value.append(0 if v is None else v)
    if jokers:
        kind_text.append(JOKER_TEXT)
        kind_value.append(values.get("joker", 0))
    kind, rank, suit = [], [], []
    for _copy in range(copies):
        for k in range(n_nat):
            kind.append(k)
            rank.append(k % n_r)
            suit.append(k // n_r)
        for _ in range(jokers):
            kind.append(n_nat)
            rank.append(-1)
            suit.append(-1)
    dense = list(range(len(kind)))
    by_text = {normalise(t): k for k, t in enumerate(kind_text)}
    return CardTable(tuple(ranks), tuple(suits), copies, jokers, n_kinds, tuple(dense), tuple(kind),
                     tuple(rank), tuple(suit), tuple(kind_value[k] for k in kind),
                     tuple(kind_text[k] for k in kind), tuple(kind_text), tuple(kind_value),
                     tuple(k % n_r if k < n_nat else -1 for k in range(n_kinds)), by_text)
