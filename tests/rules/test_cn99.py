"""CN99, the Chinese "99分" (FAMILIES.md §12.1, F7): each quotation of [CN1]/[CN2] and each
REC for its gaps (O42-O55) that the engine plays so far, at two seats and more.

The rule set PLAIN is CN99's plain part, written as a house-rules mapping, in which the
7, the J and the jokers hold; MOVING adds the 7's swap of whole hands (O46) and the J's
blind take (O47), with the knowledge they move (``View.known``); JOKERS adds the small
joker's strip (O48) and the big joker's revival or refill (O49); the preset ``CN99``
is JOKERS as data; TEAMS is the preset with O51's teams of alternate seats.
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
from ninetynine.engine.state import DOWN, RESTOCK, STRIP, TAKE, State
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


@pytest.mark.parametrize("spec", ["MOVING", "JOKERS"])
def test_every_card_a_view_shows_of_another_hand_is_one_its_seat_knows(spec: str) -> None:
    """The leak test: over whole random games at 2 to 6 seats, at every decision, each
    seat's view shows its own hand, and of any other hand only cards that are there and
    that it has held itself (a swap gives away one's own hand; a take shows the victim
    its own card): nothing it never saw, nor a card a strip left or a revival dealt. The
    events carry no card of a swap, a take, a strip or a revival."""
    r = rules_from_spec(MOVING if spec == "MOVING" else JOKERS)
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
                    moving = (E.HandsSwapped, E.CardTaken, E.HandStripped)
                    if isinstance(e, (*moving, E.PlayerRevived, E.HandFilled)):
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
        with pytest.raises(RulesError, match="swaps hands, takes a card, strips or revives"):
            parse_effect(bad)
    text = rules_text(rules_from_spec(MOVING))
    assert "A swap card (the Seven) names another player still in the hand" in text
    assert "A take card (the Jack) names another player" in text
    assert "Seven: hold (+0); name another player still in the hand: you exchange" in text


def test_the_analysis_refuses_swaps_and_takes_in_one_line() -> None:
    from ninetynine.analysis.cells import Cell, unplayable

    why = unplayable(Cell(rules_from_spec(MOVING), 3, ("random", "random", "random")))
    assert why is not None and "swaps and takes" in why and "\n" not in why


# The small joker strips a hand, the big joker revives or refills (O48, O49) ----------

JOKERS = {
    "preset": MOVING["preset"],
    "rules": {
        **MOVING["rules"],
        "cards": {**MOVING["rules"]["cards"], "SJ": "hold strip", "BJ": "hold revive"},
    },
}


def test_small_joker_strips_a_named_player_to_one_card_picked_blind() -> None:
    """«小王：加害，从某玩家该人手上任意抽取一张牌，该人只能留下这张牌，其他牌都放回底牌»
    (harm: pick any one card from some player's hand; that player keeps only this card;
    all other cards go back into the stock); O48's REC: «The joker's player picks the kept
    card blind (任意抽取). The other cards are shuffled face down into the stock ... The
    joker's player then draws normally.»"""
    s = pos(JOKERS, ["SJ 2H 3H", "KS 5C 9D 8C", "QS QH 4D"], top="9C 9H")
    stock = len(s.stock)
    events = play(s, "SJ>2")
    assert of(events, E.HandStripped) == [E.HandStripped(0, 1, 3)]
    assert s.is_chance and s.chance == STRIP
    req = s.chance_request()
    assert req is not None and req.cards == cards("KS 5C 9D 8C")
    play(s, "shuffle 9D KS 5C 8C")  # chance keeps the first card: 9D
    assert format_cards(s.hands[1]) == "9D"
    assert s.is_chance and s.chance == RESTOCK  # the stock, with the 3 cards, is shuffled
    req = s.chance_request()
    assert req is not None and set(cards("KS 5C 8C")) <= set(req.cards)
    assert len(req.cards) == stock + 3
    s.play_chance(random.Random(3))
    assert len(s.hands[0]) == 3 and cards(format_cards(s.hands[0]))[:2] != ()  # drew one
    assert set(cards("2H 3H")) <= set(s.hands[0])
    assert len(s.stock) == stock + 3 - 1 and s.turn == 1 and not s.is_chance
    assert s.total == 0  # «小王/大王是"功能牌"»: no score


def test_the_small_joker_names_another_player_in_the_game_holding_a_card() -> None:
    """O48: «any other player in the game with ≥ 1 card»; naming is required."""
    s = pos(
        {**JOKERS, "rules": {**JOKERS["rules"], "empty_hand": "stuck"}},
        ["SJ 2H", "", "9D 8C", "4D"],
        out_of_game=[4],
    )
    assert {m for m in legal(s) if m.startswith("SJ")} == {"SJ>3"}
    with pytest.raises(IllegalActionError, match="names yourself"):
        s.check(parse_action("SJ>1"))
    with pytest.raises(IllegalActionError, match="not in the hand"):
        s.check(parse_action("SJ>4"))
    with pytest.raises(ChoiceRequiredError, match="strips a player you name to one card: SJ>3"):
        s.check(parse_action("SJ"))


@pytest.mark.parametrize("players", [2, 4])
def test_after_a_strip_only_the_target_knows_its_last_card(players: int) -> None:
    """Hidden information (F7): «The small joker strips a hand to one card»; O48: «nobody
    knows where they are; the target knows what they lost»: the joker's player does not
    see the kept card, and a seat that knew the target's hand (from a swap) knows no card
    of it any more; the event names no card."""
    hands = ["7S 2H 3H 5H", "SJ KS 5C 9D", "QS QH 4D 4C", "AS AH 6D 6C"]
    s = pos(JOKERS, hands[:players])
    play(s, "7S>2", "2H")  # P1 now holds SJ KS 5C 9D and knows P2 holds 3H 5H
    for card in ("QH+20", "AH>1")[: players - 2]:
        play(s, card)
    assert s.turn == 0 and known(s, 0)[1] == "3H 5H"
    events = play(s, "SJ>2")
    stripped = of(events, E.HandStripped)
    assert stripped and not {"card", "cards"} & set(stripped[0].__dataclass_fields__)
    kept = s.hands[1][0]
    play(s, "shuffle " + format_cards([kept, *[c for c in s.hands[1] if c != kept]]))
    assert s.hands[1] == [kept]
    for seat in range(players):
        assert known(s, seat)[1] == ""
    assert observe(s, 0).hand_sizes[1] == 1


def test_big_joker_revives_an_out_player_with_five_cards_in_their_old_seat() -> None:
    """«大王：拯救，指定复活某个已出局的玩家并补全5张牌» (rescue: revive an eliminated
    player and give them 5 cards); O49's REC: «back in their old seat with 5 cards from
    the stock ... A revived player plays when play next reaches their seat; the direction
    does not change.» The joker's player then draws as after any card (O42)."""
    s = pos(JOKERS, ["BJ 2H 3H", "KS 5C 9D", "", "QS QH 4D"], out_of_game=[3], top="9C 9H")
    stock = len(s.stock)
    assert {m for m in legal(s) if m.startswith("BJ")} == {"BJ>1", "BJ>2", "BJ>3", "BJ>4"}
    events = play(s, "BJ>3")
    assert of(events, E.PlayerRevived) == [E.PlayerRevived(0, 2, 5)]
    assert s.alive[2] and s.in_hand[2] and len(s.hands[2]) == 5
    assert format_cards(s.hands[2][:2]) == "9C 9H"  # from the top of the stock
    assert len(s.hands[0]) == 3 and len(s.stock) == stock - 6
    assert (s.turn, s.direction, s.total) == (1, 1, 0)
    play(s, "5C")
    assert s.turn == 2  # play reaches the revived seat
    s2 = pos(JOKERS, ["BJ 2H 3H", "", "KS 5C 9D"], out_of_game=[2])
    play(s2, "BJ>2")
    assert s2.turn == 1  # the seat after the joker's player, back in the game, is next


def test_big_joker_fills_up_a_short_hand_or_its_own_and_never_a_full_one() -> None:
    """«或让某个未出局的玩家补全5张牌» (or let a player not out fill up to 5 cards); O49's
    REC: «any player in the game, self included, with fewer than 5 cards (refilled to
    5)». Our reading: filling one's own hand is that turn's draw."""
    s = pos(JOKERS, ["BJ 2H 3H", "KS 5C 9D 8C 2C", "QS QH 4D"], top="9C 9H 8H")
    assert {m for m in legal(s) if m.startswith("BJ")} == {"BJ>1", "BJ>3"}
    with pytest.raises(IllegalActionError, match="whose hand is full"):
        s.check(parse_action("BJ>2"))
    t = s.clone()
    events = play(s, "BJ>3")
    assert of(events, E.HandFilled) == [E.HandFilled(0, 2, 2)]
    assert len(s.hands[2]) == 5 and format_cards(s.hands[2][-2:]) == "9C 9H"
    assert len(s.hands[0]) == 3 and format_cards(s.hands[0][-1:]) == "8H"  # its draw
    events = play(t, "BJ>1")
    assert of(events, E.HandFilled) == [E.HandFilled(0, 0, 3)]
    assert len(t.hands[0]) == 5 and t.turn == 1  # filled to 5, and no further draw


def test_big_joker_with_nobody_to_name_is_played_alone_with_no_effect() -> None:
    """O49: «With no useful target the card is played with no effect (code comment
    l. 517)»: written BJ alone, and the player draws."""
    s = pos(JOKERS, ["BJ 2H 3H 5H 6H 8H", "KS 5C 9D 8C 2C"], total=40, top="9C")
    assert "BJ" in legal(s) and not {m for m in legal(s) if m.startswith("BJ>")}
    with pytest.raises(IllegalActionError):
        s.check(parse_action("BJ>2"))
    events = play(s, "BJ")
    assert not of(events, E.PlayerRevived) and not of(events, E.HandFilled)
    assert (s.total, s.turn, len(s.hands[0]), len(s.hands[1])) == (40, 1, 6, 5)
    s = pos(JOKERS, ["BJ 2H", "KS 5C 9D 8C 2C"])
    with pytest.raises(ChoiceRequiredError, match="brings back a player who is out"):
        s.check(parse_action("BJ"))


def test_a_revival_past_the_end_of_the_stock_restocks_then_the_joker_player_draws() -> None:
    """O54: «stock empty (also reached by the big joker's 5-card draws) ... shuffle the
    discard pile, all but its top card, into a new stock»: the revived player draws the
    rest after the shuffle, then the joker's player draws its card; a position in the
    middle reads back."""
    s = pos(JOKERS, ["BJ 2H 3H", "KS 5C", ""], out_of_game=[3], top="9C 9H", rest="pile")
    play(s, "BJ>3")
    assert s.is_chance and s.chance == RESTOCK and len(s.hands[2]) == 2
    assert (s.drawer, s.owed, s.victim) == (2, 3, 0)
    back = parse_position(format_position(s))
    assert back == s and back.victim == 0
    back.play_chance(random.Random(0))
    assert len(back.hands[2]) == 5 and len(back.hands[0]) == 3 and back.victim == -1
    assert back.turn == 1 and not back.is_chance


def test_a_revived_hand_is_known_to_nobody_else() -> None:
    """Hidden information: what a seat knew of a player's hand before that player went
    out says nothing of the five new cards it draws when revived (even the same card
    again, with two packs)."""
    s = pos(
        JOKERS,
        ["BJ 2H 3H", "KS 5C 9D", ""],
        out_of_game=[3],
        known=[["", "", "9C"], ["", "", ""], ["", "", ""]],
        top="9C 9H",
    )
    assert known(s, 0)[2] == ""  # (no 9C in the empty hand)
    play(s, "BJ>3")
    assert "9C" in format_cards(s.hands[2])
    assert known(s, 0)[2] == ""


def test_strip_positions_read_back() -> None:
    """A position in the middle of a strip (the kept card still to pick) reads back."""
    s = pos(JOKERS, ["SJ 2H", "KS 5C", "QS 4D"])
    play(s, "SJ>3")
    back = parse_position(format_position(s))
    assert back == s and back.chance == STRIP and back.victim == 2
    play(back, "shuffle 4D QS")
    assert format_cards(back.hands[2]) == "4D"


def test_the_jokers_effects_parse_describe_and_refuse_bad_mixes() -> None:
    """The strip and revive effects are words of the rules files, printed back as
    written, described by the rules text, and refused beside another named effect, with
    pooled teams (one seat comes back, not a pool) or with explicit draws."""
    assert format_effect(parse_effect("hold strip")) == "hold strip"
    assert format_effect(parse_effect("hold revive")) == "hold revive"
    assert parse_effect("hold revive").names_seat and parse_effect("hold strip").moves_cards
    for bad in ("hold strip take", "hold revive name", "+1/+11 strip", "hold revive skip"):
        with pytest.raises(RulesError, match="strips or revives"):
            parse_effect(bad)
    text = rules_text(rules_from_spec(JOKERS))
    assert "A strip card (the Small Joker) names another player still in the hand" in text
    assert "A revival card (the Big Joker) names a player who is out" in text
    assert "with 5 cards from the stock" in text
    assert "Big Joker: hold (+0); name a player who is out" in text
    with pytest.raises(RulesError, match="draw = 'auto'"):
        apply_overrides(rules_from_spec(JOKERS), {"draw": "explicit"})
    with pytest.raises(RulesError, match="needs teams = 'none' or 'alternate'"):
        rules_from_spec({"preset": "J-TEAM", "rules": {"cards": {"K": "hold revive"}}})


def test_the_analysis_refuses_the_jokers_effects_in_one_line() -> None:
    from ninetynine.analysis.cells import Cell, unplayable

    bare = {"preset": "P", "rules": {"cards": {"K": "hold revive", "Q": "hold strip"}}}
    why = unplayable(Cell(rules_from_spec(bare), 3, ("random", "random", "random")))
    assert why is not None and "strips and revivals" in why and "\n" not in why


def test_a_record_of_a_game_with_jokers_replays_and_conserves_cards() -> None:
    """Every move is notation (``SJ>2``, ``BJ>3``, ``BJ``, the strip's ``shuffle``): the
    checked replay of a fast game's moves reaches the same state, with every card kept."""
    r = rules_from_spec(JOKERS)
    seen: Counter[str] = Counter()
    for players in (2, 4, 6):
        for seed in range(8):
            rng = random.Random(seed)
            s, replay = new_game(r, players), new_game(r, players)
            deck = Counter(new_deck(s.decks, jokers=True))
            while not s.is_over:
                if s.is_chance:
                    outcome = s.play_chance(rng)
                    events = replay.apply(parse_action(str(outcome)))
                else:
                    assert [str(a) for a in replay.legal_actions()] == [
                        str(s.action_of(c)) for c in s.legal_codes()
                    ]
                    action = rng.choice(s.legal_actions())
                    s.apply_code(s.code_of(action))
                    events = replay.apply(parse_action(str(action)))
                seen.update(type(e).__name__ for e in events)
                assert replay == s and Counter(s.all_cards()) == deck
    assert seen["HandStripped"] >= 3 and seen["PlayerRevived"] >= 1 and seen["HandFilled"] >= 3


@pytest.mark.parametrize("specs", [["random"], ["heuristic"], ["hard:iterations=20,depth=8"]])
def test_bots_finish_games_with_the_jokers(specs: list[str]) -> None:
    """Every bot plays the jokers' named seats (and a lone big joker) to the end."""
    from tests.bots.test_bots_play import play as bot_play

    for players, seed in ((2, 1), (4, 2)):
        moves = bot_play(JOKERS, players, specs, seed=seed)
        assert moves


def test_a_player_whose_last_card_is_played_draws_after_a_restock_and_stays_in() -> None:
    """O54: «If both are empty the draw is skipped. A player who ends a play with 0 cards is
    out (text l. 42)»: with discards to shuffle, the player's draw comes after the restock,
    so its hand is not empty and it stays in."""
    s = pos(PLAIN, ["2S", "KC KD KH 7D 7H", "3D 5D"], total=10, top="", rest="pile")
    events = play(s, "2S")
    assert not of(events, E.PlayerOut) and s.is_chance and s.in_hand[0]
    s.play_chance(random.Random(0))
    assert len(s.hands[0]) == 1 and s.alive[0] and s.turn == 1


def test_the_cn99_preset_is_the_family_as_read() -> None:
    """The preset ``CN99`` (working name ``99fen``, FAMILIES.md §12.1): its cards, the
    jokers' strip and revival, and every REC setting these tests play, as data."""
    from ninetynine import load_rules

    preset = load_rules("99fen")
    assert preset.id == "CN99"
    read = rules_from_spec(JOKERS)
    for card in new_deck(1, jokers=True):
        assert preset.effect_of(card) == read.effect_of(card), format_card(card)
    for key in (
        "hand_size",
        "lives",
        "jokers",
        "decks_by_players",
        "starter",
        "after_bust",
        "eliminated_hand",
        "empty_hand",
        "no_draw_after",
        "below_zero",
        "choice_filter",
        "players_min",
        "players_max",
        "stock_empty",
    ):
        assert getattr(preset, key) == getattr(read, key), key
    assert "github.com/cuixiping/99points" in preset.source
    text = rules_text(preset)
    assert "A strip card (the Small Joker)" in text and "A swap card (the Seven)" in text
    for players in (2, 5, 6):
        for seed in range(3):
            s = play_out(new_game(preset, players), random.Random(seed))
            assert s.outcome is not None and len(s.outcome.winners) == 1


def test_a_take_with_no_other_hand_holding_a_card_is_no_play() -> None:
    """O47 names "another player who holds a card": where none does (a house game with
    explicit draws, whose other player played its last card and drew none), the J is no
    play, and its holder lays down as with no safe card (Hypothesis found the seat to act
    with no move at all)."""
    house = {"preset": "P", "rules": {"draw": "explicit", "cards": {"J": "hold take"}}}
    s = pos(house, ["JC", ""], total=11, turn=1, top="")
    assert s.legal_codes() == [DOWN]
    assert legal(s) == {"down"}
    s = pos(house, ["JC", "5H"], total=11, turn=1, top="")
    assert legal(s) == {"JC>2"}


# Teams (O51) ----------------------------------------------------------------------------

# O51's option on the preset: «Option `teams=alternate`: even seats against odd seats»,
# at the source's tables («`return n>=4 && n%2===0`», [CN2] l. 123): seats 1, 3, 5... (0,
# 2, 4 here) against 2, 4, 6...
TEAMS = {"preset": "CN99", "rules": {"players_min": 4, "players_max": 10, "teams": "alternate"}}


def won(s: State) -> tuple[int, ...]:
    assert s.is_over and s.outcome is not None
    assert s.outcome.reason == "last_team"
    return s.outcome.winners


@pytest.mark.parametrize("players", [4, 6])
def test_a_team_wins_when_every_opponent_is_out(players: int) -> None:
    """«如果分组游戏，对手组成员全部出局则为赢家。» (playing in teams, a side wins when every
    member of the other side is out); O51: «the game ends at the moment only one side holds
    cards». The last opponent, stuck, is out: the game ends, every member of the side wins,
    its players already out too."""
    hands = ["KC KD 7D 7H 5H", "", "", "9S 9C 8S 8C 6S", "QS QH 4D 4C 2C", ""][:players]
    out = [2, 3] + ([5, 6] if players == 6 else [])  # (1-based) P3 of the side is out too
    s = pos(TEAMS, hands, out_of_game=out, total=95, turn=4)
    assert not s.is_over and legal(s) == {"down"}
    events = play(s, "down")
    assert of(events, E.PlayerOut) == [E.PlayerOut(3)]
    assert won(s) == tuple(range(0, players, 2))
    assert of(events, E.GameOver)[0].winners == won(s)


def test_a_revived_opponent_undoes_the_win_until_it_is_out_again() -> None:
    """O51: «the team wins when every opponent is out, revived opponents included, so a
    big joker can undo it until then»; O49's revival may name any out player, an opponent
    too. P1 brings back P2; P4, the opponent who was left, is then out, and the game goes
    on; it ends when P2 is out again, with P1 out by then: P3 wins for the side."""
    hands = ["BJ 2H 3H", "", "KD 3C 3D", "9H 9D 8H 8D 6H"]
    s = pos(TEAMS, hands, out_of_game=[2], total=95, top="2S 9S 9C 8S 8C 6S 5S")
    assert {m for m in legal(s) if m.startswith("BJ")} == {"BJ>1", "BJ>2", "BJ>3"}
    play(s, "BJ>2")  # P1 brings back an opponent: it plays next, with 5 cards
    assert s.alive[1] and format_cards(s.hands[1]) == "2S 9S 9C 8S 8C" and s.turn == 1
    play(s, "2S", "KD")
    assert s.total == 99 and legal(s) == {"down"}
    play(s, "down")  # P4 out: P2 still holds cards, so the game goes on
    assert not s.alive[3] and not s.is_over and s.turn == 0
    play(s, "down")  # P1 out: P3 holds cards for the side
    assert not s.alive[0] and not s.is_over and s.turn == 1
    play(s, "down")
    assert won(s) == (0, 2)


def test_a_team_mate_brought_back_plays_for_the_side() -> None:
    """O49 «an out player»: the big joker may bring back a player of the joker's own side."""
    s = pos(TEAMS, ["BJ 2H 3H", "QS QH 4D", "", "KS 5C 9D"], out_of_game=[3])
    play(s, "BJ>3")
    assert s.alive[2] and len(s.hands[2]) == 5 and not s.is_over


def test_the_last_two_players_of_opposite_teams_play_on() -> None:
    """O51: «Two last-standing players of opposite teams play on.» Their partners are out;
    the one who outlasts the other wins with the partner."""
    s = pos(TEAMS, ["KC 2H 3H 5H 6H", "9S 9C 8S 8C 6S", "", ""], out_of_game=[3, 4], total=80)
    play(s, "KC")
    assert not s.is_over and s.turn == 1 and s.total == 99
    play(s, "down")
    assert won(s) == (0, 2)


@pytest.mark.parametrize("players", [4, 6])
def test_a_stolen_last_card_can_end_the_game_for_the_side(players: int) -> None:
    """O47: «A victim left with 0 cards is out at once»; the last opponent out, the side
    has won (O51)."""
    hands = ["JS 2H 3H", "KS", "QS QH 4D", "", "5C 5D", ""][:players]
    s = pos(TEAMS, hands, out_of_game=[4, 6][: players // 2 - 1])
    events = play(s, "JS>2", "shuffle KS")
    assert of(events, E.PlayerOut) == [E.PlayerOut(1)]
    assert won(s) == tuple(range(0, players, 2))


def test_a_swap_that_leaves_the_last_opponent_empty_handed_wins() -> None:
    """«7： 和指定的某人交换手头的全部牌» with a one-card hand: the opponent receives an
    empty hand and is out at once (O46, O47), the side's last opponent (O51)."""
    s = pos(TEAMS, ["7S", "", "QS QH 4D", "", "5C 5D", "KD 2D"], out_of_game=[2, 4])
    events = play(s, "7S>6")
    assert of(events, E.PlayerOut) == [E.PlayerOut(5)]
    assert format_cards(s.hands[0]) == "KD 2D"
    assert won(s) == (0, 2, 4)


def test_a_player_out_while_a_team_mate_holds_cards_does_not_end_the_game() -> None:
    """A side holds cards while any of its players does: the stolen last card of one
    opponent leaves the other opponent in, and play goes on."""
    s = pos(TEAMS, ["JS 2H 3H", "KS", "QS QH 4D", "5C 5D"])
    play(s, "JS>2", "shuffle KS")
    assert not s.alive[1] and not s.is_over and s.turn == 2


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({}, ["players_min", "2", "even number of players, at least 4"]),
        ({"players_min": 4, "players_max": 9}, ["players_max", "9", "even"]),
        ({"players_min": 3, "players_max": 10}, ["players_min", "3", "even"]),
        ({"players_min": 2, "players_max": 2}, ["players_min", "2", "at least 4"]),
    ],
)
def test_alternate_teams_need_an_even_table_of_four_or_more(
    changes: dict[str, int], words: list[str]
) -> None:
    """O51, the source's «`n>=4 && n%2===0`»: a house-rules file that allows another table
    is refused in one line naming the key."""
    spec = {"preset": "CN99", "rules": {"teams": "alternate", **changes}}
    with pytest.raises(RulesError) as caught:
        rules_from_spec(spec)
    line = str(caught.value)
    assert "\n" not in line and all(w in line for w in words), line


def test_an_odd_table_of_alternate_teams_is_refused_and_other_settings_read_as_before() -> None:
    """An odd table between an even players_min and players_max is refused when the game is
    set up; ``teams = true`` still reads as the pooled partnership (J-TEAM's), ``false`` as
    none."""
    with pytest.raises(RecordError, match="even table, not 5"):
        new_game(rules_from_spec(TEAMS), 5)
    from ninetynine.rules.settings import Teams

    assert (
        rules_from_spec(
            {"preset": "J", "rules": {"teams": True, "players_min": 4, "players_max": 4}}
        ).teams
        is Teams.POOLED
    )
    assert rules_from_spec({"preset": "CN99", "rules": {"teams": False}}).teams is Teams.NONE
    assert rules_from_spec({"preset": "J-TEAM"}).teams is Teams.POOLED
    with pytest.raises(RulesError, match="scoring = 'lives'"):
        rules_from_spec(
            {
                "preset": "P-BORDERS",
                "rules": {"teams": "alternate", "players_min": 4, "players_max": 4},
            }
        )


def test_the_rules_text_says_the_teams_and_how_a_team_wins() -> None:
    text = rules_text(rules_from_spec(TEAMS))
    assert "Two teams of alternate seats, 1, 3, 5... against 2, 4, 6..." in text
    assert "A team wins, all its players with it (those out too)" in text
    assert "The last player with lives left wins." not in text
    assert "Two teams" not in rules_text(rules_from_spec({"preset": "CN99"}))


@pytest.mark.parametrize("players", [4, 6, 8, 10])
def test_whole_team_games_end_with_a_whole_side_winning(players: int) -> None:
    """Random whole games: the winners are every seat of one parity, and at the end only
    that side is in the game (holds cards)."""
    for seed in range(12):
        s = play_out(new_game(rules_from_spec(TEAMS), players), random.Random(seed))
        side = won(s)
        assert side in (tuple(range(0, players, 2)), tuple(range(1, players, 2)))
        assert any(s.alive[p] for p in side) and not any(
            s.alive[p] for p in range(players) if p not in side
        )


@pytest.mark.parametrize("specs", [["random"], ["heuristic"], ["hard:iterations=20,depth=8"]])
def test_bots_finish_team_games(specs: list[str]) -> None:
    """Every bot plays CN99 in teams legally to the end, at four and six seats."""
    from tests.bots.test_bots_play import play as bot_play

    for players, seed in ((4, 3), (6, 4)):
        assert bot_play(TEAMS, players, specs, seed=seed)


def test_a_sides_odds_are_its_players_together() -> None:
    """The bots' and the coach's game odds: a side wins where one of its players is the
    last left, so partners share one chance, the side's players' together."""
    from ninetynine.bots.odds import game_odds

    s = pos(TEAMS, ["2H 3H", "", "QS QH 4D", "KS 5C 9D"], out_of_game=[2])
    odds = game_odds(s.rules)
    assert odds is not None
    chances = odds.of_state(s)
    assert chances[0] == chances[2] == pytest.approx(2 / 3)
    assert chances[1] == chances[3] == pytest.approx(1 / 3)


def test_a_team_games_record_names_the_whole_side_and_replays_to_it() -> None:
    """The record's result lists every seat of the winning side (those out too); the
    record reads back and replays to the same outcome, standings first for the side."""
    from ninetynine.records.match import Match, replay, standings
    from ninetynine.records.record import format_record, parse_record

    rng = random.Random(8)
    match = Match.new(rules_from_spec(TEAMS), 6, auto_chance=False)
    s = match.state
    while not s.is_over:
        match.play(s.sample_chance(rng) if s.is_chance else rng.choice(s.legal_actions()))
    side = won(s)
    assert any(not s.alive[p] for p in side)  # (this seed: a winner is out at the end)
    text = format_record(match.record(), s)
    assert f"winners = {[p + 1 for p in side]}" in text and 'reason = "last_team"' in text
    again, log = replay(parse_record(text))
    assert again.outcome == s.outcome
    assert {x.seat for x in standings(again, log) if x.place == 1} == set(side)
