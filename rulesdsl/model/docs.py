"""Short documentation of the sections and main keys, for tools that explain a ruleset as it is
written (the language server's hover and completion).

A key's ``Field.doc`` (in ``model.game``) says what it is where one is written; this table adds what
the schema leaves unsaid, mostly the top-level sections, in the words of docs/language.md.  It is
kept apart from the schema so adding to it never changes how a ruleset loads.
"""

from __future__ import annotations

from typing import Optional

from ..mechanics.registry import by_key

#: dotted key path (list items left out: ``turn.actions``) -> what the key is
SECTION_DOCS: dict[str, str] = {
    "extends": "the ruleset this one changes: a bundled name (`rulesdsl list`), or a path relative to "
               "this file and inside its folder; maps merge key by key, anything else replaces",
    "name": "the game's name, as shown to players",
    "description": "a line about the game",
    "players": "the number of players: `2`, or `{min: 4, max: 7, default: 5}` where a game allows a range",
    "players.min": "the fewest players", "players.max": "the most players",
    "players.default": "the player count when none is asked for (default: min)",
    "params": "parameters with defaults; rules read them as `params.NAME`, so a variant changes a "
              "parameter instead of a rule.  A bare default, or `{default, choices, min, max, length, doc}`",
    "params.default": "the parameter's value unless a variant or `--set` changes it; its kind (number, "
                       "true/false, word, list) is the parameter's",
    "params.choices": "the values the parameter may take", "params.min": "the lowest value allowed",
    "params.max": "the highest value allowed",
    "params.length": "a list parameter's length (a number, or `any`); default: the default's",
    "params.doc": "what the parameter means (shown by tools)",
    "deck": "the cards: ranks low to high, suits, values, copies and jokers",
    "deck.suits": "suit names, e.g. [S, H, D, C]",
    "deck.colors": "suit -> colour name, read by `color(card)`",
    "melds": "named meld types (run, set, group, ...) that deadwood, going out and the table use",
    "zones": "named piles of cards: `per` table, player or team, and who sees them (`visible`); a table "
             "zone `stock` and a per-player zone `hand` are required",
    "zones.per": "one zone on the table, one per player, or one per team",
    "zones.visible": "who sees the cards: none, top (the top card), all, owner, team",
    "deal": "the deal, a list of steps: `{deal: N, to: hand}` deals N cards each, `{turn_up: discard, "
            "as: upcard}` turns one face up",
    "deal.to": "the zone that receives the cards",
    "first_turn": "the first turn's offer of a pile's top card to players in order",
    "first_turn.offer": "the pile whose top card is offered",
    "first_turn.to": "who is offered the card, in order (each may take it or pass)",
    "first_turn.if_all_pass": "what happens when everyone passes: that seat draws from that zone",
    "derived": "named expressions used like parameters; a heading `name(a, b)` makes a function",
    "turn": "a turn: a list of steps, each offering a list of actions",
    "turn.step": "the step's name (an action's `then:` may name it)",
    "turn.actions": "the choices offered in this step; each is one of draw, take, discard, go_out, meld, "
                    "layoff, ask or pass",
    "turn.actions.draw": "draw from this zone (a stock)", "turn.actions.take": "take from this zone (a pile)",
    "turn.actions.discard": "discard to this zone (it ends the turn)",
    "turn.actions.go_out": "go out under this name (a key of `go_out:`)",
    "turn.actions.pass": "pass: do nothing in this step",
    "turn.actions.when": "the action is offered only when this holds",
    "turn.actions.forbid": "refuse the action for a `card` for which this holds",
    "turn.actions.rule": "the rule's name, given when the action is refused",
    "turn.actions.then": "the step to go to after this action (a step name, `end_turn` or `end_hand`)",
    "go_out": "named ways to go out: when each is allowed and what it discards",
    "go_out.when": "the go-out is allowed only when this holds",
    "go_out.rule": "the rule's name, given when the go-out is refused",
    "stock_out": "what happens when the stock runs low: `when` it ends the hand, and the `result`",
    "stock_out.when": "the hand ends this way when this holds after a turn",
    "stock_out.last_chance": "the next player may take the discard only to go out",
    "teams": "partnerships: the number of teams (seats alternate between them)",
    "auto_lay": "cards of a class laid on the table at once, and replaced from another zone",
    "table": "melds laid on the table during play: who owns them, what each card scores, going out",
    "claims": "out-of-turn claims of the discard: called or bought",
    "roles": "by player count: [name, points] per finishing position",
    "constraints": "checks on parameter combinations: `require` must hold, else `message`",
    "scoring": "how a hand scores: every seat scores `each_player`, or the first outcome that holds",
    "scoring.multiplier": "every outcome's points are multiplied by this",
    "scoring.outcomes.when": "this outcome scores when this holds",
    "scoring.outcomes.scorer": "who scores the points: the declarer or the defender",
    "scoring.outcomes.points": "the points scored",
    "match": "when the match ends, who deals next, who wins, ties and bonuses",
    "match.ends_when": "the match ends when this holds after a scored hand",
    "match.next_dealer": "the seat that deals the next hand (default: the next seat)",
    "match.first_dealer": "random, or seat 0",
    "match.winner": "the winner: the highest total",
    "match.end_bonus": "points added once after the end (never counting toward it)",
    "match.direction": "turn order: clockwise or counterclockwise",
}

#: what the aggregates (built into the expression language, not functions of a ruleset) do
AGGREGATE_DOCS: dict[str, str] = {
    "sum": "the sum of a list or a comprehension: `sum(value(c) for c in hand)`",
    "count": "how many items: `count(stock)`, `count(c for c in hand where value(c) > 5)`",
    "max": "the largest of its arguments, or of a list or comprehension (of nothing: 0)",
    "min": "the smallest of its arguments, or of a list or comprehension (of nothing: 0)",
    "any": "whether any item holds: `any(is_wild(c) for c in hand)`",
    "all": "whether every item holds",
}


def section_doc(path: tuple) -> Optional[str]:
    """The doc of the key at ``path`` (list items, ``"[]"``, left out; under ``params``, ``zones``,
    ``go_out`` and the like, the user's own name is skipped: ``zones.hand.per`` -> ``zones.per``)."""
    keys = [k for k in path if k != "[]"]
    dotted = ".".join(keys)
    if len(keys) == 1:                         # a mechanic's section says what it is itself
        mech = by_key().get(keys[0])
        if mech is not None:
            return mech.summary
    if dotted in SECTION_DOCS:
        return SECTION_DOCS[dotted]
    if len(keys) >= 3:
        return SECTION_DOCS.get(".".join([keys[0]] + keys[2:]))
    return None
