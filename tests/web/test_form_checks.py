"""A form's own checks (a field left empty, a password too short) are said in the language the
page was switched to, not the browser's (issue 26): the bubble shows the field's
validationMessage, which the page sets from the catalogs, in every form that has such checks
(the name step, sign-in, the claim, a new password, deleting the account), and a field typed in
again is checked afresh."""

from __future__ import annotations

import json

from tests.paths import WEB
from tests.web.helpers import DESKTOP, needs_chromium

pytestmark = needs_chromium

WORDS = {
    lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text()) for lang in ("ja", "zh-Hans")
}
PASSWORD = "correct horse"


def message(page, selector: str) -> str:
    return page.eval_on_selector(selector, "el => el.validationMessage")


def submit(page, form: str) -> None:
    page.click(f"{form} button[type=submit]")


def test_every_forms_checks_speak_the_chosen_language(web_server, browser):
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()  # an English browser
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    page.select_option("#lang", "ja")
    ja = WORDS["ja"]
    page.wait_for_function(
        "t => document.querySelector('form h1').textContent === t", arg=ja["welcome"]
    )

    # the name step: nothing typed, nothing sent, said in Japanese
    page.click("form button[type=submit]")
    assert message(page, "#name") == ja["invalid.required"]
    assert page.locator("#name").count() == 1
    page.fill("#name", "Kei")
    assert message(page, "#name") == ""  # typing clears it: the browser checks afresh

    # signing in from the welcome step: each empty field, then a password too short
    page.click("#have-account")
    submit(page, "#sign-in")
    assert message(page, "#sign-in-name") == ja["invalid.required"]
    page.fill("#sign-in-name", "kei")
    page.fill("#sign-in-password", "short")
    submit(page, "#sign-in")
    assert message(page, "#sign-in-password") == ja["invalid.too_short"].format(n=8, now=5)

    # switched again: the next check speaks the new language
    page.select_option("#lang", "zh-Hans")
    hans = WORDS["zh-Hans"]
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    if not page.locator("#sign-in").count():  # (the welcome step drawn again)
        page.click("#have-account")
    page.fill("#sign-in-name", "kei")
    submit(page, "#sign-in")
    assert message(page, "#sign-in-name") == ""
    assert message(page, "#sign-in-password") == hans["invalid.required"]

    # a guest's account page: the claim and the sign-in forms
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    page.fill("#name", "Kei")
    page.click("form button[type=submit]")
    page.wait_for_selector("#who-link")
    page.click("#who-link")
    page.wait_for_selector("#claim")
    submit(page, "#claim")
    assert message(page, "#claim-name") == hans["invalid.required"]
    page.fill("#claim-name", "Kei.Sato")
    page.fill("#claim-password", "1234567")
    submit(page, "#claim")
    assert message(page, "#claim-password") == hans["invalid.too_short"].format(n=8, now=7)
    submit(page, "#sign-in")
    assert message(page, "#sign-in-name") == hans["invalid.required"]

    # claimed: a new password and deleting the account check their fields too
    page.fill("#claim-password", PASSWORD)
    submit(page, "#claim")
    page.wait_for_selector("#account")
    submit(page, "#change-password")
    assert message(page, "#old-password") == hans["invalid.required"]
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "abc")
    submit(page, "#change-password")
    assert message(page, "#new-password") == hans["invalid.too_short"].format(n=8, now=3)
    submit(page, "#delete-account")
    assert message(page, "#delete-password") == hans["invalid.required"]
    assert page.locator("#account").count() == 1  # nothing was sent: still signed in
    assert not errors
