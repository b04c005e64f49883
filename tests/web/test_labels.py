"""The words the browser shows from the server in the page's language: the cards' corner
labels (``rules_json``, made in the language a connection reads) and a replay's talk and
calls (``replay_json``); English as it was, the fields programs read unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ninetynine import load_rules, presets
from ninetynine.engine.events import TotalCalled
from ninetynine.language import Language, using
from ninetynine.records.record import parse_record
from ninetynine.rules.words import spoken
from ninetynine.web.wire import event_json, in_language, note_json, replay_json, rules_json
from tests.rules.test_cn99 import MOVING

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
OTHERS = [lang for lang in Language if lang is not Language.EN]
# the English words a corner label is made of (the numbers, signs and ±10 are no language's)
ENGLISH = re.compile(
    r"\b(sets|any total|doubles|halves|holds|reverses|skips|names next|no draw|challenges|or"
    r"|swaps hands|takes a card|strips a hand|revives or refills)\b"
)


def labels(preset: str, lang: Language) -> dict[str, str]:
    with using(lang):
        made = rules_json(load_rules(preset))
    return {k: v["label"] for part in ("ranks", "suits") for k, v in made[part].items()}


def test_the_english_labels_are_as_they_were() -> None:
    assert labels("P", Language.EN) == {
        "A": "+1 or +11",
        "2": "+2",
        "3": "+3",
        "4": "reverses",
        "5": "+5",
        "6": "+6",
        "7": "+7",
        "8": "+8",
        "9": "holds",
        "10": "±10",
        "J": "+10",
        "Q": "+10",
        "K": "sets 99",
    }
    words = {label for preset in presets() for label in labels(preset, Language.EN).values()}
    assert {"halves or doubles", "+4, reverses", "challenges", "names next", "no draw"} <= words


def test_a_seat_a_play_names_is_said_to_be_for_its_purpose_and_the_jokers_are_labelled() -> None:
    """The client asks "who plays next?", "whom do you challenge?", "whose hand...?" or
    "whom do you take a card from?" by ``names``; CN99's jokers get labels of their own
    where they are in play, and only there."""
    moving = rules_json(load_rules(MOVING))
    names = {rank: label["names"] for rank, label in moving["ranks"].items()}
    assert names["7"] == "swap" and names["J"] == "take" and names["A"] == "next"
    assert names["5"] is None
    assert list(moving["ranks"])[-2:] == ["SJ", "BJ"]
    assert all(moving["ranks"][j]["special"] for j in ("SJ", "BJ"))
    jokers = rules_json(load_rules("CN99"))["ranks"]
    assert (jokers["SJ"]["names"], jokers["BJ"]["names"]) == ("strip", "revive")
    plain = rules_json(load_rules("P"))
    assert "SJ" not in plain["ranks"] and len(plain["ranks"]) == 13
    assert {label["names"] for label in plain["ranks"].values()} == {None}


@pytest.mark.parametrize("lang", OTHERS, ids=str)
def test_every_label_of_every_preset_is_translated(lang: Language) -> None:
    for preset in presets():
        english, said = labels(preset, Language.EN), labels(preset, lang)
        assert said.keys() == english.keys()
        for card, label in said.items():
            if ENGLISH.search(english[card]):  # words, not only a number
                assert label != english[card], (preset, card, label)
                assert not ENGLISH.search(label), (preset, card, label)
            else:
                assert label == english[card], (preset, card, label)
            assert "{" not in label, (preset, card, label)
    assert labels("P", lang)["K"].count("99") == 1  # the total set, in the label


def test_a_replay_talks_and_calls_in_its_language() -> None:
    record = parse_record((GOLDEN / "P.toml").read_text(encoding="utf-8"))
    english, thai = replay_json(record, None), replay_json(record, None, Language.TH)
    # what programs read is the same in every language: only the outcome's words differ
    neutral = [{**s["view"], "outcome": None} for s in thai["steps"]]
    assert neutral == [{**s["view"], "outcome": None} for s in english["steps"]]
    talk = [line for s in thai["steps"] for line in s["talk"]]
    assert talk and all(re.search("[\u0e00-\u0e7f]|: “", line) for line in talk), talk[:5]
    said = [c for s in english["steps"] for c in s["calls"]]
    called = [c for s in thai["steps"] for c in s["calls"]]
    assert [c["seat"] for c in called] == [c["seat"] for c in said] and said
    pairs = zip(said, called, strict=True)
    words = [(e["call"], t["call"]) for e, t in pairs if re.search("[a-z]", e["call"])]
    assert words and all(e != t and re.search("[\u0e00-\u0e7f]", t) for e, t in words)
    assert thai["rules"]["ranks"]["4"]["label"] != "reverses"
    # the English replay's calls are the talk's, as a person hears them
    for step in english["steps"]:
        assert all(f'"{c["call"]}"' in " ".join(step["talk"]) for c in step["calls"])


def test_a_live_call_is_said_in_each_connection_s_language_and_kept_as_written() -> None:
    # a live frame's call: ``call`` as written (for programs), ``said`` in the language of
    # the connection it is sent to (its speech bubble), its line of talk too
    event = TotalCalled(seat=1, total=99, text="pass to you 99")
    line = event_json(event, ["Ann", "Ben"], load_rules("P"))
    english = in_language([line], Language.EN)[0]
    assert english["call"] == english["said"] == "pass to you 99"
    assert "translations" not in english
    for lang in OTHERS:
        sent = in_language([line], lang)[0]
        assert sent["call"] == "pass to you 99"
        assert "99" in sent["said"] and sent["said"] != "pass to you 99", lang
        assert sent["text"] != english["text"], lang
    assert in_language([line], Language.DE)[0]["said"] == spoken_in(Language.DE)


def spoken_in(lang: Language) -> str:
    with using(lang):
        return spoken("pass to you 99", 99)


def test_the_server_s_notes_are_narrated_in_each_connection_s_language() -> None:
    # a note is kept and told as plain JSON (its message and placeholders beside its English
    # text), and each connection reads it in its language; a turn clock in its words too
    note = note_json(
        0,
        "TimedOut",
        "{who} did not play within the turn clock ({clock}): a bot plays this turn.",
        who="Ann",
        clock=2 * 86400,
    )
    assert json.loads(json.dumps(note)) == note
    assert in_language([note], Language.EN) == [
        {
            "kind": "TimedOut",
            "seat": 1,
            "text": "Ann did not play within the turn clock (2 days): a bot plays this turn.",
        }
    ]
    german = in_language([note], Language.DE)[0]["text"]
    assert (
        german
        == "Ann hat nicht innerhalb der Zugzeit (2 Tage) gespielt: ein Bot spielt diesen Zug."
    )
    for lang in OTHERS:
        said = in_language([note], lang)[0]["text"]
        assert "Ann" in said, lang
        assert "did not play" not in said and "days" not in said, lang
    back = note_json(1, "Returned", "{who} is back.", who="Ben")
    assert in_language([back], Language.FR)[0]["text"] == "Ben est de retour."
    joined = note_json(2, "Joined", "{who} sits down at seat {seat}.", who="Cy", seat=3)
    assert in_language([joined], Language.EN)[0]["text"] == "Cy sits down at seat 3."
    assert in_language([joined], Language.ES)[0]["text"] == "Cy se sienta en el asiento 3."
