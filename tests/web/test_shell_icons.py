"""Icons are inline SVG, not emoji (emoji render as empty boxes where no emoji font is
installed): during a whole game of each game, the page's visible text holds no emoji code
point, and the shell's icons carry words for screen readers."""

from __future__ import annotations

import time

import pytest

from tests.web.helpers import (
    act_once,
    create_room,
    emoji_in,
    fill_with_bots,
    needs_chromium,
    person,
)

pytestmark = needs_chromium


def emoji_on(page):
    return emoji_in(page.evaluate("document.body.innerText"))


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("baohuang", {"deals": 1}),
        ("criminal_poker", {"players": 4}),
        ("bao_qingtian", {"players": 5}),
    ],
)
def test_no_emoji_on_the_page_during_a_game(web_server, browser, game, options):
    page = person(browser, web_server.url, "Ico")
    create_room(page, game, options)
    fill_with_bots(page)
    assert page.locator(".seats .icon-bot svg[aria-hidden=true]").count() >= 2
    # the icon is drawn beside the bot's name in words ("Bot 1"): it adds nothing to be read
    assert "Bot 1" in page.locator(".seats").inner_text()
    assert page.locator("#rules svg").count() == 1 and page.locator("#sound svg").count() == 1
    page.click("#start")
    found = set()
    looks = 0
    deadline = time.monotonic() + 240
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.locator(".your-move").count():
            found |= emoji_on(page)
            looks += 1
            act_once(page)
        time.sleep(0.05)
    found |= emoji_on(page)
    page.locator("details").evaluate_all("ds => ds.forEach((d) => { d.open = true; })")
    found |= emoji_on(page)
    assert looks
    assert not found, f"emoji on the page: {sorted(found)}"
    assert not page.errors
