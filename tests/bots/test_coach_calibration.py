"""The coach's calibration: isotonic maps fitted on self-play, stored, versioned, applied."""

from __future__ import annotations

import inspect
import json
from importlib import resources

import pytest

from ninetynine import load_rules
from ninetynine.coach import advice_json, advise
from ninetynine.coach.calibration import (
    FILE,
    Calibration,
    Curve,
    FamilyMaps,
    family_of,
    fit_curve,
    parse_calibration,
    pav,
    shipped,
)
from ninetynine.engine.view import observe
from ninetynine.errors import NinetyNineError
from ninetynine.records.position import parse_position

# G, total 95: the Queen goes over at once (lost in every playout), the others may not.
POSITION = (
    'rules = "G"\ntotal = 95\nturn = 1\nhands = ["QH 9S 10C 2C", "3D 4D 5D 6D", "7H 8H JH KH"]\n'
)


def test_pav_pools_violators_into_their_mean() -> None:
    assert pav([1.0, 3.0, 2.0, 4.0]) == [(0, 1, 1.0, 1.0), (1, 3, 2.5, 2.0), (3, 4, 4.0, 1.0)]
    assert pav([3.0, 2.0, 1.0]) == [(0, 3, 2.0, 3.0)]  # all decreasing: one block
    assert pav([0.0, 1.0]) == [(0, 1, 0.0, 1.0), (1, 2, 1.0, 1.0)]  # already monotone
    assert pav([1.0, 1.0]) == [(0, 2, 1.0, 2.0)]  # equal neighbours are one block


def test_pav_weighs_its_values() -> None:
    # 3 (weight 1) and 2, 2 (weight 1 and 2) pool: (3 + 2 + 2 * 2) / 4
    assert pav([1.0, 3.0, 2.0, 2.0, 5.0], [1, 1, 1, 2, 1]) == [
        (0, 1, 1.0, 1.0),
        (1, 4, 2.25, 4.0),
        (4, 5, 5.0, 1.0),
    ]
    assert pav([4.0, 0.0], [3, 1]) == [(0, 2, 3.0, 4.0)]
    with pytest.raises(ValueError, match="one weight a value"):
        pav([1.0, 2.0], [1.0])


def test_a_fitted_curve_is_monotone_and_keeps_certainties() -> None:
    pairs = [(0.1, 0), (0.2, 1), (0.3, 0), (0.5, 1), (0.5, 0), (0.9, 1), (1.0, 0), (0.0, 1)]
    curve = fit_curve(pairs)
    # 0.2 and 0.3 pool (y 0.5), the two at 0.5 (y 0.5) join them: knot at x 0.375
    assert curve.xs == pytest.approx((0.1, 0.375, 0.9))
    assert curve.ys == (0.0, 0.5, 1.0)
    values = [curve(x / 100) for x in range(101)]
    assert values == sorted(values)
    assert curve(0.0) == 0.0 and curve(1.0) == 1.0  # certainties are kept, not fitted
    assert curve(0.05) == 0.0 and curve(0.95) == 1.0  # flat beyond the knots
    with pytest.raises(NinetyNineError, match="must not decrease"):
        Curve((0.1, 0.2), (0.5, 0.4))
    with pytest.raises(NinetyNineError, match="strictly between 0 and 1"):
        fit_curve([(0.0, 0), (1.0, 1)])


def test_the_shipped_calibration_loads_is_versioned_and_monotone() -> None:
    text = resources.files("ninetynine").joinpath("data", FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    calibration = shipped()
    assert calibration.version >= 1 and calibration.version == data["version"]
    assert calibration.fitted_on["playouts"] > 0 and calibration.fitted_on["decisions"]
    assert {"Pagat-style", "Kitchen-table house", "Get Out of 99", "Jaques-style"} <= set(
        calibration.families
    )
    for maps in calibration.families.values():
        for curve in (maps.lose_hand, maps.lose_game):
            assert curve is not None
            values = [curve(x / 200) for x in range(201)]
            assert values == sorted(values) and all(0 <= v <= 1 for v in values)
    assert parse_calibration(calibration.to_json()) == calibration
    with pytest.raises(NinetyNineError, match="malformed"):
        parse_calibration({"version": 1})


def test_a_family_is_the_base_game_of_the_rules() -> None:
    assert family_of(load_rules("P-69")) == family_of(load_rules("P")) == "Pagat-style"
    assert family_of(load_rules({"preset": "K", "lives": 5})) == "Kitchen-table house"
    assert family_of(load_rules("P").replace(id="mine")) is None


def _halving(version: int, family: str = "Get Out of 99") -> Calibration:
    """A map that halves every figure strictly between 0 and 1."""
    half = Curve((0.0001, 0.9999), (0.00005, 0.49995))
    return Calibration(version, {"test": True}, {family: FamilyMaps(half, half)})


def test_advise_applies_the_map_to_the_raw_figures_only_and_says_which_version() -> None:
    view = observe(parse_position(POSITION), 0)
    raw = advise(view, playouts=300, seed=3, calibration=False)
    made = advise(view, playouts=300, seed=3, calibration=_halving(7))
    assert raw.calibration is None and made.calibration == 7
    curve = _halving(7).families["Get Out of 99"].lose_hand
    for r, m in zip(raw.moves, made.moves, strict=True):
        assert m.lose_hand == pytest.approx(curve(r.lose_hand))  # a function of the figure
        assert r.lose_game is not None and m.lose_game == pytest.approx(curve(r.lose_game))
    assert any(m.lose_hand != r.lose_hand for r, m in zip(raw.moves, made.moves, strict=True))
    # the star and the ties come from the raw figures and their paired errors
    assert (made.best, made.tied, made._lost) == (raw.best, raw.tied, raw._lost)
    assert advice_json(made)["calibration"] == 7 and advice_json(raw)["calibration"] is None
    # what the map sees: the family and the figures, nothing of the state or the view
    assert list(inspect.signature(Curve.__call__).parameters) == ["self", "x"]
    assert list(inspect.signature(Calibration.maps).parameters) == ["self", "rules"]


def test_the_shipped_calibration_is_applied_by_default() -> None:
    view = observe(parse_position(POSITION), 0)
    advice = advise(view, playouts=100, seed=1)
    assert advice.calibration == shipped().version


def test_a_family_with_no_map_stays_raw_and_says_so() -> None:
    view = observe(parse_position(POSITION), 0)
    raw = advise(view, playouts=100, seed=1, calibration=False)
    other = advise(view, playouts=100, seed=1, calibration=_halving(2, "Jaques-style"))
    assert other.moves == raw.moves and other.calibration is None
    assert advice_json(other)["calibration"] is None  # said by the version, not by a note
    assert other.note == raw.note  # no sentence on the coach's line for it


def test_the_default_applies_whatever_calibration_is_shipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = observe(parse_position(POSITION), 0)
    raw = advise(view, playouts=100, seed=1, calibration=False)
    monkeypatch.setattr("ninetynine.coach.advice.shipped", lambda: _halving(9))
    made = advise(view, playouts=100, seed=1)
    assert made.calibration == 9 and advice_json(made)["calibration"] == 9
    assert [m.lose_hand for m in made.moves] == [
        pytest.approx(r.lose_hand / 2 if 0 < r.lose_hand < 1 else r.lose_hand, abs=1e-4)
        for r in raw.moves
    ]
