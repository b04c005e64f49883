"""A game at a table, for the front ends: who sits where (people and bots), whose turn it
is to act (:mod:`~ninetynine.session.table`), and the terminal's game kept on disk between
runs (:mod:`~ninetynine.session.saves`)."""
