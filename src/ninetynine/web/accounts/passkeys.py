"""The WebAuthn ceremonies, through the ``webauthn`` library, and the recovery codes.

The relying party is the server as the browser reached it: its origin (scheme, host and port
of the request, whose ``Host`` the guard has checked) and, as its id, that host's name.
Passkeys are discoverable (``residentKey: required``), so signing in asks for no name and the
options name no account. Attestation is not asked for (``none``): a passkey is trusted for
what it signs, not for its maker.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import options_to_json_dict
from webauthn.helpers.encode_cbor import encode_cbor
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ninetynine.web.errors import ErrorCode, ProtocolError
from ninetynine.web.guard import split_host

RP_NAME = "Ninety-Nine"
RECOVERY_BYTES = 20  # 160 bits: 32 base32 letters, shown in groups of four


@dataclass(frozen=True, slots=True)
class Party:
    """The relying party: the page's origin (``https://99.example``) and its id (the host's
    name)."""

    origin: str
    id: str

    @classmethod
    def of(cls, scheme: str, host: str) -> Party:
        """The party of a request to ``host`` (a ``Host`` header) over ``scheme``; a default
        port is left out, as a browser's ``Origin`` leaves it out."""
        name, port = split_host(host)
        shown = f"[{name}]" if ":" in name else name
        if port is not None and port != {"http": 80, "https": 443}.get(scheme):
            shown += f":{port}"
        return cls(f"{scheme}://{shown}", name)


def b64(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON writes bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    """The bytes of base64url text (padding optional); ValueError for anything else."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def digest(secret: str | bytes) -> str:
    """The SHA-256 (hex) under which a secret is stored."""
    return hashlib.sha256(secret.encode() if isinstance(secret, str) else secret).hexdigest()


def name_key(name: str) -> str:
    """A name as it is compared for uniqueness: "ANN", "ann" and "Ａｎｎ" are one name."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def new_recovery_code() -> str:
    """A fresh recovery code: ``ABCD-EFGH-...``, eight groups of four letters and digits."""
    text = base64.b32encode(secrets.token_bytes(RECOVERY_BYTES)).decode("ascii")
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def recovery_digest(code: str) -> str:
    """The stored hash of a recovery code as typed: case, spaces and dashes do not matter."""
    return digest("".join(ch for ch in code.upper() if ch.isalnum()))


def _bad(code: ErrorCode, message: str) -> ProtocolError:
    return ProtocolError(code, message)


def challenge_of(credential: object) -> tuple[dict[str, Any], bytes]:
    """A browser's credential (``PublicKeyCredential.toJSON()``) and the challenge it answers,
    read from its ``response.clientDataJSON``; a credential of another shape is refused."""
    response = credential.get("response") if isinstance(credential, dict) else None
    data = response.get("clientDataJSON") if isinstance(response, dict) else None
    if isinstance(credential, dict) and isinstance(data, str):
        try:
            client = json.loads(unb64(data))
            challenge = client.get("challenge") if isinstance(client, dict) else None
            if isinstance(challenge, str):
                return credential, unb64(challenge)
        except (ValueError, binascii.Error):
            pass
    raise _bad(
        ErrorCode.MALFORMED,
        "credential: expected a WebAuthn credential as PublicKeyCredential.toJSON() gives it "
        "(with response.clientDataJSON)",
    )


def credential_id(credential: dict[str, Any]) -> str:
    """A credential's id (base64url), as its ``rawId`` (or ``id``) gives it."""
    raw = credential.get("rawId", credential.get("id"))
    if not isinstance(raw, str) or not raw or len(raw) > 1400:
        raise _bad(ErrorCode.MALFORMED, "credential: expected its id as base64url (rawId)")
    try:
        return b64(unb64(raw))
    except (ValueError, binascii.Error):
        raise _bad(
            ErrorCode.MALFORMED, "credential: expected its id as base64url (rawId)"
        ) from None


def registration_options(
    party: Party, name: str, user_handle: bytes, exclude: list[str], timeout_ms: int
) -> tuple[dict[str, Any], bytes]:
    """The ``publicKey`` options for ``navigator.credentials.create`` (as JSON) and their
    challenge: a discoverable passkey, none of ``exclude`` (an account's passkeys) again."""
    options = generate_registration_options(
        rp_id=party.id,
        rp_name=RP_NAME,
        user_name=name,
        user_id=user_handle,
        user_display_name=name,
        timeout=timeout_ms,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=unb64(c)) for c in exclude],
    )
    return options_to_json_dict(options), options.challenge


def authentication_options(party: Party, timeout_ms: int) -> tuple[dict[str, Any], bytes]:
    """The ``publicKey`` options for ``navigator.credentials.get`` (as JSON) and their
    challenge. They name no credential (discoverable passkeys), so they are the same for
    everyone: nothing in them tells which accounts exist."""
    options = generate_authentication_options(
        rp_id=party.id,
        timeout=timeout_ms,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return options_to_json_dict(options), options.challenge


def verify_registration(
    party: Party, credential: dict[str, Any], challenge: bytes
) -> tuple[str, str, int]:
    """A new passkey's id and public key (base64url) and its counter, once the library has
    verified the browser's answer; else ``bad_passkey`` with the library's reason."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=party.id,
            expected_origin=party.origin,
        )
    except Exception as e:  # the library's parsers raise more than its own exceptions
        raise _bad(
            ErrorCode.BAD_PASSKEY, f"the new passkey did not verify: {str(e)[:120]}"
        ) from None
    return b64(verified.credential_id), b64(verified.credential_public_key), verified.sign_count


def _stand_in_key() -> str:
    numbers = ec.generate_private_key(ec.SECP256R1()).public_key().public_numbers()
    cose = {
        1: 2,
        3: -7,
        -1: 1,
        -2: numbers.x.to_bytes(32, "big"),
        -3: numbers.y.to_bytes(32, "big"),
    }
    return b64(encode_cbor(cose))


# An unknown passkey's answer is checked against this key (in vain), so that it takes as long
# to refuse as a known passkey's bad signature: the time tells nothing of who exists either.
STAND_IN_KEY = _stand_in_key()


def verify_authentication(
    party: Party, credential: dict[str, Any], challenge: bytes, public_key: str
) -> int:
    """The counter of a verified sign-in (its signature checked against ``public_key``); an
    answer that does not verify raises :class:`ValueError` (the caller says no more than
    "refused", whatever the reason)."""
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=party.id,
            expected_origin=party.origin,
            credential_public_key=unb64(public_key),
            credential_current_sign_count=0,  # the caller compares, after the signature
        )
    except Exception as e:  # the library's parsers raise more than its own exceptions
        raise ValueError(str(e)) from None
    return verified.new_sign_count
