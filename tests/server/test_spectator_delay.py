"""The spectator delay (yamen/server/delay.py): with ``spectator_delay`` N, a spectator sees the
game in progress N actions behind (its tables are the replayed game's then, its updates carry
the step that just became visible), a seated player sees it live, and when the game ends the
spectator gets every step held back. Checked against a replay of the game's record, action by
action, in a hidden-role game played by people."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.server.helpers import FAST, ServerThread, room_with, run
from yamen.client import LobbyError, SeatClient
from yamen.errors import OptionsError
from yamen.records import Record, Recorder, plain, steps
from yamen.server import frames
from yamen.server.delay import Lag, behind
from yamen.server.settings import Settings

GAME, OPTIONS = "criminal_poker", {"mode": "sheriff", "players": 5}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "delay.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


async def play(url: str, held: int, seed: int) -> tuple[Record, list[dict], list[dict], list]:
    """A game of people, acted one action at a time, watched by a spectator who asks for the
    table after each action: the record, each moment (k, the spectator's table, its updates so
    far, the live table of the seat that acted), the spectator's frames and the first seat's."""
    rid, lobbies = await room_with(
        url, GAME, OPTIONS, 99, settings={**FAST, "spectator_delay": held}
    )
    seats = [await SeatClient.connect(lobby.ws_url(rid), lobby.token) for lobby in lobbies]
    spectator = await SeatClient.connect(lobbies[0].ws_url(rid))
    await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
    rng, moments, k = random.Random(seed), [], 0
    while True:
        await seats[0].request(type="sync")
        live = seats[0].table
        if live["result"] is not None:
            break
        seat = seats[live["pending"][0]]
        await seat.request(type="sync")
        table = seat.table
        answer = await seat.request(type="act", action=rng.choice(table["legal"]), seq=k)
        assert answer["type"] == "ack", answer
        k += 1
        await spectator.request(type="sync")
        updates = [f for f in spectator.frames if f["type"] == "update"]
        moments.append((k, spectator.table, [u["table"]["seq"] for u in updates], seat.table))
    await spectator.wait(lambda f: f["type"] == "update" and f["table"]["result"] is not None)
    info = await lobbies[0].call("GET", f"/api/rooms/{rid}")
    record = Record.from_json(await lobbies[0].call("GET", f"/api/games/{info['game_id']}/record"))
    for client in (*seats, spectator):
        await client.close()
    return record, moments, spectator.frames, seats[0].frames


def truth(record: Record) -> list[tuple[dict, list]]:
    """Each step of the replayed game: the spectator's view then, and its share of the events."""
    state = record.start()
    out = [(plain(state.view(None)), plain(frames.shown(list(state.opening_events), None)))]
    for _seat, _text, events in steps(record, state):
        out.append((plain(state.view(None)), plain(frames.shown(events, None))))
    return out


def test_a_spectator_sees_the_game_three_actions_behind_and_catches_up_at_its_end(server):
    record, moments, watched, seated = run(play(server.url, 3, 7))
    game, n = truth(record), len(record.actions)
    assert n > 3 and len(moments) == n
    for k, table, updates, live in moments:
        seen = n if k == n else max(0, k - 3)  # the last action: the spectator catches up
        assert table["seq"] == seen, (k, table["seq"])
        assert table["view"] == game[seen][0], f"not the game as it was after {seen} actions"
        assert table["deadlines"] == {} and table["pause"] is None
        assert (table["result"] is None) == (k < n)
        assert [e["seq"] for e in table["history"]] == [j for j in range(seen + 1) if game[j][1]]
        assert updates == list(range(seen + 1)), (k, updates)  # nothing from beyond seq − 3
        assert live["seq"] == k  # the seat that acted sees the live game
    # every update the spectator got: each step once, in order, with that step's events
    updates = [f for f in watched if f["type"] == "update"]
    assert [u["table"]["seq"] for u in updates] == list(range(n + 1))
    for u in updates:
        view, events = game[u["table"]["seq"]]
        assert u["events"] == events and u["table"]["view"] == view
    # the end: the steps held back, one frame after another (sent together)
    ends = [i for i, f in enumerate(watched) if f["type"] == "update" and f["table"]["seq"] > n - 3]
    assert ends == list(range(ends[0], ends[0] + 3))
    assert updates[-1]["table"]["result"] is not None and updates[-1]["table"]["seq"] == n
    final = [f for f in seated if f["type"] == "update"][-1]["table"]
    assert updates[-1]["table"]["totals"] == final["totals"]
    assert updates[-1]["table"]["result"] == final["result"]
    # a seated player got every step live: one update per action, as it happened
    seat_updates = [f["table"]["seq"] for f in seated if f["type"] == "update"]
    assert seat_updates == list(range(n + 1))


def test_without_a_delay_a_spectator_sees_the_live_game(server):
    record, moments, watched, _ = run(play(server.url, 0, 3))
    game = truth(record)
    for k, table, updates, _live in moments:
        assert table["seq"] == k and table["view"] == game[k][0]
        assert updates == list(range(k + 1))


def test_the_delay_is_a_whole_number_of_actions_from_0_to_1000():
    assert Settings.read({"spectator_delay": 1000}, GAME).spectator_delay == 1000
    assert Settings.read({}, GAME).spectator_delay == 0
    assert behind(2, 3) == 0 and behind(10, 3) == 7
    for bad in (-1, 1001, 2.5, True, "3", None):
        with pytest.raises(OptionsError) as refused:
            Settings.read({"spectator_delay": bad}, GAME)
        assert refused.value.reason == "setting_count", bad


def test_a_bad_delay_is_refused_by_the_lobby_and_changes_nothing(server):
    async def go() -> tuple[list[LobbyError], dict[str, Any]]:
        rid, lobbies = await room_with(server.url, GAME, OPTIONS, 1)
        host, path, bad = lobbies[0], f"/api/rooms/{rid}", []
        await host.call("PATCH", path, {"settings": {"spectator_delay": 5}})
        for value in (-1, 1001, 1.5):
            try:
                await host.call("PATCH", path, {"settings": {"spectator_delay": value}})
            except LobbyError as exc:
                bad.append(exc)
        try:
            await host.call(
                "POST", "/api/rooms", {"game": GAME, "settings": {"spectator_delay": 2000}}
            )
        except LobbyError as exc:
            bad.append(exc)
        return bad, await host.call("GET", path)

    bad, info = run(go())
    assert [(e.status, e.code, e.params.get("reason")) for e in bad] == [
        (422, "bad_options", "setting_count")
    ] * 4
    assert bad[0].params == {
        "reason": "setting_count",
        "setting": "spectator_delay",
        "low": 0,
        "high": 1000,
    }
    assert info["settings"]["spectator_delay"] == 5


def test_the_lag_moves_on_one_action_at_a_time_and_starts_again_for_another_game():
    """As a restarted room finds it: a record it has not seen is replayed from its start; the
    lag then applies only the actions it has not applied yet."""
    games = []
    for seed in (1, 2):
        recorder, rng = Recorder(GAME, OPTIONS, seed), random.Random(seed)
        while not recorder.over and len(recorder.record.actions) < 12:
            seat = recorder.pending()[0]
            recorder.act(seat, rng.choice(recorder.legal(seat)))
        games.append(recorder.record)
    lag = Lag()
    for record in (*games, games[0]):
        game = truth(record)
        for k in (0, 3, 4, 9, 5, 12):
            state = lag.at(record, k)
            assert lag.seq == k and plain(state.view(None)) == game[k][0]
