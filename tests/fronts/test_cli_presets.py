"""The CLI's presets: `yamen games GAME` lists a game's options and presets, and `--preset`
gives a preset's options to simulate, tournament and play, the options given overriding it."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from yamen.cli import app
from yamen.engine import game_names, game_type

runner = CliRunner()


def test_games_game_lists_its_options_and_presets():
    for game in game_names():
        result = runner.invoke(app, ["games", game])
        assert result.exit_code == 0, result.output
        for option in game_type(game).declaration:
            assert f"\n  {option.name} (" in result.stdout
        lines = [line.split() for line in result.stdout.splitlines()]
        for preset in game_type(game).presets:
            words = [preset.name, *preset.label.split()]
            assert words in [line[: len(words)] for line in lines]
    said = runner.invoke(app, ["games", "baohuang"]).stdout
    assert "japanese (168 cards: marked jokers choose emperor and guard)" in said
    assert runner.invoke(app, ["games", "nope"]).exit_code == 2


def test_simulate_takes_a_preset_under_the_options_given(tmp_path):
    args = ["simulate", "baohuang", "-n", "1", "--records", str(tmp_path), "--json"]
    result = runner.invoke(app, [*args, "--preset", "standard_168", "-o", "tribute=false"])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "baohuang-0.json").read_text())
    assert record["options"]["variant"] == "japanese" and record["options"]["tribute"] is False
    result = runner.invoke(app, [*args, "--preset", "standard_168", "--variant", "shandong"])
    assert json.loads((tmp_path / "baohuang-0.json").read_text())["options"]["variant"] == (
        "shandong"
    )


def test_an_unknown_preset_is_refused_naming_the_known():
    for command in (["simulate", "baohuang"], ["tournament", "baohuang", "--bots", "random"]):
        result = runner.invoke(app, [*command, "--preset", "nope"])
        assert result.exit_code == 2
        assert "unknown preset 'nope'; known: shandong_text, standard_168" in result.output
    result = runner.invoke(app, ["play", "baohuang", "--preset", "nope"], input="")
    assert result.exit_code == 2
