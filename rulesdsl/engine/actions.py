"""Actions: small immutable values with a canonical text notation that round-trips.

    draw stock          take discard         discard QS          pass
    knock QS            out 5C               declare             (go-out names a ruleset chose, with their discard)
    layoff 5D on 1      done                 play 9S 9H          give 2C
    take discard 4      meld 9H Jk=10H JH    claim discard 1     (take or claim the top 4 / top 1 cards)

The verb is the first word; ``draw``/``take`` name a zone; cards are written rank+suit (case-insensitive,
``T`` = 10); ``on N`` names a meld on the table by its 1-based number in ``view()``.  A go-out verb is a
name the ruleset chose under ``go_out:``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import IllegalAction
from ..compile.cards import normalise

from ..model.game import BUILTIN_VERBS


class Action(NamedTuple):
    verb: str
    zone: str = ""
    cards: tuple = ()
    target: int = 0

    def __str__(self) -> str:
        parts = [self.verb]
        if self.zone:
            parts.append(self.zone)
        parts.extend(self.cards)
        if self.target:
            parts.append(f"on {self.target}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


def parse_action(text: str, go_out_names: tuple = ()) -> Action:
    """Parse the canonical notation (whitespace- and case-tolerant) into an ``Action``."""
    if not isinstance(text, str):
        raise IllegalAction(f"an action must be text or an Action, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise IllegalAction("empty action", "action syntax")
    verb = words[0].lower()
    for name in go_out_names:                      # a go-out name is matched however it is written
        if name.lower() == verb:
            verb = name
    rest = words[1:]
    if verb in ("draw", "take", "claim"):
        if len(rest) not in (1, 2) or (verb == "draw" and len(rest) != 1):
            raise IllegalAction(f"`{verb}` needs a zone, as in `{verb} stock` (take and claim may add how "
                                "many cards: `take discard 3`)", "action syntax")
        if len(rest) == 2:
            if not re.fullmatch(r"[0-9]{1,4}", rest[1]) or int(rest[1]) < 1:
                raise IllegalAction(f"`{rest[1]}` is not a number of cards", "action syntax")
            return Action(verb, rest[0].lower(), (str(int(rest[1])),))
        return Action(verb, rest[0])
    if verb in ("pass", "done", "ask", "yes", "no"):
        if rest:
            raise IllegalAction(f"`{verb}` takes nothing after it", "action syntax")
        return Action(verb)
    target = 0
    if len(rest) >= 2 and rest[-2].lower() == "on":
        try:
            target = int(rest[-1])
        except ValueError:
            raise IllegalAction(f"`on` needs a meld number, not `{rest[-1]}`", "action syntax") from None
        rest = rest[:-2]
    if verb in ("discard", "layoff", "play", "give", "meld") or verb in go_out_names:
        return Action(verb, "", tuple(_card(w) for w in rest), target)
    known = ", ".join(BUILTIN_VERBS + tuple(go_out_names))
    raise IllegalAction(f"unknown action `{words[0]}`; actions: {known}", "action syntax")


def _card(word: str) -> str:
    """Card text, with an optional declared identity for a wild card: ``Jk=10H``."""
    face, eq, decl = word.partition("=")
    s = normalise(face)
    s = "Jk" if s == "JK" else s
    return s + ("=" + normalise(decl) if eq else "")
