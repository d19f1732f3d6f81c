"""A whole Criminal Poker game with bots, in the page's language, on a phone (390 px) and a
desktop (1280 px): the seat's identity and its win condition on top from the first moment, who
is known to be who, a help line for each kind of action, and at the end this seat's headline
and side, in words, never JSON; evidence read out by name; screenshots saved as artifacts."""

from __future__ import annotations

import json
import time

import pytest

from tests.paths import WEB
from tests.web.helpers import DESKTOP, PHONE, act_once, needs_chromium, person, start_game
from tests.web.table_checks import CP_CODES, result_is_words, screenshot, shown

pytestmark = needs_chromium

CP = json.loads((WEB / "i18n" / "games" / "criminal_poker.json").read_text())
INVESTIGATORS = {"sheriff", "detective"}
LOCALES = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "ja": "ja-JP"}


@pytest.mark.parametrize(
    ("lang", "mode", "size", "viewport"),
    [
        ("zh-Hans", "sheriff", "390", PHONE),
        ("ja", "detective", "390", PHONE),
        ("en", "sheriff", "1280", DESKTOP),
    ],
)
def test_a_game_tells_the_seat_its_identity_and_its_outcome(
    web_server, browser, lang, mode, size, viewport
):
    words = CP[lang]
    page = person(browser, web_server.url, "Mei", viewport=viewport, locale=LOCALES[lang])
    start_game(page, "criminal_poker", {"players": 4, "mode": mode}, lang=lang, wait="#role")

    # the role panel: identity, its goal in one line (the catalog's, in this language), who
    identity = page.locator("#role").get_attribute("class").split("cp-role-")[-1].split()[0]
    title = page.locator("#role-title").inner_text()
    assert title.startswith(
        words["criminal_poker.you_are"].format(role=words[f"criminal_poker.role.{identity}"])
    )
    assert page.locator("#role-goal").inner_text() == words[f"criminal_poker.goal.{identity}"]
    who = page.locator("#role-who").inner_text()
    assert words["criminal_poker.secret"].split("{")[0] in who

    seen: set[str] = set()
    helps: set[str] = set()
    deadline = time.monotonic() + 120
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        assert page.locator("#role-goal").count(), "the role panel went away"
        seen.update(shown(page, ".criminal-poker"))
        # the buttons and their help lines as one table drew them (it may move on meanwhile)
        asked = page.evaluate(
            "() => document.querySelector('.actions button[data-action]') ? [...document"
            ".querySelectorAll('.cp-actions .act-help')].map(p => p.dataset.help) : null"
        )
        if asked is not None:
            helps.update(asked)
            if not asked:
                raise AssertionError("an action without its help line")
            if len(helps) == 1:
                screenshot(page, f"cp-{lang}-{size}-decision")
            act_once(page)  # (in one step: the table may move on meanwhile)
        time.sleep(0.05)
    seen.update(shown(page, ".criminal-poker"))
    assert helps, "never asked to act"
    for verb in helps:
        assert f"criminal_poker.help.{verb}" in words

    # the end: this seat's headline and side, every seat's outcome in words, no JSON
    headline = page.locator("#headline").inner_text()
    assert headline in (words["criminal_poker.you_won"], words["criminal_poker.you_lost"])
    side = page.locator("#cp-side").inner_text()
    assert side.startswith(words["criminal_poker.your_side"].split("{")[0])
    result_is_words(page)
    assert page.locator(".cp-results li").count() == 4
    assert page.locator("#role-title").inner_text() == title  # still told who it was
    known_you = words["criminal_poker.known_you"].split("{")[0]
    # (the panel is folded by now: its text, not what shows)
    assert (known_you in page.locator("#role-who").text_content()) == (identity in INVESTIGATORS)
    codes = sorted({s for s in seen if CP_CODES.search(s)})
    assert not codes, f"card codes on the table: {codes[:5]}"
    labels = page.locator(".ev[aria-label]").evaluate_all("es => es.map(e => e.ariaLabel)")
    assert labels and not [x for x in labels if not x or CP_CODES.search(x)]
    assert any(words["criminal_poker.innocence"] in x for x in labels)  # read out with its value
    if viewport is PHONE:
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
    screenshot(page, f"cp-{lang}-{size}-result")
    assert not page.errors
