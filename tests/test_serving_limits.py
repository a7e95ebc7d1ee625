"""Safe to serve (docs/web.md "Limits", docs/api.md "Serving players, and rulesets from strangers"): what a
client, a record, a ruleset or a file from someone else may cost the server, and that every malformed
request is a 4xx with ``{"error": ...}``, never a 500."""

from __future__ import annotations

import asyncio
import json
import math

import pytest

import rulesdsl
from rulesdsl.rules import rules_for
from rulesdsl.engine.record import MAX_ACTIONS, Positions, RecordError, checked
from rulesdsl.table import Table, TableError
from web_helpers import need, served

need("starlette")
need("httpx")

from rulesdsl.web import app as web_app, replays  # noqa: E402


@pytest.fixture
def app():
    client, lobby = served()
    with client:
        yield client, lobby


def finished_record(lobby, target=10, seed=7):
    room = lobby.create("gin_rummy", ["greedy", "greedy"], {"target_score": target}, seed=seed)
    room.table.run_bots()
    assert room.table.game.is_over
    return room.table.save()


# ------------------------------------------------------------------ uploaded records: memory

def test_an_uploaded_record_with_a_field_no_record_has_is_refused(app):
    client, lobby = app
    record = finished_record(lobby)
    padded = dict(record, padding=[[] for _ in range(1000)])
    got = client.post("/api/replays", json={"record": padded})
    assert got.status_code == 400 and "padding" in got.json()["error"]
    inner = dict(record, table=dict(record["table"], extra=[1] * 100))
    got = client.post("/api/replays", json={"record": inner})
    assert got.status_code == 400 and "table" in got.json()["error"]
    stack = dict(record, stacks=[{"before": 0, "deck": [], "junk": [0] * 10}])
    assert client.post("/api/replays", json={"record": stack}).status_code == 400
    assert not lobby.replays


def test_a_kept_replay_holds_only_the_checked_fields(app):
    client, lobby = app
    record = finished_record(lobby)
    opened = client.post("/api/replays", json={"record": record})
    assert opened.status_code == 200, opened.text
    kept = lobby.replays[opened.json()["replay"]].record
    assert set(kept) == set(rulesdsl.engine.record.FIELDS)
    assert kept["actions"] == record["actions"] and kept["actions"] is not record["actions"]


def test_checked_copies_every_list_and_refuses_what_a_record_never_holds():
    rules = rulesdsl.load("gin_rummy", overrides={"target_score": 10})
    game = rules.new_game(seed=3)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    record = game.record()
    copy = checked(record)
    assert copy == record
    for key in ("overrides", "decks", "stacks", "actions"):                # copies, not the lists sent
        assert copy[key] is not record[key]
    for bad in (dict(record, players=10 ** 6), dict(record, actions=["x" * 5000]), dict(record, decks=[[1, 2]]),
                dict(record, decks=[["AS"] * 3000]), dict(record, decks="AS"),
                dict(record, seed=1 << 2000), dict(record, stacks=[{"before": 99, "deck": []}]),
                dict(record, extra=1)):
        with pytest.raises(RecordError):
            checked(bad)
    with pytest.raises(RecordError, match="at most"):
        checked(dict(record, actions=["pass"] * (MAX_ACTIONS + 1)))


def test_several_decks_stacked_at_once_replay():
    """`stack_next` stacks several hands in order, so a record may stack more decks than it has actions."""
    rules = rulesdsl.load("crazy_eights")
    game = rules.new_game(seed=2)
    for seed in (5, 6, 7):
        game.stack_next(_full_deck(game, seed))
    game.apply(game.legal_actions()[0])
    record = game.record()
    assert len(record["stacks"]) == 3 > len(record["actions"])
    again = rulesdsl.replay(checked(record))
    assert again.view(0) == game.view(0) and again.record() == record


# ------------------------------------------------------------------ uploaded records: CPU

def test_a_record_longer_than_the_server_replays_is_refused(app, monkeypatch):
    client, lobby = app
    record = finished_record(lobby, target=30)
    n = len(record["actions"])
    monkeypatch.setattr(replays, "MAX_REPLAY_ACTIONS", n - 1)
    got = client.post("/api/replays", json={"record": record})
    assert got.status_code == 400 and f"at most {n - 1:,}" in got.json()["error"]
    monkeypatch.setattr(replays, "MAX_REPLAY_ACTIONS", n)
    assert client.post("/api/replays", json={"record": record}).status_code == 200


def test_a_position_replays_at_most_the_actions_since_a_kept_copy():
    lobby = served()[1]
    record = finished_record(lobby, target=60)
    n = len(record["actions"])
    positions = Positions(record, rules_for(record), most_kept=4)
    assert positions.every >= n / 4 and len(positions.kept) == 1
    positions.at(n)
    assert len(positions.kept) <= 5
    applied = []

    def count(game, text):
        applied.append(text)
        game.apply(text)

    for k in (n, n // 2, 1, 0, n - 1):
        applied.clear()
        got = positions.at(k, apply=count)
        assert len(applied) < positions.every
        want = rulesdsl.replay(dict(record, actions=record["actions"][:k]))
        assert [got.view(s) for s in range(2)] == [want.view(s) for s in range(2)]
    applied.clear()
    positions.at(n, earliest=n - 40, apply=count)
    assert 40 <= len(applied) < 40 + positions.every             # the log's actions are replayed


def test_positions_stack_each_deck_where_the_record_stacked_it():
    """A deck stacked in the middle of a hand is for the hand after it: a replayer that stacked every
    deck at the start would deal it to the hand in progress's successor too early (and draw its shuffle
    from another random state)."""
    rules = rulesdsl.load("crazy_eights")
    game = rules.new_game(seed=3)
    mid = None
    while game.hand_number < 3 and not game.is_over:
        if game.hand_number == 2 and mid is None and len(game.history) > 0:
            mid = len(game.history)
            game.stack_next(_full_deck(game, seed=11))
        game.apply(game.legal_actions()[0])
    record = game.record()
    assert record["stacks"] and record["stacks"][0]["before"] == mid > 0
    positions = Positions(record, rules_for(record))
    for k in (len(record["actions"]), mid, mid + 1, mid - 1):
        want = rulesdsl.replay(dict(record, actions=record["actions"][:k],
                                    stacks=[s for s in record["stacks"] if s["before"] <= k]))
        assert [positions.at(k).view(s) for s in range(game.n)] == [want.view(s) for s in range(game.n)]


def _full_deck(game, seed):
    import random
    cards = list(game.prog.cards.text)
    random.Random(seed).shuffle(cards)
    return cards


def at_once(tables, key: str, n: int) -> list:
    """The answers to ``n`` requests for positions 0..n-1 of replay ``key``, all sent at once."""
    from starlette.requests import Request

    async def many():
        calls = []
        for step in range(n):
            scope = {"type": "http", "method": "GET", "path": f"/api/replays/{key}/{step}", "headers": [],
                     "path_params": {"key": key, "step": str(step)}, "query_string": b""}
            calls.append(tables.replay_step(Request(scope)))
        return await asyncio.gather(*calls)

    return asyncio.run(many())


def test_at_most_a_few_replays_are_built_at_once(app, monkeypatch):
    client, lobby = app
    record = finished_record(lobby)
    key = client.post("/api/replays", json={"record": record}).json()["replay"]
    running, most = [0], [0]
    real = web_app.position

    def slow(replay, step):
        running[0] += 1
        most[0] = max(most[0], running[0])
        import time
        time.sleep(0.05)
        running[0] -= 1
        return real(replay, step)

    monkeypatch.setattr(web_app, "position", slow)
    answers = at_once(client.app.state.tables, key, 8)
    assert all(a.status_code == 200 for a in answers)
    assert most[0] == replays.REPLAY_THREADS


def test_past_the_waiting_bound_a_replay_request_is_told_the_server_is_busy(app, monkeypatch):
    client, lobby = app
    record = finished_record(lobby)
    key = client.post("/api/replays", json={"record": record}).json()["replay"]
    real = web_app.position

    def slow(replay, step):
        import time
        time.sleep(0.2)
        return real(replay, step)

    monkeypatch.setattr(web_app, "position", slow)
    monkeypatch.setattr(web_app, "MAX_REPLAYS_WAITING", 1)
    tables = client.app.state.tables
    codes = sorted(a.status_code for a in at_once(tables, key, 6))
    assert codes == [200] * (replays.REPLAY_THREADS + 1) + [503] * (5 - replays.REPLAY_THREADS)
    assert tables._replays_waiting == 0
    assert client.get(f"/api/replays/{key}/1").status_code == 200     # and later requests are served


def test_an_uploaded_record_sets_only_the_games_parameters(app):
    """A record's `overrides` may set the game's declared parameters only: a dotted path would rewrite
    the rules it is replayed under (inject derived functions, change `stock_out.when`)."""
    client, lobby = app
    for overrides in ({"stock_out.when": "count(stock) <= 3"}, {"derived.f(x)": "x + x"},
                      {"params.knock_limit": 5}):
        try:
            rules = rulesdsl.load("gin_rummy", overrides=overrides)
        except rulesdsl.RulesetError:
            continue
        game = rules.new_game(seed=4)
        for _ in range(3):
            game.apply(game.legal_actions()[0])
        got = client.post("/api/replays", json={"record": game.record()})
        assert got.status_code == 400 and "no parameter of this game" in got.json()["error"], got.text
    game = rulesdsl.load("gin_rummy", overrides={"knock_limit": 5}).new_game(seed=4)
    game.apply(game.legal_actions()[0])
    assert client.post("/api/replays", json={"record": game.record()}).status_code == 200


# ------------------------------------------------------------------ no 500s

def test_malformed_requests_are_4xx_with_an_error(app):
    client, lobby = app
    room = lobby.create("gin_rummy", ["human", "human"], seed=7)
    for token in ("é" * 10, "\u202e", "x" * 5000):
        got = client.get(f"/api/{room.id}/record", params={"token": token})
        assert got.status_code == 403 and "error" in got.json()
        got = client.post("/api/replays", json={"game": room.id, "token": token})
        assert got.status_code == 400 and "error" in got.json()
    deep = b"[" * 100_000 + b"]" * 100_000
    for path in ("/api/replays", "/api/games"):
        got = client.post(path, content=deep, headers={"content-type": "application/json"})
        assert got.status_code == 400 and "error" in got.json()
    record = finished_record(lobby)
    key = client.post("/api/replays", json={"record": record}).json()["replay"]
    for step in ("9" * 5000, "-1", "1e3", "１"):
        got = client.get(f"/api/replays/{key}/{step}")
        assert got.status_code == 404 and "error" in got.json()


# ------------------------------------------------------------------ parameter values, on every path

FRACTIONAL = """
name: fractional
players: 2
params: {rate: {default: 1.5, doc: a parameter that takes fractions}}
deck: {ranks: [A, 2, 3], suits: [S, H]}
zones:
  stock: {visible: none}
  discard: {visible: top}
  hand: {per: player, visible: owner}
deal: [{deal: 2, to: hand}]
turn:
  - step: play
    actions: [{discard: discard}]
scoring: {each_player: 'params.rate * count(player.hand)'}
match: {ends_when: deal.number >= 1, on_tie: shared}
"""


@pytest.mark.parametrize("value", [10 ** 18, -10 ** 18, 1e308, -1e308, math.inf, -math.inf, math.nan])
def test_an_override_that_is_no_finite_number_within_bounds_is_refused_on_every_path(app, value, tmp_path):
    """One check for every path: a parameter that takes fractions (where the whole-number rule does not
    apply) still refuses a number past 10^15 or not finite, from `load`, the start page (JSON's own
    `NaN` and `Infinity` included) and an uploaded record's overrides."""
    client, lobby = app
    with pytest.raises(rulesdsl.RulesetError) as refused:
        rulesdsl.load("fractional.yaml", text=FRACTIONAL, overrides={"rate": value})
    assert {d.code for d in refused.value.diagnostics} == {"E-NUMBER"}
    served_file = tmp_path / "fractional.yaml"
    served_file.write_text(FRACTIONAL)
    from rulesdsl.web.lobby import Lobby
    from web_helpers import served as serve_lobby
    other, lobby2 = serve_lobby(Lobby(served=str(served_file)))
    with other:
        body = json.dumps({"ruleset": str(served_file), "params": {"rate": value}, "seats": ["human", "human"]})
        got = other.post("/api/games", content=body.encode(), headers={"content-type": "application/json"})
        assert got.status_code == 400 and "error" in got.json(), got.text
        game = rulesdsl.load(str(served_file)).new_game(seed=1)
        record = dict(game.record(), overrides={"rate": value})
        got = other.post("/api/replays", content=json.dumps({"record": record}).encode(),
                         headers={"content-type": "application/json"})
        assert got.status_code == 400 and "error" in got.json(), got.text
    assert rulesdsl.load("fractional.yaml", text=FRACTIONAL, overrides={"rate": 2.25}).params["rate"] == 2.25


def test_the_start_page_refuses_a_number_for_a_true_false_parameter(app):
    client, lobby = app
    form = client.get("/api/ruleset", params={"name": "gin_rummy"}).json()
    flag = next(p for p in form["params"] if isinstance(p["default"], bool))
    for value in (int(flag["default"]), float(flag["default"])):
        got = client.post("/api/games", json={"ruleset": "gin_rummy", "params": {flag["name"]: value},
                                               "seats": ["human", "greedy"]})
        assert got.status_code == 400 and flag["name"] in got.json()["error"], got.text


def test_a_message_never_carries_a_number_json_cannot_hold():
    sent = []

    class Socket:
        async def send_text(self, text):
            sent.append(text)

    asyncio.run(web_app._send(Socket(), {"type": "state", "scores": [1, -math.inf]}))
    msg = json.loads(sent[0])
    assert msg["type"] == "error" and "finite" in msg["message"]
    asyncio.run(web_app._send(Socket(), {"type": "state", "scores": [1, 2]}))
    assert json.loads(sent[1]) == {"type": "state", "scores": [1, 2]}


# ------------------------------------------------------------------ saved files

def test_a_saved_table_builds_only_bundled_bots_unless_allowed():
    rules = rulesdsl.load("gin_rummy")
    saved = Table.new(rules, ["human", "greedy"], seed=1).save()
    for spec in ("this:s", "os:system", "rulesdsl.bots.greedy:GreedyBot"):
        with pytest.raises(TableError, match="not a bundled bot"):
            Table.load(dict(saved, table=dict(saved["table"], seats=["human", spec])))
    allowed = Table.load(dict(saved, table=dict(saved["table"], seats=["human", "rulesdsl.bots.greedy:GreedyBot"])),
                         allow_bots=["rulesdsl.bots.greedy:GreedyBot"])
    assert allowed.seats[1] == "rulesdsl.bots.greedy:GreedyBot" and 1 in allowed.bots


@pytest.mark.parametrize("options", [{"iterations": 10 ** 12}, {"seconds": 1e9}, {"iterations": 0},
                                     {"iterations": True}, {"rollout": "smart"}, {"import": "os"}, []])
def test_bot_options_from_a_file_are_bounded(options):
    rules = rulesdsl.load("gin_rummy")
    saved = Table.new(rules, ["human", "ismcts"], seed=1, bot_options={"iterations": 10}).save()
    with pytest.raises(TableError):
        Table.load(dict(saved, table=dict(saved["table"], bot_options=options)))
    assert Table.load(saved).bots[1].iterations == 10


def test_the_game_the_command_line_made_is_never_forgotten_for_new_ones(monkeypatch):
    from rulesdsl.web import lobby as lobby_module

    monkeypatch.setattr(lobby_module, "MAX_GAMES", 3)
    lobby = lobby_module.Lobby()
    served_room = lobby.create("gin_rummy", ["human", "greedy"], trusted=True)
    made = [lobby.create("gin_rummy", ["human", "greedy"]) for _ in range(5)]
    assert served_room.id in lobby.games and lobby.seat_of(served_room.token_of(0)) == (served_room, 0)
    assert len(lobby.games) == 3 and [r.id for r in made[-2:]] == list(lobby.games)[1:]
    assert lobby.seat_of(made[0].token_of(0)) is None                 # an old one's links open nothing


def test_the_game_library_faces_refuse_the_same_values():
    """The OpenSpiel and PettingZoo parameters reach the same one check as `load(overrides=...)`."""
    pyspiel = need("pyspiel")
    need("pettingzoo")
    import rulesdsl.openspiel as ros
    from rulesdsl.pettingzoo import env

    with pytest.raises(Exception, match="E-NUMBER|too large"):
        ros.load_game("hearts", target_score=10 ** 18)
    with pytest.raises(Exception, match="E-NUMBER|too large"):
        pyspiel.load_game("rulesdsl", {"ruleset": "hearts", "set": f"target_score={10 ** 18}"})
    with pytest.raises(rulesdsl.RulesetError) as refused:
        env("hearts", target_score=10 ** 18)
    assert {d.code for d in refused.value.diagnostics} == {"E-NUMBER"}
