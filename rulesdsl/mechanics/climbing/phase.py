"""Climbing and shedding: play a combination that beats (or matches) the last one, draw, or pass.

A play is a set of cards fitting one of the ruleset's patterns (``climbing.plays``, in the meld
vocabulary; ``sizes`` is shorthand for one set pattern).  Leading, any play is allowed; otherwise the
ruleset's ``beats`` expression decides, over ``play.*`` (the play judged) and ``last.*`` (the play to
beat).  A card turned up into the trick zone at the deal is the first play to beat (a shedding pile).

A trick ends when every other active player has passed since the last play; its last player leads
next, or, if they have gone out, the next active player after them (``all_passed: end_hand`` instead
ends the hand: play is blocked).  A hand ends when one player still holds cards, or when ``ends_when``
holds after a play.  Going out runs the ruleset's ``on_going_out`` hooks.

State toggles flip (or set) on a play that makes their condition true; while on they may reverse the
rank order and/or the turn direction; the play itself is judged under the order in force before it.
Toggles may reset when a trick ends.

Where no rule reads a suit, the legal list offers one play per choice of ranks (other suits of the same
ranks are accepted as the same choice, and ``view()`` says so); where suits matter, every distinct play
is listed.  Work per position is bounded by ``patterns.MAX_CANDIDATES``.

Speed (the same lists as judging every candidate afresh, in the same order).  Three caches, each a pure
function of its key, shared by the games of one program and cleared whole when they grow too large:

* a candidate's classification, by its cards and declared identities (``_Cand``: its shape, its
  class key, its action and its ``play.*`` views, made once);
* a hand's candidates, by the hand's cards in order and the play size asked for: classified,
  deduplicated and already in the listing order (``_table``);
* the value of ``beats`` and ``names_suit`` when the compiler shows they read only ``play.*``,
  ``last.*``, parameters and plain values the listing leaves unchanged (``CClimb.beats_reads``): keyed by
  the members read of the two plays and those values, so a variant that is off costs nothing and a
  play is judged by one look-up.
"""

from __future__ import annotations

from typing import Optional

from ...compile.patterns import MAX_CANDIDATES, Pattern, PlayShape
from ...engine.actions import Action
from ...engine.phases.base import Phase
from ...errors import IllegalAction, RuleEvaluationError, excerpt
from ...expr.compiler import Const

PASS = Action("pass")


class PlayView:
    """What ``play.*`` / ``last.*`` read: a play's members under the rank order in force.  Never
    changed once made (views are shared by every position that shows the same play)."""

    __slots__ = ("size", "rank", "rank_name", "kind", "tier", "high", "low", "suit", "suits", "wilds", "naturals",
                 "proj")

    MEMBERS = ("size", "rank", "rank_name", "kind", "tier", "high", "low", "suit", "suits", "wilds", "naturals")

    def __init__(self, **kw) -> None:
        for k in self.MEMBERS:
            setattr(self, k, kw.get(k))
        self.proj = None               # the members the memoised conditions read (set by the phase)


#: ``last`` while there is no play to beat (a lead): no cards, matching nothing
NO_PLAY = PlayView(size=0, rank=-1, rank_name=None, kind=None, tier=-1, high=-1, low=-1, suit=None, suits=(),
                   wilds=0, naturals=0)


class _Cand:
    """A classified candidate play: what a choice of cards (and declared identities) is, made once per
    program and shared by every position that offers it.  ``views`` (the ``play.*`` of it, plain and
    under a reversed order) and ``named`` (its actions naming each suit) are filled when first needed;
    ``others`` holds views for what it stands for on the table (``last.*``)."""

    __slots__ = ("shape", "ids", "decl", "key", "action", "order", "views", "named", "others")

    def __init__(self, shape, ids: tuple, decl: tuple, key: tuple, action: Optional[Action]) -> None:
        self.shape = shape
        self.ids = ids
        self.decl = decl
        self.key = key                      # class key: what makes two plays the same choice
        self.action = action
        self.order = (shape.rank_pos, shape.size, shape.pattern.tier)    # the listing order
        self.views = [None, None]
        self.named = None
        self.others = None


class Played:
    """A play on the table: its shape, who made it, and what it now stands for."""

    __slots__ = ("shape", "cand", "player", "named", "rank_pos", "rank_key", "size")

    def __init__(self, cand: _Cand, player: int, named: int = -1) -> None:
        shape = cand.shape
        self.shape = shape
        self.cand = cand
        self.player = player                # -1: a card turned up at the deal
        self.named = named                  # suit index named by the play (-1: none)
        self.rank_pos = shape.rank_pos      # may become the rank it beat (``takes_last_rank``)
        self.rank_key = shape.rank_key
        self.size = shape.size


def _never(fn) -> bool:
    """A compiled condition folded to a false constant at load (a variant switched off)."""
    return fn is None or (isinstance(fn, Const) and not fn.value)


def _ORDER(cand: _Cand) -> tuple:
    return cand.order


class ClimbPhase(Phase):
    name = "climb"
    keeps_chosen = True
    #: classified candidates remembered at most (a play's shape depends only on its cards)
    MEMO_LIMIT = 100_000
    #: hands whose candidates are remembered at most, and candidates in those tables at most
    TABLE_LIMIT = 4_000
    TABLE_CELLS = 400_000
    #: memoised condition values at most
    JUDGED_LIMIT = 200_000

    def __init__(self, prog) -> None:
        super().__init__(prog)
        self.c = prog.climbing
        self.pats = self.c.patterns
        self.names = self.c.rank_names
        self.suit_names = prog.cards.suits
        self.n_s = len(self.suit_names)
        self.suit_pos = self.c.suit_pos
        by_pos = sorted(range(self.n_s), key=self.suit_pos.__getitem__)
        self.suit_sorted = by_pos
        self._memo: dict = {}          # (ids, declared) -> _Cand or None: pure, shared by games
        self._tables: dict = {}        # hand as a tuple -> (listing order, order found, {size: ...}, cut short)
        self._cells = 0                # candidates held by the tables
        self._judged: dict = {}        # (which, last's members, plain values) -> {play's members: value}
        self._n_judged = 0
        reads = (self.c.beats_reads, self.c.names_suit_reads)
        self._reads = [r[1] if r is not None else None for r in reads]     # getters of plain values, or None
        self._proj = tuple(sorted({m for r in reads if r is not None for m in r[0]}))
        self._no_play_proj = tuple(getattr(NO_PLAY, m) for m in self._proj)
        #: the toggles that can ever turn on (a `when` the parameters fold to false never does, so its
        #: state stays off and it reverses nothing)
        self._toggles = [t for t in self.c.toggles if not _never(t.when)]
        c = self.c
        self._skip, self._clears, self._takes, self._goes_last = (None if _never(f) else f for f in (
            c.skip_next, c.clears_trick, c.takes_last_rank, c.goes_last))

    def governs(self, g) -> tuple:
        return "climbing", self.c.pos

    # ------------------------------------------------------------------ hand lifecycle
    def start(self, g) -> None:
        g.state = {}                   # state toggles in force (a revolution), kept across deals
        g.streak_now = 0               # the same-rank streak of the play judged

    def reset(self, g) -> None:
        c = self.c
        g.trick_last = None            # Played: the play to beat
        g.pending = set()              # active seats that have not passed since the last play
        g.locked = set()               # seats out of this trick (pass_locks_out)
        g.finished = []                # seats out, first out first
        g.bottom = []                  # seats out that finish last (goes_last, drops_to_last), first dropped last
        g.streak = (None, 0)           # (rank key, count) of consecutive same-rank plays
        g.trick_plays = 0
        g.cplay = NO_PLAY
        g.clast = NO_PLAY
        g.draws = 0                    # cards drawn this turn
        g.owed = 0                     # cards the player on turn must draw unless they answer
        g.can_play = False
        g.passes = set()               # seats that passed since the last play, draw or trick end
        g.opening = None               # kind the first play of the deal must include
        g.plays_made = 0
        g.play_actions = []            # the plays listed (this position)
        g.play_entries = []            # the _Cand of each, in the same order
        old = getattr(g, "state", {})
        g.state = {t.name: (False if t.resets(g) or t.name not in old else old[t.name]) for t in c.toggles}
        for t in c.toggles:
            if g.state[t.name] and t.reverses_direction(g):
                g.direction = -g.direction

    def enter(self, g) -> None:
        c = self.c
        pile = g.zones[c.to]
        if pile:                                    # a card turned up at the deal is the play to beat
            top = pile[-1]
            shape = self.pats.classify(self.pats.faces([top], [None])) or self._plain_single(top)
            g.trick_last = Played(_Cand(shape, (top,), (None,), (), None), -1)
            g.pending = set(self.active(g))         # nobody made it: every player may answer it
        if c.opening is not None:
            text = c.opening(g)
            kind = self.prog.cards.parse_kind(text) if isinstance(text, str) else None
            if text is not None and kind is None:
                raise RuleEvaluationError(f"`opening_play_includes` gives {text!r}, which is not a card of this "
                                          "deck", "climbing.opening_play_includes", c.pos)
            g.opening = kind
        leader = c.first_leader(g)
        if type(leader) is not int:
            raise RuleEvaluationError(f"`first_leader` gives {leader!r}; it must be a seat",
                                      "climbing.first_leader", c.pos)
        g.actor = leader % g.n
        if not g.pzones[c.play_from][g.actor]:
            g.actor = self._next_eligible(g, g.actor)
        g.turn_begins(g.actor)

    def _plain_single(self, card: int):
        """A turned-up card no pattern fits, judged as a single of its rank."""
        P = self.pats
        r, s = self.prog.cards.rank[card], self.prog.cards.suit[card]
        p = Pattern("single", -1, "set", 1, 1, None, (), False, False, False, (), None)
        return PlayShape(p, r, P.pos.get(r, 0), P.top, P.pos.get(r, 0), s, (s,) if s >= 0 else (), 0, 1)

    # ------------------------------------------------------------------ helpers
    def _reversed(self, g) -> bool:
        for t in self._toggles:
            if g.state[t.name] and t.reverses_order(g):
                return True
        return False

    def view_of(self, g, shape, rank_pos: Optional[int] = None, rank_key: Optional[int] = None,
                named: int = -1, rev: Optional[bool] = None) -> PlayView:
        """``play.*`` for a shape under the order in force (``rank_pos``/``rank_key`` override what it
        stands for; ``named`` is a suit it named)."""
        if rev is None:
            rev = self._reversed(g)
        pos = shape.rank_pos if rank_pos is None else rank_pos
        key = shape.rank_key if rank_key is None else rank_key
        low = shape.low_pos
        if rev:
            pos, low = shape.scale - pos, shape.scale - low
        sp = self.suit_pos
        hs = shape.high_suit
        suit = named if named >= 0 else hs
        names = self.suit_names
        view = PlayView(size=shape.size, rank=pos, rank_name=self.names.get(key), kind=shape.pattern.name,
                        tier=shape.pattern.tier, high=pos * self.n_s + (sp[hs] if hs >= 0 else 0), low=low,
                        suit=names[suit] if suit >= 0 else None,
                        suits=tuple(names[x] for x in sorted(set(shape.suits), key=sp.__getitem__)),
                        wilds=shape.wilds, naturals=shape.size - shape.wilds)
        view.proj = tuple(getattr(view, m) for m in self._proj)
        return view

    def _plain_view(self, cand: _Cand, rev: bool) -> PlayView:
        """A candidate's ``play.*`` under the order in force, made once."""
        view = cand.views[rev]
        if view is None:
            view = cand.views[rev] = self.view_of(None, cand.shape, rev=rev)
        return view

    def _view_as(self, cand: _Cand, rank_pos: int, rank_key: int, named: int, rev: bool) -> PlayView:
        """A candidate's view standing for a rank (``takes_last_rank``) and naming a suit, made once."""
        if cand.others is None:
            cand.others = {}
        k = (rank_pos, rank_key, named, rev)
        view = cand.others.get(k)
        if view is None:
            view = cand.others[k] = self.view_of(None, cand.shape, rank_pos, rank_key, named, rev)
        return view

    def _last_view(self, g, rev: Optional[bool] = None) -> PlayView:
        last = g.trick_last
        if last is None:
            return NO_PLAY
        if rev is None:
            rev = self._reversed(g)
        return self._view_as(last.cand, last.rank_pos, last.rank_key, last.named, rev)

    def active(self, g) -> list[int]:
        hands = g.pzones[self.c.play_from]
        return [s for s in g.order if hands[s] and s not in g.finished and s not in g.bottom]

    def _next_eligible(self, g, seat: int) -> int:
        hands = g.pzones[self.c.play_from]
        s = seat
        for _ in range(g.n):
            s = g.next_seat(s)
            if hands[s] and s not in g.locked and s not in g.bottom and s not in g.finished:
                return s
        return seat

    # ------------------------------------------------------------------ generate
    def generate(self, g) -> list[Action]:
        plays = self._legal_plays(g)
        out = list(plays)
        g.can_play = bool(plays)
        c = self.c
        if self._may_draw(g):
            out.append(Action("draw", c.draw_from))
        if self._may_pass(g):
            out.append(PASS)
        if not out:                        # nothing else: the player passes (play never dead-ends)
            out.append(PASS)
        return out

    def _may_draw(self, g) -> bool:
        c = self.c
        if g.owed > 0:
            return True
        if c.draw_from is None or not g.zones[c.draw_from]:
            return False
        return bool(c.draw_when(g)) if c.draw_when is not None else not g.can_play

    def _may_pass(self, g) -> bool:
        c = self.c
        if g.trick_last is None or g.owed > 0:
            return False
        return bool(c.pass_when(g)) if c.pass_when is not None else True

    def _legal_plays(self, g) -> list[Action]:
        c = self.c
        hand = g.pzones[c.play_from][g.actor]
        rev = self._reversed(g) if self._toggles else False
        last = g.trick_last
        g.clast = lastv = NO_PLAY if last is None else self._view_as(last.cand, last.rank_pos, last.rank_key,
                                                                      last.named, rev)
        listing, enum = self._table(hand, last.size if (last is not None and c.same_size) else None)[:2]
        opening = g.opening if g.plays_made == 0 and g.opening is not None else None
        acts: list = []
        ents: list = []
        g.play_actions, g.play_entries = acts, ents
        if not enum:
            g.cplay = NO_PLAY
            return acts
        try:
            self._select(g, listing, rev, last, lastv, opening, acts, ents)
        except Exception:                      # the error judging in enumeration order meets first
            self._judge_in_order(g, enum, rev, last, opening)
            raise
        finally:
            g.cplay = NO_PLAY
        if last is not None:                   # as left by judging the candidates in enumeration order
            judged = enum if opening is None else [e for e in enum if self._opens(e, opening)]
            if judged:
                g.streak_now = self._streak(g, judged[-1])
        return acts

    def _opens(self, cand: _Cand, opening: int) -> bool:
        """Whether a candidate includes the card the first play of the deal must include."""
        kind = self.prog.cards.kind
        return any(kind[i] == opening for i in cand.ids)

    def _streak(self, g, cand: _Cand) -> int:
        """``trick.same_rank_streak`` were this candidate played now."""
        return g.streak[1] + 1 if g.streak[0] == cand.shape.rank_key else 1

    def _select(self, g, listing: list, rev: bool, last, lastv: PlayView, opening, acts: list, ents: list) -> None:
        """The candidates that may be played now, in listing order, into ``acts`` and ``ents``."""
        c = self.c
        beats = self._row(g, 0, lastv) if last is not None else None
        names = self._row(g, 1, lastv) if c.names_suit is not None else None
        if opening is None and names is None and beats.__class__ is not bool:     # the usual case, tight
            if beats is None:                  # a lead: every candidate
                acts.extend([e.action for e in listing])
                ents.extend(listing)
                return
            known = beats.get
            for e in listing:
                view = e.views[rev] or self._plain_view(e, rev)
                ok = known(view.proj)
                if ok is None:
                    ok = beats[view.proj] = self._judge(g, c.beats, view)
                    self._n_judged += 1
                if ok:
                    acts.append(e.action)
                    ents.append(e)
            return
        for e in listing:
            if opening is not None and not self._opens(e, opening):
                continue
            view = e.views[rev] or self._plain_view(e, rev)
            if beats is not None:
                if beats.__class__ is dict:
                    ok = beats.get(view.proj)
                    if ok is None:
                        ok = beats[view.proj] = self._judge(g, c.beats, view)
                        self._n_judged += 1
                else:
                    g.streak_now = self._streak(g, e)
                    ok = self._judge(g, c.beats, view)
                if not ok:
                    continue
            if names is None:
                acts.append(e.action)
                ents.append(e)
                continue
            if names.__class__ is dict:
                named = names.get(view.proj)
                if named is None:
                    if last is not None:
                        g.streak_now = self._streak(g, e)
                    named = names[view.proj] = self._judge(g, c.names_suit, view)
                    self._n_judged += 1
            else:
                if last is not None:
                    g.streak_now = self._streak(g, e)
                named = self._judge(g, c.names_suit, view)
            if not named:
                acts.append(e.action)
                ents.append(e)
                continue
            if e.named is None:
                e.named = tuple(e.action._replace(named=self.suit_names[s]) for s in self.suit_sorted)
            acts.extend(e.named)
            ents.extend([e] * len(e.named))

    def _row(self, g, which: int, lastv: PlayView):
        """The memo row of a condition (0: ``beats``, 1: ``names_suit``) for this play to beat and these
        plain values: {play's members read: value}; True when the condition must be judged afresh."""
        getters = self._reads[which]
        if getters is None:
            return True
        if self._n_judged > self.JUDGED_LIMIT:
            self._judged.clear()
            self._n_judged = 0
        key = (which, lastv.proj if lastv is not NO_PLAY else self._no_play_proj,
               tuple([get(g) for get in getters]) if getters else ())
        row = self._judged.get(key)
        if row is None:
            row = self._judged[key] = {}
            self._n_judged += 1
        return row

    def _judge(self, g, fn, view: PlayView) -> bool:
        g.cplay = view
        try:
            return bool(fn(g))
        finally:
            g.cplay = NO_PLAY

    def _judge_in_order(self, g, enum: list, rev: bool, last, opening) -> None:
        """Judge every candidate afresh in the order they were found (no memo), as the listing did before
        it was cached: a condition that fails does so for the same candidate, with the same error."""
        c = self.c
        for e in enum:
            if opening is not None and not self._opens(e, opening):
                continue
            view = self._plain_view(e, rev)
            if last is not None:
                g.streak_now = self._streak(g, e)
                if not self._judge(g, c.beats, view):
                    continue
            if c.names_suit is not None:
                self._judge(g, c.names_suit, view)

    def _table(self, hand, size: Optional[int]) -> tuple:
        """A hand's candidates (of ``size`` cards, or any): classified, without two of one choice, in
        listing order and in the order found.  A pure function of the hand's cards in order and the size.

        The candidates of one size are those of any size that have it, in the same order (each pattern
        enumerates sizes in turn, and no two sizes share a class key), so they are filtered from the
        hand's full table -- unless that one stopped at ``MAX_CANDIDATES``: then they are found afresh."""
        k = tuple(hand)
        full = self._tables.get(k)
        if full is None:
            if len(self._tables) > self.TABLE_LIMIT or self._cells > self.TABLE_CELLS:
                self._tables.clear()
                self._cells = 0
            full = self._tables[k] = self._build(hand, None)
            self._cells += 2 * len(full[1])
        if size is None:
            return full
        table = full[2].get(size)
        if table is None:
            if full[3]:
                table = self._build(hand, size)
            else:
                table = ([e for e in full[0] if e.shape.size == size], [e for e in full[1] if e.shape.size == size])
            full[2][size] = table
            self._cells += 2 * len(table[1])
        return table

    def _build(self, hand, size: Optional[int]) -> tuple:
        """(listing order, order found, {size: its table}, whether the enumeration stopped short)."""
        memo = self._memo
        if len(memo) > self.MEMO_LIMIT:
            memo.clear()
        enum, seen = [], set()
        n = 0
        for ids, decl in self.pats.candidates(hand, self.c.suits_matter, size):
            n += 1
            if n > MAX_CANDIDATES:
                break
            cand = memo.get((ids, decl), False)
            if cand is False:
                cand = memo[(ids, decl)] = self._classify(ids, decl)
            if cand is None or cand.key in seen:
                continue
            seen.add(cand.key)
            enum.append(cand)
        return sorted(enum, key=_ORDER), enum, {}, n > MAX_CANDIDATES     # stable: ties keep the order found

    def _classify(self, ids: tuple, decl: tuple) -> Optional[_Cand]:
        faces = self.pats.faces(ids, decl)
        shape = self.pats.classify(faces)
        if shape is None:
            return None
        cards = self.prog.cards
        text, kind_text = cards.text, cards.kind_text
        words = tuple(text[i] + ("=" + kind_text[d] if d is not None else "") for i, d in zip(ids, decl))
        return _Cand(shape, ids, decl, self._class_key(shape, ids, decl, faces), Action("play", "", words, 0, ""))

    def _play_index(self, g) -> dict:
        """class key + named suit -> listed action, for this position."""
        return {e.key + (a.named,): a for a, e in zip(g.play_actions, g.play_entries)}

    def _class_key(self, shape, ids, decl, faces) -> tuple:
        """What makes two plays the same choice: their ranks (and wild count) when suits never matter,
        else the exact cards and declared identities."""
        if self.c.suits_matter:
            kinds = self.prog.cards.kind
            return (shape.pattern.tier,) + tuple(sorted((kinds[i], -1 if d is None else d) for i, d in zip(ids, decl)))
        return (shape.pattern.tier, shape.wilds) + tuple(sorted(r for r, _, w in faces if not w))

    def _typed(self, g, action: Action):
        """A typed play read against the hand: (shape, ids, decl, class key) or an IllegalAction."""
        cards = self.prog.cards
        hand = list(g.pzones[self.c.play_from][g.actor])
        ids, decl = [], []
        for t in action.cards:
            face, eq, d = t.partition("=")
            kind = cards.parse_kind(face)
            card = next((x for x in hand if cards.kind[x] == kind), None)
            if card is None:
                return IllegalAction("those cards are not in your hand", "cards in hand")
            hand.remove(card)
            ids.append(card)
            decl.append(cards.parse_kind(d) if eq else None)
        faces = self.pats.faces(ids, decl)
        if any(w and r is None for r, _, w in faces) and any(p.kind == "run" for p in self.pats.patterns):
            return IllegalAction("say what each wild card stands for: `play 6S Jk=6C`", "wild cards", self.c.pos)
        shape = self.pats.classify(faces)
        if shape is None:
            kinds = ", ".join(p.name for p in self.pats.patterns)
            return IllegalAction(f"`{action}` is not a play: a play is one of {kinds}", "combination", self.c.pos)
        return shape, ids, decl, self._class_key(shape, ids, decl, faces)

    def equivalent(self, g, action: Action, legal: list) -> Optional[Action]:
        """Another spelling of a listed play: other cards of the same ranks where suits never matter,
        the same cards in another order, a suit named in another case."""
        if action.verb != "play" or not action.cards:
            return None
        named = self._suit_name(action.named)
        typed = self._typed(g, action)
        if isinstance(typed, IllegalAction):
            return None
        return self._play_index(g).get(typed[3] + (named,))

    def _suit_name(self, named: str) -> str:
        if not named:
            return ""
        return next((s for s in self.suit_names if s.upper() == named.upper()), named)

    # ------------------------------------------------------------------ apply
    def apply(self, g, action: Action, chosen: Action) -> None:
        if action.verb == "pass":
            self._pass(g)
        elif action.verb == "draw":
            self._draw(g)
        else:
            self._play(g, action, chosen)

    def _draw(self, g) -> None:
        c = self.c
        stock = g.zones[c.draw_from]
        hand = g.pzones[c.play_from][g.actor]
        g.passes = set()
        if g.owed > 0:                              # the owed cards, then the turn passes
            for _ in range(min(g.owed, len(stock))):
                hand.append(stock.pop())
            g.owed = 0
            self._advance(g, g.actor)
            return
        hand.append(stock.pop())
        g.draws += 1

    def _advance(self, g, seat: int, steps: int = 1) -> None:
        nxt = seat
        for _ in range(steps):
            nxt = self._next_eligible(g, nxt)
        g.turn_begins(nxt)
        g.draws = 0

    def counting(self, g, action: Action, chosen: Action) -> None:
        """A counter judging a play reads it as ``play.*``, and what it goes on as ``last.*``."""
        if action.verb == "draw":                  # the owed cards, or one
            g.event_size = min(g.owed or 1, len(g.zones[self.c.draw_from]))
            return
        if action.verb != "play":
            return
        named = self.suit_names.index(action.named) if action.named else -1
        self._bind_play(g, self._cand(g, action, chosen), named)

    def _bind_play(self, g, cand: _Cand, named: int) -> None:
        """``play.*`` is ``cand`` (naming suit ``named``, or -1) and ``last.*`` the play it goes on, under
        the order in force."""
        rev = self._reversed(g) if self._toggles else False
        g.cplay = (self._plain_view(cand, rev) if named < 0 else
                   self._view_as(cand, cand.shape.rank_pos, cand.shape.rank_key, named, rev))
        g.clast = self._last_view(g, rev)

    def counted(self, g) -> None:
        g.cplay = g.clast = NO_PLAY

    def _cand(self, g, action: Action, chosen: Action) -> _Cand:
        """The candidate play behind a legal action, with the cards the player chose."""
        cand = g.play_entries[g.play_actions.index(action)]      # a listed action (the game resolves others)
        if not (chosen is action or chosen == action):           # the same choice, other cards
            shape, ids, decl, key = self._typed(g, chosen)
            cand = _Cand(shape, tuple(ids), tuple(decl), key, None)
        return cand

    def _play(self, g, action: Action, chosen: Action) -> None:
        c = self.c
        me = g.actor
        hand = g.pzones[c.play_from][me]
        trick = g.zones[c.to]
        cand = self._cand(g, action, chosen)
        shape = cand.shape
        for card in cand.ids:
            hand.remove(card)
            trick.append(card)
        named = self.suit_names.index(action.named) if action.named else -1
        last = g.trick_last
        self._bind_play(g, cand, named)
        key = shape.rank_key
        g.streak = (key, g.streak[1] + 1 if g.streak[0] == key else 1)
        g.streak_now = g.streak[1]
        g.trick_plays += 1
        g.plays_made += 1
        # hooks the parameters fold to false are skipped (evaluating a constant has no effect)
        skip = bool(self._skip(g)) if (self._skip and last is not None) else False
        clears = bool(self._clears(g)) if self._clears else False
        takes = last is not None and last.player >= 0 and self._takes and self._takes(g)
        owed = c.next_draws(g) if c.next_draws is not None else 0
        for t in self._toggles:                               # judged under the order before the play
            if t.when(g):
                if t.sets and g.state[t.name]:
                    continue
                g.state[t.name] = not g.state[t.name]
                if t.reverses_direction(g):
                    g.direction = -g.direction
        goes_last = bool(self._goes_last(g)) if (self._goes_last and not hand) else False
        played = Played(cand, me, named)
        if takes:
            played.rank_pos, played.rank_key = last.rank_pos, last.rank_key
        g.trick_last = played
        if type(owed) is not int or owed < 0:
            raise RuleEvaluationError(f"`next_draws` gives {owed!r}; it must be a whole number, 0 or more",
                                      "climbing.next_draws", c.pos)
        g.owed = g.owed + owed if owed else 0
        g.passes = set()
        if not hand:
            if goes_last:
                g.bottom.insert(0, me)                # the first to go out this way finishes lowest
            else:
                g.finished.append(me)
            self._going_out_hooks(g, me)              # these and `ends_when` read the play just made
        active = self.active(g)
        ends = len(active) <= 1 or (c.ends_when is not None and c.ends_when(g))
        g.cplay = g.clast = NO_PLAY
        if ends:
            self._end_deal(g, active, "out")
            return
        if clears:
            self._end_trick(g, me)
            return
        if c.blocked_ends_hand:
            self._advance(g, me, 2 if skip else 1)
            return
        g.pending = {s for s in active if s != me and s not in g.locked}
        if not g.pending:
            self._end_trick(g, me)
            return
        self._advance(g, me, 2 if skip else 1)

    def _going_out_hooks(self, g, me: int) -> None:
        """``on_going_out``: each hook that holds drops a seat to last at once."""
        for i, h in enumerate(self.c.on_going_out or ()):
            g.actor = me
            if not h.when(g):
                continue
            seat = h.drops_to_last(g)
            if seat is None:
                continue
            if type(seat) is not int or not 0 <= seat < g.n:
                raise RuleEvaluationError(f"`drops_to_last` gives {seat!r}; it must be a seat",
                                          f"climbing.on_going_out[{i}].drops_to_last", self.c.pos)
            if seat in g.finished or seat in g.bottom or not g.pzones[self.c.play_from][seat]:
                continue
            g.bottom.append(seat)                     # last: below every seat already at the bottom
            g.pending.discard(seat)
        g.actor = me

    def _pass(self, g) -> None:
        me = g.actor
        c = self.c
        g.passes.add(me)
        if g.trick_last is None:                      # a lead no play fits: the next player leads
            if set(self.active(g)) <= g.passes:
                self._end_deal(g, self.active(g), "blocked")
                return
            self._advance(g, me)
            return
        if c.blocked_ends_hand:
            if set(self.active(g)) <= g.passes:
                self._end_deal(g, self.active(g), "blocked")
                return
            self._advance(g, me)
            return
        g.pending.discard(me)
        if c.pass_locks_out(g):
            g.locked.add(me)
        if not g.pending:
            last = g.trick_last.player
            self._end_trick(g, last if last >= 0 else me)
            return
        self._advance(g, me)

    def _end_trick(self, g, last_player: int) -> None:
        c = self.c
        trick = g.zones[c.to]
        g.zones[c.cleared_to].extend(trick)
        while trick:
            trick.pop()
        g.trick_last = None
        g.pending = set()
        g.locked = set()
        g.passes = set()
        g.streak = (None, 0)
        g.trick_plays = 0
        g.begins("trick")
        for t in c.toggles:
            if t.resets_each_trick is not None and g.state[t.name] and t.resets_each_trick(g):
                g.state[t.name] = False
                if t.reverses_direction(g):
                    g.direction = -g.direction
        hands = g.pzones[c.play_from]
        ok = hands[last_player] and last_player not in g.bottom and last_player not in g.finished
        g.turn_begins(last_player if ok else self._next_eligible(g, last_player))
        g.draws = 0

    def _end_deal(self, g, active: list[int], ending: str) -> None:
        order = g.finished + active + list(g.bottom)
        g.final_order = order
        g.previous_order = list(order)
        g.ending = ending
        roles = self.prog.roles_for(g.n)
        g.finish_hand(order=list(order), roles=[roles[i][0] for i in range(len(order))] if roles else [])

    # ------------------------------------------------------------------ explain and view
    def explain(self, g, action: Action, legal: list) -> Optional[IllegalAction]:
        c = self.c
        if action.verb == "pass":
            if g.trick_last is None:
                return IllegalAction("the leader of a trick must play; a lead cannot be passed", "climbing lead",
                                     c.pos)
            if g.owed > 0:
                return IllegalAction(f"you owe {g.owed} card(s): answer the play or `draw` them", "next_draws", c.pos)
            trace = self.why_not(g, "climbing.pass_when")
            return IllegalAction("you may not pass now" + ("" if trace else ": `climbing.pass_when` does not hold"),
                                 "climbing.pass_when", c.pos, trace)
        if action.verb == "draw":
            trace = self.why_not(g, "climbing.draw_when") if c.draw_from is not None and g.zones[c.draw_from] \
                else None
            return IllegalAction("you may not draw now", "climbing.draw_when", c.pos, trace)
        if action.verb != "play":
            return IllegalAction(f"`{action.verb}` is not a move here: `play CARDS`, `draw` or `pass`", "climbing")
        typed = self._typed(g, action)
        if isinstance(typed, IllegalAction):
            return typed
        shape, ids, decl, key = typed
        if g.plays_made == 0 and g.opening is not None and not any(self.prog.cards.kind[i] == g.opening for i in ids):
            return IllegalAction(f"the first play must include {self.prog.cards.kind_text[g.opening]}",
                                 "opening_play_includes", c.pos)
        if any(k[:-1] == key for k in self._play_index(g)):      # the same play with a named suit
            named = self._suit_name(action.named)
            if named and named not in self.suit_names:
                return IllegalAction(f"`{action.named}` is not a suit: " + ", ".join(self.suit_names), "names_suit")
            return IllegalAction("this play names a suit: add `name SUIT`, as in `play 8H name S`" if not named
                                 else "this play does not name a suit", "names_suit", c.pos)
        last = g.trick_last
        if last is not None:
            shown = " ".join(self.prog.cards.texts(g.zones[c.to][-last.size:]))
            trace = self._beats_trace(g, action, shape, ids, decl, key)
            if trace is None or trace.holds:
                return IllegalAction(f"`{action}` does not beat the last play ({shown}): "
                                     f"`{excerpt(' '.join(c.beats_text.split()), 160)}`", "beats", c.beats_pos)
            return IllegalAction(f"`{action}` does not beat the last play ({shown})", "beats", c.beats_pos, trace)
        return None

    def _beats_trace(self, g, action: Action, shape, ids, decl, key):
        """``beats`` traced for this play against the last one, judged as the listing judges it (under
        the order in force, with the streak it would make); the game is left as it was."""
        expr = self.prog.rule_exprs.get("climbing.beats")
        if expr is None:
            return None
        rev = self._reversed(g) if self._toggles else False
        cand = _Cand(shape, tuple(ids), tuple(decl), key, None)
        named = self.suit_names.index(self._suit_name(action.named)) \
            if action.named and self._suit_name(action.named) in self.suit_names else -1
        saved = g.cplay, g.clast, g.streak_now
        g.clast = self._last_view(g, rev)
        g.cplay = self._plain_view(cand, rev) if named < 0 else \
            self._view_as(cand, shape.rank_pos, shape.rank_key, named, rev)
        g.streak_now = self._streak(g, cand)
        try:
            return self.prog.tracer().trace(expr, g, "climbing.beats", expr.pos, seat=g.actor)
        finally:
            g.cplay, g.clast, g.streak_now = saved

    def view(self, g, seat: int, out: dict) -> None:
        if g.phase != "climb" and not getattr(g, "finished", None):
            return
        text = self.prog.cards.text
        last = g.trick_last
        out["trick"] = {
            "last_play": [text[c] for c in g.zones[self.c.to][-last.size:]] if last else [],
            "last_player": last.player if last and last.player >= 0 else None,
            "to_beat_rank": self.names.get(last.rank_key) if last else None,
            "kind": last.shape.pattern.name if last else None,
            "named_suit": self.suit_names[last.named] if last and last.named >= 0 else None,
            "passed": sorted(set(self.active(g)) - g.pending - {last.player} if last and not self.c.blocked_ends_hand
                             else g.passes),
            "locked_out": sorted(g.locked),
        }
        if self.c.draw_from is not None or self.c.next_draws is not None:
            out["trick"]["draws_owed"] = g.owed
            out["trick"]["drawn_this_turn"] = g.draws
        out["play_choices"] = ("every distinct play is listed" if self.c.suits_matter else
                               "one play per choice of ranks is listed; other cards of the same ranks "
                               "may be named instead")
        out["finished"] = list(g.finished)
        out["state"] = dict(g.state)
        roles = self.prog.roles_for(g.n)
        if roles and g.previous_order:
            out["roles"] = {s: roles[i][0] for i, s in enumerate(g.previous_order)}
