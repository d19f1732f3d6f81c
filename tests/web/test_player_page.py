"""The player page and the leaderboard in the browser: after a game with bots, a seat's name
leads to its player's page (games played, win rate, rating, the game's record), the lobby to
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
    assert host.locator(".last-games li a[download]").count() == 1
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
