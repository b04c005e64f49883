"""Play in the browser: ``ninetynine serve`` (FastAPI + WebSockets, SQLite or PostgreSQL).

The server holds every game; each client only ever receives its own seat's view.
Heavy imports (fastapi) live in :mod:`ninetynine.web.app` and its routes
(:mod:`ninetynine.web.routes`), imported only by the server; a table's parts are in
:mod:`ninetynine.web.table`.
"""
