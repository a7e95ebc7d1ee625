"""``Game.clone()``: an independent copy of a game in play, cheap enough for search.

A search bot copies the position it is deciding from thousands of times per decision, so the copy is
made by hand rather than with ``copy.deepcopy`` (which walks the compiled ruleset too, and is about
a hundred times slower).  What is shared and what is copied:

* **shared**: what never changes once the game is built (``engine.state.FIXED``) -- the compiled
  program, the phase objects (they keep no per-game state; everything a phase remembers lives on the
  game), the seed, the digest, the number of players;
* **left out**: what the game has learnt about itself (``engine.state.OWN``: what each seat has seen,
  for ``determinize``); a clone learns it again if asked;
* **copied**: everything else, by the kind of value: numbers, texts, actions and compiled rules are
  immutable and kept; lists, dicts and sets are copied with their contents copied the same way; a
  zone (``Cards``) keeps its mask; objects that hold per-game state provide ``copy_state()``;
* **shared until used**: the random generator.  Both continue from the same state (a clone deals the
  same next hand as its original would), but copying a generator's state costs more than all the
  rest, and most clones made by a search never reach a shuffle: the two share it, and whichever
  draws from it first takes its own copy then (``Game.rng``).

A value of any other kind is refused with a ``TypeError`` naming it, so that a new kind of state
cannot be shared between a clone and its original by accident: add it to ``ATOMS`` if it is
immutable, or give its class a ``copy_state()``.
"""

from __future__ import annotations

import random
from types import FunctionType
from typing import Any

from ..compile.table_melds import TableMeld
from ..expr.compiler import Const
from ..mechanics.registry import mechanics, on_change
from .actions import Action
from .state import FIXED, OWN
from .zones import Cards

#: the attributes a clone shares with its original: fixed when the game is built (``engine.state``)
SHARED = FIXED

#: immutable values, kept as they are, with those the mechanics declare (``Mechanic.copy_types``: a
#: climbing candidate is a memo of what a choice of cards is, shared by every position and game that
#: offers it, never game state)
_CORE_ATOMS = {int, str, bool, float, type(None), Action, FunctionType, Const, frozenset}
ATOMS = set(_CORE_ATOMS)


def copy_value(v: Any) -> Any:
    """An independent copy of one piece of game state."""
    t = type(v)
    if t in ATOMS:
        return v
    copier = _COPIERS.get(t)
    if copier is not None:
        return copier(v)
    if isinstance(v, tuple):                    # a named tuple of plain values
        return v if all(type(x) in ATOMS for x in v) else t(*map(copy_value, v)) if hasattr(v, "_fields") \
            else tuple(map(copy_value, v))
    own = getattr(v, "copy_state", None)
    if own is not None:
        return own()
    raise TypeError(f"Game.clone() does not know how to copy a {t.__name__}: mark it immutable in "
                    "engine/clone.py ATOMS, or give it a copy_state() method")


def _list(v: list) -> list:
    for x in v:
        if type(x) not in ATOMS:
            return [copy_value(x) for x in v]
    return v[:]


def _dict(v: dict) -> dict:
    for x in v.values():
        if type(x) not in ATOMS:
            return {k: copy_value(x) for k, x in v.items()}
    return v.copy()


def _tuple(v: tuple) -> tuple:
    for x in v:
        if type(x) not in ATOMS:
            return tuple(map(copy_value, v))
    return v


def _cards(v: Cards) -> Cards:
    c = Cards.__new__(Cards)
    list.extend(c, v)
    c.mask = v.mask
    c._bit = v._bit
    return c


def _slots(v):
    """A record a mechanic declares (``Mechanic.copy_types``, as a climbing play): its fields are
    numbers, texts and immutable values, never changed in place, so a field-by-field copy is
    independent."""
    new = object.__new__(type(v))
    for k in type(v).__slots__:
        if hasattr(v, k):
            setattr(new, k, getattr(v, k))
    return new


def copy_random(v: random.Random) -> random.Random:
    r = random.Random.__new__(random.Random)
    r.setstate(v.getstate())
    return r


_CORE_COPIERS = {
    list: _list, dict: _dict, tuple: _tuple, set: set.copy, Cards: _cards, TableMeld: TableMeld.copy,
}
_COPIERS = dict(_CORE_COPIERS)
_declared = False               # whether the mechanics' types are in ATOMS and _COPIERS


def _declare_mechanic_types() -> None:
    """Add the types the registered mechanics' state holds (read on the first clone, when the
    language is loaded; again after the registry changes)."""
    global _declared
    ATOMS.clear()
    ATOMS.update(_CORE_ATOMS)
    _COPIERS.clear()
    _COPIERS.update(_CORE_COPIERS)
    for mech in mechanics():
        atoms, records = mech.copy_types()
        ATOMS.update(atoms)
        _COPIERS.update(dict.fromkeys(records, _slots))
    _declared = True


def _forget() -> None:
    global _declared
    _declared = False


on_change(_forget)


def clone_game(game):
    """A new game object in the same position as ``game``, sharing nothing that either may change
    (the random generator is shared until either draws from it: see ``Game.rng``)."""
    if not _declared:
        _declare_mechanic_types()
    new = object.__new__(type(game))
    d = new.__dict__
    atoms, copiers, shared = ATOMS, _COPIERS, SHARED
    for k, v in game.__dict__.items():
        t = type(v)
        if t in atoms or k in shared:
            d[k] = v
        elif k in OWN:
            d[k] = None
        else:
            copier = copiers.get(t)
            d[k] = copier(v) if copier is not None else copy_value(v)
    game._rng_shared = d["_rng_shared"] = True
    return new
