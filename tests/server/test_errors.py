"""Every refusal is the documented JSON ``{"detail": {"code", "message"}}``: a failing
database is 503 ``storage`` (and a chat line it could not store is an error frame, not a
dropped connection), a fault of the server's own is 500 ``internal`` with no traceback, and
requests outside the schema or the routes are refused the same way."""

from __future__ import annotations

import logging

import httpx
import pytest
from sqlalchemy.exc import OperationalError

from tests.server.helpers import FAST, ServerThread, run
from yamen.client import Lobby, SeatClient


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "errors.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


@pytest.fixture
def store(server):
    return server.server.config.app.state.rooms.store


def disk_full(*args, **kwargs):
    raise OperationalError("INSERT", {}, Exception("database or disk is full"))


def documented(answer: httpx.Response) -> tuple[int, str]:
    detail = answer.json()["detail"]
    assert set(detail) == {"code", "message"} and isinstance(detail["message"], str)
    return answer.status_code, detail["code"]


def test_a_failing_database_is_a_503_that_changes_nothing(server, store, monkeypatch):
    monkeypatch.setattr(store, "add_player", disk_full)
    monkeypatch.setattr(store, "public_rooms", disk_full)
    guest = httpx.post(f"{server.url}/api/guests", json={"name": "Ann"})
    rooms = httpx.get(f"{server.url}/api/rooms")
    assert documented(guest) == (503, "storage")
    assert documented(rooms) == (503, "storage")
    assert "disk" not in guest.text  # the database's own words stay in the log


def test_a_fault_of_the_server_is_a_500_without_a_traceback(server, store, monkeypatch, caplog):
    async def new_room():
        host = await Lobby.guest(server.url, "Host")
        return await host.call("POST", "/api/rooms", {"game": "baohuang", "settings": FAST})

    room = run(new_room())

    def broken(*args, **kwargs):
        raise RuntimeError("a secret the client must not see")

    rooms = server.server.config.app.state.rooms
    monkeypatch.setattr(rooms.loaded[room["id"]], "info", broken)
    with caplog.at_level(logging.ERROR, logger="yamen.server.errors"):
        answer = httpx.get(f"{server.url}/api/rooms/{room['id']}")
    assert documented(answer) == (500, "internal")
    assert "secret" not in answer.text and "Traceback" not in answer.text
    assert any(room["id"] in r.getMessage() for r in caplog.records)  # logged with the room


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("POST", "/api/guests", {"name": 5}),
        ("POST", "/api/guests", {"nom": "Ann"}),
        ("GET", "/api/rooms?limit=many", None),
        ("GET", "/api/nothing/here", None),
        ("DELETE", "/api/guests", None),
    ],
)
def test_requests_outside_the_schema_get_the_documented_json(server, method, path, body):
    answer = httpx.request(method, server.url + path, json=body)
    status, code = documented(answer)
    assert (status, code) in {(422, "invalid"), (404, "not_found"), (405, "method_not_allowed")}


def test_chat_that_cannot_be_stored_is_refused_and_the_connection_stays(server, store, monkeypatch):
    async def go():
        host = await Lobby.guest(server.url, "Host")
        body = {"game": "baohuang", "settings": FAST, "seat": 0}
        room = await host.call("POST", "/api/rooms", body)
        seat = await SeatClient.connect(host.ws_url(room["id"]), host.token)
        try:
            monkeypatch.setattr(store, "add_chat", disk_full)
            refused = await seat.request(type="chat", text="hello")
            monkeypatch.undo()
            said = await seat.request(type="chat", text="hello again")
            return refused, said, seat.closed
        finally:
            await seat.close()

    refused, said, closed = run(go())
    assert (refused["type"], refused["code"]) == ("error", "storage")
    assert said["type"] == "ack" and not closed
