"""Semantic checks of a built model: the mistakes a schema cannot see.

Unknown ranks or zones, meld types that can never be made, deals that need more cards than the deck
holds, steps that name missing go-outs, parameter defaults outside their choices.  Each problem is a
located diagnostic; all are collected in one pass.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Iterator

from ..errors import Diagnostics, suggest
from ..expr.ast import E, Expr
from ..expr.compiler import Binding, Scope
from ..mechanics.registry import card_play, mechanics, present
from ..model.game import Ruleset, builtin_verbs
from ..model.setup import PLAYERS, deal_numbers, setup_value
from ..source.resolve import is_bundled
from ..source.tree import Pos


def check_model(m: Ruleset, diags: Diagnostics) -> None:
    _params(m, diags)
    _constraints(m, diags)
    _deck(m, diags)
    _melds(m, diags)
    _go_outs(m, diags)
    _zones(m, diags)
    _deal(m, diags)
    _turn(m, diags)
    _going_out(m, diags)
    _contract(m, diags)
    _stock_runs_out(m, diags)
    _counts(m, diags)
    _mechanics(m, diags)
    _reserves(m, diags)
    _scoring(m, diags)
    _team_scores(m, diags)
    _ignored(m, diags)


# ------------------------------------------------------------------------------ helpers

def _exprs(obj: Any) -> Iterator[Expr]:
    """Every expression of the model (or of a part of it)."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, Expr):
            yield x
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)


def _nodes(e: E) -> Iterator[E]:
    """Every node of an expression tree (without recursion)."""
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, E):
            yield x
            stack.extend(a for a in x.args if isinstance(a, E))


def _param_refs(exprs) -> list[str]:
    """The parameters some expressions read (``params.NAME``), in a stable order."""
    out: list[str] = []
    for ex in exprs:
        if ex is None:
            continue
        for n in _nodes(ex.ast):
            if n.op == "attr" and n.args[0].op == "name" and n.args[0].args[0] == "params":
                if n.args[1] not in out:
                    out.append(n.args[1])
    return out


def _blame(m: Ruleset, exprs, fallback: Pos) -> Pos:
    """Where a problem with values computed from ``exprs`` is best reported: at a parameter value an
    override changed (a variant file or ``--set``), else at ``fallback``: the rule that asks for the value
    (the message names the parameters' values)."""
    names = [p for p in _param_refs(exprs) if p in m.params]
    poss = [m.params[p].pos for p in names]
    over = [p for p in poss if p.path != fallback.path
            and (p.path.startswith("--set") or not is_bundled(Path(p.path)))]   # a base is no override
    return over[-1] if over else fallback


def _values(m: Ruleset, exprs) -> str:
    """`` (hand_size = 25, stock_floor = 2)`` for the parameters some expressions read."""
    params = m.param_values()
    names = [p for p in _param_refs(exprs) if p in params]
    return " (" + ", ".join(f"{p} = {_shown(params[p])}" for p in names) + ")" if names else ""


def _shown(v: Any) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def _uses(m: Ruleset, *functions: str) -> bool:
    """Whether any expression of the ruleset calls one of ``functions``."""
    return next(calls(m, *functions), None) is not None


def calls(m: Ruleset, *functions: str) -> Iterator[Expr]:
    """The expressions of the ruleset that call one of ``functions`` (for a located diagnostic)."""
    for ex in _exprs(m):
        if any(n.op == "call" and n.args[0] in functions for n in _nodes(ex.ast)):
            yield ex


def whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def quiet_value(expr: Expr, params: dict, n: int, hand_number: int = 1) -> tuple[bool, Any]:
    """(known, value): an expression's value at load if it reads only parameters, ``players`` and
    ``deal.number``."""
    sub = Diagnostics()
    v = setup_value(expr, params, n, sub, hand_number)
    return (not sub), v


def _constraints(m: Ruleset, d: Diagnostics) -> None:
    """Parameter combinations the ruleset leaves undefined are errors, located where they were set."""
    params = m.param_values()
    for c in m.constraints:
        sub = Diagnostics()
        ok = setup_value(c.require, params, m.players.default, sub)
        d.items.extend(sub.items)
        if sub or ok:
            continue
        where = [m.params[p].pos for p in c.params if p in m.params]
        overridden = [p for p in where if p.path != c.pos.path]     # set by a variant or --set
        pick = overridden or where
        pos = max(pick, key=lambda p: p.line) if pick else c.require.pos
        set_to = ", ".join(f"{p} = {params[p]}" for p in c.params if p in params)
        d.error("E-CONSTRAINT", c.message + (f" ({set_to})" if set_to else ""), pos,
                f"the rule is written at {c.pos}")


def _scoring(m: Ruleset, d: Diagnostics) -> None:
    sc = m.scoring
    forms = [f for f in (sc.outcomes, sc.each_player, sc.each_team) if f is not None]
    if len(forms) != 1:
        d.error("E-SCORING", "`scoring` needs exactly one of `outcomes` (one scorer per hand), "
                "`each_player` (every seat scores) or `each_team` (every team scores)", sc.pos)
    if sc.each_team is not None and m.teams is None:
        d.error("E-MISSING", "`scoring.each_team` needs a `teams:` section", sc.pos)
    if m.teams is not None and m.players.min % m.teams.count:
        d.error("E-TEAMS", f"{m.players.min} players cannot form {m.teams.count} equal teams", m.teams.pos)
    if not m.turn and card_play(m) is None:
        d.error("E-MISSING", f"the ruleset needs `turn` steps (or {card_play_sections()} section)", m.pos)


def _params(m: Ruleset, d: Diagnostics) -> None:
    for p in m.params.values():
        if p.default is None:
            d.error("E-TYPE", f"parameter `{p.name}` has no value", p.pos,
                    "give it a default: a number, true/false, a word, or a list")
            continue
        if p.choices is not None and p.default not in p.choices:
            d.error("E-CHOICE", f"parameter `{p.name}` is `{p.default}`; it must be one of: "
                    + ", ".join(map(str, p.choices)), p.pos, suggest(str(p.default), map(str, p.choices)))
        bounds_ok = True
        for label, b in (("min", p.lo), ("max", p.hi)):
            if b is not None and (not isinstance(b, (int, float)) or isinstance(b, bool)):
                d.error("E-TYPE", f"the `{label}` of parameter `{p.name}` must be a number", p.pos)
                bounds_ok = False
        if bounds_ok and isinstance(p.default, (int, float)) and not isinstance(p.default, bool):
            if (p.lo is not None and p.default < p.lo) or (p.hi is not None and p.default > p.hi):
                span = (f"from {p.lo} to {p.hi}" if p.lo is not None and p.hi is not None else
                        f"at least {p.lo}" if p.lo is not None else f"at most {p.hi}")
                d.error("E-RANGE", f"parameter `{p.name}` is {p.default}; it must be {span}", p.pos,
                        f"`{p.name}`" + (f" ({p.doc})" if p.doc else "") + f" is declared to take a value {span}")


def _deck(m: Ruleset, d: Diagnostics) -> None:
    deck = m.deck
    for what, items in (("rank", deck.ranks), ("suit", deck.suits)):
        seen = set()
        for r in items:
            if r in seen:
                d.error("E-DUPLICATE", f"{what} `{r}` is listed twice in `deck`", deck.pos)
            seen.add(r)
    for r in deck.values:
        if r not in deck.ranks and r != "joker":
            d.error("E-UNKNOWN-RANK", f"`deck.values` names `{r}`, which is not a rank of the deck", deck.pos,
                    suggest(r, list(deck.ranks) + ["joker"]) or "ranks: " + " ".join(deck.ranks))


def copies_min(m: Ruleset) -> int:
    """The fewest deck copies any allowed player count gets (for "can this meld ever be made")."""
    best = None
    for n in range(m.players.min, m.players.max + 1):
        v = setup_value(m.deck.copies, m.param_values(), n, Diagnostics())
        if isinstance(v, int):
            best = v if best is None else min(best, v)
    return best or 1


def _melds(m: Ruleset, d: Diagnostics) -> None:
    kinds = {"run": 0, "set": 0, "group": 0, "wild": 0}
    copies = copies_min(m)
    for name, mt in m.melds.items():
        check_pattern(m, d, f"meld `{name}`", mt, copies)
        if mt.when is not None and mt.kind != "group":
            d.error("E-UNSUPPORTED", f"meld `{name}`: `when` applies only to group melds", mt.pos)
        if mt.kind not in kinds:
            d.error("E-UNSUPPORTED", f"meld `{name}`: `kind: {mt.kind}` is a pattern for plays "
                    "(`climbing.plays`); melds are runs, sets, groups or wild", mt.pos)
            continue
        kinds[mt.kind] += 1
        _meld_limits(m, d, name, mt)
    if m.table is not None and kinds["group"] and (kinds["run"] or kinds["set"]):
        group = next(mt for mt in m.melds.values() if mt.kind == "group")
        d.error("E-UNSUPPORTED", "group melds beside run or set melds are not supported yet for melds on the "
                "table (`table:`): the table's melds would all be taken for groups", group.pos,
                "for one-rank melds on the table, use groups alone (with `ranks` for a rank's own limits)")
    if m.table is None and (kinds["run"] or kinds["set"]):
        _arranged_deck(m, d)
    for k, count in kinds.items():
        if count > 1 and k != "group" and m.table is not None:   # the arrangement search takes several
            d.error("E-UNSUPPORTED", f"more than one `{k}` meld type is not supported yet for melds on the "
                    "table (`table:`); the arrangement search (`deadwood`) takes several", m.pos,
                    "merge them into one meld type")


def _arranged_deck(m: Ruleset, d: Diagnostics) -> None:
    """Hands arranged into melds (``deadwood``, go-outs: melds without a ``table:``) are searched as sets
    of distinct cards; a deck with several copies of a card, or jokers, would leave every hand unarranged
    (all deadwood), so it is refused rather than played wrong."""
    for n in range(m.players.min, m.players.max + 1):
        for key, expr in (("copies", m.deck.copies), ("jokers", m.deck.jokers)):
            v = setup_value(expr, m.param_values(), n, Diagnostics())
            if isinstance(v, int) and v > (1 if key == "copies" else 0):
                d.error("E-UNSUPPORTED", f"melds arranged from a hand (`deadwood`, go-outs) need one copy of each "
                        f"card and no jokers; `deck.{key}` gives {v} for {n} players", expr.pos or m.deck.pos,
                        "for several decks or jokers, meld on the table (`table:`)")
                return


def _meld_limits(m: Ruleset, d: Diagnostics, name: str, mt) -> None:
    """Keys of a meld type that the meld engines do not honour yet: refused, never silently ignored
    (climbing plays take them all)."""
    if mt.kind == "run" and mt.suits == "any":
        d.error("E-UNSUPPORTED", f"meld `{name}`: `suits: any` is supported for plays (`climbing.plays`), not "
                "yet for melds: a meld run is of one suit", mt.pos, "remove `suits`")
    if m.table is None:
        return
    if mt.kind == "run" and mt.wrap:
        d.error("E-UNSUPPORTED", f"meld `{name}`: `wrap` is supported by the arrangement search (`deadwood`, "
                "go-outs), not yet for open melds on the table (`table:`)", mt.pos,
                "list the ranks round the corner in `order` instead: `[..., K, A, 2, 3]` allows K-A-2 runs")
    if mt.kind == "set" and mt.ranks is not None:
        d.error("E-UNSUPPORTED", f"meld `{name}`: `ranks` on a set is supported by the arrangement search, not "
                "yet for open melds on the table (`table:`)", mt.pos,
                "use `kind: group` with `ranks` (groups take their own ranks on the table)")


def check_pattern(m: Ruleset, d: Diagnostics, what: str, mt, copies: int) -> None:
    """Checks every card pattern passes, a meld type or a play."""
    ranks = m.deck.ranks
    if mt.max is not None and mt.max < mt.min:
        d.error("E-MELD-IMPOSSIBLE", f"{what} has max {mt.max} below min {mt.min}", mt.pos)
    for r in (mt.ranks or ()):
        if r not in ranks:
            d.error("E-UNKNOWN-RANK", f"{what} allows rank `{r}`, which is not in the deck", mt.pos,
                    suggest(r, ranks) or "ranks: " + " ".join(ranks))
    if mt.kind in ("group", "wild") and m.wild is None:
        d.error("E-MISSING", f"{what} ({mt.kind}) needs `wild:` (which cards are wild)", mt.pos)
    if mt.order is not None:
        for r in mt.order:
            if r not in ranks:
                d.error("E-UNKNOWN-RANK", f"{what} orders rank `{r}`, which is not in the deck",
                        mt.pos, suggest(r, ranks) or "ranks: " + " ".join(ranks))
    if mt.kind == "set" and mt.min > len(m.deck.suits) * copies:
        d.error("E-MELD-IMPOSSIBLE", f"{what} needs {mt.min} cards of one rank, but the deck has "
                f"only {len(m.deck.suits) * copies}", mt.pos, "lower `min`, or add deck copies")
    if mt.kind == "run":
        length = len(mt.order) if mt.order is not None else len(ranks)
        if mt.min > length:
            d.error("E-MELD-IMPOSSIBLE", f"{what} needs a run of {mt.min}, but its order has only "
                    f"{length} ranks", mt.pos)
    if mt.kind == "rank_groups" and not mt.groups:
        d.error("E-MISSING", f"{what} (rank_groups) needs `groups`, the sizes of its same-rank groups",
                mt.pos, "groups: [3, 2]   # three of a kind and a pair")
    if mt.groups and mt.kind != "rank_groups":
        d.error("E-IGNORED", f"{what}: `groups` applies only to `kind: rank_groups`", mt.pos)
    if mt.suits is not None and mt.kind != "run":
        d.error("E-IGNORED", f"{what}: `suits` applies only to `kind: run`", mt.pos)


def _go_outs(m: Ruleset, d: Diagnostics) -> None:
    for name, go in m.go_out.items():
        if not go.arrange and go.layoffs != "none":
            d.error("E-IGNORED", f"go_out `{name}`: `layoffs` needs melds to lay off onto, and `arrange: false` "
                    "shows the hand without melding it", go.pos, "remove `layoffs`, or arrange the hand")


def _zones(m: Ruleset, d: Diagnostics) -> None:
    z = m.zones
    if "stock" not in z or z["stock"].per != "table":
        d.error("E-MISSING", "the ruleset needs a table zone named `stock` (the undealt cards)", m.pos)
    if "hand" not in z or z["hand"].per != "player":
        d.error("E-MISSING", "the ruleset needs a per-player zone named `hand`", m.pos,
                "zones: {hand: {per: player, visible: owner}}")


def check_zone(m: Ruleset, d: Diagnostics, name, per: str, where: str, pos) -> None:
    """A key naming a zone names a declared one, owned as the key needs (`per`: player, table, team)."""
    if name is None:
        return
    spec = m.zones.get(name)
    if spec is None:
        named = f"zone `{name}`, which is not declared" if name != "" else "no zone (its name is empty)"
        d.error("E-UNKNOWN-ZONE", f"{where} names {named}", pos,
                suggest(name, m.zones) or "zones: " + ", ".join(m.zones))
    elif spec.per != per:
        d.error("E-ZONE-KIND", f"{where} needs a {per} zone, but `{name}` is a {spec.per} zone", pos)


def _reserves(m: Ruleset, d: Diagnostics) -> None:
    for name, z in m.zones.items():
        if z.reserve_for is not None:
            if z.per != "player":
                d.error("E-ZONE-KIND", f"the reserve packet `{name}` must be a per-player zone", z.pos)
            check_zone(m, d, z.reserve_for, "player", f"`zones.{name}.reserve_for`", z.pos)
    if m.auto_lay is not None:
        check_zone(m, d, m.auto_lay.to, "team" if m.teams is not None else "player", "`auto_lay.to`", m.auto_lay.pos)
        if m.auto_lay.replace_from is not None:
            check_zone(m, d, m.auto_lay.replace_from, "table", "`auto_lay.replace_from`", m.auto_lay.pos)
        elif m.auto_lay.when_empty != "play_on":
            d.error("E-IGNORED", f"`auto_lay.when_empty: {m.auto_lay.when_empty}` has no effect: nothing is "
                    "replaced without `replace_from`", m.auto_lay.pos,
                    "add `replace_from: stock` (or the zone replacements come from), or remove `when_empty`")


def _deal(m: Ruleset, d: Diagnostics) -> None:
    """The deal's steps are each one kind of step, written whole; then, with every player count and
    deal number, the deal fits the deck, gives the hand its cards and leaves the stock playable."""
    for i, s in enumerate(m.deal):
        if s.deals_all and i + 1 < len(m.deal):
            d.error("E-DEAL", "`deal: all` deals every card, so it must be the last deal step", s.pos)
    for i, s in enumerate(m.deal):
        if s.draft is not None:
            _draft_step(m, d, s, last=i + 1 == len(m.deal))
            continue
        if s.discard_to is not None or s.look is not None:
            d.error("E-IGNORED", "`discard_to` and `look` go with `draft`", s.pos)
        if s.set_aside is not None:
            _set_aside_step(m, d, s)
        elif (s.deal is None) == (s.turn_up is None):
            d.error("E-DEAL", "a deal step needs exactly one of `deal: COUNT` (with `to:`) or `turn_up: ZONE`",
                    s.pos)
        elif s.deal is not None:
            _deal_count_step(m, d, s)
        elif s.seat is not None:
            d.error("E-DEAL", "`seat` goes with `deal: COUNT` (the cards dealt to that seat)", s.pos)
        else:
            check_zone(m, d, s.turn_up, "table", "`turn_up`", s.pos)
    if not d:
        _deal_fits(m, d)


def _draft_step(m: Ruleset, d: Diagnostics, s, last: bool) -> None:
    """A `draft` step: alone in its step, the last one, with its zones."""
    if s.deal is not None or s.turn_up is not None or s.set_aside is not None:
        d.error("E-DEAL", "a deal step has one of `deal`, `turn_up`, `set_aside` or `draft`", s.pos)
    elif not last:
        d.error("E-DEAL", "`draft` builds the hands from what is left of the stock, so it must be the last "
                "deal step", s.pos)
    else:
        check_zone(m, d, s.draft, "player", "`draft`", s.pos)
        if s.discard_to is None or s.look is None:
            d.error("E-MISSING", "a `draft` step needs `discard_to:` (a table zone) and `look:` (a per-player "
                    "zone where the top card is looked at)", s.pos)
        else:
            check_zone(m, d, s.discard_to, "table", "`draft.discard_to`", s.pos)
            check_zone(m, d, s.look, "player", "`draft.look`", s.pos)


def _set_aside_step(m: Ruleset, d: Diagnostics, s) -> None:
    """A `set_aside` step: alone in its step, with the table zone it fills."""
    if s.deal is not None or s.turn_up is not None:
        d.error("E-DEAL", "a deal step has one of `deal`, `turn_up` or `set_aside`", s.pos)
    elif s.to is None:
        d.error("E-MISSING", "a `set_aside` step needs `to:` (the table zone the cards go to)", s.pos)
    else:
        check_zone(m, d, s.to, "table", "`set_aside.to`", s.pos)


def _deal_count_step(m: Ruleset, d: Diagnostics, s) -> None:
    """A `deal: COUNT` step: a per-player zone to deal to, and none of the keys of a turn-up."""
    if s.to is None:
        d.error("E-MISSING", "a `deal` step needs `to:` (the zone that receives the cards)", s.pos)
    check_zone(m, d, s.to, "player", "`deal.to`", s.pos)
    if s.bury_while is not None:
        d.error("E-DEAL", "`bury_while` goes with `turn_up`", s.pos)
    if s.cover_while is not None:
        d.error("E-DEAL", "`cover_while` goes with `turn_up`", s.pos)


class _Need:
    """What one deal (a player count, a deal number) asks of the deck: the cards it takes, those turned up
    to each table zone, the cards the hand zone gets, and the step asking for the most."""

    def __init__(self, first_pos):
        self.cards = 0
        self.turned: dict = {}
        self.to_hand = 0
        self.largest = (0, first_pos)


def _deal_fits(m: Ruleset, d: Diagnostics) -> None:
    """With every player count and deal number: the deal counts are whole numbers, the hand zone gets
    cards, the deck holds them all, and the stock-out condition does not hold at once."""
    params = m.param_values()
    play = card_play(m)
    hand = play[0].play_from(play[1]) if play is not None else "hand"
    numbers = deal_numbers(*([s.deal for s in m.deal if not s.deals_all] + [s.when for s in m.deal]))
    for n, num in ((n, num) for n in range(m.players.min, m.players.max + 1) for num in numbers):
        in_deal = f" in deal {num}" if len(numbers) > 1 else ""
        sd = Diagnostics()
        copies = setup_value(m.deck.copies, params, n, sd)
        jokers = setup_value(m.deck.jokers, params, n, sd)
        need = _deal_needs(m, d, sd, params, n, num, hand, in_deal)
        if need is None:
            return
        d.items.extend(sd.items)
        if sd or not whole(copies) or not whole(jokers):
            return
        size = copies * (len(m.deck.ranks) * len(m.deck.suits) + jokers)
        if not _deal_fits_deck(m, d, need, n, size, hand, in_deal):
            return


def _deal_fits_deck(m: Ruleset, d: Diagnostics, need: _Need, n: int, size: int, hand: str, in_deal: str) -> bool:
    """One deal gives the hand zone cards, fits a deck of ``size`` and leaves a stock the stock-out
    condition does not end at once; False after reporting the first that fails."""
    deck_exprs = [m.deck.copies, m.deck.jokers]
    count_exprs = [s.deal for s in m.deal if s.deal is not None and not s.deals_all]
    if not need.to_hand:
        hand_exprs = [s.deal for s in m.deal if s.deal is not None and s.to == hand]
        d.error("E-DEAL", f"with {n} players the deal gives nobody a card in `{hand}`"
                + _values(m, hand_exprs), _blame(m, hand_exprs, (hand_exprs or [m.deal[0]])[0].pos),
                f"deal at least one card to `{hand}`: players start the hand with the cards dealt there")
        return False
    if need.cards > size:
        exprs = count_exprs + deck_exprs
        d.error("E-DEAL-TOO-MANY", f"with {n} players the deal{in_deal} needs {need.cards} cards, but the deck "
                f"holds {size}" + _values(m, exprs), _blame(m, exprs, need.largest[1]),
                "deal fewer cards, or add deck copies")
        return False
    left = size - need.cards
    if m.stock_out is not None and not any(s.deals_all for s in m.deal) \
            and _stock_out_at_once(m, m.param_values(), n, left, need.turned):
        exprs = [m.stock_out.when] + count_exprs + deck_exprs
        d.error("E-STOCK-OUT", f"with {n} players the stock holds {left} card(s) after the deal, and "
                f"`stock_out.when` (`{m.stock_out.when.text}`) already holds: every hand would end "
                "before it begins" + _values(m, exprs), _blame(m, exprs, m.stock_out.when.pos),
                "deal fewer cards, or let the stock run lower before the hand ends")
        return False
    return True


def _deal_needs(m: Ruleset, d: Diagnostics, sd: Diagnostics, params: dict, n: int, num: int, hand: str,
                in_deal: str):
    """What the deal asks of the deck with ``n`` players in deal ``num`` (steps their `when` switches
    off left out), or None after reporting a deal count that is no whole number >= 0."""
    need = _Need(m.deal[0].pos)
    for s in m.deal:
        if s.when is not None:
            known, on = quiet_value(s.when, params, n, num)
            if known and not on:
                continue                        # switched off with these parameters
        if s.draft is not None or s.deals_all:
            need.to_hand += 1 if (s.draft if s.draft is not None else s.to) == hand else 0
        elif s.set_aside is not None:
            aside = setup_value(s.set_aside, params, n, sd)
            need.cards += len(aside) if isinstance(aside, (list, tuple)) else 0
        elif s.deal is not None:
            k = setup_value(s.deal, params, n, sd, num)
            if not whole(k) or k < 0:
                if not sd:
                    d.error("E-DEAL", f"the deal count gives {k!r} with {n} players{in_deal}; it must be a whole "
                            "number >= 0" + _values(m, [s.deal]), _blame(m, [s.deal], s.deal.pos),
                            f"the deal step is written at {s.deal.pos}")
                return None
            asked = k if s.seat is not None else k * n
            need.cards += asked
            need.largest = max(need.largest, (asked, s.deal.pos), key=lambda a: a[0])
            if s.to == hand:
                need.to_hand += k
        else:
            need.cards += 1
            need.turned[s.turn_up] = need.turned.get(s.turn_up, 0) + 1
    return need


class _DealtTable:
    """The table right after the deal, for judging a condition at load: the count of each table zone."""

    def __init__(self, n: int, zones: dict):
        self.n = n
        self.zones = zones
        self.env: dict = {}


def _stock_out_at_once(m: Ruleset, params: dict, n: int, left: int, turned: dict) -> bool:
    """Whether the stock-out condition already holds when the deal is done (so no hand can be played).

    Judged only when the condition reads nothing but parameters, ``players`` and how many cards
    the table zones hold; anything else is left to play."""
    table = [z for z, spec in m.zones.items() if spec.per == "table"]
    names = {"players": PLAYERS}
    for z in table:
        names[z] = Binding(lambda ctx, _z=z: ctx.zones[_z])
    sub = Diagnostics()
    fn = Scope(params, names, {}, diags=sub).compile(m.stock_out.when)
    if sub:
        return False
    counts = {z: [None] * turned.get(z, 0) for z in table}
    counts["stock"] = [None] * max(left, 0)
    try:
        return bool(fn(_DealtTable(n, counts)))
    except Exception:       # noqa: BLE001 -- left to play, where it is reported with its rule
        return False


def _counts(m: Ruleset, d: Diagnostics) -> None:
    """Counts that make no sense, where they are known at load (they read only parameters and
    ``players``): a draw or take of fewer than one card, a negative number of cards."""
    params = m.param_values()
    checks = []
    for st in m.turn:
        for a in st.actions:
            if a.count is not None and (a.draw is not None or a.take is not None):
                checks.append((a.count, 1, f"`count` of `{a.kind}: {a.draw or a.take}` in step `{st.step}`",
                               "a draw or a take moves at least one card"))
            if a.meld_with is not None:
                checks.append((a.meld_with.count, 0, f"`meld_with.count` in step `{st.step}`",
                               "the number of hand cards melded with the card taken"))
    for mech, section in present(m):                # the numbers the mechanics count with
        checks += mech.counts(m, section)
    for expr, least, what, why in checks:
        for n in range(m.players.min, m.players.max + 1):
            known, v = quiet_value(expr, params, n)
            if not known:
                break
            if not whole(v) or v < least:
                d.error("E-COUNT", f"{what} gives {v!r}" + (f" with {n} players" if m.players.min != m.players.max
                                                            else "") + f"; it must be a whole number >= {least}"
                        + _values(m, [expr]), _blame(m, [expr], expr.pos),
                        f"{why}; the rule is written at {expr.pos}")
                break


def _mechanics(m: Ruleset, d: Diagnostics) -> None:
    """Each mechanic's section (``rulesdsl.mechanics``): at most one plays the hand's cards, the
    sections it needs are there, then its own checks."""
    plays = [(mech, section) for mech, section in present(m) if mech.plays_cards]
    for mech, section in plays[1:]:
        d.error("E-TRICKS", f"a ruleset has either `{plays[0][0].key}` or `{mech.key}`, not both", section.pos)
    for mech, section in present(m):
        missing = [(key, why) for key, why in mech.requires.items() if m.sections.get(key) is None]
        for key, why in missing:
            d.error("E-MISSING", f"`{mech.key}` needs a `{key}` section ({why})", section.pos)
        if not missing:
            mech.check(m, section, d)


def card_play_sections() -> str:
    """The sections that play the hand's cards instead of turn steps, as a phrase: "a `A` or `B`"."""
    return "a " + " or ".join(f"`{x.key}`" for x in mechanics() if x.plays_cards)


_SEAT_NAMES = ("player", "dealer", "declarer", "defender")
_SEAT_FUNCTIONS = ("next_seat", "partner")
_PER_SIDE = ("score", "hands_won")


def _is_seat(e: E) -> bool:
    return (e.op == "name" and e.args[0] in _SEAT_NAMES) or (e.op == "call" and e.args[0] in _SEAT_FUNCTIONS)


def _team_scores(m: Ruleset, d: Diagnostics) -> None:
    """In a team game totals are kept per team: ``score(player)`` or ``player.hands_won`` would read the
    team whose number happens to equal the seat's."""
    if m.teams is None:
        return
    seen = set()
    for ex in _exprs(m):
        for n in _nodes(ex.ast):
            arg = None
            if n.op == "call" and n.args[0] in _PER_SIDE and len(n.args) == 2:
                what, arg = n.args[0], n.args[1]
                fixed = f"{what}(team_of({arg}))"
            elif n.op == "attr" and n.args[1] in _PER_SIDE:
                what, arg = n.args[1], n.args[0]
                fixed = f"{what}(team_of({arg}))"
            if arg is None or not _is_seat(arg) or (n.pos, str(n)) in seen:
                continue
            seen.add((n.pos, str(n)))
            d.error("E-TEAMS", f"`{n}`: in a team game {what.replace('_', ' ')} is kept per team, and "
                    f"`{arg}` is a seat", n.pos, f"write `{fixed}`")


def _ignored(m: Ruleset, d: Diagnostics) -> None:
    """Keys the ruleset's mechanics never read are errors: a silent typo or a misunderstanding."""
    if m.melds and m.table is None and not m.go_out and not _uses(m, "deadwood"):
        pos = next(iter(m.melds.values())).pos
        d.error("E-IGNORED", "`melds` has no effect: nothing in this ruleset makes melds (no `table:` of open "
                "melds, no `go_out`, no `deadwood(...)`)", pos, "remove `melds`, or add the rules that use them")
    plays_wild = any(mech.reads_wild(section) for mech, section in present(m))
    if m.wild is not None and m.table is None and not _uses(m, "is_wild") and not plays_wild:
        d.error("E-IGNORED", "`wild` has no effect: wild cards matter only in melds on the table (`table:`) "
                "or through `is_wild(card)`", m.wild.pos, "remove `wild`, or add a `table:` section")
    if m.roles and not any(mech.ranks_finishers for mech, _ in present(m)):
        d.error("E-IGNORED", "`roles` has no effect: roles name finishing positions, and no section of this "
                "ruleset ranks the players as they finish a deal", m.at("roles"),
                "remove `roles`, or add the card play that ranks finishers (e.g. `climbing:`)")
    play = card_play(m)
    play = play[0].key if play is not None else None
    if play and m.turn:
        d.error("E-IGNORED", f"`turn` has no effect: play follows `{play}`, not turn steps", m.turn[0].pos,
                f"remove `turn`, or `{play}` to play in turn steps")
    if play and m.first_turn is not None:
        d.error("E-IGNORED", f"`first_turn` has no effect: play follows `{play}`, not turn steps",
                m.first_turn.pos, "remove `first_turn`")
    for st in m.turn:
        for a in st.actions:
            if a.ending is not None and a.then != "end_hand":
                d.error("E-IGNORED", "`ending` names a way the hand ends: it applies only with `then: end_hand`",
                        a.pos, "add `then: end_hand`, or remove `ending`")
            if a.then is None:
                continue
            kind = a.kind
            why = None
            if kind == "discard":
                why = "a discard ends the turn"
            elif kind == "go_out":
                why = "going out ends the hand"
            elif kind == "ask":
                why = "the partner answers next, and the turn goes on in this step"
            elif kind in ("meld", "layoff", "draw", "take") and st.repeat:
                why = f"step `{st.step}` repeats: after a {kind} the turn stays in it"
            if why:
                d.error("E-IGNORED", f"`then: {a.then}` on `{kind}` has no effect: {why}", a.pos,
                        "remove `then`" + (", or make the step not repeat" if st.repeat and kind in
                                           ("meld", "layoff", "draw", "take") else ""))


def _contract(m: Ruleset, d: Diagnostics) -> None:
    """``table.contract`` gives meld type names: a text in a list it (or a derived value it reads) writes
    that names no meld type would stop every deal that reached it, so it is refused here."""
    contract = m.table.contract if m.table is not None else None
    if contract is None:
        return
    todo, read = [contract], set()
    while todo:
        for n in _nodes(todo.pop().ast):
            if n.op == "name" and n.args[0] in m.derived and n.args[0] not in read:
                read.add(n.args[0])
                todo.append(m.derived[n.args[0]])
            if n.op != "list":
                continue
            for item in n.args:
                word = item.args[0] if item.op == "const" else None
                if isinstance(word, str) and word not in m.melds:
                    d.error("E-UNKNOWN-MELD", f"`table.contract` names the meld type `{word}`, which `melds` "
                            "does not declare", item.pos,
                            suggest(word, list(m.melds)) or "meld types: " + ", ".join(m.melds))


def _stock_runs_out(m: Ruleset, d: Diagnostics) -> None:
    """A turn step that offers nothing but draws, from zones nothing puts cards back into, leaves its
    player with no legal action once they are empty.  Without ``stock_out`` (what happens then) such a
    file would validate and stop in every hand that draws them dry, so it is refused here."""
    if m.stock_out is not None or any(mech.plays_cards for mech, _ in present(m)):
        return                  # (turn steps beside a section that plays the cards are E-IGNORED)
    refilled = {a.discard for s in m.turn for a in s.actions if a.discard is not None}
    for s in m.turn:
        drawn = [a.draw for a in s.actions if a.draw is not None]
        if not s.actions or len(drawn) != len(s.actions) or refilled & set(drawn):
            continue
        zones = " or ".join(f"`{z}`" for z in dict.fromkeys(drawn))
        d.error("E-STOCK-OUT", f"step `{s.step}` offers only draws from {zones}, and nothing says what happens "
                f"when {'it runs' if len(set(drawn)) == 1 else 'they run'} out: its player would have no legal action",
                s.pos, f"add `stock_out: {{when: count({drawn[0]}) == 0, result: score}}` (or `void`, `reshuffle`), "
                "or another action to the step (`pass: true` with `when` and `then: end_hand`)")


def _going_out(m: Ruleset, d: Diagnostics) -> None:
    """``table.going_out``: a player who may not go out keeps 0 cards (melding out ends the turn) or at
    least 2 -- one kept card could only be discarded, and discarding it would go out."""
    go = m.table.going_out if m.table is not None else None
    if go is not None and go.keep_when_not_out == 1:
        d.error("E-RANGE", "`keep_when_not_out: 1` leaves the player nothing to end the turn with: discarding the "
                "one card kept would go out", go.pos,
                "keep 2 (discard one, keep one), or 0 (melding out ends the turn)")


def _turn(m: Ruleset, d: Diagnostics) -> None:
    """The turn's steps and actions are well formed, go-outs have free names, what needs open melds has
    a `table:` section, and the first turn's offer names its zones."""
    names = [s.step for s in m.turn]
    for i, s in enumerate(m.turn):
        if s.step in names[:i]:
            d.error("E-DUPLICATE", f"step `{s.step}` is declared twice", s.pos)
        for a in s.actions:
            _turn_action(m, d, a, names)
    _go_out_names(m, d)
    _needs_table(m, d)
    if m.match.end_bonus is not None and m.teams is not None:
        d.error("E-UNSUPPORTED", "`match.end_bonus` is not supported with `teams` yet", m.match.end_bonus.pos)
    if m.first_turn is not None:
        check_zone(m, d, m.first_turn.offer, "table", "`first_turn.offer`", m.first_turn.pos)
        check_zone(m, d, m.first_turn.if_all_pass.draw, "table", "`first_turn.if_all_pass.draw`", m.first_turn.pos)


def _turn_action(m: Ruleset, d: Diagnostics, a, names: list) -> None:
    """One action of a step: exactly one kind, its zone, the go-out and the step it names."""
    set_kinds = [k for k in ("draw", "take", "discard", "go_out", "meld", "layoff", "ask") if getattr(a, k) is not None]
    if a.pass_:
        set_kinds.append("pass")
    if len(set_kinds) != 1:
        d.error("E-ACTION", "an action needs exactly one of draw, take, discard, go_out, meld, layoff, pass "
                f"(found {', '.join(set_kinds) or 'none'})", a.pos)
        return
    if set_kinds[0] in ("draw", "take", "discard"):    # (an empty name too: it names no zone)
        check_zone(m, d, getattr(a, set_kinds[0]), "table", f"`{set_kinds[0]}`", a.pos)
    if a.go_out is not None and a.go_out not in m.go_out:
        d.error("E-UNKNOWN-GO-OUT", f"`go_out: {a.go_out}` is not declared under `go_out:`", a.pos,
                suggest(a.go_out, m.go_out) or "declared: " + ", ".join(m.go_out))
    if a.then is not None and a.then not in ("end_turn", "end_hand") and a.then not in names:
        d.error("E-UNKNOWN-STEP", f"`then: {a.then}` names no step", a.pos,
                suggest(a.then, names + ["end_turn", "end_hand"]) or "steps: " + ", ".join(names))
    if (a.meld or a.layoff) and m.table is None:
        d.error("E-MISSING", "`meld` and `layoff` actions need a `table:` section (open melds)", a.pos,
                "table: {owner: player}")


def _go_out_names(m: Ruleset, d: Diagnostics) -> None:
    """A go-out's name is a plain word that is no action of the notation."""
    for name, g in m.go_out.items():
        if name in builtin_verbs():
            d.error("E-RESERVED", f"`{name}` is a built-in action and cannot name a go-out", g.pos)
        elif name.lower() in builtin_verbs() or not name.isidentifier():
            d.error("E-NAME", f"`{name}` cannot name a go-out: use a plain word that is not an action",
                    g.pos, "built-in actions: " + ", ".join(builtin_verbs()))


def _needs_table(m: Ruleset, d: Diagnostics) -> None:
    """A deep `take`, `must_meld`, `meld_with` and `claims` need open melds (`table:`); `ask` needs
    `table.going_out`, what the partner is asked about."""
    table_needed = []
    for s in m.turn:
        for a in s.actions:
            if a.take is not None and (a.depth == "any" or a.must_meld is not None or a.meld_with is not None):
                table_needed.append(("a deep `take`, `must_meld` or `meld_with`", a.pos))
            if a.ask is not None and (m.table is None or m.table.going_out is None):
                d.error("E-MISSING", "`ask` needs `table.going_out` (what the partner is asked about)", a.pos)
    if m.claims:
        table_needed.append(("`claims`", m.pos))
    if m.table is None:
        for what, pos in table_needed:
            d.error("E-MISSING", f"{what} needs a `table:` section (open melds)", pos, "table: {owner: player}")
