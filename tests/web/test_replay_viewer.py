"""The replay viewer in the browser (yamen/web/replay.js): a Baohuang deal played by a person and
bots, opened from the finished room, stepped through from the person's seat (no other seat's
hand ever shown), then with everything revealed (all five hands); the slider and the arrow keys
move the step, the share link restores step and seat, the download link gives the record."""

from __future__ import annotations

import json
from collections import Counter

from tests.web.helpers import (
    DESKTOP,
    GET,
    PHONE,
    artifacts,
    needs_chromium,
    person,
    play_pages,
    start_game,
)

pytestmark = needs_chromium


def at_step(page, step: int) -> None:
    page.wait_for_function(
        "(n) => { const s = document.getElementById('replay-step');"
        " return s && Number(s.value) === n && location.hash.includes('step=' + n); }",
        arg=step,
    )


def cards(page, selector: str) -> Counter:
    return Counter(page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)"))


def test_replay_a_finished_deal_from_a_seat_then_everything_revealed(
    web_server, browser, monkeypatch
):
    # a fixed deal whose roles are dealt by step 6 (a random one once had none there)
    monkeypatch.setattr("yamen.server.operations.new_seed", lambda: 7)
    host = person(browser, web_server.url, "Mei")
    start_game(host, "baohuang", {"deals": 1})
    play_pages([host])
    host.wait_for_selector("#replay-link")
    host.click("#replay-link")
    host.wait_for_selector("#replay #replay-at")
    gid = host.evaluate("() => location.hash.split('/')[2].split('?')[0]")
    base = f"/api/games/{gid}"
    index = host.evaluate(GET, f"{base}/replay/index")
    me = index["seat"]
    assert me == 0 and index["game"] == "baohuang"
    assert host.input_value("#perspective") == str(me)  # a participant starts at their seat
    at_step(host, 0)

    # every step from the person's seat: their hand as it was, nobody else's
    for step in range(index["steps"] + 1):
        if step:
            host.keyboard.press("ArrowRight")
        at_step(host, step)
        seats = host.evaluate(GET, f"{base}/replay?step={step}")["seats"]
        assert host.locator("#replay-hands, .replay-hand").count() == 0
        assert host.locator("#replay .actions, #replay .your-move").count() == 0  # nothing acts
        if seats[me].get("hand"):
            assert cards(host, "#bh-hand svg[data-card]") == Counter(seats[me]["hand"]), step
        others = cards(host, "#replay svg[data-card]") - cards(host, "#bh-hand svg[data-card]")
        for seat, view in enumerate(seats):
            hand = Counter(view.get("hand") or [])
            if seat != me and sum(hand.values()) >= 4:
                assert hand - others, f"seat {seat}'s hand is shown at step {step}"
        if step == 3:
            host.keyboard.press("ArrowLeft")
            at_step(host, 2)
            host.keyboard.press("ArrowRight")
            at_step(host, 3)
    assert host.locator("#result").count() == 1  # the last step: the game's result
    assert "null" not in host.inner_text("#replay")

    # the slider, then everything revealed: all five hands as they were
    host.fill("#replay-step", "6")
    at_step(host, 6)
    host.select_option("#perspective", "all")
    host.wait_for_selector("#replay-hands")
    seats = host.evaluate(GET, f"{base}/replay?step=6")["seats"]
    shown = host.locator(".replay-hand")
    assert shown.count() == 5
    for seat in range(5):
        hand = cards(host, f".replay-hand[data-seat='{seat}'] svg[data-card]")
        assert hand == Counter(seats[seat]["hand"]) and hand
    # the role panel says everything is revealed and names every seat's role, not a spectator's
    roles = {str(i): v["role"] for i, v in enumerate(seats) if v.get("role")}
    assert roles, "the roles are dealt by step 6"
    chips = host.eval_on_selector_all(
        "#bh-known .chip", "els => Object.fromEntries(els.map(e => [e.dataset.seat, e.innerText]))"
    )
    assert chips.keys() == roles.keys()
    assert "hidden" not in host.inner_text("#bh-role")
    for size, name in ((PHONE, "390"), (DESKTOP, "1280")):
        host.set_viewport_size(size)
        host.screenshot(path=str(artifacts() / f"replay-all-{name}.png"), full_page=True)

    # the share link restores step and perspective, in another tab of the same person
    link = host.get_attribute("#share-link", "href")
    assert "seat=all" in link and "step=6" in link
    other = host.context.new_page()
    other.errors = []
    other.on("pageerror", lambda exc: other.errors.append(str(exc)))
    other.goto(link.replace("seat=all", f"seat={me}").replace("step=6", "step=9"))
    other.wait_for_selector("#replay #replay-at")
    at_step(other, 9)
    assert other.input_value("#perspective") == str(me)
    assert other.locator("#replay-hands").count() == 0
    for size, name in ((PHONE, "390"), (DESKTOP, "1280")):
        other.set_viewport_size(size)
        other.screenshot(path=str(artifacts() / f"replay-seat-{name}.png"), full_page=True)
    other.goto(link)
    other.wait_for_selector("#replay-hands")
    at_step(other, 6)
    assert other.input_value("#perspective") == "all"

    # what happened, in words: a play names its cards; the page in Japanese, drawn again
    plays = [s for s, kinds in enumerate(index["kinds"]) if "play" in kinds]
    other.goto(link.replace("step=6", f"step={plays[0]}"))
    at_step(other, plays[0])
    assert "play " not in other.inner_text("#replay-events")  # not the notation
    other.select_option("#lang", "ja")
    other.wait_for_function(
        "() => document.querySelector('#replay h1').innerText.includes('リプレイ')"
    )
    assert "replay." not in other.inner_text("#replay")  # no key without its words
    at_step(other, plays[0])

    # the download link: the record, as GET /api/games/<id>/record serves it
    with host.expect_download() as download:
        host.click("#download-record")
    saved = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert saved == host.evaluate(GET, f"{base}/record")
    assert saved["game"] == "baohuang" and len(saved["actions"]) == index["steps"]

    # the player page's last games lead here too
    me_id = host.evaluate(GET, "/api/me")["player"]
    host.goto(f"{web_server.url}/#/player/{me_id}")
    host.wait_for_selector(".last-games a.replay-open")
    assert host.get_attribute(".last-games a.replay-open", "href") == f"#/replay/{gid}"
    assert host.errors == [] and other.errors == []
