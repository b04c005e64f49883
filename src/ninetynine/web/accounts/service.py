"""The account flows, within the server's limits: sign up (a name and a first passkey), add a
passkey, sign in (any passkey, no name asked), recover (the code shown once), sign a new
device in by a link from a signed-in one, sign out and delete. The routes
(:mod:`ninetynine.web.routes.accounts`) read the bodies and the cookie.

What a stranger can learn: a name is taken (sign-up must say so; names are shown at tables
anyway, and sign-ups are rate limited); nothing else. Sign-in options name no account, and a
refused sign-in or recovery reads the same whatever the reason. A session is a random id,
made anew at every sign-in (the one the browser had ends), stored as its hash, read from the
database on every request, so sign-out and deletion end it on every process at once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ninetynine.web.accounts import passkeys as pk
from ninetynine.web.accounts.store import Account, AccountStore, Ceremony, Passkey
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.limits import Buckets
from ninetynine.web.settings import Settings
from ninetynine.web.storage import DuplicateMoveError, Storage
from ninetynine.web.table.seating import MAX_NAME

SESSION_COOKIE = "nn_session"
MAX_CODE = 80  # characters of a recovery code as typed (with dashes and spaces)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A sign-in (or sign-up, or recovery): the account, the new session's id (the cookie's
    value) and, after a sign-up or a recovery, the recovery code to show once."""

    account: Account
    session: str
    recovery_code: str | None = None


def _refused() -> ProtocolError:
    # one answer for an unknown passkey, a bad signature, another account's handle
    return ProtocolError(
        ErrorCode.SIGN_IN_FAILED,
        "sign-in refused: this passkey opens no account here, or its answer did not verify; "
        "try another passkey, or recover the account with its recovery code",
    )


def _not_signed_in() -> ProtocolError:
    return ProtocolError(
        ErrorCode.NOT_SIGNED_IN,
        "not signed in (or the session has ended): sign in with a passkey first",
    )


class Accounts:
    """The accounts of one server process (the rows are shared by every process, the rate
    limits are this process's own)."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage, self.settings = storage, settings
        self.store = AccountStore(storage)
        limits = settings.limits
        self.limits = limits
        self.sign_ups = Buckets(limits.sign_ups_per_hour / 3600, limits.sign_up_burst)
        self.sign_ins = Buckets(limits.sign_ins_per_minute / 60, limits.sign_in_burst)

    # helpers ------------------------------------------------------------------------------

    def _now(self) -> float:
        return self.settings.wall()

    @property
    def _timeout_ms(self) -> int:
        return int(self.limits.challenge_seconds * 1000)

    def _rate(self, buckets: Buckets, where: str, limit: str, what: str) -> None:
        if not buckets.take(where):
            raise LimitError(
                limit,
                f"too many {what} from your address: wait a few minutes and try again",
                code=ErrorCode.RATE_LIMITED,
            )

    async def _challenge(self, challenge: bytes, kind: Ceremony, data: dict[str, Any]) -> None:
        now = self._now()
        await self.storage.call(
            self.store.put_challenge,
            pk.digest(challenge),
            kind,
            data,
            now + self.limits.challenge_seconds,
            now,
        )

    async def _take(
        self, answer: object, kind: Ceremony
    ) -> tuple[dict[str, Any], bytes, dict[str, Any]]:
        credential, challenge = pk.challenge_of(answer)
        data = await self.storage.call(
            self.store.take_challenge, pk.digest(challenge), kind, self._now()
        )
        if data is None:
            what = "sign-up" if kind is Ceremony.REGISTER else "sign-in"
            raise ProtocolError(
                ErrorCode.BAD_CHALLENGE,
                f"this answer is to no live {what} "
                f"challenge (each is used once, within {self.limits.challenge_seconds:g} "
                "seconds): ask for new options",
            )
        return credential, challenge, data

    async def _session(self, account: Account, old: str | None) -> str:
        session = secrets.token_urlsafe(32)
        now = self._now()
        await self.storage.call(
            self.store.start_session,
            pk.digest(session),
            account.id,
            now + self.limits.session_days * 86400,
            pk.digest(old) if old else None,
            now,
        )
        return session

    async def current(self, cookie: str | None) -> Account | None:
        """The account a session cookie is signed in to, or None (a guest, an ended session)."""
        if not cookie or len(cookie) > 100:
            return None
        return await self.storage.call(self.store.session_account, pk.digest(cookie), self._now())

    async def require(self, cookie: str | None) -> Account:
        """The signed-in account, or ``not_signed_in``."""
        account = await self.current(cookie)
        if account is None:
            raise _not_signed_in()
        return account

    def _check_passkeys(self, count: int) -> None:
        if count >= self.limits.passkeys_per_account:
            raise LimitError(
                "passkeys_per_account",
                f"this account has {count} passkeys already: remove one first",
            )

    # sign-up, and one more passkey ----------------------------------------------------------

    async def register_options(
        self, party: pk.Party, where: str, cookie: str | None, name: object
    ) -> dict[str, Any]:
        """Options for a new passkey: a new account's first (``name`` given, signed out) or one
        more of the signed-in account's (no ``name``)."""
        account = await self.current(cookie)
        if account is not None:
            if name is not None:
                raise ProtocolError(
                    ErrorCode.SIGNED_IN,
                    f"signed in as {account.name!r}: leave out the name to add a passkey to "
                    "this account, or sign out to create another",
                )
            ids = await self.storage.call(self.store.passkey_ids, account.id)
            self._check_passkeys(len(ids))
            options, challenge = pk.registration_options(
                party, account.name, pk.unb64(account.user_handle), ids, self._timeout_ms
            )
            await self._challenge(challenge, Ceremony.REGISTER, {"account": account.id})
            return options
        self._rate(self.sign_ups, where, "sign_ups_per_hour", "sign-ups")
        clean = name.strip() if isinstance(name, str) else ""
        if not clean or len(clean) > MAX_NAME or not clean.isprintable():
            raise ProtocolError(
                ErrorCode.BAD_NAME,
                f"name {str(name)[:40]!r}: expected the new account's name, 1 to {MAX_NAME} "
                "printable characters",
            )
        await self._check_room()
        if await self.storage.call(self.store.name_taken, pk.name_key(clean)):
            raise self._taken(clean)
        handle = secrets.token_bytes(16)
        options, challenge = pk.registration_options(party, clean, handle, [], self._timeout_ms)
        await self._challenge(
            challenge, Ceremony.REGISTER, {"name": clean, "handle": pk.b64(handle)}
        )
        return options

    async def _check_room(self) -> None:
        if await self.storage.call(self.store.count) >= self.limits.max_accounts:
            raise LimitError(
                "max_accounts", "this server has as many accounts as it takes: ask its operator"
            )

    @staticmethod
    def _taken(name: str) -> ProtocolError:
        return ProtocolError(
            ErrorCode.NAME_TAKEN, f"the name {name!r} is taken: choose another for the account"
        )

    async def register_verify(
        self, party: pk.Party, cookie: str | None, answer: object
    ) -> SignedIn | Account:
        """Stores a new passkey the library has verified: a new account (signed in, with its
        recovery code) or the signed-in account's next passkey (the account)."""
        credential, challenge, data = await self._take(answer, Ceremony.REGISTER)
        pid, key, count = pk.verify_registration(party, credential, challenge)
        now = self._now()
        if "account" in data:
            account = await self.current(cookie)
            if account is None or account.id != data["account"]:
                raise _not_signed_in()
            self._check_passkeys(account.passkeys)
            try:
                await self.storage.call(
                    self.store.add_passkey, Passkey(pid, account.id, key, count), now
                )
            except DuplicateMoveError:
                raise self._registered() from None
            found = await self.storage.call(self.store.by_id, account.id)
            return found or account
        await self._check_room()
        name = str(data["name"])
        account = Account(secrets.token_urlsafe(12), name, str(data["handle"]), now, 1)
        code, session = pk.new_recovery_code(), secrets.token_urlsafe(32)
        try:
            await self.storage.call(
                self.store.create,
                account,
                pk.name_key(name),
                pk.recovery_digest(code),
                Passkey(pid, account.id, key, count),
                pk.digest(session),
                now + self.limits.session_days * 86400,
                pk.digest(cookie) if cookie else None,
            )
        except DuplicateMoveError:
            if await self.storage.call(self.store.name_taken, pk.name_key(name)):
                raise self._taken(name) from None
            raise self._registered() from None
        return SignedIn(account, session, code)

    @staticmethod
    def _registered() -> ProtocolError:
        return ProtocolError(
            ErrorCode.BAD_PASSKEY, "this passkey is registered here already: sign in with it"
        )

    # sign-in ------------------------------------------------------------------------------

    async def sign_in_options(self, party: pk.Party, where: str) -> dict[str, Any]:
        """Options for signing in with any passkey of this server (they name no account)."""
        self._rate(self.sign_ins, where, "sign_ins_per_minute", "sign-ins")
        options, challenge = pk.authentication_options(party, self._timeout_ms)
        await self._challenge(challenge, Ceremony.SIGN_IN, {})
        return options

    async def sign_in_verify(self, party: pk.Party, cookie: str | None, answer: object) -> SignedIn:
        """A new session for the account whose passkey signed the challenge. A counter that did
        not move up (where the authenticator counts) is refused: a cloned passkey, or a
        signature used again."""
        credential, challenge, _ = await self._take(answer, Ceremony.SIGN_IN)
        passkey = await self.storage.call(self.store.passkey, pk.credential_id(credential))
        try:
            key = passkey.public_key if passkey else pk.STAND_IN_KEY
            count = pk.verify_authentication(party, credential, challenge, key)
        except ValueError:
            raise _refused() from None
        if passkey is None:  # it cannot verify against the stand-in: no one has its key
            raise _refused()
        account = await self.storage.call(self.store.by_id, passkey.account)
        response = credential.get("response")
        handle = response.get("userHandle") if isinstance(response, dict) else None
        if account is None or handle not in (None, "", account.user_handle):
            raise _refused()
        counts = count > 0 or passkey.sign_count > 0
        if (counts and count <= passkey.sign_count) or not await self.storage.call(
            self.store.advance, passkey.id, passkey.sign_count, count
        ):
            raise ProtocolError(
                ErrorCode.SIGN_COUNT,
                f"sign-in refused: this passkey's counter ({count}) did not move past the last "
                f"one seen ({passkey.sign_count}), as a copied passkey's or a replayed "
                "answer's would not; sign in with another passkey",
            )
        return SignedIn(account, await self._session(account, cookie))

    async def recover(self, cookie: str | None, where: str, code: object) -> SignedIn:
        """Signs in with the recovery code, which is spent: a new one is made, to show once."""
        self._rate(self.sign_ins, where, "sign_ins_per_minute", "sign-ins")
        if not isinstance(code, str) or not code.strip() or len(code) > MAX_CODE:
            raise ProtocolError(
                ErrorCode.MALFORMED,
                "code: expected the account's recovery code (ABCD-EFGH-..., as it was shown)",
            )
        new = pk.new_recovery_code()
        found = await self.storage.call(
            self.store.recover, pk.recovery_digest(code), pk.recovery_digest(new)
        )
        account = await self.storage.call(self.store.by_id, found) if found else None
        if account is None:
            raise ProtocolError(
                ErrorCode.BAD_RECOVERY,
                "that recovery code opens no account: each code works once, and the newest "
                "one is the one shown last",
            )
        return SignedIn(account, await self._session(account, cookie), new)

    # a new device, by a link from a signed-in one ---------------------------------------

    async def make_link(self, cookie: str | None) -> str:
        """A one-time token that signs a new device in to the signed-in account, within
        ``link_seconds``; it is stored as its hash, like a challenge."""
        account = await self.require(cookie)
        token = secrets.token_urlsafe(32)
        now = self._now()
        await self.storage.call(
            self.store.put_challenge,
            pk.digest(token),
            Ceremony.LINK,
            {"account": account.id},
            now + self.limits.link_seconds,
            now,
        )
        return token

    async def use_link(self, cookie: str | None, where: str, token: object) -> SignedIn:
        """Signs this device in with a link's token, which is spent; the device may then add a
        passkey of its own."""
        self._rate(self.sign_ins, where, "sign_ins_per_minute", "sign-ins")
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            raise ProtocolError(
                ErrorCode.MALFORMED, "token: expected the token of a sign-in link, as it was made"
            )
        data = await self.storage.call(
            self.store.take_challenge, pk.digest(token), Ceremony.LINK, self._now()
        )
        account = await self.storage.call(self.store.by_id, str(data["account"])) if data else None
        if account is None:
            raise ProtocolError(
                ErrorCode.BAD_CHALLENGE,
                f"this sign-in link is used or expired (each works once, within "
                f"{self.limits.link_seconds:g} seconds): make a new one on a signed-in device",
            )
        return SignedIn(account, await self._session(account, cookie))

    # the end --------------------------------------------------------------------------------

    async def sign_out(self, cookie: str | None) -> None:
        """Ends the session, on every process (a guest's sign-out does nothing)."""
        if cookie and len(cookie) <= 100:
            await self.storage.call(self.store.end_session, pk.digest(cookie))

    async def delete(self, cookie: str | None, confirm: object) -> None:
        """Deletes the signed-in account with its passkeys and sessions; ``confirm`` must be its
        name."""
        account = await self.require(cookie)
        if confirm != account.name:
            raise ProtocolError(
                ErrorCode.MALFORMED,
                f"confirm: expected the account's name, {account.name!r}, to delete it and "
                "everything of it",
            )
        await self.storage.call(self.store.delete, account.id)
