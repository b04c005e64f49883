"""The server's front door, in front of every route: who may ask, and how much.

- **Host**: only the names this server is served under (DNS rebinding gives a foreign
  name for our address, so a page elsewhere could otherwise read and write our API).
- **Origin**: a state-changing request or a WebSocket from a browser must come from a
  page of this server; another site's page (cross-site request forgery) is refused.
- **JSON only** for the API's state-changing requests (a form or ``text/plain`` post,
  which browsers send cross-site without asking, is refused), bodies of bounded size.
- **Security headers** on every response: a content security policy that allows our own
  files only and no framing, no MIME sniffing, no referrer (an invite link is a secret).
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from ninetynine.web.catalogs import reader
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; media-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (k.encode(), v.encode())
    for k, v in (
        ("content-security-policy", CSP),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
        ("permissions-policy", "camera=(), microphone=(), geolocation=(), payment=()"),
    )
]
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def split_host(value: str) -> tuple[str, int | None]:
    """``"[::1]:8099"`` -> ``("::1", 8099)``; a name is lower-cased, without a final dot."""
    try:
        parts = urlsplit("//" + value.strip())
        name, port = parts.hostname or "", parts.port
    except ValueError:
        return "", None
    return name.rstrip("."), port


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class HostPolicy:
    """The host names requests may be addressed to."""

    names: frozenset[str]
    any_ip: bool = False  # serving on every interface: any address literal is ours
    any_name: bool = False  # "*": a proxy in front checks the Host itself

    @classmethod
    def serving(cls, address: str, extra: Iterable[str] = ()) -> HostPolicy:
        """The default for ``serve --host ADDRESS``, plus ``--allowed-host`` names."""
        names = {split_host(n)[0] or n.lower() for n in extra}
        any_name = "*" in names
        names |= LOOPBACK | {address.lower().strip("[]")}
        any_ip = address in ("0.0.0.0", "::", "")
        if any_ip:
            host = socket.gethostname().lower()
            names |= {host, f"{host}.local", socket.getfqdn().lower()}
        return cls(frozenset(names), any_ip=any_ip, any_name=any_name)

    def allows(self, header: str | None) -> bool:
        """Whether a ``Host`` header names this server: one of :attr:`names`, any address literal
        where it serves every interface, anything with ``*``. A request with no ``Host`` is refused,
        except with ``*``."""
        if self.any_name:
            return True
        if not header:
            return False
        name, _ = split_host(header)
        return name in self.names or (self.any_ip and _is_ip(name))


def same_origin(
    origin: str, host: str | None, allowed: frozenset[str], scheme: str = "http"
) -> bool:
    """Whether a browser's ``Origin`` is a page of this server (or explicitly allowed):
    the same scheme (the request's, as the ASGI scope has it: ``https`` behind a proxy
    that says so), host name and port."""
    origin = origin.strip().lower()
    if origin in allowed:
        return True
    if origin == "null" or not host:
        return False
    try:
        parts = urlsplit(origin)
        o_name, o_port = (parts.hostname or "").rstrip("."), parts.port
    except ValueError:
        return False
    if parts.scheme != {"ws": "http", "wss": "https"}.get(scheme, scheme):
        return False
    o_port = o_port or {"http": 80, "https": 443}.get(parts.scheme)
    h_name, h_port = split_host(host)
    # A Host without a port (behind a proxy) matches the origin's default port.
    return o_name == h_name and (h_port == o_port or h_port is None and o_port in (80, 443))


class Guard:
    """ASGI middleware that refuses what the rest of the server should never see."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: HostPolicy,
        max_body: int,
        origins: Iterable[str] = (),
        bodies: dict[str, tuple[int, str]] | None = None,
    ) -> None:
        self.app, self.hosts, self.max_body = app, hosts, max_body
        self.origins = frozenset(o.strip().lower().rstrip("/") for o in origins)
        self.bodies = bodies or {}  # path -> (its own size limit, that limit's name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            receive = await self.check(scope, headers, receive)
        except ProtocolError as e:
            return await self.refuse(scope, receive, send, e)
        if kind == "websocket":
            return await self.app(scope, receive, send)
        no_store = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    *message.get("headers", []),
                    *HEADERS,
                    *([(b"cache-control", b"no-store")] if no_store else []),
                ]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def check(self, scope: Scope, headers: dict[str, str], receive: Receive) -> Receive:
        """Raise for a refused request; return the receive channel the app should read."""
        host = headers.get("host")
        if not self.hosts.allows(host):
            raise ProtocolError(
                ErrorCode.BAD_HOST,
                f"this server does not answer to the host name "
                f"{(host or '')[:60]!r}: add it with serve --allowed-host",
            )
        changing = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        origin = headers.get("origin")
        if (
            changing
            and origin is not None
            and not same_origin(origin, host, self.origins, scope.get("scheme", "http"))
        ):
            raise ProtocolError(
                ErrorCode.FORBIDDEN_ORIGIN,
                f"requests from pages of {origin[:60]!r} "
                "are refused: play from this server's own page",
            )
        if scope["type"] == "websocket" or not changing:
            return receive
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        if scope["path"].startswith("/api/") and ctype != "application/json":
            raise ProtocolError(
                ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                f"content type {ctype[:40]!r}: the API accepts application/json only",
            )
        cap, name = self.bodies.get(scope["path"], (self.max_body, "max_body"))
        length = headers.get("content-length", "")
        if length and (not length.isdigit() or int(length) > cap):
            raise LimitError(
                name,
                f"a request body of {length[:20]} bytes: at most {cap}",
                code=ErrorCode.TOO_LARGE,
            )
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > cap:
                raise LimitError(name, f"a request body over {cap} bytes", code=ErrorCode.TOO_LARGE)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        return replay

    async def refuse(
        self, scope: Scope, receive: Receive, send: Send, error: ProtocolError
    ) -> None:
        """Answers a refused request with ``error`` as a JSON body with the security headers; a
        WebSocket gets that answer to its handshake where the server can send one, else a close with
        code 1008."""
        body = json.dumps(error.http_json(reader(HTTPConnection(scope)))).encode()
        start = {
            "status": error.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
        if scope["type"] == "http":
            await send({"type": "http.response.start", **start})
            await send({"type": "http.response.body", "body": body})
            return
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            await send({"type": "websocket.http.response.start", **start})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})
