"""Ratings and player pages: games played through the server with a person and bots move
OpenSkill ratings (winners up, losers down), bots are rated under their labels, a game of bots
alone counts for nobody, the player page's figures are the games played, and a private room's
games are linked only for those who sat in them."""

from __future__ import annotations

import time
from fractions import Fraction

import httpx
import pytest

from tests.server.helpers import FAST, ServerThread, database, play_to_end, run, watch_until_over
from yamen.client import Lobby, SeatClient
from yamen.engine import game_type

GAME, OPTIONS = "bao_qingtian", {"players": 3}


async def room(host: Lobby, public: bool = True, seat: int | None = 0) -> str:
    """A room of ``GAME`` with the host in seat 0 (``seat``) and "rules" bots elsewhere."""
    body = {"game": GAME, "options": OPTIONS, "settings": FAST, "public": public, "seat": seat}
    info = await host.call("POST", "/api/rooms", body)
    for i in range(1 if seat == 0 else 0, len(info["seats"])):
        await host.call("PUT", f"/api/rooms/{info['id']}/seats/{i}/bot", {"bot": "rules"})
    return info["id"]


async def play(host: Lobby, rid: str, number: int) -> dict:
    """Game ``number`` of the room, the host playing seat 0 (its first legal action each
    time); its result."""
    me = await SeatClient.connect(host.ws_url(rid), host.token)
    try:
        await host.call("POST", f"/api/rooms/{rid}/start")
        return await play_to_end([me], number=number)
    finally:
        await me.close()


def page(base: str, who: str, lobby: Lobby | None = None) -> dict:
    headers = {} if lobby is None else {"Authorization": f"Bearer {lobby.token}"}
    answer = httpx.get(f"{base}/api/players/{who}", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def figures(page: dict) -> dict:
    (found,) = [g for g in page["games"] if g["game"] == GAME]
    return found


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_games_with_a_person_move_ratings_and_fill_the_player_page(kind, tmp_path):
    with database(kind, tmp_path) as url, ServerThread(url) as server:
        base = server.url

        async def go():
            host, other = await Lobby.guest(base, "Host"), await Lobby.guest(base, "Other")
            results, mus = [], []
            public = await room(host)
            for number in (1, 2):
                results.append(await play(host, public, number))
                mus.append(figures(page(base, host.player))["rating"]["mu"])
            private = await room(host, public=False)
            results.append(await play(host, private, 1))
            # bots alone: counted for nobody
            board = httpx.get(f"{base}/api/leaderboard/{GAME}").json()
            alone = await room(host, seat=None)
            await host.call("POST", f"/api/rooms/{alone}/start")
            await watch_until_over(host, alone)
            after = httpx.get(f"{base}/api/leaderboard/{GAME}").json()
            return host, other, results, mus, board, after

        host, other, results, mus, board, after = run(go())
        mine = page(base, host.player, host)
        shown = figures(mine)
        assert shown["played"] == 3
        points = [Fraction(str(r["scores"][0])) for r in results]
        assert shown["mean_points"] == pytest.approx(float(sum(points) / 3), abs=1e-3)
        wins = sum(0 in r["winners"] for r in results)
        assert shown["win_rate"] == pytest.approx(wins / 3, abs=1e-3)
        places = [r["places"].index(0) + 1 for r in results]
        assert sum(shown["places"].values()) == 3
        for place in set(places):
            assert shown["places"][str(place)] == places.count(place)
        # the first game alone moved the rating from the start (25): up for a win, down else
        first = results[0]
        if 0 in first["winners"]:
            assert mus[0] > 25
        elif first["winners"]:
            assert mus[0] < 25
        rating = shown["rating"]
        assert rating["games"] == 3
        assert rating["display"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=0.01)

        # bots are rated under their label, and a game of bots alone changed nothing
        labels = {row["player"]: row for row in after}
        assert labels["bot:rules"]["bot"] == "rules"
        assert labels[host.player]["name"] == "Host" and labels[host.player]["bot"] is None
        assert after == board
        shown_by = [row["display"] for row in after]
        assert shown_by == sorted(shown_by, reverse=True)
        bots = page(base, "bot:rules")
        assert bots["bot"] == "rules" and figures(bots)["played"] == 3 * 2

        # the private room's game is linked for the host only
        assert len(mine["last"]) == 3
        assert len(page(base, host.player, other)["last"]) == 2
        assert len(page(base, host.player)["last"]) == 2
        assert all(g["room"] for g in page(base, host.player)["last"])


def test_a_person_who_played_then_left_is_rated_and_marked(tmp_path):
    """Leaving a losing game must not spare a rating: a person who made a decision of their
    own and then left is rated, and the game is marked as finished by the stand-in."""
    with ServerThread(f"sqlite:///{tmp_path / 'left.db'}") as server:

        async def go():
            host = await Lobby.guest(server.url, "Leaver")
            rid = await room(host)
            me = await SeatClient.connect(host.ws_url(rid), host.token)
            try:
                await host.call("POST", f"/api/rooms/{rid}/start")
                await me.wait(lambda f: f["type"] in ("state", "update") and me.my_turn())
                table = me.table
                acked = await me.request(type="act", action=table["legal"][0], seq=table["seq"])
                await host.call("POST", f"/api/rooms/{rid}/leave")  # the stand-in plays on
                await watch_until_over(host, rid)
            finally:
                await me.close()
            return host, acked

        host, acked = run(go())
        assert acked["type"] == "ack"
        shown = page(server.url, host.player)
        assert figures(shown)["played"] == 1 and figures(shown)["rating"]["games"] == 1
        assert [g["stand_in"] for g in shown["last"]] == [True]


def test_a_game_left_before_it_began_is_not_the_leavers(tmp_path):
    """Issue 23: sit, start, leave at once, and the stand-in plays the game out: the leaver
    made no decision of their own, so the game is not theirs (no rating, no figures, not on
    their page); their seat counts as the bot that played it. Alone with bots, that leaves a
    game of bots alone, rated for nobody, however many times it is done; another person who
    played at that table is rated as usual."""
    with ServerThread(f"sqlite:///{tmp_path / 'farm.db'}") as server:

        async def go():
            host = await Lobby.guest(server.url, "Farmer")
            for _ in range(3):
                rid = await room(host)
                await host.call("POST", f"/api/rooms/{rid}/start")
                await host.call("POST", f"/api/rooms/{rid}/leave")
                await watch_until_over(host, rid)
            alone = httpx.get(f"{server.url}/api/leaderboard/{GAME}").json()
            # now with another person, who plays their seat to the end
            other = await Lobby.guest(server.url, "Stayer")
            body = {"game": GAME, "options": OPTIONS, "settings": FAST, "seat": 0}
            rid = (await host.call("POST", "/api/rooms", body))["id"]
            await other.call("POST", f"/api/rooms/{rid}/seats/1")
            await host.call("PUT", f"/api/rooms/{rid}/seats/2/bot", {"bot": "rules"})
            stayer = await SeatClient.connect(other.ws_url(rid), other.token)
            try:
                await host.call("POST", f"/api/rooms/{rid}/start")
                await host.call("POST", f"/api/rooms/{rid}/leave")
                result = await play_to_end([stayer])
            finally:
                await stayer.close()
            return host, other, alone, result

        host, other, alone, result = run(go())
        assert alone == []  # three farmed games: nobody rated, bots included
        farmer = page(server.url, host.player)
        assert farmer["games"] == [] and farmer["last"] == []
        stayer = figures(page(server.url, other.player))
        assert stayer["played"] == 1 and stayer["rating"]["games"] == 1
        bots = page(server.url, "bot:rules")
        assert figures(bots)["played"] == 2  # seat 2, and seat 0 that the stand-in played
        (last,) = page(server.url, other.player)["last"]
        assert last["place"] == result["places"].index(1) + 1


def test_unknown_players_and_games_are_not_found(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'none.db'}") as server:
        assert httpx.get(f"{server.url}/api/players/nobody").status_code == 404
        assert httpx.get(f"{server.url}/api/leaderboard/chess").status_code == 404
        assert httpx.get(f"{server.url}/api/leaderboard/{GAME}").json() == []


def test_sides_are_teams_of_unequal_size():
    """A side that won is one team against the rest; without sides every seat is alone; in
    Baohuang each deal is the emperor's side (solo or with a partner) against the rebels."""
    side = game_type("criminal_poker").contests(
        {"places": [1, 0, 2, 3], "winners": [1, 0], "scores": [1, 1, 0, 0]}
    )
    assert [(c.teams, c.ranks) for c in side] == [([[0, 1], [2, 3]], [0, 1])]
    alone = game_type("bao_qingtian").contests(
        {"places": [2, 0, 1], "winners": [], "scores": ["1/2", "1/2", 3]}
    )
    assert [(c.teams, c.ranks) for c in alone] == [([[0], [1], [2]], [1, 1, 0])]
    deals = [
        {"places": [0, 1, 2, 3, 4], "emperor": 4, "partner": None, "scores": [1, 1, 1, 1, -4]},
        {"places": [0, 1, 2, 3, 4], "emperor": 0, "partner": 3, "scores": [4, -2, -2, 2, -2]},
    ]
    contests = game_type("baohuang").contests(
        {"places": [0, 1, 2, 3, 4], "winners": [0], "scores": [5, -1, -1, 3, -6], "deals": deals}
    )
    assert [(c.teams, c.ranks) for c in contests] == [
        ([[4], [0, 1, 2, 3]], [1, 0]),
        ([[0, 3], [1, 2, 4]], [0, 1]),
    ]


async def rated_store(path):
    """A store with a person "p" and a room of 5 seats: "p" in seat 0, bots in the rest;
    ``path`` is a SQLite file, or a database's URL."""
    from yamen.engine import get_game
    from yamen.server.registry import Rooms
    from yamen.server.storage import Store

    store = Store(path if "://" in str(path) else f"sqlite:///{path}")
    await store.open()
    await store.add_player("p", "P", "token")
    room = await Rooms(store).create("p", get_game("baohuang"), True, None)
    await store.set_seats(room.id, {0: ("p", None), **{i: (None, "rules") for i in range(1, 5)}})
    return store, room.id


async def finished(store, room_id: str, number: int, result: dict, players=None) -> int:
    from yamen.records import Record

    record = Record("baohuang", {}, number, None, [], None)
    game_id = await store.add_game(room_id, number, record, None, players or ["p"] + [None] * 4)
    await store.finish_game(game_id, result)
    return game_id


def deal(emperor, partner, emperor_score):
    scores = [-emperor_score / 4] * 5
    scores[emperor] = emperor_score
    if partner is not None:
        scores[partner] = 0
    return {"places": [0, 1, 2, 3, 4], "emperor": emperor, "partner": partner, "scores": scores}


def test_the_side_that_won_goes_up_a_solo_emperor_most_and_a_game_counts_once(tmp_path):
    from yamen.server.ratings import leaderboard, player_page, rate_game

    async def go():
        store, rid = await rated_store(tmp_path / "r.db")
        base = {"places": [0, 1, 2, 3, 4], "winners": [0], "scores": [4, -1, -1, -1, -1]}
        solo = await finished(store, rid, 1, {**base, "deals": [deal(0, None, 4)]})
        after_solo = await leaderboard(store, "baohuang")
        again = await rate_game(store, solo)  # a game is rated once
        board_again = await leaderboard(store, "baohuang")
        # a second person, on a fresh name, wins with a partner instead
        await store.add_player("q", "Q", "token-q")
        await store.set_seats(rid, {0: ("q", None)})
        await finished(store, rid, 2, {**base, "deals": [deal(0, 1, 4)]}, ["q"] + [None] * 4)
        board = await leaderboard(store, "baohuang")
        # bots alone: nothing
        await finished(store, rid, 3, {**base, "deals": [deal(0, None, 4)]}, [None] * 5)
        final = await leaderboard(store, "baohuang")
        page = await player_page(store, "p", None)
        await store.close()
        return after_solo, again, board_again, board, final, page

    after_solo, again, board_again, board, final, page = run(go())
    first = {r["player"]: r for r in after_solo}
    assert first["p"]["mu"] > 25 > first["bot:rules"]["mu"]  # the winner up, the losers down
    assert not again and board_again == after_solo
    rated = {r["player"]: r for r in board}
    # 1 against 4 is the bigger upset: a solo emperor's win is worth more than a pair's
    assert rated["p"]["mu"] - 25 > rated["q"]["mu"] - 25 > 0
    assert final == board
    assert page["games"][0]["played"] == 1 and page["games"][0]["win_rate"] == 1


def test_a_rating_that_fails_is_logged_and_the_game_still_ends(tmp_path, monkeypatch, caplog):
    from yamen.server import ratings

    async def broken(store, game_id):
        raise RuntimeError("the ratings are broken")

    monkeypatch.setattr(ratings, "_rate", broken)

    async def go():
        store, rid = await rated_store(tmp_path / "f.db")
        result = {"places": [0, 1, 2, 3, 4], "winners": [0], "scores": [4, -1, -1, -1, -1]}
        game_id = await finished(store, rid, 1, result)
        stored = await store.game(game_id)
        board = await ratings.leaderboard(store, "baohuang")
        await store.close()
        return stored, board

    stored, board = run(go())
    assert stored.finished and stored.record.result["winners"] == [0]
    assert board == []
    assert "could not be rated" in caplog.text


def test_games_never_rated_are_rated_when_a_server_starts_oldest_first(tmp_path, monkeypatch):
    """Games finished before ratings existed (or whose rating failed) are rated by
    rate_unrated(), which a server runs as it starts: in the order they finished, once."""
    from yamen.server import ratings

    real = ratings._rate
    order: list[int] = []

    async def broken(store, game_id):
        raise RuntimeError("no ratings yet")

    async def counted(store, game_id):
        order.append(game_id)
        return await real(store, game_id)

    async def go():
        store, rid = await rated_store(tmp_path / "u.db")
        result = {"places": [0, 1, 2, 3, 4], "winners": [0], "scores": [4, -1, -1, -1, -1]}
        monkeypatch.setattr(ratings, "_rate", broken)
        games = [
            await finished(store, rid, n, {**result, "deals": [deal(0, None, 4)]}) for n in (1, 2)
        ]
        bots = await finished(store, rid, 3, result, [None] * 5)
        before = await ratings.leaderboard(store, "baohuang")
        monkeypatch.setattr(ratings, "_rate", counted)
        first = await ratings.rate_unrated(store)
        board = await ratings.leaderboard(store, "baohuang")
        second = await ratings.rate_unrated(store)
        await store.close()
        return games, bots, before, first, board, second

    games, bots, before, first, board, second = run(go())
    assert before == [] and first == 2 and second == 0
    assert order[:3] == [*games, bots]  # oldest first; bots alone are looked at, not rated
    rated = {r["player"]: r for r in board}
    assert rated["p"]["games"] == 2 and rated["p"]["mu"] > 25


def test_a_server_started_on_unrated_games_rates_them(tmp_path, monkeypatch):
    from yamen.server import ratings

    real = ratings._rate

    async def broken(store, game_id):
        raise RuntimeError("no ratings yet")

    async def go():
        store, rid = await rated_store(tmp_path / "s.db")
        result = {"places": [0, 1, 2, 3, 4], "winners": [0], "scores": [4, -1, -1, -1, -1]}
        monkeypatch.setattr(ratings, "_rate", broken)
        await finished(store, rid, 1, {**result, "deals": [deal(0, None, 4)]})
        await store.close()

    run(go())
    monkeypatch.setattr(ratings, "_rate", real)
    with ServerThread(f"sqlite:///{tmp_path / 's.db'}") as server:
        for _ in range(200):
            board = httpx.get(f"{server.url}/api/leaderboard/baohuang").json()
            if board:
                break
            time.sleep(0.05)
    assert {r["player"] for r in board} == {"p", "bot:rules"}
