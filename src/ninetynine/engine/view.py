"""What one seat may know: the only thing a bot, a client or an agent ever sees.

A :class:`View` holds the seat's own hand and public facts. It never holds another
seat's cards, the order of the stock, or cards that went face down unseen, except the
cards the seat itself knows to be in another hand because a swap or a take showed them
(``known``, FAMILIES §12.1, O46-O47).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ninetynine.engine.actions import Action
from ninetynine.engine.events import Event
from ninetynine.engine.state import DRAWING, Outcome, Phase, State
from ninetynine.rules.cards import new_deck
from ninetynine.rules.settings import Rules


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """What ``seat`` may know: its own hand and the public facts of the game. Seats are
    0-based; per-seat tuples are indexed by seat."""

    seat: int
    rules: Rules
    players: int
    decks: int
    phase: Phase
    turn: int | None  # the seat to act, None at a chance node or after the game
    total: int
    direction: int  # 1 clockwise, -1 counter-clockwise
    dealer: int
    hand_no: int
    starter: int  # the seat that led this hand
    passes: int  # passes in a row since the last card (where a blocked player passes)
    owed: int  # draws the seat to act owes (where playing again puts drawing off)
    next_turn: int | None  # who plays after the draw now to be made (where drawing is a move)
    chain: int  # no-draw cards in a row that the seat to act faces (Icelandic Queens)
    plays_left: int  # cards the seat to act must still play in its run, without drawing
    may_decline: bool  # the seat to act may decline the turn a two-player reverse gave it
    hand: tuple[int, ...]  # this seat's cards, sorted
    hand_sizes: tuple[int, ...]
    lives: tuple[int, ...]  # per seat (a team's pool for each partner)
    alive: tuple[bool, ...]
    in_hand: tuple[bool, ...]
    turns_played: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    pot: int
    pile: tuple[int, ...]  # the face-up discards, bottom first, top last
    out: tuple[int, ...]  # face-up cards taken out of play
    stock_size: int
    legal: tuple[Action, ...]  # this seat's legal actions when it is to act
    outcome: Outcome | None
    history: tuple[Event, ...] = ()
    challenger: int | None = None  # whose challenge the seat to act must answer (KC)
    # per seat, the cards this seat knows to be in that seat's hand (a swap or a take
    # showed them: O46, O47), sorted; its own entry is empty; () where no cards move
    known: tuple[tuple[int, ...], ...] = ()

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.turn == self.seat

    @property
    def pile_top(self) -> int | None:
        """The face-up card on top of the pile, or None when the pile is empty."""
        return self.pile[-1] if self.pile else None

    def unseen(self) -> list[int]:
        """Cards this seat has not seen: in other hands, the stock, or face down."""
        seen = Counter(self.hand) + Counter(self.pile) + Counter(self.out)
        left = Counter(new_deck(self.decks, self.rules.jokers)) - seen
        return sorted(left.elements())


def observe(state: State, seat: int, history: tuple[Event, ...] = ()) -> View:
    """The view of ``seat``; ``history`` is the public event log, if the caller keeps one."""
    n = state.n
    return View(
        seat=seat,
        rules=state.rules,
        players=n,
        decks=state.decks,
        phase=state.phase,
        turn=state.current_seat,
        total=state.total,
        direction=state.direction,
        dealer=state.dealer,
        hand_no=state.hand_no,
        starter=state.starter,
        passes=state.passes,
        owed=state.owed,
        chain=state.chain,
        plays_left=state.plays_left,
        may_decline=state.may_decline,
        next_turn=state.next_turn if state.phase == DRAWING else None,
        hand=tuple(sorted(state.hands[seat])),
        hand_sizes=tuple(len(h) for h in state.hands),
        lives=tuple(state.seat_lives(s) for s in range(n)),
        alive=tuple(state.alive),
        in_hand=tuple(state.in_hand),
        turns_played=tuple(state.turns_played),
        points=tuple(state.points),
        scores=tuple(state.scores),
        pot=state.pot,
        pile=tuple(state.pile[state.face_down :]),
        out=tuple(state.out),
        stock_size=len(state.stock),
        legal=tuple(state.legal_actions()) if state.current_seat == seat else (),
        outcome=state.outcome,
        history=history,
        challenger=state.challenger if state.challenger >= 0 else None,
        known=tuple(tuple(k) for k in state.known_to(seat)) if state.known else (),
    )
