"""Queries on a side's own melds and taking the pile onto them (issue 10, item 5): `fits_own(card)`,
`meld_size(side, rank)`, and `meld_with` with a count of 0 (the top card goes down alone, onto a meld)."""

from __future__ import annotations

import random
from pathlib import Path

import rulesdsl

BUNDLED = Path(rulesdsl.__file__).resolve().parent.parent / "rulesets"


def _rank(card: str) -> str:
    return card.split("=")[-1][:-1] if "=" in card else card[:-1]


def test_meld_size_reads_the_largest_meld_of_a_rank_a_side_owns(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {BUNDLED / 'rummy_500.yaml'}\n"
                    "scoring:\n  each_player: 'meld_size(player, \"7\") * 100 + meld_size(player, \"K\")'\n"
                    "match:\n  ends_when: deal.number >= 1\n  on_tie: shared\n")
    rules = rulesdsl.load(path)
    checked = 0
    for seed in range(40):
        g = rules.new_game(players=3, seed=seed)
        rng = random.Random(seed)
        before = None
        while not g.is_over:
            before = g.view(0)
            acts = g.legal_actions()
            a = acts[rng.randrange(len(acts))]
            g.apply(a)
            last = a
        if last.verb != "discard":
            continue                               # the last action changed the melds: judge another
        sevens = [max([len(m["cards"]) for m in before["melds"] if m["owner"] == s and m.get("kind") == "set"
                       and {_rank(c) for c in m["cards"]} == {"7"}] or [0]) for s in range(3)]
        kings = [max([len(m["cards"]) for m in before["melds"] if m["owner"] == s and m.get("kind") == "set"
                      and {_rank(c) for c in m["cards"]} == {"K"}] or [0]) for s in range(3)]
        assert g.scores == [a * 100 + b for a, b in zip(sevens, kings)], seed
        checked += 1 if any(sevens) or any(kings) else 0
    assert checked > 0


def test_the_pile_is_taken_by_adding_its_top_card_to_a_meld_of_the_side():
    rules = rulesdsl.load("variants/hand_and_foot_pile_onto_own_meld")
    seen = 0
    for seed in range(8):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(2500):
            if g.is_over:
                break
            seat = g.current_player
            acts = g.legal_actions()
            if "take discard" in [str(a) for a in acts]:
                v = g.view(seat)
                top = v["zones"]["discard"]["top"]
                team = [t for t, members in enumerate(v["teams"]) if seat in members][0]
                hand = v["zones"]["hand"][seat]["cards"]
                pairs = sum(1 for c in hand if _rank(c) == _rank(top))
                own = [i + 1 for i, m in enumerate(v["melds"]) if m["owner"] == team and "book" not in m
                       and m.get("kind") == "group" and {_rank(c) for c in m["cards"]} >= {_rank(top)}]
                if pairs < 2 and top[:-1] not in ("2",) and top != "Jk" and own:
                    g.apply("take discard")             # only the new rule allows this take
                    laid = [str(a) for a in g.legal_actions() if a.verb == "layoff" and a.cards[0] == top]
                    assert laid and all(a.target in own for a in g.legal_actions()
                                        if a.verb == "layoff" and a.cards[0] == top)
                    seen += 1
                    continue
            g.apply(acts[rng.randrange(len(acts))])
    assert seen > 0
