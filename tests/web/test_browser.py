"""The browser client, driven by Playwright in Debian's chromium against a real server."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.helpers import ServerThread
from tests.web.pages import create_table, over, play_one, take_turn
from tests.web.test_leaks import CN99_MOVING

CARD_NAME = re.compile(r"^(Ace|King|Queen|Jack|\d+) of (Spades|Hearts|Diamonds|Clubs)")
JOKER_NAME = re.compile(r"^(Small|Big) Joker")


@pytest.fixture
def web(make_server: Callable[..., ServerThread]) -> ServerThread:
    return make_server(bot_delay=0.0)


def test_two_players_in_two_browsers_play_to_the_end(
    browser: Browser, web: ServerThread, tmp_path: Path
) -> None:
    ann = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    house = tmp_path / "short.toml"  # an uploaded house-rules file: one life, a short game
    house.write_text('name = "Short"\npreset = "P"\n[rules]\nlives = 1\n')
    invite = create_table(ann, web.url, "Ann", 2, {}, house)
    expect(ann.locator("#rules-name")).to_contain_text("Short")
    bob.goto(invite)
    bob.locator("#join-panel").get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Take a seat").click()
    expect(bob.locator("#board")).to_be_visible()
    expect(ann.locator("#seats")).to_contain_text("Bob")
    watcher = browser.new_context().new_page()
    watcher.goto(invite)
    expect(watcher.get_by_role("button", name="Take a seat")).to_be_hidden()  # the table is full
    watcher.get_by_role("button", name="Just watch").click()
    expect(watcher.locator("#seats")).to_contain_text("Bob")
    expect(watcher.locator("#hand-section")).to_be_hidden()  # a spectator has no hand
    moves, reloaded = 0, False
    for _ in range(3000):
        if over(ann) and over(bob):
            break
        for page in (ann, bob):
            if play_one(page, keyboard=page is ann):
                moves += 1
                page.wait_for_timeout(30)
        if moves >= 4 and not reloaded:
            hand = ann.locator("#hand button").all_inner_texts()
            ann.reload()  # mid-game: the same seat, the same cards
            expect(ann.locator("#seats")).to_contain_text("Ann (you)")
            expect(ann.locator("#hand button")).to_have_count(len(hand))
            assert sorted(ann.locator("#hand button").all_inner_texts()) == sorted(hand)
            reloaded = True
        ann.wait_for_timeout(20)
    assert reloaded and over(ann) and over(bob), "the game did not finish"
    expect(ann.locator("#summary-text")).to_contain_text("win")
    expect(bob.locator("#summary")).to_contain_text("Game over")
    expect(bob.locator("#summary-last")).to_contain_text("out of the game")
    href = ann.locator("#record-link").get_attribute("href")
    assert href and httpx.get(web.url + href).status_code == 200
    assert ann.locator("#log li").count() > 5
    expect(watcher.locator("#summary")).to_be_visible()
    expect(watcher.locator("#rematch")).to_be_hidden()
    old_url = ann.url
    ann.get_by_role("button", name="Rematch").click()  # both players move to a new table
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.wait_for_url(lambda url: url != old_url and "/t/" in url)
        expect(page.locator("#seats")).to_contain_text(f"{name} (you)")
        expect(page.locator("#summary")).to_be_hidden()


def test_a_phone_sized_screen_shows_everything_and_plays(
    browser: Browser, web: ServerThread
) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = ctx.new_page()
    create_table(page, web.url, "Pip", 3, {2: "easy", 3: "easy"})
    expect(page.locator("#hand button")).not_to_have_count(0)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"
    for card in page.locator("#hand button").all():  # every card on screen, with a name
        box = card.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert CARD_NAME.match(card.get_attribute("aria-label") or "")
    expect(page.get_by_label("Running total")).to_be_visible()
    moves = 0
    for _ in range(100):
        if over(page) or moves >= 5:
            break
        if play_one(page):
            moves += 1
        page.wait_for_timeout(50)
    assert moves >= 5 or over(page)
    assert page.locator("#log li").count() > 3
    ctx.close()


def test_a_card_that_names_the_next_player_or_sets_a_total_asks_in_words(
    browser: Browser, web: ServerThread, tmp_path: Path
) -> None:
    page = browser.new_context().new_page()
    house = tmp_path / "names.toml"  # every card names who plays next...
    house.write_text(
        'preset = "TW"\n[rules.cards]\n'
        + "".join(
            f'{r} = "hold name"\n'
            for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        )
        + '[rules.suit_cards]\nAS = "+1"\n'
    )
    create_table(page, web.url, "Pip", 3, {2: "easy", 3: "easy"}, house)
    seats = page.locator("#seats strong").all_inner_texts()
    page.locator("#hand button.legal").first.click()
    choice = page.locator("#choice")
    expect(choice).to_be_visible()
    expect(choice).to_contain_text("who plays next?")
    options = choice.locator("button[data-action]")
    labels = options.all_inner_texts()
    assert labels == [s for s in seats if "(you)" not in s]  # the other players, by name
    assert "plays next" in (options.first.get_attribute("aria-label") or "")
    options.last.click()
    expect(choice).to_be_hidden()
    expect(page.locator("#log")).to_contain_text(f"Pip names {labels[-1]} to play next.")

    page = browser.new_context().new_page()
    house = tmp_path / "sets.toml"  # ...and every card sets any total
    house.write_text(
        'preset = "P"\n[rules.cards]\n'
        + "".join(
            f'{r} = "set-any"\n'
            for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        )
    )
    create_table(page, web.url, "Pip", 2, {2: "easy"}, house)
    page.locator("#hand button.legal").first.click()
    expect(page.locator("#choice")).to_contain_text("set the total to")
    number = page.get_by_label("New total, 0 to 99")
    number.fill("150")
    page.locator("#choice").get_by_role("button", name="Play").click()
    expect(page.locator("#error")).to_contain_text("Type a total from 0 to 99.")
    number.fill("42")
    number.press("Enter")
    expect(page.locator("#log")).to_contain_text(re.compile(r'Pip: "(back on you )?42"'))


SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
EVERY_RANK = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def test_a_swap_and_a_take_ask_in_words_and_show_the_cards_that_change_hands(
    browser: Browser, make_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    """CN99's 7 and J (FAMILIES.md §12, O46 and O47) as every card: the choice asks whose
    hand or whose card, a card back glides between the seats, and after a swap the seat
    that took the player's hand shows its cards face up (the player knows them)."""
    web = make_server(bot_delay=30.0)  # the bots wait: what is on screen is this move's
    for effect, question, moving in (
        ("swap", "whose hand do you take for yours?", 2),
        ("take", "whom do you take a card from?", 1),
    ):
        page = browser.new_context().new_page()
        house = tmp_path / f"{effect}.toml"
        house.write_text(
            'preset = "P"\n[rules.cards]\n'
            + "".join(f'{r} = "hold {effect}"\n' for r in EVERY_RANK)
        )
        create_table(page, web.url, "Pip", 3, {2: "easy", 3: "easy"}, house)
        seats = page.locator("#seats strong").all_inner_texts()
        hand = page.locator("#hand button").evaluate_all("bs => bs.map(b => b.dataset.card)")
        card = page.locator("#hand button.legal").first
        played = card.get_attribute("data-card")
        card.click()
        choice = page.locator("#choice")
        expect(choice).to_contain_text(question)
        options = choice.locator("button[data-action]")
        assert options.all_inner_texts() == seats[1:]  # the two others, by name
        options.last.click()
        expect(page.locator(".flying")).to_have_count(moving)  # the cards seen to move
        expect(page.locator(".flying")).to_have_count(0)
        known = page.locator("#seats li[data-seat='3'] .held .chip.known")
        if effect == "swap":
            expect(page.locator("#log")).to_contain_text(f"Pip swaps hands with {seats[2]}")
            given = {c[:-1] + SUIT_SIGNS[c[-1]] for c in hand if c != played}
            assert set(known.all_inner_texts()) == given
            label = page.locator("#seats li[data-seat='3'] .held").get_attribute("aria-label")
            assert label is not None and ", you know " in label
        else:  # taken unseen: nothing of that hand is known
            expect(page.locator("#log")).to_contain_text(
                f"Pip takes a card from {seats[2]}'s hand, unseen."
            )
            expect(known).to_have_count(0)


def test_a_swap_and_a_take_are_seen_from_both_seats(
    browser: Browser, make_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    """Two people at one table (FAMILIES.md §12, O46, O47): after a swap each sees, face up at
    the other's seat, the cards it gave away; after a take the victim sees the card it lost
    at the taker's seat, and the taker sees nothing of the victim's hand."""
    web = make_server()

    def hand_of(page: Page) -> list[str]:
        cards = page.locator("#hand button").evaluate_all("bs => bs.map(b => b.dataset.card)")
        return sorted(cards)

    def known_at(page: Page, seat: int) -> list[str]:
        chips = page.locator(f"#seats li[data-seat='{seat}'] .held .chip.known")
        return sorted(chips.all_inner_texts())

    def shown(cards: list[str]) -> list[str]:
        return sorted(c[:-1] + SUIT_SIGNS[c[-1]] for c in cards)

    for effect in ("swap", "take"):
        house = tmp_path / f"{effect}2.toml"
        house.write_text(
            'preset = "P"\n[rules.cards]\n'
            + "".join(f'{r} = "hold {effect}"\n' for r in EVERY_RANK)
        )
        pip = browser.new_context(reduced_motion="reduce").new_page()
        bob = browser.new_context(reduced_motion="reduce").new_page()
        invite = create_table(pip, web.url, "Pip", 2, {}, house)
        bob.goto(invite)
        bob.locator("#join-panel").get_by_label("Your name").fill("Bob")
        bob.get_by_role("button", name="Take a seat").click()
        pages, names = {1: pip, 2: bob}, {1: "Pip", 2: "Bob"}
        for page in pages.values():
            page.wait_for_function("() => document.querySelectorAll('#hand button').length")
        state = pip.locator("#board").get_attribute("data-state")
        actor = 1 if pip.locator("#hand button.legal").count() else 2
        victim = 3 - actor
        mover, other = pages[actor], pages[victim]
        mine, theirs = hand_of(mover), hand_of(other)
        card = mover.locator("#hand button.legal").first
        played = card.get_attribute("data-card")
        card.click()
        choice = mover.locator("#choice button[data-action]")
        if choice.count():  # (one seat to name: the play names it without asking)
            assert choice.all_inner_texts() == [names[victim]]
            choice.click()
        for page in pages.values():
            page.wait_for_function(
                "s => document.getElementById('board').dataset.state !== s", arg=state
            )
        rest = [c for c in mine if c != played]
        if effect == "swap":
            for page in pages.values():
                expect(page.locator("#log")).to_contain_text("swaps hands with")
            # each holds the other's old hand (and the mover a card drawn) and sees its own
            # old cards face up at the other's seat
            assert set(theirs) <= set(hand_of(mover)) and hand_of(other) == rest
            assert known_at(mover, victim) == shown(rest)
            assert known_at(other, actor) == shown(theirs)
        else:
            text = f"{names[actor]} takes a card from {names[victim]}'s hand, unseen."
            for page in pages.values():
                expect(page.locator("#log")).to_contain_text(text)
            lost = sorted(set(theirs) - set(hand_of(other)))
            assert len(lost) == 1 and lost[0] in hand_of(mover)
            assert known_at(other, actor) == shown(lost)  # the victim knows where it went
            assert known_at(mover, victim) == []  # the taker knows nothing of the rest
        pip.context.close()
        bob.context.close()


@pytest.mark.parametrize("rules", ["CN99", "moving"])
def test_a_whole_game_of_cn99_plays_to_its_end(
    browser: Browser, web: ServerThread, tmp_path: Path, rules: str
) -> None:
    """CN99 (the preset, with the jokers' strip and revival) and its plain game with the
    7's swap and the J's take alone (uploaded as a house-rules file), each played to its
    end by clicks against two bots."""
    page = browser.new_context().new_page()
    house = None
    if rules == "moving":
        house = tmp_path / "cn99.toml"
        house.write_text(CN99_MOVING)
    create_table(
        page, web.url, "Pip", 3, {2: "easy", 3: "easy"}, house, rules="P" if house else rules
    )
    moves, jokers = 0, set()
    while take_turn(page):
        moves += 1
        assert moves < 300, "the game did not end"
        held = page.locator("#hand button").evaluate_all(
            "bs => bs.map(b => b.getAttribute('aria-label'))"
        )
        for label in held:  # every card, the jokers too, reads as itself
            assert CARD_NAME.match(label) or JOKER_NAME.match(label), label
        jokers |= {m[0] for label in held if (m := JOKER_NAME.match(label))}
    expect(page.locator("#summary")).to_be_visible()
    assert over(page)
    assert jokers, "this seeded game dealt Pip no joker: it no longer shows that they play"


def test_an_extra_turn_shows_a_decline_button_only_while_it_may_be_declined(
    browser: Browser, web: ServerThread, tmp_path: Path
) -> None:
    page = browser.new_context().new_page()
    house = tmp_path / "again.toml"  # every card reverses: every play earns an extra turn
    house.write_text(
        'preset = "P-2P-AGAIN"\n[rules]\ntwo_player_reverse = '
        '"play_again_optional"\n[rules.cards]\n'
        + "".join(
            f'{r} = "hold reverse"\n'
            for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        )
    )
    # a friend in seat 2, not a bot: a bot that never declines would play on at 0 for ever
    # and push Pip's decline out of the log
    invite = create_table(page, web.url, "Pip", 2, {}, house)
    friend = browser.new_context().new_page()
    friend.goto(invite)
    friend.locator("#join-panel").get_by_label("Your name").fill("Quin")
    friend.get_by_role("button", name="Take a seat").click()
    expect(friend.locator("#board")).to_be_visible()
    decline = page.get_by_role("button", name="Decline the extra turn")
    expect(page.locator("#hand button.legal").first).to_be_visible()
    expect(decline).to_have_count(0)  # an ordinary turn: nothing to decline
    page.locator("#hand button.legal").first.click()
    expect(decline).to_be_visible()
    expect(page.locator("#prompt")).to_have_text(
        "Your turn. The reverse gives you another turn: play a card, or decline it."
    )
    decline.click()
    expect(page.locator("#log")).to_contain_text("Pip declines the extra turn.")
