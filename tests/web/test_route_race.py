"""A screen still loading never draws over the one asked for after it (routes.js, shell.routed):
the lobby waiting for its rooms once drew itself over the account page a person had opened
meanwhile (test_form_checks failed on it now and then)."""

from __future__ import annotations

import time

from tests.web.helpers import DESKTOP, needs_chromium

pytestmark = needs_chromium


def test_the_lobby_loading_does_not_draw_over_the_account_page(web_server, browser):
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    held = []
    # the lobby's list of rooms waits for the test
    page.route("**/api/rooms", lambda route: held.append(route))
    page.goto(web_server.url)
    page.fill("#name", "Kei")
    page.click("button[type=submit]")
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the lobby never asked for its rooms"
    page.click("#who-link")  # the account page, while the lobby waits
    page.wait_for_selector("#claim-name")
    held[0].continue_()
    page.wait_for_timeout(3000)  # time for the lobby to draw, were it to
    assert page.locator("#claim-name").count() == 1
    assert page.locator("#create").count() == 0  # the lobby's form never came
    assert page.url.endswith("#/account")
    assert errors == []
