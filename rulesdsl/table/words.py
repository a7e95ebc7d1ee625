"""Actions and hand results in words, as one seat may read them.

Both tables (terminal and web) tell a player what the others did.  An action's text can name cards
the reader must not learn (a card given face down to another seat), so each logged action carries,
for every seat, which of its cards that seat saw: the actor always, others when the card lies where
they can see it right after the action (a discard, a meld, a trick) or when they saw it just before.
A card a reader did not see is written as "a card".  Nothing here names a game: the words come from
the verbs of the action notation (and those the mechanics add) and the names a ruleset gave its go-outs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Optional, Sequence

from ..mechanics.registry import mechanics, on_change

#: built-in verbs -> (third person, first person) phrases; ``{cards}`` and ``{zone}`` are filled in
_VERBS = {
    "draw": ("draws from the {zone}", "draw from the {zone}"),
    "take": ("takes {count}the {zone}", "take {count}the {zone}"),
    "claim": ("claims {count}the {zone}", "claim {count}the {zone}"),
    "discard": ("discards {cards}", "discard {cards}"),
    "pass": ("passes", "pass"),
    "done": ("is done", "are done"),
    "play": ("plays {cards}", "play {cards}"),
    "give": ("gives {cards}", "give {cards}"),
    "meld": ("melds {cards}", "meld {cards}"),
    "layoff": ("lays {cards} off on meld {target}", "lay {cards} off on meld {target}"),
    "ask": ("asks to go out", "ask to go out"),
    "yes": ("says yes", "say yes"),
    "no": ("says no", "say no"),
    "look": ("looks at the hand", "look at your hand"),
    "keep": ("keeps the card", "keep the card"),
}


@lru_cache(maxsize=None)
def _verbs() -> dict:
    """The notation's verbs with the words of those the mechanics add (read on first use)."""
    return {**_VERBS, **{verb: tuple(w.replace("{verb}", verb) for w in spec.says)
                         for m in mechanics() for verb, spec in m.verbs.items()}}

HIDDEN = "a card"


on_change(_verbs.cache_clear)


def card_phrase(cards: Sequence[str], shown: Optional[set]) -> str:
    """``["QS", "QH"]`` -> ``"QS QH"``; cards not in ``shown`` (when given) are "a card", counted."""
    seen = [c for c in cards if shown is None or c in shown]
    unseen = len(cards) - len(seen)
    parts = list(seen)
    if unseen:
        parts.append(HIDDEN if unseen == 1 else f"{unseen} cards")
    return " ".join(parts)


def action_words(action, shown: Optional[set] = None, person: int = 3) -> str:
    """An ``Action`` as a phrase without its subject: "draws from the stock", "discards QS",
    "knocks, discarding QS, with 7S 7D 7C / 8H 9H 10H".  ``shown``: the card texts the reader saw
    (None: all); ``person`` 3 ("discards") or 2 ("you discard" -> "discard")."""
    verb = action.verb
    which = 0 if person == 3 else 1
    cards = card_phrase(action.cards, shown) if action.verb not in ("take", "claim") else ""
    verbs = _verbs()
    if verb in verbs:
        count = ""
        if verb in ("take", "claim") and action.cards:
            count = "1 card of " if action.cards[0] == "1" else f"{action.cards[0]} cards of "
        text = verbs[verb][which].format(zone=action.zone, cards=cards, count=count, target=action.target)
        if verb == "discard" and action.zone:
            text += f" onto the {action.zone}"
        if action.named:
            text += f", naming {action.named}"
        return text
    # a go-out the ruleset named ("knock", "out", "declare"): its name, its discard, the melds it lays out
    text = (verb if person == 2 else _third_person(verb))
    if action.cards:
        text += f", discarding {cards}"
    if action.melds:
        text += ", with " + " / ".join(card_phrase(m, shown) for m in action.melds)
    return text


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def result_words(entry: Mapping, name, teams: Optional[Sequence[Sequence[int]]] = None) -> str:
    """One ``hand_log`` entry (a finished hand) as a sentence; ``name(seat)`` names a seat.  In a
    partnership game (``teams``: the seats of each team) the scorer is a team."""
    hand = entry.get("hand")
    ending = entry.get("ending") or "end"
    parts = [f"Hand {hand} ended ({ending})"]
    if entry.get("declarer") is not None:
        parts.append(f"by {name(entry['declarer'])}")
    text = " ".join(parts) + "."
    if entry.get("order"):
        order = ", ".join(name(s) for s in entry["order"])
        roles = entry.get("roles")
        text += f" Finishing order: {order}."
        if roles:
            text += " Roles: " + ", ".join(f"{name(s)} {r}" for s, r in zip(entry["order"], roles)) + "."
    for mech in mechanics():                       # what each mechanic recorded of the hand
        text += mech.result_words(entry, name)
    if entry.get("points"):
        scorer = entry.get("scorer")
        if not isinstance(scorer, int):
            who = "the scorer"
        elif teams:
            who = f"team {scorer + 1} (" + " and ".join(name(s) for s in teams[scorer]) + ")"
        else:
            who = name(scorer)
        verb = "score" if who == "you" else "scores"
        text += f" {who[0].upper() + who[1:]} {verb} {entry['points']}."
    deadwood = entry.get("deadwood")
    if deadwood and any(deadwood):
        text += " Left in hand: " + ", ".join(f"{name(s)} {d}" for s, d in enumerate(deadwood)) + "."
    return text
