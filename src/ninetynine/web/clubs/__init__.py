"""Clubs (issue 28): a named, private group of accounts joined by an invite link, with an owner
who renames it and removes members, and its own tables, which only its members may join or
watch. The rows are in :mod:`ninetynine.web.storage` (:mod:`.store`), the rules of who may do
what in :mod:`.service`, the HTTP API in :mod:`ninetynine.web.routes.clubs`."""
