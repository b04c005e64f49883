"""A table of the web server, one module a concern, as game servers split them (e.g.
boardgame.io's master, transport and storage):

- :mod:`.seating`: the seats, their tokens and names, who is connected, the metadata;
- :mod:`.fanout`: the connections, one frame per seat, the log, chat and notes;
- :mod:`.clock`: the turn clock and the grace periods;
- :mod:`.authority`: the match and the one way a move is made (check, store, apply, send);
- :mod:`.sharing`: what other processes serving the table do (presence, lease, moves);
- :mod:`.bots`: the seats' bots, the stand-ins and the pump that moves them;
- :mod:`.coaching`: the coach's figures at the table;
- :mod:`.room`: :class:`~ninetynine.web.table.room.Table`, the composition of them all.

Each part is given the parts listed before it; the few calls the other way (let the bots
move, the game is over, another process's seats were adopted) are callables that the
:class:`~ninetynine.web.table.room.Table` wires in, so no module imports one above it.
"""
