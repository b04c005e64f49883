"""The browser's words come from the game's own catalogs (GET /api/language): the
language Accept-Language asks for, or the one named; each plural message's forms in the
order of the CLDR categories the browser's Intl.PluralRules names (checked against the
plural rule Babel wrote into each catalog); a clear refusal of a language we lack."""

from __future__ import annotations

import gettext
from collections.abc import Callable

import httpx
import pytest
from babel import Locale

from ninetynine.language import Language, using
from ninetynine.language import ngettext as py_ngettext
from ninetynine.web.catalogs import PLURAL_CATEGORIES, accepted, catalog_json
from tests.web.helpers import Client, ServerThread


@pytest.mark.parametrize("lang", list(Language))
def test_the_plural_categories_are_the_catalog_s_forms_in_order(lang: Language) -> None:
    # the form the catalog's own rule picks for n is the one named by CLDR's category of n
    rule = Locale.parse(lang.value).plural_form
    translation = lang.translation()
    for n in [*range(0, 1001), 1_000_000, 2_000_000]:
        index = PLURAL_CATEGORIES[lang].index(rule(n))
        if isinstance(translation, gettext.GNUTranslations):
            assert translation.plural(n) == index, (lang, n)  # type: ignore[attr-defined]
        else:
            assert index == (0 if n == 1 else 1)


@pytest.mark.parametrize("lang", [lang for lang in Language if lang is not Language.EN])
def test_a_plural_message_s_forms_are_the_ones_python_says(lang: Language) -> None:
    forms = catalog_json(lang)["messages"]["{n} card"]
    rule = Locale.parse(lang.value).plural_form
    for n in (0, 1, 2, 5, 21, 1_000_000):
        with using(lang):
            said = py_ngettext("{n} card", "{n} cards", n)
        assert forms[PLURAL_CATEGORIES[lang].index(rule(n))] == said


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("th-TH,th;q=0.9,en;q=0.8", Language.TH),
        ("en-US,en;q=0.9,de;q=0.8", Language.EN),
        ("xx,ja;q=0.9,fr-CA;q=0.5", Language.FR),
        ("de;q=0.2,es;q=0.7", Language.ES),
        ("zh-Hant-TW", Language.ZH_TW),
        ("is;q=0, *", Language.EN),
        ("", Language.EN),
        (None, Language.EN),
    ],
)
def test_accept_language_picks_the_first_of_ours_by_weight(
    header: str | None, lang: Language
) -> None:
    assert accepted(header) is lang


def test_the_server_sends_the_catalog_asked_for(
    make_server: Callable[..., ServerThread],
) -> None:
    web = make_server()
    thai = httpx.get(f"{web.url}/api/language", headers={"Accept-Language": "th-TH,th;q=0.9"})
    assert thai.status_code == 200
    body = thai.json()
    assert body["lang"] == "th" and body["plural"] == ["other"]
    assert body["messages"]["Play now against bots"] == "เล่นกับบอทเลย"
    assert body["messages"]["Ace"] == "เอซ"  # the core's words, from the same catalog
    assert {"tag": "zh-TW", "native": "繁體中文（台灣）"} in body["languages"]
    named = httpx.get(f"{web.url}/api/language?lang=de_DE", headers={"Accept-Language": "th"})
    assert named.json()["lang"] == "de"
    assert named.json()["messages"]["{n} card"] == ["{n} Karte", "{n} Karten"]
    english = httpx.get(f"{web.url}/api/language").json()
    assert english["lang"] == "en" and english["messages"] == {}
    bad = httpx.get(f"{web.url}/api/language?lang=klingon")
    assert bad.status_code == 400
    assert bad.json()["code"] == "malformed"
    assert "klingon" in bad.json()["message"] and "zh_TW" in bad.json()["message"]


def test_each_connection_reads_the_table_talk_in_its_language(
    make_server: Callable[..., ServerThread],
) -> None:
    # one table, three clients: the same events, each line in the client's language, and
    # no other language's lines in any frame
    web = make_server(bot_delay=0.0)
    created = web.create(name="Ann", players=2, bots={"2": "easy"})
    table, token = created["table"], created["token"]
    base = f"ws://127.0.0.1:{web.port}/ws/{table}"
    ann = Client(f"{base}?lang=de", token)
    thai = Client(f"{base}?lang=th", None)
    english = Client(base, None)
    for client in (ann, thai, english):
        client.wait(lambda m: m["type"] == "sync")
    ann.wait(lambda m: m["type"] in ("sync", "update") and m["view"]["turn"] == 1)
    action = ann.view["legal"][0]
    ann.send({"type": "act", "state": ann.state, "action": action})
    said: dict[str, list[str]] = {}
    for name, client in (("de", ann), ("th", thai), ("en", english)):
        frame = client.wait(
            lambda m: m["type"] == "update" and any(e.get("text") for e in m["events"])
        )
        said[name] = [e["text"] for e in frame["events"] if e.get("text")]
        assert all("translations" not in e for e in frame["events"])
    assert len(said["de"]) == len(said["th"]) == len(said["en"])
    assert said["en"][0].startswith("Ann plays ")
    assert said["de"][0].startswith("Ann spielt ")
    assert any("\u0e00" <= ch <= "\u0e7f" for ch in said["th"][0])  # Thai letters
    stuck = Client(f"{base}?lang=klingon", None)
    refusal = stuck.recv()
    assert refusal["type"] == "error" and "klingon" in refusal["message"]
    for client in (ann, thai, english, stuck):
        client.close()
