"""A software authenticator (an ES256 key, "none" attestation, clientDataJSON and
authenticatorData built by hand) and a browser-like device (its own cookie jar, this server's
Origin), so the account tests go through the real ``webauthn`` verification."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from typing import Any

import cbor2
import httpx
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """One passkey: a P-256 key and its id; ``counting`` authenticators raise their counter at
    every signature (a platform passkey synced between devices keeps it at 0)."""

    def __init__(self, counting: bool = True) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = secrets.token_bytes(16)
        self.counting = counting
        self.count = 0
        self.user_handle = ""

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    @staticmethod
    def _client(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()

    def create(self, options: dict[str, Any], origin: str) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create({publicKey})``."""
        public_key = options["publicKey"]
        self.user_handle = public_key["user"]["id"]
        client = self._client("webauthn.create", public_key["challenge"], origin)
        auth = (
            hashlib.sha256(public_key["rp"]["id"].encode()).digest()
            + bytes([0x45])  # user present, verified, attested credential data
            + struct.pack(">I", self.count)
            + bytes(16)  # AAGUID
            + struct.pack(">H", len(self.id))
            + self.id
            + self._cose()
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        return {
            "id": b64(self.id),
            "rawId": b64(self.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self, options: dict[str, Any], origin: str, *, count: int | None = None
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get({publicKey})`` (``count``: sign with this
        counter instead of the next one, as a cloned passkey would)."""
        public_key = options["publicKey"]
        if count is None:
            self.count += 1 if self.counting else 0
            count = self.count
        client = self._client("webauthn.get", public_key["challenge"], origin)
        auth = (
            hashlib.sha256(public_key["rpId"].encode()).digest()
            + bytes([0x05])  # user present and verified
            + struct.pack(">I", count)
        )
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.id),
            "rawId": b64(self.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "authenticatorData": b64(auth),
                "signature": b64(signature),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }


class Device:
    """A browser: its own cookie jar, this server's Origin on every request."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        self.origin = url if origin is None else origin
        headers = {"Origin": self.origin} if self.origin else {}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=5)

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post("/api/account/" + path, json=body or {})

    def ok(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        res = self.post(path, body)
        assert res.status_code == 200, res.text
        return res.json()  # type: ignore[no-any-return]

    def me(self) -> dict[str, Any] | None:
        res = self.http.get("/api/account/me")
        assert res.status_code == 200, res.text
        return res.json()["account"]  # type: ignore[no-any-return]

    def sign_up(self, name: str, key: Authenticator) -> dict[str, Any]:
        """A new account with ``key`` as its passkey: the answer (account, recovery code)."""
        options = self.ok("register/options", {"name": name})
        return self.ok("register/verify", {"credential": key.create(options, self.origin)})

    def add_passkey(self, key: Authenticator) -> dict[str, Any]:
        options = self.ok("register/options")
        return self.ok("register/verify", {"credential": key.create(options, self.origin)})

    def sign_in_answer(self, key: Authenticator, **kw: Any) -> dict[str, Any]:
        return key.get(self.ok("signin/options"), self.origin, **kw)

    def sign_in(self, key: Authenticator, **kw: Any) -> httpx.Response:
        return self.post("signin/verify", {"credential": self.sign_in_answer(key, **kw)})

    def plant(self, session: str) -> None:
        """Sets the session cookie as the server would (a stolen or planted one)."""
        self.http.cookies.set("nn_session", session, domain="127.0.0.1")

    @property
    def session(self) -> str | None:
        return self.http.cookies.get("nn_session")

    def close(self) -> None:
        self.http.close()


def refused(res: httpx.Response, status: int, code: str) -> str:
    """The message of a refusal with this status and error code: one line, as the server's
    errors are."""
    assert res.status_code == status, res.text
    body = res.json()
    assert body["code"] == code and body["error"] == body["message"], body
    assert "\n" not in body["message"]
    return str(body["message"])
