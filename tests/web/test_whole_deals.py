"""A whole game of each game in each of the four languages, played by a person in Chromium with
bots in the other seats, as a newcomer would: the table is photographed at 390 px and 1280 px on
the person's first decision and at the result (saved as test artifacts, tests/web/helpers.py
``artifacts``), and what the page shows is checked for what must never reach a player: a
JavaScript value's spelling (``undefined``, ``null``, ``NaN``, ``[object …]``), emoji (boxes
where no emoji font is installed), a page error."""

from __future__ import annotations

import re
import time

import pytest

from tests.conformance import defaults
from tests.web.helpers import (
    DESKTOP,
    PHONE,
    act_once,
    artifacts,
    emoji_in,
    needs_chromium,
    person,
    start_game,
)

pytestmark = needs_chromium

LOCALES = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "ja": "ja-JP"}
NAMES = {"en": "Robin", "zh-Hant": "小明", "zh-Hans": "小红", "ja": "花子"}
GAMES = [case.game for case in defaults()]  # every registered game (tests/conformance.py)

NEVER = re.compile(r"\b(undefined|null|NaN)\b|\[object ")


def shown_text(page) -> str:
    return page.evaluate("() => document.body.innerText")


def check_page(page, when: str) -> None:
    text = shown_text(page)
    assert not NEVER.search(text), f"{when}: the page shows {NEVER.search(text).group()!r}"
    assert not emoji_in(text), f"{when}: the page shows emoji {emoji_in(text)}"
    assert not page.errors, f"{when}: page errors {page.errors}"


def photograph(page, name: str) -> None:
    """The page at a phone's width and a desktop's, whatever it was played at: the phone's
    screen as a person sees it (the action bar pinned at its bottom), the desktop's whole page."""
    played = page.viewport_size
    for label, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)  # the layout settles (a media query's change)
        shot = artifacts() / f"{name}-{label}.png"
        page.screenshot(path=str(shot), full_page=size is DESKTOP)
    page.set_viewport_size(played)


def check_whole_game(url: str, browser, game: str, lang: str, viewport: dict) -> None:
    """The contract: a person plays a whole game (its defaults) with bots in the other seats,
    from the lobby to the result, and the page never shows what must not reach a player."""
    page = person(browser, url, NAMES[lang], viewport=viewport, locale=LOCALES[lang])
    assert page.evaluate("() => document.documentElement.lang") == lang
    start_game(page, game, lang=lang, wait="#table > *:not(.hint)")
    photographed = False
    deadline = time.monotonic() + 180
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.locator(".your-move").count():
            if not photographed:
                check_page(page, "the first decision")
                photograph(page, f"{game}-{lang}-turn")
                photographed = True
            act_once(page)
        time.sleep(0.05)
    page.wait_for_timeout(200)
    check_page(page, "the result")
    photograph(page, f"{game}-{lang}-result")
    assert photographed, "the person was never asked anything"
    page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_in_every_language(web_server, browser, game, lang):
    # half the games are played on a phone, half on a desktop; both are photographed
    viewport = PHONE if (GAMES.index(game) + list(LOCALES).index(lang)) % 2 else DESKTOP
    check_whole_game(web_server.url, browser, game, lang, viewport)


def test_a_game_registered_in_a_test_is_played_whole(web_server, browser, toy_game):
    """Registering a game is all the browser needs: the toy game (tests/toy_game.py), which
    has no table of its own, is drawn by the generic one (yamen/web/games/generic.js)."""
    check_whole_game(web_server.url, browser, toy_game, "en", PHONE)
