"""Per-rules lookup tables for the engine's hot path.

Legal moves and resulting totals depend only on the rules, the card and the total, so
they are computed once per rules value and looked up afterwards.
"""

from __future__ import annotations

from functools import cache

from ninetynine.effects import Effect, Kind, resolve
from ninetynine.rules import (
    BelowZero,
    Draw,
    InstantCheck,
    Restock,
    Rule69,
    Rules,
    StockEmpty,
    Thresholds,
    TwoPlayerReverse,
)


class RuleTables:
    """Per-rules lookup tables for the hot path."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.effects: tuple[Effect, ...] = rules.cards
        self.limit = rules.limit
        self.moves: dict[tuple[int, int], tuple[tuple[int, int, bool], ...]] = {}
        self.king_ban = rules.king_ban_turns if rules.king_is_banned_card else 0
        self.scoring_on_play = (rules.thresholds is not Thresholds.NONE
                                or rules.rule_69 is not Rule69.NONE)
        self.instant_on_draw = rules.instant_hands and \
            rules.instant_check is InstantCheck.DEAL_AND_DRAW
        self.eager = rules.restock is Restock.EAGER and rules.stock_empty is not StockEmpty.NO_DRAW
        self.may_bust = rules.may_bust
        self.explicit_draw = rules.draw is Draw.EXPLICIT
        self.draw_later = rules.two_player_reverse is TwoPlayerReverse.PLAY_AGAIN_DRAW_LATER
        # a draw is just taking the top card: the hot path of simulations
        self.plain_draw = not (self.explicit_draw or self.draw_later or self.eager
                               or self.instant_on_draw)
        # (total * 64 + card) -> (safe codes, busting codes); (total * 256 + code) -> new total
        self.card_moves: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.after: dict[int, int] = {}

    def moves_of(self, card: int, total: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The safe and the busting action codes of one card at a total."""
        key = total * 64 + card
        found = self.card_moves.get(key)
        if found is None:
            opts = self.options(card >> 2, total)
            found = self.card_moves[key] = (
                tuple(card * 4 + ch for ch, _, busts in opts if not busts),
                tuple(card * 4 + ch for ch, _, busts in opts if busts))
        return found

    def result(self, code: int, total: int) -> int:
        """The total after playing action ``code`` at ``total`` (floor policy applied)."""
        key = total * 256 + code
        found = self.after.get(key)
        if found is None:
            found = self.after[key] = self.new_total(code >> 4, code & 3, total)
        return found

    def new_total(self, rank: int, choice: int, total: int) -> int:
        """The total after a rank's choice, clamped at 0 where the rules clamp."""
        new = resolve(self.effects[rank], total, choice, self.limit)
        if new < 0 and new < total and self.rules.below_zero is BelowZero.CLAMP:
            return 0
        return new

    def options(self, rank: int, total: int) -> tuple[tuple[int, int, bool], ...]:
        """(choice, new total, busts) for each allowed choice of a rank at a total."""
        key = (rank, total)
        found = self.moves.get(key)
        if found is None:
            eff, out = self.effects[rank], []
            for choice in range(len(eff.values) if eff.kind is Kind.ADD else 1):
                new = self.new_total(rank, choice, total)
                if new < 0 and new < total and self.rules.below_zero is BelowZero.ILLEGAL:
                    continue
                out.append((choice, new, new > self.limit))
            found = self.moves[key] = tuple(out)
        return found


@cache
def compiled(rules: Rules) -> RuleTables:
    return RuleTables(rules)
