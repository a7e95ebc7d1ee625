"""Books that stay open past their size (issue 10, item 6): `table.books_stay_open`."""

from __future__ import annotations

import random

import rulesdsl


def _wild(card: str) -> bool:
    face = card.split("=")[0]
    return face == "Jk" or face[:-1] == "2"


def _rank(card: str) -> str:
    return card.split("=")[-1][:-1] if "=" in card else card[:-1]


def _type(cards) -> str:
    w = sum(1 for c in cards if _wild(c))
    return "clean" if w == 0 else ("dirty" if w < len(cards) else "wild")


def _check(view):
    seen = set()
    for m in view["melds"]:
        if m["kind"] == "group":
            key = (m["owner"], _rank(next(c for c in m["cards"] if not _wild(c))))
            assert key not in seen, f"a second meld of a rank while the first is on the table: {key}"
            seen.add(key)
        if len(m["cards"]) >= 7:
            assert m.get("book") == _type(m["cards"]), m            # judged again as cards join
        else:
            assert "book" not in m


def test_books_keep_taking_cards_and_are_judged_again():
    rules = rulesdsl.load("variants/hand_and_foot_open_books")
    grown = 0
    for seed in range(8):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(2500):
            if g.is_over:
                break
            acts = g.legal_actions()
            a = acts[rng.randrange(len(acts))]
            books = {i + 1 for i, m in enumerate(g.view(0)["melds"]) if "book" in m}
            hand = g.hand_number
            g.apply(a)
            if a.verb == "layoff" and a.target in books and g.hand_number == hand:
                grown += 1
            _check(g.view(0))
    assert grown > 0


def test_in_the_base_game_a_book_takes_no_more_cards():
    rules = rulesdsl.load("hand_and_foot")
    for seed in range(4):
        g = rules.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(2500):
            if g.is_over:
                break
            books = {i + 1 for i, m in enumerate(g.view(0)["melds"]) if "book" in m}
            for a in g.legal_actions():
                assert not (a.verb == "layoff" and a.target in books)
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
