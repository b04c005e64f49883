"""Every refusal has a typed cause: ``IllegalActionError.reason`` (a :class:`Refusal`),
``.why`` (one sentence, no move list) and ``.legal`` (what may be played instead).
``state.check`` raises it without changing anything; ``state.is_legal`` says yes or no."""

from __future__ import annotations

import pytest
from tests.rules.helpers import pos

from ninetynine import new_game, parse_action
from ninetynine.engine.actions import Action, Reinsert, Shuffle
from ninetynine.engine.state import State
from ninetynine.errors import IllegalActionError, OverLimitError, Refusal
from ninetynine.language import Language, using
from ninetynine.rules.presets import load_rules


def refusal(state: State, text: str, seat: int | None = None) -> IllegalActionError:
    action = parse_action(text)
    assert isinstance(action, Action)
    before = repr(state), state.total, [list(h) for h in state.hands]
    assert not state.is_legal(action, seat)
    with pytest.raises(IllegalActionError) as e:
        state.check(action, seat)
    assert (repr(state), state.total, [list(h) for h in state.hands]) == before
    err = e.value
    assert err.why and "legal:" not in err.why and "\n" not in str(err)
    return err


@pytest.mark.parametrize(
    "rules,hands,keys,move,seat,reason,legal",
    [
        (
            "P",
            ["KS 8D 2C", "9H 10D 3C"],
            {"total": 95},
            "8D",
            None,
            Refusal.OVER_LIMIT,
            {"KS", "2C"},
        ),
        (
            "K",
            ["10S 2S 3S", "4H 5H 6H"],
            {"total": 5},
            "10S",
            None,
            Refusal.BELOW_ZERO,
            {"2S", "3S"},
        ),
        (
            "P-UPCARD",
            ["KS 2S 3S", "4H 5H 6H"],
            {"total": 20},
            "KS",
            None,
            Refusal.OPENING_BAN,
            {"2S", "3S"},
        ),
        (
            "P",
            ["KS 8D 2C", "9H 10D 3C"],
            {"total": 10},
            "QH",
            None,
            Refusal.NOT_IN_HAND,
            {"KS", "8D", "2C"},
        ),
        (
            "P",
            ["AS 8D 2C", "9H 10D 3C"],
            {"total": 10},
            "AS",
            None,
            Refusal.CHOICE_REQUIRED,
            {"AS+1", "AS+11", "8D", "2C"},
        ),
        (
            "P",
            ["AS 8D 2C", "9H 10D 3C"],
            {"total": 10},
            "AS+5",
            None,
            Refusal.BAD_VALUE,
            {"AS+1", "AS+11", "8D", "2C"},
        ),
        (
            "P",
            ["AS 8D 2C", "9H 10D 3C"],
            {"total": 10},
            "8D+3",
            None,
            Refusal.BAD_VALUE,
            {"AS+1", "AS+11", "8D", "2C"},
        ),
        (
            "P",
            ["AS 8D 2C", "9H 10D 3C"],
            {"total": 10},
            "down",
            None,
            Refusal.NOT_ALLOWED,
            {"AS+1", "AS+11", "8D", "2C"},
        ),
        ("P", ["AS 8D 2C", "9H 10D 3C"], {"total": 10}, "8D", 1, Refusal.NOT_YOUR_TURN, set()),
    ],
)
def test_each_refusal_has_its_cause(
    rules: str,
    hands: list[str],
    keys: dict[str, int],
    move: str,
    seat: int | None,
    reason: Refusal,
    legal: set[str],
) -> None:
    err = refusal(pos(rules, hands, **keys), move, seat)
    assert err.reason is reason, err
    assert {str(a) for a in err.legal} == legal


def test_a_game_over_and_a_pending_shuffle_are_causes_too() -> None:
    state = new_game(load_rules("P"), 2)
    err = refusal(state, "KS")
    assert err.reason is Refusal.CHANCE_PENDING and "shuffle must be decided" in err.why
    with pytest.raises(IllegalActionError) as e:
        state.check_chance(Reinsert(3))
    assert e.value.reason is Refusal.BAD_CHANCE
    with pytest.raises(IllegalActionError) as e:
        state.check_chance(Shuffle((0, 1, 2)))
    assert e.value.reason is Refusal.BAD_CHANCE
    over = pos("P-SEVEN", ["8D", "9H"], total=95)
    over.apply(parse_action("down"))
    assert over.is_over
    assert refusal(over, "9H").reason is Refusal.GAME_OVER


def test_the_message_keeps_the_legal_moves_for_logs() -> None:
    err = refusal(pos("P", ["KS 8D 2C", "9H 10D 3C"], total=95), "8D")
    assert str(err) == "8♦ would make 103, over 99; legal: 2C, KS"  # people read 8♦
    assert err.why == "8♦ would make 103, over 99"


def test_a_refusal_is_told_in_the_language_with_the_same_type_reason_and_moves() -> None:
    state = pos("P", ["KS 8D 2C", "9H 10D 3C"], total=95)
    english = refusal(state, "8D")
    told = {}
    for lang in (Language.TH, Language.ZH_TW, Language.DE):
        with using(lang):
            told[lang] = refusal(state, "8D")
        assert type(told[lang]) is OverLimitError and told[lang].reason is english.reason
        assert told[lang].legal == english.legal  # the moves stay as typed: 2C, KS
    assert told[Language.DE].why == "8♦ ergäbe 103, über 99"
    assert told[Language.TH].why == "8♦ จะทำให้เป็น 103 เกิน 99"
    assert told[Language.ZH_TW].why == "8♦ 會變成 103，超過 99"
    with using(Language.FR):
        assert refusal(state, "5S").why == "5♠ n'est pas dans la main de P1 (K♠ 8♦ 2♣)"
        assert refusal(state, "KS", seat=1).why == "c'est au tour de P1, pas de P2"
