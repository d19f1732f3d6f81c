"""A room on a phone (issue 26): the chat sits below the table, so lines from others heard while
it is out of sight are counted on the room head's chat button, which goes to it; the count
goes once the chat is read (by the button or by scrolling to it), and my own lines never count.
A quick phrase is one tap, and each reader reads it in their own language. In the Bao Qing-tian
seat strip my own name stays readable while my timer shows beside it."""

from __future__ import annotations

import json

from tests.paths import WEB
from tests.web.helpers import (
    DESKTOP,
    PHONE,
    artifacts,
    create_room,
    fill_with_bots,
    needs_chromium,
    person,
    start_game,
)

pytestmark = needs_chromium

BH = json.loads((WEB / "i18n" / "games" / "baohuang.json").read_text())
JA = json.loads((WEB / "i18n" / "ja.json").read_text())
SHORT_PHONE = {"width": 390, "height": 664}  # a phone with its browser bars: the chat below

CHAT_IN_SIGHT = """() => {
  const last = document.querySelector('.side .chat li:last-child')
    || document.querySelector('.side .chat');
  const box = last.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= innerHeight;
}"""


def chat_lines(page) -> list[str]:
    return page.eval_on_selector_all(".side .chat li", "els => els.map(e => e.textContent.trim())")


def unread(page) -> str | None:
    badge = page.locator("#chat-unread")
    return badge.inner_text() if badge.count() else None


def wait_lines(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('.side .chat li').length >= n", arg=n)


def test_a_quick_phrase_is_read_in_each_language_and_unread_lines_are_counted(web_server, browser):
    host = person(browser, web_server.url, "阿明", viewport=DESKTOP, locale="zh-TW")
    link = create_room(host, "baohuang", pace="2")  # slow bots: the game stays at its start
    guest = person(browser, web_server.url, "Kei", viewport=SHORT_PHONE, locale="ja-JP")
    guest.goto(link)
    guest.click(".seats li[data-seat='1'] button")  # 「ここに座る」
    host.wait_for_selector(".seats li[data-seat='1'] .player-link")
    fill_with_bots(host, "zh-Hant")
    host.click("#start")
    guest.wait_for_selector(".room.at-play")
    guest.evaluate("window.scrollTo(0, 0)")
    assert not guest.evaluate(CHAT_IN_SIGHT), "the chat should be below the table on a phone"
    assert unread(guest) is None

    # one tap: the phrase in the sender's words, read in each reader's own
    phrases = host.eval_on_selector_all(
        "#quick-phrases button", "els => els.map(e => e.dataset.quick)"
    )
    assert phrases == [f"baohuang.quick.{n}" for n in range(1, 7)]
    assert host.inner_text("[data-quick='baohuang.quick.2']") == BH["zh-Hant"]["baohuang.quick.2"]
    host.click("[data-quick='baohuang.quick.1']")
    wait_lines(guest, 1)
    assert chat_lines(guest)[-1] == f"阿明 {BH['ja']['baohuang.quick.1']}"
    wait_lines(host, 1)
    assert chat_lines(host)[-1] == f"阿明 {BH['zh-Hant']['baohuang.quick.1']}"
    assert guest.locator(".side .chat li.quick-line").count() == 1

    # out of sight: counted on the head's chat button, which is on screen
    guest.wait_for_selector("#chat-unread")
    assert unread(guest) == "1"
    host.click("[data-quick='baohuang.quick.3']")
    guest.wait_for_function("() => document.querySelector('#chat-unread')?.textContent === '2'")
    button = guest.locator("#chat-jump").bounding_box()
    assert button and button["x"] >= 0 and button["x"] + button["width"] <= PHONE["width"]
    assert button["y"] >= 0 and button["y"] + button["height"] <= SHORT_PHONE["height"]
    assert guest.get_attribute("#chat-jump", "title") == JA["chat_unread"].format(n=2)
    guest.screenshot(path=str(artifacts() / "chat-unread-ja-390.png"))

    # the button goes to the chat: read, the count gone
    guest.click("#chat-jump")
    assert guest.evaluate(CHAT_IN_SIGHT)
    assert unread(guest) is None
    assert chat_lines(guest)[-1] == f"阿明 {BH['ja']['baohuang.quick.3']}"
    guest.screenshot(path=str(artifacts() / "chat-read-ja-390.png"))
    # in sight, a new line is read as it comes
    host.fill("#chat-text", "加油")
    host.press("#chat-text", "Enter")
    wait_lines(guest, 3)
    assert unread(guest) is None

    # my own line never counts, even out of sight
    guest.fill("#chat-text", "よろしく")
    guest.press("#chat-text", "Enter")
    guest.evaluate("window.scrollTo(0, 0)")
    wait_lines(guest, 4)
    assert unread(guest) is None
    # scrolled to by hand: read as well
    host.click("[data-quick='baohuang.quick.4']")
    guest.wait_for_selector("#chat-unread")
    guest.locator(".side .chat").scroll_into_view_if_needed()
    guest.wait_for_selector("#chat-unread", state="detached")
    host.screenshot(path=str(artifacts() / "chat-quick-zh-Hant-1280.png"))
    assert not host.errors and not guest.errors


def test_my_name_stays_readable_beside_my_timer_in_the_trial_seat_strip(web_server, browser):
    name = "たかはしさくら"
    page = person(browser, web_server.url, name, viewport=PHONE, locale="ja-JP")
    start_game(page, "bao_qingtian", {"players": 12}, lang="ja", turn="120", pace="0")
    mine = page.locator(".bq-seats li.mine")
    mine.locator(".timer").wait_for(timeout=60_000)
    shown = mine.locator(".bq-name")
    assert shown.inner_text() == name
    # not cut: the whole name fits its box, and the timer sits in the seat's box too
    cut = shown.evaluate("el => el.scrollWidth - el.clientWidth")
    assert cut <= 0, f"the name is cut by {cut}px"
    inside = mine.evaluate(
        "li => { const b = li.getBoundingClientRect();"
        " return [...li.children].every(c => { const r = c.getBoundingClientRect();"
        " return r.left >= b.left - 1 && r.right <= b.right + 1; }); }"
    )
    assert inside
    mine.screenshot(path=str(artifacts() / "bqt-own-seat-ja-390.png"))
    page.screenshot(path=str(artifacts() / "bqt-seat-strip-ja-390.png"))
    assert not page.errors
