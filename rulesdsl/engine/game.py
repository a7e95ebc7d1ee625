"""The game state machine: a seeded match played under a compiled ruleset.

``legal_actions()`` lists what the player on turn may do; ``apply()`` checks an action against that
list *before* changing anything (so an illegal action leaves the state exactly as it was) and then
carries it out.  All chance comes from one ``random.Random(seed)``, so seed + ruleset + actions replay
the same game.

This module is the core: seats and turn order, zones, the deal, the hand and match lifecycle, scoring
and views.  What players *do* lives in phase objects (``engine.phases``), one per family of mechanics:
drawing and discarding, going out and laying off, climbing and tricks, the card exchange.  The core
asks the current phase for legal actions and hands it the chosen one.
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Optional, Sequence, Union

from ..compile.program import Program, rule_at
from ..errors import ECHO_LIMIT, IllegalAction, RuleEvaluationError, RulesdslError, excerpt

#: a rule that fails at run time (a ruleset mixing types, a name read where it has no value) can
#: raise anything; it surfaces as RuleEvaluationError and the game stops there
_EVAL_ERRORS = (Exception,)
from .actions import Action, coerce_action, word_verbs
from .phases import build_phases
from .phases.base import cards_where
from .visibility import player_zone_shown, table_zone_shows, team_zone_shown
from .zones import Cards


#: action -> its text: an action's text is made once, not at every apply (the same actions recur
#: in every game: draw stock, discard 7H); bounded, cleared whole when full
_TEXTS: dict = {}
_TEXTS_LIMIT = 50_000


class Game:
    #: hands in a row that may end before anyone acts (a ruleset whose deal leaves nothing to do)
    MAX_EMPTY_HANDS = 1000

    # ------------------------------------------------------------------ setup
    def __init__(self, prog: Program, seed: Optional[int] = None, dealer: Optional[int] = None,
                 deck: Optional[Sequence[Union[str, int]]] = None, digest: str = "",
                 decks: Optional[Sequence[Sequence[Union[str, int]]]] = None):
        self.prog = prog
        self.n = prog.n
        if seed is None:                           # unpredictable, and kept so that the game can be recorded
            seed = secrets.randbits(64)
        self.seed = seed
        self.digest = digest
        self.source: Optional[tuple] = None        # (ruleset name, overrides) when made by Rules.new_game
        self._rng = random.Random(seed)
        self._rng_shared = False                   # shared with a clone: copied before its next use
        self.env: dict = {}
        self.teams = prog.teams
        sides = self.teams or self.n                # scores are per team where the game has teams
        self.scores = [0] * sides
        self.hands_won = [0] * sides
        self.hand_number = 0
        self.history: list[str] = []
        self.hand_log: list[dict] = []
        self.winner: Optional[int] = None
        self.winners: list[int] = []               # every side sharing the win, once over
        self.is_over = False
        self.broken = ""
        self._direction = 1
        self.order = list(range(self.n))          # turn order; next = order[pos + direction]
        self.previous_order: list[int] = []       # finishing order of the previous deal
        self.final_order: list[int] = []          # finishing order of the deal just ended
        self.scorer = None
        self.totals = {name: [0] * sides for name, _ in prog.totals}  # per-side running totals (``scoring.totals``)
        self.event_size = 0
        self.event_owner = None
        self.arrived = None                        # auto_lay.replace_when: how a laid card came
        self.phases = build_phases(prog)
        for ph in self.phases.values():
            ph.start(self)
        for hook in prog.on_start:                 # the mechanics' own state (``Mechanic.hooks``)
            hook(self)
        first = prog.model.match.first_dealer
        dealer_asked = dealer
        if dealer is None:
            dealer = self.rng.randrange(self.n) if first == "random" else 0
        if not (isinstance(dealer, int) and 0 <= dealer < self.n):
            raise ValueError(f"dealer must be a seat from 0 to {self.n - 1}")
        self.dealer = dealer
        self._stacks: list = []                    # stacked decks for the next deals, in order
        for d in ([deck] if deck is not None else []) + list(decks or ()):
            self._stacks.append(self._parse_deck(d))
        # what a record needs to rebuild this game: the dealer as asked (None: drawn at random, which
        # uses the generator), the decks stacked at the start, and each later stack_next with the
        # number of actions made before it
        self._setup = (dealer_asked, tuple(tuple(self.prog.cards.text[c] for c in d) for d in self._stacks))
        self._stack_log: list = []
        self.go_out_names = tuple(prog.go_out)
        self._failure: Optional[RuleEvaluationError] = None
        self._knowledge: Optional[dict] = None     # seat -> what it has seen (engine.knowledge), on demand
        self.determinized_for: Optional[int] = None
        try:
            self._start_hand()
            self._settle()
        except Exception as exc:
            raise self._stop(exc, "dealing") from None

    def _parse_deck(self, deck: Sequence[Union[str, int]]) -> list[int]:
        """A stacked deck, top card first: card texts (or ids), each card of the deck exactly once."""
        cards = self.prog.cards
        pool: dict[int, list[int]] = {}
        for c in reversed(cards.ids):
            pool.setdefault(cards.kind[c], []).append(c)
        out = []
        for item in deck:
            kind = item if isinstance(item, int) else cards.parse_kind(str(item))
            if kind is None or not pool.get(kind):
                raise ValueError(f"stacked deck: `{item}` is not a card of this deck, or appears too often")
            out.append(pool[kind].pop())
        if len(out) != cards.size:
            missing = [cards.kind_text[k] for k, v in pool.items() for _ in v]
            raise ValueError(f"stacked deck has {len(out)} cards; the deck has {cards.size} "
                             f"(missing: {' '.join(missing[:10])}{' ...' if len(missing) > 10 else ''})")
        return out

    def turn_begins(self, seat: int) -> None:
        """``seat`` is on turn for a new turn: it acts, and the mechanics hear that its turn begins
        (every phase hands the turn on through here, so a turn means the same in each)."""
        self.actor = seat
        for hook in self.prog.on_begins:
            hook(self, "turn", seat)

    def begins(self, scope: str) -> None:
        """A new ``"trick"`` or ``"deal"`` begins, for every seat: the mechanics hear it
        (``Mechanic.hooks``: what starts again with it)."""
        for hook in self.prog.on_begins:
            hook(self, scope, None)

    def _announce(self, phase, action: Action, chosen: Action) -> None:
        """The action about to be made, told to the mechanics that listen (``Mechanic.hooks``), judged
        in the position it is made from, with ``card`` the card it moves (when it moves one),
        ``event.size`` and ``event.meld_owner``, and what the phase binds (climbing: ``play.*``)."""
        saved = self.cand
        self.cand = self._moved_card(chosen)
        # the cards the action moves: `take discard 3` names its count; a phase may say better (a draw)
        self.event_size = (int(action.cards[0]) if action.verb in ("take", "claim") and action.cards
                           else len(action.cards))
        phase.counting(self, action, chosen)
        try:
            self.event_owner = self._layoff_owner(action)
            for hook in self.prog.on_action:
                hook(self, action)
        finally:
            phase.counted(self)
            self.cand = saved

    def _moved_card(self, action: Action) -> Optional[int]:
        """The card an action moves from the actor's own zones, when it moves exactly one."""
        if len(action.cards) != 1 or action.verb in ("take", "claim"):
            return None
        text = action.cards[0].partition("=")[0]
        names = self.prog.cards.text
        for zones in self.pzones.values():
            for c in zones[self.actor]:
                if names[c] == text:
                    return c
        return None

    def _layoff_owner(self, action: Action) -> Optional[int]:
        """The owner of the meld a layoff goes onto (``event.meld_owner``); None for any other action."""
        if action.verb == "layoff" and action.target:
            i = action.target - 1
            if self.melds and i < len(self.melds):
                return self.melds[i].owner
            if i < len(self.meld_owner):
                return self.meld_owner[i]
        return None

    def stack_next(self, deck: Sequence[Union[str, int]]) -> None:
        """Deal the next hand still to come from this deck (top card first, every card once) instead of
        a shuffle; several calls stack several hands, in order.  For tests, replays and teaching."""
        order = self._parse_deck(deck)
        self._stacks.append(order)
        self._stack_log.append((len(self.history), tuple(self.prog.cards.text[c] for c in order)))

    def _start_hand(self) -> None:
        p = self.prog
        self.phase = "deal"                        # until the hand's first phase is entered
        self.hand_number += 1
        if self._stacks:
            order = self._stacks.pop(0)
        else:
            order = list(p.cards.ids)
            self.rng.shuffle(order)
        bit = p.melds.bits
        self.zones = {z: Cards(bit) for z in p.table_zones}
        self.pzones = {z: [Cards(bit) for _ in range(self.n)] for z in p.player_zones}
        self.tzones = {z: [Cards(bit) for _ in range(self.teams or self.n)] for z in (p.team_zones or ())}
        self.picked_up = [False] * self.n          # reserve packet (the foot) taken into the hand
        self.reserve_turns = [0] * self.n          # complete turns begun with the reserve in hand
        self.turn_in_reserve = False
        self.answers: dict = {}                    # seat -> the partner's answer this turn
        self.asked = False
        self.marks: dict = {}                      # mark name -> {card: seat that marked it last}
        self.mark_counts: dict = {}                # mark name -> marking discards per seat this hand
        self.team_melded = [False] * (self.teams or self.n)
        self.stage_total = 0                       # initial meld: counting value placed this turn
        self.staged_kinds: list = []               # contract: kinds of the melds placed this turn
        self.buying = None                         # a buy window: (the seat that drew, its step)
        self.buyable = None                        # the discard a buy could take while it lies on top
        self.pending_end = None                    # a hand ended mid-action, scored when it is done
        self.unlooked = set()                      # seats whose hands are hidden from themselves (blind bids)
        stock = self.zones["stock"]
        stock.extend(reversed(order))          # the end of the list is the top of the stock
        self.table_melds: list[list[int]] = []
        self.meld_owner: list[int] = []
        self.facts: dict = {}
        self.revealed = [False] * self.n
        self.face_down: set = set()            # cards lying face down in a face-up zone
        self.melds: list = []                  # open melds on the table (TableMeld)
        self.taken_cards: list = []            # cards taken from a pile this turn
        self.drawn = None                      # the card last drawn from the stock this turn
        self.reshuffles = 0                    # discard piles shuffled into a new stock this hand
        self.must: set = set()                 # cards that must be melded before anything else
        self.discard_forbid = None
        self.discarder = None
        self.taken = None
        self.cand = None
        self.ending = None
        self.declarer = None
        self.defender = None
        self.final_deadwood = [0] * self.n
        self.direction = -1 if p.direction(self) == "counterclockwise" else 1
        self.begins("deal")
        self._deal(stock)
        self.step = 0
        self._legal: Optional[list] = None
        for ph in self.phases.values():
            ph.reset(self)
        self.enter(self._entry_phase())
        self._after_deal()

    def _after_deal(self) -> None:
        """``after_deal`` checks: the first that holds ends the hand at once under its name (scored
        once the deal is complete, or void); nothing is recorded as a player's action."""
        for when, ending, result in self.prog.after_deal:
            if when(self):
                self.pending_end = ending if result == "score" else ("void", ending)
                return

    def _deal(self, stock: Cards) -> None:
        n = self.n
        first = self.next_seat(self.dealer)
        seats = [first]
        while len(seats) < n:
            seats.append(self.next_seat(seats[-1]))
        for i_item, item in enumerate(self.prog.deal):
            if item[0] != "skip" and item[-1] is not None and not item[-1](self.hand_number):
                continue                           # a step this deal does without (`when:`)
            if item[0] == "deal":
                _, count, zone, pos, to_seat, _active = item
                if callable(count):
                    count = count(self.hand_number)
                hands = self.pzones[zone]
                if count == "all":
                    i = 0
                    while stock:
                        hands[seats[i % n]].append(stock.pop())
                        i += 1
                    continue
                if type(count) is not int or count < 0:
                    raise RuleEvaluationError(f"the deal gives {count!r} cards to each player; it must be a "
                                              "whole number, 0 or more", f"deal[{i_item}].deal", pos, step="deal")
                if to_seat is not None:
                    if count:
                        self._deal_to_seat(to_seat, count, hands[self._dealt_seat(to_seat, i_item, pos)],
                                           stock, i_item, pos)
                    continue
                if count * n > len(stock):
                    raise RuleEvaluationError(f"the deal needs {count * n} cards ({count} to each of {n} players) "
                                              f"but {len(stock)} are left to deal", f"deal[{i_item}].deal", pos,
                                              step="deal")
                for _ in range(count):
                    for s in seats:
                        hands[s].append(stock.pop())
            elif item[0] == "skip":
                continue
            elif item[0] == "set_aside":
                _, kinds, zone, pos, _active = item
                self._set_aside(stock, kinds, self.zones[zone])
            else:
                self._turn_up(stock, item, i_item)

    def _turn_up(self, stock: Cards, item: tuple, i_item: int) -> None:
        """A deal step's ``turn_up``: the stock's top card face up into a zone; ``bury_while`` puts it back
        into the stock at random and turns the next, ``cover_while`` leaves it under the next."""
        _, zone, fact, pos, bury, cover, _active = item
        if not stock:
            raise RuleEvaluationError(f"no card is left to turn up into `{zone}`",
                                      f"deal[{i_item}].turn_up", pos, step="deal")
        card = stock.pop()
        if bury is not None:
            card = self._bury(stock, card, bury, f"deal[{i_item}].bury_while", pos)
        while cover is not None and stock and cards_where(self, (card,), cover):
            self.zones[zone].append(card)          # it stays in the pile, under the next card
            card = stock.pop()
        self.zones[zone].append(card)
        if fact:
            self.facts[fact] = card

    def _bury(self, stock: Cards, card: int, bury, rule: str, pos) -> int:
        """``bury_while``: while the turned card matches, it goes back into the stock at a random place and
        the top card is turned instead.  After as many tries as the stock has cards, the top-most card
        that does not match is turned (a stock of almost nothing but matches would otherwise take long),
        and a stock with none is an error.  Returns the card turned up."""
        tries = len(stock)
        while stock and cards_where(self, (card,), bury):
            if tries == 0:
                matching = set(cards_where(self, stock, bury))      # (a card id is one card)
                keep = next((i for i in range(len(stock) - 1, -1, -1) if stock[i] not in matching), None)
                if keep is None:
                    raise RuleEvaluationError("`bury_while` buries every card of the stock", rule, pos, step="deal")
                turned = stock.pop(keep)
                stock.insert(self.rng.randrange(len(stock) + 1), card)
                return turned
            tries -= 1
            stock.insert(self.rng.randrange(len(stock) + 1), card)   # buried at random
            card = stock.pop()
        return card

    def _set_aside(self, stock: Cards, kinds: list, zone: Cards) -> None:
        """A deal step's ``set_aside``: these cards leave the stock for ``zone`` before the deal."""
        k_of = self.prog.cards.kind
        for kind in kinds:
            card = next((c for c in stock if k_of[c] == kind), None)
            if card is not None:
                stock.remove(card)
                zone.append(card)

    def _dealt_seat(self, to_seat, i_item: int, pos) -> int:
        seat = to_seat(self)
        if type(seat) is not int or not 0 <= seat < self.n:
            raise RuleEvaluationError(f"the deal's `seat` gives {seat!r}; it must be a seat (0 to {self.n - 1})",
                                      f"deal[{i_item}].seat", pos, step="deal")
        return seat

    def _deal_to_seat(self, to_seat, count: int, hand, stock, i_item: int, pos) -> None:
        """A deal step with ``seat``: ``count`` cards to that seat alone."""
        if type(count) is not int or count < 0 or count > len(stock):
            raise RuleEvaluationError(f"the deal gives {count!r} cards to one seat, with {len(stock)} left to deal",
                                      f"deal[{i_item}].deal", pos, step="deal")
        for _ in range(count):
            hand.append(stock.pop())

    def enter(self, phase: str) -> None:
        """Switch to ``phase`` (a key of ``self.phases``) and let it set who acts."""
        self.phase = phase
        self._legal = None
        self.phases[phase].enter(self)

    # ------------------------------------------------------------------ seats
    @property
    def order(self) -> list[int]:
        return self._order

    @order.setter
    def order(self, seats: list[int]) -> None:
        self._order = list(seats)
        self._seat_table()

    @property
    def direction(self) -> int:
        return self._direction

    @direction.setter
    def direction(self, d: int) -> None:
        self._direction = d
        self._seat_table()

    def _seat_table(self) -> None:
        order = getattr(self, "_order", None)
        if order is None or not hasattr(self, "_direction"):
            return
        n = len(order)
        nxt = [0] * n
        for i, s in enumerate(order):
            nxt[s] = order[(i + self._direction) % n]
        self._next = nxt

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in turn order and the current direction."""
        nxt = self._next
        for _ in range(steps):
            seat = nxt[seat]
        return seat

    def seat_word(self, word: str) -> int:
        return self.dealer if word == "dealer" else self.next_seat(self.dealer)

    # ------------------------------------------------------------------ teams and packets
    def team_of(self, seat: int) -> int:
        """Seat s plays for team s % teams (partners sit opposite); without teams, for itself."""
        return seat % self.teams if self.teams else seat

    def members(self, team: int) -> list[int]:
        return [s for s in range(self.n) if self.team_of(s) == team]

    def partner(self, seat: int) -> int:
        others = [s for s in self.members(self.team_of(seat)) if s != seat]
        return others[0] if others else seat

    def owner_of(self, seat: int) -> int:
        """Who owns the melds a seat makes: its team, or itself."""
        table = self.prog.model.table
        return self.team_of(seat) if table is not None and table.owner == "team" else seat

    def reserve_zone(self) -> Optional[str]:
        return self.prog.reserve_zone

    def held_cards(self, seat: int) -> list[int]:
        """A seat's hand, and its reserve packet while not yet picked up."""
        cards = list(self.pzones["hand"][seat])
        z = self.reserve_zone()
        if z is not None and not self.picked_up[seat]:
            cards.extend(self.pzones[z][seat])
        return cards

    def pick_up_reserve(self, seat: int) -> bool:
        """An empty hand takes up the seat's reserve packet (the foot), if it still has one."""
        z = self.reserve_zone()
        if z is None or self.picked_up[seat]:
            return False
        target = self.prog.model.zones[z].reserve_for
        hand, foot = self.pzones[target][seat], self.pzones[z][seat]
        while foot:
            hand.append(foot.pop())
        self.picked_up[seat] = True
        self.auto_lay(seat)
        return True

    def auto_lay(self, seat: int, arrived: str = "dealt") -> None:
        """Cards of the ``auto_lay`` class never stay in a hand: laid out and replaced (where
        ``replace_when`` holds for the card and how it ``arrived``), repeatedly; a replacement is drawn."""
        al = self.prog.auto_lay
        if al is None:
            return
        flags, to, source, end_when_empty, replace_when = al
        hand = self.pzones["hand"][seat]
        dest = self.tzones[to][self.team_of(seat)] if to in self.tzones else self.pzones[to][seat]
        while True:
            found = [c for c in hand if flags[c]]
            if not found:
                return
            for c in found:
                hand.remove(c)
                dest.append(c)
                self.must.discard(c)               # a laid card is no longer owed to a meld
                if source is None:
                    continue
                if replace_when is not None:
                    self.cand, self.arrived = c, arrived
                    try:
                        if not replace_when(self):
                            continue
                    finally:
                        self.cand, self.arrived = None, None
                if self.zones[source]:
                    hand.append(self.zones[source].pop())
                elif end_when_empty:
                    self.pending_end = "stock"     # `when_empty: end_hand`: scored once the action is done
            arrived = "drawn"                      # the replacements were drawn

    def _settle(self) -> None:
        """End the hand that a mechanic ended in the middle of an action (a replacement owed from an
        empty zone), now that the action is complete; run the stock out for a player left only draws
        from empty zones (``TurnPhase.run_dry``).  A new hand that ends before anyone acts ends too, a
        bounded number of times."""
        for _ in range(self.MAX_EMPTY_HANDS):
            if self.is_over:
                return
            if not self.pending_end:
                if not (self.phase == "turn" and self.phases["turn"].run_dry(self)):
                    return
                continue                           # the position after the stock-out is settled in turn
            end, self.pending_end = self.pending_end, None
            if isinstance(end, tuple):             # an after-deal check that voids the hand
                self.finish_hand(void=True, reason=end[1])
                continue
            self.ending = end
            self.finish_hand()
        raise RuleEvaluationError(f"{self.MAX_EMPTY_HANDS} hands in a row ended before anyone could act")

    # ------------------------------------------------------------------ copies
    def record(self) -> dict:
        """This game as JSON-ready data: the ruleset (name, overrides, digest), players, seed, dealer,
        stacked decks and every action's text.  ``rulesdsl.replay(record)`` rebuilds the same game
        in the same position: a saved game, resumed; a finished one, replayed."""
        from .record import make_record
        return make_record(self)

    def determinize(self, seat: int, rng: random.Random) -> "Game":
        """A copy in which every card hidden from ``seat`` is dealt again at random, consistently with
        everything the seat has seen this hand (sizes, cards it knows to be in a hand, cards it knows
        are not), and whose later shuffles come from ``rng``.  For search bots: see
        ``engine.determinize``."""
        from .determinize import determinize
        return determinize(self, seat, rng)

    def clone(self) -> "Game":
        """An independent copy of this game in its current position (for search and what-ifs): moves
        made on either are not seen by the other, and both continue with the same random state."""
        from .clone import clone_game
        return clone_game(self)

    @property
    def rng(self) -> random.Random:
        """The game's one source of chance.  A clone shares it with its original until either draws
        from it; that one then continues on its own copy (copying a generator's state costs more than
        the rest of a clone, and most clones made by a search never reach a shuffle)."""
        if self._rng_shared:
            from .clone import copy_random
            self._rng, self._rng_shared = copy_random(self._rng), False
        return self._rng

    # ------------------------------------------------------------------ public state
    @property
    def current_player(self) -> Optional[int]:
        return None if self.is_over else self.actor

    @property
    def cards_in_play(self) -> int:
        """Every card of the deck, wherever it lies (conservation check)."""
        total = sum(len(z) for z in self.zones.values())
        total += sum(len(h) for hs in self.pzones.values() for h in hs)
        total += sum(len(m) for m in self.table_melds)
        total += sum(len(m.cards) for m in self.melds)
        total += sum(len(z) for zs in self.tzones.values() for z in zs)
        return total

    def hand_of(self, seat: int, zone: str = "hand") -> list[str]:
        return self.prog.cards.texts(sorted(self.pzones[zone][seat]))

    # ------------------------------------------------------------------ legal actions and apply
    def legal_actions(self) -> list[Action]:
        """What the player on turn may do now.  Never empty while the match is not over: a position the
        ruleset leaves no way out of stops the game with a ``RuleEvaluationError`` naming the step."""
        if self._legal is None:
            if self.broken:
                raise self._stopped()
            try:
                self._legal = [] if self.is_over else self.phases[self.phase].generate(self)
            except _EVAL_ERRORS as exc:
                raise self._stop(exc, "listing the legal actions") from None
            if not self._legal and not self.is_over:
                rule, pos = self._phase_rule()
                raise self._stop(RuleEvaluationError(
                    "the player on turn has no legal action, and the match is not over",
                    rule, pos)) from None
        return list(self._legal)

    # ------------------------------------------------------------------ run-time failures
    def step_name(self) -> str:
        """The turn step in progress (``draw``), or the phase (``deal``, ``climb``, ``exchange``...)."""
        phase = getattr(self, "phase", None)
        if phase is None:
            return "deal"
        if phase == "turn":
            return self.prog.steps[self.step].name
        return phase

    def _phase_rule(self) -> tuple:
        """(key path, position) of the rule that governs the current step or phase."""
        p = self.prog
        if getattr(self, "phase", "deal") == "deal":
            return "deal", None
        if self.phase == "turn":
            st = p.steps[self.step]
            return f"turn[{st.name}]", st.pos
        governs = self.phases[self.phase].governs(self) if self.phase in self.phases else None
        if governs is not None:
            return governs
        if self.phase == "draft":
            return "deal", p.draft[3]
        if self.phase == "offer":
            return "first_turn", p.first_turn.pos
        if self.phase == "last_chance" and p.model.stock_out is not None:
            return "stock_out.last_chance", p.model.stock_out.pos
        if self.phase == "claim" and p.claims:
            name, claim = next(iter(p.claims.items()))
            return f"claims.{name}", claim.pos
        if self.phase == "answer" and p.going_out is not None:
            return "table.going_out", p.going_out.pos
        return self.phase, None

    def _stop(self, exc: BaseException, doing: str = "") -> "RuleEvaluationError":
        """The game stops here: ``exc`` (a rule that failed, or any error it caused) as a located
        ``RuleEvaluationError`` with the seat and step filled in; later calls raise it again."""
        if isinstance(exc, RulesdslError) and not isinstance(exc, RuleEvaluationError):
            return exc                                  # an illegal action, a ruleset error: not a stop
        at = None if getattr(exc, "rule", "") else rule_at(exc, self.prog.rule_codes)
        if not isinstance(exc, RuleEvaluationError):
            exc = RuleEvaluationError(f"{type(exc).__name__}: {exc}")
        err = exc.located(getattr(self, "actor", None), self.step_name(), doing)
        if not err.rule:                                # the innermost rule running, else the step's
            err.rule, err.pos = at or self._phase_rule()
        self._failure = err
        self.broken = str(err) + "; the game cannot continue"
        return err

    def _stopped(self) -> "RuleEvaluationError":
        f = self._failure
        if f is None:
            return RuleEvaluationError(self.broken)
        return RuleEvaluationError(f.detail, f.rule, f.pos, f.seat, f.step)

    def apply(self, action: Union[Action, str], seat: Optional[int] = None) -> None:
        """Carry out one action of the current player; illegal -> IllegalAction, state unchanged.

        ``seat``, when given, is the seat the action comes from (a server passes the sender's seat):
        any seat but the one on turn is refused.  Text and hand-built actions are read strictly (each
        verb takes only the parts its notation names); ``history`` records the canonical text of the
        action done, never the spelling it was sent in."""
        if self.broken:
            raise self._stopped()
        self._check_turn(seat)
        phase = self.phases[self.phase]
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:
            action = chosen = legal[legal.index(action)]      # a listed action: canonical already
        except Exception:                                    # anything else is read, then judged
            action, chosen = self._judge(action, phase, legal)
        text = _TEXTS.get(chosen)
        if text is None:
            if len(_TEXTS) >= _TEXTS_LIMIT:
                _TEXTS.clear()
            text = _TEXTS[chosen] = str(chosen)
        self.history.append(text)
        self._legal = None
        try:
            if self.prog.on_action:
                self._announce(phase, action, chosen)
            phase.apply(self, action, chosen)
            self._settle()
        except IllegalAction:
            raise
        except _EVAL_ERRORS as exc:
            raise self._stop(exc, f"playing `{chosen}`") from None

    def _check_turn(self, seat: Optional[int]) -> None:
        """Refuse any action once the match is over, and any from a seat (when given) not on turn."""
        if self.is_over:
            raise IllegalAction("the match is over", "match end")
        if seat is not None and (type(seat) is not int or seat != self.actor):
            raise IllegalAction(f"seat {excerpt(seat, 24)} is not on turn; seat {self.actor} is", "turn order")

    def refusal(self, action: Union[Action, str], seat: Optional[int] = None) -> Optional[IllegalAction]:
        """The ``IllegalAction`` that ``apply(action, seat)`` would raise now, or None when the action is
        legal; nothing is played.  ``refusal(...).explain()`` says why, part by part."""
        if self.broken:
            raise self._stopped()
        try:
            self._check_turn(seat)
            legal = self._legal if self._legal is not None else self.legal_actions()
            if action in legal:
                return None
            self._judge(action, self.phases[self.phase], legal)
        except IllegalAction as exc:
            return exc
        return None

    def explain(self, rule: str):
        """Why the rule compiled under the key path ``rule`` (``go_out.knock.when``, ``climbing.beats``,
        ``turn[draw].take.when``; ``rules()`` lists them) has its value now, for the player on turn: an
        ``expr.explain.Trace`` (``.holds``, ``.text``, ``.lines()``, ``.report()``).  A condition that
        judges one card or play (``card``, ``play.*``) sees none here; ``refusal(action)`` judges the
        action's own.  An unknown key raises ``KeyError`` naming the closest ones."""
        expr = self.prog.rule_exprs.get(rule)
        if expr is None:
            from ..errors import suggest
            hint = suggest(rule, list(self.prog.rule_exprs))
            raise KeyError(f"no rule `{excerpt(rule, 60)}` in this ruleset" + (f"; {hint}" if hint else ""))
        return self.prog.tracer().trace(expr, self, rule, expr.pos)

    def rules(self) -> list[str]:
        """The key paths of the rules ``explain`` knows (every expression the engine runs in play)."""
        return sorted(self.prog.rule_exprs)

    def _judge(self, sent: object, phase, legal: list) -> tuple:
        """An action that is not itself in the legal list (text, a hand-built ``Action``): read it
        strictly, canonicalise it, and find the listed action it means -> ``(action, chosen)``; else
        refuse it, quoting at most ``ECHO_LIMIT`` characters of it."""
        action = self._canonical(coerce_action(sent, self.go_out_names))
        if action in legal:
            action = legal[legal.index(action)]
            return action, action
        same = phase.equivalent(self, action, legal)
        if same is None:
            refusal = phase.explain(self, action, legal) or self._generic_illegal(action, legal)
            text = str(action)
            if len(text) > ECHO_LIMIT:                          # the echo of a long action, cut
                refusal = IllegalAction(refusal.headline.replace(text, excerpt(text)), refusal.rule, refusal.pos,
                                        refusal.trace)
            raise refusal
        if not phase.keeps_chosen:
            return same, (action if action.melds else same)     # a go-out keeps the layout it named
        kind = self.prog.cards.parse_kind                   # the cards chosen, in the deck's order
        return same, action._replace(cards=tuple(sorted(action.cards, key=lambda t: kind(t.partition("=")[0]))))

    def _canonical(self, action: Action) -> Action:
        """A parsed action in canonical spelling: the zone as the ruleset names it, each card as the
        deck writes it; ``=`` (what a wild card stands for) only on a wild card, in a meld or layoff."""
        if action.zone and action.verb not in word_verbs() and action.zone not in self.zones:   # zones matched however written
            zone = next((z for z in self.zones if z.lower() == action.zone.lower()), None)
            if zone is None:
                raise IllegalAction(f"there is no zone `{excerpt(action.zone, 24)}`; zones: {', '.join(self.zones)}",
                                    "action syntax")
            action = action._replace(zone=zone)
        cards = self.prog.cards
        if action.melds:
            laid = []
            for m in action.melds:
                group = []
                for t in m:
                    k = cards.parse_kind(t)
                    if k is None or "=" in t:
                        raise IllegalAction(f"`{excerpt(t, 24)}` is not a card of this deck", "card notation")
                    group.append(cards.kind_text[k])
                laid.append(tuple(group))
            action = action._replace(melds=tuple(laid))
        if not action.cards or action.verb in ("take", "claim"):
            return action
        fixed = []
        for word in action.cards:
            t, eq, decl = word.partition("=")
            k = cards.parse_kind(t)
            if k is None:
                raise IllegalAction(f"`{excerpt(t, 24)}` is not a card of this deck", "card notation")
            text = cards.kind_text[k]
            if eq:
                if action.verb not in ("meld", "layoff", "play") or not self._is_wild_kind(k):
                    raise IllegalAction(f"`{excerpt(word, 24)}`: `=` says what a wild card stands for, "
                                        f"and {text} is no wild card here"
                                        if action.verb in ("meld", "layoff", "play") else
                                        f"`{excerpt(word, 24)}`: `=` says what a wild card stands for in a "
                                        f"meld, layoff or play; `{action.verb}` takes plain cards", "wild cards")
                d = cards.parse_kind(decl)
                if d is None or cards.kind_rank[d] < 0:
                    raise IllegalAction(f"`{excerpt(decl, 24)}` is not a card a wild card can stand for",
                                        "wild cards")
                text += "=" + cards.kind_text[d]
            fixed.append(text)
        return action._replace(cards=tuple(fixed))

    def _is_wild_kind(self, kind: int) -> bool:
        """Whether cards of this kind are wild in this ruleset."""
        wild, kinds = self.prog.wild, self.prog.cards.kind
        return any(wild[c] and kinds[c] == kind for c in range(len(wild)))

    def _generic_illegal(self, action: Action, legal: list) -> IllegalAction:
        shown = ", ".join(str(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
        return IllegalAction(f"`{excerpt(action)}` is not legal now ({self.phase}); legal: {shown}",
                             f"{self.phase} phase")

    def find(self, zone: list, text: str) -> int:
        """The id of a card with this text in ``zone`` (the action was checked legal first)."""
        t = self.prog.cards.text
        for c in zone:
            if t[c] == text:
                return c
        raise IllegalAction(f"{text} is not there")

    # ------------------------------------------------------------------ hand and match end
    def finish_hand(self, void: bool = False, **record: Any) -> None:
        """Score the hand that just ended and start the next one (or end the match)."""
        p = self.prog
        entry: dict[str, Any] = {"hand": self.hand_number, "dealer": self.dealer}
        entry.update(record)
        if void:
            self.ending = "void"
            entry.update(ending="void", scorer=None, points=0)
            self.hand_log.append(entry)
            self._start_hand()                 # the same dealer deals again
            return
        actor = self.actor
        points = self._score_hand()
        self.actor = actor
        scorer = self.scorer
        entry.update(ending=self.ending, declarer=self.declarer, scorer=scorer, points=points,
                     deadwood=list(self.final_deadwood))
        self.hand_log.append(entry)
        if p.ends_when(self) and (p.on_tie(self) != "another_hand" or self._unique_leader() is not None):
            self._end_match()
            return
        self.dealer = self._next_dealer()
        self._reseat()
        self._start_hand()

    def _next_dealer(self) -> int:
        """Who deals the next hand: ``match.next_dealer``, else the next seat.  A rule that gives
        nothing (``none``: e.g. "the winner deals" after a hand nobody won) keeps the dealer."""
        p = self.prog
        if p.next_dealer is None:
            return self.next_seat(self.dealer)
        seat = p.next_dealer(self)
        if seat is None:
            return self.dealer
        if type(seat) is not int:
            raise RuleEvaluationError(f"gives {seat!r}; it must be a seat (a whole number) or none",
                                      "match.next_dealer", p.model.match.next_dealer.pos)
        return seat % self.n

    def _entry_phase(self) -> str:
        """Where a hand starts: the exchange, the first-turn offer, climbing, or plain turns."""
        p = self.prog
        if p.draft is not None:
            return "draft"
        return self.after_draft()

    def after_draft(self) -> str:
        """Where a hand goes once its cards are dealt (and drafted): the first phase of its flow
        (``prog.hand_flow``: an exchange, an auction, the card play) that applies now."""
        return self._next_in_flow(0)

    def phase_after(self, phase: str) -> str:
        """The phase of the hand's flow that follows ``phase`` and applies now (after an exchange: the
        auction or the card play)."""
        return self._next_in_flow(self.prog.hand_flow.index(phase) + 1)

    def _next_in_flow(self, i: int) -> str:
        flow, phases = self.prog.hand_flow, self.phases
        while i < len(flow) - 1 and not phases[flow[i]].applies(self):
            i += 1
        return flow[i]

    def _score_hand(self) -> int:
        """Score the hand (``_score_gains``), then move each side's running ``totals`` on, every new value
        judged with the old ones."""
        points = self._score_gains()
        totals = self.prog.totals
        if totals:
            sides = self.teams or self.n
            new = {}
            for name, fn in totals:
                row = []
                for side in range(sides):
                    if self.teams:
                        self.team_cur = side
                    else:
                        self.actor = side
                    v = fn(self)
                    if isinstance(v, bool) or not isinstance(v, int):
                        raise RuleEvaluationError(f"`scoring.totals.{name}` gives {v!r}; it must be a whole number",
                                                  f"scoring.totals.{name}")
                    row.append(v)
                new[name] = row
            self.totals.update(new)
        return points

    def _score_gains(self) -> int:
        """Score by the first outcome that holds (one scorer), every seat by ``each_player``, or
        every team by ``each_team``."""
        p = self.prog
        self.scorer = None
        if p.each_team is not None:
            gains = []
            for t in range(self.teams):
                self.team_cur = t
                gains.append(p.each_team(self) * p.multiplier(self))
            for t, v in enumerate(gains):
                self.scores[t] += v
            best = max(gains)
            if gains.count(best) == 1:
                self.scorer = gains.index(best)
                self.hands_won[self.scorer] += 1
            self.last_gains = gains
            return sum(gains)
        if p.each_player is not None:
            total = 0
            gains = []
            for s in range(self.n):
                self.actor = s
                gains.append(p.each_player(self) * p.multiplier(self))
            for s, v in enumerate(gains):
                self.scores[s] += v
                total += v
            best = max(gains)
            if gains.count(best) == 1:
                self.scorer = gains.index(best)
                self.hands_won[self.scorer] += 1
            return total
        self.actor = self.declarer
        mult = p.multiplier(self)
        for i, o in enumerate(p.outcomes):
            if o.when(self):
                scorer = self.declarer if o.scorer == "declarer" else self.defender
                if scorer is None:
                    raise RuleEvaluationError(
                        f"the hand ended `{self.ending}`, which has no {o.scorer}, but this outcome scores for "
                        f"the {o.scorer}: give it a `when` that holds only where a player went out",
                        f"scoring.outcomes[{i}]", getattr(self.prog.model.scoring.outcomes[i], "pos", None))
                points = o.points(self) * mult
                self.scorer = scorer
                self.scores[scorer] += points
                self.hands_won[scorer] += 1
                return points
        return 0

    def _reseat(self) -> None:
        """Turn order for the next hand: fixed seats, or the previous finishing order."""
        seating = self.prog.seating(self)
        if seating == "finishing" and len(self.previous_order) == self.n:
            self.order = list(self.previous_order)
        else:
            self.order = list(range(self.n))

    def _leaders(self) -> list[int]:
        """The sides at the top (``match.winner: highest``) or the bottom (``lowest``) of the scores."""
        best = min(self.scores) if self.prog.model.match.winner == "lowest" else max(self.scores)
        return [s for s in range(len(self.scores)) if self.scores[s] == best]

    def _unique_leader(self) -> Optional[int]:
        """The side alone at the top (``match.winner: highest``) or the bottom (``lowest``), or None."""
        leaders = self._leaders()
        return leaders[0] if len(leaders) == 1 else None

    def _end_match(self) -> None:
        self.winners = self._leaders()           # judged before the end bonus, which may read `winner`
        self.winner = self.winners[0] if len(self.winners) == 1 else None
        eb = self.prog.end_bonus
        if eb is not None and eb[0](self) and not self.teams:
            bonus = []
            for s in range(self.n):
                self.actor = s
                bonus.append(eb[1](self))
            for s in range(self.n):
                self.scores[s] += bonus[s]
        self.is_over = True
        self.phase = "over"
        self._legal = []

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> dict:
        """Everything ``seat`` may see, as JSON-serialisable data, and nothing more.  Which cards it
        sees is decided in one place, ``engine.visibility``; each phase adds what it shows."""
        p = self.prog
        out = {
            "seat": seat,
            "players": self.n,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "turn_order": list(self.order) if self.direction == 1 else list(reversed(self.order)),
            "current_player": self.current_player,
            "phase": self.phase,
            "step": p.steps[self.step].name if self.phase == "turn" else self.phase,
            "scores": list(self.scores),
            "hands_won": list(self.hands_won),
            "zones": self._view_zones(seat),
            "melds": self._view_melds(),
            "last_hands": [_plain_copy(h) for h in self.hand_log[-3:]],
            "legal_actions": [str(a) for a in self.legal_actions()]
                             if seat == self.current_player and not self.broken else [],
            "is_over": self.is_over,
            "winner": self.winner,
            "winners": list(self.winners),
        }
        if self.tzones:
            t = p.cards.text
            out["team_zones"] = {z: [{"count": len(c), "cards": [t[x] for x in c]}
                                     if team_zone_shown(self, z, team, seat) else {"count": len(c)}
                                     for team, c in enumerate(zs)]
                                 for z, zs in self.tzones.items()}
        if self.teams:
            out["teams"] = [self.members(t) for t in range(self.teams)]
            out["in_reserve"] = list(self.picked_up)
            out["team_melded"] = list(self.team_melded)
        for ph in self.phases.values():
            ph.view(self, seat, out)
        return out

    def _view_zones(self, seat: int) -> dict:
        """Table and per-seat zones: every count, and the cards ``seat`` sees."""
        t = self.prog.cards.text
        down = self.face_down
        zones: dict[str, Any] = {}
        for z, spec in self.prog.model.zones.items():
            if spec.per == "team":
                continue                       # shown under "team_zones"
            if spec.per == "table":
                cards = self.zones[z]
                entry: dict[str, Any] = {"count": len(cards)}
                shows = table_zone_shows(self, z)
                if shows == "all":
                    entry["cards"] = [t[c] if c not in down else "face down" for c in cards]
                elif shows == "top" and cards:
                    if cards[-1] in down:
                        entry["top_face_down"] = True
                    else:
                        entry["top"] = t[cards[-1]]
                zones[z] = entry
                continue
            per = []
            for s, cards in enumerate(self.pzones[z]):
                entry = {"count": len(cards)}
                if player_zone_shown(self, z, s, seat):
                    entry["cards"] = sorted(t[c] for c in cards)
                per.append(entry)
            zones[z] = per
        return zones

    def _view_melds(self) -> list:
        """The melds on the table, seen by everyone (a wild card with what it stands for)."""
        p = self.prog
        t = p.cards.text
        return [{"owner": self.meld_owner[i], "cards": [t[c] for c in m]}
                for i, m in enumerate(self.table_melds)] + [
               {"owner": m.owner, "kind": m.kind,
                "cards": [t[c] + ("=" + p.cards.kind_text[k] if p.wild[c] and k != p.cards.kind[c] else "")
                          for c, k in zip(m.cards, m.declared)],
                "placed_by": list(m.placers), **({"book": m.book} if m.book else {})} for m in self.melds]


def _plain_copy(value: Any) -> Any:
    """A copy of plain data (mappings, lists and tuples of numbers and texts), for a view that must not
    share what the game goes on changing; several times faster than ``copy.deepcopy``, which a view
    made for every seat after every action would otherwise spend most of its time in."""
    if isinstance(value, dict):
        return {k: _plain_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_copy(v) for v in value]
    return value
