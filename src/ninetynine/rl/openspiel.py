"""Ninety-Nine as an OpenSpiel game, registered as ``python_ninetynine`` when this module is
imported.

>>> import pyspiel
>>> import ninetynine.rl.openspiel
>>> game = pyspiel.load_game("python_ninetynine", {"rules": "K", "players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node()                  # the deck is shuffled: a 32-bit seed, byte by byte
True
>>> len(state.chance_outcomes())
256

* **Chance nodes** (game parameter ``chance``): with ``"shuffle"`` (the default) a shuffle
  (the deal, a restock) is :data:`SEED_BYTES` chance nodes of 256 equally likely outcomes,
  the bytes of a seed that orders the cards (:func:`shuffled`). A game has a twelfth of the
  chance nodes of ``"card"`` (P, 4 seats: 73 against 936, measured in the docs), so
  ``evaluate_bots`` and MCTS rollouts spend less per game. The 2**32 orders a shuffle can
  take are a sample of all orders, each equally likely, too many for a hand to tell which
  was dealt. With ``"card"`` a shuffle is one chance node per card, each outcome a card
  (0-51, ``rank * 4 + suit``) with its share of the cards left: every order, exactly. A
  returned up-card's depth and a drawn leader are one chance node each either way.
* **Actions**: the canonical action index of :mod:`ninetynine.rl.encoding`.
* **Observations**: the canonical observation tensor of a seat; the information-state
  tensor adds, per seat from the observer's, the cards it has played since the last
  shuffle. The information-state string is perfect recall: every public move and each
  change to the observer's own hand, in order.
* **Returns**: +1 for each winner, -1 for every other player; a game cut off after
  ``max_moves`` decisions (game parameter; random play ends far sooner) returns 0 to all.
* :meth:`NinetyNineState.resample_from_infostate` deals the cards a seat has not seen at
  random (:class:`ninetynine.bots.Determinizer`), so OpenSpiel's own ISMCTS bot can play.
* :class:`SpielBot` seats any ninetynine bot in OpenSpiel (``pyspiel.evaluate_bots``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from ninetynine.bots import Bot, ask, make_bot
from ninetynine.bots.determinize import Determinizer
from ninetynine.engine.actions import Lead, Reinsert, Shuffle
from ninetynine.engine.events import Event
from ninetynine.engine.game import new_game
from ninetynine.engine.state import CHANCE, DOWN, FIELDS, LEAD, UPCARD, State
from ninetynine.engine.tables import PARAM, card_of
from ninetynine.engine.view import observe
from ninetynine.records.position import format_position, parse_position
from ninetynine.rl.encoding import SLOT, Encoding, encoding_for, rules_for
from ninetynine.rules.cards import format_card, format_cards
from ninetynine.rules.settings import Rules

NAME = "python_ninetynine"
MAX_MOVES = 20_000  # decisions before a game is cut off (the longest random game of any
# preset at any table size in the tests took a few thousand)
SEED_BYTES = 4  # chance nodes of a shuffle with chance="shuffle": a 32-bit seed, so no hand
# can tell which order was dealt, in nodes of 256 outcomes, which pyspiel lists cheaply (one
# node of 2**32 could not be listed; one of 2**16 cost more per game than 52 nodes of a card)
CHANCE_MODES = ("shuffle", "card")

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Ninety-Nine (the adding card game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=52,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "rules": "P",
        "players": 4,
        "max_moves": MAX_MOVES,
        "chance": CHANCE_MODES[0],
    },
)


class NinetyNineGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """The ``python_ninetynine`` game. Parameters: ``rules`` (a preset id or alias),
    ``players``, ``max_moves`` (the decisions before a game is cut off) and ``chance``
    (``"shuffle"``: one chance node a shuffle; ``"card"``: one a card shuffled)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules = rules_for(str(params.get("rules", "P")), int(params.get("players", 4)))
        players = int(params.get("players", 4))
        self.max_moves = int(params.get("max_moves", MAX_MOVES))
        self.chance = str(params.get("chance", CHANCE_MODES[0]))
        if self.chance not in CHANCE_MODES:
            raise ValueError(
                f"unknown chance mode {self.chance!r}; expected one of {', '.join(CHANCE_MODES)}"
            )
        self.encoding = encoding_for(rules, players, 1)
        self.start = new_game(rules, players)  # each initial state is a copy of this
        deck = 52 * self.encoding.decks
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.actions,
            max_chance_outcomes=max(deck + 1, players, 256 if self.chance == "shuffle" else 0),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=self.max_moves,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> NinetyNineState:
        """A new game at its first chance node (the deck's shuffle); seat 0 plays first."""
        return NinetyNineState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """An :class:`Observer` of one player's own view: the information state with perfect
        recall, else the observation. Other observation types, or any ``params``, raise
        ValueError."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if (
            obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not obs_type.public_info
        ):
            raise ValueError(
                "only the observing player's own view is supported "
                "(public and single-player private information)"
            )
        return Observer(self.encoding, perfect_recall=obs_type.perfect_recall)


class Table:
    """The Python side of a state: the engine's state and what each seat has observed.
    A state is copied by :meth:`__deepcopy__` (OpenSpiel clones by deep copy) and pickled
    as a position (OpenSpiel serializes by pickling)."""

    __slots__ = (
        "encoding",
        "state",
        "pending",
        "left",
        "public",
        "private",
        "hands",
        "played",
        "moves",
        "log",
        "seeded",
    )

    def __init__(self, encoding: Encoding, state: State) -> None:
        self.encoding = encoding
        self.state = state
        # the order of a shuffle being drawn, card by card, or (seeded) its seed's bytes
        self.pending: list[int] = []
        self.left: Counter[int] | None = None  # its cards not drawn yet (when known)
        self.public: list[str] = []  # every public event, in order
        # per seat: its hand each time it changed, with the public events seen by then
        self.private: list[list[str]] = [[] for _ in range(encoding.players)]
        self.hands: list[tuple[int, ...]] = [() for _ in range(encoding.players)]
        self.played: list[tuple[int, int]] = []  # (seat, card) since the last shuffle
        self.moves = 0  # decisions so far
        self.log: list[Event] = []  # the public events, as a match keeps them (bots' views)
        self.seeded = False  # chance="shuffle": a shuffle is a seed drawn byte by byte

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        new = Table.__new__(Table)
        new.encoding, new.state = self.encoding, self.state.clone()
        new.pending, new.public = self.pending[:], self.public[:]
        new.left = None if self.left is None else self.left.copy()
        new.private = [p[:] for p in self.private]
        new.hands, new.played, new.moves = self.hands[:], self.played[:], self.moves
        new.log, new.seeded = self.log[:], self.seeded
        return new

    def __reduce__(self) -> tuple[Callable[..., Table], tuple[Any, ...]]:
        return _restore, (
            self.encoding.rules,
            self.encoding.players,
            format_position(self.state),
            self.pending,
            self.public,
            self.private,
            self.hands,
            self.played,
            self.moves,
            self.log,
            self.seeded,
        )

    def shuffle_left(self, cards: tuple[int, ...]) -> Counter[int]:
        """The cards of the shuffle being drawn that are not drawn yet, with counts."""
        if self.left is None:
            self.left = Counter(cards) - Counter(self.pending)
        return self.left

    def note_hands(self) -> None:
        """Each seat notes its own hand where it changed (a deal, a draw)."""
        for seat, hand in enumerate(self.state.hands):
            mine = tuple(sorted(hand))
            if mine != self.hands[seat]:
                self.hands[seat] = mine
                self.private[seat].append(f"{len(self.public)}:{format_cards(mine)}")


def _restore(
    rules: Rules,
    players: int,
    position: str,
    pending: list[int],
    public: list[str],
    private: list[list[str]],
    hands: list[tuple[int, ...]],
    played: list[tuple[int, int]],
    moves: int,
    log: list[Event],
    seeded: bool,
) -> Table:
    table = Table(encoding_for(rules, players, 1), parse_position(position))
    table.pending, table.public, table.private = pending, public, private
    table.left = None
    table.hands, table.played, table.moves, table.log = hands, played, moves, log
    table.seeded = seeded
    return table


def shuffled(cards: tuple[int, ...], seed: bytes) -> tuple[int, ...]:
    """The order of ``cards`` that a shuffle's ``seed`` stands for: a function of its
    arguments alone, so replaying a history (OpenSpiel's serialization) deals the same."""
    order = sorted(cards)
    random.Random(int.from_bytes(seed, "big")).shuffle(order)
    return tuple(order)


class NinetyNineState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A state of ``python_ninetynine``: the engine's state and what each seat has observed
    (a :class:`Table`)."""

    def __init__(self, game: NinetyNineGame) -> None:
        super().__init__(game)
        enc = game.encoding
        self._max_moves = game.max_moves
        self._t = Table(enc, game.start.clone())
        self._t.seeded = game.chance == "shuffle"

    # Whose move ---------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat (0-based) to act, or OpenSpiel's chance or terminal player id."""
        state = self._t.state
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if state.phase == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        seat = state.current_seat
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        """True once the game is over, or cut off after ``max_moves`` decisions."""
        return self._t.state.is_over or self._t.moves >= self._max_moves

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for every other seat once the game is over; 0 for all before,
        and in a game cut off by ``max_moves``."""
        state, n = self._t.state, self._t.encoding.players
        if state.outcome is None:
            return [0.0] * n
        return [1.0 if s in state.outcome.winners else -1.0 for s in range(n)]

    # Moves --------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> list[int]:
        t = self._t
        if player != t.state.current_seat or self.is_terminal():
            return []
        return sorted(t.encoding.legal_indexes(t.state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """This chance node's outcomes with their probabilities: in a shuffle, each card left to
        draw, weighted by its copies; an up-card's depths or the seats that may lead, uniform."""
        state = self._t.state
        req = state.chance_request()
        assert req is not None, "not a chance node"
        if req.kind == UPCARD:
            return [(d, 1.0 / len(req.depths)) for d in req.depths]
        if req.kind == LEAD:
            return [(s, 1.0 / len(req.seats)) for s in req.seats]
        if self._t.seeded:
            return _SEED_BYTE_OUTCOMES
        left = self._t.shuffle_left(req.cards)
        count = len(req.cards) - len(self._t.pending)
        return [(card, k / count) for card, k in sorted(left.items())]

    def _apply_action(self, action: int) -> None:
        t = self._t
        state = t.state
        if state.phase == CHANCE:
            req = state.chance_request()
            assert req is not None
            if req.kind == UPCARD:
                t.log += state.apply(Reinsert(action))
                t.public.append("up-card returned")
            elif req.kind == LEAD:
                t.log += state.apply(Lead(action))
                t.public.append(f"lead {action + 1}")
            elif t.seeded:
                if not 0 <= action < 256:
                    raise pyspiel.SpielError(f"a shuffle's seed byte is 0-255; got {action}")
                t.pending.append(action)
                if len(t.pending) < SEED_BYTES:
                    return
                t.log += state.apply(Shuffle(shuffled(req.cards, bytes(t.pending))))
                t.pending, t.played = [], []
                t.public.append(req.kind)
            else:
                left = t.shuffle_left(req.cards)
                left[action] -= 1
                if not left[action]:
                    del left[action]
                t.pending.append(action)
                if len(t.pending) < len(req.cards):
                    return
                t.left = None
                t.log += state.apply(Shuffle(tuple(t.pending)))
                t.pending, t.played = [], []  # the cards played are back in the stock
                t.public.append(req.kind)
        else:
            seat = state.turn
            code = t.encoding.check(state, action)
            t.public.append(f"P{seat + 1} {t.encoding.text(action)}")
            if code < DOWN or code >= PARAM:
                t.played.append((seat, card_of(code)))
            t.log += state.apply(state.action_of(code))
            t.moves += 1
        t.note_hands()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            kind = self._t.state.chance
            if kind == UPCARD:
                return f"insert {action}"
            if kind == LEAD:
                return f"lead {action + 1}"
            if self._t.seeded:
                return f"shuffle seed byte {action}"
            return f"shuffle: {format_card(action)}"
        return self._t.encoding.text(action)

    # What a player may know ---------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> NinetyNineState:
        """A state the player cannot tell from this one: the cards it has not seen dealt
        at random into the other hands, the stock and the face-down pile (the bots'
        determinization); everything it has observed kept."""
        t = self._t
        rng = random.Random(float(probability_sampler()))
        sampled = Determinizer(observe(t.state, player_id)).sample(rng)
        clone: NinetyNineState = self.clone()
        table = clone._t
        table.state = sampled
        for seat in range(t.encoding.players):  # the others' hands are the sampled ones
            if seat != player_id:
                table.hands[seat] = tuple(sorted(sampled.hands[seat]))
                table.private[seat] = [f"{len(t.public)}:{format_cards(table.hands[seat])}"]
        return clone

    def information_state_string(self, player: int | None = None) -> str:
        """Perfect recall for ``player`` (default: the one to act): every public move and each
        change to its own hand, in order."""
        seat = self.current_player() if player is None else player
        t = self._t
        return f"P{seat + 1}|" + "|".join(t.public) + "#" + "|".join(t.private[seat])

    def observation_string(self, player: int | None = None) -> str:
        """The table as ``player`` (default: the one to act) sees it, as text."""
        from ninetynine.rl.render import table_text

        seat = self.current_player() if player is None else player
        return table_text(self._t.state, seat)

    def __str__(self) -> str:
        """Every field of the state (a position's text is readable but slow to write)."""
        t = self._t
        fields = " ".join(
            f"{name}={getattr(t.state, name)!r}"
            for name in FIELDS
            if name not in ("rules", "c", "_ev", "_before")
        )
        return f"{t.encoding.rules.id} {fields} shuffled={t.pending!r} moves={t.moves}"


class Observer:
    """OpenSpiel's observer interface over the canonical encoding."""

    def __init__(self, encoding: Encoding, perfect_recall: bool) -> None:
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        n, slots = encoding.players, encoding.slots  # (54 card slots with the jokers)
        played = n * slots if perfect_recall else 0
        self.tensor = np.zeros(encoding.size + played, np.float32)
        self.dict = {"observation": self.tensor[: encoding.size]}
        if perfect_recall:
            self.dict["played"] = self.tensor[encoding.size :].reshape(n, slots)

    def set_from(self, state: NinetyNineState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s observation of ``state`` and, with perfect recall,
        the cards each seat has played since the last shuffle."""
        t = state._t
        self.tensor[: self.encoding.size] = self.encoding.observe(t.state, player)
        if self.perfect_recall:
            self._played(state, player)

    def _played(self, state: NinetyNineState, player: int) -> None:
        """Per seat from ``player``'s, the cards it played since the last shuffle."""
        played = self.dict["played"]
        played.fill(0)
        n, unit = self.encoding.players, 1.0 / self.encoding.decks
        for seat, card in state._t.played:
            played[(seat - player) % n, SLOT[card]] += unit

    def string_from(self, state: NinetyNineState, player: int) -> str:
        """``player``'s information-state string of ``state`` with perfect recall, else its
        observation string."""
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


_SEED_BYTE_OUTCOMES = [(byte, 1.0 / 256) for byte in range(256)]

pyspiel.register_game(_GAME_TYPE, NinetyNineGame)


class SpielBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no types
    """A ninetynine bot (a spec such as ``"heuristic"``, or a bot made already) as an
    OpenSpiel bot for seat ``player``, so that ``pyspiel.evaluate_bots`` and OpenSpiel's
    tools can seat it beside their own: it plays from the seat's view alone, drawing from
    its own generator (seeded by ``seed``)."""

    def __init__(self, bot: str | Bot, player: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(bot) if isinstance(bot, str) else bot
        self.player, self.seed = player, seed
        self.rng = random.Random(f"{seed}:{player}")

    def step(self, state: NinetyNineState) -> int:
        """The bot's action index at ``state``, where this seat is to act."""
        table = state._t
        if table.state.current_seat != self.player:
            raise pyspiel.SpielError(f"seat {self.player} asked to move out of turn")
        action = ask(self.bot, observe(table.state, self.player, tuple(table.log)), self.rng)
        return table.encoding.index_of(table.state.code_of(action))

    def restart_at(self, state: NinetyNineState) -> None:
        """A new game (or one taken up at ``state``): the bot keeps nothing between
        decisions but its generator, which starts again."""
        self.rng = random.Random(f"{self.seed}:{self.player}")

    def inform_action(self, state: NinetyNineState, player_id: int, action: int) -> None:
        """Another seat's move: the bot reads the table from each view it is given."""

    def provides_force_action(self) -> bool:
        """No: OpenSpiel cannot make it play a move of its choosing."""
        return False

    def provides_policy(self) -> bool:
        """No: it gives one move, not a distribution over them."""
        return False
