"""Accounts without passwords (src/ninetynine/web/accounts/): sign up with a passkey, sign in
on another device, sign out, recover, delete; through the real ``webauthn`` verification
(tests/web/passkey.py is the authenticator)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from ninetynine.web.accounts.store import AccountStore
from ninetynine.web.storage import SQLiteStorage
from tests.web.helpers import FakeClock, ServerThread
from tests.web.passkey import Authenticator, Device

MakeServer = Callable[..., ServerThread]


@pytest.fixture
def server(make_server: MakeServer, wall: FakeClock) -> ServerThread:
    return make_server(secure_cookies=False, wall=wall)


def test_sign_up_then_sign_in_on_a_second_device_with_the_same_passkey(
    devices: Callable[[], Device],
) -> None:
    phone, laptop, key = devices(), devices(), Authenticator()
    assert phone.me() is None  # a guest
    answer = phone.sign_up("Ann", key)
    assert answer["account"]["name"] == "Ann" and answer["account"]["passkeys"] == 1
    code = answer["recovery_code"]
    assert isinstance(code, str) and len(code.replace("-", "")) == 32
    assert phone.me() == answer["account"]  # signed in at once
    assert laptop.me() is None
    res = laptop.sign_in(key)  # a synced passkey, as on a second device
    assert res.status_code == 200, res.text
    assert res.json() == {"account": answer["account"], "recovery_code": None}
    assert laptop.me() == phone.me() == answer["account"]
    assert laptop.session != phone.session  # two sessions of one account


def test_an_account_may_hold_several_passkeys_each_signing_in(
    devices: Callable[[], Device],
) -> None:
    phone, laptop = devices(), devices()
    first, second = Authenticator(), Authenticator()
    phone.sign_up("Ann", first)
    added = phone.add_passkey(second)
    assert added == {"account": {**added["account"], "passkeys": 2}, "recovery_code": None}
    assert laptop.sign_in(second).status_code == 200
    assert laptop.me() == phone.me()


def test_a_link_from_a_signed_in_device_signs_a_new_one_in_once(
    devices: Callable[[], Device], wall: FakeClock
) -> None:
    phone, tablet = devices(), devices()
    account = phone.sign_up("Ann", Authenticator())["account"]
    link = phone.ok("link")
    assert link["seconds"] == 600 and len(link["token"]) >= 40
    assert tablet.ok("link/use", {"token": link["token"]}) == {
        "account": account,
        "recovery_code": None,
    }
    assert tablet.me() == account
    assert tablet.add_passkey(Authenticator())["account"]["passkeys"] == 2  # its own passkey
    again = devices().post("link/use", {"token": link["token"]})
    assert again.status_code == 400 and again.json()["code"] == "bad_challenge"  # spent
    late = phone.ok("link")["token"]
    wall.advance(601)
    assert devices().post("link/use", {"token": late}).json()["code"] == "bad_challenge"
    guest = devices().post("link", {})
    assert guest.status_code == 401 and guest.json()["code"] == "not_signed_in"


def test_sign_out_ends_the_session_on_the_server(devices: Callable[[], Device]) -> None:
    phone, key = devices(), Authenticator()
    phone.sign_up("Ann", key)
    old = phone.session
    assert old
    assert phone.ok("signout") == {"ok": True}
    assert phone.session is None and phone.me() is None
    # the old cookie, sent again as it was, opens nothing: the session is gone server-side
    thief = devices()
    thief.plant(old)
    assert thief.me() is None
    res = thief.post("delete", {"confirm": "Ann"})
    assert res.status_code == 401 and res.json()["code"] == "not_signed_in"


def test_the_recovery_code_signs_in_once_and_lets_the_account_add_a_passkey(
    devices: Callable[[], Device],
) -> None:
    phone, key = devices(), Authenticator()
    code = phone.sign_up("Ann", key)["recovery_code"]
    lost = devices()  # the phone is lost: a new device, no passkey
    answer = lost.ok("recover", {"code": code.lower().replace("-", " ")})  # as typed
    assert answer["account"]["name"] == "Ann"
    new_code = answer["recovery_code"]
    assert new_code and new_code != code  # the next code, shown this once
    assert lost.me() == answer["account"]
    lost.add_passkey(Authenticator())
    assert lost.me()["passkeys"] == 2  # type: ignore[index]
    again = devices().post("recover", {"code": code})  # spent
    assert again.status_code == 401 and again.json()["code"] == "bad_recovery"
    assert devices().post("recover", {"code": new_code}).status_code == 200


def test_delete_removes_the_account_its_passkeys_and_its_sessions(
    server: ServerThread, devices: Callable[[], Device]
) -> None:
    phone, laptop, key = devices(), devices(), Authenticator()
    code = phone.sign_up("Ann", key)["recovery_code"]
    assert laptop.sign_in(key).status_code == 200
    wrong = phone.post("delete", {"confirm": "Bob"})
    assert wrong.status_code == 400 and "'Ann'" in wrong.json()["message"]
    assert phone.ok("delete", {"confirm": "Ann"}) == {"ok": True}
    assert phone.me() is None and laptop.me() is None  # every session ended
    res = devices().sign_in(key)
    assert res.status_code == 401 and res.json()["code"] == "sign_in_failed"
    assert devices().post("recover", {"code": code}).status_code == 401
    db = sqlite3.connect(server.settings.database)
    for table in ("nn_accounts", "nn_passkeys", "nn_sessions"):
        assert db.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,), table
    db.close()
    assert devices().sign_up("Ann", Authenticator())["account"]["name"] == "Ann"  # free again


def test_what_is_stored_holds_no_secret(
    server: ServerThread, devices: Callable[[], Device]
) -> None:
    phone = devices()
    code = phone.sign_up("Ann", Authenticator())["recovery_code"]
    dump = "\n".join(sqlite3.connect(server.settings.database).iterdump())
    assert phone.session and phone.session not in dump
    assert code.replace("-", "") not in dump.replace("-", "")


def test_the_session_cookie_is_httponly_samesite_lax_and_secure_by_default(
    make_server: MakeServer,
) -> None:
    server = make_server()  # the default: secure_cookies=True
    device = Device(server.url)
    options = device.ok("register/options", {"name": "Ann"})
    res = device.post(
        "register/verify", {"credential": Authenticator().create(options, server.url)}
    )
    assert res.status_code == 200, res.text
    cookie = res.headers["set-cookie"].lower()
    assert cookie.startswith("nn_session=")
    assert {"httponly", "samesite=lax", "secure", "path=/"} <= {
        part.strip() for part in cookie.split(";")
    }
    # which is why tests on plain http turn it off: the jar keeps it for https only
    assert device.me() is None
    device.close()


def test_a_session_is_seen_by_another_process_on_postgresql(
    database: str,  # first: dropped after the servers have stopped
    make_server: MakeServer,
) -> None:
    one, two = (make_server(database=database, secure_cookies=False) for _ in range(2))
    phone, key = Device(one.url), Authenticator()
    phone.sign_up("Ann", key)
    elsewhere = Device(two.url)  # another process: its own port, so its own origin
    assert elsewhere.sign_in(key).status_code == 200  # the passkey is in the shared tables
    elsewhere.plant(phone.session or "")  # the phone's own session
    assert elsewhere.me() == phone.me()  # read from the database, not a process's memory
    assert phone.ok("signout") == {"ok": True}
    assert elsewhere.me() is None  # ended on every process at once
    for device in (phone, elsewhere):
        device.close()


def test_a_database_from_before_accounts_gets_their_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE nn_tables (id TEXT PRIMARY KEY, meta TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE nn_moves (table_id TEXT NOT NULL, idx INTEGER NOT NULL, "
        "move TEXT NOT NULL, PRIMARY KEY (table_id, idx))"
    )
    db.execute("INSERT INTO nn_tables VALUES ('t1', '{}')")
    db.commit()
    db.close()
    storage = SQLiteStorage(path)
    try:
        assert AccountStore(storage).count() == 0
        assert storage.load("t1") is not None  # the tables are as they were
    finally:
        storage.close()


def test_a_signed_in_player_s_seat_holds_their_account_which_no_client_sees(
    server: ServerThread, devices: Callable[[], Device]
) -> None:
    ann, bob, guest = devices(), devices(), devices()
    ann_id = ann.sign_up("Ann", Authenticator())["account"]["id"]
    bob_id = bob.sign_up("Bob", Authenticator())["account"]["id"]
    res = ann.http.post("/api/tables", json={"players": 4, "bots": {"4": "easy"}})
    assert res.status_code == 200, res.text
    table = res.json()["table"]
    assert bob.http.post(f"/api/tables/{table}/join", json={}).status_code == 200
    assert guest.http.post(f"/api/tables/{table}/join", json={}).status_code == 200
    stored = server.lobby.storage.load(table)
    assert stored is not None
    assert [s.get("account") for s in stored.meta["seats"]] == [ann_id, bob_id, None, None]
    summary = ann.http.get(f"/api/tables/{table}").text
    assert ann_id not in summary and bob_id not in summary
    # a request forged by another site (or a script's, with no Origin) sits as a guest
    forged = Device(server.url, origin="")
    forged.http.cookies = bob.http.cookies
    res = forged.http.post("/api/tables", json={"players": 2})
    stored = server.lobby.storage.load(res.json()["table"])
    assert stored is not None and stored.meta["seats"][0].get("account") is None
