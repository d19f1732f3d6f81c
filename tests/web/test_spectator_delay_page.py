"""The spectator delay in the page: the lobby's form and the host's setup carry the setting,
and a spectator of a game in progress is told how many moves behind the table it sees is, in
its own language, until the game ends (yamen/web/log.js behindNote)."""

from __future__ import annotations

import json
import time

import httpx

from tests.paths import WEB
from tests.web.helpers import PHONE, artifacts, fill_with_bots, needs_chromium, person

pytestmark = needs_chromium

EN = json.loads((WEB / "i18n" / "en.json").read_text())
JA = json.loads((WEB / "i18n" / "ja.json").read_text())


def test_a_spectator_is_told_it_watches_three_moves_behind(web_server, browser):
    host = person(browser, web_server.url, "Ann")
    assert host.input_value("#spectator-delay") == "0"  # off unless the host says
    host.select_option("#game", "criminal_poker")
    host.select_option("#pace", "0.8")  # slow enough to watch
    host.fill("#turn", "0")
    host.fill("#talk", "0")
    host.fill("#spectator-delay", "3")
    host.locator(".settings").screenshot(path=str(artifacts() / "spectator-delay-form.png"))
    host.click("#create")
    host.wait_for_selector(".seats")
    room_id = host.url.split("/room/")[1].split("?")[0]
    info = httpx.get(f"{web_server.url}/api/rooms/{room_id}").json()
    assert info["settings"]["spectator_delay"] == 3
    assert host.input_value("#set-spectator-delay") == "3"  # the host's setup shows it
    host.click("#leave")  # the host watches: bots in every seat
    host.wait_for_selector("#leave", state="detached")
    fill_with_bots(host)
    watcher = person(browser, web_server.url, "Bea", PHONE, locale="ja-JP")
    watcher.goto(host.url)
    watcher.wait_for_selector(".seats")
    host.click("#start")
    note = host.locator("#spectator-behind")
    note.wait_for(timeout=30_000)
    assert note.inner_text() == EN["spectator_behind"].format(n=3)
    seen = watcher.locator("#spectator-behind")
    seen.wait_for(timeout=30_000)
    assert seen.inner_text() == JA["spectator_behind"].format(n=3)
    time.sleep(3)  # a few moves in: the table shown is behind the game
    host.screenshot(path=str(artifacts() / "spectator-delay-1280.png"))
    watcher.screenshot(path=str(artifacts() / "spectator-delay-390-ja.png"))
    # the end: the whole game at once, and no note any more
    host.wait_for_selector("#result", timeout=120_000)
    watcher.wait_for_selector("#result", timeout=30_000)
    assert note.count() == 0 and seen.count() == 0
    assert host.errors == [] and watcher.errors == []
