"""More of a turn's steps (docs/language.md, "`turn`: steps of choices"; docs/api.md, Errors: an
`IllegalAction`'s `.pos` is where the rule that forbids the action is written)."""

from __future__ import annotations

import pytest

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


@documents("turn[].actions[].draw", "turn[].actions[].take", "turn[].actions[].discard")
@pytest.mark.parametrize("verb", ["draw", "take", "discard"])
def test_a_step_action_naming_an_undeclared_zone_is_refused_at_it(verb):
    """Each of `draw:`, `take:` and `discard:` names a declared table zone; a name that is not one is
    `E-UNKNOWN-ZONE` at the action, saying which verb named it, with "did you mean"."""
    from conformance.test_setup_game import text as mini
    from conformance.play import refusal
    t = mini().replace("      - discard: discard", "      - discard: discard\n      - take: discard")
    out = refusal(t.replace(f"- {verb}: {'stock' if verb == 'draw' else 'discard'}", f"- {verb}: pile_x", 1))
    assert f"error[E-UNKNOWN-ZONE]: `{verb}` names zone `pile_x`, which is not declared" in out, out
    # an empty name names no zone (it once loaded, and play stopped with a KeyError at the first draw)
    out = refusal(t.replace(f"- {verb}: {'stock' if verb == 'draw' else 'discard'}", f'- {verb}: ""', 1))
    assert f"error[E-UNKNOWN-ZONE]: `{verb}` names no zone (its name is empty)" in out, out


@documents("turn[].actions[].go_out")
def test_a_step_naming_an_undeclared_go_out_is_refused_with_a_suggestion_or_the_declared_ones():
    """`go_out:` in a step names a go-out declared under `go_out:`; another name is `E-UNKNOWN-GO-OUT` at the
    action, hinting the near one ("did you mean") or, when none is near, the declared ones."""
    from pathlib import Path
    from conformance.play import refusal
    src = (Path(__file__).parents[1] / "repros" / "draws_run_dry.yaml").read_text()
    src += "stock_out: {when: count(stock) == 0, result: score}\n"
    out = refusal(src.replace("{go_out: gin}]", "{go_out: gni}]"))
    assert "error[E-UNKNOWN-GO-OUT]: `go_out: gni` is not declared under `go_out:`" in out
    assert "did you mean `gin`?" in out
    out = refusal(src.replace("{go_out: gin}]", "{go_out: zzzzzz}]"))
    assert "hint: declared: gin" in out, out
