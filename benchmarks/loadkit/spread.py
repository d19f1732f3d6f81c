"""Where each room starts: at a random moment of a site that has been playing for a while.

Rooms that all begin their first game together also end it together: 1,000 Baohuang rooms at
human pace finish within a few minutes of each other, about 16 minutes in (472 actions a game
on average, at 2 s an action), four or more games ending and rematched a second where the
steady rate is one (rooms / a game's mean length in seconds). A window that meets that wave
measures the wave, not what it was meant to. A site that has been running has its rooms
spread over their games, so before the windows each room plays, at bot pace, the actions that
bring it to such a moment (loadkit/generator.py: ``LoadRoom.forward``).

A random moment falls in a game with a chance in proportion to its length, at a uniformly
random point of it (the inspection paradox: it lands in a long game more often than in a short
one). So :func:`starting_points` plays random self-play games of the same options with the
engine, whose lengths are those of the rooms' games (the rooms play uniformly random legal
actions too), and gives each room the index, within its game, of a decision drawn uniformly
from all of theirs: how many actions that room plays first.
"""

from __future__ import annotations

import bisect
import itertools
import random
from typing import Any

GAMES = 50  # self-play games whose lengths the rooms' starting points are drawn from


def game_lengths(game: str, options: dict[str, Any], seed: int, games: int = GAMES) -> list[int]:
    """The decisions of ``games`` random self-play games of ``game`` with ``options``."""
    from yamen.engine import get_game
    from yamen.selfplay import play_random

    kind, rng = get_game(game, options), random.Random(seed)
    return [play_random(kind.new_state(seed + i), rng) for i in range(games)]


def starting_points(lengths: list[int], rooms: int, rng: random.Random) -> list[int]:
    """For each room, the actions it plays before the windows: the index, within its game, of
    a decision drawn uniformly from all the games' decisions."""
    ends = list(itertools.accumulate(lengths))
    points = []
    for _ in range(rooms):
        decision = rng.randrange(ends[-1])
        game = bisect.bisect_right(ends, decision)
        points.append(decision - (ends[game - 1] if game else 0))
    return points
