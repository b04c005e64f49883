"""Every option of every bot spec is read as data: a wrong name or value is one line that
names the bot, the option and what it accepts (never Python's own complaint)."""

from __future__ import annotations

from enum import StrEnum

import pytest

from ninetynine.bots import make_bot
from ninetynine.bots.base import _RAW, BUILTIN, bot_options
from ninetynine.bots.spec import BotOption
from ninetynine.errors import NinetyNineError

# Every built-in bot that reads key=value options (cmd/proc take a command line, policy a
# MODULE:NAME).
OPTIONED = sorted(name for name in BUILTIN if name not in _RAW)


def options(bot: str) -> dict[str, BotOption]:
    declared = bot_options(bot)
    assert declared is not None, f"{bot} declares no OPTIONS"
    return declared


EVERY_OPTION = [(bot, key, option) for bot in OPTIONED for key, option in options(bot).items()]


def good_value(option: BotOption) -> str:
    if issubclass(option.kind, StrEnum):
        return list(option.kind)[-1].value
    return "1"


def bad_values(option: BotOption) -> list[str]:
    """Values the option must refuse: a word for a number, a number out of range."""
    if issubclass(option.kind, StrEnum):
        return ["nonsense", "1"]
    bad = ["x", "inf"]
    if option.kind is int:
        bad.append("1.5")
    if option.least is not None:
        bad.append(f"{option.least - 1:g}")
    if option.most is not None:
        bad.append(f"{option.most + 1:g}")
    return bad


def test_every_built_in_bot_declares_its_options() -> None:
    assert {"random", "greedy", "greedy-keep", "heuristic", "ismcts", "oracle"} <= set(OPTIONED)
    for bot in OPTIONED:
        assert isinstance(bot_options(bot), dict), bot
    assert bot_options("cmd") is None  # a command line, passed whole
    assert len(EVERY_OPTION) >= 16


@pytest.mark.parametrize(
    "bot, key, option", EVERY_OPTION, ids=[f"{b}-{k}" for b, k, _ in EVERY_OPTION]
)
def test_each_option_takes_a_good_value_and_refuses_bad_ones_in_one_line(
    bot: str, key: str, option: BotOption
) -> None:
    made = make_bot(
        f"{bot}:iterations=5,{key}={good_value(option)}"
        if "iterations" in options(bot) and key != "iterations"
        else f"{bot}:{key}={good_value(option)}",
        seeing=True,
    )
    # the bot named (``heuristic`` is ``heuristic-v1``: one family)
    assert made.name.split("-")[0] == bot.split("-")[0]
    for text in bad_values(option):
        with pytest.raises(NinetyNineError) as e:
            make_bot(f"{bot}:{key}={text}", seeing=True)
        line = str(e.value)
        assert line == f"{bot}: {key}={text!r}: expected {option.accepted()}", line
        assert "\n" not in line and "instances of" not in line


@pytest.mark.parametrize("bot", OPTIONED)
def test_an_unknown_option_lists_the_bots_options(bot: str) -> None:
    with pytest.raises(NinetyNineError) as e:
        make_bot(f"{bot}:foo=1", seeing=True)
    known = list(options(bot))
    assert str(e.value) == f"{bot}: option 'foo' is unknown: " + (
        f"expected {', '.join(known)}" if known else "it takes no options"
    )


@pytest.mark.parametrize(
    "spec, line",
    [
        (
            "ismcts:foo=1",
            "ismcts: option 'foo' is unknown: expected iterations, ms, c, depth, "
            "epsilon, tree, prior, infer, belief, value, endgame, plies, rollout",
        ),
        ("ismcts:iterations=x", "ismcts: iterations='x': expected a whole number, 0 or more"),
        ("ismcts:depth=0", "ismcts: depth='0': expected a whole number, 1 or more"),
        ("ismcts:epsilon=1.5", "ismcts: epsilon='1.5': expected a number from 0 to 1"),
        ("ismcts:belief=all", "ismcts: belief='all': expected last or history"),
        ("oracle:see=all", "oracle: see='all': expected hands or kept"),
        ("heuristic:push=lots", "heuristic: push='lots': expected a number"),
        ("medium:weak=5", "heuristic-v2: weak='5': expected a number from 0 to 3"),
        ("random:speed=2", "random: option 'speed' is unknown: it takes no options"),
        ("hard:x=1", "ismcts: option 'x' is unknown"),
        (
            "ismcts:iterations=0",
            "ismcts: iterations=0 with no time budget: give iterations of 1 or more, or ms above 0",
        ),
    ],
)
def test_the_issues_examples_read_as_one_line(spec: str, line: str) -> None:
    with pytest.raises(NinetyNineError) as e:
        make_bot(spec, seeing=True)
    assert str(e.value).startswith(line)


@pytest.mark.parametrize(
    "spec, line",
    [
        (
            "cmd:timeout=x:python bot.py",
            "cmd: timeout='x': expected seconds, a number above 0, "
            "then the command: cmd:timeout=2:python bot.py",
        ),
        ("cmd:timeout=0:python bot.py", "cmd: timeout=0: expected seconds, a number above 0"),
        ("cmd:", "empty bot command"),
    ],
)
def test_a_program_bots_timeout_is_checked_too(spec: str, line: str) -> None:
    with pytest.raises(NinetyNineError) as e:
        make_bot(spec)
    assert str(e.value).startswith(line)


def test_good_options_reach_the_bot() -> None:
    bot = make_bot("ismcts:iterations=0,ms=20,belief=HISTORY,epsilon=0.5")
    assert (bot.iterations, bot.ms, bot.belief, bot.epsilon) == (  # type: ignore[attr-defined]
        10**9,
        20.0,
        "history",
        0.5,
    )
