"""Expressions read as words: ``count(stock) > 2`` is "more than 2 cards remain in the stock".

Why patterns and not a full translation: a reader follows a sentence when it says something
recognisable (a count of a zone, a seat's score, a comparison, a choice) and is misled by a sentence
forced out of a formula.  So each construct here either has words that say exactly what it means or
gives up (``None``), and the caller shows the formula instead, in code type.  Expressions arrive
folded (``fold.py``): parameters are already the numbers in force and switched-off branches are gone.

The vocabulary is the language's (zones, seats, builtins, ``play``/``last``...), never a game's; the
ruleset's own names (zones, derived values, classes, go-outs) are read from the model.
"""

from __future__ import annotations

from typing import Optional

from functools import lru_cache

from ..expr.ast import E, unparse
from ..mechanics.registry import mechanics, on_change
from .document import Code, Inline, cat, join

#: names every ruleset may read, as noun phrases
NAMES = {
    "player": "the player", "dealer": "the dealer", "declarer": "the declarer", "defender": "the defender",
    "winner": "the winner", "card": "the card", "players": "the number of players", "seats": "every seat",
    "max_score": "the highest total", "min_score": "the lowest total", "team": "the team",
    "previous_order": "the last deal's finishing order",
    "naturals": "the number of natural cards", "wilds": "the number of wild cards", "as": "the card it stands for",
    "ending": "the way the hand ended",
}
#: conditions that are a bare name: (holds, does not hold)
NAME_CONDITIONS: dict = {}
MEMBERS = {
    ("deal", "number"): "the deal's number", ("deal", "scorer"): "the seat that scored the hand",
    ("deal", "reshuffles"): "the times the pile became the stock this hand",
    ("turn", "taken"): "the card taken this turn", ("turn", "drawn"): "the card drawn this turn",
    ("turn", "taken_cards"): "the cards taken this turn",
    ("meld", "kind"): "the meld's kind", ("meld", "ranks"): "the meld's ranks",
}


@lru_cache(maxsize=None)
def phrases() -> tuple:
    """(names, members, conditions, own, bases): the core's words above with each mechanic's
    (``Mechanic.phrases``: what its names read as; ``own``: one-argument builtins read "ARG's ...";
    ``bases``: a name whose members are the ruleset's own, read "WORDS `member`")."""
    names, members, conditions, own = dict(NAMES), dict(MEMBERS), dict(NAME_CONDITIONS), dict(OWN)
    bases: dict = {}
    for mech in mechanics():
        names.update(mech.phrases.get("names", {}))
        members.update(mech.phrases.get("members", {}))
        conditions.update(mech.phrases.get("conditions", {}))
        own.update(mech.phrases.get("own", {}))
        bases.update(mech.phrases.get("bases", {}))
    return names, members, conditions, own, bases


on_change(phrases.cache_clear)

#: one-argument builtins read as "ARG's ..."
OWN = {"deadwood": "deadwood", "value": "value", "rank": "rank", "suit": "suit", "score": "score",
       "hands_won": "hands won", "partner": "partner", "team_of": "team", "opponents": "opponents",
       "color": "colour", "reserve_turns": "turns with the reserve packet"}
PREDICATES = {"is_joker": ("is a joker", "is not a joker"), "is_wild": ("is wild", "is not wild"),
              "playable": ("could be laid off onto a meld", "could not be laid off onto any meld"),
              "fits_own": ("fits one of the side's melds", "fits none of the side's melds"),
              "team_melded": ("'s side has gone down", "'s side has not gone down"),
              "in_reserve": ("still has the reserve packet", "has no reserve packet left")}
RELATIONS = {"==": "", "!=": "not ", "<": "less than ", "<=": "at most ", ">": "more than ", ">=": "at least "}
COUNT_RELATIONS = {">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most", "==": "exactly",
                   "!=": "other than"}
FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
NEGATE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
BIN = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "//": "divided by (rounded down)"}


def formula(e: E) -> Inline:
    return (Code(unparse(e)),)


def humane(name: str) -> str:
    return name.replace("_", " ")


def possessive(noun: Inline) -> Inline:
    """``the player`` -> ``the player's``; ``p`` -> ``p's``."""
    last = noun[-1] if noun else ""
    text = last.text if isinstance(last, Code) else last
    return cat(noun, "' " if text.endswith("s") and not isinstance(last, Code) else "'s ")


def number_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


class Words:
    """Reads one ruleset's folded expressions: ``zones`` maps a zone name to its ``per``, ``derived``
    and ``classes`` are the ruleset's own names."""

    def __init__(self, zones: dict, derived: frozenset = frozenset(), classes: frozenset = frozenset()):
        self.zones = zones
        self.derived = derived
        self.classes = classes

    # ------------------------------------------------------------------ entry points: never None

    def condition(self, e: E) -> Inline:
        return self.cond(e) or formula(e)

    def value(self, e: E) -> Inline:
        return self.noun(e) or formula(e)

    # ------------------------------------------------------------------ noun phrases

    def noun(self, e: E) -> Optional[Inline]:
        handler = getattr(self, "_noun_" + e.op, None)
        return handler(e, e.args) if handler else None

    def _noun_const(self, e, a):
        v = a[0]
        if v is None:
            return ("nothing",)
        if isinstance(v, tuple):
            return join(((number_text(x),) for x in v), last=" and ") or ("nothing",)
        return (number_text(v),)

    def _noun_name(self, e, a):
        name = a[0]
        if name in self.zones:
            return ("the player's " + humane(name),) if self.zones[name] != "table" else ("the " + humane(name),)
        names = phrases()[0]
        if name in names:
            return (names[name],)
        if name in self.derived:
            return ("the ", Code(name))
        return None

    def _noun_attr(self, e, a):
        base, member = a
        members = phrases()[1]
        if base.op == "name" and (base.args[0], member) in members:
            return (members[(base.args[0], member)],)
        if base.op == "name" and base.args[0] == "deal":
            return ("the " + humane(member),)          # a card the deal remembered (`as:`)
        if base.op == "name" and base.args[0] == "state":
            return ("the " + humane(member),)
        if base.op == "name" and base.args[0] in phrases()[4]:      # a mechanic's own names: `counters.NAME`
            return (phrases()[4][base.args[0]], Code(member))
        owner = self.noun(base)
        if owner is None:
            return None
        return cat(possessive(owner), humane(member))

    def _noun_call(self, e, a):
        name, args = a[0], a[1:]
        if len(args) == 1:
            return self._noun_call1(name, args[0])
        if name in ("max", "min") and len(args) == 2:
            x, y = self.noun(args[0]), self.noun(args[1])
            if x and y:
                return cat("the ", "larger" if name == "max" else "smaller", " of ", x, " and ", y)
        return None

    def _noun_call1(self, name: str, arg: E) -> Optional[Inline]:
        if name == "count" and arg.op == "name" and arg.args[0] in self.zones:
            return cat("the number of cards in ", self.noun(arg))
        if name == "count" and arg.op in ("attr", "name"):
            inner = self.noun(arg)
            if inner and isinstance(inner[0], str) and inner[0].startswith("the cards "):
                return cat("the number of " + inner[0][4:], inner[1:])     # "the number of cards taken ..."
            return cat("the number of cards in ", inner) if inner and arg.op == "attr" else None
        if name == "top" and arg.op == "name" and arg.args[0] in self.zones:
            return cat("the top card of ", self.noun(arg))
        if name == "holder":
            card = _card(arg)
            return ("the player holding ", Code(card)) if card else None
        inner = self._seat_or_zone(arg)
        if inner is None:
            return None
        if name == "deadwood" and arg.op == "name" and arg.args[0] in self.zones:
            return ("the player's deadwood",)
        own = phrases()[3]
        if name in own:
            return cat(possessive(inner), own[name])
        if name == "held":
            return cat("the value of the cards in ", possessive(inner), "hand")
        if name == "melded":
            return cat("the value of the cards ", inner, " melded this hand")
        if name == "next_seat":
            return cat("the player to the left of ", inner)
        if name == "abs":
            return cat("the size of ", inner)
        return None

    def _seat_or_zone(self, arg: E) -> Optional[Inline]:
        """An argument as a noun; a comprehension's variable (``p``) is named as itself."""
        if arg.op == "name" and arg.args[0] not in phrases()[0] and arg.args[0] not in self.zones \
                and arg.args[0] not in self.derived:
            return (Code(arg.args[0]),)
        return self.noun(arg)

    def _noun_index(self, e, a):
        """``previous_order[0]``: "the first player out last deal"; ``[players - 1]``: the last."""
        base, idx = a
        if not (base.op == "name" and base.args[0] == "previous_order"):
            return None
        if idx.op == "const" and idx.args[0] == 0:
            return ("the first player out in the last deal",)
        if unparse(idx) == "players - 1" or (idx.op == "const" and idx.args[0] == -1):
            return ("the last player out in the last deal",)
        return None

    def _noun_comp(self, e, a):
        """``sum(held(p) for p in opponents(player))``: "the total, over each `p` among the player's
        opponents, of the value of the cards in p's hand"."""
        name, item, var, seq, cond = a
        among = self._among(var, seq, cond)
        if among is None:
            return None
        if name == "count":
            return cat("the number of ", among) if item == E("name", (var,)) or cond is None else None
        value = self.noun(item)
        if value is None or name not in ("sum", "max", "min"):
            return None
        what = {"sum": "the total", "max": "the largest", "min": "the smallest"}[name]
        return cat(what, ", over each ", among, ", of ", value)

    def _cond_comp(self, e, a):
        """``all(x < held(p) for p in opponents(player))``: "for every `p` among ..., x is less than ..."."""
        name, item, var, seq, cond = a
        among = self._among(var, seq, cond)
        said = self.cond(item)
        if name not in ("any", "all") or among is None or said is None:
            return None
        return cat("for some " if name == "any" else "for every ", among, ", ", said)

    def _among(self, var: str, seq: E, cond: Optional[E]) -> Optional[Inline]:
        """`` `p` among the player's opponents [for which ...]``."""
        where = self.cond(cond) if cond is not None else ()
        group = self.noun(seq)
        if group is None or where is None:
            return None
        return cat(Code(var), " among ", group, cat(" for which ", where) if where else ())

    def _noun_bin(self, e, a):
        op, left, right = a
        if op not in BIN or (right.op == "bin" and not _stronger(right.args[0], op)) \
                or (left.op == "bin" and _weaker(left.args[0], op)):
            return None
        x, y = self.noun(left), self.noun(right)
        if not (x or y):
            return None
        return cat(_bracketed(left, x or formula(left)), f" {BIN[op]} ", _bracketed(right, y or formula(right)))

    def _noun_neg(self, e, a):
        x = self.noun(a[0])
        return cat("minus ", x) if x else None

    def _noun_if(self, e, a):
        """``a if c; b if d; otherwise z`` (a chain of choices is read in order)."""
        parts, node = [], e
        while node.op == "if":
            value = self.value(node.args[1])
            if node.args[1].op == "if":                # a choice inside a choice keeps its own brackets
                value = cat("(", value, ")")
            parts.append(cat(value, " if ", self.condition(node.args[0])))
            node = node.args[2]
        rest = self.value(node)
        return cat(join(parts, sep="; ", last="; "), "; otherwise ", rest)

    # ------------------------------------------------------------------ conditions

    def cond(self, e: E) -> Optional[Inline]:
        handler = getattr(self, "_cond_" + e.op, None)
        return handler(e, e.args) if handler else None

    def _cond_const(self, e, a):
        if isinstance(a[0], bool):
            return ("always",) if a[0] else ("never",)
        return None

    def _cond_name(self, e, a):
        conditions = phrases()[2]
        return (conditions[a[0]][0],) if a[0] in conditions else None

    def _cond_attr(self, e, a):
        base, member = a
        if base.op == "name" and base.args[0] == "state":
            return ("the " + humane(member) + " is on",)
        return None

    def _cond_cmp(self, e, a):
        op, left, right = a
        if left.op == "const" and right.op != "const":
            op, left, right = FLIP[op], right, left
        said = self._count_remains(op, left, right) or self._ending(op, left, right) or self._nothing(op, left, right)
        if said:
            return said
        x, y = self.noun(left), self.noun(right)
        if x is None or y is None:
            return None
        return cat(x, " is ", RELATIONS[op], y)

    def _count_remains(self, op, left, right) -> Optional[Inline]:
        """``count(stock) > 2``: "more than 2 cards remain in the stock"."""
        if not (left.op == "call" and left.args[0] == "count" and len(left.args) == 2 and self._is_zone(left.args[1])
                and right.op == "const" and isinstance(right.args[0], int) and not isinstance(right.args[0], bool)):
            return None
        zone, n = self.noun(left.args[1]), right.args[0]
        if n == 0 and op in ("==", "<="):
            return cat(zone, " is empty")
        if n == 0 and op in ("!=", ">"):
            return cat(zone, " is not empty")
        one = n == 1 and op not in (">", "<")
        return cat(COUNT_RELATIONS[op], f" {n} card{'' if one else 's'} remain{'s' if one else ''} in ", zone)

    def _is_zone(self, e: E) -> bool:
        """A zone (``stock``), or a seat's own zone (``player.hand``)."""
        if e.op == "name":
            return e.args[0] in self.zones
        return e.op == "attr" and e.args[1] in self.zones and self.zones[e.args[1]] != "table" \
            and self.noun(e) is not None

    def _ending(self, op, left, right) -> Optional[Inline]:
        if not (left.op == "name" and left.args[0] == "ending" and right.op == "const"
                and isinstance(right.args[0], str) and op in ("==", "!=")):
            return None
        return ("the hand ended " + ("by " if op == "==" else "other than by "), Code(right.args[0]))

    def _nothing(self, op, left, right) -> Optional[Inline]:
        """``deal.scorer == none``: "nobody scored the hand"; ``x == none``: "there is no x"."""
        if not (right.op == "const" and right.args[0] is None and op in ("==", "!=")):
            return None
        if left.op == "attr" and left.args[0].op == "name" and (left.args[0].args[0], left.args[1]) == ("deal", "scorer"):
            return ("nobody scored the hand" if op == "==" else "someone scored the hand",)
        x = self.noun(left)
        if x is None or not isinstance(x[0], str) or not x[0].startswith("the "):
            return None
        return cat("there is " + ("no " if op == "==" else "a "), x[0][4:], x[1:])

    def _cond_in(self, e, a):
        item, seq = a
        x = self.noun(item)
        if x is None:
            return None
        if seq.op == "list" or (seq.op == "const" and isinstance(seq.args[0], tuple)):
            values = seq.args if seq.op == "list" else tuple(E("const", (v,)) for v in seq.args[0])
            options = [self.noun(v) for v in values]
            if all(options):
                return cat(x, " is ", join(options, last=" or ") if len(options) > 1 else options[0])
            return None
        y = self.noun(seq)
        return cat(x, " is among ", y) if y else None

    def _cond_and(self, e, a):
        return self._chain(e, "and")

    def _cond_or(self, e, a):
        return self._chain(e, "or")

    def _chain(self, e: E, op: str) -> Inline:
        """``a and b and c`` in words; comparisons of one subject share it ("is at most 10 and more
        than 0"); a part with no words is shown as its formula; a nested ``or`` is "either ... or"."""
        terms = _flatten(e, op)
        out: list = []
        subject = None
        for t in terms:
            said, subject = self._term(t, op, subject)
            out.append(said)
        return join(out, sep=f", {op} " if len(out) > 2 else f" {op} ", last=f" {op} ")

    def _term(self, t: E, op: str, subject: Optional[str]):
        if t.op == "cmp" and t.args[1].op != "const":
            key = unparse(t.args[1])
            if key == subject and not self._count_remains(t.args[0], t.args[1], t.args[2]):
                y = self.noun(t.args[2])
                if y:
                    text = t.args[2].op == "const" and isinstance(t.args[2].args[0], str)
                    return cat(RELATIONS[t.args[0]] or ("" if text else "equal to "), y), subject
            return self.condition(t), key
        inner = self.condition(t)
        if t.op in ("and", "or") and t.op != op:
            inner = cat("either " if t.op == "or" else "both ", inner)
        return inner, None

    def _cond_not(self, e, a):
        inner = a[0]
        if inner.op == "cmp":
            return self.cond(E("cmp", (NEGATE[inner.args[0]],) + inner.args[1:]))
        if inner.op == "call" and len(inner.args) == 2:
            said = self._predicate(inner.args[0], inner.args[1], negated=True)
            if said:
                return said
        if inner.op == "in":
            said = self._cond_in(inner, inner.args)
            return _negate_is(said) if said else None
        if inner.op == "name" and inner.args[0] in phrases()[2]:
            return (phrases()[2][inner.args[0]][1],)
        if inner.op == "attr" and inner.args[0].op == "name" and inner.args[0].args[0] == "state":
            return ("the " + humane(inner.args[1]) + " is off",)
        said = self.cond(inner)
        return cat("not (", said, ")") if said else None

    def _cond_call(self, e, a):
        if len(a) == 2:
            return self._predicate(a[0], a[1], negated=False)
        return None

    def _predicate(self, name: str, arg: E, negated: bool) -> Optional[Inline]:
        """``is_joker(card)``: "the card is a joker"; a card class ``red_three(card)``: "the card is
        a `red_three`"."""
        x = self._seat_or_zone(arg)
        if x is None:
            return None
        if name in PREDICATES:
            words = PREDICATES[name][1 if negated else 0]
            return cat(x, words) if words.startswith("'") else cat(x, " ", words)  # "'s side has ..."
        if name in self.classes:
            return cat(x, " is not a " if negated else " is a ", Code(name))
        return None


def _negate_is(said: Inline) -> Inline:
    """"x is among y" -> "x is not among y" (the first " is " of a membership sentence)."""
    for i, piece in enumerate(said):
        if isinstance(piece, str) and " is " in piece:
            return said[:i] + (piece.replace(" is ", " is not ", 1),) + said[i + 1:]
    return cat("not (", said, ")")


def _bracketed(e: E, said: Inline) -> Inline:
    """A choice inside arithmetic is read in brackets: "25 plus (100 if ...; otherwise 200)"."""
    return cat("(", said, ")") if e.op == "if" else said


def _flatten(e: E, op: str) -> list:
    if e.op != op:
        return [e]
    return _flatten(e.args[0], op) + _flatten(e.args[1], op)


def _stronger(inner: str, outer: str) -> bool:
    """Whether ``a outer (b inner c)`` reads right without brackets: ``a plus b times c``."""
    return inner not in "+-" and outer in "+-"


def _weaker(inner: str, outer: str) -> bool:
    """Whether ``(a inner b) outer c`` cannot be read left to right without brackets."""
    return inner in "+-" and outer not in "+-"


def _card(arg: E) -> Optional[str]:
    return arg.args[0] if arg.op == "const" and isinstance(arg.args[0], str) else None
