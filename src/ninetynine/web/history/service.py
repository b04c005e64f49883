"""Finished games remembered per account, within the server's limits.

- When a game is played to its end (not abandoned), every seat an account holds gets a result
  (place, won, the rules and their family, the players, the club), stored once however many
  processes see the end (:meth:`History.game_over`). A rated table's game then moves the
  ratings of its accounts (:mod:`.ratings`), once (the game's marker is written with them).
- An account sees its own games (newest first, paged), downloads their records as a zip, and
  claims the seats it played as a guest (the seat tokens its browser kept): a claimed seat of a
  finished game gets its result, never a rating (games are not rated after the fact).
- A profile (games and wins per rule set, ratings with their history) is seen by the account
  itself and by the members of a club it belongs to; to anyone else it reads as ``no_player``,
  as an account that does not exist. A club's leaderboard is its members'; the server's shows
  names and ratings only.
"""

from __future__ import annotations

import io
import logging
import zipfile
from typing import Any

from ninetynine.records.match import Chance, Match
from ninetynine.records.record import format_record, parse_move
from ninetynine.rules.presets import base_rules, load_rules, presets
from ninetynine.rules.settings import Rules
from ninetynine.web.accounts.service import Accounts
from ninetynine.web.accounts.store import AccountStore
from ninetynine.web.clubs.service import Clubs
from ninetynine.web.errors import ErrorCode, LimitError, ProtocolError
from ninetynine.web.history.ratings import DEFAULT, Entrant, bot_ratings, rate
from ninetynine.web.history.store import HistoryStore, Played, Rating, RatingChange, Result
from ninetynine.web.lobby import TABLE_ID, Lobby
from ninetynine.web.settings import Settings
from ninetynine.web.storage import Storage, StorageError, StoredTable
from ninetynine.web.table.room import Table
from ninetynine.web.table.seating import Seat

logger = logging.getLogger("ninetynine.web")
MAX_TOKEN = 100  # characters of a seat token as sent (they are 32)


def family_of(rules: Rules) -> str:
    """The family of the preset the rules are built on (house rules: their preset's)."""
    return presets()[base_rules(rules).id].family


def no_player(account_id: str) -> ProtocolError:
    """The one answer for an account that does not exist and one the caller may not see."""
    return ProtocolError(
        ErrorCode.NO_PLAYER, f"no player {account_id[:40]!r} you share a club with"
    )


def results_of(table: Table, now: float, seats: set[int] | None = None) -> list[Result]:
    """The results of a finished game's seats that accounts hold (or of ``seats`` only: a
    claim, never rated)."""
    standings = table.match.standings()
    rules, meta = table.rules, table.meta
    return [
        Result(
            table.id,
            i,
            seat.account,
            standings[i].place,
            standings[i].won,
            rules.id,
            rules.name,
            family_of(rules),
            len(table.seats),
            tuple(table.seating.names),
            meta.get("club"),
            bool(meta.get("rated")) and seats is None,
            now,
        )
        for i, seat in enumerate(table.seats)
        if seat.account is not None and (seats is None or i in seats)
    ]


def records_zip(stored: list[StoredTable]) -> bytes:
    """A zip of finished games' records, one ``ninetynine-ID.toml`` each (run in a worker)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for table in stored:
            archive.writestr(f"ninetynine-{table.id}.toml", record_text(table))
    return buffer.getvalue()


def record_text(stored: StoredTable) -> str:
    """A finished game's record as ``.toml`` text, replayed from its stored moves (as
    ``GET /api/tables/{id}/record`` has it), with no bot or clock started."""
    meta = stored.meta
    names = [s["name"] for s in meta["seats"]]
    match = Match.new(
        load_rules(meta["rules"]),
        meta["players"],
        first=meta.get("first", 0),
        chance=Chance.system(),
        names=names,
        auto_chance=False,
    )
    for text in stored.moves:
        who, move = parse_move(text, len(names))
        match.play(move, who)
    return format_record(match.record(), match.state)


def _cursor(raw: object) -> tuple[float, str, int] | None:
    """``before`` as the previous page's ``next`` gave it: ``FINISHED:TABLE:SEAT``."""
    if raw is None or raw == "":
        return None
    try:
        at, table_id, seat = str(raw).split(":")
        if not TABLE_ID.match(table_id):
            raise ValueError(table_id)
        return float(at), table_id, int(seat)
    except ValueError:
        raise ProtocolError(
            ErrorCode.MALFORMED,
            f"before {str(raw)[:40]!r}: expected the 'next' of the previous page",
        ) from None


def _rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "ordinal": round(rating.ordinal, 3),
    }


class History:
    """The finished games of one server process (the rows are shared by every process)."""

    def __init__(
        self, storage: Storage, settings: Settings, accounts: Accounts, clubs: Clubs, lobby: Lobby
    ) -> None:
        self.storage, self.settings, self.accounts, self.clubs = storage, settings, accounts, clubs
        self.lobby = lobby
        self.store = HistoryStore(storage)
        self.limits = settings.limits

    # the end of a game ------------------------------------------------------------------

    async def game_over(self, table: Table) -> None:
        """Stores a finished game's results (once: a (table, seat) stored already stays), then
        for a rated table moves its accounts' ratings (once)."""
        if not table.state.is_over:
            return
        results = results_of(table, self.settings.wall())
        if not results:
            return
        await self.storage.call(self.store.add_results, results)
        if table.meta.get("rated"):
            await self._rate(table)

    async def _rate(self, table: Table) -> None:
        family, store = family_of(table.rules), self.store
        accounts = [s.account for s in table.seats if s.account is not None]
        if len(set(accounts)) < len(accounts):
            return  # an account in two seats cannot be rated against itself
        standings = table.match.standings()
        for _ in range(5):  # another process rated one of these accounts meanwhile: again
            if await self.storage.call(store.is_rated, table.id):
                return
            current = await self.storage.call(store.ratings, accounts, family)
            entrants = [
                Entrant(standings[i].place, self._fixed(s))
                if s.account is None
                else Entrant(standings[i].place, current.get(s.account, DEFAULT), s.account)
                for i, s in enumerate(table.seats)
            ]
            new = rate(entrants)
            changes = [RatingChange(a, current.get(a, DEFAULT), new[a]) for a in accounts]
            if await self.storage.call(store.rate, table.id, family, changes, self.settings.wall()):
                return
        raise StorageError(f"table {table.id}: its players' ratings keep changing; not rated")

    @staticmethod
    def _fixed(seat: Seat) -> Rating:
        """A seat that is not rated: a bot's level's rating, a guest's the default."""
        return bot_ratings().get(seat.bot, DEFAULT) if seat.bot else DEFAULT

    # an account's own games -------------------------------------------------------------

    async def games(self, cookie: str | None, before: object) -> dict[str, Any]:
        """The signed-in account's finished games, newest first, a page at a time."""
        account = await self.accounts.require(cookie)
        cursor, size = _cursor(before), self.limits.games_per_page
        found = await self.storage.call(self.store.games, account.id, cursor, size + 1)
        page = found[:size]
        last = page[-1].result if page else None
        return {
            "games": [self._game_json(p) for p in page],
            "next": f"{last.finished!r}:{last.table_id}:{last.seat}"
            if last and len(found) > size
            else None,
        }

    @staticmethod
    def _game_json(played: Played) -> dict[str, Any]:
        r, seat = played.result, played.result.seat + 1
        change = None
        if played.change is not None:
            before, after = played.change
            change = {
                "before": _rating_json(before),
                "after": _rating_json(after),
                "ordinal": round(after.ordinal - before.ordinal, 3),
            }
        return {
            "table": r.table_id,
            "finished": r.finished,
            "rules": {"id": r.rules_id, "name": r.rules_name},
            "family": r.family,
            "players": list(r.names),
            "seat": seat,
            "place": r.place,
            "won": r.won,
            "rated": r.rated,
            "rating": change,
            "club": r.club,
            "links": {
                "replay": f"/t/{r.table_id}?replay=1&seat={seat}",
                "review": f"/t/{r.table_id}?replay=1&seat={seat}&review=1",
                "record": f"/api/tables/{r.table_id}/record",
            },
        }

    async def records(self, cookie: str | None) -> tuple[str, bytes]:
        """A zip of the records of the signed-in account's newest finished games (at most
        ``records_per_download``), one ``.toml`` each: the account's name and the zip."""
        account = await self.accounts.require(cookie)
        ids = await self.storage.call(
            self.store.table_ids, account.id, self.limits.records_per_download
        )
        stored = [await self.storage.call(self.storage.load, table_id) for table_id in ids]
        # replaying hundreds of games is heavy: a killable worker's, never the tables' CPU
        data = await self.lobby.workers.run(
            records_zip,
            [s for s in stored if s is not None],
            seconds=self.limits.records_seconds,
            limit="records_seconds",
            what="the download",
        )
        return account.name, data

    async def claim(self, cookie: str | None, seats: object) -> dict[str, Any]:
        """The signed-in account takes the seats it played as a guest (each a table's id and
        the seat's token): each one is claimed or refused with why."""
        account = await self.accounts.require(cookie)
        cap = self.limits.claims_at_once
        if not isinstance(seats, list) or not all(
            isinstance(s, dict)
            and set(s) == {"table", "token"}
            and isinstance(s["table"], str)
            and isinstance(s["token"], str)
            for s in seats
        ):
            raise ProtocolError(
                ErrorCode.MALFORMED,
                'seats: expected a list of {"table": ID, "token": TOKEN}, the seat tokens '
                "this browser kept",
            )
        if len(seats) > cap:
            raise LimitError("claims_at_once", f"{len(seats)} seats: at most {cap} in one request")
        claimed: list[dict[str, Any]] = []
        refused: list[dict[str, Any]] = []
        for item in seats:
            table_id, token = item["table"][:40], item["token"]
            why = await self._claim_one(account.id, table_id, token, claimed)
            if why is not None:
                refused.append({"table": table_id, "reason": why})
        return {"claimed": claimed, "refused": refused}

    async def _claim_one(
        self, account: str, table_id: str, token: str, claimed: list[dict[str, Any]]
    ) -> str | None:
        """Claims one seat; None, or why not."""
        if len(token) > MAX_TOKEN:
            return "this token opens no seat of the table"
        try:
            table = await self.lobby.get(table_id)
        except ProtocolError:
            return "no such table"
        seat = table.seating.seat_of(token)
        if seat is None:
            return "this token opens no seat of the table"
        held = table.seats[seat].account
        if held is not None and held != account:
            return "the seat is another account's"
        if held is None:

            def take() -> dict[str, Any] | None:  # again where another process wrote first
                now = table.seating.seat_of(token)
                if now is None or table.seats[now].account is not None:
                    return None
                seats = list(table.seats)
                old = seats[now]
                seats[now] = Seat(
                    old.name, old.token_hash, old.bot, takeover=old.takeover, account=account
                )
                return table.seating.meta_with(seats)

            async with table.authority.lock:
                if not await table.seating.change_meta(take):
                    return "the seat is another account's"
                table.seats[seat].account = account
        if table.state.is_over:
            await self.storage.call(
                self.store.add_results, results_of(table, self.settings.wall(), {seat})
            )
        claimed.append({"table": table.id, "seat": seat + 1, "finished": table.state.is_over})
        return None

    # profiles and leaderboards ------------------------------------------------------------

    async def profile(self, cookie: str | None, account_id: str) -> dict[str, Any]:
        """A player's games and wins per rule set and ratings per family with their history:
        for the account itself and the members of a club it belongs to."""
        me = await self.accounts.require(cookie)
        account_id = account_id[:100]
        if account_id != me.id and not await self.storage.call(
            self.store.share_a_club, me.id, account_id
        ):
            raise no_player(account_id)
        found = await self.storage.call(AccountStore(self.storage).by_id, account_id)
        if found is None:
            raise no_player(account_id)
        store, points = self.store, self.limits.rating_points
        ratings = await self.storage.call(store.ratings_of, account_id)
        families = []
        for family, rating in ratings.items():
            history = await self.storage.call(store.points, account_id, family, points)
            families.append(
                {
                    "family": family,
                    **_rating_json(rating),
                    "games": rating.games,
                    "points": [{"at": at, **_rating_json(r)} for at, r in history],
                }
            )
        return {
            "id": found.id,
            "name": found.name,
            "rules": [
                {"id": rid, "name": name, "games": games, "wins": wins}
                for rid, name, games, wins in await self.storage.call(store.per_rules, account_id)
            ],
            "ratings": families,
        }

    async def leaderboard(self, cookie: str | None, club_id: str | None) -> dict[str, Any]:
        """The best rated players of each family: a club's members (for its members only, with
        their account ids, for their profiles), or the server's (names and ratings only)."""
        club = None
        if club_id is not None:
            _, found = await self.clubs.member(cookie, club_id)
            club = found.id
        rows = await self.storage.call(self.store.leaderboard, club, self.limits.leaderboard_size)
        families: dict[str, list[dict[str, Any]]] = {}
        for family, account, name, rating in rows:
            entry: dict[str, Any] = {"name": name, **_rating_json(rating)}
            if club is not None:
                entry.update(id=account, games=rating.games)
            families.setdefault(family, []).append(entry)
        return {"families": [{"family": f, "players": p} for f, p in families.items()]}
