"""docs/play.md, "The screen": "each other player's hand and other own zones as sizes" -- on a seat's own
screen, every other seat has its line under "Players:", and the seat itself has none there (its own cards
are set out under "Your ...")."""

from __future__ import annotations

import pytest

pytest.importorskip("rich")

import rulesdsl  # noqa: E402
from rulesdsl.table import Table  # noqa: E402
from rulesdsl.table.terminal import CardStyle, seat_screen, to_text  # noqa: E402


@pytest.mark.parametrize("seat", [0, 2])
def test_the_players_section_lists_every_other_seat_with_its_sizes(seat):
    """Hearts, four seats, 13 cards each at the deal: seat `seat`'s screen lists the three others, each
    with `hand 13`, and not itself.  Catches rulesdsl/table/terminal.py `_others` skipping the wrong seat
    (`seat == hidden_from` -> `!=`): only the viewer's own line is left."""
    t = Table.new(rulesdsl.load("hearts"), ["human"] * 4, seed=3)
    view = t.view(seat)
    text = to_text(seat_screen(view, CardStyle.of(t.game), lambda s: t.name(s, seat), "Hearts", (),
                               who=t.name(seat)))
    section = text.split("Players:\n", 1)[1].split("\nYour ", 1)[0].splitlines()
    rows = [line.strip() for line in section if line.startswith("  ") and ": hand " in line]
    others = [s for s in range(4) if s != seat]
    assert [r.split(":")[0] for r in rows] == [t.name(s, seat) for s in others]
    assert all(": hand 13 " in r + " " for r in rows)
