"""A table: one game, its seats (people or bots), and what happened, as each seat may read it.

The terminal and the web table are two faces of this one object, so they cannot disagree about who
plays, what is logged, or what a saved game holds.  The game stays the only authority: a person's
action goes through ``game.apply(text, seat=...)`` (refused whole, naming the rule, when illegal) and
a bot's through its ``choose``.  Every action is logged with the seat that made it and, per seat, the
cards of its text that seat saw (``words``), so a log never tells one player another's hidden cards.

A saved table is a game record (``rulesdsl.replay`` reads it as is) with one more field, ``table``:
who sat where.  Loading replays the record action by action, so the log is rebuilt exactly.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from ..bots import BUNDLED, BotError, check_bot_options, make_bot
from ..engine.actions import parse_action
from ..engine.record import RecordError
from ..rules import replay
from ..engine.visibility import seen_by
from ..errors import RulesdslError
from .words import action_words, result_words

HUMAN = "human"

#: a bot that keeps choosing past this many actions in a row without a person to move stops the
#: table's ``run_bots`` (a match played to the end by bots alone is still bounded by the game)
BOT_STEP_LIMIT = 100_000
#: what the ``table`` field of a saved game holds
SAVED_TABLE_FIELDS = ("seats", "bot_options", "bot_seed")


class TableError(ValueError):
    """A table that cannot be set up or loaded: bad seats, an unknown bot, a file that is no saved table."""


class Event(NamedTuple):
    """One action done at the table."""

    index: int            # its place in the game's history (0-based)
    seat: int             # the seat that made it
    text: str             # its canonical text
    hand: int             # the hand it was made in
    shown: tuple          # per seat: the frozenset of the action's card texts that seat saw


def _check_file_seats(seats: Any, allow_bots: Sequence[str]) -> None:
    """The seats a file names: people, bundled bots, and only the ``module:Class`` bots allowed."""
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise TableError("the saved table's seats must be a list of texts (human or a bot name)")
    for spec in seats:
        if spec != HUMAN and spec not in BUNDLED and spec not in allow_bots:
            raise TableError(f"the saved table seats the bot `{spec[:60]}`, which is not a bundled bot "
                             f"({', '.join(BUNDLED)}); a bot of your own is built from a file only when you "
                             f"name it (rulesdsl play --load FILE --allow-bot {spec[:60]})")


class Table:
    """A game with seats: ``seats[i]`` is ``"human"`` or a bot spec (``random``, ``greedy``, ...)."""

    def __init__(self, game, seats: Sequence[str], bot_options: Optional[Mapping[str, Any]] = None,
                 bot_seed: int = 0):
        if len(seats) != game.n:
            raise TableError(f"{len(seats)} seats given for a game of {game.n} players")
        self.game = game
        self.seats = [str(s) for s in seats]
        self.bot_options = dict(bot_options or {})
        self.bot_seed = bot_seed
        self.events: list[Event] = []
        self.bots: dict[int, Any] = {}
        self._said: dict[tuple, str] = {}     # (event, reader) -> the sentence (a log is re-read often)
        for seat, spec in enumerate(self.seats):
            if spec != HUMAN:
                try:
                    self.bots[seat] = make_bot(spec, seed=bot_seed * 1000 + seat, **self.bot_options)
                except BotError as exc:
                    raise TableError(str(exc)) from None

    # ------------------------------------------------------------------ making and loading
    @classmethod
    def new(cls, rules, seats: Sequence[str], seed=None, dealer: Optional[int] = None,
            bot_options: Optional[Mapping[str, Any]] = None) -> "Table":
        """A new game of ``rules`` with one seat per entry of ``seats``."""
        game = rules.new_game(seed=seed, dealer=dealer, players=len(seats))
        bot_seed = seed if isinstance(seed, int) else random.SystemRandom().randrange(1 << 30)
        return cls(game, seats, bot_options, bot_seed)

    @classmethod
    def load(cls, data: Mapping[str, Any], rules=None, allow_paths: Sequence = (),
             seats: Optional[Sequence[str]] = None, allow_bots: Sequence[str] = ()) -> "Table":
        """The table a saved file (or any game record) describes, its log rebuilt.  ``seats`` overrides
        who sits where (a plain record names no seats: every seat is then a person).

        A file comes from anywhere, so its seats are people or bundled bots only: a ``module:Class``
        seat is built only when ``allow_bots`` names it (the person who loads the file chose to run that
        code), and bot options from the file are held to ``bots.FILE_OPTIONS``."""
        saved = data.get("table", {}) if isinstance(data, Mapping) else {}
        if not isinstance(saved, Mapping) or not set(saved) <= set(SAVED_TABLE_FIELDS):
            raise TableError(f"the saved table holds only {', '.join(SAVED_TABLE_FIELDS)}")
        if seats is None:
            seats = saved.get("seats")
            if seats is not None:
                _check_file_seats(seats, allow_bots)
        bot_seed = saved.get("bot_seed", 0)
        if type(bot_seed) is not int or bot_seed.bit_length() > 64:
            raise TableError("the saved table's bot seed must be a whole number")
        try:
            options = check_bot_options(saved.get("bot_options", {}))
        except BotError as exc:
            raise TableError(f"the saved table's bot options: {exc}") from None
        log: list = []

        def logged(game, text):
            log.append(before_action(game, text))
            game.apply(text)
            log[-1] = after_action(game, log[-1])

        try:
            game = replay(data, rules, allow_paths, apply=logged) if rules is None else \
                _replay_with(rules, data, logged)
        except RulesdslError as exc:
            raise TableError(str(exc)) from None
        table = cls(game, seats if seats is not None else [HUMAN] * game.n, options, bot_seed)
        table.events = log
        return table

    def save(self) -> dict:
        """A game record (JSON-ready) with who sat where: ``Table.load`` resumes it, ``rulesdsl.replay``
        reads it as a plain record."""
        record = self.game.record()
        record["table"] = {"seats": list(self.seats), "bot_options": dict(self.bot_options),
                           "bot_seed": self.bot_seed}
        return record

    # ------------------------------------------------------------------ playing
    @property
    def to_move(self) -> Optional[int]:
        """The seat on turn, or None when the match is over."""
        return None if self.game.is_over else self.game.current_player

    def is_human(self, seat: int) -> bool:
        return self.seats[seat] == HUMAN

    @property
    def humans(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec == HUMAN]

    def act(self, seat: int, action) -> Event:
        """``seat`` does ``action`` (text or an Action); illegal -> ``IllegalAction``, nothing changed."""
        game = self.game
        pending = before_action(game, str(action) if not isinstance(action, str) else action)
        game.apply(action, seat=seat)
        event = after_action(game, pending)
        self.events.append(event)
        return event

    def step_bot(self) -> Optional[Event]:
        """The bot on turn makes its move; None when no bot is on turn."""
        seat = self.to_move
        if seat is None or seat not in self.bots:
            return None
        return self.act(seat, self.bots[seat].choose(self.game))

    def run_bots(self, limit: int = BOT_STEP_LIMIT) -> list[Event]:
        """Bots move until a person is on turn or the match is over (at most ``limit`` moves)."""
        done = []
        while len(done) < limit:
            event = self.step_bot()
            if event is None:
                break
            done.append(event)
        return done

    # ------------------------------------------------------------------ telling
    def name(self, seat: int, reader: Optional[int] = None) -> str:
        """How ``reader`` calls ``seat``: "you", or "seat 2 (greedy)" (seats count from 1 for people)."""
        if reader is not None and seat == reader:
            return "you"
        spec = self.seats[seat]
        return f"seat {seat + 1}" + ("" if spec == HUMAN else f" ({spec})")

    def describe(self, event: Event, reader: Optional[int] = None) -> str:
        """``event`` as a sentence for ``reader`` (None: every card shown, as in a replay)."""
        action = parse_action(event.text, self.game.go_out_names)
        shown = None if reader is None else event.shown[reader]
        you = reader is not None and event.seat == reader
        words = action_words(action, shown, person=2 if you else 3)
        subject = "You" if you else self.name(event.seat).capitalize()
        return f"{subject} {words}."

    def log(self, reader: Optional[int] = None, last: Optional[int] = None, since: int = 0) -> list[str]:
        """The table's story as ``reader`` may read it: each action, and each hand's result when it
        ended, oldest first (the ``last`` lines only, when given).  ``since``: start at that event (a
        face that showed the log up to ``len(table.events)`` asks for what came after; a hand that
        ended before it was told then, so its result is not repeated)."""
        lines: list[str] = []
        results = {e.get("hand"): e for e in self.game.hand_log}
        teams = [self.game.members(t) for t in range(self.game.teams)] if self.game.teams else None
        hand = None
        start = since if last is None else max(since, len(self.events) - last)
        # (each event gives at least one line, so the last ``last`` lines come from the last ``last`` events)
        for event in self.events[start:]:
            if hand is not None and event.hand != hand and hand in results:
                lines.append(result_words(results[hand], lambda s: self.name(s, reader), teams))
            hand = event.hand
            key = (event, reader)           # an event is a value: equal events read the same
            if key not in self._said:
                self._said[key] = self.describe(event, reader)
            lines.append(self._said[key])
        if hand in results:
            lines.append(result_words(results[hand], lambda s: self.name(s, reader), teams))
        return lines if last is None else lines[-last:]

    def view(self, seat: int) -> dict:
        return self.game.view(seat)


def before_action(game, text: str) -> tuple:
    """Before an action: who makes it, which hand, and the card texts each seat sees now."""
    t = game.prog.cards.text
    return (len(game.history), game.current_player, game.hand_number,
            [frozenset(t[c] for c in seen_by(game, s)) for s in range(game.n)], text)


def after_action(game, pending: tuple) -> Event:
    """After it: the event, with each seat's share of its cards: its own action's, those it saw before
    or sees now, and every card of an action that ended the hand (a last play, a going out)."""
    index, seat, hand, before, _sent = pending
    text = game.history[index]          # apply() records the action before anything else
    action = parse_action(text, game.go_out_names)
    cards = set(action.cards) | {c for m in action.melds for c in m}
    cards = {c.partition("=")[0] for c in cards} | cards
    t = game.prog.cards.text
    shown = []
    for s in range(game.n):
        if s == seat:
            shown.append(frozenset(cards))
            continue
        if game.hand_number != hand or game.is_over:
            shown.append(frozenset(cards))     # the hand ended on it: its cards were laid out
            continue
        now = {t[c] for c in seen_by(game, s)}
        shown.append(frozenset(c for c in cards if c.partition("=")[0] in before[s] or c.partition("=")[0] in now))
    return Event(index, seat, text, hand, tuple(shown))


def _replay_with(rules, data, apply):
    from ..engine.record import replay_with
    return replay_with(rules, data, apply)


__all__ = ["Table", "TableError", "Event", "HUMAN", "RecordError"]
