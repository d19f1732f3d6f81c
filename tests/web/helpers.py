"""Helpers for the browser tests: a person in a browser context of their own, rooms made
through the page, bots seated, actions clicked (tests/conftest.py has the fixtures)."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.paths import ROOT, WEB

CHROMIUM = os.environ.get("YAMEN_CHROMIUM") or shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium: apt-get install chromium (.ci/run does)"
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def person(browser, url, name, viewport=DESKTOP, locale="en-US"):
    """A new browser context (its own storage: its own guest) signed in as ``name``."""
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(url)
    page.fill("#name", name)
    page.click("button[type=submit]")
    page.wait_for_selector("#create")
    return page


def set_option(page, name, value, prefix="#opt-"):
    """One of a game's options in the form, whatever field its declaration gives it: a select
    (a choice, a seat), a switch (true or false) or a number."""
    field = page.locator(f"{prefix}{name}")
    kind = field.evaluate("el => el.tagName === 'SELECT' ? 'select' : el.type")
    if kind == "select":
        field.select_option("" if value is None else str(value))
    elif kind == "checkbox":
        field.set_checked(bool(value))
    else:
        field.fill("" if value is None else str(value))


def create_room(page, game, options=None, pace="0", turn="0"):
    page.select_option("#game", game)
    for name, value in (options or {}).items():
        set_option(page, name, value)
    page.select_option("#pace", pace)
    page.fill("#turn", turn)  # seconds per turn; 0: no timer
    page.fill("#talk", "0")
    page.click("#create")
    page.wait_for_selector(".seats")
    return page.url


def fill_with_bots(page, lang="en"):
    """The host fills every empty seat with bots in one click, and waits until they sit (no
    seat left with an add-bot button in the page's language)."""
    label = json.loads((WEB / "i18n" / f"{lang}.json").read_text())["add_bot"]
    adds = page.locator(f".seats button:text-is('{label}')")
    page.wait_for_selector("#fill-bots")
    page.click("#fill-bots")
    deadline = time.monotonic() + 60
    while adds.count():
        assert time.monotonic() < deadline, "the bots did not take their seats"
        time.sleep(0.01)


def start_game(page, game, options=None, lang="en", wait=None, **room):
    """The host's one way from the lobby to a game under way: a room made (``room``: its pace,
    turn), every empty seat given a bot, Start clicked, and, where ``wait`` names a selector,
    the table waited for. Returns the room's link, as create_room does."""
    link = create_room(page, game, options, **room)
    fill_with_bots(page, lang)
    page.click("#start")
    if wait:
        page.wait_for_selector(wait)
    return link


def act_once(page, unless: str | None = None) -> bool:
    """Click the first offered action, as a person would; False when none is offered, or when
    ``unless`` (a selector) is on the page: looked for in the same step as the click, so a table
    that has just reached what a test waits for is not moved on past it."""
    return page.evaluate(
        "unless => { if (unless && document.querySelector(unless)) return false;"
        " const b = document.querySelector('.actions button[data-action]');"
        " if (!b) return false; b.click(); return true; }",
        unless,
    )


def play_until(page, done, timeout=240.0, act=act_once):
    """Act (the first offered action) until ``done(page)`` is true."""
    deadline = time.monotonic() + timeout
    while not done(page):
        assert time.monotonic() < deadline, "the table never got there"
        if page.locator(".your-move").count():
            act(page)
        time.sleep(0.03)


def room_id(page) -> str:
    """The id of the room the page shows."""
    return re.search(r"#/room/([\w-]+)", page.url).group(1)


def play_pages(pages, timeout=240):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.locator("#result").count() for p in pages):
            return
        for page in pages:
            if page.locator(".your-move").count():
                act_once(page)
        time.sleep(0.05)
    raise AssertionError("the game did not end in time")


def artifacts() -> Path:
    """Where the browser tests leave what a person would look at (screenshots): $YAMEN_ARTIFACTS,
    else test-artifacts/ in the checkout (ignored by git); CI keeps it."""
    folder = Path(os.environ.get("YAMEN_ARTIFACTS") or ROOT / "test-artifacts") / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# Emoji (drawn as boxes where no emoji font is installed), except the signs in those blocks
# that every text font draws as text: the card suits, the star of a marked joker, a cross.
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u23f0-\u23ff]")
TEXT_SIGNS = set("♠♥♦♣★☆✗")


def emoji_in(text: str) -> set[str]:
    return {c for c in EMOJI.findall(text) if c not in TEXT_SIGNS}


# In a page: the lobby's answer at a path, asked with the page's own token (page.evaluate).
GET = (
    "async (path) => (await fetch(path, {headers: {authorization:"
    " 'Bearer ' + localStorage.getItem('yamen.token')}})).json()"
)
