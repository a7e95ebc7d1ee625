"""Checks written for mutants that no other test noticed: each test checks documented behaviour
(docs/language.md, docs/api.md, docs/play.md) on a small ruleset or a bundled game, and its docstring
names the code mistake it catches."""

from __future__ import annotations

import textwrap

import pytest

import rulesdsl
from rulesdsl.compile.names import builtin_docs

from conformance.play import game, legal, refusal, rules

# A tiny draw-and-discard game: eight cards (A..4 in two suits), two players.
MINI = """
name: mini
players: 2
deck: {{ranks: [A, 2, 3, 4], suits: [S, H]}}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  aside: {{visible: all}}
  hand: {{per: player, visible: owner}}
{zones}
deal:
{deal}
turn:
  - step: draw
    actions:
      - draw: stock
  - step: finish
    actions:
      - discard: discard
stock_out: {{when: count(discard) >= 2, result: score}}
scoring:
  each_player: {score}
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""


def mini(deal: str = "- {deal: 2, to: hand}", score: str = "0", zones: str = "") -> str:
    return MINI.format(deal=textwrap.indent(textwrap.dedent(deal).strip("\n"), "  "), score=score,
                       zones=zones)


# ------------------------------------------------------------------ mutant 1: set-aside cards in the deal check

def test_set_aside_cards_count_toward_the_deal_fitting_in_the_deck():
    """docs/language.md, `deal`: the deal must fit in the deck (`E-DEAL-TOO-MANY`), and `set_aside:` takes its
    cards out of the deck before anything is dealt.  Two cards set aside plus 4 + 4 dealt is 10 cards of 8:
    refused, naming 10.  (Without the set-aside the deal of 8 fits; with 3 + 3 it fits beside the two.)

    Catches `need += len(aside)` turned into `need -= len(aside)` in `check.semantic._deal`: the set-aside
    cards would then make room instead of taking it, and the ruleset would load."""
    aside = "- {set_aside: '[\"AS\", \"2S\"]', to: aside}\n"
    out = refusal(mini(aside + "- {deal: 4, to: hand}"))
    assert "error[E-DEAL-TOO-MANY]" in out
    assert "needs 10 cards, but the deck holds 8" in out
    rules(mini("- {deal: 4, to: hand}"))                         # the same deal without the set-aside fits
    g = game(mini(aside + "- {deal: 3, to: hand}"), deck=["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H"],
             dealer=0)
    assert g.view(0)["zones"]["aside"] == {"count": 2, "cards": ["AS", "2S"]}
    assert sorted(g.hand_of(0) + g.hand_of(1)) == sorted(["3S", "4S", "AH", "2H", "3H", "4H"])


# ------------------------------------------------------------------ mutants 2 and 3: builtin arity

def test_a_fixed_arity_builtin_message_names_its_one_count():
    """docs/language.md: a call with the wrong number of arguments is `E-ARITY`; for a builtin that takes
    exactly one (or two) arguments the message says so: "`value` takes 1 argument(s), got 2", never
    "1 to 1".

    Catches `want = str(lo) if lo == hi else ...` turned into `lo != hi` in `expr.compiler._call`, which
    words a fixed arity as a range ("1 to 1")."""
    for call, want in (("value(card, 2)", "`value` takes 1 argument(s), got 2"),
                       ("rank()", "`rank` takes 1 argument(s), got 0"),
                       ("seat_after(player)", "`seat_after` takes 2 argument(s), got 1")):
        out = refusal(mini(score=call))
        assert "error[E-ARITY]" in out and want in out, (call, out)
        assert " to " not in out.split("error[E-ARITY]")[1].splitlines()[0], out


# The arity of every builtin as docs/language.md ("Builtins", and the partnership and card-class names)
# writes its heading: each takes exactly this many arguments.
DOCUMENTED_ARITY = {
    "value": 1, "rank": 1, "suit": 1, "deadwood": 1, "next_seat": 1, "score": 1, "hands_won": 1,
    "opponents": 1, "abs": 1, "is_joker": 1, "is_wild": 1, "playable": 1, "fits_own": 1, "meld_size": 2,
    "melded": 1, "held": 1, "holder": 1, "position": 1, "role": 1, "role_points": 1, "seat_after": 2,
    "team_of": 1, "partner": 1, "members": 1, "in_reserve": 1, "reserve_turns": 1, "answer": 1,
    "team_books": 2, "melded_value": 1, "team_melded": 1, "held_cards": 1, "top": 1, "color": 1,
    "marked": 2, "marks_by": 2, "tricks": 1, "card_suit": 1, "trick_rank": 1,
}


#: builtins a `climbing:` section gives (they read its finishing order): tried in a climbing game
CLIMBING_ONLY = ("position", "role", "role_points")
TRICKS_ONLY = ("tricks", "card_suit", "trick_rank")


def _arity_ruleset(name: str, call: str) -> str:
    """A ruleset that calls ``call`` in a score: the mechanic's own game where the builtin needs one."""
    if name in CLIMBING_ONLY:
        return f"extends: president\nscoring:\n  each_player: '{call}'\n"
    if name in TRICKS_ONLY:
        return f"extends: hearts\nscoring:\n  each_player: 'count([{call}])'\n"
    return mini(score=call)


@pytest.mark.parametrize("name", sorted(DOCUMENTED_ARITY))
def test_every_builtin_takes_exactly_its_documented_number_of_arguments(name):
    """docs/language.md: each builtin takes the arguments its heading names (`in_reserve(seat)`,
    `seat_after(seat, k)`, ...); one argument more, or one fewer, is refused at load with `E-ARITY`
    ("takes k argument(s), got k+1"), and `builtin_docs()` (what tools show) gives that same arity.

    Catches any builtin's arity widened or narrowed in `compile.names.builtins`, e.g. `in_reserve`'s
    `(1, 1)` turned into `(1, 2)` (then `in_reserve(player, 1)` would load)."""
    k = DOCUMENTED_ARITY[name]
    assert builtin_docs()[name][1] == (k, k)
    for n in (k + 1, k - 1):
        call = f"{name}({', '.join(['player'] * n)})"
        out = refusal(_arity_ruleset(name, call))
        assert f"error[E-ARITY]: `{name}` takes {k} argument(s), got {n}" in out, (call, out)


def test_in_reserve_with_a_second_argument_is_refused_in_a_game_with_a_reserve():
    """docs/language.md, partnerships: `in_reserve(seat)` tells whether a seat has picked up its reserve
    packet.  In a ruleset with a reserve zone (`reserve_for: hand`) `in_reserve(player)` loads, and
    `in_reserve(player, 1)` is refused with `E-ARITY`.

    Catches `in_reserve`'s arity `(1, 1)` turned into `(1, 2)` in `compile.names.builtins`."""
    zones = "  foot: {per: player, visible: none, reserve_for: hand}"
    deal = "- {deal: 2, to: hand}\n- {deal: 1, to: foot}"
    rules(mini(deal, score="if in_reserve(player) then 1 else 0", zones=zones))
    out = refusal(mini(deal, score="if in_reserve(player, 1) then 1 else 0", zones=zones))
    assert "error[E-ARITY]: `in_reserve` takes 1 argument(s), got 2" in out


# ------------------------------------------------------------------ mutant 4: the named suit on the terminal table

def test_the_terminal_table_shows_the_suit_an_eight_named():
    """docs/play.md, "The screen": the trick is shown, and anything else the view tells.  After
    `play 8H name S` in Crazy Eights the view's trick holds `named_suit: S`, and the next seat's screen
    says "named suit S" on the trick's lines (the suit in force, which 8H alone does not show).

    Catches the deletion of `if trick.get("named_suit"): details.append(...)` in `table.terminal._trick`
    (the generic listing of other trick keys leaves `named_suit` out, so it would not be shown at all)."""
    pytest.importorskip("rich")
    from rulesdsl.table.terminal import CardStyle, seat_screen, to_text

    from crazy_eights_helpers import A, B, new_game

    g = new_game({A: ["8H", "KS", "2C", "9C", "3C", "4C", "JC"], B: ["6H", "7H", "9H", "KH", "2S", "3S", "QD"]},
                 n=2, after=["5D"])
    g.apply("play 8H name S")
    view = g.view(B)
    assert view["trick"]["named_suit"] == "S"
    text = to_text(seat_screen(view, CardStyle.of(g), lambda s: f"seat {s + 1}", "crazy eights"))
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Trick:"))
    assert "8H" in lines[start]
    assert any("named suit S" in line for line in lines[start:start + 3]), text


# ------------------------------------------------------------------ mutant 6: a named go-out layout without an arranger

GO_OUT = """
name: go out, no meld types
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 5, to: hand}, {turn_up: discard}]
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: finish
    actions: [{discard: discard}, {go_out: knock}]
go_out:
  knock: {when: true, discard: face_down}
stock_out: {when: count(stock) == 0, result: score}
scoring:
  outcomes:
    - {scorer: declarer, points: held(declarer)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


def test_a_named_go_out_layout_is_refused_not_a_crash_where_cards_repeat():
    """docs/language.md, `go_out`: a player may name a least-deadwood layout (`knock KC with 7S 7D 7C`);
    docs/api.md: an action that is not legal is refused with `IllegalAction`, the state unchanged.  With
    no meld types (so there is no meld search; a deck with a joker, which once stood for this, is now
    refused at load) a knock naming melds is refused cleanly ("the melds named must be melds of your
    hand ..."), and the plain knock still plays.

    Catches the deletion of `if melds.arranger is None or not action.melds: return None` in
    `engine.phases.going_out.named_layout`: the named melds would then be checked with an arranger that
    does not exist (an AttributeError instead of a refusal)."""
    g = game(GO_OUT, seed=1)
    g.apply("draw stock")
    seat = g.current_player
    hand = sorted(g.hand_of(seat))
    before = g.view(seat)
    knock = f"knock {hand[0]}"
    assert knock in legal(g)
    named = f"{knock} with {hand[1]} {hand[2]} {hand[3]}"
    r = g.refusal(named)
    assert isinstance(r, rulesdsl.IllegalAction) and "melds named" in str(r)
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply(named)
    assert g.view(seat) == before
    g.apply(knock)
    assert g.history[-1] == knock


@pytest.mark.parametrize("key", ["bury_while", "cover_while"])
def test_a_turn_up_condition_on_a_deal_of_cards_to_seats_is_refused(key):
    """docs/language.md, `deal`: `bury_while` and `cover_while` say what happens to a card turned up
    (`turn_up: ZONE`); on a step that deals cards to the seats (`deal: COUNT`) nothing is turned up, so the
    key would do nothing: refused with `E-DEAL`, naming the key.  On a `turn_up` step the same key loads.

    Catches either check in `check.semantic._deal` dropped (seed 22: `bury_while`'s, replaced by `pass`)."""
    out = refusal(mini(f"- {{deal: 2, to: hand, {key}: 'rank(card) == \"A\"'}}"))
    assert f"error[E-DEAL]: `{key}` goes with `turn_up`" in out, out
    rules(mini(f"- {{deal: 2, to: hand}}\n- {{turn_up: discard, {key}: 'rank(card) == \"A\"'}}"))
