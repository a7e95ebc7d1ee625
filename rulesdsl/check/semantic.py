"""Semantic checks of a built model: the mistakes a schema cannot see.

Unknown ranks or zones, meld types that can never be made, deals that need more cards than the deck
holds, steps that name missing go-outs, parameter defaults outside their choices.  Each problem is a
located diagnostic; all are collected in one pass.
"""

from __future__ import annotations

from ..errors import Diagnostics, suggest
from ..model.game import BUILTIN_VERBS, Ruleset
from ..model.setup import setup_value


def check_model(m: Ruleset, diags: Diagnostics) -> None:
    _params(m, diags)
    _constraints(m, diags)
    _deck(m, diags)
    _melds(m, diags)
    _zones(m, diags)
    _deal(m, diags)
    _turn(m, diags)
    _climbing(m, diags)
    _reserves(m, diags)
    _scoring(m, diags)


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


def _climbing(m: Ruleset, d: Diagnostics) -> None:
    c = m.climbing
    if c is None:
        if m.exchange:
            d.error("E-MISSING", "`exchange` needs a `climbing` section (it uses its rank order)", m.pos)
        return
    _zone(m, d, c.play_from, "player", "`climbing.play_from`", c.pos)
    _zone(m, d, c.to, "table", "`climbing.to`", c.pos)
    _zone(m, d, c.cleared_to, "table", "`climbing.cleared_to`", c.pos)
    if len(c.sizes) != 2 or c.sizes[0] > c.sizes[1]:
        d.error("E-RANGE", "`climbing.sizes` is [min, max] with min <= max", c.pos)
    if c.order is not None:
        for r in c.order:
            if r != "joker" and r not in m.deck.ranks:
                d.error("E-UNKNOWN-RANK", f"`climbing.order` names `{r}`, which is not a rank of the deck",
                        c.pos, suggest(r, list(m.deck.ranks) + ["joker"]))
    if m.roles:
        for n in range(m.players.min, m.players.max + 1):
            rows = m.roles.get(n)
            if rows is None:
                d.error("E-ROLES", f"`roles` has no list for {n} players", m.pos,
                        "give one [role, points] per finishing position for every allowed player count")
            elif len(rows) != n:
                d.error("E-ROLES", f"`roles` for {n} players lists {len(rows)} positions", m.pos)


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
    if not m.turn and m.climbing is None:
        d.error("E-MISSING", "the ruleset needs `turn` steps (or a `climbing` section)", m.pos)


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
                d.error("E-RANGE", f"parameter `{p.name}` is {p.default}, outside {p.lo} to {p.hi}", p.pos)


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


def _copies_min(m: Ruleset) -> int:
    """The fewest deck copies any allowed player count gets (for "can this meld ever be made")."""
    best = None
    for n in range(m.players.min, m.players.max + 1):
        v = setup_value(m.deck.copies, m.param_values(), n, Diagnostics())
        if isinstance(v, int):
            best = v if best is None else min(best, v)
    return best or 1


def _melds(m: Ruleset, d: Diagnostics) -> None:
    ranks = m.deck.ranks
    kinds = {"run": 0, "set": 0, "group": 0, "wild": 0}
    copies = _copies_min(m)
    for name, mt in m.melds.items():
        kinds[mt.kind] += 1
        if mt.max is not None and mt.max < mt.min:
            d.error("E-MELD-IMPOSSIBLE", f"meld `{name}` has max {mt.max} below min {mt.min}", mt.pos)
        for r in (mt.ranks or ()):
            if r not in ranks:
                d.error("E-UNKNOWN-RANK", f"meld `{name}` allows rank `{r}`, which is not in the deck", mt.pos,
                        suggest(r, ranks) or "ranks: " + " ".join(ranks))
        if mt.kind in ("group", "wild") and m.wild is None:
            d.error("E-MISSING", f"meld `{name}` ({mt.kind}) needs `wild:` (which cards are wild)", mt.pos)
        if mt.order is not None:
            for r in mt.order:
                if r not in ranks:
                    d.error("E-UNKNOWN-RANK", f"meld `{name}` orders rank `{r}`, which is not in the deck",
                            mt.pos, suggest(r, ranks) or "ranks: " + " ".join(ranks))
        if mt.kind == "set" and mt.min > len(m.deck.suits) * copies:
            d.error("E-MELD-IMPOSSIBLE", f"meld `{name}` needs {mt.min} cards of one rank, but the deck has "
                    f"only {len(m.deck.suits) * copies}", mt.pos, "lower `min`, or add deck copies")
        if mt.kind == "run":
            length = len(mt.order) if mt.order is not None else len(ranks)
            if mt.min > length:
                d.error("E-MELD-IMPOSSIBLE", f"meld `{name}` needs a run of {mt.min}, but its order has only "
                        f"{length} ranks", mt.pos)
    for k, count in kinds.items():
        if count > 1:
            d.error("E-UNSUPPORTED", f"more than one `{k}` meld type is not supported yet", m.pos,
                    "merge them into one meld type")


def _zones(m: Ruleset, d: Diagnostics) -> None:
    z = m.zones
    if "stock" not in z or z["stock"].per != "table":
        d.error("E-MISSING", "the ruleset needs a table zone named `stock` (the undealt cards)", m.pos)
    if "hand" not in z or z["hand"].per != "player":
        d.error("E-MISSING", "the ruleset needs a per-player zone named `hand`", m.pos,
                "zones: {hand: {per: player, visible: owner}}")


def _zone(m: Ruleset, d: Diagnostics, name, per: str, where: str, pos) -> None:
    if name is None:
        return
    spec = m.zones.get(name)
    if spec is None:
        d.error("E-UNKNOWN-ZONE", f"{where} names zone `{name}`, which is not declared", pos,
                suggest(name, m.zones) or "zones: " + ", ".join(m.zones))
    elif spec.per != per:
        d.error("E-ZONE-KIND", f"{where} needs a {per} zone, but `{name}` is a {spec.per} zone", pos)


def _reserves(m: Ruleset, d: Diagnostics) -> None:
    for name, z in m.zones.items():
        if z.reserve_for is not None:
            if z.per != "player":
                d.error("E-ZONE-KIND", f"the reserve packet `{name}` must be a per-player zone", z.pos)
            _zone(m, d, z.reserve_for, "player", f"`zones.{name}.reserve_for`", z.pos)
    if m.auto_lay is not None:
        _zone(m, d, m.auto_lay.to, "team" if m.teams is not None else "player", "`auto_lay.to`", m.auto_lay.pos)
        if m.auto_lay.replace_from is not None:
            _zone(m, d, m.auto_lay.replace_from, "table", "`auto_lay.replace_from`", m.auto_lay.pos)


def _deal(m: Ruleset, d: Diagnostics) -> None:
    for i, s in enumerate(m.deal):
        if s.deals_all and i + 1 < len(m.deal):
            d.error("E-DEAL", "`deal: all` deals every card, so it must be the last deal step", s.pos)
    for s in m.deal:
        if (s.deal is None) == (s.turn_up is None):
            d.error("E-DEAL", "a deal step needs exactly one of `deal: COUNT` (with `to:`) or `turn_up: ZONE`",
                    s.pos)
            continue
        if s.deal is not None:
            if s.to is None:
                d.error("E-MISSING", "a `deal` step needs `to:` (the zone that receives the cards)", s.pos)
            _zone(m, d, s.to, "player", "`deal.to`", s.pos)
            if s.bury_while is not None:
                d.error("E-DEAL", "`bury_while` goes with `turn_up`", s.pos)
        else:
            _zone(m, d, s.turn_up, "table", "`turn_up`", s.pos)
    if d:
        return
    params = m.param_values()
    for n in range(m.players.min, m.players.max + 1):
        sd = Diagnostics()
        copies = setup_value(m.deck.copies, params, n, sd)
        jokers = setup_value(m.deck.jokers, params, n, sd)
        need = 0
        for s in m.deal:
            if s.deals_all:
                continue
            if s.deal is not None:
                k = setup_value(s.deal, params, n, sd)
                if not isinstance(k, int) or k < 0:
                    if not sd:
                        d.error("E-DEAL", f"the deal count gives {k!r} with {n} players; it must be a whole "
                                "number >= 0", s.deal.pos)
                    continue
                need += k * n
            else:
                need += 1
        d.items.extend(sd.items)
        if sd or not isinstance(copies, int) or not isinstance(jokers, int):
            return
        size = copies * (len(m.deck.ranks) * len(m.deck.suits) + jokers)
        if need > size:
            d.error("E-DEAL-TOO-MANY", f"with {n} players the deal needs {need} cards, but the deck holds "
                    f"{size}", m.deal[0].pos, "deal fewer cards, or add deck copies")
            return


def _turn(m: Ruleset, d: Diagnostics) -> None:
    names = [s.step for s in m.turn]
    for i, s in enumerate(m.turn):
        if s.step in names[:i]:
            d.error("E-DUPLICATE", f"step `{s.step}` is declared twice", s.pos)
        for a in s.actions:
            set_kinds = [k for k in ("draw", "take", "discard", "go_out", "meld", "layoff", "ask")
                         if getattr(a, k) is not None]
            if a.pass_:
                set_kinds.append("pass")
            if len(set_kinds) != 1:
                d.error("E-ACTION", "an action needs exactly one of draw, take, discard, go_out, meld, layoff, pass "
                        f"(found {', '.join(set_kinds) or 'none'})", a.pos)
                continue
            if a.draw or a.take or a.discard:
                _zone(m, d, a.draw or a.take or a.discard, "table", f"`{set_kinds[0]}`", a.pos)
            if a.go_out is not None and a.go_out not in m.go_out:
                d.error("E-UNKNOWN-GO-OUT", f"`go_out: {a.go_out}` is not declared under `go_out:`", a.pos,
                        suggest(a.go_out, m.go_out) or "declared: " + ", ".join(m.go_out))
            if a.then is not None and a.then not in ("end_turn", "end_hand") and a.then not in names:
                d.error("E-UNKNOWN-STEP", f"`then: {a.then}` names no step", a.pos,
                        suggest(a.then, names + ["end_turn", "end_hand"]) or "steps: " + ", ".join(names))
            if (a.meld or a.layoff) and m.table is None:
                d.error("E-MISSING", "`meld` and `layoff` actions need a `table:` section (open melds)", a.pos,
                        "table: {owner: player}")
    for name, g in m.go_out.items():
        if name in BUILTIN_VERBS:
            d.error("E-RESERVED", f"`{name}` is a built-in action and cannot name a go-out", g.pos)
        elif name.lower() in BUILTIN_VERBS or not name.isidentifier():
            d.error("E-NAME", f"`{name}` cannot name a go-out: use a plain word that is not an action",
                    g.pos, "built-in actions: " + ", ".join(BUILTIN_VERBS))
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
    if m.match.end_bonus is not None and m.teams is not None:
        d.error("E-UNSUPPORTED", "`match.end_bonus` is not supported with `teams` yet", m.match.end_bonus.pos)
    if m.first_turn is not None:
        _zone(m, d, m.first_turn.offer, "table", "`first_turn.offer`", m.first_turn.pos)
        _zone(m, d, m.first_turn.if_all_pass.draw, "table", "`first_turn.if_all_pass.draw`", m.first_turn.pos)
