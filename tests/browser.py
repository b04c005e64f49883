"""How the tests start a browser: Debian's Chromium, headless, with the flags that keep it
off the network it has none of (its background connections would be refused)."""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
