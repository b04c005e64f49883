"""``ismcts``: Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, 2012).

Single-observer ISMCTS with per-player values. Each iteration

1. samples a determinization from the seat's view (the unseen cards dealt at random
   into the other hands, the stock and the face-down pile; never the real ones);
2. descends the tree, keyed by the actions played, choosing by UCB with availability
   counts among the actions legal in this determinization, each node maximising the
   value of the player who acts there;
3. adds one node, then plays a fast greedy rollout (:class:`~ninetynine.bots.knowledge.
   RolloutPolicy`) until the first life or point changes hands, the hand ends, the
   game ends, or ``depth`` decisions pass;
4. scores the result as a vector with one value per seat and backs it up.

The value of a finished game is 1 for each winner and 0 for the others; a truncated
playout is scored by what changed since the root: 1 for the seats that lost least (lives,
or points), 0 for those that lost most; so each player's nodes avoid its own losses and
prefer the others'.

Options: ``iterations`` (default 3000, or no limit when ``ms`` is given) and ``ms`` (a
time limit per move, off by default; given both, the search stops at whichever comes
first), ``c`` (exploration, default 0.7), ``depth`` (the playout cap, default 40),
``epsilon`` (the share of random rollout moves, default 0.1), ``tree`` (the most tree
nodes on one path, 0 for no limit, 1 for a flat search over the root's actions),
``prior`` (default 1: when the heuristic bot's move scores within this many standard
errors of the most visited move, play the heuristic's move; 0 turns this off, so that
a search too short to tell small differences apart does not play worse than the rules
of thumb).
With an iteration budget the bot is deterministic for a given random generator; a time
budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time

from ninetynine.actions import Action
from ninetynine.bots.base import register
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.heuristic import HeuristicBot
from ninetynine.bots.knowledge import BUSTS, rollout_policy
from ninetynine.rules import Scoring
from ninetynine.state import CHANCE, DOWN, OVER, State
from ninetynine.view import View


class Node:
    """Statistics of one action from an information set, for the player who took it."""

    __slots__ = ("children", "visits", "value", "avail", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 1
        self.player = player


@register("ismcts")
class IsmctsBot:
    name = "ismcts"

    def __init__(self, iterations: int | None = None, ms: float = 0, c: float = 0.7,
                 depth: int = 40, epsilon: float = 0.1, tree: int = 0,
                 prior: float = 1.0) -> None:
        if iterations is None:  # a time budget alone is not cut short by the default count
            iterations = 3000 if ms <= 0 else 0
        if iterations < 1 and ms <= 0:
            raise TypeError("give iterations >= 1 or ms > 0")
        self.iterations = iterations if iterations >= 1 else 10**9
        self.ms, self.c, self.depth, self.epsilon = ms, c, depth, epsilon
        self.tree = tree  # the most tree nodes on one path (0 = no limit; 1 = flat search)
        self.prior = prior  # standard errors within which the heuristic's move is kept
        self.last_iterations = 0  # how many the last search ran (for benchmarks)

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        det = Determinizer(view)
        codes = [det.template.code_of(a) for a in legal]
        root = self.search(det, rng)
        stats = [root.children.get(key) for key in map(move_key, codes)]
        visits = [-1 if ch is None else ch.visits for ch in stats]
        best = visits.index(max(visits))
        if self.prior:
            # Where the search cannot tell the heuristic's move from its own best (the
            # values are within about one standard error), follow the heuristic.
            guess = legal.index(HeuristicBot().choose(view, random.Random(rng.random())))
            b, g = stats[best], stats[guess]
            if g is not None and b is not None and g is not b and g.visits > 0:
                mean_b, mean_g = b.value / b.visits, g.value / g.visits
                spread = math.sqrt(0.25 / b.visits + 0.25 / g.visits)
                if mean_g >= mean_b - self.prior * spread:
                    best = guess
        return legal[best]

    def search(self, det: Determinizer, rng: random.Random) -> Node:
        root = Node(det.seat)
        policy = rollout_policy(det.view.rules)
        score, known = policy.score, policy.scores.get
        c, depth, epsilon = self.c, self.depth, self.epsilon
        max_nodes = self.tree or 10**9
        rand, choice = rng.random, rng.choice
        deadline = time.perf_counter() + self.ms / 1000 if self.ms > 0 else math.inf
        log, sqrt = math.log, math.sqrt
        start = _standing(det.template)
        done = 0
        while done < self.iterations:
            if done & 15 == 0 and time.perf_counter() > deadline:
                break
            done += 1
            s = det.sample(rng)
            hand_no, lives, points = s.hand_no, s.lives[:], s.points[:]
            node, path = root, list[Node]()
            steps = 0
            # Selection and expansion
            while True:
                phase = s.phase
                if phase == OVER:
                    break
                if phase == CHANCE:
                    s._apply_chance(s.sample_chance(rng))
                    if s.hand_no != hand_no:
                        break
                    continue
                if len(path) >= max_nodes:
                    break
                # Cards of one rank played for one value are the same move whatever their
                # suit: the tree keys them by (rank, choice), so no visits are split.
                moves = {k if k >= DOWN else (k >> 4 << 2) | (k & 3): k
                         for k in s.legal_codes()}
                player = s.turn
                children = node.children
                untried = [key for key in moves if key not in children]
                if untried:
                    for key in moves:
                        if key in children:
                            children[key].avail += 1
                    key = choice(untried)
                    node = children[key] = Node(player)
                    path.append(node)
                    s.apply_code(moves[key])
                    steps += 1
                    break
                best, best_u = None, -math.inf
                for key in moves:
                    ch = children[key]
                    ch.avail += 1
                    u = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if u > best_u:
                        best, best_u, code = ch, u, moves[key]
                assert best is not None
                node = best
                path.append(node)
                s.apply_code(code)
                steps += 1
                if s.hand_no != hand_no or s.lives != lives or s.points != points:
                    break
            # Rollout
            while steps < depth and s.phase != OVER and s.hand_no == hand_no and \
                    s.lives == lives and s.points == points:
                if s.phase == CHANCE:
                    s._apply_chance(s.sample_chance(rng))
                    continue
                codes = s.legal_codes()
                code = codes[0]
                if len(codes) > 1:
                    total = s.total
                    base = total * 2048
                    code = -1
                    if rand() < epsilon:  # a random move, unless it busts
                        k = choice(codes)
                        v = known(base + k)
                        if (score(total, k) if v is None else v) > BUSTS:
                            code = k
                    if code < 0:
                        best_v = -math.inf
                        for k in codes:
                            v = known(base + k)
                            if v is None:
                                v = score(total, k)
                            if v > best_v:
                                best_v, code = v, k
                s.apply_code(code)
                steps += 1
            values = _values(s, start)
            for nd in path:
                nd.visits += 1
                nd.value += values[nd.player]
        self.last_iterations = done
        return root


def move_key(code: int) -> int:
    """The tree's key of an action code: a card's rank and value choice, not its suit."""
    return code if code >= DOWN else (code >> 4 << 2) | (code & 3)


def _values(s: State, start: list[float]) -> list[float]:
    """The value of a playout to each seat, from 0 to 1.

    A finished game is worth 1 to each winner. Otherwise what counts is what changed
    since the root: the seats that lost the least (lives, or points) get 1, those that
    lost the most 0, the rest in between; 0.5 each if nothing changed.
    """
    n = s.n
    if s.outcome is not None:
        winners = s.outcome.winners
        return [1.0 if seat in winners else 0.0 for seat in range(n)]
    delta = [x - y for x, y in zip(_standing(s), start, strict=True)]
    low, high = min(delta), max(delta)
    if high == low:
        return [0.5] * n
    return [(d - low) / (high - low) for d in delta]


def _standing(s: State) -> list[float]:
    """Each seat's lives (its side's, in teams), or its points and score."""
    if s.rules.scoring is Scoring.GAME_POINTS:
        return [float(s.scores[i] + s.points[i]) for i in range(s.n)]
    lives, side = s.lives, s.side
    return [float(lives[side(i)]) for i in range(s.n)]
