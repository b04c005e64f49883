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
from tests.web.pages import (
    assert_accessible,
    assert_no_sideways_scroll,
    assert_screen,
    take_turn,
)
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


# The page's own call: a turn-based table for two, Ann at seat 1, a bot at seat 2.
TURN_BASED_TABLE = """() => fetch("/api/tables", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({name: "Ann", players: 2, bots: {"2": "easy"}, turn_based: true,
                          clock: 86400})}).then((r) => r.json())"""


def test_the_tables_own_link_opens_a_signed_in_players_seat_on_another_device(
    browser: Browser, url: str
) -> None:
    errors: list[str] = []
    laptop = with_passkeys(browser)
    laptop.on("pageerror", lambda e: errors.append(str(e)))
    sign_up(laptop, url, "Ann")
    laptop.get_by_text("Passkeys and devices").click()
    laptop.get_by_role("button", name="Sign in another device").click()
    field = laptop.get_by_label("Open this link on the other device")
    expect(field).to_have_value(re.compile(r"/#link="))  # filled when the server answers
    link = field.input_value()
    made = laptop.evaluate(TURN_BASED_TABLE)
    laptop.evaluate(
        "([id, token]) => localStorage.setItem(`nn-token-${id}`, token)",
        [made["table"], made["token"]],
    )
    plain = f"{url}/t/{made['table']}"  # the table's link as anyone has it: no token in it
    laptop.goto(plain)
    expect(laptop.locator("#seats")).to_contain_text("Ann (you)")
    expect(laptop.locator("#prompt")).to_contain_text("Your turn")

    # the phone, signed in to Ann's account by the link, opens the table's plain link: its
    # browser has no token for it, and the account's seat is opened there
    phone = with_passkeys(browser, "phone")
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.goto(link)
    expect(phone.locator("#account-state")).to_have_text("Signed in as Ann.")
    phone.goto(plain)
    expect(phone.locator("#seats")).to_contain_text("Ann (you)")
    expect(phone.locator("#prompt")).to_contain_text("Your turn")
    expect(phone.locator("#hand button.legal").first).to_be_visible()
    expect(phone.locator("#join-panel")).to_be_hidden()
    assert take_turn(phone)
    expect(phone.locator("#log")).to_contain_text("Ann plays ")
    expect(phone.locator("#prompt")).to_contain_text("Your turn")  # after the bot's move

    # the laptop's token opens nothing now: it says where the seat went, and does not take
    # it back by itself (the two devices would take it from each other in turn)
    expect(laptop.locator("#join-error")).to_have_text(
        "Your seat was opened on another device: reload this page to play here."
    )
    expect(laptop.locator("#hand button")).to_have_count(0)
    assert take_turn(phone)  # the phone plays on
    # a reload, as the laptop's page says, takes the seat back there
    laptop.reload()
    expect(laptop.locator("#seats")).to_contain_text("Ann (you)")
    expect(laptop.locator("#prompt")).to_contain_text("Your turn")
    expect(phone.locator("#join-error")).to_have_text(
        "Your seat was opened on another device: reload this page to play here."
    )

    # a guest who opens the link is offered to watch, as before
    guest = browser.new_context().new_page()
    guest.goto(plain)
    expect(guest.get_by_role("heading", name="This game has started")).to_be_visible()
    expect(guest.get_by_role("button", name="Just watch")).to_be_visible()
    guest.context.close()
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
