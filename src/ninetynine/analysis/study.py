"""The published study (``docs/fairness.md``): one configuration, one command.

``python scripts/fairness_study.py [--small]`` reads ``studies/fairness.toml`` and writes
the page and its plots (SVG files beside it). It is a script of its own, not a mode of
``ninetynine report``: a report reads results that exist, while the study plays games a
report cannot (the controlled card swaps and the sampled lead histories) and writes prose
around the figures; both share the statistics, the tables and the plots.

The configuration's sections (every key is checked; a wrong one is one line naming the
file, the key and what it accepts):

* ``[study]``: ``seed``, ``title``;
* ``[rule_sets]``: ``rules`` (``"all"`` or a list of ids), ``players`` (the usual counts,
  each kept where a rule set allows it, else its nearest), ``bots``, ``games``;
* ``[cardstock]``: CardStock's Ninety-Eight: ``rules``, ``players``, ``bots``, ``games``;
* ``[ladder]``: ``rules``, ``players``, ``bots`` (weakest first), ``games`` per pair;
* ``[card_value]``: ``rules``, ``players``, ``bots``, ``ranks``, ``deals``;
* ``[excitement]``: ``rules`` (a list), ``players``, ``bots``, ``games`` (whose decisions
  get each seat's win chances, :mod:`ninetynine.analysis.chances`, as ``simulate
  --decisions`` writes them);
* ``[small]``: the sizes ``--small`` uses instead (``games``, ``deals``, ``sampled``).

The games are played on ``workers`` processes; the figures do not depend on how many.
"""

from __future__ import annotations

import os
import statistics
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from ninetynine.analysis import simulate
from ninetynine.analysis.card_value import controlled_values
from ninetynine.analysis.chances import estimator
from ninetynine.analysis.excitement import Excitement
from ninetynine.analysis.groups import CellKey
from ninetynine.analysis.intervals import MIN_BLOCKS
from ninetynine.analysis.rows import GameRow
from ninetynine.analysis.summary import CellSummary, summarize
from ninetynine.analysis.tables import (
    Table,
    card_value_table,
    cells_table,
    excitement_table,
    fairness_table,
    ladder_table,
    losses_table,
    luck_table,
)
from ninetynine.errors import NinetyNineError
from ninetynine.rules.cards import parse_rank
from ninetynine.rules.presets import open_rules, presets
from ninetynine.rules.settings import Rules

T = TypeVar("T")


class StudyError(NinetyNineError):
    """A configuration the study cannot run: its message is the whole line."""


@dataclass(frozen=True)
class Part:
    """One part of the study: rule sets, player counts, bots and a size (games, or deals
    for the card value)."""

    rules: list[str]
    players: list[int]
    bots: list[str]
    games: int


@dataclass(frozen=True)
class Config:
    """The study's configuration (:func:`read_config`): its file, seed and title, its
    parts, and the ranks whose controlled value it measures."""

    path: Path
    seed: int
    title: str
    rule_sets: Part
    cardstock: Part
    ladder: Part
    card_value: Part
    ranks: list[int]
    excitement: Part


class _Reader:
    """Reads one section of the file, each key checked, with one line for a wrong one."""

    def __init__(self, path: Path, data: dict[str, Any], section: str) -> None:
        self.path, self.section = path, section
        table = data.get(section)
        if not isinstance(table, dict):
            raise StudyError(f"{path}: [{section}] is missing: expected a table")
        self.table = table

    def get(self, key: str, check: Callable[[Any], bool], accepted: str) -> Any:
        value = self.table.get(key)
        if value is None or not check(value):
            raise StudyError(
                f"{self.path}: [{self.section}] {key} = {value!r}: expected {accepted}"
            )
        return value

    def whole(self, key: str) -> int:
        value: int = self.get(
            key, lambda v: isinstance(v, int) and v >= 1, "a whole number above 0"
        )
        return value

    def texts(self, key: str) -> list[str]:
        value: list[str] = self.get(
            key,
            lambda v: isinstance(v, list) and bool(v) and all(isinstance(x, str) for x in v),
            "a list of names",
        )
        return value

    def counts(self, key: str) -> list[int]:
        value: list[int] = self.get(
            key,
            lambda v: (
                isinstance(v, list) and bool(v) and all(isinstance(x, int) and x >= 2 for x in v)
            ),
            "a list of player counts, 2 or more",
        )
        return value


def _rule_ids(r: _Reader) -> list[str]:
    value = r.table.get("rules")
    if value == "all":
        return sorted(presets())
    ids = r.texts("rules")
    for name in ids:
        try:
            open_rules(name)
        except NinetyNineError as e:
            raise StudyError(f"{r.path}: [{r.section}] rules: {e}") from None
    return ids


def _part(path: Path, data: dict[str, Any], section: str, size: str = "games") -> Part:
    r = _Reader(path, data, section)
    return Part(_rule_ids(r), r.counts("players"), r.texts("bots"), r.whole(size))


def read_config(path: Path, small: bool = False) -> Config:
    """The study's configuration; with ``small``, the sizes of its ``[small]`` section."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise StudyError(f"{path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{path}: not TOML: {e}") from None
    study = _Reader(path, data, "study")
    value = _Reader(path, data, "card_value")
    ranks = []
    for text in value.texts("ranks"):
        try:
            ranks.append(parse_rank(text))
        except NinetyNineError:
            raise StudyError(
                f"{path}: [card_value] ranks: {text!r}: expected A, 2-10, J, Q or K"
            ) from None
    config = Config(
        path,
        study.get("seed", lambda v: isinstance(v, int), "a whole number"),
        study.get("title", lambda v: isinstance(v, str), "a text"),
        _part(path, data, "rule_sets"),
        _part(path, data, "cardstock"),
        _part(path, data, "ladder"),
        _part(path, data, "card_value", "deals"),
        ranks,
        _part(path, data, "excitement"),
    )
    if not small:
        return config
    sizes = _Reader(path, data, "small")
    games, deals, sampled = sizes.whole("games"), sizes.whole("deals"), sizes.whole("sampled")
    return replace(
        config,
        rule_sets=replace(config.rule_sets, games=games),
        cardstock=replace(config.cardstock, games=games),
        ladder=replace(config.ladder, games=games),
        card_value=replace(config.card_value, games=deals),
        excitement=replace(config.excitement, games=sampled),
    )


def usual_counts(rules: Rules, wanted: Sequence[int]) -> list[int]:
    """The wanted player counts a rule set allows, each else moved to its nearest bound."""
    return sorted({min(rules.players_max, max(rules.players_min, n)) for n in wanted})


@dataclass
class Study:
    """What the study measured, and how long each part took."""

    config: Config
    summaries: list[CellSummary]  # the [rule_sets] part; its card value cell has ``controlled``
    cardstock: list[CellSummary]
    ladder: list[CellSummary]
    excitement: list[tuple[CellKey, Excitement]]
    seconds: dict[str, float]
    workers: int


def _timed(seconds: dict[str, float], name: str, work: Callable[[], T]) -> T:
    start = time.perf_counter()
    out = work()
    seconds[name] = time.perf_counter() - start
    return out


STUDY_CHUNK = 50  # games a chunk: small enough to keep two processes busy to the end


def _play(
    part: Part,
    seed: int,
    workers: int,
    lineups: Sequence[str] | None = None,
    decisions: bool = False,
) -> list[CellSummary]:
    """Every cell of a part (with its one-bot line-up, or ``lineups``), one simulation
    per player count; with ``decisions``, every game's decisions with win chances."""
    counts: dict[int, list[Rules]] = {}
    for rules_id in part.rules:
        rules = open_rules(rules_id)
        for n in usual_counts(rules, part.players):
            counts.setdefault(n, []).append(rules)
    rows: list[GameRow] = []
    hands = []
    chosen = []
    for n, rule_sets in sorted(counts.items()):
        cells = lineups or [",".join([part.bots[0]] * n)]
        results = simulate(
            rule_sets,
            n,
            list(cells),
            part.games,
            seed=seed,
            workers=workers,
            chunk=STUDY_CHUNK,
            decisions=decisions,
            chance_games=part.games,
        )
        rows += results.game_rows()
        hands += results.hand_rows()
        chosen += results.decision_rows()
    return summarize(rows, hands, chosen)


def run_study(config: Config, workers: int = 0) -> Study:
    """Play every part of the study on ``workers`` processes (0: one per core)."""
    workers = workers or os.cpu_count() or 1
    seconds: dict[str, float] = {}
    seed = config.seed
    summaries = _timed(seconds, "rule sets", lambda: _play(config.rule_sets, seed, workers))
    cardstock = _timed(seconds, "CardStock", lambda: _play(config.cardstock, seed, workers))
    steps = config.ladder.bots
    pairs = [f"{a},{b}" for a, b in zip(steps[1:], steps, strict=False)]
    ladder = _timed(seconds, "ladder", lambda: _play(config.ladder, seed, workers, pairs))

    value = config.card_value
    rules = open_rules(value.rules[0])
    n = value.players[0]
    bots = [value.bots[0]] * n
    target = CellKey(value.rules[0], n, ",".join(bots))
    found = _timed(
        seconds,
        "card value",
        lambda: controlled_values(rules, n, bots, config.ranks, value.games, seed, workers),
    )
    summaries = [replace(s, controlled=found) if s.cell == target else s for s in summaries]
    sampled = _timed(
        seconds, "excitement", lambda: _play(config.excitement, seed, workers, decisions=True)
    )
    excited = [(x.cell, x.excitement) for x in sampled if x.excitement is not None]
    return Study(config, summaries, cardstock, ladder, excited, seconds, workers)


# The page ---------------------------------------------------------------------------------

CARDSTOCK = (
    "CardStock (M. Goadrich, *The Shape of Card Games*, 2019-02-05 and -06) played 100 games "
    "of each table size with random players and found a game of Ninety-Eight lasts "
    '"between 10 and 14 turns on average ... pretty consistent no matter how many players"; '
    'with the King worth 0 (four players) games were "about three to four times as long" '
    "(about 36 turns in its bar chart). A turn there is a player's call to a `choice` block, "
    "one card played: our `turns`. Presets `98-CS` and `98-CS-K0` are CardStock's RECYCLE "
    "code (any card may be played, the stock is not rebuilt, the total may go below 0)."
)


def _image(folder: Path, name: str, alt: str, svg: str) -> str:
    """Write ``folder/name.svg``; the Markdown that shows it from the page beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.svg").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n' + svg, encoding="utf-8"
    )
    return f"![{alt}]({folder.name}/{name}.svg)"


def _cardstock_table(summaries: Sequence[CellSummary]) -> Table:
    return Table(
        "CardStock's Ninety-Eight, random players: turns per game",
        ["cell", "games", "mean turns [95%]", "median", "CardStock"],
        [
            [
                s.cell.label,
                str(s.games),
                s.length.turns.mean.plain(1),
                f"{s.length.turns.median:g}",
                "about 36 (4 players)" if s.cell.rules.endswith("K0") else "10 to 14",
            ]
            for s in summaries
        ],
        "Student t intervals",
    )


def _shown(path: Path) -> str:
    """``path`` as the page names it: from the working folder where it lies below it."""
    try:
        return path.resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def _cardstock_verdict(summaries: Sequence[CellSummary]) -> str:
    """Whether our figures fall where CardStock's do, in one sentence from the numbers."""
    plain = [x.length.turns.mean.value for x in summaries if x.cell.rules == "98-CS"]
    no_king = [x.length.turns.mean.value for x in summaries if x.cell.rules == "98-CS-K0"]
    if not plain or not no_king:
        return ""
    inside = all(10 <= m <= 14 for m in plain)
    return (
        f"Mean game length with the King at 98: {min(plain):.1f} to {max(plain):.1f} turns "
        f"({'inside' if inside else 'outside'} CardStock's 10 to 14); with the King worth 0: "
        f"{min(no_king):.1f} to {max(no_king):.1f} turns, "
        f"{statistics.fmean(no_king) / statistics.fmean(plain):.1f} times as long "
        "(CardStock: about 36, three to four times as long)."
    )


def _excitement_note(study: Study) -> str:
    """What the excitement figures are made of, said from the configuration."""
    played = {x.cell for x in study.summaries}
    same = all(cell in played for cell, _ in study.excitement)
    return (
        f"The first {_count(study.config.excitement.games, 'game')} of each cell"
        + (" (the same games as above)" if same else "")
        + ", with every seat's chance of winning at each decision as the decision rows of "
        f"`ninetynine simulate --decisions` carry it: {estimator()}. From these lead "
        "histories: CardStock's Drama (how far below an even chance the eventual winner "
        "fell, on the moves it was below) and Security (the share of the game it was above), "
        "and Ludii's lead changes, Decisiveness and Stability."
    )


SHOWN = 12  # the seats named in the page's sentence on fairness, at most


def _seat_verdict(summaries: Sequence[CellSummary]) -> str:
    """How many seats' win rates differ from the fair share, in one paragraph from the
    numbers (with the count that chance alone would give)."""
    tests = [
        (x, seat, p, x.fairness.from_opener[seat])
        for x in summaries
        for seat, p in enumerate(x.fairness.opener_p)
    ]
    if not tests:
        return ""
    off = [t for t in tests if t[2] < 0.05]
    clear = sorted((t for t in tests if t[2] < 0.001), key=lambda t: t[2])
    named = "; ".join(
        f"{x.cell.label}, seat {seat + 1}: {rate.percent()} (fair {x.fairness.fair_share:.1%})"
        for x, seat, _p, rate in clear[:SHOWN]
    )
    more = f"; and {len(clear) - SHOWN} more" if len(clear) > SHOWN else ""
    return (
        f"Of the {len(tests)} seats' win rates above, {len(off)} differ from the fair share "
        f"at p < 0.05 (score test; chance alone would give about {0.05 * len(tests):.0f}), "
        f"and {len(clear)} at p < 0.001"
        + (f", the clearest first: {named}{more}." if clear else ".")
    )


def _count(n: int, one: str, many: str = "") -> str:
    """``1 deal``, ``2 deals``."""
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


def write_page(study: Study, page: Path, command: str) -> None:
    """``page`` (Markdown) and its plots, in a folder named after it beside it."""
    from ninetynine.analysis import plots  # matplotlib: the analysis extra

    folder = page.parent / page.stem
    c, s = study.config, study.summaries
    total = sum(study.seconds.values())
    games = sum(x.games for x in [*s, *study.cardstock, *study.ladder])
    timing = ", ".join(f"{k} {v:.0f} s" for k, v in study.seconds.items())
    out = [
        f"# {c.title}",
        "",
        f"Generated by `{command}` from `{_shown(c.path)}` (seed {c.seed}) on "
        f"{_count(study.workers, 'process', 'processes')}: {games} simulated games, "
        f"{_count(c.card_value.games, 'deal')} per controlled card value and "
        f"{_count(c.excitement.games, 'sampled game')} per excitement figure, in "
        f"{total:.0f} s ({timing}). Every figure has a 95% interval and names its "
        "method. With one bot in every seat each game has a deal of its own (rotating "
        "identical bots round a deal would replay one game with its seats relabelled), and "
        "a proportion's interval is Wilson's over the games. Where two bots share a table "
        "(the skill ladder) the seats rotate over each deal, the games of a deal block share "
        "their cards, and proportions count each block once: Student t over the blocks from "
        f"{MIN_BLOCKS} of them, Wilson's over the blocks below.",
        "",
        "## CardStock's Ninety-Eight",
        "",
        CARDSTOCK,
        "",
        _cardstock_table(study.cardstock).markdown(),
        "",
        _cardstock_verdict(study.cardstock),
        "",
        _image(
            folder,
            "cardstock-turns",
            "turns per game, CardStock's rules",
            plots.means(study.cardstock),
        ),
        "",
        "## Does the seat matter?",
        "",
        f"Every rule set at its usual table sizes ({', '.join(map(str, c.rule_sets.players))} "
        f"players where it allows them), {c.rule_sets.bots[0]} bots in every seat, "
        f"{c.rule_sets.games} games a cell, each its own deal. The fair share is 1/n where "
        "one seat wins (the "
        "mean number of winners over n where several do); CardStock's Fairness is 1 for a "
        "fair first seat, Ludii's Balance 1 where every seat wins alike.",
        "",
        fairness_table(s).markdown(),
        "",
        _seat_verdict(s),
    ]
    for x in s:
        if x.cell.rules == c.card_value.rules[0]:
            name = f"seats-{x.cell.rules}-{x.cell.players}"
            out += [
                "",
                _image(folder, name, f"win rate by seat, {x.cell.label}", plots.seat_rates(x)),
            ]
    out += [
        "",
        "## How long is a game?",
        "",
        cells_table(s).markdown(),
        "",
        _image(folder, "turns", "mean turns per game", plots.means(s)),
        "",
        "## Why are lives lost?",
        "",
        losses_table(s).markdown(),
        "",
        _image(folder, "causes", "lives lost by cause", plots.causes(s)),
        "",
        "## What is a card worth?",
        "",
        "Observed: a seat's chance of keeping a hand (neither losing it nor paying anything "
        "in it) with the rank in its opening cards minus without, over every seat-hand. "
        "Controlled: the same deal with the rank swapped into or out of one seat's hand, "
        f"both played by the same bots and seeds ({c.card_value.games} deals a rank).",
    ]
    for x in s:
        if x.controlled:
            out += [
                "",
                card_value_table(x).markdown(),
                "",
                _image(folder, "card-value", "card values", plots.card_values(x, x.controlled)),
            ]
    measured = [(x.cell.label, p) for x in study.ladder for p in x.pairs]
    out += [
        "",
        "## Skill or luck?",
        "",
        f"Each step of the ladder {' < '.join(c.ladder.bots)} against the next, "
        f"{c.ladder.games} games a pair, seats rotated.",
        "",
        ladder_table(study.ladder).markdown(),
    ]
    if measured:
        out += ["", _image(folder, "ladder", "the skill ladder", plots.ladder(measured))]
    out += [
        "",
        "How much of a result is the deal's? On the ladder's line-ups (two different bots, "
        "so a deal's replays differ in who sits where), the share of the variance of a "
        "chair's result that the deal in it explains, that the chair explains, and the rest:",
        "",
        luck_table(study.ladder).markdown(),
        "",
        "## Is it exciting?",
        "",
        _excitement_note(study),
        "",
    ]
    out += [excitement_table(study.excitement).markdown()]
    for cell, figures in study.excitement:
        if figures.trend:
            name = f"trend-{cell.rules}-{cell.players}"
            out += [
                "",
                _image(folder, name, f"average trend, {cell.label}", plots.trend(cell, figures)),
            ]
    page.write_text("\n".join(out) + "\n", encoding="utf-8")
