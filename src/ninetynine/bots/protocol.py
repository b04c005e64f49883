"""The engine protocol: a bot in any language, as a subprocess speaking JSON lines.

Like UCI for chess engines. The game sends one line per decision on the bot's stdin and
reads one line back from its stdout (see ``docs/bot-protocol.md``)::

    -> {"type": "move", "protocol": 1, "seed": 123, "view": {...}, "legal": ["KS", "AS+11"]}
    <- {"action": "KS"}

and ``{"type": "quit"}`` when the game is over, after which stdin is closed. The bot
is used as ``make_bot("cmd:python examples/protocol_bot.py")`` (``proc:`` is a synonym;
``cmd:timeout=2:COMMAND`` sets the seconds allowed per move, default 5). A bot that
crashes, hangs past its time, or answers something that is not a legal action raises
:class:`~ninetynine.bots.base.BotFailure` with the reason.
"""

from __future__ import annotations

import json
import queue
import random
import re
import shlex
import subprocess
import threading
import time
from collections import deque
from typing import IO, Any

from ninetynine.bots.base import BotFailure
from ninetynine.engine.actions import Action, parse_action
from ninetynine.engine.events import event_to_json
from ninetynine.engine.view import View
from ninetynine.errors import NinetyNineError, NotationError
from ninetynine.rules.cards import RANKS, format_card, format_cards
from ninetynine.rules.effects import format_effect
from ninetynine.rules.settings import Teams

PROTOCOL_VERSION = 1
DEFAULT_TIMEOUT = 5.0
START_GRACE = 0.5  # seconds a program started ahead of a game must stay up to count as started
_TIMEOUT_PREFIX = re.compile(r"^timeout=([0-9]*\.?[0-9]+):")


def view_to_json(view: View, events_from: int = 0) -> dict[str, Any]:
    """The JSON form of a view (seats 1-based, cards as text); events from an index on."""
    rules = view.rules
    out = {
        "seat": view.seat + 1,
        "players": view.players,
        "rules": rules.id,
        "limit": rules.limit,
        # whether seats play in two sides (1, 3... against 2, 4...), and how (protocol 1's
        # bool kept for bots that read it)
        "teams": rules.teams is not Teams.NONE,
        "team_play": rules.teams.value,
        "effects": {RANKS[r]: format_effect(e) for r, e in enumerate(rules.cards)},
        "suit_effects": {format_card(c): format_effect(e) for c, e in rules.suit_cards},
        "phase": view.phase,
        "turn": None if view.turn is None else view.turn + 1,
        "total": view.total,
        "direction": "cw" if view.direction == 1 else "ccw",
        "dealer": view.dealer + 1,
        "hand_no": view.hand_no,
        "starter": view.starter + 1,
        "passes": view.passes,
        "owed": view.owed,
        "chain": view.chain,
        "plays_left": view.plays_left,
        "may_decline": view.may_decline,
        "next_turn": None if view.next_turn is None else view.next_turn + 1,
        "hand": [format_card(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "lives": list(view.lives),
        "alive": list(view.alive),
        "in_hand": list(view.in_hand),
        "points": list(view.points),
        "scores": list(view.scores),
        "pot": view.pot,
        "pile": format_cards(view.pile).split(),
        "out": format_cards(view.out).split(),
        "stock_size": view.stock_size,
        "unseen": format_cards(view.unseen()).split(),
        "events": [event_to_json(e) for e in view.history[events_from:]],
    }
    if view.challenger is not None:  # only while a challenge waits for its answer (KC)
        out["challenger"] = view.challenger + 1
    if any(view.known):  # cards a swap or a take showed this seat in other hands (CN99)
        out["known"] = [format_cards(cards).split() for cards in view.known]
    return out


class ProtocolBot:
    """A bot run as a subprocess; started at the first move, stopped by :meth:`close`."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        match = _TIMEOUT_PREFIX.match(command)
        if match:
            timeout, command = float(match.group(1)), command[match.end() :]
        elif command.startswith("timeout="):
            given = command[len("timeout=") :].partition(":")[0]
            raise NinetyNineError(
                f"cmd: timeout={given!r}: expected seconds, a number above "
                "0, then the command: cmd:timeout=2:python bot.py"
            )
        if timeout <= 0:
            raise NinetyNineError(f"cmd: timeout={timeout:g}: expected seconds, a number above 0")
        try:
            self.argv = shlex.split(command)
        except ValueError as e:
            raise NinetyNineError(f"bad bot command {command!r}: {e}") from None
        if not self.argv:
            raise NinetyNineError(
                "empty bot command: expected cmd:COMMAND, e.g. cmd:python examples/protocol_bot.py"
            )
        self.name = "cmd:" + command
        self.timeout = timeout
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: deque[str] = deque(maxlen=5)
        self.stderr_reader: threading.Thread | None = None
        self.sent = 0  # events of the history already sent

    def cap_time(self, seconds: float) -> None:
        """Wait at most ``seconds`` for each answer (a server's limit)."""
        self.timeout = min(self.timeout, seconds)

    def start(self) -> None:
        """Start the program now, rather than at the first move; a program that cannot
        start, or exits at once (a wrong path, a missing interpreter), raises BotFailure."""
        proc = self.proc or self._start()
        try:
            proc.wait(timeout=START_GRACE)
        except subprocess.TimeoutExpired:
            return  # still running: waiting for its first request, as it should
        raise BotFailure(self._crashed("as soon as it started, before its first move"))

    def _start(self) -> subprocess.Popen[str]:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise BotFailure(f"bot {self.name!r} could not start: {e.strerror or e}") from None
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_pump, args=(proc.stdout, self.lines.put), daemon=True).start()
        self.stderr_reader = threading.Thread(
            target=_pump, args=(proc.stderr, self._note_stderr), daemon=True
        )
        self.stderr_reader.start()
        self.proc = proc
        return proc

    def _note_stderr(self, line: str | None) -> None:
        if line is not None and line.strip():
            self.stderr.append(line.strip())

    def choose(self, view: View, rng: random.Random) -> Action:
        """The program's answer to one ``move`` request (the view, the events since the last
        request, the legal actions), starting the program if needed; a crash, no answer within
        ``timeout`` seconds or an answer that is not legal raises :class:`BotFailure`."""
        proc = self.proc or self._start()
        if self.sent > len(view.history):
            self.sent = 0  # a new game's history
        request = {
            "type": "move",
            "protocol": PROTOCOL_VERSION,
            "seed": rng.getrandbits(32),
            "view": view_to_json(view, self.sent),
            "legal": [str(a) for a in view.legal],
        }
        self.sent = len(view.history)
        try:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFailure(self._crashed("before it was asked to move")) from None
        deadline = time.monotonic() + self.timeout
        line: str | None = ""
        while line is not None and not line.strip():  # blank lines are ignored
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0))
            except queue.Empty:
                self.close()
                raise BotFailure(
                    f"bot {self.name!r} did not answer within {self.timeout:g} s"
                ) from None
        if line is None:
            raise BotFailure(self._crashed("instead of answering"))
        return self._parse(line, view)

    def _parse(self, line: str, view: View) -> Action:
        shown = line.strip()[:60]
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            raise BotFailure(
                f"bot {self.name!r} answered {shown!r}, which is not JSON; "
                'expected {"action": "KS"}'
            ) from None
        text = reply.get("action") if isinstance(reply, dict) else None
        if not isinstance(text, str):
            raise BotFailure(
                f"bot {self.name!r} answered {shown!r}; expected "
                '{"action": "<one of the legal actions>"}'
            )
        try:
            action = parse_action(text)
        except NotationError as e:
            raise BotFailure(f"bot {self.name!r} answered an unreadable action: {e}") from None
        if not isinstance(action, Action) or action not in view.legal:
            raise BotFailure(
                f"bot {self.name!r} answered {text!r}, which is not legal here; "
                f"legal: {', '.join(str(a) for a in view.legal)}"
            )
        return action

    def _crashed(self, when: str) -> str:
        code = self.proc.wait(timeout=1) if self.proc is not None else None
        if self.stderr_reader is not None:  # let it read what the bot wrote before exiting
            self.stderr_reader.join(timeout=1)
        last = f"; its last error line: {self.stderr[-1]}" if self.stderr else ""
        return f"bot {self.name!r} exited (code {code}) {when}{last}"

    def close(self) -> None:
        """Say goodbye and stop the process (killed if it does not exit within a second)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _pump(stream: IO[str], put: Any) -> None:
    """Forward a stream's lines, then None at its end (runs in a thread)."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):
        pass
    put(None)
