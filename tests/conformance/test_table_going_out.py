"""Going out with open melds under conditions (docs/language.md, "Partnerships": `table.going_out` with
`when`, `needs_discard`, `keep_when_not_out`, `permission`, `rule`).  A tiny deck (A..8), no foot: every
seat is in its last packet, so emptying the hand is going out."""

from __future__ import annotations


from conformance.keys import documents
from conformance.play import dealt, game, legal, refusal

RANKS = "A 2 3 4 5 6 7 8".split()

RULES = """
name: going out
players: {players}
{teams}
deck: {{ranks: [A, 2, 3, 4, 5, 6, 7, 8], suits: [S, H, D, C], jokers: {jokers}, values: {{A: 1, joker: 20}}}}
{melds}
zones:
  stock: {{visible: none}}
  discard: {{visible: top}}
  hand: {{per: player, visible: owner}}
deal: [{{deal: 4, to: hand}}, {{turn_up: discard}}]
table: {{owner: {owner}, going_out: {{{going_out}}}}}
turn:
  - step: draw
    actions: [{{draw: stock}}]
  - step: play
    repeat: true
    actions: [{{meld: any}}, {{layoff: any}}, {ask}{{discard: discard}}]
stock_out: {{when: count(stock) == 0, result: score}}
scoring: {{{scoring}}}
match: {{ends_when: deal.number >= 1, on_tie: shared}}
"""


RUNS = "melds:\n  run: {kind: run, min: 3}\n  set: {kind: set, min: 3}"
GROUPS = "wild: is_joker(card)\nmelds:\n  group: {kind: group, min: 3}"


def ruleset(going_out: str, players: int = 2, melds: str = RUNS) -> str:
    jokers = 1 if melds == GROUPS else 0
    if players == 4:
        return RULES.format(players=4, teams="teams: {count: 2}", owner="team", going_out=going_out,
                            ask="{ask: partner}, ", scoring="each_team: melded_value(team)", melds=melds,
                            jokers=jokers)
    return RULES.format(players=2, teams="", owner="player", going_out=going_out, ask="",
                        scoring="each_player: melded(player) - held(player)", melds=melds, jokers=jokers)


def stack(hands: dict, up: str, stock, n: int, jokers: int = 0):
    return dealt({s: hands[s][:4] for s in range(n)}, [r + s for s in "SHDC" for r in RANKS] + ["Jk"] * jokers,
                 then=[up, *stock])


RUN = ["AS", "2S", "3S", "4S"]


def seat1_draws(going_out: str, drawn="5S", players=2):
    hands = {1: RUN, 0: ["4H", "4D", "6D", "6C"], 2: ["7H", "7D", "8D", "8C"], 3: ["AH", "2H", "AD", "2D"]}
    g = game(ruleset(going_out, players), stack(hands, "7C", [drawn, "8H", "6H"], players), dealer=0)
    g.apply("draw stock")
    return g


def layoffs(g):
    return sorted(a for a in legal(g) if a.startswith("layoff"))


@documents("table.going_out", "table.going_out.needs_discard")
def test_needs_discard_makes_the_last_card_a_discard():
    """`needs_discard: true`: go out by discarding the last card, so the last card may not be melded or
    laid off; `false`: the hand may be melded down to nothing."""
    g = seat1_draws("when: true, needs_discard: true")
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    assert legal(g) == ["discard 5S"]
    g.apply("discard 5S")
    assert g.is_over and g.scores == [-20, 10]
    g = seat1_draws("when: true, needs_discard: false")
    g.apply("meld AS 2S 3S")
    g.apply("layoff 4S on 1")
    assert sorted(legal(g)) == ["discard 5S", "layoff 5S on 1"]
    g.apply("layoff 5S on 1")
    assert g.is_over and g.scores == [-20, 15]


@documents("table.going_out.when", "table.going_out.keep_when_not_out")
def test_while_going_out_is_not_allowed_the_player_keeps_cards():
    """`going_out.when`: emptying the hand is going out only when it holds; otherwise the player keeps
    `keep_when_not_out` cards after melding (here two: the 4S may not be laid off)."""
    g = seat1_draws("when: true, keep_when_not_out: 2")
    g.apply("meld AS 2S 3S")
    assert layoffs(g) == ["layoff 4S on 1"]
    g = seat1_draws("when: false, keep_when_not_out: 2")
    assert sorted(a for a in legal(g) if a.startswith("meld")) == ["meld 2S 3S 4S", "meld 3S 4S 5S",
                                                                    "meld AS 2S 3S"]
    g.apply("meld AS 2S 3S")
    assert sorted(legal(g)) == ["discard 4S", "discard 5S"]


@documents("table.going_out.keep_when_not_out")
def test_keep_when_not_out_counts_the_cards_kept_after_melding():
    """`keep_when_not_out: 3`: a meld of three from five cards would leave two, so none is offered."""
    g = seat1_draws("when: false, keep_when_not_out: 3")
    assert sorted(a for a in legal(g) if a.startswith("meld")) == []  # a meld of 3 would leave 2 of 5
    g = seat1_draws("when: false, keep_when_not_out: 2")
    assert len([a for a in legal(g) if a.startswith("meld")]) == 3


@documents("table.going_out.keep_when_not_out")
def test_keeping_one_card_when_not_out_is_refused_at_load():
    """`keep_when_not_out: 1` would leave a player who may not go out one card, whose discard would go out:
    refused (E-RANGE) where the going-out rules are written, with the two values that work."""
    out = refusal(ruleset("when: false, keep_when_not_out: 1"))
    assert "error[E-RANGE]" in out and "`keep_when_not_out: 1`" in out and "keep 2" in out


@documents("table.going_out.when", "table.going_out.keep_when_not_out")
def test_no_layoff_is_offered_that_leaves_no_way_to_finish_the_turn():
    """No action is offered that would leave a player unable to finish the turn; while going out is not
    allowed the last card may not be discarded, so the player keeps one card after melding and must
    still be able to discard."""
    g = seat1_draws("when: false")
    g.apply("meld AS 2S 3S")
    for layoff in layoffs(g):
        trial = g.clone()
        trial.apply(layoff)
        assert legal(trial), layoff


FIVES = ["5S", "5H", "5D", "5C"]


def seat1_asks(going_out: str, melds: str = GROUPS):
    """Four players in two teams; seat 1 holds four 5s and draws 8H; its partner is seat 3."""
    hands = {1: FIVES, 0: ["4H", "4D", "6D", "6C"], 2: ["7H", "7D", "8D", "8C"], 3: ["AH", "2H", "AD", "2D"]}
    g = game(ruleset(going_out, 4, melds), stack(hands, "7C", ["8H", "6H", "3H"], 4, jokers=1), dealer=0)
    g.apply("draw stock")
    return g


@documents("table.going_out.permission")
def test_going_out_needs_the_partners_yes_when_permission_holds():
    """`permission: true`: ask the partner first (`ask`), then they answer `yes` or `no` as their own
    action; a no forbids going out this turn; a yes binds: ordinary discards are refused while going out
    is still possible."""
    going = "when: true, needs_discard: true, keep_when_not_out: 2, permission: true"
    g = seat1_asks(going)
    assert "ask" in legal(g)
    g.apply("ask")
    assert g.current_player == 3 and sorted(legal(g)) == ["no", "yes"]
    g.apply("yes")
    assert g.current_player == 1 and "ask" not in legal(g)
    assert not any(a.startswith("discard") for a in legal(g))        # bound to go out: meld first
    g.apply(next(a for a in legal(g) if a.startswith("meld")))
    assert not any(a.startswith("discard") for a in legal(g))        # a discard now would not go out
    g.apply(next(a for a in legal(g) if a.startswith("layoff")))
    assert legal(g) == ["discard 8H"]
    g.apply("discard 8H")
    assert g.is_over and g.hand_log[-1]["declarer"] == 1
    g = seat1_asks(going)
    g.apply("ask")
    g.apply("no")
    assert "ask" not in legal(g)
    g.apply(next(a for a in legal(g) if a.startswith("meld")))       # three 5s: 5 and 8H left
    assert layoffs(g) == [] and len([a for a in legal(g) if a.startswith("discard")]) == 2   # keep two


@documents("table.going_out.permission")
def test_without_permission_no_question_is_asked():
    """`permission: false` (the default): going out needs no answer; `ask` is not offered."""
    g = seat1_asks("when: true, keep_when_not_out: 2, permission: false")
    assert "ask" not in legal(g)
    g.apply(next(a for a in legal(g) if a.startswith("meld")))
    g.apply(next(a for a in legal(g) if a.startswith("layoff")))
    g.apply("discard 8H")
    assert g.is_over


@documents("table.going_out.permission")
def test_asking_works_with_runs_and_sets():
    """`ask: partner` is offered when the going-out condition holds and the hand can be melded down."""
    g = seat1_draws("when: true, needs_discard: true, keep_when_not_out: 2, permission: true", players=4)
    assert "ask" in legal(g)


@documents("table.going_out.rule")
def test_the_going_out_rule_labels_its_refusals():
    """`rule:` is a label for messages: an action refused because going out is not allowed names it."""
    g = seat1_draws("when: false, keep_when_not_out: 2, rule: MY-OUT-1")
    g.apply("meld AS 2S 3S")
    assert g.refusal("layoff 4S on 1").rule == "MY-OUT-1"
