"""What a mechanic is: one piece of the language's vocabulary, declared in one place.

A mechanic (trick play, an auction, ...) owns a top-level section of a ruleset and everything that
section means, through the pipeline:

* **model**: ``section`` (its schema: a ``Field`` whose ``Struct`` builds the section's frozen
  dataclass, with defaults and docs; the JSON Schema, the editors' hover and the diff follow from it)
  and ``summary`` (one line for readers);
* **check**: ``requires`` (the sections it cannot work without, and why), ``check`` (its load
  checks, as located diagnostics) and ``counts`` (numbers of cards its rules give, checked at load);
* **expressions**: ``names`` and ``builtins`` (what rules may read while it is in the ruleset),
  ``seat_members`` (what every seat has: ``player.NAME``),
  ``dormant`` (the names it would give: a rule reading one in a ruleset without the section gets
  "needs a `NAME:` section"), ``closed_sets`` (the texts a name can ever give, so a comparison with
  another text is refused at load) and ``endings`` (the names a hand's ending can have under it);
* **compile**: ``compile`` (the section's compiled form, which play reads as ``prog.KEY``);
* **engine**: ``phases`` (its run-time phases, ``engine.phases.base.Phase`` objects, by name; each
  keeps its state on the game and shows itself in ``view``), ``hooks`` (what it does whatever phase
  is playing: when a game starts, a deal, trick or turn begins, an action is about to be made), ``flow`` and ``stage`` (the phases a
  hand enters, and where they come after the deal and the exchange: lower first) and ``state`` (the game attributes its phases
  keep, declared so that clone, record and determinize stay exact: see ``engine.state``);
* **encoding**: ``observation`` and ``observe`` (its pieces of the observation tensor);
* **actions**: ``verbs`` (new action words, ``Verb``) and ``action_texts`` (every action text it can
  ever offer, for the encoding's fixed numbering);
* **words**: ``rulebook`` (its part of ``rulesdsl rulebook``), ``phrases`` (its names as words in a
  rule) and ``result_words`` (what the table's log says of a finished hand);
* **bots**: ``greedy`` (how the greedy bot plays its phases, if it needs telling);
* **card play**: ``plays_cards`` (it is how the hand's cards are played, instead of turn steps: at
  most one such section per ruleset), ``play_from`` (the per-player zone it plays from), ``sheds``
  (the hand is a race to play one's cards out) and ``reads_wild`` (its plays use the wild cards);
* **state copies**: ``copy_types`` (the types of the values its state holds that ``clone`` must know);
* **diff**: ``nouns`` and ``ordered`` (how ``rulesdsl diff`` names and compares its lists).

The core (loader, checker, compiler, engine) iterates over the registered mechanics
(``mechanics.registry``) and names none of them.  A hook a mechanic does not need keeps its default,
which does nothing.  ``origin`` is set by the registry: the package a mechanic came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..model.schema import Field

#: the kinds of state a mechanic may keep (``Mechanic.state``), as ``engine.state`` groups them: a
#: card id or None, collections of card ids, name -> {card: seat}, name -> card, public cards, plain
#: values (no card ids), and caches computed from the rest (a list or dict emptied when cards are
#: renamed: the phase makes it again)
STATE_KINDS = ("card", "cards", "card_keyed", "card_valued", "public_cards", "plain", "derived")


@dataclass(frozen=True)
class Verb:
    """An action word a mechanic adds to the notation (``Mechanic.verbs``).

    ``takes`` is what follows it: ``"nothing"``, or ``"word"``, one number or name (``bid 4``,
    ``bid nil``: a number is kept as written without leading zeros, a name in lower case; the action
    holds it as its ``zone``).  ``example`` is how it is written, for messages; ``says`` is how the
    table's log tells it, in the third person and the second (``{zone}`` stands for the word)."""

    takes: str
    example: str
    says: tuple = ("{verb}s", "{verb}")


class Mechanic:
    """One mechanic.  Subclass it, set ``key``, ``summary`` and ``section``, and override the hooks
    the mechanic needs; register it in ``mechanics.registry.BUILTIN`` or, from another package, under
    the ``rulesdsl.mechanics`` entry point group."""

    #: the top-level key of the ruleset this mechanic reads (``tricks``): a lowercase word
    key: str = ""
    #: one line: what the section makes the game do (hover, the schema, docs)
    summary: str = ""
    #: the section's schema
    section: Optional[Field] = None
    #: section key -> why this one needs it (checked before ``check`` runs)
    requires: dict = {}
    #: whether the section is the hand's card play (instead of turn steps)
    plays_cards: bool = False
    #: the phases (names ``phases`` gives) a hand goes through, in order, once dealt; a phase whose
    #: ``applies(g)`` is false is passed over
    flow: tuple = ()
    #: its phases that get a slot of their own in the observation's one-hot `phase` (else "other")
    observed_phases: tuple = ()
    #: list key -> the noun `rulesdsl diff` calls one item of it (`exchange` -> "exchange"); a key
    #: under the section names a list or mapping inside it (`plays` -> "play")
    nouns: dict = {}
    #: keys of mappings in the section whose order counts (`plays`, weakest first): `diff` reports a
    #: reordering as a change
    ordered: tuple = ()
    #: whether the hand is a race to play one's cards out (climbing, shedding): the cards a side still
    #: holds are then the measure of a cut-off position, and a search plays a deal out to its end
    sheds: bool = False
    #: whether a deal ends with the players ranked in the order they finished (what `roles` names)
    ranks_finishers: bool = False
    #: where those phases come in a hand: lower first (an auction before the card play)
    stage: int = 100
    #: game attribute -> what kind of value it holds (one of ``STATE_KINDS``; see ``engine.state``)
    state: dict = {}
    #: action words this mechanic's phases offer that the notation does not have (``Verb``)
    verbs: dict = {}
    #: how the rulebook reads its names in a rule (``rulebook.words``): ``{"names": {name: noun},
    #: "members": {(base, member): noun}, "conditions": {name: (when it holds, when it does not)},
    #: "own": {builtin: noun}, "bases": {name: words}}`` (``own``: a one-argument builtin read "ARG's
    #: noun"; ``bases``: a name whose members the ruleset names, ``counters.NAME`` read "words `NAME`")
    phrases: dict = {}
    #: the package the mechanic came from (set when it is registered)
    origin: str = "rulesdsl"

    # ------------------------------------------------------------------ model
    def endings(self, section) -> tuple:
        """Names the hand's ending can have under this section (the engine's own words, `tricks`)."""
        return ()

    def play_from(self, section) -> Optional[str]:
        """The per-player zone this section plays cards from (for ``plays_cards`` mechanics)."""
        return None

    def reads_wild(self, section) -> bool:
        """Whether the section's rules use the ruleset's wild cards (so `wild:` is not ignored)."""
        return False

    def copy_types(self) -> tuple:
        """``(immutable types, types copied field by field)`` of values this mechanic's state holds
        beside plain values, lists, dicts and sets: ``Game.clone`` keeps the first as they are and
        copies each ``__slots__`` field of the second (their fields never change in place)."""
        return (), ()

    # ------------------------------------------------------------------ check
    def check(self, model, section, diags) -> None:
        """Load checks of the section (its zones exist, its names are real): errors go to ``diags``."""

    def counts(self, model, section) -> list:
        """Numbers of cards the section's rules give, checked at load for every player count (where the
        parameters fix them): ``[(expression, least, what, why)]`` -- `E-COUNT` when one gives anything
        but a whole number >= least."""
        return []

    # ------------------------------------------------------------------ expressions
    def names(self, section) -> dict:
        """``expr.compiler.Binding`` objects by name, for rules to read while the section is present."""
        return {}

    def builtins(self, section, holder: dict) -> dict:
        """``expr.compiler.Builtin`` functions by name.  ``holder`` is filled while compiling: a
        builtin that reads compiled tables reads them from there."""
        return {}

    def dormant(self) -> tuple:
        """The names and builtins this mechanic gives when present (what a rule reads in vain without
        the section): by default those ``names`` and ``builtins`` give with no section."""
        return tuple(self.names(None)) + tuple(self.builtins(None, {}))

    def closed_sets(self, model, section, cards) -> dict:
        """Name, member or call (``trick.led``, ``card_suit()``) -> every text it can ever give."""
        return {}

    def seat_members(self, section) -> dict:
        """Members every seat gets in rules (``player.NAME``, ``partner(player).NAME``): name ->
        ``fn(game, seat)``."""
        return {}

    # ------------------------------------------------------------------ compile
    def compile(self, section, ctx) -> Any:
        """The compiled section (``prog.KEY``), or None after recording a problem in ``ctx.diags``.
        ``ctx`` is a ``compile.program.MechanicContext``."""
        return section

    # ------------------------------------------------------------------ actions
    def action_texts(self, prog) -> list:
        """Every action (as text) this mechanic's phases can offer under ``prog`` that the notation's
        own verbs do not cover: the encoding numbers each once, so the list must not depend on the
        position."""
        return []

    # ------------------------------------------------------------------ encoding
    def observation(self, prog, layout) -> Any:
        """Add this mechanic's pieces to the observation tensor's layout (``layout.cards(name,
        shape)``: card counts; ``layout.flags``: 0 or 1; ``layout.add(name, shape, low, high)``;
        ``layout.n`` seats, ``layout.k`` card kinds).  Returns what ``observe`` needs (None: the
        mechanic adds nothing and ``observe`` is not called)."""
        return None

    def observe(self, data, spec, pieces: dict, view: dict, seat: int, count) -> None:
        """Write what ``view`` (``game.view(seat)``) shows of this mechanic into ``pieces`` (piece name
        -> its array); seats relative to ``seat``.  ``count(spec, row, texts)`` adds one per card."""

    # ------------------------------------------------------------------ words
    def rulebook(self, ctx, part: str) -> list:
        """The rulebook's blocks for this section (``rulebook.document`` Sections and Paras) in one of its
        parts: ``"deal"`` (after the deal steps), ``"play"`` (in "A turn") or ``"scoring"`` (at the end of
        "Scoring"); ``ctx`` is a
        ``rulebook.context.Context`` (``ctx.value(expr)``, ``ctx.when(cond)``, ``ctx.on``/``ctx.off``:
        what the parameters make of a rule)."""
        return []

    def result_words(self, entry: dict, name) -> str:
        """What the table's log adds, as sentences, to a finished hand's ``hand_log`` entry (the keys
        this mechanic's phases recorded with ``finish_hand``); ``name(seat)`` names a seat."""
        return ""

    # ------------------------------------------------------------------ bots
    def greedy(self) -> Optional[Any]:
        """How the greedy bot acts in this mechanic's phases (those in ``flow``): a function
        ``(bot, game, actions) -> action`` (``bot.rng`` for ties, ``bot.score_now(copy, seat)`` for
        the seat's score as the ruleset counts it), or None: the bot's one-move look-ahead."""
        return None

    # ------------------------------------------------------------------ engine
    def phases(self, prog) -> dict:
        """Phase name -> ``engine.phases.base.Phase`` for this program (the section is present)."""
        return {}

    def hooks(self, compiled) -> dict:
        """What the engine calls as play goes, whatever phase is playing, for a ruleset with this
        section (``compiled``: what ``compile`` made of it), by event:

        * ``"start"``: ``fn(game)`` once, when a game is made (before the first deal);
        * ``"begins"``: ``fn(game, scope, seat)`` when a ``"deal"``, a ``"trick"`` or a seat's ``"turn"``
          begins (``seat`` None: every seat's);
        * ``"action"``: ``fn(game, action)`` just before an action is made, judged in the position it is
          made from, with ``card`` the card it moves (when one), ``event.size`` and ``event.meld_owner``
          on the game and, in a phase that binds more (climbing: ``play.*``), that too.

        Each may change only the state the mechanic declares (``state``); raising
        ``RuleEvaluationError`` stops the game at the rule, as any rule does."""
        return {}

    def __repr__(self) -> str:
        return f"<mechanic {self.key} from {self.origin}>"
