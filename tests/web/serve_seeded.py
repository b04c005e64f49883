"""A test server in its own process with reproducible shuffles (``Settings.seed``), which
``ninetynine serve`` never offers: ``python -m tests.web.serve_seeded PORT DATABASE SEED``."""

from __future__ import annotations

import sys

import uvicorn

from ninetynine.web.app import create_app
from ninetynine.web.hangup import uvicorn_options
from ninetynine.web.settings import Settings
from tests.web.conftest import ROOMY


def main() -> None:
    port, database, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    settings = Settings(database=database, bot_delay=0, seed=seed, limits=ROOMY)
    uvicorn.run(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        **uvicorn_options(settings.limits),
    )


if __name__ == "__main__":
    main()
