"""Load against a real `rulesdsl serve` on loopback (docs/web.md, "Security model"): bounded in count
and size so the suite runs it in seconds.  What a hostile client sends must not grow the server's
memory, play for another seat, or leave anyone without an answer."""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from web_helpers import need

need("httpx")
need("uvicorn")
need("websockets")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "rulesdsl.cli.main", "serve", "gin_rummy", "--port", "0",
                             "--seats", "human,human", "--bot-delay", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        seats = [ln.split(": ", 1)[1].strip() for ln in lines if ln.startswith("seat ")]
        record = next(ln[ln.index("http"):].strip() for ln in lines if "record?token=" in ln)
        yield proc, record.split("/api/")[0], record, seats
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _rss_mb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) // 1024 for line in f if line.startswith("VmRSS"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
def test_uploads_padded_with_fields_no_record_has_do_not_grow_the_server(server):
    import httpx

    proc, base, record_url, _ = server
    record = httpx.get(record_url, timeout=30).json()
    body = json.dumps({"record": dict(record, padding=[[] for _ in range(600_000)])}).encode()
    assert 2_000_000 < len(body) < 4 * 1024 * 1024                    # under the body limit
    before = _rss_mb(proc.pid)
    for _ in range(20):                                               # kept whole: +800 MB before the fix
        got = httpx.post(base + "/api/replays", content=body, headers={"content-type": "application/json"},
                         timeout=60)
        assert got.status_code == 400 and "padding" in got.json()["error"]
    assert _rss_mb(proc.pid) - before < 200


def test_a_flood_of_malformed_messages_changes_nothing_and_each_is_answered(server):
    import httpx
    from websockets.sync.client import connect

    _, base, record_url, seats = server
    token = seats[0].rsplit("/", 1)[1]
    ws_url = base.replace("http", "ws", 1) + f"/ws?token={token}"
    shapes = ['{"type": "act"}', '{"type": "act", "action": "pass", "seat": 1}', "[]", "null", "{", '"x"',
              '{"type": "sync", "extra": 1}', '{"type": "act", "action": ""}',
              "[" * 2000 + "]" * 2000]                       # under 4 KB, nested past the JSON parser
    with connect(ws_url, open_timeout=20) as ws:
        assert json.loads(ws.recv(timeout=20))["type"] == "state"
        for k in range(300):
            ws.send(shapes[k % len(shapes)])
        answers = [json.loads(ws.recv(timeout=20)) for _ in range(300)]
    assert all(a["type"] == "error" for a in answers)
    assert httpx.get(record_url, timeout=30).json()["actions"] == []


def test_replays_and_uploads_answer_side_by_side(server):
    """Many position requests of a long replay and uploads at once, through the bounded replay slots:
    every one is answered, each with its own position."""
    import httpx

    _, base, record_url, _ = server
    import rulesdsl
    from rulesdsl.table import Table
    table = Table.new(rulesdsl.load("gin_rummy", overrides={"target_score": 120}), ["greedy", "greedy"], seed=5)
    table.run_bots()
    record = table.save()
    n = len(record["actions"])
    opened = httpx.post(base + "/api/replays", json={"record": record}, timeout=60)
    assert opened.status_code == 200, opened.text
    key = opened.json()["replay"]

    def position(step):
        return httpx.get(f"{base}/api/replays/{key}/{step}", timeout=120)

    def upload(_):
        return httpx.post(base + "/api/replays", json={"record": record}, timeout=120)

    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        heavy = [pool.submit(position, n - k) for k in range(10)]
        light = [pool.submit(upload, k) for k in range(2)]
        answers = [f.result() for f in heavy + light]
    assert all(a.status_code == 200 for a in answers), [a.text[:200] for a in answers if a.status_code != 200]
    assert [a.json()["step"] for a in answers[:10]] == [n - k for k in range(10)]
