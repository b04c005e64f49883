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
* ``[excitement]``: ``rules`` (a list), ``players``, ``bots``, ``games``, ``samples``;
* ``[small]``: the sizes ``--small`` uses instead (``games``, ``deals``, ``sampled``).
"""

from __future__ import annotations

import statistics
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from ninetynine.analysis import simulate
from ninetynine.analysis.card_value import controlled
from ninetynine.analysis.chances import estimator, sample_histories
from ninetynine.analysis.excitement import Excitement, excitement
from ninetynine.analysis.groups import CellKey
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
    """One part of the study: rule sets, player counts, a line-up, and a size."""

    rules: list[str]
    players: list[int]
    bots: list[str]
    games: int


@dataclass(frozen=True)
class Config:
    path: Path
    seed: int
    title: str
    rule_sets: Part
    cardstock: Part
    ladder: Part
    card_value: Part
    ranks: list[int]
    excitement: Part
    samples: int


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
        _Reader(path, data, "excitement").whole("samples"),
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
    summaries: list[CellSummary]  # the rule sets with heuristic bots
    cardstock: list[CellSummary]
    ladder: list[CellSummary]
    excitement: list[tuple[CellKey, Excitement]]
    seconds: dict[str, float]


def _timed(seconds: dict[str, float], name: str, work: Callable[[], T]) -> T:
    start = time.perf_counter()
    out = work()
    seconds[name] = time.perf_counter() - start
    return out


def _play(part: Part, seed: int, lineups: Sequence[str] | None = None) -> list[CellSummary]:
    rows: list[GameRow] = []
    hands = []
    for rules_id in part.rules:
        rules = open_rules(rules_id)
        for n in usual_counts(rules, part.players):
            cells = lineups or [",".join([part.bots[0]] * n)]
            results = simulate(rules_id, n, list(cells), part.games, seed=seed, workers=1)
            rows += results.game_rows()
            hands += results.hand_rows()
    return summarize(rows, hands)


def run_study(config: Config) -> Study:
    """Play every part of the study (on one core: ``workers=1``)."""
    seconds: dict[str, float] = {}
    seed = config.seed
    summaries = _timed(seconds, "rule sets", lambda: _play(config.rule_sets, seed))
    cardstock = _timed(seconds, "CardStock", lambda: _play(config.cardstock, seed))
    steps = config.ladder.bots
    pairs = [f"{a},{b}" for a, b in zip(steps[1:], steps, strict=False)]
    ladder = _timed(seconds, "ladder", lambda: _play(config.ladder, seed, pairs))

    value = config.card_value
    rules = open_rules(value.rules[0])
    n = value.players[0]
    bots = [value.bots[0]] * n
    target = CellKey(value.rules[0], n, ",".join(bots))
    found = _timed(
        seconds,
        "card value",
        lambda: [controlled(rules, n, bots, r, value.games, seed) for r in config.ranks],
    )
    summaries = [replace(s, controlled=found) if s.cell == target else s for s in summaries]

    ex = config.excitement

    def sampled() -> list[tuple[CellKey, Excitement]]:
        out = []
        for rules_id in ex.rules:
            m = usual_counts(open_rules(rules_id), ex.players)[0]
            line = [ex.bots[0]] * m
            lead = sample_histories(open_rules(rules_id), m, line, ex.games, seed, config.samples)
            out.append(
                (CellKey(rules_id, m, ",".join(line)), excitement(lead, estimator(config.samples)))
            )
        return out

    excited = _timed(seconds, "excitement", sampled)
    return Study(config, summaries, cardstock, ladder, excited, seconds)


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
        f"Generated by `{command}` from `{_shown(c.path)}` (seed {c.seed}) on one core: "
        f"{games} simulated games, {c.card_value.games} deals per controlled card value and "
        f"{c.excitement.games} sampled games per excitement figure, in {total:.0f} s ({timing}). "
        "Every figure has a 95% interval and names its method; where the games of a deal "
        "block share their cards (with one bot in every seat they are replays of one game), "
        "proportions count each block once: Student t over the blocks from 10 of them, "
        "Wilson's over the blocks below. Small samples: read the intervals.",
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
        f"{c.rule_sets.games} games a cell. The fair share is 1/n where one seat wins (the "
        "mean number of winners over n where several do); CardStock's Fairness is 1 for a "
        "fair first seat, Ludii's Balance 1 where every seat wins alike.",
        "",
        fairness_table(s).markdown(),
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
        "Observed: a seat's chance of not losing the hand with the rank in its opening cards "
        "minus without, over every seat-hand. Controlled: the same deal with the rank swapped "
        f"into or out of one seat's hand, both played by the same bots and seeds "
        f"({c.card_value.games} deals a rank).",
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
