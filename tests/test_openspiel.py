"""Every ruleset as an OpenSpiel game, checked by OpenSpiel itself.

* ``pyspiel.random_sim_test`` (OpenSpiel's own consistency test: legal actions, chance outcomes,
  clones, serialization, observation and information-state strings and tensors, returns) passes for
  every bundled game and variant.
* OpenSpiel's own bots play whole games: its uniform random bot, its (Python) MCTS and IS-MCTS.  Its
  C++ MCTS and IS-MCTS crash on every Python game in open-spiel 2.0.2, OpenSpiel's own Python games
  included, so they are not used.
* The ruleset's own parameters are OpenSpiel parameters; the chance player deals the deck; returns
  sum to zero; a seat's information state and observation are the same in every world it cannot tell
  from the real one (``resample_from_infostate``).
"""

from __future__ import annotations

import os
import re

import pytest

if os.environ.get("CI"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import rulesdsl
import rulesdsl.openspiel as ros
from rulesdsl.source.resolve import bundled_names

BUNDLED = [name for name, _ in bundled_names()]
GAMES = [n for n in BUNDLED if "/" not in n]
VARIANTS = [n for n in BUNDLED if "/" in n]


def _deal(state, rng) -> None:
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(int(rng.choice([o for o, _ in outcomes], p=[p for _, p in outcomes])))


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_random_simulation_test_passes_for_every_bundled_game(name):
    game = pyspiel.load_game("rulesdsl", {"ruleset": name, "deals": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", VARIANTS)
def test_openspiels_random_simulation_test_passes_for_every_bundled_variant(name):
    game = pyspiel.load_game("rulesdsl", {"ruleset": name, "deals": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_whole_match_passes_openspiels_random_simulation_test():
    game = pyspiel.load_game("rulesdsl", {"ruleset": "crazy_eights", "players": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_a_match_cut_short_by_its_bound_ends_and_is_judged_by_its_totals():
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "max_actions": 150})
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state._d.game.history) == 150 and not state._d.game.is_over
    scores = state._d.game.scores
    expect = [0.0, 0.0] if scores[0] == scores[1] else [1.0, -1.0] if scores[0] > scores[1] else [-1.0, 1.0]
    assert state.returns() == expect


def test_the_rulesets_parameters_are_openspiel_parameters():
    game = ros.load_game("gin_rummy", knock_limit=5)
    assert game.get_parameters()["knock_limit"] == 5
    assert game.encoding.rules.params["knock_limit"] == 5
    same = pyspiel.load_game(ros.register("gin_rummy"), {"knock_limit": 5})
    assert same.encoding.rules.digest == game.encoding.rules.digest
    generic = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "set": "knock_limit=5"})
    assert generic.encoding.rules.digest == game.encoding.rules.digest
    plain = ros.load_game("gin_rummy")
    assert plain.encoding.rules.digest == rulesdsl.load("gin_rummy").digest
    assert plain.encoding.rules.digest != game.encoding.rules.digest


def test_a_bad_parameter_is_refused_with_the_rulesets_own_message():
    with pytest.raises(rulesdsl.RulesetError, match="E-DEAL-TOO-MANY"):
        ros.load_game("gin_rummy", hand_size=500)
    with pytest.raises(rulesdsl.RulesetError, match="knock_limit"):
        pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "set": "knock_limit=abc"})
    with pytest.raises(rulesdsl.RulesetError, match="E-NOT-FOUND"):
        pyspiel.load_game("rulesdsl", {"ruleset": "no_such_game"})


def test_impossible_numbers_are_refused_as_illegal_and_nothing_changes():
    """docs/openspiel.md: a chance outcome whose copies are all dealt, or that is no card kind, is an
    `IllegalNumber` (the deck is unchanged); `action_to_string` of a number outside the game's range is
    an error naming the range, never another action's text; `chance_outcomes()` is for chance nodes."""
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy"})
    state = game.new_initial_state()
    state.apply_action(0)
    kinds = game.max_chance_outcomes()
    for bad in (0, kinds, 10 ** 6):
        with pytest.raises(rulesdsl.IllegalAction, match="not a legal chance outcome"):
            state.apply_action(bad)
    assert state._deck == [0] and [o for o, _ in state.chance_outcomes()] == list(range(1, kinds))
    for player, number, limit in ((0, 10 ** 9, game.num_distinct_actions()), (0, -1, game.num_distinct_actions()),
                                  (pyspiel.PlayerId.CHANCE, kinds, kinds)):
        with pytest.raises(ValueError, match=f"0 to {limit - 1}"):
            state.action_to_string(player, number)
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            if not state.is_chance_node() and not state.is_terminal():
                with pytest.raises(ValueError, match="chance does not move"):
                    state.chance_outcomes()
    with pytest.raises(ValueError, match="the game is over"):
        state.chance_outcomes()


@pytest.mark.parametrize("params,named", [({"deals": 10 ** 9}, "deals"), ({"max_actions": -1}, "max_actions"),
                                          ({"players": 99}, "players"), ({"returns": "money"}, "returns")])
def test_the_games_own_parameters_are_bounded_and_named(params, named):
    with pytest.raises(Exception, match=f"`{named}`"):
        pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", **params})


def test_the_game_declares_what_openspiel_needs():
    game = pyspiel.load_game("rulesdsl", {"ruleset": "hand_and_foot", "deals": 1})
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    enc = game.encoding
    assert game.num_distinct_actions() == enc.actions.size
    assert game.max_chance_outcomes() == enc.prog.cards.n_kinds      # five decks: 54 kinds, not 270 cards
    assert game.observation_tensor_shape() == [enc.observation.size]
    assert game.num_players() == 4


def test_chance_deals_each_kind_as_often_as_its_copies_left():
    game = pyspiel.load_game("rulesdsl", {"ruleset": "hand_and_foot", "deals": 1})
    state = game.new_initial_state()
    first = dict(state.chance_outcomes())
    assert abs(sum(first.values()) - 1) < 1e-9
    kinds = game.encoding.prog.cards.kind_text
    joker = kinds.index("Jk")
    assert first[joker] == pytest.approx(2 * first[kinds.index("5H")])     # 2 jokers a deck, 1 of each card
    state.apply_action(joker)
    assert dict(state.chance_outcomes())[joker] < first[joker]


def _play(game, bots, rng) -> list:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_random_bot_plays_a_whole_game(name):
    game = pyspiel.load_game("rulesdsl", {"ruleset": name, "deals": 1})
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(game.num_players())]
    returns = _play(game, bots, np.random.RandomState(1))
    assert abs(sum(returns)) < 1e-9


@pytest.mark.parametrize("name", GAMES)
def test_openspiels_mcts_and_ismcts_play_a_whole_game(name):
    # a random rollout of a long deal costs its length at every simulation: the deal is bounded so
    # that the test stays short (a game cut short ends and is judged like any other)
    game = pyspiel.load_game("rulesdsl", {"ruleset": name, "deals": 1, "max_actions": 150})
    rng = np.random.RandomState(2)
    n = game.num_players()
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    searchers = [mcts.MCTSBot(game, 2.0, 3, evaluator, random_state=rng),
                 ismcts.ISMCTSBot(game, evaluator, 2.0, 3, random_state=rng)]
    bots = [searchers[p] if p < 2 else pyspiel.make_uniform_random_bot(p, p) for p in range(n)]
    returns = _play(game, bots, rng)
    assert len(returns) == n and abs(sum(returns)) < 1e-9


def test_resampling_keeps_what_the_seat_knows():
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "deals": 1})
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    _deal(state, rng)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _deal(state, rng)
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.observation_tensor(p) == state.observation_tensor(p)
        assert world.legal_actions() == state.legal_actions()
        other = 1 - p
        assert sorted(world._d.game.hand_of(other)) != sorted(state._d.game.hand_of(other)) or _ < 2
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_information_state_names_only_cards_the_seat_saw():
    from rulesdsl.engine.visibility import seen_by
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "deals": 1})
    rng = np.random.RandomState(6)
    state = game.new_initial_state()
    _deal(state, rng)
    seen = [set(), set()]
    card = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])")
    checked = 0
    while not state.is_terminal() and state._d.game.hand_number == 1:
        engine = state._d.game
        text = engine.prog.cards.text
        for seat in range(2):
            seen[seat] |= {text[c] for c in seen_by(engine, seat)}
            named = set(card.findall(state.information_state_string(seat)))
            assert named <= seen[seat], f"seat {seat} is told of {named - seen[seat]}"
            checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 20
    assert state.information_state_string(0) != state.information_state_string(1)


def test_the_information_state_is_the_seats_table_log_and_grows_with_the_game():
    from rulesdsl.table.session import Table
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy", "set": "target_score=30", "max_actions": 300})
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    asked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _deal(state, rng)
            continue
        if rng.rand() < 0.2:
            state.information_state_string(state.current_player())     # told piece by piece
            asked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    table = Table.load(state._d.game.record(), rules=game.encoding.rules)
    assert asked and state._d.game.hand_number > 1
    for seat in range(2):
        assert state.story(seat) == "\n".join(table.log(reader=seat))


def test_a_resampled_world_of_a_whole_match_is_at_the_same_decision():
    game = pyspiel.load_game("rulesdsl", {"ruleset": "gin_rummy"})
    rng = np.random.RandomState(8)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            _deal(state, rng)
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.current_player() == p and world.legal_actions() == state.legal_actions()
        assert world.information_state_string(p) == state.information_state_string(p)
        world.apply_action(world.legal_actions()[0])        # it plays on, into the next deal if need be
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked == 40
