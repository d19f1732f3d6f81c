"""Registering a game enrols it in every contract: the toy game (tests/toy_game.py), registered
by a fixture, is in every contract's cases (tests/conformance.py) and passes them; each of its
broken variants fails the contract it breaks. (``YAMEN_TOY_GAME=1`` puts it through the whole
suite instead.)"""

from __future__ import annotations

import random

import pytest

from tests import conformance
from tests.bots import test_registry
from tests.conformance import (
    Case,
    defaults,
    every_case,
    register,
    rulesets,
    served,
    table_sizes,
    under_each_choice,
)
from tests.core import test_games, test_notation_fuzz, test_table
from tests.fronts import test_terminal
from tests.games import test_phases, test_view_types
from tests.server import test_audit, test_frames, test_live
from tests.server.helpers import ServerThread
from tests.web import test_event_words, test_whole_deals
from yamen.engine import game_names, new_game

# each contract: the cases its module is parametrized with, and where they come from
CONTRACTS = {
    "random play ends": (test_games.CASES, every_case),
    "reading never changes the state": (test_games.CASES, every_case),
    "notation round-trips": (test_notation_fuzz.ROUND_TRIP, every_case),
    "any text is read or refused": (test_notation_fuzz.GAMES, rulesets),
    "views match their declared type": (test_view_types.CASES, every_case),
    "phases": (test_phases.CASES, rulesets),
    "records replay": (test_table.RECORDS, every_case),
    "the table runner": (test_table.GAMES, defaults),
    "terminal play": (test_terminal.GAMES, rulesets),
    "frames": (test_frames.GAMES, rulesets),
    "live play over the server": (test_live.GAMES, test_live.cases),
    "the leak audit": (test_audit.GAMES, served),
    "planted leaks": (test_audit.PLANTINGS, test_audit.plantings),
    "a whole game in the browser": (test_whole_deals.GAMES, defaults),
    "every event in words": (test_event_words.GAMES, under_each_choice),
    "every bot plays": (test_registry.GAMES, table_sizes),
}


def ids(cases: list) -> list[str]:
    """The ids of pytest parameters or cases, or the names of a list of games."""
    return [getattr(case, "id", case) for case in cases]


def game_of(case: Case | str | object) -> str:
    """The game of a case, of a pytest parameter (its first value naming one) or a name."""
    if isinstance(case, Case):
        return case.game
    if isinstance(case, str):
        return case
    return next(v for v in case.values if isinstance(v, str) and v in game_names())  # type: ignore[attr-defined]


def test_every_contract_is_parametrized_by_the_registry():
    for contract, (cases, derive) in CONTRACTS.items():
        derived = derive()
        wanted = [case.game for case in derived] if isinstance(cases[0], str) else ids(derived)
        assert set(wanted) <= set(ids(cases)), contract
        assert {game_of(case) for case in derived} == set(game_names()), contract


def test_registering_a_game_enrols_it_in_every_contract(toy_game):
    for contract, (_, derive) in CONTRACTS.items():
        assert toy_game in {game_of(case) for case in derive()}, contract


def test_the_cases_come_from_the_declaration(toy_game):
    """Every preset, each numeric option's extremes, each choice: no list kept by hand."""
    toy = [(case.options, case.why) for case in every_case() if case.game == toy_game]
    assert toy == [
        ({}, "default"),
        ({"wins": "low"}, "wins=low"),
        ({"rounds": 1}, "preset short"),
    ]
    assert [c.options for c in served() if c.game == toy_game] == [{}, {"wins": "low"}]
    assert {c.game for c in table_sizes()} == set(game_names())


# ----- the core contracts pass on the toy game ----------------------------------------------


def toy_cases(name: str) -> list[tuple[str, dict]]:
    return [(case.game, case.options) for case in every_case() if case.game == name]


def test_the_toy_game_passes_the_core_contracts(toy_game):
    for game, options in toy_cases(toy_game):
        for seed in range(3):
            test_games.check_random_play_ends(game, options, seed)
            test_games.check_reading_changes_nothing(game, options, seed)
            test_notation_fuzz.check_notation_round_trips(game, options, seed)
            test_view_types.check_views_match_their_type(game, options, seed)
            test_table.check_record_replays(game, options, seed)
            test_terminal.check_terminal_game(game, options, seed)
        test_phases.check_phases(game, options)
        test_frames.check_frames(game, options)
        state = new_game(game, options, 1)
        for text in ("play 3", "play 0", "play 10", "play ²", "play " + "9" * 5000, "", "pass"):
            test_notation_fuzz.check_text_read_or_refused(state, 0, text)


# ----- each broken variant fails the contract it breaks -------------------------------------


def broken(monkeypatch, variant: str) -> str:
    return register(monkeypatch, conformance.TOY, f"tests.toy_game:{variant}")


def test_reading_that_writes_is_caught(monkeypatch):
    game = broken(monkeypatch, "ReadingWrites")
    with pytest.raises(AssertionError, match="reading changed the state"):
        test_games.check_reading_changes_nothing(game, {}, 1)
    with pytest.raises(AssertionError):
        test_notation_fuzz.check_text_read_or_refused(new_game(game, {}, 1), 0, "play 2")


def test_a_view_with_an_undeclared_key_is_caught(monkeypatch):
    game = broken(monkeypatch, "Peeking")
    with pytest.raises(AssertionError, match="undeclared {'peek'}"):
        test_view_types.check_views_match_their_type(game, {}, 1)


def test_notation_that_does_not_read_back_is_caught(monkeypatch):
    game = broken(monkeypatch, "Misread")
    with pytest.raises(AssertionError):
        test_notation_fuzz.check_notation_round_trips(game, {}, 1)


def test_a_game_that_never_ends_is_caught(monkeypatch):
    game = broken(monkeypatch, "Endless")
    with pytest.raises(AssertionError, match="did not end in 2000 decisions"):
        test_games.check_random_play_ends(game, {}, 1, most=2000)


def test_a_game_that_ignores_its_seed_is_caught(monkeypatch):
    game = broken(monkeypatch, "Unseeded")
    rng = random.Random(0)
    with pytest.raises(AssertionError, match="does not replay"):
        for _ in range(20):  # (a clock's shuffle may equal the seed's, once in a while)
            test_table.check_record_replays(game, {}, rng.randrange(1000))


def test_actions_outside_the_action_space_are_caught(monkeypatch):
    game = broken(monkeypatch, "TooFewActions")
    with pytest.raises(AssertionError):
        test_games.check_random_play_ends(game, {}, 1)


def test_an_undeclared_view_type_is_caught(monkeypatch):
    game = broken(monkeypatch, "Undeclared")
    with pytest.raises(AssertionError, match="declares no view_type"):
        test_view_types.check_views_match_their_type(game, {}, 1)
    with pytest.raises(AssertionError, match="declares no phases"):
        test_phases.check_phases(game, {})


# ----- over the server: live play, the leak audit ---------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "enrol.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


def test_the_toy_game_is_served_and_audited(server, toy_game):
    test_live.check_live_game(server, toy_game, {}, people=3)
    test_live.check_live_game(server, toy_game, {"wins": "low"}, people=1)
    test_audit.check_audit(server.url, toy_game, {}, seed=0)


def test_a_view_leaking_a_hand_fails_the_audit(server, monkeypatch):
    game = broken(monkeypatch, "Peeking")
    with pytest.raises(AssertionError, match=r"\[hand\]"):
        test_audit.check_audit(server.url, game, {}, seed=0)
