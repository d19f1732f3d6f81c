"""Every option of every game is bounded: no number makes a game endless or a table huge, no
string in options (a room's own Criminal Poker cards) grows without limit."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from yamen.engine import game_names, get_game
from yamen.errors import OptionsError

HUGE = [10**6, 10**12, -(10**12), 2**63]


def numeric_options() -> list[tuple[str, str]]:
    """(game, option) for every option whose default is a number or null (a number allowed)."""
    found = []
    for game in game_names():
        for key, value in get_game(game).options.items():
            if value is None or (isinstance(value, int) and not isinstance(value, bool)):
                found.append((game, key))
    return found


@pytest.mark.parametrize(("game", "key"), numeric_options())
def test_every_numeric_option_is_bounded(game, key):
    for value in HUGE:
        with pytest.raises(OptionsError, match=key):
            get_game(game, {key: value})


def test_baohuang_deals_are_at_most_fifty():
    assert get_game("baohuang", {"deals": 50}).options["deals"] == 50
    with pytest.raises(OptionsError, match="deals must be a whole number from 1 to 50"):
        get_game("baohuang", {"deals": 51})
    assert get_game("baohuang", {"target": 100}).options["deals"] == 50  # a target ends too


def default_cards() -> dict:
    text = resources.files("yamen.games.criminal_poker").joinpath("cards.json").read_text()
    return json.loads(text)


def cards_with(change) -> dict:
    cards = copy.deepcopy(default_cards())
    change(cards)
    return {"cards": cards}


def long_name(cards):
    cards["evidence"][0]["name"]["en"] = "x" * 100_000


def many_languages(cards):
    cards["evidence"][0]["name"].update({f"l{i}": "x" for i in range(1000)})


def long_language(cards):
    cards["evidence"][0]["name"]["x" * 1000] = "x"


def many_cards(cards):
    extra = [
        {"id": f"E{i}", "type": "witness", "innocence": 1, "name": {"en": "x"}}
        for i in range(10_000)
    ]
    cards["evidence"].extend(extra)


def many_identities(cards):
    extra = [{"id": f"I{i}", "role": "citizen", "name": {"en": "x"}} for i in range(10_000)]
    cards["identities"].extend(extra)


def long_id(cards):
    cards["evidence"][0]["id"] = "E" * 10_000


def huge_innocence(cards):
    cards["evidence"][0]["innocence"] = 10**12


@pytest.mark.parametrize(
    "change",
    [
        long_name,
        many_languages,
        long_language,
        many_cards,
        many_identities,
        long_id,
        huge_innocence,
    ],
)
def test_criminal_poker_cards_are_bounded(change):
    with pytest.raises(OptionsError, match="cards: "):
        get_game("criminal_poker", cards_with(change))


def test_criminal_poker_cards_nested_beyond_reading_are_refused():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(OptionsError, match="cards"):
        get_game("criminal_poker", {"cards": deep})


def test_the_default_cards_fit_the_bounds():
    game = get_game("criminal_poker", {"cards": default_cards()})
    assert game.num_seats == 5 and game.new_state(seed=1).num_seats == 5
