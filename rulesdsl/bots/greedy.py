"""``greedy``: a one-move look-ahead that any ruleset can use without teaching it anything.

Why this shape: the bot is a baseline to beat random play and the rollout policy of the search bot, so
it must be cheap, work from what the compiled program declares, and never read a card its seat cannot
see.  Every candidate action is tried on ``game.clone()`` (the given game is never touched) and the
position it leads to is judged from the acting seat's own cards and public state only.

Order of preference, highest first (ties broken by the bot's own ``random.Random(seed)``):

1. **Going out**: an action after which the seat is the hand's declarer (it went out, or the hand ended
   with it as declarer).  Between several ways out, the one that leaves the least penalty in the cards it keeps (out with no deadwood first).
2. **Asking to go out** (``ask``): offered only when going out would be legal but for the partner's
   word, so it is taken; a partner asked (``yes``/``no``) answers ``yes``.
3. **Melding and laying off when it helps**: an action after which the seat still acts and that
   raises the worth of its position (below) comes before anything that ends the turn, the best first.
4. Otherwise the action whose resulting position is worth most to the seat.
5. **A mechanic's own phases** (climbing, the exchange, trick play, bidding...): as the mechanic says
   (``Mechanic.greedy``; see ``greedy`` in each package of ``rulesdsl.mechanics``).

**What a position is worth** ("the penalty of what the seat holds", as the ruleset scores it): where
the ruleset scores each player or each team with an expression (``scoring.each_player`` /
``each_team``), that expression evaluated for the seat's side *now*, on a copy from which every card
the seat cannot see has been removed (other hands, packets nobody may look at): melded value, books,
bonuses and minus the cards held, exactly as the ruleset counts them.  Where the ruleset scores by
outcomes of a going-out (declarer against defender), minus the deadwood of the seat's hand (the
least unmelded value the ruleset's melds allow; without an arrangement search, the plain sum of card
values).  Either way, each card the seat holds without having seen it (drawn from a face-down stock, a
reserve packet not yet looked at) counts as minus the deck's mean card value: its real identity is
never read.  Cards in a face-up pile count as seen (each was shown when it landed there).

Two looks at what the cards may become keep a hand of melds from going nowhere: cards that already form a
meld of the ruleset's types in the hand (only the kinds a contract still asks for, where there is
one) are forgiven ``WHOLE`` of their value, and other cards that could meld with a held card (a pair,
two near cards of a suit, a wild card) ``HOPE`` of it.  Where melds close into typed books that the
scoring rewards, each unfinished meld of the seat's side adds (size / closing size) to the power
``BOOK_POWER`` times what the scoring gives for a book of the type it would be, measured on the
ruleset's own scoring.

**Drawing and taking**: a visible card taken while the seat still acts (a draw step followed by a
discard step) is judged by its best follow-up within the turn (one level: the discard after it).  A
blind draw is never looked at: it gets a neutral estimate made from the seat's known cards alone (the
best of giving up one unseen card or one known card, each unseen card kept counting at the mean
value), so the choice is the same whatever the stock holds.  A visible discard is taken only when that
strictly beats drawing blind (ties go to the blind draw): a take must strictly improve the taker's own
position, which keeps two greedy players from passing one card back and forth (tests check that greedy
tables finish their hands in every bundled ruleset).

A deal can still go stale where every player keeps what the others need and the discards are
shuffled back into the stock again and again: once that has happened ``STALE`` times in the deal
(public), the bot chooses half the time at random among its ordinary actions (never instead of
going out or of a helpful meld), as random play does, so that the deal ends.

An action that ends the hand without the seat going out (a void deal, the last layoff) is judged as
the position before it: the next deal's cards are never looked at.
"""

from __future__ import annotations

import random
from typing import Optional

from ..engine.actions import Action
from ..engine.phases.partnership import book_type, contract_needs
from ..engine.visibility import player_zone_shown, team_zone_shown
from ..mechanics.registry import present

#: the value of going out, above any position's worth
_OUT = 1 << 40


class GreedyBot:
    #: the share of a loose card's value forgiven while it links with another held card
    HOPE = 0.5
    #: the share forgiven while it is part of a meld in the hand (below 1: a meld laid down is better)
    WHOLE = 0.75
    #: a deal whose discards have become the stock this many times is stale: then half the time the
    #: bot picks among its ordinary actions at random, so that no deal cycles forever
    STALE = 2
    #: how fast an unfinished meld grows toward the worth of the book it would close into
    BOOK_POWER = 1.5

    def __init__(self, seed: Optional[int] = None):
        self.rng = random.Random(seed)
        self._prog = None
        self._kinds = None

    # ------------------------------------------------------------------ the program, read once
    def _setup(self, prog) -> None:
        self._prog = prog
        values = prog.cards.value
        self._mean = sum(values) / len(values) if values else 0
        self._by_score = not prog.sheds and (prog.each_team is not None or prog.each_player is not None)
        zones = prog.model.zones
        self._piles = [z for z in prog.table_zones if zones[z].visible in ("top", "all")]
        self._link = _linker(prog)
        rules = prog.table_rules
        self._closes = rules.closes_at if prog.books and rules is not None and rules.closes_at else None
        self._policies = {phase: policy for mech, _ in present(prog.model) if (policy := mech.greedy()) is not None
                          for phase in mech.flow}

    # ------------------------------------------------------------------ choose
    def choose(self, game) -> Action:
        if game.prog is not self._prog:
            self._setup(game.prog)
        self._book_gain = {}
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        verbs = {a.verb for a in actions}
        if "yes" in verbs:                                  # the partner asks to go out: let them
            return next(a for a in actions if a.verb == "yes")
        policy = self._policies.get(game.phase)
        if policy is not None:                              # a mechanic's own phase
            return policy(self, game, actions)
        if game.phase == "draft":
            return self._draft(game, actions)
        return self._best(game, actions)

    # ------------------------------------------------------------------ turns with melds and discards
    def _best(self, game, actions: list) -> Action:
        seat = game.current_player
        known = self._known(game, seat)
        now = []

        def now_value() -> float:
            if not now:
                now.append(self._worth(game.clone(), seat, known))
            return now[0]
        best, best_key = [], None
        keys = []
        for a in actions:
            key = self._judge(game, a, seat, known, now_value)
            keys.append(key)
            if best_key is None or key > best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        if best_key[0] == 0 and getattr(game, "reshuffles", 0) >= self.STALE and self.rng.random() < 0.5:
            best = [a for a, k in zip(actions, keys) if k[0] == 0]     # a stale deal: shake it up
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    def _judge(self, game, action: Action, seat: int, known: set, now) -> tuple:
        """(class, worth, blind): higher is better.  Class 2 goes out, 1 asks, 0 is everything else;
        ``blind`` prefers, on equal worth, an action whose result the seat cannot see (a stock draw)."""
        if action.verb == "ask":
            return (1, 0, 0)
        hand0 = game.hand_number
        c = game.clone()
        c.apply(action)
        if self._went_out(c, seat, hand0):
            kept = [x for x in game.pzones["hand"][seat] if game.prog.cards.text[x] not in action.cards]
            return (2, -self._prog.melds.deadwood_of(kept), 0)
        if c.hand_number != hand0 or c.is_over:
            return (0, round(now(), 6), 0)
        arrived = self._arrived(game, c, seat)
        unseen = [x for x in arrived if x not in known]
        if unseen:                                          # drawn blind: never read what came
            return (0, round(self._blind(c, seat, known, len(unseen)), 6), 1)
        if arrived and c.current_player == seat:            # cards came in and the seat acts again
            return (0, round(self._follow_up(c, seat, known), 6), 0)
        w = round(self._worth(c, seat, known), 6)
        if c.current_player == seat and w > round(now(), 6):   # a meld or layoff that helps: before the discard
            return (0.5, w, 0)
        return (0, w, 0)

    def _follow_up(self, c, seat: int, known: set) -> float:
        """The best worth one more action of the seat reaches (a take judged by the discard after it)."""
        hand0 = c.hand_number
        best = None
        for a in c.legal_actions():
            d = c.clone()
            d.apply(a)
            if self._went_out(d, seat, hand0):
                return _OUT
            if d.hand_number != hand0 or d.is_over:
                continue
            w = self._worth(d, seat, known)
            if best is None or w > best:
                best = w
        return self._worth(c.clone(), seat, known) if best is None else best

    def _blind(self, c, seat: int, known: set, unseen: int) -> float:
        """The neutral estimate of a blind draw, the same whatever was drawn: the seat then gives up
        one card, either an unseen one (the position as it was, the other unseen cards at the mean
        value) or one of its known cards (the unseen ones kept at the mean value)."""
        if not self._by_score and c.prog.reserve_zone is None:    # judged from the cards alone
            kept = [x for x in c.pzones["hand"][seat] if x in known]
            base = self._by_cards(kept) - unseen * self._mean
            best = base + self._mean
            for x in set(kept):
                rest = list(kept)
                rest.remove(x)
                w = self._by_cards(rest) - unseen * self._mean
                if w > best:
                    best = w
            return best
        base = self._worth(c.clone(), seat, known)
        best = base + self._mean
        for x in set(c.pzones["hand"][seat]):
            if x not in known:
                continue
            d = c.clone()
            d.pzones["hand"][seat].remove(x)
            w = self._worth(d, seat, known)
            if w > best:
                best = w
        return best

    def _went_out(self, c, seat: int, hand0: int) -> bool:
        if c.hand_number == hand0 and not c.is_over:
            return c.declarer == seat
        for entry in reversed(c.hand_log):
            if entry.get("hand") == hand0:
                return entry.get("declarer") == seat
        return False

    @staticmethod
    def _arrived(game, c, seat: int) -> list:
        before = set(game.pzones["hand"][seat])
        return [x for x in c.pzones["hand"][seat] if x not in before]

    # ------------------------------------------------------------------ what the seat can see
    def _known(self, game, seat: int) -> set:
        """Cards the seat has seen: its hand, the face-up piles, the melds on the table."""
        known = set(game.pzones["hand"][seat])
        down = game.face_down
        for z in self._piles:
            known.update(x for x in game.zones[z] if x not in down)
        for m in game.melds:
            known.update(m.cards)
        for m in game.table_melds:
            known.update(m)
        return known

    def worth(self, game, seat: int) -> float:
        """How good ``game`` is for ``seat`` by this bot's measure, reading every card of ``game`` as
        known: for a search that judges the positions of a world it dealt itself (a determinization),
        where nothing is hidden from it."""
        if game.prog is not self._prog:
            self._setup(game.prog)
        self._book_gain = {}
        known = set(range(len(game.prog.cards.ids)))
        return self._worth(game.clone(), seat, known)

    def _worth(self, c, seat: int, known: set) -> float:
        """The seat's position on ``c`` (a clone it may change), from what the seat can see."""
        self._kinds = None
        if self._prog.contract is not None and not c.team_melded[c.owner_of(seat)]:
            c.actor = seat                                  # a contract still to make: the kinds it asks for
            try:
                self._kinds = tuple(sorted(contract_needs(c)))
            except Exception:
                pass
        hand = c.pzones["hand"][seat]
        unseen = [x for x in hand if x not in known]
        reserve = c.prog.reserve_zone
        n_unseen = len(unseen)
        if reserve is not None and not c.picked_up[seat]:
            n_unseen += len(c.pzones[reserve][seat])
        penalty = n_unseen * self._mean
        if self._by_score:
            for x in unseen:
                hand.remove(x)
            self._hide(c, seat)
            try:
                score = self.score_now(c, seat)
                if self._closes:
                    score += self._books_to_come(c, seat, score)
                return score - penalty + self._hope(list(hand), list(hand))
            except Exception:                                # a rule that cannot be read mid-hand
                pass
        return self._by_cards([x for x in hand if x in known]) - penalty

    def _by_cards(self, kept: list) -> float:
        """Minus the deadwood of the seat's known cards (with what they may become)."""
        melds = self._prog.melds
        if melds.arranger is None:
            return -melds.deadwood_of(kept) + self._hope(kept, kept)
        loose = melds.arrange(kept)
        return -loose.points + self._hope(list(loose.deadwood), kept)

    def _hope(self, loose: list, hand: list) -> float:
        """What a hand may still become: the value of the cards that already form a meld of the
        ruleset's types in the hand (where they cannot be laid down yet), and a share (``HOPE``) of the
        value of each other card that could meld with a card the seat holds (a pair, two cards of a
        suit close in a run, a wild card)."""
        shape = self._link
        if shape is None:
            return 0
        value = self._prog.cards.value
        whole, linked = shape(loose, hand, self._kinds)
        return self.WHOLE * sum(value[x] for x in whole) + self.HOPE * sum(value[x] for x in linked)

    def _books_to_come(self, c, seat: int, score: float) -> float:
        """Where melds close into typed books that the scoring rewards: each unfinished meld of the
        seat's side counts for (its size / the closing size) ** ``BOOK_POWER`` times what the scoring adds for
        a book of the type it would be now.  That gain is measured on the ruleset's own scoring, once
        per type and decision (closing the meld on the copy and scoring again)."""
        owner = c.owner_of(seat)
        wild = self._prog.table_rules.wild
        closes = self._closes
        total = 0.0
        for m in c.melds:
            if m.owner != owner or m.book:
                continue
            kind = book_type(c, *m.counts(wild))
            gain = self._book_gain.get(kind)
            if gain is None:
                m.book = kind
                try:
                    gain = self.score_now(c, seat) - score
                finally:
                    m.book = None
                self._book_gain[kind] = gain
            frac = min(len(m.cards), closes) / closes
            total += frac ** self.BOOK_POWER * gain
        return total

    def _hide(self, c, seat: int) -> None:
        """Remove from the copy every card in a player or team zone the seat may not look at
        (``engine.visibility`` decides, as it does for ``view``)."""
        for z in c.pzones:
            for s, cards in enumerate(c.pzones[z]):
                if not player_zone_shown(c, z, s, seat):
                    while cards:
                        cards.pop()
        for z in c.tzones:
            for t, cards in enumerate(c.tzones[z]):
                if not team_zone_shown(c, z, t, seat):
                    while cards:
                        cards.pop()

    def score_now(self, c, seat: int) -> float:
        p = self._prog
        c.actor = seat
        if p.each_team is not None:
            c.team_cur = c.team_of(seat)
            return p.each_team(c)
        return p.each_player(c)

    # ------------------------------------------------------------------ the draft
    def _draft(self, game, actions: list) -> Action:
        """Keep a card of the upper half of the order of play (the lower half, where the lowest total
        wins), and pass the rest."""
        prog = game.prog
        look = prog.draft[2]
        seen = game.pzones[look][game.current_player]
        order = prog.card_play.rank_pos if prog.card_play is not None else prog.cards.value
        if not seen or not order:
            return actions[self.rng.randrange(len(actions))]
        high = order[seen[-1]] * 2 >= max(order)
        keep = high != (prog.model.match.winner == "lowest")
        return next((a for a in actions if a.verb == ("keep" if keep else "pass")), actions[0])

def _linker(prog):
    """``shape(loose, hand) -> (whole, linked)``: of the ``loose`` cards, those that form melds of the
    ruleset's types among themselves (found greedily, the most valuable meld first: sets and groups of
    allowed ranks, runs of one suit in a run's order; wild cards left aside), and the rest that could
    meld with another card of ``hand`` (same rank for sets and groups, same suit and at most two
    places apart in a run's order; a wild card links with anything).  None without meld types."""
    types = list(prog.model.melds.values())
    if not types or prog.sheds:
        return None
    cards = prog.cards
    rank_of, suit_of, value = cards.rank, cards.suit, cards.value
    wild = prog.wild or (False,) * cards.size
    ranks = list(cards.ranks)
    sets, runs = [], []
    for m in types:
        if m.kind in ("set", "group"):
            sets.append((frozenset(ranks.index(r) for r in m.ranks if r in ranks) if m.ranks else None, m.min))
        elif m.kind == "run":
            order = [ranks.index(r) for r in m.order if r in ranks] if m.order else list(range(len(ranks)))
            where: dict = {}
            for i, r in enumerate(order):
                where.setdefault(r, []).append(i)
            runs.append((where, len(order), m.min))

    def link(a: int, b: int, sets: list, runs: list) -> bool:
        if wild[a] or wild[b]:
            return True
        ra, rb = rank_of[a], rank_of[b]
        if ra < 0 or rb < 0:
            return False
        if ra == rb and any(allowed is None or ra in allowed for allowed, _ in sets):
            return True
        if suit_of[a] == suit_of[b] and ra != rb:
            for where, _, _ in runs:
                pa, pb = where.get(ra), where.get(rb)
                if pa and pb and min(abs(i - j) for i in pa for j in pb) <= 2:
                    return True
        return False

    def best_meld(pool: list, sets: list, runs: list):
        found, top, kind = None, 0, None
        by_rank: dict = {}
        for x in pool:
            by_rank.setdefault(rank_of[x], []).append(x)
        for r, xs in by_rank.items():
            for allowed, low in sets:
                if len(xs) >= max(low, 2) and (allowed is None or r in allowed):
                    v = sum(value[x] for x in xs) + len(xs)
                    if v > top:
                        found, top, kind = xs, v, "set"
        for where, size, low in runs:
            by_suit: dict = {}
            for x in pool:
                for i in where.get(rank_of[x], ()):
                    by_suit.setdefault(suit_of[x], {}).setdefault(i, x)
            for at in by_suit.values():
                i = 0
                while i < size:
                    j = i
                    while j in at:
                        j += 1
                    if j - i >= max(low, 2):
                        xs = list({at[k] for k in range(i, j)})
                        v = sum(value[x] for x in xs) + len(xs)
                        if v > top:
                            found, top, kind = xs, v, "run"
                    i = j + 1
        return found, kind

    all_sets, all_runs = sets, runs

    memo: dict = {}

    def shape(loose: list, hand: list, kinds: Optional[tuple] = None) -> tuple:
        """(memoised on the cards: a search asks about the same hands again and again)"""
        key = (tuple(sorted(loose)), tuple(sorted(hand)), kinds)
        hit = memo.get(key)
        if hit is None:
            if len(memo) > 50_000:
                memo.clear()
            hit = memo[key] = fresh(loose, hand, kinds)
        return hit

    def fresh(loose: list, hand: list, kinds: Optional[tuple]) -> tuple:
        sets, runs = all_sets, all_runs
        left = None
        if kinds is not None:                  # only the melds a contract still asks for, as many as it asks
            left = {"set": sum(k in ("set", "group") for k in kinds), "run": sum(k == "run" for k in kinds)}
            sets = sets if left["set"] else []
            runs = runs if left["run"] else []
        pool = [x for x in loose if not wild[x] and rank_of[x] >= 0]
        whole: list = []
        while True:
            if left is not None:
                meld, kind = best_meld(pool, sets if left["set"] else [], runs if left["run"] else [])
            else:
                meld, kind = best_meld(pool, sets, runs)
            if meld is None:
                break
            if left is not None:
                left[kind] -= 1
            whole.extend(meld)
            gone = set(meld)
            pool = [x for x in pool if x not in gone]
        done = set(whole)
        if left is not None:                   # a kind the contract has enough of links nothing more
            sets = sets if left["set"] > 0 else []
            runs = runs if left["run"] > 0 else []
        linked = [x for x in loose if x not in done and any(y != x and link(x, y, sets, runs) for y in hand)]
        return whole, linked
    return shape
