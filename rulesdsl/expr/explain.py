"""Why a condition has the value it has: a short trace of its parts, with their values.

A refused action used to quote the whole condition behind it, every branch of every variant included.
A trace instead walks the expression as it was evaluated and keeps only what decided the result: for
``and`` the part that is false, for ``or`` why each branch that could have held did not, for a
comparison both sides with their values (``deadwood(hand) = 12 > knock_limit = 10``), for ``if`` the
branch taken.  Parts the parameters fold to a constant (a variant switched off) are left out, exactly
where the compiler folds them away.

The tracer evaluates the parts it shows with closures compiled from the same ``Scope`` as the rule
(compiled the first time a part is explained, then kept), so the values it reports are the values the
engine sees; ``and``/``or``/``not``/``if`` and comparisons it evaluates itself, in the same order and
with the same short-circuits, so a trace's verdict is the rule's verdict.  Nothing is parsed or
evaluated from text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..errors import Diagnostics, printable
from .ast import E, Expr, literal, unparse
from .compiler import Const, CompileError, Scope

MAX_DEPTH = 8            # nested and/or/not/if explained at most this deep; below, a part is one value
MAX_PARTS = 6            # branches of one `or` (or parts of one true `and`) shown at most
MAX_TEXT = 200           # a one-line trace (in a refusal's message) is cut past this many characters
MAX_LINES = 24           # a multi-line trace shows at most this many lines
SOURCE_LIMIT = 60        # how much of a part's own text is quoted
VALUE_LIMIT = 48         # how much of a value is shown

_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


@dataclass
class Step:
    """One fact of a trace (``play.size = 1 != last.size = 2``) and the facts it rests on."""

    text: str
    parts: list = field(default_factory=list)
    joiner: str = ""         # how ``parts`` read together on one line: "none of" / "all of" / ""

    def flat(self) -> str:
        """The step on one line."""
        if not self.parts:
            return self.text
        inner = [p.flat() for p in self.parts]
        if len(inner) > 1:
            inner = [f"({s})" if self.parts[i].parts else s for i, s in enumerate(inner)]
        joined = "; ".join(inner)
        if self.joiner and len(inner) > 1:
            joined = f"{self.joiner}: {joined}"
        return f"{self.text}: {joined}" if self.text else joined

    def lines(self, indent: int = 0) -> list[str]:
        """The step as indented lines, one fact each."""
        pad = "  " * indent
        out = []
        head = self.text
        if self.joiner and len(self.parts) > 1:
            head = f"{head}: {self.joiner}" if head else self.joiner + ":"
        if head:
            out.append(pad + head)
        deeper = indent + 1 if head else indent
        for p in self.parts:
            sub = p.lines(deeper)
            if sub and len(self.parts) > 1:
                sub[0] = "  " * deeper + "- " + sub[0].lstrip()
            out.extend(sub)
        return out


@dataclass
class Trace:
    """Why a rule's condition has its value now: ``value`` (the verdict), ``step`` (the facts), and the
    rule (``rule``, its key path or name, and ``pos``, where it is written)."""

    value: Any
    step: Step
    rule: str = ""
    pos: Any = None
    source: str = ""
    #: a trace for a player's eyes that would have shown what that player cannot see is ``sealed``:
    #: its step says only that; ``unsealed`` keeps the full trace for the program (never printed)
    sealed: bool = False
    unsealed: Optional["Trace"] = field(default=None, repr=False)

    @property
    def holds(self) -> bool:
        return bool(self.value)

    @property
    def text(self) -> str:
        """The trace on one line, cut to ``MAX_TEXT`` characters."""
        return _cut(printable(self.step.flat()), MAX_TEXT)

    def lines(self) -> list[str]:
        """The trace as lines (at most ``MAX_LINES``)."""
        out = [printable(x) for x in self.step.lines()]
        if len(out) > MAX_LINES:
            out = out[:MAX_LINES - 1] + [f"... ({len(out) - MAX_LINES + 1} more lines)"]
        return out

    def where(self) -> str:
        """``rule at path:line:col`` (or what of it is known)."""
        at = f" at {self.pos}" if self.pos is not None and getattr(self.pos, "line", 0) else ""
        return printable(f"{self.rule}{at}") if self.rule or at else ""

    def report(self) -> str:
        """The verdict, the rule and the facts, as a few lines for a person."""
        v = self.value
        verdict = (f"is {'true' if v else 'false'}" if isinstance(v, bool) or v is None
                   else f"gives {_cut(_plain(v), VALUE_LIMIT)}")
        head = f"{self.where() or 'the condition'} {verdict}"
        return "\n".join([head + ":"] + ["  " + x for x in self.lines()])

    def __str__(self) -> str:
        return self.text


class Tracer:
    """Explains expressions compiled from one ``Scope``.  Each part is compiled the first time it is
    explained (in the scope's top level: parts inside comprehensions and derived functions are shown
    as values, never taken apart) and kept for the next explanation.

    ``cards`` (card id -> text), when given, shows card values by name where the names that give cards
    say so (``Binding.shows`` / ``Builtin.shows``)."""

    def __init__(self, scope: Scope, cards: Optional[tuple] = None, zones: Optional[dict] = None):
        self.scope = scope
        self.cards = cards
        self.zones = zones or {}             # zone name -> (per: table/player/team, visible)
        self._fns: dict[int, tuple] = {}     # id(node) -> (node, closure): nodes live in the model
        self._hidden: dict[int, tuple] = {}  # id(node) -> (node, whether it reads hidden cards)
        self._touched = False                # a value shown in the trace being made reads hidden cards

    # ------------------------------------------------------------------ public
    def trace(self, expr: Any, ctx: Any, rule: str = "", pos: Any = None, seat: Optional[int] = None) -> Trace:
        """Why ``expr`` (an ``Expr`` or an ``E``) has its value in ``ctx``.  An evaluation that fails
        is reported as such (the engine would have stopped with a ``RuleEvaluationError``).

        With ``seat`` (the acting seat: the trace is for its player), a trace that would show a value
        read from cards that seat cannot see (a hidden zone, another seat's hand) is sealed: it says
        only that, so a refusal never tells a player more than the legal list does."""
        node = expr.ast if isinstance(expr, Expr) else expr
        source = str(expr) if isinstance(expr, Expr) else unparse(node)
        if pos is None:
            pos = getattr(expr, "pos", None)
        self._touched = False
        try:
            value, step = self._ev(node, ctx, 0)
        except Exception as exc:          # noqa: BLE001 -- the rule fails here; say so, never raise
            value, step = None, Step(f"`{_cut(source, SOURCE_LIMIT)}` cannot be evaluated: "
                                     f"{type(exc).__name__}: {_cut(str(exc), 120)}")
            self._touched = self._touched or self.reads_hidden(node)
        full = Trace(value, step, rule, pos, source)
        if seat is None or not self._touched:
            return full
        return Trace(value, Step(f"it reads cards seat {seat} cannot see"), rule, pos, source, True, full)

    def fn(self, node: E) -> Callable[[Any], Any]:
        """The compiled closure of a part (compiled once, quietly: it compiled at load)."""
        hit = self._fns.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        scope = self.scope
        saved = scope.diags
        scope.diags = Diagnostics()
        try:
            fn = scope._c(node)
        except CompileError:
            fn = Const(None)
        finally:
            scope.diags = saved
        self._fns[id(node)] = (node, fn)
        return fn

    # ------------------------------------------------------------------ evaluation, with reasons
    def _ev(self, e: E, ctx: Any, depth: int) -> tuple[Any, Step]:
        fn = self.fn(e)
        if isinstance(fn, Const):
            return fn.value, self._constant(e, fn.value)
        if depth >= MAX_DEPTH:
            return self._leaf(e, fn, ctx)
        op = e.op
        if op == "and":
            return self._and(e, ctx, depth)
        if op == "or":
            return self._or(e, ctx, depth)
        if op == "not":
            value, step = self._ev(e.args[0], ctx, depth + 1)
            return (not value), step
        if op == "if":
            return self._if(e, ctx, depth)
        if op == "cmp":
            return self._cmp(e, ctx, depth)
        if op == "in":
            return self._in(e, ctx)
        if op == "name" and e.args[0] in self.scope.derived:
            return self._derived(e, fn, ctx, depth)
        return self._leaf(e, fn, ctx)

    def _constant(self, e: E, value: Any) -> Step:
        """A part the parameters decide: its value (and, for a bare parameter, its name)."""
        if e.op == "const":
            return Step(self._show(value))
        src = _cut(unparse(e), SOURCE_LIMIT)
        if e.op in ("attr", "name"):
            return Step(f"{src} = {self._show(value)}")
        return Step(f"`{src}` is {self._show(value)} with these parameters")

    def _leaf(self, e: E, fn: Callable, ctx: Any) -> tuple[Any, Step]:
        value = fn(ctx)
        return value, Step(self._side(e, value, ctx))

    def _derived(self, e: E, fn: Callable, ctx: Any, depth: int) -> tuple[Any, Step]:
        """A derived value: its value, and when it is a truth value, why (its body, taken apart)."""
        value = fn(ctx)
        if not isinstance(value, bool):
            return value, Step(self._side(e, value, ctx))
        if self.reads_hidden(e):
            self._touched = True
        body = self.scope.derived[e.args[0]].ast
        _inner, why = self._ev(body, ctx, depth + 1)
        return value, Step(f"{e.args[0]} is {self._show(value)}", [why])

    def _chain(self, e: E) -> list[E]:
        """``a and b and c`` as [a, b, c] (the same for ``or``), left to right."""
        out, stack = [], [e]
        while stack:
            x = stack.pop()
            if x.op == e.op:                      # `a and (b and c)` reads the same
                stack.extend(reversed(x.args))
            else:
                out.append(x)
        return out

    def _and(self, e: E, ctx: Any, depth: int) -> tuple[Any, Step]:
        shown, value = [], True
        for part in self._chain(e):
            value, step = self._ev(part, ctx, depth + 1)
            if not value:
                return value, step                    # the first false part decides (as evaluated)
            if not isinstance(self.fn(part), Const):
                shown.append(step)
        return value, _gather(shown, "all of")

    def _or(self, e: E, ctx: Any, depth: int) -> tuple[Any, Step]:
        shown, value = [], False
        for part in self._chain(e):
            value, step = self._ev(part, ctx, depth + 1)
            if value:
                return value, step                    # the first true branch decides
            if not isinstance(self.fn(part), Const):  # a branch switched off says nothing
                shown.append(step)
        return value, _gather(shown, "none of")

    def _if(self, e: E, ctx: Any, depth: int) -> tuple[Any, Step]:
        cond, yes, no = e.args
        if isinstance(self.fn(cond), Const):
            return self._ev(yes if self.fn(cond).value else no, ctx, depth + 1)
        c, why = self._ev(cond, ctx, depth + 1)
        branch = yes if c else no
        value, step = self._ev(branch, ctx, depth + 1)
        if isinstance(self.fn(branch), Const) or not step.parts:      # the branch's own fact says it
            return value, Step(f"{why.flat()}, so {step.text}")
        return value, Step(f"{why.flat()}, so `{_cut(unparse(branch), SOURCE_LIMIT)}`", [step])

    def _cmp(self, e: E, ctx: Any, depth: int = 0) -> tuple[Any, Step]:
        sym, left, right = e.args
        lv, rv = self.fn(left)(ctx), self.fn(right)(ctx)
        value = self.fn(e)(ctx)               # as compiled: a card compared with text compares its name
        ls, rs = self._side(left, lv, ctx), self._side(right, rv, ctx)
        ls += self._choice(left, ctx, depth)
        rs += self._choice(right, ctx, depth)
        if value:
            return value, Step(f"{ls} {sym} {rs}")
        if sym in ("==", "!=") or (_number(lv) and _number(rv)):
            return value, Step(f"{ls} {_NEGATED[sym]} {rs}")
        return value, Step(f"{ls} {sym} {rs} is false")

    def _choice(self, e: E, ctx: Any, depth: int) -> str:
        """For a derived value that the position chooses (its body an ``if`` the parameters leave
        open), the choice made: `` (rank(deal.upcard) = "A" == "A", so `0`)``; else ``""``."""
        if e.op != "name" or e.args[0] not in self.scope.derived or depth + 1 >= MAX_DEPTH:
            return ""
        body = self.scope.derived[e.args[0]].ast
        if body.op != "if" or isinstance(self.fn(e), Const):
            return ""
        _value, why = self._ev(body, ctx, depth + 1)
        return f" ({why.flat()})"

    def _in(self, e: E, ctx: Any) -> tuple[Any, Step]:
        left, right = e.args
        lv, rv = self.fn(left)(ctx), self.fn(right)(ctx)
        value = self.fn(e)(ctx)               # as compiled: `"AS" in hand` asks for the card named
        return value, Step(f"{self._side(left, lv, ctx)} {'in' if value else 'not in'} {self._side(right, rv, ctx)}")

    # ------------------------------------------------------------------ what the acting seat sees
    def reads_hidden(self, e: E) -> bool:
        """Whether a part's value depends on cards the acting seat cannot see: a zone it does not see
        (all of it, or past the top of a zone that shows its top), another seat's zone, a builtin that
        reads other hands -- directly or through the derived values and functions it names.  Counting
        a zone's cards (``count(stock)``) is public.  Judged from the text alone, once per part."""
        hit = self._hidden.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        self._hidden[id(e)] = (e, False)             # derived values are acyclic; this ends any loop
        found = self._walk_hidden(e)
        self._hidden[id(e)] = (e, found)
        return found

    def _walk_hidden(self, e: E) -> bool:
        op, a = e.op, e.args
        if op == "name":
            return self._zone_hidden(a[0]) or (a[0] in self.scope.derived
                                               and self.reads_hidden(self.scope.derived[a[0]].ast))
        if op == "attr":
            base, member = a
            if member in self.zones and not (base.op == "name" and base.args[0] == "params"):
                return self.zones[member][1] != "all" or self.reads_hidden(base)   # a seat's or team's zone
            return self.reads_hidden(base)
        if op == "call":
            name, args = a[0], a[1:]
            if name == "count" and len(args) == 1 and self._is_zone(args[0]):
                return False                                            # how many: public
            if name == "top" and len(args) == 1 and args[0].op == "name" \
                    and self.zones.get(args[0].args[0], ("", ""))[1] == "top":
                return False
            b = self.scope.builtins.get(name)
            if b is not None and getattr(b, "shows", "") == "secret":
                return True
            fn = self.scope.functions.get(name)
            if fn is not None and self.reads_hidden(fn.ast):
                return True
            return any(self.reads_hidden(x) for x in args if isinstance(x, E))
        return any(self.reads_hidden(x) for x in a if isinstance(x, E))

    def _is_zone(self, e: E) -> bool:
        return (e.op == "name" and e.args[0] in self.zones) or (e.op == "attr" and e.args[1] in self.zones)

    def _zone_hidden(self, name: str) -> bool:
        """A zone named bare: a table zone, or the acting seat's (or its team's) own."""
        zone = self.zones.get(name)
        if zone is None:
            return False
        per, visible = zone
        if per == "table":
            return visible != "all"
        return visible not in ("all", "owner", "team")

    # ------------------------------------------------------------------ showing values
    def _side(self, e: E, value: Any, ctx: Any = None) -> str:
        """A part as written, with its value (a literal is its own value)."""
        if e.op == "const":
            return self._show(value)
        if self.reads_hidden(e):
            self._touched = True
        src = unparse(e)
        if e.op not in ("name", "attr", "call", "index", "const"):
            src = f"({_cut(src, SOURCE_LIMIT)})"
        shown = self._show(value, self._shows(e))
        named = self._rank_name(e, value, ctx) if ctx is not None else ""
        return f"{_cut(src, SOURCE_LIMIT)} = {shown}" + (f" ({named})" if named else "")

    def _shows(self, e: E) -> str:
        """What a name or call gives when it is not a plain value: "card" or "cards" (or "")."""
        if e.op == "name":
            b = self.scope.names.get(e.args[0])
            return getattr(b, "shows", "") if b is not None else ""
        if e.op == "attr" and e.args[0].op == "name":
            b = self.scope.names.get(f"{e.args[0].args[0]}.{e.args[1]}")
            return getattr(b, "shows", "") if b is not None else ""
        if e.op == "call":
            b = self.scope.builtins.get(e.args[0])
            return getattr(b, "shows", "") if b is not None else ""
        return ""

    def _rank_name(self, e: E, value: Any, ctx: Any) -> str:
        """``X.rank`` is a position in the order in force; where ``X.rank_name`` exists, that rank's
        name is shown beside it (``play.rank = 4 (rank 7)``)."""
        if not (e.op == "attr" and e.args[1] == "rank" and e.args[0].op == "name" and _number(value)):
            return ""
        b = self.scope.names.get(f"{e.args[0].args[0]}.rank_name")
        if b is None:
            return ""
        try:
            name = b.get(ctx)
        except Exception:                 # noqa: BLE001 -- a courtesy; the value itself is shown
            return ""
        return f"rank {name}" if isinstance(name, str) and name else ""

    def _show(self, value: Any, shows: str = "") -> str:
        cards = self.cards
        if cards is not None and shows == "card" and isinstance(value, int) and 0 <= value < len(cards):
            return cards[value]
        if cards is not None and shows == "cards" and isinstance(value, (list, tuple)):
            names = [cards[c] if isinstance(c, int) and 0 <= c < len(cards) else str(c) for c in value]
            return _cut("[" + " ".join(names) + "]", VALUE_LIMIT) + (f" ({len(names)} cards)" if len(names) > 4 else "")
        return _cut(_plain(value), VALUE_LIMIT)


def _plain(value: Any) -> str:
    if value is None or isinstance(value, (bool, str)):
        return literal(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return "[" + ", ".join(_plain(v) for v in list(items)[:12]) + (", ..." if len(items) > 12 else "") + "]"
    if isinstance(value, range):
        return f"[{value.start} .. {value.stop - 1}]" if len(value) else "[]"
    return str(value)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _gather(steps: list, joiner: str) -> Step:
    """Several steps as one (at most ``MAX_PARTS`` shown)."""
    if len(steps) == 1:
        return steps[0]
    if not steps:
        return Step("(decided by the parameters)")
    more = len(steps) - MAX_PARTS
    steps = steps[:MAX_PARTS] + ([Step(f"... and {more} more")] if more > 0 else [])
    return Step("", steps, joiner)
