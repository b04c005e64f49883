"""The lobby's "Finished games" area in a real browser (Debian's Chromium, its virtual
authenticator as in tests/web/test_account_browser.py): a guest's game claimed on signing up,
a rated game listed with its rating change, the profile's rating graph, a game's replay one
click away, and a club's leaderboard."""

from __future__ import annotations

import random
from collections.abc import Callable

import httpx
from playwright.sync_api import Browser, expect

from tests.web.helpers import Client, ServerThread, play_game
from tests.web.test_account_browser import sign_up, with_passkeys


def played(port: int, table: str, token: str, seed: int) -> None:
    client = Client(f"ws://localhost:{port}/ws/{table}", token)
    play_game([client], random.Random(seed))
    client.close()


def test_my_games_claims_a_guests_game_lists_a_rated_one_and_draws_the_rating(
    browser: Browser, make_server: Callable[..., ServerThread]
) -> None:
    web = make_server(secure_cookies=False, seed=99)
    url = f"http://localhost:{web.port}"
    page = with_passkeys(browser)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a game played as a guest in this browser: its seat token is in localStorage
    guest = httpx.post(
        url + "/api/tables", json={"players": 2, "name": "Me", "bots": {"2": "easy"}}
    )
    table, token = guest.json()["table"], guest.json()["token"]
    played(web.port, table, token, 1)
    page.goto(url)
    page.evaluate("([t, k]) => localStorage.setItem(`nn-token-${t}`, k)", [table, token])
    sign_up(page, url, "Ann")
    games = page.get_by_role("region", name="Finished games")
    expect(games.locator("#games-note")).to_have_text("1 game you played as a guest is now yours.")
    expect(games.locator(".game")).to_have_count(1)
    expect(games.locator(".game").first).to_contain_text("with Ben (easy)")
    # a rated table made from the lobby's form (offered to the signed-in only), played here
    page.locator("#name").fill("Ann")
    form = page.get_by_role("region", name="Set up a table")
    form.get_by_label("Seats").fill("2")
    form.get_by_label("Seat 2").select_option("hard")
    form.get_by_label("Rated: the game moves", exact=False).check()
    form.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    rated = page.url.rsplit("/", 1)[1]
    token = page.evaluate("(t) => localStorage.getItem(`nn-token-${t}`)", rated)
    assert httpx.get(f"{url}/api/tables/{rated}").json()["rated"] is True
    played(web.port, rated, token, 2)
    page.goto(url)
    expect(games.locator(".game")).to_have_count(2)
    newest = games.locator(".game").first
    expect(newest).to_contain_text("rated")
    expect(newest.locator(".game-rating")).to_contain_text("rating ")
    # the profile: games per rule set, the rating and its graph
    page.get_by_role("button", name="My profile").click()
    expect(games.get_by_text("Ann's profile")).to_be_visible()
    expect(games.locator(".profile-rules")).to_contain_text("2 games")
    graph = games.get_by_role("img", name="Pagat-style rating over 1 rated game", exact=False)
    expect(graph).to_be_visible()
    expect(graph.locator("circle")).to_have_count(2)  # the start and after the game
    # a club's leaderboard shows her
    page.get_by_label("A new club's name").fill("Friday cards")
    page.get_by_role("button", name="Create a club").click()
    page.get_by_role("button", name="Leaderboard").click()
    board = page.get_by_role("list", name="Friday cards leaderboard, Pagat-style")
    expect(board).to_contain_text("Ann")
    expect(board).to_contain_text("(1 rated game)")
    # the replay, one click away
    newest.get_by_role("link", name="Replay").click()
    expect(page.locator("#replay-bar")).to_be_visible()
    assert "?replay=1&seat=1" in page.url
    # the review, one click away: the coach's review of her seat starts by itself
    page.go_back()
    games.locator(".game").first.get_by_role("link", name="Review").click()
    expect(page.locator("#review-status")).to_contain_text("Ann had", timeout=60_000)
    expect(page.locator("#review-status")).to_contain_text("real choices")
    assert not errors, errors
