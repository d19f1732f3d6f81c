"""A finished game's page (``GET /api/games/{id}``) and a player's own list of games (``GET
/api/players/{id}/games``, "my games"): every game played to its end by a person and bots,
then read back. Each seat's name, place, score and win are the record's; each seat's part is
the game's own words for it (``Game.part``); the figures a game declares are published with it;
nobody learns of a game they may not read (issue 26)."""

from __future__ import annotations

import pytest

from tests.server.helpers import FAST, ServerThread, play_to_end, run
from tests.server.test_player_page import grown
from yamen.client import Lobby, LobbyError, SeatClient
from yamen.engine import game_names, game_type
from yamen.server.outcomes import OPPONENTS
from yamen.server.ratings import Cursor, games_page, player_page

SMALL = {"bao_qingtian": {"players": 3}, "criminal_poker": {}, "baohuang": {"deals": 2}}


async def played(
    base: str, game: str, public: bool = False, name: str = "host"
) -> tuple[str, str, Lobby]:
    """A game of ``game`` (a private room's unless ``public``), played to its end by a guest
    in seat 0 and rules bots: the room, the game's public id, the guest."""
    host = await Lobby.guest(base, name)
    options = SMALL.get(game, {})
    body = {"game": game, "options": options, "public": public, "settings": FAST, "seat": 0}
    rid = (await host.call("POST", "/api/rooms", body))["id"]
    await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "rules"})
    seat = await SeatClient.connect(host.ws_url(rid), host.token)
    try:
        await host.call("POST", f"/api/rooms/{rid}/start")
        await play_to_end([seat])
    finally:
        await seat.close()
    return rid, (await host.call("GET", f"/api/rooms/{rid}"))["game_id"], host


@pytest.mark.parametrize("game", game_names())
def test_a_finished_game_has_a_page_with_every_seat_and_its_part(game, tmp_path):
    async def go(base):
        rid, gid, host = await played(base, game)
        record = await host.call("GET", f"/api/games/{gid}/record")
        page = await host.call("GET", f"/api/games/{gid}")
        mine = await host.call("GET", f"/api/players/{host.player}/games")
        listed = {g["game"]: g for g in await host.call("GET", "/api/games")}
        outsider = await Lobby.guest(base, "outsider")
        refused = []
        for path in (f"/api/games/{gid}", f"/api/players/{host.player}/games"):
            try:
                refused.append(await outsider.call("GET", path))
            except LobbyError as exc:
                refused.append((exc.status, exc.code))
        invite = (await host.call("GET", f"/api/rooms/{rid}"))["invite"]
        invited = await outsider.call("GET", f"/api/games/{gid}?invite={invite}")
        return record, page, mine, listed, refused, invited, host.player

    with ServerThread(f"sqlite:///{tmp_path / 'pages.db'}") as server:
        record, page, mine, listed, refused, invited, me = run(go(server.url))
    result, kind = record["result"], game_type(game)
    seats = len(result["places"])
    assert [s["seat"] for s in page["seats"]] == list(range(seats))
    assert page["seats"][0] | {"part": None} == {
        "seat": 0,
        "player": me,
        "name": "host",
        "bot": None,
        "place": result["places"].index(0) + 1,
        "score": result["scores"][0],
        "won": 0 in result["winners"],
        "stand_in": False,
        "part": None,
    }
    for seat in page["seats"][1:]:
        assert (seat["player"], seat["bot"]) == ("bot:rules", "rules")
    for seat in page["seats"]:
        assert seat["part"] == kind.part(result, seat["seat"]) and seat["part"], seat
        assert seat["won"] == (seat["seat"] in result["winners"])
        assert seat["score"] == result["scores"][seat["seat"]]
    assert page["seat"] == 0 and page["game"] == game and page["finished"] > 0
    assert page["analysis"] == (kind.analyst is not None) == listed[game]["analysis"]
    assert listed[game]["figures"] == list(kind.figures)
    assert listed[game]["engine"] == kind.engine()
    # the player's own list: this game, their part in it, the other seats by kind
    (only,) = mine["games"]
    assert mine["next"] is None and only["game_id"] == page["game_id"]
    assert only["part"] == page["seats"][0]["part"] and only["seats"] == seats
    assert only["finished"] == page["finished"]
    assert [o["seat"] for o in only["others"]] == list(range(1, min(seats, OPPONENTS + 1)))
    assert {o["bot"] for o in only["others"]} == {"rules"}
    # a private room's game: not found for an outsider, found with the invite; and none of its
    # player's games listed for them
    assert refused == [(404, "not_found"), {"games": [], "next": None}]
    assert invited["seats"] == page["seats"] and invited["seat"] is None


def test_a_game_page_waits_for_the_end_and_refuses_what_is_not_a_game(tmp_path):
    async def go(base):
        host = await Lobby.guest(base, "host")
        room = await host.call(
            "POST",
            "/api/rooms",
            {"game": "baohuang", "options": {}, "settings": FAST, "seat": 0},
        )
        await host.call("POST", f"/api/rooms/{room['id']}/bots", {"bot": "rules"})
        await host.call("POST", f"/api/rooms/{room['id']}/start")
        gid = (await host.call("GET", f"/api/rooms/{room['id']}"))["game_id"]
        found = []
        for path in (
            f"/api/games/{gid}",
            "/api/games/nothing-here",
            "/api/games/" + "x" * 40,
            f"/api/players/{host.player}/games?before=x",
        ):
            try:
                found.append(await host.call("GET", path))
            except LobbyError as exc:
                found.append((exc.status, exc.code))
        return found

    with ServerThread(f"sqlite:///{tmp_path / 'pages.db'}") as server:
        found = run(go(server.url))
    assert found == [(409, "in_progress"), (404, "not_found"), (404, "not_found"), (422, "invalid")]


def test_my_games_walk_the_same_pages_as_the_player_page(tmp_path):
    """The list of games alone is the player page's list, page by page, for each asker."""

    async def go():
        store = await grown(tmp_path / "mine.db", 45)
        walked = {}
        try:
            for asker in (None, "p", "q"):
                pages, before, alone, cursor = [], None, [], None
                while True:
                    page = await player_page(store, "p", asker, 20, before)
                    pages.append(page["last"])
                    mine = await games_page(store, "p", asker, 20, cursor)
                    alone.append(mine["games"])
                    assert (page["next"] is None) == (mine["next"] is None)
                    if page["next"] is None:
                        break
                    before, cursor = Cursor.parse(page["next"]), Cursor.parse(mine["next"])
                walked[asker] = pages, alone
        finally:
            await store.close()
        return walked

    walked = run(go())
    for asker, (pages, alone) in walked.items():
        assert pages == alone, asker
        games = [g for page in alone for g in page]
        assert [g["finished"] for g in games] == sorted(
            (g["finished"] for g in games), reverse=True
        )
        for g in games:
            # q sits in seat 1 of every third game, by name; the bots by kind
            names = [(o["seat"], o["name"], o["bot"]) for o in g["others"]]
            q = ["Q"] if g["game_id"] in {f"g{n}" for n in range(0, 45, 3)} else []
            assert [name for _, name, bot in names if bot is None] == q
            assert [seat for seat, _, _ in names] == [1, 2, 3, 4] and g["seats"] == 5
    assert sum(map(len, walked[None][1])) == 22  # the public room's games (every second)
