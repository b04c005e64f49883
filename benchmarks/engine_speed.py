"""Engine speed, measured so that it cannot flatter: decisions a second of the fast path for
each rule set and of the checked API, beside the ceiling, a minimal hard-coded P-only
engine (``minimal_engine.py``), in one interleaved run; random legal choices.

* **The ceiling in its steady state.** The minimal engine keeps its table of plays per
  total for the life of its process; every measurement first plays untimed matches, so
  that caches (the minimal engine's table, the rules' compiled tables) are built before
  the clock starts.
* **Fresh processes, interleaved.** Each measurement is a process of its own, pinned to one
  CPU; each round measures every contender once, in an order turned by one each round, so
  that neither the machine's drift nor a contender's place in the round favours anyone.
* **Ratios within a round, medians and spreads.** A contender's ratio to the ceiling (and a
  rule set's to P's fast path) is taken between measurements of the same round; each
  figure is the median of the rounds with its spread (min to max), never the best.

Rates are decisions per CPU second of the process (its own time, which other work on a
shared machine disturbs less than the wall clock); the wall-clock rate is printed beside.

Targets (issue 30): the fast path at >= 0.65 of the ceiling in 4-player P, and every rule
set at >= 0.8 of P's rate. Bounds are measured beside: the minimal engine with two decks
(at six players) and minimal IS and QC engines, each against the minimal P engine: what a
second deck, and IS's and QC's games, cost an engine that does nothing else.

Where other work shares the machine, ``--instructions`` counts the instructions a decision
takes instead (valgrind, after the same warm-up; the difference between ``--matches`` and a
fifth as many, so that start-up cancels): not time, but no other work moves it.

``--against DIR`` adds another checkout's fast path for each rule set to the same run (its
one-call playout, or a decision at a time where it has none: a tree from before
``State.play_random``), and prints this tree's rate as a share of it: a before and after
measured in one interleaved run.
Run: python benchmarks/engine_speed.py [--rules P,K,G,J,TW,IS,QC] [--rounds 7]
[--matches 1000] [--instructions] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from valgrind_count import instructions_of

from ninetynine import load_rules, new_game

try:
    from ninetynine.engine.state import CHANCE, OVER
except ModuleNotFoundError:  # a checkout measured --against, from before the engine package
    from ninetynine.state import CHANCE, OVER  # type: ignore[import-not-found,no-redef]

if TYPE_CHECKING:
    from ninetynine.rules.settings import Rules

ROOT = Path(__file__).resolve().parents[1]
CEILING_SHARE = 0.65  # the fast path under P, 4 players, as a share of the ceiling
RULES_SHARE = 0.8  # every rule set's fast path, as a share of P's
CEILING = "minimal P engine (ceiling)"
TWO_DECKS_BOUND = "minimal P engine, 6 players (two decks)"
TWO_DECKS = "fast path, P, 6 players (two decks)"
# what a game's structure costs an engine that does nothing else: IS's, QC's
BOUNDS = {"IS": "minimal IS engine", "QC": "minimal QC engine"}
DEFAULT_RULES = "P,K,G,J,TW,IS,QC"


def fast_matches(rules: Rules, players: int, matches: int, seed: int) -> int:
    """Play whole matches on the fast path, each in one call (``State.play_random``);
    returns the decisions made."""
    rng = random.Random(seed)
    return sum(new_game(rules, players).play_random(rng) for _ in range(matches))


def stepped_matches(rules: Rules, players: int, matches: int, seed: int) -> int:
    """The fast path a decision at a time, as a caller that chooses each move drives it
    (``apply_code(choice(legal_codes()))``): the one-call playout's baseline."""
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    for _ in range(matches):
        state = new_game(rules, players)
        while True:
            phase = state.phase
            if phase == OVER:
                break
            if phase == CHANCE:
                state.play_chance(rng)
            else:
                state.apply_code(choice(state.legal_codes()))
                decisions += 1
    return decisions


def other_matches(rules: Rules, players: int, matches: int, seed: int) -> int:
    """Another checkout's fastest random matches (``--against``): a playout in one call
    where its engine has one, else a decision at a time on its fast path."""
    if hasattr(new_game(rules, players), "play_random"):
        return fast_matches(rules, players, matches, seed)
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    for _ in range(matches):
        state = new_game(rules, players)
        while state.phase != OVER:
            if state.phase != CHANCE:
                state.apply_code(choice(state.legal_codes()))
                decisions += 1
            elif hasattr(state, "play_chance"):
                state.play_chance(rng)
            else:  # (before play_chance was public)
                state._apply_chance(state.sample_chance(rng))
    return decisions


def checked_matches(rules: Rules, players: int, matches: int, seed: int) -> int:
    """Decisions through legal_actions() and the checked apply(), events included."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(matches):
        state = new_game(rules, players)
        while not state.is_over:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions


class Run(NamedTuple):
    """What one contender measures: the kind of player, its rules and players, and the
    engine's source folder (this checkout's, or the one measured ``--against``)."""

    kind: str
    rules: str
    players: int
    src: str = str(ROOT / "src")


def contenders(
    rule_ids: list[str], players: int, against: tuple[str, str] | None = None
) -> dict[str, Run]:
    """Each contender's name and run; ``against``: (a label, the source folder) of another
    checkout, whose fast path joins for each rule set."""
    found = {
        CEILING: Run("minimal", "P", players),
        TWO_DECKS_BOUND: Run("minimal-two-decks", "P", 6),
    }
    for rules, bound in BOUNDS.items():
        if rules in rule_ids:
            found[bound] = Run(f"minimal-{rules.lower()}", rules, players)
    for rules in rule_ids:
        found[f"fast path, {rules}, {players} players"] = Run("fast", rules, players)
    found[TWO_DECKS] = Run("fast", "P", 6)
    found[f"fast path a step at a time, P, {players} players"] = Run("stepped", "P", players)
    found[f"checked API, P, {players} players"] = Run("checked", "P", players)
    if against:
        label, src = against
        for rules in rule_ids:
            found[other_name(rules, players, label)] = Run("other", rules, players, src)
    return found


def other_name(rules: str, players: int, label: str) -> str:
    return f"{label}: fast path, {rules}, {players} players"


def player(kind: str, rules_id: str, players: int) -> Callable[[int, int], int]:
    """What a measurement of ``kind`` plays: a function of (matches, seed) -> decisions."""
    if kind == "minimal":
        from minimal_engine import minimal_p_matches

        return lambda m, seed: minimal_p_matches(m, seed, players)
    if kind == "minimal-two-decks":
        from minimal_engine import minimal_p_matches

        return lambda m, seed: minimal_p_matches(m, seed, players, decks=2, lives=3)
    if kind == "minimal-is":
        from minimal_engine import minimal_is_matches

        return lambda m, seed: minimal_is_matches(m, seed, players)
    if kind == "minimal-qc":
        from minimal_engine import minimal_qc_matches

        return lambda m, seed: minimal_qc_matches(m, seed, players)
    rules = load_rules(rules_id)
    play = {"checked": checked_matches, "stepped": stepped_matches, "other": other_matches}.get(
        kind, fast_matches
    )
    return lambda m, seed: play(rules, players, m, seed)


def child(
    kind: str, rules_id: str, players: int, matches: int, seed: int, warm: int = 0
) -> dict[str, float]:
    """One measurement in this fresh process: warm up untimed (``warm`` matches, or a fifth
    of ``matches``), then time ``matches``."""
    import time

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    play = player(kind, rules_id, players)
    play(warm or max(5, matches // 5), 10_000 + seed)  # caches built: the steady state
    wall, cpu = time.perf_counter(), time.process_time()
    decisions = play(matches, seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"cpu": decisions / cpu, "wall": decisions / wall, "decisions": decisions}


def instructions(run: Run, matches: int) -> float:
    """Instructions a decision of one contender, as valgrind counts them: the difference
    between ``matches`` and a fifth as many, over the decisions between."""

    def counted(count: int) -> tuple[int, int]:
        # the same warm-up for both counts, so that it cancels
        args = [run.kind, run.rules, str(run.players), str(count), "0", str(max(5, matches // 5))]
        path = f"{run.src}{os.pathsep}{ROOT / 'benchmarks'}"
        count_, out = instructions_of([__file__, "--child", *args], path)
        return count_, json.loads(out.strip().splitlines()[-1])["decisions"]

    (many, d_many), (few, d_few) = counted(matches), counted(max(1, matches // 5))
    return (many - few) / (d_many - d_few)


def by_instructions(runs: dict[str, Run], matches: int, p_fast: str) -> None:
    """Each contender's instructions a decision, and its cost as a share of P's."""
    count = {name: instructions(run, matches) for name, run in runs.items()}
    print(f"instructions a decision (valgrind), {matches} matches against {matches // 5}")
    print(f"{'':44}{'instructions':>14}{'/ ceiling':>12}{'/ P fast':>12}")
    for name, value in count.items():
        to_p = f"{count[p_fast] / value:12.2f}" if runs[name].kind == "fast" else ""
        print(f"{name:44}{value:14,.0f}{count[CEILING] / value:12.2f}{to_p}")
    print_costs(runs, p_fast, lambda name, base: f"{count[base] / count[name]:.2f}")


def print_costs(runs: dict[str, Run], p_fast: str, ratio: Callable[[str, str], str]) -> None:
    """What a second deck, and each bounded game, cost the minimal engine and the fast path:
    ``ratio(name, base)`` gives a contender's speed as a share of another's, as printed."""
    print(
        "a second deck's cost: the minimal engine's two decks at 6 players / its P at 4: "
        f"{ratio(TWO_DECKS_BOUND, CEILING)}; the fast path's: {ratio(TWO_DECKS, p_fast)}"
    )
    for rules, bound in BOUNDS.items():
        fast = next((n for n, r in runs.items() if r[:2] == ("fast", rules)), None)
        if bound in runs and fast:
            print(
                f"{rules}'s cost: the {bound} / the minimal P engine: "
                f"{ratio(bound, CEILING)}; the fast path's {rules} / its P: "
                f"{ratio(fast, p_fast)}"
            )


def measure(run: Run, matches: int, seed: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": f"{run.src}{os.pathsep}{ROOT / 'benchmarks'}"}
    args = [run.kind, run.rules, str(run.players), str(matches), str(seed)]
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, env=env
    )
    if done.returncode:
        raise SystemExit(done.stderr[-2000:])
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def spread(values: list[float], digits: int = 0) -> str:
    middle = f"{statistics.median(values):,.{digits}f}"
    return f"{middle:>10} ({min(values):,.{digits}f} to {max(values):,.{digits}f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default=DEFAULT_RULES, help="comma-separated rule sets")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--matches", type=int, default=1000, help="matches a measurement")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions with valgrind (one count per contender), not time",
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="another checkout (e.g. a git worktree of the tree before a change): its fast "
        "path joins the run for each rule set",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, rules_id, *numbers = args.child
        print(json.dumps(child(kind, rules_id, *map(int, numbers))))
        return 0
    rule_ids = [r.strip() for r in args.rules.split(",") if r.strip()]
    if "P" not in rule_ids:
        rule_ids.insert(0, "P")  # every rule set is compared with P's fast path
    against = None
    if args.against:
        other = Path(args.against).resolve()
        if not (other / "src" / "ninetynine").is_dir():
            parser.error(f"--against {args.against}: no src/ninetynine there (a checkout's root)")
        against = (checkout_label(other), str(other / "src"))
    runs = contenders(rule_ids, args.players, against)
    p_fast = f"fast path, P, {args.players} players"
    if args.instructions:
        by_instructions(
            {n: r for n, r in runs.items() if r.kind != "checked"}, args.matches, p_fast
        )
        return 0
    names = list(runs)
    # the checked API is several times slower: fewer matches, about as long a measurement
    matches = {
        n: max(5, args.matches // 4) if runs[n].kind == "checked" else args.matches for n in names
    }
    rates: dict[str, list[dict[str, float]]] = {n: [] for n in names}
    for r in range(args.rounds):
        turned = names[r % len(names) :] + names[: r % len(names)]
        for name in turned:
            rates[name].append(measure(runs[name], matches[name], seed=r))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)

    def ratios(top: str, bottom: str) -> list[float]:
        return [a["cpu"] / b["cpu"] for a, b in zip(rates[top], rates[bottom], strict=True)]

    print(
        f"decisions a second, random legal choices, {args.rounds} rounds of fresh processes "
        "interleaved; median (spread)"
    )
    print(f"{'':44}{'CPU time':>30}{'wall clock':>30}{'/ ceiling':>26}{'/ P fast':>26}")
    for name in names:
        cpu = [m["cpu"] for m in rates[name]]
        wall = [m["wall"] for m in rates[name]]
        to_ceiling = spread(ratios(name, CEILING), 2)
        to_p = "" if runs[name].kind != "fast" else spread(ratios(name, p_fast), 2)
        print(f"{name:44}{spread(cpu):>30}{spread(wall):>30}{to_ceiling:>26}{to_p:>26}")
    share = statistics.median(ratios(p_fast, CEILING))
    verdict = "ok" if share >= CEILING_SHARE else "below"
    print(
        f"fast path, P, {args.players} players / ceiling: {share:.2f} "
        f"({verdict}: target {CEILING_SHARE})"
    )
    print_costs(runs, p_fast, lambda name, base: spread(ratios(name, base), 2).strip())
    short = [
        f"{n} {statistics.median(ratios(n, p_fast)):.2f}"
        for n in names
        if runs[n].kind == "fast" and statistics.median(ratios(n, p_fast)) < RULES_SHARE
    ]
    print(
        f"rule sets below {RULES_SHARE} of P's fast path: "
        + (", ".join(short) if short else "none")
    )
    if against:
        label = against[0]
        print(f"this checkout's fast path / {label}'s, in the same rounds:")
        for rules in rule_ids:
            mine = f"fast path, {rules}, {args.players} players"
            other = other_name(rules, args.players, label)
            print(f"  {rules}: {spread(ratios(mine, other), 2).strip()}")
    return 0


def checkout_label(root: Path) -> str:
    """A checkout's short commit (its folder's name where git cannot say)."""
    done = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() if done.returncode == 0 else root.name


if __name__ == "__main__":
    sys.exit(main())
