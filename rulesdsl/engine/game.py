"""The game state machine: a seeded match played under a compiled ruleset.

``legal_actions()`` lists what the player on turn may do; ``apply()`` checks an action against that
list *before* changing anything (so an illegal action leaves the state exactly as it was) and then
carries it out.  All chance comes from one ``random.Random(seed)``, so seed + ruleset + actions replay
the same game.

Flow of one hand (each part is present only if the ruleset declares it):
  deal -> first-turn offer of a pile's top card -> turns of steps (draw, then finish) ->
  a go-out (with an optional layoff window for the opponents) or the stock running out ->
  scoring -> next hand or match end (with end bonuses).
"""

from __future__ import annotations

import random
from typing import Any, Iterable, Optional, Sequence, Union

from ..compile.program import CAction, Program
from ..errors import IllegalAction
from .actions import Action, parse_action
from .zones import Cards

PASS = Action("pass")
DONE = Action("done")


class Game:
    # ------------------------------------------------------------------ setup
    def __init__(self, prog: Program, seed: Optional[int] = None, dealer: Optional[int] = None,
                 deck: Optional[Sequence[Union[str, int]]] = None, digest: str = ""):
        self.prog = prog
        self.n = prog.n
        self.seed = seed
        self.digest = digest
        self.rng = random.Random(seed)
        self.env: dict = {}
        self.scores = [0] * self.n
        self.hands_won = [0] * self.n
        self.hand_number = 0
        self.history: list[str] = []
        self.hand_log: list[dict] = []
        self.winner: Optional[int] = None
        self.is_over = False
        self.final_scores: Optional[list] = None
        first = prog.model.match.first_dealer
        if dealer is None:
            dealer = self.rng.randrange(self.n) if first == "random" else 0
        if not (isinstance(dealer, int) and 0 <= dealer < self.n):
            raise ValueError(f"dealer must be a seat from 0 to {self.n - 1}")
        self.dealer = dealer
        self._stack = self._parse_deck(deck) if deck is not None else None
        self._go_out_names = tuple(prog.go_out)
        self._start_hand()

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

    def _start_hand(self) -> None:
        p = self.prog
        self.hand_number += 1
        if self._stack is not None:
            order = self._stack
            self._stack = None
        else:
            order = list(p.cards.ids)
            self.rng.shuffle(order)
        bit = p.melds.bits
        self.zones = {z: Cards(bit) for z in p.table_zones}
        self.pzones = {z: [Cards(bit) for _ in range(self.n)] for z in p.player_zones}
        stock = self.zones["stock"]
        stock.extend(reversed(order))          # the end of the list is the top of the stock
        self.table_melds: list[list[int]] = []
        self.meld_owner: list[int] = []
        self.facts: dict = {}
        self.revealed = [False] * self.n
        self.taken = None
        self.cand = None
        self.ending = None
        self.declarer = None
        self.defender = None
        self.scorer = None
        self.final_deadwood = [0] * self.n
        n = self.n
        for item in p.deal:
            if item[0] == "deal":
                _, count, zone, _pos = item
                hands = self.pzones[zone]
                for _ in range(count):
                    for k in range(1, n + 1):
                        hands[(self.dealer + k) % n].append(stock.pop())
            else:
                _, zone, fact, _pos = item
                card = stock.pop()
                self.zones[zone].append(card)
                if fact:
                    self.facts[fact] = card
        self.step = 0
        self.forced_draw: Optional[str] = None
        self.go_out_only = False
        ft = p.first_turn
        if ft is not None:
            self.phase = "offer"
            self.offer_seats = [self._seat_word(w) for w in ft.to]
            self.offer_i = 0
            self.actor = self.offer_seats[0]
        else:
            self.phase = "turn"
            self.actor = (self.dealer + 1) % n
        self._legal: Optional[list] = None

    def _seat_word(self, word: str) -> int:
        return self.dealer if word == "dealer" else (self.dealer + 1) % self.n

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
        return total

    def hand_of(self, seat: int, zone: str = "hand") -> list[str]:
        return self.prog.cards.texts(sorted(self.pzones[zone][seat]))

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = [] if self.is_over else self._generate()
        return list(self._legal)

    def _generate(self) -> list[Action]:
        phase = self.phase
        if phase == "turn":
            out: list[Action] = []
            discard_outs = []
            for a in self.prog.steps[self.step].actions:
                if self.go_out_only and a.kind != "go_out":
                    continue
                if a.kind == "go_out" and self.prog.go_out[a.arg].discard != "none":
                    discard_outs.append(self.prog.go_out[a.arg])
                    continue
                out.extend(self._gen_action(a))
            if discard_outs:
                out.extend(self._gen_discard_go_outs(discard_outs))
            return out
        if phase == "offer":
            zone = self.prog.first_turn.offer
            out = [Action("take", zone)] if self.zones[zone] else []
            return out + [PASS]
        if phase == "layoff":
            return self._gen_layoffs() + [DONE]
        if phase == "last_chance":
            zone = "discard"
            return ([Action("take", zone)] if self._last_chance_ok() else []) + [PASS]
        return []

    def _gen_action(self, a: CAction) -> list[Action]:
        kind = a.kind
        if a.when is not None and kind != "go_out" and not a.when(self):
            return []
        if kind == "draw":
            if self.forced_draw is not None and a.arg != self.forced_draw:
                return []
            return [Action("draw", a.arg)] if self.zones[a.arg] else []
        if kind == "take":
            if self.forced_draw is not None:
                return []
            return [Action("take", a.arg)] if self.zones[a.arg] else []
        if kind == "pass":
            return [PASS]
        hand = self.pzones["hand"][self.actor]
        text = self.prog.cards.text
        if kind == "discard":
            forbid = a.forbid
            out = []
            seen = set()
            for c in sorted(hand):
                t = text[c]
                if t in seen:
                    continue
                if forbid is not None:
                    self.cand = c
                    bad = forbid(self)
                    self.cand = None
                    if bad:
                        continue
                seen.add(t)
                out.append(Action("discard", "", (t,)))
            return out
        if kind == "go_out":
            g = self.prog.go_out[a.arg]
            if g.discard == "none":
                return [Action(g.name)] if g.when(self) else []
            out = []
            seen = set()
            for c in sorted(hand):
                t = text[c]
                if t in seen:
                    continue
                seen.add(t)
                i = hand.index(c)
                del hand[i]
                try:
                    ok = g.when(self)
                finally:
                    hand.insert(i, c)
                if ok:
                    out.append(Action(g.name, "", (t,)))
            return out
        return []

    def _gen_discard_go_outs(self, go_outs: list) -> list[Action]:
        """Go-outs that discard a card: the condition is judged on the hand after that discard.

        Each candidate card is taken out once and every such go-out is judged on the rest."""
        hand = self.pzones["hand"][self.actor]
        text = self.prog.cards.text
        found = [[] for _ in go_outs]
        seen = set()
        for c in sorted(hand):
            t = text[c]
            if t in seen:
                continue
            seen.add(t)
            i = hand.index(c)
            del hand[i]
            try:
                for j, g in enumerate(go_outs):
                    if g.when(self):
                        found[j].append(Action(g.name, "", (t,)))
            finally:
                hand.insert(i, c)
        return [a for f in found for a in f]

    def _gen_layoffs(self) -> list[Action]:
        hand = self.pzones["hand"][self.actor]
        fits = self.prog.melds.fits
        text = self.prog.cards.text
        out = []
        for c in sorted(hand):
            for i, meld in enumerate(self.table_melds):
                if self.meld_owner[i] != self.actor and fits(c, meld):
                    out.append(Action("layoff", "", (text[c],), i + 1))
        return out

    def _last_chance_ok(self) -> bool:
        """Taking the last discard is allowed only if the taker could then go out at once."""
        pile = self.zones["discard"]
        if not pile:
            return False
        hand = self.pzones["hand"][self.actor]
        hand.append(pile[-1])
        try:
            return any(self._gen_action(a) for a in self._finish_go_outs())
        finally:
            hand.pop()

    def _finish_go_outs(self) -> list[CAction]:
        return [a for s in self.prog.steps for a in s.actions if a.kind == "go_out"]

    # ------------------------------------------------------------------ apply
    def apply(self, action: Union[Action, str]) -> None:
        """Carry out one action of the current player; illegal -> IllegalAction, state unchanged."""
        if self.is_over:
            raise IllegalAction("the match is over", "match end")
        if isinstance(action, str):
            action = parse_action(action, self._go_out_names)
        elif not isinstance(action, Action):
            raise IllegalAction(f"an action must be text or an Action, not {type(action).__name__}")
        action = self._canonical(action)
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise self._why_illegal(action)
        self.history.append(str(action))
        self._legal = None
        getattr(self, "_do_" + self.phase)(action)

    def _canonical(self, action: Action) -> Action:
        if not action.cards:
            return action
        cards = self.prog.cards
        fixed = []
        for t in action.cards:
            k = cards.parse_kind(t)
            if k is None:
                raise IllegalAction(f"`{t}` is not a card of this deck", "card notation")
            fixed.append(cards.kind_text[k])
        return action._replace(cards=tuple(fixed))

    def _find(self, zone: list, text: str) -> int:
        t = self.prog.cards.text
        for c in zone:
            if t[c] == text:
                return c
        raise IllegalAction(f"{text} is not there")  # unreachable after the legality check

    def _do_offer(self, action: Action) -> None:
        if action.verb == "take":
            self._take(action.zone)
            self.phase = "turn"
            self.step = self._step_after_draw()
            return
        self.offer_i += 1
        if self.offer_i < len(self.offer_seats):
            self.actor = self.offer_seats[self.offer_i]
            return
        ft = self.prog.first_turn
        self.phase = "turn"
        self.step = 0
        self.actor = self._seat_word(ft.if_all_pass.seat)
        self.forced_draw = ft.if_all_pass.draw

    def _step_after_draw(self) -> int:
        """The step that follows the drawing step (where a taken offer or last chance continues)."""
        for i, s in enumerate(self.prog.steps):
            if any(a.kind in ("draw", "take") for a in s.actions):
                return min(i + 1, len(self.prog.steps) - 1)
        return 0

    def _take(self, zone: str) -> None:
        card = self.zones[zone].pop()
        self.pzones["hand"][self.actor].append(card)
        self.taken = card

    def _do_turn(self, action: Action) -> None:
        verb = action.verb
        hand = self.pzones["hand"][self.actor]
        if verb == "draw":
            hand.append(self.zones[action.zone].pop())
            self.forced_draw = None
            self._next_step(action)
        elif verb == "take":
            self._take(action.zone)
            self._next_step(action)
        elif verb == "pass":
            self._next_step(action)
        elif verb == "discard":
            spec = self._spec_for(action)
            c = self._find(hand, action.cards[0])
            hand.remove(c)
            self.zones[spec.arg].append(c)
            self._end_turn()
        else:
            self._go_out(self.prog.go_out[verb], action)

    def _spec_for(self, action: Action) -> CAction:
        for a in self.prog.steps[self.step].actions:
            if a.kind == action.verb or (a.kind == "go_out" and a.arg == action.verb):
                return a
        raise AssertionError(action)

    def _next_step(self, action: Action) -> None:
        spec = self._spec_for(action) if action.verb != "pass" else None
        nxt = spec.then if spec is not None and spec.then is not None else self.step + 1
        if nxt == -1 or nxt >= len(self.prog.steps):
            self._end_turn()
        else:
            self.step = nxt

    def _end_turn(self) -> None:
        so = self.prog.stock_out
        if so is not None and so[0](self):
            if so[1](self):
                self.phase = "last_chance"
                self.actor = (self.actor + 1) % self.n
                self.taken = None
                return
            self._finish_hand(void=True)
            return
        self.actor = (self.actor + 1) % self.n
        self.step = 0
        self.taken = None

    def _do_last_chance(self, action: Action) -> None:
        if action.verb == "pass":
            self._finish_hand(void=True)
            return
        self._take(action.zone)
        self.phase = "turn"
        self.go_out_only = True
        self.step = self._step_after_draw()

    # ------------------------------------------------------------------ going out
    def _go_out(self, g, action: Action) -> None:
        hand = self.pzones["hand"][self.actor]
        if g.discard != "none":
            c = self._find(hand, action.cards[0])
            hand.remove(c)
            self.zones["discard"].append(c)
        self.ending = g.name
        self.declarer = self.actor
        self.defender = (self.actor + 1) % self.n
        self.revealed = [True] * self.n
        arranged = self.prog.melds.arrange(hand)
        self.final_deadwood[self.declarer] = arranged.points
        for meld in arranged.melds:
            for c in meld:
                hand.remove(c)
            self.table_melds.append(list(meld))
            self.meld_owner.append(self.declarer)
        if g.layoffs == "opponents":
            self.phase = "layoff"
            self.actor = self.defender
            return
        self._settle_defender(layoffs=False)
        self._finish_hand(void=False)

    def _do_layoff(self, action: Action) -> None:
        hand = self.pzones["hand"][self.actor]
        if action.verb == "layoff":
            c = self._find(hand, action.cards[0])
            hand.remove(c)
            self.table_melds[action.target - 1].append(c)
            return
        self._settle_defender(layoffs=True)
        self._finish_hand(void=False)

    def _settle_defender(self, layoffs: bool) -> None:
        """The defender's final deadwood: their best arrangement, after the best further layoffs."""
        d = self.defender
        hand = self.pzones["hand"][d]
        melds = self.prog.melds
        if layoffs:
            others = [m for i, m in enumerate(self.table_melds) if self.meld_owner[i] != d]
            index = [i for i in range(len(self.table_melds)) if self.meld_owner[i] != d]
            points, lay = melds.best_layoffs(hand, others)
            for card, j in lay:
                hand.remove(card)
                self.table_melds[index[j]].append(card)
        arranged = melds.arrange(hand)
        self.final_deadwood[d] = arranged.points

    # ------------------------------------------------------------------ hand and match end
    def _finish_hand(self, void: bool) -> None:
        p = self.prog
        record: dict[str, Any] = {"hand": self.hand_number, "dealer": self.dealer}
        if void:
            self.ending = "void"
            record.update(ending="void", scorer=None, points=0)
            self.hand_log.append(record)
            self._start_hand()                 # the same dealer deals again
            return
        self.actor = self.declarer
        mult = p.multiplier(self)
        scorer = points = None
        for o in p.outcomes:
            if o.when(self):
                scorer = self.declarer if o.scorer == "declarer" else self.defender
                points = o.points(self) * mult
                break
        self.scorer = scorer
        if scorer is not None:
            self.scores[scorer] += points
            self.hands_won[scorer] += 1
        record.update(ending=self.ending, declarer=self.declarer, scorer=scorer, points=points or 0,
                      deadwood=list(self.final_deadwood))
        self.hand_log.append(record)
        if p.ends_when(self) and self._unique_leader() is not None:
            self._end_match()
            return
        if p.next_dealer is not None:
            self.dealer = p.next_dealer(self) % self.n
        else:
            self.dealer = (self.dealer + 1) % self.n
        self._start_hand()

    def _unique_leader(self) -> Optional[int]:
        best = max(self.scores)
        leaders = [s for s in range(self.n) if self.scores[s] == best]
        return leaders[0] if len(leaders) == 1 else None

    def _end_match(self) -> None:
        self.winner = self._unique_leader()
        eb = self.prog.end_bonus
        if eb is not None and eb[0](self):
            bonus = []
            for s in range(self.n):
                self.actor = s
                bonus.append(eb[1](self))
            for s in range(self.n):
                self.scores[s] += bonus[s]
        self.is_over = True
        self.phase = "over"
        self._legal = []

    # ------------------------------------------------------------------ explanations
    def _why_illegal(self, action: Action) -> IllegalAction:
        """Name the rule that forbids ``action`` now (and where it is written)."""
        legal = self._legal or []
        verbs = sorted({a.verb for a in legal})
        if self.phase == "turn" and action.verb not in verbs:
            step = self.prog.steps[self.step]
            for a in step.actions:
                if a.kind == action.verb or (a.kind == "go_out" and a.arg == action.verb):
                    break
            else:
                return IllegalAction(f"`{action}` is not allowed in the `{step.name}` step; "
                                     f"allowed: {', '.join(verbs) or 'nothing'}", f"turn step {step.name}")
        if self.phase == "turn":
            for a in self.prog.steps[self.step].actions:
                if a.kind == "go_out" and a.arg == action.verb:
                    g = self.prog.go_out[a.arg]
                    return IllegalAction(f"cannot {action.verb} now: the condition `{g.text}` does not hold",
                                         g.rule or f"go_out {g.name}", g.pos)
                if a.kind == action.verb:
                    if action.cards:
                        hand = self.pzones["hand"][self.actor]
                        texts = self.prog.cards.texts(hand)
                        if action.cards[0] not in texts:
                            return IllegalAction(f"{action.cards[0]} is not in your hand", "cards in hand")
                    if a.when is not None and not a.when(self):
                        return IllegalAction(f"`{action}` is not allowed now: `{a.spec.when.text}` does not hold",
                                             a.rule or f"{a.kind} condition", a.pos)
                    if a.forbid is not None:
                        return IllegalAction(f"`{action}` is forbidden: `{a.spec.forbid.text}`",
                                             a.rule or f"{a.kind} restriction", a.pos)
                    if action.verb in ("draw", "take") and self.forced_draw:
                        return IllegalAction(f"this turn must start with `draw {self.forced_draw}`",
                                             "first turn: both passed the upcard")
        return IllegalAction(f"`{action}` is not legal now ({self.phase}); legal: "
                             + ", ".join(str(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else ""),
                             f"{self.phase} phase")

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> dict:
        """Everything ``seat`` may see, as JSON-serialisable data, and nothing more."""
        p = self.prog
        t = p.cards.text
        zones = {}
        for z, spec in p.model.zones.items():
            if spec.per == "table":
                cards = self.zones[z]
                entry: dict[str, Any] = {"count": len(cards)}
                if spec.visible == "all":
                    entry["cards"] = [t[c] for c in cards]
                elif spec.visible == "top" and cards:
                    entry["top"] = t[cards[-1]]
                zones[z] = entry
            else:
                per = []
                for s in range(self.n):
                    cards = self.pzones[z][s]
                    entry = {"count": len(cards)}
                    if spec.visible == "all" or (spec.visible == "owner" and s == seat) or self.revealed[s]:
                        entry["cards"] = sorted(t[c] for c in cards)
                    per.append(entry)
                zones[z] = per
        return {
            "seat": seat,
            "players": self.n,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase,
            "step": p.steps[self.step].name if self.phase == "turn" else self.phase,
            "scores": list(self.scores),
            "hands_won": list(self.hands_won),
            "zones": zones,
            "melds": [{"owner": self.meld_owner[i], "cards": [t[c] for c in m]}
                      for i, m in enumerate(self.table_melds)],
            "last_hands": self.hand_log[-3:],
            "legal_actions": [str(a) for a in self.legal_actions()] if seat == self.current_player else [],
            "is_over": self.is_over,
            "winner": self.winner,
        }
