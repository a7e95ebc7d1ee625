"""Any ruleset as an OpenSpiel game (a Python game registered with ``pyspiel``).

* **Chance** is OpenSpiel's chance player dealing the deck card by card, as OpenSpiel's own card
  games do: each chance outcome is a card kind, as likely as the copies of it not yet placed
  (``EXPLICIT_STOCHASTIC``).  The deck of a deal is chosen before the deal; the deck of the deal after
  it is chosen right after, while nobody has seen anything of it, because the engine deals the next
  hand in the same move that ends the last one.
* **Players' decisions** are the numbers of ``rulesdsl.encoding`` (one per whole action, several for a
  factored card set), so ``num_distinct_actions`` is fixed for a ruleset and player count.
* **Observations** come from ``game.view(seat)``; the information state (perfect recall) is the seat's
  log of the game in words, as a table shows it (cards named only to those who saw them), followed by
  its current observation.
* **Returns**: ``win`` (+1 to the winning side, the rest share -1) or ``score`` (totals minus their
  mean); terminal only (``RewardModel.TERMINAL``).
"""

from __future__ import annotations

from typing import Optional

import pyspiel

from ..encoding.decisions import Decisions, IllegalNumber
from ..encoding.observation import fill, text as observation_text
from ..encoding.setup import Encoding, encode, seat_returns
from ..table.session import HUMAN, Table, after_action, before_action
from ..table.words import result_words

SHORT_NAME = "rulesdsl"

#: the parameters of the ``rulesdsl`` game: ``set`` carries the ruleset's own as ``k=v,k=v``
DEFAULTS = {"ruleset": "gin_rummy", "players": 0, "deals": 0, "returns": "win", "set": "",
            "max_actions": 0}
#: the bounds of the game's own whole-number parameters (0: the ruleset's own players / the whole match)
BOUNDS = {"players": (0, 16), "deals": (0, 10_000), "max_actions": (0, 10_000_000)}
#: OpenSpiel counts a game's length in a C++ int
MAX_GAME_LENGTH = 2 ** 31 - 1


def _game_type(short_name: str, spec: dict, players: tuple) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"rulesdsl ruleset ({short_name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec)


class RulesGame(pyspiel.Game):
    """A ruleset as an OpenSpiel game.  Made by ``pyspiel.load_game`` (see ``rulesdsl.openspiel``)."""

    def __init__(self, params=None, short_name: str = SHORT_NAME, spec: Optional[dict] = None,
                 ruleset=None, players: tuple = (2, 10)):
        spec = dict(spec or DEFAULTS)
        params = {**spec, **dict(params or {})}
        self.encoding = _encoding_from(params, ruleset, spec)
        self._check_length()
        enc = self.encoding
        n = enc.players
        side = n // enc.prog.teams if enc.prog.teams else 1          # seats on one side
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.actions.size,
            max_chance_outcomes=enc.prog.cards.n_kinds,
            num_players=n,
            min_utility=-side / (n - side) if enc.returns == "win" else -1e6,
            max_utility=1.0 if enc.returns == "win" else 1e6,
            utility_sum=0.0,
            max_game_length=self.max_length())
        super().__init__(_game_type(short_name, spec, players), info, params)

    def max_length(self) -> int:
        """Player decisions in all: each engine action takes at most one decision per card token
        (and one per meld of a go-out) plus its commit."""
        enc = self.encoding
        per_action = 2 + enc.prog.cards.size
        return enc.max_actions * per_action

    def _check_length(self) -> None:
        if self.max_length() > MAX_GAME_LENGTH:
            raise ValueError(f"a game of {self.encoding.max_actions:,} actions (deals, max_actions) may take "
                             f"{self.max_length():,} decisions, more than OpenSpiel counts "
                             f"({MAX_GAME_LENGTH:,}); ask for fewer deals, or a smaller max_actions")

    def new_initial_state(self):
        return RulesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RulesObserver(self.encoding, iig_obs_type, params)


def _encoding_from(params: dict, ruleset, spec: dict) -> Encoding:
    """The encoding ``params`` ask for: the ruleset's own parameters where they differ from its
    defaults (so a record names only what was changed), and ``set``'s pairs."""
    overrides = {}
    for name, value in params.items():
        if name not in DEFAULTS and spec.get(name) != value:
            overrides[name] = value
    check_bounds(params)
    if params.get("returns", "win") not in ("win", "score"):
        raise ValueError(f"the parameter `returns` is win or score, not {params.get('returns')!r:.40}")
    for item in filter(None, (p.strip() for p in str(params.get("set", "")).split(","))):
        key, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"`set` takes k=v pairs separated by commas, not {item!r}")
        overrides[key.strip()] = _value(value.strip())
    return encode(ruleset if ruleset is not None else params["ruleset"], params.get("players") or None,
                  overrides, int(params.get("deals", 0)), str(params.get("returns", "win")),
                  int(params.get("max_actions", 0)))


def check_bounds(params: dict) -> None:
    """The game's own whole-number parameters within ``BOUNDS`` (a ``ValueError`` naming the one outside)."""
    for name, (lo, hi) in BOUNDS.items():
        value = params.get(name, 0)
        if type(value) is not int or not lo <= value <= hi:
            raise ValueError(f"the parameter `{name}` must be a whole number from {lo} to {hi:,}, not {value!r:.40}")


def _value(text: str):
    """A ``set`` value read as a YAML scalar, as ``--set`` reads one: 5, true, a word."""
    from ..errors import RulesetError
    from ..source.yaml_reader import read_yaml
    try:
        return read_yaml(text or "null", "set").plain()
    except RulesetError as exc:
        if any(d.code == "E-NUMBER" for d in exc.diagnostics):
            raise                          # a number past the bound, not a word (as `--set` reads it)
        return text                        # anything else that is not a scalar stays text


class RulesState(pyspiel.State):
    """A position: the deck being chosen by chance, or the engine's game and the player's selection."""

    def __init__(self, game: RulesGame):
        super().__init__(game)
        self._enc = game.encoding
        self._deck: list = []              # the card kinds chosen so far for the deck being dealt
        self._d: Optional[Decisions] = None
        self._queued_for = 0               # the hand whose next deal's deck is already stacked
        self._cut = False                  # cut short: the deals asked for are played, or the bound hit
        self._actions = 0
        self._log: Optional[Story] = None  # what each seat saw of each action, once a story is asked

    # -- whose move -------------------------------------------------------------------------------
    def current_player(self):
        if self._is_over():
            return pyspiel.PlayerId.TERMINAL
        if self._needs_deck():
            return pyspiel.PlayerId.CHANCE
        return self._d.current_player

    def _needs_deck(self) -> bool:
        d = self._d
        if d is None:
            return True
        deals = self._enc.deals
        hand = d.game.hand_number
        return self._queued_for != hand and not (deals and hand >= deals)

    def _is_over(self) -> bool:
        d = self._d
        return d is not None and (d.game.is_over or self._cut)

    def is_terminal(self):
        return self._is_over()

    # -- chance -------------------------------------------------------------------------------------
    def chance_outcomes(self):
        """The next card of the deck being chosen: each card kind still left, as likely as the copies of
        it that are left (duplicate decks and jokers make kinds of several copies)."""
        if not self.is_chance_node():
            raise ValueError("chance_outcomes() is asked where chance does not move: "
                             + ("the game is over" if self.is_terminal() else f"player {self.current_player()} is to move"))
        return self._outcomes()

    def _outcomes(self) -> list:
        left = self._left()
        total = sum(left)
        return [(k, c / total) for k, c in enumerate(left) if c]

    def _left(self) -> list:
        """Copies of each card kind not yet placed in the deck being chosen."""
        left = list(self._enc.copies)
        for k in self._deck:
            left[k] -= 1
        return left

    def _legal_actions(self, player):
        if player == pyspiel.PlayerId.CHANCE:
            return [c for c, _ in self._outcomes()]
        return self._d.legal()

    # -- moves --------------------------------------------------------------------------------------
    def _apply_action(self, action):
        if self.is_chance_node():
            self._deal_card(action)
            return
        d = self._d
        log = self._log
        pending = None
        if log is not None:
            done = d.completing(int(action))
            pending = None if done is None else before_action(d.game, str(done))
        if d.apply(int(action)) is not None:
            self._actions += 1
            self._check_cut()
            if pending is not None:
                log.append(after_action(d.game, pending))

    def _deal_card(self, card: int) -> None:
        kinds = self._enc.prog.cards.kind_text
        if not (0 <= card < len(kinds) and self._left()[card] > 0):
            shown = f"{card} ({kinds[card]}, every copy already dealt)" if 0 <= card < len(kinds) else \
                f"{card} (no card kind: chance outcomes are 0 to {len(kinds) - 1})"
            raise IllegalNumber(f"chance outcome {shown} is not a legal chance outcome here", "action number")
        self._deck.append(int(card))
        if len(self._deck) < self._enc.prog.cards.size:
            return
        deck = self._deck                  # card kinds, top card first: a stacked deck
        self._deck = []
        if self._d is None:
            game = self._enc.rules.new_game(seed=0, dealer=0, players=self._enc.players, deck=deck)
            self._d = Decisions(game, self._enc.actions)
        else:
            self._d.game.stack_next(deck)
            self._queued_for = self._d.game.hand_number

    def _check_cut(self) -> None:
        """End the game here when the deals asked for are played or the action bound is reached."""
        game = self._d.game
        deals = self._enc.deals
        if not game.is_over and ((deals and game.hand_number > deals) or self._actions >= self._enc.max_actions):
            self._cut = True

    def _action_to_string(self, player, action):
        chance = player == pyspiel.PlayerId.CHANCE
        names = self._enc.prog.cards.kind_text if chance else self._enc.actions.names
        if not 0 <= action < len(names):
            raise ValueError(f"no {'chance outcome' if chance else 'action'} numbered {action}: they are 0 to "
                             f"{len(names) - 1}")
        return f"deal {names[action]}" if chance else self._enc.actions.describe(int(action))

    # -- results ------------------------------------------------------------------------------------
    def returns(self):
        if not self._is_over():
            return [0.0] * self._enc.players
        return seat_returns(self._enc, self._d.game, self._cut)

    def __str__(self):
        if self._d is None:
            return f"dealing: {len(self._deck)} cards placed"
        game = self._d.game
        return (f"hand {game.hand_number}, scores {game.scores}, "
                f"to move {game.current_player}, history {len(game.history)} actions")

    # -- what a seat knows ---------------------------------------------------------------------------
    def view(self, seat: int) -> Optional[dict]:
        return None if self._d is None else self._d.game.view(seat)

    def _position(self, seat: int) -> tuple:
        """What identifies this state's position as ``seat`` observes it, for a state that only moves
        forward: the actions made, the selection, the cards dealt by chance."""
        d = self._d
        return (seat, len(self._deck), -1 if d is None else len(d.game.history), () if d is None else d.selection)

    def selection(self, seat: int) -> list:
        d = self._d
        return d.selected_cards() if d is not None and d.current_player == seat else []

    def story(self, seat: int) -> str:
        """The seat's log of the whole game in words, cards named only where it saw them."""
        if self._d is None:
            return ""
        game = self._d.game
        if self._log is None:                 # asked for the first time: learnt once by a replay
            self._log = Story(Table.load(game.record(), rules=self._enc.rules).events)
        return self._log.text(game, seat)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: its hidden cards dealt again
        (``Game.determinize``), and the next deal's deck, which nobody has seen, shuffled again."""
        import random
        if self._d is None:
            return self.clone()
        self.story(player_id)                 # the story is told from the real game's record
        clone = self.clone()
        seed = int(probability_sampler() * 2 ** 62) if callable(probability_sampler) else 0
        rng = random.Random(seed)
        game = self._d.game.determinize(player_id, rng)
        game._stacks = []
        if self._queued_for == game.hand_number:
            deck = [k for k, copies in enumerate(self._enc.copies) for _ in range(copies)]
            rng.shuffle(deck)
            game.stack_next(deck)
        d = Decisions(game, self._enc.actions)
        d.selection = self._d.selection
        clone._d = d
        return clone


class Story:
    """The table events of a game, and per seat the text told of them so far, grown as the game goes
    on: an information state is asked for at every position, and telling the whole game each time
    would cost the length of the game every time.  A copy of the state shares the events (they never
    change) and the sentences told of them, but not the list."""

    def __init__(self, events=(), said: Optional[dict] = None):
        self.events = list(events)
        self.said = {} if said is None else said     # (event, reader) -> sentence, shared by all copies
        self.told: dict = {}                          # seat -> (events told, their last hand, text)

    def append(self, event) -> None:
        self.events.append(event)

    def __deepcopy__(self, memo) -> "Story":
        copy = Story(self.events, self.said)
        copy.told = dict(self.told)
        return copy

    def __reduce__(self):
        return (Story, (self.events,))

    def text(self, game, seat: int) -> str:
        """The seat's story in words, each hand's result after its last action."""
        done, hand, text = self.told.get(seat, (0, None, ""))
        table = Table(game, [HUMAN] * game.n)
        table._said = self.said
        name = (lambda s: table.name(s, seat))
        teams = [game.members(t) for t in range(game.teams)] if game.teams else None
        results = {e.get("hand"): e for e in game.hand_log}
        parts = [text] if text else []
        for event in self.events[done:]:
            if hand is not None and event.hand != hand and hand in results:
                parts.append(result_words(results[hand], name, teams))
            hand = event.hand
            key = (event, seat)
            line = self.said.get(key)
            if line is None:
                line = self.said[key] = table.describe(event, seat)
            parts.append(line)
        text = "\n".join(parts)
        self.told[seat] = (len(self.events), hand, text)
        if hand in results:                  # the last hand told is over: its result closes the story
            return text + "\n" + result_words(results[hand], name, teams)
        return text


class RulesObserver:
    """OpenSpiel's observer interface: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, encoding: Encoding, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self._enc = encoding
        self._recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = encoding.observation.new_tensor()
        self.dict = encoding.observation.views(self.tensor)
        self._last_state: Optional[RulesState] = None
        self._last_key: tuple = ()

    def set_from(self, state: RulesState, player: int) -> None:
        key = state._position(player)
        if state is self._last_state and key == self._last_key:
            return                           # OpenSpiel asks twice for one tensor: fill it once
        view = state.view(player)
        if view is None:
            self.tensor.fill(0)
        else:
            fill(self._enc.observation, self.tensor, view, state.selection(player), self.dict)
        self._last_state, self._last_key = state, key    # held, so its id cannot be reused meanwhile

    def string_from(self, state: RulesState, player: int) -> str:
        view = state.view(player)
        if view is None:
            return "dealing"
        now = observation_text(view, state.selection(player))
        if not self._recall:
            return now
        story = state.story(player)
        return f"{story}\n{now}" if story else now


__all__ = ["RulesGame", "RulesState", "RulesObserver", "SHORT_NAME", "DEFAULTS"]
