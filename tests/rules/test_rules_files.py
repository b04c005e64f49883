"""Presets, REC defaults, every Alt selectable by a rules mapping, and rules-file errors."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from ninetynine import load_rules, new_game, play_out, preset_rules, presets
from ninetynine.errors import RulesError
from ninetynine.rules.presets import FAMILIES, find_preset, open_rules, rules_spec
from ninetynine.rules.settings import FIELDS, Draw, keys_help, rules_to_mapping

MATRIX_IDS = [
    "P",
    "K",
    "G",
    "J",
    "P-NICKELS",
    "P-SEVEN",
    "P-DOLLAR",
    "P-CONTINUE",
    "P-SWAP-9K",
    "P-SWAP-49",
    "P-TEN-MINUS",
    "P-ACE-1-11",
    "P-2P-AGAIN",
    "P-1950",
    "P-BORDERS",
    "P-69",
    "P-UPCARD",
    "P-UPCARD-INSTANT",
    "P-ONLINE",
    "P-ONLINE-TEACH",
    "J-PURE",
    "J-4TOKEN",
    "J-TEAM",
    "J-REVERSE",
]
# FAMILIES.md's published rule sets, with their working names as aliases
FAMILY_IDS = {
    "WIKI": "wikipedia",
    "BICYCLE": "bicycle",
    "BGA": "bga",
    "BGA-QUICK": "bga-quick",
    "98": "pagat-98",
    "98-CS": "cardstock-98",
    "98-CS-K0": "cardstock-98-k0",
    "TW": "taiwanese",
    "IS": "icelandic",
    "E2": "everything2",
    "QC": "quentin-c",
    "CN99": "99fen",
    "KC": "king-challenge",
}
ALL_IDS = MATRIX_IDS + list(FAMILY_IDS)


def test_every_named_rule_set_is_a_preset() -> None:
    assert set(presets()) == set(ALL_IDS)
    assert list(presets())[0] == "P"
    assert {p.family for p in presets().values()} == set(FAMILIES)
    order = [FAMILIES.index(p.family) for p in presets().values()]
    assert order == sorted(order)  # grouped by family, in the order of FAMILIES


@pytest.mark.parametrize("pid,alias", FAMILY_IDS.items())
def test_family_presets_answer_to_their_working_names(pid: str, alias: str) -> None:
    assert find_preset(alias).id == pid


@pytest.mark.parametrize("pid", list(FAMILY_IDS))
def test_family_presets_say_where_they_come_from(pid: str) -> None:
    preset = find_preset(pid)
    assert preset.origin and preset.rulebook is None
    if pid == "KC":  # a README whose repository the store does not name (§12.2)
        assert not preset.url and "README" in preset_rules(pid).source
        return
    assert preset.url.startswith("https://")
    assert preset.url in preset_rules(pid).source


@pytest.mark.parametrize("pid", ALL_IDS)
def test_preset_loads_by_id_and_alias(pid: str) -> None:
    r = load_rules(pid)
    assert r.id == pid
    for alias in find_preset(pid).aliases:
        assert load_rules(alias).id == pid
    assert load_rules(pid.lower()).id == pid


@pytest.mark.parametrize("pid", ALL_IDS)
def test_preset_plays_to_the_end(pid: str) -> None:
    r = preset_rules(pid)
    for n in sorted({r.players_min, min(r.players_max, 4), r.players_max}):
        s = new_game(r, n)
        play_out(s, random.Random(n))
        assert s.is_over and s.outcome is not None


@pytest.mark.parametrize("pid", ALL_IDS)
def test_rules_spec_round_trip(pid: str) -> None:
    r = preset_rules(pid)
    assert load_rules(rules_spec(r)) == r
    changed = load_rules({"preset": pid, "rules": {"lives": 7}})
    assert load_rules(rules_spec(changed)).lives == 7
    diff = rules_to_mapping(changed, r)
    assert {k: v for k, v in diff.items() if k not in ("id", "name")} == {"lives": 7}


# REC defaults (MATRIX §4) ---------------------------------------------------------------------

REC = [
    ("G", "draw_after_bust", True),  # Q03
    ("G", "may_bust", True),  # Q04
    ("G", "clear_pile_on_reset", False),  # Q06
    ("G", "two_player_reverse", "hold"),  # Q08
    ("G", "after_bust", "reset_all"),  # D31
    ("G", "below_zero", "clamp"),  # D24
    ("P", "below_zero", "allow"),  # Q10
    ("P-TEN-MINUS", "below_zero", "allow"),
    ("P-1950", "below_zero", "allow"),
    ("P-ONLINE", "below_zero", "allow"),
    ("P", "deck_count", "at_start"),  # Q11
    ("P", "direction", "reset"),  # Q12
    ("K", "direction", "reset"),
    ("P", "restock", "lazy"),  # Q14
    ("G", "restock", "lazy"),
    ("J", "restock", "lazy"),
    ("P", "draw", "auto"),  # Q15
    ("P-2P-AGAIN", "two_player_reverse", "play_again"),  # Q17
    ("P", "two_player_reverse", "hold"),  # D25
    ("K", "two_player_reverse", "hold"),  # Q19
    ("K", "stuck", "bust"),  # Q21
    ("K", "stock_empty", "no_draw"),  # Q22
    ("K", "after_bust", "sit_out"),  # Q20, Q23
    ("K", "below_zero", "illegal"),
    ("J", "new_round_deal", "from_stock"),  # Q25
    ("J", "starter", "left_of_loser"),  # Q26
    ("J", "forced_card", "choose"),  # Q27
    ("J", "empty_draw", "skip"),  # Q28
    ("J-TEAM", "team_lives", 0),  # Q29 (0 = the partners' sum)
    ("J-REVERSE", "two_player_reverse", "hold"),  # Q30
    ("J-PURE", "may_bust", False),  # Q31
    ("J-PURE", "no_legal_play", "play_and_bust"),
    ("P-CONTINUE", "after_bust", "reset_others"),  # Q32
    ("P-CONTINUE", "stock_empty", "reshuffle_all"),  # Q33
    ("P-1950", "elimination", "cannot_pay"),  # Q35
    ("P-1950", "pot", "winner_takes_all"),
    ("P-BORDERS", "may_bust", False),  # Q36
    ("P-BORDERS", "points_floor_zero", False),  # Q38
    ("P-BORDERS", "points_tie", "play_on"),
    ("P-69", "rule_69", "penny_from_pool"),  # Q39
    ("P-69", "rule_69_from", "any"),
    ("P-UPCARD", "after_bust", "end_hand"),  # Q40, Q50
    ("P-UPCARD", "king_ban_turns", 5),  # Q41
    ("P-UPCARD", "king_ban_scope", "hand"),
    ("P-UPCARD", "king_ban_at_limit", True),
    ("P-UPCARD-INSTANT", "instant_check", "deal_and_draw"),  # Q42
    ("P-UPCARD-INSTANT", "instant_order", "sixes_first"),
    ("P-ONLINE", "online_cross", "strict"),  # Q44
    ("P-ONLINE", "may_bust", False),  # Q45
    ("P-ONLINE", "skip_counts", "remaining"),  # Q47
    ("P-ONLINE", "reverse_with_two_players", False),
    ("P-SEVEN", "after_bust", "end_hand"),  # Q50
    ("P", "limit", 99),  # Q49
    ("P-BORDERS", "border_cross_backward_costs", True),  # FAMILIES §8.2: S000
    ("P-ONLINE", "elimination", "cannot_pay"),  # FAMILIES §8.1: S000 kept for P-ONLINE
    # FAMILIES.md: F1 Wikipedia
    ("WIKI", "below_zero", "allow"),  # O01
    ("WIKI", "stock_empty", "reshuffle_keep_top"),  # O02
    ("WIKI", "starter", "left_of_dealer"),  # O03
    ("WIKI", "direction", "reset"),
    ("WIKI", "skip_with_two_players", True),  # O04
    ("WIKI", "two_player_reverse", "hold"),  # O05
    ("WIKI", "no_legal_play", "lay_down"),
    # F2 Bicycle and BGA
    ("BICYCLE", "no_legal_play", "lay_down"),  # O10
    ("BGA", "no_legal_play", "play_and_bust"),
    ("BICYCLE", "below_zero", "allow"),  # O11
    ("BGA", "below_zero", "allow"),
    ("BICYCLE", "two_player_reverse", "hold"),  # O12
    ("BICYCLE", "starter", "left_of_dealer"),  # O13
    ("BGA", "starter", "loser"),  # O14
    ("BGA", "stock_empty", "reshuffle_keep_top"),
    ("BGA-QUICK", "game_end", "first_out"),  # O15
    ("BGA", "game_end", "last_survivor"),
    # F3 Ninety-Eight
    ("98", "game_end", "first_out"),  # O20
    ("98", "lives", 1),
    ("98", "may_bust", False),  # O21
    ("98-CS", "may_bust", True),
    ("98", "below_zero", "allow"),  # O22
    ("98", "stock_empty", "no_draw"),  # O23
    ("98-CS", "stock_empty", "no_draw"),
    # F4 Taiwanese
    ("TW", "below_zero", "clamp"),  # O30
    ("TW", "name_self", False),  # O31
    ("TW", "eliminated_hand", "under_pile"),  # O33
    ("TW", "stock_empty", "reshuffle_all"),  # O34
    ("TW", "starter", "random"),  # O35 (the first hand: the game's first seat)
    ("E2", "starter", "random"),  # O41
    ("IS", "starter", "random"),
    ("TW", "decks", 1),  # O36
    ("TW", "after_bust", "sit_out"),  # continuous elimination, total kept
    ("TW", "lives", 1),
    # F5 everything2 and Icelandic
    ("E2", "below_zero", "clamp"),  # O40
    ("E2", "hand_size", 5),
    ("IS", "below_zero", "clamp"),
    ("IS", "stock_empty", "reshuffle_all"),
    # F6 Quentin C (§7.2)
    ("QC", "elimination", "at_zero"),  # #4
    ("QC", "choice_filter", "drop_busting"),  # #5
    ("QC", "may_bust", True),  # #6
    ("QC", "below_zero", "clamp"),  # #7
    ("QC", "skip_with_two_players", True),  # #8
    ("QC", "starter", "left_of_dealer"),  # #9
    ("QC", "big_table_over", 6),  # #10
    ("QC", "stock_empty", "reshuffle_keep_top"),  # #11
    ("QC", "milestones_on_bust", False),
]


@pytest.mark.parametrize("pid,key,value", REC)
def test_rec_default(pid: str, key: str, value: object) -> None:
    got = getattr(preset_rules(pid), key)
    assert (got.value if hasattr(got, "value") else got) == value


def test_rec_card_readings() -> None:
    g = preset_rules("G").cards
    assert g[10].values == (10,) and g[11].values == (10,)  # Q02: J/Q +10
    assert preset_rules("P-1950").cards[6].values == (0,)  # Q34: Seven +0 and reverse
    assert preset_rules("P-ONLINE").cards[12].values == (10,)  # Q43: King plain 10
    assert preset_rules("P-UPCARD").upcard_special == (0, 3, 8, 9, 12)  # Q40: A 4 9 10 K


# Every Alt can be selected ---------------------------------------------------------------------

ALTS = [
    ("G", {"cards": {"J": "+11", "Q": "+11"}}),  # Q02
    ("G", {"bust_call": "0"}),  # Q05
    ("G", {"draw_after_bust": False}),  # Q03
    ("G", {"may_bust": False}),  # Q04
    ("G", {"clear_pile_on_reset": True}),  # Q06
    ("G", {"two_player_reverse": "play_again"}),  # Q08
    ("P", {"below_zero": "clamp"}),  # Q10
    ("P", {"below_zero": "illegal"}),
    ("P", {"deck_count": "each_hand"}),  # Q11
    ("P", {"direction": "carry"}),  # Q12
    ("P", {"restock": "eager"}),  # Q14
    ("P", {"draw": "explicit"}),  # Q15
    ("P-2P-AGAIN", {"two_player_reverse": "play_again_draw_later"}),  # Q17
    ("K", {"two_player_reverse": "play_again"}),  # Q19
    ("K", {"stuck": "pass"}),  # Q21
    ("J", {"new_round_deal": "full_reshuffle"}),  # Q25
    ("J", {"new_round_deal": "from_stock_keep_top"}),
    ("J", {"forced_card": "auto"}),  # Q27
    ("J", {"empty_draw": "end_round"}),  # Q28
    ("J", {"empty_draw": "full_reshuffle"}),
    ("J-TEAM", {"team_lives": 3}),  # Q29
    ("J-REVERSE", {"two_player_reverse": "play_again"}),  # Q30
    ("P-CONTINUE", {"after_bust": "reset_all"}),  # Q32
    ("P-CONTINUE", {"stock_empty": "reshuffle_keep_top"}),  # Q33
    ("P-1950", {"cards": {"7": "+7 reverse"}}),  # Q34
    ("P-BORDERS", {"may_bust": True}),  # Q36
    ("P-BORDERS", {"points_floor_zero": True}),  # Q38
    ("P-BORDERS", {"points_tie": "shared"}),
    ("P-69", {"rule_69": "reset_to_zero"}),  # Q39
    ("P-69", {"rule_69": "others_drink"}),
    ("P-69", {"rule_69_from": "below"}),
    ("P-BORDERS", {"rule_69": "extra_point"}),
    ("P-UPCARD", {"after_bust": "sit_out"}),  # Q40, Q50
    ("P-UPCARD", {"king_ban_scope": "game"}),  # Q41
    ("P-UPCARD", {"king_ban_at_limit": False}),
    ("P-UPCARD-INSTANT", {"instant_check": "deal"}),  # Q42
    ("P-UPCARD-INSTANT", {"instant_order": "seat_order"}),
    ("P-ONLINE", {"cards": {"K": "set"}}),  # Q43
    ("P-ONLINE", {"online_cross": "leave"}),  # Q44
    ("P-ONLINE", {"may_bust": True}),  # Q45
    ("P-ONLINE", {"skip_counts": "before_eliminations"}),  # Q47
    ("P", {"limit": 98}),  # Q49
    ("P", {"limit": 100}),
    ("P-SEVEN", {"after_bust": "sit_out"}),  # Q50
    ("P-SWAP-9K", {"calls": {"K": "pass me by {total}"}}),  # Q51
    ("P-BORDERS", {"border_cross_backward_costs": False}),  # FAMILIES §8.2: Wilson
    ("WIKI", {"skip_with_two_players": False}),  # O04 Alt
    ("WIKI", {"hand_size": 4, "players_max": 6}),  # denexa's derivative
    ("BICYCLE", {"below_zero": "clamp"}),  # O11 Alt
    ("BGA", {"lives": 2}),  # the 2-4 lives option
    ("BGA", {"lives": 4}),
    ("98", {"lives": 3, "game_end": "last_survivor"}),  # O20: a token match
    ("TW", {"name_self": True}),  # O31 Alt
    ("TW", {"hand_size": 4}),  # hard mode
    ("TW", {"eliminated_hand": "keep"}),
    ("TW", {"stock_empty": "no_draw"}),  # O34 Alt (NineNine)
    ("TW", {"decks": 2}),  # O36
    ("TW", {"suit_cards": {"10H": "+10", "10D": "+10", "QH": "+20", "QD": "+20"}}),  # O37
    ("E2", {"below_zero": "illegal"}),  # O40 Alt
    ("E2", {"hand_size": 4}),
    ("QC", {"elimination": "cannot_pay"}),  # #4 Alt (S000)
    ("QC", {"starter": "random"}),  # #9 Alt (PlayAural)
    ("QC", {"choice_filter": "none"}),
    ("QC", {"milestones_on_bust": True}),
    ("P", {"starter": "loser"}),
    ("P", {"decks_by_players": {"3": 2, "4": 3, "6": 4}}),  # Québec's decks by players
]


@pytest.mark.parametrize("pid,changes", ALTS)
def test_alt_selectable_and_playable(pid: str, changes: dict[str, object]) -> None:
    r = load_rules({"preset": pid, "rules": changes})
    mapping = rules_to_mapping(r, preset_rules(pid))
    for key in changes:
        assert key in mapping
    assert load_rules({"preset": pid, **changes}) == r  # keys may also sit at the top
    s = new_game(r, max(r.players_min, min(4, r.players_max)))
    play_out(s, random.Random(7))
    assert s.is_over


def test_limit_sets_the_king() -> None:
    from tests.rules.helpers import play, pos

    s = pos({"preset": "P", "rules": {"limit": 100}}, ["KS 2S 3S", "4H 5H 6H"], total=40)
    play(s, "KS")
    assert s.total == 100
    s = pos({"preset": "P", "rules": {"limit": 98}}, ["5S 2S 3S", "4H 5H 6H"], total=94)
    from tests.rules.helpers import legal

    assert legal(s) == {"2S", "3S"}


def test_overlays_combine() -> None:
    r = load_rules({"preset": "P", "overlays": ["P-TEN-MINUS", "P-69", "P-2P-AGAIN"]})
    assert r.cards[9].values == (-10,) and r.rule_69.value == "penny_from_pool"
    assert r.two_player_reverse.value == "play_again"
    assert r.id == "P+house"


def test_every_key_in_keys_help_and_cli() -> None:
    keys = [row.key for row in keys_help(load_rules("P"))]
    # (the jokers' effects are written in the cards table: cards.SJ, cards.BJ)
    assert set(keys) == set(FIELDS) - {"id", "name", "description", "source", "joker_cards"}
    out = subprocess.run(
        [sys.executable, "-m", "ninetynine.cli.main", "rules", "--keys"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for key in keys:
        assert key in out


# Errors: one line, naming the key, the value and what is accepted ----------------------------


@pytest.mark.parametrize(
    "spec,needles",
    [
        ({"rules": {"livez": 3}}, ["livez", "lives", "--keys"]),
        ({"rules": {"lives": "three"}}, ["lives", "three", "whole number"]),
        ({"rules": {"lives": 0}}, ["lives", "0", "at least 1"]),
        ({"rules": {"lives": True}}, ["lives", "True", "whole number"]),
        ({"rules": {"below_zero": "sometimes"}}, ["below_zero", "sometimes", "'clamp'"]),
        ({"rules": {"draw_after_bust": "yes"}}, ["draw_after_bust", "yes", "true or false"]),
        ({"rules": {"cards": {"Z": "+1"}}}, ["cards.Z", "rank", "A 2 3"]),
        ({"rules": {"cards": {"A": "+x"}}}, ["cards.A", "+x", "+1/+11"]),
        ({"rules": {"cards": {"A": 5}}}, ["cards.A", "5", "text"]),
        ({"rules": {"calls": {"9": "pass {who}"}}}, ["calls.9", "{who}", "{total}"]),
        ({"rules": {"threshold_values": [33, "x"]}}, ["threshold_values", "whole numbers"]),
        ({"rules": {"upcard_special": ["X"]}}, ["upcard_special", "X", "ranks"]),
        ({"preset": "J-TEAM", "rules": {"players_max": 5}}, ["players_max", "5", "4 players"]),
        ({"preset": "J", "rules": {"teams": True}}, ["players_min", "2", "4 players"]),
        ({"rules": {"rule_69": "extra_point"}}, ["rule_69", "extra_point", "game_points"]),
        ({"rules": {"hand_size": 30}}, ["hand_size", "30", "52"]),
        ({"preset": "P-SEVEN", "rules": {"players_max": 20}}, ["hand_size", "7", "104"]),
        (
            {
                "preset": "P-UPCARD",
                "rules": {"hand_size": 26, "players_max": 2, "big_table_over": 0},
            },
            ["hand_size", "26", "53"],
        ),
        ({"rules": {"thresholds": "borders"}}, ["thresholds", "borders", "game_points"]),
        ({"rules": {"players_min": 1}}, ["players_min", "1", "2"]),
        ({"rules": {"players_min": 5, "players_max": 4}}, ["players_max", "4", "players_min"]),
        ({"preset": "NOPE"}, ["NOPE", "(P, ", "K, G, J", "WIKI", "QC"]),
        ({"overlays": ["NOPE"]}, ["NOPE", "preset id"]),
        ({"overlays": "P-69"}, ["overlays", "P-69", "list"]),
        ({"rules": "x"}, ["rules", "x", "table"]),
        ({"preset": 3}, ["preset", "3"]),
        ({"rules": {"cards": "x"}}, ["cards", "table"]),
        # the keys of FAMILIES.md §10, and their contradictions
        (
            {"preset": "P-BORDERS", "rules": {"game_end": "first_out"}},
            ["game_end", "first_out", "game_points"],
        ),
        ({"rules": {"milestones_on_bust": False}}, ["milestones_on_bust", "online"]),
        (
            {"rules": {"border_cross_backward_costs": False}},
            ["border_cross_backward_costs", "borders"],
        ),
        (
            {"rules": {"cards": {"5": "hold name skip"}}},
            ["cards.5", "names the next player", "skip"],
        ),
        ({"rules": {"cards": {"5": "+1/+11 name"}}}, ["cards.5", "choice of value"]),
        ({"rules": {"cards": {"A": "set-any"}, "limit": 2000}}, ["limit", "2000", "1023"]),
        ({"rules": {"suit_cards": {"ZZ": "set 0"}}}, ["suit_cards.ZZ", "AS"]),
        ({"rules": {"suit_cards": {"AS": "zero"}}}, ["suit_cards.AS", "zero", "set N"]),
        ({"rules": {"suit_cards": "AS"}}, ["suit_cards", "table", "AS = "]),
        ({"rules": {"decks_by_players": {"x": 2}}}, ["decks_by_players", "players = decks"]),
        ({"rules": {"decks_by_players": {"1": 2}}}, ["decks_by_players", "from 2 players"]),
        ({"rules": {"game_end": "sometimes"}}, ["game_end", "'first_out'"]),
        ({"rules": {"starter": "youngest"}}, ["starter", "'loser'", "'random'"]),
    ],
)
def test_rules_errors(spec: dict[str, object], needles: list[str]) -> None:
    with pytest.raises(RulesError) as info:
        load_rules({"preset": "P", **spec})
    text = str(info.value)
    assert "\n" not in text
    for needle in needles:
        assert needle in text, (needle, text)


def test_malformed_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "P"\n[rules\nlives = 3\n')
    with pytest.raises(RulesError) as info:
        open_rules(str(path))
    assert str(path) in str(info.value) and "not valid TOML" in str(info.value)
    assert "\n" not in str(info.value)


def test_bad_value_in_file_names_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "K"\noverlays = ["P-ACE-1-11"]\n[rules]\nlives = "x"\n')
    with pytest.raises(RulesError) as info:
        open_rules(str(path))
    assert str(path) in str(info.value) and "'lives'" in str(info.value)


def test_good_house_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'name = "Friday"\npreset = "K"\noverlays = ["P-ACE-1-11"]\n'
        '[rules]\nlives = 5\n[rules.cards]\nQ = "+10"\n'
    )
    r = open_rules(str(path))
    assert r.name == "Friday" and r.lives == 5 and r.cards[0].values == (1, 11)
    assert r.cards[11].values == (10,) and r.cards[12].kind.value == "set"


def test_missing_file() -> None:
    with pytest.raises(RulesError, match="no such rules file"):
        open_rules("/nonexistent/house.toml")


@pytest.mark.parametrize(
    "name", ["/nonexistent/house.toml", "house.toml", "/etc/passwd", "../pyproject.toml", "FILE"]
)
def test_rules_as_data_never_open_a_file(
    tmp_path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text given to load_rules (a record's, a request's) is a preset's name, whatever
    it looks like: a file of that name is neither opened nor looked for, and the refusal
    is the same whether it exists or not."""
    (tmp_path / "house.toml").write_text('secret_key = "hunter2"\n')
    (tmp_path / "FILE").write_text('preset = "K"\n')
    monkeypatch.chdir(tmp_path)

    def no_files(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a file was looked at: {args}")

    monkeypatch.setattr(Path, "is_file", no_files)
    monkeypatch.setattr(Path, "read_text", no_files)
    with pytest.raises(RulesError) as refused:
        load_rules(name)
    assert str(refused.value).startswith(f"unknown rule set {name!r}: expected a preset id")
    assert "hunter2" not in str(refused.value) and "secret_key" not in str(refused.value)


def test_cli_rules_error_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "P"\n[rules]\nbelow_zero = "never"\n')
    proc = subprocess.run(
        [sys.executable, "-m", "ninetynine.cli.main", "rules", str(path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    lines = [ln for ln in (proc.stderr + proc.stdout).splitlines() if ln.strip()]
    assert len(lines) == 1 and "below_zero" in lines[0] and "never" in lines[0]


def test_bust_call_placeholder_checked() -> None:
    with pytest.raises(RulesError, match="bust_call"):
        load_rules({"preset": "G", "rules": {"bust_call": "{who} bust"}})
    assert load_rules({"preset": "G", "rules": {"bust_call": "{total}!"}}).bust_call == "{total}!"


@pytest.mark.parametrize(
    "changes,key",
    [
        ({"thresholds": "none"}, "thresholds"),
        ({"thresholds": "online"}, "thresholds"),
        ({"after_bust": "reset_all"}, "after_bust"),
    ],
)
def test_game_points_combinations_that_never_end_are_rejected(
    changes: dict[str, str], key: str
) -> None:
    with pytest.raises(RulesError, match=key):
        load_rules({"preset": "P-BORDERS", "rules": changes})


def test_replace_reads_named_settings_from_their_text_and_refuses_unknown_ones() -> None:
    rules = load_rules("K").replace(draw="explicit")
    assert rules.draw is Draw.EXPLICIT  # the engine compares settings by identity
    with pytest.raises(RulesError, match="'draw' = 'sometimes' is not allowed: expected one of"):
        load_rules("K").replace(draw="sometimes")
