"""Ninety-Nine for game-AI work (``pip install "ninetynine[rl]"``; see ``docs/ai.md``).

* :mod:`ninetynine.rl.encoding`: the canonical, versioned action index, legal-action masks
  and observations;
* :mod:`ninetynine.rl.pettingzoo`: a PettingZoo AEC environment;
* :mod:`ninetynine.rl.gymnasium`: a single-agent Gymnasium environment, registered as
  ``NinetyNine-v1`` (the encoding's version 2) and ``NinetyNine-v0`` (version 1) when
  this package is imported (the other seats are bots);
* :mod:`ninetynine.rl.openspiel`: the game for OpenSpiel, with chance nodes;
* :mod:`ninetynine.rl.batch`: a NumPy engine that steps thousands of games at once;
* :mod:`ninetynine.rl.jax`: the same on JAX, jit-compiled and vmapped (the ``jax`` extra);
* :mod:`ninetynine.rl.vector`: a Gymnasium vector environment on it, registered as
  ``NinetyNineVector-v1`` (``gymnasium.make_vec``), with batch bots
  (:mod:`ninetynine.rl.batch_bots`) or a batched policy in the other seats;
* :mod:`ninetynine.rl.policy`: a trained policy in a seat (:class:`PolicyBot`, the bot spec
  ``policy:MODULE:NAME``).

This is a front end: it imports the rules core and the bots, never the other way round.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401  (the encoding's arrays)
except ModuleNotFoundError as e:  # said once here, not by each module's first import
    raise ModuleNotFoundError(
        f'ninetynine.rl needs the rl extra: pip install "ninetynine[rl]" (no module {e.name!r})',
        name=e.name,
    ) from e

from ninetynine.rl.encoding import VERSION, VERSIONS, Encoding, encode, legal_mask

ENV_ID = "NinetyNine-v1"  # the encoding's version 2; NinetyNine-v0 keeps version 1

for _id, _version in (("NinetyNine-v0", 1), (ENV_ID, 2)):
    if _id not in gymnasium.registry:
        gymnasium.register(
            id=_id,
            entry_point="ninetynine.rl.gymnasium:NinetyNineGymEnv",
            kwargs={"version": _version},
        )
VECTOR_ENV_ID = "NinetyNineVector-v1"  # the encoding's version 2, on the batch engine
if VECTOR_ENV_ID not in gymnasium.registry:
    gymnasium.register(
        id=VECTOR_ENV_ID, vector_entry_point="ninetynine.rl.vector:NinetyNineVectorEnv"
    )

__all__ = ["ENV_ID", "VECTOR_ENV_ID", "VERSION", "VERSIONS", "Encoding", "encode", "legal_mask"]
