"""``documents``: the marker a conformance test carries for each key or API promise it checks.

Keys are written as the JSON Schema paths of the YAML syntax (``rulesdsl schema``): sections and fields
joined by dots, ``*`` for a name of the author's choosing, ``[]`` for an item of a list
(``turn[].actions[].forbid``, ``tricks.won_to``, ``climbing.plays.*.distinct_suits``).  API promises
(``docs/api.md``) are written ``api:NAME``, from ``API_PROMISES`` below.
"""

from __future__ import annotations

import pytest

#: the promises of docs/api.md that conformance tests cover, by name
API_PROMISES = {
    "api:record": "a game's record (seed, ruleset digest, overrides, actions) is all it takes to replay it",
    "api:replay": "replaying a record gives the same positions, stacked decks included at every boundary",
    "api:stack_next": "a stacked deck is dealt by the next deal, and a record keeps where it was stacked",
    "api:clone": "a clone plays on independently and identically",
    "api:determinize": "a determinized world keeps what the seat saw and deals only what it did not",
    "api:view": "a view shows a seat what the visibility rules let it see, and nothing else",
    "api:log": "the table log names a card only to the seats that saw it",
    "api:winners": "the seats that share a win are named",
    "api:refusal": "a refused action names the rule that forbids it, where it is written, and leaves the game as it was",
}


def documents(*keys: str):
    """Marks a test as checking the documented behaviour of ``keys`` (schema paths or ``api:`` names)."""
    return pytest.mark.documents(*keys)
