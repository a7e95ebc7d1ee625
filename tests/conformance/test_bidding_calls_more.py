"""Conformance: refusals in the auction name the rule that forbids them (docs/api.md: an
`IllegalAction`'s `.rule` "names the rule that forbids the action"; docs/language.md, "bidding": a number
is judged by `allowed`, a call is offered "while its `when` holds")."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import game, legal
from conformance.test_bidding_auction import bids, ruleset, stacked


@documents("bidding.calls.*.when", "bidding.calls.*.blind")
def test_a_call_refused_to_a_seat_that_has_looked_names_bidding_calls():
    """Seat 2 has a blind call open, looks, and may then bid numbers or `nil` (blind calls are made
    "before looking at the hand"): `bid blind_nil` is now refused by the calls' rule, not by `allowed`
    (which judges numbers only), and a refused number still names `allowed`.  Catches a refused call
    blamed on `bidding.allowed` (bidding/phase.py `explain` blamed the calls only for seats that had not
    looked: `if g.actor in g.unlooked and action.verb == "bid" ...`, fixed with this test; its mutant
    `in` -> `not in` went unnoticed)."""
    text = ruleset("  calls:\n    blind_nil: {blind: true, when: player == 2}\n    nil: {when: player == 1}\n")
    g = game(text, deck=stacked(), dealer=0)
    g.apply("bid 1")                                     # seat 1
    assert g.current_player == 2 and sorted(legal(g)) == ["bid blind_nil", "look"]
    g.apply("look")
    assert sorted(legal(g)) == sorted(bids(0, 1, 2, 3))   # `nil` is seat 1's only; blind_nil is gone
    for call in ("bid blind_nil", "bid nil"):
        refused = g.refusal(call)
        assert refused is not None and refused.rule == "bidding.calls", (call, refused and refused.rule)
    assert g.refusal("bid 7").rule == "bidding.allowed"
    assert g.current_player == 2 and g.view(0)["bids"] == [None, 1, None]
