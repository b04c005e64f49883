"""The languages the game speaks, and its text in each, from the package's gettext catalogs.

Every sentence a person reads is written in English in the source, wrapped in :func:`_`
(or :func:`ngettext` where a number decides the form); the English is the message id, so
English output is the source text itself. Each other language has its catalog in
``ninetynine/locale/<code>/LC_MESSAGES/ninetynine.po``, compiled beside it to the ``.mo``
that the standard library's :mod:`gettext` reads (``docs/translating.md``: how to add a
language; ``scripts/catalogs.py`` extracts, updates and compiles them with Babel, whose
CLDR data writes each catalog's plural rule). Only :mod:`gettext` runs here: the core
needs nothing outside the standard library.

Choosing a language: an explicit one (``--lang``) comes first, then the environment
(``LANGUAGE``'s list, then the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is
set), then English (:func:`choose`).

Which language the text is made in is a context variable, set for a block by
:func:`using`. A context variable rather than a ``Language`` argument threaded through
every function that makes text: the rules' words, the narration and the stuck
explanations call one another, and their signatures stay as they are. Rather than a
global: each thread and each asyncio task has its own copy of the context, so two tables
served at once, in two languages, never see each other's choice, and leaving the block
restores the one before.

>>> with using(Language.DE):
...     print(ngettext("{n} penny", "{n} pennies", 3).format(n=3))
3 Pennys
>>> print(ngettext("{n} penny", "{n} pennies", 3).format(n=3))
3 pennies
"""

from __future__ import annotations

import gettext
import os
import unicodedata
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from functools import cache
from pathlib import Path

from ninetynine.errors import NinetyNineError

DOMAIN = "ninetynine"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


class LanguageError(NinetyNineError, ValueError):
    """A language was asked for by a name that is not one of :class:`Language`."""


class Language(StrEnum):
    """A language the game is written in; the value is its catalog's locale code."""

    EN = "en"  # the source: the message ids themselves
    ZH_TW = "zh_TW"  # Traditional Chinese, as written in Taiwan
    TH = "th"
    IS = "is"
    ES = "es"
    DE = "de"
    FR = "fr"

    @property
    def tag(self) -> str:
        """The BCP 47 tag, as browsers and HTML write it: ``'zh-TW'``, ``'th'``."""
        return self.value.replace("_", "-")

    @property
    def native(self) -> str:
        """The language's name in itself, as a language selector lists it."""
        return _NATIVE[self]

    def translation(self) -> gettext.NullTranslations:
        """The compiled catalog (English: the message ids as they are)."""
        return _translation(self)

    @classmethod
    def match(cls, text: str) -> Language | None:
        """The language of a locale name or tag (``'de_DE.UTF-8'``, ``'zh-TW'``, ``'TH'``),
        or None when none of ours is. Any Chinese is read in Traditional Chinese, the one
        written here."""
        code = text.split(".")[0].split("@")[0].replace("-", "_").strip().lower()
        base = code.split("_")[0]
        if base == "zh":
            return cls.ZH_TW
        return next((lang for lang in cls if lang.value == base), None)

    @classmethod
    def parse(cls, text: str) -> Language:
        """The language named by ``text`` (as :meth:`match` reads it); any other name
        raises :class:`LanguageError`, which lists the accepted ones."""
        lang = cls.match(text)
        if lang is None:
            raise LanguageError(f"unknown language {text!r}: expected one of {', '.join(cls)}")
        return lang


_NATIVE = {
    Language.EN: "English",
    Language.ZH_TW: "繁體中文（台灣）",
    Language.TH: "ไทย",
    Language.IS: "Íslenska",
    Language.ES: "Español",
    Language.DE: "Deutsch",
    Language.FR: "Français",
}


@cache
def _translation(lang: Language) -> gettext.NullTranslations:
    if lang is Language.EN:
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang.value / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as f:
        return gettext.GNUTranslations(f)


def choose(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> Language:
    """The language to speak: ``explicit`` (``--lang``; an unknown name raises
    :class:`LanguageError`), else the environment's, else English."""
    if explicit:
        return Language.parse(explicit)
    env = os.environ if environ is None else environ
    for name in env.get("LANGUAGE", "").split(":"):
        if name and (lang := Language.match(name)):
            return lang
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := env.get(var):  # the first one set decides, as for the C library
            return Language.match(value) or Language.EN
    return Language.EN


_current: ContextVar[Language] = ContextVar("ninetynine_language", default=Language.EN)


def current() -> Language:
    """The language text is made in here (English unless inside :func:`using`)."""
    return _current.get()


@contextmanager
def using(lang: Language | None) -> Iterator[Language]:
    """Makes text in ``lang`` inside the block (None: the current language, unchanged)."""
    token = _current.set(_current.get() if lang is None else lang)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language (the English message id when none is set)."""
    return _translation(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that the number ``n`` takes in the current language."""
    return _translation(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalogs without translating it: a table's text,
    translated with :func:`_` where it is shown."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural for the catalogs: ``ngettext(*pair, n)`` where shown."""
    return singular, plural


def translated(message: str) -> str:
    """:func:`_` for a message id made at run time (which the catalogs hold because it is
    marked where it is written, with :func:`N_`): the extractor reads no call of this."""
    return _(message)


def ntranslated(singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` for a message made at run time (marked with :func:`Nn_`)."""
    return ngettext(singular, plural, n)


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: 2 for a wide (East Asian) character, 0 for
    a combining mark (Thai's vowels and tones above and below), else 1. The standard
    library's reckoning of what Rich's ``cell_len`` measures, for the core's own padding."""
    return sum(
        0 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf")
        else 2 if unicodedata.east_asian_width(c) in "WF"
        else 1
        for c in text
    )  # fmt: skip


def pad_left(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` cells (as ``f"{text:>{width}}"`` in English)."""
    return " " * max(width - cells(text), 0) + text


def pad_right(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` cells (as ``f"{text:<{width}}"`` in English)."""
    return text + " " * max(width - cells(text), 0)
