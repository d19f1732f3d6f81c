"""Criminal Poker through the ``yamen`` command: simulate, write records, replay them."""

import json

from typer.testing import CliRunner

from yamen.cli import app
from yamen.records import Record, replay

runner = CliRunner()


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_simulate_detective_games_as_json():
    result = run(
        "simulate", "criminal_poker", "-o", "players=5", "-o", "mode=detective",
        "-n", "50", "--seed", "1", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 50 and [line["seed"] for line in lines] == list(range(1, 51))
    for line in lines:
        assert sorted(line["places"]) == list(range(5))
        assert all(score in (0, 1) for score in line["scores"])
        assert line["places"][: len(line["winners"])] == line["winners"]


def test_records_replay_from_the_command_line(tmp_path):
    result = run(
        "simulate", "criminal_poker", "--players", "6", "-o", "mastermind=true",
        "-o", "antisocial=true", "-n", "5", "--seed", "3", "--records", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("criminal_poker-*.json"))
    assert len(files) == 5
    record = Record.load(files[0])
    assert record.options["players"] == 6 and record.options["mastermind"]
    assert replay(record).result() is not None
    shown = run("replay", str(files[0]))
    assert shown.exit_code == 0 and "culprits" in shown.stdout and "seats" in shown.stdout
    as_json = run("replay", str(files[0]), "--json")
    assert json.loads(as_json.stdout) == record.result


def test_bad_options_fail_cleanly():
    result = run("simulate", "criminal_poker", "-o", "mode=detective", "-o", "players=6")
    assert result.exit_code == 2 and "detective mode is for 3 to 5 players" in result.output
