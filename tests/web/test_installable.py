"""The browser table installs on a phone and opens offline: a web manifest with PNG icons
(any and maskable) that Chromium finds installable, and a service worker that serves the
client from its cache with the server stopped, where the page says it is offline."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import Browser, expect

from tests.browser import ARGS, CHROMIUM
from tests.web.helpers import ServerThread


def test_the_manifest_names_the_game_and_its_icons(
    make_server: Callable[..., ServerThread],
) -> None:
    web = make_server()
    manifest = json.loads(httpx.get(f"{web.url}/static/manifest.webmanifest").text)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    purposes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    assert {("192x192", "maskable"), ("512x512", "maskable"), ("512x512", "any")} <= purposes
    for entry in manifest["icons"]:
        png = Image.open(io.BytesIO(httpx.get(web.url + entry["src"]).content))
        assert png.format == "PNG" and f"{png.width}x{png.height}" == entry["sizes"]
        # maskable: the corners (cut off by a circle mask) are the felt, not the card
        assert png.getpixel((2, 2)) == png.getpixel((png.width - 3, png.height - 3))
    worker = httpx.get(f"{web.url}/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]


def test_chromium_can_install_it_and_it_opens_with_the_server_stopped(
    browser: Browser, make_server: Callable[..., ServerThread], tmp_path: Path
) -> None:
    web = make_server()
    # a profile of its own: a new context is incognito, where Chromium installs nothing
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=ARGS
    )
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(web.url)
    expect(page.get_by_role("button", name="Play now against bots")).to_be_visible()
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    cdp = context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    expect(page.locator("#offline")).to_be_hidden()

    web.stop()
    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Play now against bots")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="You are offline")).to_be_visible()
    page.goto(f"{web.url}/t/abcdef")  # any page of the site: the client, from the cache
    expect(page.locator("#offline")).to_contain_text("You are offline")
    context.close()
