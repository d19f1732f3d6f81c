"""The ``yamen`` command, driven as a user would: simulate, write records, replay them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import typer.main
from typer.testing import CliRunner

from yamen.cli import app
from yamen.cli_options import option_value
from yamen.engine import game_names, game_type

runner = CliRunner()
KEYS = {"game", "seed", "places", "scores", "decisions", "winners"}


def run(*args: str):
    result = runner.invoke(app, list(args))
    # a traceback is a bug: every failure must be a clean exit with a message
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def test_games_lists_the_registry():
    result = run("games")
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.stdout.splitlines()]
    assert listed == game_names() and "baohuang" in listed


def test_simulate_json_prints_one_line_per_game():
    result = run("simulate", "baohuang", "-n", "3", "--seed", "5", "--json")
    assert result.exit_code == 0
    lines = json_lines(result.stdout)
    assert len(lines) == 3
    assert [line["seed"] for line in lines] == [5, 6, 7]
    for line in lines:
        assert set(line) == KEYS and line["game"] == "baohuang"
        assert sorted(line["places"]) == list(range(5)) and line["decisions"] > 0
        assert sum(line["scores"]) == 0  # every Baohuang deal is zero-sum
        assert set(line["winners"]) <= set(range(5))


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_json_lines_stay_on_stdout_when_stderr_is_a_terminal(tmp_path):
    """Rich's progress bar, on a terminal, would capture stdout unless told not to."""
    primary, secondary = os.openpty()
    args = [sys.executable, "-m", "yamen.cli", "simulate", "baohuang", "-n", "2", "--json"]
    with open(tmp_path / "out.jsonl", "w") as stdout:
        child = subprocess.Popen(args, stdout=stdout, stderr=secondary)
        os.close(secondary)
        while True:  # drain the terminal so that the child never blocks on it
            try:
                if not os.read(primary, 4096):
                    break
            except OSError:
                break
        assert child.wait(timeout=60) == 0
    os.close(primary)
    assert len(json_lines((tmp_path / "out.jsonl").read_text())) == 2


def test_simulate_is_reproducible_and_the_seed_matters():
    args = ["simulate", "baohuang", "-n", "2", "--variant", "japanese", "--json"]
    first = run(*args, "--seed", "1").stdout
    assert first == run(*args, "--seed", "1").stdout
    assert first != run(*args, "--seed", "2").stdout


def test_simulate_table_summarises(tmp_path):
    result = run("simulate", "baohuang", "-n", "2", "--seed", "0")
    assert result.exit_code == 0
    assert "baohuang: 2 games" in result.stdout and "decisions/s" in result.stdout
    assert "mean score" in result.stdout and "wins" in result.stdout


def test_simulated_records_replay_to_the_same_scores(tmp_path):
    result = run(
        "simulate",
        "baohuang",
        *("-n", "2", "--seed", "20", "-o", "deals=2", "--records", str(tmp_path), "--json"),
    )
    assert result.exit_code == 0
    lines = json_lines(result.stdout)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["baohuang-20.json", "baohuang-21.json"]
    for line in lines:
        replayed = run("replay", str(tmp_path / f"baohuang-{line['seed']}.json"), "--json")
        assert replayed.exit_code == 0, replayed.stderr
        got = json.loads(replayed.stdout)
        assert got["scores"] == line["scores"] and got["places"] == line["places"]
        assert got["winners"] == line["winners"] and len(got["deals"]) == 2


def test_replay_prints_result_and_details(tmp_path):
    run("simulate", "baohuang", "-n", "1", "--seed", "3", "--records", str(tmp_path))
    result = run("replay", str(tmp_path / "baohuang-3.json"))
    assert result.exit_code == 0
    for word in ("place", "seat", "score", "winner", "variant: shandong", "emperor", "totals"):
        assert word in result.stdout


@pytest.fixture
def corrupted(tmp_path):
    run("simulate", "baohuang", "-n", "1", "--seed", "9", "--records", str(tmp_path))
    path = tmp_path / "baohuang-9.json"
    data = json.loads(path.read_text())
    seat, _ = data["actions"][12]
    data["actions"][12] = [seat, "call 3S"]
    path.write_text(json.dumps(data))
    return path, seat


def test_replay_of_a_corrupted_record_names_the_action(corrupted):
    path, seat = corrupted
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert f"action 12 (seat {seat}, 'call 3S')" in result.stderr
    assert "IllegalAction" in result.stderr and result.stdout == ""


def test_replay_of_a_tampered_result_fails(tmp_path):
    run("simulate", "baohuang", "-n", "1", "--seed", "4", "--records", str(tmp_path))
    path = tmp_path / "baohuang-4.json"
    data = json.loads(path.read_text())
    data["result"]["winners"] = [] if data["result"]["winners"] else [0]
    path.write_text(json.dumps(data))
    result = run("replay", str(path), "--json")
    assert result.exit_code == 1 and "winners: recorded" in result.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON at line 1"),
        ("[]", "a record is a JSON object"),
        ('{"format": "yamen-record"}', "missing key(s) version"),
    ],
)
def test_replay_of_a_bad_file_is_a_clean_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert message in result.stderr and "bad.json" in result.stderr


def test_replay_of_a_missing_file(tmp_path):
    result = run("replay", str(tmp_path / "none.json"))
    assert result.exit_code == 1 and "cannot read" in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["simulate", "chess", "-n", "1"], "unknown game chess;"),
        (["simulate", "baohuang", "-n", "1", "-o", "deals=0"], "deals must be"),
        (["simulate", "baohuang", "-n", "1", "-o", "deals"], "is not key=value"),
        (["simulate", "baohuang", "-n", "1", "--variant", "nope"], "unknown variant 'nope'"),
        (["simulate", "baohuang", "-n", "0"], "-n"),
    ],
)
def test_simulate_refuses_bad_input(args, message, tmp_path):
    result = run(*args, "--records", str(tmp_path / "recs"))
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / "recs").exists()  # refused before any file is written


def test_option_values_read_as_json_when_they_can_and_a_choice_as_it_is():
    deals, variant = game_type("baohuang").declaration[1], game_type("baohuang").declaration[0]
    assert [option_value(deals, text) for text in ("3", "false", "null", "[1")] == [
        3,
        False,
        None,
        "[1",
    ]
    assert option_value(None, "3") == 3  # an unknown name: the declaration refuses it later
    # given as a flag, a choice's value is its text
    assert option_value(variant, "3") == "3" and option_value(variant, "null") == "null"


def test_each_declared_option_is_a_flag(tmp_path):
    """--NAME VALUE, --NAME=VALUE, a dash for an underscore, a bool alone (true) or as
    --no-NAME (false): the options the game is given, as its record keeps them."""
    args = ["simulate", "criminal_poker", "-n", "1", "--records", str(tmp_path)]
    more = ["--mode", "detective", "--players=5", "--mastermind", "--no-antisocial"]
    assert run(*args, *more).exit_code == 0
    options = json.loads((tmp_path / "criminal_poker-0.json").read_text())["options"]
    assert options["mode"] == "detective" and options["players"] == 5
    assert options["mastermind"] is True and options["antisocial"] is False
    args = ["simulate", "bao_qingtian", "-n", "1", "--records", str(tmp_path)]
    assert run(*args, "--find-by-drawing", "true", "--players", "12").exit_code == 0
    options = json.loads((tmp_path / "bao_qingtian-0.json").read_text())["options"]
    assert options == {"players": 12, "find_by_drawing": True}


@pytest.mark.parametrize(
    "args, message",
    [
        # a typo of a command's flag is told apart from a game's option, naming both
        (["--recrds", "x"], "--recrds is not a flag of"),
        (["--recrds", "x"], "nor an option of baohuang (its options as flags: --variant, --deals"),
        (["--no-variant"], "--no-variant is not a flag of"),  # not a bool
        (["--variant"], "--variant needs a value"),
        (["japanese"], "unexpected argument 'japanese'"),
        (["--variant", "japanese", "-o", "variant=shandong"], "variant is given twice"),
        (["--deals", "0"], "deals must be"),  # the declaration's own words, as for --option
        (["--variant", "3"], "unknown variant '3'"),  # a choice's value is never a number
    ],
)
def test_bad_option_flags_are_refused_clearly(args, message):
    result = run("simulate", "baohuang", "-n", "1", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split()), result.stderr


def test_a_flag_before_the_game_is_refused():
    result = run("simulate", "--variant", "japanese", "baohuang")
    assert result.exit_code == 2 and "name the game first" in result.stderr


def test_the_cli_bakes_in_no_game_option():
    """A game's options reach each command from its declaration, never as flags of its own;
    the one name shared is the tournament's own --deals (a game's deals go by --option)."""
    names = {option.name for game in game_names() for option in game_type(game).declaration}
    command = typer.main.get_command(app)
    for name in ("simulate", "tournament", "play", "train"):
        flags = {flag for param in command.commands[name].params for flag in param.opts}
        assert {f"--{n}" for n in names} & flags <= {"--deals"}, name
        assert {"--option", "--preset"} <= flags, name


def test_help_points_to_the_game_options():
    result = run("tournament", "--help")
    assert result.exit_code == 0 and "--NAME VALUE" in result.stdout


@pytest.mark.parametrize("game", game_names())
def test_replay_steps_prints_the_game_move_by_move(tmp_path, game):
    run("simulate", game, "-n", "1", "--seed", "4", "--records", str(tmp_path))
    path = tmp_path / f"{game}-4.json"
    actions = json.loads(path.read_text())["actions"]
    result = run("replay", str(path), "--steps")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for number, (seat, text) in enumerate(actions, 1):
        assert f"{number}. seat {seat}: {text}" in lines
    events = [line for line in lines if line.startswith("  ") and not line.startswith("   ")]
    assert events and not [line for line in events if line.endswith("...")]
    assert "place" in result.stdout  # the result still follows
    quiet = run("replay", str(path), "--steps", "--json")
    assert json.loads(quiet.stdout)["places"]  # stdout stays JSON; the steps go to stderr
    assert "1. seat" in quiet.stderr


@pytest.mark.parametrize(
    ("args", "shown", "hidden"),
    [
        (["-o", "variant=null"], "unknown variant null", "None"),
        (["-o", "variant=[1,2]"], "unknown variant [1, 2]", "None"),
        (["-o", "nope=1"], "unknown option(s) nope; known: ", "['"),  # names: sorted
    ],
)
def test_errors_show_values_plainly(args, shown, hidden):
    result = run("simulate", "baohuang", "-n", "1", *args)
    assert result.exit_code == 2 and shown in result.stderr
    assert hidden not in result.stderr


def test_a_bad_record_version_is_shown_as_written(tmp_path):
    run("simulate", "baohuang", "-n", "1", "--seed", "3", "--records", str(tmp_path))
    path = tmp_path / "baohuang-3.json"
    data = json.loads(path.read_text())
    data["version"] = None
    path.write_text(json.dumps(data))
    result = run("replay", str(path))
    assert result.exit_code == 1 and "unsupported record version null" in result.stderr


def test_play_says_how_to_deal_the_same_cards_with_the_same_options():
    args = ["play", "baohuang", "--seed", "1", "--bots", "random", "--variant", "japanese"]
    result = runner.invoke(app, [*args, "--no-tribute"], input="")  # leaves at once
    assert result.exit_code == 0, result.output
    again = "`yamen play baohuang --seed 1 --variant japanese --tribute false`"
    assert again in " ".join(result.stdout.split())
