"""On a phone (390 x 844) the action bar stays on screen: with the page scrolled to the top,
the buttons of the person's turn (Play and Pass, or the trial's choices) are inside the
viewport, over the table, without scrolling."""

from __future__ import annotations

import time

import pytest

from tests.web.helpers import PHONE, act_once, needs_chromium, person, start_game

pytestmark = needs_chromium

# Every visible action button of the bar not tucked in a closed list: where it is on screen.
BOXES = """() => [...document.querySelectorAll('.actions button')]
  .filter((b) => b.offsetParent !== null && !b.closest('details:not([open])'))
  .slice(0, 6)
  .map((b) => { const r = b.getBoundingClientRect();
                return {text: b.textContent.trim(), top: r.top, bottom: r.bottom}; })"""


def in_view(page):
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(50)
    boxes = page.evaluate(BOXES)
    height = page.viewport_size["height"]
    assert boxes, "no action button on screen"
    outside = [b for b in boxes if b["top"] < 0 or b["bottom"] > height]
    assert not outside, f"off screen at the top of the page: {outside}"
    return boxes


def my_turn(page, ready, timeout=120):
    """Plays on (the first offered action) until the person's turn satisfies ``ready``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(".your-move").count() and ready(page):
            return
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    raise AssertionError("the person's turn did not come")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_baohuang_play_and_pass_stay_on_screen(web_server, browser, lang, tmp_path):
    page = person(
        browser, web_server.url, "Pia", viewport=PHONE, locale={"en": "en-US", "ja": "ja-JP"}[lang]
    )
    start_game(page, "baohuang", {"deals": 1}, lang=lang)
    # the play itself: the Play button is offered (after calling, declaring, …)
    my_turn(page, lambda p: p.locator("#play").count() > 0)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(tmp_path / f"baohuang-play-390-{lang}.png"))
    boxes = in_view(page)
    play = page.locator("#play").bounding_box()
    assert play["y"] >= 0 and play["y"] + play["height"] <= PHONE["height"]
    assert len(boxes) >= 1
    bar = page.locator(".actions").first
    assert bar.evaluate("el => getComputedStyle(el).position") == "sticky"
    # the table goes on below the bar: without the pin these buttons would be off screen
    assert page.evaluate("document.documentElement.scrollHeight") > PHONE["height"]
    assert not page.errors


def test_the_trial_choices_stay_on_screen(web_server, browser, tmp_path):
    page = person(browser, web_server.url, "Qin", viewport=PHONE)
    start_game(page, "bao_qingtian", {"players": 8})
    seen = 0
    deadline = time.monotonic() + 180
    while seen < 4 and not page.locator("#result").count():
        assert time.monotonic() < deadline, "the trial did not go on"
        if page.locator(".your-move").count():
            in_view(page)
            page.screenshot(path=str(tmp_path / f"bao_qingtian-390-{seen}.png"))
            seen += 1
            act_once(page) or page.locator(".actions button").first.click()
        time.sleep(0.05)
    assert seen
    assert not page.errors
