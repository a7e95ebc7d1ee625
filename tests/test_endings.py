"""Named hand endings and checks right after the deal (issue 10, items 1 and 2).

Every way a hand ends can carry a name, and `hand_log`, `view()` and `simulate` report it: going out by
discarding or by melding (`table.ending_by_discard`, `table.ending_by_meld`), a `then: end_hand` action
(`ending:`), a stock-out (`stock_out.ending`), and an `after_deal` check, which ends the hand before anyone
acts and records no player's action."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesdsl

BUNDLED = Path(rulesdsl.__file__).resolve().parent.parent / "rulesets"
RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
DECK = [r + s for s in "CDHS" for r in RANKS]


def _variant(tmp_path, base: str, edits: list) -> Path:
    """The bundled ``base`` file with text edits, written as a file of its own."""
    text = (BUNDLED / f"{base}.yaml").read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{base}_named.yaml"
    path.write_text(text)
    return path


def _play(g, seed, max_actions=20000):
    """Random play; yields (action text, hand_log entry) for each action that ended a hand."""
    rng = random.Random(seed)
    for _ in range(max_actions):
        if g.is_over:
            return
        before = len(g.hand_log)
        acts = g.legal_actions()
        a = acts[rng.randrange(len(acts))]
        g.apply(a)
        for entry in g.hand_log[before:]:
            yield str(a), entry


def test_going_out_by_discard_and_by_meld_are_named_apart(tmp_path):
    path = _variant(tmp_path, "rummy_500", [("  empty_hand_ends:", "  ending_by_discard: discarded_out\n"
                                             "  ending_by_meld: spread_out\n  empty_hand_ends:")])
    rules = rulesdsl.load(path, overrides={"going_out_requires_discard": False})
    seen = set()
    for seed in range(12):
        for action, entry in _play(rules.new_game(seed=seed), seed):
            verb = action.split()[0]
            if entry["ending"] in ("discarded_out", "spread_out"):
                assert entry["ending"] == ("discarded_out" if verb == "discard" else "spread_out"), (action, entry)
                assert entry["declarer"] is not None
            assert entry["ending"] != "out"
            seen.add(entry["ending"])
    assert {"discarded_out", "spread_out"} <= seen


def test_an_end_hand_action_and_a_stock_out_carry_their_names(tmp_path):
    path = _variant(tmp_path, "rummy_500", [
        ("        then: end_hand\n", "        then: end_hand\n        ending: pile_declined\n"),
        ("  result: score\n", "  result: score\n  ending: stock_emptied\n")])
    for mode, name in (("decline_pile", "pile_declined"), ("empty_stock", "stock_emptied")):
        rules = rulesdsl.load(path, overrides={"stock_out_end": mode})
        names = {e["ending"] for seed in range(8) for _, e in _play(rules.new_game(seed=seed), seed)}
        assert name in names and "stock" not in names, (mode, names)


def test_without_names_the_endings_keep_their_default_names():
    names = set()
    rules = rulesdsl.load("rummy_500")
    for seed in range(8):
        names |= {e["ending"] for _, e in _play(rules.new_game(seed=seed), seed)}
    assert names <= {"out", "stock"} and "stock" in names


# ------------------------------------------------------------------ after_deal

def _eights(tmp_path, check: str) -> rulesdsl.Rules:
    path = tmp_path / "c8.yaml"
    path.write_text("extends: " + str(BUNDLED / "crazy_eights.yaml") + "\n" + check)
    return rulesdsl.load(path)


def _stack_two_players(first: list, second: list, starter: str) -> list:
    """Two players, dealer 0: deck[0] to seat 1, deck[1] to seat 0, ...; then the starter."""
    deck = []
    for a, b in zip(first, second):
        deck += [a, b]
    deck.append(starter)
    return deck + [c for c in DECK if c not in deck]


SEAT1 = ["8S", "2C", "3C", "4C", "5C", "6C", "7C"]
SEAT0 = ["KH", "QH", "JH", "10H", "9H", "2D", "3D"]


def test_an_after_deal_check_scores_the_hand_at_once_and_records_no_action(tmp_path):
    rules = _eights(tmp_path, "after_deal:\n  - {when: 'holder(\"8S\") == next_seat(dealer)', ending: eight_dealt_first}\n")
    g = rules.new_game(players=2, seed=1, dealer=0, deck=_stack_two_players(SEAT1, SEAT0, "4D"))
    first = g.hand_log[0]
    assert first["ending"] == "eight_dealt_first" and first["hand"] == 1
    assert g.history == [] and g.hand_number == 2
    assert g.view(0)["last_hands"][-1]["ending"] == "eight_dealt_first"
    held1 = 50 + 2 + 3 + 4 + 5 + 6 + 7            # seat 1: the 8 and 2C..7C
    held0 = 10 + 10 + 10 + 10 + 9 + 2 + 3         # seat 0
    assert held1 == 77 and held0 == 54
    # not an "out": the single lowest hand scores the difference (the ruleset's blocked rule)
    assert g.scores == [held1 - held0, 0]


def test_an_after_deal_check_that_does_not_hold_changes_nothing(tmp_path):
    rules = _eights(tmp_path, "after_deal:\n  - {when: 'holder(\"8S\") == dealer', ending: eight_to_dealer}\n")
    g = rules.new_game(players=2, seed=1, dealer=0, deck=_stack_two_players(SEAT1, SEAT0, "4D"))
    assert g.hand_log == [] and g.hand_number == 1 and g.current_player == 1


def test_a_void_after_deal_check_redeals_with_the_same_dealer(tmp_path):
    rules = _eights(tmp_path, "after_deal:\n  - {when: 'holder(\"8S\") == next_seat(dealer)', ending: misdeal,"
                              " result: void}\n")
    second = _stack_two_players(SEAT0, SEAT1, "4D")          # now seat 0 holds the 8S: no misdeal
    g = rules.new_game(players=2, seed=1, dealer=0, deck=_stack_two_players(SEAT1, SEAT0, "4D"), decks=[second])
    assert g.hand_log[0]["ending"] == "void" and g.hand_log[0]["reason"] == "misdeal"
    assert g.dealer == 0 and g.hand_number == 2 and g.scores == [0, 0]
    assert sorted(g.hand_of(1)) == sorted(SEAT0)


def test_an_after_deal_check_that_always_holds_stops_with_a_located_error(tmp_path):
    rules = _eights(tmp_path, "after_deal:\n  - {when: 'true', ending: always, result: void}\n")
    with pytest.raises(rulesdsl.RuleEvaluationError) as e:
        rules.new_game(players=2, seed=1)
    assert "before anyone could act" in str(e.value)


def test_ending_without_end_hand_is_refused(tmp_path):
    path = _variant(tmp_path, "rummy_500", [("      - draw: stock ", "      - draw: stock\n        ending: drew\n       ")])
    with pytest.raises(rulesdsl.RulesetError) as e:
        rulesdsl.load(path)
    d = [x for x in e.value.diagnostics if x.code == "E-IGNORED"]
    assert d and "then: end_hand" in d[0].message and d[0].pos.line > 0
