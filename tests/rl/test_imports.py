"""numpy stays out of the games: the engine, every game and its bots load and play without it,
and only an RL environment or a learned bot imports a game's encoder (Game.encoder names it as
data)."""

from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT

PLAY_EVERY_GAME = """
import sys
from yamen.engine import game_names, get_game
from yamen.selfplay import play_random
import random, yamen.bots
for name in game_names():
    state = get_game(name).new_state(1)
    state.view(0)
    play_random(state, random.Random(1))
assert "numpy" not in sys.modules, "numpy was imported"
import yamen.rl
assert "numpy" in sys.modules
"""


def test_games_play_without_numpy():
    done = subprocess.run(
        [sys.executable, "-c", PLAY_EVERY_GAME], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
