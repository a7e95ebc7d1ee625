"""Conformance: the names bidding adds to expressions (docs/language.md, the names table: `bid(seat)`,
`bid_call(seat)`) take exactly one argument, a seat; any other count is refused at load."""

from __future__ import annotations

import pytest

from conformance.keys import documents
from conformance.play import refusal
from conformance.test_bidding_auction import ruleset


@documents("bidding.calls")
@pytest.mark.parametrize("call", ['bid_call(player, 1) == ""', 'bid_call() == ""', "bid(player, 1) > 0",
                                  "bid() > 0"])
def test_bid_and_bid_call_take_one_seat_and_no_more(call):
    """`bid(seat)` and `bid_call(seat)` read one seat's bid: called with none or two arguments, the
    ruleset is refused (`E-ARITY`, naming the builtin and the count).  Catches either builtin's arity
    widened to accept a second argument."""
    name = call.split("(")[0]
    out = refusal(ruleset("  min: 1\n  calls:\n    nil: {}\n", scoring=f"  each_player: 'if {call} then 1 else 0'\n"))
    got = 2 if ", 1" in call else 0
    assert f"error[E-ARITY]: `{name}` takes 1 argument(s), got {got}" in out, out
