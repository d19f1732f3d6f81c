"""A room's chat is bounded: limited per player and per address as it is said, and kept
stored only as its latest lines and for a week (yamen/server/chat.py); a deleted account's name
leaves the chat of loaded rooms at once."""

from __future__ import annotations

import time
from dataclasses import replace

from sqlalchemy import func, select

from tests.server.helpers import PASSWORD, ServerThread, claimed, room_with, run
from yamen.client import SeatClient
from yamen.engine import get_game
from yamen.server.chat import HISTORY, KEEP_LINES, KEEP_SECONDS, ChatLog
from yamen.server.identity import new_guest
from yamen.server.limits import Limits, Rate
from yamen.server.registry import Rooms
from yamen.server.storage import Store
from yamen.server.tables import ChatRow
from yamen.wire import DELETED


def test_chat_is_limited_per_address_over_its_players(tmp_path):
    """Two guests of one address, each well within the per-player rate: together they meet
    the address's rate, and the line over it is refused."""
    limits = replace(Limits.off(), chat=Rate(10, 600), chat_per_address=Rate(3, 600))
    with ServerThread(f"sqlite:///{tmp_path / 'c.db'}", limits) as server:

        async def go():
            room_id, (ann, bob) = await room_with(server.url, "baohuang", people=2)
            seats = [await SeatClient.connect(p.ws_url(room_id), p.token) for p in (ann, bob)]
            answers = [await seats[i % 2].request(type="chat", text=f"{i}") for i in range(5)]
            for seat in seats:
                await seat.close()
            return answers

        answers = run(go())
    assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"] * 2
    assert {a["code"] for a in answers[3:]} == {"rate_limited"}
    assert all(a["retry_after"] >= 1 for a in answers[3:])


async def _rows(store: Store, room_id: str) -> int:
    async with store.session() as s:
        return await s.scalar(select(func.count()).where(ChatRow.room_id == room_id)) or 0


def test_a_rooms_stored_chat_keeps_its_latest_lines(tmp_path):
    """KEEP_LINES + 40 lines said: the room stores its latest KEEP_LINES, the latest HISTORY
    still shown (read again from the database too)."""

    async def go():
        store = Store(f"sqlite:///{tmp_path / 'k.db'}")
        await store.open()
        try:
            rooms = Rooms(store)
            ann, _ = await new_guest(store, "Ann")
            room = await rooms.new_room(ann.id, get_game("baohuang"), True, None)
            log = ChatLog(store, room.id)
            await log.latest()
            for i in range(KEEP_LINES + 40):
                await log.add(ann.id, f"line {i}")
            shown = [line.text for line in await log.latest()]
            again = [line.text for line in await ChatLog(store, room.id).latest()]
            return await _rows(store, room.id), shown, again
        finally:
            await store.close()

    rows, shown, again = run(go())
    assert rows == KEEP_LINES
    latest = [f"line {i}" for i in range(KEEP_LINES + 40 - HISTORY, KEEP_LINES + 40)]
    assert shown == again == latest


def test_chat_older_than_a_week_is_dropped(tmp_path):
    """Lines from before KEEP_SECONDS go: from the room a line is said in, as it is said, and
    from every room by the sweep; newer lines stay."""

    async def go():
        store = Store(f"sqlite:///{tmp_path / 'a.db'}")
        await store.open()
        try:
            rooms = Rooms(store)
            ann, _ = await new_guest(store, "Ann")
            talking = await rooms.new_room(ann.id, get_game("baohuang"), True, None)
            quiet = await rooms.new_room(ann.id, get_game("baohuang"), True, None)
            old = time.time() - KEEP_SECONDS - 60
            async with store.session.begin() as s:
                for room_id in (talking.id, quiet.id):
                    s.add_all(
                        ChatRow(room_id=room_id, player_id=ann.id, text="old", at=old + i)
                        for i in range(3)
                    )
                    s.add(ChatRow(room_id=room_id, player_id=ann.id, text="new", at=time.time()))
            await ChatLog(store, talking.id).add(ann.id, "said now")
            after_a_line = (await _rows(store, talking.id), await _rows(store, quiet.id))
            swept = await store.drop_chat_before(time.time() - KEEP_SECONDS, batch=2)
            kept = [line.text for line in await ChatLog(store, quiet.id).latest()]
            return after_a_line, swept, kept
        finally:
            await store.close()

    after_a_line, swept, kept = run(go())
    assert after_a_line == (2, 4)  # the talking room: "new" and "said now"; the quiet one: all
    assert swept == 3 and kept == ["new"]


def test_a_deleted_players_chat_lines_show_the_neutral_name_at_once(tmp_path):
    """A room loaded with the player's lines in memory: deleting the account sends watchers a
    state frame whose chat names nobody, and later ones (a sync) too."""
    with ServerThread(f"sqlite:///{tmp_path / 'd.db'}") as server:

        async def go():
            kim = await claimed(server.url, "Kim", "Kim")
            room_id, (host,) = await room_with(server.url, "baohuang")
            talker = await SeatClient.connect(kim.ws_url(room_id), kim.token)  # watching
            await talker.request(type="chat", text="hello")
            await talker.close()
            watcher = await SeatClient.connect(host.ws_url(room_id), host.token)
            before = watcher.frames[-1]["chat"]
            start = len(watcher.frames)
            await kim.call("DELETE", "/api/account", {"password": PASSWORD})
            told = await watcher.wait(lambda f: f["type"] == "state", 15, start)
            await watcher.request(type="sync")
            synced = [f for f in watcher.frames if f["type"] == "state"][-1]
            await watcher.close()
            return before, told["chat"], synced["chat"]

        before, told, synced = run(go())
    assert [(line["name"], line["text"]) for line in before] == [("Kim", "hello")]
    assert [(line["name"], line["text"]) for line in told] == [(DELETED, "hello")]
    assert synced == told
