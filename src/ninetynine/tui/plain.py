"""``ninetynine play --plain``: the same game as text prompts and lines, for screen readers
and pipes. Moves are read one per line: a card (``KS``, ``AS+11``), a number from the
list of legal moves, ``help``, ``hand`` (show the table again), ``coach`` (turn the
coach's figures on or off) or ``quit``. End of input quits too; the game is saved either
way."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TextIO

from ninetynine.coach.advice import PLAYOUTS, advise
from ninetynine.engine.actions import Action, ActionKind, parse_action
from ninetynine.engine.events import Event
from ninetynine.engine.options import stuck_explanation
from ninetynine.errors import IllegalActionError, NinetyNineError
from ninetynine.language import _, ngettext
from ninetynine.launch import command
from ninetynine.rules.cards import show_card, show_cards
from ninetynine.rules.describe import rules_text
from ninetynine.session.table import Table, Waiting
from ninetynine.tui.text import (
    DECLINE_LABEL,
    coach_line,
    direction_text,
    lives_text,
    seat_status,
    turn_note,
)

Saver = Callable[[Table], str | None]  # files a finished game; returns where, for the player


CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen and the scrollback


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


class _Quit(Exception):
    pass


class PlainGame:
    """Drives a :class:`Table` from lines of input; prints only public facts and the
    hand of the person whose turn it is (or the only person at the table)."""

    def __init__(
        self,
        table: Table,
        inp: TextIO,
        out: TextIO,
        *,
        finish: Saver | None = None,
        sleep: Callable[[float], None] = time.sleep,
        coach: bool = False,
        coach_playouts: int = PLAYOUTS,
    ):
        self.table, self.inp, self.out = table, inp, out
        self.finish, self.sleep = finish, sleep
        self.coach_playouts = coach_playouts
        if coach:
            table.coach = True
        self.echo = not _isatty(inp)
        self.clear = _isatty(out)

    def say(self, text: str = "") -> None:
        """Writes one line (flushed)."""
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        """Writes ``prompt`` and returns the next line read, stripped (echoed where the input is not
        a terminal, so a transcript reads as a session). The end of the input quits the game."""
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise _Quit
        if self.echo:  # a transcript from a pipe reads like a session at a terminal
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def run(self) -> int:
        """Play until the game ends (and no rematch is wanted) or the player quits."""
        t = self.table
        self.say(
            _("Ninety-Nine: {id}, {name}. {players}: {names}.").format(
                id=t.rules.id,
                name=t.rules.name,
                players=ngettext("{n} player", "{n} players", t.state.n).format(n=t.state.n),
                names=", ".join(t.names),
            )
        )
        # the words typed stay English, as the card notation does
        self.say(
            _(
                "Type a card (KS, AS+11) or a number from the list; 'help' for the rules, "
                "'coach' for the coach's figures, 'quit' to save and stop."
            )
        )
        for line in t.lines(t.log):
            self.say(line)
        try:
            while True:
                p = self.table.pending()
                if p.kind is Waiting.OVER:
                    if not self.game_over():
                        return 0
                elif p.kind is Waiting.BOT:
                    if self.table.pace > 0:
                        self.sleep(self.table.pace)
                    self.show(self.table.step_bot())
                elif p.kind is Waiting.HUMAN:
                    self.human_turn()
        except _Quit:
            if not self.table.state.is_over:
                self.say(
                    _("Game saved. Resume it with: {command}").format(
                        command=command("play --resume")
                    )
                )
            return 0
        finally:  # also when a bot fails: its error goes on to the one-line report
            self.table.close()

    def show(self, events: Sequence[Event]) -> None:
        """Writes the table talk of ``events``."""
        for line in self.table.lines(events):
            self.say(line)

    def game_over(self) -> bool:
        """Report the end; returns True for a rematch."""
        t = self.table
        self.say()
        self.say(_("Game over. {result}").format(result=" ".join(t.summary_lines()[:1])))
        for line in t.summary_lines()[1:]:
            self.say(line)
        where = self.finish(t) if self.finish else None
        if where:
            self.say(_("The record is saved in {path}").format(path=where))
        answer = self.ask(_("Rematch? (y/n) ")).lower()
        if answer not in ("y", "yes", _("y"), _("yes")):
            return False
        self.table = t.rematch()
        t.close()
        who = self.table.names[self.table.state.starter]
        self.say(_("New game: {name} starts.").format(name=who))
        self.show(self.table.log)
        return True

    def describe(self, seat: int) -> None:
        """Writes the table as ``seat`` (0-based) sees it: the total, the direction, the pile and
        the stock, each seat's lives, cards and status, its own hand, and on its turn what a no-draw
        chain asks of it."""
        t = self.table
        v = t.view(seat)
        top = show_card(v.pile_top) if v.pile_top is not None else _("none")
        self.say()
        self.say(
            _(
                "Total {total}, play goes {direction}. Pile top {card}, stock {cards}. Hand {n}."
            ).format(
                total=v.total,
                direction=direction_text(v.direction)[2:],
                card=top,
                cards=_cards(v.stock_size),
                n=v.hand_no,
            )
        )
        for s in range(v.players):
            status = seat_status(v, s)
            self.say(
                f"  {'>' if s == seat else ' '} {t.names[s]}: "
                f"{lives_text(t.rules, v, s)}, {_cards(v.hand_sizes[s])}"
                + (f", {status}" if status else "")
            )
        self.say(_("Your hand: {cards}").format(cards=show_cards(v.hand) or _("no cards")))
        for s, cards in enumerate(v.known):
            if cards:  # a swap or a take showed them (CN99)
                self.say(
                    _("You know {name} holds {cards}.").format(
                        name=t.names[s], cards=show_cards(cards)
                    )
                )
        note = turn_note(v)
        if note and v.my_turn:
            self.say(note[0].upper() + note[1:])

    def human_turn(self) -> None:
        """One person's turn: the hand-off where people share the screen (clearing it first on a
        terminal), the table, the legal moves numbered and the coach's figures if it is on, then
        lines read until one is a legal move, which is played."""
        t = self.table
        seat = t.pending().seat
        assert seat is not None
        name = t.names[seat]
        if t.needs_handoff():
            if self.clear:  # the last person's hand must not stay on the screen
                self.out.write(CLEAR)
            self.ask(_("Pass the device to {name}, then press Enter. ").format(name=name))
            t.reveal(seat)
        self.describe(seat)
        legal = t.view(seat).legal
        why = stuck_explanation(t.state)
        if why:
            self.say(why)
        self.say(
            _("You may play: {moves}").format(
                moves="  ".join(f"{i}) {self.label(a)}" for i, a in enumerate(legal, 1))
            )
        )
        if self.table.coach:
            self.coach(seat)
        while True:
            text = self.ask(_("{name}, your move> ").format(name=name))
            action = self.read_move(text, legal)
            if action is None:
                continue
            try:
                events = t.play(action)
            except NinetyNineError as e:  # the moves allowed are listed above: the reason alone
                why = e.why if isinstance(e, IllegalActionError) else str(e)
                self.say(_("Not allowed: {why}").format(why=why))
                continue
            self.show(events)
            return

    def read_move(self, text: str, legal: tuple[Action, ...]) -> Action | None:
        """The action a line names, or None after saying what was wrong (or helping)."""
        word = text.lower()
        if not word:
            return None
        if word in ("quit", "q", "exit"):
            raise _Quit
        if word in ("help", "?", "h"):
            self.help()
            return None
        if word == "coach":
            self.table.set_coach(not self.table.coach)  # (and saved with the game)
            seat = self.table.pending().seat
            assert seat is not None
            if self.table.coach:
                self.coach(seat)
            else:
                self.say(_("Coach off."))
            return None
        if word == DECLINE_LABEL:  # the pass that declines an extra turn, by its name
            return Action(ActionKind.PASS)
        if word in ("hand", "look", "table"):
            seat = self.table.pending().seat
            assert seat is not None
            self.describe(seat)
            return None
        if word.isdigit():
            i = int(word)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            self.say(
                _("No move {i}: choose 1 to {n}, or type a card such as {card}").format(
                    i=i, n=len(legal), card=legal[0]
                )
            )
            return None
        try:
            action = parse_action(text)
        except NinetyNineError:
            action = None
        if not isinstance(action, Action):  # not a move, or a chance step (shuffle, lead...)
            self.say(self.unknown(text, legal))
            return None
        if action.kind is ActionKind.PLAY and action == Action.play(action.card or 0):
            choices = [a for a in legal if a.card == action.card and a != action]
            if len(choices) == 1:
                return choices[0]
            if choices:
                return self.ask_choice(action, choices)
        return action

    def unknown(self, text: str, legal: tuple[Action, ...]) -> str:
        """What this player may type now, for a line that names no move: only their
        moves and the words of this mode (never the engine's chance steps)."""
        moves = ", ".join(str(a) for a in legal)
        words = "help, hand, coach, quit"
        if any(a.kind is ActionKind.PASS for a in legal) and self.table.state.may_decline:
            words = f"{DECLINE_LABEL}, " + words
        return _(
            "{text} is not a move: type a number from 1 to {n}, or one of {moves}; or {words}"
        ).format(text=repr(text), n=len(legal), moves=moves, words=words)

    def coach(self, seat: int) -> None:
        """The coach's figures for each legal move, from the seat's own view."""
        advice = advise(
            self.table.view(seat), playouts=self.coach_playouts, seed=self.table.match.version
        )
        off = (
            _("(★ the coach's pick; 'coach' turns it off)")
            if len(advice.tied) == 1
            else _("('coach' turns it off)")
        )
        self.say(coach_line(advice, str) + "  " + off)

    def label(self, action: Action) -> str:
        """An action as typed, with the name of the player it names."""
        if action.target is not None and self._challenges(action):
            return _("{move} (challenge {name})").format(
                move=action, name=self.table.names[action.target]
            )
        if action.target is not None:
            return _("{move} ({name} next)").format(
                move=action, name=self.table.names[action.target]
            )
        if action.kind is ActionKind.ACCEPT:
            return _("{move} (you are out)").format(move=action)
        if action.kind is ActionKind.PASS and self.table.state.may_decline:
            return _("{move} ({decline} the extra turn)").format(move=action, decline=DECLINE_LABEL)
        return str(action)

    def _challenges(self, action: Action) -> bool:
        """Whether the seat an action names is challenged (not named to play next)."""
        return action.card is not None and self.table.rules.effect_of(action.card).challenge

    def ask_choice(self, action: Action, choices: list[Action]) -> Action | None:
        """The value, the player named or the total set, for a card typed without it."""
        assert action.card is not None
        card, names = show_card(action.card), self.table.names
        first = choices[0]
        if first.target is not None:
            who = "  ".join(f"{(c.target or 0) + 1}) {names[c.target or 0]}" for c in choices)
            question = (
                _("{card}: whom do you challenge? {choices} ")
                if self._challenges(first)
                else _("{card}: who plays next? {choices} ")
            )
            prompt = question.format(card=card, choices=who)
            options = _("a seat number or name")
        elif first.to is not None:
            options = _("a number from {low} to {high}").format(low=first.to, high=choices[-1].to)
            prompt = _("{card} sets the total to ({options})? ").format(card=card, options=options)
        else:
            options = _(" or ").join(f"{c.value:+d}" for c in choices)
            prompt = _("{card} counts {options}? ").format(card=card, options=options)
        while True:
            text = self.ask(prompt).strip()
            for c in choices:
                if c.target is not None:
                    said = {str(c.target + 1), names[c.target].lower()}
                elif c.to is not None:
                    said = {str(c.to)}
                else:
                    said = {f"{c.value:+d}", str(c.value), str(abs(c.value or 0))}
                if text.lower() in said:
                    return c
            if text.lower() in ("cancel", "back"):
                return None
            self.say(_("Type {options} (or 'back')").format(options=options))

    def help(self) -> None:
        """Writes the rules text (its Cards part lists every card's effect)."""
        self.say(rules_text(self.table.rules).rstrip())  # its "Cards" part lists every effect


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def run_plain(
    table: Table,
    inp: TextIO,
    out: TextIO,
    *,
    finish: Saver | None = None,
    sleep: Callable[[float], None] = time.sleep,
    coach: bool = False,
) -> int:
    """Plays ``table`` as lines read from ``inp`` and written to ``out`` until the game ends with no
    rematch or the player quits (see :class:`PlainGame`). Returns 0."""
    return PlainGame(table, inp, out, finish=finish, sleep=sleep, coach=coach).run()
