"""The bot framework: bots see a seat's view and legal actions, and only ever act legally."""

import json
import random

import pytest

from tests.conformance import table_sizes
from yamen.bots import RandomBot, bot_move, bot_names, make_bot, play_bots
from yamen.engine import game_names, new_game
from yamen.errors import OptionsError

# every registered game: its variants and modes, its smallest and largest table
GAMES = [case.param() for case in table_sizes()]


def test_every_registered_game_has_bots():
    for game in game_names():
        assert "random" in bot_names(game)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_bot_plays_every_game_to_the_end(game, options):
    for name in bot_names(game):
        for seed in range(3):
            state = new_game(game, options, seed=seed)
            bots = [quick(make_bot(game, name)) for _ in range(state.num_seats)]
            assert play_bots(state, bots, random.Random(seed)) > 0
            assert state.result() is not None


def quick(bot):
    """A search bot thinks up to a second a decision; here, where only legal play to the end
    is checked, a few playouts do."""
    if hasattr(bot, "iterations"):
        bot.seconds, bot.iterations = None, 6
    return bot


class Cheater:
    """Tries to learn from and tamper with what it is handed."""

    name = "cheater"

    def __init__(self):
        self.views = []

    def choose(self, view, legal, rng):
        self.views.append(json.loads(json.dumps(view)))  # plain data only: no state inside
        view.clear()
        legal.clear()
        return 10**9


def test_a_bot_gets_plain_data_and_cannot_change_the_game_or_act_illegally():
    state = new_game("baohuang", {}, seed=3)
    seat = state.pending()[0]
    before = state.view(seat), state.legal(seat)
    with pytest.raises(RuntimeError, match="illegal"):
        bot_move(Cheater(), state, seat, random.Random(0))
    assert (state.view(seat), state.legal(seat)) == before


def test_a_bots_view_holds_only_its_own_hand():
    state = new_game("baohuang", {}, seed=4)
    bot = Cheater()
    seat = state.pending()[0]
    with pytest.raises(RuntimeError):
        bot_move(bot, state, seat, random.Random(0))
    (seen,) = bot.views
    assert seen == json.loads(json.dumps(state.view(seat)))
    assert seen["hand"] == state.view(seat)["hand"] and "hands" not in seen


def test_unknown_bot_is_a_clear_error():
    with pytest.raises(OptionsError, match="no bot 'genius' for baohuang"):
        make_bot("baohuang", "genius")
    assert isinstance(make_bot("baohuang", "random"), RandomBot)


def test_a_bot_spec_passes_arguments_to_the_bot():
    bot = make_bot("baohuang", "search:iterations=7:seconds=null")
    assert (bot.iterations, bot.seconds) == (7, None)
    assert make_bot("baohuang", "search").seconds is not None  # the default budget
    for bad in ("search:nonsense=1", "search:iterations", "random:seed=1"):
        with pytest.raises(OptionsError, match="bot spec"):
            make_bot("baohuang", bad)
