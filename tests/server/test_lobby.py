"""The lobby over HTTP: guests, rooms, seats, bots, starting, and refusals that change nothing."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from tests.server.helpers import FAST, ServerThread, run, watch_until_over
from yamen.client import Lobby, LobbyError, SeatClient
from yamen.records import Record, replay


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "lobby.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


def refused(coro, status: int, code: str) -> None:
    with pytest.raises(LobbyError) as caught:
        run(coro)
    assert (caught.value.status, caught.value.code) == (status, code)


def test_a_guest_gets_a_long_secret_token(server):
    async def go():
        lobby = await Lobby.guest(server.url, "  Ann   Lee ")
        me = await lobby.call("GET", "/api/me")
        return lobby.token, me

    token, me = run(go())
    assert me["name"] == "Ann Lee"
    assert len(token) >= 43  # 256 bits in URL-safe base64


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 41, "bad\x07name", "\u3164", "\u2800 \u2800", "\ufe0f", "a\u202eb"]
)
def test_bad_names_are_refused(server, name):
    answer = httpx.post(f"{server.url}/api/guests", json={"name": name})
    assert answer.status_code == 422


def test_seat_actions_need_a_real_token(server):
    body = {"game": "baohuang"}
    assert httpx.post(f"{server.url}/api/rooms", json=body).status_code == 401
    forged = {"Authorization": "Bearer " + "A" * 43}
    answer = httpx.post(f"{server.url}/api/rooms", json=body, headers=forged)
    assert answer.status_code == 401
    assert answer.json()["detail"]["code"] == "bad_token"


def test_games_and_schemas_are_published(server):
    games = httpx.get(f"{server.url}/api/games").json()
    assert {g["game"] for g in games} == {"baohuang", "criminal_poker", "bao_qingtian"}
    assert all("random" in g["bots"] for g in games)
    paths = httpx.get(f"{server.url}/openapi.json").json()["paths"]
    assert "/api/rooms" in paths and "/api/rooms/{room_id}/start" in paths
    schemas = httpx.get(f"{server.url}/api/protocol").json()
    assert schemas["version"] == 1 and "oneOf" in str(schemas["client"])


def test_games_publish_their_type_for_the_lobby_form(server):
    games = {g["game"]: g for g in httpx.get(f"{server.url}/api/games").json()}
    assert games["baohuang"]["seats"] == {"min": 5, "max": 5}
    assert games["bao_qingtian"]["seats"] == {"min": 3, "max": 50}
    variant = games["baohuang"]["declaration"][0]
    assert variant["name"] == "variant" and variant["kind"] == "choice"
    assert variant["choices"][0] == variant["default"] == "shandong"
    players = [o for o in games["criminal_poker"]["declaration"] if o["name"] == "players"]
    assert [(o["applies"]["value"], o["low"], o["high"], o["default"]) for o in players] == [
        ("sheriff", 4, 6, 5),
        ("detective", 3, 5, 4),
    ]
    for game in games.values():  # the defaults shown are the declared ones that apply
        declared = {o["name"] for o in game["declaration"]}
        assert set(game["options"]) == declared and game["title"]


def test_bad_rooms_are_refused(server):
    async def go(body, code):
        lobby = await Lobby.guest(server.url, "Bo")
        with pytest.raises(LobbyError) as caught:
            await lobby.call("POST", "/api/rooms", body)
        assert caught.value.code == code

    run(go({"game": "chess"}, "unknown_game"))
    run(go({"game": "baohuang", "options": {"variant": "korean"}}, "bad_options"))
    run(go({"game": "baohuang", "settings": {"turn_seconds": -1}}, "bad_options"))
    run(go({"game": "baohuang", "settings": {"colour": "red"}}, "bad_options"))
    run(go({"game": "baohuang", "public": "yes"}, "invalid"))


def test_a_refused_room_is_not_created(server):
    async def go():
        lobby = await Lobby.guest(server.url, "Cy")
        before = [r["id"] for r in await lobby.call("GET", "/api/rooms")]
        codes = []
        for body in (
            {"game": "baohuang", "seat": 99},
            {"game": "baohuang", "seat": -1},
            {"game": "baohuang", "settings": {"turn_seconds": -1}, "seat": 0},
        ):
            with pytest.raises(LobbyError) as caught:
                await lobby.call("POST", "/api/rooms", body)
            codes.append((caught.value.status, caught.value.code))
        after = [r["id"] for r in await lobby.call("GET", "/api/rooms")]
        return before, after, codes

    before, after, codes = run(go())
    assert codes == [(422, "no_seat"), (422, "no_seat"), (422, "bad_options")]
    assert after == before  # nothing was created, nothing is listed


def test_private_rooms_need_their_invite(server):
    async def go():
        host = await Lobby.guest(server.url, "Host")
        room = await host.call("POST", "/api/rooms", {"game": "criminal_poker", "public": False})
        listed = [r["id"] for r in await host.call("GET", "/api/rooms")]
        stranger = await Lobby.guest(server.url, "Stranger")
        with pytest.raises(LobbyError) as unseen:
            await stranger.call("GET", f"/api/rooms/{room['id']}")
        with pytest.raises(LobbyError) as unjoined:
            await stranger.call("POST", f"/api/rooms/{room['id']}/seats/1", {})
        seen = await stranger.call("GET", f"/api/rooms/{room['id']}?invite={room['invite']}")
        joined = await stranger.call(
            "POST", f"/api/rooms/{room['id']}/seats/1", {"invite": room["invite"]}
        )
        return room, listed, unseen.value, unjoined.value, seen, joined

    room, listed, unseen, unjoined, seen, joined = run(go())
    assert room["id"] not in listed
    # a stranger is told what a missing room's are, whether they look or try to sit
    assert (unseen.status, unseen.code) == (unjoined.status, unjoined.code) == (404, "not_found")
    assert str(unseen) == str(unjoined) and f"no room {room['id']!r}" in str(unseen)
    assert unseen.params == unjoined.params == {}
    assert "invite" not in seen  # only the host is shown the invite code
    assert joined["seats"][1]["name"] == "Stranger"


def test_seats_bots_and_start(server):
    async def go():
        host = await Lobby.guest(server.url, "Host")
        guest = await Lobby.guest(server.url, "Guest")
        room = await host.call(
            "POST", "/api/rooms", {"game": "baohuang", "settings": FAST, "seat": 0}
        )
        rid = room["id"]
        problems = []

        async def refuse(lobby, method, path, body=None):
            with pytest.raises(LobbyError) as caught:
                await lobby.call(method, path, body)
            problems.append((caught.value.status, caught.value.code))

        await refuse(guest, "POST", f"/api/rooms/{rid}/seats/0")  # taken
        await refuse(guest, "POST", f"/api/rooms/{rid}/seats/5")  # no such seat
        await guest.call("POST", f"/api/rooms/{rid}/seats/1")
        await refuse(guest, "POST", f"/api/rooms/{rid}/seats/2")  # already seated
        await refuse(guest, "PUT", f"/api/rooms/{rid}/seats/2/bot", {"bot": "rules"})  # not host
        await refuse(host, "PUT", f"/api/rooms/{rid}/seats/2/bot", {"bot": "genius"})
        await refuse(host, "POST", f"/api/rooms/{rid}/start")  # empty seats
        for seat in (2, 3, 4):
            await host.call("PUT", f"/api/rooms/{rid}/seats/{seat}/bot", {"bot": "random"})
        await host.call("DELETE", f"/api/rooms/{rid}/seats/4/bot")
        await host.call("PUT", f"/api/rooms/{rid}/seats/4/bot", {"bot": "rules"})
        await refuse(guest, "POST", f"/api/rooms/{rid}/start")  # not host
        started = await host.call("POST", f"/api/rooms/{rid}/start")
        await refuse(host, "POST", f"/api/rooms/{rid}/start")  # already playing
        await refuse(host, "DELETE", f"/api/rooms/{rid}/seats/4/bot")  # seats fixed in play
        left = await guest.call("POST", f"/api/rooms/{rid}/leave")
        return problems, started, left

    problems, started, left = run(go())
    assert problems == [
        (409, "taken"),
        (422, "no_seat"),
        (409, "seated"),
        (403, "not_host"),
        (422, "unknown_bot"),
        (409, "empty_seats"),
        (403, "not_host"),
        (409, "playing"),
        (409, "playing"),
    ]
    assert started["status"] == "playing" and started["number"] == 1
    assert [s["bot"] for s in started["seats"]] == [None, None, "random", "random", "rules"]
    assert left["seats"][1]["name"] is None and left["seats"][1]["bot"] == "rules"


def test_big_bodies_are_refused(server):
    answer = httpx.post(f"{server.url}/api/guests", content=b"x" * 70000)
    assert answer.status_code == 413


def test_records_are_published_once_the_game_is_over(server):
    async def go():
        host = await Lobby.guest(server.url, "Host")
        room = await host.call(
            "POST", "/api/rooms", {"game": "bao_qingtian", "settings": FAST, "seat": 0}
        )
        rid = room["id"]
        for seat in range(1, len(room["seats"])):
            await host.call("PUT", f"/api/rooms/{rid}/seats/{seat}/bot", {"bot": "rules"})
        info = await host.call("POST", f"/api/rooms/{rid}/start")
        with pytest.raises(LobbyError) as early:
            await host.call("GET", f"/api/games/{info['game_id']}/record")
        await host.call("POST", f"/api/rooms/{rid}/leave")  # a bot plays the host's seat
        # (bots play while someone is here)
        watcher = await SeatClient.connect(host.ws_url(rid), None)
        for _ in range(600):
            info = await host.call("GET", f"/api/rooms/{rid}")
            if info["status"] == "over":
                break
            await asyncio.sleep(0.05)
        await watcher.close()
        record = await host.call("GET", f"/api/games/{info['game_id']}/record")
        last = len(record["actions"])
        shown = await host.call("GET", f"/api/games/{info['game_id']}/replay?step={last}")
        with pytest.raises(LobbyError) as beyond:
            await host.call("GET", f"/api/games/{info['game_id']}/replay?step={last + 1}")
        return early.value, info, record, shown, beyond.value

    early, info, data, shown, beyond = run(go())
    assert (early.status, early.code) == (409, "in_progress")
    assert beyond.code == "no_step"
    assert shown["action"] == data["actions"][-1]
    final = replay(Record.from_json(data))
    assert shown["seats"] == [json.loads(json.dumps(final.view(s))) for s in range(final.num_seats)]
    assert info["status"] == "over"
    record = Record.from_json(data)
    state = replay(record)  # checks the recorded result too
    assert [str(s) for s in state.result().scores] == [str(s) for s in info["scores"]]


def answer(base: str, path: str, lobby: Lobby | None = None) -> tuple[int, str | None]:
    headers = {"Authorization": f"Bearer {lobby.token}"} if lobby else {}
    got = httpx.get(base + path, headers=headers)
    return got.status_code, got.json()["detail"]["code"] if got.status_code >= 400 else None


def test_private_games_are_read_by_their_players_and_invite_holders_only(server):
    async def go():
        host = await Lobby.guest(server.url, "Host")
        guest = await Lobby.guest(server.url, "Guest")
        stranger = await Lobby.guest(server.url, "Stranger")
        room = await host.call(
            "POST",
            "/api/rooms",
            {"game": "bao_qingtian", "settings": FAST, "seat": 0, "public": False},
        )
        rid, invite = room["id"], room["invite"]
        await guest.call("POST", f"/api/rooms/{rid}/seats/1", {"invite": invite})
        for seat in range(2, len(room["seats"])):
            await host.call("PUT", f"/api/rooms/{rid}/seats/{seat}/bot", {"bot": "rules"})
        gid = (await host.call("POST", f"/api/rooms/{rid}/start"))["game_id"]
        during = {
            "stranger": answer(server.url, f"/api/games/{gid}/record", stranger),
            "host": answer(server.url, f"/api/games/{gid}/record", host),
        }
        await host.call("POST", f"/api/rooms/{rid}/leave")
        await guest.call("POST", f"/api/rooms/{rid}/leave")  # sat in the game, then left
        await watch_until_over(host, rid)
        after = {}
        for path in (f"/api/games/{gid}/record", f"/api/games/{gid}/replay?step=3"):
            after[path] = {
                "anyone": answer(server.url, path),
                "stranger": answer(server.url, path, stranger),
                "host": answer(server.url, path, host),
                "guest": answer(server.url, path, guest),
                "invite": answer(
                    server.url, path + ("&" if "?" in path else "?") + f"invite={invite}"
                ),
                "wrong invite": answer(
                    server.url, path + ("&" if "?" in path else "?") + "invite=é"
                ),
            }
        return gid, during, after

    gid, during, after = run(go())
    assert len(gid) >= 12 and not gid.isdigit()  # not guessable, not counted
    missing = (404, "not_found")
    assert during == {"stranger": missing, "host": (409, "in_progress")}
    for answers in after.values():
        assert answers == {
            "anyone": missing,
            "stranger": missing,
            "host": (200, None),
            "guest": (200, None),
            "invite": (200, None),
            "wrong invite": missing,
        }


@pytest.mark.parametrize("gid", ["1", "2", "99999999999999999999", "x" * 5000, "%00"])
def test_unknown_games_are_not_found(server, gid):
    for kind in ("record", "replay"):
        assert answer(server.url, f"/api/games/{gid}/{kind}") == (404, "not_found")


def test_the_room_list_shows_a_summary_whatever_the_options_size(server):
    """The public list carries each room's summary: a room's own card list (a data option) is
    named, not sent, so an entry is as long whether the list is small or large; the room's own
    page keeps every option."""
    from importlib import resources

    text = resources.files("yamen.games.criminal_poker").joinpath("cards.json").read_text()
    small = json.loads(text)
    large = json.loads(text)
    for card in [*large["evidence"], *large["identities"]]:
        card["name"] = {lang: lang[0] * 80 for lang in ("en", "zh", "ja", "ko", "fr", "de")}

    async def go():
        host = await Lobby.guest(server.url, "Cards")
        made = {}
        for name, options in (
            ("plain", {}),
            ("small", {"cards": small}),
            ("large", {"cards": large}),
        ):
            body = {"game": "criminal_poker", "options": options, "seat": 0}
            made[name] = await host.call("POST", "/api/rooms", body)
        for name, options in (
            ("bie", {"variant": "japanese", "lowest_held": True}),
            ("old", {"variant": "japanese", "lowest_last": True}),
            ("own", {"deals": 3}),
        ):
            body = {"game": "baohuang", "options": options, "seat": 0}
            made[name] = await host.call("POST", "/api/rooms", body)
        listed = {r["id"]: r for r in await host.call("GET", "/api/rooms?limit=200")}
        pages = {n: await host.call("GET", f"/api/rooms/{r['id']}") for n, r in made.items()}
        return {n: listed[r["id"]] for n, r in made.items()}, pages

    entries, pages = run(go())
    assert entries.pop("bie")["preset"] == "bie_liu_168"  # a preset's options, named
    assert entries.pop("old")["preset"] is None  # the first reading of 憋六 is no preset now
    own = entries.pop("own")
    assert own["preset"] is None and own["options"]["deals"] == 3
    size = {n: len(json.dumps(e)) for n, e in entries.items()}
    assert len(json.dumps(large)) > 3 * len(json.dumps(small))  # the options differ in size
    assert size["small"] == size["large"]  # ... the entries do not
    assert entries["large"]["custom"] == ["cards"] and entries["plain"]["custom"] == []
    assert "cards" not in entries["large"]["options"]
    assert entries["large"]["options"]["players"] == pages["large"]["options"]["players"]
    assert pages["large"]["options"]["cards"] == large  # the room's page: every option
    for entry in entries.values():
        assert entry["game"] == "criminal_poker" and entry["status"] == "open"
        assert entry["preset"] is None
        assert entry["seats"][0]["name"] == "Cards"
