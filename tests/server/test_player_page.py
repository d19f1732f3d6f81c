"""A player's page costs the same however many games they played (issue 23: with 40k games
``GET /api/players/bot:rules`` read every result): its figures are kept per player and game as
each game is rated, equal to a recount of the stored outcomes, filled for older databases by
the migration, and its last games come a page at a time, newest first, only those the asker
may read."""

from __future__ import annotations

import random
from fractions import Fraction

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import create_async_engine

from tests.server.helpers import ServerThread, database, run
from tests.server.test_ratings import deal, finished, rated_store
from yamen.server.migrate import config, upgrade
from yamen.server.outcomes import OPPONENTS
from yamen.server.ratings import Cursor, _last_games, count, player_page
from yamen.server.storage import Store, async_url
from yamen.server.tables import GameRow, OutcomeRow, RoomRow, StatsRow


async def grown(path, games: int):
    """A site where "p" (a person) played ``games`` games with "rules" bots, in a private and
    a public room in turn, "q" in seat 1 of every third, written straight into the tables with
    their figures."""
    store, public = await rated_store(path)
    await store.add_player("q", "Q", "token-q")
    async with store.session.begin() as s:
        s.add(
            RoomRow(
                id="hidden",
                game="baohuang",
                options={},
                public=False,
                invite="i",
                host="p",
                settings={},
                created=0,
            )
        )
        await s.flush()
        stats: dict[str, StatsRow] = {}
        for n in range(games):
            room = public if n % 2 else "hidden"
            players = ["p", "q" if n % 3 == 0 else None, None, None, None]
            row = GameRow(
                public_id=f"g{n}",
                room_id=room,
                number=n + 1,
                players=players,
                game="baohuang",
                options={},
                seed=n,
                started=n,
                finished=n + 1.0,
                result={
                    "places": [0, 1, 2, 3, 4],
                    "winners": [0],
                    "scores": [4, "-1/2", "-1/2", -1, -2],
                },
            )
            s.add(row)
            await s.flush()
            for seat, score in enumerate(row.result["scores"]):
                who = players[seat] or "bot:rules"
                place, won = seat + 1, seat == 0
                s.add(
                    OutcomeRow(
                        game_id=row.id,
                        seat=seat,
                        who=who,
                        game="baohuang",
                        place=place,
                        score=float(Fraction(str(score))),
                        won=won,
                        stand_in=False,
                        finished=row.finished,
                    )
                )
                if who not in stats:
                    stats[who] = StatsRow(
                        who=who, game="baohuang", played=0, wins=0, points="0", places={}, last=0
                    )
                    s.add(stats[who])
                count(stats[who], place, Fraction(str(score)), won, row.finished)
    return store


class Work:
    """The statements a store runs and the rows they bring back, while counting."""

    def __init__(self, store):
        self.statements = self.rows = 0
        self.engine = store.engine.sync_engine
        event.listen(self.engine, "after_cursor_execute", self.seen)

    def seen(self, conn, cursor, statement, parameters, context, executemany):
        self.statements += 1
        # the async adapter has fetched every row of the answer already (SQLAlchemy's own)
        self.rows += len(getattr(cursor, "_rows", ()) or ())

    def close(self):
        event.remove(self.engine, "after_cursor_execute", self.seen)


@pytest.mark.parametrize("asker", [None, "p", "q"])
def test_the_work_of_a_page_does_not_grow_with_the_games_played(tmp_path, asker):
    async def work(games: int):
        store = await grown(tmp_path / f"{games}.db", games)
        costs = []
        try:
            for who in ("p", "bot:rules"):
                await player_page(store, who, asker)  # the statement caches warmed
                counted = Work(store)
                first = await player_page(store, who, asker)
                second = await player_page(store, who, asker, before=Cursor.parse(first["next"]))
                counted.close()
                costs.append((counted.statements, counted.rows, len(second["last"])))
                # seat 0 is p's; the bots sit in seats 2 to 4, and in seat 1 unless q does
                played = games if who == "p" else 4 * games - (games + 2) // 3
                assert first["games"][0]["played"] == played
        finally:
            await store.close()
        return costs

    small, large = run(work(100)), run(work(1000))
    assert small == large
    seats = 20 * (OPPONENTS + 1)  # the page's games' other seats (and one's own) at most
    for (statements, rows, shown), reads in zip(large, (6, 5), strict=True):
        # names (a person's), figures, ratings, a page, its games' other seats and their
        # people's names: twice, for two pages
        assert shown == 20 and statements == 2 * reads
        # names, figures, rating, a page and one more, other seats, their names
        assert rows <= 2 * (1 + 1 + 1 + 21 + seats + seats)


def test_the_last_games_are_read_through_the_index_newest_first(tmp_path):
    """SQLite walks the (who, finished, ...) index in order and stops at the limit: no scan
    of the player's outcomes, no sort of them."""
    store = run(grown(tmp_path / "plan.db", 50))
    run(store.close())
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'plan.db'}")
    plans = []
    with engine.connect() as conn:
        for asker, before in ((None, None), ("q", Cursor(30.0, "g29", 0))):
            query = _last_games("p", asker, before, 21)
            sql = str(query.compile(engine, compile_kwargs={"literal_binds": True}))
            plans.append(
                " | ".join(row[-1] for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
            )
    for plan in plans:
        assert "INDEX ix_outcomes_who_finished (who=?" in plan, plan
        assert "TEMP B-TREE" not in plan and "SCAN outcomes" not in plan, plan


def readable(rows, asker):
    """Straightforwardly: the outcomes of a public room, or of a game the asker was in."""
    return [o for o in rows if o["public"] or (asker is not None and asker in o["in"])]


def test_pages_of_last_games_walk_every_readable_game_once_newest_first(tmp_path):
    async def go():
        store = await grown(tmp_path / "w.db", 47)
        async with store.session.begin() as s:  # games finished at the same moment, too
            await s.execute(
                sa.update(OutcomeRow).where(OutcomeRow.finished >= 40).values(finished=40.0)
            )
        async with store.session() as s:
            rows = (
                await s.execute(
                    select(OutcomeRow, GameRow.public_id, GameRow.players, RoomRow.public)
                    .join(GameRow, GameRow.id == OutcomeRow.game_id)
                    .join(RoomRow, RoomRow.id == GameRow.room_id)
                )
            ).all()
        outcomes = sorted(
            (
                {
                    "who": o.who,
                    "game_id": public_id,
                    "seat": o.seat,
                    "public": public,
                    "in": set(players),
                    "key": (o.finished, o.game_id, o.seat),
                }
                for o, public_id, players, public in rows
            ),
            key=lambda o: o["key"],
            reverse=True,
        )
        walked = {}
        for who in ("p", "bot:rules"):
            for asker in (None, "p", "q"):
                pages, before = [], None
                while True:
                    page = await player_page(store, who, asker, 20, before)
                    pages.append(page["last"])
                    if page["next"] is None:
                        break
                    before = Cursor.parse(page["next"])
                walked[who, asker] = pages
        await store.close()
        return outcomes, walked

    outcomes, walked = run(go())
    for (who, asker), pages in walked.items():
        expected = [(o["game_id"], o["seat"]) for o in readable(outcomes, asker) if o["who"] == who]
        got = [(g["game_id"], g["seat"]) for page in pages for g in page]
        assert got == expected, (who, asker)
        assert all(len(page) == 20 for page in pages[:-1]) and len(pages[-1]) <= 20
    assert len(walked["p", "p"][0]) == 20 and sum(map(len, walked["p", None])) == 23


def recount(outcomes, results):
    """Figures per (who, game) straight from the outcome rows, as the page once computed them
    by reading all of them (floats), with the exact points beside."""
    figures = {}
    for o in outcomes:
        f = figures.setdefault(
            (o.who, o.game), {"n": 0, "places": {}, "points": 0.0, "exact": Fraction(0), "wins": 0}
        )
        f["n"] += 1
        f["places"][str(o.place)] = f["places"].get(str(o.place), 0) + 1
        f["points"] += o.score
        f["exact"] += Fraction(str(results[o.game_id]["scores"][o.seat]))
        f["wins"] += o.won
    return figures


async def rated_games(path):
    """Games rated the way a server rates them: Baohuang and Bao Qing-tian, exact fractional
    scores, places and winners drawn at random; "p" in seat 0, "rules" bots elsewhere."""
    from yamen.engine import get_game
    from yamen.server.registry import Rooms

    store, rid = await rated_store(path)
    other = await Rooms(store).create("p", get_game("bao_qingtian", {"players": 3}), True, None)
    await store.set_seats(other.id, {0: ("p", None), 1: (None, "rules"), 2: (None, "rules")})
    rng = random.Random(5)
    for number in range(1, 25):
        places = rng.sample(range(5), 5)
        scores = [rng.choice([3, -1, "1/2", "-3/2", "7/3"]) for _ in range(5)]
        result = {
            "places": places,
            "winners": places[: rng.randint(0, 2)],
            "scores": scores,
            "deals": [deal(places[0], None, 4)],
        }
        await finished(store, rid, number, result)
        if number % 2:
            three = {"places": places[:3], "winners": [], "scores": scores[:3]}
            three["places"] = rng.sample(range(3), 3)
            await finished_in(store, other.id, number, three)
    return store


async def finished_in(store, room_id, number, result):
    from yamen.records import Record

    record = Record("bao_qingtian", {"players": 3}, number, None, [], None)
    game_id = await store.add_game(room_id, number, record, None, ["p", None, None])
    await store.finish_game(game_id, result)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_figures_kept_are_a_recount_of_the_outcomes_and_old_databases_get_them(kind, tmp_path):
    async def pages(store):
        return {who: await player_page(store, who, "p") for who in ("p", "bot:rules")}

    async def go(url):
        store = await rated_games(url)
        async with store.session() as s:
            outcomes = list(await s.scalars(select(OutcomeRow)))
            results = dict((await s.execute(select(GameRow.id, GameRow.result))).all())
        before = await pages(store)
        await store.close()
        return outcomes, results, before

    async def down_and_up(url):
        """Back to 0007 (no figures kept), then up again: the migration fills them."""
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as conn:
                await conn.run_sync(lambda c: command.downgrade(config(c), "0007"))
                gone = "player_stats" not in await conn.run_sync(
                    lambda c: sa.inspect(c).get_table_names()
                )
            async with engine.begin() as conn:
                await conn.run_sync(upgrade)
        finally:
            await engine.dispose()
        store = Store(url)
        await store.open()
        after = await pages(store)
        await store.close()
        return gone, after

    with database(kind, tmp_path) as url:
        outcomes, results, before = run(go(url))
        gone, after = run(down_and_up(url))
    figures = recount(outcomes, results)
    for who, page in before.items():
        assert {g["game"] for g in page["games"]} == {"baohuang", "bao_qingtian"}
        for shown in page["games"]:
            f = figures[who, shown["game"]]
            assert shown["played"] == f["n"] and shown["places"] == f["places"]
            assert shown["mean_points"] == round(f["points"] / f["n"], 4)
            assert shown["mean_points"] == round(float(f["exact"] / f["n"]), 4)
            assert shown["win_rate"] == round(f["wins"] / f["n"], 4)
    # the latest game played first, as when the page read every outcome
    assert before["p"]["games"][0]["game"] == "baohuang"
    # a database from before the figures were kept gets the same ones as it upgrades
    assert gone and after == before


def test_a_page_that_is_no_page_is_refused_and_a_forged_one_tells_nothing(tmp_path):
    path = tmp_path / "c.db"

    async def build():
        store = await grown(path, 50)  # 25 of them in a public room
        await store.close()

    run(build())
    with ServerThread(f"sqlite:///{path}") as server:
        url = f"{server.url}/api/players/p"
        first = httpx.get(url).json()
        second = httpx.get(url, params={"before": first["next"]}).json()
        bad = [
            httpx.get(url, params={"before": b})
            for b in ("x", "nan:g1:0", "1.0:g 1:0", "1.0:g1:-1", "1.0:g1")
        ]
        forged = httpx.get(url, params={"before": "1000.0:nothing:0"})
    assert (len(first["last"]), len(second["last"]), second["next"]) == (20, 5, None)
    assert {g["game_id"] for g in first["last"]}.isdisjoint(g["game_id"] for g in second["last"])
    for refused in bad:
        assert refused.status_code == 422 and refused.json()["detail"]["code"] == "invalid"
    # an unknown game in a cursor: the games finished before its time, no error, no probe
    assert forged.status_code == 200 and forged.json()["last"] == first["last"]
