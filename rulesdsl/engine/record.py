"""Game records: a game as JSON-ready data, and the game rebuilt from it.

A record holds what determines a game and nothing else: the ruleset (as ``load`` was asked for it,
with its overrides, and its ``digest``), the number of players, the seed, the dealer as asked, the
stacked decks (those given at the start, and each later ``stack_next`` with the number of actions made
before it) and the text of every action.  Replaying applies the same actions to a new game made the
same way, so the result is the same game in the same position, random state included: this is how a
game is saved and resumed, and how a finished one is replayed.

Records travel (a saved file, a server's store), so reading one is strict: every field is checked
for its type before use, a record made under other rules (another digest) is refused, and an action
that does not replay stops with a ``RecordError`` naming it.  The ruleset a record names is loaded
by ``load``'s own rules (a bundled name, or a file path); a server replaying records it did not write
passes the rules it serves instead (``rules.replay(record)``), so a record cannot make it read a file.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Sequence, Union

from ..errors import RulesdslError, excerpt

FORMAT = "rulesdsl-record/1"


class RecordError(RulesdslError, ValueError):
    """A record that cannot be replayed: malformed, made under other rules, or an action that fails."""


def make_record(game) -> dict:
    if game.determinized_for is not None:
        raise ValueError("a determinized game has no record: its hidden cards were dealt again, so its "
                         "seed and actions no longer make it")
    if type(game.seed) not in (int, str):
        raise ValueError(f"a game seeded with a {type(game.seed).__name__} cannot be recorded: "
                         "seed it with a whole number or a text")
    name, overrides = game.source if game.source is not None else (None, {})
    dealer, decks = game._setup
    return {
        "format": FORMAT,
        "ruleset": name,
        "overrides": dict(overrides),
        "digest": game.digest,
        "players": game.n,
        "seed": game.seed,
        "dealer": dealer,
        "decks": [list(d) for d in decks],
        "stacks": [{"before": i, "deck": list(d)} for i, d in game._stack_log],
        "actions": list(game.history),
    }


def replay(record: Mapping[str, Any], rules=None, allow_paths: Sequence[Union[str, Any]] = (),
           apply: Optional[Callable[[Any, str], None]] = None):
    """The game ``record`` describes.  Without ``rules``, the ruleset is loaded as the record names
    it (``load(name, overrides=...)``); either way its digest must match the record's.  ``apply(game,
    text)``, when given, carries out each action instead of ``game.apply(text)`` (a table logs them)."""
    _check(record)
    if rules is None:
        from ..rules import load
        if record["ruleset"] is None:
            raise RecordError("the record names no ruleset (the game was not made by Rules.new_game): "
                              "pass the rules, rulesdsl.replay(record, rules)")
        rules = load(record["ruleset"], overrides=record["overrides"], allow_paths=allow_paths)
    return replay_with(rules, record, apply)


def replay_with(rules, record: Mapping[str, Any], apply: Optional[Callable[[Any, str], None]] = None):
    _check(record)
    if rules.digest != record["digest"]:
        raise RecordError(f"the record was made under other rules (digest {excerpt(record['digest'], 24)}; "
                          f"these rules are {rules.digest})")
    try:
        game = rules.new_game(seed=record["seed"], dealer=record["dealer"], players=record["players"],
                              decks=record["decks"] or None)
    except ValueError as exc:
        raise RecordError(f"the record's setup does not make a game: {exc}") from None
    stacks = sorted(((s["before"], s["deck"]) for s in record["stacks"]), key=lambda x: x[0])
    pending = 0
    for i, text in enumerate(record["actions"]):
        while pending < len(stacks) and stacks[pending][0] <= i:
            _stack(game, stacks[pending][1])
            pending += 1
        try:
            if apply is None:
                game.apply(text)
            else:
                apply(game, text)
        except RulesdslError as exc:
            raise RecordError(f"action {i + 1} of the record, `{excerpt(text, 40)}`, does not replay: {exc}") from None
    for _, deck in stacks[pending:]:
        _stack(game, deck)
    return game


def _stack(game, deck) -> None:
    try:
        game.stack_next(deck)
    except ValueError as exc:
        raise RecordError(f"a stacked deck of the record: {exc}") from None


def _check(record: Any) -> None:
    """Every field of a record, by type, before anything is used."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a mapping (JSON object), not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a rulesdsl record (format {excerpt(record.get('format'), 30)}; expected {FORMAT})")
    want = {"ruleset": (str, type(None)), "overrides": dict, "digest": str, "players": int,
            "seed": (int, str), "dealer": (int, type(None)), "decks": list, "stacks": list, "actions": list}
    for key, kinds in want.items():
        if key not in record:
            raise RecordError(f"the record has no `{key}`")
        value = record[key]
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise RecordError(f"the record's `{key}` is a {type(value).__name__}")
    if not all(isinstance(a, str) for a in record["actions"]):
        raise RecordError("the record's actions must be texts")
    if not all(isinstance(d, list) and all(isinstance(c, str) for c in d) for d in record["decks"]):
        raise RecordError("the record's decks must be lists of card texts")
    for s in record["stacks"]:
        if not (isinstance(s, Mapping) and type(s.get("before")) is int and s["before"] >= 0
                and isinstance(s.get("deck"), list) and all(isinstance(c, str) for c in s["deck"])):
            raise RecordError("each of the record's stacks is {before: a count of actions, deck: card texts}")
