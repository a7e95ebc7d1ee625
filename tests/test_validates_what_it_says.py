"""What validates means what it says: each file of ``tests/repros/`` (and each defect the issue names)
either plays as the docs promise, or is refused at load with a located diagnostic that shows no
Python internals.  A file that validates and then does something else is the worst kind of defect a
language can have, because its author cannot see it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.errors import RulesetError

REPROS = Path(__file__).parent / "repros"


def _load(name: str, overrides=None) -> rulesdsl.Rules:
    return rulesdsl.load(str(REPROS / name), overrides=overrides)


def _legal(g) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def _refused(text: str, tmp_path: Path, name: str = "r.yaml"):
    """The diagnostics a ruleset text is refused with (it must not load)."""
    f = tmp_path / name
    f.write_text(text)
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load(str(f))
    for d in exc.value.diagnostics:
        rendered = str(d)
        assert "Error:" not in rendered.split("]", 1)[-1].split(":", 1)[0] and "_CardProbe" not in rendered \
            and "Traceback" not in rendered, rendered
    return exc.value.diagnostics


# ------------------------------------------------------------------ several discard piles in one step
def test_a_step_with_two_discard_piles_names_the_pile_and_each_piles_forbid_holds():
    g = _load("discard_destinations.yaml").new_game(seed=1)
    assert g.hand_of(0) == ["2H"] and _legal(g) == ["pass"]
    g.apply("pass")
    assert _legal(g) == ["discard 2H to b"]             # only `b` takes a 2; `discard` takes an ace
    refused = g.refusal("discard 2H")
    assert refused is not None and "name the pile" in str(refused)
    forbidden = g.refusal("discard 2H to discard")
    # the refusal shows the rule judged for the card: its value, not only its text (drawing.py
    # `_refused_forbid` tracing the card in hand)
    assert str(forbidden).startswith('`discard 2H to discard` is forbidden: rank(card) = "2" != "A"')
    assert forbidden.trace is not None and forbidden.trace.holds
    g.apply("discard 2H to b")
    assert g.view(0)["zones"]["b"]["top"] == "2H" and g.view(0)["zones"]["discard"]["count"] == 0


def test_random_play_of_a_two_pile_step_puts_each_card_only_where_that_piles_rule_allows():
    """Every discard lands on the pile it names, and only a card that pile's `forbid` allows; where the
    ruleset itself leaves a card nowhere to go (a 3 or a 4 here), play stops with a located error
    naming the step, never a wrong move."""
    rules = _load("discard_destinations.yaml")
    allowed = {"discard": "A", "b": "2"}
    placed = 0
    for seed in range(12):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        try:
            for _ in range(500):
                if g.is_over:
                    break
                a = rng.choice(g.legal_actions())
                g.apply(a)
                if a.verb == "discard":
                    assert a.zone and a.cards[0][:-1] == allowed[a.zone]
                    assert g.view(0)["zones"][a.zone]["top"] == a.cards[0]
                    placed += 1
        except rulesdsl.RuleEvaluationError as exc:
            assert "step `place`" in str(exc) and "no legal action" in str(exc)
        else:
            assert g.is_over
    assert placed >= 5


def test_a_discard_naming_its_pile_round_trips_through_the_notation_and_the_encoding():
    from rulesdsl.encoding.actions import build_action_space
    from rulesdsl.engine.actions import parse_action
    g = _load("discard_destinations.yaml").new_game(seed=1)
    g.apply("pass")
    a = g.legal_actions()[0]
    assert parse_action(str(a)) == a and str(a) == "discard 2H to b"
    space = build_action_space(g.prog)
    (number,) = space.path(a)
    assert space.describe(number) == "discard 2H to b"


# ------------------------------------------------------------------ counters see the action counted
def test_a_counter_reads_the_play_being_counted_and_the_card_it_moves():
    g = _load("counter_play_names.yaml").new_game(seed=3)
    plays = []
    for _ in range(3):
        a = g.legal_actions()[0]
        plays.append((g.current_player, str(a)))
        g.apply(a)
    assert plays == [(1, "play 4S"), (0, "play 5S"), (1, "play 6S")]
    assert g.counters["play_size"] == [1, 2]             # play.size of each play counted
    assert g.counters["play_rank_is_none"] == [0, 0]     # play.rank_name has a value
    assert g.counters["card_value"] == [5, 4 + 6]        # value(card): the card each play moves
    assert g.counters["last_size"] == [1, 1]             # last.*: the play each went on (none for the lead)
    assert g.counters["kind_single"] == [1, 2]


# ------------------------------------------------------------------ a card named as text
def test_a_card_named_as_text_is_that_card_in_membership_and_equality():
    g = _load("card_text_membership.yaml").new_game(seed=3)
    seat = g.current_player
    assert sorted(g.hand_of(seat)) == ["AH", "AS"]
    g.apply(g.legal_actions()[-1])                       # discard AS (the last listed): counted before it goes
    assert g.counters["txt_in"][seat] == g.counters["txt_eq"][seat] == g.counters["by_rs"][seat] == 1


def test_a_text_compared_with_a_card_that_is_no_card_of_the_deck_is_refused(tmp_path):
    src = (REPROS / "card_text_membership.yaml").read_text().replace('"AS" in hand', '"AX" in hand')
    (d,) = _refused(src, tmp_path)
    assert d.code == "E-TYPE" and '"AX" is compared with a card' in d.message and d.pos.line > 1


# ------------------------------------------------------------------ `repeat: true`
def test_a_repeat_step_stays_put_after_a_draw_until_a_discard_ends_the_turn():
    g = _load("repeat_draw.yaml").new_game(seed=1)
    seat = g.current_player
    for n in (2, 3, 4):
        g.apply("draw stock")
        assert g.current_player == seat and len(g.hand_of(seat)) == n
    assert not any(a.startswith("draw") for a in _legal(g))     # its `when` (fewer than 4) no longer holds
    g.apply(_legal(g)[0])
    assert g.current_player != seat


def test_then_on_a_draw_in_a_repeat_step_is_reported_as_ignored(tmp_path):
    src = (REPROS / "repeat_draw.yaml").read_text().replace("{draw: stock, when: count(hand) < 4}",
                                                             "{draw: stock, when: count(hand) < 4, then: end_turn}")
    assert any(d.code == "E-IGNORED" and "repeats" in d.message for d in _refused(src, tmp_path))


# ------------------------------------------------------------------ conditions and closed sets
def test_a_number_where_a_condition_stands_is_a_type_error(tmp_path):
    (d,) = _refused("extends: gin_rummy\nstock_out: {when: count(stock) + params.stock_floor, result: score}\n",
                    tmp_path)
    assert d.code == "E-TYPE" and "must be true or false" in d.message and d.pos.line == 2


def test_a_misspelt_ending_name_is_refused_with_did_you_mean(tmp_path):
    src = "extends: gin_rummy\nscoring:\n  outcomes:\n    - {when: ending == \"gim\", scorer: declarer, points: 25}\n"
    (d,) = _refused(src, tmp_path)
    assert d.code == "E-CHOICE" and '"gim"' in d.message and "did you mean `gin`" in d.hint


def test_a_rank_name_the_deck_does_not_have_is_refused(tmp_path):
    src = "extends: gin_rummy\nwild: rank(card) == \"T\"\ntable: {owner: player}\n"
    assert any(d.code == "E-CHOICE" and '"T"' in d.message for d in _refused(src, tmp_path))


# ------------------------------------------------------------------ keys the mechanics never read
def test_turn_steps_beside_tricks_are_reported_as_ignored():
    with pytest.raises(RulesetError) as exc:
        _load("turn_beside_tricks.yaml")
    (d,) = exc.value.diagnostics
    assert d.code == "E-IGNORED" and "play follows `tricks`" in d.message and d.pos.line == 4


# ------------------------------------------------------------------ correct files that were refused
def test_a_deal_in_per_seat_packets_validates_and_deals_three_two_three_two():
    g = _load("seat_packets.yaml").new_game(seed=1, dealer=0)
    assert [len(g.hand_of(s)) for s in range(4)] == [2, 3, 2, 3]   # seat 1 (the dealer's left) gets 3 first


def test_an_exchange_step_switched_off_for_three_players_is_not_refused_for_them():
    rules = _load("exchange_when_players.yaml")
    for players in (3, 4):
        g = rules.new_game(seed=2, players=players)
        rng = random.Random(players)
        while g.hand_number < 3 and not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        assert g.hand_number == 3


def test_a_card_rule_that_reads_play_is_refused_in_the_rules_own_words():
    with pytest.raises(RulesetError) as exc:
        _load("suit_of_reads_trump.yaml")
    (d,) = exc.value.diagnostics
    assert d.code == "E-EVAL" and "reads `trump`, known only in play" in d.message
    assert "_CardProbe" not in str(d) and "AttributeError" not in str(d)


def test_a_deal_too_large_is_reported_at_the_deal_line_that_asks_for_it(tmp_path):
    src = "extends: gin_rummy\ndeal:\n  - {deal: 26, to: hand}\n  - {turn_up: discard, as: upcard}\n"
    (d,) = _refused(src, tmp_path)
    assert d.code == "E-DEAL-TOO-MANY" and (d.pos.line, d.pos.col) == (3, 12)


def test_a_missing_parenthesis_in_the_dsl_is_reported_where_it_was_opened(tmp_path):
    src = rulesdsl.load("gin_rummy")       # any ruleset will do: write one line of a DSL file wrong
    del src
    text = ("name = P\nplayers = 2\ndeck { ranks = [A, 2, 3]\n  suits = [S, H] }\n"
            "zones { stock { visible = \"none\" }\n  hand { per = player\n    visible = owner }\n"
            "  discard { visible = top } }\ndeal = [{ deal = 2\n  to = hand }]\n"
            "turn = [{ step = d\n  actions = [{ discard = discard\n    when = (count(hand) > 0\n  }] }]\n"
            "scoring { each_player = \"0\" }\nmatch { ends_when = true }\n")
    (d,) = _refused(text, tmp_path, "p.rules")
    assert d.code == "E-SYNTAX" and d.message == "`(` is never closed" and (d.pos.line, d.pos.col) == (13, 12)


# ------------------------------------------------------------------ parameters with natural bounds
@pytest.mark.parametrize("value, code, words", [(-3, "E-RANGE", "it must be at least 0"),
                                                (5.5, "E-TYPE", "is a whole number")])
def test_a_bundled_parameter_outside_its_natural_range_is_refused_at_the_override(value, code, words):
    from rulesdsl.source.tree import Pos
    with pytest.raises(RulesetError) as exc:
        rulesdsl.load("gin_rummy", {"knock_limit": value}, {"knock_limit": Pos(f"--set knock_limit={value}", 1, 1)})
    (d,) = exc.value.diagnostics
    assert d.code == code and words in d.message and d.pos.path == f"--set knock_limit={value}"


def test_simulate_warns_when_nearly_every_hand_is_void():
    from click.testing import CliRunner
    from rulesdsl.cli.main import cli
    out = CliRunner().invoke(cli, ["simulate", "gin_rummy", "--games", "2", "--set", "stock_floor=30",
                                   "--set", "target_score=5"])
    assert out.exit_code == 0, out.output
    assert "warning:" in out.output and "hands were void" in out.output


# ------------------------------------------------------------------ `permission` as an expression
def test_a_permission_expression_giving_optional_acts_as_the_bare_word():
    import hand_and_foot_helpers as hf
    hf._RULES[("expression", repr([]))] = _load("permission_expression.yaml")
    g = hf.BooksDeal(variant="expression").upto("N4").game
    hf.play_turn(g, hf.N, "draw stock")
    assert "ask" in _legal(g)                            # asking is allowed ...
    hf.meld(g, "QS", "QH", "QD")
    hf.grow(g, "6", "6C")
    hf.grow(g, "9", "9C")
    hf.finish(g, "discard 4S")                           # ... and not required: out, no question asked
    assert g.hand_log[-1]["ending"] == "out" and g.hand_log[-1]["declarer"] == hf.N


# ------------------------------------------------------------------ a joker in a climbing set
JOKER_LOCK = """
name: JokerSets
players: 2
deck: {ranks: [3, 4, J], suits: [S, H, D, C], jokers: 1}
zones: {hand: {per: player, visible: owner}, trick: {visible: all}, played: {visible: all}, stock: {visible: none}}
deal: [{deal: 6, to: hand}]
wild: is_joker(card)
climbing:
  plays: {set: {kind: group, min: 1, max: 4, wild_ratio: naturals >= 1}}
  beats: play.size == last.size and play.rank > last.rank and (last.size == 0 or play.suits == last.suits)
  first_leader: next_seat(dealer)
scoring: {each_player: '0'}
match: {ends_when: 'deal.number >= 1'}
"""


def test_a_joker_in_a_set_may_stand_for_any_suit_its_natural_cards_lack(tmp_path):
    f = tmp_path / "j.yaml"
    f.write_text(JOKER_LOCK)
    deck = ["3S", "JS", "3D", "Jk", "3H", "4S", "3C", "4H", "JH", "4D", "JD", "4C", "JC"]
    g = rulesdsl.load(str(f)).new_game(seed=1, dealer=1, deck=deck)
    g.apply("play 3S 3D")                                # a suit lock: the answer must be spades and diamonds
    assert "play JS Jk=JD" in _legal(g) and "play JS Jk=JH" not in _legal(g)
    assert g.refusal("play Jk=JD JS") is None            # the same play, written in another order
    assert "does not beat" in str(g.refusal("play JS Jk=JH"))


# ------------------------------------------------------------------ a shared win is named
def test_the_seats_sharing_a_win_are_named(tmp_path):
    f = tmp_path / "tie.yaml"
    f.write_text("""
name: Tie
players: 3
deck: {ranks: [A, 2], suits: [S, H, D]}
zones: {stock: {visible: none}, hand: {per: player, visible: owner}, discard: {visible: top}}
deal: [{deal: 1, to: hand}]
after_deal: [{when: 'true', ending: counted}]
turn: [{step: d, actions: [{discard: discard}]}]
scoring: {each_player: 'if player == 1 then 0 else 5'}
match: {ends_when: 'deal.number >= 1', on_tie: shared}
""")
    g = rulesdsl.load(str(f)).new_game(seed=1)
    assert g.is_over and g.scores == [5, 0, 5]
    assert g.winner is None and g.winners == [0, 2] and g.view(1)["winners"] == [0, 2]


# ------------------------------------------------------------------ `visible: team` on a player's zone
def test_a_per_player_zone_visible_to_the_team_is_seen_by_its_owner_and_partner_only(tmp_path):
    f = tmp_path / "team.yaml"
    f.write_text("""
name: TeamView
players: 4
teams: {count: 2}
deck: {ranks: [A, 2, 3], suits: [S, H, D, C]}
zones: {stock: {visible: none}, hand: {per: player, visible: team}, discard: {visible: top}}
deal: [{deal: 2, to: hand}]
turn: [{step: d, actions: [{discard: discard}]}]
stock_out: {when: "count(stock) == 0", result: score}
scoring: {each_team: '0'}
match: {ends_when: 'deal.number >= 1'}
""")
    g = rulesdsl.load(str(f)).new_game(seed=1)
    for seat in range(4):
        shown = [s for s in range(4) if "cards" in g.view(seat)["zones"]["hand"][s]]
        assert shown == sorted({seat, (seat + 2) % 4}), (seat, shown)    # partners sit opposite


def test_a_word_meant_as_text_is_named_as_such_in_the_dsl(tmp_path):
    """`when = "yes"` in the DSL is the expression `yes`: the message says it is a text, not a name, and
    how to write one, instead of guessing a name ("did you mean `players`?")."""
    text = ("name = P\nplayers = 2\ndeck { ranks = [A, 2, 3]\n  suits = [S, H] }\n"
            "zones { stock { visible = \"none\" }\n  hand { per = player\n    visible = owner }\n"
            "  discard { visible = top } }\ndeal = [{ deal = 2\n  to = hand }]\n"
            "turn = [{ step = d\n  actions = [{ discard = discard\n    when = \"yes\" }] }]\n"
            "scoring { each_player = \"0\" }\nmatch { ends_when = true }\n")
    (d,) = _refused(text, tmp_path, "y.rules")
    assert d.code == "E-UNDEFINED" and "is a text here, not a name" in d.message and d.pos.line == 13
    assert "players" not in d.hint and '"yes"' in d.hint


def test_a_dotted_card_name_compared_with_text_is_that_card(tmp_path):
    """`deal.upcard == "3H"` (a card a name's member holds) compares the card, as `card == "AS"` does;
    a card text the deck lacks is refused there too.  Catches the member case of the card typing lost."""
    src = """
name: Upcard
players: 2
deck: {ranks: [A, 2, 3], suits: [S, H]}
zones: {stock: {visible: none}, hand: {per: player, visible: owner}, discard: {visible: top}}
deal: [{deal: 2, to: hand}, {turn_up: discard, as: upcard}]
counters:
  upcard_is_3h: {on: [discard], add: 'if deal.upcard == "3H" then 1 else 0'}
turn: [{step: d, actions: [{discard: discard}]}]
stock_out: {when: "count(stock) == 0", result: score}
scoring: {each_player: "0"}
match: {ends_when: "deal.number >= 1"}
"""
    f = tmp_path / "u.yaml"
    f.write_text(src)
    deck = ["AS", "AH", "2S", "2H", "3H", "3S"]          # four dealt one at a time, then 3H turned up
    g = rulesdsl.load(str(f)).new_game(seed=1, dealer=0, deck=deck)
    assert g.view(0)["zones"]["discard"]["top"] == "3H"
    seat = g.current_player
    g.apply(g.legal_actions()[0])
    assert g.counters["upcard_is_3h"][seat] == 1
    (d,) = _refused(src.replace('"3H" then', '"3X" then'), tmp_path, "x.yaml")
    assert d.code == "E-TYPE" and '"3X" is compared with a card' in d.message


# ------------------------------------------------------------------ combinations the meld engine does not play
def test_group_melds_beside_a_run_type_on_the_table_are_refused_at_the_group():
    """The table's meld engine builds every new meld as a group once a group type exists, so a run type
    beside it would be played wrongly (a run taken for a group of its first rank): refused at load, at
    the group type's line, rather than played so.  Without a table (the arrangement search alone), or
    with groups alone, the same melds load."""
    with pytest.raises(RulesetError) as exc:
        _load("groups_beside_runs.yaml")
    (d,) = exc.value.diagnostics
    assert d.code == "E-UNSUPPORTED" and "group melds beside run or set melds" in d.message
    assert d.pos.line == 9
    src = (REPROS / "groups_beside_runs.yaml").read_text()
    alone = src.replace("  run: {kind: run, min: 3, order: [A, 2, 3, 4, 5, 6, 7, 8]}\n", "")
    assert rulesdsl.load("groups_alone.yaml", text=alone).model.table is not None


# ------------------------------------------------------------------ a hand that runs the stock dry
def test_a_turn_of_draws_alone_without_a_stock_out_is_refused_not_stopped_at_play():
    """The file validated, and random play stopped with no legal action once the stock was empty; now it
    is refused at the step (E-STOCK-OUT), and with a `stock_out` every random match plays to its end."""
    with pytest.raises(RulesetError) as exc:
        _load("draws_run_dry.yaml")
    (d,) = exc.value.diagnostics
    assert d.code == "E-STOCK-OUT" and d.pos.line == 15 and "no legal action" in d.message
    text = (REPROS / "draws_run_dry.yaml").read_text() + "stock_out: {when: count(stock) == 0, result: score}\n"
    rules = rulesdsl.load("dry.yaml", text=text)
    for seed in range(20):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize("result", ["score", "void", "reshuffle"])
def test_a_player_who_must_draw_from_an_empty_stock_ends_the_hand_whatever_stock_out_when_says(result):
    """A `stock_out.when` that does not hold on an empty stock (here it also asks for a long discard pile)
    left the player on turn with no legal action: the file validated and play stopped.  A step that
    offers only draws, from zones now empty, runs out of stock whatever `when` says: the hand ends by
    `stock_out.result` (scored as `stock`, void, or played on from a reshuffled discard pile)."""
    text = (REPROS / "draws_run_dry.yaml").read_text().replace("deal.number >= 1", "deal.number >= 3")
    text += f"stock_out: {{when: count(stock) == 0 and count(discard) > 100, result: {result}}}\n"
    rules = rulesdsl.load("dry.yaml", text=text)
    endings, reshuffled = set(), 0
    for seed in range(12):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            assert g.cards_in_play == 8
        endings |= {h.get("ending") for h in g.hand_log}
        reshuffled += g.reshuffles
    if result == "reshuffle":
        assert reshuffled > 0
    else:
        assert {"score": "stock", "void": "void"}[result] in endings


# ------------------------------------------------------------------ an initial minimum made of runs
def _runs_minimum_game(hand: list, drawn: str):
    """The repro's game with seat 1's hand stacked (seat 0 holds cards that meld with nothing of it)."""
    from conformance.play import dealt
    ranks = "A 2 3 4 5 6 7 8".split()
    seat0 = ["AH", "2H", "4H", "AD", "3D", "7D", "AC", "2C", "5C"]
    stack = dealt({1: hand, 0: seat0}, [r + s for s in "SHDC" for r in ranks], then=["4C", drawn, "6C", "7C"])
    g = _load("minimum_with_runs.yaml").new_game(seed=0, deck=stack, dealer=0)
    g.apply("draw stock")
    return g


def test_a_first_run_is_offered_only_where_other_runs_can_make_up_the_minimum():
    """Runs only, a minimum of 30.  Seat 1's run 6H 7H 8H (21) with three 8s (no meld: there is no group
    type) and junk: the run is not offered (it would leave a turn that can neither meld nor end; it was,
    and play stopped with E-PLAY).  With the runs 6H 7H 8H and 3S 4S 5S (12) instead, neither makes 30
    alone but together they make 33: both are offered (the look-ahead left runs out and refused them),
    and after one the other, and then the discard."""
    g = _runs_minimum_game(["6H", "7H", "8H", "8S", "8D", "8C", "AS", "2D", "3C"], "5D")
    assert [a for a in _legal(g) if not a.startswith("discard")] == []
    g = _runs_minimum_game(["6H", "7H", "8H", "3S", "4S", "5S", "8D", "2D", "3C"], "5D")
    assert sorted(a for a in _legal(g) if a.startswith("meld")) == ["meld 3S 4S 5S", "meld 6H 7H 8H"]
    g.apply("meld 3S 4S 5S")
    assert _legal(g) == ["meld 6H 7H 8H"]
    g.apply("meld 6H 7H 8H")
    assert all(a.startswith(("discard", "layoff")) for a in _legal(g)) and "discard 8D" in _legal(g)


def test_random_play_under_an_initial_minimum_of_runs_never_stops():
    """Every random match of the repro plays to its end: no meld is offered that leaves the minimum out
    of reach."""
    rules = _load("minimum_with_runs.yaml")
    for seed in range(30):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))


# ------------------------------------------------------------------ jokers that are not wild
def test_a_joker_that_is_not_wild_is_in_no_meld_and_play_goes_on():
    """Rummy 500 without its `wild:` line: its jokers are plain cards of no rank and no suit, so no meld
    holds one.  A discarded joker was judged for a claim of the pile as a meld it must be in, and play
    stopped with an IndexError (found by grafting and deleting keys); now every random match plays on."""
    from rulesdsl.source.resolve import find
    text = find("rummy_500").read_text().replace("wild: is_joker(card)", "")
    rules = rulesdsl.load("no_wild.yaml", text=text)
    assert not any(rules.program().wild)
    discarded = 0
    for seed in range(8):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.is_over:
                break
            acts = g.legal_actions()
            a = acts[rng.randrange(len(acts))]
            discarded += str(a) == "discard Jk"
            assert not (str(a).startswith(("meld", "layoff")) and "Jk" in str(a))
            g.apply(a)
    assert discarded > 0
