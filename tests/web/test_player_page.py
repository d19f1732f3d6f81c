"""The player page and the leaderboard in the browser: after a game with bots, a seat's name
leads to its player's page (games played, win rate, rating, the game's page), the lobby to
each game's leaderboard (the person and the bots, labelled by kind), in the page's language."""

from __future__ import annotations

import json

from tests.paths import WEB
from tests.web.helpers import (
    DESKTOP,
    PHONE,
    artifacts,
    needs_chromium,
    person,
    play_pages,
    start_game,
)

pytestmark = needs_chromium


def words(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text())


def test_a_seat_name_leads_to_the_players_page_and_the_lobby_to_the_leaderboard(
    web_server, browser
):
    host = person(browser, web_server.url, "Rika")
    start_game(host, "bao_qingtian", {"players": 3})
    play_pages([host])
    host.click(".seat-name .player-link")
    host.wait_for_selector(".player-page .player-game")
    shown = host.locator(".player-page").inner_text()
    assert "Rika" in shown
    assert host.locator(".player-game .played").inner_text() == "1"
    assert host.locator(".player-game .rating").inner_text().strip() != "–"
    assert host.locator(".last-games li a.game-open").count() == 1  # the game's page, not JSON
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        host.set_viewport_size(size)
        host.screenshot(path=str(artifacts() / f"player-page-{name}.png"), full_page=True)

    # the same page in Chinese, without fetching again
    host.select_option("#lang", "zh-Hant")
    host.wait_for_function(
        "() => document.querySelector('.player-page').innerText.includes('對局數')"
    )
    assert words("zh-Hant")["player.win_rate"] in host.locator(".player-page").inner_text()

    host.select_option("#lang", "en")
    host.click(".player-game h2 a")  # this game's leaderboard
    host.wait_for_selector(".leaderboard tbody tr")
    rows = host.locator(".leaderboard tbody tr")
    players = [rows.nth(i).get_attribute("data-player") for i in range(rows.count())]
    assert "bot:rules" in players and len(players) == 2
    assert "Rika" in host.locator(".leaderboard").inner_text()
    bot_row = host.locator(".leaderboard tr.bot").inner_text()
    assert words("en")["bot"] in bot_row and words("en")["bot.kind.rules"] in bot_row
    host.screenshot(path=str(artifacts() / "leaderboard-desktop.png"), full_page=True)

    # and from the lobby
    host.goto(web_server.url + "/#/")
    host.wait_for_selector(".leaderboards a")
    assert host.locator(".leaderboards a").count() >= 3
    host.goto(web_server.url + "/#/player/nobody")
    host.wait_for_function(
        "t => document.getElementById('main').innerText.includes(t)",
        arg=words("en")["player.not_found"],
    )
    assert not host.errors


def played_many(db: str, player: str, games: int) -> None:
    """``player`` (a guest) with ``games`` rated games of a public room, written straight into
    the server's database, with their figures as the server keeps them."""
    from fractions import Fraction

    import sqlalchemy as sa
    from sqlalchemy.orm import Session

    from yamen.server.ratings import count
    from yamen.server.tables import GameRow, OutcomeRow, RoomRow, StatsRow

    engine = sa.create_engine(f"sqlite:///{db}")
    with Session(engine) as s, s.begin():
        s.add(
            RoomRow(
                id=f"r-{player[:8]}",
                game="bao_qingtian",
                options={"players": 3},
                public=True,
                invite="i",
                host=player,
                settings={},
                created=0,
            )
        )
        s.flush()
        stats = StatsRow(
            who=player, game="bao_qingtian", played=0, wins=0, points="0", places={}, last=0
        )
        s.add(stats)
        for n in range(games):
            game = GameRow(
                public_id=f"{player[:6]}g{n}",
                room_id=f"r-{player[:8]}",
                number=n + 1,
                players=[player, None, None],
                game="bao_qingtian",
                options={"players": 3},
                seed=n,
                started=n,
                finished=n + 1.0,
                result={"places": [0, 1, 2], "winners": [], "scores": [n, 0, 0]},
            )
            s.add(game)
            s.flush()
            s.add(
                OutcomeRow(
                    game_id=game.id,
                    seat=0,
                    who=player,
                    game="bao_qingtian",
                    place=1,
                    score=float(n),
                    won=False,
                    stand_in=False,
                    finished=n + 1.0,
                )
            )
            count(stats, 1, Fraction(n), False, n + 1.0)
    engine.dispose()


def test_more_games_come_a_page_at_a_time(web_server, browser):
    """Twenty last games at first; "more games" adds the next page, and the button goes once
    there are no more; a language change draws them all again without fetching."""
    page = person(browser, web_server.url, "Paging")
    me = page.evaluate(
        """async () => {
          const auth = {Authorization: `Bearer ${localStorage.getItem("yamen.token")}`};
          return (await fetch("/api/me", {headers: auth})).json();
        }"""
    )
    played_many(web_server.app.state.rooms.store.engine.url.database, me["player"], 27)
    page.goto(f"{web_server.url}/#/player/{me['player']}")
    page.wait_for_selector(".last-games li")
    assert page.locator(".last-games li").count() == 20
    assert page.locator(".player-game .played").inner_text() == "27"
    newest = page.locator(".last-games li").first.get_attribute("data-game-id")
    page.click(".more-games")
    page.wait_for_function("() => document.querySelectorAll('.last-games li').length === 27")
    ids = [page.locator(".last-games li").nth(i).get_attribute("data-game-id") for i in range(27)]
    assert ids[0] == newest and len(set(ids)) == 27
    assert page.locator(".more-games").count() == 0
    page.select_option("#lang", "ja")
    page.wait_for_function(
        "t => document.querySelector('.player-page').innerText.includes(t)",
        arg=words("ja")["player.last_games"],
    )
    assert page.locator(".last-games li").count() == 27
    assert not page.errors
