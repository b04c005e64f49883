"""Unsubscribe links: ``/u/TOKEN`` turns one channel of one account's "your turn" off
without signing in. The token is the account id and the channel, signed with a key every
process shares (stored once in the database), so it cannot be made for another account."""

from __future__ import annotations

import base64
import hashlib
import hmac

from ninetynine.web.turns.store import Channel

MAX_TOKEN = 200  # characters of a token as sent


def _mac(key: str, account_id: str, channel: Channel) -> str:
    digest = hmac.new(key.encode(), f"{account_id}/{channel}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def unsubscribe_token(key: str, account_id: str, channel: Channel) -> str:
    """The token of the link that turns ``channel`` off for the account."""
    account = base64.urlsafe_b64encode(account_id.encode()).decode().rstrip("=")
    return f"{account}.{channel}.{_mac(key, account_id, channel)}"


def read_token(key: str, token: str) -> tuple[str, Channel] | None:
    """The account id and channel a token was signed for, or None (mistyped, forged)."""
    if len(token) > MAX_TOKEN:
        return None
    parts = token.split(".")
    if len(parts) != 3:
        return None
    encoded, channel_text, mac = parts
    try:
        account_id = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
        channel = Channel(channel_text)
    except (ValueError, UnicodeDecodeError):
        return None
    if not hmac.compare_digest(mac, _mac(key, account_id, channel)):
        return None
    return account_id, channel
