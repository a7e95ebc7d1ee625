"""The registered mechanics: the built-in ones, then those installed packages add.

A package adds a mechanic through the ``rulesdsl.mechanics`` entry point group, as pytest plugins do::

    [project.entry-points."rulesdsl.mechanics"]
    pegging = "my_package.pegging:Pegging"

The entry point's name is the section key; its object is a ``Mechanic`` subclass (or instance) whose
``key`` is that name.  A ruleset still runs no code of its own: it can use only the mechanics that are
installed, and ``rulesdsl validate`` names the package each one it uses came from.  A package whose
mechanic cannot be loaded does not stop the others: a ruleset that writes its key is refused with the
reason (``E-MECHANIC``), and any other ruleset loads as before.
"""

from __future__ import annotations

import importlib
import re
import threading
from typing import Optional

from .base import STATE_KINDS, Mechanic

#: the mechanics that ship with rulesdsl, in the order their sections are read and checked
BUILTIN = ("rulesdsl.mechanics.counters:CountersMechanic", "rulesdsl.mechanics.climbing:ClimbingMechanic", "rulesdsl.mechanics.exchange:ExchangeMechanic",
           "rulesdsl.mechanics.tricks:TricksMechanic", "rulesdsl.mechanics.bidding:BiddingMechanic")

#: the entry point group installed packages register mechanics under
GROUP = "rulesdsl.mechanics"

_KEY = re.compile(r"[a-z][a-z0-9_]*\Z")

_registered: Optional[tuple] = None
_installed = False                  # whether the installed packages' entry points have been read
_broken: dict = {}                  # key -> (package, why it could not be loaded)
_listeners: list = []               # what to forget when the registered mechanics change
_lock = threading.RLock()


def mechanics() -> tuple:
    """Every mechanic registered so far: the built-in ones, then those of installed packages once
    they have been looked for (``load_installed``)."""
    global _registered
    if _registered is None:
        _registered = tuple(_instance(_resolve(ref), "rulesdsl") for ref in BUILTIN)
    return _registered


def load_installed() -> bool:
    """Look for the mechanics installed packages add (once; reading every distribution's entry points
    costs a cold start some 20 ms, so it is done only when something needs them: a ruleset with a
    section the built-in language lacks, an override of one, the whole vocabulary for an editor).
    Returns whether the registry changed."""
    global _registered, _installed
    with _lock:                                  # a server's threads: one looks, the others wait for it
        if _installed:
            return False
        _installed = True
        before = mechanics()                     # a package reading the registry while it loads sees these
        _registered = before + _load_installed({m.key for m in before})
        changed = len(_registered) != len(before) or bool(_broken)
        if changed:
            _changed()
        return changed


def on_change(forget) -> None:
    """Call ``forget()`` whenever the registered mechanics change (a cache of what they declare)."""
    _listeners.append(forget)


def _changed() -> None:
    for forget in _listeners:
        forget()


def broken() -> dict:
    """Section key -> (package, reason) for the installed mechanics that could not be loaded."""
    return dict(_broken)


def by_key() -> dict:
    """Section key -> its mechanic."""
    return {m.key: m for m in mechanics()}


def present(model) -> list:
    """(mechanic, section) for each mechanic whose section the model has, in registration order."""
    sections = model.sections
    return [(m, sections[m.key]) for m in mechanics() if sections.get(m.key) is not None]


def card_play(model) -> Optional[tuple]:
    """(mechanic, section) of the section that plays the hand's cards, or None."""
    return next(((m, s) for m, s in present(model) if m.plays_cards), None)


def refuse(key: str, why: str) -> None:
    """Take back a registered mechanic (the model refuses one whose key is a core key)."""
    global _registered
    mech = by_key().get(key)
    if mech is not None:
        _broken[key] = (mech.origin, why)
        _registered = tuple(m for m in mechanics() if m.key != key)
        _changed()


def _load_installed(taken: set) -> tuple:
    out: list = []
    for ep in _entry_points():
        package = _package(ep)
        if ep.name in taken:                     # a built-in's key: the built-in stays, the package is refused
            _broken[ep.name] = (package, f"`{ep.name}` is already a section of the language")
            continue
        try:
            mech = _instance(ep.load(), package)
        except Exception as exc:                 # a broken plugin must not stop the others
            _broken[ep.name] = (package, f"{type(exc).__name__}: {exc}")
            continue
        if mech.key != ep.name or not _KEY.match(mech.key):
            _broken[ep.name] = (package, f"its mechanic's key is `{mech.key}`, not `{ep.name}`"
                                if mech.key != ep.name else "a section key is a lowercase word")
        elif any(kind not in STATE_KINDS for kind in mech.state.values()):
            _broken[ep.name] = (package, "its state kinds must be among " + ", ".join(STATE_KINDS))
        else:
            taken.add(mech.key)
            out.append(mech)
    return tuple(out)


def _resolve(ref: str):
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def _instance(obj, package: str) -> Mechanic:
    mech = obj() if isinstance(obj, type) else obj
    if not isinstance(mech, Mechanic):
        raise TypeError(f"{obj!r} is not a rulesdsl.mechanics.Mechanic")
    mech.origin = package
    return mech


def _entry_points() -> list:
    from importlib import metadata               # imported here: a cold start without packages skips it
    try:
        return sorted(metadata.entry_points(group=GROUP), key=lambda ep: ep.name)
    except Exception:                            # a damaged installation: no plugins, not a crash
        return []


def _package(ep) -> str:
    dist = getattr(ep, "dist", None)
    return getattr(dist, "name", None) or ep.value.partition(":")[0].partition(".")[0]
