"""Rooms rebuilt from storage: a game that ended between its last action and its result being
written is finished when the room is loaded."""

from __future__ import annotations

import asyncio
import random

from yamen.engine import get_game, score_json
from yamen.records import Recorder
from yamen.selfplay import play_random
from yamen.server.loading import load_room
from yamen.server.operations import Leave, SetBot, Start, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.storage import Store


async def stored_game(path):
    """A store with one room and a new game in it: (store, room, recorder, game id)."""
    store = Store(f"sqlite:///{path}")
    await store.open()
    await store.add_player("p", "P", "token")
    room = await Rooms(store).create("p", get_game("bao_qingtian", {"players": 3}), True, None)
    recorder = Recorder("bao_qingtian", room.options, seed=4)
    game_id = await store.add_game(room.id, 1, recorder.record)
    return store, room, recorder, game_id


def test_a_game_cut_off_before_its_result_was_written_is_finished_on_load(tmp_path):
    async def go():
        store, room, recorder, game_id = await stored_game(tmp_path / "r.db")
        play_random(recorder, random.Random(4))
        for index, (seat, text) in enumerate(recorder.record.actions):
            await store.journal.append(game_id, index, seat, text)
        loaded = await load_room(store, room.id)
        stored = await store.game(game_id)
        row, _ = await store.room(room.id)
        await store.close()
        return recorder, loaded, stored, row.scores

    recorder, loaded, stored, totals = asyncio.run(go())
    expected = recorder.state.result()
    assert loaded.status == "over"
    assert loaded.match.scores == list(expected.scores)
    assert stored.finished and stored.record.result == recorder.finish().result
    assert totals == [score_json(s) for s in expected.scores]  # written with the result


def test_a_refused_action_in_a_group_commit_does_not_sink_the_others(tmp_path):
    from sqlalchemy.exc import IntegrityError

    async def go():
        store, _, _, game_id = await stored_game(tmp_path / "j.db")
        await store.journal.append(game_id, 0, 0, "first")
        outcomes = await asyncio.gather(
            store.journal.append(game_id, 0, 1, "a second writer of action 0"),
            store.journal.append(game_id, 1, 2, "action 1"),
            return_exceptions=True,
        )
        stored = await store.game(game_id)
        await store.close()
        return outcomes, stored

    outcomes, stored = asyncio.run(go())
    assert isinstance(outcomes[0], IntegrityError) and outcomes[1] is None
    assert stored.record.actions == [(0, "first"), (2, "action 1")]


def test_a_judge_writes_its_own_words_through_the_room(tmp_path):
    """The text path stores and applies the words as one move (State.check_text, apply_text),
    and a restart replays them."""

    async def go():
        store, room, recorder, game_id = await stored_game(tmp_path / "w.db")
        rng = random.Random(4)
        state = recorder.state
        while state.phase != "punish":
            seat = rng.choice(state.pending())
            recorder.apply(seat, rng.choice(state.legal(seat)))
        for index, (seat, text) in enumerate(recorder.record.actions):
            await store.journal.append(game_id, index, seat, text)
        loaded = await load_room(store, room.id)
        judge = loaded.match.state.pending()[0]
        seq = await loaded.act(judge, None, 'punish "sing  a song of  sixpence" 2')
        stored = await store.game(game_id)
        again = await load_room(store, room.id)
        await store.close()
        return judge, seq, loaded, stored, again

    judge, seq, loaded, stored, again = asyncio.run(go())
    written = (judge, 'punish "sing a song of sixpence" 2')
    assert loaded.match.record.actions[-1] == written and stored.record.actions[-1] == written
    assert seq == len(stored.record.actions)
    for room in (loaded, again):
        assert room.match.state.punishment == "sing a song of sixpence"
        assert room.match.state.count == 2 and room.match.state.phase == "plus"


def test_who_left_mid_game_is_named_on_their_seat_until_the_next_game(tmp_path):
    """A person who leaves during a game hands the seat to a stand-in bot; the seat keeps their
    name (``left``) for the table and its results, and a restart finds it again."""

    async def go():
        store, room, _, _ = await stored_game(tmp_path / "l.db")
        await store.add_player("q", "Quinn", "token-q")
        await room.run(TakeSeat("p", "P", 0))
        await room.run(TakeSeat("q", "Quinn", 1))
        before = room.about().seats[1].left
        await room.run(SetBot("p", 2, "random"))
        await room.run(Start("p"))
        await room.run(Leave("q"))
        shown = room.about().seats[1]
        again = await load_room(store, room.id)
        await room.close()
        await again.close()
        await store.close()
        return before, shown, again.about().seats

    before, shown, again = asyncio.run(go())
    assert before is None
    assert shown.left == "Quinn" and shown.bot is not None and shown.name is None
    assert again[1].left == "Quinn" and again[0].left is None and again[2].left is None
