"""Game records: a finished (or unfinished) game as JSON, and its replay.

A record is what the game is made of: the game's name, its options, its seed (or explicit
deal) and the actions in the game's own text notation. Replaying re-applies that log through
the same protocol every front uses, so a record doubles as an audit: a wrong action or a wrong
result is found, never silently accepted. The seed fixes every card dealt, so a record reveals
all hidden information: it is an after-game artefact, never something to show during play.

Only :mod:`yamen.engine` is used here; records know no game by name.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yamen.engine import Event, Game, State, game_names, get_game, new_game, new_seed
from yamen.errors import IllegalAction, NotationError, OptionsError, RecordError, shown
from yamen.table import Table

FORMAT = "yamen-record"
VERSION = 1
REQUIRED = ("format", "version", "game", "options", "seed", "deal", "actions")
OPTIONAL = ("result",)


class ReplayError(RecordError):
    """An action of a record that could not be replayed: which one, by whom, and why."""

    def __init__(self, index: int, seat: int, text: str, reason: str):
        self.index, self.seat, self.text, self.reason = index, seat, text, reason
        written = shown(text)
        super().__init__(f"action {index} (seat {seat}, {written}) cannot be replayed: {reason}")


class ResultMismatch(RecordError):
    """The replayed game did not end as the record says it did."""


@dataclass
class Record:
    """One game: everything needed to rebuild it, plus (optionally) how it ended.

    ``actions`` are ``(seat, text)`` pairs in the game's notation; ``result`` is
    ``Result.to_json()`` of the finished game, or ``None``."""

    game: str
    options: dict[str, Any]
    seed: int
    deal: Any = None
    actions: list[tuple[int, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "deal": self.deal,
            "actions": [[seat, text] for seat, text in self.actions],
        }
        if self.result is not None:
            data["result"] = self.result
        return data

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Check a record's shape and its game, options and deal; raise :class:`RecordError`."""
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, not {_json_type(data)}")
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise RecordError(f"missing key(s) {', '.join(missing)}")
        unknown = sorted(set(data) - set(REQUIRED) - set(OPTIONAL))
        if unknown:
            raise RecordError(f"unknown key(s) {', '.join(map(str, unknown))}")
        if data["format"] != FORMAT:
            raise RecordError(f"format is {shown(data['format'])}, expected {shown(FORMAT)}")
        version = data["version"]
        if type(version) is not int or version != VERSION:
            raise RecordError(f"unsupported record version {shown(version)} (this reads {VERSION})")
        _expect(data, "game", str, "a string")
        _expect(data, "options", dict, "an object")
        _expect(data, "seed", int, "a whole number")
        _expect(data, "actions", list, "a list")
        actions = [_action(i, a) for i, a in enumerate(data["actions"])]
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError(f"result must be an object or null, not {_json_type(result)}")
        game = _configured(data["game"], data["options"])
        record = cls(game.name, game.options, data["seed"], data["deal"], actions, result)
        _start(game, record)  # an explicit deal is only checked by starting the game
        return record

    def start(self) -> State:
        """The game's state before the first action."""
        return _start(_configured(self.game, self.options), self)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(record_text(self), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file; every problem is a :class:`RecordError` naming the file."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"{path}: cannot read: {exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{path}: not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
            ) from None
        try:
            return cls.from_json(data)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None


def _configured(game: str, options: dict[str, Any]) -> Game:
    if game not in game_names():
        raise RecordError(f"unknown game {shown(game)}; known: {', '.join(game_names())}")
    try:
        return get_game(game, options, stored=True)  # a record's options are a played game's
    except OptionsError as exc:
        raise RecordError(f"options: {exc}") from None


def _start(game: Game, record: Record) -> State:
    try:
        return game.new_state(record.seed, record.deal)
    except OptionsError as exc:
        raise RecordError(f"deal: {exc}") from None


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, int | float) else "this")


def _expect(data: dict, key: str, kind: type, wanted: str) -> None:
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"{key} must be {wanted}, not {_json_type(value)}")


def _action(index: int, entry: Any) -> tuple[int, str]:
    ok = (
        isinstance(entry, list)
        and len(entry) == 2
        and isinstance(entry[0], int)
        and not isinstance(entry[0], bool)
        and entry[0] >= 0
        and isinstance(entry[1], str)
    )
    if not ok:
        raise RecordError(f"action {index} must be [seat, text], not {json.dumps(entry)}")
    return entry[0], entry[1]


def record_text(record: Record) -> str:
    """A record as JSON text, one key and one action per line, so that records read and diff
    well."""

    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in record.to_json().items():
        if key == "actions" and value:
            value = "[\n" + ",\n".join(f"    {line(a)}" for a in value) + "\n  ]"
        else:
            value = line(value)
        lines.append(f"  {line(key)}: {value}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


class Recorder(Table):
    """Plays a game and writes every action down as it is applied: a :class:`Table` that
    starts the game and owns its record.

    It offers the protocol's ``pending``/``legal``/``apply``/``over``, so anything that drives a
    state (a random playout, a bot, a terminal client) can drive a recorder instead. The text of
    an action is taken before it is applied: the notation may depend on the state."""

    __slots__ = ()
    record: Record

    def __init__(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: Any = None,
    ):
        seed = new_seed() if seed is None else seed
        state = new_game(game, options, seed, deal)
        super().__init__(state, Record(game, dict(state.options), seed, deal))

    def apply_text(self, seat: int, text: str) -> list[Event]:
        """Apply an action written in the game's notation (``State.apply_text``); the record
        gets the game's own spelling of it."""
        text = self.state.check_text(seat, text)  # raises, and records nothing, when illegal
        events = self.state.apply_text(seat, text)
        self.record.actions.append((seat, text))
        return events

    def finish(self) -> Record:
        """The record, with the result filled in when the game is over."""
        result = self.state.result()
        self.record.result = None if result is None else plain(result.to_json())
        return self.record


def plain(data: Any) -> Any:
    """As it reads back from JSON (tuples become lists, keys strings), for comparing."""
    return json.loads(json.dumps(data))


def replay(record: Record) -> State:
    """Rebuild the game from its record; check the result when the record has one.

    Raises :class:`ReplayError` at the first action that cannot be read or is not legal, and
    :class:`ResultMismatch` when the game did not end as recorded."""
    state = record.start()
    for _step in steps(record, state):
        pass
    if record.result is not None:
        check_result(state, record.result)
    return state


def steps(record: Record, state: State) -> Iterator[tuple[int, str, list[Event]]]:
    """Play the record's actions on ``state`` (its start) one at a time, yielding each as
    ``(seat, text, events)`` once applied: for a front that shows a game move by move.
    Raises :class:`ReplayError` as :func:`replay` does; checks no result."""
    table = Table(state)
    for index, (seat, text) in enumerate(record.actions):
        try:
            events = table.act_text(seat, text)
        except (NotationError, IllegalAction) as exc:
            raise ReplayError(index, seat, text, f"{type(exc).__name__}: {exc}") from exc
        yield seat, text, events


def check_result(state: State, expected: dict[str, Any]) -> None:
    """Raise :class:`ResultMismatch` unless ``state`` is over with exactly ``expected``."""
    result = state.result()
    if result is None:
        raise ResultMismatch(
            f"the record has a result but the game is not over; seats {list(state.pending())} "
            "still owe a decision"
        )
    got = plain(result.to_json())
    if got != expected:
        keys = sorted(k for k in set(got) | set(expected) if got.get(k) != expected.get(k))
        diffs = "; ".join(
            f"{k}: recorded {_short(expected.get(k))}, replayed {_short(got.get(k))}" for k in keys
        )
        raise ResultMismatch(f"the replayed result differs from the record: {diffs}")


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."
