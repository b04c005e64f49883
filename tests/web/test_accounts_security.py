"""What accounts must not give away (issue 28's security list): which names exist, a session
fixed before sign-in, a request forged by another site, a replayed or cloned passkey, a
challenge used twice or late, sign-ups and sign-ins without end."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from ninetynine.web.accounts.passkeys import Party
from tests.web.conftest import ROOMY
from tests.web.helpers import FakeClock, ServerThread
from tests.web.passkey import Authenticator, Device, refused

MakeServer = Callable[..., ServerThread]


@pytest.fixture
def server(make_server: MakeServer, wall: FakeClock) -> ServerThread:
    return make_server(secure_cookies=False, wall=wall)


def test_sign_in_says_nothing_of_which_accounts_exist(devices: Callable[..., Device]) -> None:
    ann, stranger = devices(), devices()
    key = Authenticator()
    before = stranger.ok("signin/options")["publicKey"]
    ann.sign_up("Ann", key)
    after = stranger.ok("signin/options")["publicKey"]
    # the options name no account (discoverable passkeys): only the challenge differs
    assert not before.get("allowCredentials") and not after.get("allowCredentials")
    assert {k: v for k, v in before.items() if k != "challenge"} == {
        k: v for k, v in after.items() if k != "challenge"
    }
    # a passkey of no account, and Ann's own with a forged signature, read the same
    unknown = stranger.sign_in(Authenticator())
    answer = stranger.sign_in_answer(key)
    answer["response"]["signature"] = Authenticator().get(
        stranger.ok("signin/options"), stranger.origin
    )["response"]["signature"]
    forged = stranger.post("signin/verify", {"credential": answer})
    assert refused(unknown, 401, "sign_in_failed") == refused(forged, 401, "sign_in_failed")
    assert stranger.me() is None
    # a recovery code that is nobody's says just that, whatever the code
    assert refused(stranger.post("recover", {"code": "AAAA-BBBB"}), 401, "bad_recovery")


def test_a_taken_name_is_a_clear_error_whatever_its_case(devices: Callable[..., Device]) -> None:
    devices().sign_up("Ann", Authenticator())
    message = refused(devices().post("register/options", {"name": "ANN"}), 409, "name_taken")
    assert message == "the name 'ANN' is taken: choose another for the account"
    # two sign-ups of one name at once: the second to answer is told the same
    one, two = devices(), devices()
    first, second = (d.ok("register/options", {"name": "Bob"}) for d in (one, two))
    one.ok("register/verify", {"credential": Authenticator().create(first, one.origin)})
    late = two.post("register/verify", {"credential": Authenticator().create(second, two.origin)})
    refused(late, 409, "name_taken")
    for name in ("", "   ", "x" * 25, "tab\there"):
        refused(devices().post("register/options", {"name": name}), 400, "bad_name")


def test_a_cookie_set_before_sign_in_is_not_the_session_after(
    devices: Callable[..., Device],
) -> None:
    key = Authenticator()
    devices().sign_up("Ann", key)
    victim = devices()
    victim.plant("chosen-by-the-attacker")  # planted
    assert victim.sign_in(key).status_code == 200
    assert victim.session and victim.session != "chosen-by-the-attacker"
    attacker = devices()
    attacker.plant("chosen-by-the-attacker")
    assert attacker.me() is None
    # a real session the browser had ends when it signs in again (a fresh id every time)
    old = victim.session
    assert victim.sign_in(key).status_code == 200 and victim.session != old
    attacker.plant(old)
    assert attacker.me() is None


def test_a_post_from_another_origin_or_with_none_is_refused(
    server: ServerThread, devices: Callable[..., Device]
) -> None:
    key = Authenticator()
    ann = devices()
    ann.sign_up("Ann", key)
    for origin in ("https://evil.example", "null", f"http://localhost:{server.port}"):
        forger = devices(origin)
        forger.plant(ann.session or "")  # as a browser would send it
        for path, body in (("delete", {"confirm": "Ann"}), ("signout", {}), ("signin/options", {})):
            refused(forger.post(path, body), 403, "forbidden_origin")
    bare = devices("")  # no Origin header at all
    bare.plant(ann.session or "")
    message = refused(bare.post("delete", {"confirm": "Ann"}), 403, "forbidden_origin")
    assert message == (
        f"an account's request must come from this server's own page ({server.url}) "
        "with its Origin header"
    )
    assert ann.me() is not None  # nothing was done
    # a passkey's answer made for another origin does not verify either
    options = ann.ok("signin/options")
    refused(
        ann.post("signin/verify", {"credential": key.get(options, "https://evil.example")}),
        401,
        "sign_in_failed",
    )


def test_a_passkey_whose_counter_does_not_move_up_is_refused(
    devices: Callable[..., Device],
) -> None:
    key = Authenticator()
    ann = devices()
    ann.sign_up("Ann", key)
    assert ann.sign_in(key).status_code == 200  # counter 1
    assert ann.sign_in(key).status_code == 200  # counter 2
    for count in (2, 1):  # a clone, signing with a counter already seen
        message = refused(devices().sign_in(key, count=count), 401, "sign_count")
        assert "did not move past the last one seen (2)" in message
    assert ann.sign_in(key).status_code == 200  # the real one goes on: 3
    # an authenticator that does not count (0 every time) is not refused for it
    synced = Authenticator(counting=False)
    devices().sign_up("Bob", synced)
    assert devices().sign_in(synced).status_code == 200
    assert devices().sign_in(synced).status_code == 200


def test_a_challenge_is_used_once_and_expires(
    devices: Callable[..., Device], wall: FakeClock
) -> None:
    key = Authenticator()
    ann = devices()
    ann.sign_up("Ann", key)
    answer = ann.sign_in_answer(key)
    assert ann.post("signin/verify", {"credential": answer}).status_code == 200
    replay = devices()
    message = refused(replay.post("signin/verify", {"credential": answer}), 400, "bad_challenge")
    assert message == (
        "this answer is to no live sign-in challenge (each is used once, within 300 seconds): "
        "ask for new options"
    )
    late = ann.sign_in_answer(key)
    wall.advance(301)
    refused(ann.post("signin/verify", {"credential": late}), 400, "bad_challenge")
    # a sign-up's challenge is not a sign-in's
    options = devices().ok("register/options", {"name": "Bob"})
    crossed = key.get({"publicKey": {**options["publicKey"], "rpId": "127.0.0.1"}}, ann.origin)
    refused(ann.post("signin/verify", {"credential": crossed}), 400, "bad_challenge")
    # and a sign-up's answer too, once
    bob, bobs = devices(), Authenticator()
    created = bobs.create(bob.ok("register/options", {"name": "Cy"}), bob.origin)
    assert bob.post("register/verify", {"credential": created}).status_code == 200
    refused(devices().post("register/verify", {"credential": created}), 400, "bad_challenge")


def test_the_session_expires(devices: Callable[..., Device], wall: FakeClock) -> None:
    ann = devices()
    ann.sign_up("Ann", Authenticator())
    wall.advance(29 * 86400)
    assert ann.me() is not None
    wall.advance(2 * 86400)
    assert ann.me() is None


def test_sign_ups_and_sign_ins_over_the_rate_get_429(make_server: MakeServer) -> None:
    # (slow refills: the roomy limits refill at once, which a busy machine would see)
    limits = dataclasses.replace(
        ROOMY, sign_up_burst=2, sign_in_burst=3, sign_ups_per_hour=1, sign_ins_per_minute=1
    )
    server = make_server(secure_cookies=False, limits=limits)
    device = Device(server.url)
    for name in ("A", "B"):
        device.ok("register/options", {"name": name})
    message = refused(device.post("register/options", {"name": "C"}), 429, "rate_limited")
    assert message == (
        "too many sign-ups from your address: wait a few minutes and try again "
        "(server limit sign_ups_per_hour)"
    )
    assert device.post("register/options", {"name": "C"}).json()["limit"] == "sign_ups_per_hour"
    for _ in range(2):
        device.ok("signin/options")
    device.post("recover", {"code": "AAAA"})  # recoveries count as sign-ins
    refused(device.post("signin/options"), 429, "rate_limited")
    refused(device.post("recover", {"code": "AAAA"}), 429, "rate_limited")
    device.close()


def test_the_accounts_and_passkeys_a_server_takes_are_limits(make_server: MakeServer) -> None:
    limits = dataclasses.replace(ROOMY, max_accounts=1, passkeys_per_account=2)
    server = make_server(secure_cookies=False, limits=limits)
    ann, bob = Device(server.url), Device(server.url)
    ann.sign_up("Ann", Authenticator())
    ann.add_passkey(Authenticator())
    refused(ann.post("register/options"), 400, "limit")
    message = refused(bob.post("register/options", {"name": "Bob"}), 400, "limit")
    assert message.endswith("(server limit max_accounts)")
    # signed in, a name is not asked for: this adds a passkey, and says so
    assert "leave out the name" in refused(
        ann.post("register/options", {"name": "Ann2"}), 409, "signed_in"
    )
    for device in (ann, bob):
        device.close()


def test_a_malformed_credential_is_one_clear_line(devices: Callable[..., Device]) -> None:
    device = devices()
    for odd in ({}, {"response": 3}, {"response": {"clientDataJSON": "!!"}}, {"id": "x"}):
        message = refused(device.post("signin/verify", {"credential": odd}), 400, "malformed")
        assert message.startswith("credential: expected a WebAuthn credential")
    refused(device.post("signin/verify", {"credential": 7}), 400, "malformed")
    refused(device.post("signin/verify", {"passkey": {}}), 400, "malformed")


def test_the_relying_party_is_the_origin_a_browser_names() -> None:
    # a Host with the scheme's default port matches an Origin without it (a proxy may add it)
    assert Party.of("https", "99.Example:443") == Party("https://99.example", "99.example")
    assert Party.of("http", "localhost:8099") == Party("http://localhost:8099", "localhost")
    assert Party.of("http", "[::1]:8099") == Party("http://[::1]:8099", "::1")


def test_behind_a_tls_proxy_the_page_s_https_origin_is_this_server_s(
    server: ServerThread,
) -> None:
    """docs/deploy.md's proxy passes the scheme on (X-Forwarded-Proto, trusted from the
    proxy's address): the browser's https origin is then this server's own, for the
    account's requests and its passkey; without it the server takes itself for http."""
    port = server.url.rsplit(":", 1)[1]
    page = f"https://127.0.0.1:{port}"
    proxied = Device(server.url, origin=page)
    proxied.http.headers["X-Forwarded-Proto"] = "https"
    assert proxied.sign_up("Ann", Authenticator())["account"]["name"] == "Ann"
    bare = Device(server.url, origin=page)
    assert refused(bare.post("register/options", {"name": "Bob"}), 403, "forbidden_origin")
