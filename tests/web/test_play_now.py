"""Finding a game and coming back, in the page (issue 26): play now from the lobby seats two
people of two languages at one table, the host shortens its wait and bots fill the empty
seats; the lobby then offers each of them the way back to their table in one tap; an invite
link tells the friend who invited them to which game, before and after the name step, and
the name step seats them, or says they watch when no seat is free."""

from __future__ import annotations

import json

import httpx

from tests.paths import WEB
from tests.web.helpers import (
    DESKTOP,
    PHONE,
    artifacts,
    create_room,
    needs_chromium,
    person,
    room_id,
)

pytestmark = needs_chromium


def words(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text())


def game_words(game: str, lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())[lang]


def room_of(base: str, rid: str) -> dict:
    return httpx.get(f"{base}/api/rooms/{rid}").json()


def lobby_shots(page, name: str) -> None:
    """The lobby at a phone's width and a desktop's, whatever the page's own size."""
    size = page.viewport_size
    for width, viewport in ((390, PHONE), (1280, DESKTOP)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(artifacts() / f"{name}-{width}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{name} at {width} px scrolls sideways"
    page.set_viewport_size(size)


def test_play_now_seats_two_at_one_table_bots_fill_it_and_the_lobby_leads_back(web_server, browser):
    hant, ja = words("zh-Hant"), words("ja")
    mei = person(browser, web_server.url, "阿美", viewport=PHONE, locale="zh-TW")
    aoi = person(browser, web_server.url, "葵", viewport=DESKTOP, locale="ja-JP")

    # the lobby: one button a game and a preset, in the page's words
    card = mei.locator("#play-now")
    assert card.locator("h2").inner_text() == hant["play_now.title"]
    offered = card.locator(".play-now-button").evaluate_all(
        "bs => bs.map(b => [b.dataset.game, b.dataset.preset, b.getAttribute('aria-label')])"
    )
    games = httpx.get(f"{web_server.url}/api/games").json()
    expected = []
    for game in games:
        title = game_words(game["game"], "zh-Hant")[f"{game['game']}.title"]
        for preset in game["presets"] or [None]:
            label = (
                preset
                and game_words(game["game"], "zh-Hant")[f"{game['game']}.preset.{preset['name']}"]
            )
            name = preset["name"] if preset else ""
            expected.append([game["game"], name, f"{title} · {label}" if label else title])
    assert offered == expected
    lobby_shots(mei, "lobby-play-now-zh-Hant")
    assert aoi.inner_text("#play-now h2") == ja["play_now.title"]
    lobby_shots(aoi, "lobby-play-now-ja")

    # one press each: the same table, a seat each, and the wait said in each language
    mei.click(".play-now-button[data-game=criminal_poker]")
    mei.wait_for_selector("#fill-note .timer")
    aoi.click(".play-now-button[data-game=criminal_poker]")
    aoi.wait_for_selector("#fill-note .timer")
    rid = room_id(mei)
    assert room_id(aoi) == rid
    assert hant["play_now.filling"] in mei.inner_text("#fill-note")
    assert ja["play_now.filling"] in aoi.inner_text("#fill-note")
    seats = [s["player"] for s in room_of(web_server.url, rid)["seats"]]
    assert seats[0] and seats[1] and seats[2:] == [None] * 3
    mei.screenshot(path=str(artifacts() / "play-now-waiting-zh-Hant-390.png"), full_page=True)

    # the host (who opened it) shortens the wait: bots take the empty seats, the game begins
    mei.click("#room-setup summary")
    assert mei.input_value("#set-fill") == "20"
    mei.fill("#set-fill", "1")
    mei.click("#save-settings")
    for page in (mei, aoi):
        page.wait_for_selector("#role", timeout=30_000)  # the table: Criminal Poker's role
    info = room_of(web_server.url, rid)
    assert info["status"] == "playing" and [s["bot"] for s in info["seats"][2:]] == ["rules"] * 3
    bot = hant["bot"]
    assert mei.locator(f".seats li[data-seat='2'] .seat-name:has-text('{bot}')").count() == 1

    # back in the lobby, each is offered their table in one tap
    for page, lang, cat in ((mei, "zh-Hant", hant), (aoi, "ja", ja)):
        page.goto(f"{web_server.url}/#/")
        page.wait_for_selector("#back-to-table")
        assert page.inner_text("#back-to-table h2") == cat["back.title"]
        title = game_words("criminal_poker", lang)["criminal_poker.title"]
        line = page.inner_text("#back-to-table li")
        seat = 1 if page is mei else 2  # (counted from 1)
        assert cat["back.where"].format(game=title, seat=seat, n=1) in line
        lobby_shots(page, f"lobby-back-to-table-{lang}")
        page.click("#back-to-table .back-link")
        page.wait_for_selector("#role")
        assert room_id(page) == rid
    assert not mei.errors and not aoi.errors


def test_an_invite_says_who_invited_whom_and_the_name_step_seats_the_friend(web_server, browser):
    en, hans = words("en"), words("zh-Hans")
    host = person(browser, web_server.url, "Ann")
    host.uncheck("#public")  # a private room: its link carries its invite code
    create_room(host, "baohuang")
    rid = room_id(host)
    link = host.get_attribute("#copy-invite", "title")
    assert "invite=" in link and f"from={room_of_with(host, rid)['host']}" in link
    title = game_words("baohuang", "zh-Hans")["baohuang.title"]

    # before the name step: who invited me, to which game; the button sits me down
    friend = browser.new_context(viewport=PHONE, locale="zh-CN").new_page()
    friend.errors = []
    friend.on("pageerror", lambda exc: friend.errors.append(str(exc)))
    friend.goto(link)
    friend.wait_for_selector("#invited-by")
    assert friend.inner_text("#invited-by") == hans["invite.by"].format(name="Ann", game=title)
    assert friend.inner_text("button[type=submit]") == hans["invite.join"]
    for width, viewport in ((390, PHONE), (1280, DESKTOP)):
        friend.set_viewport_size(viewport)
        friend.screenshot(path=str(artifacts() / f"invite-step-zh-Hans-{width}.png"))
    friend.set_viewport_size(PHONE)
    friend.fill("#name", "小红")
    friend.click("button[type=submit]")

    # after it: seated (no "sit here" to press), and told by whom and where
    friend.wait_for_selector("#invited-note")
    note = friend.inner_text("#invited-note")
    assert hans["invite.by"].format(name="Ann", game=title) in note
    assert hans["invite.seated"].format(seat=2) in note
    assert room_of_with(host, rid)["seats"][1]["name"] == "小红"
    assert "from=" not in friend.url  # asked once: a reload is an ordinary visit
    friend.screenshot(path=str(artifacts() / "invite-seated-zh-Hans-390.png"), full_page=True)

    # someone with a name already is seated by opening the link
    bo = person(browser, web_server.url, "Bo")
    bo.goto(link)
    bo.wait_for_selector("#invited-note")
    assert en["invite.seated"].format(seat=3) in bo.inner_text("#invited-note")

    # no seat free: the friend watches, and is told so
    host.click("#fill-bots")
    host.wait_for_selector("#fill-bots", state="detached")
    late = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    late.errors = []
    late.on("pageerror", lambda exc: late.errors.append(str(exc)))
    late.goto(link)
    late.wait_for_selector("#invited-by")
    english = game_words("baohuang", "en")["baohuang.title"]
    assert late.inner_text("#invited-by") == en["invite.by"].format(name="Ann", game=english)
    late.fill("#name", "Cy")
    late.click("button[type=submit]")
    late.wait_for_selector("#invited-note .watching")
    assert late.inner_text("#invited-note .watching") == en["invite.full"]
    assert "Cy" not in [s["name"] for s in room_of_with(host, rid)["seats"]]
    late.screenshot(path=str(artifacts() / "invite-watching-en-1280.png"), full_page=True)
    assert not host.errors and not friend.errors and not bo.errors and not late.errors


def room_of_with(page, rid: str) -> dict:
    """The room as the page's own player may read it (a private room: its host)."""
    return page.evaluate(
        "rid => fetch(`/api/rooms/${rid}`, {headers: {authorization:"
        " `Bearer ${localStorage.getItem('yamen.token')}`}}).then(r => r.json())",
        rid,
    )
