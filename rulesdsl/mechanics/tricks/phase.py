"""Trick play: each player in turn plays one card to the trick; the strongest card takes it.

The leader of the first trick is the ruleset's ``first_leader`` (and must lead ``opening_lead`` when
holding it); afterwards whoever took the last trick leads.  Which cards are legal is decided in three
filters, each of which gives way when it would leave nothing:

* leading: the cards ``may_lead`` allows (a suit not yet broken), unless the leader holds none;
* following: the cards of the led suit (``suit_of``: jokers may count as trumps), when ``follow``
  holds and the player has one;
* then ``may_play`` (no point cards on the first trick), unless it would forbid every card left.

So a player always has a legal card while holding any.  A trick is complete when every player who
held cards when it was led has played; the card of greatest strength takes it (``strength``, or by
default the highest trump, else the highest card of the led suit; the first played among equals), into
the taker's ``won_to`` zone.  The deal ends when the player to lead holds no card.
"""

from __future__ import annotations

from typing import Optional

from ...errors import IllegalAction, RuleEvaluationError
from ...engine.actions import Action
from ...engine.phases.base import Phase, cards_where


class TrickPhase(Phase):
    name = "tricks"

    def __init__(self, prog) -> None:
        super().__init__(prog)
        self.t = prog.tricks
        self.suit_names = prog.cards.suits

    def governs(self, g) -> tuple:
        return "tricks", self.t.pos

    # ------------------------------------------------------------------ hand lifecycle
    def reset(self, g) -> None:
        g.t_led = None                  # the suit led to the current trick
        g.t_number = 1                  # the current trick's number in the deal
        g.t_leader = None
        g.t_trump = None
        g.t_broken = {name: False for name, _ in self.t.broken}
        g.t_won = [0] * g.n             # tricks taken this deal, per seat
        g.t_players = []                # who played to the current trick, in order (its cards: the `to` zone)
        g.t_size = 0                    # how many play to the current trick
        g.t_opening = None              # the kind the first lead of the deal must be (when held)

    def enter(self, g) -> None:
        t = self.t
        if t.trump is not None:
            trump = t.trump(g)
            if trump is not None and trump not in self.suit_names:
                raise RuleEvaluationError(f"`trump` gives {trump!r}; it must be a suit ({', '.join(self.suit_names)}) "
                                          "or none", "tricks.trump", t.pos)
            g.t_trump = trump
        if t.opening_lead is not None:
            text = t.opening_lead(g)
            kind = self.prog.cards.parse_kind(text) if isinstance(text, str) else None
            if text is not None and kind is None:
                raise RuleEvaluationError(f"`opening_lead` gives {text!r}, which is not a card of this deck",
                                          "tricks.opening_lead", t.pos)
            g.t_opening = kind
        leader = t.first_leader(g)
        if type(leader) is not int:
            raise RuleEvaluationError(f"`first_leader` gives {leader!r}; it must be a seat", "tricks.first_leader",
                                      t.pos)
        self._lead(g, leader % g.n)

    def _lead(self, g, seat: int) -> None:
        """``seat`` leads a new trick: everyone then holding cards plays to it."""
        hands = g.pzones[self.t.play_from]
        g.turn_begins(seat)
        g.t_leader = seat
        g.t_led = None
        g.t_players = []
        g.t_size = sum(1 for h in hands if h)

    # ------------------------------------------------------------------ legal plays
    def playable(self, g) -> list[int]:
        """The cards the player on turn may play now (card ids, in hand order)."""
        t = self.t
        hand = list(g.pzones[t.play_from][g.actor])
        if not g.t_players:
            if g.t_number == 1 and g.t_opening is not None:
                kinds = self.prog.cards.kind
                forced = [c for c in hand if kinds[c] == g.t_opening]
                if forced:
                    return forced[:1]
            pool = self._allowed(g, hand, t.may_lead)
        elif t.follow(g):
            suit_of = t.suit_of
            same = [c for c in hand if suit_of[c] == g.t_led]
            pool = same or hand
        else:
            pool = hand
        return self._allowed(g, pool, t.may_play)

    def _allowed(self, g, cards: list[int], rule) -> list[int]:
        """The cards ``rule`` (over ``card``) allows, or all of them when it allows none."""
        if rule is None:
            return cards
        return cards_where(g, cards, rule) or cards

    def generate(self, g) -> list[Action]:
        text = self.prog.cards.text
        seen, out = set(), []
        for c in sorted(self.playable(g)):
            if text[c] not in seen:
                seen.add(text[c])
                out.append(Action("play", "", (text[c],)))
        return out

    # ------------------------------------------------------------------ apply
    def apply(self, g, action: Action, chosen: Action) -> None:
        t = self.t
        me = g.actor
        hand = g.pzones[t.play_from][me]
        card = g.find(hand, action.cards[0])
        hand.remove(card)
        g.zones[t.to].append(card)
        if not g.t_players:
            g.t_led = t.suit_of[card]
        g.t_players.append(me)
        for name, table in t.broken:
            if table[card]:
                g.t_broken[name] = True
        if len(g.t_players) < g.t_size:
            g.turn_begins(self._next_holding(g, me))
            return
        self._end_trick(g)

    def _next_holding(self, g, seat: int) -> int:
        hands = g.pzones[self.t.play_from]
        nxt = g.next_seat(seat)
        for _ in range(g.n):
            if hands[nxt] and nxt not in g.t_players:
                return nxt
            nxt = g.next_seat(nxt)
        raise RuleEvaluationError("no player is left to play to the trick", "tricks", self.t.pos)

    def _end_trick(self, g) -> None:
        t = self.t
        trick = g.zones[t.to]
        winner = g.t_players[self._strongest(g, list(trick))]
        won = (g.tzones[t.won_to][g.team_of(winner)] if t.won_to in g.tzones else g.pzones[t.won_to][winner])
        won.extend(trick)
        while trick:
            trick.pop()
        g.t_won[winner] += 1
        g.t_number += 1
        g.begins("trick")
        if not g.pzones[t.play_from][winner]:
            g.t_led, g.t_players = None, []
            g.ending = "tricks"
            g.finish_hand(tricks=list(g.t_won))
            return
        self._lead(g, winner)

    def _strongest(self, g, cards: list[int]) -> int:
        """The index of the card that takes the trick: the greatest strength, the first among equals."""
        t = self.t
        if t.strength is None:
            suit_of, pos, trump, led = t.suit_of, t.rank_pos, g.t_trump, g.t_led
            keys = [(2 if trump is not None and suit_of[c] == trump else 1 if suit_of[c] == led else 0, pos[c])
                    for c in cards]
        else:
            keys = []
            saved = g.cand
            try:
                for c in cards:
                    g.cand = c
                    v = t.strength(g)
                    if isinstance(v, bool) or not isinstance(v, (int, float)):
                        raise RuleEvaluationError(f"`strength` gives {v!r} for {self.prog.cards.text[c]}; it must "
                                                  "be a number", "tricks.strength", t.pos)
                    keys.append(v)
            finally:
                g.cand = saved
        best = 0
        for i in range(1, len(keys)):
            if keys[i] > keys[best]:
                best = i
        return best

    # ------------------------------------------------------------------ explain and view
    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        t = self.t
        if action.verb != "play" or len(action.cards) != 1:
            return IllegalAction("play one card: `play CARD`", "tricks", t.pos)
        cards = self.prog.cards
        kind = cards.parse_kind(action.cards[0])
        hand = g.pzones[t.play_from][g.actor]
        if not any(cards.kind[c] == kind for c in hand):
            return IllegalAction(f"{action.cards[0]} is not in your hand", "cards in hand")
        shown = ", ".join(str(a) for a in legal)
        if not g.t_players and g.t_number == 1 and g.t_opening is not None:
            return IllegalAction(f"the first lead must be {cards.kind_text[g.t_opening]}", "tricks.opening_lead",
                                 t.pos)
        if g.t_players and any(t.suit_of[c] == g.t_led for c in hand):
            return IllegalAction(f"you must follow the led suit ({g.t_led}); legal: {shown}", "tricks.follow", t.pos)
        if not g.t_players:
            return IllegalAction(f"that card may not lead now; legal: {shown}", "tricks.may_lead", t.pos,
                                 self.why_not(g, "tricks.may_lead"))
        return IllegalAction(f"that card may not be played now; legal: {shown}", "tricks.may_play", t.pos)

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase != "tricks" and g.t_number == 1:
            return
        text = self.prog.cards.text
        out["trick"] = {
            "number": g.t_number,
            "leader": g.t_leader,
            "led": g.t_led,
            "trump": g.t_trump,
            "plays": [{"seat": s, "card": text[c]} for s, c in zip(g.t_players, g.zones[self.t.to])],
            "tricks_won": list(g.t_won),
            "broken": dict(g.t_broken),
        }
