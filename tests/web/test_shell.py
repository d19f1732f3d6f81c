"""The browser client, driven in Debian's Chromium by Playwright: whole games through the page
for all three games, reloading mid-game, switching language, phone and desktop layouts."""

from __future__ import annotations

import time

import pytest

from tests.web.helpers import (
    DESKTOP,
    PHONE,
    act_once,
    create_room,
    fill_with_bots,
    needs_chromium,
    person,
    play_pages,
    start_game,
)

pytestmark = needs_chromium


def test_a_person_and_four_bots_play_a_baohuang_deal(web_server, browser):
    page = person(browser, web_server.url, "Ann")
    start_game(page, "baohuang", {"deals": 1}, wait=".baohuang")
    tried = saw_trick = False
    deadline = time.monotonic() + 240
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the deal did not end in time"
        saw_trick = saw_trick or bool(page.locator("#trick .card-row").count())
        if not tried and page.locator("#play").count() and page.locator(".your-move").count():
            # once: pick the lowest card; alone it is a legal set (play it) or it is explained
            tried = True
            page.locator(".card-button").last.focus()  # by keyboard: Space picks, Enter plays
            page.keyboard.press("Space")
            if page.locator("#play").is_enabled():
                page.locator(".card-button").last.focus()
                page.keyboard.press("Enter")
            else:
                assert page.locator("#why").inner_text()
                page.locator(".card-button").last.click()  # unpick
        elif page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    assert page.locator("#result li").count() == 5
    assert saw_trick  # the set to beat was shown on the table
    log = page.locator(".log li").evaluate_all("els => els.map(e => e.textContent)")
    assert any("plays" in line for line in log)
    assert not [line for line in log if "seat=" in line]  # every event told in words
    assert page.locator(".status").inner_text().startswith("over")
    assert not page.errors


def test_a_japanese_match_shows_tribute_and_the_scoring(web_server, browser):
    page = person(browser, web_server.url, "Jun")
    start_game(page, "baohuang", {"variant": "japanese", "deals": 2}, wait=".baohuang")
    saw_tribute = False
    deadline = time.monotonic() + 240
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        saw_tribute = saw_tribute or bool(page.locator("#tribute").count())
        if page.locator("#ready:enabled").count():  # the break between the deals
            page.click("#ready")
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    assert page.locator("#scoring tr").count() == 3  # a header and one row per deal
    first_deal = page.locator("#scoring tr").nth(1).locator("td").nth(2).inner_text()
    if first_deal != "0":  # a seat that won or lost deal 1 gives or takes tribute in deal 2
        assert saw_tribute
    assert not page.errors


def test_a_reload_mid_game_restores_the_table(web_server, browser):
    page = person(browser, web_server.url, "Bo")
    start_game(page, "baohuang", {"deals": 1}, wait=".your-move")
    hand = page.locator(".card-button").evaluate_all("bs => bs.map(b => b.dataset.card)")
    page.reload()
    page.wait_for_selector(".your-move")
    again = page.locator(".card-button").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert again == hand and len(hand) > 20


def test_switching_language_changes_the_page_and_is_remembered(web_server, browser):
    page = person(browser, web_server.url, "Cy")
    assert page.locator("#create").inner_text() == "Create room"
    page.select_option("#lang", "zh-Hant")
    page.wait_for_function("document.querySelector('#create').textContent === '建立房間'")
    page.reload()
    page.wait_for_selector("#create")
    assert page.locator("#create").inner_text() == "建立房間"
    page.select_option("#lang", "ja")
    page.wait_for_function("document.querySelector('#create').textContent === '部屋を作る'")


def test_the_browser_language_is_the_default(web_server, browser):
    page = person(browser, web_server.url, "Di", locale="zh-CN")
    assert page.locator("#create").inner_text() == "创建房间"


def test_three_people_play_criminal_poker_to_the_verdict(web_server, browser):
    host = person(browser, web_server.url, "Host")
    link = create_room(host, "criminal_poker", {"players": 4})
    guests = []
    for name in ("Eve", "Fay"):
        guest = person(browser, web_server.url, name)
        guest.goto(link)
        guest.wait_for_selector(".seats")
        guest.locator("text=Sit here").first.click()
        guest.wait_for_selector(".seats li.mine")
        guests.append(guest)
    fill_with_bots(host)
    host.click("#start")
    pages = [host, *guests]
    play_pages(pages)
    for page in pages:
        assert page.locator("#result").count() and not page.errors


def test_a_bao_qingtian_trial_with_several_people_reaches_its_sentence(web_server, browser):
    host = person(browser, web_server.url, "Judge")
    link = create_room(host, "bao_qingtian", {"players": 5})
    guest = person(browser, web_server.url, "Gus")
    guest.goto(link)
    guest.wait_for_selector(".seats")
    guest.locator("text=Sit here").first.click()
    guest.wait_for_selector(".seats li.mine")
    fill_with_bots(host)
    host.click("#start")
    play_pages([host, guest])
    assert host.locator("#result").count()


@pytest.mark.parametrize("game", ["baohuang", "criminal_poker", "bao_qingtian"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_each_table_fits_phone_and_desktop_widths(web_server, browser, game, size, tmp_path):
    page = person(browser, web_server.url, "Hal", viewport=size)
    start_game(page, game, pace="2", wait="#table > *")
    page.wait_for_timeout(200)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    shot = tmp_path / f"{game}-{size['width']}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert overflow <= 0, f"{game} is {overflow}px wider than a {size['width']}px screen"
    assert shot.stat().st_size > 10_000
