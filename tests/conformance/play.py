"""What conformance tests share: a ruleset from a text written for one feature, and a game of it on a
stacked deal (top card first), so each test checks a documented outcome exactly."""

from __future__ import annotations

import textwrap
from typing import Mapping, Optional, Sequence

import rulesdsl


def rules(text: str, overrides: Optional[dict] = None, name: str = "conformance.yaml") -> rulesdsl.Rules:
    """The ruleset a YAML (or, with ``name`` ending ``.rules``, DSL) text describes; ``text`` may be
    indented as it sits in the test."""
    return rulesdsl.load(name, overrides=overrides, text=textwrap.dedent(text))


def game(text: str, deck: Optional[Sequence[str]] = None, players: Optional[int] = None, seed: int = 0,
         overrides: Optional[dict] = None, decks: Optional[Sequence[Sequence[str]]] = None,
         dealer: Optional[int] = None) -> rulesdsl.Game:
    """A new match of the ruleset ``text``, its first deal stacked with ``deck`` (``decks`` the next)."""
    return rules(text, overrides).new_game(seed=seed, deck=deck, players=players, decks=decks, dealer=dealer)


def dealt(hands: Mapping[int, Sequence[str]], deck: Sequence[str], dealer: int = 0,
          then: Sequence[str] = ()) -> list[str]:
    """A deck (top card first) that deals ``hands[seat]`` one card at a time from the dealer's left, then
    has the cards ``then`` on top of what is left (an upcard, the stock's top), then the rest of
    ``deck`` in its order (each copy once)."""
    n = len(hands)
    per = len(hands[(dealer + 1) % n])
    out = [hands[(dealer + 1 + i) % n][k] for k in range(per) for i in range(n)] + list(then)
    rest = list(deck)
    for c in out:
        rest.remove(c)
    return out + rest


def legal(g: rulesdsl.Game) -> list[str]:
    """The legal actions' texts, in the engine's order."""
    return [str(a) for a in g.legal_actions()]


def refusal(text: str, overrides: Optional[dict] = None) -> str:
    """The diagnostics a ruleset text is refused with, rendered (the test fails if it loads)."""
    try:
        rules(text, overrides)
    except rulesdsl.RulesetError as e:
        return str(e)
    raise AssertionError("the ruleset loaded, but it should have been refused")
