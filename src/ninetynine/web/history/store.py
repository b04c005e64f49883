"""The finished games' tables in the server's storage (their ``CREATE TABLE`` is in
:mod:`ninetynine.web.storage`, so both backends and every process share them).

A result is written once per (table, seat) however many processes see the game end (the
primary key; a second write does nothing). A rated game's ratings are updated in one
transaction with the game's marker (``nn_rated_games``), and each account's history row is
keyed by its rating's game number, so two processes that update one rating at once conflict
and one of them reads it again (:meth:`HistoryStore.rate`). Each method runs on the storage's
threads (``await storage.call(...)``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ninetynine.web.storage import DuplicateMoveError, Storage


@dataclass(frozen=True, slots=True)
class Result:
    """One seat's result of a finished game, for the account that held it."""

    table_id: str
    seat: int  # 0-based
    account: str
    place: int  # 1 for the winners
    won: bool
    rules_id: str
    rules_name: str
    family: str  # the rules' family (ninetynine.rules.presets.FAMILIES)
    players: int
    names: tuple[str, ...]  # every seat's name, as the table showed them
    club: str | None
    rated: bool
    finished: float  # when the end was stored (the server's wall clock)


@dataclass(frozen=True, slots=True)
class Rating:
    """An account's rating in one family: OpenSkill's mu and sigma, after ``games`` rated
    games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative rating, as the arena's: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One account's new rating after a rated game, from the rating it had."""

    account: str
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class Played:
    """A result as the account's history lists it, with its rating change (rated games)."""

    result: Result
    change: tuple[Rating, Rating] | None  # (before, after)


_RESULT = (
    "r.table_id, r.seat, r.account, r.place, r.won, r.rules_id, r.rules_name, r.family, "
    "r.players, r.names, r.club, r.rated, r.finished"
)


def _result(row: tuple[Any, ...]) -> Result:
    tid, seat, account, place, won, rid, rname, family, players, names, club, rated, at = row
    return Result(
        str(tid),
        int(seat),
        str(account),
        int(place),
        bool(won),
        str(rid),
        str(rname),
        str(family),
        int(players),
        tuple(json.loads(names)),
        None if club is None else str(club),
        bool(rated),
        float(at),
    )


class HistoryStore:
    """The SQL of finished games and ratings, over a :class:`~ninetynine.web.storage.Storage`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # writing -------------------------------------------------------------------------

    def add_results(self, results: list[Result]) -> None:
        """Stores these results, all or none; a (table, seat) stored already is left as it is."""
        self.storage.atomic(
            [
                (
                    "INSERT INTO nn_results (table_id, seat, account, place, won, rules_id, "
                    "rules_name, family, players, names, club, rated, finished) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (
                        r.table_id,
                        r.seat,
                        r.account,
                        r.place,
                        int(r.won),
                        r.rules_id,
                        r.rules_name,
                        r.family,
                        r.players,
                        json.dumps(list(r.names)),
                        r.club,
                        int(r.rated),
                        r.finished,
                    ),
                )
                for r in results
            ]
        )

    def is_rated(self, table_id: str) -> bool:
        """Whether this game's ratings were updated already (by any process)."""
        return bool(
            self.storage.execute("SELECT 1 FROM nn_rated_games WHERE table_id = ?", (table_id,))
        )

    def ratings(self, accounts: list[str], family: str) -> dict[str, Rating]:
        """The ratings these accounts have in ``family`` (an account not rated yet is left out)."""
        found: dict[str, Rating] = {}
        for account in accounts:
            rows = self.storage.execute(
                "SELECT mu, sigma, games FROM nn_ratings WHERE account = ? AND family = ?",
                (account, family),
            )
            if rows:
                found[account] = Rating(float(rows[0][0]), float(rows[0][1]), int(rows[0][2]))
        return found

    def rate(self, table_id: str, family: str, changes: list[RatingChange], now: float) -> bool:
        """Stores a rated game's new ratings with its marker, in one transaction. False where it
        cannot be stored as computed: the game was rated already (by another process), or one
        of the ratings changed meanwhile (its game number is taken): read them again."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            ("INSERT INTO nn_rated_games (table_id, rated) VALUES (?, ?)", (table_id, now))
        ]
        for c in changes:
            statements += [
                (
                    "INSERT INTO nn_rating_history (account, family, seq, table_id, mu_before, "
                    "sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        c.account,
                        family,
                        c.after.games,
                        table_id,
                        c.before.mu,
                        c.before.sigma,
                        c.after.mu,
                        c.after.sigma,
                        now,
                    ),
                ),
                (
                    "INSERT INTO nn_ratings (account, family, mu, sigma, games) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (account, family) DO UPDATE SET "
                    "mu = EXCLUDED.mu, sigma = EXCLUDED.sigma, games = EXCLUDED.games",
                    (c.account, family, c.after.mu, c.after.sigma, c.after.games),
                ),
            ]
        try:
            self.storage.atomic(statements)
        except DuplicateMoveError:
            return False
        return True

    # reading -------------------------------------------------------------------------

    def games(
        self, account: str, before: tuple[float, str, int] | None, limit: int
    ) -> list[Played]:
        """An account's results, newest first, from just before ``before`` (finished, table,
        seat: the last one of the page before), each with its rating change."""
        where, params = "r.account = ?", list[Any]([account])
        if before is not None:
            at, table_id, seat = before
            where += (
                " AND (r.finished < ? OR (r.finished = ? AND (r.table_id < ? OR "
                "(r.table_id = ? AND r.seat < ?))))"
            )
            params += [at, at, table_id, table_id, seat]
        rows = self.storage.execute(
            f"SELECT {_RESULT}, h.mu_before, h.sigma_before, h.mu, h.sigma FROM nn_results r "
            "LEFT JOIN nn_rating_history h ON h.account = r.account AND h.table_id = r.table_id "
            f"WHERE {where} ORDER BY r.finished DESC, r.table_id DESC, r.seat DESC LIMIT ?",
            (*params, limit),
        )
        return [
            Played(
                _result(row[:13]),
                None
                if row[13] is None
                else (
                    Rating(float(row[13]), float(row[14])),
                    Rating(float(row[15]), float(row[16])),
                ),
            )
            for row in rows
        ]

    def table_ids(self, account: str, limit: int) -> list[str]:
        """The tables of an account's newest ``limit`` finished games, newest first."""
        return [
            str(tid)
            for (tid,) in self.storage.execute(
                "SELECT table_id FROM nn_results WHERE account = ? GROUP BY table_id "
                "ORDER BY MAX(finished) DESC, table_id DESC LIMIT ?",
                (account, limit),
            )
        ]

    def per_rules(self, account: str) -> list[tuple[str, str, int, int]]:
        """An account's games and wins per rule set: (rules id, name, games, wins), most
        played first."""
        return [
            (str(rid), str(name), int(games), int(wins))
            for rid, name, games, wins in self.storage.execute(
                "SELECT rules_id, MIN(rules_name), COUNT(*), SUM(won) FROM nn_results "
                "WHERE account = ? GROUP BY rules_id ORDER BY COUNT(*) DESC, rules_id",
                (account,),
            )
        ]

    def ratings_of(self, account: str) -> dict[str, Rating]:
        """An account's rating in each family it has rated games in."""
        return {
            str(family): Rating(float(mu), float(sigma), int(games))
            for family, mu, sigma, games in self.storage.execute(
                "SELECT family, mu, sigma, games FROM nn_ratings WHERE account = ? ORDER BY family",
                (account,),
            )
        }

    def points(self, account: str, family: str, limit: int) -> list[tuple[float, Rating]]:
        """An account's newest ``limit`` ratings in a family, oldest first: (when, rating)."""
        rows = self.storage.execute(
            "SELECT at, mu, sigma, seq FROM nn_rating_history WHERE account = ? AND family = ? "
            "ORDER BY seq DESC LIMIT ?",
            (account, family, limit),
        )
        return [
            (float(at), Rating(float(mu), float(sigma), int(seq))) for at, mu, sigma, seq in rows
        ][::-1]

    def leaderboard(self, club: str | None, limit: int) -> list[tuple[str, str, str, Rating]]:
        """The best ``limit`` rated accounts of each family, by ordinal (mu - 3 sigma): all of
        the server's, or a club's members. Rows (family, account id, name, rating)."""
        where, params = "", list[Any]()
        if club is not None:
            where = " JOIN nn_club_members m ON m.account = g.account AND m.club = ?"
            params = [club]
        rows = self.storage.execute(
            "SELECT g.family, g.account, a.name, g.mu, g.sigma, g.games FROM nn_ratings g "
            f"JOIN nn_accounts a ON a.id = g.account{where} "
            "ORDER BY g.family, g.mu - 3 * g.sigma DESC, a.name",
            tuple(params),
        )
        out: list[tuple[str, str, str, Rating]] = []
        shown: dict[str, int] = {}
        for family, account, name, mu, sigma, games in rows:
            if shown.get(family, 0) < limit:
                shown[family] = shown.get(family, 0) + 1
                out.append((str(family), str(account), str(name), Rating(mu, sigma, int(games))))
        return out

    def share_a_club(self, one: str, other: str) -> bool:
        """Whether two accounts are members of one club."""
        return bool(
            self.storage.execute(
                "SELECT 1 FROM nn_club_members a JOIN nn_club_members b ON a.club = b.club "
                "WHERE a.account = ? AND b.account = ? LIMIT 1",
                (one, other),
            )
        )

    @staticmethod
    def delete_statements(account: str) -> list[tuple[str, tuple[Any, ...]]]:
        """The statements that delete an account's results, ratings and rating history (the
        other players' results of the same games stay)."""
        return [
            ("DELETE FROM nn_results WHERE account = ?", (account,)),
            ("DELETE FROM nn_ratings WHERE account = ?", (account,)),
            ("DELETE FROM nn_rating_history WHERE account = ?", (account,)),
        ]
