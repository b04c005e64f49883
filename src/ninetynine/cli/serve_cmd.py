"""Start the web server: play in the browser with friends and bots.

Tables are kept in a SQLite file by default (nothing to install); ``--database
postgresql://user@host/db`` (or NINETYNINE_DATABASE) uses PostgreSQL instead. A killed
server resumes every table when started again with the same database."""

from __future__ import annotations

import argparse
import os

from ninetynine.errors import NinetyNineError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for a LAN)")
    parser.add_argument("--port", type=int, default=8099, help="port (default 8099)")
    parser.add_argument("--database", default=os.environ.get("NINETYNINE_DATABASE",
                                                             "ninetynine-web.sqlite3"),
                        help="a SQLite file or a postgresql:// URL "
                             "(default $NINETYNINE_DATABASE or ./ninetynine-web.sqlite3)")
    parser.add_argument("--grace", type=float, default=30.0,
                        help="seconds a disconnected player keeps their seat before a bot "
                             "plays for them (default 30)")
    parser.add_argument("--bot-delay", type=float, default=0.6,
                        help="seconds a bot waits before it plays (default 0.6)")
    parser.add_argument("--takeover-bot", default="easy",
                        help="the bot that plays for absent or timed-out players (default easy)")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ninetynine.bots import make_bot
    from ninetynine.web.app import create_app
    from ninetynine.web.storage import open_storage
    from ninetynine.web.tables import Settings

    if not 0 < args.port < 65536:
        raise NinetyNineError(f"--port {args.port}: expected 1 to 65535")
    if args.grace < 0 or args.bot_delay < 0:
        raise NinetyNineError("--grace and --bot-delay must be 0 or more seconds")
    make_bot(args.takeover_bot)  # an unknown bot is a one-line error before anything starts
    settings = Settings(database=args.database, grace=args.grace, bot_delay=args.bot_delay,
                        takeover_bot=args.takeover_bot)
    storage = open_storage(args.database)  # fail here, with one line, if it cannot open
    app = create_app(settings, storage)
    print(f"ninetynine: serving on http://{args.host}:{args.port}/ (database {args.database})",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536,
                ws_per_message_deflate=False)  # small frames: compression costs more CPU
    storage.close()
    return 0
