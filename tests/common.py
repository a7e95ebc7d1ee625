"""What every game's tests share: the observable state of a game, and "illegal leaves it unchanged"."""

from __future__ import annotations

import copy

import pytest

from rulesdsl import IllegalAction


def tree_paths(node, prefix=()):
    """Every (path, node) of a raw ruleset tree, the root first (for mutation tests)."""
    from rulesdsl.source.tree import Map, Seq
    yield prefix, node
    if isinstance(node, Map):
        for k, v in node.items():
            yield from tree_paths(v, prefix + (k,))
    elif isinstance(node, Seq):
        for i, v in enumerate(node):
            yield from tree_paths(v, prefix + (i,))


def mutate_tree(tree, path, how: str, value):
    """A copy of a raw ruleset tree with one edit at ``path``: ``delete`` it, ``rename`` its key (a
    mapping's key gets an ``x``), or ``replace`` it with ``value`` (plain data) -- the mutation tests'
    edits."""
    from rulesdsl.source.tree import Map, from_plain
    tree = copy.deepcopy(tree)
    parent = tree
    for p in path[:-1]:
        parent = parent[p] if isinstance(parent, Map) else parent.items[p]
    last = path[-1]
    if isinstance(parent, Map):
        if how == "delete":
            del parent.entries[last]
        elif how == "rename":
            parent.entries[str(last) + "x"] = parent.entries.pop(last)
        else:
            parent.entries[last] = from_plain(value)
    elif how == "delete":
        del parent.items[last]
    else:
        parent.items[last] = from_plain(value)
    return tree


def graft_tree(tree, donor, path):
    """A copy of ``tree`` with the node at ``path`` of ``donor`` (another game's raw tree) added where
    ``tree`` lacks it (the parent mapping must exist): a key one game uses joins a game that never did."""
    tree = copy.deepcopy(tree)
    parent, node = tree, donor
    for p in path[:-1]:
        parent, node = parent[p], node[p]
    parent.entries[path[-1]] = copy.deepcopy(node[path[-1]])
    return tree


def graft_points(tree, donor) -> list:
    """The paths of ``donor`` (through mappings only: keys all) whose key ``tree`` lacks under a parent mapping
    it has: where ``graft_tree`` can add something."""
    from rulesdsl.source.tree import Map
    out = []

    def walk(t, d, prefix):
        for k, v in d.items():
            if k not in t.entries:
                out.append(prefix + (k,))
            elif isinstance(v, Map) and isinstance(t[k], Map):
                walk(t[k], v, prefix + (k,))

    walk(tree, donor, ())
    return out


def snapshot(game) -> dict:
    """Everything observable through the public API (for 'state unchanged' checks)."""
    n = game.view(0)["players"]
    return copy.deepcopy(dict(
        views=[game.view(s) for s in range(n)],
        history=list(game.history),
        scores=list(game.scores),
        hands_won=list(game.hands_won),
        hand_number=game.hand_number,
        hand_log=list(game.hand_log),
        current=game.current_player,
        hands=[game.hand_of(s) for s in range(n)],
        legal=[str(a) for a in game.legal_actions()],
        is_over=game.is_over,
        cards_in_play=game.cards_in_play,
    ))


def assert_illegal(game, action: str) -> None:
    """The action raises IllegalAction and leaves every observable part of the state unchanged."""
    before = snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert snapshot(game) == before, f"`{action}` was rejected but changed the state"


def random_moves(game, rng, moves: int) -> list:
    """Up to ``moves`` uniformly random legal actions (fewer if the match ends); returns their texts."""
    done = []
    for _ in range(moves):
        if game.is_over:
            break
        acts = game.legal_actions()
        a = acts[rng.randrange(len(acts))]
        game.apply(a)
        done.append(str(a))
    return done


def assert_plays_in_step(game, twin, rng, moves: int) -> None:
    """Play ``game`` on with random moves and ``twin`` with the same ones (as text); at every position
    the two must list the same legal actions, in the same order."""
    for _ in range(moves):
        if game.is_over:
            break
        acts = game.legal_actions()
        assert [str(a) for a in twin.legal_actions()] == [str(a) for a in acts]
        a = acts[rng.randrange(len(acts))]
        game.apply(a)
        twin.apply(str(a))
    assert snapshot(twin) == snapshot(game)


def mutant_trees(trees: dict, replacements):
    """A Hypothesis strategy: ``(game, tree)``, a bundled game's tree with one or two keys deleted or
    replaced by a value drawn from ``replacements`` (rulesets we did not write, for the guarantees)."""
    from hypothesis import strategies as st

    @st.composite
    def mutants(draw):
        game = draw(st.sampled_from(list(trees)))          # in the order given
        tree = trees[game]
        for _ in range(draw(st.integers(1, 2))):
            path = draw(st.sampled_from([p for p, _ in tree_paths(tree) if p]))
            tree = mutate_tree(tree, path, draw(st.sampled_from(["delete", "replace"])), draw(replacements))
        return game, tree

    return mutants()
