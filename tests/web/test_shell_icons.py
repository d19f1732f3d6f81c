"""Icons are inline SVG, not emoji (emoji render as empty boxes where no emoji font is
installed): during a whole game of each game, the page's visible text holds no emoji code
point, and the shell's icons carry words for screen readers."""

from __future__ import annotations

import re
import time

import pytest

from tests.paths import WEB
from tests.web.helpers import act_once, create_room, fill_with_bots, needs_chromium, person

pytestmark = needs_chromium

EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u23f0-\u23ff]")
# Signs in those blocks that every text font draws as text: the card suits of the notation,
# the star on a marked joker, a cross for a missed guess.
TEXT_SIGNS = set("♠♥♦♣★☆✗")
# Baohuang's table and the cards are drawn by their own modules (another change replaces their
# emoji); until it is in, this test says so rather than pass.
LEFT = [
    (name, sign)
    for name, sign in [("games/baohuang.js", "🂠"), ("cards.js", "🃏")]
    if sign in (WEB / name).read_text(encoding="utf-8")
]


def emoji_in(page):
    text = page.evaluate("document.body.innerText")
    return {c for c in EMOJI.findall(text) if c not in TEXT_SIGNS}


@pytest.mark.parametrize(
    ("game", "options"),
    [
        pytest.param(
            "baohuang",
            {"deals": 1},
            marks=pytest.mark.xfail(bool(LEFT), reason=f"emoji in a table module: {LEFT}"),
        ),
        ("criminal_poker", {"players": 4}),
        ("bao_qingtian", {"players": 5}),
    ],
)
def test_no_emoji_on_the_page_during_a_game(web_server, browser, game, options):
    page = person(browser, web_server.url, "Ico")
    create_room(page, game, options)
    fill_with_bots(page)
    assert page.locator(".seats .icon-bot svg[aria-hidden=true]").count() >= 2
    assert page.locator(".seats .icon-bot .sr-only").first.inner_text() == "Bot"
    assert page.locator("#rules svg").count() == 1 and page.locator("#sound svg").count() == 1
    page.click("#start")
    found = set()
    looks = 0
    deadline = time.monotonic() + 240
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if page.locator(".your-move").count():
            found |= emoji_in(page)
            looks += 1
            act_once(page)
        time.sleep(0.05)
    found |= emoji_in(page)
    page.locator("details").evaluate_all("ds => ds.forEach((d) => { d.open = true; })")
    found |= emoji_in(page)
    assert looks
    assert not found, f"emoji on the page: {sorted(found)}"
    assert not page.errors
