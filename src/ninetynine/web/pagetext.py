"""The sentences of the client's page (``static/index.html``) for the translation catalogs.

An element marked ``data-i18n`` holds one message, its text (spaces collapsed), which the
client's ``i18n.js`` replaces with the translation; ``data-i18n-attr="aria-label
placeholder"`` names attributes translated the same way. :func:`extract` is the Babel
extractor ``babel.cfg`` names for the page (``scripts/catalogs.py``), so the catalogs hold
exactly what the page asks for. Standard library only: Babel calls it, nothing else."""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

Found = tuple[int, str | None, str, list[str]]  # Babel's (line, function, message, comments)


def collapse(text: str) -> str:
    """Text as the client reads it from the page: runs of spaces one space, none at the ends."""
    return re.sub(r"\s+", " ", text).strip()


class _Marked(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Found] = []
        self._open: list[tuple[str, int, list[str]] | None] = []  # a marked element's text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-i18n-attr") or "").split():
            if value := a.get(name):
                self.found.append((line, None, collapse(value), []))
        if any(marked for marked in self._open) and tag not in ("br", "input", "img"):
            raise ValueError(f"line {line}: <{tag}> inside an element marked data-i18n")
        if tag not in ("br", "input", "img", "meta", "link"):
            self._open.append((tag, line, []) if "data-i18n" in a else None)

    def handle_endtag(self, tag: str) -> None:
        if self._open and (marked := self._open.pop()) is not None:
            self.found.append((marked[1], None, collapse("".join(marked[2])), []))

    def handle_data(self, data: str) -> None:
        if self._open and (marked := self._open[-1]) is not None:
            marked[2].append(data)


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[Found]:
    """Babel's extractor interface: each marked message of an HTML page, with its line."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(str(options.get("encoding", "utf-8"))))
    parser.close()
    for line, function, text, comments in parser.found:
        yield line, function, html.unescape(text), comments
