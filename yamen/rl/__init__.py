"""Reinforcement learning: every game that declares an observation encoder as a PettingZoo
environment (:func:`env`, :func:`raw_env`) and a Gymnasium single-seat environment
(:class:`SingleAgentEnv`, the other seats played by Yamen's bots), and N games stepped per call
into arrays (:func:`vector_env`). docs/rl.md says how.

Needs the ``rl`` extra (``pip install -e '.[rl]'``: pettingzoo, gymnasium, numpy). Importing
this package registers each such game with PettingZoo's registry, where the installed
PettingZoo has one (1.27 has), as ``yamen/<game>-v0``:
``pettingzoo.make("aec", "yamen/<game>-v0", variant=...)``.
"""

from __future__ import annotations

from yamen.bots.encoding import Encoder, encoder_class, encoder_for
from yamen.engine import game_names, game_type
from yamen.rl.env import env, raw_env
from yamen.rl.single import SingleAgentEnv
from yamen.rl.vector import VectorEnv, VectorStep, vector_env

__all__ = [
    "Encoder",
    "SingleAgentEnv",
    "VectorEnv",
    "VectorStep",
    "encoder_class",
    "encoder_for",
    "env",
    "learnable_games",
    "raw_env",
    "registered_ids",
    "vector_env",
]


def learnable_games() -> list[str]:
    """The registered games that declare an encoder: the ones with environments."""
    return [name for name in game_names() if game_type(name).encoder is not None]


def registered_ids() -> list[str]:
    """Register every learnable game with PettingZoo's registry, once (where the installed
    version has one; where it has none this registers nothing); the ids."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:
        return []
    ids = []
    for name in learnable_games():
        ids.append(f"yamen/{name}-v0")
        if ids[-1] not in aec_registry:
            register("aec", ids[-1], entry_point="yamen.rl.env:env", kwargs={"game": name})
    return ids


REGISTERED = registered_ids()
