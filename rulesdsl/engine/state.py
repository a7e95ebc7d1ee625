"""The state of a game in play, declared in one place.

Every attribute a ``Game`` (or one of its phases, which keep their state on the game) holds is named
here with what kind of value it is.  Three services treat the state as a whole from this list:

* ``clone`` shares the ``FIXED`` attributes, leaves out the ``OWN`` ones and copies the rest;
* ``determinize`` deals hidden cards again by renaming card ids, so it must reach every attribute that
  holds a card id: the ``CARD_*`` groups; ``DERIVED`` caches are dropped and rebuilt;
* ``record`` needs none of it: a record is the seed and the actions, and replays to this state.

A test plays every bundled game and fails on an attribute that is not declared here, so new state
cannot be missed by any of them.
"""

from __future__ import annotations

from ..mechanics.base import STATE_KINDS
from ..mechanics.registry import mechanics, on_change

#: fixed when the game is built, shared by a clone with its original
FIXED = frozenset({"prog", "phases", "seed", "digest", "n", "teams", "go_out_names", "source", "_rng"})

#: a card id, or None
_CARD = frozenset({"drawn", "taken", "buyable", "cand"})

#: collections of card ids (lists, sets)
_CARDS = frozenset({"must", "face_down", "taken_cards"})

#: name -> {card id: seat}
_CARD_KEYED = frozenset({"marks"})

#: name -> card id
_CARD_VALUED = frozenset({"facts"})

#: zone name -> cards (table zones) or -> [cards per seat or team] (the places cards lie)
ZONES = frozenset({"zones", "pzones", "tzones"})

#: the melds on the table: seen by everyone, so never renamed
_PUBLIC_CARDS = frozenset({"table_melds", "melds"})

#: caches computed from the rest, emptied when cards are renamed: attribute -> its empty value (the
#: mechanics' own, kind "derived", are emptied to a new value of their type)
_DERIVED = {"_legal": None}

#: what a game has learnt about itself that a copy must not share nor inherit (what each seat has
#: seen, followed action by action): a clone starts without it and learns again when asked
OWN = frozenset({"_knowledge"})

#: everything else: numbers, seats, texts, flags, compiled rules, per-seat counts; no card ids
_PLAIN = frozenset({
    # seats, turn and direction
    "actor", "dealer", "_order", "_next", "_direction", "order", "previous_order", "final_order", "step",
    "phase", "_keep_actor", "_new_turn", "offer_i", "offer_seats", "asker", "answers", "asked",
    "claim_queue", "claim_zone", "discarder", "buying", "declarer", "defender", "scorer", "team_cur",
    "meld_owner",
    # the match
    "scores", "hands_won", "hand_number", "history", "hand_log", "winner", "winners", "is_over", "broken", "_failure",
    "last_gains", "final_deadwood", "env", "event_size", "event_owner", "arrived",
    "pending_end", "ending", "_rng_shared", "_setup", "_stack_log", "_stacks",
    # the hand
    "picked_up", "mark_counts", "reserve_turns", "turn_in_reserve", "revealed", "team_melded", "stage_total",
    "staged_kinds", "reshuffles", "discard_forbid", "banned", "forced_draw", "go_out_only",
    # open melds
    "spec_of", "cand_as", "cand_meld", "cand_meld_ranks",
    "totals",
    # a copy whose hidden cards were dealt again for this seat (None: the game itself)
    "determinized_for",
})


_GROUPS = dict(zip(STATE_KINDS, (_CARD, _CARDS, _CARD_KEYED, _CARD_VALUED, _PUBLIC_CARDS, _PLAIN, frozenset(_DERIVED))))
_NAMES = dict(zip(STATE_KINDS, ("CARD", "CARDS", "CARD_KEYED", "CARD_VALUED", "PUBLIC_CARDS", "PLAIN", "DERIVED")))


#: a mechanic's cache: emptied to a new value of its own type
EMPTIED = "emptied"


def _forget() -> None:
    for name in list(_NAMES.values()) + ["DECLARED"]:
        globals().pop(name, None)


on_change(_forget)


def __getattr__(name: str):
    """``CARD`` ... ``PLAIN`` and ``DECLARED``: the groups above with the state each registered
    mechanic keeps in them (``Mechanic.state``: attribute -> kind), made on first use (the registry
    is read once the language is loaded, not while this module is imported)."""
    if name not in set(_NAMES.values()) | {"DECLARED"}:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    groups = {kind: set(attrs) for kind, attrs in _GROUPS.items()}
    for mech in mechanics():
        for attr, kind in mech.state.items():
            groups[kind].add(attr)
    made = {_NAMES[kind]: frozenset(attrs) for kind, attrs in groups.items()}
    made["DERIVED"] = {attr: _DERIVED.get(attr, EMPTIED) for attr in groups["derived"]}
    made["DECLARED"] = FIXED | ZONES | OWN | frozenset().union(*made.values())
    globals().update(made)
    return made[name]
