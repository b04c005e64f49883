"""Finished games remembered per account: their results, the ratings they move, the
profiles and leaderboards built from them, a download of every record, and a guest's seats
claimed by the account they create (:mod:`.service`; the SQL in :mod:`.store`)."""
