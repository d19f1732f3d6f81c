"""The leak audit: every frame the server sent to every seat and spectator, and every lobby
answer given during the game, checked against what each receiver may know, rebuilt from the
game's record and each game's rules of visibility (tests/server/leak_audit.py), not from the
engine's ``visible_to`` the server itself uses.

The audit is tested too: leaks planted in the running server (the seed in room info, hands in a
table frame, roles in the view, private events sent to all) must each be found.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import pytest

from tests.conformance import defaults, served
from tests.server.helpers import FAST, ServerThread, play_to_end, room_with, run
from tests.server.leak_audit import RULES, Answer, audit
from yamen.client import Lobby, SeatClient
from yamen.records import Record
from yamen.server import frames as server_frames
from yamen.server import history, protocol
from yamen.server.history import Step
from yamen.server.rooms import Room


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "audit.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture(autouse=True)
def short_pages(monkeypatch):
    """State frames carry a few entries and pages hold a few (yamen/server/history.py), so
    that even a short game is paged through, and every page is audited."""
    monkeypatch.setattr(history, "TAIL", 4)
    monkeypatch.setattr(history, "PAGE", 25)


async def page_back(client: SeatClient) -> None:
    """A sync, then the receiver's log paged back from it to the deal."""
    await client.request(type="sync")
    state = [f for f in client.frames if f["type"] == "state"][-1]
    before = (state.get("table") or {}).get("history_before")
    while before is not None:
        await asyncio.sleep(1 / 40)  # under the frame rate (a refusal for it has no id)
        await client.request(type="history", before=before)
        before = [f for f in client.frames if f["type"] == "history"][-1]["before"]


async def play(
    url: str, game: str, options: dict, seed: int, settings: dict | None = None
) -> tuple[Record, list, list]:
    """One game between guests, watched by a spectator, with chat, refused frames and lobby
    calls during play: the record, every receiver's frames and every lobby answer."""
    rid, lobbies = await room_with(url, game, options, people=99, settings=settings)
    host = lobbies[0]
    seats = [await SeatClient.connect(lobby.ws_url(rid), lobby.token) for lobby in lobbies]
    spectator = await SeatClient.connect(host.ws_url(rid))
    stranger, anyone = await Lobby.guest(url, "stranger"), Lobby(url)
    answers: list[Answer] = []

    async def ask(who: int | None, lobby: Lobby, method: str, path: str, extra=()) -> None:
        step = spectator.table["seq"] if spectator.table else 0
        headers = {"Authorization": f"Bearer {lobby.token}"} if lobby.token else {}
        got = await lobby.http.request(method, path, headers=headers)
        body = got.json() if got.content else None
        answers.append(Answer(who, f"{method} {path}", step, got.status_code, body, set(extra)))

    async def lobby_calls(forever: bool = True) -> None:
        while True:
            await ask(None, anyone, "GET", "/api/rooms")
            await ask(None, anyone, "GET", f"/api/rooms/{rid}")
            await ask(0, host, "GET", f"/api/rooms/{rid}", {"invite"})
            await ask(1, lobbies[1], "GET", f"/api/rooms/{rid}")
            await ask(None, stranger, "POST", f"/api/rooms/{rid}/start")  # refused: not host
            await ask(None, stranger, "POST", f"/api/rooms/{rid}/seats/0")  # refused: taken
            await ask(None, stranger, "POST", f"/api/rooms/{rid}/leave")  # refused: no seat
            await ask(None, stranger, "POST", f"/api/rooms/{rid}/back")  # refused: left none
            # refused until the game is over (409 in_progress): its replay, its record, the
            # analysis of a seat's play
            await ask(0, host, "POST", f"/api/games/{gid}/analysis")
            await ask(None, stranger, "GET", f"/api/games/{gid}/analysis?seat=1")
            await ask(0, host, "GET", f"/api/games/{gid}/replay?step=1")
            await ask(1, lobbies[1], "GET", f"/api/games/{gid}/replay/index")
            await ask(None, stranger, "GET", f"/api/games/{gid}/record")
            if not forever:
                return
            await asyncio.sleep(0.2)

    await ask(0, host, "POST", f"/api/rooms/{rid}/start")
    gid = (await host.call("GET", f"/api/rooms/{rid}"))["game_id"]
    for seat in (*seats, spectator):  # chat, error, ack and state frames, during the game
        await seat.request(type="chat", text=f"hello from {seat.seat}")
        await seat.request(type="act", action=-1)
        await seat.request(type="sync")
        await seat.request(type="history", before=2**53)  # asks past its table: up to it only
    await lobby_calls(forever=False)  # once at least, however short the game
    poller = asyncio.create_task(lobby_calls())
    rng = random.Random(seed)
    try:
        await play_to_end(seats, lambda s: rng.choice(s.table["legal"]))
        await spectator.wait(lambda f: f["type"] == "update" and f["table"]["result"] is not None)
    finally:
        poller.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await poller
    for client in (*seats, spectator):  # every page of every receiver's log is audited
        await page_back(client)
    info = await host.call("GET", f"/api/rooms/{rid}")
    record = await host.call("GET", f"/api/games/{info['game_id']}/record")
    for seat in (*seats, spectator):
        await seat.close()
    return Record.from_json(record), [(s.seat, s.frames) for s in (*seats, spectator)], answers


GAMES = [case.param() for case in served()]  # every registered game (tests/conformance.py)
SEEDS = 2


def check_audit(url: str, game: str, options: dict, seed: int, settings=None) -> None:
    """The contract: a whole game served, with chat, refused frames and lobby calls during
    play, sends every receiver only what the game's rules of visibility let it know (RULES),
    and every receiver sees every step and pages back to the deal."""
    assert game in RULES, f"no rules of visibility for {game}: write them in leak_audit.RULES"
    record, received, answers = run(play(url, game, options, seed, settings))
    findings = audit(record, received, answers)
    assert findings == [], "\n".join(map(str, findings[:20]))
    # what was audited: every receiver saw every step, and the lobby was asked during play
    for _, frames in received:
        seen = {f["table"]["seq"] for f in frames if f["type"] == "update"}
        assert seen == set(range(len(record.actions) + 1))
    kinds = {f["type"] for _, frames in received for f in frames}
    assert kinds >= {"welcome", "state", "update", "ack", "chat", "error", "history"}, kinds
    for _, frames in received:  # each receiver paged back to the deal
        assert [f for f in frames if f["type"] == "history"][-1]["before"] is None
    assert len({(a.who, a.label) for a in answers}) >= 10 and len(answers) >= 11


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_frame_holds_only_what_its_receiver_may_see(server, game, options):
    for seed in range(SEEDS):
        check_audit(server.url, game, options, seed)


def test_a_match_of_deals_with_breaks_holds_only_what_each_receiver_may_see(server):
    """Two deals with a break between them (nobody says ready: the break runs out): the totals
    after a deal, the updates of the break and the state frames' logs are audited too."""
    settings = {**FAST, "deal_pause": 0.3}
    record, received, answers = run(play(server.url, "baohuang", {"deals": 2}, 5, settings))
    findings = audit(record, received, answers)
    assert findings == [], "\n".join(map(str, findings[:20]))
    paused = [f for _, frames in received for f in frames if (f.get("table") or {}).get("pause")]
    assert paused and all(f["table"]["pending"] == [] for f in paused)


def test_a_game_with_a_spectator_delay_holds_only_what_each_receiver_may_see(server):
    """Spectators three actions behind (yamen/server/delay.py): their tables, updates and logs
    are audited as any, and they still get every step once (the last ones at the end)."""
    settings = {**FAST, "spectator_delay": 3}
    options = {"mode": "sheriff", "players": 5}
    record, received, answers = run(play(server.url, "criminal_poker", options, 4, settings))
    findings = audit(record, received, answers)
    assert findings == [], "\n".join(map(str, findings[:20]))
    for receiver, frames in received:
        seen = [f["table"]["seq"] for f in frames if f["type"] == "update"]
        assert seen == list(range(len(record.actions) + 1)), receiver
    # the spectator's chat, refusal and sync were answered while it was behind
    watched = dict(received)[None]
    state = next(f for f in watched if f["type"] == "state" and f["table"] is not None)
    assert state["table"]["deadlines"] == {}


# ----- planted leaks: the audit must find each ------------------------------------------------


def seed_in_room_info(monkeypatch) -> None:
    """In the lobby's answers (a frame's room has only the fields its model declares)."""
    info = Room.info

    def leaky(self) -> dict[str, Any]:
        data = info(self)
        if self.match.state is not None:
            data["seed"] = self.match.state.seed
        return data

    monkeypatch.setattr(Room, "info", leaky)


def seed_in_settings(monkeypatch) -> None:
    """Where a field may hold anything: only the search for the seed's value can find it."""
    about = Room.about

    def leaky(self) -> protocol.RoomInfo:
        info = about(self)
        if self.match.state is not None:
            info.settings = {**info.settings, "shuffle": f"s{self.match.state.seed}"}
        return info

    monkeypatch.setattr(Room, "about", leaky)


def hands_in_table(monkeypatch) -> None:
    """Every hand in a field of the table's own. The protocol's models let no field they do not
    declare into a frame (yamen/server/frames.py), so this one is written past them, as a frame
    built by hand would be."""
    send_each = Room._send_each

    def leaky(self, build: Any) -> None:
        def with_hands(seat: int | None) -> str:
            frame = json.loads(build(seat))
            if frame.get("table") is not None:
                state, key = self.match.state, RULES[self.game].hand_key
                frame["table"]["hands"] = [state.view(s)[key] for s in range(state.num_seats)]
            return server_frames.dumps(frame)

        send_each(self, with_hands)

    monkeypatch.setattr(Room, "_send_each", leaky)


def next_hand_in_view(monkeypatch) -> None:
    """One other seat's hand, inside the view, under a name of its own."""
    table = Room._table  # every table a room sends is built here

    def leaky(self, state, seat: int | None, *log: Any, **timers: Any) -> protocol.SeatTable:
        data = table(self, state, seat, *log, **timers)
        key = RULES[self.game].hand_key
        other = 0 if seat is None else (seat + 1) % state.num_seats
        data.view["notes"] = {"seen": list(state.view(other)[key])}
        return data

    monkeypatch.setattr(Room, "_table", leaky)


def roles_in_view(monkeypatch) -> None:
    """Every role not yet public (as the game's rules of visibility say), in the view's public
    list of roles, for everyone."""
    table = Room._table

    def leaky(self, state, seat: int | None, *log: Any, **timers: Any) -> protocol.SeatTable:
        data = table(self, state, seat, *log, **timers)
        hidden = RULES[self.game].roles(state)
        if hidden:
            roles = {**data.view.get("roles", {}), **{str(s): r for s, r in hidden.items()}}
            data.view["roles"] = roles
        return data

    monkeypatch.setattr(Room, "_table", leaky)


def private_events_to_all(monkeypatch) -> None:
    monkeypatch.setattr(server_frames, "visible_to", lambda events, seat: list(events))


def private_events_in_history(monkeypatch) -> None:
    """Every seat's private events in the log entries a state frame or a page carries; the
    updates stay sound."""
    entries = server_frames.entries

    def leaky(steps: list[Step], seqs, seat: int | None) -> list[protocol.Entry]:
        public = [Step([e._replace(to=None) for e in s.events], s.stand_in) for s in steps]
        return entries(public, seqs, seat)

    monkeypatch.setattr(server_frames, "entries", leaky)


def private_events_in_pages(monkeypatch) -> None:
    """Every seat's private events in the pages only (a state frame's entries stay sound)."""
    page = history.Log.page

    def leaky(self, seat: int | None, before: int, most: int | None = None) -> history.Part:
        if most is not None:  # (a state frame's tail)
            return page(self, seat, before, most)
        public = history.Log(len(self.shares) - 1)
        for step in self.steps:
            public.append(Step([e._replace(to=None) for e in step.events], step.stand_in))
        public.shares = self.shares
        return page(public, seat, before, most)

    monkeypatch.setattr(history.Log, "page", leaky)


PLANTS = {
    # the leak: the checks that must find it
    seed_in_room_info: {"seed", "shape"},
    seed_in_settings: {"seed"},
    hands_in_table: {"shape", "hand|card"},
    next_hand_in_view: {"view", "differs", "hand|card"},
    roles_in_view: {"view", "role"},
    private_events_to_all: {"events", "hand|card"},
    private_events_in_history: {"events", "hand|card"},
    private_events_in_pages: {"events", "hand|card"},
}
SEED_PLANTS = (seed_in_room_info, seed_in_settings)


def plantings() -> list:
    """Every leak planted in every registered game with its defaults (tests/conformance.py),
    but where it says nothing more: the seed is the same datum in every game (the first two
    games suffice), and a game whose rules hide no role has none to leak."""
    games = [case for case in defaults() if case.game in RULES]  # (else: its audit fails)
    return [
        pytest.param(plant, case.game, case.options, id=f"{plant.__name__}-{case.game}")
        for plant in PLANTS
        for index, case in enumerate(games)
        if not (plant in SEED_PLANTS and index >= 2)
        and not (plant is roles_in_view and RULES[case.game].roles is None)
    ]


PLANTINGS = plantings()


@pytest.mark.parametrize(("plant", "game", "options"), PLANTINGS)
def test_the_audit_finds_a_planted_leak(server, monkeypatch, plant, game, options):
    plant(monkeypatch)
    record, received, answers = run(play(server.url, game, options, 0))
    monkeypatch.undo()
    checks = {f.check for f in audit(record, received, answers)}
    for wanted in PLANTS[plant]:
        assert checks & set(wanted.split("|")), (wanted, checks)
