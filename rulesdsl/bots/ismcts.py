"""``ismcts``: information-set Monte Carlo tree search, for any ruleset.

The bot cannot see the other hands or the stock, so it searches many possible worlds at once
(single-observer ISMCTS, Cowling, Powley and Whitehouse 2012): each iteration deals the hidden cards
again (``game.determinize(seat, rng)``, consistent with all the seat has seen), walks down one shared
tree of actions restricted to those legal in that world, adds one new action, plays the rest of the
deal out with a rollout policy, and credits every seat with how the deal went for it.  Across
iterations the tree's statistics average over the worlds, so the bot plays what is good *in general*,
not in one guessed world.

Details that matter for card games:

* **Availability**: an action legal in only some worlds is judged against how often it was available
  (UCB with availability counts), not against all visits.
* **Whose reward**: each node keeps the reward of the seat that chose its action, so opponents in the
  tree play for themselves; partners share their team's reward.
* **The end of a deal**: an iteration stops when the deal ends (the next deal is a fresh shuffle the
  search cannot inform) or after ``depth`` decisions of rollout.  A finished deal is scored by what it
  did to each side's score; a cut-off one by the greedy bot's measure of each seat's position (the
  ruleset's own scoring of what it holds and has laid down, deadwood, what its cards may become), or,
  in climbing and shedding games (``Mechanic.sheds``), by the cards each side still holds (fewer and
  cheaper is better).  Each side's reward is 0.5 + 0.5 tanh(its lead over the average of the other sides / a unit), the unit being four
  average card values, so wins count by their size and the same search suits every scoring scale.
* **Leaves**: by default (``depth=None``) a new leaf is judged at once by that measure wherever the
  ruleset scores positions (melds, deadwood, points in hand), and played out to the end of the deal
  with the ``rollout`` policy (greedy by default) in climbing games, where the cards held say little
  until the race is run.  Measured against the greedy bot (``benchmarks/bench_strength.py``): in a
  two-player knock game, 300 iterations won 11 of 16 matches judged at once, 6 of 10 after 3 random
  rollout moves and 1 of 6 after 20; in a five-player climbing game, playing deals out with greedy
  rollouts finished 2.5th on average against greedy players, random rollouts 2.8th.  ``depth=N``
  plays ``N`` rollout decisions before judging.
* **Scale**: ``scale`` (default 4) average card values make one unit of the reward's tanh; at 300
  iterations against greedy in the knock game, 1 and 4 won 11 and 13 of 20 matches (not separable).
* **Budget**: ``iterations`` per decision, or ``seconds`` per decision when given (reproducible only
  with ``iterations``).  A decision with one legal action is made without search.
"""

from __future__ import annotations

import math
import random
import time
from typing import Optional

from ..engine.actions import Action


#: a bound on the rollout of a deal played to its end (a deal that runs longer is judged where it is)
_WHOLE_DEAL = 400


class _Node:
    __slots__ = ("children", "seat", "visits", "avail", "reward")

    def __init__(self, seat: int = -1):
        self.children: dict = {}           # action -> _Node
        self.seat = seat                   # who chose the action leading here
        self.visits = 0
        self.avail = 0                     # iterations in which this action was legal
        self.reward = 0.0


class ISMCTSBot:
    def __init__(self, seed: Optional[int] = None, iterations: int = 1000, seconds: Optional[float] = None,
                 rollout: str = "greedy", depth: Optional[int] = None, exploration: float = 0.7,
                 scale: float = 4.0):
        if not (type(iterations) is int and iterations >= 1):
            raise ValueError(f"iterations must be a whole number, 1 or more (not {iterations!r})")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise ValueError(f"seconds must be a positive number (not {seconds!r})")
        if rollout not in ("random", "greedy"):
            raise ValueError(f"rollout must be random or greedy (not {rollout!r})")
        if depth is not None and not (type(depth) is int and depth >= 0):
            raise ValueError(f"depth must be a whole number, 0 or more (not {depth!r})")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.exploration = exploration
        self.scale = scale
        self.rollout = rollout
        self._policy = None
        self._worth = None
        self._scale = None
        self.last_iterations = 0           # iterations made for the last decision (for reports)

    # ------------------------------------------------------------------ the decision
    def choose(self, game) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        me = game.current_player
        root = _Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(game, me, root)
            done += 1
        self.last_iterations = done
        best = max((root.children[a].visits, -i) for i, a in enumerate(actions) if a in root.children)
        return actions[-best[1]]

    def _iterate(self, game, me: int, root: _Node) -> None:
        world = game.determinize(me, self.rng)
        hand, scores = world.hand_number, list(world.scores)
        start = None if self.depth is None and world.prog.sheds else self._standing(world)
        path = [root]
        node = root
        while not world.is_over and world.hand_number == hand:
            legal = world.legal_actions()
            seat = world.current_player
            fresh = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if fresh:
                a = fresh[self.rng.randrange(len(fresh))]
                child = node.children[a] = _Node(seat)
                child.avail = 1
                world.apply(a)
                path.append(child)
                break
            a = self._select(node, legal)
            node = node.children[a]
            world.apply(a)
            path.append(node)
        self._play_out(world, hand)
        reward = self._rewards(world, hand, scores, start)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.reward += reward[n.seat]

    def _select(self, node: _Node, legal: list):
        """UCB over the actions legal in this world, exploring by availability."""
        c = self.exploration
        best, best_a = -1.0, legal[0]
        log = math.log
        for a in legal:
            ch = node.children[a]
            v = ch.reward / ch.visits + c * math.sqrt(log(ch.avail) / ch.visits) if ch.visits else 1e9
            if v > best:
                best, best_a = v, a
        return best_a

    # ------------------------------------------------------------------ rollout and reward
    def _play_out(self, world, hand: int) -> None:
        policy = self._rollout_policy()
        depth = self.depth
        if depth is None:                   # judged at once where a position can be, else played out
            depth = _WHOLE_DEAL if world.prog.sheds else 0
        for _ in range(depth):
            if world.is_over or world.hand_number != hand:
                return
            if policy is None:
                legal = world.legal_actions()
                world.apply(legal[self.rng.randrange(len(legal))])
            else:
                world.apply(policy.choose(world))

    def _rollout_policy(self):
        if self.rollout == "random":
            return None
        if self._policy is None:
            from .greedy import GreedyBot
            self._policy = GreedyBot(seed=self.rng.randrange(1 << 30))
        return self._policy

    def _judge(self):
        """The greedy bot's measure of a position, for deals cut off before their end."""
        if self._worth is None:
            from .greedy import GreedyBot
            self._worth = GreedyBot(seed=0)
        return self._worth

    def _unit(self, prog) -> float:
        """The scale of a difference in points: ``scale`` average card values (at least 1)."""
        if self._scale is None or self._scale[0] is not prog:
            values = prog.cards.value
            mean = sum(abs(v) for v in values) / len(values) if values else 0
            self._scale = (prog, max(1.0, self.scale * mean))
        return self._scale[1]

    def _standing(self, world) -> list:
        """Each side's position by the measure that judges cut-off deals (greater is better)."""
        sides = len(world.scores)
        if world.prog.sheds:
            return [-_holding(world, s) for s in range(sides)]
        judge = self._judge()
        out = [0.0] * sides
        for seat in range(world.n):
            out[world.team_of(seat)] += judge.worth(world, seat)
        return out

    def _rewards(self, world, hand: int, scores: list, start: Optional[list]) -> list:
        """Each seat's reward in [0, 1]: 0.5 + 0.5 tanh(how far its side gained more than the average
        of the others, in units of four average cards), so a big win counts more than a narrow one.
        A finished deal's gain is the points it scored; a cut-off one's is the change in each side's
        standing since the iteration began (the hidden cards' luck, dealt at random, cancels out)."""
        ended = world.is_over or world.hand_number != hand
        sides = len(world.scores)
        if ended:
            gain = [world.scores[s] - scores[s] for s in range(sides)]
        else:
            now = self._standing(world)
            if start is None:                   # a played-out deal past the rollout bound: as it stands
                start = [0.0] * sides
            gain = [now[s] - start[s] for s in range(sides)]
        unit = 2.0 if not ended and world.prog.sheds else self._unit(world.prog)
        if sides == 1:
            side_reward = [0.5 + 0.5 * math.tanh(gain[0] / unit)]
        else:
            side_reward = []
            for s in range(sides):
                others = (sum(gain) - gain[s]) / (sides - 1)
                side_reward.append(0.5 + 0.5 * math.tanh((gain[s] - others) / unit))
        return [side_reward[world.team_of(seat)] for seat in range(world.n)]


def _holding(world, side: int) -> float:
    """What a side still holds at a cut-off: the value of its cards as the ruleset counts them (and
    their number, so that a ruleset whose cards count nothing still prefers fewer)."""
    value = world.prog.cards.value
    total = 0.0
    seats = world.members(side) if world.teams else (side,)
    for s in seats:
        held = world.held_cards(s)
        total += len(held) + sum(abs(value[c]) for c in held) / 100
    return total
