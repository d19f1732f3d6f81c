"""Records: written while playing, saved, loaded, replayed, and every kind of bad record refused
with a message that says what is wrong."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from yamen import engine
from yamen.engine import Game, Result, State, new_game
from yamen.errors import IllegalAction, NotationError, RecordError
from yamen.options import Option
from yamen.records import Record, Recorder, ReplayError, ResultMismatch, record_text, replay
from yamen.selfplay import play_random, random_policy_rng

GAME = "baohuang"


def simulated(seed: int, **options) -> Record:
    recorder = Recorder(GAME, options, seed)
    play_random(recorder, random_policy_rng(seed, 0))
    return recorder.finish()


@pytest.fixture(scope="module")
def record() -> Record:
    return simulated(3, variant="shandong", grabbing=False)


def first_play_index(record: Record) -> int:
    """The index of the first set played (a play-phase action that is not a word)."""
    return next(i for i, (_, text) in enumerate(record.actions) if text.split()[0][0].isdigit())


@pytest.mark.parametrize(
    "seed, options",
    [
        (3, {"variant": "shandong", "grabbing": False}),
        (4, {"variant": "shandong", "deals": 2}),
        (5, {"variant": "japanese", "deals": 3}),
    ],
)
def test_replay_rebuilds_the_same_game(seed, options):
    recorder = Recorder(GAME, options, seed)
    play_random(recorder, random_policy_rng(seed, 0))
    record = recorder.finish()
    assert record.result is not None and record.result["scores"]
    again = Record.from_json(json.loads(record_text(record)))
    state = replay(again)
    assert state.over
    assert state.result().to_json() == recorder.state.result().to_json()
    assert state.view(None) == recorder.state.view(None)
    assert [state.view(s)["hand"] for s in range(5)] == [
        recorder.state.view(s)["hand"] for s in range(5)
    ]


def test_record_holds_normalized_options_and_seed(record):
    data = record.to_json()
    assert data["format"] == "yamen-record" and data["version"] == 1
    assert data["game"] == GAME and data["seed"] == 3 and data["deal"] is None
    assert data["options"] == new_game(GAME, {"grabbing": False}, 0).options
    assert all(isinstance(s, int) and isinstance(t, str) for s, t in data["actions"])


def test_same_seeds_give_the_same_record():
    assert simulated(11).actions == simulated(11).actions
    assert simulated(11).actions != simulated(12).actions


def test_save_load_round_trip(tmp_path, record):
    path = tmp_path / "game.json"
    record.save(path)
    assert Record.load(path) == record
    lines = path.read_text().splitlines()
    assert f'    [{record.actions[0][0]}, "{record.actions[0][1]}"],' in lines  # one per line
    assert json.loads(path.read_text()) == record.to_json()


def test_a_record_without_result_replays_to_where_it_stopped(record):
    partial = Record(record.game, record.options, record.seed, None, record.actions[:20])
    state = replay(Record.from_json(partial.to_json()))
    assert not state.over and "result" not in partial.to_json()


def test_explicit_deal_is_recorded_and_replayed():
    hands = [new_game(GAME, {}, 42).view(s)["hand"] for s in range(5)]
    deal = [" ".join(h) for h in hands]
    recorder = Recorder(GAME, {}, 7, deal)
    assert [recorder.state.view(s)["hand"] for s in range(5)] == hands
    play_random(recorder, random.Random(0))
    record = Record.from_json(json.loads(record_text(recorder.finish())))
    assert record.deal == deal
    assert replay(record).result().to_json() == record.result


def test_a_deal_that_is_not_the_deck_is_refused():
    hands = [new_game(GAME, {}, 42).view(s)["hand"] for s in range(5)]
    data = simulated(1).to_json()
    data["deal"] = [" ".join(h) for h in hands[:4]] + [" ".join(hands[4][1:])]
    with pytest.raises(RecordError, match="deal.*not exactly the deck"):
        Record.from_json(data)


def test_recorder_writes_nothing_for_a_refused_action():
    recorder = Recorder(GAME, {"grabbing": False}, 1)
    seat = recorder.pending()[0]
    idle = (seat + 1) % 5
    with pytest.raises(IllegalAction):
        recorder.apply(idle, recorder.state.legal(seat)[0])
    assert recorder.record.actions == []
    assert recorder.finish().result is None


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda seat, text: ((seat + 1) % 5, text), "NotYourTurn"),
        (lambda seat, text: (seat, "9X 9X"), "NotationError"),
        (lambda seat, text: (seat, "call 3S"), "IllegalAction"),
    ],
)
def test_a_bad_action_is_named_by_index_seat_and_text(record, change, reason):
    k = first_play_index(record) + 3
    actions = list(record.actions)
    actions[k] = change(*actions[k])
    bad = Record(record.game, record.options, record.seed, None, actions, record.result)
    with pytest.raises(ReplayError) as caught:
        replay(bad)
    exc = caught.value
    assert (exc.index, exc.seat, exc.text) == (k, *actions[k])
    assert exc.reason.startswith(reason)
    assert f"action {k} (seat {actions[k][0]}, {actions[k][1]!r})" in str(exc)


def test_an_action_after_the_end_is_refused(record):
    extra = Record(record.game, record.options, record.seed, None, [*record.actions, (0, "pass")])
    with pytest.raises(ReplayError) as caught:
        replay(extra)
    assert caught.value.index == len(record.actions)


def test_a_result_for_an_unfinished_game_is_refused(record):
    short = Record(record.game, record.options, record.seed, None, record.actions[:-1])
    short.result = record.result
    with pytest.raises(ResultMismatch, match="not over"):
        replay(short)


@pytest.mark.parametrize("key", ["scores", "winners", "deals"])
def test_a_tampered_result_is_detected(record, key):
    result = json.loads(json.dumps(record.result))
    if key == "scores":
        result["scores"][0] = result["scores"][0] + 1
    elif key == "winners":
        result["winners"] = [4] if result["winners"] != [4] else [0]
    else:
        result["deals"][0]["emperor"] = (result["deals"][0]["emperor"] + 1) % 5
    tampered = Record(record.game, record.options, record.seed, None, record.actions, result)
    with pytest.raises(ResultMismatch, match=f"{key}: recorded"):
        replay(tampered)


def test_bad_json_names_the_file_and_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format": "yamen-record",\n  "version": 1,,\n}\n')
    with pytest.raises(RecordError, match=r"broken\.json: not valid JSON at line 3"):
        Record.load(path)


def test_a_missing_file_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="nothing.json: cannot read"):
        Record.load(tmp_path / "nothing.json")


def test_load_names_the_file_for_a_bad_record(tmp_path, record):
    path = tmp_path / "bad.json"
    data = record.to_json()
    del data["seed"]
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"bad\.json: missing key\(s\) seed"):
        Record.load(path)


def _drop(key):
    def change(data):
        del data[key]

    return change


def _set(key, value):
    def change(data):
        data[key] = value

    return change


@pytest.mark.parametrize(
    "change, message",
    [
        (_drop("seed"), r"missing key\(s\) seed"),
        (_drop("actions"), r"missing key\(s\) actions"),
        (_set("extra", 1), r"unknown key\(s\) extra"),
        (_set("format", "pgn"), "format is 'pgn'"),
        (_set("version", 2), "unsupported record version 2"),
        (_set("version", "1"), "unsupported record version '1'"),
        (_set("game", "chess"), r"unknown game 'chess'; known: .*baohuang"),
        (_set("game", 3), "game must be a string"),
        (_set("seed", "7"), "seed must be a whole number, not a string"),
        (_set("seed", True), "seed must be a whole number"),
        (_set("options", []), "options must be an object"),
        (_set("options", {"deals": 0}), "options: deals must be"),
        (_set("options", {"colour": "red"}), "options: unknown option"),
        (_set("actions", {}), "actions must be a list"),
        (_set("actions", [[0, "pass"], [1]]), r"action 1 must be \[seat, text\]"),
        (_set("actions", [["0", "pass"]]), r"action 0 must be \[seat, text\]"),
        (_set("actions", [[-1, "pass"]]), r"action 0 must be \[seat, text\]"),
        (_set("result", [1]), "result must be an object or null"),
        (_set("deal", "9H"), "deal: an explicit deal is a list of five hands"),
    ],
)
def test_malformed_records_give_clear_errors(record, change, message):
    data = json.loads(json.dumps(record.to_json()))
    change(data)
    with pytest.raises(RecordError, match=message):
        Record.from_json(data)


def test_a_record_must_be_an_object():
    with pytest.raises(RecordError, match="a record is a JSON object, not a list"):
        Record.from_json([1, 2])


class RaceState(State):
    """A toy game for the records' own sake: two seats add 1-3 in turn, the first to reach the
    goal wins. An action is written as the total it reaches, so its text depends on the state."""

    game = "race"
    num_seats = 2

    def __init__(self, options, seed):
        self.options, self.seed, self.total = options, seed, 0
        self._pending, self._legal_cache, self._events = (seed % 2,), None, []

    def _legal_actions(self, seat):
        return [1, 2, 3]

    def _act(self, seat, action):
        self.total += action
        self._pending = () if self.total >= self.options["goal"] else (1 - seat,)
        self.turn = 1 - seat

    def view(self, seat=None):
        return {"total": self.total}

    def result(self):
        if not self.over:
            return None
        winner = 1 - self.turn
        third = Fraction(1, 3)
        scores = (2 * third, -2 * third) if winner == 0 else (-2 * third, 3 * third)
        return Result(scores, (winner, 1 - winner), (winner,), {"total": self.total})

    def action_text(self, action):
        return f"to {self.total + action}"

    def parse_action(self, seat, text):
        word, _, number = text.partition(" ")
        if word != "to" or not number.isdigit():
            raise NotationError(text, "write 'to N'")
        return int(number) - self.total

    def clone(self):
        return RaceState(self.options, self.seed)


class Race(Game):
    name = "race"
    title = "Race to a goal"
    seats = range(2, 3)
    declaration = (Option("goal", "whole", 10, "Total to reach", low=1, high=100),)

    def _configure(self, options, given):
        self._fix(num_seats=2, num_actions=4)

    def _new_state(self, options, seed, deal):
        return RaceState(options, seed)


@pytest.fixture
def race(monkeypatch):
    monkeypatch.setitem(engine.REGISTRY, "race", f"{__name__}:Race")


def test_records_work_for_any_registered_game(race):
    recorder = Recorder("race", {"goal": 12}, 5)
    for action in (3, 1, 2, 3, 3):
        recorder.apply(recorder.pending()[0], action)
    record = recorder.finish()
    assert record.actions == [(1, "to 3"), (0, "to 4"), (1, "to 6"), (0, "to 9"), (1, "to 12")]
    assert record.result["scores"] == ["-2/3", 1]  # exact: a fraction as "n/d"
    assert replay(Record.from_json(json.loads(record_text(record)))).view() == {"total": 12}


def test_action_text_is_taken_before_the_action_is_applied(race):
    recorder = Recorder("race", {}, 0)
    recorder.apply(0, 2)
    recorder.apply(1, 3)
    assert recorder.record.actions == [(0, "to 2"), (1, "to 5")]


def test_a_fractional_score_that_differs_is_detected(race):
    recorder = Recorder("race", {"goal": 3}, 0)
    recorder.apply(0, 3)
    record = recorder.finish()
    assert record.result["scores"] == ["2/3", "-2/3"]
    record.result["scores"] = ["1/3", "-2/3"]
    with pytest.raises(ResultMismatch, match=r'scores: recorded \["1/3", "-2/3"\], replayed'):
        replay(record)
