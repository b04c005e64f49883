"""The club's page, adding a passkey, signing a device in by a link, and sharing a game, in a
real browser (Debian's Chromium with its virtual authenticator, as in
tests/web/test_account_browser.py): what a person sees and what each click does, and the
club's page at a phone's size and a laptop's, as its baselines show it."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.helpers import ServerThread
from tests.web.pages import (
    assert_accessible,
    assert_no_sideways_scroll,
    assert_screen,
    create_table,
    take_turn,
)
from tests.web.test_account_browser import SIZES, error_line, sign_up, signed_in_as, with_passkeys


@pytest.fixture
def url(make_server: Callable[..., ServerThread]) -> str:
    """A seeded server's lobby by the name ``localhost`` (a relying party's id must be one)."""
    web = make_server(secure_cookies=False, seed=99)
    return f"http://localhost:{web.port}"


def watch_errors(page: Page, errors: list[str]) -> Page:
    """Collects the page's script errors (a refusal the test causes on purpose is read as
    the page's text instead, so the browser's "Failed to load resource" line is not one)."""
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    return page


def club_of(owner: Page, url: str, name: str) -> str:
    """``owner`` (signed in) creates a club from the lobby; returns its invite link."""
    owner.get_by_label("A new club's name").fill(name)
    owner.get_by_role("button", name="Create a club").click()
    owner.get_by_role("button", name="Invite link").click()
    return owner.get_by_label(f"Invite link to {name}").input_value()


def join(page: Page, url: str, name: str, invite: str) -> None:
    """A new account ``name`` opens the invite link and joins."""
    sign_up(page, url, name)
    page.goto(invite)
    page.get_by_role("button", name="Join the club").click()
    expect(page.locator("#club-joined")).to_contain_text("You joined")


def open_club(page: Page, name: str) -> None:
    """From the lobby's "Your clubs", to the club's page."""
    page.get_by_role("region", name="Your clubs").get_by_role("link", name=name).click()
    page.wait_for_url(re.compile(r"/club/[\w-]+$"))
    expect(page.locator("#club-title")).to_have_text(name)


def members(page: Page) -> list[str]:
    """The members listed, as read: each name, "owner" by the owner's, "(you)" by mine."""
    return [
        " ".join(t.split()) for t in page.locator("#club-members .member-name").all_inner_texts()
    ]


def test_the_club_page_for_its_owner_and_for_a_member(browser: Browser, url: str) -> None:
    errors: list[str] = []
    ann = watch_errors(with_passkeys(browser), errors)
    sign_up(ann, url, "Ann")
    invite = club_of(ann, url, "Friday cards")
    bob = watch_errors(with_passkeys(browser), errors)
    join(bob, url, "Bob", invite)

    open_club(ann, "Friday cards")
    expect(ann.locator("#club-role")).to_have_text("2 members \u00b7 you are its owner")
    assert members(ann) == ["Ann owner (you)", "Bob"]
    expect(ann.get_by_label("The club's name")).to_be_visible()
    expect(ann.get_by_role("button", name="Remove Bob")).to_be_visible()
    expect(ann.get_by_role("button", name="Delete the club")).to_be_visible()
    expect(ann.get_by_role("button", name="Leave the club")).to_be_hidden()
    expect(ann.get_by_label("The club's invite link")).to_have_value(invite)
    expect(ann.locator("#club-tables-state")).to_have_text(
        "No tables going: start one for the club."
    )

    open_club(bob, "Friday cards")
    expect(bob.locator("#club-role")).to_have_text("2 members \u00b7 you are a member")
    assert members(bob) == ["Ann owner", "Bob (you)"]
    expect(bob.get_by_label("The club's name")).to_be_hidden()  # renaming: the owner's
    expect(bob.get_by_role("button", name="Rename")).to_be_hidden()
    expect(bob.get_by_role("button", name="Remove Bob")).to_have_count(0)
    expect(bob.get_by_role("button", name="Delete the club")).to_be_hidden()
    expect(bob.get_by_role("button", name="Make a new invite link")).to_be_hidden()
    expect(bob.get_by_role("button", name="Leave the club")).to_be_visible()

    # the owner renames it (an empty name is the server's one line), and a new invite link
    ann.get_by_label("The club's name").fill("")
    ann.get_by_role("button", name="Rename").click()
    expect(ann.locator("#club-page-error")).to_contain_text("expected the club's name")
    ann.get_by_label("The club's name").fill("Friday night")
    ann.get_by_role("button", name="Rename").click()
    expect(ann.locator("#club-title")).to_have_text("Friday night")
    expect(ann.locator("#club-page-error")).to_be_empty()
    ann.get_by_role("button", name="Make a new invite link").click()
    expect(ann.locator("#club-invite-state")).to_have_text(
        "A new invite link: the old one opens nothing from now on."
    )
    assert ann.get_by_label("The club's invite link").input_value() != invite
    bob.reload()
    expect(bob.locator("#club-title")).to_have_text("Friday night")

    # a table for the club, rated and turn-based with a bot: on its page for the members
    ann.get_by_label("Bots", exact=True).fill("4")  # as many as the seats: the page's one line
    ann.get_by_role("button", name="New table for this club").click()
    expect(ann.locator("#club-page-error")).to_have_text(
        "Bots: expected 0 to 3, as you take a seat of the 4."
    )
    ann.get_by_label("Bots", exact=True).fill("1")
    ann.get_by_label("Rated: the game moves its players' ratings").check()
    ann.get_by_label("Turn-based: a day for each turn").check()
    ann.get_by_role("button", name="New table for this club").click()
    ann.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(ann.locator("#seats")).to_contain_text("Ann (you)")
    bob.reload()
    expect(bob.locator("#club-tables li")).to_have_count(1)
    expect(bob.locator("#club-tables")).to_contain_text("2 open seats")
    expect(bob.locator("#club-tables")).to_contain_text("rated")
    expect(bob.locator("#club-tables")).to_contain_text("turn-based")
    expect(
        bob.locator("#club-tables").get_by_role("link", name=re.compile("^Join"))
    ).to_be_visible()

    # the owner removes Bob, after a confirmation; Bob's page says he is no member
    ann.go_back()
    expect(ann.locator("#club-title")).to_have_text("Friday night")
    ann.get_by_role("button", name="Remove Bob").click()
    dialog = ann.get_by_role("dialog")
    expect(dialog).to_contain_text("Remove Bob from Friday night?")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert members(ann) == ["Ann owner (you)", "Bob"]  # cancelled: nothing happened
    ann.get_by_role("button", name="Remove Bob").click()
    dialog.get_by_role("button", name="Remove Bob").click()
    expect(ann.locator("#club-members li")).to_have_count(1)
    assert members(ann) == ["Ann owner (you)"]
    expect(ann.locator("#club-role")).to_have_text("1 member \u00b7 you are its owner")
    bob.reload()
    expect(bob.get_by_role("heading", name="You are not a member of this club")).to_be_visible()
    expect(bob.locator("#club-missing-text")).to_contain_text("The owner may have removed you")
    expect(bob.locator("#club-title")).to_be_hidden()
    assert not errors, errors


def test_a_member_leaves_and_the_owner_deletes_the_club(browser: Browser, url: str) -> None:
    ann, bob = with_passkeys(browser), with_passkeys(browser)
    sign_up(ann, url, "Ann")
    invite = club_of(ann, url, "Cards")
    join(bob, url, "Bob", invite)
    open_club(bob, "Cards")
    bob.get_by_role("button", name="Leave the club").click()
    bob.get_by_role("dialog").get_by_role("button", name="Leave the club").click()
    bob.wait_for_url(url + "/")
    expect(bob.get_by_role("region", name="Your clubs")).to_contain_text("No clubs yet")
    open_club(ann, "Cards")
    assert members(ann) == ["Ann owner (you)"]
    ann.get_by_role("button", name="Delete the club").click()
    ann.get_by_role("dialog").get_by_role("button", name="Delete the club").click()
    ann.wait_for_url(url + "/")
    expect(ann.get_by_role("region", name="Your clubs")).to_contain_text("No clubs yet")
    guest = browser.new_context().new_page()  # signed out, at a club's page
    guest.goto(url + "/club/whatever")
    expect(guest.get_by_role("heading", name="Sign in to see this club")).to_be_visible()
    guest.context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_club_page_fits_reads_and_looks_as_it_should(
    size: str, browser: Browser, url: str, tmp_path: Path
) -> None:
    errors: list[str] = []
    ann = watch_errors(with_passkeys(browser, size), errors)
    sign_up(ann, url, "Ann")
    invite = club_of(ann, url, "Friday cards")
    join(with_passkeys(browser), url, "Bob", invite)
    open_club(ann, "Friday cards")
    expect(ann.locator("#club-members li")).to_have_count(2)
    expect(ann.locator("#club-table-rules option")).not_to_have_count(0)
    ann.evaluate("document.activeElement.blur()")  # no focus ring in the picture
    ann.mouse.move(0, 0)
    # the invite token is random: its field is masked
    assert_screen(ann, f"club-{size}", tmp_path, mask=[ann.locator("#club-invite")])
    assert_no_sideways_scroll(ann, "the club's page")
    assert_accessible(ann, "the club's page")
    ann.get_by_role("button", name="Remove Bob").click()
    assert_accessible(ann, "the removal's confirmation")
    assert not errors, errors


def test_a_passkey_is_added_and_a_link_signs_another_device_in(browser: Browser, url: str) -> None:
    errors: list[str] = []
    laptop = watch_errors(with_passkeys(browser), errors)
    sign_up(laptop, url, "Ann")
    laptop.get_by_text("Passkeys and devices").click()
    expect(laptop.locator("#account-passkeys")).to_have_text("This account has 1 passkey.")
    laptop.get_by_role("button", name="Sign in another device").click()
    field = laptop.get_by_label("Open this link on the other device")
    expect(field).to_have_value(re.compile(re.escape(url) + r"/#link=[A-Za-z0-9_-]{43}$"))
    link = field.input_value()
    expect(laptop.locator("#link-hint")).to_contain_text("once, within")

    phone = watch_errors(with_passkeys(browser, "phone"), errors)  # no passkey of Ann's
    phone.goto(link)
    signed_in_as(phone, "Ann")
    expect(phone.locator("#account-note")).to_have_text(
        "This device is signed in as Ann by a link. Add a passkey to sign in here without one."
    )
    assert "#link" not in phone.url  # the token is gone from the address bar
    phone.get_by_text("Passkeys and devices").click()
    expect(phone.locator("#account-passkeys")).to_have_text("This account has 1 passkey.")
    phone.get_by_role("button", name="Add a passkey").click()
    expect(phone.locator("#account-passkeys")).to_have_text("This account has 2 passkeys.")
    expect(phone.locator("#account-note")).to_have_text(
        "Passkey added: this account has 2 passkeys."
    )
    laptop.reload()
    laptop.get_by_text("Passkeys and devices").click()
    expect(laptop.locator("#account-passkeys")).to_have_text("This account has 2 passkeys.")
    # the phone's own passkey signs it in now
    phone.get_by_role("button", name="Sign out").click()
    phone.get_by_role("button", name="Sign in", exact=True).click()
    signed_in_as(phone, "Ann")

    # the link worked once: a third browser is told so, and stays a guest
    other = watch_errors(with_passkeys(browser), [])
    other.goto(link)
    assert error_line(other).startswith("this sign-in link is used or expired")
    expect(other.locator("#account-state")).to_have_text("Playing as a guest.")
    assert not errors, errors


def test_a_finished_game_is_shared_and_its_link_shows_the_replay_signed_out(
    browser: Browser, url: str
) -> None:
    errors: list[str] = []
    context = browser.new_context(reduced_motion="reduce")
    page = watch_errors(context.new_page(), errors)
    create_table(page, url, "Ann", 2, {2: "easy"})
    while take_turn(page):
        pass
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    expect(page.locator("#share-box")).to_be_hidden()
    summary.get_by_role("button", name="Share the game").click()
    field = page.get_by_label("Anyone with this link sees the game's replay and review")
    expect(field).to_be_visible()
    link = field.input_value()
    assert re.fullmatch(re.escape(url) + r"/s/[A-Za-z0-9_-]{22}", link), link
    summary.get_by_role("button", name="Share the game").click()  # the same link again
    expect(field).to_have_value(link)
    winner = page.locator("#summary-text").inner_text()

    stranger = browser.new_context(reduced_motion="reduce")  # signed out, nothing stored
    shared = watch_errors(stranger.new_page(), errors)
    shared.goto(link)
    expect(shared.locator("#replay-bar")).to_be_visible()
    expect(shared.locator("#rules-name")).to_have_text(re.compile(r"^Replay \u00b7 "))
    expect(shared.locator("#replay-pos")).to_have_text("The deal")
    expect(shared.locator("#seats")).to_contain_text("Ann")
    shared.get_by_role("button", name="To the end").click()
    expect(shared.locator("#replay-end")).to_have_text(winner)
    shared.get_by_label("Seen from").select_option(label="Ann's view")
    expect(shared.locator("#seats")).to_contain_text("Ann")
    expect(shared.locator("#seats")).not_to_contain_text("(you)")  # the reader is no player
    expect(
        shared.get_by_role("button", name="Review Ann's decisions with the coach")
    ).to_be_visible()
    expect(shared.get_by_role("link", name="Back to the lobby")).to_be_visible()
    # a link cut short: the page says so
    shared.goto(link[:-3])
    expect(shared.get_by_role("heading", name="This shared game does not exist")).to_be_visible()
    expect(shared.locator("#missing-text")).to_contain_text("mistyped")
    stranger.close()
    context.close()
    assert not errors, errors
