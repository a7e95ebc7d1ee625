"""The table core both faces share (``rulesdsl.table``): seats, bots, the log in words as each seat
may read it, and saving and loading.

The leak check here is independent of how the table decides what a seat saw: every card a reader's
log line names must be in that reader's ``view()`` just before or just after the action (or the
action ended the hand, when the cards are laid out), read from the view's JSON, not from
``engine.visibility``.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import rulesdsl
from rulesdsl import IllegalAction
from rulesdsl.source.resolve import bundled_names
from rulesdsl.table import HUMAN, Table, TableError
from rulesdsl.table.words import action_words, result_words
from rulesdsl.engine.actions import parse_action

from common import snapshot

PLAYERS = {"gin_rummy": 2, "president": 4, "rummy_500": 3, "hand_and_foot": 4, "big_two": 4,
           "crazy_eights": 3, "contract_rummy": 4, "hearts": 4, "spades": 4}
CARD = re.compile(r"\b(?:10|[2-9AKQJT])[SHDC]\b|\bJk\b")


def _view_cards(view: dict) -> set:
    """Every card text anywhere in a view (what the seat may see), read off its JSON."""
    return set(CARD.findall(json.dumps(view)))


def _bot_table(name: str, seed: int) -> Table:
    rules = rulesdsl.load(name)
    return Table.new(rules, ["random"] * PLAYERS[name], seed=seed)


GAMES = list(PLAYERS)
ALL = [n for n, _ in bundled_names()]


@pytest.mark.parametrize("name", GAMES)
def test_log_names_only_cards_the_reader_saw(name):
    table = _bot_table(name, seed=5)
    game = table.game
    for _ in range(400):
        if game.is_over or game.hand_number > 2:
            break
        before = [_view_cards(game.view(s)) for s in range(game.n)]
        hand = game.hand_number
        event = table.step_bot()
        ended = game.hand_number != hand or game.is_over
        after = [_view_cards(game.view(s)) for s in range(game.n)]
        for reader in range(game.n):
            line = table.describe(event, reader)
            named = set(CARD.findall(line))
            if reader == event.seat or ended:
                continue
            leaked = named - before[reader] - after[reader]
            assert not leaked, f"{name}: seat {reader} read `{line}` but never saw {leaked}"


def test_a_card_given_face_down_is_a_card_to_the_others_and_named_to_giver_and_receiver():
    rules = rulesdsl.load("president")
    table = Table.new(rules, ["random"] * 4, seed=2)
    game = table.game
    gives = []
    while not game.is_over and game.hand_number <= 2:
        event = table.step_bot()
        if event.text.startswith("give"):
            gives.append(event)
    assert gives, "no exchange in two deals"
    event = gives[0]
    card = event.text.split()[1]
    readers = {r: table.describe(event, r) for r in range(4)}
    assert card in readers[event.seat]
    receivers = [r for r in range(4) if r != event.seat and card in readers[r]]
    assert len(receivers) <= 1, readers
    third = [r for r in range(4) if r != event.seat and r not in receivers]
    assert third and all("gives a card" in readers[r] for r in third), readers
    assert card in table.describe(event, None)                  # a replay shows every card


@pytest.mark.parametrize("name", ALL)
def test_saved_table_loads_with_the_same_log_view_and_seats(name):
    rules = rulesdsl.load(name)
    n = rules.new_game(seed=0).n                     # the ruleset's own number of players
    table = Table.new(rules, [HUMAN] + ["random"] * (n - 1), seed=11)
    rng = random.Random(3)
    for _ in range(120):
        if table.to_move is None:
            break
        if table.is_human(table.to_move):
            acts = table.game.legal_actions()
            table.act(table.to_move, acts[rng.randrange(len(acts))])
        else:
            table.step_bot()
    saved = json.loads(json.dumps(table.save()))
    again = Table.load(saved)
    assert again.seats == table.seats
    assert again.log(0) == table.log(0) and again.log(None) == table.log(None)
    assert snapshot(again.game) == snapshot(table.game)
    assert rulesdsl.replay(saved).history == table.game.history     # still a plain record


def test_run_bots_stops_at_a_person_and_an_illegal_action_changes_nothing():
    rules = rulesdsl.load("gin_rummy")
    table = Table.new(rules, ["greedy", HUMAN], seed=4)
    table.run_bots()
    assert table.to_move == 1
    before, events = snapshot(table.game), list(table.events)
    with pytest.raises(IllegalAction):
        table.act(1, "discard ZZ")
    with pytest.raises(IllegalAction):
        table.act(0, str(table.game.legal_actions()[0]))           # not on turn
    assert snapshot(table.game) == before and table.events == events


def test_a_plain_record_loads_with_every_seat_a_person_and_bad_tables_are_refused():
    rules = rulesdsl.load("gin_rummy")
    game = rules.new_game(seed=1)
    game.apply(game.legal_actions()[0])
    table = Table.load(game.record())
    assert table.seats == [HUMAN, HUMAN] and len(table.events) == 1
    with pytest.raises(TableError):
        Table(game, ["greedy"])
    with pytest.raises(TableError):
        Table(game, ["greedy", "no_such_bot"])
    bad = dict(game.record(), table={"seats": "human"})
    with pytest.raises(TableError):
        Table.load(bad)
    bad = dict(game.record(), actions=["discard ZZ"])
    with pytest.raises(TableError):
        Table.load(bad)


def test_words_for_builtin_verbs_go_outs_and_hidden_cards():
    words = {t: action_words(parse_action(t, ("knock", "gin"))) for t in (
        "draw stock", "take discard 3", "discard QS", "layoff 5D on 2", "knock QS with 7S 7D 7C / 8H 9H 10H",
        "play 8H name S", "gin")}
    assert words["draw stock"] == "draws from the stock"
    assert words["take discard 3"] == "takes 3 cards of the discard"
    assert action_words(parse_action("claim discard 1")) == "claims 1 card of the discard"
    assert words["discard QS"] == "discards QS"
    assert action_words(parse_action("discard QS to b")) == "discards QS onto the b"    # a step of several piles
    assert words["layoff 5D on 2"] == "lays 5D off on meld 2"
    assert words["knock QS with 7S 7D 7C / 8H 9H 10H"] == "knocks, discarding QS, with 7S 7D 7C / 8H 9H 10H"
    assert words["play 8H name S"] == "plays 8H, naming S"
    assert words["gin"] == "gins"
    names = ("rally", "stay", "punch", "fix", "close")        # go-outs the ruleset names: English third person
    assert [action_words(parse_action(n, names)) for n in names] == ["rallies", "stays", "punches", "fixes",
                                                                      "closes"]
    assert action_words(parse_action("rally", names), person=2) == "rally"
    assert action_words(parse_action("play 9S 9H"), shown={"9S"}) == "plays 9S a card"
    assert action_words(parse_action("give 2C"), shown=set(), person=2) == "give a card"


def test_hand_results_in_words_name_seats_teams_and_the_reader():
    name = {0: "you", 1: "seat 2", 2: "seat 3", 3: "seat 4"}.__getitem__
    line = result_words({"hand": 1, "ending": "knock", "declarer": 0, "scorer": 0, "points": 23,
                         "deadwood": [1, 24]}, name)
    assert line == "Hand 1 ended (knock) by you. You score 23. Left in hand: you 1, seat 2 24."
    line = result_words({"hand": 2, "ending": "out", "declarer": 3, "scorer": 1, "points": 500,
                         "deadwood": [0, 0, 0, 0]}, name, teams=[[0, 2], [1, 3]])
    assert "Team 2 (seat 2 and seat 4) scores 500." in line
    line = result_words({"hand": 3, "ending": "out", "order": [2, 0, 1, 3],
                         "roles": ["President", "VP", "VS", "Scum"], "points": 0}, name)
    assert "Finishing order: seat 3, you, seat 2, seat 4." in line and "you VP" in line
