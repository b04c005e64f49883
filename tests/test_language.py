"""The game speaks every language of ``Language`` completely: each catalog holds exactly
the messages the source has (none missing, untranslated or unused), with the English
placeholders and the number of plural forms CLDR gives the language; the compiled ``.mo``
is the ``.po``'s; a whole game is narrated in each without an English line left; English
is the message ids themselves; ``--lang`` and ``LANG`` choose."""

from __future__ import annotations

import gettext
import importlib.util
import io
import random
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from rich.cells import cell_len

from ninetynine import load_rules, new_game
from ninetynine.cli.main import main
from ninetynine.engine.events import narrate
from ninetynine.engine.options import stuck_explanation
from ninetynine.language import (
    LOCALE_DIR,
    Language,
    LanguageError,
    _,
    choose,
    current,
    using,
)
from ninetynine.rules.cards import card_name
from ninetynine.rules.describe import describe_rules, rules_text
from ninetynine.rules.presets import presets
from ninetynine.rules.words import counter

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
assert _spec is not None and _spec.loader is not None
catalogs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(catalogs)

TRANSLATED = [lang for lang in Language if lang is not Language.EN]
# CLDR's plural categories, as Babel writes them into each catalog's header
PLURALS = {
    Language.ZH_TW: 1,
    Language.TH: 1,
    Language.IS: 2,
    Language.DE: 2,
    Language.ES: 3,  # one, many (a million: "1 000 000 de vidas"), other
    Language.FR: 3,
}


def po(lang: Language) -> Catalog:
    with (LOCALE_DIR / lang.value / "LC_MESSAGES" / "ninetynine.po").open("rb") as f:
        return read_po(f, locale=lang.value)


def ids(catalog: Catalog) -> set[object]:
    return {(m.id, m.context) for m in catalog if m.id}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    """The template extracted from the source now, as ``scripts/catalogs.py`` does it."""
    path = tmp_path_factory.mktemp("pot") / "ninetynine.pot"
    catalogs.extract(path)
    with path.open("rb") as f:
        return read_po(f)


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_committed_template_is_the_source_s(template: Catalog) -> None:
    with catalogs.TEMPLATE.open("rb") as f:
        committed = read_po(f)
    assert ids(committed) == ids(template), "run: python scripts/catalogs.py update"


def test_every_language_has_a_catalog_and_every_catalog_a_language() -> None:
    folders = {p.name for p in LOCALE_DIR.iterdir() if p.is_dir()}
    assert folders == {lang.value for lang in TRANSLATED}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_holds_every_message_of_the_source_and_no_other(
    lang: Language, template: Catalog
) -> None:
    catalog = po(lang)
    assert ids(catalog) - ids(template) == set(), "unused messages"
    assert ids(template) - ids(catalog) == set(), "missing messages"
    assert not catalog.obsolete


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: Language) -> None:
    catalog = po(lang)
    assert catalog.num_plurals == PLURALS[lang]
    for m in catalog:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert not m.fuzzy, m.id
        assert len(forms) == (catalog.num_plurals if m.pluralizable else 1), m.id
        assert all(forms), f"{lang}: untranslated {m.id!r}"


def plural_forms_for_many(catalog: Catalog) -> set[int]:
    """The forms a number other than 1 may take (Icelandic: 21 takes the singular's)."""
    choose_form = gettext.c2py(catalog.plural_expr)
    return {choose_form(n) for n in [*range(0, 1001), 1_000_000, 2_000_000] if n != 1}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_are_the_english_ones(lang: Language) -> None:
    catalog = po(lang)
    many = plural_forms_for_many(catalog)
    for m in catalog:
        if not m.id:
            continue
        if not isinstance(m.id, tuple):
            assert fields(str(m.string)) == fields(m.id), (lang, m.id, m.string)
            continue
        one, other = (fields(text) for text in m.id)
        for form, text in enumerate(m.string):
            got = fields(text)
            if form in many:  # says a count other than 1: the English plural's fields
                assert got == other, (lang, m.id, form, text)
            else:  # said of 1 only: may leave the number out, as English "a card" does
                assert got <= one | other and len((one | other) - got) <= 1, (lang, m.id, text)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_the_po_compiled(lang: Language) -> None:
    out = io.BytesIO()
    write_mo(out, po(lang))
    committed = LOCALE_DIR / lang.value / "LC_MESSAGES" / "ninetynine.mo"
    assert committed.read_bytes() == out.getvalue(), "run: python scripts/catalogs.py compile"


def test_the_plural_forms_follow_each_language() -> None:
    pennies = counter(load_rules("P"))
    said = {}
    for lang in Language:
        with using(lang):
            said[lang] = [pennies(n) for n in (0, 1, 2, 11, 21)]
    assert said[Language.EN] == ["0 pennies", "1 penny", "2 pennies", "11 pennies", "21 pennies"]
    assert said[Language.FR] == ["0 sou", "1 sou", "2 sous", "11 sous", "21 sous"]
    assert said[Language.IS] == ["0 aura", "1 eyri", "2 aura", "11 aura", "21 eyri"]
    assert said[Language.DE] == ["0 Pennys", "1 Penny", "2 Pennys", "11 Pennys", "21 Pennys"]
    assert said[Language.TH] == [f"{n} เพนนี" for n in (0, 1, 2, 11, 21)]


def test_card_names_follow_the_language() -> None:
    names = {}
    for lang in Language:
        with using(lang):
            names[lang] = card_name(0), card_name(12 * 4 + 1)  # the Ace of Spades, King of Hearts
    assert names[Language.EN] == ("Ace of Spades", "King of Hearts")
    assert names[Language.DE] == ("Pik-Ass", "Herz-König")
    assert names[Language.IS] == ("Spaðaás", "Hjartakóngur")
    assert names[Language.ZH_TW] == ("黑桃A", "紅心K")


@pytest.mark.slow
def test_a_whole_game_is_told_in_every_language_with_no_english_line_left() -> None:
    rng = random.Random(99)
    told: dict[Language, list[str]] = {lang: [] for lang in Language}
    for preset in presets():
        rules = load_rules(preset)
        players = min(max(4, rules.players_min), rules.players_max)
        state = new_game(rules, players)
        names = [f"P{s + 1}" for s in range(players)]
        while not state.is_over:
            if state.is_chance:
                action = state.sample_chance(rng)
            else:
                stuck = [stuck_explanation(state, lang) for lang in Language]
                if stuck[0] is not None:
                    for lang, line in zip(Language, stuck, strict=True):
                        told[lang].append(str(line))
                action = rng.choice(state.legal_actions())
            for event in state.apply(action):
                lines = [narrate(event, names, rules, lang) for lang in Language]
                for lang, line in zip(Language, lines, strict=True):
                    if line is not None:
                        told[lang].append(line)
    english = told[Language.EN]
    assert len(english) > 1000
    for lang in TRANSLATED:
        assert len(told[lang]) == len(english)
        left = [en for en, line in zip(english, told[lang], strict=True) if en == line]
        assert not left, f"{lang}: English left: {left[:5]}"


def test_a_line_is_in_the_language_asked_and_the_current_one_is_restored() -> None:
    from ninetynine.engine.events import Skipped

    assert narrate(Skipped(0), ["Ann"], None, Language.DE) == "Ann wird übersprungen."
    with using(Language.FR):
        assert narrate(Skipped(0), ["Ann"]) == "Ann passe son tour."
        assert narrate(Skipped(0), ["Ann"], None, Language.EN) == "Ann is skipped."
        assert current() is Language.FR
    assert current() is Language.EN
    assert narrate(Skipped(0), ["Ann"]) == "Ann is skipped."


def test_a_custom_call_is_said_as_written_and_a_default_one_translated() -> None:
    from ninetynine.engine.events import TotalCalled

    assert narrate(TotalCalled(0, 42, "hup 42"), ["Ann"], None, Language.DE) == "Ann: „hup 42“"
    assert (
        narrate(TotalCalled(0, 42, "pass to you 42"), ["Ann"], None, Language.DE)
        == "Ann: „weiter an dich, 42“"
    )


@pytest.mark.parametrize(
    ("explicit", "env", "expected"),
    [
        ("th", {"LANG": "de_DE.UTF-8"}, Language.TH),
        ("zh-TW", {}, Language.ZH_TW),
        (None, {"LANG": "de_DE.UTF-8"}, Language.DE),
        (None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, Language.EN),
        (None, {"LC_MESSAGES": "is_IS.UTF-8", "LANG": "fr_FR"}, Language.IS),
        (None, {"LANGUAGE": "ja:es", "LANG": "de_DE"}, Language.ES),
        (None, {"LANG": "ja_JP.UTF-8"}, Language.EN),
        (None, {}, Language.EN),
    ],
)
def test_the_language_is_chosen_explicitly_then_from_the_environment(
    explicit: str | None, env: dict[str, str], expected: Language
) -> None:
    assert choose(explicit, env) is expected


def test_an_unknown_language_is_one_line_naming_it_and_the_accepted_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(LanguageError):
        choose("xx", {})
    assert main(["rules", "P", "--lang", "xx"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "ninetynine: error: unknown language 'xx': expected one of en, zh_TW, th, is, es, de, fr\n"
    )


def test_rules_in_thai(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "P", "--lang", "th"]) == 0
    out = capsys.readouterr().out
    assert "ที่มา: " in out and "ไพ่" in out and "ส่งต่อให้คุณ #" in out
    assert main(["--lang", "th", "rules", "P"]) == 0
    assert capsys.readouterr().out == out


def _has_words(line: str) -> bool:
    return re.search("[A-Za-z]{3}", line) is not None


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_preset_s_rules_are_described_in_the_language_with_no_english_left(
    lang: Language,
) -> None:
    for pid in presets():
        rules = load_rules(pid)
        english = describe_rules(rules)
        with using(lang):
            told = describe_rules(rules)
        assert [len(body) for _h, body in told] == [len(body) for _h, body in english]
        for (_heading, body), (en_heading, en_body) in zip(told, english, strict=True):
            for line, en_line in zip(body, en_body, strict=True):
                if en_heading == "Cards":  # "Six: +6" is French too: the effect is compared
                    line, en_line = line.partition(":")[2], en_line.partition(":")[2]
                assert not _has_words(en_line) or line != en_line, (pid, lang, line)
                if lang in (Language.TH, Language.ZH_TW):  # no Latin word left at all
                    assert not _has_words(line), (pid, lang, line)


@pytest.mark.parametrize("lang", [Language.TH, Language.ZH_TW])
def test_the_card_list_is_aligned_by_terminal_cells_in_wide_and_combining_scripts(
    lang: Language,
) -> None:
    with using(lang):
        cards = dict(describe_rules(load_rules("TW")))[_("Cards")]
    names = [line.partition(":")[0] for line in cards]
    # each name right-aligned in 5 cells, a longer one (黑桃A, Ace of Spades) unpadded
    assert all(cell_len(n) == max(5, cell_len(n.strip())) for n in names), cards
    assert any(len(n) != cell_len(n) for n in names)  # padding by len() would not do


def test_house_rules_are_introduced_in_the_language() -> None:
    rules = load_rules("P").replace(hand_size=4)
    with using(Language.DE):
        text = rules_text(rules)
    assert "mit Hausregeln für hand_size; so läuft das Spiel mit ihnen." in text
    assert "Spiele eine Karte, sage die neue Summe an und ziehe dann wieder auf 4 auf." in text


def test_lang_in_the_environment_picks_german(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    record = tmp_path / "game.toml"
    assert main(["random-game", "--rules", "P", "--seed", "7", "-o", str(record)]) == 0
    assert main(["replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Runde 1: ") and " spielt " in out
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["replay", str(record)]) == 0
    assert capsys.readouterr().out.startswith("Hand 1: ")
