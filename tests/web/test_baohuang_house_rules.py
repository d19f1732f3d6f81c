"""A Baohuang house rule in a real browser: a room made with guard_by_fourth (168 cards) from the
lobby's switch; once the emperor calls a card the role panel shows that card as the guard's
(not the marked small joker of the seed's rules)."""

from __future__ import annotations

from tests.web.baohuang_table import BH, play_until, seated_room
from tests.web.helpers import needs_chromium

pytestmark = needs_chromium


def test_guard_by_fourth_shows_the_called_card_as_the_guards(web_server, browser):
    options = {"variant": "japanese", "guard_by_fourth": True, "deals": 1}
    page, _ = seated_room(browser, web_server, "Mei", options, lang="ja")
    ja = BH["ja"]
    play_until(page, lambda p: p.locator("#bh-called").count() > 0)
    called = page.locator("#bh-called")
    assert ja["baohuang.guard_called_note"] in called.inner_text()
    assert called.locator(".face").get_attribute("data-card") not in ("SJ*", None)
    assert not page.errors
