"""The lobby's account area in a real browser (Debian's Chromium), with Chromium's virtual
authenticator standing in for a phone's or a laptop's passkeys: what a person sees when
they sign up, sign in and out, recover, and delete, and that a guest sees a one-line
explanation where the browser has no passkeys.

Browsers take no address literal as the WebAuthn relying party's id, so the page is opened
at ``http://localhost:PORT``; the session cookie is not Secure there (plain http)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, CDPSession, Page, expect

from tests.web.helpers import ServerThread
from tests.web.pages import assert_accessible, assert_no_sideways_scroll, assert_screen

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
CODE = re.compile(r"^([A-Z2-7]{4}-){7}[A-Z2-7]{4}$")
KEEP: list[CDPSession] = []  # the authenticators live as long as their DevTools sessions


@pytest.fixture
def url(make_server: Callable[..., ServerThread]) -> str:
    """A seeded server's lobby by the name ``localhost`` (a relying party's id must be one)."""
    web = make_server(secure_cookies=False, seed=99)
    return f"http://localhost:{web.port}"


def with_passkeys(browser: Browser, size: str = "laptop", locale: str | None = None) -> Page:
    """A new browser (its own cookies) whose page has a platform authenticator that keeps
    discoverable passkeys and verifies its user at once, as a phone's fingerprint would."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        reduced_motion="reduce",
        is_mobile=size == "phone",
        has_touch=size == "phone",
        locale=locale,
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    KEEP.append(cdp)
    return page


def sign_up(page: Page, url: str, name: str) -> str:
    """Sign up as ``name`` from the lobby; returns the recovery code shown, once dismissed."""
    page.goto(url)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("A name for your account").fill(name)
    page.get_by_role("button", name="Create the account").click()
    expect(page.get_by_text("Write this recovery code down now")).to_be_visible()
    code = page.locator("#recovery-code").inner_text()
    assert CODE.match(code), code
    expect(page.locator("#account-state")).to_have_text(f"Signed in as {name}.")
    page.get_by_role("button", name="I have written it down").click()
    expect(page.get_by_text(code)).to_have_count(0)  # shown once: gone from the page
    return code


def signed_in_as(page: Page, name: str) -> None:
    """The page says it is signed in as ``name`` and offers to sign out, not up."""
    expect(page.locator("#account-state")).to_have_text(f"Signed in as {name}.")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    expect(page.get_by_role("button", name="Sign up")).to_be_hidden()


def signed_out(page: Page) -> None:
    """The page offers to sign in, not out."""
    expect(page.get_by_role("button", name="Sign in", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Sign out")).to_be_hidden()


def error_line(page: Page) -> str:
    """The account area's error, once shown: one line, no trace of a stack or of JSON."""
    line = page.locator("#account-error")
    expect(line).not_to_be_empty()
    text = line.inner_text()
    assert "\n" not in text and "Traceback" not in text and "{" not in text, text
    return text


def test_sign_up_shows_the_code_once_and_the_session_outlives_a_reload_and_a_sign_out(
    browser: Browser, url: str
) -> None:
    page = with_passkeys(browser)
    page.goto(url)
    expect(page.locator("#account-state")).to_have_text("Playing as a guest.")
    sign_up(page, url, "Ann")
    signed_in_as(page, "Ann")
    expect(page.get_by_role("button", name="Sign out")).to_be_focused()
    page.reload()
    signed_in_as(page, "Ann")
    expect(page.get_by_text("Write this recovery code down now")).to_be_hidden()
    page.get_by_role("button", name="Sign out").click()
    signed_out(page)
    expect(page.locator("#account-state")).to_have_text("Playing as a guest.")
    page.reload()
    signed_out(page)  # the session ended on the server, not only on the page
    page.get_by_role(
        "button", name="Sign in", exact=True
    ).click()  # no name asked: the passkey says
    signed_in_as(page, "Ann")
    expect(page.locator("#account-error")).to_be_empty()
    expect(page.get_by_text("Write this recovery code down now")).to_be_hidden()


def test_two_browsers_hold_two_accounts_and_a_taken_name_is_one_line(
    browser: Browser, url: str
) -> None:
    ann, bob = with_passkeys(browser), with_passkeys(browser)
    sign_up(ann, url, "Ann")
    bob.goto(url)
    bob.get_by_role("button", name="Sign up").click()
    bob.get_by_label("A name for your account").fill("ann")
    bob.get_by_role("button", name="Create the account").click()
    assert "is taken" in error_line(bob)
    signed_out(bob)
    sign_up(bob, url, "Bob")
    signed_in_as(bob, "Bob")
    ann.reload()
    bob.reload()
    signed_in_as(ann, "Ann")
    signed_in_as(bob, "Bob")


def test_a_recovery_code_signs_in_once_and_a_wrong_one_shows_the_servers_line(
    browser: Browser, url: str
) -> None:
    code = sign_up(with_passkeys(browser), url, "Ann")
    page = with_passkeys(browser)  # a new device, without Ann's passkey
    page.goto(url)
    page.get_by_role("button", name="Use a recovery code").click()
    expect(page.get_by_label("Your recovery code")).to_be_focused()
    page.get_by_label("Your recovery code").fill("AAAA-BBBB-CCCC-DDDD")
    page.get_by_role("button", name="Sign in with the code").click()
    assert error_line(page).startswith("that recovery code opens no account")
    signed_out(page)
    page.get_by_label("Your recovery code").fill(code.lower())  # as a person might type it
    page.get_by_role("button", name="Sign in with the code").click()
    signed_in_as(page, "Ann")
    expect(page.locator("#account-error")).to_be_empty()
    new = page.locator("#recovery-code").inner_text()  # the old code is spent: a new one
    assert CODE.match(new) and new != code
    page.get_by_role("button", name="I have written it down").click()
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="Use a recovery code").click()
    page.get_by_label("Your recovery code").fill(code)
    page.get_by_role("button", name="Sign in with the code").click()
    assert error_line(page).startswith("that recovery code opens no account")


def test_deleting_asks_for_the_name_then_the_passkey_opens_nothing(
    browser: Browser, url: str
) -> None:
    page = with_passkeys(browser)
    sign_up(page, url, "Ann")
    page.get_by_role("button", name="Delete account").click()
    confirm = page.get_by_label("Type the account's name, Ann, to delete it")
    expect(confirm).to_be_focused()
    confirm.fill("Bob")
    page.get_by_role("button", name="Delete the account").click()
    assert "expected the account's name" in error_line(page)
    signed_in_as(page, "Ann")
    confirm.fill("Ann")
    page.get_by_role("button", name="Delete the account").click()
    signed_out(page)
    expect(page.locator("#account-state")).to_have_text(
        "The account is deleted. Playing as a guest."
    )
    page.get_by_role("button", name="Sign in", exact=True).click()
    assert error_line(page).startswith("sign-in refused")
    signed_out(page)
    page.reload()
    signed_out(page)


def test_a_form_offers_the_name_typed_for_play_and_closes_with_escape(
    browser: Browser, url: str
) -> None:
    page = with_passkeys(browser)
    page.goto(url)
    page.locator("#lobby").get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Sign up").click()
    field = page.get_by_label("A name for your account")
    expect(field).to_be_focused()
    expect(field).to_have_value("Ann")
    page.keyboard.press("Escape")
    expect(field).to_be_hidden()
    expect(page.get_by_role("button", name="Sign up")).to_be_focused()
    page.get_by_role("button", name="Use a recovery code").click()
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_label("Your recovery code")).to_be_hidden()
    expect(page.get_by_role("button", name="Use a recovery code")).to_be_focused()
    expect(page.locator("#account-state")).to_have_text("Playing as a guest.")


def test_a_browser_without_passkeys_reads_one_line_and_plays_as_a_guest(
    browser: Browser, url: str
) -> None:
    context = browser.new_context()
    context.add_init_script("delete window.PublicKeyCredential")
    page = context.new_page()
    page.goto(url)
    expect(page.get_by_text("This browser cannot use passkeys here")).to_be_visible()
    expect(page.get_by_role("button", name="Sign up")).to_be_hidden()
    expect(page.get_by_role("button", name="Sign in", exact=True)).to_be_hidden()
    page.locator("#lobby").get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Play now against bots").click()
    page.wait_for_url("**/t/**")
    expect(page.locator("#seats")).to_contain_text("Ann (you)")
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_signed_in_lobby_fits_reads_and_looks_as_it_should(
    size: str, browser: Browser, url: str, tmp_path: Path
) -> None:
    page = with_passkeys(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("A name for your account").fill("Ann")
    page.get_by_role("button", name="Create the account").click()
    expect(page.locator("#recovery-code")).to_have_text(CODE)
    page.mouse.move(0, 0)
    page.screenshot(path=str(tmp_path / f"recovery-{size}.png"), full_page=True)
    assert_no_sideways_scroll(page, "the recovery code")
    assert_accessible(page, "the recovery code")
    page.get_by_role("button", name="I have written it down").click()
    expect(page.locator("#feed-state")).to_contain_text("No public tables")
    expect(page.locator("#rules option")).not_to_have_count(0)
    page.evaluate("document.activeElement.blur()")  # no focus ring in the picture
    page.mouse.move(0, 0)
    assert_screen(page, f"lobby-signed-in-{size}", tmp_path)
    assert_no_sideways_scroll(page, "the signed-in lobby")
    assert_accessible(page, "the signed-in lobby")
    page.get_by_role("button", name="Delete account").click()
    assert_no_sideways_scroll(page, "the delete form")
    assert_accessible(page, "the delete form")
    assert not errors, errors
