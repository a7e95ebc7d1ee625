"""Tests that kill survivors of the eighth mutation-testing round (helper c: mechanics, partnership,
encoding, table, web): internal promises, each stated in the module that makes it, and each docstring
names the code mistake it catches."""

from __future__ import annotations

import pytest

from conformance.play import rules
from conformance.test_climbing_tricks import cl, text


def _climbing(beats: str, params: str = "{}"):
    """The compiled `climbing` section of a two-player game of singles and pairs with this `beats`."""
    r = rules(text(cl("sizes: [1, 2]\nfirst_leader: dealer", "beats: " + beats), extra="params: " + params))
    return r.new_game(seed=0).prog.climbing


@pytest.mark.parametrize("beats,params,same", [
    ("play.size == last.size and play.rank > last.rank", "{}", True),
    ("play.rank > last.rank and play.size == last.size", "{}", True),
    ("play.rank > last.rank and play.rank > 0", "{}", False),
    ("play.size == last.size or play.rank > last.rank", "{}", False),
    ("play.size == last.size and play.rank > last.rank or last.size == play.size", "{}", True),
    ("params.any or play.size == last.size and play.rank > last.rank", "{any: false}", True),
    ("params.any or play.size == last.size and play.rank > last.rank", "{any: true}", False),
])
def test_beats_that_needs_the_same_size_lists_only_that_size(beats, params, same):
    """mechanics/climbing/compile.py: ``same_size`` says whether `beats` can hold only when `play.size ==
    last.size` with the parameters in force (then the phase lists only plays of the last play's size, the
    hot loop's shortcut, and a hand past the 4,000-candidate cap is enumerated for that size alone).  An
    `and` needs it of either side, an `or` of both; a parameter folds its branch away.  Catches `_same_size`
    reading the wrong side of an `and` (`a[0]` -> `a[-1]`): `play.size == last.size and ...` then loses the
    shortcut."""
    assert _climbing(beats, params).same_size is same
