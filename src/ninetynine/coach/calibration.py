"""The coach's figures calibrated on self-play outcomes: a monotone map per rule-set family.

Measured from outside, the search's chances looked honest on average but not band by band;
on held-out self-play with the players it models they were already true (version 1 is the
identity: docs/coach.md), and it is players it does not model (beginners) who move them.
:func:`fit_curve` fits, by isotonic regression
(pool adjacent violators), a non-decreasing piecewise-linear map from the search's figure
to the frequency with which the forecast came true in self-play; the maps of each family
(the base game a rule set belongs to: ``Preset.family``), one for the chance of losing the
hand and one for the game, are stored with a version and what they were fitted on in
``ninetynine/data/coach_calibration.json`` (written by ``benchmarks/coach_calibration.py
--fit``). A family with no map stays uncalibrated.

A map takes the raw figures only (a chance from 0 to 1), never the state or the view, so
it sees nothing the seat cannot. The search's certainties stay certainties: a move that
lost in every playout (1) or in none (0) keeps its figure; the maps are fitted on, and
applied to, the figures in between.

>>> curve = fit_curve([(0.2, 0.0), (0.4, 1.0), (0.6, 0.0), (0.8, 1.0)])
>>> curve.xs, curve.ys
((0.2, 0.5, 0.8), (0.0, 0.5, 1.0))
>>> round(curve(0.35), 4)
0.25
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ninetynine.errors import NinetyNineError, RulesError
from ninetynine.rules.presets import find_preset
from ninetynine.rules.settings import Rules

FILE = "coach_calibration.json"  # in ninetynine/data/


def pav(
    ys: Sequence[float], weights: Sequence[float] | None = None
) -> list[tuple[int, int, float, float]]:
    """Pool adjacent violators: the blocks ``(start, end, mean, weight)`` (``end``
    exclusive) of the non-decreasing sequence closest to ``ys`` in weighted squared error;
    every value of a block is its weighted mean (neighbours of one mean are one block, so
    the means increase strictly)."""
    w = [1.0] * len(ys) if weights is None else [float(x) for x in weights]
    if len(w) != len(ys):
        raise ValueError(f"{len(ys)} values but {len(w)} weights: expected one weight a value")
    blocks: list[list[float]] = []  # [start, end, mean, weight]
    for i, (y, wi) in enumerate(zip(ys, w, strict=True)):
        blocks.append([float(i), float(i + 1), float(y), wi])
        while len(blocks) > 1 and blocks[-2][2] >= blocks[-1][2]:  # a violator (or equal): pool
            b = blocks.pop()
            a = blocks[-1]
            total = a[3] + b[3]
            a[2] = (a[2] * a[3] + b[2] * b[3]) / total if total > 0 else (a[2] + b[2]) / 2
            a[1], a[3] = b[1], total
    return [(int(s), int(e), m, wt) for s, e, m, wt in blocks]


@dataclass(frozen=True)
class Curve:
    """A non-decreasing piecewise-linear map on [0, 1]: through the knots ``(xs[i],
    ys[i])``, flat beyond the first and last; 0 and 1 map to themselves (certainties)."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def __post_init__(self) -> None:
        if not self.xs or len(self.xs) != len(self.ys):
            raise NinetyNineError("a calibration curve needs as many knots' ys as xs, at least one")
        pairs = list(zip(self.xs, self.ys, strict=True))
        if any(b[0] < a[0] or b[1] < a[1] for a, b in zip(pairs, pairs[1:], strict=False)):
            raise NinetyNineError("a calibration curve must not decrease: its knots go down")

    def __call__(self, x: float) -> float:
        """The calibrated chance for the raw chance ``x``."""
        if x <= 0.0 or x >= 1.0:
            return x
        xs, ys = self.xs, self.ys
        i = bisect.bisect_right(xs, x)
        if i == 0:
            return ys[0]
        if i == len(xs):
            return ys[-1]
        x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
        return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)

    def to_json(self) -> dict[str, list[float]]:
        """The knots, rounded to 4 places."""
        return {"xs": [round(x, 4) for x in self.xs], "ys": [round(y, 4) for y in self.ys]}


def fit_curve(
    pairs: Sequence[tuple[float, float]],
    weights: Sequence[float] | None = None,
    prior: float = 0.0,
) -> Curve:
    """The isotonic map of ``pairs`` (raw forecast, outcome 0 or 1): PAV on the outcomes in
    the order of the forecasts, a knot at each block's weighted mean forecast. Pairs whose
    forecast is a certainty (0 or 1) are left out: they are not mapped.

    ``prior``: decisions' worth of belief in the raw figure. Each block's frequency is
    drawn toward its mean forecast as if ``prior`` more decisions had come true at that
    rate (then pooled again where that made the knots go down): a block of few decisions,
    whose frequency is mostly noise, moves little from the raw figure; a big one keeps its
    own frequency."""
    w = [1.0] * len(pairs) if weights is None else list(weights)
    kept = sorted(
        (x, y, wi) for (x, y), wi in zip(pairs, w, strict=True) if 0.0 < x < 1.0 and wi > 0
    )
    if not kept:
        raise NinetyNineError("no forecast strictly between 0 and 1 to fit a calibration on")
    # forecasts that are equal pool first, so that one x has one knot
    xs_u: list[float] = []
    ys_u: list[float] = []
    ws_u: list[float] = []
    for x, y, wi in kept:
        if xs_u and xs_u[-1] == x:
            ys_u[-1] = (ys_u[-1] * ws_u[-1] + y * wi) / (ws_u[-1] + wi)
            ws_u[-1] += wi
        else:
            xs_u.append(x)
            ys_u.append(float(y))
            ws_u.append(wi)
    knots_x, knots_y, knots_w = [], [], []
    for start, end, mean, weight in pav(ys_u, ws_u):
        x = sum(xs_u[i] * ws_u[i] for i in range(start, end)) / weight
        knots_x.append(x)
        knots_y.append((mean * weight + x * prior) / (weight + prior))
        knots_w.append(weight + prior)
    if prior > 0:  # pool again where the shrinking made the knots go down
        xs, ys = [], []
        for start, end, mean, weight in pav(knots_y, knots_w):
            xs.append(sum(knots_x[i] * knots_w[i] for i in range(start, end)) / weight)
            ys.append(mean)
        knots_x, knots_y = xs, ys
    return Curve(tuple(knots_x), tuple(knots_y))


@dataclass(frozen=True)
class FamilyMaps:
    """A family's maps: the chance of losing the hand, and the game (None where the
    family's rule sets have no such figure or none was fitted)."""

    lose_hand: Curve
    lose_game: Curve | None


@dataclass(frozen=True)
class Calibration:
    """The maps by family, their version and what they were fitted on."""

    version: int
    fitted_on: Mapping[str, Any]
    families: Mapping[str, FamilyMaps]

    def maps(self, rules: Rules) -> FamilyMaps | None:
        """The maps of the family ``rules`` belong to, or None where none was fitted."""
        family = family_of(rules)
        return None if family is None else self.families.get(family)

    def to_json(self) -> dict[str, Any]:
        """The calibration as stored in the package data."""
        return {
            "version": self.version,
            "fitted_on": dict(self.fitted_on),
            "families": {
                name: {
                    "lose_hand": m.lose_hand.to_json(),
                    "lose_game": None if m.lose_game is None else m.lose_game.to_json(),
                }
                for name, m in self.families.items()
            },
        }


def family_of(rules: Rules) -> str | None:
    """The family of the preset ``rules`` are built on (by their id: ``"K+house"`` is K's),
    or None for rules that name no preset."""
    try:
        return find_preset(rules.id.split("+")[0]).family
    except RulesError:
        return None


def parse_calibration(data: Mapping[str, Any]) -> Calibration:
    """A calibration from its JSON form (:meth:`Calibration.to_json`)."""
    try:
        version = int(data["version"])
        families = {}
        for name, maps in data["families"].items():
            game = maps.get("lose_game")
            families[str(name)] = FamilyMaps(
                _curve(maps["lose_hand"]), None if game is None else _curve(game)
            )
        return Calibration(version, dict(data.get("fitted_on", {})), families)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise NinetyNineError(
            f"the coach's calibration is malformed ({e!r}): expected version, fitted_on and "
            "families of {lose_hand: {xs, ys}, lose_game: {xs, ys} or null}"
        ) from None


def _curve(data: Mapping[str, Any]) -> Curve:
    return Curve(tuple(float(x) for x in data["xs"]), tuple(float(y) for y in data["ys"]))


@cache
def shipped() -> Calibration:
    """The calibration shipped in the package data."""
    text = resources.files("ninetynine").joinpath("data", FILE).read_text(encoding="utf-8")
    return parse_calibration(json.loads(text))
