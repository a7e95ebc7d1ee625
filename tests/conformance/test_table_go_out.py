"""Going out by declaration (docs/language.md, `go_out`, and the `go_out: NAME` action): a knock judged on
the hand after its discard, its own discard (face down, face up, none), the opponents' layoff window, a
drop shown as it is, and the rule label of a refusal.  A gin-like game on A..8, five cards each."""

from __future__ import annotations

import rulesdsl
import pytest

from conformance.keys import documents
from conformance.play import dealt, game, legal, refusal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: go out
players: 2
deck: {ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], values: {A: 1}}
melds:
  run: {kind: run, min: 3}
  set: {kind: set, min: 3}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 5, to: hand}, {turn_up: discard}]
turn:
  - step: draw
    actions: [{draw: stock}]
  - step: finish
    actions: [{discard: discard}, {go_out: knock}, {go_out: gin}]
go_out:
  knock: {%s}
  gin: {when: deadwood(hand) == 0, discard: none}
stock_out: {when: count(stock) == 0, result: score}
scoring:
  outcomes:
    - {when: ending == "gin", scorer: declarer, points: 100 + deadwood(defender)}
    - {when: ending == "knock", scorer: declarer, points: 1000 + 10 * deadwood(defender) - deadwood(declarer)}
    - {scorer: declarer, points: held(declarer)}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""
KNOCK = "when: deadwood(hand) > 0 and deadwood(hand) <= 5, discard: %s, layoffs: %s, rule: MY-KNOCK-1"


def stack(seat1, seat0, up, stock):
    return dealt({1: seat1, 0: seat0}, [r + s for s in "SHDC" for r in RANKS], then=[up, *stock])


SEAT0 = ["4S", "4H", "7D", "6C", "8C"]                   # 4S fits A-3S, 4H... no; deadwood 29


def seat1_draws(knock: str, hand, drawn, seat0=SEAT0):
    g = game(RULES % knock, stack(hand, seat0, "7C", [drawn, "6H", "6D"]), dealer=0)
    g.apply("draw stock")
    return g


def go_outs(g):
    return [a for a in legal(g) if not a.startswith("discard")]


@documents("go_out", "go_out.*.when", "turn[].actions[].go_out")
def test_a_go_out_is_offered_when_its_condition_holds_after_the_discard():
    """`when` is judged on the hand *after* the discard: with AS 2S 3S 2H 3H 8D only `knock 8D` leaves
    deadwood at most 5 (2H 3H)."""
    g = seat1_draws(KNOCK % ("face_down", "none"), ["AS", "2S", "3S", "2H", "8D"], "3H")
    assert go_outs(g) == ["knock 8D"]
    assert len([a for a in legal(g) if a.startswith("discard")]) == 6
    g = seat1_draws(KNOCK.replace("<= 5", "<= 4") % ("face_down", "none"), ["AS", "2S", "3S", "2H", "8D"], "3H")
    assert go_outs(g) == []


@documents("go_out.*.layoffs", "go_out.*.discard")
def test_without_layoffs_the_hand_is_scored_at_once():
    """`layoffs: none` (the default): the hand ends on the knock; the declarer's melds go to the table,
    the defender's deadwood is their best arrangement (here 4S 4H 7D 6C 8C: 29)."""
    g = seat1_draws(KNOCK % ("face_down", "none"), ["AS", "2S", "3S", "2H", "8D"], "3H")
    g.apply("knock 8D")
    assert g.is_over
    assert g.hand_log[-1]["ending"] == "knock" and g.hand_log[-1]["deadwood"] == [29, 5]
    assert g.scores == [0, 1000 + 290 - 5]


@documents("go_out.*.layoffs")
def test_with_layoffs_the_opponent_lays_off_then_says_done():
    """`layoffs: opponents`: the opponent gets a window to `layoff CARD on N` onto a shown meld (chains
    allowed) and ends it with `done`; then the engine makes the best remaining layoffs and arrangement."""
    g = seat1_draws(KNOCK % ("face_down", "opponents"), ["AS", "2S", "3S", "2H", "8D"], "3H")
    g.apply("knock 8D")
    assert not g.is_over and g.current_player == 0
    assert legal(g) == ["layoff 4S on 1", "done"]
    g.apply("layoff 4S on 1")
    assert legal(g) == ["done"]
    g.apply("done")
    assert g.is_over and g.hand_log[-1]["deadwood"] == [25, 5]     # 4H 7D 6C 8C
    assert g.scores == [0, 1000 + 250 - 5]
    g = seat1_draws(KNOCK % ("face_down", "opponents"), ["AS", "2S", "3S", "2H", "8D"], "3H")
    g.apply("knock 8D")
    g.apply("done")                                                  # the engine lays 4S off itself
    assert g.hand_log[-1]["deadwood"] == [25, 5]


@documents("go_out.*.discard")
def test_the_go_out_discard_lies_face_down_or_face_up():
    """`discard: face_down | face_up | none`: the go-out's own discard; face down, the opponent does not see
    it on the pile."""
    for how in ("face_down", "face_up"):
        g = seat1_draws(KNOCK % (how, "opponents"), ["AS", "2S", "3S", "2H", "8D"], "3H")
        g.apply("knock 8D")
        pile = g.view(0)["zones"]["discard"]
        assert pile["count"] == 2
        if how == "face_down":
            assert pile.get("top_face_down") is True and "top" not in pile
        else:
            assert pile.get("top") == "8D"


@documents("go_out.*.discard", "turn[].actions[].go_out")
def test_a_go_out_without_a_discard_is_a_bare_verb():
    """`discard: none`: the go-out takes no card (`big_gin`-like: the action text is the name alone), and
    every card of the hand is shown (AS 2S 3S 5H 5D 5C: gin, 100 + the defender's 29)."""
    g = seat1_draws(KNOCK % ("face_down", "none"), ["AS", "2S", "3S", "5H", "5D"], "5C")
    assert sorted(go_outs(g)) == ["gin", "knock 2S", "knock 3S", "knock AS"]   # knock: 5S..5C melded
    g.apply("gin")
    assert g.is_over and g.hand_log[-1]["ending"] == "gin" and g.scores == [0, 129]
    assert g.view(0)["zones"]["discard"]["count"] == 1                # nothing discarded
    g = seat1_draws(KNOCK % ("face_down", "none"), ["AS", "2S", "3S", "5H", "8D"], "5C")
    refused = g.refusal("gin")                                        # its condition, traced on the whole hand
    assert str(refused) == "cannot gin now: deadwood(hand) = 18 != 0 [go_out gin at conformance.yaml:20:8]"


@documents("go_out.*.arrange")
def test_a_drop_shows_the_hand_as_it_is():
    """`arrange: false` shows the hand as it is instead (a "drop": the declarer's cards all count, melds
    and all): AS 2S 3S 2H 3H after discarding 8D counts 11, not 5 (scored 1000 + 10 * 29 - 11)."""
    drop = "when: 'true', discard: face_down, arrange: false"
    g = seat1_draws(drop, ["AS", "2S", "3S", "2H", "8D"], "3H")
    g.apply("knock 8D")
    assert g.is_over and g.hand_log[-1]["deadwood"] == [29, 11]
    assert g.scores == [0, 1000 + 290 - 11]
    assert g.view(0)["melds"] == []
    g = seat1_draws("when: 'true', discard: face_down", ["AS", "2S", "3S", "2H", "8D"], "3H")
    g.apply("knock 8D")                                               # arranged: only 2H 3H are held
    assert g.scores == [0, 1000 + 290 - 5]


@documents("go_out.*.arrange")
def test_a_drop_with_layoffs_is_refused():
    """`layoffs` needs melds to lay off onto, and `arrange: false` shows the hand without melding it."""
    with pytest.raises(rulesdsl.RulesetError) as e:
        game(RULES % "when: 'true', arrange: false, layoffs: opponents")
    assert any(d.code == "E-IGNORED" for d in e.value.diagnostics)


@documents("go_out.*.rule")
def test_the_rule_label_names_a_refused_go_out():
    """`rule:` labels the go-out in the IllegalAction message."""
    g = seat1_draws(KNOCK % ("face_down", "none"), ["AS", "2S", "3S", "2H", "8D"], "3H")
    refused = g.refusal("knock 3H")
    assert refused is not None and refused.rule == "MY-KNOCK-1"
    with pytest.raises(rulesdsl.IllegalAction) as e:
        g.apply("knock 2H")
    assert e.value.rule == "MY-KNOCK-1"


EIGHT = RULES.replace("{deal: 5, to: hand}", "{deal: 8, to: hand}")
LAYOUT_1 = ["4S", "4D", "4C", "4H", "5H", "6H", "7H", "AC"]
LAYOUT_0 = ["3H", "AS", "2D", "6S", "6D", "6C", "8C", "7C"]


def eight_cards(knock: str):
    g = game(EIGHT % knock, stack(LAYOUT_1, LAYOUT_0, "5C", ["8D", "5S"]), dealer=0)
    g.apply("draw stock")                                       # seat 1 draws 8D
    return g


@documents("go_out", "turn[].actions[].go_out")
def test_the_shown_layout_is_the_least_deadwood_one_that_leaves_the_opponent_most():
    """The declarer's cards are shown in their best arrangement: the least deadwood, and among equal ones
    the layout that leaves the opponent the most after their layoffs; a player may name another
    least-deadwood layout (`knock KC with 7S 7D 7C / 7H 8H 9H 10H`).  Here 4H goes with the 4s (the
    run 5H 6H 7H takes no 3H) unless the declarer names 4S 4D 4C / 4H 5H 6H 7H."""
    knock = "when: deadwood(hand) <= 5, layoffs: opponents"
    g = eight_cards(knock)
    g.apply("knock 8D")
    assert sorted(sorted(m["cards"]) for m in g.view(0)["melds"]) == [["4C", "4D", "4H", "4S"], ["5H", "6H", "7H"]]
    assert legal(g) == ["done"]
    g = eight_cards(knock)
    g.apply("knock 8D with 4S 4D 4C / 4H 5H 6H 7H")
    assert sorted(sorted(m["cards"]) for m in g.view(0)["melds"]) == [["4C", "4D", "4S"], ["4H", "5H", "6H", "7H"]]
    run = 1 + [sorted(m["cards"]) for m in g.view(0)["melds"]].index(["4H", "5H", "6H", "7H"])
    assert legal(g) == [f"layoff 3H on {run}", "done"]
    g.apply(f"layoff 3H on {run}")
    g.apply("done")
    # the defender keeps AS 2D 6S 6D 6C 8C 7C: best 6C 7C 8C, deadwood AS 2D 6S 6D; the declarer AC
    assert g.hand_log[-1]["deadwood"] == [1 + 2 + 6 + 6, 1]


@documents("go_out")
def test_go_out_names_may_not_be_action_verbs():
    """Go-out names are verbs in the action notation, so they may not be `draw`, `take`, `discard`,
    `pass`, `layoff` or `done`."""
    text = RULES.replace("{go_out: gin}", "{go_out: done}").replace("  gin: {when:", "  done: {when:")
    with pytest.raises(rulesdsl.RulesetError):
        game(text % (KNOCK % ("face_down", "none")))


@documents("go_out.*.layoffs", "deck.copies", "deck.jokers")
def test_melds_arranged_from_a_hand_need_a_deck_of_distinct_cards():
    """The arrangement (`deadwood`, a go-out's shown melds) is a search over distinct cards: a deck of two
    copies, or with jokers, is refused at load where it says so (it once loaded, and every hand was all
    deadwood).  Without any run or set type nothing is arranged: the knock shows no meld, the opponent's
    window offers only `done`, and the hand is scored on the cards as they are.  Catches compile/melds.py
    `best_layoffs` reaching for an arrangement that does not exist."""
    knock = "when: deadwood(hand) <= 40, discard: face_down, layoffs: opponents"
    for deck_key in ("copies: 2", "jokers: 1"):
        out = refusal(RULES.replace("values: {A: 1}}", "values: {A: 1}, %s}" % deck_key) % knock)
        assert out.count("error[") == 1 and ":4:" in out and "error[E-UNSUPPORTED]" in out
        assert "one copy of each card and no jokers" in out and "hint:" in out
    rules = RULES.replace("melds:\n  run: {kind: run, min: 3}\n  set: {kind: set, min: 3}\n", "") % knock
    deck = [r + s for s in "SHDC" for r in RANKS]
    g = game(rules, dealt({1: ["AS", "2S", "3S", "2H", "8D"], 0: SEAT0}, deck, then=["7C", "3H", "6H"]),
             dealer=0)
    g.apply("draw stock")
    g.apply("knock 8D")                              # AS 2S 3S 2H 3H: 11, none of it melded
    assert g.current_player == 0 and legal(g) == ["done"]
    g.apply("done")
    assert g.is_over and g.scores[1] == 1000 + 10 * 29 - 11
