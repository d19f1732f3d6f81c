"""The Bao Qing-tian trial through the ``yamen`` command: simulate, write records, replay."""

import json

from typer.testing import CliRunner

from yamen.cli import app
from yamen.records import Record, replay

runner = CliRunner()


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def test_simulate_twelve_seats_as_json():
    result = run(
        "simulate", "bao_qingtian", "-o", "players=12", "-n", "50", "--seed", "1", "--json"
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 50
    for line in lines:
        assert sorted(line["places"]) == list(range(12))
        assert sum(1 for score in line["scores"] if score != 0) <= 1
        assert line["places"][: len(line["winners"])] == line["winners"]


def test_records_replay_from_the_command_line(tmp_path):
    result = run(
        "simulate", "bao_qingtian", "--players", "50", "-o", "find_by_drawing=true",
        "-n", "3", "--seed", "7", "--records", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("bao_qingtian-*.json"))
    assert len(files) == 3
    for path in files:
        record = Record.load(path)
        assert replay(record).result().to_json() == record.result
    shown = run("replay", str(files[0]))
    assert shown.exit_code == 0, shown.output
    assert "sentence" in shown.stdout and "verdict" in shown.stdout
    as_json = run("replay", str(files[0]), "--json")
    assert json.loads(as_json.stdout) == Record.load(files[0]).result
    assert run("simulate", "bao_qingtian", "--players", "2").exit_code == 2
