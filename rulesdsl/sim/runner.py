"""One match, played by bots, boiled down to a ``MatchResult``: small, picklable and JSON-ready.

Everything that decides how a match goes follows from its seed and the bot specs: the game is dealt
from ``seed`` and seat ``i``'s bot is made with ``bot_seed(seed, i)``, so match number ``k`` of a run
plays the same wherever it is played (this process, a pool worker, a Ray task).  The result keeps
only what the summaries need; the time it took is kept too but is not part of its equality.

A match ends in one of three ways: ``finished`` (the ruleset ended it), ``unfinished`` (it reached the
cap of decisions: a ruleset whose match may never end, or bots that never get anywhere; reported with
its seed, never an error) or ``failed`` (the ruleset stopped it with a located ``RuleEvaluationError``,
or a bot failed: the located text is kept in ``error``).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Optional, Sequence

from ..bots import BotError, make_bot
from ..errors import RuleEvaluationError, RulesdslError, printable

FINISHED, UNFINISHED, FAILED = "finished", "unfinished", "failed"


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s bot in the match dealt from ``match_seed``: a 64-bit hash of both,
    so that no bot shares its random stream with a deal or another seat."""
    digest = hashlib.blake2b(f"rulesdsl-bot:{match_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass
class MatchResult:
    """How one match went.  ``winner`` is a seat, or a team where the game has teams (``None``: shared,
    or not finished); ``scores`` per seat or team; ``hands`` lists each finished hand as
    ``[ending, scorer, points, declarer]`` (from ``game.hand_log``; the declarer is the seat that went
    out where the ruleset names one); ``roles`` per seat, the number of hands finished in each role;
    ``first`` is the seat that made the match's first decision and ``first_side`` its seat or team."""

    match: int
    seed: int
    status: str
    error: str = ""
    winner: Optional[int] = None
    scores: list = field(default_factory=list)
    hands: list = field(default_factory=list)
    decisions: int = 0
    first: Optional[int] = None
    first_side: Optional[int] = None
    dealer: Optional[int] = None
    roles: list = field(default_factory=list)
    seconds: float = field(default=0.0, compare=False)

    @property
    def margin(self):
        """The winner's lead over the runner-up at the end (``None`` without a winner): above the next
        total where the highest wins, below it where the lowest wins."""
        if self.status != FINISHED or self.winner is None:
            return None
        if len(self.scores) < 2 or not 0 <= self.winner < len(self.scores):
            s = sorted(self.scores, reverse=True)
            return s[0] - s[1] if len(s) > 1 else s[0]
        mine = self.scores[self.winner]
        others = [v for i, v in enumerate(self.scores) if i != self.winner]
        return mine - max(others) if mine >= max(others) else min(others) - mine

    def endings(self) -> list[str]:
        return [h[0] for h in self.hands]

    def as_dict(self) -> dict:
        return asdict(self)


def play_match(rules, match: int, seed: int, bots: Sequence[str], bot_options: Optional[dict] = None,
               players: Optional[int] = None, max_decisions: int = 1_000_000) -> MatchResult:
    """Play match number ``match`` (0-based) dealt from ``seed`` to its end, or to ``max_decisions``."""
    t0 = time.perf_counter()
    result = MatchResult(match=match, seed=seed, status=FAILED)
    game = None
    try:
        game = rules.new_game(seed=seed, players=players)
        result.dealer = game.dealer
        seats = [make_bot(spec, seed=bot_seed(seed, i), **(bot_options or {})) for i, spec in enumerate(bots)]
        decisions = 0
        while not game.is_over:
            if decisions >= max_decisions:
                result.status = UNFINISHED
                break
            seat = game.current_player
            if result.first is None:
                result.first = seat
                result.first_side = game.team_of(seat) if game.teams else seat
            action = _choose(seats[seat], bots[seat], seat, game)
            try:
                game.apply(action, seat=seat)
            except RuleEvaluationError:
                raise
            except RulesdslError as exc:        # an illegal action: the bot's fault, said plainly
                raise _BotFailure(f"bot `{bots[seat]}` (seat {seat}) chose an illegal action: {exc}") from None
            decisions += 1
        else:
            result.status = FINISHED
        result.decisions = decisions
    except RuleEvaluationError as exc:
        result.error = printable(exc)
    except (_BotFailure, BotError) as exc:
        result.error = printable(exc)
    if game is not None:
        if result.status == FAILED:
            result.decisions = len(game.history)
        _describe(result, game)
    result.seconds = time.perf_counter() - t0
    return result


class _BotFailure(Exception):
    """A bot raised, or answered with something that is not a legal action."""


def _choose(bot: Any, spec: str, seat: int, game):
    try:
        return bot.choose(game)
    except RuleEvaluationError:
        raise
    except Exception as exc:  # noqa: BLE001 -- a user's bot may raise anything; the run goes on
        raise _BotFailure(f"bot `{spec}` (seat {seat}) raised {type(exc).__name__}: {exc}") from None


def _describe(result: MatchResult, game) -> None:
    """Copy what the summaries need from the game: scores, winner, and each finished hand."""
    result.scores = list(game.scores)
    if result.status == FINISHED:
        result.winner = game.winner
    roles: list[dict] = [{} for _ in range(game.n)]
    for h in game.hand_log:
        result.hands.append([str(h.get("ending")), h.get("scorer"), h.get("points", 0), h.get("declarer")])
        for seat, role in zip(h.get("order", ()), h.get("roles", ())):
            roles[seat][str(role)] = roles[seat].get(str(role), 0) + 1
    result.roles = roles if any(roles) else []
