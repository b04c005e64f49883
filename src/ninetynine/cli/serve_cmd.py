"""Start the web server: play in the browser with friends and bots.

Tables are kept in a SQLite file by default (nothing to install); ``--database
postgresql://user@host/db`` (or NINETYNINE_DATABASE) uses PostgreSQL instead. A killed
server resumes every live table when started again with the same database.

Players choose bots by level (easy, medium, hard); what stands behind a level, and any
other bot (a program: ``cmd:...``), is set here and nowhere else. The server answers
only to its own host names and pages, and refuses requests over its limits (``--limits``
lists them; ``--limit NAME=VALUE`` changes one)."""

from __future__ import annotations

import argparse
import os
import socket

from ninetynine.cli.extras import require
from ninetynine.errors import NinetyNineError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine serve`` to ``parser``: where to listen, the database, the
    bots and their timing, the hosts and origins served, and the limits."""
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for a LAN)",
    )
    parser.add_argument("--port", type=int, default=8099, help="port (default 8099)")
    parser.add_argument(
        "--database",
        default=os.environ.get("NINETYNINE_DATABASE"),
        help="a SQLite file or a postgresql:// URL (default "
        "$NINETYNINE_DATABASE, else web.sqlite3 in $NINETYNINE_HOME, "
        "~/.local/share/ninetynine by default)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=30.0,
        help="seconds a disconnected player keeps their seat before a bot "
        "plays for them (default 30)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before it plays (default 0.6)",
    )
    parser.add_argument(
        "--allow-bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer a bot to players under NAME, or change what a level "
        "plays (e.g. hard=ismcts:ms=800, mine='cmd:python bot.py'); "
        "repeatable",
    )
    parser.add_argument(
        "--takeover-bot",
        default="easy",
        metavar="NAME",
        help="the bot that plays for absent or timed-out players: one of "
        "the levels offered (default easy)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to besides the address it "
        "serves (e.g. the name of a reverse proxy); '*' for any; "
        "repeatable",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another page origin allowed to play here, e.g. https://cards.example.org; repeatable",
    )
    parser.add_argument(
        "--insecure-cookies",
        action="store_true",
        help="send the accounts' session cookie over plain http too (a LAN server without "
        "https); by default it is Secure, which browsers keep for https and localhost only",
    )
    parser.add_argument(
        "--public-url",
        default="",
        metavar="URL",
        help="the address players reach this server at, which the 'your turn' messages link "
        "to (default http://HOST:PORT)",
    )
    parser.add_argument(
        "--smtp-host",
        metavar="HOST",
        help="the SMTP server that sends the 'your turn' e-mails of turn-based tables "
        "(default: none, no e-mail is sent)",
    )
    parser.add_argument("--smtp-port", type=int, default=25, help="its port (default 25)")
    parser.add_argument(
        "--smtp-from",
        default="ninetynine@localhost",
        metavar="ADDRESS",
        help="the e-mails' sender (default ninetynine@localhost)",
    )
    parser.add_argument(
        "--smtp-starttls", action="store_true", help="switch to TLS (STARTTLS) before sending"
    )
    parser.add_argument(
        "--smtp-user",
        metavar="NAME",
        help="log in to the SMTP server as NAME, with the password in $NINETYNINE_SMTP_PASSWORD",
    )
    parser.add_argument(
        "--allow-private-webhooks",
        action="store_true",
        help="let a club's webhook post to loopback and private addresses (a LAN); by "
        "default only public addresses are accepted",
    )
    parser.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one of the server's limits; repeatable (see --limits)",
    )
    parser.add_argument(
        "--limits", action="store_true", help="list the limits with their defaults and exit"
    )


def check_listen(host: str, port: int) -> None:
    """Fail with one line if the server could not listen on ``host``:``port``."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as e:
        raise NinetyNineError(
            f"--host {host}: not an address or a host name known here "
            f"({getattr(e, 'strerror', None) or e})"
        ) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as e:
            raise NinetyNineError(
                f"--host {host} --port {port}: cannot listen there: "
                f"{e.strerror or e} (expected an address of this machine, "
                "e.g. 127.0.0.1 or 0.0.0.0, and a free port)"
            ) from None


def run(args: argparse.Namespace) -> int:
    """Serves the browser table until stopped (or, with ``--limits``, prints the limits).
    Returns 0; bad options, an address it cannot listen on or a database it cannot open
    raise :class:`NinetyNineError` before it starts."""
    require("web", "serve", "the browser table")
    if (args.database or "").startswith(("postgresql://", "postgres://")):
        require("postgres", "serve", "a PostgreSQL database")
    from ninetynine.launch import home
    from ninetynine.web.guard import HostPolicy
    from ninetynine.web.limits import Limits
    from ninetynine.web.settings import Settings, Smtp, parse_allowed_bots

    limits = Limits().replace(args.limit)
    database = args.database or str(home() / "web.sqlite3")
    if args.limits:
        for name, value, text in limits.describe():
            print(f"{name:24} {value:>8}  {text}")
        return 0
    if not 0 < args.port < 65536:
        raise NinetyNineError(f"--port {args.port}: expected 1 to 65535")
    if args.grace < 0 or args.bot_delay < 0:
        raise NinetyNineError("--grace and --bot-delay must be 0 or more seconds")
    if not 0 < args.smtp_port < 65536:
        raise NinetyNineError(f"--smtp-port {args.smtp_port}: expected 1 to 65535")
    public_url = args.public_url or f"http://{args.host}:{args.port}"
    if not public_url.startswith(("http://", "https://")):
        raise NinetyNineError(f"--public-url {public_url!r}: expected http://... or https://...")
    smtp = None
    if args.smtp_host:
        smtp = Smtp(
            args.smtp_host,
            args.smtp_port,
            args.smtp_from,
            starttls=args.smtp_starttls,
            user=args.smtp_user,
            password=os.environ.get("NINETYNINE_SMTP_PASSWORD"),
        )
    settings = Settings(
        database=database,
        grace=args.grace,
        bot_delay=args.bot_delay,
        takeover_bot=args.takeover_bot,
        bots=parse_allowed_bots(args.allow_bot),
        limits=limits,
        hosts=HostPolicy.serving(args.host, args.allowed_host),
        origins=tuple(args.allowed_origin),
        secure_cookies=not args.insecure_cookies,
        public_url=public_url,
        smtp=smtp,
        private_webhooks=args.allow_private_webhooks,
    )
    settings.check()  # a bad bot or level is a one-line error before anything starts
    check_listen(args.host, args.port)  # (uvicorn's own report is a log and exit 3)

    import uvicorn

    from ninetynine.web.app import create_app
    from ninetynine.web.hangup import uvicorn_options
    from ninetynine.web.storage import open_storage

    storage = open_storage(database)  # fail here, with one line, if it cannot open
    app = create_app(settings, storage)
    print(
        f"ninetynine: serving on http://{args.host}:{args.port}/ (database {database})", flush=True
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **uvicorn_options(limits))
    storage.close()
    return 0
