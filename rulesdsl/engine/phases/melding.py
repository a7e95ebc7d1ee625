"""Open melds: start a meld, lay off onto any meld, take deep into a spread pile, claim a discard.

These are action kinds of the turn's steps (``meld: any``, ``layoff: any``, ``take`` with
``depth: any``), used by ``TurnPhase``, plus the ``ClaimPhase`` window after a discard.

* Candidates stay small: a new meld is offered at its minimum size only; longer melds grow one card
  at a time by laying off.  A wild card is offered with each identity it could take (``Jk=10H``).
* A deep take (``take discard 4``: the top four cards) is legal only if the deepest card taken can be
  melded at once; until it is, the only legal actions are melds or layoffs that use it.
* A meld or layoff is refused if it would leave the player with cards but no legal discard, or a
  card that must be melded this turn with no place to go.
* Of several copies of a card (several decks), an action moves the one a look-ahead judged: a card
  that must be melded first, then the card just taken, then cards held before the turn
  (``copy_key``).
* Each placed card remembers who placed it, so a layoff scores for the player who made it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Optional

from ...errors import IllegalAction, RuleEvaluationError
from ..actions import Action
from .base import Phase, cards_where
from .partnership import (after_placing, close_book, contract_allows, in_last_packet, kept_when_not_out,
                          leaves_enough, meld_rank, minimum_reachable, new_meld_allowed, staging)

PASS = Action("pass")


def _text(g, card: int, kind: int) -> str:
    cards = g.prog.cards
    t = cards.text[card]
    return f"{t}={cards.kind_text[kind]}" if g.prog.wild[card] and kind != cards.kind[card] else t


# ---------------------------------------------------------------------------------------- generate
def copy_key(g):
    """The order in which copies of a card are used: one that must be melded now, then the card just
    taken (it may not be discardable), then cards held before the turn, then the other cards taken;
    the generators judge with, and ``_resolve`` moves, the first copy in this order."""
    must, top, taken = g.must, g.taken, g.taken_cards
    return lambda c: (c not in must, c != top, c in taken, c)


def gen_melds(g, spec, first: bool = False) -> list[Action]:
    rules = g.prog.table_rules
    hand = g.pzones["hand"][g.actor]
    out = []
    for pairs in (rules.iter_new_melds if first else rules.new_melds)(hand, g.must, key=copy_key(g)):
        cards = [c for c, _ in pairs]
        if (new_meld_allowed(g, pairs) and minimum_reachable(g, cards, rank=meld_rank(g, pairs), how=pairs)
                and (g.prog.contract is None or not staging(g) or contract_allows(g, pairs))
                and _placement_ok(g, cards, new_meld=pairs)):
            out.append(Action("meld", "", tuple(_text(g, c, k) for c, k in pairs)))
            if first:
                break
    return out


def _new_meld_route(g) -> bool:
    """Some allowed new meld holds every card that must be placed now."""
    return any(new_meld_allowed(g, p) for p in g.prog.table_rules.iter_new_melds(g.pzones["hand"][g.actor], g.must))


def _common_rank(g, cards) -> Optional[int]:
    """The rank a group of cards that must go down together shares (-1: wild cards only)."""
    rules = g.prog.table_rules
    naturals = [c for c in cards if not rules.wild[c]]
    kinds = g.prog.cards.kind
    ranks = {g.prog.cards.kind_rank[kinds[c]] for c in naturals}
    return ranks.pop() if len(ranks) == 1 else (-1 if not naturals else -2)


def gen_layoffs(g, spec, first: bool = False) -> list[Action]:
    rules = g.prog.table_rules
    hand = g.pzones["hand"][g.actor]
    out, texts = [], set()
    if len(g.must) > 1 and _new_meld_route(g):
        return []                  # several cards must go down together: a new meld does that
    owner = g.owner_of(g.actor)
    together = _common_rank(g, g.must) if len(g.must) > 1 else None
    text = g.prog.cards.text
    # the melds a card may go onto, each with its layoff table (worked out once per meld state)
    targets = [(i, m) for i, m in enumerate(g.melds)
               if not (spec.arg == "own" and m.owner != owner)
               and not (together is not None and m.rank != together)]   # (cards that must go down together
    if not targets:                                                   # go onto a meld of their rank)
        return out
    layoff_kinds, wild, kind_of = rules.layoff_kinds, rules.wild, g.prog.cards.kind
    tables = [rules._layoffs(m)[0] for _, m in targets]     # natural kind -> its layoffs
    for c in sorted(hand, key=copy_key(g)):
        if g.must and c not in g.must:
            continue
        if text[c] in texts:
            continue                   # one copy of a card is judged, and moved (``_resolve``)
        texts.add(text[c])
        k = None if wild[c] else kind_of[c]
        for (i, m), table in zip(targets, tables):
            for kind, end in (layoff_kinds(m, c) if k is None else table.get(k, ())):
                if minimum_reachable(g, [c], meld=m, how=(kind, end)) and _placement_ok(g, [c], onto=(i, kind, end)):
                    out.append(Action("layoff", "", (_text(g, c, kind),), i + 1))
                    if first:
                        return out
    return out


def _place(g, cards: list, new_meld=None, onto: Optional[tuple] = None) -> tuple:
    """Place ``cards`` -- as the new meld ``new_meld`` (pairs), or laid off ``onto`` = (meld index,
    kind, end) -- with books closed and typed, for a look-ahead to judge conditions (going out, a way
    to end the turn) on the position as it will be.  Returns what ``_unplace`` needs to restore it;
    if placing fails part-way, what was done is undone before the error goes on.  (Plain calls, not a
    context manager: this runs for every candidate meld and layoff.)"""
    hand = g.pzones["hand"][g.actor]
    must = g.must
    removed: list = []                  # (index, card), to put back where they were
    undo = [must, removed, None]        # None, or the meld slot: -1 (a meld was added) / (index, meld)
    g.must = must - set(cards)
    try:
        for c in cards:
            i = hand.index(c)
            removed.append((i, c))
            del hand[i]
        rules = g.prog.table_rules
        if new_meld is not None:
            meld = rules.make(new_meld, g.owner_of(g.actor), g.actor)
            g.melds.append(meld)
            undo[2] = -1
            close_book(g, meld)
        elif onto is not None:
            i, kind, end = onto
            replaced = g.melds[i]
            copy = replaced.copy()
            rules.place(copy, cards[0], kind, end, g.actor)
            g.melds[i] = copy
            undo[2] = (i, replaced)
            close_book(g, copy)
    except BaseException:
        _unplace(g, undo)
        raise
    return undo


def _unplace(g, undo) -> None:
    """Restore the position ``_place`` changed."""
    must, removed, slot = undo
    if slot == -1:
        g.melds.pop()
    elif slot is not None:
        g.melds[slot[0]] = slot[1]
    hand = g.pzones["hand"][g.actor]
    for i, c in reversed(removed):
        hand.insert(i, c)
    g.must = must


def _placement_ok(g, cards: list, new_meld=None, onto: Optional[tuple] = None) -> bool:
    """Judged once on the position after placing ``cards`` (as the new meld ``new_meld``, or laid off
    ``onto``): the going-out rules hold (the placement may complete the book that allows going out),
    the cards that must still be melded this turn can be (some meld or layoff of them is offered
    then), and the player has no cards left or can still end the turn -- some card may be discarded,
    or some other card can be melded or laid off onto the melds as they will be."""
    hand = g.pzones["hand"][g.actor]
    go = g.prog.going_out
    judge_out = go is not None and in_last_packet(g, g.actor) and len(hand) - len(cards) < kept_when_not_out(go)
    judge_way = len(cards) < len(hand) and g.discard_forbid is not None
    judge_must = bool(g.must - set(cards))
    if not (judge_out or judge_way or judge_must):
        return True
    undo = _place(g, cards, new_meld, onto)
    try:
        if judge_out and not leaves_enough(g, 0):
            return False
        if judge_must:
            return _placement_offered(g, g.step)
        return not judge_way or _can_continue(g)
    finally:
        _unplace(g, undo)


def _placement_offered(g, step: int) -> bool:
    """Some meld or layoff of step ``step`` is offered in the position as it is (each judged by the
    same look-aheads as when the actions are listed)."""
    if not 0 <= step < len(g.prog.steps):
        return False
    for a in g.prog.steps[step].actions:
        if a.kind not in ("meld", "layoff") or (a.when is not None and not a.when(g)):
            continue
        if (gen_melds if a.kind == "meld" else gen_layoffs)(g, a, first=True):
            return True
    return False


def _play_step(g, spec) -> int:
    """The step a take leads to."""
    return spec.then if spec.then is not None else g.step + 1


@contextmanager
def _taking(g, spec, k: int, must=None):
    """Within the block, the top ``k`` cards of the pile are in the hand, taken (``must``: the cards
    that must then be melded), and the turn is at the step the take leads to."""
    pile = g.zones[spec.arg]
    hand = g.pzones["hand"][g.actor]
    taken = pile[-k:]
    saved = (g.taken_cards, g.taken, g.must, g.step)
    for _ in taken:
        pile.pop()
    for c in taken:
        hand.append(c)
    g.taken_cards, g.taken = list(taken), taken[-1]
    g.must = set(must) if must is not None else set()
    g.step = _play_step(g, spec)
    try:
        yield taken
    finally:
        for _ in taken:
            hand.pop()
        for c in taken:
            pile.append(c)
        g.taken_cards, g.taken, g.must, g.step = saved


def _matching(g, spec) -> Optional[list]:
    """``meld_with``: the hand cards that go down with the top card (judged with the pile as it is), or
    None when the hand lacks them.  With a count of 0 the top card goes down alone (onto a meld)."""
    count_fn, match_fn = spec.meld_with
    need = count_fn(g)
    if need == 0:
        return []
    found = cards_where(g, sorted(g.pzones["hand"][g.actor]), match_fn)
    return found[:need] if 0 < need <= len(found) else None      # (a count below 0 is never met)


def gen_takes(g, spec) -> list[Action]:
    """The top card, or (depth any) any card with everything above it, when its duty can be met."""
    pile = g.zones[spec.arg]
    if not pile:
        return []
    if spec.meld_with is not None:
        return [Action("take", spec.arg)] if _take_with_ok(g, spec) else []
    depth = len(pile) if spec.spec.depth == "any" else 1
    ok = _takes_ok(g, spec, depth)
    out = [Action("take", spec.arg)] if ok[0] else []
    for k in range(2, depth + 1):
        if ok[k - 1]:
            out.append(Action("take", spec.arg, (str(k),)))
    return out


def _takes_ok(g, spec, depth: int) -> list:
    """``_take_judged`` for taking the top 1, 2, ... ``depth`` cards, in one pass: each deeper card joins
    the hand in front of the cards above it, so the position judged for ``k`` is exactly the one
    ``_taking`` makes (hand, then the taken cards in pile order; the pile without them), without
    taking the upper cards again for every depth."""
    pile = g.zones[spec.arg]
    hand = g.pzones["hand"][g.actor]
    n0 = len(hand)
    saved = (g.taken_cards, g.taken, g.must, g.step)
    step = _play_step(g, spec)
    out = []
    try:
        for k in range(1, depth + 1):
            hand.insert(n0, pile.pop())
            taken = hand[n0:]
            g.taken_cards, g.taken = list(taken), taken[-1]
            g.must = set()
            g.step = step
            out.append(_take_judged(g, spec, k, taken))
    finally:
        while len(hand) > n0:
            pile.append(hand.pop(n0))
        g.taken_cards, g.taken, g.must, g.step = saved
    return out


def _take_count(g, spec) -> int:
    pile = g.zones[spec.arg]
    return min(spec.count(g), len(pile)) if spec.count is not None else 1


def _take_with_ok(g, spec) -> bool:
    """Taking the top cards with ``meld_with``: the matching hand cards exist, and after the take
    some meld or layoff of the cards that must go down is offered (judged as it will be judged then:
    an initial minimum stays reachable, the cards the going-out rules keep stay in hand, ...)."""
    match = _matching(g, spec)
    if match is None:
        return False
    pile = g.zones[spec.arg]
    with _taking(g, spec, _take_count(g, spec), must={pile[-1], *match}):
        return _placement_offered(g, g.step)


def _take_judged(g, spec, k: int, taken: list) -> bool:
    """In the position after taking the top ``k`` cards (``taken``): if the deepest must be melded,
    some meld or layoff of it must be offered then; otherwise the turn must still be able to end."""
    duty = spec.must_meld is not None and spec.must_meld(g)
    if not duty:
        if k == 1 and g.discard_forbid is not None:
            return _can_continue(g)
        return True
    g.must = {taken[0]}
    rules = g.prog.table_rules
    hand = g.pzones["hand"][g.actor]
    if not (rules.fits_somewhere(g.melds, taken[0]) or next(rules.iter_new_melds(hand, g.must), None)):
        return False               # (cheap first: the card fits nowhere at all)
    return _placement_offered(g, g.step)


def _can_continue(g) -> bool:
    """Some discard is allowed, or some meld or layoff the turn's steps allow is possible (onto the
    melds the player may lay off on; a new meld only where another open meld of its rank does not
    forbid it)."""
    hand = g.pzones["hand"][g.actor]
    forbid = g.discard_forbid
    saved = g.cand
    try:
        for c in hand:
            g.cand = c
            if not forbid(g):
                return True
    finally:
        g.cand = saved
    rules = g.prog.table_rules
    if any(new_meld_allowed(g, p) for p in rules.iter_new_melds(hand)):
        return True
    owner = g.owner_of(g.actor)
    anyone = _layoff_scope(g) == "any"
    return any(rules.layoff_kinds(m, c) for m in g.melds if anyone or m.owner == owner for c in hand)


def _layoff_scope(g) -> str:
    """"any" if some step lets a player lay off on anyone's melds, else "own"."""
    kinds = [a.arg for s in g.prog.steps for a in s.actions if a.kind == "layoff"]
    return "any" if "any" in kinds else "own"


# ---------------------------------------------------------------------------------------- apply
def _resolve(g, word: str, pool: list) -> tuple[int, int]:
    """A card text (``7H`` or ``Jk=7H``) -> (card id in pool, declared kind).  With several copies of a
    card, the first in ``copy_key`` order: the one the generators judged."""
    cards = g.prog.cards
    t, _, decl = word.partition("=")
    copies = [c for c in pool if cards.text[c] == t]
    if not copies:
        raise IllegalAction(f"{t} is not there")
    card = min(copies, key=copy_key(g))
    kind = cards.parse_kind(decl) if decl else cards.kind[card]
    return card, kind


def _take_spec(g, zone: str):
    """The current step's `take` of ``zone``."""
    return next(a for a in g.prog.steps[g.step].actions if a.kind == "take" and a.arg == zone)


def apply_take(g, action: Action, spec=None) -> None:
    """``spec``: the step entry that offered this take (else the step's first `take` of the zone)."""
    pile = g.zones[action.zone]
    hand = g.pzones["hand"][g.actor]
    spec = spec if spec is not None else _take_spec(g, action.zone)
    if spec.meld_with is not None:
        match = _matching(g, spec)
        k = _take_count(g, spec)
        taken = pile[-k:]
        for _ in range(k):
            pile.pop()
        for c in taken:
            hand.append(c)
        g.taken, g.taken_cards = taken[-1], list(taken)
        g.must = {taken[-1], *match}
        g.auto_lay(g.actor, "taken")
        return
    k = int(action.cards[0]) if action.cards else 1
    taken = pile[-k:]
    for _ in range(k):
        pile.pop()
    for c in taken:
        hand.append(c)
    g.taken = taken[-1]
    g.taken_cards = list(taken)
    if spec.must_meld is not None and spec.must_meld(g):
        g.must = {taken[0]}
    g.auto_lay(g.actor, "taken")


def apply_meld(g, action: Action) -> None:
    rules = g.prog.table_rules
    hand = g.pzones["hand"][g.actor]
    pairs = []
    pool = list(hand)
    for w in action.cards:
        card, kind = _resolve(g, w, pool)
        pool.remove(card)
        pairs.append((card, kind))
    for c, _ in pairs:
        hand.remove(c)
        g.must.discard(c)
    meld = rules.make(pairs, g.owner_of(g.actor), g.actor)
    g.melds.append(meld)
    after_placing(g, meld, [c for c, _ in pairs], new=True)


def apply_layoff(g, action: Action) -> None:
    rules = g.prog.table_rules
    hand = g.pzones["hand"][g.actor]
    meld = g.melds[action.target - 1]
    card, kind = _resolve(g, action.cards[0], hand)
    end = next(e for k, e in rules.layoff_kinds(meld, card) if k == kind)
    hand.remove(card)
    g.must.discard(card)
    rules.place(meld, card, kind, end, g.actor)
    after_placing(g, meld, [card])


def hand_emptied(g) -> bool:
    """Called after a card leaves the hand: pick up a reserve packet, or end the hand if the player
    has gone out."""
    if g.pzones["hand"][g.actor]:
        return False
    if g.pick_up_reserve(g.actor):
        return False
    table = g.prog.table
    if table is not None and not table(g):
        return False
    g.ending = table.ending_by_meld if (table := g.prog.model.table) is not None else "out"
    g.declarer = g.actor
    g.finish_hand()
    return True


# ---------------------------------------------------------------------------------------- claims
def claim_options(g, zone: str) -> list[int]:
    """How deep a claim of the top card may take: 1 (it lays off by itself) or the depth of the
    deepest pile card of a new meld it completes with cards already in the pile."""
    pile = g.zones[zone]
    if not pile:
        return []
    top = pile[-1]
    rules = g.prog.table_rules
    out = set()
    if rules.fits_somewhere(g.melds, top):
        out.add(1)
    pos = {c: i for i, c in enumerate(pile)}
    for pairs in rules.new_melds(pile, {top}):
        deepest = min(pos[c] for c, _ in pairs)
        out.add(len(pile) - deepest)
    return sorted(out)


class ClaimPhase(Phase):
    """After a discard: seats in priority order (from the discarder) may claim it, or pass."""

    name = "claim"

    def enter(self, g) -> None:
        if getattr(g, "buying", None) is not None:
            return                                 # open_buy set the queue
        g.claim_queue = []
        s = g.discarder
        for _ in range(g.n - 1):
            s = g.next_seat(s)
            g.claim_queue.append(s)
        g.actor = g.claim_queue[0]

    # ------------------------------------------------------------------ buying
    def open_buy(self, g) -> None:
        """``kind: buy``: the player on turn drew from the stock instead of taking the last discard, so
        the others, in turn after them (not the discarder), may buy it while ``when`` holds for them."""
        zone = g.claim_zone if g.discarder is not None else None
        card = getattr(g, "buyable", None)
        if zone is None or card is None or not g.zones[zone] or g.zones[zone][-1] != card:
            return
        g.buyable = None
        drawer, claim = g.actor, g.phases["turn"].claim
        queue, s = [], drawer
        for _ in range(g.n - 1):
            s = g.next_seat(s)
            if s == g.discarder:
                continue
            g.actor = s
            if claim.when(g):
                queue.append(s)
        g.actor = drawer
        if not queue:
            return
        g.buying = (drawer, g.step)
        g.claim_queue = queue
        g.enter("claim")
        g.actor = queue[0]

    def _resume(self, g) -> None:
        """The buy window is over: the player who drew goes on with their turn."""
        drawer, step = g.buying
        g.buying = None
        g.actor, g.step = drawer, step
        g._keep_actor = True
        g.enter("turn")

    def _buy(self, g, zone: str) -> None:
        claim = g.phases["turn"].claim
        hand = g.pzones["hand"][g.actor]
        hand.append(g.zones[zone].pop())
        n = claim.penalty(g) if claim.penalty is not None else 0
        if type(n) is not int or n < 0:
            raise RuleEvaluationError(f"`penalty` gives {n!r}; it must be a whole number, 0 or more", "claims",
                                      claim.pos)
        stock = g.zones["stock"]
        for _ in range(min(n, len(stock))):
            hand.append(stock.pop())
        self._resume(g)

    def generate(self, g) -> list[Action]:
        zone = g.claim_zone
        if getattr(g, "buying", None) is not None:
            return [Action("claim", zone, ("1",)), PASS]
        return [Action("claim", zone, (str(k),)) for k in claim_options(g, zone)] + [PASS]

    def apply(self, g, action: Action, chosen: Action) -> None:
        if getattr(g, "buying", None) is not None:
            if action.verb == "pass":
                g.claim_queue.pop(0)
                if g.claim_queue:
                    g.actor = g.claim_queue[0]
                else:
                    self._resume(g)
                return
            self._buy(g, action.zone)
            return
        if action.verb == "pass":
            g.claim_queue.pop(0)
            if g.claim_queue:
                g.actor = g.claim_queue[0]
                return
            g.actor = g.discarder
            g.phases["turn"].advance(g)
            return
        g.step = g.phases["turn"].meld_step()
        g._keep_actor = g._new_turn = True       # the caller's turn starts here
        g.enter("turn")
        pile = g.zones[action.zone]
        hand = g.pzones["hand"][g.actor]
        k = int(action.cards[0])
        taken = pile[-k:]
        for _ in range(k):
            pile.pop()
        for c in taken:
            hand.append(c)
        g.taken, g.taken_cards = taken[-1], list(taken)
        g.must = {taken[0], taken[-1]}

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        if g.buying is not None:
            return IllegalAction("the last discard may be bought: `claim discard 1` (it comes with penalty cards "
                                 "from the stock) or `pass`", "buy window")
        return IllegalAction("after a discard, the players in turn from the discarder may `claim` it (only "
                             "if it could be melded without other cards) or `pass`", "claim window")

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "claim":
            out["claim"] = {"discarder": g.discarder, "waiting": list(g.claim_queue)}
            if g.buying is not None:
                out["claim"].update(kind="buy", drawer=g.buying[0])
