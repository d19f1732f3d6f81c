"""The one runner every front plays through: check, text, hook, apply, record, events.

A front that moves a game on (a bot match, a tournament, the terminal, a record's replay, the
server's replays, a server room) does the same few steps for every action, in this order:

1. **check** that the seat owes a decision and the action is legal (nothing changes if not);
2. **text**: write the action in the game's notation, before it is applied, since the
   notation may depend on the state (a Bao Qing-tian judge's own words);
3. **hook**: hand the move to whoever must keep it first (the server's journal); a hook that
   raises stops the move there, and nothing is applied or recorded;
4. **apply** it to the state;
5. **record** ``(seat, text)`` in the record's actions;
6. return the **events** the state gave.

:meth:`Table.act` does all six. A front whose hook is asynchronous (a server room awaits its
journal, then acknowledges and broadcasts) calls the halves itself: :meth:`Table.prepare`
(steps 1-2), its own hook, then :meth:`Table.commit` (steps 4-5). A table with neither a record
nor a hook skips the text: ``State.apply`` checks by itself.

Random self-play on a bare state (:func:`yamen.selfplay.play_random`) does not come through
here: it applies millions of actions and needs no text, hook or record, and the state's own
``apply`` already checks; see the note there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from yamen.engine import Action, Event, State

if TYPE_CHECKING:
    from yamen.records import Record


class Move(NamedTuple):
    """An action checked for a seat, with its notation, not yet applied. A move given as text
    has no id (``action`` None): its text may carry more than an id can (a Bao Qing-tian
    judge's own words), so it is applied as text (``State.apply_text``)."""

    seat: int
    action: Action | None
    text: str


Hook = Callable[[Move], object]
"""Called with each move before it is applied; raising refuses the move (nothing changes)."""

Policy = Callable[[int], Action]
"""Chooses the action of the seat it is given (a bot, a random player, a script)."""


class Table:
    """A game being played: ``state``, the ``record`` it is written to (optional) and the
    ``before_apply`` hook (optional), moved on only through :meth:`act`.

    It offers the protocol's ``pending``/``legal``/``over`` and ``apply`` (the same as
    :meth:`act`), so whatever drives a state can drive a table instead."""

    __slots__ = ("state", "record", "before_apply")

    def __init__(
        self, state: State, record: Record | None = None, before_apply: Hook | None = None
    ):
        self.state, self.record, self.before_apply = state, record, before_apply

    def pending(self) -> tuple[int, ...]:
        return self.state.pending()

    def legal(self, seat: int) -> list[Action]:
        return self.state.legal(seat)

    @property
    def over(self) -> bool:
        return self.state.over

    def prepare(self, seat: int, action: Action) -> Move:
        """Check the action and write it down (steps 1-2); changes nothing. Raises what
        ``State.apply`` would raise."""
        state = self.state
        state.check(seat, action)
        return Move(seat, action, state.action_text(action))

    def prepare_text(self, seat: int, text: str) -> Move:
        """:meth:`prepare` for a move written in the game's notation: raises what
        ``State.apply_text`` would; the move carries the text as a record writes it."""
        return Move(seat, None, self.state.check_text(seat, text))

    def commit(self, move: Move) -> list[Event]:
        """Apply a prepared move and record it (steps 4-5); the events it gave. Nothing may
        move the game between :meth:`prepare` and this."""
        state = self.state
        if move.action is None:
            events = state.apply_text(move.seat, move.text)
        else:
            events = state.apply(move.seat, move.action)
        if self.record is not None:
            self.record.actions.append((move.seat, move.text))
        return events

    def act(self, seat: int, action: Action) -> list[Event]:
        """Check, write down, hand to the hook, apply, record; the events. Raises (and changes
        nothing) on an illegal action or when the hook raises."""
        state, record, hook = self.state, self.record, self.before_apply
        if record is None and hook is None:
            return state.apply(seat, action)  # checks first; there is nothing to write
        # prepare, hook and commit written out: a recorded playout (yamen simulate --records)
        # comes here once a decision, and the two calls and the Move cost it a tenth of its speed
        state.check(seat, action)
        text = state.action_text(action)
        if hook is not None:
            hook(Move(seat, action, text))
        events = state.apply(seat, action)
        if record is not None:
            record.actions.append((seat, text))
        return events

    apply = act  # the protocol's name: play_random and other drivers of a State call apply

    def act_text(self, seat: int, text: str) -> list[Event]:
        """:meth:`act` for a move written in the game's notation (not a hot path: prepare,
        hook and commit are called as they are)."""
        move = self.prepare_text(seat, text)
        if self.before_apply is not None:
            self.before_apply(move)
        return self.commit(move)

    def play(self, choose: Policy, max_decisions: int | None = None) -> int:
        """Ask ``choose`` for the first pending seat's action until the game is over (or
        ``max_decisions`` have been made); the number of decisions made."""
        state = self.state
        decisions = 0
        while not state.over and (max_decisions is None or decisions < max_decisions):
            seat = state.pending()[0]
            self.act(seat, choose(seat))
            decisions += 1
        return decisions
