"""Presets: named bundles of a game's options, declared beside them. Every preset of every
game is a playable game as its declaration reads it, names only declared options, and is
served with the game's type; an unknown preset is refused naming the known ones."""

from __future__ import annotations

import json

import pytest

from yamen.engine import game_names, game_type, get_game
from yamen.errors import OptionsError
from yamen.options import Option, Preset, preset_options, refuse_where_not_applying


@pytest.mark.parametrize("name", game_names())
def test_every_preset_is_a_playable_game(name):
    kind = game_type(name)
    declared = {option.name for option in kind.declaration}
    assert len({p.name for p in kind.presets}) == len(kind.presets)  # names are ids: unique
    for preset in kind.presets:
        assert preset.name.isidentifier() and preset.label
        assert set(preset.options) <= declared, preset.name
        game = get_game(name, dict(preset.options))  # the declaration and the game's own checks
        assert {k: game.options[k] for k in preset.options} == dict(preset.options)
        game.new_state(seed=1)
    served = json.loads(json.dumps(kind.type_json()))["presets"]
    assert served == [
        {"name": p.name, "label": p.label, "options": dict(p.options)} for p in kind.presets
    ]


def test_the_first_preset_of_a_game_with_presets_is_its_defaults():
    """The lobby opens on the defaults, which show as the first preset."""
    for name in game_names():
        kind = game_type(name)
        if kind.presets:
            assert get_game(name, dict(kind.presets[0].options)).options == get_game(name).options


def test_presets_are_looked_up_by_name():
    presets = (Preset("a", "A", {"x": 1}), Preset("b", "B", {"x": 2}))
    found = preset_options(presets, "b")
    assert found == {"x": 2}
    found["x"] = 3  # a fresh dict: the declared preset is unchanged
    assert presets[1].options == {"x": 2}
    with pytest.raises(OptionsError, match="unknown preset 'c'; known: a, b") as caught:
        preset_options(presets, "c")
    assert caught.value.reason == "preset"


def test_an_option_asked_where_it_does_not_apply_is_refused_unless_default():
    declaration = (
        Option("mode", "choice", "one", "Mode", choices=("one", "two")),
        Option("extra", "bool", True, "Extra", applies=("mode", "two")),
    )
    refuse_where_not_applying(declaration, {"extra": True}, {"mode": "one"}, ["extra"])
    refuse_where_not_applying(declaration, {"extra": False}, {"mode": "two"}, ["extra"])
    with pytest.raises(OptionsError, match="extra applies only where mode is 'two'") as caught:
        refuse_where_not_applying(declaration, {"extra": False}, {"mode": "one"}, ["extra"])
    assert caught.value.reason == "applies"
    assert caught.value.params == {"option": "extra", "other": "mode", "value": "two"}
