"""Every request does bounded work (issue 23): a state frame (a hello, a sync) carries a bounded
tail of its receiver's log and costs the same however long the game; a repeated sync costs a
look-up; paging back gives each receiver exactly its whole log; a room is loaded from its last
game and its stored totals, whatever the length of its match, and only for callers who may
watch it; a match has at most MAX_GAMES games.

Work is counted, never timed: the entries built (``frames.shown`` calls), the actions replayed
(``match.steps``), the rooms loaded (``load_room`` calls), the bytes of a frame.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from tests.server.helpers import FAST, ServerThread, run
from tests.server.test_cluster import cluster, database, redis_url  # noqa: F401 (fixtures)
from yamen.client import Lobby, SeatClient
from yamen.engine import get_game
from yamen.records import steps as replay_steps
from yamen.server import frames, history, match, registry
from yamen.server.errors import RoomError
from yamen.server.loading import load_room
from yamen.server.match import MAX_GAMES
from yamen.server.operations import Start, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.storage import Store


class Conn:
    """A connection as a room sees it, keeping what it is sent."""

    def __init__(self, player: str | None = None):
        self.player, self.seat = player, None
        self.frames: list[str] = []

    def send(self, text: str) -> None:
        self.frames.append(text)


class Counted:
    """Counts the calls of a module's function (patched in for the test's length)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str):
        self.calls, real = 0, getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


async def people_room(path, game: str, options: dict, settings: dict | None = None):
    """A room whose every seat is a person with a connection, plus a spectator, its game
    started: (store, rooms, room, seat connections, spectator)."""
    store = Store(f"sqlite:///{path}")
    await store.open()
    configured = get_game(game, options)
    for i in range(configured.num_seats):
        await store.add_player(f"p{i}", f"P{i}", f"token-{i}")
    rooms = Rooms(store)
    room = await rooms.create("p0", configured, True, {**FAST, **(settings or {})})
    for i in range(configured.num_seats):
        await room.run(TakeSeat(f"p{i}", f"P{i}", i))
    conns = [Conn(f"p{i}") for i in range(configured.num_seats)]
    spectator = Conn()
    for conn in (*conns, spectator):
        await room.attach(conn)
    await room.run(Start("p0"))
    return store, rooms, room, conns, spectator


async def turns_during(work) -> tuple[Any, int]:
    """(what ``work`` returned, how many times another task ran while it ran)."""
    turns, ticking = [], True

    async def ticker():
        while ticking:
            turns.append(1)
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    turns.clear()
    result = await work
    ticking = False
    await task
    return result, len(turns)


async def play(room, rng: random.Random, until: int | None = None) -> None:
    """Random legal actions through the room until ``until`` actions (or the game's end)."""
    while room.playing and (until is None or room.match.seq < until):
        state = room.match.state
        seat = rng.choice(state.pending())
        await room.act(seat, rng.choice(state.legal(seat)))


def dumped(entries) -> list[dict]:
    return [json.loads(e.model_dump_json()) for e in entries]


def paged_back(room, seat: int | None, state: dict) -> tuple[list[dict], list[int]]:
    """The receiver's log: the tail its state frame carries, then every page before it, as
    the client would page back; and the size of each page."""
    table = state["table"]
    log, sizes, before = list(table["history"]), [], table["history_before"]
    while before is not None:
        page = json.loads(room.history_page(seat, before))
        assert page["type"] == "history" and page["game_id"] == table["game_id"]
        log[:0] = page["entries"]
        sizes.append(len(page["entries"]))
        before = page["before"]
    return log, sizes


# ----- the state frame, a sync and paging back, as the game grows ---------------------------------


def test_a_state_frame_and_a_sync_cost_the_same_however_long_the_game(tmp_path, monkeypatch):
    shown = Counted(monkeypatch, frames, "shown")  # one call an entry built (or an update's)

    async def go():
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "g.db", "baohuang", {"deals": 50}
        )
        rng, seen = random.Random(5), {}
        for at in (300, 1000, 2400):
            await play(room, rng, at)
            assert room.match.seq == at
            for seat in (*range(5), None):
                before = shown.calls
                text = await room.state_frame(seat)
                built = shown.calls - before
                again = await room.state_frame(seat)  # nothing changed: a look-up
                repeat = shown.calls - before - built
                frame = json.loads(text)
                view = json.dumps(frame["table"]["view"], ensure_ascii=False, separators=(",", ":"))
                seen[at, seat] = (built, repeat, again == text, len(text) - len(view), frame)
        await room.close()
        await store.close()
        return seen

    seen = run(go())
    for (at, seat), (built, repeat, same, rest, frame) in seen.items():
        table = frame["table"]
        assert built <= history.TAIL, (at, seat, built)  # never the whole game's log
        assert repeat == 0 and same, (at, seat)  # a repeated sync builds nothing
        assert len(table["history"]) == history.TAIL and table["history_before"] is not None
        assert table["history"][-1]["seq"] <= table["seq"] == at
        # the frame but its view (which holds the finished deals' summaries) stays as big
        assert rest <= 1.5 * seen[300, seat][3], (at, seat, rest, seen[300, seat][3])
        assert rest < 40_000


def test_paging_back_gives_each_receiver_exactly_its_whole_log(tmp_path):
    async def go():
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "p.db", "baohuang", {"deals": 50}
        )
        await play(room, random.Random(7), 900)
        found = {}
        for seat in (*range(5), None):
            state = json.loads(await room.state_frame(seat))
            found[seat] = (
                paged_back(room, seat, state),
                dumped(frames.history(room.match.log, seat)),
            )
        await room.close()
        await store.close()
        return found

    found = run(go())
    for seat, ((log, sizes), whole) in found.items():
        assert log == whole, seat  # every entry, in order, each receiver's share only
        assert sizes and all(0 < size <= history.PAGE for size in sizes)
        assert len(whole) > history.TAIL + history.PAGE  # (more than one page back)
    hands = [
        [e["data"] for entry in found[s][0][0] for e in entry["events"] if e["kind"] == "hand"]
        for s in (*range(5), None)
    ]
    assert all(hands[:5]) and not hands[5]  # a seat's own hand; the spectators' none
    assert len({json.dumps(h) for h in hands[:5]}) == 5


def test_a_delayed_spectators_pages_stay_behind(tmp_path):
    """Spectators three actions behind (yamen/server/delay.py): their tail and every page stop
    at the step they see, even when asked for more."""

    async def go():
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "d.db", "baohuang", {"deals": 50}, {"spectator_delay": 3}
        )
        await play(room, random.Random(9), 700)
        state = json.loads(await room.state_frame(None))
        log, _ = paged_back(room, None, state)
        seen = room.match.seq - 3
        whole = dumped(frames.history(room.match.log[: seen + 1], None))
        ahead = json.loads(room.history_page(None, room.match.seq + 1))  # asks past its table
        ahead_whole = dumped(frames.history(room.match.log, None))
        await room.close()
        await store.close()
        return state, log, whole, seen, ahead, ahead_whole

    state, log, whole, seen, ahead, ahead_whole = run(go())
    assert state["table"]["seq"] == seen
    assert log == whole and log[-1]["seq"] <= seen
    assert ahead["entries"] == [e for e in whole if e["seq"] < seen + 1][-history.PAGE :]
    assert ahead_whole[-1]["seq"] > seen  # (there was something to hold back)


def test_a_cached_state_frame_is_built_again_after_every_change(tmp_path):
    """What a sync answers from the cache is always what it would build now: after chat, a
    seat gone and come back, an action, the break between deals and a seat's away flag
    turning with time alone."""

    async def go():
        settings = {"deal_pause": 30, "away_seconds": 0.3}
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "c.db", "baohuang", {"deals": 2}, settings
        )
        rng, checked = random.Random(3), []

        async def check(why: str) -> None:
            for seat in (*range(5), None):
                cached = await room.state_frame(seat)
                fresh = frames.state(room.about(), room.table(seat), await room._recent_chat())
                checked.append((why, seat, cached == fresh))

        async def step(why: str, change) -> None:
            for seat in (*range(5), None):  # cached before the change
                await room.state_frame(seat)
            await change
            await check(why)

        await check("start")
        await step("chat", room.chat(conns[1], "hello"))
        await step("gone", room.detach(conns[2]))
        await asyncio.sleep(0.35)
        await check("away with time")
        await step("back", room.attach(conns[2]))
        await step("gone a moment", room.detach(conns[3]))  # (not away yet)
        await step("back at once", room.attach(conns[3]))
        for seat in (2, 3):  # what came back was told its seat is online
            own = [json.loads(f) for f in conns[seat].frames if f.startswith('{"type":"state"')][-1]
            checked.append(("its own seat online", seat, own["room"]["seats"][seat]["online"]))
        state = room.match.state
        seat = state.pending()[0]
        await step("act", room.act(seat, state.legal(seat)[0]))
        await step("a spectator", room.attach(Conn()))
        while room.pause is None:  # to the end of the first deal: a break
            state = room.match.state
            seat = rng.choice(state.pending())
            await room.act(seat, rng.choice(state.legal(seat)))
        await check("break")
        await step("ready", room.ready(conns[0]))
        await room.close()
        await store.close()
        return checked

    checked = run(go())
    assert len({why for why, _, _ in checked}) == 12
    assert [c for c in checked if not c[2]] == []


# ----- over the wire: the history request, and answers paid for by their size -------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "bounded.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


async def watched_bots(url: str, settings: dict | None = None) -> tuple[str, Lobby]:
    """A public room of five bots at full speed, its host watching: (room id, host)."""
    host = await Lobby.guest(url, "Host")
    room = await host.call(
        "POST",
        "/api/rooms",
        {"game": "baohuang", "options": {"deals": 50}, "settings": {**FAST, **(settings or {})}},
    )
    await host.call("POST", f"/api/rooms/{room['id']}/bots", {"bot": "random"})
    return room["id"], host


def test_a_history_request_pages_back_over_the_wire(server, monkeypatch):
    monkeypatch.setattr(history, "TAIL", 5)
    monkeypatch.setattr(history, "PAGE", 7)

    async def go():
        rid, host = await watched_bots(server.url)
        me = await SeatClient.connect(host.ws_url(rid), host.token)
        await host.call("POST", f"/api/rooms/{rid}/start")
        await me.wait(lambda f: f["type"] == "update" and f["table"]["seq"] >= 60)
        await me.request(type="sync")
        state = [f for f in me.frames if f["type"] == "state"][-1]
        before, pages, acks = state["table"]["history_before"], [], []
        while before is not None:
            acks.append(await me.request(type="history", before=before))
            page = [f for f in me.frames if f["type"] == "history"][-1]
            pages.append(page)
            before = page["before"]
        refused = await me.request(type="history", before=-1)
        await me.close()
        return state, pages, acks, refused

    state, pages, acks, refused = run(go())
    table = state["table"]
    assert len(table["history"]) == 5 and table["history_before"] == table["history"][0]["seq"]
    assert all(a["type"] == "ack" for a in acks)
    assert all(0 < len(p["entries"]) <= 7 and p["game_id"] == table["game_id"] for p in pages)
    assert pages[-1]["before"] is None and pages[-1]["entries"][0]["seq"] == 0
    seqs = [e["seq"] for p in reversed(pages) for e in p["entries"]] + [
        e["seq"] for e in table["history"]
    ]
    assert seqs == sorted(set(seqs))  # in order, none twice, none missing between pages
    assert all(p["id"] == a["id"] for p, a in zip(pages, acks, strict=True))
    assert refused["type"] == "error" and refused["code"] == "bad_message"


def test_a_sync_is_paid_for_by_the_size_of_its_answer(server):
    """Syncs sent at once are answered only as far as their answers' bytes allow: each whole
    4 KiB of a state frame (here some 20 KiB: it holds the room's last 50 chat lines) costs
    one more frame of the connection's allowance (BURST at once)."""
    from yamen.server.live import ANSWER_UNIT, BURST

    async def go():
        rid, host = await watched_bots(server.url, {"bot_delay": 10})
        me = await SeatClient.connect(host.ws_url(rid), host.token)
        await host.call("POST", f"/api/rooms/{rid}/start")
        await me.wait(lambda f: f["type"] == "update")
        for i in range(50):
            await me.request(type="chat", text=f"{i} " + "x" * 400)
        await asyncio.sleep(BURST / 50 + 0.5)  # the allowance filled up again
        await me.request(type="sync")
        size = len(frame_text(me.frames[-2]).encode())
        cost = 1 + size // ANSWER_UNIT
        sent = int(BURST) // cost + 20  # (fewer than BURST: all answered, were it one each)
        for _ in range(sent):
            await me.send(type="sync")
        await asyncio.sleep(BURST / 50 + 0.5)  # (a frame refused for its rate has no id)
        await me.request(type="ready")  # answered after every sync before it
        await me.close()
        return me.frames, size, cost, sent

    got, size, cost, sent = run(go())
    synced = got[[f.get("type") for f in got].index("chat") :]
    states = [f for f in synced if f["type"] == "state"][1:]  # (the first sync's: measured)
    refused = [f for f in synced if f.get("code") == "rate_limited" and f["id"] is None]
    assert size >= 4 * ANSWER_UNIT  # (so each answer costs four frames more at least)
    assert sent < BURST and len(states) + len(refused) == sent
    assert refused and len(states) <= BURST / cost + 2, (len(states), cost, sent)


def frame_text(frame: dict) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


# ----- access before a load -------------------------------------------------------------------


def test_an_outsider_of_a_private_room_loads_nothing_and_is_told_it_is_missing(server, monkeypatch):
    loads = Counted(monkeypatch, registry, "load_room")
    rooms = server.app.state.rooms

    async def go():
        host = await Lobby.guest(server.url, "Host")
        stranger = await Lobby.guest(server.url, "Stranger")
        made = await host.call("POST", "/api/rooms", {"game": "baohuang", "public": False})
        rid = made["id"]
        assert rid in rooms.loaded
        await rooms.unload(rid)
        answers = {}
        for who, lobby in (("anyone", Lobby(server.url)), ("stranger", stranger)):
            for name, path in (("private", rid), ("missing", "nosuchroom")):
                got = await lobby.http.get(
                    f"/api/rooms/{path}",
                    headers={"Authorization": f"Bearer {lobby.token}"} if lobby.token else {},
                )
                answers[who, name, "get"] = (got.status_code, got.json())
                seat = await stranger.http.post(
                    f"/api/rooms/{path}/seats/1",
                    json={},
                    headers={"Authorization": f"Bearer {stranger.token}"},
                )
                answers[who, name, "seat"] = (seat.status_code, seat.json())
                start = await stranger.http.post(
                    f"/api/rooms/{path}/start",
                    headers={"Authorization": f"Bearer {stranger.token}"},
                )
                answers[who, name, "start"] = (start.status_code, start.json())
                ws = await SeatClient.connect(lobby.ws_url(path), lobby.token)
                answers[who, name, "hello"] = ws.frames[-1]
        unloaded, counted = rid not in rooms.loaded, loads.calls
        invited = await SeatClient.connect(host.ws_url(rid), invite=made["invite"])
        welcome = invited.frames[0]
        await invited.close()
        return rid, answers, unloaded, counted, welcome, loads.calls

    rid, answers, unloaded, counted, welcome, after = run(go())
    assert unloaded and counted == 0  # nothing was loaded for them
    for key, answer in answers.items():
        if key[1] == "private":
            missing = answers[(key[0], "missing", key[2])]
            assert json.dumps(answer).replace(rid, "X") == json.dumps(missing).replace(
                "nosuchroom", "X"
            ), (key, answer, missing)
    assert answers["anyone", "private", "get"][0] == 404
    assert answers["anyone", "private", "hello"]["code"] == "not_found"
    assert welcome["type"] == "welcome" and after == 1  # loaded once someone may watch


def test_an_outsider_of_a_private_room_takes_no_lease_in_a_cluster(database, redis_url):  # noqa: F811
    """In a cluster too: neither process takes the room's lease or loads it for an outsider,
    who is told what a missing room's are; the invited are let in."""
    from yamen.server.identity import new_guest

    async def go():
        async with cluster(database, redis_url) as (one, two):
            host, _ = await new_guest(one.store, "host")
            stranger, _ = await new_guest(one.store, "stranger")
            link = await one.create(host.id, get_game("baohuang"), False, FAST)
            rid, invite = link.id, link.invite
            await one.unload(rid)  # let go of: nobody owns it now
            told = []
            for rooms in (one, two):
                for player, room_id in ((None, rid), (stranger.id, rid), (None, "nosuchroom")):
                    with pytest.raises(RoomError) as refused:
                        await rooms.watch(room_id, player, None)
                    exc = refused.value
                    told.append((exc.code, exc.status, str(exc).replace(room_id, "X"), exc.params))
            owners = await two.leases.holders([rid])
            loaded = rid in one.loaded or rid in two.loaded
            invited = await two.watch(rid, None, invite)
            return told, owners, loaded, invited.info()["id"] == rid

    told, owners, loaded, admitted = run(go())
    assert len(set(map(repr, told))) == 1 and told[0][:2] == ("not_found", 404)
    assert owners == [None] and not loaded
    assert admitted


# ----- a room's load: its last game and its stored totals -----------------------------------------


async def finished_games(path, count: int, then: int | None = None):
    """A room of people whose match has ``count`` finished games of Bao Qing-tian, then one
    played ``then`` actions in (None: none): (store, room id, each game's record)."""
    store, rooms, room, conns, spectator = await people_room(path, "bao_qingtian", {"players": 5})
    rng = random.Random(count)
    for number in range(count):
        if number:
            await room.run(Start("p0"))
        await play(room, rng)
    if then is not None:
        await room.run(Start("p0"))
        await play(room, rng, then)
    scores = list(room.match.scores)
    await rooms.unload(room.id)
    return store, room.id, scores


def replayed_totals(records) -> list[Fraction]:
    """The old load: every finished game replayed and its scores added up."""
    totals = None
    for record in records:
        state = record.start()
        for _ in replay_steps(record, state):
            pass
        result = state.result()
        if result is not None:
            scores = list(result.scores)
            totals = (
                scores if totals is None else [a + b for a, b in zip(totals, scores, strict=True)]
            )
    return totals


@pytest.mark.parametrize("then", [None, 6])
def test_a_room_is_loaded_from_its_last_game_and_its_stored_totals(tmp_path, monkeypatch, then):
    """Six finished games (and, with ``then``, a seventh in progress): the load replays the
    last game only, and its totals are exactly what replaying every game gave."""
    counted = {"games": 0, "actions": 0}
    real = match.steps

    def counting(record, state):
        counted["games"] += 1
        for item in real(record, state):
            counted["actions"] += 1
            yield item

    async def go():
        store, rid, scores = await finished_games(tmp_path / "l.db", 6, then)
        ids = [g.id for g in await store_games(store, rid)]
        records = [(await store.game(i)).record for i in ids]
        monkeypatch.setattr(match, "steps", counting)
        room = await load_room(store, rid)
        got = room.match.scores, room.match.number, room.match.seq, room.status
        await room.close()
        await store.close()
        return scores, records, got

    scores, records, (totals, number, seq, status) = run(go())
    calls, replayed = counted["games"], counted["actions"]
    finished = records if then is None else records[:-1]
    assert totals == scores == replayed_totals(finished)  # exact, as the old replay gave
    assert all(isinstance(s, Fraction) for s in totals)
    assert calls == 1 and replayed == len(records[-1].actions) == seq  # one game replayed
    assert number == len(records) and status == ("over" if then is None else "playing")


async def store_games(store: Store, room_id: str):
    from sqlalchemy import select

    from yamen.server.tables import GameRow

    async with store.session() as s:
        return list(
            await s.scalars(
                select(GameRow).where(GameRow.room_id == room_id).order_by(GameRow.number)
            )
        )


def test_a_match_past_its_last_game_is_refused(tmp_path):
    async def go():
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "m.db", "bao_qingtian", {"players": 3}
        )
        await play(room, random.Random(1))
        room.match.number = MAX_GAMES - 1  # as if it had played all but one
        await room.run(Start("p0"))  # the last game
        await play(room, random.Random(2))
        with pytest.raises(RoomError) as refused:
            await room.run(Start("p0"))
        after = room.match.number, room.status
        await rooms.unload(room.id)
        again = await load_room(store, room.id)
        with pytest.raises(RoomError) as reloaded:
            await again.run(Start("p0"))
        await again.close()
        await store.close()
        return refused.value, reloaded.value, after

    refused, reloaded, after = run(go())
    assert (refused.code, refused.status, refused.params) == (
        "match_over",
        409,
        {"most": MAX_GAMES},
    )
    assert reloaded.code == "match_over"
    assert after == (MAX_GAMES, "over")  # nothing started


def test_a_room_is_loaded_once_and_rooms_load_side_by_side(tmp_path, monkeypatch):
    """Clients asking at once for a room being loaded wait for that one load; another room's
    load does not wait for it (a load replays a game on a worker thread)."""
    loads: list[str] = []

    async def go():
        held = asyncio.Event()

        async def slow(store, room_id, thinker):
            loads.append(room_id)
            if room_id == "a":
                await held.wait()
            return Conn(room_id)  # (what the registry keeps: any object will do here)

        monkeypatch.setattr(registry, "load_room", slow)
        rooms = Rooms(Store(f"sqlite:///{tmp_path / 'x.db'}"))
        first, second = (asyncio.create_task(rooms.get("a")) for _ in range(2))
        other = await asyncio.wait_for(rooms.get("b"), 5)  # while "a" is still loading
        waiting = not first.done() and not second.done()
        held.set()
        return other, waiting, await first, await second, rooms.loading.locks

    other, waiting, first, second, locks = run(go())
    assert other.player == "b" and waiting
    assert first is second and loads == ["a", "b"]
    assert locks == {}  # nothing kept once the loads are done


def test_a_load_replays_its_game_in_turns_of_the_event_loop(tmp_path, monkeypatch):
    """A load's replay gives the event loop back every ``TURN`` seconds of work: another task
    runs between its turns (with a turn of no time: after every action), and the game is the
    same as replayed in one go."""

    async def go():
        store, rid, _ = await finished_games(tmp_path / "t.db", 1)
        game = await store.last_game(rid)
        await store.close()
        actions = len(game.record.actions)
        whole, _ = await match.replay(game, turn=math.inf)
        (again, log), turns = await turns_during(match.replay(game, turn=0.0))
        return actions, whole, again, log, turns

    actions, whole, again, log, turns = run(go())
    assert turns >= actions  # a turn of the loop after every action
    assert again.result().to_json() == whole.result().to_json() and len(log) == actions + 1


def test_an_unloaded_rooms_log_is_freed_a_part_at_a_time(tmp_path, monkeypatch):
    """Unloading a room lets go of its game's log ``part`` steps per turn of the event loop
    (a long game's, freed at once, held the loop 5-6 ms): another task runs between the
    parts, and nothing of the log is left."""
    monkeypatch.setattr(match, "FREED_A_TURN", 2)

    async def go():
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "t.db", "bao_qingtian", {"players": 5}
        )
        await play(room, random.Random(5), 20)
        for conn in conns + [spectator]:
            await room.detach(conn)
        steps = len(room.match.log)
        _, turns = await turns_during(rooms.unload(room.id))
        await store.close()
        return steps, turns, len(room.match.log), room.id in rooms.loaded

    steps, turns, left, still_loaded = run(go())
    assert steps > 10 and left == 0 and not still_loaded
    assert turns >= steps // 2  # a turn of the loop after every part of 2 steps


def test_a_rematch_frees_the_last_games_log_a_part_at_a_time(tmp_path, monkeypatch):
    """The next game's start lets go of the last game's log as unloading does, ``part`` steps
    a turn of the event loop once the new game is told: the old log ends empty, another task
    ran between its parts, and the new game's log holds its opening alone."""
    monkeypatch.setattr(match, "FREED_A_TURN", 2)

    async def go():
        store, rooms, room, conns, spectator = await people_room(
            tmp_path / "t.db", "bao_qingtian", {"players": 5}
        )
        await play(room, random.Random(6))
        last = room.match.log
        steps = len(last)
        _, turns = await turns_during(room.run(Start("p0")))
        new = len(room.match.log), room.match.number
        await rooms.unload(room.id)
        await store.close()
        return steps, turns, len(last), new

    steps, turns, left, new = run(go())
    assert steps > 10 and left == 0 and new == (1, 2)
    assert turns >= steps // 2  # a turn of the loop after every part of 2 steps
