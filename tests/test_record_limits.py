"""The size limits a record is checked against before it is replayed, at their exact bounds (docs/api.md,
"Serving players and rulesets from strangers": texts over 4,096 characters are refused)."""

from __future__ import annotations

import pytest

import rulesdsl
from rulesdsl.engine.record import RecordError, checked


@pytest.mark.parametrize("key", ["actions", "ruleset", "digest", "seed"])
def test_a_text_of_4096_characters_passes_the_check_and_one_more_is_refused(key):
    """Kills an off-by-one in `MAX_TEXT` (4,096 -> 4,097 lets a 4,097-character text through): the docs
    promise texts over 4,096 characters are refused, so 4,096 is the longest one checked through."""
    record = rulesdsl.load("gin_rummy").new_game(seed=3).record()

    def with_text(n: int) -> dict:
        return dict(record, **{key: ["x" * n] if key == "actions" else "x" * n})

    assert checked(with_text(4096))[key] == with_text(4096)[key]
    with pytest.raises(RecordError, match="4,096 characters"):
        checked(with_text(4097))
