"""The guarantees hold for every ruleset that validates, not only for ours.

* Progress: while a match is not over, the player who must act has a legal action -- after every action,
  in every bundled game and variant at every allowed player count, under parameter sweeps, and in
  mutated rulesets that still load.
* Located failures: whatever a ruleset makes impossible is refused at load (``RulesetError`` with
  located diagnostics) or stops play with a ``RuleEvaluationError``; nothing else escapes.
* Atomic refusals: malformed or illegal action text raises ``IllegalAction`` and changes nothing.
* The command line answers every ruleset text with exit status 0, 1 or 2, never "internal error",
  never a traceback, never a raw control character.

Playouts are random and bounded in decisions (a match still running at the bound is not a failure: some
parameter values make matches very long).  The Hypothesis examples are derandomised in CI (conftest.py).
"""

from __future__ import annotations

import random
import re
import signal
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulesdsl
from rulesdsl.cli.main import cli
from rulesdsl.source.resolve import bundled_names, find, read_file
from rulesdsl.source.writer import to_yaml

from common import graft_points, graft_tree, mutant_trees, snapshot

GAMES = ["gin_rummy", "president", "rummy_500", "hand_and_foot", "big_two", "crazy_eights", "hearts", "spades"]
BUNDLED = [name for name, _ in bundled_names()]
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SWEEP = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


class Stalled(AssertionError):
    pass


def play_checked(game, rng: random.Random, max_decisions: int) -> str:
    """Random play, checking progress after every action.  Returns "over" or "running" (the bound)."""
    for _ in range(max_decisions):
        if game.is_over:
            return "over"
        actions = game.legal_actions()
        if not actions:
            raise Stalled(f"no legal action for seat {game.current_player} in hand {game.hand_number} "
                          f"({game.phase}); last actions: {game.history[-6:]}")
        game.apply(actions[rng.randrange(len(actions))])
    return "over" if game.is_over else "running"


def _cases():
    for name in BUNDLED:
        p = rulesdsl.load(name).model.players
        for n in range(p.min, p.max + 1):
            yield name, n


@pytest.mark.parametrize("name,players", list(_cases()))
def test_every_bundled_ruleset_at_every_player_count_always_offers_a_legal_action(name, players):
    rules = rulesdsl.load(name)
    for seed in range(2):
        game = rules.new_game(seed=seed, players=players)
        play_checked(game, random.Random(seed), 3000)         # raises Stalled at a dead end


# ------------------------------------------------------------------ parameter sweeps


def _value_for(param, draw):
    """A value for a declared parameter: a declared choice, either truth value, a number around and
    beyond the declared range, or a list of such numbers -- including values the ruleset must refuse."""
    d = param.default
    if param.choices:
        return draw(st.sampled_from(list(param.choices)))
    if isinstance(d, bool):
        return draw(st.booleans())
    if isinstance(d, int):
        lo = int(param.lo) if param.lo is not None else -2
        hi = int(param.hi) if param.hi is not None else max(4, 2 * d + 3)
        return draw(st.one_of(st.integers(lo, hi), st.sampled_from([-1, 0, 1, d, d + 1, 10 * d + 7])))
    if isinstance(d, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in d):
        n = len(d)
        return draw(st.lists(st.integers(-5, 400), min_size=max(0, n - 1), max_size=n + 1))
    return d


@st.composite
def swept(draw):
    name = draw(st.sampled_from(GAMES))
    rules = rulesdsl.load(name)
    params = list(rules.model.params.values())
    chosen = draw(st.lists(st.sampled_from(params), min_size=1, max_size=3, unique_by=lambda p: p.name))
    overrides = {p.name: _value_for(p, draw) for p in chosen}
    p = rules.model.players
    players = draw(st.integers(p.min, p.max))
    return name, overrides, players, draw(st.integers(0, 2**31 - 1))


@given(case=swept())
@SWEEP
def test_parameter_sweeps_are_refused_at_load_or_play_without_a_dead_end(case):
    name, overrides, players, seed = case
    try:
        rules = rulesdsl.load(name, overrides=overrides)
    except rulesdsl.RulesetError as exc:
        assert exc.diagnostics and all(d.pos.line > 0 or d.pos.path for d in exc.diagnostics)
        return
    try:
        game = rules.new_game(seed=seed, players=players)
        play_checked(game, random.Random(seed), 1500)
    except rulesdsl.RuleEvaluationError as exc:
        assert str(exc) and "has no legal action" not in str(exc), str(exc)   # a named reason, not a dead end


# ------------------------------------------------------------------ mutated rulesets

REPLACEMENTS = st.one_of(
    st.integers(-3, 60), st.booleans(), st.none(),
    st.sampled_from(["", "stock", "hand", "discard", "zz", "not", "1 +", "params.nope", "count(hand)",
                     "count(stock) > 2", "deal.number", "[1, 2", "max(a for a in seats)", "all", "team"]),
    st.just({}), st.just([]), st.just([1, "x", None]),
)


TREES = {g: read_file(find(g)) for g in GAMES}


def mutants():
    return mutant_trees(TREES, REPLACEMENTS).map(lambda m: (m[0], to_yaml(m[1])))


@given(m=mutants(), seed=st.integers(0, 2**31 - 1))
@SWEEP
def test_a_mutated_ruleset_that_loads_plays_without_a_dead_end(tmp_path_factory, m, seed):
    loads_then_plays(tmp_path_factory, m[1], seed)


def loads_then_plays(tmp_path_factory, text: str, seed: int) -> None:
    """The ruleset ``text`` is refused with located diagnostics, or random play never finds a seat with
    no legal action (a located ``RuleEvaluationError`` may stop it, but not the engine's own report of a
    seat with nothing to do)."""
    f = tmp_path_factory.mktemp("mutant") / "mutant.yaml"
    f.write_text(text)
    try:
        rules = rulesdsl.load(str(f))
    except rulesdsl.RulesetError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.code.startswith("E-") and d.message and d.pos.path
        return
    try:
        p = rules.model.players
        game = rules.new_game(seed=seed, players=p.min + seed % (p.max - p.min + 1))
        play_checked(game, random.Random(seed), 800)
    except rulesdsl.RuleEvaluationError as exc:
        assert str(exc) and "has no legal action" not in str(exc), str(exc)   # a dead end is no located stop


@st.composite
def grafted(draw):
    """A bundled game with one or two keys of another bundled game added (a house rule from elsewhere:
    an initial minimum beside runs, a table in a shedding game, a stock-out in a trick game)."""
    game = draw(st.sampled_from(GAMES))
    tree = TREES[game]
    for _ in range(draw(st.integers(1, 2))):
        donor = TREES[draw(st.sampled_from([g for g in GAMES if g != game]))]
        points = graft_points(tree, donor)
        if points:
            tree = graft_tree(tree, donor, draw(st.sampled_from(points)))
    return game, to_yaml(tree)


@given(m=grafted(), seed=st.integers(0, 2**31 - 1))
@SWEEP
def test_a_ruleset_grafted_with_another_games_keys_that_loads_plays_without_a_dead_end(tmp_path_factory, m, seed):
    """Keys no bundled game combines: whatever loads plays on (or stops with a located error)."""
    loads_then_plays(tmp_path_factory, m[1], seed)


# ------------------------------------------------------------------ the command line on any text


@contextmanager
def hang_guard(seconds: int):
    """Fail a run that does not come back at all (a hang detector, far above any normal run)."""
    def stop(*_):
        raise AssertionError(f"no answer within {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


TEXT_EDITS = st.sampled_from(["delete_line", "duplicate_line", "insert_text", "cut"])
INSERTS = st.sampled_from(["\x1b[2J", "\x1b]0;owned\x07", ":", "- ", "{", "}", "[", "]", "'", '"', "\t",
                           "  ", "\n", "&a", "*a", "!!python/object:os.system", "~", "1e400", "\ud800",
                           "9" * 5000, "(" * 200, "count(c for c in stock where count(d for d in stock) > 0)"])


@st.composite
def edited_texts(draw):
    game = draw(st.sampled_from(GAMES))
    lines = find(game).read_text().splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(TEXT_EDITS)
        if how == "delete_line":
            del lines[i]
        elif how == "duplicate_line":
            lines.insert(i, lines[i])
        elif how == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:
            j = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:j] + draw(INSERTS) + lines[i][j:]
    return "\n".join(lines) + "\n"


@given(text=edited_texts())
@SWEEP
def test_validate_answers_any_text_with_0_1_or_2_and_prints_no_control_character(tmp_path_factory, text):
    f = tmp_path_factory.mktemp("edited") / "edited.yaml"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    runner = CliRunner()
    with hang_guard(120):
        for fmt in ("text", "json"):
            result = runner.invoke(cli, ["validate", str(f), "--format", fmt])
            out = result.output
            crash = result.exception if not isinstance(result.exception, SystemExit) else None
            assert crash is None, f"internal error: {type(crash).__name__}: {crash}"
            assert result.exit_code in (0, 1, 2), (result.exit_code, out[-2000:])
            assert "internal error" not in out and "Traceback" not in out
            assert not CONTROL.search(out), "a control character reached the output"


# ------------------------------------------------------------------ action text


ACTION_NOISE = st.sampled_from(["", " ", "pass pass", "draw", "draw nowhere", "discard", "discard ZZ",
                                "discard 3H 3H", "play", "play 3H on 99999999999999999999",
                                "meld 7S 7H 7C on 1", "layoff", "layoff 5H on 0", "layoff 5H on -1",
                                "take discard 999", "take discard -1", "knock", "gin", "ask", "yes",
                                "x" * 10000, "\x1b[2J", "play 9S Jk=9H", "meld 2C=ZZ", "\ud800"])


@given(game_name=st.sampled_from(GAMES), seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       noise=st.lists(st.one_of(ACTION_NOISE, st.text(max_size=30)), min_size=1, max_size=6),
       mangle=st.booleans())
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_action_text_is_refused_whole_or_taken_as_a_legal_action(game_name, seed, steps, noise, mangle):
    game = rulesdsl.load(game_name).new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        acts = game.legal_actions()
        game.apply(acts[rng.randrange(len(acts))])
    if game.is_over:
        return
    legal = [str(a) for a in game.legal_actions()]
    if mangle:                                               # near misses of the legal texts
        noise = noise + [a.upper() for a in legal[:3]] + [a + " extra" for a in legal[:3]]
    for text in noise:
        before = snapshot(game)
        try:
            game.apply(text)
        except rulesdsl.IllegalAction as exc:
            assert snapshot(game) == before, f"`{text!r}` was refused but changed the game"
            assert len(str(exc)) < 2000, "a refusal echoes a huge input back"
            continue
        # accepted: it was one of the legal actions, and the history records its canonical text
        assert game.history[-1] in legal, (text, game.history[-1])
        return
