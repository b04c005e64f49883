"""The engine: one :class:`~ninetynine.engine.state.State` and the moves that change it.

The state is one class; its transitions are grouped by the part of a turn they hold, each
module building on the one before (``docs/engine.md`` has the phases and every transition):

=============  ===============================================================
``fields``     the fields of a state and the seat arithmetic (whose turn is next)
``deal``       cards on the move: the end of a turn, draws, reshuffles, deals, hands' ends
``penalties``  what a play costs: busts, lives, eliminations, thresholds, borders, 69
``state``      the :class:`State`: chance, the legal moves, playing a card, checking
=============  ===============================================================

Around it: ``actions`` (moves and chance outcomes as text), ``events`` (what happened,
public), ``tables`` (per-rules lookup tables for the fast path), ``game`` (start a game,
step, play out), ``view`` (what one seat may know) and ``options`` (what each card in a
hand would do now); ``ledger`` keeps what each seat pays, by cause, on the fast path.
"""
