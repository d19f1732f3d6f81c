"""A game is a configured object: ``get_game`` reads the options once and answers seats, the
size of the action space and the declared options without dealing; reading an action never
changes a state (``apply_text`` reads and applies)."""

from __future__ import annotations

import contextlib
import json
import pickle
import random
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conformance import checked, declared, every_case, snapshot
from yamen import bots
from yamen.engine import State, game_names, game_type, get_game, new_game
from yamen.errors import NotationError, OptionsError

# every registered game, by its declaration (tests/conformance.py)
CASES = [case.param() for case in every_case()]
READINGS = 40  # steps of a game whose readings are checked (each reads a few dozen texts)
MOST_DECISIONS = 200_000  # a random game longer than this never ends (50 deals: 23,000)
# texts worth reading in any position, beside the legal moves' own: other games' notation,
# nonsense, and the one text that carries free words (a Bao Qing-tian judge's)
ODD_TEXTS = ['punish "recite a poem" 3', "pass", "9 9 SJ", "reveal P1", "vote 0", "", "??"]


def check_random_play_ends(name: str, options: dict, seed: int, most: int = MOST_DECISIONS):
    """The contract: a configured game knows its seats and action space before any deal, and
    random play keeps every legal action inside that space and ends."""
    game = get_game(name, options)
    state = game.new_state(seed=seed)
    assert game.num_seats == state.num_seats and game.num_seats in type(game).seats
    assert game.options == state.options and game.name == state.game == name
    rng = random.Random(seed)
    for _ in range(most):
        if state.over:
            break
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        assert legal, f"seat {seat} is pending with no legal action"
        assert all(0 <= action < game.num_actions for action in legal), (legal, game.num_actions)
        state.apply(seat, rng.choice(legal))
    assert state.over, f"random play did not end in {most} decisions"
    assert state.result() is not None


@pytest.mark.parametrize(("name", "options"), CASES)
def test_random_play_ends_within_the_action_space(name, options):
    check_random_play_ends(name, options, seed=3)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_new_game_is_get_game_then_new_state(name, options):
    a, b = new_game(name, options, 5), get_game(name, options).new_state(5)
    assert [a.view(s) for s in range(a.num_seats)] == [b.view(s) for s in range(b.num_seats)]


def test_a_configured_game_does_not_change():
    game = get_game("baohuang", {"deals": 2})
    with pytest.raises(AttributeError):
        game.num_seats = 6  # type: ignore[misc]
    game.options["deals"] = 9  # a copy: the game's own stay as read
    assert game.options["deals"] == 2
    again = pickle.loads(pickle.dumps(game))  # (a tournament's workers get it so)
    assert type(again) is type(game) and again.options == game.options


def test_options_are_read_by_the_declaration():
    assert get_game("criminal_poker", {"mode": "detective"}).options["players"] == 4
    assert get_game("criminal_poker", {"players": None}).options["players"] == 5  # by mode
    refusals = [
        ("criminal_poker", {"mode": "detective", "players": 6}, "detective mode is for 3 to 5"),
        ("criminal_poker", {"sheriff": "1"}, "sheriff must be a seat from 0 to 5, or null"),
        ("baohuang", {"variant": "nope"}, "unknown variant 'nope': variant must be 'shandong'"),
        ("baohuang", {"target": 0}, "target must be a whole number from 1 to 10000, or null"),
        ("baohuang", {"grabbing": "no"}, "grabbing must be true or false"),
        ("baohuang", [], "options must be an object"),
        ("bao_qingtian", {"player": 5}, r"unknown option\(s\) player; known: "),
    ]
    for name, options, message in refusals:
        with pytest.raises(OptionsError, match=message):
            get_game(name, options)


@pytest.mark.parametrize("name", game_names())
def test_each_game_declares_its_type_as_data(name):
    kind = game_type(name)
    seen: list[str] = []
    for option in kind.declaration:
        if option.applies is not None:  # read after the option it depends on
            assert option.applies[0] in seen and option.applies[0] != option.name
        option.check(option.default)  # every default passes its own declaration
        seen.append(option.name)
    assert list(get_game(name).options) == list(dict.fromkeys(seen))
    described = json.loads(json.dumps(kind.type_json()))
    assert described["title"] == kind.title
    assert described["seats"] == {"min": kind.seats[0], "max": kind.seats[-1]}
    assert [o["name"] for o in described["declaration"]] == seen
    assert typing.is_typeddict(declared(name, "view_type"))  # what the contracts check views by
    assert declared(name, "phases")("over")  # a StrEnum of the phases, a finished game's "over"
    assert bots.REGISTRY[name] == kind.bots  # the bots' registry reads the games
    for bot in kind.bots:
        assert callable(bots.bot_class(name, bot))


def read_everything(state: State, seat: int, rng: random.Random) -> None:
    """Read some of the seat's legal moves and the odd texts (refusals included)."""
    legal = state.legal(seat)
    texts = [state.action_text(a) for a in rng.sample(legal, min(8, len(legal)))]
    for text in texts + ODD_TEXTS:
        with contextlib.suppress(NotationError):
            state.parse_action(seat, text)


def check_reading_changes_nothing(name: str, options: dict, seed: int) -> None:
    """The contract: reading texts (legal moves' own, other games', nonsense) changes nothing a
    state holds or shows. Checked at random steps and at the first step of each phase (a
    phase may read free text: a judge's words), READINGS steps a game at most."""
    state = new_game(name, options, seed)
    rng = random.Random(seed)
    phases: set = set()
    step = checks = 0
    while not state.over:
        phase = state.view(None).get("phase") if checked(step) else None
        if checked(step) and checks < READINGS and (rng.random() < 0.2 or phase not in phases):
            phases.add(phase)
            checks += 1
            before = snapshot(state)
            for seat in {*state.pending(), rng.randrange(state.num_seats)}:
                read_everything(state, seat, rng)
            assert snapshot(state) == before, f"reading changed the state at step {step}"
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
        step += 1


@pytest.mark.parametrize(("name", "options"), CASES)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_reading_an_action_never_changes_the_state(name, options, seed):
    check_reading_changes_nothing(name, options, seed)
