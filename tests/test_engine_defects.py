"""Engine defects of issue 8 (section 4) and the run-time side of sections 1-2: every failure during
play is a located ``RuleEvaluationError`` (rule key path, ``path:line:col``, seat, step), and
``rulesdsl simulate`` reports it as a plain line, never a traceback or an "internal error".

Rulesets here are small inline files (YAML written to ``tmp_path``) extending a bundled game, so each
test states exactly the rule it exercises; the expected values follow from those files and from the
rules of the game (the gin deadwood figures come from the brute-force oracle in ``gin_helpers``).
"""

from __future__ import annotations

import copy
import random
import re

import pytest
from click.testing import CliRunner

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.engine.game import Game

from gin_helpers import act, deadwood, deadwood_after_layoffs, stack


def write(tmp_path, text: str, name: str = "r.yaml"):
    f = tmp_path / name
    f.write_text(text)
    return f


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line of ``text`` containing ``needle``."""
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def simulate(*args):
    r = CliRunner().invoke(cli, ["simulate", *map(str, args)])
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


# --------------------------------------------------------------------------------------------------
# 1. A rule that fails during play names itself, where it is written, the seat and the step
# --------------------------------------------------------------------------------------------------

# `deal.scorer` is none until a hand has been scored: only play reveals that `score(deal.scorer)` fails
TAKE_FAILS = """\
extends: gin_rummy
turn:
  - step: draw
    actions:
      - draw: stock
      - take: discard
        when: score(deal.scorer) < 50
  - step: finish
    actions:
      - discard: discard
"""


def test_a_rule_failing_while_listing_actions_is_located(tmp_path):
    f = write(tmp_path, TAKE_FAILS)
    g = rulesdsl.load(f).new_game(seed=1, dealer=0)
    act(g, "pass", "pass")                     # both decline the upcard: seat 1's draw step
    with pytest.raises(rulesdsl.RuleEvaluationError) as e:
        g.legal_actions()
    err = e.value
    assert err.rule == "turn[draw].take.when"
    assert err.pos.path.endswith("r.yaml") and err.pos.line == line_of(TAKE_FAILS, "when: score")
    assert err.seat == 1 and err.step == "draw"
    text = str(err)
    assert text.startswith(f"{err.pos}: ")
    assert "turn[draw].take.when" in text and "seat 1" in text and "`draw`" in text
    assert "TypeError" in text                 # what Python said, kept as the detail


def test_a_broken_game_stays_stopped_with_the_same_location(tmp_path):
    g = rulesdsl.load(write(tmp_path, TAKE_FAILS)).new_game(seed=1, dealer=0)
    act(g, "pass", "pass")
    with pytest.raises(rulesdsl.RuleEvaluationError):
        g.legal_actions()
    cards = g.cards_in_play
    for attempt in (g.legal_actions, lambda: g.apply("draw stock")):
        with pytest.raises(rulesdsl.RuleEvaluationError) as e:
            attempt()
        assert (e.value.rule, e.value.seat, e.value.step) == ("turn[draw].take.when", 1, "draw")
    assert g.cards_in_play == cards == 52


# the second hand compares a number with text: `stock_out.when` fails while a discard is played
STOCK_OUT_FAILS = """\
extends: gin_rummy
stock_out:
  when: count(stock) <= [2, "x", "y"][min(deal.number, 3) - 1]
  result: void
"""


def test_a_rule_failing_while_playing_an_action_is_located(tmp_path):
    f = write(tmp_path, STOCK_OUT_FAILS)
    rules = rulesdsl.load(f)
    g = rules.new_game(seed=0)
    rng = random.Random(0)
    with pytest.raises(rulesdsl.RuleEvaluationError) as e:
        for _ in range(100_000):
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
    err = e.value
    assert g.hand_number == 2                  # the first hand compared numbers only
    assert err.rule == "stock_out.when" and err.pos.line == 3
    assert err.step == "finish"                # stock_out is judged when a turn ends with a discard
    assert err.seat in (0, 1) and "playing `discard" in str(err)


STEP_RUNS_DRY = """\
extends: gin_rummy
turn:
  - step: draw
    actions:
      - draw: stock
        when: count(stock) > 27
      - take: discard
        when: count(stock) > 27
  - step: finish
    actions:
      - discard: discard
"""


def test_a_player_left_with_no_legal_action_is_a_located_error_not_an_empty_list(tmp_path):
    """Nothing is offered once the stock is down to 27 and the match is not over: the engine says so,
    naming the step, instead of handing a player an empty list (a random player then crashed in
    ``randrange``)."""
    f = write(tmp_path, STEP_RUNS_DRY)
    g = rulesdsl.load(f).new_game(seed=3, dealer=0)
    act(g, "pass", "pass")
    with pytest.raises(rulesdsl.RuleEvaluationError) as e:
        for _ in range(20):
            g.apply(g.legal_actions()[0])
    err = e.value
    assert err.rule == "turn[draw]" and err.pos.line == line_of(STEP_RUNS_DRY, "step: draw")
    assert err.step == "draw" and err.seat == g.actor
    assert "no legal action" in str(err)
    assert len(g.zones["stock"]) == 27 and not g.is_over


def test_a_deal_the_stock_cannot_give_is_a_located_error(tmp_path):
    """Load-time checks refuse a deal bigger than the deck; the engine's own guard (for whatever only
    play can reveal) names the deal step instead of popping an empty list."""
    rules = rulesdsl.load("gin_rummy")
    prog = copy.copy(rules.program())
    _, _, zone, pos, seat, active = prog.deal[0]
    prog.deal = [("deal", 30, zone, pos, seat, active)]       # 60 cards for two players from 52
    with pytest.raises(rulesdsl.RuleEvaluationError) as e:
        Game(prog, seed=1)
    assert e.value.rule == "deal[0].deal" and e.value.pos == pos and e.value.step == "deal"
    assert "60 cards" in str(e.value) and "52" in str(e.value)


def test_simulate_reports_a_failed_match_as_one_located_line(tmp_path):
    f = write(tmp_path, STEP_RUNS_DRY)
    r = simulate(f, "--games", 3, "--seed", 5)
    assert r.exit_code == 1
    lines = [ln for ln in r.output.splitlines() if re.match(r"match \d+ \(seed", ln)]
    assert [ln.split(":")[0] for ln in lines] == ["match 1 (seed 5)", "match 2 (seed 6)", "match 3 (seed 7)"]
    line = line_of(STEP_RUNS_DRY, "step: draw")
    assert all(re.search(rf"r\.yaml:{line}:\d+: error\[E-PLAY\]: rule `turn\[draw\]`", ln) for ln in lines), lines
    assert "randrange" not in r.output
    assert "0 of 3 matches finished, 3 failed" in r.output


# --------------------------------------------------------------------------------------------------
# 2. Gin: who deals after a hand nobody scores
# --------------------------------------------------------------------------------------------------

KNOCKER = ["2C", "3C", "4C", "9H", "9S", "9D", "JS", "QS", "KS", "7D"]       # deadwood 7 (7D)
DEFENDER = ["5H", "5D", "5C", "8S", "8H", "8C", "AD", "2D", "3D", "7C"]      # deadwood 7 after layoffs


def tie_deal(overrides: dict):
    """Seat 1 (non-dealer) draws 7D and knocks with KH; seat 0 (dealer) is left with equal deadwood."""
    dealt = [c for c in KNOCKER if c != "7D"] + ["KH"]
    rules = rulesdsl.load("gin_rummy", overrides={"undercut_on_equal": False, **overrides})
    g = rules.new_game(seed=0, dealer=0, deck=stack(dealt, DEFENDER, "QH", stock_top=["7D"]))
    act(g, "pass", "pass", "draw stock", "knock KH", "done")
    return g


@pytest.mark.parametrize("rotation", ["winner", "loser", "alternate"])
def test_gin_a_scoreless_tie_is_redealt_by_the_same_dealer(rotation):
    """Equal deadwood without `undercut_on_equal` scores for nobody (GIN-EDGE-5); like a void hand,
    the same dealer deals again, whatever `dealer_rotation` says (seeds/gin_rummy.md, GIN-DEAL-2)."""
    assert deadwood(KNOCKER) == 7
    assert deadwood_after_layoffs(DEFENDER, [["2C", "3C", "4C"], ["9H", "9S", "9D"], ["JS", "QS", "KS"]]) == 7
    g = tie_deal({"dealer_rotation": rotation})
    rec = g.hand_log[-1]
    assert rec["ending"] == "knock" and rec["scorer"] is None and rec["points"] == 0
    assert g.scores == [0, 0] and g.hands_won == [0, 0]
    assert g.hand_number == 2 and g.view(0)["dealer"] == 0
    assert g.legal_actions()                   # the match goes on


def test_a_next_dealer_rule_that_gives_none_keeps_the_dealer(tmp_path):
    """Any ruleset: `next_dealer` evaluating to none (nobody to name) keeps the dealer."""
    f = write(tmp_path, "extends: gin_rummy\nmatch:\n  next_dealer: deal.scorer\n")
    rules = rulesdsl.load(f, overrides={"undercut_on_equal": False})
    dealt = [c for c in KNOCKER if c != "7D"] + ["KH"]
    g = rules.new_game(seed=0, dealer=1, deck=stack(dealt, DEFENDER, "QH", stock_top=["7D"]))
    act(g, "pass", "pass", "draw stock", "knock KH", "done")         # seat 0 knocks; a tie
    assert g.hand_log[-1]["scorer"] is None
    assert g.hand_number == 2 and g.view(0)["dealer"] == 1


# --------------------------------------------------------------------------------------------------
# 3. `then:` (and count, marks) follow the entry that offered the action
# --------------------------------------------------------------------------------------------------

TWO_DRAWS = """\
extends: gin_rummy
turn:
  - step: draw
    actions:
      - draw: stock
        when: count(stock) > 29
      - draw: stock
        when: count(stock) <= 29
        count: 2
        then: end_turn
      - take: discard
  - step: finish
    actions:
      - discard: discard
"""


def test_then_and_count_follow_the_entry_whose_when_held(tmp_path):
    g = rulesdsl.load(write(tmp_path, TWO_DRAWS)).new_game(seed=0, dealer=0)
    act(g, "pass", "pass")
    # 31 in the stock: the first entry -> one card, then the finish step
    act(g, "draw stock")
    assert len(g.hand_of(1)) == 11 and g.view(1)["step"] == "finish" and g.current_player == 1
    g.apply(g.legal_actions()[0])
    act(g, "draw stock")                       # seat 0 at 30: still the first entry
    assert len(g.hand_of(0)) == 11 and g.view(0)["step"] == "finish"
    g.apply(g.legal_actions()[0])
    # 29 in the stock: only the second entry is offered -> two cards, and the turn ends there
    assert [str(a) for a in g.legal_actions()] == ["draw stock", "take discard"]
    act(g, "draw stock")
    assert len(g.hand_of(1)) == 12 and len(g.zones["stock"]) == 27
    assert g.current_player == 0 and g.view(0)["step"] == "draw"


def test_the_second_entry_of_a_kind_is_named_in_errors(tmp_path):
    text = TWO_DRAWS.replace("when: count(stock) <= 29", "when: count(stock) <= 29 and score(deal.scorer) > 0")
    g = rulesdsl.load(write(tmp_path, text)).new_game(seed=0, dealer=0)
    act(g, "pass", "pass")
    with pytest.raises(rulesdsl.RuleEvaluationError) as e:
        for _ in range(6):
            g.apply(g.legal_actions()[0])
    assert e.value.rule == "turn[draw].draw#2.when" and e.value.pos.line == line_of(text, "score(deal.scorer)")


# --------------------------------------------------------------------------------------------------
# 4. An exchange step with `count: 0` asks for nothing
# --------------------------------------------------------------------------------------------------

def exchange_ruleset(tmp_path, first: str, second: str):
    return rulesdsl.load(write(tmp_path, f"""\
extends: president
exchange:
  - {{giver: -1, receiver: 1, count: {first}, cards: highest, when: params.exchange}}
  - {{giver: 1, receiver: -1, count: {second}, cards: any, when: params.exchange}}
"""))


def to_second_deal(g, seed: int = 0):
    rng = random.Random(seed)
    while g.hand_number == 1:
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g


def test_exchange_step_with_count_zero_is_skipped(tmp_path):
    g = to_second_deal(exchange_ruleset(tmp_path, "0", "1").new_game(seed=2, players=4))
    order = g.previous_order
    president, scum = order[0], order[-1]
    assert g.phase == "exchange" and g.current_player == president     # the scum gives nothing
    hand = list(g.hand_of(president))
    assert sorted(str(a) for a in g.legal_actions()) == sorted({f"give {c}" for c in hand})
    before = len(g.hand_of(scum))
    g.apply(f"give {hand[0]}")
    assert g.phase == "climb" and len(g.hand_of(scum)) == before + 1


def test_exchange_where_every_count_is_zero_goes_straight_to_play(tmp_path):
    g = to_second_deal(exchange_ruleset(tmp_path, "0", "0").new_game(seed=2, players=4))
    assert g.phase == "climb" and all(a.verb in ("play", "pass") for a in g.legal_actions())


# --------------------------------------------------------------------------------------------------
# 5-6. simulate: the role table, matches that cannot end, huge scores
# --------------------------------------------------------------------------------------------------

def test_simulate_role_table_counts_each_deal_once_when_roles_share_a_name(tmp_path):
    f = write(tmp_path, "extends: president\nroles:\n  5: [[President, 2], [Neutral, 0], [Neutral, 0], "
                        "[Neutral, 0], [Scum, -2]]\n")
    r = simulate(f, "--games", 3, "--players", 5, "--set", "target_score=4")
    assert r.exit_code == 0, r.output
    hands = int(re.search(r"hands \(deals\) played: (\d+)", r.output).group(1))
    out = r.output.splitlines()
    head = out.index("roles by seat (deals finished in each role):")
    assert out[head + 1].split() == ["seat", "President", "Neutral", "Scum"]
    rows = [list(map(int, ln.split())) for ln in out[head + 2:head + 7]]
    assert [row[0] for row in rows] == [0, 1, 2, 3, 4]
    assert all(sum(row[1:]) == hands for row in rows), (hands, rows)      # every deal, one role a seat
    assert [sum(col) for col in zip(*rows)][1:] == [hands, 3 * hands, hands]


def test_simulate_reports_a_match_that_cannot_end(tmp_path):
    """A match still going at the cap is reported as unfinished, with its seed, and is no failure: every
    match is played and the run exits 0 (issue 12; before it, such a match stopped the run, exit 1)."""
    r = simulate("gin_rummy", "--games", 3, "--seed", 4, "--set", "target_score=1000000000",
                 "--max-decisions", 3000)
    assert r.exit_code == 0, r.output
    for k in (1, 2, 3):
        assert f"match {k} unfinished (seed {3 + k}): no end within 3,000 decisions" in r.output
    assert "0 of 3 matches finished, 3 unfinished" in r.output
    assert "RuntimeError" not in r.output and "failed" not in r.output


def test_simulate_with_an_end_condition_that_never_holds_is_no_internal_error(tmp_path):
    f = write(tmp_path, "extends: gin_rummy\nmatch:\n  ends_when: 'false'\n")
    r = simulate(f, "--games", 2, "--max-decisions", 2000)
    if "error[" in r.output:                     # refused at load
        assert r.exit_code == 1
    else:
        assert r.exit_code == 0 and "unfinished (seed 1): no end within 2,000 decisions" in r.output


def test_simulate_summary_numbers_never_overflow():
    """A mean of 400-digit margins does not fit a float (OverflowError) and Python refuses to print an
    int of more than 4,300 digits (ValueError): the summary prints them anyway."""
    from rulesdsl.sim.stats import mean_interval
    from rulesdsl.sim.summary import interval_text, jsonable, number_text

    big = 10 ** 400
    assert mean_interval([big, big + 2]).value == big + 1              # exact integer mean, no interval
    assert interval_text(mean_interval([big, big + 2]).as_dict()) == str(big + 1)
    assert interval_text(mean_interval([3, 4]).as_dict()).startswith("3.5 [")
    huge = 10 ** 5000
    assert number_text(huge) == "a number of about 5000 digits"
    assert number_text(-12) == "-12"
    assert jsonable({"max": [huge]}) == {"max": ["a number of about 5000 digits"]}


GROWING = """\
extends: gin_rummy
params:
  target_score: 1000000000000000
match:
  ends_when: max_score >= params.target_score or deal.number >= 40
scoring:
  outcomes:
    - when: 'true'
      scorer: declarer
      points: score(declarer) * 1000000 + 1000000
"""


def test_simulate_with_scores_that_explode_reports_plainly(tmp_path):
    r = simulate(write(tmp_path, GROWING), "--games", 2)
    assert r.exit_code in (0, 1)
    assert "Overflow" not in r.output
    for ln in r.output.splitlines():
        if ln.startswith("match ") and "(seed" in ln:     # a failed match: one located line
            assert re.match(r"match \d \(seed \d\): .*r\.yaml:\d+:\d+: error\[E-PLAY\]", ln), ln


# ------------------------------------------------------------------ auto_lay on a taken card

AUTO_LAID_KINGS = """extends: gin_rummy
classes:
  king: rank(card) == "K"
zones:
  laid: {per: player, visible: all}
auto_lay: {class: king, to: laid, replace_from: stock}
"""


def test_a_card_of_the_auto_lay_class_taken_from_a_pile_is_laid_and_replaced(tmp_path):
    """`auto_lay` holds wherever a card arrives: a king taken as the offered upcard (a plain `take`) is laid
    out at once and replaced from the stock, like one dealt or drawn."""
    rules = rulesdsl.load(write(tmp_path, AUTO_LAID_KINGS))
    nd = ["AS", "2S", "3S", "4H", "5H", "6H", "7C", "8C", "9C", "10D"]
    d = ["AH", "2H", "3H", "4S", "5S", "6S", "7D", "8D", "9D", "10C"]
    g = rules.new_game(seed=1, dealer=0, deck=stack(nd, d, "KD", ["QS", "JH"]))
    assert g.current_player == 1                        # the non-dealer is offered the upcard
    g.apply("take discard")
    v = g.view(1)
    assert v["zones"]["laid"][1]["cards"] == ["KD"]
    assert "KD" not in g.hand_of(1) and "QS" in g.hand_of(1) and len(g.hand_of(1)) == 11
    assert v["zones"]["stock"]["count"] == 52 - 21 - 1
    assert g.cards_in_play == 52
    assert any(str(a).startswith("discard") for a in g.legal_actions())


def test_a_single_refused_where_a_set_of_its_rank_is_legal_is_not_told_to_name_a_suit():
    """A single 7 against a pair, with a pair of 7s in hand: the refusal is that it does not beat the
    last play, not "this play names a suit" (the single's ranks were a prefix of the pair's)."""
    g = rulesdsl.load("president").new_game(seed=1, players=4)
    rng = random.Random(1)
    while not (g.phase == "climb" and g.view(0)["trick"]["last_play"]):
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    last = g.view(0)["trick"]["last_play"]
    hand = g.hand_of(g.current_player)
    pairs = {c[:-1] for c in hand if sum(x[:-1] == c[:-1] for x in hand) >= 2}
    legal = {str(a) for a in g.legal_actions()}
    rank = next(r for r in sorted(pairs) if any(a.startswith("play ") and a.split()[1][:-1] == r and
                                                len(a.split()) == 3 for a in legal))
    assert len(last) == 2, last
    single = next(c for c in hand if c[:-1] == rank)
    with pytest.raises(rulesdsl.IllegalAction) as refused:
        g.apply(f"play {single}")
    assert refused.value.rule == "beats" and "name" not in refused.value.detail.split(":")[0]
