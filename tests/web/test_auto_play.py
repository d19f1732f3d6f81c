"""Auto-play (托管) and coming back to a left seat, in the page (issue 26): the seated person
hands their seat to the stand-in by the action bar and takes it back on the same screen; one
who left their seat mid-game keeps the chat and takes the seat back from the room's head."""

from __future__ import annotations

import json
import time

from tests.paths import WEB
from tests.web.helpers import act_once, needs_chromium, person, start_game

pytestmark = needs_chromium


def test_auto_play_on_and_off_and_a_left_seat_taken_back(web_server, browser):
    zh = json.loads((WEB / "i18n" / "zh-Hant.json").read_text())
    page = person(browser, web_server.url, "Mei", locale="zh-TW")
    # (the page's own pass when I cannot beat is a chore of its own: off, so that every
    # decision of my seat waits for me or the stand-in)
    page.evaluate("localStorage.setItem('yamen.autopass', 'off')")
    start_game(page, "baohuang", {"deals": 1}, lang="zh-Hant", wait=".your-move", pace="0.8")
    toggle = page.locator("#auto-play")
    assert toggle.inner_text() == zh["auto_play"]
    assert page.locator(".actions #auto-play").count() == 1  # by the action bar
    toggle.click()

    # on: the bar says so, the seat says so to everyone, the stand-in plays my seat
    page.wait_for_selector("#auto-bar #auto-play[aria-pressed=true]")
    assert page.inner_text("#auto-play") == zh["auto_play_off"]
    mine = page.locator(".seats li[data-seat='0']")
    assert mine.locator(".auto-seat").inner_text() == zh["auto_play_on_seat"]
    mark = zh["stand_in.mark"].format(name="Mei")
    page.wait_for_function("mark => document.body.textContent.includes(mark)", arg=mark)  # log
    hidden = "() => [...document.querySelectorAll('#table .actions:not(.auto-bar)')]"
    assert page.evaluate(f"{hidden}.every(bar => !bar.offsetParent)")  # the game's bar waits

    # off: the seat is mine at once, and my next decision waits for me
    page.click("#auto-play")
    page.wait_for_selector("#auto-play[aria-pressed=false]")
    assert mine.locator(".auto-seat").count() == 0
    page.wait_for_selector(".your-move", timeout=60_000)
    time.sleep(2)  # (over twice the bots' pace: a stand-in would have played)
    assert page.locator(".your-move").count() == 1
    assert page.locator(".actions #auto-play").inner_text() == zh["auto_play"]

    # leave mid-game: the chat stays, and the seat can be taken back while the game lasts
    page.click("#leave")
    page.click("#confirm-yes")
    page.wait_for_selector("#take-back")
    assert page.inner_text("#take-back") == zh["left_seat_back"]
    assert page.locator("#auto-play").count() == 0
    page.fill("#chat-text", "馬上回來")
    page.click(".chat-form button[type=submit]")
    lines = "[...document.querySelectorAll('.chat-line')]"
    page.wait_for_function(f"() => {lines}.some(l => l.textContent.includes('馬上回來'))")
    page.click("#take-back")
    page.wait_for_selector("#leave")
    assert page.locator("#take-back").count() == 0
    assert "mine" in mine.get_attribute("class") and mine.locator(".player-link").count() == 1
    page.wait_for_selector(".your-move", timeout=60_000)  # my seat again: I play on
    assert act_once(page)
    assert not page.errors
