"""A talking phase (``State.talk``: Criminal Poker's questioning) lasts the room's talk time
when people are seated: a bot investigator waits it out, a person's timer is it. Without people
at the table, or with a talk time of 0, decisions go at the usual pace."""

from __future__ import annotations

import pytest

from tests.games.criminal_poker.helpers import open_with, sheriff_game, to_questioning
from yamen.errors import OptionsError
from yamen.server.driver import Driver
from yamen.server.seats import Seat
from yamen.server.settings import Settings
from yamen.server.thinking import INLINE

ASKED = 1_000.0


def driver_for(state, seats, settings):
    async def act(seat, action, seq):  # never called: these tests only ask when
        raise AssertionError("no move is played here")

    driver = Driver(
        "r",
        "criminal_poker",
        INLINE,
        seats=lambda: seats,
        settings=lambda: settings,
        in_play=lambda: (state, 0),
        present=lambda: True,
        busy=lambda: False,
        act=act,
    )
    driver.ask(state.pending(), ASKED)
    return driver


def table(investigator: Seat) -> list[Seat]:
    """The sheriff (seat 0, as the test deal has it) and four suspects: one a person."""
    return [investigator, Seat(player="p1", name="Ann"), Seat(bot="rules"), Seat(bot="rules"),
            Seat(bot="rules")]  # fmt: skip


def questioning():
    state = sheriff_game()
    to_questioning(state)
    assert state.pending() == (0,) and state.talk(0)
    return state


def test_only_questioning_is_a_talking_phase():
    state = sheriff_game()
    assert not any(state.talk(seat) for seat in state.pending())
    open_with(state)
    assert not any(state.talk(seat) for seat in state.pending())
    assert questioning().talk(0)


def test_a_bot_investigator_waits_the_talk_time_when_people_are_seated():
    settings = Settings(bot_delay=0.5, talk_seconds=45)
    state = questioning()
    move = driver_for(state, table(Seat(bot="rules")), settings)._next_move(state)
    assert move is not None and move.at == ASKED + 45


def test_without_people_the_bots_do_not_wait_to_talk():
    seats = [Seat(bot="rules") for _ in range(5)]
    settings = Settings(bot_delay=0.5, talk_seconds=45)
    state = questioning()
    move = driver_for(state, seats, settings)._next_move(state)
    assert move is not None and move.at == ASKED + 0.5


def test_a_person_investigators_timer_is_the_talk_time():
    state = questioning()
    settings = Settings(turn_seconds=None, talk_seconds=30)
    driver = driver_for(state, table(Seat(player="p0", name="Sam")), settings)
    assert driver.deadlines() == {"0": ASKED + 30}
    move = driver._next_move(state)
    assert move is not None and move.at == ASKED + 30  # the stand-in ends it then


def test_a_talk_time_of_zero_leaves_the_turn_timer():
    state = questioning()
    settings = Settings(turn_seconds=20, talk_seconds=0)
    driver = driver_for(state, table(Seat(player="p0", name="Sam")), settings)
    assert driver.deadlines() == {"0": ASKED + 20}
    bots = driver_for(state, table(Seat(bot="rules")), Settings(bot_delay=0.5, talk_seconds=0))
    move = bots._next_move(state)
    assert move is not None and move.at == ASKED + 0.5


@pytest.mark.parametrize("bad", [-1, 3601, "60", True, None])
def test_the_talk_time_is_a_bounded_number(bad):
    with pytest.raises(OptionsError, match="talk_seconds"):
        Settings.read({"talk_seconds": bad}, "criminal_poker")
