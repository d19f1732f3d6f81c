"""A bot's answer reaches the table at a time that says nothing of its hand.

A spectator times every bot move (the gap between the update that asked and the update that
answered) and the test asks whether those times tell the moves where the bot had a choice
(more than one legal action: it held something that could be played) from those where it had
none. For every bot of every game the two groups must not be told apart: neither almost
always slower (a rank statistic, robust to a loaded machine's outliers) by more than a few
milliseconds (the medians). A search bot that answers a forced pass at once and thinks about a
real choice fails it clearly.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import pytest

from yamen.bots import bot_names
from yamen.engine import game_names, get_game, new_game
from yamen.server.operations import SetBot, Start
from yamen.server.registry import Rooms
from yamen.server.storage import Store
from yamen.server.thinking import Thinker

DECISIONS = 40  # bot moves timed per bot
BOT_DELAY = 0.05
THINK = 0.03  # the server's budget for a bot that thinks
SLACK = 0.05
SKIP = 1  # the first move (a game just started) is not counted


class Spectator:
    """A connection that notes when each update frame came and the action count it shows."""

    def __init__(self) -> None:
        self.player, self.seat = None, None
        self.updates: list[tuple[float, int, int]] = []  # (time, game id, action count)
        self.arrived = asyncio.Event()

    def send(self, text: str) -> None:
        frame = json.loads(text)
        table = frame.get("table")
        if frame["type"] == "update" and table is not None:
            self.updates.append((time.monotonic(), table["game_id"], table["seq"]))
            self.arrived.set()


def choices(record) -> list[int]:
    """How many legal actions the seat to act had before each action of a record."""
    state = new_game(record.game, record.options, record.seed)
    sizes = []
    for seat, text in record.actions:
        sizes.append(len(state.legal(seat)))
        state.apply_text(seat, text)
    return sizes


def auc(slow: list[float], fast: list[float]) -> float:
    """The chance that a time of ``slow`` is above one of ``fast`` (0.5: no difference)."""
    wins = sum((a > b) + 0.5 * (a == b) for a in slow for b in fast)
    return wins / (len(slow) * len(fast))


async def timed_moves(tmp_path, game: str, bot: str) -> list[tuple[float, int]]:
    """(seconds the move took as the spectator saw it, legal actions the bot had) per move."""
    store = Store(f"sqlite:///{tmp_path / 'timing.db'}")
    await store.open()
    await store.add_player("p", "P", "token")
    thinker = Thinker(workers=1, seconds=THINK, slack=SLACK)
    state = new_game(game, {}, seed=1)
    seat = state.pending()[0]  # the worker reads the bot's modules before the clock runs
    await thinker.decide(game, bot, state.view(seat), state.legal(seat), 1)
    settings = {"bot_delay": BOT_DELAY, "turn_seconds": None, "away_seconds": 3600}
    rooms = Rooms(store, thinker)
    room = await rooms.create("p", get_game(game), True, settings)
    for seat in range(len(room.seats)):
        await room.run(SetBot("p", seat, bot))
    spectator = Spectator()
    await room.attach(spectator)
    records = {}
    try:
        async with asyncio.timeout(120):
            while sum(len(r.actions) for r in records.values()) < DECISIONS + SKIP:
                if not room.playing:
                    await room.run(Start("p"))
                    records[room.match.public_id] = room.match.record
                spectator.arrived.clear()
                await spectator.arrived.wait()
    finally:
        await rooms.close()
        thinker.close()
        await store.close()
    sizes = {gid: choices(r) for gid, r in records.items()}
    moves = []
    updates = spectator.updates
    for (t0, gid0, seq0), (t1, gid1, seq1) in zip(updates, updates[1:], strict=False):
        if gid0 == gid1 and seq1 == seq0 + 1:  # one move, asked by the update before it
            moves.append((t1 - t0, sizes[gid1][seq0]))
    return moves[SKIP:]


def split(moves: list[tuple[float, int]]) -> tuple[list[float], list[float]]:
    """The times of moves with more legal actions and with fewer: a forced move against a
    choice where both are common, else wider against narrower choices (the most even cut)."""
    sizes = sorted({n for _, n in moves})
    cuts = [(abs(2 * sum(n <= c for _, n in moves) - len(moves)), c) for c in sizes[:-1]]
    if not cuts:
        return [], []
    forced = sum(n == 1 for _, n in moves)
    cut = 1 if min(forced, len(moves) - forced) >= 5 else min(cuts)[1]
    return [t for t, n in moves if n > cut], [t for t, n in moves if n <= cut]


BOTS = [(game, bot) for game in game_names() for bot in bot_names(game)]


@pytest.mark.parametrize(("game", "bot"), BOTS)
def test_a_bots_timing_does_not_tell_whether_it_had_a_choice(tmp_path, game, bot):
    moves = asyncio.run(timed_moves(tmp_path, game, bot))
    wide, narrow = split(moves)
    if min(len(wide), len(narrow)) < 5:
        pytest.skip(f"{game}/{bot}: too few moves on one side ({len(wide)}, {len(narrow)})")
    told = auc(wide, narrow)
    gap = statistics.median(wide) - statistics.median(narrow)
    leaks = (told > 0.75 or told < 0.25) and abs(gap) > 0.02
    assert not leaks, (
        f"{game}/{bot}: moves with a choice take {gap * 1000:+.0f} ms (median) and are told "
        f"apart with AUC {told:.2f} ({len(wide)} with, {len(narrow)} without)"
    )
