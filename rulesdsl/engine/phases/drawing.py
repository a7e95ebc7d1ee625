"""Drawing and discarding: turns made of steps, the first-turn offer, and the last chance.

A turn is the ruleset's list of steps; each step offers the actions its specs allow (draw from a zone,
take a pile's top card, discard with restrictions, go out, pass).  A discard ends the turn; at the end
of a turn the ``stock_out`` rule may end the hand (void) or give the next player a last chance to take
the discard, only to go out at once.
"""

from __future__ import annotations

from typing import Optional

from ...compile.program import CAction
from ...expr.compiler import Const
from ...errors import IllegalAction
from ..actions import Action
from .base import Phase, cards_where
from .going_out import go_out
from .melding import apply_layoff, apply_meld, apply_take, gen_layoffs, gen_melds, gen_takes, hand_emptied, \
    claim_options
from .going_out import named_layout
from .partnership import can_ask, discard_allowed, discard_refusal, placing_refusal

PASS = Action("pass")


def _never(when) -> bool:
    """A condition the parameters fold to a false constant."""
    return isinstance(when, Const) and not when.value


class TurnPhase(Phase):
    name = "turn"

    def __init__(self, prog) -> None:
        super().__init__(prog)
        discards = [a for s in prog.steps for a in s.actions if a.kind == "discard"]
        self.discard_forbid = discards[0].forbid if discards else None
        # partnership rules on discards (initial minimum, going out) apply only where declared
        self.partnership = (prog.initial_minimum is not None or prog.going_out is not None
                            or prog.contract is not None)
        self.claim = next(iter(prog.claims.values()), None) if prog.claims else None
        # steps with several entries of one kind on one zone (two `draw: stock` told apart by `when`):
        # there, the entry that produced each listed action is remembered, so its `then`, count and
        # marks are the ones applied
        self.ambiguous = [len({(a.kind, a.arg) for a in s.actions}) < len(s.actions) for s in prog.steps]
        #: per step, the zones it draws from, where a stock-out can end the hand (``run_dry``), else none
        self._drawn = [tuple(a.arg for a in s.actions if a.kind == "draw") if prog.stock_out else ()
                       for s in prog.steps]
        # restrictions that single out one card (`card == turn.taken`): forbid -> the card's rule
        self._forbid_card = {a.forbid: a.forbid_card for s in prog.steps for a in s.actions
                             if a.forbid_card is not None}
        # one action per card for the verbs listed card by card on every turn (a discard, a go-out that
        # discards): made once, not re-made for every card on every turn
        text = prog.cards.text
        self._per_card = {verb: tuple(Action(verb, "", (t,)) for t in text)
                          for verb in ("discard", *prog.go_out)}
        # a step that discards to several piles names the pile in each discard (`discard 2H to b`), so
        # the player chooses it and each pile's own `forbid` and `mark` apply
        self._names_pile = [bool(s.named_piles) for s in prog.steps]
        self._per_card_to = {z: tuple(Action("discard", z, (t,)) for t in text)
                             for s in prog.steps for z in s.named_piles}
        self._from_zone = {(verb, z): Action(verb, z) for verb in ("draw", "take") for z in prog.table_zones}
        self._distinct = prog.cards.distinct     # one card per text: no copy of a card to skip
        self._entry: dict = {}                   # (step, verb, zone) -> the step entry behind it
        # per step, the entries that can ever be offered: an entry whose condition, or whose go-out's
        # condition, the parameters fold to false is never listed (a go-out a parameter switches off)
        self._live = [[a for a in s.actions if not (_never(a.when) or (a.kind == "go_out" and
                                                                        _never(prog.go_out[a.arg].when)))]
                      for s in prog.steps]

    def reset(self, g) -> None:
        g.forced_draw = None
        g.go_out_only = False
        g.spec_of = None

    def meld_step(self) -> int:
        """The step where melding happens (a claimer continues there)."""
        for i, s in enumerate(self.prog.steps):
            if any(a.kind in ("meld", "layoff") for a in s.actions):
                return i
        return step_after_draw(self.prog)

    def enter(self, g) -> None:
        """Entered at the start of a hand, or with ``g._keep_actor`` from an offer, a claim or a
        last chance: the first two start the actor's turn afresh; a partner's answer does not."""
        keep = getattr(g, "_keep_actor", False)
        g._keep_actor = False
        if not keep:
            g.actor = g.next_seat(g.dealer)
            self.begin_turn(g)
        elif getattr(g, "_new_turn", False):
            self.begin_turn(g)
        g._new_turn = False

    def begin_turn(self, g) -> None:
        """A player's turn starts: per-turn state, and cards that never stay in a hand are laid out."""
        g.stage_total = 0
        g.staged_kinds = []
        g.drawn = None
        g.turn_begins(g.actor)
        g.answers = {}
        g.asked = False
        g.turn_in_reserve = bool(g.picked_up[g.actor]) if g.reserve_zone() else False
        g.auto_lay(g.actor)

    # ------------------------------------------------------------------ generate
    def generate(self, g) -> list[Action]:
        out: list[Action] = []
        discard_outs = []
        go_outs = self.prog.go_out
        g.discard_forbid = self.discard_forbid     # a go-out's own discard obeys the same restriction
        g.banned = None                            # cards the restriction refuses, judged once per step
        must = g.must
        track = self.ambiguous[g.step]
        g.spec_of = spec_of = {} if track else None  # listed action -> the entry that offered it (first wins)
        for a in self._live[g.step]:
            if g.go_out_only and a.kind != "go_out":
                continue
            if must and a.kind not in ("meld", "layoff"):
                continue                           # the card taken deep must be melded first
            if a.kind == "go_out" and go_outs[a.arg].discard != "none":
                if a.when is None or a.when(g):       # the action's own condition, then the go-out's
                    if not track:
                        discard_outs.append(go_outs[a.arg])
                    elif a.arg not in spec_of:
                        spec_of[a.arg] = a
                        discard_outs.append(go_outs[a.arg])
                continue
            acts = self.gen_action(g, a)
            if track:
                for x in acts:
                    spec_of.setdefault(x, a)
            out.extend(acts)
        if discard_outs:
            acts = self._gen_discard_go_outs(g, discard_outs)
            if track:
                for x in acts:
                    spec_of.setdefault(x, spec_of[x.verb])
            out.extend(acts)
        return out

    def gen_action(self, g, a: CAction) -> list[Action]:
        kind = a.kind
        if a.when is not None and not a.when(g):
            return []
        if kind == "draw":
            if g.forced_draw is not None and a.arg != g.forced_draw:
                return []
            return [self._from_zone["draw", a.arg]] if g.zones[a.arg] else []
        if kind == "ask":
            return [Action("ask")] if can_ask(g) else []
        if kind == "take":
            if g.forced_draw is not None:
                return []
            if a.spec.depth == "any" or a.must_meld is not None or a.meld_with is not None:
                return gen_takes(g, a)
            return [self._from_zone["take", a.arg]] if g.zones[a.arg] else []
        if kind == "pass":
            return [PASS]
        if kind == "meld":
            return gen_melds(g, a)
        if kind == "layoff":
            return gen_layoffs(g, a)
        hand = g.pzones["hand"][g.actor]
        text = self.prog.cards.text
        if kind == "discard":
            banned = self._banned(g, a.forbid)
            acts = self._per_card_to[a.arg] if self._names_pile[g.step] else self._per_card["discard"]
            if self._distinct and not self.partnership:       # the usual case: one test per card
                return [acts[c] for c in sorted(hand) if c not in banned]
            out = []
            seen = set()
            partnership = self.partnership
            for c in sorted(hand):
                t = text[c]
                if t in seen or c in banned:
                    continue
                if partnership and not discard_allowed(g, c):
                    continue
                seen.add(t)
                out.append(acts[c])
            return out
        if kind == "go_out":
            spec = self.prog.go_out[a.arg]
            if spec.discard == "none":
                return [Action(spec.name)] if spec.when(g) else []
            g.discard_forbid = self.discard_forbid  # as in generate(): the turn's discard restriction
            return self._gen_discard_go_outs(g, [spec])
        return []

    def _banned(self, g, forbid) -> set:
        """The hand's cards that a discard restriction refuses -- judged once per step, for both the
        `discard` action and the go-outs' own discards."""
        if forbid is None:
            return set()
        if g.banned is None or g.banned[0] is not forbid:
            hand = g.pzones["hand"][g.actor]
            single = self._forbid_card.get(forbid)
            if single is not None:             # `card == X`: X names the one card refused
                x = single(g) if hand else None
                g.banned = (forbid, {c for c in hand if c == x})
                return g.banned[1]
            g.banned = (forbid, set(cards_where(g, hand, forbid)))
        return g.banned[1]

    def _gen_discard_go_outs(self, g, go_outs: list) -> list[Action]:
        """Go-outs that discard a card: the condition is judged on the hand after that discard.

        Each candidate card is taken out once and every such go-out is judged on the rest.  The card
        must also be one the step's `discard` action allows (e.g. not the card just taken)."""
        hand = g.pzones["hand"][g.actor]
        text, value = self.prog.cards.text, self.prog.cards.value
        bit = hand._bit
        banned = self._banned(g, getattr(g, "discard_forbid", None))
        tests = [(spec.when, self._per_card[spec.name], []) for spec in go_outs]
        # every go-out needs deadwood(hand) <= K first: a card whose removal cannot bring the hand's
        # deadwood down to the largest K is skipped without judging anything (see compile.bounds)
        floor = None
        if all(spec.cap is not None for spec in go_outs):
            floor = go_outs[0].cap[1](g) - max(spec.cap[0] for spec in go_outs)
        if self._distinct:                 # one card per text: the candidates are the hand's cards
            cands = [c for c in sorted(hand) if c not in banned and (floor is None or value[c] >= floor)]
        else:                              # one candidate per text: the first copy in id order
            cands, seen = [], set()
            for c in sorted(hand):
                t = text[c]
                if t in seen:
                    continue
                seen.add(t)
                if c in banned or (floor is not None and value[c] < floor):
                    continue
                cands.append(c)
        remove, insert = list.__delitem__, list.insert
        for c in cands:
            # the card is taken out and put back at list level, the zone's mask kept by hand (the
            # scan's inner loop; Cards' own methods do the same one call deeper)
            i = hand.index(c)
            remove(hand, i)
            hand.mask ^= bit[c]
            try:
                for when, acts, found in tests:
                    if when(g):
                        found.append(acts[c])
            finally:
                insert(hand, i, c)
                hand.mask ^= bit[c]
        return [a for _w, _a, found in tests for a in found]

    # ------------------------------------------------------------------ apply
    def apply(self, g, action: Action, chosen: Action) -> None:
        verb = action.verb
        hand = g.pzones["hand"][g.actor]
        if verb == "draw":
            spec = self._spec_for(g, action)
            stock = g.zones[action.zone]
            for _ in range(min(spec.count(g), len(stock)) if spec.count is not None else 1):
                hand.append(stock.pop())
                g.drawn = hand[-1]
            g.forced_draw = None
            g.auto_lay(g.actor, "drawn")
            self._stay_or_move_on(g, action)
            if self.claim is not None and self.claim.kind == "buy" and g.phase == "turn" and not g.is_over:
                g.phases["claim"].open_buy(g)
        elif verb == "ask":
            g.asked = True
            g.asker = g.actor
            g.enter("answer")
        elif verb == "take":
            spec = self._spec_for(g, action)
            if spec.spec.depth == "any" or spec.must_meld is not None or spec.meld_with is not None:
                apply_take(g, action, spec)
            else:
                take(g, action.zone, spec.count(g) if spec.count is not None else 1)
            self._stay_or_move_on(g, action)
        elif verb == "pass":
            self._next_step(g, action)
        elif verb in ("meld", "layoff"):
            (apply_meld if verb == "meld" else apply_layoff)(g, action)
            if hand_emptied(g):
                return
            if not hand:                           # floating: melded out without going out
                self.end_turn(g, discarded=False)
            elif not self.prog.steps[g.step].repeat:
                self._next_step(g, action)
        elif verb == "discard":
            spec = self._spec_for(g, action)
            c = self._offered_copy(g, action.cards[0], spec.forbid)
            g.cand = c
            for name, cond in spec.marks.items():
                if cond(g):
                    g.marks.setdefault(name, {})[c] = g.actor
                    counts = g.mark_counts.setdefault(name, [0] * g.n)
                    counts[g.actor] += 1
            g.cand = None
            hand.remove(c)
            g.zones[spec.arg].append(c)
            if not hand and g.pick_up_reserve(g.actor):
                g.discarder = g.actor              # discarding out of the hand: the turn ends
                g.claim_zone = spec.arg
                self.end_turn(g)
                return
            if self.prog.table is not None and not hand:
                g.ending = self.prog.model.table.ending_by_discard
                g.declarer = g.actor
                g.finish_hand()                    # going out with the last discard: no claim on it
                return
            g.discarder = g.actor
            g.claim_zone = spec.arg
            g.buyable = c                          # the card a buy could take, while it lies on top
            self.end_turn(g)
        else:
            go_out(g, self.prog.go_out[verb], chosen if chosen.melds else action)

    def _offered_copy(self, g, text: str, forbid) -> int:
        """A copy of ``text`` that the listing allowed for a discard: two decks may give a hand two copies,
        one of them refused (the card just taken, say).  The restriction was judged for this hand when the
        step was listed (``g.banned``)."""
        hand = g.pzones["hand"][g.actor]
        banned = self._banned(g, forbid)
        names = self.prog.cards.text
        for c in hand:
            if names[c] == text and c not in banned and (not self.partnership or discard_allowed(g, c)):
                return c
        return g.find(hand, text)

    def _spec_for(self, g, action: Action) -> CAction:
        """The step entry behind a listed action: the one that offered it (where a step has several
        entries of a kind), else the step's only entry of that kind."""
        if g.spec_of is not None:
            a = g.spec_of.get(action)
            if a is not None:
                return a
        key = (g.step, action.verb, action.zone)
        a = self._entry.get(key)
        if a is None:                      # the first entry of the step that offers this verb (and zone)
            for a in self.prog.steps[g.step].actions:
                if a.kind == action.verb or (a.kind == "go_out" and a.arg == action.verb):
                    if action.verb in ("draw", "take", "discard") and action.zone and a.arg != action.zone:
                        continue
                    self._entry[key] = a
                    return a
            raise AssertionError(action)
        return a

    def counting(self, g, action: Action, chosen: Action) -> None:
        """``event.size`` of a draw or a take: the cards it moves (its count; all there are, if fewer)."""
        if action.verb not in ("draw", "take"):
            return
        if action.verb == "take" and action.cards:         # `take discard 3`: the game counted it
            return
        spec = self._spec_for(g, action)
        count = spec.count(g) if spec.count is not None else 1
        g.event_size = min(count, len(g.zones[action.zone])) if type(count) is int else 1

    def _stay_or_move_on(self, g, action: Action) -> None:
        """After a draw or a take: a `repeat` step stays put (only a discard, a pass or a going out
        leaves it); any other step moves on."""
        if not self.prog.steps[g.step].repeat:
            self._next_step(g, action)

    def _next_step(self, g, action: Action) -> None:
        spec = self._spec_for(g, action)
        if spec.then == -2:                        # then: end_hand
            g.ending = spec.spec.ending or "stock"
            g.finish_hand()
            return
        nxt = spec.then if spec.then is not None else g.step + 1
        if nxt == -1 or nxt >= len(self.prog.steps):
            self.end_turn(g)
        else:
            g.step = nxt

    def run_dry(self, g) -> bool:
        """A player whose step offers draws from zones now empty, and nothing else, has no legal action:
        the stock then runs out whatever ``stock_out.when`` says (``stock_out_result``: scored, void or
        reshuffled).  True when it did.  Checked after every action: the test of the zones comes first."""
        zones = g.zones
        if not any(not zones[z] for z in self._drawn[g.step]):
            return False
        try:
            if self.generate(g):
                return False
        except Exception:            # noqa: BLE001 -- listing fails: reported where the actions are listed
            return False
        self.stock_out_result(g)
        return True

    def stock_out_result(self, g) -> bool:
        """The stock-out's result: the hand is scored or void (False), or play goes on from a
        reshuffled stock (True)."""
        so = self.prog.stock_out
        if so[2] == "reshuffle" and self._reshuffle(g):
            return True
        if so[2] == "score" or (so[2] == "reshuffle" and so[4] == "score"):
            g.ending = so[3]
            g.finish_hand()
        else:
            g.finish_hand(void=True)
        return False

    def _reshuffle(self, g) -> bool:
        """``stock_out.result: reshuffle``: the discard pile, less its top card, shuffled face down into a
        new stock.  False when no card is there to shuffle (the hand is then void)."""
        pile = g.zones[self.prog.discard_zone] if self.prog.discard_zone else []
        if len(pile) < 2:
            return False
        top = pile.pop()
        cards = list(pile)
        while pile:
            pile.pop()
        pile.append(top)
        g.rng.shuffle(cards)
        stock = g.zones["stock"]
        for c in cards:
            g.face_down.discard(c)
            stock.insert(0, c)                     # under anything left in the stock
        g.reshuffles += 1
        return True

    def end_turn(self, g, discarded: bool = True) -> None:
        """The turn is over: count it (a turn begun in the reserve packet), then open the claim
        window on the discard, or go on."""
        if g.turn_in_reserve:
            g.reserve_turns[g.actor] += 1
        g.turn_in_reserve = False
        claim = self.claim
        if (discarded and claim is not None and claim.kind == "called" and claim.when(g)
                and claim_options(g, g.claim_zone)):
            g.enter("claim")
            return
        self.advance(g)

    def advance(self, g) -> None:
        """After a turn (and any claim window): the stock-out rule, then the next player."""
        g.taken_cards = []
        g.must = set()
        so = self.prog.stock_out
        if so is not None and so[0](g):
            if so[1](g):
                g.actor = g.next_seat(g.actor)
                g.taken = None
                g.enter("last_chance")
                return
            if not self.stock_out_result(g):
                return
        g.actor = g.next_seat(g.actor)
        g.step = 0
        g.taken = None
        if g.phase != "turn":                      # back from a claim window
            g._keep_actor = True
            g.enter("turn")
        self.begin_turn(g)

    def equivalent(self, g, action: Action, legal: list) -> Optional[Action]:
        """A meld names a set of cards: any order of the listed cards is the same meld.  A go-out that
        names its layout (`knock KC with ...`) is the listed go-out, when the layout is one of the hand's
        least-deadwood arrangements."""
        if action.melds and action.verb in self.prog.go_out:
            base = action._replace(melds=())
            if base in legal and named_layout(g, self.prog.go_out[action.verb], action) is not None:
                return legal[legal.index(base)]
            return None
        if action.verb != "meld":
            return None
        want = sorted(action.cards)
        return next((a for a in legal if a.verb == "meld" and sorted(a.cards) == want), None)

    # ------------------------------------------------------------------ explain
    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        if action.melds and action.verb in self.prog.go_out and action._replace(melds=()) in legal:
            return IllegalAction(f"`{action}`: the melds named must be melds of your hand (after the discard) "
                                 "leaving the least deadwood it can have", "go-out layout")
        verbs = sorted({a.verb for a in legal})
        step = self.prog.steps[g.step]
        specs = [a for a in step.actions if a.kind == action.verb or (a.kind == "go_out" and a.arg == action.verb)]
        if not specs:
            return IllegalAction(f"`{action}` is not allowed in the `{step.name}` step; "
                                 f"allowed: {', '.join(verbs) or 'nothing'}", f"turn step {step.name}")
        if action.verb == "discard":
            refused = self._explain_pile(g, action, specs)
            if refused is not None:
                return refused
            specs = [a for a in specs if a.arg == action.zone] or specs
        for a in specs:
            if a.kind == "go_out":
                if action.cards and action.cards[0] not in self.prog.cards.texts(g.pzones["hand"][g.actor]):
                    return IllegalAction(f"{action.cards[0]} is not in your hand", "cards in hand")
                return self._explain_go_out(g, action, a)
            if action.cards and action.cards[0] not in self.prog.cards.texts(g.pzones["hand"][g.actor]):
                return IllegalAction(f"{action.cards[0]} is not in your hand", "cards in hand")
            if action.verb in ("draw", "take") and g.forced_draw:
                return IllegalAction(f"this turn must start with `draw {g.forced_draw}`",
                                     "first turn: both players passed the offered card")
            if a.when is not None and not a.when(g):
                return self._refused_when(g, action, a)
            if action.verb in ("meld", "layoff") and self.partnership and action.cards:
                refused = placing_refusal(g, len(action.cards))
                if refused is not None:
                    return refused
            if action.verb == "discard" and self.partnership:
                hand = g.pzones["hand"][g.actor]
                card = next((c for c in hand if self.prog.cards.text[c] == action.cards[0]), None)
                refused = discard_refusal(g, card) if card is not None else None
                if refused is not None:
                    return refused
            if a.forbid is not None:
                return self._refused_forbid(g, action, a)
            if action.zone and action.zone != a.arg:
                return IllegalAction(f"`{action.verb}` works on `{a.arg}` here, not `{action.zone}`",
                                     f"turn step {step.name}", a.pos)
        return None

    def _explain_pile(self, g, action: Action, specs: list) -> Optional[IllegalAction]:
        """A discard that names no pile where the step discards to several, or names one it does not."""
        step = self.prog.steps[g.step]
        piles = list(dict.fromkeys(a.arg for a in specs))
        card = action.cards[0] if action.cards else "CARD"
        where = f"turn step {step.name}"
        if self._names_pile[g.step] and not action.zone:
            return IllegalAction(f"`{action}`: this step discards to {' or '.join(piles)}; name the pile, as in "
                                 f"`discard {card} to {piles[0]}`", where)
        if action.zone and action.zone not in piles:
            return IllegalAction(f"`{action}`: a discard goes to {' or '.join(piles)} here, not `{action.zone}`",
                                 where)
        if action.zone and not self._names_pile[g.step]:
            return IllegalAction(f"`{action}`: this step discards only to `{piles[0]}`; write `discard {card}`",
                                 where)
        return None

    def _refused_when(self, g, action: Action, a: CAction) -> IllegalAction:
        """A step entry whose own ``when`` is false: why, part by part."""
        trace = self.why_not(g, a.key + ".when")
        if trace is None:
            return IllegalAction(f"`{action}` is not allowed now: `{a.spec.when.text}` does not hold",
                                 a.rule or f"{a.kind} condition", a.pos)
        return IllegalAction(f"`{action}` is not allowed now", a.rule or f"{a.kind} condition", a.pos, trace)

    def _refused_forbid(self, g, action: Action, a: CAction) -> IllegalAction:
        """A card the entry's ``forbid`` refuses: why it holds for that card."""
        hand = g.pzones["hand"][g.actor]
        card = next((c for c in hand if self.prog.cards.text[c] == action.cards[0]), None) if action.cards else None
        expr = self.prog.rule_exprs.get(a.key + ".forbid")
        trace = None
        if card is not None and expr is not None:
            saved, g.cand = g.cand, card
            try:
                trace = self.prog.tracer().trace(expr, g, a.key + ".forbid", expr.pos, seat=g.actor)
            finally:
                g.cand = saved
        if trace is None or not trace.holds:
            return IllegalAction(f"`{action}` is forbidden: `{a.spec.forbid.text}`",
                                 a.rule or f"{a.kind} restriction", a.pos)
        return IllegalAction(f"`{action}` is forbidden", a.rule or f"{a.kind} restriction", a.pos, trace)

    def _explain_go_out(self, g, action: Action, a: CAction) -> IllegalAction:
        """A go-out refused: its step entry's own condition, or the go-out's condition judged as the
        listing judges it (on the hand without the card it discards), or the discard refused."""
        spec = self.prog.go_out[a.arg]
        rule, pos = spec.rule or f"go_out {spec.name}", spec.pos
        if a.when is not None and not a.when(g):
            return self._refused_when(g, action, a)
        hand = g.pzones["hand"][g.actor]
        text = self.prog.cards.text
        card = None
        if action.cards and spec.discard != "none":
            card = next((c for c in hand if text[c] == action.cards[0]), None)
        trace = self._go_out_trace(g, spec, card)
        if trace is not None and not trace.holds:
            head = f"cannot {action.verb} now" + (f" (after discarding {text[card]})" if card is not None else "")
            return IllegalAction(head, rule, pos, trace)
        if card is not None and card in self._banned(g, self.discard_forbid):
            return IllegalAction(f"cannot {action.verb} discarding {text[card]}: the turn's discard restriction "
                                 "refuses that card", rule, pos)
        return IllegalAction(f"cannot {action.verb} now: the condition `{spec.text}` does not hold", rule, pos)

    def _go_out_trace(self, g, spec, card):
        """The go-out's condition traced on the hand as the listing judges it: without ``card``."""
        expr = self.prog.rule_exprs.get(f"go_out.{spec.name}.when")
        if expr is None:
            return None
        tracer = self.prog.tracer()
        if card is None:
            return tracer.trace(expr, g, f"go_out.{spec.name}.when", expr.pos, seat=g.actor)
        hand = g.pzones["hand"][g.actor]
        i = hand.index(card)
        hand.remove(card)
        try:
            return tracer.trace(expr, g, f"go_out.{spec.name}.when", expr.pos, seat=g.actor)
        finally:
            hand.insert(i, card)

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "turn" and g.taken is not None:
            out["taken_this_turn"] = self.prog.cards.text[g.taken]


def forbidden(g, forbid, card: int) -> bool:
    """Whether a restriction (an expression over ``card``) refuses this card."""
    if forbid is None:
        return False
    saved, g.cand = g.cand, card
    try:
        return bool(forbid(g))
    finally:
        g.cand = saved


def take(g, zone: str, count: int = 1) -> None:
    """Move the top card of a pile (the top ``count``, all there are if fewer) to the acting player's
    hand, remembering them as taken this turn (``turn.taken``: the top one)."""
    pile, hand = g.zones[zone], g.pzones["hand"][g.actor]
    cards = [pile.pop() for _ in range(min(max(count, 1), len(pile)))]
    hand.extend(cards)
    g.taken = cards[0]
    g.taken_cards = cards
    g.auto_lay(g.actor, "taken")


def step_after_draw(prog) -> int:
    """The step that follows the drawing step (where a taken offer or a last chance continues)."""
    for i, s in enumerate(prog.steps):
        if any(a.kind in ("draw", "take") for a in s.actions):
            return min(i + 1, len(prog.steps) - 1)
    return 0


class OfferPhase(Phase):
    """The first turn: a pile's top card is offered to seats in order; all passing forces a draw."""

    name = "offer"

    def enter(self, g) -> None:
        ft = self.prog.first_turn
        g.offer_seats = [g.seat_word(w) for w in ft.to]
        g.offer_i = 0
        g.actor = g.offer_seats[0]

    def generate(self, g) -> list[Action]:
        zone = self.prog.first_turn.offer
        return ([Action("take", zone)] if g.zones[zone] else []) + [PASS]

    def apply(self, g, action: Action, chosen: Action) -> None:
        if action.verb == "take":
            g.step = step_after_draw(self.prog)
            g._keep_actor = g._new_turn = True
            g.enter("turn")
            take(g, action.zone)
            return
        g.offer_i += 1
        if g.offer_i < len(g.offer_seats):
            g.actor = g.offer_seats[g.offer_i]
            return
        ft = self.prog.first_turn
        g.step = 0
        g.actor = g.seat_word(ft.if_all_pass.seat)
        g.forced_draw = ft.if_all_pass.draw
        g._keep_actor = g._new_turn = True
        g.enter("turn")

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        zone = self.prog.first_turn.offer
        return IllegalAction(f"the first turn offers the top of `{zone}`: `take {zone}` or `pass`",
                             "first-turn offer", self.prog.first_turn.pos)


class LastChancePhase(Phase):
    """After the discard that exhausts the stock: take it only to go out at once, or pass (void hand)."""

    name = "last_chance"

    def enter(self, g) -> None:
        pass          # the actor was set by the turn that ended

    def generate(self, g) -> list[Action]:
        zone = self.prog.discard_zone
        return ([Action("take", zone)] if self._ok(g, zone) else []) + [PASS]

    def _ok(self, g, zone) -> bool:
        """Judged as the turn would be: the card in hand and remembered as taken this turn."""
        pile = g.zones.get(zone) if zone else None
        if not pile:
            return False
        turn = g.phases["turn"]
        hand = g.pzones["hand"][g.actor]
        saved = (g.taken, g.taken_cards, g.step)
        hand.append(pile[-1])
        g.taken, g.taken_cards, g.step = pile[-1], [pile[-1]], step_after_draw(self.prog)
        try:
            g.discard_forbid = turn.discard_forbid
            g.banned = None                    # the hand differs from any step judged before
            return any(turn.gen_action(g, a) for a in self.prog.steps[g.step].actions if a.kind == "go_out")
        finally:             # (``g.banned`` needs no restoring: every listing judges it afresh)
            hand.pop()
            g.taken, g.taken_cards, g.step = saved

    def apply(self, g, action: Action, chosen: Action) -> None:
        if action.verb == "pass":
            if g.phases["turn"].stock_out_result(g):  # a new stock: the player who passed plays on
                g.step = 0
                g.taken = None
                g._keep_actor = g._new_turn = True
                g.enter("turn")
            return
        g.go_out_only = True
        g.step = step_after_draw(self.prog)
        g._keep_actor = g._new_turn = True
        g.enter("turn")
        take(g, action.zone)

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        return IllegalAction("the stock is exhausted: the discard may be taken only to go out at once, "
                             "else `pass` ends the hand", "stock_out last_chance",
                             self.prog.model.stock_out.pos if self.prog.model.stock_out else None)
