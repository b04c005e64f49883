"""The options a bot spec may give (``ismcts:iterations=500,belief=history``), as data.

A bot class lists its options in ``OPTIONS``: the name, the kind of value and the least
accepted. :func:`~ninetynine.bots.base.make_bot` reads every option of a spec through
them, so a wrong name or value is one line naming the option and what it accepts, before
the bot is built.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from ninetynine.errors import NinetyNineError


@dataclass(frozen=True, slots=True)
class BotOption:
    """One option: a whole number, a number, or one word of a :class:`StrEnum`."""

    kind: type[int] | type[float] | type[StrEnum]
    least: float | None = None  # the smallest value accepted (numbers only)
    above: bool = False  # ``least`` itself is refused: "above 0"
    most: float | None = None  # the largest value accepted

    def accepted(self) -> str:
        """What the option takes, e.g. ``'a whole number above 0'``, ``'last or history'``."""
        if issubclass(self.kind, StrEnum):
            return " or ".join(k.value for k in self.kind)
        noun = "a whole number" if self.kind is int else "a number"
        if self.least is not None and self.most is not None:
            return f"{noun} from {self.least:g} to {self.most:g}"
        if self.least is not None:
            return (
                f"{noun} above {self.least:g}" if self.above else f"{noun}, {self.least:g} or more"
            )
        return noun

    def read(self, text: str) -> int | float | StrEnum:
        """The value ``text`` gives; ValueError if it is not one this option accepts."""
        if issubclass(self.kind, StrEnum):
            return self.kind(text.lower())
        value = int(text) if self.kind is int else float(text)
        if not math.isfinite(value):
            raise ValueError(text)
        if self.least is not None and (value < self.least or self.above and value == self.least):
            raise ValueError(text)
        if self.most is not None and value > self.most:
            raise ValueError(text)
        return value


Options = dict[str, BotOption]


def read_options(bot: str, options: Options, given: dict[str, str]) -> dict[str, object]:
    """Each ``key=value`` of a spec read through the bot's ``options``; one line naming
    the option and what is accepted for the first that is wrong."""
    out: dict[str, object] = {}
    for key, text in given.items():
        option = options.get(key)
        if option is None:
            known = ", ".join(options)
            raise NinetyNineError(
                f"{bot}: option {key!r} is unknown: "
                + (f"expected {known}" if known else "it takes no options")
            )
        try:
            out[key] = option.read(text)
        except ValueError:
            raise NinetyNineError(f"{bot}: {key}={text!r}: expected {option.accepted()}") from None
    return out
