"""Playing a cell's games and writing down their rows, on the engine's fast path.

The fast path (:meth:`State.legal_codes`, :meth:`State.apply_code`,
:meth:`State.play_chance`) makes no events, so the rows are read off the game as it goes:
the hands as dealt at a hand's first move, the last card played, and what each seat pays,
which a :class:`~ninetynine.engine.ledger.LedgerState` writes down where the engine
charges it. A ``random`` seat chooses among the legal codes with its own generator, which picks what
:class:`~ninetynine.bots.random_bot.RandomBot` picks from its view (the legal actions are
the legal codes, in order), without building the view. Other bots choose from their view.

Bots that read the public log (the search bots, the oracle, program bots) get it as in the
arena: their cells play through the checked API (:meth:`State.apply`), which returns the
events (:attr:`Engine.CHECKED`). The rows are the same either way.

Cells of random bots play on the batch engine instead where it can (NumPy, its own random
streams: :mod:`ninetynine.analysis.batch_play`); ``simulate --engine fast`` keeps them here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from ninetynine import __version__
from ninetynine.analysis.cells import Cell, Chunk, rules_hash
from ninetynine.analysis.rows import DecisionRow, GameRow, HandRow
from ninetynine.arena.game import seed_of
from ninetynine.arena.runner import rotation
from ninetynine.bots.base import Bot, ask, close_bot, make_bot
from ninetynine.bots.beginner import BeginnerBot
from ninetynine.bots.greedy import GreedyBot
from ninetynine.bots.heuristic import HeuristicBot
from ninetynine.bots.odds import GameOdds, game_odds
from ninetynine.bots.random_bot import RandomBot
from ninetynine.engine.events import Event
from ninetynine.engine.ledger import BORDER, CANNOT_PLAY, CAUSES, CROSSED, MADE, OVER_, LedgerState
from ninetynine.engine.state import CHANCE, DOWN, OVER, PARAM, State
from ninetynine.engine.tables import card_of
from ninetynine.engine.view import observe
from ninetynine.records.match import hand_seed, standings
from ninetynine.rules.cards import format_card, rank_of

# ninetynine.rl.encoding.VERSION, which this layer may not import (it needs NumPy); a
# test checks that the two agree
ENCODING_VERSION = 1
# bots that choose from their view without its log: their cells can take the fast path
HISTORY_FREE: tuple[type, ...] = (RandomBot, BeginnerBot, GreedyBot, HeuristicBot)


class Engine(StrEnum):
    """How a cell's games are played."""

    FAST = "fast"  # the unchecked fast path; bots see their view without the log
    CHECKED = "checked"  # the checked API with its events: bots see the public log too
    BATCH = "batch"  # the NumPy batch engine (ninetynine.analysis.batch_play): random bots


def engine_for(cell: Cell) -> Engine:
    """The fast path, unless a bot of the line-up reads the public log."""
    bots = [make_bot(spec, seeing=True) for spec in cell.lineup]
    try:
        fast = all(isinstance(bot, HISTORY_FREE) for bot in bots)
    finally:
        for bot in bots:
            close_bot(bot)
    return Engine.FAST if fast else Engine.CHECKED


# a seat's move: its code, from the state and the seat
Mover = Callable[[State, int], int]
# what a ``random`` seat does instead: its generator's ``choice`` of the legal codes
Pick = Callable[[list[int]], int]


def mover(bot: Bot, rng: random.Random, log: list[Event] | None) -> Mover:
    """How a seat's bot chooses its move, from its view (with the public ``log`` where
    the game keeps one)."""

    def choose(state: State, seat: int) -> int:
        view = observe(state, seat, () if log is None else tuple(log))
        return state.code_of(ask(bot, view, rng, state))

    return choose


# the generator of chance, seeded again before each draw (a new Random() would first
# seed itself from the system's entropy, which costs more than a deal)
_CHANCE = random.Random(0)
_SHARED: dict[str, Bot] = {}  # bots that keep nothing between moves, made once a process


def bot_for(spec: str) -> Bot:
    """The bot of a spec: one made for this game, or, for a bot that keeps nothing
    between moves (:data:`HISTORY_FREE`), the one this process made already."""
    bot = _SHARED.get(spec)
    if bot is None:
        bot = make_bot(spec, seeing=True)
        if isinstance(bot, HISTORY_FREE):
            _SHARED[spec] = bot
    return bot


@dataclass
class _Hand:
    """A hand's row as it is filled in."""

    hand: int
    opener: int
    dealer: int
    opening: list[str]
    moves: int  # the game's moves before it
    paid: int  # entries of the ledger before it
    busts: int
    last: int = -1  # the code of the last card played


@dataclass
class GameRows:
    """The rows one game gave."""

    game: GameRow
    hands: list[HandRow] = field(default_factory=list)
    decisions: list[DecisionRow] = field(default_factory=list)


def play_game(
    cell: Cell,
    game: int,
    seed: int,
    engine: Engine,
    *,
    decisions: bool = False,
    chances: bool = False,
) -> GameRows:
    """Play game ``game`` of ``cell`` and return its rows. Its seeds are the arena's: the
    block's deal seed ``seed_of(seed, "deal", block)``, and per seat
    ``Random(f"{seed_of(seed, 'bots', game)}:{seat}")``. ``chances`` fills the decision
    rows' ``win_chances`` (each seat's chance from the lives, :mod:`ninetynine.bots.odds`)."""
    rules, n = cell.rules, cell.players
    block, turn = divmod(game, n)
    specs = cell.seat_specs
    seats = [specs[e] for e in rotation(game, n)]
    deal_seed = seed_of(seed, "deal", block)
    bot_seed = seed_of(seed, "bots", game)
    state = LedgerState.start(rules, n)
    log: list[Event] | None = [] if engine is Engine.CHECKED else None
    rngs = [random.Random(f"{bot_seed}:{s}") for s in range(n)]
    bots = [None if spec == "random" else bot_for(spec) for spec in seats]
    picks: list[Pick | None] = [
        rng.choice if bot is None or type(bot) is RandomBot else None
        for bot, rng in zip(bots, rngs, strict=True)
    ]
    movers = [
        None if bot is None else mover(bot, rng, log) for bot, rng in zip(bots, rngs, strict=True)
    ]
    rows: list[DecisionRow] = []
    note = None
    if decisions:
        odds = game_odds(rules) if chances else None

        def note(seat: int, code: int, move: int) -> None:
            rows.append(_decision(cell, game, state, seat, code, move, odds))

    try:
        moves, hands = _play(state, picks, movers, deal_seed, log, note)
    finally:
        for bot in bots:
            if bot is not None and not isinstance(bot, HISTORY_FREE):
                close_bot(bot)
    return GameRows(
        _game_row(cell, state, seats, block, turn, deal_seed, game, moves, hands),
        [
            _hand_row(cell, game, state, h, hands[i + 1] if i + 1 < len(hands) else None, moves)
            for i, h in enumerate(hands)
        ],
        rows,
    )


def _play(
    state: LedgerState,
    picks: list[Pick | None],
    movers: list[Mover | None],
    deal_seed: str,
    log: list[Event] | None,
    note: Callable[[int, int, int], None] | None,
) -> tuple[int, list[_Hand]]:
    """Play the game out: the moves made, and each hand as it began. Written for speed:
    this loop is most of a simulation's time."""
    legal, apply = state.legal_codes, state.apply_code
    if log is not None:

        def apply(code: int) -> None:
            log.extend(state.apply(state.action_of(code)))

    chance = _CHANCE
    drawn: dict[int, int] = {}  # chance events drawn so far in each hand (Chance.by_hand)
    hands: list[_Hand] = []
    moves, hand, last = 0, 0, -1
    while True:
        phase = state.phase
        if phase is CHANCE:
            h = state.hand_no
            k = drawn.get(h, 0)
            drawn[h] = k + 1
            chance.seed(hand_seed(deal_seed, h, k))
            if log is None:
                state.play_chance(chance)
            else:
                log += state.apply(state.sample_chance(chance))
            continue
        if phase is OVER:
            break
        if state.hand_no != hand:
            if hands:
                hands[-1].last = last
            hands.append(_open(state, moves))
            hand, last = state.hand_no, -1
        seat = state.turn
        pick = picks[seat]
        code = pick(legal()) if pick is not None else movers[seat](state, seat)  # type: ignore[misc]
        if note is not None:
            note(seat, code, moves)
        apply(code)
        moves += 1
        if code < DOWN or code >= PARAM:
            last = code
    if hands:
        hands[-1].last = last
    if state.hand_no != hand:  # the last hand ended before its first move (an instant hand)
        hands.append(_open(state, moves))
    return moves, hands


def _open(state: LedgerState, moves: int) -> _Hand:
    return _Hand(
        state.hand_no,
        state.starter,
        state.dealer,
        [" ".join(map(format_card, sorted(hand))) for hand in state.hands],
        moves,
        len(state.paid),
        len(state.busts),
    )


def _game_row(
    cell: Cell,
    state: LedgerState,
    seats: list[str],
    block: int,
    turn: int,
    deal_seed: str,
    game: int,
    moves: int,
    hands: list[_Hand],
) -> GameRow:
    outcome = state.outcome
    assert outcome is not None
    lost = [0] * cell.players
    for seat, amount, _cause in state.paid:
        lost[seat] += amount
    return GameRow(
        rules=cell.rules.id,
        rules_hash=rules_hash(cell.rules),
        players=cell.players,
        lineup=cell.lineup_name,
        seats=seats,
        block=block,
        rotation=turn,
        deal_seed=deal_seed,
        game=game,
        winners=list(outcome.winners),
        places=[s.place for s in standings(state, ())],
        reason=outcome.reason.value,
        hands=state.hand_no,
        turns=moves,
        opener=hands[0].opener,
        dealer=hands[0].dealer,
        lives_lost=lost,
        engine=__version__,
        encoding=ENCODING_VERSION,
    )


def _hand_row(
    cell: Cell, game: int, state: LedgerState, hand: _Hand, following: _Hand | None, moves: int
) -> HandRow:
    n = cell.players
    end = following or _Hand(0, 0, 0, [], moves, len(state.paid), len(state.busts))
    lost = [[0] * n for _ in CAUSES]
    for seat, amount, cause in state.paid[hand.paid : end.paid]:
        lost[cause][seat] += amount
    return HandRow(
        rules=cell.rules.id,
        players=n,
        lineup=cell.lineup_name,
        game=game,
        hand=hand.hand,
        opener=hand.opener,
        dealer=hand.dealer,
        opening=hand.opening,
        turns=end.moves - hand.moves,
        loser=state.busts[end.busts - 1] if end.busts > hand.busts else -1,
        ending_rank=rank_of(card_of(hand.last)) if hand.last >= 0 else -1,
        lost_over=lost[OVER_],
        lost_cannot_play=lost[CANNOT_PLAY],
        lost_made_threshold=lost[MADE],
        lost_crossed_threshold=lost[CROSSED],
        lost_border=lost[BORDER],
    )


def _decision(
    cell: Cell, game: int, state: State, seat: int, code: int, move: int, odds: GameOdds | None
) -> DecisionRow:
    return DecisionRow(
        rules=cell.rules.id,
        players=cell.players,
        lineup=cell.lineup_name,
        game=game,
        hand=state.hand_no,
        move=move,
        seat=seat,
        total=state.total,
        legal=len(state.legal_codes()),
        action=str(state.action_of(code)),
        win_chances=odds.of_state(state) if odds is not None else [],
    )


@dataclass
class ChunkRows:
    """What a chunk gave: its rows, by table."""

    chunk: Chunk
    games: list[GameRow] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    decisions: list[DecisionRow] = field(default_factory=list)


@dataclass(frozen=True)
class Task:
    """One chunk to play, with everything a worker needs (it pickles, for processes and Ray)."""

    cell: Cell
    chunk: Chunk
    seed: int
    engine: Engine
    decisions: bool = False
    chance_games: int = 0  # the first games of the cell whose decisions get win chances


def play_chunk(task: Task) -> ChunkRows:
    """Play a chunk's games, in order."""
    out = ChunkRows(task.chunk)
    first = task.chunk.start
    for game in range(first, first + task.chunk.count):
        rows = play_game(
            task.cell,
            game,
            task.seed,
            task.engine,
            decisions=task.decisions,
            chances=game < task.chance_games,
        )
        out.games.append(rows.game)
        out.hands += rows.hands
        out.decisions += rows.decisions
    return out
