"""What the web table's tests share: the optional tools (a failure in CI, a skip elsewhere), a served
lobby under Starlette's TestClient, and reading a seat's socket until a condition holds."""

from __future__ import annotations

import importlib
import json
import os
import re
import warnings

import pytest


def need(module: str):
    """Import an optional tool; without it the test is skipped locally and fails in CI."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is needed for the web table's tests (pip install '.[test,web]')")
        pytest.skip(f"{module} is not installed")


def served(lobby=None):
    """A TestClient on a fresh app (bots move with no delay) and its lobby."""
    need("starlette")
    need("httpx")
    with warnings.catch_warnings():            # newer Starlette would rather drive httpx2; httpx still works
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from rulesdsl.web.app import create_app
    from rulesdsl.web.lobby import Lobby

    lobby = lobby or Lobby()
    return TestClient(create_app(lobby, bot_delay=0)), lobby


def receive_until(ws, done, limit: int = 500) -> dict:
    """Messages from ``ws`` until one satisfies ``done`` (at most ``limit`` messages)."""
    for _ in range(limit):
        msg = ws.receive_json()
        if done(msg):
            return msg
    raise AssertionError("no such message arrived")


def token_of(room, seat: int) -> str:
    return room.token_of(seat)


CARD_TOKEN = re.compile(r"[A-Za-z0-9]+(?:=[A-Za-z0-9]+)?")


def card_words(value, cards: set) -> set:
    """Every card text (of the deck's texts ``cards``) written anywhere in ``value`` (JSON data); of a
    wild card written ``Jk=5S`` only the card itself, ``Jk`` (what it stands for is public)."""
    text = json.dumps(value)
    return {w.partition("=")[0] for w in CARD_TOKEN.findall(text)} & cards
