"""The spectator delay: with a room's ``spectator_delay`` at N > 0, spectators (connections
with no seat) see the game in progress N actions behind, so none can relay the live table to a
player of a hidden-role game.

The rule: while a game is in progress, a spectator's table (its view, pending seats, totals,
history and ``seq``) is the game as it was at ``seq = max(0, live seq - N)``; it shows no
deadlines and no break between deals (both are live). An action makes the step ``seq - N``
visible to spectators, and they get its update (its events, its stand-in) then; an action that
makes no step visible (the first N) sends them nothing. When the game ends the delay lifts:
spectators get every step still held back, one update each, the last with the result. A seated
player sees the live game, always. What stays public while a game is played: that a room is
playing (its status), its seats and who is online, its chat, and when an action is taken (a
spectator's update comes then), never which.

The lagging state is a second :class:`~yamen.engine.State` of the same game, started from the
record and moved on by re-applying its recorded actions (``(seat, text)``, as a replay does):
each step costs one ``apply_text``, never a replay from the start. It is rebuilt only for a new
game (a new record) or a restarted room.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from yamen.engine import State
from yamen.records import Record
from yamen.server import frames, protocol
from yamen.server.match import Match


def behind(live: int, delay: int) -> int:
    """The action count spectators see when the game has had ``live`` actions."""
    return max(0, live - delay)


class Lag:
    """The game as spectators see it: a state kept behind the live one."""

    __slots__ = ("record", "state", "seq")

    def __init__(self) -> None:
        self.record: Record | None = None
        self.state: State | None = None
        self.seq = 0  # the record's actions applied to ``state``

    def at(self, record: Record, seq: int) -> State:
        """The game of ``record`` after its first ``seq`` actions (``seq`` never beyond what
        the record holds); the state is the lag's own: read it, do not change it."""
        if self.record is not record or self.state is None or seq < self.seq:
            self.record, self.state, self.seq = record, record.start(), 0
        state = self.state
        while self.seq < seq:
            seat, text = record.actions[self.seq]
            state.apply_text(seat, text)
            self.seq += 1
        return state


def totals(before: Sequence[Fraction], state: State) -> list[Fraction]:
    """The match totals as spectators see them: ``before`` (the totals before this game) and
    the lagging game's deals so far, or its result once it is over."""
    result = state.result()
    if result is not None:
        running: Sequence[Fraction] | None = result.scores
    else:
        running = state.running_scores()
    if running is None:
        return list(before)
    return [a + b for a, b in zip(before, running, strict=True)]


def table(match: Match, lag: Lag, seq: int, history: bool = False) -> protocol.SeatTable:
    """The game after ``seq`` actions as a spectator sees it (with the latest entries of its
    log up to there for a state frame: yamen/server/history.py): no live deadline or break;
    the totals of that moment."""
    current = match.current()
    before = match.scores
    if current.state.over:  # catching up: the match scores have this game's result already
        result = current.state.result()
        assert result is not None
        before = [a - b for a, b in zip(before, result.scores, strict=True)]
    state = lag.at(current.record, seq)
    part = match.log.tail(None, seq) if history else None
    return frames.seat_table(
        state,
        None,
        game_id=match.public_id,
        number=match.number,
        seq=seq,
        deadlines={},
        totals=totals(before, state),
        history=None if part is None else part.entries,
        history_before=None if part is None else part.before,
    )


def updates(match: Match, lag: Lag, held: int, step: int | None) -> list[str]:
    """What delayed spectators get when the live game's step ``step`` happened (0: the deal;
    None: no step, a break's news): the update of the step it made visible, if any; every
    step held back when the game just ended."""
    if step is None:
        return []
    if step == 0:
        shown = [0]
    elif match.playing:
        shown = [step - held] if step > held else []
    else:
        shown = list(range(behind(step - 1, held) + 1, step + 1))
    texts = []
    for seq in shown:
        events, why = match.log[seq]
        texts.append(frames.update(events, None, table(match, lag, seq), why))
    return texts
