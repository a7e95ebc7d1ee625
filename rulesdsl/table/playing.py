"""The terminal table's loops: people and bots playing a table in turn, and a finished game replayed.

Each person on turn sees their own screen (``terminal.seat_screen``, from their ``view`` and their
``log`` only) and answers; bots move between people's turns.  When the keyboard passes from one
person to another, the screen is cleared first and the next person is asked to press Enter, so no one
sees another's hand.  Hand results and the match's end are public and shown as they happen.

A replay steps through a saved game's positions, showing every seat's cards; positions are rebuilt by
playing the record's actions from the nearest kept copy of an earlier position.
"""

from __future__ import annotations

import json
from typing import Optional

from rich.console import Console
from rich.text import Text

from ..engine.record import Positions
from ..errors import IllegalAction, RulesdslError, printable
from .reading import COMMANDS, resolve, help_lines
from .session import Table
from .terminal import CardStyle, actions_list, final_lines, replay_screen, seat_screen, _scores
from .words import result_words

#: lines of "since your last turn" shown at most (the rest: the ``log`` command)
NEWS_LINES = 30


class TerminalTable:
    """A table played at one terminal by its human seats, in turn."""

    def __init__(self, table: Table, console: Console, reader):
        self.table = table
        self.console = console
        self.reader = reader
        self.style = CardStyle.of(table.game)
        self.title = table.game.prog.model.name
        self.read_upto = {seat: 0 for seat in table.humans}     # events each person has been told
        self.last_human: Optional[int] = None
        self.hands_told = len(table.game.hand_log)

    def run(self) -> int:
        """Plays until the match ends (0), a person quits (0) or the ruleset fails (1)."""
        try:
            return self._play()
        except (EOFError, KeyboardInterrupt):
            self.console.print("\nLeft the table.")
            return 0
        except RulesdslError as exc:          # a rule that fails while playing: located, the game stops
            self.console.print(Text(f"error: {printable(exc)}"))
            return 1

    def _play(self) -> int:
        while True:
            self.table.run_bots()
            self._tell_results()
            seat = self.table.to_move
            if seat is None:
                self._finish()
                return 0
            if not self._turn(seat):
                self.console.print("Left the table.")
                return 0

    # ------------------------------------------------------------------ a person's turn
    def _turn(self, seat: int) -> bool:
        """``seat`` answers until it has made a move (True) or quits (False)."""
        if len(self.table.humans) > 1 and seat != self.last_human:
            self._hand_over(seat)
        self.last_human = seat
        self._show(seat)
        while True:
            legal = self.table.view(seat)["legal_actions"]
            answer = resolve(self.reader.read(f"{self.table.name(seat)}> ", legal), legal)
            if answer.kind == "command":
                if answer.text == "quit":
                    return False
                self._command(seat, answer.text, answer.arg)
            elif answer.kind == "ambiguous":
                self._say(f"`{answer.text}` may be: " + ", ".join(answer.options) + ". Type more of it, or its number.")
            elif answer.kind == "unknown":
                self._say(f"No move is numbered {answer.text} (1 to {len(legal)}).")
            elif answer.kind == "action":
                try:
                    self.table.act(seat, answer.text)
                except IllegalAction as exc:
                    self._say(f"Not allowed: {exc}")
                    continue
                self._tell_results()
                return True

    def _hand_over(self, seat: int) -> None:
        """Between two people: hide the last one's screen, and wait for the next to take the keyboard."""
        self._clear()
        self.reader.pause(f"Pass to {self.table.name(seat)} — press Enter")
        self._clear()

    def _clear(self) -> None:
        """Clear the terminal and its scrollback; a terminal that cannot (TERM=dumb) gets a screenful
        of blank lines, so the last hand at least scrolls away.  Nothing to hide in a pipe."""
        if not self.reader.interactive:
            return
        if self.console.is_dumb_terminal:
            self.console.print("\n" * self.console.height, end="")
            return
        self.console.clear()
        self.console.file.write("\x1b[3J")
        self.console.file.flush()

    def _show(self, seat: int) -> None:
        news = self.table.log(seat, since=self.read_upto.get(seat, 0))
        self.read_upto[seat] = len(self.table.events)
        earlier = max(0, len(news) - NEWS_LINES)
        view = self.table.view(seat)
        self.console.print(seat_screen(view, self.style, lambda s: self.table.name(s, seat), self.title,
                                       news[earlier:], earlier, self.table.name(seat)))
        self.console.print(actions_list(view["legal_actions"], self.console.width))

    def _command(self, seat: int, word: str, arg: str) -> None:
        if word == "help":
            self._say(*help_lines())
        elif word == "rules":
            self._say(*rules_lines(self.table.game))
        elif word == "log":
            self._say(*(self.table.log(seat) or ["Nothing has happened yet."]))
        elif word == "save":
            self._save(arg)

    def _save(self, path: str) -> None:
        if not path:
            self._say("Say where: save FILE")
            return
        try:
            with open(path, "w", encoding="utf-8") as out:
                json.dump(self.table.save(), out, indent=1)
        except OSError as exc:
            self._say(f"Could not save to {path}: {exc.strerror or exc}")
            return
        self._say(f"Saved to {path}; `rulesdsl play --load {path}` resumes it.")

    # ------------------------------------------------------------------ public news
    def _tell_results(self) -> None:
        """Each hand finished since the last call, as everyone may read it, with the scores."""
        game = self.table.game
        reader = self.table.humans[0] if len(self.table.humans) == 1 else None
        name = lambda s: self.table.name(s, reader)     # noqa: E731
        teams = [game.members(t) for t in range(game.teams)] if game.teams else None
        for entry in game.hand_log[self.hands_told:]:
            self.console.rule(Text(f"Hand {entry.get('hand')} is over"))
            self._say(result_words(entry, name, teams))
            if not game.is_over:
                self._say("Scores: " + " · ".join(_scores(self._public_view(), name)))
        self.hands_told = len(game.hand_log)

    def _finish(self) -> None:
        reader = self.table.humans[0] if len(self.table.humans) == 1 else None
        self.console.rule(Text("Match over"))
        self._say(*final_lines(self._public_view(), lambda s: self.table.name(s, reader), self.table.game.winners))

    def _public_view(self) -> dict:
        """A view for what every seat knows (scores, teams): a person's, so no bot's hand is near."""
        return self.table.view(self.table.humans[0] if self.table.humans else 0)

    def _say(self, *lines: str) -> None:
        for line in lines:
            self.console.print(Text(printable(line)), soft_wrap=True)


def rules_lines(game) -> list[str]:
    """The ruleset's name and each parameter in force, ``name = value``."""
    model = game.prog.model
    lines = [f"{model.name} ({game.n} players); parameters in force:"]
    lines += [f"  {name} = {_value(value)}" for name, value in game.prog.params.items()]
    return lines


def _value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


# ---------------------------------------------------------------------------------------- replay
class Replayer:
    """Steps through a finished (or saved) game: ``n``/Enter next, ``p`` previous, ``g N``, ``q``."""

    def __init__(self, table: Table, positions: Positions, console: Console, reader):
        self.table = table
        self.positions = positions
        self.console = console
        self.reader = reader
        self.style = CardStyle.of(table.game)
        self.title = table.game.prog.model.name
        self.results = {e.get("hand"): e for e in table.game.hand_log}

    def run(self) -> int:
        k = 0
        total = len(self.positions) - 1
        try:
            while True:
                self._show(k, total)
                k = self._next(k, total)
                if k is None:
                    return 0
        except (EOFError, KeyboardInterrupt):
            return 0

    def _next(self, k: int, total: int) -> Optional[int]:
        """The position asked for (None: quit); asks again on a word it does not know."""
        while True:
            word, _, arg = " ".join(self.reader.read(f"[{k}/{total}] n/p/g N/q> ", ["n", "p", "g", "q"]).split()).partition(" ")
            word = word.lower()
            if word in ("", "n", "next"):
                if k < total:
                    return k + 1
                self.console.print("This is the end of the game (p: back, q: quit).")
            elif word in ("p", "prev", "previous"):
                if k > 0:
                    return k - 1
                self.console.print("This is the deal, before any action (n: forward, q: quit).")
            elif word in ("g", "go"):
                if arg.isdigit() and int(arg) <= total:
                    return int(arg)
                self.console.print(f"Go to which action? g N, with N from 0 (the deal) to {total}.")
            elif word in ("q", "quit"):
                return None
            else:
                self.console.print(f"n or Enter: next action · p: previous · g N: go to action N (0 to {total}) · q: quit")

    def _show(self, k: int, total: int) -> None:
        game = self.positions.at(k)
        views = [game.view(s) for s in range(game.n)]
        said = self._said(k)
        self.console.print(replay_screen(views, self.style, lambda s: self.table.name(s), self.title, k, total, said))
        if game.is_over:
            self.console.print("\n".join(final_lines(views[0], lambda s: self.table.name(s), game.winners)))

    def _said(self, k: int) -> list[str]:
        """The action that led to position ``k``, and the hand's result when it ended the hand."""
        if k == 0:
            return ["The deal, before any action."]
        events = self.table.events
        event = events[k - 1]
        lines = [f"{k}. {self.table.describe(event, None)}"]
        hand_ended = k == len(events) or events[k].hand != event.hand
        if hand_ended and event.hand in self.results:
            game = self.table.game
            teams = [game.members(t) for t in range(game.teams)] if game.teams else None
            lines.append(result_words(self.results[event.hand], lambda s: self.table.name(s), teams))
        return lines


__all__ = ["TerminalTable", "Replayer", "Positions", "rules_lines", "COMMANDS"]
