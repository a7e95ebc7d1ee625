"""The typed, immutable description of a game, and its schema.

Every section a ruleset may have is declared here once, as a frozen dataclass and a ``Struct`` schema;
both syntaxes load into these objects.  The model knows mechanics, never games: a name such as
a go-out name such as ``knock`` is data chosen by the ruleset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import Diagnostics
from ..expr.ast import Expr
from ..source.tree import Map, Node, Pos, Scalar, Seq, UNKNOWN, describe
from ..mechanics.registry import broken, by_key, load_installed, mechanics, on_change, present, refuse
from .parts import DOC, RANK_LIST, const_expr, make
from .schema import (INVALID, Bool, Choice, ChoiceExpr, CondT, ExprT, Field, Int, ListOf, MapOf, NumT, SeatT, Str, Struct, Text, Type,
                     _kind, value_kind, yaml_set_hint)

# --------------------------------------------------------------------------------------- objects


@dataclass(frozen=True)
class Param:
    name: str
    default: Any
    choices: Optional[tuple] = None
    lo: Optional[float] = None
    hi: Optional[float] = None
    doc: str = field(default="", compare=False)   # text for readers (the rulebook); no rule reads it
    pos: Pos = field(default=UNKNOWN, compare=False)
    length: Any = None          # a list parameter: its length (default: the default's), or "any"


@dataclass(frozen=True)
class Players:
    min: int
    max: int
    default: int
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class Deck:
    ranks: tuple
    suits: tuple
    copies: Expr
    jokers: Expr
    values: dict
    colors: dict
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class MeldType:
    kind: str
    min: int
    max: Optional[int]
    order: Optional[tuple]
    wrap: bool
    distinct_suits: bool
    ranks: Optional[tuple]
    wild_ratio: Optional[Expr]
    pos: Pos = field(default=UNKNOWN, compare=False)
    when: Optional[Expr] = None        # group melds: a new meld of this type only while this holds
    suits: Optional[str] = None        # run: "same" (default) or "any"
    groups: Optional[tuple] = None     # rank_groups: the sizes of its same-rank groups, e.g. (3, 2)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Zone:
    per: str
    visible: str
    reserve_for: Optional[str]
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class DealStep:
    deal: Optional[Expr]
    to: Optional[str]
    turn_up: Optional[str]
    as_: Optional[str]
    bury_while: Optional[Expr]
    pos: Pos = field(default=UNKNOWN, compare=False)
    seat: Optional[Expr] = None        # deal only to this seat (read when the step runs)
    when: Optional[Expr] = None        # the step happens only when this holds (parameters, players)
    cover_while: Optional[Expr] = None # turn_up: while the card is such, another card covers it
    set_aside: Optional[Expr] = None   # named cards (texts) taken out of the deck into `to` before dealing
    draft: Optional[str] = None        # players build their hands into this zone from the stock (see DraftPhase)
    discard_to: Optional[str] = None   # draft: the table zone refused and burnt cards go to, face down
    look: Optional[str] = None         # draft: the per-player zone where the drafter looks at the top card

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it
    @property
    def deals_all(self) -> bool:
        """``deal: all``: every remaining card, one at a time, as evenly as possible."""
        return self.deal is not None and self.deal.ast.op == "name" and self.deal.ast.args[0] == "all"


@dataclass(frozen=True)
class AllPass:
    seat: str
    draw: str
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class FirstTurn:
    offer: str
    to: tuple
    if_all_pass: AllPass
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class ActionSpec:
    """One choice offered in a step: exactly one of draw / take / discard / go_out / meld / layoff /
    pass_ is set."""

    draw: Optional[str]
    take: Optional[str]
    discard: Optional[str]
    go_out: Optional[str]
    meld: Optional[str]
    layoff: Optional[str]
    ask: Optional[str]
    pass_: bool
    depth: str
    must_meld: Optional[Expr]
    count: Optional[Expr]
    meld_with: Optional["MeldWith"]
    question: str
    mark: dict
    when: Optional[Expr]
    forbid: Optional[Expr]
    rule: str
    then: Optional[str]
    pos: Pos = field(default=UNKNOWN, compare=False)
    ending: Optional[str] = None       # `then: end_hand`: the name the hand's ending is recorded under

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it
    @property
    def kind(self) -> str:
        for k in ("draw", "take", "discard", "go_out", "meld", "layoff", "ask"):
            if getattr(self, k) is not None:
                return k
        return "pass"


@dataclass(frozen=True)
class MeldWith:
    """take: cards from hand that must be melded at once with the top card taken."""

    count: Expr
    matching: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class Step:
    step: str
    actions: tuple
    repeat: bool
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class GoingOut:
    """Emptying the hand for good (after any reserve packet) is going out, only when ``when`` holds."""

    when: Expr
    needs_discard: bool
    keep_when_not_out: int
    permission: Expr
    rule: str
    pos: Pos = field(default=UNKNOWN, compare=False)
    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it


@dataclass(frozen=True)
class TableRules:
    """Melds laid on the table during play: who owns them and what each placed card is worth."""

    owner: str
    placed_value: Optional[Expr]
    empty_hand_ends: Expr
    closes_at: Optional[int]
    one_open_per_rank: bool
    books: dict
    initial_minimum: Optional[Expr]
    counts_toward_minimum: Optional[Expr]
    going_out: Optional[GoingOut]
    pos: Pos = field(default=UNKNOWN, compare=False)
    contract: Optional[Expr] = None    # the meld types an owner's first melds must be, all in one turn
    books_stay_open: bool = False      # a book keeps taking cards (its type judged again as they join)
    ending_by_discard: str = "out"     # the ending's name when the last card goes to the discard pile
    ending_by_meld: str = "out"        # ... when the last card is melded or laid off

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Teams:
    count: int
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class AutoLay:
    """Cards of a class never stay in a hand: laid out at once and replaced from a zone."""

    class_: str
    to: str
    replace_from: Optional[str]
    when_empty: str = "play_on"
    pos: Pos = field(default=UNKNOWN, compare=False)
    replace_when: Optional[Expr] = None    # whether a laid card is replaced (`card`, `arrived`)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Claim:
    """An out-of-turn claim of the card just discarded: a called claim (the claimer melds it and takes
    a turn), or a buy (the claimer takes it with ``penalty`` cards from the stock, and play goes on)."""

    when: Expr
    priority: str
    pos: Pos = field(default=UNKNOWN, compare=False)
    kind: str = "called"
    penalty: Optional[Expr] = None

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class GoOut:
    discard: str
    when: Expr
    rule: str
    layoffs: str
    pos: Pos = field(default=UNKNOWN, compare=False)
    arrange: bool = True               # false: the hand is shown as it is (a drop), never melded

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class StockOut:
    when: Expr
    last_chance: Optional[Expr]
    result: str
    pos: Pos = field(default=UNKNOWN, compare=False)
    ending: str = "stock"
    unshuffled: str = "void"           # reshuffle with nothing to shuffle: the hand is void, or scored

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class AfterDeal:
    """A check right after the deal: when it holds the hand ends at once, named ``ending``."""

    when: Expr
    ending: str
    result: str = "score"
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Outcome:
    when: Expr
    scorer: str
    points: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Scoring:
    multiplier: Optional[Expr]
    outcomes: Optional[tuple]
    each_player: Optional[Expr]
    each_team: Optional[Expr]
    pos: Pos = field(default=UNKNOWN, compare=False)
    totals: dict = field(default_factory=dict)   # name -> the side's new running value after each hand

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Constraint:
    """A combination of parameters the ruleset does not define: loading it is an error."""

    require: Expr
    message: str
    params: tuple
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class EndBonus:
    when: Optional[Expr]
    points: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)


@dataclass(frozen=True)
class Match:
    ends_when: Expr
    next_dealer: Optional[Expr]
    first_dealer: str
    winner: str
    on_tie: Expr
    end_bonus: Optional[EndBonus]
    seating: Expr
    direction: Expr
    pos: Pos = field(default=UNKNOWN, compare=False)

    doc: str = field(default="", compare=False)  # text for readers (the rulebook); no rule reads it

@dataclass(frozen=True)
class Ruleset:
    name: str
    players: Players
    params: dict
    deck: Deck
    melds: dict
    zones: dict
    deal: tuple
    first_turn: Optional[FirstTurn]
    derived: dict
    turn: tuple
    go_out: dict
    stock_out: Optional[StockOut]
    wild: Optional[Expr]
    table: Optional[TableRules]
    claims: dict
    teams: Optional[Teams]
    classes: dict
    auto_lay: Optional[AutoLay]
    roles: dict
    constraints: tuple
    scoring: Scoring
    match: Match
    description: str = ""
    pos: Pos = field(default=UNKNOWN, compare=False)
    after_deal: tuple = ()
    #: mechanic key -> its section (None where the ruleset has none), for every registered mechanic
    #: (``rulesdsl.mechanics``); each is also an attribute: ``model.tricks``
    sections: dict = field(default_factory=dict)
    #: top-level key -> where it was written (the file that gave it, under `extends`)
    key_pos: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for key, section in self.sections.items():
            object.__setattr__(self, key, section)

    def param_values(self) -> dict[str, Any]:
        return {k: p.default for k, p in self.params.items()}

    def at(self, key: str) -> Pos:
        """Where the top-level key ``key`` was written (the ruleset's own position if it was not)."""
        return self.key_pos.get(key) or self.pos

    def endings(self) -> tuple:
        """Every name ``ending`` (how the hand ended) can have under this ruleset: the engine's own
        (``stock``, ``out``, ``void``; each mechanic's, as ``tricks`` in trick play) and every name
        the ruleset gives one."""
        out = ["stock", "out", "void"] + list(self.go_out)
        if self.table is not None:
            out += [self.table.ending_by_discard, self.table.ending_by_meld]
        if self.stock_out is not None:
            out.append(self.stock_out.ending)
        out += [a.ending for s in self.turn for a in s.actions if a.ending]
        out += [c.ending for c in self.after_deal]
        for mech, section in present(self):
            out += mech.endings(section)
        return tuple(dict.fromkeys(out))


# --------------------------------------------------------------------------------------- schema


class ParamT(Type):
    """A parameter: a bare default, or ``{default, choices, min, max, length, doc}``.

    A parameter's kind is its default's: a number, true/false, a word, or a list.  A list's items are
    all of one kind and its length is the default's unless ``length`` says otherwise (a number, or
    ``any``); an override of another kind or length is refused where it is written
    (``param_override_problem``)."""

    name = "a parameter"
    _keys = ("default", "choices", "min", "max", "length", "doc")

    @staticmethod
    def without_doc(value: Any) -> Any:
        """The parameter without its ``doc:`` (``schema.without_docs``); a long form left with only its
        ``default`` is the short form, which means the same."""
        if not isinstance(value, dict):
            return value
        rest = {k: v for k, v in value.items() if k != "doc"}
        return rest["default"] if set(rest) == {"default"} else rest

    def build(self, node, diags, where):
        name = where.rsplit(".", 1)[-1]
        if isinstance(node, (Scalar, Seq)):
            bad = not _param_value_ok(name, node, None, diags)
            return INVALID if bad else Param(name, node.plain() if isinstance(node, Scalar)
                                             else tuple(node.plain()), pos=node.pos)
        bad = False
        setlike = yaml_set_hint(node)
        if setlike and "default" not in node:
            diags.error("E-TYPE", f"parameter `{name}` is written as a YAML set", node.pos, setlike)
            return INVALID
        for k in node.keys():
            if k not in self._keys:
                from ..errors import suggest
                diags.error("E-UNKNOWN-KEY", f"unknown key `{k}` in parameter `{name}`", node.where(k),
                            suggest(k, self._keys) or "allowed: " + ", ".join(self._keys))
                bad = True
        if "default" not in node:
            diags.error("E-MISSING", f"parameter `{name}` needs a `default`", node.pos)
            return INVALID
        dnode = node["default"]
        default = dnode.plain()
        choices = node.get("choices")
        choices_v = tuple(tuple(v) if isinstance(v, list) else v for v in (n.plain() for n in choices)) \
            if isinstance(choices, Seq) else None
        if choices is not None and choices_v is None:
            diags.error("E-TYPE", f"`choices` of parameter `{name}` must be a list", choices.pos,
                        yaml_set_hint(choices))
            bad = True
        if isinstance(choices, Seq):
            want = value_kind(dnode)
            for c in choices:
                if value_kind(c) != want:
                    diags.error("E-TYPE", f"a choice of parameter `{name}` is {describe(c)}, but its default "
                                f"is {describe(dnode) if want != 'text' else 'a word'}", c.pos,
                                f"every choice must be of the default's kind: `--set` accepts nothing else"
                                + (" (quote a word that looks like a number: \"2\")" if want == "text" else ""))
                    bad = True
        length = node.get("length")
        length_v = None
        if length is not None:
            length_v = length.plain()
            ok = (length_v == "any" or (isinstance(length_v, int) and not isinstance(length_v, bool)
                                        and length_v >= 0))
            if not ok:
                diags.error("E-TYPE", f"`length` of parameter `{name}` must be a whole number or `any`",
                            length.pos)
                bad = True
            elif not isinstance(dnode, Seq):
                diags.error("E-IGNORED", f"`length` of parameter `{name}` is for a list, but its default is "
                            f"{describe(dnode)}", length.pos, "remove `length`")
                bad = True
        if not _param_value_ok(name, dnode, choices_v, diags, length_v):
            bad = True
        lo = node.get("min")
        hi = node.get("max")
        doc = node.get("doc")
        if doc is not None and not (isinstance(doc, Scalar) and isinstance(doc.value, str)):
            diags.error("E-TYPE", f"`doc` of parameter `{name}` must be text, not {describe(doc)}", doc.pos)
            bad = True
        for label, bound in (("min", lo), ("max", hi)):
            if bound is not None and not (isinstance(bound, Scalar) and isinstance(bound.value, (int, float))
                                          and not isinstance(bound.value, bool)):
                diags.error("E-TYPE", f"the `{label}` of parameter `{name}` must be a number, not {describe(bound)}",
                            bound.pos, f"remove `{label}`, or give a number")
                bad = True
        if isinstance(default, list):
            default = tuple(default)
        return INVALID if bad else Param(name, default, choices_v,
                                         None if lo is None else lo.plain(), None if hi is None else hi.plain(),
                                         str(doc.plain()) if doc else "", dnode.pos, length_v)

    def json_schema(self, gen):
        """A bare value, or the long form; in a variant file the long form may change only some keys
        (a new parameter needs a default, which only the loader can tell from the base)."""
        return gen.define("parameter (partial)" if gen.partial else "parameter", lambda: {
            "description": "a parameter: its default value (a number, true/false, a word, or a list of "
                           "one kind), or {default, choices, min, max, length, doc}",
            "anyOf": [_PARAM_SCALAR, _PARAM_LIST, self._long_form(gen.partial)]})

    def _long_form(self, partial: bool) -> dict:
        props = {k: _PARAM_KEYS[k] for k in self._keys}      # a key without a form here fails loudly
        out: dict = {"type": "object", "properties": props, "additionalProperties": False,
                     "allOf": [_choices_like_default(t) for t in _JSON_KINDS]}
        if not partial:
            out["required"] = ["default"]
        return out


def _choices_like_default(kind: str) -> dict:
    """Every choice is of the default's kind (``build`` refuses others: `--set` could not give them)."""
    return {"if": {"properties": {"default": {"type": kind}}, "required": ["default"]},
            "then": {"properties": {"choices": {"items": {"type": kind}}}}}


#: a parameter's value, as JSON Schema: a scalar, or a list whose items are all of one kind
_PARAM_SCALAR = {"type": ["string", "number", "boolean"]}
_PARAM_LIST = {"anyOf": [{"type": "array", "items": {"type": t}} for t in ("string", "number", "boolean")]}
#: JSON's kinds of value, as ``value_kind`` tells them apart (an integer is a number)
_JSON_KINDS = ("string", "number", "boolean", "array", "object", "null")
# the checker refuses a default of null and bounds that are no numbers (a mapping is refused by both)
_PARAM_KEYS = {
    "default": {"anyOf": [_PARAM_SCALAR, _PARAM_LIST]},
    "choices": {"type": "array"},
    "min": {"type": "number", "description": "the smallest value `--set` may give"},
    "max": {"type": "number", "description": "the largest value `--set` may give"},
    "length": {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "any"}],
               "description": "a list parameter's length (default: the default's), or `any`"},
    "doc": {"type": "string"},
}


def _param_value_ok(name: str, node: Node, choices: Optional[tuple], diags: Diagnostics,
                    length: Any = None) -> bool:
    """Problems of a parameter's value itself: the bare word ``none``, a list of mixed kinds, a list
    not of its declared length, a YAML set where a list was meant."""
    if (isinstance(node, Scalar) and node.value == "none" and not node.text_offset
            and not (choices and "none" in choices)):
        diags.error("E-TYPE", f"parameter `{name}` is `none`, which here is the word \"none\", not nothing "
                    "(`params.{0} == none` would never hold)".format(name), node.pos,
                    "a parameter always has a value: for \"no limit\" use a number or false; to mean the "
                    "word, list it under `choices` and compare with \"none\" (quoted)")
        return False
    hint = yaml_set_hint(node)
    if hint:
        diags.error("E-TYPE", f"parameter `{name}` is written as a YAML set", node.pos, hint)
        return False
    if isinstance(node, Map):
        diags.error("E-TYPE", f"parameter `{name}` is a mapping; a parameter is a number, true or false, a word "
                    "or a list", node.pos, "the long form is `{default: ..., min: ..., max: ...}`, its value "
                    "under `default`")
        return False
    if isinstance(node, Seq):
        kinds = [value_kind(x) for x in node]
        if any(k in ("a list", "a mapping") for k in kinds):
            diags.error("E-TYPE", f"parameter `{name}` is a list; its items must be numbers, words or "
                        "true/false, not lists or mappings", node.pos)
            return False
        if len(set(kinds)) > 1:
            first = node.items[kinds.index(kinds[0])]
            other = next(x for x, k in zip(node, kinds) if k != kinds[0])
            diags.error("E-TYPE", f"parameter `{name}` mixes {describe(first) if kinds[0] != 'text' else 'words'} "
                        f"with {describe(other)} in one list", other.pos,
                        "every item of a list parameter is of one kind" +
                        ("; quote a word that looks like a number, as in [\"2\", \"A\"]"
                         if set(kinds) == {"text", "a number"} else ""))
            return False
        if isinstance(length, int) and len(node) != length:
            diags.error("E-TYPE", f"parameter `{name}` has {len(node)} item(s); its `length` is {length}", node.pos)
            return False
    return True


def _list_shape(node: Node) -> tuple[str, int]:
    kinds = {value_kind(x) for x in node} if isinstance(node, Seq) else set()
    return (kinds.pop() if len(kinds) == 1 else ""), len(node) if isinstance(node, Seq) else 0


def _plural(kind: str) -> str:
    return {"a number": "numbers", "true or false": "true/false values", "text": "words"}.get(kind, "items")


def param_override_problem(name: str, decl: Node, value: Node) -> Optional[tuple[str, str]]:
    """Why ``value`` may not replace the list parameter declared by ``decl`` (a bare default, or
    ``{default, length, ...}``): (message, hint), or None.  Used where overrides are merged, so the
    problem is reported where the override was written (a variant file, or ``--set``)."""
    base = decl["default"] if isinstance(decl, Map) and "default" in decl else decl
    if not isinstance(base, Seq) or not isinstance(value, Seq):
        return None
    kind, n = _list_shape(base)
    length = decl["length"].plain() if isinstance(decl, Map) and "length" in decl else n
    what = f"a list of {length} {_plural(kind)}" if length != "any" else f"a list of {_plural(kind)}"
    if kind:
        for x in value:
            if value_kind(x) != kind:
                return (f"parameter `{name}` is {what}; this sets an item to {describe(x)}",
                        f"the base declares `{name}` at {base.pos}: {_show(base)}")
    if length != "any" and len(value) != length:
        return (f"parameter `{name}` is {what}; this gives {len(value)}",
                f"give {length} {_plural(kind)}, as the base does at {base.pos}: {_show(base)}")
    return None


def _show(node: Node) -> str:
    return "[" + ", ".join(str(x.plain()) for x in node) + "]" if isinstance(node, Seq) else str(node.plain())


MAX_PLAYERS = 16

#: ``players: {min, max, default}``
PLAYER_RANGE = Struct("players", {"min": Field(Int(1, MAX_PLAYERS), True), "max": Field(Int(1, MAX_PLAYERS), True),
                                  "default": Field(Int(1, MAX_PLAYERS), doc="default: `min`")})


class PlayersT(Type):
    name = "a player count"

    def json_schema(self, gen):
        return {"anyOf": [Int(1, MAX_PLAYERS).json_schema(gen), gen.of(PLAYER_RANGE)],
                "description": "a player count, or {min, max, default}"}

    def build(self, node, diags, where):
        if isinstance(node, Scalar) and isinstance(node.value, int) and not isinstance(node.value, bool):
            if not 1 <= node.value <= MAX_PLAYERS:
                diags.error("E-RANGE", f"`players` must be from 1 to {MAX_PLAYERS}", node.pos)
                return INVALID
            return Players(node.value, node.value, node.value, node.pos)
        if isinstance(node, Map):
            d = PLAYER_RANGE.build(node, diags, where)
            if d is INVALID:
                return INVALID
            if d["min"] > d["max"]:
                diags.error("E-RANGE", f"`players.min` ({d['min']}) is above `players.max` ({d['max']})", node.pos)
                return INVALID
            default = d["default"] if d["default"] is not None else d["min"]
            if not d["min"] <= default <= d["max"]:
                diags.error("E-RANGE", f"`players.default` must lie between {d['min']} and {d['max']}", node.pos)
                return INVALID
            return Players(d["min"], d["max"], default, node.pos)
        diags.error("E-TYPE", f"`players` must be a number or {{min, max, default}}, not {_kind(node)}", node.pos)
        return INVALID


DECK = Struct("deck", {
    "ranks": Field(RANK_LIST, True, doc="rank names from lowest to highest, e.g. [A, 2, ..., K]"),
    "suits": Field(ListOf(Str(), min_len=1), True),
    "copies": Field(ExprT(), default=const_expr(1), doc="how many copies of the deck are shuffled together"),
    "jokers": Field(ExprT(), default=const_expr(0), doc="jokers per copy"),
    "values": Field(MapOf(ExprT()), default={}, doc="rank -> value (an expression over params)"),
    "colors": Field(MapOf(Str()), default={}),
    "doc": DOC,
}, make(Deck))

MELD = Struct("meld", {
    "kind": Field(Choice("run", "set", "group", "wild", "flush", "rank_groups"), True,
                  doc="run; set (one rank, distinct cards); group (one rank with wild cards); wild (wild cards "
                      "only); flush (one suit, any ranks); rank_groups (same-rank groups of the sizes `groups`)"),
    "suits": Field(Choice("same", "any"), doc="run: all of one suit (default) or any suits"),
    "groups": Field(ListOf(Int(1), 1), doc="rank_groups: the group sizes, e.g. [3, 2] for three and a pair"),
    "when": Field(CondT(), doc="group melds: a new meld of this type is allowed only while this holds"),
    "ranks": Field(RANK_LIST, doc="group/set: the ranks that may be melded"),
    "wild_ratio": Field(CondT(), doc="group: a condition over `naturals` and `wilds` that must always hold"),
    "min": Field(Int(1), default=3),
    "max": Field(Int(1)),
    "order": Field(RANK_LIST, doc="the run order of ranks (a rank may appear at both ends)"),
    "wrap": Field(Bool(), default=False),
    "distinct_suits": Field(Bool(), default=False, doc="sets: every card of a different suit"),
    "doc": DOC,
}, make(MeldType))

ZONE = Struct("zone", {
    "per": Field(Choice("table", "player", "team"), default="table"),
    "visible": Field(Choice("none", "top", "all", "owner", "team"), default="none"),
    "reserve_for": Field(Str(), doc="a packet that becomes this zone when it is empty (the foot)"),
    "doc": DOC,
}, make(Zone))

DEAL_STEP = Struct("deal step", {
    "deal": Field(ExprT(), doc="how many cards each player gets"),
    "to": Field(Str()),
    "turn_up": Field(Str(), doc="a pile that receives one card from the stock, face up"),
    "as": Field(Str(), doc="remember that card under this name, as deal.NAME"),
    "bury_while": Field(CondT(), doc="turn_up: while the card turned up is such (`card`), bury it in the stock"),
    "seat": Field(SeatT(), doc="deal: only this seat receives the cards, e.g. `holder(\"3D\")` (read at the deal)"),
    "when": Field(CondT(), doc="the step happens only when this holds (it may read parameters and `players`)"),
    "cover_while": Field(CondT(), doc="turn_up: while the card turned up is such (`card`), turn another onto it"),
    "set_aside": Field(ExprT(), doc="a list of cards (texts) taken out of the deck into the table zone `to` "
                                    "before anything is dealt (it may read parameters and `players`)"),
    "draft": Field(Str(), doc="the last deal step: players build their hands in this per-player zone, in turn "
                              "from the dealer's left: each looks at the top card of the stock and keeps it (the "
                              "next card goes to `discard_to` unseen) or passes it to `discard_to` and takes the "
                              "next, until the stock holds fewer than two cards"),
    "discard_to": Field(Str(), doc="draft: the table zone for the cards not kept"),
    "look": Field(Str(), doc="draft: the per-player zone (visible to its owner) where the top card is looked at"),
    "doc": DOC,
}, make(DealStep, {"as": "as_"}))

FIRST_TURN = Struct("first_turn", {
    "offer": Field(Str(), True),
    "to": Field(ListOf(Choice("left_of_dealer", "dealer"), 1), True),
    "if_all_pass": Field(Struct("if_all_pass", {"seat": Field(Choice("left_of_dealer", "dealer"), True),
                                                "draw": Field(Str(), True)}, make(AllPass)), True),
    "doc": DOC,
}, make(FirstTurn))

ACTION = Struct("action", {
    "draw": Field(Str()), "take": Field(Str()), "discard": Field(Str()), "go_out": Field(Str()),
    "meld": Field(Choice("any"), doc="start a meld on the table from hand cards"),
    "layoff": Field(Choice("any", "own"), doc="add a card to a meld on the table"),
    "ask": Field(Choice("partner"), doc="ask the partner a question; the answer is their own action"),
    "pass": Field(Bool()),
    "depth": Field(Choice("top", "any"), default="top", doc="take: the top card, or any card with all above"),
    "must_meld": Field(CondT(), doc="take: the deepest card taken must be melded at once"),
    "count": Field(NumT(), doc="draw/take: how many cards at once (all there are, if fewer)"),
    "meld_with": Field(Struct("meld_with", {"count": Field(NumT(), True), "matching": Field(CondT(), True)},
                              make(MeldWith)), doc="take: hand cards to meld at once with the top card"),
    "question": Field(Choice("go_out"), default="go_out", doc="ask: what is asked (may I go out?)"),
    "mark": Field(MapOf(CondT()), default={}, doc="discard: marks the card carries (name: condition)"),
    "when": Field(CondT()), "forbid": Field(CondT()), "rule": Field(Str(), default=""),
    "then": Field(Str()),
    "ending": Field(Str(), doc="with `then: end_hand`: the name of this way of ending the hand (default stock)"),
    "doc": DOC,
}, make(ActionSpec, {"pass": "pass_"}))

STEP = Struct("step", {"step": Field(Str(), True), "actions": Field(ListOf(ACTION, 1), True),
                       "repeat": Field(Bool(), default=False, doc="stay in this step after an action"),
                       "doc": DOC},
              make(Step))

GOING_OUT = Struct("going_out", {
    "when": Field(CondT(), True),
    "needs_discard": Field(Bool(), default=True),
    "keep_when_not_out": Field(Int(0), default=2,
                               doc="cards a player must keep after melding when not going out (0, or 2 and more)"),
    "permission": Field(ChoiceExpr("optional"), default=const_expr(False),
                        doc="true: the partner must answer yes first; optional: a player may ask, and the answer "
                            "binds"),
    "rule": Field(Str(), default=""),
    "doc": DOC,
}, make(GoingOut))

TABLE = Struct("table", {
    "owner": Field(Choice("player", "team"), default="player"),
    "placed_value": Field(NumT(), doc="what a placed card scores (`card`, `as`, `meld.kind`, `meld.ranks`)"),
    "empty_hand_ends": Field(CondT(), default=const_expr(True),
                             doc="melding the last card ends the hand (else only a discard does)"),
    "closes_at": Field(Int(2), doc="a meld of this many cards is a book: closed"),
    "books_stay_open": Field(Bool(), default=False,
                             doc="a book keeps taking cards, its type judged again as they join; no second meld "
                                 "of its rank while it is open (with one_open_per_rank)"),
    "one_open_per_rank": Field(Bool(), default=False, doc="at most one unfinished meld per rank per owner"),
    "books": Field(MapOf(CondT()), default={}, doc="book types at completion: name -> condition over naturals, wilds"),
    "initial_minimum": Field(NumT(), doc="an owner's first melds in one turn must total at least this"),
    "counts_toward_minimum": Field(CondT(), doc="which placed cards count toward the minimum (`card`)"),
    "going_out": Field(GOING_OUT),
    "contract": Field(ExprT(), doc="the meld types (names under `melds:`) an owner's first melds must be, exactly "
                                   "and all in one turn, e.g. `[\"set\", \"run\"]`"),
    "ending_by_discard": Field(Str(), default="out", doc="the ending's name when a player goes out by discarding"),
    "ending_by_meld": Field(Str(), default="out", doc="the ending's name when a player goes out by melding"),
    "doc": DOC,
}, make(TableRules))

TEAMS = Struct("teams", {"count": Field(Int(2), True)}, make(Teams))

AUTO_LAY = Struct("auto_lay", {
    "class": Field(Str(), True), "to": Field(Str(), True), "replace_from": Field(Str()),
    "replace_when": Field(CondT(), doc="whether a laid card is replaced: a condition over `card` and `arrived` "
                                       "(\"dealt\", \"drawn\", \"taken\")"),
    "when_empty": Field(Choice("play_on", "end_hand"), default="play_on",
                        doc="a replacement owed from an empty zone: play on without it, or end the hand at once"),
    "doc": DOC,
}, make(AutoLay, {"class": "class_"}))

CLAIM = Struct("claim", {
    "when": Field(CondT(), default=const_expr(True)),
    "priority": Field(Choice("from_discarder"), default="from_discarder"),
    "kind": Field(Choice("called", "buy"), default="called",
                  doc="called: the claimer melds the card and takes a turn; buy: once the next player has drawn "
                      "from the stock instead, the others in turn may take the card with `penalty` stock cards"),
    "penalty": Field(NumT(), doc="buy: cards from the stock that come with a bought card"),
    "doc": DOC,
}, make(Claim))

GO_OUT = Struct("go_out", {
    "discard": Field(Choice("face_down", "face_up", "none"), default="face_down"),
    "when": Field(CondT(), True),
    "rule": Field(Str(), default=""),
    "layoffs": Field(Choice("none", "opponents"), default="none"),
    "arrange": Field(Bool(), default=True,
                     doc="false: the declarer shows the hand as it is (a drop); `held(declarer)` counts all of it"),
    "doc": DOC,
}, make(GoOut))

STOCK_OUT = Struct("stock_out", {
    "when": Field(CondT(), True),
    "last_chance": Field(ExprT()),
    "result": Field(Choice("void", "score", "reshuffle"), default="void",
                    doc="void: nobody scores and the dealer deals again; score: the hand is scored; reshuffle: "
                        "the discard pile but its top card becomes the stock (void when there is none)"),
    "ending": Field(Str(), default="stock", doc="the name of this ending (result: score)"),
    "unshuffled": Field(Choice("void", "score"), default="void",
                        doc="result reshuffle, with no card to shuffle: the hand is void, or scored (`ending`)"),
    "doc": DOC,
}, make(StockOut))

AFTER_DEAL = Struct("after_deal", {
    "when": Field(CondT(), True),
    "ending": Field(Str(), True, doc="the name the hand's ending is recorded under"),
    "result": Field(Choice("void", "score"), default="score",
                    doc="score: the hand is scored at once; void: the same dealer deals again"),
    "doc": DOC,
}, make(AfterDeal))

OUTCOME = Struct("outcome", {
    "when": Field(CondT(), default=const_expr(True)),
    "scorer": Field(Choice("declarer", "defender"), True),
    "points": Field(NumT(), True),
    "doc": DOC,
}, make(Outcome))

SCORING = Struct("scoring", {
    "multiplier": Field(NumT()),
    "outcomes": Field(ListOf(OUTCOME, 1), doc="the first outcome that holds scores (one scorer)"),
    "each_player": Field(NumT(), doc="every seat scores this (with `player` bound to the seat)"),
    "each_team": Field(NumT(), doc="every team scores this (with `team` bound to the team)"),
    "totals": Field(MapOf(NumT()), default={},
                    doc="running totals kept per side across deals beside the score: name -> the side's new "
                        "value after each hand, judged after the hand's score with the old values "
                        "(`player.NAME`, `team.NAME`; 0 at the start)"),
    "doc": DOC,
}, make(Scoring))

CONSTRAINT = Struct("constraint", {
    "require": Field(CondT(), True),
    "message": Field(Str(), True),
    "params": Field(ListOf(Str()), default=()),
}, make(Constraint))


class RolesT(Type):
    """Roles by player count: ``{4: [[First, 2], ...], ...}`` -> {n: ((name, points), ...)}."""

    name = "roles by player count"

    def build(self, node, diags, where):
        if not isinstance(node, Map):
            diags.error("E-TYPE", f"`{where}` must map player counts to lists of [role, points]", node.pos)
            return INVALID
        out = {}
        for k, v in node.items():
            if not re.fullmatch(r"[0-9]{1,3}", k):
                diags.error("E-TYPE", f"`{where}` keys are player counts, not `{k}`", node.where(k))
                continue
            rows = []
            for row in (v if isinstance(v, Seq) else []):
                vals = row.plain() if isinstance(row, Seq) else None
                if (not isinstance(vals, list) or len(vals) != 2 or not isinstance(vals[1], int)
                        or isinstance(vals[1], bool)):
                    diags.error("E-TYPE", "each role is [name, points]", row.pos)
                    continue
                rows.append((str(vals[0]), vals[1]))
            if not isinstance(v, Seq):
                diags.error("E-TYPE", f"`{where}.{k}` must be a list of [role, points]", v.pos)
            out[int(k)] = tuple(rows)
        return out

    def json_schema(self, gen):
        role = gen.tuple([{"description": "the role's name"}, {"type": "integer", "description": "its points"}])
        return {"type": "object", "propertyNames": {"pattern": "^[0-9]{1,3}$"},
                "additionalProperties": {"type": "array", "items": role},
                "description": "roles by player count: {4: [[name, points], ...], ...}"}

MATCH = Struct("match", {
    "ends_when": Field(CondT(), True),
    "next_dealer": Field(SeatT(none_ok=True)),
    "first_dealer": Field(Choice("random", "seat0"), default="random"),
    "winner": Field(Choice("highest", "lowest"), default="highest",
                    doc="the highest total wins the match, or the lowest"),
    "on_tie": Field(ChoiceExpr("another_hand", "shared"), default=const_expr("another_hand"),
                    doc="a tie for the highest total at the end: play another hand, or share the win"),
    "end_bonus": Field(Struct("end_bonus", {"when": Field(CondT()), "points": Field(NumT(), True)},
                              make(EndBonus))),
    "seating": Field(ChoiceExpr("fixed", "finishing"), default=const_expr("fixed"),
                     doc="fixed seats, or turn order by the last finishing order"),
    "direction": Field(ChoiceExpr("clockwise", "counterclockwise"), default=const_expr("clockwise")),
    "doc": DOC,
}, make(Match))

class DerivedT(MapOf):
    """``derived:``: a name maps to an expression (a value); a heading ``name(a, b)`` maps to a body
    in which ``a`` and ``b`` are local names (a function).  Keyed by the name either way."""

    def __init__(self):
        super().__init__(ExprT())
        self.name = "a mapping of names (or headings `name(a, b)`) to expressions"

    def build(self, node, diags, where):
        from ..expr.ast import FunctionExpr, parse_heading

        if not isinstance(node, Map):
            return super().build(node, diags, where)
        out: dict = {}
        first: dict = {}
        bad = False
        for k, v in node.items():
            name, params, problem, hint = parse_heading(k)
            if problem:
                diags.error("E-EXPR-SYNTAX", problem, node.where(k), hint)
                bad = True
                continue
            built = self.value.build(v, diags, f"{where}.{k}")
            if built is INVALID:
                bad = True
                continue
            if name in out:
                diags.error("E-DUP-KEY", f"`{name}` is declared twice under `derived` (`{first[name]}` and `{k}`)",
                            node.where(k), "a value and a function share one set of names; rename one "
                            "(a variant replacing a function writes the same heading)")
                bad = True
                continue
            if params is not None:
                built = FunctionExpr(built.ast, built.text, built.pos, params, name, node.where(k))
            out[name] = built
            first[name] = k
        return INVALID if bad else out


#: the sections the core reads itself; the mechanics' come from the registry (``rulesdsl.mechanics``)
_CORE = {
    "name": Field(Str(), True),
    "description": Field(Str(), default=""),
    "players": Field(PlayersT(), True),
    "params": Field(MapOf(ParamT()), default={}),
    "deck": Field(DECK, True),
    "melds": Field(MapOf(MELD), default={}),
    "zones": Field(MapOf(ZONE), True),
    "deal": Field(ListOf(DEAL_STEP, 1), True),
    "first_turn": Field(FIRST_TURN),
    "derived": Field(DerivedT(), default={}),
    "turn": Field(ListOf(STEP, 1), default=()),
    "go_out": Field(MapOf(GO_OUT), default={}),
    "stock_out": Field(STOCK_OUT),
    "after_deal": Field(ListOf(AFTER_DEAL), default=(), doc="checks right after the deal that end the hand at once"),
    "wild": Field(CondT(), doc="which cards are wild: a condition over `card`"),
    "teams": Field(TEAMS),
    "classes": Field(MapOf(CondT()), default={}, doc="named card classes: name -> condition over `card`"),
    "auto_lay": Field(AUTO_LAY),
    "table": Field(TABLE),
    "claims": Field(MapOf(CLAIM), default={}),
    "roles": Field(RolesT(), default={}),
    "constraints": Field(ListOf(CONSTRAINT), default=()),
    "scoring": Field(SCORING, True),
    "match": Field(MATCH, True),
}


#: the notation's own action words (``engine.actions``)
CORE_VERBS = ("draw", "take", "discard", "pass", "layoff", "done", "play", "give", "meld", "claim", "ask",
              "yes", "no", "look", "keep")


def _ruleset_fields() -> dict:
    """The core's sections with every registered mechanic's, in the order files are written: the
    mechanics' come after `after_deal`.  A mechanic whose key is a core key, or which brings an action
    word that is taken, is refused."""
    verbs = set(CORE_VERBS)
    for mech in mechanics():
        taken = sorted(set(mech.verbs) & verbs)
        if mech.key in _CORE or mech.key in SOURCE_KEYS:
            refuse(mech.key, f"`{mech.key}` is a section of the language's core")
        elif taken:
            refuse(mech.key, f"the action word `{taken[0]}` is taken")
        else:
            verbs |= set(mech.verbs)
    out = {}
    for key, f in _CORE.items():
        out[key] = f
        if key == "after_deal":
            out.update((m.key, m.section) for m in mechanics())
    return out


def _make_ruleset(**kw) -> Ruleset:
    keys = {m.key for m in mechanics()}
    sections = {k: kw.pop(k) for k in list(kw) if k in keys}
    return Ruleset(**kw, sections=sections)

def builtin_verbs() -> tuple:
    """The action words of the notation and of every registered mechanic; a ruleset may not use them
    as go-out names."""
    RULESET.fields                                   # a mechanic whose word is taken is refused first
    return CORE_VERBS + tuple(v for m in mechanics() for v in m.verbs)

#: keys the source layer consumes before the model sees the tree (described here for the JSON Schema)
SOURCE_FIELDS = {
    "extends": Field(Text(), doc="the ruleset this file changes: a bundled name (`NAME`, `variants/NAME`) or "
                                 "a file path with its extension, relative to this file; this file then gives "
                                 "only what differs (mappings merge key by key, anything else replaces)"),
}
SOURCE_KEYS = tuple(SOURCE_FIELDS)

class _RulesetStruct(Struct):
    """The top-level schema: the core's sections and the registered mechanics', gathered on first use
    (so a package's mechanic may import any part of rulesdsl: the registry is read once the language
    is loaded, not while this module is imported)."""

    def __init__(self) -> None:
        super().__init__("ruleset", {}, _make_ruleset)
        self._fields: Optional[dict] = None

    @property
    def fields(self) -> dict:
        if self._fields is None:
            self._fields = _ruleset_fields()
        return self._fields

    @fields.setter
    def fields(self, value: dict) -> None:
        self._fields = value or None

    def build(self, node, diags, where):
        """The ruleset, remembering where each top-level key was written (for diagnostics about a
        whole section, such as `roles`, which has no position of its own)."""
        built = super().build(node, diags, where)
        if isinstance(built, Ruleset) and isinstance(node, Map):
            object.__setattr__(built, "key_pos", dict(node.key_pos))
        return built


RULESET = _RulesetStruct()
on_change(lambda: setattr(RULESET, "fields", None))      # the mechanics changed: gather the sections again


def build_ruleset(tree: Node, diags: Diagnostics) -> Optional[Ruleset]:
    """Raw tree -> Ruleset, or None with the problems recorded in ``diags``."""
    if isinstance(tree, Map):
        if any(k not in RULESET.fields and k not in SOURCE_KEYS for k, _ in tree.items()):
            load_installed()                     # a section the built-in language lacks: look for packages
        known = set(_CORE) | set(SOURCE_KEYS) | set(by_key())     # a refused package never shadows these
        failed = {k: why for k, why in broken().items() if k not in known}
        for k, _ in tree.items():
            if k in failed:
                package, why = failed[k]
                diags.error("E-MECHANIC", f"the section `{k}` comes from the package `{package}`, whose mechanic "
                            f"could not be loaded: {why}", tree.where(k),
                            f"repair or reinstall `{package}`; rulesets without `{k}` are not affected")
        drop = set(SOURCE_KEYS) | set(failed)
        tree = Map({k: v for k, v in tree.items() if k not in drop}, tree.pos,
                   {k: p for k, p in tree.key_pos.items() if k not in drop})
    built = RULESET.build(tree, diags, "")
    return None if built is INVALID else built
