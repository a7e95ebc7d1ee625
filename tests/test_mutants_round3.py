"""Tests that kill the third mutation-testing round's survivors (and the rounds after it): each checks
documented behaviour (docs/language.md, docs/api.md, docs/encoding.md) and its docstring names the
code mistake it catches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesdsl.encoding.setup import encode

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _documented_shapes() -> list:
    """(piece names, shapes) of each row of docs/encoding.md's observation table that gives shapes."""
    text = (DOCS / "encoding.md").read_text()
    table = text.split("## The observation tensor", 1)[1].split("\n\n")[2]
    rows = []
    for line in table.splitlines()[2:]:
        _, names, shapes, _what, _ = line.split("|")
        names = re.findall(r"`([^`]+)`", names)
        shapes = re.findall(r"\(([^()]*)\)", shapes)
        if shapes:
            rows.append((names, [tuple(p.strip() for p in s.split(",") if p.strip()) for s in shapes]))
    return rows


def _size(symbol: str, enc, pieces: dict) -> int:
    """A documented dimension's value for one encoding: numbers, K, n, teams, sides, suits+1, and the
    sizes a ruleset's own bounds fix (M melds, calls, names), read off the one piece that defines them."""
    sizes = {"K": len(enc.prog.cards.kind_text), "n": enc.players, "sides": enc.sides,
             "suits+1": len(enc.rules.model.deck.suits) + 1}
    if symbol.isdigit():
        return int(symbol)
    if symbol == "teams":
        return enc.rules.new_game(seed=0).teams
    if symbol == "M":
        return pieces["melds"][0]
    if symbol == "calls":
        return pieces["bids.calls"][1]
    if symbol == "names":
        return pieces["tricks.broken"][0]
    return sizes[symbol]


@pytest.mark.parametrize("name", ["gin_rummy", "hand_and_foot", "spades", "president"])
def test_every_observation_piece_has_the_shape_docs_encoding_md_gives(name):
    """docs/encoding.md's observation table gives each piece's shape (`table.Z.count` is (1,), a seat
    piece (n, K), ...).  Catches a piece laid out with another shape than documented (e.g. observation.py
    `table.{z}.count` (1,) -> (2,))."""
    enc = encode(name)
    pieces = dict(enc.observation.pieces)
    checked = 0
    for names, shapes in _documented_shapes():
        for i, pattern in enumerate(names):
            shape = shapes[i] if len(shapes) == len(names) else shapes[0]
            rx = re.compile("^" + re.escape(pattern).replace("Z", "[a-z_0-9]+") + "$")
            for piece, got in pieces.items():
                if rx.match(piece):
                    assert got == tuple(_size(s, enc, pieces) for s in shape), (piece, got, shape)
                    checked += 1
    assert checked >= 12


def test_the_climbing_memo_of_plays_stays_within_its_bound(monkeypatch):
    """docs/language.md, "What the engine guarantees": bounded work and memory for every ruleset.  The
    climbing phase remembers the combinations of the hands it has seen; past ``MEMO_LIMIT`` entries it
    forgets them.  Catches the clearing dropped (climbing.py `if len(memo) > self.MEMO_LIMIT: memo.clear()`):
    the memo then grows with every hand seen."""
    import random

    import rulesdsl
    from rulesdsl.mechanics.climbing.phase import ClimbPhase

    monkeypatch.setattr(ClimbPhase, "MEMO_LIMIT", 5)
    game = rulesdsl.load("president").new_game(seed=1)
    memo = game.phases["climb"]._memo
    rng, most = random.Random(1), 0
    for _ in range(600):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
        most = max(most, len(memo))
    assert 5 < most <= 5 + 20                     # one search adds a few entries past the bound at most


def test_a_trick_games_view_shows_the_trick_once_trick_play_is_under_way():
    """docs/api.md, views: trick-taking games add `trick` -- while trick play is under way, not during the
    bidding before it.  Catches tricks.py's view test for the first trick's number made wrong
    (`g.t_number == 1` -> `== 2`): the bidding's view then shows an empty trick."""
    import random

    import rulesdsl

    game = rulesdsl.load("spades").new_game(seed=1)
    rng = random.Random(1)
    assert game.phase == "bid"
    while not game.is_over and game.phase == "bid":
        assert "trick" not in game.view(0) and "trick" not in game.view(game.current_player)
        game.apply(rng.choice(game.legal_actions()))
    assert game.phase == "tricks" and game.view(0)["trick"]["number"] == 1
    game.apply(rng.choice(game.legal_actions()))
    assert game.view(1)["trick"]["plays"] == [{"seat": game.view(1)["trick"]["leader"], "card": game.history[-1].split()[1]}]


def test_a_stock_whose_top_alone_shows_hides_the_cards_under_it_from_determinize():
    """docs/api.md, determinize: every card the seat cannot see is dealt again.  A stock whose top card
    alone shows (`visible: top`): the cards under it were never seen, so other worlds deal them
    otherwise.  Catches visibility.py treating the top two of such a zone as shown (`len(cards) - 1` ->
    `len(cards) - 2`): the second card would then be remembered and kept in every world."""
    import random

    from conformance.play import game

    text = """
    name: open_stock
    players: 2
    deck: {ranks: [A, 2, 3, 4, 5, 6], suits: [S, H]}
    zones:
      stock: {visible: top}
      discard: {visible: top}
      hand: {per: player, visible: owner}
    deal: [{deal: 2, to: hand}]
    turn:
      - step: draw
        actions: [{draw: stock}]
      - step: finish
        actions: [{discard: discard}]
    stock_out: {when: count(stock) <= 1, result: score}
    scoring: {each_player: '0'}
    match: {ends_when: deal.number >= 1, on_tie: shared}
    """
    deck = ["AS", "2S", "3S", "4S", "5S", "6S", "AH", "2H", "3H", "4H", "5H", "6H"]
    g = game(text, deck=deck, dealer=0)
    real = g.view(0)["zones"]["stock"]
    assert real == {"count": 8, "top": "5S"}
    rng = random.Random(0)
    second = set()
    for _ in range(40):
        world = g.determinize(0, rng)
        assert world.view(0)["zones"]["stock"] == real                 # what seat 0 sees is the same
        world.apply("draw stock")                                       # the top: 5S, as seat 0 saw it
        second.add(world.view(1)["zones"]["stock"]["top"])              # the card under it
    assert len(second) > 1
