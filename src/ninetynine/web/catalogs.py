"""The game's translation catalogs for the browser, as JSON: the same compiled catalogs
the Python side reads (:mod:`ninetynine.language`), so nothing is translated twice.

The browser picks a message's plural form with ``Intl.PluralRules``, whose CLDR
categories (``one``, ``many``, ``other``...) name the forms; :data:`PLURAL_CATEGORIES`
lists them in the order of the catalog's forms (the order Babel writes them in, from the
same CLDR data; ``tests/web/test_catalogs.py`` checks the two agree)."""

from __future__ import annotations

import gettext
from functools import cache
from typing import Any

from starlette.requests import HTTPConnection

from ninetynine.language import Language

PLURAL_CATEGORIES: dict[Language, tuple[str, ...]] = {
    Language.EN: ("one", "other"),
    Language.ZH_TW: ("other",),
    Language.TH: ("other",),
    Language.IS: ("one", "other"),
    Language.ES: ("one", "many", "other"),
    Language.DE: ("one", "other"),
    Language.FR: ("one", "many", "other"),
}


def reader(connection: HTTPConnection) -> Language:
    """The language a request's refusal is said in: ``?lang=``, else its
    ``Accept-Language``; never itself refused (a ``lang`` we lack falls back to the header)."""
    asked = Language.match(connection.query_params.get("lang") or "")
    return asked or accepted(connection.headers.get("accept-language"))


def accepted(header: str | None) -> Language:
    """The first of our languages an ``Accept-Language`` header asks for, by its ``q``
    weights (English when none is)."""
    asked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if tag and tag != "*" and q > 0:
            asked.append((-q, i, tag))
    for _q, _i, tag in sorted(asked):
        if lang := Language.match(tag):
            return lang
    return Language.EN


@cache
def catalog_json(lang: Language) -> dict[str, Any]:
    """``lang``'s messages for the browser: ``messages`` maps each English message id to its
    text, or (a message with a plural) to its forms in :data:`PLURAL_CATEGORIES` order;
    English has none (its ids are its text). ``languages`` lists every language for the
    selector, each by its own name."""
    messages: dict[str, Any] = {}
    translation = lang.translation()
    if isinstance(translation, gettext.GNUTranslations):
        plurals: dict[str, dict[int, str]] = {}
        for key, text in translation._catalog.items():  # type: ignore[attr-defined]
            if isinstance(key, tuple):  # (singular id, form number)
                plurals.setdefault(key[0], {})[key[1]] = text
            elif key:  # "" is the catalog's header
                messages[key] = text
        for key, forms in plurals.items():
            messages[key] = [forms[i] for i in sorted(forms)]
    return {
        "lang": lang.tag,
        "plural": list(PLURAL_CATEGORIES[lang]),
        "messages": messages,
        "languages": [{"tag": other.tag, "native": other.native} for other in Language],
    }
