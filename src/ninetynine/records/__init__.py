"""Games written down: positions (a state a person can edit), records (a start and every
move, replayed exactly) and the :class:`~ninetynine.records.match.Match` that every front
end plays through, whose moves so far are its record."""
