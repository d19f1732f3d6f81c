"""Replays of finished games: computed off the event loop (the lobby answers meanwhile),
limited (429 with Retry-After beyond the workers), and cached without changing a single
answer."""

from __future__ import annotations

import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.server.helpers import FAST, ServerThread, run, watch_until_over
from yamen.client import Lobby
from yamen.records import Record, Recorder
from yamen.selfplay import play_random


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "replay.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


def finished_game(base: str) -> str:
    """The public id of a finished game, played by bots in a new public room."""

    async def go():
        host = await Lobby.guest(base, "Host")
        body = {"game": "bao_qingtian", "settings": FAST, "seat": 0}
        room = await host.call("POST", "/api/rooms", body)
        rid = room["id"]
        for seat in range(1, len(room["seats"])):
            await host.call("PUT", f"/api/rooms/{rid}/seats/{seat}/bot", {"bot": "rules"})
        await host.call("POST", f"/api/rooms/{rid}/start")
        await host.call("POST", f"/api/rooms/{rid}/leave")  # a bot plays the host's seat
        return (await watch_until_over(host, rid))["game_id"]

    return run(go())


class Held:
    """Makes the next replay's first step (dealing the game) wait until released: a replay
    that takes as long as the test likes, whatever the machine's speed."""

    def __init__(self, monkeypatch):
        self.entered, self.released = threading.Event(), threading.Event()
        start = Record.start

        def held_start(record):
            if not self.entered.is_set():
                self.entered.set()
                self.released.wait(60)
            return start(record)

        monkeypatch.setattr(Record, "start", held_start)


def test_the_lobby_answers_while_a_replay_is_computed(server, monkeypatch):
    gid = finished_game(server.url)
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    held = Held(monkeypatch)
    with ThreadPoolExecutor(1) as pool:
        replaying = pool.submit(
            httpx.get, f"{server.url}/api/games/{gid}/replay?step=5", timeout=60
        )
        try:
            assert held.entered.wait(30)
            # the replay is stuck in the middle of its work; the event loop is not
            guest = httpx.post(f"{server.url}/api/guests", json={"name": "Di"}, timeout=10)
            assert guest.status_code == 201
            assert not replaying.done()
        finally:
            held.released.set()
        shown = replaying.result().json()
    state = Record.from_json(record).start()
    for seat, text in record["actions"][:5]:
        state.apply_text(seat, text)
    assert shown["seats"] == [json.loads(json.dumps(state.view(s))) for s in range(state.num_seats)]


def test_replays_beyond_the_workers_wait_their_turn(server, monkeypatch):
    gid = finished_game(server.url)
    replays = server.server.config.app.state.replays
    monkeypatch.setattr(replays, "workers", 1)
    held = Held(monkeypatch)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(httpx.get, f"{server.url}/api/games/{gid}/replay?step=2", timeout=60)
        try:
            assert held.entered.wait(30)
            refused = httpx.get(f"{server.url}/api/games/{gid}/replay?step=3", timeout=10)
        finally:
            held.released.set()
        assert first.result().status_code == 200
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "1"
    assert refused.json()["detail"]["code"] == "busy"
    assert httpx.get(f"{server.url}/api/games/{gid}/replay?step=3").status_code == 200


@pytest.mark.parametrize("game", ["baohuang", "criminal_poker", "bao_qingtian"])
def test_cached_positions_are_the_positions_replayed_from_the_start(game):
    from yamen.server.replays import Replays, replay_from_start

    recorder = Recorder(game, {"deals": 1} if game == "baohuang" else {}, seed=11)
    play_random(recorder, random.Random(11))
    record = recorder.finish()
    steps = list(range(len(record.actions) + 1))
    rng = random.Random(5)
    asked = rng.sample(steps, len(steps)) + rng.choices(steps, k=20)  # any order, repeats

    async def go():
        replays = Replays(workers=2, every=7, answers=16)
        try:
            return [(s, await replays.position(1, record, s)) for s in asked]
        finally:
            replays.close()

    for step, shown in run(go()):
        assert shown == replay_from_start(record, step), step


def test_each_step_carries_all_its_events_and_the_index_lists_their_kinds():
    """A finished game hides nothing: a step's events include those once meant for one seat
    (the hands dealt), and the index gives each step's kinds as the positions do."""
    from yamen.engine import DEAL_OVER
    from yamen.server.replays import Replays

    recorder = Recorder("baohuang", {"deals": 2}, seed=3)
    play_random(recorder, random.Random(3))
    record = recorder.finish()

    async def go():
        replays = Replays(workers=2, every=9)
        try:
            steps = range(len(record.actions) + 1)
            return await replays.index(7, record), [
                await replays.position(7, record, s) for s in steps
            ]
        finally:
            replays.close()

    kinds, shown = run(go())
    assert kinds == [[e["kind"] for e in p["events"]] for p in shown]
    dealt = [e for e in shown[0]["events"] if e["to"] is not None]
    assert dealt and all(len(e["to"]) == 1 for e in dealt)  # each seat's hand, shown to all now
    over = [s for s, k in enumerate(kinds) if DEAL_OVER in k]
    assert len(over) == 2 and over[-1] == len(record.actions)
    assert any("lead" in k for k in kinds[over[0] + 1 :])  # the second deal's first trick


def test_the_index_over_http(server):
    gid = finished_game(server.url)
    record = httpx.get(f"{server.url}/api/games/{gid}/record").json()
    index = httpx.get(f"{server.url}/api/games/{gid}/replay/index").json()
    assert index["steps"] == len(record["actions"]) == len(index["kinds"]) - 1
    assert index["game"] == "bao_qingtian" and index["seat"] is None  # no seat: anonymous
    last = httpx.get(f"{server.url}/api/games/{gid}/replay?step={index['steps']}").json()
    assert [e["kind"] for e in last["events"]] == index["kinds"][-1]
    assert httpx.get(f"{server.url}/api/games/nope/replay/index").status_code == 404
