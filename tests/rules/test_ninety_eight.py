"""98, 98-CS and 98-CS-K0: pagat's simple Ninety-Eight and CardStock's coding of it
(FAMILIES.md §4, F3) — the page's worked example replayed exactly, and O20-O23."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rules.helpers import calls, card_text, deal, legal, of, play, pos

from ninetynine import new_game, preset_rules
from ninetynine.cli.main import main
from ninetynine.engine import events as E
from ninetynine.engine.state import PLAY
from ninetynine.errors import OverLimitError, RecordError
from ninetynine.records.match import replay
from ninetynine.records.position import toml_value
from ninetynine.records.record import parse_record
from ninetynine.rules.cards import format_cards, new_deck, parse_cards

# Chris Jepson's example, dealt to four players from the dealer's left (P1), a card each
# in turn; P3 then draws the 9 that leaves it {4, 5, 6, 9} at 95.
DEAL = (
    "8S 6S KS JS  10S 7S 4H 2H  2C 2D 5H 3H  3C 3D 6H 4D  "  # the four hands
    "5C 5D 9H 6C"
)  # the draws of the first four turns


def test_98_t1_the_pages_example_replayed_exactly() -> None:
    """«The first player plays an 8 and says 8; the next player plays a 6 and says 14; the
    next player plays a king and says 98; the next player plays a jack and says 98; the next
    player plays a ten and says 88; the next player plays a 7 and says 95; the next player's
    four cards are 4, 5, 6, 9 - this player must lose.»"""
    s = new_game(preset_rules("98"), 4)
    deal(s, DEAL)
    assert s.turn == 0  # «The player to the dealer's left begins»
    ev = play(s, "8S", "6S", "KS", "JS", "10S", "7S")
    assert calls(ev) == ["8", "14", "98", "98", "88", "95"]
    assert sorted(s.hands[2]) == sorted(pos("98", ["4H 5H 6H 9H", ""]).hands[0])
    # 99, 100, 101, 104: all above 98; «the first person who makes the value of the pile
    # more than 98 loses»: the player plays one of them and busts
    assert legal(s) == {"4H", "5H", "6H", "9H"}
    ev = play(s, "4H")
    assert of(ev, E.Busted)[0].total == 99 and of(ev, E.PlayerOut)[0].seat == 2
    assert s.outcome is not None and s.outcome.winners == (0, 1, 3)  # one loser (O20)
    assert s.outcome.reason == "first_out"


def t1_record() -> str:
    """The example as a record a person could write: the shuffle, then every move."""
    top = parse_cards(DEAL)
    order = format_cards(top + [c for c in new_deck() if c not in top])
    moves = [f"shuffle {order}", "1: 8S", "2: 6S", "3: KS", "4: JS", "1: 10S", "2: 7S", "3: 4H"]
    return f'rules = "98"\nplayers = 4\nactions = {toml_value(moves)}\n'


def test_98_t1_as_a_record_replays_to_the_same_end() -> None:
    state, events = replay(parse_record(t1_record()))
    assert calls(events) == ["8", "14", "98", "98", "88", "95", "99 — bust"]
    assert state.outcome is not None and state.outcome.winners == (0, 1, 3)


def test_98_t1_replayed_by_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "98-t1.toml"
    path.write_text(t1_record())
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for line in (
        'P1: "8"',
        'P2: "14"',
        'P3: "98"',
        'P4: "98"',
        'P1: "88"',
        'P2: "95"',
        'P3: "99 — bust"',
        "P3 is out of the game.",
    ):
        assert line in out


def test_p98_two_or_more_players_four_cards_one_deck() -> None:
    """«a fairly simple drinking game for 2 or more players, using a standard 52 card deck.»;
    «Deal out four cards to each player and place the remainder face down to form the stock.»"""
    r = preset_rules("98")
    assert (r.players_min, r.hand_size, r.decks, r.limit) == (2, 4, 1, 98)
    s = new_game(r, 2)
    deal(s)
    assert [len(h) for h in s.hands] == [4, 4] and len(s.stock) == 44 and s.total == 0


@pytest.mark.parametrize(
    "card,after",
    [
        ("AS", 31),
        ("2S", 32),
        ("5S", 35),
        ("9S", 39),
        ("10S", 20),
        ("JS", 30),
        ("QS", 30),
        ("KS", 98),
    ],
)
def test_p98_card_values(card: str, after: int) -> None:
    """«ace to nine....increase the value of the pile by the pip count of the card»; «ten....
    reduce the value by ten»; «jack, queen....the value stays the same»; «king....the value is
    set to 98»."""
    s = pos("98", [f"{card} 2C 3C 4C", "5C 6C 7C 8C"], total=30)
    play(s, card)
    assert s.total == after


def test_p98_the_ace_is_one_only() -> None:
    s = pos("98", ["AS 2C 3C 4C", "5C 6C 7C 8C"], total=30)
    assert "AS" in legal(s) and "AS+11" not in legal(s)


def test_p98_play_continues_clockwise_with_no_reversing_card() -> None:
    """«play continues in clockwise order»: no card reverses or skips."""
    r = preset_rules("98")
    assert not any(e.reverse or e.skip or e.name for e in r.effects())
    s = pos("98", ["4S 2C 3C 5C", "5D 6D 7D 8D", "5H 6H 7H 8H"], total=30)
    play(s, "4S")
    assert s.total == 34 and s.turn == 1 and s.direction == 1


def test_o21_pagat_98_keeps_the_total_at_98_if_it_can() -> None:
    """O21 REC: forced-safe (the holder of no safe card "must lose")."""
    s = pos("98", ["9S 5S KS 2C", "5D 6D 7D 8D"], total=90)
    assert legal(s) == {"5S", "KS", "2C"}
    with pytest.raises(OverLimitError):
        play(s, "9S")


def test_p98_the_first_over_98_loses_and_the_game_ends() -> None:
    """«The first person who makes the value of the pile more than 98 loses, and has to take
    a drink.»: one loser per game, no redeal (O20)."""
    s = pos("98", ["JD 2C 3C 4C", "9S 9H 9D 9C", "5H 6H 7H 8H"], total=95, turn=2)
    assert legal(s) == {"9S", "9H", "9D", "9C"}  # no safe card: it plays one, not lays down
    ev = play(s, "9H")
    assert of(ev, E.Busted)[0].total == 104 and not of(ev, E.LaidDown)
    assert s.outcome is not None and s.outcome.winners == (0, 2)
    assert not of(ev, E.HandStarted) and s.lives == [1, 0, 1]


def test_o20_a_lives_overlay_makes_a_token_match() -> None:
    """O20: the generic lives overlay turns it into a token match with a redeal, as in P."""
    s = pos(
        "98",
        ["JD 2C 3C 4C", "9S 9H 9D 9C"],
        total=95,
        turn=2,
        changes={"lives": 3, "game_end": "last_survivor"},
    )
    play(s, "9S")
    assert s.outcome is None and s.lives == [3, 2] and s.hand_no == 2


def test_o22_the_total_may_go_below_zero() -> None:
    """O22 REC `allow`: a Ten as the first card makes -10."""
    s = pos("98", ["10S 2C 3C 4C", "5D 6D 7D 8D"], total=0)
    play(s, "10S")
    assert s.total == -10


def test_o23_nobody_draws_from_an_empty_stock() -> None:
    """O23 REC `stock_empty = no_draw`."""
    s = pos("98", ["2S 3C 4C 5C", "5D 6D 7D 8D"], total=10, top="", rest="pile")
    ev = play(s, "2S")
    assert of(ev, E.DrawSkipped) and len(s.hands[0]) == 3 and not s.stock


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["98", "98-CS", "98-CS-K0"]), st.integers(0, 8), st.integers(0, 2**32 - 1))
def test_o23_somebody_goes_over_before_anyone_runs_out_of_cards(
    preset: str, extra: int, seed: int
) -> None:
    """O23: the 48 non-King cards sum to 140 > 98 and nothing but a Ten lowers the total, so
    the whole deck cannot be played: someone goes over before any player faces an empty
    hand (here with any legal choices, in every table size)."""
    rules = preset_rules(preset)
    players = rules.players_min + extra % (rules.players_max - rules.players_min + 1)
    rng, s = random.Random(seed), new_game(rules, players, first=seed % players)
    while s.outcome is None:
        if s.is_chance:
            s.apply(s.sample_chance(rng))
            continue
        assert s.phase != PLAY or s.hands[s.turn], "a player faces an empty hand"
        s.apply(rng.choice(s.legal_actions()))
    assert len(s.outcome.winners) == players - 1


# CardStock ----------------------------------------------------------------------------------


def test_cs_any_card_may_be_played_and_going_over_loses() -> None:
    """«each player is free to choose any of the cards in their HAND»; «The player who makes
    the total above 98 loses the game.»"""
    s = pos("98-CS", ["9S 5S KS 2C", "5D 6D 7D 8D", "5H 6H 7H 8H"], total=90)
    assert legal(s) == {"9S", "5S", "KS", "2C"}
    ev = play(s, "9S")
    assert [e.total for e in of(ev, E.Busted)] == [99]
    assert s.outcome is not None and s.outcome.winners == (1, 2)


def test_cs_two_to_five_players() -> None:
    r = preset_rules("98-CS")
    assert (r.players_min, r.players_max) == (2, 5)
    with pytest.raises(RecordError):
        new_game(r, 6)


def test_cs_the_stock_is_not_rebuilt() -> None:
    """Drawing only while `(> (size (game iloc STOCK)) 0)`."""
    s = pos("98-CS", ["2S 3C 4C 5C", "5D 6D 7D 8D"], total=10, top="", rest="pile")
    ev = play(s, "2S")
    assert of(ev, E.DrawSkipped) and not of(ev, E.StockReshuffled)


def test_cs_the_total_may_go_negative() -> None:
    """`(dec … 10)`: no floor."""
    s = pos("98-CS", ["10S 3C 4C 5C", "5D 6D 7D 8D"], total=4)
    play(s, "10S")
    assert s.total == -6


@pytest.mark.parametrize("preset,after", [("98-CS", 98), ("98-CS-K0", 40)])
def test_cs_no_king_variant_makes_the_king_zero(preset: str, after: int) -> None:
    """The no-King variant (`2019-02-06-ninetyeight-noking.md`): K = 0."""
    s = pos(preset, ["KS 3C 4C 5C", "5D 6D 7D 8D"], total=40)
    play(s, "KS")
    assert s.total == after and card_text("KS") == "KS"


def test_p98_a_king_at_98_keeps_98() -> None:
    """«king....the value is set to 98»: always safe, even at 98."""
    s = pos("98", ["KS 9S 9H 9D", "5D 6D 7D 8D"], total=98)
    assert legal(s) == {"KS"}
    play(s, "KS")
    assert s.total == 98 and s.turn == 1
