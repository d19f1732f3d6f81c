"""A talking phase (``State.talk``: Criminal Poker's questioning) lasts the room's talk time
when a person is at the table to talk: a bot investigator waits it out, a person's timer is it.
A person at the table is one seated, or one watching who left a seat of this game (they keep
the chat and may take the seat back). Without them, or with a talk time of 0, decisions go at
the usual pace."""

from __future__ import annotations

import asyncio

import pytest

from tests.games.criminal_poker.helpers import open_with, sheriff_game, to_questioning
from yamen.engine import get_game
from yamen.errors import OptionsError
from yamen.server.driver import Driver
from yamen.server.operations import Leave, SetBot, Start, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.seats import Seat
from yamen.server.settings import Settings
from yamen.server.storage import Store
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
        talkers=lambda: any(s.player is not None for s in seats),  # (the room's: below)
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


class Watching:
    """A connection to the room (what the room needs of one), its frames dropped."""

    def __init__(self, player: str):
        self.player, self.seat = player, None

    def send(self, text: str) -> None:
        pass


def test_who_left_their_seat_and_watches_still_talks(tmp_path):
    """The person left their seat mid-game and watches on, chatting (the chat stays theirs):
    the bot sheriff waits the talk time for them, as for a person seated; once they are gone
    too, it does not. (It once ended the questioning at the bots' pace: only a seated person
    counted.)"""

    async def go():
        store = Store(f"sqlite:///{tmp_path / 'talk.db'}")
        await store.open()
        await store.add_player("p", "Pia", "token-p")
        options = {"mode": "sheriff", "players": 4, "sheriff": 1}
        settings = {"talk_seconds": 45, "bot_delay": 5, "turn_seconds": None}
        room = await Rooms(store).create("p", get_game("criminal_poker", options), True, settings)
        await room.run(TakeSeat("p", "Pia", 0))
        for seat in (1, 2, 3):
            await room.run(SetBot("p", seat, "rules"))
        await room.run(Start("p"))
        await room.run(Leave("p"))
        watching = Watching("p")
        await room.attach(watching)
        state = room.match.state
        while not state.talk(state.pending()[0]):  # every decision made at once, to the talk
            seat = state.pending()[0]
            await room.act(seat, state.legal(seat)[0])
        sheriff = state.pending()[0]
        asked = room.driver.asked[sheriff]
        with_them = room.driver._next_move(state)
        await room.detach(watching)
        without = room.driver._next_move(state)
        await asyncio.sleep(0.1)  # (the driver waits again: a stop meanwhile may be swallowed)
        await room.driver.stop()
        await room.close()
        await store.close()
        return sheriff, asked, with_them, without

    sheriff, asked, with_them, without = asyncio.run(go())
    assert with_them is not None and with_them.seat == sheriff and with_them.at == asked + 45
    assert without is not None and without.at == asked + 5  # nobody left to talk: its pace
