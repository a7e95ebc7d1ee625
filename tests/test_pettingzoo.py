"""The PettingZoo face (``rulesdsl.pettingzoo``): PettingZoo's own conformance tests for every bundled
game and variant, and the promises PettingZoo cannot check -- the mask is exactly the engine's legal
list, an agent's observation and render show nothing it may not see, rewards are ``seat_returns`` and
sum to zero, an illegal number changes nothing, a game ends within its bounds.

Without pettingzoo these tests skip, except under CI (``CI`` set), where they fail.
Of PettingZoo 1.27's other checks: ``max_cycles_test`` does not apply (it needs a ``parallel_env`` and
a ``max_cycles`` argument; turns in a card game are not simultaneous): ``max_actions`` truncation is
tested here instead.  ``bombardment_test`` cannot take a Dict observation (it passes the whole Dict where
it compares arrays, and keeps ``step()``'s None as the next observation); ``api_test`` plays the same
random masked games.  ``parallel_test``, ``state_test`` and ``save_obs_test`` are for parallel envs,
``state()`` (not offered) and image observations.
"""

from __future__ import annotations

import collections
import os
import re
import warnings

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("pettingzoo", reason="pip install '.[pettingzoo]'")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402

import rulesdsl.pettingzoo as pz  # noqa: E402
from rulesdsl.encoding.decisions import Decisions  # noqa: E402
from rulesdsl.encoding.setup import seat_returns  # noqa: E402
from rulesdsl.source.resolve import bundled_names  # noqa: E402

ALL = [n for n, _ in bundled_names()]
GAMES = [n for n in ALL if not n.startswith("variants/")]
#: variants whose wild cards make declared tokens (`Jk=10H`), besides the games
WILD = ["variants/contract_rummy_deuces_wild", "variants/president_jokers_wild"]


@pytest.fixture(autouse=True)
def _quiet():
    """PettingZoo warns that a Dict observation is not a Box (its own classic games do the same)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play(env, seed: int, on_step=None, limit: int = 20000) -> list:
    """Play ``env`` from ``reset(seed)`` with random masked numbers until every agent has left;
    ``on_step(env, agent, obs)`` is called before each live step.  Returns the rewards ``last()``
    gave each agent as it left."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final.append((agent, reward))
            env.step(None)
            continue
        if on_step is not None:
            on_step(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents, "the game did not end within the step limit"
    return final


# -- PettingZoo's own tests -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL)
def test_api(name):
    env = pz.env(name, deals=1)
    assert isinstance(env, OrderEnforcingWrapper)
    api_test(env, num_cycles=1000)


@pytest.mark.parametrize("name", ALL)
def test_seed(name):
    seed_test(lambda: pz.env(name, deals=1), num_cycles=60)


@pytest.mark.parametrize("name", GAMES)
def test_render(name):
    render_test(lambda render_mode=None: pz.env(name, deals=1, render_mode=render_mode),
                custom_tests={"ansi": lambda text: isinstance(text, str) and " -- seen by player_" in text})


def test_seeds_fix_the_deal_and_differ_between_each_other():
    """``seed_test`` would pass for an environment that ignores its seed; this one must not."""
    env = pz.raw_env("gin_rummy")
    env.reset(seed=1)
    first = env.game.hand_of(0)
    env.reset(seed=1)
    assert env.game.hand_of(0) == first
    hands = set()
    for seed in range(2, 6):
        env.reset(seed=seed)
        hands.add(tuple(env.game.hand_of(0)))
    hands.add(tuple(first))
    assert len(hands) > 1
    env.reset()
    unseeded = env.game.seed
    env.reset()
    assert env.game.seed != unseeded, "reset() without a seed must not repeat a game"


# -- the mask is the engine's legal list ----------------------------------------------------------------
def paths_oracle(space, game, selection: tuple) -> set:
    """The next numbers of the paths of the engine's legal actions that extend ``selection``."""
    k = len(selection)
    out = set()
    for action in game.legal_actions():
        path = space.path(action)
        if len(path) > k and path[:k] == selection:
            out.add(path[k])
    return out


def decoded(game, space, selection: tuple = ()) -> collections.Counter:
    """Every engine action reachable by choosing masked numbers from ``selection`` on (the game is not
    changed: ``completing`` only judges)."""
    found: collections.Counter = collections.Counter()
    probe = Decisions(game, space)
    probe.selection = selection
    for number in probe.legal():
        action = probe.completing(number)
        if action is None:
            found += decoded(game, space, selection + (number,))
        else:
            found[str(action)] += 1
    return found


@pytest.mark.parametrize("name", GAMES + WILD)
def test_mask_is_exactly_the_legal_list(name):
    env = pz.raw_env(name, deals=1)
    space = env.encoding.actions
    seen = collections.Counter()

    def check(env, agent, obs):
        d = env.decisions
        mask = set(np.flatnonzero(obs["action_mask"]).tolist())
        assert mask == paths_oracle(space, d.game, d.selection)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), f"{other} has a mask off turn"
        if not d.selection:
            legal = collections.Counter(str(a) for a in d.game.legal_actions())
            assert decoded(d.game, space) == legal, "masked numbers do not decode to the legal list"
            seen["positions"] += 1
        else:
            seen["inside a factored action"] += 1

    play(env, seed=3, on_step=check)
    assert seen["positions"] > 10


def test_a_factored_action_is_chosen_card_by_card():
    """A meld is several steps of one agent; the selection shows in its observation, not in others'."""
    env = pz.raw_env("rummy_500", deals=1)
    space = env.encoding.actions
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter(3000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            multi = [a for a in env.game.legal_actions() if len(space.path(a)) > 1]
            if multi and not env.decisions.selection:
                return _step_through(env, agent, multi[0])
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no factored action came up in 40 deals")


def _step_through(env, agent, action):
    space = env.encoding.actions
    before = len(env.game.history)
    path = space.path(action)
    sel = env.encoding.observation.views(env.observe(agent)["observation"])["selection"]
    assert not sel.any()
    for number in path[:-1]:
        env.step(number)
        assert env.agent_selection == agent and len(env.game.history) == before
    mine = env.encoding.observation.views(env.observe(agent)["observation"])["selection"]
    assert mine.sum() == len(action.cards) + sum(len(m) for m in action.melds)
    other = next(a for a in env.agents if a != agent)
    assert not env.encoding.observation.views(env.observe(other)["observation"])["selection"].any()
    env.step(path[-1])
    assert str(env.game.history[-1]) == str(action)


# -- nothing leaks ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_observation_ignores_cards_hidden_from_the_agent(name):
    """Dealing every card an agent cannot see again (``determinize``) leaves its observation as it was;
    the other seats' hands do change, so the check is not vacuous."""
    import random
    env = pz.raw_env(name, deals=1)
    changed = 0
    checked = 0

    def check(env, agent, obs):
        nonlocal changed, checked
        if checked >= 12 or env.decisions.selection or rng.random() > 0.3:
            return
        real = env._decisions
        for seat, watcher in enumerate(env.possible_agents):
            mine = env.observe(watcher)
            twin = Decisions(real.game.determinize(seat, random.Random(checked)), real.space)
            env._decisions = twin
            try:
                other = env.observe(watcher)
            finally:
                env._decisions = real
            assert np.array_equal(mine["observation"], other["observation"]), f"{watcher} sees hidden cards"
            assert np.array_equal(mine["action_mask"], other["action_mask"])
            changed += any(real.game.hand_of(s) != twin.game.hand_of(s) for s in range(real.game.n) if s != seat)
        checked += 1

    rng = random.Random(5)
    play(env, seed=5, on_step=check)
    assert checked and changed


@pytest.mark.parametrize("name", GAMES)
def test_render_shows_own_hand_and_no_hidden_card(name):
    env = pz.raw_env(name, deals=1, render_mode="ansi")
    shown = 0

    def check(env, agent, obs):
        nonlocal shown
        game = env.game
        seat = env.seat_of(agent)
        text = env.render()
        words = set(re.findall(r"[^\s,:;=()\[\]{}\"]+", text))
        own = game.hand_of(seat)
        assert set(own) <= words, "render lacks the agent's own hand"
        visible = set(re.findall(r"[^\s,:;=()\[\]{}\"]+", _json(game.view(seat))))
        for other in range(game.n):
            if other != seat:
                for card in set(game.hand_of(other)) - visible:
                    assert card not in words, f"render names {card} from another seat's hidden hand"
        shown += 1

    play(env, seed=2, on_step=check)
    assert shown > 5
    assert "(you)" in env.render()


def _json(value) -> str:
    import json
    return json.dumps(value)


def test_render_modes():
    env = pz.raw_env("gin_rummy", render_mode="human")
    env.reset(seed=4)
    assert env.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        pz.raw_env("gin_rummy", render_mode="rgb_array")


# -- rewards and endings -----------------------------------------------------------------------------------
@pytest.mark.parametrize("returns", ["win", "score"])
@pytest.mark.parametrize("name", ["rummy_500", "president", "big_two", "crazy_eights"])
def test_rewards_are_seat_returns_and_sum_to_zero(name, returns):
    """Over a few deals (a deal may end level, paying nothing), every payout is ``seat_returns``."""
    env = pz.raw_env(name, deals=1, returns=returns)
    paid = 0
    for seed in range(6):
        final = dict(play(env, seed=seed))
        game = env.game
        expected = seat_returns(env.encoding, game, not game.is_over)
        assert sorted(final) == sorted(env.possible_agents)
        assert [final[a] for a in env.possible_agents] == pytest.approx(expected)
        assert sum(final.values()) == pytest.approx(0.0)
        paid += any(v != 0 for v in final.values())
    assert paid, "no deal paid anyone"


def test_rewards_come_only_at_the_end():
    env = pz.raw_env("crazy_eights", deals=1)
    paid = []
    play(env, seed=1, on_step=lambda env, agent, obs: paid.append(sum(abs(v) for v in env._cumulative_rewards.values())))
    assert paid and not any(paid)


@pytest.mark.parametrize("deals", [1, 2])
def test_deals_end_the_game_by_termination(deals):
    env = pz.raw_env("gin_rummy", deals=deals)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    assert term and not trunc and all(env.terminations.values())
    assert game.is_over or game.hand_number == deals + 1


def test_a_whole_match_ends_with_its_winner_paid():
    """Without ``deals`` the game is the whole match: it ends when the engine says so, uncut."""
    env = pz.raw_env("crazy_eights", players=2)
    final = dict(play(env, seed=4, limit=100000))
    game = env.game
    assert game.is_over and game.hand_number > 1
    winner = env.possible_agents[game.winner]
    assert final[winner] == 1.0 and sum(final.values()) == pytest.approx(0.0)


def test_max_actions_truncates():
    env = pz.raw_env("hand_and_foot", max_actions=25)
    final = play(env, seed=3)
    game = env.game
    assert len(game.history) == 25 and not game.is_over
    assert [r for _, r in final] == pytest.approx(
        [seat_returns(env.encoding, game, True)[env.seat_of(a)] for a, _ in final])
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(10000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert trunc and not term and all(env.truncations.values())


# -- illegal numbers -----------------------------------------------------------------------------------------
def snapshot(env) -> tuple:
    return (env.game.record(), env.decisions.selection, env.agent_selection,
            {a: env.observe(a)["observation"].tobytes() for a in env.agents},
            dict(env._cumulative_rewards), dict(env.terminations))


@pytest.mark.parametrize("wrapped", [False, True])
def test_an_illegal_number_is_refused_and_changes_nothing(wrapped):
    env = pz.env("gin_rummy") if wrapped else pz.raw_env("gin_rummy")
    raw = env.unwrapped
    env.reset(seed=6)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = snapshot(raw)
    with pytest.raises(pz.IllegalActionNumber, match="cannot choose"):
        env.step(illegal)
    assert snapshot(raw) == before
    with pytest.raises((pz.IllegalActionNumber, AssertionError)):
        env.step(raw.encoding.actions.size)
    with pytest.raises(pz.IllegalActionNumber):
        raw.step(-1)
    with pytest.raises(pz.IllegalActionNumber):
        raw.step("draw stock")
    assert snapshot(raw) == before
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))          # and it plays on


def test_illegal_reward_follows_pettingzoo_convention():
    env = pz.env("gin_rummy", illegal_reward=-1)
    env.reset(seed=6)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1


def test_spaces_and_observation_bounds():
    env = pz.raw_env("hand_and_foot")
    enc = env.encoding
    for agent in env.possible_agents:
        assert env.action_space(agent).n == enc.actions.size
        space = env.observation_space(agent)
        assert space["observation"].shape == (enc.observation.size,)
        assert space["action_mask"].shape == (enc.actions.size,)
    env.reset(seed=2)
    assert env.observation_space("player_0").contains(env.observe("player_0"))
    assert env.agents == ["player_0", "player_1", "player_2", "player_3"]


def test_players_and_ruleset_parameters_pass_through():
    env = pz.raw_env("crazy_eights", players=3, deals=1)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    knock = pz.raw_env("gin_rummy", knock_limit=5)
    assert knock.encoding.rules.params["knock_limit"] == 5


def test_missing_extra_names_the_install_command():
    import subprocess
    import sys
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n    import rulesdsl.pettingzoo\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert "pip install 'rulesdsl[pettingzoo]'" in out.stdout


def test_readme_example_runs():
    """The README's PettingZoo example plays a deal as written."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    text = (root / "README.md").read_text()
    code = re.search(r"```python\n(import rulesdsl\.pettingzoo\n.*?)```", text, re.S).group(1)
    code += "\nassert not env.agents and env.unwrapped.game.hand_number >= 2 or env.unwrapped.game.is_over\nprint('done')\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(root)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("done")


def test_the_package_names_no_game():
    """Games are data: the environment is the same code for every ruleset."""
    from pathlib import Path
    words = {"gin", "rummy", "knock", "president", "big two", "crazy eights", "hand and foot", "canasta",
             "hearts", "spades", "whist", "bridge"}
    for name in GAMES:
        words.add(name.replace("_", " "))
    for path in Path(pz.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8").lower().replace("_", " ")
        for word in words:
            assert not re.search(r"\b" + word + r"\b", text), f"{path.name} names {word!r}"
