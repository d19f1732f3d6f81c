"""The Bao Qing-tian captor's "keep waiting until I choose to guess": one click, and the
captor's own client answers Wait after each turn; it is asked again when a guess is required
(the round's last turn without a guess), and at every decision once it stops waiting."""

from __future__ import annotations

import json
import time

from tests.paths import WEB
from tests.web.helpers import PHONE, needs_chromium, person, start_game
from tests.web.table_checks import screenshot
from yamen.engine import get_game
from yamen.games.bao_qingtian.cards import EMPEROR, MA, WANG

pytestmark = needs_chromium

BQ = json.loads((WEB / "i18n" / "games" / "bao_qingtian.json").read_text())["en"]


def captor_seed(players: int = 6) -> int:
    """A seed whose deal gives seat 0 the Emperor and the only Wang/Ma card (dealt through the
    engine, as the room will): the host, seated at 0, is the emperor and then surely the captor."""
    game = get_game("bao_qingtian", {"players": players})
    for seed in range(1, 100_000):
        hands = game.new_state(seed=seed).hands
        others = hands[1:]
        if (
            hands[0][EMPEROR]
            and (hands[0][WANG] or hands[0][MA])
            and not any(h[EMPEROR] or h[WANG] or h[MA] for h in others)
        ):
            return seed
    raise AssertionError("no deal makes seat 0 the captor")


def waits_logged(page, name: str) -> int:
    said = BQ["bao_qingtian.log.wait"].format(name=name)
    return page.locator(".log li").evaluate_all(
        "(lines, said) => lines.filter(l => l.textContent.trim() === said).length", said
    )


def waited(page) -> int:
    """The keep-waiting bar's own count of the Waits it sent."""
    text = page.locator("#bq-keep-state").inner_text()
    digits = [int(w) for w in text.replace("·", " ").split() if w.isdigit()]
    return digits[-1] if digits else 0


def take_turn_or_guess(page) -> None:
    """The captor's clicks the test allows itself: its own discards, the crime, appointments,
    and a guess when one is required (a "just drew" guess: the likeliest to miss)."""
    if page.locator(".bq-actions-guess").count():
        drew = page.locator(".bq-actions-guess button[data-action]", has_text="just drew")
        target = drew.first if drew.count() else page.locator(".bq-actions-guess button").last
        target.click()
    elif page.locator(".actions button[data-action]").count():
        page.locator(".actions button[data-action]").first.click()


def captors_trial(browser, url, monkeypatch, name):
    """A six-seat trial, started, in which the person ``name`` at seat 0 is to become captor."""
    seed = captor_seed()
    monkeypatch.setattr("yamen.server.operations.new_seed", lambda: seed)
    page = person(browser, url, name, viewport=PHONE)
    start_game(page, "bao_qingtian", {"players": 6}, wait=".bao-qingtian")
    return page


def test_the_captor_keeps_waiting_until_it_chooses_to_guess(web_server, browser, monkeypatch):
    page = captors_trial(browser, web_server.url, monkeypatch, "Kai")

    # to the capture: the host names the crime, appoints if asked, takes its turns
    deadline = time.monotonic() + 60
    while not page.locator("#bq-keep").count():
        assert time.monotonic() < deadline, "the host never became the captor"
        assert not page.locator("#result").count(), "the trial ended before the capture"
        if page.locator(".bq-actions-guess").count():
            break
        take_turn_or_guess(page)
        time.sleep(0.05)
    assert page.locator("#role-title").inner_text().count(BQ["bao_qingtian.office.captor"])
    assert page.locator("#bq-keep").get_attribute("data-on") == "0"

    # one click: keep waiting; it shows it is on, pinned with the actions
    page.click("#bq-keep-waiting")
    page.wait_for_selector("#bq-keep.on")
    # pinned with the actions (sticky on a phone), unless the captor is being asked something
    assert page.evaluate(
        "() => !!(document.querySelector('#bq-keep.on.actions')"
        " || document.querySelector('.bq-actions-guess, .bq-hand.actions'))"
    )
    assert BQ["bao_qingtian.keep.on"] in page.locator("#bq-keep-state").inner_text()
    assert page.locator("#bq-keep-waiting").inner_text() == BQ["bao_qingtian.keep.stop"]

    # the game goes on past several of the captor's decisions without a click on Wait; when a
    # guess is required the captor is asked, told why, and Wait is not offered
    asked_to_guess = 0
    reloaded = False
    deadline = time.monotonic() + 90
    while waits_logged(page, "Kai") < 4 or waited(page) < 4 or not reloaded:
        assert time.monotonic() < deadline, "the captor's client did not keep waiting"
        assert not page.locator("#result").count(), "the trial ended too early"
        if page.locator(".bq-actions-guess").count():
            assert not page.locator("button.bq-wait").count(), "asked to wait while waiting"
            assert page.locator("#bq-keep-note").inner_text()
            if not asked_to_guess:
                screenshot(page, "bqt-en-390-keep-waiting-asked")
            asked_to_guess += 1
        if waited(page) >= 2 and not reloaded:
            screenshot(page, "bqt-en-390-keep-waiting")
            page.reload()  # the choice survives a reload (and every redraw)
            page.wait_for_selector("#bq-keep.on")
            reloaded = True
        take_turn_or_guess(page)
        time.sleep(0.05)
    assert page.locator("#bq-keep").get_attribute("data-on") == "1"

    # switched off: the captor is asked again, with Wait among its choices
    page.click("#bq-keep-waiting")
    page.wait_for_selector("#bq-keep.off")
    assert page.locator("#bq-keep-waiting").inner_text() == BQ["bao_qingtian.keep.start"]
    deadline = time.monotonic() + 60
    while not page.locator(".bq-actions-guess button.bq-wait").count():
        assert time.monotonic() < deadline, "the captor was not asked again"
        assert not page.locator("#result").count(), "the trial ended before the captor was asked"
        take_turn_or_guess(page)
        time.sleep(0.05)
    before = waits_logged(page, "Kai")
    time.sleep(1.0)
    assert page.locator(".bq-actions-guess button.bq-wait").count(), "it waited by itself"
    assert waits_logged(page, "Kai") == before
    page.locator("button.bq-wait").click()
    page.wait_for_function(
        "(said) => [...document.querySelectorAll('.log li')]"
        ".filter(l => l.textContent.trim() === said).length > " + str(before),
        arg=BQ["bao_qingtian.log.wait"].format(name="Kai"),
    )
    assert not page.errors


def test_a_captor_who_keeps_waiting_is_asked_after_a_watched_seats_turn(
    web_server, browser, monkeypatch
):
    page = captors_trial(browser, web_server.url, monkeypatch, "Ren")
    deadline = time.monotonic() + 60
    while not page.locator("#bq-keep").count():
        assert time.monotonic() < deadline, "the host never became the captor"
        take_turn_or_guess(page)
        time.sleep(0.05)

    # watch every other seat but one, then keep waiting: asked right after a watched turn,
    # with Wait among the choices (waiting is still allowed there)
    page.locator("#bq-watch summary").click()
    for seat in (1, 2, 3, 4):
        page.locator(f"#bq-watch button[data-watch='{seat}']").click()
        page.wait_for_selector(f"#bq-watch button[data-watch='{seat}'][aria-pressed=true]")
    if page.locator("#bq-keep.off").count():
        page.click("#bq-keep-waiting")
    page.wait_for_selector("#bq-keep.on")
    names = {
        page.locator(f".bq-seats li[data-seat='{s}']").get_attribute("title") for s in (1, 2, 3, 4)
    }
    said = {BQ["bao_qingtian.keep.watched_turn"].format(name=n) for n in names}
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "never asked after a watched seat's turn"
        assert not page.locator("#result").count(), "the trial ended first"
        note = page.locator("#bq-keep-note")
        if note.count() and note.inner_text() in said:
            assert page.locator(".bq-actions-guess button.bq-wait").count()
            break
        take_turn_or_guess(page)
        time.sleep(0.05)
    # the captor answers for itself here: it may still wait after a watched turn
    page.locator("button.bq-wait").click()
    assert not page.errors
