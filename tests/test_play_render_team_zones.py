"""The terminal replay screen shows the zones a team shares (docs/play.md: a replay shows every seat's
cards and the table), checked on a position with a card in one."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("rich")

import rulesdsl  # noqa: E402
from rulesdsl.table import Table  # noqa: E402
from rulesdsl.table.terminal import CardStyle, replay_screen, to_text  # noqa: E402


def test_the_replay_screen_shows_each_teams_shared_zone_with_its_cards():
    """Kills: the team zones dropped from `replay_screen` (the seat screen keeps them, the replay lost
    them).  In Hand and Foot a red three is laid face up into its team's `red_threes` zone (HF-THREE-1),
    visible to all; seed 0's deal gives team 1 one.  The replay screen, built from every seat's view,
    names the zone for each team, and the card under team 1's."""
    rules = rulesdsl.load("hand_and_foot")
    table = Table.new(rules, ["greedy"] * rules.model.players.default, seed=0)
    views = [table.view(s) for s in range(table.game.n)]
    zones = views[0]["team_zones"]["red_threes"]
    laid = [(t, e["cards"]) for t, e in enumerate(zones) if e["cards"]]
    assert laid, "seed 0 lays a red three (the position this test is about)"
    text = to_text(replay_screen(views, CardStyle.of(table.game), table.name, "Hand and Foot", 0, 1, []))
    assert "Team zones:" in text
    for team, cards in laid:
        line = next(ln for ln in text.splitlines() if f"team {team + 1} red_threes:" in ln)
        assert set(cards) <= set(re.findall(r"[0-9AJQK]+[SHDC]", line))
    assert "team 2 red_threes:" in text                  # an empty team zone is named too
