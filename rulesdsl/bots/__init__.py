"""Players for any ruleset.

A bot is any object with ``choose(game) -> Action``: it is asked on its own turn (``game.current_player``
is its seat) and returns one of ``game.legal_actions()``.  It must not change ``game`` (look ahead on
``game.clone()`` or ``game.determinize(seat, rng)``), and it must not read what its seat cannot see: the
``view(seat)``, the public history and its own hand are fair; the stock's order and the other hands are
not (``determinize`` deals them again at random, consistently with what the seat has seen).

Bundled bots, each for every ruleset: ``random`` (a uniformly random legal action), ``greedy`` (a
one-move look-ahead scored by the ruleset's own penalties) and ``ismcts`` (information-set Monte Carlo
tree search over determinizations).  ``make_bot("module:Class")`` loads a bot of your own; its class
is called as ``Class(seed=..., **options)``.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, Optional, Protocol

from ..engine.actions import Action

#: the bundled bots: name -> "module:Class" (imported when first asked for)
BUNDLED = {
    "random": "rulesdsl.bots.random_bot:RandomBot",
    "greedy": "rulesdsl.bots.greedy:GreedyBot",
    "ismcts": "rulesdsl.bots.ismcts:ISMCTSBot",
}


class Bot(Protocol):
    """What a player is: asked for one action of the legal list, on its own turn."""

    def choose(self, game) -> Action: ...


class BotError(ValueError):
    """A bot that cannot be made: an unknown name, a module or class that is not there, a bad option."""


def bot_class(spec: str) -> type:
    """The class a bot spec names: a bundled name (``greedy``) or ``module:Class`` (``my_bots:Cautious``)."""
    target = BUNDLED.get(spec, spec)
    module_name, colon, class_name = target.partition(":")
    if not colon or not module_name or not class_name:
        raise BotError(f"unknown bot `{spec}`: bundled bots are {', '.join(BUNDLED)}; a bot of your own is "
                       "named `module:Class` (the module importable from the current folder or PYTHONPATH)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(f"bot `{spec}`: cannot import module `{module_name}` ({exc})") from None
    cls = getattr(module, class_name, None)
    if cls is None or not callable(getattr(cls, "choose", None)):
        raise BotError(f"bot `{spec}`: `{module_name}` has no class `{class_name}` with a choose(game) method")
    return cls


#: the options a file (a saved game) may give the bundled bots, and their bounds: a file from elsewhere
#: must not make a bot think for hours (``check_bot_options``; the command line holds its own to them,
#: so what it saves loads again)
FILE_OPTIONS = {"iterations": (int, 1, 100_000), "seconds": (float, 0.001, 600.0), "depth": (int, 0, 10_000),
                "exploration": (float, 0.0, 100.0), "scale": (float, 0.0, 1e6), "rollout": (str, "random", "greedy")}


def check_bot_options(options: Any) -> dict:
    """Bot options read from a file (or typed where a file will keep them), each a known option of the
    bundled bots within its bound (a ``BotError`` otherwise): a file is never trusted to be small."""
    if not isinstance(options, dict):
        raise BotError("the bot options must be a mapping")
    for key, value in options.items():
        rule = FILE_OPTIONS.get(key)
        if rule is None:
            raise BotError(f"`{str(key)[:40]}` is no bot option a saved game may hold ({', '.join(FILE_OPTIONS)})")
        kind, lo, hi = rule
        if kind is str:
            ok = value in (lo, hi)
        else:
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            ok = number and (kind is float or type(value) is int) and lo <= value <= hi
        if not ok:
            want = f"{lo} or {hi}" if kind is str else f"a {'whole ' if kind is int else ''}number from {lo} to {hi:,}"
            raise BotError(f"{key} must be {want}")
    return dict(options)


def make_bot(spec: str, seed: Optional[int] = None, **options: Any) -> Bot:
    """A bot from its spec, seeded.  ``options`` the class does not take are left out (one set of
    options, ``iterations=`` say, serves a table of different bots)."""
    cls = bot_class(spec)
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs = {k: v for k, v in options.items() if takes_any or k in params}
    if takes_any or "seed" in params:
        kwargs["seed"] = seed
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise BotError(f"bot `{spec}`: {exc}") from None


def seat_specs(text: str, players: int) -> list[str]:
    """``"ismcts,greedy"`` -> one spec per seat, the last repeated: ``[ismcts, greedy, greedy, greedy]``."""
    specs = [s.strip() for s in text.split(",")]
    if not specs or any(not s for s in specs):
        raise BotError(f"`{text}`: give one bot per seat, separated by commas (the last is repeated)")
    if len(specs) > players:
        raise BotError(f"`{text}` names {len(specs)} bots for {players} players")
    return specs + [specs[-1]] * (players - len(specs))
