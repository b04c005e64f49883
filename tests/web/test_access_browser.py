"""Play by ear and by keyboard (issue 29): a whole game with the keyboard alone and the
screen-reader mode on, whose live region must say every event once, in order, in words;
the four-colour deck; the page at 200% text size."""

from __future__ import annotations

import re
from collections.abc import Callable
from io import BytesIO

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from ninetynine.engine.events import narrate
from ninetynine.records.match import steps
from ninetynine.rules.cards import SUIT_SYMBOLS, SUITS, card_name, parse_card
from tests.web.helpers import ServerThread
from tests.web.pages import (
    READY,
    assert_accessible,
    assert_no_overflow,
    assert_no_sideways_scroll,
    await_turn,
    create_table,
)

# what a screen reader is given: every entry added to the page's log region, as it is added
HEAR = """() => {
  window.heard = [];
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent);
  }).observe(document.getElementById("reader"), { childList: true });
}"""
CARD = re.compile(r"(10|[2-9AJQK])([" + "".join(SUIT_SYMBOLS) + "])")
SUIT_WORDS = re.compile(r"of (Spades|Hearts|Diamonds|Clubs)")


@pytest.fixture
def web(make_server: Callable[..., ServerThread]) -> ServerThread:
    return make_server(bot_delay=0.0)


def in_words(line: str) -> str:
    """A line of table talk with its cards in words, as the core names them (but a number
    card's rank in figures, as the page's buttons name it: "7 of Hearts", read alike)."""

    def words(m: re.Match[str]) -> str:
        name = card_name(parse_card(m[1] + SUITS[SUIT_SYMBOLS.index(m[2])]))
        return m[1] + name[name.index(" ") :] if m[1].isdigit() else name

    return CARD.sub(words, line)


def tab_to(page: Page, test: str) -> None:
    """Press Tab until the focused element passes ``test`` (a JS expression of ``e``)."""
    for _ in range(150):
        if page.evaluate(
            f"(() => {{ const e = document.activeElement; return !!e && ({test}); }})()"
        ):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached an element where {test}")


def key_turn(page: Page) -> bool:
    """This seat's next move with the keyboard alone (going past hand ends); False once
    the game is over."""

    def next_hand() -> None:
        expect(page.locator("#next-hand")).to_be_focused()  # the pause hands focus to it
        page.keyboard.press("Enter")

    if not await_turn(page, next_hand):
        return False
    state = page.locator("#board").get_attribute("data-state")
    legal = page.locator("#hand button").evaluate_all(
        "bs => bs.findIndex((b) => b.classList.contains('legal'))"
    )
    if 0 <= legal < 9:
        page.keyboard.press(str(legal + 1))  # a card by its place in the hand
    else:  # nothing to play: lay down (or pass) from the buttons under the hand
        tab_to(page, "e.closest('#extra')")
        page.keyboard.press("Enter")
    if page.locator("#choice").is_visible():
        expect(page.locator("#choice button[data-action]").first).to_be_focused()
        page.keyboard.press("Enter")
    page.wait_for_function("s => document.getElementById('board').dataset.state !== s", arg=state)
    return True


def test_a_whole_game_by_keyboard_alone_with_every_event_read_once_in_order(
    browser: Browser, web: ServerThread
) -> None:
    page = browser.new_page()
    page.goto(web.url)
    tab_to(page, "e.id === 'name'")
    page.keyboard.type("Kay")
    tab_to(page, "e.id === 'play-now'")
    page.keyboard.press("Enter")  # you and three bots
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator("#board")).to_be_visible()
    reader = page.get_by_role("button", name="Screen reader")
    expect(reader).to_have_attribute("aria-pressed", "false")  # off until asked for
    page.evaluate(HEAR)
    tab_to(page, "e.id === 'reader-toggle'")
    page.keyboard.press("Enter")
    expect(reader).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_role("log", name="Table events, read aloud")).to_be_attached()
    moves = 0
    while key_turn(page):
        moves += 1
    assert moves > 5
    expect(page.locator("#summary")).to_contain_text("Game over")
    page.wait_for_timeout(300)  # (the last frame's lines are added as it is shown)
    heard: list[str] = page.evaluate("window.heard")

    # what the server says happened, from the table's record, with the cards in words
    table = web.lobby.tables[page.url.rsplit("/", 1)[1]]
    record = table.match.record()
    names = record.names or []
    _, events = steps(record)
    said = [in_words(t) for e in events if (t := narrate(e, names, record.start.rules))]
    cues = [line for line in heard if line not in said]
    assert set(cues) <= {"Your turn."}, f"read but not an event: {set(cues) - {'Your turn.'}}"
    told = [line for line in heard if line in said]
    assert told, "nothing was read"
    first = len(said) - len(told)  # read from the turning on of the mode to the end
    assert told == said[first:], "the events were not read once each, in order"
    assert first < len(said) // 2, "most of the game was not read"
    assert not any(CARD.search(line) for line in heard), "a card was read as its symbols"
    assert any(SUIT_WORDS.search(line) for line in told)
    assert heard.count("Your turn.") >= moves // 2
    # and the rest of the page says nothing twice: the polite region stayed quiet
    expect(page.locator("#announce")).to_have_text("")


def test_the_four_colour_deck_paints_diamonds_blue_and_clubs_green(
    browser: Browser, web: ServerThread
) -> None:
    page = browser.new_page()
    create_table(page, web.url, "Dee", 2, {2: "easy"})

    def inked(face: str, rgb: tuple[int, int, int]) -> int:
        """How many pixels of a card's face, as drawn on screen, are near ``rgb``: its
        top half (its index and pips; the label of what it does lies across the bottom)."""
        shot = Image.open(BytesIO(page.locator(face).screenshot())).convert("RGB")
        top = shot.crop((0, 0, shot.width, shot.height * 45 // 100))
        pixels = getattr(top, "get_flattened_data", top.getdata)()
        return sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, rgb, strict=True)) < 60)

    page.wait_for_function(READY)
    cards = page.locator("#hand button").evaluate_all(
        "bs => bs.map((b) => [b.dataset.card, b.getAttribute('aria-label') || b.textContent])"
    )
    suits = {card[-1]: card for card, _ in cards}
    toggle = page.get_by_role("button", name="Four colours")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    blue, green, red, black = (
        (0x1A, 0x4F, 0xB0),
        (0x16, 0x70, 0x3A),
        (0xC0, 0x18, 0x2B),
        (0x16,) * 3,
    )
    for suit, rgb, before in (("D", blue, red), ("C", green, black)):
        if suit not in suits:
            continue
        button = f'#hand button[data-card="{suits[suit]}"] svg.face'
        assert inked(button, rgb) == 0 and inked(button, before) > 50
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        assert inked(button, rgb) > 50, f"{suit} is not drawn in its fourth colour"
        toggle.click()  # and back
        expect(toggle).to_have_attribute("aria-pressed", "false")
        assert inked(button, rgb) == 0
    assert {"D", "C"} & set(suits), f"the seeded deal has neither diamonds nor clubs: {cards}"
    toggle.click()
    page.reload()  # remembered
    expect(page.get_by_role("button", name="Four colours")).to_have_attribute(
        "aria-pressed", "true"
    )


def test_the_table_is_usable_at_twice_the_text_size(browser: Browser, web: ServerThread) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    # the browser's own text size setting at 200% (16 px is the default)
    ctx.new_cdp_session(page).send(
        "Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}}
    )
    create_table(page, web.url, "Tex", 3, {2: "easy", 3: "easy"})
    page.wait_for_function(READY)
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 30, f"the page does not follow the browser's text size ({size}px)"
    assert_no_sideways_scroll(page, "table at 200% text")
    assert_no_overflow(page, "table at 200% text")
    assert_accessible(page, "table at 200% text")
    card = page.locator("#hand button.legal").first
    expect(card).to_be_visible()
    state = page.locator("#board").get_attribute("data-state")
    card.click()
    if page.locator("#choice").is_visible():
        page.locator("#choice button[data-action]").first.click()
    page.wait_for_function("s => document.getElementById('board').dataset.state !== s", arg=state)
