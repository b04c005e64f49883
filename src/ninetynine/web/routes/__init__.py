"""The web server's routes, one :class:`fastapi.APIRouter` a concern:

- :mod:`.tables`: the presets and config, creating, listing and joining tables, a table's
  summary and record;
- :mod:`.records`: a game step by step (replay) and beside the coach (review), of a
  finished table or an uploaded record;
- :mod:`.accounts`: accounts without passwords (passkeys, a recovery code, the session);
- :mod:`.sockets`: the WebSockets (a table's players and spectators, the lobby's feed);
- :mod:`.pages`: the client's page and its static files.

Each reaches the server's :class:`~ninetynine.web.lobby.Lobby` through :func:`.deps.lobby`.
Each HTTP route's documentation (its answer, refusals and body) is in
:data:`ninetynine.web.schema.ROUTES`, applied by ``@schema.route(router, "GET /path")``.
"""
