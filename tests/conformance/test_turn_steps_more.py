"""More of a turn's steps (docs/language.md, "`turn`: steps of choices"; docs/api.md, Errors: an
`IllegalAction`'s `.pos` is where the rule that forbids the action is written)."""

from __future__ import annotations

from conformance.keys import documents
from conformance.play import game, legal
from conformance.test_turn_steps import CARDS, text


def _line(ruleset: str, entry: str) -> int:
    """The line (1-based) of the ruleset text on which ``entry`` is written (once)."""
    lines = [i for i, l in enumerate(ruleset.splitlines(), 1) if l.strip() == entry]
    assert len(lines) == 1, lines
    return lines[0]


@documents("turn[].actions[].draw", "turn[].actions[].take")
def test_an_action_on_another_zone_than_its_step_names_is_refused_where_the_step_names_its_zone():
    """Kills: the "`draw` works on `stock` here, not `discard`" refusal dropped (drawing.explain falling
    back to the generic "not legal now", which points nowhere).

    The step offers `draw: stock` and `take: discard`; `draw discard` and `take stock` name zones the
    ruleset has, but not the ones this step works on: each is refused (the game unchanged), the refusal
    naming the zone the step works on and pointing (`.pos`) at the step's own entry for that verb."""
    t = text()
    g = game(t, deck=CARDS, dealer=0)
    for sent, entry, zone in [("draw discard", "- draw: stock", "stock"), ("take stock", "- take: discard", "discard")]:
        r = g.refusal(sent)
        assert r is not None
        assert r.pos is not None and r.pos.line == _line(t, entry), (sent, r.pos)
        assert f"`{zone}`" in r.detail, r.detail
    assert g.current_player == 1 and legal(g) == ["draw stock", "take discard"]
