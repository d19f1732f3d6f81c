"""The table's sounds (issue 26): each game's table module names the sound of an event (a play,
a pass, a bomb-sized set, the last card) and the shell plays the strongest of a live update's,
made with Web Audio; the room head's sound switch turns them all off. The page tells each sound
it asks for as a `yamen:sound` event, which these tests listen to instead of an audio device:
a Baohuang table is heard exactly as the rules below say it should be, update by update, until
the switch, and silent after it; each game's own declaration is checked in the page."""

from __future__ import annotations

import json
import time

from tests.web.helpers import act_once, create_room, fill_with_bots, needs_chromium

pytestmark = needs_chromium

LISTEN = """
window.__cues = [];
window.addEventListener("yamen:sound", (e) => window.__cues.push(e.detail));
"""
STRONGEST = ["pass", "play", "bomb", "last"]


def baohuang_sound(event: dict) -> str | None:
    """The test's own reading of docs/web.md: a pass or a yield passes, the set that empties a
    hand is the last card, a set with a big joker (nobody can beat it) or of five cards or more
    is bomb-sized, any other set a play."""
    kind, data = event["kind"], event["data"]
    if kind in ("pass", "yield"):
        return "pass"
    if kind != "play":
        return None
    if data["out"]:
        return "last"
    cards = data["cards"]
    return "bomb" if len(cards) >= 5 or any(c.startswith("BJ") for c in cards) else "play"


def heard_for(events: list[dict]) -> str | None:
    cues = [c for c in map(baohuang_sound, events) if c]
    return max(cues, key=STRONGEST.index) if cues else None


def listening_page(browser, url, name):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    updates: dict[int, list[dict]] = {}

    def frame(payload):
        message = json.loads(payload)
        if message.get("type") == "update":
            updates[message["table"]["seq"]] = message["events"]

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.goto(url)
    page.fill("#name", name)
    page.click("button[type=submit]")
    page.wait_for_selector("#create")
    return page, updates


def play_until(page, done, timeout=240):
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)


def test_the_moves_sound_as_they_come_and_the_switch_silences_them(web_server, browser):
    page, updates = listening_page(browser, web_server.url, "Ear")
    page.evaluate("localStorage.setItem('yamen.autopass', 'off')")  # every answer is mine
    create_room(page, "baohuang", {"variant": "japanese"})
    fill_with_bots(page)
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    page.click("#start")

    def sounded():
        cues = {c for events in updates.values() if (c := heard_for(events))}
        return {"play", "pass"} <= cues and len(updates) >= 25

    play_until(page, sounded)
    page.click("#sound")  # off: from now on, silence
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    cues = page.evaluate("window.__cues")
    heard = {c["seq"]: c["cue"] for c in cues if c["cue"] != "turn"}
    last_heard = max(heard)
    # every update up to the switch heard exactly as the rules above say, and nothing else
    expected = {
        seq: cue
        for seq, events in updates.items()
        if seq <= last_heard and (cue := heard_for(events))
    }
    assert heard == expected
    assert any(c["cue"] == "turn" and c["seq"] is None for c in cues)  # my turn's chime
    seen = len(updates)
    play_until(page, lambda: len(updates) > seen + 15 or page.locator("#result").count())
    assert page.evaluate("window.__cues.length") == len(cues)
    assert not page.errors


BAOHUANG = """async () => {
  const { sound } = await import('/games/baohuang/sounds.js');
  const { hear } = await import('/sounds.js');
  const play = (cards, out = false) => sound({ kind: 'play', data: { seat: 1, cards, out } });
  const heard = [];
  addEventListener('yamen:sound', (e) => heard.push(e.detail));
  const module = { sound: (e) => e.data.cue, render() {} };
  const event = (cue) => ({ kind: 'x', data: { cue } });
  const said = (...cues) => hear(module, cues.map(event), null, 7);
  said('pass', 'play');
  said('bomb', 'last', 'play');
  said(null);
  localStorage.setItem('yamen.sound', 'off');
  said('play');
  localStorage.removeItem('yamen.sound');
  return {
    sets: [play(['9H']), play(['9H', '9S', '9D', '9C']), play(['9H', '9S', '9D', '9C', '9H']),
           play(['BJ', '6S']), play(['BJ*']), play(['SJ', 'SJ', 'SJ', 'SJ']), play(['6S'], true),
           play(['BJ', 'BJ', 'BJ', 'BJ', 'BJ'], true)],
    others: ['pass', 'yield', 'claim', 'deal', 'lead']
      .map((kind) => sound({ kind, data: { seat: 2 } })),
    heard,
  };
}"""


def test_baohuangs_sounds_and_the_strongest_of_a_move(web_server, browser):
    page = browser.new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    got = page.evaluate(BAOHUANG)
    # a set is a play; five cards or more, or a big joker (nobody beats it), bomb-sized; the set
    # that empties a hand the last card, whatever it holds
    assert got["sets"] == ["play", "play", "bomb", "bomb", "bomb", "play", "last", "last"]
    assert got["others"] == ["pass", "pass", None, None, None]
    # of a move's events the strongest is heard, once; nothing named, nothing; off, nothing
    assert got["heard"] == [{"cue": "play", "seq": 7}, {"cue": "last", "seq": 7}]
    page.close()


SOUNDS = """async () => {
  const cp = (await import('/games/criminal_poker/sounds.js')).sound;
  const bq = (await import('/games/bao_qingtian/sounds.js')).sound;
  const e = (kind, data = {}) => ({ kind, data });
  return {
    cp: [cp(e('reveal', { seat: 1, card: 'x' })), cp(e('draw', { seat: 1, deck: 4 })),
         cp(e('draw', { seat: 1, deck: 0 })), cp(e('skip', { seat: 2 })),
         cp(e('keep hidden', { seat: 2 })),
         cp(e('arrest', { seats: [3] })), cp(e('arrest', { seats: [] })), cp(e('votes', {}))],
    bq: [bq(e('turn', { seat: 3 })), bq(e('wait', { captor: 1 })),
         bq(e('guess', { hit: true, left: 4 })),
         bq(e('guess', { hit: false, left: 3 })), bq(e('guess', { hit: false, left: 0 })),
         bq(e('execute', {})), bq(e('pardon', {})), bq(e('deal', {}))],
  };
}"""


def test_the_other_games_name_their_own_sounds(web_server, browser):
    page = browser.new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    got = page.evaluate(SOUNDS)
    # evidence shown or drawn plays, the deck's last card is the last, a skip passes, an arrest
    # is the big one (nobody arrested: none)
    assert got["cp"] == ["play", "play", "last", "pass", "pass", "bomb", None, None]
    # a seat's turn plays, a wait passes, a catch and an execution are the big ones, the last
    # guess is the last
    assert got["bq"] == ["play", "pass", "bomb", "play", "last", "bomb", None, None]
    page.close()
