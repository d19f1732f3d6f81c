"""The log is the room's: a reload shows the game's whole log again (its latest lines at once,
the earlier ones a page at a time); a turn that ran out says what the stand-in played; the
break between two deals shows its countdown and a Ready button. Screenshots go where
helpers.artifacts() says (history-*.png)."""

from __future__ import annotations

import json
import time

from tests.web.helpers import PHONE, WEB, act_once, artifacts, fill_with_bots, person, start_game
from yamen.server import history


def log_lines(page) -> list[str]:
    return page.locator(".log li").evaluate_all("els => els.map(e => e.textContent)")


def test_a_reload_restores_the_log_and_a_timeout_is_told(web_server, browser):
    page = person(browser, web_server.url, "Ann")
    start_game(page, "baohuang", {"deals": 1}, turn="2")
    # Ann never acts: when her turn comes, the timer runs out and the stand-in plays for her
    # told by the action bar, where Ann looks, not in the banner at the top (notice.js)
    page.wait_for_selector("#table #stand-in-notice:has-text('Time ran out')", timeout=90_000)
    notice = page.locator("#stand-in-notice").inner_text()
    assert "the stand-in played for you (" in notice and "()" not in notice, notice
    before = log_lines(page)
    assert any(line.startswith("(stand-in for Ann)") for line in before)
    assert len(before) >= 3  # the deal, the hand, what the stand-in did at least
    page.locator(".log summary").click()
    page.screenshot(path=str(artifacts() / "history-timeout-1280.png"), full_page=True)
    page.reload()
    page.wait_for_selector(".log li", state="attached")
    deadline = time.monotonic() + 20
    while len(after := log_lines(page)) < len(before):
        assert time.monotonic() < deadline, "the log did not come back"
        time.sleep(0.05)
    assert after[: len(before)] == before  # the whole log, as it was, and what came since
    assert not page.errors


def test_the_break_between_deals_counts_down_and_ends_when_ready(web_server, browser):
    page = person(browser, web_server.url, "Bea", viewport=PHONE)
    start_game(page, "baohuang", {"deals": 2})
    deadline = time.monotonic() + 180
    while not page.locator("#ready").count():
        assert time.monotonic() < deadline, "the first deal did not end in time"
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    bar = page.locator(".break-bar")
    assert bar.locator(".break-left").inner_text().startswith("Next deal in ")
    seconds = int(bar.locator(".break-left").inner_text().split()[-1].rstrip("s"))
    assert 0 < seconds <= 30  # the room's default break
    page.screenshot(path=str(artifacts() / "history-break-390.png"), full_page=True)
    assert not page.locator(".your-move").count()  # nobody is asked anything meanwhile
    # the totals after deal 1 are that deal's scores, as its summary gives them (a deal may
    # score 0 for every seat: the emperor out first and the partner last)
    scores = page.locator(".seats .score").all_inner_texts()
    dealt = page.eval_on_selector_all(
        ".bh-places li[data-seat]",
        "els => els.map(e => [Number(e.dataset.seat), e.querySelector('.pts').textContent])",
    )
    sign = {ord("−"): "-", ord("+"): None}
    assert len(scores) == 5 and len(dealt) == 5
    assert all(scores[seat] == pts.translate(sign) for seat, pts in dealt), (scores, dealt)
    page.click("#ready")  # the only person at the table: the next deal starts
    page.wait_for_selector(".break-bar", state="detached", timeout=10_000)
    assert not page.errors


def test_coming_back_says_what_the_stand_in_played_while_you_were_away(web_server, browser):
    page = person(browser, web_server.url, "Bo")
    # a room whose stand-in takes a gone player's seat at once, and no turn timer
    room = page.evaluate(
        """() => import('/net.js').then((net) => net.api('POST', '/api/rooms', {
            game: 'baohuang', options: {deals: 1}, seat: 0,
            settings: {turn_seconds: null, away_seconds: 0, bot_delay: 0, deal_pause: 0}}))"""
    )
    link = f"{web_server.url}/#/room/{room['id']}?invite={room['invite']}"
    page.goto(link)
    page.wait_for_selector(".seats")
    fill_with_bots(page)
    page.click("#start")
    page.wait_for_selector(".your-move", timeout=60_000)
    page.goto("about:blank")  # Bo is gone while it is Bo's turn: the stand-in plays for Bo
    time.sleep(3)
    page.goto(link)
    page.wait_for_selector("#stand-in-notice:has-text('While you were away')", timeout=30_000)
    notice = page.locator("#stand-in-notice").inner_text()
    assert "the stand-in played for you (" in notice and "()" not in notice, notice
    assert any(line.startswith("(stand-in for Bo)") for line in log_lines(page))
    assert not page.errors


def test_the_log_pages_back_to_the_deal_after_a_reload(web_server, browser, monkeypatch):
    """A state frame carries the latest few lines (TAIL, small here); the button at the top of
    the log (and scrolling up to it) brings the earlier ones a page at a time, until the log
    is the one the page had heard from the deal on."""
    monkeypatch.setattr(history, "TAIL", 5)
    monkeypatch.setattr(history, "PAGE", 7)
    page = person(browser, web_server.url, "Cy")
    room = page.evaluate(
        """() => import('/net.js').then((net) => net.api('POST', '/api/rooms', {
            game: 'baohuang', options: {deals: 1},
            settings: {turn_seconds: null, bot_delay: 0, deal_pause: 0}}))"""
    )
    page.goto(f"{web_server.url}/#/room/{room['id']}")
    page.wait_for_selector(".seats")
    fill_with_bots(page)
    page.click("#start")  # Cy watches five bots play one deal from its first step
    over = json.loads((WEB / "i18n" / "en.json").read_text())["status.over"]
    page.wait_for_selector(f".room-head .status:has-text('{over}')", timeout=60_000)
    heard = log_lines(page)  # (the room frame saying so came after the last update)
    assert len(heard) > 5 + 3 * 7  # (several pages back)
    page.reload()
    page.wait_for_selector(".log li", state="attached")
    assert len(log_lines(page)) < len(heard)  # the latest lines only, for now
    page.locator(".log summary").click()
    clicks, deadline = 0, time.monotonic() + 30
    while page.locator("#log-earlier").count():
        assert time.monotonic() < deadline, "the log did not page back to its start"
        if page.locator("#log-earlier:not([disabled])").count():
            page.click("#log-earlier")
            clicks += 1
        time.sleep(0.05)
    assert log_lines(page) == heard and clicks >= 3
    assert page.locator(".log[open]").count()  # the log stayed open as its pages came
    page.screenshot(path=str(artifacts() / "history-paged-1280.png"), full_page=True)
    assert not page.errors
