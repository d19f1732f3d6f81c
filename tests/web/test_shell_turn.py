"""A person is told their turn has come: a countdown in the action bar that warns near the end,
the seat to act marked in the seat list, "Your turn" in the tab's title (in the page's
language), and a short chime made with WebAudio that a button in the room head turns off."""

from __future__ import annotations

import re
import time

from tests.web.helpers import act_once, create_room, fill_with_bots, needs_chromium, person

pytestmark = needs_chromium

# Counts the chime's notes and the vibrations instead of making them: a fake AudioContext that
# records every oscillator started, and navigator.vibrate recording its calls.
FAKE_AUDIO = """
window.__notes = 0; window.__buzz = 0;
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { this.state = "running"; return Promise.resolve(); }
  createOscillator() {
    const start = () => { window.__notes += 1; };
    return { type: "", frequency: { value: 0 }, connect: (n) => n, start, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n };
  }
}
window.AudioContext = FakeAudio;
navigator.vibrate = () => { window.__buzz += 1; return true; };
"""


def start_with_timer(browser, url, name, seconds, lang="en", locale="en-US", pace="0"):
    page = person(browser, url, name, locale=locale)
    page.select_option("#game", "baohuang")
    page.select_option("#pace", pace)
    page.fill("#turn", str(seconds))
    page.fill("#talk", "0")
    page.click("#create")
    page.wait_for_selector(".seats")
    fill_with_bots(page, lang)
    page.click("#start")
    return page


def test_my_countdown_sits_in_the_action_bar_and_warns_at_the_end(web_server, browser):
    page = start_with_timer(browser, web_server.url, "Tim", 14)
    page.wait_for_selector(".actions #my-timer", timeout=60_000)
    clock = page.locator("#my-timer")
    assert re.fullmatch(r"1[0-4] s left", clock.inner_text().strip())
    assert "warning" not in clock.get_attribute("class")
    # my seat is marked as the one to act, its timer drawn as an icon, not an emoji
    mine = page.locator(".seats li.mine")
    assert "pending" in mine.get_attribute("class")
    assert mine.locator(".icon-turn svg").count() == 1
    assert mine.locator(".timer svg").count() == 1
    assert re.search(r"\d+ s", mine.locator(".timer").inner_text())
    assert "⏱" not in page.locator("body").inner_text()
    # the last ten seconds: red, and it says what happens next
    page.wait_for_selector("#my-timer.warning", timeout=8_000)
    assert page.locator("#my-timer").inner_text().startswith("Hurry")
    assert "warning" in page.locator(".seats li.mine .timer").get_attribute("class")
    # it throbs, unless the person asked for less motion
    motion = "getComputedStyle(document.querySelector('#my-timer')).animationName"
    assert page.evaluate(motion) == "throb"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(motion) == "none"
    assert not page.errors


def test_the_title_says_your_turn_while_it_is(web_server, browser):
    # bots that take a moment: the title is seen while they think, not only on my turns
    page = start_with_timer(browser, web_server.url, "Tia", 0, pace="0.3")
    base = "Yamen 衙門"
    deadline = time.monotonic() + 240
    checked = {True: 0, False: 0}
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the deal did not end in time"
        # one look: whether actions are offered, and the title at that same moment
        offered, title = page.evaluate(
            "() => [!!document.querySelector('.actions button'), document.title]"
        )
        assert title == ("● Your turn · Yamen" if offered else base)
        checked[offered] += 1
        if offered:
            act_once(page)
        time.sleep(0.03)
    assert checked[True] and checked[False]
    assert page.title() == base
    page.goto(web_server.url + "/#/")  # and back in the lobby it stays the page's own
    page.wait_for_selector("#create")
    assert page.title() == base
    assert not page.errors


def test_the_title_speaks_the_page_language(web_server, browser):
    page = start_with_timer(browser, web_server.url, "Jiro", 0, lang="ja", locale="ja-JP")
    page.wait_for_selector(".your-move", timeout=60_000)
    assert page.title() == "● あなたの番 · 衙門"


def test_a_chime_and_a_buzz_when_my_turn_starts_and_the_sound_button(web_server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.add_init_script(FAKE_AUDIO)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(web_server.url)
    page.fill("#name", "Bell")
    page.click("button[type=submit]")
    page.wait_for_selector("#create")
    create_room(page, "baohuang", {"deals": 1})
    fill_with_bots(page)
    sound = page.locator("#sound")
    assert sound.get_attribute("aria-pressed") == "true"  # on until the person turns it off
    page.click("#start")  # a gesture: the page may play sound from now on
    page.wait_for_selector(".your-move", timeout=60_000)
    page.wait_for_function("window.__notes > 0")
    assert page.evaluate("window.__buzz") >= 1
    # off: remembered in this browser, and the next turns are silent
    sound.click()
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('yamen.sound')") == "off"
    page.reload()
    page.wait_for_selector("#sound")
    assert page.locator("#sound").get_attribute("aria-pressed") == "false"
    assert page.locator("#sound .sr-only").inner_text() == "Sounds: off"  # every sound of the table
    page.mouse.click(5, 400)  # a real gesture, which would open the sound were it on
    deadline = time.monotonic() + 120
    turns = 0
    while not page.locator("#result").count() and turns < 3:
        assert time.monotonic() < deadline
        if page.locator(".your-move").count() and act_once(page):
            turns += 1
        time.sleep(0.05)
    assert page.evaluate("[window.__notes, window.__buzz]") == [0, 0]
    assert not page.errors
    context.close()
