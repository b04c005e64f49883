"""A friends' evening, end to end in a real browser (Debian's Chromium with its virtual
authenticator, as in tests/web/test_account_browser.py), one test per chapter: Ann and Ben sign
up with passkeys in two browsers, Ann makes a club and Ben joins it by its invite link, they play
a rated club table with a bot to the end by clicking, and each sees the game in "Finished
games", the rating change, and the club's leaderboard in rating order; the game's share link
opens the replay in a third, signed-out browser; the profile, the club's page and the games
lists look as their baselines at a phone's size and a laptop's; a turn-based club table goes on
across a server restart, Ben's "your turn" reaching a real SMTP server on loopback and the
club's webhook a local HTTP receiver, and Ben follows the e-mail's link back to his seat.

Ann sets up both club tables with the club page's form (its Bots, Rated and Turn-based
fields), whose bots play at the server's default level (medium)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ninetynine.web.settings import Settings, Smtp
from tests.web.conftest import ROOMY
from tests.web.helpers import FakeClock, ServerThread
from tests.web.pages import READY, assert_screen, take_turn
from tests.web.test_account_browser import SIZES, sign_up, with_passkeys
from tests.web.test_pages_browser import club_of, join, open_club, watch_errors
from tests.web.test_turns import Hooks, Inbox, eventually, hooks, inbox, turn_server

CLUB = "Friday cards"
_FIXTURES = (hooks, inbox)  # the turns tests' SMTP server and webhook receiver, used here
# The accounts' and games' wall clock stands at noon UTC on a Friday (2026-11-27), so the day a
# game shows in "Finished games" is the same in every run and nearly every time zone.
FRIDAY = 1_795_780_800.0


@dataclasses.dataclass
class Evening:
    url: str
    ann: Page
    ben: Page
    club: str  # the club's id
    table: str
    share: str  # the finished game's share link
    winner: str  # the game-over line
    errors: list[str]


@pytest.fixture(scope="module")
def friday() -> FakeClock:
    wall = FakeClock()
    wall.now = FRIDAY
    return wall


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory, friday: FakeClock) -> Iterator[ServerThread]:
    """One seeded server for the evening, its bots playing at once."""
    db = tmp_path_factory.mktemp("evening") / "web.sqlite3"
    settings = Settings(
        database=str(db),
        grace=30.0,
        bot_delay=0.0,
        tick=0.02,
        clock=FakeClock(),
        seed=99,
        limits=ROOMY,
        secure_cookies=False,
        wall=friday,
    )
    server = ServerThread(settings).start()
    yield server
    server.stop()


def club_table(
    page: Page,
    players: int,
    bots: int,
    *,
    rules: str = "",
    rated: bool = False,
    turns: bool = False,
) -> str:
    """Ann, on the club's page, sets up a table with its form (she takes seat 1, the bots
    the last ones, the others wait for members); returns the table's id."""
    form = page.locator("#club-table-form")
    if rules:
        form.get_by_label("Rules", exact=True).select_option(rules)
    form.get_by_label("Seats", exact=True).fill(str(players))
    form.get_by_label("Bots", exact=True).fill(str(bots))
    if rated:
        form.get_by_label("Rated: the game moves its players' ratings").check()
    if turns:
        form.get_by_label("Turn-based: a day for each turn").check()
    form.get_by_role("button", name="New table for this club").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    expect(page.locator("#seats")).to_contain_text("Ann (you)")
    return page.url.rsplit("/", 1)[1]


def play_together(*pages: Page) -> None:
    """Each page takes its turn whenever it has one, until the game is over on all of them."""
    for _ in range(2000):
        finished = 0
        for page in pages:
            if page.locator("#summary").is_visible():
                finished += 1
            elif page.locator("#next-hand").is_visible():  # not take_turn's: it would wait
                page.locator("#next-hand").click()  # for a turn the others' click brings
            elif page.evaluate(READY):
                take_turn(page)
        if finished == len(pages):
            return
        pages[0].wait_for_timeout(20)
    raise AssertionError("the game did not finish")


@pytest.fixture(scope="module")
def evening(browser: Browser, web: ServerThread, friday: FakeClock) -> Evening:
    """Sign-ups, the club, and the rated game played to its end (the chapters look at it)."""
    url = f"http://localhost:{web.port}"  # a relying party's id must be a name
    errors: list[str] = []
    ann = watch_errors(with_passkeys(browser), errors)
    sign_up(ann, url, "Ann")
    invite = club_of(ann, url, CLUB)
    friday.advance(600)  # Ben comes later: the members listed in the order they joined
    ben = watch_errors(with_passkeys(browser), errors)
    join(ben, url, "Ben", invite)
    open_club(ann, CLUB)
    club = ann.url.rsplit("/", 1)[1]
    table = club_table(ann, 3, 1, rules="98", rated=True)  # a bot at seat 3

    # Ben finds it on the club's page and takes the open seat
    ben.goto(f"{url}/club/{club}")
    tables = ben.locator("#club-tables")
    expect(tables.locator("li")).to_have_count(1)
    expect(tables).to_contain_text("rated")
    tables.get_by_role("link", name=re.compile("^Join")).click()
    ben.wait_for_url(re.compile(r"/t/[\w-]+$"))
    ben.locator("#join-panel").get_by_label("Your name").fill("Ben")
    ben.get_by_role("button", name="Take a seat").click()
    expect(ben.locator("#seats")).to_contain_text("Ben (you)")
    expect(ann.locator("#seats")).to_contain_text("Ben")

    friday.advance(600)
    play_together(ann, ben)
    winner = ann.locator("#summary-text").inner_text()
    expect(ben.locator("#summary-text")).to_have_text(winner)
    ann.locator("#summary").get_by_role("button", name="Share the game").click()
    field = ann.get_by_label("Anyone with this link sees the game's replay and review")
    expect(field).to_have_value(re.compile(re.escape(url) + r"/s/[A-Za-z0-9_-]{22}$"))
    share = field.input_value()
    return Evening(url, ann, ben, club, table, share, winner, errors)


def games_of(page: Page, url: str) -> Any:
    page.goto(url)
    games = page.get_by_role("region", name="Finished games")
    expect(games.locator(".game")).to_have_count(1)
    return games.locator(".game").first


def test_the_rated_club_game_is_in_both_histories_and_moves_the_leaderboard(
    evening: Evening,
) -> None:
    # "Finished games" on each side: the game, its place, and the rating change it made
    change: dict[str, float] = {}
    for page, me, other in ((evening.ann, "Ann", "Ben"), (evening.ben, "Ben", "Ann")):
        game = games_of(page, evening.url)
        expect(game).to_contain_text(re.compile(rf"with {other}, \w+ \(medium\), .*, rated"))
        place = game.locator("strong").inner_text()
        won = f"{me} and " in evening.winner or evening.winner.startswith(f"{me} wins")
        assert (place == "Won") == won, (place, evening.winner)
        rating = game.locator(".game-rating").inner_text()
        found = re.fullmatch(r"\s*·\s*rating ([+\u2212])(\d+\.\d)", rating)
        assert found and found[2] != "0.0", f"{me}'s rating did not move: {rating!r}"
        change[me] = float(found[2]) * (1 if found[1] == "+" else -1)
        assert (change[me] > 0) == won, (me, rating, evening.winner)  # a win raises it

    # the club's leaderboard, from the lobby: both, highest first, at the ratings they got
    # (everyone starts at 0, so each one's rating is the change the game made)
    ann = evening.ann
    ann.get_by_role("region", name="Your clubs").get_by_role("button", name="Leaderboard").click()
    board = ann.get_by_role("list", name=f"{CLUB} leaderboard, Ninety-Eight")
    expect(board.locator("li")).to_have_count(2)
    rows = board.locator("li").all_inner_texts()
    read = [re.fullmatch(r"(\w+) (-?\d+\.\d) \(1 rated game\)", r) for r in rows]
    assert all(read), rows
    shown = {m[1]: float(m[2]) for m in read if m}
    assert shown == change, (rows, change)
    assert [m[1] for m in read if m] == sorted(change, key=lambda n: -change[n]), rows
    assert not evening.errors, evening.errors


def test_the_share_link_opens_the_replay_signed_out(browser: Browser, evening: Evening) -> None:
    assert re.fullmatch(re.escape(evening.url) + r"/s/[A-Za-z0-9_-]{22}", evening.share)
    stranger = browser.new_context(reduced_motion="reduce")  # nobody signed in, nothing kept
    errors: list[str] = []
    page = watch_errors(stranger.new_page(), errors)
    page.goto(evening.share)
    expect(page.locator("#replay-bar")).to_be_visible()
    expect(page.locator("#replay-pos")).to_have_text("The deal")
    expect(page.locator("#seats")).to_contain_text("Ann")
    expect(page.locator("#seats")).to_contain_text("Ben")
    expect(page.locator("#seats")).not_to_contain_text("(you)")
    page.get_by_role("button", name="To the end").click()
    expect(page.locator("#replay-end")).to_have_text(evening.winner)
    expect(page.get_by_role("link", name="Back to the lobby")).to_be_visible()
    assert not [c for c in stranger.cookies() if c["name"] == "nn_session"]  # still nobody
    stranger.close()
    assert not errors, errors


@pytest.mark.parametrize("size", SIZES)
def test_the_profile_club_and_my_games_look_as_their_baselines(
    size: str, browser: Browser, evening: Evening, tmp_path: Path
) -> None:
    width, height = SIZES[size]
    context = browser.new_context(  # Ann's session, on a phone or a laptop
        storage_state=evening.ann.context.storage_state(),
        viewport={"width": width, "height": height},
        reduced_motion="reduce",
        is_mobile=size == "phone",
        has_touch=size == "phone",
    )
    errors: list[str] = []
    page = watch_errors(context.new_page(), errors)
    page.goto(evening.url)
    games = page.get_by_role("region", name="Finished games")
    expect(games.locator(".game")).to_have_count(1)
    page.mouse.move(0, 0)
    # the seeded game on a fixed day: nothing varies but the clubs' invite links (not shown)
    assert_screen(page, f"evening-my-games-{size}", tmp_path)
    page.get_by_role("button", name="My profile").click()
    expect(games.get_by_text("Ann's profile")).to_be_visible()
    expect(games.get_by_role("img", name=re.compile("rating over 1 rated game"))).to_be_visible()
    page.evaluate("document.activeElement.blur()")
    assert_screen(page, f"evening-profile-{size}", tmp_path)
    page.goto(f"{evening.url}/club/{evening.club}")
    expect(page.locator("#club-members li")).to_have_count(2)
    expect(page.locator("#club-table-rules option")).not_to_have_count(0)
    page.mouse.move(0, 0)
    assert_screen(page, f"evening-club-{size}", tmp_path, mask=[page.locator("#club-invite")])
    context.close()
    assert not errors, errors


def my_turn(page: Page) -> bool:
    return bool(page.locator("#hand button.legal").count())


def test_a_turn_based_club_table_goes_on_across_a_restart_with_email_and_webhook(
    browser: Browser,
    make_server: Callable[..., ServerThread],
    clock: FakeClock,
    inbox: tuple[Inbox, int],
    hooks: Hooks,
    tmp_path: Path,
) -> None:
    box, port = inbox
    database = str(tmp_path / "turns.sqlite3")
    smtp = Smtp("127.0.0.1", port, "nn@example.org")
    first = turn_server(make_server, clock, database=database, smtp=smtp, seed=99)
    url = f"http://localhost:{first.port}"
    first.settings.public_url = url  # the links in the e-mails, where the passkeys are
    errors: list[str] = []
    ann = watch_errors(with_passkeys(browser), errors)
    sign_up(ann, url, "Ann")
    invite = club_of(ann, url, CLUB)
    ben = watch_errors(with_passkeys(browser), errors)
    join(ben, url, "Ben", invite)
    # Ann, the owner, points the club's webhook at the receiver; Ben wants his e-mail
    clubs = ann.get_by_role("region", name="Your clubs")
    clubs.get_by_role("button", name="Webhook").click()
    clubs.get_by_label(f'Webhook for "your turn" in {CLUB}').fill(hooks.url)
    clubs.get_by_role("button", name="Save webhook").click()
    expect(clubs.locator(".webhook-form [role=status]")).to_have_text("Saved.")
    ben.get_by_text("When it is my turn", exact=True).click()
    ben.get_by_label("E-mail me at").fill("ben@example.org")
    ben.get_by_label("E-mail me when it is my turn at a turn-based table").check()
    ben.get_by_label("Name me in my clubs' chat (their webhook) when it is my turn").check()
    ben.get_by_role("button", name="Save", exact=True).click()
    expect(ben.locator("#contact-saved")).to_have_text("Saved.")

    open_club(ann, CLUB)
    table = club_table(ann, 2, 0, turns=True)  # a day for each turn
    open_club(ben, CLUB)
    expect(ben.locator("#club-tables")).to_contain_text("turn-based")
    ben.locator("#club-tables").get_by_role("link", name=re.compile("^Join")).click()
    ben.wait_for_url(re.compile(f"/t/{table}$"))
    ben.locator("#join-panel").get_by_label("Your name").fill("Ben")
    ben.get_by_role("button", name="Take a seat").click()
    expect(ben.locator("#seats")).to_contain_text("Ben (you)")
    # to Ann's turn (Ben plays first if the deal says so), then the server goes down
    ann.wait_for_function(READY)
    if not my_turn(ann):
        take_turn(ben)
        ann.wait_for_function(READY)
    assert my_turn(ann)
    home = ben.context
    ben.close()  # Ben goes home: "your turn" is for a seat nobody has open
    sent = len(box.messages)
    posted = len(hooks.posts)
    first.stop()
    second = ServerThread(dataclasses.replace(first.settings), port=first.port).start()
    try:
        # Ann's page finds the new server by itself (the table read back from the database)
        # and her move goes through there; Ben is told by e-mail and in the club's chat
        expect(ann.locator("#conn")).to_be_empty(timeout=15_000)
        assert table in second.lobby.tables
        expect(ann.locator("#prompt")).to_contain_text("Your turn")
        take_turn(ann)
        expect(ann.locator("#prompt")).to_contain_text("Ben to play")
        mail = eventually(lambda: box.messages[sent:])
        assert [to for to, _ in mail] == [["ben@example.org"]], mail
        body = mail[0][1].get_payload(decode=True).decode()
        link = re.search(rf"{re.escape(url)}/t/{table}\b", body)
        assert link, body
        post = eventually(lambda: hooks.posts[posted:])
        assert len(post) == 1 and post[0]["content"].startswith("Your turn, Ben:"), post
        assert f"/t/{table}" in post[0]["content"]
        # Ben follows the e-mail's link to his seat and plays on the restarted server
        ben = watch_errors(home.new_page(), errors)
        ben.goto(link[0])
        expect(ben.locator("#seats")).to_contain_text("Ben (you)")
        expect(ben.locator("#prompt")).to_contain_text("Your turn")
        assert take_turn(ben)
        expect(ann.locator("#prompt")).to_contain_text("Your turn", timeout=15_000)
        # "My games" lists it with the turn where it is
        ben.goto(url)
        games = ben.get_by_role("region", name="My games")
        expect(games).to_contain_text("Ann to play")
    finally:
        second.stop()
    assert not errors, errors
