"""How ``yamen replay`` shows a record: move by move (``--steps``), the result as a table, and
a game's own result details, all without knowing the game (its words come from
``Game.event_text``)."""

from __future__ import annotations

import json
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from yamen.engine import Event, Result, State, game_type, score_json, visible_to
from yamen.records import Record, check_result
from yamen.records import steps as record_steps
from yamen.terminal import event_line


def replay_steps(record: Record, console: Console) -> State:
    """Replay a record printing each action (number, seat, notation) and the public events it
    made, in the game's words (``Game.event_text``, as a spectator reads them); the state.
    ``console``: stdout, or stderr when stdout carries JSON."""
    state = record.start()
    words = game_type(record.game).event_text

    def show(events: list[Event]) -> None:
        public = visible_to(events, None)
        if public:
            view = state.view(None)
            for event in public:
                console.print(Text(event_line(words, event, None, view)), soft_wrap=True)

    show(state.opening_events)
    for number, (seat, text, events) in enumerate(record_steps(record, state), 1):
        console.print(Text(f"{number}. seat {seat}: {text}"), soft_wrap=True)
        show(events)
    if record.result is not None:
        check_result(state, record.result)
    return state


def result_table(record: Record, result: Result) -> Table:
    table = Table(
        title=f"{record.game} seed {record.seed}: {len(record.actions)} actions",
        box=box.SIMPLE_HEAD,
    )
    for name in ("place", "seat", "score", "winner"):
        table.add_column(name, justify="right")
    for place, seat in enumerate(result.places, 1):
        won = "yes" if seat in result.winners else ""
        table.add_row(str(place), str(seat), str(score_json(result.scores[seat])), won)
    return table


def detail(key: str, value: Any) -> Any:
    """A game's own result details, shown without knowing the game: a list of objects as a
    table, anything else as JSON."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        columns = list(dict.fromkeys(k for row in value for k in row))
        table = Table(title=key, box=box.SIMPLE_HEAD)
        for column in columns:
            table.add_column(str(column))
        for row in value:
            table.add_row(*(Text(cell(row.get(c))) for c in columns))
        return table
    return Text(f"{key}: {cell(value)}")


def cell(value: Any) -> str:
    """Compact text for a JSON value: a list of plain values as space-separated words."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and not any(isinstance(v, list | dict) for v in value):
        return " ".join(cell(v) for v in value) or "-"
    return json.dumps(value, ensure_ascii=False)
