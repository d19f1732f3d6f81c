"""Leaving a seat during a game: asked first, in the page's language, saying that a bot will
finish the game; the seat and the results keep the person's name."""

from __future__ import annotations

import json

from tests.paths import WEB
from tests.web.helpers import needs_chromium, person, start_game

pytestmark = needs_chromium


def test_leaving_mid_game_asks_first_and_keeps_the_name_on_the_results(web_server, browser):
    ja = json.loads((WEB / "i18n" / "ja.json").read_text())
    page = person(browser, web_server.url, "Kei", locale="ja-JP")
    start_game(page, "baohuang", {"deals": 1}, lang="ja", wait=".your-move")
    page.click("#leave")
    page.wait_for_selector("dialog.confirm[open]")
    assert page.inner_text("dialog.confirm p") == ja["leave_confirm"]
    assert page.inner_text("#confirm-yes") == ja["leave"]
    page.click("#confirm-no")  # stays: still seated, still to move
    assert page.locator("dialog.confirm").count() == 0
    assert page.locator("#leave").count() == 1 and page.locator(".your-move").count() == 1
    page.click("#leave")
    page.keyboard.press("Escape")  # Escape is a no as well
    assert page.locator("dialog.confirm").count() == 0 and page.locator("#leave").count() == 1
    page.click("#leave")
    page.click("#confirm-yes")
    page.wait_for_selector("#leave", state="detached")
    seat = page.locator(".seats li[data-seat='0'] .seat-name")
    assert seat.inner_text().startswith(ja["left_seat"].format(name="Kei"))
    page.wait_for_selector("#result", timeout=120_000)  # the stand-in finishes the deal
    assert "Kei" in page.inner_text("#result")
    page.reload()  # the server says it, not just this tab
    page.wait_for_selector("#result")
    assert "Kei" in page.inner_text("#result")
    assert not page.errors
