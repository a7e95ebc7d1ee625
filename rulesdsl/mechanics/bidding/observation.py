"""Bidding's pieces of the observation tensor (``encoding.observation``): ``bids`` (n,) each seat's
bid as a number, ``bids.made`` (n,) whether it has bid, ``bids.looked`` (n,) whether it has looked at
its hand, and ``bids.calls`` (n, calls) which named call it made."""

from __future__ import annotations

INF = float("inf")


def layout(prog, out) -> tuple:
    calls = tuple(c[0] for c in prog.bidding.calls)
    n = out.n
    out.add("bids", (n,), -INF, INF)
    out.flags("bids.made", (n,))
    out.flags("bids.looked", (n,))
    if calls:
        out.flags("bids.calls", (n, len(calls)))
    return calls


def fill(calls: tuple, spec, v: dict, view: dict, seat: int, count) -> None:
    """Each seat's bid (a number, or a named call), whether it has bid, and whether it has looked."""
    n = spec.n
    for s, bid in enumerate(view.get("bids") or ()):
        r = (s - seat) % n
        if bid is None:
            continue
        v["bids.made"][r] = 1
        if isinstance(bid, str):
            if bid in calls:
                v["bids.calls"][r][calls.index(bid)] = 1
        else:
            v["bids"][r] = bid
    for s, looked in enumerate(view.get("looked") or ()):
        v["bids.looked"][(s - seat) % n] = 1.0 if looked else 0.0
