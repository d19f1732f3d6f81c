"""Picking a Baohuang set in a real browser: by rank and count, the telling card apart, and
the cards raised are exactly the cards played (the engine plays plain suits in a fixed order,
so the hand raises those very cards); a raised card never hides its neighbour's corner."""

from __future__ import annotations

import re
import time

import pytest

from tests.web.baohuang_table import seated_room
from tests.web.helpers import DESKTOP, PHONE, act_once, needs_chromium

pytestmark = needs_chromium

# The first legal set on offer, as notation (data-set), and the hand's groups.
OFFER = """() => {
  const sets = [...document.querySelectorAll('.legal-sets button[data-set]')]
    .map(b => b.dataset.set);
  const groups = [...document.querySelectorAll('.bh-hand .rank-group')].map(g => g.dataset.group);
  return { sets, groups };
}"""

# For every raised card: is its own rank corner and its right-hand neighbour's still on top?
CORNERS = """() => [...document.querySelectorAll('.bh-hand .card-button.selected')].flatMap(b => {
  b.scrollIntoView({ block: 'center' });
  const seen = (el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width * 0.15, r.top + r.height * 0.15);
    return el.contains(hit);
  };
  const next = b.nextElementSibling;
  return [seen(b), next ? seen(next) : true];
})"""


def group_of(token: str, groups: list[str]) -> str:
    """The hand group a token of a legal text is picked in: the telling card has its own."""
    upper = token.upper()
    if re.fullmatch(r"[2-9TJQKA][SHDC]|SJ\*", upper) and "tell" in groups:
        return "tell"
    return upper


def pick(page, text: str) -> None:
    """Tap the groups of the set ``text``: each tap on an unraised card adds one of its group."""
    groups = page.evaluate(OFFER)["groups"]
    for token in text.split():
        group = page.locator(f".bh-hand .rank-group[data-group='{group_of(token, groups)}']")
        group.locator(".card-button:not(.selected)").last.click()


def my_plays(page, name: str) -> list[str]:
    return [
        line
        for line in page.locator(".log li").all_text_contents()
        if line.startswith(f"{name} plays ")
    ]


@pytest.mark.parametrize(("variant", "viewport"), [("shandong", PHONE), ("japanese", DESKTOP)])
def test_the_cards_picked_are_the_cards_played(web_server, browser, variant, viewport):
    page, _ = seated_room(
        browser, web_server, "Ann", {"deals": 1, "variant": variant}, viewport=viewport
    )
    checked = 0
    deadline = time.monotonic() + 240
    while checked < 4 and not page.locator("#result").count():
        assert time.monotonic() < deadline, "the deal did not end in time"
        if not page.locator(".your-move").count():
            time.sleep(0.03)
            continue
        offer = page.evaluate(OFFER)
        if not offer["sets"] or not page.locator("#play").count():
            act_once(page)
            continue
        # the longest set on offer: several cards of a rank, the suits the engine would pick
        text = max(offer["sets"], key=lambda s: len(s.split()))
        pick(page, text)
        raised = page.locator(".bh-hand .card-button.selected")
        assert raised.count() == len(text.split())
        assert all(page.evaluate(CORNERS)), "a raised card hides a rank corner"
        assert page.locator("#play").is_enabled(), f"picking {text} offers no play"
        shown = page.locator(".bh-hand .card-button.selected svg").evaluate_all(
            "fs => fs.map(f => f.getAttribute('aria-label'))"
        )
        before = len(my_plays(page, "Ann"))
        page.click("#play")
        while len(my_plays(page, "Ann")) == before:
            assert time.monotonic() < deadline, "the play was not logged"
            time.sleep(0.02)
        played = my_plays(page, "Ann")[before].removeprefix("Ann plays ")
        played = played.removesuffix(" and is out")
        for card in shown:  # every card raised was played, and nothing else
            assert card in played, f"raised {shown}, played {played}"
            played = played.replace(card, "", 1)
        assert not played.strip(), f"played more than raised: {played}"
        checked += 1
    assert checked >= 2 or page.locator("#result").count()
    assert not page.errors


def test_picking_is_by_rank_and_count(web_server, browser):
    page, _ = seated_room(browser, web_server, "Bea", {"deals": 1}, viewport=PHONE)
    deadline = time.monotonic() + 120
    while not page.locator("#bh-hand").count():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    group = (
        page.locator(".bh-hand .rank-group")
        .filter(has=page.locator(".card-button:nth-child(3)"))
        .first
    )  # a rank held three times or more
    cards = group.locator(".card-button")
    # tapping any card of the group raises the first one (the engine's pick), then the next
    cards.last.click()
    assert group.locator(".card-button.selected").count() == 1
    assert cards.first.get_attribute("aria-pressed") == "true"
    cards.last.click()
    assert [cards.nth(i).get_attribute("aria-pressed") for i in range(2)] == ["true", "true"]
    assert "2" in group.locator(".rank-label").inner_text()
    # tapping a raised card (on its visible edge) takes one back
    cards.first.click(position={"x": 4, "y": 30})
    assert group.locator(".card-button.selected").count() == 1
    cards.first.click(position={"x": 4, "y": 30})
    assert not page.locator(".card-button.selected").count()
    # readable at 390 px: a card is at least 40 px wide and its rank corner shows
    assert page.locator(".bh-hand .card-button").first.bounding_box()["width"] >= 40
    assert not page.errors
