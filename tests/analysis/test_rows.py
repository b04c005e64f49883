"""The rows a simulation writes, checked against the events of the same game replayed
through the checked API (a Match), on every preset."""

from __future__ import annotations

import pytest

from ninetynine.analysis.cells import Cell, Chunk, chunks_of
from ninetynine.analysis.play import ENCODING_VERSION, Engine, engine_for, play_game
from ninetynine.arena.game import play_game as arena_game
from ninetynine.arena.game import seed_of
from ninetynine.arena.runner import rotation
from ninetynine.engine import events as E
from ninetynine.engine.ledger import LossCause
from ninetynine.records.match import Match, standings
from ninetynine.records.record import parse_record
from ninetynine.rules.cards import format_cards, rank_of
from ninetynine.rules.presets import open_rules, presets

# what the events call each cause
# (an empty hand that puts a player out, CN99's O47, is the ledger's "cannot play" too)
REASONS = {
    "over the limit": LossCause.OVER,
    "cannot play": LossCause.CANNOT_PLAY,
    "empty hand": LossCause.CANNOT_PLAY,
}


def replayed(cell: Cell, game: int, seed: int) -> tuple[Match, list[E.Event]]:
    """The arena's game with the same seeds, replayed from its record with every event."""
    block, turn = cell.block_of(game)
    result = arena_game(
        cell.rules,
        list(cell.seat_specs),
        rotation(turn, cell.players),
        index=game,
        chance_seed=seed_of(seed, "deal", block),
        bot_seed=seed_of(seed, "bots", game),
        keep_record=True,
    )
    assert result.record is not None
    match = Match.from_record(parse_record(result.record))
    return match, match.log


def cause_of(event: E.Event) -> tuple[int, int, LossCause] | None:
    if isinstance(event, E.LifeLost):
        paid = event.amount - event.unpaid
        if event.reason in REASONS:
            return event.seat, paid, REASONS[event.reason]
        made = event.by is not None
        return event.seat, paid, LossCause.MADE_THRESHOLD if made else LossCause.CROSSED_THRESHOLD
    if isinstance(event, E.BorderCrossed):
        return event.seat, 1, LossCause.CANNOT_PLAY if event.border is None else LossCause.BORDER
    return None


def expected_hands(match: Match, log: list[E.Event], n: int) -> list[dict[str, object]]:
    """Per hand, from the events: its leader, the cards dealt, the loss by cause, who went
    over or laid down last, and the rank of its last card played."""
    hands: list[dict[str, object]] = []
    for event in log:
        if isinstance(event, E.HandStarted):
            hands.append(
                {
                    "hand": event.hand,
                    "opener": event.starter,
                    "dealer": event.dealer,
                    "lost": {c: [0] * n for c in LossCause},
                    "loser": -1,
                    "rank": -1,
                }
            )
        elif isinstance(event, E.Busted):
            hands[-1]["loser"] = event.seat
        elif isinstance(event, E.CardPlayed):
            hands[-1]["rank"] = rank_of(event.card)
        found = cause_of(event)
        if found is not None:
            seat, paid, cause = found
            if paid:
                hands[-1]["lost"][cause][seat] += paid  # type: ignore[index]
    return hands


CASES = [
    (pid, n, lineup)
    for pid in sorted(presets())
    for n in sorted({open_rules(pid).players_min, min(4, open_rules(pid).players_max)})
    for lineup in (("random",), ("heuristic", "random"))
]


@pytest.mark.parametrize(("pid", "players", "lineup"), CASES)
def test_rows_agree_with_the_events_of_the_same_game(
    pid: str, players: int, lineup: tuple[str, ...]
) -> None:
    cell = Cell(open_rules(pid), players, lineup)
    for game in range(3):
        rows = play_game(cell, game, 11, engine_for(cell))
        match, log = replayed(cell, game, 11)
        state = match.state
        assert state.outcome is not None
        row = rows.game
        assert row.winners == list(state.outcome.winners)
        assert row.reason == state.outcome.reason.value
        assert row.turns == sum(seat is not None for seat, _ in match.moves)
        assert row.places == [s.place for s in standings(state, log)]
        assert row.lives_lost == [s.lost for s in standings(state, log)] or any(
            isinstance(e, E.BorderCrossed) for e in log
        )  # with game points, standings count lives (none): the rows count points
        assert row.hands == len(rows.hands) == state.hand_no
        want = expected_hands(match, log, players)
        assert [h.hand for h in rows.hands] == [h["hand"] for h in want]
        for got, hand in zip(rows.hands, want, strict=True):
            assert (got.opener, got.dealer) == (hand["opener"], hand["dealer"])
            assert got.loser == hand["loser"]
            assert got.ending_rank == hand["rank"]
            lost = hand["lost"]
            assert isinstance(lost, dict)
            assert got.lost_over == lost[LossCause.OVER]
            assert got.lost_cannot_play == lost[LossCause.CANNOT_PLAY]
            assert got.lost_made_threshold == lost[LossCause.MADE_THRESHOLD]
            assert got.lost_crossed_threshold == lost[LossCause.CROSSED_THRESHOLD]
            assert got.lost_border == lost[LossCause.BORDER]
        assert sum(h.turns for h in rows.hands) == row.turns


def test_a_hand_checked_game() -> None:
    """Game 4 of P with three random bots, seed 3, read off its record by hand: the cards
    dealt in the first hand, who won, and its block (one bot in every seat: a deal of its
    own)."""
    cell = Cell(open_rules("P"), 3, ("random",))
    rows = play_game(cell, 4, 3, Engine.FAST)
    match, _log = replayed(cell, 4, 3)
    row = rows.game
    assert (row.block, row.rotation, row.deal_seed) == (4, 0, "3:deal:4")
    assert row.seats == ["random"] * 3
    assert row.engine and row.encoding == ENCODING_VERSION
    first_deal = match.record().moves[0][1]
    order = list(first_deal.order)  # type: ignore[union-attr]
    # dealt from the top, one card a seat at a time from the opener (seat 0)
    size = cell.rules.hand_size
    dealt = [sorted(order[s::3][:size]) for s in range(3)]
    assert rows.hands[0].opening == [format_cards(d) for d in dealt]
    assert rows.hands[0].opener == 0


def test_one_bot_games_have_deals_of_their_own_and_two_bots_rotate_over_one() -> None:
    """One bot in every seat: each game its own block and deal (rotating identical bots
    would replay one game). Two bots: the arena's blocks, one deal rotated round the seats."""
    rules = open_rules("P")
    alone = [play_game(Cell(rules, 3, ("heuristic",)), g, 8, Engine.FAST) for g in range(9)]
    assert [(r.game.block, r.game.rotation) for r in alone] == [(g, 0) for g in range(9)]
    assert len({r.game.deal_seed for r in alone}) == 9
    assert len({tuple(r.hands[0].opening) for r in alone}) == 9  # nine different deals
    mixed = Cell(rules, 3, ("heuristic", "random"))
    pair = [play_game(mixed, g, 8, Engine.FAST) for g in range(6)]
    assert [(r.game.block, r.game.rotation) for r in pair] == [(g // 3, g % 3) for g in range(6)]
    assert [r.game.seats for r in pair[:3]] == [
        ["heuristic", "random", "heuristic"],
        ["random", "heuristic", "heuristic"],
        ["heuristic", "heuristic", "random"],
    ]
    for block in (pair[:3], pair[3:]):  # a block's games are dealt the same first hand
        assert len({tuple(r.hands[0].opening) for r in block}) == 1
    assert pair[0].hands[0].opening == alone[0].hands[0].opening  # block 0: one deal seed
    assert chunks_of(0, Cell(rules, 3, ("random",)).block_size, 10, 4) == [
        Chunk(0, 0, 0, 4),
        Chunk(0, 1, 4, 4),
        Chunk(0, 2, 8, 2),
    ]
    assert [c.count for c in chunks_of(0, mixed.block_size, 10, 4)] == [3, 3, 3, 1]


def test_encoding_version_is_the_rl_encodings() -> None:
    encoding = pytest.importorskip("ninetynine.rl.encoding")
    assert encoding.VERSION == ENCODING_VERSION


def test_checked_and_fast_engines_give_the_same_rows() -> None:
    cell = Cell(open_rules("K"), 3, ("heuristic", "greedy"))
    for game in range(3):
        fast = play_game(cell, game, 5, Engine.FAST, decisions=True, chances=True)
        checked = play_game(cell, game, 5, Engine.CHECKED, decisions=True, chances=True)
        assert fast == checked
