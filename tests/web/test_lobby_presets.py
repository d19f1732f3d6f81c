"""The new-room form offers the game's presets first (GET /api/games): their names and the
line saying what each changes are in the page's language; choosing one sets the option
fields, a field changed by hand shows "custom", and a room made from a preset has its options."""

from __future__ import annotations

import json
import re

import httpx

from tests.paths import WEB
from tests.web.helpers import DESKTOP, PHONE, artifacts, needs_chromium, person
from yamen.engine import get_game

pytestmark = needs_chromium

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
SHELL = {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text()) for lang in LANGS}
BH = json.loads((WEB / "i18n" / "games" / "baohuang.json").read_text())
LATIN = re.compile(r"[A-Za-z]")
PRESET = """() => { const s = document.getElementById('opt-preset');
  return { value: s.value, options: [...s.options].map(o => [o.value, o.text]),
           summary: document.getElementById('opt-preset-summary').textContent }; }"""


def preset(page):
    return page.evaluate(PRESET)


def test_presets_in_every_language_set_the_fields(web_server, browser):
    games = {g["game"]: g for g in httpx.get(f"{web_server.url}/api/games").json()}
    names = [p["name"] for p in games["baohuang"]["presets"]]
    assert names[:2] == ["shandong_text", "standard_168"]
    page = person(browser, web_server.url, "Ann", viewport=PHONE)
    page.select_option("#game", "baohuang")
    for lang in LANGS:
        page.select_option("#lang", lang)
        words, shell = BH[lang], SHELL[lang]
        page.wait_for_function(
            "t => document.getElementById('opt-preset').options[0].text === t",
            arg=words["baohuang.preset.shandong_text"],
        )
        shown = preset(page)
        assert shown["options"] == [
            *[[name, words[f"baohuang.preset.{name}"]] for name in names],
            ["", shell["preset_custom"]],
        ]
        assert shown["value"] == "shandong_text"  # the defaults are the Shandong text
        assert shown["summary"] == shell["preset_defaults"]
        page.select_option("#opt-preset", "standard_168")
        assert page.input_value("#opt-variant") == "japanese"
        assert page.is_checked("#opt-tribute") and page.locator("#opt-grabbing").count() == 0
        rules = words["baohuang.choice.variant.japanese"]
        said = shell["label_value"].format(label=words["baohuang.option.variant"], value=rules)
        assert preset(page)["summary"] == said
        if lang != "en":
            text = page.inner_text(".lobby form")
            assert not LATIN.search(text), (lang, text)
        page.screenshot(path=str(artifacts() / f"lobby-presets-{lang}-390.png"))
        page.select_option("#opt-preset", "shandong_text")
        assert page.input_value("#opt-variant") == "shandong"
        assert page.locator("#opt-tribute").count() == 0  # no tribute in the 216-card game
    assert not page.errors


def test_a_room_made_from_a_preset_has_its_options(web_server, browser):
    page = person(browser, web_server.url, "Bo", viewport=DESKTOP)
    page.select_option("#game", "baohuang")
    page.fill("#opt-deals", "3")
    assert preset(page)["value"] == ""  # a field changed by hand: custom, and no summary line
    assert preset(page)["summary"] == ""
    page.select_option("#opt-preset", "standard_168")  # every field: the preset's, else default
    assert page.input_value("#opt-deals") == "1"
    page.set_checked("#opt-tribute", False)
    assert preset(page)["value"] == ""
    page.set_checked("#opt-tribute", True)
    assert preset(page)["value"] == "standard_168"
    page.screenshot(path=str(artifacts() / "lobby-presets-en-1280.png"))
    page.select_option("#pace", "0")
    page.click("#create")
    page.wait_for_selector(".seats")
    room_id = re.search(r"#/room/([\w-]+)", page.url).group(1)
    room = httpx.get(f"{web_server.url}/api/rooms/{room_id}").json()
    assert room["options"] == get_game("baohuang", {"variant": "japanese"}).options
    # the room's setup shows the preset its options are
    page.click("#room-setup summary")
    assert page.input_value("#set-opt-preset") == "standard_168"
    assert not page.errors
