"""One ruleset at one player count, ready for a game library: its rules, numbering and observation
layout, and the reading of the options both faces take (``players``, ``deals``, ``returns``, the
ruleset's own parameters)."""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Optional

from .actions import ActionSpace, build_action_space
from .observation import ObservationSpec, build_observation_spec

#: how a finished (or cut short) game pays each seat
RETURNS = ("win", "score")

#: the most engine actions in one deal before a face cuts the game short (a bound the libraries need:
#: OpenSpiel's ``max_game_length``, PettingZoo's truncation); far above any real deal
DEFAULT_MAX_ACTIONS_PER_DEAL = 2000


class Encoding(NamedTuple):
    rules: Any
    prog: Any
    players: int
    actions: ActionSpace
    observation: ObservationSpec
    deals: int                  # 0: the whole match; k: stop after k deals
    returns: str
    max_actions: int            # engine actions in all before the game is cut short
    made_from: tuple = ()       # the arguments of ``encode`` that made it (to rebuild it from a pickle)
    copies: tuple = ()          # card kind -> how many cards of that kind the deck holds

    def __deepcopy__(self, memo) -> "Encoding":
        """Shared, never copied: a game library copies a state's fields deeply (OpenSpiel's clone),
        and the encoding is fixed for the game."""
        return self

    def __reduce__(self):
        """Pickled as the arguments that make it (a ruleset name or path, and the options)."""
        if not self.made_from:
            raise TypeError("an encoding made from loaded Rules cannot be pickled; make it from a name or path")
        return (encode, self.made_from)

    @property
    def sides(self) -> int:
        return self.prog.teams or self.players

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat``: its team where the game has teams, else the seat itself."""
        return seat % self.prog.teams if self.prog.teams else seat       # as ``Game.team_of``


def encode(ruleset, players: Optional[int] = None, overrides: Optional[Mapping[str, Any]] = None,
           deals: int = 0, returns: str = "win", max_actions: int = 0) -> Encoding:
    """Load ``ruleset`` (a bundled name, a path, or loaded ``Rules``) and derive its encoding."""
    from ..rules import Rules, load
    if returns not in RETURNS:
        raise ValueError(f"returns must be one of {', '.join(RETURNS)}, not {returns!r}")
    if not (type(deals) is int and deals >= 0):
        raise ValueError("deals must be a whole number >= 0 (0: play the whole match)")
    rules = ruleset if isinstance(ruleset, Rules) else load(ruleset, overrides=dict(overrides or {}))
    if isinstance(ruleset, Rules) and overrides:
        raise ValueError("pass overrides when loading the rules, or pass the ruleset's name")
    prog = rules.program(players or None)
    space = build_action_space(prog)
    obs = build_observation_spec(prog, _meld_bound_of(space))
    if not max_actions:
        max_actions = DEFAULT_MAX_ACTIONS_PER_DEAL * (deals or 50)
    made_from = () if isinstance(ruleset, Rules) else (
        str(ruleset), prog.n, dict(overrides or {}), deals, returns, max_actions)
    copies = [0] * prog.cards.n_kinds
    for c in prog.cards.ids:
        copies[prog.cards.kind[c]] += 1
    return Encoding(rules, prog, prog.n, space, obs, deals, returns, max_actions, made_from, tuple(copies))


def _meld_bound_of(space: ActionSpace) -> int:
    return sum(1 for head in space.commits if head.startswith("layoff on "))


def seat_returns(enc: Encoding, game, cut_short: bool) -> list:
    """Each seat's return.  ``win``: the winning side's seats +1 and the others share -1 per winner
    seat, so the returns sum to zero (0 for all when no one side leads); ``score``: how far the side's
    total is better than the mean of all sides' totals (below it, where the lowest total wins).  A game
    cut short (``deals``, or the action bound) is judged by its totals so far."""
    n = enc.players
    scores = list(game.scores)
    lowest = enc.prog.model.match.winner == "lowest"
    if enc.returns == "score":
        mean = sum(scores) / len(scores)
        sign = -1.0 if lowest else 1.0
        return [sign * float(scores[enc.side_of(s)] - mean) for s in range(n)]
    if game.is_over and not cut_short:
        best = game.winner
    else:
        top = min(scores) if lowest else max(scores)
        leaders = [i for i, v in enumerate(scores) if v == top]
        best = leaders[0] if len(leaders) == 1 else None
    if best is None:
        return [0.0] * n
    winners = [s for s in range(n) if enc.side_of(s) == best]
    losers = n - len(winners)
    if not losers:
        return [0.0] * n
    return [1.0 if s in winners else -len(winners) / losers for s in range(n)]
