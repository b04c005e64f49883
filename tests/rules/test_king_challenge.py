"""KC, "99 - A Multiplayer Card Game" with the King Challenge (FAMILIES.md §12.2, F8): each
quotation of its README [KC1] and each REC for its gaps (O56-O63), at two seats and more."""

from __future__ import annotations

import random

import pytest
from tests.rules.helpers import legal, of, play, pos

from ninetynine import load_rules, new_game, parse_action, preset_rules
from ninetynine.engine import events as E
from ninetynine.engine.game import play_out
from ninetynine.engine.view import observe
from ninetynine.errors import ChoiceRequiredError, IllegalActionError, RecordError, RulesError
from ninetynine.records.position import position_fields, position_from_mapping
from ninetynine.rules.cards import parse_card


def test_kc_two_cards_one_deck_two_to_ten_players() -> None:
    """«Each player is dealt 2 cards»; players and deck unstated: O59, 1x52, 2-10 players;
    no lives, one continuous game (O63)."""
    r = preset_rules("KC")
    assert (r.hand_size, r.decks, r.lives, r.players_min, r.players_max) == (2, 1, 1, 2, 10)
    assert load_rules("king-challenge") is r
    with pytest.raises(RecordError):
        new_game(r, 11)


@pytest.mark.parametrize(
    "card,after", [("2S", 42), ("3S", 43), ("4S", 44), ("7S", 47), ("9S", 49), ("10S", 50)]
)
def test_kc_number_cards_count_their_number(card: str, after: int) -> None:
    """«Number cards have score equal to their number (2 is worth 2, 3 is 3, etc.)» (a Four
    out of a challenge is a number card too)."""
    s = pos("KC", [f"{card} 5C", "6C 8C"], total=40)
    play(s, card)
    assert s.total == after


def test_kc_jack_counts_zero() -> None:
    """«Jacks have 0 score - essentially a skip turn»"""
    s = pos("KC", ["JS 5C", "6C 8C"], total=99)
    assert "JS" in legal(s)
    play(s, "JS")
    assert (s.total, s.turn) == (99, 1)


def test_kc_queen_is_plus_or_minus_twenty_and_clamps_at_zero() -> None:
    """«Queens can be either + or - 20 (players can choose)»; O62: below 0 clamps."""
    s = pos("KC", ["QS 5C", "6C 8C"], total=50)
    assert {"QS+20", "QS-20"} <= legal(s)
    play(s, "QS-20")
    assert s.total == 30
    s = pos("KC", ["QS 5C", "6C 8C"], total=10)
    play(s, "QS-20")
    assert s.total == 0


def test_kc_ace_is_one_or_eleven() -> None:
    """«Aces can be either 1 or 11»"""
    s = pos("KC", ["AS 5C", "6C 8C"], total=80)
    with pytest.raises(ChoiceRequiredError):
        s.check(parse_action("AS"))
    play(s, "AS+11")
    assert s.total == 91


def test_kc_play_one_card_then_draw_one() -> None:
    """«Each player must play a card during their turn, and then pick a card from the
    deck.»"""
    s = pos("KC", ["5S 6S", "7C 8C", "9C 9D"], top="2H")
    play(s, "5S")
    assert sorted(s.hands[0]) == sorted([parse_card("6S"), parse_card("2H")])
    assert s.turn == 1


def test_kc_king_counts_zero_and_names_another_player() -> None:
    """«Kings also have 0 score. They are kill cards.» «If a player plays a king, they can
    choose any other player to eliminate» (never themself)."""
    s = pos("KC", ["KS 5C", "6C 8C", "7D 9D"], total=60)
    assert {"KS>2", "KS>3"} <= legal(s) and "KS>1" not in legal(s)
    with pytest.raises(ChoiceRequiredError, match="challenges"):
        s.check(parse_action("KS"))
    with pytest.raises(IllegalActionError, match="yourself"):
        s.check(parse_action("KS>1"))
    play(s, "KS>3")
    assert s.total == 60


def test_kc_undefended_target_is_out_at_once() -> None:
    """«If the targeted player has no king or 4, they are eliminated.» O58: out at once,
    not asked; O60: the next seat after the challenger's plays."""
    s = pos("KC", ["KS 5C", "6C 8C", "7D 9D", "2H 3H"], total=60)
    events = play(s, "KS>3")
    assert of(events, E.Challenged) == [E.Challenged(0, 2)]
    assert of(events, E.Conceded) == [E.Conceded(2)]
    assert of(events, E.PlayerOut) == [E.PlayerOut(2)]
    assert not s.alive[2] and s.turn == 1 and s.challenger == -1
    assert len(s.hands[0]) == 2  # the challenger drew


def test_kc_defence_is_a_choice_of_king_or_four_or_accept() -> None:
    """«The targeted player can defend by playing either a king or a 4.» O57: a target
    holding K or 4 chooses which one to play, or declines (accept)."""
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D"], total=60)
    play(s, "KS>2")
    assert s.turn == 1 and s.challenger == 0
    assert legal(s) == {"4H", "KH", "accept"}
    with pytest.raises(IllegalActionError, match="played alone, as KH"):
        s.check(parse_action("KH>3"))
    s.hands[1].append(parse_card("5H"))
    with pytest.raises(IllegalActionError, match="challenged by P1 and answers with 4 or K"):
        s.check(parse_action("5H"))
    view = observe(s, 1)
    assert view.challenger == 0 and {str(a) for a in view.legal} == {"4H", "KH", "accept"}


def test_kc_defending_king_puts_the_attacker_out() -> None:
    """«If the targeted player plays a king, the original (attacking) player is eliminated
    instead.» O56: the King does not count, starts no new challenge, and the defender
    draws back to 2; O60: count on from the attacker's empty seat."""
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D", "2C 3C"], total=60)
    play(s, "KS>2")
    events = play(s, "KH")
    assert of(events, E.ChallengeAnswered)[0].out == 0
    assert not s.alive[0] and s.alive[1]
    assert s.total == 60 and len(s.hands[1]) == 2
    assert s.turn == 1 and not of(events, E.Challenged)


def test_kc_defending_four_cancels() -> None:
    """«If the targeted player plays a 4, the attack is neutralized, and both players
    survive.» O56: the 4 does not count 4 here."""
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D"], total=60)
    play(s, "KS>3")  # P3 holds neither: out
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D"], total=60)
    play(s, "KS>2")
    events = play(s, "4H")
    assert of(events, E.ChallengeAnswered) == [
        E.ChallengeAnswered(1, parse_action("4H").card, None)
    ]  # type: ignore[arg-type]
    assert all(s.alive) and s.total == 60 and len(s.hands[1]) == 2 and s.turn == 1


def test_kc_accepting_puts_the_target_out() -> None:
    """O57: declining to defend is allowed; the target is out."""
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D"], total=60)
    play(s, "KS>2", "accept")
    assert not s.alive[1] and s.turn == 2


def test_kc_with_two_players_a_successful_challenge_ends_the_game() -> None:
    """O60: «With two players a successful challenge ends the game.»"""
    s = pos("KC", ["KS 5C", "7D 9D"], total=60)
    play(s, "KS>2")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)
    s = pos("KC", ["KS 5C", "KD 9D"], total=60)
    play(s, "KS>2", "KD")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)


def test_kc_over_99_is_out_and_the_total_goes_back() -> None:
    """«If the score goes over 99, the player is out»; O61: any card may be played, the
    total goes back to its value before that card and the next seat plays."""
    s = pos("KC", ["9S 5C", "6C 8C", "7D 9D"], total=95)
    assert "9S" in legal(s)  # a busting card is legal though 5C... is not safe either
    events = play(s, "9S")
    assert of(events, E.Busted) == [E.Busted(0, 104)]
    assert not s.alive[0] and s.total == 95 and s.turn == 1
    s = pos("KC", ["9S JC", "6C 8C", "7D 9D"], total=95)
    assert {"9S", "JC"} <= legal(s)  # may bust with a safe card in hand


def test_kc_challenge_needs_lives_rules() -> None:
    """A challenge eliminates: refused, with one line, where nobody can be eliminated."""
    with pytest.raises(RulesError, match="challenge"):
        load_rules({"preset": "KC", "rules": {"teams": True, "players_min": 4, "players_max": 4}})
    with pytest.raises(RulesError, match="challenge_cancel"):
        load_rules({"preset": "KC", "rules": {"challenge_cancel": ["K"]}})


def test_kc_challenge_works_with_lives_and_other_cancel_ranks() -> None:
    """House rules: three lives, the challenged pays all it has; a Five cancels instead."""
    s = pos("KC", ["KS 5C", "5H 4H", "7D 9D"], total=60, changes={"challenge_cancel": ["5"]})
    play(s, "KS>2")
    assert legal(s) == {"5H", "accept"}


def test_kc_positions_carry_a_pending_challenge() -> None:
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D"], total=60)
    play(s, "KS>2")
    fields = position_fields(s)
    assert fields["challenger"] == 1
    again = position_from_mapping({"rules": "KC", **fields})
    assert again == s
    with pytest.raises(RecordError, match="challenger"):
        position_from_mapping({"rules": "P", "hands": ["KS 5C 2C", "KH 4H 2D"], "challenger": 1})


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_kc_whole_games_end_with_one_winner(players: int) -> None:
    for seed in range(40):
        s = new_game(preset_rules("KC"), players)
        play_out(s, random.Random(seed), fast=seed % 2 == 0)
        assert s.outcome is not None and len(s.outcome.winners) == 1


def test_kc_notation_and_the_bot_protocol_carry_the_challenge() -> None:
    """``KS>3`` challenges, ``accept`` declines to answer; the protocol's view names the
    challenger (from 1) only while an answer is due."""
    from ninetynine.bots.protocol import view_to_json
    from ninetynine.engine.actions import Action, ActionKind

    assert (
        parse_action("accept") == Action(ActionKind.ACCEPT)
        and str(Action(ActionKind.ACCEPT)) == "accept"
    )
    assert str(parse_action("ks>3")) == "KS>3"
    s = pos("KC", ["KS 5C", "KH 4H", "7D 9D"], total=60)
    assert "challenger" not in view_to_json(observe(s, 1))
    play(s, "KS>2")
    shown = view_to_json(observe(s, 1))
    assert shown["challenger"] == 1 and shown["turn"] == 2
    assert "challenger" in view_to_json(observe(s, 2))  # public: who challenged whom
    assert view_to_json(observe(s, 2))["hand"] == ["7D", "9D"]


@pytest.mark.parametrize("players", [2, 5])
def test_a_challenge_card_in_house_rules_of_another_family(players: int) -> None:
    """The effect is data: Taiwanese 99 with a challenging Jack plays whole games."""
    rules = load_rules({"preset": "TW", "cards": {"J": "hold challenge"}})
    assert rules.cards[10].challenge and rules.challenge_cancel == (3,)
    for seed in range(20):
        s = new_game(rules, players)
        play_out(s, random.Random(seed), fast=False)
        assert s.outcome is not None and len(s.outcome.winners) == 1


def test_kc_challenge_puts_out_one_player_of_an_alternate_team() -> None:
    """House rules: KC in CN99's teams of alternate seats (FAMILIES §12.1, O51). A
    challenge puts out one player, not a pool: its partner plays on, and the side is out
    when both are; the challenger's side wins, its players all."""
    house = {"teams": "alternate", "players_min": 4, "players_max": 4}
    s = pos("KC", ["KS 5C", "5H 6H", "KD 9D", "8C 2C"], total=60, changes=house)
    play(s, "KS>2")  # P2 holds no King nor Four: out at once (O58)
    assert not s.alive[1] and s.alive[3] and not s.is_over and s.turn == 2
    play(s, "KD>4")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (0, 2)
    assert s.outcome.reason == "last_team"
