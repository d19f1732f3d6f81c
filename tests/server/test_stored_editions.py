"""Games stored before a rules edition existed (their options name none) are rebuilt under
the legacy edition, as they were played (options.py: ``legacy``); the room's next game is a
new game, under the current edition. No data migration is needed: the reading decides. Games
stored under lowest_last (the first reading of 憋六/憋三) reload as they were played too."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from pathlib import Path

import pytest

from yamen.engine import get_game
from yamen.records import Record
from yamen.server.loading import load_room
from yamen.server.registry import Rooms
from yamen.server.storage import Store

OLD = Path(__file__).parents[1] / "games" / "baohuang" / "records" / "edition1-shandong-claim.json"


def test_a_game_stored_without_an_edition_replays_as_it_was_played(tmp_path):
    old = Record.load(OLD)  # read: its options now name the legacy edition
    options = {k: v for k, v in old.options.items() if k != "edition"}  # as the row held them
    old.options = options

    async def go():
        store = Store(f"sqlite:///{tmp_path / 'r.db'}")
        await store.open()
        await store.add_player("p", "P", "token")
        room = await Rooms(store).create("p", get_game("baohuang", options), True, None)
        game_id = await store.add_game(room.id, 1, old)
        for index, (seat, text) in enumerate(old.actions):
            await store.journal.append(game_id, index, seat, text)
        loaded = await load_room(store, room.id)
        stored = await store.game(game_id)
        await store.close()
        return loaded, stored

    loaded, stored = asyncio.run(go())
    assert stored.record.options == options and stored.quarantined is None
    assert loaded.closed is None and loaded.status == "over"
    assert old.result is not None
    assert loaded.match.scores == [Fraction(str(s)) for s in old.result["scores"]]
    assert loaded.match.current().state.options["edition"] == 1
    assert loaded.configured.options["edition"] == 2  # the room's next game: the current one


LOWEST_LAST = sorted((OLD.parent).glob("edition2-lowest-last-*.json"))


@pytest.mark.parametrize("path", LOWEST_LAST, ids=[p.stem for p in LOWEST_LAST])
def test_a_game_stored_under_lowest_last_reloads_as_it_was_played(tmp_path, path):
    """A game of a room made with the 憋 presets before they held the lowest rank to the end
    (lowest_last: true, stored whole): it reloads to the same result, and the room keeps its
    options for its next game (the old reading, under its own name)."""
    old = Record.load(path)
    assert old.options["lowest_last"] is True and old.result is not None

    async def go():
        store = Store(f"sqlite:///{tmp_path / 'r.db'}")
        await store.open()
        await store.add_player("p", "P", "token")
        room = await Rooms(store).create("p", get_game("baohuang", old.options), True, None)
        game_id = await store.add_game(room.id, 1, old)
        for index, (seat, text) in enumerate(old.actions):
            await store.journal.append(game_id, index, seat, text)
        loaded = await load_room(store, room.id)
        await store.close()
        return loaded

    loaded = asyncio.run(go())
    assert loaded.closed is None and loaded.status == "over"
    assert loaded.match.scores == [Fraction(str(s)) for s in old.result["scores"]]
    state = loaded.match.current().state
    assert state.options["lowest_last"] is True and state.options["lowest_held"] is False
    assert len(state.sunk) == 2  # two seats went out on the lowest rank: ranked last
    assert loaded.configured.options["lowest_last"] is True
