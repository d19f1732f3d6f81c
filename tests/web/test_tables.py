"""The Criminal Poker and Bao Qing-tian tables in a real browser (Debian's Chromium, driven by
Playwright): what each shows, in the chosen language, with every action labelled in words, and
whole games played through them, up to a 50-seat trial on a phone."""

from __future__ import annotations

import json
import re
import time

from tests.paths import WEB
from tests.web.helpers import (
    DESKTOP,
    PHONE,
    create_room,
    fill_with_bots,
    needs_chromium,
    person,
    start_game,
)

pytestmark = needs_chromium

CP = json.loads((WEB / "i18n" / "games" / "criminal_poker.json").read_text())
BQ = json.loads((WEB / "i18n" / "games" / "bao_qingtian.json").read_text())

# An action button must speak words: never the notation ("next 2", "guess 4 holds", "plus 3").
NOTATION = re.compile(
    r"^(next|arrest|vote|reveal|appoint|guess|discard|name|plus|minus|times|divide|punish)\s"
    r"|^(skip|draw|keep hidden|end questioning|wait|light|heavy|execute|pardon|done)$"
)


def buttons(page) -> list[str]:
    return page.locator(".actions button[data-action]").evaluate_all(
        "bs => bs.map(b => b.textContent.trim())"
    )


def join(browser, web_server, link, name, locale="en-US", viewport=DESKTOP):
    guest = person(browser, web_server.url, name, locale=locale, viewport=viewport)
    guest.goto(link)
    guest.wait_for_selector(".seats")
    guest.locator(".seats button.sit").first.click()
    guest.wait_for_selector(".seats li.mine")
    return guest


def short(name: str) -> str:
    """A card name as an evidence card shows it: without the type written before it."""
    cut = re.search(r"[:：]", name)
    return name[cut.end() :].strip() if cut else name


def play(pages, check=lambda page, words: None, timeout=60.0):
    """Every page clicks an offered action until all show the result: the one ``check`` returns
    (an index into the page's offered buttons, their words given), else the first."""
    deadline = time.monotonic() + timeout
    seen: set[str] = set()
    while not all(p.locator("#result").count() for p in pages):
        assert time.monotonic() < deadline, "the game did not end in time"
        for page in pages:
            if not page.locator(".your-move").count():
                continue
            words = buttons(page)
            if not words:
                continue
            for word in words:
                assert not NOTATION.search(word), f"a button speaks notation: {word!r}"
            seen.update(words)
            choice = check(page, words) or 0
            page.evaluate(
                "(i) => { const b = document.querySelectorAll('.actions button[data-action]')[i];"
                " if (b) b.click(); }",
                choice,
            )
        time.sleep(0.05)
    return seen


# ----- Criminal Poker ----------------------------------------------------------------------------


def test_criminal_poker_sheriff_and_suspect_play_to_the_reveal(web_server, browser):
    sheriff = person(browser, web_server.url, "Sheriff Sam")
    link = create_room(sheriff, "criminal_poker", {"players": 4, "sheriff": 0})
    suspect = join(browser, web_server, link, "Yui", locale="ja-JP")
    fill_with_bots(sheriff)
    sheriff.click("#start")
    sheriff.wait_for_selector(".criminal-poker")
    suspect.wait_for_selector("#cp-mine")

    # the suspect's own evidence, named in Japanese from the catalog, its value shown
    ja = CP["ja"]
    suspect.wait_for_selector("#cp-hidden .ev")
    for card in suspect.locator("#cp-hidden .ev").all():
        cid = card.get_attribute("data-card")
        assert card.locator(".ev-name").inner_text() == short(ja[f"criminal_poker.card.{cid}"])
    assert "市民" in suspect.locator("#cp-mine h3").inner_text()
    assert suspect.locator("#cp-phase").inner_text().startswith(ja["criminal_poker.phase.opening"])
    opening = buttons(suspect)
    assert len(opening) == 2 and all(w.endswith("を公開") for w in opening)

    # the sheriff: named, holding no evidence; calls suspects by name, sees the deck, arrests
    assert "Sheriff" in sheriff.locator("#cp-mine h3").inner_text()
    said: dict[str, list[str]] = {}

    drew = []

    def check(page, words):
        if page is sheriff:
            said.setdefault(sheriff.locator("#cp-phase b").inner_text(), words)
        elif "カードを引く" in words:
            return words.index("カードを引く")  # the suspect draws, then sees what it drew
        elif page.locator(".cp-actions-reveal").count():
            drew.append(page.locator(".cp-drew .ev-fresh .ev-name").inner_text())
            assert ja["criminal_poker.act.keep_hidden"] in words
            assert any(drew[-1] in w for w in words)  # revealing it is offered by name
        return None

    seen = play([sheriff, suspect], check)
    assert any(w.startswith("Call ") for w in said["Calling the next suspect"])
    assert said["Questioning"] == ["End the questioning"]
    assert all(w.startswith("Arrest ") for w in said["The arrest"])
    assert "カードを引く" in seen and drew  # the suspect's own turn, in words
    assert sheriff.locator("#cp-deck").count()  # the deck the sheriff looked at stays shown
    assert not suspect.locator("#cp-deck").count()

    # the reveal: every seat's cards, innocence and valid cards, the culprit rule that applied
    for page in (sheriff, suspect):
        page.wait_for_selector("#cp-reveal")
        assert page.locator(".cp-final li[data-seat]").count() == 4
        assert page.locator("#cp-why").inner_text()
        assert page.locator("#cp-outcome").inner_text()
        assert not page.errors
    why = sheriff.locator("#cp-why").inner_text()
    assert "weapon" in why or "innocence" in why
    assert (
        "凶器" in suspect.locator("#cp-why").inner_text()
        or "潔白度" in suspect.locator("#cp-why").inner_text()
    )


def test_criminal_poker_detective_mode_votes_in_traditional_chinese(web_server, browser):
    page = person(browser, web_server.url, "Lin", locale="zh-TW")
    start_game(
        page,
        "criminal_poker",
        {"players": 3, "mode": "detective"},
        lang="zh-Hant",
        wait=".criminal-poker",
    )
    zh = CP["zh-Hant"]
    names = {short(v) for k, v in zh.items() if k.startswith("criminal_poker.card.")}
    shown = page.locator("#cp-mine .ev-name").all_inner_texts()
    assert shown and set(shown) <= names
    seen = play([page])
    assert any(w.startswith("投票逮捕") for w in seen)
    page.wait_for_selector("#cp-votes")
    assert page.locator("#cp-votes li").count() >= 3
    assert page.locator("#cp-reveal").count() and not page.errors


# ----- Bao Qing-tian ---------------------------------------------------------------------------


def overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_three_people_hold_a_bao_qingtian_trial_step_by_step(web_server, browser):
    host = person(browser, web_server.url, "Bao")
    link = create_room(host, "bao_qingtian", {"players": 3})
    pages = [
        host,
        join(browser, web_server, link, "Wang", locale="zh-TW"),
        join(browser, web_server, link, "Ma", locale="ja-JP", viewport=PHONE),
    ]
    host.click("#start")
    for page in pages:
        page.wait_for_selector(".bao-qingtian")
    # the hand, named in each page's language, its cards the discard buttons on its turn
    for page, lang in zip(pages, ("en", "zh-Hant", "ja"), strict=True):
        for card in page.locator("#bq-hand .bq-card").all():
            code = card.get_attribute("data-card")
            name = BQ[lang][f"bao_qingtian.card.{code}"]
            assert card.locator(".bq-card-name").inner_text() == name

    steps_seen: set[int] = set()
    lefts: list[int] = []
    own_words = []

    def check(page, words):
        phase = page.locator("#bq-phase b").inner_text()
        steps_seen.add(page.locator("#bq-sentence .bq-step.done").count())
        if page.locator("#bq-guesses-left").count():
            lefts.append(int(page.locator("#bq-guesses-left").inner_text()))
        if page is host and phase == BQ["en"]["bao_qingtian.phase.plus"]:
            assert all(re.fullmatch(r"\+\d+ → \d+", w) for w in words), words
        if page.locator("#bq-own-words").count() and not own_words:
            own_words.append(page)  # the judge writes its own punishment once
            page.fill("#bq-own-words", "recite a poem")
            page.select_option("#bq-own-count", "3")
            page.locator(".bq-own button[type=submit]").click()
            page.wait_for_selector("#bq-punishment")

    play(pages, check)
    assert own_words, "the judge was never asked for a punishment"
    assert len(steps_seen) >= 5, f"the sentence did not show its steps one by one: {steps_seen}"
    assert lefts and all(0 <= n <= 10 for n in lefts) and lefts == sorted(lefts, reverse=True)
    for page in pages:
        page.wait_for_selector("#bq-room-ledger")
        assert "recite a poem" in page.locator("#bq-punishment").inner_text()
        assert page.locator("#bq-sentence .bq-step.done").count() == 6
        assert page.locator("#bq-verdict").count() and not page.errors
    assert overflow(pages[2]) <= 0


def test_a_50_seat_trial_fits_a_phone_and_ends_in_the_ledger(web_server, browser):
    page = person(browser, web_server.url, "Zhan", viewport=PHONE, locale="zh-CN")
    start_game(page, "bao_qingtian", {"players": 50}, lang="zh-Hans", wait="#bq-seats")
    assert page.locator("#bq-seats li").count() == 50
    assert overflow(page) <= 0, "50 seats are wider than a phone"
    # measured in one step: the table is redrawn as the bots play, element by element
    seats_height = page.evaluate(
        "document.querySelector('#bq-seats').getBoundingClientRect().height"
    )
    assert seats_height < 700, f"the seat list is not compact: {seats_height}px"
    card = page.locator("#bq-hand .bq-card").first
    assert (
        card.locator(".bq-card-name").inner_text()
        == (BQ["zh-Hans"][f"bao_qingtian.card.{card.get_attribute('data-card')}"])
    )
    widest = 0

    def check(page, words):
        nonlocal widest
        widest = max(widest, overflow(page))

    play([page], check, timeout=180.0)  # 50 seats: ~10 s alone, far more on a loaded machine
    page.wait_for_selector("#bq-room-ledger")
    assert page.locator("#bq-capture").count()
    assert page.locator("#bq-sentence .bq-step").count() == 6
    assert widest <= 0 and overflow(page) <= 0
    assert not page.errors
