"""Conformance: a turn's steps and their actions (docs/language.md: "`turn`: steps of choices", and
"Partnerships" for `count`, `mark` and `ask`).

Each test plays a tiny game whose `turn:` is written for the feature alone, on a stacked deal, and checks
the exact legal actions at each point, where the cards went, whose turn it is, and how the hand ended."""

from __future__ import annotations

import textwrap

import pytest

import rulesdsl
from conformance.keys import documents
from conformance.play import game, legal, refusal, rules

# Twelve cards A..6 in two suits.  Dealer 0: seat 1 gets deck[0], deck[2]; seat 0 deck[1], deck[3]; then
# any turn-up; the rest is the stock, its top first.  The hand ends (scored) when the stock falls to
# `floor` as a turn ends.
GAME = """
name: turns
players: 2
deck: {{ranks: [A, 2, 3, 4, 5, 6], suits: [S, H]}}
{extra}
zones:
  stock: {{visible: none}}
  discard: {{visible: {discard_visible}}}
  hand: {{per: player, visible: owner}}
deal:
  - {{deal: 2, to: hand}}
{turn_up}
turn:
{turn}
stock_out: {{when: count(stock) <= {floor}, result: score}}
scoring:
  each_player: {scoring}
match:
  ends_when: deal.number >= 1
  on_tie: shared
"""
CARDS = ["AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H", "4H", "5H", "6H"]
# seat 1: AS 3S; seat 0: 2S 4S; (turn-ups 5S 6S AH when asked for); stock 5S 6S AH 2H ... (or 2H ...)

DRAW_DISCARD = """
- step: draw
  actions:
    - draw: stock
    - take: discard
- step: finish
  actions:
    - discard: discard
"""


def text(turn: str = DRAW_DISCARD, extra: str = "", turn_ups: int = 1, floor: int = 0, scoring: str = "0",
         discard_visible: str = "top") -> str:
    return GAME.format(turn=textwrap.indent(textwrap.dedent(turn).strip("\n"), "  "), extra=textwrap.dedent(extra),
                       turn_up="\n".join(["  - {turn_up: discard}"] * turn_ups), floor=floor, scoring=scoring,
                       discard_visible=discard_visible)


def step(g) -> str:
    return g.view(g.current_player)["step"]


# ------------------------------------------------------------------ steps, draw, take, discard

@documents("turn", "turn[].step", "turn[].actions", "turn[].actions[].draw", "turn[].actions[].take",
           "turn[].actions[].discard")
def test_a_turn_goes_through_its_steps_and_a_discard_ends_it():
    """A turn is a list of steps, each offering its actions; after an action the turn goes to the next
    step; `draw: ZONE` takes the top card of a face-down zone, `take: ZONE` the top card of a pile,
    `discard: ZONE` puts one card from hand onto the pile and ends the turn."""
    g = game(text(), deck=CARDS, dealer=0)
    assert g.current_player == 1 and step(g) == "draw" and legal(g) == ["draw stock", "take discard"]
    g.apply("draw stock")                                           # the stock's top: 6S
    assert set(g.hand_of(1)) == {"AS", "3S", "6S"} and step(g) == "finish"
    assert sorted(legal(g)) == ["discard 3S", "discard 6S", "discard AS"]
    g.apply("discard 3S")
    assert g.view(0)["zones"]["discard"] == {"count": 2, "top": "3S"}
    assert g.current_player == 0 and step(g) == "draw"
    g.apply("take discard")                                         # the pile's top: 3S
    assert set(g.hand_of(0)) == {"2S", "4S", "3S"} and g.view(0)["zones"]["discard"] == {"count": 1, "top": "5S"}
    assert g.view(0)["zones"]["stock"] == {"count": 6}


@documents("turn[].actions[].discard", "turn[].actions[].take")
def test_an_empty_pile_offers_no_take():
    """`take` takes the top card of a pile: with nothing in the pile it is not offered."""
    g = game(text(turn_ups=0), deck=CARDS, dealer=0)
    assert legal(g) == ["draw stock"]


@documents("turn[].step", "turn[].actions[].then")
def test_then_sends_the_turn_to_a_named_step_or_ends_it():
    """`then:` a step name (the turn goes there), or `end_turn` (the turn ends at once)."""
    turn = """
    - step: draw
      actions:
        - draw: stock
          then: last
        - take: discard
          then: end_turn
    - step: middle
      actions:
        - discard: discard
    - step: last
      actions:
        - pass: true
        - discard: discard
    """
    g = game(text(turn), deck=CARDS, dealer=0)
    g.apply("draw stock")
    assert step(g) == "last" and sorted(legal(g)) == ["discard 3S", "discard 6S", "discard AS", "pass"]
    g.apply("pass")                                                 # the last step passed: the turn ends
    assert g.current_player == 0 and step(g) == "draw"
    g.apply("take discard")                                         # then: end_turn
    assert g.current_player == 1 and set(g.hand_of(0)) == {"2S", "4S", "5S"}


@documents("turn[].actions[].then", "turn[].step")
def test_then_naming_no_step_is_refused():
    """A `then:` naming no step is `E-UNKNOWN-STEP`; `then:` on a discard is `E-IGNORED`."""
    turn = DRAW_DISCARD.replace("    - draw: stock\n", "    - draw: stock\n      then: finsh\n")
    out = refusal(text(turn))
    assert "error[E-UNKNOWN-STEP]: `then: finsh` names no step" in out and "finish" in out
    turn = DRAW_DISCARD.replace("    - discard: discard\n", "    - discard: discard\n      then: draw\n")
    assert "error[E-IGNORED]" in refusal(text(turn))


@documents("turn[].actions[].then", "turn[].actions[].ending", "turn[].actions[].pass")
def test_then_end_hand_ends_the_hand_and_ending_names_it():
    """`then: end_hand`: the hand ends and is scored; `ending:` names this way of ending (default
    `stock`), in `hand_log` and for scoring as `ending`; `pass: true` does nothing in its step."""
    scoring = '''if ending == "declined" then 5 else if ending == "stock" then 1 else 0'''
    turn = """
    - step: draw
      actions:
        - draw: stock
        - pass: true
          then: end_hand
          {ending}
    - step: finish
      actions:
        - discard: discard
    """
    g = game(text(turn.format(ending="ending: declined"), scoring=scoring), deck=CARDS, dealer=0)
    assert legal(g) == ["draw stock", "pass"]
    g.apply("pass")
    assert g.is_over and [e["ending"] for e in g.hand_log] == ["declined"] and g.scores == [5, 5]
    # without `ending:` no way of ending is called "declined", so the scoring rule may not ask for it
    g = game(text(turn.format(ending=""), scoring='if ending == "stock" then 1 else 0'), deck=CARDS, dealer=0)
    g.apply("pass")
    assert [e["ending"] for e in g.hand_log] == ["stock"] and g.scores == [1, 1]


@documents("turn[].actions[].pass")
def test_pass_does_nothing_and_the_turn_goes_on_to_the_next_step():
    """`pass: true` (text `pass`): do nothing in this step; the turn goes on to the next step."""
    turn = """
    - step: draw
      actions:
        - draw: stock
        - pass: true
    - step: finish
      actions:
        - discard: discard
    """
    g = game(text(turn), deck=CARDS, dealer=0)
    g.apply("pass")
    assert g.current_player == 1 and step(g) == "finish" and set(g.hand_of(1)) == {"AS", "3S"}
    assert g.view(1)["zones"]["stock"] == {"count": 7}
    assert sorted(legal(g)) == ["discard 3S", "discard AS"]


# ------------------------------------------------------------------ when, forbid, rule

@documents("turn[].actions[].when")
def test_when_offers_an_action_only_while_it_holds():
    """`when:` an action is offered only if its condition is true (here, by the stock's size and a
    parameter)."""
    turn = DRAW_DISCARD.replace("    - take: discard\n",
                                "    - take: discard\n      when: params.may_take and count(stock) < 7\n")
    t = text(turn, extra="params:\n  may_take: true")
    g = game(t, deck=CARDS, dealer=0)
    assert legal(g) == ["draw stock"]                       # seven cards in the stock
    g.apply("draw stock")
    g.apply("discard AS")
    assert legal(g) == ["draw stock", "take discard"]       # six
    g = game(t, deck=CARDS, dealer=0, overrides={"may_take": False})
    g.apply("draw stock")
    g.apply("discard AS")
    assert legal(g) == ["draw stock"]
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        g.apply("take discard")
    assert str(refused.value).startswith("`take discard` is not allowed now: `params.may_take and count(stock) < 7` "
                                         "is false with these parameters")
    assert refused.value.rule == "take condition" and refused.value.pos.line == 18


@documents("turn[].actions[].forbid", "turn[].actions[].rule")
def test_forbid_refuses_the_cards_it_holds_for_and_rule_names_it():
    """`forbid:` a card (`card`) for which it is true is refused; `card == turn.taken` forbids
    discarding the card just taken; `rule:` is the label named in the IllegalAction message."""
    turn = DRAW_DISCARD.replace("    - discard: discard\n",
                                "    - discard: discard\n      forbid: card == turn.taken\n      rule: MY-TURN-7\n")
    g = game(text(turn), deck=CARDS, dealer=0)
    g.apply("take discard")                                         # seat 1 takes 5S
    assert sorted(legal(g)) == ["discard 3S", "discard AS"]
    refusal_ = g.refusal("discard 5S")
    assert refusal_ is not None and refusal_.rule == "MY-TURN-7"
    with pytest.raises(rulesdsl.IllegalAction) as exc:
        g.apply("discard 5S")
    assert "MY-TURN-7" in str(exc.value)
    assert set(g.hand_of(1)) == {"AS", "3S", "5S"}                  # nothing changed
    g.apply("discard AS")
    g.apply("draw stock")                                           # seat 0 draws 6S: nothing taken
    assert sorted(legal(g)) == ["discard 2S", "discard 4S", "discard 6S"]


@documents("turn[].actions[].forbid")
def test_forbid_by_rank_refuses_each_such_card():
    """`forbid:` judged per card: every card it holds for is left out of the legal discards."""
    turn = DRAW_DISCARD.replace("    - discard: discard\n", "    - discard: discard\n      forbid: 'rank(card) == \"A\"'\n")
    g = game(text(turn), deck=CARDS, dealer=0)
    g.apply("draw stock")
    assert sorted(legal(g)) == ["discard 3S", "discard 6S"]


# ------------------------------------------------------------------ repeat

REPEAT_TURN = """
- step: draw
  actions:
    - draw: stock
      count: 3
- step: play
  repeat: true
  actions:
    - meld: any
    - layoff: any
    - discard: discard
"""
# seat 1: AS 2S, draws 3S 4S 6H; seat 0: 4H 5H
REPEAT_DECK = ["AS", "4H", "2S", "5H", "3S", "4S", "6H", "5S", "6S", "AH", "2H", "3H"]
RUN_TABLE = "melds:\n  run: {kind: run, min: 3}\ntable: {owner: player}"


@documents("turn[].repeat")
def test_a_repeat_step_stays_put_after_a_meld_until_a_discard_ends_the_turn():
    """`repeat: true`: the step stays put after each action until one ends the turn (a discard); without
    it, the turn goes on to the next step (here, past the last: the turn ends)."""
    g = game(text(REPEAT_TURN, extra=RUN_TABLE, turn_ups=0), deck=REPEAT_DECK, dealer=0)
    g.apply("draw stock")
    assert step(g) == "play" and sorted(legal(g)) == ["discard 2S", "discard 3S", "discard 4S", "discard 6H",
                                                      "discard AS", "meld 2S 3S 4S", "meld AS 2S 3S"]
    g.apply("meld AS 2S 3S")
    assert g.current_player == 1 and step(g) == "play"
    assert sorted(legal(g)) == ["discard 4S", "discard 6H", "layoff 4S on 1"]
    g.apply("layoff 4S on 1")
    assert g.current_player == 1 and step(g) == "play" and legal(g) == ["discard 6H"]
    g = game(text(REPEAT_TURN, extra=RUN_TABLE, turn_ups=0), deck=REPEAT_DECK, dealer=0)
    g.apply("draw stock")
    g.apply("meld AS 2S 3S")
    g.apply("discard 6H")
    assert g.current_player == 0 and step(g) == "draw"
    g = game(text(REPEAT_TURN.replace("  repeat: true\n", ""), extra=RUN_TABLE, turn_ups=0), deck=REPEAT_DECK,
             dealer=0)
    g.apply("draw stock")
    g.apply("meld AS 2S 3S")
    assert g.current_player == 0 and step(g) == "draw"


@documents("turn[].repeat")
def test_a_repeat_step_stays_put_after_a_draw():
    """`repeat: true`: the step stays put after *each* action until one ends the turn (a discard): a draw
    offered again while its `when` holds."""
    turn = """
    - step: grab
      repeat: true
      actions:
        - draw: stock
          when: count(hand) < 4
        - discard: discard
    """
    g = game(text(turn, floor=1), deck=CARDS, dealer=0)
    g.apply("draw stock")
    assert g.current_player == 1 and step(g) == "grab"
    assert sorted(legal(g)) == ["discard 3S", "discard 6S", "discard AS", "draw stock"]
    g.apply("draw stock")
    assert set(g.hand_of(1)) == {"AS", "3S", "6S", "AH"}
    assert sorted(legal(g)) == ["discard 3S", "discard 6S", "discard AH", "discard AS"]


# ------------------------------------------------------------------ count, depth

@documents("turn[].actions[].count", "turn[].actions[].draw")
def test_draw_with_count_draws_that_many_or_all_there_are():
    """`draw: stock` with `count:` draws that many (all there are, if fewer)."""
    turn = DRAW_DISCARD.replace("    - draw: stock\n", "    - draw: stock\n      count: params.n\n")
    g = game(text(turn, extra="params:\n  n: 3"), deck=CARDS, dealer=0)
    g.apply("draw stock")
    assert set(g.hand_of(1)) == {"AS", "3S", "6S", "AH", "2H"}
    assert g.view(0)["zones"]["stock"] == {"count": 4}
    g = game(text(turn, extra="params:\n  n: 6", floor=-1), deck=CARDS, dealer=0)
    g.apply("draw stock")                                           # six of seven
    g.apply("discard AS")
    g.apply("draw stock")                                           # one left: seat 0 gets it
    assert set(g.hand_of(0)) == {"2S", "4S", "6H"} and g.view(0)["zones"]["stock"] == {"count": 0}


@documents("turn[].actions[].count")
def test_a_draw_count_below_one_is_refused():
    """A `draw` or `take` `count` of at least 1 is checked at load when it reads only parameters
    (`E-COUNT`, at the parameter value that caused it)."""
    turn = DRAW_DISCARD.replace("    - draw: stock\n", "    - draw: stock\n      count: params.n\n")
    rules(text(turn, extra="params:\n  n: 1"))
    assert "error[E-COUNT]" in refusal(text(turn, extra="params:\n  n: 0"))
    assert refusal(text(turn, extra="params:\n  n: 1"), {"n": 0}).startswith("<override n>:1:1: error[E-COUNT]")


@documents("turn[].actions[].count", "turn[].actions[].take")
def test_take_with_count_takes_the_top_cards_at_once():
    """`take:` with `count:` takes the top N cards of the pile at once."""
    turn = DRAW_DISCARD.replace("    - take: discard\n", "    - take: discard\n      count: 2\n")
    g = game(text(turn, turn_ups=3), deck=CARDS, dealer=0)          # pile: 5S 6S AH (AH on top)
    assert legal(g) == ["draw stock", "take discard"]
    g.apply("take discard")
    assert set(g.hand_of(1)) == {"AS", "3S", "6S", "AH"}
    assert g.view(0)["zones"]["discard"] == {"count": 1, "top": "5S"}


@documents("turn[].actions[].depth", "turn[].actions[].take", "turn[].actions[].forbid")
def test_depth_any_offers_taking_the_top_n_cards_of_a_spread_pile():
    """`depth: any` offers `take discard N` (the top N cards); `depth: top` (the default) the top card
    only.  After a deep take `turn.taken` is the top card of those taken."""
    deep = DRAW_DISCARD.replace("    - take: discard\n", "    - take: discard\n      depth: any\n")
    g = game(text(deep, extra=RUN_TABLE, turn_ups=3, discard_visible="all"), deck=CARDS, dealer=0)
    assert legal(g) == ["draw stock", "take discard", "take discard 2", "take discard 3"]
    g.apply("take discard 2")
    assert set(g.hand_of(1)) == {"AS", "3S", "6S", "AH"}
    assert g.view(0)["zones"]["discard"] == {"count": 1, "cards": ["5S"]}
    # `turn.taken` is the top card of those taken, `turn.taken_cards` all of them
    marked = deep.replace("    - discard: discard\n", "    - discard: discard\n      forbid: card == turn.taken\n")
    g = game(text(marked, extra=RUN_TABLE, turn_ups=3, discard_visible="all"), deck=CARDS, dealer=0)
    g.apply("take discard 2")
    assert sorted(legal(g)) == ["discard 3S", "discard 6S", "discard AS"]
    every = deep.replace("    - discard: discard\n",
                         "    - discard: discard\n      forbid: card in turn.taken_cards\n")
    g = game(text(every, extra=RUN_TABLE, turn_ups=3, discard_visible="all"), deck=CARDS, dealer=0)
    g.apply("take discard 2")
    assert sorted(legal(g)) == ["discard 3S", "discard AS"]
    g = game(text(DRAW_DISCARD, extra=RUN_TABLE, turn_ups=3, discard_visible="all"), deck=CARDS, dealer=0)
    assert legal(g) == ["draw stock", "take discard"]
    with pytest.raises(rulesdsl.IllegalAction):
        g.apply("take discard 2")


@documents("turn[].actions[].depth")
def test_a_deep_take_needs_open_melds():
    """A deep `take` needs a `table:` section (open melds): without one it is `E-MISSING`."""
    deep = DRAW_DISCARD.replace("    - take: discard\n", "    - take: discard\n      depth: any\n")
    assert "error[E-MISSING]" in refusal(text(deep))


# ------------------------------------------------------------------ mark

def _marking_turn(take_when: str) -> str:
    """Draw or take the discard (while ``take_when`` holds); then discard, an ace marked `hot`."""
    return f"""
    - step: draw
      actions:
        - draw: stock
        - take: discard
          when: {take_when}
    - step: finish
      actions:
        - discard: discard
          mark: {{hot: 'rank(card) == "A"'}}
    """


@documents("turn[].actions[].mark")
def test_a_discard_may_mark_the_card_and_rules_read_the_mark():
    """`mark: {NAME: CONDITION}` on a discard marks the card when the condition holds for it (`card`);
    `marked(card, NAME)` reads the mark."""
    g = game(text(_marking_turn('not marked(top(discard), "hot")')), deck=CARDS, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")                                           # an ace: marked hot
    assert legal(g) == ["draw stock"]
    g.apply("draw stock")
    g.apply("discard 2S")                                           # not an ace: no mark
    assert legal(g) == ["draw stock", "take discard"]
    g.apply("take discard")
    g.apply("discard 2S")
    assert legal(g) == ["draw stock", "take discard"]               # the turn-up 5S was never marked


@documents("turn[].actions[].mark")
def test_marks_by_counts_each_marking_discard_even_of_a_card_marked_before():
    """`marks_by(team, NAME)` counts the discards a side's players made that carried the mark: a marked
    card taken back and discarded with the mark again counts again (a penalty per discard, as in Hand
    and Foot's house rule on wild cards discarded to reach the foot).  Found by the Hand and Foot
    scoring property: the count was of cards, so a card marked twice was one penalty."""
    g = game(text(_marking_turn('marks_by(0, "hot") + marks_by(1, "hot") < 3')), deck=CARDS, dealer=0)
    g.apply("draw stock")
    g.apply("discard AS")                                           # seat 1 marks the ace: 1
    g.apply("take discard")
    g.apply("discard AS")                                           # seat 0 marks it again: 2
    assert legal(g) == ["draw stock", "take discard"]
    g.apply("take discard")
    g.apply("discard AS")                                           # seat 1, a second time: 3
    assert legal(g) == ["draw stock"]


# ------------------------------------------------------------------ ask, question

ASK = """
name: asking
players: 4
teams: {{count: 2}}
deck: {{ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: 1, values: {{A: 1, joker: 20}}}}
wild: is_joker(card)
melds:
  group: {{kind: group, min: 3}}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  hand: {{per: player, visible: owner}}
deal: [{{deal: 4, to: hand}}, {{turn_up: discard}}]
table: {{owner: team, going_out: {{when: true, needs_discard: true, keep_when_not_out: 2, permission: true}}}}
turn:
  - step: draw
    actions: [{{draw: stock}}]
  - step: play
    repeat: true
    actions: [{{meld: any}}, {{layoff: any}}, {ask}{{discard: discard}}]
stock_out: {{when: count(stock) == 0, result: score}}
scoring: {{each_team: melded_value(team)}}
match: {{ends_when: deal.number >= 1, on_tie: shared}}
"""
RANKS = "A 2 3 4 5 6 7 8".split()


def ask_game(ask: str = "{ask: partner}, "):
    """Seat 1 (team 1, partner seat 3) holds four 5s and draws 8H: it can meld down and go out."""
    hands = {1: ["5S", "5H", "5D", "5C"], 0: ["4H", "4D", "6D", "6C"], 2: ["7H", "7D", "8D", "8C"],
             3: ["AH", "2H", "AD", "2D"]}
    deck = [hands[(1 + i) % 4][k] for k in range(4) for i in range(4)] + ["7C", "8H", "6H", "3H"]
    rest = [r + s for s in "SHDC" for r in RANKS] + ["Jk"]
    deck += [c for c in rest if c not in deck]
    g = game(ASK.format(ask=ask), deck=deck, dealer=0)
    g.apply("draw stock")
    return g


@documents("turn[].actions[].ask", "turn[].actions[].question")
def test_ask_partner_puts_the_question_to_the_partner_who_answers_as_their_own_action():
    """`ask: partner` is offered when the going-out condition holds and the hand can be melded down; the
    partner answers `yes` or `no` as their own action; `question:` names what is asked (`go_out`, the
    default: "may I go out?")."""
    for ask in ("{ask: partner}, ", "{ask: partner, question: go_out}, "):
        g = ask_game(ask)
        assert g.current_player == 1 and "ask" in legal(g)
        g.apply("ask")
        assert g.current_player == 3 and sorted(legal(g)) == ["no", "yes"]
        assert g.view(0)["question"] == {"from": 1, "to": 3, "asks": "may I go out?"}
        g.apply("no")
        assert g.current_player == 1 and "ask" not in legal(g)     # asked once: a no forbids going out
    g = ask_game("")
    assert "ask" not in legal(g)


@documents("turn[].actions[].ask", "turn[].actions[].question")
def test_ask_needs_a_going_out_rule_and_the_question_is_go_out():
    """`ask` needs `table.going_out` (what the partner is asked about); `question` other than `go_out` is
    not a choice; `then:` on an ask is `E-IGNORED`."""
    no_going_out = ASK.format(ask="{ask: partner}, ").replace(
        ", going_out: {when: true, needs_discard: true, keep_when_not_out: 2, permission: true}", "")
    assert "error[E-MISSING]: `ask` needs `table.going_out`" in refusal(no_going_out)
    assert "error[E-CHOICE]" in refusal(ASK.format(ask="{ask: partner, question: pass}, "))
    assert "error[E-IGNORED]" in refusal(ASK.format(ask="{ask: partner, then: draw}, "))


@documents("turn[].actions[].rule", "turn[].actions[].when")
def test_rule_labels_the_refusal_of_an_action_whose_when_is_false():
    """`rule:` is a label for messages: an action refused because its `when:` is false names it (and the
    game is unchanged)."""
    turn = DRAW_DISCARD.replace("    - take: discard\n", "    - take: discard\n      when: count(stock) < 3\n"
                                "      rule: MY-TAKE-1\n")
    g = game(text(turn), deck=CARDS, dealer=0)
    assert legal(g) == ["draw stock"]
    r = g.refusal("take discard")
    assert r.rule == "MY-TAKE-1" and "MY-TAKE-1" in str(r)
    with pytest.raises(rulesdsl.IllegalAction) as exc:
        g.apply("take discard")
    assert exc.value.rule == "MY-TAKE-1"
    assert g.history == [] and set(g.hand_of(1)) == {"AS", "3S"}
    assert g.refusal("draw stock") is None


@documents("turn[].actions[].when")
def test_turn_drawn_is_the_card_drawn_this_turn_and_none_at_a_new_turn():
    """docs/language.md, names: `turn.drawn` is the card last drawn from a stock this turn, or `none`: the
    next player's turn starts with none (the last player's draw is not theirs)."""
    turn = """
    - step: draw
      actions:
        - {draw: stock, when: turn.drawn == none}
        - take: discard
    - step: finish
      actions:
        - {discard: discard, forbid: card == turn.drawn}
    """
    g = game(text(turn), deck=CARDS, dealer=0)
    g.apply("draw stock")                                           # seat 1 draws 6S
    assert sorted(legal(g)) == ["discard 3S", "discard AS"]         # not the card drawn this turn
    g.apply("discard 3S")
    assert g.current_player == 0 and legal(g) == ["draw stock", "take discard"]
    g.apply("take discard")
    assert sorted(legal(g)) == ["discard 2S", "discard 3S", "discard 4S"]


@documents("turn")
def test_reserve_turns_counts_nothing_where_there_is_no_reserve_packet():
    """docs/language.md, "The reserve packet": `reserve_turns(seat)` counts complete turns begun with the
    packet in hand; a game with no packet never begins one so, whatever turns are played."""
    g = game(text(scoring="reserve_turns(player) * 10 + 1", floor=3), deck=CARDS, dealer=0)
    turns = 0
    while not g.is_over:
        g.apply(g.legal_actions()[0])
        turns += g.history[-1].startswith("discard")
    assert turns >= 4 and g.scores == [1, 1]
