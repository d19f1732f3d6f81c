"""Live play over WebSockets: whole games, refusals, reconnecting, spectators, chat, timers."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.conformance import served
from tests.server.helpers import FAST, ServerThread, play_to_end, room_with, run
from yamen.client import Lobby, SeatClient
from yamen.engine import game_type, get_game
from yamen.records import Record, replay


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "live.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


async def seated(server, game, options=None, people=1, bot="random", settings=None):
    rid, lobbies = await room_with(server.url, game, options, people, bot, settings)
    seats = [await SeatClient.connect(lobbies[0].ws_url(rid), lobby.token) for lobby in lobbies]
    return rid, lobbies, seats


def people_at(index: int, game: str, options: dict) -> int:
    """How many people a case seats (the rest are bots): every seat in a game's first case,
    two in the others (people and bots at one table)."""
    seats = get_game(game, options).num_seats
    return seats if index == 0 or seats <= 2 else 2


def cases() -> list:
    """Every registered game served (tests/conformance.py), with the people it seats."""
    found, first = [], set()
    for case in served():
        index = 0 if case.game not in first else 1
        first.add(case.game)
        found.append(case.param(people_at(index, case.game, case.options)))
    return found


GAMES = cases()


def check_live_game(server, game: str, options: dict, people: int, seed: int = 7) -> None:
    """The contract: people (random legal moves) and bots (the game's first bot, else random)
    play a whole game over WebSockets; every seat sees the same result, and the room's record
    replays to it."""
    bot = next(iter(game_type(game).bots), "random")  # its first: the usual (rules) bot

    async def go():
        rid, lobbies, seats = await seated(server, game, options, people, bot=bot)
        host = lobbies[0]
        rng = random.Random(seed)
        await host.call("POST", f"/api/rooms/{rid}/start")
        result = await play_to_end(seats, lambda s: rng.choice(s.table["legal"]))
        info = await host.call("GET", f"/api/rooms/{rid}")
        record = await host.call("GET", f"/api/games/{info['game_id']}/record")
        for seat in seats:
            await seat.close()
        return result, info, record, seats

    result, info, data, seats = run(go())
    assert info["status"] == "over"
    assert all(s.table["result"] == result for s in seats)
    state = replay(Record.from_json(data))
    assert json.loads(json.dumps(state.result().to_json())) == result
    assert [seat.seat for seat in seats] == list(range(len(seats)))


@pytest.mark.parametrize(("game", "options", "people"), GAMES)
def test_people_and_bots_play_to_the_end(server, game, options, people):
    check_live_game(server, game, options, people)


def test_a_rematch_continues_the_match(server):
    async def go():
        rid, lobbies, seats = await seated(server, "bao_qingtian", {"players": 3}, people=1)
        host = lobbies[0]
        totals = []
        for number in (1, 2):
            await host.call("POST", f"/api/rooms/{rid}/start")
            result = await play_to_end(seats, number=number)
            totals.append(result["scores"])
        info = await host.call("GET", f"/api/rooms/{rid}")
        await seats[0].close()
        return totals, info

    (first, second), info = run(go())
    assert info["number"] == 2
    from fractions import Fraction

    expected = [Fraction(str(a)) + Fraction(str(b)) for a, b in zip(first, second, strict=True)]
    assert [Fraction(str(s)) for s in info["scores"]] == expected


MALFORMED = [
    ("not json", "bad_json"),
    ('{"type": "act"', "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"type": "dance"}', "bad_message"),
    ('{"type": "act", "action": true}', "bad_message"),
    ('{"type": "act", "action": 1.0}', "bad_message"),
    ('{"type": "act", "action": "1"}', "bad_message"),
    ('{"type": "act", "action": 0, "extra": 1}', "bad_message"),
    ('{"type": "act"}', "bad_message"),
    ('{"type": "act", "action": 0, "text": "pass"}', "bad_message"),
    ('{"type": "act", "action": 999999}', "illegal"),
    ('{"type": "act", "action": -1}', "illegal"),
    ('{"type": "act", "text": "9 9 9 9 9 9"}', "illegal"),
    ('{"type": "act", "action": 0, "seq": 12345}', "stale"),
    ('{"type": "chat", "text": ""}', "bad_message"),
    ('{"type": "chat", "text": "' + "x" * 600 + '"}', "bad_message"),
    ('{"type": "hello", "v": 1}', "bad_message"),
    ('{"type": "sync", "id": {"a": 1}}', "bad_message"),
    ("x" * 9000, "too_large"),
]


def test_malformed_and_illegal_frames_are_answered_and_change_nothing(server):
    async def go():
        # five people, one connected: nothing moves unless this test acts
        rid, lobbies = await room_with(server.url, "baohuang", {"deals": 1}, people=5)
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
        asked, waiting = watcher.table["pending"][0], watcher.table["pending"]
        await watcher.close()
        me = await SeatClient.connect(lobbies[asked].ws_url(rid), lobbies[asked].token)
        before = me.table
        codes = []
        for raw, _ in MALFORMED:
            start = len(me.frames)
            await me.send_raw(raw)
            frame = await me.wait(lambda f: f["type"] == "error", start=start)
            codes.append(frame["code"])
        await me.send_raw(b"\x00\x01binary")
        binary = await me.wait(lambda f: f["type"] == "error" and "binary" in f["message"])
        await me.request(type="sync")
        after = me.table
        idle = next(s for s in range(5) if s not in waiting)
        other = await SeatClient.connect(lobbies[idle].ws_url(rid), lobbies[idle].token)
        not_mine = await other.request(type="act", action=0)
        await other.close()
        await me.close()
        return codes, binary, before, after, not_mine

    codes, binary, before, after, not_mine = run(go())
    assert codes == [code for _, code in MALFORMED]
    assert binary["code"] == "bad_message"
    assert after == before
    assert not_mine["code"] == "not_your_turn"


def test_hello_is_required_and_checked(server):
    async def first_frame(hello):
        rid, lobbies = await room_with(server.url, "baohuang", people=1)
        url = lobbies[0].ws_url(rid)
        import websockets

        async with websockets.connect(url) as ws:
            await ws.send(json.dumps(hello))
            frame = json.loads(await ws.recv())
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            return frame

    assert run(first_frame({"type": "sync"}))["code"] == "no_hello"
    assert run(first_frame({"type": "hello", "v": 2}))["code"] == "version"
    forged = {"type": "hello", "v": 1, "token": "forged-token-forged-token-forged-token-1234"}
    assert run(first_frame(forged))["code"] == "bad_token"


def test_unknown_and_private_rooms_are_not_found(server):
    async def go():
        host = await Lobby.guest(server.url, "Host")
        room = await host.call("POST", "/api/rooms", {"game": "baohuang", "public": False})
        nobody = await SeatClient.connect(host.ws_url("nosuchroom"))
        stranger = await SeatClient.connect(host.ws_url(room["id"]))
        invited = await SeatClient.connect(host.ws_url(room["id"]), invite=room["invite"])
        frames = nobody.frames[-1], stranger.frames[-1], invited.frames[0]
        await invited.close()
        return frames

    nobody, stranger, invited = run(go())
    assert nobody["code"] == stranger["code"] == "not_found"
    assert invited["type"] == "welcome" and invited["seat"] is None


def test_reconnecting_from_a_new_tab_restores_the_table(server):
    async def go():
        rid, lobbies, (me,) = await seated(
            server, "criminal_poker", {"players": 4}, people=1, settings={**FAST, "bot_delay": 0.02}
        )
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        await me.wait(lambda f: f["type"] == "update" and f["table"]["legal"])
        await me.close()
        again = await SeatClient.connect(lobbies[0].ws_url(rid), lobbies[0].token)
        state = await again.wait(lambda f: f["type"] == "state")
        spectator = await SeatClient.connect(lobbies[0].ws_url(rid))
        watched = await spectator.wait(lambda f: f["type"] == "state")
        tried = await spectator.request(type="act", action=0)
        chat = await spectator.request(type="chat", text="hi")
        await again.close()
        await spectator.close()
        return again.seat, state, watched, tried, chat

    seat, state, watched, tried, chat = run(go())
    assert seat == 0
    table = state["table"]
    assert table["view"]["seat"] == 0 and table["legal"]
    assert watched["table"]["legal"] == [] and watched["table"]["view"]["seat"] is None
    assert tried["code"] == "not_seated" and chat["code"] == "spectator"


def test_chat_reaches_everyone_and_is_kept(server):
    async def go():
        rid, lobbies, seats = await seated(server, "criminal_poker", {"players": 4}, people=2)
        ack = await seats[0].request(type="chat", text="who did it?")
        heard = await seats[1].wait(lambda f: f["type"] == "chat")
        late = await SeatClient.connect(lobbies[0].ws_url(rid), lobbies[1].token)
        state = await late.wait(lambda f: f["type"] == "state")
        for seat in (*seats, late):
            await seat.close()
        return ack, heard, state["chat"]

    ack, heard, history = run(go())
    assert ack["type"] == "ack"
    assert (heard["name"], heard["seat"], heard["text"]) == ("host", 0, "who did it?")
    assert [(line["name"], line["text"]) for line in history] == [("host", "who did it?")]


def test_a_turn_timer_lets_a_bot_decide_for_a_slow_person(server):
    async def go():
        settings = {**FAST, "turn_seconds": 1}
        rid, lobbies, (me,) = await seated(
            server, "bao_qingtian", {"players": 3}, 1, "random", settings
        )
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        mine = await me.wait(lambda f: f["type"] == "update" and 0 in f["table"]["pending"], 20)
        deadline = mine["table"]["deadlines"]["0"]
        seq = mine["table"]["seq"]
        moved = await me.wait(lambda f: f["type"] == "update" and f["table"]["seq"] > seq, 20)
        await me.close()
        return deadline, moved

    deadline, moved = run(go())
    assert moved["table"]["seq"] >= 1 and deadline > 0


def test_a_gone_player_is_played_by_a_bot_until_they_return(server):
    async def go():
        settings = {**FAST, "away_seconds": 0.5}
        rid, lobbies, seats = await seated(
            server, "criminal_poker", {"players": 4}, 2, "random", settings
        )
        stay, go_away = seats
        await go_away.close()
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        result = await play_to_end([stay], timeout=60)
        info = await lobbies[0].call("GET", f"/api/rooms/{rid}")
        await stay.close()
        return result, info

    result, info = run(go())
    assert result is not None
    assert info["seats"][1]["away"] is True and info["seats"][1]["name"] == "p1"


def test_a_spectator_who_takes_a_seat_plays_on_the_same_connection(server):
    async def go():
        rid, lobbies = await room_with(server.url, "criminal_poker", {"players": 4}, people=1)
        guest = await Lobby.guest(server.url, "late")
        await lobbies[0].call("DELETE", f"/api/rooms/{rid}/seats/3/bot")
        watching = await SeatClient.connect(guest.ws_url(rid), guest.token)
        before = watching.seat
        await guest.call("POST", f"/api/rooms/{rid}/seats/3")
        state = await watching.wait(
            lambda f: f["type"] == "state" and f["room"]["seats"][3]["name"]
        )
        await watching.close()
        return before, state

    before, state = run(go())
    assert before is None
    assert state["room"]["seats"][3]["online"] is True


def test_a_client_too_slow_to_read_is_dropped_not_waited_for():
    from yamen.server import live

    class StuckSocket:
        closed_with = None

        async def send_text(self, text):
            await asyncio.sleep(3600)  # never drains

        async def close(self, code=1000):
            self.closed_with = code

    async def go():
        ws = StuckSocket()
        client = live.WebSocketClient(ws, None)
        for i in range(live.QUEUE + 10):
            client.send(f"frame {i}")  # never blocks the room
        await client.writer
        return client, ws

    client, ws = run(go())
    assert client.lagging and ws.closed_with == 1013


def test_frames_are_rate_limited_but_moves_the_game_takes_are_free():
    from yamen.server import live

    class Quiet:
        async def send_text(self, text):
            pass

        async def close(self, code=1000):
            pass

    async def go():
        client = live.WebSocketClient(Quiet(), None)
        burst = [client.allowed() for _ in range(int(live.BURST))]
        flooded = client.allowed()
        client.refund()  # the frame just let through was a move the game took
        after_refund = client.allowed()
        await client.close()
        return burst, flooded, after_refund

    burst, flooded, after_refund = run(go())
    assert all(burst) and not flooded and after_refund
