"""The Baohuang table's layout in a real browser, at 390 px and 1280 px: the other four seats
around the trick (left, across, right), yours and your hand below, the action bar on screen
without scrolling; the last deal's summary between deals; the headline at the end. Screenshots
go to $YAMEN_ARTIFACTS when set (else a pytest temporary folder)."""

from __future__ import annotations

import re
import time

import pytest

from tests.web import helpers
from tests.web.baohuang_table import BH, seated_room
from tests.web.helpers import DESKTOP, PHONE, act_once, needs_chromium

pytestmark = needs_chromium


@pytest.fixture
def artifacts():
    return helpers.artifacts()


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def check_layout(page, height):
    """The seats sit around the middle; the action bar is on screen, even at the top."""
    mid = box(page, ".bh-middle")
    left, right = box(page, ".bh-seat.at-left"), box(page, ".bh-seat.at-right")
    across = [box(page, ".bh-seat.at-across-left"), box(page, ".bh-seat.at-across-right")]
    mine = box(page, ".bh-seat.at-bottom")
    assert left["x"] + left["width"] <= mid["x"] + 1
    assert right["x"] >= mid["x"] + mid["width"] - 1
    assert all(a["y"] + a["height"] <= mid["y"] + 1 for a in across)
    assert across[0]["x"] < across[1]["x"]
    assert mine["y"] >= mid["y"] + mid["height"] - 1
    assert box(page, "#bh-hand")["y"] >= mine["y"] + mine["height"] - 1
    for scroll in (0, 400):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        bar = page.locator(".actions").first.bounding_box()  # relative to the viewport
        assert bar["y"] >= 0 and bar["y"] + bar["height"] <= height + 1, (
            f"actions off screen: {bar}"
        )
    page.evaluate("window.scrollTo(0, 0)")


def no_raw_text(page):
    text = page.locator(".baohuang").inner_text()
    assert "{" not in text and "null" not in text and "undefined" not in text
    assert not re.search(r"\b(BJ|SJ)\b|\bT[♠♥♦♣]", text)


def play_through(page, artifacts, tag, height, lang):
    """Play to the end, checking the layout once at the person's first play and the summary
    between deals the moment the next deal begins; returns whether a summary was seen."""
    words = BH[lang]
    laid_out = summary = False
    deadline = time.monotonic() + 300
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if not laid_out and page.locator("#play").count() and page.locator(".your-move").count():
            check_layout(page, height)
            page.screenshot(path=str(artifacts / f"baohuang-{tag}-play.png"), full_page=True)
            laid_out = True
        if not summary and page.locator("#bh-last-deal").count():
            # the next deal waits for the person (the grab window asks everyone): nothing played
            last = page.locator("#bh-last-deal")
            assert last.get_attribute("open") is not None, "the summary is folded at the start"
            places = last.locator(".bh-places li .place").all_inner_texts()
            assert places == [words[f"baohuang.place.{i}"] for i in range(1, 6)]
            worked = last.locator(".bh-worked li").all_inner_texts()
            assert worked and all(re.search(r"\d", line) for line in worked)
            page.screenshot(path=str(artifacts / f"baohuang-{tag}-between.png"), full_page=True)
            no_raw_text(page)
            summary = True
        if summary and page.locator("#ready:enabled").count():  # the break between the deals
            page.click("#ready")
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.03)
    return laid_out, summary


def check_end(page, lang):
    words = BH[lang]
    verdict = page.locator("#result .bh-verdict").inner_text()
    assert verdict in {words[f"baohuang.end.{k}"] for k in ("won", "lost", "even")}
    assert page.locator("#bh-side").inner_text()
    assert page.locator("#result li").count() == 5
    assert page.locator("#bh-breakdown .bh-worked li").count() >= 1
    assert "{" not in page.locator("#result").inner_text()
    no_raw_text(page)


def test_a_two_deal_match_on_a_phone(web_server, browser, artifacts):
    page, _ = seated_room(browser, web_server, "Pho", {"deals": 2}, viewport=PHONE)
    laid_out, summary = play_through(page, artifacts, "390", PHONE["height"], "en")
    assert laid_out and summary
    check_end(page, "en")
    page.screenshot(path=str(artifacts / "baohuang-390-end.png"), full_page=True)
    assert not page.errors


def test_a_japanese_deal_on_a_desktop(web_server, browser, artifacts):
    page, _ = seated_room(
        browser, web_server, "Aki", {"deals": 1, "variant": "japanese"}, lang="ja", viewport=DESKTOP
    )
    laid_out, _ = play_through(page, artifacts, "1280-ja", DESKTOP["height"], "ja")
    assert laid_out
    check_end(page, "ja")
    page.screenshot(path=str(artifacts / "baohuang-1280-ja-end.png"), full_page=True)
    assert not page.errors
