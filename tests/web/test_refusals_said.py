"""The server's refusals said in the reader's language (``said``): English readers get the
message as it is, every other language a translated sentence for its code; ``code`` and
``message`` stay what programs and logs read."""

from __future__ import annotations

import re

import httpx

from ninetynine.errors import Refusal
from ninetynine.language import Language
from ninetynine.web.errors import SAID, ErrorCode, ProtocolError
from tests.web.helpers import Client, ServerThread

OTHERS = [lang for lang in Language if lang is not Language.EN]
THAI = re.compile("[\u0e00-\u0e7f]")


def test_every_code_a_client_can_be_sent_has_a_sentence_in_every_language() -> None:
    assert set(SAID) == set(ErrorCode) | set(Refusal)
    for code in SAID:
        error = ProtocolError(code, "the English message")
        assert error.said(Language.EN) == "the English message"
        for lang in OTHERS:
            assert error.said(lang) != SAID[code], (code, lang)  # translated, not the id


def test_an_http_refusal_is_said_in_the_language_the_request_asks_for(
    server: ServerThread,
) -> None:
    german = httpx.get(f"{server.url}/api/tables/nosuch", headers={"Accept-Language": "de"})
    assert german.status_code == 404
    body = german.json()
    assert body["code"] == "no_table" and body["message"] == "no table 'nosuch'"
    assert body["said"] == "Diesen Tisch gibt es nicht: Vielleicht ist er beendet."
    thai = httpx.get(f"{server.url}/api/tables/nosuch?lang=th")
    assert THAI.search(thai.json()["said"]) and thai.json()["code"] == "no_table"
    english = server.get("/api/tables/nosuch").json()
    assert english["said"] == english["message"] == "no table 'nosuch'"
    # the guard's refusals too (a body of the wrong type, before any route reads it)
    typed = httpx.post(
        f"{server.url}/api/tables",
        content=b"name=Ann",
        headers={"Content-Type": "text/plain", "Accept-Language": "fr"},
    )
    assert typed.json()["said"] == "Le serveur n’a pas pu lire cette requête."
    # a full table, as a person meets it: joining one whose seats are taken
    created = server.create(name="Ann", rules="P", players=2)
    server.join(created["table"], "Bob")
    full = httpx.post(
        f"{server.url}/api/tables/{created['table']}/join",
        json={"name": "Cy"},
        headers={"Accept-Language": "es-ES,es;q=0.9"},
    )
    assert full.json()["code"] == "table_full"
    assert full.json()["said"] == "Todos los asientos de esta mesa están ocupados."


def test_a_table_s_refusals_are_said_in_the_connection_s_language(server: ServerThread) -> None:
    created = server.create(name="Ann", rules="P", players=2)
    bob = server.join(created["table"], "Bob")
    url = f"ws://127.0.0.1:{server.port}/ws/{created['table']}"
    german, thai = (
        Client(f"{url}?lang=de", created["token"]),
        Client(f"{url}?lang=th", bob["token"]),
    )
    said = {}
    for lang, client in (("de", german), ("th", thai)):
        client.wait(lambda m: m["type"] == "sync")
        client.send({"type": "act", "state": -1, "action": "AS"})
        error = client.error()
        assert error["code"] == "stale" and error["message"].startswith("state -1 is not")
        said[lang] = error["said"]
    assert said["de"].startswith("Das Spiel ging weiter, bevor dein Zug ankam")
    assert THAI.search(said["th"])
    watcher = Client(f"{url}?lang=fr", None)
    watcher.wait(lambda m: m["type"] == "sync")
    watcher.send({"type": "act", "state": 0, "action": "AS"})
    assert watcher.error()["said"] == (
        "Vous regardez cette table : seuls ses joueurs peuvent faire cela."
    )
