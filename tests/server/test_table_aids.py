"""The room setting ``table_aids`` (a game's table aids, such as Baohuang's card counter): on by
default, true or false only, stored and passed on with the room's settings; a stored value
that does not pass falls back to on. The server names no game for it."""

from __future__ import annotations

import pytest

from yamen.errors import OptionsError
from yamen.server.settings import SCHEMA, Settings


def test_table_aids_are_on_unless_turned_off():
    assert Settings.read({}, "baohuang").table_aids is True
    off = Settings.read({"table_aids": False}, "criminal_poker")
    assert off.table_aids is False
    assert off.to_json()["table_aids"] is False  # passed on with the room's settings


@pytest.mark.parametrize("value", [1, 0, "yes", None, [True]])
def test_table_aids_take_only_true_or_false(value):
    with pytest.raises(OptionsError) as caught:
        Settings.read({"table_aids": value}, "baohuang")
    assert caught.value.reason == "setting_switch"
    assert caught.value.params == {"setting": "table_aids"}


def test_a_stored_bad_value_falls_back_to_on():
    assert Settings.stored({"table_aids": "off", "deal_pause": 5}, "baohuang").table_aids is True
    assert Settings.stored({"table_aids": False}, "baohuang").table_aids is False


def test_the_schema_names_no_game():
    rule, what = SCHEMA["table_aids"]
    assert "card counter" in what and "baohuang" not in what.lower()
