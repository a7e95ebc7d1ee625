"""Actions: small immutable values with a canonical text notation that round-trips.

    draw stock          take discard         discard QS          pass
    knock QS            out 5C               declare             (go-out names a ruleset chose, with their discard)
    layoff 5D on 1      done                 play 9S 9H          give 2C
    take discard 4      meld 9H Jk=10H JH    claim discard 1     (take or claim the top 4 / top 1 cards)
    play 6S Jk=6C       play 8H name S                           (a wild card's identity; a named suit)
    knock KC with 7S 7D 7C 7H / 8H 9H 10H                        (a go-out naming how its melds are laid out)
    discard 2H to b                                              (a step that discards to several piles)

The verb is the first word; ``draw``/``take`` name a zone, and so does ``discard`` (``to ZONE``, last)
where a step may discard to more than one pile; cards are written rank+suit (case-insensitive,
``T`` = 10); ``on N`` names a meld on the table by its 1-based number in ``view()``.  A go-out verb is a
name the ruleset chose under ``go_out:``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ..errors import IllegalAction, excerpt
from ..compile.cards import normalise

from ..mechanics.registry import mechanics, on_change


class Action(NamedTuple):
    verb: str
    zone: str = ""
    cards: tuple = ()
    target: int = 0
    named: str = ""          # play: the suit a play names (`play 8H name S`)
    melds: tuple = ()        # a go-out: the melds it lays out, each a tuple of card texts (`with ... / ...`)

    def __str__(self) -> str:
        parts = [self.verb]
        if self.zone and self.verb != "discard":
            parts.append(self.zone)
        parts.extend(self.cards)
        if self.zone and self.verb == "discard":
            parts.append(f"to {self.zone}")
        if self.target:
            parts.append(f"on {self.target}")
        if self.named:
            parts.append(f"name {self.named}")
        if self.melds:
            parts.append("with " + " / ".join(" ".join(m) for m in self.melds))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


#: the longest action text read at all (a real action is far shorter: a few words of a few characters)
MAX_ACTION_CHARS = 1000

#: what each built-in verb takes after it: a zone, a count of cards, cards, a meld number
_NOTHING = ("pass", "done", "ask", "yes", "no", "look", "keep")
_ONE_CARD = ("discard", "give")              # exactly one card
@lru_cache(maxsize=None)
def mechanic_verbs() -> dict:
    """The verbs the registered mechanics add (``rulesdsl.mechanics``: ``Mechanic.verbs``): verb -> its
    ``Verb`` (read from the registry once, on first use)."""
    from ..model.game import builtin_verbs
    builtin_verbs()                                      # a mechanic whose word is taken is refused first
    return {verb: spec for m in mechanics() for verb, spec in m.verbs.items()}


@lru_cache(maxsize=None)
def word_verbs() -> frozenset:
    """The verbs whose one word is not a zone (``bid 4``): kept as written, never matched to a zone."""
    return frozenset(v for v, spec in mechanic_verbs().items() if spec.takes == "word")


on_change(mechanic_verbs.cache_clear)
on_change(word_verbs.cache_clear)
_SOME_CARDS = ("play", "meld")               # one card or more
_SYNTAX = {
    "discard": "`discard CARD`", "give": "`give CARD`", "play": "`play CARD ...`",
    "meld": "`meld CARD ...`", "layoff": "`layoff CARD on N`",
}


def parse_action(text: str, go_out_names: tuple = ()) -> Action:
    """Parse the canonical notation (whitespace- and case-tolerant) into an ``Action``.

    Parsing is strict: each verb takes exactly the parts its grammar names (``layoff`` alone takes
    ``on N``; a go-out name takes at most one card; ``discard`` and ``give`` exactly one), and anything
    else is refused with ``IllegalAction``.  Messages quote at most ``ECHO_LIMIT`` characters of the
    input, escaped."""
    verb, rest, written = _verb_and_rest(text, go_out_names)
    if verb in ("draw", "take", "claim"):
        return _zone_action(verb, rest)
    spec = mechanic_verbs().get(verb)
    if spec is not None and spec.takes == "word":
        if len(rest) != 1 or not re.fullmatch(r"[A-Za-z0-9_]{1,40}", rest[0]):
            raise IllegalAction(f"`{verb}` takes one number or call, as in {spec.example}", "action syntax")
        return Action(verb, str(int(rest[0])) if rest[0].isdigit() else rest[0].lower())
    if verb in _NOTHING or (spec is not None and spec.takes == "nothing"):
        if rest:
            raise IllegalAction(f"`{verb}` takes nothing after it", "action syntax")
        return Action(verb)
    go_out = verb in go_out_names
    if not go_out and verb not in _ONE_CARD + _SOME_CARDS + ("layoff",):
        from ..model.game import builtin_verbs
        known = ", ".join(builtin_verbs() + tuple(go_out_names))
        raise IllegalAction(f"unknown action `{excerpt(written, 24)}`; actions: {known}", "action syntax")
    rest, named = _named_suit(verb, rest)
    rest, zone = _to_pile(verb, rest)
    rest, target = _on_meld(verb, rest)
    rest, melds = _with_melds(verb, rest) if go_out else (rest, ())
    _check_card_count(verb, go_out, rest)
    return Action(verb, zone, tuple(_card(w) for w in rest), target, named, melds)


def _verb_and_rest(text: object, go_out_names: tuple) -> tuple:
    """(verb, the words after it, the verb as written): a go-out name matched however it is written."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action must be text or an Action, not {type(text).__name__}", "action syntax")
    if len(text) > MAX_ACTION_CHARS:
        raise IllegalAction(f"`{excerpt(text)}` is too long for an action ({len(text):,} characters; "
                            f"at most {MAX_ACTION_CHARS:,})", "action syntax")
    words = text.split()
    if not words:
        raise IllegalAction("empty action", "action syntax")
    verb = words[0].lower()
    for name in go_out_names:
        if name.lower() == verb:
            verb = name
    return verb, words[1:], words[0]


def _zone_action(verb: str, rest: list) -> Action:
    """``draw ZONE``, ``take ZONE [N]``, ``claim ZONE [N]``."""
    if len(rest) not in (1, 2) or (verb == "draw" and len(rest) != 1):
        raise IllegalAction(f"`{verb}` needs a zone, as in `{verb} stock` (take and claim may add how "
                            "many cards: `take discard 3`)", "action syntax")
    if len(rest) == 2:
        if not re.fullmatch(r"[0-9]{1,4}", rest[1]) or int(rest[1]) < 1:
            raise IllegalAction(f"`{excerpt(rest[1])}` is not a number of cards", "action syntax")
        return Action(verb, rest[0].lower(), (str(int(rest[1])),))
    return Action(verb, rest[0])


def _named_suit(verb: str, rest: list) -> tuple:
    """``play ... name S``: (the words before it, the suit), else (rest, "")."""
    if verb == "play" and len(rest) >= 2 and rest[-2].lower() == "name":
        if not re.fullmatch(r"[A-Za-z0-9]{1,8}", rest[-1]):
            raise IllegalAction(f"`name` needs a suit, as in `play 8H name S`, not `{excerpt(rest[-1], 24)}`",
                                "action syntax")
        return rest[:-2], rest[-1].upper()
    if any(w.lower() == "name" for w in rest):
        raise IllegalAction(f"`name SUIT` ends a play (`play 8H name S`); `{verb}` does not name a suit"
                            if verb != "play" else "`name` needs a suit after it: `play 8H name S`",
                            "action syntax")
    return rest, ""


def _to_pile(verb: str, rest: list) -> tuple:
    """``discard CARD to ZONE``: (the words before it, the zone), else (rest, "")."""
    if verb == "discard" and len(rest) == 3 and rest[-2].lower() == "to":
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", rest[-1]):
            raise IllegalAction(f"`to` needs a pile, as in `discard 2H to discard`, not `{excerpt(rest[-1], 24)}`",
                                "action syntax")
        return rest[:-2], rest[-1]
    if any(w.lower() == "to" for w in rest):
        raise IllegalAction("`to ZONE` ends a discard (`discard 2H to discard`)" if verb == "discard" else
                            f"`{verb}` does not name a pile (`to ZONE`); only `discard CARD to ZONE` does",
                            "action syntax")
    return rest, ""


def _on_meld(verb: str, rest: list) -> tuple:
    """``layoff CARD on N``: (the words before it, N), else (rest, 0)."""
    if verb == "layoff":
        if len(rest) < 3 or rest[-2].lower() != "on":
            raise IllegalAction("a layoff names its card and the meld: `layoff CARD on N`", "action syntax")
        if not re.fullmatch(r"[0-9]{1,4}", rest[-1]) or int(rest[-1]) < 1:
            raise IllegalAction(f"`on` needs a meld number (1, 2, ... as numbered in the view), not "
                                f"`{excerpt(rest[-1], 24)}`", "action syntax")
        return rest[:-2], int(rest[-1])
    if any(w.lower() == "on" for w in rest):
        raise IllegalAction(f"`{verb}` does not name a meld (`on N`); only `layoff CARD on N` does",
                            "action syntax")
    return rest, 0


def _with_melds(verb: str, rest: list) -> tuple:
    """A go-out's ``... with M1 / M2``: (the words before it, the melds), else (rest, ())."""
    if not any(w.lower() == "with" for w in rest):
        return rest, ()
    i = [w.lower() for w in rest].index("with")
    groups, cur = [], []
    for w in rest[i + 1:]:
        if w == "/":
            groups.append(cur)
            cur = []
        else:
            cur.append(w)
    groups.append(cur)
    if not all(groups):
        raise IllegalAction(f"`{verb} ... with` names melds separated by `/`, as in `{verb} KC with 7S 7D 7C "
                            "/ 8H 9H 10H`", "action syntax")
    return rest[:i], tuple(tuple(_card(w) for w in grp) for grp in groups)


def _check_card_count(verb: str, go_out: bool, rest: list) -> None:
    """A go-out takes at most one card (its discard), ``discard``/``give``/``layoff`` one, the others some."""
    if go_out:
        if len(rest) > 1:
            raise IllegalAction(f"`{verb}` takes at most one card (its discard)", "action syntax")
    elif verb in _ONE_CARD or verb == "layoff":
        if len(rest) != 1:
            raise IllegalAction(f"`{verb}` takes one card: {_SYNTAX[verb]}", "action syntax")
    elif not rest:
        raise IllegalAction(f"`{verb}` needs cards: {_SYNTAX[verb]}", "action syntax")


def coerce_action(action: object, go_out_names: tuple = ()) -> Action:
    """Text, or an ``Action`` built by hand, checked against the notation: each field of the right
    type (``verb`` and ``zone`` text, ``cards`` a tuple or list of texts, ``target`` a whole number
    >= 0) and the whole read back through ``parse_action``, so a hand-built action obeys the same
    grammar as typed text.  Anything else is refused with ``IllegalAction``."""
    if isinstance(action, str):
        return parse_action(action, go_out_names)
    if not isinstance(action, Action):
        raise IllegalAction(f"an action must be text or an Action, not {type(action).__name__}", "action syntax")
    verb, zone, cards, target, named, melds = action
    bad = ("verb" if type(verb) is not str else
           "named" if type(named) is not str or (named and not _word(named)) else
           "melds" if not isinstance(melds, (tuple, list)) or any(
               not isinstance(m, (tuple, list)) or not m or any(type(c) is not str or not _word(c) for c in m)
               for m in melds) else
           "zone" if type(zone) is not str else
           "cards" if not isinstance(cards, (tuple, list)) or any(type(c) is not str for c in cards) else
           "target" if type(target) is not int or target < 0 else "")
    if bad:
        raise IllegalAction(f"an Action's `{bad}` must be "
                            + {"verb": "text", "zone": "text", "cards": "a tuple of card texts",
                               "target": "a meld number (an int, 0 for none)",
                               "named": "a suit name (text, \"\" for none)",
                               "melds": "a tuple of melds, each a tuple of card texts"}[bad], "action syntax")
    if not _word(verb) or (zone and not _word(zone)) or not all(_word(c) for c in cards):
        raise IllegalAction("an Action's verb, zone and cards are single words", "action syntax")
    if target > 9999:
        raise IllegalAction(f"there is no meld {excerpt(target, 24)}", "action syntax")
    text = str(Action(verb, zone, tuple(cards), target, named, tuple(tuple(m) for m in melds)))
    return parse_action(text, go_out_names)


def _word(text: str) -> bool:
    """One word: not empty, no whitespace anywhere."""
    return bool(text) and len(text.split()) == 1 and text.split()[0] == text


def _card(word: str) -> str:
    """Card text, with an optional declared identity for a wild card: ``Jk=10H``."""
    face, eq, decl = word.partition("=")
    s = normalise(face)
    s = "Jk" if s == "JK" else s
    return s + ("=" + normalise(decl) if eq else "")
