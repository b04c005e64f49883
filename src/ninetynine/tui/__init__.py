"""Front ends for playing at a terminal: the full-screen Textual game (:mod:`.app`) and
the ``--plain`` line mode (:mod:`.plain`). Both drive a :class:`ninetynine.session.table.Table`.

Textual is imported only by the modules that need it, never by this package itself.
"""
