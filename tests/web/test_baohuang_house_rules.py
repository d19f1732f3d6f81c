"""Baohuang house rules in a real browser: a room made with guard_by_fourth (168 cards) from the
lobby's switch; once the emperor calls a card the role panel shows that card as the guard's
(not the marked small joker of the seed's rules). A room playing 憋六 (lowest_held): the role
panel says the rule and a set of 6s that would not empty the hand is refused in words."""

from __future__ import annotations

from tests.web.baohuang_table import BH, seated_room
from tests.web.helpers import act_once, needs_chromium, play_until
from tests.web.test_baohuang_role import CRAFTED, view
from yamen.engine import get_game

pytestmark = needs_chromium


def test_guard_by_fourth_shows_the_called_card_as_the_guards(web_server, browser):
    options = {"variant": "japanese", "guard_by_fourth": True, "deals": 1}
    page, _ = seated_room(browser, web_server, "Mei", options, lang="ja")
    ja = BH["ja"]
    play_until(page, lambda p: p.locator("#bh-called").count() > 0)
    called = page.locator("#bh-called")
    # (the role panel may be folded once play begins: its text, shown or not)
    assert ja["baohuang.guard_called_note"] in called.text_content()
    assert called.locator(".face").get_attribute("data-card") not in ("SJ*", None)
    assert not page.errors


def held_seed(options) -> int:
    """A seed where seat 0 (the host's) holds the emperor card, not the guard card, and at
    least two 6s besides other ranks: it keeps the card and leads first."""
    game = get_game("baohuang", options)
    for seed in range(1, 10_000):
        hand = game.new_state(seed).hands[0]
        if hand[55] and not hand[54] and sum(hand[12:16]) >= 2:
            return seed
    raise AssertionError("no seed found")


def test_bie_liu_a_set_of_sixes_that_would_not_empty_the_hand_is_refused_in_words(
    web_server, browser, monkeypatch
):
    """憋六 from the lobby's switch: the role panel says the rule; at the first lead the legal
    sets hold no 6, and picking the 6s says why, in the player's language."""
    options = {"variant": "japanese", "lowest_held": True, "deals": 1}
    seed = held_seed(options)
    monkeypatch.setattr("yamen.server.operations.new_seed", lambda: seed)
    page, seat = seated_room(browser, web_server, "Kei", options, lang="ja")
    assert seat == 0
    ja = BH["ja"]

    # (the first lead's sets can appear between play_until's look and its click: not played)
    play_until(
        page,
        lambda p: p.locator(".legal-sets").count() > 0,
        act=lambda p: act_once(p, unless=".legal-sets"),
    )
    assert page.locator("#bh-house").text_content() == ja["baohuang.house.held.japanese"]
    sets = page.locator(".legal-sets button[data-set]").evaluate_all(
        "bs => bs.map(b => b.dataset.set)"
    )
    assert sets and not any(token[0] == "6" for text in sets for token in text.split())
    sixes = page.locator(".bh-hand .rank-group[data-group='6']")
    for _ in range(2):  # each tap on an unraised card raises one more 6
        sixes.locator(".card-button:not(.selected)").last.click()
    assert sixes.locator(".card-button.selected").count() == 2
    assert page.locator("#play").is_disabled()
    assert page.locator("#why").inner_text() == ja["baohuang.why.held.japanese"]
    assert not page.errors


def test_the_role_panel_says_the_lowest_rank_rule_in_every_language(web_server, browser):
    page = browser.new_context().new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    for lang in ("en", "zh-Hant", "zh-Hans", "ja"):
        words = BH[lang]
        for variant in ("japanese", "shandong"):
            for options, key in [
                ({"lowest_held": True}, f"baohuang.house.held.{variant}"),
                ({"lowest_last": True}, f"baohuang.house.sink.{variant}"),
                ({}, None),
            ]:
                crafted = view(variant, "commoner", ["pass"], options=options)
                text = page.evaluate(CRAFTED, [crafted, lang])["text"]
                for rule in ("held", "sink"):
                    said = words[f"baohuang.house.{rule}.{variant}"] in text
                    assert said is (key == f"baohuang.house.{rule}.{variant}"), (lang, options)
