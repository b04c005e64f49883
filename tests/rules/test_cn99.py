"""CN99, the Chinese "99分" (FAMILIES.md §12.1, F7): each quotation of [CN1]/[CN2] and each
REC for its gaps (O42-O55) that the engine plays so far, at two seats and more.

The rule set PLAIN is CN99's plain part, written as a house-rules mapping, in which the
7, the J and the jokers hold; MOVING adds the 7's swap of whole hands (O46) and the J's
blind take (O47), with the knowledge they move (``View.known``); the jokers' strip and
revive (O48, O49) are not played yet.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tests.rules.helpers import legal, of, play, pos

from ninetynine import new_game, parse_action
from ninetynine.bots.determinize import Determinizer
from ninetynine.engine import events as E
from ninetynine.engine.game import play_out
from ninetynine.engine.state import TAKE, State
from ninetynine.engine.view import observe
from ninetynine.errors import (
    ChoiceRequiredError,
    IllegalActionError,
    NotationError,
    RecordError,
    Refusal,
    RulesError,
)
from ninetynine.records.position import (
    format_position,
    parse_position,
    position_fields,
    position_from_mapping,
)
from ninetynine.rules.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    card_name,
    format_card,
    format_cards,
    new_deck,
    parse_card,
    parse_cards,
    parse_rank,
    rank_of,
    show_card,
)
from ninetynine.rules.describe import rules_text
from ninetynine.rules.effects import format_effect, parse_effect
from ninetynine.rules.presets import rules_from_spec
from ninetynine.rules.settings import Rules, Starter, apply_overrides, rules_to_mapping

# CN99's plain part: score cards 2 3 5 6 8 9, A names, 4 reverses, 10 +-10, Q +-20, K 99
PLAIN = {
    "preset": "P",
    "rules": {
        "hand_size": 5,
        "lives": 1,
        "pot": "none",
        "big_table_over": 0,
        "jokers": True,
        "decks_by_players": {"6": 2},
        "starter": "random",
        "after_bust": "sit_out",
        "eliminated_hand": "face_up",
        "empty_hand": "out",
        "no_draw_after": ["7", "J"],
        "below_zero": "illegal",
        "choice_filter": "drop_busting",
        "cards": {
            "A": "hold name",
            "2": "+2",
            "3": "+3",
            "4": "hold reverse",
            "5": "+5",
            "6": "+6",
            "7": "hold",
            "8": "+8",
            "9": "+9",
            "10": "+10/-10",
            "J": "hold",
            "Q": "+20/-20",
            "K": "set",
        },
    },
}


def rules() -> Rules:
    return rules_from_spec(PLAIN)


# Jokers in the deck ------------------------------------------------------------------


def test_jokers_are_cards_of_their_own_ranks_with_a_notation() -> None:
    """«4/7/10/J/Q/K/A/小王/大王是"功能牌"»: the small and the big joker are cards of two
    distinct ranks, written SJ and BJ, with no suit."""
    assert (parse_card("sj"), parse_card("BJ")) == (SMALL_JOKER, BIG_JOKER)
    assert rank_of(SMALL_JOKER) != rank_of(BIG_JOKER)
    assert (parse_rank("SJ"), parse_rank("BJ")) == (13, 14)
    assert [format_card(c) for c in (SMALL_JOKER, BIG_JOKER)] == ["SJ", "BJ"]
    assert show_card(BIG_JOKER) == "BJ" and card_name(SMALL_JOKER) == "Small Joker"
    with pytest.raises(NotationError, match="SJ, BJ"):
        parse_card("XJ")


def test_a_pack_of_54_holds_both_jokers_and_other_rules_are_unchanged() -> None:
    """«根据人数多少使用一到两副扑克牌» with jokers: 54 cards a pack; without ``jokers``
    every rule set keeps its 52."""
    assert new_deck() == list(range(52))
    assert Counter(new_deck(2, jokers=True))[BIG_JOKER] == 2
    s = new_game(rules(), 3)
    assert len(s.all_cards()) == 54
    assert sorted(c for c in s.all_cards() if c >= 52) == [SMALL_JOKER, BIG_JOKER]
    assert len(new_game(rules_from_spec({"preset": "P"}), 3).all_cards()) == 52


@pytest.mark.parametrize("players,cards", [(2, 54), (5, 54), (6, 108), (10, 108)])
def test_decks_by_players(players: int, cards: int) -> None:
    """O52: 1x54 (both jokers) for 2-5 players, 2x54 for 6-10."""
    assert len(new_game(rules(), players).all_cards()) == cards


def test_jokers_effects_are_written_in_the_cards_table() -> None:
    """A house-rules file sets the jokers' effects as cards.SJ and cards.BJ, and reads back
    what it wrote; a call for a joker or a bad effect fails with one line."""
    r = apply_overrides(rules(), {"cards": {"SJ": "+1", "BJ": "set"}})
    assert str(r.effect_of(SMALL_JOKER).values) == "(1,)"
    mapping = rules_to_mapping(r, rules())
    assert mapping == {"cards": {"SJ": "+1", "BJ": "set"}}
    assert apply_overrides(rules(), mapping) == r
    with pytest.raises(RulesError, match="'calls.SJ'.*expected a rank A..K"):
        apply_overrides(rules(), {"calls": {"SJ": "joker {total}"}})
    with pytest.raises(RulesError, match="'cards.BJ'"):
        apply_overrides(rules(), {"cards": {"BJ": "fly"}})
    with pytest.raises(RulesError, match="cards table"):
        apply_overrides(rules(), {"joker_cards": ["hold", "hold"]})


def test_a_position_with_jokers_reads_back() -> None:
    s = pos(PLAIN, ["SJ 2S 3S 5S 6S", "BJ 2H 3H 5H 6H"], total=40)
    fields = {"rules": PLAIN, **position_fields(s)}
    assert "SJ" in fields["hands"][0].split()
    assert position_from_mapping(fields) == s
    with pytest.raises(RecordError, match="missing SJ"):
        position_from_mapping({**fields, "hands": ["2S 3S 5S 6S", "BJ 2H 3H 5H 6H"]})


# The plain cards ---------------------------------------------------------------------


@pytest.mark.parametrize("card", ["2S", "3S", "5S", "6S", "8S", "9S"])
def test_score_cards_add_their_face_value(card: str) -> None:
    """«其他的牌都是"分数牌"，牌面数值即代表分值。» 2, 3, 5, 6, 8, 9 add their face value."""
    s = pos(PLAIN, [f"{card} 4C 4D 4H 7C", "KC KD KH 7D 7H"], total=50)
    play(s, card)
    assert s.total == 50 + int(card[0])


def test_four_reverses_and_adds_nothing() -> None:
    """«4： 转换出牌方向» (+0), and its player draws (O42)."""
    s = pos(PLAIN, ["4S 2C 2D 2H 3C", "KC KD KH 7D 7H", "KS 3D 3H 5D 5H"], total=50)
    play(s, "4S")
    assert (s.total, s.direction, s.turn, len(s.hands[0])) == (50, -1, 2, 5)


def test_ten_and_queen_offer_only_the_sign_that_stays_in_range() -> None:
    """«10：可以选择让分数池分值减10分或加10分», «Q：…减20分或加20分»; O45: a reading that
    leaves 0-99 is not offered (at 5 a Q is +20 only, at 95 a 10 is -10 only)."""
    s = pos(PLAIN, ["10S QS 2C 2D 2H", "KC KD KH 7D 7H"], total=50)
    assert {"10S+10", "10S-10", "QS+20", "QS-20"} <= legal(s)
    s = pos(PLAIN, ["10S QS 2C 2D 2H", "KC KD KH 7D 7H"], total=5)
    assert "QS-20" not in legal(s) and "10S-10" not in legal(s)
    assert {"QS+20", "10S+10"} <= legal(s)
    s = pos(PLAIN, ["10S QS 2C 2D 2H", "KC KD KH 7D 7H"], total=95)
    assert {"10S-10", "QS-20"} <= legal(s) and not {"10S+10", "QS+20"} & legal(s)


def test_king_sets_99_and_is_legal_at_99() -> None:
    """«K： 分数池加至99分，如果分数池本来就是99分则不作用»; O53: legal at 99, no effect."""
    s = pos(PLAIN, ["KS 2C 2D 2H 3C", "KC KD KH 7D 7H"], total=99)
    assert "KS" in legal(s)
    play(s, "KS")
    assert (s.total, s.turn) == (99, 1)


def test_ace_names_the_next_player_never_self_nor_an_out_player() -> None:
    """«A： 指定某玩家出牌»; O50: any other player still in; play goes on from them."""
    s = pos(
        PLAIN,
        ["AS 2C 2D 2H 3C", "KC KD KH 7D 7H", "KS 3D 3H 5D 5H", "QS QD QH 9D 9H"],
        total=50,
    )
    s.in_hand[2] = s.alive[2] = False
    assert {a for a in legal(s) if a.startswith("AS")} == {"AS>2", "AS>4"}
    play(s, "AS>4")
    assert s.turn == 3
    play(s, "9D")
    assert s.turn == 0  # from the named player, in the current direction


def test_no_draw_after_seven_and_jack_but_after_the_others() -> None:
    """«7：…操作结束不补牌», «J：…操作结束不补牌»; O42: no draw after 7 and J, one after
    every other card (O43: draw one, not up to 5)."""
    s = pos(PLAIN, ["7S JS 2C 2D 2H", "7C JC 3D 3H 5H"], top="9C 9D 9H")
    play(s, "7S")
    assert len(s.hands[0]) == 4
    play(s, "JC")
    assert len(s.hands[1]) == 4
    play(s, "2C")
    assert len(s.hands[0]) == 4 and format_card(s.hands[0][-1]) == "9C"


def test_no_legal_play_puts_the_player_out_hand_face_up_total_kept() -> None:
    """«如果某玩家出牌后使分数池分值大于99分，则该人丢弃手中全部牌并出局。»; O44: a player
    whose turn comes with only busting cards is out, the hand goes face up to the discards,
    the total is kept, and the next seat plays (and is checked the same way)."""
    s = pos(
        PLAIN,
        ["9S 9C 8S 8C 6S", "KC KD KH 7D 7H", "2D 3D 5D 6D 9D"],
        total=95,
    )
    assert legal(s) == {"down"}
    events = play(s, "down")
    assert of(events, E.PlayerOut) == [E.PlayerOut(0)]
    shown = of(events, E.HandShown)
    assert shown and shown[0].seat == 0 and len(shown[0].cards) == 5
    assert s.hands[0] == [] and s.pile[-5:] == list(shown[0].cards)
    assert (s.total, s.turn, s.face_down) == (95, 1, 0)
    assert not s.is_over


def test_the_last_player_standing_wins() -> None:
    """«如果不分组，则剩下最后一人为赢家。»"""
    s = pos(PLAIN, ["9S 9C 8S 8C 6S", "KC KD KH 7D 7H"], total=95)
    play(s, "down")
    assert s.is_over and s.outcome is not None and s.outcome.winners == (1,)


def test_a_play_that_empties_the_hand_puts_its_player_out() -> None:
    """«如果某玩家出牌后手上无牌，则出局。» (O47, O54: with the stock and the discards both
    empty the draw is skipped, and the empty hand is out at once)."""
    s = pos(PLAIN, ["2S", "KC KD KH 7D 7H", "3D 5D"], total=10)
    s.stock.clear()  # (every other card out of the game: nothing to draw)
    events = play(s, "2S")
    assert of(events, E.PlayerOut) == [E.PlayerOut(0)]
    assert not s.alive[0] and s.turn == 1 and not s.is_over


def test_stock_refills_from_the_discards() -> None:
    """O54: the discards but their top card are shuffled into a new stock; total kept."""
    s = pos(PLAIN, ["2S 3S 5S 6S 8S", "KC KD KH 7D 7H"], total=10, top="", rest="pile")
    assert not s.stock
    play(s, "2S")
    assert s.is_chance
    s.play_chance(random.Random(1))
    assert s.total == 12 and len(s.hands[0]) == 5


def test_first_player_is_random() -> None:
    """O55: a random seat leads (the table draws the first seat; each game may start at any)."""
    assert rules().starter is Starter.RANDOM
    s = new_game(rules(), 4, first=2)
    s.play_chance(random.Random(0))
    assert s.turn == 2


@pytest.mark.parametrize("players", [2, 4, 6])
def test_whole_games_end_with_one_winner(players: int) -> None:
    for seed in range(30):
        s = play_out(new_game(rules(), players), random.Random(seed))
        assert s.is_over and s.outcome is not None and len(s.outcome.winners) == 1


def test_the_rules_text_says_every_new_setting() -> None:
    """The generated rules text names the jokers, the 54-card decks, the cards after which
    nobody draws, the empty hand and the face-up hand of a player put out."""
    text = rules_text(rules())
    assert "one 54-card deck (with both jokers) (2 decks from 6 players)" in text
    assert "Small Joker: hold (+0)" in text and "Big Joker: hold (+0)" in text
    assert "After the Seven or the Jack you draw no card." in text
    assert "then draw one card." in text
    assert "no card is out of the game at once" in text
    assert "lays their cards face up on the discards" in text
    assert "Joker" not in rules_text(rules_from_spec({"preset": "P"}))


def test_the_batch_engine_and_analysis_refuse_in_one_line() -> None:
    """The batch engine and the analysis' fast path deal 52-card packs: each refuses these
    rules with one line naming why (the RL encoding encodes them: tests/rl)."""
    pytest.importorskip("numpy")
    from ninetynine.analysis.cells import Cell, unplayable
    from ninetynine.rl.batch import check_supported

    with pytest.raises(RulesError, match=r"^the batch engine does not play rules key 'jokers'"):
        check_supported(rules_from_spec({"preset": "P", "rules": {"jokers": True}}))
    why = unplayable(Cell(rules(), 3, ("random", "random", "random")))
    assert why is not None and "does not play jokers" in why and "\n" not in why


# The 7 swaps hands, the J takes a card (O46, O47) ----------------------------------

MOVING = {
    "preset": PLAIN["preset"],
    "rules": {
        **PLAIN["rules"],
        "cards": {**PLAIN["rules"]["cards"], "7": "hold swap", "J": "hold take"},
    },
}


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


def known(s: State, seat: int) -> list[str]:
    """What ``seat``'s view shows of each seat's hand besides its own, as text."""
    return [format_cards(k) for k in observe(s, seat).known]


def test_seven_swaps_whole_hands_with_a_named_player_and_nobody_draws() -> None:
    """«7： 和指定的某人交换手头的全部牌，操作结束不补牌»; O46: any other player still in the
    game; after the swap the actor holds the target's count, the target the actor's
    remaining cards; no draw by either (O42)."""
    s = pos(MOVING, ["7S 2H 3H 5H 6H", "KS 5C 9D 8C 2C"], top="9C 9H")
    stock = len(s.stock)
    events = play(s, "7S>2")
    assert of(events, E.HandsSwapped) == [E.HandsSwapped(0, 1, 5, 4)]
    assert cards(format_cards(s.hands[0])) == cards("KS 5C 9D 8C 2C")
    assert cards(format_cards(s.hands[1])) == cards("2H 3H 5H 6H")
    assert len(s.stock) == stock and s.turn == 1 and s.total == 0


def test_the_seven_names_another_player_in_the_game_never_self_nor_one_out() -> None:
    """O46: «和指定的某人» read as any other player still in the game; naming is required."""
    s = pos(MOVING, ["7S 2H", "KS 5C", "9D 8C", ""], out_of_game=[4], turn=1)
    assert {m for m in legal(s) if m.startswith("7S")} == {"7S>2", "7S>3"}
    with pytest.raises(IllegalActionError, match="names yourself") as err:
        s.check(parse_action("7S>1"))
    assert err.value.reason is Refusal.BAD_TARGET
    with pytest.raises(IllegalActionError, match="not in the hand"):
        s.check(parse_action("7S>4"))
    with pytest.raises(
        ChoiceRequiredError, match="swaps hands with a player you name: 7S>2 or 7S>3"
    ):
        s.check(parse_action("7S"))


@pytest.mark.parametrize("players", [2, 4])
def test_after_a_swap_each_of_the_two_knows_the_others_hand_and_nobody_else(players: int) -> None:
    """Hidden information (F7): «each of the two players holds the other's former hand.
    Each knows the other's new hand exactly ... Third players see only that hands were
    exchanged, and the card counts»; O46's REC: recorded as known to that opponent."""
    hands = ["7S 2H 3H 5H 6H", "KS 5C 9D 8C 2C", "QS QH 4D 4C 10S", "AS AH 6D 6C 10H"]
    s = pos(MOVING, hands[:players])
    play(s, "7S>2")
    assert known(s, 0)[1] == "2H 3H 5H 6H" and known(s, 1)[0] == "2C 5C 8C 9D KS"
    assert [k for i, k in enumerate(known(s, 0)) if i != 1] == [""] * (players - 1)
    assert [k for i, k in enumerate(known(s, 1)) if i != 0] == [""] * (players - 1)
    for third in range(2, players):
        assert known(s, third) == [""] * players
        assert observe(s, third).hand_sizes[:2] == (5, 4)
    # a known card played is no longer known in that hand; the rest still are
    play(s, "2H")
    assert known(s, 0)[1] == "3H 5H 6H"


def test_jack_takes_one_card_blind_and_the_taker_does_not_draw() -> None:
    """«J： 从其它玩家手中抽一张牌给自己，操作结束不补牌»; O47: any other player in the game;
    the thief picks blind (chance picks the card: the target's hand is shuffled and the
    first card taken), no draw."""
    s = pos(MOVING, ["JS 2H 3H", "KS 5C 9D", "QS QH 4D"], top="9C 9H")
    stock = len(s.stock)
    events = play(s, "JS>2")
    assert of(events, E.CardTaken) == [E.CardTaken(0, 1)]
    assert s.is_chance and s.chance == TAKE
    req = s.chance_request()
    assert req is not None and req.cards == cards("KS 5C 9D")
    play(s, "shuffle 9D KS 5C")
    assert cards(format_cards(s.hands[0])) == cards("2H 3H 9D")
    assert cards(format_cards(s.hands[1])) == cards("KS 5C")
    assert len(s.stock) == stock and s.turn == 1 and not s.is_chance


@pytest.mark.parametrize("players", [2, 4])
def test_after_a_take_the_taker_knows_the_card_and_the_victim_what_was_taken(
    players: int,
) -> None:
    """Hidden information (F7) and O47: «the stolen card is shown to thief and victim only»:
    the thief holds it (its own hand), the victim knows it is now the thief's; nobody else
    learns which card moved."""
    hands = ["JS 2H 3H", "KS 5C 9D", "QS QH 4D", "AS AH 6D"]
    s = pos(MOVING, hands[:players])
    play(s, "JS>2", "shuffle 9D KS 5C")
    assert known(s, 1)[0] == "9D"
    assert known(s, 0) == [""] * players
    for third in range(2, players):
        assert known(s, third) == [""] * players


def test_a_take_blurs_what_third_players_knew_of_the_victims_hand() -> None:
    """O47: a blind take moves one card nobody else sees: a third player who knew the
    victim's hand (from a swap) no longer knows which of its cards are still there."""
    s = pos(MOVING, ["7S 2H 3H 5H", "KS 5C 9D", "JD 4D 4C"])
    play(s, "7S>2")  # P1 knows 2H 3H 5H are P2's
    assert known(s, 0)[1] == "2H 3H 5H"
    play(s, "2H")  # P2 plays one of them
    assert known(s, 0)[1] == "3H 5H"
    play(s, "JD>2", "shuffle 3H AS 5H")  # P3 takes one of the others
    assert known(s, 0)[1] == ""
    assert known(s, 1)[2] == "3H" and known(s, 2) == ["", "", ""]


@pytest.mark.parametrize("players", [2, 3])
def test_a_stolen_last_card_puts_the_victim_out_at_once(players: int) -> None:
    """O47: «A victim left with 0 cards is out at once, as the code skips 0-card seats»
    (the existing empty_hand = 'out')."""
    s = pos(MOVING, ["JS 2H 3H", "KS", "QS QH 4D"][:players])
    events = play(s, "JS>2", "shuffle KS")
    assert of(events, E.PlayerOut) == [E.PlayerOut(1)]
    assert not s.alive[1] and s.hands[1] == []
    if players == 2:
        assert s.is_over and s.outcome is not None and s.outcome.winners == (0,)
    else:
        assert s.turn == 2 and not s.is_over
        assert {m for m in legal(s)} and "JS" not in " ".join(legal(s))


def test_the_jack_names_only_a_player_holding_a_card() -> None:
    """O47: a take needs a card to take: a seat in the hand with none cannot be named (under
    rules where an empty hand does not put its player out)."""
    s = pos({**MOVING, "rules": {**MOVING["rules"], "empty_hand": "stuck"}}, ["JS 2H", "", "4D"])
    assert {m for m in legal(s) if m.startswith("JS")} == {"JS>3"}
    with pytest.raises(IllegalActionError, match="holds no card to take"):
        s.check(parse_action("JS>2"))


def test_swap_and_take_positions_read_back() -> None:
    """A position in the middle of a take (the chance still to pick the card) and one with
    known cards read back exactly (records and positions round-trip)."""
    s = pos(MOVING, ["7S JS 2H", "KS 5C 9D", "QS QH 4D"])
    play(s, "7S>2")
    fields = position_fields(s)
    assert fields["known"][0][1] == "2H JS" and fields["known"][1][0] == "5C 9D KS"
    again = parse_position(format_position(s))
    assert again == s and known(again, 0) == known(s, 0)
    t = pos(MOVING, ["JS 2H", "KS 5C", "QS 4D"])
    play(t, "JS>3")
    back = parse_position(format_position(t))
    assert back == t and back.chance == TAKE and back.victim == 2
    play(back, "shuffle 4D QS")
    assert format_cards(sorted(back.hands[0])) == "2H 4D"
    with pytest.raises(RecordError, match="move no cards"):
        position_from_mapping({"rules": "P", "hands": ["KS", "QS"], "known": [["", ""], ["", ""]]})


def test_a_record_of_a_game_with_swaps_and_takes_replays() -> None:
    """Every move is notation (``7S>2``, ``JS>3``, the take's ``shuffle``): the checked
    replay of a fast game's moves reaches the same state."""
    r = rules_from_spec(MOVING)
    moved = 0
    for seed in range(6):
        rng = random.Random(seed)
        s, replay = new_game(r, 3), new_game(r, 3)
        while not s.is_over:
            if s.is_chance:
                outcome = s.play_chance(rng)
                replay.apply(parse_action(str(outcome)))
            else:
                action = rng.choice(s.legal_actions())
                moved += (
                    action.target is not None
                    and action.card is not None
                    and rank_of(action.card) in (6, 10)
                )
                s.apply_code(s.code_of(action))
                replay.apply(parse_action(str(action)))
            assert replay == s
    assert moved >= 3  # the games swapped and took


def test_every_card_a_view_shows_of_another_hand_is_one_its_seat_knows() -> None:
    """The leak test: over whole random games at 2 to 6 seats, at every decision, each
    seat's view shows its own hand, and of any other hand only cards that are there and
    that it has held itself (a swap gives away one's own hand; a take shows the victim
    its own card): nothing it never saw. The events carry no card of a swap or a take."""
    r = rules_from_spec(MOVING)
    learnt = 0
    for players in (2, 3, 4, 6):
        for seed in range(8):
            rng = random.Random(seed)
            s = new_game(r, players)
            held: list[set[int]] = [set() for _ in range(players)]
            while not s.is_over:
                for seat in range(players):
                    held[seat] |= set(s.hands[seat])
                if s.is_chance:
                    events = s.apply(s.sample_chance(rng))
                else:
                    for seat in range(players):
                        view = observe(s, seat)
                        assert view.hand == tuple(sorted(s.hands[seat]))
                        assert view.known[seat] == ()
                        for other, cards_known in enumerate(view.known):
                            assert not Counter(cards_known) - Counter(s.hands[other])
                            assert set(cards_known) <= held[seat]
                            learnt += len(cards_known)
                    events = s.apply(rng.choice(s.legal_actions()))
                for e in events:
                    if isinstance(e, (E.HandsSwapped, E.CardTaken)):
                        assert not {"card", "cards"} & set(e.__dataclass_fields__)
    assert learnt > 100  # the games did swap and take


def test_bots_sample_known_cards_into_their_holders_hands() -> None:
    """The determinization never deals a known card elsewhere: after a swap, every sample
    of the actor's view puts its former hand in the target's."""
    s = pos(MOVING, ["7S 2H 3H 5H", "KS 5C 9D", "QS QH 4D"])
    play(s, "7S>2", "2H")  # P3 to play; P1 knows 3H 5H are P2's (and one card drawn)
    s2 = s.clone()
    s2.turn = 0  # (seen from P1's side, as if it were to act)
    det = Determinizer(observe(s2, 0))
    for seed in range(20):
        sample = det.sample(random.Random(seed))
        assert set(cards("3H 5H")) <= set(sample.hands[1]) and len(sample.hands[1]) == 3
        assert not set(cards("3H 5H")) & {c for h in (sample.hands[2], sample.stock) for c in h}


@pytest.mark.parametrize("specs", [["random"], ["heuristic"], ["hard:iterations=20,depth=8"]])
def test_bots_finish_games_with_swaps_and_takes(specs: list[str]) -> None:
    """Every bot plays the 7's and the J's named seats legally to the end of a game."""
    from tests.bots.test_bots_play import play as bot_play

    for players, seed in ((2, 1), (4, 2)):
        moves = bot_play(MOVING, players, specs, seed=seed)
        assert moves and all(":" in m for m in moves)


def test_swap_and_take_effects_parse_describe_and_refuse_bad_mixes() -> None:
    """The effects are words of the rules files, printed back as written, described by the
    rules text; a swap or take that also names, reverses or has a choice is refused."""
    assert format_effect(parse_effect("hold swap")) == "hold swap"
    assert parse_effect("hold take").names_seat
    for bad in ("hold swap take", "hold take name", "+1/+11 swap", "hold swap reverse"):
        with pytest.raises(RulesError, match="swaps hands or takes a card"):
            parse_effect(bad)
    text = rules_text(rules_from_spec(MOVING))
    assert "A swap card (the Seven) names another player still in the hand" in text
    assert "A take card (the Jack) names another player" in text
    assert "Seven: hold (+0); name another player still in the hand: you exchange" in text


def test_the_analysis_refuses_swaps_and_takes_in_one_line() -> None:
    from ninetynine.analysis.cells import Cell, unplayable

    why = unplayable(Cell(rules_from_spec(MOVING), 3, ("random", "random", "random")))
    assert why is not None and "swaps and takes" in why and "\n" not in why
