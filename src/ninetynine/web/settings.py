"""How one server runs: its database, timings, the bots it offers, who it answers, its limits.

Everything here is chosen by whoever runs the server (``ninetynine serve`` flags), never
by a request. In particular a client names a bot only by a level offered here
(``easy``, ``medium``, ``hard``, and what ``serve --allow-bot NAME=SPEC`` adds); the spec
behind a name, which may start a program (``cmd:``), comes from the command line alone.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ninetynine.bots import DIFFICULTIES, close_bot, make_bot
from ninetynine.errors import NinetyNineError
from ninetynine.web.guard import HostPolicy
from ninetynine.web.limits import Limits

BOT_NAME = re.compile(r"^[a-z][a-z0-9-]{0,19}$")


@dataclass(frozen=True)
class Smtp:
    """The operator's mail server for "your turn" e-mails (``serve --smtp-host`` and the
    options after it): where, the sender's address, STARTTLS, and an optional login."""

    host: str
    port: int = 25
    sender: str = "ninetynine@localhost"
    starttls: bool = False
    user: str | None = None
    password: str | None = None
    timeout: float = 10.0  # seconds one message may take to hand over


@dataclass
class Settings:
    """How one server runs, as ``ninetynine serve``'s flags set it: the database, the grace period,
    the bots' delay and the clocks' tick (in seconds), the takeover level, the bots offered (level
    -> spec), the limits, the hosts and origins it answers, whether its cookies are Secure;
    ``clock``, ``wall`` and ``seed`` are for tests."""

    database: str = "web.sqlite3"
    grace: float = 30.0  # seconds a disconnected player keeps their seat before a bot plays
    bot_delay: float = 0.6  # seconds a bot waits before playing, so people can follow
    tick: float = 0.25  # how often the clocks are checked (real seconds)
    takeover_bot: str = "easy"  # the level that plays for absent or timed-out players
    bots: dict[str, str] = field(default_factory=lambda: dict(DIFFICULTIES))  # level -> spec
    limits: Limits = field(default_factory=Limits)
    hosts: HostPolicy = field(default_factory=lambda: HostPolicy.serving("127.0.0.1"))
    origins: tuple[str, ...] = ()  # other page origins allowed to play here
    # The session cookie is Secure (sent over https only), which a browser on plain http keeps
    # for localhost alone; serve --insecure-cookies turns it off for a server on plain http
    # (a LAN, tests on 127.0.0.1), where a session may then be read on the way.
    secure_cookies: bool = True
    # "your turn" at turn-based tables (ninetynine.web.turns): the address their links
    # start with, the SMTP server that sends the e-mails (none: no e-mail is sent), and
    # whether a club's webhook may post to a loopback or private address (tests, a LAN)
    public_url: str = ""  # e.g. https://cards.example.org (serve --public-url)
    smtp: Smtp | None = None
    private_webhooks: bool = False
    clock: Callable[[], float] = time.monotonic  # injectable for tests
    wall: Callable[[], float] = time.time  # expiries stored for every process; for tests
    seed: int | None = None  # tests only: reproducible chance; never sent to anyone

    def check(self) -> None:
        """One line naming the first bad setting; every offered bot is built once to see."""
        for name, spec in self.bots.items():
            if not BOT_NAME.match(name):
                raise NinetyNineError(
                    f"--allow-bot {name}={spec}: a name is 1 to 20 lower-case "
                    "letters, digits or '-', starting with a letter"
                )
            close_bot(make_bot(spec))
        if self.takeover_bot not in self.bots:
            raise NinetyNineError(
                f"--takeover-bot {self.takeover_bot!r}: expected one of the "
                f"bots offered here: {', '.join(self.bots)}"
            )


def parse_allowed_bots(pairs: list[str]) -> dict[str, str]:
    """``serve --allow-bot NAME=SPEC`` (repeatable) on top of the three levels."""
    bots = dict(DIFFICULTIES)
    for pair in pairs:
        name, eq, spec = pair.partition("=")
        if not eq or not spec.strip():
            raise NinetyNineError(
                f"--allow-bot {pair!r}: expected NAME=SPEC, e.g. "
                "--allow-bot mine='cmd:python my_bot.py' or "
                "--allow-bot hard=ismcts:ms=800"
            )
        bots[name.strip()] = spec.strip()
    return bots
