"""The web table's server: a seat's socket gets only its own view, the token decides the seat, the
server refuses what is out of turn, illegal or malformed without changing the game, records are given
only when allowed, replays work, and the start page's API makes games with parameters and seats."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from web_helpers import need, receive_until, served

need("starlette")
need("httpx")

from starlette.websockets import WebSocketDisconnect  # noqa: E402

from rulesdsl.bots import make_bot  # noqa: E402
from rulesdsl.table import Table  # noqa: E402
from rulesdsl.web.lobby import Lobby  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def app():
    client, lobby = served()
    with client:
        yield client, lobby


def two_people(lobby, name="gin_rummy", seed=7, **overrides):
    return lobby.create(name, ["human", "human"], overrides or None, seed=seed)


def connect(client, room, seat):
    return client.websocket_connect(f"/ws?token={room.token_of(seat)}")


def test_a_seat_receives_only_its_own_view_and_log(app):
    client, lobby = app
    room = two_people(lobby)
    for seat in (0, 1):
        with connect(client, room, seat) as ws:
            state = ws.receive_json()
            assert state["type"] == "state" and state["seat"] == seat
            assert state["view"] == room.table.view(seat)
            assert state["log"] == room.table.log(seat)
            hands = state["view"]["zones"]["hand"]
            assert "cards" in hands[seat] and "cards" not in hands[1 - seat]
            assert state["names"][seat] == "you"
            assert "seed" not in json.dumps(state)


def test_the_state_says_which_seats_a_bot_plays(app):
    """docs/web.md, the state message: `bots` is, per seat, whether a bot plays it (the page marks those
    seats).  A person at seat 0 and a greedy bot at seat 1: [false, true]; two people: neither."""
    client, lobby = app
    room = lobby.create("gin_rummy", ["human", "greedy"], None, seed=7)
    with connect(client, room, 0) as ws:
        assert ws.receive_json()["bots"] == [False, True]
    with connect(client, two_people(lobby), 1) as ws:
        assert ws.receive_json()["bots"] == [False, False]


def test_a_token_that_opens_no_seat_is_refused(app):
    client, lobby = app
    room = two_people(lobby)
    token = room.token_of(0)
    altered = token[:-1] + ("x" if token[-1] != "x" else "y")       # one character off (never the same)
    for bad in ("nope", room.host, altered, ""):
        with client.websocket_connect(f"/ws?token={bad}") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and "no seat" in msg["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4403
    assert room.table.game.history == []


def test_an_action_from_the_seat_not_on_turn_is_refused(app):
    client, lobby = app
    room = two_people(lobby)
    on_turn = room.table.to_move
    other = 1 - on_turn
    legal = room.table.view(on_turn)["legal_actions"]
    with connect(client, room, other) as ws:
        ws.receive_json()
        for text in legal:                    # the very actions the seat on turn may make
            ws.send_json({"type": "act", "action": text})
            msg = ws.receive_json()
            assert msg["type"] == "refused" and msg["rule"] == "turn order"
    assert room.table.game.history == []


def test_the_message_cannot_choose_its_seat(app):
    client, lobby = app
    room = two_people(lobby)
    on_turn = room.table.to_move
    text = room.table.view(on_turn)["legal_actions"][0]
    with connect(client, room, 1 - on_turn) as ws:
        ws.receive_json()
        ws.send_json({"type": "act", "action": text, "seat": on_turn})
        assert ws.receive_json()["type"] == "error"
    assert room.table.game.history == []


MALFORMED = [
    "not json",
    "",
    "[1, 2]",
    "null",
    '"act"',
    "{}",
    '{"type": "act"}',
    '{"action": "pass"}',
    '{"type": "act", "action": 5}',
    '{"type": "act", "action": ["pass"]}',
    '{"type": "act", "action": null}',
    '{"type": "act", "action": ""}',
    '{"type": 1, "action": "pass"}',
    '{"type": "dance", "action": "pass"}',
    '{"type": "act", "action": "pass", "extra": 1}',
    '{"type": "act", "action": "' + "x" * 1200 + '"}',
    '{"type": "act", "action": "pass", "pad": "' + "x" * 5000 + '"}',
    "[" * 3000 + "]" * 3000,
]


def test_malformed_messages_are_refused_without_changing_the_game(app):
    client, lobby = app
    room = two_people(lobby)
    on_turn = room.table.to_move
    with connect(client, room, on_turn) as ws, connect(client, room, 1 - on_turn) as other:
        first = ws.receive_json()
        other.receive_json()
        for raw in MALFORMED:
            ws.send_text(raw)
            msg = ws.receive_json()
            assert msg["type"] == "error", raw[:60]
            assert room.table.game.history == []
        ws.send_bytes(b"\xff\xfe not utf-8")
        assert ws.receive_json()["type"] == "error"
        ws.send_bytes(b"x" * 5000)
        assert ws.receive_json()["type"] == "error"
        ws.send_bytes(b'{"type": "sync"}')          # a message may come as bytes (UTF-8 JSON) too
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "sync"})             # the socket still works, the game is as it was
        again = ws.receive_json()
        assert again["view"] == first["view"] and again["version"] == 0
        other.send_json({"type": "sync"})          # the errors went to the sender alone
        assert other.receive_json()["type"] == "state"
    assert room.table.game.history == []


def test_an_illegal_action_is_refused_to_that_seat_with_its_rule(app):
    client, lobby = app
    room = two_people(lobby)
    on_turn = room.table.to_move
    with connect(client, room, on_turn) as ws, connect(client, room, 1 - on_turn) as other:
        ws.receive_json()
        other.receive_json()
        ws.send_json({"type": "act", "action": "discard ZZ"})
        msg = ws.receive_json()
        assert msg["type"] == "refused" and msg["rule"] and "ZZ" in msg["message"]
        ws.send_json({"type": "act", "action": room.table.view(on_turn)["legal_actions"][0]})
        mine = ws.receive_json()
        theirs = other.receive_json()             # the refusal went to the sender alone
        assert mine["type"] == theirs["type"] == "state" and mine["version"] == theirs["version"] == 1
    assert len(room.table.game.history) == 1


def test_a_page_that_reconnects_finds_its_game_again(app):
    client, lobby = app
    room = two_people(lobby)
    seat = room.table.to_move
    with connect(client, room, seat) as ws:
        ws.receive_json()
        ws.send_json({"type": "act", "action": room.table.view(seat)["legal_actions"][0]})
        before = receive_until(ws, lambda m: m["type"] == "state")
    with connect(client, room, seat) as ws:
        after = ws.receive_json()
    assert after["game"] == before["game"] == room.id
    assert after["version"] == before["version"] == 1
    assert after["view"] == before["view"] and after["log"] == before["log"]


def test_bots_move_on_the_server_until_a_person_is_on_turn(app):
    client, lobby = app
    room = lobby.create("president", ["human", "greedy", "greedy", "greedy"], seed=3)
    with connect(client, room, 0) as ws:
        state = receive_until(ws, lambda m: m["type"] == "state" and (
            m["view"]["current_player"] == 0 or m["view"]["is_over"]))
        assert state["view"]["legal_actions"] or state["view"]["is_over"]
        assert state["version"] == len(room.table.game.history)
        assert all(e.seat != 0 for e in room.table.events)


def finish(room, seed=1):
    """Play the room's game to its end on the server (each seat by a greedy bot)."""
    bots = [make_bot("greedy", seed=seed + s) for s in range(room.table.game.n)]
    while not room.table.game.is_over:
        seat = room.table.to_move
        room.act(seat, bots[seat].choose(room.table.game))


def test_the_record_is_given_only_once_the_game_is_over_or_to_the_host(app):
    client, lobby = app
    room = two_people(lobby, target_score=10)
    url = f"/api/{room.id}/record"
    assert client.get(url, params={"token": room.token_of(0)}).status_code == 403
    assert client.get(url, params={"token": "guess"}).status_code == 403
    assert client.get(url).status_code == 403
    assert client.get("/api/nosuchgame/record", params={"token": room.host}).status_code == 404
    by_host = client.get(url, params={"token": room.host})
    assert by_host.status_code == 200 and by_host.json()["seed"] == 7
    finish(room)
    for seat in (0, 1):
        got = client.get(url, params={"token": room.token_of(seat)})
        assert got.status_code == 200
        record = got.json()
        assert record["actions"] == room.table.game.history
        assert Table.load(record).game.is_over
    other = two_people(lobby, seed=8)               # a token of one game opens no other game's record
    assert client.get(f"/api/{other.id}/record", params={"token": room.token_of(0)}).status_code == 403


def test_a_replay_steps_through_the_record_showing_every_seat(app):
    client, lobby = app
    room = two_people(lobby, target_score=10)
    finish(room)
    record = room.table.save()
    opened = client.post("/api/replays", json={"record": record})
    assert opened.status_code == 200, opened.text
    key, steps = opened.json()["replay"], opened.json()["steps"]
    assert steps == len(record["actions"])
    start = client.get(f"/api/replays/{key}/0").json()
    assert start["step"] == 0 and start["action"] is None
    for seat, view in enumerate(start["views"]):          # every seat's own hand is shown
        assert len(view["zones"]["hand"][seat]["cards"]) == 10
    for step in (1, 2, steps // 2, steps):
        pos = client.get(f"/api/replays/{key}/{step}").json()
        prefix = dict(record, actions=record["actions"][:step])
        table = Table.load(prefix)
        assert pos["action"] == record["actions"][step - 1]
        assert pos["views"] == [table.view(s) for s in range(2)]
        assert pos["log"] == table.log(None)[-len(pos["log"]):]
    assert client.get(f"/api/replays/{key}/{steps + 5}").json()["step"] == steps
    assert client.get("/api/replays/nosuch/0").status_code == 404


def test_a_replay_of_a_game_here_follows_the_same_rule_as_its_record(app):
    client, lobby = app
    room = two_people(lobby)
    assert client.post("/api/replays", json={"game": room.id, "token": room.token_of(0)}).status_code == 400
    assert client.post("/api/replays", json={"game": room.id, "token": room.host}).status_code == 200


def test_an_uploaded_record_cannot_name_a_file_or_a_bot_module(app, tmp_path):
    client, lobby = app
    room = two_people(lobby, target_score=10)
    finish(room)
    record = room.table.save()
    bad = dict(record, ruleset=str(tmp_path / "x.yaml"))
    (tmp_path / "x.yaml").write_text("extends: gin_rummy\n")
    assert client.post("/api/replays", json={"record": bad}).status_code == 400
    sneaky = dict(record, table={"seats": ["human", "os:system"], "bot_options": {}, "bot_seed": 0})
    opened = client.post("/api/replays", json={"record": sneaky})
    assert opened.status_code == 200 and opened.json()["names"] == ["seat 1", "seat 2"]
    assert client.post("/api/replays", json={"record": {"format": "nope"}}).status_code == 400
    assert client.post("/api/replays", content=b"not json").status_code == 400
    changed = dict(record, actions=record["actions"][:3] + ["discard ZZ"])
    assert client.post("/api/replays", json={"record": changed}).status_code == 400


def test_the_start_page_api_makes_a_game_with_parameters_and_seats(app):
    client, lobby = app
    listed = client.get("/api/rulesets").json()
    from rulesdsl.rules import bundled_listing
    assert [(r["name"], r["title"]) for r in listed["rulesets"]] == bundled_listing()
    form = client.get("/api/ruleset", params={"name": "president"}).json()
    assert {p["name"]: p["default"] for p in form["params"]}["target_score"] == 10
    hearts = client.get("/api/ruleset", params={"name": "hearts"}).json()
    declared = lobby.rules("hearts").model.params
    assert {p["name"]: p["doc"] for p in hearts["params"]} == {k: v.doc or "" for k, v in declared.items()}
    assert any(p["doc"] for p in hearts["params"])                   # each parameter's own words
    assert form["players"] == {"min": 4, "max": 7, "default": 5}
    made = client.post("/api/games", json={"ruleset": "president", "params": {"target_score": 3, "scoring": True},
                                           "seats": ["human", "greedy", "human", "random"]})
    assert made.status_code == 200, made.text
    body = made.json()
    room = lobby.games[body["game"]]
    assert room.rules.params["target_score"] == 3 and room.rules.overrides == {"target_score": 3}
    assert room.table.seats == ["human", "greedy", "human", "random"]
    links = [s["link"] for s in body["seats"]]
    assert links[1] is None and links[3] is None
    for seat in (0, 2):
        token = links[seat].rsplit("/t/", 1)[1]
        assert lobby.seat_of(token) == (room, seat)
        assert client.get(f"/t/{token}").status_code == 200
        assert client.get(f"/table/{room.id}", params={"token": token}).status_code == 200
    assert client.get(f"/api/{room.id}/record", params={"token": body["host"]}).status_code == 200
    variant = client.get("/api/ruleset", params={"name": "variants/oklahoma_gin"})
    assert variant.status_code == 200


def test_another_sites_form_cannot_make_a_game(app):
    client, lobby = app
    body = json.dumps({"ruleset": "president", "params": {}, "seats": ["human"] * 4})
    for kind in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"Content-Type": kind} if kind else {}
        assert client.post("/api/games", content=body, headers=headers).status_code == 400
    assert not lobby.games


@pytest.mark.parametrize("body, says", [
    ({"ruleset": "president", "params": {"target_scor": 3}, "seats": ["human"] * 4}, "no parameter"),
    ({"ruleset": "president", "params": {"target_score": "lots"}, "seats": ["human"] * 4}, "target_score"),
    ({"ruleset": "president", "params": {}, "seats": ["human", "os:system", "human", "human"]}, "a seat is"),
    ({"ruleset": "president", "params": {}, "seats": ["human"] * 2}, "players"),
    ({"ruleset": "../../etc/passwd", "params": {}, "seats": ["human"] * 2}, "no game"),
    ({"ruleset": "president", "params": [], "seats": ["human"] * 4}, "params"),
])
def test_the_start_page_api_refuses_bad_games(app, body, says):
    client, lobby = app
    got = client.post("/api/games", json=body)
    assert got.status_code in (400, 404) and says in got.json()["error"]
    assert not lobby.games


def test_pages_are_served_offline_with_no_game_names():
    static = ROOT / "rulesdsl" / "web" / "static"
    text = " ".join(p.read_text().lower() for p in static.iterdir())
    for word in ("gin", "president", "rummy", "hand.and.foot", "big.two", "crazy.eight", "https?://", "cdn"):
        assert not re.search(rf"\b{word}", text), word


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_cli(*args, **kw):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "rulesdsl.cli.main", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kw)


def test_serve_prints_a_link_per_person_and_serves_the_table():
    import httpx

    proc = run_cli("serve", "gin_rummy", "--port", "0", "--seats", "human,human", "--bot-delay", "0")
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        seats = [ln.split(": ", 1)[1].strip() for ln in lines if ln.startswith("seat ")]
        assert len(seats) == 2 and seats[0] != seats[1]
        assert "record?token=" in lines[3]
        page = httpx.get(seats[0], timeout=10)
        assert page.status_code == 200 and "table.js" in page.text
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_errors_are_one_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        proc = run_cli("serve", "gin_rummy", "--port", str(port))
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and err.startswith("error: cannot listen") and "Traceback" not in err
    proc = run_cli("serve", "gin_rummy", "--seats", "human,nosuchbot", "--port", "0")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and "Traceback" not in err and "nosuchbot" in err


def test_serve_without_the_web_extra_says_how_to_install_it():
    code = ("import sys; sys.modules['uvicorn'] = None; sys.modules['starlette'] = None; "
            "from rulesdsl.cli.main import main; main(['serve', 'gin_rummy'])")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: the web table needs the web extra: pip install 'rulesdsl[web]'"


def test_serve_seats_fill_bot_seats_from_bots():
    import click

    from rulesdsl.cli.serve import _seat_specs

    assert _seat_specs("human,bot,bot,random", "ismcts,greedy", None) == ["human", "ismcts", "greedy", "random"]
    assert _seat_specs(None, "greedy", 3) == ["human", "greedy", "greedy"]
    assert _seat_specs("human, human", "greedy", 2) == ["human", "human"]
    with pytest.raises(click.BadParameter):
        _seat_specs("human,bot", "greedy", 3)
    with pytest.raises(click.BadParameter):
        _seat_specs("human,,bot", "greedy", None)


def test_a_served_file_is_offered_beside_the_bundled_games(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("extends: gin_rummy\nparams: {knock_limit: 5}\n")
    client, lobby = served(Lobby(served=str(house), served_overrides={"target_score": 50}))
    with client:
        names = [r["name"] for r in client.get("/api/rulesets").json()["rulesets"]]
        assert names[0] == str(house) and "gin_rummy" in names
        form = client.get("/api/ruleset", params={"name": str(house)}).json()
        defaults = {p["name"]: p["default"] for p in form["params"]}
        assert defaults["knock_limit"] == 5 and defaults["target_score"] == 50
        made = client.post("/api/games", json={"ruleset": str(house), "params": {}, "seats": ["human", "greedy"]})
        room = lobby.games[made.json()["game"]]
        assert room.rules.params["knock_limit"] == 5 and room.rules.params["target_score"] == 50
        other = tmp_path / "other.yaml"
        other.write_text("extends: gin_rummy\n")
        assert client.get("/api/ruleset", params={"name": str(other)}).status_code == 404


def test_the_page_ships_with_the_package_and_loads_nothing_from_elsewhere():
    static = ROOT / "rulesdsl" / "web" / "static"
    text = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'"rulesdsl\.web" = \["static/\*"\]', text)
    assert all(p.is_file() for p in static.iterdir())          # "static/*" does not reach into folders
    page = (static / "index.html").read_text()
    refs = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert refs and all(r.startswith(("/static/", "data:", "/")) and "//" not in r for r in refs), refs
    for ref in refs:
        if ref.startswith("/static/"):
            assert (static / ref[len("/static/"):]).is_file(), ref
