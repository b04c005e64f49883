"""How a "your turn" leaves the server: an e-mail over the operator's SMTP server
(:mod:`smtplib`, on a thread, with a timeout) and a JSON POST to a club's webhook (the
``{"content": ..., "text": ...}`` body Discord and Slack both accept, with :mod:`httpx`,
with a timeout and no redirects). A webhook may only point to a public http(s) address:
loopback, private, link-local and reserved addresses are refused (the server must not be
made to post into its own network) unless the operator allows them
(``serve --allow-private-webhooks``). The check is made when the URL is set and again
before each post."""

from __future__ import annotations

import asyncio
import ipaddress
import re
import smtplib
import ssl
from email.message import EmailMessage
from email.policy import SMTP
from urllib.parse import urlsplit

import httpx

from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.settings import Smtp

MAX_URL = 500
MAX_EMAIL = 254
WEBHOOK_SECONDS = 5.0
EMAIL = re.compile(r"^[^@\s<>(),;:\"\[\]\\]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")


def clean_email(text: object) -> str | None:
    """An e-mail address as given (``""`` or None: none); ``bad_email`` unless it looks like
    one (a local part, ``@``, a domain)."""
    if text is None or text == "":
        return None
    if not isinstance(text, str) or len(text.strip()) > MAX_EMAIL or not EMAIL.match(text.strip()):
        raise ProtocolError(
            ErrorCode.BAD_EMAIL,
            f"email {str(text)[:60]!r}: expected an address such as ann@example.org "
            f'(at most {MAX_EMAIL} characters), or "" for none',
        )
    return text.strip()


def _webhook_error(url: str, why: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_WEBHOOK, f"webhook {url[:80]!r}: {why}")


async def check_webhook(url: object, private_ok: bool) -> str:
    """A webhook URL the server may post to: http(s), with a host whose every address is
    public (or any, with ``private_ok``); else ``bad_webhook`` naming why."""
    if not isinstance(url, str) or not url.strip() or len(url.strip()) > MAX_URL:
        raise _webhook_error(str(url), f"expected an http(s) URL of at most {MAX_URL} characters")
    url = url.strip()
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise _webhook_error(url, "not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _webhook_error(url, "expected an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise _webhook_error(url, "a URL with a user name or password is not accepted")
    if private_ok:
        return url
    try:
        found = await asyncio.get_running_loop().getaddrinfo(parts.hostname, port)
    except (OSError, UnicodeError):
        raise _webhook_error(url, f"its host {parts.hostname[:60]!r} is not found") from None
    for *_, address in found:
        ip = ipaddress.ip_address(str(address[0]).split("%")[0])
        if not ip.is_global or ip.is_multicast:
            raise _webhook_error(
                url,
                f"{ip} is a loopback, private or reserved address: the server posts to "
                "public addresses only",
            )
    return url


async def post_webhook(url: str, text: str, private_ok: bool) -> None:
    """Posts ``text`` to a webhook (checked again first); raises on a refusal or an error."""
    await check_webhook(url, private_ok)
    async with httpx.AsyncClient(timeout=WEBHOOK_SECONDS, follow_redirects=False) as client:
        res = await client.post(url, json={"content": text, "text": text})
        res.raise_for_status()


def send_email(smtp: Smtp, to: str, subject: str, body: str, unsubscribe: str) -> None:
    """Hands one e-mail to the operator's SMTP server (blocking: run it on a thread)."""
    message = EmailMessage(policy=SMTP.clone(max_line_length=998))  # a link unfolded
    message["From"], message["To"], message["Subject"] = smtp.sender, to, subject
    message["List-Unsubscribe"] = f"<{unsubscribe}>"  # a POST there unsubscribes (RFC 8058)
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(body)
    with smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout) as server:
        if smtp.starttls:
            server.starttls(context=ssl.create_default_context())
        if smtp.user:
            server.login(smtp.user, smtp.password or "")
        server.send_message(message)
