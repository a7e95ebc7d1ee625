"""The names and builtins an expression may use, and how each reads the game state.

This is the contract between compiled rules and the engine: a getter here reads an attribute of the
evaluation context (the engine's ``Game``), and the engine keeps those attributes current.  The list
is the language reference for names (see docs/language.md, "Names").

State attributes read here: ``zones`` (table zone name -> list), ``pzones`` (per-player zone name ->
list of lists), ``tzones`` (per-team), ``actor`` (seat deciding now), ``dealer``, ``declarer``,
``defender``, ``winner``, ``team_cur`` (team being scored), ``cand`` (the card an action is being
checked for), ``cand_as``/``cand_meld`` (a placed card's identity and meld), ``taken``/``taken_cards``
(cards taken from a pile this turn), ``naturals``/``wilds`` (meld conditions), ``facts`` (cards remembered at the deal), ``ending``,
``scores``, ``hands_won``, ``final_deadwood``, ``hand_number``, ``n`` (players), ``scorer``, ``env``.
Each mechanic of ``rulesdsl.mechanics`` gives its own names (``Mechanic.names``).
"""

from __future__ import annotations

from typing import Any, Optional

from ..expr.compiler import Binding, Builtin
from ..mechanics.registry import present
from .cards import CardTable


def zone_bindings(table_zones: list[str], player_zones: list[str]) -> dict[str, Binding]:
    names: dict[str, Binding] = {}
    for z in table_zones:
        names[z] = Binding(lambda g, _z=z: g.zones[_z], f"the cards of the table zone `{z}`", shows="cards")
    for z in player_zones:
        names[z] = Binding(_player_zone(z), f"the acting player's `{z}`", shows="cards")
    return names


def _player_zone(z: str):
    """The acting player's zone ``z``; ``player_zone`` names it for builtins that fuse with it."""
    def get(g):
        return g.pzones[z][g.actor]
    get.player_zone = z
    return get


def state_bindings(fact_names: list[str]) -> dict[str, Binding]:
    names = {
        "player": Binding(lambda g: g.actor, "the seat being decided for (or scored)"),
        "dealer": Binding(lambda g: g.dealer, "the dealer's seat"),
        "declarer": Binding(lambda g: g.declarer, "the seat that went out"),
        "defender": Binding(lambda g: g.defender, "the declarer's opponent (two-player games)"),
        "winner": Binding(lambda g: g.winner, "the match winner (in end bonuses)"),
        "card": Binding(lambda g: g.cand, "the card the action would move", shows="card"),
        "ending": Binding(lambda g: g.ending, "how the hand ended: a go_out name, or `void`", type="text"),
        "players": Binding(lambda g: g.n, "the number of players", type="number"),
        "seats": Binding(lambda g: range(g.n), "every seat, 0 .. players-1"),
        "max_score": Binding(lambda g: max(g.scores), "the highest running total", type="number"),
        "min_score": Binding(lambda g: min(g.scores), "the lowest running total", type="number"),
        "turn.taken": Binding(lambda g: g.taken, "the card taken from a pile this turn (or none)", shows="card"),
        "turn.drawn": Binding(lambda g: g.drawn, "the card last drawn from a stock this turn (or none)",
                              shows="card"),
        "arrived": Binding(lambda g: g.arrived, "in auto_lay.replace_when: how the laid card reached the hand "
                           "(\"dealt\", \"drawn\", \"taken\")", type="text"),
        "deal.reshuffles": Binding(lambda g: g.reshuffles, "times the discard pile became the stock this hand",
                                   type="number"),
        "deal.number": Binding(lambda g: g.hand_number, "1 for the first hand, 2 for the next, ...", type="number"),
        "deal.scorer": Binding(lambda g: g.scorer, "the seat that scored the hand just ended"),
        "previous_order": Binding(lambda g: g.previous_order, "the last deal's finishing order (seats; empty "
                                  "before the first deal has ended, or where nothing ranks the players)"),
    }
    for f in fact_names:
        names[f"deal.{f}"] = Binding(lambda g, _f=f: g.facts.get(_f), f"the card remembered as `{f}` at the deal",
                                     shows="card")
    return names


def table_bindings() -> dict[str, Binding]:
    """Names for open melds: the cards taken this turn, and (in ``placed_value``) the placed card."""
    return {
        "turn.taken_cards": Binding(lambda g: g.taken_cards, "every card taken from a pile this turn", shows="cards"),
        "as": Binding(lambda g: g.cand_as, "in placed_value: the card a placed card stands for"),
        "meld.kind": Binding(lambda g: g.cand_meld.kind, "in placed_value: \"run\" or \"set\""),
        "meld.ranks": Binding(lambda g: g.cand_meld_ranks, "in placed_value: the rank names the meld holds"),
    }


def team_bindings(team_zones: list[str], teams: bool) -> dict[str, Binding]:
    """Names for partnerships (the team being scored), and meld counts for meld conditions."""
    names = {
        "naturals": Binding(lambda g: g.naturals, "in meld conditions: natural cards in the meld", type="number"),
        "wilds": Binding(lambda g: g.wilds, "in meld conditions: wild cards in the meld", type="number"),
    }
    if teams:
        names["team"] = Binding(lambda g: g.team_cur, "the team being scored (in each_team)")
    for z in team_zones:
        names[z] = Binding(lambda g, _z=z: g.tzones[_z][g.team_of(g.actor)], f"the acting team's `{z}`",
                           shows="cards")
    return names


def card_class_builtins(classes: list[str], late: dict, table: CardTable, colors: dict) -> dict[str, Builtin]:
    """One predicate per declared card class (``wild(card)``, ``red_three(card)``), and ``color``."""
    out = {}
    for name in classes:
        out[name] = Builtin(lambda g, c, _n=name: c is not None and late["classes"][_n][c], (1, 1),
                            f"whether a card is of the class `{name}`", returns="bool")
    suit_name, s_of = table.suits, table.suit
    out["color"] = Builtin(lambda g, c: None if c is None or s_of[c] < 0 else colors.get(suit_name[s_of[c]]),
                           (1, 1), "a card's colour from `deck.colors`", pure=True, returns="text")
    return out


def seat_attrs(player_zones: list[str], team_zones: list[str] = (), members: Optional[dict] = None,
               totals: tuple = ()) -> dict[str, Any]:
    """What ``SEAT.NAME`` reads: a seat's score, hands won and deadwood, its zones (a team's, for a team
    zone), the members the mechanics give every seat (``members``: name -> fn(game, seat)) and the
    running totals."""
    attrs = {
        "score": lambda g, s: g.scores[s],
        "hands_won": lambda g, s: g.hands_won[s],
        "deadwood": lambda g, s: g.final_deadwood[s],
    }
    for z in player_zones:
        attrs[z] = lambda g, s, _z=z: g.pzones[_z][s]
    for z in team_zones:
        attrs[z] = lambda g, t, _z=z: g.tzones[_z][t]
    attrs.update(members or {})
    for t in totals:
        attrs[t] = lambda g, s, _t=t: g.totals[_t][s]
    return attrs


def _melded(g, seat: int, late: dict) -> int:
    """Sum of ``placed_value`` over the cards ``seat`` placed (each judged where it lies)."""
    pv = late.get("placed_value")
    kind_rank = g.prog.cards.kind_rank
    ranks = g.prog.cards.ranks
    total = 0
    saved = (g.cand, getattr(g, "cand_as", None), getattr(g, "cand_meld", None),
             getattr(g, "cand_meld_ranks", None))
    try:
        for m in g.melds:
            g.cand_meld = m
            g.cand_meld_ranks = [ranks[kind_rank[k]] for k in m.declared]
            for c, k, p in zip(m.cards, m.declared, m.placers):
                if p != seat:
                    continue
                if pv is None:
                    total += g.prog.cards.value[c]
                    continue
                g.cand, g.cand_as = c, k
                total += pv(g)
    finally:
        g.cand, g.cand_as, g.cand_meld, g.cand_meld_ranks = saved
    return total


def _meld_rank(g, m) -> Optional[str]:
    """The rank name a set or group meld is of (None for runs and melds of wild cards)."""
    if m.kind not in ("set", "group") or not m.declared:
        return None
    r = g.prog.cards.kind_rank[m.declared[0]]
    return g.prog.cards.ranks[r] if r >= 0 else None


def _holder(g, text) -> Any:
    """The seat holding a card of this text in its hand (the first in seat order), or None."""
    cards = g.prog.cards
    kind = cards.parse_kind(text) if isinstance(text, str) else None
    if kind is None:
        return None
    zone = g.prog.hand_zone
    k_of = cards.kind
    for seat, hand in enumerate(g.pzones[zone]):
        if any(k_of[c] == kind for c in hand):
            return seat
    return None


def builtins(table: CardTable, arranger: Any, late: dict | None = None) -> dict[str, Builtin]:
    """The builtin functions.  ``late`` is filled after compiling (wild flags, meld rules, the
    placed-value rule), for builtins that need them."""
    late = late if late is not None else {}
    rank_name, suit_name, value = table.ranks, table.suits, table.value
    r_of, s_of = table.rank, table.suit

    def _value(g, c):
        return 0 if c is None else value[c]

    def _rank(g, c):
        return None if c is None or r_of[c] < 0 else rank_name[r_of[c]]

    def _suit(g, c):
        return None if c is None or s_of[c] < 0 else suit_name[s_of[c]]

    deadwood_of_cards = arranger.deadwood_of if arranger is not None else None
    by_mask = arranger.arranger.deadwood if arranger is not None and arranger.arranger is not None else None

    def _deadwood(g, x):
        if by_mask is not None:
            m = getattr(x, "mask", None)     # a zone: its mask is kept current (engine.zones.Cards)
            if m is not None:
                return by_mask(m)
        if x.__class__ is int:
            return g.final_deadwood[x]
        if deadwood_of_cards is None:
            return sum(value[c] for c in x)
        return deadwood_of_cards(x)

    def _fuse_deadwood(arg):
        """deadwood(zone): read the zone's maintained mask straight into the memoised search."""
        if by_mask is None:
            return None
        zone = getattr(arg, "player_zone", None)
        if zone is not None:                 # the acting player's zone: always a Cards with its mask
            def run_zone(g):
                return by_mask(g.pzones[zone][g.actor].mask)
            return run_zone

        def run(g):
            x = arg(g)
            try:
                return by_mask(x.mask)
            except AttributeError:
                return _deadwood(g, x)
        return run

    return {
        "value": Builtin(_value, (1, 1), "a card's value", pure=True, returns="number"),
        "rank": Builtin(_rank, (1, 1), "a card's rank name, e.g. \"A\"", pure=True, returns="text"),
        "suit": Builtin(_suit, (1, 1), "a card's suit name, e.g. \"S\"", pure=True, returns="text"),
        "deadwood": Builtin(_deadwood, (1, 1),
                            "deadwood(cards): the minimum unmelded value; deadwood(seat): that seat's final count",
                            fuse=_fuse_deadwood, returns="number"),
        "next_seat": Builtin(lambda g, s: g.next_seat(s), (1, 1), "the seat after a seat in turn order"),
        "score": Builtin(lambda g, s: g.scores[s], (1, 1), "a seat's running total", returns="number"),
        "hands_won": Builtin(lambda g, s: g.hands_won[s], (1, 1), "hands a seat has won", returns="number"),
        "opponents": Builtin(lambda g, s: [p for p in range(g.n) if p != s], (1, 1), "every other seat"),
        "seat_after": Builtin(lambda g, s, k: (s + k) % g.n, (2, 2),
                              "the seat k places to the left of a seat (k < 0: to the right; 0: the seat itself)"),
        "abs": Builtin(lambda g, x: abs(x), (1, 1), "absolute value", pure=True, returns="number"),
        "is_joker": Builtin(lambda g, c: c is not None and r_of[c] < 0, (1, 1), "whether a card is a joker",
                            pure=True),
        "is_wild": Builtin(lambda g, c: bool(late["wild"][c]), (1, 1), "whether a card is wild"),
        "playable": Builtin(lambda g, c: late["table_rules"].fits_somewhere(g.melds, c), (1, 1),
                            "whether a card could be laid off onto a meld on the table"),
        "fits_own": Builtin(lambda g, c: c is not None and late["table_rules"].fits_somewhere(
                                [m for m in g.melds if m.owner == g.owner_of(g.actor)], c), (1, 1),
                            "whether a card could be laid off onto one of the acting side's melds"),
        "meld_size": Builtin(lambda g, side, r: max((len(m.cards) for m in g.melds if m.owner == side
                                                     and _meld_rank(g, m) == r), default=0),
                             (2, 2), "the size of a side's largest meld of a rank (0: none), e.g. meld_size(team, \"7\")",
                             returns="number"),
        "melded": Builtin(lambda g, s: _melded(g, s, late), (1, 1),
                          "the value of every card a seat placed on the table this hand"),
        "held": Builtin(lambda g, s: sum(value[c] for c in g.pzones["hand"][s]), (1, 1),
                        "the value of the cards left in a seat's hand", shows="secret"),
        "team_of": Builtin(lambda g, s: g.team_of(s), (1, 1), "the team a seat plays for"),
        "partner": Builtin(lambda g, s: g.partner(s), (1, 1), "a seat's partner"),
        "members": Builtin(lambda g, t: g.members(t), (1, 1), "the seats of a team"),
        "in_reserve": Builtin(lambda g, s: g.picked_up[s], (1, 1),
                              "whether a seat has picked up its reserve packet (is playing from it)"),
        "reserve_turns": Builtin(lambda g, s: g.reserve_turns[s], (1, 1),
                                 "complete turns a seat has begun with its reserve packet in hand"),
        "answer": Builtin(lambda g, s: g.answers.get(s), (1, 1), "the partner's answer this turn (\"yes\"/\"no\")",
                          returns="text"),
        "team_books": Builtin(lambda g, t, kind: sum(1 for m in g.melds if m.owner == t and m.book == kind), (2, 2),
                              "how many books of a type a team has"),
        "melded_value": Builtin(lambda g, t: sum(value[c] for m in g.melds if m.owner == t for c in m.cards), (1, 1),
                                "the value of every card on a team's melds"),
        "team_melded": Builtin(lambda g, t: g.team_melded[t], (1, 1), "whether a team has made its initial meld"),
        "held_cards": Builtin(lambda g, s: g.held_cards(s), (1, 1),
                              "a seat's hand, plus its reserve packet if not yet picked up", shows="secret"),
        "top": Builtin(lambda g, z: z[-1] if len(z) else None, (1, 1), "the top card of a zone (or none)",
                       shows="card"),
        "marked": Builtin(lambda g, c, name: c in g.marks.get(name, {}), (2, 2),
                          "whether a card carries a mark made when it was discarded"),
        "marks_by": Builtin(lambda g, t, name: sum(k for s, k in enumerate(g.mark_counts.get(name, ()))
                                                   if g.team_of(s) == t),
                            (2, 2), "how many discards of a team's players made this mark this hand (a card "
                            "marked, taken back and marked again counts twice)"),
        "holder": Builtin(lambda g, t: _holder(g, t), (1, 1),
                          "the seat whose hand holds a card (by its text, e.g. \"3D\"), or none", shows="secret"),
    }


def builtin_docs() -> dict[str, tuple[str, tuple[int, int]]]:
    """Every builtin function's doc and arity (min, max), read from the same table the compiler
    uses (built over an empty deck), so tools such as the language server's hover never restate it."""
    from types import SimpleNamespace

    empty = SimpleNamespace(ranks=(), suits=(), value=(), rank=(), suit=())
    table = {**builtins(empty, None), **card_class_builtins([], {}, empty, {})}  # type: ignore[arg-type]
    from ..mechanics.registry import mechanics
    for mech in mechanics():                       # a mechanic's own builtins (`tricks`, `bid`, `position`)
        table.update(mech.builtins(None, {}))
    return {name: (b.doc, b.arity) for name, b in table.items()}


def name_docs() -> dict[str, str]:
    """The docs of the names every ruleset may use in expressions (``player``, ``dealer``,
    ``turn.taken`` ...), for tools; zones, parameters and derived names come from the ruleset."""
    return {name: b.doc for name, b in state_bindings([]).items()}


def closed_sets(model, cards) -> dict[str, tuple]:
    """The texts some names and functions can ever give, for a ruleset: a comparison of one of them
    with a text outside its set can never hold, so it is refused at load (``ending == "gim"``).
    Keys are a name (``ending``), a member (``params.mode``, ``trick.led``) or a call (``rank()``)."""
    ranks, suits = tuple(cards.ranks), tuple(cards.suits)
    out = {"ending": model.endings(), "rank()": ranks, "suit()": suits, "answer()": ("yes", "no")}
    for name, p in model.params.items():
        if p.choices and all(isinstance(c, str) for c in p.choices):
            out[f"params.{name}"] = tuple(p.choices)
    if model.roles:
        out["role()"] = tuple(dict.fromkeys(r[0] for row in model.roles.values() for r in row))
    for mech, section in present(model):
        out.update(mech.closed_sets(model, section, cards))
    return out
