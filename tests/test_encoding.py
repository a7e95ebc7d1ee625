"""The fixed action numbering and observation tensor that the game-library faces share.

* Every legal action of every bundled ruleset (at every player count), of parameter sweeps and of
  mutated rulesets that load, has exactly one path of numbers, and choosing that path applies exactly
  that action: the numbering covers what a ruleset can offer, not only what our games happened to.
* The numbers offered at each decision are exactly the next steps of the legal actions' paths.
* An illegal number is refused and changes nothing.
* The numbering depends only on the ruleset (the same for its DSL copy) and the player count.
* The observation has one fixed shape, and a seat's observation is the same in every world it cannot
  tell apart from the real one (``determinize``): it holds nothing that seat may not see.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.encoding import Decisions, IllegalNumber, build_action_space
from rulesdsl.encoding.observation import fill
from rulesdsl.encoding.setup import encode
from rulesdsl.engine.actions import parse_action
from rulesdsl.source.resolve import bundled_names, find, read_file
from rulesdsl.source.writer import to_dsl, to_yaml

from common import mutant_trees, snapshot

BUNDLED = [name for name, _ in bundled_names()]
GAMES = ["gin_rummy", "president", "rummy_500", "hand_and_foot", "big_two", "crazy_eights", "contract_rummy",
         "hearts", "spades"]


def _cases():
    for name in BUNDLED:
        p = rulesdsl.load(name).model.players
        for n in sorted({p.min, p.default, p.max}):
            yield name, n


def play_through_numbers(d: Decisions, rng: random.Random, actions: int) -> int:
    """Random play where every engine action is made by walking its path of numbers, checking at each
    decision that the offered numbers are the next steps of the legal actions' paths."""
    made = 0
    while made < actions and d.current_player is not None:
        legal = d.game.legal_actions()
        paths = {d.space.path(a): a for a in legal}
        assert len(paths) == len(legal), "two legal actions share a path"
        assert {p[0] for p in paths} == set(d.legal())
        path, action = rng.choice(list(paths.items()))
        for i, number in enumerate(path):
            assert set(d.legal()) == {p[i] for p in paths if p[:i] == path[:i] and len(p) > i}
            done = d.apply(number)
            assert (done is None) == (i < len(path) - 1)
        assert d.game.history[-1] == str(action)
        made += 1
    return made


@pytest.mark.parametrize("name,players", list(_cases()))
def test_every_legal_action_of_every_bundled_ruleset_has_one_path_that_applies_it(name, players):
    rules = rulesdsl.load(name)
    space = build_action_space(rules.program(players))
    for seed in range(2):
        d = Decisions(rules.new_game(seed=seed, players=players), space)
        assert play_through_numbers(d, random.Random(seed), 400) > 0


def test_an_illegal_number_is_refused_and_changes_nothing():
    rules = rulesdsl.load("rummy_500")
    d = Decisions(rules.new_game(seed=3), build_action_space(rules.program()))
    rng = random.Random(3)
    for _ in range(60):
        before = snapshot(d.game), d.selection
        legal = set(d.legal())
        bad = next(i for i in range(d.space.size) if i not in legal)
        with pytest.raises(IllegalNumber):
            d.apply(bad)
        assert (snapshot(d.game), d.selection) == before
        d.apply(rng.choice(sorted(legal)))
        if d.current_player is None:
            break


def test_a_refused_number_says_what_it_means_or_that_it_means_nothing():
    """A number refused at a decision names itself and what it means (`describe`), and one outside the
    numbering -- below 0, the size or past it, not a whole number -- says it is not an action of this
    game rather than failing.  The first and last numbers are actions of the game."""
    rules = rulesdsl.load("rummy_500")
    space = build_action_space(rules.program())
    d = Decisions(rules.new_game(seed=3), space)
    for bad in (-1, space.size, space.size + 5, "3", 2.0):
        assert d.describe(bad) == "not an action of this game"
        with pytest.raises(IllegalNumber) as refused:
            d.apply(bad)
        assert "not an action of this game" in str(refused.value)
    assert d.describe(0) == space.describe(0) and d.describe(space.size - 1) == space.describe(space.size - 1)
    bad = next(i for i in range(space.size) if i not in set(d.legal()))
    with pytest.raises(IllegalNumber) as refused:
        d.apply(bad)
    assert f"{bad} ({space.describe(bad)}) is not a legal choice here" in str(refused.value)


def test_factored_actions_go_card_by_card_and_commit_names_what_the_cards_are_for():
    rules = rulesdsl.load("big_two")
    space = build_action_space(rules.program())
    pair = parse_action("play 7S 7D")
    path = space.path(pair)
    assert [space.describe(i) for i in path] == ["add 7S", "add 7D", "commit play"]
    single = space.path(parse_action("play 7S"))
    assert len(single) == 1 and space.describe(single[0]) == "play 7S"


def test_the_numbering_is_the_same_for_a_ruleset_and_its_dsl_copy(tmp_path):
    for name in GAMES:
        rules = rulesdsl.load(name)
        out = tmp_path / f"{name}.rules"
        out.write_text(to_dsl(read_file(find(name))))
        copy = rulesdsl.load(out)
        assert copy.digest == rules.digest
        assert build_action_space(copy.program()).names == build_action_space(rules.program()).names


def test_the_numbering_follows_the_parameters_that_shape_it():
    small = build_action_space(rulesdsl.load("president").program(4))
    again = build_action_space(rulesdsl.load("president").program(4))
    assert small.names == again.names
    wild = build_action_space(rulesdsl.load("hand_and_foot").program())
    assert any("=" in t for t in wild.tokens), "declared wild cards are tokens of their own"


# ------------------------------------------------------------------ rulesets we did not write

SWEEP = settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
REPLACEMENTS = st.one_of(st.integers(-3, 60), st.booleans(), st.none(),
                         st.sampled_from(["", "stock", "hand", "discard", "zz", "count(hand)", "all", "team"]))
TREES = {g: read_file(find(g)) for g in GAMES}


@given(m=mutant_trees(TREES, REPLACEMENTS), seed=st.integers(0, 2**31 - 1))
@SWEEP
def test_a_mutated_ruleset_that_loads_has_a_path_for_every_legal_action(tmp_path_factory, m, seed):
    game_name, tree = m
    path = tmp_path_factory.mktemp("mut") / f"{game_name}.yaml"
    path.write_text(to_yaml(tree))
    try:
        rules = rulesdsl.load(path)
        game = rules.new_game(seed=seed)
    except (rulesdsl.RulesetError, rulesdsl.RuleEvaluationError, ValueError):
        return                                  # refused at load, or its deal stops with a reason
    d = Decisions(game, build_action_space(rules.program()))
    try:
        play_through_numbers(d, random.Random(seed), 150)
    except rulesdsl.RuleEvaluationError:
        pass                                    # play stopped with a named reason: the engine's guarantee


@given(name=st.sampled_from(GAMES), data=st.data())
@SWEEP
def test_parameter_sweeps_keep_every_legal_action_numbered(name, data):
    rules = rulesdsl.load(name)
    params = [p for p in rules.model.params.values() if isinstance(p.default, (bool, int))]
    chosen = data.draw(st.lists(st.sampled_from(params), min_size=1, max_size=3, unique_by=lambda p: p.name))
    overrides = {}
    for p in chosen:
        if p.choices:
            overrides[p.name] = data.draw(st.sampled_from(list(p.choices)))
        elif isinstance(p.default, bool):
            overrides[p.name] = data.draw(st.booleans())
        else:
            lo = max(0, p.default - 3) if p.default >= 0 else p.default - 3      # a negative default: around it
            overrides[p.name] = data.draw(st.integers(lo, p.default + 3))
    try:
        swept = rulesdsl.load(name, overrides=overrides)
        game = swept.new_game(seed=data.draw(st.integers(0, 2**31)))
    except (rulesdsl.RulesetError, rulesdsl.RuleEvaluationError, ValueError):
        return
    d = Decisions(game, build_action_space(swept.program()))
    try:
        play_through_numbers(d, random.Random(1), 150)
    except rulesdsl.RuleEvaluationError:
        pass


# ------------------------------------------------------------------ observations

@pytest.mark.parametrize("name", GAMES)
def test_a_seats_observation_is_the_same_in_every_world_it_cannot_tell_from_the_real_one(name):
    enc = encode(name)
    rng = random.Random(5)
    game = enc.rules.new_game(seed=5)
    spec = enc.observation
    real, other = spec.new_tensor(), spec.new_tensor()
    checked = 0
    for _ in range(120):
        if game.is_over:
            break
        seat = rng.randrange(game.n)
        world = game.determinize(seat, random.Random(rng.random()))
        fill(spec, real, game.view(seat), [])
        fill(spec, other, world.view(seat), [])
        assert real.shape == (spec.size,)
        assert np.array_equal(real, other), f"seat {seat} can tell a determinized world from the real one"
        checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked > 20


def test_the_observation_holds_the_seats_own_hand_and_not_the_others():
    enc = encode("gin_rummy")
    game = enc.rules.new_game(seed=2)
    spec = enc.observation
    t = spec.new_tensor()
    fill(spec, t, game.view(0), [])
    hands = spec.views(t)["seat.hand"]
    kinds = {k: i for i, k in enumerate(enc.prog.cards.kind_text)}
    mine = [kinds[c] for c in game.hand_of(0)]
    assert hands[0].sum() == 10 and all(hands[0][k] == 1 for k in mine)
    assert hands[1].sum() == 0                          # the other hand: only its size
    assert spec.views(t)["seat.hand.count"][1] == 10


def test_the_selection_is_part_of_the_observation():
    enc = encode("big_two")
    rng = random.Random(1)
    game = enc.rules.new_game(seed=1)
    d = Decisions(game, enc.actions)
    for _ in range(400):
        if d.selection:
            break
        d.apply(rng.choice(d.legal()))
    assert d.selection, "a factored play was started"
    t = enc.observation.new_tensor()
    seat = d.current_player
    fill(enc.observation, t, game.view(seat), d.selected_cards())
    assert enc.observation.views(t)["selection"].sum() == len(d.selection)


def test_every_verb_of_the_notation_has_a_place_in_the_numbering():
    from rulesdsl.encoding import actions as numbering
    from rulesdsl.mechanics import Mechanic, mechanics
    from rulesdsl.model.game import CORE_VERBS
    placed = set(numbering.BARE_VERBS) | set(numbering.ONE_CARD_VERBS) | set(numbering.SET_VERBS) | {
        "draw", "take", "claim", "layoff"}
    assert set(CORE_VERBS) <= placed, f"verbs the numbering does not place: {set(CORE_VERBS) - placed}"
    for m in mechanics():                         # a mechanic's own verbs: numbered from its `action_texts`
        assert not m.verbs or type(m).action_texts is not Mechanic.action_texts, m.key


def test_the_encoding_command_prints_the_numbering_the_faces_use():
    import json
    from click.testing import CliRunner
    from rulesdsl.cli.main import cli
    result = CliRunner().invoke(cli, ["encoding", "big_two", "--players", "3", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    enc = encode("big_two", players=3)
    assert data["actions"]["names"] == list(enc.actions.names)
    assert data["digest"] == enc.rules.digest
    assert sum(p["size"] for p in data["observation"]["pieces"]) == enc.observation.size
    words = CliRunner().invoke(cli, ["encoding", "gin_rummy", "--set", "knock_limit=5"])
    assert words.exit_code == 0 and "knock 10H" in words.output
    assert CliRunner().invoke(cli, ["encoding", "gin_rummy", "--players", "3"]).exit_code == 2


def test_the_numbering_and_its_layout_need_no_numpy():
    import subprocess
    import sys
    code = ("import sys; sys.modules['numpy'] = None\n"
            "from rulesdsl.encoding.setup import encode\n"
            "e = encode('gin_rummy'); print(e.actions.size, e.observation.size)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    enc = encode("gin_rummy")
    assert out.stdout.split() == [str(enc.actions.size), str(enc.observation.size)]


@pytest.mark.parametrize("name", BUNDLED)
def test_every_observation_stays_within_the_bounds_its_layout_declares(name):
    enc = encode(name)
    low, high = (np.array(b, np.float32) for b in enc.observation.low_high())
    assert low.shape == high.shape == (enc.observation.size,)
    assert set(enc.observation.bounds) == {p for p, _ in enc.observation.pieces}
    rng = random.Random(9)
    d = Decisions(enc.rules.new_game(seed=9), enc.actions)
    tensor = enc.observation.new_tensor()
    for _ in range(150):
        if d.current_player is None:
            break
        for seat in range(enc.players):
            fill(enc.observation, tensor, d.game.view(seat), d.selected_cards() if seat == d.current_player else [])
            outside = np.flatnonzero((tensor < low) | (tensor > high))
            assert not outside.size, [p for p, _ in enc.observation.pieces][:3]
        d.apply(rng.choice(d.legal()))


def test_bids_and_the_trick_in_play_are_seen_by_every_seat():
    enc = encode("spades", overrides={"blind_nil": False})
    game = enc.rules.new_game(seed=4)
    d = Decisions(game, enc.actions)
    rng = random.Random(4)
    while game.phase != "tricks" or len(game.history) < 6:
        d.apply(rng.choice(d.legal()))
    spec = enc.observation
    tensor = spec.new_tensor()
    bids = [b for b in game.view(0)["bids"]]
    plays = game.view(0)["trick"]["plays"]
    assert all(b is not None for b in bids) and plays
    for seat in range(4):
        fill(spec, tensor, game.view(seat), [])
        v = spec.views(tensor)
        assert v["bids.made"].sum() == 4
        for s, bid in enumerate(bids):
            r = (s - seat) % 4
            assert (v["bids"][r] == bid) if isinstance(bid, int) else v["bids.calls"][r].sum() == 1
        assert v["tricks.plays"].sum() == len(plays)
        for play in plays:
            assert v["tricks.plays"][(play["seat"] - seat) % 4][spec.kind_of[play["card"]]] == 1
        assert v["tricks.trump"][spec.suits.index("S")] == 1


@pytest.mark.parametrize("cut_short", [False, True])
def test_returns_pay_the_lowest_total_where_the_lowest_wins(cut_short):
    from rulesdsl.encoding.setup import seat_returns
    rng = random.Random(3)
    for returns in ("win", "score"):
        enc = encode("hearts", returns=returns)
        game = enc.rules.new_game(seed=3)
        while not game.is_over and (not cut_short or game.hand_number == 1):
            game.apply(rng.choice(game.legal_actions()))
        paid = seat_returns(enc, game, cut_short)
        best = min(range(4), key=lambda s: game.scores[s])
        assert abs(sum(paid)) < 1e-9
        assert paid[best] == max(paid) > 0, (game.scores, paid)
        if not cut_short and returns == "win":
            assert paid[game.winner] == 1.0
