"""The browser table as a person uses it: a whole game against a bot by clicking, what the
cards say (the engine's totals and reasons), calls, chat, the live lobby and replays."""

from __future__ import annotations

import dataclasses
import math
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ninetynine.coach import advice_json, advise
from ninetynine.engine.options import card_options, stuck_explanation
from ninetynine.records.record import format_record
from ninetynine.rules.cards import format_card
from ninetynine.web.wire import review_replay_json
from tests.web.conftest import ROOMY
from tests.web.helpers import ServerThread, play_game
from tests.web.pages import READY, create_table, over, take_turn, upload_record


@pytest.fixture
def web(make_server: Callable[..., ServerThread]) -> ServerThread:
    return make_server(bot_delay=0.0)


def table_of(web: ServerThread, page: Page):  # type: ignore[no-untyped-def]
    return web.lobby.tables[page.url.rsplit("/", 1)[1].split("?")[0]]


def engine_totals(web: ServerThread, page: Page) -> dict[str, str] | None:
    """What each card should say now, from the server's own state: the totals its plays
    make, as the page writes them; None unless seat 1 is to play."""
    state = table_of(web, page).state
    if state.current_seat != 0:
        return None
    out = {}
    for o in card_options(state, 0):
        totals = list(dict.fromkeys(t for _, t in o.plays))
        out[format_card(o.card)] = (
            "" if not totals else "any" if len(totals) > 3 else " / ".join(map(str, totals))
        )
    return out


def shown_totals(page: Page) -> dict[str, str]:
    return page.evaluate("""Object.fromEntries([...document.querySelectorAll('#hand button')]
        .map((b) => [b.dataset.card, b.querySelector('.after')?.textContent || '']))""")


def test_a_whole_game_against_a_bot_by_clicking(browser: Browser, web: ServerThread) -> None:
    page = browser.new_page()
    create_table(page, web.url, "Ann", 2, {2: "easy"})
    choice = page.locator("#choice")
    choices = compared = refused = calls = 0
    behind = 0  # polls in a row where the page is not showing the engine's totals yet
    for _ in range(2000):
        if over(page):
            break
        if page.locator("#next-hand").is_visible():  # the end of a hand waits for the player
            expect(page.locator("#hand-summary")).to_contain_text("End of the hand")
            page.locator("#next-hand").click()
            continue
        legal = page.locator("#hand button.legal")
        if not legal.count() and not page.locator("#extra button").count():
            page.wait_for_timeout(20)
            continue
        expected = engine_totals(web, page)
        if expected is None or expected != shown_totals(page):  # the page is a frame behind
            behind += 1
            assert behind < 100, f"the cards say {shown_totals(page)}, the engine {expected}"
            page.wait_for_timeout(20)
            continue
        behind = 0
        compared += 1
        # the title follows the cards a frame later on a loaded machine: waited for
        expect(page).to_have_title(re.compile(r"^Your turn"))
        bubble = page.locator("#seats .bubble:visible")
        if bubble.count():  # the last call, at the seat that said it
            calls += 1
            expect(page.locator("#log li.call").last).to_contain_text(bubble.inner_text())
        options = card_options(table_of(web, page).state, 0)
        blocked = next((o for o in options if o.refused), None)
        if blocked and refused < 3:  # a tap on a card that cannot be played says why
            page.locator(f'#hand button[data-card="{format_card(blocked.card)}"]').click()
            expect(page.locator("#error")).to_have_text(blocked.refused.why)  # type: ignore[union-attr]
            refused += 1
        two_way = next(
            (
                o
                for o in options
                if len(o.plays) == 2 and all(a.value is not None for a, _ in o.plays)
            ),
            None,
        )
        if two_way:  # the Ace's or Ten's choice, with the total each way makes
            page.locator(f'#hand button[data-card="{format_card(two_way.card)}"]').click()
            expect(choice).to_be_visible()
            labels = choice.locator("button[data-action]").all_inner_texts()
            assert [re.sub(r".*\u2192 ", "", t) for t in labels] == [
                str(total) for _, total in two_way.plays
            ]
            # the total after may be below 0 (a Ten as -10 at 9, in P)
            assert all(re.match(r"^[+\u2212]\d+ \u2192 -?\d+$", t) for t in labels), labels
            choice.locator("button[data-action]").last.click()
            expect(choice).not_to_be_visible()
            choices += 1
        elif any(o.refused is None for o in options):  # the engine's word, not a re-render's
            legal.first.click()
        else:  # no card may be played: the prompt says why and what it costs
            why = stuck_explanation(table_of(web, page).state)
            assert why is not None
            expect(page.locator("#prompt")).to_have_text(f"Your turn. {why}")
            page.locator("#extra button").first.click()
        page.wait_for_timeout(10)
    assert over(page), "the game did not finish"
    expect(choice).not_to_be_visible()
    assert choices >= 2 and compared >= 10 and refused >= 1 and calls >= 1, (
        choices,
        compared,
        refused,
        calls,
    )
    standings = page.locator("#standings-body tr")
    expect(standings).to_have_count(2)
    expect(standings.first).to_contain_text("1st")
    expect(page.locator("#summary-text")).to_contain_text("wins")
    assert page.title() == "Ninety-Nine"
    old = page.url
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: url != old and "/t/" in url)
    expect(page.locator("#seats")).to_contain_text("Ann (you)")
    expect(page.locator("#summary")).to_be_hidden()


def test_the_keyboard_plays_and_calls_are_announced(browser: Browser, web: ServerThread) -> None:
    page = browser.new_page()
    create_table(page, web.url, "Kay", 3, {2: "easy", 3: "easy"})
    for _ in range(6):  # number keys and Enter, with focus kept on the hand
        expect(page.locator("#hand button.legal").first).to_be_visible()
        page.keyboard.press("1")
        if page.locator("#choice").is_visible():
            expect(page.locator("#choice button[data-action]").first).to_be_focused()
            page.keyboard.press("Enter")
        if page.locator("#next-hand").is_visible():
            page.keyboard.press("Enter")
        page.wait_for_timeout(50)
    expect(page.locator("#announce")).to_contain_text(re.compile(r'Your turn|over|: "'))
    speech = page.get_by_role("button", name="Speak calls")
    expect(speech).to_have_attribute("aria-pressed", "false")  # off until asked for
    speech.click()
    page.reload()
    expect(page.get_by_role("button", name="Speak calls")).to_have_attribute("aria-pressed", "true")


def coach_lines(web: ServerThread, page: Page) -> tuple[list[str], int]:
    """What the coach panel should say now, from the coach run on seat 1's view: each
    move's figures, and how many moves are tied for the best (0: the best stands out)."""
    table = table_of(web, page)
    figures = advice_json(
        advise(table.match.view(0), seed=table.version, playouts=web.settings.limits.coach_playouts)
    )
    return [
        f"hand {pct(m['lose_hand'])}"
        + ("" if m["lose_game"] is None else f" · game {pct(m['lose_game'])}")
        for m in figures["moves"]
    ], len(figures["tied"])


def pct(x: float) -> str:
    return f"{math.floor(100 * x + 0.5)}%"  # as the page rounds (Math.round)


def test_the_coach_toggle_shows_each_moves_chances(browser: Browser, web: ServerThread) -> None:
    """Issue 16: the coach at the browser table, off until asked for, on your turns only."""
    page = browser.new_page()
    create_table(page, web.url, "Ann", 2, {2: "easy"})
    coach = page.locator("#coach")
    toggle = page.get_by_role("button", name="Coach")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#hand button.legal").first).to_be_visible()
    expect(coach).to_be_hidden()  # off until asked for
    toggle.click()
    for turn in range(2):
        page.wait_for_function(READY)
        while page.locator("#next-hand").is_visible():
            page.locator("#next-hand").click()
            page.wait_for_function(READY)
        expect(coach.locator("li .figures").first).to_be_visible(timeout=15000)
        expected, tied = coach_lines(web, page)
        expect(coach.locator("li .figures")).to_have_text(expected)
        # a star on the best move, or a line saying which moves tie for it
        expect(coach.locator("li.best .star")).to_have_count(0 if tied else 1)
        if tied:
            expect(coach.locator("li.hint")).to_have_text(
                re.compile(r"^tied: " + ", ".join([".+"] * tied) + "$")
            )
        else:
            expect(coach.locator("li.hint")).to_have_count(0)
        if turn == 0:
            take_turn(page)
    page.reload()  # remembered, like the other toggles
    expect(page.get_by_role("button", name="Coach")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Coach").click()
    expect(coach).to_be_hidden()


def test_the_coach_says_a_tie_rather_than_star_a_move_inside_the_noise(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    """Issue 24, item 5: with one deal a move, no move can be told apart from another: the
    panel stars none and says which moves tie."""
    web = make_server(bot_delay=0.0, limits=dataclasses.replace(ROOMY, coach_playouts=2))
    page = browser.new_page()
    create_table(page, web.url, "Ann", 2, {2: "easy"})
    page.get_by_role("button", name="Coach").click()
    page.wait_for_function(READY)
    coach = page.locator("#coach")
    expect(coach.locator("li .figures").first).to_be_visible(timeout=15000)
    expected, tied = coach_lines(web, page)
    assert tied == len(expected) > 1  # every move tied
    expect(coach.locator("li .figures")).to_have_text(expected)
    expect(coach.locator(".star")).to_have_count(0)
    expect(coach.locator("li.hint")).to_have_text(
        re.compile(r"^tied: " + ", ".join([".+"] * tied) + "$")
    )


def test_chat_between_two_browsers_with_mute(browser: Browser, web: ServerThread) -> None:
    ann = browser.new_context().new_page()
    bob = browser.new_context().new_page()
    invite = create_table(ann, web.url, "Ann", 2, {})
    bob.goto(invite)
    bob.locator("#join-panel").get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Take a seat").click()
    ann.get_by_label("Say something to the table").fill("good luck, Bob")
    ann.keyboard.press("Enter")
    expect(bob.locator("#log li.chat")).to_have_text("Ann: good luck, Bob")
    bob.get_by_role("button", name="Mute chat").click()
    ann.get_by_label("Say something to the table").fill("are you there?")
    ann.get_by_role("button", name="Send").click()
    expect(ann.locator("#log li.chat").last).to_have_text("Ann: are you there?")
    expect(bob.locator("#log li.chat").last).to_be_hidden()  # muted: not shown
    bob.get_by_label("Say something to the table").fill("sorry, busy")
    bob.keyboard.press("Enter")
    expect(ann.locator("#log li.chat").last).to_have_text("Bob: sorry, busy")
    expect(bob.locator("#log li.chat").last).to_be_visible()  # one's own lines stay
    bob.reload()  # the mute is remembered
    expect(bob.get_by_role("button", name="Mute chat")).to_have_attribute("aria-pressed", "true")


def test_the_lobby_follows_new_tables_without_a_reload(browser: Browser, web: ServerThread) -> None:
    watcher = browser.new_context().new_page()
    watcher.goto(web.url)
    expect(watcher.locator("#feed-state")).to_contain_text("No public tables")
    expect(watcher.get_by_role("button", name="Refresh")).to_have_count(0)
    host = browser.new_context().new_page()
    create_table(host, web.url, "Hana", 3, {3: "easy"}, public=True)
    entry = watcher.locator("#open-tables li")
    expect(entry).to_have_count(1, timeout=10000)
    expect(entry).to_contain_text("Hana")
    expect(entry).to_contain_text("1 open seat")
    entry.get_by_role("link", name=re.compile("^Join")).click()
    watcher.get_by_role("button", name="Take a seat").click()
    expect(watcher.locator("#seats")).to_contain_text("(you)")
    lobby = browser.new_context().new_page()  # the table now plays: listed to watch
    lobby.goto(web.url)
    lobby.locator("#open-tables li").get_by_role("link", name=re.compile("^Watch")).click()
    expect(lobby.locator("#prompt")).to_contain_text("You are watching")
    expect(lobby.locator("#hand-section")).to_be_hidden()


def finished_game(web: ServerThread, **options: Any) -> str:
    created = web.create(name="Ann", players=2, **options)
    bob = web.join(created["table"], "Bob")
    clients = [
        web.client(created["table"], created["token"]),
        web.client(created["table"], bob["token"]),
    ]
    play_game(clients, random.Random(3))
    for c in clients:
        c.close()
    return str(created["table"])


def test_the_replay_steps_to_the_end_and_back(
    browser: Browser, web: ServerThread, tmp_path: Path
) -> None:
    table_id = finished_game(web)
    page = browser.new_page()
    page.goto(f"{web.url}/t/{table_id}?replay=1&seat=2")
    expect(page.locator("#replay-pos")).to_have_text("The deal")
    expect(page.locator("#seats")).to_contain_text("Bob (you)")
    steps = len(web.get(f"/api/tables/{table_id}/replay").json()["steps"]) - 1
    page.get_by_role("button", name="To the end").click()
    expect(page.locator("#replay-pos")).to_have_text(f"Move {steps} of {steps}")
    expect(page.locator("#replay-end")).to_contain_text("wins")
    end_total = page.locator("#total").inner_text()
    page.get_by_role("button", name="One move back").click()
    expect(page.locator("#replay-pos")).to_have_text(f"Move {steps - 1} of {steps}")
    expect(page.locator("#replay-end")).to_be_hidden()
    page.keyboard.press("End")
    expect(page.locator("#total")).to_have_text(end_total)
    page.keyboard.press("Home")
    expect(page.locator("#replay-pos")).to_have_text("The deal")
    page.get_by_label("Seen from").select_option("")  # every hand open
    expect(page.locator('#seats .held[aria-label^="holds"]')).to_have_count(2)
    page.get_by_role("button", name="One move forward").click()
    expect(page.locator("#replay-pos")).to_have_text(f"Move 1 of {steps}")
    # an uploaded record, from the lobby
    record = tmp_path / "game.toml"
    record.write_text(format_record(web.lobby.tables[table_id].match.record()))
    lobby = browser.new_page()
    lobby.goto(web.url)
    upload_record(lobby, record)
    expect(lobby.locator("#replay-pos")).to_have_text("The deal")
    lobby.keyboard.press("End")
    expect(lobby.locator("#replay-pos")).to_have_text(f"Move {steps} of {steps}")
    broken = tmp_path / "broken.toml"
    broken.write_text("rules = 1 = 2")
    lobby.goto(web.url)
    upload_record(lobby, broken)
    expect(lobby.locator("#replay-upload-error")).not_to_be_empty()


def test_the_replay_reviews_a_seats_decisions_with_the_coach(
    browser: Browser, make_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    """Issue 16: the browser's replay lists a seat's decisions beside the coach's moves,
    flagged as the review flags them, each a link to the position it was made in."""
    web = make_server(bot_delay=0.0, limits=dataclasses.replace(ROOMY, review_playouts=50))
    table_id = finished_game(web, house_rules="[rules]\nlives = 2\n")  # short: quick reviews
    record = web.lobby.tables[table_id].match.record()
    expected = review_replay_json(record, 0, web.settings.limits.review_playouts)
    differ = [d for d in expected["decisions"] if not d["agrees"]]  # another suit agrees
    assert differ, "a random player should differ from the coach somewhere"
    page = browser.new_page()
    page.goto(f"{web.url}/t/{table_id}?replay=1&seat=1")
    expect(page.locator("#replay-pos")).to_have_text("The deal")
    page.get_by_role("button", name="Review Ann's decisions with the coach").click()
    items = page.locator("#review-list li")
    expect(items).to_have_count(len(differ), timeout=30000)
    flagged = sum(1 for d in expected["decisions"] if d["flag"])
    expect(page.locator("#review-status")).to_contain_text(
        f"had {len(expected['decisions'])} real choices"
    )
    expect(page.locator("#review-list .flagged")).to_have_count(sum(1 for d in differ if d["flag"]))
    assert flagged >= sum(1 for d in differ if d["flag"])
    first = differ[0]
    expect(items.first).to_contain_text(f"cost {first['cost']:.1f} ± {first['error']:.1f}")
    expect(items.first).to_contain_text(f"total {first['total']}")
    items.first.get_by_role("button").click()
    steps = web.get(f"/api/tables/{table_id}/replay?seat=1").json()["steps"]
    at = next(i for i, s in enumerate(steps) if s["moves"] == first["action_number"] - 1)
    expect(page.locator("#replay-pos")).to_have_text(
        "The deal" if at == 0 else f"Move {at} of {len(steps) - 1}"
    )
    expect(page.locator("#total")).to_have_text(str(first["total"]))
    card = first["played"][:2] if first["played"][:2] != "10" else first["played"][:3]
    expect(page.locator(f'#hand button[data-card="{card}"]')).to_be_visible()  # in hand then
    # the same from an uploaded record
    path = tmp_path / "game.toml"
    path.write_text(format_record(record))
    lobby = browser.new_page()
    lobby.goto(web.url)
    upload_record(lobby, path)
    lobby.get_by_label("Seen from").select_option("1")
    lobby.get_by_role("button", name="Review Ann's decisions with the coach").click()
    expect(lobby.locator("#review-list li")).to_have_count(len(differ), timeout=30000)
