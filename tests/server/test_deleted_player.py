"""A deleted account's games stay, under a neutral name (``""``, yamen/wire.py DELETED) that each
client words in its language: on the leaderboard, in the room's seats (the room as loaded, and
in the public room list), and to a live watcher; the player's own page answers 404
``player_deleted``."""

from __future__ import annotations

from tests.server.helpers import PASSWORD, ServerThread, claimed, played_against_bots, run
from yamen.client import Lobby, SeatClient
from yamen.wire import DELETED, DELETED_WORDS, shown_name


def test_a_deleted_players_games_show_a_neutral_name(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'd.db'}") as server:

        async def go():
            lobby = await claimed(server.url, "Kim", "Kim")
            rid = await played_against_bots(lobby)
            before = await lobby.call("GET", f"/api/players/{lobby.player}")
            waiting = await lobby.call(  # a room still open: the public list shows it
                "POST", "/api/rooms", {"game": "baohuang", "public": True, "seat": 0}
            )
            stranger = await Lobby.guest(server.url, "Lou")
            watcher = await SeatClient.connect(stranger.ws_url(rid), stranger.token)
            start = len(watcher.frames)
            await lobby.call("DELETE", "/api/account", {"password": PASSWORD})
            told = await watcher.wait(lambda f: f["type"] == "room", 15, start)
            await watcher.close()
            board = await stranger.call("GET", "/api/leaderboard/baohuang")
            room = await stranger.call("GET", f"/api/rooms/{rid}")
            listed = [
                r for r in await stranger.call("GET", "/api/rooms") if r["id"] == waiting["id"]
            ]
            try:
                await stranger.call("GET", f"/api/players/{lobby.player}")
            except Exception as exc:
                page = exc
            return lobby.player, before, told, board, room, listed, page

        player, before, told, board, room, listed, page = run(go())
    assert before["name"] == "Kim" and before["games"][0]["played"] == 1
    row = next(r for r in board if r["player"] == player)
    assert row["name"] == DELETED and row["games"] == 1
    assert len(listed) == 1
    for seats in (told["room"]["seats"], room["seats"], *(r["seats"] for r in listed)):
        assert (seats[0]["player"], seats[0]["name"]) == (player, DELETED)
    assert (page.status, page.code) == (404, "player_deleted")


def test_a_terminal_words_the_neutral_name():
    assert shown_name(DELETED) == DELETED_WORDS == "deleted player"
    assert shown_name("Kim") == "Kim"
