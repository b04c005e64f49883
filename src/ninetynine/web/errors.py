"""The server's refusals: a typed code for programs, one line of text for people.

A move the rules refuse has the engine's own cause as its code
(:class:`ninetynine.errors.Refusal`: ``over_limit``, ``below_zero``, ``opening_ban``,
``not_in_hand``, ``choice_required``, ...) and the moves allowed instead under ``legal``.
"""

from __future__ import annotations

from typing import Any

from ninetynine.errors import NinetyNineError

# The HTTP status of each code that is not a plain bad request (400).
STATUS = {
    "no_table": 404,
    "table_full": 409,
    "not_finished": 409,
    "forbidden_origin": 403,
    "bad_host": 400,
    "unsupported_media_type": 415,
    "too_large": 413,
    "rate_limited": 429,
    "too_many_tables": 429,
    "too_many_connections": 429,
    "crowded": 429,
    "busy": 429,
    "server": 503,
    "work_timeout": 503,
    "work_memory": 503,
}


class ProtocolError(NinetyNineError):
    """A client request or message that was refused; ``code`` says why (stale, illegal, ...)."""

    def __init__(self, code: str, message: str, *, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.legal = legal  # a refused move: the moves allowed instead

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 400)

    def details(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.legal is not None:
            out["legal"] = self.legal
        return out

    def json(self) -> dict[str, Any]:
        """The WebSocket frame."""
        return {"type": "error", **self.details()}

    def http_json(self) -> dict[str, Any]:
        """The body of an HTTP error response."""
        return {"error": str(self), **self.details()}


class LimitError(ProtocolError):
    """A request over one of the server's limits (:mod:`ninetynine.web.limits`); ``limit``
    names the setting, so the operator knows which ``serve --limit`` to look at."""

    def __init__(self, limit: str, message: str, code: str = "limit") -> None:
        super().__init__(code, f"{message} (server limit {limit})")
        self.limit = limit

    def details(self) -> dict[str, Any]:
        return {**super().details(), "limit": self.limit}
