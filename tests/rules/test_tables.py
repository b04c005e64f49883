"""MATRIX §2c compact tables, checked for every preset: card effects and the main dimensions."""

from __future__ import annotations

import pytest

from ninetynine import preset_rules
from ninetynine.rules.cards import RANKS
from ninetynine.rules.effects import format_effect

PIPS = {"2": "+2", "3": "+3", "5": "+5", "6": "+6", "7": "+7", "8": "+8"}
P_CARDS = {
    "A": "+1/+11",
    **PIPS,
    "4": "hold reverse",
    "9": "hold",
    "10": "+10/-10",
    "J": "+10",
    "Q": "+10",
    "K": "set",
}
J_CARDS = {**P_CARDS, "4": "+4", "10": "-10"}

CARDS = {
    "P": P_CARDS,
    "K": {**P_CARDS, "A": "+1", "10": "-10", "Q": "+20"},
    "G": {**P_CARDS, "4": "+4", "9": "set", "K": "hold reverse"},
    "J": J_CARDS,
    "J-PURE": {**J_CARDS, "9": "+9", "10": "+10", "K": "+10"},
    "J-4TOKEN": J_CARDS,
    "J-TEAM": J_CARDS,
    "J-REVERSE": {**J_CARDS, "4": "hold reverse"},
    "P-NICKELS": P_CARDS,
    "P-SEVEN": P_CARDS,
    "P-DOLLAR": P_CARDS,
    "P-CONTINUE": P_CARDS,
    "P-SWAP-9K": {**P_CARDS, "9": "set", "K": "hold"},
    "P-SWAP-49": {**P_CARDS, "4": "hold", "9": "hold reverse"},
    "P-TEN-MINUS": {**P_CARDS, "10": "-10"},
    "P-ACE-1-11": P_CARDS,
    "P-2P-AGAIN": P_CARDS,
    "P-1950": {**P_CARDS, "4": "+4", "7": "hold reverse", "K": "+10"},
    "P-BORDERS": {**P_CARDS, "4": "+4", "8": "hold reverse", "K": "+10"},
    "P-69": P_CARDS,
    "P-UPCARD": P_CARDS,
    "P-UPCARD-INSTANT": P_CARDS,
    "P-ONLINE": {**P_CARDS, "2": "halve-or-double", "4": "+4 reverse", "J": "+10 skip", "K": "+10"},
    "P-ONLINE-TEACH": {**P_CARDS, "2": "halve-even", "4": "+4", "K": "+10"},
}


@pytest.mark.parametrize("pid", sorted(CARDS))
def test_card_table(pid: str) -> None:
    cards = preset_rules(pid).cards
    got = {RANKS[i]: format_effect(e) for i, e in enumerate(cards)}
    assert got == CARDS[pid]


# players, decks at 4 / 5 players, hand, lives at 4 / 5 players, below 0, over 99 legal,
# no legal play, after bust, stock out, next starter
DIMS = {
    "P": (
        2,
        10,
        1,
        2,
        3,
        5,
        3,
        "allow",
        False,
        "lay_down",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "K": (
        2,
        6,
        1,
        1,
        3,
        3,
        3,
        "illegal",
        False,
        "lay_down",
        "sit_out",
        "no_draw",
        "left_of_dealer",
    ),
    "G": (
        3,
        8,
        1,
        1,
        4,
        3,
        3,
        "clamp",
        True,
        "play_and_bust",
        "reset_all",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "J": (
        2,
        5,
        1,
        1,
        3,
        3,
        3,
        "clamp",
        False,
        "play_and_bust",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_loser",
    ),
    "P-NICKELS": (
        2,
        10,
        1,
        2,
        5,
        4,
        4,
        "allow",
        False,
        "lay_down",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "P-SEVEN": (
        2,
        10,
        1,
        2,
        7,
        1,
        1,
        "allow",
        False,
        "lay_down",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "P-DOLLAR": (
        2,
        10,
        1,
        2,
        3,
        4,
        4,
        "allow",
        False,
        "lay_down",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "P-CONTINUE": (
        2,
        10,
        1,
        2,
        3,
        5,
        3,
        "allow",
        False,
        "lay_down",
        "reset_others",
        "reshuffle_all",
        "left_of_dealer",
    ),
    "P-1950": (
        2,
        10,
        1,
        2,
        3,
        3,
        3,
        "allow",
        False,
        "lay_down",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "P-UPCARD": (
        2,
        10,
        1,
        2,
        3,
        1,
        1,
        "allow",
        False,
        "lay_down",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
    "P-ONLINE": (
        2,
        10,
        1,
        2,
        3,
        9,
        9,
        "allow",
        False,
        "play_and_bust",
        "end_hand",
        "reshuffle_keep_top",
        "left_of_dealer",
    ),
}


@pytest.mark.parametrize("pid", sorted(DIMS))
def test_dimensions(pid: str) -> None:
    (
        pmin,
        pmax,
        decks4,
        decks5,
        hand,
        lives4,
        lives5,
        below,
        may_bust,
        stuck,
        after,
        stock,
        starter,
    ) = DIMS[pid]
    r = preset_rules(pid)
    assert (r.players_min, r.players_max) == (pmin, pmax)
    if pmax >= 5:
        assert (r.decks_for(4), r.decks_for(5)) == (decks4, decks5)
        assert (r.lives_for(4), r.lives_for(5)) == (lives4, lives5)
    assert r.hand_size == hand and r.lives_for(min(4, pmax)) == lives4
    assert r.below_zero.value == below and r.may_bust is may_bust
    assert r.no_legal_play.value == stuck and r.after_bust.value == after
    assert r.stock_empty.value == stock and r.starter.value == starter


@pytest.mark.parametrize(
    "pid,pot,stake,elim",
    [
        ("P", "centre", 0, "at_zero"),
        ("K", "none", 0, "at_zero"),
        ("J", "centre", 0, "at_zero"),
        ("P-DOLLAR", "none", 1, "at_zero"),
        ("P-1950", "winner_takes_all", 0, "cannot_pay"),
        ("P-ONLINE", "centre", 0, "cannot_pay"),
        ("P-UPCARD", "none", 0, "at_zero"),
        ("P-BORDERS", "none", 0, "never"),
    ],
)
def test_pot_and_elimination(pid: str, pot: str, stake: int, elim: str) -> None:
    r = preset_rules(pid)
    assert (r.pot.value, r.stake, r.elimination.value) == (pot, stake, elim)


@pytest.mark.parametrize(
    "pid,calls",
    [
        ("P", {"4": "back on you {total}", "9": "pass to you {total}"}),
        ("K", {"9": "nine is mine"}),
        ("P-SWAP-9K", {"K": "pass me by", "9": "{total}"}),
        ("P-SWAP-49", {"9": "back on you {total}", "4": "pass to you {total}"}),
        ("P-1950", {"7": "back on you {total}", "4": "{total}"}),
        ("P-BORDERS", {"8": "back on you {total}", "4": "{total}"}),
        ("G", {"K": "{total}", "9": "{total}"}),
        ("J", {"9": "{total}"}),
    ],
)
def test_calls(pid: str, calls: dict[str, str]) -> None:
    r = preset_rules(pid)
    for rank, text in calls.items():
        assert r.calls[RANKS.index(rank)] == text
