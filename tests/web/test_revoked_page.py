"""Revoked sessions and deleted accounts in the browser: a room page whose session is signed
out from elsewhere is closed (code 4001) and goes back to the name step, saying why in the
page's words; a deleted account's player is worded in the page's language on the leaderboard,
and their own page says the account is gone."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from tests.paths import WEB
from tests.server.helpers import PASSWORD, claimed, played_against_bots, run, signed_in
from tests.web.helpers import needs_chromium, person

pytestmark = needs_chromium


def words(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def api(coro_fn, *args):
    """An async API call done beside Playwright's own loop (in a thread of its own)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: run(coro_fn(*args))).result()


def test_a_room_page_signed_out_elsewhere_goes_back_to_the_name_step(web_server, browser):
    async def setup():
        first = await claimed(web_server.url, "Nell", "Nell")
        second = await signed_in(web_server.url, "Nell")
        room = await first.call("POST", "/api/rooms", {"game": "baohuang", "seat": 0})
        return first.token, second.token, room["id"]

    first_token, token, rid = api(setup)
    page = browser.new_context().new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(web_server.url)
    page.evaluate("t => localStorage.setItem('yamen.token', t)", token)
    page.goto(f"{web_server.url}/#/room/{rid}")
    page.reload()
    page.wait_for_selector(".seat-name .player-link")

    async def sign_out_everywhere():
        from yamen.client import Lobby

        await Lobby(web_server.url, first_token).call("DELETE", "/api/account/sessions")

    api(sign_out_everywhere)
    page.wait_for_selector("#name")  # the name step: this browser has no identity now
    assert page.inner_text("#banner") == words("en")["error.signed_out"]
    assert page.evaluate("localStorage.getItem('yamen.token')") is None
    assert not page.errors


def test_a_deleted_player_on_the_leaderboard_in_japanese(web_server, browser):
    async def setup():
        lobby = await claimed(web_server.url, "Kim", "Kim")
        await played_against_bots(lobby)
        await lobby.call("DELETE", "/api/account", {"password": PASSWORD})
        return lobby.player

    player = api(setup)
    ja = words("ja")
    page = person(browser, web_server.url, "ミオ", locale="ja-JP")
    page.goto(f"{web_server.url}/#/leaderboard/baohuang")
    row = page.locator(f'.leaderboard tr[data-player="{player}"]')
    row.wait_for()
    assert ja["deleted_player"] in row.inner_text()
    assert row.locator("a").count() == 0  # no page to lead to
    page.goto(f"{web_server.url}/#/player/{player}")
    page.wait_for_function(
        "t => document.getElementById('main').innerText.includes(t)", arg=ja["error.player_deleted"]
    )
    assert not page.errors
