"""Game records: ``game.record()`` is JSON, and ``rulesdsl.replay(record)`` rebuilds the same game.

Properties over every bundled game and variant: a record made at any point, sent through JSON,
replays to the same position (everything observable, and the same legal actions), and the replayed
game then plays on exactly as the original does, later hands included (the random state is the same).
Records from elsewhere are read strictly: another ruleset's record, a malformed one, or an action that
does not replay is a ``RecordError``, never a crash.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl import RecordError
from rulesdsl.source.resolve import bundled_names

from common import assert_plays_in_step, random_moves as play, snapshot

NAMES = [n for n, _ in bundled_names()]


def through_json(record: dict) -> dict:
    return json.loads(json.dumps(record))


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.one_of(st.none(), st.integers(0, 2**64)), moves=st.integers(0, 200))
def test_a_record_replays_to_the_same_game_which_plays_on_the_same(name, seed, moves):
    game = rulesdsl.load(name).new_game(seed=seed)
    play(game, random.Random(moves), moves)
    again = rulesdsl.replay(through_json(game.record()))
    assert snapshot(again) == snapshot(game)
    # on into later hands: the random state was rebuilt too
    assert_plays_in_step(game, again, random.Random(7), 150)


def test_overrides_players_dealer_and_stacked_decks_are_recorded():
    rules = rulesdsl.load("president", overrides={"target_score": 3})
    deck = sorted(rules.program(5).cards.text, reverse=True)
    game = rules.new_game(seed=11, players=5, dealer=2, deck=deck)
    play(game, random.Random(1), 30)
    game.stack_next(list(reversed(deck)))                 # a stack made mid-game, for a later deal
    play(game, random.Random(2), 300)
    rec = through_json(game.record())
    assert rec["ruleset"] == "president" and rec["overrides"] == {"target_score": 3}
    assert rec["players"] == 5 and rec["dealer"] == 2 and rec["decks"] == [deck]
    assert rec["stacks"] == [{"before": 30, "deck": list(reversed(deck))}]
    assert snapshot(rulesdsl.replay(rec)) == snapshot(game)


def test_a_game_made_without_a_seed_gets_one_and_can_be_replayed():
    game = rulesdsl.load("gin_rummy").new_game()
    assert isinstance(game.seed, int)
    play(game, random.Random(3), 40)
    assert snapshot(rulesdsl.replay(through_json(game.record()))) == snapshot(game)


def test_a_record_from_other_rules_is_refused():
    game = rulesdsl.load("gin_rummy").new_game(seed=1)
    play(game, random.Random(1), 10)
    rec = through_json(game.record())
    with pytest.raises(RecordError, match="other rules"):
        rulesdsl.load("gin_rummy", overrides={"knock_limit": 5}).replay(rec)
    rec["digest"] = "0" * 16
    with pytest.raises(RecordError, match="other rules"):
        rulesdsl.replay(rec)


BROKEN = [
    ("not a mapping", lambda r: [1, 2]),
    ("no format", lambda r: {k: v for k, v in r.items() if k != "format"}),
    ("seed is a list", lambda r: {**r, "seed": [1]}),
    ("players is true", lambda r: {**r, "players": True}),
    ("actions hold a number", lambda r: {**r, "actions": r["actions"] + [5]}),
    ("an action that is not legal", lambda r: {**r, "actions": r["actions"] + ["discard ZZ"]}),
    ("a deck of the wrong cards", lambda r: {**r, "decks": [["AS"]]}),
    ("a stack without its place", lambda r: {**r, "stacks": [{"deck": []}]}),
    ("too many players", lambda r: {**r, "players": 9}),
    ("a dealer out of range", lambda r: {**r, "dealer": 7}),
]


@pytest.mark.parametrize("what,breaks", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_record_is_a_record_error(what, breaks):
    game = rulesdsl.load("gin_rummy").new_game(seed=4)
    play(game, random.Random(4), 12)
    with pytest.raises(RecordError):
        rulesdsl.replay(breaks(through_json(game.record())))


def test_a_clone_records_the_same_game_so_far():
    game = rulesdsl.load("rummy_500").new_game(seed=9, players=3)
    play(game, random.Random(9), 60)
    assert game.clone().record() == game.record()


def test_a_doc_text_is_not_a_rule_the_digest_ignores_it_but_not_a_parameter_named_doc(tmp_path):
    """Mending a ``doc:`` text keeps saved games replayable; changing a rule, or the default of a
    parameter that happens to be named ``doc``, does not."""
    from rulesdsl.source.resolve import bundled_dir

    src = (bundled_dir() / "gin_rummy.yaml").read_text()
    assert "doc: the most deadwood a player may knock with" in src and "doc: Every turn begins" in src

    def digest_of(text: str, name: str) -> str:
        path = tmp_path / name
        path.write_text(text)
        return rulesdsl.load(str(path)).digest

    base = digest_of(src, "a.yaml")
    assert base == rulesdsl.load("gin_rummy").digest
    assert digest_of(src.replace("doc: the most deadwood a player may knock with", "doc: at most this"),
                     "b.yaml") == base
    assert digest_of(src.replace("doc: Every turn begins by taking one card.", "doc: Draw first."),
                     "c.yaml") == base
    short = src.replace("{default: 10, min: 0, doc: the most deadwood a player may knock with}",
                        "{default: 10, min: 0}")
    assert short != src and digest_of(short, "d.yaml") == base       # without its doc it means the same
    assert digest_of(src.replace("{default: 10, min: 0, doc:", "{default: 9, min: 0, doc:"), "e.yaml") != base
    with_param = src.replace("params:\n", "params:\n  doc: 1\n", 1)
    assert with_param != src
    assert digest_of(with_param, "f.yaml") != digest_of(with_param.replace("  doc: 1\n", "  doc: 2\n", 1), "g.yaml")
