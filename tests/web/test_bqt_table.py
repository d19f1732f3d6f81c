"""A whole Bao Qing-tian trial with bots, on a phone (390 px) and a desktop, in a page language:
the seat's role panel (its office or none, its goal in one line, who is who) in that language, a
help line next to the actions, the end headline for this seat and the sentence in words, never
JSON or card codes; screenshots saved as test artifacts."""

from __future__ import annotations

import json
import time

import pytest

from tests.paths import WEB
from tests.web.helpers import DESKTOP, PHONE, act_once, needs_chromium, person, start_game
from tests.web.table_checks import BQ_CODES, result_is_words, screenshot, shown

pytestmark = needs_chromium

BQ = json.loads((WEB / "i18n" / "games" / "bao_qingtian.json").read_text())
LOCALES = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "ja": "ja-JP"}


def goals(lang: str) -> list[str]:
    """The goal lines' fixed words (up to the first placeholder) in one language."""
    return [
        text.split("{")[0]
        for key, text in BQ[lang].items()
        if key.startswith(("bao_qingtian.goal.", "bao_qingtian.duty."))
    ]


@pytest.mark.parametrize(
    ("lang", "size", "viewport"),
    [("zh-Hant", "390", PHONE), ("ja", "390", PHONE), ("en", "1280", DESKTOP)],
)
def test_a_trial_tells_the_seat_its_part_and_its_outcome(web_server, browser, lang, size, viewport):
    words = BQ[lang]
    page = person(browser, web_server.url, "Pao", viewport=viewport, locale=LOCALES[lang])
    start_game(page, "bao_qingtian", {"players": 5}, lang=lang, wait="#role")
    seen: set[str] = set()
    goals_seen: set[str] = set()
    helped = False
    deadline = time.monotonic() + 120
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the trial did not end in time"
        if page.locator("#role-goal").count():
            goals_seen.add(page.locator("#role-goal").inner_text())
        seen.update(shown(page, ".bao-qingtian"))
        buttons = page.locator(".actions button[data-action]")
        if buttons.count():
            if not helped:
                screenshot(page, f"bqt-{lang}-{size}-decision")
            helped = helped or page.locator(".actions .act-help").count() > 0
            act_once(page)  # (in one step: the table may move on meanwhile)
        time.sleep(0.05)
    seen.update(shown(page, ".bao-qingtian"))

    # the role panel spoke the page's language all along
    title = page.locator("#role-title").inner_text()
    assert (
        title.startswith(words["bao_qingtian.you_are"].split("{")[0])
        or title == words["bao_qingtian.you_no_office"]
    )
    assert goals_seen and all(any(g.startswith(w) for w in goals(lang)) for g in goals_seen), (
        goals_seen
    )
    assert helped, "no help line next to the actions"
    # the end: this seat's headline, the sentence in words, no raw data anywhere
    headline = page.locator("#headline").inner_text()
    mine = [v.split("{")[0] for k, v in words.items() if k.startswith("bao_qingtian.you.")]
    assert any(headline.startswith(w) for w in mine), headline
    result_is_words(page)
    assert page.locator("#bq-breakdown li").count() >= 2
    codes = sorted({s for s in seen if BQ_CODES.search(s)})
    assert not codes, f"card codes on the table: {codes[:5]}"
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    screenshot(page, f"bqt-{lang}-{size}-result")
    assert not page.errors
