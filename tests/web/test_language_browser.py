"""The browser table in the language the browser asks for (Accept-Language), changed with
the selector and remembered: the page's own sentences, the client's prompts and card
names, and the core's counters, all from the game's catalogs; what a person sees."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from ninetynine.language import Language
from ninetynine.records.record import parse_record
from ninetynine.web.wire import replay_json
from tests.web.conftest import ROOMY
from tests.web.helpers import ServerThread
from tests.web.pages import (
    READY,
    assert_accessible,
    assert_no_overflow,
    assert_no_sideways_scroll,
    assert_screen,
    play_to_hand_end,
    take_turn,
    upload_record,
)
from tests.web.test_account_browser import with_passkeys

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_the_table_speaks_the_browser_s_language_and_the_chosen_one_is_remembered(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    web = make_server(bot_delay=0.0, seed=99)
    context = browser.new_context(locale="th-TH", reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.url)

    expect(page.locator("html")).to_have_attribute("lang", "th")
    expect(page.locator("#hero-h")).to_have_text("รักษายอดรวมไว้ไม่เกิน 99")
    selector = page.get_by_label("ภาษา")
    expect(selector).to_have_value("th")
    expect(selector.locator("option")).to_have_text(
        ["English", "繁體中文（台灣）", "ไทย", "Íslenska", "Español", "Deutsch", "Français"]
    )
    page.locator("#lobby").get_by_label("ชื่อของคุณ").fill("Ann")
    page.get_by_role("button", name="เล่นกับบอทเลย").click()
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => document.querySelector('#hand button.legal')")
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^ตาคุณแล้ว"))
    # the cards named in Thai (the core's words), and the seats' counters in Thai plurals
    suit = re.compile("โพดำ|โพแดง|ข้าวหลามตัด|ดอกจิก")
    expect(page.locator("#hand button").first).to_have_attribute("aria-label", suit)
    expect(page.locator("#seats .lives").first).to_have_attribute("aria-label", "5 เพนนี")
    expect(page.get_by_role("button", name="ออกจากโต๊ะ")).to_be_visible()
    take_turn(page)
    # the table talk, narrated by the server for this connection, in Thai too
    expect(page.locator("#log li").first).to_have_text(re.compile("[\u0e00-\u0e7f]"))

    # the choice is kept in this browser, over the Accept-Language the browser sends
    page.get_by_label("ภาษา").select_option("de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("button", name="Tisch verlassen")).to_be_visible()
    page.wait_for_function("() => document.querySelector('#hand button.legal')")
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^Du bist dran"))
    expect(page.locator("#log")).to_contain_text("spielt")
    page.goto(web.url)
    expect(page.get_by_role("button", name="Jetzt gegen Bots spielen")).to_be_visible()
    expect(page.get_by_label("Sprache")).to_have_value("de")
    assert not errors, errors
    context.close()


LANGUAGES = ["zh-TW", "th", "is", "es", "de", "fr"]  # English: tests/web/test_screens.py
SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
# a short game: two seats of two lives, so a hand ends and the game is over in a few hands
SHORT = 'name = "Short"\npreset = "P"\n[rules]\nlives = 2\n'


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_plays_a_whole_game_that_fits_and_reads_well(
    lang: str,
    size: str,
    browser: Browser,
    make_server: Callable[..., ServerThread],
    tmp_path: Path,
) -> None:
    # a whole game against a bot by clicking, in each language at a phone's size and a
    # laptop's: the lobby, the table, a choice, a hand's end and the game over as their
    # baselines (looked at: the fonts setup-system.sh installs, no missing glyph), no text
    # out of its box, no sideways scrolling, nothing serious for axe-core
    web = make_server(bot_delay=0.0, seed=99)
    width, height = SIZES[size]
    context = browser.new_context(
        locale=lang,
        viewport={"width": width, "height": height},
        reduced_motion="reduce",
        is_mobile=size == "phone",
        has_touch=size == "phone",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.url)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#rules option")).not_to_have_count(0)

    def check(screen: str) -> None:
        page.mouse.move(0, 0)  # no card raised under the pointer
        # the picture first: a hand's end is shown for a few seconds only
        assert_screen(page, f"{screen}-{lang}-{size}", tmp_path)
        assert_no_overflow(page, screen)
        assert_no_sideways_scroll(page, screen)
        assert_accessible(page, screen)

    check("lobby")
    house = tmp_path / "short.toml"
    house.write_text(SHORT)
    page.locator("#name").fill("Ann")  # (by id: every label is in the language)
    page.locator("#players").fill("2")
    page.locator("#seat-2").select_option("easy")
    page.locator("#create-form details.house summary").click()
    page.locator("#house").set_input_files(str(house))
    page.locator("#create").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    take_turn(page)
    page.wait_for_function("() => document.querySelector('#hand button.legal')")
    check("table")
    chose = False

    def choice_once() -> None:
        """The first time a card with two values may be played: the choice it asks."""
        nonlocal chose
        page.wait_for_function(READY)
        two_way = page.locator("#hand button.legal", has_text="/")
        if chose or page.locator("#next-hand").is_visible() or not two_way.count():
            return
        two_way.first.click()
        expect(page.locator("#choice")).to_be_visible()
        check("choice")
        page.keyboard.press("Escape")
        expect(page.locator("#choice")).to_be_hidden()
        chose = True

    choice_once()
    play_to_hand_end(page)
    check("hand-end")
    while not page.locator("#summary").is_visible():
        choice_once()
        if not take_turn(page):
            break
    expect(page.locator("#summary")).to_be_visible()
    check("game-over")
    assert chose, "no card with two values came to be played: no choice was seen"
    assert not errors, errors
    context.close()


# English words a translated page should not show (German nouns are capitalized, so the
# lowercase English ones stand out); the presets' own names and descriptions are data
ENGLISH = re.compile(
    r"\b(the|of|and|to|with|or|is|are|hand|move|seat|seats|view|deal|coach|wins?|plays?|"
    r"review|decisions?|choices|tables?|join|watch|none|hours|days|bot|friend|playing|replay|"
    r"record|file|turn|clock|thinking|tied|note|game|cost|played|holds|reverses|skips|sets)\b"
)
PANEL_TEXT = """(sel) => {
  const box = document.querySelector(sel), out = [];
  for (const e of box.querySelectorAll("*")) {
    if (e.closest("#rules, #rules-desc, #club-table-rules")) continue;  // the presets: data
    for (const n of e.childNodes) {
      if (n.nodeType === 3 && n.textContent.trim()) out.push(n.textContent.trim());
    }
    for (const a of ["aria-label", "placeholder"]) {
      if (e.getAttribute(a)) out.push(e.getAttribute(a));
    }
  }
  return out;
}"""


def english_left(page: Page, selector: str) -> list[str]:
    """The lines of text (and labels) in ``selector`` with an English word in them."""
    lines: list[str] = page.evaluate(PANEL_TEXT, selector)
    return [line for line in lines if ENGLISH.search(line.split(" · ")[0])]


def test_the_lobby_panels_replay_coach_and_card_labels_speak_german(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    # issue 29: beyond the first screen, every panel a German page shows is German: the
    # lobby's tables, set-up form and replay panel, the cards' corner labels, the coach's
    # figures, and a replay's bar, talk, calls (bubbles) and review
    limits = dataclasses.replace(ROOMY, review_playouts=10)
    web = make_server(bot_delay=0.0, seed=99, limits=limits)
    context = browser.new_context(locale="de-DE", reduced_motion="reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web.url)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#rules option")).not_to_have_count(0)
    expect(page.locator("#feed-state")).to_have_text(
        "Gerade keine öffentlichen Tische: eröffne einen oder spiel gegen die Bots."
    )
    expect(page.locator("#seat-2 option")).to_contain_text(["ein Freund (einladen)", "Bot: mittel"])
    expect(page.get_by_role("heading", name="Eine Wiederholung ansehen")).to_be_visible()
    page.locator(".lobby-grid details summary").click()  # the house rules, opened
    assert english_left(page, ".lobby-grid") == []

    # a table: the cards' corner labels and the coach in German
    page.locator("#lobby").get_by_label("Dein Name").fill("Ann")
    page.get_by_role("button", name="Jetzt gegen Bots spielen").click()
    page.wait_for_url("**/t/**")
    page.wait_for_function("() => document.querySelector('#hand button.legal')")
    page.get_by_role("button", name="Trainer").click()
    figures = page.locator("#coach li .figures")
    expect(figures.first).to_be_visible(timeout=15000)
    expect(figures.first).to_have_text(re.compile(r"^Runde \d+\s%( · Spiel \d+\s%)?$"))
    for _ in range(4):
        take_turn(page)
    page.wait_for_function("() => document.querySelector('#hand button.legal')")
    tags = page.locator("#hand .tag, #hand .after").all_inner_texts()
    assert not [t for t in tags if ENGLISH.search(t)], tags
    assert english_left(page, "#coach") == []
    assert english_left(page, "#hand") == []

    # a replay of an uploaded record, in German: its bar, talk, calls and review
    record = GOLDEN / "P.toml"
    steps = replay_json(parse_record(record.read_text(encoding="utf-8")), None, Language.DE)
    worded = next(
        s for s in steps["steps"] if any(re.search("[a-z]", c["call"]) for c in s["calls"])
    )
    page.goto(web.url)
    upload_record(page, record)
    expect(page.locator("#replay-pos")).to_have_text("Das Geben")
    expect(page.locator("#rules-name")).to_have_text(re.compile("^Wiederholung · "))
    expect(page.locator("#replay-seat option").first).to_have_text("Alle Hände offen")
    page.get_by_role("button", name="Einen Zug vor").click()
    expect(page.locator("#replay-pos")).to_have_text(f"Zug 1 von {len(steps['steps']) - 1}")
    expect(page.locator("#log")).to_contain_text("spielt")
    page.locator("#replay-step").fill(str(worded["step"]))
    call = worded["calls"][-1]
    bubble = page.locator(f'#seats li[data-seat="{call["seat"]}"] .bubble')
    expect(bubble).to_have_text(call["call"])
    expect(page.locator("#seats .held").first).to_have_attribute("aria-label", re.compile("^hält "))
    page.get_by_role("button", name="Zum Ende").click()
    expect(page.locator("#replay-end")).to_have_text(re.compile(r"gewinnt|gewinnen|Niemand"))
    assert english_left(page, "#replay-bar") == []
    assert english_left(page, "#log") == []
    page.locator("#replay-seat").select_option("1")
    page.get_by_role("button", name="Die Entscheidungen von P1 mit dem Trainer analysieren").click()
    expect(page.locator("#review-status")).to_have_text(
        re.compile(r"^P1 hatte \d+ echte"), timeout=60000
    )
    assert english_left(page, "#replay-bar") == []
    assert not errors, errors
    context.close()


def test_the_accounts_and_clubs_panels_speak_german(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    # issue 29: the accounts panel (as a guest, its forms, signed in) and a club's panels,
    # in the lobby and on its own page, show no English sentence on a German page
    web = make_server(secure_cookies=False, seed=99)
    page = with_passkeys(browser, locale="de-DE")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"http://localhost:{web.port}")  # (a relying party's id must be a name)
    expect(page.locator("#account-state")).to_have_text("Du spielst als Gast.")
    expect(page.get_by_role("button", name="Registrieren")).to_be_visible()
    assert english_left(page, "#account") == []  # the hidden forms too
    page.locator("#sign-up").click()
    page.locator("#account-name").fill("Ann")
    page.locator("#sign-up-form button[type=submit]").click()
    expect(page.locator("#recovery-h")).to_have_text(
        "Schreib dir diesen Wiederherstellungscode jetzt auf"
    )
    page.locator("#recovery-done").click()
    expect(page.locator("#account-state")).to_have_text("Angemeldet als Ann.")
    expect(page.locator("#account-passkeys")).to_have_text("Dieses Konto hat 1 Passkey.")
    assert english_left(page, "#account") == []
    expect(page.locator("#my-games-list")).to_contain_text("Keine Spiele im Gang")
    assert english_left(page, "#my-games") == []

    page.locator("#club-form button[type=submit]").click()
    expect(page.locator("#club-error")).to_have_text("Gib zuerst einen Namen für den Klub ein.")
    page.locator("#club-name").fill("Skatrunde")
    page.locator("#club-form button[type=submit]").click()
    expect(page.locator("#club-list")).to_contain_text("Skatrunde 1 Mitglied, deiner")
    page.locator("#club-list button", has_text="Rangliste").click()
    expect(page.locator("#club-list")).to_contain_text("noch keine gewerteten Spiele")
    assert english_left(page, "#clubs") == []
    page.locator("#club-list a").click()
    expect(page.locator("#club-title")).to_have_text("Skatrunde")
    expect(page.locator("#club-role")).to_have_text("1 Mitglied · du bist sein Besitzer")
    expect(page.locator("#club-tables-state")).to_have_text(
        "Keine Tische im Gang: eröffne einen für den Klub."
    )
    assert english_left(page, "#club-page") == []
    assert not errors, errors
    page.context.close()


def test_a_live_call_s_bubble_is_in_the_page_s_language(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    # a call at a live table: its bubble shows what the server says it is in this
    # connection's language (``said``), not the call as written for programs (``call``)
    web = make_server(bot_delay=0.0, seed=99)
    context = browser.new_context(locale="de-DE", reduced_motion="reduce")
    page = context.new_page()
    calls: list[dict[str, object]] = []

    def frames(ws: object) -> None:
        def heard(payload: str | bytes) -> None:
            msg = json.loads(payload)
            calls.extend(e for e in msg.get("events", []) if e.get("kind") == "TotalCalled")

        ws.on("framereceived", heard)  # type: ignore[attr-defined]

    page.on("websocket", frames)
    page.goto(web.url)
    page.locator("#lobby").get_by_label("Dein Name").fill("Ann")
    page.get_by_role("button", name="Jetzt gegen Bots spielen").click()
    page.wait_for_url("**/t/**")
    worded = None
    for _ in range(60):
        if not take_turn(page):
            break
        worded = next((c for c in calls if re.search("[a-z]", str(c["call"]))), None)
        if worded:
            break
    assert calls, "no call was heard"
    assert all("said" in c for c in calls), calls
    assert worded is not None, calls
    assert worded["said"] != worded["call"]
    assert not ENGLISH.search(str(worded["said"])), worded
    last = calls[-1]
    bubble = page.locator(f'#seats li[data-seat="{last["seat"]}"] .bubble')
    expect(bubble).to_have_text(str(last["said"]))
    context.close()


def test_a_refusal_the_server_sends_is_shown_in_the_page_s_language(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    # a person who opened an invite link while the last seat was free, and clicks to take it
    # after somebody else did: the server's refusal is read in the language chosen in the
    # page (French here, over the browser's German), as the page's own words are
    web = make_server(seed=99)
    created = web.create(name="Ann", rules="P", players=2)
    context = browser.new_context(locale="de-DE", reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{web.url}/t/{created['table']}")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.locator("#language").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#join")).to_be_visible()
    # the seat nobody has taken yet is named in the page's language too
    expect(page.locator("#join-rules")).to_have_text(re.compile(r" · Ann, Place 2$"))
    web.join(created["table"], "Bob")
    page.locator("#join").click()
    expect(page.locator("#join-error")).to_have_text(
        "Toutes les places de cette table sont prises."
    )
    context.close()
