"""Every ruleset as an OpenSpiel game (extra ``[openspiel]``).

    import pyspiel
    import rulesdsl.openspiel                          # registers the game `rulesdsl`
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "set": "knock_limit=5"})
    game = rulesdsl.openspiel.load_game("gin_rummy", knock_limit=5)   # the same, parameters by name

``load_game(name, **params)`` registers the ruleset as a game of its own, ``rulesdsl_<name>``, whose
OpenSpiel parameters are the ruleset's own (with their defaults) besides ``players``, ``deals``,
``returns`` and ``max_actions``; after it, ``pyspiel.load_game("rulesdsl_gin_rummy", {"knock_limit":
5})`` works too.  See docs/encoding.md for the numbering, the observation and the chance model.
"""

from __future__ import annotations

import ctypes
import re

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - exercised by test_packaging without the extra
    raise ImportError("rulesdsl.openspiel needs OpenSpiel: pip install 'rulesdsl[openspiel]'") from exc

from .game import DEFAULTS, SHORT_NAME, RulesGame, RulesObserver, RulesState, _game_type

_registered: dict = {}


def _register(game_type, factory) -> None:
    """``pyspiel.register_game``, keeping the factory alive for good.  OpenSpiel keeps registered
    factories in a C++ table that is destroyed only after Python has shut down; if that table held
    the last reference, the factory would be freed then, without the interpreter, and the process
    would abort at exit ("PyThreadState_Get ... finalizing").  One reference that is never given back
    keeps it from being freed at all."""
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(factory))
    pyspiel.register_game(game_type, factory)


def _register_generic() -> None:
    if SHORT_NAME in _registered:
        return
    _register(_game_type(SHORT_NAME, dict(DEFAULTS), (2, 16)), RulesGame)
    _registered[SHORT_NAME] = RulesGame


def register(ruleset) -> str:
    """Register ``ruleset`` (a bundled name or a path) as an OpenSpiel game of its own, with its
    parameters as OpenSpiel parameters; returns the game's short name (``rulesdsl_gin_rummy``)."""
    from ..rules import Rules, load
    if isinstance(ruleset, Rules):
        raise TypeError("register a ruleset by its name or path (OpenSpiel rebuilds games from names)")
    rules = load(ruleset)
    short = "rulesdsl_" + re.sub(r"[^A-Za-z0-9_]", "_", re.sub(r"\.(ya?ml|rules)$", "", str(ruleset)))
    if short in _registered:
        return short
    spec = {k: v for k, v in DEFAULTS.items() if k not in ("ruleset", "set")}
    for name, value in rules.params.items():
        if isinstance(value, (bool, int, float, str)) and name not in spec:
            spec[name] = value
    players = (rules.model.players.min, rules.model.players.max)

    def make(params=None):
        return RulesGame(params, short_name=short, spec=spec, ruleset=ruleset, players=players)

    _register(_game_type(short, spec, players), make)
    _registered[short] = make
    return short


def load_game(ruleset, **params):
    """The OpenSpiel game of ``ruleset`` with ``params`` (the ruleset's own parameters, and
    ``players``, ``deals``, ``returns``, ``max_actions``).  The values are checked here first, by the
    ruleset's own rules (``RulesetError``) and the game's bounds (``ValueError``), so a value OpenSpiel
    cannot even hold (a number past a C++ int) is refused with a message naming it."""
    from ..rules import load
    from .game import check_bounds

    short = register(ruleset)
    own = {k: v for k, v in params.items() if k not in DEFAULTS}
    load(ruleset, overrides=own or None)
    check_bounds(params)
    return pyspiel.load_game(short, params)


_register_generic()

__all__ = ["load_game", "register", "RulesGame", "RulesState", "RulesObserver"]
