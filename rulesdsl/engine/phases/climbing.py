"""Climbing: play a combination that beats the last one, or pass; tricks, finishing order, the exchange.

A play is 1..N cards of one rank (a joker is its own rank).  Leading, any play is allowed; otherwise
the ruleset's ``beats`` expression decides, over ``play.size``, ``play.rank`` (its position in the rank
order now in force, higher is stronger), ``last.size`` and ``last.rank``.  A trick ends when every
other active player has passed since the last play; its last player leads next, or, if they have gone
out, the next active player after them.  A hand ends when one player still holds cards.

State toggles (a revolution) flip the rank order and/or the turn direction when their condition holds
for a play; the play itself is judged under the order in force before it.

Suits never matter here, so the legal list offers one action per (rank, size) -- a bounded set -- and
``play`` with any other cards of that rank and size is accepted as the same choice.
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction, RuleEvaluationError
from ..actions import Action
from .base import Phase

PASS = Action("pass")


class ClimbPhase(Phase):
    name = "climb"
    keeps_chosen = True

    def __init__(self, prog) -> None:
        super().__init__(prog)
        self.c = prog.climbing
        self.pos = {k: i for i, k in enumerate(self.c.order)}     # rank key -> position, low to high
        self.top = len(self.c.order) - 1
        self.names = self.c.rank_names

    # ------------------------------------------------------------------ hand lifecycle
    def reset(self, g) -> None:
        c = self.c
        g.trick_last = None            # (size, rank key, player) of the play to beat
        g.pending = set()              # active seats that have not passed since the last play
        g.locked = set()               # seats out of this trick (pass_locks_out)
        g.finished = []                # seats out, first out first
        g.bottom = []                  # seats that went out but finish last (goes_last)
        g.streak = (None, 0)           # (rank key, count) of consecutive same-rank plays
        g.cplay = g.clast = None
        old = getattr(g, "state", {})
        g.state = {t.name: (False if t.resets(g) or t.name not in old else old[t.name]) for t in c.toggles}
        for t in c.toggles:
            if g.state[t.name] and t.reverses_direction(g):
                g.direction = -g.direction

    def enter(self, g) -> None:
        g.actor = c_first = self.c.first_leader(g) % g.n
        if not g.pzones[self.c.play_from][c_first]:
            g.actor = self._next_eligible(g, c_first)

    # ------------------------------------------------------------------ helpers
    def _eff(self, g, key: int) -> int:
        p = self.pos[key]
        return self.top - p if self._reversed(g) else p

    def _reversed(self, g) -> bool:
        return any(g.state[t.name] and t.reverses_order(g) for t in self.c.toggles)

    def _ctx(self, key: int, size: int, g) -> tuple:
        return (size, self._eff(g, key), self.names[key])

    def active(self, g) -> list[int]:
        hands = g.pzones[self.c.play_from]
        return [s for s in g.order if hands[s] and s not in g.finished and s not in g.bottom]

    def _next_eligible(self, g, seat: int) -> int:
        hands = g.pzones[self.c.play_from]
        s = seat
        for _ in range(g.n):
            s = g.next_seat(s)
            if hands[s] and s not in g.locked:
                return s
        return seat

    def _groups(self, g) -> dict:
        rank = self.prog.cards.rank
        groups: dict[int, list[int]] = {}
        for c in sorted(g.pzones[self.c.play_from][g.actor]):
            groups.setdefault(rank[c], []).append(c)
        return groups

    # ------------------------------------------------------------------ generate
    def generate(self, g) -> list[Action]:
        c = self.c
        text = self.prog.cards.text
        out = []
        last = g.trick_last
        if last is not None:
            g.clast = self._ctx(last[1], last[0], g)
        for key, cards in sorted(self._groups(g).items(), key=lambda kv: self.pos[kv[0]]):
            for size in range(c.min_size, min(len(cards), c.max_size) + 1):
                if last is not None:
                    g.cplay = self._ctx(key, size, g)
                    g.streak_now = g.streak[1] + 1 if g.streak[0] == key else 1
                    ok = c.beats(g)
                    g.cplay = None
                    if not ok:
                        continue
                out.append(Action("play", "", tuple(text[x] for x in cards[:size])))
        if last is not None:                  # the leader of a trick must play
            out.append(PASS)
        return out

    def equivalent(self, g, action: Action, legal: list) -> Optional[Action]:
        """Other cards of the same rank and number stand for the listed play."""
        if action.verb != "play" or not action.cards:
            return None
        cards = self.prog.cards
        keys = {cards.kind_rank[cards.parse_kind(t)] for t in action.cards}
        if len(keys) != 1 or not self._holds(g, action.cards):
            return None
        key = keys.pop()
        for a in legal:
            if a.verb == "play" and len(a.cards) == len(action.cards):
                if cards.kind_rank[cards.parse_kind(a.cards[0])] == key:
                    return a
        return None

    def _holds(self, g, texts) -> bool:
        pool = list(self.prog.cards.texts(g.pzones[self.c.play_from][g.actor]))
        for t in texts:
            if t not in pool:
                return False
            pool.remove(t)
        return True

    # ------------------------------------------------------------------ apply
    def apply(self, g, action: Action, chosen: Action) -> None:
        if action.verb == "pass":
            self._pass(g)
        else:
            self._play(g, chosen)

    def _play(self, g, chosen: Action) -> None:
        c = self.c
        me = g.actor
        hand = g.pzones[c.play_from][me]
        trick = g.zones[c.to]
        ids = []
        for t in chosen.cards:
            card = g.find(hand, t)
            hand.remove(card)
            trick.append(card)
            ids.append(card)
        key = self.prog.cards.rank[ids[0]]
        size = len(ids)
        last = g.trick_last
        g.cplay = self._ctx(key, size, g)
        g.clast = self._ctx(last[1], last[0], g) if last is not None else None
        g.streak = (key, g.streak[1] + 1 if g.streak[0] == key else 1)
        g.streak_now = g.streak[1]
        skip = bool(c.skip_next(g)) if (c.skip_next and last is not None) else False
        clears = bool(c.clears_trick(g)) if c.clears_trick else False
        held_key = last[1] if (last is not None and c.takes_last_rank and c.takes_last_rank(g)) else key
        for t in c.toggles:                                   # judged under the order before the play
            if t.when(g):
                g.state[t.name] = not g.state[t.name]
                if t.reverses_direction(g):
                    g.direction = -g.direction
        goes_last = bool(c.goes_last(g)) if (c.goes_last and not hand) else False
        g.cplay = g.clast = None
        g.trick_last = (size, held_key, me)
        if not hand:
            (g.bottom if goes_last else g.finished).append(me)
        active = self.active(g)
        if len(active) <= 1:
            self._end_deal(g, active)
            return
        if clears:
            self._end_trick(g, me)
            return
        g.pending = {s for s in active if s != me and s not in g.locked}
        if not g.pending:
            self._end_trick(g, me)
            return
        nxt = me
        for _ in range(2 if skip else 1):
            nxt = self._next_eligible(g, nxt)
        g.actor = nxt

    def _pass(self, g) -> None:
        me = g.actor
        g.pending.discard(me)
        if self.c.pass_locks_out(g):
            g.locked.add(me)
        if not g.pending:
            self._end_trick(g, g.trick_last[2])
            return
        g.actor = self._next_eligible(g, me)

    def _end_trick(self, g, last_player: int) -> None:
        c = self.c
        trick = g.zones[c.to]
        g.zones[c.cleared_to].extend(trick)
        while trick:
            trick.pop()
        g.trick_last = None
        g.pending = set()
        g.locked = set()
        g.streak = (None, 0)
        hands = g.pzones[c.play_from]
        g.actor = last_player if hands[last_player] else self._next_eligible(g, last_player)

    def _end_deal(self, g, active: list[int]) -> None:
        order = g.finished + active + list(reversed(g.bottom))
        g.final_order = order
        g.previous_order = list(order)
        g.ending = "out"
        roles = self.prog.roles_for(g.n)
        g.finish_hand(order=list(order), roles=[roles[i][0] for i in range(len(order))] if roles else [])

    # ------------------------------------------------------------------ explain and view
    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        c = self.c
        if action.verb == "pass":
            return IllegalAction("the leader of a trick must play; a lead cannot be passed", "climbing lead",
                                 c.pos)
        if action.verb != "play":
            return IllegalAction(f"`{action.verb}` is not a move here: `play CARDS` or `pass`", "climbing")
        if not self._holds(g, action.cards):
            return IllegalAction("those cards are not in your hand", "cards in hand")
        cards = self.prog.cards
        keys = {cards.kind_rank[cards.parse_kind(t)] for t in action.cards}
        if len(keys) != 1:
            return IllegalAction("a play is one card or a set of cards of one rank", "combination", c.pos)
        if not c.min_size <= len(action.cards) <= c.max_size:
            return IllegalAction(f"a play has {c.min_size} to {c.max_size} cards", "combination", c.pos)
        last = g.trick_last
        if last is not None:
            return IllegalAction(f"`{action}` does not beat the last play "
                                 f"({' '.join(cards.texts(g.zones[c.to][-last[0]:]))}): `{c.beats_text}`",
                                 "beats", c.beats_pos)
        return None

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase != "climb" and not getattr(g, "finished", None):
            return
        text = self.prog.cards.text
        last = g.trick_last
        out["trick"] = {
            "last_play": [text[c] for c in g.zones[self.c.to][-last[0]:]] if last else [],
            "last_player": last[2] if last else None,
            "to_beat_rank": self.names[last[1]] if last else None,
            "passed": sorted(set(self.active(g)) - g.pending - {last[2]} if last else set()),
            "locked_out": sorted(g.locked),
        }
        out["finished"] = list(g.finished)
        out["state"] = dict(g.state)
        roles = self.prog.roles_for(g.n)
        if roles and g.previous_order:
            out["roles"] = {s: roles[i][0] for i, s in enumerate(g.previous_order)}


class ExchangePhase(Phase):
    """Cards passed between roles before the first lead, one card per action (``give CARD``)."""

    name = "exchange"

    def applies(self, g) -> bool:
        return bool(g.previous_order) and len(g.previous_order) == g.n and self._first(g, 0) is not None

    def _first(self, g, i: int) -> Optional[int]:
        """The first exchange step from ``i`` on that applies and asks for at least one card."""
        steps = self.prog.exchange
        while i < len(steps) and not (steps[i].when(g) and self._count(g, i) > 0):
            i += 1
        return i if i < len(steps) else None

    def _count(self, g, i: int) -> int:
        """How many cards exchange step ``i`` passes (0: the step is skipped)."""
        step = self.prog.exchange[i]
        n = step.count(g)
        if type(n) is not int or n < 0:
            raise RuleEvaluationError(f"the exchange gives {n!r} cards; it must be a whole number, 0 or more",
                                      f"exchange[{i}].count", step.pos)
        return n

    def _seat(self, g, position: int) -> int:
        order = g.previous_order
        return order[position - 1] if position > 0 else order[position]

    def enter(self, g) -> None:
        g.xstep = self._first(g, 0)
        g.xgiven = 0
        g.xcount = self._count(g, g.xstep)
        g.actor = self._seat(g, self.prog.exchange[g.xstep].giver)

    def generate(self, g) -> list[Action]:
        step = self.prog.exchange[g.xstep]
        hand = g.pzones["hand"][g.actor]
        cards = self.prog.cards
        how = step.cards(g)
        pool = sorted(hand)
        if how in ("highest", "lowest") and pool:
            climb = self.prog.climbing
            pos = {k: i for i, k in enumerate(climb.order)}
            vals = [pos[cards.rank[c]] for c in pool]
            want = max(vals) if how == "highest" else min(vals)
            pool = [c for c, v in zip(pool, vals) if v == want]
        seen, out = set(), []
        for c in pool:
            t = cards.text[c]
            if t not in seen:
                seen.add(t)
                out.append(Action("give", "", (t,)))
        return out

    def apply(self, g, action: Action, chosen: Action) -> None:
        step = self.prog.exchange[g.xstep]
        giver, receiver = g.actor, self._seat(g, step.receiver)
        card = g.find(g.pzones["hand"][giver], action.cards[0])
        g.pzones["hand"][giver].remove(card)
        g.pzones["hand"][receiver].append(card)
        g.xgiven += 1
        if g.xgiven < g.xcount:                # the count judged when the step began
            return
        nxt = self._first(g, g.xstep + 1)
        if nxt is None:
            g.enter("climb")
            return
        g.xstep, g.xgiven, g.xcount = nxt, 0, self._count(g, nxt)
        g.actor = self._seat(g, self.prog.exchange[nxt].giver)

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        step = self.prog.exchange[g.xstep]
        return IllegalAction(f"the exchange: give {step.cards(g)} card(s); legal: "
                             + ", ".join(str(a) for a in legal), "exchange", step.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "exchange":
            step = self.prog.exchange[g.xstep]
            out["exchange"] = {"giver": g.actor, "receiver": self._seat(g, step.receiver),
                               "cards": step.cards(g), "given": g.xgiven, "count": g.xcount}
