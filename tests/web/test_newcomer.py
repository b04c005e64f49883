"""A newcomer's second hour (issue 24), in Debian's Chromium: a turn fits a laptop's screen
without scrolling (the hand, the prompt, a refused card's reason, the coach), the replay's
controls draw their own icons, cards read as A♦ in the talk and the errors, and the edges a
second hour runs into: the open hands of a replay, the phone's lobby, a dead table link,
seats that default to bots, the focus at the game's end, and a spectator's name in chat."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from ninetynine.records.position import position_from_mapping
from ninetynine.web.settings import Settings
from tests.web.conftest import ROOMY
from tests.web.helpers import FakeClock, ServerThread
from tests.web.pages import upload_record

SIZES = {"laptop": (1280, 800), "small laptop": (1366, 768), "phone": (390, 844)}
CARD_PLAYED = re.compile(r"^P1 plays (10|[2-9AJQK])[♠♥♦♣]\.$")
RECORD = Path(__file__).parents[1] / "golden" / "P.toml"  # a finished game's record


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module; the coach thinks briefly."""
    db = tmp_path_factory.mktemp("newcomer") / "web.sqlite3"
    server = ServerThread(
        Settings(
            database=str(db),
            grace=30.0,
            bot_delay=0.0,
            tick=0.02,
            clock=FakeClock(),
            seed=7,
            limits=dataclasses.replace(ROOMY, coach_playouts=40),
        )
    ).start()
    yield server
    server.stop()


def seated(
    browser: Browser, web: ServerThread, size: str, position: dict[str, Any], players: int = 4
) -> Page:
    """Ann's page at a table of bots, the game set to ``position`` (Ann to play)."""
    created = web.create(
        name="Ann", players=players, bots={str(s): "easy" for s in range(2, players + 1)}
    )
    table = web.lobby.tables[created["table"]]
    # set before Ann connects: the bots play only while somebody is at the table
    table.match.state = position_from_mapping({"rules": "P", "turn": 1, **position})
    width, height = SIZES[size]
    phone = size == "phone"
    page = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce",
    ).new_page()
    page.goto(web.url)
    page.evaluate(
        "([id, token]) => { localStorage.setItem(`nn-token-${id}`, token); "
        "localStorage.setItem('nn-coach', 'true'); }",  # the coach on, as left
        [created["table"], created["token"]],
    )
    page.goto(web.url + created["invite"])
    expect(page.locator("#hand button")).not_to_have_count(0)
    return page


def assert_in_view(page: Page, locator: Locator, what: str) -> None:
    """The element is on screen as the page stands: inside the viewport, not scrolled to."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box and size, f"{what} is not shown"
    assert (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    ), f"{what} is outside the {size['width']}x{size['height']} screen: {box}"


@pytest.mark.parametrize("size", SIZES)
def test_a_turn_fits_the_screen_and_a_refused_card_says_why_in_card_notation(
    size: str, browser: Browser, web: ServerThread
) -> None:
    page = seated(
        browser, web, size, {"total": 95, "hands": ["2C 8D 9H", "3C 4C 5C", "3D 4D 5D", "3H 4H 5H"]}
    )
    expect(page.locator("#coach-moves li.best")).to_have_count(1)  # the coach's figures
    page.get_by_role("button", name="8 of Diamonds").click()  # over the limit
    expect(page.locator("#error")).to_contain_text("would make 103, over 99")
    assert page.evaluate("scrollY") == 0  # nothing scrolled to show it
    assert_in_view(page, page.locator("#prompt"), "the prompt")
    for card in page.locator("#hand button").all():
        assert_in_view(page, card, f"the card {card.get_attribute('data-card')}")
    if size != "phone":  # a phone scrolls to the talk and the coach, under the hand
        assert_in_view(page, page.locator("#error"), "why the card cannot be played")
        assert_in_view(page, page.locator("#coach"), "the coach")
    expect(page.locator("#error")).to_have_text("8♦ would make 103, over 99")  # not '8D'
    page.get_by_role("button", name="2 of Clubs").click()
    expect(page.locator("#log")).to_contain_text("Ann plays 2♣.")  # not "2C"
    expect(page.locator("#log")).not_to_contain_text("2C")
    page.context.close()


def test_the_replay_fits_draws_its_own_icons_and_opens_every_hand_readably(
    browser: Browser, web: ServerThread
) -> None:
    page = browser.new_context(
        viewport={"width": 1366, "height": 768}, reduced_motion="reduce"
    ).new_page()
    page.goto(web.url)
    upload_record(page, RECORD)
    expect(page.locator("#replay-pos")).to_have_text("The deal")
    controls = {
        "One move forward": "Move 1 of",
        "To the end": "of",
        "One move back": "Move",
        "To the deal": "The deal",
    }  # each one enabled where it is clicked
    for name, after in controls.items():
        button = page.get_by_role("button", name=name)
        assert_in_view(page, button, f"the replay's {name!r} button")
        # the icon is a drawing, not a character some font may lack
        assert button.inner_text().strip() == "", f"{name!r} shows text, not an icon"
        icon = button.locator("svg path")
        expect(icon).to_have_count(1)
        drawn = icon.bounding_box()
        assert drawn and drawn["width"] >= 8 and drawn["height"] >= 10  # an icon, not a dot
        button.click()
        expect(page.locator("#replay-pos")).to_contain_text(after)
    assert_in_view(page, page.locator("#replay-pos"), "the replay's place")
    expect(page.get_by_label("Seen from")).to_have_value("")  # every hand open
    seat = page.locator("#seats li").nth(1)  # another player's hand, as it reads
    expect(seat.locator(".held")).to_have_text(re.compile(r"^((10|[2-9AJQK])[♠♥♦♣]\s*){3}$"))
    page.get_by_role("button", name="One move forward").click()
    expect(page.locator("#log li").nth(1)).to_have_text(CARD_PLAYED)  # "P1 plays 7♦."
    page.context.close()


def test_the_phone_lobby_shows_its_card_fan_whole(browser: Browser, web: ServerThread) -> None:
    page = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ).new_page()
    page.goto(web.url)
    hero = page.locator(".hero").bounding_box()
    assert hero
    border = 7  # the hero's wooden rail at this size
    cards = page.locator(".hero-card svg")
    expect(cards).to_have_count(5)
    for card in cards.all():
        box = card.bounding_box()
        assert (
            box
            and box["x"] >= hero["x"] + border
            and box["x"] + box["width"] <= hero["x"] + hero["width"] - border
        ), (box, hero)
    page.context.close()


def test_a_table_link_that_does_not_exist_says_so_and_leads_back(
    browser: Browser, web: ServerThread
) -> None:
    page = browser.new_page()
    page.goto(f"{web.url}/t/no-such-table")
    expect(page.get_by_role("heading", name="This table does not exist")).to_be_visible()
    expect(page.get_by_role("button", name="Take a seat")).to_be_hidden()
    page.get_by_role("link", name="Back to the lobby").click()
    expect(page.get_by_role("button", name="Play now against bots")).to_be_visible()
    page.context.close()


def test_create_at_once_plays_medium_bots_and_a_seat_may_still_wait_for_a_friend(
    browser: Browser, web: ServerThread
) -> None:
    page = browser.new_page()
    page.goto(web.url)
    lobby = page.locator("#lobby")
    for seat in (2, 3, 4):
        expect(lobby.get_by_label(f"Seat {seat}")).to_have_value("medium")
    lobby.get_by_label("Your name").fill("Ann")
    lobby.get_by_role("button", name="Create table").click()
    expect(page.locator("#seats")).to_contain_text("(medium)")
    expect(page.locator("#prompt")).not_to_contain_text("Waiting")  # the game is on
    page.goto(web.url)
    lobby.get_by_label("Seats", exact=True).fill("3")
    lobby.get_by_label("Seat 3").select_option("")  # a friend, by choice
    lobby.get_by_label("Seats", exact=True).fill("4")  # the choice is kept as seats change
    expect(lobby.get_by_label("Seat 3")).to_have_value("")
    lobby.get_by_role("button", name="Create table").click()
    expect(page.locator("#prompt")).to_have_text(
        "Waiting for 1 more player: send them the invite link."
    )
    page.context.close()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_at_the_game_over_the_result_is_in_view_and_has_the_focus(
    size: str, browser: Browser, web: ServerThread
) -> None:
    """Ann is out first; the bots play on to the end while she watches the hands end."""
    page = seated(
        browser,
        web,
        size,
        {"total": 95, "lives": [1, 1, 1], "hands": ["JS QH JD", "3C 4C 5C", "3D 4D 5D"]},
        players=3,
    )
    page.get_by_role("button", name="Lay down").click()
    while not page.locator("#summary").is_visible():
        next_hand = page.get_by_role("button", name="Next hand")
        if next_hand.is_visible():
            next_hand.click()  # as a person does, with the pointer
        page.wait_for_timeout(50)
    expect(page.locator("#summary-text")).to_contain_text("wins")
    expect(page.get_by_role("button", name="Rematch")).to_be_focused()
    assert_in_view(page, page.locator("#summary-text"), "who won")
    assert_in_view(page, page.get_by_role("button", name="Rematch"), "the rematch button")
    assert_in_view(page, page.get_by_role("banner"), "the page's header")
    page.context.close()


def test_a_spectator_chats_under_a_name_of_their_own(browser: Browser, web: ServerThread) -> None:
    created = web.create(name="Ann", players=2)  # one open seat: nothing moves meanwhile
    ann = web.client(created["table"], created["token"])
    watcher = browser.new_page()
    watcher.goto(f"{web.url}{created['invite']}?watch=1")
    expect(watcher.locator("#seats")).to_contain_text("Ann")
    watcher.get_by_label("Your name in the chat").fill("Zoe")
    watcher.get_by_label("Say something to the table").fill("good luck")
    watcher.get_by_label("Say something to the table").press("Enter")
    expect(watcher.locator("#log")).to_contain_text("Zoe (watching): good luck")
    line = ann.wait(lambda m: m["type"] == "chat")
    assert (line["name"], line["seat"]) == ("Zoe (watching)", None)
    spectator = web.client(created["table"], None)
    spectator.send({"type": "chat", "text": "hi", "name": "x" * 40})  # checked by the server
    error = spectator.error()
    assert error["code"] == "bad_name" and "1 to 24 printable characters" in error["message"]
    spectator.send({"type": "chat", "text": "hi"})  # no name: still a spectator
    assert ann.wait(lambda m: m["type"] == "chat" and m["text"] == "hi")["name"] == "Spectator"
    for client in (ann, spectator):
        client.close()
    watcher.context.close()
