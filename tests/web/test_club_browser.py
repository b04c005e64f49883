"""The lobby's clubs area in a real browser (Debian's Chromium, with its virtual
authenticator as in tests/web/test_account_browser.py): a signed-in account creates a club
and copies its invite link; another person opens the link, signs up there and joins."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.helpers import ServerThread
from tests.web.test_account_browser import CODE, sign_up, with_passkeys


@pytest.fixture
def url(make_server: Callable[..., ServerThread]) -> str:
    """A seeded server's lobby by the name ``localhost`` (a relying party's id must be one)."""
    web = make_server(secure_cookies=False, seed=99)
    return f"http://localhost:{web.port}"


def club_error(page: Page) -> str:
    line = page.locator("#club-error")
    expect(line).not_to_be_empty()
    text = line.inner_text()
    assert "\n" not in text and "{" not in text, text
    return text


def test_a_club_is_made_its_link_copied_and_opened_to_join_it(browser: Browser, url: str) -> None:
    ann = with_passkeys(browser)
    errors: list[str] = []
    ann.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(ann, url, "Ann")
    clubs = ann.get_by_role("region", name="Your clubs")
    expect(clubs).to_contain_text("No clubs yet")
    ann.get_by_role("button", name="Create a club").click()
    assert club_error(ann) == "Type a name for the club first."
    ann.get_by_label("A new club's name").fill("Friday cards")
    ann.get_by_role("button", name="Create a club").click()
    expect(clubs).to_contain_text("Friday cards 1 member, yours")
    ann.get_by_role("button", name="Invite link").click()
    link = ann.get_by_label("Invite link to Friday cards").input_value()
    assert re.fullmatch(re.escape(url) + r"/c/[A-Za-z0-9_-]{32}", link), link

    bob = with_passkeys(browser)
    bob.on("pageerror", lambda e: errors.append(str(e)))
    bob.goto(link)
    expect(bob.locator("#club-join-text")).to_have_text(
        "You were invited to a club: sign up or sign in above to join it."
    )
    expect(bob.get_by_role("button", name="Join the club")).to_be_hidden()
    bob.get_by_role("button", name="Sign up").click()
    bob.get_by_label("A name for your account").fill("Bob")
    bob.get_by_role("button", name="Create the account").click()
    expect(bob.locator("#recovery-code")).to_have_text(CODE)
    bob.get_by_role("button", name="I have written it down").click()
    bob.get_by_role("button", name="Join the club").click()
    expect(bob.locator("#club-joined")).to_have_text("You joined Friday cards.")
    expect(bob.get_by_role("region", name="Your clubs")).to_contain_text("Friday cards 2 members")
    assert bob.url == url + "/"  # the token is gone from the address bar
    expect(bob.get_by_role("button", name="Join the club")).to_be_hidden()
    ann.reload()
    expect(ann.get_by_role("region", name="Your clubs")).to_contain_text(
        "Friday cards 2 members, yours"
    )
    assert not errors, errors
