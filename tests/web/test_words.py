"""A Baohuang deal in Chinese through the page: every card, action and place in the players'
words (docs/glossary.md), never the notation (T, BJ, SJ) or a word players would not say."""

from __future__ import annotations

import json
import re
import time

from tests.paths import WEB
from tests.web.helpers import act_once, needs_chromium, person, start_game

pytestmark = needs_chromium

BH = json.loads((WEB / "i18n" / "games" / "baohuang.json").read_text())
NOTATION = re.compile(r"\b(BJ|SJ|T)\b|\bT[♠♥♦♣SHDC]")
PLACES = {"頭科", "二科", "第三", "二落", "大落"}

# Everything a person reads on the Baohuang table: buttons, the hand's groups, the trick, seats.
SHOWN = """() => [...document.querySelectorAll(
  '.baohuang button, .baohuang .rank-label, .baohuang .said, #trick li, .bh-seats .place, .log li'
)].map(e => e.textContent.trim())"""


def test_a_chinese_baohuang_deal_says_cards_and_actions_in_words(web_server, browser):
    page = person(browser, web_server.url, "阿明", locale="zh-TW")
    start_game(page, "baohuang", {"deals": 1}, lang="zh-Hant", wait=".baohuang")
    seen: set[str] = set()
    deadline = time.monotonic() + 240
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the deal did not end in time"
        seen.update(page.evaluate(SHOWN))
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    seen.update(page.evaluate(SHOWN))
    raw = sorted(text for text in seen if NOTATION.search(text))
    assert not raw, f"notation on the table: {raw[:10]}"
    places = {text for text in seen if text in PLACES}
    assert len(places) >= 4  # the places by their names, 頭科 … 大落 (the last may be unplaced)
    assert BH["zh-Hant"]["baohuang.action.pass"] in seen  # 過牌, the seed's word, on a button
    assert any(" 出 " in text for text in seen)  # the log told the plays
    assert any(text.startswith("10 ×") for text in seen)  # the hand's tens, not "T"
    assert any("大王" in text or "小王" in text for text in seen)  # jokers by their names
    assert not page.errors
