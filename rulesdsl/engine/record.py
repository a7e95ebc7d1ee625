"""Game records: a game as JSON-ready data, and the game rebuilt from it.

A record holds what determines a game and nothing else: the ruleset (as ``load`` was asked for it,
with its overrides, and its ``digest``), the number of players, the seed, the dealer as asked, the
stacked decks (those given at the start, and each later ``stack_next`` with the number of actions made
before it) and the text of every action.  Replaying applies the same actions to a new game made the
same way, so the result is the same game in the same position, random state included: this is how a
game is saved and resumed, and how a finished one is replayed.

Records travel (a saved file, a server's store), so reading one is strict: every field is checked
for its type before use, a record made under other rules (another digest) is refused, and an action
that does not replay stops with a ``RecordError`` naming it.  This module replays a record under the
rules it is given (``replay_with``); ``rulesdsl.replay`` (in ``rules``, the loader's layer) loads the
ruleset a record names by ``load``'s own rules first (a bundled name, or a file path).  A server
replaying records it did not write passes the rules it serves instead (``rules.replay(record)``), so
a record cannot make it read a file.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Optional

from ..errors import RulesdslError, excerpt

FORMAT = "rulesdsl-record/1"
#: the fields of a record, each checked for its type before use
FIELDS = ("format", "ruleset", "overrides", "digest", "players", "seed", "dealer", "decks", "stacks", "actions")
#: a field a face adds and checks itself: ``table``, who sat where (``rulesdsl.table``, a saved game)
FACE_FIELDS = ("table",)
#: most actions a record may hold (fifty deals of 2,000 actions: the encoding's own bound on a match)
MAX_ACTIONS = 100_000
#: longest text in a record (an action, a card, a seed, the ruleset's name; the engine reads at most
#: 1,000 characters of an action)
MAX_TEXT = 4096
#: largest record file read (``read_record_file``)
MAX_FILE_BYTES = 20_000_000


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


def replay_with(rules, record: Mapping[str, Any], apply: Optional[Callable[[Any, str], None]] = None):
    """The game ``record`` describes, played under ``rules`` (its digest must match the record's)."""
    check_record(record)
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


class Positions:
    """Every position of a record (the game after its first ``k`` actions), rebuilt on demand from kept
    copies: one every ``every`` actions, and at most ``most_kept`` of them (``every`` grows to fit), so
    a position costs at most ``every`` actions and a long record a bounded number of copies.

    A deck the record stacks before action ``i`` is stacked when position ``i`` is passed, as the game
    it records did (never all at the start: a deck stacked in the middle of a hand is for the hand after
    it).  Safe to call from several threads (the kept copies are only read, and added whole).  ``rules``
    are those the record is replayed under (``rulesdsl.rules.rules_for`` loads the ones it names)."""

    def __init__(self, record: Mapping[str, Any], rules, every: int = 32, most_kept: Optional[int] = None):
        check_record(record)
        self.actions = list(record["actions"])
        self._stacks: dict = {}
        for s in sorted(record["stacks"], key=lambda s: s["before"]):
            self._stacks.setdefault(s["before"], []).append(s["deck"])
        start = replay_with(rules, dict(record, actions=[], stacks=[]))
        self._stack_at(start, 0)
        n = len(self.actions)
        self.every = every if most_kept is None else max(every, -(-n // most_kept))
        self.kept = {0: start}

    def __len__(self) -> int:
        return len(self.actions) + 1

    def at(self, k: int, earliest: Optional[int] = None,
           apply: Optional[Callable[[Any, str], None]] = None):
        """The game after the first ``k`` actions (a copy of its own).  ``earliest``: start from a kept
        copy at or before it (so ``apply(game, text)``, when given, carries out at least the actions
        from there: a table that logs them)."""
        if not 0 <= k <= len(self.actions):
            raise IndexError(f"position {k} of a record of {len(self.actions)} actions")
        limit = k if earliest is None else max(0, min(k, earliest))
        base = max(m for m in list(self.kept) if m <= limit)
        game = self.kept[base].clone()
        for i in range(base, k):
            text = self.actions[i]
            try:
                game.apply(text) if apply is None else apply(game, text)
            except RulesdslError as exc:
                raise RecordError(f"action {i + 1} of the record, `{excerpt(text, 40)}`, does not replay: {exc}") from None
            self._stack_at(game, i + 1)
            if (i + 1) % self.every == 0 and i + 1 not in self.kept:
                self.kept[i + 1] = game.clone()
        return game

    def _stack_at(self, game, i: int) -> None:
        for deck in self._stacks.get(i, ()):
            _stack(game, deck)


def _stack(game, deck) -> None:
    try:
        game.stack_next(deck)
    except ValueError as exc:
        raise RecordError(f"a stacked deck of the record: {exc}") from None


def checked(record: Any, max_actions: int = MAX_ACTIONS) -> dict:
    """A copy of ``record`` holding only what was checked (``_check``): for a server that keeps records
    it did not write, so nothing unread is kept."""
    check_record(record, max_actions)
    out = {k: record[k] for k in FIELDS}
    out["overrides"] = dict(record["overrides"])
    out["decks"] = [list(d) for d in record["decks"]]
    out["stacks"] = [{"before": s["before"], "deck": list(s["deck"])} for s in record["stacks"]]
    out["actions"] = list(record["actions"])
    return out


def read_record_file(path) -> Any:
    """The JSON a record file holds (any JSON: ``replay`` checks it): a file too large, not UTF-8, not
    JSON, or nested past what the parser follows is a ``RecordError`` saying so, never a crash."""
    import json

    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read it: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise RecordError(f"it is larger than a record can be ({MAX_FILE_BYTES:,} bytes)")
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError("it is not a saved game (not UTF-8 text)") from None
    except ValueError as exc:
        raise RecordError(f"it is not a saved game (not JSON: {exc})") from None
    except RecursionError:
        raise RecordError("it is not a saved game (JSON nested too deeply)") from None


def check_record(record: Any, max_actions: int = MAX_ACTIONS) -> None:
    """Every field of a record, by type and size, before anything is used; no field a record has not."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a mapping (JSON object), not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a rulesdsl record (format {excerpt(record.get('format'), 30)}; expected {FORMAT})")
    unknown = [k for k in record if k not in FIELDS and k not in FACE_FIELDS]
    if unknown:
        raise RecordError(f"the record has a field no record has: `{excerpt(unknown[0], 30)}` (a record holds "
                          f"{', '.join(FIELDS)}; a saved game also `table`)")
    want = {"ruleset": (str, type(None)), "overrides": dict, "digest": str, "players": int,
            "seed": (int, str), "dealer": (int, type(None)), "decks": list, "stacks": list, "actions": list}
    for key, kinds in want.items():
        if key not in record:
            raise RecordError(f"the record has no `{key}`")
        value = record[key]
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise RecordError(f"the record's `{key}` is a {type(value).__name__}")
    actions, decks, stacks = record["actions"], record["decks"], record["stacks"]
    if len(actions) > max_actions:
        raise RecordError(f"the record holds {len(actions):,} actions; at most {max_actions:,} are replayed")
    if not all(type(a) is str and len(a) <= MAX_TEXT for a in actions):
        raise RecordError(f"the record's actions must be texts (of at most {MAX_TEXT:,} characters)")
    if len(decks) > MAX_DECKS or not all(_cards(d) for d in decks):
        raise RecordError(f"the record's decks must be at most {MAX_DECKS} lists of card texts")
    if len(stacks) > MAX_DECKS:
        raise RecordError(f"the record stacks more than {MAX_DECKS:,} decks")
    for s in stacks:
        if not (isinstance(s, Mapping) and set(s) == {"before", "deck"} and type(s["before"]) is int
                and 0 <= s["before"] <= len(actions) and _cards(s["deck"])):
            raise RecordError("each of the record's stacks is {before: a count of actions, deck: card texts}")
    for key in ("ruleset", "digest", "seed"):
        if type(record[key]) is str and len(record[key]) > MAX_TEXT:
            raise RecordError(f"the record's `{key}` is longer than {MAX_TEXT:,} characters")
    if type(record["seed"]) is int and record["seed"].bit_length() > 1024:
        raise RecordError("the record's seed is a number of more than 1,024 bits")
    if not 1 <= record["players"] <= 64:
        raise RecordError(f"the record's `players` is {record['players']}; a game has 1 to 64")


#: most decks a record stacks at the start (one per deal)
MAX_DECKS = 10_000
#: most cards in one stacked deck (16 copies of a deck of 54, and room to spare)
MAX_DECK_CARDS = 2_000


def _cards(deck: Any) -> bool:
    return (isinstance(deck, list) and len(deck) <= MAX_DECK_CARDS
            and all(type(c) is str and len(c) <= MAX_TEXT for c in deck))
