"""What people read is generated from the data and true: the rules text describes every
setting that changes the game (Hypothesis changes one setting at a time and checks that
the text changes, or else that the games played do not), speaks of what each rule set
calls a life, and shows no internal names; "cannot play" says why and what it costs; the
log tells each bust once, in the rules' words."""

from __future__ import annotations

import random
import re
from enum import StrEnum
from pathlib import Path
from typing import Any, get_type_hints

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ninetynine import RulesError, load_rules, new_game, presets
from ninetynine.cli.main import main
from ninetynine.engine import events as E
from ninetynine.engine.fields import EndReason
from ninetynine.engine.options import stuck_explanation
from ninetynine.rules.describe import describe_rules, rules_text
from ninetynine.rules.effects import parse_effect
from ninetynine.rules.presets import RULEBOOKS
from ninetynine.rules.settings import FIELDS, META, InstantRule, Rules
from ninetynine.rules.words import ENDINGS, ending
from tests.rules.helpers import play, pos
from tests.test_properties import EFFECTS, house_rules

PRESETS = list(presets())
HINTS = get_type_hints(Rules)
NUMBERS = {
    "players_min": (2, 6),
    "players_max": (2, 12),
    "decks": (1, 3),
    "big_table_over": (0, 8),
    "big_table_decks": (1, 3),
    "big_table_lives": (0, 6),
    "hand_size": (1, 7),
    "lives": (1, 9),
    "stake": (0, 3),
    "limit": (20, 150),
    "halve_over": (0, 90),
    "king_ban_turns": (0, 6),
    "bust_penalty": (1, 3),
    "points_per_hand": (0, 5),
    "points_target": (1, 30),
    "rule_69_total": (10, 98),
    "team_lives": (0, 9),
}
WORDS = [
    "{total} — bust",
    "0",
    "over! {total}",
    "pass to you {total}",
    "nine is mine",
    "back on you {total}",
    "{total}",
]


@st.composite
def one_change(draw: st.DrawFn, base: Rules) -> tuple[str, Rules]:
    """``base`` with one setting changed to another value (a valid combination)."""
    key = draw(st.sampled_from(FIELDS))
    hint, old = HINTS[key], getattr(base, key)
    value: Any
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        value = draw(st.sampled_from(list(hint)))
    elif hint is bool:
        value = not old
    elif hint is int:
        value = draw(st.integers(*NUMBERS[key]))
    elif key == "bust_call":
        value = draw(st.sampled_from(WORDS))
    elif hint is str:
        value = draw(st.text("abcdefgh XYZ", min_size=1, max_size=12))
    elif key in ("cards", "calls"):
        rank = draw(st.integers(0, 12))
        new = (
            parse_effect(draw(st.sampled_from(EFFECTS)))
            if key == "cards"
            else draw(st.sampled_from(WORDS))
        )
        value = old[:rank] + (new,) + old[rank + 1 :]
    elif key == "suit_cards":
        card = draw(st.integers(0, 51))
        value = (*dict(old).items(), (card, parse_effect(draw(st.sampled_from(EFFECTS)))))
        value = tuple(dict(value).items())
    elif key in ("threshold_values", "border_values"):
        value = tuple(draw(st.lists(st.integers(1, 98), min_size=1, max_size=3, unique=True)))
    elif key in ("upcard_special", "challenge_cancel", "no_draw_after"):
        value = tuple(sorted(draw(st.sets(st.integers(0, 12), max_size=6))))
    elif key == "joker_cards":  # (they play, and are described, only with jokers)
        assume(base.jokers)
        which = draw(st.integers(0, 1))
        new = parse_effect(draw(st.sampled_from(EFFECTS)))
        value = old[:which] + (new,) + old[which + 1 :]
    elif key == "decks_by_players":
        value = tuple(
            sorted(draw(st.dictionaries(st.integers(2, 10), st.integers(1, 3), max_size=2)).items())
        )
    else:
        assert key == "instant_hands", key
        value = tuple(
            draw(
                st.lists(
                    st.builds(InstantRule, st.integers(2, 4), st.integers(0, 12), st.booleans()),
                    max_size=2,
                    unique=True,
                )
            )
        )
    try:
        changed = base.replace(**{key: value})
    except RulesError:
        assume(False)
        raise
    assume(changed != base)
    return key, changed


def games(rules: Rules, players: int) -> list[list[str]]:
    """Two random games (fixed seeds), as far as a player can tell them apart: the moves
    offered and the events of each move (bookkeeping that no rule reads is left out)."""
    out = []
    for seed in range(2):
        rng, state = random.Random(seed), new_game(rules, players, first=seed % players)
        log = []
        for _ in range(300):
            if state.is_over:
                break
            legal = [] if state.is_chance else state.legal_actions()
            events = state.apply(state.sample_chance(rng) if state.is_chance else rng.choice(legal))
            log.append(f"{legal} {events}")
        out.append([*log, repr(state.outcome)])
    return out


def plays_the_same(a: Rules, b: Rules) -> bool:
    sizes = {max(a.players_min, b.players_min), min(a.players_max, b.players_max, 4)}
    return all(
        a.players_min <= n <= a.players_max
        and b.players_min <= n <= b.players_max
        and games(a, n) == games(b, n)
        for n in sizes
    )


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(st.data())
def test_changing_any_single_setting_of_a_preset_changes_its_description(
    data: st.DataObject,
) -> None:
    base = load_rules(data.draw(st.sampled_from(PRESETS)))
    key, changed = data.draw(one_change(base))
    # a setting of play must change the body, not only the heading (which names the key)
    cut = 0 if key in META else 1
    assert rules_text(changed).split("\n\n", 1)[cut] != rules_text(base).split("\n\n", 1)[cut]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(st.data())
def test_a_setting_left_out_of_the_description_changes_no_game(data: st.DataObject) -> None:
    """The description covers every setting that matters: any house rules, one setting
    changed; if the description reads the same, the games play the same."""
    base = data.draw(house_rules())
    key, changed = data.draw(one_change(base))
    if describe_rules(changed) == describe_rules(base):
        assert plays_the_same(base, changed), f"{key} changes the game but not the text"


def test_a_house_rule_with_no_effect_is_named_as_such(tmp_path: Path) -> None:
    text = rules_text(
        load_rules({"preset": "P", "rules": {"threshold_values": [30, 60], "lives": 4}})
    )
    assert "4 pennies each" in text
    assert "No effect with these rules\n  threshold_values = [30, 60]\n" in text
    assert "lives =" not in text


@pytest.mark.parametrize("pid", PRESETS)
def test_the_rules_text_shows_no_internal_names(pid: str) -> None:
    text = rules_text(load_rules(pid))
    assert not re.search(r"\bS00\d\b|\.txt\b|\[[A-Z]+\d*[a-z]?\]", text), text
    assert "No effect" not in text  # a preset sets nothing in vain


# What a person reads: the rules text of presets that used to say the wrong thing -------


def test_game_points_and_team_pools_are_named_as_such() -> None:
    borders = rules_text(load_rules("P-BORDERS"))
    assert not re.search(r"\bli(fe|ves)\b", borders)
    assert "3 game points each at the start of every hand" in borders
    assert "Crossing a border (33:34, 66:67, 99:100), either way, costs a game point." in borders
    team = rules_text(load_rules("J-TEAM"))
    assert "each with one pool of 6 tokens" in team
    assert "costs a token from your team's pool" in team
    assert "A team whose pool is empty is out of the game." in team


def test_two_player_four_of_p_online_still_adds_four() -> None:
    text = rules_text(load_rules("P-ONLINE"))
    assert (
        "With two players in the hand, the Four does not reverse (it still counts +4): "
        "the other player is next."
    ) in text


def test_g_names_its_opener_and_has_no_dealer() -> None:
    text = rules_text(load_rules("G"))
    assert (
        "player 1 opens the first game, and the next player clockwise each game after that"
    ) in text
    assert "dealer" not in text and "deal passes" not in text


def test_98_says_the_one_loser_ends_the_game_once() -> None:
    text = rules_text(load_rules("98"))
    assert (
        "Going over 98 (or having no card to play): that player loses and the game ends at once."
    ) in text
    assert "If every card would go over 98, you must still play one (your choice)" in text
    assert "no lives left" not in text and "a new one is dealt" not in text


def test_a_house_rules_file_is_described_with_its_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "P"\n[rules]\nlives = 3\nking_ban_turns = 2\n', encoding="utf-8")
    assert main(["rules", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(
        "P+house: Pagat-style standard (house rules)\nPagat-style standard "
        "(P) with house rules for lives and king_ban_turns;"
    )
    assert "3 pennies each" in text and "5 pennies" not in text
    assert "No King to 99 during your first 2 turns of each hand" in text
    assert "house.toml" not in text and str(tmp_path) not in text


# "Cannot play": the real reason and the real cost ----------------------------------------


@pytest.mark.parametrize(
    "rules,hands,keys,said",
    [
        (
            "P",
            ["JS QH JD", "5C 6C 7C"],
            {"total": 95},
            "You cannot play: J♠, J♦ and Q♥ would take the total over 99. You lay down your hand "
            "and lose a penny.",
        ),
        (
            "K",
            ["10S 10H 10D", "5C 6C 7C"],
            {"total": 5},
            "You cannot play: 10♠, 10♥ and 10♦ would take the total below 0. You lay down your "
            "hand and lose a life.",
        ),
        (
            "P-UPCARD",
            ["KS QS JS", "5C 6C 7C"],
            {"total": 95},
            "You cannot play: J♠ and Q♠ would take the total over 99; K♠ may not make 99 in your "
            "first 5 turns. You lay down your hand and lose a life, and you are out.",
        ),
        (
            "P-BORDERS",
            ["JS QS KS", "5C 6C 7C"],
            {"total": 95},
            "Every card you hold would take the total over 99: you must still play one (choose "
            "one) and lose a game point for each border you cross.",
        ),
        (
            "J-TEAM",
            ["JS QS 8S", "5C 6C 7C", "5H 6H 7H", "5D 6D 7D"],
            {"total": 95},
            "Every card you hold would take the total over 99: you must still play one (choose "
            "one) and lose a token from your team's pool.",
        ),
        (
            "P-ONLINE",
            ["JS QS KS", "5C 6C 7C"],
            {"total": 95, "lives": [0, 9]},
            "Every card you hold would take the total over 99: you must still play one (choose "
            "one) and lose 2 pennies: you have none left (on honour), so you are out.",
        ),
    ],
)
def test_cannot_play_says_why_and_what_it_costs(
    rules: str, hands: list[str], keys: dict[str, Any], said: str
) -> None:
    assert stuck_explanation(pos(rules, hands, **keys)) == said


# The log: each bust told once, in the rules' words, with unpaid debts as unpaid ---------


def talk(rules: str, hands: list[str], moves: list[str], **keys: Any) -> list[str]:
    """The table talk of some moves from a position, with the players' names."""
    state = pos(rules, hands, **keys)
    names = ["Ann", "Ben", "Cleo", "Dev"][: len(hands)]
    return [line for e in play(state, *moves) if (line := E.narrate(e, names, state.rules))]


def test_the_log_tells_each_bust_once_with_its_real_cost() -> None:
    assert talk("P", ["JS QH JD", "5C 6C 7C"], ["down"], total=95) == [
        "Ann cannot play and lays down.",
        "Ann loses a penny; 4 left.",
        "Hand 1 is over.",
    ]
    assert talk("P-ONLINE", ["JS QS KS", "5C 6C 7C"], ["JS"], total=95, lives=[3, 9]) == [
        "Ann plays J♠.",
        'Ann: "105 — bust"',
        "Ann goes over with 105.",
        "Ann loses 2 pennies; 1 left.",
        "Hand 1 is over.",
    ]
    assert "Ann loses a token from the team's pool; 5 left." in talk(
        "J-TEAM", ["JS QS 8S", "5C 6C 7C", "5H 6H 7H", "5D 6D 7D"], ["JS"], total=95
    )


def test_the_log_shows_an_unpaid_debt_as_unpaid() -> None:
    assert talk("P-ONLINE", ["JS QS KS", "5C 6C 7C"], ["JS"], total=95, lives=[0, 9])[3:] == [
        "Ann owes 2 pennies but has none: 2 pennies unpaid.",
        "Ann is out of the game.",
        "Ben wins (the last player left).",
    ]


def test_a_two_player_reverse_plays_again_without_a_direction() -> None:
    assert talk("P-2P-AGAIN", ["4S 5S 6S", "5C 6C 7C"], ["4S"], total=20) == [
        "Ann plays 4♠.",
        'Ann: "back on you 20"',
        "Ann plays again.",
    ]


def test_the_log_counts_in_words_people_use() -> None:
    g, borders = load_rules("G"), load_rules("P-BORDERS")
    assert E.narrate(E.HandStarted(1, 0, 0), ["Ann", "Ben", "Cleo"], g) == "Hand 1: Ann opens."
    assert E.narrate(E.BorderCrossed(1, 33, 1), ["Ann", "Ben"], borders) == (
        "Ben loses a game point for crossing 33:34; 1 left."
    )
    assert E.narrate(E.BorderCrossed(1, None, 2), ["Ann", "Ben"], borders) == (
        "Ben loses a game point for laying down; 2 left."
    )
    assert E.narrate(E.MustPlay(0, 1)) == "P1 plays 1 more card without drawing."
    assert E.narrate(E.StockReshuffled(1, True)) == (
        "The stock ran out: 1 played card is shuffled into a new stock, the top card stays."
    )
    assert (
        E.narrate(
            E.LifeLost(2, 1, 4, "made exactly 33", by=0),
            ["Ann", "Ben", "Cleo"],
            load_rules("P-ONLINE"),
        )
        == "Cleo loses a penny (Ann made exactly 33); 4 left."
    )


def test_every_rules_question_cited_in_the_code_is_in_docs_rules_md() -> None:
    """A comment that cites Q18 or D25 sends the reader to docs/rules.md, which holds it."""
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    cited = {
        code
        for path in (root / "src" / "ninetynine").rglob("*.py")
        for code in re.findall(r"\b[QD]\d\d\b", path.read_text(encoding="utf-8"))
    }
    assert cited >= {"Q18", "D25"}  # (the search finds them)
    assert sorted(c for c in cited if f"- **{c} " not in doc) == []


def test_every_code_cited_in_the_code_and_docs_has_its_entry_in_a_carried_source() -> None:
    """D.. and Q.. are the rules matrix's, O.. its companion's: the repository carries both (and
    the rulebooks they cite), so a reader of a clone can look each code up."""
    root = Path(__file__).resolve().parents[1]
    sources = root / "docs" / "sources"
    texts = [
        *(root / "src" / "ninetynine").rglob("*.py"),
        root / "README.md",
        *(p for p in (root / "docs").rglob("*.md") if sources not in p.parents),
    ]
    cited = {
        code
        for path in texts
        for code in re.findall(r"\b[DQO]\d\d\b", path.read_text(encoding="utf-8"))
    }
    assert cited >= {"D31", "Q47", "O14"}  # (the search finds them)
    carried = "\n".join(
        (sources / "rules" / name).read_text(encoding="utf-8")
        for name in ("MATRIX.md", "FAMILIES.md")
    )
    entries = set(re.findall(r"^- \*\*([DQO]\d\d)\b|\b([DQO]\d\d): ", carried, re.M))
    assert sorted(cited - {code for pair in entries for code in pair}) == []
    assert (
        sorted(
            tag for tag, name in RULEBOOKS.items() if not (sources / "rulebooks" / name).is_file()
        )
        == []
    )
    assert not [p for p in texts if "shared/rules" in p.read_text(encoding="utf-8")]


def test_every_ending_is_said_in_words() -> None:
    """Why a game ended reads as a reason ("the last player left"), not an internal name;
    98's single loser ends the game without the winner having gone out."""
    assert set(ENDINGS) == {r.value for r in EndReason}
    assert all("_" not in ending(r) for r in EndReason)
    assert ending(EndReason.FIRST_OUT) == "a player went out, which ends the game"
