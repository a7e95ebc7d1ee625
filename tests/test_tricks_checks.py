"""Load-time checks of the trick-taking constructs: each mistake is a located diagnostic with its code,
never a crash; a rule that goes wrong only in play is a located ``RuleEvaluationError``."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl import RulesetError
from rulesdsl.errors import RuleEvaluationError

PASS = "{to: 'seat_after(player, 1)', count: 3, cards: any, aside: passing}"


@pytest.mark.parametrize("base,body,code", [
    ("hearts", "tricks: {won_to: nowhere}", "E-UNKNOWN-ZONE"),
    ("hearts", "tricks: {to: hand}", "E-ZONE-KIND"),
    ("hearts", "tricks: {order: [2, 3, 4]}", "E-TRICKS"),
    ("hearts", "tricks: {order: [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A, Z]}", "E-UNKNOWN-RANK"),
    ("hearts", "deal: [{set_aside: '[\"ZZ\"]', to: stripped}, {deal: all, to: hand}]", "E-DEAL"),
    ("hearts", "deal: [{set_aside: '[\"2D\"]'}, {deal: all, to: hand}]", "E-MISSING"),
    ("hearts", "exchange: [{to: 'seat_after(player, 1)', giver: 1, count: 3, cards: any}]", "E-EXCHANGE"),
    ("hearts", "exchange: [{count: 3, cards: any}]", "E-EXCHANGE"),
    ("hearts", "exchange: [{to: 'seat_after(player, 1)', count: 3, cards: any, aside: trick}]", "E-ZONE-KIND"),
    ("president", "bidding: {min: 0}", "E-MISSING"),
    ("president", "tricks: {first_leader: dealer}", "E-TRICKS"),
    ("spades", "bidding: {calls: {Nil: {value: 0}}}", "E-BIDDING"),
    ("spades", "deal: [{draft: hand, discard_to: stripped, look: hand}, {deal: 1, to: hand}]", "E-DEAL"),
    ("spades", "deal: [{draft: hand}]", "E-MISSING"),
    ("spades", "deal: [{draft: hand, discard_to: hand, look: hand}]", "E-ZONE-KIND"),
    ("spades", "scoring: {totals: {bags: 'if trick.led == \"S\" then 1 else 0'}}", None),
    ("spades", "scoring: {totals: {bags: 'trick.led'}}", "E-TYPE"),          # a total is a number
])
def test_mistakes_are_located_diagnostics(tmp_path, base, body, code):
    f = tmp_path / "mine.yaml"
    f.write_text(f"extends: {base}\n{body}\n")
    if code is None:
        rulesdsl.load(f)                      # reading a trick name in a total loads (it is judged in play)
        return
    with pytest.raises(RulesetError) as err:
        rulesdsl.load(f)
    found = {d.code for d in err.value.diagnostics}
    assert code in found, str(err.value)
    assert "mine.yaml:" in str(err.value)


def test_a_trump_that_is_no_suit_stops_the_game_where_it_is_written(tmp_path):
    f = tmp_path / "mine.yaml"
    f.write_text("extends: hearts\ntricks: {trump: '\"X\"'}\nparams: {passing: false}\n")
    with pytest.raises(RuleEvaluationError) as err:
        rulesdsl.load(f).new_game(seed=1)
    assert "tricks.trump" in str(err.value) and "E-PLAY" in str(err.value)
