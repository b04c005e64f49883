"""Draws the installable table's icons (static/icon-192.png, icon-512.png) from the
favicon's design: a cream card tilted 8°, "99" in red, on the felt's green, the card
inside the middle 80% so that a maskable icon's circle or squircle never cuts it.

    python scripts/icons.py   # rewrites the PNGs (Pillow, in the dev extra)
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parents[1] / "src" / "ninetynine" / "web" / "static"
FELT, CARD, EDGE, RED = "#1b6546", "#fffdf2", "#a89f8c", "#c0182b"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def icon(size: int) -> Image.Image:
    """The icon at ``size`` pixels square, drawn at 4x and scaled down (smooth edges)."""
    big = size * 4
    card = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(card)
    w, h = big * 0.44, big * 0.56  # the favicon's card, 44 x 56 in 64, a little smaller
    box = ((big - w) / 2, (big - h) / 2, (big + w) / 2, (big + h) / 2)
    draw.rounded_rectangle(box, radius=big * 0.06, fill=CARD, outline=EDGE, width=big // 100)
    font = ImageFont.truetype(FONT, int(big * 0.24))
    draw.text((big / 2, big / 2), "99", font=font, fill=RED, anchor="mm")
    out = Image.new("RGBA", (big, big), FELT)
    out.alpha_composite(card.rotate(8, resample=Image.Resampling.BICUBIC))
    return out.resize((size, size), Image.Resampling.LANCZOS).convert("RGB")


if __name__ == "__main__":
    for size in (192, 512):
        icon(size).save(STATIC / f"icon-{size}.png", optimize=True)
