"""What one seat knows of where the cards are, learnt by watching the game as that seat.

A seat knows more than its ``view`` shows at any moment: it remembers every card it has seen and
where that card went.  The discard pile shows its top card, yet the seat saw each card laid there; a
card an opponent took from the pile is in that opponent's hand until seen again; a card the seat gave
away in an exchange is in the receiver's hand.  Which *card* moves is hidden when neither its old nor
its new place is shown; which *places* a card moves between never is (everyone sees a player draw from
the stock or pass two cards to another).  So the seat's knowledge of a card is:

* **pinned**: it knows the exact slot (it sees the card, or saw it there and nothing has moved it);
* a set of **possible places** (containers): where it was last seen, widened by every unseen move
  out of a place it might be in; or
* **anywhere** hidden, for a card it has not seen this hand.

A ``Tracker`` learns this by replaying the game's own actions, from its seed, on a private copy and
observing after the deal and after every action, using only ``engine.visibility`` (the ruleset's
``visible:`` declarations).  It follows its game action by action, so asking again later costs only the
actions made since.  A new deal (shuffle) forgets everything.
"""

from __future__ import annotations

from .visibility import containers, seen_by


def locate(g) -> dict:
    """card -> (container key, position) for every card of the game."""
    where = {}
    for key, cards in containers(g):
        for i, c in enumerate(cards):
            where[c] = (key, i)
    return where


class Tracker:
    """One seat's knowledge of one game, kept up to date by replaying that game's actions."""

    def __init__(self, game, seat: int):
        self.seat = seat
        self.shadow = _fresh_copy(game)
        self.done = 0                      # actions of the game replayed on the shadow
        self.hand = -1
        self.where: dict = {}              # card -> (key, position) at the last observation
        self.seen: set = set()             # cards seen at the last observation
        self.pinned: dict = {}             # card -> (key, position) the seat knows exactly
        self.places: dict = {}             # card -> frozenset of keys it may be in (absent: anywhere)
        self.plan, self.plan_at = None, -1  # what determinize deals in this position (its cache)
        self._observe()

    # -------------------------------------------------------------- following the game
    def follow(self, game) -> None:
        """Replay the actions ``game`` has made since the last call (and the decks it stacked)."""
        history = game.history
        stacks = game._stack_log
        shadow = self.shadow
        while self.done < len(history):
            self._stack_before(stacks, self.done)
            shadow.apply(history[self.done])
            self.done += 1
            self._observe()
        self._stack_before(stacks, self.done)

    def _stack_before(self, stacks: list, at: int) -> None:
        """Stack on the shadow the decks its game stacked before action ``at`` (in order, once each)."""
        shadow = self.shadow
        while len(shadow._stack_log) < len(stacks) and stacks[len(shadow._stack_log)][0] <= at:
            shadow.stack_next(stacks[len(shadow._stack_log)][1])

    def _observe(self) -> None:
        g = self.shadow
        where = locate(g)
        seen = seen_by(g, self.seat)
        if g.hand_number != self.hand:     # a new deal: everything was shuffled
            self.hand = g.hand_number
            self.pinned, self.places = {}, {}
        else:
            self._learn_moves(where, seen)
        for c in seen:
            spot = where[c]
            self.pinned[c] = spot
            self.places[c] = frozenset((spot[0],))
        self.where, self.seen = where, seen

    def _learn_moves(self, where: dict, seen: set) -> None:
        """Cards that changed place since the last observation: a move out of a slot the seat knew
        (the card was shown, or remembered there) tells it where the card went; any other move, from
        place A to B, unless the card is shown now, means that any card that might have been in A might
        now be in B.  (A card shown after its move is pinned by ``_observe``.)"""
        before, seen_before, places, pinned = self.where, self.seen, self.places, self.pinned
        unseen = set()
        for c, spot in where.items():
            old = before.get(c)
            if old == spot:
                continue
            was_pinned = pinned.pop(c, None) is not None
            if old is not None and old[0] == spot[0]:
                continue                   # moved within its place: still there
            if c in seen_before or was_pinned:     # the seat knew the card in the slot it left
                places[c] = frozenset((spot[0],))
            elif old is not None and c not in seen:    # (a card shown now is placed by _observe)
                unseen.add((old[0], spot[0]))
        if unseen:
            for c, may in list(places.items()):
                grown = may
                for a, b in unseen:
                    if a in grown:
                        grown = grown | {b}
                if grown is not may:
                    places[c] = grown
                    pinned.pop(c, None)


def _fresh_copy(game):
    """A new game made as ``game`` was (ruleset, seed, dealer, stacked decks), before any action."""
    dealer, decks = game._setup
    return type(game)(game.prog, seed=game.seed, dealer=dealer, decks=[list(d) for d in decks] or None,
                      digest=game.digest)


def tracker_for(game, seat: int) -> Tracker:
    """The game's tracker for ``seat``, made on first use and brought up to date."""
    trackers = game._knowledge
    if trackers is None:
        trackers = game._knowledge = {}
    t = trackers.get(seat)
    if t is None or t.done > len(game.history):
        t = trackers[seat] = Tracker(game, seat)
    t.follow(game)
    return t
