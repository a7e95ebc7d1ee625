"""docs/web.md and docs/api.md ("Serving players"): the web table sends each seat its own view and its
own log (`table.log(seat)`: a card only where that seat saw it), and "the server also refuses an action
from a seat that is not on turn before asking the game": its own refusal, `rule` "turn order", names the
seat on turn as people count seats (from 1), and the game is unchanged.  Driven without a browser, over
Starlette's TestClient (tests/web_helpers.py)."""

from __future__ import annotations

import pytest

from rulesdsl.table import Table
from conformance.keys import documents
from web_helpers import need, receive_until, served

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


@pytest.fixture
def app():
    need("starlette")
    need("httpx")
    client, lobby = served()
    with client:
        yield client, lobby


def connect(client, room, seat):
    return client.websocket_connect(f"/ws?token={room.token_of(seat)}")


def _room_with_on_turn(lobby, seat: int):
    """A two-person Gin Rummy room in which ``seat`` is on turn (the first of a few fixed seeds)."""
    for seed in range(1, 40):
        room = lobby.create("gin_rummy", ["human", "human"], None, seed=seed)
        if room.table.to_move == seat:
            return room
    raise AssertionError(f"no seed puts seat {seat} on turn")


@pytest.mark.parametrize("on_turn", [0, 1])
@documents("api:log", "api:view")
def test_a_move_out_of_turn_is_refused_by_the_table_in_its_own_words(app, on_turn):
    """A seat not on turn sending even a legal move of the seat on turn is refused with "it is not your
    turn: seat N is to move" (N counted from 1), rule "turn order", to the sender alone; the game, its
    views and its log are unchanged."""
    client, lobby = app
    room = _room_with_on_turn(lobby, on_turn)
    other = 1 - on_turn
    text = room.table.view(on_turn)["legal_actions"][0]
    before = [room.table.view(s) for s in (0, 1)], [room.table.log(s) for s in (0, 1)]
    with connect(client, room, other) as ws:
        state = ws.receive_json()
        assert state["type"] == "state" and state["view"] == room.table.view(other)
        assert state["view"]["legal_actions"] == []
        ws.send_json({"type": "act", "action": text})
        msg = ws.receive_json()
    assert msg == {"type": "refused", "message": f"it is not your turn: seat {on_turn + 1} is to move",
                   "rule": "turn order"}
    assert room.table.game.history == []
    assert ([room.table.view(s) for s in (0, 1)], [room.table.log(s) for s in (0, 1)]) == before


@documents("api:log", "api:view")
def test_each_socket_gets_its_own_log_with_the_knock_discard_hidden_from_the_opponent(app):
    """Through the sockets: after seat 2 (index 1) takes the upcard and knocks face down, seat 1's
    state carries its own view (the discard's top face down, the knocker's hand shown) and its own
    log, which tells the knock as "discarding a card"; the knocker's names the card."""
    client, lobby = app
    room = lobby.create("gin_rummy", ["human", "human"], None, seed=5)
    s1 = ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", "9D", "KC"]
    s0 = ["10S", "JH", "QD", "2D", "4C", "6C", "8C", "10C", "QC", "5S"]
    deck = [c for pair in zip(s1, s0) for c in pair] + ["2C"]
    deck += [c for c in (r + s for s in "SHDC" for r in RANKS) if c not in deck]
    # the room's table, set again with a game of its rules on a stacked deck, dealer 0 (seat 1 first)
    room.table = Table(room.rules.new_game(seed=0, dealer=0, deck=deck), ["human", "human"])
    with connect(client, room, 1) as knocker, connect(client, room, 0) as other:
        knocker.receive_json()
        other.receive_json()
        knocker.send_json({"type": "act", "action": "take discard"})
        receive_until(other, lambda m: m["type"] == "state" and m["version"] == 1)
        knocker.send_json({"type": "act", "action": "knock KC"})
        theirs = receive_until(other, lambda m: m["type"] == "state" and m["version"] == 2)
        mine = receive_until(knocker, lambda m: m["type"] == "state" and m["version"] == 2)
    assert theirs["log"] == ["Seat 2 takes the discard.", "Seat 2 knocks, discarding a card."]
    assert mine["log"] == ["You take the discard.", "You knock, discarding KC."]
    assert theirs["view"]["zones"]["discard"] == {"count": 1, "top_face_down": True}
    assert "KC" not in str(theirs)
