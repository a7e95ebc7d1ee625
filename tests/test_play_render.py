"""The terminal table's screen and answers, without a terminal: what a seat's screen shows (its own
cards, the table, melds numbered, the trick) and never shows (another seat's hidden cards), for every
bundled game and variant; how a typed answer is read; suit colours."""

from __future__ import annotations

import importlib
import os
import re

import pytest


def _need(module: str):
    """The optional module, or a skip (a failure in CI, where every tool must be there)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"{module} is not installed (pip install 'rulesdsl[play]')")


_need("rich")
_need("prompt_toolkit")

import rulesdsl  # noqa: E402
from rulesdsl.rules import rules_for  # noqa: E402
from rulesdsl.source.resolve import bundled_names  # noqa: E402
from rulesdsl.table import Table  # noqa: E402
from rulesdsl.table.reading import resolve  # noqa: E402
from rulesdsl.table.terminal import (CardStyle, actions_list, merged_view, replay_screen, seat_screen,  # noqa: E402
                                     to_text)

NAMES = [name for name, _ in bundled_names()]
TOKEN = re.compile(r"[A-Za-z0-9]+")


def _cards_in(value) -> set:
    """Every card text anywhere in a view (a wild card's text and what it stands for, both)."""
    found: set = set()
    if isinstance(value, str):
        found.update(value.replace("=", " ").split())
    elif isinstance(value, dict):
        for v in value.values():
            found |= _cards_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= _cards_in(v)
    return found


def _hidden_from(table, seat) -> set:
    """Card texts held in other seats' zones that ``seat``'s view does not show anywhere."""
    view = table.view(seat)
    hidden = set()
    for other in range(table.game.n):
        if other == seat:
            continue
        theirs = table.view(other)
        for zone, entries in theirs["zones"].items():
            if isinstance(entries, list) and "cards" not in view["zones"][zone][other]:
                hidden.update(entries[other].get("cards", []))
    return hidden - _cards_in(view)


def _screen(table, seat) -> str:
    view = table.view(seat)
    style = CardStyle.of(table.game)
    news = table.log(seat, last=30)         # as the table shows them: the last lines only
    return to_text(seat_screen(view, style, lambda s: table.name(s, seat), table.game.prog.model.name, news,
                               who=table.name(seat))) + to_text(actions_list(view["legal_actions"]))


def _positions(name: str, steps: int = 400, every: int = 7):
    """A table of bots at several positions of a match (each yielded as the seat on turn)."""
    rules = rulesdsl.load(name)
    table = Table.new(rules, ["greedy"] * rules.model.players.default, seed=5)
    for i in range(steps):
        if table.to_move is None:
            return
        if i % every == 0:
            yield table, table.to_move
        table.step_bot()


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_sees_its_cards_and_no_hidden_card_of_another(name):
    """Base games at many positions of a match; variants (the same screen) at fewer."""
    seen_melds = seen_trick = False
    steps, every = (300, 12) if "/" not in name else (120, 30)
    for table, seat in _positions(name, steps, every):
        view = table.view(seat)
        text = _screen(table, seat)
        tokens = set(TOKEN.findall(text))
        for zone, entries in view["zones"].items():
            if isinstance(entries, list):
                for card in entries[seat].get("cards", []):
                    assert card in tokens, f"{name}: own card {card} not shown"
        leaked = _hidden_from(table, seat) - set(TOKEN.findall(" ".join(table.log(seat, last=30))))
        assert not leaked & tokens, f"{name}: seat {seat + 1} is shown hidden cards {sorted(leaked & tokens)}"
        lines = text.splitlines()
        for i, meld in enumerate(view["melds"], 1):
            seen_melds = True
            want = " ".join(meld["cards"])
            assert any(re.match(rf"\s*{i}\. .*{re.escape(want)}", line) for line in lines), f"meld {i} not numbered"
        trick = view.get("trick")
        if isinstance(trick, dict) and trick.get("last_play"):
            seen_trick = True
            line = next(l for l in lines if l.startswith("Trick:"))
            assert " ".join(trick["last_play"]) in line
        if isinstance(trick, dict) and "plays" in trick:       # a trick of one card per player
            seen_trick = True
            line = next(l for l in lines if l.startswith(f"Trick {trick['number']}:"))
            assert all(p["card"] in line for p in trick["plays"])
        for i, action in enumerate(view["legal_actions"], 1):
            assert f"{i}. {action}" in text
    if name.startswith(("big_two", "president", "crazy_eights", "hearts", "spades")):
        assert seen_trick, f"{name}: no position with a trick was checked"
    if name.startswith(("gin_rummy", "rummy_500", "hand_and_foot", "contract_rummy")):
        assert seen_melds, f"{name}: no position with melds was checked"


def test_a_hidden_card_in_the_view_would_be_caught():
    """The check above is not vacuous: a screen drawn from another seat's view shows its cards."""
    table, seat = next(_positions("gin_rummy"))
    other = 1 - seat
    view = table.view(other)
    text = to_text(seat_screen(view, CardStyle.of(table.game), str, "x"))
    assert _hidden_from(table, seat) & set(TOKEN.findall(text))


def test_hand_grouped_by_suit_in_deck_order():
    table, seat = next(_positions("gin_rummy"))
    text = _screen(table, seat)
    hand = table.view(seat)["zones"]["hand"][seat]["cards"]
    suits = [line.split(":")[0].strip() for line in text.splitlines() if re.match(r"\s+[SHDC]: ", line)]
    assert suits == [s for s in "SHDC" if any(c.endswith(s) for c in hand)]
    spades = next(line for line in text.splitlines() if line.strip().startswith("S:")).split()[1:]
    ranks = list(table.game.prog.cards.ranks)
    assert [ranks.index(c[:-1]) for c in spades] == sorted(ranks.index(c[:-1]) for c in spades)


def test_cards_sort_by_suit_then_rank_with_jokers_then_unknown_texts_last():
    """The terminal sorts a hand by suit in deck order, then rank in deck order; jokers come after every
    suited card, and a text the deck does not know (a hand-written line, a face-down marker) after them,
    rather than failing."""
    style = CardStyle.of(rulesdsl.load("hand_and_foot").new_game(seed=1))
    texts = ["??", "Jk", "KH", "2C", "AH", "3S=4S"]
    ordered = sorted(texts, key=style.key)
    assert ordered[-2:] == ["Jk", "??"]
    cards = style.cards
    suited = [(cards.suits.index(t.split("=")[0][-1]), cards.ranks.index(t.split("=")[0][:-1])) for t in ordered[:4]]
    assert suited == sorted(suited)
    assert style.suit_of("??") is None and style.suit_of("Jk") is None and style.suit_of("KH") == "H"


def test_a_climbing_trick_names_who_passed_only_when_someone_has():
    """The terminal's trick lines for a climbing game: the play to beat, then who passed and who is locked
    out -- only when someone is (no empty "passed:" line) -- and any other fact of the trick that holds.
    Catches the listing of the other facts left out (the cards a seat owes in a shedding game)."""
    from rulesdsl.table.terminal import _trick
    style = CardStyle.of(rulesdsl.load("president").new_game(seed=1))
    name = {0: "you", 1: "seat 2", 2: "seat 3"}.__getitem__
    trick = {"last_play": ["7S"], "last_player": 0, "kind": "single", "passed": [1, 2], "locked_out": []}
    text = " ".join(line.plain for line in _trick({"trick": trick}, style, name))
    assert "passed: seat 2, seat 3" in text and "locked out" not in text
    trick["passed"] = []
    text = " ".join(line.plain for line in _trick({"trick": trick}, style, name))
    assert "passed" not in text and "7S" in text
    # any other fact of the trick the view tells, by its name, when it is there (cards a seat owes)
    trick.update(draws_owed=2, drawn_this_turn=0)
    text = " ".join(line.plain for line in _trick({"trick": trick}, style, name))
    assert "draws owed: 2" in text and "drawn this turn" not in text


def test_red_suits_come_from_the_deck_or_the_usual_letters():
    plain = CardStyle.of(rulesdsl.load("gin_rummy").new_game(seed=1))
    assert plain.red == {"H", "D"}
    declared = CardStyle.of(rulesdsl.load("hand_and_foot").new_game(seed=1))
    assert declared.red == {"H", "D"}
    from io import StringIO

    from rich.console import Console
    out = StringIO()
    Console(file=out, force_terminal=True, color_system="standard").print(plain.cards_text(["KH", "KS"]))
    colored = out.getvalue()
    assert "\x1b[1;31mKH" in colored and "\x1b[1;31mKS" not in colored


def test_team_scores_and_meld_owners_are_teams():
    for table, seat in _positions("hand_and_foot", steps=300, every=50):
        text = _screen(table, seat)
        assert "Scores: team 1 (" in text and "team 2 (" in text
        for meld in table.view(seat)["melds"]:
            assert f"team {meld['owner'] + 1} " in text


def test_the_log_told_in_parts_is_the_whole_log():
    """``log(since=...)``, as the table asks for news at each turn, adds up to the whole log."""
    rules = rulesdsl.load("gin_rummy", overrides={"target_score": 30})
    table = Table.new(rules, ["greedy", "greedy"], seed=2)
    told, upto = [], 0
    while table.to_move is not None:
        for _ in range(3):
            table.step_bot()
        told += table.log(0, since=upto)
        upto = len(table.events)
    assert len(table.game.hand_log) > 1 and told == table.log(0)


def test_replay_screen_shows_every_hand():
    table, _ = next(_positions("president"))
    views = [table.view(s) for s in range(table.game.n)]
    text = to_text(replay_screen(views, CardStyle.of(table.game), table.name, "President", 0, 10, ["start"]))
    tokens = set(TOKEN.findall(text))
    for s, v in enumerate(views):
        assert set(v["zones"]["hand"][s]["cards"]) <= tokens
    assert all("cards" in merged_view(views)["zones"]["hand"][s] for s in range(table.game.n))


def test_the_status_line_names_who_is_on_turn_in_which_step_and_the_dealer_on_both_screens():
    """docs/play.md, "The screen": under the scores, whose turn it is, in which step, and who dealt -- on a
    seat's screen and on a replay's.  Catches the dealer left out of the line, and the line left out of
    the replay's screen."""
    table = Table.new(rulesdsl.load("gin_rummy"), ["human", "greedy"], seed=2, dealer=1)
    style = CardStyle.of(table.game)
    mine = to_text(seat_screen(table.view(0), style, lambda s: table.name(s, 0), "Gin", [], who=table.name(0)))
    views = [table.view(s) for s in range(2)]
    replay = to_text(replay_screen(views, style, table.name, "Gin", 0, 10, ["The deal, before any action."]))
    assert "Turn: you (offer) · dealer: seat 2 (greedy)" in mine.splitlines()
    assert "Turn: seat 1 (offer) · dealer: seat 2 (greedy)" in replay.splitlines()


# ---------------------------------------------------------------------------------------- answers
LEGAL = ["draw stock", "take discard", "play 3S", "play 3S 3C", "discard QS", "discard QH"]


def test_the_rules_command_lists_every_parameter_in_force_as_a_ruleset_writes_it():
    """docs/play.md: `rules` prints the ruleset's parameters in force, each as the file would write it: a
    switch as `true` / `false` (not Python's True), a list in brackets.  Catches the switch printed as
    Python writes it."""
    from rulesdsl.table.playing import rules_lines

    game = rulesdsl.load("hand_and_foot", {"pile_onto_own_meld": True}).new_game(seed=1)
    lines = rules_lines(game)
    assert lines[0].startswith("Hand and Foot (4 players)")
    assert "  pile_onto_own_meld = true" in lines and "  clean_counts_as_dirty = false" in lines
    assert not any("True" in line or "False" in line for line in lines)


def test_a_pile_whose_top_lies_face_down_says_so_and_names_no_card():
    """The table's piles show their top card, or that it lies face down (Gin's knock
    discard): "discard: 1 card, top face down", and the card itself to nobody.  Catches the face-down
    top left unsaid (the pile then read as a bare count)."""
    from conformance.test_api_log import gin_knock_table

    t = gin_knock_table()
    text = to_text(seat_screen(t.view(0), CardStyle.of(t.game), lambda s: t.name(s, 0), "Gin", []))
    assert "  discard: 1 card, top face down" in text.splitlines() and "KC" not in text


def test_a_finished_match_says_so_where_the_turn_would_be():
    """Once the match is over, the status line says so, and names nobody on turn.  Catches the line
    left out (the screen then ended at the scores, saying nothing of the end)."""
    table = Table.new(rulesdsl.load("crazy_eights", {"target_score": 1}), ["greedy", "greedy"], seed=4)
    table.run_bots()
    assert table.to_move is None
    text = to_text(seat_screen(table.view(0), CardStyle.of(table.game), lambda s: table.name(s, 0), "x", []))
    assert "The match is over." in text.splitlines() and "Turn:" not in text


def test_lines_from_a_pipe_show_the_prompt_and_the_answer_as_a_terminal_would():
    """docs/play.md: the table can be driven by a script or a pipe; each prompt is written, then the
    answer read (echoed as a terminal would), and the end of the input leaves the table.  Catches the
    prompt left unwritten, which a script waits for."""
    import io

    from rulesdsl.table.reading import PlainReader

    shown = []
    reader = PlainReader(io.StringIO("draw stock\r\n"), shown.append)
    assert reader.read("seat 1> ", LEGAL) == "draw stock"
    assert "".join(shown) == "seat 1> draw stock\n"
    with pytest.raises(EOFError):
        reader.read("seat 1> ")
    assert "".join(shown).endswith("seat 1> \n")


def test_a_terminal_gets_the_prompt_with_completion_and_anything_else_plain_lines(monkeypatch):
    """docs/play.md: TAB completion at a terminal, plain lines from a pipe (or when asked).  Catches the
    plain reader chosen for a terminal as well (`force_plain` defaulting to true)."""
    from rulesdsl.table import reading

    monkeypatch.setattr(reading, "PromptReader", lambda: "prompt")
    for stream in ("stdin", "stdout"):
        monkeypatch.setattr(getattr(reading.sys, stream), "isatty", lambda: True, raising=False)
    assert reading.make_reader() == "prompt"
    assert isinstance(reading.make_reader(force_plain=True), reading.PlainReader)
    monkeypatch.setattr(reading.sys.stdout, "isatty", lambda: False, raising=False)
    assert isinstance(reading.make_reader(), reading.PlainReader)


@pytest.mark.parametrize("typed,kind,text", [
    ("2", "action", "take discard"),
    ("TAKE DISCARD", "action", "take discard"),
    ("dr", "action", "draw stock"),
    ("play 3s", "action", "play 3S"),            # exact text wins over a longer one it starts
    ("discard q", "ambiguous", "discard q"),
    ("7", "unknown", "7"),
    ("knock QS with 7S 7D 7C", "action", "knock QS with 7S 7D 7C"),   # the game judges it
    ("  ", "empty", ""),
    ("save my game.json", "command", "save"),
    ("QUIT", "command", "quit"),
])
def test_resolve(typed, kind, text):
    answer = resolve(typed, LEGAL)
    assert (answer.kind, answer.text) == (kind, text)


def test_moves_that_differ_only_in_case_are_told_apart_by_the_text_as_written():
    """docs/play.md: a move's text reads in any case, but where two moves differ only in case (piles named
    `Stock` and `stock`) the text as written picks its own, and another spelling lists both."""
    legal = ["draw Stock", "draw stock", "discard QS"]
    assert resolve("draw stock", legal) == ("action", "draw stock", "", ())
    assert resolve("draw Stock", legal) == ("action", "draw Stock", "", ())
    assert resolve("DRAW STOCK", legal) == ("ambiguous", "DRAW STOCK", "", ("draw Stock", "draw stock"))
    assert resolve("Discard qs", legal) == ("action", "discard QS", "", ())


def test_resolve_keeps_an_action_whose_verb_is_a_command_word():
    assert resolve("log", ["log"]).kind == "action"


def test_completion_offers_matching_moves_and_commands():
    from prompt_toolkit.document import Document

    from rulesdsl.table.reading import _completer
    completer = _completer(lambda: LEGAL + ["help", "quit"])
    got = [c.text for c in completer.get_completions(Document("DISC"), None)]
    assert got == ["discard QS", "discard QH"]
    assert [c.text for c in completer.get_completions(Document("qu"), None)] == ["quit"]


def test_replay_positions_are_the_record_played_to_there():
    from rulesdsl.table.playing import Positions
    rules = rulesdsl.load("gin_rummy", overrides={"target_score": 30})
    table = Table.new(rules, ["greedy", "greedy"], seed=3)
    table.run_bots()
    record = table.save()
    positions = Positions(record, rules_for(record))
    total = len(record["actions"])
    assert total > 2 * positions.every
    for k in (total, 1, positions.every + 1, 0, total - 1, 2 * positions.every):
        want = rulesdsl.replay(dict(record, actions=record["actions"][:k]))
        got = positions.at(k)
        assert [got.view(s) for s in range(2)] == [want.view(s) for s in range(2)]


def test_a_trick_games_screen_says_what_is_led_won_and_broken():
    """docs/play.md, the screen: in a trick game, the trick in progress with the suit led and the tricks
    each seat has won, and the suits broken once they are."""
    import random
    import re as _re

    table = Table.new(rulesdsl.load("hearts"), ["greedy"] * 4, seed=3)
    rng = random.Random(3)
    said_broken = said_won = said_led = False
    for _ in range(400):
        if table.game.is_over or table.game.hand_number > 1:
            break
        view = table.view(0)
        text = _screen(table, 0)
        trick = view.get("trick") or {}
        broken = [k for k, v in (trick.get("broken") or {}).items() if v]
        assert ("broken: " in text) == bool(broken), text
        if broken:
            said_broken = True
            assert "broken: " + ", ".join(broken) in text
        if any(trick.get("tricks_won") or []):
            said_won = True
            assert _re.search(r"tricks: .*\d", text)
        if trick.get("led"):
            said_led = True
            assert f"led: {trick['led']}" in text
        table.act(table.to_move, rng.choice(table.game.legal_actions()))
    assert said_broken and said_won and said_led


def test_the_screen_shows_what_else_the_view_tells_as_key_and_value():
    """docs/play.md, the screen: what the view holds beyond the table (the bids of an auction, a window's
    state) is shown as `key: value`, seats by name."""
    table = Table.new(rulesdsl.load("spades"), ["human", "greedy", "greedy", "greedy"], seed=2)
    table.run_bots()
    table.act(table.to_move, table.game.legal_actions()[0])
    view = table.view(0)
    text = _screen(table, 0)
    shown = " ".join("none" if b is None else str(b) for b in view["bids"])
    assert f"bids: {shown}" in text and "looked: yes yes yes yes" in text
