"""No message a seat's socket receives ever names a card that seat has not seen.

Every bundled game is played through the websocket protocol, every seat a person with its own socket,
for its whole first deal (each seat's moves chosen by a greedy bot, sent as text by that seat's
socket).  After every action each socket receives its state; every card text written anywhere in it
(view, log, hand end, names) must be one the seat has seen: now, at an earlier message, or in an
action it was shown (``Event.shown``).  With two decks, a text is allowed as soon as one copy was seen.
"""

from __future__ import annotations

import pytest

from web_helpers import card_words, need, served

need("starlette")

from rulesdsl.bots import make_bot  # noqa: E402
from rulesdsl.engine.visibility import seen_by  # noqa: E402

GAMES = ["gin_rummy", "president", "rummy_500", "hand_and_foot", "big_two", "crazy_eights", "contract_rummy",
         "hearts", "spades"]
#: a first deal longer than this many actions is cut there (none is, with these seeds)
ACTION_LIMIT = 600


class Watcher:
    """What each seat has seen so far, and the check of one message against it."""

    def __init__(self, table):
        self.table = table
        game = table.game
        self.deck = set(game.prog.cards.text)
        self.seen = [set() for _ in range(game.n)]
        self.events = 0

    def update(self):
        game = self.table.game
        text = game.prog.cards.text
        new = self.table.events[self.events:]
        self.events = len(self.table.events)
        for seat in range(game.n):
            self.seen[seat] |= {text[c] for c in seen_by(game, seat)}
            for event in new:
                self.seen[seat] |= {c.partition("=")[0] for c in event.shown[seat]}

    def check(self, seat: int, msg: dict) -> None:
        assert msg["type"] == "state" and msg["seat"] == seat
        content = {k: v for k, v in msg.items() if k != "game"}     # the game's id is no content
        named = card_words(content, self.deck)
        leaked = named - self.seen[seat]
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} (version {msg['version']})"


@pytest.mark.parametrize("name", GAMES)
def test_no_socket_is_sent_another_seats_hidden_cards(name):
    client, lobby = served()
    with client:
        rules = lobby.rules(name)
        n = rules.model.players.default
        room = lobby.create(name, ["human"] * n, seed=20 + n)
        table = room.table
        watcher = Watcher(table)
        bots = [make_bot("greedy", seed=s) for s in range(n)]
        sockets = [client.websocket_connect(f"/ws?token={room.token_of(s)}") for s in range(n)]
        conns = [s.__enter__() for s in sockets]
        try:
            watcher.update()
            for seat, ws in enumerate(conns):
                watcher.check(seat, ws.receive_json())
            actions = 0
            while table.game.hand_number == 1 and not table.game.is_over and actions < ACTION_LIMIT:
                seat = table.to_move
                conns[seat].send_json({"type": "act", "action": str(bots[seat].choose(table.game))})
                actions += 1
                messages = [ws.receive_json() for ws in conns]
                watcher.update()
                for s, msg in enumerate(messages):
                    assert msg["version"] == actions
                    watcher.check(s, msg)
            assert table.game.hand_number > 1 or table.game.is_over, "the first deal did not end"
            assert any(msg["hand_end"] for msg in messages)
        finally:
            for s in sockets:
                s.__exit__(None, None, None)
