"""What a simulation plays: its cells (a rule set, a player count and a line-up of bots) and
the chunks of games each cell is cut into.

A line-up names its *entrants*, the bot specs that :func:`~ninetynine.bots.base.make_bot`
takes. With N seats and fewer entrants they are repeated in order to fill the seats
(``heuristic,random`` at four seats is ``heuristic,random,heuristic,random``).

The games come in *deal blocks* whose games all get the same cards (:meth:`Cell.block_of`,
the one rule). Where the seats hold different bots they rotate as in the arena
(:func:`ninetynine.arena.runner.rotation`): game ``g`` is rotation ``g % N`` of block
``g // N``, so every bot plays every chair of every deal. Where every seat holds the same
bot spec, rotating would replay one game with its seats relabelled (the same game N times,
not N games): there each game is a block of its own, rotation 0, with a deal of its own.

A chunk is a run of whole blocks of one cell: the unit of work a process or a Ray task
plays and the unit the manifest counts as finished. Every game's seeds come from the
simulation's seed and the game's block and number (as in the arena), never from its chunk
or worker, so the rows do not depend on how the games were cut or who played them; and the
cells of one simulation deal the same cards to the same block number, so two rule sets or
line-ups can be compared deal by deal.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache, cached_property
from urllib.parse import quote

from ninetynine.bots.base import make_bot
from ninetynine.errors import NinetyNineError
from ninetynine.rules.settings import EmptyHand, Rules, rules_to_mapping, table_refusal

# the Rules fields that name a rule set rather than say how it plays
_NAMING = ("id", "name", "description")


@cache
def rules_hash(rules: Rules) -> str:
    """16 hex digits of how ``rules`` play (their settings, not their names)."""
    settings = {k: v for k, v in rules_to_mapping(rules).items() if k not in _NAMING}
    text = json.dumps(settings, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def safe_name(text: str) -> str:
    """``text`` as one folder name on every filesystem: each character but letters,
    digits and ``_.-~`` percent-encoded, as Hive writes partition values (``,`` is
    ``%2C``, ``:`` is ``%3A``, ``=`` is ``%3D``); DuckDB, pyarrow and polars decode it."""
    return quote(text, safe="")


@dataclass(frozen=True)
class Cell:
    """One rule set, one player count and one line-up of entrants."""

    rules: Rules
    players: int
    lineup: tuple[str, ...]  # the entrants' bot specs

    @cached_property
    def lineup_name(self) -> str:
        """The line-up as the rows write it: the entrants' specs, comma-separated."""
        return ",".join(self.lineup)

    @cached_property
    def seat_specs(self) -> tuple[str, ...]:
        """The bot in each seat before rotation: the entrants repeated to fill the seats."""
        k = len(self.lineup)
        return tuple(self.lineup[i % k] for i in range(self.players))

    @cached_property
    def block_size(self) -> int:
        """The games of a deal block: one where every seat holds the same bot spec, else
        one per seat (a rotation each)."""
        return 1 if len(set(self.seat_specs)) == 1 else self.players

    def block_of(self, game: int) -> tuple[int, int]:
        """Game ``game``'s deal block and its rotation in it (``(game, 0)`` where every
        seat holds the same bot spec, else ``divmod(game, players)``)."""
        return divmod(game, self.block_size)

    @cached_property
    def path(self) -> str:
        """The cell's folder under each table: ``rules=K/players=4/lineup=heuristic%2Crandom``."""
        return (
            f"rules={safe_name(self.rules.id)}/players={self.players}/"
            f"lineup={safe_name(self.lineup_name)}"
        )

    @property
    def label(self) -> str:
        """How a person reads the cell: ``K, 4 players, heuristic,random``."""
        return f"{self.rules.id}, {self.players} players, {self.lineup_name}"


def unplayable(cell: Cell) -> str | None:
    """Why a cell of the grid cannot be played (a simulation skips it and says so): a
    player count outside the rules' range, more entrants than seats, or a challenge card."""
    rules, n = cell.rules, cell.players
    if any(e.challenge for e in rules.effects()):
        return (
            f"{rules.id}: the analysis does not play challenge cards (KC's King): its "
            "ledger has no cause for a player a challenge puts out"
        )
    if any(e.moves_cards for e in rules.effects()):
        return (
            f"{rules.id}: the analysis does not play swaps and takes (CN99's 7 and J) nor "
            "strips and revivals (its jokers): its fast path moves no cards between hands "
            "and brings no player back"
        )
    if rules.jokers or rules.no_draw_after or rules.empty_hand is not EmptyHand.STUCK:
        return (
            f"{rules.id}: the analysis does not play jokers, cards with no draw after them "
            "nor empty hands that put a player out (CN99): its fast path deals 52-card packs"
        )
    if (why := table_refusal(rules, n)) is not None:
        return why
    if len(cell.lineup) > n:
        return f"{len(cell.lineup)} entrants ({cell.lineup_name}) do not fit {n} seats"
    return None


def split_specs(text: str) -> list[str]:
    """Split a line-up at commas; a ``key=value`` piece belongs to the spec before it.

    >>> split_specs("ismcts:iterations=500,c=1,heuristic,random")
    ['ismcts:iterations=500,c=1', 'heuristic', 'random']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and "=" in piece and ":" not in piece.split("=")[0] and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs if text.strip() else []


def check_lineup(lineup: tuple[str, ...]) -> None:
    """One line for a line-up with no entrant or a bot spec that is not one."""
    if not lineup or not all(lineup):
        raise NinetyNineError(
            f"line-up {','.join(lineup)!r}: expected bot specs, e.g. heuristic,random"
        )
    for spec in lineup:
        make_bot(spec, seeing=True)  # a bad spec fails here, with its own line


@dataclass(frozen=True)
class Chunk:
    """Games ``start`` to ``start + count - 1`` of cell number ``cell``: part ``index``."""

    cell: int
    index: int
    start: int
    count: int

    @property
    def part(self) -> str:
        """The chunk's file name without its extension: ``part-3``."""
        return f"part-{self.index}"


def chunks_of(cell_no: int, block_size: int, games: int, size: int) -> list[Chunk]:
    """A cell's ``games`` cut into chunks of about ``size`` games, in whole blocks of
    ``block_size`` games (the last may be shorter, and end inside a block where ``games``
    is not a multiple of ``block_size``)."""
    per = max(1, size // block_size) * block_size
    return [
        Chunk(cell_no, i, start, min(per, games - start))
        for i, start in enumerate(range(0, games, per))
    ]
