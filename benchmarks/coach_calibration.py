"""How true the coach's chances come out: reliability tables, Brier scores, and the fit.

Self-play games with the ``heuristic`` bot (heuristic-v1, the yardstick) in every seat:
the coach's playouts model the other players by the same heuristic's rollout policy, so
these are the games its figures are about (``--seats`` seats another bot: a coach facing
other players is measured, or fitted, on their games). Decisions with a real choice (more
than one move, suits that do not matter counted once) are sampled, each with chance
``1/--every`` (seeded), until ``--decisions`` a rule set; the coach is asked, from the
seat's view only, at ``--playouts`` playouts, for the raw figures (no calibration) of the
move the seat's bot played. The real outcome is read from the game as it goes on: whether
the seat lost a life or points by the coach's horizon (the end of the hand, or the next
life lost where play goes on after a bust; the whole hand where busters sit out), and
whether it lost the game. The seats' bots are the game's only players: the coach's advice
is never played.

Printed per rule set, for the chance of losing the hand and of losing the game, raw and
calibrated: the reliability table in bands of 10 points (decisions, mean forecast,
observed frequency, within 5 points?), the Brier score, the Brier score of the constant
forecast (the observed frequency itself) and the skill (1 - Brier / constant's).

``--fit`` plays ``--fit-decisions`` more decisions a rule set on other games (other seeds)
first, fits the maps of each rule set's family on them (:func:`choose`: an isotonic fit
only where it beats the raw figures in cross-validation) and writes them with a
version and what they were fitted on to ``--out`` (by default the package's
``data/coach_calibration.json``); the tables are then of the held-out games, the new maps
applied. Without ``--fit``, the shipped maps are applied. ``--samples FILE`` keeps the
sampled decisions (raw figures and outcomes) as JSON: a later run with the same file reads
them instead of playing.

Run: python benchmarks/coach_calibration.py [--presets P,K,G,J] [--players 4]
     [--decisions 500] [--playouts 400] [--seed 1] [--every 6]
     [--seats heuristic] [--fit [--fit-decisions 500] [--out FILE]] [--samples FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from ninetynine import load_rules, new_game
from ninetynine.bots import make_bot
from ninetynine.bots.ismcts import _in_play, move_key
from ninetynine.coach import advise
from ninetynine.coach.calibration import (
    FILE,
    Calibration,
    Curve,
    FamilyMaps,
    family_of,
    fit_curve,
    shipped,
)
from ninetynine.engine.state import State
from ninetynine.engine.view import observe
from ninetynine.errors import NinetyNineError
from ninetynine.records.match import standing
from ninetynine.rules.settings import Rules

SEATS = "heuristic"  # every seat of the self-play games, unless --seats says otherwise
BAND_MIN = 100  # decisions a band needs for the target (within 5 points)


@dataclass
class Sample:
    """One sampled decision: the coach's raw figures for the move played, and what came."""

    preset: str
    game: int
    hand: float
    game_chance: float | None
    lost_hand: int = -1  # -1 until the horizon is reached
    lost_game: int = -1  # -1 until the game ends


def play(
    rules: Rules,
    preset: str,
    players: int,
    wanted: int,
    every: int,
    playouts: int,
    seed: str,
    seats: str = SEATS,
) -> list[Sample]:
    """``wanted`` sampled decisions of games seeded by ``seed``, bot ``seats`` in every
    seat."""
    bot, rng = make_bot(seats), random.Random(seed)
    done: list[Sample] = []
    game = 0
    while len(done) < wanted:
        state, history = new_game(rules, players), []
        pending: list[tuple[Sample, int, Callable[[State], bool], float]] = []
        mine: list[tuple[Sample, int]] = []
        while not state.is_over:
            if state.is_chance:
                history += state.apply(state.sample_chance(rng))
            else:
                seat = state.current_seat
                assert seat is not None
                view = observe(state, seat, tuple(history))
                move = bot.choose(view, random.Random(rng.random()))
                same = state.c.same
                choice = len({move_key(state.code_of(a), same) for a in view.legal}) > 1
                if choice and len(done) + len(mine) < wanted and rng.randrange(every) == 0:
                    advice = advise(
                        view, playouts=playouts, seed=rng.randrange(2**31), calibration=False
                    )
                    f = advice.figures(move)
                    sample = Sample(preset, game, f.lose_hand, f.lose_game)
                    pending.append((sample, seat, _in_play(state), standing(state)[seat]))
                    mine.append((sample, seat))
                history += state.apply(move, seat)
            for item in [p for p in pending if not p[2](state)]:
                item[0].lost_hand = int(standing(state)[item[1]] < item[3])
                pending.remove(item)
        assert state.outcome is not None
        for sample, seat in mine:
            sample.lost_game = int(seat not in state.outcome.winners)
            done.append(sample)
        game += 1
    return done[:wanted]


def bands(pairs: Sequence[tuple[float, int]]) -> list[str]:
    """The reliability table and Brier scores of ``pairs`` (forecast, outcome), as lines."""
    lines = [f"  {'band':>9} {'decisions':>9} {'forecast':>8} {'observed':>8} {'within 5':>8}"]
    good = counted = 0
    for b in range(10):
        inside = [(f, o) for f, o in pairs if min(int(f * 10), 9) == b]
        if not inside:
            continue
        mean_f = sum(f for f, _ in inside) / len(inside)
        seen = sum(o for _, o in inside) / len(inside)
        near = abs(mean_f - seen) <= 0.05
        mark = ("yes" if near else "no") + ("" if len(inside) >= BAND_MIN else " (few)")
        if len(inside) >= BAND_MIN:
            counted += 1
            good += near
        lines.append(
            f"  {b * 10:3}-{b * 10 + 10:3}% {len(inside):9} {mean_f:8.3f} {seen:8.3f} {mark:>8}"
        )
    n = len(pairs)
    base = sum(o for _, o in pairs) / n
    brier = sum((f - o) ** 2 for f, o in pairs) / n
    ref = base * (1 - base)
    skill = 1 - brier / ref if ref > 0 else 0.0
    lines.append(
        f"  Brier {brier:.4f}, constant forecast {ref:.4f} (frequency {base:.3f}), "
        f"skill {skill:+.3f}; bands of {BAND_MIN}+ within 5 points: {good} of {counted}"
    )
    return lines


PRIORS = (0.0, 50.0, 200.0)  # the isotonic fits tried, in decisions of belief in the raw figure
GAIN = 0.001  # the Brier score a fit must gain in cross-validation over the raw figures


def identity() -> Curve:
    """The map that keeps every figure."""
    return Curve((0.0, 1.0), (0.0, 1.0))


def choose(pairs: Sequence[tuple[float, int, int]]) -> tuple[Curve, str]:
    """The map for ``pairs`` (forecast, outcome, game) and how it was chosen: the isotonic
    fit of the prior (:data:`PRIORS`) with the best Brier score in 2-fold cross-validation
    (games split by parity), where it beats the raw figures by :data:`GAIN`; else the
    identity."""

    def brier(curve: Callable[[float], float], test: Sequence[tuple[float, int]]) -> float:
        return sum((curve(f) - o) ** 2 for f, o in test) / len(test)

    folds = [
        ([(f, o) for f, o, g in pairs if g % 2 == k], [(f, o) for f, o, g in pairs if g % 2 != k])
        for k in (0, 1)
    ]
    folds = [(train, test) for train, test in folds if train and test]
    if not folds:
        return identity(), "identity (too few games to cross-validate)"
    raw = sum(brier(identity(), test) for _, test in folds) / len(folds)
    scores = []
    for prior in PRIORS:
        try:
            cv = sum(brier(fit_curve(tr, prior=prior), te) for tr, te in folds) / len(folds)
        except NinetyNineError:
            continue
        scores.append((cv, prior))
    if not scores or min(scores)[0] > raw - GAIN:
        best = f"{min(scores)[0]:.4f} (prior {min(scores)[1]:g})" if scores else "none"
        return identity(), f"identity: raw Brier {raw:.4f} in cross-validation, best fit {best}"
    cv, prior = min(scores)
    curve = fit_curve([(f, o) for f, o, _ in pairs], prior=prior)
    return curve, f"isotonic, prior {prior:g}: Brier {cv:.4f} in cross-validation, raw {raw:.4f}"


def fit(
    samples: Iterable[Sample], tables: dict[str, Rules]
) -> tuple[dict[str, FamilyMaps], dict[str, str]]:
    """The maps of each family fitted on ``samples`` (:func:`choose`), and how each was
    chosen."""
    by_family: dict[str, list[Sample]] = {}
    for s in samples:
        family = family_of(tables[s.preset])
        if family is not None:
            by_family.setdefault(family, []).append(s)
    maps, how = {}, {}
    for family, group in by_family.items():
        hand, how[f"{family}: lose_hand"] = choose([(s.hand, s.lost_hand, s.game) for s in group])
        games = [(s.game_chance, s.lost_game, s.game) for s in group if s.game_chance is not None]
        game: Curve | None = None
        if games:
            game, how[f"{family}: lose_game"] = choose(games)
        maps[family] = FamilyMaps(hand, game)
    return maps, how


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="P,K,G,J")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decisions", type=int, default=500, help="held-out decisions a set")
    parser.add_argument("--fit-decisions", type=int, default=500, help="decisions a set to fit")
    parser.add_argument("--playouts", type=int, default=400, help="the coach's budget")
    parser.add_argument("--every", type=int, default=6, help="a decision sampled in EVERY")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", default=SEATS, help="the bot in every seat (a bot spec)")
    parser.add_argument("--fit", action="store_true", help="fit the maps and write them")
    parser.add_argument("--out", type=Path, help="where --fit writes (default: package data)")
    parser.add_argument("--samples", type=Path, help="JSON of the samples: read, else written")
    args = parser.parse_args()
    names = [p.strip() for p in args.presets.split(",") if p.strip()]
    try:
        tables = {p: load_rules(p) for p in names}
    except NinetyNineError as e:
        parser.error(str(e))
    start = time.perf_counter()
    stored = json.loads(args.samples.read_text()) if args.samples and args.samples.exists() else {}
    runs: dict[str, list[Sample]] = {
        k: [Sample(**s) for s in v] for k, v in stored.get("samples", {}).items()
    }
    splits = (("fit", args.fit_decisions),) if args.fit else ()
    for split, wanted in (*splits, ("eval", args.decisions)):
        for p in names:
            key = f"{split}:{p}"
            if key not in runs:
                seed = f"{args.seed}:{split}:{p}"
                runs[key] = play(
                    tables[p], p, args.players, wanted, args.every, args.playouts, seed, args.seats
                )
                print(
                    f"# {key}: {wanted} decisions, {time.perf_counter() - start:.0f} s", flush=True
                )
                if args.samples:  # after each rule set, so that a stopped run keeps them
                    args.samples.write_text(
                        json.dumps(
                            {"samples": {k: [asdict(s) for s in v] for k, v in runs.items()}}
                        )
                    )
    calibration = shipped()
    if args.fit:
        fitting = [s for p in names for s in runs[f"fit:{p}"]]
        fitted, how = fit(fitting, tables)
        calibration = Calibration(
            shipped().version + 1,
            {
                "presets": names,
                "players": args.players,
                "decisions": {p: len(runs[f"fit:{p}"]) for p in names},
                "playouts": args.playouts,
                "seats": args.seats,
                "seed": f"{args.seed}:fit:PRESET",
                "every": args.every,
                "maps": how,
            },
            fitted,
        )
        out = args.out or Path(str(resources.files("ninetynine").joinpath("data", FILE)))
        out.write_text(json.dumps(calibration.to_json(), indent=1) + "\n")
        print(f"# wrote calibration version {calibration.version} to {out}")
        for what, line in how.items():
            print(f"#   {what}: {line}")
    print(
        f"The coach's chances on held-out self-play ({args.seats} in every seat, {args.players} "
        f"players, {args.playouts} playouts a decision, seed {args.seed}); "
        f"calibration version {calibration.version}"
    )
    for p in names:
        samples = runs[f"eval:{p}"]
        maps = calibration.maps(tables[p])
        games = len({s.game for s in samples})
        print(f"\n{p}: {len(samples)} decisions from {games} games")
        figures: list[tuple[str, list[tuple[float, int]], Curve | None]] = [
            (
                "losing the hand",
                [(s.hand, s.lost_hand) for s in samples],
                None if maps is None else maps.lose_hand,
            ),
            (
                "losing the game",
                [(s.game_chance, s.lost_game) for s in samples if s.game_chance is not None],
                None if maps is None else maps.lose_game,
            ),
        ]
        for what, pairs, curve in figures:
            if not pairs:
                continue
            print(f" chance of {what}, raw:")
            print("\n".join(bands(pairs)))
            if curve is not None:
                print(f" chance of {what}, calibrated:")
                print("\n".join(bands([(curve(f), o) for f, o in pairs])))
            else:
                print(f" chance of {what}: no calibration for this family")


if __name__ == "__main__":
    main()
