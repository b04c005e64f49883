"""Rows built by hand for the statistics' tests, and a small synthetic run."""

from __future__ import annotations

import random
from dataclasses import replace

from ninetynine.analysis.rows import DecisionRow, GameRow, HandRow

GAME = GameRow(
    rules="P",
    rules_hash="0" * 16,
    players=4,
    lineup="heuristic,heuristic,heuristic,heuristic",
    seats=["heuristic"] * 4,
    block=0,
    rotation=0,
    deal_seed="0:deal:0",
    game=0,
    winners=[0],
    places=[1, 2, 2, 2],
    reason="last_standing",
    hands=5,
    turns=40,
    opener=0,
    dealer=3,
    lives_lost=[0, 3, 3, 3],
    engine="0",
    encoding=1,
)
HAND = HandRow(
    rules="P",
    players=4,
    lineup=GAME.lineup,
    game=0,
    hand=1,
    opener=0,
    dealer=3,
    opening=["AS 2S 3S", "KH 4H 5H", "6D 7D 8D", "9C 10C JC"],
    turns=8,
    loser=1,
    ending_rank=12,
    lost_over=[0, 1, 0, 0],
    lost_cannot_play=[0, 0, 0, 0],
    lost_made_threshold=[0, 0, 0, 0],
    lost_crossed_threshold=[0, 0, 0, 0],
    lost_border=[0, 0, 0, 0],
)


def game(**changes: object) -> GameRow:
    return replace(GAME, **changes)  # type: ignore[arg-type]


def hand(**changes: object) -> HandRow:
    return replace(HAND, **changes)  # type: ignore[arg-type]


def synthetic_run(
    games: int = 40, players: int = 3, seed: int = 1, rules: str = "P", lineup: str | None = None
) -> tuple[list[GameRow], list[HandRow], list[DecisionRow]]:
    """A run of random-looking rows: games in deal blocks as a simulation makes them (a
    block a game with one bot, rotation blocks with several), hands and a few decisions
    with chances (on the first two games)."""
    rng = random.Random(seed)
    specs = (lineup or ",".join(["heuristic"] * players)).split(",")
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    out_g, out_h, out_d = [], [], []
    for g in range(games):
        block, rotation = divmod(g, 1 if len(set(specs)) == 1 else players)
        seats = [specs[(s + rotation) % players] for s in range(players)]
        winner = rng.randrange(players)
        hands = rng.randint(2, 6)
        out_g.append(
            GameRow(
                rules,
                "0" * 16,
                players,
                ",".join(specs),
                seats,
                block,
                rotation,
                f"{seed}:deal:{block}",
                g,
                [winner],
                [1 if s == winner else 2 for s in range(players)],
                "last_standing",
                hands,
                rng.randint(10, 60),
                0,
                players - 1,
                [0 if s == winner else 3 for s in range(players)],
                "0",
                1,
            )
        )
        for h in range(1, hands + 1):
            loser = rng.randrange(players)
            lost = [int(s == loser) for s in range(players)]
            out_h.append(
                HandRow(
                    rules,
                    players,
                    ",".join(specs),
                    g,
                    h,
                    0,
                    players - 1,
                    [
                        " ".join(rng.choice(ranks) + rng.choice("SHDC") for _ in range(3))
                        for _ in range(players)
                    ],
                    rng.randint(3, 12),
                    loser,
                    rng.randrange(13),
                    lost if h % 2 else [0] * players,
                    [0] * players,
                    [0] * players if h % 2 else lost,
                    [0] * players,
                    [0] * players,
                )
            )
        if g < 2:
            for move in range(10):
                chances = [rng.random() for _ in range(players)]
                out_d.append(
                    DecisionRow(
                        rules,
                        players,
                        ",".join(specs),
                        g,
                        1,
                        move,
                        move % players,
                        50,
                        3,
                        "7S",
                        [c / sum(chances) for c in chances],
                    )
                )
    return out_g, out_h, out_d
