"""The room before its game, through the page: every empty seat filled with bots in one click,
bots named in the page's language ("電腦 1") with their kind as a small label, another kind of
bot chosen per seat, a person taken out of a seat by the host (and told), the room's settings
changed by the host until the start, and the invite link copied with feedback."""

from __future__ import annotations

import json
import re

import httpx

from tests.paths import WEB
from tests.web.helpers import DESKTOP, PHONE, artifacts, create_room, needs_chromium, person
from yamen.bots import bot_names

pytestmark = needs_chromium

HANT = json.loads((WEB / "i18n" / "zh-Hant.json").read_text())
JA = json.loads((WEB / "i18n" / "ja.json").read_text())
EN = json.loads((WEB / "i18n" / "en.json").read_text())


def shot(tmp_path, name: str) -> str:
    return str(artifacts() / name)


def room_of(page, base):
    room_id = re.search(r"#/room/([\w-]+)", page.url).group(1)
    return httpx.get(f"{base}/api/rooms/{room_id}").json()


def seat_names(page):
    return page.eval_on_selector_all(
        ".seats li .seat-name", "els => els.map(e => e.textContent.trim())"
    )


def test_one_click_fills_the_seats_with_bots_named_in_the_language(web_server, browser, tmp_path):
    page = person(browser, web_server.url, "阿明", viewport=PHONE, locale="zh-TW")
    create_room(page, "baohuang")
    page.click("#fill-bots")
    page.wait_for_selector("#fill-bots", state="detached")
    assert "null" not in page.inner_text("#room-head")
    names = seat_names(page)
    kind = HANT["bot.kind.rules"]
    assert names == ["阿明"] + [f"{HANT['bot']} {n} {kind}" for n in range(1, 5)]
    assert page.inner_text(".seats li[data-seat='2'] .bot-kind") == kind
    assert [s["bot"] for s in room_of(page, web_server.url)["seats"]] == [None] + ["rules"] * 4

    # another kind for seat 2: chosen from the game's bots, in the page's words
    choice = page.locator(".seats li[data-seat='2'] select.bot-choice")
    offered = choice.evaluate("el => [...el.options].map(o => [o.value, o.text])")
    assert offered == [[k, HANT[f"bot.kind.{k}"]] for k in bot_names("baohuang")]
    assert {"random", "rules", "search", "learned"} <= {k for k, _ in offered}
    choice.select_option("search")
    page.wait_for_function(
        "k => document.querySelector(\".seats li[data-seat='2'] .bot-kind\").textContent === k",
        arg=HANT["bot.kind.search"],
    )
    assert [s["bot"] for s in room_of(page, web_server.url)["seats"]][2] == "search"
    assert seat_names(page)[2].startswith(f"{HANT['bot']} 2 ")  # still the second bot
    page.screenshot(path=shot(tmp_path, "room-bots-zh-Hant-390.png"), full_page=True)
    assert not page.errors


def test_the_host_takes_a_person_out_of_a_seat_and_they_are_told(web_server, browser):
    host = person(browser, web_server.url, "Ann")
    link = create_room(host, "baohuang")
    guest = person(browser, web_server.url, "Kei", locale="ja-JP")
    guest.goto(link)
    guest.click(".seats li[data-seat='3'] button")  # 「ここに座る」
    host.wait_for_selector(".seats li[data-seat='3'] .remove-person")
    assert host.locator(".seats li[data-seat='0'] .remove-person").count() == 0  # not oneself
    host.click(".seats li[data-seat='3'] .remove-person")
    host.wait_for_selector("dialog.confirm[open]")
    assert host.inner_text("dialog.confirm p") == EN["remove_confirm"].format(name="Kei")
    host.click("#confirm-yes")
    guest.wait_for_selector("#banner.warn")
    assert guest.inner_text("#banner") == JA["error.removed"]
    host.wait_for_function(
        "() => !document.querySelector(\".seats li[data-seat='3'] .remove-person\")"
    )
    assert seat_names(host)[3].startswith(EN["empty_seat"])
    assert room_of(host, web_server.url)["seats"][3]["player"] is None
    # still watching: the seat can be taken again
    guest.wait_for_selector(".seats li[data-seat='3'] button")
    assert not host.errors and not guest.errors


def test_the_host_changes_the_rooms_settings_until_the_start(web_server, browser, tmp_path):
    host = person(browser, web_server.url, "Ann", viewport=DESKTOP)
    link = create_room(host, "baohuang")
    guest = person(browser, web_server.url, "Bo")
    guest.goto(link)
    guest.wait_for_selector(".seats")
    assert guest.locator("#room-setup").count() == 0  # the host's alone
    host.click("#room-setup summary")
    assert host.input_value("#set-opt-deals") == "1"
    host.select_option("#set-opt-variant", "japanese")
    assert host.locator("#set-opt-grabbing").count() == 0
    host.fill("#set-opt-deals", "3")
    host.fill("#set-turn", "30")
    host.screenshot(path=shot(tmp_path, "room-setup-1280.png"), full_page=True)
    host.click("#save-settings")
    host.wait_for_selector("#banner.info")
    room = room_of(host, web_server.url)
    assert room["options"]["deals"] == 3 and room["options"]["variant"] == "japanese"
    assert room["settings"]["turn_seconds"] == 30
    assert host.input_value("#set-opt-deals") == "3"  # drawn again from the room
    # everyone in the room reads the new setup (a room frame), in their own words
    said = EN["label_value"].format(label="Deals", value=3)
    guest.wait_for_function(
        "t => document.getElementById('room-options').textContent.includes(t)", arg=said
    )
    assert "grabbing" not in guest.inner_text("#room-options").lower()  # japanese rules
    host.fill("#set-opt-deals", "0")  # refused: said, nothing changed
    host.click("#save-settings")
    host.wait_for_selector("#banner.error")
    assert host.inner_text("#banner") == EN["error.bad_options.range"].format(
        option="Deals", low=1, high=50
    )
    assert room_of(host, web_server.url)["options"]["deals"] == 3
    host.click("#fill-bots")
    host.wait_for_selector("#fill-bots", state="detached")
    host.click("#start")
    host.wait_for_selector("#room-setup", state="detached")  # set up until the start only
    assert not host.errors and not guest.errors


def test_copying_the_invite_says_so(web_server, browser):
    host = person(browser, web_server.url, "Ann")
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    link = create_room(host, "baohuang")
    host.click("#copy-invite")
    host.wait_for_function(
        "t => document.getElementById('copy-invite').textContent === t", arg=EN["copied"]
    )
    copied = host.evaluate("navigator.clipboard.readText()")
    assert "#/room/" in copied and "invite=" in copied
    host.wait_for_function(
        "t => document.getElementById('copy-invite').textContent === t",
        arg=EN["copy_invite"],
        timeout=5000,
    )

    # no clipboard (plain http on a LAN): the link is shown, selected, to copy by hand
    other = person(browser, web_server.url, "Bo")
    other.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    other.goto(link)
    other.reload()
    other.wait_for_selector("#copy-invite")
    other.click("#copy-invite")
    other.wait_for_selector("#invite-link")
    assert "#/room/" in other.input_value("#invite-link")
    selected = other.evaluate(
        "() => { const f = document.getElementById('invite-link');"
        " return f.selectionEnd - f.selectionStart; }"
    )
    assert selected == len(other.input_value("#invite-link"))
    assert not host.errors and not other.errors
