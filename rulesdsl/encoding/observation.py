"""A fixed-shape observation tensor of what one seat may see, derived from the ruleset.

Everything is read from ``game.view(seat)``: the view is the one place that decides what a seat may
see (``engine.visibility``), so the tensor cannot hold a card the seat may not see.  Seats and teams
are *relative to the observer* (the first row is the observer's own, then the next seat in turn
order), so one policy can play any seat.

Pieces, in order (``ObservationSpec.pieces`` lists them with their shapes; K is the number of card
kinds, so duplicate decks count copies):

* ``table.Z`` (K,): per kind, the cards of table zone Z the seat sees; ``table.Z.top`` (K,): its top
  card when the zone shows only its top; ``table.Z.count`` (1,): how many cards it holds;
* ``seat.Z`` (n, K) and ``seat.Z.count`` (n,): each seat's zone Z, where the seat may see it;
* ``team.Z`` (teams, K) and ``team.Z.count`` (teams,): the same for team zones;
* ``melds`` (M, K) and ``melds.owner`` (M, sides): the melds on the table by number (M is the most
  the table can hold), with wild cards counted as the cards they are;
* each mechanic's own pieces (``rulesdsl.mechanics``: ``Mechanic.observation``), where the ruleset has
  its section, described in their modules: ``trick.last``, ``trick.passed``, ``finished``, ``toggles``
  for climbing, ``tricks.*`` for trick play, ``bids.*`` for bidding;
* ``scores`` and ``hands_won`` (sides,), ``hand_number`` (1,), ``current_player`` and ``dealer`` (n,),
  ``phase`` (one-hot over the engine's phases) and ``step`` (one-hot over the turn's steps);
* ``selection`` (K,) and ``selection.melds`` (1,): the cards chosen so far towards a factored action.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, Optional

from ..mechanics.registry import mechanics, on_change, present

if TYPE_CHECKING:                    # numpy is needed to fill tensors, not to describe them
    import numpy as np

#: the engine's phases, as ``view()["phase"]`` names them; anything else sets the last slot
CORE_PHASES = ("offer", "turn", "layoff", "last_chance", "claim")


@lru_cache(maxsize=None)
def phase_slots() -> tuple:
    """The phases the one-hot ``phase`` names: the core's, those mechanics give a slot of their own
    (``Mechanic.observed_phases``), then ``over`` and ``other`` (every other phase)."""
    return CORE_PHASES + tuple(p for m in mechanics() for p in m.observed_phases) + ("over", "other")


on_change(phase_slots.cache_clear)


class ObservationSpec(NamedTuple):
    """The tensor layout for one ruleset at one player count."""

    pieces: tuple              # (name, shape) in order
    size: int
    n: int
    sides: int                 # scoring sides: teams, or seats
    teams: int
    kind_of: dict              # card text (plain) -> kind index
    steps: tuple
    meld_bound: int
    suits: tuple = ()          # the deck's suits (a trick's led suit and trumps)
    mechanics: tuple = ()      # (mechanic, what its `observe` needs), for each that adds pieces
    bounds: dict = {}          # piece name -> (lowest, highest) value any of its elements takes

    def low_high(self) -> tuple:
        """Two flat lists, the lowest and highest value of each element of the tensor."""
        low, high = [], []
        for name, shape in self.pieces:
            lo, hi = self.bounds.get(name, (-INF, INF))
            low += [lo] * _size(shape)
            high += [hi] * _size(shape)
        return low, high

    def new_tensor(self) -> "np.ndarray":
        import numpy as np
        return np.zeros(self.size, np.float32)

    def offsets(self) -> list:
        """(name, shape, first index, size) of each piece, in the flat tensor's order."""
        out, at = [], 0
        for name, shape in self.pieces:
            size = _size(shape)
            out.append((name, shape, at, size))
            at += size
        return out

    def views(self, tensor: "np.ndarray") -> dict:
        """Named, reshaped views into ``tensor`` (writing into one writes the tensor).  Make them once
        per tensor and pass them to ``fill``."""
        return {name: tensor[at:at + size].reshape(shape) for name, shape, at, size in self.offsets()}


def build_observation_spec(prog, meld_bound: int) -> ObservationSpec:
    """The layout of ``prog``'s observations (``meld_bound`` from the action numbering): the pieces of
    each part of a game the ruleset has, each with the bounds its values keep."""
    cards = prog.cards
    steps = tuple(s.name for s in prog.steps)
    layout = _Layout(cards.n_kinds, prog.n, prog.teams or 0, cards.size)
    layout.zones(prog)
    if meld_bound:
        layout.melds(meld_bound)
    mechanics = []
    for mech, _section in present(prog.model):
        data = mech.observation(prog, layout)
        if data is not None:
            mechanics.append((mech, data))
    layout.game(steps)
    kind_of = {t: i for i, t in enumerate(cards.kind_text)}
    return ObservationSpec(tuple(layout.pieces), layout.size, prog.n, layout.sides, layout.teams, kind_of,
                           steps, meld_bound, tuple(cards.suits), tuple(mechanics), layout.bounds)


INF = float("inf")


class _Layout:
    """The pieces of an observation as they are added, with their bounds: card counts from 0 to the
    deck's size, flags 0 or 1, scores any number."""

    def __init__(self, k: int, n: int, teams: int, deck: int):
        self.k, self.n, self.teams, self.deck = k, n, teams, deck
        self.sides = teams or n
        self.pieces: list = []
        self.bounds: dict = {}
        self.size = 0

    def add(self, name: str, shape: tuple, low: float, high: float) -> None:
        self.pieces.append((name, shape))
        self.bounds[name] = (low, high)
        self.size += _size(shape)

    def cards(self, name: str, shape: tuple) -> None:
        self.add(name, shape, 0.0, float(self.deck))

    def flags(self, name: str, shape: tuple) -> None:
        self.add(name, shape, 0.0, 1.0)

    def zones(self, prog) -> None:
        k, n = self.k, self.n
        for z in prog.table_zones:
            self.cards(f"table.{z}", (k,))
            self.cards(f"table.{z}.top", (k,))
            self.cards(f"table.{z}.count", (1,))
        for z in prog.player_zones:
            self.cards(f"seat.{z}", (n, k))
            self.cards(f"seat.{z}.count", (n,))
        for z in prog.team_zones or ():
            self.cards(f"team.{z}", (max(self.teams, 1), k))
            self.cards(f"team.{z}.count", (max(self.teams, 1),))

    def melds(self, bound: int) -> None:
        self.cards("melds", (bound, self.k))
        self.flags("melds.owner", (bound, self.sides))

    def game(self, steps: tuple) -> None:
        n = self.n
        self.add("scores", (self.sides,), -INF, INF)
        self.add("hands_won", (self.sides,), 0.0, INF)
        self.add("hand_number", (1,), 0.0, INF)
        for name, width in (("current_player", n), ("dealer", n), ("phase", len(phase_slots())),
                            ("step", len(steps) + 1)):
            self.flags(name, (width,))
        self.cards("selection", (self.k,))
        self.cards("selection.melds", (1,))


def _size(shape: tuple) -> int:
    size = 1
    for d in shape:
        size *= d
    return size


def fill(spec: ObservationSpec, tensor: "np.ndarray", view: dict, selection: list,
         views: Optional[dict] = None) -> None:
    """Write the observation of ``view`` (``game.view(seat)``) and the seat's ``selection`` (card texts,
    ``/`` between melds) into ``tensor`` (``views``: ``spec.views(tensor)``, made once by the caller)."""
    tensor.fill(0)
    v = spec.views(tensor) if views is None else views
    seat = view["seat"]
    n = spec.n
    _fill_zones(spec, v, view, seat)
    _fill_melds(spec, v, view, seat)
    for mech, data in spec.mechanics:
        mech.observe(data, spec, v, view, seat, _count)
    sides = spec.sides
    for i, (score, won) in enumerate(zip(view["scores"], view["hands_won"])):
        r = (i - seat) % sides                  # side i's row (SIDES below)
        v["scores"][r] = score
        v["hands_won"][r] = won
    v["hand_number"][0] = view["hand_number"]
    if view["current_player"] is not None:
        v["current_player"][(view["current_player"] - seat) % n] = 1
    v["dealer"][(view["dealer"] - seat) % n] = 1
    phase = view["phase"]
    phases = phase_slots()
    v["phase"][phases.index(phase) if phase in phases else len(phases) - 1] = 1
    step = view["step"]
    v["step"][spec.steps.index(step) if step in spec.steps else len(spec.steps)] = 1
    _count(spec, v["selection"], [c for c in selection if c != "/"])
    v["selection.melds"][0] = selection.count("/")


def _count(spec: ObservationSpec, row: "np.ndarray", texts) -> None:
    """Add one per card text (a declared wild counts as the card it is) to ``row``."""
    kind_of = spec.kind_of
    for text in texts:
        k = kind_of.get(text.partition("=")[0])
        if k is not None:
            row[k] += 1


def _fill_zones(spec: ObservationSpec, v: dict, view: dict, seat: int) -> None:
    n = spec.n
    for z, entry in view["zones"].items():
        if isinstance(entry, list):
            rows, counts = v.get(f"seat.{z}"), v.get(f"seat.{z}.count")
            if rows is None:
                continue
            for s, e in enumerate(entry):
                r = (s - seat) % n
                counts[r] = e["count"]
                _count(spec, rows[r], e.get("cards", ()))
            continue
        row = v.get(f"table.{z}")
        if row is None:
            continue
        v[f"table.{z}.count"][0] = entry["count"]
        _count(spec, row, entry.get("cards", ()))
        if "top" in entry:
            _count(spec, v[f"table.{z}.top"], (entry["top"],))
    for z, per in view.get("team_zones", {}).items():      # the spec gives every team zone its rows
        rows, counts = v[f"team.{z}"], v[f"team.{z}.count"]
        for t, e in enumerate(per):
            r = (t - seat) % len(per)           # (SIDES below)
            counts[r] = e["count"]
            _count(spec, rows[r], e.get("cards", ()))


def _fill_melds(spec: ObservationSpec, v: dict, view: dict, seat: int) -> None:
    if not spec.meld_bound:
        return
    rows, owners = v["melds"], v["melds.owner"]
    for i, meld in enumerate(view["melds"][:spec.meld_bound]):
        _count(spec, rows[i], meld["cards"])
        owner = meld.get("owner")
        if isinstance(owner, int) and 0 <= owner < spec.sides:
            owners[i][(owner - seat) % spec.sides] = 1


# SIDES: a side's row is (side - observer's seat) % sides, so row 0 is the observer's own side.  With teams,
# seat s plays for team s % teams, so the seat gives the same rows as its team would.


def text(view: dict, selection: list) -> str:
    """The observation as text: the view without the legal list (which a library lists itself), with
    the selection so far; stable key order, so equal positions give equal strings."""
    import json
    shown = {k: val for k, val in view.items() if k != "legal_actions"}
    if selection:
        shown["selection"] = selection
    return json.dumps(shown, sort_keys=True, separators=(",", ":"))
