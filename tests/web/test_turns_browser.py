"""Turn-based play in a real browser (Debian's Chromium, with its virtual authenticator as
in tests/web/test_account_browser.py): a signed-in account sets up a turn-based table with
a clock in days, sees it in "My games" as its turn, saves its e-mail for "your turn",
opens its seat again from the list after this browser lost its token, and, as a club's
owner, sets the club's webhook (a bad one refused in one line)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.web.helpers import FakeClock, ServerThread
from tests.web.pages import assert_accessible, assert_no_sideways_scroll, assert_screen
from tests.web.test_account_browser import SIZES, sign_up, with_passkeys


@pytest.fixture
def url(make_server: Callable[..., ServerThread], clock: FakeClock) -> str:
    """A seeded server's lobby by the name ``localhost`` (a relying party's id must be one)."""
    web = make_server(secure_cookies=False, seed=99, wall=clock, private_webhooks=True)
    return f"http://localhost:{web.port}"


def test_a_turn_based_game_is_set_up_listed_in_my_games_and_reopened(
    browser: Browser, url: str
) -> None:
    ann = with_passkeys(browser)
    errors: list[str] = []
    ann.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(ann, url, "Ann")
    games = ann.get_by_role("region", name="My games")
    expect(games).to_contain_text("No games going")
    lobby = ann.locator("#lobby")
    lobby.get_by_label("Your name").fill("Ann")
    lobby.get_by_label("Seats", exact=True).fill("2")
    lobby.get_by_label("Seat 2").select_option("easy")
    expect(lobby.get_by_label("Time for each turn", exact=True)).to_be_hidden()
    lobby.get_by_label("Turn-based: play at your own pace").check()
    expect(lobby.get_by_label("Turn clock")).to_be_hidden()  # seconds are for live tables
    lobby.get_by_label("Time for each turn", exact=True).fill("2")
    lobby.get_by_label("Unit of the time for each turn").select_option("days")
    lobby.get_by_role("button", name="Create table").click()
    ann.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#prompt")).to_contain_text("Your turn")
    expect(ann.locator("#seats li.active .clock")).to_have_text("2 days")
    expect(ann.get_by_role("button", name="Notify me when it is my turn")).to_be_visible()

    ann.goto(url)
    expect(games.locator("li")).to_have_count(1)
    expect(games).to_contain_text("Pagat-style standard")
    expect(games).to_contain_text("your turn \u00b7 2 days left")
    expect(games).to_contain_text("with Ben (easy)")
    # this browser loses its seat's token (as another device never had it): the list's
    # link opens the seat again, from the account
    ann.evaluate(f"localStorage.removeItem('nn-token-{table}')")
    ann.reload()
    games.get_by_role("link", name=re.compile("^Play")).click()
    ann.wait_for_url(re.compile(f"/t/{table}$"))
    expect(ann.locator("#prompt")).to_contain_text("Your turn")
    assert ann.evaluate(f"localStorage.getItem('nn-token-{table}')")

    ann.goto(url)
    ann.get_by_text("When it is my turn", exact=True).click()
    ann.get_by_label("E-mail me at").fill("ann@example.org")
    ann.get_by_label("E-mail me when it is my turn at a turn-based table").check()
    ann.get_by_role("button", name="Save", exact=True).click()
    expect(ann.locator("#contact-saved")).to_have_text("Saved.")
    ann.reload()
    ann.get_by_text("When it is my turn", exact=True).click()
    expect(ann.get_by_label("E-mail me at")).to_have_value("ann@example.org")
    expect(ann.locator("#contact-note")).to_have_text(
        "This server sends no e-mail (its operator set none up)."
    )

    ann.get_by_label("A new club's name").fill("Friday cards")
    ann.get_by_role("button", name="Create a club").click()
    clubs = ann.get_by_role("region", name="Your clubs")
    clubs.get_by_role("button", name="Webhook").click()
    hook = clubs.get_by_label('Webhook for "your turn" in Friday cards')
    hook.fill("ftp://example.org/x")
    clubs.get_by_role("button", name="Save webhook").click()
    expect(ann.locator("#club-error")).to_contain_text("expected an http:// or https:// URL")
    hook.fill("http://127.0.0.1:9/hook")
    clubs.get_by_role("button", name="Save webhook").click()
    expect(clubs.locator(".webhook-form [role=status]")).to_have_text("Saved.")
    assert not errors, errors


@pytest.mark.parametrize("size", SIZES)
def test_my_games_fit_read_and_look_as_they_should(
    size: str, browser: Browser, url: str, tmp_path: Path
) -> None:
    page = with_passkeys(browser, size)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(page, url, "Ann")
    for bots in ({"2": "easy"}, {}):  # my turn at the first, waiting for a friend at the other
        page.evaluate(
            """(bots) => fetch("/api/tables", {method: "POST",
                 headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({name: "Ann", players: 2, bots, turn_based: true,
                                       clock: 86400})}).then((r) => r.json())""",
            bots,
        )
    page.reload()
    games = page.get_by_role("region", name="My games")
    expect(games.locator("li")).to_have_count(2)
    expect(games.locator("li").first).to_contain_text("your turn \u00b7 1 day left")
    expect(games.locator("li").last).to_contain_text("waiting for players")
    expect(games.locator("li").last).to_contain_text("with 1 open seat")
    expect(page.locator("#rules option")).not_to_have_count(0)
    expect(page.locator("#feed-state")).to_contain_text("No public tables")
    page.evaluate("document.activeElement.blur()")  # no focus ring in the picture
    page.mouse.move(0, 0)
    assert_screen(page, f"my-games-{size}", tmp_path)
    assert_no_sideways_scroll(page, "my games")
    assert_accessible(page, "my games")
    assert not errors, errors
