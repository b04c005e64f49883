"""Driving the browser client as a person does: create a table, play a move, and check
what every screen must satisfy (no sideways scrolling, no serious accessibility fault, the
same picture as its baseline)."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from PIL import Image, ImageChops
from playwright.sync_api import Locator, Page, expect

BASELINES = Path(__file__).parent / "screens"
UPDATE_ENV = "NINETYNINE_UPDATE_SCREENS"  # =1 rewrites the baselines (look at them first)
PIXEL_DELTA = 40  # a channel difference at most this big is antialiasing, not a change
MAX_CHANGED = 0.004  # the share of pixels that may differ beyond PIXEL_DELTA


def create_table(
    page: Page,
    url: str,
    name: str,
    players: int,
    bots: dict[int, str],
    house_rules: Path | None = None,
    rules: str = "P",
    public: bool = False,
) -> str:
    """Set a table up through the lobby's form, ``bots`` at their seats and friends invited
    to the others; returns the invite link."""
    page.goto(url)
    lobby = page.locator("#lobby")
    lobby.get_by_label("Your name").fill(name)
    lobby.get_by_label("Rules", exact=True).select_option(rules)
    if house_rules:
        lobby.get_by_text("House rules", exact=True).click()
        lobby.get_by_label("A house-rules file").set_input_files(str(house_rules))
    lobby.get_by_label("Seats", exact=True).fill(str(players))
    for seat in range(2, players + 1):  # a seat not given a bot waits for a friend
        lobby.get_by_label(f"Seat {seat}").select_option(bots.get(seat, ""))
    if public:
        lobby.get_by_label("List it here").check()
    lobby.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator("#board")).to_be_visible()
    return page.locator("#invite").input_value()


def upload_record(page: Page, record: Path) -> None:
    """Choose a game's record in the lobby's replay panel once the lobby shows, as a person
    can (before, the page is still loading its language and answers no choice)."""
    expect(page.locator("#lobby")).to_be_visible()
    page.locator("#record-file").set_input_files(str(record))


def play_one(page: Page, keyboard: bool = False) -> bool:
    """Make one move if it is this page's turn (going on past the end of a hand); True if
    something was clicked."""
    if page.locator("#next-hand").is_visible():
        page.locator("#next-hand").click()
        return True
    choice = page.locator("#choice")
    if choice.is_visible():
        choice.locator("button[data-action]").first.click()
        return True
    cards = page.locator("#hand button.legal")
    if cards.count():
        if keyboard:
            cards.first.focus()
            page.keyboard.press("Enter")
        else:
            cards.first.click()
        return True
    extra = page.locator("#extra button")
    if extra.count():
        extra.first.click()
        return True
    return False


READY = """() => {
  const shown = (id) => !document.getElementById(id).closest("[hidden]");
  return shown("next-hand") || shown("summary") ||
    !!document.querySelector("#hand button.legal, #extra button");
}"""


def await_turn(page: Page, next_hand: Callable[[], None] | None = None) -> bool:
    """Wait for this seat's turn, going past the ends of hands (``next_hand``: how, by
    default a click on Next hand); False once the game is over."""
    while True:
        page.wait_for_function(READY)
        if page.locator("#summary").is_visible():
            return False
        if not page.locator("#next-hand").is_visible():
            return True
        (next_hand or page.locator("#next-hand").click)()


def take_turn(page: Page) -> bool:
    """Wait for this seat's turn, going past the ends of hands, and make its first legal
    move (the first value of a choice); False once the game is over. The same clicks at
    the same states, so a seeded game goes the same way every time."""
    if not await_turn(page):
        return False
    state = page.locator("#board").get_attribute("data-state")
    cards = page.locator("#hand button.legal")
    (cards if cards.count() else page.locator("#extra button")).first.click()
    if page.locator("#choice").is_visible():
        page.locator("#choice button[data-action]").first.click()
    page.wait_for_function("s => document.getElementById('board').dataset.state !== s", arg=state)
    return True


def play_to_hand_end(page: Page) -> None:
    """Make this seat's moves until a hand's end is on screen: the first one from here,
    however fast the bots play. After each move it waits for what comes next for this
    seat (its turn or the hand's end) before looking: looking at once would miss a hand
    that a bot ends a few plays later, and :func:`take_turn` would play through it."""
    while True:
        page.wait_for_function(READY)
        assert not page.locator("#summary").is_visible(), "the game ended before a hand did"
        if page.locator("#next-hand").is_visible():
            return
        take_turn(page)


def over(page: Page) -> bool:
    return page.locator("#summary").is_visible()


def assert_no_sideways_scroll(page: Page, screen: str) -> None:
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert sizes[0] <= sizes[1], f"{screen}: the page scrolls sideways ({sizes[0]} > {sizes[1]})"


def assert_accessible(page: Page, screen: str) -> None:
    """axe-core finds nothing serious or critical on the page as it is."""
    result = Axe().run(page)
    bad = [v for v in result.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{screen}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in bad
    )


def settled_screenshot(page: Page, mask: list[Locator], tries: int = 10) -> bytes:
    """The whole page once it has stopped changing: every fetch it started has come back
    (the lobby's lists arrive one after another) and two pictures in a row are the same but
    for antialiasing noise (Chromium's gradients move a pixel by a step or two)."""
    page.wait_for_load_state("networkidle")
    last = None
    for _ in range(tries):
        png = page.screenshot(full_page=True, mask=mask, animations="disabled", caret="hide")
        picture = Image.open(io.BytesIO(png)).convert("RGB")
        if last is not None and not changed(picture, last).getbbox():
            return png
        last = picture
    raise AssertionError(f"the page kept changing over {tries} screenshots")


def changed(new: Image.Image, old: Image.Image) -> Image.Image:
    """White where a pixel differs by more than antialiasing, black elsewhere."""
    if new.size != old.size:
        return Image.new("L", new.size, 255)
    over = ImageChops.difference(new, old).point(lambda v: 255 if v > PIXEL_DELTA else 0)
    return over.convert("L").point(lambda v: 255 if v else 0)  # any channel over


def assert_screen(page: Page, name: str, tmp: Path, mask: list[Locator] | None = None) -> None:
    """The page looks like its committed baseline, within antialiasing noise. With
    NINETYNINE_UPDATE_SCREENS=1 the baseline is rewritten instead."""
    shot = tmp / f"{name}.png"
    shot.write_bytes(settled_screenshot(page, mask or []))
    baseline = BASELINES / f"{name}.png"
    if os.environ.get(UPDATE_ENV) == "1":
        BASELINES.mkdir(exist_ok=True)
        # in 256 colours, a fifth of the bytes: the palette moves a pixel by less than
        # PIXEL_DELTA (but a few in a hundred thousand), which the comparison forgives
        picture = Image.open(shot).convert("RGB")
        picture.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
            baseline, optimize=True
        )
        return
    assert baseline.exists(), f"no baseline {baseline}: run with {UPDATE_ENV}=1 to make it"
    new, old = Image.open(shot).convert("RGB"), Image.open(baseline).convert("RGB")
    assert new.size == old.size, f"{name}: {new.size} is not the baseline's {old.size} ({shot})"
    diff = changed(new, old)
    share = 1 - diff.histogram()[0] / (new.size[0] * new.size[1])
    if share > MAX_CHANGED:
        diff.save(tmp / f"{name}-diff.png")
        raise AssertionError(
            f"{name}: {share:.2%} of the pixels differ from {baseline} (see "
            f"{shot} and its -diff.png); if the change is meant, run with "
            f"{UPDATE_ENV}=1"
        )


def assert_no_overflow(page: Page, screen: str) -> None:
    """No visible text sticks out of its box (a longer translation, a wider script): the
    elements holding text of their own, and wider than a screen reader's 1px text."""
    spill = page.evaluate(
        """() => [...document.querySelectorAll(
              'button, a.button, label, h1, h2, h3, p, th, td, li, summary, legend')]
            .filter((e) => e.offsetParent !== null && e.clientWidth > 1  // not visually hidden
                           && [...e.childNodes].some((c) => c.nodeType === 3 && c.data.trim())
                           && e.scrollWidth > e.clientWidth + 1)
            .map((e) => `${e.tagName.toLowerCase()}#${e.id}: ${e.textContent.slice(0, 40)}`)"""
    )
    assert not spill, f"{screen}: text overflows its box: {spill}"
