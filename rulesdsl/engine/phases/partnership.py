"""Partnership rules that sit on top of open melds (books, a reserve packet, a minimum first meld).

* **Initial meld minimum** (``table.initial_minimum``): until an owner (a team) has melded, the cards
  one player places in one turn must reach the minimum.  They are placed as they come ("staged"); an
  action is offered only if the minimum stays reachable with the cards left, and the turn cannot end
  between zero and the minimum -- so nobody is ever stuck below it.
* **Books** (``table.closes_at``, ``table.books``): a meld that reaches the size is closed and typed.
* **One open meld per rank** (``table.one_open_per_rank``).
* **Going out** (``table.going_out``): for a player past their reserve packet, emptying the hand is
  going out, allowed only when the condition holds (and the partner said yes, where asked); otherwise
  the player keeps ``keep_when_not_out`` cards after melding.
* **Asking the partner**: ``ask`` hands the decision to the partner (``yes`` / ``no``), which binds.
"""

from __future__ import annotations

from typing import Optional

from ...compile.table_melds import TableMeld
from ...errors import IllegalAction, RuleEvaluationError
from ..actions import Action
from .base import Phase

YES, NO = Action("yes"), Action("no")


class _OutOfBudget(Exception):
    """A look-ahead search ran past its budget: it answers no."""


# ------------------------------------------------------------------------------------ open melds
def open_rank(meld: TableMeld, stay_open: bool = False) -> Optional[int]:
    """The rank key a meld holds open (groups, wild melds; a book only where books stay open), or None."""
    return meld.rank if meld.kind in ("group", "wild") and (not meld.book or stay_open) else None


def group_condition(rules, rank: int):
    """The own condition (``melds.NAME.when``) of the group type a new meld of ``rank`` would be, or
    None (no such condition; no group types; not a group's rank)."""
    if rules.group is None or rank < 0 or not rules.group_when:
        return None
    return rules.group_when[rules.group_of_rank.get(rank, 0)]


def type_allowed(g, pairs) -> bool:
    """A group meld type's own condition (``melds.NAME.when``) for a new meld of its rank."""
    when = group_condition(g.prog.table_rules, meld_rank(g, pairs))
    return when is None or bool(when(g))


def new_meld_allowed(g, pairs) -> bool:
    """A group type's own condition holds, and ``one_open_per_rank``: no second unfinished meld of a
    rank for the same owner."""
    if not type_allowed(g, pairs):
        return False
    t = g.prog.model.table
    if t is None or not t.one_open_per_rank:
        return True
    rank = meld_rank(g, pairs)
    owner = g.owner_of(g.actor)
    stay = g.prog.table_rules.stay_open
    for m in g.melds:                      # (open_rank, inline: this runs for every candidate meld)
        if m.owner == owner and m.rank == rank and m.kind in ("group", "wild") and (not m.book or stay):
            return False
    return True


def close_book(g, meld: TableMeld) -> None:
    """A meld that reached ``closes_at`` is a book: closed, and typed by the first ``books`` rule."""
    rules = g.prog.table_rules
    if rules.closes_at is not None and len(meld.cards) >= rules.closes_at and (not meld.book or rules.stay_open):
        meld.book = book_type(g, *meld.counts(rules.wild))   # judged again as cards join an open book


def book_type(g, n: int, w: int) -> str:
    """The type of a book of ``n`` naturals and ``w`` wild cards: the first ``books`` rule that holds
    (the rules read the two counts only: judged once per pair)."""
    memo = g.prog.table_rules._book_memo
    t = memo.get((n, w))
    if t is None:
        t = memo[(n, w)] = next((name for name, cond in g.prog.books if cond(n, w)), "book")
    return t


def contract_kinds(g) -> list:
    """The meld kinds (run, set, group, wild) the contract in force asks for, one per meld."""
    fn, kinds = g.prog.contract
    names = fn(g)
    if not isinstance(names, (list, tuple)) or not all(isinstance(x, str) and x in kinds for x in names):
        raise RuleEvaluationError(f"`table.contract` gives {names!r}; it must be a list of meld type names "
                                  f"({', '.join(kinds)})", "table.contract")
    return [kinds[x] for x in names]


def contract_needs(g) -> list:
    """The kinds still missing from the contract this turn (staged melds count)."""
    need = contract_kinds(g)
    for k in g.staged_kinds:
        if k in need:
            need.remove(k)
    return need


def pairs_kind(g, pairs) -> str:
    """The kind a new meld of these (card, declared kind) pairs would be."""
    return g.prog.table_rules.kind_of_pairs(pairs)


def contract_allows(g, pairs, budget: int = 400) -> bool:
    """While an owner has not gone down under a contract: a new meld is offered only if its kind is
    still needed and the rest of the contract can still be made from the cards left (an exact search
    over minimum-size melds, answering no when it runs out of ``budget``)."""
    need = contract_needs(g)
    kind = pairs_kind(g, pairs)
    if kind not in need:
        return False
    need.remove(kind)
    used = {c for c, _ in pairs}
    rest = [c for c in g.pzones["hand"][g.actor] if c not in used]
    counter = [budget]
    return _contract_search(g, rest, sorted(need), counter)


def _contract_search(g, hand: list, need: list, counter: list) -> bool:
    if not need:
        return True
    counter[0] -= 1
    if counter[0] < 0:
        return False
    rules = g.prog.table_rules
    want = need[0]
    for pairs in rules.iter_new_melds(hand, kind=want):     # (built only as far as the search goes)
        if pairs_kind(g, pairs) != want:
            continue
        used = {c for c, _ in pairs}
        if _contract_search(g, [c for c in hand if c not in used], need[1:], counter):
            return True
        if counter[0] < 0:
            return False
    return False


def after_placing(g, meld: TableMeld, placed: list, new: bool = False) -> None:
    """Book closing and initial-meld accounting after cards were placed on ``meld``."""
    close_book(g, meld)
    if g.prog.contract is not None:
        owner = g.owner_of(g.actor)
        if not g.team_melded[owner] and new:
            g.staged_kinds.append(meld.kind)
            meld.staged = True
            if not contract_needs(g):
                g.team_melded[owner] = True            # the contract is down
                for m in g.melds:
                    m.staged = False
    if g.prog.initial_minimum is not None:
        owner = g.owner_of(g.actor)
        if not g.team_melded[owner]:
            g.stage_total += counting_value(g, placed)
            meld.staged = True
            if g.stage_total >= g.prog.initial_minimum(g):
                g.team_melded[owner] = True
                for m in g.melds:
                    m.staged = False


def counting_value(g, cards) -> int:
    """The value of ``cards`` that counts toward the initial minimum."""
    counts = g.prog.counts_toward
    value = g.prog.cards.value
    total = 0
    saved = g.cand
    try:
        for c in cards:
            g.cand = c
            if counts is None or counts(g):
                total += value[c]
    finally:
        g.cand = saved
    return total


def staging(g) -> bool:
    """Whether the acting player's melds this turn are still an initial meld below its minimum."""
    return ((g.prog.initial_minimum is not None or g.prog.contract is not None)
            and not g.team_melded[g.owner_of(g.actor)])


def placed_short(g) -> bool:
    """Cards were placed this turn toward an initial meld (or contract) that is not complete yet, so
    the turn cannot end -- cards that do not count toward the minimum included."""
    return staging(g) and (g.stage_total > 0 or bool(g.staged_kinds) or any(m.staged for m in g.melds))


def meld_rank(g, pairs) -> int:
    """The rank key a new meld holds open (-1 for a meld of wild cards only)."""
    rules = g.prog.table_rules
    naturals = [c for c, _ in pairs if not rules.wild[c]]
    return g.prog.cards.kind_rank[g.prog.cards.kind[naturals[0]]] if naturals else -1


def minimum_reachable(g, placing: list, meld: Optional[TableMeld] = None, rank: Optional[int] = None,
                      how=None) -> bool:
    """Placing ``placing`` now -- onto ``meld`` as ``how`` = (kind, end), or as a new meld of ``rank``
    whose (card, kind) pairs are ``how`` -- keeps the initial minimum reachable with the rest of the
    hand (keeping the cards the going-out rules make the player keep)."""
    if not staging(g) or g.prog.initial_minimum is None:
        return True
    need = g.prog.initial_minimum(g) - g.stage_total - counting_value(g, placing)
    if need <= 0:
        return True
    rules = g.prog.table_rules
    hand = [c for c in g.pzones["hand"][g.actor] if c not in placing]
    limit = placeable(g, len(hand))
    if rules.run is not None or rules.set is not None:
        return _reaches(g, hand, _melds_as_placed(g, placing, meld, how), need, limit)
    wild = rules.wild
    w = sum(1 for c in placing if wild[c])
    if meld is not None:
        mn, mw = meld.counts(wild)
        into = (meld.rank, mn + len(placing) - w, mw + w, len(meld.cards) + len(placing))
    else:
        into = (rank, len(placing) - w, w, len(placing))
    return max_more(g, hand, into, limit=limit) >= need


def _melds_as_placed(g, placing: list, meld: Optional[TableMeld], how) -> list:
    """The owner's melds as they will be once ``placing`` is placed (see ``minimum_reachable``)."""
    rules = g.prog.table_rules
    owner = g.owner_of(g.actor)
    mine = [m for m in g.melds if m.owner == owner and m is not meld]
    if meld is None:
        placed = rules.make(how, owner, g.actor)
    else:
        placed = meld.copy()
        for c in placing:
            rules.place(placed, c, *how, g.actor)
    close_book(g, placed)
    return mine + [placed]


def _reaches(g, hand: list, mine: list, need: int, limit: Optional[int], budget: int = 400) -> bool:
    """Where runs or sets are melded: can the acting player place cards of ``hand`` (at most ``limit``)
    worth ``need`` toward the minimum this turn, onto ``mine`` and new melds, built the way the actions
    build them?  A search like ``can_meld_down``'s (each card left in hand, laid off, or in a new meld;
    wild cards last, so they may join melds the naturals make); beyond its budget it answers no, so that
    no meld is offered that could leave the turn unable to end."""
    rules = g.prog.table_rules
    wild = rules.wild
    hand = sorted(hand, key=lambda c: (bool(wild[c]), c))
    value = {c: counting_value(g, [c]) for c in hand}
    try:
        return _reach(g, rules, hand, mine, [_meld_sig(m, wild) for m in mine], need,
                      len(hand) if limit is None else limit, value, [budget], set())
    except _OutOfBudget:
        return False


def _reach(g, rules, hand, mine, sigs, need, limit, value, counter, failed) -> bool:
    """``_reaches``' search: ``sigs`` the signature of each meld of ``mine``; ``value`` each card's
    counting value; ``failed`` the positions already judged out of reach."""
    if need <= 0:
        return True
    if limit <= 0 or sum(sorted((value[c] for c in hand), reverse=True)[:limit]) < need:
        return False
    text = g.prog.cards.text
    sig = (tuple(text[c] for c in hand), need, limit, tuple(sorted(sigs)))
    if sig in failed:
        return False
    counter[0] -= 1
    if counter[0] <= 0:
        raise _OutOfBudget
    if _reach(g, rules, hand[1:], mine, sigs, need, limit, value, counter, failed):
        return True                       # the card stays in hand
    for used, left, mine2, sigs2 in _placements(g, rules, hand, mine, sigs, g.owner_of(g.actor)):
        if len(used) <= limit and _reach(g, rules, left, mine2, sigs2, need - sum(value[x] for x in used),
                                         limit - len(used), value, counter, failed):
            return True
    failed.add(sig)
    return False


def _placements(g, rules, hand: list, mine: list, sigs: list, owner):
    """Every way the look-ahead searches place ``hand[0]``: laid off onto a meld of ``mine``, or in a new
    meld from ``hand`` at its minimum size.  Yields (the cards placed, the hand left, ``mine`` and its
    signatures as they become)."""
    c, rest = hand[0], hand[1:]
    for i, m in enumerate(mine):
        for kind, end in rules.layoff_kinds(m, c):
            copy = m.copy()
            rules.place(copy, c, kind, end, g.actor)
            close_book(g, copy)
            yield [c], rest, mine[:i] + [copy] + mine[i + 1:], sigs[:i] + [_meld_sig(copy, rules.wild)] + sigs[i + 1:]
    one_open = g.prog.model.table.one_open_per_rank
    open_ranks = {m.rank for m in mine if open_rank(m, rules.stay_open) is not None}
    for pairs in rules.iter_new_melds(hand, {c}):
        rank = meld_rank(g, pairs)
        if (one_open and rank in open_ranks) or group_condition(rules, rank) is not None:
            continue                   # a type with its own condition is never counted on (safe)
        used = [x for x, _ in pairs]
        new = rules.make(pairs, owner, g.actor)
        close_book(g, new)
        yield used, [x for x in hand if x not in used], mine + [new], sigs + [_meld_sig(new, rules.wild)]


def kept_when_not_out(go) -> int:
    """The cards a player who may not go out keeps in the last packet after placing (``keep_when_not_out``:
    0, melding out ends the turn without going out; else at least 2, so the discard leaves one)."""
    return go.keep


def placeable(g, held: int) -> Optional[int]:
    """How many of ``held`` cards the acting player may still place this turn under the going-out
    rules (None: all of them -- emptying the hand picks up a reserve packet)."""
    go = g.prog.going_out
    if go is None or not in_last_packet(g, g.actor):
        return None
    keep = (1 if go.needs_discard else 0) if may_go_out(g) else kept_when_not_out(go)
    return held - keep


def max_more(g, cards: list, into: Optional[tuple] = None, limit: Optional[int] = None) -> int:
    """The most counting value the acting player could still meld from ``cards`` (placing at most
    ``limit`` of them), onto the owner's unfinished melds (``into``: the meld a placement goes to, as
    it will be) and new melds.  Exact where the melds are groups of one rank and melds of wild cards:
    for each rank, the (naturals, wild cards) that melds built the way the actions build them -- a
    new meld at its minimum size, then one card at a time under the size limit, the closing size and
    the wild ratio; a new meld of a rank only once the last one is closed where one open meld per
    rank is the rule -- can hold; then the wild cards shared out between the ranks for the most value.
    Not for runs and sets (``_reaches`` searches those)."""
    rules = g.prog.table_rules
    value = g.prog.cards.value
    kind_rank, kind = g.prog.cards.kind_rank, g.prog.cards.kind
    counts = g.prog.counts_toward
    wilds, by_rank = [], {}
    saved = g.cand
    try:
        for c in cards:
            g.cand = c
            v = value[c] if counts is None or counts(g) else 0
            if rules.wild[c]:
                wilds.append(v)
            elif rules.group is not None:
                r = kind_rank[kind[c]]
                if r in rules.group_ranks:
                    by_rank.setdefault(r, []).append(v)
    finally:
        g.cand = saved
    owner = g.owner_of(g.actor)
    shape = {m.rank: m.counts(rules.wild) for m in g.melds if m.owner == owner and open_rank(m, rules.stay_open) is not None}
    if into is not None:
        shape[into[0]] = (into[1], into[2])   # the meld the cards are going to, as it will be
    wilds.sort(reverse=True)
    n_w = len(wilds)
    if limit is not None and limit <= 0:
        return 0
    groups = []                               # (natural values best first, start shape, is a wild meld, rank)
    if rules.group is not None:
        for r in set(by_rank) | {k for k in shape if k >= 0}:
            if group_condition(rules, r) is not None and r not in shape:
                continue                      # a type with its own condition: not counted on (conservative)
            groups.append((sorted(by_rank.get(r, []), reverse=True), shape.get(r), False, r))
    if rules.wildm is not None and n_w:
        groups.append(([], shape.get(-1), True, -1))
    cap_cards = limit if limit is not None and limit < len(cards) else None
    best = {(0, 0): 0}                        # (wild cards used, cards used) -> natural value
    for vals, start, wild_meld, rank in groups:
        reach = _reachable(rules, g.prog.model.table.one_open_per_rank, wild_meld, len(vals), n_w, start,
                           0 if wild_meld else rules.group_of_rank.get(rank, 0))
        prefix = [0]
        for v in vals:
            prefix.append(prefix[-1] + v)
        step = {}
        for a, x in reach:
            if cap_cards is not None and a + x > cap_cards:
                continue
            key = (x, a + x if cap_cards is not None else 0)
            if step.get(key, -1) < prefix[a]:
                step[key] = prefix[a]
        nxt = {}
        for (x0, c0), v0 in best.items():
            for (x1, c1), v1 in step.items():
                x, c = x0 + x1, c0 + c1
                if x > n_w or (cap_cards is not None and c > cap_cards):
                    continue
                if nxt.get((x, c), -1) < v0 + v1:
                    nxt[(x, c)] = v0 + v1
        best = nxt
    wprefix = [0]
    for v in wilds:
        wprefix.append(wprefix[-1] + v)
    return max(v + wprefix[x] for (x, _), v in best.items())


def _reachable(rules, one_open: bool, wild_meld: bool, n_nat: int, n_wild: int, start, gi: int = 0) -> frozenset:
    """The (naturals, wild cards) that can be added to the melds of one rank (or of wild cards), from
    ``n_nat`` naturals and ``n_wild`` wild cards, the rank's unfinished meld being ``start`` =
    (naturals, wilds) or None.  Memoised on the rules (a pure function of its arguments)."""
    memo = rules._reach_memo
    key = (one_open, wild_meld, n_nat, n_wild, start, gi)
    hit = memo.get(key)
    if hit is not None:
        return hit
    spec = rules.wildm if wild_meld else rules.groups[gi]      # the group type of this rank
    ratio = (lambda n, w: True) if wild_meld else rules.ratios[gi]
    closes = None if rules.stay_open else rules.closes_at     # an open book never makes room for another meld
    caps = [x for x in (spec.max, closes) if x]
    cap = min(caps) if caps else n_nat + n_wild + (sum(start) if start else 0)
    low = spec.min
    first = (0, 0, *start) if start is not None else (0, 0, -1, -1)
    seen = {first}
    todo = [first]
    while todo:
        a, x, n, w = todo.pop()
        moves = []
        if n >= 0 and n + w < cap:
            if not wild_meld and a < n_nat and ratio(n + 1, w):
                moves.append((a + 1, x, n + 1, w))
            if x < n_wild and ratio(n, w + 1):
                moves.append((a, x + 1, n, w + 1))
        if n < 0 or not one_open or (closes is not None and n + w >= closes):
            for j in range(0, low + 1):       # a new meld at its minimum size: low - j naturals, j wilds
                k = low - j
                if wild_meld and k:
                    continue
                if not wild_meld and (k < 1 or not ratio(k, j)):
                    continue
                if a + k <= n_nat and x + j <= n_wild:
                    moves.append((a + k, x + j, k, j))
        for st in moves:
            if st not in seen:
                seen.add(st)
                todo.append(st)
    out = frozenset((a, x) for a, x, _, _ in seen)
    if len(memo) > 20000:
        memo.clear()
    memo[key] = out
    return out


def in_last_packet(g, seat: int) -> bool:
    """The seat has no reserve packet left to pick up (it was picked up, or the game has none)."""
    return g.reserve_zone() is None or g.picked_up[seat]


def asking(g) -> str:
    """What `permission` says now: "required" (the partner must agree), "optional" (a player may ask,
    and the answer binds), or "" (nobody asks)."""
    v = g.prog.going_out.permission(g)
    if v is True or v is False or v is None:
        return "required" if v else ""
    if v == "optional":
        return "optional"
    raise RuleEvaluationError(f"`table.going_out.permission` gives {v!r}; it must be true, false or \"optional\"",
                              "table.going_out.permission", g.prog.going_out.pos)


def may_go_out(g) -> bool:
    go = g.prog.going_out
    if go is None:
        return True
    if not go.when(g):
        return False
    mode = asking(g)
    if mode == "optional":
        return g.answers.get(g.actor) != "no"          # an answer binds once asked
    return mode != "required" or g.answers.get(g.actor) == "yes"


def leaves_enough(g, placing: int) -> bool:
    """After placing ``placing`` cards, the hand still obeys the going-out rules."""
    go = g.prog.going_out
    if go is None or not in_last_packet(g, g.actor):
        return True
    rest = len(g.pzones["hand"][g.actor]) - placing
    if may_go_out(g):
        return rest >= (1 if go.needs_discard else 0)
    return rest >= kept_when_not_out(go)


def placing_refusal(g, placing: int) -> Optional[IllegalAction]:
    """Why the going-out rules refuse placing ``placing`` cards (``leaves_enough`` false), under the
    going-out rule's label; None when they allow it."""
    if leaves_enough(g, placing):
        return None
    go = g.prog.going_out
    label = go.rule or "going out"
    if may_go_out(g):
        return IllegalAction("going out needs a last card to discard: keep one", label, go.pos)
    return IllegalAction(f"you may not go out now, so you keep {kept_when_not_out(go)} cards after placing "
                         f"(`{go.text}` does not hold, or your partner has not agreed)", label, go.pos)


def discard_refusal(g, card: int) -> Optional[IllegalAction]:
    """Why the partnership rules refuse a discard of ``card`` (``discard_allowed`` false), in words and
    under the going-out rule's label; None when they allow it."""
    if discard_allowed(g, card):
        return None
    go = g.prog.going_out
    label = (go.rule if go is not None and go.rule else "") or "going out"
    if placed_short(g):
        return IllegalAction("the melds placed this turn must first make the initial meld (or contract) "
                             "complete before the turn ends", "initial meld")
    if len(g.pzones["hand"][g.actor]) == 1:
        why = (f"`{go.text}` does not hold" if not go.when(g) else      # judged as may_go_out judges it
               "your partner said no" if g.answers.get(g.actor) == "no" else
               "ask your partner first")
        return IllegalAction(f"discarding your last card would go out, and you may not go out now: {why}",
                             label, go.pos)
    return IllegalAction("your partner said yes: this turn must end by going out", label, go.pos)


def discard_allowed(g, card: int) -> bool:
    """The partnership rules on a discard: not below the initial minimum, and the last card only
    when going out (or to pick up the reserve); after a binding yes, only the going-out discard."""
    if placed_short(g):
        return False
    go = g.prog.going_out
    if go is None:
        return True
    last = len(g.pzones["hand"][g.actor]) == 1
    if not in_last_packet(g, g.actor):
        return True
    if last:
        return may_go_out(g)
    if asking(g) and g.answers.get(g.actor) == "yes":
        # a yes binds: the turn must end by going out -- while that is still possible
        key = len(g.history)
        if getattr(g, "_down_key", None) != key:
            g._down_key, g._down = key, can_meld_down(g, keep=1 if go.needs_discard else 0, then_out=True)
        return not g._down
    return True


# ------------------------------------------------------------------------------------ feasibility
def can_meld_down(g, keep: int = 1, budget: int = 400, then_out: bool = False) -> bool:
    """Can the acting player place all but exactly ``keep`` cards of their hand this turn -- and,
    with ``then_out``, reach a position where the going-out condition holds (the last book may be
    completed on the way)?  A search over the positions reached (each judged once, whatever the order
    of the placements that led there), after cheap necessary conditions; beyond its budget it answers
    no, so that nothing is offered or refused on a guess."""
    rules = g.prog.table_rules
    owner = g.owner_of(g.actor)
    hand = sorted(g.pzones["hand"][g.actor])
    if len(hand) < keep:
        return False
    mine = [m for m in g.melds if m.owner == owner]
    if then_out and not _out_conceivable(g, owner, hand, mine):
        return False
    if _stuck_cards(g, rules, hand, mine) > keep:
        return False
    others = [m for m in g.melds if m.owner != owner]
    try:
        return _down(g, rules, hand, mine, [_meld_sig(m, rules.wild) for m in mine], others, owner, keep,
                     [budget], then_out, set())
    except _OutOfBudget:
        return False


def _out_conceivable(g, owner, hand: list, mine: list) -> bool:
    """The going-out condition could hold after this turn's placements: it holds with the owner's
    melds joined by every book the hand could still complete (counted for each type it could have;
    placements change nothing else)."""
    names = [name for name, _ in g.prog.books] + ["book"]
    potential = _book_potential(g, hand, mine)
    if potential is None:
        potential = {name: 64 for name in names}
    fake = [TableMeld("group", [], [], owner, [], rank=-3, book=name)
            for name, k in potential.items() for _ in range(k)]
    real = g.melds
    g.melds = list(real) + fake
    try:
        return bool(g.prog.going_out.when(g))
    except Exception:           # a condition that cannot be judged on this probe prunes nothing
        return True
    finally:
        g.melds = real


def _book_potential(g, hand: list, mine: list) -> Optional[dict]:
    """Where melds are groups of one rank (and melds of wild cards) closed at ``closes_at``: for each
    book type, how many books of that type the hand could complete this turn at most (each rank's
    possible books counted for every type they could have), or None where this is not worked out."""
    rules = g.prog.table_rules
    close = rules.closes_at
    if (close is None or rules.run is not None or rules.set is not None or rules.stay_open
            or len(rules.groups) > 1):
        return None
    n_wild = sum(1 for c in hand if rules.wild[c])
    naturals: dict = {}
    kind_rank, kind = g.prog.cards.kind_rank, g.prog.cards.kind
    for c in hand:
        if not rules.wild[c] and rules.group is not None:
            r = kind_rank[kind[c]]
            if r in rules.group_ranks:
                naturals[r] = naturals.get(r, 0) + 1
    open_melds = {m.rank: m.counts(rules.wild) for m in mine if open_rank(m, rules.stay_open) is not None}
    out: dict = {}

    def add(types: set, k: int) -> None:
        for t in types:
            out[t] = out.get(t, 0) + k

    for r in set(naturals) | {k for k in open_melds if k >= 0}:
        a = naturals.get(r, 0)
        if r in open_melds:
            n0, w0 = open_melds[r]
            types = {book_type(g, close - w, w) for w in range(w0, w0 + n_wild + 1)
                     if close - w >= n0 and close - w - n0 <= a and rules.ratio(close - w, w)}
            add(types, 1)
        types = {book_type(g, close - w, w) for w in range(0, min(n_wild, close - 1) + 1)   # (close - w >= 1)
                 if close - w <= a and rules.ratio(close - w, w)}
        add(types, a // max(1, close - n_wild) if types else 0)
    if rules.wildm is not None and n_wild:
        w0 = open_melds.get(-1, (0, None))[1]
        if w0 is not None and close - w0 <= n_wild:
            add({book_type(g, 0, close)}, 1)
        add({book_type(g, 0, close)}, n_wild // close)
    return out


def _stuck_cards(g, rules, hand, mine) -> int:
    """Cards of ``hand`` that fit no meld of the owner and are in no new meld from the hand."""
    one_open = g.prog.model.table.one_open_per_rank
    open_ranks = {m.rank for m in mine if open_rank(m, rules.stay_open) is not None}
    placeable = set()
    for pairs in rules.new_melds(hand):
        if one_open and meld_rank(g, pairs) in open_ranks:
            continue
        placeable.update(g.prog.cards.text[c] for c, _ in pairs)
    text = g.prog.cards.text
    stuck = 0
    for c in hand:
        if text[c] in placeable:
            continue
        if any(rules.layoff_kinds(m, c) for m in mine):
            placeable.add(text[c])
            continue
        stuck += 1
    return stuck


def _meld_sig(m: TableMeld, wild) -> tuple:
    if m.kind in ("group", "wild"):
        return (m.kind, m.rank, *m.counts(wild), m.book)
    return (m.kind, m.lo, m.hi, tuple(sorted(m.declared)), m.counts(wild)[1], m.book)


def _down(g, rules, hand, mine, sigs, others, owner, keep, counter, then_out, failed) -> bool:
    """``sigs``: the signature of each meld of ``mine`` (what the search needs to know of it)."""
    if len(hand) <= keep:
        if len(hand) != keep:
            return False                  # exactly the cards to keep (e.g. the one to discard)
        if not then_out:
            return True
        real = g.melds
        g.melds = others + mine           # judge the condition on the position reached
        try:
            return bool(g.prog.going_out.when(g))
        finally:
            g.melds = real
    text = g.prog.cards.text
    sig = (tuple(sorted(text[c] for c in hand)), keep, tuple(sorted(sigs)))
    if sig in failed:
        return False
    counter[0] -= 1
    if counter[0] <= 0:
        raise _OutOfBudget
    if keep > 0 and _down(g, rules, hand[1:], mine, sigs, others, owner, keep - 1, counter, then_out, failed):
        return True
    for _used, left, mine2, sigs2 in _placements(g, rules, hand, mine, sigs, owner):
        if _down(g, rules, left, mine2, sigs2, others, owner, keep, counter, then_out, failed):
            return True
    failed.add(sig)
    return False


# ------------------------------------------------------------------------------------ asking
def can_ask(g) -> bool:
    """The question may be asked when going out this turn would be legal apart from permission:
    the hand can be melded down, ending in a position where the going-out condition holds."""
    go = g.prog.going_out
    if go is None or g.asked or not asking(g) or not in_last_packet(g, g.actor):
        return False
    return can_meld_down(g, keep=1 if go.needs_discard else 0, then_out=True)


class AnswerPhase(Phase):
    """The partner answers a question (may I go out?) with their own action: ``yes`` or ``no``."""

    name = "answer"

    def enter(self, g) -> None:
        g.actor = g.partner(g.asker)

    def generate(self, g) -> list[Action]:
        return [YES, NO]

    def apply(self, g, action: Action, chosen: Action) -> None:
        g.answers[g.asker] = action.verb
        g.actor = g.asker
        g._keep_actor = True
        g.enter("turn")

    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        return IllegalAction(f"seat {g.asker} asks to go out: answer `yes` or `no`", "ask partner")

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase == "answer":
            out["question"] = {"from": g.asker, "to": g.actor, "asks": "may I go out?"}
