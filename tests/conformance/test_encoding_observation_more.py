"""Conformance: the observation tensor of docs/encoding.md, "The observation tensor": "Seats and teams
are relative to the observer: row 0 is its own, then the next seat in turn."  Checked on a three-seat game,
where "the next seat" and "the seat before" differ."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import dealt, rules
from rulesdsl.encoding.observation import fill
from rulesdsl.encoding.setup import encode

RANKS = "A 2 3 4 5 6 7 8".split()
THREE_SEATS = """
name: three seat melds
players: 3
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C]}
melds:
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 4, to: hand}, {turn_up: discard}]
table: {owner: player}
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: play
    repeat: true
    actions: [{meld: any}, {discard: discard}]
stock_out: {when: count(stock) == 0, result: score}
scoring: {each_player: melded(player) - held(player)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


@documents("table.owner")
def test_a_melds_owner_is_numbered_from_the_observer_then_the_next_seat_in_turn():
    """Seat 1 (first to play, dealer 0) melds three 5s.  In `melds.owner`, the meld's row is 0 for seat 1
    itself; for seat 2, whose next seats in turn are 0 then 1, it is 2; for seat 0 (next: 1) it is 1.
    Catches encoding/observation.py `_fill_melds` counting the other way round (`owner - side` -> `owner +
    side`): for seat 2 the owner would be row 0, its own."""
    deck = [r + s for s in "SHDC" for r in RANKS]
    hands = {1: ["5S", "5H", "5D", "AS"], 2: ["2S", "3H", "7D", "8C"], 0: ["2H", "4S", "6D", "8S"]}
    r = rules(THREE_SEATS)
    g = r.new_game(seed=0, dealer=0, deck=dealt(hands, deck, then=["AC", "7S"]))
    g.apply("draw stock")
    g.apply("meld 5S 5H 5D")
    owners = pieces(r, g, "melds.owner")
    assert all(owner.shape[1] == 3 and owner[1:].sum() == 0 for owner in owners.values())   # one meld
    assert {seat: [int(x) for x in owner[0]] for seat, owner in owners.items()} == {1: [1, 0, 0], 2: [0, 0, 1],
                                                                                   0: [0, 1, 0]}


def pieces(r, g, name: str) -> dict:
    """The observation piece ``name`` as each seat's tensor holds it."""
    enc = encode(r)
    out = {}
    for seat in range(g.n):
        tensor = enc.observation.new_tensor()
        fill(enc.observation, tensor, g.view(seat), [])
        out[seat] = enc.observation.views(tensor)[name]
    return out


THREE_TEAMS = """
name: three teams
players: 6
teams: {count: 3}
deck: {ranks: [2, 3, 4, 5], suits: [S, H, D]}
zones:
  stock: {visible: none}
  hand: {per: player, visible: owner}
  trick: {visible: all}
  pile: {per: team, visible: all}
deal: [{deal: 2, to: hand}]
tricks: {first_leader: next_seat(dealer), won_to: pile}
scoring: {each_team: 0}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


@documents("teams", "tricks.won_to")
def test_team_rows_are_numbered_from_the_observers_side_then_the_next_side_in_turn():
    """With three sides (seat s on side s % 3), a trick taken by seat 2 lies in side 2's pile: row 0 of
    `team.pile` for seats 2 and 5 (their own side), row 1 for side 1 (seats 1 and 4: side 2 is next in
    turn), row 2 for side 0.  Two sides cannot tell "next" from "before"; three can (kills counting the
    other way round)."""
    deck = [r + s for s in "SHD" for r in "2345"]
    hands = {1: ["2S", "2H"], 2: ["5S", "3H"], 3: ["3S", "4H"], 4: ["4S", "5H"], 5: ["2D", "3D"],
             0: ["4D", "5D"]}
    r = rules(THREE_TEAMS)
    g = r.new_game(seed=0, dealer=0, deck=dealt(hands, deck))
    for card in ("2S", "5S", "3S", "4S", "2D", "4D"):             # seats 1..5, 0: seat 2's 5S takes
        g.apply(f"play {card}")
    assert sorted(g.view(0)["team_zones"]["pile"][2]["cards"]) == ["2D", "2S", "3S", "4D", "4S", "5S"]
    rows = {seat: [int(x) for x in counts] for seat, counts in pieces(r, g, "team.pile.count").items()}
    assert rows == {2: [6, 0, 0], 5: [6, 0, 0], 1: [0, 6, 0], 4: [0, 6, 0], 0: [0, 0, 6], 3: [0, 0, 6]}


@documents("climbing")
def test_the_climbing_pieces_count_seats_from_the_observer():
    """`trick.last`, `trick.last_player`, `trick.passed` and `finished`: seat 0 goes out on a pair of 3s,
    seat 1 passes; each seat's rows start at itself (seat 0 is row 2 for seat 1, row 1 for seat 2)."""
    from conformance.test_climbing_tricks import DECK3, PLAIN, stack, text

    r = rules(text(PLAIN, players=3, suits="S, H, C", per=2))
    g = r.new_game(seed=0, dealer=0, deck=stack({0: ["3S", "3H"], 1: ["4S", "6S"], 2: ["5S", "6H"]}, DECK3))
    g.apply("play 3S 3H")
    g.apply("pass")
    assert g.current_player == 2
    ints = lambda name: {s: [int(x) for x in a] for s, a in pieces(r, g, name).items()}
    assert ints("finished") == {0: [1, 0, 0], 1: [0, 0, 1], 2: [0, 1, 0]}
    assert ints("trick.last_player") == ints("finished")
    assert ints("trick.passed") == {0: [0, 1, 0], 1: [1, 0, 0], 2: [0, 0, 1]}
    assert all(sum(a) == 2 for a in ints("trick.last").values())       # the pair, to every seat


def _phase_slot(r, g) -> str:
    """The phase the observer's one-hot `phase` piece names (the same for every seat)."""
    from rulesdsl.encoding.observation import phase_slots
    slots = {tuple(v.tolist()) for v in pieces(r, g, "phase").values()}
    (one,) = slots
    assert sum(one) == 1
    return phase_slots()[one.index(1)]


def test_the_phase_one_hot_names_the_core_and_mechanic_phases_and_other_for_the_rest():
    """docs/encoding.md: `phase` is one-hot over `phase_slots()` -- the core phases, those a mechanic
    observes (climbing's `climb`, exchange's `exchange`), then `over`, then `other` for every other
    phase.  A rummy turn is `turn`; trick play (which has no slot of its own) is `other`, not `over`.
    Catches encoding/observation.py putting an unlisted phase in the slot before the last."""
    from conformance.test_tricks_play import ruleset, stacked
    deck = [r + s for s in "SHDC" for r in RANKS]
    r = rules(THREE_SEATS)
    g = r.new_game(seed=0, dealer=0, deck=dealt({1: ["5S", "5H", "5D", "AS"], 2: ["2S", "3H", "7D", "8C"],
                                                 0: ["2H", "4S", "6D", "8S"]}, deck, then=["AC", "7S"]))
    assert _phase_slot(r, g) == "turn"
    t = rules(ruleset())
    g = t.new_game(seed=0, dealer=0, deck=stacked({1: ["4S", "2H", "4D"], 2: ["3S", "5H", "3D"],
                                                   0: ["2S", "4H", "5D"]}))
    assert g.phase == "tricks" and _phase_slot(t, g) == "other"
    for card in ["4S", "3S", "2S", "2H", "5H", "4H", "3D", "5D", "4D"]:
        g.apply(f"play {card}")
    assert g.is_over and _phase_slot(t, g) == "over"


@documents("api:view")
def test_the_dealer_and_the_seat_on_turn_are_rows_counted_from_the_observer():
    """docs/encoding.md: `dealer` and `current_player` are one-hot rows counted from the observing seat
    (its own row first, then the next seat in turn).  Four players, seat 1 dealing: to seat 0 the dealer is
    row 1, to seat 3 row 2.  Catches a row counted the other way round (`dealer - seat` -> `dealer +
    seat`), which two players cannot show."""
    import rulesdsl

    r = rulesdsl.load("hearts")
    g = r.new_game(seed=3, dealer=1)
    rows = {s: [int(x) for x in a] for s, a in pieces(r, g, "dealer").items()}
    assert rows == {s: [1 if k == (1 - s) % 4 else 0 for k in range(4)] for s in range(4)}
    on_turn = g.current_player
    turn = {s: [int(x) for x in a] for s, a in pieces(r, g, "current_player").items()}
    assert all(turn[s][(on_turn - s) % 4] == 1 and sum(turn[s]) == 1 for s in range(4))
