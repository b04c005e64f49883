"""``ismcts``: Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, 2012).

Single-observer ISMCTS with per-player values. Each iteration

1. samples a determinization from the seat's view (the unseen cards dealt at random
   into the other hands, the stock and the face-down pile; never the real ones), read
   the way a card player reads the table: the others' hands hold more of the cards
   sensible players keep (:func:`~ninetynine.bots.knowledge.hand_weights`), and a deal in
   which another player's last play is not what the rollout policy would have played
   with the cards dealt to it is redrawn, up to 10 times
   (:class:`~ninetynine.bots.inference.LastPlays`); or, with ``belief=history``, each
   other hand drawn from its posterior given every play of the hand
   (:class:`~ninetynine.bots.belief.HandReader`);
2. tries every one of the seat's own moves on that same determinization, with the same
   random numbers for what follows (common random numbers: the moves are compared on
   the same luck, so far fewer iterations tell them apart);
3. below each move, descends the tree (up to ``tree`` nodes deep), keyed by the actions
   played, choosing by UCB with availability counts among the actions legal in this
   determinization, each node maximising the value of the player who acts there; a new
   node is the move the playout policy likes best among those not yet tried;
4. plays the rest out with the heuristic's rules of thumb, from tables
   (:class:`~ninetynine.bots.knowledge.RolloutPolicy`), until the playout has decided
   what the search is about: the hand is over, or, where a bust ends the hand or resets
   the total for everyone, a life or point has changed hands (where busters sit out and
   the rest go on, every seat but one loses a life in the hand, so the whole hand counts);
   or the game ends, or ``depth`` decisions pass;
5. scores the result as a vector with one value per seat and backs it up.

The value of a finished game is 1 for each winner and 0 for the others; a truncated
playout is scored by what changed since the root: 1 for the seats that lost least (lives,
or points), 0 for those that lost most; so each player's nodes avoid its own losses and
prefer the others'. With ``value=odds``, where the game is won by lives, a truncated
playout is worth each seat's chance to win the game from the lives left
(:mod:`~ninetynine.bots.odds`): losing a life with one left is worse than with five, and
who else loses one matters too.

The search stops early when more iterations would hardly change its choice: every move
scored the same in each of 32 iterations or more, or the best leads each other move by
more than 3 standard errors of their paired difference.

By default the tree is one level deep (``tree=1``): the seat's own moves, each scored by
playouts in which everybody follows the rules of thumb. At the budgets measured (a few
hundred playouts a move), deeper trees played worse (29.5% against 41.0% in 200 games of
G for 3 players, one ``ismcts`` against two ``heuristic``): a young node picks replies by
exploration, so the values below it are those of weaker play than the opponents'.

Neither the endgame search nor learned rollouts (options below) measured a gain over
``hard`` in the arena (one bot against N-1 ``heuristic``, the same deals, paired by
rotation block, 95% intervals): ``endgame=20`` in J for 4 players, 27.0% against 27.0%
(400 games, difference +0.0 [-3.4, +3.4] points); ``rollout=learned`` in J for 4 players
30.0% against 27.0% (+3.0 [-1.3, +7.3]), for 3 players 35.6% against 35.1% (399 games,
+0.5 [-4.8, +5.8]), in P for 4 players 26.0% against 27.8% (400 games, -1.8 [-6.1, +2.6]).

Options: ``iterations`` (playouts, default 3000, or no limit when ``ms`` is given) and
``ms`` (a time limit per move, off by default; given both, the search stops at whichever
comes first), ``c`` (exploration, default 0.7), ``depth`` (the playout cap, default 100),
``epsilon`` (the share of random playout moves, default 0.1), ``tree`` (the most tree
nodes on one path, 0 for no limit; default 1), ``prior`` (default 1: unless the best move
beats the heuristic bot's move by more than this many standard errors of their paired
difference, play the heuristic's move; 0 turns this off), ``infer`` (default 1: read the
others' hands as in step 1; 0 deals the unseen cards uniformly), ``belief`` (``last``,
the default, or ``history``: see step 1) and ``value`` (``hand``, the default, or
``odds``), ``endgame`` (default 0, off: once the total is within this many of the limit,
each move is scored on each sampled deal by max^n, every player picking the move best for
itself for the next ``plies`` choices, default 4, forced moves not counted, then the
rollout policy; see :func:`_maxn`) and ``rollout`` (``heuristic``, the default, or
``learned``: the seat's own playout moves by the policy learned by self-play,
:mod:`~ninetynine.bots.learned`, where the rule set has weights; the others' stay the
heuristic's, which is how they are modelled) and ``model`` (``rollout``, the default, or
``known``: see below). The ``hard`` difficulty is ``iterations=300,belief=history,value=odds``.

The opponent model (``model=known``). Which bot sits in which seat is public at a table (a
lobby shows it), and the arena, the analysis and the tables tell a bot before a game
(:func:`~ninetynine.bots.base.meet_bot`; a person's seat is None). With ``model=known``,
each other seat met as ``heuristic-v1`` (``heuristic``, or a level that is it) is modelled
by that bot's own play: its playout moves are those of its clone on the determinization
(:class:`~ninetynine.bots.clone.HeuristicClone`: the bot's score terms, danger counted from
what that seat has not seen in the deal; no random moves), and with ``belief=history`` the
belief weighs its plays by the same bot (:class:`~ninetynine.bots.clone.HeuristicModel`,
slip 0.02). Every other seat (a person, another bot, a seat not met) keeps the general
model, the rollout policy with its random moves. The clone reads only the mover's hand and
the public cards of the deal it is given, so no seat's hidden cards reach the search.
The clone picks heuristic-v1's move on 2,016 of 2,016 positions of seeded games over 18
tables (``tests/bots/test_clone.py``). It costs time: at the ``hard`` budget in P for 4
players (three ``heuristic-v1``) a move takes 56 ms (median; 100 ms at most in 200 moves)
against 38 ms without it. In games it measured no gain over ``hard`` (one bot against three
``heuristic-v1`` in P for 4 players, seeds 1 to 14 of 20 games each, the same deals for
both): 28.2% [23.8, 32.7] against 29.6% [24.3, 34.9] in 280 games, a paired difference of
-1.4 [-7.7, +4.9] points over 70 rotation blocks.
With an iteration budget the bot is deterministic for a given random generator; a time
budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, TypeVar

from ninetynine.bots.base import DIFFICULTIES, make_bot
from ninetynine.bots.belief import HandReader
from ninetynine.bots.clone import HeuristicClone, HeuristicModel
from ninetynine.bots.determinize import Determinizer
from ninetynine.bots.heuristic import HeuristicBot
from ninetynine.bots.inference import LastPlays
from ninetynine.bots.knowledge import (
    BUSTS,
    TOTAL_KEY,
    RolloutPolicy,
    hand_weights,
    rollout_policy,
)
from ninetynine.bots.learned import LearnedPolicy, has_weights, learned_policy
from ninetynine.bots.odds import game_odds
from ninetynine.bots.spec import BotOption, Options
from ninetynine.engine.actions import Action
from ninetynine.engine.state import CHANCE, DOWN, OVER, PLAY, State
from ninetynine.engine.tables import PARAM, card_of, choice_of, number_of, param_code, play_code
from ninetynine.engine.view import View
from ninetynine.errors import NinetyNineError
from ninetynine.records.match import standing
from ninetynine.rules.settings import AfterBust

E = TypeVar("E", bound=StrEnum)


class Belief(StrEnum):
    """How the search deals the cards it has not seen."""

    LAST = "last"  # by what players keep, redrawn until the last plays fit
    HISTORY = "history"  # from each player's posterior given every play of the hand


class Value(StrEnum):
    """What the end of a playout is worth to a seat."""

    HAND = "hand"  # 1 for the seats that lost least since the root, 0 for the most
    ODDS = "odds"  # the chance to win the game from the lives left (games won by lives)


@dataclass
class Evaluation:
    """What one search found. ``moves``: the index in ``view.legal`` of each distinct
    move searched (cards of one rank and value are one move); ``group``: for each legal
    action, the number of its move in ``moves``; ``rows``: per iteration, the value to
    the seat of each move; ``choice``: the index in ``view.legal`` of the move picked."""

    moves: list[int]
    group: list[int]
    rows: list[list[float]]
    choice: int


class Model(StrEnum):
    """How the search models the other seats' play."""

    ROLLOUT = "rollout"  # everybody by the rollout policy (the general model)
    KNOWN = "known"  # a seat known to be heuristic-v1 by that bot's own play (its clone)


class Rollout(StrEnum):
    """Whose rules of thumb play the searching seat's own moves in a playout."""

    HEURISTIC = "heuristic"  # the heuristic's, as for every other seat
    LEARNED = "learned"  # the policy learned by self-play (:mod:`~ninetynine.bots.learned`)


class Node:
    """Statistics of one action from an information set, for the player who took it."""

    __slots__ = ("children", "visits", "value", "avail", "player")

    def __init__(self, player: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 1
        self.player = player


class IsmctsBot:
    """The ``ismcts`` search as a bot; its options are the module docstring's."""

    name = "ismcts"
    OPTIONS: ClassVar[Options] = {
        "iterations": BotOption(int, least=0),
        "ms": BotOption(float, least=0),
        "c": BotOption(float, least=0),
        "depth": BotOption(int, least=1),
        "epsilon": BotOption(float, least=0, most=1),
        "tree": BotOption(int, least=0),
        "prior": BotOption(float, least=0),
        "infer": BotOption(int, least=0, most=1),
        "belief": BotOption(Belief),
        "value": BotOption(Value),
        "endgame": BotOption(int, least=0),
        "plies": BotOption(int, least=0),
        "rollout": BotOption(Rollout),
        "model": BotOption(Model),
    }

    def __init__(
        self,
        iterations: int | None = None,
        ms: float = 0,
        c: float = 0.7,
        depth: int = 100,
        epsilon: float = 0.1,
        tree: int = 1,
        prior: float = 1.0,
        infer: int = 1,
        belief: str = "last",
        value: str = "hand",
        endgame: int = 0,
        plies: int = 4,
        rollout: str = "heuristic",
        model: str = "rollout",
    ) -> None:
        if iterations is None:  # a time budget alone is not cut short by the default count
            iterations = 3000 if ms <= 0 else 0
        if iterations < 1 and ms <= 0:
            raise TypeError(
                f"iterations={iterations} with no time budget: give iterations "
                "of 1 or more, or ms above 0"
            )
        self.iterations = iterations if iterations >= 1 else 10**9
        self.ms, self.c, self.depth, self.epsilon = ms, c, depth, epsilon
        self.tree = tree  # the most tree nodes on one path (0 = no limit; 1 = flat)
        self.prior = prior  # standard errors within which the heuristic's move is kept
        self.infer = infer  # read the others' hands from what players keep and play
        self.belief, self.value = option(Belief, "belief", belief), option(Value, "value", value)
        if endgame < 0 or plies < 0:
            raise TypeError("endgame and plies are counts: give 0 or more")
        self.endgame, self.plies = endgame, plies  # see _maxn
        self.rollout = option(Rollout, "rollout", rollout)
        self.model = option(Model, "model", model)
        self.seats: list[str | None] = []  # the bot spec of each seat, None for a person
        self.weights: list[tuple[float, float] | None] = []  # per seat met as heuristic-v1
        self.settle = True  # stop early once more playouts would hardly change the choice
        self.last_iterations = 0  # how many playouts the last search ran (for benchmarks)

    def cap_time(self, seconds: float) -> None:
        """Stop each search within ``seconds`` (a server's limit), whatever the options say."""
        budget = seconds * 1000 * 0.7  # the rest: a first search's set-up, the answer
        self.ms = min(self.ms, budget) if self.ms > 0 else budget

    def meet(self, seats: Sequence[str | None]) -> None:
        """Learn the public bot spec of each seat (None: a person); with ``model=known``
        the seats that play heuristic-v1 are modelled by its clone."""
        self.seats = list(seats)
        self.weights = [None if spec is None else heuristic_weights(spec) for spec in seats]

    def known_seats(self, view: View) -> dict[int, tuple[float, float]]:
        """With ``model=known``: each other seat met as heuristic-v1, with its weights
        (push, keep); a person's seat and any other bot are never in it."""
        if self.model is not Model.KNOWN or len(self.seats) != view.players:
            return {}
        return {
            seat: weights
            for seat, weights in enumerate(self.weights)
            if seat != view.seat and weights is not None
        }

    def choose(self, view: View, rng: random.Random) -> Action:
        """The search's move (:meth:`decide`); the only legal action at once, without searching."""
        if len(view.legal) == 1:
            self.last_iterations = 0
            return view.legal[0]
        return self.decide(self.determinizer(view), rng)

    def determinizer(self, view: View) -> Determinizer:
        """Deals of the unseen cards from ``view``, weighted as this search reads them."""
        weights = (
            hand_weights(view.rules, view.players)
            if self.infer and self.belief is Belief.LAST
            else None
        )
        return Determinizer(view, weights)

    def decide(self, det: Determinizer, rng: random.Random) -> Action:
        """The move the search picks, dealing the unseen cards with ``det``."""
        return det.view.legal[self.evaluate(det, rng).choice]

    def evaluate(
        self,
        det: Determinizer,
        rng: random.Random,
        on_end: Callable[[int, State], None] | None = None,
    ) -> Evaluation:
        """Search the seat's moves and pick one; ``on_end(move, state)`` sees where each
        playout of the move numbered ``move`` (in ``Evaluation.moves``) ended."""
        view = det.view
        legal = view.legal
        # Cards of one rank played for one value are the same move whatever their suit.
        codes = [det.template.code_of(a) for a in legal]
        same = det.template.c.same
        first: dict[int, int] = {}
        for i, code in enumerate(codes):
            first.setdefault(move_key(code, same), i)
        moves = list(first.values())
        group = [moves.index(first[move_key(code, same)]) for code in codes]
        if len(moves) == 1:
            self.last_iterations = 0
            return Evaluation(moves, group, [], 0)
        rows = self.search(det, [codes[i] for i in moves], rng, on_end)
        m = len(rows)
        means = [sum(row[j] for row in rows) / m for j in range(len(moves))]
        best = means.index(max(means))
        if self.prior:
            guess = HeuristicBot().choose(view, random.Random(rng.random()))
            g = group[legal.index(guess)]
            if g != best and _paired_z(rows, best, g) <= self.prior:
                best = g
        return Evaluation(moves, group, rows, moves[best])

    def search(
        self,
        det: Determinizer,
        moves: list[int],
        rng: random.Random,
        on_end: Callable[[int, State], None] | None = None,
    ) -> list[list[float]]:
        """Per iteration, the value to the seat of each of ``moves`` (action codes)."""
        me = det.seat
        policy = rollout_policy(det.view.rules)
        roots = [Node(me) for _ in moves]
        deadline = time.perf_counter() + self.ms / 1000 if self.ms > 0 else math.inf
        score = _scorer(det.template, self.value)
        rules = det.view.rules  # a rule set without learned weights: the heuristic's
        own = (
            (me, learned_policy(rules))
            if self.rollout is Rollout.LEARNED and has_weights(rules)
            else None
        )
        known = self.known_seats(det.view)
        models = {seat: HeuristicClone(rules, *w) for seat, w in known.items()}
        plays: LastPlays | HandReader | None = None
        if self.infer and not any(det.known):
            plays = (
                LastPlays(det.view, policy)
                if self.belief is Belief.LAST
                else HandReader(
                    det.view,
                    policy,
                    models={s: HeuristicModel(rules, det.view.decks, *w) for s, w in known.items()},
                    side=det.template.side,
                )
            )
        rows: list[list[float]] = []
        done = 0
        t = det.template
        exact = self.endgame > 0 and t.total >= t.c.limit - self.endgame
        while done < self.iterations and (done == 0 or time.perf_counter() < deadline):
            cards = plays.draw(det, rng) if plays else det.shuffled(rng)
            seed = rng.random()
            row = []
            for j, (node, code) in enumerate(zip(roots, moves, strict=True)):
                s = det.deal(cards)
                if exact:
                    going = _in_play(s)
                    s.apply_code(code)
                    values = _maxn(s, going, policy, seed, score, self.plies, self.depth - 1)
                else:
                    values = self._iterate(
                        s, node, code, policy, random.Random(seed), score, own, models
                    )
                row.append(values[me])
                if on_end is not None:
                    on_end(j, s)
            rows.append(row)
            done += len(moves)
            if self.settle and len(rows) % 16 == 0 and _settled(rows):
                break
        self.last_iterations = done
        return rows

    def _iterate(
        self,
        s: State,
        node: Node,
        code: int,
        policy: RolloutPolicy,
        rng: random.Random,
        score: Callable[[State], list[float]],
        own: tuple[int, LearnedPolicy] | None = None,
        models: dict[int, HeuristicClone] | None = None,
    ) -> list[float]:
        """One descent below the root move ``code`` (its node ``node``), one playout."""
        going = _in_play(s)
        path = [node]
        s.apply_code(code)
        steps = 1
        c, max_nodes, log, sqrt = self.c, self.tree or 10**9, math.log, math.sqrt
        same = s.c.same
        # Selection and expansion, until the position leaves the hand being searched
        while going(s):
            phase = s.phase
            if phase == OVER or len(path) >= max_nodes:
                break
            if phase == CHANCE:
                s.play_chance(rng)
                continue
            legal = {move_key(k, same): k for k in s.legal_codes()}
            children = node.children
            untried = [key for key in legal if key not in children]
            if untried:
                for key in legal:
                    if key in children:
                        children[key].avail += 1
                total, size = s.total, min(len(s.hands[s.turn]), 15)
                key = max(reversed(untried), key=lambda k: policy.score(total, legal[k], size))
                node = children[key] = Node(s.turn)
                path.append(node)
                s.apply_code(legal[key])
                steps += 1
                break
            best, best_u, move = node, -math.inf, -1
            for key, k in legal.items():
                ch = children[key]
                ch.avail += 1
                u = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if u > best_u:
                    best, best_u, move = ch, u, k
            node = best
            path.append(node)
            s.apply_code(move)
            steps += 1
        _playout(s, rng, policy, self.depth - steps, self.epsilon, going, own, models)
        values = score(s)
        for nd in path:
            nd.visits += 1
            nd.value += values[nd.player]
        return values


def _maxn(
    s: State,
    going: Callable[[State], bool],
    policy: RolloutPolicy,
    seed: float,
    score: Callable[[State], list[float]],
    plies: int,
    depth: int,
) -> list[float]:
    """The value of ``s`` (changed in place) to each seat when every player picks, for the
    next ``plies`` choices, the move best for itself (max^n on this deal: each player
    minimises its own loss), played on by the rollout policy from there; forced moves and
    chance (with ``seed``, the same for every branch) do not count as plies. Ties go to
    the rollout policy's move, so an indifferent player plays as the heuristic would."""
    rng = random.Random(seed)
    same = s.c.same
    while going(s) and depth > 0:
        if s.phase == CHANCE:
            s.play_chance(rng)
            continue
        found = {move_key(k, same): k for k in s.legal_codes()}
        if len(found) == 1:
            s.apply_code(next(iter(found.values())))
            depth -= 1
            continue
        if plies <= 0:
            break
        who, total, size = s.turn, s.total, min(len(s.hands[s.turn]), 15)
        best: list[float] | None = None
        for k in sorted(found.values(), key=lambda k: -policy.score(total, k, size)):
            t = s.clone()
            t.apply_code(k)
            v = _maxn(t, going, policy, seed, score, plies - 1, depth - 1)
            if best is None or v[who] > best[who]:
                best = v
        assert best is not None
        return best
    _playout(s, rng, policy, depth, 0.0, going)
    return score(s)


def option(kind: type[E], name: str, text: str) -> E:
    """A bot option's value from its text; a wrong one is a TypeError (as bad options are)."""
    try:
        return kind(text)
    except ValueError:
        raise TypeError(
            f"{name}={text!r}: expected " + " or ".join(k.value for k in kind)
        ) from None


def playout_values(
    s: State, code: int, rng: random.Random, epsilon: float = 0.0, depth: int = 100
) -> list[float]:
    """Play ``code`` on ``s`` (in place) and on with the rollout policy, as a playout of
    the search does; each seat's value (see :func:`_values`). For benchmarks that score
    moves on a known deal."""
    start, going = standing(s), _in_play(s)
    s.apply_code(code)
    _playout(s, rng, rollout_policy(s.rules), depth - 1, epsilon, going)
    return _values(s, start)


def play_to_horizon(s: State, rng: random.Random, depth: int = 100) -> None:
    """Play ``s`` on in place with the rollout policy to a playout's horizon (the end of
    the hand, or the next life lost where play goes on after a bust; see
    :func:`_in_play`), as the search's playouts do: for estimates made outside a search."""
    _playout(s, rng, rollout_policy(s.rules), depth, 0.0, _in_play(s))


def _in_play(s: State) -> Callable[[State], bool]:
    """A test of whether a playout from ``s`` goes on: until the hand ends, and where a
    bust ends the hand or resets the total for everyone, until a life or point changes.
    (Where busters sit out, every seat but one loses a life in the hand: what counts is
    the whole hand, not who goes first.)"""
    hand_no = s.hand_no
    if s.rules.after_bust in (AfterBust.SIT_OUT, AfterBust.RESET_OTHERS):
        return lambda t: t.hand_no == hand_no and t.phase != OVER
    lives, points = s.lives[:], s.points[:]
    return lambda t: (
        t.hand_no == hand_no and t.lives == lives and t.points == points and t.phase != OVER
    )


def _playout(
    s: State,
    rng: random.Random,
    policy: RolloutPolicy,
    depth: int,
    epsilon: float,
    going: Callable[[State], bool],
    own: tuple[int, LearnedPolicy] | None = None,
    models: dict[int, HeuristicClone] | None = None,
) -> None:
    """Play on with the rollout policy while ``going`` (see :func:`_in_play`); with
    ``own`` (a seat and a learned policy), that seat's moves by the learned policy; with
    ``models``, those seats' moves by their clones, with no random moves."""
    score, known = policy.score, policy.scores.get
    rand, choice = rng.random, rng.choice
    c = s.c
    moves, moves_of = c.card_moves, c.moves_of
    # Where no King ban, no play over the limit by choice, no second deck, no named seat
    # and no no-draw chain shape the legal plays, they are the safe moves of the cards in
    # hand: read from the engine's table here, unsorted, which is most of a playout's time
    # saved on legal_codes().
    plain = not (c.opening_ban or c.may_bust or c.extras) and s.decks == 1
    me, learned = own if own is not None else (-1, None)
    while depth > 0 and going(s):
        phase = s.phase
        if phase == CHANCE:
            s.play_chance(rng)
            continue
        if models and s.turn in models:
            s.apply_code(models[s.turn].best(s, s.legal_codes()))
            depth -= 1
            continue
        total, hand = s.total, s.hands[s.turn]
        codes: list[int] = []
        if plain and phase == PLAY:
            base = total * 64
            for card in hand:
                codes += (moves.get(base + card) or moves_of(card, total))[0]
        if not codes:
            codes = s.legal_codes()
        code = codes[0]
        if learned is not None and s.turn == me and len(codes) > 1:
            code = learned.best(total, codes, hand)
        elif len(codes) > 1:
            size = min(len(hand), 15)
            base = total * TOTAL_KEY + size  # the policy's cache key, less code * 16
            code = -1
            if rand() < epsilon:  # a random move, unless it busts
                k = choice(codes)
                v = known(base + k * 16)
                if (score(total, k, size) if v is None else v) > BUSTS:
                    code = k
            if code < 0:
                best_v = -math.inf
                for k in codes:
                    v = known(base + k * 16)
                    if v is None:
                        v = score(total, k, size)
                    if v > best_v or v == best_v and k > code:  # ties: the higher card
                        best_v, code = v, k
        s.apply_code(code)
        depth -= 1


HEURISTIC_V1 = ("heuristic", "heuristic-v1")  # the names of the bot the clone plays


def heuristic_weights(spec: str) -> tuple[float, float] | None:
    """The weights (push, keep) of a bot spec that plays heuristic-v1 (a level too, should
    one play it); None for any other spec."""
    name = spec.strip().partition(":")[0].strip()
    if name not in HEURISTIC_V1 and name not in DIFFICULTIES:
        return None
    try:
        bot = make_bot(spec)
    except NinetyNineError:
        return None
    return (bot.push, bot.keep) if type(bot) is HeuristicBot else None


def _settled(rows: list[list[float]]) -> bool:
    """Whether more iterations would hardly change the choice: in 32 iterations or more,
    every move scored the same every time (nothing to tell apart), or the best move is
    ahead of each other one by more than 3 standard errors."""
    if len(rows) >= 32 and all(min(row) == max(row) for row in rows):
        return True
    sums = [sum(row[j] for row in rows) for j in range(len(rows[0]))]
    best = sums.index(max(sums))
    return all(j == best or _paired_z(rows, best, j) > 3 for j in range(len(sums)))


def _paired_z(rows: list[list[float]], a: int, b: int) -> float:
    """How many standard errors move ``a``'s mean value is above move ``b``'s, paired by
    iteration (both were tried on the same determinization); inf if they never differ."""
    diffs = [row[a] - row[b] for row in rows]
    m = len(diffs)
    mean = sum(diffs) / m
    var = sum((d - mean) ** 2 for d in diffs) / max(1, m - 1)
    if var == 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / m)


def move_key(code: int, same: Sequence[int]) -> int:
    """The tree's key of an action code: the card (as the lowest card of its rank that
    does the same, ``same`` from the rules' tables) and its choice, not its suit."""
    if code < DOWN:
        return play_code(same[card_of(code)], choice_of(code))
    if code < PARAM:
        return code
    return param_code(same[card_of(code)], number_of(code))


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
    delta = [x - y for x, y in zip(standing(s), start, strict=True)]
    low, high = min(delta), max(delta)
    if high == low:
        return [0.5] * n
    return [(d - low) / (high - low) for d in delta]


def _scorer(template: State, value: str) -> Callable[[State], list[float]]:
    """The value of a playout's end to each seat: by what changed since ``template``
    (:func:`_values`), or with ``value="odds"``, where the game is won by lives, each
    seat's chance to win the game from the lives left (:mod:`ninetynine.bots.odds`)."""
    start = standing(template)
    odds = game_odds(template.rules) if value is Value.ODDS else None
    if odds is None:
        return lambda s: _values(s, start)
    return odds.of_state
