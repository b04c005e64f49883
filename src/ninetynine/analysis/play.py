"""Playing a cell's games and writing down their rows, on the engine's fast path.

The fast path (:meth:`State.legal_codes`, :meth:`State.apply_code`,
:meth:`State.play_chance`) makes no events, so the rows are read off the game as it goes:
the hands as dealt at a hand's first move, the last card played, and what each seat pays,
which a :class:`~ninetynine.engine.ledger.LedgerState` writes down where the engine
charges it. A ``random`` seat chooses among the legal codes with its own generator, which
picks what :class:`~ninetynine.bots.random_bot.RandomBot` picks from its view (the legal
actions are the legal codes, in order), without building the view. Other bots choose from
their view. The same loop (:func:`play_on`) plays the controlled card value's versions of
a deal (:mod:`ninetynine.analysis.playing`).

Bots that read the public log (the search bots, the oracle, program bots) get it as in the
arena: their cells play through the checked API (:meth:`State.apply`), which returns the
events (:attr:`Engine.CHECKED`). The rows are the same either way.

The game loop is most of a simulation's time, so per move it does only what the engine's
own loop does (``rng.choice(state.legal_codes())``, chance seeded per hand) and two cheap
notes: is this a new hand, and was this move a card. A hand's row is written down once, at
its first move (who leads, the cards dealt) and at its end (its moves, its loser, its last
card, what the ledger charged in it), into the chunk's
:class:`~ninetynine.analysis.columns.HandColumns`; what a cell's games share (its rules'
hash, its seats) is made once a chunk. The game rows and decision rows travel as tuples of
their fields; the row objects are made where they are read.

Cells of random bots play on the batch engine instead where it can (NumPy, its own random
streams: :mod:`ninetynine.analysis.batch_play`); ``simulate --engine fast`` keeps them here.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ninetynine import __version__
from ninetynine.analysis.cells import Cell, Chunk, rules_hash
from ninetynine.analysis.chances import chances_at
from ninetynine.analysis.columns import HandColumns
from ninetynine.analysis.rows import DecisionRow, GameRow, HandRow, Part, TupleRows, row_maker
from ninetynine.arena.game import seed_of
from ninetynine.arena.runner import rotation
from ninetynine.bots.base import Bot, ask, close_bot, make_bot, meet_bot
from ninetynine.bots.beginner import BeginnerBot
from ninetynine.bots.greedy import GreedyBot
from ninetynine.bots.heuristic import HeuristicBot
from ninetynine.bots.random_bot import RandomBot
from ninetynine.engine.events import Event
from ninetynine.engine.ledger import LedgerState
from ninetynine.engine.state import CHANCE, DOWN, OVER, PARAM, PLAY, State
from ninetynine.engine.tables import card_of, play_code
from ninetynine.engine.view import observe
from ninetynine.records.match import hand_seed
from ninetynine.rules.cards import rank_of
from ninetynine.rules.settings import NewRoundDeal, Scoring, Teams

# ninetynine.rl.encoding.VERSION, which this layer may not import (it needs NumPy); a
# test checks that the two agree
ENCODING_VERSION = 2
# bots that choose from their view without its log: their cells can take the fast path
HISTORY_FREE: tuple[type, ...] = (RandomBot, BeginnerBot, GreedyBot, HeuristicBot)

# a row as it travels: its row class's fields, in order
Row = tuple[Any, ...]


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


# a seat's move, from the legal codes: a ``random`` seat's is its generator's ``choice``
Pick = Callable[[list[int]], int]
# what a game's caller hears as each move is chosen, before it is made: the seat and the code
Note = Callable[[int, int], None]


def mover(bot: Bot, rng: random.Random, log: list[Event] | None, state: State, seat: int) -> Pick:
    """How a seat's bot chooses its move in ``state``, from its view (with the public
    ``log`` where the game keeps one); the legal codes it is given are not needed."""

    def choose(_legal: list[int]) -> int:
        view = observe(state, seat, () if log is None else tuple(log))
        return state.code_of(ask(bot, view, rng, state))

    return choose


# the generator of chance, seeded again before each draw (a new Random() would first
# seed itself from the system's entropy, which costs more than a deal)
_CHANCE = random.Random(0)
_SHARED: dict[str, Bot] = {}  # bots that keep nothing between moves, made once a process
# the rank that a play's code below PARAM plays: rank_of(card_of(code))
_PLAYED_RANK = tuple(rank_of(card_of(code)) for code in range(play_code(51, 3) + 1))


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
    deal seed ``seed_of(seed, "deal", block)`` of its block (:meth:`Cell.block_of`), and per
    seat ``Random(f"{seed_of(seed, 'bots', game)}:{seat}")``. ``chances`` fills the decision
    rows' ``win_chances`` (:func:`ninetynine.analysis.chances.chances_at`)."""
    games = _Games(cell, seed, engine)
    hands = games.columns()
    found, noted = games.play(game, hands, decisions, chances)
    decision_row = row_maker(DecisionRow)
    return GameRows(row_maker(GameRow)(found), hands.rows(), [decision_row(d) for d in noted])


class _Games:
    """A cell's games with one seed: what they share is made once."""

    def __init__(self, cell: Cell, seed: int, engine: Engine) -> None:
        self.cell, self.seed, self.engine = cell, seed, engine
        self.rules, self.n = cell.rules, cell.players
        self.rules_id, self.lineup = cell.rules.id, cell.lineup_name
        self.rules_hash = rules_hash(cell.rules)
        n, specs = cell.players, cell.seat_specs
        # the bot spec in each seat, by the game's rotation in its block
        self.seats = [[specs[e] for e in rotation(turn, n)] for turn in range(cell.block_size)]
        # the arena's seeds, seed_of(seed, "deal", block) and seed_of(seed, "bots", game),
        # but for their last part
        self.deal_seed, self.bot_seed = seed_of(seed, "deal", ""), seed_of(seed, "bots", "")

    def columns(self) -> HandColumns:
        """Empty hand columns for this cell's rows."""
        return HandColumns(self.rules_id, self.n, self.lineup)

    def play(
        self, game: int, hands: HandColumns, decisions: bool = False, chances: bool = False
    ) -> tuple[Row, list[Row]]:
        """Play game ``game``: its game row and decision rows (as tuples); its hand rows
        go to ``hands``."""
        block, turn = self.cell.block_of(game)
        seats = self.seats[turn]
        deal_seed = self.deal_seed + str(block)
        state = LedgerState.start(self.rules, self.n)
        noted: list[Row] = []
        note: Note | None = None
        if decisions:
            chance_seed = self.seed if chances else None

            def note(seat: int, code: int) -> None:
                noted.append(self._decision(game, state, seat, code, len(noted), chance_seed))

        first = len(hands)
        moves = play_on(
            state, seats, deal_seed, self.bot_seed + str(game), hands, self.engine, note
        )
        hands.of_game(game)
        opener, dealer = hands.starts[3 * first + 1 : 3 * first + 3]
        return self._game_row(
            state, seats, block, turn, deal_seed, game, moves, opener, dealer
        ), noted

    def _game_row(
        self,
        state: LedgerState,
        seats: list[str],
        block: int,
        turn: int,
        deal_seed: str,
        game: int,
        moves: int,
        opener: int,
        dealer: int,
    ) -> Row:
        outcome = state.outcome
        assert outcome is not None
        n = self.n
        lost = [0] * n
        for seat, amount, _cause in state.paid:
            lost[seat] += amount
        # each seat's place as records.match.standings gives it: 1 + the seats ranked
        # strictly above, the winners first (all in the first place), then by lives left
        # (or score)
        if self.rules.scoring is Scoring.GAME_POINTS:
            keys = state.scores
        elif self.rules.teams is Teams.POOLED:
            keys = [state.seat_lives(s) for s in range(n)]
        else:  # a seat's own lives
            keys = state.lives
        winners = outcome.winners
        rank = [(True, 0) if s in winners else (False, keys[s]) for s in range(n)]
        ranked = sorted(rank)
        places = [1 + n - bisect_right(ranked, mine) for mine in rank]
        return (
            self.rules_id,
            self.rules_hash,
            n,
            self.lineup,
            list(seats),
            block,
            turn,
            deal_seed,
            game,
            list(winners),
            places,
            outcome.reason.value,
            state.hand_no,
            moves,
            opener,
            dealer,
            lost,
            __version__,
            ENCODING_VERSION,
        )

    def _decision(
        self, game: int, state: State, seat: int, code: int, move: int, seed: int | None
    ) -> Row:
        return (
            self.rules_id,
            self.n,
            self.lineup,
            game,
            state.hand_no,
            move,
            seat,
            state.total,
            len(state.legal_codes()),
            str(state.action_of(code)),
            chances_at(state, seed, game, move) if seed is not None else [],
        )


def play_on(
    state: LedgerState,
    seats: Sequence[str],
    deal_seed: str,
    bot_seed: str,
    hands: HandColumns,
    engine: Engine = Engine.FAST,
    note: Note | None = None,
    drawn: int = 0,
) -> int:
    """Play ``state`` on to its end, bot spec ``seats[s]`` in seat s drawing from
    ``Random(f"{bot_seed}:{s}")``, the k-th chance event of hand h from
    ``hand_seed(deal_seed, h, k)`` (``drawn``: the events of the hand under way drawn
    before, for a game played on from a position). Returns the moves made here; each
    hand's row goes to ``hands`` (but its game: :meth:`HandColumns.of_game`), and the
    ledger of ``state`` holds what was paid. With the checked engine the bots see the
    public log of the moves played here."""
    n = state.n
    log: list[Event] | None = [] if engine is Engine.CHECKED else None
    rngs = [random.Random(f"{bot_seed}:{s}") for s in range(n)]
    picks: list[Pick] = [rng.choice for rng in rngs]
    bots: list[Bot | None] = [None] * n
    for seat, spec in enumerate(seats):
        if spec != "random":
            bot = bots[seat] = bot_for(spec)
            if not isinstance(bot, HISTORY_FREE):  # made for this game, not shared
                meet_bot(bot, seats)
            if type(bot) is not RandomBot:
                picks[seat] = mover(bot, rngs[seat], log, state, seat)
    if note is not None:
        picks = [_noting(pick, seat, note) for seat, pick in enumerate(picks)]
    try:
        return _play(state, picks, deal_seed, log, hands, drawn)
    finally:
        for made in bots:
            if made is not None and not isinstance(made, HISTORY_FREE):
                close_bot(made)


def _noting(pick: Pick, seat: int, note: Note) -> Pick:
    """``pick``, telling ``note`` of each move before it is made."""

    def noted(legal: list[int]) -> int:
        code = pick(legal)
        note(seat, code)
        return code

    return noted


def _play(
    state: LedgerState,
    picks: list[Pick],
    deal_seed: str,
    log: list[Event] | None,
    hands: HandColumns,
    drawn: int,
) -> int:
    """Play the game out and return the moves made; each hand's row goes to ``hands``
    (but its game). Written for speed: per move it does what the engine's own loop does,
    and notes whether a new hand began and whether a card was played; the rest is done
    once a hand, at its first move and at its end."""
    legal, apply = state.legal_codes, state.apply_code
    if log is not None:

        def apply(code: int) -> None:
            log.extend(state.apply(state.action_of(code)))

    chance = _CHANCE
    reseed, down, param, played = chance.seed, DOWN, PARAM, _PLAYED_RANK
    paid, busts, n = state.paid, state.busts, state.n
    starts, ends = hands.starts, hands.ends
    cards, sizes, lost, no_loss = hands.cards, hands.sizes, hands.lost, hands.no_loss()
    moves, hand, last = 0, 0, -1
    m0 = p0 = b0 = 0  # the moves, payments and busts before the hand under way
    chance_hand, k = state.hand_no, drawn  # chance events drawn so far in hand chance_hand
    # where every new hand is shuffled for (and the game starts at a shuffle), a hand can
    # only begin at a chance event: the hand is then looked at after chance alone, not
    # after every move
    every_move = (
        state.rules.new_round_deal is not NewRoundDeal.FULL_RESHUFFLE or state.phase is PLAY
    )
    while True:
        phase = state.phase
        if phase is not PLAY or (every_move and state.hand_no != hand):
            if phase is CHANCE:
                h = state.hand_no
                if h != chance_hand:
                    chance_hand, k = h, 0
                reseed(hand_seed(deal_seed, h, k))
                k += 1
                if log is None:
                    state.play_chance(chance)
                else:
                    log += state.apply(state.sample_chance(chance))
                phase = state.phase
                if every_move or phase is CHANCE or (phase is PLAY and state.hand_no == hand):
                    continue  # (else a hand was dealt, or the game ended: see to its rows)
            if phase is OVER or state.hand_no != hand:  # (else a draw to decide)
                if hand:  # the hand under way has ended: the rest of its row
                    if last < 0:
                        ending = -1
                    else:
                        ending = played[last] if last < param else rank_of(card_of(last))
                    ends += (moves - m0, busts[-1] if len(busts) > b0 else -1, ending)
                    at = len(lost)
                    lost += no_loss
                    if len(paid) > p0:
                        for seat, amount, cause in paid[p0:]:
                            lost[at + cause * n + seat] += amount
                if state.hand_no == hand:  # the game is over, and its last hand written
                    break
                hand, last = state.hand_no, -1  # a new hand: the start of its row
                starts += (hand, state.starter, state.dealer)
                for dealt in state.hands:  # the cards as dealt (sorted and spelt where read)
                    cards += dealt
                sizes += map(len, state.hands)
                m0, p0, b0 = moves, len(paid), len(busts)
                if phase is OVER:  # the game ended as this hand was dealt (an instant hand)
                    continue
        code = picks[state.turn](legal())
        apply(code)
        moves += 1
        if code < down or code >= param:
            last = code
    return moves


@dataclass
class ChunkRows:
    """What a chunk gave: its game and decision rows as tuples of their fields in order,
    and its hand rows by column."""

    chunk: Chunk
    hands: HandColumns
    games: list[Row] = field(default_factory=list)
    decisions: list[Row] = field(default_factory=list)

    def parts(self) -> dict[str, Part]:
        """Each table's rows, by the table's name."""
        return {
            "games": TupleRows(GameRow, self.games),
            "hands": self.hands,
            "decisions": TupleRows(DecisionRow, self.decisions),
        }


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
    games = _Games(task.cell, task.seed, task.engine)
    out = ChunkRows(task.chunk, games.columns())
    first = task.chunk.start
    for game in range(first, first + task.chunk.count):
        found, noted = games.play(game, out.hands, task.decisions, game < task.chance_games)
        out.games.append(found)
        out.decisions += noted
    return out
