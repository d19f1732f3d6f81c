"""Changing the language redraws the screen on show, in the new words, and nothing else: the
welcome step stays the welcome step (a visitor who switches before choosing a name still gets
an identity), and what was typed in a form is still there."""

from __future__ import annotations

import json

from tests.paths import WEB
from tests.web.helpers import DESKTOP, create_room, needs_chromium, person

pytestmark = needs_chromium


def words(lang):
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text())


def test_switching_language_before_the_name_keeps_the_welcome_step(web_server, browser):
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(web_server.url)
    page.fill("#name", "美玲")
    zh = words("zh-Hant")
    page.select_option("#lang", "zh-Hant")
    page.wait_for_function(f"document.querySelector('main h1').textContent === {zh['welcome']!r}")
    assert page.input_value("#name") == "美玲"
    assert page.locator("#create").count() == 0  # still the name step, not the lobby
    assert page.inner_text("button[type=submit]") == zh["enter"]
    page.select_option("#lang", "ja")
    page.wait_for_function(
        f"document.querySelector('main h1').textContent === {words('ja')['welcome']!r}"
    )
    assert page.input_value("#name") == "美玲"
    page.select_option("#lang", "zh-Hant")
    page.wait_for_function(f"document.querySelector('main h1').textContent === {zh['welcome']!r}")
    page.click("button[type=submit]")
    page.wait_for_selector("#create")
    assert page.inner_text("#who") == "美玲"
    assert page.inner_text("#create") == zh["create_room"]
    create_room(page, "baohuang")
    assert "#/room/" in page.url
    assert page.inner_text(".room-head .status") == zh["status.open"]
    assert page.locator(".seats li.mine .seat-name").inner_text() == "美玲"
    assert page.locator("#banner").is_hidden()
    assert not errors


def test_switching_language_keeps_a_half_filled_room_form(web_server, browser):
    page = person(browser, web_server.url, "Ines")
    page.select_option("#game", "criminal_poker")
    page.fill("#opt-players", "6")
    page.check("#opt-mastermind")
    page.uncheck("#public")
    page.fill("#turn", "45")
    page.select_option("#pace", "2")
    page.focus("#turn")
    page.select_option("#lang", "ja")
    page.wait_for_function(
        f"document.querySelector('#create').textContent === {words('ja')['create_room']!r}"
    )
    assert page.input_value("#game") == "criminal_poker"
    assert page.input_value("#opt-players") == "6"
    assert page.is_checked("#opt-mastermind")
    assert not page.is_checked("#public")
    assert page.input_value("#turn") == "45"
    assert page.input_value("#pace") == "2"
    assert page.inner_text("#pace option:checked") == words("ja")["pace_slow"]
    page.click("#create")
    page.wait_for_selector(".seats")
    assert page.locator(".seats li").count() == 6
    assert not page.errors


def test_a_lost_identity_leads_back_to_the_name_step(web_server, browser):
    page = person(browser, web_server.url, "Jun")
    page.evaluate("localStorage.setItem('yamen.token', 'forgotten')")
    page.click("#create")
    page.wait_for_selector("#name")
    assert page.inner_text("#banner") == words("en")["error.bad_token"]
    page.fill("#name", "Jun")
    page.click("button[type=submit]")
    page.wait_for_selector("#create")
    create_room(page, "baohuang")
    page.wait_for_selector(".seats li.mine")  # the seats may show a moment before which is mine
    assert page.locator(".seats li.mine").count() == 1
