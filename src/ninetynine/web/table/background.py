"""Work a table starts and does not wait for (database writes, notifications to the other
processes): it runs on the event loop, and a failure is logged, never raised."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from ninetynine.web.errors import ProtocolError
from ninetynine.web.storage import StorageError

logger = logging.getLogger("ninetynine.web")


def later(table_id: str, work: Awaitable[Any], what: str) -> None:
    """Run ``work`` in the background; a failure is logged with the table and ``what``."""

    async def run() -> None:
        try:
            await work
        except (StorageError, ProtocolError) as e:
            logger.warning("table %s: %s: %s", table_id, what, e)

    asyncio.get_running_loop().create_task(run())
