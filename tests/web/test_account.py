"""Accounts in the browser: a guest claims an account from the name in the header, then signs in
on a second browser context and is the same player there (with the room they host); a wrong
password is said in the page's words; signing out forgets the token on that browser only, the
header names nobody then and the welcome step says "signed out"."""

from __future__ import annotations

import json

from tests.paths import WEB
from tests.web.helpers import DESKTOP, PHONE, artifacts, create_room, person

PASSWORD = "correct horse"


def words(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def me(page) -> dict:
    return page.evaluate(
        "async () => (await fetch('/api/me', {headers: {authorization:"
        " 'Bearer ' + localStorage.getItem('yamen.token')}})).json()"
    )


def sign_in(page, name: str, password: str) -> None:
    page.fill("#sign-in-name", name)
    page.fill("#sign-in-password", password)
    page.click("#sign-in button[type=submit]")


def test_claim_then_sign_in_on_a_second_browser(web_server, browser):
    en = words("en")
    first = person(browser, web_server.url, "Ann")
    room = create_room(first, "baohuang")
    first.click("#who-link")
    first.wait_for_selector("#claim")
    for viewport, label in ((PHONE, "390"), (DESKTOP, "1280")):
        first.set_viewport_size(viewport)
        first.screenshot(path=str(artifacts() / f"account-claim-{label}.png"), full_page=True)
    first.fill("#claim-name", "Ann.Lee")
    first.fill("#claim-password", PASSWORD)
    first.click("#claim button[type=submit]")
    first.wait_for_selector("#account")
    assert en["account.signed_in_as"].format(account="Ann.Lee") in first.inner_text("#account")
    first.screenshot(path=str(artifacts() / "account-signed-in-1280.png"))
    ann = me(first)
    assert ann["account"] == "Ann.Lee"

    second = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    second.errors = []
    second.on("pageerror", lambda exc: second.errors.append(str(exc)))
    second.goto(web_server.url)
    second.click("#have-account")
    sign_in(second, "ann.lee", "wrong password")
    second.wait_for_selector("#banner:not([hidden])")
    assert second.inner_text("#banner") == en["error.bad_credentials"]
    sign_in(second, "ann.lee", PASSWORD)
    second.wait_for_selector("#create")
    assert second.inner_text("#who-link") == "Ann"
    assert me(second) == ann  # the same player, so the same games and rooms
    second.goto(room)
    second.wait_for_selector(".seats")
    second.wait_for_selector("#fill-bots")  # the host's controls: the room is still theirs

    second.click("#who-link")
    second.click("#sign-out")
    second.wait_for_selector("#name")  # the welcome step: this browser has no identity now
    # the header names nobody now, and the step says why it is back
    assert second.inner_text("#who") == ""
    assert second.inner_text("#signed-out") == en["account.signed_out"]
    second.screenshot(path=str(artifacts() / "signed-out-390.png"))
    second.wait_for_timeout(300)  # (the lobby, had it been routed to, would be drawn by now)
    assert second.locator("#name").count() == 1 and second.locator("#create").count() == 0
    first.reload()
    first.wait_for_selector("#who-link")
    assert me(first)["player"] == ann["player"]  # the other browser is still signed in
    assert first.errors == [] and second.errors == []


def test_the_account_page_speaks_the_players_language(web_server, browser):
    for locale, lang in (("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hans"), ("ja-JP", "ja")):
        page = person(browser, web_server.url, "Bo", locale=locale)
        page.click("#who-link")
        page.wait_for_selector("#claim")
        text = page.inner_text("#main")
        for key in ("account.claim", "account.password", "account.sign_in"):
            assert words(lang)[key] in text
        page.fill("#claim-name", "Bo" + lang)
        page.fill("#claim-password", "short")  # the browser asks for 8: bypass it
        page.evaluate("document.getElementById('claim-password').removeAttribute('minlength')")
        page.click("#claim button[type=submit]")
        page.wait_for_selector("#banner:not([hidden])")
        assert page.inner_text("#banner") == words(lang)["error.bad_password"].format(
            min=8, max=256
        )
        page.context.close()


def test_change_the_password_then_delete_the_account(web_server, browser):
    en = words("en")
    page = person(browser, web_server.url, "Cy")
    page.click("#who-link")
    page.fill("#claim-name", "Cy")
    page.fill("#claim-password", PASSWORD)
    page.click("#claim button[type=submit]")
    page.wait_for_selector("#change-password")
    page.fill("#old-password", "not the password")
    page.fill("#new-password", "a new password")
    page.click("#change-password button[type=submit]")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner") == en["error.bad_credentials"]
    page.fill("#old-password", PASSWORD)
    page.click("#change-password button[type=submit]")
    page.wait_for_selector("#password-changed:not(:empty)")
    assert page.inner_text("#password-changed") == en["account.password_changed"]
    page.screenshot(path=str(artifacts() / "account-page-1280.png"), full_page=True)

    page.fill("#delete-password", "a new password")
    page.click("#delete-account button[type=submit]")
    page.click("#confirm-yes")
    page.wait_for_selector("#name")  # the welcome step: the account and its sessions are gone
    assert page.inner_text("#who") == ""
    assert page.inner_text("#signed-out") == en["account.deleted"]
    page.click("#have-account")
    sign_in(page, "Cy", "a new password")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.inner_text("#banner") == en["error.bad_credentials"]
    assert page.errors == []
