"""A game seen as a sequence of numbered decisions: the part both game-library faces share.

A factored action (see ``encoding.actions``) takes several decisions of the same player; between them
the game itself does not move, and the cards chosen so far (the *selection*) are part of what the
player observes.  ``Decisions`` holds a game and its selection, lists the legal numbers and applies one,
and applies the engine action once its last number is chosen.  The legal list of the engine is the
only authority: the numbers offered are the next steps of the paths of its legal actions.
"""

from __future__ import annotations

from typing import Optional

from ..errors import IllegalAction
from .actions import ActionSpace


class IllegalNumber(IllegalAction):
    """A number the player on turn may not choose now: not the next step of any legal action's path.
    Nothing changed.  (A defect of the numbering itself is an ``EncodingError``.)"""


class Decisions:
    """A game and the selection of the player on turn.  ``legal()`` and ``apply(number)``."""

    __slots__ = ("game", "space", "selection", "_paths", "_paths_for")

    def __init__(self, game, space: ActionSpace):
        self.game = game
        self.space = space
        self.selection: tuple = ()          # the numbers chosen so far towards a factored action
        self._paths: Optional[list] = None  # (path, action) for every legal action of this position
        self._paths_for = -1

    def clone(self) -> "Decisions":
        copy = Decisions(self.game.clone(), self.space)
        copy.selection = self.selection
        return copy

    def __deepcopy__(self, memo) -> "Decisions":
        """The engine's own copy (``Game.clone``), which shares what never changes; a library that
        copies a state's fields deeply (OpenSpiel's clone) gets it instead of a copy of the rules."""
        return self.clone()

    def __reduce__(self):
        """Pickled as the game's record and the selection (a determinized copy has no record, and
        cannot be pickled)."""
        return (_from_record, (self.game.record(), self.space, self.selection))

    @property
    def current_player(self) -> Optional[int]:
        return None if self.game.is_over else self.game.current_player

    def paths(self) -> list:
        """``(path, action)`` for each legal action of the engine, made once per position."""
        stamp = len(self.game.history)
        if self._paths is None or self._paths_for != stamp:
            path = self.space.path
            self._paths = [(path(a), a) for a in self.game.legal_actions()]
            self._paths_for = stamp
        return self._paths

    def legal(self) -> list:
        """The numbers the player on turn may choose now, ascending."""
        if self.game.is_over:
            return []
        sel = self.selection
        k = len(sel)
        if not k:
            return sorted({p[0] for p, _ in self.paths()})
        return sorted({p[k] for p, _ in self.paths() if len(p) > k and p[:k] == sel})

    def completing(self, number: int) -> Optional[object]:
        """The engine action choosing ``number`` would complete now (None: it would only extend the
        selection).  A number that is not legal raises ``IllegalNumber``."""
        return self._judge(number)[0]

    def apply(self, number: int) -> Optional[object]:
        """Choose ``number``: the engine action it completes (applied to the game), or None while a
        factored action is still being chosen.  A number that is not legal raises ``IllegalNumber``
        and changes nothing."""
        done, sel = self._judge(number)
        if done is not None:
            self.game.apply(done)
            self.selection = ()
            return done
        self.selection = sel
        return None

    def _judge(self, number: int) -> tuple:
        """(the action ``number`` completes or None, the selection it leaves)."""
        sel = self.selection + (number,)
        k = len(sel)
        extends = False
        for path, action in self.paths():
            if path[:k] == sel:
                if len(path) == k:
                    return action, ()
                extends = True
        if not extends:
            raise IllegalNumber(f"{number} ({self.describe(number)}) is not a legal choice here", "action number")
        return None, sel

    def describe(self, number: int) -> str:
        if not (isinstance(number, int) and 0 <= number < self.space.size):
            return "not an action of this game"
        return self.space.describe(number)

    def selected_cards(self) -> list:
        """The card texts chosen so far (``Jk=10H`` for a declared wild); ``/`` between melds."""
        names = self.space.names
        return ["/" if i == self.space.next_meld else names[i][4:] for i in self.selection]


def _from_record(record: dict, space: ActionSpace, selection: tuple) -> Decisions:
    from ..rules import replay
    d = Decisions(replay(record), space)
    d.selection = tuple(selection)
    return d
