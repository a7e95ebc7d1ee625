"""The web table in a real browser: headless Chromium (Debian's) driven by Playwright, against the real
server (uvicorn in a thread, bots with no delay).  Whole hands are played by clicking the page, one
browser context per person; a page cannot act for another seat; the start page makes a game with
parameters and seats; a replay steps.  Screenshots go to tests/artifacts/ (not committed)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
from pathlib import Path

import pytest

from web_helpers import need

need("starlette")
need("uvicorn")
need("playwright")

import uvicorn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from rulesdsl.bots import make_bot  # noqa: E402
from rulesdsl.web.app import create_app  # noqa: E402
from rulesdsl.web.lobby import Lobby  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: how long one page may take to show what an action changed (ms); a wait, never a sleep
WAIT = 15_000
#: how often a wait looks again (ms): a page in a background window gets few animation frames
POLL = 20


def chromium_path() -> str:
    path = os.environ.get("RULESDSL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        if os.environ.get("CI"):
            pytest.fail("Chromium is needed for the browser tests (apt-get install chromium)")
        pytest.skip("no Chromium here")
    return path


@pytest.fixture(scope="module")
def server():
    """The real server on a free port of 127.0.0.1: (base url, lobby)."""
    lobby = Lobby()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    config = uvicorn.Config(create_app(lobby, bot_delay=0), log_level="warning", ws_max_size=64 * 1024)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    started = threading.Event()
    for _ in range(1000):
        if srv.started:
            started.set()
            break
        thread.join(0.01)
    assert started.is_set(), "the server did not start"
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", lobby
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_seats(browser, base, room, seats):
    """One browser context (a person) per seat, each on its seat's link, shown once connected."""
    pages = []
    for seat in seats:
        page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
        errors = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.errors = errors
        page.goto(f"{base}/t/{room.token_of(seat)}")
        page.wait_for_function("document.body.dataset.version !== '-1'", timeout=WAIT)
        pages.append(page)
    return pages


def wait_version(pages, version):
    for page in pages:
        page.wait_for_function(f"document.body.dataset.version === '{version}'", timeout=WAIT, polling=POLL)


def play_by_clicking(pages, room, choose, shots, limit=400):
    """The page of the seat on turn (page i is seat i) clicks what ``choose`` picks until the first
    hand has ended; then every page shows its result.  A page is read only once it has the latest
    state (its ``data-version``), and must itself say it is on turn."""
    version = len(room.table.game.history)
    for n in range(limit):
        if room.table.game.hand_number > 1 or room.table.game.is_over:
            wait_version(pages, version)
            for page in pages:
                page.wait_for_selector("#result[data-hand='1']", timeout=WAIT)
            return n
        page = pages[room.table.to_move]
        wait_version([page], version)
        assert page.evaluate("document.body.dataset.myturn") == "1"
        assert page.inner_text("#turn") == "your turn"
        if n in shots:
            page.screenshot(path=str(ARTIFACTS / shots[n]), full_page=True)
        choose(page)
        version += 1
        wait_version([page], version)            # the server has done it: its state came back
    raise AssertionError("the hand did not end by clicking")


def buttons(page):
    return page.eval_on_selector_all("#actions button.action", "bs => bs.map((b) => b.dataset.action)")


def test_a_whole_two_player_hand_is_played_by_clicking(server, browser):
    base, lobby = server
    room = lobby.create("gin_rummy", ["human", "human"], seed=41)
    pages = open_seats(browser, base, room, [0, 1])
    advice = [make_bot("greedy", seed=s) for s in range(2)]     # which button a fair player would press

    def choose(page):
        want = str(advice[room.table.to_move].choose(room.table.game))
        assert want in buttons(page)
        if want.startswith("discard "):      # select the card in hand, then the button that matches it
            card = want.split()[1]
            page.click(f"#hand .card[data-card='{card}']")
            assert page.query_selector(f"#actions button.match[data-action='discard {card}']")
            page.click(f"#selection button.compose[data-action='discard {card}']")
        else:
            page.click(f"#actions button[data-action='{want}']")

    clicks = play_by_clicking(pages, room, choose, {6: "two-seats-mid-hand.png"})
    assert clicks > 10 and room.table.game.hand_number == 2
    for seat, page in enumerate(pages):
        page.screenshot(path=str(ARTIFACTS / f"two-seats-result-seat{seat + 1}.png"), full_page=True)
        text = page.inner_text("#result")
        assert "Hand 1" in text and "ended" in text
        hand = room.table.view(seat)["zones"]["hand"][seat]["cards"]
        shown = [c.get_attribute("data-card") for c in page.query_selector_all("#hand .card")]
        assert sorted(shown) == sorted(hand)          # the page shows this seat's hand, nothing else
        other = room.table.view(seat)["zones"]["hand"][1 - seat]
        face_up = page.query_selector_all(f".seat-box[data-seat='{1 - seat}'] .card:not(.back)")
        assert len(face_up) == len(other.get("cards", []))
        assert not page.errors
    version = pages[0].evaluate("document.body.dataset.version")
    pages[0].reload()                                 # a page that reloads finds its game as it was
    pages[0].wait_for_function(f"document.body.dataset.version === '{version}'", timeout=WAIT)
    assert "Hand 1" in pages[0].inner_text("#result")


def test_a_whole_four_person_climbing_deal_is_played_by_clicking(server, browser):
    base, lobby = server
    room = lobby.create("president", ["human"] * 4, seed=43)
    pages = open_seats(browser, base, room, range(4))

    def choose(page):
        actions = buttons(page)
        plays = sorted((a for a in actions if a != "pass"), key=lambda a: -len(a.split()))   # shed fast
        page.click(f"#actions button[data-action='{(plays or actions)[0]}']")

    clicks = play_by_clicking(pages, room, choose, {10: "four-seats-mid-deal.png"})
    assert clicks > 10
    for page in pages:
        assert "Hand 1" in page.inner_text("#result")
        assert page.query_selector_all("#result ol.order li")       # the finishing order
        assert not page.errors
    pages[0].screenshot(path=str(ARTIFACTS / "four-seats-result.png"), full_page=True)
    entry = room.table.game.hand_log[0]
    names = [li.inner_text() for li in pages[0].query_selector_all("#result ol.order li")]
    assert len(names) == len(entry["order"])


def test_a_page_cannot_act_for_another_seat(server, browser):
    base, lobby = server
    room = lobby.create("gin_rummy", ["human", "human"], seed=45)
    waiting = 1 - room.table.to_move
    page = open_seats(browser, base, room, [waiting])[0]
    assert page.get_attribute("body", "data-myturn") == "0"
    assert not page.query_selector_all("#actions button.action")
    legal = room.table.view(room.table.to_move)["legal_actions"]
    replies = page.evaluate("""([token, action, seat]) => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
        const got = [];
        ws.onmessage = (e) => {
            got.push(JSON.parse(e.data));
            if (got.length === 1) ws.send(JSON.stringify({type: "act", action}));
            else if (got.length === 2) ws.send(JSON.stringify({type: "act", action, seat}));
            else { ws.close(); done(got); }
        };
    })""", [room.token_of(waiting), legal[0], 1 - waiting])
    assert replies[1]["type"] == "refused" and replies[1]["rule"] == "turn order"
    assert replies[2]["type"] == "error"
    forged = page.evaluate("""(token) => new Promise((done) => {
        const ws = new WebSocket(`ws://${location.host}/ws?token=${token}`);
        ws.onmessage = (e) => done(JSON.parse(e.data));
    })""", room.token_of(waiting)[:-2] + "zz")
    assert forged["type"] == "error"
    page.evaluate("""(action) => {                  // the page's own form, hidden off turn: send anyway
        document.getElementById('action-text').value = action;
        document.getElementById('free-action').requestSubmit();
    }""", legal[0])
    page.wait_for_selector("#message:not([hidden])", timeout=WAIT)
    assert "not your turn" in page.inner_text("#message")
    assert room.table.game.history == []


def test_the_start_page_makes_a_game_with_parameters_and_seats(server, browser):
    base, lobby = server
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(base + "/")
    page.wait_for_selector("#params [data-param]", timeout=WAIT)
    page.select_option("#ruleset", "president")
    page.wait_for_selector("#params [data-param='revolution']", timeout=WAIT)
    page.wait_for_function("document.getElementById('players').value === '5'", timeout=WAIT)
    page.fill("#players", "4")
    page.dispatch_event("#players", "change")
    page.wait_for_function("document.querySelectorAll('#seats select').length === 4", timeout=WAIT)
    page.fill("#params [data-param='target_score']", "3")
    page.select_option("#seats select[data-seat='1']", "human")
    page.select_option("#seats select[data-seat='2']", "random")
    page.select_option("#seats select[data-seat='3']", "greedy")
    before = set(lobby.games)
    page.click("#create")
    page.wait_for_selector("#links a.seat-link", timeout=WAIT)
    page.screenshot(path=str(ARTIFACTS / "start-page.png"), full_page=True)
    (game,) = set(lobby.games) - before
    room = lobby.games[game]
    assert room.rules.params["target_score"] == 3 and room.table.seats == ["human", "human", "random", "greedy"]
    links = [a.get_attribute("href") for a in page.query_selector_all("#links a.seat-link")]
    assert links == [f"{base}/t/{room.token_of(0)}", f"{base}/t/{room.token_of(1)}"]
    page.goto(links[1])
    page.wait_for_function("document.body.dataset.version !== '-1'", timeout=WAIT)
    assert page.inner_text("#me-name").startswith("You (seat 2)")


def test_a_replay_steps_through_a_game(server, browser):
    base, lobby = server
    room = lobby.create("gin_rummy", ["human", "human"], seed=47)
    for _ in range(3):
        seat = room.table.to_move
        room.act(seat, room.table.view(seat)["legal_actions"][0])
    page = browser.new_context(viewport={"width": 1280, "height": 860}).new_page()
    page.goto(f"{base}/replay?game={room.id}&token={room.host}")
    page.wait_for_function("document.body.dataset.step === '0'", timeout=WAIT)
    steps = len(room.table.game.history)
    page.click("#r-last")
    page.wait_for_function(f"document.body.dataset.step === '{steps}'", timeout=WAIT)
    page.click("#r-back")
    page.wait_for_function(f"document.body.dataset.step === '{steps - 1}'", timeout=WAIT)
    for seat in (0, 1):                               # every seat's hand is shown in a replay
        assert page.query_selector_all(f"#r-seats .seat-box[data-seat='{seat}'] .card:not(.back)")
    page.screenshot(path=str(ARTIFACTS / "replay.png"), full_page=True)
    other = browser.new_context().new_page()          # a seat's token opens no replay mid-game
    other.goto(f"{base}/replay?game={room.id}&token={room.token_of(0)}")
    other.wait_for_selector("#message:not([hidden])", timeout=WAIT)
    assert "not yours" in other.inner_text("#message")


def test_a_finished_game_offers_its_record_and_an_uploaded_record_replays(server, browser, tmp_path):
    base, lobby = server
    room = lobby.create("gin_rummy", ["human", "human"], overrides={"target_score": 10}, seed=49)
    bots = [make_bot("greedy", seed=s) for s in range(2)]
    while not room.table.game.is_over:
        seat = room.table.to_move
        room.act(seat, bots[seat].choose(room.table.game))
    page = open_seats(browser, base, room, [0])[0]
    page.wait_for_selector("#over:not([hidden]) #save-record", timeout=WAIT)
    assert "Game over" in page.inner_text("#over")
    got = page.request.get(page.eval_on_selector("#save-record", "a => a.href"))   # the absolute address
    assert got.status == 200 and got.json()["actions"] == room.table.game.history
    saved = tmp_path / "record.json"
    saved.write_bytes(got.body())
    replay = browser.new_context().new_page()
    replay.goto(base + "/replay")
    replay.set_input_files("#record-file", str(saved))
    replay.wait_for_function("document.body.dataset.step === '0'", timeout=WAIT)
    replay.keyboard.press("ArrowRight")
    replay.wait_for_function("document.body.dataset.step === '1'", timeout=WAIT)
    assert replay.inner_text("#r-action") == "last: " + room.table.game.history[0]


def test_cards_selected_then_a_meld_clicked_lay_off_on_it(server, browser):
    base, lobby = server
    room = lobby.create("rummy_500", ["human"] * 4, seed=5)
    bots = [make_bot("greedy", seed=s) for s in range(4)]
    for _ in range(400):                              # play on until the seat on turn may lay off
        seat = room.table.to_move
        layoffs = [a for a in room.table.view(seat)["legal_actions"] if a.startswith("layoff ") and "=" not in a]
        if layoffs:
            break
        room.act(seat, bots[seat].choose(room.table.game))
    assert layoffs, "no layoff came up"
    _, card, _, meld = layoffs[0].split()
    page = open_seats(browser, base, room, [seat])[0]
    version = len(room.table.game.history)
    page.click(f"#hand .card[data-card='{card}']")
    assert page.query_selector(f"#actions button.match[data-action='{layoffs[0]}']")
    assert page.eval_on_selector_all("#selection .card", "cs => cs.map((c) => c.dataset.card)") == [card]
    page.screenshot(path=str(ARTIFACTS / "card-selected.png"), full_page=True)
    page.click(f"#melds li[data-meld='{meld}']")
    wait_version([page], version + 1)
    assert room.table.game.history[-1] == layoffs[0]
    assert meld in page.inner_text("#log")
