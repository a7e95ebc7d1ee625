"""Climbing's pieces of the observation tensor (``encoding.observation``):

* ``trick.last`` (K,): the cards of the play to beat;
* ``trick.last_player`` (n,), ``trick.passed`` (n,): who made it, who has passed since;
* ``finished`` (n,): the seats that have gone out this deal;
* ``toggles`` (one per state toggle): whether each is in force.
"""

from __future__ import annotations


def layout(prog, out) -> tuple:
    """Add the pieces to ``out`` (an ``encoding.observation`` layout); returns the toggles' names."""
    toggles = tuple(t.name for t in prog.climbing.toggles)
    n = out.n
    out.cards("trick.last", (out.k,))
    for name in ("trick.last_player", "trick.passed", "finished"):
        out.flags(name, (n,))
    if toggles:
        out.flags("toggles", (len(toggles),))
    return toggles


def fill(toggles: tuple, spec, v: dict, view: dict, seat: int, count) -> None:
    """The play to beat and who made it, who passed, who is out, the toggles in force."""
    n = spec.n
    trick = view.get("trick") or {}
    count(spec, v["trick.last"], trick.get("last_play", ()))
    if trick.get("last_player") is not None:
        v["trick.last_player"][(trick["last_player"] - seat) % n] = 1
    for s in trick.get("passed", ()):
        v["trick.passed"][(s - seat) % n] = 1
    for s in view.get("finished", ()):
        v["finished"][(s - seat) % n] = 1
    state = view.get("state") or {}
    for i, name in enumerate(toggles):
        v["toggles"][i] = 1.0 if state.get(name) else 0.0
